"""The hand, the trick sheet and the charts: small PNGs that say which cards they show."""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta

from PIL import Image

from skatbot.ai import make_player, play_deal
from skatbot.ai.base import Level
from skatbot.engine import Card, Deal
from skatbot.engine.games import sort_key
from skatbot.models import Deck
from skatbot.pictures import cards_shown
from skatbot.pictures.charts import points_chart, totals_chart
from skatbot.pictures.hand import hand_picture
from skatbot.pictures.replay import HEADER as REPLAY_HEADER
from skatbot.pictures.replay import ROW as REPLAY_ROW
from skatbot.pictures.replay import replay_picture
from skatbot.pictures.tricks import COLUMN, HEADER, LEFT, trick_sheet


def _played(seed: int) -> Deal:
    deal = Deal.new(seed)
    play_deal(deal, [make_player(Level.NORMAL, seed + seat) for seat in range(3)])
    return deal


def _size(png: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(png)) as image:
        return image.size


def test_a_hand_is_one_small_picture_that_records_its_cards() -> None:
    deal = Deal.new(5)
    cards = sorted(deal.hand(0), key=lambda c: sort_key(None, c))
    picture = hand_picture(cards, Deck.FRENCH)
    assert 3_000 < len(picture.png) < 60_000
    width, height = _size(picture.png)
    assert 300 < width < 700 and 100 < height < 250
    assert cards_shown(picture.png) == tuple(cards) == picture.cards
    other = hand_picture(sorted(deal.hand(1), key=lambda c: sort_key(None, c)), Deck.FRENCH)
    assert other.png != picture.png
    assert hand_picture(cards, Deck.GERMAN).png != picture.png


def test_the_skat_cards_are_marked_after_the_pickup() -> None:
    deal = Deal.new(5)
    twelve = sorted([*deal.hand(0), *deal.dealt_skat], key=lambda c: sort_key(None, c))
    plain = hand_picture(twelve, Deck.FRENCH)
    marked = hand_picture(twelve, Deck.FRENCH, frozenset(deal.dealt_skat))
    assert marked.png != plain.png
    assert cards_shown(marked.png) == tuple(twelve)


def test_the_same_hand_is_drawn_once() -> None:
    cards = Deal.new(9).hand(2)
    assert hand_picture(cards, Deck.FRENCH).png is hand_picture(list(cards), Deck.FRENCH).png


def test_the_trick_sheet_shows_every_played_card_and_the_skat() -> None:
    deal = _played(11)
    sheet = trick_sheet(["alice", "🤖 bob", "carol"], deal.tricks, deal.skat, Deck.FRENCH)
    shown = cards_shown(sheet.png)
    assert shown is not None and len(shown) == 32 and set(shown) == set(sheet.cards)
    assert len(sheet.png) < 80_000
    width, height = _size(sheet.png)
    assert height > width  # ten rows of tricks
    german = trick_sheet(["alice", "bob", "carol"], deal.tricks, deal.skat, Deck.GERMAN)
    assert german.png != sheet.png


def test_a_deal_ended_early_shows_only_its_tricks() -> None:
    deal = _played(11)
    sheet = trick_sheet(["a", "b", "c"], deal.tricks[:4], (), Deck.FRENCH)
    assert len(cards_shown(sheet.png) or ()) == 12


def test_the_series_chart_is_a_small_png_that_changes_with_the_scores() -> None:
    names = ["alice", "bob", "carol"]
    first = totals_chart(names, [[24, 0, 0], [0, -48, 0], [0, 0, 36]])
    second = totals_chart(names, [[24, 0, 0], [0, -48, 0], [0, 0, -36]])
    assert first.png.startswith(b"\x89PNG") and len(first.png) < 80_000
    assert first.png != second.png
    assert _size(first.png) == (640, 320)


def test_the_points_chart_follows_a_player_over_time() -> None:
    start = datetime(2026, 1, 1, tzinfo=UTC)
    chart = points_chart("alice", [(start + timedelta(days=d), 20 - d) for d in range(30)])
    assert chart.png.startswith(b"\x89PNG") and len(chart.png) < 80_000


def _robot_pixels(png: bytes, box: tuple[int, int, int, int], colour: tuple[int, int, int]) -> int:
    """How many pixels of `box` are drawn in `colour`, or near it (the picture is stored with a palette whose
    transparency Pillow can only convert to RGBA without a warning)."""
    with Image.open(io.BytesIO(png)) as image:
        part = image.convert("RGBA").crop(box)
        pixels = [part.getpixel((x, y)) for x in range(part.width) for y in range(part.height)]
        return sum(1 for pixel in pixels
                   if isinstance(pixel, tuple) and sum(abs(a - b) for a, b in zip(pixel[:3], colour, strict=True)) < 40)


def test_a_computer_players_robot_is_drawn_before_its_name_in_the_trick_sheet_and_the_replay() -> None:
    deal = _played(11)
    marked = trick_sheet(["alice", "🤖 AI 1 (strong)", "carol"], deal.tricks, deal.skat, Deck.FRENCH)
    plain = trick_sheet(["alice", "AI 1 (strong)", "carol"], deal.tricks, deal.skat, Deck.FRENCH)
    assert marked.png != plain.png  # the bundled font has no 🤖: a robot is drawn in its place
    column = (LEFT + COLUMN, 0, LEFT + 2 * COLUMN, HEADER)  # bob's column header
    ink = (230, 232, 236)
    assert _robot_pixels(marked.png, column, ink) > _robot_pixels(plain.png, column, ink) + 40
    hands: list[list[Card]] = [[], [], []]
    replay_marked = replay_picture(["alice", "🤖 par", "carol"], hands, declarer=1)
    replay_plain = replay_picture(["alice", "par", "carol"], hands, declarer=1)
    row = (0, REPLAY_HEADER + REPLAY_ROW, 40, REPLAY_HEADER + 2 * REPLAY_ROW)  # before the second seat's name
    blue = (79, 163, 224)  # the declarer's colour, the robot's too
    assert _robot_pixels(replay_marked.png, row, blue) > _robot_pixels(replay_plain.png, row, blue) + 40
