"""A running table against the engine, the in-memory store and a recording presenter."""

from __future__ import annotations

import asyncio
import itertools
import logging
import random
from collections.abc import Callable
from concurrent.futures import Future

import pytest

from skatbot.ai import Level
from skatbot.engine import Bid, Hold, NotYourTurn, Pass, RuleSet
from skatbot.engine.views import seat_view
from skatbot.tables import TableGame, TableState, TableTiming
from skatbot.tables import events as ev
from skatbot.tables.errors import (
    AlreadySeated,
    NotAllowed,
    NotAtTable,
    SittingOut,
    TableFull,
    WrongTableState,
)
from skatbot.tables.log import AddAI, RemoveAI, StandIn, Start, parse_entry
from skatbot.tables.view import Step
from tests.tables.kit import InlineExecutor, P, R, TableKit, person_at, seed_with_first_dealer

ALICE, BOB, CAROL, DAVE, STRANGER = 100, 101, 102, 103, 999


async def seat_three(kit: TableKit) -> None:
    for user, name in ((ALICE, "Alice"), (BOB, "Bob"), (CAROL, "Carol")):
        await kit.table.join(user, name)


async def test_lobby_refusals_change_nothing(kit: TableKit) -> None:
    await seat_three(kit)
    with pytest.raises(AlreadySeated):
        await kit.table.join(ALICE, "Alice")
    with pytest.raises(TableFull):
        await kit.table.join(DAVE, "Dave")
    with pytest.raises(TableFull):
        await kit.table.add_ai(ALICE, Level.NORMAL)
    with pytest.raises(NotAtTable):
        await kit.table.start(STRANGER)
    with pytest.raises(NotAllowed):
        await kit.table.remove_ai(ALICE)
    assert kit.store.logs[1] == ["join 100 Alice", "join 101 Bob", "join 102 Carol"]
    await kit.table.leave(BOB)
    with pytest.raises(NotAllowed, match="needs 3 players"):
        await kit.table.start(ALICE)
    assert [o.name for o in kit.table.game.places] == ["Alice", "Carol"]


async def test_a_level_the_table_does_not_seat_is_refused(kit: TableKit) -> None:
    await kit.table.join(ALICE, "Alice")
    with pytest.raises(NotAllowed, match="unknown AI level 'random': choose easy, normal or strong"):
        await kit.table.add_ai(ALICE, Level.RANDOM)
    assert [o.name for o in kit.table.game.places] == ["Alice"]


def test_ai_levels_in_the_log_keep_their_names() -> None:
    assert str(AddAI(Level.STRONG)) == "add-ai strong" and str(StandIn(2, Level.NORMAL)) == "stand-in 2 normal"
    assert parse_entry("add-ai strong") == AddAI(Level.STRONG)
    assert parse_entry("stand-in 2 normal") == StandIn(2, Level.NORMAL)
    with pytest.raises(ValueError, match="malformed table log entry 'add-ai godlike'"):
        parse_entry("add-ai godlike")


async def test_who_asked_for_a_computer_player_is_in_the_log_and_older_logs_still_read(kit: TableKit) -> None:
    await kit.table.join(ALICE, "Alice")
    await kit.table.join(BOB, "Bob")
    await kit.table.add_ai(BOB, Level.STRONG)
    await kit.table.remove_ai(ALICE)
    assert [str(entry) for entry in kit.table.entries[2:]] == [f"add-ai strong {BOB}", f"remove-ai {ALICE}"]
    for text in (f"add-ai strong {BOB}", f"remove-ai {ALICE}", "add-ai strong", "remove-ai"):
        assert str(parse_entry(text)) == text
    assert parse_entry("add-ai normal") == AddAI(Level.NORMAL) and parse_entry("remove-ai") == RemoveAI()
    for bad in ("add-ai normal bob", "remove-ai all"):
        with pytest.raises(ValueError, match="malformed table log entry"):
            parse_entry(bad)


