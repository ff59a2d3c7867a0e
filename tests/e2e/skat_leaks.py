"""The hidden-card check for end-to-end runs: no public message (any version) ever shows a hidden card.

It learns each human's cards per deal from the private hand messages they received (DMs or
ephemeral replies list the hand), then reads every version of every public message line by line.
A card may appear publicly only
- in a trick line or the "on the table" line, attributed to a player who held it (played),
- in an "open hand" line of the declarer (ouvert, or after a claim),
- in the result card's skat line (the deal is over).
Anything else is a leak. Cards the declarer put away (the skat) never appear before the result, and
a played card is never attributed to a human who did not hold it.
"""

from __future__ import annotations

import re
import sqlite3
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from skatbot.pictures import cards_shown
from skatbot.ui.i18n import CODES, template
from tests.e2e.fakediscord import Channel, FakeDiscord, Message, User
from tests.e2e.fakediscord.state import Attachment


class _CardLabels:
    """Card labels of the French deck in message text, in any language's letters (♣J, ♣B, ♣V, ♥D, ♠E, ♦R,
    from the catalogs), read as the canonical English label (♣J, ♥Q, ♠A, ♦K) the checks compare."""

    def __init__(self) -> None:
        self.canonical = {template(code, f"card.rank.{name}"): letter for code in CODES
                          for name, letter in (("jack", "J"), ("queen", "Q"), ("king", "K"), ("ace", "A"))}
        letters = sorted(self.canonical, key=len, reverse=True)
        self.pattern = re.compile(r"([♣♠♥♦])(10|[789]|" + "|".join(map(re.escape, letters)) + ")")

    def findall(self, text: str) -> list[str]:
        return [suit + self.canonical.get(rank, rank) for suit, rank in self.pattern.findall(text)]

    def fullmatch(self, text: str) -> bool:
        return self.pattern.fullmatch(text) is not None

    def starts(self, text: str) -> str | None:
        """The canonical label of the card label `text` begins with, if it does."""
        found = self.pattern.match(text)
        return found.group(1) + self.canonical.get(found.group(2), found.group(2)) if found else None


CARD = _CardLabels()
FACE = re.compile(r"<:sk\d+_([fg])_([CSHD][0-9A-Z]):(\d+)>")
"""A card face (application emoji) in message text; the card's label follows it. A French face is named by what
it shows (suit, then the ISS pip or the letter of the reader's language: `CT`, `CJ`, `CB`, `HE`)."""
_SUIT_OF_FACE = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}
ALL_CARDS = frozenset(f"{s}{r}" for s in "♣♠♥♦" for r in ("7", "8", "9", "10", "J", "Q", "K", "A"))


def _pattern(template: str, anchored_end: bool = True) -> re.Pattern[str]:
    """A regex for a catalog template: each {field} becomes a named lazy group."""
    out, pos = "", 0
    for match in re.finditer(r"\{(\w+)[^}]*\}", template):
        out += re.escape(template[pos:match.start()]) + f"(?P<{match.group(1)}>.+?)"
        pos = match.end()
    out += re.escape(template[pos:])
    return re.compile("^" + out + ("$" if anchored_end else ""))


def _both(key: str, anchored_end: bool = True) -> list[re.Pattern[str]]:
    return [_pattern(template(code, key), anchored_end) for code in CODES]


HAND_TITLE = _both("hand.title")
DISCARDED = _both("hand.discarded")
BOARD_TITLE = _both("board.title")
RESULT_TITLE = _both("result.title")
TRICK = _both("board.trick")
CURRENT = _both("board.current")
OPEN_HAND = _both("board.open_hand")
GAME = _both("board.game")
SKAT = _both("result.skat")


SEATS = {template(code, key): seat for code in CODES
         for seat, key in enumerate(("seat.forehand", "seat.middlehand", "seat.rearhand"))}


def _match(patterns: list[re.Pattern[str]], line: str) -> re.Match[str] | None:
    for pattern in patterns:
        found = pattern.match(line)
        if found:
            return found
    return None


