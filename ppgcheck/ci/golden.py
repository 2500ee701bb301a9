"""Golden cases: a report `NAME.txt` with `NAME.expected.toml` beside it (tests/golden/README.md).

The expectation schema is strict: an unknown key is an error, so a typo can
never turn a check off.
"""
from __future__ import annotations

import tomllib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ppgcheck.engine import batches
from ppgcheck.errors import ConfinementError, LimitExceeded, PpgError, ProgramError, ReportError, UsageError
from ppgcheck.language.report import parse_reports
from ppgcheck.engine.ruling import RulingSet
from ppgcheck.engine.words import golden_penalty

_TOP = {"description": str, "exit": int, "ruling": list, "no_infraction": list, "finding": list,
        "time_extension": int, "judge_call": str, "error": dict, "question": list,
        "assumption_contains": list, "assumption_excludes": list, "outcome": dict}
_RULING = {"player": str, "infraction": str, "penalty": str, "issued": bool, "base_penalty": str,
           "section": str, "adjustments": list, "fix_contains": list, "note_contains": list,
           "fix_excludes": list, "note_excludes": list, "head_judge": bool, "permitted": list,
           "options": list, "related_to": int, "assumption_contains": list, "assumption_excludes": list,
           "by_value": dict, "not_issued_contains": list}
_QUESTION = {"player": str, "add_contains": str, "infraction": str, "penalty": str, "unsettled": str}
_NO_INFRACTION = {"player": str, "section": str, "reason_contains": str}
_FINDING = {"kind": str, "level": str, "section_contains": str, "message_contains": str}
_OUTCOME = {"kind": str, "step_contains": str, "result": str, "scope": str, "winner": str, "player": str,
            "penalty": str, "section": str, "note_contains": list, "option_contains": list,
            "note_excludes": list, "option_excludes": list}
_OUTCOME_KINDS = ("step", "result", "penalty", "allowed", "none")
_ERROR = {"line": int, "column": int, "message_contains": str}
_REQUIRED = {"top": ("description",), "ruling": ("player", "infraction", "penalty"),
             "no_infraction": ("player",), "finding": ("kind",), "error": (), "question": ("add_contains",),
             "outcome": ("kind",)}


class ExpectationError(UsageError):
    """An expectation file that does not follow the schema."""


@dataclass
class CaseResult:
    name: str
    description: str
    failures: list[str] = field(default_factory=list)
    rulings: list[RulingSet] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.failures


def _check_table(table: dict, schema: dict, where: str, path: Path, required: tuple) -> None:
    for key, value in table.items():
        if key not in schema:
            raise ExpectationError(f"{path}: unknown key `{key}` in {where}; allowed keys: "
                                   + ", ".join(f"`{k}`" for k in schema))
        if not isinstance(value, schema[key]) or (schema[key] is int and isinstance(value, bool)):
            raise ExpectationError(f"{path}: `{key}` in {where} must be a {schema[key].__name__}")
    for key in required:
        if key not in table:
            raise ExpectationError(f"{path}: {where} needs `{key}`")


def load_expectation(path: Path) -> dict:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ExpectationError(f"{path}: not valid TOML: {exc}") from None
    _check_table(data, _TOP, "the top level", path, _REQUIRED["top"])
    for key, schema in (("ruling", _RULING), ("no_infraction", _NO_INFRACTION), ("finding", _FINDING),
                        ("question", _QUESTION)):
        for i, item in enumerate(data.get(key, []), start=1):
            if not isinstance(item, dict):
                raise ExpectationError(f"{path}: `{key}` must be an array of tables ([[{key}]])")
            _check_table(item, schema, f"[[{key}]] #{i}", path, _REQUIRED[key])
    if "error" in data:
        _check_table(data["error"], _ERROR, "[error]", path, ())
    if "outcome" in data:
        _check_table(data["outcome"], _OUTCOME, "[outcome]", path, _REQUIRED["outcome"])
        if data["outcome"]["kind"] not in _OUTCOME_KINDS:
            raise ExpectationError(f"{path}: `kind` in [outcome] must be one of "
                                   + ", ".join(f"`{k}`" for k in _OUTCOME_KINDS))
    return data


