"""Worlds a seat cannot tell apart from the real one: the unseen cards dealt consistently with its view.

A world gives every hidden hand (and the skat when this seat does not know it) cards that fit what the
seat has seen: cards played are gone, a seat that did not follow a suit holds none of it, open hands
and the declarer's own discard are fixed. Sampling is constructive and uniform over those worlds (no
rejection): the unseen cards fall into classes by where they may lie, the number of worlds for each way
of splitting the classes is counted, and a split is drawn in proportion. Cheap inference from the
declaration (the declarer of a suit game or grand holds its trumps) is a bounded preference on top.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache
from math import comb

from skatbot.engine.cards import mask_of
from skatbot.engine.games import TRICK_TABLES, TRUMP, GameType
from skatbot.engine.scoring import game_multiplier, matadors
from skatbot.engine.views import SeatView

from .knowledge import Knowledge, read_view

SKAT = 3
"""The slot number of the skat next to seats 0, 1, 2."""
INFERENCE_TRIES = 32
"""Draws spent looking for a world that fits the declaration before the last one is taken as it is."""


@dataclass(frozen=True, slots=True)
class World:
    """One full picture of the remaining cards: each seat's hand and the skat (engine masks)."""

    hands: tuple[int, int, int]
    skat: int


@dataclass(frozen=True, slots=True)
class Constraints:
    """Where each unseen card may lie, and how many cards each hidden slot holds."""

    known: World  # the cards already placed (own hand, open hands, a known skat)
    slots: tuple[int, ...]  # hidden slots: seats 0..2 and SKAT
    sizes: tuple[int, ...]  # cards to deal into each hidden slot
    allowed: tuple[int, ...]  # per hidden slot: the unseen cards it may receive (mask)
    unseen: int


def constraints(view: SeatView, know: Knowledge | None = None) -> Constraints:
    """What `view` implies about the unseen cards during card play."""
    know = know or read_view(view)
    played_now = {seat for seat, _ in view.current_trick}
    tricks_done = len(view.tricks)
    hands = [0, 0, 0]
    slots: list[int] = []
    sizes: list[int] = []
    allowed: list[int] = []
    for seat in range(3):
        if seat == view.seat:
            hands[seat] = know.hand
        elif seat in know.open_hands:
            hands[seat] = know.open_hands[seat]
        else:
            slots.append(seat)
            sizes.append(10 - tricks_done - (seat in played_now))
            allowed.append(know.possible(seat))
    skat = mask_of(view.skat)
    if not skat:
        slots.append(SKAT)
        sizes.append(2)
        allowed.append(know.unseen)
    if sum(sizes) != know.unseen.bit_count():
        raise ValueError(f"the view does not add up: {know.unseen.bit_count()} unseen cards "
                         f"for {sum(sizes)} places")
    known = World((hands[0], hands[1], hands[2]), skat)
    return Constraints(known, tuple(slots), tuple(sizes), tuple(allowed), know.unseen)


def _classes(c: Constraints) -> list[tuple[int, int]]:
    """The unseen cards grouped by the set of hidden slots they may go to: [(slot bits, mask)]."""
    groups: dict[int, int] = {}
    rest = c.unseen
    while rest:
        low = rest & -rest
        rest ^= low
        where = 0
        for i, mask in enumerate(c.allowed):
            if mask & low:
                where |= 1 << i
        if not where:
            raise ValueError("an unseen card fits nowhere: the view contradicts itself")
        groups[where] = groups.get(where, 0) | low
    return sorted(groups.items())