async def test_three_humans_play_a_series_and_each_deal_is_recorded_once(kit: TableKit) -> None:
    await seat_three(kit)
    await kit.table.start(ALICE)
    await kit.play_human_turns({ALICE, BOB, CAROL}, random.Random(3))
    await kit.table.settle()
    game = kit.table.game
    assert game.state is TableState.FINISHED
    assert sorted(kit.store.deals) == [(1, 0), (1, 1), (1, 2)]
    assert kit.store.states[1] is TableState.FINISHED
    kinds = [type(e).__name__ for e in kit.presenter.events]
    assert kinds.count("DealStarted") == 3 and kinds.count("DealFinished") == 3
    assert kinds[-1] == "SeriesFinished"
    # the dealer rotates from the one drawn at the start: forehand is the dealer's left
    first = game.first_dealer
    assert [row.dealer for row in game.finished] == [first, (first + 1) % 3, (first + 2) % 3]
    assert [row.places for row in game.finished] == [
        ((d + 1) % 3, (d + 2) % 3, d) for d in (row.dealer for row in game.finished)]
    assert game.totals() == [sum(row.place_scores[p] for row in game.finished) for p in range(3)]


async def test_out_of_turn_and_strangers_are_refused_and_nothing_is_stored(kit: TableKit) -> None:
    await seat_three(kit)
    await kit.table.start(ALICE)
    game = kit.table.game
    middlehand = person_at(game, 1)
    forehand = person_at(game, 0)
    before = list(kit.store.logs[1])
    with pytest.raises(NotYourTurn, match="not your turn"):
        await kit.table.act(forehand, Bid(18))
    with pytest.raises(NotAtTable):
        await kit.table.act(STRANGER, Pass())
    with pytest.raises(ValueError, match="not on the bid ladder"):
        await kit.table.act(middlehand, Bid(19))
    assert kit.store.logs[1] == before
    await kit.table.act(middlehand, Bid(18))
    assert kit.store.logs[1][-1] == "act 0 1 bid 18"


async def test_a_control_drawn_for_an_earlier_moment_is_refused_and_nothing_is_stored(kit: TableKit) -> None:
    await seat_three(kit)
    await kit.table.start(ALICE)
    game = kit.table.game
    middlehand, forehand = person_at(game, 1), person_at(game, 0)
    drawn_at = kit.table.seq  # forehand's "Yes (18)" is drawn now; middlehand bids on
    await kit.table.act(middlehand, Bid(18), seq=drawn_at)
    await kit.table.act(forehand, Hold(), seq=kit.table.seq)
    await kit.table.act(middlehand, Bid(20), seq=kit.table.seq)
    before = list(kit.store.logs[1])
    with pytest.raises(WrongTableState, match="earlier moment"):
        await kit.table.act(forehand, Hold(), seq=drawn_at + 1)  # the old "Yes (18)" now would mean 20
    with pytest.raises(WrongTableState, match="earlier moment"):
        await kit.table.act(forehand, Hold(), seq=-1)  # drawn before moments were carried
    assert kit.store.logs[1] == before and game.deal is not None and game.deal.bid == 20
    await kit.table.act(forehand, Hold(), seq=kit.table.seq)
    assert kit.store.logs[1][-1] == "act 0 0 hold"


async def test_of_two_clicks_drawn_for_the_same_moment_only_the_first_is_recorded(kit: TableKit) -> None:
    await seat_three(kit)
    await kit.table.start(ALICE)
    middlehand = person_at(kit.table.game, 1)
    seq = kit.table.seq
    results = await asyncio.gather(kit.table.act(middlehand, Bid(18), seq=seq),
                                   kit.table.act(middlehand, Bid(20), seq=seq), return_exceptions=True)
    assert isinstance(results[0], Step) and isinstance(results[1], WrongTableState)
    assert kit.store.logs[1][-1] == "act 0 1 bid 18"


