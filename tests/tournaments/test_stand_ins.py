"""A stand-in's deals are marked on the list: counted from a table's log, deal by deal."""

from __future__ import annotations

import random

from skatbot.ai import Level
from skatbot.engine import RuleSet
from skatbot.organiser import stand_in_deals
from skatbot.tables.game import TableGame
from skatbot.tables.log import Act, Entry, Join, NewDeal, StandIn, Start
from skatbot.tournaments import Standing
from skatbot.ui.languages import Lang
from skatbot.ui.tournament_text import standings_lines

RULES = RuleSet.preset("tournament")


def played_log(stand_in_at: dict[int, tuple[int, ...]], back_at: dict[int, tuple[int, ...]], deals: int = 3) -> list[str]:
    """A table of Anna (11), Bert (12) and Cara (13) playing `deals` deals with seeded random moves; in deal
    n, `stand_in_at[n]` places get an AI stand-in after the first move and `back_at[n]` players rejoin first."""
    game = TableGame(size=3, deals=deals, rules=RULES, creator_id=11)
    entries: list[str] = []
    rng = random.Random(5)

    def log(entry: Entry) -> object:
        entries.append(str(entry))
        return game.apply(entry)

    for player, name in ((11, "Anna"), (12, "Bert"), (13, "Cara")):
        log(Join(player, name))
    log(Start())
    for number in range(deals):
        for player in back_at.get(number, ()):
            log(Join(player, ""))
        log(NewDeal(number, 1000 + number))
        first = True
        while True:
            deal = game.deal
            assert deal is not None
            finished = log(Act(number, deal.current_seat, rng.choice(deal.legal_actions())))
            if first:
                for place in stand_in_at.get(number, ()):
                    log(StandIn(place, Level.NORMAL))
                first = False
            if finished is not None:
                break
    return entries


def test_deals_where_a_stand_in_moved_for_a_player_are_counted() -> None:
    entries = played_log({0: (1,)}, {2: (12,)})  # Bert's stand-in from deal 1 on, Bert back for deal 3
    counted = stand_in_deals(size=3, deals=3, rules=RULES, creator_id=11, entries=entries)
    assert counted == {12: 2}
    assert stand_in_deals(size=3, deals=3, rules=RULES, creator_id=11, entries=played_log({}, {})) == {}


def test_the_list_marks_a_stand_ins_deals() -> None:
    table = [Standing(1, 11, 50, 1, 0, (50,), 1, 3), Standing(2, 12, -10, 0, 1, (-10,), 1, 3)]
    lines = standings_lines(table, {11: "Anna", 12: "Bert"}, Lang("en"), {12: 2})
    assert lines[1] == "1. Anna · +50 · 1/0 · table 1"
    assert lines[2] == "2. Bert · -10 · 0/1 · table 1 · 🤖 a stand-in played 2 deals"
    assert standings_lines(table, {12: "Bert"}, Lang("de"), {12: 1})[2].endswith("ein Ersatzspieler spielte 1 Spiel")
