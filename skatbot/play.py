"""A terminal table: one person against two AIs, reading moves from stdin.

    python -m skatbot.play [--level normal] [--deals N] [--seed S] [--seat 0|1|2] [--ramsch] [--kontra]

Every prompt lists what may be typed; anything the rules refuse is explained and asked again, and the
deal is unchanged. Input is read line by line, so a script can play a whole series through a pipe.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import TextIO

from skatbot.ai import Level, levels, make_player
from skatbot.ai.base import Player
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
    parse_cards,
)
from skatbot.engine.games import BID_LADDER, sort_key
from skatbot.engine.rules import AllPass
from skatbot.engine.scoring import DealResult
from skatbot.engine.views import seat_view

SEAT_NAMES = ("Forehand", "Middlehand", "Rearhand")
HELP = """How to type moves:
  auction   a number to bid (20) or 'bid 20', 'hold' or 'yes' to hold, 'pass' or 'no' to pass
  skat      'pickup' to take the skat, or a hand game: 'clubs hand', 'grand hand', 'null hand',
            'null ouvert hand', 'spades hand schneider'
  discard   two cards: 'ST D7'
  declare   'clubs', 'spades', 'hearts', 'diamonds', 'grand', 'null', 'null ouvert'
  play      a card ('CJ', 'ST', '♠10', '10S') or its number in the list of playable cards
  kontra    'kontra' or 're' when offered, 'no' to let it pass
  any time  'hand' shows your cards, 'help' shows this, 'quit' leaves the table
Cards: C S H D = clubs spades hearts diamonds; 7 8 9 T(10) J Q K A."""


class InputEnded(Exception):
    """The input ran out before the deal was over."""


class Quit(Exception):
    """The player typed quit."""


def deal_seed(seed: int, number: int) -> int:
    """The seed of deal `number` (0-based) of a series started with `seed`."""
    return seed * 1000 + number


def ai_players(level: Level, seed: int, number: int, human_seat: int) -> list[Player | None]:
    """The AIs of deal `number`; None marks the person's seat."""
    return [None if seat == human_seat else make_player(level, deal_seed(seed, number) * 3 + seat)
            for seat in range(3)]


def show_cards(cards: Sequence[Card], game: GameType | None) -> str:
    return " ".join(card.display for card in sorted(cards, key=lambda c: sort_key(game, c)))


