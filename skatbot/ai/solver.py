"""Double-dummy solver for suit, grand and null games: every hand open, the rest of the deal played best.

Why its own representation: the engine's `Deal.apply` keeps history and checks rules, far too slow for
the hundreds of thousands of positions a search visits. Here each card is re-numbered so that every
effective suit is one contiguous run of bits in ascending trick power, with the trumps on top. Then
"who wins the trick" is a comparison of two numbers, following suit is one mask, and two cards of one
player are interchangeable when no other live card of their suit lies between them.

The value of a position is what the declarer's side scores from the cards still in play (including
the current trick): card points (`Mode.POINTS`), cards taken (`Mode.TRICKS`, three per trick: used for
schwarz), or, for null, cards taken with the declarer minimising (`Mode.NULL`: 0 means the null is won).
Searches are alpha-beta with a transposition table at trick starts, move ordering (table move, history,
trick outcome for the last hand), equivalent-card reduction, null-window "can the declarer reach T"
tests, and MTD(f) for exact values.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cache

from skatbot.engine.cards import CARDS
from skatbot.engine.games import TRICK_TABLES, TRUMP, GameType

INF = 1_000


class Mode(Enum):
    """What the search counts for the declarer's side."""

    POINTS = "points"
    TRICKS = "tricks"
    NULL = "null"


class SearchAborted(Exception):
    """The node budget ran out before the search finished (the caller drops this sample)."""


@dataclass(frozen=True, slots=True)
class Layout:
    """Card numbering for one game: effective suits as contiguous bit runs in ascending trick power."""

    game: GameType
    to_internal: tuple[int, ...]  # engine index -> internal index
    to_engine: tuple[int, ...]  # internal index -> engine index
    block: tuple[int, ...]  # internal index -> effective suit (TRUMP = 4)
    follow: tuple[int, ...]  # effective suit -> internal mask
    above: tuple[int, ...]  # internal index -> mask of the higher cards of its effective suit
    points: tuple[int, ...]  # internal index -> card points
    trump_block: int  # TRUMP, or -1 in null (no trumps)

    def internal_mask(self, mask: int) -> int:
        return _remap(mask, self.to_internal)

    def engine_mask(self, mask: int) -> int:
        return _remap(mask, self.to_engine)


def _remap(mask: int, table: tuple[int, ...]) -> int:
    """A mask with each set bit i moved to bit table[i] (engine <-> solver card order)."""
    out = 0
    while mask:
        low = mask & -mask
        out |= 1 << table[low.bit_length() - 1]
        mask ^= low
    return out


@cache
def layout(game: GameType) -> Layout:
    """The internal numbering for `game` (built once per game type)."""
    if game is GameType.RAMSCH:
        raise ValueError("the solver plays declared games (suit, grand, null), not ramsch")
    table = TRICK_TABLES[game]
    order: list[int] = []
    for suit in (0, 1, 2, 3, TRUMP):
        members = [c.index for c in CARDS if table.effective_suit[c.index] == suit]
        order.extend(sorted(members, key=lambda i: table.power[i]))
    to_internal = [0] * 32
    for internal, engine in enumerate(order):
        to_internal[engine] = internal
    block = tuple(table.effective_suit[engine] for engine in order)
    follow = [0] * 5
    for internal, suit in enumerate(block):
        follow[suit] |= 1 << internal
    above = tuple(follow[block[i]] & ~((2 << i) - 1) for i in range(32))
    points = tuple(CARDS[engine].points for engine in order)
    trump_block = -1 if game is GameType.NULL else TRUMP
    return Layout(game, tuple(to_internal), tuple(order), block, tuple(follow), above, points, trump_block)


@dataclass(frozen=True, slots=True)
class Position:
    """A card-play position in engine terms: each seat's hand (mask), the trick leader, the trick so far."""

    hands: tuple[int, int, int]
    leader: int
    trick: tuple[int, ...] = ()  # engine card indices, in play order

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % 3


