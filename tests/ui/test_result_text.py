"""The result card's numbers are the list's numbers: Bock, Kontra and Re included, and the value explained
step by step so a player can check it."""

from __future__ import annotations

import random
import re

from skatbot.ai import Level
from skatbot.engine import (
    CLAIM,
    CONCEDE,
    HOLD,
    PASS,
    Bid,
    Contract,
    Declare,
    Ending,
    GameType,
    Kontra,
    Pass,
    Re,
    RuleSet,
)
from skatbot.models import Deck
from skatbot.tables.game import FinishedDeal, TableGame
from skatbot.tables.log import Act, AddAI, Join, NewDeal, Start
from skatbot.ui.i18n import signed
from skatbot.ui.languages import Lang
from skatbot.ui.render import list_text, result_text
from tests.ui.viewed import viewed


def played_series(rules: RuleSet, deals: int, seed: int, *, kontra: bool = False) -> TableGame:
    """A table of three playing random legal moves (no passing out when avoidable; Kontra and Re said
    whenever offered with `kontra`)."""
    rng = random.Random(seed)
    game = TableGame(size=3, deals=deals, rules=rules, creator_id=1)
    for entry in (Join(1, "alice"), Join(2, "bob"), AddAI(Level.NORMAL), Start()):
        game.apply(entry)
    while game.needs_new_deal:
        game.apply(NewDeal(game.deal_number + 1, rng.randrange(1 << 40)))
        deal = game.deal
        assert deal is not None
        while not deal.is_over:
            if kontra:
                for seat in range(3):
                    for side in deal.side_actions(seat):
                        if isinstance(side, (Kontra, Re)):
                            game.apply(Act(game.deal_number, seat, side))
            actions = deal.legal_actions()
            keen = [a for a in actions if not isinstance(a, Pass)] if rng.random() < 0.7 else actions
            game.apply(Act(game.deal_number, deal.current_seat, rng.choice(keen or actions)))
    return game


def score_shown(text: str) -> int:
    head = text.splitlines()[1]
    shown = re.findall(r"card points, ([+−][\d,]+|0)", head)[0]
    return int(shown.replace("−", "-").replace(",", ""))


def declared(game: TableGame) -> list[FinishedDeal]:
    return [row for row in game.finished if row.result.declarer is not None]


def declarer_written(row: FinishedDeal) -> int:
    """What the list wrote for the declarer of a declared deal."""
    assert row.result.declarer is not None
    return row.place_scores[row.places[row.result.declarer]]


def test_a_bock_deal_shows_the_doubled_score_the_list_writes() -> None:
    rules = RuleSet.preset("pub")
    bocks = []
    for seed in range(40):
        game = played_series(rules, 9, seed, kontra=True)
        bocks += [(game, row) for row in declared(game) if row.row.bock]
        if len(bocks) >= 3:
            break
    assert bocks, "no Bock deal in 40 series"
    for game, row in bocks:
        text = result_text(viewed(game), row, Lang("en"))
        written = declarer_written(row)
        assert score_shown(text) == written
        assert "Bock ×\u00a02" in text and f"→ **{signed(Lang('en'), written)}**" in text


def test_kontra_and_re_are_counted_step_by_step() -> None:
    rules = RuleSet.preset("pub")
    for seed in range(30):
        game = played_series(rules, 3, seed, kontra=True)
        rows = [row for row in declared(game) if row.result.re and row.result.contract is not None
                and row.result.contract.game is not GameType.NULL]
        if rows:
            break
    row = rows[0]
    result = row.result
    assert result.contract is not None
    text = result_text(viewed(game), row, Lang("en"))
    explained = text.splitlines()[2]
    base = result.contract.game.base_value
    assert explained.startswith("🧮 with " if result.matadors > 0 else "🧮 without ")
    assert f"game {abs(result.matadors) + 1}" in explained
    assert f" ×\u00a0{base} = {base * result.multiplier}" in explained
    assert "Kontra ×\u00a02; Re ×\u00a02" in explained
    assert ("lost ×\u00a0−2" in explained) != result.won
    assert explained.endswith(f"→ **{signed(Lang('en'), declarer_written(row))}**")
    german = result_text(viewed(game), row, Lang("de")).splitlines()[2]
    assert german.startswith("🧮 mit " if result.matadors > 0 else "🧮 ohne ") and "Spiel " in german


