"""Rule prepared reports: each with the policy that rules it, one grounding per policy for a
whole list, the by_value and questions' variants beside them (engine/variants.py), as one job
under the process's limits (packs/isolation.py)."""
from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from ppgcheck.contract import QUESTION_SHOWN
from ppgcheck.engine import variants
from ppgcheck.engine.policy import engine
from ppgcheck.engine.ruling import RulingSet, decode, decode_outcomes
from ppgcheck.language.facts import build_facts
from ppgcheck.language.report import Report
from ppgcheck.packs.isolation import Job, in_job, start_bounded
from ppgcheck.resources import policy_ids

T = TypeVar("T")

if TYPE_CHECKING:       # the resident child only where a server runs one
    from ppgcheck.packs.resident import Resident


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
        # (only to suggest a close match)
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
    one job under the process's limits (ppgcheck/packs/isolation.py): past one,
    LimitExceeded names the file to blame where there is one.  With `resident`, the job runs
    in that resident child (a server's batches: ppgcheck/packs/resident.py)."""
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
