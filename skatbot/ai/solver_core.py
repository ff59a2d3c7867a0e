"""The double-dummy search's inner loop, compiled to machine code by numba.

Why compiled: an exact solve of a full deal visits hundreds of thousands of positions, and pure Python
manages about 140,000 a second, which put a ten-trick solve at about 2 s. The same alpha-beta compiled
is roughly fifty times faster, so the strong AI can solve many more sampled worlds per decision.

Everything here works on int64 card masks in the solver's internal order (see `solver.Layout`): each
effective suit is a contiguous run of bits in ascending trick power, trumps on top. One call searches
from the start of a trick (`start`); `solver.Solver` handles a trick already begun in Python around it.

The game's tables are one int64 array of shape (4, 32):
  row 0: effective suit per card (trumps = 4)      row 1: mask of the higher cards of its suit
  row 2: value per card (points, or 1 per card)    row 3: MISC_* entries below
The transposition table is shared by every solver of the process; each solver (and each `reset`) gets
its own context number inside the key, so entries never leak between games or deals.
"""

from __future__ import annotations

import numpy as np
from numba import njit

INF = 1_000
TT_BITS = 20
TT_SIZE = 1 << TT_BITS
TT_MASK = TT_SIZE - 1
CONTEXT_SHIFT = 35  # key2: third hand (bits 0..31), leader (32, 33), second hand's top card (34), context
CONTEXT_LIMIT = 1 << 27  # context numbers cycle below this (key bits 35..61)
HINT_FIRST = 1 << 62  # sort key that puts the table's move first
HEURISTIC_SHIFT = 48  # sort keys: a heuristic's rank above this bit, the history counts below it

# row 3 of the game's tables
MISC_FOLLOW = 0  # 0..4: mask of each effective suit
MISC_TRUMP = 5  # the trump suit (4), or -1 in null
MISC_DECLARER = 6
MISC_NULL = 7  # 1 in null: the declarer minimises
MISC_MAXIMISES = 8  # 8..10: 1 where that seat maximises the declarer's value
MISC_TRUMP_MASK = 11
MISC_CONTEXT = 12
MISC_BLOCKS = 13  # how many blocks of interchangeable cards `_canonical` reads (0: none: the plain search)
MISC_GROUPS = 14  # 14..17: the even-numbered blocks' union and lowest cards, then the odd-numbered ones'
MISC_BLOCK_LIST = 18  # 18..22: the blocks (masks), MISC_BLOCKS of them
MAX_BLOCKS = 5

_DEBRUIJN = np.array([0, 1, 28, 2, 29, 14, 24, 3, 30, 22, 20, 15, 25, 17, 4, 8, 31, 27, 13, 23, 21, 19, 16, 7,
                      26, 12, 18, 6, 11, 5, 10, 9], dtype=np.int64)


class SearchAborted(Exception):
    """The node budget ran out before the search finished (the caller drops this sample)."""


@njit(cache=True)
def _bit(single: int) -> int:
    """Index of the one set bit of `single` (below 2**32)."""
    return _DEBRUIJN[((single * 0x077CB531) & 0xFFFFFFFF) >> 27]


@njit(cache=True)
def _popcount(mask: int) -> int:
    mask = mask - ((mask >> 1) & 0x55555555)
    mask = (mask & 0x33333333) + ((mask >> 2) & 0x33333333)
    return (((mask + (mask >> 4)) & 0x0F0F0F0F) * 0x01010101 & 0xFFFFFFFF) >> 24


@njit(cache=True)
def _moves(tables: np.ndarray, legal: int, alive: int, out: np.ndarray, row: int) -> int:
    """One card per class of equivalent cards (next to each other among live cards, same value) into
    out[row]; returns how many."""
    return equivalent_moves(tables[1], tables[2], legal, alive, out, row)


@njit(cache=True)
def equivalent_moves(above: np.ndarray, values: np.ndarray, legal: int, alive: int, out: np.ndarray,
                     row: int) -> int:
    """`_moves` for any search with its own card order (`above`) and values (the Ramsch search's too)."""
    count = 0
    rest = legal
    while rest:
        low = rest & -rest
        rest ^= low
        card = _bit(low)
        higher = alive & above[card]
        if higher:
            next_up = higher & -higher
            if next_up & legal and values[card] == values[_bit(next_up)]:
                continue
        out[row, count] = card
        count += 1
    return count


