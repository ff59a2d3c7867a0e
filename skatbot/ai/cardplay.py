"""Card play for the `normal` level: declarer, defender, null and Ramsch heuristics.

The declarer draws trumps while the defenders may still hold some, then cashes the cards that are
sure to win (aces, and tens once the ace is gone), and otherwise loses cheaply. Defenders put points
on tricks their partner is sure to win, take the declarer's tricks when they can, cash aces in short
suits, lead suits the partner has shown void in, and play through the declarer. Everyone remembers
the voids the tricks have shown and counts which trumps are still out (see `knowledge`).
"""

from __future__ import annotations

import random

from skatbot.engine.actions import PlayCard
from skatbot.engine.cards import CARDS, Card, Rank
from skatbot.engine.games import TRUMP, GameType, TrickTable
from skatbot.engine.views import SeatView

from .evaluation import null_danger
from .knowledge import Knowledge, beats, bits, read_view, threats, trick_state


def choose_card(view: SeatView, rng: random.Random) -> PlayCard:
    """The card to play now (one of the legal ones)."""
    legal = [a.card for a in view.legal_actions if isinstance(a, PlayCard)]
    if len(legal) == 1:
        return PlayCard(legal[0])
    know = read_view(view)
    if know.game is GameType.RAMSCH:
        card = _ramsch(view, know, legal)
    elif know.game is GameType.NULL:
        card = _null_declarer(view, know, legal) if view.is_declarer else _null_defender(view, know, legal)
    elif view.is_declarer:
        card = _declarer(view, know, legal)
    else:
        card = _defender(view, know, legal)
    return PlayCard(card)


# --- helpers ------------------------------------------------------------------------------------

def _cost(know: Knowledge, card: Card) -> float:
    """How much it hurts to give this card away: its points, plus the control a trump gives."""
    power = know.table.power[card.index]
    if know.table.effective_suit[card.index] == TRUMP:
        return card.points + 3 + (power - 100) * 0.6
    return card.points + power * 0.1


def _eff(know: Knowledge, card: Card) -> int:
    return know.table.effective_suit[card.index]


def _seats_after(view: SeatView) -> list[int]:
    return [(view.seat + i) % 3 for i in range(1, 3 - len(view.current_trick))]


def _smear_key(card: Card) -> tuple[int, int]:
    """Points to put on a partner's trick: tens first (aces still win tricks of their own), no jacks."""
    if card.is_jack:
        return (-1, 0)
    return (card.points + (2 if card.rank is Rank.TEN else 0), -int(card.rank))


def _sure(know: Knowledge, card: Card, led: int, after: list[int], against: list[int] | None = None) -> bool:
    seats = after if against is None else [s for s in after if s in against]
    return not threats(know, card.index, led, seats)


# --- declarer -----------------------------------------------------------------------------------

def _declarer(view: SeatView, know: Knowledge, legal: list[Card]) -> Card:
    if view.current_trick:
        return _declarer_follow(view, know, legal)
    defenders = [(view.seat + 1) % 3, (view.seat + 2) % 3]
    trump_mask = know.trump_mask
    out_trumps = (know.possible(defenders[0]) | know.possible(defenders[1])) & trump_mask
    my_trumps = [c for c in legal if _eff(know, c) == TRUMP]
    side = [c for c in legal if _eff(know, c) != TRUMP]
    if out_trumps and my_trumps:
        top = max(my_trumps, key=lambda c: know.table.power[c.index])
        if _sure(know, top, TRUMP, defenders):
            return top
        out_count = bin(out_trumps).count("1")
        enough = len(my_trumps) >= out_count if know.game is GameType.GRAND else len(my_trumps) > out_count // 2
        if enough or not side:
            return min(my_trumps, key=lambda c: _cost(know, c))
    sure = [c for c in side if _sure(know, c, _eff(know, c), defenders)]
    if sure:
        return max(sure, key=lambda c: (c.points, -c.index))
    if out_trumps:
        likely = [c for c in side if c.rank is Rank.ACE and _likely_follow(know, c, defenders)]
        if likely:
            return likely[0]
    if side:
        safe = [c for c in side if c.rank not in (Rank.TEN, Rank.ACE)] or side
        return min(safe, key=lambda c: (_cost(know, c), -_suit_length(know, c)))
    return min(legal, key=lambda c: _cost(know, c))


