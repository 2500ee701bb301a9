"""Monotonicity of the heaviest permitted penalty (docs/rulings.md).

The default search (monotonicity.py) compares the two copies' default
penalties.  Where a guide leaves a choice (discretion/9, base_choice/5), the
heaviest penalty it permits must not get lighter either when the scenario is
made one step worse.  That is "some course of the better copy is heavier than
every course of the worse copy": one model cannot say "every", so the search
goes in two steps over the same two-copy grounding.

* A candidate: both copies explore (one permitted course each); the worse
  copy mirrors the better copy's discretionary move where it has one of the
  same kind (to its most severe named penalty) and takes its heaviest open
  base penalty (scenarios.lp, `mono_mirror`); mono_violation holds.  Every
  break is such a candidate (its worse copy's courses are all lighter, the
  mirrored one too).
* Its check: the scenario fixed, every course of both copies (a handful), the
  heaviest penalty of each person's observation compared (every break there);
  a scenario where the default penalties break already is the default search's.  A scenario checked is ruled out of
  the next candidate search, broken or not, until none is left or the time
  slice ends; once a break is found, a few more candidate searches, each
  bounded in conflicts (in a forked child beside the first break's witness).
* A break's witness: the candidates like it, smallest first (the scenario's
  #minimize), each checked until one breaks the same way.  Which kind of step
  a scenario takes (scenarios.lp, mono_kinds) is grounded only now: before the
  first candidate it more than doubled dci's variables.

Only packs with a discretionary move or an open base penalty are searched:
elsewhere the heaviest permitted penalty is the default one.
"""
from __future__ import annotations

import time
from collections.abc import Callable

import clingo

from ppgcheck.analysis import tuning
from ppgcheck.analysis.context import Context
from ppgcheck.analysis.findings import Monotonicity
from ppgcheck.analysis.programs import PREFIX
from ppgcheck.analysis.search import Budget, beside, configured, satisfiable, solve
from ppgcheck.contract import CHOICES, INPUTS

VIOLATION = clingo.Function("mono_violation")
MIRROR = clingo.Function("mono_mirror")
EXPLORE = [clingo.Function("explore"), clingo.Function(PREFIX + "explore")]
MAX_CANDIDATES = 200    # scenarios checked at most; past it the search says it did not finish




def has_choices(ctl: clingo.Control) -> bool:
    """Whether the grounding holds one of the CHOICES."""
    return any(True for sig in CHOICES for _ in ctl.symbolic_atoms.by_signature(*sig))


class _Courses:
    """The atoms a course's penalties are read from, as program literals."""

    def __init__(self, ctl: clingo.Control) -> None:
        atoms = ctl.symbolic_atoms
        self.inputs = [(a.symbol, a.literal) for name, arity in sorted(INPUTS)
                       for a in atoms.by_signature(name, arity)]
        self.inputs += [(a.symbol, a.literal) for a in atoms.by_signature("mono_worsen", 1)]
        self.penalties = {copy: [a.symbol for a in atoms.by_signature(copy + "penalty", 4)]
                          for copy in ("", PREFIX)}
        self.ranks = {a.symbol.arguments[0].name: a.symbol.arguments[1].number
                      for a in atoms.by_signature("penalty_rank", 2)
                      if a.symbol.arguments[1].type == clingo.SymbolType.Number}

    def step(self, scenario: list[int]) -> clingo.Symbol:
        """The step (mono_worsen's argument) this scenario takes."""
        true = set(scenario)
        return next(sym.arguments[0] for sym, lit in self.inputs if sym.name == "mono_worsen" and lit in true)

    def scenario(self, model: clingo.Model) -> list[int]:
        """The model's scenario as assumptions: each input atom as it is there."""
        return [lit if model.contains(sym) else -lit for sym, lit in self.inputs]


