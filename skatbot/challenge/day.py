"""A challenge day: its seed from the UTC date and the bot's secret, and everything derived from it.

Nobody can compute a day's deals in advance without the secret (kept in the database, never shown); with
it, every process derives the same deals, the same seat for the player and the same seeds for the
computer opponents, so the same play always meets the same answers.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import date

from skatbot.ai import Level
from skatbot.engine import Deal, RuleSet

CHALLENGE_RULES = RuleSet(seeger_fabian=True)
"""The tournament rules (ISkO, Seeger-Fabian): no Kontra, no Ramsch; the score is Seeger-Fabian's."""
CHALLENGE_LEVEL = Level.STRONG
"""The level of the two computer opponents, and of the player whose line is the par."""
DEFAULT_DEALS, MIN_DEALS, MAX_DEALS = 6, 3, 12
"""A day has MAX_DEALS deals; a server plays the first `deals` of them (its setting, 3 to 12)."""

_SEED_BITS = 48


def new_secret() -> str:
    """A fresh bot-wide secret (hex): made once, stored, and never shown."""
    return secrets.token_hex(32)


@dataclass(frozen=True, slots=True)
class ChallengeDay:
    """One UTC day's challenge. `key` is what the seeds are derived from (the secret's HMAC of the date)."""

    day: date
    key: bytes

    @classmethod
    def of(cls, secret: str, day: date) -> ChallengeDay:
        if not secret:
            raise ValueError("the challenge needs the bot's secret")
        key = hmac.new(secret.encode(), f"skatbot-challenge:{day.isoformat()}".encode(), hashlib.sha256).digest()
        return cls(day, key)

    def _number(self, *parts: object) -> int:
        text = ":".join(str(part) for part in parts).encode()
        return int.from_bytes(hmac.new(self.key, text, hashlib.sha256).digest()[:8], "big") >> (64 - _SEED_BITS)

    def deal_seed(self, number: int) -> int:
        """The shuffle of deal `number` (0 .. MAX_DEALS-1)."""
        _check(number)
        return self._number("deal", number)

    def player_seat(self, number: int) -> int:
        """The seat (0 forehand, 1 middlehand, 2 rearhand) every player takes in deal `number`: each seat in
        turn, from a start the day draws."""
        _check(number)
        return (self._number("seat") + number) % 3

    def ai_seed(self, number: int, seat: int, step: int) -> int:
        """The seed of a computer opponent's decision: by deal, seat and how many actions the deal has seen, so
        the same play meets the same answers (in the par line too)."""
        return self._number("ai", number, seat, step)

    def par_seed(self, number: int, step: int) -> int:
        """The seed of the par player's decision (the strong AI in the player's seat)."""
        return self._number("par", number, step)

    def new_deal(self, number: int) -> Deal:
        return Deal.new(self.deal_seed(number), CHALLENGE_RULES)


def _check(number: int) -> None:
    if not 0 <= number < MAX_DEALS:
        raise ValueError(f"a challenge deal is numbered 0 to {MAX_DEALS - 1}")