def _likely_follow(know: Knowledge, card: Card, seats: list[int]) -> bool:
    """Both defenders probably hold the suit: nobody showed a void and they hold at least four of it."""
    suit = _eff(know, card)
    if any(know.is_void(s, suit) for s in seats):
        return False
    return bin(know.unseen & know.suit_mask(suit)).count("1") >= 4


def _suit_length(know: Knowledge, card: Card) -> int:
    return bin(know.hand & know.suit_mask(_eff(know, card))).count("1")


def _declarer_follow(view: SeatView, know: Knowledge, legal: list[Card]) -> Card:
    led, best, _, points = trick_state(view)
    after = _seats_after(view)
    winners = [c for c in legal if beats(know.table, c.index, best, led)]
    losers = [c for c in legal if c not in winners]
    sure = [c for c in winners if _sure(know, c, led, after)]
    if sure:
        pick = min(sure, key=lambda c: _cost(know, c))
        if points + pick.points > 0 or _cost(know, pick) < 6 or not losers:
            return pick
    elif winners:
        ruffs = [c for c in winners if _eff(know, c) == TRUMP and led != TRUMP]
        if ruffs and after:  # ruff where the last defender has the fewest cards left to overruff with
            pick = min(ruffs, key=lambda c: (bin(threats(know, c.index, led, after)).count("1"), c.points,
                                             know.table.power[c.index]))
            if bin(threats(know, pick.index, led, after)).count("1") <= 1 or points >= 4 or not losers:
                return pick
        elif points >= 4 or not losers:
            return min(winners, key=lambda c: _cost(know, c))
    return min(losers or legal, key=lambda c: (_cost(know, c), _suit_length(know, c)))


# --- defenders ----------------------------------------------------------------------------------

def _defender(view: SeatView, know: Knowledge, legal: list[Card]) -> Card:
    declarer = know.declarer
    partner = know.partner()
    assert declarer is not None and partner is not None
    if not view.current_trick:
        return _defender_lead(view, know, legal, declarer, partner)
    led, best, best_seat, points = trick_state(view)
    after = _seats_after(view)
    winners = [c for c in legal if beats(know.table, c.index, best, led)]
    losers = [c for c in legal if c not in winners]
    if best_seat == partner:
        if declarer not in after or _sure(know, CARDS[best], led, [declarer]):
            return max(legal, key=_smear_key)
        mine = [c for c in winners if _sure(know, c, led, [declarer])]
        if mine:
            return max(mine, key=_smear_key)
        return min(legal, key=lambda c: _cost(know, c))
    # the declarer holds the trick (the declarer has played: nobody after me can be the declarer)
    if winners:
        same_suit = [c for c in winners if _eff(know, c) == led]
        if same_suit:
            return max(same_suit, key=_smear_key)
        if points > 0 or not after:
            return min(winners, key=lambda c: _cost(know, c))
    return min(losers or legal, key=lambda c: (_cost(know, c), _suit_length(know, c)))


def _defender_lead(view: SeatView, know: Knowledge, legal: list[Card], declarer: int, partner: int) -> Card:
    side = [c for c in legal if _eff(know, c) != TRUMP]
    sure = [c for c in side if _sure(know, c, _eff(know, c), [declarer])]
    if sure:
        return max(sure, key=lambda c: (c.points, -c.index))
    for card in side:
        suit = _eff(know, card)
        if card.rank is Rank.ACE and _suit_length(know, card) <= 3 and not know.is_void(declarer, suit) \
                and not _suit_led_before(view, know, suit):
            return card
    partner_voids = [c for c in side if know.is_void(partner, _eff(know, c))
                     and not know.is_void(declarer, _eff(know, c)) and not know.is_void(partner, TRUMP)]
    if partner_voids:
        return min(partner_voids, key=lambda c: _cost(know, c))
    if side:
        plain = [c for c in side if c.rank not in (Rank.TEN, Rank.ACE)] or side
        declarer_next = declarer == (view.seat + 1) % 3
        if declarer_next:  # "short way, long suit": play through the declarer in the long suit
            return min(plain, key=lambda c: (-_suit_length(know, c), _cost(know, c)))
        return min(plain, key=lambda c: (_suit_length(know, c), _cost(know, c)))
    return min(legal, key=lambda c: _cost(know, c))


def _suit_led_before(view: SeatView, know: Knowledge, suit: int) -> bool:
    return any(know.table.effective_suit[t.cards[0].index] == suit for t in view.tricks)


