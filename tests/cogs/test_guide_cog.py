"""/skat help play, rules and value: replies, page buttons and refusals."""

from __future__ import annotations

from tests.cogs.helpers import CogBot, FakeMessage


async def test_help_play_pages_turn_by_buttons(world: CogBot) -> None:
    alice = world.user("alice")
    first = await world.run("skat help play", alice)
    assert first.answer.ephemeral and "How to play here** (1/" in first.text
    assert first.answer.custom_ids() == ["help:en:0", "help:en:2"]
    shown = FakeMessage(1, 20, first.text, first.answer.view, ephemeral=True)
    second = await world.click(alice, shown, "help:en:2")
    assert second.answer.how == "edit" and "(2/" in (second.answer.content or "")
    german = await world.run("skat help play", alice, interaction=world.interaction(alice, locale="de"), page=2)
    assert german.answer.custom_ids() == ["help:de:1", "help:de:3"]


async def test_help_rules_say_what_tables_here_get(world: CogBot) -> None:
    alice = world.user("alice")
    server = await world.run("skat help rules", alice)
    assert server.answer.ephemeral and "official" in server.text
    in_dm = await world.run("skat help rules", alice, interaction=world.interaction(alice, guild_id=None))
    assert in_dm.answer.ephemeral and "official" in in_dm.text
    await world.run("skat new", alice, rules="pub")
    at_table = await world.run("skat help rules", alice)
    assert "#1" in at_table.text and "pub" in at_table.text
    assert len(at_table.text) <= 2000


async def test_help_value_counts_a_game_and_refuses_what_cannot_be(world: CogBot) -> None:
    alice = world.user("alice")
    grand = await world.run("skat help value", alice, game="grand", matadors=2)
    assert grand.answer.ephemeral and "72" in grand.text  # with 2, game 3 × 24
    assert (await world.run("skat help value", alice, game="grand")).text == \
        "Say how many matadors: matadors:1 to 11 (1 to 4 in a grand)."
    assert (await world.run("skat help value", alice, game="grand", matadors=2, announced="schneider")).text == \
        "Schneider and schwarz may be announced only in a hand game: add hand:True."
    assert (await world.run("skat help value", alice, game="chess", matadors=2)).text == \
        "'chess' is not a game. Choose ♣ Clubs, ♠ Spades, ♥ Hearts, ♦ Diamonds, Grand or Null."
    assert "72" in (await world.run("skat help value", alice, game="Grand", matadors=2)).text


async def test_help_names_the_tournament_rules_for_ties_the_draw_and_the_seeding(world: CogBot) -> None:
    alice = world.user("alice")
    page = (await world.run("skat help play", alice, page=6)).text
    assert "Ties, as the Skatwettspielordnung rules: more games won come first, then fewer games lost, then the lot " \
        "(the order series 1 was drawn in)" in page
    assert "draws the tables by lot (the seed is shown" in page
    assert "set by the standings (best at table 1; no three from one table of the series before together again, " \
        "where the count allows)" in page


async def test_help_names_the_tie_break_and_the_seeding_in_every_language(world: CogBot) -> None:
    """Each language's tournament page names the tie-break's source and its steps as the list under every
    standings does, and the seeding as the draw makes it (only the series before, where the count allows)."""
    alice = world.user("alice")
    steps = {"en-GB": ("Skatwettspielordnung", "more games won", "fewer games lost", "the lot",
                      "no three from one table of the series before together again"),
             "de": ("Skatwettspielordnung", "mehr gewonnene Spiele", "weniger verlorene Spiele", "das Los",
                    "keine drei von einem Tisch der Serie davor"),
             "da": ("Skatwettspielordnung", "flest vundne spil", "færrest tabte spil", "lodtrækningen",
                    "aldrig tre fra samme bord i serien før"),
             "fr": ("Skatwettspielordnung", "au nombre de jeux gagnés (le plus grand l’emporte)",
                    "au nombre de jeux perdus (le plus petit l’emporte)", "le tirage au sort",
                    "jamais trois joueurs d’une même table de la série d’avant")}
    for locale, needed in steps.items():
        page = (await world.run("skat help play", alice, interaction=world.interaction(alice, locale=locale),
                                page=6)).text
        for text in needed:
            assert text in page, (locale, text)
