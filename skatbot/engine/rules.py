"""RuleSet: how a table plays. The default is the International Skat Order (ISkO).

House rules are fields; the deal, the scoring and the series read them, nothing else decides rules.
Every option comes from the rules texts (seeds 000, 001, 002). Our readings, where a text leaves room:

- Ramsch (all pass): jacks are the only trumps as in a grand, everyone plays alone, the skat goes to the
  winner of the last trick. Whoever took the most card points loses that many; on a tie for the most,
  every tied player loses that many. A Durchmarsch (one player takes every trick) scores +120 instead
  (option; without it that player simply loses 120). Jungfrau (option): when a player took no trick, the
  loser's minus is doubled, once however many players took none.
- Kontra/Re: Kontra doubles the declarer's written score, Re doubles it again. Re needs a Kontra.
- Bock: each trigger that fires queues one Bock round (one deal per player at the table) at double
  stakes; rounds queue one after another. The doubling is the series' business, not the deal's.
- Seeger-Fabian: won +value+50; lost -2 x value - 50 and 40 to each other player at three (30 at four:
  the three others, the dealer who sat out included). Its own loss rule, so it refuses single losses.
- Danish open play: any game may be played ouvert, with or without the skat, for one more multiplier
  step and no implied schneider/schwarz. Dækker (null ouvert hand) is worth 59 or 69; at 69 the number
  69 joins the bid ladder and 59 stays on it (the Danish text's ladder: ... 55, 59, 60 ...).
- Musik: an announcement on a suit game or grand (`Contract.musik`, "clubs musik"), only where the rule
  is played and only while the declarer holds the card it names: the trump seven, in a grand the jack of
  diamonds. It is one more multiplier step, counted like any announcement whether made or not (so it can
  cover the bid). The game is won only if, besides the usual 61 points, the declarer plays that card in
  the tenth trick and wins it; a defenders' concession counts as made while the card is still unplayed.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from enum import Enum
from typing import Any

from .errors import InvalidRuleSet


class AllPass(Enum):
    """What happens when all three pass."""

    THROW_IN = "throw-in"
    RAMSCH = "ramsch"


class Losses(Enum):
    """How a lost game is written."""

    DOUBLE = "double"  # official since 1999
    SINGLE = "single"  # before 1999: only a lost hand game is doubled


class BockTrigger(Enum):
    """Events that queue a Bock round (double stakes for one deal per player)."""

    KONTRA_GAME = "kontra"  # a game in which Kontra was said
    RE_GAME = "re"  # a game in which Re was said (on top of the Kontra trigger, when both are chosen)
    LOST_AT_60 = "lost at 60"  # a suit game or grand lost with exactly 60 card points
    GRAND_HAND_WON = "grand hand won"
    SCHWARZ = "schwarz"  # a suit game or grand won or lost schwarz

DAKKER_VALUES = (59, 69)
"""Null ouvert hand (Dækker): 59 officially, 69 at many Danish tables."""


@dataclass(frozen=True, slots=True)
class RuleSet:
    """One value that says how a table plays. Contradictions are refused when it is made."""

    all_pass: AllPass = AllPass.THROW_IN
    kontra: bool = False
    kontra_needs_bid: bool = False
    losses: Losses = Losses.DOUBLE
    seeger_fabian: bool = False
    ouvert_any_game: bool = False  # Danish: every game may be played open, not only hand
    bock_triggers: frozenset[BockTrigger] = field(default_factory=frozenset)
    ramsch_durchmarsch: bool = True  # a player who takes every trick scores +120
    ramsch_jungfrau: bool = False  # a player who took no trick doubles the loser's minus
    musik: bool = False  # Danish: the declarer may announce the last trick with the trump seven
    dakker_value: int = 59  # null ouvert hand

    def __post_init__(self) -> None:
        if not isinstance(self.bock_triggers, frozenset):  # accept any iterable, store a frozenset
            object.__setattr__(self, "bock_triggers", frozenset(self.bock_triggers))
        self.validate()

    def validate(self) -> None:
        """Raise InvalidRuleSet with the reason key (`RULE_REASONS`) of the first contradiction found."""
        for name, kind in (("all_pass", AllPass), ("losses", Losses)):
            if not isinstance(getattr(self, name), kind):
                raise InvalidRuleSet("option_choice", option=name, allowed=", ".join(m.value for m in kind))
        for name in ("kontra", "kontra_needs_bid", "seeger_fabian", "ouvert_any_game", "ramsch_durchmarsch",
                     "ramsch_jungfrau", "musik"):
            if not isinstance(getattr(self, name), bool):
                raise InvalidRuleSet("option_switch", option=name)
        if any(not isinstance(t, BockTrigger) for t in self.bock_triggers):
            raise InvalidRuleSet("bock_trigger_unknown", allowed=", ".join(t.value for t in BockTrigger))
        if self.kontra_needs_bid and not self.kontra:
            raise InvalidRuleSet("bid_kontra_without_kontra")
        if BockTrigger.KONTRA_GAME in self.bock_triggers and not self.kontra:
            raise InvalidRuleSet("bock_kontra_without_kontra")
        if BockTrigger.RE_GAME in self.bock_triggers and not self.kontra:
            raise InvalidRuleSet("bock_re_without_kontra")
        if self.seeger_fabian and self.losses is Losses.SINGLE:
            raise InvalidRuleSet("seeger_fabian_single")
        if not self.ramsch:
            if self.ramsch_jungfrau:
                raise InvalidRuleSet("jungfrau_without_ramsch")
            if not self.ramsch_durchmarsch:
                raise InvalidRuleSet("durchmarsch_without_ramsch")
        if type(self.dakker_value) is not int or self.dakker_value not in DAKKER_VALUES:
            raise InvalidRuleSet("dakker_value", value=self.dakker_value)

    # --- derived -------------------------------------------------------------------------------

    @property
    def ramsch(self) -> bool:
        return self.all_pass is AllPass.RAMSCH

    def null_value(self, hand: bool, ouvert: bool) -> int:
        """The flat value of a null: 23, hand 35, ouvert 46, ouvert hand 59 (or 69, Dækker)."""
        if hand and ouvert:
            return self.dakker_value
        return 46 if ouvert else 35 if hand else 23

    @property
    def bid_ladder(self) -> tuple[int, ...]:
        """Every legal bid at this table: the official ladder, plus 69 for a Dækker worth 69, plus the
        values a Musik game can reach above the official ones."""
        return _ladder(self.dakker_value, int(self.musik))

    def is_bid(self, value: int) -> bool:
        return value in self.bid_ladder

    # --- presets and changes ---------------------------------------------------------------------

    @classmethod
    def preset(cls, name: str) -> RuleSet:
        """A named preset: official, tournament, pub, pre-1999, danish."""
        key = name.strip().lower().replace("_", "-")
        key = {"pre1999": "pre-1999", "isko": "official"}.get(key, key)
        if key not in PRESETS:
            raise InvalidRuleSet("preset_unknown", preset=name, presets=", ".join(PRESETS))
        return PRESETS[key]

    def with_options(self, **changes: Any) -> RuleSet:
        """This rule set with single options changed (values may be given as in `to_dict`)."""
        names = {f.name for f in fields(self)}
        unknown = sorted(set(changes) - names)
        if unknown:
            raise InvalidRuleSet("options_unknown", options=", ".join(unknown))
        return replace(self, **{k: _option_value(k, v) for k, v in changes.items()})

    def preset_name(self) -> str | None:
        """The preset this rule set equals, if any."""
        for name, rules in PRESETS.items():
            if rules == self:
                return name
        return None

    # --- words and storage ---------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict (enums as their values, triggers as a sorted list)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, Enum):
                value = value.value
            elif isinstance(value, frozenset):
                value = sorted(t.value for t in value)
            out[f.name] = value
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RuleSet:
        """Read `to_dict` output back; missing options take their defaults, unknown ones are refused."""
        if not isinstance(data, dict):
            raise InvalidRuleSet("stored_not_object")
        return OFFICIAL.with_options(**data)


def _option_value(name: str, value: Any) -> Any:
    """Turn a stored or typed option value into the field's type; a bad value is a clear error."""
    if name == "bock_triggers" and isinstance(value, str):
        raise InvalidRuleSet("bock_triggers_list")
    try:
        if name == "all_pass" and not isinstance(value, AllPass):
            return AllPass(value)
        if name == "losses" and not isinstance(value, Losses):
            return Losses(value)
        if name == "bock_triggers":
            return frozenset(t if isinstance(t, BockTrigger) else BockTrigger(t) for t in value)
    except (ValueError, TypeError) as error:
        raise InvalidRuleSet("option_value", value=value, option=name) from error
    return value


