"""The library API: report text in, RulingSets out.  The CLI is a thin layer over this."""
from __future__ import annotations

import copy
import functools
import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from ppgcheck import __version__
from ppgcheck.errors import ReportError, UsageError
from ppgcheck.language.facts import build_facts
from ppgcheck.engine.policy import QUESTION_SHOWN, engine
from ppgcheck.language.report import Report, parse_reports
from ppgcheck.resources import policy_ids
from ppgcheck.engine import variants
from ppgcheck.engine.isolation import Job, in_job, start_bounded
from ppgcheck.engine.ruling import RulingSet, decode, decode_outcomes

T = TypeVar("T")

if TYPE_CHECKING:       # the event store (sqlite3) is imported only when an event is used
    from ppgcheck.engine.resident import Resident
    from ppgcheck.event.records import PenaltyRow, Submission
    from ppgcheck.event.store import EventStore


def resolve_policy(report: Report, override: str | None = None, rules: Path | None = None) -> str:
    """The policy that rules a report: the CLI's --policy, else its `policy:` header
    (one of the bundled packs, or of the packs under `rules`)."""
    if override:
        return override
    known = policy_ids(rules)
    if report.policy is None:
        raise report.error("missing `policy:` header: add one (e.g. `policy: fab`) or pass --policy; "
                           "known policies are " + ", ".join(f"`{k}`" for k in known), (report.line, 1))
    if report.policy not in known:
        import difflib
        close = difflib.get_close_matches(report.policy, known, n=2)
        raise report.error(f"unknown policy `{report.policy}`: known policies are "
                           + ", ".join(f"`{k}`" for k in known), "policy", suggestions=close)
    return report.policy


def rule(report: Report, policy: str | None = None, questions: bool = True) -> RulingSet:
    """Rule one parsed report under its policy (or the one given), with the questions
    that would change it (a person reads a single ruling)."""
    return rule_prepared(prepare([report], policy), questions=questions)[0]


def prepare(reports: list[Report], policy: str | None = None, rules: Path | None = None) -> list[tuple[Report, str]]:
    """Each report with the policy that rules it, its ids checked against that policy.
    Raises the first report's error before anything is ruled."""
    prepared = [(report, resolve_policy(report, policy, rules)) for report in reports]
    for report, policy_id in prepared:
        engine(policy_id, rules).check_ids(report)
    return prepared


def positions_by_policy(prepared: list[tuple[Report, str]]) -> dict[str, list[int]]:
    """The positions of the prepared reports each policy rules, in order."""
    by_policy: dict[str, list[int]] = {}
    for position, (_, policy_id) in enumerate(prepared):
        by_policy.setdefault(policy_id, []).append(position)
    return by_policy


def rule_prepared(prepared: list[tuple[Report, str]], rules: Path | None = None,
                  questions: bool | list[bool] = False, resident: Resident | None = None) -> list[RulingSet]:
    """Rule prepared reports, in order, with one grounding per policy for the whole list
    (the packs under `rules` when given, as for `prepare`).  Each report is ruled with its
    variants in the same grounding under each value of a header the guide tells apart and
    the report omits (`by_value`); with `questions` (for every report, or one flag a
    report), each unstated modifier the rules about an observation read is added, one at a
    time, and those variants ground together in a second grounding that shows only what a
    question compares (ppgcheck/engine/variants.py).  The whole list is
    one job under the process's limits (ppgcheck/engine/isolation.py): past one,
    LimitExceeded names the file to blame where there is one.  With `resident`, the job runs
    in that resident child (a server's batches: ppgcheck/engine/resident.py)."""
    if not prepared:
        return []
    return run_as_job(prepared, rules, functools.partial(_rule_prepared, prepared, rules, questions), resident)


def run_as_job(prepared: list[tuple[Report, str]], rules: Path | None, work: Callable[[], T],
               resident: Resident | None = None) -> T:
    """`work()`, which rules these prepared reports, as one job under the process's limits
    (isolation.call_bounded); each policy's pack is prepared first, in a job of its own
    where the cache misses.  Past a limit the error names the file to blame, where one is."""
    return start_ruling_job([p for _, p in prepared], [r.name for r, _ in prepared], rules, work,
                            lambda: prepared, resident).result()


def start_ruling_job(policy_ids: list[str], names: list[str], rules: Path | None, work: Callable[[], T],
                     reports: Callable[[], list[tuple[Report, str]]], resident: Resident | None = None) -> Job[T]:
    """The job of `work()`, which rules the reports of these sources under these policies,
    started (the CLI rules one batch while it reads the next and another batch runs; it
    may parse the reports in the job): each policy's pack is prepared here first, and
    `reports()` (the prepared reports) is called only to find the file to blame."""
    engines = {policy_id: engine(policy_id, rules) for policy_id in policy_ids}
    for policy_engine in engines.values():
        policy_engine.program       # prepared here, and kept for the process's later batches
    first = names[0]
    where = ", ".join(e.where for e in engines.values()) + (
        f" (ruling `{first}`)" if len(names) == 1 else f" (ruling `{first}` and {len(names) - 1} more)")

    def locate() -> str | None:
        prepared = reports()
        for policy_id, policy_engine in engines.items():
            found = policy_engine.locate_overrun([build_facts(r).inputs for r, p in prepared if p == policy_id])
            if found:
                return found
        return None
    if resident is not None and not in_job():
        return resident.start(work, where, locate)
    return start_bounded(work, where, locate)


