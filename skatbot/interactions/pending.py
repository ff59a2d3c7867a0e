"""Moves, lobby clicks and new tables shown as pending end in an answer, even across a crash (see
`skatbot.storage.pending`).

`watch` wraps one move or lobby click (join, leave, seat or remove an AI, start, stop), `opening` one /skat
new: when storing it turns slow, the player is shown "thinking…" and a marker is kept; once it is recorded or
refused and the player was told, the marker goes. `settle` runs after a restart: for every marker left, the
table's log (for a new table: the tables the player opened from that channel since) says whether it was
recorded, and the player is told so through the interaction while its token lives, else by DM.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, NamedTuple

import discord

from skatbot.engine import Action
from skatbot.models import from_seconds
from skatbot.storage import Storage
from skatbot.storage.pending import PendingMove, PendingMoves
from skatbot.tables import Table, TableError
from skatbot.tables.log import Act, Entry, Join, Start
from skatbot.tables.table import Meant
from skatbot.ui.i18n import t
from skatbot.ui.languages import Lang
from skatbot.wiring import StorageTables

from .replies import reply_error

if TYPE_CHECKING:
    from discord.types.webhook import Webhook as WebhookPayload


log = logging.getLogger(__name__)

TOKEN_LIFE = 15 * 60.0
TOKEN_MARGIN = 60.0
"""An interaction's token answers for 15 minutes from its creation; the marker is written a moment after
that, so it is trusted a minute less."""
MARKER_BUDGET = 1.0
"""Seconds the marker may take before "thinking…" is shown anyway (Discord wants an answer within three)."""


class Expected(NamedTuple):
    """The log entry that will mean a pending click was recorded ("" when none can be told); `prefix`: any
    entry beginning with these words (what follows is settled only as it is stored)."""

    entry: str
    prefix: bool = False


def move_entry(table: Table, user_id: int, action: Action | Meant) -> Callable[[], Expected]:
    """A move's entry, told from the table's current view only when storing the move turns slow (the marker's
    entry; the move itself is judged by the table, which looks the seat up under its lock)."""
    def expected() -> Expected:
        view = table.current()
        try:
            seat = view.seat_of_user(user_id)
        except TableError:  # not seated now: the move will be refused, and the marker only says "not recorded"
            return Expected("")
        try:
            move = action(view.seats[seat]) if callable(action) else action
        except Exception:  # read so, the table stores nothing (a concession asked first, a refusal): nothing to expect
            return Expected("")
        return Expected(str(Act(view.deal_number, seat, move)))
    return expected


def lobby_entry(entry: Entry) -> Callable[[], Expected]:
    """A lobby click's entry: a join by its player (the name is stored shortened to one line), a start by its
    word (the first dealer is drawn as it is stored, and a table starts once)."""
    if isinstance(entry, Join):
        expected = Expected(f"join {entry.user_id}", prefix=True)
    elif isinstance(entry, Start):
        expected = Expected("start", prefix=True)
    else:
        expected = Expected(str(entry))
    return lambda: expected


class Watch:
    """One move or lobby click being stored: `shown_pending` keeps a marker and shows the player that it is
    pending."""

    def __init__(self, moves: PendingMoves, interaction: discord.Interaction, table: Table | None,
                 expected: Callable[[], Expected], lang: Lang, defer: Callable[[], Awaitable[object]]) -> None:
        self.moves = moves
        self.interaction = interaction
        self.table = table
        self.expected = expected
        self.lang = lang
        self.defer = defer
        self.kept = False

    def marker(self) -> PendingMove:
        interaction, table = self.interaction, self.table
        assert table is not None
        entry, prefix = self.expected()
        return PendingMove(interaction.id, interaction.application_id, interaction.token,
                           time.time() + TOKEN_LIFE - TOKEN_MARGIN, interaction.user.id, table.id,
                           len(table.entries), entry, self.lang, prefix)

    async def shown_pending(self) -> None:
        """The marker first (a crash right after still tells the player), then Discord's "thinking…"."""
        move = self.marker()
        writing = asyncio.ensure_future(self.moves.put(move))
        self.kept = True  # from here on it is dropped once the player was answered
        try:
            await asyncio.wait_for(asyncio.shield(writing), MARKER_BUDGET)
        except TimeoutError:  # a slow disk: the player sees "thinking…" in time, the marker follows
            log.warning("table %s: the pending move's marker is slow to write", move.table_id)
        except OSError as error:
            self.kept = False
            log.warning("table %s: no marker for the pending move of %s: %r", move.table_id, move.user_id, error)
        await self.defer()


class OpeningWatch(Watch):
    """A /skat new being stored: its marker names the channel it was used in and when it began (`since`, Unix
    seconds by the store's clock), as the table has no id until it is stored."""

    def __init__(self, moves: PendingMoves, interaction: discord.Interaction, since: int, lang: Lang,
                 defer: Callable[[], Awaitable[object]]) -> None:
        super().__init__(moves, interaction, None, lambda: Expected(""), lang, defer)
        self.since = since

    def marker(self) -> PendingMove:
        interaction = self.interaction
        return PendingMove(interaction.id, interaction.application_id, interaction.token,
                           time.time() + TOKEN_LIFE - TOKEN_MARGIN, interaction.user.id, 0, self.since, "",
                           self.lang, opens_in=interaction.channel_id or 0)


