"""The hand, the trick sheet and the charts: small PNGs that say which cards they show."""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta

from PIL import Image

from skatbot.ai import make_player, play_deal
from skatbot.ai.base import Level
from skatbot.engine import Deal
from skatbot.engine.games import sort_key
from skatbot.models import Deck
from skatbot.pictures import cards_shown
from skatbot.pictures.charts import points_chart, totals_chart
from skatbot.pictures.hand import hand_picture
from skatbot.pictures.tricks import trick_sheet


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