def heaviest_breaks(ctx: Context, ctl: clingo.Control, until: float, notes: list[str],
                    finding: Callable[[clingo.Symbol, list[clingo.Symbol], bool], Monotonicity]
                    ) -> list[Monotonicity]:
    """The breaks of the heaviest permitted penalty's monotonicity, one finding
    each (kind, infractions and penalties) with its smallest witness where the
    slice allows.  Once a break is found, candidates like it (the same step
    kind and infractions) are not searched again, and only a few more, each
    bounded in conflicts: whether the pack breaks is settled, each break is
    shown once, and the same pack gives the same findings on any machine.
    ctl: the two copies grounded with the monotone part; finding(chk_mono-like
    symbol, atoms, minimal) words one."""
    if not has_choices(ctl):
        return []
    search = _Search(ctx, ctl, until, finding)
    for atom in EXPLORE:
        ctl.assign_external(atom, True)
    try:
        while (first := search.breaks()) == []:     # candidates that do not break
            pass
        finished = first is None
        if first:
            finished = search.witnessed_with_others(first)
    finally:
        for atom in EXPLORE + [MIRROR]:
            ctl.assign_external(atom, False)
    if not finished and not ctx.budget.hit:
        notes.append("the heaviest permitted penalty's monotonicity search "
                     + ("stopped its search for other breaks after the first: others than those listed may exist"
                        if search.found else "did not finish in its time slice: no break was found so far"))
    return list(search.found.values())


Broken = list[tuple[clingo.Symbol, list[clingo.Symbol]]]     # chk_mono-like symbols, with their candidate's atoms


class _Search:
    """The candidate searches on one control, the breaks found and what they grounded."""

    def __init__(self, ctx: Context, ctl: clingo.Control, until: float,
                 finding: Callable[[clingo.Symbol, list[clingo.Symbol], bool], Monotonicity]) -> None:
        self.ctx, self.ctl, self.budget, self.until, self.finding = ctx, ctl, ctx.budget, until, finding
        self.courses = _Courses(ctl)
        self.found: dict[tuple, Monotonicity | None] = {}
        self.grounded: set[tuple] = set()       # the parametrised parts grounded so far
        self.checked = 0

    def breaks(self, conflicts: int | None = None) -> Broken | None | bool:
        """The breaks of the next candidate (checked, it is ruled out of the next ones);
        None: no candidate is left; False: the time slice, the conflict bound or the
        candidate cap ended the search first."""
        if self.checked >= MAX_CANDIDATES or self.budget.hit:
            return False
        candidate = _candidate(self.ctl, self.budget, self.courses, self.until, conflicts)
        if candidate is None or candidate is False:
            return candidate
        scenario, atoms = candidate
        self.checked += 1
        broken = _break(self.ctl, self.budget, self.courses, scenario, self.until)
        with self.ctl.backend() as backend:      # this scenario is checked: not again
            backend.add_rule([], scenario)
        return [(this, atoms) for this in broken]

    def witness(self, broken: Broken) -> None:
        """A finding for each break not found before, with its smallest witness."""
        for this, atoms in broken:
            key = tuple(str(a) for a in this.arguments)
            if key not in self.found:
                smaller, smallest = _smaller(self.ctl, self.budget, self.courses, this, self.grounded,
                                             time.monotonic() + tuning.HEAVIEST_WITNESS_SLICE)
                witness = _atoms(self.ctl, self.budget, smaller, self.until) if smaller else []
                self.found[key] = self.finding(this, witness or atoms, smallest and bool(witness))

    def seen(self, broken: Broken) -> None:
        """No more candidates like these breaks (scenarios.lp, heaviest_seen).  Grounded
        after their witnesses: the witness search asks for candidates like them."""
        for this, _ in broken:
            kind, inf_a, _, inf_b, _ = this.arguments
            _ground_once(self.ctl, self.grounded, "heaviest_seen", [kind, inf_a, inf_b])

    def others(self) -> bool:
        """A few more candidates for other breaks, each bounded in conflicts (an effort,
        not a time: a busy machine finds the same breaks), each break found witnessed:
        whether no candidate was left."""
        for _ in range(tuning.HEAVIEST_MORE_CANDIDATES):
            broken = self.breaks(tuning.HEAVIEST_MORE_CONFLICTS)
            if broken is None or broken is False:
                return broken is None
            self.witness(broken)
            self.seen(broken)
        return False

    def witnessed_with_others(self, first: Broken) -> bool:
        """The first breaks' witnesses, and the search for others, which needs nothing
        they find: in a forked child beside them where the platform forks (search.beside).
        Whether no candidate was left."""
        firsts = {tuple(str(a) for a in this.arguments) for this, _ in first}

        def others() -> tuple[list[tuple[tuple, Monotonicity]], bool]:
            for key in firsts:      # (in a child, forked before them: witnessed beside it)
                self.found.setdefault(key, None)
            self.seen(first)
            finished = self.others()
            return [(key, f) for key, f in self.found.items() if key not in firsts], finished
        collect = beside(self.budget, others)
        self.witness(first)
        more, finished = collect() if collect else others()
        self.found.update(more)
        return finished


