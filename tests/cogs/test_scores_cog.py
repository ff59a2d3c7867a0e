"""/skat scores leaderboard, stats, history and record: replies, page buttons and refusals."""

from __future__ import annotations

import json

from tests.cogs.helpers import CogBot, FakeMessage
from tests.cogs.table_helpers import one_deal_conceded


async def test_an_empty_server_says_so(world: CogBot) -> None:
    alice = world.user("alice")
    board = await world.run("skat scores leaderboard", alice)
    assert not board.answer.ephemeral and "No deals have been played on this server in this period yet" in board.text
    assert (await world.run("skat scores stats", alice)).text == "alice has not played Skat on this server yet."
    assert (await world.run("skat scores history", alice)).text == \
        "No deals have been played on this server yet. Open a table with /skat new."
    assert (await world.run("skat scores record", alice, deal=1)).text == "There is no deal #1 on this server."
    assert (await world.run("skat scores record", alice, series=1)).text == "There is no table #1 on this server."


async def test_scores_after_a_deal(world: CogBot) -> None:
    table, users, declarer = await one_deal_conceded(world)
    reader = world.user("dora")
    board = await world.run("skat scores leaderboard", reader)
    assert board.answer.how == "message" and not board.answer.ephemeral
    assert "Leaderboard" in board.text and declarer.display_name in board.text
    assert board.answer.custom_ids() == ["lb:en:all:list:0", "lb:en:all:list:2"]
    stats = await world.run("skat scores stats", declarer)
    assert f"**{declarer.display_name}**" in stats.text and "Deals played: 1" in stats.text
    week = await world.run("skat scores stats", declarer, period="week")
    assert "this week" in week.text
    assert (await world.run("skat scores stats", reader, player=reader)).text == \
        "dora has not played Skat on this server yet."
    history = await world.run("skat scores history", reader)
    assert "The last deals on this server" in history.text and declarer.display_name in history.text
    mine = await world.run("skat scores history", reader, player=declarer)
    assert f"The last deals of {declarer.display_name}" in mine.text
    assert (await world.run("skat scores history", reader, player=reader)).text == \
        "dora has not played Skat on this server yet."
    record = await world.run("skat scores record", reader, series=table.id)
    assert record.answer.file is not None and record.answer.file.filename == f"skat-series-{table.id}.json"
    assert json.loads(record.answer.file.fp.read())  # a JSON document
    deal_record = await world.run("skat scores record", reader, deal=1)
    assert deal_record.answer.file is not None and deal_record.answer.file.filename == "skat-deal-1.sgf"


async def test_record_and_period_refusals(world: CogBot) -> None:
    alice = world.user("alice")
    assert (await world.run("skat scores record", alice)).text == \
        "Give either deal: (a deal's number) or series: (a table's number), not both."
    assert (await world.run("skat scores record", alice, deal=1, series=1)).text == \
        "Give either deal: (a deal's number) or series: (a table's number), not both."
    forged = await world.run("skat scores leaderboard", alice, period="decade")
    assert forged.answer.ephemeral and forged.text == "Not allowed: 'decade' is not one of the choices for period."
    assert (await world.run("skat scores leaderboard", alice, scoring="x" * 6000)).text == \
        "Not allowed: '" + "x" * 59 + "…' is not one of the choices for scoring."
    assert (await world.run("skat scores stats", alice, period="ever")).text == \
        "Not allowed: 'ever' is not one of the choices for period."
    assert (await world.run("skat scores leaderboard", alice, page=3)).text == \
        "There is no page 3: the ranking has 1 page."


async def test_scores_are_per_server_so_not_in_a_dm(world: CogBot) -> None:
    alice = world.user("alice")
    for command in ("skat scores leaderboard", "skat scores stats", "skat scores history", "skat scores record"):
        answer = await world.run(command, alice, interaction=world.interaction(alice, guild_id=None), deal=1) \
            if command.endswith("record") else \
            await world.run(command, alice, interaction=world.interaction(alice, guild_id=None))
        assert answer.answer.ephemeral
        assert answer.text == "This command works in a server channel, not in direct messages.", command


async def test_leaderboard_page_buttons_turn_and_clamp(world: CogBot) -> None:
    await one_deal_conceded(world)
    reader = world.user("dora")
    board = await world.run("skat scores leaderboard", reader)
    shown = FakeMessage(1, 20, board.text, board.answer.view)
    turned = await world.click(reader, shown, "lb:en:all:list:2")
    assert turned.answer.how == "edit" and "Page 1 of 1" in (turned.answer.content or "")
    in_dm = await world.click(reader, shown, "lb:en:all:list:0", guild_id=None)
    assert in_dm.text == "This command works in a server channel, not in direct messages."
