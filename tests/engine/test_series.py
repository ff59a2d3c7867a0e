"""The score list: rotation, Bock queue, Kontra/Re and Ramsch inside Bock, Seeger-Fabian at three and four,
totals, ranking, and export/import as JSON and ISS records."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skatbot.engine import OFFICIAL, PASS, Contract, Deal, Ending, GameType, Kontra, Phase, Re, RuleSet
from skatbot.engine.records import deal_from_json, export_record
from skatbot.engine.rules import PRESETS, BockTrigger
from skatbot.engine.scoring import DealResult
from skatbot.engine.series import Series, SeriesError, bock_events

PUB = RuleSet.preset("pub")
TOURNAMENT = RuleSet.preset("tournament")
NAMES3 = ("Alice", "Ben", "Cara")
NAMES4 = ("Alice", "Ben", "Cara", "Dirk")


def passed() -> DealResult:
    return DealResult(None, None, None, 0, False, False, False, False, 0, 0, 0, 0, 0, 0, (0, 0, 0), Ending.PASSED)


def game(declarer: int = 0, value: int = 36, won: bool = True, kontra: bool = False, re: bool = False,
         points: int = 74, contract: str = "clubs") -> DealResult:
    """A declared game's result as the deal would give it (seat scores under the official rules)."""
    parsed = Contract.parse(contract)
    score = value if won else -2 * value
    seats = [0, 0, 0]
    seats[declarer] = score * (2 if kontra else 1) * (2 if re else 1)
    return DealResult(declarer, parsed.game, parsed, 18, won, False, False, False, 2, points, 5, 3, value,
                      score, (seats[0], seats[1], seats[2]), Ending.PLAYED_OUT, kontra, re)


def ramsch(scores: tuple[int, int, int], points: tuple[int, int, int]) -> DealResult:
    return DealResult(None, GameType.RAMSCH, Contract(GameType.RAMSCH), 0, False, False, False, False, 0, 0, 0, 1,
                      max(abs(s) for s in scores), 0, scores, Ending.PLAYED_OUT, seat_points=points)


# --- seats and rotation ---------------------------------------------------------------------------------

