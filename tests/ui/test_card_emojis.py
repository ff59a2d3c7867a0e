"""Card faces in text and on buttons: a deck shows faces only when all 32 exist; the label always stays."""

from __future__ import annotations

from dataclasses import dataclass

from skatbot.engine import CARDS, Card
from skatbot.models import Deck
from skatbot.ui.emojis import CardEmojis, deck_faces
from skatbot.ui.languages import Lang


@dataclass
class Uploaded:
    name: str
    id: int


def _deck(deck: Deck, start: int) -> list[Uploaded]:
    return [Uploaded(name, start + number) for number, name in enumerate(sorted(deck_faces(deck)))]


def _id(faces: list[Uploaded], name: str) -> int:
    return next(face.id for face in faces if face.name == name)


def test_a_complete_deck_shows_faces_before_labels() -> None:
    faces = CardEmojis()
    uploaded = _deck(Deck.FRENCH, 1000)
    faces.use(uploaded)
    jack = Card.parse("CJ")
    assert faces.face(jack, Deck.FRENCH, Lang("en")) == f"<:sk1_f_CJ:{_id(uploaded, 'sk1_f_CJ')}>♣J"
    # the reader's letters, on the face as in the label
    assert faces.face(jack, Deck.FRENCH, Lang("fr")) == f"<:sk1_f_CV:{_id(uploaded, 'sk1_f_CV')}>♣V"
    assert faces.face(jack, Deck.FRENCH, Lang("de")) == f"<:sk1_f_CB:{_id(uploaded, 'sk1_f_CB')}>♣B"
    assert faces.face(Card.parse("HA"), Deck.FRENCH, Lang("da")) == f"<:sk1_f_HE:{_id(uploaded, 'sk1_f_HE')}>♥E"
    assert faces.face(Card.parse("HA"), Deck.FRENCH, Lang("fr")) == f"<:sk1_f_HA:{_id(uploaded, 'sk1_f_HA')}>♥A"
    assert faces.faces([jack, Card.parse("ST")], Deck.FRENCH, Lang("da")).endswith(f"<:sk1_f_ST:{_id(uploaded, 'sk1_f_ST')}>♠10")
    button = faces.emoji(jack, Deck.FRENCH, Lang("da"))
    assert button is not None and button.name == "sk1_f_CB"
    assert faces.face(jack, Deck.GERMAN, Lang("en")) == "Ei-U"  # the German deck was not uploaded: text
    assert faces.ready(Deck.FRENCH) and not faces.ready(Deck.GERMAN)


def test_an_incomplete_deck_stays_text() -> None:
    faces = CardEmojis()
    faces.use(_deck(Deck.GERMAN, 1)[:-1])
    assert not faces.ready(Deck.GERMAN)
    assert faces.face(CARDS[0], Deck.GERMAN, Lang("da")) == "Sch-7"
    assert faces.faces([], Deck.FRENCH, Lang("en")) == "–"
