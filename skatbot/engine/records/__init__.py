"""Deal records: ISS game records and JSON, both replayed through the engine to recompute the result."""

from .errors import RecordError
from .iss import IssRecord, IssResult, contract_letters, export_moves, export_record, parse_record, replay
from .json import deal_from_json, deal_to_json, rules_from_json, rules_to_json

__all__ = [
    "IssRecord", "IssResult", "RecordError", "contract_letters", "deal_from_json", "deal_to_json", "export_moves",
    "export_record", "parse_record", "replay", "rules_from_json", "rules_to_json",
]
