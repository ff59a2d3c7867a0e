"""Card and game names in the server's deck style and the reader's language: French suits (♣ ♠ ♥ ♦, the
ranks lettered as each language letters them: ♣J, ♣B, ♣V) or German suits (Eichel, Grün, Rot, Schellen).

Whatever the bot shows a player, the player can type back: `card_from_text` reads the labels of every
language and both decks, and the ISS codes; `game_from_text` reads the game names of every language and deck.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from skatbot.engine import CARDS, Card, Contract, GameType, MalformedText, Rank, Suit
from skatbot.models import Deck

from .i18n import CODES, N_, t
from .languages import SOURCE, Lang

FRENCH, GERMAN = Deck.FRENCH, Deck.GERMAN

_GERMAN_SUIT = {Suit.CLUBS: "Ei", Suit.SPADES: "Gr", Suit.HEARTS: "Rot", Suit.DIAMONDS: "Sch"}
_GERMAN_RANK = {Rank.JACK: "U", Rank.QUEEN: "O", Rank.KING: "K", Rank.ACE: "D"}
"""The German deck keeps its German names in every language (Unter, Ober, König, Daus), as the rules texts
of every language name them."""
RANK_KEYS = {Rank.JACK: N_("card.rank.jack"), Rank.QUEEN: N_("card.rank.queen"), Rank.KING: N_("card.rank.king"),
             Rank.ACE: N_("card.rank.ace")}
"""The French deck's court cards and aces, lettered as the reader's language letters them (J Q K A; B D K A;
B D K E; V D R A); the pip cards are their numbers in every language."""


@cache
def rank_letter(rank: Rank, lang: Lang) -> str:
    """A rank of the French deck as `lang` writes it on a card: `J`, `B` (Bube, bonde), `V` (valet), `10`."""
    key = RANK_KEYS.get(rank)
    return t(lang, key) if key is not None else rank.display


@cache
def rank_letters(lang: Lang) -> tuple[str, str, str, str]:
    """Jack, queen, king and ace of the French deck as `lang` letters them, for the card pictures (kept: every
    card on every hand drawn asks, and the catalogs do not change while the bot runs)."""
    return (rank_letter(Rank.JACK, lang), rank_letter(Rank.QUEEN, lang), rank_letter(Rank.KING, lang),
            rank_letter(Rank.ACE, lang))


@cache
def card_label(card: Card, deck: Deck, lang: Lang) -> str:
    """Short card text for buttons and lines: `♣J`, `♠10` (Danish `♣B`, French `♣V`); German-suited: `Ei-U`."""
    if deck == GERMAN:
        return f"{_GERMAN_SUIT[card.suit]}-{_GERMAN_RANK.get(card.rank, card.rank.display)}"
    return card.suit.symbol + rank_letter(card.rank, lang)


def _typed(text: str) -> str:
    return "".join(text.lower().split()).replace("-", "")


@cache
def typed_labels() -> dict[str, Card]:
    """Every label the bot shows in any language and deck, as a player may type it (any case, spaces and
    dashes left out, the suit symbol before or after the rank) -> its card. ValueError if two cards would
    share one typed form (a catalog giving two ranks one letter)."""
    found: dict[str, Card] = {}
    for card in CARDS:
        forms = {_typed(card_label(card, GERMAN, "en"))}
        for lang in CODES:
            letter = rank_letter(card.rank, lang)
            forms |= {_typed(card.suit.symbol + letter), _typed(letter + card.suit.symbol)}
        for form in forms:
            if found.setdefault(form, card) is not card:
                raise ValueError(f"{form!r} would name both {found[form].iss} and {card.iss}")
    return found


def card_from_text(text: str) -> Card:
    """A card as a player types it: ISS codes (`CJ`, `ST`), or a label the bot shows in any language (`♠10`,
    `♣B`, `♥D`, `♦V`) or with the German deck (`Gr-U`, `rot-10`, `Ei D`). MalformedText when it is none."""
    try:
        return Card.parse(text)
    except MalformedText:
        card = typed_labels().get(_typed(text))
        if card is None:
            raise
        return card


def cards_text(cards: list[Card] | tuple[Card, ...], deck: Deck, lang: Lang) -> str:
    return " ".join(card_label(card, deck, lang) for card in cards) or "–"


DECLARABLE = (GameType.CLUBS, GameType.SPADES, GameType.HEARTS, GameType.DIAMONDS, GameType.GRAND, GameType.NULL)
"""The games a declarer may name, in the order the bot lists them."""


def _spelled(text: str) -> str:
    """Text as a player may type a name: any case, no spaces, accents optional (`Trèfle`, `trefle`; `cœur`,
    `coeur`)."""
    text = "".join(text.casefold().split()).replace("œ", "oe")
    return "".join(ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch))


def _game_forms(name: str) -> set[str]:
    """What a player may type for a name the bot shows: `♣ Kreuz` as itself or `Kreuz`; `Acorns (Eichel)` as
    itself, `Acorns` or `Eichel`."""
    bare = "".join(ch for ch in name if ch not in "♣♠♥♦").strip()
    forms = {name, bare}
    if "(" in bare and bare.endswith(")"):
        outer, inner = bare[:-1].split("(", 1)
        forms |= {outer, inner}
    return {_spelled(form) for form in forms if form.strip()}


@cache
def typed_games() -> dict[str, GameType]:
    """Every game name the bot shows or offers in any language and deck (`Kreuz`, `♣ Klør`, `Eichel`, `nolo`,
    `sans`... as the catalogs name them), the English names and ISS letters, as a player may type them ->
    the game. ValueError if two games would share one typed form."""
    found: dict[str, GameType] = {}
    for game in DECLARABLE:
        names = {game.value, game.iss_letter}
        for lang in CODES:
            names.add(t(lang, f"choice.game.{game.value}"))
            names |= {game_name(game, lang, deck) for deck in (FRENCH, GERMAN)}
        for form in set().union(*(_game_forms(name) for name in names)):
            if found.setdefault(form, game) is not game:
                raise ValueError(f"{form!r} would name both {found[form].value} and {game.value}")
    return found


def game_from_text(text: str) -> GameType:
    """A declarable game as a player types it, in any language the bot speaks and either deck; MalformedText
    when it names none."""
    game = typed_games().get(_spelled(text))
    if game is None:
        raise MalformedText(f"{text!r} is not a game")
    return game


def game_names(lang: Lang, deck: Deck) -> list[str]:
    """The declarable games as `lang` and `deck` name them, in the bot's order (for "choose one of ...")."""
    return [game_name(game, lang, deck) for game in DECLARABLE]


