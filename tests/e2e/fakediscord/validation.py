"""Discord's message and command limits, answered the way Discord answers: 400 with code 50035.

Each check returns a nested error tree ({"content": {"_errors": [...]}}); an empty tree means valid.
"""

from __future__ import annotations

import re
from typing import Any

from .state import COMPONENTS_V2

ErrorTree = dict[str, Any]

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_TITLE = 256
MAX_DESCRIPTION = 4096
MAX_FIELDS = 25
MAX_FIELD_NAME = 256
MAX_FIELD_VALUE = 1024
MAX_FOOTER = 2048
MAX_AUTHOR = 256
MAX_ROWS = 5
MAX_BUTTONS_PER_ROW = 5
MAX_SELECT_OPTIONS = 25
MAX_CUSTOM_ID = 100
MAX_LABEL = 80
MAX_V2_COMPONENTS = 40
MAX_V2_TEXT = 4000
MAX_CHOICES = 25
COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")


def _err(tree: ErrorTree, path: list[Any], code: str, message: str) -> None:
    node = tree
    for key in path:
        node = node.setdefault(str(key), {})
    node.setdefault("_errors", []).append({"code": code, "message": message})


def _max_len(tree: ErrorTree, path: list[Any], value: Any, limit: int) -> None:
    if isinstance(value, str) and len(value) > limit:
        _err(tree, path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def form_error(tree: ErrorTree) -> dict[str, Any]:
    """The JSON body of Discord's 400 Invalid Form Body."""
    return {"code": 50035, "errors": tree, "message": "Invalid Form Body"}


def check_message(payload: dict[str, Any]) -> ErrorTree:
    """Content, embed and component limits."""
    tree: ErrorTree = {}
    content = payload.get("content")
    if content is not None and not isinstance(content, str):
        _err(tree, ["content"], "BASE_TYPE_STRING", "Must be a string.")
    _max_len(tree, ["content"], content, MAX_CONTENT)
    embeds = payload.get("embeds") or []
    if len(embeds) > MAX_EMBEDS:
        _err(tree, ["embeds"], "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_EMBEDS} or fewer in length.")
    total = 0
    for i, embed in enumerate(embeds):
        total += _check_embed(tree, ["embeds", i], embed)
    if total > MAX_EMBED_TOTAL:
        _err(tree, ["embeds"], "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000")
    flags = int(payload.get("flags") or 0)
    v2 = bool(flags & COMPONENTS_V2)
    components = payload.get("components") or []
    check_components(tree, components, v2=v2)
    if v2:
        if content or embeds:
            code = "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"
            _err(tree, ["content" if content else "embeds"], code,
                 "The 'content' and 'embeds' fields cannot be used when using MessageFlags.IS_COMPONENTS_V2")
        if _text_length(components) > MAX_V2_TEXT:
            _err(tree, ["components"], "BASE_TYPE_MAX_LENGTH",
                 f"Text displays must hold {MAX_V2_TEXT} or fewer characters in total.")
    return tree


def _text_length(components: list[dict[str, Any]]) -> int:
    """Characters in all text displays (type 10) of a components v2 message."""
    total = 0
    for comp in components:
        if comp.get("type") == 10:
            total += len(comp.get("content") or "")
        total += _text_length(comp.get("components") or [])
        if "accessory" in comp:
            total += _text_length([comp["accessory"]])
    return total


def is_empty_message(payload: dict[str, Any], files: int) -> bool:
    """A new message needs content, an embed, components, a file, a sticker or a poll (else 50006)."""
    return not (payload.get("content") or payload.get("embeds") or payload.get("components") or files
                or payload.get("sticker_ids") or payload.get("poll"))


def _check_embed(tree: ErrorTree, path: list[Any], embed: dict[str, Any]) -> int:
    """Checks one embed; returns its character count toward the 6000 total."""
    _max_len(tree, path + ["title"], embed.get("title"), MAX_TITLE)
    _max_len(tree, path + ["description"], embed.get("description"), MAX_DESCRIPTION)
    fields = embed.get("fields") or []
    if len(fields) > MAX_FIELDS:
        _err(tree, path + ["fields"], "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_FIELDS} or fewer in length.")
    size = len(embed.get("title") or "") + len(embed.get("description") or "")
    for j, fld in enumerate(fields):
        name, value = fld.get("name") or "", fld.get("value") or ""
        if not name or not value:
            _err(tree, path + ["fields", j], "BASE_TYPE_REQUIRED", "This field is required")
        _max_len(tree, path + ["fields", j, "name"], name, MAX_FIELD_NAME)
        _max_len(tree, path + ["fields", j, "value"], value, MAX_FIELD_VALUE)
        size += len(name) + len(value)
    footer = (embed.get("footer") or {}).get("text") or ""
    _max_len(tree, path + ["footer", "text"], footer, MAX_FOOTER)
    author = (embed.get("author") or {}).get("name") or ""
    _max_len(tree, path + ["author", "name"], author, MAX_AUTHOR)
    return size + len(footer) + len(author)


def check_components(tree: ErrorTree, components: list[dict[str, Any]], *, v2: bool) -> None:
    if v2:
        count = _count(components)
        if count > MAX_V2_COMPONENTS:
            _err(tree, ["components"], "BASE_TYPE_MAX_LENGTH",
                 f"Must be {MAX_V2_COMPONENTS} or fewer in length.")
    elif len(components) > MAX_ROWS:
        _err(tree, ["components"], "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_ROWS} or fewer in length.")
    seen: set[str] = set()
    for i, comp in enumerate(components):
        if not v2 and comp.get("type") != 1:
            _err(tree, ["components", i], "UNION_TYPE_CHOICES", "Top-level components must be action rows")
        _check_component(tree, ["components", i], comp, seen)


def _count(components: list[dict[str, Any]]) -> int:
    return sum(1 + _count(c.get("components") or []) + (1 if "accessory" in c else 0) for c in components)


def _check_component(tree: ErrorTree, path: list[Any], comp: dict[str, Any], seen: set[str]) -> None:
    kind = comp.get("type")
    children = comp.get("components") or []
    if kind == 1:
        buttons = [c for c in children if c.get("type") == 2]
        selects = [c for c in children if c.get("type") in (3, 5, 6, 7, 8)]
        if len(buttons) > MAX_BUTTONS_PER_ROW:
            _err(tree, path + ["components"], "BASE_TYPE_MAX_LENGTH",
                 f"Must be {MAX_BUTTONS_PER_ROW} or fewer in length.")
        if selects and len(children) > 1:
            _err(tree, path + ["components"], "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                 "The specified component exceeds the maximum width")
        if not children:
            _err(tree, path + ["components"], "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length.")
    custom_id = comp.get("custom_id")
    if custom_id is not None:
        _max_len(tree, path + ["custom_id"], custom_id, MAX_CUSTOM_ID)
        if custom_id in seen:
            _err(tree, path + ["custom_id"], "COMPONENT_CUSTOM_ID_DUPLICATED",
                 "Component custom id cannot be duplicated")
        seen.add(custom_id)
    if kind == 2:
        _max_len(tree, path + ["label"], comp.get("label"), MAX_LABEL)
        is_link = comp.get("style") == 5
        if is_link and not comp.get("url"):
            _err(tree, path + ["url"], "BASE_TYPE_REQUIRED", "This field is required")
        if not is_link and comp.get("style") != 6 and not custom_id:
            _err(tree, path + ["custom_id"], "BASE_TYPE_REQUIRED", "This field is required")
        if not comp.get("label") and not comp.get("emoji") and comp.get("style") != 6:
            _err(tree, path, "BUTTON_COMPONENT_INVALID", "A button must have a label or an emoji")
    if kind == 3:
        options = comp.get("options") or []
        if not 1 <= len(options) <= MAX_SELECT_OPTIONS:
            _err(tree, path + ["options"], "BASE_TYPE_BAD_LENGTH",
                 f"Must be between 1 and {MAX_SELECT_OPTIONS} in length.")
        values = [o.get("value") for o in options]
        if len(set(values)) != len(values):
            _err(tree, path + ["options"], "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                 "Select option values must be unique")
        for k, option in enumerate(options):
            _max_len(tree, path + ["options", k, "label"], option.get("label"), 100)
            _max_len(tree, path + ["options", k, "value"], option.get("value"), 100)
        low, high = int(comp.get("min_values", 1)), int(comp.get("max_values", 1))
        if high > max(len(options), 1) or low > len(options):
            _err(tree, path + ["max_values"], "BASE_TYPE_MAX", "Must be at most the number of options")
    if kind in (3, 5, 6, 7, 8):
        _max_len(tree, path + ["placeholder"], comp.get("placeholder"), 150)
    for j, child in enumerate(children):
        _check_component(tree, path + ["components", j], child, seen)
    if "accessory" in comp:
        _check_component(tree, path + ["accessory"], comp["accessory"], seen)


def check_choices(choices: list[dict[str, Any]]) -> ErrorTree:
    """Autocomplete results: at most 25, names 1..100 characters, string values at most 100."""
    tree: ErrorTree = {}
    if len(choices) > MAX_CHOICES:
        _err(tree, ["data", "choices"], "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_CHOICES} or fewer in length.")
    for i, choice in enumerate(choices):
        name = choice.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            _err(tree, ["data", "choices", i, "name"], "BASE_TYPE_BAD_LENGTH",
                 "Must be between 1 and 100 in length.")
        _max_len(tree, ["data", "choices", i, "value"], choice.get("value"), 100)
    return tree


def check_commands(commands: list[dict[str, Any]]) -> ErrorTree:
    """Application command definitions as synced by CommandTree.sync()."""
    tree: ErrorTree = {}
    if len(commands) > 100:
        _err(tree, [], "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
    for i, command in enumerate(commands):
        _check_command(tree, [i], command, is_chat_input=command.get("type", 1) == 1)
    return tree


def _check_command(tree: ErrorTree, path: list[Any], command: dict[str, Any], *, is_chat_input: bool) -> None:
    name = command.get("name") or ""
    if is_chat_input and (not COMMAND_NAME.match(name) or name != name.lower()):
        _err(tree, path + ["name"], "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
    description: str | None = command.get("description")
    if is_chat_input and (not description or len(description) > 100):
        _err(tree, path + ["description"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
    options = command.get("options") or []
    if len(options) > 25:
        _err(tree, path + ["options"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    for j, option in enumerate(options):
        choices = option.get("choices") or []
        if len(choices) > 25:
            _err(tree, path + ["options", j, "choices"], "BASE_TYPE_MAX_LENGTH",
                 "Must be 25 or fewer in length.")
        if choices and option.get("autocomplete"):
            code = "APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_CHOICES"
            _err(tree, path + ["options", j, "autocomplete"], code,
                 "Autocomplete cannot be used with choices")
        _check_command(tree, path + ["options", j], option, is_chat_input=True)
