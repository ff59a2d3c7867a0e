"""The double-dummy solver against plain minimax over the engine (Deal.clone/apply) on small endgames."""

from __future__ import annotations

import random

import pytest

from skatbot.ai.solver import Mode, Position, SearchAborted, Solver, blocks, layout, position_from_deal
from skatbot.engine import PLAY, Contract, Deal, Declare, GameType, Pass, Phase
from skatbot.engine.cards import mask_of, parse_cards
from skatbot.engine.rules import AllPass, RuleSet
from tests.ai.ai_helpers import make_deal, win_auction

GAMES = (GameType.CLUBS, GameType.SPADES, GameType.HEARTS, GameType.DIAMONDS, GameType.GRAND, GameType.NULL)


def declared(seed: int, game: GameType, declarer: int) -> Deal:
    deal = Deal.new(seed)
    win_auction(deal, declarer)
    deal.apply(Declare(Contract(game, hand=True)))
    return deal


def endgame(seed: int, game: GameType, cards_played: int) -> Deal | None:
    """A declared deal played at random until `cards_played` cards are down (None if it ended early)."""
    rng = random.Random(seed)
    deal = declared(seed, game, rng.randrange(3))
    while len(deal.tricks) * 3 + len(deal.current_trick) < cards_played:
        if deal.is_over:
            return None
        deal.apply(rng.choice(deal.legal_actions()))
    return None if deal.is_over else deal


def declarer_of(deal: Deal) -> int:
    """The declarer of a deal `endgame` gave (always declared)."""
    assert deal.declarer is not None
    return deal.declarer


def minimax(deal: Deal, mode: Mode) -> int:
    """What the declarer's side takes from here with best play, by brute force over the engine.

    Points/tricks: the declarer maximises its points (cards taken, in tricks mode). Null: 1 if the
    declarer cannot avoid a trick, else 0 (the declarer minimises)."""
    declarer = deal.declarer
    seat = deal.current_seat
    results = []
    for card in deal.legal_cards():
        child = deal.clone()
        done = len(child.tricks)
        child.apply(PLAY[card.index])
        gain = 0
        if len(child.tricks) > done and child.tricks[-1].winner == declarer:
            gain = 1 if mode is Mode.NULL else 3 if mode is Mode.TRICKS else child.tricks[-1].points
        if mode is Mode.NULL and gain:
            results.append(1)
        elif child.is_over or len(child.tricks) == 10:
            results.append(gain)
        else:
            results.append(gain + minimax(child, mode))
    maximise = (seat == declarer) != (mode is Mode.NULL)
    return max(results) if maximise else min(results)


def cases(count: int, modes: tuple[Mode, ...] = (Mode.POINTS,)) -> list[tuple[int, GameType, int]]:
    rng = random.Random(20261130)
    return [(seed, GAMES[seed % len(GAMES)], rng.choice((19, 20, 21, 22, 23, 24)))
            for seed in range(count)]


@pytest.mark.parametrize(("seed", "game", "played"), cases(90))
def test_exact_value_matches_minimax(seed: int, game: GameType, played: int) -> None:
    deal = endgame(seed, game, played)
    if deal is None:  # a null can end before; the case still counts the others
        return
    mode = Mode.NULL if game is GameType.NULL else Mode.POINTS
    solver = Solver(game, declarer_of(deal), mode)
    position = position_from_deal(deal)
    assert solver.value(position) == minimax(deal, mode)


@pytest.mark.parametrize(("seed", "game", "played"), [c for c in cases(40) if c[1] is not GameType.NULL])
def test_win_or_lose_searches_agree_with_exact_value(seed: int, game: GameType, played: int) -> None:
    deal = endgame(seed + 1000, game, played)
    if deal is None:
        return
    position = position_from_deal(deal)
    exact = Solver(game, declarer_of(deal)).value(position)
    solver = Solver(game, declarer_of(deal))
    for target in (exact - 7, exact - 1, exact, exact + 1, exact + 9):
        assert solver.reaches(position, target) == (exact >= target)
    tricks = Solver(game, declarer_of(deal), Mode.TRICKS)
    brute = minimax(deal, Mode.TRICKS)
    assert tricks.value(position) == brute
    cards_left = sum(h.bit_count() for h in position.hands) + len(position.trick)
    assert tricks.schwarz(position) == (brute == cards_left)


def test_endgames_cover_mid_trick_positions_and_every_game() -> None:
    seen = set()
    for seed, game, played in cases(90):
        deal = endgame(seed, game, played)
        if deal is not None:
            seen.add((game, len(deal.current_trick)))
    assert {g for g, _ in seen} == set(GAMES)
    assert {n for _, n in seen} == {0, 1, 2}


