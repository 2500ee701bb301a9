"""The event store's rows read from SQLite: the statuses a penalty can have, the queries
that read penalties and match results, and their rows as records.py's dataclasses (shared
by store.py and changes.py)."""
from __future__ import annotations

import json
import sqlite3

from ppgcheck.event.records import MatchResultRow, PenaltyRow

IN_FORCE, PENDING, VOID, SUPERSEDED = "in-force", "pending", "void", "superseded"
LIVE = (IN_FORCE, PENDING)          # statuses a judge can still void or amend


PENALTY_COLUMNS = """p.id, persons.name AS player, p.policy, p.infraction, p.penalty, p.permitted, p.chosen_by,
    p.status, p.day, p.round, p.table_no, p.judge, p.recorded_at, p.notes, p.time_extension, p.source,
    p.report_id, p.import_id, p.replaces"""
PENALTIES = f"SELECT {PENALTY_COLUMNS} FROM penalties p JOIN persons ON persons.id = p.person_id"
RESULTS = "SELECT m.*, r.status FROM match_results m JOIN reports r ON r.id = m.report_id"


def result_row(row: sqlite3.Row) -> MatchResultRow:
    return MatchResultRow(row["id"], row["report_id"], row["kind"], row["scope"], row["result"], row["winner"],
                          row["player"], row["penalty"], row["step"], row["section"], row["day"], row["round"],
                          row["table_no"], row["source"], row["status"])


def penalty_row(row: sqlite3.Row) -> PenaltyRow:
    return PenaltyRow(row["id"], row["player"], row["policy"], row["infraction"], row["penalty"],
                      json.loads(row["permitted"]), row["chosen_by"], row["status"], row["day"], row["round"],
                      row["table_no"], row["judge"], row["recorded_at"], row["notes"], row["time_extension"],
                      row["source"], row["report_id"], row["import_id"], row["replaces"])