def questions_each(questions: bool | list[bool], count: int) -> list[bool]:
    """`questions` as rule_prepared takes it (for every report, or a flag a report), a flag a report."""
    return [questions] * count if isinstance(questions, bool) else list(questions)


# a policy's reports in a list of at most this many ground with their questions' variants
# in one grounding (a cold `ppgcheck rule`, a station's submission: one Control, one parse
# of the program and one grounding of what no report changes fewer); a larger batch grounds
# the variants apart, showing only what a question compares, as reading every atom of
# each variant would cost it more than the second grounding
QUESTIONS_WITH_RULING_AT_MOST = 1


def _rule_prepared(prepared: list[tuple[Report, str]], rules: Path | None,
                   questions: bool | list[bool]) -> list[RulingSet]:
    asks = questions_each(questions, len(prepared))
    rulings: list[RulingSet | None] = [None] * len(prepared)
    for policy_id, positions in positions_by_policy(prepared).items():
        policy_engine = engine(policy_id, rules)
        program = policy_engine.program
        owners: list[tuple[int, variants.Variant | None]] = []
        asked: list[tuple[int, variants.Variant]] = []
        for position in positions:
            report = prepared[position][0]
            owners.append((position, None))
            owners.extend((position, v) for v in variants.header_variants(report, program.header_values))
            if asks[position]:
                asked.extend((position, v) for v in variants.question_variants(report, relevance(policy_engine)))
        reports = [prepared[p][0] if v is None else v.report for p, v in owners]
        facts = [build_facts(r) for r in reports]
        asked_facts = [build_facts(v.report) for _, v in asked]
        models, asked_models = _solved(policy_engine, facts, asked_facts,
                                       together=len(positions) <= QUESTIONS_WITH_RULING_AT_MOST)
        by_value: dict[int, list[tuple[variants.Variant, RulingSet]]] = {}
        for (position, variant), report, report_facts, atoms in zip(owners, reports, facts, models):
            rs = decode(atoms, report_facts, report, policy_id, program.ranks)
            if variant is None:
                rulings[position] = rs
            else:
                by_value.setdefault(position, []).append((variant, rs))
        for position, done in by_value.items():
            variants.attach_by_value(rulings[position], done, program.ranks)
        if asked:
            ruled: dict[int, list[tuple[variants.Variant, RulingSet]]] = {p: [] for p in positions}
            for (position, variant), report_facts, atoms in zip(asked, asked_facts, asked_models):
                ruled[position].append((variant, decode_outcomes(atoms, report_facts, variant.report, policy_id,
                                                                 program.ranks)))
            for position, done in ruled.items():
                rulings[position].questions = variants.questions_from(rulings[position], done, program.ranks)
    return rulings  # type: ignore[return-value]  (every position was filled)


def _solved(policy_engine, facts: list, asked_facts: list, together: bool) -> tuple[list, list]:
    """The shown atoms of the reports and their header variants (`facts`), and of their
    questions' variants (`asked_facts`): a question's variant is not explored (it needs only
    its infractions and default penalties); `together` in one grounding, else in one of its
    own that shows only what a question compares (policy.QUESTION_SHOWN)."""
    if together and asked_facts:
        models = policy_engine.solve_many([f.inputs for f in facts + asked_facts],
                                          explore=[True] * len(facts) + [False] * len(asked_facts))
        return models[:len(facts)], models[len(facts):]
    models = policy_engine.solve_many([f.inputs for f in facts])
    asked_models = policy_engine.solve_many([f.inputs for f in asked_facts], explore=[False] * len(asked_facts),
                                            shown=QUESTION_SHOWN) if asked_facts else []
    return models, asked_models


def relevance(policy_engine) -> Callable[[str], frozenset[str]]:
    """The modifiers the rules about each observation kind read that can change its ruling
    (engine/variants.py Relevance; kept with the prepared pack)."""
    table = policy_engine.program.relevance
    return lambda kind: table.get(kind, frozenset())


def rules_version(policy_id: str, rules: Path | None = None) -> str:
    """A digest of the rule files a policy is ruled with (the core's and the pack's)."""
    return _rules_version(tuple(engine(policy_id, rules).files))


@functools.cache
def _rules_version(files: tuple[Path, ...]) -> str:
    digest = hashlib.sha256()
    for path in files:
        digest.update(f"{path.parent.name}/{path.name}\0".encode())
        digest.update(path.read_bytes())
    return "sha256:" + digest.hexdigest()[:16]