@njit(cache=True)
def _sort_desc(moves: np.ndarray, keys: np.ndarray, row: int, count: int) -> None:
    """Insertion sort of moves[row, :count] by keys, highest first (stable: ties keep card order)."""
    for i in range(1, count):
        card = moves[row, i]
        key = keys[row, i]
        j = i - 1
        while j >= 0 and keys[row, j] < key:
            moves[row, j + 1] = moves[row, j]
            keys[row, j + 1] = keys[row, j]
            j -= 1
        moves[row, j + 1] = card
        keys[row, j + 1] = key


@njit(cache=True)
def _claims(misc: np.ndarray, mine: int, first: int, second: int) -> bool:
    """Whether the leader takes every trick: each of its cards outranks every other card of its suit, and
    it holds enough trumps to draw the others' before they can ruff."""
    theirs = first | second
    for suit in range(5):
        follow = misc[MISC_FOLLOW + suit]
        held = mine & follow
        if held and (held & -held) < (theirs & follow):
            return False
    trumps = misc[MISC_TRUMP_MASK]
    if theirs & trumps:
        need = max(_popcount(first & trumps), _popcount(second & trumps))
        if _popcount(mine & trumps) < need:
            return False
    return True


@njit(cache=True)
def _above_all(mine: int, theirs: int) -> int:
    """The cards of `mine` above every card of `theirs` (one effective suit)."""
    if theirs == 0:
        return mine
    top = theirs
    top |= top >> 1
    top |= top >> 2
    top |= top >> 4
    top |= top >> 8
    top |= top >> 16
    return mine & ~top


@njit(cache=True)
def _sum_values(values: np.ndarray, mask: int) -> int:
    total = 0
    while mask:
        low = mask & -mask
        mask ^= low
        total += values[_bit(low)]
    return total


@njit(cache=True)
def _index(ha: int, hb: int, hc: int, leader: int, context: int) -> int:
    mixed = (ha * 0x5BD1E995) ^ (hb * 0x1B873593) ^ (hc * 0x2C1B3C6D) ^ (leader + context * 3) * 0x297A2D39
    return (mixed ^ (mixed >> 29)) & TT_MASK


@njit(cache=True)
def _slot(tt: np.ndarray, index: int, key1: int, key2: int) -> int:
    if tt[index, 0] == key1 and tt[index, 1] == key2:
        return index
    if tt[index ^ 1, 0] == key1 and tt[index ^ 1, 1] == key2:
        return index ^ 1
    return -1


@njit(cache=True)
def _stored(tt: np.ndarray, ha: int, hb: int, hc: int, leader: int, context: int) -> int:
    """The packed entry of a trick start, or -1 when the table does not hold it."""
    key1 = ha | ((hb & 0x7FFFFFFF) << 32)
    key2 = hc | (leader << 32) | ((hb >> 31) << 34) | (context << CONTEXT_SHIFT)
    slot = _slot(tt, _index(ha, hb, hc, leader, context), key1, key2)
    return tt[slot, 2] if slot >= 0 else -1


@njit(cache=True)
def _last_answer(tables: np.ndarray, legal: int, top: int, top_seat: int, seat: int, maximises: bool,
                 gained: int) -> int:
    """The declarer's gain (or loss, negative) from a trick whose best card so far is `top`, held by
    `top_seat`, worth `gained` without the last card, when the last hand (`seat`, with `legal` cards)
    takes it or lets it go as suits its side."""
    declarer = tables[3, MISC_DECLARER]
    beaters = tables[1, top]
    trumps = tables[3, MISC_TRUMP_MASK]
    if not (trumps >> top) & 1:
        beaters |= trumps
    kept = gained if top_seat == declarer else -gained
    taken = gained if seat == declarer else -gained
    if (legal & beaters) == 0:
        return kept
    if (legal & ~beaters) == 0:
        return taken
    return max(kept, taken) if maximises else min(kept, taken)


@njit(cache=True)
def _highest(mask: int) -> int:
    """The highest card of a non-empty mask."""
    mask |= mask >> 1
    mask |= mask >> 2
    mask |= mask >> 4
    mask |= mask >> 8
    mask |= mask >> 16
    return _bit(mask ^ (mask >> 1))


@njit(cache=True)
def _lead_answer(tables: np.ndarray, legal1: int, legal2: int, card: int, leader: int, second: int,
                 third: int) -> int:
    """The declarer's likely gain (negative: loss) from the lead `card` alone: the second hand beats it
    (with its highest card that does) or not, whichever suits its side given the last hand's answer."""
    misc = tables[3]
    gained = tables[2, card]
    max1 = misc[MISC_MAXIMISES + second] == 1
    max2 = misc[MISC_MAXIMISES + third] == 1
    beaters = tables[1, card]
    trumps = misc[MISC_TRUMP_MASK]
    if not (trumps >> card) & 1:
        beaters |= trumps
    ducked = _last_answer(tables, legal2, card, leader, third, max2, gained)
    if (legal1 & beaters) == 0:
        return ducked
    beaten = _last_answer(tables, legal2, _highest(legal1 & beaters), second, third, max2, gained)
    if (legal1 & ~beaters) == 0:
        return beaten
    return max(ducked, beaten) if max1 else min(ducked, beaten)


