"""A terminal table: one person against two AIs, reading moves from stdin.

    python -m skatbot.play [--level normal] [--deals N] [--seed S] [--seat 0|1|2] [--ramsch] [--kontra] [--lang de]

Every prompt lists what may be typed; anything the rules refuse is explained and asked again, and the
deal is unchanged. Input is read line by line, so a script can play a whole series through a pipe (typed lines
are echoed then, as a terminal already shows them). The table speaks the bot's languages (`--lang`: en, de, da,
fr; by default the environment's, as gettext reads LANGUAGE, LC_ALL, LC_MESSAGES and LANG) from the same
catalogs as the bot, `--help` included, and reads what it shows: cards and games as the bot names them in any
language, the ISS codes, and the English words. Ctrl-C leaves the table as `quit` does.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import ClassVar, TextIO

from skatbot.ai import Level, levels, make_player
from skatbot.ai.base import ComputerPlayer
from skatbot.engine import (
    HOLD,
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
    IllegalAction,
    Kontra,
    Phase,
    PlayCard,
    Re,
    RuleSet,
)
from skatbot.engine.errors import MalformedText, Refusal
from skatbot.engine.games import BID_LADDER, sort_key
from skatbot.engine.rules import AllPass
from skatbot.engine.scoring import DealResult
from skatbot.engine.views import seat_view
from skatbot.models import seen_number
from skatbot.ui.arguments import LocalizedParser, environment_language, integer
from skatbot.ui.cards import DECLARABLE, FRENCH, card_from_text, card_label, contract_name, game_from_text
from skatbot.ui.explain import score_steps
from skatbot.ui.i18n import CODES, signed, t, tn
from skatbot.ui.languages import SOURCE, Lang, language_of
from skatbot.ui.names import level_name
from skatbot.ui.refusals import refusal_text

SEATS = ("forehand", "middlehand", "rearhand")


class InputEnded(Exception):
    """The input ran out before the deal was over."""


class Quit(Exception):
    """The player typed quit."""


class Misread(Refusal):
    """A line that is no move: a whole reply's catalog key and its values, said in the player's language."""

    whole = True
    reasons: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "reason.bad_card": ("text",),
        "cli.error.game": ("text", "games"),
        "cli.error.number": ("number", "count"),
        "cli.error.one_card": ("text",),
        "cli.error.auction": ("text", "yes", "no"),
        "cli.error.two_cards": ("count",),
    }


def deal_seed(seed: int, number: int) -> int:
    """The seed of deal `number` (0-based) of a series started with `seed`."""
    return seed * 1000 + number


def ai_players(level: Level, seed: int, number: int, human_seat: int) -> list[ComputerPlayer | None]:
    """The AIs of deal `number`; None marks the person's seat."""
    return [None if seat == human_seat else make_player(level, deal_seed(seed, number) * 3 + seat)
            for seat in range(3)]


def seat_word(seat: int, lang: Lang) -> str:
    """A seat's word, not its player's name: `Forehand`, `Vorhand`, `Forhånd`, `Main`."""
    return t(lang, f"seat.{SEATS[seat]}")


def words(lang: Lang, kind: str) -> list[str]:
    """What a player may type for `kind` (pass, hold, pickup, ...): the language's words, then the English ones
    (understood in every language, as the help of an older version taught them)."""
    found = [w.strip().casefold() for w in t(lang, f"cli.words.{kind}").split(",")]
    english = [w.strip().casefold() for w in t(SOURCE, f"cli.words.{kind}").split(",")]
    return list(dict.fromkeys(w for w in found + english if w))


def show_cards(cards: Sequence[Card], game: GameType | None, lang: Lang) -> str:
    return " ".join(card_label(card, FRENCH, lang) for card in sorted(cards, key=lambda c: sort_key(game, c)))


def read_card(text: str) -> Card:
    """A card as the bot shows it in any language (`♠10`, `♣B`, `♥V`) or its ISS code (`ST`)."""
    try:
        return card_from_text(text)
    except MalformedText:
        raise Misread("reason.bad_card", text=text) from None


