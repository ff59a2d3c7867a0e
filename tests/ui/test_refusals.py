"""Every refusal a player can meet reaches them in their language and deck.

The engine, the tables, storage and the Discord layer refuse with a key and values; the registries hold
the keys and the names of their values only (a scan of the source finds every raise), the words live in
the catalogs, and each key has its entry in all four with exactly its values filled in.
"""

from __future__ import annotations

import ast
import itertools
import pickle
import string
from pathlib import Path

import pytest

from skatbot.ai import Level
from skatbot.engine import (
    HOLD,
    OFFICIAL,
    PASS,
    Bid,
    Card,
    Contract,
    Declare,
    GameType,
    IllegalAction,
    Kontra,
    Phase,
    RuleSet,
    Seat,
    Suit,
    parse_cards,
)
from skatbot.engine.actions import PLAY, Action
from skatbot.engine.deal import Deal
from skatbot.engine.errors import REASONS, RULE_REASONS, InvalidRuleSet, Refusal
from skatbot.models import ServerSettings, StoreBusy
from skatbot.play import Misread
from skatbot.tables.errors import TABLE_REASONS, TableError, WrongTableState
from skatbot.tables.game import TableGame
from skatbot.tables.log import AddAI, Join, Start
from skatbot.tables.manager import ChannelBusy
from skatbot.tournaments import TournamentError
from skatbot.ui.calculator import ValueInputError
from skatbot.ui.cards import FRENCH, GERMAN
from skatbot.ui.catalogs import entries, key_of, read_catalog, texts
from skatbot.ui.catalogs import fields as text_fields
from skatbot.ui.i18n import CODES, t, template
from skatbot.ui.languages import Lang
from skatbot.ui.leaderboard import PageOutOfRange
from skatbot.ui.refusals import (
    COMMAND_REASONS,
    OWN_REPLIES,
    CommandRefusal,
    ServerError,
    refusal_reply,
    refusal_text,
)
from skatbot.ui.server_settings import SettingsInputError, SettingsRequest, apply_request

ROOT = Path(__file__).resolve().parents[2]
REGISTRIES: dict[type[Refusal], dict[str, tuple[str, ...]]] = {
    IllegalAction: REASONS, TableError: TABLE_REASONS, CommandRefusal: COMMAND_REASONS,
    InvalidRuleSet: RULE_REASONS, StoreBusy: dict(StoreBusy.reasons)}
"""The registries of reasons (said after "Not allowed:", or with a reply of their own in OWN_REPLIES)."""
WHOLE: tuple[type[Refusal], ...] = (ServerError, SettingsInputError, ValueInputError, PageOutOfRange,
                                     TournamentError, Misread)
"""The refusals whose key is a whole reply's catalog entry."""
ALL_KEYS = sorted(key for registry in REGISTRIES.values() for key in registry)

SAMPLES: dict[str, list[object]] = {
    "seat": list(Seat),
    "phase": list(Phase),
    "suit": list(Suit),
    "card": [Card.parse("HT"), Card.parse("C7"), Card.parse("DJ")],
    "contract": [Contract(GameType.NULL), Contract(GameType.NULL, hand=True, ouvert=True)],
    "number": [5],
    "seconds": [8],
    "value": [19, 23],
    "bid": [24],
    "size": [3],
    "seated": [2],
    "table_id": [7],
    "level": ["genius"],
    "text": ["XY"],
    "option": ["kontra_needs_bid"],
    "options": ["fast_play, ramsh"],
    "allowed": ["throw-in, ramsch"],
    "preset": ["casino"],
    "presets": ["official, tournament, pub, pre-1999, danish"],
    "low": [1],
    "high": [96],
}
"""Sample values per placeholder name: every member of an enum, so each one's name is checked."""

STRUCTURED = ("seat", "phase", "suit", "contract")
"""Placeholders the player's language names differently from the engine's English."""


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def refusal_class(key: str) -> type[Refusal]:
    return next(cls for cls, registry in REGISTRIES.items() if key in registry)


def samples(key: str) -> list[Refusal]:
    """The refusal `key` with every combination of sample values."""
    cls = refusal_class(key)
    names = sorted(cls.reasons[key])
    return [cls(key, **dict(zip(names, combo, strict=True)))
            for combo in itertools.product(*(SAMPLES[name] for name in names))]


# --- the registries and the catalogs ------------------------------------------------------------------

def test_the_registries_do_not_share_a_key() -> None:
    assert len(ALL_KEYS) == len(set(ALL_KEYS))
    assert set(OWN_REPLIES) <= set(ALL_KEYS)


def test_every_catalog_reason_is_a_key_some_layer_raises() -> None:
    """No stale text: the catalogs hold the reasons of the registries and nothing more."""
    for code in CODES:
        keys = entries(read_catalog(code))
        assert {key.removeprefix("reason.") for key in keys if key.startswith("reason.")} == set(ALL_KEYS), code


