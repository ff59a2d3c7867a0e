"""The Discord presenter: turns a table's events into channel messages and private hand messages.

Public messages carry only public facts (auction, game, tricks, open hands, results). Each human's
cards go to their DM, one hand message per deal kept up to date, re-sent when it is their turn so
Discord notifies them. When a DM is refused (error 50007) the player gets a "Show my hand" button
in the channel and the same controls as ephemeral messages.

What it shows is remembered in storage (`PresenterMemory`): which messages are the lobby, the board and
each hand, and how far what the table's log owes its channel (result cards, the final ranking or closing
notice, the table's end) is shown: a position in the log, each item at the entry that made it. After a restart it edits what exists; what the table's log says happened but was not shown yet is
shown by `catch_up`, in order, also whenever the channel takes messages again after a refusal. One failed
step is logged and retried later; it never drops the rest of the batch.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager, nullcontext
from dataclasses import dataclass, field
from typing import cast

import discord
from discord.utils import MISSING

from skatbot.engine.views import public_view, seat_view
from skatbot.models import (
    Deck,
    OutboxItem,
    PresenterMemory,
    ShownMessage,
    ShownUpTo,
    StoreBusy,
    TableState,
    seen_number,
)
from skatbot.tables import events as ev
from skatbot.tables.errors import TableError
from skatbot.tables.game import FinishedDeal
from skatbot.tables.ports import StoredTable
from skatbot.tables.replay import OwedEvent, Position, ReplayError, end_of, owed_after, owed_by_view
from skatbot.tables.view import Step, TableView

from .analysis_text import analyse_view
from .cards import FRENCH
from .controls import lobby_view, show_hand_view
from .drafts import HandControls, HandDraft, board_draft, hand_drafts, private_draft
from .fit import Limit, fit
from .i18n import N_, t, tn
from .languages import SOURCE, Lang
from .pacing import EditPacer
from .pictures import HandPictures, could_show_hand, hand_shown, result_files
from .render import board_text, hand_text, lobby_text, player_name, ranking_text, result_text

log = logging.getLogger(__name__)

DM_CLOSED = 50007
RETRY_EVERY = 5.0
"""Seconds between attempts to show what a table still owes after Discord refused a post."""
DM_CHANNELS_KEPT = 10_000
"""Players whose DM channel is kept (see `DiscordPresenter._dm`)."""
CHANNELS_KEPT = 10_000
"""Fetched table channels kept (see `DiscordPresenter._channel`)."""


def nonce_of(table_id: int, *what: object) -> str:
    """The nonce of one message the bot owes (Discord's `enforce_nonce`: a post repeated within a few minutes
    returns the message made the first time). The same message is asked for with the same nonce after a
    restart, so a crash between posting and remembering its id leaves no copy. 24 characters (at most 25)."""
    key = ":".join(str(part) for part in (table_id, *what))
    return hashlib.blake2b(key.encode(), digest_size=12, person=b"skatbot-nonce").hexdigest()


class _Forgetful:
    """No memory (tests of the presenter alone): everything is shown as if for the first time."""

    async def remember(self, **_: object) -> None:
        return None

    async def forget(self, **_: object) -> None:
        return None

    async def recall(self, **_: object) -> list[ShownMessage]:
        return []

    async def shown_up_to(self, **_: object) -> ShownUpTo:
        return ShownUpTo()

    async def owe(self, **_: object) -> None:
        return None

    async def mark_shown(self, **_: object) -> None:
        return None

    async def legacy_outbox(self, **_: object) -> dict[str, OutboxItem]:
        return {}

    async def drop_legacy_outbox(self, **_: object) -> None:
        return None

    def presenting(self, **_: object) -> AbstractAsyncContextManager[None]:
        return nullcontext()

Job = Callable[[], Awaitable[None]]
"""One channel message (or edit) waiting its turn on a table's channel queue."""

TableChannel = discord.TextChannel | discord.Thread
"""Where a table plays: a text channel, or a thread of one."""

CLOSED_REASONS = {"stopped": N_("closed.stopped"), "nobody left": N_("closed.nobody_left")}
"""Why the tables layer closed a table (its log's words) -> the catalog key that says it."""


@dataclass
class _HandMessage:
    channel_id: int
    message_id: int
    content: str
    my_turn: bool
    controls: HandControls | None = None  # what the buttons were drawn from (they change without the text)


@dataclass
class _TableMessages:
    lobby: tuple[int, int] | None = None  # (channel id, message id)
    boards: dict[int, tuple[int, str]] = field(default_factory=dict)  # deal -> (message id, content)
    hands: dict[tuple[int, int], _HandMessage] = field(default_factory=dict)  # (deal, user) -> message
    turn_pings: dict[int, int] = field(default_factory=dict)  # user -> public ping message id
    position: Position = (0, 0)  # what the table's log owes is shown up to here (see `tables.replay.Position`)
    draft: str | None = None  # the text of the item at `position`, written down but not known to be shown
    loaded: bool = False
    restored: set[tuple[int, int]] = field(default_factory=set)  # (deal, user): a picture may be in the DM already
    seen: int | None = None  # the table's sequence number this process last showed it at


@dataclass
class _Live:
    """The newest interaction that came from a player's hand (a click on their DM hand, or their ephemeral
    hand): its token edits that message for 15 minutes, outside the DM channel's rate-limit bucket."""

    interaction: discord.Interaction
    message_id: int | None  # the DM hand message it came from; None: an ephemeral hand
    at: float
    content: str = ""  # what an ephemeral hand shows now (DM hands keep theirs in _HandMessage)
    controls: HandControls | None = None  # and its buttons (they carry the table's moment, not in the text)
    answered: asyncio.Event = field(default_factory=asyncio.Event)  # its click was acknowledged (`answered`)


LIVE_EDIT_SECONDS = 14 * 60.0
"""An interaction's token edits its message for 15 minutes; a minute is kept in hand."""
ANSWER_WAIT = 0.5
"""Seconds a hand update waits for the click it goes through to be acknowledged (right after its move is stored)."""
ACTIVE_SECONDS = 120.0
"""A player who clicked this recently is looking: their turn is shown by editing in place, not re-sent."""
HAND_RESPONSES = {
    None: (discord.InteractionResponseType.channel_message, discord.InteractionResponseType.message_update,
           discord.InteractionResponseType.deferred_message_update),
    "dm": (discord.InteractionResponseType.message_update, discord.InteractionResponseType.deferred_message_update),
}
"""How an interaction must have been answered for its original response to be the hand: an ephemeral hand
sent or updated by it; a DM hand's click acknowledged as an update of that message (not a "thinking…")."""


