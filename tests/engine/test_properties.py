"""Property tests over thousands of random deals under every rules preset.

A careless random player drives each deal: mostly legal moves (bidding in small steps, passing
often), now and then a Kontra, Re, claim, concession or time-out. At every step the 32 cards are
accounted for and a legal action exists until the deal ends; at the end the card points add up to 120;
replays, JSON round trips and clones behave exactly; and every kind of illegal action is refused with a
message while the deal stays as it was.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skatbot.engine import (
    CARDS,
    CLAIM,
    CONCEDE,
    HOLD,
    KONTRA,
    OFFICIAL,
    PASS,
    PICK_UP,
    RE,
    Action,
    Bid,
    Contract,
    Deal,
    Declare,
    Discard,
    Ending,
    GameType,
    IllegalAction,
    Phase,
    RuleSet,
    TimeOut,
    deal_cards,
    parse_action,
)
from skatbot.engine.actions import PLAY
from skatbot.engine.cards import mask_of, points_of
from skatbot.engine.records import deal_from_json, deal_to_json
from skatbot.engine.rules import PRESETS
from skatbot.engine.views import seat_view
from tests.engine.deal_helpers import snapshot

FULL = (1 << 32) - 1
RULES = [*PRESETS.values(), RuleSet(kontra=True, kontra_needs_bid=True)]
FAST = settings(suppress_health_check=[HealthCheck.too_slow], max_examples=800)

seeds = st.integers(min_value=0, max_value=2**32 - 1)
rule_sets = st.sampled_from(RULES)
choosers = st.integers(min_value=0, max_value=2**64 - 1).map(random.Random)


def choose(deal: Deal, rng: random.Random) -> tuple[int | None, Action]:
    """The next move of a careless random player, with the seat that makes it."""
    if deal.phase is Phase.PLAY and deal.declarer is not None:
        first_card = not deal.tricks and not deal.current_trick
        roll = rng.random()
        if roll < (0.3 if first_card else 0.02):
            seat = rng.randrange(3)
            side = deal.side_actions(seat)
            if side:
                return seat, rng.choice(side)
        elif roll > 0.995:
            return None, TimeOut(rng.randrange(3))
    actions = deal.legal_actions()
    if deal.phase is Phase.AUCTION and actions[-1] is PASS:
        if rng.random() < 0.35:
            return deal.current_seat, PASS
        return deal.current_seat, rng.choice(actions[:-1][:3])
    if deal.phase is Phase.SKAT and rng.random() < 0.5:
        return deal.current_seat, PICK_UP
    return deal.current_seat, rng.choice(actions)


def check_step(deal: Deal) -> None:
    """The 32 cards lie in exactly one place; a legal action exists exactly until the deal ends."""
    places = [deal.hand_mask(s) for s in range(3)]
    places.append(mask_of(deal.skat))
    places.append(mask_of(card for _, card in deal.current_trick))
    places.extend(mask_of(trick.cards) for trick in deal.tricks)
    seen = 0
    for mask in places:
        assert seen & mask == 0, "a card lies in two places"
        seen |= mask
    assert seen == FULL, "a card went missing"
    if deal.is_over:
        assert deal.current_seat is None and deal.legal_actions() == []
        assert all(deal.side_actions(s) == [] for s in range(3))
    else:
        assert deal.current_seat in (0, 1, 2)
        assert deal.legal_actions(), f"no legal action in {deal.phase}"


def check_views(deal: Deal) -> None:
    """A seat sees its own hand; others' hands only when ouvert, claimed, or at the end."""
    for seat in range(3):
        view = seat_view(deal, seat)
        assert list(view.hand) == deal.hand(seat)
        if deal.is_over:
            assert set(view.open_hands) == {0, 1, 2}
            continue
        revealed = deal.declarer is not None and deal.contract is not None and (
            deal.contract.ouvert or deal.claimed)
        assert set(view.open_hands) == ({deal.declarer} if revealed else set())
        if view.skat:
            assert seat == deal.declarer and deal.picked_up and list(view.skat) == list(deal.discarded)


