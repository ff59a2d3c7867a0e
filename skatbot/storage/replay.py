"""Rebuild deals from a table log: the pure half of restore (no I/O, no clock).

A log holds, per deal, one `deal` entry (the cards as dealt, the seed, and whatever seating the tables
layer adds) followed by `action` entries (`str(action)` and the acting seat, None for the table's own
time-outs). Replaying them through the engine gives back the exact Deal, so the log is the truth and the
in-memory state is derived.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from skatbot.engine import Card, Deal, RuleSet, parse_action
from skatbot.engine.actions import Action

from .models import LogEntry, LogKind


class ReplayError(ValueError):
    """The log does not replay: a malformed entry or an action the engine refuses (named with its seq)."""


def rules_of(stored: Mapping[str, Any]) -> RuleSet:
    """The engine's rule set from its stored dict form."""
    return RuleSet.from_dict(dict(stored))


def deal_payload(deal: Deal, **extra: Any) -> str:
    """The payload of a `deal` entry: the dealt cards and seed, plus the table's own fields (dealer, seats)."""
    document = {"seed": deal.seed, "hands": [[card.iss for card in hand] for hand in deal.dealt_hands],
                "skat": [card.iss for card in deal.dealt_skat], **extra}
    return json.dumps(document, sort_keys=True)


def deal_info(entry: LogEntry) -> dict[str, Any]:
    """The fields of a `deal` entry (cards, seed, and the table's extras)."""
    if entry.kind is not LogKind.DEAL:
        raise ReplayError(f"log entry {entry.seq} is not a deal entry")
    try:
        data = json.loads(entry.payload)
    except json.JSONDecodeError as error:
        raise ReplayError(f"log entry {entry.seq}: unreadable deal ({error})") from None
    if not isinstance(data, dict):
        raise ReplayError(f"log entry {entry.seq}: a deal entry is a JSON object")
    return data


def start_deal(entry: LogEntry, rules: RuleSet) -> Deal:
    """The fresh Deal a `deal` entry describes."""
    data = deal_info(entry)
    try:
        if "hands" in data:
            hands = [[Card.parse(code) for code in hand] for hand in data["hands"]]
            skat = [Card.parse(code) for code in data["skat"]]
            return Deal(hands, skat, rules, seed=data.get("seed"))
        return Deal.new(int(data["seed"]), rules)
    except (KeyError, TypeError, ValueError) as error:
        raise ReplayError(f"log entry {entry.seq}: bad deal ({error})") from None


def apply_entry(deal: Deal, entry: LogEntry) -> Action:
    """Apply one `action` entry to `deal`; refusals become ReplayError naming the entry."""
    try:
        action = parse_action(entry.payload)
        deal.apply(action, entry.seat)
    except ValueError as error:  # IllegalAction is a ValueError too
        raise ReplayError(f"log entry {entry.seq} ({entry.payload!r} by seat {entry.seat}): {error}") from None
    return action


@dataclass(frozen=True, slots=True)
class ReplayedDeal:
    number: int
    deal: Deal
    info: dict[str, Any]  # the deal entry's fields (seed, cards, dealer, seats ...)


def replay_deals(entries: Iterable[LogEntry], rules: RuleSet) -> list[ReplayedDeal]:
    """Every deal of a log, in order, each replayed as far as the log goes. Events are skipped."""
    out: list[ReplayedDeal] = []
    for entry in entries:
        if entry.kind is LogKind.DEAL:
            if out and entry.deal_number <= out[-1].number:
                raise ReplayError(f"log entry {entry.seq}: deal {entry.deal_number} after deal {out[-1].number}")
            out.append(ReplayedDeal(entry.deal_number, start_deal(entry, rules), deal_info(entry)))
        elif entry.kind is LogKind.ACTION:
            if not out or out[-1].number != entry.deal_number:
                raise ReplayError(f"log entry {entry.seq}: an action of deal {entry.deal_number} with no deal entry")
            apply_entry(out[-1].deal, entry)
    return out


def rebuild_current_deal(entries: Sequence[LogEntry], rules: RuleSet) -> ReplayedDeal | None:
    """The last deal of the log, rebuilt exactly (None before the first deal).

    Only the last deal's entries are replayed, so restore costs one deal whatever the series length.
    """
    start = None
    for index in range(len(entries) - 1, -1, -1):
        if entries[index].kind is LogKind.DEAL:
            start = index
            break
    if start is None:
        return None
    deals = replay_deals(entries[start:], rules)
    return deals[-1]
