"""The Discord presenter: turns a table's events into channel messages and private hand messages.

Public messages carry only public facts (auction, game, tricks, open hands, results). Each human's
cards go to their DM, one hand message per deal kept up to date, re-sent when it is their turn so
Discord notifies them. When a DM is refused (error 50007) the player gets a "Show my hand" button
in the channel and the same controls as ephemeral messages.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from skatbot.engine.views import seat_view
from skatbot.tables import events as ev
from skatbot.tables.ports import LiveTable
from skatbot.models import TableState

from .analysis_text import analyse_view
from .cards import FRENCH
from .controls import hand_view, lobby_view, show_hand_view
from .fit import Limit, fit
from .i18n import N_, t, tn
from .pacing import EditPacer
from .pictures import HandPictures, result_files
from .render import board_text, hand_text, lobby_text, ranking_text, result_text

log = logging.getLogger(__name__)

DM_CLOSED = 50007

CLOSED_REASONS = {"stopped": N_("closed.stopped"), "nobody left": N_("closed.nobody_left")}
"""Why the tables layer closed a table (its log's words) -> the catalog key that says it."""


@dataclass
class _HandMessage:
    channel_id: int
    message_id: int
    content: str
    my_turn: bool
    controls: str = ""  # what the buttons were (Kontra/Re/claim appear and go without the text changing)


@dataclass
class _TableMessages:
    lobby: tuple[int, int] | None = None  # (channel id, message id)
    boards: dict[int, tuple[int, str]] = field(default_factory=dict)  # deal -> (message id, content)
    hands: dict[tuple[int, int], _HandMessage] = field(default_factory=dict)  # (deal, user) -> message
    turn_pings: dict[int, int] = field(default_factory=dict)  # user -> public ping message id


@dataclass(frozen=True, slots=True)
class Style:
    lang: str = "en"
    deck: str = FRENCH
    pictures: bool = True  # the hand, the tricks and charts as images (/skat settings pictures:)


class DiscordPresenter:
    """Implements the tables' `Presenter` port on discord.py."""

    def __init__(self, client: discord.Client, style_for: Callable[[int], Style] = lambda guild_id: Style(),
                 user_lang: Callable[[int, str], str] = lambda user_id, fallback: fallback,
                 edit_interval: float = 1.0) -> None:
        self.client = client
        self.pacer = EditPacer(edit_interval)  # boards, lobbies and hands: coalesced edits (rate limits)
        self.style_for = style_for
        self.user_lang = user_lang
        self.messages: dict[int, _TableMessages] = {}
        self.dm_closed: set[int] = set()
        self._dm_notice_sent: set[tuple[int, int]] = set()
        self.hand_pictures = HandPictures()

    def _state(self, table: LiveTable) -> _TableMessages:
        return self.messages.setdefault(table.id, _TableMessages())

    async def _channel(self, channel_id: int) -> Any:
        channel = self.client.get_channel(channel_id)
        if channel is None:
            channel = await self.client.fetch_channel(channel_id)
        return channel

    async def show(self, table: LiveTable, events: Sequence[ev.Event]) -> None:
        style = self.style_for(table.guild_id)
        lang, deck = style.lang, style.deck
        channel = await self._channel(table.channel_id)
        state = self._state(table)
        game = table.game
        lobby_changed = False
        for event in events:
            if isinstance(event, (ev.LobbyChanged, ev.GameStarted)):
                lobby_changed = True
                if isinstance(event, ev.GameStarted):
                    await channel.send(t(lang, "notice.started"))
            elif isinstance(event, ev.DealStarted):
                if game.deal is not None and game.deal_number == event.number:
                    content = board_text(game, game.deal, event.number, lang, deck)
                    message = await channel.send(content)
                    state.boards[event.number] = (message.id, content)
            elif isinstance(event, ev.DealFinished):
                row = event.row
                await self._edit_board(channel, state, row.number, board_text(game, row.deal, row.number, lang, deck),
                                       now=True)
                result = row.result
                analysable = not result.passed and result.declarer is not None
                extra: dict[str, Any] = {"view": analyse_view(table.id, row.number + 1, lang)} if analysable else {}
                if style.pictures:
                    extra.update(await result_files(game, row, lang, deck))
                await channel.send(fit(result_text(game, row, lang, deck), Limit.CONTENT), **extra)
                await self.hand_pictures.forget(self.pacer, table.id, row.number)
                await self._finish_hands(table, row.number, row.deal)
                finished_board = state.boards.pop(row.number, None)  # a finished deal's board is not edited again
                if finished_board is not None:
                    await self.pacer.drop(finished_board[0])
            elif isinstance(event, ev.SeriesFinished):
                await channel.send(ranking_text(game, lang))
                lobby_changed = True
            elif isinstance(event, ev.TurnWarning):
                occupant = game.places[event.place]
                if occupant.user_id is not None:
                    await channel.send(tn(lang, "notice.warning", int(event.seconds_left),
                                          mention=f"<@{occupant.user_id}>"))
            elif isinstance(event, ev.StandInStarted):
                name = game.places[event.place].name
                key = "notice.stand_in_timeout" if event.reason == "timeout" else "notice.stand_in_absent"
                await channel.send(t(lang, key, name=name))
            elif isinstance(event, ev.ConcessionDeclined):
                await channel.send(t(lang, "notice.concession_declined", name=game.places[event.place].name))
            elif isinstance(event, ev.TableResumed):
                await channel.send(t(lang, "notice.resumed", id=table.id))
                if game.deal is not None and not game.deal.is_over:  # a fresh board; hands follow below
                    content = board_text(game, game.deal, game.deal_number, lang, deck)
                    state.boards[game.deal_number] = ((await channel.send(fit(content, Limit.CONTENT))).id, content)
            elif isinstance(event, ev.TableClosed):
                reason = CLOSED_REASONS.get(event.reason)  # the tables layer's word, in the server's language
                await channel.send(t(lang, "notice.closed", reason=t(lang, reason) if reason else event.reason))
                lobby_changed = True
        if lobby_changed:
            await self._show_lobby(table, channel, state, lang)
        if game.state is TableState.PLAYING and game.deal is not None and not game.deal.is_over:
            number = game.deal_number
            if number in state.boards:
                await self._edit_board(channel, state, number, board_text(game, game.deal, number, lang, deck))
            await self._refresh_hands(table, channel, state, lang, deck, style.pictures)
        if any(isinstance(event, (ev.SeriesFinished, ev.TableClosed)) for event in events):
            # The table's last events are shown: forget its messages. (The live game may be ahead of the
            # events being shown, so its state is not the signal.)
            for message_id in [*(board for board, _ in state.boards.values()),
                               *(hand.message_id for hand in state.hands.values()),
                               *([state.lobby[1]] if state.lobby else [])]:
                await self.pacer.drop(message_id)
            self.messages.pop(table.id, None)
            await self.hand_pictures.forget(self.pacer, table.id)
            ended = any(isinstance(event, ev.SeriesFinished) for event in events)
            await self._archive_own_thread(table, channel, lang, ended)

    async def _archive_own_thread(self, table: LiveTable, channel: Any, lang: str, ended: bool) -> None:
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

    async def _notice_over(self, table: LiveTable, thread: discord.Thread, lang: str, ended: bool) -> None:
        """The notice in the channel that invited players to the thread now says the table is over. The bot
        opens its threads from that notice, and a thread opened from a message has the message's id."""
        game = table.game
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

    async def _show_lobby(self, table: LiveTable, channel: Any, state: _TableMessages, lang: str) -> None:
        content = lobby_text(table.game, lang, table.id)
        view = lobby_view(table.id, lang, table.game.state is TableState.OPEN)
        if state.lobby is None:
            message = await channel.send(content, view=view)
            state.lobby = (channel.id, message.id)
        else:
            lobby = channel.get_partial_message(state.lobby[1])
            await self.pacer.edit(lobby.id, lambda: lobby.edit(content=content, view=view),
                                  now=table.game.state is not TableState.OPEN)

    async def _edit_board(self, channel: Any, state: _TableMessages, number: int, content: str, *,
                          now: bool = False) -> None:
        """Send the deal's board, or edit it: at once with `now`, else coalesced with other quick changes."""
        known = state.boards.get(number)
        if known is None:
            message = await channel.send(fit(content, Limit.CONTENT))
            state.boards[number] = (message.id, content)
        elif known[1] != content or (now and self.pacer.pending(known[0])):
            board = channel.get_partial_message(known[0])
            state.boards[number] = (known[0], content)
            await self.pacer.edit(board.id, lambda: board.edit(content=fit(content, Limit.CONTENT)), now=now)

    async def _refresh_hands(self, table: LiveTable, channel: Any, state: _TableMessages, lang_public: str,
                             deck: str, pictures: bool = False) -> None:
        game = table.game
        deal = game.deal
        assert deal is not None
        number = game.deal_number
        for seat in range(3):
            occupant = game.occupant_of_seat(seat)
            user_id = occupant.user_id
            if user_id is None or occupant.is_ai:
                continue
            view = seat_view(deal, seat)
            my_turn = deal.current_seat == seat and occupant.plays_itself
            lang = self.user_lang(user_id, lang_public)
            if user_id in self.dm_closed:
                if my_turn:
                    await self._ping_public(table, channel, state, user_id, lang_public,
                                            t(lang_public, f"phase.{deal.phase.value}"))
                continue
            content = hand_text(game, view, lang, deck)
            known = state.hands.get((number, user_id))
            controls = hand_view(table.id, number, view, lang, deck, hints=game.hints)
            buttons = repr(controls.to_components())
            try:
                if known is None or (my_turn and not known.my_turn):
                    dm = await self._dm(user_id)
                    if known is not None:
                        await self.pacer.drop(known.message_id)
                        await _delete_quietly(dm.get_partial_message(known.message_id))
                    message = await dm.send(content, view=controls)
                    state.hands[(number, user_id)] = _HandMessage(dm.id, message.id, content, my_turn, buttons)
                elif known.content != content or known.my_turn != my_turn or known.controls != buttons:
                    dm = await self._dm(user_id)
                    hand = dm.get_partial_message(known.message_id)
                    state.hands[(number, user_id)] = _HandMessage(known.channel_id, known.message_id, content, my_turn,
                                                                  buttons)
                    # The player to act sees changes at once; the others' messages are coalesced.
                    await self.pacer.edit(hand.id, _edit_of(hand, content, controls), now=my_turn or known.my_turn)
                if pictures:  # the hand as a picture, a new image only for a new hand (after the hand message
                    # is settled: drawing waits for a worker, and the message logic must not wait in between)
                    await self.hand_pictures.refresh(await self._dm(user_id), self.pacer, table.id, number, user_id,
                                                     deal, seat, deck, lang)
            except discord.Forbidden as error:
                if error.code != DM_CLOSED:
                    raise
                self.dm_closed.add(user_id)
                await self._notice_dm_closed(table, channel, user_id, lang_public)
                if my_turn:
                    await self._ping_public(table, channel, state, user_id, lang_public,
                                            t(lang_public, f"phase.{deal.phase.value}"))

    async def _dm(self, user_id: int) -> Any:
        user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
        return user.dm_channel or await user.create_dm()

    async def _notice_dm_closed(self, table: LiveTable, channel: Any, user_id: int, lang: str) -> None:
        if (table.id, user_id) in self._dm_notice_sent:
            return
        self._dm_notice_sent.add((table.id, user_id))
        await channel.send(t(lang, "notice.dm_closed", mention=f"<@{user_id}>"),
                           view=show_hand_view(table.id, table.game.deal_number, lang),
                           allowed_mentions=discord.AllowedMentions(users=True))

    async def _ping_public(self, table: LiveTable, channel: Any, state: _TableMessages, user_id: int, lang: str,
                           phase: str) -> None:
        previous = state.turn_pings.pop(user_id, None)
        if previous is not None:
            await _delete_quietly(channel.get_partial_message(previous))
        message = await channel.send(t(lang, "notice.turn_public", mention=f"<@{user_id}>", phase=phase),
                                     view=show_hand_view(table.id, table.game.deal_number, lang),
                                     allowed_mentions=discord.AllowedMentions(users=True))
        state.turn_pings[user_id] = message.id

    async def _finish_hands(self, table: LiveTable, number: int, deal: Any) -> None:
        """At the end of a deal the hand messages lose their buttons."""
        state = self._state(table)
        for (deal_number, user_id), known in list(state.hands.items()):
            if deal_number != number:
                continue
            try:
                await self.pacer.drop(known.message_id)
                dm = await self._dm(user_id)
                await dm.get_partial_message(known.message_id).edit(view=None)
            except discord.HTTPException:
                log.info("table %s: could not close the hand message of %s", table.id, user_id)
            del state.hands[(deal_number, user_id)]

    def private_hand(self, table: LiveTable, user_id: int, lang: str) -> tuple[str, discord.ui.View]:
        """The hand message and controls for one player, for ephemeral replies and /skat hand."""
        deck = self.style_for(table.guild_id).deck
        game = table.game
        seat = game.seat_of_user(user_id)
        assert game.deal is not None
        view = seat_view(game.deal, seat)
        return hand_text(game, view, lang, deck), hand_view(table.id, game.deal_number, view, lang, deck,
                                                            hints=game.hints)

    def forget_hand(self, table: LiveTable, user_id: int) -> None:
        """Make the next refresh send a fresh hand message (for /skat hand)."""
        state = self._state(table)
        state.hands.pop((table.game.deal_number, user_id), None)


def _edit_of(message: Any, content: str, view: discord.ui.View) -> Callable[[], Any]:
    async def edit() -> None:
        await message.edit(content=content, view=view)
    return edit


async def _delete_quietly(message: Any) -> None:
    try:
        await message.delete()
    except discord.HTTPException:
        pass
