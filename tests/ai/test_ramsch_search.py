"""The strong level's Ramsch card play: legal cards chosen by search once the deal is small enough."""

from __future__ import annotations

import random

import pytest

from skatbot.ai import Level, make_player
from skatbot.ai.ramsch import POINT_WEIGHT, ramsch_card, score, utility
from skatbot.ai.ramsch_search import RamschSearch, Taken
from skatbot.ai.solver import SearchAborted, position_from_deal
from skatbot.engine import PLAY, Card, Deal, GameType, Pass, Phase, parse_cards
from skatbot.engine.cards import mask_of, points_of
from skatbot.engine.rules import AllPass, RuleSet
from skatbot.engine.views import seat_view


def ramsch(seed: int) -> Deal:
    deal = Deal.new(seed, RuleSet(all_pass=AllPass.RAMSCH))
    while deal.phase is not Phase.PLAY:
        deal.apply(Pass())
    return deal


def test_strong_plays_whole_ramsch_deals_with_legal_cards_and_searches_late() -> None:
    searched = 0
    for seed in range(2):
        deal = ramsch(seed)
        players = [make_player(Level.STRONG, seed * 3 + seat) for seat in range(3)]
        while not deal.is_over:
            seat = deal.current_seat
            assert seat is not None
            view = seat_view(deal, seat)
            choices = set(deal.legal_cards())
            card = ramsch_card(view, random.Random(seed))
            if len(deal.tricks) >= 5 and len(choices) > 1:  # the last five tricks are searched
                assert card is not None and card in view.legal_actions
                searched += 1
            elif len(choices) > 1 and len({c.points for c in choices}) > 1:
                assert card is None  # before, the heuristics play (ramsch_card leaves it to them)
            action = players[seat].choose(view)
            assert action in view.legal_actions
            deal.apply(action, seat)
        assert deal.result.game is GameType.RAMSCH
    assert searched >= 4


# --- max-n over the last tricks -------------------------------------------------------------------

def ramsch_endgame(seed: int, cards_played: int) -> Deal:
    """A Ramsch played at random until `cards_played` cards are down."""
    rng = random.Random(seed)
    deal = ramsch(seed)
    while len(deal.tricks) * 3 + len(deal.current_trick) < cards_played:
        deal.apply(rng.choice(deal.legal_actions()))
    return deal


def prefers(candidate: tuple[int, ...], best: tuple[int, ...] | None, seat: int, root: int) -> bool:
    """Max-n's choice, written out: fewer own points, then more for the root seat, then the larger
    packing of (points, tricks) as a fixed last tie-break."""
    if best is None:
        return True
    if candidate[seat] != best[seat]:
        return candidate[seat] < best[seat]
    if candidate[root] != best[root]:
        return candidate[root] > best[root]
    return pack(candidate) > pack(best)


def pack(result: tuple[int, ...]) -> int:
    return sum(result[s] << (8 * s) for s in range(3)) + sum(result[3 + s] << (24 + 4 * s) for s in range(3))


def maxn_by_engine(deal: Deal, root: int, before: tuple[int, ...]) -> tuple[int, ...]:
    """(points per seat, tricks per seat) from here on, by brute force over the engine: the deal's own
    result decides the points, so the skat goes where the rules send it."""
    if deal.is_over:
        points = deal.result.seat_points
        tricks = [deal.trick_count(s) for s in range(3)]
        return tuple([points[s] - before[s] for s in range(3)] + [tricks[s] - before[3 + s] for s in range(3)])
    seat = deal.current_seat
    assert seat is not None
    best: tuple[int, ...] | None = None
    for card in deal.legal_cards():
        child = deal.clone()
        child.apply(PLAY[card.index])
        result = maxn_by_engine(child, root, before)
        if prefers(result, best, seat, root):
            best = result
    assert best is not None
    return best


@pytest.mark.parametrize("seed", range(16))
def test_maxn_matches_brute_force_over_the_engine_skat_included(seed: int) -> None:
    deal = ramsch_endgame(seed, random.Random(seed).choice((21, 22, 23, 24, 25)))
    root = seed % 3
    taken = [sum(t.points for t in deal.tricks if t.winner == s) for s in range(3)]
    before = tuple(taken + [deal.trick_count(s) for s in range(3)])
    search = RamschSearch(root)
    search.reset(points_of(mask_of(deal.skat)))
    outcome = search.outcome(position_from_deal(deal))
    assert outcome.points + outcome.tricks == maxn_by_engine(deal, root, before)
    assert sum(outcome.points) == 120 - sum(taken)  # the skat is counted, to the last trick's winner


def test_maxn_search_obeys_its_node_limit_and_stays_usable() -> None:
    deal = ramsch_endgame(3, 12)
    search = RamschSearch(0, node_limit=5)
    search.reset(0)
    with pytest.raises(SearchAborted):
        search.outcome(position_from_deal(deal))
    search.node_limit = 1 << 40
    search.reset(points_of(mask_of(deal.skat)))
    assert sum(search.outcome(position_from_deal(deal)).points) == 120 - sum(t.points for t in deal.tricks)


