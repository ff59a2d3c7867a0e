"""The Discord presenter against a table and fake channels: the lobby, boards and results in the channel,
each hand only in its player's DM (or, with DMs closed, a notice and a "Show my hand" button)."""

from __future__ import annotations

import asyncio
import random
import re
from typing import Any

import discord

from skatbot.ai import Level
from skatbot.engine.cards import Card
from skatbot.tables import TableState
from skatbot.ui.cards import FRENCH, card_label
from skatbot.ui.presenter import DiscordPresenter
from tests.cogs.helpers import FakeChannel, FakeMessage, FakeSurface
from tests.tables.kit import TableKit, person_at, seed_with_first_dealer

ALICE, BOB, CAROL = 100, 101, 102
CARD = re.compile("|".join(re.escape(card_label(Card.parse(s + r), FRENCH, "en")) for s in "CSHD" for r in "789TJQKA"))


def presented(kit: TableKit) -> FakeSurface:
    surface = FakeSurface()
    kit.table.presenter = DiscordPresenter(surface, edit_interval=0.0)  # type: ignore[arg-type]  # a fake client
    return surface


async def test_lobby_board_and_hands_go_where_they_belong() -> None:
    kit = TableKit(deals=1)
    surface = presented(kit)
    await kit.table.join(ALICE, "Alice")
    await kit.table.join(BOB, "Bob")
    await kit.table.settle()
    channel = surface.channel(kit.table.channel_id)
    lobby = next(iter(channel.messages.values()))
    assert "Skat table #1" in (lobby.content or "") and "1. Alice" in (lobby.content or "")
    assert lobby.view is not None
    assert [c["custom_id"] for row in lobby.view.to_components() for c in row["components"]][:2] == \
        ["sk:1:s0:join:", "sk:1:s0:leave:"]
    await kit.table.add_ai(ALICE, Level.NORMAL)
    await kit.table.start(ALICE)
    await kit.table.settle()
    public = "\n".join(channel.texts())
    assert "Deal 1" in public
    for user in (ALICE, BOB):
        dm = [text for text in surface.dm(user).texts() if text]  # the hand's picture has no text
        assert dm and dm[-1].startswith("**Your hand**"), dm
        hand = set(CARD.findall(dm[-1].split("\n")[1]))
        assert len(hand) == 10 and not hand & set(CARD.findall(public))  # the hand shows nowhere public


async def test_a_player_whose_dms_are_closed_gets_a_notice_and_a_show_hand_button() -> None:
    kit = TableKit(deals=1)
    surface = presented(kit)
    surface.closed_dms.add(BOB)
    for user, name in ((ALICE, "Alice"), (BOB, "Bob"), (CAROL, "Carol")):
        await kit.table.join(user, name)
    await kit.table.start(ALICE)
    await kit.table.settle()
    channel = surface.channel(kit.table.channel_id)
    notices = [m.view for m in channel.messages.values() if f"<@{BOB}>" in (m.content or "") and m.view is not None]
    assert notices and any(c["custom_id"].endswith(":show:") for view in notices
                           for row in view.to_components() for c in row["components"])
    assert not surface.dm(BOB).messages and surface.dm(ALICE).messages


async def test_a_whole_series_with_very_long_names_fits_every_message() -> None:
    """Every message the presenter sends passes the fake's check of Discord's limits, or it raises."""
    kit = TableKit(deals=2)
    surface = presented(kit)
    for user in (ALICE, BOB, CAROL):
        await kit.table.join(user, chr(65 + user - ALICE) * 64)
    await kit.table.start(ALICE)
    await kit.play_human_turns({ALICE, BOB, CAROL}, random.Random(4))
    await kit.table.settle()
    assert kit.table.game.state is TableState.FINISHED
    public = surface.channel(kit.table.channel_id).texts()
    assert sum("Result of deal" in text for text in public) == 2
    assert all(len(text) <= 2000 for text in public)


async def test_a_finished_deal_takes_the_buttons_off_the_hands_and_a_stop_is_announced() -> None:
    kit = TableKit(deals=2)
    surface = presented(kit)
    for user, name in ((ALICE, "Alice"), (BOB, "Bob"), (CAROL, "Carol")):
        await kit.table.join(user, name)
    await kit.table.start(ALICE)
    await kit.table.settle()
    rng = random.Random(9)
    while kit.table.game.deal_number == 0:  # the humans play the first deal out
        deal = kit.table.game.deal
        assert deal is not None and deal.current_seat is not None
        await kit.table.act(person_at(kit.table.game, deal.current_seat), rng.choice(deal.legal_actions()), seq=kit.table.seq)
        await kit.table.settle()
    for user in (ALICE, BOB, CAROL):  # no buttons on a finished deal's hand
        first = [m for m in surface.dm(user).messages.values() if not m.deleted and "deal 1" in (m.content or "")]
        assert first and all(m.view is None or not m.view.children for m in first), user
    channel = surface.channel(kit.table.channel_id)
    assert sum("Result of deal 1" in text for text in channel.texts()) == 1
    await kit.table.stop(ALICE, is_admin=False)
    await kit.table.settle()
    assert any("closed" in text for text in channel.texts()), channel.texts()
    lobby = next(iter(channel.messages.values()))
    assert lobby.view is None or not lobby.view.children  # the lobby offers no Join after the close


