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

from ppgcheck.packs.program import Program, Statement, as_program, reachable

# (predicate, arity) -> (person position, infraction position) of the seeds
HISTORY = {("history", 5): (0, 2), ("b__history", 5): (0, 2)}
COMMITTED = {("committed", 3): (1, 2), ("b__committed", 3): (1, 2)}


class _Rule:
    """A rule as plain data: its head atoms, the positive atoms of its body,
    and its reads, each with the positive atoms that guard it (its body's,
    and its condition's for a read inside an aggregate or a condition)."""

    def __init__(self, st: Statement) -> None:
        self.location = st.node.location
        self.heads = [(a.name, a.args) for a in st.heads]
        self.outer: list[tuple[str, tuple]] = []
        self.reads: list[tuple[str, tuple, list]] = []
        if st.kind == ast.ASTType.External:     # defines its atom, guarded by nothing
            return
        self.outer = [(a.name, a.args) for a in st.outer]
        self.reads = [(r.atom.name, r.atom.args, self.outer) for r in st.reads if r.where == "body"] + [
            (r.atom.name, r.atom.args, [(g.name, g.args) for g in r.guards] + self.outer)
            for r in st.reads if r.where != "body"]


def _rules(program: Program) -> list[_Rule] | None:
    rules = [st for st in program.statements if st.kind in (ast.ASTType.Rule, ast.ASTType.External)]
    if any(st.unsupported for st in rules):
        return None
    return [_Rule(st) for st in rules]


def _relevant(rules: list[_Rule], program: Program, wanted: Iterable[str]) -> list[_Rule]:
    """The rules what the caller reads depends on (by predicate name): its
    shown and wanted predicates, and whatever a constraint reads."""
    start = set(wanted) | {node.name for node in program.nodes if node.ast_type == ast.ASTType.ShowSignature}
    start |= {name for rule in rules if not rule.heads for name, _, _ in rule.reads}
    edges: dict[str, set[str]] = {}
    for rule in rules:
        for name, _ in rule.heads:
            edges.setdefault(name, set()).update(name for name, _, _ in rule.reads)
    needed = reachable(start, edges)
    return [rule for rule in rules if not rule.heads or any(name in needed for name, _ in rule.heads)]


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


def history_locality(statements: Program | list[ast.AST], wanted: Iterable[str] = (),
                     why: list[str] | None = None) -> set[str] | None:
    """The infractions (constant names) whose history the program may read
    for a person who does not commit them, or None when it may read any
    infraction's that way (or holds a form this analysis cannot read).  Only
    what the answer sets' shown atoms, the `wanted` predicates and the
    constraints depend on counts; `why` receives the place that decided None."""
    why = [] if why is None else why
    program = as_program(statements)
    rules = _rules(program)
    if rules is None:
        why.append("a statement this analysis cannot read")
        return None
    rules = _relevant(rules, program, wanted)
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
