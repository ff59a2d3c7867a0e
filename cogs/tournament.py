"""/tournament: club evenings run by the bot. Thin: parse, check who may, call the organiser, reply.

The organiser (`skatbot.organiser`) stores every step in the tournament's log and opens ordinary tables; this
cog gives it the Discord side (`TournamentPort`): a thread per table, the sign-up message with its Join and
Leave buttons, the draw, a live standings message (edits coalesced: at most one per `EDIT_SECONDS` per
tournament, within Discord's rate limits), the end of a series and the final list. A start time creates a
Discord Scheduled Event (where the bot may) and the tournament starts itself then.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import re
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from skatbot.app import skat_bot
from skatbot.engine.rules import PRESETS
from skatbot.interactions.looks import looks_of
from skatbot.interactions.replies import guarded, say
from skatbot.organiser import Organiser, Running
from skatbot.tournaments import Drawn, Shown, TableDraw, TournamentError, TournamentSettings
from skatbot.tournaments.log import MOST_SERIES, RULES_DEALS, Stage
from skatbot.ui.fit import Limit, fit
from skatbot.ui.i18n import language_of, t
from skatbot.ui.languages import Lang
from skatbot.ui.pictures import standings_shown
from skatbot.ui.presenter import nonce_of
from skatbot.ui.refusals import ServerError, refusal_reply
from skatbot.ui.tournament_text import (
    draw_texts,
    export_csv,
    export_json,
    final_texts,
    series_done_text,
    shown,
    signup_text,
    standings_text,
)

from ._common import choice, describe, en

if TYPE_CHECKING:
    from skatbot.app import SkatBot

log = logging.getLogger(__name__)

EDIT_SECONDS = 2.0
"""The live messages of a tournament are edited at most this often (deals finishing at many tables at once
become one edit)."""
# The clock (SKATBOT_TOURNAMENT_CLOCK, 15 s): how often start times are looked at, and running tournaments
# caught up with the stored deals (a hook missed, a thread Discord refused asked for again). A start time known
# here also wakes the clock at that moment (`_alarm`), so a tournament starts on time, not up to this much later.
LOOK_SECONDS = 1.0
"""How often the deals stored at the tables of the tournaments this process shows are counted (one query): a
deal another process stored (with several shard processes, the one a DM click arrives at) moves the tournament
on within about this long, not at the next clock tick."""
EVENT_HOURS = 4
THREAD_PERMISSIONS = ("create_public_threads", "send_messages_in_threads")
NO_THREADS_IN = (discord.Thread, discord.VoiceChannel, discord.StageChannel, discord.ForumChannel)
"""Channels a tournament is not set up in: Discord opens no thread from a message there (a table's thread is
opened from its notice), so its tables could never open while its players stayed bound to them."""
THREAD_EXISTS = 160004
"""Discord's error code for a second thread asked for from one message."""


def missing_thread_permissions(permissions: discord.Permissions, lang: Lang) -> str:
    """The permissions a tournament's threads need that the bot lacks here, named in `lang` ("" when none)."""
    return ", ".join(t(lang, f"perm.{name}") for name in THREAD_PERMISSIONS if not getattr(permissions, name))


def nonce(run: Running, *what: object) -> str:
    """The nonce of a message the tournament owes, as a table's (`nonce_of`; table id 0 is no table's): posted
    again after a kill before its id was stored, Discord gives back the message made the first time."""
    return nonce_of(0, "tournament", run.tournament_id, *what)


class TournamentButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                       template=r"tournament:(?P<kind>join|leave):(?P<id>[0-9]+)"):
    """Join / Leave on the sign-up message; works after a restart (the custom id names the tournament)."""

    def __init__(self, kind: str, tournament_id: int, label: str = "?", disabled: bool = False) -> None:
        style = discord.ButtonStyle.success if kind == "join" else discord.ButtonStyle.secondary
        super().__init__(discord.ui.Button(label=fit(label, Limit.BUTTON_LABEL), style=style, disabled=disabled,
                                           custom_id=f"tournament:{kind}:{tournament_id}"))
        self.kind = kind
        self.tournament_id = tournament_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> TournamentButton:
        return cls(match["kind"], int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = skat_bot(interaction).get_cog("TournamentCog")
        if isinstance(cog, TournamentCog):
            await guarded(interaction, lambda: cog.pressed(interaction, self.kind, self.tournament_id))


def signup_view(tournament_id: int, lang: Lang, open_: bool) -> discord.ui.View | None:
    if not open_:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(TournamentButton("join", tournament_id, t(lang, "tournament.button.join")))
    view.add_item(TournamentButton("leave", tournament_id, t(lang, "tournament.button.leave")))
    return view


def parse_start(text: str, now: datetime) -> tuple[datetime, bool]:
    """`19:30` (today, or tomorrow once past), `2026-12-24 19:30` or an ISO time with its offset; and whether it
    was read as UTC (no offset given: the reply says so, and shows the time in each reader's own zone)."""
    text = text.strip()
    try:
        if re.fullmatch(r"\d{1,2}:\d{2}", text):
            hour, minute = (int(x) for x in text.split(":"))
            at = now.astimezone(UTC).replace(hour=hour, minute=minute, second=0, microsecond=0)
            return (at if at > now else at + timedelta(days=1)), True
        at = datetime.fromisoformat(text)
    except ValueError:
        raise TournamentError("bad_time", text=fit(text, Limit.ECHO)) from None
    as_utc = at.tzinfo is None
    at = at.replace(tzinfo=UTC) if as_utc else at
    if at <= now:
        raise TournamentError("past_time", text=fit(text, Limit.ECHO))
    return at, as_utc


class TournamentCog(commands.GroupCog, group_name="tournament", group_description=en("cmd.tournament")):
    """Club evenings: sign-up, the draw, every table at once in its own thread, standings, the final list."""

    def __init__(self, bot: SkatBot) -> None:
        self.bot = bot
        self.services = bot.services
        self.organiser = Organiser(bot.storage, bot.services.tables)
        self.organiser.port = self
        self.organiser.serves = bot.settings.serves_server
        self._painting: dict[int, asyncio.Task[None]] = {}
        self._dirty: set[int] = set()
        self._painted: dict[tuple[int, str], str] = {}  # what each live message shows: unchanged, not edited
        self._clock: asyncio.Task[None] | None = None
        self._looking: asyncio.Task[None] | None = None
        self.clock_seconds = bot.settings.tournament_clock_seconds
        self._wake = asyncio.Event()  # a start time has come: look now, not at the next tick
        self._alarms: dict[int, asyncio.TimerHandle] = {}
        self._warned: dict[int, str] = {}  # a table's notice -> the text saying its thread was refused
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(TournamentButton)
        self.services.store.deal_listeners.append(self.organiser.deal_stored)
        self.services.tables.seat_guards.append(self.organiser.may_sit)  # at a tournament table: at no other
        self._clock = asyncio.create_task(self._keep_time(), name="tournament-clock")
        self._looking = asyncio.create_task(self._look_for_deals(), name="tournament-deals")

    async def cog_unload(self) -> None:
        for task in (self._clock, self._looking):
            if task is not None:
                task.cancel()
        for alarm in self._alarms.values():
            alarm.cancel()
        with contextlib.suppress(ValueError):
            self.services.store.deal_listeners.remove(self.organiser.deal_stored)
        with contextlib.suppress(ValueError):
            self.services.tables.seat_guards.remove(self.organiser.may_sit)
        await self.organiser.close()
        for task in self._painting.values():
            task.cancel()

    async def _keep_time(self) -> None:
        """Resume what was running, then start tournaments whose time has come and look at the others."""
        await self.bot.wait_until_ready()
        try:
            for run in await self.organiser.resume():
                log.info("resumed tournament %s (series %s)", run.tournament_id, run.state.series)
        except Exception:
            log.exception("resuming the tournaments failed")
        while True:  # the first tick at once: a start time that passed while the bot was down starts now
            try:
                await self._tick()
            except Exception:
                log.exception("the tournaments' clock failed")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.clock_seconds)
            self._wake.clear()

    async def _look_for_deals(self) -> None:
        await self.bot.wait_until_ready()
        while True:
            await asyncio.sleep(LOOK_SECONDS)
            try:
                await self.organiser.look_for_deals()
            except Exception as error:  # a busy or unreachable database: the next look, or the clock, finds them
                log.warning("looking for the tournaments' stored deals failed: %r", error)

    async def _tick(self) -> None:
        now = datetime.now(UTC).timestamp()
        for tid in await self.bot.storage.tournaments.running():
            run = await self.organiser.get(tid)
            if not self.bot.settings.serves_server(run.server_id):
                continue  # another shard process's server: it starts and follows it
            at = run.settings.start_at
            if run.state.phase is Stage.SIGNUP and at is not None and at <= now and "autostart" not in run.state.shown:
                await self._start_by_clock(run)
            elif run.state.phase is Stage.SIGNUP and at is not None:
                self._alarm(tid, at)
            elif run.state.phase is not Stage.SIGNUP:  # playing, or ended with its final list (or what follows it) still owed
                self.organiser.follow(tid)

    def _alarm(self, tournament_id: int, at: float) -> None:
        """Wake the clock when this tournament's start time comes (a tick that finds it early sets it again)."""
        if (old := self._alarms.pop(tournament_id, None)) is not None:
            old.cancel()
        delay = max(0.0, at - datetime.now(UTC).timestamp()) + 0.05
        self._alarms[tournament_id] = asyncio.get_running_loop().call_later(delay, self._wake.set)

    async def _start_by_clock(self, run: Running) -> None:
        lang = await self._lang(run)
        try:
            await self.organiser.start(run)
            return
        except TournamentError as error:
            if run.state.phase is not Stage.SIGNUP:  # drawn, a table's thread refused: its notice says so
                log.info("tournament %s started by its clock; %s", run.tournament_id, error)
                return
            text = t(lang, "tournament.autostart_failed", reason=refusal_reply(error, lang))
        channel = await self._channel(run.channel_id)
        message = await channel.send(fit(text, Limit.CONTENT), nonce=nonce(run, "autostart"))
        await self.organiser.commit(run, lambda _: [Shown("autostart", message.id)])

    # --- helpers -------------------------------------------------------------------------------------------

    async def _lang(self, run: Running) -> Lang:
        return (await self.services.looks.load(run.server_id)).lang

    def reader(self, interaction: discord.Interaction, fallback: str) -> Lang:
        return language_of(str(interaction.locale), fallback)

    async def _channel(self, channel_id: int) -> Any:
        channel = self.bot.get_channel(channel_id)
        return channel if channel is not None else await self.bot.fetch_channel(channel_id)

    async def _here(self, interaction: discord.Interaction) -> Running:
        """The tournament of this channel (or of the channel a table's thread belongs to)."""
        if interaction.guild_id is None:
            raise ServerError("server.error.guild_only")
        channel = interaction.channel
        ids = [interaction.channel_id or 0]
        if isinstance(channel, discord.Thread) and channel.parent_id is not None:
            ids.append(channel.parent_id)
        for channel_id in ids:
            run = await self.organiser.in_channel(channel_id)
            if run is not None:
                return run
        raise TournamentError("no_tournament")

    async def _require_organiser(self, interaction: discord.Interaction, run: Running | None = None) -> None:
        """Organisers: Manage Server, the server's organiser role (/skat settings organisers), or the member who
        set this tournament up."""
        if interaction.permissions.manage_guild or (run is not None and interaction.user.id == run.organiser_id):
            return
        if interaction.guild_id is not None and isinstance(interaction.user, discord.Member):
            role = (await looks_of(interaction).settings(interaction.guild_id)).organiser_role
            if role is not None and any(r.id == role for r in interaction.user.roles):
                return
        raise TournamentError("organisers_only")

    # --- commands ------------------------------------------------------------------------------------------

    @app_commands.command(name="new", description=en("cmd.tournament.new"))
    @app_commands.describe(name=describe("cmd.tournament.new.name"), series=describe("cmd.tournament.new.series"),
                           deals=describe("cmd.tournament.new.deals"), tables=describe("cmd.tournament.new.tables"),
                           rules=describe("cmd.tournament.new.rules"), ai_fill=describe("cmd.tournament.new.ai_fill"),
                           entry_fee=describe("cmd.tournament.new.entry_fee"),
                           lost_fee=describe("cmd.tournament.new.lost_fee"), start=describe("cmd.tournament.new.start"),
                           auto_next=describe("cmd.tournament.new.auto_next"))
    @app_commands.choices(tables=[choice("tournament.tables.auto", "auto"), choice("tournament.tables.three", "three")],
                          rules=[choice(f"preset.{name}", name) for name in PRESETS])
    async def new(self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 60],
                  series: app_commands.Range[int, 1, MOST_SERIES] = 1,
                  deals: app_commands.Range[int, 3, RULES_DEALS] = RULES_DEALS,
                  tables: Literal["auto", "three"] = "auto", rules: str = "tournament", ai_fill: bool = False,
                  entry_fee: app_commands.Range[float, 0, 10000] = 0.0,
                  lost_fee: app_commands.Range[float, 0, 1000] = 0.0, start: str | None = None,
                  auto_next: bool = False) -> None:
        if interaction.guild_id is None:
            raise ServerError("server.error.guild_only")
        await self._require_organiser(interaction)
        style = await self.services.looks.load(interaction.guild_id)
        lang = self.reader(interaction, style.lang)
        if isinstance(interaction.channel, NO_THREADS_IN):  # its tables' threads could never open: refused now
            raise TournamentError("channel_kind")
        if rules not in PRESETS:
            raise TournamentError("bad_rules", text=fit(rules, Limit.ECHO))
        if missing := missing_thread_permissions(interaction.app_permissions, lang):
            raise TournamentError("no_threads", perms=missing)
        start_at, as_utc = parse_start(start, datetime.now(UTC)) if start else (None, False)
        here = await self.organiser.in_channel(interaction.channel_id or 0)
        if here is not None and here.state.phase is not Stage.ENDED:  # commands here must name one tournament
            raise TournamentError("channel_busy", id=here.tournament_id, name=here.name)
        settings = TournamentSettings(
            " ".join(name.split()) or "?", series=series, deals=deals, three=tables == "three", preset=rules,
            ai_fill=ai_fill, entry_fee=round(entry_fee * 100), lost_fee=round(lost_fee * 100),
            start_at=None if start_at is None else int(start_at.timestamp()), auto_next=auto_next)
        run = await self.organiser.create(server_id=interaction.guild_id, channel_id=interaction.channel_id or 0,
                                          organiser_id=interaction.user.id, settings=settings)
        if settings.start_at is not None:
            self._alarm(run.tournament_id, settings.start_at)
        await self._post_signup(run, style.lang)  # public messages: the server's language
        reply = t(lang, "tournament.created", id=run.tournament_id, name=run.name)
        if start_at is not None and start:
            at = f"<t:{int(start_at.timestamp())}:F>"  # Discord shows it in each reader's own time zone
            reply += "\n" + (t(lang, "tournament.starts_utc", at=at, text=fit(start.strip(), Limit.ECHO)) if as_utc
                             else t(lang, "tournament.starts_at", at=at))
            reply += "\n" + await self._schedule(interaction, run, start_at, lang)
        await say(interaction, reply)

    async def _schedule(self, interaction: discord.Interaction, run: Running, at: datetime, lang: Lang) -> str:
        """A Discord Scheduled Event for the start, where the bot may create one."""
        guild = interaction.guild
        if guild is None or not interaction.app_permissions.manage_events:
            return t(lang, "tournament.event.no_permission")
        try:
            event = await guild.create_scheduled_event(
                name=fit(run.name, 100), start_time=at, end_time=at + timedelta(hours=EVENT_HOURS),
                entity_type=discord.EntityType.external, privacy_level=discord.PrivacyLevel.guild_only,
                location=fit(f"#{getattr(interaction.channel, 'name', 'skat')}", 100),
                description=fit(t(lang, "tournament.event.description", id=run.tournament_id), 1000))
        except discord.HTTPException as error:
            log.warning("tournament %s: no scheduled event: %s %s", run.tournament_id, error.status, error.text)
            return t(lang, "tournament.event.failed")
        await self.organiser.commit(run, lambda state: [] if "event" in state.shown else [Shown("event", event.id)])
        return t(lang, "tournament.event.created", at=f"<t:{int(at.timestamp())}:F>")

    async def _event_status(self, run: Running, status: discord.EventStatus) -> None:
        """The tournament's scheduled event follows it: active at the start, completed at the end, canceled when it
        is stopped before it started (a status Discord does not let it take, e.g. again after a restart: left)."""
        event = run.state.shown.get("event")
        if event is None:
            return
        try:
            await self.bot.http.edit_scheduled_event(run.server_id, event, status=status.value)
        except discord.HTTPException as error:
            log.info("tournament %s: its scheduled event stays as it is: %s %s", run.tournament_id, error.status,
                     error.text)

    @app_commands.command(name="join", description=en("cmd.tournament.join"))
    async def join(self, interaction: discord.Interaction) -> None:
        await self._join(interaction, await self._here(interaction))

    @app_commands.command(name="leave", description=en("cmd.tournament.leave"))
    async def leave(self, interaction: discord.Interaction) -> None:
        await self._leave(interaction, await self._here(interaction))

    async def pressed(self, interaction: discord.Interaction, kind: str, tournament_id: int) -> None:
        run = await self.organiser.get(tournament_id)
        if kind == "join":
            await self._join(interaction, run)
        else:
            await self._leave(interaction, run)

    async def _join(self, interaction: discord.Interaction, run: Running) -> None:
        lang = self.reader(interaction, await self._lang(run))
        await self.organiser.join(run, interaction.user.id, interaction.user.display_name)
        await say(interaction, t(lang, "tournament.joined", name=run.name, count=len(run.state.players)))

    async def _leave(self, interaction: discord.Interaction, run: Running) -> None:
        lang = self.reader(interaction, await self._lang(run))
        await self.organiser.leave(run, interaction.user.id)
        await say(interaction, t(lang, "tournament.left", name=run.name))

    @app_commands.command(name="start", description=en("cmd.tournament.start"))
    async def start(self, interaction: discord.Interaction) -> None:
        run = await self._here(interaction)
        await self._require_organiser(interaction, run)
        lang = self.reader(interaction, await self._lang(run))
        if run.state.phase is not Stage.SIGNUP:
            raise TournamentError("already_started")
        if missing := missing_thread_permissions(interaction.app_permissions, lang):  # nothing drawn
            raise TournamentError("no_threads", perms=missing)
        await interaction.response.defer(ephemeral=True, thinking=True)  # every table is opened first
        drawn = await self.organiser.start(run)
        await say(interaction, t(lang, "tournament.started", tables=len(drawn.tables), seed=drawn.seed))

    @app_commands.command(name="next", description=en("cmd.tournament.next"))
    async def next_(self, interaction: discord.Interaction) -> None:
        run = await self._here(interaction)
        await self._require_organiser(interaction, run)
        lang = self.reader(interaction, await self._lang(run))
        if run.state.phase is Stage.PLAYING and run.state.series >= run.settings.series:
            raise TournamentError("no_more_series")
        if missing := missing_thread_permissions(interaction.app_permissions, lang):
            raise TournamentError("no_threads", perms=missing)
        await interaction.response.defer(ephemeral=True, thinking=True)
        drawn = await self.organiser.next_series(run)
        await say(interaction, t(lang, "tournament.next_started", series=drawn.series, tables=len(drawn.tables)))

    @app_commands.command(name="stop", description=en("cmd.tournament.stop"))
    async def stop(self, interaction: discord.Interaction) -> None:
        run = await self._here(interaction)
        await self._require_organiser(interaction, run)
        lang = self.reader(interaction, await self._lang(run))
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.organiser.stop(run)
        await say(interaction, t(lang, "tournament.stopped_reply", name=run.name))

    @app_commands.command(name="standings", description=en("cmd.tournament.standings"))
    async def standings(self, interaction: discord.Interaction) -> None:
        run = await self._here(interaction)
        lang = self.reader(interaction, await self._lang(run))
        if run.state.phase is Stage.SIGNUP:  # nothing to rank before the draw: who has signed up, as the sign-up says
            text = t(lang, "tournament.error.not_started") + "\n" + signup_text(
                run.tournament_id, run.name, run.state, lang, run.settings.start_at)
            await say(interaction, text, allowed_mentions=discord.AllowedMentions.none())
            return
        await say(interaction, await self._standings_text(run, lang, reader=interaction.user.id))

    @app_commands.command(name="export", description=en("cmd.tournament.export"))
    async def export(self, interaction: discord.Interaction) -> None:
        run = await self._here(interaction)
        lang = self.reader(interaction, await self._lang(run))
        await interaction.response.defer(ephemeral=True, thinking=True)
        rows, document = await self.organiser.export(run)
        files = [discord.File(io.BytesIO(export_csv(rows).encode()), filename=f"tournament-{run.tournament_id}.csv"),
                 discord.File(io.BytesIO(export_json(document).encode()),
                              filename=f"tournament-{run.tournament_id}.json")]
        await interaction.followup.send(t(lang, "tournament.exported", name=run.name, deals=len(document["deals"])),
                                        files=files, ephemeral=True)

    async def _standings_text(self, run: Running, lang: Lang, reader: int | None = None) -> str:
        lines = await self.organiser.lines(run)
        table = await self.organiser.standings(run)
        return standings_text(run.tournament_id, run.name, run.state, table, lang,
                              deals=len({(d.table_id, d.number) for d in lines}),
                              stand_ins=await self.organiser.stand_ins(run), reader=reader)

    # --- the port: what the organiser asks of Discord ------------------------------------------------------

    async def open_thread(self, run: Running, series: int, index: int, draw: TableDraw) -> int:
        """The table's notice in the channel (stored, so a retry uses the same one) and the thread opened from it.
        Discord refusing the thread: the notice says so, and a TournamentError tells whoever asked (the clock
        tries again)."""
        lang = await self._lang(run)
        channel = await self._channel(run.channel_id)
        names = ", ".join(shown(run.state.players.get(p, "?")) for p in draw.players)
        text = fit(t(lang, "tournament.table_notice", name=shown(run.name), series=series, table=index, players=names),
                   Limit.CONTENT)
        kind = f"notice-{series}-{index}"
        stored = run.state.shown.get(kind)
        notice: discord.Message | discord.PartialMessage
        if stored is None:
            notice = await channel.send(text, nonce=nonce(run, "thread", series, index))
            if notice.thread is not None:  # given back for its nonce (killed before the thread's id was stored)
                return int(notice.thread.id)
            posted = notice.id
            await self.organiser.commit(run, lambda state: [] if kind in state.shown else [Shown(kind, posted)])
        else:
            notice = channel.get_partial_message(stored)
        try:
            thread = await notice.create_thread(
                name=fit(t(lang, "tournament.thread", name=run.name, series=series, table=index), Limit.THREAD_NAME),
                auto_archive_duration=10080)
        except discord.HTTPException as error:
            if error.code == THREAD_EXISTS:
                return int(notice.id)  # the thread opened from it before a kill: a message's thread has its id
            await self._thread_refused(run, notice, text, lang, error)
            raise TournamentError("thread_refused", table=index, error=self._refusal_detail(error),
                                  seconds=round(self.clock_seconds)) from None
        if self._warned.pop(notice.id, None) is not None or stored is not None:  # the warning, had it been shown
            with contextlib.suppress(discord.HTTPException):
                await notice.edit(content=text)
        return int(thread.id)

    @staticmethod
    def _refusal_detail(error: discord.HTTPException) -> str:
        return fit(f"{error.status} {error.text}".strip(), Limit.ECHO)

    async def _thread_refused(self, run: Running, notice: discord.Message | discord.PartialMessage, text: str,
                              lang: Lang, error: discord.HTTPException) -> None:
        """Say under the table's notice why its thread is not there yet (once: unchanged, not edited again)."""
        log.warning("tournament %s: Discord refused a table's thread: %s %s (code %s)", run.tournament_id,
                    error.status, error.text, error.code)
        warned = fit(text + "\n" + t(lang, "tournament.thread_refused", error=self._refusal_detail(error),
                                     seconds=round(self.clock_seconds)), Limit.CONTENT)
        if self._warned.get(notice.id) == warned:
            return
        try:
            await notice.edit(content=warned)
        except discord.HTTPException as failed:
            log.info("tournament %s: the notice %s could not say so: %s", run.tournament_id, notice.id, failed)
            return
        self._warned[notice.id] = warned

    async def drawn(self, run: Running, drawn: Drawn) -> int:
        lang = await self._lang(run)
        channel = await self._channel(run.channel_id)
        threads = {index: run.state.shown[f"thread-{drawn.series}-{index}"]
                   for index in range(1, len(drawn.tables) + 1) if f"thread-{drawn.series}-{index}" in run.state.shown}
        parts = draw_texts(drawn, run.state.players, threads, lang)
        message = await channel.send(parts[0], nonce=nonce(run, "draw", drawn.series))
        for at, part in enumerate(parts[1:], 2):  # many tables: the rest of the draw, each part once
            await channel.send(part, nonce=nonce(run, "draw", drawn.series, at))
        if drawn.series == 1:
            await self._event_status(run, discord.EventStatus.active)
        return int(message.id)

    async def series_done(self, run: Running, series: int, waiting: TournamentError | None = None) -> int:
        lang = await self._lang(run)
        channel = await self._channel(run.channel_id)
        message = await channel.send(fit(series_done_text(series, run.name, lang, waiting), Limit.CONTENT),
                                     nonce=nonce(run, "series", series))
        return int(message.id)

    async def ended(self, run: Running) -> int:
        lang = await self._lang(run)
        channel = await self._channel(run.channel_id)
        table = await self.organiser.standings(run)
        extra: dict[str, Any] = {}
        if (await self.services.looks.load(run.server_id)).pictures and table:
            try:
                chart = await standings_shown([run.state.players.get(s.player, "?") for s in table],
                                              [s.points for s in table], run.name, lang)
            except Exception:  # the list goes out as text all the same
                log.exception("tournament %s: the final list's picture could not be drawn", run.tournament_id)
                chart = None
            extra = {"file": chart.file()} if chart is not None else {}
        parts = final_texts(run.tournament_id, run.name, run.state, table, lang, await self.organiser.stand_ins(run))
        message = await channel.send(parts[0], nonce=nonce(run, "final"), **extra)
        for at, part in enumerate(parts[1:], 2):  # a big club evening: the rest of the list, each part once
            await channel.send(part, nonce=nonce(run, "final", at))
        return int(message.id)

    async def closed(self, run: Running) -> None:
        await self._event_status(run, discord.EventStatus.completed if run.state.draws
                                 else discord.EventStatus.canceled)
        await self._paint(run.tournament_id)

    async def changed(self, run: Running) -> None:
        """Repaint the sign-up and standings messages soon: one edit for everything that changed meanwhile."""
        tid = run.tournament_id
        self._dirty.add(tid)
        task = self._painting.get(tid)
        if task is None or task.done():
            self._painting[tid] = asyncio.create_task(self._painter(tid), name=f"tournament-paint-{tid}")

    async def _painter(self, tid: int) -> None:
        while tid in self._dirty:
            await asyncio.sleep(EDIT_SECONDS)
            self._dirty.discard(tid)
            try:
                await self._paint(tid)
            except Exception:
                log.exception("tournament %s: its messages could not be updated", tid)

    async def _post_signup(self, run: Running, lang: Lang) -> None:
        """The sign-up message, owed from the tournament's creation until its id is stored (a kill in between: the
        restart posts it again with its nonce, and Discord gives back the one made the first time)."""
        channel = await self._channel(run.channel_id)
        text = signup_text(run.tournament_id, run.name, run.state, lang, run.settings.start_at)
        message = await channel.send(text, view=signup_view(run.tournament_id, lang, True), nonce=nonce(run, "signup"))
        await self.organiser.commit(run, lambda state: [] if "signup" in state.shown else [Shown("signup", message.id)])
        self._painted[(run.tournament_id, "signup")] = message.content

    async def _paint(self, tid: int) -> None:
        run = await self.organiser.get(tid)
        lang = await self._lang(run)
        channel = await self._channel(run.channel_id)
        signup = run.state.shown.get("signup")
        if signup is None and run.state.phase is Stage.SIGNUP:
            await self._post_signup(run, lang)
            signup = run.state.shown.get("signup")
        text = signup_text(run.tournament_id, run.name, run.state, lang, run.settings.start_at)
        if signup is not None and self._painted.get((tid, "signup")) != text:
            with contextlib.suppress(discord.NotFound):
                await channel.get_partial_message(signup).edit(
                    content=text, view=signup_view(run.tournament_id, lang, run.state.phase is Stage.SIGNUP))
            self._painted[(tid, "signup")] = text
        if run.state.phase is Stage.SIGNUP:
            return
        text = await self._standings_text(run, lang)
        if self._painted.get((tid, "standings")) == text:
            return
        shown = run.state.shown.get("standings")
        self._painted[(tid, "standings")] = text
        if shown is not None:
            with contextlib.suppress(discord.NotFound):
                await channel.get_partial_message(shown).edit(content=text)
                return
        message = await channel.send(text, nonce=nonce(run, "standings"))
        await self.organiser.commit(run, lambda state: [] if "standings" in state.shown
                                    else [Shown("standings", message.id)])
        if message.content != text:  # posted before a kill, its id not stored: given back as it was then
            await message.edit(content=text)


