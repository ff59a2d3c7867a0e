"""An AI seat's identity as data: its level and its number at the table (AI 1, AI 2, ...), and the stable
negative player id the score lists know it by, which holds both. Nothing reads them back from a name."""

from __future__ import annotations

from dataclasses import dataclass

from skatbot.ai import TABLE_LEVELS, Level

ID_STEP = 100
"""An AI's player id is -(100 × (its level's place among the table levels + 1) + its number)."""


@dataclass(frozen=True, slots=True)
class AiSeat:
    """One computer player at a table."""

    level: Level
    number: int  # 1, 2, ... in the order they were seated (the lowest free one)

    @property
    def player_id(self) -> int:
        return -(ID_STEP * (TABLE_LEVELS.index(self.level) + 1) + self.number)

    @property
    def stored_name(self) -> str:
        """The name written to the players table (for people reading the database); never parsed back."""
        return f"AI {self.number} ({self.level})"

    @classmethod
    def of(cls, player_id: int) -> AiSeat | None:
        """The AI seat a player id stands for; None for a human's id (or another kind of AI identity)."""
        if player_id >= 0:
            return None
        kind, number = divmod(-player_id, ID_STEP)
        if not 1 <= kind <= len(TABLE_LEVELS) or number < 1:
            return None
        return cls(TABLE_LEVELS[kind - 1], number)