@dataclass
class Knowledge:
    """What the private messages told us: cards each human held, and the skat the declarer laid away."""

    held: dict[tuple[int, str], set[str]] = field(default_factory=lambda: defaultdict(set))  # (deal, name)
    dealt: dict[tuple[int, str], set[str]] = field(default_factory=dict)
    laid_away: dict[int, set[str]] = field(default_factory=lambda: defaultdict(set))  # deal -> discards
    truth: dict[int, tuple[list[set[str]], set[str]]] = field(default_factory=dict)  # from the database, if given
    shown_played: dict[int, set[str]] = field(default_factory=lambda: defaultdict(set))  # deal -> in trick lines
    shown_skat: dict[int, set[str]] = field(default_factory=lambda: defaultdict(set))  # deal -> on its result card

    def humans_in(self, deal: int) -> list[str]:
        return [name for (number, name) in self.held if number == deal]

    def original_skat(self, deal: int) -> set[str] | None:
        """The two dealt skat cards, when all three hands of the deal are known."""
        hands = [cards for (number, _), cards in self.dealt.items() if number == deal]
        if len(hands) < 3:
            return None
        rest = set(ALL_CARDS)
        for cards in hands:
            rest -= cards
        return rest if len(rest) == 2 else None


def private_messages(fake: FakeDiscord, user: User) -> list[Message]:
    """Every message only `user` could see (DM or ephemeral), deleted ones included."""
    return [m for m in fake.messages(include_deleted=True)
            if m.visibility in ("dm", "ephemeral") and m.viewer_id == user.id]


def learn(fake: FakeDiscord, users: Iterable[User]) -> Knowledge:
    """Read every hand message each user received privately (DM or ephemeral, every version)."""
    known = Knowledge()
    for user in users:
        for message in private_messages(fake, user):
            for version in message.history:
                lines = version.content.splitlines()
                if len(lines) < 2:
                    continue
                title = _match(HAND_TITLE, lines[0])
                if title is None:
                    continue
                deal = int(title["number"])
                cards = set(CARD.findall(lines[1]))
                key = (deal, user.name)
                known.held[key] |= cards
                if key not in known.dealt and len(cards) == 10:
                    known.dealt[key] = cards
                for line in lines[2:]:
                    away = _match(DISCARDED, line)
                    if away:
                        known.laid_away[deal] |= set(CARD.findall(away["cards"]))
    return known


def _split_played(text: str) -> list[tuple[str, str]]:
    """'alice ♣J · 🤖 AI 1 (normal) ♠10' -> [('alice', '♣J'), ('🤖 AI 1 (normal)', '♠10')]."""
    out = []
    for part in text.split(" · "):
        name, _, card = part.rpartition(" ")
        if not CARD.fullmatch(card):
            raise AssertionError(f"unexpected played-card text {part!r}")
        out.append((name, CARD.findall(card)[0]))
    return out


def public_leaks(fake: FakeDiscord, users: Iterable[User], channel: Channel | None = None,
                 database: str | Path | None = None,
                 dealt: dict[int, tuple[list[set[str]], set[str]]] | None = None) -> list[str]:
    """Every problem found in the public messages (empty when nothing hidden was shown).

    With several tables, check each table's `channel` with its own players (deal numbers repeat).
    With the `database`, every played card is also checked against the stored deal (AI seats too)."""
    users = list(users)
    known = learn(fake, users)
    if database is not None:
        known.truth = dealt_from_database(database)
    if dealt is not None:  # the stored deals of one table, already read (several tables share a database)
        known.truth = dealt
    problems: list[str] = []
    public = [m for m in fake.messages(channel, include_deleted=True) if m.visibility == "public"]
    for message in public:
        for index, version in enumerate(message.history):
            problems += _check_version(message, index, version.content, known)
    for message in public:  # pictures, once every public text of the deal is known
        for index, version in enumerate(message.history):
            for attachment in version.attachments:
                problems += _check_picture(f"message {message.id} version {index}", version.content, attachment,
                                           known)
    return problems


def picture_cards(attachment: Attachment) -> tuple[str, ...] | None:
    """The cards (display forms) a PNG attachment says it shows; () for other files; None when a PNG does
    not say (not drawn by the bot's renderer)."""
    if not attachment.filename.endswith(".png"):
        return ()
    cards = cards_shown(attachment.data)
    return None if cards is None else tuple(card.display for card in cards)