@dataclass(frozen=True, slots=True)
class Style:
    lang: Lang = SOURCE
    deck: Deck = FRENCH
    pictures: bool = True  # the hand, the tricks and charts as images (/skat settings pictures:)


class DiscordPresenter:
    """Implements the tables' `Presenter` port on discord.py."""

    def __init__(self, client: discord.Client, style_for: Callable[[int], Style] = lambda guild_id: Style(),
                 user_lang: Callable[[int, Lang], Lang] = lambda user_id, fallback: fallback,
                 edit_interval: float = 1.0, memory: PresenterMemory | None = None,
                 retry_every: float = RETRY_EVERY, shared: bool = False,
                 log_of: Callable[[int], Awaitable[StoredTable | None]] | None = None) -> None:
        """`shared`: other processes serve the same tables (one PostgreSQL database), so what they showed is
        read back before each batch (see `_sync`). `log_of`: a table's stored log, which `catch_up` replays from
        "shown up to seq N" (None: what is owed is read from the view's finished deals)."""
        self.client = client
        self.log_of = log_of
        self.shared = shared
        self.memory: PresenterMemory = memory or _Forgetful()
        self.retry_every = retry_every
        self._owing: dict[int, TableView] = {}  # tables with something not shown after a refusal
        self._latest: dict[int, TableView] = {}  # each table's newest view given to the presenter
        self._retrying: asyncio.Task[None] | None = None
        self._creator_told: set[int] = set()
        self._locks: dict[int, asyncio.Lock] = {}
        self.pacer = EditPacer(edit_interval)  # boards, lobbies and hands: coalesced edits (rate limits)
        self.style_for = style_for
        self.user_lang = user_lang
        self.messages: dict[int, _TableMessages] = {}
        self.dm_closed: set[int] = set()
        self._dm_notice_sent: set[tuple[int, int]] = set()
        self.hand_pictures = HandPictures()
        self._public: dict[int, asyncio.Queue[Job]] = {}  # table -> its channel messages, in order
        self._workers: dict[int, asyncio.Task[None]] = {}
        self.live: dict[int, _Live] = {}  # user -> the newest interaction from their hand
        self._dms: dict[int, discord.DMChannel] = {}  # user -> their DM channel
        self._channels: dict[int, TableChannel] = {}  # table channels fetched (not in the client's cache)

    def remember(self, user_id: int, interaction: discord.Interaction, message_id: int | None, content: str = "",
                 controls: HandControls | None = None) -> None:
        """A player used their hand (`message_id` in their DM, None for an ephemeral hand showing `content` and
        `controls`): later updates of that hand go through this interaction while its token lasts."""
        self.live[user_id] = _Live(interaction, message_id, asyncio.get_running_loop().time(), content, controls)

    def answered(self, interaction: discord.Interaction) -> None:
        """A click this presenter was told of (`remember`) is acknowledged: its token may edit the hand now."""
        live = self.live.get(interaction.user.id)
        if live is not None and live.interaction is interaction:
            live.answered.set()

    def _live(self, user_id: int, message_id: int | None, within: float = LIVE_EDIT_SECONDS) -> _Live | None:
        live = self.live.get(user_id)
        if live is None or live.message_id != message_id or asyncio.get_running_loop().time() - live.at > within:
            return None
        return live

    async def _edit_live(self, user_id: int, live: _Live, draft: HandDraft) -> bool:
        """Edit the hand through the interaction once it is acknowledged; False when that cannot be done (the
        token expired, the message is gone, or the interaction was answered with something else)."""
        interaction = live.interaction
        if not interaction.response.is_done():  # a click is acknowledged right after its move is stored
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(live.answered.wait(), ANSWER_WAIT)
        if interaction.response.type not in HAND_RESPONSES[None if live.message_id is None else "dm"]:
            self._drop_live(user_id, live)
            return False
        try:
            await interaction.edit_original_response(content=fit(draft.text, Limit.CONTENT), view=draft.controls.draw())
        except (discord.HTTPException, discord.InteractionResponded, ValueError) as error:
            log.info("could not edit the hand of %s through its interaction: %s", user_id, error)
            self._drop_live(user_id, live)
            return False
        live.content, live.controls = draft.text, draft.controls
        return True

    async def ephemeral_hand(self, table: TableView, user_id: int, interaction: discord.Interaction, lang: Lang,
                             shown: bool = False) -> None:
        """The ephemeral hand answered through `interaction` (its original response; answered or acknowledged
        already) is the player's hand from now on: later updates go through it. `shown`: it shows the hand
        `private_hand` drew from `table` already; else, or when the hand moved on meanwhile, it is drawn now.
        Under the table's presenter lock, so that it never crosses an update the table's moves make (the later
        of the two shows the later hand)."""
        async with self._locks.setdefault(table.id, asyncio.Lock()):
            deck = self.style_for(table.guild_id).deck
            now = private_draft(self._newest(table), user_id, lang, deck)
            if not shown or private_draft(table, user_id, lang, deck) != now:
                await interaction.edit_original_response(content=fit(now.text, Limit.CONTENT),
                                                         view=now.controls.draw())
            self.remember(user_id, interaction, None, now.text, now.controls)

    async def redraw_ephemeral_hand(self, table: TableView, user_id: int, lang: Lang) -> None:
        """After a move whose click was answered with another message (the pending note), the player's ephemeral
        hand is redrawn as it is now (its controls' moment has passed; without controls once the table stopped
        playing) through the interaction that made it: Discord lets only that token edit an ephemeral message.
        Nothing when that token is gone, or the table's own update drew it so already."""
        async with self._locks.setdefault(table.id, asyncio.Lock()):
            table = self._newest(table)
            live = self._live(user_id, None)
            if live is None:
                return
            if table.state is not TableState.PLAYING:
                with contextlib.suppress(discord.HTTPException):
                    await live.interaction.edit_original_response(view=None)
                self._drop_live(user_id, live)
                return
            draft = private_draft(table, user_id, lang, self.style_for(table.guild_id).deck)
            if (live.content, live.controls) != (draft.text, draft.controls) and \
                    await self._edit_live(user_id, live, draft) and self.style_for(table.guild_id).pictures:
                await self._live_picture(table, user_id, live, lang)

    async def _live_picture(self, table: TableView, user_id: int, live: _Live, lang: Lang) -> None:
        """The hand's picture into an ephemeral hand just edited through its interaction; a failure costs the
        picture only."""
        try:
            file = await self.private_hand_picture(table, user_id, lang)
            if file is not None:
                await live.interaction.edit_original_response(attachments=[file])
        except (TableError, discord.HTTPException, ValueError) as error:
            log.info("table %s: could not show the hand picture of %s: %s", table.id, user_id, error)

    def _drop_live(self, user_id: int, live: _Live) -> None:
        if self.live.get(user_id) is live:
            del self.live[user_id]

    def _state(self, table: TableView) -> _TableMessages:
        return self.messages.setdefault(table.id, _TableMessages())

    async def _channel(self, channel_id: int) -> TableChannel:
        """The channel a table plays in: a text channel, or a thread of one (as /skat new opens it). From the
        client's cache; a channel not there (with several processes: another shard's server, whose table this
        process shows because the players' DM clicks come here) is fetched once and kept while its table plays,
        not fetched again for every step."""
        channel = self.client.get_channel(channel_id) or self._channels.get(channel_id)
        if channel is None:
            channel = await self.client.fetch_channel(channel_id)
            if len(self._channels) >= CHANNELS_KEPT:  # the longest known goes (insertion order)
                del self._channels[next(iter(self._channels))]
            self._channels[channel_id] = cast(TableChannel, channel)
        return cast(TableChannel, channel)

    async def load(self, table: TableView) -> None:
        """Read back what was shown for this table (after a restart); hands of past deals lose their buttons."""
        state = self._state(table)
        if state.loaded:
            return
        state.loaded = True
        await self._read_position(table, state)
        recalled = await self.memory.recall(table_id=table.id)
        for known in recalled:
            if known.role == "lobby":
                state.lobby = (known.channel_id, known.message_id)
            elif known.role == "board" and known.deal == table.deal_number:
                state.boards[known.deal] = (known.message_id, "")
            elif known.role == "hand":
                if known.deal == table.deal_number and table.state is TableState.PLAYING:
                    # my_turn: the message stands as it is (edited, not sent again), so its buttons keep working
                    state.hands[(known.deal, known.user_id)] = _HandMessage(known.channel_id, known.message_id, "",
                                                                            True)
                else:
                    await self._close_hand(table, known.user_id, known.channel_id, known.message_id)
            elif known.role == "dm_notice":
                self._dm_notice_sent.add((table.id, known.user_id))
            elif known.role == "creator_told":
                self._creator_told.add(table.id)
        if recalled and table.state is TableState.PLAYING:  # shown before: by a process that may have died
            for occupant in table.places:
                if occupant.user_id is not None and not occupant.is_ai:
                    await self._sweep_hands(table, occupant.user_id, state)
                    # and the deal's hand picture, if one was sent: found in the DM and edited, not sent again
                    state.restored.add((table.deal_number, occupant.user_id))

    async def _read_position(self, table: TableView, state: _TableMessages) -> None:
        """Read back how far what the table's log owes is shown. A table a version before migration 0019 showed
        has its outbox marks by name: its position is found from them once (the first item not marked), stored,
        and the marks dropped."""
        stored = await self.memory.shown_up_to(table_id=table.id)
        state.position, state.draft = stored.position, stored.draft
        legacy = await self.memory.legacy_outbox(table_id=table.id)
        if not legacy:
            return
        position, name = _position_from_marks(table, {item for item, owed in legacy.items() if owed.shown})
        if position > state.position:
            kept = legacy.get(name) if name is not None else None
            draft = kept.content if kept is not None and not kept.shown and kept.content else None
            if draft is not None:
                await self.memory.owe(table_id=table.id, at=position, content=draft)
            else:
                await self.memory.mark_shown(table_id=table.id, up_to=position)
            state.position, state.draft = position, draft
        await self.memory.drop_legacy_outbox(table_id=table.id)
        log.info("table %s: its outbox marks by name became the position %s", table.id, state.position)

    async def _sweep_hands(self, table: TableView, user_id: int, state: _TableMessages) -> None:
        """After a restart: a hand message posted just before the crash, whose id was not remembered (it is
        newer than the remembered one and still has this table's controls), becomes the player's hand, and
        the older ones go, so the player keeps one live hand: the newest, the one Discord notified them of."""
        number = table.deal_number
        known = state.hands.get((number, user_id))
        me = self.client.user
        try:
            dm = await self._dm(user_id)
            after = discord.Object(known.message_id) if known is not None else None
            found = [message async for message in dm.history(limit=10, after=after)
                     if me is not None and message.author.id == me.id and _has_controls_of(message, table.id)
                     and (known is None or message.id != known.message_id)]
            if not found:
                return
            newest = max(found, key=lambda message: message.id)
            log.info("table %s: hand message %s of %s was posted before the restart but not remembered; it is "
                     "the hand now", table.id, newest.id, user_id)
            state.hands[(number, user_id)] = _HandMessage(dm.id, newest.id, "", True)
            await self.memory.remember(table_id=table.id, role="hand", user_id=user_id, deal=number,
                                       channel_id=dm.id, message_id=newest.id)
            for message in found:
                if message.id != newest.id:
                    await _delete_quietly(message)
            if known is not None:
                await _delete_quietly(dm.get_partial_message(known.message_id))
        except discord.HTTPException as error:
            log.info("table %s: could not look for unremembered hand messages of %s: %s", table.id, user_id, error)

    async def show(self, step: Step) -> None:
        """Show one step: its events, and the table as it stands after it (its view). Each part stands alone: a
        failed one is logged, the table is marked as owing (what it owes is shown again later, in order), and
        the rest of the step is still shown."""
        table = self._newest(step.view)
        async with self._locks.setdefault(table.id, asyncio.Lock()), self._presenting(table, step.since):
            await self._show(table, step.events)
            self._state(table).seen = table.seq

    def _newest(self, table: TableView) -> TableView:
        """The newest view of this table the presenter was given (a command's view may be older than a step's,
        or newer): what is drawn never goes back to an earlier moment."""
        known = self._latest.get(table.id)
        if known is not None and known.seq > table.seq:
            return known
        self._latest[table.id] = table
        return table

    @asynccontextmanager
    async def _presenting(self, table: TableView, since: int | None = None) -> AsyncIterator[None]:
        """When other processes serve the table too: one of them shows it at a time, each from the table as
        stored and the messages as the others left them. `since`: where the step's entries begin."""
        if not self.shared:
            yield
            return
        async with self.memory.presenting(table_id=table.id):
            await self._sync(table, since)
            yield

    async def _sync(self, table: TableView, since: int | None) -> None:
        """Another process may have moved the table on and shown it since this one last did (the step's entries
        begin after the moment this process last showed): read back which messages are its lobby, board and
        hands now and how far what the log owes was shown. Texts stay cached for the messages this process knows, so
        nothing unchanged is edited again; a message another process sent is edited rather than sent again."""
        state = self._state(table)
        if not state.loaded:
            await self.load(table)
        stored = await self.memory.shown_up_to(table_id=table.id)
        if stored.position >= state.position:
            state.position, state.draft = stored.position, stored.draft
        if since is not None and state.seen is not None and since != state.seen:  # moved on and shown elsewhere
            log.info("table %s: moved on by another process (its step begins at %d, this one showed %d); the texts "
                     "it cached are read as unknown", table.id, since, state.seen)
            state.boards = {deal: (message_id, "") for deal, (message_id, _) in state.boards.items()}
            # my_turn: whether the message shows the player's turn is not known either; it is edited in place
            # rather than sent again (a new one would pull a message away under the player's click)
            state.hands = {key: _HandMessage(hand.channel_id, hand.message_id, "", True)
                           for key, hand in state.hands.items()}
        hands: dict[tuple[int, int], _HandMessage] = {}
        for known in await self.memory.recall(table_id=table.id):
            if known.role == "lobby":
                state.lobby = (known.channel_id, known.message_id)
            elif known.role == "board":
                board = state.boards.get(known.deal)
                if board is None or board[0] != known.message_id:
                    state.boards[known.deal] = (known.message_id, "")
            elif known.role == "hand":  # a past deal's too: whoever shows its end closes it
                mine = state.hands.get((known.deal, known.user_id))
                hands[(known.deal, known.user_id)] = mine if mine is not None and \
                    mine.message_id == known.message_id else _HandMessage(known.channel_id, known.message_id, "", True)
        state.hands = hands

    async def _show(self, table: TableView, events: Sequence[ev.Event]) -> None:
        """The players' DMs first, at once; the channel's messages follow on the table's channel queue, in
        order. A fast table uses up the channel's rate limit with its board edits, and a player's next turn
        must not wait behind those (a DM is a rate-limit bucket of its own)."""
        await self.load(table)
        style = self.style_for(table.guild_id)
        lang, deck = style.lang, style.deck
        state = self._state(table)
        game = table
        try:
            channel = await self._channel(table.channel_id)
        except discord.HTTPException as error:
            await self._refused(table, error)
            channel = None
        ending = any(isinstance(event, (ev.SeriesFinished, ev.TableClosed)) for event in events)
        public: list[Job] = []  # the channel's part, in order
        if channel is not None:
            public.extend(self._event_job(table, channel, state, event, lang, deck) for event in events)
            if any(isinstance(e, (ev.LobbyChanged, ev.GameStarted, ev.SeriesFinished, ev.TableClosed)) for e in events):
                public.append(lambda: self._show_lobby(table, channel, state, lang))
        for event in events:
            if isinstance(event, ev.DealFinished):  # the hands show the result, with its value explained
                await self._step(table, self._finish_hands(table, event.row.number, lang, deck, event.row))
        if game.playing and game.board is not None:
            number = game.deal_number
            if channel is not None:  # the board, or (when posting failed before) a board at last
                content = board_draft(game, lang, deck) or ""
                public.append(lambda: self._edit_or_send_board(table, channel, state, number, content))
            await self._step(table, self._refresh_hands(table, channel, state, lang, deck, style.pictures, public))
        if ending:
            # The table's last events: its hands close, and once all it owes is shown, its messages are forgotten.
            # (The live game may be ahead of the events being shown, so its state is not the signal.)
            await self._step(table, self._close_all_hands(
                table, lang, deck, closed=any(isinstance(e, ev.TableClosed) for e in events)))
            if channel is not None:
                series_over = any(isinstance(e, ev.SeriesFinished) for e in events)
                public.append(lambda: self._end_unless_owing(table, channel, lang, series_over))
        for job in public:
            if self.shared:  # one process shows the table at a time: its channel messages go within that turn
                await self._step(table, job())
            else:
                self._queue(table, job)

    # --- the channel queue: one per table, its messages in order, behind the players' DMs ---------------

    def _queue(self, table: TableView, job: Job) -> None:
        queue = self._public.setdefault(table.id, asyncio.Queue())
        queue.put_nowait(job)
        worker = self._workers.get(table.id)
        if worker is None or worker.done():
            self._workers[table.id] = asyncio.create_task(self._work(table, queue))

    async def _work(self, table: TableView, queue: asyncio.Queue[Job]) -> None:
        while not queue.empty():
            job = queue.get_nowait()
            try:
                await self._step(table, job())  # a failed message is owed and shown later; the rest goes on
            finally:
                queue.task_done()
        if table.id not in self.messages and self._public.get(table.id) is queue:  # the table ended: forget it
            del self._public[table.id]
            self._workers.pop(table.id, None)

    async def idle(self, table_id: int) -> None:
        """Until the table's channel messages queued so far are shown (tests, shutdown)."""
        queue = self._public.get(table_id)
        if queue is not None:
            await queue.join()

    def _event_job(self, table: TableView, channel: TableChannel, state: _TableMessages, event: ev.Event, lang: Lang,
                   deck: Deck) -> Job:
        """One event's channel message. A new board is drawn now (the game moves on while the job waits)."""
        game = table
        board: tuple[int, str] | None = None
        if isinstance(event, (ev.DealStarted, ev.TableResumed)) and game.playing and game.board is not None:
            board = (game.deal_number, board_text(game, game.board, game.deal_number, lang, deck))
        return lambda: self._show_event(table, channel, state, event, lang, deck, board)

    async def _edit_or_send_board(self, table: TableView, channel: TableChannel, state: _TableMessages, number: int,
                                  content: str) -> None:
        if number in state.boards:
            await self._edit_board(channel, state, number, content)
        elif number == table.deal_number and table.board is not None and not table.board.is_over:
            await self._send_board(table, channel, state, number, content)

    async def _end_unless_owing(self, table: TableView, channel: TableChannel, lang: Lang, series_over: bool) -> None:
        """The table's end, once everything its log owes before it is shown (else it is owed: `catch_up`)."""
        end = end_of(table)
        if table.id in self._owing or end is None:
            return
        if self._state(table).position < end:
            self._owe(table)
            return
        await self._end(table, channel, lang, series_over)

    async def _show_event(self, table: TableView, channel: TableChannel, state: _TableMessages, event: ev.Event, lang: Lang,
                          deck: Deck, board: tuple[int, str] | None = None) -> None:
        """One event in the channel; `board`: the current deal's board as it was when the event was shown."""
        game = table
        if isinstance(event, ev.GameStarted):
            await channel.send(t(lang, "notice.started"))
        elif isinstance(event, ev.DealStarted):
            if board is not None and board[0] == event.number:
                if event.number in state.boards:  # another process showed this deal before (its AI moved first)
                    await self._edit_board(channel, state, event.number, board[1], now=True)
                else:
                    await self._send_board(table, channel, state, event.number, board[1])
        elif isinstance(event, ev.DealFinished):
            row = event.row
            if row.number in state.boards:  # a past deal's board (shown before a restart) is left as it is
                await self._edit_board(channel, state, row.number,
                                       board_text(game, public_view(row.deal), row.number, lang, deck), now=True)
            finished_board = state.boards.pop(row.number, None)  # a finished deal's board is not edited again
            if finished_board is not None:
                await self.pacer.drop(finished_board[0])
            result = row.result
            analysable = not result.passed and result.declarer is not None
            sheet = (await result_files(game, row, lang, deck)).get("file") \
                if self.style_for(table.guild_id).pictures else None
            await self._post_owed(table, channel, (row.seq, 0), result_text(game, row, lang, deck),
                                  view=analyse_view(table.id, seen_number(row.number), lang, analysable), file=sheet)
            await self.hand_pictures.forget(self.pacer, table.id, row.number)
        elif isinstance(event, ev.SeriesFinished):
            await self._post_owed(table, channel, (event.seq, 1), ranking_text(game, lang))
        elif isinstance(event, ev.TurnWarning):
            occupant = game.places[event.place]
            if occupant.user_id is not None:
                await channel.send(tn(lang, "notice.warning", int(event.seconds_left),
                                      mention=f"<@{occupant.user_id}>"))
        elif isinstance(event, ev.StandInStarted):
            name = game.places[event.place].name
            key = {"timeout": "notice.stand_in_timeout", "left": "notice.left"}.get(event.reason,
                                                                                  "notice.stand_in_absent")
            await channel.send(t(lang, key, name=name), allowed_mentions=discord.AllowedMentions.none())
        elif isinstance(event, ev.ConcessionDeclined):
            await channel.send(t(lang, "notice.concession_declined", name=player_name(game, event.place, lang).removeprefix("🤖 ")))
        elif isinstance(event, ev.TableResumed):
            await channel.send(t(lang, "notice.resumed", id=table.id))
            if board is not None:  # the board as it was on resuming; hands follow
                number, content = board
                if number in state.boards:
                    await self._edit_board(channel, state, number, content, now=True)
                else:
                    await self._send_board(table, channel, state, number, content)
        elif isinstance(event, ev.TableClosed):
            reason = CLOSED_REASONS.get(event.reason)  # the tables layer's word, in the server's language
            await self._post_owed(table, channel, (event.seq, 1),
                                  t(lang, "notice.closed", reason=t(lang, reason) if reason else event.reason))

    async def _step(self, table: TableView, step: Awaitable[None]) -> None:
        try:
            await step
        except discord.HTTPException as error:
            await self._refused(table, error)
        except StoreBusy:  # its memory could not be written now (another writer held the database)
            log.warning("table %s: the database was busy during a presentation step; it is done again later",
                        table.id)
            self._owe(table)
        except Exception:
            log.exception("table %s: a presentation step failed; the rest goes on", table.id)
            self._owe(table)

    async def _refused(self, table: TableView, error: discord.HTTPException) -> None:
        """Discord refused a post: show it later. If the bot may not write in the channel, the creator
        hears it once by DM (the players go on in their DMs)."""
        log.warning("table %s: Discord refused a post (%s %s); it is shown again later", table.id, error.status,
                    error.text)
        self._owe(table)
        if isinstance(error, discord.Forbidden) and error.code != DM_CLOSED and table.id not in self._creator_told:
            self._creator_told.add(table.id)
            try:
                lang = self.user_lang(table.creator_id, self.style_for(table.guild_id).lang)
                dm = await self._dm(table.creator_id)
                await dm.send(t(lang, "notice.channel_refused", channel=f"<#{table.channel_id}>", id=table.id))
                await self.memory.remember(table_id=table.id, role="creator_told", channel_id=dm.id, message_id=0)
            except discord.HTTPException as failed:
                log.info("table %s: could not tell the creator by DM: %s", table.id, failed)

    def _owe(self, table: TableView) -> None:
        self._owing[table.id] = table
        if self._retrying is None or self._retrying.done():
            self._retrying = asyncio.create_task(self._retry_loop())

    async def _retry_loop(self) -> None:
        while self._owing:
            await asyncio.sleep(self.retry_every)
            for table_id, table in list(self._owing.items()):
                del self._owing[table_id]
                await self.catch_up(self._newest(table))

    async def _post_owed(self, table: TableView, channel: TableChannel, at: Position, content: str, *,
                         view: discord.ui.View | None = None, file: discord.File | None = None) -> None:
        """Post the item the table's log owes at position `at` once: shown when "shown up to" is past it. Its text
        is written down with the position first, and the position moves past it when Discord took it; a draft
        left by a crash is looked for in the channel before posting again."""
        state = self._state(table)
        if at < state.position:
            return
        if _owed_before(table, at, state.position):  # owed items go out in the order of the log: this one waits
            self._owe(table)                         # for the earlier one (`catch_up` shows them in order)
            return
        content = fit(content, Limit.CONTENT)
        draft = state.draft if state.position == at else None
        if draft is not None and await self._already_posted(channel, draft):
            log.info("table %s: the item at %s was posted before the restart; not again", table.id, at)
        else:
            if draft is None:
                await self.memory.owe(table_id=table.id, at=at, content=content)
                state.position, state.draft = at, content
            await channel.send(content, nonce=nonce_of(table.id, "owed", *at),
                               view=view if view is not None else MISSING, file=file if file is not None else MISSING)
        after = (at[0], at[1] + 1)
        await self.memory.mark_shown(table_id=table.id, up_to=after)
        state.position, state.draft = max(state.position, after), None

    async def _already_posted(self, channel: TableChannel, content: str) -> bool:
        me = self.client.user
        async for message in channel.history(limit=50):
            if me is not None and message.author.id == me.id and message.content == content:
                return True
        return False

    async def catch_up(self, table: TableView) -> None:
        """Show, in order, what the table's log says happened but was not shown (after a restart, or after
        Discord refused): result cards, then the final ranking or the closing notice."""
        async with self._locks.setdefault(table.id, asyncio.Lock()), self._presenting(table):
            await self._catch_up(self._newest(table))

    async def _catch_up(self, table: TableView) -> None:
        await self.load(table)
        state = self._state(table)
        end = end_of(table)
        if end is not None and state.position > end:
            return
        events = await self._owed(table, state)
        if events:
            self._owing.pop(table.id, None)
            await self._show(table, events)

    async def _owed(self, table: TableView, state: _TableMessages) -> list[ev.Event]:
        """What the table owes its channel, in the order of the log: the stored log replayed, the deals its
        entries from "shown up to" on (up to the view's moment) finished, then, once the table ended and until its
        end is shown, its end (the ranking or closing notice, unless shown, then its messages closed). When no
        result card of the view is owed, none of the entries after the position is either, and the log is not
        read (a refused channel is tried every few seconds)."""
        by_view = owed_by_view(table)
        results = [item for item in by_view if isinstance(item.event, ev.DealFinished) and item.at >= state.position]
        end = end_of(table)
        ending = [item.event for item in by_view if not isinstance(item.event, ev.DealFinished)] \
            if end is not None and state.position <= end else []
        if not results or self.log_of is None:
            return [*(item.event for item in results), *ending]
        try:
            stored = await self.log_of(table.id)
        except Exception:  # busy, or the connection dropped: the view says what it owes, at the same positions
            log.warning("table %s: its log could not be read to catch up; what it owes is read from its view",
                        table.id, exc_info=True)
            return [*(item.event for item in results), *ending]
        if stored is None:
            return [*(item.event for item in results), *ending]
        try:
            owed = owed_after(size=stored.size, deals=stored.deals, rules=stored.rules, creator_id=stored.creator_id,
                              entries=stored.entries, shown_up_to=state.position[0], until=table.seq)
        except ReplayError as error:
            log.error("table %s: its log does not replay (%s); what it owes is read from its view", table.id, error)
            return [*(item.event for item in results), *ending]
        return [*(item.event for item in owed if isinstance(item.event, ev.DealFinished) and item.at >= state.position),
                *ending]

    async def _end(self, table: TableView, channel: TableChannel, lang: Lang, ended: bool) -> None:
        state = self._state(table)
        for message_id in [*(board for board, _ in state.boards.values()),
                           *(hand.message_id for hand in state.hands.values()),
                           *([state.lobby[1]] if state.lobby else [])]:
            await self.pacer.drop(message_id)
        await self.memory.mark_shown(table_id=table.id, up_to=(table.seq, 0))  # past its log: nothing more owed
        self.messages.pop(table.id, None)
        self._channels.pop(table.channel_id, None)
        await self.hand_pictures.forget(self.pacer, table.id)
        await self._archive_own_thread(table, channel, lang, ended)

    async def _archive_own_thread(self, table: TableView, channel: TableChannel, lang: Lang, ended: bool) -> None:
        """A table's own thread (one the bot opened) is archived when its series ends or it closes: it
        stays readable, and leaves the channel's list of active threads. Threads of others are left alone."""
        me = self.client.user
        if not isinstance(channel, discord.Thread) or me is None or channel.owner_id != me.id:
            return
        await self._notice_over(table, channel, lang, ended)
        try:
            await channel.edit(archived=True)
        except discord.HTTPException as error:
            log.info("table %s: could not archive its thread %s: %s", table.id, channel.id, error)

    async def _notice_over(self, table: TableView, thread: discord.Thread, lang: Lang, ended: bool) -> None:
        """The notice in the channel that invited players to the thread now says the table is over. The bot
        opens its threads from that notice, and a thread opened from a message has the message's id."""
        game = table
        creator = next((o.name for o in game.places if o.user_id == game.creator_id and not o.is_ai), None)
        key = "notice.thread_ended" if ended else "notice.thread_closed"
        if creator is None:  # the creator left the lobby before the start
            text = t(lang, f"{key}.nameless")
        else:
            text = t(lang, key, name=discord.utils.escape_mentions(discord.utils.escape_markdown(creator)))
        parent = self.client.get_partial_messageable(thread.parent_id, guild_id=table.guild_id)
        try:
            await parent.get_partial_message(thread.id).edit(content=text)
        except discord.HTTPException as error:  # deleted, or no longer allowed: the notice stays as it was
            log.info("table %s: could not mark the notice %s in channel %s as over: %s", table.id, thread.id,
                     thread.parent_id, error)

    async def _show_lobby(self, table: TableView, channel: TableChannel, state: _TableMessages, lang: Lang) -> None:
        content = lobby_text(table, lang, table.id)
        view = lobby_view(table.id, lang, table.state is TableState.OPEN)
        if state.lobby is None:
            message = await channel.send(content, view=view, nonce=nonce_of(table.id, "lobby"))
            state.lobby = (channel.id, message.id)
            await self.memory.remember(table_id=table.id, role="lobby", channel_id=channel.id, message_id=message.id)
            if message.content != content:  # the lobby posted before a crash, its id not stored: Discord gave it
                await message.edit(content=content, view=view)  # back for the nonce, as it was then
        else:
            lobby = channel.get_partial_message(state.lobby[1])
            await self.pacer.edit(lobby.id, _edit_of(lobby, content, view), now=table.state is not TableState.OPEN)

    async def _send_board(self, table: TableView, channel: TableChannel, state: _TableMessages, number: int, content: str) -> None:
        shown = fit(content, Limit.CONTENT)
        message = await channel.send(shown, nonce=nonce_of(table.id, "board", number))
        state.boards[number] = (message.id, content)
        await self.memory.remember(table_id=table.id, role="board", deal=number, channel_id=channel.id,
                                   message_id=message.id)
        if message.content != shown:  # posted before a crash, its id not stored: given back as it was then
            await message.edit(content=shown)

    async def _edit_board(self, channel: TableChannel, state: _TableMessages, number: int, content: str, *,
                          now: bool = False) -> None:
        """Send the deal's board, or edit it: at once with `now`, else coalesced with other quick changes."""
        known = state.boards.get(number)
        if known is None:
            message = await channel.send(fit(content, Limit.CONTENT))
            state.boards[number] = (message.id, content)
        elif known[1] != content or (now and self.pacer.pending(known[0])):
            board = channel.get_partial_message(known[0])
            state.boards[number] = (known[0], content)
            await self.pacer.edit(board.id, _edit_of(board, fit(content, Limit.CONTENT)), now=now)

    async def _refresh_hands(self, table: TableView, channel: TableChannel | None, state: _TableMessages, lang_public: Lang,
                             deck: Deck, pictures: bool = False, public: list[Job] | None = None) -> None:
        """Each human's hand message as it is now. What a closed DM needs in the channel (the notice, a ping)
        goes to `public`, the channel's queue, so no DM waits for it."""
        public = [] if public is None else public
        for draft in hand_drafts(table, lambda user_id: self.user_lang(user_id, lang_public), deck):
            number, user_id, my_turn = draft.number, draft.user_id, draft.my_turn
            lang = draft.lang
            phase = t(lang_public, f"phase.{draft.view.phase.value}")
            content, controls = draft.text, draft.controls
            if user_id in self.dm_closed:
                # Their ephemeral hand is refreshed through their last interaction while its token lasts:
                # one click per move. Only without one does the channel ping them.
                live = self._live(user_id, None)
                if live is not None and live.content == content and live.controls == controls:
                    continue
                if live is not None and await self._edit_live(user_id, live, draft):
                    if pictures:  # its picture follows, as the DM's would
                        await self._live_picture(table, user_id, live, lang)
                    continue
                if my_turn and channel is not None:
                    public.append(self._ping_job(table, channel, state, user_id, lang_public, phase))
                continue
            known = state.hands.get((number, user_id))
            try:
                if known is None:  # a past deal's hand still open (its end was shown by another process later)
                    await self._close_past_hands(table, user_id, number)
                live = self._live(user_id, known.message_id) if known is not None else None
                changed = known is not None and (known.content != content or known.my_turn != my_turn
                                                 or known.controls != controls)
                resend = known is None or (my_turn and not known.my_turn)  # a new message notifies the player
                if known is not None and live is not None and changed and \
                        (not my_turn or known.my_turn or self._live(user_id, known.message_id, ACTIVE_SECONDS)):
                    # A player who is clicking sees their hand change in place, through their interaction
                    # (outside the DM channel's rate limit); one who is not is notified by a message re-sent.
                    await self.pacer.drop(known.message_id)  # no older coalesced edit may land after this one
                    if await self._edit_live(user_id, live, draft):
                        state.hands[(number, user_id)] = _HandMessage(known.channel_id, known.message_id, content,
                                                                      my_turn, controls)
                        changed = resend = False
                    # else the token cannot edit it (the click was answered otherwise: its move shown pending;
                    # or the token expired): the hand is edited in the DM below, or, when it became their
                    # turn, sent again to notify them, as for a player who is not clicking
                if resend:
                    dm = await self._dm(user_id)
                    message = await dm.send(content, view=controls.draw(),
                                            nonce=nonce_of(table.id, "hand", number, user_id, draft.seq))
                    state.hands[(number, user_id)] = _HandMessage(dm.id, message.id, content, my_turn, controls)
                    await self.memory.remember(table_id=table.id, role="hand", user_id=user_id, deal=number,
                                               channel_id=dm.id, message_id=message.id)
                    if known is not None and known.message_id != message.id:  # the new one is remembered
                        # first: a crash never leaves a dangling id (the same id: a repeated nonce, nothing new)
                        await self.pacer.drop(known.message_id)
                        await _delete_quietly(dm.get_partial_message(known.message_id))
                elif changed and known is not None:
                    dm = await self._dm(user_id)
                    hand = dm.get_partial_message(known.message_id)
                    state.hands[(number, user_id)] = _HandMessage(known.channel_id, known.message_id, content, my_turn,
                                                                  controls)
                    # The player to act sees changes at once; the others' messages are coalesced.
                    await self.pacer.edit(hand.id, _edit_of(hand, content, controls.draw()),
                                          now=my_turn or known.my_turn)
                if pictures:  # the hand as a picture, a new image only for a new hand (after the hand message
                    # is settled: drawing waits for a worker, and the message logic must not wait in between)
                    if self.shared or (number, user_id) in state.restored:
                        state.restored.discard((number, user_id))
                        await self._find_picture(table, number, user_id)
                    await self.hand_pictures.refresh(await self._dm(user_id), self.pacer, table.id, number, user_id,
                                                     draft.view, deck, lang)
            except discord.Forbidden as error:
                if error.code != DM_CLOSED:
                    raise
                self.dm_closed.add(user_id)
                if channel is None:
                    continue
                public.append(self._notice_job(table, channel, user_id, lang_public))
                if my_turn:
                    public.append(self._ping_job(table, channel, state, user_id, lang_public, phase))

    def _ping_job(self, table: TableView, channel: TableChannel, state: _TableMessages, user_id: int, lang: Lang,
                  phase: str) -> Job:
        return lambda: self._ping_public(table, channel, state, user_id, lang, phase)

    def _notice_job(self, table: TableView, channel: TableChannel, user_id: int, lang: Lang) -> Job:
        return lambda: self._notice_dm_closed(table, channel, user_id, lang)

    async def _find_picture(self, table: TableView, number: int, user_id: int) -> None:
        """Another process, or this one before a restart, may have sent this deal's hand picture: the bot's newest
        picture of the deal's hand in the DM (looked for once per deal and player, among the last few messages),
        which is then edited rather than sent again."""
        where = (table.id, number, user_id)
        me = self.client.user
        if me is None or self.hand_pictures.knows(where):
            return
        view = table.seat_view(user_id)
        dm = await self._dm(user_id)
        async for message in dm.history(limit=20):  # (the player may sit at another table too: its cards differ)
            if message.author.id == me.id and any(
                    a.filename == f"hand-{seen_number(number)}.png" and could_show_hand(a.description, view)
                    for a in message.attachments):
                self.hand_pictures.adopt(where, message.id)
                return

    async def _dm(self, user_id: int) -> discord.DMChannel:
        """The player's DM channel, looked up once: without the members intent the user is not cached, and
        every hand update would otherwise cost a REST call to fetch them (a DM channel's id never changes)."""
        known = self._dms.get(user_id)
        if known is not None:
            return known
        user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
        channel = user.dm_channel or await user.create_dm()
        if len(self._dms) >= DM_CHANNELS_KEPT:  # the longest known goes (insertion order)
            del self._dms[next(iter(self._dms))]
        self._dms[user_id] = channel
        return channel

    async def _notice_dm_closed(self, table: TableView, channel: TableChannel, user_id: int, lang: Lang) -> None:
        if (table.id, user_id) in self._dm_notice_sent:
            return
        message = await channel.send(t(lang, "notice.dm_closed", mention=f"<@{user_id}>"),
                                     view=show_hand_view(table.id, table.seq, lang),
                                     nonce=nonce_of(table.id, "dm_notice", user_id),
                                     allowed_mentions=discord.AllowedMentions(users=True))
        self._dm_notice_sent.add((table.id, user_id))
        await self.memory.remember(table_id=table.id, role="dm_notice", user_id=user_id, channel_id=channel.id,
                                   message_id=message.id)

    async def _ping_public(self, table: TableView, channel: TableChannel, state: _TableMessages, user_id: int, lang: Lang,
                           phase: str) -> None:
        previous = state.turn_pings.pop(user_id, None)
        if previous is not None:
            await _delete_quietly(channel.get_partial_message(previous))
        message = await channel.send(t(lang, "notice.turn_public", mention=f"<@{user_id}>", phase=phase),
                                     view=show_hand_view(table.id, table.seq, lang),
                                     allowed_mentions=discord.AllowedMentions(users=True))
        state.turn_pings[user_id] = message.id

    async def _finish_hands(self, table: TableView, number: int, lang_public: Lang, deck: Deck,
                            row: FinishedDeal | None = None, *, closed: bool = False) -> None:
        """At the end of deal `number` (its `row`), or when the table was `closed`, the hand messages lose
        their buttons and say how it ended: the result with its value explained, or that the table closed."""
        state = self._state(table)
        for (deal_number, user_id), known in list(state.hands.items()):
            if deal_number != number:
                continue
            await self.pacer.drop(known.message_id)
            del state.hands[(deal_number, user_id)]
            content = self._ended_hand(table, user_id, number, self.user_lang(user_id, lang_public), deck, row, closed)
            await self._close_hand(table, user_id, known.channel_id, known.message_id, content)

    async def _close_past_hands(self, table: TableView, user_id: int, number: int) -> None:
        """Before a player's hand of deal `number` is sent: their hand messages of other deals lose their
        buttons (the memory keeps one hand per player, so the old one must go first)."""
        state = self._state(table)
        for (deal_number, holder), known in list(state.hands.items()):
            if holder == user_id and deal_number != number:
                await self.pacer.drop(known.message_id)
                del state.hands[(deal_number, holder)]
                await self._close_hand(table, holder, known.channel_id, known.message_id)

    def _ended_hand(self, table: TableView, user_id: int, number: int, lang: Lang, deck: Deck,
                    row: FinishedDeal | None, closed: bool) -> str | None:
        """The last text of a hand message of deal `number` (None: keep its text, only drop the buttons)."""
        game = table
        place = game.place_of(user_id)
        if row is not None:
            if place is None or place not in row.places:
                return None
            view = seat_view(row.deal, row.places.index(place))  # a finished deal's cards are all open
        elif closed and number == game.deal_number and game.seats:
            places = game.places_of(number)
            if place is None or place not in places:
                return None
            view = game.seats[places.index(place)]
        else:
            return None
        return fit(hand_text(game, view, lang, deck, finished=row, closed=row is None), Limit.CONTENT)

    async def _close_all_hands(self, table: TableView, lang_public: Lang, deck: Deck, *, closed: bool) -> None:
        """The table ended or was closed: every hand message it still has loses its buttons (and, when it
        was closed, says so)."""
        for deal_number, _ in list(self._state(table).hands):
            await self._finish_hands(table, deal_number, lang_public, deck, closed=closed)

    async def _close_hand(self, table: TableView, user_id: int, channel_id: int, message_id: int,
                          content: str | None = None) -> None:
        """Strip a hand message's buttons (and give it its last `content`), then forget it (a deleted one is
        simply forgotten)."""
        try:
            dm = await self._dm(user_id)
            message = dm.get_partial_message(message_id)
            await (message.edit(view=None) if content is None else message.edit(content=content, view=None))
        except discord.NotFound:
            pass
        except discord.HTTPException:
            log.info("table %s: could not close the hand message of %s", table.id, user_id)
        await self.memory.forget(table_id=table.id, role="hand", user_id=user_id)

    def private_hand(self, table: TableView, user_id: int, lang: Lang) -> tuple[str, discord.ui.View]:
        """The hand message and controls for one player, for ephemeral replies and /skat hand."""
        draft = private_draft(table, user_id, lang, self.style_for(table.guild_id).deck)
        return draft.text, draft.controls.draw()

    async def private_hand_picture(self, table: TableView, user_id: int, lang: Lang) -> discord.File | None:
        """The hand as a picture for an ephemeral hand message (closed DMs, /skat hand), as the DM has it: only
        where the server shows pictures, and only while the player holds cards (None otherwise). Given the view
        `private_hand` was given, picture and text show the same hand."""
        style = self.style_for(table.guild_id)
        if not style.pictures or not table.seats:
            return None
        view = table.seat_view(user_id)
        if not view.hand:
            return None
        return (await hand_shown(view, style.deck, lang, table.deal_number)).file()


