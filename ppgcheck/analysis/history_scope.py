"""Which prior offenses can change what a program derives for a person who
does not commit that infraction (for `ppgcheck check`).

The scenario space lets every person hold history for every infraction of
the pack.  Most rules read a person's history only for an infraction the
person commits in the report ("a second offense of X is ..."): history of any
other infraction then changes nothing, yet the searches still range over it,
and on a large pack that is most of their work.  `history_locality` proves,
from the program's rules, that history is read only that way, apart from the
infractions it returns; the scenario space then leaves the rest out
(rules/core/scenarios.lp, `scen_hist_scoped`).

Why that is exact: start from history/5 (and the monotonicity copy's
b__history/5) and follow every rule reading an atom derived from it.  A read
is *guarded* when the same rule also holds committed(_, P, I) for the same
person and infraction (or an atom every rule of which holds it): it fires
only where I is committed.  A read that passes P and I on into its head makes
the head derived from history too, and its readers are followed in turn.  A
read naming its infraction by a constant makes that infraction's history
count everywhere (it is returned).  Anything else (a count over every
infraction, a head without the person or the infraction, a constraint over
derived history) and history is not scoped at all (None).  So removing the
history of an infraction a person commits nowhere changes no atom but those
derived from that very history, whose every reader needs the infraction
committed: the same findings, penalties and rules fired, at a smaller cost
for the witnesses (which never hold such history).
"""
from __future__ import annotations

from typing import Iterable

from clingo import ast

from ppgcheck.analysis.scenarios import _atom_parts, _compile, _Unknown

# (predicate, arity) -> (person position, infraction position) of the seeds
HISTORY = {("history", 5): (0, 2), ("b__history", 5): (0, 2)}
COMMITTED = {("committed", 3): (1, 2), ("b__committed", 3): (1, 2)}


class _Rule:
    """A rule as plain data: its head atoms, the positive atoms of its body,
    and its reads, each with the positive atoms that guard it (its body's,
    and its condition's for a read inside an aggregate or a condition)."""

    def __init__(self, st: ast.AST) -> None:
        self.location = st.location
        self.heads: list[tuple[str, tuple]] = []
        self.outer: list[tuple[str, tuple]] = []
        self.reads: list[tuple[str, tuple, list]] = []
        nested: list[tuple[str, tuple, list]] = []
        if st.ast_type == ast.ASTType.External:     # defines its atom, guarded by nothing
            self.heads.extend(_atom_parts(st.atom))
            return
        head = st.head
        if head.ast_type == ast.ASTType.Literal:
            if head.atom.ast_type == ast.ASTType.SymbolicAtom:
                self.heads.extend(_atom_parts(head.atom))
        elif head.ast_type in (ast.ASTType.Aggregate, ast.ASTType.Disjunction):
            for el in head.elements:
                if el.literal.atom.ast_type == ast.ASTType.SymbolicAtom:
                    self.heads.extend(_atom_parts(el.literal.atom))
                _scope(el.condition, nested)
        elif head.ast_type == ast.ASTType.HeadAggregate:
            for el in head.elements:
                lit = el.condition.literal
                if lit.atom.ast_type == ast.ASTType.SymbolicAtom:
                    self.heads.extend(_atom_parts(lit.atom))
                _scope(el.condition.condition, nested)
        else:
            raise _Unknown(str(head))
        reads: list[tuple[str, tuple, list]] = []
        self.outer = _scope(st.body, reads, nested)
        self.reads = [(n, a, self.outer) for n, a, _ in reads] + [(n, a, g + self.outer) for n, a, g in nested]


def _scope(literals, reads: list, nested: list | None = None) -> list[tuple[str, tuple]]:
    """Adds the atoms the literals read to `reads`, each with the positive
    atoms beside it (those of an aggregate or a condition go to `nested`);
    returns the positive atoms of the literals themselves."""
    nested = reads if nested is None else nested
    own: list[tuple[str, tuple]] = []
    mine: list[tuple[str, tuple]] = []
    for lit in literals:
        if lit.ast_type == ast.ASTType.ConditionalLiteral:
            inner: list = []
            _scope([lit.literal, *lit.condition], inner)
            nested.extend(inner)
            continue
        atom = lit.atom
        if atom.ast_type == ast.ASTType.SymbolicAtom:
            parts = _atom_parts(atom)
            mine.extend(parts)
            if lit.sign == ast.Sign.NoSign:
                own.extend(parts)
        elif atom.ast_type in (ast.ASTType.BodyAggregate, ast.ASTType.Aggregate):
            for el in atom.elements:
                inner = []
                if atom.ast_type == ast.ASTType.BodyAggregate:
                    _scope(el.condition, inner)
                else:
                    _scope([el.literal, *el.condition], inner)
                nested.extend(inner)
        elif atom.ast_type not in (ast.ASTType.Comparison, ast.ASTType.BooleanConstant):
            raise _Unknown(str(atom))
    reads.extend((name, args, own) for name, args in mine)
    return own


