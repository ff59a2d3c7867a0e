"""Standings across all the tables of a tournament, and the fees booked.

Seeger-Fabian points (the rules texts' tournament scoring: a won game its value + 50, a lost game twice its
value + 50 off, and 40 to each other player at a table of three, 30 at a table of four, when the declarer
loses) are summed over every deal a player sat in, at whatever table. They come as the tables wrote them
in the stored deal records, so the standings are a function of those records: rebuilt after a restart
they are the same, and a deal is never counted twice (one line per table and deal number).

Ties, as the Skatwettspielordnung has them (its "Leistungsbewertung": at equal points more games won come
first, then fewer games lost, then the lot decides): equal points go to the player with more games won as
declarer, then to the one with fewer games lost; the lot is the order series 1 was drawn in (its stored
seed, so anyone can check it). Before any draw there is no lot: players equal in points, won and lost share
the place, listed by name.

Fees are booked, never collected: the entry fee, and the fee per lost game for each game a player lost as
declarer (the "Verlustgeld" of a club evening), in cents.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class DealLine:
    """One stored deal of a tournament table, reduced to what the standings need."""

    series: int  # 1-based
    table: int  # 1-based table number in that series
    table_id: int
    number: int  # the deal's number at its table
    seeger: Mapping[int, int]  # player id -> Seeger-Fabian points of this deal (everyone at the table)
    declarer: int | None
    won: bool | None


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the list: `place` is shared on a full tie."""

    place: int
    player: int
    points: int
    won: int  # games won as declarer
    lost: int  # games lost as declarer
    series: tuple[int, ...]  # points per series, first to latest
    table: int | None  # the player's table in the latest series they played (1-based)
    deals: int  # deals the player sat in


@dataclass(frozen=True, slots=True)
class Fees:
    """What a player owes, booked (cents)."""

    entry: int
    lost_games: int
    total: int


def standings(players: Sequence[int], lines: Iterable[DealLine], *, series: int,
              names: Mapping[int, str] | None = None, lot: Sequence[int] = ()) -> list[Standing]:
    """Every player's line, best first, over `series` series (a series not played yet counts 0). `lot`: the
    players in the order drawn by lot for series 1 (the last tie-break; none before the draw)."""
    names = names or {}
    drawn = {player: at for at, player in enumerate(lot)}
    points = {p: [0] * series for p in players}
    won = dict.fromkeys(players, 0)
    lost = dict.fromkeys(players, 0)
    dealt = dict.fromkeys(players, 0)
    table: dict[int, tuple[int, int]] = {}
    seen: set[tuple[int, int]] = set()
    for line in sorted(lines, key=lambda d: (d.series, d.table, d.number)):
        if (line.table_id, line.number) in seen:
            continue  # the same stored deal twice is one deal
        seen.add((line.table_id, line.number))
        for player, sf in line.seeger.items():
            if player not in points or not 1 <= line.series <= series:
                continue
            points[player][line.series - 1] += sf
            dealt[player] += 1
            table[player] = max(table.get(player, (0, 0)), (line.series, line.table))
        if line.declarer in won and line.won is not None:
            if line.won:
                won[line.declarer] += 1
            else:
                lost[line.declarer] += 1

    def key(player: int) -> tuple[int, ...]:
        return (-sum(points[player]), -won[player], lost[player], drawn.get(player, len(drawn)))

    order = sorted(players, key=lambda p: (key(p), names.get(p, "").casefold(), p))
    out: list[Standing] = []
    for at, player in enumerate(order):
        place = out[-1].place if out and key(order[at - 1]) == key(player) else at + 1
        out.append(Standing(place, player, sum(points[player]), won[player], lost[player], tuple(points[player]),
                            table[player][1] if player in table else None, dealt[player]))
    return out


def fees_of(standing: Standing, *, entry_fee: int, per_lost_game: int) -> Fees:
    """The booked fees of one player (cents)."""
    lost_games = standing.lost * per_lost_game
    return Fees(entry_fee, lost_games, entry_fee + lost_games)
