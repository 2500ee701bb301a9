"""`ppgcheck diff`: what a change to the rules changes, over the same scenario space.

Both versions of a pack are grounded side by side over one scenario space
(rules/core/scenarios.lp bounded by what *either* version reads,
ppgcheck/analysis/scenarios.py): the new version as is, and beside it the old
version's rules for every predicate whose definition differs (and those that
depend on them), renamed `o__`, reading the same input facts; everything the
edit does not touch is shared.  A `dif_class/5` atom names every class of
incident whose ruling differs:

    dif_class(What, ObservationKind, Subject, Before, After)

What is `infraction` (an infraction is committed in one version only),
`no_infraction` (an explicit not-an-infraction, by section, in one version
only), `penalty` (the same infraction, a different base penalty, final penalty
or issued flag), `fix` (the same infraction, different fix steps) or
`finding(Kind, Level, Message, Section)` (a finding one version derives and
the other does not).  One brave pass collects every class any scenario
reaches; then each class gets the smallest scenario that shows it
(check.smallest_witness), printed back as a report and ruled by both versions
(policy.PolicyEngine) to show the two rulings side by side.
"""
from __future__ import annotations

import copy
import functools
import io
import json
import os
import shutil
import subprocess
import tarfile
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import clingo
from clingo import ast

from ppgcheck.analysis.check import (Budget, CheckResult, bounded_pack_job, clingo_logger as _logger, brave_consequences,
                                     check_policy, resolve_pack, scenario_report, smallest_witness)
from ppgcheck.errors import PolicyError, PpgError, UsageError
from ppgcheck.language.facts import build_facts, constant_to_slug, slug_to_constant
from ppgcheck.engine import confine, isolation
from ppgcheck.engine.policy import PolicyEngine
from ppgcheck.language.report import Observation, Report, print_report
from ppgcheck.language.vocabulary import Vocabulary, vocabulary_of_files
from ppgcheck.engine.ruling import RulingSet, _text, decode
from ppgcheck.analysis.scenarios import PackReads, _fn, parse_statements, read_pack, scenario_facts

CORE_FOR_CHECK = ("vocabulary.lp", "scenarios.lp", "penalties.lp", "findings.lp", "output.lp")
RENAMED_CORE = ("vocabulary.lp", "penalties.lp", "findings.lp", "output.lp")
OLD = "o__"

# What each version rules, over one scenario: the new version's atoms under
# dif_*, the old version's under odif_* (written with plain names here; the
# old side's body atoms are then renamed `o__` wherever the old definition of
# a predicate differs from the new one, see _changed_predicates).
_VIEW = """
{p}dif_base(O, P, I, Pen) :- committed(O, P, I), pen(O, P, I, 0, Pen).
{p}dif_base(O, P, I, undetermined) :- committed(O, P, I), not pen(O, P, I, 0, _).
{p}dif_final(O, P, I, Pen) :- penalty(O, P, I, Pen).
{p}dif_final(O, P, I, undetermined) :- committed(O, P, I), not penalty(O, P, I, _).
{p}dif_issued(O, P, I, issued) :- issued(O, P, I, _).
{p}dif_issued(O, P, I, absorbed) :- penalty(O, P, I, _), not issued(O, P, I, _).
{p}dif_issued(O, P, I, none) :- committed(O, P, I), not penalty(O, P, I, _).
{p}dif_ruling(O, P, I, r(B, F, X)) :- {p}dif_base(O, P, I, B), {p}dif_final(O, P, I, F), {p}dif_issued(O, P, I, X).
{p}dif_committed(O, P, I) :- committed(O, P, I).
{p}dif_infraction(O, P, I) :- infraction(O, P, I).
{p}dif_ni(O, P, S) :- not_infraction(O, P, _, S).
{p}dif_fix(O, P, I, S, T, Sec) :- fix(O, P, I, S, T, Sec).
{p}dif_finding(K, L, O, M, S) :- finding(K, L, O, M, S).
{p}dif_note(O, P, I, T, S) :- note(O, P, I, T, S).
{p}dif_head_judge(O, P, I) :- head_judge(O, P, I, _).
{p}dif_time(M, S) :- time_extension(M, S).
{p}dif_report_note(T, S) :- report_note(T, S).
{p}dif_outcome(X, S) :- outcome(X, S).
{p}dif_outcome_note(T, S) :- outcome_note(T, S).
#defined note/5. #defined head_judge/4. #defined time_extension/2. #defined report_note/2.
"""

_CLASSES = """
dif_kind(O, K) :- observation(O, _, K).
dif_kind(0, none).

dif_class(infraction, K, I, committed, not_committed) :-
    odif_committed(O, P, I), not dif_committed(O, P, I), dif_kind(O, K).
dif_class(infraction, K, I, not_committed, committed) :-
    dif_committed(O, P, I), not odif_committed(O, P, I), dif_kind(O, K).
dif_class(no_infraction, K, S, listed, not_listed) :- odif_ni(O, P, S), not dif_ni(O, P, S), dif_kind(O, K).
dif_class(no_infraction, K, S, not_listed, listed) :- dif_ni(O, P, S), not odif_ni(O, P, S), dif_kind(O, K).
dif_class(penalty, K, I, RO, RN) :-
    dif_committed(O, P, I), odif_committed(O, P, I), dif_kind(O, K),
    dif_ruling(O, P, I, RN), odif_ruling(O, P, I, RO), RO != RN.
dif_class(fix, K, I, changed, changed) :-
    dif_committed(O, P, I), odif_committed(O, P, I), dif_kind(O, K),
    dif_fix(O, P, I, S, T, Sec), not odif_fix(O, P, I, S, T, Sec).
dif_class(fix, K, I, changed, changed) :-
    dif_committed(O, P, I), odif_committed(O, P, I), dif_kind(O, K),
    odif_fix(O, P, I, S, T, Sec), not dif_fix(O, P, I, S, T, Sec).
dif_class(finding(Kd, L, M, S), K, none, present, absent) :-
    odif_finding(Kd, L, O, M, S), not dif_finding(Kd, L, O, M, S), dif_kind(O, K).
dif_class(finding(Kd, L, M, S), K, none, absent, present) :-
    dif_finding(Kd, L, O, M, S), not odif_finding(Kd, L, O, M, S), dif_kind(O, K).
dif_class(note, K, I, changed, changed) :-
    dif_committed(O, P, I), odif_committed(O, P, I), dif_kind(O, K),
    dif_note(O, P, I, T, S), not odif_note(O, P, I, T, S).
dif_class(note, K, I, changed, changed) :-
    dif_committed(O, P, I), odif_committed(O, P, I), dif_kind(O, K),
    odif_note(O, P, I, T, S), not dif_note(O, P, I, T, S).
dif_class(head_judge, K, I, not_required, required) :-
    dif_committed(O, P, I), odif_committed(O, P, I), dif_kind(O, K),
    dif_head_judge(O, P, I), not odif_head_judge(O, P, I).
dif_class(head_judge, K, I, required, not_required) :-
    dif_committed(O, P, I), odif_committed(O, P, I), dif_kind(O, K),
    odif_head_judge(O, P, I), not dif_head_judge(O, P, I).
% time extensions are about the match, not one observation (the same grants: the same total)
dif_class(time_extension, none, none, changed, changed) :- dif_time(M, S), not odif_time(M, S).
dif_class(time_extension, none, none, changed, changed) :- odif_time(M, S), not dif_time(M, S).
dif_class(report_note, none, none, changed, changed) :- dif_report_note(T, S), not odif_report_note(T, S).
dif_class(report_note, none, none, changed, changed) :- odif_report_note(T, S), not dif_report_note(T, S).
% the outcome is about the match, not one observation
dif_class(outcome, none, none, changed, changed) :- dif_outcome(X, S), not odif_outcome(X, S).
dif_class(outcome, none, none, changed, changed) :- odif_outcome(X, S), not dif_outcome(X, S).
dif_class(outcome, none, none, changed, changed) :- dif_outcome_note(T, S), not odif_outcome_note(T, S).
dif_class(outcome, none, none, changed, changed) :- odif_outcome_note(T, S), not dif_outcome_note(T, S).
#defined not_infraction/4. #defined fix/6.
#defined dif_touch/1. #defined dif_touch_kind/1. #defined dif_restrict/0.
% Only scenarios where an infraction the changed rules name is classified, in
% either version, or that observe a kind a changed exclusion needs.
dif_relevant :- dif_infraction(_, _, I), dif_touch(I).
dif_relevant :- odif_infraction(_, _, I), dif_touch(I).
dif_relevant :- observation(_, _, K), dif_touch_kind(K).
:- dif_restrict, not dif_relevant.
#show dif_class/5.
"""
# Predicates the comparison reads: when none of them differs, nothing can.
_OUTPUTS = {"committed", "not_infraction", "pen", "penalty", "issued", "fix", "finding", "note", "head_judge",
            "time_extension", "report_note", "outcome", "outcome_note"}

