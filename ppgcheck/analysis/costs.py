"""A scenario's cost (rules/core/scenarios.lp's weak constraints) as atoms a search can ask for.

clasp bounds an optimising search by one cost for the whole search.  To ask "a scenario
holding this target that costs less than that target's witness" for several targets at
once, each with its own cost, the comparison is written into the grounding: the
#minimize statements are kept as clingo outputs them (an observer on the control, before
it grounds), and `Cheaper(backend, levels(ctl)).below(cost)` adds an atom true exactly
where the scenario's cost vector is lexicographically below `cost` (weight rules per
level, as clasp sums it).
"""
from __future__ import annotations

import weakref

import clingo

Levels = list[list[tuple[int, int]]]        # per priority, highest first: (program literal, weight)
_OBSERVED: "weakref.WeakKeyDictionary[clingo.Control, _MinimizeObserver]" = weakref.WeakKeyDictionary()


class _MinimizeObserver(clingo.Observer):
    """The #minimize statements of a grounding, by priority (only `minimize` is observed:
    clingo calls an observer only for the methods it defines)."""

    def __init__(self) -> None:
        self.by_priority: dict[int, list[tuple[int, int]]] = {}

    def minimize(self, priority: int, literals: list[tuple[int, int]]) -> None:
        self.by_priority.setdefault(priority, []).extend(literals)


def observe(ctl: clingo.Control) -> None:
    """Keep the control's #minimize statements from now on (call before it grounds)."""
    observer = _MinimizeObserver()
    ctl.register_observer(observer)
    _OBSERVED[ctl] = observer


def levels(ctl: clingo.Control) -> Levels | None:
    """The control's cost levels in the order of a model's `cost` (highest priority first);
    None where the control was not observed from its start."""
    observer = _OBSERVED.get(ctl)
    if observer is None:
        return None
    return [observer.by_priority[p] for p in sorted(observer.by_priority, reverse=True)]


class Cheaper:
    """Atoms, added through one backend, true where the scenario's cost is below a vector."""

    def __init__(self, backend: clingo.Backend, cost_levels: Levels) -> None:
        self.backend, self.levels = backend, cost_levels
        self._at_least: dict[tuple[int, int], int] = {}

    def _sum_at_least(self, level: int, value: int) -> int:
        """An atom true where the level's sum is at least value."""
        key = (level, value)
        if key not in self._at_least:
            atom = self.backend.add_atom()
            self.backend.add_weight_rule([atom], value, self.levels[level])
            self._at_least[key] = atom
        return self._at_least[key]

    def below(self, cost: list[int]) -> int:
        """An atom true exactly where the cost vector (a model's `cost`) is lexicographically
        below `cost`: some level's sum is lower while every level above it is equal."""
        less = self.backend.add_atom()
        equal_above: list[int] = []
        for level, value in enumerate(cost):
            at_least = self._sum_at_least(level, value)
            self.backend.add_rule([less], [-at_least, *equal_above])
            if level + 1 < len(cost):
                equal_above += [at_least, -self._sum_at_least(level, value + 1)]
        return less
