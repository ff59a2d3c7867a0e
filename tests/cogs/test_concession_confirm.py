"""Conceding when it costs the player's side schneider or schwarz asks first; the answer's button concedes."""

from __future__ import annotations

from skatbot.engine import Declare, GameType
from tests.cogs.helpers import CogBot, FakeMessage
from tests.cogs.table_helpers import deal_of, move, three_humans, to_act, to_the_declaration
from tests.cogs.test_replies import hand_message, ids_of, prefix


async def test_the_concede_button_asks_before_schwarz_and_the_answer_concedes(world: CogBot) -> None:
    table, users = await three_humans(world)
    await to_the_declaration(world, table, users)
    deal = deal_of(table)
    declarer = to_act(table, users)
    await move(world, table, users, next(a for a in deal.legal_actions() if isinstance(a, Declare)
                                         and a.contract.game is GameType.GRAND and not a.contract.schneider))
    hand = hand_message(world, declarer)
    concede = ids_of(hand, "concede")
    assert concede, "the declarer's hand offers Concede"
    asked = await world.click(declarer, hand, concede[0])
    assert not deal.is_over  # nothing happened yet: the declarer has no trick, conceding makes them schwarz
    (question,) = asked.replies
    assert question.ephemeral and question.content is not None
    assert "costs your side schwarz" in question.content and "Concede anyway?" in question.content
    confirm = question.custom_ids()
    assert confirm == [prefix(hand) + "concede"]
    shown = FakeMessage(id=9_999, channel_id=hand.channel_id, content=question.content, view=question.view,
                        ephemeral=True)
    await world.click(declarer, shown, confirm[0])
    assert deal.is_over and deal.ending is not None and deal.ending.value == "declarer conceded"
