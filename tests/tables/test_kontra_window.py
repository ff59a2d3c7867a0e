"""The Kontra window's lifecycle as a plain object of the game and the timing: no event loop, no store, no
clock. The table (`table.py`) only keeps its timer and the stored row."""

from __future__ import annotations

import asyncio
import random

import pytest

from skatbot.ai import Level
from skatbot.engine import Declare, GameType, Kontra, Pass, Phase, PlayCard, RuleSet
from skatbot.models import DueKind
from skatbot.tables.game import TableGame
from skatbot.tables.kontra import Change, KontraWindow
from skatbot.tables.log import Act, AddAI, Entry, Join, NewDeal, Start
from skatbot.tables.manager import TableManager
from skatbot.tables.memory import RecordingPresenter
from skatbot.tables.turns import TableTiming, due_steps
from tests.tables.kit import InlineExecutor, ManualClock, seed_with_first_dealer
from tests.tables.memory_store import MemoryStore
from tests.tables.test_turns import KONTRA_RULES, TIMING, seated, to_the_first_lead


def at_the_first_lead(game: TableGame) -> TableGame:
    to_the_first_lead(game)
    deal = game.deal
    assert deal is not None and deal.current_seat == 0 and deal.declarer not in (None, 0)
    return game


def test_the_window_opens_once_for_a_human_leader_and_ends_when_it_runs_out() -> None:
    game = seated(3)
    window = KontraWindow()
    assert window.follow(game, TIMING) is None, "the auction: no window"
    at_the_first_lead(game)
    assert window.follow(game, TIMING) == (Change.OPENED, 0)
    assert window.lead_waits(game) and window.holds_card(game, TIMING) is True
    assert window.follow(game, TIMING) is None, "open already: nothing changes"
    assert window.ran_out(0) is True
    assert not window.lead_waits(game) and window.holds_card(game, TIMING) is False
    assert window.follow(game, TIMING) is None, "once a deal: it does not open again"
    assert window.ran_out(0) is False, "over already (a claimed row after this process closed it)"


def test_the_window_closes_early_once_no_one_else_may_speak() -> None:
    game = at_the_first_lead(seated(3))
    deal = game.deal
    assert deal is not None and deal.declarer is not None
    window = KontraWindow()
    assert window.follow(game, TIMING) == (Change.OPENED, 0)
    game.apply(Act(0, 3 - deal.declarer, Kontra()))  # the other defender said Kontra
    game.apply(Act(0, deal.declarer, next(a for a in deal.side_actions(deal.declarer) if str(a) == "re")))
    assert window.follow(game, TIMING) == (Change.CLOSED, 0)
    assert not window.lead_waits(game) and window.holds_card(game, TIMING) is False
    game.apply(Act(0, 0, next(a for a in deal.legal_actions() if isinstance(a, PlayCard))))
    assert window.follow(game, TIMING) is None


def test_no_window_at_zero_seconds_or_without_kontra() -> None:
    """SKATBOT_KONTRA_WINDOW=0, or a table without Kontra: the leader never waits."""
    for game, timing in ((at_the_first_lead(seated(3)), TableTiming(kontra_window=0)),
                         (at_the_first_lead(seated(3, rules=RuleSet())), TIMING)):
        window = KontraWindow()
        assert window.follow(game, timing) is None
        assert window.holds_card(game, timing) is False and not window.lead_waits(game)


def test_a_window_opened_in_another_process_is_judged_as_stored() -> None:
    """This process never saw the window open (another stored the declaration): whether the leader's card
    waits is not known here; the stored end decides."""
    game = at_the_first_lead(seated(3))
    assert KontraWindow().holds_card(game, TIMING) is None


def ai_leads_with_two_humans() -> TableGame:
    game = TableGame(size=3, deals=2, rules=KONTRA_RULES, creator_id=100)
    entries: list[Entry] = [Join(100, "P0"), Join(101, "P1"), AddAI(Level.NORMAL, 100), Start(1), NewDeal(0, 11)]
    for entry in entries:
        game.apply(entry)
    return at_the_first_lead(game)


