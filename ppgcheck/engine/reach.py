"""The statements a grounding can use, given the reports' facts.

A rule whose positive body names an atom that neither a fact nor the head of
another usable statement can match never fires: it adds nothing to any answer
set, and dropping it changes neither the shown atoms nor their number.  clingo
would ground it to nothing, but it pays for every statement it reads and
instantiates (~40 us each): a single report of `fab` uses about half the pack.

An atom is matched by its predicate and its constant arguments: each argument
of a fact or a head is kept as a pattern, `None` wherever it could be anything
(a variable, arithmetic, a string: reports' names never select a rule), so the
usable statements are an over-approximation of those clingo would instantiate
(the fixpoint of "a statement is usable when each positive atom of its body
matches a fact or a usable statement's head").  Only a rule's own positive
literals are required; a negated literal, an aggregate's or a condition's atom
never makes a statement unusable.  A program with a construct the reader does
not follow (packs/program.py's UnsupportedConstruct) is kept whole.
"""
from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import TYPE_CHECKING

import clingo
from ppgcheck.packs.closure import reachable

if TYPE_CHECKING:       # read when a pack is prepared, not by a process that finds it in the cache
    from ppgcheck.packs.program import Program, Statement, Term

# an argument: None (anything) | int | str (a name) | [name, *arguments] (a tuple for a fact's)
Pattern = object
# JSON, as the prepared pack is cached: "heads" (per statement, each head's [predicate/arity,
# arguments]), "needs" (each distinct need: [predicate/arity, arguments, the statements with it]),
# "open" (per statement, its number of needs) and "tested" (per predicate/arity, whether some need
# names a value at each argument); None: a statement the reader cannot follow, keep them all
Summary = dict


def summarize(statements: Sequence["Statement"]) -> Summary | None:
    """What each statement derives and needs; None when some statement cannot be read."""
    # (only when the pack is prepared: a cached one is ruled without it)
    from clingo.ast import ASTType
    heads: list[list] = []
    groups: dict[str, list] = {}
    open_: list[int] = []
    for at, statement in enumerate(statements):
        if statement.kind not in (ASTType.Rule, ASTType.External):
            heads.append([])                # #show, #const, ...: always kept, derive nothing
            open_.append(0)
            continue
        if statement.unsupported:
            return None
        heads.append([_atom(a) for a in statement.heads])
        needs = [_atom(r.atom) for r in statement.reads if r.where == "body" and r.positive and r.atom.plain]
        open_.append(len(needs))
        for key, args in needs:
            groups.setdefault(repr((key, args)), [key, args, []])[2].append(at)
    tested: dict[str, list[bool]] = {}
    for key, args, _ in groups.values():
        places = tested.setdefault(key, [False] * len(args))
        for i, arg in enumerate(args):
            places[i] = places[i] or arg is not None
    return {"heads": heads, "needs": list(groups.values()), "open": open_, "tested": tested}


def _atom(atom) -> list:
    return [f"{atom.name}/{len(atom.args)}", [_term_pattern(t) for t in atom.args]]


def _term_pattern(term: "Term") -> Pattern:
    kind = term[0]
    if kind == "s":
        return _listed(_symbol_pattern(term[1]))
    if kind == "f":
        if not term[2]:
            return term[1]
        return [term[1], *(_term_pattern(t) for t in term[2])]
    return None


def _symbol_pattern(symbol: clingo.Symbol) -> Pattern:
    kind = symbol.type
    if kind is clingo.SymbolType.Number:
        return symbol.number
    if kind is clingo.SymbolType.Function and not symbol.negative:
        if not symbol.arguments:
            return symbol.name
        return (symbol.name, *(_symbol_pattern(a) for a in symbol.arguments))
    return None


def _symbol_identity():
    """What tells clingo symbols apart without a call into clingo: the handle clingo keeps
    each symbol under (it interns every symbol: equal symbols, equal handles), where the
    Python API keeps it; else the symbol itself (hashed by clingo, ~1 us a call)."""
    try:
        clingo.Number(0)._rep
    except AttributeError:
        return lambda symbol: symbol
    return operator.attrgetter("_rep")


