"""Buttons and menus whose custom_id carries the table, the moment they were drawn for, and what they do.

A move carries the engine's own text of its action (`str(action)`, read back with `parse_action`):
`sk:<table>:s<seq>:play CJ`. A menu of moves carries action texts as its values (`bid 20`, `declare grand
hand`; the discard menu's two cards complete the `discard` its id names): `sk:<table>:s<seq>:menu<i>:<verb>`.
A control that is not a move has a `Kind`: `sk:<table>:s<seq>:<kind>:<arg>` (the lobby's buttons, "Show
my hand", a hint, a concession that may ask first). The moment is the table's sequence number (how many
log entries it had) when the control was drawn: the table refuses a move whose moment has passed, so a
stale "Yes (18)" never holds at 30.

Every control is a `DynamicItem`: discord.py rebuilds it from the custom_id when pressed (the id is parsed
there, once), and its callback hands the control's value to the bot's `ControlDesk`, a service built in
the bot's setup_hook. Ids in the shapes drawn before actions were carried are answered by the bot's one
listener for stray components: refused as stale, never misread.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol, runtime_checkable

import discord

from skatbot.engine import (
    Action,
    Bid,
    Card,
    Claim,
    Concede,
    Contract,
    Declare,
    Hold,
    Kontra,
    MalformedText,
    Pass,
    Phase,
    PickUpSkat,
    PlayCard,
    Re,
    parse_action,
)
from skatbot.engine.games import sort_key
from skatbot.engine.views import SeatView
from skatbot.models import Deck

from .cards import FRENCH, card_label, contract_name, game_name
from .emojis import CARD_EMOJIS
from .fit import Limit, fit
from .i18n import t
from .languages import Lang


class Kind(StrEnum):
    """Controls that are not moves (a move carries its action instead)."""

    JOIN = "join"
    LEAVE = "leave"
    ADD_AI = "addai"  # its arg: the level
    START = "start"
    SHOW = "show"  # "Show my hand": the hand as it is now, whenever pressed
    HINT = "hint"
    CONCEDE = "concede"  # asks first when conceding costs schneider or schwarz; else concedes


LOBBY_KINDS = frozenset({Kind.JOIN, Kind.LEAVE, Kind.ADD_AI, Kind.START})
PREFIX = "sk:"
CUSTOM_ID_LIMIT = 100
"""Discord's longest custom_id (the longest move, a declaration with every announcement, takes about 80)."""
_TABLE = r"sk:(?P<table>\d+)"
MOVE_TEMPLATE = _TABLE + r":s(?P<seq>\d+):(?P<action>[a-z][A-Za-z0-9 ]*)"
MENU_TEMPLATE = _TABLE + r":s(?P<seq>\d+):menu(?P<index>\d):(?P<verb>[a-z]*)"
KIND_TEMPLATE = _TABLE + rf":(?P<seq>s?-?\d+):(?P<kind>{'|'.join(Kind)}):(?P<arg>[^:]*)"
OUTDATED_TEMPLATE = _TABLE + r":s?-?\d+:[a-z]+:[^:]*"
"""Ids of the shapes drawn before moves carried their action (`sk:7:s12:card:CJ`, `sk:7:s12:bids:`)."""


@dataclass(frozen=True, slots=True)
class MoveControl:
    """A button or menu choice that makes a move, drawn at the table's moment `seq`."""

    table_id: int
    seq: int
    action: Action


@dataclass(frozen=True, slots=True)
class TableControl:
    """A control that is not a move. `seq` None: drawn before moments were carried."""

    table_id: int
    seq: int | None
    kind: Kind
    arg: str = ""


@dataclass(frozen=True, slots=True)
class Unreadable:
    """An id or menu choice in our shape whose action does not parse (forged): refused, changing nothing."""

    text: str


@dataclass(frozen=True, slots=True)
class Outdated:
    """A control drawn before moves carried their action: refused as stale, as any control whose moment is past."""

    table_id: int


Control = MoveControl | TableControl | Unreadable | Outdated


@runtime_checkable
class ControlDesk(Protocol):
    """Where a pressed control goes: built once in the bot's setup_hook (`bot.services.controls`)."""

    async def on_control(self, interaction: discord.Interaction, control: Control) -> None: ...