def read_contract(text: str, lang: Lang) -> Contract:
    """A game with its announcements as the player says it: `grand hand`, `Kreuz Hand Schneider`, `spar på
    hånden`, `cœur sans prendre`, `nolo åbent`."""
    rest = " " + " ".join(text.casefold().split()) + " "
    for prefix in words(lang, "declare"):
        if rest.startswith(f" {prefix} "):
            rest = rest[len(prefix) + 1:]
    flags = {}
    for flag in ("hand", "schneider", "schwarz", "ouvert"):
        flags[flag] = False
        for phrase in sorted(words(lang, flag), key=len, reverse=True):
            pattern = re.compile(rf"(?<!\S){re.escape(phrase)}(?!\S)")
            if pattern.search(rest):
                flags[flag] = True
                rest = pattern.sub(" ", rest)
    name = rest.strip()
    try:
        game = game_from_text(name)
    except MalformedText:
        raise Misread("cli.error.game", text=name or text, games=game_list(lang)) from None
    return Contract(game, flags["hand"], flags["schneider"], flags["schwarz"], flags["ouvert"])


def game_list(lang: Lang) -> str:
    """The games as a player types them: `clubs, spades, hearts, diamonds, grand, null`."""
    return ", ".join(t(lang, f"choice.game.{game.value}") for game in DECLARABLE)


