"""The strong level: worlds sampled consistently with a view, legal play over whole deals, sure wins taken."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from skatbot.ai import Level, make_player, play_deal
from skatbot.ai.sampling import SKAT, Sampler, World, constraints, plausible
from skatbot.ai.solver import move_classes
from skatbot.ai.strong import StrongPlayer, goal_of
from skatbot.engine import PICK_UP, PLAY, Contract, Deal, Declare, Discard, GameType
from skatbot.engine.actions import PlayCard
from skatbot.engine.cards import Card, mask_of, parse_cards
from skatbot.engine.games import TRICK_TABLES, TRUMP, TrickTable
from skatbot.engine.views import SeatView, seat_view
from tests.ai.ai_helpers import make_deal, win_auction

FULL = (1 << 32) - 1


def root_moves(view: SeatView, legal: list[int]) -> list[int]:
    """One legal card per class of cards that are equivalent in every world (see `move_classes`)."""
    classes = move_classes(view, legal)
    return [card for card in legal if classes[card] == card]


def trick_table(deal: Deal) -> TrickTable:
    assert deal.contract is not None
    return TRICK_TABLES[deal.contract.game]


def voids_shown(deal: Deal) -> list[int]:
    """Per seat, the effective suits it failed to follow (as a mask of suit bits)."""
    table = trick_table(deal)
    voids = [0, 0, 0]
    tricks = [[(t.seat_of(i), c) for i, c in enumerate(t.cards)] for t in deal.tricks]
    tricks.append(deal.current_trick)
    for trick in tricks:
        if not trick:
            continue
        led = table.effective_suit[trick[0][1].index]
        for seat, card in trick[1:]:
            if table.effective_suit[card.index] != led:
                voids[seat] |= 1 << led
    return voids


def played_to_a_void(seed: int) -> Deal | None:
    """A declared suit game played at random until some seat has shown a void (None if none did)."""
    rng = random.Random(seed)
    deal = Deal.new(seed)
    win_auction(deal, seed % 3)
    deal.apply(Declare(Contract((GameType.CLUBS, GameType.GRAND, GameType.HEARTS)[seed % 3], hand=True)))
    while not deal.is_over and len(deal.tricks) < 8:
        deal.apply(rng.choice(deal.legal_actions()))
        if any(voids_shown(deal)) and rng.random() < 0.3:
            return deal
    return None if deal.is_over or not any(voids_shown(deal)) else deal


@pytest.mark.parametrize("seed", range(40))
def test_sampled_worlds_respect_everything_the_seat_knows(seed: int) -> None:
    deal = played_to_a_void(seed)
    if deal is None:
        return
    seat = deal.current_seat
    assert seat is not None  # a deal played to a void is in play
    view = seat_view(deal, seat)
    sampler = Sampler(view)
    table = trick_table(deal)
    voids = voids_shown(deal)
    played = 0
    for trick in deal.tricks:
        played |= mask_of(trick.cards)
    played |= mask_of(card for _, card in deal.current_trick)
    rng = random.Random(seed)
    for _ in range(30):
        world = sampler.draw(rng)
        assert world.hands[seat] == deal.hand_mask(seat)
        everything = world.hands[0] | world.hands[1] | world.hands[2] | world.skat | played
        assert everything == FULL
        assert sum(h.bit_count() for h in world.hands) + world.skat.bit_count() + played.bit_count() == 32
        for other in range(3):
            assert world.hands[other].bit_count() == deal.hand_mask(other).bit_count()
            for suit in range(5):
                if voids[other] >> suit & 1:
                    assert not world.hands[other] & table.follow_mask[suit], (other, suit)
        assert world.skat.bit_count() == 2


def test_voids_shown_in_the_test_positions_are_real() -> None:
    shown = 0
    for seed in range(40):
        deal = played_to_a_void(seed)
        if deal is not None:
            shown += sum(bin(v).count("1") for v in voids_shown(deal))
    assert shown >= 20


def test_declarer_knows_the_discard_and_defenders_sample_it() -> None:
    deal = Deal.new(7)
    win_auction(deal, 1)
    deal.apply(PICK_UP)
    hand = deal.hand(1)
    discard = (hand[0], hand[1])
    deal.apply(Discard(*discard))
    deal.apply(Declare(Contract(GameType.GRAND)))
    declarer_view = seat_view(deal, 1)
    known = constraints(declarer_view)
    assert SKAT not in known.slots and known.known.skat == mask_of(discard)
    rng = random.Random(1)
    assert Sampler(declarer_view).draw(rng).skat == mask_of(discard)
    defender = seat_view(deal, 0)
    skats = {Sampler(defender).draw(rng).skat for _ in range(40)}
    assert len(skats) > 10  # the defender does not know the discard
    assert all(not s & deal.hand_mask(0) for s in skats)


def test_sampling_is_uniform_where_nothing_is_known() -> None:
    deal = Deal.new(3)
    win_auction(deal, 0)
    deal.apply(Declare(Contract(GameType.GRAND, hand=True)))
    view = seat_view(deal, 0)
    sampler = Sampler(view)
    rng = random.Random(5)
    where: Counter[int] = Counter()
    card = next(i for i in range(32) if not deal.hand_mask(0) >> i & 1)
    for _ in range(2200):
        world = sampler.draw(rng)
        slot = next((s for s in (1, 2) if world.hands[s] >> card & 1), SKAT)
        where[slot] += 1
    # 10 : 10 : 2 places among the 22 unseen cards
    assert 900 <= where[1] <= 1100 and 900 <= where[2] <= 1100 and 130 <= where[SKAT] <= 270


def test_open_hands_are_fixed_in_every_world() -> None:
    deal = make_deal("CJ SJ HJ DJ CA CT SA ST HA HT", "C9 C8 C7 S9 S8 S7 H9 H8 H7 D7",
                     "CK CQ SK SQ HK HQ DA DT DK DQ", "D9 D8")
    win_auction(deal, 0)
    deal.apply(Declare(Contract(GameType.GRAND, hand=True, ouvert=True)))
    deal.apply(PLAY[Card.parse("CJ").index])
    view = seat_view(deal, 1)
    world = Sampler(view).draw(random.Random(2))
    assert world.hands[0] == deal.hand_mask(0)
    assert world.hands[1] == deal.hand_mask(1)


def test_inference_prefers_declarers_with_trumps() -> None:
    deal = Deal.new(11)
    win_auction(deal, 2)
    deal.apply(Declare(Contract(GameType.SPADES, hand=True)))
    view = seat_view(deal, 0)
    sampler = Sampler(view)
    rng = random.Random(3)
    fits = sum(plausible(view, sampler.draw_plausible(rng)) for _ in range(60))
    raw = sum(plausible(view, sampler.draw(rng)) for _ in range(60))
    assert fits > raw


def test_inference_gives_the_declarer_matadors_that_cover_the_bid() -> None:
    """Clubs hand at 60 needs "with 2" or "against 2" (12 x 5): a declarer holding only one of the two top
    jacks could not have meant it, so the worlds drawn hardly ever show one."""
    deal = make_deal("CJ SJ HJ CA CT CK CQ C9 SA ST", "DJ S9 S8 S7 H9 H8 H7 D7 D8 D9",
                     "C8 C7 SK SQ HA HT HK HQ DA DT", "DK DQ")
    win_auction(deal, 0, bid=60)
    deal.apply(Declare(Contract(GameType.CLUBS, hand=True)))
    view = seat_view(deal, 1)
    sampler = Sampler(view)
    rng = random.Random(5)
    top_jacks = mask_of(parse_cards("CJ SJ"))

    def one_top_jack(world: World) -> bool:
        return ((world.hands[0] | world.skat) & top_jacks).bit_count() == 1

    assert sum(one_top_jack(sampler.draw(rng)) for _ in range(100)) >= 30
    assert sum(one_top_jack(sampler.draw_plausible(rng)) for _ in range(100)) <= 5


def test_inference_keeps_trumps_out_of_a_picked_up_skat() -> None:
    """A declarer who picked up puts back no trumps (jacks in a grand): the worlds drawn for a defender
    hardly ever show one in the skat, though a trump is as likely there as anywhere in a plain draw."""
    deal = make_deal("CJ SJ SA ST SK SQ S9 HA HT D7", "HJ DJ S8 C7 C8 C9 H7 H8 H9 DA",
                     "CA CT CK CQ HK HQ DT DK DQ D9", "S7 D8")
    win_auction(deal, 0)
    deal.apply(PICK_UP)
    deal.apply(Discard(*parse_cards("HT D7")))
    deal.apply(Declare(Contract(GameType.SPADES)))
    view = seat_view(deal, 1)
    sampler = Sampler(view)
    rng = random.Random(8)
    spades = TRICK_TABLES[GameType.SPADES].follow_mask[TRUMP]

    def trump_in_skat(world: World) -> bool:
        return bool(world.skat & spades)

    assert sum(trump_in_skat(sampler.draw(rng)) for _ in range(100)) >= 30
    assert sum(trump_in_skat(sampler.draw_plausible(rng)) for _ in range(100)) <= 5


def test_equivalent_cards_are_offered_once() -> None:
    deal = make_deal("CJ SJ HJ DJ CA CT SA ST HA HT", "C9 C8 C7 S9 S8 S7 H9 H8 H7 D7",
                     "CK CQ SK SQ HK HQ DA DT DK DQ", "D9 D8")
    win_auction(deal, 0)
    deal.apply(Declare(Contract(GameType.GRAND, hand=True)))
    view = seat_view(deal, 0)
    legal = [a.card.index for a in view.legal_actions if isinstance(a, PlayCard)]
    assert len(legal) == len(view.legal_actions)  # the lead: cards only
    moves = root_moves(view, legal)
    # the four jacks are one class; ace and ten differ in points, so both stay in each suit
    assert len([m for m in moves if m % 8 == 4]) == 1
    assert len(moves) == 7
    classes = move_classes(view, legal)
    assert classes[Card.parse("DJ").index] == Card.parse("CJ").index
    assert classes[Card.parse("CT").index] == Card.parse("CT").index != classes[Card.parse("CA").index]


def test_strong_plays_whole_deals_legally() -> None:
    for seed in range(3):
        players = [StrongPlayer(seed * 3 + seat, samples=2, node_budget=4000, contract_worlds=4,
                                contract_budget=60_000) for seat in range(3)]
        result = play_deal(Deal.new(seed + 40), players)
        assert result.passed or result.declarer_points + sum(
            p for s, p in enumerate(result.seat_points) if s != result.declarer) <= 120


@pytest.mark.parametrize("contract", [
    Contract(GameType.NULL, hand=True), Contract(GameType.GRAND, hand=True),
    Contract(GameType.DIAMONDS, hand=True, schneider=True),
    Contract(GameType.CLUBS, hand=True, schneider=True, schwarz=True),
])
def test_strong_plays_every_game_type(contract: Contract) -> None:
    deal = Deal.new(77)
    win_auction(deal, 1)
    deal.apply(Declare(contract))
    players = [StrongPlayer(seat, samples=2, node_budget=4000) for seat in range(3)]
    result = play_deal(deal, players)
    assert result.contract == deal.contract


def test_strong_cashes_a_sure_schwarz() -> None:
    deal = make_deal("CJ SJ HJ DJ CA CT SA ST HA HT", "C9 C8 C7 S9 S8 S7 H9 H8 H7 D7",
                     "CK CQ SK SQ HK HQ DA DT DK DQ", "D9 D8")
    win_auction(deal, 0)
    deal.apply(Declare(Contract(GameType.GRAND, hand=True, schneider=True, schwarz=True)))
    players = [StrongPlayer(1, samples=3), make_player(Level.NORMAL, 2), make_player(Level.NORMAL, 3)]
    result = play_deal(deal, players)
    assert result.won and result.schwarz and result.declarer_tricks == 10


def test_strong_null_declarer_never_leads_the_bare_ace() -> None:
    deal = make_deal("SA C7 C8 C9 H7 H8 H9 D7 D8 D9", "S7 S8 CA CK CQ CJ CT HA HK HQ",
                     "S9 ST SJ SQ SK HJ HT DA DK DQ", "DJ DT")
    win_auction(deal, 0)
    deal.apply(Declare(Contract(GameType.NULL, hand=True)))
    action = StrongPlayer(4, samples=6).choose(seat_view(deal, 0))
    assert action != PlayCard(Card.parse("SA"))


def hearts_mid_deal_view() -> SeatView:
    """The view of the seat to move in a hearts hand game after fourteen random moves."""
    deal = Deal.new(21)
    win_auction(deal, 2)
    deal.apply(Declare(Contract(GameType.HEARTS, hand=True)))
    rng = random.Random(4)
    for _ in range(14):
        deal.apply(rng.choice(deal.legal_actions()))
    assert deal.current_seat is not None  # 14 moves into a hand game: still in play
    return seat_view(deal, deal.current_seat)


def test_same_seed_same_decision() -> None:
    view = hearts_mid_deal_view()
    player = StrongPlayer(5, samples=3, node_budget=4000)
    first = player.choose(view)
    assert player.last_worlds == 3
    first = StrongPlayer(5, samples=3, node_budget=4000).choose(view)
    assert all(StrongPlayer(5, samples=3, node_budget=4000).choose(view) == first for _ in range(2))


def test_goals_follow_the_announcements() -> None:
    deal = Deal.new(1)
    win_auction(deal, 0)
    deal.apply(Declare(Contract(GameType.SPADES, hand=True, schneider=True)))
    assert goal_of(seat_view(deal, 0)).target == 90
    other = Deal.new(1)
    win_auction(other, 0)
    other.apply(Declare(Contract(GameType.NULL, hand=True)))
    assert goal_of(seat_view(other, 0)).target == 1


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="samples"):
        StrongPlayer(1, samples=0)
    with pytest.raises(ValueError, match="clock"):
        StrongPlayer(1, seconds=0.5)
    with pytest.raises(ValueError, match="node_budget"):
        StrongPlayer(1, node_budget=0)



def test_an_injected_clock_stops_the_search_after_its_time() -> None:
    view = hearts_mid_deal_view()
    ticks = iter(range(1000))
    player = StrongPlayer(5, clock=lambda: float(next(ticks)), seconds=2.5)
    player.choose(view)
    assert player.last_worlds == 3  # the clock reads 0 at the start, then 1, 2, 3 after each world