_identity = _symbol_identity()


def _listed(pattern: Pattern) -> Pattern:
    """A fact's pattern as the summary's JSON holds one (tuples become lists, nested too),
    so a summary compares equal to itself read back from the cache."""
    return [_listed(p) for p in pattern] if isinstance(pattern, tuple) else pattern


def _frozen(pattern: Pattern) -> Pattern:
    """A pattern as a hashable one (lists become tuples)."""
    return tuple(_frozen(p) for p in pattern) if isinstance(pattern, (list, tuple)) else pattern


def _matches(need: Pattern, found: Pattern) -> bool:
    """A nested argument of a need (a tuple) against a derived atom's."""
    if need is None or found is None or need == found:
        return True
    return (type(need) is tuple and type(found) is tuple and len(need) == len(found)
            and all(_matches(x, y) for x, y in zip(need, found)))


class _State:
    """A fixpoint under way: the usable statements, how many needs each still has open,
    the needs no derived atom has matched yet (by predicate), and the derived atoms (by
    predicate, only the arguments some need tests)."""

    __slots__ = ("usable", "open", "pending", "derived")

    def __init__(self, usable: list[bool], open_: list[int], pending: dict, derived: dict) -> None:
        self.usable, self.open, self.pending, self.derived = usable, open_, pending, derived

    def copy(self) -> "_State":       # a closure replaces a pending list or a derived set, never changes one
        return _State(self.usable[:], self.open[:], dict(self.pending), dict(self.derived))


class Reach:
    """The usable statements of one program for a set of facts.  What the program derives
    without any report is closed once (the first time it is asked); each grounding's
    facts continue from there."""

    def __init__(self, summary: Summary | None) -> None:
        self.summary = summary
        if summary is None:
            return
        self.heads: list[list] = summary["heads"]
        self._tested: dict[str, list[bool]] = summary["tested"]
        pending: dict[str, list] = {}
        for key, args, statements in summary["needs"]:     # each need as the values it tests
            tests = tuple((place, _frozen(arg)) for place, arg in enumerate(args) if arg is not None)
            pending.setdefault(key, []).append((tests, statements))
        self._start = _State([False] * len(self.heads), summary["open"], pending, {})
        self._base: _State | None = None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Reach) and self.summary == other.summary

    def usable(self, fact_lists: Sequence[Sequence[tuple[str, Sequence[clingo.Symbol]]]]) -> list[bool] | None:
        """Which statements can fire given these reports' facts (None: all of them)."""
        if self.summary is None:
            return None
        if self._base is None:
            self._base = self._start.copy()
            self._close(self._base, [head for at, count in enumerate(self._start.open) if not count
                                     for head in self._use(self._base, at)])
        state = self._base.copy()
        distinct: dict[tuple, tuple[str, Sequence[clingo.Symbol]]] = {}
        for facts in fact_lists:
            for name, arguments in facts:
                distinct.setdefault((name, *map(_identity, arguments)), (name, arguments))
        patterns: dict[object, Pattern] = {}      # each argument read from clingo once

        def pattern(symbol: clingo.Symbol) -> Pattern:
            key = _identity(symbol)
            found = patterns.get(key, patterns)
            if found is patterns:
                found = patterns[key] = _symbol_pattern(symbol)
            return found
        self._close(state, [(f"{name}/{len(arguments)}", tuple(map(pattern, arguments)))
                            for name, arguments in distinct.values()])
        return state.usable

    def _use(self, state: _State, at: int) -> list:
        state.usable[at] = True
        return self.heads[at]

    def _close(self, state: _State, queue: list) -> None:
        derived, pending, open_, usable = state.derived, state.pending, state.open, state.usable
        tested = self._tested
        while queue:
            key, pattern = queue.pop()
            waiting = pending.get(key)
            if not waiting:
                continue
            pattern = tuple((_frozen(arg) if isinstance(arg, list) else arg) if keep else None
                            for arg, keep in zip(pattern, tested[key]))
            seen = derived.get(key, frozenset())
            if pattern in seen:
                continue
            derived[key] = seen | {pattern}
            still = []
            for need in waiting:
                for place, value in need[0]:
                    found = pattern[place]
                    if found is not None and found != value and not (type(value) is tuple and _matches(value, found)):
                        still.append(need)      # not this need's atom
                        break
                else:
                    for at in need[1]:
                        open_[at] -= 1
                        if not open_[at] and not usable[at]:
                            queue.extend(self._use(state, at))
            pending[key] = still