def _check_picture(where: str, content: str, attachment: Attachment, known: Knowledge) -> list[str]:
    """A public picture may show cards only under a deal's result card, and only cards the deal's public
    texts showed: the played cards and the skat."""
    cards = picture_cards(attachment)
    if cards is None:
        return [f"{where}: a public picture {attachment.filename} that does not say which cards it shows"]
    if not cards:
        return []
    lines = content.splitlines()
    result = _match(RESULT_TITLE, lines[0]) if lines else None
    if result is None:
        return [f"{where}: a public picture {attachment.filename} shows cards {sorted(cards)} outside a result"]
    deal = int(result["number"])
    public = known.shown_played[deal] | known.shown_skat[deal]
    hidden = set(cards) - public
    if hidden:
        return [f"{where}: the picture {attachment.filename} shows {sorted(hidden)}, never shown in deal {deal}"]
    return []


def strip_faces(line: str, where: str = "") -> tuple[str, list[str]]:
    """The line without its card faces, and a problem for each face not followed by its own card's label (a
    face is a card shown as much as its text is)."""
    problems = []
    for match in FACE.finditer(line):
        if match.group(1) != "f":
            continue
        suit, shown = match.group(2)[0], match.group(2)[1]
        label = _SUIT_OF_FACE[suit] + ("10" if shown == "T" else shown)  # as the face shows it, letter and all
        written = CARD.pattern.match(line[match.end():])
        if written is None or written.group(0) != label:
            problems.append(f"{where}: the face of {label} without its label in the same letters: {line!r}")
    return FACE.sub("", line), problems


def _check_version(message: Message, index: int, content: str, known: Knowledge) -> list[str]:
    where = f"message {message.id} version {index}"
    problems: list[str] = []
    lines = []
    for raw in content.splitlines():
        line, wrong = strip_faces(raw, where)
        lines.append(line)
        problems += wrong
    if not lines:
        return problems
    board = _match(BOARD_TITLE, lines[0])
    result = _match(RESULT_TITLE, lines[0])
    deal = int(board["number"]) if board else int(result["number"]) if result else None
    declarer = None
    played_here: list[tuple[str, str]] = []
    seat_of: dict[str, int] = {}
    if board and len(lines) > 1:  # "Forehand: alice · Middlehand: carol · Rearhand: bob"
        for part in lines[1].split(" · "):
            word, _, name = part.partition(": ")
            if word in SEATS:
                seat_of[name] = SEATS[word]
    for line in lines:
        game = _match(GAME, line)
        if game:
            declarer = game["name"]
    for line in lines:
        cards = CARD.findall(line)
        if not cards:
            continue
        if board and (_match(TRICK, line) or _match(CURRENT, line)):
            trick = _match(TRICK, line)
            shown = trick or _match(CURRENT, line)
            assert shown is not None  # one of the two matched just above
            played = _split_played(shown["played"])
            limit = 3 if trick else 2
            if len(played) > limit or len({name for name, _ in played}) != len(played):
                problems.append(f"{where}: a trick line with {len(played)} cards or a repeated player: {line!r}")
            played_here += played
            continue
        open_hand = _match(OPEN_HAND, line) if board else None
        if open_hand:
            name = open_hand["name"]
            if name != declarer:
                problems.append(f"{where}: an open hand of {name}, who is not the declarer ({declarer}): {line!r}")
            elif deal is not None and (deal, name) in known.held and \
                    not set(cards) <= known.held[(deal, name)]:
                problems.append(f"{where}: {name}'s open hand shows cards they never held: {line!r}")
            continue
        if result and _match(SKAT, line):
            known.shown_skat[int(result["number"])] |= set(cards)
            continue
        problems.append(f"{where}: hidden cards {cards} in a public line: {line!r}")
    if deal is None:
        return problems
    seen: set[str] = set()
    known.shown_played[deal] |= {card for _, card in played_here}
    problems += _against_truth(where, deal, played_here, seat_of, declarer, lines, known)
    skat = known.laid_away.get(deal, set()) | (known.original_skat(deal) or set())
    for name, card in played_here:
        if card in seen:
            problems.append(f"{where}: {card} shown as played twice in deal {deal}")
        seen.add(card)
        if deal in known.truth:
            # The stored deal is the authority (_against_truth). A hand message only shows what was current
            # when it was drawn: a stand-in's quick move can beat the first version of an absent player's
            # hand, so "never held" judged from the private messages alone would be a false alarm.
            pass
        elif (deal, name) in known.held and card not in known.held[(deal, name)]:
            problems.append(f"{where}: {card} shown as played by {name}, who never held it (deal {deal})")
        elif (deal, name) not in known.held and (holder := [human for human in known.humans_in(deal)
                                                           if card in known.held[(deal, human)]]):
            problems.append(f"{where}: {card} of {holder} shown as played by {name} (deal {deal})")
        if card in known.laid_away.get(deal, set()):
            problems.append(f"{where}: {card}, laid away in the skat, shown as played (deal {deal})")
        elif deal not in known.truth and card in skat and \
                not any(card in known.held[(deal, h)] for h in known.humans_in(deal)):
            problems.append(f"{where}: the skat card {card} shown as played (deal {deal})")
    return problems


