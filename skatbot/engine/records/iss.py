"""Game records of the International Skat Server (ISS): read, replay through `Deal`, and write.

One record is one line, `(;GM[Skat]...ID[..]P0[..]P1[..]P2[..]MV[moves]R[result] ;)`. Replaying its
moves through the engine must reproduce the server's `R[...]` exactly, so the conventions the records
follow (tests/data/iss/README.md) are kept here, in one place: the skat reveal after a pickup, discards
with the contract or as the next move, `SC` as a claim that changes nothing, `RE` as a concession,
`w TI.n` as a time-out and `w LE.n` as a player leaving (in the auction: a penalty, no game; after a
contract named before the discard: that game lost), a card written `??` (unknown: a player left) as not
played, and a record ending on one defender's `RE` as both defenders conceding.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..actions import (
    CLAIM,
    CONCEDE,
    HOLD,
    PASS,
    PICK_UP,
    PLAY,
    Action,
    Bid,
    Claim,
    Concede,
    Declare,
    Discard,
    Hold,
    Pass,
    PickUpSkat,
    PlayCard,
    TimeOut,
)
from ..cards import CARDS, Card, mask_of
from ..deal import Deal, Phase
from ..errors import IllegalAction
from ..games import Contract, GameType
from ..rules import OFFICIAL, RuleSet
from ..scoring import Ending
from .errors import RecordError

ISS_CARDS: dict[str, Card] = {card.iss: card for card in CARDS}
GAME_LETTERS: dict[str, GameType] = {
    game.iss_letter: game for game in GameType if game is not GameType.RAMSCH}
ANNOUNCEMENT_LETTERS = "HSZO"  # hand, schneider, schwarz, ouvert

_FIELD = re.compile(r"([A-Z][A-Z0-9]*)\[((?:\\.|[^\]\\])*)\]", re.DOTALL)
_ID = re.compile(r"ID\[((?:\\.|[^\]\\])*)\]")


@dataclass(frozen=True, slots=True)
class IssResult:
    """The result fields of `R[...]` that a replay must reproduce (plus the server's bookkeeping)."""

    passed: bool
    declarer: int | None = None
    won: bool = False
    score: int = 0  # v: signed, already doubled when lost
    matadors: int = 0
    overbid: bool = False
    declarer_points: int = 0
    declarer_tricks: int = 0
    schneider: bool = False
    schwarz: bool = False
    timed_out: int | None = None  # to:
    resigned: bool = False  # r:
    penalty: bool = False  # a player timed out or left during the auction: no game (d:-1 penalty)
    left: int | None = None  # l: the seat that left the table
    penalties: tuple[int, int, int] = (0, 0, 0)  # p0: p1: p2:

    @classmethod
    def parse(cls, text: str, record_id: str | None = None) -> IssResult:
        words = text.split()
        if words == ["passed"]:
            return cls(passed=True)
        values: dict[str, str] = {}
        flags: set[str] = set()
        for word in words:
            key, colon, value = word.partition(":")
            if colon:
                values[key] = value
            else:
                flags.add(word)
        try:
            penalty = "penalty" in flags
            won = False if penalty and not flags & {"win", "loss"} else _one_of(flags, "win", "loss")
            overbid = _one_of(flags, "overbid", "bidok")
            timed_out, left, declarer = (int(values.get(key, "-1")) for key in ("to", "l", "d"))
            penalties = (int(values.get("p0", "0")), int(values.get("p1", "0")), int(values.get("p2", "0")))
            if penalty != (declarer < 0):
                raise ValueError("a penalty has no declarer (d:-1), and only a penalty")
            return cls(
                passed=False, declarer=None if penalty else declarer, won=won, score=int(values["v"]),
                matadors=int(values["m"]), overbid=overbid, declarer_points=int(values["p"]),
                declarer_tricks=int(values["t"]), schneider=values["s"] == "1", schwarz=values["z"] == "1",
                timed_out=None if timed_out < 0 else timed_out, resigned=values.get("r", "0") == "1",
                penalty=penalty, left=None if left < 0 else left, penalties=penalties)
        except (KeyError, ValueError) as error:
            raise RecordError(record_id, None, f"unreadable result R[{text}]: {error}") from None

    @classmethod
    def of_deal(cls, deal: Deal) -> IssResult:
        """The result of a finished deal as ISS writes it."""
        result = deal.result
        last = deal.history[-1][1] if deal.history else None
        gone = last.seat if isinstance(last, TimeOut) else None
        left = gone if isinstance(last, TimeOut) and last.left else None
        timed_out = gone if left is None else None
        if deal.ending is Ending.PENALTY:
            assert gone is not None  # only a time-out or a leave ends a deal with a penalty
            penalties = tuple(int(seat == gone) for seat in range(3))
            return cls(passed=False, penalty=True, timed_out=timed_out, left=left,
                       penalties=(penalties[0], penalties[1], penalties[2]))
        if result.passed:
            return cls(passed=True)
        if result.declarer is None:
            raise RecordError(None, None, "the ISS record format has no ramsch")
        resigned = deal.ending in (Ending.DECLARER_CONCEDED, Ending.DEFENDERS_CONCEDED, Ending.CLAIMED)
        return cls(
            passed=False, declarer=result.declarer, won=result.won, score=result.score,
            matadors=result.matadors, overbid=result.overbid, declarer_points=result.declarer_points,
            declarer_tricks=result.declarer_tricks, schneider=result.schneider, schwarz=result.schwarz,
            timed_out=timed_out, resigned=resigned, left=left)

    def __str__(self) -> str:
        if self.passed:
            return "passed"
        outcome = "penalty" if self.penalty else "win" if self.won else "loss"
        declarer = -1 if self.declarer is None else self.declarer
        p0, p1, p2 = self.penalties
        return (f"d:{declarer} {outcome} v:{self.score} m:{self.matadors} "
                f"{'overbid' if self.overbid else 'bidok'} p:{self.declarer_points} t:{self.declarer_tricks} "
                f"s:{int(self.schneider)} z:{int(self.schwarz)} p0:{p0} p1:{p1} p2:{p2} "
                f"l:{-1 if self.left is None else self.left} "
                f"to:{-1 if self.timed_out is None else self.timed_out} r:{int(self.resigned)}")


def _one_of(flags: set[str], yes: str, no: str) -> bool:
    if (yes in flags) == (no in flags):
        raise ValueError(f"expected exactly one of {yes!r} and {no!r}")
    return yes in flags


@dataclass(frozen=True, slots=True)
class IssRecord:
    """One parsed record. `moves` are the (actor, move) pairs after the deal; actor is w, 0, 1 or 2."""

    id: str
    players: tuple[str, str, str]
    hands: tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]
    skat: tuple[Card, Card]
    moves: tuple[tuple[str, str], ...]
    result: IssResult | None
    fields: tuple[tuple[str, str], ...]  # every field as written, in order

    def field(self, name: str) -> str | None:
        for key, value in self.fields:
            if key == name:
                return value
        return None