# changes a witness's ruling shows only with its notes and time extension
_NOTE_CHANGES = {"note", "time_extension", "report_note"}

WHAT_ORDER = ("finding", "infraction", "no_infraction", "penalty", "fix", "note", "head_judge", "time_extension",
              "report_note", "outcome")


@dataclass
class Change:
    what: str                      # infraction | no_infraction | penalty | fix | note | head_judge |
                                   # time_extension | report_note | finding
    observation: str               # the observation kind the class is about ("" for the report)
    subject: str                   # infraction id, section (no_infraction), "" for findings
    before: str
    after: str
    message: str
    level: str = "info"            # findings: their level; ruling changes: info
    introduced: bool | None = None  # findings: True introduced, False removed
    sections: list[str] = field(default_factory=list)
    location: tuple[str, int] | None = None
    witness: Report | None = None
    witness_text: str = ""
    minimal: bool = True
    ruling_before: list[str] = field(default_factory=list)
    ruling_after: list[str] = field(default_factory=list)


@dataclass
class DiffResult:
    policy: str
    old: str
    new: str
    status: str = "compared"       # compared | added | removed
    changes: list[Change] = field(default_factory=list)
    complete: bool = True
    models: int = 0
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)

    def introduced(self, level: str | None = None) -> list[Change]:
        return [c for c in self.changes if c.introduced and (level is None or c.level == level)]

    def removed(self) -> list[Change]:
        return [c for c in self.changes if c.introduced is False]

    @property
    def changed(self) -> bool:
        return bool(self.changes) or self.status != "compared"


# ---------------------------------------------------------------------------
# the comparison
# ---------------------------------------------------------------------------

def merge_reads(a: PackReads, b: PackReads) -> PackReads:
    """The scenario bounds of two versions together: what either reads."""
    out = PackReads(files=a.files + b.files)
    for name in ("observation_kinds", "modifiers", "count_keys", "headers", "when_values",
                 "thresholds", "history_thresholds", "reads_history_penalty", "states", "tallies"):
        setattr(out, name, set(getattr(a, name)) | set(getattr(b, name)))
    out.header_constants = {k: set(a.header_constants.get(k, set())) | set(b.header_constants.get(k, set()))
                            for k in set(a.header_constants) | set(b.header_constants)}
    out.reads_history = a.reads_history or b.reads_history
    out.infractions = {**b.infractions, **a.infractions}
    out.penalties = a.penalties or b.penalties
    out.cap = a.cap or b.cap
    out.section_locations = {**b.section_locations, **a.section_locations}
    out.wildcards = list(dict.fromkeys(a.wildcards + b.wildcards))
    # scenarios are written in the first version's language: what only the other's forms
    # say cannot be a scenario of both
    out.vocab = a.vocab
    if a.vocab is not None:
        out.observation_kinds &= set(a.vocab.observations)
        out.modifiers &= set(a.vocab.modifiers)
        out.states &= set(a.vocab.states)
        out.tallies &= set(a.vocab.tallies)
    return out



def _parse(files: list[Path], what: str) -> list[ast.AST]:
    try:
        return parse_statements(files)
    except RuntimeError:
        raise PolicyError(f"{what} does not parse: " + ", ".join(map(str, files))) from None


class _Names(ast.Transformer):
    """Collect the names of symbolic atoms."""

    def __init__(self) -> None:
        self.names: set[str] = set()

    def visit_SymbolicAtom(self, node):
        sym = node.symbol
        if sym.ast_type == ast.ASTType.Function:
            self.names.add(sym.name)
        elif sym.ast_type == ast.ASTType.SymbolicTerm and sym.symbol.type == clingo.SymbolType.Function:
            self.names.add(sym.symbol.name)
        return node


def _names(nodes) -> set[str]:
    collect = _Names()
    for node in nodes:
        collect(node)
    return collect.names


class _RenameSome(ast.Transformer):
    """Rename the atoms of the given predicates `o__name` (the old version's copy)."""

    def __init__(self, names: set[str]) -> None:
        self.names = names

    def visit_SymbolicAtom(self, node):
        sym = node.symbol
        if sym.ast_type == ast.ASTType.Function and sym.name in self.names:
            return node.update(symbol=sym.update(name=OLD + sym.name,
                                                 arguments=[self(a) for a in sym.arguments]))
        if (sym.ast_type == ast.ASTType.SymbolicTerm and sym.symbol.type == clingo.SymbolType.Function
                and sym.symbol.name in self.names):
            s = sym.symbol
            return node.update(symbol=ast.SymbolicTerm(sym.location, clingo.Function(OLD + s.name, s.arguments,
                                                                                      s.positive)))
        return node

    def visit_Defined(self, node):
        return node.update(name=OLD + node.name) if node.name in self.names else node


def _rules(stmts):
    return [st for st in stmts if st.ast_type == ast.ASTType.Rule]


def _changed_predicates(old: list[ast.AST], new: list[ast.AST]) -> set[str]:
    """Predicates whose rules differ between the versions, closed under dependency:
    only these need a second (old) copy; everything else is shared."""
    def table(stmts):
        out: dict[str, list[str]] = {}
        for st in _rules(stmts):
            text = str(st)
            for name in _names([st.head]) or {"#constraint"}:
                out.setdefault(name, []).append(text)
        return {k: sorted(v) for k, v in out.items()}
    t_old, t_new = table(old), table(new)
    consts = lambda stmts: sorted(str(st) for st in stmts if st.ast_type == ast.ASTType.Definition)
    if consts(old) != consts(new):
        return set(t_old) | set(t_new)     # a constant changed: compare everything
    changed = {n for n in set(t_old) | set(t_new) if t_old.get(n) != t_new.get(n)}
    deps = [(_names([st.head]), _names(st.body)) for st in _rules(old) + _rules(new)]
    grew = True
    while grew:
        grew = False
        for heads, body in deps:
            if body & changed and not heads <= changed:
                changed |= heads
                grew = True
    changed.discard("#constraint")
    return changed