# --- null ---------------------------------------------------------------------------------------

def _null_declarer(view: SeatView, know: Knowledge, legal: list[Card]) -> Card:
    table = know.table
    others = know.possible((view.seat + 1) % 3) | know.possible((view.seat + 2) % 3)
    if not view.current_trick:
        def risk(card: Card) -> tuple[int, int, int]:
            suit_cards = others & know.suit_mask(_eff(know, card))
            higher = sum(1 for i in bits(suit_cards) if table.power[i] > table.power[card.index])
            lower = sum(1 for i in bits(suit_cards) if table.power[i] < table.power[card.index])
            return (1 if higher == 0 else 0, lower, -higher)
        return min(legal, key=risk)
    led, best, _, _ = trick_state(view)
    losers = [c for c in legal if not beats(table, c.index, best, led)]
    if losers and _eff(know, losers[0]) == led:
        return max(losers, key=lambda c: table.power[c.index])
    if losers:  # void: throw the card that leaves the hand safest
        hand = [CARDS[i] for i in bits(know.hand)]
        return min(losers, key=lambda c: (null_danger([x for x in hand if x is not c]), -table.power[c.index]))
    return min(legal, key=lambda c: table.power[c.index])


def _null_defender(view: SeatView, know: Knowledge, legal: list[Card]) -> Card:
    table = know.table
    declarer = know.declarer
    assert declarer is not None
    holds = know.possible(declarer)
    if not view.current_trick:
        def pressure(card: Card) -> tuple[int, int, int]:
            suit_cards = holds & know.suit_mask(_eff(know, card))
            under = sum(1 for i in bits(suit_cards) if table.power[i] < table.power[card.index])
            return (0 if suit_cards else 1, under, table.power[card.index])
        return min(legal, key=pressure)
    led, best, best_seat, _ = trick_state(view)
    played = {seat for seat, _ in view.current_trick}
    if best_seat == declarer:
        under = [c for c in legal if not beats(table, c.index, best, led)]
        if under:
            return max(under, key=lambda c: (_eff(know, c) == led, table.power[c.index]))
        return min(legal, key=lambda c: table.power[c.index])
    if declarer not in played:
        return min(legal, key=lambda c: (_eff(know, c) != led, table.power[c.index]))
    return max(legal, key=lambda c: table.power[c.index])


# --- ramsch -------------------------------------------------------------------------------------

DURCHMARSCH_WATCH = 4
"""Tricks one seat must have taken in a row from the start before the Durchmarsch rules below apply."""


def _ramsch(view: SeatView, know: Knowledge, legal: list[Card]) -> Card:
    table = know.table
    sweeper = _sweeper(view)
    if sweeper is not None and view.rules.ramsch_durchmarsch:
        # a Durchmarsch scores +120 here: the sweeper goes on taking tricks, the others stop it (a seat
        # that cannot be sure plays its highest card); without the option the sweeper loses 120 instead,
        # so nobody interferes and the ducking below stands
        return _take_trick(view, table, legal)
    if not view.current_trick:
        return min(legal, key=lambda c: (c.is_jack, table.power[c.index], c.points))
    led, best, _, _ = trick_state(view)
    losers = [c for c in legal if not beats(table, c.index, best, led)]
    if losers:
        return max(losers, key=lambda c: (c.points, table.power[c.index]))
    if not _seats_after(view):
        return min(legal, key=lambda c: (c.points, -table.power[c.index]))
    return min(legal, key=lambda c: table.power[c.index])


def _sweeper(view: SeatView) -> int | None:
    """The seat that has taken every trick so far, once it has taken `DURCHMARSCH_WATCH` of them."""
    if len(view.tricks) < DURCHMARSCH_WATCH:
        return None
    winners = {trick.winner for trick in view.tricks}
    return winners.pop() if len(winners) == 1 else None


def _take_trick(view: SeatView, table: TrickTable, legal: list[Card]) -> Card:
    """The cheapest card that wins the trick as it stands, else the highest (it may still win)."""
    if view.current_trick:
        led, best, _, _ = trick_state(view)
        winners = [c for c in legal if beats(table, c.index, best, led)]
        if winners and not _seats_after(view):
            return min(winners, key=lambda c: table.power[c.index])
    return max(legal, key=lambda c: table.power[c.index])