def parse_record(line: str) -> IssRecord:
    """Read one record line. Raises RecordError naming the record and what is wrong."""
    text = line.strip()
    found = _ID.search(text)
    guess = _unescape(found.group(1)) if found else None
    if not text.startswith("(;") or not text.endswith(";)"):
        raise RecordError(guess, None, "a record starts with '(;' and ends with ';)' (truncated?)")
    body, position, fields = text[2:-2], 0, []
    while position < len(body):
        if body[position].isspace():
            position += 1
            continue
        match = _FIELD.match(body, position)
        if match is None:
            raise RecordError(guess, None, f"unreadable text at {body[position:position + 20]!r}")
        fields.append((match.group(1), _unescape(match.group(2))))
        position = match.end()
    names = [name for name, _ in fields]
    for name in set(names):
        if names.count(name) > 1:
            raise RecordError(guess, None, f"field {name} appears twice")
    values = dict(fields)
    record_id = values.get("ID")
    if not record_id:
        raise RecordError(None, None, "the record has no ID")
    if values.get("GM", "Skat") != "Skat":
        raise RecordError(record_id, None, f"not a Skat record: GM[{values['GM']}]")
    if "MV" not in values:
        raise RecordError(record_id, None, "the record has no moves (MV)")
    words = values["MV"].split()
    if not words or len(words) % 2:
        raise RecordError(record_id, None, "moves must come as (actor, move) pairs")
    pairs = [(words[i], words[i + 1]) for i in range(0, len(words), 2)]
    for actor, move in pairs:
        if actor not in ("w", "0", "1", "2"):
            raise RecordError(record_id, f"{actor} {move}", f"unknown actor {actor!r} (w, 0, 1 or 2)")
    hands, skat = _parse_deal(record_id, *pairs[0])
    result_text = values.get("R")
    result = IssResult.parse(result_text, record_id) if result_text else None
    players = (values.get("P0", ""), values.get("P1", ""), values.get("P2", ""))
    return IssRecord(record_id, players, hands, skat, tuple(pairs[1:]), result, tuple(fields))


