"""The event record's operations: submitting rulings, changing penalties afterwards (void,
amend, rule again), the event's settings, and reading, exporting, importing and checking
the record.  Loaded when an event is used (`ppgcheck.api` imports it on first use), so the
event store (sqlite3) costs nothing to a run that keeps no event."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ppgcheck.api.ruling import engine, prepare, rule_prepared, rules_version
from ppgcheck.errors import PpgError, UsageError
from ppgcheck.event import exports
from ppgcheck.event.integrity import check_store
from ppgcheck.event.records import Choice, PenaltyRow, Submission, penalty_dict
from ppgcheck.event.rows import IN_FORCE, PENDING, SUPERSEDED, VOID
from ppgcheck.event.settings import setting_choices
from ppgcheck.event.store import EventStore
from ppgcheck.engine.ruling import RulingSet
from ppgcheck.language.report import Report, parse_reports
from ppgcheck.resources import policy_ids
from ppgcheck.version import __version__


def open_event(path: Path, create: bool = False) -> EventStore:
    """An event store (ppgcheck/event/store.py); `create` starts one where there is none."""
    return EventStore(path, create=create)


def _store(event: Path | EventStore) -> EventStore:
    """The event store given, or the one at the path given."""
    return open_event(event) if isinstance(event, Path) else event


def submit_prepared(store: EventStore, report: Report, policy_id: str, judge: str, rules: Path | None = None,
                    amend: bool = False, choices: dict[str, str] | None = None,
                    questions: bool = False, rule: Callable[[Report], RulingSet] | None = None) -> Submission:
    """Rule one prepared report with its persons' penalties in force at the event as its
    history, and record the ruling and the penalties it issues, in one transaction.
    The same report again returns the stored ruling and writes nothing; a changed one
    under the same source name is refused unless `amend`.  `choices` maps an infraction
    id to the penalty the judge chooses for it (one of those the guide permits).  `rule`
    rules the report with the history the store hands it (default: on its own, here); the
    judge station passes one that answers from a batch it ruled (server/submissions.py)."""
    check_judge(judge)
    policy_engine = engine(policy_id, rules)
    picked = {}
    for infraction, penalty in (choices or {}).items():
        if penalty not in policy_engine.penalties:
            raise UsageError(f"--choose: unknown penalty `{penalty}` for policy `{policy_id}`")
        picked[infraction] = Choice(penalty, "--choose")
    if rule is None:
        def rule(r: Report) -> RulingSet:
            return rule_prepared([(r, policy_id)], rules, questions)[0]
    return store.submit(report, policy_id, judge, rule,
                        rules_version=rules_version(policy_id, rules), version=__version__, amend=amend,
                        choices=picked, not_recorded=policy_engine.not_recorded)


def _not_recorded_of(policy: str, rules: Path | None = None) -> dict[str, tuple[str, str]]:
    """The penalties the policy's guide does not record (not_recorded/3, e.g. FaB's Cautions):
    penalty -> (why, section); a policy that is not there to ask records every penalty."""
    try:
        return engine(policy, rules).not_recorded
    except PpgError:
        return {}


def not_recorded_why(row: PenaltyRow, rules: Path | None = None) -> tuple[str, str] | None:
    """(why, section) where the guide does not record the row's penalty, else None."""
    return _not_recorded_of(row.policy, rules).get(row.penalty or "")


def stale_rulings(event: Path | EventStore, rules: Path | None = None) -> list[int]:
    """The reports of the event whose rulings counted another history than the event gives
    them now (EventStore.stale_rulings): each needs ruling again."""
    return _store(event).stale_rulings(lambda policy: _not_recorded_of(policy, rules))


def _unrecorded(row: PenaltyRow, rules: Path | None = None) -> bool:
    return not_recorded_why(row, rules) is not None


def exported_penalties(store: EventStore, rules: Path | None = None) -> tuple[list, list]:
    """The penalties in force an export holds, and those it leaves out: the guide (a pack of
    `rules`, else the bundled one) does not record them."""
    kept, left_out = [], []
    for row in store.penalties(statuses=("in-force",)):
        (left_out if _unrecorded(row, rules) else kept).append(row)
    return kept, left_out


