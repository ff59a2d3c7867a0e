"""Skill ratings: OpenSkill's Plackett-Luce model over each finished series and each challenge day.

A score list mostly shows the luck of the cards; a rating follows who places above whom, series after
series, with an uncertainty (sigma) that shrinks as a player is seen more. Pure: no Discord, database or
event loop; `skatbot.storage` keeps the ratings and feeds them the rankings in the order they happened, so
that rebuilding from the stored results gives the same numbers.

Identities: a human is rated by their Discord id; every AI seat of one level shares that level's identity
(easy, normal, strong: -100, -200, -300, beside the tables' AI seat ids -101, -102, ... -301, ...), so a
person can see how they compare with "strong".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import Enum

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
"""OpenSkill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300 (sigma grows a little before each rating,
so a rating never freezes)."""

MIN_RATED = 3
"""Rated series and challenge days a player needs before the rating leaderboard ranks them."""

AI_LEVELS: tuple[str, ...] = ("easy", "normal", "strong")
"""The table levels in the order of `skatbot.ai.TABLE_LEVELS`, which numbers the tables' AI seat ids."""


class EventKind(Enum):
    SERIES = "series"  # a finished series: ranked by its list (list or Seeger-Fabian points, as it scored)
    CHALLENGE = "challenge"  # a challenge day: ranked by score against par


@dataclass(frozen=True, slots=True)
class Rating:
    """One identity's rating on one server: OpenSkill's mu and sigma, and how often it was rated."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    series: int = 0
    days: int = 0

    @property
    def conservative(self) -> float:
        """mu - 3 sigma: the skill the player has with near certainty; what the leaderboard ranks by."""
        return self.mu - 3 * self.sigma

    @property
    def rated(self) -> int:
        return self.series + self.days


@dataclass(frozen=True, slots=True)
class RatingRow:
    """One identity on a server's rating board: a human (with their name) or an AI level (`level`)."""

    rated_id: int
    display_name: str
    level: str | None
    rating: Rating
    change: float | None = None  # on a board of a period: how much mu - 3 sigma moved in it (None: all time)


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """An identity's rating right after one rated event (the chart of /skat scores stats)."""

    at: datetime
    mu: float
    sigma: float

    @property
    def conservative(self) -> float:
        return self.mu - 3 * self.sigma


def level_identity(level: str) -> int:
    """The rated identity of an AI level (ValueError for a level that is not a table level)."""
    return -100 * (AI_LEVELS.index(level) + 1)


def identity_level(rated_id: int) -> str | None:
    """The AI level an identity stands for, None for a human."""
    if rated_id >= 0:
        return None
    index = -rated_id // 100 - 1
    return AI_LEVELS[index] if 0 <= index < len(AI_LEVELS) and rated_id % 100 == 0 else None


def rated_identity(player_id: int) -> int:
    """Who is rated for a player id: the human themselves, or the level of an AI seat (-301 -> strong)."""
    if player_id >= 0:
        return player_id
    index = -player_id // 100 - 1
    if not 0 <= index < len(AI_LEVELS):
        raise ValueError(f"{player_id} is not an AI seat id of a table level")
    return -100 * (index + 1)


def places(values: Sequence[tuple[int, float]]) -> list[tuple[int, int]]:
    """(player, value) -> (player, place), highest value first; equal values share a place."""
    ordered = sorted(values, key=lambda pair: (-pair[1], pair[0]))
    out: list[tuple[int, int]] = []
    for index, (player, value) in enumerate(ordered):
        tied = index and ordered[index - 1][1] == value
        out.append((player, out[-1][1] if tied else index + 1))
    return out


def challenge_placing(results: Sequence[tuple[int, int, int]]) -> list[tuple[int, int]]:
    """A challenge day's (player, score, par) -> places by score against par. The par is the strong AI's
    score in each player's seat, so "strong" itself enters the day at exactly par (0)."""
    against_par = [(player, float(score - par)) for player, score, par in results]
    if not against_par:
        return []
    return places([*against_par, (level_identity("strong"), 0.0)])


def rate(ratings: Mapping[int, Rating], placing: Sequence[tuple[int, int]], kind: EventKind) -> dict[int, Rating]:
    """The new ratings after one event. `placing` is (player id, place) with place 1 the best and equal
    places tied; player ids become rated identities, and those missing from `ratings` start fresh. An
    identity that entered more than once (two AI seats of one level) enters each time with its rating, and
    takes the mean of its entries' updates. Fewer than two identities: nothing to rate ({})."""
    entries = [(rated_identity(player), place) for player, place in placing]
    if len({identity for identity, _ in entries}) < 2:
        return {}
    teams = []
    for identity, _ in entries:
        old = ratings.get(identity, Rating())
        teams.append([MODEL.rating(mu=old.mu, sigma=old.sigma)])
    rated = MODEL.rate(teams, ranks=[float(place) for _, place in entries])
    updates: dict[int, list[tuple[float, float]]] = {}
    for (identity, _), team in zip(entries, rated, strict=True):
        updates.setdefault(identity, []).append((team[0].mu, team[0].sigma))
    out: dict[int, Rating] = {}
    for identity, values in updates.items():
        old = ratings.get(identity, Rating())
        mu = sum(value[0] for value in values) / len(values)
        sigma = sum(value[1] for value in values) / len(values)
        out[identity] = Rating(mu, sigma, old.series + (kind is EventKind.SERIES),
                               old.days + (kind is EventKind.CHALLENGE))
    return out
