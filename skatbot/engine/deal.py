"""One deal of Skat as a state machine: auction, skat, declaration, ten tricks, result.

Shaped like a game-framework state: `phase`, `current_seat`, `legal_actions()`, `apply(action)`,
`is_over`, `result`. Chance is explicit (a seed, or the cards given), so (cards, actions) replays a
deal exactly. Refused actions raise an `IllegalAction` and never change the state. Hands are kept
as bitmasks over `Card.index` because AI players simulate thousands of deals.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import replace
from enum import Enum, IntEnum
from functools import cache

from . import errors
from .actions import (
    HOLD,
    PASS,
    PICK_UP,
    PLAY,
    Action,
    Bid,
    Claim,
    Concede,
    Declare,
    Discard,
    Hold,
    Kontra,
    Pass,
    PickUpSkat,
    PlayCard,
    Re,
    TimeOut,
)
from .cards import CARDS, Card, Suit, cards_of, mask_of
from .games import TRICK_TABLES, Contract, GameType, Trick, TrickTable, trick_winner
from .rules import OFFICIAL, RuleSet
from .scoring import DealResult, Ending, compute_result


class Seat(IntEnum):
    FOREHAND = 0
    MIDDLEHAND = 1
    REARHAND = 2


FOREHAND, MIDDLEHAND, REARHAND = 0, 1, 2
"""Seats as plain ints on the hot path; `Seat` names them."""


class Phase(Enum):
    AUCTION = "auction"
    SKAT = "skat"  # the declarer picks up the skat or declares a hand game
    DISCARD = "discard"
    DECLARE = "declare"
    PLAY = "play"
    FINISHED = "finished"


def _null_value(contract: Contract, rules: RuleSet = OFFICIAL) -> int:
    return rules.null_value(contract.hand, contract.ouvert)


_PLAYS_BY_SUIT: tuple[tuple[tuple[PlayCard, ...], ...], ...] = tuple(
    tuple(tuple(PLAY[suit * 8 + rank] for rank in range(8) if byte >> rank & 1) for byte in range(256))
    for suit in range(4))
"""The shared PlayCard actions of each set of ranks in one suit (one byte of a hand mask), in index order."""


@cache
def _suit_and_grand_contracts(hand: bool, open_any: bool) -> tuple[Contract, ...]:
    """The suit and grand games a declarer may name (before Musik and nulls), built once."""
    contracts: list[Contract] = []
    for game in (GameType.DIAMONDS, GameType.HEARTS, GameType.SPADES, GameType.CLUBS, GameType.GRAND):
        contracts.append(Contract(game, hand))
        if hand:
            contracts.append(Contract(game, True, schneider=True))
            contracts.append(Contract(game, True, schneider=True, schwarz=True))
            contracts.append(Contract(game, True, True, True, ouvert=True))
        if open_any:  # open play is one more step on any game: with or without announcements
            contracts.append(Contract(game, hand, ouvert=True))
            if hand:
                contracts.append(Contract(game, True, schneider=True, ouvert=True))
    return tuple(contracts)


_NULL_CONTRACTS: dict[bool, tuple[Contract, Contract]] = {
    hand: (Contract(GameType.NULL, hand), Contract(GameType.NULL, hand, ouvert=True)) for hand in (False, True)}

BID_18 = Bid(18)
_BID_ACTIONS: dict[tuple[int, ...], tuple[Bid, ...]] = {}


def _bids_above(ladder: tuple[int, ...], value: int) -> tuple[Bid, ...]:
    """The Bid actions on `ladder` above `value`, shared so the auction allocates nothing."""
    bids = _BID_ACTIONS.get(ladder)
    if bids is None:
        bids = _BID_ACTIONS[ladder] = tuple(Bid(v) for v in ladder)
    return bids[bisect_right(ladder, value):]


DEAL_ORDER: tuple[tuple[str, int], ...] = (
    ("F", 3), ("M", 3), ("R", 3), ("S", 2), ("F", 4), ("M", 4), ("R", 4), ("F", 3), ("M", 3), ("R", 3))
"""Dealt 3 – skat 2 – 4 – 3, starting with forehand."""


def deal_cards(seed: int) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
    """Shuffle the pack with `seed` and deal it 3 – 2 – 4 – 3. Returns (hands, skat)."""
    pack = list(CARDS)
    random.Random(seed).shuffle(pack)
    piles: dict[str, list[Card]] = {"F": [], "M": [], "R": [], "S": []}
    position = 0
    for pile, count in DEAL_ORDER:
        piles[pile].extend(pack[position:position + count])
        position += count
    return (tuple(piles["F"]), tuple(piles["M"]), tuple(piles["R"])), tuple(piles["S"])


class Deal:
    """The full state of one deal. Seats: 0 forehand, 1 middlehand, 2 rearhand."""

    def __init__(self, hands: Sequence[Iterable[Card]], skat: Iterable[Card], rules: RuleSet = OFFICIAL,
                 seed: int | None = None) -> None:
        hand_lists = [tuple(hand) for hand in hands]
        skat_cards = tuple(skat)
        if len(hand_lists) != 3 or any(len(h) != 10 for h in hand_lists) or len(skat_cards) != 2:
            raise ValueError("a deal needs three hands of ten cards and a skat of two")
        masks = [mask_of(h) for h in hand_lists]
        if mask_of(skat_cards) | masks[0] | masks[1] | masks[2] != (1 << 32) - 1 or len(
                set(hand_lists[0] + hand_lists[1] + hand_lists[2] + skat_cards)) != 32:
            raise ValueError("the hands and the skat must hold each of the 32 cards exactly once")
        self.rules = rules
        self.seed = seed
        self.dealt_hands: tuple[tuple[Card, ...], ...] = tuple(hand_lists)
        self.dealt_skat: tuple[Card, ...] = skat_cards
        self.history: list[tuple[int | None, Action]] = []
        self.phase = Phase.AUCTION
        self._hands = masks
        self._skat = mask_of(skat_cards)
        # auction
        self.bid = 0
        self.highest_bid_by = [0, 0, 0]  # the highest value each seat said or held
        self._bidder = MIDDLEHAND
        self._listener = FOREHAND
        self._passed = [False, False, False]
        self._turn: int | None = MIDDLEHAND
        self._forehand_last_call = False
        # declaration and play
        self.declarer: int | None = None
        self.contract: Contract | None = None
        self.picked_up = False
        self.discarded: tuple[Card, ...] = ()
        self._table: TrickTable = TRICK_TABLES[GameType.GRAND]
        self._trick: list[int] = []
        self._leader = FOREHAND
        self.tricks: list[Trick] = []
        self._taken = [0, 0, 0]  # cards won per seat, as masks
        self._trick_counts = [0, 0, 0]
        self.kontra = False
        self.re = False
        self.claimed = False
        self.conceded: set[int] = set()
        self.timed_out: int | None = None
        self.ending: Ending | None = None
        self._result: DealResult | None = None

    @classmethod
    def new(cls, seed: int, rules: RuleSet = OFFICIAL) -> Deal:
        hands, skat = deal_cards(seed)
        return cls(hands, skat, rules, seed=seed)

    # --- state queries -----------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.FINISHED

    @property
    def current_seat(self) -> int | None:
        """Whose turn it is, or None when the deal is over."""
        return self._turn

    @property
    def game(self) -> GameType | None:
        return self.contract.game if self.contract else None

    def hand(self, seat: int) -> list[Card]:
        return cards_of(self._hands[seat])

    def hand_mask(self, seat: int) -> int:
        return self._hands[seat]

    @property
    def skat(self) -> list[Card]:
        """The skat as it lies now: the dealt skat, or the two discards after a pickup."""
        return cards_of(self._skat)

    @property
    def current_trick(self) -> list[tuple[int, Card]]:
        return [((self._leader + i) % 3, CARDS[c]) for i, c in enumerate(self._trick)]

    @property
    def trick_leader(self) -> int:
        return self._leader

    def taken_mask(self, seat: int) -> int:
        return self._taken[seat]

    def trick_count(self, seat: int) -> int:
        return self._trick_counts[seat]

    @property
    def result(self) -> DealResult:
        if self._result is None:
            if not self.is_over:
                raise errors.WrongPhase("deal_not_over")
            self._result = compute_result(self)
        return self._result

    # --- legal actions -------------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Everything the seat to move may do now (empty once the deal is over)."""
        phase = self.phase
        if phase is Phase.PLAY:
            return self._legal_cards()
        if phase is Phase.AUCTION:
            return self._auction_actions()
        if phase is Phase.SKAT:
            return [PICK_UP, *(Declare(c) for c in self._declarable(hand=True))]
        if phase is Phase.DISCARD:
            assert self.declarer is not None  # the auction is over
            hand = cards_of(self._hands[self.declarer])
            return [Discard(a, b) for i, a in enumerate(hand) for b in hand[i + 1:]]
        if phase is Phase.DECLARE:
            return [Declare(c) for c in self._declarable(hand=False)]
        return []

    def legal_cards(self) -> list[Card]:
        return cards_of(self.legal_mask())

    def legal_mask(self) -> int:
        """Bitmask of the cards the seat to move may play."""
        if self._turn is None:
            return 0
        hand = self._hands[self._turn]
        if not self._trick:
            return hand
        follow = hand & self._table.follow_mask[self._table.effective_suit[self._trick[0]]]
        return follow or hand

    def _legal_cards(self) -> list[Action]:
        mask = self.legal_mask()
        diamonds, hearts, spades, clubs = _PLAYS_BY_SUIT
        return [*diamonds[mask & 255], *hearts[mask >> 8 & 255], *spades[mask >> 16 & 255], *clubs[mask >> 24]]

    @property
    def auction_pair(self) -> tuple[int, int] | None:
        """(bidder, listener) while two seats bid against each other; None otherwise (also at forehand's
        last call, when both others passed without a bid). Public: everyone at the table sees who bids to whom."""
        if self.phase is not Phase.AUCTION or self._forehand_last_call:
            return None
        return (self._bidder, self._listener)

    def _auction_actions(self) -> list[Action]:
        if self._forehand_last_call:
            return [BID_18, PASS]
        if self._turn == self._bidder:
            return [*_bids_above(self.rules.bid_ladder, self.bid), PASS]
        return [HOLD, PASS]

    def _declarable(self, hand: bool) -> list[Contract]:
        contracts = list(_suit_and_grand_contracts(hand, self.rules.ouvert_any_game))
        if self.rules.musik:  # Musik on any of the above whose card the declarer holds
            assert self.declarer is not None  # the auction is over
            held = self._hands[self.declarer]
            contracts += [replace(c, musik=True) for c in contracts
                          if c.musik_card is not None and held >> c.musik_card.index & 1]
        for null in _NULL_CONTRACTS[hand]:
            if _null_value(null, self.rules) >= self.bid:
                contracts.append(null)
        return contracts

    def side_actions(self, seat: int) -> list[Action]:
        """What `seat` may do out of turn now: Kontra, Re, Claim, Concede (rules permitting)."""
        if self.phase is not Phase.PLAY or self.declarer is None:
            return []
        out: list[Action] = []
        before_first_card = not self.tricks and not self._trick
        if seat == self.declarer:
            if self.kontra and not self.re and before_first_card:
                out.append(Re())
            if not self.claimed:
                out.append(Claim())
            out.append(Concede())
            return out
        if self.rules.kontra and not self.kontra and before_first_card and (
                not self.rules.kontra_needs_bid or self.highest_bid_by[seat] >= 18):
            out.append(Kontra())
        if seat not in self.conceded:
            out.append(Concede())
        return out

    # --- applying actions ------------------------------------------------------------------------

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Apply `action` for `seat` (default: the seat to move). Raises IllegalAction, changing nothing."""
        if self.phase is Phase.FINISHED:
            raise errors.WrongPhase("deal_over")
        if isinstance(action, PlayCard) and (seat is None or seat == self._turn):
            if self.phase is not Phase.PLAY:
                raise errors.WrongPhase("play_after_declaration", phase=self.phase)
            self._play(action.card)
            self.history.append((self._last_player, action))
            return
        if isinstance(action, TimeOut):
            self._time_out(action)
            self.history.append((None, action))
            return
        if isinstance(action, (Kontra, Re, Claim, Concede)):
            actor = self._turn if seat is None else seat
            if actor is None or actor not in (0, 1, 2):
                raise errors.IllegalAction("no_seat")
            self._side_action(action, actor)
            self.history.append((actor, action))
            return
        actor = self._turn if seat is None else seat
        if actor != self._turn:
            assert self._turn is not None  # a finished deal was refused above
            raise errors.NotYourTurn("not_your_turn", seat=Seat(self._turn))
        phase = self.phase
        if phase is Phase.AUCTION:
            self._auction(action)
        elif phase is Phase.SKAT:
            if isinstance(action, PickUpSkat):
                self._pick_up()
            elif isinstance(action, Declare):
                self._declare(action.contract, hand=True)
            else:
                raise errors.WrongPhase("skat_first")
        elif phase is Phase.DISCARD:
            if not isinstance(action, Discard):
                raise errors.WrongPhase("discard_first")
            self._discard(action.first, action.second)
        elif phase is Phase.DECLARE:
            if not isinstance(action, Declare):
                raise errors.WrongPhase("declare_first")
            self._declare(action.contract, hand=False)
        elif phase is Phase.PLAY:
            raise errors.WrongPhase("play_a_card")
        self.history.append((actor, action))

    # auction

    def _auction(self, action: Action) -> None:
        seat = self._turn
        assert seat is not None
        if self._forehand_last_call:
            if isinstance(action, Bid):
                if action.value != 18:
                    raise errors.IllegalBid("forehand_18")
                self.bid = 18
                self.highest_bid_by[seat] = 18
                self._end_auction(seat)
            elif isinstance(action, Pass):
                self._passed[seat] = True
                self._all_passed()
            else:
                raise errors.IllegalBid("bid_18")
            return
        if seat == self._bidder:
            if isinstance(action, Bid):
                if not self.rules.is_bid(action.value):
                    raise errors.IllegalBid("off_ladder", value=action.value)
                if action.value <= self.bid:
                    raise errors.IllegalBid("bid_more", bid=self.bid)
                self.bid = action.value
                self.highest_bid_by[seat] = action.value
                self._turn = self._listener
            elif isinstance(action, Pass):
                self._passed[seat] = True
                self._next_pair(survivor=self._listener)
            elif isinstance(action, Hold):
                raise errors.IllegalBid("bidding")
            else:
                raise errors.WrongPhase("auction_running")
        else:
            if isinstance(action, Hold):
                self.highest_bid_by[seat] = self.bid
                self._turn = self._bidder
            elif isinstance(action, Pass):
                self._passed[seat] = True
                self._next_pair(survivor=self._bidder)
            elif isinstance(action, Bid):
                raise errors.IllegalBid("listening")
            else:
                raise errors.WrongPhase("auction_running")

    def _next_pair(self, survivor: int) -> None:
        if self._bidder == MIDDLEHAND:  # rearhand now bids to the survivor
            self._bidder, self._listener = REARHAND, survivor
            self._turn = REARHAND
        elif self.bid > 0:
            self._end_auction(survivor)
        else:  # both others passed without a bid: forehand may play at 18
            self._forehand_last_call = True
            self._turn = survivor

    def _all_passed(self) -> None:
        if self.rules.ramsch:
            self.contract = Contract(GameType.RAMSCH)
            self._table = TRICK_TABLES[GameType.RAMSCH]
            self.phase = Phase.PLAY
            self._turn = FOREHAND
        else:
            self._finish(Ending.PASSED)

    def _end_auction(self, declarer: int) -> None:
        self.declarer = declarer
        self.phase = Phase.SKAT
        self._turn = declarer

    # skat and declaration

    def _pick_up(self) -> None:
        seat = self.declarer
        assert seat is not None
        self._hands[seat] |= self._skat
        self._skat = 0
        self.picked_up = True
        self.phase = Phase.DISCARD

    def _discard(self, first: Card, second: Card) -> None:
        seat = self.declarer
        assert seat is not None
        if first is second:
            raise errors.IllegalDiscard("same_card")
        for card in (first, second):
            if not self._hands[seat] >> card.index & 1:
                raise errors.IllegalDiscard("not_in_hand", card=card)
        discard = (1 << first.index) | (1 << second.index)
        self._hands[seat] &= ~discard
        self._skat = discard
        self.discarded = (first, second)
        self.phase = Phase.DECLARE

    def normalize(self, contract: Contract, hand: bool) -> Contract:
        """Fill in what a declaration implies, or refuse what the rules do not allow."""
        game = contract.game
        if game is GameType.RAMSCH:
            raise errors.IllegalDeclaration("ramsch_declared")
        if contract.hand != hand and contract.hand:
            raise errors.IllegalDeclaration("not_hand")
        schneider, schwarz, ouvert = contract.schneider, contract.schwarz, contract.ouvert
        if game is GameType.NULL:
            if schneider or schwarz:
                raise errors.IllegalDeclaration("null_announcement")
            normalized = Contract(game, hand, ouvert=ouvert)
            if contract.musik:
                raise errors.IllegalDeclaration("null_musik")
            if _null_value(normalized, self.rules) < self.bid:
                raise errors.IllegalDeclaration("null_below_bid", contract=normalized,
                                                value=_null_value(normalized, self.rules), bid=self.bid)
            return normalized
        if ouvert and not self.rules.ouvert_any_game:
            if not hand:
                raise errors.IllegalDeclaration("open_hand")
            schneider = schwarz = True
        if schwarz:
            schneider = True
        if schneider and not hand:
            raise errors.IllegalDeclaration("announce_hand")
        if contract.musik:
            self._check_musik(contract)
        return Contract(game, hand, schneider, schwarz, ouvert, contract.musik)

    def _check_musik(self, contract: Contract) -> None:
        """Musik needs the house rule and the card it names in the declarer's hand (else it cannot be made)."""
        if not self.rules.musik:
            raise errors.IllegalDeclaration("musik_off")
        card = contract.musik_card
        assert card is not None and self.declarer is not None
        if not self._hands[self.declarer] >> card.index & 1:
            raise errors.IllegalDeclaration("musik_card", card=card)

    def _declare(self, contract: Contract, hand: bool) -> None:
        contract = self.normalize(contract, hand)
        self.contract = contract
        self._table = TRICK_TABLES[contract.game]
        self.phase = Phase.PLAY
        self._turn = FOREHAND

    # card play

    def _play(self, card: Card) -> None:
        seat = self._turn
        assert seat is not None
        bit = 1 << card.index
        hand = self._hands[seat]
        if not hand & bit:
            raise errors.IllegalCard("not_in_hand", card=card)
        trick = self._trick
        if trick:
            table = self._table
            led = table.effective_suit[trick[0]]
            if not table.follow_mask[led] & bit and hand & table.follow_mask[led]:
                raise errors.IllegalCard("must_follow_trumps") if led == 4 else errors.IllegalCard("must_follow", suit=Suit(led))
        self._hands[seat] = hand ^ bit
        trick.append(card.index)
        self._last_player = seat
        if len(trick) < 3:
            self._turn = (seat + 1) % 3
            return
        self._close_trick()

    def _close_trick(self) -> None:
        trick = self._trick
        winner = (self._leader + trick_winner(self._table, trick)) % 3
        self.tricks.append(Trick(self._leader, (CARDS[trick[0]], CARDS[trick[1]], CARDS[trick[2]]), winner))
        self._taken[winner] |= (1 << trick[0]) | (1 << trick[1]) | (1 << trick[2])
        self._trick_counts[winner] += 1
        self._trick = []
        self._leader = winner
        self._turn = winner
        if len(self.tricks) == 10:
            if self.declarer is None:  # ramsch: the skat goes to the winner of the last trick
                self._taken[winner] |= self._skat
            self._finish(Ending.PLAYED_OUT)
            return
        contract = self.contract
        assert contract is not None
        if self.declarer is not None:
            if contract.game is GameType.NULL:
                if winner == self.declarer:
                    self._finish(Ending.SETTLED)
            elif contract.schwarz and winner != self.declarer:
                self._finish(Ending.SETTLED)

    # early endings

    def _side_action(self, action: Action, seat: int) -> None:
        if action not in self.side_actions(seat):
            raise _side_refusal(self, action, seat)
        if isinstance(action, Kontra):
            self.kontra = True
        elif isinstance(action, Re):
            self.re = True
        elif isinstance(action, Claim):
            self.claimed = True
        elif isinstance(action, Concede):
            self.conceded.add(seat)
            if seat == self.declarer:
                self._give_rest(to_declarer=False)
                self._finish(Ending.DECLARER_CONCEDED)
            elif len(self.conceded - {self.declarer}) == 2:
                self._give_rest(to_declarer=True)
                self._finish(Ending.CLAIMED if self.claimed else Ending.DEFENDERS_CONCEDED)

    def _time_out(self, action: TimeOut) -> None:
        """A time-out (or a player leaving) ends the deal. In play the rest goes to the other side; in the
        auction there is no game (a penalty); between the auction and the first card only the declarer's
        time-out after naming a game counts (ISS: `1 C w TI.1`, before the discard), and that game is lost."""
        seat, phase = action.seat, self.phase
        if seat not in (0, 1, 2):
            raise errors.IllegalAction("bad_seat", number=seat)
        if phase is Phase.AUCTION:
            if action.contract is not None:
                raise errors.WrongPhase("timeout_phase")
            self.timed_out = seat
            self._finish(Ending.PENALTY)
            return
        if self.declarer is None:
            raise errors.WrongPhase("timeout_phase")
        if phase is Phase.PLAY:
            if action.contract is not None:
                raise errors.WrongPhase("timeout_phase")
            self.timed_out = seat
            self._give_rest(to_declarer=seat != self.declarer)
            self._finish(Ending.TIME_OUT)
            return
        if action.contract is None or seat != self.declarer:
            raise errors.WrongPhase("timeout_phase")
        contract = self.normalize(action.contract, hand=phase is Phase.SKAT)
        if contract not in self._declarable(hand=phase is Phase.SKAT):
            raise errors.IllegalDeclaration("not_now")
        self.contract = contract
        self.timed_out = seat
        self._finish(Ending.TIME_OUT)

    def _give_rest(self, to_declarer: bool) -> None:
        """Every card not in a finished trick goes to one side; each open or unplayed trick counts."""
        declarer = self.declarer
        assert declarer is not None
        rest = self._hands[0] | self._hands[1] | self._hands[2]
        for index in self._trick:
            rest |= 1 << index
        tricks_left = 10 - len(self.tricks)
        if to_declarer and self.game is GameType.NULL:
            return  # in a null the declarer never receives tricks this way
        seat = declarer if to_declarer else (declarer + 1) % 3
        self._taken[seat] |= rest
        self._trick_counts[seat] += tricks_left

    def _finish(self, ending: Ending) -> None:
        if ending is Ending.PLAYED_OUT and len(self.tricks) < 10:
            ending = Ending.SETTLED
        self.ending = ending
        self.phase = Phase.FINISHED
        self._turn = None

    # --- copies ------------------------------------------------------------------------------------

    def clone(self) -> Deal:
        """An independent copy, cheap enough for search."""
        other = object.__new__(Deal)
        other.__dict__.update(self.__dict__)
        other.history = list(self.history)
        other.highest_bid_by = list(self.highest_bid_by)
        other._passed = list(self._passed)
        other._hands = list(self._hands)
        other._trick = list(self._trick)
        other.tricks = list(self.tricks)
        other._taken = list(self._taken)
        other._trick_counts = list(self._trick_counts)
        other.conceded = set(self.conceded)
        return other


