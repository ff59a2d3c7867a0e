"""The terminal table plays whole deals from piped input and explains every refused input.

The scripts are built by playing the same deal with the same AIs beside the table (the table's seeds
are public functions), so each line the script types is known to be what the table will ask for;
illegal lines are slipped in before some moves and must be refused without changing the deal.
"""

from __future__ import annotations

import ast
import io
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from skatbot.ai import Level
from skatbot.ai.runner import ask_side_actions
from skatbot.engine import (
    CARDS,
    HOLD,
    KONTRA,
    OFFICIAL,
    PASS,
    PICK_UP,
    Action,
    Bid,
    Card,
    Contract,
    Deal,
    Declare,
    Discard,
    GameType,
    Hold,
    Phase,
    PlayCard,
    RuleSet,
)
from skatbot.engine.games import sort_key
from skatbot.engine.views import SeatView, seat_view
from skatbot.play import TableParser, ai_players, deal_seed, run, seat_word
from skatbot.ui.arguments import environment_language
from skatbot.ui.cards import FRENCH, card_label
from skatbot.ui.i18n import signed, t
from skatbot.ui.languages import Lang

ROOT = Path(__file__).resolve().parent.parent


ENGLISH = {"LANG": "C.UTF-8"}
"""The environment the tests run the table in: no --lang means English, wherever the suite runs."""


class _Person:
    """Stands in for the person when Kontra or Re is offered: types a wrong word, then 'no' (or, given a
    yes word, says Kontra with it)."""

    def __init__(self, lines: list[str], yes: str | None = None) -> None:
        self.lines = lines
        self.yes = yes

    def choose(self, view: SeatView) -> Action:
        raise AssertionError("the script decides the person's moves itself")

    def side_action(self, view: SeatView) -> Action | None:
        if self.yes is not None:
            self.lines.append(self.yes)
            return view.side_actions[0] if view.side_actions else KONTRA  # Re, when it is the declarer's answer
        self.lines += ["maybe", "no"]
        return None


def _script(seed: int, level: Level, human: int, limit: int, rules: RuleSet = OFFICIAL,
            yes: str | None = None) -> tuple[list[str], Deal]:
    """Lines a person types at `human` (bidding up to `limit`, then grand, then the first legal card),
    with illegal inputs slipped in; also the deal as it ends. `yes`: the word the person says Kontra with."""
    deal = Deal.new(deal_seed(seed, 0), rules)
    players = ai_players(level, seed, 0, human)
    lines: list[str] = []
    seated = [player or _Person(lines, yes) for player in players]
    asked: set[tuple[int, str]] = set()
    while not deal.is_over:
        ask_side_actions(deal, seated, asked)
        seat = deal.current_seat
        assert seat is not None
        player = players[seat]
        if player is not None:
            deal.apply(player.choose(seat_view(deal, seat)), seat)
            continue
        legal = deal.legal_actions()
        if deal.phase is Phase.AUCTION:
            lines += ["17", "banana"]
            bids = [a.value for a in legal if isinstance(a, Bid)]
            if any(isinstance(a, Hold) for a in legal):
                text = "yes" if deal.bid <= limit else "pass"
            else:
                text = str(bids[0]) if bids and bids[0] <= limit else "pass"
        elif deal.phase is Phase.SKAT:
            text = "pickup"
        elif deal.phase is Phase.DISCARD:
            hand = deal.hand(seat)
            lines += ["CJ", "CJ CJ" if Card.parse("CJ") in hand else "CJ S7 H7"]
            text = f"{hand[0].iss} {hand[1].iss}"
        elif deal.phase is Phase.DECLARE:
            lines += ["null hand", "clubs schneider"]
            text = "grand"
        else:
            playable = deal.legal_cards()
            outside = [c.iss for c in CARDS if c not in deal.hand(seat)]
            refused = [c.iss for c in deal.hand(seat) if c not in playable]
            lines += [outside[0], "42"] + refused[:1]
            # type the card's code on odd tricks and its number in the playable list on even ones
            text = playable[0].iss if len(deal.tricks) % 2 else str(_playable(deal).index(playable[0]) + 1)
        action = _as_action(deal, text)
        deal.apply(action, seat)
        lines.append(text)
    return lines, deal


