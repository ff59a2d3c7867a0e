"""Double-dummy solver for suit, grand and null games: every hand open, the rest of the deal played best.

Why its own representation: the engine's `Deal.apply` keeps history and checks rules, far too slow for
the hundreds of thousands of positions a search visits. Here each card is re-numbered so that every
effective suit is one contiguous run of bits in ascending trick power, with the trumps on top. Then
"who wins the trick" is a comparison of two numbers, following suit is one mask, and two cards of one
player are interchangeable when no other live card of their suit lies between them.

The value of a position is what the declarer's side scores from the cards still in play (including
the current trick): card points (`Mode.POINTS`), cards taken (`Mode.TRICKS`, three per trick: used for
schwarz), or, for null, cards taken with the declarer minimising (`Mode.NULL`: 0 means the null is won).
In Ramsch (`Mode.RAMSCH`) the "declarer" is the seat searching: it minimises its own card points and the
other two maximise them (a paranoid search), under grand's trick rules (only the jacks are trumps).
Searches are alpha-beta with a transposition table at trick starts, move ordering (leads: the table's
move, then the trick's likely outcome for the leader's side, then history; second hand: the same for
its side; last hand: the trick's outcome), equivalent-card reduction, null-window "can the declarer reach T"
tests, and bisection over null windows for exact values. Each trick start is searched as its canonical
position (`solver_core._canonical`: the live cards of a run of same-valued neighbours moved to its bottom),
so the table meets positions that differ only in which 7, 8 or 9 fell earlier (exact values of full deals: a
tenth fewer nodes and CPU at the median, in null three quarters fewer nodes; the 61 and 76 tests of a contract
verdict: a fifth fewer nodes; benchmarks/ai_speed.py --plain compares). The inner loop is compiled
(`solver_core`); this module keeps the card numbering, the validation and the public API.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cache

import numpy as np

from skatbot.engine.cards import CARDS, mask_of
from skatbot.engine.games import TRICK_TABLES, TRUMP, GameType
from skatbot.engine.views import SeatView

from . import solver_core
from .solver_core import INF, SearchAborted

__all__ = ["INF", "Layout", "Mode", "Position", "SearchAborted", "Solver", "layout", "position_from_deal",
           "position_of", "warm_up"]


class Mode(Enum):
    """What the search counts for the declarer's side."""

    POINTS = "points"
    TRICKS = "tricks"
    NULL = "null"
    RAMSCH = "ramsch"


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
                 node_limit: int | None = None, canonical: bool = True) -> None:
        if declarer not in (0, 1, 2):
            raise ValueError(f"no seat {declarer}")
        if mode is None:
            mode = Mode.NULL if game is GameType.NULL else Mode.RAMSCH if game is GameType.RAMSCH else Mode.POINTS
        if (mode is Mode.NULL) != (game is GameType.NULL):
            raise ValueError("null games are searched in null mode, and only they")
        if (mode is Mode.RAMSCH) != (game is GameType.RAMSCH):
            raise ValueError("ramsch is searched in ramsch mode (the searching seat minimising its points)")
        self.game = game
        self.declarer = declarer
        self.mode = mode
        self.layout = layout(GameType.GRAND if game is GameType.RAMSCH else game)
        self._values = self.layout.points if mode in (Mode.POINTS, Mode.RAMSCH) else (1,) * 32
        null = mode in (Mode.NULL, Mode.RAMSCH)  # the declarer's seat minimises
        # the maximiser of the declarer's value: the declarer, except in null
        self._maximises = tuple((seat == declarer) != null for seat in range(3))
        self._counters = np.array([0, 0], dtype=np.int64)  # nodes searched, limit
        self.node_limit = node_limit if node_limit is not None else 1 << 62  # raise SearchAborted beyond
        self._history = np.zeros((3, 32), dtype=np.int64)
        self._tables = self._game_tables(canonical)

    @property
    def nodes(self) -> int:
        """Positions searched so far (second cards of tricks), the unit of the node budget."""
        return int(self._counters[0])

    @property
    def node_limit(self) -> int:
        return int(self._counters[1])

    @node_limit.setter
    def node_limit(self, limit: int) -> None:
        self._counters[1] = min(limit, (1 << 62))

    def _game_tables(self, canonical: bool) -> np.ndarray:
        """The compiled search's view of this game (see `solver_core`); `canonical`: trick starts searched as
        their canonical position (`solver_core._canonical`), the same values from fewer nodes."""
        lay = self.layout
        tables = solver_core.new_tables()
        tables[0] = lay.block
        tables[1] = lay.above
        tables[2] = self._values
        misc = tables[3]
        misc[solver_core.MISC_FOLLOW:solver_core.MISC_FOLLOW + 5] = lay.follow
        misc[solver_core.MISC_TRUMP] = lay.trump_block
        misc[solver_core.MISC_DECLARER] = self.declarer
        misc[solver_core.MISC_NULL] = int(self.mode is Mode.NULL)
        misc[solver_core.MISC_MAXIMISES:solver_core.MISC_MAXIMISES + 3] = self._maximises
        misc[solver_core.MISC_TRUMP_MASK] = lay.follow[TRUMP] if lay.trump_block == TRUMP else 0
        misc[solver_core.MISC_CONTEXT] = _new_context()
        if canonical:
            found = blocks(lay, self._values)
            assert len(found) <= solver_core.MAX_BLOCKS
            misc[solver_core.MISC_BLOCK_LIST:solver_core.MISC_BLOCK_LIST + len(found)] = found
            misc[solver_core.MISC_BLOCKS] = len(found)
            for parity in (0, 1):
                group = found[parity::2]
                misc[solver_core.MISC_GROUPS + 2 * parity] = sum(group)
                misc[solver_core.MISC_GROUPS + 2 * parity + 1] = sum(b & -b for b in group)
        return tables

    # --- public API ------------------------------------------------------------------------------

    def reset(self) -> None:
        """Forget the transposition table: a new context number hides the old entries."""
        self._tables[3, solver_core.MISC_CONTEXT] = _new_context()

    def value(self, position: Position, low: int = 0, high: int | None = None) -> int:
        """Exact value for the declarer's side of the cards still in play.

        Null-window searches narrow [low, high] by bisection (MTD(f) stepping by the returned bound
        alone creeps one point at a time here, as fail-soft bounds at trick starts are loose). A caller
        that already knows bounds (the value lies in [low, high]) saves the searches outside them.
        In null mode the value is 0 when the declarer can avoid every trick, else 1.
        """
        if self.mode is Mode.NULL:
            return 0 if self.null_won(position) else 1
        rest = self._rest(position)
        low, high = max(0, low), rest if high is None else min(high, rest)
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
        played = len(trick)
        counts = [hands[(leader + pos) % 3].bit_count() + (played > pos) for pos in range(3)]
        if played > 2 or len(set(counts)) != 1:
            raise ValueError(f"hands and trick do not fit together: {counts} cards with {played} played")
        values = self._values
        rest = sum(values[i] for i in range(32) if (hands[0] | hands[1] | hands[2]) >> i & 1)
        rest += sum(values[c] for c in trick)
        return self._trick(hands, leader, trick, rest, alpha, beta)

    def _rest(self, position: Position) -> int:
        cards = position.hands[0] | position.hands[1] | position.hands[2]
        for c in position.trick:
            cards |= 1 << c
        if self.mode in (Mode.POINTS, Mode.RAMSCH):
            return sum(CARDS[i].points for i in range(32) if cards >> i & 1)
        return cards.bit_count()

    # --- the search ------------------------------------------------------------------------------

    def _start(self, ha: int, hb: int, hc: int, leader: int, rest: int, alpha: int, beta: int) -> int:
        """The compiled search from a trick start (ha leads)."""
        return solver_core.start(self._tables, _shared_table(), self._history, _shared_scratch(), self._counters,
                                 ha, hb, hc, leader, rest, alpha, beta)

    def _trick(self, hands: list[int], leader: int, trick: list[int], rest: int, alpha: int, beta: int) -> int:
        """Alpha-beta over the rest of a trick already begun (internal cards), then the compiled search.
        `hands` by seat; `rest` is the value of the hands and the trick."""
        if not trick:
            return self._start(hands[leader], hands[(leader + 1) % 3], hands[(leader + 2) % 3], leader, rest,
                               alpha, beta)
        lay = self.layout
        led = lay.block[trick[0]]
        if len(trick) == 3:
            top, winner = trick[0], 0
            for pos in (1, 2):
                c = trick[pos]
                if c > top and (lay.block[c] == led or lay.block[c] == lay.trump_block):
                    top, winner = c, pos
            seat = (leader + winner) % 3
            gained = sum(self._values[c] for c in trick)
            banked = gained if seat == self.declarer else 0
            left = rest - gained
            if banked + left <= alpha:
                return banked + left
            if banked >= beta:
                return banked
            return banked + self._trick(hands, seat, [], left, alpha - banked, beta - banked)
        seat = (leader + len(trick)) % 3
        held = hands[seat]
        legal = held & lay.follow[led] or held
        maximise = self._maximises[seat]
        best = -INF if maximise else INF
        while legal:
            low = legal & -legal
            legal ^= low
            after = list(hands)
            after[seat] = held ^ low
            v = self._trick(after, leader, trick + [low.bit_length() - 1], rest, alpha, beta)
            if maximise:
                if v > best:
                    best = v
                    alpha = max(alpha, v)
            elif v < best:
                best = v
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best


