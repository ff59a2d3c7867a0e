"""Card faces in text and on buttons: a deck shows faces only when all 32 exist; the label always stays."""

from __future__ import annotations

from dataclasses import dataclass

from skatbot.engine import CARDS, Card
from skatbot.ui.emojis import CardEmojis, deck_faces


@dataclass
class Uploaded:
    name: str
    id: int


def _deck(deck: str, start: int) -> list[Uploaded]:
    return [Uploaded(name, start + number) for number, name in enumerate(sorted(deck_faces(deck)))]


def _id(faces: list[Uploaded], name: str) -> int:
    return next(face.id for face in faces if face.name == name)


def test_a_complete_deck_shows_faces_before_labels() -> None:
    faces = CardEmojis()
    uploaded = _deck("french", 1000)
    faces.use(uploaded)
    jack = Card.parse("CJ")
    assert faces.face(jack, "french", "en") == f"<:sk1_f_CJ:{_id(uploaded, 'sk1_f_CJ')}>♣J"
    # the reader's letters, on the face as in the label
    assert faces.face(jack, "french", "fr") == f"<:sk1_f_CV:{_id(uploaded, 'sk1_f_CV')}>♣V"
    assert faces.face(jack, "french", "de") == f"<:sk1_f_CB:{_id(uploaded, 'sk1_f_CB')}>♣B"
    assert faces.face(Card.parse("HA"), "french", "da") == f"<:sk1_f_HE:{_id(uploaded, 'sk1_f_HE')}>♥E"
    assert faces.face(Card.parse("HA"), "french", "fr") == f"<:sk1_f_HA:{_id(uploaded, 'sk1_f_HA')}>♥A"
    assert faces.faces([jack, Card.parse("ST")], "french", "da").endswith(f"<:sk1_f_ST:{_id(uploaded, 'sk1_f_ST')}>♠10")
    button = faces.emoji(jack, "french", "da")
    assert button is not None and button.name == "sk1_f_CB"
    assert faces.face(jack, "german", "en") == "Ei-U"  # the German deck was not uploaded: text
    assert faces.ready("french") and not faces.ready("german")


def test_an_incomplete_deck_stays_text() -> None:
    faces = CardEmojis()
    faces.use(_deck("german", 1)[:-1])
    assert not faces.ready("german")
    assert faces.face(CARDS[0], "german", "da") == "Sch-7"
    assert faces.faces([], "french", "en") == "–"
