"""Look after the gettext catalogs (skatbot/locale/<code>/LC_MESSAGES/skatbot.po).

    python scripts/catalog.py check          what each language still lacks (missing, empty, fuzzy,
                                             fields unlike English); exit 1 if anything
    python scripts/catalog.py sync           add every English key the other catalogs lack (empty, for a
                                             translator to fill), refresh their "English:" comments,
                                             rewrite all catalogs in the one canonical form
    python scripts/catalog.py extract        what `pybabel extract -F babel.cfg` finds (the literal keys of
                                             t()/tn()/N_() calls) that the English catalog lacks
    python scripts/catalog.py set CODE KEY TEXT [TEXT...]
                                             add or change one entry (several TEXTs: the plural forms)
    python scripts/catalog.py import-dict CODE FILE.py NAME
                                             add the entries of a dict catalog (a module from before the
                                             .po catalogs, e.g. `git show OLD:skatbot/ui/catalog_de.py`)
                                             that CODE's catalog lacks

Run from the project folder with .venv/bin/python. New texts go into the English catalog first
(msgid = key, msgstr = English), then into every other language's catalog.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from babel.messages.catalog import Message  # noqa: E402

from skatbot.ui.catalogs import (  # noqa: E402
    entries,
    keys_in_code,
    problems,
    read_catalog,
    texts,
    write_catalog,
)
from skatbot.ui.languages import CODES, SOURCE, Lang  # noqa: E402


def check() -> int:
    found = problems()
    print("\n".join(found) if found else f"All catalogs complete: {', '.join(CODES)}.")
    return 1 if found else 0


def english_comment(message: Message) -> list[str]:
    lines = [text for text in texts(message)]
    return [f"English: {line}" for text in lines for line in text.splitlines() or [""]]


def sync() -> int:
    source = read_catalog(SOURCE)
    write_catalog(SOURCE, source)
    for code in CODES:
        if code == SOURCE:
            continue
        catalog = read_catalog(code)
        own = entries(catalog)
        for key, message in entries(source).items():
            theirs = own.get(key)
            if theirs is None:
                blank = ("",) * catalog.num_plurals if message.pluralizable else ""
                catalog.add(message.id, blank)
                theirs = catalog[key]
                print(f"{code}: added {key} (empty: translate it)")
            theirs.auto_comments = english_comment(message)
        write_catalog(code, catalog)
    return check()


def extract() -> int:
    used = keys_in_code()
    missing = sorted(used.keys() - entries(read_catalog(SOURCE)).keys())
    for key in missing:
        print(f"{SOURCE}: {', '.join(used[key])} names {key}; the catalog lacks it")
    print(f"{len(used)} literal keys in the code, {len(missing)} missing from the English catalog.")
    return 1 if missing else 0


def set_entry(code: Lang, key: str, *forms: str) -> int:
    catalog = read_catalog(code)
    message = entries(catalog).get(key)
    if message is not None and message.pluralizable == (len(forms) > 1):
        message.string = tuple(forms) if len(forms) > 1 else forms[0]  # changed where it stands
    else:
        if message is not None:
            catalog.delete(key)
        catalog.add((key, key) if len(forms) > 1 else key, tuple(forms) if len(forms) > 1 else forms[0])
    write_catalog(code, catalog)
    return 0


def import_dict(code: Lang, file: str, name: str) -> int:
    tree = ast.parse(Path(file).read_text(encoding="utf-8"))
    found: dict[str, str] | None = None
    for node in ast.walk(tree):
        target = node.target if isinstance(node, ast.AnnAssign) else (
            node.targets[0] if isinstance(node, ast.Assign) else None)
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(target, ast.Name) and target.id == name \
                and node.value is not None:
            found = ast.literal_eval(node.value)
    if found is None:
        print(f"no dict {name} in {file}")
        return 1
    catalog = read_catalog(code)
    own = entries(catalog)
    for key, text in found.items():
        if key not in own:
            catalog.add(key, text)
            print(f"{code}: added {key}")
    write_catalog(code, catalog)
    return 0


def main(argv: list[str]) -> int:
    if argv[:1] == ["check"]:
        return check()
    if argv[:1] == ["sync"]:
        return sync()
    if argv[:1] == ["extract"]:
        return extract()
    if argv[:1] in (["set"], ["import-dict"]) and len(argv) >= 2 and argv[1] not in CODES:
        print(f"no catalog {argv[1]!r}: the languages are {', '.join(CODES)}")
        return 2
    if argv[:1] == ["set"] and len(argv) >= 4:
        return set_entry(Lang(argv[1]), *argv[2:])
    if argv[:1] == ["import-dict"] and len(argv) == 4:
        return import_dict(Lang(argv[1]), *argv[2:])
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
