"""Card and game names in the server's deck style: French (♣ ♠ ♥ ♦) or German suits (Eichel, Grün, Rot, Schellen)."""

from __future__ import annotations

from skatbot.engine import Card, Contract, GameType, Rank, Suit

FRENCH, GERMAN = "french", "german"

_GERMAN_SUIT = {Suit.CLUBS: "Ei", Suit.SPADES: "Gr", Suit.HEARTS: "Rot", Suit.DIAMONDS: "Sch"}
_GERMAN_RANK = {Rank.JACK: "U", Rank.QUEEN: "O", Rank.KING: "K", Rank.ACE: "D"}


def card_label(card: Card, deck: str = FRENCH) -> str:
    """Short card text for buttons and lines: `♣J`, `♠10`; German-suited: `Ei-U`, `Gr-10`."""
    if deck == GERMAN:
        return f"{_GERMAN_SUIT[card.suit]}-{_GERMAN_RANK.get(card.rank, card.rank.display)}"
    return card.display


def cards_text(cards: list[Card] | tuple[Card, ...], deck: str = FRENCH) -> str:
    return " ".join(card_label(card, deck) for card in cards) or "–"


SUIT_NAMES = {
    ("en", FRENCH): {GameType.CLUBS: "♣ Clubs", GameType.SPADES: "♠ Spades", GameType.HEARTS: "♥ Hearts",
                     GameType.DIAMONDS: "♦ Diamonds"},
    ("de", FRENCH): {GameType.CLUBS: "♣ Kreuz", GameType.SPADES: "♠ Pik", GameType.HEARTS: "♥ Herz",
                     GameType.DIAMONDS: "♦ Karo"},
    ("en", GERMAN): {GameType.CLUBS: "Acorns (Eichel)", GameType.SPADES: "Leaves (Grün)",
                     GameType.HEARTS: "Hearts (Rot)", GameType.DIAMONDS: "Bells (Schellen)"},
    ("de", GERMAN): {GameType.CLUBS: "Eichel", GameType.SPADES: "Grün", GameType.HEARTS: "Rot",
                     GameType.DIAMONDS: "Schellen"},
}
OTHER_GAMES = {
    "en": {GameType.GRAND: "Grand", GameType.NULL: "Null", GameType.RAMSCH: "Ramsch"},
    "de": {GameType.GRAND: "Grand", GameType.NULL: "Null", GameType.RAMSCH: "Ramsch"},
}
ANNOUNCEMENTS = {
    "en": {"hand": "hand", "schneider": "schneider announced", "schwarz": "schwarz announced", "ouvert": "ouvert",
           "musik": "Musik"},
    "de": {"hand": "Hand", "schneider": "Schneider angesagt", "schwarz": "Schwarz angesagt", "ouvert": "offen",
           "musik": "Musik"},
}


def game_name(game: GameType, lang: str = "en", deck: str = FRENCH) -> str:
    if game.is_suit:
        return SUIT_NAMES[(lang if lang in ("en", "de") else "en", deck)][game]
    return OTHER_GAMES.get(lang, OTHER_GAMES["en"])[game]


def contract_name(contract: Contract, lang: str = "en", deck: str = FRENCH) -> str:
    """`♣ Clubs hand, schneider announced`."""
    words = ANNOUNCEMENTS.get(lang, ANNOUNCEMENTS["en"])
    extras = [words[flag] for flag in ("hand", "schneider", "schwarz", "ouvert", "musik")
              if getattr(contract, flag, False)]
    if contract.schwarz and "schneider" in [f for f in ("schneider",) if contract.schneider]:
        extras.remove(words["schneider"])
    if contract.ouvert and contract.game is not GameType.NULL and contract.schwarz:
        extras = [e for e in extras if e not in (words["schwarz"],)]
    name = game_name(contract.game, lang, deck)
    return f"{name} {', '.join(extras)}" if extras else name