def test_english_lives_only_in_the_catalog() -> None:
    """The registries name keys and values, never words: every value of every registry is a tuple of names."""
    for cls in [*REGISTRIES, *WHOLE]:
        for key, names in cls.reasons.items():
            assert isinstance(names, tuple) and all(name.isidentifier() for name in names), (cls, key)


def catalog_fields(code: Lang) -> dict[str, set[str]]:
    """Each entry of a language's catalog -> the fields of its text (all plural forms together)."""
    return {key_of(message): set[str]().union(*(text_fields(text) for text in texts(message)))
            for message in read_catalog(code) if key_of(message)}


@pytest.mark.parametrize("code", CODES)
def test_every_refusal_key_has_an_entry_with_its_values_in_every_catalog(code: Lang) -> None:
    """Every key of every registry is said in all four languages, with exactly the values it is raised with."""
    found = catalog_fields(code)
    for cls in [*REGISTRIES, *WHOLE]:
        for key, names in cls.reasons.items():
            entry = cls.entry(key)
            assert entry in found, (code, entry)
            assert found[entry] == set(names), (code, entry, found[entry], names)


@pytest.mark.parametrize("key", ALL_KEYS)
def test_each_reason_has_sample_values(key: str) -> None:
    given = set(refusal_class(key).reasons[key])
    assert set(SAMPLES) >= given, f"no sample value for {given - set(SAMPLES)}"


@pytest.mark.parametrize("key", ALL_KEYS)
def test_each_reason_renders_in_every_language_with_every_deck(key: str) -> None:
    for error in samples(key):
        for deck in (FRENCH, GERMAN):
            english = refusal_text(error, Lang("en"), deck)
            for lang in CODES:
                if lang != "en":
                    assert refusal_text(error, lang, deck) != english, (key, lang, deck)
                reply = refusal_reply(error, lang, deck)
                assert "{" not in reply and "}" not in reply and reply.strip(), (key, lang, reply)


# --- every raise in the source uses a registered key ---------------------------------------------------