def find_cases(paths: list[Path]) -> list[Path]:
    """Every report with an expectation beside it, under the given files or folders."""
    cases: list[Path] = []
    for path in paths:
        if path.is_dir():
            cases.extend(sorted(p.with_name(p.name.removesuffix(".expected.toml") + ".txt")
                                for p in path.rglob("*.expected.toml")))
        elif path.is_file():
            cases.append(path if path.suffix == ".txt" else
                         path.with_name(path.name.removesuffix(".expected.toml") + ".txt"))
        else:
            raise UsageError(f"no such file or directory: `{path}`")
    return cases


def run_case(report_path: Path, rules: Path | None = None) -> CaseResult:
    return run_cases([report_path], rules)[0]


def _prepare_case(report_path: Path, rules: Path | None) -> tuple[CaseResult, dict, list | None]:
    """The case's result so far, its expectation, and its reports ready to rule (None: nothing to rule)."""
    expect_path = report_path.with_name(report_path.name.removesuffix(".txt") + ".expected.toml")
    if not report_path.is_file():
        raise UsageError(f"`{expect_path}` has no report `{report_path.name}` beside it")
    expected = load_expectation(expect_path)
    result = CaseResult(str(report_path), expected["description"])
    text = report_path.read_text(encoding="utf-8")
    try:
        prepared = batches.prepare(parse_reports(text, str(report_path), rules=rules), rules=rules)
    except ReportError as exc:
        _compare_error(expected, exc, result)
        return result, expected, None
    except (ConfinementError, LimitExceeded, ProgramError):
        raise       # the pack, not the case (a ProgramError: UnsupportedConstruct too, as a job raises it)
    except PpgError as exc:
        result.failures.append(f"unexpected error: {exc}")
        return result, expected, None
    if "error" in expected:
        result.failures.append("expected an input error, but the report was ruled")
        return result, expected, None
    return result, expected, prepared


def run_cases(paths: list[Path], rules: Path | None = None) -> list[CaseResult]:
    """Every case under the paths, ruled by the bundled packs or those under `rules`; the
    reports of all cases are ruled together, one grounding per policy (a policy that
    fails to ground fails each of its cases)."""
    cases = [_prepare_case(case, rules) for case in find_cases(paths)]
    by_policy: dict[str, list[tuple[CaseResult, dict, list]]] = {}
    for result, expected, prepared in cases:
        if prepared is not None:
            policy = prepared[0][1] if prepared else ""
            by_policy.setdefault(policy, []).append((result, expected, prepared))
    for whole in by_policy.values():
        for questions in (False, True):    # a case that asks about questions gets them ruled
            group = [case for case in whole if ("question" in case[1]) == questions]
            try:
                rulings = batches.rule_prepared([item for _, _, prepared in group for item in prepared], rules,
                                            questions=questions)
            except (ConfinementError, LimitExceeded, ProgramError):
                raise   # the pack, not the cases: the command stops
            except PpgError as exc:
                for result, _, _ in group:
                    result.failures.append(f"unexpected error: {exc}")
                continue
            for result, expected, prepared in group:
                result.rulings, rulings = rulings[:len(prepared)], rulings[len(prepared):]
                _compare_rulings(expected, result)
    return [result for result, _, _ in cases]


def _compare_error(expected: dict, exc: ReportError, result: CaseResult) -> None:
    want = expected.get("error")
    if want is None:
        result.failures.append(f"unexpected input error:\n{exc}")
        return
    if expected.get("exit", 2) != 2:
        result.failures.append(f"expected exit {expected['exit']}, got 2")
    for key in ("line", "column"):
        if key in want and want[key] != getattr(exc, key):
            result.failures.append(f"error {key}: expected {want[key]}, got {getattr(exc, key)}")
    if "message_contains" in want and want["message_contains"] not in str(exc):
        result.failures.append(f"error message lacks `{want['message_contains']}`:\n{exc}")


