"""The hidden-card checker reads a table's own thread like its channel: a leak posted there is caught."""

from __future__ import annotations

from tests.e2e.fakediscord import Channel, FakeDiscord, MessageVersion
from tests.e2e.fakediscord.state import PUBLIC_THREAD
from tests.e2e.skat_leaks import public_leaks
from tests.e2e.test_skat_leaks import BOARD, world


def table_thread(fake: FakeDiscord) -> Channel:
    parent = next(c for c in fake.world.channels.values() if c.name == "skat")
    thread = Channel(fake.world.ids.next(), PUBLIC_THREAD, name="Skat · alice's table", guild_id=parent.guild_id,
                     parent_id=parent.id, owner_id=fake.world.bot.id, thread_member_ids=[fake.world.bot.id])
    fake.world.channels[thread.id] = thread
    return thread


def test_a_hidden_card_in_a_thread_is_a_leak() -> None:
    fake, alice = world()
    thread = table_thread(fake)
    fake.world.post_message(thread, MessageVersion(BOARD + "alice still has ♠7", [], [], [], 0))
    assert fake.messages(thread)[0].visibility == "public"
    assert any("hidden cards" in problem for problem in public_leaks(fake, [alice]))
    assert any("hidden cards" in problem for problem in public_leaks(fake, [alice], channel=thread))


def test_an_honest_thread_passes() -> None:
    fake, alice = world()
    thread = table_thread(fake)
    fake.world.post_message(thread, MessageVersion(
        BOARD + "1. alice ♥A · carol ♥7 · bob ♥8 → alice (11)", [], [], [], 0))
    assert public_leaks(fake, [alice]) == [] and public_leaks(fake, [alice], channel=thread) == []