# Heads that name the infraction they are about, and where (argument positions).
_INDEXED = {("infraction", 3): (2,), ("base_penalty", 5): (2,), ("adjustment", 8): (2,), ("fix", 6): (2,),
            ("note", 5): (2,), ("because", 5): (2,), ("head_judge", 4): (2,), ("section", 2): (0,),
            ("undefined_infraction", 2): (0,), ("supersedes", 3): (0, 1), ("category", 2): (0,)}


# Predicates of the pack contract (rules/core/CONTRACT.md) and the core: a
# changed rule for one of them that names no infraction may change anything.
_CONTRACT = {"penalty_rank", "next_penalty", "section", "rel_covered", "scope_section", "infraction",
             "supersedes", "not_infraction", "base_penalty", "adjustment", "combine_related", "fix", "note",
             "because", "head_judge", "time_extension", "report_note", "undefined_infraction", "finding",
             "repeat_cap", "category", "outcome", "outcome_note", "outcome_option"}


class _Unbounded(Exception):
    pass


def _touched_infractions(old: list[ast.AST], new: list[ast.AST],
                         core: list[ast.AST]) -> tuple[set[str], set[str]] | None:
    """The infractions the rules that differ are about: the constant infraction
    of each changed rule's head, or, for a changed helper predicate of the pack,
    of the rules that read it (followed through other helpers).  Then only
    scenarios that classify one of them can be ruled differently.  None when
    some changed rule is not about named infractions (a contract predicate with
    a variable infraction, a helper the core reads, a changed constant).
    A changed exclusion (`not_infraction/4`), or a classification under a
    variable infraction, is bounded instead by the observation kinds it needs
    (_RequiredKinds): returns (infractions, observation kinds)."""
    from collections import Counter
    consts = lambda stmts: sorted(str(st) for st in stmts if st.ast_type == ast.ASTType.Definition)
    if consts(old) != consts(new):
        return None
    o = Counter(str(st) for st in _rules(old))
    n = Counter(str(st) for st in _rules(new))
    diff = (o - n) + (n - o)
    rules = _rules(old) + _rules(new)
    core_names = _names(_rules(core))
    touched: set[str] = set()
    touched_kinds: set[str] = set()
    helpers: set[str] = set()
    required = _RequiredKinds(rules)

    def visit(st: ast.AST) -> None:
        head = st.head
        if head.ast_type != ast.ASTType.Literal or head.atom.ast_type != ast.ASTType.SymbolicAtom:
            raise _Unbounded
        sym = head.atom.symbol
        if sym.ast_type == ast.ASTType.Function:
            name, args = sym.name, [_constant(a) for a in sym.arguments]
        elif sym.ast_type == ast.ASTType.SymbolicTerm and sym.symbol.type == clingo.SymbolType.Function:
            name, args = sym.symbol.name, [_constant_sym(a) for a in sym.symbol.arguments]
        else:
            raise _Unbounded
        positions = _INDEXED.get((name, len(args)))
        if positions is not None and all(args[i] is not None for i in positions):
            touched.update(args[i] for i in positions)
            return
        if (name, len(args)) in _NEEDS_INFRACTION:
            infractions, kinds = _body_needs(st)
            if infractions or kinds:     # e.g. a time extension granted only for a committed tardiness
                touched.update(infractions)
                touched_kinds.update(kinds)
                return
        if (name, len(args)) in (("not_infraction", 4), ("infraction", 3)):
            kinds = required.rule(st)
            if kinds is None:
                raise _Unbounded
            touched_kinds.update(kinds)
            return
        if name in _CONTRACT or name in core_names:
            raise _Unbounded
        if name in helpers:
            return
        helpers.add(name)
        for reader in rules:
            if name in _names(reader.body):
                visit(reader)

    try:
        for st in rules:
            if str(st) in diff:
                visit(st)
    except _Unbounded:
        return None
    return touched, touched_kinds


# Contract heads that name no infraction: a rule for one is still bounded by the
# infractions or observation kinds its body needs (_body_needs).
_NEEDS_INFRACTION = {("time_extension", 2), ("report_note", 2)}


def _body_needs(st: ast.AST) -> tuple[set[str], set[str]]:
    """The constant infractions and observation kinds a rule's body needs: positive
    `committed(_, _, c)` or `infraction(_, _, c)` literals (either holds only in a
    scenario that classifies c), and `observation(_, _, k)` (only where k is observed)."""
    infractions: set[str] = set()
    kinds: set[str] = set()
    for lit in st.body:
        if (lit.ast_type != ast.ASTType.Literal or lit.sign != ast.Sign.NoSign
                or lit.atom.ast_type != ast.ASTType.SymbolicAtom
                or lit.atom.symbol.ast_type != ast.ASTType.Function or len(lit.atom.symbol.arguments) != 3):
            continue
        name, constant = lit.atom.symbol.name, _constant(lit.atom.symbol.arguments[2])
        if constant is None:
            continue
        if name in ("committed", "infraction"):
            infractions.add(constant)
        elif name == "observation":
            kinds.add(constant)
    return infractions, kinds


def _constant_sym(sym: clingo.Symbol) -> str | None:
    return sym.name if sym.type == clingo.SymbolType.Function and not sym.arguments else None


def _constant(term: ast.AST) -> str | None:
    if term.ast_type == ast.ASTType.SymbolicTerm:
        return _constant_sym(term.symbol)
    if term.ast_type == ast.ASTType.Function and not term.arguments:
        return term.name
    return None


def _control(new_core: Path, new_stmts, old_core: Path, old_stmts, facts: str,
             messages: list[str], touched: tuple[set[str], set[str]] | None) -> tuple[clingo.Control, set[str]]:
    """The new version over the scenario space, plus an `o__` copy of the old
    version's rules for every predicate whose definition changed."""
    ctl = clingo.Control(["--warn=none"], logger=_logger(messages))
    ctl.configuration.solver.opt_strategy = "usc"
    shows = (ast.ASTType.ShowSignature, ast.ASTType.ShowTerm)
    new_core_stmts = _parse([new_core / n for n in CORE_FOR_CHECK], "the new core")
    compared_new = [st for st in new_core_stmts
                    if Path(st.location.begin.filename).name != "scenarios.lp"] + list(new_stmts)
    old_all = _parse([old_core / n for n in RENAMED_CORE], "the old core") + list(old_stmts)
    changed = _changed_predicates(old_all, compared_new)
    if touched is not None:
        facts += ("dif_restrict.\n" + "".join(f"dif_touch({i}).\n" for i in sorted(touched[0]))
                  + "".join(f"dif_touch_kind({k}).\n" for k in sorted(touched[1])))
    rename = _RenameSome(changed)
    defined = {st.name for st in compared_new if st.ast_type == ast.ASTType.Definition}
    with ast.ProgramBuilder(ctl) as bld:
        for st in new_core_stmts + list(new_stmts):
            if st.ast_type not in shows:
                bld.add(st)
        for st in old_all:
            if st.ast_type == ast.ASTType.Rule and _names([st.head]) & changed:
                bld.add(rename(st))
            elif st.ast_type == ast.ASTType.Defined and st.name in changed:
                bld.add(rename(st))
            elif st.ast_type == ast.ASTType.Definition and st.name not in defined:
                bld.add(st)      # a constant only the old version defines
                defined.add(st.name)
        views: list[ast.AST] = []
        ast.parse_string(_VIEW.format(p="") + _CLASSES, views.append)
        for st in views:
            bld.add(st)
        old_view: list[ast.AST] = []
        ast.parse_string(_VIEW.format(p="o"), old_view.append)
        for st in old_view:
            bld.add(rename(st))
    ctl.add("base", [], facts)
    return ctl, changed


