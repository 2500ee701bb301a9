"""Rule coverage of golden cases (`ppgcheck test --coverage`).

The rules measured are a pack's rules (with a body) whose head is a
classification `infraction/3`, an exclusion `not_infraction/4`, a precedence
`supersedes/3`, a `base_penalty/5`, an `adjustment/8` (upgrade, downgrade,
repeat, cap, replace) or an `outcome/2` of the procedures besides penalties.
Each is identified by `file:line` of the pack file.

Every golden case is ruled again by an instrumented copy of its pack, in which
each measured rule R (with body B) gets two twins (clingo AST rewrites):

    cov_fired(R)  :- B.          % the case fires R
    cov_anchor(R) :- A.          % the case is about what R is about

A case **fires** R when some grounding of B holds in its model.  A case
**just misses** R when B holds for no grounding but the anchor A holds:

* for a `base_penalty`, an `adjustment` (and a `supersedes`) the anchor is
  `committed(O, P, Inf)` with the head's own O, P and infraction: the case
  commits the infraction the rule is about, and some other condition of the
  rule (a modifier, a threshold, the REL, the history, a negated literal) is
  not met;
* for an `outcome` rule the anchor is a statement of the match's state of a
  kind the rule reads (its positive `match_state(K, _)` literals), or of any
  kind when it names none;
* for an `infraction` or `not_infraction` rule the anchor is an observation
  of a kind the rule reads: the constants K of its positive
  `observation(_, _, K)` literals, or, when it reads the observation through
  helper predicates of the pack, the kinds those helpers read (followed
  through the pack's rules); a rule that names no kind at all is anchored on
  any observation.

A rule whose body is nothing but anchors (`base_penalty(O, P, x, ...) :-
committed(O, P, x).`, `infraction(O, P, x) :- observation(O, P, k).`; a second
person's `other_person/2` is part of the observation) has no
condition a case could just miss: it counts as covered once fired.

A rule is covered when some case fires it and some case just misses it; the
pack's coverage is the share of its measured rules that are covered, and
`--coverage-threshold N` fails a pack below N %.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import clingo
from clingo import ast

from ppgcheck.engine import batches
from ppgcheck.errors import PpgError
from ppgcheck.language.facts import Fact, build_facts, constant_to_slug
from ppgcheck.ci.golden import find_cases
from ppgcheck.packs.pack import shown_path
from ppgcheck.engine.policy import PolicyEngine
from ppgcheck.packs.program import Program, Statement, parse_text, text_of
from ppgcheck.language.report import parse_reports
from ppgcheck.packs.isolation import call_bounded
import json
from xml.etree import ElementTree as ET
from ppgcheck.ci.testreport import render_junit, render_results_json

MEASURED = {("infraction", 3): 2, ("not_infraction", 4): None, ("supersedes", 3): 0,
            ("base_penalty", 5): 2, ("adjustment", 8): 2, ("outcome", 2): None}
_ANCHORS = {"observation", "other_person", "committed", "infraction"}
SECTION_ARG = {"not_infraction": 3, "supersedes": 2, "base_penalty": 4, "adjustment": 7, "outcome": 1}


@dataclass
class RuleCoverage:
    id: str                 # file:line
    file: str
    line: int
    kind: str               # infraction | not_infraction | supersedes | base_penalty | upgrade | downgrade |
                            # repeat | cap | replace | outcome
    subject: str            # the infraction it is about ("any" for a variable), "" for not_infraction
    section: str
    missable: bool = True   # False: the body is only the anchor, nothing to just miss
    fired_by: list[str] = field(default_factory=list)
    missed_by: list[str] = field(default_factory=list)

    @property
    def fired(self) -> bool:
        return bool(self.fired_by)

    @property
    def missed(self) -> bool:
        return bool(self.missed_by) or not self.missable

    @property
    def covered(self) -> bool:
        return self.fired and self.missed


@dataclass
class PackCoverage:
    policy: str
    rules: list[RuleCoverage] = field(default_factory=list)
    cases: int = 0
    skipped: list[str] = field(default_factory=list)   # cases not ruled (expected errors, bad input)

    def _pct(self, n: int) -> float:
        return 100.0 * n / len(self.rules) if self.rules else 100.0

    @property
    def percent(self) -> float:
        return self._pct(sum(r.covered for r in self.rules))

    @property
    def fired_percent(self) -> float:
        return self._pct(sum(r.fired for r in self.rules))

    @property
    def missed_percent(self) -> float:
        return self._pct(sum(r.missed for r in self.rules))


# ---------------------------------------------------------------------------
# instrumenting a pack
# ---------------------------------------------------------------------------

def kinds_read(rules: list[Statement]) -> dict[str, set[str]]:
    """Observation kinds each pack predicate reads, through the pack's rules
    (`committed` counts as `infraction`)."""
    direct: dict[str, set[str]] = {}
    uses: dict[str, set[str]] = {}
    for st in rules:
        head = st.head_atom()
        if head is None:
            continue
        for atom in st.positive_atoms():
            if atom.name == "observation" and len(atom.terms) == 3 and text_of(atom.terms[2]):
                direct.setdefault(head.name, set()).add(text_of(atom.terms[2]))
            else:
                uses.setdefault(head.name, set()).add("infraction" if atom.name == "committed" else atom.name)
    kinds = {k: set(v) for k, v in direct.items()}
    grew = True
    while grew:
        grew = False
        for name, preds in uses.items():
            add = set().union(*(kinds.get(p, set()) for p in preds)) - kinds.get(name, set())
            if add:
                kinds.setdefault(name, set()).update(add)
                grew = True
    return kinds


def _num(n: int) -> ast.AST:
    return ast.SymbolicTerm(_LOC, clingo.Number(n))


_POS = ast.Position("<coverage>", 1, 1)
_LOC = ast.Location(_POS, _POS)


def _rule(head_name: str, n: int, body: list[ast.AST], loc=_LOC) -> ast.AST:
    head = ast.Literal(loc, ast.Sign.NoSign, ast.SymbolicAtom(ast.Function(loc, head_name, [_num(n)], 0)))
    return ast.Rule(loc, head, body)


def _lit(name: str, args: list[ast.AST], loc=_LOC) -> ast.AST:
    return ast.Literal(loc, ast.Sign.NoSign, ast.SymbolicAtom(ast.Function(loc, name, args, 0)))


def _anon() -> ast.AST:
    return ast.Variable(_LOC, "_")


def instrument(statements: Program, pack: Program, sections: dict[str, str],
               root: Path | None = None) -> tuple[Program, list[RuleCoverage]]:
    """The statements plus the cov_fired/cov_anchor twins of every measured rule of the pack's own."""
    root = root or Path.cwd()
    pack_rules = [st for st in pack.statements if st.kind == ast.ASTType.Rule]
    kinds = kinds_read(pack_rules)
    extra: list[ast.AST] = []
    measured: list[RuleCoverage] = []
    seen: set[str] = set()
    for st in pack_rules:
        head = st.head_atom()
        if head is None or not st.node.body or head.signature not in MEASURED:
            continue
        name, args = head.name, head.terms
        rid = f"{shown_path(st.file, root)}:{st.line}"
        if rid in seen:
            rid = f"{rid}:{st.node.location.begin.column}"
        seen.add(rid)
        n = len(measured)
        inf_pos = MEASURED[head.signature]
        subject = ""
        if inf_pos is not None:
            c = text_of(args[inf_pos])
            subject = constant_to_slug(c) if c else "any"
        kind = name
        if name == "adjustment":
            kind = text_of(args[4]) or "adjustment"
        section = ""
        if name in SECTION_ARG:
            section = text_of(args[SECTION_ARG[name]]) or ""
        elif subject and subject != "any":
            section = sections.get(subject, "")
        positive = st.positive_atoms()
        missable = not (len(positive) == len(st.node.body) and all(a.name in _ANCHORS for a in positive))
        measured.append(RuleCoverage(rid, st.file, st.line, kind, subject, section, missable))
        extra.append(_rule("cov_fired", n, list(st.node.body), st.node.location))
        extra.extend(_anchors(n, name, list(args), positive, kinds))
    shows = parse_text("#show cov_fired/1. #show cov_anchor/1. #defined cov_fired/1. #defined cov_anchor/1.")
    return statements + Program(extra) + shows, measured


