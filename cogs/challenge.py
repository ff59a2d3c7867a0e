"""/challenge: today's deals, the same for everyone the bot serves, played in the player's DMs against two
strong computer opponents and scored against the strong AI's par; `/skat scores challenge`: the boards.

How a challenge deal is played: the player sits the day's seat of each deal (forehand, middlehand, rearhand in
turn) against two strong AIs seeded by the day, the deal, the seat and the step, so that the same play meets
the same answers everywhere. The hand message is the tables' own (text and controls), sent by DM, or shown
only to the player where their DMs are closed; a press edits it. Every accepted move is stored (with the result
of the deal it ends) before it is shown, and nothing lives only in memory: the attempt is replayed from its
stored log at each press, so it pauses and resumes across restarts and in any process. Claims, concessions and
hints are not offered (the par line plays every card too). One attempt per player and day, on any server;
moves are taken only on the attempt's own UTC day. The pars are computed in the AI workers, one deal at a
time, from the moment a day's first attempt starts, and stored once per deal and day.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, date, datetime, timedelta
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from skatbot.app import skat_bot
from skatbot.challenge import (
    CHALLENGE_LEVEL,
    MAX_DEALS,
    MIN_DEALS,
    Attempt,
    AttemptError,
    ChallengeDay,
    ChallengeScore,
    Move,
    ParLine,
    ai_decision,
    board,
    par_line,
    percentile,
    week_board,
)
from skatbot.challenge.results import field_average
from skatbot.engine import Action
from skatbot.engine.views import SeatView
from skatbot.interactions.replies import guarded, reader_style, say
from skatbot.models import Deck
from skatbot.storage import LogConflict
from skatbot.storage.sql.challenge import PAR_LEASE, ParClaim, StoredAttempt
from skatbot.ui.challenge import (
    DYNAMIC_ITEMS,
    AttemptLine,
    ChallengeControl,
    ChallengeRefusal,
    DayStanding,
    attempt_text,
    attempt_view,
    day_board_text,
    declarer_name,
    summary_text,
    summary_view,
)
from skatbot.ui.i18n import t
from skatbot.ui.languages import Lang
from skatbot.ui.refusals import CommandRefusal, refusal_reply

from ._common import AttachingCog, choice, describe, en, guild_id_of, server_language

if TYPE_CHECKING:
    from skatbot.app import SkatBot

log = logging.getLogger(__name__)

DM_CLOSED = 50007
PERIODS = ("day", "week")
PAR_WAIT = 0.5
"""Seconds between looks for a par another process is computing."""
PAR_RENEW = PAR_LEASE / 6
"""Seconds between renewals of a claim on a par being computed (well within its lease, PAR_LEASE)."""


def today() -> date:
    """The challenge's day: the UTC date now (a module function, so tests can move the clock)."""
    return datetime.now(UTC).date()


def _now() -> datetime:
    return datetime.now(UTC)


