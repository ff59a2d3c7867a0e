"""What a drawn control is, read from its custom_id the way players' scripts look at it: the verb of the move
it makes (`play` as `card`, a menu of bids as `bids`), or the kind of a control that is not a move."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def _parts(control: Mapping[str, Any] | str) -> tuple[list[str], list[str]]:
    if isinstance(control, str):
        return control.split(":"), []
    values = [str(option.get("value", "")) for option in control.get("options", [])]
    return str(control.get("custom_id", "")).split(":"), values


def control_kind(control: Mapping[str, Any] | str) -> str:
    """`card`, `bid`, `bids`, `hold`, `pass`, `pickup`, `discard`, `declare`, `kontra`, `re`, `claim`,
    `concede`, or a kind that is no move (`join`, `show`, `hint`, ...); "" for an id not of a table control."""
    parts, values = _parts(control)
    if len(parts) == 4:  # a move: sk:<table>:s<seq>:<action>
        verb = parts[3].split(" ")[0]
        return {"play": "card"}.get(verb, verb)
    if len(parts) == 5 and parts[3].startswith("menu"):  # a menu: its verb, or its values' verb
        if parts[4]:
            return parts[4]
        verb = values[0].split(" ")[0] if values else ""
        return {"bid": "bids"}.get(verb, verb)
    return parts[3] if len(parts) == 5 else ""


def control_arg(control: Mapping[str, Any] | str) -> str:
    """What a move button's action names after its verb (the card `CJ`, the bid `18`), or a kind's argument."""
    parts, _ = _parts(control)
    if len(parts) == 4:
        return parts[3].partition(" ")[2]
    return parts[4] if len(parts) == 5 else ""
