"""Maintenance checks: the database is sound, and every stored deal replays to its stored result.

Each deal is checked three ways where it can be: its JSON record, its ISS record (absent for Ramsch
and Kontra games, which the ISS format cannot hold), and the table log it was played from. The log is
the tables layer's text, so its replayer is passed in (`skatbot.wiring.finished_deals`): storage keeps
the entries but never interprets them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from skatbot.engine import Deal
from skatbot.engine.records import RecordError, deal_from_json, parse_record, replay
from skatbot.models import DealRecord, LogEntry, TableRecord

from .interfaces import Storage
from .recording import result_mismatches

FinishedDeals = Callable[[TableRecord, tuple[LogEntry, ...]], Mapping[int, Deal]]
"""A table's log replayed: its finished deals by stored deal number; ValueError when the log does not replay."""


Problem = tuple[str, str]
"""(kind, text): the kind groups alike problems ("deals whose JSON record disagrees on value"), so that a faulty
database's thousands of them are summed up by kind."""


@dataclass(slots=True)
class CheckReport:
    deals: int = 0
    tables: int = 0
    by_kind: dict[str, list[str]] = field(default_factory=dict)  # kind -> its problems, in the order found

    def add(self, problems: list[Problem]) -> None:
        for kind, text in problems:
            self.by_kind.setdefault(kind, []).append(text)

    @property
    def problems(self) -> list[str]:
        return [text for texts in self.by_kind.values() for text in texts]

    @property
    def ok(self) -> bool:
        return not self.by_kind


def _disagreements(source: str, name: str, mismatches: list[str]) -> list[Problem]:
    """Each of `result_mismatches`' lines ("value: stored 36, replay gives 48") as a problem of its field's kind."""
    short = {"table log": "log"}.get(source, source.split()[0])  # "log", "JSON", "ISS"
    return [(f"deals whose {source} disagrees on {m.split(':')[0]}", f"{name} ({short}): {m}") for m in mismatches]


def check_record(record: DealRecord) -> list[Problem]:
    """Where a stored deal's own records fail to replay to its stored result."""
    name = f"deal {record.deal_id} (table {record.table_id} #{record.deal_number})"
    problems: list[Problem] = []
    try:
        document = json.loads(record.record_json)
        deal = deal_from_json(document)
    except (RecordError, json.JSONDecodeError) as error:
        return [("deals whose JSON record does not replay", f"{name}: the JSON record does not replay: {error}")]
    if not deal.is_over:
        return [("deals whose JSON record stops early", f"{name}: the JSON record stops before the deal is over")]
    problems += _disagreements("JSON record", name, result_mismatches(record, deal))
    if record.iss:
        try:
            from_iss = replay(parse_record(record.iss), deal.rules)
        except RecordError as error:
            return problems + [("deals whose ISS record does not replay",
                                f"{name}: the ISS record does not replay: {error}")]
        problems += _disagreements("ISS record", name, result_mismatches(record, from_iss))
    return problems


async def run_check(storage: Storage, finished_deals: FinishedDeals,
                    progress: Callable[[str], None] = lambda _: None) -> CheckReport:
    """Integrity check, then every deal against its records, then every table log against its deals."""
    report = CheckReport()
    report.add([("integrity", f"integrity: {p}") for p in await storage.integrity_problems()])
    after = 0
    while batch := await storage.deals.iter_all(after_deal_id=after):
        for record in batch:
            report.add(check_record(record))
        report.deals += len(batch)
        after = batch[-1].deal_id or after
        if report.deals % 10000 < len(batch):
            progress(f"{report.deals} deals checked")
    for table_id in await storage.tables.all_ids():
        report.tables += 1
        report.add(await _check_table(storage, table_id, finished_deals))
    return report


async def _check_table(storage: Storage, table_id: int, finished_deals: FinishedDeals) -> list[Problem]:
    table = await storage.tables.get(table_id=table_id)
    log = await storage.tables.log(table_id=table_id)
    if [entry.seq for entry in log] != list(range(len(log))):
        return [("tables whose log has gaps", f"table {table_id}: the log has gaps in its sequence numbers")]
    try:
        replayed = finished_deals(table, log)
    except ValueError as error:
        return [("tables whose log does not replay", f"table {table_id}: the log does not replay: {error}")]
    problems: list[Problem] = []
    for record in await storage.deals.for_table(table_id=table_id):
        deal = replayed.get(record.deal_number)
        if deal is None:
            if log:  # tables from before logging (imports) have records only
                problems.append(("deals stored but not finished in their table's log",
                                 f"table {table_id}: deal {record.deal_number} is stored but not finished in the log"))
            continue
        problems += _disagreements("table log", f"table {table_id} deal {record.deal_number}",
                                   result_mismatches(record, deal))
    return problems
