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

from skatbot.engine import RuleSet
from skatbot.storage import Player, SqliteStorage, TableState
from skatbot.storage.recording import deal_record
from skatbot.tables.game import TableGame
from skatbot.tables.log import Act, Entry, Join, NewDeal, Start
from tests.e2e.fakediscord import Channel, FakeDiscord, Message, User
from tests.e2e.fakediscord import interactions as payloads

AI_ID = -7


async def seed_series(path: Path, *, guild_id: int, tables: Sequence[Sequence[tuple[int, str, bool]]],
                      deals: int = 2, seed: int = 1, rules: RuleSet | None = None,
                      kontra: bool = False) -> list[int]:
    """Store one finished series per entry of `tables` (three (id, name, is_ai) players each); the deals
    are finished now. With `kontra` some deals are passed in and in some a defender says Kontra.
    Returns the table ids."""
    rules = rules or RuleSet()
    now = datetime.now(UTC)
    table_ids = []
    storage = await SqliteStorage.open(path)
    try:
        for index, players in enumerate(tables):
            for player_id, name, is_ai in players:
                await storage.players.save(player=Player(player_id, name, is_ai), now=now)
            ids = [player_id for player_id, _, _ in players]
            table = await storage.tables.create(server_id=guild_id, channel_id=guild_id + 1, creator_id=ids[0],
                                                rule_preset=rules.preset_name() or "custom", rules=rules.to_dict(),
                                                series_length=deals, now=now, seats=ids)
            await _play(storage, table.table_id, guild_id, ids, deals, random.Random(seed * 100 + index), now, rules,
                        kontra)
            await storage.deals.finish_series(table_id=table.table_id, now=now)
            await storage.tables.set_state(table_id=table.table_id, state=TableState.FINISHED, now=now)
            table_ids.append(table.table_id)
    finally:
        await storage.close()
    return table_ids


async def _play(storage: SqliteStorage, table_id: int, guild_id: int, ids: list[int], deals: int,
                rng: random.Random, now: datetime, rules: RuleSet, kontra: bool) -> None:
    """Play the series through `TableGame`, logging each entry in the tables layer's text form."""
    game = TableGame(size=len(ids), deals=deals, rules=rules, creator_id=ids[0])
    seq = 0

    async def log(entry: Entry) -> None:
        nonlocal seq
        row = game.apply(entry)
        await storage.tables.append(table_id=table_id, seq=seq, entry=str(entry), now=now)
        seq += 1
        if row is not None:
            await storage.deals.store(record=deal_record(
                table_id=table_id, server_id=guild_id, deal_number=row.number + 1, deal=row.deal, players=ids,
                names=game.list_names(), seats=row.places, scores=row.place_scores, seeger=row.row.seeger,
                bock=row.row.bock, started_at=now, finished_at=now))

    for player in ids:
        await log(Join(player, str(player)))
    await log(Start())
    for number in range(deals):
        await log(NewDeal(number, rng.randrange(2**32)))
        style = rng.random() if kontra else 1.0
        while game.deal is not None and not game.deal.is_over:
            deal = game.deal
            seat, action = deal.current_seat, rng.choice(deal.legal_actions())
            if style < 0.3:  # everybody passes: a Ramsch under rules that play one
                action = next((a for a in deal.legal_actions() if str(a) == "pass"), action)
            elif style < 0.7 and deal.declarer is not None:  # a defender says Kontra
                side = [(s, a) for s in range(3) for a in deal.side_actions(s) if str(a) == "kontra"]
                seat, action = side[0] if side else (seat, action)
            await log(Act(number, seat, action))


def speak(monkeypatch: pytest.MonkeyPatch, locales: Mapping[int, str]) -> None:
    """Interactions of these users carry their Discord locale (the fake sends en-US otherwise)."""
    original = payloads.base_payload

    def with_locale(*args: Any, **kwargs: Any) -> dict[str, Any]:
        payload = original(*args, **kwargs)
        user: User = args[4]
        payload["locale"] = locales.get(user.id, payload["locale"])
        return payload

    monkeypatch.setattr(payloads, "base_payload", with_locale)


async def run(fake: FakeDiscord, user: User, channel: Channel, subcommand: str, group: str | None = None,
              **options: Any) -> Message:
    """/skat [group] subcommand options..., and the bot's answer."""
    ix = await fake.slash(user, channel, "skat", group=group, subcommand=subcommand, options=options)
    return await ix.wait_message()


def button_ids(message: Message) -> list[str]:
    return [c["custom_id"] for c in message.buttons()]
