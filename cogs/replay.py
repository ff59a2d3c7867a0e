"""Replays of finished deals: `/skat scores replay deal:N`, the 🎞 Replay button on result cards, histories and
analyses, and the ◀ ▶ buttons that step through a replay.

A replay is a message only its reader sees (ephemeral), stepped through by editing it. Every button carries
what it was drawn for (`rpt:TABLE:NUMBER`, `rpo:DEAL`, `rps:DEAL:STEP`), so it works after a restart and on
any process. A deal is replayed to whoever may read it: on its own server, a finished deal is public to every
member; elsewhere (a DM) only to those who played it. A deal still in play is never replayed: it is refused
kindly, saying it opens once the deal is over.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING, Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from skatbot.app import skat_bot
from skatbot.challenge import Attempt, ChallengeDay, Move, seeger_fabian_score
from skatbot.engine.errors import Refusal
from skatbot.engine.records import RecordError, deal_from_json
from skatbot.interactions.replies import guarded, reader_style, say
from skatbot.models import DealRecord, Role, seen_number
from skatbot.storage import NotFound
from skatbot.ui.challenge import attempt_table
from skatbot.ui.fit import Limit, fit
from skatbot.ui.render import player_name
from skatbot.ui.replay import (
    REPLAY_CHALLENGE,
    REPLAY_CHALLENGE_OPEN,
    REPLAY_OPEN,
    REPLAY_OPEN_TABLE,
    REPLAY_STEP,
    ChallengeReplay,
    Replay,
    challenge_step_shown,
    challenge_step_text,
    challenge_view,
    read_replay,
    replay_view,
    step_shown,
    step_text,
)

from ._analysis import _names
from ._common import describe, en

if TYPE_CHECKING:
    from skatbot.app import SkatBot


class ReplayRefusal(Refusal):
    """Why a replay is not shown: a whole reply's catalog key and its values."""

    whole = True
    reasons: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "replay.error.no_deal": ("deal",),
        "replay.error.in_play": ("number", "table"),
        "replay.error.unreadable": ("deal",),
        "replay.error.bad_day": ("text",),
        "replay.error.no_challenge": ("day",),
        "replay.error.challenge_deal": ("deal", "day"),
    }


def _public_to(interaction: discord.Interaction, stored: DealRecord) -> bool:
    """On its server a finished deal is public; in a DM only to its players."""
    if interaction.guild_id is not None:
        return interaction.guild_id == stored.server_id
    return any(score.player_id == interaction.user.id for score in stored.scores)


async def _replay(interaction: discord.Interaction, stored: DealRecord) -> Replay:
    deal_id = stored.deal_id or 0
    if not _public_to(interaction, stored):
        raise ReplayRefusal("replay.error.no_deal", deal=deal_id)
    try:
        deal = deal_from_json(json.loads(stored.record_json))
        declarer = next((s.score for s in stored.scores if s.role is Role.DECLARER), None)
        lang, _ = await reader_style(interaction)
        return read_replay(deal, await _names(skat_bot(interaction), stored, lang), deal_id, declarer)
    except (RecordError, ValueError):
        raise ReplayRefusal("replay.error.unreadable", deal=deal_id) from None


async def _stored(interaction: discord.Interaction, deal_id: int) -> DealRecord:
    try:
        stored: DealRecord = await skat_bot(interaction).storage.deals.get(deal_id=deal_id)
        return stored
    except NotFound:  # never stored: no such deal, or one still in play (stored when it ends)
        raise ReplayRefusal("replay.error.no_deal", deal=deal_id) from None


async def _pictures_on(interaction: discord.Interaction, stored: DealRecord) -> bool:
    settings = await skat_bot(interaction).storage.settings.get(server_id=stored.server_id)
    return bool(settings.pictures)


async def _step_message(interaction: discord.Interaction, replay: Replay, step: int,
                        pictures: bool) -> dict[str, Any]:
    lang, deck = await reader_style(interaction)
    step = min(max(step, 0), replay.steps - 1)
    message: dict[str, Any] = {"content": fit(step_text(replay, step, lang, deck), Limit.CONTENT),
                               "view": replay_view(replay.deal_id, step, replay.steps, lang)}
    if pictures:
        message["file"] = (await step_shown(replay, step, lang, deck)).file()
    return message


async def open_replay(interaction: discord.Interaction, stored: DealRecord) -> None:
    """A new message, only for the reader, at the replay's first step."""
    replay = await _replay(interaction, stored)
    pictures = await _pictures_on(interaction, stored)
    if pictures:  # the first step's picture is drawn in a worker: Discord waits 3 s only
        await interaction.response.defer(ephemeral=True, thinking=True)
    message = await _step_message(interaction, replay, 0, pictures)
    content = message.pop("content")
    await say(interaction, content, ephemeral=True, allowed_mentions=discord.AllowedMentions.none(), **message)


