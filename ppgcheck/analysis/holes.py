"""A gap's other holes: the ranges of a count its smallest witness does not show.

A gap's smallest witness shows one hole (`late` unclassified at 0 minutes); the
same message may hold again past a range the rules do cover (above 10 minutes).
For each count of the witness's observations, the values the scenario space
tries for it (scen_value/2) are asked, the rest of the scenario free (every
count of every gap of a part of the space in one enumeration): the values
where the gap holds, in order, fall into runs, and each run the witness is not
in is another hole, with its own smallest witness (the optimum with the run's
first value assumed).
"""
from __future__ import annotations

from dataclasses import dataclass

import clingo

from ppgcheck.analysis import tuning
from ppgcheck.analysis.search import Budget, add_picks, configured, optimum, scenario_atoms, solve_switched
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


@dataclass
class _Count:
    """One count of a gap's witness: the values it may take other than the one shown."""

    target: clingo.Symbol
    o: clingo.Symbol
    key: clingo.Symbol
    domain: list[clingo.Symbol]
    shown: clingo.Symbol


def other_holes(ctl: clingo.Control, budget: Budget, gaps: list[tuple[clingo.Symbol, list[clingo.Symbol]]]
                ) -> dict[clingo.Symbol, list[Hole]]:
    """The holes of each gap (target, its witness's atoms) besides the one its witness shows."""
    counts: list[_Count] = []
    for target, atoms in gaps:
        for count in (a for a in atoms if a.name == "count" and len(a.arguments) == 3):
            o, key, shown = count.arguments
            domain = sorted((a.symbol.arguments[2] for a in ctl.symbolic_atoms.by_signature("count", 3)
                             if a.symbol.arguments[0] == o and a.symbol.arguments[1] == key),
                            key=lambda n: n.number)
            counts.append(_Count(target, o, key, domain, shown))
    out: dict[clingo.Symbol, list[Hole]] = {target: [] for target, _ in gaps}
    for count, held in zip(counts, _held_at(ctl, budget, counts)):
        for run in _runs(count.domain, held | {count.shown}):
            if count.shown in run or budget.hit:
                continue
            first = clingo.Function("count", [count.o, count.key, run[0]])
            found, proven, cost = optimum(ctl, budget, count.target, assumptions=[(first, True)],
                                          read=scenario_atoms(ctl))
            if found is not None:
                out[count.target].append(Hole(count.key.name, [n.number for n in run], run[-1] == count.domain[-1],
                                              (found, proven, cost)))
    return out


def _held_at(ctl: clingo.Control, budget: Budget, counts: list[_Count]) -> list[set[clingo.Symbol]]:
    """For each count, the values other than the one shown at which some scenario holds its
    gap: one enumeration for them all (search.add_picks; the usual answer, no other hole, is
    a search that finds nothing).  A scenario picks one count at one of its other values;
    the models are projected on an atom for each count and value."""
    held: list[set[clingo.Symbol]] = [set() for _ in counts]
    atoms = ctl.symbolic_atoms
    asked = []          # (count, its target's literal, its other values' literals)
    for i, count in enumerate(counts):
        target = atoms[count.target]
        values = [(n, atoms[clingo.Function("count", [count.o, count.key, n])]) for n in count.domain
                  if n != count.shown]
        values = [(n, atom.literal) for n, atom in values if atom is not None]
        if target is not None and values:
            asked.append((i, target.literal, values))
    if not asked:
        return held
    at_values: list[tuple[int, clingo.Symbol, int]] = []     # (count, value, the picked-at-this-value atom)
    with ctl.backend() as backend:
        switch, picks = add_picks(backend, len(asked))
        for pick, (i, target, values) in zip(picks, asked):
            backend.add_rule([], [pick, -target])
            here = []
            for n, literal in values:
                at = backend.add_atom()
                backend.add_rule([at], [pick, literal])
                here.append(at)
                at_values.append((i, n, at))
            backend.add_rule([], [pick, *(-at for at in here)])         # at one of them
        backend.add_project([at for _, _, at in at_values])

    def record(model: clingo.Model) -> None:
        for i, n, at in at_values:
            if model.is_true(at):
                held[i].add(n)
    with configured(ctl, heuristic=tuning.HEURISTIC, project="project"):
        solve_switched(ctl, budget, switch, record)
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
