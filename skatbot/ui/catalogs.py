"""The gettext catalogs on disk (skatbot/locale/<code>/LC_MESSAGES/skatbot.po): reading, writing in one
canonical form, and the checks CI runs (tests/ui/test_catalogs.py) and scripts/catalog.py prints.

Msgids are keys (`board.title`); the English catalog holds the source text. Templates use str.format
fields (`{name}`); plural entries get the count as `{n}`.
"""

from __future__ import annotations

import ast
import io
import re
import string
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import IO

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from .languages import CODES, SOURCE, Lang

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
DOMAIN = "skatbot"
_FIXED_DATE = datetime(2026, 1, 1, tzinfo=UTC)
"""Header dates stay fixed, so rewriting a catalog changes only the entries that changed."""


def po_path(code: Lang) -> Path:
    return LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"


def read_catalog(code: Lang) -> Catalog:
    with po_path(code).open("rb") as handle:
        return read_po(handle, locale=code, domain=DOMAIN)


UNIT_SPACE: dict[str, tuple[str, str]] = {
    "en": ("\u00a0", "\u00a0"),
    "de": ("\u202f", "\u202f"),
    "da": ("\u00a0", "\u00a0"),
    "fr": ("\u202f", "\u00a0"),
}
"""The no-break space each language sets between a number and % (first) and between a number and a unit's
symbol such as `s` (second): German the narrow one (Duden: a small space, kept together), Danish and English the
plain no-break space, French the narrow one before % (as before ; ! ?) and the plain no-break one before a unit.
After `n°` every language sets the plain no-break space."""

_PERCENT = re.compile(r"(?<=[\d}])[ \u00a0\u202f]%")
_UNIT = re.compile(r"(?<=[\d}])[ \u00a0\u202f](s|min|ms)(?=[\s,.;:)]|$)")
_NUMERO = re.compile(r"\bn°[ \u00a0\u202f]?(?=[\d{])")
_TIMES = re.compile(r"(?<=\S) ×[ \u00a0](?=[\d{−-])")


def bind_numbers(code: Lang, text: str) -> str:
    """A number (or a `{field}` that holds one) and its % or unit symbol kept on one line: the language's
    no-break space between them (UNIT_SPACE), after `n°`, and between × and the factor after it (a line may
    break before "× 2", never inside it). Discord breaks lines at plain spaces only, so "50" never ends a line
    with "%" on the next, nor "Kontra ×" with "2"."""
    percent, unit = UNIT_SPACE.get(code, ("\u00a0", "\u00a0"))
    text = _PERCENT.sub(percent + "%", text)
    text = _UNIT.sub(lambda match: unit + match.group(1), text)
    text = _TIMES.sub(" ×\u00a0", text)
    return _NUMERO.sub("n°\u00a0", text)


def typeset(code: Lang, text: str) -> str:
    """Every language: a number and its % or unit symbol held together (`bind_numbers`). French typography
    besides: a no-break space before `:`, a narrow one before `; ! ?` (also where a no-break space stood) and
    inside « », so Discord never breaks a line before the sign (nor before `:**`); and the typographic
    apostrophe. Text in `backticks` (commands to type) stays as it is."""
    parts = text.split("`")
    for index in range(0, len(parts), 2):
        part = bind_numbers(code, parts[index])
        if code == "fr":
            part = re.sub(r"(?<=\S) :(?=\s|$|\*)", "\u00a0:", part)
            part = re.sub(r"(?<=\S)[ \u00a0]([;!?])(?=\s|$|['’)*])", "\u202f\\1", part)
            part = part.replace("« ", "«\u00a0").replace(" »", "\u00a0»")
            part = re.sub(r"(?<=\w)'(?=\w)", "’", part)
        parts[index] = part
    return "`".join(parts)


def write_catalog(code: Lang, catalog: Catalog) -> None:
    """Write a catalog the way every catalog is written: sorted by key (two new entries rarely meet in a
    merge), no wrapping, no dates that move; texts typeset (`typeset`), the words a player may type at
    the terminal table (`cli.words.*`) aside."""
    for message in catalog:
        if message.id and not key_of(message).startswith("cli.words."):
            if isinstance(message.string, (tuple, list)):
                message.string = tuple(typeset(code, form) for form in message.string)
            elif message.string:
                message.string = typeset(code, message.string)
    catalog.project, catalog.version = "skatbot", "1"
    catalog.header_comment = (f"# skatbot's texts: {catalog.locale.english_name if catalog.locale else code}.\n"
                              "# Msgids are keys; the English catalog (en) holds the source text.\n"
                              "# How to add a text or a language: README.md, section Languages.")
    catalog.msgid_bugs_address = ""
    catalog.last_translator = catalog.language_team = "skatbot"
    catalog.creation_date = catalog.revision_date = _FIXED_DATE
    catalog.fuzzy = False
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=0, omit_header=False, include_lineno=False, sort_output=True)
    path = po_path(code)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(buffer.getvalue())