class NonceDM(FakeChannel):
    """A DM that keeps Discord's promise for `enforce_nonce`: a post repeated with a nonce it saw recently
    returns the message made the first time, and makes no new one."""

    def __init__(self, channel_id: int, *, dm_of: int) -> None:
        super().__init__(channel_id, dm_of=dm_of)
        self.nonces: dict[str, FakeMessage] = {}

    async def send(self, content: Any = None, *, view: discord.ui.View | None = None, **extra: Any) -> FakeMessage:
        nonce = extra.get("nonce")
        if nonce is not None and nonce in self.nonces and not self.nonces[nonce].deleted:
            return self.nonces[nonce]
        message = await super().send(content, view=view)
        if nonce is not None:
            self.nonces[nonce] = message
        return message


async def test_a_hand_posted_while_the_ais_move_on_leaves_the_player_a_live_hand_when_their_turn_comes() -> None:
    """The table moves on while a hand message is on its way (here: the AIs bid while the DM is looked up,
    as under load): the message is the hand as drawn, and the one for the player's turn is a new message,
    not the first one handed back by its nonce and then deleted as the old one."""
    kit = TableKit(deals=1, seed=seed_with_first_dealer(2))
    surface = presented(kit)
    dm = surface.dms[ALICE] = NonceDM(ALICE + 1, dm_of=ALICE)
    presenter = kit.table.presenter
    assert isinstance(presenter, DiscordPresenter)
    looked_up = presenter._dm

    async def slow_dm(user_id: int) -> Any:
        for _ in range(50):  # the AI seats act meanwhile
            await asyncio.sleep(0)
        return await looked_up(user_id)

    presenter._dm = slow_dm  # type: ignore[method-assign]  # a DM lookup that takes its time
    await kit.table.join(ALICE, "Alice")
    await kit.table.add_ai(ALICE, Level.NORMAL)
    await kit.table.add_ai(ALICE, Level.NORMAL)
    await kit.table.start(ALICE)
    for _ in range(5):
        await kit.table.settle()
    deal = kit.table.game.deal
    assert deal is not None and deal.current_seat is not None
    assert kit.table.game.occupant_of_seat(deal.current_seat).user_id == ALICE, "the AIs bid first"
    assert len(deal.history) > 0
    hands = [m for m in dm.messages.values() if not m.deleted and (m.content or "").startswith("**Your hand**")]
    assert hands, "Alice has a hand message"
    assert hands[-1].components, "with the controls for her turn"


class OtherShardSurface(FakeSurface):
    """A process of several: the table's server is another shard's, so its channel is not in this process's
    cache and must be fetched by REST (GET /channels/{id})."""

    def __init__(self) -> None:
        super().__init__()
        self.fetched: list[int] = []

    def get_channel(self, channel_id: int) -> Any:
        return None

    async def fetch_channel(self, channel_id: int) -> FakeChannel:
        self.fetched.append(channel_id)
        return self.channel(channel_id)


async def test_a_channel_this_process_does_not_cache_is_fetched_once_not_for_every_step() -> None:
    """With two processes, the one that gets the players' DM clicks shows tables of the other's servers: their
    channels are not in its cache. It fetched the channel again for every step it showed (a REST call each:
    409 of 4,068 in bot_load, PostgreSQL x2, 30 tables); once is enough."""
    kit = TableKit(deals=1)
    surface = OtherShardSurface()
    kit.table.presenter = DiscordPresenter(surface, edit_interval=0.0)  # type: ignore[arg-type]  # a fake client
    await kit.table.join(ALICE, "Alice")
    await kit.table.join(BOB, "Bob")
    await kit.table.add_ai(ALICE, Level.NORMAL)
    await kit.table.start(ALICE)
    await kit.play_human_turns({ALICE, BOB}, random.Random(5))
    await kit.table.settle()
    assert kit.table.game.state is TableState.FINISHED
    assert "Result of deal 1" in "\n".join(surface.channel(kit.table.channel_id).texts())
    assert surface.fetched == [kit.table.channel_id]