def _against_truth(where: str, deal: int, played: list[tuple[str, str]], seat_of: dict[str, int],
                   declarer: str | None, lines: list[str], known: Knowledge) -> list[str]:
    """With the stored deal: each played card was dealt to the seat shown playing it (the declarer may also
    play the skat), and an open hand holds only the declarer's cards."""
    if deal not in known.truth:
        return []
    hands, skat = known.truth[deal]
    problems = []
    for name, card in played:
        seat = seat_of.get(name)
        if seat is None:
            problems.append(f"{where}: {name} plays {card} but sits at no seat of deal {deal}")
        elif card not in hands[seat] and not (name == declarer and card in skat):
            problems.append(f"{where}: {card} shown as played by {name}, who was not dealt it (deal {deal})")
    for line in lines:
        opened = _match(OPEN_HAND, line)
        if opened and opened["name"] in seat_of:
            cards = set(CARD.findall(line))
            if not cards <= hands[seat_of[opened["name"]]] | skat:
                problems.append(f"{where}: an open hand shows cards its owner was not dealt: {line!r}")
    return problems


def assert_no_public_leaks(fake: FakeDiscord, users: Iterable[User], *, min_deals: int = 1,
                           database: str | Path | None = None) -> Knowledge:
    """The reusable assertion: fail listing every public appearance of a hidden card.

    Also insists that the private hand messages of at least `min_deals` deals were seen, so that
    the check cannot pass vacuously because it learned nothing.
    """
    users = list(users)
    problems = public_leaks(fake, users, database=database)
    assert not problems, "hidden cards in public:\n" + "\n".join(problems[:20])
    known = learn(fake, users)
    deals = {deal for deal, _ in known.dealt}
    assert len(deals) >= min_deals, f"the checker saw the hands of only {len(deals)} deals"
    return known


class WriteClock:
    """Stamps each REST call the bot makes with the time the test saw it (the fake records no times), so a
    scenario can check how fast the bot writes to one channel (Discord's limits are per channel)."""

    def __init__(self, fake: FakeDiscord) -> None:
        import asyncio

        self.fake = fake
        self.stamps: list[float] = []
        self._task = asyncio.get_running_loop().create_task(self._watch())

    async def _watch(self) -> None:
        import asyncio

        loop = asyncio.get_running_loop()
        while True:
            log = self.fake.rest_log
            now = loop.time()
            self.stamps.extend([now] * (len(log) - len(self.stamps)))
            await self.fake.world.signal.wait(0.05)

    def stop(self) -> None:
        self._task.cancel()

    def writes(self, channel_id: int) -> list[tuple[float, str, str]]:
        """(time, method, message id or "") of every message write (send, edit, delete) to one channel."""
        prefix = f"/api/v10/channels/{channel_id}/messages"
        return sorted((at, call.method, call.path[len(prefix) + 1:])
                      for at, call in zip(self.stamps, self.fake.rest_log, strict=False)
                      if call.method in ("POST", "PATCH", "DELETE") and call.path.startswith(prefix))

    def busiest(self, channel_id: int, window: float = 5.0, *, edits_of_one: bool = False) -> int:
        """The most message writes to one channel (or, `edits_of_one`, edits of one message) in `window` s."""
        groups: dict[str, list[float]] = {}
        for at, method, target in self.writes(channel_id):
            if edits_of_one and method != "PATCH":
                continue
            groups.setdefault(target if edits_of_one else "", []).append(at)
        best = 0
        for times in groups.values():
            start = 0
            for end, at in enumerate(times):
                while at - times[start] > window:
                    start += 1
                best = max(best, end - start + 1)
        return best