def _parse_deal(record_id: str, actor: str, move: str
                ) -> tuple[tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]], tuple[Card, Card]]:
    shown = f"{actor} {move}"
    if actor != "w":
        raise RecordError(record_id, shown, "the first move must be the server's deal")
    cards = parse_iss_cards(move, record_id, shown)
    if len(cards) != 32:
        raise RecordError(record_id, shown, f"the deal must name 32 cards, not {len(cards)}")
    duplicates = sorted({card.iss for card in cards if cards.count(card) > 1})
    if duplicates:
        raise RecordError(record_id, shown, f"card(s) dealt twice: {', '.join(duplicates)}")
    return (tuple(cards[0:10]), tuple(cards[10:20]), tuple(cards[20:30])), (cards[30], cards[31])


def parse_iss_cards(text: str, record_id: str | None = None, move: str | None = None) -> list[Card]:
    """Strict ISS card codes separated by dots (`CJ.ST.H7`)."""
    cards = []
    for code in text.split("."):
        card = ISS_CARDS.get(code)
        if card is None:
            raise RecordError(record_id, move, f"{code!r} is not an ISS card (suit C S H D, rank 7 8 9 T J Q K A)")
        cards.append(card)
    return cards


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text, flags=re.DOTALL)


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


# --- replay ----------------------------------------------------------------------------------------------

def replay(record: IssRecord, rules: RuleSet = OFFICIAL, *, complete: bool = True) -> Deal:
    """Replay every move through a fresh `Deal`.

    With `complete` (a finished game), a record stopping right after a defender's `RE` counts as both
    defenders conceding, and one that still stops before the end fails. Without it, exactly the moves
    written are applied and the deal may be left unfinished.
    """
    return _Replay(record, rules).run(complete)