def test_full_deal_solve_matches_a_known_sure_game() -> None:
    # Forehand declares grand hand with all four jacks and long clubs: every trick is the declarer's.
    deal = make_deal("CJ SJ HJ DJ CA CT CK CQ C9 C8", "SA ST SK SQ S9 S8 S7 HA HT HK",
                     "HQ H9 H8 H7 DA DT DK DQ D9 D8", "C7 D7")
    win_auction(deal, 0)
    deal.apply(Declare(Contract(GameType.GRAND, hand=True)))
    position = position_from_deal(deal)
    assert Solver(GameType.GRAND, 0, Mode.TRICKS).schwarz(position)
    assert Solver(GameType.GRAND, 0).value(position) == 120 - 0  # the skat holds no points
    # the defenders hold the rest, so the declarer's 10 cards and theirs add up to every point in play
    assert Solver(GameType.GRAND, 0).reaches(position, 120)


def test_null_solver_sees_a_safe_and_an_unsafe_null() -> None:
    safe = make_deal("C7 C8 C9 S7 S8 S9 H7 H8 H9 D7", "CA CK CQ CJ CT SA SK SQ SJ ST",
                     "HA HK HQ HJ HT DA DK DQ DJ DT", "D8 D9")
    win_auction(safe, 0)
    safe.apply(Declare(Contract(GameType.NULL, hand=True)))
    assert Solver(GameType.NULL, 0, Mode.NULL).null_won(position_from_deal(safe))
    unsafe = make_deal("SA C7 C8 C9 H7 H8 H9 D7 D8 D9", "S7 S8 CA CK CQ CJ CT HA HK HQ",
                       "S9 ST SJ SQ SK HJ HT DA DK DQ", "DJ DT")
    win_auction(unsafe, 0)
    unsafe.apply(Declare(Contract(GameType.NULL, hand=True)))
    # whatever the declarer leads, a defender takes the trick and leads a spade under the bare ace
    assert not Solver(GameType.NULL, 0, Mode.NULL).null_won(position_from_deal(unsafe))


def test_play_resolves_a_trick_like_the_engine() -> None:
    for seed in range(30):
        game = GAMES[seed % len(GAMES)]
        deal = endgame(seed + 500, game, 27 - 3 * (seed % 3))
        if deal is None:
            continue
        solver = Solver(game, declarer_of(deal), Mode.TRICKS if game is not GameType.NULL else Mode.NULL)
        position = position_from_deal(deal)
        while len(deal.tricks) < 10 and not deal.is_over:
            card = deal.legal_cards()[0]
            done = len(deal.tricks)
            position, gain = solver.play(position, card.index)
            deal.apply(PLAY[card.index])
            if deal.is_over:
                break
            assert position == position_from_deal(deal)
            if len(deal.tricks) > done:
                assert gain == (3 if deal.tricks[-1].winner == deal.declarer else 0)


def test_layout_orders_each_suit_by_trick_power() -> None:
    grand = layout(GameType.GRAND)
    jacks = [grand.to_internal[c.index] for c in parse_cards("DJ HJ SJ CJ")]
    assert jacks == sorted(jacks) and min(jacks) > max(grand.to_internal[i] for i in range(32) if i % 8 != 4)
    hearts = layout(GameType.HEARTS)
    order = [hearts.to_internal[c.index] for c in parse_cards("H7 H8 H9 HQ HK HT HA DJ HJ SJ CJ")]
    assert order == sorted(order)
    null = layout(GameType.NULL)
    order = [null.to_internal[c.index] for c in parse_cards("S7 S8 S9 ST SJ SQ SK SA")]
    assert order == sorted(order)
    assert grand.engine_mask(grand.internal_mask(mask_of(parse_cards("CJ H7 SA")))) == mask_of(
        parse_cards("CJ H7 SA"))


def test_bad_positions_are_refused() -> None:
    solver = Solver(GameType.GRAND, 0)
    with pytest.raises(ValueError, match="do not fit"):
        solver.value(Position((0b111, 0b11000, 0b100000), 0))
    with pytest.raises(ValueError, match="still in a hand"):
        solver.value(Position((0b11, 0b1100, 0b110000), 0, (0,)))
    with pytest.raises(ValueError, match="null"):
        Solver(GameType.NULL, 0, Mode.POINTS)
    with pytest.raises(ValueError, match="ramsch"):
        Solver(GameType.RAMSCH, 0, Mode.POINTS)
    with pytest.raises(ValueError, match="ramsch"):
        Solver(GameType.GRAND, 0, Mode.RAMSCH)
    with pytest.raises(ValueError, match="no seat"):
        Solver(GameType.CLUBS, 3)


