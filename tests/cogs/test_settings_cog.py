"""/skat settings: shown to any member, changed by a server manager together, refused with what was wrong."""

from __future__ import annotations

from tests.cogs.helpers import CogBot


async def test_a_manager_looks_and_changes_the_settings(world: CogBot) -> None:
    admin = world.user("admin")
    as_admin = world.interaction(admin, manage_guild=True)
    look = await world.run("skat settings", admin, interaction=as_admin)
    assert look.answer.ephemeral and "This server's settings" in look.text and "Saved" not in look.text
    changed = await world.run("skat settings", admin, interaction=world.interaction(admin, manage_guild=True),
                              deck="german", option="kontra", value="on")
    assert changed.text.startswith("✅ Saved.") and "German suits" in changed.text and "kontra = on" in changed.text
    stored = await world.bot.storage.settings.get(server_id=10)
    assert stored.deck_style == "german" and stored.rules.get("kontra") is True


async def test_settings_refusals_change_nothing(world: CogBot) -> None:
    admin, member = world.user("admin"), world.user("member")
    before = await world.bot.storage.settings.get(server_id=10)
    assert (await world.run("skat settings", member, deck="german")).text == \
        "Only members with the Manage Server permission may change the settings."
    looked = await world.run("skat settings", member)  # only looking: any member may
    assert looked.answer.ephemeral and "This server's settings" in looked.text and "Saved" not in looked.text

    async def as_admin(**options: object) -> str:
        return (await world.run("skat settings", admin, interaction=world.interaction(admin, manage_guild=True),
                                **options)).text

    assert await as_admin(option="kontra") == "Give an option and its value together: option: and value:."
    assert await as_admin(option="kontra", value="maybe") == "maybe is not a value for kontra. Use: on, off."
    assert (await as_admin(option="kontra", value="m" * 100)).startswith("m" * 59 + "… is not a value for kontra.")
    assert (await as_admin(option="fast_play", value="on")).startswith("There is no rule option fast_play.")
    assert await as_admin(turn=60, warning=90) == \
        "The warning must come before the end of the turn (less than 60\u00a0s). Nothing was changed."
    assert await as_admin(deck="italian") == "Choose the card names from: french, german."
    assert await as_admin(option="kontra_needs_bid", value="on") == (
        "These rules do not go together: 'Kontra only from a defender who bid' needs Kontra to be played. "
        "Nothing was changed.")
    german = await world.run("skat settings", admin, option="kontra_needs_bid", value="on",
                             interaction=world.interaction(admin, manage_guild=True, locale="de"))
    assert german.text.startswith("Diese Regeln passen nicht zusammen: ") and "Kontra" in german.text
    danish = world.interaction(admin, manage_guild=True, locale="da")
    assert (await world.run("skat settings", admin, option="kontra", value="maybe", interaction=danish)).text == \
        "maybe er ikke en værdi for Kontra og Re. Brug: til, fra."  # the option and the values in the reader's words
    in_dm = await world.run("skat settings", admin, interaction=world.interaction(admin, guild_id=None))
    assert in_dm.text == "This command works in a server channel, not in direct messages."
    assert await world.bot.storage.settings.get(server_id=10) == before


async def test_a_danish_manager_types_the_values_the_settings_show_her(world: CogBot) -> None:
    admin = world.user("admin")
    changed = await world.run("skat settings", admin, option="musik", value="til",
                              interaction=world.interaction(admin, manage_guild=True, locale="da"))
    assert "tilvalg Musik = til" in changed.text, changed.text
    assert (await world.bot.storage.settings.get(server_id=10)).rules.get("musik") is True
