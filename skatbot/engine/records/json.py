"""A deal as JSON: the cards dealt, the rules, and every action in order; replay recomputes the rest.

    {"version": 1, "seed": 7, "hands": [["CJ", ...] x3], "skat": ["D7", "S8"],
     "rules": {"all_pass": "throw-in", "kontra": false, ...},
     "actions": [[1, "bid 18"], [0, "hold"], ..., [null, "timeout 2"]]}

Actions use the engine's own text forms (`str(action)` / `parse_action`). Unlike ISS records this
form carries everything a table can do (Kontra, Re, ramsch) and the table's rules.
"""

from __future__ import annotations

import json
from typing import Any

from ..actions import parse_action
from ..cards import Card
from ..deal import Deal, deal_cards
from ..errors import IllegalAction, InvalidRuleSet
from ..rules import RuleSet
from .errors import RecordError
from .iss import ISS_CARDS

VERSION = 1


def rules_to_json(rules: RuleSet) -> dict[str, Any]:
    """Every option of the rule set, in the rules' own stored form."""
    return rules.to_dict()


def rules_from_json(data: object, record_id: str | None = None) -> RuleSet:
    """Read a rule set; options left out keep their official default, unknown ones are refused."""
    if not isinstance(data, dict):
        raise RecordError(record_id, None, "rules must be an object of rule options")
    try:
        return RuleSet.from_dict(data)
    except (InvalidRuleSet, TypeError, ValueError) as error:
        raise RecordError(record_id, None, f"rules: {error}") from None


def deal_to_json(deal: Deal, record_id: str | None = None) -> dict[str, Any]:
    """The deal as a JSON-ready dict (finished or not)."""
    data: dict[str, Any] = {"version": VERSION}
    if record_id is not None:
        data["id"] = record_id
    data["seed"] = deal.seed
    data["hands"] = [[card.iss for card in hand] for hand in deal.dealt_hands]
    data["skat"] = [card.iss for card in deal.dealt_skat]
    data["rules"] = rules_to_json(deal.rules)
    data["actions"] = [[seat, str(action)] for seat, action in deal.history]
    return data


def deal_from_json(data: object) -> Deal:
    """Rebuild a deal by replaying its actions. Without hands, the seed deals the cards."""
    if not isinstance(data, dict):
        raise RecordError(None, None, "a deal record is a JSON object")
    raw_id = data.get("id")
    record_id = None if raw_id is None else str(raw_id)
    if data.get("version") != VERSION:
        raise RecordError(record_id, None, f"unsupported version {data.get('version')!r} (expected {VERSION})")
    seed = data.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise RecordError(record_id, None, "seed must be an integer or null")
    rules = rules_from_json(data.get("rules", {}), record_id)
    if "hands" in data or "skat" in data:
        hands = _cards(data.get("hands"), 3, record_id, "hands")
        skat = _card_list(data.get("skat"), record_id, "skat")
    elif seed is not None:
        dealt, dealt_skat = deal_cards(seed)
        hands, skat = [list(hand) for hand in dealt], list(dealt_skat)
    else:
        raise RecordError(record_id, None, "a deal record needs the hands and skat, or a seed")
    try:
        deal = Deal(hands, skat, rules, seed=seed)
    except ValueError as error:
        raise RecordError(record_id, None, str(error)) from None
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError(record_id, None, "actions must be a list of [seat, action] pairs")
    for entry in actions:
        if (not isinstance(entry, list) or len(entry) != 2 or not isinstance(entry[1], str)
                or not (entry[0] is None or (type(entry[0]) is int and entry[0] in (0, 1, 2)))):
            raise RecordError(record_id, repr(entry), "an action is [seat 0/1/2 or null, text]")
        seat, text = entry
        try:
            deal.apply(parse_action(text), seat)
        except IllegalAction as error:
            raise RecordError(record_id, f"{seat} {text}", f"illegal: {error}") from None
        except ValueError as error:
            raise RecordError(record_id, f"{seat} {text}", str(error)) from None
    return deal


def _cards(raw: object, count: int, record_id: str | None, what: str) -> list[list[Card]]:
    if not isinstance(raw, list) or len(raw) != count:
        raise RecordError(record_id, None, f"{what} must be a list of {count} card lists")
    return [_card_list(item, record_id, what) for item in raw]


def _card_list(raw: object, record_id: str | None, what: str) -> list[Card]:
    if not isinstance(raw, list):
        raise RecordError(record_id, None, f"{what} must list ISS card codes")
    cards = []
    for code in raw:
        card = ISS_CARDS.get(code) if isinstance(code, str) else None
        if card is None:
            raise RecordError(record_id, None, f"{what}: {code!r} is not an ISS card code")
        cards.append(card)
    return cards


def dumps(deal: Deal, record_id: str | None = None) -> str:
    """The deal as one line of JSON."""
    return json.dumps(deal_to_json(deal, record_id), separators=(",", ":"))


def loads(text: str) -> Deal:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordError(None, None, f"not JSON: {error}") from None
    return deal_from_json(data)