class ChallengeCog(AttachingCog):
    """The daily challenge: starts and resumes attempts, takes the player's moves, lets the opponents answer,
    keeps the pars, and shows results and boards."""

    def __init__(self, bot: SkatBot) -> None:
        super().__init__(bot, [])
        self._locks: dict[tuple[date, int], asyncio.Lock] = {}
        self._pars: dict[tuple[date, int], asyncio.Task[ParLine]] = {}
        self._par_turn = asyncio.Lock()  # one par at a time: the other AI worker stays free for opponents' moves
        self._warming: set[asyncio.Task[None]] = set()
        self._secret: str | None = None

    async def cog_load(self) -> None:
        await super().cog_load()
        scores = self.bot.tree.get_command("skat")
        group = scores.get_command("scores") if isinstance(scores, app_commands.Group) else None
        if not isinstance(group, app_commands.Group):
            raise RuntimeError("load cogs.scores (the /skat scores group) before cogs.challenge")
        group.add_command(scores_challenge)
        self.bot.tree.add_command(challenge_command)
        self.bot.add_dynamic_items(*DYNAMIC_ITEMS)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*DYNAMIC_ITEMS)
        self.bot.tree.remove_command(challenge_command.name)
        skat = self.bot.tree.get_command("skat")
        group = skat.get_command("scores") if isinstance(skat, app_commands.Group) else None
        if isinstance(group, app_commands.Group):
            group.remove_command(scores_challenge.name)
        for task in [*self._pars.values(), *self._warming]:
            task.cancel()
        await super().cog_unload()

    # --- the day, its pars, the opponents ------------------------------------------------------------

    async def day(self, on: date) -> ChallengeDay:
        if self._secret is None:
            self._secret = await self.bot.storage.challenge.secret(now=_now())
        return ChallengeDay.of(self._secret, on)

    def lock(self, on: date, player_id: int) -> asyncio.Lock:
        key = (on, player_id)
        if key not in self._locks:
            if len(self._locks) > 1000:  # locks of other days and idle players go
                self._locks = {k: v for k, v in self._locks.items() if v.locked()}
            self._locks[key] = asyncio.Lock()
        return self._locks[key]

    async def par(self, day: ChallengeDay, number: int) -> ParLine:
        """The deal's par: stored, or computed now in the AI workers (once per process, and once across the
        processes of one database: the one that claims the deal computes it, the others wait for it) and stored."""
        stored = await self.bot.storage.challenge.par(day=day.day, number=number)
        if stored is not None:
            return stored
        key = (day.day, number)
        task = self._pars.get(key)
        if task is None or (task.done() and (task.cancelled() or task.exception() is not None)):
            task = self._pars[key] = asyncio.create_task(self._compute_par(day, number), name=f"par-{key}")
        return await asyncio.shield(task)

    async def _compute_par(self, day: ChallengeDay, number: int) -> ParLine:
        storage = self.bot.storage.challenge
        while True:
            async with self._par_turn:
                stored = await storage.par(day=day.day, number=number)
                claim = None if stored is not None else await storage.claim_par(day=day.day, number=number,
                                                                                 now=_now(), lease=PAR_LEASE)
                if claim is not None:  # the holder may have stored it (and dropped its claim) just before this claim
                    stored = await storage.par(day=day.day, number=number)
                if claim is not None and stored is None:
                    line = await self._while_held(claim, asyncio.get_running_loop().run_in_executor(
                        self.bot.ai_executor, par_line, day, number))
                    await storage.store_par(day=day.day, line=line, now=_now())
                    stored = await storage.par(day=day.day, number=number)
                    log.info("challenge %s: par of deal %d is %d", day.day, number + 1, line.score)
            if stored is not None:
                break
            await asyncio.sleep(PAR_WAIT)  # another process computes it (or died, and its claim runs out)
        self._pars.pop((day.day, number), None)
        return stored

    async def _while_held(self, claim: ParClaim, work: asyncio.Future[ParLine]) -> ParLine:
        """`work`'s par, the claim renewed every PAR_RENEW seconds until it is done: a computation slower than the
        lease (a loaded machine) keeps its claim, so no other process computes the same par meanwhile."""
        storage = self.bot.storage.challenge
        held: ParClaim | None = claim
        while held is not None:
            done, _ = await asyncio.wait({work}, timeout=PAR_RENEW)
            if done:
                break
            try:
                held = await storage.renew_par(claim=held, now=_now(), lease=PAR_LEASE)
            except Exception:  # a database hiccup: the par goes on, the renewal is tried again in PAR_RENEW s
                log.warning("challenge %s: renewing the claim on the par of deal %d failed", claim.day,
                            claim.number + 1, exc_info=True)
                continue
            if held is None:  # stalled for a whole lease and taken over: both store the same par, the first stands
                log.warning("challenge %s: the claim on the par of deal %d ran out while it was computed",
                            claim.day, claim.number + 1)
        return await work

    def warm_pars(self, day: ChallengeDay, deals: int) -> None:
        """Compute the attempt's pars in the background, first deal first, so results need not wait."""
        async def warm() -> None:
            for number in range(deals):
                try:
                    await self.par(day, number)
                except Exception:
                    log.exception("challenge %s: the par of deal %d failed", day.day, number + 1)
                    return

        task = asyncio.create_task(warm(), name=f"pars-{day.day}")
        self._warming.add(task)
        task.add_done_callback(self._warming.discard)

    async def _decide(self, seed: int, view: SeatView) -> Action:
        return await asyncio.get_running_loop().run_in_executor(self.bot.ai_executor, ai_decision, CHALLENGE_LEVEL,
                                                                seed, view)

    # --- an attempt ----------------------------------------------------------------------------------

    async def load(self, day: ChallengeDay, player_id: int) -> tuple[StoredAttempt, Attempt] | None:
        """The player's attempt at `day` as stored, replayed (None before they started)."""
        stored = await self.bot.storage.challenge.attempt(day=day.day, player_id=player_id)
        if stored is None:
            return None
        return stored, Attempt(day, stored.deals, [Move.parse(text) for text in stored.moves])

    async def _result(self, stored: StoredAttempt, attempt: Attempt, number: int) -> ChallengeScore:
        par = await self.par(attempt.day, number)
        return ChallengeScore(attempt.day.day, stored.player_id, stored.server_id, number, attempt.scores()[number],
                         par.score)

    async def _store(self, stored: StoredAttempt, attempt: Attempt, moves: list[Move]) -> None:
        """Apply `moves` (checked) and store them with the results of the deals they end, in one write."""
        seq = attempt.seq
        results = []
        for move in moves:
            number = attempt.number
            if attempt.apply(move):
                results.append(await self._result(stored, attempt, number))
        try:
            await self.bot.storage.challenge.append(day=attempt.day.day, player_id=stored.player_id, seq=seq,
                                                    entries=[str(move) for move in moves], now=_now(),
                                                    results=results, finished=attempt.is_over)
        except LogConflict:  # another process took a move of this attempt first
            raise ChallengeRefusal("challenge.error.stale") from None

    async def advance(self, stored: StoredAttempt, attempt: Attempt) -> None:
        """The opponents move until it is the player's turn or the attempt is over; stored before shown."""
        moves: list[Move] = []
        probe = Attempt(attempt.day, attempt.deals, attempt.moves)
        while (turn := probe.opponent_to_move()) is not None:
            seat, seed, view = turn
            move = Move(probe.number, seat, await self._decide(seed, view))
            probe.apply(move)
            moves.append(move)
        if moves:
            await self._store(stored, attempt, moves)

    async def challenge_pressed(self, interaction: discord.Interaction, pressed: ChallengeControl) -> None:
        """What the challenge's controls call (skatbot.ui.challenge finds this cog among the bot's)."""
        await guarded(interaction, lambda: self.play(interaction, pressed))

    async def play(self, interaction: discord.Interaction, pressed: ChallengeControl) -> None:
        """A press on the player's hand message: their move, then the opponents', then the message again. A press
        drawn for an earlier moment is refused, and the message redrawn as the attempt stands (after a restart
        the opponents may still owe their answers to a move that was stored; an attempt whose last moves were
        stored before a kill shows its summary)."""
        user_id = interaction.user.id
        if pressed.day != today():
            past = await self.bot.storage.challenge.attempt(day=pressed.day, player_id=user_id)
            if past is not None and not past.finished:
                raise await self.closed(past)
            raise ChallengeRefusal("challenge.error.day_over")
        day = await self.day(pressed.day)
        async with self.lock(pressed.day, user_id):
            loaded = await self.load(day, user_id)
            if loaded is None:
                raise ChallengeRefusal("challenge.error.not_yours")
            stored, attempt = loaded
            # a press on a hand of a finished attempt (killed after its last moves were stored, before the summary
            # was shown): nothing is played, the message shows the summary, and the player is told
            over = attempt.is_over
            stale = over or pressed.seq != attempt.seq
            if stale:
                await interaction.response.defer()
            else:
                if pressed.action is None:
                    raise CommandRefusal("bad_control")
                try:
                    move = attempt.players_move(pressed.action)
                except AttemptError as refused:
                    if refused.reason == "over":
                        raise ChallengeRefusal("challenge.error.over") from None
                    raise ChallengeRefusal("challenge.error.wait") from None
                await interaction.response.defer()  # the opponents and a par may take a few seconds
                await self._store(stored, attempt, [move])
            await self.advance(stored, attempt)
        lang, deck = await reader_style(interaction)
        content, view = await self.message(stored, attempt, lang, deck)
        await interaction.edit_original_response(content=content, view=view)
        if stale:
            await interaction.followup.send(t(lang, "challenge.error.over_shown" if over else "challenge.error.stale"),
                                            ephemeral=True)

    async def message(self, stored: StoredAttempt, attempt: Attempt, lang: Lang, deck: Deck,
                      standing: DayStanding | None = None) -> tuple[str, discord.ui.View]:
        """The hand message of the deal in play with the finished deals' lines, or the day's summary, in the
        reader's style (`reader_style`, read once by the caller); a summary with the caller's `standing` where it
        has read it already."""
        lines = await self.deal_lines(stored, attempt, lang)
        if not attempt.is_over:
            return attempt_text(attempt, stored.name, lines, lang, deck), attempt_view(attempt, lang, deck)
        if standing is None:
            standing = await self.standing(stored)
        return (summary_text(attempt.day.day, lines, standing, lang, deck),
                summary_view(attempt.day.day, attempt.deals, lang))

    async def deal_lines(self, stored: StoredAttempt, attempt: Attempt, lang: Lang) -> list[AttemptLine]:
        # the field: everyone who finished the day's challenge (an attempt still in play, or left unfinished, is not
        # in it, as it is in no board or percentile); the summary says so
        everyone = await self.bot.storage.challenge.day_results(day=attempt.day.day)
        scores = attempt.scores()
        lines = []
        for number, deal in enumerate(attempt.played):
            par = await self.par(attempt.day, number)
            field = field_average(row.score for row in everyone if row.number == number)
            lines.append(AttemptLine(number, deal.result, declarer_name(attempt, number, deal.result, stored.name, lang),
                                  scores[number], par.score, field))
        return lines

    async def standing(self, stored: StoredAttempt) -> DayStanding:
        """The finished attempt's totals, its place on its server and its percentile among everyone that day, each
        among the attempts of as many deals (the same deals: a server may change its number during the day)."""
        everyone = await self.bot.storage.challenge.day_results(day=stored.day)
        mine = [row for row in everyone if row.player_id == stored.player_id]
        names = {a.player_id: a.name for a in await self.bot.storage.challenge.attempts(
            first=stored.day, last=stored.day, server_id=stored.server_id)}
        deals = await self.bot.storage.challenge.finished_deals(day=stored.day)
        alike = [row for row in everyone if deals.get(row.player_id) == stored.deals]  # as many deals as this one
        here = board([row for row in alike if row.server_id == stored.server_id], names)
        rank = next((place for place, row in enumerate(here, start=1) if row.player_id == stored.player_id), len(here))
        mixed = any(deals.get(row.player_id) != stored.deals for row in everyone if row.server_id == stored.server_id)
        margins = [row.margin for row in board(alike, {})]
        score, par = sum(row.score for row in mine), sum(row.par for row in mine)
        return DayStanding(score, par, rank, len(here), percentile(score - par, margins), len(margins), tuple(here),
                           deals=stored.deals, mixed=mixed)

    async def closed(self, stored: StoredAttempt) -> ChallengeRefusal:
        """What a player is told of their attempt of a past day left unfinished: it closed at the day's end (midnight
        UTC) with the deals they finished counted as played (score and par), the deal in play not; not ranked."""
        rows = await self.bot.storage.challenge.results(first=stored.day, last=stored.day, finished_only=False,
                                                        player_id=stored.player_id)
        if not rows:
            return ChallengeRefusal("challenge.error.closed_none", day=stored.day.isoformat())
        return ChallengeRefusal("challenge.error.closed", day=stored.day.isoformat(), played=len(rows),
                                deals=stored.deals, score=sum(row.score for row in rows),
                                par=sum(row.par for row in rows))

    # --- the command ---------------------------------------------------------------------------------

    async def start(self, interaction: discord.Interaction, deals: int | None) -> None:
        guild_id = guild_id_of(interaction)
        storage = self.bot.storage.challenge
        if deals is not None:
            if not interaction.permissions.manage_guild:
                raise ChallengeRefusal("challenge.error.manage")
            if not MIN_DEALS <= deals <= MAX_DEALS:
                raise CommandRefusal("out_of_range", option="deals", low=MIN_DEALS, high=MAX_DEALS)
            await storage.set_deals(server_id=guild_id, deals=deals, now=_now())
            await say(interaction, t(await server_language(interaction), "challenge.deals_set", deals=deals))
            return
        on = today()
        day = await self.day(on)
        user = interaction.user
        async with self.lock(on, user.id):
            known = await storage.attempt(day=on, player_id=user.id)
            if known is not None and known.finished:
                await self.shown_again(interaction, day, known)
                return
            await interaction.response.defer(ephemeral=True, thinking=True)
            left: ChallengeRefusal | None = None  # the player's last attempt, if a day ended on it unfinished
            if known is None:
                previous = await storage.previous_attempt(player_id=user.id, before=on)
                if previous is not None and not previous.finished:
                    left = await self.closed(previous)
                known = await storage.start(day=on, player_id=user.id, server_id=guild_id, name=user.display_name,
                                            deals=await storage.deals(server_id=guild_id), now=_now())
            stored = known
            attempt = Attempt(day, stored.deals, [Move.parse(text) for text in stored.moves])
            self.warm_pars(day, stored.deals)
            await self.advance(stored, attempt)
        lang, deck = await reader_style(interaction)
        content, view = await self.message(stored, attempt, lang, deck)
        where = "challenge.resumed_dm" if stored.moves else "challenge.sent_dm"
        told = "" if left is None else refusal_reply(left, lang, deck) + "\n"  # told once: the day they come back
        try:
            dm = user.dm_channel or await user.create_dm()
            await dm.send(content, view=view)
        except discord.Forbidden as error:
            if error.code != DM_CLOSED:
                raise
            await say(interaction, told + t(lang, "challenge.here"), ephemeral=True)
            await interaction.followup.send(content, view=view, ephemeral=True)
            return
        await say(interaction, told + t(lang, where, number=attempt.number + 1, deals=attempt.deals), ephemeral=True)

    async def shown_again(self, interaction: discord.Interaction, day: ChallengeDay, stored: StoredAttempt) -> None:
        """/challenge on today's finished attempt: one attempt a day is said, then the day's summary with its replay
        buttons, only to the player (the summary in their DMs may never have been shown: a kill cut it off)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        attempt = Attempt(day, stored.deals, [Move.parse(text) for text in stored.moves])
        lang, deck = await reader_style(interaction)
        standing = await self.standing(stored)
        content, view = await self.message(stored, attempt, lang, deck, standing)
        played = ChallengeRefusal("challenge.error.played", score=standing.score, par=standing.par)
        await say(interaction, refusal_reply(played, lang, deck), ephemeral=True)
        await interaction.followup.send(content, view=view, ephemeral=True)

    async def scores(self, interaction: discord.Interaction, period: str) -> None:
        """The server's board of today (only for those who played it: else yesterday's) or of the week."""
        guild_id = guild_id_of(interaction)
        if period not in PERIODS:
            raise CommandRefusal("bad_option", text=period, option="period")
        lang = await server_language(interaction)
        storage = self.bot.storage.challenge
        on = today()
        mine = await storage.attempt(day=on, player_id=interaction.user.id)
        played = mine is not None and mine.finished
        last = on if played else on - timedelta(days=1)
        first = last if period == "day" else on - timedelta(days=6)
        rows = await storage.results(first=first, last=last, server_id=guild_id)
        attempts = await storage.attempts(first=first, last=last, server_id=guild_id)
        names = {a.player_id: a.name for a in attempts}
        # a day's attempts are ranked among those of as many deals (the server may have changed its number that day)
        deals = {a.player_id: a.deals for a in attempts} if period == "day" else None
        note = None if played else t(lang, "challenge.board.hidden")
        # today's board only for the player who played it: the others must not see the day's results yet
        ranked = board(rows, names) if period == "day" else week_board(rows, names)  # a week: per deal
        await say(interaction, day_board_text(ranked, first, last, lang, note, deals=deals),
                  ephemeral=played, allowed_mentions=discord.AllowedMentions.none())


def _cog(interaction: discord.Interaction) -> ChallengeCog:
    cog = skat_bot(interaction).get_cog("ChallengeCog")
    assert isinstance(cog, ChallengeCog)
    return cog


@app_commands.command(name="challenge", description=describe("cmd.challenge"))
@app_commands.describe(deals=describe("cmd.challenge.deals"))
@app_commands.guild_only()
async def challenge_command(interaction: discord.Interaction,
                            deals: app_commands.Range[int, MIN_DEALS, MAX_DEALS] | None = None) -> None:
    await _cog(interaction).start(interaction, deals)


@app_commands.command(name="challenge", description=en("cmd.skat.scores.challenge"))
@app_commands.describe(period=describe("cmd.skat.scores.challenge.period"))
@app_commands.choices(period=[choice("choice.challenge.day", "day"), choice("choice.challenge.week", "week")])
async def scores_challenge(interaction: discord.Interaction, period: str = "day") -> None:
    await _cog(interaction).scores(interaction, period)


async def setup(bot: SkatBot) -> None:
    await bot.add_cog(ChallengeCog(bot))


__all__ = ["ChallengeCog", "setup", "today"]