def _side_refusal(deal: Deal, action: Action, seat: int) -> errors.IllegalAction:
    """Why a side action (Kontra, Re, claim, concede) is refused now."""
    if isinstance(action, Kontra):
        if not deal.rules.kontra:
            return errors.IllegalAction("kontra_off")
        if seat == deal.declarer:
            return errors.IllegalAction("kontra_declarer")
        if deal.kontra:
            return errors.IllegalAction("kontra_said")
        if deal.rules.kontra_needs_bid and deal.highest_bid_by[seat] < 18:
            return errors.IllegalAction("kontra_needs_bid")
        return errors.IllegalAction("kontra_late")
    if isinstance(action, Re):
        if seat != deal.declarer:
            return errors.IllegalAction("re_defender")
        if not deal.kontra:
            return errors.IllegalAction("re_no_kontra")
        return errors.IllegalAction("re_said") if deal.re else errors.IllegalAction("re_late")
    if isinstance(action, Claim):
        if seat != deal.declarer:
            return errors.IllegalAction("claim_defender")
        return errors.IllegalAction("claimed")
    if isinstance(action, Concede):
        if seat in deal.conceded:
            return errors.IllegalAction("conceded")
        return errors.IllegalAction("nothing_to_concede")
    return errors.IllegalAction("not_now")
