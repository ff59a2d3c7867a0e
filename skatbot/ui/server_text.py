"""Texts of the server features: player stats, histories, the value calculator, settings, help screens.

Plain functions from domain values to message text, each in the reader's language and the server's
deck style, so that the cogs only fetch and reply.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from skatbot.engine import Contract, GameType, RuleSet
from skatbot.engine.rules import PRESETS
from skatbot.models import DealSummary, Deck, PlayerStats, ServerSettings

from .calculator import ValueAnswer
from .cards import contract_name, game_name
from .i18n import signed, t, timestamp, tn
from .languages import LANGUAGES, Lang, language_name
from .leaderboard import _name
from .names import option_name, option_value, player_name_of, preset_name
from .rules_text import rules_lines
from .server_settings import SettingChange

HELP_PAGES = 7
COUNTED_STEPS = frozenset({"value.step.with", "value.step.against"})
"""Calculator steps that name a count (matadors), in the plural form for it."""


def percent(part: int, whole: int) -> int:
    return round(100 * part / whole) if whole else 0


def stats_text(stats: PlayerStats, lang: Lang, period: str) -> str:
    name = f"🤖 {_name(player_name_of(stats.player_id, stats.display_name, lang))}" if stats.is_ai else \
        _name(stats.display_name)
    by_type = stats.games_by_type
    lines = [
        t(lang, "stats.title", name=name, period=t(lang, f"lb.period.{period}")),
        t(lang, "stats.totals", deals=stats.deals, points=signed(lang, stats.points), seeger=signed(lang, stats.seeger)),
        tn(lang, "stats.declarer", stats.declared, won=stats.declared_won,
          rate=percent(stats.declared_won, stats.declared)),
        tn(lang, "stats.defender", stats.defended, won=stats.defended_won,
          rate=percent(stats.defended_won, stats.defended)),
        t(lang, "stats.by_type", suits=by_type.get("suits", 0), grand=by_type.get("grand", 0),
          null=by_type.get("null", 0), hand=by_type.get("hand", 0), ouvert=by_type.get("ouvert", 0)),
    ]
    if stats.biggest_win is not None:
        lines.append(t(lang, "stats.biggest_win", score=signed(lang, stats.biggest_win.score),
                       deal=stats.biggest_win.deal_id))
    if stats.biggest_loss is not None:
        lines.append(t(lang, "stats.biggest_loss", score=signed(lang, stats.biggest_loss.score),
                       deal=stats.biggest_loss.deal_id))
    if stats.best_series is not None:
        best = stats.best_series
        lines.append(tn(lang, "stats.best_series", best.deals, place=best.place, total=signed(lang, best.total),
                        table=stats.best_series_table))
    return "\n".join(lines)


def deal_game_text(summary: DealSummary, lang: Lang, deck: Deck) -> str:
    """`♣ Clubs hand`, or Ramsch, or 'everybody passed'."""
    if summary.game is None or not summary.contract:
        return t(lang, "history.passed")
    try:
        return contract_name(Contract.parse(summary.contract), lang, deck)
    except ValueError:
        return summary.contract


def history_text(summaries: Sequence[DealSummary], names: Mapping[int, str], lang: Lang, deck: Deck,
                 player_name: str | None) -> str:
    title = t(lang, "history.title_player", name=_name(player_name)) if player_name else t(lang, "history.title")
    lines = [title]
    for summary in summaries:
        game = deal_game_text(summary, lang, deck)
        when = timestamp(summary.finished_at)
        if summary.game is None:
            line = t(lang, "history.row_passed", deal=summary.deal_id, table=summary.table_id,
                     number=summary.deal_number, when=when)
        elif summary.declarer_id is None:
            line = t(lang, "history.row_ramsch", deal=summary.deal_id, table=summary.table_id,
                     number=summary.deal_number, when=when, game=game)
        else:
            outcome = t(lang, "history.won" if summary.won else "history.lost")
            line = t(lang, "history.row", deal=summary.deal_id, table=summary.table_id, number=summary.deal_number,
                     when=when, name=_name(names.get(summary.declarer_id, "?")), game=game, outcome=outcome,
                     value=summary.value, score=signed(lang, summary.score))
        if player_name and summary.player_score is not None:
            line += " · " + t(lang, "history.player_score", name=_name(player_name),
                              score=signed(lang, summary.player_score))
        lines.append(line)
    lines.append(t(lang, "history.footer"))
    return "\n".join(lines)


def value_text(result: ValueAnswer, lang: Lang, deck: Deck) -> str:
    question = result.question
    lines = [t(lang, "value.title", game=contract_name(result.contract, lang, deck), bid=question.bid)]
    for key in result.implied:
        lines.append(t(lang, key))
    game = result.contract.game
    if game is GameType.NULL:
        lines.append(t(lang, "value.null", game=contract_name(result.contract, lang, deck), value=result.value))
    else:
        for index, step in enumerate(result.steps, start=1):
            lines.append(t(lang, "value.step_line", index=index, step=tn(lang, step.key, step.count) if step.key in COUNTED_STEPS
                           else t(lang, step.key),
                           total=step.total))
        lines.append(t(lang, "value.product", multiplier=result.multiplier, base=result.base,
                       game=game_name(game, lang, deck), value=result.value))
    if result.covers:
        lines.append(t(lang, "value.covers", value=result.value, bid=question.bid,
                       won=signed(lang, result.won_score), lost=signed(lang, result.lost_score)))
    elif game is GameType.NULL:
        lines.append(t(lang, "value.overbid_null", value=result.value, bid=question.bid,
                       lost=signed(lang, result.lost_score)))
    else:
        lines.append(t(lang, "value.overbid", value=result.value, bid=question.bid, base=result.base,
                       charged=result.charged, lost=signed(lang, result.lost_score)))
    return "\n".join(lines)


def settings_text(settings: ServerSettings, rules: RuleSet, lang: Lang) -> str:
    options = ", ".join(f"{option_name(name, lang)} = {option_value(_option_shown(value), lang)}"
                        for name, value in sorted(settings.rules.items()))
    lines = [
        t(lang, "settings.title"),
        t(lang, "settings.preset", preset=preset_name(settings.rule_preset, lang),
          options=options or t(lang, "settings.no_options")),
        t(lang, "settings.timers", turn=settings.turn_seconds, warning=settings.warning_seconds),
        t(lang, "settings.deck", deck=t(lang, f"settings.deck.{settings.deck_style}")),
        t(lang, "settings.language", language=language_name(settings.language)),
        t(lang, "settings.tables", tables=t(lang, f"settings.tables.{settings.channel_policy}")),
        t(lang, "settings.pictures", pictures=t(lang, "settings.pictures.on" if settings.pictures else
                                                "settings.pictures.off")),
        t(lang, "settings.organisers", organisers=organisers_shown(settings.organiser_role, lang)),
        t(lang, "settings.rules_head"),
    ]
    lines += [f"• {line}" for line in rules_lines(rules, lang)]
    lines.append(t(lang, "settings.how"))
    return "\n".join(lines)


def organisers_shown(role: int | None, lang: Lang) -> str:
    """Who organises tournaments: Manage Server, and the members of the server's organiser role if it has one."""
    return t(lang, "settings.organisers.role", role=f"<@&{role}>") if role else t(lang, "settings.organisers.none")


