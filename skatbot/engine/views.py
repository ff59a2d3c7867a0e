"""What one seat may see: its own cards, the public auction and tricks, and what the rules reveal.

The AI and the Discord layer see a deal only through these views, so a hidden card cannot leak by
accident: a view is built from the full state by one function that decides what is visible.
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action, Bid, Hold, Pass
from .cards import Card
from .deal import Deal, Phase
from .games import Contract, GameType, Trick
from .rules import RuleSet


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat's knowledge of a deal at one moment."""

    seat: int
    phase: Phase
    current_seat: int | None
    hand: tuple[Card, ...]
    auction: tuple[tuple[int, Action], ...]  # public: every bid, hold and pass in order
    bid: int
    declarer: int | None
    contract: Contract | None
    picked_up: bool
    skat: tuple[Card, ...]  # the skat as this seat knows it (declarer after pickup: the discards)
    tricks: tuple[Trick, ...]
    current_trick: tuple[tuple[int, Card], ...]
    open_hands: dict[int, tuple[Card, ...]]  # hands the rules reveal: ouvert, a claim, the end of the deal
    kontra: bool
    re: bool
    legal_actions: tuple[Action, ...]
    side_actions: tuple[Action, ...]
    highest_bid_by: tuple[int, int, int]
    rules: RuleSet  # the table's rules, public to every seat (a Ramsch's Durchmarsch and Jungfrau decide its play)
    auction_pair: tuple[int, int] | None = None  # (bidder, listener) while the auction runs
    from_skat: tuple[Card, ...] = ()  # the declarer after pick-up, until the deal ends: the two cards taken up

    @property
    def is_declarer(self) -> bool:
        return self.declarer == self.seat


@dataclass(frozen=True, slots=True)
class PublicView:
    """What everyone at the table may know of a deal at one moment (the board): no seat's hidden cards."""

    phase: Phase
    current_seat: int | None
    auction: tuple[tuple[int, Action], ...]  # every bid, hold and pass in order
    bid: int
    declarer: int | None
    contract: Contract | None
    tricks: tuple[Trick, ...]
    current_trick: tuple[tuple[int, Card], ...]
    open_hands: dict[int, tuple[Card, ...]]  # hands the rules reveal: ouvert, a claim, the end of the deal
    kontra: bool
    re: bool
    is_over: bool
    skat: tuple[Card, ...]  # once the deal is over

    @property
    def game(self) -> GameType | None:
        return self.contract.game if self.contract else None


def _open_hands(deal: Deal) -> dict[int, tuple[Card, ...]]:
    """The hands the rules show to everyone: the declarer's in an ouvert game or after a claim; all at the end."""
    contract = deal.contract
    open_hands: dict[int, tuple[Card, ...]] = {}
    if deal.declarer is not None and contract is not None and (contract.ouvert or deal.claimed):
        open_hands[deal.declarer] = tuple(deal.hand(deal.declarer))
    if deal.is_over:
        for other in range(3):
            open_hands[other] = tuple(deal.hand(other))
    return open_hands


def _auction(deal: Deal) -> tuple[tuple[int, Action], ...]:
    return tuple((s, a) for s, a in deal.history if s is not None and isinstance(a, (Bid, Hold, Pass)))


def public_view(deal: Deal) -> PublicView:
    """Build the public view of `deal`, as `seat_view` builds a seat's: one function decides what is public."""
    return PublicView(
        phase=deal.phase,
        current_seat=deal.current_seat,
        auction=_auction(deal),
        bid=deal.bid,
        declarer=deal.declarer,
        contract=deal.contract,
        tricks=tuple(deal.tricks),
        current_trick=tuple(deal.current_trick),
        open_hands=_open_hands(deal),
        kontra=deal.kontra,
        re=deal.re,
        is_over=deal.is_over,
        skat=tuple(deal.skat) if deal.is_over else (),
    )


def seat_view(deal: Deal, seat: int) -> SeatView:
    """Build `seat`'s view of `deal`."""
    contract = deal.contract
    open_hands = _open_hands(deal)
    skat: tuple[Card, ...] = ()
    if deal.is_over:
        skat = tuple(deal.skat)
    elif seat == deal.declarer and deal.picked_up:
        skat = tuple(deal.discarded)
    auction = _auction(deal)
    return SeatView(
        seat=seat,
        phase=deal.phase,
        current_seat=deal.current_seat,
        hand=tuple(deal.hand(seat)),
        auction=auction,
        bid=deal.bid,
        declarer=deal.declarer,
        contract=contract,
        picked_up=deal.picked_up,
        skat=skat,
        tricks=tuple(deal.tricks),
        current_trick=tuple(deal.current_trick),
        open_hands=open_hands,
        kontra=deal.kontra,
        re=deal.re,
        legal_actions=tuple(deal.legal_actions()) if deal.current_seat == seat else (),
        side_actions=tuple(deal.side_actions(seat)),
        highest_bid_by=(deal.highest_bid_by[0], deal.highest_bid_by[1], deal.highest_bid_by[2]),
        rules=deal.rules,
        auction_pair=deal.auction_pair,
        from_skat=tuple(deal.dealt_skat) if seat == deal.declarer and deal.picked_up and not deal.is_over else (),
    )
