"""A table of three humans played by slash commands, for the cog tests."""

from __future__ import annotations

from typing import Any

from skatbot.engine import Bid, Deal, Declare, Discard, GameType, Hold, Pass, Phase, PickUpSkat, PlayCard
from skatbot.tables import Table
from tests.cogs.helpers import CogBot, FakeInteraction, FakeUser


async def three_humans(world: CogBot, rules: str = "pub") -> tuple[Table, dict[int, FakeUser]]:
    """A one-deal table of alice, bob and carol, started; users by id."""
    users = [world.user(name) for name in ("alice", "bob", "carol")]
    await world.run("skat new", users[0], deals=1, rules=rules)
    for user in users[1:]:
        await world.run("skat join", user)
    await world.run("skat start", users[0])
    table = world.skat.manager.in_channel(20)
    return table, {user.id: user for user in users}


def deal_of(table: Table) -> Deal:
    deal = table.game.deal
    assert deal is not None
    return deal


def at_seat(table: Table, users: dict[int, FakeUser], seat: int) -> FakeUser:
    user_id = table.game.occupant_of_seat(seat).user_id
    assert user_id is not None
    return users[user_id]


def to_act(table: Table, users: dict[int, FakeUser]) -> FakeUser:
    seat = deal_of(table).current_seat
    assert seat is not None
    return at_seat(table, users, seat)


def command_for(action: object) -> tuple[str, dict[str, Any]]:
    """The slash command a player types for an engine action."""
    if isinstance(action, Bid):
        return "skat bid", {"value": action.value}
    if isinstance(action, Hold):
        return "skat hold", {}
    if isinstance(action, Pass):
        return "skat pass", {}
    if isinstance(action, PickUpSkat):
        return "skat pickup", {}
    if isinstance(action, Discard):
        return "skat discard", {"first": action.first.iss, "second": action.second.iss}
    if isinstance(action, Declare):
        c = action.contract
        return "skat declare", {"game": c.game.value, "hand": c.hand, "schneider": c.schneider, "schwarz": c.schwarz,
                                "ouvert": c.ouvert}
    assert isinstance(action, PlayCard)
    return "skat play", {"card": action.card.iss}


async def move(world: CogBot, table: Table, users: dict[int, FakeUser], action: object) -> FakeInteraction:
    name, options = command_for(action)
    done = await world.run(name, to_act(table, users), **options)
    assert done.answer.ephemeral and done.text.startswith("You "), (name, options, done.replies)  # what happened
    return done


async def to_the_declaration(world: CogBot, table: Table, users: dict[int, FakeUser]) -> None:
    """18 said and held, the rest pass; the declarer picks up and puts two cards back."""
    deal = deal_of(table)
    while deal.phase is Phase.AUCTION:
        legal = deal.legal_actions()
        choice = next((a for a in legal if isinstance(a, Bid) and a.value == 18 and deal.bid == 0), None) \
            or next((a for a in legal if isinstance(a, Hold)), None) or next(a for a in legal if isinstance(a, Pass))
        await move(world, table, users, choice)
    await move(world, table, users, PickUpSkat())
    await move(world, table, users, next(a for a in deal.legal_actions() if isinstance(a, Discard)))


async def one_deal_conceded(world: CogBot, rules: str = "official") -> tuple[Table, dict[int, FakeUser], FakeUser]:
    """A one-deal series of alice, bob and carol: a grand declared after pick-up, then conceded at once.
    Returns the table, its users and the declarer (who lost)."""
    table, users = await three_humans(world, rules)
    await to_the_declaration(world, table, users)
    deal = deal_of(table)
    declarer = to_act(table, users)
    await move(world, table, users, next(a for a in deal.legal_actions() if isinstance(a, Declare)
                                         and a.contract.game is GameType.GRAND and not a.contract.schneider))
    conceded = await world.run("skat concede", declarer, confirm=True)
    assert conceded.text.startswith("You conceded the deal.") and deal.is_over
    return table, users, declarer


async def kontra_and_re(world: CogBot, table: Table, users: dict[int, FakeUser]) -> None:
    """Before the first card: a defender says Kontra and the declarer Re, so nobody else may still speak
    and a human leader need not wait."""
    deal = deal_of(table)
    assert deal.declarer is not None
    defender = next(s for s in range(3) if s != deal.declarer)
    for seat, command in ((defender, "skat kontra"), (deal.declarer, "skat re")):
        user_id = table.game.occupant_of_seat(seat).user_id
        assert user_id is not None
        said = await world.run(command, users[user_id])
        assert said.text.startswith("You said "), said.text