def _same_core(old_core: Path, new_core: Path) -> bool:
    return all((old_core / n).read_bytes() == (new_core / n).read_bytes() for n in RENAMED_CORE
               if (old_core / n).is_file() and (new_core / n).is_file())


class _RequiredKinds:
    """For a pack's predicates: the observation kinds one of which every
    derivation needs (a sound bound, unlike the kinds a predicate merely reads).
    A rule needs the smallest bound among its positive body literals
    (`observation(_, _, k)` needs k; `committed(_, _, x)`/`infraction(_, _, x)`
    the bound of x's classification rules; a pack helper its own bound); a
    predicate needs the union over its rules; None is no bound."""

    def __init__(self, rules: list[ast.AST]) -> None:
        self.defs: dict[str, list[ast.AST]] = {}
        for st in rules:
            head = st.head
            if head.ast_type == ast.ASTType.Literal and head.atom.ast_type == ast.ASTType.SymbolicAtom \
                    and head.atom.symbol.ast_type == ast.ASTType.Function:
                self.defs.setdefault(head.atom.symbol.name, []).append(st)
        self.memo: dict[tuple, set[str] | None] = {}
        self.stack: set[tuple] = set()

    def _union(self, key: tuple, rules: list[ast.AST]) -> set[str] | None:
        if key in self.memo:
            return self.memo[key]
        if key in self.stack:
            return None
        self.stack.add(key)
        total: set[str] | None = set()
        for st in rules:
            b = self.rule(st)
            if b is None:
                total = None
                break
            total |= b
        self.stack.discard(key)
        self.memo[key] = total
        return total

    def predicate(self, name: str) -> set[str] | None:
        if name not in self.defs:
            return None
        return self._union(("pred", name), self.defs[name])

    def infraction(self, inf: str) -> set[str] | None:
        rules = [st for st in self.defs.get("infraction", [])
                 if len(st.head.atom.symbol.arguments) == 3
                 and _constant(st.head.atom.symbol.arguments[2]) in (inf, None)]
        return self._union(("inf", inf), rules)

    def rule(self, st: ast.AST) -> set[str] | None:
        best: set[str] | None = None
        for lit in st.body:
            if lit.ast_type != ast.ASTType.Literal or lit.sign != ast.Sign.NoSign \
                    or lit.atom.ast_type != ast.ASTType.SymbolicAtom \
                    or lit.atom.symbol.ast_type != ast.ASTType.Function:
                continue
            name, args = lit.atom.symbol.name, lit.atom.symbol.arguments
            if name == "observation" and len(args) == 3:
                k = _constant(args[2])
                b = {k} if k is not None else None
            elif name in ("committed", "infraction") and len(args) == 3 and _constant(args[2]):
                b = self.infraction(_constant(args[2]))
            else:
                b = self.predicate(name)
            if b is not None and (best is None or len(b) < len(best)):
                best = b
        return best


def _kinds_classifying(infractions: set[str], stmts: list[ast.AST]) -> set[str] | None:
    """The observation kinds without one of which none of these infractions can be
    classified (in either version), or None when there is no such bound."""
    required = _RequiredKinds(_rules(stmts))
    kinds: set[str] = set()
    for inf in infractions:
        b = required.infraction(inf)
        if b is None:
            return None
        kinds |= b
    return kinds


# The kind of the first observation, to split the search by it.
# A scenario with a state of the match has no observation here (`none`), so that the
# states add their own few scenarios instead of multiplying every other
# (`ppgcheck check` searches them together, for an outcome against a penalty).
_FIRST_KIND = ("dif_first_kind(K) :- observation(1, _, K).\n"
               "dif_first_kind(none) :- not observation(1, _, _).\n"
               ":- chk_state(_), observation(_, _, _).\n:- chk_tally(_), observation(_, _, _).\n")


def _brave_by_kind(ctl: clingo.Control, budget: Budget, kinds: list[str],
                   notes: list[str]) -> tuple[set[clingo.Symbol], bool]:
    """The brave pass one observation kind at a time (the first observation's kind
    as an assumption), so that a kind whose scenarios are hard to exhaust does not
    starve the others: a first round gives every kind an equal short slice, a
    second round shares the time left among the kinds not finished."""
    ctl.configuration.solve.enum_mode = "brave"
    ctl.configuration.solve.opt_mode = "ignore"
    ctl.configuration.solve.models = 0
    ctl.configuration.solver.heuristic = "Vsids"    # far fewer hard-tailed runs than Berkmin here
    found: set[clingo.Symbol] = set()
    start = time.monotonic()
    end = start + 0.75 * budget.remaining()   # the rest is for the witnesses
    pending = list(kinds)
    for round_end in (start + 0.3 * (end - start), end):
        unfinished: list[str] = []
        for n, kind in enumerate(pending):
            if budget.exhausted() or time.monotonic() >= round_end:
                unfinished.extend(pending[n:])
                break
            until = time.monotonic() + (round_end - time.monotonic()) / (len(pending) - n)
            if not _brave_kind(ctl, budget, kind, until, found):
                unfinished.append(kind)
        pending = unfinished
        if not pending:
            break
    if pending:
        notes.append("not every scenario was searched for observations of kind "
                     + ", ".join(f"`{k}`" for k in pending) + " (raise --timeout)")
    return found, not pending


def _brave_kind(ctl: clingo.Control, budget: Budget, kind: str, until: float,
                found: set[clingo.Symbol]) -> bool:
    """Brave consequences of the scenarios whose first observation is of this kind,
    added to found (those of the last model when cut short); True when exhausted."""
    target = clingo.Function("dif_first_kind", [clingo.Function(kind)])
    last: list[clingo.Symbol] = []
    try:
        with ctl.solve(assumptions=[(target, True)], yield_=True, async_=True) as handle:
            while True:
                handle.resume()
                if not handle.wait(max(until - time.monotonic(), 0.01)):
                    handle.cancel()
                    return False
                model = handle.model()
                if model is None:
                    return True
                budget.models += 1
                last[:] = model.symbols(shown=True)
    finally:
        found.update(last)


