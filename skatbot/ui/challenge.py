"""What a player sees of the daily challenge: the hand message of the deal in play (the tables' own hand text and
controls, carried by `ch:` custom ids), each finished deal's line (score, par, the field), the day's summary and
the server's boards.

A challenge control's custom_id has the tables' layout: `ch:<YYYYMMDD>:s<seq>:<action>` for a move, and
`ch:<YYYYMMDD>:s<seq>:menu<i>:<verb>` for a menu of moves: the day of the attempt, the moment (its number of
stored moves) it was drawn for, and the engine's text of the action; the player is whoever presses it (only
their own attempt can be moved).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any, ClassVar, Protocol, runtime_checkable

import discord

from skatbot.challenge import CHALLENGE_LEVEL, CHALLENGE_RULES, DEFAULT_DEALS, Attempt, BoardRow
from skatbot.engine import Action, Claim, Concede, DealResult, Kontra, MalformedText, Re, parse_action
from skatbot.engine.errors import Refusal
from skatbot.models import Deck, TableState
from skatbot.tables import Occupant, TableGame
from skatbot.tables.view import TableView, view_of

from .cards import FRENCH, contract_name
from .controls import MoveButton, MoveControl, MoveMenu, hand_view
from .fit import Limit, fit, fit_lines
from .i18n import language_of, t, tn
from .languages import Lang
from .ratings_text import decimal
from .render import hand_text, player_name
from .replay import challenge_replay_button

PREFIX = "ch:"
LEFT_OUT = (Claim, Concede, Kontra, Re)
"""Moves a challenge deal does not offer (nor hints): every card is played, as the par line plays them all."""
MOVE_TEMPLATE = r"ch:(?P<day>\d{8}):s(?P<seq>\d+):(?P<action>[a-z][A-Za-z0-9 ]*)"
MENU_TEMPLATE = r"ch:(?P<day>\d{8}):s(?P<seq>\d+):menu(?P<index>\d):(?P<verb>[a-z]*)"


class ChallengeRefusal(Refusal):
    """What the challenge refuses, each a whole reply of the catalog."""

    whole = True
    reasons: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "challenge.error.manage": (), "challenge.error.played": ("score", "par"),
        "challenge.error.not_yours": (), "challenge.error.day_over": (), "challenge.error.over": (),
        "challenge.error.stale": (), "challenge.error.wait": (),
        "challenge.error.closed": ("day", "played", "deals", "score", "par"), "challenge.error.closed_none": ("day",),
    }


@dataclass(frozen=True, slots=True)
class ChallengeControl:
    """What a pressed challenge control asks for: a move (None: a text that is no action, forged) drawn at the
    attempt's moment `seq` of `day`."""

    day: date
    seq: int
    action: Action | None


@runtime_checkable
class ChallengePlayer(Protocol):
    """The cog that takes the challenge's presses (found among the bot's cogs; the ui knows no cog)."""

    async def challenge_pressed(self, interaction: discord.Interaction, pressed: ChallengeControl) -> None: ...


def _day(text: str) -> date:
    return date(int(text[:4]), int(text[4:6]), int(text[6:]))


def _action(text: str) -> Action | None:
    try:
        return parse_action(text)
    except MalformedText:
        return None


def _move_id(day: date, seq: int, action: Action) -> str:
    return f"{PREFIX}{day.strftime('%Y%m%d')}:s{seq}:{action}"


def _menu_id(day: date, seq: int, index: int, verb: str) -> str:
    return f"{PREFIX}{day.strftime('%Y%m%d')}:s{seq}:menu{index}:{verb}"


async def _dispatch(interaction: discord.Interaction, pressed: ChallengeControl) -> None:
    cogs: dict[str, Any] = getattr(interaction.client, "cogs", {})
    player = next((cog for cog in cogs.values() if isinstance(cog, ChallengePlayer)), None)
    if player is None:
        await interaction.response.send_message(t(language_of(str(interaction.locale)), "error.starting"),
                                                ephemeral=True)
        return
    await player.challenge_pressed(interaction, pressed)


class ChallengeButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=MOVE_TEMPLATE):
    """A button that makes one move of the player's attempt: its id carries the day, the moment and the action."""

    def __init__(self, button: discord.ui.Button[Any], pressed: ChallengeControl) -> None:
        super().__init__(button, row=button.row)
        self.pressed = pressed

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ChallengeButton:
        pressed = ChallengeControl(_day(match["day"]), int(match["seq"]), _action(match["action"]))
        return cls(discord.ui.Button(custom_id=match.string), pressed)

    async def callback(self, interaction: discord.Interaction) -> None:
        await _dispatch(interaction, self.pressed)