def _playable(deal: Deal) -> list[Card]:
    """The playable cards in the order the table lists them."""
    return sorted(deal.legal_cards(), key=lambda c: sort_key(deal.game, c))


def _as_action(deal: Deal, text: str) -> Action:
    if deal.phase is Phase.AUCTION:
        words: dict[str, Action] = {"yes": HOLD, "pass": PASS}
        return words.get(text) or Bid(int(text))
    if deal.phase is Phase.SKAT:
        return PICK_UP
    if deal.phase is Phase.DISCARD:
        first, second = (Card.parse(t) for t in text.split())
        return Discard(first, second)
    if deal.phase is Phase.DECLARE:
        return Declare(Contract(GameType.GRAND))
    if text.isdigit():
        return PlayCard(_playable(deal)[int(text) - 1])
    return PlayCard(Card.parse(text))


def _find_deal(level: Level, human: int, declarer: bool) -> tuple[int, list[str], Deal]:
    for seed in range(1, 400):
        lines, deal = _script(seed, level, human, 30 if declarer else 0)
        if deal.declarer is not None and (deal.declarer == human) == declarer and len(deal.tricks) >= 3:
            return seed, lines, deal
    raise AssertionError("no suitable deal in 400 seeds")


def _run(argv: list[str], lines: list[str], typed: type[io.StringIO] = io.StringIO) -> tuple[int, str]:
    out = io.StringIO()
    code = run(argv, typed("\n".join(lines) + "\n"), out, ENGLISH)
    return code, out.getvalue()


def test_a_declarer_deal_with_illegal_inputs() -> None:
    seed, lines, deal = _find_deal(Level.NORMAL, 0, declarer=True)
    code, output = _run(["--seed", str(seed), "--level", "normal", "--seat", "0"], lines)
    assert code == 0, output[-2000:]
    assert "> 17\nNot allowed: " in output  # off the ladder, or not 18 at forehand's last call
    assert "Not understood: 'banana': say a number, 'yes' or 'pass'" in output
    assert "Not understood: name exactly two cards, not 1" in output
    assert "Not allowed: you picked up the skat: this cannot be a hand game" in output
    assert "Not allowed: only a hand game may announce schneider" in output
    assert "is not in your hand" in output
    assert "there is no card number 42" in output
    assert "Forehand (you) declares Grand." in output
    scores = ", ".join(f"{seat_word(s, Lang('en'))} ({'you' if s == 0 else 'normal AI'}) {signed(Lang('en'), v)}"
                       for s, v in enumerate(deal.result.seat_scores))
    assert f"Scores this deal: {scores}" in output


def test_a_defender_deal_is_told_to_follow_suit() -> None:
    seed, lines, deal = _find_deal(Level.EASY, 2, declarer=False)
    code, output = _run(["--seed", str(seed), "--level", "easy", "--seat", "2"], lines)
    assert code == 0, output[-2000:]
    assert "Not allowed: you must follow" in output
    assert output.count("Trick ") >= len(deal.tricks)
    assert f"Trick {len(deal.tricks)}: " in output
    assert "Scores this deal:" in output


def test_kontra_is_offered_to_the_person() -> None:
    rules = RuleSet(kontra=True)
    for seed in range(1, 400):
        lines, deal = _script(seed, Level.NORMAL, 1, 0, rules)
        if deal.declarer is not None and deal.declarer != 1 and "maybe" in lines:
            break
    else:
        raise AssertionError("no deal where the person could say Kontra")
    code, output = _run(["--seed", str(seed), "--level", "normal", "--seat", "1", "--kontra"], lines)
    assert code == 0, output[-2000:]
    assert "Say Kontra? Type 'yes' (or 'kontra') or 'no'." in output
    assert "Not understood: 'maybe'. Type 'yes' (or 'kontra') or 'no'." in output
    scores = ", ".join(f"{seat_word(s, Lang('en'))} ({'you' if s == 1 else 'normal AI'}) {signed(Lang('en'), v)}"
                       for s, v in enumerate(deal.result.seat_scores))
    assert f"Scores this deal: {scores}" in output


