"""The event store: one event's reports, rulings and penalties, in SQLite (event/schema.py).

- A ruling is one transaction (BEGIN IMMEDIATE, so judges' rulings are serialised):
  it reads the penalties in force of the report's persons under its policy, gives
  them to the rules as the report's history, rules, and writes the report, the
  ruling (its full JSON and text) and one penalty row per issued penalty.
- A report is identified by its source name and its canonical print: submitting it
  again returns the stored ruling and writes nothing.  A changed report under the
  same source name supersedes the old one only when asked (`amend`), and the old
  one's penalties stop counting.  A source that names no file (`<stdin>`) is only
  an identity together with the content: such reports never supersede each other.
- Nothing is deleted: void, amend and supersede change a status, add a row and an
  audit entry.
- The store is thread-safe: each thread has its own connection, and nothing else is shared.

Python only moves recorded penalties into the history the rules count and records
what the ruling issued; which penalties make a repeat is decided by each pack.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator, Mapping
from datetime import datetime, timezone
from pathlib import Path

from ppgcheck.engine.render import render_text, ruling_dict, stored_ruling
from ppgcheck.engine.ruling import PlayerRuling, RulingSet
from ppgcheck.errors import NotRecorded, ResubmittedReport, StoreError
from ppgcheck.event import schema
from ppgcheck.event.changes import RecordChanges
from ppgcheck.event.records import AuditRow, Choice, ImportRow, MatchResultRow, PenaltyRow, Submission
from ppgcheck.event.rows import IN_FORCE, LIVE, PENALTIES, PENDING, RESULTS, penalty_row, result_row
from ppgcheck.event.settings import SettingsRecord
from ppgcheck.language.report import HistoryEntry, Report, print_report

def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def default_penalty(r: PlayerRuling) -> str | None:
    """The guide's default (None where it names none)."""
    return r.penalty


def permitted_penalties(r: PlayerRuling) -> list[str]:
    return list(r.permitted) or ([r.penalty] if r.penalty else [])


def _would_permit(rs: RulingSet, r: PlayerRuling, penalty: str) -> str:
    """Where a question of the ruling (when it has them) gives the judge's penalty for this
    infraction, the fact that would: what the judge may have seen and the report omits."""
    for q in rs.questions:
        if (q.player, q.infraction) == (r.player, r.infraction) and penalty in (q.penalty, *q.choose_from):
            return f"; the guide gives `{penalty}` if the report says: {q.add}"
    return ""


