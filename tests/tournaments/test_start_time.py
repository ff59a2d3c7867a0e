"""/tournament new's start time: a time without an offset is read as UTC (and said to be), one with an offset
as given; a time that passed or is no time is refused."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from cogs.tournament import parse_start
from skatbot.tournaments import TournamentError

NOW = datetime(2026, 12, 7, 18, 0, tzinfo=UTC)


def test_a_clock_time_is_today_or_tomorrow_in_utc() -> None:
    assert parse_start("19:30", NOW) == (datetime(2026, 12, 7, 19, 30, tzinfo=UTC), True)
    assert parse_start("17:30", NOW) == (datetime(2026, 12, 8, 17, 30, tzinfo=UTC), True)  # past today: tomorrow


def test_a_date_without_an_offset_is_utc_and_one_with_an_offset_is_as_given() -> None:
    assert parse_start("2026-12-24 19:30", NOW) == (datetime(2026, 12, 24, 19, 30, tzinfo=UTC), True)
    at, as_utc = parse_start("2026-12-24T19:30+01:00", NOW)
    assert at == datetime(2026, 12, 24, 19, 30, tzinfo=timezone(timedelta(hours=1))) and not as_utc
    assert at == datetime(2026, 12, 24, 18, 30, tzinfo=UTC)


@pytest.mark.parametrize(("text", "key"), [("2026-12-01 19:30", "past_time"), ("half past seven", "bad_time")])
def test_refused(text: str, key: str) -> None:
    with pytest.raises(TournamentError) as refused:
        parse_start(text, NOW)
    assert refused.value.key == key
