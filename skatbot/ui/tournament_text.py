"""What a tournament shows: the sign-up list, the draw, the standings, the final list with the fees booked,
and the export. Pure formatting from values (the organiser computes them from the stored deals)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping, Sequence
from typing import Any

import discord

from skatbot.tournaments import Drawn, Standing, TournamentError, TournamentState, fees_of
from skatbot.tournaments.log import Stage

from .fit import ELLIPSIS, Limit, fit, fit_lines
from .i18n import t, tn
from .languages import Lang
from .refusals import refusal_reply


def money(cents: int) -> str:
    return f"{cents // 100}.{cents % 100:02d}"


def signed(points: int) -> str:
    return f"+{points}" if points > 0 else str(points)


def shown(text: str) -> str:
    """A name players or the organiser chose, safe in a public message: no mention pings, no markdown."""
    return discord.utils.escape_markdown(discord.utils.escape_mentions(text))


def _name(names: Mapping[int, str], player: int) -> str:
    return shown(names.get(player, "?"))


def series_done_text(series: int, name: str, lang: Lang, waiting: TournamentError | None = None) -> str:
    """A series is over at every table: the organiser starts the next with /tournament next or, when the next
    series starts by itself but waits (`waiting`: why /tournament next would be refused now), why it waits."""
    if waiting is None:
        return t(lang, "tournament.series_done", series=series, name=shown(name))
    if waiting.key == "player_busy":
        return t(lang, "tournament.series_done_busy", series=series, name=shown(name),
                 names=shown(str(waiting.values.get("names", "?"))))
    return t(lang, "tournament.series_done_waits", series=series, name=shown(name),
             reason=refusal_reply(waiting, lang))


def rules_line(state: TournamentState, lang: Lang) -> str:
    s = state.settings
    tables = t(lang, "tournament.tables.three" if s.three else "tournament.tables.auto")
    line = t(lang, "tournament.format", series=s.series, deals=s.deals, deals4=s.deals_at(4), tables=tables,
             rules=t(lang, f"preset.{s.preset}"))
    if s.ai_fill:
        line += " · " + t(lang, "tournament.ai_fill")
    if s.entry_fee or s.lost_fee:
        line += " · " + t(lang, "tournament.fees", entry=money(s.entry_fee), lost=money(s.lost_fee))
    return line


def signup_text(tournament_id: int, name: str, state: TournamentState, lang: Lang,
                start_at: int | None = None) -> str:
    """The sign-up message: the tournament, its format, who has joined (and whether sign-up is still open)."""
    lines = [t(lang, "tournament.signup.title", id=tournament_id, name=shown(name)), rules_line(state, lang)]
    if start_at is not None and state.phase is Stage.SIGNUP:
        lines.append(t(lang, "tournament.signup.starts", at=f"<t:{start_at}:F>"))
    players = [shown(player) for player in state.players.values()]
    lines.append(t(lang, "tournament.signup.players", count=len(players)))
    head = len(lines)  # too many names for one message: the earliest give way, never the head or how to join
    lines += [f"{n}. {player}" for n, player in enumerate(players, 1)] or [t(lang, "tournament.signup.nobody")]
    if state.phase is Stage.SIGNUP:
        lines.append(t(lang, "tournament.signup.how"))
    else:
        lines.append(t(lang, "tournament.signup.closed"))
    return fit_lines(lines, Limit.CONTENT, first_droppable=head)


def draw_texts(drawn: Drawn, names: Mapping[int, str], threads: Mapping[int, int], lang: Lang) -> list[str]:
    """A series' tables: drawn by lot with the seed shown (series 1), or set by the standings; every table with
    its thread, in as many messages as it takes (the first with the seed), so everyone finds their table."""
    head = (t(lang, "tournament.drawn.lot", series=drawn.series, seed=drawn.seed) if drawn.seed
            else t(lang, "tournament.drawn.seeded", series=drawn.series))
    lines = [head]
    for index, table in enumerate(drawn.tables, 1):
        people = [_name(names, p) for p in table.players] + [t(lang, "tournament.ai_seat")] * table.ais
        where = f" → <#{threads[index]}>" if index in threads else ""
        lines.append(t(lang, "tournament.drawn.table", table=index, players=", ".join(people)) + where)
    return in_messages(lines)


def standings_lines(table: Sequence[Standing], names: Mapping[int, str], lang: Lang,
                    stand_ins: Mapping[int, int] | None = None) -> list[str]:
    """One line per player; a player for whom an AI stand-in played is marked with how many deals."""
    lines = [t(lang, "tournament.standings.header")]
    for s in table:
        where = t(lang, "tournament.standings.table", table=s.table) if s.table is not None else ""
        line = t(lang, "tournament.standings.line", place=s.place, name=_name(names, s.player),
                 points=signed(s.points), won=s.won, lost=s.lost, table=where).rstrip()
        covered = (stand_ins or {}).get(s.player, 0)
        if covered:
            line += " " + tn(lang, "tournament.standings.stand_in", covered)
        lines.append(line)
    return lines


def standings_text(tournament_id: int, name: str, state: TournamentState, table: Sequence[Standing],
                   lang: Lang, *, deals: int, stand_ins: Mapping[int, int] | None = None,
                   reader: int | None = None) -> str:
    """The live standings: after which series, how many deals stored, the list, and the tie rule named. Too
    long for one message (a big club evening): the leaders stay and the rest goes from the bottom, marked by
    "…"; the `reader`'s own line is kept below it (/tournament standings)."""
    if state.phase is Stage.ENDED:
        title = t(lang, "tournament.standings.final" if state.ended == "finished" else "tournament.standings.stopped",
                  id=tournament_id, name=shown(name))
    else:
        title = t(lang, "tournament.standings.title", id=tournament_id, name=shown(name), series=state.series,
                  of=state.settings.series, deals=deals)
    header, *rows = standings_lines(table, state.players, lang, stand_ins)
    tail = [t(lang, "tournament.tiebreak")]
    if len("\n".join([title, header, *rows, *tail])) <= Limit.CONTENT:
        return fit("\n".join([title, header, *rows, *tail]), Limit.CONTENT)
    own = next((row for s, row in zip(table, rows, strict=True) if s.player == reader), None)
    cut = [ELLIPSIS, own] if own is not None else [ELLIPSIS]
    kept = list(rows)
    while kept and len("\n".join([title, header, *kept, *cut, *tail])) > Limit.CONTENT:
        kept.pop()
    if own in kept:
        cut = [ELLIPSIS]
    return fit_lines([title, header, *kept, *cut, *tail], Limit.CONTENT)


