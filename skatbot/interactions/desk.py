"""The table controls' service: what a pressed button or chosen menu option does, and the steps it shares
with the /skat commands (a lobby step, a hint, the player's own hand, a concession that asks first).

Built once in the bot's setup_hook (`bot.services.controls`); the controls' callbacks call `on_control`
with the control's value, parsed once from its custom_id. A move goes to `Table.act`, which finds the
player's seat and has the engine judge it, once, on the table as stored, under its lock.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import discord

from skatbot.ai import Level
from skatbot.engine import Action, Concede, MalformedText
from skatbot.engine.views import SeatView
from skatbot.storage import NotFound, Storage
from skatbot.storage import TableState as StoredState
from skatbot.tables import Table, TableError, TableState
from skatbot.tables.errors import NotAllowed, WrongTableState
from skatbot.tables.log import AddAI, Entry, Join, Leave, Start
from skatbot.tables.manager import LOOKUP_PATIENCE, NoTable, TableManager
from skatbot.tables.table import Meant
from skatbot.ui.concession import concession_cost
from skatbot.ui.controls import (
    LOBBY_KINDS,
    Control,
    Kind,
    MoveControl,
    Outdated,
    TableControl,
    Unreadable,
    confirm_concession_view,
)
from skatbot.ui.fit import Limit, fit
from skatbot.ui.hint_text import hint_text
from skatbot.ui.i18n import language_of, t
from skatbot.ui.languages import Lang
from skatbot.ui.names import level_from_text
from skatbot.ui.presenter import DiscordPresenter
from skatbot.ui.refusals import CommandRefusal

from .looks import Looks
from .pending import PendingReplies, lobby_entry, move_entry
from .replies import reply_error, say

log = logging.getLogger(__name__)
timing = logging.getLogger("skatbot.timing")

ACK_BUDGET = 0.15
"""Seconds a move may take to be stored before the player is shown that it is pending (Discord wants an
answer within three): a silent acknowledgement would look like acceptance before the move is stored."""


class TableDesk:
    """Answers the table controls and the steps the /skat commands share with them."""

    def __init__(self, *, storage: Storage, looks: Looks, presenter: DiscordPresenter, tables: TableManager,
                 pending: PendingReplies) -> None:
        self.storage = storage
        self.looks = looks
        self.presenter = presenter
        self.tables = tables
        self.pending = pending

    def lang(self, interaction: discord.Interaction) -> Lang:
        """The reader's language (their Discord client's, if the bot speaks it, else the server's); kept as the
        language of their direct messages."""
        fallback = self.looks.style_for(interaction.guild_id or 0).lang
        lang = language_of(str(interaction.locale), fallback)
        self.looks.remember_language(interaction.user.id, interaction.user.display_name, lang)
        return lang

    # --- what a control does ----------------------------------------------------------------------------

    async def on_control(self, interaction: discord.Interaction, control: Control) -> None:
        """A button or menu was used: act for the person who pressed it, if it still stands for now; every
        failure is answered (`reply_error`: the desk is the table controls' error boundary, as `guarded` is
        other components')."""
        try:
            await self._on_control(interaction, control)
        except Exception as error:  # every failure gets an answer (discord.py would only log it)
            await reply_error(interaction, error)

    async def _on_control(self, interaction: discord.Interaction, control: Control) -> None:
        if isinstance(control, Unreadable):  # a forged id or menu value: no action in it
            raise CommandRefusal("bad_control")
        if isinstance(control, Outdated):  # drawn before moves carried their action: its moment is past
            await self.table_of(control.table_id)  # (a table that is gone or over says so first)
            raise WrongTableState("stale")
        if isinstance(control, MoveControl):
            await self._move(interaction, control.table_id, control.seq, control.action)
        else:
            await self._table_control(interaction, control)

    async def _table_control(self, interaction: discord.Interaction, control: TableControl) -> None:
        table = await self.table_of(control.table_id)
        user = interaction.user
        if control.kind in LOBBY_KINDS:
            if table.current().state is not TableState.OPEN:  # drawn for the lobby, which is gone
                table.require_live()
                raise WrongTableState("already_started")
            entry: Entry
            if control.kind is Kind.JOIN:
                work, entry = table.join(user.id, user.display_name), Join(user.id, "")
            elif control.kind is Kind.LEAVE:
                work, entry = table.leave(user.id), Leave(user.id)
            elif control.kind is Kind.ADD_AI:
                level = ai_level(control.arg or Level.NORMAL.value)
                work, entry = table.add_ai(user.id, level), AddAI(level, user.id)
            else:
                work, entry = table.start(user.id), Start()
            await self.lobby(interaction, table, work, entry, None)
        elif control.kind is Kind.HINT:
            await self.answer_hint(interaction, table, -1 if control.seq is None else control.seq)
        elif control.kind is Kind.SHOW:  # any "Show my hand" shows the current hand, whichever deal it came from
            table.require_live()
            await self.say_hand(interaction, table, self.lang(interaction))
        else:  # Kind.CONCEDE: asks first when it costs schneider or schwarz (a stale one is refused first)
            if control.seq is None:
                raise WrongTableState("stale")
            await self._move(interaction, control.table_id, control.seq, conceding(confirmed=False), table)

    async def _move(self, interaction: discord.Interaction, table_id: int, seq: int, action: Action | Meant,
                    table: Table | None = None) -> None:
        """A move, judged by the table under its lock on the table as stored (caught up there)."""
        lang = self.lang(interaction)
        table = table or await self.table_of(table_id, fresh=False)
        user = interaction.user
        clicked = interaction.message
        if clicked is not None and not clicked.flags.ephemeral:  # their DM hand: its updates may use this click
            self.presenter.remember(user.id, interaction, clicked.id)
        handled = time.perf_counter()
        async with self.pending.watch(interaction, table, move_entry(table, user.id, action), lang,
                                      lambda: pending_note(interaction)) as watch:
            try:
                recorded = await stored_then_acked(table.act(user.id, action, seq=seq), watch.shown_pending)
            except AskFirst as ask:  # nothing stored: the concession is asked again first
                await self.ask_concession(interaction, table, ask)
                return
            if recorded:
                await say(interaction, t(lang, "reply.recorded"))  # replaces the pending note
        if timing.isEnabledFor(logging.DEBUG):  # from the interaction's creation, and from its handler's start
            timing.debug("move table=%d arrived_ms=%.3f stored_ms=%.3f", table.id,
                         (handled - time.perf_counter()) * 1000 + since_created(interaction),
                         (time.perf_counter() - handled) * 1000)
        message = interaction.message
        if message is not None and message.flags.ephemeral:
            # Answered already, the response is the pending note (then what became of the move): the hand the
            # player clicked on is edited by its id, its controls being for a moment now past.
            await self.refresh_ephemeral(interaction, table, lang,
                                         message.id if interaction.response.is_done() else None)
        elif not interaction.response.is_done():
            try:
                await interaction.response.defer()  # the presenter updates the hand message itself
            except discord.NotFound:  # the message went meanwhile (a newer hand replaced it): the move stands
                log.info("interaction %s: its message is gone; the move was stored", interaction.id)
            self.presenter.answered(interaction)  # through this click's token

    async def table_of(self, table_id: int, *, fresh: bool = True) -> Table:
        """The table a control belongs to. One no longer held (finished and replaced, or closed before a
        restart) is looked up in storage, so its controls say what became of it. `fresh`: caught up with what
        other processes stored (a move catches up under the table's lock itself)."""
        try:
            table = await self.tables.load(table_id)  # another process may have been serving it
            if fresh:
                await table.refresh(patience=LOOKUP_PATIENCE)  # and moved it on since this process last looked
            return table
        except NoTable:
            try:
                stored = await self.storage.tables.get(table_id=table_id)
            except NotFound:
                raise NoTable("table_gone") from None
            if stored.state is StoredState.FINISHED:
                raise WrongTableState("series_over") from None
            if stored.state is StoredState.ABANDONED:
                raise WrongTableState("closed") from None
            raise

    # --- steps the /skat commands share ----------------------------------------------------------------

    async def lobby(self, interaction: discord.Interaction, table: Table, work: Coroutine[Any, Any, None],
                    entry: Entry, done: str | None) -> None:
        """A lobby step (join, leave, seat or remove an AI, start, stop), acknowledged only once it is stored:
        if storing is slow the player sees it pending (a marker kept, so a crash meanwhile is settled after the
        restart like a pending move), then `done` (a button: "recorded"), or why not. `done` None: a button
        whose quick answer is the lobby's own edit."""
        lang = self.lang(interaction)
        async with self.pending.watch(interaction, table, lobby_entry(entry), lang,
                                      lambda: pending_note(interaction)) as watch:
            if await stored_then_acked(work, watch.shown_pending):
                await say(interaction, done or t(lang, "reply.recorded"))
            elif done is not None:
                await say(interaction, done)
            elif not interaction.response.is_done():
                await interaction.response.defer()  # the presenter edits the lobby itself

    async def answer_hint(self, interaction: discord.Interaction, table: Table, seq: int | None) -> None:
        """The strong level's choice for the asker's own decision, only for them (it may name their cards).
        Deferred first: a search over sampled worlds may take a second or two."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        suggestion = await table.hint(interaction.user.id, seq=seq)
        style = self.looks.style_for(table.guild_id)
        await say(interaction, hint_text(suggestion, self.lang(interaction), style.deck))

    async def ask_concession(self, interaction: discord.Interaction, table: Table, ask: AskFirst) -> None:
        """Ask again before a concession that costs the player's side schneider or schwarz (the answer's button
        concedes)."""
        lang = self.lang(interaction)
        await say(interaction, t(lang, f"concede.confirm_{ask.what}", points=ask.points),
                  view=confirm_concession_view(table.id, table.seq, lang))

    async def say_hand(self, interaction: discord.Interaction, table: Table, lang: Lang) -> None:
        """The player's hand and controls, only for them (closed DMs, /skat hand); its picture, as the DM has it,
        follows into the same message (drawn after the answer, which keeps to Discord's three seconds)."""
        drawn = table.current()  # the moment the answer shows
        text, view = self.presenter.private_hand(drawn, interaction.user.id, lang)
        content = fit(text, Limit.CONTENT)
        if interaction.response.is_done():
            message = await interaction.followup.send(content, view=view, ephemeral=True, wait=True)
            await self._add_hand_picture(interaction, table, lang, message.edit)
        else:
            await interaction.response.send_message(content, view=view, ephemeral=True)
            if interaction.user.id in self.presenter.dm_closed:  # the hand they play from: its turns come back
                # to this message (brought up to date if the hand moved on meanwhile)
                await self.presenter.ephemeral_hand(drawn, interaction.user.id, interaction, lang, shown=True)
            await self._add_hand_picture(interaction, table, lang, interaction.edit_original_response)

    async def _add_hand_picture(self, interaction: discord.Interaction, table: Table, lang: Lang,
                                edit: Callable[..., Awaitable[object]]) -> None:
        """Put the hand's picture into the ephemeral hand message just answered (nothing when the server shows
        no pictures); a failure costs the picture only."""
        try:
            file = await self.presenter.private_hand_picture(table.current(), interaction.user.id, lang)
            if file is not None:
                await edit(attachments=[file])
        except (TableError, discord.HTTPException):
            log.info("table %s: could not show the hand picture of %s", table.id, interaction.user.id)

    async def refresh_ephemeral(self, interaction: discord.Interaction, table: Table, lang: Lang,
                                source: int | None = None) -> None:
        """After a move from an ephemeral hand (closed DMs): show the hand as it is now (its picture follows), or
        drop the controls when the table stopped playing (the move itself succeeded either way). `source`: the
        hand's message id when the interaction's own response is another message (the pending note)."""
        try:
            if source is not None:  # Discord lets only the token that made the hand edit it
                await self.presenter.redraw_ephemeral_hand(table.current(), interaction.user.id, lang)
                return
            if table.current().state is TableState.PLAYING:
                if not interaction.response.is_done():
                    await interaction.response.defer()  # acknowledged as an update of this hand message
                # drawn through this click under the presenter's lock (never crossing the table's own updates of
                # this hand), and its turns come back to it
                await self.presenter.ephemeral_hand(table.current(), interaction.user.id, interaction, lang)
                await self._add_hand_picture(interaction, table, lang, interaction.edit_original_response)
            elif interaction.response.is_done():
                await interaction.edit_original_response(view=None)
            else:
                await interaction.response.edit_message(view=None)
        except (TableError, discord.HTTPException):
            log.info("table %s: could not refresh the ephemeral hand of %s", table.id, interaction.user.id)
            if source is None:  # this click's token came too late (a loaded bot): the token that drew the hand can
                with contextlib.suppress(TableError, discord.HTTPException):
                    await self.presenter.redraw_ephemeral_hand(table.current(), interaction.user.id, lang)


async def stored_then_acked(work: Awaitable[object], pending: Callable[[], Awaitable[object]]) -> bool:
    """Do `work` (apply and store a move) before acknowledging, so an acknowledged move is a stored one.
    If it is slow, `pending` shows the player that it is (Discord's "thinking…"), and the caller then says
    it was recorded (returns True), or the error handler says why not (raises what `work` raises).

    The work runs in the caller's task, with a timer for the pending note: the acknowledgement follows the
    store without waiting for more turns of the event loop (under load each turn waits behind every other
    table's presenting)."""
    loop = asyncio.get_running_loop()
    shown: list[asyncio.Future[object]] = []
    timer = loop.call_later(ACK_BUDGET, lambda: shown.append(asyncio.ensure_future(pending())))
    try:
        await work
    except BaseException:
        timer.cancel()
        if shown:  # the player saw "thinking…": the error handler answers after it
            await asyncio.gather(*shown, return_exceptions=True)
        raise
    timer.cancel()
    if shown:
        await shown[0]
        return True
    return False


def since_created(interaction: discord.Interaction) -> float:
    """Milliseconds since Discord created the interaction (its id's clock, to the millisecond)."""
    return (time.time() - interaction.created_at.timestamp()) * 1000


async def pending_note(interaction: discord.Interaction) -> None:
    """A visible "thinking…" only the player sees: the move is being stored, not yet accepted."""
    await interaction.response.defer(ephemeral=True, thinking=True)


class AskFirst(Exception):
    """A concession that would cost the player's side schneider or schwarz (`what`, with the card points the side
    keeps): nothing is stored, the player is asked again first."""

    def __init__(self, what: str, points: int) -> None:
        super().__init__(what, points)
        self.what, self.points = what, points


def conceding(*, confirmed: bool) -> Meant:
    """A concession (/skat concede, the Concede button), read by the table from the player's own view, under its
    lock, with the seat it looks up there (once): one that would cost schneider or schwarz raises `AskFirst`
    unless `confirmed`; one the deal does not allow is the engine's to refuse."""
    def meant(view: SeatView) -> Action:
        cost = None if confirmed else concession_cost(view)
        if cost is not None and Concede() in view.side_actions:
            raise AskFirst(*cost)
        return Concede()
    return meant


def ai_level(text: str) -> Level:
    """The AI level a command or button names (in any language the bot speaks); a name that is no level is
    refused as the table refuses a level it does not seat."""
    try:
        return level_from_text(text)
    except MalformedText:
        raise NotAllowed("ai_level", level=text) from None
