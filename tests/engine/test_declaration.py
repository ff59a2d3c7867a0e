"""Skat and declaration: pick up and discard, hand games, announcements, ouvert, null and the bid."""

from __future__ import annotations

import pytest

from skatbot.engine import (
    CONCEDE,
    PICK_UP,
    Contract,
    Deal,
    Declare,
    Discard,
    GameType,
    IllegalDeclaration,
    IllegalDiscard,
    NotYourTurn,
    Phase,
    RuleSet,
    WrongPhase,
)
from skatbot.engine.actions import PLAY
from skatbot.engine.rules import PRESETS
from tests.engine.deal_helpers import card, refused, win_auction

SUIT_AND_GRAND = (GameType.DIAMONDS, GameType.HEARTS, GameType.SPADES, GameType.CLUBS, GameType.GRAND)


def won_auction(bid: int = 18, declarer: int = 1, seed: int = 11) -> Deal:
    deal = Deal.new(seed)
    win_auction(deal, declarer, bid)
    return deal


def picked_up(bid: int = 18) -> Deal:
    deal = won_auction(bid)
    deal.apply(PICK_UP)
    first, second = deal.hand(1)[:2]
    deal.apply(Discard(first, second))
    return deal


def test_skat_phase_offers_pickup_or_every_hand_game() -> None:
    deal = won_auction()
    assert deal.phase is Phase.SKAT and deal.current_seat == 1
    actions = deal.legal_actions()
    assert actions[0] == PICK_UP
    assert all(isinstance(a, Declare) for a in actions[1:])
    declared = {a.contract for a in actions[1:] if isinstance(a, Declare)}
    expected = set()
    for game in SUIT_AND_GRAND:
        expected |= {Contract(game, True), Contract(game, True, True), Contract(game, True, True, True),
                     Contract(game, True, True, True, True)}
    expected |= {Contract(GameType.NULL, True), Contract(GameType.NULL, True, ouvert=True)}
    assert declared == expected


def test_pickup_takes_the_skat_and_any_two_may_be_discarded() -> None:
    deal = won_auction()
    skat = deal.skat
    hand = deal.hand(1)
    deal.apply(PICK_UP)
    assert deal.phase is Phase.DISCARD and deal.picked_up
    assert sorted(deal.hand(1)) == sorted(hand + skat)
    discards = deal.legal_actions()
    assert len(discards) == 66 and len(set(discards)) == 66  # any two of twelve, jacks and trumps included
    jacks = [c for c in deal.hand(1) if c.is_jack]
    first, second = (jacks + [c for c in deal.hand(1) if not c.is_jack])[:2]  # jacks may be discarded too
    deal.apply(Discard(first, second))
    after: Phase = deal.phase
    assert after is Phase.DECLARE
    assert deal.discarded == (first, second)
    assert sorted(deal.skat) == sorted((first, second))
    assert len(deal.hand(1)) == 10 and first not in deal.hand(1)


def test_discard_refusals() -> None:
    deal = won_auction()
    deal.apply(PICK_UP)
    own = deal.hand(1)[0]
    foreign = deal.hand(0)[0]
    error = refused(deal, Discard(own, own))
    assert isinstance(error, IllegalDiscard) and "two different cards" in str(error)
    error = refused(deal, Discard(own, foreign))
    assert isinstance(error, IllegalDiscard) and f"{foreign} is not in your hand" in str(error)
    error = refused(deal, Declare(Contract(GameType.GRAND)))
    assert isinstance(error, WrongPhase) and "discard two cards first" in str(error)
    error = refused(deal, Discard(own, deal.hand(1)[1]), seat=0)
    assert isinstance(error, NotYourTurn)


def test_after_discarding_only_non_hand_games_are_offered() -> None:
    deal = picked_up()
    assert all(isinstance(a, Declare) for a in deal.legal_actions())
    contracts = {a.contract for a in deal.legal_actions() if isinstance(a, Declare)}
    assert contracts == {Contract(g) for g in SUIT_AND_GRAND} | {
        Contract(GameType.NULL), Contract(GameType.NULL, ouvert=True)}
    error = refused(deal, PICK_UP)
    assert isinstance(error, WrongPhase) and "declare your game" in str(error)