class _Replay:
    """Turns ISS moves into engine actions, one at a time, and applies them."""

    def __init__(self, record: IssRecord, rules: RuleSet) -> None:
        self.record = record
        self.deal = Deal(record.hands, record.skat, rules)
        self.move = ""
        self.reveal_due = False
        self.pending: tuple[int, Contract, list[Card]] | None = None  # contract waiting for its discards
        self.unknown_card = False  # a card written `??` (a player left): only the server's ending may follow

    def fail(self, reason: str) -> RecordError:
        return RecordError(self.record.id, self.move, reason)

    def run(self, complete: bool) -> Deal:
        deal = self.deal
        for actor, move in self.record.moves:
            self.move = f"{actor} {move}"
            if deal.is_over:
                raise self.fail("move after the end of the game")
            if self.unknown_card and not (actor == "w" and move[:3] in ("TI.", "LE.")):
                raise self.fail("a card written ?? is followed by the server's time-out or leave (w TI.n, w LE.n)")
            try:
                if actor == "w":
                    self.server(move)
                else:
                    self.seat_move(int(actor), move)
            except IllegalAction as error:
                raise self.fail(f"illegal: {error}") from None
        if self.unknown_card:
            raise self.fail("a card written ?? is followed by the server's time-out or leave (w TI.n, w LE.n)")
        if self.pending is not None:
            raise self.fail("the contract's two discards never came")
        last = deal.history[-1] if deal.history else None
        if (complete and not deal.is_over and deal.phase is Phase.PLAY and last is not None
                and isinstance(last[1], Concede) and last[0] != deal.declarer):
            for seat in range(3):  # the record stops on a defender's RE: both defenders concede
                if seat != deal.declarer and seat not in deal.conceded:
                    deal.apply(CONCEDE, seat)
        if complete and not deal.is_over:
            raise self.fail("the moves end before the game is over (truncated record?)")
        return deal

    def server(self, move: str) -> None:
        if move[:3] in ("TI.", "LE."):  # a time-out or a player leaving ends the deal
            seat = move[3:]
            if seat not in ("0", "1", "2"):
                raise self.fail("a time-out or a leave names seat 0, 1 or 2")
            contract = None
            if self.pending is not None:  # the declarer named the game and timed out before discarding
                pending_seat, contract, _ = self.pending
                if int(seat) != pending_seat:
                    raise self.fail(f"seat {pending_seat} still owes the two discards")
                self.pending = None
            self.unknown_card = False
            self.deal.apply(TimeOut(int(seat), move.startswith("LE."), contract))
            return
        if not self.reveal_due:
            raise self.fail("unexpected server move")
        cards = parse_iss_cards(move, self.record.id, self.move)
        if len(cards) != 2 or mask_of(cards) != mask_of(self.deal.dealt_skat):
            dealt = ".".join(card.iss for card in self.deal.dealt_skat)
            raise self.fail(f"the skat shown does not match the skat dealt ({dealt})")
        self.reveal_due = False

    def seat_move(self, seat: int, move: str) -> None:
        deal, phase = self.deal, self.deal.phase
        self.reveal_due = False
        if phase is Phase.AUCTION:
            deal.apply(_auction_action(move, self), seat)
        elif phase is Phase.PLAY and move == "??":  # the card is unknown: a player left before it was sent
            if deal.current_seat != seat:
                raise self.fail(f"seat {seat} is not to play")
            self.unknown_card = True
        elif phase is Phase.PLAY:
            deal.apply(_play_action(move, self), seat)
        elif phase is Phase.SKAT and move == "s":
            deal.apply(PICK_UP, seat)
            self.reveal_due = True
        elif self.pending is not None:
            self.discards_for_pending(seat, move)
        else:
            self.declaration(seat, move)

    def discards_for_pending(self, seat: int, move: str) -> None:
        assert self.pending is not None  # the caller checked
        pending_seat, contract, shown = self.pending
        if seat != pending_seat:
            raise self.fail(f"seat {pending_seat} still owes the two discards")
        cards = parse_iss_cards(move, self.record.id, self.move)
        if len(cards) != 2:
            raise self.fail("the discards are two cards")
        self.deal.apply(Discard(cards[0], cards[1]), seat)
        self.declare(seat, contract, shown)
        self.pending = None

    def declaration(self, seat: int, move: str) -> None:
        deal = self.deal
        head, _, tail = move.partition(".")
        if deal.phase is Phase.DISCARD and head in ISS_CARDS:  # the discards come before the contract
            cards = parse_iss_cards(move, self.record.id, self.move)
            if len(cards) != 2:
                raise self.fail("the discards are two cards")
            deal.apply(Discard(cards[0], cards[1]), seat)
            return
        contract = self.contract(head)
        cards = parse_iss_cards(tail, self.record.id, self.move) if tail else []
        if deal.phase is Phase.DISCARD:
            if not cards:
                self.pending = (seat, contract, [])
                return
            if len(cards) < 2:
                raise self.fail("after a pickup the contract names two discards")
            deal.apply(Discard(cards[0], cards[1]), seat)
            cards = cards[2:]
        self.declare(seat, contract, cards)

    def contract(self, head: str) -> Contract:
        game = GAME_LETTERS.get(head[:1])
        letters = head[1:]
        if game is None or any(c not in ANNOUNCEMENT_LETTERS for c in letters) or len(set(letters)) < len(letters):
            raise self.fail(f"unknown contract {head!r}: a game letter G C S H D N, then any of H S Z O")
        hand = "H" in letters or self.deal.phase is Phase.SKAT
        # ISS's own `O` on a suit game or grand (no `H`, before any pickup) is the official open game: hand
        # with schwarz announced, also at a table whose rules let any game be open (there `H` is written).
        official_open = "O" in letters and "H" not in letters and game is not GameType.NULL and (
            self.deal.phase is Phase.SKAT)
        return Contract(game, hand, "S" in letters or official_open, "Z" in letters or official_open,
                        "O" in letters)

    def declare(self, seat: int, contract: Contract, shown: list[Card]) -> None:
        deal = self.deal
        if shown and not contract.ouvert:
            raise self.fail("only an ouvert contract shows cards")
        if deal.current_seat != seat:
            raise self.fail(f"seat {seat} is not the declarer")
        normalized = deal.normalize(contract, hand=deal.phase is Phase.SKAT)
        hand_mask = deal.hand_mask(seat)
        if len(set(shown)) != len(shown) or any(not hand_mask >> card.index & 1 for card in shown):
            raise self.fail("the shown cards are not the declarer's hand")
        deal.apply(Declare(normalized), seat)