def test_an_ai_leader_waits_the_window_once_and_its_due_row_says_as_long() -> None:
    """The AI about to lead the first trick waits the window and the pause, once a deal: the same time its
    stored AI step is due after (so a process that claims it fires when this one would have played)."""
    game = ai_leads_with_two_humans()
    assert not game.occupant_of_seat(0).plays_itself
    asked = {(0, 0, "kontra"), (0, 0, "re")}  # the AI's own say was asked for (at once, before any wait)
    window = KontraWindow()
    # Stored with the declaration, while the AI's own Kontra is still to be asked: due when its lead is, so a
    # process that takes the step over (this one died) does not lead at once and cut the window short.
    assert [due.delay for due in due_steps(game, TIMING, set(), window_waited=False) if due.kind is DueKind.AI] \
        == [TIMING.kontra_window + TIMING.ai_pause]
    assert window.follow(game, TIMING) is None, "no human leader waits"
    stored = [due.delay for due in due_steps(game, TIMING, asked, window_waited=window.ai_window_waited(game))
              if due.kind is DueKind.AI]
    assert window.ai_delay(game, TIMING, asked) == stored[0] == TIMING.kontra_window + TIMING.ai_pause
    assert window.ai_window_waited(game)
    assert window.ai_delay(game, TIMING, asked) == TIMING.ai_pause, "the window once a deal; the pause each move"


async def test_an_ai_leader_at_a_table_waits_the_window_and_the_pause_as_one_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    """At a table, the AI about to lead the first trick while a human may say Kontra waits the window and the
    pause as one wait, `turns.ai_delay` (what a stored AI step is due after), not the window and then the pause
    again by a count of its own."""
    from skatbot.tables import driver as driver_module

    monkeypatch.setattr(driver_module, "decide",
                        lambda level, seed, view: Pass() if Pass() in view.legal_actions else view.legal_actions[0])
    monkeypatch.setattr(driver_module, "decide_side", lambda level, seed, view: None)
    store = MemoryStore()
    clock = ManualClock()
    seeds = random.Random(seed_with_first_dealer(1))
    tables = TableManager(catalog=store, store=store, presenter=RecordingPresenter(), executor=InlineExecutor(),
                          timing=TableTiming(kontra_window=8), sleep=clock.sleep,
                          new_seed=lambda: seeds.randrange(1 << 40))
    table = await tables.create(guild_id=1, channel_id=5, creator_id=100, creator_name="Alice", size=3, deals=1,
                                rules=KONTRA_RULES)
    await table.join(101, "Bert")
    await table.add_ai(100, Level.NORMAL)  # the AI sits where the first deal's forehand is
    await table.start(100)
    rng = random.Random(3)
    for _ in range(60):
        if table.game.deal is not None and table.game.deal.phase is Phase.PLAY:
            break  # (the AI waits now: the table does not settle)
        assert await table.settle(timeout=30)  # the AI answers at once (no pause in the auction)
        deal = table.game.deal
        assert deal is not None and deal.current_seat is not None
        if deal.phase is Phase.PLAY:
            break
        user = table.game.occupant_of_seat(deal.current_seat).user_id
        assert user is not None, "the AI passed: the humans bid and declare"
        actions = deal.legal_actions()
        keen = [a for a in actions if not isinstance(a, Pass)] if deal.phase is Phase.AUCTION else actions
        plain = [a for a in keen if not isinstance(a, Declare) or a.contract.game is not GameType.NULL]
        action = rng.choice(plain or keen or actions)
        if isinstance(action, Declare):
            table.timing = TableTiming(kontra_window=8, ai_pause=2)  # people watch from here on
        await table.act(user, action)
    deal = table.game.deal
    assert deal is not None and deal.current_seat == 0 and not table.game.occupant_of_seat(0).plays_itself
    for _ in range(10):
        await asyncio.sleep(0)
    assert 10.0 in [seconds for seconds, _ in clock.sleepers], "one wait: the window and the pause"
    assert 8.0 not in [seconds for seconds, _ in clock.sleepers]
    await tables.close()