class Solver:
    """Searches one game type with one declarer. Reuse it across positions of the same deal to share
    its transposition table; call `reset()` before another deal (a PIMC sample)."""

    def __init__(self, game: GameType, declarer: int, mode: Mode | None = None,
                 node_limit: int | None = None) -> None:
        if declarer not in (0, 1, 2):
            raise ValueError(f"no seat {declarer}")
        if mode is None:
            mode = Mode.NULL if game is GameType.NULL else Mode.POINTS
        if (mode is Mode.NULL) != (game is GameType.NULL):
            raise ValueError("null games are searched in null mode, and only they")
        self.game = game
        self.declarer = declarer
        self.mode = mode
        self.layout = layout(game)
        self.node_limit = node_limit if node_limit is not None else 1 << 62  # raise SearchAborted beyond
        self.nodes = 0
        self._values = self.layout.points if mode is Mode.POINTS else (1,) * 32
        self._tt: dict[int, tuple[int, int, int]] = {}
        self._reduced: dict[int, list[int]] = {}
        self._history = [[0] * 32 for _ in range(3)]
        self._build()

    # --- public API ------------------------------------------------------------------------------

    def reset(self) -> None:
        """Forget the transposition table (needed only to bound memory between deals)."""
        self._tt.clear()
        self._reduced.clear()

    def value(self, position: Position) -> int:
        """Exact value for the declarer's side of the cards still in play.

        Null-window searches narrow [low, high] by bisection (MTD(f) stepping by the returned bound
        alone creeps one point at a time here, as fail-soft bounds at trick starts are loose).
        In null mode the value is 0 when the declarer can avoid every trick, else 1.
        """
        if self.mode is Mode.NULL:
            return 0 if self.null_won(position) else 1
        low, high = 0, self._rest(position)
        while low < high:
            beta = (low + high + 1) // 2
            bound = self.search(position, beta - 1, beta)
            if bound >= beta:
                low = bound
            else:
                high = bound
        return low

    def reaches(self, position: Position, target: int) -> bool:
        """Whether the declarer's side takes at least `target` (points, or cards in tricks/null mode)."""
        return self.search(position, target - 1, target) >= target

    def null_won(self, position: Position) -> bool:
        """Null: whether the declarer can avoid every remaining trick."""
        if self.mode is not Mode.NULL:
            raise ValueError("not a null search")
        return not self.reaches(position, 1)

    def schwarz(self, position: Position) -> bool:
        """Whether the declarer can take every remaining trick (a solver in TRICKS mode)."""
        if self.mode is not Mode.TRICKS:
            raise ValueError("schwarz needs a solver in tricks mode")
        return self.reaches(position, self._rest(position))

    def play(self, position: Position, card: int) -> tuple[Position, int]:
        """The position after the seat to move plays engine card `card` (assumed legal), and what the
        declarer's side gained if that closed the trick (points, or cards in tricks/null mode)."""
        seat = position.to_move
        hands = list(position.hands)
        if not hands[seat] >> card & 1:
            raise ValueError(f"seat {seat} does not hold card {card}")
        hands[seat] ^= 1 << card
        trick = position.trick + (card,)
        if len(trick) < 3:
            return Position((hands[0], hands[1], hands[2]), position.leader, trick), 0
        lay = self.layout
        internal = [lay.to_internal[c] for c in trick]
        led = lay.block[internal[0]]
        top, winner = internal[0], 0
        for pos in (1, 2):
            c = internal[pos]
            if c > top and (lay.block[c] == led or lay.block[c] == lay.trump_block):
                top, winner = c, pos
        seat_won = (position.leader + winner) % 3
        gain = sum(self._values[c] for c in internal) if seat_won == self.declarer else 0
        return Position((hands[0], hands[1], hands[2]), seat_won, ()), gain

    def search(self, position: Position, alpha: int, beta: int) -> int:
        """Fail-soft alpha-beta: the exact value if it lies strictly inside (alpha, beta), else a bound."""
        lay = self.layout
        hands = [lay.internal_mask(h) for h in position.hands]
        trick = [lay.to_internal[c] for c in position.trick]
        for c in trick:
            if any(h >> c & 1 for h in hands):
                raise ValueError("a card of the trick is still in a hand")
        leader = position.leader
        ha, hb, hc = hands[leader], hands[(leader + 1) % 3], hands[(leader + 2) % 3]
        played = len(trick)
        counts = [ha.bit_count() + (played > 0), hb.bit_count() + (played > 1), hc.bit_count()]
        if played > 2 or len(set(counts)) != 1:
            raise ValueError(f"hands and trick do not fit together: {counts} cards with {played} played")
        values = self._values
        rest = sum(values[i] for i in range(32) if (ha | hb | hc) >> i & 1)
        if played == 0:
            return self._start(ha, hb, hc, leader, rest, alpha, beta)
        c0 = trick[0]
        rest += values[c0]
        alive = ha | hb | hc
        for c in trick:
            alive |= 1 << c
        if played == 1:
            return self._second(ha, hb, hc, leader, c0, alive, rest, alpha, beta)
        c1 = trick[1]
        rest += values[c1]
        block = lay.block
        b = block[c0]
        if c1 > c0 and (block[c1] == b or block[c1] == lay.trump_block):
            best, wpos = c1, 1
        else:
            best, wpos = c0, 0
        v01 = values[c0] + values[c1]
        return self._third(ha, hb, hc, leader, c0, c1, best, wpos, v01, alive, rest, alpha, beta)

    def _rest(self, position: Position) -> int:
        cards = position.hands[0] | position.hands[1] | position.hands[2]
        for c in position.trick:
            cards |= 1 << c
        if self.mode is Mode.POINTS:
            return sum(CARDS[i].points for i in range(32) if cards >> i & 1)
        return cards.bit_count()

    # --- the search ------------------------------------------------------------------------------

    def _build(self) -> None:
        """Create the search as closures over local tables (much faster than attribute look-ups)."""
        lay = self.layout
        block, follow, above = lay.block, lay.follow, lay.above
        trump = lay.trump_block
        values = self._values
        tt = self._tt
        reduced = self._reduced
        history = self._history
        declarer = self.declarer
        null = self.mode is Mode.NULL
        # the maximiser of the declarer's value: the declarer, except in null
        is_max = tuple((seat == declarer) != null for seat in range(3))
        seat_of = tuple(tuple((leader + pos) % 3 for pos in range(3)) for leader in range(3))
        solver = self
        single = tuple([c] for c in range(32))

        def moves_of(legal: int, alive: int) -> list[int]:
            """One card per class of equivalent cards (adjacent among live cards, same value)."""
            if not legal & (legal - 1):
                return single[legal.bit_length() - 1]
            key = legal | alive << 32
            out = reduced.get(key)
            if out is None:
                out = []
                m = legal
                while m:
                    low = m & -m
                    m ^= low
                    c = low.bit_length() - 1
                    nxt = alive & above[c]
                    if nxt:
                        nb = nxt & -nxt
                        if nb & legal and values[c] == values[nb.bit_length() - 1]:
                            continue
                    out.append(c)
                reduced[key] = out
            return out

        trump_mask = follow[TRUMP] if trump == TRUMP else 0
        blocks = tuple(follow[b] for b in range(5) if follow[b])

        def claims(mine: int, theirs: int, first: int, second: int) -> bool:
            """Whether the leader takes every trick: each of its cards outranks every other card of its
            suit, and it holds enough trumps to draw the others' before they can ruff."""
            for suit in blocks:
                m = mine & suit
                if m and (m & -m) < (theirs & suit):
                    return False
            their_trumps = theirs & trump_mask
            if their_trumps:
                need = max((first & trump_mask).bit_count(), (second & trump_mask).bit_count())
                if (mine & trump_mask).bit_count() < need:
                    return False
            return True

        def start(ha: int, hb: int, hc: int, leader: int, rest: int, alpha: int, beta: int) -> int:
            if rest <= alpha or rest == 0:
                return rest
            if beta <= 0:
                return 0
            if leader == declarer and not null and claims(ha, hb | hc, hb, hc):
                return rest
            key = ha | hb << 32 | hc << 64 | leader << 96
            entry = tt.get(key)
            if entry is not None:
                low, high, hint = entry
                if low >= beta:
                    return low
                if high <= alpha:
                    return high
                if low > alpha:
                    alpha = low
                if high < beta:
                    beta = high
            else:
                low, high, hint = 0, rest, -1
            alive = ha | hb | hc
            moves = moves_of(ha, alive)
            if len(moves) > 1:
                hist = history[leader]
                moves = sorted(moves, key=hist.__getitem__, reverse=True)
                if hint >= 0 and moves[0] != hint:
                    moves.remove(hint)
                    moves.insert(0, hint)
            a0, b0 = alpha, beta
            best_move = moves[0]
            if is_max[leader]:
                best = -INF
                for c in moves:
                    v = second(ha ^ (1 << c), hb, hc, leader, c, alive, rest, alpha, beta)
                    if v > best:
                        best, best_move = v, c
                        if v > alpha:
                            alpha = v
                            if v >= beta:
                                history[leader][c] += 1 << 3 * ha.bit_count()
                                break
            else:
                best = INF
                for c in moves:
                    v = second(ha ^ (1 << c), hb, hc, leader, c, alive, rest, alpha, beta)
                    if v < best:
                        best, best_move = v, c
                        if v < beta:
                            beta = v
                            if v <= alpha:
                                history[leader][c] += 1 << 3 * ha.bit_count()
                                break
            if best <= a0:
                high = best
            elif best >= b0:
                low = best
            else:
                low = high = best
            tt[key] = (low, high, best_move)
            return best

        def second(ha: int, hb: int, hc: int, leader: int, c0: int, alive: int, rest: int, alpha: int,
                   beta: int) -> int:
            solver.nodes += 1
            if solver.nodes > solver.node_limit:
                raise SearchAborted
            b = block[c0]
            legal = hb & follow[b] or hb
            moves = moves_of(legal, alive)
            seat = seat_of[leader][1]
            if len(moves) > 1:
                moves = sorted(moves, key=history[seat].__getitem__, reverse=True)
            v0 = values[c0]
            if is_max[seat]:
                best = -INF
                for c in moves:
                    if c > c0 and (block[c] == b or block[c] == trump):
                        v = third(ha, hb ^ (1 << c), hc, leader, c0, c, c, 1, v0 + values[c], alive, rest,
                                  alpha, beta)
                    else:
                        v = third(ha, hb ^ (1 << c), hc, leader, c0, c, c0, 0, v0 + values[c], alive, rest,
                                  alpha, beta)
                    if v > best:
                        best = v
                        if v > alpha:
                            alpha = v
                            if v >= beta:
                                history[seat][c] += 1 << 3 * hb.bit_count()
                                break
            else:
                best = INF
                for c in moves:
                    if c > c0 and (block[c] == b or block[c] == trump):
                        v = third(ha, hb ^ (1 << c), hc, leader, c0, c, c, 1, v0 + values[c], alive, rest,
                                  alpha, beta)
                    else:
                        v = third(ha, hb ^ (1 << c), hc, leader, c0, c, c0, 0, v0 + values[c], alive, rest,
                                  alpha, beta)
                    if v < best:
                        best = v
                        if v < beta:
                            beta = v
                            if v <= alpha:
                                history[seat][c] += 1 << 3 * hb.bit_count()
                                break
            return best

        def last(ha: int, hb: int, hc: int, leader: int) -> int:
            """The final trick, forced: the declarer's value from it."""
            c0, c1, c2 = ha.bit_length() - 1, hb.bit_length() - 1, hc.bit_length() - 1
            b = block[c0]
            top, w = c0, 0
            if c1 > top and (block[c1] == b or block[c1] == trump):
                top, w = c1, 1
            if c2 > top and (block[c2] == b or block[c2] == trump):
                w = 2
            if seat_of[leader][w] == declarer:
                return values[c0] + values[c1] + values[c2]
            return 0

        def third(ha: int, hb: int, hc: int, leader: int, c0: int, c1: int, top: int, wpos: int, v01: int,
                  alive: int, rest: int, alpha: int, beta: int) -> int:
            b = block[c0]
            legal = hc & follow[b] or hc
            moves = moves_of(legal, alive)
            seats = seat_of[leader]
            maximise = is_max[seats[2]]
            if len(moves) == 1:
                outcomes = []
                c = moves[0]
                w = 2 if c > top and (block[c] == b or block[c] == trump) else wpos
                tv = v01 + values[c]
                outcomes = [(0, c, w, tv, seats[w] == declarer)]
            else:
                outcomes = []
                for c in moves:
                    w = 2 if c > top and (block[c] == b or block[c] == trump) else wpos
                    tv = v01 + values[c]
                    won = seats[w] == declarer
                    outcomes.append((tv if won else -tv, c, w, tv, won))
                outcomes.sort(reverse=maximise)
            best = -INF if maximise else INF
            final = not ha & (ha - 1)  # one card each left after this trick
            for _, c, w, tv, won in outcomes:
                hc2 = hc ^ (1 << c)
                left = rest - tv
                low = tv if won else 0
                if final:
                    if w == 0:
                        v = low + last(ha, hb, hc2, seats[0]) if ha else low
                    elif w == 1:
                        v = low + last(hb, hc2, ha, seats[1]) if ha else low
                    else:
                        v = low + last(hc2, ha, hb, seats[2]) if ha else low
                elif low + left <= alpha:
                    v = low + left
                elif low >= beta:
                    v = low
                elif w == 0:
                    v = low + start(ha, hb, hc2, seats[0], left, alpha - low, beta - low)
                elif w == 1:
                    v = low + start(hb, hc2, ha, seats[1], left, alpha - low, beta - low)
                else:
                    v = low + start(hc2, ha, hb, seats[2], left, alpha - low, beta - low)
                if maximise:
                    if v > best:
                        best = v
                        if v > alpha:
                            alpha = v
                            if v >= beta:
                                break
                elif v < best:
                    best = v
                    if v < beta:
                        beta = v
                        if v <= alpha:
                            break
            return best

        self._start = start
        self._second = second
        self._third = third


def position_of(hands: Sequence[int], leader: int, trick: Sequence[int] = ()) -> Position:
    """A `Position` from engine masks and card indices (validated by the solver when searched)."""
    if len(hands) != 3:
        raise ValueError("three hands are needed")
    return Position((hands[0], hands[1], hands[2]), leader, tuple(trick))


def position_from_deal(deal: object) -> Position:
    """The card-play position of an engine `Deal` in play (hands, trick leader, current trick)."""
    from skatbot.engine.deal import Deal, Phase

    if not isinstance(deal, Deal) or deal.phase is not Phase.PLAY:
        raise ValueError("the solver needs a deal in card play")
    return Position((deal.hand_mask(0), deal.hand_mask(1), deal.hand_mask(2)), deal.trick_leader,
                    tuple(card.index for _, card in deal.current_trick))
