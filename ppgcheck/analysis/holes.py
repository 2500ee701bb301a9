"""A gap's other holes: the ranges of a count its smallest witness does not show.

A gap's smallest witness shows one hole (`late` unclassified at 0 minutes); the
same message may hold again past a range the rules do cover (above 10 minutes).
For each count of the witness's observations, the values the scenario space
tries for it (scen_value/2) are asked one by one, the rest of the scenario
free: the values where the gap holds, in order, fall into runs, and each run
the witness is not in is another hole, with its own smallest witness (the
optimum with the run's first value assumed).
"""
from __future__ import annotations

from dataclasses import dataclass

import clingo

from ppgcheck.analysis import tuning
from ppgcheck.analysis.search import Budget, optimum, satisfiable
from ppgcheck.analysis.witnesses import Witness


@dataclass
class Hole:
    """Another hole of a gap: its count's run of values and its smallest witness."""

    key: str
    values: list[int]
    last_tried: bool            # the run reaches the largest value the space tries
    witness: Witness

    def describe(self) -> str:
        low, high = self.values[0], self.values[-1]
        if self.last_tried and low != high:
            return f"another hole at {self.key} {low} and more"
        return f"another hole at {self.key} {low}" + (f"-{high}" if high != low else "")


def other_holes(ctl: clingo.Control, budget: Budget, target: clingo.Symbol,
                atoms: list[clingo.Symbol]) -> list[Hole]:
    """The holes of the target besides the one its witness (atoms) shows."""
    out: list[Hole] = []
    for count in (a for a in atoms if a.name == "count" and len(a.arguments) == 3):
        o, key, shown = count.arguments
        domain = sorted((a.symbol.arguments[2] for a in ctl.symbolic_atoms.by_signature("count", 3)
                         if a.symbol.arguments[0] == o and a.symbol.arguments[1] == key),
                        key=lambda n: n.number)
        held = _held_at(ctl, budget, target, o, key, [n for n in domain if n != shown]) | {shown}
        for run in _runs(domain, held):
            if shown in run or budget.hit:
                continue
            first = clingo.Function("count", [o, key, run[0]])
            found, proven, cost = optimum(ctl, budget, target, assumptions=[(first, True)])
            if found is not None:
                out.append(Hole(key.name, [n.number for n in run], run[-1] == domain[-1], (found, proven, cost)))
    return out


def _held_at(ctl: clingo.Control, budget: Budget, target: clingo.Symbol, o: clingo.Symbol, key: clingo.Symbol,
             values: list[clingo.Symbol]) -> set[clingo.Symbol]:
    """The values of the count at which some scenario holds the target: one search for a
    scenario at any value not found yet, until none is left (the usual answer, no other
    hole, is one search that finds nothing, where asking value by value took one each)."""
    literals = {n: ctl.symbolic_atoms[clingo.Function("count", [o, key, n])] for n in values}
    literals = {n: atom.literal for n, atom in literals.items() if atom is not None}
    held: set[clingo.Symbol] = set()
    if not literals:
        return held
    with ctl.backend() as backend:      # any: one of these values (a fresh atom, no symbol)
        any_value = backend.add_atom()
        for literal in literals.values():
            backend.add_rule([any_value], [literal])
    while len(held) < len(literals) and not budget.hit:
        seen: list[clingo.Symbol] = []

        def record(model: clingo.Model) -> None:
            seen[:] = [n for n, literal in literals.items() if model.is_true(literal)]
        _, sat = satisfiable(ctl, budget, [(target, True), any_value, *(-literals[n] for n in held)],
                             heuristic=tuning.HEURISTIC, on_model=record)
        if not sat or not seen:
            break
        held.update(seen)
    return held


def _runs(domain: list[clingo.Symbol], held: set[clingo.Symbol]) -> list[list[clingo.Symbol]]:
    """The maximal runs of consecutive domain values that are held."""
    runs: list[list[clingo.Symbol]] = []
    current: list[clingo.Symbol] = []
    for n in domain:
        if n in held:
            current.append(n)
        elif current:
            runs.append(current)
            current = []
    if current:
        runs.append(current)
    return runs