def raise_sites() -> list[tuple[str, int, str, str | None, set[str]]]:
    """(file, line, class, key, value names) of every refusal built in skatbot/ and cogs/."""
    classes = {cls.__name__: cls for cls in _subclasses(Refusal)}
    sites: list[tuple[str, int, str, str | None, set[str]]] = []
    for path in sorted([*ROOT.joinpath("skatbot").rglob("*.py"), *ROOT.joinpath("cogs").rglob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
            where = str(path.relative_to(ROOT))
            if name == "_require":  # TableGame._require(state, key) raises WrongTableState(key)
                name, args = "WrongTableState", node.args[1:]
            elif name in ("ChannelBusy", "StoreBusy", "PageOutOfRange"):
                continue  # its own init names its key (found below, as a super().__init__ call)
            elif name == "__init__" and where.endswith("tables/manager.py") and node.args:
                name, args = "TableError", node.args
            elif name == "__init__" and where.endswith("models.py") and node.args:
                name, args = "StoreBusy", node.args
            else:
                args = node.args
            if name not in classes:
                continue
            key = args[0].value if args and isinstance(args[0], ast.Constant) else None
            assert key is None or isinstance(key, str), f"{where}:{node.lineno}: a key that is no text"
            sites.append((where, node.lineno, name, key, {k.arg for k in node.keywords if k.arg}))
    return sites


def _subclasses(cls: type[Refusal]) -> list[type[Refusal]]:
    found: list[type[Refusal]] = []
    for direct in cls.__subclasses__():
        found += [direct, *_subclasses(direct)]
    return found


def test_every_refusal_in_the_source_names_a_registered_key_with_its_values() -> None:
    sites = raise_sites()
    assert len(sites) > 80, "the scan no longer finds the raise sites"
    passed_on = [site for site in sites if site[3] is None]
    assert sorted({(f, c) for f, _, c, _, _ in passed_on}) == [
        ("skatbot/organiser.py", "TournamentError"), ("skatbot/tables/game.py", "WrongTableState")], \
        "only _require and the organiser (a draw's refusal, or one of two keys) pass a key on; every other " \
        "refusal names its key as a literal"
    classes = {cls.__name__: cls for cls in _subclasses(Refusal)}
    for where, line, name, key, values in sites:
        if key is None:
            continue
        registry = classes[name].reasons
        assert key in registry, f"{where}:{line}: {name}({key!r}) is not a registered reason"
        assert values == set(registry[key]), f"{where}:{line}: {key!r} takes {registry[key]}"


def test_every_registered_key_is_raised_somewhere() -> None:
    used = {site[3] for site in raise_sites()}
    assert set(ALL_KEYS) - used == set()


# --- concrete refusals, driven through the engine and a table ----------------------------------------------

def grand_hand_led_with_a_heart(rules: RuleSet = OFFICIAL) -> Deal:
    """Forehand plays grand hand and leads ♥7; middlehand holds hearts and spades."""
    deal = Deal([parse_cards("CJ SJ HJ DJ CA CT CK CQ C9 H7"), parse_cards("HA HT HK SA ST SK SQ S9 S8 S7"),
                 parse_cards("HQ H9 H8 DA DT DK DQ D9 D8 D7")], parse_cards("C8 C7"), rules)
    for step in (Bid(18), HOLD, PASS, PASS):
        deal.apply(step)
    deal.apply(Declare(Contract(GameType.GRAND, hand=True)))
    deal.apply(PLAY[Card.parse("H7").index])
    return deal


def refused(deal: Deal, action: Action, seat: int | None = None) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        deal.apply(action, seat)
    return caught.value


def test_must_follow_hearts_in_german_with_either_deck() -> None:
    error = refused(grand_hand_led_with_a_heart(), PLAY[Card.parse("SA").index])
    assert str(error) == "you must follow hearts" and error.key == "must_follow" and error.values == {
        "suit": Suit.HEARTS}
    assert refusal_reply(error, Lang("de"), FRENCH) == "Nicht erlaubt: du musst ♥ Herz bedienen."
    assert refusal_reply(error, Lang("de"), GERMAN) == "Nicht erlaubt: du musst Rot bedienen."
    assert refusal_reply(error, Lang("en"), FRENCH) == "Not allowed: you must follow ♥ Hearts."


def test_a_card_not_in_hand_is_named_in_the_deck_of_the_table() -> None:
    error = refused(grand_hand_led_with_a_heart(), PLAY[Card.parse("CJ").index])
    assert str(error) == "♣J is not in your hand"
    assert refusal_reply(error, Lang("de"), GERMAN) == "Nicht erlaubt: Ei-U hast du nicht auf der Hand."


def test_musik_refusals_in_german() -> None:
    def forehand_declares(rules: RuleSet) -> IllegalAction:
        deal = Deal([parse_cards("CJ SJ HJ DJ CA CT CK CQ C9 H7"), parse_cards("HA HT HK SA ST SK SQ S9 S8 S7"),
                     parse_cards("HQ H9 H8 DA DT DK DQ D9 D8 D7")], parse_cards("C8 C7"), rules)
        for step in (Bid(18), HOLD, PASS, PASS):
            deal.apply(step)
        return refused(deal, Declare(Contract.parse("clubs hand musik")))

    off = forehand_declares(OFFICIAL)
    assert off.key == "musik_off" and str(off) == "Musik is not played at this table"
    assert refusal_reply(off, Lang("de")) == "Nicht erlaubt: an diesem Tisch wird ohne Musik gespielt."
    missing = forehand_declares(RuleSet.preset("danish"))  # the trump seven (♣7) lies in the skat
    assert str(missing) == "Musik needs ♣7 in your hand for the last trick"
    assert refusal_reply(missing, Lang("de"), GERMAN) == \
        "Nicht erlaubt: für Musik brauchst du Ei-7 auf der Hand, für den letzten Stich."


def test_kontra_refusals_in_german() -> None:
    deal = grand_hand_led_with_a_heart(RuleSet(kontra=True))
    late = refused(deal, Kontra(), seat=1)
    assert late.key == "kontra_late"
    assert refusal_reply(late, Lang("de")) == "Nicht erlaubt: Kontra muss vor der ersten Karte kommen."
    declarer = refused(deal, Kontra(), seat=0)
    assert str(declarer) == "only a defender may say Kontra"
    assert refusal_reply(declarer, Lang("de")) == "Nicht erlaubt: nur ein Gegenspieler darf Kontra sagen."
    no_kontra = refused(grand_hand_led_with_a_heart(), Kontra(), seat=1)
    assert refusal_reply(no_kontra, Lang("de")) == "Nicht erlaubt: an diesem Tisch wird ohne Kontra gespielt."


def test_a_wrong_phase_names_the_phase_in_german() -> None:
    error = refused(Deal.new(7), PLAY[Card.parse("CJ").index], seat=1)
    assert str(error) == "cards are played only after the declaration (now: auction)"
    assert refusal_reply(error, Lang("de")) == "Nicht erlaubt: Karten werden erst nach der Ansage gespielt (jetzt: Reizen)."


def test_joining_a_started_table_is_refused_in_german() -> None:
    game = TableGame(size=3, deals=1, rules=OFFICIAL, creator_id=1)
    for entry in (Join(1, "alice"), AddAI(Level.EASY), AddAI(Level.NORMAL), Start()):
        game.apply(entry)
    with pytest.raises(WrongTableState) as caught:
        game.apply(Join(5, "eve"))
    assert str(caught.value) == "the game has started: you cannot join now"
    assert refusal_reply(caught.value, Lang("de")) == \
        "Nicht erlaubt: das Spiel hat begonnen: Du kannst dich jetzt nicht dazusetzen."
    with pytest.raises(TableError) as too_many:
        game.apply(AddAI(Level.STRONG))
    assert refusal_reply(too_many.value, Lang("de")) == \
        "Nicht erlaubt: Computerspieler kann man nur vor dem Start hinzufügen."


def test_the_common_refusals_have_a_reply_of_their_own() -> None:
    assert refusal_reply(IllegalAction("not_your_turn", seat=Seat.MIDDLEHAND), Lang("de")) == template(Lang("de"), "error.not_your_turn")
    assert refusal_reply(CommandRefusal("bad_card", text="XY"), Lang("de")) == \
        "'XY' ist keine Karte. Schreib sie, wie der Bot sie zeigt, etwa ♣B, ♠10, ♥D (oder CJ, ST), oder wähl eine " \
        "aus der Liste."
    assert refusal_reply(WrongTableState("stale"), Lang("en")) == template(Lang("en"), "error.stale")


def test_rules_that_do_not_go_together_are_refused_in_german() -> None:
    with pytest.raises(InvalidRuleSet) as caught:
        RuleSet.preset("tournament").with_options(losses="single")
    error = caught.value
    assert error.key == "seeger_fabian_single" and error.values == {}
    assert str(error) == ("Seeger-Fabian scoring has its own loss rule (twice the value and 50 more); "
                          "it cannot be combined with single losses")
    assert refusal_text(error, Lang("de")) == ("die Seeger-Fabian-Wertung hat ihre eigene Verlustregel (doppelter Wert "
                                         "und 50 mehr); sie lässt sich nicht mit einfachen Verlusten verbinden")
    with pytest.raises(InvalidRuleSet) as bock:
        RuleSet.preset("pub").with_options(kontra=False)
    assert bock.value.key == "bock_kontra_without_kontra"
    assert refusal_reply(bock.value, Lang("de")) == \
        "Nicht erlaubt: eine Bockrunde nach einem Spiel mit Kontra geht nur, wenn mit Kontra und Re gespielt wird."
    with pytest.raises(InvalidRuleSet) as value:
        OFFICIAL.with_options(losses="triple")
    assert value.value.values == {"value": "triple", "option": "losses"}
    assert refusal_text(value.value, Lang("de")) == "'triple' ist kein Wert für die Regeloption losses"
    assert str(value.value) == "bad value 'triple' for rule option losses"


def test_the_settings_command_keeps_the_rules_reason_for_the_admins_language() -> None:
    """`/skat settings` passes the refusal on (cogs.settings renders it), not its English sentence."""
    with pytest.raises(SettingsInputError) as caught:
        apply_request(ServerSettings(server_id=1), SettingsRequest(option="kontra_needs_bid", value="on"))
    reason = caught.value.values["reason"]
    assert isinstance(reason, InvalidRuleSet) and reason.key == "bid_kontra_without_kontra"
    assert t(Lang("de"), caught.value.key, reason=refusal_text(reason, Lang("de"))) == (
        "Diese Regeln passen nicht zusammen: „Kontra nur von einem Gegenspieler, der mitgereizt hat“ geht nur, "
        "wenn mit Kontra gespielt wird. Nichts wurde geändert.")


def test_a_long_input_is_quoted_back_short_with_an_ellipsis() -> None:
    """Discord allows 6,000 characters in a string option; the refusal quotes a clear beginning of it."""
    reply = refusal_reply(CommandRefusal("bad_card", text="Q" * 6000), Lang("en"))
    assert reply == "'" + "Q" * 59 + "…' is not a card. Write it as the bot shows it, like ♣J, ♠10, ♥Q (or CJ, ST), or pick one from the list."
    assert refusal_reply(CommandRefusal("bad_card", text="QX"), Lang("en")) == "'QX' is not a card. Write it as the bot shows it, like ♣J, ♠10, ♥Q (or CJ, ST), or pick one from the list."


def test_an_unknown_key_is_a_programming_error() -> None:
    with pytest.raises(KeyError, match="no reason 'you must follow hearts'"):
        IllegalAction("you must follow hearts")


def test_refusals_survive_pickling_with_key_values_and_class() -> None:
    for error in (IllegalAction("must_follow", suit=Suit.CLUBS), ChannelBusy(4), CommandRefusal("bad_card", text="Q"),
                  InvalidRuleSet("option_value", value="triple", option="losses")):
        copy = pickle.loads(pickle.dumps(error))
        assert type(copy) is type(error) and copy.key == error.key and copy.values == error.values
        assert str(copy) == str(error)
    assert pickle.loads(pickle.dumps(ChannelBusy(4))).table_id == 4
