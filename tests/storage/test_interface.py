"""Both backends implement the Storage interface exactly, and concurrent tables never mix their transactions."""

from __future__ import annotations

import asyncio
import inspect

import pytest

from skatbot.storage import LogConflict, Player, Storage
from skatbot.storage.interfaces import (
    ChallengeRepository,
    DealRepository,
    DueRepository,
    MetaRepository,
    PlayerRepository,
    PresentationRepository,
    RatingRepository,
    SettingsRepository,
    StatsRepository,
    TableRepository,
    TournamentRepository,
)
from tests.storage.storage_helpers import NOW, AnyStorage, add_players

REPOSITORIES = {"settings": SettingsRepository, "players": PlayerRepository, "tables": TableRepository,
                "deals": DealRepository, "stats": StatsRepository, "meta": MetaRepository,
                "presentation": PresentationRepository, "due": DueRepository,
                "tournaments": TournamentRepository, "challenge": ChallengeRepository, "ratings": RatingRepository}


def _methods(protocol: type) -> dict[str, inspect.Signature]:
    return {name: inspect.signature(member) for name, member in vars(protocol).items()
            if inspect.iscoroutinefunction(member) or (inspect.isfunction(member) and not name.startswith("_"))}


@pytest.mark.parametrize("attribute", sorted(REPOSITORIES))
async def test_each_repository_has_the_interface_signatures(storage: AnyStorage, attribute: str) -> None:
    protocol = REPOSITORIES[attribute]
    implementation = type(getattr(storage, attribute))
    expected = _methods(protocol)
    assert expected, f"{protocol.__name__} declares no methods"
    for name, signature in expected.items():
        assert inspect.signature(getattr(implementation, name)) == signature, f"{attribute}.{name}"
        assert inspect.iscoroutinefunction(getattr(implementation, name)) == inspect.iscoroutinefunction(
            getattr(protocol, name)), f"{attribute}.{name} must be async exactly when the interface's is"


async def test_the_facade_has_the_interface_methods(storage: Storage) -> None:
    for name, signature in _methods(Storage).items():
        assert inspect.signature(getattr(type(storage), name)) == signature, name
    assert {name for name, member in vars(Storage).items() if isinstance(member, property)} == set(REPOSITORIES)


async def test_concurrent_tables_never_mix_their_transactions(storage: AnyStorage) -> None:
    await add_players(storage, Player(1, "Anna"))
    tables = [await storage.tables.create(server_id=1, channel_id=n, creator_id=1, rule_preset="official",
                                          rules={}, series_length=1, now=NOW) for n in range(8)]

    async def write(table_id: int) -> None:
        for seq in range(30):
            await storage.tables.append(table_id=table_id, seq=seq, entry=f"act 0 {seq % 3} bid {18 + seq}",
                                        now=NOW)

    async def refused(table_id: int) -> None:  # failing transactions in between must roll back alone
        for _ in range(10):
            with pytest.raises(LogConflict):
                await storage.tables.append(table_id=table_id, seq=1000, entry="act 0 0 pass", now=NOW)
            await asyncio.sleep(0)

    await asyncio.gather(*(write(t.table_id) for t in tables), *(refused(t.table_id) for t in tables))
    for table in tables:
        log = await storage.tables.log(table_id=table.table_id)
        assert [e.entry for e in log] == [f"act 0 {seq % 3} bid {18 + seq}" for seq in range(30)]