async def test_a_player_who_left_cannot_act_for_the_seat_until_rejoining(kit: TableKit) -> None:
    await seat_three(kit)
    await kit.table.start(ALICE)
    game = kit.table.game
    middlehand = person_at(game, 1)
    assert middlehand is not None
    await kit.table.leave(middlehand)
    before = list(kit.store.logs[1])
    with pytest.raises(NotAllowed, match="/skat join to come back"):
        await kit.table.act(middlehand, Bid(18), seq=kit.table.seq)
    assert kit.store.logs[1] == before
    await kit.table.settle()  # the stand-in plays the seat
    await kit.table.join(middlehand, "back")
    assert game.places[game.place_of(middlehand) or 0].plays_itself


async def test_controls_of_a_closed_or_finished_table_say_so(kit: TableKit) -> None:
    await seat_three(kit)
    await kit.table.start(ALICE)
    middlehand = person_at(kit.table.game, 1)
    await kit.table.stop(ALICE)
    with pytest.raises(WrongTableState, match="the table is closed"):
        await kit.table.act(middlehand, Bid(18), seq=kit.table.seq)
    with pytest.raises(WrongTableState, match="the table is closed"):
        await kit.table.leave(BOB)
    finished = TableKit(deals=1)
    await seat_three(finished)
    await finished.table.start(ALICE)
    await finished.play_human_turns({ALICE, BOB, CAROL}, random.Random(3))
    with pytest.raises(WrongTableState, match="series is over"):
        await finished.table.act(ALICE, Pass(), seq=finished.table.seq)


async def test_a_stop_racing_an_ai_move_is_quiet(kit: TableKit, caplog: pytest.LogCaptureFixture) -> None:
    """The AI decides while the table is stopped: its move is dropped without an error in the log."""
    await kit.table.join(ALICE, "Alice")
    await kit.table.add_ai(ALICE, Level.NORMAL)
    await kit.table.add_ai(ALICE, Level.NORMAL)
    release = asyncio.Event()

    class SlowExecutor(InlineExecutor):
        # An asyncio future, not a concurrent one: run_in_executor's wrap_future passes it through as it is.
        def submit(self, fn: Callable[P, R], /, *args: P.args,  # type: ignore[override]
                   **kwargs: P.kwargs) -> asyncio.Future[R]:
            future: asyncio.Future[R] = asyncio.get_running_loop().create_future()

            async def later() -> None:
                await release.wait()
                future.set_result(fn(*args, **kwargs))
            asyncio.ensure_future(later())
            return future

    kit.table.executor = SlowExecutor()
    kit.table.timing = TableTiming(ai_pause=0.0)
    seeds = itertools.count(3, 3)
    kit.table.new_seed = lambda: next(seeds)  # the first dealer is place 0: an AI is middlehand and bids first
    await kit.table.start(ALICE)
    for _ in range(20):  # until an AI is thinking
        await asyncio.sleep(0)
    assert kit.table.ai.task is not None and not kit.table.ai.task.done()
    await kit.table.stop(ALICE)
    release.set()
    await kit.table.settle()
    assert kit.table.game.state is TableState.ABANDONED
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_two_clicks_at_once_apply_once(kit: TableKit) -> None:
    await seat_three(kit)
    await kit.table.start(ALICE)
    middlehand = person_at(kit.table.game, 1)
    results = await asyncio.gather(kit.table.act(middlehand, Bid(18)), kit.table.act(middlehand, Bid(18)),
                                   return_exceptions=True)
    assert sum(isinstance(r, Step) for r in results) == 1
    assert isinstance([r for r in results if not isinstance(r, Step)][0], NotYourTurn)
    assert kit.store.logs[1].count("act 0 1 bid 18") == 1


