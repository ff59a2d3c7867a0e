"""Custom emojis on components must exist: Discord refuses unknown ones with 50035 Invalid emoji."""

from __future__ import annotations

from typing import Any

from .world import World


def check_component_emojis(world: World, components: list[dict[str, Any]]) -> dict[str, Any]:
    """Discord refuses a button or menu option whose custom emoji does not exist (50035, Invalid emoji)."""
    tree: dict[str, Any] = {}

    def walk(items: list[dict[str, Any]], node: dict[str, Any]) -> None:
        for index, item in enumerate(items):
            here: dict[str, Any] = {}
            emojis = [("emoji", item.get("emoji"))] + [(f"options.{k}.emoji", option.get("emoji"))
                                                        for k, option in enumerate(item.get("options") or [])]
            for where, emoji in emojis:
                if emoji and emoji.get("id") and int(emoji["id"]) not in world.application_emojis:
                    here[where] = {"_errors": [{"code": "COMPONENT_INVALID_EMOJI", "message": "Invalid emoji"}]}
            walk(item.get("components") or [], here.setdefault("components", {}))
            if not here["components"]:
                del here["components"]
            if here:
                node[str(index)] = here

    walk(components, tree.setdefault("components", {}))
    return tree if tree["components"] else {}