STATS_TOURNAMENTS = 5


async def tournaments_for_stats(bot: SkatBot, server_id: int, player_id: int, lang: Lang) -> str:
    """For /skat scores stats: the player's latest tournaments on this server, each with their place and
    Seeger-Fabian points (recomputed from the stored deals); "" when they played in none."""
    # (by its organiser: the extension loader makes its own copy of this module, so its class is not this one)
    organiser = getattr(bot.get_cog("TournamentCog"), "organiser", None)
    if not isinstance(organiser, Organiser):
        return ""
    lines: list[str] = []
    for stored in await bot.storage.tournaments.in_server(server_id=server_id, limit=50):
        if len(lines) >= STATS_TOURNAMENTS:
            break
        run = await organiser.get(stored.tournament_id)
        if player_id not in run.state.players or run.state.phase is Stage.SIGNUP:
            continue
        table = await organiser.standings(run)
        mine = next(s for s in table if s.player == player_id)
        key = "tournament.stats.line" if run.state.phase is Stage.ENDED else "tournament.stats.running"
        lines.append(t(lang, key, name=run.name, id=run.tournament_id, place=mine.place, players=len(table),
                       points=f"+{mine.points}" if mine.points > 0 else str(mine.points)))
    return "\n" + "\n".join([t(lang, "tournament.stats.title"), *lines]) if lines else ""


async def setup(bot: SkatBot) -> None:
    await bot.add_cog(TournamentCog(bot))
