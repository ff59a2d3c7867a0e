"""Each catalog keeps to its own Skat vocabulary: skatbot/locale/<code>/glossary.tsv names, term by term, the
word the language's rules text uses and the variants that must not appear (a German "eingeworfen", a Danish
"skatten", a French "tu"). Every text of the catalog is checked, so a new entry that drifts fails here."""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from skatbot.ui.catalogs import LOCALE_DIR, entries, read_catalog, texts, typeset
from skatbot.ui.languages import CODES, Lang

GLOSSARY_LANGS = ("de", "da", "fr")
SKIPPED = ("cli.words.",)
"""What a player may type at the terminal table: old and English forms are accepted on purpose."""


@dataclass(frozen=True)
class Term:
    term: str
    word: str
    forbidden: re.Pattern[str]
    wrong: str
    note: str


def glossary(lang: str) -> list[Term]:
    path = LOCALE_DIR / lang / "glossary.tsv"
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")]
    rows = list(csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE))
    return [Term(row["term"], row["word"], re.compile(row["forbidden"]), row["wrong"], row["note"]) for row in rows]


def catalog_texts(lang: Lang) -> dict[str, list[str]]:
    return {key: list(texts(message)) for key, message in entries(read_catalog(lang)).items()
            if not key.startswith(SKIPPED)}


def drift(terms: list[Term], found: dict[str, list[str]]) -> list[str]:
    """Every text that uses a forbidden variant: `key: 'match' (term: word)`."""
    return [f"{key}: {hit.group(0)!r} (say {term.word!r} for {term.term}: {term.note})"
            for key, forms in sorted(found.items()) for form in forms for term in terms
            if (hit := term.forbidden.search(form))]


@pytest.mark.parametrize("lang", GLOSSARY_LANGS)
def test_the_catalog_uses_none_of_the_forbidden_variants(lang: Lang) -> None:
    assert drift(glossary(lang), catalog_texts(lang)) == []


@pytest.mark.parametrize("lang", GLOSSARY_LANGS)
def test_each_pattern_catches_its_wrong_example_and_the_word_is_in_use(lang: Lang) -> None:
    """A pattern that matches nothing would let the test above pass on any catalog."""
    terms = glossary(lang)
    assert len(terms) >= 10
    everything = "\n".join(form for forms in catalog_texts(lang).values() for form in forms).casefold()
    everything = everything.replace("\u00a0", " ").replace("\u202f", " ")  # French spaces before : ; ! ?
    for term in terms:
        assert term.forbidden.search(term.wrong), (term.term, term.wrong)
        for part in term.word.split(" / "):
            assert part.casefold() in everything, (term.term, part)


def test_the_old_catalogs_fail() -> None:
    """Texts as the catalogs said them before the review (tests/data/texts_before.tsv) are caught."""
    rows = (Path(__file__).parent.parent / "data" / "texts_before.tsv").read_text(encoding="utf-8").splitlines()
    for row in rows:
        lang, key, text = row.split("\t")
        assert drift(glossary(lang), {key: [text]}), (lang, key, text)


def test_french_is_typeset_when_a_catalog_is_written() -> None:
    """`scripts/catalog.py set` and `sync` write French with its spaces, so a new entry typed with plain
    spaces does not break the line before a colon on Discord; commands in backticks stay as typed."""
    assert typeset(Lang("fr"), "Pas compris : 'x' ; l'IA ? « oui » `/skat settings tables: dans le salon`") == (
        "Pas compris\u00a0: 'x'\u202f; l’IA\u202f? «\u00a0oui\u00a0» `/skat settings tables: dans le salon`")
    assert typeset(Lang("fr"), "{chance} % du temps, 62 %, **Inscrits (3) :**") == (
        "{chance}\u202f% du temps, 62\u202f%, **Inscrits (3)\u00a0:**")
    assert typeset(Lang("de"), "Reizen : 18 ; l'IA") == "Reizen : 18 ; l'IA"


BREAKABLE = re.compile(r"(?<=[\d}]) (?:%|(?:s|min|ms)(?=[\s,.;:)]|$))|\bn° (?=[\d{])|× (?=[\d{−-])")
"""A plain space between a number (or its field) and % or a unit's symbol, after n°, or between × and its
factor: Discord may break the line there, leaving "50" at the end of one line and "%" alone at the start of
the next, or "Kontra ×" above "2"."""


@pytest.mark.parametrize("lang", CODES)
def test_a_number_and_its_sign_stay_on_one_line(lang: Lang) -> None:
    broken = [f"{key}: {form[max(0, hit.start() - 12):hit.end() + 4]!r}" for key, forms in catalog_texts(lang).items()
              for form in forms if (hit := BREAKABLE.search(form))]
    assert broken == []


def test_each_language_holds_a_number_to_its_sign_with_its_own_space() -> None:
    """German the narrow no-break space (Duden), Danish and English the no-break space, French the narrow
    one before % and the no-break one before a unit; all the no-break space after n°. A catalog written through
    scripts/catalog.py gets them, so a translator may type a plain space."""
    said: dict[str, str] = {lang: typeset(lang, "{rate} %, 62 %, {turn} s, n° {id}, `/skat settings turn: 60 s`")
                            for lang in CODES}
    assert said["de"] == "{rate}\u202f%, 62\u202f%, {turn}\u202fs, n°\u00a0{id}, `/skat settings turn: 60 s`"
    assert said["da"] == "{rate}\u00a0%, 62\u00a0%, {turn}\u00a0s, n°\u00a0{id}, `/skat settings turn: 60 s`"
    assert said["en"] == "{rate}\u00a0%, 62\u00a0%, {turn}\u00a0s, n°\u00a0{id}, `/skat settings turn: 60 s`"
    assert said["fr"] == "{rate}\u202f%, 62\u202f%, {turn}\u00a0s, n°\u00a0{id}, `/skat settings turn: 60 s`"
    assert typeset(Lang("fr"), "{name} s'est assis") == "{name} s’est assis"  # a French s' is no second
    assert typeset(Lang("da"), "{n} stik") == "{n} stik"
    assert typeset(Lang("de"), "mit 2, Spiel 3 × 12 = 36; Kontra × 2; verloren × −2; {lost} × verloren") == (
        "mit 2, Spiel 3 ×\u00a012 = 36; Kontra ×\u00a02; verloren ×\u00a0−2; {lost} × verloren")


@pytest.mark.parametrize("lang", CODES)
def test_one_ellipsis_in_every_catalog(lang: Lang) -> None:
    """English included (it has no glossary): the typographic … throughout, never three dots (the bid
    ladder's refusal said '27, ...' in English, Danish and French and '27, …' in German)."""
    dotted = [key for key, forms in catalog_texts(lang).items() for form in forms if "..." in form]
    assert dotted == []
