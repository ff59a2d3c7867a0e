"""The draw by lot and the seeding of later series, with worked examples."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from skatbot.tournaments import DrawError, TableDraw, draw_by_lot, layout, repeats, seeded_draw


@pytest.mark.parametrize(("players", "tables"), [
    (3, (3,)), (4, (4,)), (6, (3, 3)), (7, (4, 3)), (8, (4, 4)), (9, (3, 3, 3)), (10, (4, 3, 3)),
    (11, (4, 4, 3)), (12, (4, 4, 4)), (13, (4, 3, 3, 3)), (17, (4, 4, 3, 3, 3)),
])
def test_tables_of_four_where_the_count_allows_else_three(players: int, tables: tuple[int, ...]) -> None:
    assert layout(players) == tuple((size, 0) for size in tables)


def test_three_forces_tables_of_three() -> None:
    assert layout(12, three=True) == ((3, 0),) * 4
    assert layout(7, three=True, ai_fill=True) == ((3, 0), (3, 1), (3, 1))  # one computer player per table, last


@pytest.mark.parametrize(("players", "three", "key"), [
    (2, False, "too_few"), (5, False, "cannot_split"), (7, True, "not_threes"), (1, False, "too_few")])
def test_counts_no_draw_can_seat_are_refused(players: int, three: bool, key: str) -> None:
    with pytest.raises(DrawError) as refused:
        layout(players, three=three)
    assert refused.value.key == key


def test_five_players_with_ai_fill_play_at_two_tables_of_three() -> None:
    assert layout(5, ai_fill=True) == ((3, 0), (3, 1))
    tables = draw_by_lot([1, 2, 3, 4, 5], 7, ai_fill=True)
    assert [t.size for t in tables] == [3, 3] and [t.ais for t in tables] == [0, 1]


def test_seven_players_are_drawn_to_one_table_of_four_and_one_of_three_from_the_seed() -> None:
    players = [17, 11, 15, 13, 12, 16, 14]
    tables = draw_by_lot(players, 42)
    order = sorted(players)
    random.Random(42).shuffle(order)  # anyone can check the draw from its seed
    assert tables == (TableDraw(tuple(order[:4])), TableDraw(tuple(order[4:])))
    assert draw_by_lot(list(reversed(players)), 42) == tables  # the order of sign-up does not matter
    assert draw_by_lot(players, 43) != tables


def test_a_stored_seed_keeps_drawing_the_same_tables() -> None:
    # Worked example: players 1..7, seed 42 -> sorted ids shuffled by random.Random(42) = 2 4 5 3 7 1 6, cut
    # into a table of four and one of three. A draw shown with its seed must stay checkable: this never changes.
    assert draw_by_lot(range(1, 8), 42) == (TableDraw((2, 4, 5, 3)), TableDraw((7, 1, 6)))


def test_nine_players_are_drawn_to_three_tables_of_three_each_once() -> None:
    tables = draw_by_lot(range(1, 10), 2026)
    assert [t.size for t in tables] == [3, 3, 3]
    assert sorted(p for t in tables for p in t.players) == list(range(1, 10))


def test_later_series_are_set_by_the_standings_without_the_same_three_again() -> None:
    # 6 players, series 1 at {1,2,3} and {4,5,6}; the standings are 1..6. Set by rank the tables would
    # be the same; the closest swap in rank (3 and 4) mends both.
    before = (TableDraw((1, 2, 3)), TableDraw((4, 5, 6)))
    assert seeded_draw([1, 2, 3, 4, 5, 6], before) == (TableDraw((1, 2, 4)), TableDraw((3, 5, 6)))


def test_seven_players_need_two_swaps_to_mix_a_table_of_four_and_one_of_three() -> None:
    before = (TableDraw((1, 2, 3, 4)), TableDraw((5, 6, 7)))
    tables = seeded_draw([1, 2, 3, 4, 5, 6, 7], before)
    assert tables == (TableDraw((1, 2, 5, 6)), TableDraw((3, 4, 7)))
    assert not any(repeats(t.players, before) for t in tables)


def test_a_table_filled_by_a_computer_player_keeps_its_seat_in_the_seeded_draw() -> None:
    # Five players with ai_fill: tables of 3 and of 2 + a computer player. Series 1 was {1,2,3} and {4,5}+AI;
    # the standings 1..5 would seat {1,2,3} again, so 3 and 4 (closest in rank) swap.
    before = (TableDraw((1, 2, 3)), TableDraw((4, 5), 1))
    assert seeded_draw([1, 2, 3, 4, 5], before, ai_fill=True) == (TableDraw((1, 2, 4)), TableDraw((3, 5), 1))


def test_without_a_repeat_the_standings_decide_alone() -> None:
    before = (TableDraw((1, 5, 9)), TableDraw((2, 6, 7)), TableDraw((3, 4, 8)))
    assert seeded_draw(list(range(1, 10)), before) == (
        TableDraw((1, 2, 3)), TableDraw((4, 5, 6)), TableDraw((7, 8, 9)))


@pytest.mark.parametrize("players", [6, 7, 8, 9, 10, 12, 13, 16, 21])
def test_no_three_sit_together_twice_in_a_row_where_the_count_allows(players: int) -> None:
    people = list(range(100, 100 + players))
    before = draw_by_lot(people, players)
    for seed in range(5):
        ranked = people[:]
        random.Random(seed).shuffle(ranked)
        tables = seeded_draw(ranked, before)
        assert sorted(p for t in tables for p in t.players) == sorted(people)
        assert [t.size for t in tables] == [t.size for t in before]
        for table in tables:
            for three in combinations(table.players, 3):
                assert not any(set(three) <= set(t.players) for t in before), (table, before)


def test_one_table_cannot_avoid_the_same_three() -> None:
    before = (TableDraw((1, 2, 3)),)
    assert seeded_draw([3, 1, 2], before) == (TableDraw((3, 1, 2)),)


def test_a_draw_keeps_its_text_form() -> None:
    table = TableDraw((5, 6), 1)
    assert str(table) == "5,6+1" and TableDraw.parse(str(table)) == table