async def test_a_failed_write_is_refused_and_the_table_stays_as_stored(kit: TableKit) -> None:
    await seat_three(kit)
    await kit.table.start(ALICE)
    middlehand = person_at(kit.table.game, 1)
    kit.store.fail_next_append = True
    with pytest.raises(OSError):
        await kit.table.act(middlehand, Bid(18))
    assert kit.table.game.deal is not None and kit.table.game.deal.bid == 0
    await kit.table.act(middlehand, Bid(18))
    assert kit.table.game.deal.bid == 18


async def test_replaying_the_stored_log_rebuilds_the_table_exactly(kit: TableKit) -> None:
    await seat_three(kit)
    await kit.table.start(ALICE)
    rng = random.Random(11)
    for _ in range(25):  # part of the way into the series
        deal = kit.table.game.deal
        assert deal is not None and deal.current_seat is not None
        actions = deal.legal_actions()
        await kit.table.act(person_at(kit.table.game, deal.current_seat), actions[rng.randrange(len(actions))])
    live = kit.table.game
    rebuilt = TableGame(size=3, deals=3, rules=live.rules, creator_id=100)
    for text in kit.store.logs[1]:
        rebuilt.apply(parse_entry(text))
    assert rebuilt.deal_number == live.deal_number
    assert rebuilt.deal is not None and live.deal is not None
    assert rebuilt.deal.history == live.deal.history
    assert [seat_view(rebuilt.deal, s) for s in range(3)] == [seat_view(live.deal, s) for s in range(3)]
    assert [r.place_scores for r in rebuilt.finished] == [r.place_scores for r in live.finished]


async def test_four_players_the_dealer_sits_out() -> None:
    kit = TableKit(size=4, deals=4)
    for user, name in ((ALICE, "Alice"), (BOB, "Bob"), (CAROL, "Carol"), (DAVE, "Dave")):
        await kit.table.join(user, name)
    await kit.table.start(ALICE)
    game = kit.table.game
    first = game.first_dealer
    assert game.dealer_of(0) == first and game.places_of(0) == tuple((first + n) % 4 for n in (1, 2, 3))
    dealer = (ALICE, BOB, CAROL, DAVE)[first]
    with pytest.raises(SittingOut, match="sit out"):
        await kit.table.act(dealer, Pass())
    await kit.play_human_turns({ALICE, BOB, CAROL, DAVE}, random.Random(5))
    assert [row.dealer for row in game.finished] == [(first + n) % 4 for n in range(4)]
    for row in game.finished:
        assert row.place_scores[row.dealer] == 0 or kit.table.game.rules.seeger_fabian


async def test_human_against_two_ais_plays_a_series(kit: TableKit, ai_first_legal: None) -> None:
    await kit.table.join(ALICE, "Alice")
    await kit.table.add_ai(ALICE, Level.NORMAL)
    await kit.table.add_ai(ALICE, Level.EASY)
    await kit.table.start(ALICE)
    await kit.play_human_turns({ALICE}, random.Random(2))
    await kit.table.settle()
    assert kit.table.game.state is TableState.FINISHED
    assert len(kit.store.deals) == 3
    by = {e.by for e in kit.presenter.events if isinstance(e, ev.ActionTaken)}
    assert {"ai", "player"} <= by


async def test_turn_timer_warns_then_an_ai_plays_and_absent_players_get_a_stand_in(
        kit: TableKit, ai_first_legal: None) -> None:
    await kit.table.join(ALICE, "Alice")
    await kit.table.add_ai(ALICE, Level.NORMAL)
    await kit.table.add_ai(ALICE, Level.NORMAL)
    await kit.table.start(ALICE)
    await kit.table.settle()
    await kit.let_timers_run(12)
    kinds = [(type(e).__name__, getattr(e, "reason", "")) for e in kit.presenter.events
             if isinstance(e, (ev.TurnWarning, ev.StandInStarted, ev.TableClosed))]
    assert kinds == [("TurnWarning", ""), ("StandInStarted", "timeout")] * 3 + [
        ("StandInStarted", "absent"), ("TableClosed", "nobody left")]
    assert kit.table.game.state is TableState.ABANDONED
    assert kit.store.logs[1][-2:] == ["stand-in 0 normal", "close nobody left"]