def _candidate(ctl: clingo.Control, budget: Budget, courses: _Courses, until: float, conflicts: int | None):
    """(scenario assumptions, the model's atoms) of a candidate; None when there
    is none left, False when the time slice or the conflict bound ended the search first.
    Without a bound, the search takes turns between restart policies (tuning.CANDIDATE_RESTARTS),
    each turn's conflict bound doubling after every policy had one: the search is heavy-tailed,
    and which policy is quick changed with unrelated edits of the packs (a portfolio in one thread,
    whose learnt nogoods every turn keeps; in conflicts, so any machine finds the same candidate)."""
    ctl.assign_external(MIRROR, True)
    got: list = []

    def keep(m: clingo.Model) -> None:
        got[:] = [courses.scenario(m), m.symbols(atoms=True)]

    def search(restarts: str, bound: int | None) -> tuple[bool, bool]:
        return satisfiable(ctl, budget, [(VIOLATION, True)], heuristic=tuning.HEURISTIC, until=until,
                           conflicts=bound, restarts=restarts, on_model=keep)
    try:
        if conflicts is not None:
            done, sat = search(tuning.CANDIDATE_RESTARTS[0], conflicts)
            return tuple(got) if sat else (None if done else False)
        bound = tuning.CANDIDATE_TURN_CONFLICTS
        while True:
            for restarts in tuning.CANDIDATE_RESTARTS:
                done, sat = search(restarts, bound)
                if sat or done:
                    return tuple(got) if sat else None
                if budget.hit or time.monotonic() >= until:
                    return False
            bound *= 2
    finally:
        ctl.assign_external(MIRROR, False)


def _break(ctl: clingo.Control, budget: Budget, courses: _Courses, scenario: list[int],
           until: float) -> list[clingo.Symbol]:
    """The breaks of the heaviest permitted penalty in this scenario (chk_mono(...)),
    none where the default penalties break already."""
    if _default_breaks(ctl, budget, scenario, until):
        return []
    return _heaviest(ctl, budget, courses, scenario, courses.step(scenario), until)


def _smaller(ctl: clingo.Control, budget: Budget, courses: _Courses, broken: clingo.Symbol,
             grounded: set[tuple], until: float) -> tuple[list[int] | None, bool]:
    """A smaller scenario breaking as `broken` does: the candidates like it
    (scenarios.lp, heaviest_like) searched smallest first within the slice,
    each one the search passes through checked, smallest first: (the first
    that breaks so, whether it is the proven smallest candidate; None: none did)."""
    kind, inf_a, pen_a, inf_b, _ = broken.arguments
    _ground_once(ctl, grounded, "heaviest_like", [kind, inf_a, pen_a, inf_b])
    like = clingo.Function("mono_like", [kind, inf_a, pen_a, inf_b])
    passed: list[list[int]] = []
    ctl.assign_external(MIRROR, True)
    try:
        # (Vsids: after the default search's proof, the Domain heuristic search.optimum uses
        # often found no model of dci's break within the slice; Vsids found the smallest at once)
        with configured(ctl, opt="opt", heuristic=tuning.HEURISTIC):
            done, _ = solve(ctl, budget, [(VIOLATION, True), (like, True)],
                            lambda m: passed.append(courses.scenario(m)), until=until)
    finally:
        ctl.assign_external(MIRROR, False)
    for n, scenario in enumerate(reversed(passed)):
        if broken in _break(ctl, budget, courses, scenario, until + tuning.HEAVIEST_WITNESS_SLICE):
            return scenario, done and n == 0
    return None, False