def _auction_action(move: str, replay: _Replay) -> Action:
    if move == "y":
        return HOLD
    if move == "p":
        return PASS
    if move.isdigit():
        return Bid(int(move))
    raise replay.fail("not an auction move (a number, y or p)")


def _play_action(move: str, replay: _Replay) -> Action:
    if move == "SC":
        return CLAIM
    if move == "RE":
        return CONCEDE
    card = ISS_CARDS.get(move)
    if card is None:
        raise replay.fail(f"{move!r} is not a card, SC or RE")
    return PLAY[card.index]


# --- export ----------------------------------------------------------------------------------------------

def contract_letters(contract: Contract, rules: RuleSet = OFFICIAL) -> str:
    """`G`, `CHZ`, `NO`, ... : announcements the rules imply are left out, as ISS writes them."""
    open_hand_game = (contract.ouvert and contract.hand and contract.game is not GameType.NULL
                      and not rules.ouvert_any_game)
    letters = contract.game.iss_letter
    if contract.hand and not open_hand_game:
        letters += "H"
    if contract.schneider and not contract.schwarz and not open_hand_game:
        letters += "S"
    if contract.schwarz and not open_hand_game:
        letters += "Z"
    if contract.ouvert:
        letters += "O"
    return letters


def export_moves(deal: Deal) -> str:
    """The MV field: the deal, then every action of the history as ISS moves."""
    dealt = [card.iss for hand in deal.dealt_hands for card in hand] + [card.iss for card in deal.dealt_skat]
    moves = ["w " + ".".join(dealt)]
    history = deal.history
    for index, (seat, action) in enumerate(history):
        if isinstance(action, Bid):
            moves.append(f"{seat} {action.value}")
        elif isinstance(action, (Hold, Pass)):
            moves.append(f"{seat} {'y' if isinstance(action, Hold) else 'p'}")
        elif isinstance(action, PickUpSkat):
            moves.append(f"{seat} s")
            moves.append("w " + ".".join(card.iss for card in deal.dealt_skat))
        elif isinstance(action, Discard):
            if index + 1 == len(history):  # not declared yet: the discards stand alone
                moves.append(f"{seat} {action.first.iss}.{action.second.iss}")
        elif isinstance(action, Declare):
            if action.contract.musik:
                raise RecordError(None, str(action), "the ISS record format has no Musik announcement")
            text = f"{seat} {contract_letters(deal.contract or action.contract, deal.rules)}"
            previous = history[index - 1][1] if index else None
            if isinstance(previous, Discard):
                text += f".{previous.first.iss}.{previous.second.iss}"
            moves.append(text)
        elif isinstance(action, PlayCard):
            moves.append(f"{seat} {action.card.iss}")
        elif isinstance(action, Claim):
            moves.append(f"{seat} SC")
        elif isinstance(action, Concede):
            moves.append(f"{seat} RE")
        elif isinstance(action, TimeOut):
            if action.contract is not None:  # named before the discard, as ISS writes it
                moves.append(f"{action.seat} {contract_letters(action.contract, deal.rules)}")
            moves.append(f"w {'LE' if action.left else 'TI'}.{action.seat}")
        else:
            raise RecordError(None, str(action), "the ISS record format has no such move")
    return " ".join(moves)


def export_record(deal: Deal, record_id: str = "1", players: Sequence[str] = ("forehand", "middlehand",
                  "rearhand"), place: str = "skatbot", date: str | None = None) -> str:
    """One ISS record line for `deal`, finished or not (an unfinished deal has no `R` field)."""
    if deal.contract is not None and deal.contract.game is GameType.RAMSCH:
        raise RecordError(record_id, None, "the ISS record format has no ramsch")
    if len(players) != 3:
        raise ValueError("name three players")
    fields = [("GM", "Skat"), ("PC", place), ("ID", record_id)]
    if date is not None:
        fields.append(("DT", date))
    fields += [(f"P{seat}", name) for seat, name in enumerate(players)]
    try:
        fields.append(("MV", export_moves(deal)))
    except RecordError as error:
        raise RecordError(record_id, error.move, error.reason) from None
    if deal.is_over:
        fields.append(("R", str(IssResult.of_deal(deal))))
    return "(;" + "".join(f"{name}[{_escape(value)}]" for name, value in fields) + " ;)"
