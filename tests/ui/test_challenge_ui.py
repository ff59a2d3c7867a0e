"""The challenge's hand message and controls: the tables' hand text under the challenge's title, controls that
carry the day, the moment and the engine's action (read back as the same action), no claim, concession or hint,
and the lines, summary and boards as players read them."""

from __future__ import annotations

import re
from datetime import date

import discord

from skatbot.ai import Level
from skatbot.challenge import Attempt, BoardRow, ChallengeDay, Move, ai_decision
from skatbot.engine import Phase, parse_action
from skatbot.engine.views import seat_view
from skatbot.ui.challenge import (
    MENU_TEMPLATE,
    MOVE_TEMPLATE,
    AttemptLine,
    DayStanding,
    attempt_text,
    attempt_view,
    day_board_text,
    deal_line,
    summary_text,
)
from skatbot.ui.languages import Lang
from tests.challenge.challenge_helpers import players_turn

DAY = date(2026, 12, 7)
EN = Lang("en")


def _to(attempt: Attempt, phase: Phase) -> Attempt:
    """Play on (the player too, at the normal level) until the player is to move in `phase`."""
    while not (players_turn(attempt) and attempt.deal.phase is phase):
        seat = attempt.deal.current_seat
        assert seat is not None and not attempt.is_over
        seed = attempt.day.ai_seed(attempt.number, seat, len(attempt.deal.history))
        attempt.apply(Move(attempt.number, seat, ai_decision(Level.NORMAL, seed, seat_view(attempt.deal, seat))))
    return attempt


def _ids(view: discord.ui.View) -> list[tuple[str, list[str]]]:
    out = []
    for row in view.to_components():
        for component in row["components"]:
            out.append((component["custom_id"], [o["value"] for o in component.get("options", [])]))
    return out


def test_the_controls_carry_day_moment_and_action_and_leave_out_claims_and_hints() -> None:
    attempt = Attempt(ChallengeDay.of("s" * 64, DAY), 3)
    _to(attempt, Phase.AUCTION)
    ids = _ids(attempt_view(attempt, EN))
    assert ids
    for custom_id, values in ids:
        move = re.fullmatch(MOVE_TEMPLATE, custom_id)
        menu = re.fullmatch(MENU_TEMPLATE, custom_id)
        assert (move or menu) is not None, custom_id
        found = move or menu
        assert found is not None and found["day"] == "20261207" and int(found["seq"]) == attempt.seq
        actions = [parse_action(found["action"])] if move else [parse_action(f"{found['verb']} {v}".strip())
                                                                 for v in values]
        assert all(action in attempt.deal.legal_actions() for action in actions)
    for number in range(3):  # in play: card buttons only, never claim, concede, Kontra or hint
        while attempt.number == number and not attempt.is_over:
            if players_turn(attempt) and attempt.deal.phase is Phase.PLAY:
                kinds = {custom_id.split(":")[3].split(" ")[0] for custom_id, _ in _ids(attempt_view(attempt, EN))}
                assert kinds == {"play"}, kinds
            seat = attempt.deal.current_seat
            assert seat is not None
            seed = attempt.day.ai_seed(attempt.number, seat, len(attempt.deal.history))
            attempt.apply(Move(attempt.number, seat, ai_decision(Level.NORMAL, seed, seat_view(attempt.deal, seat))))
    assert attempt.is_over


def test_the_hand_message_keeps_the_tables_title_and_adds_the_challenges() -> None:
    attempt = _to(Attempt(ChallengeDay.of("s" * 64, DAY), 6), Phase.AUCTION)
    text = attempt_text(attempt, "Anna", [], EN)
    lines = text.splitlines()
    assert lines[0].startswith("**Your hand** · deal 1 · you are ")
    assert lines[2] == "🗓 Daily challenge 2026-12-07 · deal 1 of 6"


def test_lines_summary_and_board_read_as_players_read_them() -> None:
    attempt = Attempt(ChallengeDay.of("s" * 64, DAY), 1)
    while not attempt.is_over:
        seat = attempt.deal.current_seat
        assert seat is not None
        seed = attempt.day.ai_seed(0, seat, len(attempt.deal.history))
        attempt.apply(Move(0, seat, ai_decision(Level.NORMAL, seed, seat_view(attempt.deal, seat))))
    line = AttemptLine(0, attempt.played[0].result, "AI 1", 90, 40, 12.4)
    shown = deal_line(line, EN)
    assert shown.startswith("Deal 1: ") and shown.endswith("· you +90 · par +40 · field 12")
    ranking = tuple(BoardRow(n, f"P{n}", 1, 100 - n, 40) for n in range(1, 13))
    summary = summary_text(DAY, [line], DayStanding(90, 40, 12, 12, 75, 12, ranking, deals=6), EN)
    assert "1. P1: +99 · par +40 · against the par +59 (1 deal)" in summary
    assert "10. P10:" in summary and "11. P11:" not in summary and "12. P12:" in summary  # the top ten and yours
    assert "Your total +90 · par +40 · against the par +50" in summary
    assert "On this server: place 12 of 12 players" in summary
    assert "today on 6 deals (12 players): at least as good as 75% of the others" in summary
    assert summary.splitlines()[-2] == "Field: the average score on each deal of everyone who has finished today's challenge."
    board = day_board_text([BoardRow(1, "Anna", 6, 300, 250), BoardRow(2, "Ben", 6, 0, 250)], DAY, DAY, EN)
    assert board.splitlines()[1:] == ["1. Anna: +300 · par +250 · against the par +50 (6 deals)",
                                      "2. Ben: 0 · par +250 · against the par -250 (6 deals)"]


def test_the_week_board_shows_each_players_score_against_par_per_deal_and_names_the_rule() -> None:
    rows = [BoardRow(2, "Ben", 6, 390, 240, days=2), BoardRow(1, "Anna", 12, 660, 480),
            BoardRow(3, "Cara", 15, 720, 600, days=2), BoardRow(4, "Dora", 7, 0, 10)]
    text = day_board_text(rows, date(2026, 12, 1), DAY, EN)
    assert text.splitlines()[1:] == [
        "1. Ben: +25.0 per deal against the par · +390 · par +240 (6 deals)",
        "2. Anna: +15.0 per deal against the par · +660 · par +480 (12 deals)",
        "3. Cara: +8.0 per deal against the par · +720 · par +600 (15 deals)",
        "4. Dora: \u22121.4 per deal against the par · 0 · par +10 (7 deals)",
        "Ranked by score against the par per deal: every deal weighs the same, whatever each day's number of deals "
        "(the server's setting, 3 to 12), and playing more days lifts no one by itself. A tie goes to more deals "
        "played."]
    empty = day_board_text([], date(2026, 12, 1), DAY, EN).splitlines()
    assert empty[1:] == ["No one on this server has finished a challenge in that time."]  # no rule for nobody
    german = day_board_text(rows[:1], date(2026, 12, 1), DAY, Lang("de"))
    assert "1. Ben: +25,0 je Spiel gegen das Par · +390 · Par +240 (6 Spiele)" in german
    assert "je Spiel" in german.splitlines()[-1]