def test_a_ramsch_with_one_loser_reads_in_the_singular() -> None:
    rules = RuleSet.preset("pub")
    for seed in range(60):
        rng = random.Random(seed)
        game = TableGame(size=3, deals=1, rules=rules, creator_id=1)
        for entry in (Join(1, "alice"), Join(2, "bob"), Join(3, "carol"), Start(), NewDeal(0, rng.randrange(1 << 40))):
            game.apply(entry)
        deal = game.deal
        assert deal is not None
        while not deal.is_over:
            actions = deal.legal_actions()
            passes = [a for a in actions if isinstance(a, Pass)]
            game.apply(Act(0, deal.current_seat, passes[0] if passes else rng.choice(actions)))
        row = game.finished[0]
        losers = [s for s in row.result.seat_scores if s < 0]
        if row.result.declarer is None and not row.result.passed and len(losers) == 1:
            break
    text = result_text(viewed(game), row, Lang("en"))
    assert "and loses them." in text and "and lose them" not in text
    assert "list" in list_text(viewed(game), Lang("en")).lower()



def test_a_claimed_deal_says_so_apart_from_a_concession() -> None:
    """The declarer claims and both defenders accept: the result names the claim (in each language); two
    defenders conceding without a claim read as a concession."""
    for claim in (True, False):
        game = TableGame(size=3, deals=1, rules=RuleSet(), creator_id=1)
        for entry in (Join(1, "alice"), Join(2, "bob"), AddAI(Level.NORMAL), Start()):
            game.apply(entry)
        game.apply(NewDeal(game.deal_number + 1, 5))
        number, deal = game.deal_number, game.deal
        assert deal is not None
        for action in (Bid(18), HOLD, PASS, PASS, Declare(Contract(GameType.GRAND, hand=True))):
            game.apply(Act(number, deal.current_seat, action))
        declarer = deal.declarer
        assert declarer is not None
        if claim:
            game.apply(Act(number, declarer, CLAIM))
        for defender in ((declarer + 1) % 3, (declarer + 2) % 3):
            game.apply(Act(number, defender, CONCEDE))
        assert deal.ending is (Ending.CLAIMED if claim else Ending.DEFENDERS_CONCEDED)
        row = game.finished[-1]
        heads: dict[str, str] = {lang: result_text(viewed(game), row, lang).splitlines()[1] for lang in (Lang("en"), Lang("de"), Lang("fr"), Lang("da"))}
        assert ("claimed, the defenders accepted" in heads["en"]) == claim
        assert ("the defenders conceded" in heads["en"]) == (not claim)
        assert ("Rest beansprucht" in heads["de"]) == claim
        assert ("reste réclamé" in heads["fr"]) == claim
        assert ("resten krævet" in heads["da"]) == claim


def test_the_list_has_column_headers_aligned_rows_and_the_tables_language_and_deck() -> None:
    game = played_series(RuleSet(), 6, 5)
    text = list_text(viewed(game), Lang("de"), Deck.GERMAN)
    block = text.split("```")[1].strip("\n").splitlines()
    head, rows = block[0], block[1:]
    assert head.split()[:2] == ["#", "Spiel"] and all(name in head for name in ("alice", "bob", "KI 1"))  # the AI named in German
    assert "🤖" not in "\n".join(block) and len({len(line) for line in block}) == 1, block
    declared = [row for row in game.finished if row.result.declarer is not None]
    assert declared
    words = {"clubs": "Eichel", "spades": "Grün", "hearts": "Rot", "diamonds": "Schellen", "grand": "Grand",
             "null": "Null"}
    for row in declared:
        line = rows[row.number]
        assert row.result.contract is not None
        game_word = row.result.contract.game.value
        assert words[game_word] in line and game_word not in line, line
