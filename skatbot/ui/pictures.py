"""Pictures in messages: the hand in its owner's DM, the trick sheet under the result card, the list's chart.

Drawing never runs on the event loop: in the bot it runs in a worker process of its own (`draw_in`), so that
it takes neither the loop's time nor its interpreter lock; elsewhere (and should that process fail) in a
thread. skatbot.pictures caches what it drew by content: the same hand or deal is drawn once. Each picture carries alt text (its cards as text) for screen
readers, and a key, so that a hand message's picture is uploaded again only when the hand changed.
"""

from __future__ import annotations

import asyncio
import functools
import io
import logging
from collections.abc import Callable
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import discord

from skatbot.engine import Card, Phase
from skatbot.engine.games import sort_key
from skatbot.engine.views import SeatView
from skatbot.models import Deck, seen_number
from skatbot.pictures import Picture
from skatbot.pictures.charts import points_chart, standings_chart, totals_chart
from skatbot.pictures.hand import hand_picture
from skatbot.pictures.tricks import trick_sheet
from skatbot.tables.game import FinishedDeal
from skatbot.tables.view import TableView

from .cards import card_from_text, cards_text, rank_letters
from .i18n import t
from .languages import Lang
from .pacing import EditPacer

ALT_LIMIT = 1024
"""Discord's limit on an attachment's description."""

log = logging.getLogger(__name__)
_drawing: list[Executor] = []  # where pictures are drawn (see `draw_in`); empty: in a thread


def draw_in(executor: Executor | None) -> None:
    """Draw the pictures in `executor` (the bot's picture process) from now on; None: in a thread again."""
    _drawing[:] = [] if executor is None else [executor]


async def _drawn(draw: Callable[..., Picture], *args: Any, **kwargs: Any) -> Picture:
    call = functools.partial(draw, *args, **kwargs)
    if _drawing:
        try:
            return await asyncio.get_running_loop().run_in_executor(_drawing[0], call)
        except (BrokenProcessPool, RuntimeError) as error:  # the process died, or it was shut down
            log.warning("the picture process failed (%r); drawing in a thread", error)
    return await asyncio.to_thread(call)


@dataclass(frozen=True, slots=True)
class ShownPicture:
    """A picture ready to attach, and the key that says what it shows."""

    key: str
    picture: Picture
    filename: str = ""  # instead of the picture's own

    def file(self) -> discord.File:
        """A fresh `discord.File` (a file is consumed by one upload)."""
        return discord.File(io.BytesIO(self.picture.png), filename=self.filename or self.picture.filename,
                            description=self.picture.description[:ALT_LIMIT] or None)


def _hand(view: SeatView, deck: Deck, lang: Lang) -> tuple[tuple[Card, ...], frozenset[Card], str]:
    """The seat's cards sorted for the game, those to mark, and the key of their picture (the French deck's
    letters are the owner's language's)."""
    game = view.contract.game if view.contract is not None else None
    cards = tuple(sorted(view.hand, key=lambda c: sort_key(game, c)))
    marked: frozenset[Card] = frozenset()
    if view.is_declarer and view.picked_up and view.phase in (Phase.DISCARD, Phase.DECLARE):
        marked = frozenset(view.from_skat) & frozenset(cards)
    key = f"{deck}:{''.join(rank_letters(lang))}:{' '.join(c.iss for c in cards)}:{' '.join(sorted(c.iss for c in marked))}"
    return cards, marked, key


def hand_key(view: SeatView, deck: Deck, lang: Lang) -> str:
    """What the seat's hand picture shows (equal keys: the same picture)."""
    return _hand(view, deck, lang)[2]


def could_show_hand(description: str | None, view: SeatView) -> bool:
    """Whether a hand picture's alt text ("Your cards: ♣J ♠10 …", in any language and deck) names only cards
    that the seat held in this deal (its ten, or the skat it took up): a picture of this deal's hand, not of the
    same player's hand at another table."""
    shown = []
    for word in (description or "").split(":", 1)[-1].split():
        try:
            shown.append(card_from_text(word))
        except ValueError:
            return False
    played = {card for trick in view.tricks for i, card in enumerate(trick.cards) if trick.seat_of(i) == view.seat}
    played |= {card for seat, card in view.current_trick if seat == view.seat}
    held = set(view.hand) | played | set(view.from_skat) | (set(view.skat) if view.is_declarer else set())
    return bool(shown) and set(shown) <= held


async def hand_shown(view: SeatView, deck: Deck, lang: Lang, number: int = 0) -> ShownPicture:
    """The seat's hand, sorted for the game; right after the pickup (until the game is declared) the cards that
    came from the skat are marked. Only for that seat's own DM or ephemeral messages."""
    cards, marked, key = _hand(view, deck, lang)
    alt = t(lang, "picture.hand", cards=cards_text(cards, deck, lang))
    picture = await _drawn(hand_picture, cards, deck, marked, alt, rank_letters(lang))
    return ShownPicture(key, picture, f"hand-{seen_number(number)}.png")


