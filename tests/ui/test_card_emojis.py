"""Card faces in text and on buttons: a deck shows faces only when all 32 exist; the label always stays."""

from __future__ import annotations

from dataclasses import dataclass

from skatbot.engine import CARDS, Card
from skatbot.pictures import emoji_name
from skatbot.ui.emojis import CardEmojis


@dataclass
class Uploaded:
    name: str
    id: int


def _deck(deck: str, start: int) -> list[Uploaded]:
    return [Uploaded(emoji_name(card, deck), start + card.index) for card in CARDS]


def test_a_complete_deck_shows_faces_before_labels() -> None:
    faces = CardEmojis()
    faces.use(_deck("french", 1000))
    jack = Card.parse("CJ")
    assert faces.face(jack, "french", "en") == f"<:sk1_f_CJ:{1000 + jack.index}>♣J"
    assert faces.face(jack, "french", "fr") == f"<:sk1_f_CJ:{1000 + jack.index}>♣V"  # the reader's letters
    assert faces.faces([jack, Card.parse("ST")], "french", "da").endswith("♠10")
    emoji = faces.emoji(jack, "french")
    assert emoji is not None and emoji.id == 1000 + jack.index
    assert faces.face(jack, "german", "en") == "Ei-U"  # the German deck was not uploaded: text
    assert faces.ready("french") and not faces.ready("german")


def test_an_incomplete_deck_stays_text() -> None:
    faces = CardEmojis()
    faces.use(_deck("german", 1)[:-1])
    assert not faces.ready("german")
    assert faces.face(CARDS[0], "german", "da") == "Sch-7"
    assert faces.faces([], "french", "en") == "–"
