"""The deal analysis as lines a player reads ("Trick 4: Anna's ♥A gave the game away; ♣J keeps 64 points")."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from skatbot.ai.verdict import DealAnalysis, Turning, WinLevel, win_level
from skatbot.engine.games import GameType
from skatbot.models import Deck

from .cards import FRENCH, card_label, cards_text, contract_name
from .i18n import t
from .languages import Lang
from .replay import replay_button


def _effect(turning: Turning, analysis: DealAnalysis) -> str:
    """What the card did, named by the most important line it crossed (the game's, else schneider's)."""
    winning = win_level(analysis.contract)
    low, high = sorted((turning.before, turning.after))
    up = turning.after > turning.before
    if analysis.contract.game is GameType.NULL:
        return "analysis.effect.null_won" if up else "analysis.effect.null_lost"
    if low < winning <= high:
        return "analysis.effect.let_win" if up else "analysis.effect.gave_away"
    if high == WinLevel.SCHNEIDER:
        return "analysis.effect.let_schneider" if up else "analysis.effect.missed_schneider"
    return "analysis.effect.out_of_schneider" if up else "analysis.effect.into_schneider"


def turning_line(turning: Turning, analysis: DealAnalysis, names: Sequence[str], lang: Lang,
                 deck: Deck = FRENCH) -> str:
    line = t(lang, "analysis.turning", trick=turning.trick, name=names[turning.seat],
             card=card_label(turning.card, deck, lang), effect=t(lang, _effect(turning, analysis)))
    if turning.better is not None:
        better = card_label(turning.better, deck, lang)
        if turning.better_points is None:
            line += t(lang, "analysis.keeps", card=better)
        else:
            line += t(lang, "analysis.keeps_points", card=better, points=turning.better_points)
    return line


def analysis_text(analysis: DealAnalysis, names: Sequence[str], deal_id: int, lang: Lang,
                  deck: Deck = FRENCH) -> str:
    """Every line of the analysis; `names` by seat (forehand, middlehand, rearhand)."""
    game = contract_name(analysis.contract, lang, deck)
    lines = [t(lang, "analysis.title", deal=deal_id, name=names[analysis.declarer], game=game)]
    start = t(lang, "analysis.could_win" if analysis.could_win else "analysis.could_not_win", game=game)
    if analysis.start_points is not None:
        start += t(lang, "analysis.best_points", points=analysis.start_points)
    lines.append(start)
    if analysis.turnings:
        lines.extend(turning_line(turning, analysis, names, lang, deck) for turning in analysis.turnings)
    else:
        lines.append(t(lang, "analysis.no_turning"))
    if analysis.skat_choices:
        lines.append(t(lang, "analysis.skat_choices"))
        for choice in analysis.skat_choices:
            lines.append(t(lang, "analysis.skat_choice", game=contract_name(choice.contract, lang, deck),
                           cards=cards_text(choice.discard, deck, lang)))
    elif analysis.picked_up and not analysis.could_win:
        lines.append(t(lang, "analysis.no_skat_choice"))
    return "\n".join(lines)


ANALYSE_TEMPLATE = r"an:(?P<table>\d{1,18}):(?P<number>\d{1,6})"
"""The result card's Analyse button: table and deal number (answered by cogs._analysis.AnalyseButton)."""


def analyse_view(table_id: int, number: int, lang: Lang, analysable: bool = True) -> discord.ui.View:
    """The result card's controls: "Analyse" for a deal with a declared game, and 🎞 Replay (cogs.replay)."""
    view = discord.ui.View(timeout=None)
    if analysable:
        view.add_item(discord.ui.Button(label=t(lang, "analysis.button"), emoji="🔍",
                                        style=discord.ButtonStyle.secondary, custom_id=f"an:{table_id}:{number}"))
    view.add_item(replay_button(f"rpt:{table_id}:{number}", lang))
    return view
