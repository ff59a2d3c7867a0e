"""Replays in the bot: /skat scores replay, the 🎞 buttons on histories and analyses, ◀ ▶ stepping through a
finished deal, and the refusals (no such deal, another server's deal, a deal still in play)."""

from __future__ import annotations

from skatbot.ui.analysis_text import analyse_view
from tests.cogs.helpers import CogBot, FakeMessage
from tests.cogs.table_helpers import one_deal_conceded, three_humans


async def test_a_finished_deal_is_stepped_through(world: CogBot) -> None:
    table, users, declarer = await one_deal_conceded(world)
    reader = world.user("dora")  # not a player: finished deals are public on their server
    opened = await world.run("skat scores replay", reader, deal=1)
    answer = opened.answer
    assert answer.ephemeral and answer.content is not None
    assert answer.content.startswith("🎞 **Replay of deal #1** · step 1 of 2")  # conceded before a trick
    assert "Auction:" in answer.content and "plays **" in answer.content
    assert answer.custom_ids() == ["rps:1:0", "rps:1:1"]
    assert answer.file is not None and answer.file.filename == "replay-1-1.png"
    shown = FakeMessage(1, 20, answer.content, answer.view)
    last = await world.click(reader, shown, "rps:1:1")
    assert last.answer.how == "edit" and "step 2 of 2" in (last.answer.content or "")
    assert "declarer conceded" in (last.answer.content or "") or "conceded" in (last.answer.content or "")
    assert last.answer.custom_ids() == ["rps:1:0", "rps:1:1"]


async def test_history_and_analysis_offer_the_replay(world: CogBot) -> None:
    await one_deal_conceded(world)
    history = await world.run("skat scores history", world.user("dora"))
    assert "rpo:1" in history.answer.custom_ids()
    opened = await world.click(world.user("erik"), FakeMessage(2, 20, history.text, history.answer.view), "rpo:1")
    assert opened.answer.ephemeral and (opened.answer.content or "").startswith("🎞 **Replay of deal #1**")


async def test_unknown_foreign_and_unfinished_deals_are_refused(world: CogBot) -> None:
    reader = world.user("dora")
    refused = await world.run("skat scores replay", reader, deal=5)
    assert refused.answer.ephemeral and refused.text == (
        "There is no finished deal #5 on this server. Only finished deals can be replayed: a deal still in play "
        "opens once it is over.")
    table, users = await three_humans(world)  # a deal in play: never stored, never replayed
    assert (await world.run("skat scores replay", reader, deal=1)).text.startswith("There is no finished deal #1")
    card = FakeMessage(3, 20, "result", analyse_view(table.id, 1, "en", analysable=False))  # a stale or forged card
    in_play = await world.click(reader, card, f"rpt:{table.id}:1")
    assert in_play.answer.ephemeral
    assert in_play.text == (f"Deal 1 at table {table.id} is still being played: its replay opens once the deal "
                            "is over.")


async def test_a_deal_is_not_replayed_on_another_server(world: CogBot) -> None:
    await one_deal_conceded(world)
    stranger = world.user("zoe")
    elsewhere = world.interaction(stranger, guild_id=999)
    refused = await world.run("skat scores replay", stranger, interaction=elsewhere, deal=1)
    assert refused.text.startswith("There is no finished deal #1 on this server.")