def _anchors(n: int, name: str, args: list[ast.AST], positive: list, kinds: dict[str, set[str]]) -> list[ast.AST]:
    """The cov_anchor rules of measured rule n: what a case must hold to be about what the rule is about."""
    if name in ("base_penalty", "adjustment"):
        return [_rule("cov_anchor", n, [_lit("committed", args[:3])])]
    if name == "supersedes":
        return [_rule("cov_anchor", n, [_lit("infraction", [_anon(), _anon(), args[i]])]) for i in (0, 1)]
    if name == "outcome":       # a statement of the match's state of a kind the rule reads (any, when none)
        states = sorted({text_of(a.terms[0]) for a in positive
                         if a.name == "match_state" and len(a.terms) == 2 and text_of(a.terms[0])})
        return [_rule("cov_anchor", n, [_lit("match_state", [ast.SymbolicTerm(_LOC, clingo.Function(k)) if k
                                                             else _anon(), _anon()])]) for k in states or [None]]
    read = {text_of(a.terms[2]) for a in positive
            if a.name == "observation" and len(a.terms) == 3 and text_of(a.terms[2])}
    if not read:
        for a in positive:
            read |= kinds.get("infraction" if a.name == "committed" else a.name, set())
    if not read:
        return [_rule("cov_anchor", n, [_lit("observation", [_anon(), _anon(), _anon()])])]
    return [_rule("cov_anchor", n, [_lit("observation", [_anon(), _anon(), ast.SymbolicTerm(_LOC, clingo.Function(k))])])
            for k in sorted(read)]


