"""argparse's own texts come from the catalogs (skatbot.ui.arguments): each text it names is one this Python's
argparse says, each has its entry in every language with argparse's fields, and the swap is undone."""

from __future__ import annotations

import argparse
import inspect
import re

import pytest

from skatbot.ui.arguments import (
    KEYS,
    PLURAL_KEYS,
    LocalizedParser,
    argparse_plural,
    argparse_text,
    percent_template,
    speaking,
)
from skatbot.ui.languages import CODES, Lang

SOURCE = inspect.getsource(argparse)


def test_every_text_it_translates_is_one_argparse_says() -> None:
    """A Python whose argparse rewords a message would leave it English: this names the one that changed."""
    missing = [msgid for msgid in [*KEYS, *(text for pair in PLURAL_KEYS for text in pair)]
               if f"'{msgid}'" not in SOURCE and f'"{msgid}"' not in SOURCE]
    assert missing == []


@pytest.mark.parametrize("lang", CODES)
def test_each_text_keeps_argparses_fields(lang: Lang) -> None:
    spec = re.compile(r"%(?:\(\w+\))?[sr]")
    for msgid in KEYS:
        said = argparse_text(lang, msgid)
        assert sorted(spec.findall(said)) == sorted(spec.findall(msgid)), (lang, msgid, said)
        assert "{" not in said, (lang, msgid, said)
    for singular, plural in PLURAL_KEYS:
        for n in (1, 2, 5):
            said = argparse_plural(lang, singular, plural, n)
            assert said.count("%s") == 1 and (said % n).count(str(n)) == 1, (lang, said)


def test_a_percent_sign_in_a_text_stays_one() -> None:
    assert percent_template("invalid choice: %(value)r (choose from %(choices)s)",
                            "{value} ist zu 100 % falsch ({choices})", "") % {"value": "x", "choices": "a"} == (
        "'x' ist zu 100 % falsch (a)")


def test_argparse_speaks_english_again_outside_the_parser() -> None:
    names = vars(argparse)
    before = names["_"], names["ngettext"]
    parser = LocalizedParser(prog="p", lang=Lang("de"))
    with pytest.raises(SystemExit):
        parser.parse_args(["--x"])
    with speaking(Lang("fr")):
        assert names["_"]("usage: ") == "utilisation\u00a0: "
    assert (names["_"], names["ngettext"]) == before
    assert argparse.ArgumentParser(prog="p").format_usage() == "usage: p [-h]\n"
