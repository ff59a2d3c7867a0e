"""The bot's own key-value rows (e.g. the published commands' hash) on both backends."""

from __future__ import annotations

from datetime import timedelta

from tests.storage.storage_helpers import NOW, AnyStorage


async def test_a_missing_key_reads_as_none_and_a_put_replaces_the_value(storage: AnyStorage) -> None:
    assert await storage.meta.get(key="published_commands") is None
    await storage.meta.put(key="published_commands", value="abc", now=NOW)
    await storage.meta.put(key="published_commands:42", value="dev", now=NOW)
    await storage.meta.put(key="published_commands", value="def", now=NOW + timedelta(minutes=1))
    assert await storage.meta.get(key="published_commands") == "def"
    assert await storage.meta.get(key="published_commands:42") == "dev"
