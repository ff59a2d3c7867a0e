"""RuleSet: validation, presets, single-option changes, summaries, the stored form, bid ladder and null values."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skatbot.engine import BID_LADDER, OFFICIAL, AllPass, InvalidRuleSet, Losses, RuleSet
from skatbot.engine.rules import PRESETS, BockTrigger


def test_official_is_the_default_and_the_official_preset() -> None:
    assert RuleSet() == OFFICIAL == RuleSet.preset("official")
    assert OFFICIAL.all_pass is AllPass.THROW_IN and not OFFICIAL.kontra and OFFICIAL.losses is Losses.DOUBLE
    assert not OFFICIAL.bock_triggers and not OFFICIAL.seeger_fabian and OFFICIAL.dakker_value == 59


@pytest.mark.parametrize(("changes", "words"), [
    ({"kontra_needs_bid": True}, "needs Kontra"),
    ({"bock_triggers": {BockTrigger.KONTRA_GAME}}, "needs Kontra and Re"),
    ({"bock_triggers": {BockTrigger.RE_GAME}}, "needs Kontra and Re"),
    ({"seeger_fabian": True, "losses": Losses.SINGLE}, "single losses"),
    ({"ramsch_jungfrau": True}, "Ramsch must be played"),
    ({"ramsch_durchmarsch": False}, "Ramsch must be played"),
    ({"dakker_value": 60}, "59 or 69"),
    ({"kontra": "yes"}, "true or false"),
    ({"all_pass": "ramsch"}, "all_pass must be one of"),
    ({"bock_triggers": {"kontra"}}, "Bock triggers must be among"),
])
def test_contradictions_are_refused_with_a_clear_message(changes: dict[str, object], words: str) -> None:
    with pytest.raises(InvalidRuleSet, match=words):
        RuleSet(**changes)  # type: ignore[arg-type]  # values of the wrong type on purpose


def test_contradictions_are_refused_through_with_options_too() -> None:
    with pytest.raises(InvalidRuleSet, match="needs Kontra"):
        RuleSet.preset("pub").with_options(kontra=False)  # the pub's Bock after Kontra needs Kontra
    with pytest.raises(InvalidRuleSet, match="Ramsch must be played"):
        OFFICIAL.with_options(ramsch_jungfrau=True)
    assert RuleSet.preset("pub").with_options(kontra=False, bock_triggers=["lost at 60"]).bock_triggers == {
        BockTrigger.LOST_AT_60}


def test_consistent_combinations_are_accepted() -> None:
    rules = RuleSet(all_pass=AllPass.RAMSCH, kontra=True, kontra_needs_bid=True, seeger_fabian=True,
                    bock_triggers=frozenset(BockTrigger), ramsch_jungfrau=True, ramsch_durchmarsch=False,
                    ouvert_any_game=True, musik=True, dakker_value=69)
    assert rules.bock_triggers == frozenset(BockTrigger)
    # a list is kept as the frozenset the type asks for
    from_json = RuleSet(bock_triggers=[BockTrigger.LOST_AT_60])  # type: ignore[arg-type]  # a list, as in JSON
    assert from_json.bock_triggers == frozenset({BockTrigger.LOST_AT_60})


def test_presets_list_their_options() -> None:
    assert set(PRESETS) == {"official", "tournament", "pub", "pre-1999", "danish"}
    assert RuleSet.preset("tournament") == OFFICIAL.with_options(seeger_fabian=True)
    pub = RuleSet.preset("pub")
    assert pub.ramsch and pub.kontra and BockTrigger.KONTRA_GAME in pub.bock_triggers
    assert BockTrigger.LOST_AT_60 in pub.bock_triggers
    assert RuleSet.preset("pre-1999").losses is Losses.SINGLE and RuleSet.preset("PRE_1999").losses is Losses.SINGLE
    danish = RuleSet.preset("danish")
    assert danish.ouvert_any_game and danish.musik and danish.dakker_value == 69 and danish.kontra
    assert not danish.ramsch  # "Passer alle tre, gives der om"
    for name, rules in PRESETS.items():
        assert rules.preset_name() == name
    assert pub.with_options(ramsch_jungfrau=True).preset_name() is None


def test_unknown_preset_and_unknown_option_are_refused() -> None:
    with pytest.raises(InvalidRuleSet, match="choose one of official, tournament, pub, pre-1999, danish"):
        RuleSet.preset("casino")
    with pytest.raises(InvalidRuleSet, match="unknown rule option"):
        OFFICIAL.with_options(ramsh=True)
    with pytest.raises(InvalidRuleSet, match="bad value"):
        OFFICIAL.with_options(losses="triple")


def test_with_options_changes_one_option_and_keeps_the_rest() -> None:
    pub = RuleSet.preset("pub")
    changed = pub.with_options(kontra_needs_bid=True)
    assert changed.kontra_needs_bid and changed.ramsch and changed.bock_triggers == pub.bock_triggers
    assert pub.kontra_needs_bid is False  # presets are values: unchanged


rule_sets = st.builds(
    RuleSet,
    all_pass=st.just(AllPass.RAMSCH),
    kontra=st.just(True),
    kontra_needs_bid=st.booleans(),
    losses=st.just(Losses.DOUBLE),
    seeger_fabian=st.booleans(),
    ouvert_any_game=st.booleans(),
    bock_triggers=st.frozensets(st.sampled_from(list(BockTrigger))),
    ramsch_durchmarsch=st.booleans(),
    ramsch_jungfrau=st.booleans(),
    musik=st.booleans(),
    dakker_value=st.sampled_from([59, 69]),
) | st.sampled_from(list(PRESETS.values()))


@given(rule_sets)
def test_the_stored_form_is_json_and_reads_back_equal(rules: RuleSet) -> None:
    stored = json.loads(json.dumps(rules.to_dict()))
    assert RuleSet.from_dict(stored) == rules


def test_from_dict_takes_defaults_and_refuses_junk() -> None:
    assert RuleSet.from_dict({}) == OFFICIAL
    assert RuleSet.from_dict({"losses": "single"}) == RuleSet.preset("pre-1999")
    with pytest.raises(InvalidRuleSet, match="JSON object"):
        RuleSet.from_dict(["official"])  # type: ignore[arg-type]  # no JSON object, on purpose
    with pytest.raises(InvalidRuleSet, match="list of triggers"):
        RuleSet.from_dict({"bock_triggers": "kontra", "kontra": True})


def test_bid_ladder_follows_the_rules() -> None:
    assert OFFICIAL.bid_ladder == BID_LADDER
    assert 69 not in OFFICIAL.bid_ladder and not OFFICIAL.is_bid(69)
    dakker = OFFICIAL.with_options(dakker_value=69)
    assert dakker.is_bid(69) and set(dakker.bid_ladder) - set(BID_LADDER) == {69}
    assert set(BID_LADDER) <= set(dakker.bid_ladder)  # 59 included, as the Danish text's ladder lists it
    musik = OFFICIAL.with_options(musik=True)
    assert max(musik.bid_ladder) == 288 and musik.is_bid(228) and not OFFICIAL.is_bid(288)


def test_null_values() -> None:
    assert [OFFICIAL.null_value(h, o) for h in (False, True) for o in (False, True)] == [23, 46, 35, 59]
    assert RuleSet.preset("danish").null_value(True, True) == 69
    assert RuleSet.preset("danish").null_value(False, True) == 46


def test_the_danish_auction_takes_59_as_its_rules_text_lists_it() -> None:
    from skatbot.engine import Bid, Deal

    danish = RuleSet.preset("danish")
    assert [v for v in danish.bid_ladder if 54 <= v <= 70] == [54, 55, 59, 60, 63, 66, 69, 70]
    deal = Deal.new(5, danish)
    deal.apply(Bid(59), deal.current_seat)
    assert deal.bid == 59
