"""What conceding now would cost the player's side, from what the player sees (for a confirmation)."""

from __future__ import annotations

from skatbot.engine import GameType, Phase
from skatbot.engine.cards import mask_of, points_of
from skatbot.engine.views import SeatView


def concession_cost(view: SeatView) -> tuple[str, int] | None:
    """("schwarz", points) when the player's side has no trick yet, ("schneider", points) when it holds 30
    card points or fewer, else None. The declarer's skat counts once they know it (picked up); the
    remaining cards would all go to the other side, so this is what the side keeps."""
    contract, declarer = view.contract, view.declarer
    if view.phase is not Phase.PLAY or contract is None or declarer is None or contract.game is GameType.NULL:
        return None
    ours = view.seat == declarer
    tricks = [trick for trick in view.tricks if (trick.winner == declarer) == ours]
    points = sum(trick.points for trick in tricks)
    if ours and view.picked_up:
        points += points_of(mask_of(view.skat))
    if not tricks:
        return "schwarz", points
    if points <= 30:
        return "schneider", points
    return None