async def tricks_shown(row: FinishedDeal, names: list[str], deck: Deck, lang: Lang) -> ShownPicture | None:
    """The finished deal's tricks and skat (None for a deal without tricks: all passed, or given up at once)."""
    deal = row.deal
    if not deal.tricks:
        return None
    alt = t(lang, "picture.tricks", number=seen_number(row.number), count=len(deal.tricks))
    picture = await _drawn(trick_sheet, names, tuple(deal.tricks), tuple(deal.skat), deck,
                           skat_label=t(lang, "picture.skat"), description=alt, letters=rank_letters(lang))
    return ShownPicture(f"tricks:{row.number}", picture)


async def list_chart(table: TableView, names: list[str], lang: Lang) -> ShownPicture | None:
    """Running totals per player over the series so far (None before the first deal is over)."""
    if not table.finished:
        return None
    scores = [list(row.place_scores) for row in table.finished]
    alt = t(lang, "picture.list", deals=len(scores))
    picture = await _drawn(totals_chart, names, scores, deal_label=t(lang, "picture.deal_axis"), description=alt)
    return ShownPicture(f"list:{len(scores)}", picture)


async def points_shown(name: str, points: list[tuple[datetime, int]], lang: Lang) -> ShownPicture | None:
    """A player's list points over time, from (finished_at, score) pairs (None without any)."""
    if not points:
        return None
    alt = t(lang, "picture.points", name=name, deals=len(points))
    picture = await _drawn(points_chart, name, points, description=alt)
    return ShownPicture(f"points:{len(points)}", picture)


class HandPictures:
    """Each player's hand picture: one DM message per deal, sent with the first hand message and given a new
    image only when the hand changed (a card played, the skat picked up or put away, the game named)."""

    def __init__(self) -> None:
        self._messages: dict[tuple[int, int, int], tuple[int, str]] = {}  # (table, deal, user) -> (id, key)
        self._locks: dict[tuple[int, int, int], asyncio.Lock] = {}
        self._wanted: dict[tuple[int, int, int], str] = {}  # the newest hand asked for (its picture's key)

    def knows(self, where: tuple[int, int, int]) -> bool:
        return where in self._messages

    def adopt(self, where: tuple[int, int, int], message_id: int) -> None:
        """The picture message of (table, deal, user) is this one (another process sent it): edit, not send."""
        self._messages[where] = (message_id, "")

    async def refresh(self, dm: Any, pacer: EditPacer, table_id: int, number: int, user_id: int, view: SeatView,
                      deck: Deck, lang: Lang) -> None:
        if not view.hand:  # the last card is played: the picture keeps the hand as it was
            return
        where = (table_id, number, user_id)
        wanted = self._wanted[where] = hand_key(view, deck, lang)
        shown = await hand_shown(view, deck, lang, number)
        async with self._locks.setdefault(where, asyncio.Lock()):  # one picture message, even for quick changes
            if self._wanted.get(where) == wanted:  # else a newer hand was asked for while this was drawn
                await self._show(dm, pacer, where, shown)

    async def _show(self, dm: Any, pacer: EditPacer, where: tuple[int, int, int], shown: ShownPicture) -> None:
        known = self._messages.get(where)
        if known is None:
            message = await dm.send(file=shown.file())
            self._messages[where] = (message.id, shown.key)
        elif known[1] != shown.key:
            self._messages[where] = (known[0], shown.key)
            picture = dm.get_partial_message(known[0])

            async def edit() -> None:
                await picture.edit(attachments=[shown.file()])

            await pacer.edit(known[0], edit)

    async def forget(self, pacer: EditPacer, table_id: int, number: int | None = None) -> None:
        """A finished deal's (or, without `number`, a closed table's) pictures are not changed again."""
        for where in [w for w in self._messages if w[0] == table_id and number in (None, w[1])]:
            message_id, _ = self._messages.pop(where)
            self._locks.pop(where, None)
            self._wanted.pop(where, None)
            await pacer.flush(message_id)
            await pacer.drop(message_id)


async def result_files(table: TableView, row: FinishedDeal, lang: Lang, deck: Deck) -> dict[str, Any]:
    """`file=` for the result card: the sheet of the deal's tricks (nothing for a deal without tricks)."""
    from .render import seat_name

    shown = await tricks_shown(row, [seat_name(table, seat, row.number, lang=lang) for seat in range(3)], deck, lang)
    return {"file": shown.file()} if shown is not None else {}


async def standings_shown(names: list[str], points: list[int], title: str, lang: Lang) -> ShownPicture | None:
    """A tournament's final list as a bar chart (None for nobody on it)."""
    if not names:
        return None
    alt = t(lang, "picture.standings", players=len(names), best=names[0], points=points[0])
    picture = await _drawn(standings_chart, names, points, title=title, axis=t(lang, "picture.standings_axis"),
                           description=alt)
    return ShownPicture(f"standings:{len(names)}", picture)