def _rules(statements: list[ast.AST]) -> list[_Rule] | None:
    try:
        return [_Rule(st) for st in statements if st.ast_type in (ast.ASTType.Rule, ast.ASTType.External)]
    except _Unknown:
        return None


def _relevant(rules: list[_Rule], statements: list[ast.AST], wanted: Iterable[str]) -> list[_Rule]:
    """The rules what the caller reads depends on (by predicate name): its
    shown and wanted predicates, and whatever a constraint reads."""
    needed = set(wanted) | {st.name for st in statements if st.ast_type == ast.ASTType.ShowSignature}
    needed |= {name for rule in rules if not rule.heads for name, _, _ in rule.reads}
    by_head: dict[str, list[_Rule]] = {}
    for rule in rules:
        for name, _ in rule.heads:
            by_head.setdefault(name, []).append(rule)
    todo, kept = list(needed), {id(rule): rule for rule in rules if not rule.heads}
    while todo:
        for rule in by_head.get(todo.pop(), []):
            if id(rule) not in kept:
                kept[id(rule)] = rule
                fresh = {name for name, _, _ in rule.reads} - needed
                needed |= fresh
                todo.extend(fresh)
    return list(kept.values())


def _same(a: tuple, b: tuple) -> bool:
    """Two compiled terms that are the same variable or the same constant."""
    return a[0] in ("v", "s") and a == b


def _implying(rules: list[_Rule]) -> dict[tuple[str, int], set[tuple[int, int]]]:
    """Predicates whose every rule holds committed(_, P, I) (or such a
    predicate) for the person and infraction at the given head positions."""
    implying = {key: {pos} for key, pos in COMMITTED.items()}
    by_head: dict[tuple[str, int], list[tuple[_Rule, tuple]]] = {}
    for rule in rules:
        for name, args in rule.heads:
            by_head.setdefault((name, len(args)), []).append((rule, args))
    changed = True
    while changed:
        changed = False
        for key, defs in by_head.items():
            if key in COMMITTED:
                continue
            found: set[tuple[int, int]] | None = None
            for rule, head in defs:
                here = {(hp, hi) for g, gargs in rule.outer for gp, gi in implying.get((g, len(gargs)), ())
                        for hp, h in enumerate(head) for hi, h2 in enumerate(head)
                        if _same(h, gargs[gp]) and _same(h2, gargs[gi]) and h[0] == "v" and h2[0] == "v"}
                found = here if found is None else found & here
                if not found:
                    break
            if found and not found <= implying.get(key, set()):
                implying.setdefault(key, set()).update(found)
                changed = True
    return implying


def history_locality(statements: list[ast.AST], wanted: Iterable[str] = (),
                     why: list[str] | None = None) -> set[str] | None:
    """The infractions (constant names) whose history the program may read
    for a person who does not commit them, or None when it may read any
    infraction's that way (or holds a form this analysis cannot read).  Only
    what the answer sets' shown atoms, the `wanted` predicates and the
    constraints depend on counts; `why` receives the place that decided None."""
    why = [] if why is None else why
    rules = _rules(statements)
    if rules is None:
        why.append("a statement this analysis cannot read")
        return None
    rules = _relevant(rules, statements, wanted)
    implying = _implying(rules)
    derived: dict[tuple[str, int], set[tuple[int, int]]] = {key: {pos} for key, pos in HISTORY.items()}
    global_: set[str] = set()
    todo = list(derived)
    seen_pairs = {(key, pos) for key, poss in derived.items() for pos in poss}
    while todo:
        key = todo.pop()
        for rule in rules:
            for name, args, guards in rule.reads:
                if (name, len(args)) != key:
                    continue
                for pp, ip in list(derived[key]):
                    person, inf = args[pp], args[ip]
                    if not rule.heads and key in HISTORY and (name, args) in guards:
                        continue                  # a constraint on the input: fewer entries never break it
                    if any(_same(person, gargs[gp]) and _same(inf, gargs[gi])
                           for g, gargs in guards for gp, gi in implying.get((g, len(gargs)), ())):
                        continue                  # fires only where the infraction is committed
                    if inf[0] == "s":             # an infraction named by a constant
                        global_.add(inf[1].name)
                        continue
                    if person[0] != "v" or inf[0] != "v" or not rule.heads:
                        why.append(_where(rule, name))
                        return None
                    carried = False
                    for hname, hargs in rule.heads:
                        for hp, h in enumerate(hargs):
                            for hi, h2 in enumerate(hargs):
                                if h == person and h2 == inf:
                                    carried = True
                                    hkey = (hname, len(hargs))
                                    if (hkey, (hp, hi)) not in seen_pairs:
                                        seen_pairs.add((hkey, (hp, hi)))
                                        derived.setdefault(hkey, set()).add((hp, hi))
                                        todo.append(hkey)
                    if not carried:
                        why.append(_where(rule, name))
                        return None
    return global_


def _where(rule: _Rule, read: str) -> str:
    begin = rule.location.begin
    return f"{begin.filename}:{begin.line} reads {read} for any infraction"