class TerminalTable:
    """Runs deals with the person at one seat, writing to `out` and reading from `lines`."""

    def __init__(self, lines: TextIO, out: TextIO, level: Level, rules: RuleSet, lang: Lang = SOURCE) -> None:
        self.lines = lines
        self.out = out
        self.level = level
        self.rules = rules
        self.lang = lang
        isatty = getattr(lines, "isatty", None)
        self.echo = not (callable(isatty) and isatty())
        """Piped input is echoed, so a transcript shows what was typed; a terminal shows it already."""

    def tr(self, key: str, **values: object) -> str:
        return t(self.lang, key, **values)

    def first(self, kind: str) -> str:
        """The word a prompt suggests for `kind`: the language's first."""
        return words(self.lang, kind)[0]

    def cards(self, cards: Sequence[Card], game: GameType | None) -> str:
        return show_cards(cards, game, self.lang)

    def card(self, card: Card) -> str:
        return card_label(card, FRENCH, self.lang)

    # --- input and output ---------------------------------------------------------------------

    def say(self, text: str = "") -> None:
        print(text, file=self.out)

    def ask(self, prompt: str, deal: Deal, seat: int) -> str:
        while True:
            print(f"{prompt}\n> ", end="", file=self.out)
            self.out.flush()
            line = self.lines.readline()
            if not line:
                raise InputEnded
            text = line.strip()
            if self.echo:
                self.say(text)
            lowered = text.casefold()
            if lowered in words(self.lang, "quit"):
                raise Quit
            if lowered in words(self.lang, "help"):
                self.say(self.tr("cli.help"))
            elif lowered in words(self.lang, "cards"):
                self.say(self.tr("cli.your_cards", cards=self.cards(deal.hand(seat), deal.game)))
            elif text:
                return text

    def name(self, seat: int, human: int) -> str:
        if seat == human:
            return self.tr("cli.you", seat=seat_word(seat, self.lang))
        return self.tr("cli.ai", seat=seat_word(seat, self.lang), level=level_name(self.level, self.lang))

    # --- one deal -------------------------------------------------------------------------------

    def play_deal(self, deal: Deal, players: list[ComputerPlayer | None], human: int) -> DealResult:
        self.say(self.tr("cli.seated", seat=seat_word(human, self.lang), cards=self.cards(deal.hand(human), None)))
        asked: set[tuple[int, str]] = set()
        while not deal.is_over:
            self.side_calls(deal, players, human, asked)
            seat = deal.current_seat
            assert seat is not None
            player = players[seat]
            if player is None:
                action = self.human_move(deal, seat)
            else:
                action = player.choose(seat_view(deal, seat))
                deal.apply(action, seat)
            self.announce(deal, seat, action, human)
        return deal.result

    def side_calls(self, deal: Deal, players: list[ComputerPlayer | None], human: int, asked: set[tuple[int, str]]) -> None:
        """Offer Kontra and Re before the first card: the person is asked, the AIs decide."""
        if deal.phase is not Phase.PLAY or deal.tricks or deal.current_trick or deal.declarer is None:
            return
        for seat in ((deal.declarer + 1) % 3, (deal.declarer + 2) % 3, deal.declarer):
            offered = [a for a in deal.side_actions(seat) if isinstance(a, (Kontra, Re))]
            if not offered or (seat, str(offered[0])) in asked:
                continue
            asked.add((seat, str(offered[0])))
            player = players[seat]
            action: Action | None
            if player is None:
                word = str(offered[0])
                typed = {"word": word.capitalize(), "typed": word, "yes": self.first("yes"), "no": self.first("no")}
                while True:
                    text = self.ask(self.tr("cli.side.ask", **typed), deal, seat).casefold()
                    if text in words(self.lang, "no"):
                        action = None
                        break
                    if text == word or text in words(self.lang, "yes"):
                        action = offered[0]
                        break
                    self.say(self.tr("cli.side.misread", text=text, **typed))
            else:
                action = player.side_action(seat_view(deal, seat))
            if action is not None:
                deal.apply(action, seat)
                self.say(self.tr("cli.side.says", who=self.name(seat, human), word=str(action).capitalize()))
                self.side_calls(deal, players, human, asked)
                return

    def human_move(self, deal: Deal, seat: int) -> Action:
        while True:
            prompt, parse = self.prompt_for(deal, seat)
            text = self.ask(prompt, deal, seat)
            try:
                action = parse(text)
            except Misread as error:
                self.say(self.tr("cli.misread", reason=refusal_text(error, self.lang)))
                continue
            try:
                deal.apply(action, seat)
            except IllegalAction as error:
                self.say(self.tr("error.refused", reason=refusal_text(error, self.lang)))
                continue
            return action

    def prompt_for(self, deal: Deal, seat: int) -> tuple[str, Callable[[str], Action]]:
        phase = deal.phase
        if phase is Phase.AUCTION:
            return self.auction_prompt(deal)
        if phase is Phase.SKAT:
            return self.tr("cli.prompt.skat", bid=deal.bid, pickup=self.first("pickup")), self.parse_skat
        if phase is Phase.DISCARD:
            hand = sorted(deal.hand(seat), key=lambda c: sort_key(None, c))
            return (self.tr("cli.prompt.discard", cards=self.cards(hand, None),
                            example=f"{self.card(hand[-1])} {self.card(hand[-2])}"), self.parse_discard)
        if phase is Phase.DECLARE:
            return self.tr("cli.prompt.declare", bid=deal.bid, games=game_list(self.lang)), self.parse_declare
        return self.play_prompt(deal, seat)

    def auction_prompt(self, deal: Deal) -> tuple[str, Callable[[str], Action]]:
        legal = deal.legal_actions()
        bids = [a.value for a in legal if isinstance(a, Bid)]
        if bids == [18] and len(legal) == 2:
            def parse_at_18(text: str) -> Action:  # "yes" says 18, as the other yes/no questions take it
                typed = " ".join(text.casefold().split())
                return Bid(18) if typed in words(self.lang, "yes") + words(self.lang, "hold") else self.parse_auction(text)
            return self.tr("cli.prompt.play_at_18", no=self.first("pass")), parse_at_18
        elif bids:
            shown = ", ".join([str(v) for v in BID_LADDER if v >= bids[0]][:8]) + ", …"  # the catalogs' ellipsis
            prompt = self.tr("cli.prompt.bid", low=bids[0], ladder=shown, no=self.first("pass"))
        else:
            prompt = self.tr("cli.prompt.hold", bid=deal.bid, yes=self.first("hold"), no=self.first("pass"))
        return prompt, self.parse_auction

    def play_prompt(self, deal: Deal, seat: int) -> tuple[str, Callable[[str], Action]]:
        game = deal.game
        legal = sorted(deal.legal_cards(), key=lambda c: sort_key(game, c))
        declarer = deal.declarer
        if declarer is not None and deal.contract is not None:
            contract, seat_of = contract_name(deal.contract, self.lang), seat_word(declarer, self.lang)
            if deal.kontra:
                doubled = self.tr("result.with_re" if deal.re else "result.with_kontra")
                lines = [self.tr("cli.game_doubled", contract=contract, seat=seat_of, doubled=doubled)]
            else:
                lines = [self.tr("cli.game", contract=contract, seat=seat_of)]
        else:
            lines = [self.tr("cli.game_ramsch")]
        trick = deal.current_trick
        if trick:
            lines.append(self.tr("cli.trick_so_far", cards=", ".join(
                self.tr("cli.played", who=seat_word(s, self.lang), card=self.card(c)) for s, c in trick)))
        else:
            lines.append(self.tr("cli.you_lead", number=len(deal.tricks) + 1))
        if deal.contract is not None and deal.contract.ouvert and declarer is not None and declarer != seat:
            lines.append(self.tr("cli.open_hand_of", seat=seat_word(declarer, self.lang),
                                 cards=self.cards(deal.hand(declarer), game)))
        lines.append(self.tr("cli.your_cards", cards=self.cards(deal.hand(seat), game)))
        lines.append(self.tr("cli.playable", cards="  ".join(f"{i}:{self.card(c)}" for i, c in enumerate(legal, 1))))
        lines.append(self.tr("cli.prompt.play", example=self.card(legal[0])))

        def parse(text: str) -> Action:
            if text.isdigit():
                number = int(text)
                if not 1 <= number <= len(legal):
                    raise Misread("cli.error.number", number=number, count=len(legal))
                return PlayCard(legal[number - 1])
            typed = text.split()
            if typed and typed[0].casefold() in words(self.lang, "play"):
                typed = typed[1:]
            if len(typed) != 1:
                raise Misread("cli.error.one_card", text=text)
            return PlayCard(read_card(typed[0]))
        return "\n".join(lines), parse

    def parse_auction(self, text: str) -> Action:
        typed = " ".join(text.casefold().split())
        for prefix in words(self.lang, "bid"):
            typed = typed.removeprefix(prefix + " ")
        if typed in words(self.lang, "pass"):
            return PASS
        if typed in words(self.lang, "hold"):
            return HOLD
        if typed.isdigit():
            return Bid(int(typed))
        raise Misread("cli.error.auction", text=text, yes=self.first("hold"), no=self.first("pass"))

    def parse_skat(self, text: str) -> Action:
        if " ".join(text.casefold().split()) in words(self.lang, "pickup"):
            return PICK_UP
        contract = read_contract(text, self.lang)
        return Declare(Contract(contract.game, True, contract.schneider, contract.schwarz, contract.ouvert))

    def parse_discard(self, text: str) -> Action:
        typed = text.split()
        if typed and typed[0].casefold() in words(self.lang, "discard"):
            typed = typed[1:]
        if len(typed) != 2:
            raise Misread("cli.error.two_cards", count=len(typed))
        return Discard(read_card(typed[0]), read_card(typed[1]))

    def parse_declare(self, text: str) -> Action:
        return Declare(read_contract(text, self.lang))

    # --- what everyone sees ---------------------------------------------------------------------

    def announce(self, deal: Deal, seat: int, action: Action, human: int) -> None:
        who = self.name(seat, human)
        if isinstance(action, Bid):
            self.say(self.tr("cli.did.bid", who=who, value=action.value))
        elif action == HOLD:
            self.say(self.tr("cli.did.hold", who=who, bid=deal.bid))
        elif action == PASS:
            self.say(self.tr("cli.did.pass", who=who))
        elif action == PICK_UP:
            self.say(self.tr("cli.did.pickup", who=who))
        elif isinstance(action, Discard):
            self.say(self.tr("cli.did.discard", who=who) if seat != human else
                     self.tr("cli.did.my_discard", cards=f"{self.card(action.first)} {self.card(action.second)}"))
        elif isinstance(action, Declare):
            assert deal.contract is not None
            self.say(self.tr("cli.did.declare", who=who, contract=contract_name(deal.contract, self.lang)))
            if deal.contract.ouvert:
                self.say(self.tr("cli.open_hand", cards=self.cards(deal.hand(seat), deal.game)))
        elif isinstance(action, PlayCard):
            if deal.current_trick:
                self.say(self.tr("cli.did.play", who=who, card=self.card(action.card)))
            else:
                self.trick_done(deal, human)
        if deal.phase is Phase.PLAY and deal.contract is not None and deal.contract.game is GameType.RAMSCH \
                and not deal.tricks and len(deal.current_trick) == 0 and action == PASS:
            self.say(self.tr("cli.ramsch"))
        if deal.is_over:
            self.say("")

    def trick_done(self, deal: Deal, human: int) -> None:
        if not deal.tricks:
            return
        trick = deal.tricks[-1]
        cards = ", ".join(self.tr("cli.played", who=self.name(trick.seat_of(i), human), card=self.card(c))
                          for i, c in enumerate(trick.cards))
        self.say(tn(self.lang, "cli.trick", trick.points, number=len(deal.tricks), cards=cards,
                    winner=self.name(trick.winner, human)))

    def report(self, deal: Deal, result: DealResult, human: int) -> None:
        if result.passed:
            self.say(self.tr("cli.thrown_in"))
            return
        if result.declarer is None:
            points = ", ".join(self.tr("cli.who_value", who=self.name(s, human), value=p)
                               for s, p in enumerate(result.seat_points))
            self.say(self.tr("cli.ramsch_over", points=points))
        else:
            assert deal.contract is not None
            key = "cli.result.overbid" if result.overbid else "cli.result.won" if result.won else "cli.result.lost"
            self.say(self.tr(key, who=self.name(result.declarer, human), contract=contract_name(deal.contract,
                             self.lang), points=result.declarer_points, value=result.value))
            # how the written score follows from the value: lost twice, Kontra, Re (as the result card says)
            steps = self.tr("explain.then").join(score_steps(result, self.rules, False, self.lang))
            self.say(self.tr("cli.explained", steps=steps,
                             score=signed(self.lang, result.seat_scores[result.declarer])))
            self.say(self.tr("cli.skat_was", cards=self.cards(deal.skat, deal.game)))
        self.say(self.tr("cli.scores", scores=", ".join(
            self.tr("cli.who_value", who=self.name(s, human), value=signed(self.lang, score))
            for s, score in enumerate(result.seat_scores))))