def _rules_root(policy: str, pack: Path, core: Path, keep: list) -> Path:
    """A rules folder holding exactly this core and pack (symlinks), for PolicyEngine."""
    tmp = tempfile.TemporaryDirectory(prefix="ppgcheck-diff-")
    keep.append(tmp)
    root = Path(tmp.name)
    (root / "core").symlink_to(core.resolve(), target_is_directory=True)
    (root / policy).symlink_to(pack.resolve(), target_is_directory=True)
    return root


def diff_pack(policy: str, old: tuple[Path, Path], new: tuple[Path, Path], *, observations: int = 1,
              timeout: float = 120.0, max_models: int = 200_000, old_label: str = "",
              new_label: str = "") -> DiffResult:
    """Compare two versions of one pack; old and new are (pack folder, core folder).  A
    version that cannot rule (its files refused, a report of some observation kind past
    the time or memory limit, not exactly one answer set) is a change of its own, and the
    rulings are then not compared.  The comparison is one job (check.bounded_pack_job)."""
    result = DiffResult(policy, old_label or str(old[0]), new_label or str(new[0]))
    broken = {side: cannot_rule(policy, *version, timeout) for side, version in (("old", old), ("new", new))}
    if broken["old"] or broken["new"]:
        result.changes.extend(_broken_changes(broken))
        result.notes.append("the rulings are not compared: a version that cannot rule has nothing to compare")
        return result
    work = functools.partial(_diff_pack, policy, old, new, observations=observations, timeout=timeout,
                             max_models=max_models, result=result)
    return bounded_pack_job(work, new[0], new[1], timeout)


def cannot_rule(policy: str, pack: Path, core: Path, seconds: float) -> str | None:
    """Why this version of a pack cannot rule, None when it rules a report of every kind
    of observation (one batch, one job under the time bound and the memory limit)."""
    keep: list = []
    try:
        confine.check_folders(pack, core)
        same = pack.parent / "core"
        root = pack.parent if same.is_dir() and same.resolve() == core.resolve() else \
            _rules_root(policy, pack, core, keep)
        engine = PolicyEngine(policy, root)
        facts = [build_facts(r).inputs for r in _probe_reports(policy, engine.vocabulary)]
        bound = isolation.Limits(seconds, isolation.limits().megabytes)
        isolation.call_bounded(lambda: len(engine.solve_many(facts)),
                               f"{confine.shown(pack)} (one report of each kind of observation)",
                               lambda: engine.locate_overrun(facts), bound)
        return None
    except PpgError as exc:
        return str(exc)
    finally:
        for tmp in keep:
            tmp.cleanup()


def _probe_reports(policy: str, vocab: Vocabulary) -> list[Report]:
    """A report of each kind of observation the pack's language has, with the smallest counts."""
    reports = []
    for kind in sorted(vocab.observations):
        slots = vocab.canonical("observation", kind).slots
        counts = {s: vocab.count_ranges[s][0] for s in slots if s in vocab.count_ranges}
        observation = Observation("Alice", kind, other="Bob" if "Q" in slots else None, counts=counts)
        reports.append(Report(policy=policy, persons=[("Alice", "player"), ("Bob", "player")],
                              observations=[observation], vocab=vocab))
    return reports


def _broken_changes(broken: dict[str, str | None]) -> list[Change]:
    out = []
    for side, error in broken.items():
        if error:
            message = f"the {side} version cannot rule: {error}"
            out.append(Change("cannot_rule", "", "", "rules" if side == "new" else "cannot rule",
                              "cannot rule" if side == "new" else "rules", message, level="error",
                              introduced=side == "new"))
    return out


def _diff_pack(policy: str, old: tuple[Path, Path], new: tuple[Path, Path], *, observations: int,
               timeout: float, max_models: int, result: DiffResult) -> DiffResult:
    started = time.monotonic()
    (old_pack, old_core), (new_pack, new_core) = old, new
    budget = Budget(timeout, max_models)
    old_files, new_files = sorted(old_pack.glob("*.lp")), sorted(new_pack.glob("*.lp"))
    old_stmts = _parse(old_files, f"the old `{policy}`")
    new_stmts = _parse(new_files, f"the new `{policy}`")
    new_reads = read_pack(new_files, vocabulary_of_files(new_core / "vocabulary.lp", new_files, policy))
    reads = merge_reads(new_reads, read_pack(old_files, vocabulary_of_files(old_core / "vocabulary.lp", old_files,
                                                                            policy)))
    touched = None
    if _same_core(old_core, new_core):
        touched = _touched_infractions(old_stmts, new_stmts,
                                       _parse([new_core / n for n in RENAMED_CORE], "the core"))
    space = reads
    if reads.states and _about_the_match_only(old_stmts, new_stmts):
        space = copy.copy(reads)
        space.observation_kinds = set()
        result.notes.append("the changed rules read the state of the match: scenarios hold a state and no observation")
    elif touched and (touched[0] or touched[1]) and observations == 1:
        # one observation: only the kinds a touched infraction or exclusion needs
        kinds = _kinds_classifying(touched[0], list(old_stmts) + list(new_stmts))
        if kinds is not None:
            space = copy.copy(reads)
            space.observation_kinds = reads.observation_kinds & (kinds | touched[1])
            about = [f"`{constant_to_slug(i)}`" for i in sorted(touched[0])]
            about += [f"observations of kind `{k}`" for k in sorted(touched[1])]
            result.notes.append("the changed rules are about " + ", ".join(about) + ": scenarios observe "
                                + (", ".join(f"`{k}`" for k in sorted(space.observation_kinds)) or "nothing"))
    messages: list[str] = []
    ctl, changed = _control(new_core, new_stmts, old_core, old_stmts,
                            scenario_facts(space, observations) + _FIRST_KIND, messages, touched)
    if not changed & _OUTPUTS or not (space.observation_kinds or space.states):
        result.notes.append("no rule that decides a ruling differs between the versions")
        result.seconds = time.monotonic() - started
        return result
    try:
        ctl.ground([("base", [])])
    except RuntimeError:
        raise PolicyError(f"`{policy}` does not ground for the diff: " + "; ".join(messages)) from None
    if touched is not None or len(reads.observation_kinds) <= 1:
        brave, finished = brave_consequences(ctl, budget)
    else:   # (`none`: the scenarios of a state of the match with no observation)
        kinds = sorted(reads.observation_kinds) + (["none"] if reads.states else [])
        brave, finished = _brave_by_kind(ctl, budget, kinds, result.notes)
    if not finished:
        result.complete = False
    edited = _edited_rules(old_stmts, new_stmts)
    keep: list = []
    engines = {}
    try:
        engines = {"old": PolicyEngine(policy, _rules_root(policy, old_pack, old_core, keep)),
                   "new": PolicyEngine(policy, _rules_root(policy, new_pack, new_core, keep))}
    except PpgError as exc:
        result.notes.append(f"witnesses are not ruled: {exc}")
    try:
        for sym in sorted(brave, key=_order):
            if sym.name != "dif_class":
                continue
            change = _change(sym, reads, new_reads)
            change.location = _edited_location(change, edited) or change.location
            atoms, proven, _ = smallest_witness(ctl, budget, sym)
            if atoms is not None:
                change.witness = scenario_report(atoms, policy, vocab=new_reads.vocab)
                change.witness_text = print_report(change.witness)
                change.minimal = proven
                if engines:
                    notes = change.what in _NOTE_CHANGES
                    change.ruling_before = _summary(engines["old"], change.witness, notes)
                    change.ruling_after = _summary(engines["new"], change.witness, notes)
            result.changes.append(change)
            if budget.hit:
                result.complete = False
                break
    finally:
        for tmp in keep:
            tmp.cleanup()
    if budget.hit:
        result.notes.append(budget.hit)
    elif not finished:
        result.notes.append("the search did not finish: the changes found so far are listed")
    result.models = budget.models
    result.seconds = time.monotonic() - started
    return result


