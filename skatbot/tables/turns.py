"""Who acts next and what the table must do by itself: pure functions of the game and the timing.

The table (`table.py`) keeps the clock and the tasks; what it decides with them is decided here, from the
game as stored, so it reads the same in every process and can be tested without an event loop.
"""

from __future__ import annotations

from collections.abc import Set
from dataclasses import dataclass

from skatbot.config import DEFAULT_KONTRA_WINDOW
from skatbot.engine import Kontra, Phase, Re
from skatbot.models import Due, DueKind, TableState

from .game import TableGame


@dataclass(frozen=True, slots=True)
class TableTiming:
    """Turn timers: a warning after `warn_after` seconds, the AI plays for the player at `turn_seconds`."""

    turn_seconds: float = 120.0
    warn_after: float = 90.0
    kontra_window: float = DEFAULT_KONTRA_WINDOW  # how long a leader waits before the first card while a human may say Kontra
    misses_before_stand_in: int = 3
    ai_pause: float = 0.0  # a pause before each AI move while people watch


DEFAULT_TIMING = TableTiming()

Moment = tuple[int, int]
"""(deal index, steps in the deal): where a deal stands; an AI decision or a timer is for one moment."""


def moment(game: TableGame) -> Moment | None:
    """Where the current deal stands while the table plays (None when it does not)."""
    deal = game.deal
    if game.state is not TableState.PLAYING or deal is None:
        return None
    return game.deal_number, len(deal.history)


def humans_may_speak(game: TableGame, *, besides: int | None = None) -> bool:
    """Whether a human (other than the seat `besides`, the leader) may still say Kontra or Re before the first
    card of the deal: only then is there a Kontra window."""
    deal = game.deal
    if deal is None or not game.rules.kontra or deal.phase is not Phase.PLAY or deal.tricks or \
            deal.current_trick or deal.declarer is None:
        return False
    return any(seat != besides and game.occupant_of_seat(seat).plays_itself
               and any(isinstance(a, (Kontra, Re)) for a in deal.side_actions(seat)) for seat in range(3))


def leader_waits(game: TableGame, timing: TableTiming) -> bool:
    """Whether the human about to lead the first trick waits the Kontra window (others may speak first)."""
    deal = game.deal
    return timing.kontra_window > 0 and deal is not None and deal.current_seat is not None and \
        game.occupant_of_seat(deal.current_seat).plays_itself and humans_may_speak(game, besides=deal.current_seat)


def ai_to_move(game: TableGame) -> int | None:
    """The seat whose move an AI decides now (a computer player, or a stand-in for an absent human)."""
    deal = game.deal
    if deal is None or deal.is_over or deal.current_seat is None:
        return None
    return None if game.occupant_of_seat(deal.current_seat).plays_itself else deal.current_seat


def side_calls_due(game: TableGame, asked: Set[tuple[int, int, str]]) -> list[tuple[int, str]]:
    """AI seats that may still say Kontra or Re before the first card and were not yet `asked` (deal, seat,
    "kontra" or "re")."""
    deal = game.deal
    if deal is None or deal.phase is not Phase.PLAY or deal.declarer is None or deal.tricks or \
            deal.current_trick or not game.rules.kontra:
        return []
    out = []
    for seat in range(3):
        if game.occupant_of_seat(seat).plays_itself:
            continue
        for action in deal.side_actions(seat):
            kind = "kontra" if isinstance(action, Kontra) else "re" if isinstance(action, Re) else None
            if kind and (game.deal_number, seat, kind) not in asked:
                out.append((seat, kind))
    return out


def ai_acts(game: TableGame, asked: Set[tuple[int, int, str]]) -> bool:
    """Whether an AI has something to decide now: a move, or a Kontra or Re."""
    return ai_to_move(game) is not None or bool(side_calls_due(game, asked))


def human_turn(game: TableGame) -> tuple[Moment, int] | None:
    """The moment, and the table place of the human whose turn it is, if it is one's."""
    deal = game.deal
    now = moment(game)
    if now is None or deal is None or deal.current_seat is None or \
            not game.occupant_of_seat(deal.current_seat).plays_itself:
        return None
    return now, game.place_of_seat(deal.current_seat)


def ai_delay(game: TableGame, timing: TableTiming, asked: Set[tuple[int, int, str]], *, window_waited: bool) -> float:
    """How long the AI waits before its next move: the Kontra window before an AI leads (once a deal:
    `window_waited`), and the pause people watch. Its own Kontra or Re is decided at once, before the wait
    (`side_calls_due`), and does not shorten it: a call that says nothing stores nothing, so the AI step
    stored with the declaration must be due when the move is, or a process that takes it over would lead at
    once and cut the window short."""
    if ai_to_move(game) is None:
        return 0.0
    delay = 0.0
    if not window_waited and humans_may_speak(game):
        delay += timing.kontra_window
    if timing.ai_pause and game.present_humans:
        delay += timing.ai_pause
    return delay


def due_steps(game: TableGame, timing: TableTiming, asked: Set[tuple[int, int, str]], *,
              window_waited: bool) -> list[Due]:
    """What the table as it stands must do by itself, and after how long: stored with each entry, so that
    another process does it if this one dies first."""
    if game.state is not TableState.PLAYING:
        return []
    if game.needs_new_deal or not game.present_humans:
        return [Due(DueKind.FOLLOW)]
    out = []
    if ai_acts(game, asked):
        out.append(Due(DueKind.AI, ai_delay(game, timing, asked, window_waited=window_waited)))
    deal = game.deal
    if deal is not None and not deal.is_over and deal.current_seat is not None and \
            game.occupant_of_seat(deal.current_seat).plays_itself:
        if timing.turn_seconds > timing.warn_after:
            out.append(Due(DueKind.WARN, timing.warn_after))
        out.append(Due(DueKind.TIMEOUT, timing.turn_seconds))
        if timing.kontra_window > 0 and humans_may_speak(game, besides=deal.current_seat):
            out.append(Due(DueKind.KONTRA, timing.kontra_window))  # stored: its end is kept while it lasts
    return out


__all__ = ["DEFAULT_TIMING", "Moment", "TableTiming", "ai_acts", "ai_delay", "ai_to_move", "due_steps",
           "human_turn", "humans_may_speak", "leader_waits", "moment", "side_calls_due"]