def chosen_language(argv: Sequence[str], environ: Mapping[str, str]) -> Lang:
    """`--lang` if given and spoken, else the environment's: the language of `--help` and of the table."""
    early = argparse.ArgumentParser(add_help=False)
    early.add_argument("--lang")
    known, _ = early.parse_known_args(list(argv))
    return Lang(known.lang) if known.lang in CODES else environment_language(environ)


class TableParser(LocalizedParser):
    """The options in the table's language: help, usage line and errors (argparse's own too) from the catalogs."""

    def __init__(self, lang: Lang) -> None:
        super().__init__(prog="python -m skatbot.play", description=t(lang, "cli.args.description"),
                         add_help=False, lang=lang)
        options = self.add_argument_group(t(lang, "cli.args.options"))
        options.add_argument("-h", "--help", action="store_true", help=t(lang, "cli.args.help"))
        options.add_argument("--level", default="normal", help=t(lang, "cli.args.level", levels=", ".join(levels())))
        options.add_argument("--deals", type=integer(lang), default=1, help=t(lang, "cli.args.deals"))
        options.add_argument("--seed", type=integer(lang), default=None, help=t(lang, "cli.args.seed"))
        options.add_argument("--seat", type=integer(lang), choices=(0, 1, 2), default=None, help=t(lang, "cli.args.seat"))
        options.add_argument("--ramsch", action="store_true", help=t(lang, "cli.args.ramsch"))
        options.add_argument("--kontra", action="store_true", help=t(lang, "cli.args.kontra"))
        options.add_argument("--lang", choices=CODES, default=lang,
                             help=t(lang, "cli.args.lang", languages=", ".join(CODES)))