def check_end(deal: Deal) -> None:
    """Card points add up to 120 and the result is consistent with the tricks."""
    result = deal.result
    taken = [deal.taken_mask(s) for s in range(3)]
    assert not (taken[0] & taken[1] or taken[0] & taken[2] or taken[1] & taken[2])
    if deal.ending is Ending.PASSED:
        assert result.passed and not deal.tricks and result.seat_scores == (0, 0, 0)
        return
    if deal.declarer is None:  # ramsch: the skat goes to the last trick's winner
        assert sum(result.seat_points) == 120 and sum(deal.trick_count(s) for s in range(3)) == 10
        return
    declarer = deal.declarer
    defenders = [s for s in range(3) if s != declarer]
    skat = mask_of(deal.discarded if deal.picked_up else deal.dealt_skat)
    assert not skat & (taken[0] | taken[1] | taken[2])
    defender_points = sum(points_of(taken[s]) for s in defenders)
    assert result.declarer_points == points_of(taken[declarer] | skat)
    tricks = sum(deal.trick_count(s) for s in range(3))
    rest_to_null_declarer = deal.game is GameType.NULL and (
        deal.ending in (Ending.DEFENDERS_CONCEDED, Ending.CLAIMED)
        or (deal.ending is Ending.TIME_OUT and deal.timed_out != declarer))
    if rest_to_null_declarer:  # nobody receives the rest: the declarer never takes a trick that way
        assert deal.trick_count(declarer) == 0 and result.won
    elif deal.ending is Ending.SETTLED:  # stopped at the deciding trick: only the played tricks count
        assert tricks == len(deal.tricks) < 10
        assert points_of(taken[0] | taken[1] | taken[2]) == sum(t.points for t in deal.tricks)
    else:
        assert taken[0] | taken[1] | taken[2] | skat == FULL
        assert result.declarer_points + defender_points == 120
        assert tricks == 10
    assert result.declarer_tricks == deal.trick_count(declarer)
    assert result.score == (result.value if result.won else -2 * result.value)
    if result.won and deal.game is not GameType.NULL:
        assert result.declarer_points >= 61 and not result.overbid and result.value >= deal.bid


def play_random(deal: Deal, rng: random.Random, every_step: bool = True) -> None:
    while not deal.is_over:
        seat, action = choose(deal, rng)
        deal.apply(action, seat)
        if every_step:
            check_step(deal)


def replayed(deal: Deal) -> Deal:
    """The same cards and the text form of every action, replayed on a fresh deal."""
    copy = Deal(deal.dealt_hands, deal.dealt_skat, deal.rules, seed=deal.seed)
    for seat, action in deal.history:
        copy.apply(parse_action(str(action)), seat)
    return copy


def same_deal(one: Deal, other: Deal) -> None:
    assert one.history == other.history
    assert one.tricks == other.tricks
    assert [one.taken_mask(s) for s in range(3)] == [other.taken_mask(s) for s in range(3)]
    assert [one.hand(s) for s in range(3)] == [other.hand(s) for s in range(3)]
    assert (one.phase, one.ending, one.contract, one.bid, one.declarer) == (
        other.phase, other.ending, other.contract, other.bid, other.declarer)
    assert one.result == other.result


@FAST
@given(seed=seeds, rng=choosers, rules=rule_sets)
def test_random_deals_keep_every_invariant(seed: int, rng: random.Random, rules: RuleSet) -> None:
    deal = Deal.new(seed, rules)
    assert (deal.dealt_hands, deal.dealt_skat) == deal_cards(seed)
    check_step(deal)
    while not deal.is_over:
        seat, action = choose(deal, rng)
        deal.apply(action, seat)
        check_step(deal)
        if rng.random() < 0.1:
            check_views(deal)
    check_views(deal)
    check_end(deal)
    same_deal(deal, replayed(deal))
    same_deal(deal, deal_from_json(deal_to_json(deal)))


