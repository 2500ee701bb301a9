"""What a rule edit can change, read from the rules that differ (`ppgcheck diff`).

Only the predicates whose rules differ between the versions, and those that
depend on them, need a second (old) copy in the diff's program
(`changed_predicates`).  When every edited rule is about named infractions,
only scenarios classifying one of them can be ruled differently
(`touched_infractions`), and with one observation only the observation kinds
those need (`kinds_classifying`).  Each bound is sound or absent (None).
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path

from clingo import ast

from ppgcheck.contract import CORE_HELPERS, MATCH_STATE, NAMES_INFRACTION, PACK_DEFINED_NAMES
from ppgcheck.packs.pack import shown_path
from ppgcheck.packs.program import Program, Statement, name_of, reachable, text_of

# A changed rule for a predicate of the pack contract (rules/core/CONTRACT.md) or of the core
# that names no infraction may change anything.
_CONTRACT = PACK_DEFINED_NAMES | {name for name, _ in CORE_HELPERS}

# Contract heads that name no infraction: a rule for one is still bounded by the
# infractions or observation kinds its body needs (_body_needs).
_NEEDS_INFRACTION = {("time_extension", 2), ("report_note", 2)}


def rules(program: Program) -> list[Statement]:
    return [st for st in program.statements if st.kind == ast.ASTType.Rule]


def head_names(st: Statement) -> set[str]:
    """The predicates a rule's head names: those it defines and those its conditions
    read, pooled ones too (`rel_covered(a; b).`: an edit inside the pool is an edit
    of rel_covered) and classically negated ones under their own name."""
    return {a.name.lstrip("-") for a in st.heads} | st.names("head")


def _constants(program: Program) -> list[str]:
    return sorted(str(node) for node in program.nodes if node.ast_type == ast.ASTType.Definition)


def changed_predicates(old: Program, new: Program) -> set[str]:
    """Predicates whose rules differ between the versions, closed under dependency:
    only these need a second (old) copy; everything else is shared."""
    def table(program: Program) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for st in rules(program):
            text = str(st.node)
            for name in head_names(st) or {"#constraint"}:
                out.setdefault(name, []).append(text)
        return {k: sorted(v) for k, v in out.items()}
    t_old, t_new = table(old), table(new)
    if _constants(old) != _constants(new):
        return set(t_old) | set(t_new)     # a constant changed: compare everything
    changed = {n for n in set(t_old) | set(t_new) if t_old.get(n) != t_new.get(n)}
    edges: dict[str, set[str]] = {}
    for st in rules(old) + rules(new):
        for name in st.names("body"):
            edges.setdefault(name, set()).update(head_names(st))
    changed = reachable(changed, edges)
    changed.discard("#constraint")
    return changed


class _Unbounded(Exception):
    pass


def touched_infractions(old: Program, new: Program, core: Program) -> tuple[set[str], set[str]] | None:
    """The infractions the rules that differ are about: the constant infraction
    of each changed rule's head, or, for a changed helper predicate of the pack,
    of the rules that read it (followed through other helpers).  Then only
    scenarios that classify one of them can be ruled differently.  None when
    some changed rule is not about named infractions (a contract predicate with
    a variable infraction, a helper the core reads, a changed constant).
    A changed exclusion (`not_infraction/4`), or a classification under a
    variable infraction, is bounded instead by the observation kinds it needs
    (RequiredKinds): returns (infractions, observation kinds)."""
    if _constants(old) != _constants(new):
        return None
    o = Counter(str(st.node) for st in rules(old))
    n = Counter(str(st.node) for st in rules(new))
    diff = (o - n) + (n - o)
    both = rules(old) + rules(new)
    core_names = set().union(*(head_names(st) | st.names("body") for st in rules(core)))
    touched: set[str] = set()
    touched_kinds: set[str] = set()
    helpers: set[str] = set()
    required = RequiredKinds(both)

    def visit(st: Statement) -> None:
        head = st.head_atom()
        if head is None:
            raise _Unbounded
        name, args = head.name, [name_of(t) for t in head.terms]
        positions = NAMES_INFRACTION.get((name, len(args)))
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
        for reader in both:
            if name in reader.names("body"):
                visit(reader)

    try:
        for st in both:
            if str(st.node) in diff:
                visit(st)
    except _Unbounded:
        return None
    return touched, touched_kinds


def _body_needs(st: Statement) -> tuple[set[str], set[str]]:
    """The constant infractions and observation kinds a rule's body needs: positive
    `committed(_, _, c)` or `infraction(_, _, c)` literals (either holds only in a
    scenario that classifies c), and `observation(_, _, k)` (only where k is observed)."""
    infractions: set[str] = set()
    kinds: set[str] = set()
    for atom in st.positive_atoms():
        constant = name_of(atom.terms[2]) if len(atom.terms) == 3 else None
        if constant is None:
            continue
        if atom.name in ("committed", "infraction"):
            infractions.add(constant)
        elif atom.name == "observation":
            kinds.add(constant)
    return infractions, kinds


class RequiredKinds:
    """For a pack's predicates: the observation kinds one of which every
    derivation needs (a sound bound, unlike the kinds a predicate merely reads).
    A rule needs the smallest bound among its positive body literals
    (`observation(_, _, k)` needs k; `committed(_, _, x)`/`infraction(_, _, x)`
    the bound of x's classification rules; a pack helper its own bound); a
    predicate needs the union over its rules; None is no bound."""

    def __init__(self, rules: list[Statement]) -> None:
        self.defs: dict[str, list[Statement]] = {}
        for st in rules:
            head = st.head_atom()
            if head is not None:
                self.defs.setdefault(head.name, []).append(st)
        self.memo: dict[tuple, set[str] | None] = {}
        self.stack: set[tuple] = set()

    def _union(self, key: tuple, rules: list[Statement]) -> set[str] | None:
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
                 if len(st.head_atom().terms) == 3 and name_of(st.head_atom().terms[2]) in (inf, None)]
        return self._union(("inf", inf), rules)

    def rule(self, st: Statement) -> set[str] | None:
        best: set[str] | None = None
        for atom in st.positive_atoms():
            name, args = atom.name, atom.terms
            if name == "observation" and len(args) == 3:
                k = name_of(args[2])
                b = {k} if k is not None else None
            elif name in ("committed", "infraction") and len(args) == 3 and name_of(args[2]):
                b = self.infraction(name_of(args[2]))
            else:
                b = self.predicate(name)
            if b is not None and (best is None or len(b) < len(best)):
                best = b
        return best


def kinds_classifying(infractions: set[str], program: Program) -> set[str] | None:
    """The observation kinds without one of which none of these infractions can be
    classified (in either version), or None when there is no such bound."""
    required = RequiredKinds(rules(program))
    kinds: set[str] = set()
    for inf in infractions:
        b = required.infraction(inf)
        if b is None:
            return None
        kinds |= b
    return kinds


def about_the_match_only(old: Program, new: Program) -> bool:
    """Whether every rule the edit adds, changes or removes holds only in a scenario with a
    state of the match: its body has a positive literal of a match-state input or helper, or
    of a pack predicate every rule of which (in both versions) has one."""
    both = list(old.statements) + list(new.statements)

    def positive(st: Statement) -> set[str]:
        return {atom.name for atom in st.positive_atoms()}
    by_head: dict[str, list[Statement]] = {}
    for st in both:
        head = st.head_atom() if st.kind == ast.ASTType.Rule else None
        if head is not None:
            by_head.setdefault(head.name, []).append(st)
    bound = set(MATCH_STATE)
    grew = True
    while grew:
        grew = False
        for name, defining in by_head.items():
            if name not in bound and all(st.node.body and positive(st) & bound for st in defining):
                bound.add(name)
                grew = True
    old_text, new_text = ({str(st.node) for st in program.statements} for program in (old, new))
    edited = [st for st in both if st.kind == ast.ASTType.Rule and st.node.body
              and (str(st.node) in old_text) != (str(st.node) in new_text)]
    return bool(edited) and all(positive(st) & bound for st in edited)


def edited_rules(old: Program, new: Program, root: Path | None = None) -> list[tuple[str, int, set[str]]]:
    """(file, line, the constants and strings of its head) of each rule the edit
    adds or changes (the new version's), then of each rule it removes (the old's)."""
    o = Counter(str(st.node) for st in rules(old))
    n = Counter(str(st.node) for st in rules(new))
    out = []
    for program, other in ((new, o), (old, n)):
        for st in rules(program):
            if other[str(st.node)]:
                continue
            head = st.head_atom()
            words = {w for w in (text_of(t) for t in (head.terms if head else ())) if w is not None}
            out.append((shown_path(st.file, root), st.line, words))
    return out
