"""After a deal, with every card open: could the declared game be won, which cards turned it, and which
games and discards would have won with the skat the declarer picked up.

Pure like the rest of the AI: it reads a finished engine `Deal` (rebuilt from the stored record) and
returns data; the ui turns that into lines ("trick 4: ♥A gave the game away; ♣J keeps 64 points").
The outcome is judged in four levels of the declarer's card points (schneidered, lost, won, schneider);
a card "turned" the deal when the level with best play after it differs from the level before it (only
the player's own side can lose by its card, so every turning is that player's mistake). One solver
serves every position of the deal, so the later positions reuse what the first searches stored.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from skatbot.engine.actions import PlayCard
from skatbot.engine.cards import Card, mask_of, points_of
from skatbot.engine.deal import Deal
from skatbot.engine.games import TRICK_TABLES, TRUMP, Contract, GameType

from .auction import TRUMP_GAMES, game_value
from .evaluation import null_danger, strength
from .solver import Mode, Position, SearchAborted, Solver, position_from_deal
from .verdict import DealAnalysis, NotAnalysable, SkatChoice, Turning, WinLevel, win_level

THRESHOLDS = (31, 61, 90)
"""Declarer card points that reach the next level: out of schneider, won, schneider."""
SKAT_NODE_LIMIT = 400_000
"""Nodes per search of a discard the declarer could have made (a search that runs out says nothing)."""
POINTS_NODE_LIMIT = 300_000
"""Nodes for the exact card points of a position (a few per cent of first-card positions need more)."""
DISCARDS_TRIED = {True: 4, False: 2}
"""How many of the most promising discards are searched for the declared game, and for each other game."""


def analyse(deal: Deal) -> DealAnalysis:
    """The whole analysis of a finished deal with a declarer."""
    if not deal.is_over or deal.declarer is None or deal.contract is None:
        raise NotAnalysable("only a finished deal with a declared game can be analysed")
    declarer, contract = deal.declarer, deal.contract
    judge = _Judge(contract.game, declarer)
    replay = Deal(deal.dealt_hands, deal.dealt_skat, deal.rules, seed=deal.seed)
    skat_points = points_of(mask_of(deal.discarded if deal.picked_up else deal.dealt_skat))
    turnings: list[Turning] = []
    start: WinLevel | None = None
    before = WinLevel.LOST
    start_points: int | None = None
    for seat, action in deal.history:
        if not isinstance(action, PlayCard):
            replay.apply(action, seat)
            continue
        position, banked = position_from_deal(replay), _banked(replay, skat_points)
        if start is None:
            start = before = judge.level(position, banked)
            if judge.mode is Mode.POINTS:
                start_points = judge.points(position, banked, start)
        mover = replay.current_seat
        assert mover is not None
        after_position, gain = judge.solver.play(position, action.card.index)
        after = judge.level_after(after_position, banked + gain, before, mover == declarer)
        if after != before:
            turnings.append(judge.turning(len(replay.tricks) + 1, mover, action.card, before, after, position,
                                          banked, replay.legal_cards()))
        replay.apply(action, seat)
        before = after
        if replay.is_over:
            break
    if start is None:
        raise NotAnalysable("the deal ended before its first card")
    result = deal.result
    could_win = start >= win_level(contract) and not result.overbid
    choices = _skat_choices(deal, could_win) if deal.picked_up else ()
    return DealAnalysis(declarer, contract, start, start_points, could_win, bool(result.won), tuple(turnings),
                        choices, deal.picked_up)


def _banked(deal: Deal, skat_points: int) -> int:
    """The declarer's card points already certain: the skat and the tricks taken (cards in null)."""
    assert deal.declarer is not None
    taken = deal.taken_mask(deal.declarer)
    if deal.game is GameType.NULL:
        return taken.bit_count()
    return skat_points + points_of(taken)


