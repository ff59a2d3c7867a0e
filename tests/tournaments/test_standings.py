"""Seeger-Fabian standings across tables, the tie-break, fees, and the tournament log, with worked examples."""

from __future__ import annotations

import pytest

from skatbot.tournaments import (
    DealLine,
    Drawn,
    Ended,
    Entry,
    Joined,
    Left,
    Shown,
    TableDraw,
    TableOpened,
    TournamentError,
    TournamentSettings,
    TournamentState,
    draw_by_lot,
    fees_of,
    parse_entry,
    standings,
)


def line(series: int, table: int, table_id: int, number: int, seeger: dict[int, int],
         declarer: int | None = None, won: bool | None = None) -> DealLine:
    return DealLine(series, table, table_id, number, seeger, declarer, won)


def test_points_are_summed_across_tables_and_series() -> None:
    # Table 1 (four): Alice (1) wins clubs 36 -> 36 + 50 = 86. Table 2 (three): Ben (5) loses a grand 48
    # -> -2 x 48 - 50 = -146, the other two 40 each.
    lines = [line(1, 1, 10, 1, {1: 86, 2: 0, 3: 0, 4: 0}, 1, True),
             line(1, 2, 11, 1, {5: -146, 6: 40, 7: 40}, 5, False),
             line(2, 1, 12, 1, {5: 0, 1: 0, 6: 70, 2: 0}, 6, True)]
    table = standings([1, 2, 3, 4, 5, 6, 7], lines, series=2)
    assert [(s.place, s.player, s.points) for s in table[:3]] == [(1, 6, 110), (2, 1, 86), (3, 7, 40)]
    six = table[0]
    assert (six.won, six.lost, six.series, six.table, six.deals) == (1, 0, (40, 70), 1, 2)
    five = next(s for s in table if s.player == 5)
    assert (five.points, five.won, five.lost, five.place) == (-146, 0, 1, 7)


def test_a_tie_goes_to_more_games_won_not_to_a_later_series() -> None:
    # The Skatwettspielordnung: at equal points more games won come first. Series 1, Anna (1), Ben (2), Carl (3):
    # Ben wins diamonds with 1 (18 + 50 = 68) and hearts with 1 (20 + 50 = 70): 138. Series 2, Anna, Carl and
    # Dora (4): Anna wins a grand with 1 (48 + 50 = 98), Dora loses clubs with 1 (-2 x 24 - 50 = -98; Anna and
    # Carl 40 each): Anna 138. Equal points; Ben won two games, Anna one: Ben first, though Anna had the
    # better latest series.
    lines = [line(1, 1, 10, 1, {1: 0, 2: 68, 3: 0}, 2, True), line(1, 1, 10, 2, {1: 0, 2: 70, 3: 0}, 2, True),
             line(2, 1, 11, 1, {1: 98, 3: 0, 4: 0}, 1, True), line(2, 1, 11, 2, {1: 40, 3: 40, 4: -98}, 4, False)]
    table = standings([1, 2, 3, 4], lines, series=2, names={1: "Anna", 2: "Ben", 3: "Carl", 4: "Dora"})
    assert [(s.place, s.player, s.points, s.won, s.series) for s in table[:2]] == [(1, 2, 138, 2, (138, 0)),
                                                                                   (2, 1, 138, 1, (0, 138))]


def test_equal_points_and_games_won_go_to_fewer_games_lost() -> None:
    # Anna (1) wins a grand hand with 4 (with 4, game 5, hand 6: 6 x 24 = 144, + 50 = 194) and loses diamonds with
    # 1 (-2 x 18 - 50 = -86; Ben and Carl 40 each): 108. Ben (2) wins diamonds with 1 (68) + those 40: 108.
    # One game won each; Anna lost one, Ben none: Ben first.
    lines = [line(1, 1, 10, 1, {1: 194, 2: 0, 3: 0}, 1, True), line(1, 1, 10, 2, {1: -86, 2: 40, 3: 40}, 1, False),
             line(1, 1, 10, 3, {1: 0, 2: 68, 3: 0}, 2, True)]
    table = standings([1, 2, 3], lines, series=1, names={1: "Anna", 2: "Ben", 3: "Carl"})
    assert [(s.place, s.player, s.points, s.won, s.lost) for s in table[:2]] == [(1, 2, 108, 1, 0), (2, 1, 108, 1, 1)]


def test_then_the_lot_decides_the_order_series_one_was_drawn_in() -> None:
    # Carl (3) loses clubs with 1 (-98): Zora (1) and Anna (2) 40 each, no game won or lost. The lot decides, and
    # the lot is the order series 1 was drawn in: seed 40 drew Carl, Zora, Anna, so Zora is before Anna. Before
    # a draw there is no lot: they share the place, listed by name.
    lines = [line(1, 1, 10, 1, {1: 40, 2: 40, 3: -98}, 3, False)]
    lot = [p for t in draw_by_lot([1, 2, 3], 40) for p in t.players]
    assert lot == [3, 1, 2]
    names = {1: "Zora", 2: "Anna", 3: "Carl"}
    table = standings([1, 2, 3], lines, series=1, names=names, lot=lot)
    assert [(s.place, s.player, s.points) for s in table] == [(1, 1, 40), (2, 2, 40), (3, 3, -98)]
    undrawn = standings([1, 2, 3], lines, series=1, names=names)
    assert [(s.place, s.player) for s in undrawn] == [(1, 2), (1, 1), (3, 3)]