class EventStore(RecordChanges, SettingsRecord):
    """One event's store file: its path and one connection per thread that uses it."""

    def __init__(self, path: Path, create: bool = False, busy_timeout: float | None = None) -> None:
        self.path = Path(path)
        self.busy_timeout = schema.BUSY_TIMEOUT if busy_timeout is None else busy_timeout
        self._local = threading.local()
        if not self.path.exists():
            if not create:
                raise StoreError(f"no event store at `{self.path}`: `ppgcheck rule REPORT --event {self.path} "
                                 "--judge NAME` starts one")
            if not self.path.parent.is_dir():
                raise StoreError(f"cannot create the event store `{self.path}`: no folder `{self.path.parent}`")
            self._create()
        elif self.path.is_file() and self.path.stat().st_size == 0:
            # a store is created whole (_create), so an empty file is one that lost its content
            # (truncated): SQLite would take it for a new store and the event's history would be gone
            raise StoreError(f"`{self.path}` is an empty file (0 bytes), not an event store: its record is "
                             f"gone; {schema.check_hint(self.path)}, and restore it from a copy")
        with self._connection(writing=create) as db:
            db.execute("BEGIN")             # the marks and tables read as one snapshot
            try:
                version = schema.verify(db, self.path)
            finally:
                db.execute("ROLLBACK")
            if version < schema.SCHEMA_VERSION:
                if version == 0 and not create:        # an empty file, or a creation cut short
                    raise StoreError(f"`{self.path}` is empty, not an event store: {schema.check_hint(self.path)}")
                db.execute("PRAGMA journal_mode = WAL")
                schema.migrate(db, self.path, self.path.stem, now())

    def _create(self) -> None:
        """A new store, made whole beside its path and then linked into place: no file at the
        path is ever an empty store (a creation cut short leaves only the file beside it)."""
        fresh = self.path.with_name(f".{self.path.name}.{os.getpid()}.{threading.get_ident()}.new")
        with schema.sqlite_errors(self.path, True, self.busy_timeout):
            db = schema.connect(fresh, self.busy_timeout)
            try:
                db.execute("PRAGMA journal_mode = WAL")
                schema.migrate(db, self.path, self.path.stem, now())
            finally:
                db.close()
        try:
            os.link(fresh, self.path)
        except FileExistsError:         # another judge created it first: theirs is the store
            pass
        except OSError as exc:
            raise StoreError(f"cannot create the event store `{self.path}`: {exc.strerror}") from None
        finally:
            with contextlib.suppress(OSError):
                fresh.unlink()

    # --- connections ---------------------------------------------------------------
    @contextlib.contextmanager
    def _connection(self, writing: bool = False) -> Iterator[sqlite3.Connection]:
        """This thread's connection to the store.  It stays open between calls: closing
        the last connection checkpoints the WAL into the file, which cost a ruling ~4 ms."""
        with schema.sqlite_errors(self.path, writing, self.busy_timeout):
            db = getattr(self._local, "db", None)
            if db is None:
                db = self._local.db = schema.connect(self.path, self.busy_timeout)
            try:
                yield db
            except sqlite3.Error:
                self.close()                # a fresh connection next time
                raise

    def close(self) -> None:
        """Close this thread's connection (each thread that used the store has its own)."""
        db = getattr(self._local, "db", None)
        if db is not None:
            self._local.db = None
            with contextlib.suppress(sqlite3.Error):
                db.close()

    @contextlib.contextmanager
    def grouped(self) -> Iterator[None]:
        """This thread's writes, each still whole or nothing, committed together: one write
        transaction, each write a savepoint in it, so one sync to disk for all of them (the
        judge station records a batch's submissions so).  Nothing of the group is in the
        store until it ends: its caller answers none of them before."""
        with self._connection(writing=True) as db, self._committed(db):
            self._local.grouped = db
            try:
                yield
            finally:
                self._local.grouped = None

    @contextlib.contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: everything it does is committed, or nothing (in a group:
        a savepoint of the group's transaction)."""
        group = getattr(self._local, "grouped", None)
        if group is not None:
            with self._savepoint(group) as db:
                yield db
            return
        with self._connection(writing=True) as db, self._committed(db):
            yield db

    @contextlib.contextmanager
    def _committed(self, db: sqlite3.Connection) -> Iterator[None]:
        """A write transaction on this connection: committed at the end, rolled back on any error."""
        schema.begin_immediate(db, self.busy_timeout)
        try:
            yield
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise

    @contextlib.contextmanager
    def _savepoint(self, group: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
        with self._connection(writing=True) as db:
            if db is not group or not db.in_transaction:     # the group's transaction ended with an error
                raise StoreError(f"`{self.path}`: the transaction of these submissions was lost: none is recorded")
            db.execute("SAVEPOINT write")
            try:
                yield db
                db.execute("RELEASE write")
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK TO write")
                    db.execute("RELEASE write")
                raise

    @contextlib.contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        """One read transaction: a consistent snapshot (in a group: the group's, its writes too)."""
        group = getattr(self._local, "grouped", None)
        if group is not None:
            with self._savepoint(group) as db:
                yield db
            return
        with self._connection() as db:
            db.execute("BEGIN")
            try:
                yield db
            finally:
                db.execute("ROLLBACK")

    # --- submitting a report ----------------------------------------------------------
    def submit(self, report: Report, policy_id: str, judge: str, rule: Callable[[Report], RulingSet], *,
               rules_version: str, version: str, amend: bool = False,
               choices: dict[str, Choice] | None = None,
               not_recorded: Mapping[str, tuple[str, str]] | None = None) -> Submission:
        """Rule a report with its persons' penalties in force as its history and record it,
        in one transaction.  `rule` rules the report (its history filled in here).
        `not_recorded`: the penalties the guide does not record (PolicyEngine.not_recorded),
        kept in the log but given to no ruling as history."""
        if report.history:
            line = report.history[0].line
            text = report.line_text(line)
            raise report.error("this report has a `history:` block, and the event store gives the history: "
                               "use one of them", (line, len(text) - len(text.lstrip()) + 1))
        canonical = print_report(report)
        key = digest(f"{policy_id}\n{canonical}")      # --policy may rule a report without a `policy:` line
        source = report.name
        with self._write() as db:
            same = db.execute("SELECT id FROM reports WHERE source = ? AND digest = ?", (source, key)).fetchone()
            if same:
                return self._submission(db, same["id"], "already-recorded", not_recorded=not_recorded)
            # a source that names no file (`<stdin>`, `<report>`) identifies nothing: never superseded
            older = None if source.startswith("<") else db.execute(
                "SELECT id, position FROM reports WHERE source = ? AND status = 'in-force'", (source,)).fetchone()
            if older and not amend:
                held = f"`{source}` is already in the event with other content (report #{older['id']})"
                raise ResubmittedReport(f"{held}: pass --amend to supersede it", report.source, report.line, 1,
                                        report.line_text(report.line), recorded=older["id"], held=held)
            if older:
                position = older["position"]
            else:
                position = db.execute("SELECT COALESCE(MAX(position), 0) + 1 FROM reports").fetchone()[0]
            counted = self._history(db, report, policy_id, position, not_recorded)
            if report.day is None:      # the ruling takes the event's latest day, and says so
                report.event_day = self._latest_day(db)
            rs = self._ruled(report, counted, rule)
            day = report.day if report.day is not None else rs.day
            rows = self._penalties_of(rs, report, choices or {})
            at = now()
            report_id = db.execute(
                "INSERT INTO reports (source, digest, canonical, original, policy, day, round, table_no, "
                "time_extension, judge, submitted_at, status, supersedes, position) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'in-force', ?, ?)",
                (source, key, canonical, _original(report), policy_id, day, report.round, report.table,
                 rs.time_extension_minutes, judge, at, older["id"] if older else None, position)).lastrowid
            data = ruling_dict(rs)
            texts = (json.dumps(data, ensure_ascii=False), render_text(rs), render_text(rs, explain=True))
            ruling_id = db.execute(
                "INSERT INTO rulings (report_id, ruling_json, ruling_text, explained_text, exit_code, issued, "
                "ppgcheck_version, rules_version, ruled_at, checksum) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (report_id, *texts, rs.exit_code, len(rows), version, rules_version, at,
                 schema.ruling_checksum(*texts))).lastrowid
            for row in rows:
                db.execute(
                    "INSERT INTO penalties (report_id, person_id, policy, infraction, penalty, permitted, chosen_by, "
                    "status, observation, day, round, table_no, judge, recorded_at, notes, time_extension, source) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (report_id, self._person(db, row["player"]), policy_id, row["infraction"], row["penalty"],
                     json.dumps(row["permitted"]), row["chosen_by"], row["status"], row["observation"],
                     day, report.round, report.table, judge, at, row["notes"], rs.time_extension_minutes,
                     source))
            if rs.outcome is not None:              # the match's outcome, beside the penalties
                o = rs.outcome
                db.execute("INSERT INTO match_results (report_id, kind, scope, result, winner, player, penalty, step, "
                           "section, day, round, table_no, source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                           (report_id, o.kind, o.scope, o.result, o.winner, o.player, o.penalty, o.step, o.section,
                            day, report.round, report.table, source))
            for name, _ in report.persons:          # the event's roster
                self._person(db, name)
            db.executemany("INSERT INTO counted (ruling_id, penalty_id) VALUES (?, ?)",
                           [(ruling_id, p.id) for p in counted])
            self._audit(db, judge, "amend-report" if older else "submit", report_id=report_id,
                        detail={"source": source, "penalties": len(rows), "counted": [p.id for p in counted],
                                **({"supersedes": older["id"]} if older else {})}, at=at)
            if older:
                self._supersede_report(db, older["id"])
            return self._submission(db, report_id, "amended" if older else "recorded", counted, not_recorded)

    def _history(self, db: sqlite3.Connection, report: Report, policy_id: str, position: int,
                 not_recorded: Mapping[str, object] | None = None) -> list[PenaltyRow]:
        """The penalties in force of the report's persons under its policy, recorded before
        its place in the event (an amended report keeps the place of the one it replaces),
        but those the guide does not record (`not_recorded`: their penalty ids)."""
        return self._history_of(db, [name for name, _ in report.persons], policy_id, position, not_recorded)

    @staticmethod
    def _history_of(db: sqlite3.Connection, names: list[str], policy_id: str, position: int,
                    not_recorded: Mapping[str, object] | None = None) -> list[PenaltyRow]:
        marks = ", ".join("?" for _ in names)
        rows = db.execute(
            f"{PENALTIES} LEFT JOIN reports r ON r.id = p.report_id WHERE p.status = 'in-force' "
            f"AND p.policy = ? AND persons.name IN ({marks}) AND (p.report_id IS NULL OR r.position < ?) "
            "ORDER BY p.id", (policy_id, *names, position)).fetchall()
        return [row for row in map(penalty_row, rows) if row.penalty not in (not_recorded or {})]

    @staticmethod
    def _latest_day(db: sqlite3.Connection) -> int:
        """The latest day of the reports in force (1 before any): a report without `day:` is
        taken to be on it."""
        return db.execute("SELECT COALESCE(MAX(day), 1) FROM reports WHERE status = 'in-force'").fetchone()[0]

    @staticmethod
    def _ruled(report: Report, counted: list[PenaltyRow], rule: Callable[[Report], RulingSet]) -> RulingSet:
        """The report ruled with these penalties as its history (the report is left without one)."""
        report.history = [HistoryEntry(p.player, p.penalty, p.infraction, p.day) for p in counted]
        try:
            return rule(report)
        finally:
            report.history = []

    @staticmethod
    def _penalties_of(rs: RulingSet, report: Report, choices: dict[str, Choice]) -> list[dict]:
        """A row for every penalty the ruling issues: the guide's default, or the judge's
        choice among the permitted penalties; pending where the guide names no default
        (a set to choose from, one per omitted header value, or none at all: a gap the Head
        Judge decides, never left out of the record) and the judge chose none.  An absorbed
        penalty is not issued; `none` is no penalty."""
        call = report.judge_call
        rows = []
        for r in rs.rulings:
            default = default_penalty(r)
            if r.absorbed_by or default == "none" or (default is not None and not r.issued):
                continue
            permitted = permitted_penalties(r)
            choice = choices.get(r.infraction)
            if choice is None and call and call[0] == r.infraction:
                choice = Choice(call[1], "judge call", lambda m: report.error(m, "judge_call_penalty"))
            penalty, chosen_by = default, "guide"
            if choice is not None and choice.penalty != default:
                if permitted and choice.penalty not in permitted:
                    message = (f"{choice.origin} `{choice.penalty}` for {r.player}'s {r.infraction} is not a penalty "
                               "the guide permits here: it permits " + ", ".join(f"`{p}`" for p in permitted)
                               + _would_permit(rs, r, choice.penalty))
                    raise choice.error(message) if choice.error else StoreError(message)
                penalty, chosen_by = choice.penalty, "judge"
            observation = rs.observations[r.observation - 1] if 0 < r.observation <= len(rs.observations) else ""
            rows.append({"player": r.player, "infraction": r.infraction, "penalty": penalty,
                         "permitted": permitted, "chosen_by": chosen_by,
                         "status": IN_FORCE if penalty else PENDING, "observation": r.observation,
                         "notes": observation})
        return rows

    @staticmethod
    def _supersede_report(db: sqlite3.Connection, old: int) -> None:
        """The old version of an amended report and its live penalties stop counting."""
        db.execute("UPDATE reports SET status = 'superseded' WHERE id = ?", (old,))
        db.execute("UPDATE penalties SET status = 'superseded' WHERE report_id = ? AND status IN (?, ?)",
                   (old, *LIVE))

    @staticmethod
    def _person(db: sqlite3.Connection, name: str) -> int:
        db.execute("INSERT OR IGNORE INTO persons (name) VALUES (?)", (name,))
        return db.execute("SELECT id FROM persons WHERE name = ?", (name,)).fetchone()[0]

    @staticmethod
    def _audit(db: sqlite3.Connection, judge: str, action: str, *, reason: str = "", report_id: int | None = None,
               penalty_id: int | None = None, import_id: int | None = None, detail: dict | None = None,
               at: str | None = None) -> None:
        db.execute("INSERT INTO audit (at, judge, action, report_id, penalty_id, import_id, reason, detail) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                   (at or now(), judge, action, report_id, penalty_id, import_id, reason,
                    json.dumps(detail or {}, ensure_ascii=False)))

    def _submission(self, db: sqlite3.Connection, report_id: int, outcome: str,
                    counted: list[PenaltyRow] | None = None,
                    not_recorded: Mapping[str, tuple[str, str]] | None = None) -> Submission:
        row = db.execute("SELECT r.source, r.supersedes, r.judge, r.submitted_at, r.status, g.ruling_json, "
                         "g.ruling_text, g.explained_text, g.exit_code, g.id AS ruling_id FROM reports r "
                         "JOIN rulings g ON g.report_id = r.id WHERE r.id = ?", (report_id,)).fetchone()
        recorded = [penalty_row(p) for p in db.execute(f"{PENALTIES} WHERE p.report_id = ? ORDER BY p.id",
                                                    (report_id,))]
        if counted is None:
            counted = [penalty_row(p) for p in db.execute(
                f"{PENALTIES} JOIN counted c ON c.penalty_id = p.id WHERE c.ruling_id = ? ORDER BY p.id",
                (row["ruling_id"],))]
        result = db.execute(f"{RESULTS} WHERE m.report_id = ?", (report_id,)).fetchone()
        ruling = stored_ruling(json.loads(row["ruling_json"]))   # (earlier versions stored observations as strings)
        return Submission(outcome, str(self.path), report_id, row["source"], ruling,
                          row["ruling_text"], row["explained_text"], row["exit_code"], recorded, counted,
                          row["supersedes"], row["judge"], row["submitted_at"],
                          result_row(result) if result else None, row["status"],
                          {p.penalty: (not_recorded or {})[p.penalty] for p in recorded
                           if p.penalty in (not_recorded or {})})

    # --- imports ----------------------------------------------------------------------
    def import_rows(self, rows: list[ImportRow], source: str, fmt: str, text_digest: str,
                    judge: str) -> tuple[int, int, bool]:
        """Record imported penalties in one transaction.  Returns (import id, rows, new):
        the same file imported again writes nothing."""
        with self._write() as db:
            same = db.execute("SELECT id, rows FROM imports WHERE digest = ?", (text_digest,)).fetchone()
            if same:
                return same["id"], same["rows"], False
            at = now()
            import_id = db.execute("INSERT INTO imports (source, format, digest, judge, imported_at, rows) "
                                   "VALUES (?, ?, ?, ?, ?, ?)", (source, fmt, text_digest, judge, at,
                                                                 len(rows))).lastrowid
            for row in rows:
                db.execute(
                    "INSERT INTO penalties (import_id, person_id, policy, infraction, penalty, permitted, chosen_by, "
                    "status, day, round, table_no, judge, recorded_at, notes, time_extension, source) "
                    "VALUES (?, ?, ?, ?, ?, ?, 'import', 'in-force', ?, ?, ?, ?, ?, ?, ?, ?)",
                    (import_id, self._person(db, row.player), row.policy, row.infraction, row.penalty,
                     json.dumps([row.penalty]), row.day, row.round, row.table, row.judge,
                     row.time or at, row.notes, row.time_extension, row.source or f"{source}:{row.line}"))
            self._audit(db, judge, "import", import_id=import_id, detail={"source": source, "format": fmt,
                                                                          "rows": len(rows)}, at=at)
            return import_id, len(rows), True

    # --- reading --------------------------------------------------------------------
    def event_name(self) -> str:
        with self._read() as db:
            return db.execute("SELECT name FROM event").fetchone()[0]

    def penalties(self, player: str | None = None, day: int | None = None, round: int | None = None,
                  table: int | None = None, statuses: tuple[str, ...] = LIVE) -> list[PenaltyRow]:
        """The penalties with these statuses, in the order they were recorded (a player looked
        for by name whatever its case: `alice` finds Alice)."""
        where, args = [f"p.status IN ({', '.join('?' for _ in statuses)})"], list(statuses)
        for column, value in (("persons.name", player), ("p.day", day), ("p.round", round), ("p.table_no", table)):
            if value is not None:
                where.append(f"{column} = ?" + (" COLLATE NOCASE" if column == "persons.name" else ""))
                args.append(value)
        with self._read() as db:
            return [penalty_row(r) for r in db.execute(f"{PENALTIES} WHERE {' AND '.join(where)} ORDER BY p.id", args)]

    def report(self, report_id: int) -> Submission:
        with self._read() as db:
            if db.execute("SELECT 1 FROM reports WHERE id = ?", (report_id,)).fetchone() is None:
                raise NotRecorded(f"no report #{report_id} in `{self.path}`")
            return self._submission(db, report_id, "already-recorded")

    def submitted(self, report_id: int) -> tuple[str, str, str]:
        """A report's text as it was submitted, its source name and its policy."""
        with self._read() as db:
            row = db.execute("SELECT original, source, policy FROM reports WHERE id = ?", (report_id,)).fetchone()
            if row is None:
                raise NotRecorded(f"no report #{report_id} in `{self.path}`")
            return row["original"], row["source"], row["policy"]

    def audit(self, penalty_id: int | None = None, report_id: int | None = None) -> list[AuditRow]:
        """Who changed what and when, oldest first (for one penalty: its whole line of rows)."""
        with self._read() as db:
            if penalty_id is not None:
                chain = self._chain(db, penalty_id)
                report = db.execute("SELECT report_id FROM penalties WHERE id = ?", (penalty_id,)).fetchone()
                rows = db.execute(f"SELECT * FROM audit WHERE penalty_id IN ({', '.join('?' for _ in chain)}) "
                                  "OR (report_id IS NOT NULL AND report_id = ?) ORDER BY id",
                                  (*chain, report[0] if report else None)).fetchall()
            elif report_id is not None:
                rows = db.execute("SELECT * FROM audit WHERE report_id = ? OR penalty_id IN "
                                  "(SELECT id FROM penalties WHERE report_id = ?) ORDER BY id",
                                  (report_id, report_id)).fetchall()
            else:
                rows = db.execute("SELECT * FROM audit ORDER BY id").fetchall()
            return [AuditRow(r["id"], r["at"], r["judge"], r["action"], r["report_id"], r["penalty_id"],
                             r["import_id"], r["reason"], json.loads(r["detail"])) for r in rows]

    @staticmethod
    def _chain(db: sqlite3.Connection, penalty_id: int) -> list[int]:
        """A penalty and every row it replaced or that replaced it."""
        chain, todo = set(), [penalty_id]
        while todo:
            current = todo.pop()
            if current in chain:
                continue
            chain.add(current)
            row = db.execute("SELECT replaces FROM penalties WHERE id = ?", (current,)).fetchone()
            if row and row[0] is not None:
                todo.append(row[0])
            todo.extend(r[0] for r in db.execute("SELECT id FROM penalties WHERE replaces = ?", (current,)))
        return sorted(chain)

    def match_results(self, day: int | None = None, round: int | None = None, table: int | None = None,
                      everything: bool = False) -> list[MatchResultRow]:
        """The outcomes of the matches the reports in force gave (with `everything`, of every
        report), in the order they were recorded."""
        where, args = ([] if everything else ["r.status = 'in-force'"]), []
        for column, value in (("m.day", day), ("m.round", round), ("m.table_no", table)):
            if value is not None:
                where.append(f"{column} = ?")
                args.append(value)
        with self._read() as db:
            return [result_row(r) for r in db.execute(
                RESULTS + (f" WHERE {' AND '.join(where)}" if where else "") + " ORDER BY m.id", args)]

    def time_extensions(self) -> list[dict]:
        """Per day, round and table, the minutes of time extension the reports in force gave
        (and imported rows, once per report they name): round 3 of day 1 is not round 3 of day 2."""
        with self._read() as db:
            rows = db.execute(
                "SELECT day, round, table_no, time_extension AS minutes, source FROM reports "
                "WHERE status = 'in-force' AND time_extension > 0 UNION "
                "SELECT DISTINCT day, round, table_no, time_extension, source FROM penalties "
                "WHERE import_id IS NOT NULL AND status = 'in-force' AND time_extension > 0").fetchall()
        tables: dict[tuple, dict] = {}
        for row in rows:
            key = (row["day"], row["round"], row["table_no"])
            entry = tables.setdefault(key, {"day": row["day"], "round": row["round"], "table": row["table_no"],
                                            "minutes": 0, "sources": []})
            entry["minutes"] += row["minutes"]
            entry["sources"].append(row["source"])
        return [tables[k] for k in sorted(tables, key=lambda k: [(v is None, v or 0) for v in k])]

def _original(report: Report) -> str:
    """The report's own lines as submitted (a file may hold several reports)."""
    lines = report.lines[report.line - report.line_offset - 1:] if report.lines else []
    out = []
    for line in lines:
        if line.strip() == "---":
            break
        out.append(line)
    return "\n".join(out).rstrip("\n") + "\n" if out else ""