OFFICIAL_RAMSCH = RuleSet(all_pass=AllPass.RAMSCH)
NO_DURCHMARSCH = RuleSet(all_pass=AllPass.RAMSCH, ramsch_durchmarsch=False)
JUNGFRAU = RuleSet(all_pass=AllPass.RAMSCH, ramsch_jungfrau=True)


def test_ramsch_utility_is_the_score_of_the_rules() -> None:
    nothing = Taken((0, 0, 0), (0, 0, 0))
    rules = OFFICIAL_RAMSCH
    # the most points lose them (ties: every tied seat), less a small weight per own point
    assert utility(rules, 0, (50, 40, 30), [4, 3, 3], nothing) == -50 - 50 * POINT_WEIGHT
    assert utility(rules, 1, (50, 40, 30), [4, 3, 3], nothing) == -40 * POINT_WEIGHT
    assert utility(rules, 1, (45, 45, 30), [4, 3, 3], nothing) == -45 - 45 * POINT_WEIGHT
    # the outcome of the rest counts: the skat's 21 to seat 2 makes it the loser
    assert utility(rules, 2, (50, 40, 9), [4, 3, 2], Taken((0, 0, 21 + 21), (0, 0, 1))) == -51 - 51 * POINT_WEIGHT
    # a Durchmarsch wins 120 for the seat that takes every trick, and nobody else loses
    assert utility(rules, 0, (100, 0, 0), [9, 0, 0], Taken((20, 0, 0), (1, 0, 0))) == 120
    assert utility(rules, 1, (100, 0, 0), [9, 0, 0], Taken((20, 0, 0), (1, 0, 0))) == 0


def test_ramsch_valuation_follows_the_tables_durchmarsch_and_jungfrau() -> None:
    every_trick = Taken((20, 0, 0), (1, 0, 0))
    # without Durchmarsch, every trick is simply the most points: 120 lost, not won
    assert score(NO_DURCHMARSCH, 0, (100, 0, 0), [9, 0, 0], every_trick) == -120
    assert utility(NO_DURCHMARSCH, 0, (100, 0, 0), [9, 0, 0], every_trick) == -120 - 120 * POINT_WEIGHT
    # with Jungfrau, a seat without a trick doubles the loser's minus (and only the loser's)
    trickless = Taken((0, 0, 0), (0, 0, 0))
    assert score(OFFICIAL_RAMSCH, 0, (70, 50, 0), [6, 4, 0], trickless) == -70
    assert score(JUNGFRAU, 0, (70, 50, 0), [6, 4, 0], trickless) == -140
    assert score(JUNGFRAU, 1, (70, 50, 0), [6, 4, 0], trickless) == 0
    assert score(JUNGFRAU, 0, (70, 40, 10), [6, 3, 1], trickless) == -70  # everybody took a trick


def two_cards_from_a_durchmarsch(rules: RuleSet) -> Deal:
    """Forehand has taken all eight tricks and holds ♥A ♥7; middlehand and rearhand hold one heart each, the skat
    two more. ♥A first makes the ♥7 a winner (every trick taken); ♥7 first gives a trick away."""
    deal = Deal([parse_cards("CJ SJ HJ DJ CA SA DA CT HA H7"), parse_cards("CK CQ ST SK SQ DT DK DQ HT HK"),
                 parse_cards("C9 C8 C7 S9 S8 S7 D9 D8 D7 HQ")], parse_cards("H9 H8"), rules)
    while deal.phase is not Phase.PLAY:
        deal.apply(Pass())
    for code in ["CJ", "HT", "S7", "SJ", "SQ", "S8", "HJ", "DQ", "D7", "DJ", "DK", "D8", "CA", "CQ", "C7", "CT", "CK", "C8", "SA", "SK", "S9", "DA", "DT", "D9"]:
        deal.apply(PLAY[Card.parse(code).index])
    assert [deal.trick_count(seat) for seat in range(3)] == [8, 0, 0] and deal.current_seat == 0
    return deal


@pytest.mark.parametrize(("rules", "card"), [(OFFICIAL_RAMSCH, "HA"), (NO_DURCHMARSCH, "H7")])
def test_the_strong_level_plays_for_or_against_a_durchmarsch_as_the_table_scores_it(rules: RuleSet,
                                                                                       card: str) -> None:
    # where a Durchmarsch wins 120, forehand takes the last two tricks; where it only loses 120, it gives one away
    deal = two_cards_from_a_durchmarsch(rules)
    choices = {make_player(Level.STRONG, seed).choose(seat_view(deal, 0)) for seed in range(6)}
    assert choices == {PLAY[Card.parse(card).index]}
