"""A player server for `ai_tournament --baseline`: the AI of an earlier commit, in a process of its own.

Run by the tournament with PYTHONPATH set to a git worktree of that commit, so `skatbot` here is the old
code. It reads one JSON request per line on stdin and answers one JSON line on stdout. A request names
the deal (its seed, or for a deal not dealt from a seed, an ISS record's, its cards; and the rules'
switches), everything that happened so far (the deal's full history, hidden actions included, as the
engine's action texts), the seat and the player (level and seed); the server replays the deal with its
own engine and asks its own player. Only APIs that have long been stable are used (make_player,
Deal.new, Deal(hands, skat, rules), Card.parse, seat_view, parse_action, RuleSet), so any commit since
the AI levels landed can be the baseline. This file is never imported by the project.
"""

from __future__ import annotations

import json
import sys
from typing import Any


def main() -> None:
    import skatbot
    from skatbot.ai import Level, make_player
    from skatbot.engine.actions import parse_action
    from skatbot.engine.cards import Card
    from skatbot.engine.deal import Deal
    from skatbot.engine.rules import AllPass, RuleSet
    from skatbot.engine.views import seat_view

    players: dict[tuple[str, int], Any] = {}
    print(json.dumps({"ready": skatbot.__file__}), flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        switches = dict(request["rules"])
        switches["all_pass"] = AllPass(switches["all_pass"])
        if "hands" in request:  # a deal not dealt from a seed (an ISS record): its cards as ISS codes
            hands = [[Card.parse(code) for code in hand] for hand in request["hands"]]
            deal = Deal(hands, [Card.parse(code) for code in request["skat"]], RuleSet(**switches))
        else:
            deal = Deal.new(request["deal_seed"], RuleSet(**switches))
        for seat, text in request["history"]:
            deal.apply(parse_action(text), seat)
        key = (request["level"], request["player_seed"])
        if key not in players:
            players[key] = make_player(Level(request["level"]), request["player_seed"])
        view = seat_view(deal, request["seat"])
        player = players[key]
        action = player.choose(view) if request["op"] == "choose" else player.side_action(view)
        print(json.dumps({"action": None if action is None else str(action)}), flush=True)


if __name__ == "__main__":
    main()
