"""AI players named by a level and switches, for the benchmarks: `strong+steady`, `strong+no-bidding`.

A change that has not passed the regression match (ai_tournament --baseline) lands behind a switch that is
off by default; a benchmark turns it on by name, so an operator can test it again without editing code. A
switch that passed is on by default (`skatbot.ai.strong`); `no-` before its name turns it off again.
Switches (attributes of skatbot.ai.strong.StrongPlayer): `contracts` (the skat, the game, Kontra and Re by
search), `bidding` (the auction by search too, with `contracts`), `inference` (card play's worlds weighted by
the auction), `sharp` (the contracts judged in worlds drawn by the auction, with `contracts`), `steady` (a hand game over the
pickup only by a margin of its standard error, with `contracts`), `race` (hopeless candidates dropped from the
contract evaluation after three worlds, the budget spent on more worlds for the rest, with `contracts`),
`twophase` (the contract verdict's second search in every other world only, with `contracts`), `capped` (a contract
verdict cut off at a third of the node cap counts at the mean chance of such worlds, with `contracts`), `curse` (every
contract choice, and bidding against passing, by the candidates' lower bounds, their means less half a standard
error, not by their means: the winner's curse, with `contracts`), `nullfit` (a null after the pickup judged by its chance
measured against strong's play, with `contracts`), `cardinference` (card play's worlds weighted by the other seats'
cards so far, as normal would have played them).
"""

from __future__ import annotations

from skatbot.ai import Level, levels, make_player
from skatbot.ai.base import ComputerPlayer
from skatbot.ai.strong import StrongPlayer

SWITCHES = {"contracts": "search_contracts", "bidding": "search_bidding", "inference": "infer_auction",
            "sharp": "sharp_auction", "steady": "steady_hand",
            "race": "race_contracts", "twophase": "two_phase", "capped": "capped_solves",
            "curse": "curse_selection",
            "nullfit": "fit_null", "cardinference": "infer_play"}


def check(spec: str) -> str | None:
    """Why `spec` names no player (None: it does)."""
    level, *switches = spec.split("+")
    if level not in levels():
        return f"unknown level {level!r}: choose one of {', '.join(levels())}"
    if switches and level != Level.STRONG:
        return "switches are for the strong level"
    unknown = [s for s in switches if s.removeprefix("no-") not in SWITCHES]
    if unknown:
        return f"unknown switch {unknown[0]!r}: choose from {', '.join(SWITCHES)}"
    return None


def level_of(spec: str) -> Level:
    return Level(spec.split("+")[0])


def make(spec: str, seed: int) -> ComputerPlayer:
    """The player `spec` names, seeded: each switch set on, or off after `no-`."""
    level, *switches = spec.split("+")
    player = make_player(Level(level), seed)
    for switch in switches:
        assert isinstance(player, StrongPlayer)
        name = switch.removeprefix("no-")
        setattr(player, SWITCHES[name], name == switch)
    return player
