"""The result of a finished deal: card points, game value, won or lost, and what each seat is written.

One place for each rule of the ISkO value: matadors on the declarer's ten cards plus the skat,
multiplier steps, announcements, overbidding, and the doubled loss; house rules adjust the written
score in `seat_scores`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import mask_of, points_of
from .deal import Deal, Ending, _null_value
from .games import TRICK_TABLES, Contract, GameType
from .rules import Losses, RuleSet

@dataclass(frozen=True, slots=True)
class DealResult:
    """Everything the score list and the ISS `R[...]` field need about one deal."""

    declarer: int | None
    game: str  # clubs, spades, hearts, diamonds, grand, null, ramsch, or passed
    contract: Contract | None
    bid: int
    won: bool
    overbid: bool
    schneider: bool
    schwarz: bool
    matadors: int  # positive "with", negative "against", 0 for null
    declarer_points: int
    declarer_tricks: int
    multiplier: int
    value: int  # the game value (for an overbid: the lowest multiple of the base value reaching the bid)
    score: int  # signed score for the declarer under the official rules (won +value, lost -2 x value)
    seat_scores: tuple[int, int, int]  # what each seat is written under the table's rules
    ending: str
    kontra: bool = False
    re: bool = False
    seat_points: tuple[int, int, int] = (0, 0, 0)  # card points taken per seat (ramsch, statistics)
    durchmarsch: bool = False
    notes: tuple[str, ...] = field(default=())

    @property
    def passed(self) -> bool:
        return self.game == "passed"

def matadors(game: GameType, cards_mask: int) -> int:
    """Matadors with (positive) or against (negative), counted down the trump order."""
    if game in (GameType.NULL, GameType.RAMSCH):
        return 0
    order = TRICK_TABLES[game].trump_order
    have_top = bool(cards_mask >> order[0].index & 1)
    count = 0
    for card in order:
        if bool(cards_mask >> card.index & 1) != have_top:
            break
        count += 1
    return count if have_top else -count

def game_multiplier(contract: Contract, matadors_count: int, schneider: bool, schwarz: bool) -> int:
    """Matadors + 1 (game) + hand + schneider + announced + schwarz + announced + ouvert."""
    steps = abs(matadors_count) + 1
    steps += contract.hand
    steps += schneider or contract.schneider or contract.schwarz
    steps += contract.schneider
    steps += schwarz or contract.schwarz
    steps += contract.schwarz
    steps += contract.ouvert
    return steps

def compute_result(deal: Deal) -> DealResult:
    if deal.ending is Ending.PASSED:
        return DealResult(None, "passed", None, 0, False, False, False, False, 0, 0, 0, 0, 0, 0, (0, 0, 0),
                          Ending.PASSED.value)
    if deal.declarer is None:
        return _ramsch_result(deal)
    return _declared_result(deal)

def _declared_result(deal: Deal) -> DealResult:
    declarer = deal.declarer
    contract = deal.contract
    assert declarer is not None and contract is not None
    game = contract.game
    skat_mask = mask_of(deal.dealt_skat) if not deal.picked_up else mask_of(deal.discarded)
    declarer_points = points_of(deal.taken_mask(declarer) | skat_mask)
    declarer_tricks = deal.trick_count(declarer)
    defender_tricks = sum(deal.trick_count(s) for s in range(3) if s != declarer)
    gave_up = deal.ending is Ending.DECLARER_CONCEDED or (
        deal.ending is Ending.TIME_OUT and deal.timed_out == declarer)
    if game is GameType.NULL:
        won = declarer_tricks == 0 and not gave_up
        value = _null_value(contract)
        overbid = value < deal.bid
        won = won and not overbid
        result_m, multiplier, schneider, schwarz = 0, 1, False, False
    else:
        twelve = mask_of(deal.dealt_hands[declarer]) | mask_of(deal.dealt_skat)
        result_m = matadors(game, twelve)
        schneider = declarer_points >= 90 or declarer_points <= 30
        schwarz = defender_tricks == 0 or declarer_tricks == 0
        won = declarer_points >= 61 and not gave_up
        if contract.schneider and declarer_points < 90:
            won = False
        if contract.schwarz and defender_tricks > 0:
            won = False
        multiplier = game_multiplier(contract, result_m, schneider, schwarz)
        value = game.base_value * multiplier
        overbid = value < deal.bid
        if overbid:
            won = False
            base = game.base_value
            value = -(-deal.bid // base) * base
    score = value if won else -2 * value
    seat_scores = written_scores(deal.rules, declarer, value, won, contract.hand, deal.kontra, deal.re)
    return DealResult(
        declarer=declarer, game=game.value, contract=contract, bid=deal.bid, won=won, overbid=overbid,
        schneider=schneider, schwarz=schwarz, matadors=result_m, declarer_points=declarer_points,
        declarer_tricks=declarer_tricks, multiplier=multiplier, value=value, score=score,
        seat_scores=seat_scores, ending=deal.ending.value if deal.ending else "", kontra=deal.kontra,
        re=deal.re, seat_points=tuple(points_of(deal.taken_mask(s)) for s in range(3)))  # type: ignore[arg-type]

def written_scores(rules: RuleSet, declarer: int, value: int, won: bool, hand: bool, kontra: bool,
                   re: bool) -> tuple[int, int, int]:
    """What each of the three seats is written for a declared game under `rules`."""
    if won:
        declarer_score = value
    elif rules.losses is Losses.SINGLE and not hand:
        declarer_score = -value
    else:
        declarer_score = -2 * value
    factor = (2 if kontra else 1) * (2 if re else 1)
    declarer_score *= factor
    scores = [0, 0, 0]
    if rules.seeger_fabian:
        declarer_score += 50 if won else -50
        if not won:
            for seat in range(3):
                if seat != declarer:
                    scores[seat] = 40
    scores[declarer] = declarer_score
    return (scores[0], scores[1], scores[2])

def _ramsch_result(deal: Deal) -> DealResult:
    """Ramsch: whoever took the most card points loses that many; a Durchmarsch wins 120."""
    points = tuple(points_of(deal.taken_mask(s)) for s in range(3))
    counts = [deal.trick_count(s) for s in range(3)]
    scores = [0, 0, 0]
    durchmarsch = 10 in counts
    if durchmarsch:
        scores[counts.index(10)] = 120
    else:
        most = max(points)
        for seat in range(3):  # a tie for the most points: each tied player loses that many
            if points[seat] == most:
                scores[seat] = -most
    loser = min(range(3), key=lambda s: (scores[s], s))
    return DealResult(
        declarer=None, game="ramsch", contract=Contract(GameType.RAMSCH), bid=0, won=False, overbid=False,
        schneider=False, schwarz=False, matadors=0, declarer_points=0, declarer_tricks=0, multiplier=1,
        value=abs(scores[loser]), score=0, seat_scores=(scores[0], scores[1], scores[2]),
        ending=deal.ending.value if deal.ending else "", seat_points=points,  # type: ignore[arg-type]
        durchmarsch=durchmarsch)
