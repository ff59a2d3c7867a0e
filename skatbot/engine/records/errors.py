"""The one error a bad game record raises, naming the record and the move so a person can find it."""

from __future__ import annotations


class RecordError(ValueError):
    """A record that cannot be read or replayed: malformed text, an unknown move, or an illegal one."""

    def __init__(self, record_id: str | None, move: str | None, reason: str) -> None:
        self.record_id = record_id
        self.move = move
        self.reason = reason
        where = f"record {record_id or '?'}"
        if move is not None:
            where += f", move {move!r}"
        super().__init__(f"{where}: {reason}")
