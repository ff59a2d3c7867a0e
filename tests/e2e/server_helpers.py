"""Helpers for the server-feature end-to-end tests: a database seeded with finished series, users who
speak German, and a server manager.

Seeding goes through skatbot.storage (as the tables layer writes), with seeded random legal play, so
the leaderboard, stats, history and records read real deals.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from skatbot.engine import Deal, RuleSet
from skatbot.engine.series import Series
from skatbot.storage import LogKind, Player, SqliteStorage, TableState
from skatbot.storage.recording import deal_record
from skatbot.storage.replay import deal_payload
from tests.e2e.fakediscord import FakeDiscord, Message, User
from tests.e2e.fakediscord import interactions as payloads

AI_ID = -7


async def seed_series(path: Path, *, guild_id: int, tables: Sequence[Sequence[tuple[int, str, bool]]],
                      deals: int = 2, seed: int = 1) -> list[int]:
    """Store one finished series per entry of `tables` (three (id, name, is_ai) players each); the deals
    are finished now. Returns the table ids."""
    now = datetime.now(UTC)
    table_ids = []
    storage = await SqliteStorage.open(path)
    try:
        for index, players in enumerate(tables):
            for player_id, name, is_ai in players:
                await storage.players.save(player=Player(player_id, name, is_ai), now=now)
            ids = [player_id for player_id, _, _ in players]
            table = await storage.tables.create(server_id=guild_id, channel_id=guild_id + 1, creator_id=ids[0],
                                                rule_preset="official", rules=RuleSet().to_dict(),
                                                series_length=deals, now=now, seats=ids)
            await _play(storage, table.table_id, guild_id, ids, deals, random.Random(seed * 100 + index), now)
            await storage.deals.finish_series(table_id=table.table_id, now=now)
            await storage.tables.set_state(table_id=table.table_id, state=TableState.FINISHED, now=now)
            table_ids.append(table.table_id)
    finally:
        await storage.close()
    return table_ids


async def _play(storage: SqliteStorage, table_id: int, guild_id: int, ids: list[int], deals: int,
                rng: random.Random, now: datetime) -> None:
    names = [str(player) for player in ids]
    series = Series(names, deals, RuleSet())
    seq = 0
    for number in range(1, deals + 1):
        seating = series.next_deal_seats()
        deal = Deal.new(rng.randrange(2**32))
        await storage.tables.append(table_id=table_id, seq=seq, deal_number=number, kind=LogKind.DEAL,
                                    payload=deal_payload(deal, dealer=seating.dealer), now=now)
        seq += 1
        # A declarer who bids at least 18 (a deal passed in is a fine deal too, but less to look at).
        while not deal.is_over:
            seat = deal.current_seat
            action = rng.choice(deal.legal_actions())
            deal.apply(action, seat)
            await storage.tables.append(table_id=table_id, seq=seq, deal_number=number, kind=LogKind.ACTION,
                                        payload=str(action), seat=seat, now=now)
            seq += 1
        row = series.record(deal.result, deal)
        await storage.deals.store(record=deal_record(
            table_id=table_id, server_id=guild_id, deal_number=number, deal=deal, players=ids, names=names,
            seats=row.seats, scores=row.scores, seeger=row.seeger, bock=row.bock, started_at=now,
            finished_at=now))


def speak(monkeypatch: pytest.MonkeyPatch, locales: Mapping[int, str]) -> None:
    """Interactions of these users carry their Discord locale (the fake sends en-US otherwise)."""
    original = payloads.base_payload

    def with_locale(*args: Any, **kwargs: Any) -> dict[str, Any]:
        payload = original(*args, **kwargs)
        user: User = args[4]
        payload["locale"] = locales.get(user.id, payload["locale"])
        return payload

    monkeypatch.setattr(payloads, "base_payload", with_locale)


async def run(fake: FakeDiscord, user: User, channel: Any, subcommand: str, group: str | None = None,
              **options: Any) -> Message:
    """/skat [group] subcommand options..., and the bot's answer."""
    ix = await fake.slash(user, channel, "skat", group=group, subcommand=subcommand, options=options)
    return await ix.wait_message()


def button_ids(message: Message) -> list[str]:
    return [c["custom_id"] for c in message.buttons()]