# Inputs and core helpers that hold only when the report states the match (rules/core/output.lp).
_MATCH_STATE = {"match_state", "tally", "time_called", "tally_more", "tally_tied"}


def _about_the_match_only(old: list[ast.AST], new: list[ast.AST]) -> bool:
    """Whether every rule the edit adds, changes or removes holds only in a scenario with a
    state of the match: its body has a positive literal of a match-state input or helper, or
    of a pack predicate every rule of which (in both versions) has one."""
    rules = [st for st in list(old) + list(new) if st.ast_type == ast.ASTType.Rule and st.body]
    def positive(st: ast.AST) -> set[str]:
        return {_fn(lit.atom.symbol)[0] for lit in st.body
                if lit.ast_type == ast.ASTType.Literal and lit.sign == ast.Sign.NoSign
                and lit.atom.ast_type == ast.ASTType.SymbolicAtom}
    by_head: dict[str, list[ast.AST]] = {}
    for st in list(old) + list(new):
        if st.ast_type == ast.ASTType.Rule and st.head.ast_type == ast.ASTType.Literal \
                and st.head.atom.ast_type == ast.ASTType.SymbolicAtom:
            by_head.setdefault(_fn(st.head.atom.symbol)[0], []).append(st)
    bound = set(_MATCH_STATE)
    grew = True
    while grew:
        grew = False
        for name, defining in by_head.items():
            if name not in bound and all(st.body and positive(st) & bound for st in defining):
                bound.add(name)
                grew = True
    old_text, new_text = {str(st) for st in old}, {str(st) for st in new}
    edited = [st for st in rules if (str(st) in old_text) != (str(st) in new_text)]
    return bool(edited) and all(positive(st) & bound for st in edited)


def _edited_rules(old: list[ast.AST], new: list[ast.AST]) -> list[tuple[str, int, set[str]]]:
    """(file, line, the constants and strings of its head) of each rule the edit
    adds or changes (the new version's), then of each rule it removes (the old's)."""
    from collections import Counter
    o = Counter(str(st) for st in _rules(old))
    n = Counter(str(st) for st in _rules(new))
    out = []
    for stmts, other in ((new, o), (old, n)):
        for st in _rules(stmts):
            if other[str(st)]:
                continue
            words: set[str] = set()
            for a in _head_arguments(st):
                c = _constant(a)
                if c is None and a.ast_type == ast.ASTType.SymbolicTerm and a.symbol.type == clingo.SymbolType.String:
                    c = a.symbol.string
                if c is not None:
                    words.add(c)
            loc = st.location.begin
            out.append((_shown_path(loc.filename), loc.line, words))
    return out


def _head_arguments(st: ast.AST) -> list[ast.AST]:
    head = st.head
    if head.ast_type == ast.ASTType.Literal and head.atom.ast_type == ast.ASTType.SymbolicAtom \
            and head.atom.symbol.ast_type == ast.ASTType.Function:
        return list(head.atom.symbol.arguments)
    return []


def _shown_path(filename: str) -> str:
    path = Path(filename)
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return filename


def _edited_location(change: Change, edited: list[tuple[str, int, set[str]]]) -> tuple[str, int] | None:
    """The edited rule a change comes from: one whose head names its infraction or
    cites its section; the only edited rule when there is one."""
    subject = slug_to_constant(change.subject) if change.subject else ""
    for file, line, words in edited:
        if (subject and subject in words) or any(sec in words for sec in change.sections):
            return (file, line)
    if len(edited) == 1:
        return edited[0][:2]
    return None


def _order(sym: clingo.Symbol):
    what = sym.arguments[0]
    name = what.name if what.type == clingo.SymbolType.Function else str(what)
    return (WHAT_ORDER.index(name) if name in WHAT_ORDER else 99, str(sym))


def _slug(sym: clingo.Symbol) -> str:
    if sym.type == clingo.SymbolType.Function and not sym.arguments:
        return constant_to_slug(sym.name)
    if sym.type == clingo.SymbolType.String:
        return sym.string
    return str(sym)


def _ruling_text(r: clingo.Symbol) -> str:
    base, final, issued = r.arguments
    text = _slug(final)
    if base != final:
        text += f" (base {_slug(base)})"
    if issued.name == "absorbed":
        text += ", not issued"
    return text


def _change(sym: clingo.Symbol, reads: PackReads, new_reads: PackReads) -> Change:
    what, kind, subject, before, after = sym.arguments
    obs = "" if kind.name == "none" else kind.name
    on = f" (observation `{obs}`)" if obs else ""
    if what.name == "finding":
        fk, level, msg, sec = what.arguments
        introduced = after.name == "present"
        message = _text(msg)
        shown = "gap" if fk.name == "scope" else fk.name
        sections = [sec.string] if sec.string else []
        loc = (new_reads if introduced else reads).section_locations.get(sec.string) if sec.string else None
        verb = "introduced" if introduced else "removed"
        return Change("finding", obs, "", before.name, after.name,
                      f"finding {verb}: {shown} ({level.name}): {message}{on}", level=level.name,
                      introduced=introduced, sections=sections, location=loc)
    if what.name == "no_infraction":
        sec = subject.string
        listed = after.name == "listed"
        return Change("no_infraction", obs, sec, before.name, after.name,
                      f"not-an-infraction ({sec}) {'now' if listed else 'no longer'} applies{on}",
                      sections=[sec], location=reads.section_locations.get(sec))
    if what.name == "time_extension":
        return Change("time_extension", "", "", "changed", "changed", "time extension of the match changed")
    if what.name == "report_note":
        return Change("report_note", "", "", "changed", "changed", "notes on the whole report changed")
    if what.name == "outcome":
        return Change("outcome", "", "", "changed", "changed", "the outcome of the match changed")
    inf = constant_to_slug(subject.name)
    sec = reads.infractions.get(subject.name, "")
    sections = [sec] if sec else []
    loc = reads.section_locations.get(sec) if sec else None
    if what.name == "infraction":
        now = after.name == "committed"
        message = f"infraction {'now' if now else 'no longer'} committed: {inf}{on}"
        b, a = before.name.replace("_", " "), after.name.replace("_", " ")
    elif what.name == "penalty":
        b, a = _ruling_text(before), _ruling_text(after)
        message = f"penalty changed: {inf}{on}: {b} → {a}"
    elif what.name == "head_judge":
        b, a = before.name.replace("_", " "), after.name.replace("_", " ")
        required = after.name == "required"
        message = f"Head Judge confirmation {'now' if required else 'no longer'} required: {inf}{on}"
    else:
        b, a = "changed", "changed"
        message = f"{'fix' if what.name == 'fix' else 'notes'} changed: {inf}{on}"
    return Change(what.name, obs, inf, b, a, message, sections=sections, location=loc)


