"""Where a duplicate match's difference comes from, read from the seatings each deal noted (`ai_tournament`).

The six seatings of a deal make three pairs with the same cards and every seat's side swapped (ABB with BAA,
BAB with ABA, BBA with AAB). Comparing a pair tells what the change did there: one side declared a game where,
with the other side in that seat, everyone passed; another seat declared; the same seat another game; the same
game ended otherwise. Each seating's part of the per-deal difference is recomputed from its note by
Seeger-Fabian (three players: declarer value + 50 won, -2 x value - 50 lost, each defender 40 when the declarer
loses), so the sources add up to the recorded difference; what the notes cannot show (a Ramsch, Kontra and Re)
is left as its own line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

PAIRS: tuple[tuple[str, str], ...] = (("ABB", "BAA"), ("BAB", "ABA"), ("BBA", "AAB"))
"""The seatings with the same cards and each seat's side swapped."""

_NOTE = re.compile(r"^(?P<seating>[AB]{3}) (?:(?P<who>[AB])(?P<seat>[012]) (?P<game>\w+)(?P<hand> hand)? "
                   r"bid \d+ value (?P<value>\d+) (?P<result>won|lost)|passed)$")

UNNOTED = "not in the notes (Ramsch, Kontra and Re)"
"""The rest of the recorded difference, which the seatings' notes cannot account for."""


class Played:
    """One seating as its note tells it: who declared (seat, game, value, result), or nobody."""

    def __init__(self, note: str) -> None:
        match = _NOTE.match(note)
        if match is None:
            raise ValueError(f"not a seating note: {note!r}")
        self.seating = match["seating"]
        self.declarer = None if match["seat"] is None else int(match["seat"])
        self.game = f"{match['game']}{match['hand'] or ''}"
        self.value = int(match["value"] or 0)
        self.won = match["result"] == "won"

    def share(self) -> float:
        """This seating's part of the deal's A - B (A's seat scores minus B's, over the nine seats each side held)."""
        if self.declarer is None:
            return 0.0
        scores = [0, 0, 0]
        if self.won:
            scores[self.declarer] = self.value + 50
        else:
            scores = [40, 40, 40]
            scores[self.declarer] = -2 * self.value - 50
        signs = [1 if side == "A" else -1 for side in self.seating]
        return sum(sign * score for sign, score in zip(signs, scores, strict=True)) / 9


def source(one: Played, other: Played) -> str:
    """What differs between two seatings of a pair."""
    if one.declarer is None and other.declarer is None:
        return "all passed in both"
    if one.declarer is None or other.declarer is None:
        played = other if one.declarer is None else one
        assert played.declarer is not None
        who = played.seating[played.declarer]
        return f"{who} declared where the other side in its seat left all passing: {'won' if played.won else 'lost'}"
    if one.declarer != other.declarer:
        return "another seat declared"
    if one.game != other.game:
        return "the same seat declared another game"
    if one.won != other.won:
        return "the same game, another result"
    return "the same game and result, another value (schneider)"


def sources(rows: Iterable[Mapping[str, object]]) -> tuple[int, dict[str, float]]:
    """Over the rows that kept all six seatings: how many deals, and each source's part of A - B per deal."""
    totals: dict[str, float] = {}
    deals = 0
    for row in rows:
        notes = row.get("seatings")
        if not isinstance(notes, list):
            continue
        by_seating = {played.seating: played for played in (Played(str(note)) for note in notes)}
        if any(seating not in by_seating for pair in PAIRS for seating in pair):
            continue  # not all six seatings noted: no pair to compare
        deals += 1
        noted = 0.0
        for first, second in PAIRS:
            one, other = by_seating[first], by_seating[second]
            what, part = source(one, other), one.share() + other.share()
            totals[what] = totals.get(what, 0.0) + part
            noted += part
        rest = float(str(row["difference"])) - noted
        if abs(rest) > 1e-6:
            totals[UNNOTED] = totals.get(UNNOTED, 0.0) + rest
    return deals, {what: total / deals for what, total in totals.items()} if deals else {}


def source_lines(rows: Sequence[Mapping[str, object]]) -> list[str]:
    """The sources of A - B per deal, largest first (those that move it by less than 0.005 left out)."""
    deals, parts = sources(rows)
    ranked = sorted(parts.items(), key=lambda item: -abs(item[1]))
    return [f"  {part:+.2f} per deal: {what}" for what, part in ranked if abs(part) >= 0.005] if deals else []