@cache
def blocks(lay: Layout, values: tuple[int, ...]) -> tuple[int, ...]:
    """Masks (internal order) of the runs of two or more cards next to each other in one effective suit and
    worth the same: the 7, 8 and 9 of each suit and the four jacks when points count, every suit whole when
    each card counts one (null, schwarz). Found once per game and count, not per solver (one per decision)."""
    out = []
    i = 0
    while i < 32:
        j = i
        while j + 1 < 32 and lay.block[j + 1] == lay.block[i] and values[j + 1] == values[i]:
            j += 1
        if j > i:
            out.append(((2 << j) - 1) & ~((1 << i) - 1))
        i = j + 1
    return tuple(out)


@cache
def _shared_table() -> np.ndarray:
    """One transposition table per process (solvers keep apart by context number)."""
    return solver_core.new_transposition_table()


@cache
def _shared_scratch() -> np.ndarray:
    return solver_core.new_scratch()


_contexts = itertools.count()


def _new_context() -> int:
    """A context number for the shared table's keys: 1 .. CONTEXT_LIMIT - 1, cycling (0 marks empty)."""
    return next(_contexts) % (solver_core.CONTEXT_LIMIT - 1) + 1


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


def warm_up() -> None:
    """Compile the search now (or load it from numba's cache), so the first real decision is not the
    one that waits for the compiler; the Docker image calls this at build time."""
    Solver(GameType.GRAND, 0).value(Position((0b11, 0b1100, 0b110000), 0))


def move_classes(view: SeatView, legal: list[int]) -> dict[int, int]:
    """Each legal card mapped to the highest card of its class: cards next to each other among the cards
    still in play in the same effective suit, and worth the same points (any two in null)."""
    contract = view.contract
    assert contract is not None
    lay = layout(contract.game)
    finished = 0
    for trick in view.tricks:
        finished |= mask_of(trick.cards)
    alive = lay.internal_mask(((1 << 32) - 1) & ~finished & ~mask_of(view.skat))
    null = contract.game is GameType.NULL
    legal_internal = lay.internal_mask(mask_of(CARDS[c] for c in legal))
    head: dict[int, int] = {}
    for c in sorted((lay.to_internal[e] for e in legal), reverse=True):
        head[c] = c
        nxt = alive & lay.above[c]
        if nxt:
            nb = (nxt & -nxt).bit_length() - 1
            if legal_internal >> nb & 1 and (null or lay.points[c] == lay.points[nb]):
                head[c] = head[nb]
    return {lay.to_engine[c]: lay.to_engine[h] for c, h in head.items()}
