"""/skat settings: every change is checked; a bad one changes nothing and names what is wrong."""

from __future__ import annotations

import pytest

from skatbot.engine import RuleSet
from skatbot.engine.rules import PRESETS, AllPass
from skatbot.models import ServerSettings
from skatbot.ui.server_settings import (
    SettingsInputError,
    SettingsRequest,
    active_rules,
    apply_request,
    parse_option_value,
)

SERVER = ServerSettings(server_id=42)


def test_no_options_changes_nothing() -> None:
    assert apply_request(SERVER, SettingsRequest()) == (SERVER, [])


def test_a_preset_resets_the_single_options() -> None:
    custom = ServerSettings(server_id=42, rules={"kontra": True})
    updated, changes = apply_request(custom, SettingsRequest(preset="pub"))
    assert (updated.rule_preset, updated.rules) == ("pub", {})
    assert active_rules(updated) == PRESETS["pub"]
    assert [change.key for change in changes] == ["settings.changed.preset"]


def test_a_single_option_is_stored_as_a_change_from_the_preset() -> None:
    updated, changes = apply_request(SERVER, SettingsRequest(option="all_pass", value="Ramsch"))
    assert updated.rules == {"all_pass": "ramsch"} and active_rules(updated).all_pass is AllPass.RAMSCH
    assert changes[0].values == {"option": "all_pass", "value": "ramsch"}
    back, _ = apply_request(updated, SettingsRequest(option="all_pass", value="throw-in"))
    assert back.rules == {} and active_rules(back) == RuleSet()


@pytest.mark.parametrize(("name", "text", "value"), [
    ("kontra", "on", True), ("kontra", "AUS", False), ("seeger_fabian", "ja", True),
    ("losses", "single", "single"), ("dakker_value", "69", 69),
    ("bock_triggers", "kontra, lost at 60", ["kontra", "lost at 60"]), ("bock_triggers", "none", []),
])
def test_option_values_are_read_in_their_stored_form(name: str, text: str, value: object) -> None:
    assert parse_option_value(name, text) == value


@pytest.mark.parametrize(("request_", "key"), [
    (SettingsRequest(preset="casino"), "settings.error.preset"),
    (SettingsRequest(option="kontra"), "settings.error.option_pair"),
    (SettingsRequest(value="on"), "settings.error.option_pair"),
    (SettingsRequest(option="fast_play", value="on"), "settings.error.unknown_option"),
    (SettingsRequest(option="kontra", value="maybe"), "settings.error.bad_value"),
    (SettingsRequest(option="dakker_value", value="60"), "settings.error.bad_value"),
    (SettingsRequest(option="bock_triggers", value="kontra, full moon"), "settings.error.bad_value"),
    (SettingsRequest(option="kontra_needs_bid", value="on"), "settings.error.rules"),
    (SettingsRequest(preset="tournament", option="losses", value="single"), "settings.error.rules"),
    (SettingsRequest(turn_seconds=5), "settings.error.turn"),
    (SettingsRequest(turn_seconds=4000), "settings.error.turn"),
    (SettingsRequest(warning_seconds=60), "settings.error.warning"),
    (SettingsRequest(turn_seconds=30, warning_seconds=30), "settings.error.warning"),
    (SettingsRequest(deck="tarot"), "settings.error.deck"),
    (SettingsRequest(language="tlh"), "settings.error.language"),
    (SettingsRequest(pictures="sometimes"), "settings.error.pictures"),
])
def test_bad_changes_are_refused(request_: SettingsRequest, key: str) -> None:
    with pytest.raises(SettingsInputError) as refused:
        apply_request(SERVER, request_)
    assert refused.value.key == key


def test_several_changes_at_once_are_all_confirmed() -> None:
    updated, changes = apply_request(SERVER, SettingsRequest(preset="danish", turn_seconds=90, warning_seconds=20,
                                                             deck="german", language="de"))
    assert (updated.rule_preset, updated.turn_seconds, updated.warning_seconds) == ("danish", 90, 20)
    assert (updated.deck_style, updated.language) == ("german", "de")
    assert [c.key for c in changes] == ["settings.changed.preset", "settings.changed.timers",
                                        "settings.changed.deck", "settings.changed.language"]


def test_pictures_are_turned_off_and_on() -> None:
    off, changes = apply_request(SERVER, SettingsRequest(pictures="off"))
    assert SERVER.pictures and not off.pictures
    assert [(c.key, c.values) for c in changes] == [("settings.changed.pictures", {"pictures": "off"})]
    on, _ = apply_request(off, SettingsRequest(pictures="on"))
    assert on.pictures
