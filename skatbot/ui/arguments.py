"""Command lines in the reader's language: argparse's own texts from the catalogs.

argparse writes its usage line, its group titles and its errors ("the following arguments are required",
"invalid choice", "usage:") through the `_` and `ngettext` of its own module, which read gettext's default
domain, where no catalog of ours is. `LocalizedParser` puts a lookup in the skatbot catalogs in their place
while it builds, parses, formats or fails (`speaking`), so `python -m skatbot.play` and
`python -m skatbot.storage` say them in the chosen language (`cli.argparse.*`, `cli.args.usage`,
`cli.error.prefix`). A text argparse has that the catalogs lack stays English.

The swap is module-wide for as long as the parser works: these parsers run in command-line programs, one
thread, before anything else starts.
"""

from __future__ import annotations

import argparse
import functools
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, NoReturn

from .i18n import N_, t, template, translations
from .languages import CODES, SOURCE, Lang

KEYS: dict[str, tuple[str, str]] = {
    "usage: ": (N_("cli.args.usage"), ""),
    "options": (N_("cli.args.options"), ""),
    "show this help message and exit": (N_("cli.args.help"), ""),
    "positional arguments": (N_("cli.argparse.positional"), ""),
    "argument %(argument_name)s: %(message)s": (N_("cli.argparse.argument"), ""),
    "the following arguments are required: %s": (N_("cli.argparse.required"), "arguments"),
    "one of the arguments %s is required": (N_("cli.argparse.one_required"), "arguments"),
    "invalid choice: %(value)r (choose from %(choices)s)": (N_("cli.argparse.invalid_choice"), ""),
    "invalid %(type)s value: %(value)r": (N_("cli.argparse.invalid_value"), ""),
    "unrecognized arguments: %s": (N_("cli.argparse.unrecognized"), "arguments"),
    "ambiguous option: %(option)s could match %(matches)s": (N_("cli.argparse.ambiguous"), ""),
    "expected one argument": (N_("cli.argparse.expected_one"), ""),
    "expected at most one argument": (N_("cli.argparse.expected_at_most_one"), ""),
    "expected at least one argument": (N_("cli.argparse.expected_at_least_one"), ""),
    "ignored explicit argument %r": (N_("cli.argparse.ignored_explicit"), "argument"),
    "not allowed with argument %s": (N_("cli.argparse.not_allowed_with"), "argument"),
    "unknown parser %(parser_name)r (choices: %(choices)s)": (N_("cli.argparse.unknown_parser"), ""),
}
"""argparse's msgid (Python 3.11) -> the catalog key that says it, and the field its one `%s`/`%r` becomes
(the catalogs write `{field}`; named ones keep argparse's name: `%(value)r` is `{value}`)."""

PLURAL_KEYS: dict[tuple[str, str], str] = {
    ("expected %s argument", "expected %s arguments"): N_("cli.argparse.expected_n"),
}
"""argparse's ngettext pairs -> the plural entry (its count is `{n}`)."""

_SPEC = re.compile(r"%(?:\((\w+)\))?[sr]")


def percent_template(msgid: str, text: str, field: str) -> str:
    """A catalog text made into the %-template argparse formats: `{value}` becomes the `%(value)r` of
    `msgid`, `{field}` its positional `%s`, and a literal % is doubled."""
    text = text.replace("%", "%%")
    for spec in _SPEC.finditer(msgid):
        text = text.replace("{" + (spec.group(1) or field) + "}", spec.group(0))
    return text


def argparse_text(lang: Lang, msgid: str) -> str:
    """argparse's text `msgid` in `lang`, as a template argparse can fill (English where no entry says it)."""
    found = KEYS.get(msgid)
    if found is None:
        return msgid
    key, field = found
    return percent_template(msgid, template(lang, key), field)


def argparse_plural(lang: Lang, singular: str, plural: str, n: int) -> str:
    key = PLURAL_KEYS.get((singular, plural))
    if key is None:
        return singular if n == 1 else plural
    text = translations(lang).ngettext(key, key, n)
    if text == key:
        text = translations(SOURCE).ngettext(key, key, n)
    return percent_template(singular, text, "n")


@contextmanager
def speaking(lang: Lang) -> Iterator[None]:
    """argparse's own texts in `lang` inside the block (its module's `_` and `ngettext` swapped, then restored)."""
    names = vars(argparse)
    saved = names["_"], names["ngettext"]
    names["_"] = functools.partial(argparse_text, lang)
    names["ngettext"] = functools.partial(argparse_plural, lang)
    try:
        yield
    finally:
        names["_"], names["ngettext"] = saved


class LocalizedParser(argparse.ArgumentParser):
    """An ArgumentParser that speaks `lang`: its usage line, group titles and errors (with `prog: error:`)
    from the catalogs; subcommands' parsers speak it too. The texts given to it (help, description) are the
    caller's."""

    def __init__(self, *args: Any, lang: Lang, **kwargs: Any) -> None:
        self.lang = lang
        with speaking(lang):
            super().__init__(*args, **kwargs)

    def add_subparsers(self, **kwargs: Any) -> Any:
        kwargs.setdefault("parser_class", functools.partial(type(self), lang=self.lang))
        with speaking(self.lang):
            return super().add_subparsers(**kwargs)

    def parse_known_args(self, args: Iterable[str] | None = None,
                         namespace: Any = None) -> tuple[Any, list[str]]:
        with speaking(self.lang):
            return super().parse_known_args(args, namespace)

    def parse_args(self, args: Iterable[str] | None = None, namespace: Any = None) -> Any:
        with speaking(self.lang):
            return super().parse_args(args, namespace)

    def format_usage(self) -> str:
        with speaking(self.lang):
            return super().format_usage()

    def format_help(self) -> str:
        with speaking(self.lang):
            return super().format_help()

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, t(self.lang, "cli.error.prefix", prog=self.prog, message=message) + "\n")


def integer(lang: Lang) -> Callable[[str], int]:
    """An option's `type=` for a whole number whose name argparse shows in its refusal ("invalid integer
    value: 'x'", "ungültiger Wert (ganze Zahl): 'x'"), rather than Python's `int`."""

    def whole_number(text: str) -> int:
        return int(text)

    whole_number.__name__ = t(lang, "cli.argparse.integer")
    return whole_number


def environment_language(environ: Mapping[str, str]) -> Lang:
    """The language the environment asks for (the first set of LANGUAGE, LC_ALL, LC_MESSAGES and LANG, as
    gettext reads them: `de_DE.UTF-8`, `fr:en`), if the catalogs speak it; else English."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if value:
            for part in value.split(":"):
                code = part.split(".")[0].split("@")[0].split("_")[0].casefold()
                if code in CODES:
                    return Lang(code)
            return SOURCE
    return SOURCE