def _compare_rulings(expected: dict, result: CaseResult) -> None:
    sets = result.rulings
    fail = result.failures.append
    actual = [r for rs in sets for r in rs.rulings]
    exit_code = max((rs.exit_code for rs in sets), default=0)
    if "exit" in expected and expected["exit"] != exit_code:
        fail(f"exit code: expected {expected['exit']}, got {exit_code}")
    want_keys = Counter((r["player"], r["infraction"], r["penalty"]) for r in expected.get("ruling", []))
    got_keys = Counter((r.player, r.infraction, golden_penalty(r.penalty)) for r in actual)
    for key in want_keys - got_keys:
        fail("missing ruling: {} {} {}".format(*key))
    for key in got_keys - want_keys:
        fail("unexpected ruling: {} {} {}".format(*key))
    # the n-th expectation of a (player, infraction, penalty) is held to the n-th ruling of it
    # (two related Warnings of one type: `issued = false` asserted of the second)
    seen: Counter = Counter()
    for want in expected.get("ruling", []):
        key = (want["player"], want["infraction"], want["penalty"])
        match = [r for r in actual if (r.player, r.infraction, golden_penalty(r.penalty)) == key]
        if seen[key] < len(match):
            _compare_ruling(want, match[seen[key]], fail)
        seen[key] += 1
    _compare_no_infractions(expected, sets, fail)
    _compare_findings(expected, [f for rs in sets for f in rs.findings], fail)
    _compare_questions(expected, [q for rs in sets for q in rs.questions], fail)
    assumptions = [a.text for rs in sets for a in rs.assumptions]
    for needle in expected.get("assumption_contains", []):
        if not any(needle.lower() in a.lower() for a in assumptions):
            fail(f"no assumption of the report mentions `{needle}`; got " + ("; ".join(assumptions) or "none"))
    for needle in expected.get("assumption_excludes", []):
        hits = [a for a in assumptions if needle.lower() in a.lower()]
        if hits:
            fail(f"an assumption of the report mentions `{needle}`: " + "; ".join(hits))
    if "time_extension" in expected:
        got_ext = max((rs.time_extension_minutes for rs in sets), default=0)
        if got_ext != expected["time_extension"]:
            fail(f"time extension: expected {expected['time_extension']}, got {got_ext}")
    if "outcome" in expected:
        _compare_outcome(expected["outcome"], sets, fail)
    if "judge_call" in expected:
        verdicts = {rs.judge_call_verdict for rs in sets}
        if verdicts != {expected["judge_call"]}:
            fail(f"judge call verdict: expected {expected['judge_call']}, got {sorted(verdicts)}")


def _compare_ruling(want: dict, got, fail) -> None:
    label = f"{want['player']} {want['infraction']}"
    for key in ("issued", "section", "related_to", "permitted"):
        if key in want and want[key] != getattr(got, key):
            fail(f"{label}: {key} expected {want[key]!r}, got {getattr(got, key)!r}")
    if "base_penalty" in want and want["base_penalty"] != golden_penalty(got.base_penalty):
        fail(f"{label}: base_penalty expected {want['base_penalty']!r}, got {golden_penalty(got.base_penalty)!r}")
    if "head_judge" in want and want["head_judge"] != bool(got.head_judge):
        fail(f"{label}: head_judge expected {want['head_judge']}, got {bool(got.head_judge)}")
    if "adjustments" in want:
        steps = [f"{a.kind}:{a.to}" for a in got.adjustments]
        if steps != want["adjustments"]:
            fail(f"{label}: adjustments expected {want['adjustments']}, got {steps}")
    if "options" in want:
        moves = [f"{o.by}:{o.penalty}" for o in got.options]
        if moves != want["options"]:
            fail(f"{label}: options expected {want['options']}, got {moves}")
    if "by_value" in want:
        got_values = {h: {v: golden_penalty(p) for v, p in values.items()}
                      for h, values in (got.by_value or {}).items()}
        if got_values != want["by_value"]:
            fail(f"{label}: by_value expected {want['by_value']}, got {got_values}")
    withheld = [got.withheld] if got.withheld else []
    for what, items in (("fix", got.fix), ("note", got.notes), ("assumption", got.assumptions),
                        ("not_issued", withheld)):
        for needle in want.get(f"{what}_contains", []):
            if not any(needle.lower() in c.text.lower() for c in items):
                fail(f"{label}: no {what} mentions `{needle}`; got " + ("; ".join(c.text for c in items) or "none"))
        for needle in want.get(f"{what}_excludes", []):
            hits = [c.text for c in items if needle.lower() in c.text.lower()]
            if hits:
                fail(f"{label}: a {what} mentions `{needle}`, which it must not: " + "; ".join(hits))


