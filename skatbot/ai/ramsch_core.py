"""Max-n search for the end of a Ramsch, compiled by numba: every seat minimises its own card points.

Why not the solver's paranoid mode here: late in a Ramsch what decides the score is who ends with the
most points, so the searching seat needs every seat's points (and the skat, which goes to the winner of
the last trick), not only a bound on its own. Max-n gives that vector: each seat in turn picks the card
that leaves it the fewest points; ties go to the card that leaves the searching seat the most (a
cautious assumption). There is no alpha-beta in max-n, so this is for the last few tricks only; a
transposition table at trick starts and the equivalent-card reduction keep it small.

Cards use the solver's internal numbering for grand (see `solver.Layout`): the jacks are the only trumps.
A result packs, per seat s, its points at bits 8*s (8 bits) and its tricks at bits 24+4*s (4 bits).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .solver_core import SearchAborted, _bit
from .solver_core import equivalent_moves as _moves

TT_BITS = 18
TT_SIZE = 1 << TT_BITS
TT_MASK = TT_SIZE - 1
CONTEXT_SHIFT = 35
CONTEXT_LIMIT = 1 << 27
UNSET = 1 << 40  # larger than any packed result

# params: [skat points, root seat, context, trump block]
P_SKAT = 0
P_ROOT = 1
P_CONTEXT = 2
P_TRUMP = 3

@njit(cache=True)
def points_of(result: int, seat: int) -> int:
    return (result >> (8 * seat)) & 0xFF


@njit(cache=True)
def _won(seat: int, points: int) -> int:
    """A packed result of one trick worth `points` taken by `seat`."""
    return (points << (8 * seat)) | (1 << (24 + 4 * seat))


@njit(cache=True)
def better(candidate: int, best: int, seat: int, root: int) -> bool:
    """Whether `seat` prefers `candidate` to `best`: fewer own points, then more for the root seat, then
    (any fixed order, so that the result does not depend on the order cards are tried) the larger packing."""
    if best == UNSET:
        return True
    own, old = points_of(candidate, seat), points_of(best, seat)
    if own != old:
        return own < old
    mine, before = points_of(candidate, root), points_of(best, root)
    if mine != before:
        return mine > before
    return candidate > best


@njit(cache=True)
def _winner(block: np.ndarray, c0: int, c1: int, c2: int, trump: int) -> int:
    """Position in the trick (0, 1, 2) of the card that takes it."""
    led = block[c0]
    top, at = c0, 0
    if c1 > top and (block[c1] == led or block[c1] == trump):
        top, at = c1, 1
    if c2 > top and (block[c2] == led or block[c2] == trump):
        at = 2
    return at


@njit(cache=True)
def search(tables: np.ndarray, tt: np.ndarray, scratch: np.ndarray, counters: np.ndarray, params: np.ndarray,
           ha: int, hb: int, hc: int, leader: int) -> int:
    """The packed max-n result of the cards in the hands from a trick start (ha leads, hb, hc follow),
    the skat's points going to the winner of the last trick. counters = [nodes, limit]."""
    block = tables[0]
    above = tables[1]
    values = tables[2]
    follow = tables[3]
    trump = params[P_TRUMP]
    root = params[P_ROOT]
    seats = (leader, (leader + 1) % 3, (leader + 2) % 3)
    if (ha & (ha - 1)) == 0:  # the last trick is forced
        c0, c1, c2 = _bit(ha), _bit(hb), _bit(hc)
        at = _winner(block, c0, c1, c2, trump)
        return _won(seats[at], values[c0] + values[c1] + values[c2] + params[P_SKAT])
    context = params[P_CONTEXT]
    key1 = ha | ((hb & 0x7FFFFFFF) << 32)
    key2 = hc | (leader << 32) | ((hb >> 31) << 34) | (context << CONTEXT_SHIFT)
    mixed = (ha * 0x5BD1E995) ^ (hb * 0x1B873593) ^ (hc * 0x2C1B3C6D) ^ (leader + context * 3) * 0x297A2D39
    index = (mixed ^ (mixed >> 29)) & TT_MASK
    if tt[index, 0] == key1 and tt[index, 1] == key2:
        return tt[index, 2]

    moves = scratch
    alive = ha | hb | hc
    row0 = 0
    tmp = alive
    while tmp:
        tmp &= tmp - 1
        row0 += 1
    row1, row2 = row0 - 1, row0 - 2
    count0 = _moves(above, values, ha, alive, moves, row0)
    best0 = UNSET
    for i0 in range(count0):
        c0 = moves[row0, i0]
        counters[0] += 1
        if counters[0] > counters[1]:
            raise SearchAborted()
        led = block[c0]
        legal1 = hb & follow[led]
        if legal1 == 0:
            legal1 = hb
        legal2 = hc & follow[led]
        if legal2 == 0:
            legal2 = hc
        count1 = _moves(above, values, legal1, alive, moves, row1)
        best1 = UNSET
        for i1 in range(count1):
            c1 = moves[row1, i1]
            count2 = _moves(above, values, legal2, alive, moves, row2)
            best2 = UNSET
            for i2 in range(count2):
                c2 = moves[row2, i2]
                at = _winner(block, c0, c1, c2, trump)
                winner = seats[at]
                ha2, hb2, hc2 = ha ^ (1 << c0), hb ^ (1 << c1), hc ^ (1 << c2)
                if at == 0:
                    rest = search(tables, tt, scratch, counters, params, ha2, hb2, hc2, seats[0])
                elif at == 1:
                    rest = search(tables, tt, scratch, counters, params, hb2, hc2, ha2, seats[1])
                else:
                    rest = search(tables, tt, scratch, counters, params, hc2, ha2, hb2, seats[2])
                v = rest + _won(winner, values[c0] + values[c1] + values[c2])
                if better(v, best2, seats[2], root):
                    best2 = v
            if better(best2, best1, seats[1], root):
                best1 = best2
        if better(best1, best0, seats[0], root):
            best0 = best1
    tt[index, 0] = key1
    tt[index, 1] = key2
    tt[index, 2] = best0
    return best0


def new_transposition_table() -> np.ndarray:
    """Rows of [key1, key2, packed result]; all zero means empty."""
    return np.zeros((TT_SIZE, 3), dtype=np.int64)


def new_scratch() -> np.ndarray:
    """Move lists per number of cards still in the hands (rows 0..30)."""
    return np.zeros((31, 12), dtype=np.int64)