class TerminalTable:
    """Runs deals with the person at one seat, writing to `out` and reading from `lines`."""

    def __init__(self, lines: TextIO, out: TextIO, level: Level, rules: RuleSet) -> None:
        self.lines = lines
        self.out = out
        self.level = level
        self.rules = rules

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
            self.say(text)
            lowered = text.lower()
            if lowered in ("quit", "exit"):
                raise Quit
            if lowered == "help":
                self.say(HELP)
            elif lowered == "hand":
                self.say(f"Your cards: {show_cards(deal.hand(seat), deal.game)}")
            elif text:
                return text

    def name(self, seat: int, human: int) -> str:
        return f"{SEAT_NAMES[seat]} (you)" if seat == human else f"{SEAT_NAMES[seat]} ({self.level} AI)"

    # --- one deal -------------------------------------------------------------------------------

    def play_deal(self, deal: Deal, players: list[Player | None], human: int) -> DealResult:
        self.say(f"You are {SEAT_NAMES[human]}. Your cards: {show_cards(deal.hand(human), None)}")
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

    def side_calls(self, deal: Deal, players: list[Player | None], human: int, asked: set[tuple[int, str]]) -> None:
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
                while True:
                    text = self.ask(f"Say {word.capitalize()}? Type '{word}' or 'no'.", deal, seat).lower()
                    if text in ("no", "n", "pass"):
                        action = None
                        break
                    if text == word:
                        action = offered[0]
                        break
                    self.say(f"Not understood: {text!r}. Type '{word}' or 'no'.")
            else:
                action = player.side_action(seat_view(deal, seat))
            if action is not None:
                deal.apply(action, seat)
                self.say(f"{self.name(seat, human)} says {str(action).capitalize()}!")
                self.side_calls(deal, players, human, asked)
                return

    def human_move(self, deal: Deal, seat: int) -> Action:
        while True:
            prompt, parse = self.prompt_for(deal, seat)
            text = self.ask(prompt, deal, seat)
            try:
                action = parse(text)
            except ValueError as error:
                self.say(f"Not understood: {error}. Type 'help' for the forms.")
                continue
            try:
                deal.apply(action, seat)
            except IllegalAction as error:
                self.say(f"Not allowed: {error}.")
                continue
            return action

    def prompt_for(self, deal: Deal, seat: int) -> tuple[str, Callable[[str], Action]]:
        phase = deal.phase
        if phase is Phase.AUCTION:
            return self.auction_prompt(deal)
        if phase is Phase.SKAT:
            return (f"You won the auction at {deal.bid}. Type 'pickup' to take the skat, or declare a hand "
                    "game (e.g. 'clubs hand', 'grand hand', 'null hand').", _parse_skat)
        if phase is Phase.DISCARD:
            return (f"Your cards with the skat: {show_cards(deal.hand(seat), None)}\n"
                    "Discard two cards (e.g. 'ST D7').", _parse_discard)
        if phase is Phase.DECLARE:
            return (f"Declare your game (bid {deal.bid}): clubs, spades, hearts, diamonds, grand, null, "
                    "null ouvert.", _parse_declare)
        return self.play_prompt(deal, seat)

    def auction_prompt(self, deal: Deal) -> tuple[str, Callable[[str], Action]]:
        legal = deal.legal_actions()
        bids = [a.value for a in legal if isinstance(a, Bid)]
        if bids == [18] and len(legal) == 2:
            prompt = "Both others passed. Play at 18 ('18') or pass ('pass')?"
        elif bids:
            shown = ", ".join(str(v) for v in BID_LADDER if v >= bids[0])
            shown = ", ".join(shown.split(", ")[:8]) + ", ..."
            prompt = f"Your bid: say {bids[0]} or more ({shown}) or 'pass'."
        else:
            prompt = f"The bid is {deal.bid}. Hold ('yes') or pass ('pass')?"
        return prompt, _parse_auction

    def play_prompt(self, deal: Deal, seat: int) -> tuple[str, Callable[[str], Action]]:
        game = deal.game
        legal = sorted(deal.legal_cards(), key=lambda c: sort_key(game, c))
        lines = [f"Game: {deal.contract} by {SEAT_NAMES[deal.declarer]}" if deal.declarer is not None
                 else "Game: ramsch (everyone alone; the most card points lose)"]
        trick = deal.current_trick
        if trick:
            lines.append("Trick so far: " + ", ".join(f"{SEAT_NAMES[s]} {c.display}" for s, c in trick))
        else:
            lines.append(f"Trick {len(deal.tricks) + 1}: you lead.")
        declarer = deal.declarer
        if deal.contract is not None and deal.contract.ouvert and declarer is not None and declarer != seat:
            lines.append(f"{SEAT_NAMES[declarer]}'s open hand: {show_cards(deal.hand(declarer), game)}")
        lines.append(f"Your cards: {show_cards(deal.hand(seat), game)}")
        lines.append("Playable: " + "  ".join(f"{i}:{c.display}" for i, c in enumerate(legal, 1)))
        lines.append("Play a card (its code like 'ST', or its number).")

        def parse(text: str) -> Action:
            if text.isdigit():
                number = int(text)
                if not 1 <= number <= len(legal):
                    raise ValueError(f"there is no card number {number}; choose 1 to {len(legal)}")
                return PlayCard(legal[number - 1])
            words = text.split()
            if words and words[0].lower() == "play":
                words = words[1:]
            if len(words) != 1:
                raise ValueError(f"{text!r} is not one card")
            return PlayCard(Card.parse(words[0]))
        return "\n".join(lines), parse

    # --- what everyone sees ---------------------------------------------------------------------

    def announce(self, deal: Deal, seat: int, action: Action, human: int) -> None:
        who = self.name(seat, human)
        if isinstance(action, Bid):
            self.say(f"{who}: {action.value}")
        elif action == HOLD:
            self.say(f"{who}: yes ({deal.bid})")
        elif action == PASS:
            self.say(f"{who}: pass")
        elif action == PICK_UP:
            self.say(f"{who} picks up the skat.")
        elif isinstance(action, Discard):
            self.say(f"{who} discards two cards." if seat != human else
                     f"You discard {action.first.display} {action.second.display}.")
        elif isinstance(action, Declare):
            assert deal.contract is not None
            self.say(f"{who} declares {deal.contract}.")
            if deal.contract.ouvert:
                self.say(f"Open hand: {show_cards(deal.hand(seat), deal.game)}")
        elif isinstance(action, PlayCard):
            if deal.current_trick:
                self.say(f"{who} plays {action.card.display}")
            else:
                self.trick_done(deal, human)
        if deal.phase is Phase.PLAY and deal.contract is not None and deal.contract.game is GameType.RAMSCH \
                and not deal.tricks and len(deal.current_trick) == 0 and action == PASS:
            self.say("Everyone passed: Ramsch. Each plays alone; jacks are trumps; the most card points lose.")
        if deal.is_over:
            self.say("")

    def trick_done(self, deal: Deal, human: int) -> None:
        if not deal.tricks:
            return
        trick = deal.tricks[-1]
        cards = ", ".join(f"{self.name(trick.seat_of(i), human)} {c.display}" for i, c in enumerate(trick.cards))
        self.say(f"Trick {len(deal.tricks)}: {cards} -> {self.name(trick.winner, human)} takes "
                 f"{trick.points} points")

    def report(self, deal: Deal, result: DealResult, human: int) -> None:
        if result.passed:
            self.say("Everyone passed: the deal is thrown in.")
            return
        if result.declarer is None:
            points = ", ".join(f"{self.name(s, human)} {p}" for s, p in enumerate(result.seat_points))
            self.say(f"Ramsch over. Card points: {points}.")
        else:
            outcome = "won" if result.won else "lost"
            extra = " (overbid)" if result.overbid else ""
            self.say(f"{self.name(result.declarer, human)} {outcome} {result.contract}{extra}: "
                     f"{result.declarer_points} card points, game value {result.value}.")
            self.say(f"The skat was {show_cards(deal.skat, deal.game)}.")
        self.say("Scores this deal: " + ", ".join(
            f"{self.name(s, human)} {score:+d}" for s, score in enumerate(result.seat_scores)))