def usable_text(statements: Sequence[str], usable: list[bool] | None) -> str:
    """The program text of the usable statements."""
    if usable is None:
        return "\n".join(statements)
    return "\n".join(text for text, keep in zip(statements, usable) if keep)


def dependencies(statements: Sequence["Statement"]) -> dict | None:
    """For each rule, the predicates it defines and those it reads (any sign, in an aggregate
    or a condition too), as numbers into the "predicates" list: "1 2|3 4 5" (one string a
    statement keeps the cached pack quick to read: a cold `ppgcheck rule` reads it whole and
    never asks).  Another statement defines nothing: it is kept, and what it reads with it
    (a #minimize, a #heuristic, an #external's condition), but for a `#show name/arity.`
    (kept or not by what is shown: "").  None for the whole program when some statement
    cannot be read."""
    # (only when the pack is prepared: a cached one is ruled without it)
    from clingo.ast import ASTType
    numbers: dict[str, int] = {}
    rules: list[str] = []
    for statement in statements:
        if statement.kind is ASTType.ShowSignature:
            rules.append("")
            continue
        if statement.unsupported:
            return None
        defines = {numbers.setdefault(a.name.lstrip("-"), len(numbers))
                   for a in (statement.heads if statement.kind is ASTType.Rule else ())}
        reads = {numbers.setdefault(name, len(numbers)) for name in statement.names()}
        rules.append(" ".join(map(str, sorted(defines))) + "|" + " ".join(map(str, sorted(reads))))
    return {"predicates": list(numbers), "rules": rules}


def shown_slice(depends: dict | None, shown: frozenset[str]) -> list[bool] | None:
    """Which statements the atoms of the shown names depend on (None: all of them).  A rule
    that defines none of those names, nor a name a kept rule reads, is dropped: no shown atom
    depends on what it derives, and the kept rules are a bottom part of the program (they
    read only what kept rules define), whose answer sets are the whole program's restricted
    to it.  A rule defining nothing (a constraint) is kept, and what it reads too."""
    if depends is None:
        return None
    numbers = {name: at for at, name in enumerate(depends["predicates"])}
    rules = [_defines_reads(rule) if rule else None for rule in depends["rules"]]
    start = {numbers[name] for name in shown if name in numbers}
    start.update(p for rule in rules if rule is not None and not rule[0] for p in rule[1])
    # a needed predicate keeps its rules: what they read, and all they define (a choice's other
    # heads are bound to this one's)
    edges: dict[int, set[int]] = {}
    for rule in rules:
        for p in rule[0] if rule is not None else ():
            edges.setdefault(p, set()).update(rule[0], rule[1])
    needed = reachable(start, edges)
    return [rule is None or not rule[0] or any(p in needed for p in rule[0]) for rule in rules]


def _defines_reads(rule: str) -> tuple[list[int], list[int]]:
    defines, _, reads = rule.partition("|")
    return [int(p) for p in defines.split()], [int(p) for p in reads.split()]


def program_summary(program: "Program", dropped: set[int]) -> Summary | None:
    """The summary of a program's statements that are not comments, but those `dropped`
    (places counted as unneeded_statements counts them)."""
    return summarize(_kept(program, dropped))


def program_dependencies(program: "Program", dropped: set[int]) -> dict | None:
    """dependencies() of the same statements as program_summary."""
    return dependencies(_kept(program, dropped))


def _kept(program: "Program", dropped: set[int]) -> list["Statement"]:
    # (only when the pack is prepared: a cached one is ruled without it)
    from clingo.ast import ASTType
    kept = [s for s in program.statements if s.kind is not ASTType.Comment]
    return [s for at, s in enumerate(kept) if at not in dropped]