def test_module_reads_a_pipe_and_stops_cleanly_when_input_ends() -> None:
    seed, lines, _ = _find_deal(Level.EASY, 2, declarer=False)
    done = subprocess.run([sys.executable, "-m", "skatbot.play", "--seed", str(seed), "--level", "easy",
                           "--seat", "2"], input="\n".join(lines) + "\n", capture_output=True, text=True,
                          cwd=ROOT, timeout=60, env={**os.environ, **ENGLISH, "LANGUAGE": "", "LC_ALL": ""})
    assert done.returncode == 0, done.stderr
    assert "Scores this deal:" in done.stdout
    cut = subprocess.run([sys.executable, "-m", "skatbot.play", "--seed", str(seed), "--level", "easy",
                          "--seat", "2"], input="\n".join(lines[:3]) + "\n", capture_output=True, text=True,
                         cwd=ROOT, timeout=60, env={**os.environ, **ENGLISH, "LANGUAGE": "", "LC_ALL": ""})
    assert cut.returncode == 1
    assert "Input ended before the deal was over" in cut.stdout


def test_bad_options_are_refused() -> None:
    out = io.StringIO()
    try:
        run(["--level", "grandmaster"], io.StringIO(""), out)
    except SystemExit as stop:
        assert stop.code == 2
    else:
        raise AssertionError("an unknown level must be refused")


# --- the table in the bot's other languages ----------------------------------------------------------

WORDS = {
    "de": {"yes": "ja", "pass": "passe", "pickup": "aufnehmen", "null hand": "Null Hand", "grand": "Grand",
           "clubs schneider": "Kreuz Schneider", "no": "nein"},
    "da": {"yes": "ja", "pass": "pas", "pickup": "tag", "null hand": "nolo på hånden", "grand": "grand",
           "clubs schneider": "klør skrædder", "no": "nej"},
    "fr": {"yes": "oui", "pass": "passe", "pickup": "prendre", "null hand": "null de la main", "grand": "Grand",
           "clubs schneider": "trèfle schneider", "no": "non"},
}


def _in_language(lines: list[str], lang: str) -> list[str]:
    """The script as a player of `lang` types it: the language's words, and cards as the bot shows them there
    (♣B, ♥V); a game the table does not know is slipped in before the first declaration."""
    out = []
    for line in lines:
        if line == "null hand":
            out.append("schach")
        if line in WORDS[lang]:
            out.append(WORDS[lang][line])
        elif line and all(len(code) == 2 and code[0] in "CSHD" for code in line.split()):
            out.append(" ".join(card_label(Card.parse(code), FRENCH, lang) for code in line.split()))
        else:
            out.append(line)
    return out


EXPECTED = {  # what a player of each language reads (the catalogs' words, and the rules texts' card letters)
    "de": ["Nicht verstanden: 'banana': Sag eine Zahl, 'ja' oder 'passe'.",
           "Nicht verstanden: nenn genau zwei Karten, nicht 1.",
           "Nicht verstanden: 'schach' ist kein Spiel: Wähl Kreuz, Pik, Herz, Karo, Grand, Null.",
           "Nicht erlaubt: du hast den Skat aufgenommen",
           "hast du nicht auf der Hand", "es gibt keine Karte Nummer 42", "Vorhand (du) sagt Grand an.",
           "Punkte in diesem Spiel: Vorhand (du) "],
    "da": ["Ikke forstået: 'banana': sig et tal, 'ja' eller 'pas'.",
           "Ikke forstået: nævn præcis to kort, ikke 1.",
           "Ikke forstået: 'schach' er ikke et spil: vælg klør, spar, hjerter, ruder, grand, nolo.",
           "er ikke på din hånd", "der er intet kort nummer 42", "Forhånd (dig) melder Grand.",
           "Point i dette spil: Forhånd (dig) "],
    "fr": ["Pas compris\u00a0: 'banana'\u00a0: dites un nombre, 'oui' ou 'passe'.",
           "Pas compris\u00a0: nommez exactement deux cartes, pas 1.",
           "Pas compris\u00a0: 'schach' n’est pas un jeu\u00a0: choisissez trèfle, pique, cœur, carreau, grand, null.",
           "n’est pas dans votre main", "il n’y a pas de carte numéro 42", "Main (vous) annonce Grand.",
           "Points de cette manche\u00a0: Main (vous) "],
}


