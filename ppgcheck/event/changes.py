"""What a judge changes in an event's record after it is written: void a penalty or a
report, amend a penalty, rule a report again with the penalties in force now.  Nothing is
deleted: a change supersedes or voids a row and says so in the audit.  Mixed into
EventStore (store.py), whose transactions, history and penalty rows these use."""
from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Mapping

from ppgcheck.engine.ruling import RulingSet
from ppgcheck.errors import NotRecorded, StoreError
from ppgcheck.event.records import PenaltyRow
from ppgcheck.event.rows import IN_FORCE, LIVE, PENALTIES, PENALTY_COLUMNS, RESULTS, penalty_row
from ppgcheck.language.report import Report


class RecordChanges:
    """Void, amend and rule again (EventStore's: self._write, _read, _audit, _history, _ruled,
    _chain, _penalties_of)."""

    def void(self, penalty_id: int, reason: str, judge: str) -> tuple[PenaltyRow, list[int]]:
        """Void a penalty in force or pending.  Returns it and the reports whose rulings counted it."""
        with self._write() as db:
            row = self._live_penalty(db, penalty_id)
            db.execute("UPDATE penalties SET status = 'void' WHERE id = ?", (penalty_id,))
            self._audit(db, judge, "void", reason=reason, penalty_id=penalty_id,
                        detail={"status": row.status, "penalty": row.penalty})
            return self._penalty_by_id(db, penalty_id), self._counted_by(db, penalty_id)

    def void_report(self, report_id: int, reason: str, judge: str) -> list[PenaltyRow]:
        """Void a report in force (a report ruled by mistake) and every live penalty of it."""
        with self._write() as db:
            self._report_in_force(db, report_id, "voided")
            db.execute("UPDATE reports SET status = 'void' WHERE id = ?", (report_id,))
            voided = [r[0] for r in db.execute("SELECT id FROM penalties WHERE report_id = ? AND status IN (?, ?)",
                                                (report_id, *LIVE))]
            for penalty_id in voided:
                db.execute("UPDATE penalties SET status = 'void' WHERE id = ?", (penalty_id,))
            self._audit(db, judge, "void-report", reason=reason, report_id=report_id, detail={"penalties": voided})
            return [self._penalty_by_id(db, p) for p in voided]

    def amend(self, penalty_id: int, reason: str, judge: str, penalty: str | None = None,
              notes: str | None = None,
              known_penalties: Callable[[str], list[str]] | None = None) -> PenaltyRow:
        """Replace a live penalty by a new row with another permitted penalty (resolving a
        pending one) and/or other notes; the old row is superseded, never changed otherwise."""
        with self._write() as db:
            old = self._live_penalty(db, penalty_id)
            new_penalty = old.penalty if penalty is None else penalty
            if penalty is not None:
                # where the guide permits nothing it names, the judge picks from the policy's ladder
                allowed = old.permitted or (known_penalties(old.policy) if known_penalties else [])
                if penalty not in allowed:
                    raise StoreError(f"`{penalty}` is not a penalty the guide permits for penalty #{penalty_id} "
                                     f"({old.infraction}): it permits " + ", ".join(f"`{p}`" for p in allowed))
            if new_penalty is None:
                among = (", ".join(f"`{p}`" for p in old.permitted) if old.permitted
                         else "the policy's penalties: the guide names none here")
                raise StoreError(f"penalty #{penalty_id} is pending: choose its penalty with --penalty (one of "
                                 f"{among})")
            chosen_by = old.chosen_by if penalty is None or (penalty == old.penalty) else "judge"
            new_id = self._replace(db, old, new_penalty, old.permitted, chosen_by, IN_FORCE,
                                   old.notes if notes is None else notes)
            self._audit(db, judge, "amend", reason=reason, penalty_id=new_id,
                        detail={"replaces": penalty_id, "penalty": [old.penalty, new_penalty],
                                **({"notes": [old.notes, notes]} if notes is not None else {})})
            return self._penalty_by_id(db, new_id)

    def rerule(self, report_id: int, report: Report, judge: str, reason: str, rule: Callable[[Report], RulingSet],
               rules_version: str = "", not_recorded: Mapping[str, object] | None = None
               ) -> tuple[list[tuple[PenaltyRow, PenaltyRow]], list[PenaltyRow]]:
        """Rule a report in force again (`report`, read back from its stored text) with its
        persons' penalties in force now, at its place in the event, and amend each of its live
        penalties the new ruling changes as `amend` does: a new row in force, the old one
        superseded, an audit entry each.  A penalty a judge chose stays where the new
        ruling still permits it; the audit names the rules it was ruled with (`rules_version`);
        the penalties the guide does not record (`not_recorded`) are not its history.
        Returns (old, new) for each change ([]: the ruling stands)
        and the penalties the new ruling counted.  A new ruling that issues other penalties,
        or gives the match another outcome, is refused: that is a new report."""
        with self._write() as db:
            row = self._report_in_force(db, report_id, "ruled again")
            counted = self._history(db, report, row["policy"], row["position"], not_recorded)
            if report.day is None:      # the day it was recorded on, not the event's latest now
                report.event_day = row["day"]
            rs = self._ruled(report, counted, rule)
            changes = self._changed(db, report_id, self._penalties_of(rs, report, {}), rs)
            ruling_id = db.execute("SELECT id FROM rulings WHERE report_id = ?", (report_id,)).fetchone()[0]
            out = []
            for old, new in changes:
                new_id = self._replace(db, old, new["penalty"], new["permitted"], new["chosen_by"], new["status"],
                                       old.notes)
                self._audit(db, judge, "amend", reason=reason, penalty_id=new_id,
                            detail={"replaces": old.id, "penalty": [old.penalty, new["penalty"]],
                                    "ruled_again": report_id, "counted": [p.id for p in counted],
                                    "rules_version": rules_version})
                out.append((old, self._penalty_by_id(db, new_id)))
            if out:     # what the ruling counts now, for a later void to name it
                db.executemany("INSERT OR IGNORE INTO counted (ruling_id, penalty_id) VALUES (?, ?)",
                               [(ruling_id, p.id) for p in counted])
            else:       # the ruling stands: the history says it was looked at again
                self._audit(db, judge, "rerule", reason=reason, report_id=report_id,
                            detail={"penalties": "stand", "counted": [p.id for p in counted],
                                    "rules_version": rules_version})
            return out, counted

    def _changed(self, db: sqlite3.Connection, report_id: int, rows: list[dict],
                 rs: RulingSet) -> list[tuple[PenaltyRow, dict]]:
        """The report's live penalties the new ruling's rows change, each with its new row."""
        live = {(p["player"], p["infraction"], p["observation"]): penalty_row(p) for p in db.execute(
            f"SELECT {PENALTY_COLUMNS}, p.observation FROM penalties p JOIN persons ON persons.id = p.person_id "
            "WHERE p.report_id = ? AND p.status IN (?, ?)", (report_id, *LIVE))}
        fresh = {(r["player"], r["infraction"], r["observation"]): r for r in rows}
        if live.keys() != fresh.keys():
            def named(keys) -> str:
                return ", ".join(f"{player}: {infraction}" for player, infraction, _ in sorted(keys)) or "none"
            raise StoreError(f"ruled again, report #{report_id} issues other penalties ({named(fresh)}) than those "
                             f"in force ({named(live)}): void it and submit the report anew")
        stored = db.execute(f"{RESULTS} WHERE m.report_id = ?", (report_id,)).fetchone()
        outcome = rs.outcome
        fields = ("kind", "scope", "result", "winner", "player", "penalty", "step")
        if (stored is None) != (outcome is None) or (stored is not None and (
                tuple(stored[f] for f in fields) != tuple(getattr(outcome, f) for f in fields))):
            raise StoreError(f"ruled again, report #{report_id} gives the match another outcome: void it and "
                             "submit the report anew")
        changes = []
        for key, old in sorted(live.items(), key=lambda item: item[1].id):
            new = dict(fresh[key])
            if old.chosen_by == "judge" and old.penalty in new["permitted"]:
                new.update(penalty=old.penalty, chosen_by="judge", status=IN_FORCE)
            if (new["penalty"], new["permitted"], new["status"]) != (old.penalty, old.permitted, old.status):
                changes.append((old, new))
        return changes

    def _report_in_force(self, db: sqlite3.Connection, report_id: int, change: str) -> sqlite3.Row:
        """The report's row (status, policy, place, day), which must be in force to be `change`d."""
        row = db.execute("SELECT status, policy, position, day FROM reports WHERE id = ?", (report_id,)).fetchone()
        if row is None:
            raise NotRecorded(f"no report #{report_id} in `{self.path}`")
        if row["status"] != IN_FORCE:
            raise StoreError(f"report #{report_id} is {row['status']}: only a report in force can be {change}")
        return row

    @staticmethod
    def _replace(db: sqlite3.Connection, old: PenaltyRow, penalty: str | None, permitted: list[str],
                 chosen_by: str, status: str, notes: str) -> int:
        """A new row in place of a live penalty (the same person, report and place, `replaces`
        naming it), the old one superseded; the new row's id."""
        new_id = db.execute(
            "INSERT INTO penalties (report_id, import_id, person_id, policy, infraction, penalty, permitted, "
            "chosen_by, status, observation, day, round, table_no, judge, recorded_at, notes, time_extension, "
            "source, replaces) SELECT report_id, import_id, person_id, policy, infraction, ?, ?, ?, ?, "
            "observation, day, round, table_no, judge, recorded_at, ?, time_extension, source, id "
            "FROM penalties WHERE id = ?",
            (penalty, json.dumps(permitted), chosen_by, status, notes, old.id)).lastrowid
        db.execute("UPDATE penalties SET status = 'superseded' WHERE id = ?", (old.id,))
        return new_id

    def _live_penalty(self, db: sqlite3.Connection, penalty_id: int) -> PenaltyRow:
        row = self._penalty_by_id(db, penalty_id)
        if row.status not in LIVE:
            later = db.execute("SELECT id FROM penalties WHERE replaces = ?", (penalty_id,)).fetchone()
            hint = f" (replaced by #{later[0]})" if later else ""
            raise StoreError(f"penalty #{penalty_id} is {row.status}{hint}: only a penalty in force or pending "
                             "can be changed")
        return row

    def _penalty_by_id(self, db: sqlite3.Connection, penalty_id: int) -> PenaltyRow:
        row = db.execute(f"{PENALTIES} WHERE p.id = ?", (penalty_id,)).fetchone()
        if row is None:
            raise NotRecorded(f"no penalty #{penalty_id} in `{self.path}`")
        return penalty_row(row)

    def penalty(self, penalty_id: int) -> PenaltyRow:
        """One penalty row, whatever its status."""
        with self._read() as db:
            return self._penalty_by_id(db, penalty_id)

    def later_reports_of(self, penalty_id: int) -> list[int]:
        """The reports in force after the penalty's report (all of them, for an imported
        penalty) that issue its person a penalty under its policy: the rulings the penalty
        would change as their history."""
        with self._read() as db:
            row = db.execute("SELECT p.person_id, p.policy, COALESCE(r.position, 0) AS position FROM penalties p "
                             "LEFT JOIN reports r ON r.id = p.report_id WHERE p.id = ?", (penalty_id,)).fetchone()
            if row is None:
                raise NotRecorded(f"no penalty #{penalty_id} in `{self.path}`")
            return [r[0] for r in db.execute(
                "SELECT DISTINCT r.id FROM penalties p JOIN reports r ON r.id = p.report_id WHERE p.person_id = ? "
                "AND p.policy = ? AND p.status IN (?, ?) AND r.status = 'in-force' AND r.position > ? ORDER BY r.id",
                (row["person_id"], row["policy"], *LIVE, row["position"]))]

    def stale_rulings(self, not_recorded_of: Callable[[str], Mapping[str, object]] = lambda _policy: {}
                      ) -> list[int]:
        """The reports in force whose rulings counted another history than the store gives them
        now (a penalty they counted voided or changed; one chosen, imported or made one the
        guide records since): each needs ruling again (`rerule`) until a rule-again counts the
        history of now.  A report's history is read for the persons its ruling issued penalties
        to or counted penalties of (its other persons' history changes none of its penalties);
        a ruling whose audit does not say what it counted (a store of an older version) is left
        out.  not_recorded_of(policy): the penalties the guide does not record.  (Read in three
        queries and compared here: the station's record asks on every load.)"""
        def seen(rows) -> list[tuple]:
            return sorted((p.player, p.penalty or "", p.infraction, p.day or 0) for p in rows)
        with self._read() as db:
            last: dict[int, list[int]] = {}         # each report's latest ruling: what it counted
            for row in db.execute("SELECT action, report_id, detail FROM audit WHERE detail LIKE '%\"counted\"%' "
                                  "ORDER BY id"):
                detail = json.loads(row["detail"])
                if not isinstance(detail.get("counted"), list):
                    continue
                if row["action"] in ("submit", "amend-report", "rerule") and row["report_id"] is not None:
                    last[row["report_id"]] = detail["counted"]
                elif row["action"] == "amend" and isinstance(detail.get("ruled_again"), int):
                    last[detail["ruled_again"]] = detail["counted"]
            if not last:
                return []
            # every penalty, with its report's place (0: imported, before every report)
            rows = {r["id"]: (penalty_row(r), r["position"]) for r in db.execute(
                f"SELECT {PENALTY_COLUMNS}, COALESCE(rp.position, 0) AS position FROM penalties p JOIN persons "
                "ON persons.id = p.person_id LEFT JOIN reports rp ON rp.id = p.report_id")}
            unrecorded: dict[str, Mapping[str, object]] = {}
            history: dict[tuple[str, str], list[tuple[int, PenaltyRow]]] = {}     # (policy, person) -> in force
            issued: dict[int, set[str]] = {}                                      # report -> its persons penalised
            for row, position in rows.values():
                if row.policy not in unrecorded:
                    unrecorded[row.policy] = not_recorded_of(row.policy)
                if row.status == IN_FORCE and row.penalty not in unrecorded[row.policy]:
                    history.setdefault((row.policy, row.player), []).append((position, row))
                if row.status in LIVE and row.report_id is not None:
                    issued.setdefault(row.report_id, set()).add(row.player)
            stale = []
            for report in db.execute("SELECT id, policy, position FROM reports WHERE status = 'in-force' ORDER BY id"):
                if report["id"] not in last:
                    continue
                counted = [rows[p][0] for p in last[report["id"]] if p in rows]
                names = {p.player for p in counted} | issued.get(report["id"], set())
                now = [row for name in names for position, row in history.get((report["policy"], name), [])
                       if position < report["position"]]
                if seen(counted) != seen(now):
                    stale.append(report["id"])
            return stale

    def counted_by(self, penalty_ids: list[int]) -> list[int]:
        """The reports in force whose rulings counted any of these penalties."""
        with self._read() as db:
            return sorted({r for penalty_id in penalty_ids for r in self._counted_by(db, penalty_id)})

    def _counted_by(self, db: sqlite3.Connection, penalty_id: int) -> list[int]:
        """The reports in force whose rulings counted the penalty, or a row it replaced or that
        replaced it (a ruling counts the row in force then); a superseded report's does not matter."""
        chain = self._chain(db, penalty_id)
        marks = ", ".join("?" for _ in chain)
        return [r[0] for r in db.execute(
            "SELECT DISTINCT g.report_id FROM counted c JOIN rulings g ON g.id = c.ruling_id JOIN reports r "
            f"ON r.id = g.report_id WHERE c.penalty_id IN ({marks}) AND r.status = 'in-force' ORDER BY g.report_id",
            chain)]