async def test_a_miss_that_ends_the_series_brings_no_stand_in(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every deal thrown in, Alice missing her one turn each time: her third miss is the series' last move.
    The series ends as usual; no stand-in is stored or announced after it."""
    from skatbot.tables import driver as driver_module

    monkeypatch.setattr(driver_module, "decide", lambda level, seed, view: next(
        (a for a in view.legal_actions if isinstance(a, Pass)), view.legal_actions[0]))
    monkeypatch.setattr(driver_module, "decide_side", lambda level, seed, view: None)
    kit = TableKit(deals=3, seed=seed_with_first_dealer(0))  # Alice deals first: forehand in the third deal
    await kit.table.join(ALICE, "Alice")
    await kit.table.add_ai(ALICE, Level.NORMAL)
    await kit.table.add_ai(ALICE, Level.NORMAL)
    await kit.table.start(ALICE)
    await kit.table.settle()
    await kit.let_timers_run()
    assert kit.table.game.state is TableState.FINISHED
    assert [e for e in kit.store.logs[1] if e.startswith(("act ", "timeout "))][-1] == "timeout 2 0 pass"  # her 3rd miss
    assert not any(e.startswith("stand-in") for e in kit.store.logs[1])
    assert isinstance(kit.presenter.events[-1], ev.SeriesFinished)


async def test_a_player_who_acts_in_time_resets_the_count_of_misses(kit: TableKit, ai_first_legal: None) -> None:
    await kit.table.join(ALICE, "Alice")
    await kit.table.add_ai(ALICE, Level.NORMAL)
    await kit.table.add_ai(ALICE, Level.NORMAL)
    await kit.table.start(ALICE)
    await kit.table.settle()
    await kit.clock.advance()
    await kit.clock.advance()  # one miss
    await kit.table.settle()
    assert kit.table.game.misses == {0: 1}
    deal = kit.table.game.deal
    assert deal is not None and kit.table.game.state is TableState.PLAYING
    if deal.current_seat is not None and person_at(kit.table.game, deal.current_seat) == ALICE:
        await kit.table.act(ALICE, deal.legal_actions()[-1])
        assert kit.table.game.misses.get(0, 0) == 0


async def test_kontra_and_re_under_house_rules(ai_first_legal: None) -> None:
    kit = TableKit(rules=RuleSet(kontra=True), deals=1)
    await seat_three(kit)
    await kit.table.start(ALICE)
    game = kit.table.game
    deal = game.deal
    assert deal is not None
    # middlehand bids 18, forehand holds, middlehand passes, rearhand passes: forehand declares
    await kit.table.act(person_at(game, 1), Bid(18))
    await kit.table.act(person_at(game, 0), deal.legal_actions()[0])
    await kit.table.act(person_at(game, 1), Pass())
    await kit.table.act(person_at(game, 2), Pass())
    declarer = person_at(game, 0)
    from skatbot.engine import Contract, Declare, GameType, Kontra, Re
    await kit.table.act(declarer, Declare(Contract(GameType.GRAND, hand=True)))
    with pytest.raises(ValueError, match="only a defender"):
        await kit.table.act(declarer, Kontra())
    await kit.table.act(person_at(game, 2), Kontra())
    await kit.table.act(declarer, Re())
    assert deal.kontra and deal.re


class BrokenPool(InlineExecutor):
    """An executor whose worker processes died: every submit fails as a ProcessPoolExecutor's would."""

    def submit(self, fn: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> Future[R]:
        from concurrent.futures.process import BrokenProcessPool

        raise BrokenProcessPool("a child process terminated abruptly")


async def test_a_broken_ai_executor_does_not_stall_the_table(kit: TableKit) -> None:
    kit.table.executor = BrokenPool()
    await kit.table.join(ALICE, "Alice")
    await kit.table.add_ai(ALICE, Level.EASY)
    await kit.table.add_ai(ALICE, Level.EASY)
    await kit.table.start(ALICE)
    await kit.play_human_turns({ALICE}, random.Random(3))
    assert kit.table.game.state is TableState.FINISHED


async def test_the_first_dealer_is_drawn_and_a_replay_deals_exactly_as_the_table_did() -> None:
    """The rules texts draw the first dealer; the draw is in the log, so the restored table agrees."""
    firsts = set()
    for seed in range(12):
        kit = TableKit(seed=seed)
        await seat_three(kit)
        await kit.table.start(ALICE)
        await kit.table.settle()
        game = kit.table.game
        firsts.add(game.first_dealer)
        assert game.dealer_of(0) == game.first_dealer and game.series is not None
        assert game.series.next_deal_seats().dealer == game.first_dealer or game.finished
        replayed = TableGame(size=3, deals=3, rules=game.rules, creator_id=game.creator_id)
        for entry in kit.store.logs[1]:
            replayed.apply(parse_entry(entry))
        assert replayed.first_dealer == game.first_dealer
        assert replayed.deal is not None and game.deal is not None
        assert replayed.places_of(0) == game.places_of(0) and replayed.deal.dealt_hands == game.deal.dealt_hands
    assert firsts == {0, 1, 2}
    start = parse_entry("start")
    assert str(start) == "start" and isinstance(start, Start) and start.first_dealer == 0  # older logs


async def _to_the_first_lead(kit: TableKit, rng: random.Random) -> None:
    """Humans bid and declare (never passing out, no null) until the first card is due."""
    from skatbot.engine import Declare, GameType, Phase

    table = kit.table
    while True:
        await table.settle()
        deal = table.game.deal
        assert deal is not None and deal.current_seat is not None
        if deal.phase is Phase.PLAY:
            return
        user = table.game.occupant_of_seat(deal.current_seat).user_id
        assert user is not None
        actions = deal.legal_actions()
        keen = [a for a in actions if not isinstance(a, Pass)] if deal.phase is Phase.AUCTION else actions
        plain = [a for a in keen if not isinstance(a, Declare) or a.contract.game is not GameType.NULL]
        await table.act(user, rng.choice(plain or keen or actions))


async def test_a_human_leader_waits_while_a_human_may_say_kontra() -> None:
    """The Kontra button reaches a defender a moment after the declaration: a human who leads at once
    would take their say away. The leader's card waits for the window, a Kontra is heard in it, and then
    the lead goes through."""
    from skatbot.engine import Kontra, PlayCard

    kit = TableKit(rules=RuleSet(kontra=True))
    await seat_three(kit)
    await kit.table.start(ALICE)
    await _to_the_first_lead(kit, random.Random(4))
    table, game = kit.table, kit.table.game
    deal = game.deal
    assert deal is not None and deal.current_seat is not None and deal.declarer is not None
    assert table.kontra_window == game.deal_number
    leader = game.occupant_of_seat(deal.current_seat).user_id
    assert leader is not None
    card = next(a for a in deal.legal_actions() if isinstance(a, PlayCard))
    with pytest.raises(NotAllowed, match="may say Kontra first"):
        await table.act(leader, card)
    assert not deal.tricks and not deal.current_trick
    defender = next(s for s in range(3) if s != deal.declarer and Kontra() in deal.side_actions(s))
    speaker = game.occupant_of_seat(defender).user_id
    assert speaker is not None
    await table.act(speaker, Kontra())
    assert deal.kontra
    await kit.clock.advance()  # the window runs out
    await table.settle()
    assert table.kontra_window is None
    assert any(isinstance(e, ev.KontraWindowClosed) for e in kit.presenter.events)
    await table.act(leader, card)
    assert deal.current_trick