@pytest.mark.parametrize("lang", ["de", "da", "fr"])
def test_the_table_speaks_and_reads_the_players_language(lang: Lang) -> None:
    seed, lines, deal = _find_deal(Level.NORMAL, 0, declarer=True)
    code, output = _run(["--seed", str(seed), "--level", "normal", "--seat", "0", "--lang", lang],
                        _in_language(lines, lang))
    assert code == 0, output[-2000:]
    for text in EXPECTED[lang]:
        assert text in output, (text, output[-3000:])
    assert output.count(t(lang, "error.refused", reason="")[:8]) >= 4  # the rules' refusals, in the language
    for english in ("Your cards", "Not allowed", "Not understood", "Trick ", "Scores this deal", "declares"):
        assert english not in output, english
    letters = {card_label(card, FRENCH, lang) for card in CARDS}
    for line in output.splitlines():  # every hand is shown with the language's card letters
        if line.startswith(t(lang, "cli.your_cards", cards="")):
            assert set(line.removeprefix(t(lang, "cli.your_cards", cards="")).split()) <= letters, line
    assert t(lang, "cli.result.won" if deal.result.won else "cli.result.lost", who="", contract="",
             points=deal.result.declarer_points, value=deal.result.value).split(":")[-1].strip() in output


# --- the terminal itself ---------------------------------------------------------------------------------


class _Terminal(io.StringIO):
    """Input typed at a terminal, which shows each line as it is typed."""

    def isatty(self) -> bool:
        return True


def test_typed_lines_are_echoed_only_when_input_is_not_a_terminal() -> None:
    seed, lines, _ = _find_deal(Level.NORMAL, 0, declarer=True)
    argv = ["--seed", str(seed), "--level", "normal", "--seat", "0"]
    code, piped = _run(argv, lines)
    assert code == 0 and "> banana\n" in piped
    code, typed = _run(argv, lines, _Terminal)
    assert code == 0, typed[-2000:]
    assert "> banana" not in typed and "> 17" not in typed  # the terminal has shown them once already
    assert "Not understood: 'banana'" in typed and "Scores this deal:" in typed


class _Interrupted(io.StringIO):
    def readline(self, size: int | None = -1, /) -> str:  # type: ignore[override]  # typeshed: _IOBase says bytes
        raise KeyboardInterrupt


def test_ctrl_c_leaves_the_table_like_quit() -> None:
    out = io.StringIO()
    assert run(["--seed", "5"], _Interrupted(), out, ENGLISH) == 0
    assert out.getvalue().endswith("\nLeft the table.\n")


