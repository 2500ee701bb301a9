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
not follow (engine/program.py's UnsupportedConstruct) is kept whole.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import clingo

if TYPE_CHECKING:       # read when a pack is prepared, not by a process that finds it in the cache
    from ppgcheck.engine.program import Program, Statement, Term

Pattern = object            # None (anything) | int | str (a name) | (name, *argument patterns)
Summary = list              # JSON: per statement [heads, needs], each a list of [predicate, [patterns]]

def summarize(statements: Sequence["Statement"]) -> Summary | None:
    """What each statement derives and needs, in the JSON the prepared pack is cached
    as; None when some statement cannot be read (then every statement is kept)."""
    from clingo.ast import ASTType
    summary: Summary = []
    for statement in statements:
        if statement.kind not in (ASTType.Rule, ASTType.External):
            summary.append(None)        # #show, #const, ...: always kept, derive nothing
            continue
        if statement.unsupported:
            return None
        heads = [[a.name, [_term_pattern(t) for t in a.args]] for a in statement.heads]
        needs = [[r.atom.name, [_term_pattern(t) for t in r.atom.args]]
                 for r in statement.reads if r.where == "body" and r.positive and r.atom.plain]
        summary.append([heads, needs])
    return summary


def _term_pattern(term: "Term") -> Pattern:
    kind = term[0]
    if kind == "s":
        return _symbol_pattern(term[1])
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


def _frozen(pattern: Pattern) -> Pattern:
    """A JSON pattern as a hashable one (lists become tuples)."""
    return tuple(_frozen(p) for p in pattern) if isinstance(pattern, list) else pattern


def _matches(a: Pattern, b: Pattern) -> bool:
    if a is None or b is None:
        return True
    if type(a) is not type(b):
        return False
    if type(a) is not tuple:
        return a == b
    return len(a) == len(b) and all(_matches(x, y) for x, y in zip(a, b))


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
        self.whole = summary is None
        self.heads: list[list[tuple[str, Pattern]]] = []
        needed: list[int] = []
        groups: dict[tuple[str, Pattern], list[int]] = {}     # a need (predicate, pattern) -> its statements
        for at, entry in enumerate(summary or []):
            heads, needs = entry if entry is not None else ([], [])
            self.heads.append([(f"{name}/{len(args)}", _frozen(args)) for name, args in heads])
            needed.append(len(needs))
            for name, args in needs:
                groups.setdefault((f"{name}/{len(args)}", _frozen(args)), []).append(at)
        pending: dict[str, list[tuple[Pattern, list[int]]]] = {}
        tested: dict[str, set[int]] = {}        # a predicate's argument places some need names a value at
        for (key, pattern), statements in groups.items():
            pending.setdefault(key, []).append((pattern, statements))
            tested.setdefault(key, set()).update(i for i, arg in enumerate(pattern) if arg is not None)
        # what a need never tests is left out of the derived atoms: fewer of them to match
        self._tested = {key: tuple(i in places for i in range(int(key.rsplit("/", 1)[1])))
                        for key, places in tested.items()}
        self._start = _State([False] * len(needed), needed, pending, {})
        self._base: _State | None = None

    def usable(self, fact_lists: Sequence[Sequence[tuple[str, Sequence[clingo.Symbol]]]]) -> list[bool] | None:
        """Which statements can fire given these reports' facts (None: all of them)."""
        if self.whole:
            return None
        if self._base is None:
            self._base = self._start.copy()
            self._close(self._base, [head for at, count in enumerate(self._start.open) if not count
                                     for head in self._use(self._base, at)])
        state = self._base.copy()
        distinct = {(name, tuple(arguments)) for facts in fact_lists for name, arguments in facts}
        self._close(state, [(f"{name}/{len(arguments)}", tuple(_symbol_pattern(a) for a in arguments))
                            for name, arguments in distinct])
        return state.usable

    def _use(self, state: _State, at: int) -> list[tuple[str, Pattern]]:
        state.usable[at] = True
        return self.heads[at]

    def _close(self, state: _State, queue: list[tuple[str, Pattern]]) -> None:
        derived, pending, open_, usable = state.derived, state.pending, state.open, state.usable
        tested = self._tested
        while queue:
            key, pattern = queue.pop()
            waiting = pending.get(key)
            if not waiting:
                continue
            pattern = tuple(arg if keep else None for arg, keep in zip(pattern, tested[key]))
            seen = derived.get(key, frozenset())
            if pattern in seen:
                continue
            derived[key] = seen | {pattern}
            still = []
            for need in waiting:
                if not _matches(need[0], pattern):
                    still.append(need)
                    continue
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


def program_summary(program: "Program", dropped: set[int]) -> Summary | None:
    """The summary of a program's statements that are not comments, but those `dropped`
    (places counted as unneeded_statements counts them)."""
    from clingo.ast import ASTType
    kept = [s for s in program.statements if s.kind is not ASTType.Comment]
    return summarize([s for at, s in enumerate(kept) if at not in dropped])