def _compare_outcome(want: dict, sets: list[RulingSet], fail) -> None:
    """The one outcome of the case's reports (`kind = "none"`: no outcome at all), its notes
    and options."""
    outcomes = [o for rs in sets for o in rs.outcomes]
    shown = "; ".join(f"{o.kind}: {o.describe()} ({o.section})" for o in outcomes) or "none"
    if want["kind"] == "none":
        if outcomes:
            fail(f"outcome: expected none, got {shown}")
    elif len(outcomes) != 1:
        fail(f"outcome: expected one {want['kind']}, got {shown}")
    else:
        got = outcomes[0]
        for key in ("kind", "result", "scope", "winner", "player", "penalty", "section"):
            if key in want and want[key] != getattr(got, key):
                fail(f"outcome: {key} expected {want[key]!r}, got {getattr(got, key)!r}")
        if "step_contains" in want and want["step_contains"].lower() not in (got.step or "").lower():
            fail(f"outcome: the step lacks `{want['step_contains']}`; got {shown}")
    notes = [n.text for rs in sets for n in rs.outcome_notes]
    options = [f"{o.by}: {o.outcome.describe()} {o.condition}" for rs in sets for o in rs.outcome_options]
    for what, items in (("note", notes), ("option", options)):
        for needle in want.get(f"{what}_contains", []):
            if not any(needle.lower() in item.lower() for item in items):
                fail(f"outcome: no {what} mentions `{needle}`; got " + ("; ".join(items) or "none"))
        for needle in want.get(f"{what}_excludes", []):
            hits = [item for item in items if needle.lower() in item.lower()]
            if hits:
                fail(f"outcome: {'an' if what == 'option' else 'a'} {what} mentions `{needle}`, which it must not: "
                     + "; ".join(hits))


def _compare_no_infractions(expected: dict, sets: list[RulingSet], fail) -> None:
    if "no_infraction" not in expected:
        return
    got_none = Counter((n.player, n.section) for rs in sets for n in rs.no_infractions)
    want_none = Counter((n["player"], n.get("section")) for n in expected["no_infraction"])
    loose = {k for k in want_none if k[1] is None}
    got_cmp = Counter((p, None) if (p, None) in loose else (p, s) for p, s in got_none.elements())
    if got_cmp != want_none:
        fail(f"no-infraction: expected {sorted(want_none.elements(), key=str)}, "
             f"got {sorted(got_none.elements(), key=str)}")


def _compare_findings(expected: dict, findings: list, fail) -> None:
    want_findings = expected.get("finding", [])
    if Counter(f["kind"] for f in want_findings) != Counter(f.kind for f in findings):
        fail("findings: expected " + (", ".join(f["kind"] for f in want_findings) or "none")
             + "; got " + ("; ".join(f"{f.kind}: {f.message} ({f.section})" for f in findings) or "none"))
        return
    for want in want_findings:
        if not any(f.kind == want["kind"]
                   and want.get("level", f.level) == f.level
                   and want.get("section_contains", "") in f.section
                   and want.get("message_contains", "") in f.message for f in findings):
            fail(f"no {want['kind']} finding matches {want}")


def _compare_questions(expected: dict, questions: list, fail) -> None:
    """Each expected question must be asked (the ruling may ask more, up to five)."""
    for want in expected.get("question", []):
        if not any(want["add_contains"].lower() in q.add.lower()
                   and want.get("player", q.player) == q.player
                   and want.get("infraction", q.infraction) == q.infraction
                   and want.get("penalty", golden_penalty(q.penalty)) == golden_penalty(q.penalty)
                   and want.get("unsettled", q.unsettled) == q.unsettled for q in questions):
            fail(f"no question matches {want}; got "
                 + ("; ".join(f"{q.player}: {q.add} -> {q.infraction}, {q.penalty or q.unsettled or None}"
                              for q in questions) or "none"))
