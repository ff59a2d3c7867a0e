"""The thread where a bot process's PostgreSQL writes and reads run, on an event loop of their own.

Each statement is a round trip, and on the bot's event loop each round trip waits for a turn of that loop,
which under load comes only after every other table's drawing and posting. A move's append (BEGIN, the check,
the insert, its due rows, COMMIT) paid that wait six times. On this thread's loop, which does nothing but the
database, the round trips follow one another at once, and the bot's loop waits for one turn per write or
read, as it does for aiosqlite's thread on SQLite.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


class IOThread:
    """An event loop in a daemon thread; `run` awaits a coroutine there from the caller's loop."""

    def __init__(self, name: str = "skatbot-postgres") -> None:
        self.loop = asyncio.new_event_loop()
        self._started = threading.Event()
        self._thread = threading.Thread(target=self._serve, name=name, daemon=True)
        self._thread.start()
        self._started.wait()

    def _serve(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.call_soon(self._started.set)
        try:
            self.loop.run_forever()
        finally:
            self.loop.run_until_complete(self.loop.shutdown_asyncgens())
            self.loop.close()

    async def run(self, work: Coroutine[Any, Any, T]) -> T:
        """`work`'s result (or exception), done on this thread's loop. Cancelling the caller cancels `work`."""
        if not self._thread.is_alive():
            work.close()
            raise RuntimeError("the database thread has stopped")
        return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(work, self.loop))

    def stop(self) -> None:
        """End the loop and the thread (after the caller closed what runs there)."""
        if self._thread.is_alive():
            self.loop.call_soon_threadsafe(self.loop.stop)
            self._thread.join()
