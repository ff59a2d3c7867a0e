"""Buttons and menus whose custom_id carries table, the moment they were drawn for, and intent.

Every control is a `DynamicItem`: discord.py rebuilds it from the custom_id when pressed, and its
callback hands a parsed `Control` to the bot's handler (`bot.control_handler`). The moment is the
table's sequence number (how many log entries it had) when the control was drawn, written `s<seq>`:
the table refuses a control whose moment has passed, so a stale "Yes (18)" never holds at 30. A bare
number there is a control drawn before sequence numbers were carried: it is refused as stale too.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord

from skatbot.engine import (
    Bid,
    Card,
    Claim,
    Concede,
    Contract,
    Declare,
    Discard,
    Hold,
    Kontra,
    Pass,
    Phase,
    PickUpSkat,
    PlayCard,
    Re,
)
from skatbot.engine.games import sort_key
from skatbot.engine.views import SeatView

from .cards import FRENCH, card_label, contract_name, game_name
from .emojis import CARD_EMOJIS
from .fit import Limit, fit
from .i18n import language_of, t
from .refusals import ServerError, refusal_reply

SELECT_KINDS = ("bids", "discard", "declare")
# Buttons and menus need distinct patterns: discord.py keeps one DynamicItem class per pattern, and a
# menu rebuilt as a button would lose the values the player chose.
_KIND_SELECT = "|".join(SELECT_KINDS)
TEMPLATE = rf"sk:(?P<table>\d+):(?P<seq>s?-?\d+):(?P<kind>(?!(?:{_KIND_SELECT}):)[a-z]+):(?P<arg>[^:]*)"
SELECT_TEMPLATE = rf"sk:(?P<table>\d+):(?P<seq>s?-?\d+):(?P<kind>{_KIND_SELECT}):(?P<arg>[^:]*)"


@dataclass(frozen=True, slots=True)
class Control:
    """What a pressed control asks for."""

    table_id: int
    seq: int | None  # the table's sequence number it was drawn at; None: drawn before they were carried
    kind: str
    arg: str = ""
    values: tuple[str, ...] = ()


ControlHandler = Callable[[discord.Interaction, Control], Awaitable[None]]


def custom_id(table_id: int, seq: int | None, kind: str, arg: str = "") -> str:
    moment = "0" if seq is None else f"s{seq}"
    return f"sk:{table_id}:{moment}:{kind}:{arg}"


def _seq(text: str) -> int | None:
    return int(text[1:]) if text.startswith("s") else None


def parse_custom_id(text: str, values: tuple[str, ...] = ()) -> Control | None:
    """The control a custom_id names (None when it is not one of ours)."""
    match = re.fullmatch(TEMPLATE, text) or re.fullmatch(SELECT_TEMPLATE, text)
    if match is None:
        return None
    return Control(int(match["table"]), _seq(match["seq"]), match["kind"], match["arg"], values)


async def _dispatch(interaction: discord.Interaction, control: Control) -> None:
    handler: ControlHandler | None = getattr(interaction.client, "control_handler", None)
    if handler is None:
        await interaction.response.send_message(
            refusal_reply(ServerError("error.starting"), language_of(str(interaction.locale))), ephemeral=True)
        return
    await handler(interaction, control)


class ControlButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    def __init__(self, table_id: int, seq: int | None, kind: str, arg: str = "", *, label: str = "?",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, disabled: bool = False,
                 row: int | None = None, emoji: discord.PartialEmoji | None = None) -> None:
        super().__init__(discord.ui.Button(label=fit(label, Limit.BUTTON_LABEL), style=style, disabled=disabled,
                                           emoji=emoji,
                                           custom_id=custom_id(table_id, seq, kind, arg)), row=row)
        self.control = Control(table_id, seq, kind, arg)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: Any, /) -> ControlButton:
        return cls(int(match["table"]), _seq(match["seq"]), match["kind"], match["arg"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _dispatch(interaction, self.control)


class ControlSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_TEMPLATE):
    def __init__(self, table_id: int, seq: int | None, kind: str, arg: str = "", *,
                 options: list[discord.SelectOption] | None = None, placeholder: str | None = None,
                 min_values: int = 1, max_values: int = 1, row: int | None = None) -> None:
        super().__init__(discord.ui.Select(custom_id=custom_id(table_id, seq, kind, arg),
                                           options=options or [discord.SelectOption(label="-")],
                                           placeholder=placeholder, min_values=min_values,
                                           max_values=max_values), row=row)
        self.control = Control(table_id, seq, kind, arg)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: Any, /) -> ControlSelect:
        return cls(int(match["table"]), _seq(match["seq"]), match["kind"], match["arg"])

    async def callback(self, interaction: discord.Interaction) -> None:
        values = tuple(self.item.values)
        control = self.control
        await _dispatch(interaction, Control(control.table_id, control.seq, control.kind, control.arg, values))


DYNAMIC_ITEMS = (ControlButton, ControlSelect)


def lobby_view(table_id: int, lang: str, open_: bool) -> discord.ui.View:
    """The lobby's buttons stand for the lobby as a whole (moment 0): they hold while the table is open,
    and are refused once it started or closed. Stable ids: a player's click is not undone by a join."""
    seq = 0
    view = discord.ui.View(timeout=None)
    if open_:
        view.add_item(ControlButton(table_id, seq, "join", label=t(lang, "button.join"),
                                    style=discord.ButtonStyle.success))
        view.add_item(ControlButton(table_id, seq, "leave", label=t(lang, "button.leave")))
        view.add_item(ControlButton(table_id, seq, "addai", "normal", label=t(lang, "button.add_ai")))
        view.add_item(ControlButton(table_id, seq, "start", label=t(lang, "button.start"),
                                    style=discord.ButtonStyle.primary))
    return view