@njit(cache=True)
def _beats(tables: np.ndarray, card: int, top: int, led: int, trump: int) -> bool:
    suit = tables[0, card]
    return card > top and (suit == led or suit == trump)  # noqa: SIM109 (numba-compiled)


@njit(cache=True)
def _gaps(misc: np.ndarray, live: int) -> bool:
    """Whether some block has a live card above a gone one (else the position is canonical already). A block's
    live cards sit at its bottom exactly when adding its lowest card carries past all of them; blocks of one
    group are never next to each other, so one addition tests the whole group."""
    even = live & misc[MISC_GROUPS]
    odd = live & misc[MISC_GROUPS + 2]
    return ((even + misc[MISC_GROUPS + 1]) & even | (odd + misc[MISC_GROUPS + 3]) & odd) != 0


@njit(cache=True)
def _canonical(misc: np.ndarray, ha: int, hb: int, hc: int) -> tuple[int, int, int]:
    """The three hands with the live cards of each block moved to its lowest places, in order.

    A block is a run of cards next to each other in one effective suit and worth the same (the 7, 8 and 9
    of a suit, the four jacks; a whole suit where every card counts one): once some of its cards are gone,
    only the order of the live ones matters, so the position is the same game as the one whose live cards
    fill the block from the bottom. Searching that one instead lets the transposition table meet positions
    that differ only in which of such cards fell earlier."""
    live = ha | hb | hc
    for i in range(MISC_BLOCK_LIST, MISC_BLOCK_LIST + misc[MISC_BLOCKS]):
        block = misc[i]
        alive = live & block
        slot = block & -block
        if (alive + slot) & alive == 0:  # none live, or already at the bottom
            continue
        na, nb, nc = ha & ~block, hb & ~block, hc & ~block
        rest = alive
        while rest:
            low = rest & -rest
            rest ^= low
            if ha & low:
                na |= slot
            elif hb & low:
                nb |= slot
            else:
                nc |= slot
            slot <<= 1
        ha, hb, hc = na, nb, nc
    return ha, hb, hc