def _splits(n: int, where: int, room: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Ways to put n cards into the slots in `where` without overfilling `room`: counts per slot."""
    slots = [i for i in range(len(room)) if where >> i & 1]
    out: list[tuple[int, ...]] = []

    def place(k: int, left: int, acc: list[int]) -> None:
        if k == len(slots) - 1:
            if left <= room[slots[k]]:
                acc[slots[k]] = left
                out.append(tuple(acc))
                acc[slots[k]] = 0
            return
        for x in range(min(left, room[slots[k]]) + 1):
            acc[slots[k]] = x
            place(k + 1, left - x, acc)
        acc[slots[k]] = 0

    place(0, n, [0] * len(room))
    return out


def _multinomial(n: int, parts: tuple[int, ...]) -> int:
    out, left = 1, n
    for part in parts:
        out *= comb(left, part)
        left -= part
    return out


class Sampler:
    """Draws worlds uniformly among those consistent with one view."""

    def __init__(self, view: SeatView, know: Knowledge | None = None) -> None:
        self.view = view
        self.constraints = constraints(view, know)
        self._groups = _classes(self.constraints)
        sizes = self.constraints.sizes
        groups = self._groups

        @cache
        def count(k: int, room: tuple[int, ...]) -> int:
            if k == len(groups):
                return 1 if not any(room) else 0
            where, mask = groups[k]
            n = mask.bit_count()
            total = 0
            for split in _splits(n, where, room):
                after = tuple(r - s for r, s in zip(room, split, strict=True))
                total += _multinomial(n, split) * count(k + 1, after)
            return total

        self._count = count
        self.worlds = count(0, tuple(sizes))
        if self.worlds == 0:
            raise ValueError("no deal of the unseen cards fits this view")

    def draw(self, rng: random.Random) -> World:
        """One world, uniformly at random."""
        c = self.constraints
        room = c.sizes
        dealt = [0] * len(room)
        for k, (where, mask) in enumerate(self._groups):
            n = mask.bit_count()
            options = []
            for split in _splits(n, where, room):
                after = tuple(r - s for r, s in zip(room, split, strict=True))
                weight = _multinomial(n, split) * self._count(k + 1, after)
                if weight:
                    options.append((weight, split, after))
            pick = rng.randrange(sum(w for w, _, _ in options))
            chosen = 0
            while pick >= options[chosen][0]:
                pick -= options[chosen][0]
                chosen += 1
            _, split, after = options[chosen]
            cards = _bits(mask)
            rng.shuffle(cards)
            position = 0
            for slot, size in enumerate(split):
                for card in cards[position:position + size]:
                    dealt[slot] |= 1 << card
                position += size
            room = after
        hands = list(c.known.hands)
        skat = c.known.skat
        for slot, mask in zip(c.slots, dealt, strict=True):
            if slot == SKAT:
                skat = mask
            else:
                hands[slot] = mask
        return World((hands[0], hands[1], hands[2]), skat)

    def draw_plausible(self, rng: random.Random) -> World:
        """A world, preferring (within a few draws) one where the declarer's cards fit the declaration."""
        world = self.draw(rng)
        view = self.view
        if view.declarer is None or view.declarer == view.seat or view.contract is None:
            return world
        for _ in range(INFERENCE_TRIES):
            if plausible(view, world):
                return world
            world = self.draw(rng)
        return world


def plausible(view: SeatView, world: World) -> bool:
    """Whether the declarer's cards in `world` back the declared game (cheap rules of thumb).

    Suit game: at least five trumps among the declarer's cards, skat and played cards; grand: two jacks
    or an ace-rich hand; both: the game is worth the bid without schneider (the matadors on these twelve
    cards), as a declarer who does not mean to overbid counts before declaring, and a declarer who picked
    up the skat put no trump back into it (the normal level's declarers always do both); null: no
    judgement.
    """
    contract = view.contract
    declarer = view.declarer
    if contract is None or declarer is None:
        return True
    game = contract.game
    if game in (GameType.NULL, GameType.RAMSCH):
        return True
    table = TRICK_TABLES[game]
    played = 0
    for trick in view.tricks:
        for position, card in enumerate(trick.cards):
            if trick.seat_of(position) == declarer:
                played |= 1 << card.index
    for seat, card in view.current_trick:
        if seat == declarer:
            played |= 1 << card.index
    if not contract.hand and world.skat & table.follow_mask[TRUMP]:
        return False
    twelve = world.hands[declarer] | played | world.skat  # the skat counts as the declarer's either way
    steps = game_multiplier(contract, matadors(game, twelve), schneider=False, schwarz=False)
    if game.base_value * steps < view.bid:
        return False
    trumps = (twelve & table.follow_mask[TRUMP]).bit_count()
    if game is GameType.GRAND:
        aces = sum(1 for suit in range(4) if twelve >> (suit * 8 + 7) & 1)
        return trumps >= 2 or aces >= 3
    return trumps >= 5


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
