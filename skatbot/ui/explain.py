"""How a finished deal's score was reached, step by step, for the result card and the DM.

The rules texts count a game's value aloud ("with 2, game 3, hand 4 × 12 = 48"); players check the
bot's number the same way. The steps mirror the engine's `game_multiplier` and `declarer_score`, and a
test holds the explained total to the score the list writes, so the two cannot drift apart.
"""

from __future__ import annotations

from skatbot.engine import DealResult, GameType, RuleSet
from skatbot.engine.rules import Losses

from .i18n import signed, t
from .languages import Lang


def multiplier_steps(result: DealResult, lang: Lang) -> list[str]:
    """`with 2`, `game 3`, `hand 4`, ... for a suit game or grand (empty for null and Ramsch)."""
    contract = result.contract
    if contract is None or contract.game in (GameType.NULL, GameType.RAMSCH):
        return []
    count = abs(result.matadors)
    steps = [t(lang, "explain.against" if result.matadors < 0 else "explain.with", count=count)]
    total = count

    def add(key: str) -> None:
        nonlocal total
        total += 1
        steps.append(f"{t(lang, key)} {total}")

    add("explain.game")
    if contract.hand:
        add("explain.hand")
    if result.schneider or contract.schneider or contract.schwarz:
        add("explain.schneider")
    if contract.schneider:
        add("explain.schneider_announced")
    if result.schwarz or contract.schwarz:
        add("explain.schwarz")
    if contract.schwarz:
        add("explain.schwarz_announced")
    if contract.ouvert:
        add("explain.ouvert")
    if contract.musik:
        add("explain.musik")
    assert total == result.multiplier, "the explained steps must add up to the engine's multiplier"
    return steps


def value_explained(result: DealResult, lang: Lang) -> str:
    """The game value: `with 2, game 3 × 12 = 36`; a null's fixed value; an overbid's charged value."""
    contract = result.contract
    assert contract is not None and result.declarer is not None
    if contract.game is GameType.NULL:
        text = t(lang, "explain.null", value=result.value)
    else:
        base = contract.game.base_value
        made = base * result.multiplier
        text = t(lang, "explain.product", steps=", ".join(multiplier_steps(result, lang)), base=base, value=made)
        if result.overbid:
            text += t(lang, "explain.then") + t(lang, "explain.overbid", bid=result.bid, value=result.value, base=base)
    return text


def score_explained(result: DealResult, rules: RuleSet, bock: bool, score: int, lang: Lang) -> str:
    """How the declarer's written score follows from the value: lost twice, Kontra, Re, Bock, Seeger-Fabian."""
    steps = t(lang, "explain.then").join(score_steps(result, rules, bock, lang))
    return t(lang, "explain.line", steps=steps, score=signed(lang, score))


def score_steps(result: DealResult, rules: RuleSet, bock: bool, lang: Lang) -> list[str]:
    """The steps of `score_explained`, also for a reader without Discord's markdown (the terminal table)."""
    parts = [value_explained(result, lang)]
    if not result.won:
        single = rules.losses is Losses.SINGLE and result.contract is not None and not result.contract.hand
        parts.append(t(lang, "explain.lost_single" if single else "explain.lost_double"))
    for on, key in ((result.kontra, "explain.kontra"), (result.re, "explain.re"), (bock, "explain.bock")):
        if on:
            parts.append(t(lang, key))
    if rules.seeger_fabian:
        parts.append(t(lang, "explain.seeger_won" if result.won else "explain.seeger_lost"))
    return parts


def ramsch_explained(result: DealResult, bock: bool, scores: list[int], lang: Lang) -> str | None:
    """A Ramsch's doubling, when there is one to explain (Jungfrau, Bock); None otherwise."""
    parts = []
    if not result.durchmarsch and result.value == 2 * max(result.seat_points) > 0:  # a Jungfrau doubled it
        parts.append(t(lang, "explain.jungfrau"))
    if bock:
        parts.append(t(lang, "explain.bock"))
    if not parts:
        return None
    loser = min(scores)
    return t(lang, "explain.line", steps=t(lang, "explain.then").join([t(lang, "explain.ramsch", points=max(result.seat_points)),
                                                     *parts]), score=signed(lang, loser))