class _Judge:
    """Levels of positions for one declared game, through one solver (its table shared by all)."""

    def __init__(self, game: GameType, declarer: int) -> None:
        self.mode = Mode.NULL if game is GameType.NULL else Mode.POINTS
        self.solver = Solver(game, declarer, self.mode)

    def _reaches(self, position: Position, banked: int, level: WinLevel) -> bool:
        """Whether the declarer's side gets to `level` or above with best play."""
        if self.mode is Mode.NULL:
            return level <= WinLevel.LOST or (banked == 0 and (_empty(position) or self.solver.null_won(position)))
        if level == WinLevel.SCHNEIDERED:
            return True
        need = THRESHOLDS[level - 1] - banked
        return need <= 0 or (not _empty(position) and self.solver.reaches(position, need))

    def _levels(self) -> tuple[WinLevel, ...]:
        return (WinLevel.LOST, WinLevel.WON) if self.mode is Mode.NULL else tuple(WinLevel)

    def level(self, position: Position, banked: int) -> WinLevel:
        levels = self._levels()
        low, high = 0, len(levels) - 1  # bisection over the levels
        while low < high:
            middle = (low + high + 1) // 2
            if self._reaches(position, banked, levels[middle]):
                low = middle
            else:
                high = middle - 1
        return levels[low]

    def level_after(self, position: Position, banked: int, before: WinLevel, by_declarer: bool) -> WinLevel:
        """The level after a card: never above `before` after the declarer's, never below after a
        defender's (best play cannot gain by a card), so only that side is searched."""
        levels = self._levels()
        index = levels.index(before)
        if by_declarer:
            while index > 0 and not self._reaches(position, banked, levels[index]):
                index -= 1
        else:
            while index + 1 < len(levels) and self._reaches(position, banked, levels[index + 1]):
                index += 1
        return levels[index]

    def points(self, position: Position, banked: int, level: WinLevel) -> int | None:
        """The declarer's card points with best play, searched only within the known level's bounds;
        None when that takes more than POINTS_NODE_LIMIT nodes (the level alone is still exact)."""
        if _empty(position):
            return banked
        low = THRESHOLDS[level - 1] if level > WinLevel.SCHNEIDERED else 0
        high = THRESHOLDS[level] - 1 if level < WinLevel.SCHNEIDER else 120
        solver = self.solver
        solver.node_limit = solver.nodes + POINTS_NODE_LIMIT
        try:
            return banked + solver.value(position, low - banked, high - banked)
        except SearchAborted:
            return None
        finally:
            solver.node_limit = 1 << 62

    def turning(self, trick: int, seat: int, card: Card, before: WinLevel, after: WinLevel, position: Position,
                banked: int, legal: Sequence[Card]) -> Turning:
        """The turning card, with the first other legal card that keeps the level of before."""
        by_declarer = seat == self.solver.declarer
        for other in legal:
            if other == card:
                continue
            other_position, gain = self.solver.play(position, other.index)
            if self.level_after(other_position, banked + gain, before, by_declarer) == before:
                points = self.points(other_position, banked + gain, before) if self.mode is Mode.POINTS else None
                return Turning(trick, seat, card, before, after, other, points)
        return Turning(trick, seat, card, before, after, None, None)  # cannot happen with a sound solver


def _empty(position: Position) -> bool:
    return not (position.hands[0] | position.hands[1] | position.hands[2]) and not position.trick


def _skat_choices(deal: Deal, could_win: bool) -> tuple[SkatChoice, ...]:
    """Games worth the bid that a discard among the most promising ones would have won (the declared
    game only when the declarer's own discard could not win it)."""
    declarer, contract = deal.declarer, deal.contract
    assert declarer is not None and contract is not None
    twelve = [*deal.dealt_hands[declarer], *deal.dealt_skat]
    hands = [mask_of(hand) for hand in deal.dealt_hands]
    choices: list[SkatChoice] = []
    games: list[Contract] = [Contract(game) for game in TRUMP_GAMES if game_value(game, twelve) >= deal.bid]
    if deal.bid <= 23:
        games.append(Contract(GameType.NULL))
    elif deal.bid <= 46:
        games.append(Contract(GameType.NULL, ouvert=True))
    for option in games:
        declared = option.game is contract.game
        if declared and could_win:
            continue
        for discard in _promising_discards(twelve, option.game, declarer == 0)[:DISCARDS_TRIED[declared]]:
            if declared and set(discard) == set(deal.discarded):
                continue  # the analysis of the card play already says whether that one could win
            kept = mask_of(twelve) & ~mask_of(discard)
            start = [kept if seat == declarer else hands[seat] for seat in range(3)]
            if _wins(option.game, declarer, Position((start[0], start[1], start[2]), 0),
                     points_of(mask_of(discard))):
                choices.append(SkatChoice(option, discard, declared))
                break
    return tuple(choices)


def _wins(game: GameType, declarer: int, position: Position, skat_points: int) -> bool:
    """Whether the declarer wins from the first card (False when the search runs out of nodes)."""
    try:
        if game is GameType.NULL:
            return Solver(game, declarer, Mode.NULL, node_limit=SKAT_NODE_LIMIT).null_won(position)
        return Solver(game, declarer, node_limit=SKAT_NODE_LIMIT).reaches(position, 61 - skat_points)
    except SearchAborted:
        return False


def _promising_discards(twelve: Sequence[Card], game: GameType, forehand: bool) -> list[tuple[Card, Card]]:
    """Discards in the order a careful declarer would try them: trumps kept, strength and buried points."""
    if game is GameType.NULL:
        def null_key(pair: tuple[Card, Card]) -> tuple[int, int]:
            return null_danger([c for c in twelve if c not in pair]), -(pair[0].index + pair[1].index)

        return sorted(combinations(twelve, 2), key=null_key)
    table = TRICK_TABLES[game]
    side = [c for c in twelve if table.effective_suit[c.index] != TRUMP]
    pool = side if len(side) >= 2 else list(twelve)

    def key(pair: tuple[Card, Card]) -> float:
        kept = [c for c in twelve if c not in pair]
        return -(strength(kept, game, forehand) + 0.03 * (pair[0].points + pair[1].points))

    return sorted(combinations(pool, 2), key=key)
