"""The library API: report text in, RulingSets out.  The CLI is a thin layer over this."""
from __future__ import annotations

import copy
import difflib
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, TypeVar

from ppgcheck.errors import ReportError
from ppgcheck.language.facts import build_facts
from ppgcheck.engine.policy import engine
from ppgcheck.language.report import Report, parse_reports
from ppgcheck.resources import policy_ids
from ppgcheck.engine import variants
from ppgcheck.engine.isolation import call_bounded
from ppgcheck.engine.ruling import RulingSet, decode

T = TypeVar("T")


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
                  questions: bool = False) -> list[RulingSet]:
    """Rule prepared reports, in order, with one grounding per policy for the whole list
    (the packs under `rules` when given, as for `prepare`).  Each report is ruled with its
    variants in the same grounding: under each value of a header the guide tells apart and
    the report omits (`by_value`) and, with `questions`, with each unstated modifier the
    rules about an observation read added (ppgcheck/engine/variants.py).  The whole list is
    one job under the process's limits (ppgcheck/engine/isolation.py): past one,
    LimitExceeded names the file to blame where there is one."""
    if not prepared:
        return []
    return run_as_job(prepared, rules, lambda: _rule_prepared(prepared, rules, questions))


def run_as_job(prepared: list[tuple[Report, str]], rules: Path | None, work: Callable[[], T]) -> T:
    """`work()`, which rules these prepared reports, as one job under the process's limits
    (isolation.call_bounded); each policy's pack is prepared first, in a job of its own
    where the cache misses.  Past a limit the error names the file to blame, where one is."""
    engines = {policy_id: engine(policy_id, rules) for _, policy_id in prepared}
    for policy_engine in engines.values():
        policy_engine.program       # prepared here, and kept for the process's later batches
    first = prepared[0][0].name
    where = ", ".join(e.where for e in engines.values()) + (
        f" (ruling `{first}`)" if len(prepared) == 1 else f" (ruling `{first}` and {len(prepared) - 1} more)")

    def locate() -> str | None:
        for policy_id, policy_engine in engines.items():
            found = policy_engine.locate_overrun([build_facts(r).inputs for r, p in prepared if p == policy_id])
            if found:
                return found
        return None
    return call_bounded(work, where, locate)


def _rule_prepared(prepared: list[tuple[Report, str]], rules: Path | None, questions: bool) -> list[RulingSet]:
    rulings: list[RulingSet | None] = [None] * len(prepared)
    for policy_id, positions in positions_by_policy(prepared).items():
        policy_engine = engine(policy_id, rules)
        program = policy_engine.program
        owners: list[tuple[int, variants.Variant | None]] = []
        for position in positions:
            report = prepared[position][0]
            owners.append((position, None))
            owners.extend((position, v) for v in variants.header_variants(report, program.header_values))
            if questions:
                owners.extend((position, v) for v in variants.question_variants(report, relevance(policy_engine)))
        reports = [prepared[p][0] if v is None else v.report for p, v in owners]
        facts = [build_facts(r) for r in reports]
        models = policy_engine.solve_many([f.inputs for f in facts])
        ruled: dict[int, list[tuple[variants.Variant, RulingSet]]] = {}
        for (position, variant), report, report_facts, atoms in zip(owners, reports, facts, models):
            rs = decode(atoms, report_facts, report, policy_id, program.ranks)
            if variant is None:
                rulings[position] = rs
            else:
                ruled.setdefault(position, []).append((variant, rs))
        for position, done in ruled.items():
            rs = rulings[position]
            variants.attach_by_value(rs, [(v, vrs) for v, vrs in done if v.header], program.ranks)
            rs.questions = variants.questions_from(rs, [(v, vrs) for v, vrs in done if not v.header], program.ranks)
    return rulings  # type: ignore[return-value]  (every position was filled)


def relevance(policy_engine) -> variants.Relevance:
    """The modifiers the rules about each observation kind read (cached with the engine)."""
    found = getattr(policy_engine, "_relevance", None)
    if found is None:
        core = "\n".join(f.read_text(encoding="utf-8") for f in policy_engine.files if f.parent.name == "core")
        found = variants.Relevance(policy_engine.program.plain, variants.core_heads(core),
                                   set(policy_engine.program.ranks))
        policy_engine._relevance = found
    return found


def rule_with_event_log(report: Report, policy_id: str, log: Path, rules: Path | None = None) -> RulingSet:
    """Rule one prepared report with the penalties an event log holds for its persons as
    its history, then append the penalties the ruling issues (ppgcheck/event/eventlog.py).
    The log is locked throughout, so concurrent judges' reports count one after another."""
    from ppgcheck.event import eventlog
    from ppgcheck.engine.ruling import EventLogUse
    if report.history:
        line = report.history[0].line
        text = report.lines[line - 1] if 0 < line <= len(report.lines) else ""
        raise report.error("this report has a `history:` block, and --event-log gives the history: "
                           "use one of them", (line, len(text) - len(text.lstrip()) + 1))
    policy_engine = engine(policy_id, rules)
    with eventlog.locked(log):
        report.history, left_out = eventlog.history_for(report, policy_id, eventlog.read(log), log,
                                                         policy_engine.penalties, sorted(policy_engine.sections))
        (rs,) = rule_prepared([(report, policy_id)], rules)
        rows = eventlog.issued(rs, report)
        eventlog.append(log, rows)
    rs.event_log = EventLogUse(str(log), len(report.history), left_out, len(rows))
    return rs


def rule_report(text: str, policy: str | None = None, source: str = "<report>",
                questions: bool = True) -> list[RulingSet]:
    """Parse and rule every report of a text.  Bad input raises ReportError before
    anything is ruled, so there is never a partial result."""
    return rule_prepared(prepare(parse_reports(text, source), policy), questions=questions)


@dataclass
class Comparison:
    """One report ruled under every bundled guide."""

    report: Report
    by_policy: dict[str, RulingSet]
    ignored: dict[str, list[str]]       # history entries a guide has no id for


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


__all__ = ["Comparison", "ReportError", "compare_report", "prepare", "resolve_policy", "rule", "rule_prepared",
           "rule_report", "rule_with_event_log"]