def _ground_once(ctl: clingo.Control, grounded: set[tuple], part: str, arguments: list[clingo.Symbol]) -> None:
    """Ground a parametrised part once per arguments (`grounded`: those of this control so
    far): two breaks may share them, and grounding it again would define its atoms twice."""
    key = (part, *map(str, arguments))
    if key not in grounded:
        if not grounded and not any(True for _ in ctl.symbolic_atoms.by_signature("mono_kind", 2)):
            # the parts read the steps' kinds (scenarios.lp, mono_kinds): grounded only
            # now, each new part of the grounding slowing every later search
            ctl.ground([("mono_kinds", [])])
        grounded.add(key)
        ctl.ground([(part, arguments)])


def _atoms(ctl: clingo.Control, budget: Budget, scenario: list[int], until: float) -> list[clingo.Symbol]:
    """The atoms of this scenario's model, its witness report read from them ([]: none in time)."""
    got: list[clingo.Symbol] = []

    def keep(m: clingo.Model) -> None:
        got[:] = m.symbols(atoms=True)
    satisfiable(ctl, budget, scenario, heuristic=tuning.HEURISTIC, until=until, on_model=keep)
    return got


def _default_breaks(ctl: clingo.Control, budget: Budget, scenario: list[int], until: float) -> bool:
    """Whether the default penalties break monotonicity in this scenario already
    (the default search reports that break: not twice)."""
    for atom in EXPLORE:
        ctl.assign_external(atom, False)
    try:
        return satisfiable(ctl, budget, [*scenario, ctl.symbolic_atoms[VIOLATION].literal],
                           heuristic=tuning.HEURISTIC, until=until)[1]
    finally:
        for atom in EXPLORE:
            ctl.assign_external(atom, True)


def _heaviest(ctl: clingo.Control, budget: Budget, courses: _Courses, scenario: list[int],
              step: clingo.Symbol, until: float) -> list[clingo.Symbol]:
    """Over every course of both copies in this scenario, the heaviest penalty of
    each person's observation: chk_mono(Kind, IA, PA, IB, PB) for each where the
    worse copy's is lighter."""
    heaviest: dict[tuple[str, clingo.Symbol, clingo.Symbol], tuple[int, clingo.Symbol, clingo.Symbol]] = {}

    def keep(m: clingo.Model) -> None:
        for copy, atoms in courses.penalties.items():
            for atom in atoms:
                if m.contains(atom):
                    o, p, inf, pen = atom.arguments
                    rank = courses.ranks.get(pen.name, -1)
                    if rank > heaviest.get((copy, o, p), (-2,))[0]:
                        heaviest[(copy, o, p)] = (rank, inf, pen)
    with configured(ctl, models=0, heuristic=tuning.HEURISTIC):
        done, _ = solve(ctl, budget, scenario, keep, until=until)
    if not done:
        return []
    breaks: list[clingo.Symbol] = []
    for (copy, o, p), (rank_a, inf_a, pen_a) in sorted(heaviest.items(), key=lambda kv: str(kv[0])):
        worse = None if copy else heaviest.get((PREFIX, o, p))
        if worse and worse[0] < rank_a:
            found = clingo.Function("chk_mono", [step_kind(step), inf_a, pen_a, worse[1], worse[2]])
            if found not in breaks:
                breaks.append(found)
    return breaks


def step_kind(step: clingo.Symbol) -> clingo.Symbol:
    """The kind of a mono_worsen step, as scenarios.lp's mono_kind/2 names it."""
    if step.name == "more":
        return clingo.Function("more", [step.arguments[1]])
    if step.name == "prior":
        return clingo.Function("one_more_prior_offense")
    return clingo.Function(step.name)

