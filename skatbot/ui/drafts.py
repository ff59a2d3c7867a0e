"""The presenter's core: what a table's messages should say, drawn from a `TableView` alone.

Pure: no Discord call, no clock, no storage. The presenter compares these drafts with what it showed and
sends only the difference. A hand's controls are a value (`HandControls`): equal values draw the same
buttons, so they are compared as values, never by the text of the components they make.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import discord

from skatbot.engine.views import SeatView
from skatbot.models import Deck
from skatbot.tables.view import TableView

from .cards import FRENCH
from .controls import hand_view
from .languages import SOURCE, Lang
from .render import board_text, hand_text


@dataclass(frozen=True, slots=True)
class HandControls:
    """What one hand's buttons and menus are drawn from (a stand-in's hand has none)."""

    table_id: int
    seq: int  # the table's moment they are drawn for: a control carries it, and is refused once it passed
    view: SeatView
    lang: Lang
    deck: Deck
    hints: bool
    lead_waits: bool
    stand_in: bool

    def draw(self) -> discord.ui.View:
        if self.stand_in:
            return discord.ui.View(timeout=None)
        return hand_view(self.table_id, self.seq, self.view, self.lang, self.deck, hints=self.hints,
                         lead_waits=self.lead_waits)


@dataclass(frozen=True, slots=True)
class HandDraft:
    """One player's hand message as the table's view has it."""

    user_id: int
    number: int  # the deal's index (0-based, as the log counts)
    seat: int
    my_turn: bool
    lang: Lang
    text: str
    controls: HandControls

    @property
    def view(self) -> SeatView:
        return self.controls.view

    @property
    def seq(self) -> int:
        return self.controls.seq


def hand_draft(table: TableView, seat: int, lang: Lang, deck: Deck = FRENCH) -> HandDraft | None:
    """The hand message of the human in `seat` (None for a computer player's seat, or before a deal)."""
    if seat >= len(table.seats):
        return None
    occupant = table.occupant_of_seat(seat)
    if occupant.user_id is None or occupant.is_ai:
        return None
    view = table.seats[seat]
    stand_in = not occupant.plays_itself  # left, or timed out: an AI plays for them, the hand says so
    my_turn = view.current_seat == seat and not stand_in
    lead_waits = my_turn and table.lead_waits  # the others may still say Kontra: the cards wait
    return HandDraft(occupant.user_id, table.deal_number, seat, my_turn, lang,
                     hand_text(table, view, lang, deck, stand_in=stand_in, lead_waits=lead_waits),
                     HandControls(table.id, table.seq, view, lang, deck, table.hints, lead_waits, stand_in))


def hand_drafts(table: TableView, lang_of: Callable[[int], Lang], deck: Deck = FRENCH) -> list[HandDraft]:
    """Every human's hand message, each in its player's language (`lang_of(user_id)`)."""
    out = []
    for seat in range(len(table.seats)):
        user_id = table.occupant_of_seat(seat).user_id
        draft = hand_draft(table, seat, lang_of(user_id) if user_id is not None else SOURCE, deck)
        if draft is not None:
            out.append(draft)
    return out


def private_draft(table: TableView, user_id: int, lang: Lang, deck: Deck = FRENCH) -> HandDraft:
    """One player's own hand (refused, like `seat_of_user`, for someone without a seat in the deal)."""
    draft = hand_draft(table, table.seat_of_user(user_id), lang, deck)
    assert draft is not None, "a seated user is a human"
    return draft


def board_draft(table: TableView, lang: Lang, deck: Deck = FRENCH) -> str | None:
    """The current deal's public board while it is played (None when no deal is being played)."""
    if not table.playing or table.board is None:
        return None
    return board_text(table, table.board, table.deal_number, lang, deck)


__all__ = ["HandControls", "HandDraft", "board_draft", "hand_draft", "hand_drafts", "private_draft"]
