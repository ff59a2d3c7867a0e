"""What a table's channel owes after "shown up to seq N": the pure part of the presenter's catch-up, without Discord."""

from __future__ import annotations

import pytest

from skatbot.engine import OFFICIAL
from skatbot.tables.events import DealFinished, SeriesFinished, TableClosed
from skatbot.tables.replay import Owed, ReplayError, owed_after

LOBBY = ["join 1 Anna", "join 2 Bert", "join 3 Carla", "start"]
SERIES = [*LOBBY, "deal 0 5", "act 0 1 pass", "act 0 2 pass", "act 0 0 pass",  # deal 1 ends at seq 7
          "deal 1 9", "act 1 1 pass", "act 1 2 pass", "act 1 0 pass"]  # deal 2, and the series, at seq 11


def owed(entries: list[str], shown_up_to: int, until: int | None = None) -> list[tuple[int, str]]:
    found = owed_after(size=3, deals=2, rules=OFFICIAL, creator_id=1, entries=entries, shown_up_to=shown_up_to,
                       until=until)
    return [(item.seq, _name(item)) for item in found]


def _name(item: Owed) -> str:
    event = item.event
    if isinstance(event, DealFinished):
        return f"result {event.row.number + 1}"
    if isinstance(event, SeriesFinished):
        return "ranking"
    return f"closed {event.reason}"


def test_from_the_start_everything_is_owed_in_the_order_of_the_log() -> None:
    assert owed(SERIES, 0) == [(7, "result 1"), (11, "result 2"), (11, "ranking")]


def test_what_was_shown_up_to_n_is_not_owed_again() -> None:
    assert owed(SERIES, 8) == [(11, "result 2"), (11, "ranking")]
    assert owed(SERIES, 7) == [(7, "result 1"), (11, "result 2"), (11, "ranking")]  # N counts entries shown
    assert owed(SERIES, len(SERIES)) == []


def test_entries_that_finish_nothing_owe_nothing() -> None:
    assert owed(SERIES[:7], 0) == []  # the lobby, a deal, two passes
    assert owed(SERIES, 0, until=7) == []
    assert owed(SERIES, 0, until=8) == [(7, "result 1")]  # the view's moment bounds what is read


def test_a_closed_table_owes_its_closing_notice_after_the_results_before_it() -> None:
    closed = [*SERIES[:9], "close stopped"]
    assert owed(closed, 0) == [(7, "result 1"), (9, "closed stopped")]
    assert owed(closed, 8) == [(9, "closed stopped")]
    found = owed_after(size=3, deals=2, rules=OFFICIAL, creator_id=1, entries=closed, shown_up_to=9)
    assert found == [Owed(9, TableClosed("stopped", 9))]
    assert found[0].at == (9, 1)  # after a result card the same entry owes (part 0)


def test_the_result_owed_is_the_deal_the_log_finished() -> None:
    first = owed_after(size=3, deals=2, rules=OFFICIAL, creator_id=1, entries=SERIES, shown_up_to=0)[0].event
    assert isinstance(first, DealFinished) and first.row.result.passed and first.row.number == 0


def test_a_corrupt_log_is_an_error_naming_the_entry_not_an_empty_debt() -> None:
    with pytest.raises(ReplayError, match=r"log entry 5"):
        owed([*LOBBY, "deal 0 5", "act 0 0 play CJ"], 0)
