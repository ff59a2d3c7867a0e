"""Restore: a table stored action by action and reopened from the file rebuilds to exactly the same deal."""

from __future__ import annotations

import asyncio
import random
from datetime import timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from storage_helpers import NOW, add_players

from skatbot.engine import Deal, Phase, RuleSet, TimeOut
from skatbot.engine.actions import Action
from skatbot.storage import LogEntry, LogKind, Player, SqliteStorage, TableState
from skatbot.storage.replay import (
    ReplayError,
    deal_info,
    deal_payload,
    rebuild_current_deal,
    replay_deals,
    rules_of,
)

RULES = RuleSet.preset("pub")  # Ramsch, Kontra and Re: more kinds of actions in the log


def _next_action(deal: Deal, rng: random.Random) -> tuple[int | None, Action]:
    """A random legal move, now and then an out-of-turn one (Kontra, Re, Claim, Concede) or a time-out."""
    if deal.phase is Phase.PLAY and deal.declarer is not None and rng.random() < 0.15:
        if rng.random() < 0.1:
            return None, TimeOut(rng.randrange(3))
        seat = rng.randrange(3)
        side = deal.side_actions(seat)
        if side:
            return seat, rng.choice(side)
    return deal.current_seat, rng.choice(deal.legal_actions())


def _state(deal: Deal) -> tuple[object, ...]:
    """Everything observable about a deal, for an exact comparison."""
    state = (deal.phase, deal.current_seat, deal.history, [deal.hand(s) for s in range(3)], deal.skat, deal.tricks,
             deal.current_trick, deal.bid, deal.declarer, deal.contract, deal.kontra, deal.re, deal.claimed,
             deal.conceded, deal.ending, deal.legal_actions() if not deal.is_over else [],
             [deal.side_actions(s) for s in range(3)])
    return state + ((deal.result,) if deal.is_over else ())


async def _play_and_store(path: Path, seed: int, stop_after: int) -> tuple[int, list[Deal]]:
    """Play deals, logging each action as the tables layer would; stop `stop_after` actions in."""
    rng = random.Random(seed)
    storage = await SqliteStorage.open(path)
    played: list[Deal] = []
    try:
        await add_players(storage, Player(1, "Anna"), Player(2, "Bert"), Player(-1, "AI", is_ai=True))
        table = await storage.tables.create(server_id=9, channel_id=9, creator_id=1, rule_preset="pub",
                                            rules=RULES.to_dict(), series_length=10, seats=(1, 2, -1), now=NOW)
        await storage.tables.set_state(table_id=table.table_id, state=TableState.PLAYING, now=NOW)
        seq, number = 0, 0
        while seq < stop_after:
            number += 1
            deal = Deal.new(seed * 100 + number, RULES)
            played.append(deal)
            await storage.tables.append(table_id=table.table_id, seq=seq, deal_number=number, kind=LogKind.DEAL,
                                        payload=deal_payload(deal, dealer=number % 3), now=NOW)
            seq += 1
            while not deal.is_over and seq < stop_after:
                seat, action = _next_action(deal, rng)
                deal.apply(action, seat)
                await storage.tables.append(table_id=table.table_id, seq=seq, deal_number=number,
                                            kind=LogKind.ACTION, payload=str(action), seat=seat,
                                            now=NOW + timedelta(seconds=seq))
                seq += 1
            if rng.random() < 0.2:  # the tables layer may log its own events between actions
                await storage.tables.append(table_id=table.table_id, seq=seq, deal_number=number,
                                            kind=LogKind.EVENT, payload='{"joined": 2}', now=NOW)
                seq += 1
    finally:
        await storage.close()
    return table.table_id, played


async def _restore(path: Path) -> list[Deal]:
    storage = await SqliteStorage.open(path)
    try:
        [unfinished] = await storage.load_unfinished_tables()
    finally:
        await storage.close()
    rules = rules_of(unfinished.table.rules)
    assert rules == RULES
    current = rebuild_current_deal(unfinished.log, rules)
    everything = replay_deals(unfinished.log, rules)
    assert current is not None and _state(current.deal) == _state(everything[-1].deal)
    assert current.info["dealer"] == everything[-1].number % 3
    return [item.deal for item in everything]


@settings(max_examples=15)
@given(seed=st.integers(0, 10**6), stop_after=st.integers(1, 160))
def test_restore_rebuilds_every_deal_exactly(tmp_path_factory: pytest.TempPathFactory, seed: int,
                                             stop_after: int) -> None:
    path = tmp_path_factory.mktemp("restore") / "table.sqlite3"
    _, played = asyncio.run(_play_and_store(path, seed, stop_after))
    restored = asyncio.run(_restore(path))
    assert [_state(d) for d in restored] == [_state(d) for d in played]
    # The rebuilt deal plays on exactly like the original.
    rng = random.Random(seed)
    original, rebuilt = played[-1], restored[-1]
    while not original.is_over:
        seat, action = _next_action(original, rng)
        original.apply(action, seat)
        rebuilt.apply(action, seat)
    assert _state(rebuilt) == _state(original)


def _entry(seq: int, kind: LogKind, payload: str, seat: int | None = None, deal_number: int = 1) -> LogEntry:
    return LogEntry(seq, deal_number, kind, seat, payload, NOW)


def test_a_log_before_the_first_deal_has_no_current_deal() -> None:
    assert rebuild_current_deal([_entry(0, LogKind.EVENT, "{}")], RULES) is None


def test_a_corrupt_log_is_a_clear_error_naming_the_entry() -> None:
    deal = Deal.new(5, RULES)
    start = _entry(0, LogKind.DEAL, deal_payload(deal))
    refused = _entry(1, LogKind.ACTION, "play CJ", seat=0)  # cards are not played during the auction
    with pytest.raises(ReplayError, match=r"log entry 1 \('play CJ' by seat 0\)"):
        replay_deals([start, refused], RULES)
    with pytest.raises(ReplayError, match="log entry 1.*malformed"):
        replay_deals([start, _entry(1, LogKind.ACTION, "jump", seat=1)], RULES)
    with pytest.raises(ReplayError, match="no deal entry"):
        replay_deals([_entry(0, LogKind.ACTION, "pass", seat=1)], RULES)
    with pytest.raises(ReplayError, match="unreadable deal"):
        replay_deals([_entry(0, LogKind.DEAL, "{not json")], RULES)
    with pytest.raises(ReplayError, match="bad deal"):
        replay_deals([_entry(0, LogKind.DEAL, '{"hands": [["CJ"]], "skat": []}')], RULES)
    with pytest.raises(ReplayError, match="not a deal entry"):
        deal_info(refused)


def test_a_deal_entry_with_only_a_seed_deals_the_same_cards() -> None:
    from_seed = replay_deals([_entry(0, LogKind.DEAL, '{"seed": 77}')], RULES)[0].deal
    assert from_seed.dealt_hands == Deal.new(77, RULES).dealt_hands
