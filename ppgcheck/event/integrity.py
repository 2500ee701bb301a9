"""`ppgcheck event check`: SQLite's integrity check, the file's marks, and the invariants
the event store keeps (every report has its ruling and all its penalties, nothing of a
superseded or void report still counts, every change has its audit entry)."""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from ppgcheck.errors import StoreError
from ppgcheck.event import schema

# (query, message): each row the query returns breaks an invariant of the store
_INVARIANTS = [
    ("SELECT r.id FROM reports r LEFT JOIN rulings g ON g.report_id = r.id WHERE g.id IS NULL",
     "report #{} has no ruling (a partial write)"),
    ("SELECT g.report_id, g.issued, COUNT(p.id) FROM rulings g LEFT JOIN penalties p "
     "ON p.report_id = g.report_id AND p.replaces IS NULL GROUP BY g.id HAVING COUNT(p.id) != g.issued",
     "report #{}: its ruling issued {} penalties and {} are recorded (a partial write)"),
    ("SELECT p.id, r.id, r.status FROM penalties p JOIN reports r ON r.id = p.report_id "
     "WHERE r.status != 'in-force' AND p.status IN ('in-force', 'pending')",
     "penalty #{} still counts, though its report #{} is {}"),
    # (a source naming no file, `<stdin>`, identifies nothing: its reports never supersede each other)
    ("SELECT source, COUNT(*) FROM reports WHERE status = 'in-force' AND source NOT LIKE '<%' "
     "GROUP BY source HAVING COUNT(*) > 1",
     "`{}` has {} reports in force (one should supersede the others): amend the older one's file and "
     "submit it with --amend, or void the report recorded by mistake"),
    ("SELECT p.id FROM penalties p WHERE p.replaces IS NOT NULL AND NOT EXISTS "
     "(SELECT 1 FROM penalties o WHERE o.id = p.replaces AND o.status = 'superseded')",
     "penalty #{} replaces a penalty that is not superseded"),
    ("SELECT r.id FROM reports r WHERE NOT EXISTS (SELECT 1 FROM audit a WHERE a.report_id = r.id "
     "AND a.action IN ('submit', 'amend-report'))", "report #{} has no audit entry"),
    ("SELECT p.id FROM penalties p WHERE p.status = 'void' AND NOT EXISTS (SELECT 1 FROM audit a "
     "WHERE (a.action = 'void' AND a.penalty_id = p.id) OR (a.action = 'void-report' AND a.report_id = p.report_id))",
     "penalty #{} is void with no audit entry saying who voided it"),
    ("SELECT p.id FROM penalties p WHERE p.replaces IS NOT NULL AND NOT EXISTS (SELECT 1 FROM audit a "
     "WHERE a.action = 'amend' AND a.penalty_id = p.id)", "penalty #{} was amended with no audit entry"),
    ("SELECT id FROM event WHERE id != 1 UNION SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM event)",
     "the event row is missing or doubled ({})"),
]


def check_store(path: Path) -> tuple[list[str], dict[str, int]]:
    """`ppgcheck event check`: SQLite's integrity check, the file's marks, then the
    store's own invariants.  Returns (problems, rows per table); opens nothing for writing."""
    if not path.is_file():
        raise StoreError(f"no event store at `{path}`")
    with schema.sqlite_errors(path, writing=False):
        try:
            db = schema.connect(path)
            try:
                return _check(db)
            finally:
                db.close()
        except sqlite3.OperationalError:
            raise
        except sqlite3.DatabaseError as exc:
            return [f"not an SQLite database, or damaged beyond reading ({exc})"], {}


def _unreadable_rows(db: sqlite3.Connection) -> list[str]:
    """Every row of every table read, its text checked as UTF-8: bytes overwritten inside a row
    pass SQLite's integrity check, and a later `event show` would fail on them."""
    problems = []
    db.text_factory = bytes
    try:
        for table in sorted(schema.TABLES):
            cursor = db.execute(f"SELECT rowid, * FROM {table}")
            columns = [c[0] for c in cursor.description][1:]
            for rowid, *values in cursor:
                for column, value in zip(columns, values):
                    if isinstance(value, bytes):
                        try:
                            value.decode("utf-8")
                        except UnicodeDecodeError:
                            problems.append(f"{table} row {rowid}: `{column}` is not UTF-8 text (bytes "
                                            "overwritten in the file)")
    finally:
        db.text_factory = str
    return problems


def _check(db: sqlite3.Connection) -> tuple[list[str], dict[str, int]]:
    problems = [r[0] for r in db.execute("PRAGMA integrity_check") if r[0] != "ok"]
    version, problem = schema.mark(db)
    if problem or version == 0:
        return problems + [problem or "an empty SQLite file, not an event store"], {}
    problems += [f"foreign key broken: {r[0]} row {r[1]} -> {r[2]}" for r in db.execute("PRAGMA foreign_key_check")]
    for sql, message in _INVARIANTS:
        problems += [message.format(*r) for r in db.execute(sql)]
    problems += _unreadable_rows(db)
    db.text_factory = bytes         # (a row's bytes, decoded here: one overwritten is a problem, not an error)
    try:
        for row in db.execute("SELECT report_id, ruling_json, ruling_text, explained_text, checksum FROM rulings"):
            try:
                texts = [value.decode("utf-8") for value in row[1:4]]
                json.loads(texts[0])
            except (ValueError, AttributeError):
                problems.append(f"report #{row[0]}: its stored ruling is not JSON")
                continue
            if row[4] is not None and row[4].decode("ascii", "replace") != schema.ruling_checksum(*texts):
                problems.append(f"report #{row[0]}: its stored ruling does not match the checksum written with it "
                                "(changed in the file)")
    finally:
        db.text_factory = str
    counts = {name: db.execute(f"SELECT COUNT(*) FROM {name}").fetchone()[0]
              for name in ("reports", "penalties", "persons", "imports", "audit")}
    return problems, counts