def test_ctrl_c_in_a_real_process_prints_no_traceback() -> None:
    table = subprocess.Popen([sys.executable, "-m", "skatbot.play", "--seed", "5"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
                             env={**os.environ, **ENGLISH, "LANGUAGE": "", "LC_ALL": ""})
    assert table.stdout is not None
    shown = b""
    while b"\n> " not in shown:  # the first question: the table now waits for a line
        chunk = os.read(table.stdout.fileno(), 4096)
        assert chunk, shown
        shown += chunk
    table.send_signal(signal.SIGINT)
    # stdin stays open until the table has ended, as at a terminal: closing it at once (communicate does) lets
    # a loaded machine's table read the end of input before it handles the signal, and leave as input ended
    table.wait(timeout=30)
    rest, errors = table.communicate(timeout=30)
    assert table.returncode == 0, errors
    assert b"Traceback" not in errors and (shown + rest).decode().endswith("Left the table.\n")


def _kontra_deal(yes: str) -> tuple[int, list[str], Deal]:
    rules = RuleSet(kontra=True)
    for seed in range(1, 400):
        lines, deal = _script(seed, Level.NORMAL, 1, 0, rules, yes=yes)
        if deal.declarer is not None and deal.declarer != 1 and deal.kontra and len(deal.tricks) == 10:
            return seed, lines, deal
    raise AssertionError("no deal where the person could say Kontra")


@pytest.mark.parametrize(("lang", "yes"), [("en", "yes"), ("de", "ja"), ("da", "ja"), ("fr", "oui")])
def test_kontra_is_said_with_the_languages_yes_and_the_result_explains_the_doubling(lang: Lang, yes: str) -> None:
    seed, lines, deal = _kontra_deal(yes)
    code, output = _run(["--seed", str(seed), "--level", "normal", "--seat", "1", "--kontra", "--lang", lang], lines)
    assert code == 0, output[-2000:]
    assert t(lang, "cli.side.says", who=t(lang, "cli.you", seat=seat_word(1, lang)), word="Kontra") in output
    doubled = t(lang, "result.with_re" if deal.re else "result.with_kontra")
    head = t(lang, "cli.game", contract="\0", seat="").split("\0")[0]  # "Game: ", "Spiel: ", "Jeu : "
    game_lines = [line for line in output.splitlines() if line.startswith(head)]
    assert game_lines and all(line.endswith(", " + doubled) for line in game_lines), game_lines[:2]
    result = deal.result
    assert result.declarer is not None
    score = signed(lang, result.seat_scores[result.declarer])
    (explained,) = [line for line in output.splitlines() if t(lang, "explain.kontra") in line]
    assert explained.endswith("→ " + score), explained  # e.g. "with 1, game 2 × 12 = 24; Kontra × 2 → +48"
    assert (t(lang, "explain.re") in explained) == result.re


def _re_deal(yes: str) -> tuple[int, list[str], Deal]:
    rules = RuleSet(kontra=True)
    for seed in range(1, 400):
        lines, deal = _script(seed, Level.NORMAL, 0, 60, rules, yes=yes)
        if deal.declarer == 0 and deal.re and len(deal.tricks) == 10:
            return seed, lines, deal
    raise AssertionError("no deal where an AI said Kontra against the person")


@pytest.mark.parametrize(("lang", "yes"), [("en", "yes"), ("de", "ja"), ("da", "ja"), ("fr", "oui")])
def test_re_is_answered_with_the_languages_yes(lang: Lang, yes: str) -> None:
    """The declarer's question after an AI's Kontra takes the same yes as the Kontra question (it refused
    'yes', 'ja' and 'oui' while it accepted 'no'), and the game line and the result carry the Re."""
    seed, lines, deal = _re_deal(yes)
    code, output = _run(["--seed", str(seed), "--level", "normal", "--seat", "0", "--kontra", "--lang", lang],
                        _in_language(lines, lang) if lang != "en" else lines)
    assert code == 0, output[-2000:]
    assert t(lang, "cli.side.says", who=t(lang, "cli.you", seat=seat_word(0, lang)), word="Re") in output
    assert t(lang, "cli.side.misread", text=yes, yes="\0", typed="", no="").split("\0")[0] not in output
    head = t(lang, "cli.game", contract="\0", seat="").split("\0")[0]
    game_lines = [line for line in output.splitlines() if line.startswith(head)]
    assert game_lines and game_lines[-1].endswith(", " + t(lang, "result.with_re")), game_lines[-1:]
    (explained,) = [line for line in output.splitlines() if t(lang, "explain.re") in line]
    assert t(lang, "explain.kontra") in explained, explained


def test_forehand_says_18_with_yes() -> None:
    for seed in range(1, 400):
        deal = Deal.new(deal_seed(seed, 0), OFFICIAL)
        players = ai_players(Level.EASY, seed, 0, 0)
        while deal.phase is Phase.AUCTION and deal.current_seat != 0:
            seat = deal.current_seat
            assert seat is not None and players[seat] is not None
            deal.apply(players[seat].choose(seat_view(deal, seat)), seat)  # type: ignore[union-attr]
        if deal.phase is Phase.AUCTION and [a for a in deal.legal_actions() if isinstance(a, Bid)] == [Bid(18)]:
            break
    else:
        raise AssertionError("no deal where both others pass")
    code, output = _run(["--seed", str(seed), "--level", "easy", "--seat", "0", "--lang", "de"], ["ja", "quit"])
    assert code == 0 and "Vorhand (du): 18" in output, output


def test_bid_lines_come_from_the_catalog() -> None:
    """French puts a no-break space before the colon; the old f-string printed 'Arrière (vous): 33'."""
    seed, lines, _ = _find_deal(Level.NORMAL, 0, declarer=True)
    code, output = _run(["--seed", str(seed), "--level", "normal", "--seat", "0", "--lang", "fr"],
                        _in_language(lines, "fr"))
    assert code == 0, output[-2000:]
    bids = [line for line in output.splitlines() if re.fullmatch(r".*\)\s?: \d+", line)]
    assert bids and all("\u00a0: " in line for line in bids), bids


def _outside_calls(node: ast.AST) -> list[ast.Constant]:
    """The string literals of an expression, leaving out what calls make of theirs (a catalog key given to
    t() or self.tr(), a separator joining values)."""
    if isinstance(node, ast.Call):
        return []
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node]
    return [found for child in ast.iter_child_nodes(node) for found in _outside_calls(child)]