def game_name(game: GameType, lang: Lang = SOURCE, deck: Deck = FRENCH) -> str:
    """A game's name in the reader's language; suits as the server's deck names them."""
    if game.is_suit:
        return t(lang, f"game.{deck}.{game.name.lower()}")
    return t(lang, f"game.{game.name.lower()}")


_PATTERN_FIELD = re.compile(r"\{(\w+)\}")


def fill_pattern(pattern: str, parts: dict[str, str]) -> str:
    """Fill a word-order pattern such as `{game} {ouvert} {hand}, {announced}`: a part that is empty takes
    the text before it (its separator) with it, so each language orders the parts as its players say them
    and no comma or space is left hanging."""
    pieces: list[str] = []
    start = 0
    for match in _PATTERN_FIELD.finditer(pattern):
        value = parts.get(match.group(1), "")
        if value:
            pieces.append(pattern[start:match.start()] + value)
        start = match.end()
    return ("".join(pieces) + pattern[start:]).strip()


def contract_name(contract: Contract, lang: Lang = SOURCE, deck: Deck = FRENCH) -> str:
    """A contract as the language's players say it: `Null ouvert hand`, `Null ouvert Hand`, `Nolo åbent på
    hånden`, `Null ouvert de la main`, `♣ Clubs hand, schneider announced`; the order is the catalog's
    `contract.pattern`. A suit or grand ouvert with schwarz announced is the official ouvert game, whose hand
    and announcements go without saying (`Grand ouvert`)."""
    official_ouvert = contract.ouvert and contract.game is not GameType.NULL and contract.schwarz
    announced = ("" if official_ouvert else t(lang, "announce.schwarz") if contract.schwarz
                 else t(lang, "announce.schneider") if contract.schneider else "")
    parts = {
        "game": game_name(contract.game, lang, deck),
        "ouvert": t(lang, "announce.ouvert") if contract.ouvert else "",
        "hand": t(lang, "announce.hand") if contract.hand and not official_ouvert else "",
        "announced": announced,
        "musik": t(lang, "announce.musik") if contract.musik else "",
    }
    return fill_pattern(t(lang, "contract.pattern"), parts)
