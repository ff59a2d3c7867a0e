"""Coalesced message edits: Discord allows a channel only a few writes per second, and a fast table
(AIs moving without a pause) changes its board many times a second.

`EditPacer.edit(key, do_edit)` edits a message at once when it was not edited within `interval`
seconds; otherwise it remembers only the newest wanted version and applies it when the interval has
passed. Readers therefore always end up seeing the latest state, with fewer writes in between.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

log = logging.getLogger(__name__)

Edit = Callable[[], Awaitable[None]]


@dataclass
class _Slot:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    wanted: Edit | None = None
    last: float = float("-inf")
    task: asyncio.Task[None] | None = None


class EditPacer:
    """At most one edit per message per `interval` seconds; the latest wanted version wins."""

    def __init__(self, interval: float = 1.0) -> None:
        self.interval = interval
        self._slots: dict[int, _Slot] = {}

    def pending(self, key: int) -> bool:
        slot = self._slots.get(key)
        return slot is not None and slot.wanted is not None

    async def edit(self, key: int, do_edit: Edit, *, now: bool = False) -> None:
        """Apply `do_edit` now if the message may be edited now (or `now`), else as soon as it may."""
        slot = self._slots.setdefault(key, _Slot())
        slot.wanted = do_edit
        loop = asyncio.get_running_loop()
        if now or loop.time() - slot.last >= self.interval:
            await self._flush(slot)
        elif slot.task is None or slot.task.done():
            slot.task = asyncio.create_task(self._later(slot))

    async def flush(self, key: int) -> None:
        """Apply a waiting edit now (before something that must follow it, such as the result)."""
        slot = self._slots.get(key)
        if slot is not None:
            await self._flush(slot)

    async def drop(self, key: int) -> None:
        """Forget a message (deleted or finished): a waiting edit is discarded, one in flight completes."""
        slot = self._slots.pop(key, None)
        if slot is None:
            return
        slot.wanted = None
        if slot.task is not None and not slot.task.done():
            slot.task.cancel()
        async with slot.lock:
            pass

    async def _later(self, slot: _Slot) -> None:
        loop = asyncio.get_running_loop()
        await asyncio.sleep(max(0.0, slot.last + self.interval - loop.time()))
        try:
            await self._flush(slot)
        except Exception:  # the next change will try again; nobody waits on this task
            log.exception("a coalesced message edit failed")

    async def _flush(self, slot: _Slot) -> None:
        async with slot.lock:
            do_edit, slot.wanted = slot.wanted, None
            if do_edit is None:
                return
            slot.last = asyncio.get_running_loop().time()
            await do_edit()