class ChallengeMenu(discord.ui.DynamicItem[discord.ui.Select[Any]], template=MENU_TEMPLATE):
    """A menu of moves (bids, discards, games): each option's value is an action's text, or completes `verb`."""

    def __init__(self, select: discord.ui.Select[Any], day: date, seq: int, verb: str) -> None:
        super().__init__(select, row=select.row)
        self.day, self.seq, self.verb = day, seq, verb

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ChallengeMenu:
        select: discord.ui.Select[Any] = discord.ui.Select(custom_id=match.string,
                                                           options=[discord.SelectOption(label="-")])
        return cls(select, _day(match["day"]), int(match["seq"]), match["verb"])

    async def callback(self, interaction: discord.Interaction) -> None:
        text = " ".join((self.verb, *self.item.values)).strip()
        await _dispatch(interaction, ChallengeControl(self.day, self.seq, _action(text)))


DYNAMIC_ITEMS = (ChallengeButton, ChallengeMenu)


def attempt_table(attempt: Attempt, name: str, number: int | None = None) -> TableView:
    """A view of a table as the tables' hand text reads it, seated as the attempt's deal `number` (default: the current
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
    return view_of(game, table_id=0, guild_id=0, channel_id=0, seq=attempt.seq)


@dataclass(frozen=True, slots=True)
class AttemptLine:
    """A finished deal as the player sees it: its outcome, their score, the par and the field's average."""

    number: int
    result: DealResult
    declarer: str | None  # the declarer's name as the player reads it (None: passed in)
    score: int
    par: int
    field: float | None


def deal_line(line: AttemptLine, lang: Lang, deck: Deck = FRENCH) -> str:
    result = line.result
    if result.declarer is None or result.contract is None:
        what = t(lang, "challenge.deal.passed")
    else:
        what = t(lang, "challenge.deal.won" if result.won else "challenge.deal.lost", name=line.declarer or "?",
                 game=contract_name(result.contract, lang, deck), points=result.declarer_points)
    field = t(lang, "challenge.field.none") if line.field is None else f"{line.field:.0f}"
    return t(lang, "challenge.deal.line", number=line.number + 1, what=what, score=_signed(line.score),
             par=_signed(line.par), field=field)


def declarer_name(attempt: Attempt, number: int, result: DealResult, name: str, lang: Lang) -> str | None:
    """Who declared deal `number`: the player, or the computer opponent in that seat (as hand texts name it)."""
    if result.declarer is None:
        return None
    if result.declarer == attempt.day.player_seat(number):
        return t(lang, "hand.you")
    return player_name(attempt_table(attempt, name, number), result.declarer, lang)


def attempt_text(attempt: Attempt, name: str, lines: Sequence[AttemptLine], lang: Lang, deck: Deck = FRENCH) -> str:
    """The hand message of the deal in play, with the challenge's title and the lines of the deals finished."""
    game = attempt_table(attempt, name)
    hand = hand_text(game, attempt.view(), lang, deck).split("\n")
    head = [t(lang, "challenge.title", day=attempt.day.day.isoformat(), number=attempt.number + 1, deals=attempt.deals)]
    done = [deal_line(line, lang, deck) for line in lines]
    return fit_lines(hand[:2] + head + done + hand[2:], first_droppable=3)


def attempt_view(attempt: Attempt, lang: Lang, deck: Deck = FRENCH) -> discord.ui.View:
    """The tables' controls for the player's seat, carried as challenge controls of the attempt's moment."""
    drawn = hand_view(0, attempt.seq, attempt.view(), lang, deck)
    out = discord.ui.View(timeout=None)
    day, seq = attempt.day.day, attempt.seq
    for item in drawn.children:
        if isinstance(item, MoveButton) and isinstance(item.control, MoveControl):
            action = item.control.action
            if isinstance(action, LEFT_OUT):
                continue
            old = item.item
            button: discord.ui.Button[Any] = discord.ui.Button(
                label=old.label, style=old.style, disabled=old.disabled, emoji=old.emoji, row=item.row,
                custom_id=_move_id(day, seq, action))
            out.add_item(ChallengeButton(button, ChallengeControl(day, seq, action)))
        elif isinstance(item, MoveMenu):
            index = int(re.search(r":menu(\d):", item.item.custom_id or ":menu0:")[1])  # type: ignore[index]
            select: discord.ui.Select[Any] = discord.ui.Select(
                custom_id=_menu_id(day, seq, index, item.verb), options=item.item.options,
                placeholder=item.item.placeholder, min_values=item.item.min_values,
                max_values=item.item.max_values, row=item.row)
            out.add_item(ChallengeMenu(select, day, seq, item.verb))
    return out


