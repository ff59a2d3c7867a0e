"""Helpers for the daily challenge's tests."""

from __future__ import annotations

from skatbot.challenge import Attempt


def players_turn(attempt: Attempt) -> bool:
    """Whether the attempt waits for its player (not over, and the deal's turn is the player's seat)."""
    return not attempt.is_over and attempt.deal.current_seat == attempt.seat
