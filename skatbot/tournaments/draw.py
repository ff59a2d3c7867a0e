"""The draw: how many tables of which size, who sits where by lot, and the seeding of later series.

Our rules, from the tournament practice of the Skat associations (the Skatwettspielordnung: places at the
tables are drawn by lot for the first series; later series are set by the standings), read as follows:

- Tables of four where the count allows, else three (`auto`): the most tables of four that leave the rest
  in tables of three (7 -> 4+3, 9 -> 3+3+3, 10 -> 4+3+3, 12 -> 4+4+4). `three` makes every table a table
  of three. A count that cannot be split (5 in `auto`; anything not a multiple of three in `three`) is
  refused unless computer players fill the missing seats, one per table, at the last tables.
- The first series is drawn by lot from a stored seed: the players in the order of their ids, shuffled by
  `random.Random(seed)`, cut into the tables in order (fours first). Anyone can check a draw from its seed.
- Later series are set by the standings: the best go to the first table, the next to the second, and so
  on; then no table may hold three players who sat at one table together in the series before. Where one
  would, swaps of players between tables mend it, each the one that leaves the fewest such threes and then
  the closest in rank (the count allows it from six players up); with a single table it stays as set.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

MIN_PLAYERS = 3


class DrawError(ValueError):
    """A count of players no draw can seat; `key` names the refusal for the catalogs."""

    def __init__(self, key: str, **values: int) -> None:
        super().__init__(key)
        self.key = key
        self.values = values


@dataclass(frozen=True, slots=True)
class TableDraw:
    """One table of a draw: its human players in seat order and how many computer players fill it."""

    players: tuple[int, ...]
    ais: int = 0

    @property
    def size(self) -> int:
        return len(self.players) + self.ais

    def __str__(self) -> str:
        text = ",".join(str(p) for p in self.players)
        return f"{text}+{self.ais}" if self.ais else text

    @classmethod
    def parse(cls, text: str) -> TableDraw:
        people, _, ais = text.partition("+")
        return cls(tuple(int(p) for p in people.split(",") if p), int(ais) if ais else 0)


def layout(humans: int, *, three: bool = False, ai_fill: bool = False) -> tuple[tuple[int, int], ...]:
    """(table size, computer players at it) for every table, fours first and filled seats last."""
    if humans < MIN_PLAYERS:
        raise DrawError("too_few", players=humans, least=MIN_PLAYERS)
    if three:
        tables = -(-humans // 3)
        missing = tables * 3 - humans
        if missing and not ai_fill:
            raise DrawError("not_threes", players=humans)
        return tuple((3, 1 if t >= tables - missing else 0) for t in range(tables))
    for fours in range(humans // 4, -1, -1):
        if (humans - 4 * fours) % 3 == 0:
            return (((4, 0),) * fours) + (((3, 0),) * ((humans - 4 * fours) // 3))
    if not ai_fill:  # only 5 gets here (3 and 4 are one table, and every count from 6 up splits)
        raise DrawError("cannot_split", players=humans)
    return ((3, 0), (3, 1))


def _cut(order: Sequence[int], sizes: Sequence[tuple[int, int]]) -> tuple[TableDraw, ...]:
    tables, at = [], 0
    for size, ais in sizes:
        people = size - ais
        tables.append(TableDraw(tuple(order[at:at + people]), ais))
        at += people
    return tuple(tables)


def draw_by_lot(players: Sequence[int], seed: int, *, three: bool = False,
                ai_fill: bool = False) -> tuple[TableDraw, ...]:
    """The first series' tables: the players (by id) shuffled by the seed and cut into the layout."""
    order = sorted(set(players))
    random.Random(seed).shuffle(order)
    return _cut(order, layout(len(order), three=three, ai_fill=ai_fill))


def repeats(table: Sequence[int], before: Sequence[TableDraw]) -> bool:
    """Whether three of `table`'s players sat at one table together in the series `before`."""
    return _repeated(table, [set(t.players) for t in before]) > 0


def _repeated(table: Sequence[int], sat: Sequence[set[int]]) -> int:
    """How many threes of `table` sat at one table together before."""
    return sum(1 for three in combinations(table, 3) if any(set(three) <= earlier for earlier in sat))


def seeded_draw(ranked: Sequence[int], before: Sequence[TableDraw], *, three: bool = False,
                ai_fill: bool = False) -> tuple[TableDraw, ...]:
    """A later series' tables: set by the standings (`ranked`, best first), then mended so that no table
    repeats three players of one table of the series before: swap by swap, each time the swap of two
    players at different tables that leaves the fewest repeated threes, then the closest in rank."""
    set_by_rank = _cut(list(ranked), layout(len(ranked), three=three, ai_fill=ai_fill))
    tables = [list(t.players) for t in set_by_rank]
    rank = {player: r for r, player in enumerate(ranked)}
    sat = [set(t.players) for t in before]
    bad = [_repeated(t, sat) for t in tables]
    while sum(bad) > 0:
        best: tuple[tuple[int, int, int, int], int, int, int, int] | None = None
        for i, j in combinations(range(len(tables)), 2):
            if not bad[i] and not bad[j]:
                continue
            for a, mine in enumerate(tables[i]):
                for b, theirs in enumerate(tables[j]):
                    here = [*tables[i][:a], theirs, *tables[i][a + 1:]]
                    there = [*tables[j][:b], mine, *tables[j][b + 1:]]
                    left = sum(bad) - bad[i] - bad[j] + _repeated(here, sat) + _repeated(there, sat)
                    cost = (left, abs(rank[mine] - rank[theirs]), j - i, rank[mine])
                    if best is None or cost < best[0]:
                        best = (cost, i, a, j, b)
        if best is None or best[0][0] >= sum(bad):
            break  # the count does not allow it (one table, or no swap helps)
        _, i, a, j, b = best
        tables[i][a], tables[j][b] = tables[j][b], tables[i][a]
        bad[i], bad[j] = _repeated(tables[i], sat), _repeated(tables[j], sat)
    return tuple(TableDraw(tuple(sorted(t, key=rank.__getitem__)), drawn.ais)
                 for t, drawn in zip(tables, set_by_rank, strict=True))