def _ladder(dakker: int, extra_steps: int) -> tuple[int, ...]:
    cached = _LADDERS.get((dakker, extra_steps))
    if cached is not None:
        return cached
    top = 24 * (11 + extra_steps)  # grand with four, every announcement and any extra steps
    values: set[int] = {23, 35, 46, 59, dakker}  # 59 stays: the Danish ladder lists it beside a Dækker of 69
    for base in (9, 10, 11, 12, 24):
        for multiplier in range(2, 19 + extra_steps):
            if base * multiplier <= top:
                values.add(base * multiplier)
    ladder = tuple(sorted(v for v in values if v >= 18))
    _LADDERS[(dakker, extra_steps)] = ladder
    return ladder


_LADDERS: dict[tuple[int, int], tuple[int, ...]] = {}

OFFICIAL = RuleSet()

PRESETS: dict[str, RuleSet] = {
    "official": OFFICIAL,
    "tournament": RuleSet(seeger_fabian=True),
    "pub": RuleSet(all_pass=AllPass.RAMSCH, kontra=True,
                   bock_triggers=frozenset({BockTrigger.KONTRA_GAME, BockTrigger.LOST_AT_60})),
    "pre-1999": RuleSet(losses=Losses.SINGLE),
    "danish": RuleSet(kontra=True, bock_triggers=frozenset({BockTrigger.KONTRA_GAME, BockTrigger.LOST_AT_60}),
                      ouvert_any_game=True, musik=True, dakker_value=69),
}
"""The named presets a table may take and then change in single options."""