class PendingReplies:
    """Markers of pending moves, and what they say after a restart."""

    def __init__(self, client: discord.Client, storage: Storage, moves: PendingMoves, store: StorageTables) -> None:
        self.client = client
        self.storage = storage
        self.moves = moves
        self.store = store

    @asynccontextmanager
    async def watch(self, interaction: discord.Interaction, table: Table, expected: Callable[[], Expected],
                    lang: Lang, defer: Callable[[], Awaitable[object]]) -> AsyncIterator[Watch]:
        """Around storing a move or lobby click (its log entry `expected`) and answering: one shown pending
        that fails is answered here (then the marker goes); one that is recorded loses its marker once the
        block has said so."""
        async with self._watching(Watch(self.moves, interaction, table, expected, lang, defer)) as watch:
            yield watch

    @asynccontextmanager
    async def opening(self, interaction: discord.Interaction, since: int, lang: Lang,
                      defer: Callable[[], Awaitable[object]]) -> AsyncIterator[Watch]:
        """Around storing a new table (/skat new, begun at `since`, Unix seconds by the store's clock) and
        answering, as `watch` around a move."""
        async with self._watching(OpeningWatch(self.moves, interaction, since, lang, defer)) as watch:
            yield watch

    @asynccontextmanager
    async def _watching(self, watch: Watch) -> AsyncIterator[Watch]:
        interaction = watch.interaction
        try:
            yield watch
        except Exception as error:
            if not watch.kept:
                raise
            await reply_error(interaction, error)
            await self.moves.drop(interaction.id)
            return
        if watch.kept:
            await self.moves.drop(interaction.id)

    async def settle(self) -> None:
        """After a restart: tell each player whose move was pending whether it was recorded."""
        told: set[tuple[int, int]] = set()  # (table, seq): entries a player was told are theirs
        for move in await self.moves.all():
            try:
                await self._settle(move, told)
            except Exception:
                log.exception("pending move %s of table %s: could not settle it", move.interaction_id,
                              move.table_id)
            await self.moves.drop(move.interaction_id)

    def _followup(self, move: PendingMove) -> discord.Webhook:
        """The interaction's follow-up webhook, as `Interaction.followup` builds it (an application webhook)."""
        payload: WebhookPayload = {"id": move.application_id, "type": 3, "token": move.token}
        return discord.Webhook.from_state(data=payload, state=self.client._connection)

    async def _settle(self, move: PendingMove, told: set[tuple[int, int]]) -> None:
        """One marker: recorded when an entry stored since its click is its entry, and not one told to an
        older marker already (the same player's two clicks asking for the same, of which one was stored)."""
        if move.opens_in:
            await self._settle_new(move)
            return
        stored = await self.store.entries_since(table_id=move.table_id, seq=move.since)
        found = next((seq for seq, line in enumerate(stored, start=move.since)
                      if move.means(line) and (move.table_id, seq) not in told), None)
        recorded = found is not None
        if found is not None:
            told.add((move.table_id, found))
        log.info("table %s: a move pending before the restart was %srecorded; telling %s", move.table_id,
                 "" if recorded else "not ", move.user_id)
        await self._tell(move, t(move.lang, "reply.recorded") if recorded else
                         t(move.lang, "reply.not_recorded", id=move.table_id),
                         t(move.lang, "reply.recorded_table", id=move.table_id) if recorded else
                         t(move.lang, "reply.not_recorded", id=move.table_id))

    async def _settle_new(self, move: PendingMove) -> None:
        """A /skat new pending before the restart: its table is stored whole, or not at all."""
        table_id = await self.storage.tables.opened_by(creator_id=move.user_id, channel_id=move.opens_in,
                                                           since=from_seconds(move.since))
        log.info("a new table pending before the restart in channel %s was %s; telling %s", move.opens_in,
                 "not recorded" if table_id is None else f"opened as table {table_id}", move.user_id)
        text = t(move.lang, "reply.new_not_recorded") if table_id is None else \
            t(move.lang, "reply.table_created", id=table_id)
        await self._tell(move, text, text)

    async def _tell(self, move: PendingMove, live: str, by_dm: str) -> None:
        """Through the interaction while its token lives (`live`), else by DM (`by_dm`, which names the table)."""
        if time.time() < move.token_expires:
            try:
                await self._followup(move).send(live, ephemeral=True)
                return
            except discord.HTTPException as error:
                log.info("pending move %s: its interaction no longer answers (%s); by DM", move.interaction_id,
                         error)
        text = by_dm
        try:
            user = self.client.get_user(move.user_id) or await self.client.fetch_user(move.user_id)
            await user.send(text)
        except discord.HTTPException as error:
            log.info("pending move %s: could not tell %s by DM either: %s", move.interaction_id, move.user_id,
                     error)