def show_hand_view(table_id: int, seq: int, lang: str) -> discord.ui.View:
    """"Show my hand" shows the hand as it is now, whenever it is pressed (while the table plays)."""
    view = discord.ui.View(timeout=None)
    view.add_item(ControlButton(table_id, seq, "show", label=t(lang, "button.show_hand"),
                                style=discord.ButtonStyle.primary))
    return view


def confirm_concession_view(table_id: int, seq: int, lang: str) -> discord.ui.View:
    """The one button that concedes although it costs schneider or schwarz (drawn for the moment `seq`)."""
    view = discord.ui.View(timeout=None)
    view.add_item(ControlButton(table_id, seq, "concedeok", label=t(lang, "button.concede_anyway"),
                                style=discord.ButtonStyle.danger))
    return view


def _discard_label(card: Card, view: SeatView, lang: str, deck: str) -> str:
    """A card in the discard menu; the two taken up from the skat say so."""
    label = card_label(card, deck, lang)
    return t(lang, "select.from_skat", card=label) if card in view.from_skat else label


def hand_view(table_id: int, seq: int, view: SeatView, lang: str, deck: str = FRENCH,
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
        bids = [a.value for a in legal if isinstance(a, Bid)]
        if bids:
            out.add_item(ControlButton(table_id, seq, "bid", str(bids[0]), label=t(lang, "button.bid", value=bids[0]),
                                       style=discord.ButtonStyle.primary, row=0))
        if any(isinstance(a, Hold) for a in legal):
            out.add_item(ControlButton(table_id, seq, "hold", str(view.bid), label=t(lang, "button.hold", value=view.bid),
                                       style=discord.ButtonStyle.primary, row=0))
        out.add_item(ControlButton(table_id, seq, "pass", label=t(lang, "button.pass"),
                                   style=discord.ButtonStyle.danger, row=0))
        if len(bids) > 1:
            out.add_item(ControlSelect(table_id, seq, "bids", placeholder=t(lang, "select.bid"), row=1, options=[
                discord.SelectOption(label=str(v), value=str(v)) for v in bids[1:26]]))
    elif phase is Phase.SKAT and my_turn:
        out.add_item(ControlButton(table_id, seq, "pickup", label=t(lang, "button.pickup"),
                                   style=discord.ButtonStyle.primary, row=0))
        contracts = [a.contract for a in legal if isinstance(a, Declare)]
        for select in _game_selects(table_id, seq, contracts, lang, deck, t(lang, "select.hand_game")):
            out.add_item(select)
    elif phase is Phase.DISCARD and my_turn:
        cards = sorted(view.hand, key=lambda c: sort_key(None, c))
        out.add_item(ControlSelect(table_id, seq, "discard", placeholder=t(lang, "select.discard"), row=0,
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
            out.add_item(ControlButton(
                table_id, seq, "card", card.iss, label=card_label(card, deck, lang), row=index // 5,
                emoji=CARD_EMOJIS.emoji(card, deck, lang),
                style=discord.ButtonStyle.primary if card in playable else discord.ButtonStyle.secondary,
                disabled=card not in playable))
    for action in view.side_actions:
        if isinstance(action, Kontra):
            out.add_item(ControlButton(table_id, seq, "kontra", label=t(lang, "button.kontra"),
                                       style=discord.ButtonStyle.danger, row=3))
        elif isinstance(action, Re):
            out.add_item(ControlButton(table_id, seq, "re", label=t(lang, "button.re"),
                                       style=discord.ButtonStyle.danger, row=3))
        elif isinstance(action, Claim):
            out.add_item(ControlButton(table_id, seq, "claim", label=t(lang, "button.claim"), row=4))
        elif isinstance(action, Concede):
            out.add_item(ControlButton(table_id, seq, "concede", label=t(lang, "button.concede"), row=4))
    if hints and my_turn and legal:
        out.add_item(ControlButton(table_id, seq, "hint", label=t(lang, "button.hint"), row=4))
    return out


def _game_selects(table_id: int, seq: int, contracts: list[Contract], lang: str, deck: str,
                  placeholder: str) -> list[ControlSelect]:
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
        options = [discord.SelectOption(label=fit(contract_name(c, lang, deck), Limit.OPTION_LABEL), value=str(c)) for c in chunk]
        selects.append(ControlSelect(table_id, seq, "declare", str(index), placeholder=fit(label, Limit.SELECT_PLACEHOLDER),
                                     options=options, row=1 + index))
    return selects


def control_action(control: Control) -> Any:
    """The engine action a control stands for (None for controls that are not game actions)."""
    kind, arg, values = control.kind, control.arg, control.values
    if kind == "bid":
        return Bid(int(arg))
    if kind == "bids":
        return Bid(int(values[0]))
    if kind == "hold":
        return Hold()
    if kind == "pass":
        return Pass()
    if kind == "pickup":
        return PickUpSkat()
    if kind == "declare":
        return Declare(Contract.parse(values[0]))
    if kind == "discard":
        first, second = (Card.parse(v) for v in values)
        return Discard(first, second)
    if kind == "card":
        from skatbot.engine import PLAY

        return PLAY[Card.parse(arg).index]
    if kind == "kontra":
        return Kontra()
    if kind == "re":
        return Re()
    if kind == "claim":
        return Claim()
    if kind in ("concede", "concedeok"):  # concedeok: confirmed although it costs schneider or schwarz
        return Concede()
    return None