def run(argv: Sequence[str] | None, lines: TextIO, out: TextIO, environ: Mapping[str, str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = TableParser(chosen_language(argv, os.environ if environ is None else environ))
    options = parser.parse_args(argv)
    lang = language_of(None, options.lang)
    if options.help:
        print(parser.format_help(), end="", file=out)
        return 0
    if options.level not in levels():
        parser.error(t(lang, "cli.error.level", level=options.level, levels=", ".join(levels())))
    level = Level(options.level)
    if options.deals < 1:
        parser.error(t(lang, "cli.error.deals"))
    seed = options.seed if options.seed is not None else int.from_bytes(os.urandom(4), "big")
    rules = RuleSet(all_pass=AllPass.RAMSCH if options.ramsch else AllPass.THROW_IN, kontra=options.kontra)
    table = TerminalTable(lines, out, level, rules, lang)
    totals = [0, 0, 0]  # per player: 0 is you, 1 and 2 the AIs in the order they sit after you
    table.say(tn(lang, "cli.start", options.deals, level=level_name(level, lang), seed=seed))
    try:
        for number in range(options.deals):
            human = options.seat if options.seat is not None else number % 3
            table.say("\n" + t(lang, "cli.deal", number=seen_number(number), deals=options.deals))
            deal = Deal.new(deal_seed(seed, number), rules)
            result = table.play_deal(deal, ai_players(level, seed, number, human), human)
            table.report(deal, result, human)
            for offset in range(3):
                totals[offset] += result.seat_scores[(human + offset) % 3]
            table.say(t(lang, "cli.totals", you=signed(lang, totals[0]), next=signed(lang, totals[1]),
                        other=signed(lang, totals[2])))
    except InputEnded:
        table.say("\n" + t(lang, "cli.input_ended"))
        return 1
    except Quit:
        table.say(t(lang, "cli.left"))
        return 0
    except KeyboardInterrupt:  # Ctrl-C leaves the table as 'quit' does, without a traceback
        table.say("\n" + t(lang, "cli.left"))
        return 0
    return 0


def main() -> None:
    sys.exit(run(None, sys.stdin, sys.stdout))


if __name__ == "__main__":
    main()
