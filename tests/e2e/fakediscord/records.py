"""What the fake records about the bot: interactions and their responses, REST calls, rule violations."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .state import Channel, Message, User

if TYPE_CHECKING:  # the fake imports these records
    from .fake import FakeDiscord

WAIT = 30.0
"""Seconds the wait helpers wait by default for what the bot does: generous, since they return as soon as it
happened, and a bot sharing two cores with other test runs (load 12 and more) can take seconds to answer."""


@dataclass
class Violation:
    """A rule of Discord's the bot broke (even when Discord would only have shown an error)."""

    kind: str
    detail: str
    interaction_id: int | None = None


@dataclass
class Fault:
    """An error the fake answers instead of handling the next `times` matching REST calls (with `path`, only
    calls to that one path, e.g. one message's; with `where`, only calls whose JSON body satisfies it)."""

    method: str
    route: str
    status: int
    code: int
    message: str
    times: int = 1
    path: str | None = None
    where: Callable[[Any], bool] | None = None


@dataclass
class Tap:
    """Test code run when a matching REST call was handled, before its answer goes back (e.g. to take a
    database lock the bot will meet next); `where` picks calls by their JSON body."""

    method: str
    route: str
    action: Callable[[], None]
    where: Callable[[Any], bool] | None = None
    times: int = 1


@dataclass
class RestCall:
    """One REST call; `route` is the matched template, `at` the event loop's time when it arrived."""

    method: str
    path: str
    route: str
    status: int
    query: dict[str, str]
    body: Any
    at: float = 0.0


@dataclass
class Interaction:
    """One INTERACTION_CREATE and everything the bot did with it.

    kind: 2 application command, 3 component, 4 autocomplete, 5 modal submit.
    callback_type: the initial response's type (4 message, 5 deferred, 6 deferred update,
    7 update, 8 autocomplete result, 9 modal), None until acknowledged.
    """

    id: int
    token: str
    kind: int
    user: User
    channel: Channel
    payload: dict[str, Any] = field(repr=False)
    created_at: float
    source_message_id: int | None = None
    callback_type: int | None = None
    callback_data: dict[str, Any] | None = field(default=None, repr=False)
    acked_at: float | None = None
    original_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    ephemeral: bool = False
    #: For a deferred update (6): how many versions the message had, so wait_message() awaits the edit.
    versions_at_ack: int = 0
    #: The shard whose gateway session it was sent to (a server's shard; 0 for direct messages).
    shard: int | None = None
    _fake: FakeDiscord | None = field(default=None, repr=False)

    @property
    def fake(self) -> FakeDiscord:
        """The fake that recorded this interaction (it sets itself when it dispatches one)."""
        assert self._fake is not None, f"interaction {self.id} was not dispatched by a FakeDiscord"
        return self._fake

    @property
    def acknowledged(self) -> bool:
        return self.callback_type is not None

    @property
    def choices(self) -> list[dict[str, Any]] | None:
        """Autocomplete choices, once answered."""
        if self.callback_type != 8 or self.callback_data is None:
            return None
        return list(self.callback_data.get("choices", []))

    @property
    def modal(self) -> dict[str, Any] | None:
        return self.callback_data if self.callback_type == 9 else None

    @property
    def original(self) -> Message | None:
        """The message the initial response created or (for 6/7) edited."""
        target = self.original_id if self.original_id is not None else (
            self.source_message_id if self.callback_type in (6, 7) else None)
        return None if target is None else self.fake.message(target)

    @property
    def followups(self) -> list[Message]:
        return [self.fake.message(mid) for mid in self.followup_ids]

    async def wait_acked(self, timeout: float = WAIT) -> int:
        """Wait for the initial response; returns its callback type."""
        await self.fake.wait_for(lambda: self.acknowledged, timeout, f"interaction {self.id} acknowledged")
        assert self.callback_type is not None
        return self.callback_type

    async def wait_message(self, timeout: float = WAIT) -> Message:
        """Wait for the visible response: the original message once it is no longer "thinking"."""
        def ready() -> Message | None:
            if self.callback_type in (8, 9):
                raise ValueError(f"interaction {self.id} was answered with "
                                 f"{'choices' if self.callback_type == 8 else 'a modal'}, not a message")
            msg = self.original
            if msg is None or msg.loading:
                return None
            if self.callback_type == 6 and len(msg.history) <= self.versions_at_ack:
                return None
            return msg
        return await self.fake.wait_for(ready, timeout, f"response message of interaction {self.id}")

    async def wait_followup(self, index: int = 0, timeout: float = WAIT) -> Message:
        def ready() -> Message | None:
            return self.followups[index] if len(self.followup_ids) > index else None
        return await self.fake.wait_for(ready, timeout, f"follow-up #{index} of interaction {self.id}")


class ChangeSignal:
    """Wakes every waiter whenever the world changes, so tests wait on events, not sleeps."""

    def __init__(self) -> None:
        self._event = asyncio.Event()

    def notify(self) -> None:
        self._event.set()
        self._event = asyncio.Event()

    async def wait(self, timeout: float) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._event.wait(), timeout)
