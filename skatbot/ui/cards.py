"""Card and game names in the server's deck style: French (♣ ♠ ♥ ♦) or German suits (Eichel, Grün, Rot, Schellen)."""

from __future__ import annotations

from skatbot.engine import Card, Contract, GameType, Rank, Suit

from .i18n import t

FRENCH, GERMAN = "french", "german"

_GERMAN_SUIT = {Suit.CLUBS: "Ei", Suit.SPADES: "Gr", Suit.HEARTS: "Rot", Suit.DIAMONDS: "Sch"}
_GERMAN_RANK = {Rank.JACK: "U", Rank.QUEEN: "O", Rank.KING: "K", Rank.ACE: "D"}


def card_label(card: Card, deck: str = FRENCH) -> str:
    """Short card text for buttons and lines: `♣J`, `♠10`; German-suited: `Ei-U`, `Gr-10`."""
    if deck == GERMAN:
        return f"{_GERMAN_SUIT[card.suit]}-{_GERMAN_RANK.get(card.rank, card.rank.display)}"
    return card.display


def _typed(text: str) -> str:
    return "".join(text.lower().split()).replace("-", "")


_GERMAN_TYPED = {_typed(card_label(card, GERMAN)): card for card in
                 (Card(suit, rank) for suit in _GERMAN_SUIT for rank in Rank)}


def card_from_text(text: str) -> Card:
    """A card as a player types it: ISS codes (`CJ`, `ST`), the French labels (`♠10`), or the German
    labels the bot shows with the German deck (`Gr-U`, `rot-10`, `Ei D`). ValueError when it is none."""
    try:
        return Card.parse(text)
    except ValueError:
        card = _GERMAN_TYPED.get(_typed(text))
        if card is None:
            raise
        return card


def cards_text(cards: list[Card] | tuple[Card, ...], deck: str = FRENCH) -> str:
    return " ".join(card_label(card, deck) for card in cards) or "–"


def game_name(game: GameType, lang: str = "en", deck: str = FRENCH) -> str:
    """A game's name in the reader's language; suits as the server's deck names them."""
    if game.is_suit:
        return t(lang, f"game.{deck}.{game.name.lower()}")
    return t(lang, f"game.{game.name.lower()}")


def contract_name(contract: Contract, lang: str = "en", deck: str = FRENCH) -> str:
    """`♣ Clubs hand, schneider announced`."""
    words = {flag: t(lang, f"announce.{flag}") for flag in ("hand", "schneider", "schwarz", "ouvert", "musik")}
    extras = [words[flag] for flag in ("hand", "schneider", "schwarz", "ouvert", "musik")
              if getattr(contract, flag, False)]
    if contract.schwarz and "schneider" in [f for f in ("schneider",) if contract.schneider]:
        extras.remove(words["schneider"])
    if contract.ouvert and contract.game is not GameType.NULL and contract.schwarz:
        extras = [e for e in extras if e not in (words["schwarz"],)]
    name = game_name(contract.game, lang, deck)
    return f"{name} {', '.join(extras)}" if extras else name