def changes_text(changes: Sequence[SettingChange], lang: Lang) -> str:
    lines = [t(lang, "settings.saved")]
    for change in changes:
        values = dict(change.values)
        if "deck" in values:
            values["deck"] = t(lang, f"settings.deck.{values['deck']}")
        if "language" in values:
            values["language"] = language_name(Lang(str(values["language"])))
        if "tables" in values:
            values["tables"] = t(lang, f"settings.tables.{values['tables']}")
        if "pictures" in values:
            values["pictures"] = t(lang, f"settings.pictures.{values['pictures']}")
        if "organisers" in values:
            role = values["organisers"]
            values["organisers"] = organisers_shown(role if isinstance(role, int) and role else None, lang)
        if "preset" in values:
            values["preset"] = preset_name(str(values["preset"]), lang)
        if "option" in values:
            values["option"] = option_name(str(values["option"]), lang)
            values["value"] = option_value(str(values["value"]), lang)
        lines.append("• " + t(lang, change.key, **values))
    return "\n".join(lines)


def preset_label(rules: RuleSet, preset: str, lang: Lang) -> str:
    """The preset the rules equal, or 'pub, with changes', or 'custom house rules'."""
    exact = rules.preset_name()
    if exact is not None:
        return preset_name(exact, lang)
    if preset in PRESETS:
        return t(lang, "rules.preset_changed", preset=preset_name(preset, lang))
    return t(lang, "rules.custom")


def rules_text(rules: RuleSet, lang: Lang, table_id: int | None, preset: str) -> str:
    preset = preset_label(rules, preset, lang)
    if table_id is None:
        head = t(lang, "rules.title_server", preset=preset)
    else:
        head = t(lang, "rules.title_table", table=table_id, preset=preset)
    return "\n".join([head] + [f"• {line}" for line in rules_lines(rules, lang)])


def help_text(page: int, lang: Lang) -> str:
    # The page names the lobby's buttons as the play catalog labels them, so the two cannot drift apart.
    # The languages come from the registry, so a new language needs no change to every help page.
    labels = {name: t(lang, f"button.{name}") for name in ("join", "add_ai", "start")}
    labels["languages"] = ", ".join(language.name for language in LANGUAGES)
    return t(lang, "help.title", page=page, pages=HELP_PAGES) + "\n\n" + t(lang, f"help.page{page}", **labels)


def _option_shown(value: object) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value) or "none"
    return str(value)
