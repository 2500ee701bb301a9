"""The library API: report text in, RulingSets out.  The CLI is a thin layer over this."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ppgcheck.engine.batches import (positions_by_policy, prepare, questions_each, relevance, resolve_policy, rule,
                                     rule_prepared, rules_version, run_as_job, start_ruling_job)
from ppgcheck.engine.compare import Comparison, compare_report
from ppgcheck.engine.policy import engine
from ppgcheck.engine.ruling import RulingSet
from ppgcheck.errors import PpgError, ReportError, UsageError
from ppgcheck.language.report import Report, parse_reports
from ppgcheck.resources import policy_ids
from ppgcheck.version import __version__

if TYPE_CHECKING:       # the event store (sqlite3) is imported only when an event is used
    from ppgcheck.event.records import PenaltyRow, Submission
    from ppgcheck.event.store import EventStore


def open_event(path: Path, create: bool = False) -> EventStore:
    """An event store (ppgcheck/event/store.py); `create` starts one where there is none."""
    # (the event record, its sqlite3 and the catalogs only when asked for)
    from ppgcheck.event.store import EventStore
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
    # (the event record, its sqlite3 and the catalogs only when asked for)
    from ppgcheck.event.records import Choice
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
    # (the event record, its sqlite3 and the catalogs only when asked for)
    from ppgcheck.event.exports import read_import
    check_judge(judge)
    fmt, rows, key = read_import(path)
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
    # (the event record, its sqlite3 and the catalogs only when asked for)
    from ppgcheck.event.settings import setting_choices
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


def rule_report(text: str, policy: str | None = None, source: str = "<report>",
                questions: bool = True, tolerant: bool = False) -> list[RulingSet]:
    """Parse and rule every report of a text.  Bad input raises ReportError before
    anything is ruled, so there is never a partial result.  `tolerant`: free sentences are
    read by the tolerant reader (each observation's `reading` says how)."""
    return rule_prepared(prepare(parse_reports(text, source, policy, tolerant=tolerant), policy),
                         questions=questions)


def policy_reference(policy_id: str, rules: Path | None = None) -> dict:
    """A policy's ids: its infractions with their sections, its penalties lightest first,
    and the headers whose values it tells apart (`ppgcheck ids`, the judge station)."""
    program = engine(policy_id, rules).program
    ranks = program.ranks
    return {
        "infractions": [{"id": i, "section": s} for i, s in sorted(program.sections.items())],
        "penalties": sorted(program.penalties, key=lambda p: (ranks.get(p.replace("-", "_"), -1), p)),
        "sections": sorted(set(program.sections.values())),
        "headers": program.header_values,
    }


def modifiers_read(policy_id: str, rules: Path | None = None) -> dict[str, list[str]]:
    """For each observation kind (the core's and the pack's own), the modifiers the policy's
    rules about it read (the modifiers a judge is asked about first)."""
    policy_engine = engine(policy_id, rules)
    read = relevance(policy_engine)
    return {kind: sorted(read(kind)) for kind in policy_engine.vocabulary.observations}


def vocabulary_catalog(policy: str | None = None, rules: Path | None = None) -> dict:
    """The report language's forms for a report builder (core's, plus the policy's own when
    given), with the words a name must be quoted to use (ppgcheck/language/vocabulary.py `catalog`)."""
    # (the event record, its sqlite3 and the catalogs only when asked for)
    from ppgcheck.language.report import report_language
    from ppgcheck.language.vocabulary import catalog, vocabulary
    return {**catalog(vocabulary(policy, rules)), "keywords": sorted(report_language(policy, rules).must_quote),
            "policies": policy_ids(rules)}


def observation_search(policy_id: str, rules: Path | None = None,
                       rule: Callable[..., list[RulingSet]] | None = None) -> dict[str, dict]:
    """What a report builder's observation search reads of a policy (engine/finder.py): for
    each observation kind, the infractions its rules make it (with their sections and the
    infraction's words and initials, `hidden-card-error` -> HCE), those one more modifier makes
    it, and the first numbers that make it an infraction.  `rule`: how the samples are ruled
    (engine/finder.py; the judge station passes its batcher's)."""
    # (the finder rules sample reports: only a builder asks for it)
    from ppgcheck.engine.finder import observation_finder

    def named(infraction: dict) -> dict:
        parts = [part.split("-") for part in infraction["id"].split("/")]
        return {**infraction, "words": " / ".join(" ".join(words) for words in parts),
                "initials": ["".join(w[0] for w in words if w).upper() for words in parts]}
    return {kind: {**found, "infractions": [named(i) for i in found["infractions"]],
                   "with_more": [named(i) for i in found["with_more"]]}
            for kind, found in observation_finder(policy_id, rules, rule).items()}


def readings(report: Report) -> list[dict]:
    """How the tolerant reader read each observation of a report that is not a canonical form
    (its line, the sentence written, the canonical sentence ruled on, the words not read)."""
    return [{"line": obs.line, "written": obs.reading.written, "read_as": obs.reading.read_as,
             "not_read": list(obs.reading.not_read)} for obs in report.observations if obs.reading is not None]


__all__ = ["Comparison", "positions_by_policy", "questions_each", "relevance", "run_as_job", "start_ruling_job",
           "ReportError", "compare_report", "modifiers_read", "policy_reference", "prepare",
           "vocabulary_catalog", "resolve_policy", "rule", "rule_prepared", "rule_report", "open_event",
           "submit_prepared", "submit_report", "rules_version", "import_penalties", "amend_penalty", "void_penalty",
           "observation_search", "readings", "set_event_settings"]
