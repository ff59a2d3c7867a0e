"""The analysis lines: which line a turning crossed, the keeping card, the games the skat allowed."""

from __future__ import annotations

from skatbot.ai.verdict import DealAnalysis, SkatChoice, Turning, WinLevel
from skatbot.engine import Contract, GameType
from skatbot.engine.cards import parse_cards
from skatbot.ui.analysis_text import analysis_text
from skatbot.ui.languages import Lang

HA, CJ, S7, ST = parse_cards("HA CJ S7 ST")
NAMES = ["Anna", "Ben", "🤖 AI 2"]


def analysis(contract: Contract, *turnings: Turning, could_win: bool = True, choices: tuple[SkatChoice, ...] = (),
             picked_up: bool = True) -> DealAnalysis:
    return DealAnalysis(0, contract, WinLevel.WON if could_win else WinLevel.LOST, 75 if could_win else 50, could_win,
                        False, turnings, choices, picked_up)


def test_a_declarer_giving_the_game_away_is_named_with_the_card_that_kept_it() -> None:
    text = analysis_text(analysis(Contract(GameType.HEARTS),
                                  Turning(4, 0, HA, WinLevel.WON, WinLevel.LOST, CJ, 64)), NAMES, 12, Lang("en"))
    lines = text.splitlines()
    assert lines[0] == "🔍 **Deal 12**, every card open: Anna played ♥ Hearts."
    assert lines[1].startswith("♥ Hearts could be won from the first card.") and "75 card points" in lines[1]
    assert lines[2] == "Trick 4: Anna's ♥A gave the game away; ♣J keeps 64 points"


def test_schneider_lines_and_a_defender_are_told_apart() -> None:
    text = analysis_text(analysis(Contract(GameType.GRAND),
                                  Turning(2, 1, S7, WinLevel.WON, WinLevel.SCHNEIDER, ST, 88),
                                  Turning(7, 0, HA, WinLevel.SCHNEIDER, WinLevel.WON, CJ, None),
                                  Turning(9, 2, S7, WinLevel.SCHNEIDERED, WinLevel.LOST, ST, 31)), NAMES, 3, Lang("en"))
    assert "Trick 2: Ben's ♠7 let the declarer make schneider; ♠10 keeps 88 points" in text
    assert "Trick 7: Anna's ♥A missed schneider; ♣J keeps it" in text
    assert "Trick 9: 🤖 AI 2's ♠7 let the declarer out of schneider" in text


def test_a_lost_game_lists_what_the_skat_would_have_won_in_german_too() -> None:
    choice = SkatChoice(Contract(GameType.GRAND), (S7, ST), False)
    english = analysis_text(analysis(Contract(GameType.CLUBS), could_win=False, choices=(choice,)), NAMES, 5, Lang("en"))
    assert "No card changed the outcome." in english
    assert english.splitlines()[-2:] == ["With the skat picked up, these would have won:",
                                         "· Grand with ♠7 ♠10 in the skat"]
    german = analysis_text(analysis(Contract(GameType.CLUBS), could_win=False), NAMES, 5, Lang("de"))
    assert "war ab der ersten Karte nicht zu gewinnen" in german and "gedrückten Karten" in german.splitlines()[-1]
    null = analysis_text(analysis(Contract(GameType.NULL), Turning(3, 0, HA, WinLevel.WON, WinLevel.LOST, CJ, None)),
                         NAMES, 6, Lang("en"))
    assert "Trick 3: Anna's ♥A gave the null away; ♣J keeps it" in null