def mo_bytes(catalog: Catalog) -> bytes:
    """The compiled catalog, built in memory at start: a fresh clone needs no build step."""
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    return buffer.getvalue()


def key_of(message: Message) -> str:
    return message.id if isinstance(message.id, str) else message.id[0]


def texts(message: Message) -> tuple[str, ...]:
    string = message.string
    if isinstance(string, (tuple, list)):
        return tuple(string)
    return ("" if string is None else string,)


def fields(text: str) -> set[str]:
    """The str.format fields of a template (`{name}`, `{value!r}` -> name, value)."""
    return {re.split(r"[!:.\[]", name)[0] for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def entries(catalog: Catalog) -> dict[str, Message]:
    return {key_of(message): message for message in catalog if message.id}


def problems(catalogs: dict[str, Catalog] | None = None) -> list[str]:
    """Everything a translator still has to do, one line each: missing, empty or fuzzy entries, fields
    that differ from the English source, entries English lacks, plural entries that are not plural."""
    catalogs = catalogs or {code: read_catalog(code) for code in CODES}
    source = entries(catalogs[SOURCE])
    found: list[str] = []
    for code, catalog in catalogs.items():
        own = entries(catalog)
        for key, message in source.items():
            theirs = own.get(key)
            if theirs is None:
                found.append(f"{code}: missing {key}")
                continue
            if theirs.fuzzy:
                found.append(f"{code}: fuzzy {key}")
            if message.pluralizable != theirs.pluralizable:
                found.append(f"{code}: {key} must {'' if message.pluralizable else 'not '}have plural forms")
                continue
            wanted = set().union(*(fields(text) for text in texts(message)))
            for index, text in enumerate(texts(theirs)):
                if not text.strip():
                    found.append(f"{code}: empty {key}" + (f" [{index}]" if theirs.pluralizable else ""))
                elif fields(text) - {"n"} != wanted - {"n"}:
                    found.append(f"{code}: {key} has fields {sorted(fields(text))}, English {sorted(wanted)}")
            if theirs.pluralizable and len(texts(theirs)) != catalog.num_plurals:
                found.append(f"{code}: {key} has {len(texts(theirs))} plural forms, not {catalog.num_plurals}")
        for key in own.keys() - source.keys():
            found.append(f"{code}: {key} is not in the English catalog")
    return found


KEYWORDS = {"t": 1, "tn": 1, "N_": 0}
"""The calls that name catalog keys, and the position of the key among their arguments."""


def _literal_keys(node: ast.expr) -> list[str]:
    """The keys a key argument can be: a string, or either side of `"a" if x else "b"`."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _literal_keys(node.body) + _literal_keys(node.orelse)
    return []


def extract_keys(fileobj: IO[bytes], keywords: object, comment_tags: object,
                 options: object) -> Iterator[tuple[int, str, str, list[str]]]:
    """A pybabel extraction method (babel.cfg): the literal keys of t(), tn() and N_() calls.

    Babel's own Python extractor glues the two sides of a conditional key into one string."""
    tree = ast.parse(fileobj.read())
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else (
            node.func.attr if isinstance(node.func, ast.Attribute) else None)
        position = KEYWORDS.get(name or "")
        if position is None or len(node.args) <= position:
            continue
        for key in _literal_keys(node.args[position]):
            yield node.lineno, str(name), key, []


def keys_in_code(folders: tuple[str, ...] = ("skatbot", "cogs")) -> dict[str, list[str]]:
    """Every literal key the code names, with where: what `pybabel extract -F babel.cfg` finds."""
    found: dict[str, list[str]] = {}
    root = LOCALE_DIR.parent.parent
    for folder in folders:
        for filename, lineno, key, _, _ in extract_from_dir(root / folder, method_map=[("**.py", f"{__name__}:extract_keys")],
                                                                keywords=dict.fromkeys(KEYWORDS)):
            found.setdefault(key if isinstance(key, str) else key[0], []).append(f"{folder}/{filename}:{lineno}")
    return found
