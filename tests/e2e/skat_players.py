"""Scripted Skat players for the real bot: they read their private hand message and act on it,
either through slash commands (with the values autocomplete offers) or by pressing the controls.

Every action waits until the bot has answered it and the player's hand message has moved on, so a
player never presses a control that is already stale.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from skatbot.engine import Contract
from tests.controls import control_arg, control_kind
from tests.e2e.fakediscord import Channel, FakeDiscord, Interaction, Message, User
from tests.e2e.skat_leaks import CARD, HAND_TITLE, _match

SIDE_KINDS = ("claim", "concede", "kontra", "re", "hint")


def is_hand_message(message: Message) -> bool:
    first = message.content.split("\n", 1)[0]
    return _match(HAND_TITLE, first) is not None


def kind_of(control: dict[str, Any]) -> str:
    return control_kind(control)


def game_controls(message: Message) -> list[dict[str, Any]]:
    """Enabled controls on a live message that move the game on (not claim, concede, Kontra or Re)."""
    if message.deleted:
        return []
    return [c for c in message.walk_components() if c.get("type") in (2, 3) and not c.get("disabled")
            and kind_of(c) not in SIDE_KINDS]


def latest_hand(fake: FakeDiscord, user: User) -> Message | None:
    """The newest live hand message the user can see (DM or ephemeral)."""
    mine = [m for m in fake.messages(visible_to=user)
            if m.visibility in ("dm", "ephemeral") and m.viewer_id == user.id and is_hand_message(m)]
    return mine[-1] if mine else None


@dataclass
class Moves:
    """What one player did, by route, so a scenario can insist both routes were used."""

    slash: int = 0
    buttons: int = 0
    kinds: dict[str, int] = field(default_factory=dict)

    def count(self, how: str, kind: str) -> None:
        if how == "slash":
            self.slash += 1
        else:
            self.buttons += 1
        self.kinds[kind] = self.kinds.get(kind, 0) + 1


def _moments(message: Message, versions: int) -> set[str]:
    """The moments (the table's sequence numbers) that the game controls of the message's first `versions`
    versions ended with were drawn for."""
    then = dataclasses.replace(message, history=message.history[:versions], deleted=False)
    return {str(c["custom_id"]).split(":")[2] for c in game_controls(then)}


async def _settled(fake: FakeDiscord, user: User, message: Message, versions: int) -> None:
    """Until the hand message that offered the move (as it was with `versions` versions) moved on: deleted,
    replaced, or redrawn without the controls of that moment. Any edit is not enough: on a loaded machine an
    edit still paced from before the move (a Kontra shown, a picture added) can land first, and the hand still
    offers the moment the move was made at."""
    offered = _moments(message, versions)

    def moved() -> bool:
        newest = latest_hand(fake, user)
        return message.deleted or (newest is not None and newest.id != message.id) or (
            len(message.history) > versions and not offered & _moments(message, len(message.history)))
    try:
        await fake.wait_for(moved, 30, f"{user.name}'s hand message to move on")
    except TimeoutError:
        raise AssertionError(f"{user.name}'s hand message did not move on:\n{message.content}\n"
                             f"{[kind_of(c) for c in game_controls(message)]}\n--- messages:\n{dump(fake)}") from None


def dump(fake: FakeDiscord) -> str:
    """Every message and its last version, for failure reports."""
    return "\n".join(f"[{m.id} {m.visibility} {m.viewer_id} v{len(m.history)}{' deleted' if m.deleted else ''}] "
                     f"{m.content[:300]!r}" for m in fake.messages(include_deleted=True))


async def _answered(ix: Interaction) -> Message:
    reply = await ix.wait_message(30)
    return reply


async def slash_move(fake: FakeDiscord, user: User, channel: Channel, message: Message, rng: random.Random,
                     moves: Moves | None = None) -> str:
    """Make one legal move through /skat commands, using the values autocomplete offers; returns its kind."""
    controls = game_controls(message)
    kinds = {kind_of(c) for c in controls}
    versions = len(message.history)
    options: dict[str, Any] = {}
    if kinds & {"bid", "bids", "hold"} or (kinds == {"pass"}):
        offered = await fake.autocomplete(user, channel, "skat", subcommand="bid", focused="value",
                                          options={"value": ""})
        expected = sorted(int(kind_of_arg(c)) for c in controls if kind_of(c) == "bid") + sorted(
            int(o["value"].removeprefix("bid ")) for c in controls if kind_of(c) == "bids" for o in c["options"])
        roll = rng.random()
        if "hold" in kinds:  # answering a bid: autocomplete offers hold (the bid) and pass (0)
            assert [c["value"] for c in offered][1:] == [0] and len(offered) == 2, offered
        else:
            assert [c["value"] for c in offered] == expected[:25], (offered, expected)
        if "hold" in kinds and roll < 0.3:
            command = "hold"
        elif "hold" in kinds and roll < 0.6:
            command, options = "bid", {"value": offered[0]["value"]}  # hold, chosen from the autocomplete
        elif offered and roll < 0.8:
            command, options = "bid", {"value": offered[0]["value"] if rng.random() < 0.7 else rng.choice(
                offered[:3])["value"]}
        else:
            command = "pass"
    elif "pickup" in kinds:
        if rng.random() < 0.8:
            command = "pickup"
        else:
            command, options = "declare", _declare_options(pick_contract(_select_values(controls, "declare"), rng))
    elif "discard" in kinds:
        offered = await fake.autocomplete(user, channel, "skat", subcommand="discard", focused="first",
                                          options={"first": ""})
        assert sorted(c["value"] for c in offered) == sorted(_select_values(controls, "discard"))
        first, second = rng.sample([c["value"] for c in offered], 2)
        command, options = "discard", {"first": first, "second": second}
    elif "declare" in kinds:
        command, options = "declare", _declare_options(pick_contract(_select_values(controls, "declare"), rng))
    elif "card" in kinds:
        offered = await fake.autocomplete(user, channel, "skat", subcommand="play", focused="card",
                                          options={"card": ""})
        enabled = sorted(kind_of_arg(c) for c in controls if kind_of(c) == "card")
        assert sorted(c["value"] for c in offered) == enabled, (offered, enabled)
        command, options = "play", {"card": rng.choice(offered)["value"]}
    else:
        raise AssertionError(f"no move on {message.content!r}: {kinds}")
    ix = await fake.slash(user, channel, "skat", subcommand=command, options=options)
    reply = await _answered(ix)
    assert reply.visibility == "ephemeral" and reply.content.startswith(("You ", "Du ")), reply.content  # what happened
    await _settled(fake, user, message, versions)
    if moves is not None:
        moves.count("slash", command)
    return command


def kind_of_arg(control: dict[str, Any]) -> str:
    return control_arg(control)


def _select_values(controls: list[dict[str, Any]], kind: str) -> list[str]:
    return [o["value"] for c in controls if kind_of(c) == kind and c["type"] == 3 for o in c["options"]]


def pick_contract(values: list[str], rng: random.Random) -> str:
    """Mostly a plain suit or grand game (so deals run long); now and then anything offered (`values`: the
    declaration menus' action texts, `declare grand hand`)."""
    plain = [v for v in values if Contract.parse(v.removeprefix("declare ")).game.value not in ("null",)
             and not any(w in v for w in ("schneider", "schwarz", "ouvert"))]
    return rng.choice(plain if plain and rng.random() < 0.9 else values)


def _declare_options(contract_text: str) -> dict[str, Any]:
    contract = Contract.parse(contract_text.removeprefix("declare "))
    options: dict[str, Any] = {"game": contract.game.value}
    for flag in ("hand", "schneider", "schwarz", "ouvert"):
        if getattr(contract, flag):
            options[flag] = True
    return options


async def button_move(fake: FakeDiscord, user: User, message: Message, rng: random.Random,
                      moves: Moves | None = None, avoid: tuple[str, ...] = ()) -> str:
    """Press one enabled game control on a hand message (a seeded choice); returns its kind.

    `avoid`: kinds not to press while something else is offered (e.g. "pass", so the deal is played).
    """
    controls = game_controls(message)
    assert controls, f"no controls on {message.content!r}"
    control = rng.choice([c for c in controls if kind_of(c) not in avoid] or controls)
    if control["type"] == 3 and kind_of(control) == "declare":
        values = [pick_contract([o["value"] for o in control["options"]], rng)]
    else:
        values = [o["value"] for o in control.get("options", [])]
        values = rng.sample(values, control.get("min_values", 1)) if values else []
    versions = len(message.history)
    if control["type"] == 2:
        ix = await fake.click(user, message, control["custom_id"])
    else:
        ix = await fake.select(user, message, control["custom_id"], values)
    await ix.wait_acked()
    await _settled(fake, user, message, versions)
    if moves is not None:
        moves.count("button", kind_of(control))
    return kind_of(control)


def whose_turn(fake: FakeDiscord, users: list[User]) -> tuple[User, Message] | None:
    for user in users:
        message = latest_hand(fake, user)
        if message is not None and game_controls(message):
            return user, message
    return None


async def play_out(fake: FakeDiscord, users: list[User], done: Callable[[], bool],
                   move: Callable[[User, Message], Awaitable[object]], limit: int = 600, wait: float = 30.0) -> None:
    """Let whoever's turn it is move (through `move`) until `done()` holds."""
    def turn_or_end() -> tuple[User, Message] | str | None:
        return "done" if done() else whose_turn(fake, users)

    for _ in range(limit):
        try:
            found: tuple[User, Message] | str = await fake.wait_for(turn_or_end, wait, "a player's turn or the end")
        except TimeoutError:
            raise AssertionError(f"no player's turn and no end:\n{dump(fake)}") from None
        if isinstance(found, str):  # "done"
            return
        user, message = found
        await move(user, message)
    raise AssertionError("the game did not finish")


def cards_in(message: Message) -> list[str]:
    """The cards listed on a hand message's second line."""
    lines = message.content.splitlines()
    return CARD.findall(lines[1]) if len(lines) > 1 else []
