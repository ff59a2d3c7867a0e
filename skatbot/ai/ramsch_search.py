"""The Python side of the max-n Ramsch search (see `ramsch_core`): card numbering, a trick already begun,
and the packed results read back per seat."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cache

import numpy as np

from skatbot.engine.games import TRUMP, GameType

from . import ramsch_core
from .solver import Position, layout

__all__ = ["Taken", "RamschSearch"]


@dataclass(frozen=True, slots=True)
class Taken:
    """Card points and tricks each seat takes from the cards still in play (the skat included)."""

    points: tuple[int, int, int]
    tricks: tuple[int, int, int]


def unpack(packed: int) -> Taken:
    p = [packed >> (8 * s) & 0xFF for s in range(3)]
    t = [packed >> (24 + 4 * s) & 0xF for s in range(3)]
    return Taken((p[0], p[1], p[2]), (t[0], t[1], t[2]))


class RamschSearch:
    """Max-n over one world of a Ramsch for one searching seat (the root of the ties). Reuse it across the
    candidate cards of one world; `reset` before another world (its skat may differ)."""

    def __init__(self, root: int, node_limit: int | None = None) -> None:
        if root not in (0, 1, 2):
            raise ValueError(f"no seat {root}")
        self.root = root
        self.layout = layout(GameType.GRAND)
        self._tables = _tables()
        self._params = np.array([0, root, _new_context(), TRUMP], dtype=np.int64)
        self._counters = np.array([0, 0], dtype=np.int64)
        self.node_limit = node_limit if node_limit is not None else 1 << 62

    @property
    def nodes(self) -> int:
        """Leads searched so far (the unit of the node budget)."""
        return int(self._counters[0])

    @property
    def node_limit(self) -> int:
        return int(self._counters[1])

    @node_limit.setter
    def node_limit(self, limit: int) -> None:
        self._counters[1] = min(limit, 1 << 62)

    def reset(self, skat_points: int) -> None:
        """A new world: forget the table, and the skat (to the last trick's winner) is worth this much."""
        self._params[ramsch_core.P_SKAT] = skat_points
        self._params[ramsch_core.P_CONTEXT] = _new_context()

    def outcome(self, position: Position) -> Taken:
        """Points and tricks per seat from `position` on (its trick may be complete), every seat playing
        max-n."""
        lay = self.layout
        hands = [lay.internal_mask(h) for h in position.hands]
        trick = [lay.to_internal[c] for c in position.trick]
        counts = [hands[(position.leader + i) % 3].bit_count() + (len(trick) > i) for i in range(3)]
        if len(trick) > 3 or len(set(counts)) != 1 or counts[0] == 0:
            raise ValueError(f"hands and trick do not fit together: {counts} cards with {len(trick)} played")
        return unpack(self._trick(hands, position.leader, trick))

    def _trick(self, hands: list[int], leader: int, trick: list[int]) -> int:
        if not trick:
            return int(ramsch_core.search(self._tables, _shared_table(), _shared_scratch(), self._counters,
                                          self._params, hands[leader], hands[(leader + 1) % 3],
                                          hands[(leader + 2) % 3], leader))
        lay = self.layout
        if len(trick) == 3:
            led = lay.block[trick[0]]
            top, at = trick[0], 0
            for i in (1, 2):
                c = trick[i]
                if c > top and (lay.block[c] == led or lay.block[c] == TRUMP):
                    top, at = c, i
            winner = (leader + at) % 3
            points = sum(lay.points[c] for c in trick)
            if not (hands[0] | hands[1] | hands[2]):
                points += int(self._params[ramsch_core.P_SKAT])
                rest = 0
            else:
                rest = self._trick(hands, winner, [])
            return rest + (points << (8 * winner)) + (1 << (24 + 4 * winner))
        seat = (leader + len(trick)) % 3
        held = hands[seat]
        legal = held & lay.follow[lay.block[trick[0]]] or held
        best = ramsch_core.UNSET
        while legal:
            low = legal & -legal
            legal ^= low
            after = list(hands)
            after[seat] = held ^ low
            v = self._trick(after, leader, trick + [low.bit_length() - 1])
            if ramsch_core.better(v, best, seat, self.root):
                best = v
        return best


@cache
def _tables() -> np.ndarray:
    """Rows: effective suit per card, mask of the higher cards of its suit, points, follow masks."""
    lay = layout(GameType.GRAND)
    tables = np.zeros((4, 32), dtype=np.int64)
    tables[0] = lay.block
    tables[1] = lay.above
    tables[2] = lay.points
    tables[3, :5] = lay.follow
    return tables


@cache
def _shared_table() -> np.ndarray:
    return ramsch_core.new_transposition_table()


@cache
def _shared_scratch() -> np.ndarray:
    return ramsch_core.new_scratch()


_contexts = itertools.count()


def _new_context() -> int:
    return next(_contexts) % (ramsch_core.CONTEXT_LIMIT - 1) + 1


def warm_up() -> None:
    """Compile the max-n search now (or load it from numba's cache); the Docker image calls this at build
    time, next to the solver's."""
    search = RamschSearch(0)
    search.reset(0)
    search.outcome(Position((0b11, 0b1100, 0b110000), 0))
