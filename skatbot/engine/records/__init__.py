"""Deal records: ISS game records and JSON, both replayed through the engine to recompute the result."""

from .errors import RecordError
from .iss import IssRecord, IssResult, contract_letters, export_moves, export_record, parse_record, replay

__all__ = [
    "IssRecord", "IssResult", "RecordError", "contract_letters", "export_moves", "export_record", "parse_record",
    "replay",
]