def submit_report(event: Path, text: str, judge: str, source: str = "<report>", policy: str | None = None,
                  rules: Path | None = None, amend: bool = False,
                  choices: dict[str, str] | None = None, tolerant: bool = False) -> list[Submission]:
    """Parse every report of a text and submit each to the event store (created when
    missing).  Bad input raises before anything is recorded.  `tolerant`: free sentences
    read by the tolerant reader (as `rule_report`)."""
    prepared = prepare(parse_reports(text, source, policy, rules, tolerant=tolerant), policy, rules)
    store = open_event(event, create=True)
    return [submit_prepared(store, report, policy_id, judge, rules, amend, choices) for report, policy_id in prepared]


def import_penalties(event: Path, path: Path, judge: str, rules: Path | None = None) -> tuple[int, int, bool]:
    """Import a penalty CSV or JSON (`event export`) or an old JSON Lines event log into the
    store (created when missing), every row checked against its policy's ids first: a bad
    row imports nothing.  Returns (import id, rows, new): the same file again writes nothing."""
    check_judge(judge)
    fmt, rows, key = exports.read_import(path)
    known = policy_ids(rules)
    for row in rows:
        if row.policy not in known:
            raise UsageError(f"{path}:{row.line}: unknown policy `{row.policy}`: known policies are "
                             + ", ".join(f"`{k}`" for k in known))
        policy_engine = engine(row.policy, rules)
        for value, table, what in ((row.penalty, [p for p in policy_engine.penalties if p != "none"], "penalty"),
                                   (row.infraction, sorted(policy_engine.sections), "infraction")):
            if value not in table:
                raise UsageError(f"{path}:{row.line}: unknown {what} `{value}` for policy `{row.policy}`")
    return open_event(event, create=True).import_rows(rows, str(path), fmt, key, judge)


def amend_penalty(event: Path | EventStore, penalty_id: int, reason: str, judge: str, penalty: str | None = None,
                  notes: str | None = None, rules: Path | None = None):
    """Replace a penalty in force or pending by another the guide permits (or other notes), in
    the event (a store, or its path)."""
    check_change(judge, reason, notes)
    return _store(event).amend(penalty_id, reason, judge, penalty, notes,
                               known_penalties=lambda policy_id: [
                                   p for p in engine(policy_id, rules).penalties if p != "none"])


def rulings_changed_by_amend(event: Path | EventStore, old_id: int, new: PenaltyRow,
                             rules: Path | None = None) -> list[int]:
    """The reports in force whose rulings an amendment (penalty #old_id -> the row `new`)
    changes: those that counted the old penalty; and, where the new one is history for later
    rulings and the old one was not (a pending penalty chosen, or one the guide does not
    record made one it does), the later reports that issue the person a penalty."""
    store = _store(event)

    def given(row: PenaltyRow) -> bool:
        return row.status == "in-force" and not _unrecorded(row, rules)
    reports = set(store.counted_by([new.id]))
    if given(new) and not given(store.penalty(old_id)):
        reports.update(store.later_reports_of(new.id))
    return sorted(reports)


def void_penalty(event: Path | EventStore, penalty_id: int, reason: str, judge: str):
    """Void a penalty in the event (a store, or its path): it stays in the record, and stops
    counting.  Returns it and the reports whose rulings counted it."""
    check_change(judge, reason)
    return _store(event).void(penalty_id, reason, judge)


def void_report(event: Path | EventStore, report_id: int, reason: str, judge: str):
    """Void a whole report ruled by mistake and every live penalty of it, in the event (a
    store, or its path): it stays in the record and stops counting.  Returns the penalties."""
    check_change(judge, reason)
    return _store(event).void_report(report_id, reason, judge)


