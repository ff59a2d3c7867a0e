"""Restore: a table stored entry by entry and reopened from the file rebuilds, through the tables layer's
one replayer, to exactly the table that was playing."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skatbot.ai import Level
from skatbot.engine import Deal, Phase, RuleSet, TimeOut
from skatbot.engine.actions import Action
from skatbot.storage import Player, SqliteStorage, TableState
from skatbot.tables.game import TableGame
from skatbot.tables.log import Act, Entry, Join, NewDeal, StandIn, Start
from skatbot.tables.replay import ReplayError, replay_log
from tests.storage.storage_helpers import NOW, add_players

RULES = RuleSet.preset("pub")  # Ramsch, Kontra and Re: more kinds of actions in the log


def _next_action(deal: Deal, rng: random.Random) -> tuple[int | None, Action]:
    """A random legal move, now and then an out-of-turn one (Kontra, Re, Claim, Concede) or a time-out."""
    if deal.phase is Phase.PLAY and deal.declarer is not None and rng.random() < 0.15:
        if rng.random() < 0.1:
            assert deal.current_seat is not None
            return None, TimeOut(deal.current_seat)
        seat = rng.randrange(3)
        side = deal.side_actions(seat)
        if side:
            return seat, rng.choice(side)
    return deal.current_seat, rng.choice(deal.legal_actions())


def _state(game: TableGame) -> tuple[object, ...]:
    """Everything observable about a table and its deal, for an exact comparison."""
    deal = game.deal
    table = (game.state, game.deal_number, [(o.user_id, o.name, o.stand_in) for o in game.places],
             [(f.number, f.result, f.place_scores) for f in game.finished], game.totals())
    if deal is None:
        return table
    return table + (deal.phase, deal.current_seat, deal.history, [deal.hand(s) for s in range(3)], deal.skat,
                    deal.tricks, deal.current_trick, deal.declarer, deal.contract, deal.kontra, deal.re,
                    deal.legal_actions() if not deal.is_over else [], [deal.side_actions(s) for s in range(3)])


async def _play_and_store(path: Path, seed: int, stop_after: int) -> tuple[int, TableGame]:
    """Play a table of four, logging each entry as the tables layer does; stop `stop_after` entries in."""
    rng = random.Random(seed)
    game = TableGame(size=4, deals=10, rules=RULES, creator_id=1)
    storage = await SqliteStorage.open(path)
    try:
        await add_players(storage, Player(1, "Anna"), Player(2, "Bert"), Player(3, "Carla"), Player(4, "Dora"))
        table = await storage.tables.create(server_id=9, channel_id=9, creator_id=1, rule_preset="pub",
                                            rules=RULES.to_dict(), series_length=10, size=4, now=NOW)
        await storage.tables.set_state(table_id=table.table_id, state=TableState.PLAYING, now=NOW)

        seq = 0

        async def log(entry: Entry) -> None:
            nonlocal seq
            game.apply(entry)
            await storage.tables.append(table_id=table.table_id, seq=seq, entry=str(entry), now=NOW)
            seq += 1

        for joining in (Join(1, "Anna"), Join(2, "Bert"), Join(3, "Carla"), Join(4, "Dora von Hohenstein"), Start()):
            await log(joining)
        while seq < stop_after and game.state is TableState.PLAYING:
            if game.needs_new_deal:
                entry: Entry = NewDeal(game.deal_number + 1, rng.randrange(1 << 48))
            elif rng.random() < 0.02:
                entry = StandIn(rng.randrange(4), Level.NORMAL)  # a player left: an AI plays their seat
            else:
                assert game.deal is not None
                seat, action = _next_action(game.deal, rng)
                entry = Act(game.deal_number, seat, action)
            await log(entry)
    finally:
        await storage.close()
    return table.table_id, game


async def _restore(path: Path) -> TableGame:
    storage = await SqliteStorage.open(path)
    try:
        [unfinished] = await storage.load_unfinished_tables()
    finally:
        await storage.close()
    stored = unfinished.table
    assert stored.size == 4 and RuleSet.from_dict(stored.rules) == RULES
    assert [entry.seq for entry in unfinished.log] == list(range(len(unfinished.log)))
    return replay_log(size=stored.size, deals=stored.series_length, rules=RuleSet.from_dict(stored.rules),
                      creator_id=stored.creator_id, entries=[entry.entry for entry in unfinished.log]).game


@settings(max_examples=15)
@given(seed=st.integers(0, 10**6), stop_after=st.integers(6, 200))
def test_restore_rebuilds_the_table_exactly(tmp_path_factory: pytest.TempPathFactory, seed: int,
                                            stop_after: int) -> None:
    path = tmp_path_factory.mktemp("restore") / "table.sqlite3"
    _, played = asyncio.run(_play_and_store(path, seed, stop_after))
    restored = asyncio.run(_restore(path))
    assert _state(restored) == _state(played)
    # The rebuilt table plays on exactly like the original.
    rng = random.Random(seed)
    while played.deal is not None and not played.deal.is_over:
        seat, action = _next_action(played.deal, rng)
        for game in (played, restored):
            game.apply(Act(played.deal_number, seat, action))
    assert _state(restored) == _state(played)


def test_a_corrupt_log_is_a_clear_error_naming_the_entry() -> None:
    def replay(*entries: str) -> TableGame:
        return replay_log(size=3, deals=2, rules=RULES, creator_id=1, entries=entries).game

    lobby = ("join 1 Anna", "join 2 Bert", "join 3 Carla", "start", "deal 0 5")
    assert replay(*lobby).deal is not None
    with pytest.raises(ReplayError, match=r"log entry 5 \('act 0 0 play CJ'\)"):  # no cards during the auction
        replay(*lobby, "act 0 0 play CJ")
    with pytest.raises(ReplayError, match="log entry 5.*malformed"):
        replay(*lobby, "act 0 1 jump")
    with pytest.raises(ReplayError, match=r"log entry 0 \('deal 0 5'\)"):  # nobody sat down, nothing started
        replay("deal 0 5")
    with pytest.raises(ReplayError, match="log entry 3.*malformed table log entry"):
        replay(*lobby[:3], '{"seed": 77}')