def in_messages(lines: Sequence[str], limit: int = Limit.CONTENT) -> list[str]:
    """The lines in as few messages as they fit, none dropped (a line longer than a message alone is cut)."""
    parts: list[list[str]] = [[]]
    for line in (fit(line, limit) for line in lines):
        if parts[-1] and len("\n".join([*parts[-1], line])) > limit:
            parts.append([])
        parts[-1].append(line)
    return ["\n".join(part) for part in parts if part]


def final_texts(tournament_id: int, name: str, state: TournamentState, table: Sequence[Standing], lang: Lang,
                stand_ins: Mapping[int, int] | None = None) -> list[str]:
    """The final list (or the list as it stood when the organiser stopped), with the fees booked: whole, in as
    many messages as it needs (the first starts with its title), so no place and no fee is left out."""
    lines = [t(lang, "tournament.final.title" if state.ended == "finished" else "tournament.final.stopped",
               id=tournament_id, name=shown(name))]
    lines += standings_lines(table, state.players, lang, stand_ins)
    settings = state.settings
    if settings.entry_fee or settings.lost_fee:
        lines.append(t(lang, "tournament.final.fees"))
        for s in table:
            fees = fees_of(s, entry_fee=settings.entry_fee, per_lost_game=settings.lost_fee)
            lines.append(t(lang, "tournament.final.fee_line", name=_name(state.players, s.player),
                           total=money(fees.total), entry=money(fees.entry), lost=s.lost, lost_fees=money(fees.lost_games)))
    lines.append(t(lang, "tournament.tiebreak"))
    return in_messages(lines)


CSV_COLUMNS = ("series", "table", "table_id", "deal", "player_id", "player", "seeger", "score", "role",
               "declarer_id", "game", "contract", "won", "value")


def export_csv(rows: Sequence[Mapping[str, Any]]) -> str:
    """One line per player and deal: enough to recompute every Seeger-Fabian sum in a spreadsheet."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow(row)
    return out.getvalue()


def export_json(document: Mapping[str, Any]) -> str:
    return json.dumps(document, ensure_ascii=False, indent=1, sort_keys=True)