def _own_text(source: str) -> list[str]:
    """The literals printed (say, print) or asked (ask) that are neither a line break nor the prompt's '> '."""
    printed = [arg for call in ast.walk(ast.parse(source)) if isinstance(call, ast.Call)
               and ((isinstance(call.func, ast.Attribute) and call.func.attr in ("say", "ask"))
                    or (isinstance(call.func, ast.Name) and call.func.id == "print"))
               for arg in call.args[:1]]
    return [f"line {literal.lineno}: {literal.value!r}" for arg in printed for literal in _outside_calls(arg)
            if not re.fullmatch(r"[\n ]*(?:> )?", str(literal.value))]


def test_every_printed_line_comes_from_the_catalog() -> None:
    """What the table prints and asks is a catalog text or joined from catalog texts and values: no words,
    colons or spaces of its own but a line break and the '> ' of the prompt. The bid lines were an f-string, so
    French read 'Arrière (vous): 33' beside 'Main (IA)\u00a0: oui (18)'."""
    play = (ROOT / "skatbot" / "play.py").read_text(encoding="utf-8")
    assert play.count("self.say(") > 20
    assert _own_text(play) == []
    assert _own_text('self.say(f"{who}: {action.value}")') == ["line 1: ': '"]  # the old bid line
    assert _own_text('self.say("\\n" + t(lang, "cli.left"))') == []


@pytest.mark.parametrize(("argv", "environ", "expected"), [
    (["--help", "--lang", "de"], ENGLISH, ["Aufruf: python -m skatbot.play", "Optionen:", "diese Hilfe zeigen"]),
    (["--help"], {"LANG": "fr_FR.UTF-8"}, ["utilisation\u00a0: python -m skatbot.play", "afficher cette aide"]),
    (["--help"], {"LANGUAGE": "da:en", "LANG": "de_DE.UTF-8"}, ["brug: ", "vis denne hjælp"]),
    (["--help"], {"LANG": "ja_JP.UTF-8"}, ["usage: python -m skatbot.play", "show this help"]),
])
def test_help_speaks_the_chosen_or_the_environments_language(argv: list[str], environ: dict[str, str],
                                                             expected: list[str]) -> None:
    out = io.StringIO()
    assert run(argv, io.StringIO(""), out, environ) == 0
    for text in expected:
        assert text in out.getvalue(), (text, out.getvalue())
    if "--lang" not in argv and environ.get("LANG", "").startswith("fr"):
        assert "Skat contre" not in out.getvalue()  # help only: no table was started


def test_the_environments_language_is_the_tables_default() -> None:
    assert environment_language({"LC_ALL": "de_DE.UTF-8", "LANG": "fr_FR.UTF-8"}) == "de"
    assert environment_language({"LANG": "C.UTF-8"}) == "en"
    assert environment_language({}) == "en"
    code, output = _run(["--seed", "5", "--seat", "0"], ["quit"])
    assert code == 0 and output.startswith("Skat against two")
    out = io.StringIO()
    assert run(["--seed", "5", "--seat", "0"], io.StringIO("quit\n"), out, {"LANG": "da_DK.UTF-8"}) == 0
    assert out.getvalue().startswith("Skat mod to")