class CoverageEngine(PolicyEngine):
    """A policy engine whose models also say which measured rules fired or were just missed."""

    def __init__(self, policy: str, rules: Path | None = None, root: Path | None = None) -> None:
        super().__init__(policy, rules)
        own = self.pack.parsed(self.pack.files, order="files")
        self.statements, self.measured = instrument(self.statements, own, self.sections, root or self.pack.root)

    def observe(self, facts: list[Fact]) -> tuple[set[int], set[int]]:
        """(rules fired, rules whose anchor holds) for one report's facts: one job under the
        process's limits (ppgcheck/packs/isolation.py), the instrumented pack prepared here once."""
        self.program        # noqa: B018 (prepared in this process, for every case's job)
        return call_bounded(lambda: self._observe(facts), self.where, lambda: self.locate_overrun([facts]))

    def _observe(self, facts: list[Fact]) -> tuple[set[int], set[int]]:
        atoms = self.solve(facts)
        fired = {number.number for number, in atoms.get("cov_fired/1", [])}
        anchored = {number.number for number, in atoms.get("cov_anchor/1", [])}
        return fired, anchored


# ---------------------------------------------------------------------------
# running the cases
# ---------------------------------------------------------------------------

def measure(paths: list[Path], rules: Path | None = None) -> list[PackCoverage]:
    """Coverage of every pack the golden cases under `paths` are ruled by."""
    engines: dict[str, CoverageEngine] = {}
    packs: dict[str, PackCoverage] = {}
    for case in find_cases(paths):
        name = str(case)
        try:
            reports = parse_reports(case.read_text(encoding="utf-8"), name, rules=rules)
        except (PpgError, OSError, UnicodeDecodeError):
            continue        # an expected-error case: nothing is ruled
        for report in reports:
            try:
                policy = batches.resolve_policy(report, rules=rules)
                if policy not in engines:
                    engines[policy] = CoverageEngine(policy, rules)
                    packs[policy] = PackCoverage(policy, engines[policy].measured)
                eng = engines[policy]
                eng.check_ids(report)
                fired, anchored = eng.observe(build_facts(report).inputs)
            except PpgError:
                if report.policy in packs:
                    packs[report.policy].skipped.append(name)
                continue
            cov = packs[policy]
            cov.cases += 1
            for i, rule in enumerate(cov.rules):
                if i in fired:
                    if name not in rule.fired_by:
                        rule.fired_by.append(name)
                elif i in anchored and name not in rule.missed_by:
                    rule.missed_by.append(name)
    return [packs[p] for p in sorted(packs)]