@pytest.mark.parametrize("names", [NAMES3, NAMES4])
def test_dealer_rotation_over_36_deals(names: tuple[str, ...]) -> None:
    series = Series(names, 36)
    n = len(names)
    dealt = [0] * n
    for number in range(1, 37):
        at = series.next_deal_seats()
        assert at.number == number and at.dealer == (number - 1) % n
        assert at.seats == tuple((at.dealer + k) % n for k in (1, 2, 3))  # forehand sits at the dealer's left
        if n == 3:
            assert at.sitting_out is None and at.seats[2] == at.dealer  # the dealer is rearhand
        else:
            assert at.sitting_out == at.dealer and at.dealer not in at.seats
        dealt[at.dealer] += 1
        series.record(passed())
    assert dealt == [36 // n] * n and series.is_over and len(series.rows) == 36
    with pytest.raises(SeriesError, match="all 36 agreed deals"):
        series.next_deal_seats()
    with pytest.raises(SeriesError, match="all 36 agreed deals"):
        series.record(passed())


def test_first_dealer_and_passed_deals_count() -> None:
    series = Series(NAMES4, 6, first_dealer=2)
    assert series.next_deal_seats().dealer == 2 and series.next_deal_seats().sitting_out == 2
    row = series.record(passed())
    assert row.game is None and row.scores == (0, 0, 0, 0) and row.won is None
    assert series.next_deal_seats().dealer == 3  # the cards pass to the next dealer


@pytest.mark.parametrize(("args", "words"), [
    ((("A", "B"), 6), "three or four"),
    ((("A", "B", "C", "D", "E"), 6), "three or four"),
    ((("A", "A", "C"), 6), "name of their own"),
    ((("A", " ", "C"), 6), "name of their own"),
    ((NAMES3, 0), "at least one deal"),
    ((NAMES3, 6, OFFICIAL, 3), "first dealer"),
])
def test_bad_series_refused(args: tuple[object, ...], words: str) -> None:
    with pytest.raises(SeriesError, match=words):
        Series(*args)  # type: ignore[arg-type]  # wrong arguments on purpose


# --- rows, Kontra/Re, Bock --------------------------------------------------------------------------------

def test_row_maps_seats_to_players() -> None:
    series = Series(NAMES4, 8)
    series.record(passed())  # deal 1: Alice deals; deal 2: Ben deals, Cara forehand, Dirk, Alice
    row = series.record(game(declarer=2, value=24, won=False, contract="grand"))
    assert row.seats == (2, 3, 0) and row.declarer == 0 and row.dealer == 1
    assert row.scores == (-48, 0, 0, 0) and row.seeger == (-98, 30, 30, 30)
    assert row.contract == "grand" and row.value == 24 and row.won is False


def test_kontra_game_queues_a_bock_round_of_one_deal_per_player() -> None:
    series = Series(NAMES3, 12, PUB)
    first = series.record(game(kontra=True))
    assert not first.bock and first.bock_triggers == (BockTrigger.KONTRA_GAME,) and first.markers == "K*"
    flags = []
    for _ in range(4):
        flags.append(series.next_deal_seats().bock)
        series.record(passed())
    assert flags == [True, True, True, False]


def test_kontra_and_re_inside_a_bock_round() -> None:
    series = Series(NAMES3, 12, PUB)
    series.record(game(value=24, points=60, won=False))  # lost at exactly 60: Bock round queued
    row = series.record(game(declarer=1, value=36, kontra=True, re=True))  # deal 2: middlehand is Alice
    assert row.bock and row.kontra and row.re and row.markers == "BKR*"
    assert row.scores == (36 * 2 * 2 * 2, 0, 0)  # Kontra, Re and Bock each double
    assert row.seeger == (36 * 4 + 50, 0, 0)  # Seeger-Fabian points: Kontra and Re, not Bock
    # The Kontra inside the Bock round queues the next round behind the running one.
    assert (series.bock_left, series.bock_pending) == (2, 1)
    flags = []
    while not series.is_over:
        flags.append(series.next_deal_seats().bock)
        series.record(passed())
    assert flags == [True, True, True, True, True, False, False, False, False, False]


def test_a_ramsch_in_a_bock_round_counts_double() -> None:
    series = Series(NAMES3, 6, PUB)
    series.record(game(kontra=True))
    row = series.record(ramsch((0, -70, 0), (30, 70, 20)))  # deal 2: seats Cara, Alice, Ben
    assert row.bock and row.game is GameType.RAMSCH and row.declarer is None and row.won is None
    assert row.scores == (-140, 0, 0) and row.seeger == (0, 0, 0)


def test_several_triggers_in_one_deal_queue_several_rounds() -> None:
    rules = PUB.with_options(bock_triggers=frozenset(BockTrigger))
    series = Series(NAMES4, 12, rules)
    row = series.record(game(kontra=True, re=True, points=60, won=False))
    assert row.bock_triggers == (BockTrigger.KONTRA_GAME, BockTrigger.RE_GAME, BockTrigger.LOST_AT_60)
    flags = []
    while not series.is_over:
        flags.append(series.next_deal_seats().bock)
        series.record(passed())
    assert flags == [True] * 11  # three rounds of four; the last deal of the list is still Bock, the rest lapses


def test_bock_triggers_need_the_rule() -> None:
    assert bock_events(OFFICIAL, game(kontra=True, points=60, won=False)) == ()
    assert bock_events(PUB, game(points=60, won=True)) == ()  # 60 is a loss, but this one says won: no 60 loss
    assert bock_events(PUB, game(points=60, won=False, contract="null")) == ()
    grand_hand = PUB.with_options(bock_triggers={BockTrigger.GRAND_HAND_WON})
    assert bock_events(grand_hand, game(contract="grand hand")) == (BockTrigger.GRAND_HAND_WON,)
    assert bock_events(grand_hand, game(contract="grand")) == ()
    assert bock_events(PUB, passed()) == ()


# --- Seeger-Fabian ---------------------------------------------------------------------------------------

def test_seeger_fabian_at_three_players() -> None:
    series = Series(NAMES3, 3, TOURNAMENT)
    won = series.record(game(declarer=0, value=36))  # Ben is forehand in deal 1
    assert won.scores == (0, 86, 0) == won.seeger
    lost = series.record(game(declarer=0, value=36, won=False))  # deal 2: Cara forehand
    assert lost.scores == (40, 40, -122) == lost.seeger
    assert series.totals == series.seeger_totals == (40, 126, -122)


def test_seeger_fabian_at_four_players_pays_the_dealer_who_sat_out() -> None:
    series = Series(NAMES4, 4, TOURNAMENT)
    lost = series.record(game(declarer=1, value=48, won=False, contract="grand"))  # Alice deals and sits out
    assert lost.seats == (1, 2, 3) and lost.declarer == 2
    assert lost.scores == (30, 30, -146, 30) == lost.seeger


def test_seeger_points_are_kept_under_any_rules() -> None:
    series = Series(NAMES3, 3, RuleSet.preset("pre-1999"))
    row = series.record(game(declarer=0, value=36, won=False))
    assert row.scores == (0, -36, 0)  # single loss
    assert row.seeger == (40, -122, 40)


def test_ranking_by_list_and_by_seeger_fabian() -> None:
    series = Series(NAMES3, 3)
    series.record(game(declarer=0, value=36))  # Ben +36, SF 86
    series.record(game(declarer=0, value=23, won=False, contract="null"))  # Cara -46, SF -96; others 40
    series.record(game(declarer=0, value=10, won=True, contract="hearts"))  # Alice +10, SF 60
    by_list = series.ranking()
    assert [(s.place, s.name, s.points) for s in by_list] == [(1, "Ben", 36), (2, "Alice", 10), (3, "Cara", -46)]
    by_seeger = series.ranking("seeger")
    assert [(s.name, s.points) for s in by_seeger] == [("Ben", 126), ("Alice", 100), ("Cara", -96)]
    assert by_list[0].won == 1 and by_list[2].lost == 1
    with pytest.raises(SeriesError, match="rank by"):
        series.ranking("elo")


def test_tied_players_share_a_place() -> None:
    series = Series(NAMES3, 3)
    series.record(passed())
    assert [s.place for s in series.ranking()] == [1, 1, 1]


# --- whole deals, the property, export and import -----------------------------------------------------------

def random_deal(rng: random.Random, rules: RuleSet) -> Deal:
    """A deal played with random legal moves; passes are likely, Kontra and Re sometimes said."""
    deal = Deal.new(rng.randrange(2**32), rules)
    while not deal.is_over:
        if deal.phase is Phase.PLAY and not deal.tricks and rng.random() < 0.3:
            for seat in range(3):
                for side in deal.side_actions(seat):
                    if isinstance(side, (Kontra, Re)):
                        deal.apply(side, seat)
        actions = deal.legal_actions()
        if deal.phase is Phase.AUCTION and rng.random() < 0.6:
            deal.apply(PASS)
        else:
            deal.apply(actions[0] if deal.phase is Phase.AUCTION and rng.random() < 0.5 else rng.choice(actions))
    return deal


def play_series(seed: int, rules: RuleSet, size: int, deals: int) -> Series:
    rng = random.Random(seed)
    series = Series(NAMES4[:size], deals, rules, first_dealer=seed % size)
    while not series.is_over:
        series.record_deal(random_deal(rng, rules))
    return series


@settings(max_examples=30)
@given(seed=st.integers(0, 2**32), preset=st.sampled_from(sorted(PRESETS)), size=st.sampled_from([3, 4]),
       deals=st.integers(1, 9))
def test_totals_always_equal_the_sum_of_the_rows(seed: int, preset: str, size: int, deals: int) -> None:
    rules = PRESETS[preset].with_options(bock_triggers=frozenset(BockTrigger)) if PRESETS[preset].kontra \
        else PRESETS[preset]
    series = play_series(seed, rules, size, deals)
    assert len(series.rows) == deals
    for player in range(size):
        assert series.totals[player] == sum(row.scores[player] for row in series.rows)
        assert series.seeger_totals[player] == sum(row.seeger[player] for row in series.rows)
    for row in series.rows:
        if row.game in (GameType.RAMSCH, None):
            assert row.declarer is None and row.won is None and row.seeger == (0,) * size
        if row.game is GameType.RAMSCH and size == 4:
            assert row.scores[row.dealer] == 0  # the dealer sat out
        if row.declarer is not None and not row.won:
            others = [row.seeger[p] for p in range(size) if p != row.declarer]
            assert others == [40 if size == 3 else 30] * (size - 1)
        if rules.seeger_fabian and not row.bock:
            assert row.scores == row.seeger or row.game is GameType.RAMSCH
    again = Series.from_json(series.to_json())
    assert again.rows == series.rows and again.totals == series.totals
    assert (again.bock_left, again.bock_pending) == (series.bock_left, series.bock_pending)


def test_json_import_checks_every_row_against_its_deal() -> None:
    series = play_series(11, PUB, 3, 6)
    data = series.to_dict()
    data["rows"][2]["scores"] = [s + 1 for s in data["rows"][2]["scores"]]
    with pytest.raises(SeriesError, match="row 3 does not match a replay of its deal"):
        Series.from_dict(data)
    data = series.to_dict()
    data["totals"][0] += 1
    with pytest.raises(SeriesError, match="stored totals"):
        Series.from_dict(data)
    data = series.to_dict()
    data["rows"][1]["dealer"] = 2
    with pytest.raises(SeriesError, match="row 2: dealer, seats or Bock"):
        Series.from_dict(data)
    with pytest.raises(SeriesError, match="version"):
        Series.from_dict({"players": NAMES3})
    with pytest.raises(SeriesError, match="not JSON"):
        Series.from_json("{")


def test_rows_without_deals_round_trip_through_json() -> None:
    series = Series(NAMES4, 5, PUB)
    series.record(game(kontra=True))
    series.record(ramsch((-50, -50, 0), (50, 50, 20)))
    again = Series.from_dict(series.to_dict())
    assert again.rows == series.rows and again.next_deal_seats() == series.next_deal_seats()


def iss_lines(series: Series) -> list[str]:
    """One ISS record line per deal of the series, numbered by deal, players named in their seats."""
    lines = []
    for row in series.rows:
        assert row.deal is not None
        lines.append(export_record(deal_from_json(row.deal), str(row.number), [series.players[p] for p in row.seats]))
    return lines


def test_a_series_read_back_from_its_iss_records_is_the_same() -> None:
    series = play_series(5, OFFICIAL, 4, 8)
    lines = iss_lines(series)
    assert len(lines) == 8 and all(line.startswith("(;GM[Skat]") for line in lines)
    first = series.rows[0]
    assert f"P0[{NAMES4[first.seats[0]]}]" in lines[0]
    again = Series.from_iss(lines, NAMES4, 8, OFFICIAL, first_dealer=series.first_dealer)
    assert again.rows == series.rows and again.totals == series.totals
    with pytest.raises(SeriesError, match="deal 1: the record seats"):
        Series.from_iss(lines, NAMES4, 8, OFFICIAL, first_dealer=(series.first_dealer + 1) % 4)


def test_recording_checks_the_deal() -> None:
    series = Series(NAMES3, 3, PUB)
    deal = random_deal(random.Random(1), OFFICIAL)
    with pytest.raises(SeriesError, match="other rules"):
        series.record_deal(deal)
    with pytest.raises(SeriesError, match="not the finished deal"):
        series.record(replace(deal.result, bid=deal.result.bid + 1), deal)
    with pytest.raises(SeriesError, match="not over"):
        series.record_deal(Deal.new(1, PUB))
    assert series.rows == []


def test_bock_doubles_the_game_not_the_seeger_fabian_bonuses() -> None:
    rules = TOURNAMENT.with_options(bock_triggers={BockTrigger.LOST_AT_60})
    series = Series(NAMES3, 4, rules)
    first = series.record(game(declarer=0, value=24, won=False, points=60))  # Ben loses at 60
    assert first.scores == (40, -98, 40) and not first.bock
    won = series.record(game(declarer=0, value=36))  # Bock: Cara forehand
    assert won.bock and won.scores == (0, 0, 2 * 36 + 50) and won.seeger == (0, 0, 86)
    lost = series.record(game(declarer=0, value=36, won=False))  # Bock: Alice forehand
    assert lost.scores == (-4 * 36 - 50, 40, 40) and lost.seeger == (-122, 40, 40)