def _summary(engine: PolicyEngine, report: Report, notes: bool = False) -> list[str]:
    """One line per ruling, no-infraction and finding of the witness under one version;
    with `notes`, also the notes and the time extension (a change to them is shown)."""
    try:
        facts = build_facts(report)
        rs: RulingSet = decode(engine.solve(facts.inputs), facts, report, engine.policy)
    except PpgError as exc:
        return [f"(not ruled: {exc})"]
    out = []
    for r in rs.rulings:
        line = f"{r.player}: {r.infraction}, {r.penalty}"
        if r.base_penalty != r.penalty:
            line += f" (base {r.base_penalty})"
        if not r.issued and r.penalty != "undetermined":
            line += ", not issued"
        if r.fix:
            line += "; fix: " + "; ".join(c.text for c in r.fix)
        if r.notes and notes:
            line += "; notes: " + "; ".join(c.text for c in r.notes)
        if r.head_judge:
            line += f"; the Head Judge confirms ({r.head_judge})"
        out.append(line)
    out += [f"{n.player}: no infraction ({n.section})" for n in rs.no_infractions]
    out += [f"{f.kind} ({f.level}): {f.message}" + (f" ({f.section})" if f.section else "")
            for f in rs.findings]
    out += [f"outcome: {o.kind}: {o.describe()} ({o.section})" for o in rs.outcomes]
    out += [f"outcome note: {n.text} ({n.section})" for n in rs.outcome_notes]
    if notes:
        if rs.time_extension_minutes:
            out.append(f"time extension: {rs.time_extension_minutes} minutes")
        out += [f"note: {n.text}" for n in rs.notes]
    return out or ["nothing derived"]


# ---------------------------------------------------------------------------
# folders and git revisions
# ---------------------------------------------------------------------------

def _packs(path: Path) -> dict[str, tuple[Path, Path]]:
    """The packs of a rules folder (or the one pack of a pack folder); none for a
    folder without packs (a revision before the first pack)."""
    if not (path.is_dir() and any(path.rglob("*.lp"))):
        return {}
    try:
        return {pid: (pack, core) for pid, pack, core in resolve_pack(None, path)}
    except UsageError:
        return {}


def diff_rules(old: str | Path, new: str | Path, policy: str | None = None, *, observations: int = 1,
               timeout: float = 120.0, max_models: int = 200_000, old_label: str = "",
               new_label: str = "") -> list[DiffResult]:
    """Compare two rules folders (or two pack folders): one DiffResult per pack."""
    old_path, new_path = Path(old), Path(new)
    for path in (old_path, new_path):
        if not path.is_dir():
            raise UsageError(f"no such rules folder: `{path}`")
    old_packs, new_packs = _packs(old_path), _packs(new_path)
    if not old_packs and not new_packs:
        raise UsageError(f"neither `{old}` nor `{new}` holds a policy pack (*.lp files, or folders of them)")
    if len(old_packs) == 1 and len(new_packs) == 1 and set(old_packs) != set(new_packs) and not policy:
        # two single pack folders under different names: the same pack
        old_packs = {next(iter(new_packs)): next(iter(old_packs.values()))}
    ids = sorted(set(old_packs) | set(new_packs))
    if policy:
        if policy not in ids:
            raise UsageError(f"no pack `{policy}` in either version: packs are "
                             + ", ".join(f"`{i}`" for i in ids))
        ids = [policy]
    old_label, new_label = old_label or str(old_path), new_label or str(new_path)
    results = []
    for pid in ids:
        o_lab, n_lab = f"{old_label}/{pid}", f"{new_label}/{pid}"
        if pid not in old_packs:
            results.append(_added(pid, new_packs[pid], o_lab, n_lab, timeout, max_models))
        elif pid not in new_packs:
            results.append(DiffResult(pid, o_lab, n_lab, status="removed",
                                      notes=["the pack is removed"]))
        else:
            results.append(diff_pack(pid, old_packs[pid], new_packs[pid], observations=observations,
                                     timeout=timeout, max_models=max_models, old_label=o_lab,
                                     new_label=n_lab))
    return results


def _added(pid: str, pack: tuple[Path, Path], old_label: str, new_label: str, timeout: float,
           max_models: int) -> DiffResult:
    """A new pack: everything it rules is new; its check findings are introduced."""
    result = DiffResult(pid, old_label, new_label, status="added", notes=["the pack is new"])
    broken = cannot_rule(pid, *pack, timeout)
    if broken:
        result.changes.extend(_broken_changes({"new": broken}))
        return result
    checked: CheckResult = check_policy(path=pack[0], timeout=timeout, max_models=max_models,
                                        monotonicity=False)[0]
    for f in checked.findings:
        result.changes.append(Change("finding", "", "", "absent", "present",
                                     f"finding introduced: {f.kind} ({f.level}): {f.message}",
                                     level=f.level, introduced=True, sections=f.sections,
                                     location=(f.locations[0].file, f.locations[0].line) if f.locations else None,
                                     witness=f.witness, witness_text=f.witness_text, minimal=f.minimal))
    result.complete, result.models, result.seconds = checked.complete, checked.models, checked.seconds
    return result


def git_toplevel(cwd: Path | None = None) -> Path:
    proc = subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True,
                          cwd=cwd)
    if proc.returncode != 0:
        raise UsageError("--base needs a git repository: " + (proc.stderr.strip() or "git failed"))
    return Path(proc.stdout.strip())


def export_revision(rev: str, folder: str, into: Path, cwd: Path | None = None) -> Path | None:
    """Write `folder` as it is at git revision `rev` under `into`; None when the revision lacks it."""
    check = subprocess.run(["git", "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"],
                           capture_output=True, text=True, cwd=cwd)
    if check.returncode != 0:
        raise UsageError(f"unknown git revision `{rev}`")
    proc = subprocess.run(["git", "archive", "--format=tar", rev, "--", folder], capture_output=True,
                          cwd=cwd)
    if proc.returncode != 0:
        return None
    with tarfile.open(fileobj=io.BytesIO(proc.stdout)) as tar:
        _extract(tar, into)
    return into / folder


def _extract(tar: tarfile.TarFile, into: Path) -> None:
    """Extract a revision's files under `into`, nothing outside it.  A symlink pointing
    outside (which the `data` filter refuses) is made after everything else, so nothing is
    written through it, and the pack's confinement then refuses it like any other."""
    if not hasattr(tarfile, "data_filter"):      # Python before 3.11.4 (git archive is trusted)
        tar.extractall(into)
        return
    outward: list[tarfile.TarInfo] = []

    def data_or_later(member: tarfile.TarInfo, dest: str) -> tarfile.TarInfo | None:
        try:
            return tarfile.data_filter(member, dest)
        except tarfile.FilterError:
            if member.issym() and not os.path.isabs(member.name) and ".." not in Path(member.name).parts:
                outward.append(member)
            return None     # anything else git archive never writes: left out
    tar.extractall(into, filter=data_or_later)
    for member in outward:
        link = into / member.name
        if link.parent.is_dir() and not link.parent.is_symlink() and not os.path.lexists(link):
            os.symlink(member.linkname, link)