def test_a_bad_option_is_refused_in_the_language(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        run(["--level", "grandmaster", "--lang", "fr"], io.StringIO(""), io.StringIO(), ENGLISH)
    assert stop.value.code == 2
    assert "erreur\u00a0: niveau d’IA inconnu 'grandmaster'" in capsys.readouterr().err


def test_the_readme_explains_the_terminal_table() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "## Play in the terminal" in readme
    section = readme.split("## Play in the terminal", 1)[1].split("\n## ", 1)[0]
    assert "python -m skatbot.play" in section
    for action in TableParser(Lang("en"))._actions:
        for option in action.option_strings:
            if option.startswith("--"):
                assert option in section, option


ARGPARSE_ENGLISH = ("usage:", "error:", "expected one argument", "invalid choice", "unrecognized arguments",
                    "invalid int value", "ambiguous option", "ignored explicit argument")
"""What argparse says by itself: none of it may show in another language."""


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", ["usage: python -m skatbot.play", "error: argument --level: expected one argument",
            "error: argument --seat: invalid choice: 5 (choose from 0, 1, 2)", "error: unrecognized arguments: --bogus",
            "error: argument --deals: invalid integer value: 'x'", "error: ambiguous option: --se could match --seed, --seat",
            "error: argument --ramsch: ignored explicit argument 'x'"]),
    ("de", ["Aufruf: python -m skatbot.play", "Fehler: Argument --level: erwartet einen Wert",
            "Fehler: Argument --seat: ungültige Wahl: 5 (möglich: 0, 1, 2)", "Fehler: unbekannte Argumente: --bogus",
            "Fehler: Argument --deals: ungültiger Wert (ganze Zahl): 'x'",
            "Fehler: mehrdeutige Option: --se passt zu --seed, --seat", "Fehler: Argument --ramsch: nimmt keinen Wert an ('x')"]),
    ("da", ["brug: python -m skatbot.play", "fejl: argument --level: forventer én værdi",
            "fejl: argument --seat: ugyldigt valg: 5 (vælg mellem 0, 1, 2)", "fejl: ukendte argumenter: --bogus",
            "fejl: argument --deals: ugyldig værdi (heltal): 'x'", "fejl: tvetydigt tilvalg: --se kan være --seed, --seat",
            "fejl: argument --ramsch: tager ingen værdi ('x')"]),
    ("fr", ["utilisation\u00a0: python -m skatbot.play", "erreur\u00a0: argument --level\u00a0: une valeur attendue",
            "erreur\u00a0: argument --seat\u00a0: choix invalide\u00a0: 5 (choisissez parmi 0, 1, 2)",
            "erreur\u00a0: arguments inconnus\u00a0: --bogus",
            "erreur\u00a0: argument --deals\u00a0: valeur invalide (nombre entier)\u00a0: 'x'",
            "erreur\u00a0: option ambiguë\u00a0: --se peut désigner --seed, --seat",
            "erreur\u00a0: argument --ramsch\u00a0: ne prend pas de valeur ('x')"]),
])
def test_argparses_own_errors_speak_the_language(lang: str, expected: list[str],
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """A missing value, a choice off the list, an unknown option, a number that is none, an abbreviation that
    fits two options, a value for a switch: argparse's own words, usage line included, in the table's
    language (they were English in every language)."""
    said = []
    for argv in (["--level"], ["--seat", "5"], ["--bogus"], ["--deals", "x"], ["--se", "5"], ["--ramsch=x"]):
        with pytest.raises(SystemExit) as stop:
            run([*argv, "--lang", lang], io.StringIO(""), io.StringIO(), ENGLISH)
        assert stop.value.code == 2
        said.append(capsys.readouterr().err)
    everything = "\n".join(said)
    for text in expected:
        assert text in everything, (text, everything)
    if lang != "en":
        assert not [text for text in ARGPARSE_ENGLISH if text in everything], everything


@pytest.mark.parametrize("lang", ["en", "de", "da", "fr"])
def test_the_bid_ladder_ends_in_the_catalogs_ellipsis(lang: str) -> None:
    """Middlehand bids first: the prompt lists the ladder and ends it with … as every catalog writes it (the
    table glued ', ...' onto it in every language, beside the refusal's '27, …')."""
    out = io.StringIO()
    assert run(["--seed", "5", "--seat", "1", "--lang", lang], io.StringIO("quit\n"), out, ENGLISH) == 0
    prompt = next(line for line in out.getvalue().splitlines() if "18, 20, 22, 23, 24, 27, 30, 33" in line)
    assert "33, …)" in prompt and "..." not in out.getvalue(), prompt
