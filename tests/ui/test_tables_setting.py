"""/skat settings tables: where new tables play (each in a thread of its own, or in the channel)."""

from __future__ import annotations

import pytest

from skatbot.models import ServerSettings
from skatbot.ui.languages import Lang
from skatbot.ui.server_settings import SettingsInputError, SettingsRequest, active_rules, apply_request
from skatbot.ui.server_text import changes_text, settings_text

SERVER = ServerSettings(server_id=42)


def test_a_server_that_never_chose_plays_in_the_channel() -> None:
    assert SERVER.channel_policy == "channel"
    assert "Tables: in the channel where /skat new is used" in settings_text(SERVER, active_rules(SERVER), Lang("en"))


def test_choosing_a_thread_per_table_is_a_confirmed_change() -> None:
    updated, changes = apply_request(SERVER, SettingsRequest(tables="thread"))
    assert updated == ServerSettings(server_id=42, channel_policy="thread")
    assert [(change.key, change.values) for change in changes] == [("settings.changed.tables", {"tables": "thread"})]
    assert changes_text(changes, Lang("en")).splitlines()[1] == "• tables: each in a thread of its own"
    assert changes_text(changes, Lang("de")).splitlines()[1] == "• Tische: jeder in seinem eigenen Thread"
    assert "Tische: jeder in seinem eigenen Thread" in settings_text(updated, active_rules(updated), Lang("de"))
    back, _ = apply_request(updated, SettingsRequest(tables="channel"))
    assert back == SERVER


def test_the_tables_change_goes_with_the_others() -> None:
    updated, changes = apply_request(SERVER, SettingsRequest(deck="german", tables="thread"))
    assert (updated.deck_style, updated.channel_policy) == ("german", "thread")
    assert [change.key for change in changes] == ["settings.changed.deck", "settings.changed.tables"]


@pytest.mark.parametrize("bad", ["forum", "THREAD", ""])
def test_an_unknown_place_is_refused(bad: str) -> None:
    with pytest.raises(SettingsInputError) as refused:
        apply_request(SERVER, SettingsRequest(deck="german", tables=bad))
    assert refused.value.key == "settings.error.tables" and refused.value.values == {"policies": "thread, channel"}
