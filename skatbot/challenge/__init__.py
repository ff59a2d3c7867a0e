"""The daily challenge: the same deals, seats and computer opponents for everyone the bot serves on a day.

Pure like the engine and the AI (no Discord, database or event loop): the day's deals and seeds
(`day`), one player's attempt replayed from its log (`attempt`), the par line of the strong AI (`par`),
and the scores, boards and percentiles made from stored results (`results`). Storage keeps the secret,
the attempts' logs, the pars and the results; cogs/challenge.py plays an attempt in the player's DMs.
"""

from .attempt import Attempt, AttemptError, Move
from .day import (
    CHALLENGE_LEVEL,
    CHALLENGE_RULES,
    DEFAULT_DEALS,
    MAX_DEALS,
    MIN_DEALS,
    ChallengeDay,
    new_secret,
)
from .par import ParLine, ai_decision, par_line
from .results import BoardRow, ChallengeScore, board, percentile, seeger_fabian_score, week_board

__all__ = [
    "CHALLENGE_LEVEL", "CHALLENGE_RULES", "DEFAULT_DEALS", "MAX_DEALS", "MIN_DEALS", "Attempt", "AttemptError",
    "BoardRow", "ChallengeDay", "ChallengeScore", "Move", "ParLine", "ai_decision", "board", "new_secret", "par_line",
    "percentile", "seeger_fabian_score", "week_board",
]