@settings(suppress_health_check=[HealthCheck.too_slow], max_examples=300)
@given(seed=seeds, rng=choosers, rules=rule_sets)
def test_clones_are_independent_and_deterministic(seed: int, rng: random.Random, rules: RuleSet) -> None:
    deal = Deal.new(seed, rules)
    stop = rng.randrange(40)
    while not deal.is_over and len(deal.history) < stop:
        seat, action = choose(deal, rng)
        deal.apply(action, seat)
    before = snapshot(deal)
    twin = deal.clone()
    play_random(twin, random.Random(rng.random()), every_step=False)
    assert snapshot(deal) == before, "playing a clone changed the original"
    other = deal.clone()
    for seat, action in twin.history[len(deal.history):]:
        other.apply(action, seat)
    same_deal(twin, other)
    assert twin.is_over
    if not deal.is_over:
        assert len(twin.history) > len(deal.history) and not deal.is_over


def illegal_candidates(deal: Deal, rng: random.Random) -> list[tuple[Action, int | None]]:
    """One action of every kind, with a random seat (or none): most are illegal now."""
    first, second = rng.sample(CARDS, 2)
    contract = Contract(rng.choice(list(GameType)), *(rng.random() < 0.3 for _ in range(5)))
    seat = rng.choice([None, 0, 1, 2])
    return [
        (Bid(rng.choice([0, 17, 18, 19, 20, 23, 24, 25, 36, 59, 60, 69, 264, 265])), seat),
        (HOLD, seat), (PASS, seat), (PICK_UP, seat), (Discard(first, second), seat), (Discard(first, first), seat),
        (Declare(contract), seat), (PLAY[rng.randrange(32)], seat),
        (KONTRA, rng.randrange(3)), (RE, rng.randrange(3)), (CLAIM, rng.randrange(3)), (CONCEDE, rng.randrange(3)),
        (TimeOut(rng.choice([-1, 0, 1, 2, 3])), None),
    ]


def listed(deal: Deal, action: Action, seat: int | None) -> bool:
    """Whether the deal offers `action` to `seat` (legal_actions, side_actions, or a table's time-out)."""
    if isinstance(action, TimeOut):  # in play, or in the auction (a penalty, no game)
        in_play = deal.phase is Phase.PLAY and deal.declarer is not None
        return (in_play or deal.phase is Phase.AUCTION) and action.seat in (0, 1, 2)
    if seat is not None and action in deal.side_actions(seat):
        return True
    offered = deal.legal_actions()
    if isinstance(action, Discard):  # the two cards in either order
        offered = [*offered, *(Discard(a.second, a.first) for a in offered if isinstance(a, Discard))]
    return seat in (None, deal.current_seat) and action in offered


@settings(suppress_health_check=[HealthCheck.too_slow], max_examples=300)
@given(seed=seeds, rng=choosers, rules=rule_sets)
def test_every_illegal_action_is_refused_and_changes_nothing(seed: int, rng: random.Random,
                                                             rules: RuleSet) -> None:
    deal = Deal.new(seed, rules)
    while True:
        if rng.random() < 0.1 or deal.is_over:
            for action, seat in illegal_candidates(deal, rng):
                trial = deal.clone()
                try:
                    trial.apply(action, seat)
                except IllegalAction as error:
                    assert str(error), f"{action} was refused without a reason"
                    assert not listed(deal, action, seat), f"{action} is offered but refused: {error}"
                    before = snapshot(deal)
                    try:
                        deal.apply(action, seat)
                    except IllegalAction:
                        pass
                    else:
                        raise AssertionError(f"{action} refused on a clone but accepted on the deal") from None
                    assert snapshot(deal) == before, f"refused {action} changed the deal"
                    continue
                if isinstance(action, Declare) and not listed(deal, action, seat):
                    # declaring without the implied words is the same declaration as the offered one
                    assert trial.contract is not None and Declare(trial.contract) in deal.legal_actions(), f"{action} accepted, not offered"
                else:
                    assert listed(deal, action, seat), f"{action} by {seat} accepted but not offered"
        if deal.is_over:
            break
        seat, action = choose(deal, rng)
        deal.apply(action, seat)
    assert deal.result is not None


@settings(max_examples=30)
@given(rng=choosers)
def test_many_deals_per_example_under_the_official_rules(rng: random.Random) -> None:
    """Bulk: a hundred deals per example, checked only at the end (fast)."""
    for _ in range(100):
        deal = Deal.new(rng.getrandbits(32), OFFICIAL)
        play_random(deal, rng, every_step=False)
        check_step(deal)
        check_end(deal)