def _parse_auction(text: str) -> Action:
    word = text.lower().removeprefix("bid ").strip()
    if word in ("pass", "p", "no", "n"):
        return PASS
    if word in ("hold", "yes", "y", "ja"):
        return HOLD
    if word.isdigit():
        return Bid(int(word))
    raise ValueError(f"{text!r}: say a number, 'yes' or 'pass'")


def _parse_skat(text: str) -> Action:
    lowered = text.lower().strip()
    if lowered in ("pickup", "pick up", "skat", "take"):
        return PICK_UP
    contract = Contract.parse(lowered.removeprefix("declare "))
    return Declare(Contract(contract.game, True, contract.schneider, contract.schwarz, contract.ouvert))


def _parse_discard(text: str) -> Action:
    cards = parse_cards(text.lower().removeprefix("discard ").upper())
    if len(cards) != 2:
        raise ValueError(f"name exactly two cards, not {len(cards)}")
    return Discard(cards[0], cards[1])


def _parse_declare(text: str) -> Action:
    return Declare(Contract.parse(text.lower().removeprefix("declare ")))


def run(argv: Sequence[str] | None, lines: TextIO, out: TextIO) -> int:
    parser = argparse.ArgumentParser(prog="python -m skatbot.play", description="Play Skat against two AIs.")
    parser.add_argument("--level", default="normal", help=f"AI level: {', '.join(levels())}")
    parser.add_argument("--deals", type=int, default=1, help="how many deals to play (default 1)")
    parser.add_argument("--seed", type=int, default=None, help="seed for the cards and the AIs")
    parser.add_argument("--seat", type=int, choices=(0, 1, 2), default=None,
                        help="your seat in every deal (0 forehand, 1 middlehand, 2 rearhand); default: rotate")
    parser.add_argument("--ramsch", action="store_true", help="play Ramsch when all pass")
    parser.add_argument("--kontra", action="store_true", help="allow Kontra and Re")
    options = parser.parse_args(argv)
    if options.level not in levels():
        parser.error(f"unknown level {options.level!r}: choose one of {', '.join(levels())}")
    level = Level(options.level)
    if options.deals < 1:
        parser.error("play at least one deal")
    seed = options.seed if options.seed is not None else int.from_bytes(__import__("os").urandom(4), "big")
    rules = RuleSet(all_pass=AllPass.RAMSCH if options.ramsch else AllPass.THROW_IN, kontra=options.kontra)
    table = TerminalTable(lines, out, level, rules)
    totals = [0, 0, 0]  # per player: 0 is you, 1 and 2 the AIs in the order they sit after you
    table.say(f"Skat against two {level} AIs, {options.deals} deal(s), seed {seed}. Type 'help' "
              "for how to type moves.")
    try:
        for number in range(options.deals):
            human = options.seat if options.seat is not None else number % 3
            table.say(f"\n=== Deal {number + 1} of {options.deals} ===")
            deal = Deal.new(deal_seed(seed, number), rules)
            result = table.play_deal(deal, ai_players(level, seed, number, human), human)
            table.report(deal, result, human)
            for offset in range(3):
                totals[offset] += result.seat_scores[(human + offset) % 3]
            table.say(f"Totals: you {totals[0]:+d}, next AI {totals[1]:+d}, other AI {totals[2]:+d}")
    except InputEnded:
        table.say("\nInput ended before the deal was over; leaving the table.")
        return 1
    except Quit:
        table.say("Left the table.")
        return 0
    return 0


def main() -> None:
    sys.exit(run(None, sys.stdin, sys.stdout))


if __name__ == "__main__":
    main()
