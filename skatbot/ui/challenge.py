"""What a player sees of the daily challenge: the hand message of the deal in play (the tables' own hand text and
controls, carried by `ch:` custom ids), each finished deal's line (score, par, the field), the day's summary and
the server's boards.

A challenge control's custom_id has the tables' layout, `ch:<YYYYMMDD>:s<seq>:<kind>:<arg>`: the day of the
attempt, the moment (its number of stored moves) it was drawn for, and what it asks for; the player is whoever
presses it (only their own attempt can be moved).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any, Protocol, runtime_checkable

import discord

from skatbot.challenge import CHALLENGE_LEVEL, CHALLENGE_RULES, Attempt, BoardRow
from skatbot.engine import DealResult
from skatbot.models import TableState
from skatbot.tables import Occupant, TableGame

from .cards import FRENCH, contract_name
from .controls import SELECT_KINDS, Control, ControlButton, ControlSelect, hand_view
from .fit import Limit, fit, fit_lines
from .i18n import language_of, t, tn
from .render import hand_text, player_name

PREFIX = "ch:"
LEFT_OUT = ("claim", "concede", "hint", "kontra", "re")
"""Controls a challenge deal does not offer: every card is played (the par line plays them all too)."""
_KIND_SELECT = "|".join(SELECT_KINDS)
BUTTON_TEMPLATE = rf"ch:(?P<day>\d{{8}}):s(?P<seq>\d+):(?P<kind>(?!(?:{_KIND_SELECT}):)[a-z]+):(?P<arg>[^:]*)"
SELECT_TEMPLATE = rf"ch:(?P<day>\d{{8}}):s(?P<seq>\d+):(?P<kind>{_KIND_SELECT}):(?P<arg>[^:]*)"


@dataclass(frozen=True, slots=True)
class ChallengeControl:
    """What a pressed challenge control asks for: `control` as the tables read it (`control_action`)."""

    day: date
    control: Control


@runtime_checkable
class ChallengePlayer(Protocol):
    """The cog that takes the challenge's presses (found among the bot's cogs; the ui knows no cog)."""

    async def challenge_pressed(self, interaction: discord.Interaction, pressed: ChallengeControl) -> None: ...


def _day_text(day: date) -> str:
    return day.strftime("%Y%m%d")


def _custom_id(day: date, seq: int, kind: str, arg: str) -> str:
    return f"{PREFIX}{_day_text(day)}:s{seq}:{kind}:{arg}"


def _parsed(match: Any, values: tuple[str, ...] = ()) -> ChallengeControl:
    day = date(int(match["day"][:4]), int(match["day"][4:6]), int(match["day"][6:]))
    return ChallengeControl(day, Control(0, int(match["seq"]), match["kind"], match["arg"], values))


async def _dispatch(interaction: discord.Interaction, pressed: ChallengeControl) -> None:
    cogs: dict[str, Any] = getattr(interaction.client, "cogs", {})
    player = next((cog for cog in cogs.values() if isinstance(cog, ChallengePlayer)), None)
    if player is None:
        await interaction.response.send_message(t(language_of(str(interaction.locale)), "error.starting"),
                                                ephemeral=True)
        return
    await player.challenge_pressed(interaction, pressed)


class ChallengeButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=BUTTON_TEMPLATE):
    def __init__(self, button: discord.ui.Button[Any], pressed: ChallengeControl) -> None:
        super().__init__(button, row=button.row)
        self.pressed = pressed

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ChallengeButton:
        pressed = _parsed(match)
        return cls(discord.ui.Button(custom_id=item.custom_id if isinstance(item, discord.ui.Button) else None),
                   pressed)

    async def callback(self, interaction: discord.Interaction) -> None:
        await _dispatch(interaction, self.pressed)


class ChallengeSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_TEMPLATE):
    def __init__(self, select: discord.ui.Select[Any], pressed: ChallengeControl) -> None:
        super().__init__(select, row=select.row)
        self.pressed = pressed

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ChallengeSelect:
        custom_id = item.custom_id if isinstance(item, discord.ui.Select) else None
        return cls(discord.ui.Select(custom_id=custom_id or discord.utils.MISSING,
                                     options=[discord.SelectOption(label="-")]), _parsed(match))

    async def callback(self, interaction: discord.Interaction) -> None:
        pressed = self.pressed
        values = tuple(self.item.values)
        control = pressed.control
        await _dispatch(interaction, ChallengeControl(pressed.day, Control(0, control.seq, control.kind, control.arg,
                                                                           values)))


DYNAMIC_ITEMS = (ChallengeButton, ChallengeSelect)


def render_game(attempt: Attempt, name: str, number: int | None = None) -> TableGame:
    """A table as the tables' hand text reads it, seated as the attempt's deal `number` (default: the current
    one) is: the player and the two computer opponents in the day's seats (built for showing only; the attempt
    is the truth)."""
    number = attempt.number if number is None else number
    seat = attempt.day.player_seat(number)
    game = TableGame(size=3, deals=attempt.deals, rules=CHALLENGE_RULES, creator_id=0)
    opponents = iter((1, 2))
    for place in range(3):
        if place == seat:
            game.places.append(Occupant(1, name))
        else:
            n = next(opponents)
            game.places.append(Occupant(None, f"AI {n} ({CHALLENGE_LEVEL})", ai_level=CHALLENGE_LEVEL, ai_id=-(300 + n)))
    game.first_dealer = (2 - number) % 3  # places 0, 1, 2 sit forehand, middlehand, rearhand in this deal
    game.deal_number = number
    game.deal = attempt.deal if number == attempt.number else attempt.played[number]
    game.state = TableState.PLAYING
    return game


@dataclass(frozen=True, slots=True)
class DealLine:
    """A finished deal as the player sees it: its outcome, their score, the par and the field's average."""

    number: int
    result: DealResult
    declarer: str | None  # the declarer's name as the player reads it (None: passed in)
    score: int
    par: int
    field: float | None