@pytest.mark.parametrize(("seed", "game", "played"), cases(24))
def test_solvers_share_the_process_table_without_mixing_games(seed: int, game: GameType, played: int) -> None:
    """Every solver of a process uses one transposition table: entries another game, declarer or mode
    left for the very same hands must never be read as this solver's."""
    deal = endgame(seed + 500, game, played)
    if deal is None:
        return
    position = position_from_deal(deal)
    for other_game in GAMES:
        for other_declarer in range(3):
            if (other_game, other_declarer) != (game, deal.declarer):
                Solver(other_game, other_declarer).value(position)
    mode = Mode.NULL if game is GameType.NULL else Mode.POINTS
    solver = Solver(game, declarer_of(deal), mode)
    expected = minimax(deal, mode)
    assert solver.value(position) == expected
    solver.reset()
    assert solver.value(position) == expected


def test_an_aborted_search_leaves_the_solver_usable() -> None:
    deal = declared(7, GameType.GRAND, 0)
    position = position_from_deal(deal)
    solver = Solver(GameType.GRAND, 0, node_limit=50)
    with pytest.raises(SearchAborted):
        solver.value(position)
    assert solver.nodes > 50
    solver.node_limit = 1 << 40
    exact = solver.value(position)
    assert exact == Solver(GameType.GRAND, 0).value(position)


def ramsch_endgame(seed: int, cards_played: int) -> Deal:
    """A Ramsch deal (everyone passed) played at random until `cards_played` cards are down."""
    rng = random.Random(seed)
    deal = Deal.new(seed, RuleSet(all_pass=AllPass.RAMSCH))
    while deal.phase is not Phase.PLAY:
        deal.apply(deal.legal_actions()[-1] if isinstance(deal.legal_actions()[-1], Pass) else Pass())
    while len(deal.tricks) * 3 + len(deal.current_trick) < cards_played:
        deal.apply(rng.choice(deal.legal_actions()))
    return deal


def ramsch_minimax(deal: Deal, me: int) -> int:
    """Card points `me` takes from here when it minimises them and the other two maximise them."""
    results = []
    for card in deal.legal_cards():
        child = deal.clone()
        done = len(child.tricks)
        child.apply(PLAY[card.index])
        gain = child.tricks[-1].points if len(child.tricks) > done and child.tricks[-1].winner == me else 0
        results.append(gain if len(child.tricks) == 10 else gain + ramsch_minimax(child, me))
    return min(results) if deal.current_seat == me else max(results)


@pytest.mark.parametrize("seed", range(12))
def test_ramsch_paranoid_value_matches_minimax(seed: int) -> None:
    deal = ramsch_endgame(seed, random.Random(seed).choice((18, 19, 20, 21, 22, 23)))
    me = seed % 3
    assert Solver(GameType.RAMSCH, me).value(position_from_deal(deal)) == ramsch_minimax(deal, me)


def test_blocks_are_the_same_valued_neighbours_of_each_suit() -> None:
    """Points: the 7-8-9 of every suit and the four jacks; null and schwarz (every card one): whole suits."""
    suit = layout(GameType.HEARTS)
    found = [suit.engine_mask(b) for b in blocks(suit, suit.points)]
    assert sorted(found) == sorted(mask_of(parse_cards(cards)) for cards in (
        "CJ SJ HJ DJ", "C7 C8 C9", "S7 S8 S9", "H7 H8 H9", "D7 D8 D9"))
    null = layout(GameType.NULL)
    assert sorted(null.engine_mask(b) for b in blocks(null, (1,) * 32)) == sorted(
        mask_of(parse_cards(" ".join(f"{s}{r}" for r in "789TJQKA"))) for s in "CSHD")


def compare_canonical(seed: int) -> tuple[int, int]:
    """Values of a position with and without canonical trick starts (asserted equal), and the nodes each took."""
    rng = random.Random(seed)
    game = GAMES[seed % len(GAMES)]
    deal = endgame(seed + 900, game, rng.choice((0, 3, 6, 9, 12)))
    if deal is None:
        return 0, 0
    position = position_from_deal(deal)
    nodes = [0, 0]
    for mode in (Mode.NULL,) if game is GameType.NULL else (Mode.POINTS, Mode.TRICKS):
        plain = Solver(game, declarer_of(deal), mode, canonical=False)
        canonical = Solver(game, declarer_of(deal), mode)
        assert canonical.value(position) == plain.value(position), (game, mode)
        nodes[0] += plain.nodes
        nodes[1] += canonical.nodes
    return nodes[0], nodes[1]


@pytest.mark.parametrize("seed", range(30))
def test_canonical_search_changes_no_value(seed: int) -> None:
    """Searching each trick start as its canonical position gives the same value (points, schwarz, null)."""
    compare_canonical(seed)


def test_canonical_search_takes_fewer_nodes() -> None:
    """Over those positions the table it shares meets more positions again: at least a twentieth fewer nodes."""
    pairs = [compare_canonical(seed) for seed in range(30)]
    assert sum(c for _, c in pairs) < 0.95 * sum(p for p, _ in pairs)
