"""What a seat can infer from its view during card play: cards gone, cards unseen, voids shown, points.

Everything here is derived from the `SeatView` alone (the seat's hand, the public tricks, the skat the
declarer put away, open hands), so the card-play heuristics cannot use a hidden card by mistake.
"""

from __future__ import annotations

from dataclasses import dataclass

from skatbot.engine.cards import CARDS, Card, mask_of
from skatbot.engine.games import TRICK_TABLES, TRUMP, GameType, TrickTable
from skatbot.engine.views import SeatView

FULL = (1 << 32) - 1


@dataclass(frozen=True, slots=True)
class Knowledge:
    """One seat's picture of the card play so far."""

    seat: int
    game: GameType
    table: TrickTable
    declarer: int | None
    hand: int  # own cards (mask)
    played: int  # cards in finished tricks and the current trick
    unseen: int  # cards whose holder this seat does not know (other hands, and the skat if hidden)
    voids: tuple[int, int, int]  # per seat: bit e set when the seat showed it has no effective suit e
    points: tuple[int, int, int]  # card points taken per seat in finished tricks
    open_hands: dict[int, int]  # masks of hands the rules show (ouvert, claim)

    def suit_mask(self, effective_suit: int) -> int:
        return self.table.follow_mask[effective_suit]

    @property
    def trump_mask(self) -> int:
        return self.table.follow_mask[TRUMP] if self.game is not GameType.NULL else 0

    def is_void(self, seat: int, effective_suit: int) -> bool:
        return bool(self.voids[seat] >> effective_suit & 1)

    def possible(self, seat: int) -> int:
        """Cards `seat` may hold: its open hand, or the unseen cards minus the suits it showed void."""
        if seat == self.seat:
            return self.hand
        if seat in self.open_hands:
            return self.open_hands[seat]
        mask = self.unseen
        for suit in range(5):
            if self.voids[seat] >> suit & 1:
                mask &= ~self.table.follow_mask[suit]
        return mask

    def partner(self) -> int | None:
        """The other defender, when this seat defends a declared game."""
        if self.declarer is None or self.declarer == self.seat:
            return None
        return 3 - self.seat - self.declarer


def read_view(view: SeatView) -> Knowledge:
    """Build the seat's knowledge from its view (valid once a game is declared or Ramsch is played)."""
    if view.contract is None:
        raise ValueError("card-play knowledge needs a declared game")
    game = view.contract.game
    table = TRICK_TABLES[game]
    hand = mask_of(view.hand)
    played = 0
    voids = [0, 0, 0]
    points = [0, 0, 0]
    eff = table.effective_suit
    for trick in view.tricks:
        played |= mask_of(trick.cards)
        points[trick.winner] += trick.points
        _note_voids(voids, eff, trick.leader, [c.index for c in trick.cards])
    if view.current_trick:
        played |= mask_of(card for _, card in view.current_trick)
        leader = view.current_trick[0][0]
        _note_voids(voids, eff, leader, [card.index for _, card in view.current_trick])
    open_hands = {seat: mask_of(cards) for seat, cards in view.open_hands.items() if seat != view.seat}
    known = hand | played | mask_of(view.skat)
    for mask in open_hands.values():
        known |= mask
    return Knowledge(view.seat, game, table, view.declarer, hand, played, FULL & ~known,
                     (voids[0], voids[1], voids[2]), (points[0], points[1], points[2]), open_hands)


def _note_voids(voids: list[int], eff: tuple[int, ...], leader: int, cards: list[int]) -> None:
    led = eff[cards[0]]
    for position in range(1, len(cards)):
        if eff[cards[position]] != led:
            voids[(leader + position) % 3] |= 1 << led


# --- trick arithmetic -----------------------------------------------------------------------------

def beats(table: TrickTable, card: int, best: int, led: int) -> bool:
    """Whether `card` takes the trick from `best` when effective suit `led` was led."""
    suit = table.effective_suit[card]
    if suit != TRUMP and suit != led:
        return False
    best_suit = table.effective_suit[best]
    if suit == TRUMP and best_suit != TRUMP:
        return True
    if suit != best_suit:
        return False
    return table.power[card] > table.power[best]


def trick_state(view: SeatView) -> tuple[int, int, int, int]:
    """(led effective suit, index of the best card so far, seat holding it, points in the trick)."""
    assert view.contract is not None  # cards are played once a game (or Ramsch) is set
    table = TRICK_TABLES[view.contract.game]
    led = table.effective_suit[view.current_trick[0][1].index]
    best_seat, best = view.current_trick[0][0], view.current_trick[0][1].index
    for seat, card in view.current_trick[1:]:
        if beats(table, card.index, best, led):
            best_seat, best = seat, card.index
    points = sum(card.points for _, card in view.current_trick)
    return led, best, best_seat, points


def threats(know: Knowledge, card: int, led: int, seats_after: list[int]) -> int:
    """Cards the seats still to play might hold that would beat `card` (used for 'is this a sure winner')."""
    table = know.table
    out = 0
    for seat in seats_after:
        possible = know.possible(seat)
        follow = possible & table.follow_mask[led]
        higher = 0
        for index in _bits(follow):
            if beats(table, index, card, led):
                higher |= 1 << index
        out |= higher
        if led != TRUMP and not (seat in know.open_hands and follow) and know.trump_mask:
            for index in _bits(possible & know.trump_mask):
                if beats(table, index, card, led):
                    out |= 1 << index
    return out


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


bits = _bits


def cards(mask: int) -> list[Card]:
    return [CARDS[i] for i in _bits(mask)]
