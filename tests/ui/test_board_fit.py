"""The public board always fits one Discord message, dropping whole lines (never cutting a card in half)."""

from __future__ import annotations

import re

from skatbot.ai import Level
from skatbot.engine import Bid, Declare, GameType, Hold, RuleSet
from skatbot.engine.views import public_view
from skatbot.tables.game import TableGame
from skatbot.tables.log import AddAI, Join, NewDeal, Start
from skatbot.ui.fit import fit_lines
from skatbot.ui.languages import Lang
from skatbot.ui.render import board_text
from tests.ui.viewed import viewed

CARD = re.compile(r"[♣♠♥♦](?:10|[789JQKA])")


def test_fit_lines_drops_whole_old_lines() -> None:
    lines = ["title", *[f"{i}. ♣10 · ♠10 · ♥10" for i in range(1, 11)], "turn"]
    text = fit_lines(lines, 80, first_droppable=1)
    assert len(text) <= 80 and text.startswith("title\n…\n") and text.endswith("turn")
    assert all(line in lines or line == "…" for line in text.split("\n"))


def test_a_board_with_very_long_names_fits_and_keeps_every_shown_line_whole() -> None:
    game = TableGame(size=3, deals=1, rules=RuleSet(), creator_id=1)
    for entry in (Join(1, "A" * 60), Join(2, "B" * 60), AddAI(Level.NORMAL), Start(), NewDeal(0, 5)):
        game.apply(entry)
    deal = game.deal
    assert deal is not None
    while not deal.is_over and len(deal.tricks) < 9:  # a long auction, then nine tricks
        legal = deal.legal_actions()
        bids = [a for a in legal if isinstance(a, Bid) and a.value <= 60]
        holds = [a for a in legal if isinstance(a, Hold)]
        plain = [a for a in legal if not isinstance(a, Declare) or a.contract.game is GameType.GRAND]
        deal.apply(bids[0] if bids else holds[0] if holds else plain[0] if plain else legal[0])
    assert len(deal.history) > 40
    text = board_text(viewed(game), public_view(deal), 0, Lang("en"))
    assert len(text) <= 2000
    for line in text.split("\n"):
        for token in re.findall(r"[♣♠♥♦]\S*", line):
            assert CARD.fullmatch(token.rstrip(",")), (token, line)