def dealt_from_database(database: str | Path, table_id: int = 1) -> dict[int, tuple[list[set[str]], set[str]]]:
    """deal number (1-based) -> (the three dealt hands by seat, the skat), in display form, from the table
    log's `deal N SEED` entries (the tables layer deals from the seed)."""
    with sqlite3.connect(database) as db:
        rows = db.execute("SELECT entry FROM table_log WHERE table_id = ? AND entry LIKE 'deal %' ORDER BY seq",
                          (table_id,)).fetchall()
    return dealt_from_entries([text for (text,) in rows])


def dealt_from_entries(entries: list[str]) -> dict[int, tuple[list[set[str]], set[str]]]:
    """The same from a table's `deal N SEED` log entries, wherever they were read."""
    from skatbot.engine import Deal
    from skatbot.tables.log import NewDeal, parse_entry

    out = {}
    for text in entries:
        entry = parse_entry(text)
        assert isinstance(entry, NewDeal), text
        deal = Deal.new(entry.seed)
        hands = [{card.display for card in hand} for hand in deal.dealt_hands]
        out[entry.number + 1] = (hands, {card.display for card in deal.dealt_skat})
    return out


HAND_PICTURE = re.compile(r"hand-(\d+)\.png")


def _hand_pictures_match(fake: FakeDiscord, user: User,
                         dealt: dict[int, tuple[list[set[str]], set[str]]]) -> int:
    """Each hand picture in a user's DMs shows cards of their own seat only (and the skat they picked up)."""
    seats: dict[int, int] = {}
    for message in private_messages(fake, user):
        for version in message.history:
            lines = version.content.splitlines()
            title = _match(HAND_TITLE, lines[0]) if lines else None
            if title is not None:
                seats[int(title["number"])] = SEATS[title["seat"]]
    checked = 0
    for message in private_messages(fake, user):
        for version in message.history:
            for attachment in version.attachments:
                named = HAND_PICTURE.fullmatch(attachment.filename)
                if named is None:
                    continue
                deal = int(named.group(1))
                hands, skat = dealt[deal]
                shown = set(picture_cards(attachment) or ())
                assert shown, f"{user.name}'s hand picture {attachment.filename} says no cards"
                assert shown <= hands[seats[deal]] | skat, (user.name, sorted(shown), hands[seats[deal]])
                checked += 1
    return checked


def assert_hands_match_database(fake: FakeDiscord, users: Iterable[User], database: str | Path,
                                table_id: int = 1) -> int:
    """Each private hand message shows its reader exactly the hand the stored deal gave their seat (plus the
    skat only after they picked it up): nobody is ever shown someone else's cards. Returns messages checked."""
    dealt = dealt_from_database(database, table_id)
    checked = 0
    for user in users:
        checked += _hand_pictures_match(fake, user, dealt)
        for message in private_messages(fake, user):
            for version in message.history:
                lines = version.content.splitlines()
                title = _match(HAND_TITLE, lines[0]) if lines else None
                if title is None or len(lines) < 2:
                    continue
                hands, skat = dealt[int(title["number"])]
                seat = SEATS[title["seat"]]
                shown = set(CARD.findall(lines[1]))
                assert shown <= hands[seat] | skat, (user.name, version.content, hands[seat])
                if len(shown) == 10 and not shown <= hands[seat]:
                    assert len(shown - hands[seat]) <= 2 and (shown - hands[seat]) <= skat
                assert not shown & set().union(*(hands[s] for s in range(3) if s != seat)), \
                    f"{user.name} was shown another seat's cards: {version.content!r}"
                checked += 1
    assert checked, "no hand message was checked"
    return checked