@njit(cache=True)
def start(tables: np.ndarray, tt: np.ndarray, history: np.ndarray, scratch: np.ndarray, counters: np.ndarray,
          ha: int, hb: int, hc: int, leader: int, rest: int, alpha: int, beta: int) -> int:
    """Fail-soft alpha-beta from the start of a trick: the declarer's value of the cards in the hands (ha
    leads, hb and hc follow), exact if it lies strictly inside (alpha, beta), else a bound on that side.

    The three plays of a trick are searched as three nested loops, each with its own window; the
    transposition table (bounds and best lead) is used at trick starts only, and with many tricks left
    the third hand's answers are first looked up there (an enhanced transposition cutoff). Trumps that
    outrank every trump of the other side win their trick whenever played: their points bound the
    value from below (the declarer's) or above (the defenders'). Move ordering matters most (leads and the second
    hand's cards by the trick's likely outcome for their side, as the later hands would answer: a
    ten-trick solve visits about a third of the nodes it needed with history alone, a Ramsch solve under
    half). counters = [nodes, limit].
    """
    if rest <= alpha or rest == 0:
        return rest
    if beta <= 0:
        return 0
    block = tables[0]
    values = tables[2]
    misc = tables[3]
    if misc[MISC_BLOCKS] and _gaps(misc, ha | hb | hc):
        ha, hb, hc = _canonical(misc, ha, hb, hc)
    trump = misc[MISC_TRUMP]
    declarer = misc[MISC_DECLARER]
    second_seat = (leader + 1) % 3
    third_seat = (leader + 2) % 3
    if misc[MISC_NULL] == 0 and _claims(misc, ha, hb, hc):
        return rest if leader == declarer else 0
    if (ha & (ha - 1)) == 0:  # the last trick is forced
        c0, c1, c2 = _bit(ha), _bit(hb), _bit(hc)
        led = block[c0]
        top, winner = c0, leader
        if _beats(tables, c1, top, led, trump):
            top, winner = c1, second_seat
        if _beats(tables, c2, top, led, trump):
            winner = third_seat
        return values[c0] + values[c1] + values[c2] if winner == declarer else 0

    trumps = misc[MISC_TRUMP_MASK]
    if trumps:
        if leader == declarer:
            mine, theirs = ha & trumps, (hb | hc) & trumps
        elif second_seat == declarer:
            mine, theirs = hb & trumps, (ha | hc) & trumps
        else:
            mine, theirs = hc & trumps, (ha | hb) & trumps
        sure = _above_all(mine, theirs)
        if sure:
            low0 = _sum_values(values, sure)
            if low0 >= beta:
                return low0
        lost = _above_all(theirs, mine)
        if lost:
            high0 = rest - _sum_values(values, lost)
            if high0 <= alpha:
                return high0

    context = misc[MISC_CONTEXT]
    key1 = ha | ((hb & 0x7FFFFFFF) << 32)  # below 2**63: no overflow, compiled or not
    key2 = hc | (leader << 32) | ((hb >> 31) << 34) | (context << CONTEXT_SHIFT)
    index = _index(ha, hb, hc, leader, context)
    slot = _slot(tt, index, key1, key2)
    hint = -1
    if slot >= 0:
        packed = tt[slot, 2]
        low, high, hint = packed & 0xFFFF, (packed >> 16) & 0xFFFF, ((packed >> 32) & 0xFF) - 1
        if low >= beta:
            return low
        if high <= alpha:
            return high
        if low > alpha:
            alpha = low
        if high < beta:
            beta = high
    else:
        low, high = 0, rest

    moves = scratch[0]
    keys = scratch[1]
    alive = ha | hb | hc
    row0 = _popcount(alive)
    row1, row2 = row0 - 1, row0 - 2
    count0 = _moves(tables, ha, alive, moves, row0)
    if count0 > 1:
        for i in range(count0):
            card = moves[row0, i]
            if card == hint:
                keys[row0, i] = HINT_FIRST
            else:
                led = block[card]
                legal1 = hb & misc[MISC_FOLLOW + led]
                if legal1 == 0:
                    legal1 = hb
                legal2 = hc & misc[MISC_FOLLOW + led]
                if legal2 == 0:
                    legal2 = hc
                signed = _lead_answer(tables, legal1, legal2, card, leader, second_seat, third_seat)
                keys[row0, i] = ((signed if misc[MISC_MAXIMISES + leader] == 1 else -signed) << HEURISTIC_SHIFT
                                 ) + history[leader, card]
        _sort_desc(moves, keys, row0, count0)
    max0 = misc[MISC_MAXIMISES + leader] == 1
    max1 = misc[MISC_MAXIMISES + second_seat] == 1
    max2 = misc[MISC_MAXIMISES + third_seat] == 1
    deep = _popcount(ha) >= 6  # probing every answer pays only where subtrees are large
    weight0 = 1 << (2 * _popcount(ha))
    weight1 = 1 << (2 * _popcount(hb))
    a0, b0 = alpha, beta
    best0 = -INF if max0 else INF
    best_move = moves[row0, 0]
    for i0 in range(count0):
        c0 = moves[row0, i0]
        ha2 = ha ^ (1 << c0)
        counters[0] += 1
        if counters[0] > counters[1]:
            raise SearchAborted()
        led = block[c0]
        legal1 = hb & misc[MISC_FOLLOW + led]
        if legal1 == 0:
            legal1 = hb
        count1 = _moves(tables, legal1, alive, moves, row1)
        legal2 = hc & misc[MISC_FOLLOW + led]
        if legal2 == 0:
            legal2 = hc
        if count1 > 1:  # the trick's likely outcome for the second hand's side first (who takes the first
            # two cards if the third hand, when an opponent of the card on top, beats it when it can)
            for i in range(count1):
                card = moves[row1, i]
                if _beats(tables, card, c0, led, trump):
                    top, top_seat = card, second_seat
                else:
                    top, top_seat = c0, leader
                gained = values[c0] + values[card]
                signed = _last_answer(tables, legal2, top, top_seat, third_seat, max2, gained)
                keys[row1, i] = ((signed if max1 else -signed) << HEURISTIC_SHIFT) + history[second_seat, card]
            _sort_desc(moves, keys, row1, count1)
        a1, b1 = a0, b0
        best1 = -INF if max1 else INF
        for i1 in range(count1):
            c1 = moves[row1, i1]
            hb2 = hb ^ (1 << c1)
            if _beats(tables, c1, c0, led, trump):
                top, top_seat = c1, second_seat
            else:
                top, top_seat = c0, leader
            value01 = values[c0] + values[c1]
            count2 = _moves(tables, legal2, alive, moves, row2)
            if count2 > 1:  # the trick's outcome first: best for the third hand's side
                for i in range(count2):
                    card = moves[row2, i]
                    winner = third_seat if _beats(tables, card, top, led, trump) else top_seat
                    gained = value01 + values[card]
                    signed = gained if winner == declarer else -gained
                    keys[row2, i] = signed if max2 else -signed
                _sort_desc(moves, keys, row2, count2)
            a2, b2 = a1, b1
            best2 = -INF if max2 else INF
            first2 = 0
            if count2 > 1 and deep:  # enhanced transposition cutoff: a stored bound of one answer may settle it
                for i in range(count2):
                    card = moves[row2, i]
                    winner = third_seat if _beats(tables, card, top, led, trump) else top_seat
                    gained = value01 + values[card]
                    banked = gained if winner == declarer else 0
                    hc2 = hc ^ (1 << card)
                    xa, xb, xc = ha2, hb2, hc2
                    if misc[MISC_BLOCKS] and _gaps(misc, xa | xb | xc):  # the child as it is stored
                        xa, xb, xc = _canonical(misc, xa, xb, xc)
                    if winner == leader:
                        packed = _stored(tt, xa, xb, xc, leader, context)
                    elif winner == second_seat:
                        packed = _stored(tt, xb, xc, xa, second_seat, context)
                    else:
                        packed = _stored(tt, xc, xa, xb, third_seat, context)
                    if packed < 0:
                        continue
                    if max2 and banked + (packed & 0xFFFF) >= b2:
                        best2 = banked + (packed & 0xFFFF)
                        first2 = count2
                        break
                    if not max2 and banked + ((packed >> 16) & 0xFFFF) <= a2:
                        best2 = banked + ((packed >> 16) & 0xFFFF)
                        first2 = count2
                        break
            for i2 in range(first2, count2):
                c2 = moves[row2, i2]
                hc2 = hc ^ (1 << c2)
                winner = third_seat if _beats(tables, c2, top, led, trump) else top_seat
                gained = value01 + values[c2]
                left = rest - gained
                banked = gained if winner == declarer else 0
                if banked + left <= a2:
                    v = banked + left
                elif banked >= b2:
                    v = banked
                elif winner == leader:
                    v = banked + start(tables, tt, history, scratch, counters, ha2, hb2, hc2, leader, left,
                                       a2 - banked, b2 - banked)
                elif winner == second_seat:
                    v = banked + start(tables, tt, history, scratch, counters, hb2, hc2, ha2, second_seat, left,
                                       a2 - banked, b2 - banked)
                else:
                    v = banked + start(tables, tt, history, scratch, counters, hc2, ha2, hb2, third_seat, left,
                                       a2 - banked, b2 - banked)
                if max2:
                    if v > best2:
                        best2 = v
                        if v > a2:
                            a2 = v
                            if v >= b2:
                                break
                elif v < best2:
                    best2 = v
                    if v < b2:
                        b2 = v
                        if v <= a2:
                            break
            v = best2
            if max1:
                if v > best1:
                    best1 = v
                    if v > a1:
                        a1 = v
                        if v >= b1:
                            history[second_seat, c1] += weight1
                            break
            elif v < best1:
                best1 = v
                if v < b1:
                    b1 = v
                    if v <= a1:
                        history[second_seat, c1] += weight1
                        break
        v = best1
        if max0:
            if v > best0:
                best0, best_move = v, c0
                if v > a0:
                    a0 = v
                    if v >= b0:
                        history[leader, c0] += weight0
                        break
        elif v < best0:
            best0, best_move = v, c0
            if v < b0:
                b0 = v
                if v <= a0:
                    history[leader, c0] += weight0
                    break

    if best0 <= alpha:
        high = best0
    elif best0 >= beta:
        low = best0
    else:
        low = high = best0
    if slot < 0:  # a free slot of the pair, else replace the first
        slot = index
        if tt[index, 1] >> CONTEXT_SHIFT == context and tt[index ^ 1, 1] >> CONTEXT_SHIFT != context:
            slot = index ^ 1
    tt[slot, 0] = key1
    tt[slot, 1] = key2
    tt[slot, 2] = low | (high << 16) | ((best_move + 1) << 32)
    return best0


def new_tables() -> np.ndarray:
    """An empty tables array for one game (filled by the solver)."""
    return np.zeros((4, 32), dtype=np.int64)


def new_transposition_table() -> np.ndarray:
    """Rows of [key1, key2, low | high << 16 | (move + 1) << 32]; all zero means empty."""
    return np.zeros((TT_SIZE, 3), dtype=np.int64)


def new_scratch() -> np.ndarray:
    """Move lists and sort keys per number of cards still in the hands (rows 0..30)."""
    return np.zeros((2, 31, 12), dtype=np.int64)