def rerule_report(event: Path | EventStore, report_id: int, reason: str, judge: str, rules: Path | None = None):
    """Rule a report of the event (a store, or its path) again with its persons' penalties in
    force now (after a void or an amendment of one its ruling counted), and amend each of its
    penalties that ruling changes.  Returns (old, new) for each change ([]: the ruling
    stands) and the penalties the ruling counted now."""
    check_change(judge, reason)
    store = _store(event)
    text, source, policy_id = store.submitted(report_id)
    # read as it was submitted: a judge's free sentences too (the tolerant reader reads canonical forms alike)
    [(report, _)] = prepare(parse_reports(text, source, policy_id, rules, tolerant=True), policy_id, rules)
    return store.rerule(report_id, report, judge, reason, lambda r: rule_prepared([(r, policy_id)], rules)[0],
                        rules_version(policy_id, rules), engine(policy_id, rules).not_recorded)


def set_event_settings(event: Path | EventStore, judge: str, changes: dict, rules: Path | None = None):
    """Change the event's own settings (policy, rel, day, round, round_kind; None unsets one),
    checked as the report language checks a report's headers, and recorded in its history.
    Returns (before, after).  A report submitted later is not given them: a report builder
    prefills its lines from them (the report's text is what is recorded and ruled)."""
    check_judge(judge)
    return _store(event).set_settings(changes, judge, rules)


def event_setting_choices(policy: str | None = None, rules: Path | None = None) -> dict:
    """The values an event's settings may take under a policy (a settings form's options)."""
    return setting_choices(policy, rules)


MAX_REASON = 500        # a change's reason (kept in the event's history)
MAX_NOTES = 2000        # a penalty's notes


def check_judge(judge: str) -> None:
    """Who submits or changes a record: a name on one line."""
    if not judge or not judge.strip() or len(judge) > 100 or any(c < " " for c in judge):
        raise UsageError("a judge's name is needed (`--judge NAME`): one line, at most 100 characters")


def check_change(judge: str, reason: str, notes: str | None = None) -> None:
    """Who changes a record and why (and a penalty's new notes): the record keeps them, so
    each is bounded (the station's forms hold no more).  Every change reaches this check, the
    CLI's and the station's: its words name neither's way of giving them."""
    check_judge(judge)
    if not reason.strip() or len(reason) > MAX_REASON:
        raise UsageError(f"a change needs a reason of at most {MAX_REASON} characters")
    if notes is not None and len(notes) > MAX_NOTES:
        raise UsageError(f"a penalty's notes are at most {MAX_NOTES} characters")


# --- reading, exporting and checking the record ----------------------------------------------

def penalty_json(row: PenaltyRow) -> dict:
    """A penalty row's JSON object (`event show --format json`, the station's event API)."""
    return penalty_dict(row)


def listed_penalties(store: EventStore, player: str | None = None, day: int | None = None,
                     round_: int | None = None, table: int | None = None, everything: bool = False) -> list:
    """The event's penalties in force and pending (`everything`: void and superseded too),
    of a player, day, round and table where given."""
    statuses = (IN_FORCE, PENDING, VOID, SUPERSEDED) if everything else (IN_FORCE, PENDING)
    return store.penalties(player, day, round_, table, statuses)


def pending_penalties(store: EventStore) -> list:
    """The penalties waiting for a judge to choose one (no export holds them)."""
    return store.penalties(statuses=(PENDING,))


def export_penalties(store: EventStore, fmt: str, rules: Path | None = None) -> tuple[str, list]:
    """The penalties in force as a CSV or JSON export (`fmt`), and those it leaves out: the
    guide does not record them (exported_penalties)."""
    rows, left_out = exported_penalties(store, rules)
    return (exports.to_csv(rows) if fmt == "csv" else exports.to_json(rows)), left_out


def export_match_results(store: EventStore, fmt: str) -> str:
    """The match outcomes the rulings in force gave, as CSV or JSON (`fmt`)."""
    outcomes = store.match_results()
    return exports.results_to_csv(outcomes) if fmt == "csv" else exports.results_to_json(outcomes)


def check_event_store(path: Path) -> tuple[list[str], dict[str, int]]:
    """An event store's problems (SQLite's integrity check and the store's own invariants)
    and its counts of rows."""
    return check_store(path)