def deal_line(line: DealLine, lang: str, deck: str = FRENCH) -> str:
    result = line.result
    if result.declarer is None or result.contract is None:
        what = t(lang, "challenge.deal.passed")
    else:
        what = t(lang, "challenge.deal.won" if result.won else "challenge.deal.lost", name=line.declarer or "?",
                 game=contract_name(result.contract, lang, deck), points=result.declarer_points)
    field = t(lang, "challenge.field.none") if line.field is None else f"{line.field:.0f}"
    return t(lang, "challenge.deal.line", number=line.number + 1, what=what, score=_signed(line.score),
             par=_signed(line.par), field=field)


def declarer_name(attempt: Attempt, number: int, result: DealResult, name: str, lang: str) -> str | None:
    """Who declared deal `number`: the player, or the computer opponent in that seat (as hand texts name it)."""
    if result.declarer is None:
        return None
    if result.declarer == attempt.day.player_seat(number):
        return t(lang, "hand.you")
    return player_name(render_game(attempt, name, number), result.declarer, lang)


def attempt_text(attempt: Attempt, name: str, lines: Sequence[DealLine], lang: str, deck: str = FRENCH) -> str:
    """The hand message of the deal in play, with the challenge's title and the lines of the deals finished."""
    game = render_game(attempt, name)
    hand = hand_text(game, attempt.view(), lang, deck).split("\n")
    head = [t(lang, "challenge.title", day=attempt.day.day.isoformat(), number=attempt.number + 1, deals=attempt.deals)]
    done = [deal_line(line, lang, deck) for line in lines]
    return fit_lines(hand[:2] + head + done + hand[2:], first_droppable=3)


def attempt_view(attempt: Attempt, lang: str, deck: str = FRENCH) -> discord.ui.View:
    """The tables' controls for the player's seat, carried as challenge controls of the attempt's moment."""
    drawn = hand_view(0, attempt.seq, attempt.view(), lang, deck)
    out = discord.ui.View(timeout=None)
    day, seq = attempt.day.day, attempt.seq
    for item in drawn.children:
        if isinstance(item, ControlButton):
            control = item.control
            if control.kind in LEFT_OUT:
                continue
            old = item.item
            button: discord.ui.Button[Any] = discord.ui.Button(
                label=old.label, style=old.style, disabled=old.disabled, emoji=old.emoji, row=item.row,
                custom_id=_custom_id(day, seq, control.kind, control.arg))
            out.add_item(ChallengeButton(button, ChallengeControl(day, control)))
        elif isinstance(item, ControlSelect):
            control = item.control
            select: discord.ui.Select[Any] = discord.ui.Select(
                custom_id=_custom_id(day, seq, control.kind, control.arg), options=item.item.options,
                placeholder=item.item.placeholder, min_values=item.item.min_values,
                max_values=item.item.max_values, row=item.row)
            out.add_item(ChallengeSelect(select, ChallengeControl(day, control)))
    return out


@dataclass(frozen=True, slots=True)
class Standing:
    """Where a finished attempt stands: its totals, its place on the server, and among everyone that day."""

    score: int
    par: int
    rank: int
    players_here: int
    percentile: int
    players_all: int


def summary_text(day: date, lines: Sequence[DealLine], standing: Standing, lang: str, deck: str = FRENCH) -> str:
    """The day's result for the player: each deal, the totals, the place here and the percentile everywhere."""
    out = [t(lang, "challenge.summary.title", day=day.isoformat())]
    out += [deal_line(line, lang, deck) for line in lines]
    out.append(t(lang, "challenge.summary.total", score=_signed(standing.score), par=_signed(standing.par),
                 margin=_signed(standing.score - standing.par)))
    out.append(tn(lang, "challenge.summary.rank", standing.players_here, rank=standing.rank))
    out.append(tn(lang, "challenge.summary.percentile", standing.players_all, percent=standing.percentile))
    out.append(t(lang, "challenge.summary.next"))
    return fit_lines(out)


def board_text(rows: Sequence[BoardRow], first: date, last: date, lang: str, note: str | None = None) -> str:
    """A server's challenge board (names of this server only), best against par first."""
    title = (t(lang, "challenge.board.day", day=first.isoformat()) if first == last else
             t(lang, "challenge.board.week", first=first.isoformat(), last=last.isoformat()))
    out = [title]
    if note:
        out.append(note)
    if not rows:
        out.append(t(lang, "challenge.board.empty"))
    for rank, row in enumerate(rows, start=1):
        out.append(tn(lang, "challenge.board.row", row.deals, rank=rank, name=fit(row.name, Limit.OPTION_LABEL),
                      score=_signed(row.score), par=_signed(row.par), margin=_signed(row.margin)))
    return fit_lines(out)


def _signed(value: int) -> str:
    return f"{value:+d}" if value else "0"