def open_event(path: Path, create: bool = False) -> EventStore:
    """An event store (ppgcheck/event/store.py); `create` starts one where there is none."""
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
    from ppgcheck.errors import PpgError
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


def exported_penalties(store: EventStore) -> tuple[list, list]:
    """The penalties in force an export holds, and those it leaves out: the guide does not
    record them."""
    kept, left_out = [], []
    for row in store.penalties(statuses=("in-force",)):
        (left_out if _unrecorded(row) else kept).append(row)
    return kept, left_out


def submit_report(event: Path, text: str, judge: str, source: str = "<report>", policy: str | None = None,
                  rules: Path | None = None, amend: bool = False,
                  choices: dict[str, str] | None = None) -> list[Submission]:
    """Parse every report of a text and submit each to the event store (created when
    missing).  Bad input raises before anything is recorded."""
    prepared = prepare(parse_reports(text, source, policy, rules), policy, rules)
    store = open_event(event, create=True)
    return [submit_prepared(store, report, policy_id, judge, rules, amend, choices) for report, policy_id in prepared]


def import_penalties(event: Path, path: Path, judge: str, rules: Path | None = None) -> tuple[int, int, bool]:
    """Import a penalty CSV or JSON (`event export`) or an old JSON Lines event log into the
    store (created when missing), every row checked against its policy's ids first: a bad
    row imports nothing.  Returns (import id, rows, new): the same file again writes nothing."""
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
    [(report, _)] = prepare(parse_reports(text, source, policy_id, rules), policy_id, rules)
    return store.rerule(report_id, report, judge, reason, lambda r: rule_prepared([(r, policy_id)], rules)[0],
                        rules_version(policy_id, rules), engine(policy_id, rules).not_recorded)


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
                questions: bool = True) -> list[RulingSet]:
    """Parse and rule every report of a text.  Bad input raises ReportError before
    anything is ruled, so there is never a partial result."""
    return rule_prepared(prepare(parse_reports(text, source, policy), policy), questions=questions)


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
    """For each observation kind, the modifiers the policy's rules about it read
    (the modifiers a judge is asked about first)."""
    from ppgcheck.language.vocabulary import vocabulary
    read = relevance(engine(policy_id, rules))
    return {kind: sorted(read(kind)) for kind in vocabulary().observations}


def vocabulary_catalog(policy: str | None = None, rules: Path | None = None) -> dict:
    """The report language's forms for a report builder (core's, plus the policy's own when
    given), with the words a name must be quoted to use (ppgcheck/language/vocabulary.py `catalog`)."""
    from ppgcheck.language.report import report_language
    from ppgcheck.language.vocabulary import catalog, vocabulary
    return {**catalog(vocabulary(policy, rules)), "keywords": sorted(report_language(policy, rules).must_quote),
            "policies": policy_ids(rules)}


@dataclass
class Comparison:
    """One report ruled under every bundled guide."""

    report: Report
    by_policy: dict[str, RulingSet]
    ignored: dict[str, list[str]]       # history entries a guide has no id for

    def uncovered(self, policy: str) -> list[int]:
        """The observations (1-based) this guide neither rules nor clears."""
        rs = self.by_policy[policy]
        covered = {r.observation for r in rs.rulings} | {n.observation for n in rs.no_infractions}
        return [i for i in range(1, len(rs.observations) + 1) if i not in covered]

    @property
    def exit_code(self) -> int:
        """1 when a guide has a finding or leaves an observation uncovered (a script's signal to look)."""
        return max((max(rs.exit_code, 1 if self.uncovered(p) else 0) for p, rs in self.by_policy.items()), default=0)


def compare_report(report: Report, policies: list[str] | None = None, rules: Path | None = None) -> Comparison:
    """Rule the same observations under each guide (the bundled ones, or those under
    `rules`).  History entries and a judge call name one guide's ids, so each guide
    keeps only those it knows."""
    by_policy: dict[str, RulingSet] = {}
    ignored: dict[str, list[str]] = {}
    for policy_id in policies or policy_ids(rules):
        policy_engine = engine(policy_id, rules)
        variant = copy.copy(report)
        variant.policy = policy_id
        variant.history, ignored[policy_id] = [], []
        for h in report.history:
            if h.infraction in policy_engine.sections and h.penalty in policy_engine.penalties:
                variant.history.append(h)
            else:
                ignored[policy_id].append(f"{h.person}: {h.penalty} for {h.infraction}")
        if report.judge_call and report.policy != policy_id:
            variant.judge_call = None
        by_policy[policy_id] = rule_prepared([(variant, policy_id)], rules)[0]
    return Comparison(report, by_policy, ignored)


__all__ = ["Comparison", "ReportError", "compare_report", "modifiers_read", "policy_reference", "prepare",
           "vocabulary_catalog", "resolve_policy", "rule", "rule_prepared", "rule_report", "open_event",
           "submit_prepared", "submit_report", "rules_version", "import_penalties", "amend_penalty", "void_penalty"]