def test_declaring_without_pickup_is_a_hand_game() -> None:
    deal = won_auction()
    deal.apply(Declare(Contract(GameType.CLUBS)))  # "hand" is implied by not picking up
    assert deal.contract == Contract(GameType.CLUBS, hand=True)
    assert deal.phase is Phase.PLAY and deal.current_seat == 0, "forehand leads the first trick"
    assert not deal.picked_up and len(deal.skat) == 2


@pytest.mark.parametrize("contract", ["clubs hand", "grand hand", "null hand", "hearts hand schneider"])
def test_hand_is_refused_after_pickup(contract: str) -> None:
    deal = picked_up()
    error = refused(deal, Declare(Contract.parse(contract)))
    assert isinstance(error, IllegalDeclaration)
    assert "you picked up the skat: this cannot be a hand game" in str(error)


@pytest.mark.parametrize("contract", ["clubs schneider", "grand schwarz", "spades schneider schwarz"])
def test_schneider_and_schwarz_are_announced_only_in_hand_games(contract: str) -> None:
    deal = picked_up()
    error = refused(deal, Declare(Contract.parse(contract)))
    assert isinstance(error, IllegalDeclaration) and "only a hand game" in str(error)


def test_schwarz_announced_implies_schneider_announced() -> None:
    deal = won_auction()
    deal.apply(Declare(Contract.parse("spades hand schwarz")))
    assert deal.contract == Contract(GameType.SPADES, hand=True, schneider=True, schwarz=True)


@pytest.mark.parametrize("game", ["clubs", "grand"])
def test_ouvert_suit_or_grand_is_hand_only_and_implies_schwarz(game: str) -> None:
    deal = picked_up()
    error = refused(deal, Declare(Contract.parse(f"{game} ouvert")))
    assert isinstance(error, IllegalDeclaration) and "must be played hand" in str(error)
    deal = won_auction()
    deal.apply(Declare(Contract.parse(f"{game} ouvert")))
    assert deal.contract == Contract(GameType.parse(game), hand=True, schneider=True, schwarz=True, ouvert=True)


def test_null_ouvert_with_the_skat() -> None:
    deal = picked_up(bid=46)
    deal.apply(Declare(Contract.parse("null ouvert")))
    assert deal.contract == Contract(GameType.NULL, ouvert=True)


def test_null_ouvert_hand() -> None:
    deal = won_auction(bid=59)
    deal.apply(Declare(Contract.parse("null ouvert")))
    assert deal.contract == Contract(GameType.NULL, hand=True, ouvert=True)


def test_null_has_no_schneider_or_schwarz() -> None:
    deal = won_auction()
    error = refused(deal, Declare(Contract.parse("null hand schneider")))
    assert isinstance(error, IllegalDeclaration) and "no schneider or schwarz" in str(error)


@pytest.mark.parametrize(
    ("bid", "pickup", "contract", "value"),
    [(24, True, "null", 23), (36, False, "null hand", 35), (48, True, "null ouvert", 46),
     (60, False, "null hand ouvert", 59)],
)
def test_null_below_the_bid_is_refused(bid: int, pickup: bool, contract: str, value: int) -> None:
    deal = picked_up(bid) if pickup else won_auction(bid)
    error = refused(deal, Declare(Contract.parse(contract)))
    assert isinstance(error, IllegalDeclaration)
    assert f"worth {value}, less than the bid of {bid}" in str(error)
    assert Contract.parse(contract) not in {a.contract for a in deal.legal_actions() if isinstance(a, Declare)}


def test_null_at_exactly_its_value_is_allowed() -> None:
    deal = picked_up(bid=23)
    deal.apply(Declare(Contract(GameType.NULL)))
    assert deal.contract == Contract(GameType.NULL)


