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
from skatbot.models import DealRecord, LogEntry, Table

from .interfaces import Storage
from .recording import result_mismatches

FinishedDeals = Callable[[Table, tuple[LogEntry, ...]], Mapping[int, Deal]]
"""A table's log replayed: its finished deals by stored deal number; ValueError when the log does not replay."""


@dataclass(slots=True)
class CheckReport:
    deals: int = 0
    tables: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def check_record(record: DealRecord) -> list[str]:
    """Where a stored deal's own records fail to replay to its stored result."""
    name = f"deal {record.deal_id} (table {record.table_id} #{record.deal_number})"
    problems: list[str] = []
    try:
        document = json.loads(record.record_json)
        deal = deal_from_json(document)
    except (RecordError, json.JSONDecodeError) as error:
        return [f"{name}: the JSON record does not replay: {error}"]
    if not deal.is_over:
        return [f"{name}: the JSON record stops before the deal is over"]
    problems += [f"{name} (JSON): {m}" for m in result_mismatches(record, deal)]
    if record.iss:
        try:
            from_iss = replay(parse_record(record.iss), deal.rules)
        except RecordError as error:
            return problems + [f"{name}: the ISS record does not replay: {error}"]
        problems += [f"{name} (ISS): {m}" for m in result_mismatches(record, from_iss)]
    return problems


async def run_check(storage: Storage, finished_deals: FinishedDeals,
                    progress: Callable[[str], None] = lambda _: None) -> CheckReport:
    """Integrity check, then every deal against its records, then every table log against its deals."""
    report = CheckReport()
    report.problems += [f"integrity: {p}" for p in await storage.integrity_problems()]
    after = 0
    while batch := await storage.deals.iter_all(after_deal_id=after):
        for record in batch:
            report.problems += check_record(record)
        report.deals += len(batch)
        after = batch[-1].deal_id or after
        if report.deals % 10000 < len(batch):
            progress(f"{report.deals} deals checked")
    for table_id in await storage.tables.all_ids():
        report.tables += 1
        report.problems += await _check_table(storage, table_id, finished_deals)
    return report


async def _check_table(storage: Storage, table_id: int, finished_deals: FinishedDeals) -> list[str]:
    table = await storage.tables.get(table_id=table_id)
    log = await storage.tables.log(table_id=table_id)
    if [entry.seq for entry in log] != list(range(len(log))):
        return [f"table {table_id}: the log has gaps in its sequence numbers"]
    try:
        replayed = finished_deals(table, log)
    except ValueError as error:
        return [f"table {table_id}: the log does not replay: {error}"]
    problems = []
    for record in await storage.deals.for_table(table_id=table_id):
        deal = replayed.get(record.deal_number)
        if deal is None:
            if log:  # tables from before logging (imports) have records only
                problems.append(f"table {table_id}: deal {record.deal_number} is stored but not finished in the log")
            continue
        problems += [f"table {table_id} deal {record.deal_number} (log): {m}" for m in result_mismatches(record, deal)]
    return problems
