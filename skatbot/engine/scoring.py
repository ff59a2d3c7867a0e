"""The result of a finished deal: card points, game value, won or lost, and what each seat is written.

One place for each rule of the ISkO value: matadors on the declarer's ten cards plus the skat,
multiplier steps, announcements, overbidding, and the doubled loss; house rules adjust the written
score in `seat_scores`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Protocol

from .cards import Card, mask_of, points_of
from .games import TRICK_TABLES, Contract, GameType, Trick
from .rules import Losses, RuleSet


class Ending(Enum):
    """How the deal ended."""

    PLAYED_OUT = "played out"
    SETTLED = "settled"  # the outcome was decided before the last trick
    DECLARER_CONCEDED = "declarer conceded"
    DEFENDERS_CONCEDED = "defenders conceded"
    CLAIMED = "claimed"  # the declarer claimed the rest and both defenders accepted (the rest to the declarer)
    TIME_OUT = "time out"
    PASSED = "passed"
    PENALTY = "penalty"  # a player timed out or left during the auction: no game (ISS `R[d:-1 penalty ...]`)


class ScoredDeal(Protocol):
    """What scoring reads of a finished `deal.Deal`; a protocol, so the deal may import scoring."""

    @property
    def rules(self) -> RuleSet: ...
    @property
    def bid(self) -> int: ...
    @property
    def declarer(self) -> int | None: ...
    @property
    def contract(self) -> Contract | None: ...
    @property
    def picked_up(self) -> bool: ...
    @property
    def discarded(self) -> tuple[Card, ...]: ...
    @property
    def dealt_hands(self) -> tuple[tuple[Card, ...], ...]: ...
    @property
    def dealt_skat(self) -> tuple[Card, ...]: ...
    @property
    def kontra(self) -> bool: ...
    @property
    def re(self) -> bool: ...
    @property
    def ending(self) -> Ending | None: ...
    @property
    def timed_out(self) -> int | None: ...
    @property
    def tricks(self) -> Sequence[Trick]: ...
    @property
    def current_trick(self) -> Sequence[tuple[int, Card]]: ...
    def taken_mask(self, seat: int) -> int: ...
    def trick_count(self, seat: int) -> int: ...
    def hand_mask(self, seat: int) -> int: ...


@dataclass(frozen=True, slots=True)
class DealResult:
    """Everything the score list and the ISS `R[...]` field need about one deal."""

    declarer: int | None
    game: GameType | None  # None: everyone passed, nothing was played (written "passed": `game_text`)
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
    ending: Ending
    kontra: bool = False
    re: bool = False
    seat_points: tuple[int, int, int] = (0, 0, 0)  # card points taken per seat (ramsch, statistics)
    durchmarsch: bool = False
    notes: tuple[str, ...] = field(default=())

    @property
    def passed(self) -> bool:
        return self.game is None

PASSED = "passed"
"""The text form of the game of a deal everyone passed, in records, lists and the database."""


def game_text(game: GameType | None) -> str:
    """A deal's game as records and lists write it: the game type's name, or "passed"."""
    return PASSED if game is None else game.value


def parse_game_text(text: str) -> GameType | None:
    """The game `game_text` wrote; ValueError for anything else."""
    return None if text == PASSED else GameType(text)


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
    steps += contract.musik
    return steps

def compute_result(deal: ScoredDeal) -> DealResult:
    if deal.ending in (Ending.PASSED, Ending.PENALTY):
        return DealResult(None, None, None, 0, False, False, False, False, 0, 0, 0, 0, 0, 0, (0, 0, 0),
                          deal.ending)
    if deal.declarer is None:
        return _ramsch_result(deal)
    return _declared_result(deal)

def _declared_result(deal: ScoredDeal) -> DealResult:
    declarer = deal.declarer
    contract = deal.contract
    assert declarer is not None and contract is not None
    game = contract.game
    # The skat as it lies: the discards, or the dealt skat (not picked up, or picked up and the declarer
    # timed out before discarding).
    skat_mask = mask_of(deal.discarded) if deal.discarded else mask_of(deal.dealt_skat)
    # A declarer who timed out before the first card forfeits the hand: as ISS writes it, the matadors
    # are counted on the skat alone and nobody is schneider or schwarz (no trick was taken).
    forfeit = (deal.ending is Ending.TIME_OUT and deal.timed_out == declarer
               and not any(deal.trick_count(seat) for seat in range(3)))
    declarer_points = points_of(deal.taken_mask(declarer) | skat_mask)
    declarer_tricks = deal.trick_count(declarer)
    defender_tricks = sum(deal.trick_count(s) for s in range(3) if s != declarer)
    notes: tuple[str, ...] = ()
    gave_up = deal.ending is Ending.DECLARER_CONCEDED or (
        deal.ending is Ending.TIME_OUT and deal.timed_out == declarer)
    if game is GameType.NULL:
        won = declarer_tricks == 0 and not gave_up
        value = deal.rules.null_value(contract.hand, contract.ouvert)
        overbid = value < deal.bid
        won = won and not overbid
        result_m, multiplier, schneider, schwarz = 0, 1, False, False
    else:
        twelve = skat_mask if forfeit else mask_of(deal.dealt_hands[declarer]) | mask_of(deal.dealt_skat)
        result_m = matadors(game, twelve)
        # Judged on the tricks actually taken: a game settled early (an announcement lost at the
        # defenders' first trick) leaves cards unplayed, and nobody is schneider or schwarz by them.
        defender_points = sum(points_of(deal.taken_mask(s)) for s in range(3) if s != declarer)
        schneider = declarer_points >= 90 or defender_points >= 90
        schwarz = defender_tricks == 10 or declarer_tricks == 10
        won = declarer_points >= 61 and not gave_up
        if contract.schneider and declarer_points < 90:
            won = False
        if contract.schwarz and defender_tricks > 0:
            won = False
        if contract.musik and not musik_made(deal):
            won = False
            notes = ("musik failed",)
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
        declarer=declarer, game=game, contract=contract, bid=deal.bid, won=won, overbid=overbid,
        schneider=schneider, schwarz=schwarz, matadors=result_m, declarer_points=declarer_points,
        declarer_tricks=declarer_tricks, multiplier=multiplier, value=value, score=score,
        seat_scores=seat_scores, ending=_ending(deal), kontra=deal.kontra,
        re=deal.re, seat_points=_seat_points(deal),
        notes=notes)

def _ending(deal: ScoredDeal) -> Ending:
    assert deal.ending is not None  # only a finished deal is scored
    return deal.ending


def _seat_points(deal: ScoredDeal) -> tuple[int, int, int]:
    """The card points each seat took in tricks."""
    return points_of(deal.taken_mask(0)), points_of(deal.taken_mask(1)), points_of(deal.taken_mask(2))


def musik_made(deal: ScoredDeal) -> bool:
    """Musik (Danish): the declarer won the tenth trick with the card the contract names, played by the
    declarer. When the defenders concede, it counts as made while that card is still unplayed (or lies
    in the open tenth trick); any other early end leaves it unmade."""
    contract, declarer = deal.contract, deal.declarer
    assert contract is not None and declarer is not None
    card = contract.musik_card
    if card is None:
        return False
    if len(deal.tricks) == 10:
        last = deal.tricks[9]
        return card in last.cards and last.seat_of(last.cards.index(card)) == declarer and last.winner == declarer
    if deal.ending not in (Ending.DEFENDERS_CONCEDED, Ending.CLAIMED):
        return False
    if deal.hand_mask(declarer) >> card.index & 1:
        return True
    return len(deal.tricks) == 9 and (declarer, card) in deal.current_trick


def declarer_score(rules: RuleSet, value: int, won: bool, hand: bool, kontra: bool, re: bool,
                   bock: bool = False) -> int:
    """The declarer's written score: losses per the rules, doubled by Kontra, Re and a Bock round;
    under Seeger-Fabian 50 more won or lost (the 50 is not doubled)."""
    if won:
        score = value
    elif rules.losses is Losses.SINGLE and not hand:
        score = -value
    else:
        score = -2 * value
    score *= (2 if kontra else 1) * (2 if re else 1) * (2 if bock else 1)
    if rules.seeger_fabian:
        score += 50 if won else -50
    return score


def seeger_defender_bonus(players: int) -> int:
    """Seeger-Fabian: what each other player is written when the declarer loses (40 at three, 30 at four)."""
    if players not in (3, 4):
        raise ValueError("a Skat table has three or four players")
    return 40 if players == 3 else 30


def seeger_fabian_points(value: int, won: bool, kontra: bool = False, re: bool = False) -> int:
    """The declarer's Seeger-Fabian points for a game, whatever the table's rules: won value + 50,
    lost -2 x value - 50 (Kontra and Re double the value)."""
    value *= (2 if kontra else 1) * (2 if re else 1)
    return value + 50 if won else -2 * value - 50


def written_scores(rules: RuleSet, declarer: int, value: int, won: bool, hand: bool, kontra: bool,
                   re: bool, bock: bool = False) -> tuple[int, int, int]:
    """What each of the three seats is written for a declared game under `rules` (at a table of three;
    the series writes the four-player Seeger-Fabian bonus itself)."""
    scores = [0, 0, 0]
    if rules.seeger_fabian and not won:
        bonus = seeger_defender_bonus(3)
        for seat in range(3):
            if seat != declarer:
                scores[seat] = bonus
    scores[declarer] = declarer_score(rules, value, won, hand, kontra, re, bock)
    return (scores[0], scores[1], scores[2])

def ramsch_scores(rules: RuleSet, points: tuple[int, int, int], tricks: list[int] | tuple[int, ...],
                  bock: bool = False) -> list[int]:
    """Each seat's Ramsch score. A tie for the most card points: every tied player loses that many.
    Durchmarsch (option): all ten tricks score +120. Jungfrau (option): a player without a trick
    doubles the loser's minus. A Bock round doubles everything."""
    factor = 2 if bock else 1
    scores = [0, 0, 0]
    if rules.ramsch_durchmarsch and 10 in tricks:
        scores[list(tricks).index(10)] = 120 * factor
        return scores
    most = max(points)
    if rules.ramsch_jungfrau and 0 in tricks:
        factor *= 2
    for seat in range(3):
        if points[seat] == most:
            scores[seat] = -most * factor
    return scores


def _ramsch_result(deal: ScoredDeal) -> DealResult:
    """Ramsch: whoever took the most card points loses that many; a Durchmarsch wins 120."""
    points = _seat_points(deal)
    counts = [deal.trick_count(s) for s in range(3)]
    scores = ramsch_scores(deal.rules, points, counts)
    durchmarsch = deal.rules.ramsch_durchmarsch and 10 in counts
    loser = min(range(3), key=lambda s: (scores[s], s))
    return DealResult(
        declarer=None, game=GameType.RAMSCH, contract=Contract(GameType.RAMSCH), bid=0, won=False, overbid=False,
        schneider=False, schwarz=False, matadors=0, declarer_points=0, declarer_tricks=0, multiplier=1,
        value=abs(scores[loser]), score=0, seat_scores=(scores[0], scores[1], scores[2]),
        ending=_ending(deal), seat_points=points,
        durchmarsch=durchmarsch)
