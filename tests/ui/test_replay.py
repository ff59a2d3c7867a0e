"""A finished deal's replay: the auction and declaration, each trick with every hand open and the running
card points, the result; deals that ended early, passed deals and the unusual ISS records replay too."""

from __future__ import annotations

import random
from datetime import date
from pathlib import Path

import pytest

from skatbot.engine import Contract, Deal, Declare, Ending, GameType, Phase, PickUpSkat
from skatbot.engine.records import parse_record, replay
from skatbot.models import Deck
from skatbot.pictures.picture import cards_shown
from skatbot.ui.languages import Lang
from skatbot.ui.replay import (
    ChallengeReplay,
    challenge_step_shown,
    challenge_step_text,
    history_view,
    read_replay,
    replay_view,
    step_shown,
    step_text,
)

ROOT = Path(__file__).resolve().parents[2]
NAMES = ("Anna", "Bert", "Carla")


def played(seed: int, pick_up: bool = True) -> Deal:
    rng = random.Random(seed)
    deal = Deal.new(seed)
    while not deal.is_over:
        actions = deal.legal_actions()
        if deal.current_seat == 1 and deal.bid == 0 and len(deal.history) == 0:
            deal.apply(actions[0])  # middlehand bids 18: a game is played
            continue
        if pick_up and any(isinstance(a, PickUpSkat) for a in actions):
            deal.apply(next(a for a in actions if isinstance(a, PickUpSkat)))
            continue
        if deal.phase is Phase.DECLARE:  # a plain grand: played out to the tenth trick
            deal.apply(Declare(Contract(GameType.GRAND)))
            continue
        deal.apply(actions[-1] if deal.phase.value == "auction" else rng.choice(actions))
    return deal


def test_every_trick_is_a_step_with_the_hands_that_were_left() -> None:
    deal = played(11)
    assert deal.declarer is not None and deal.ending is Ending.PLAYED_OUT
    shown = read_replay(deal, NAMES, 42, declarer_score=deal.result.seat_scores[deal.declarer])
    assert shown.steps == 12 and len(shown.moments) == 10
    first = step_text(shown, 0, Lang("en"))
    assert first.startswith("🎞 **Replay of deal #42** · step 1 of 12") and "Auction:" in first
    assert "picked up the skat" in first and "plays **" in first
    held = [set(hand) for hand in deal.dealt_hands]
    running = [0, 0, 0]
    for index, moment in enumerate(shown.moments, start=1):
        for position, card in enumerate(moment.trick.cards):
            held[moment.trick.seat_of(position)].discard(card)
        if index == 1 and deal.picked_up:  # the discards left the declarer's hand, the skat came in
            held[deal.declarer] |= set(deal.dealt_skat)
            held[deal.declarer] -= set(deal.discarded)
        running[moment.trick.winner] += moment.trick.points
        assert [set(hand) for hand in moment.hands] == held
        assert moment.taken == tuple(running)
        text = step_text(shown, index, Lang("en"))
        assert f"{index}. " in text and "Card points in tricks so far: " in text
        defenders = sum(running[s] for s in range(3) if s != deal.declarer)
        assert f"{NAMES[deal.declarer]} {running[deal.declarer]}, the defenders {defenders}" in text
    last = step_text(shown, 11, Lang("en"))
    assert ("won" in last or "lost" in last or "overbid" in last) and "Skat:" in last


async def test_each_step_is_a_picture_with_every_card_shown_once() -> None:
    deal = played(5)
    shown = read_replay(deal, NAMES, 7)
    for step in range(shown.steps):
        picture = (await step_shown(shown, step, Lang("de"), Deck.GERMAN)).picture
        cards = cards_shown(picture.png)
        assert cards is not None and len(cards) == len(set(cards))
        if step == 0:
            assert len(cards) == 32  # three hands and the skat
        elif step < shown.steps - 1:
            assert len(cards) == 32 - 3 * (step - 1) - 2  # the hands before the trick and its three cards


def test_a_deal_in_play_is_not_replayed() -> None:
    deal = Deal.new(3)
    with pytest.raises(ValueError, match="finished"):
        read_replay(deal, NAMES, 1)


def test_buttons_carry_the_deal_and_the_step() -> None:
    view = replay_view(9, 0, 12, Lang("en"))
    ids = [item.custom_id for item in view.children]  # type: ignore[attr-defined]
    assert ids == ["rps:9:0", "rps:9:1"] and view.children[0].disabled  # type: ignore[attr-defined]
    end = replay_view(9, 11, 12, Lang("fr"))
    assert [item.custom_id for item in end.children] == ["rps:9:10", "rps:9:11"]  # type: ignore[attr-defined]
    assert end.children[1].disabled  # type: ignore[attr-defined]
    listed = history_view([3, 4, 3], Lang("en"))
    assert listed is not None and [item.custom_id for item in listed.children] == ["rpo:3", "rpo:4"]  # type: ignore[attr-defined]


@pytest.mark.parametrize("lang", ["en", "de", "da", "fr"])
def test_every_language_writes_every_step(lang: Lang) -> None:
    shown = read_replay(played(21), NAMES, 3)
    for step in range(shown.steps):
        text = step_text(shown, step, lang)
        assert "{" not in text and text.count("\n") >= 1


@pytest.mark.parametrize("line", [line for line in (ROOT / "tests/data/iss/unusual-records.sgf").read_text(
    encoding="utf-8").splitlines() if line.strip()])
async def test_the_unusual_iss_records_replay(line: str) -> None:
    deal = replay(parse_record(line))
    shown = read_replay(deal, NAMES, 1)
    texts = [step_text(shown, step, Lang("en")) for step in range(shown.steps)]
    for step in range(shown.steps):
        assert (await step_shown(shown, step, Lang("en"))).picture.png
    if deal.ending is Ending.PENALTY:
        assert "No game: a player ran out of time or left during the auction." in texts[-1]
    else:
        assert "ended by a time-out" in texts[-1] and "Skat:" in texts[-1]


async def test_a_challenge_deal_shows_both_lines_step_by_step_until_the_longer_ends() -> None:
    mine = read_replay(played(31), NAMES, 1)  # twelve steps: auction, ten tricks, result
    par = read_replay(played(31, pick_up=False), ("🤖 strong", "🤖 par", "🤖 strong"), 1)
    pair = ChallengeReplay(date(2026, 12, 5), 0, mine, par)
    assert pair.steps == max(mine.steps, par.steps)
    for step in range(pair.steps):
        text = challenge_step_text(pair, step, Lang("en"))
        assert text.startswith(f"🎞 **Challenge of 2026-12-05, deal 1** · step {step + 1} of {pair.steps}")
        assert text.index("**Your line:**") < text.index("**The par line")
        picture = (await challenge_step_shown(pair, step, Lang("en"))).picture
        cards = cards_shown(picture.png)
        assert cards is not None and len(cards) == 2 * (len(cards) // 2)
    assert "Skat:" in challenge_step_text(pair, pair.steps - 1, Lang("en")).split("**The par line")[1]
    alone = ChallengeReplay(date(2026, 12, 5), 0, mine, None)
    assert "The par line is not computed yet." in challenge_step_text(alone, 0, Lang("en"))
    assert (await challenge_step_shown(alone, 1, Lang("en"))).picture.png