def desk_of(interaction: discord.Interaction) -> ControlDesk | None:
    """The bot's control desk (None while the bot is still starting: its services are not built yet)."""
    desk = getattr(getattr(interaction.client, "services", None), "controls", None)
    return desk if isinstance(desk, ControlDesk) else None


def _checked(custom_id: str) -> str:
    if len(custom_id) > CUSTOM_ID_LIMIT:
        raise ValueError(f"custom_id over Discord's {CUSTOM_ID_LIMIT} characters: {custom_id!r}")
    return custom_id


def move_id(table_id: int, seq: int, action: Action) -> str:
    return _checked(f"{PREFIX}{table_id}:s{seq}:{action}")


def menu_id(table_id: int, seq: int, index: int, verb: str = "") -> str:
    return _checked(f"{PREFIX}{table_id}:s{seq}:menu{index}:{verb}")


def kind_id(table_id: int, seq: int | None, kind: Kind, arg: str = "") -> str:
    moment = "0" if seq is None else f"s{seq}"
    return _checked(f"{PREFIX}{table_id}:{moment}:{kind}:{arg}")


def _seq(text: str) -> int | None:
    return int(text[1:]) if text.startswith("s") else None


def read_move(table_id: int, seq: int, text: str) -> MoveControl | Unreadable:
    try:
        return MoveControl(table_id, seq, parse_action(text))
    except MalformedText:
        return Unreadable(text)


def parse_control(custom_id: str, values: tuple[str, ...] = ()) -> Control | None:
    """The control a custom_id (and a menu's chosen values) names; None when it is not in any shape of ours."""
    if match := re.fullmatch(MOVE_TEMPLATE, custom_id):
        return read_move(int(match["table"]), int(match["seq"]), match["action"])
    if match := re.fullmatch(MENU_TEMPLATE, custom_id):
        return read_move(int(match["table"]), int(match["seq"]), " ".join((match["verb"], *values)).strip())
    if match := re.fullmatch(KIND_TEMPLATE, custom_id):
        return TableControl(int(match["table"]), _seq(match["seq"]), Kind(match["kind"]), match["arg"])
    if match := re.fullmatch(OUTDATED_TEMPLATE, custom_id):
        return Outdated(int(match["table"]))
    return None


async def _dispatch(interaction: discord.Interaction, control: Control) -> None:
    desk = desk_of(interaction)
    if desk is None:  # the bot is starting: its listener for stray components says so
        return
    await desk.on_control(interaction, control)


class MoveButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=MOVE_TEMPLATE):
    """A button that makes one move: its id carries the action's text."""

    def __init__(self, table_id: int, seq: int, action: Action, *, label: str = "?",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, disabled: bool = False,
                 row: int | None = None, emoji: discord.PartialEmoji | None = None) -> None:
        super().__init__(discord.ui.Button(label=fit(label, Limit.BUTTON_LABEL), style=style, disabled=disabled,
                                           emoji=emoji, custom_id=move_id(table_id, seq, action)), row=row)
        self.control: MoveControl | Unreadable = MoveControl(table_id, seq, action)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> MoveButton:
        control = read_move(int(match["table"]), int(match["seq"]), match["action"])
        pressed = cls(control.table_id, control.seq, control.action) if isinstance(control, MoveControl) else \
            cls(int(match["table"]), int(match["seq"]), Pass())
        pressed.control = control
        return pressed

    async def callback(self, interaction: discord.Interaction) -> None:
        await _dispatch(interaction, self.control)


class MoveMenu(discord.ui.DynamicItem[discord.ui.Select[Any]], template=MENU_TEMPLATE):
    """A menu of moves: each option's value is an action's text (or completes the action its `verb` names)."""

    def __init__(self, table_id: int, seq: int, index: int = 0, verb: str = "", *,
                 options: list[discord.SelectOption] | None = None, placeholder: str | None = None,
                 min_values: int = 1, max_values: int = 1, row: int | None = None) -> None:
        super().__init__(discord.ui.Select(custom_id=menu_id(table_id, seq, index, verb),
                                           options=options or [discord.SelectOption(label="-")],
                                           placeholder=placeholder, min_values=min_values,
                                           max_values=max_values), row=row)
        self.table_id, self.seq, self.verb = table_id, seq, verb

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> MoveMenu:
        return cls(int(match["table"]), int(match["seq"]), int(match["index"]), match["verb"])

    async def callback(self, interaction: discord.Interaction) -> None:
        text = " ".join((self.verb, *self.item.values)).strip()
        await _dispatch(interaction, read_move(self.table_id, self.seq, text))


class KindButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=KIND_TEMPLATE):
    """A button that is not a move (lobby, show my hand, hint, concede that may ask first)."""

    def __init__(self, table_id: int, seq: int | None, kind: Kind, arg: str = "", *, label: str = "?",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, row: int | None = None) -> None:
        super().__init__(discord.ui.Button(label=fit(label, Limit.BUTTON_LABEL), style=style,
                                           custom_id=kind_id(table_id, seq, kind, arg)), row=row)
        self.control = TableControl(table_id, seq, kind, arg)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> KindButton:
        return cls(int(match["table"]), _seq(match["seq"]), Kind(match["kind"]), match["arg"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _dispatch(interaction, self.control)


DYNAMIC_ITEMS = (MoveButton, MoveMenu, KindButton)


def lobby_view(table_id: int, lang: Lang, open_: bool) -> discord.ui.View:
    """The lobby's buttons stand for the lobby as a whole (moment 0): they hold while the table is open,
    and are refused once it started or closed. Stable ids: a player's click is not undone by a join."""
    seq = 0
    view = discord.ui.View(timeout=None)
    if open_:
        view.add_item(KindButton(table_id, seq, Kind.JOIN, label=t(lang, "button.join"),
                                 style=discord.ButtonStyle.success))
        view.add_item(KindButton(table_id, seq, Kind.LEAVE, label=t(lang, "button.leave")))
        view.add_item(KindButton(table_id, seq, Kind.ADD_AI, "normal", label=t(lang, "button.add_ai")))
        view.add_item(KindButton(table_id, seq, Kind.START, label=t(lang, "button.start"),
                                 style=discord.ButtonStyle.primary))
    return view


def show_hand_view(table_id: int, seq: int, lang: Lang) -> discord.ui.View:
    """"Show my hand" shows the hand as it is now, whenever it is pressed (while the table plays)."""
    view = discord.ui.View(timeout=None)
    view.add_item(KindButton(table_id, seq, Kind.SHOW, label=t(lang, "button.show_hand"),
                             style=discord.ButtonStyle.primary))
    return view


def confirm_concession_view(table_id: int, seq: int, lang: Lang) -> discord.ui.View:
    """The one button that concedes although it costs schneider or schwarz (drawn for the moment `seq`)."""
    view = discord.ui.View(timeout=None)
    view.add_item(MoveButton(table_id, seq, Concede(), label=t(lang, "button.concede_anyway"),
                             style=discord.ButtonStyle.danger))
    return view


def _discard_label(card: Card, view: SeatView, lang: Lang, deck: Deck) -> str:
    """A card in the discard menu; the two taken up from the skat say so."""
    label = card_label(card, deck, lang)
    return t(lang, "select.from_skat", card=label) if card in view.from_skat else label


def hand_view(table_id: int, seq: int, view: SeatView, lang: Lang, deck: Deck = FRENCH,
              hints: bool = False, *, lead_waits: bool = False) -> discord.ui.View:
    """The controls for one seat at the table's moment `seq`: bids, skat, discard, declaration, cards,
    Kontra/Re, claim, and a hint on the player's turn at a table that offers hints. "Yes" carries the bid
    it holds, so even its label cannot be misread. `lead_waits`: the others may still say Kontra, so the
    cards are shown but not yet playable."""
    out = discord.ui.View(timeout=None)
    legal = view.legal_actions
    my_turn = view.current_seat == view.seat
    phase = view.phase
    if phase is Phase.AUCTION and my_turn:
        bids = [a for a in legal if isinstance(a, Bid)]
        if bids:
            out.add_item(MoveButton(table_id, seq, bids[0], label=t(lang, "button.bid", value=bids[0].value),
                                    style=discord.ButtonStyle.primary, row=0))
        if Hold() in legal:
            out.add_item(MoveButton(table_id, seq, Hold(), label=t(lang, "button.hold", value=view.bid),
                                    style=discord.ButtonStyle.primary, row=0))
        out.add_item(MoveButton(table_id, seq, Pass(), label=t(lang, "button.pass"),
                                style=discord.ButtonStyle.danger, row=0))
        if len(bids) > 1:
            out.add_item(MoveMenu(table_id, seq, placeholder=t(lang, "select.bid"), row=1, options=[
                discord.SelectOption(label=str(bid.value), value=str(bid)) for bid in bids[1:26]]))
    elif phase is Phase.SKAT and my_turn:
        out.add_item(MoveButton(table_id, seq, PickUpSkat(), label=t(lang, "button.pickup"),
                                style=discord.ButtonStyle.primary, row=0))
        contracts = [a.contract for a in legal if isinstance(a, Declare)]
        for select in _game_selects(table_id, seq, contracts, lang, deck, t(lang, "select.hand_game")):
            out.add_item(select)
    elif phase is Phase.DISCARD and my_turn:
        cards = sorted(view.hand, key=lambda c: sort_key(None, c))
        out.add_item(MoveMenu(table_id, seq, 0, "discard", placeholder=t(lang, "select.discard"), row=0,
                              min_values=2, max_values=2, options=[
                                       discord.SelectOption(label=_discard_label(c, view, lang, deck), value=c.iss,
                                                            emoji=CARD_EMOJIS.emoji(c, deck, lang)) for c in cards]))
    elif phase is Phase.DECLARE and my_turn:
        contracts = [a.contract for a in legal if isinstance(a, Declare)]
        for select in _game_selects(table_id, seq, contracts, lang, deck, t(lang, "select.game")):
            out.add_item(select)
    elif phase is Phase.PLAY:
        playable = {a.card for a in legal if isinstance(a, PlayCard)} if not lead_waits else set()
        cards = sorted(view.hand, key=lambda c: sort_key(view.contract.game if view.contract else None, c))
        for index, card in enumerate(cards):
            out.add_item(MoveButton(
                table_id, seq, PlayCard(card), label=card_label(card, deck, lang), row=index // 5,
                emoji=CARD_EMOJIS.emoji(card, deck, lang),
                style=discord.ButtonStyle.primary if card in playable else discord.ButtonStyle.secondary,
                disabled=card not in playable))
    for action in view.side_actions:
        if isinstance(action, Kontra):
            out.add_item(MoveButton(table_id, seq, action, label=t(lang, "button.kontra"),
                                    style=discord.ButtonStyle.danger, row=3))
        elif isinstance(action, Re):
            out.add_item(MoveButton(table_id, seq, action, label=t(lang, "button.re"),
                                    style=discord.ButtonStyle.danger, row=3))
        elif isinstance(action, Claim):
            out.add_item(MoveButton(table_id, seq, action, label=t(lang, "button.claim"), row=4))
        elif isinstance(action, Concede):  # asks first when it costs schneider or schwarz
            out.add_item(KindButton(table_id, seq, Kind.CONCEDE, label=t(lang, "button.concede"), row=4))
    if hints and my_turn and legal:
        out.add_item(KindButton(table_id, seq, Kind.HINT, label=t(lang, "button.hint"), row=4))
    return out


def _game_selects(table_id: int, seq: int, contracts: list[Contract], lang: Lang, deck: Deck,
                  placeholder: str) -> list[MoveMenu]:
    """The declarable games as menus of at most 25 options (Discord's limit), a game type never split
    across two menus: under Danish rules a hand game has over forty variants."""
    chunks: list[list[Contract]] = []
    for game in dict.fromkeys(c.game for c in contracts):
        variants = [c for c in contracts if c.game is game]
        if chunks and len(chunks[-1]) + len(variants) <= 25:
            chunks[-1].extend(variants)
        else:
            chunks.append(variants[:25])
    selects = []
    for index, chunk in enumerate(chunks[:3]):
        games = ", ".join(dict.fromkeys(game_name(c.game, lang, deck) for c in chunk))
        label = placeholder if len(chunks) == 1 else f"{placeholder} ({games})"
        options = [discord.SelectOption(label=fit(contract_name(c, lang, deck), Limit.OPTION_LABEL),
                                        value=str(Declare(c))) for c in chunk]
        selects.append(MoveMenu(table_id, seq, index, placeholder=fit(label, Limit.SELECT_PLACEHOLDER),
                                options=options, row=1 + index))
    return selects