def diff_base(rev: str, policy: str | None = None, *, rules: str = "rules", observations: int = 1,
              timeout: float = 120.0, max_models: int = 200_000, cwd: Path | None = None) -> list[DiffResult]:
    """Compare the working tree's rules folder with the same folder at a git revision."""
    top = git_toplevel(cwd)
    here = (Path(cwd) if cwd else Path.cwd()).resolve()
    folder = (here / rules).resolve()
    try:
        rel = folder.relative_to(top.resolve())
    except ValueError:
        raise UsageError(f"`{rules}` is not inside the git repository {top}") from None
    if not folder.is_dir():
        raise UsageError(f"no rules folder `{rules}` in the working tree")
    tmp = Path(tempfile.mkdtemp(prefix="ppgcheck-base-"))
    try:
        old = export_revision(rev, rel.as_posix(), tmp, cwd=top)
        if old is None or not old.is_dir():
            old = tmp / "empty"
            old.mkdir()
        results = diff_rules(old, folder, policy, observations=observations, timeout=timeout,
                             max_models=max_models, old_label=f"{rel.as_posix()}@{rev}",
                             new_label=rel.as_posix())
        for change in (c for r in results for c in r.changes if c.what == "cannot_rule"):
            change.message = change.message.replace(str(old), f"{rel.as_posix()}@{rev}")   # not the temporary copy
        return results
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


# ---------------------------------------------------------------------------
# rendering
# ---------------------------------------------------------------------------

def render_text(results: list[DiffResult]) -> str:
    out: list[str] = []
    for r in results:
        intro = [c for c in r.introduced() if c.what != "cannot_rule"]
        removed = [c for c in r.removed() if c.what != "cannot_rule"]
        rulings = [c for c in r.changes if c.introduced is None]
        head = f"{r.policy} ({r.old} → {r.new})"
        if r.status != "compared":
            head += f": pack {r.status}"
        if any(c.what == "cannot_rule" for c in r.changes):
            summary = "not compared: a version cannot rule"
        elif r.changes:
            summary = (f"{len(rulings)} class(es) of incidents ruled differently, "
                       f"{len(intro)} finding(s) introduced, {len(removed)} removed")
        elif r.status != "compared":
            summary = ""
        else:
            summary = "no change" if r.complete else "no change found before the search stopped"
        head += ": " if summary else ""
        out.append(f"{head}{summary} — {r.models} models, {r.seconds:.1f} s"
                   + ("" if r.complete else " — INCOMPLETE"))
        for c in r.changes:
            where = f" [{c.location[0]}:{c.location[1]}]" if c.location else ""
            out.append(f"  {c.message}{where}")
            if c.witness_text:
                out.append("    witness" + ("" if c.minimal else " (not proven minimal)") + ":")
                out.extend("      " + line for line in c.witness_text.splitlines())
            if c.ruling_before or c.ruling_after:
                out.extend(f"    before: {line}" for line in c.ruling_before)
                out.extend(f"    after:  {line}" for line in c.ruling_after)
        for note in r.notes:
            out.append(f"  note: {note}")
    return "\n".join(out)


def change_dict(c: Change) -> dict:
    return {"what": c.what, "observation": c.observation or None, "subject": c.subject or None,
            "before": c.before, "after": c.after, "message": c.message, "level": c.level,
            "introduced": c.introduced, "sections": c.sections,
            "location": {"file": c.location[0], "line": c.location[1]} if c.location else None,
            "witness": c.witness_text or None, "minimal": c.minimal,
            "ruling_before": c.ruling_before, "ruling_after": c.ruling_after}


def result_dict(r: DiffResult) -> dict:
    return {"policy": r.policy, "old": r.old, "new": r.new, "status": r.status, "complete": r.complete,
            "models": r.models, "seconds": round(r.seconds, 3), "notes": r.notes,
            "introduced": len(r.introduced()), "removed": len(r.removed()),
            "changes": [change_dict(c) for c in r.changes]}


def render_json(results: list[DiffResult]) -> str:
    return json.dumps([result_dict(r) for r in results], indent=2, ensure_ascii=False)


_SARIF_RULES = {
    "finding-introduced": "The change introduces a finding (conflict, gap, ...) that the old rules did not have.",
    "finding-removed": "The change removes a finding the old rules had.",
    "ruling-changed": "A class of incidents is ruled differently (infraction, penalty, fix, the outcome of the match).",
    "pack-changed": "A pack is added or removed.",
    "cannot-rule": "A version of a pack cannot rule (refused files, past a time or memory limit, not one answer set).",
}
_LEVEL = {"error": "error", "warning": "warning", "info": "note"}


def to_sarif(results: list[DiffResult]) -> dict:
    items = []
    for r in results:
        if r.status == "removed":
            items.append({"ruleId": "pack-changed", "level": "note",
                          "message": {"text": f"pack `{r.policy}` is removed"},
                          "properties": {"policy": r.policy}})
        for c in r.changes:
            rule = ("cannot-rule" if c.what == "cannot_rule" else "finding-introduced" if c.introduced
                    else "finding-removed" if c.introduced is False else "ruling-changed")
            level = _LEVEL[c.level] if c.introduced else "note"
            item = {"ruleId": rule, "level": level, "message": {"text": c.message},
                    "properties": {"policy": r.policy, "what": c.what, "before": c.before,
                                   "after": c.after, "minimal": c.minimal}}
            locations = []
            if c.location:
                locations.append({"physicalLocation": {"artifactLocation": {"uri": c.location[0]},
                                                       "region": {"startLine": c.location[1]}}})
            if c.sections:
                logical = [{"name": s, "kind": "section", "fullyQualifiedName": f"{r.policy}/{s}"}
                           for s in c.sections]
                if locations:
                    locations[0]["logicalLocations"] = logical
                else:
                    locations.append({"logicalLocations": logical})
            if locations:
                item["locations"] = locations
            if c.witness_text:
                item["properties"]["witness"] = c.witness_text
            if c.ruling_before or c.ruling_after:
                item["properties"]["rulingBefore"] = c.ruling_before
                item["properties"]["rulingAfter"] = c.ruling_after
            items.append(item)
    from ppgcheck.ci.sarif import sarif_log
    return sarif_log("ppgcheck diff", _SARIF_RULES, items, results)


def render_sarif(results: list[DiffResult]) -> str:
    return json.dumps(to_sarif(results), indent=2, ensure_ascii=False)


def exit_code(results: list[DiffResult], fail_on_change: bool = False) -> int:
    """2 when the new version of a pack cannot rule; 1 when a change introduces an
    error-level finding (or any change, with fail_on_change)."""
    if any(c.what == "cannot_rule" and c.introduced for r in results for c in r.changes):
        return 2
    if any(r.introduced("error") for r in results):
        return 1
    if fail_on_change and any(r.changed for r in results):
        return 1
    return 0


__all__ = ["Change", "DiffResult", "diff_base", "diff_pack", "diff_rules", "exit_code", "render_json",
           "render_sarif", "render_text", "result_dict", "to_sarif"]