async def replay_by_id(interaction: discord.Interaction, deal_id: int) -> None:
    await open_replay(interaction, await _stored(interaction, deal_id))


class ReplayStepButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=REPLAY_STEP):
    """◀ ▶ on a replay: the message is edited to the step the button was drawn for."""

    def __init__(self, deal_id: int, step: int) -> None:
        super().__init__(discord.ui.Button(label="·", custom_id=f"rps:{deal_id}:{step}"))
        self.deal_id, self.step = deal_id, step

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ReplayStepButton:
        return cls(int(match["deal"]), int(match["step"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: self.turn(interaction))

    async def turn(self, interaction: discord.Interaction) -> None:
        stored = await _stored(interaction, self.deal_id)
        replay = await _replay(interaction, stored)
        pictures = await _pictures_on(interaction, stored)
        if pictures:
            await interaction.response.defer()  # the step's picture is drawn in a worker: Discord waits 3 s only
        message = await _step_message(interaction, replay, self.step, pictures)
        file = message.pop("file", None)
        if interaction.response.is_done():
            await interaction.edit_original_response(attachments=[file] if file is not None else [], **message)
        else:
            await interaction.response.edit_message(attachments=[file] if file is not None else [], **message)


class ReplayOpenButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=REPLAY_OPEN):
    """🎞 under a history or an analysis: opens the deal's replay in a new message."""

    def __init__(self, deal_id: int) -> None:
        super().__init__(discord.ui.Button(label="·", custom_id=f"rpo:{deal_id}"))
        self.deal_id = deal_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ReplayOpenButton:
        return cls(int(match["deal"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: replay_by_id(interaction, self.deal_id))


class ReplayTableButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=REPLAY_OPEN_TABLE):
    """🎞 on a result card: the table and the deal's number there (the card is shown once the deal is stored)."""

    def __init__(self, table_id: int, number: int) -> None:
        super().__init__(discord.ui.Button(label="·", custom_id=f"rpt:{table_id}:{number}"))
        self.table_id, self.number = table_id, number

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ReplayTableButton:
        return cls(int(match["table"]), int(match["number"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: self.open(interaction))

    async def open(self, interaction: discord.Interaction) -> None:
        bot = skat_bot(interaction)
        try:
            stored = await bot.storage.deals.by_number(table_id=self.table_id, deal_number=self.number)
        except NotFound:
            live = bot.services.tables.tables.get(self.table_id)
            view = live.current() if live is not None else None
            if view is not None and view.board is not None and len(view.finished) + 1 == self.number:
                raise ReplayRefusal("replay.error.in_play", number=self.number, table=self.table_id) from None
            raise ReplayRefusal("replay.error.no_deal", deal=self.number) from None
        await open_replay(interaction, stored)


# --- a challenge deal: only the presser's own line, beside the par AI's ----------------------------------------

async def challenge_replay(interaction: discord.Interaction, day: date, number: int) -> ChallengeReplay:
    """The presser's own attempt at deal `number` (from 0) of `day`, once they finished that deal, and the par
    line. Nobody sees another player's line: the day's deals stay hidden from those who have not played."""
    bot = skat_bot(interaction)
    stored = await bot.storage.challenge.attempt(day=day, player_id=interaction.user.id)
    if stored is None:
        raise ReplayRefusal("replay.error.no_challenge", day=day.isoformat())
    try:
        today = ChallengeDay.of(await bot.storage.challenge.secret(now=datetime.now(UTC)), day)
        attempt = Attempt(today, stored.deals, [Move.parse(move) for move in stored.moves])
    except ValueError:
        raise ReplayRefusal("replay.error.no_challenge", day=day.isoformat()) from None
    if not 0 <= number < len(attempt.played):  # not played, or not finished yet: nothing to show
        raise ReplayRefusal("replay.error.challenge_deal", deal=seen_number(number), day=day.isoformat())
    lang, _ = await reader_style(interaction)
    seat = today.player_seat(number)
    shown = attempt_table(attempt, interaction.user.display_name, number)  # seated as the deal was: place = seat
    names = [player_name(shown, place, lang) for place in range(3)]  # the opponents as the hand named them (🤖)
    deal = attempt.played[number]
    mine = read_replay(deal, names, seen_number(number), seeger_fabian_score(deal.result, seat) if deal.declarer == seat
                       else None)
    par = None
    line = await bot.storage.challenge.par(day=day, number=number)
    if line is not None:
        again = today.new_deal(number)
        for text in line.moves:
            move = Move.parse(text)
            again.apply(move.action, move.seat)
        par_names = list(names)
        par_names[seat] = "🤖 par"
        par = read_replay(again, par_names, seen_number(number))
    return ChallengeReplay(day, number, mine, par)


async def _challenge_message(interaction: discord.Interaction, pair: ChallengeReplay, step: int) -> dict[str, Any]:
    lang, deck = await reader_style(interaction)
    step = min(max(step, 0), pair.steps - 1)
    return {"content": fit(challenge_step_text(pair, step, lang, deck), Limit.CONTENT),
            "view": challenge_view(pair.day, pair.number, step, pair.steps, lang),
            "file": (await challenge_step_shown(pair, step, lang, deck)).file()}


def _day_of(stamp: str) -> date:
    try:
        return datetime.strptime(stamp, "%Y%m%d").date()
    except ValueError:
        raise ReplayRefusal("replay.error.bad_day", text=stamp) from None


async def open_challenge_replay(interaction: discord.Interaction, day: date, number: int) -> None:
    pair = await challenge_replay(interaction, day, number)
    await interaction.response.defer(ephemeral=True, thinking=True)  # its pictures are drawn in a worker
    message = await _challenge_message(interaction, pair, 0)
    content = message.pop("content")
    await say(interaction, content, ephemeral=True, allowed_mentions=discord.AllowedMentions.none(), **message)


class ChallengeStepButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=REPLAY_CHALLENGE):
    """◀ ▶ on a challenge deal's replay: the message is edited to the step (the presser's own line)."""

    def __init__(self, stamp: str, number: int, step: int) -> None:
        super().__init__(discord.ui.Button(label="·", custom_id=f"rpc:{stamp}:{number}:{step}"))
        self.stamp, self.number, self.step = stamp, number, step

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ChallengeStepButton:
        return cls(match["day"], int(match["number"]), int(match["step"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: self.turn(interaction))

    async def turn(self, interaction: discord.Interaction) -> None:
        pair = await challenge_replay(interaction, _day_of(self.stamp), self.number)
        await interaction.response.defer()  # the step's pictures are drawn in a worker: Discord waits 3 s only
        message = await _challenge_message(interaction, pair, self.step)
        file = message.pop("file")
        await interaction.edit_original_response(attachments=[file], **message)


class ChallengeOpenButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
                          template=REPLAY_CHALLENGE_OPEN):
    """🎞 for a challenge deal (ui.replay.challenge_replay_button): opens the presser's own replay of it."""

    def __init__(self, stamp: str, number: int) -> None:
        super().__init__(discord.ui.Button(label="·", custom_id=f"rpd:{stamp}:{number}"))
        self.stamp, self.number = stamp, number

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ChallengeOpenButton:
        return cls(match["day"], int(match["number"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: open_challenge_replay(interaction, _day_of(self.stamp), self.number))


@app_commands.command(name="replay", description=en("cmd.skat.scores.replay"))
@app_commands.describe(deal=describe("cmd.skat.scores.replay.deal"), day=describe("cmd.skat.scores.replay.day"))
async def replay_command(interaction: discord.Interaction, deal: app_commands.Range[int, 1, None],
                         day: app_commands.Range[str, 1, 10] | None = None) -> None:
    """`/skat scores replay deal:N`: step through a finished deal of this server, only for the reader; with
    `day:`, deal N of that day's challenge as the reader played it, beside the par AI's line."""
    if day is None:
        await replay_by_id(interaction, deal)
        return
    try:
        when = date.fromisoformat(day.strip())
    except ValueError:
        raise ReplayRefusal("replay.error.bad_day", text=day) from None
    await open_challenge_replay(interaction, when, deal - 1)


class ReplayCog(commands.Cog):
    """Adds `replay` to /skat scores (load after cogs.scores) and answers the replay buttons (a click none of
    them answers, forged or outdated, is refused by the bot's one listener, `answer_stray`)."""

    ITEMS = (ReplayStepButton, ReplayOpenButton, ReplayTableButton, ChallengeStepButton, ChallengeOpenButton)

    def __init__(self, bot: SkatBot) -> None:
        self.bot = bot

    def _scores(self) -> app_commands.Group:
        skat = self.bot.tree.get_command("skat")
        scores = skat.get_command("scores") if isinstance(skat, app_commands.Group) else None
        if not isinstance(scores, app_commands.Group):
            raise RuntimeError("load cogs.scores (the /skat scores group) before cogs.replay")
        return scores

    async def cog_load(self) -> None:
        self._scores().add_command(replay_command)
        self.bot.add_dynamic_items(*self.ITEMS)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*self.ITEMS)
        skat = self.bot.tree.get_command("skat")
        scores = skat.get_command("scores") if isinstance(skat, app_commands.Group) else None
        if isinstance(scores, app_commands.Group):  # gone already when /skat scores was unloaded first
            scores.remove_command(replay_command.name)


async def setup(bot: SkatBot) -> None:
    await bot.add_cog(ReplayCog(bot))