def below(results: list[PackCoverage], threshold: float | None) -> list[PackCoverage]:
    return [] if threshold is None else [c for c in results if c.percent < threshold]


def render_text(results: list[PackCoverage], threshold: float | None = None) -> str:
    out: list[str] = []
    for c in results:
        total = len(c.rules)
        fired = sum(r.fired for r in c.rules)
        missed = sum(r.missed for r in c.rules)
        both = sum(r.covered for r in c.rules)
        verdict = ""
        if threshold is not None:
            verdict = f" — {'BELOW' if c.percent < threshold else 'meets'} the threshold of {threshold:g} %"
        out.append(f"coverage {c.policy}: {both}/{total} rules fired and just missed ({c.percent:.0f} %); "
                   f"fired {fired} ({c.fired_percent:.0f} %), just missed or nothing to miss {missed} "
                   f"({c.missed_percent:.0f} %) "
                   f"by {c.cases} case(s){verdict}")
        for r in c.rules:
            if r.covered:
                continue
            lacks = " and ".join(x for x, ok in (("never fired", r.fired), ("never just missed", r.missed)) if not ok)
            about = f" {r.subject}" if r.subject else ""
            sec = f" ({r.section})" if r.section else ""
            out.append(f"  {r.id}: {r.kind}{about}{sec} — {lacks}")
    return "\n".join(out)


def coverage_dict(c: PackCoverage, threshold: float | None = None) -> dict:
    return {"policy": c.policy, "cases": c.cases, "rules": len(c.rules),
            "covered_percent": round(c.percent, 2), "fired_percent": round(c.fired_percent, 2),
            "missed_percent": round(c.missed_percent, 2),
            "threshold": threshold, "passed": threshold is None or c.percent >= threshold,
            "rule_coverage": [{"id": r.id, "kind": r.kind, "subject": r.subject or None,
                               "section": r.section or None, "missable": r.missable, "fired_by": r.fired_by,
                               "missed_by": r.missed_by} for r in c.rules]}


def render_with_results(fmt: str, results, measured: list[PackCoverage], threshold: float | None) -> str:
    """The coverage in the test command's format: text on its own; json as a
    `coverage` key beside the cases; junit as one test case per pack
    (`coverage/<policy>`, failing below the threshold)."""

    if fmt == "json":
        data = json.loads(render_results_json(results))
        data["coverage"] = [coverage_dict(c, threshold) for c in measured]
        return json.dumps(data, indent=2)
    if fmt == "junit":
        suite = ET.fromstring(render_junit(results))
        for c in measured:
            case = ET.SubElement(suite, "testcase", classname="coverage", name=f"coverage/{c.policy}")
            text = render_text([c], threshold)
            if threshold is not None and c.percent < threshold:
                failure = ET.SubElement(case, "failure",
                                        message=f"rule coverage {c.percent:.0f} % is below {threshold:g} %")
                failure.text = text
                suite.set("failures", str(int(suite.get("failures", "0")) + 1))
            else:
                ET.SubElement(case, "system-out").text = text
            suite.set("tests", str(int(suite.get("tests", "0")) + 1))
        return ET.tostring(suite, encoding="unicode")
    return render_text(measured, threshold)


__all__ = ["CoverageEngine", "PackCoverage", "RuleCoverage", "below", "coverage_dict", "instrument",
           "measure", "render_text", "render_with_results"]
