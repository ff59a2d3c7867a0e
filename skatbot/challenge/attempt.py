"""One player's attempt at a day's challenge, rebuilt from its log of moves like a table from its log.

The log holds every action of every deal in order (the player's and the computer opponents'), one line of
text each (`act NUMBER SEAT ACTION`, the table log's form). The deals follow one another without entries:
deal n+1 begins when deal n is over. Replaying the log gives back exactly the attempt that was stored.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from skatbot.engine import Action, Deal, parse_action
from skatbot.engine.views import SeatView, seat_view

from .day import ChallengeDay
from .results import seeger_fabian_score


class AttemptError(ValueError):
    """A move the attempt cannot take: `reason` is a key of the challenge's refusals."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Move:
    """An action of deal `number` (0 ..) by engine seat `seat`."""

    number: int
    seat: int
    action: Action

    def __str__(self) -> str:
        return f"act {self.number} {self.seat} {self.action}"

    @classmethod
    def parse(cls, text: str) -> Move:
        verb, number, seat, action = text.strip().split(" ", 3)
        if verb != "act":
            raise ValueError(f"malformed challenge move {text!r}")
        return cls(int(number), int(seat), parse_action(action))


class Attempt:
    """The deals of one attempt so far; `moves` is its log."""

    def __init__(self, day: ChallengeDay, deals: int, moves: Iterable[Move] = ()) -> None:
        if deals < 1:
            raise ValueError("an attempt has at least one deal")
        self.day = day
        self.deals = deals
        self.moves: list[Move] = []
        self.played: list[Deal] = []  # the finished deals, in order
        self.number = 0
        self.deal: Deal = day.new_deal(0)
        for move in moves:
            self.apply(move)

    @property
    def seq(self) -> int:
        """How many moves are stored: a control carries it, and is refused once the attempt moved on."""
        return len(self.moves)

    @property
    def is_over(self) -> bool:
        return len(self.played) >= self.deals

    @property
    def seat(self) -> int:
        """The player's seat in the current deal."""
        return self.day.player_seat(self.number)

    def view(self) -> SeatView:
        """What the player sees of the current deal (the last deal, at the end)."""
        return seat_view(self.deal, self.seat)

    def scores(self) -> list[int]:
        """The player's Seeger-Fabian score of each finished deal."""
        return [seeger_fabian_score(deal.result, self.day.player_seat(number)) for number, deal in enumerate(self.played)]

    def players_move(self, action: Action) -> Move:
        """The player's `action` as the next move, checked (raises AttemptError or the engine's refusal)."""
        if self.is_over:
            raise AttemptError("over")
        if self.deal.current_seat != self.seat:
            raise AttemptError("wait")
        self.deal.clone().apply(action, self.seat)  # the engine's refusal says why; the attempt is untouched
        return Move(self.number, self.seat, action)

    def opponent_to_move(self) -> tuple[int, int, SeatView] | None:
        """(seat, seed, view) of the computer opponent to move now, None when it is the player's turn or over."""
        if self.is_over:
            return None
        seat = self.deal.current_seat
        if seat is None or seat == self.seat:
            return None
        return seat, self.day.ai_seed(self.number, seat, len(self.deal.history)), seat_view(self.deal, seat)

    def apply(self, move: Move) -> bool:
        """Apply a stored or checked move; True when it ended a deal."""
        if self.is_over or move.number != self.number or move.seat != self.deal.current_seat:
            raise AttemptError("out_of_turn")
        self.deal.apply(move.action, move.seat)
        self.moves.append(move)
        if not self.deal.is_over:
            return False
        self.played.append(self.deal)
        if not self.is_over:
            self.number += 1
            self.deal = self.day.new_deal(self.number)
        return True