def _owed_before(table: TableView, at: Position, position: Position) -> bool:
    """Whether an item the table's log owes before position `at` is not shown yet (at or after `position`): a
    result comes after the results of earlier deals, the final ranking and the closing notice after every
    result."""
    return any(position <= item.at < at for item in owed_by_view(table))


def _legacy_name(event: OwedEvent) -> str:
    """The name a version before migration 0019 marked an owed item shown by."""
    if isinstance(event, ev.DealFinished):
        return f"result:{event.row.number}"
    return "ranking" if isinstance(event, ev.SeriesFinished) else "closed"


def _position_from_marks(table: TableView, marks: set[str]) -> tuple[Position, str | None]:
    """The position a table's outbox marks by name stand for (versions before migration 0019 showed its items in
    the order of the log): the first item not marked, and its name; past them all when every one is."""
    for item in owed_by_view(table):
        if _legacy_name(item.event) not in marks:
            return item.at, _legacy_name(item.event)
    end = end_of(table)
    if end is not None:
        return ((table.seq, 0), None) if "end" in marks else (end, "end")
    last = max((item.at for item in owed_by_view(table)), default=None)
    return ((last[0], last[1] + 1), None) if last is not None else ((0, 0), None)


def _edit_of(message: discord.PartialMessage, content: str,
             view: discord.ui.View | None = None) -> Callable[[], Awaitable[None]]:
    """A message's edit to `content` (and `view`, if given), to be made when the pacer lets it."""
    async def edit() -> None:
        await message.edit(content=content, view=view if view is not None else MISSING)
    return edit


def _has_controls_of(message: discord.Message, table_id: int) -> bool:
    """Whether a message carries buttons or menus of this table (a hand message that is still live)."""
    prefix = f"sk:{table_id}:"
    return any(str(getattr(item, "custom_id", "")).startswith(prefix)
               for row in message.components for item in getattr(row, "children", ()))


async def _delete_quietly(message: discord.PartialMessage | discord.Message) -> None:
    with contextlib.suppress(discord.HTTPException):
        await message.delete()