def test_the_same_stored_deal_counts_once() -> None:
    deal = line(1, 1, 10, 1, {1: 86, 2: 0, 3: 0}, 1, True)
    assert standings([1, 2, 3], [deal, deal], series=1)[0].points == 86


def test_fees_are_the_entry_and_each_game_lost_as_declarer() -> None:
    lines = [line(1, 1, 10, n, {1: -100, 2: 40, 3: 40}, 1, False) for n in (1, 2, 3)]
    alice = standings([1, 2, 3], lines, series=1)[-1]
    fees = fees_of(alice, entry_fee=1000, per_lost_game=50)
    assert (fees.entry, fees.lost_games, fees.total) == (1000, 150, 1150)


def test_a_series_is_a_multiple_of_three_deals_so_everyone_deals_and_sits_out_equally_often() -> None:
    # 12 deals at three: each of the three deals 4 times. At four, 16: each deals 4 times, so sits out 4 and
    # plays 12, as at three. 10 at three would be 14 at four: two players would sit out 4 times and play 10,
    # two 3 times and play 11 (one more deal to score in): refused, as 4 would be (6 at four: 4 or 5 deals).
    twelve = TournamentSettings("Quick", deals=12)
    assert (twelve.deals_at(3), twelve.deals_at(4)) == (12, 16)
    assert [TournamentSettings("x", deals=d).deals_at(4) for d in range(3, 37, 3)] == list(range(4, 49, 4))
    for uneven in (4, 10, 35):
        with pytest.raises(TournamentError) as refused:
            TournamentSettings("x", deals=uneven)
        assert refused.value.key == "deals_range"


def test_settings_check_their_ranges_and_deals_at_four() -> None:
    settings = TournamentSettings("Club evening", series=2, deals=36)
    assert (settings.deals_at(3), settings.deals_at(4)) == (36, 48)
    assert TournamentSettings("Quick", deals=3).deals_at(4) == 4
    assert TournamentSettings.from_json(settings.to_json()) == settings
    for bad in ({"series": 7}, {"deals": 2}, {"deals": 39}, {"deals": 10}, {"entry_fee": -1}):
        with pytest.raises(TournamentError):
            TournamentSettings("x", **bad)  # type: ignore[arg-type]


def test_the_log_replays_and_refuses_what_cannot_follow() -> None:
    settings = TournamentSettings("Club evening", series=2, deals=3)
    entries = [Joined(11, "Alice"), Joined(12, "Ben"), Joined(13, "Cara Maria"), Left(12), Joined(12, "Ben"),
               Shown("signup", 900), Drawn(1, 77, (TableDraw((13, 11, 12)),)), TableOpened(1, 1, 5)]
    state = TournamentState.replay(settings, 1, [str(e) for e in entries])
    assert [parse_entry(str(e)) for e in entries] == entries
    assert state.players == {11: "Alice", 13: "Cara Maria", 12: "Ben"}
    assert (state.series, state.phase.value, state.tables, state.shown) == (1, "playing", {(1, 1): 5}, {"signup": 900})
    assert state.table_of(5) == (1, 1)
    refusals: list[tuple[Entry, str]] = [(Joined(14, "Dirk"), "late_entry"), (Left(11), "late_leave"),
                (TableOpened(1, 1, 6), "table_opened"),
                (Drawn(2, 0, (TableDraw((11, 11, 12)),)), "two_tables"), (Drawn(3, 0, ()), "no_more_series")]
    for entry, key in refusals:
        with pytest.raises(TournamentError) as refused:
            state.apply(entry)
        assert refused.value.key == key
    assert state.series == 1 and state.tables == {(1, 1): 5}  # nothing changed
    state.apply(Ended("stopped"))
    with pytest.raises(TournamentError) as ended:
        state.apply(Drawn(2, 0, (TableDraw((11, 12, 13)),)))
    assert ended.value.key == "tournament_ended"


def test_joining_twice_and_leaving_unjoined_are_refused() -> None:
    state = TournamentState(TournamentSettings("x"), 1)
    state.apply(Joined(11, "Alice"))
    checks: list[tuple[Entry, str]] = [(Joined(11, "Alice"), "already_joined"), (Left(12), "not_joined")]
    for entry, key in checks:
        with pytest.raises(TournamentError) as refused:
            state.apply(entry)
        assert refused.value.key == key
    assert state.players == {11: "Alice"}