def test_nulls_offered_follow_the_bid() -> None:
    def nulls(deal: Deal) -> set[Contract]:
        return {a.contract for a in deal.legal_actions() if isinstance(a, Declare) and a.contract.game is GameType.NULL}

    assert nulls(won_auction(bid=35)) == {Contract(GameType.NULL, True), Contract(GameType.NULL, True, ouvert=True)}
    assert nulls(won_auction(bid=36)) == {Contract(GameType.NULL, True, ouvert=True)}
    assert nulls(won_auction(bid=60)) == set()
    assert nulls(picked_up(bid=24)) == {Contract(GameType.NULL, ouvert=True)}


@pytest.mark.parametrize("game", SUIT_AND_GRAND)
def test_suit_or_grand_below_the_bid_may_be_declared_and_is_lost_as_overbid(game: GameType) -> None:
    deal = won_auction(bid=264)
    assert Declare(Contract(game, True)) in deal.legal_actions()
    deal.apply(Declare(Contract(game, True)))
    assert deal.phase is Phase.PLAY
    deal.apply(CONCEDE, seat=1)
    result = deal.result
    assert result.overbid and not result.won
    base = game.base_value
    assert result.value == -(-264 // base) * base and result.value >= 264 > result.value - base
    assert result.score == -2 * result.value


def test_ramsch_cannot_be_declared() -> None:
    deal = won_auction()
    error = refused(deal, Declare(Contract(GameType.RAMSCH, hand=True)))
    assert isinstance(error, IllegalDeclaration) and "ramsch" in str(error)


def test_declaration_refusals_out_of_turn_and_phase() -> None:
    deal = won_auction()
    error = refused(deal, PICK_UP, seat=0)
    assert isinstance(error, NotYourTurn)
    error = refused(deal, Declare(Contract(GameType.GRAND, True)), seat=2)
    assert isinstance(error, NotYourTurn)
    error = refused(deal, PLAY[deal.hand(1)[0].index])
    assert isinstance(error, WrongPhase)
    error = refused(deal, Discard(card("CJ"), card("SJ")))
    assert isinstance(error, WrongPhase) and "pick up the skat or declare" in str(error)


@pytest.mark.parametrize(
    "text", ["clubs", "grand hand", "null ouvert", "spades hand schneider schwarz ouvert", "null hand ouvert"])
def test_contract_text_round_trips(text: str) -> None:
    assert str(Contract.parse(text)) == text


@pytest.mark.parametrize("text", ["", "trumps", "clubs double", "grand hand bock"])
def test_contract_parse_errors(text: str) -> None:
    with pytest.raises(ValueError, match="empty contract|unknown game|unknown announcement"):
        Contract.parse(text)


def _every_contract() -> list[Contract]:
    games = [*SUIT_AND_GRAND, GameType.NULL]
    flags = [(h, sn, sw, o, m) for h in (False, True) for sn in (False, True) for sw in (False, True)
             for o in (False, True) for m in (False, True)]
    return [Contract(game, *f) for game in games for f in flags]


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("pickup", [False, True])
def test_offered_declarations_are_exactly_the_accepted_ones(preset: str, pickup: bool) -> None:
    """Under every rules preset, a declaration the deal accepts is offered (as its normalized form),
    and every offered declaration is accepted, before and after the pickup."""
    for seed in range(12):  # seeds give the declarer different cards (Musik needs its card held)
        deal = Deal.new(seed, RuleSet.preset(preset))
        win_auction(deal, 1, 18)
        if pickup:
            deal.apply(PICK_UP)
            deal.apply(deal.legal_actions()[0])
        offered = {a.contract for a in deal.legal_actions() if isinstance(a, Declare)}
        accepted = set()
        for contract in _every_contract():
            trial = deal.clone()
            try:
                trial.apply(Declare(contract))
            except IllegalDeclaration as error:
                assert str(error)
                continue
            accepted.add(trial.contract)
            assert trial.contract in offered, f"{contract} is accepted as {trial.contract} but not offered"
        assert accepted == offered