@dataclass(frozen=True, slots=True)
class DayStanding:
    """Where a finished attempt stands: its totals, its place on the server, and among everyone that day."""

    score: int
    par: int
    rank: int
    players_here: int
    percentile: int
    players_all: int
    ranking: tuple[BoardRow, ...] = ()  # the server's board of the day, best first (names of this server only)
    deals: int = DEFAULT_DEALS  # the attempt's deals: place and percentile are among the attempts of as many
    mixed: bool = False  # the server's day has attempts of another number of deals too (it changed its setting)


SUMMARY_RANKS = 10
"""Lines of the server's ranking a summary shows (the player's own line always)."""


def summary_text(day: date, lines: Sequence[AttemptLine], standing: DayStanding, lang: Lang, deck: Deck = FRENCH) -> str:
    """The day's result for the player: each deal, the totals, the place here and the percentile everywhere."""
    out = [t(lang, "challenge.summary.title", day=day.isoformat())]
    out += [deal_line(line, lang, deck) for line in lines]
    out.append(t(lang, "challenge.summary.total", score=_signed(standing.score), par=_signed(standing.par),
                 margin=_signed(standing.score - standing.par)))
    out.append(tn(lang, "challenge.summary.rank", standing.players_here, rank=standing.rank))
    if standing.mixed:
        out.append(tn(lang, "challenge.summary.alike", standing.deals))
    out += [_board_line(rank, row, lang) for rank, row in enumerate(standing.ranking, start=1)
            if rank <= SUMMARY_RANKS or rank == standing.rank]
    out.append(tn(lang, "challenge.summary.percentile", standing.players_all, percent=standing.percentile,
                  deals=standing.deals))
    out.append(t(lang, "challenge.field.note"))
    out.append(t(lang, "challenge.summary.next"))
    return fit_lines(out)


def summary_view(day: date, deals: int, lang: Lang) -> discord.ui.View:
    """🎞 Replay for each deal of a finished attempt (rows of five): the player's line beside the par's."""
    view = discord.ui.View(timeout=None)
    for number in range(deals):
        button = challenge_replay_button(day, number, lang)
        button.label = f"{button.label} {number + 1}"
        button.row = number // 5
        view.add_item(button)
    return view


def day_board_text(rows: Sequence[BoardRow], first: date, last: date, lang: Lang, note: str | None = None,
                   deals: Mapping[int, int] | None = None) -> str:
    """A server's challenge board (names of this server only), best against par first; a week's (`first` before
    `last`) ranked by score against par per deal, each row saying it, and a line naming the rule. With `deals` (a day's board:
    each player's number of deals), attempts of different numbers of deals (the server changed its setting that
    day) are ranked apart, each group among the attempts of the same deals, and the board says so."""
    if first != last:  # a week: ranked per deal (`week_board`), and the board says so
        out = [t(lang, "challenge.board.week", first=first.isoformat(), last=last.isoformat())]
        if note:
            out.append(note)
        if not rows:
            out.append(t(lang, "challenge.board.empty"))
        out += [_week_line(rank, row, lang) for rank, row in enumerate(rows, start=1)]
        if rows:  # how they are ranked, where anyone is
            out.append(t(lang, "challenge.board.week_rule"))
        return fit_lines(out)
    out = [t(lang, "challenge.board.day", day=first.isoformat())]
    if note:
        out.append(note)
    if not rows:
        out.append(t(lang, "challenge.board.empty"))
    groups = sorted({deals.get(row.player_id, row.deals) for row in rows} if deals else set(), reverse=True)
    if len(groups) < 2:
        out += [_board_line(rank, row, lang) for rank, row in enumerate(rows, start=1)]
        return fit_lines(out)
    assert deals is not None
    out.append(t(lang, "challenge.board.alike"))
    for count in groups:
        out.append(tn(lang, "challenge.board.group", count))
        alike = [row for row in rows if deals.get(row.player_id, row.deals) == count]
        out += [_board_line(rank, row, lang) for rank, row in enumerate(alike, start=1)]
    return fit_lines(out)


def _board_line(rank: int, row: BoardRow, lang: Lang) -> str:
    return tn(lang, "challenge.board.row", row.deals, rank=rank, name=fit(row.name, Limit.OPTION_LABEL),
              score=_signed(row.score), par=_signed(row.par), margin=_signed(row.margin))


def _week_line(rank: int, row: BoardRow, lang: Lang) -> str:
    average = decimal(lang, float(row.per_deal))
    return tn(lang, "challenge.board.week_row", row.deals, rank=rank, name=fit(row.name, Limit.OPTION_LABEL),
              average=f"+{average}" if round(row.per_deal, 1) > 0 else average, score=_signed(row.score),
              par=_signed(row.par))


def _signed(value: int) -> str:
    return f"{value:+d}" if value else "0"
