"""The solver calls of the scenario searches (`check`, `diff`), within one budget.

A search over a grounded control is one of: `brave` (every atom some model
holds), `optimum` (the smallest model holding a target, optionally only one
smaller than a cost), `satisfiable` (is there a model, with these
assumptions).  Each sets the solver configuration it needs and restores it
after; a loop of solves that share one configuration runs under
`configured`.  Every solve counts against a Budget: a time bound and a model
cap for all the searches of one pack.
"""
from __future__ import annotations

import contextlib
import time
import weakref
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

import clingo

from ppgcheck.packs import isolation
from ppgcheck.packs.isolation import solve_interrupted
from ppgcheck.errors import PolicyError
from ppgcheck.contract import INPUTS

Assumptions = Iterable[tuple[clingo.Symbol, bool] | int]     # (an int: a literal of the grounding)


class Budget:
    """The time bound and the model cap shared by every solve of one pack."""

    def __init__(self, timeout: float, max_models: int) -> None:
        self.deadline = time.monotonic() + timeout
        self.timeout, self.max_models = timeout, max_models
        self.models = 0
        self.hit: str | None = None

    def remaining(self) -> float:
        return self.deadline - time.monotonic()

    def exhausted(self) -> bool:
        if self.hit:
            return True
        if self.remaining() <= 0:
            self.hit = f"time bound of {self.timeout:g} s reached: the check is incomplete (raise --timeout)"
        elif self.models >= self.max_models:
            self.hit = f"model cap of {self.max_models} models reached: the check is incomplete (raise --max-models)"
        return self.hit is not None


T = TypeVar("T")


def beside(budget: Budget, work: Callable[[], T]) -> Callable[[], T] | None:
    """work(), a search that needs nothing the caller's next searches find, started in a
    forked child beside them; None where the platform has no fork (the caller runs it in its
    turn).  Calling what it returns gives work()'s value, the child's models and a time bound
    it hit counted in the budget; where the child ended without an answer (killed, or a bug),
    work() runs then in the process, where a bug shows itself."""
    if not isolation.can_fork():
        return None
    before = budget.models

    def counted() -> tuple[T, int, str | None]:
        return work(), budget.models - before, budget.hit
    child = isolation.Forked(counted)

    def result() -> T:
        got = child.result_or_none()
        if got is None:
            return work()
        value, models, hit = got
        budget.models += models
        budget.hit = budget.hit or hit
        return value
    return result


def messages_logger(messages: list[str], place: Callable[[str], str] = lambda message: message
                    ) -> Callable[[clingo.MessageCode, str], None]:
    """A clingo logger keeping the errors a failed grounding explains itself with (each
    message's place in the program as `place` names it)."""
    def log(code: clingo.MessageCode, message: str) -> None:
        if code in (clingo.MessageCode.RuntimeError, clingo.MessageCode.OperationUndefined):
            messages.append(" ".join(place(message).split()))
    return log


def ground(ctl: clingo.Control, parts: list[tuple[str, list]], failure: str, messages: list[str]) -> clingo.Control:
    """Ground the program parts; a failure is a PolicyError `failure: what clingo said`."""
    try:
        ctl.ground(parts)
    except RuntimeError:
        raise PolicyError(f"{failure}: " + "; ".join(messages)) from None
    return ctl


@contextlib.contextmanager
def configured(ctl: clingo.Control, *, enum: str = "auto", opt: str = "ignore", models: int = 0,
               heuristic: str, project: str | None = None, restarts: str | None = None,
               conflicts: int | None = None) -> Iterator[clingo.Control]:
    """The control with this solver configuration, restored when the block ends;
    conflicts: each solve's bound, in conflicts (the solve then ends unfinished)."""
    solve, solver = ctl.configuration.solve, ctl.configuration.solver
    settings = [(solve, "enum_mode", enum), (solve, "opt_mode", opt), (solve, "models", str(models)),
                (solver, "heuristic", heuristic)]
    if project is not None:
        settings.append((solve, "project", project))
    if restarts is not None:
        settings.append((solver, "restarts", restarts))
    if conflicts is not None:
        settings.append((solve, "solve_limit", str(conflicts)))
    before = [(section, key, getattr(section, key)) for section, key, _ in settings]
    for section, key, value in settings:
        setattr(section, key, value)
    try:
        yield ctl
    finally:
        for section, key, value in before:
            setattr(section, key, value)


def solve(ctl: clingo.Control, budget: Budget, assumptions: Assumptions = (),
          on_model: Callable[[clingo.Model], None] | None = None,
          until: float | None = None) -> tuple[bool, bool]:
    """One solve under the control's configuration, calling on_model(model)
    for each model, within the budget (and before `until`, a monotonic time,
    without spending the budget's bound).  Returns (finished, satisfiable)."""
    sat = False
    with ctl.solve(assumptions=list(assumptions), yield_=True, async_=True) as handle:
        while True:
            if budget.exhausted() or (until is not None and time.monotonic() >= until):
                handle.cancel()
                return False, sat
            handle.resume()
            limit = budget.remaining() if until is None else min(budget.remaining(), until - time.monotonic())
            if not handle.wait(max(limit, 0.01)):
                handle.cancel()
                budget.exhausted()
                return False, sat
            model = handle.model()
            if model is None:
                return not handle.get().unknown, sat    # (unknown: the solve's conflict bound ended it)
            sat = True
            budget.models += 1
            if on_model is not None:
                on_model(model)


def add_picks(backend: clingo.Backend, count: int) -> tuple[int, list[int]]:
    """(a switch, `count` fresh pick atoms): while the switch is on a scenario holds exactly
    one pick, and while it is off none.  The switch is an external, off until
    solve_switched turns it on for one solve, so the rules the caller adds about each pick
    never reach a later search on the same control.  One enumeration over the picks
    (projected on them and what they are asked with) replaces a search per case: each
    solve pays ~15-20 ms on a scenario space before it searches."""
    switch = backend.add_atom()
    backend.add_external(switch, clingo.TruthValue.False_)
    picks = [backend.add_atom() for _ in range(count)]
    backend.add_rule(picks, [switch], choice=True)
    backend.add_weight_rule([], 2, [(pick, 1) for pick in picks])       # at most one pick
    backend.add_rule([], [switch, *(-pick for pick in picks)])           # and one at least
    return switch, picks


def solve_switched(ctl: clingo.Control, budget: Budget, switch: int, on_model: Callable[[clingo.Model], None],
                   until: float | None = None) -> bool:
    """One solve under the control's configuration with the picks of add_picks on (the
    switch off again after it, for good); whether it finished."""
    ctl.assign_external(switch, True)
    try:
        return solve(ctl, budget, [], on_model, until=until)[0]
    finally:
        ctl.release_external(switch)


ReadAtoms = Callable[[clingo.Model], list[clingo.Symbol]]

# what a scenario of the main searches is read from, besides the shown atoms: its inputs (the
# report), what it commits (the findings' sections) and the target a generic finding is sought as
SCENARIO_SIGNATURES = sorted(INPUTS | {("committed", 3), ("chk_finding_any", 4)})
_SCENARIO_READERS: "weakref.WeakKeyDictionary[clingo.Control, ReadAtoms]" = weakref.WeakKeyDictionary()


def scenario_atoms(ctl: clingo.Control) -> ReadAtoms:
    """Reads a model of this control as far as a witness needs: its shown atoms and those
    of SCENARIO_SIGNATURES, asked by literal (found once per control).  Reading every atom
    of a model (thousands, each name a call into clingo) cost ~1 s of dci's check."""
    reader = _SCENARIO_READERS.get(ctl)
    if reader is None:
        atoms = ctl.symbolic_atoms
        wanted = [(a.symbol, a.literal) for name, arity in SCENARIO_SIGNATURES
                  for a in atoms.by_signature(name, arity)]

        def reader(model: clingo.Model) -> list[clingo.Symbol]:
            return [*model.symbols(shown=True), *(sym for sym, literal in wanted if model.is_true(literal))]
        _SCENARIO_READERS[ctl] = reader
    return reader


def last_model(ctl: clingo.Control, budget: Budget, assumptions: Assumptions = (),
               until: float | None = None, *, atoms: bool | ReadAtoms = False,
               each: Callable[[clingo.Model], None] | None = None
               ) -> tuple[bool, list[clingo.Symbol] | None, list[int]]:
    """(finished, the last model's shown atoms (all of them with `atoms`, or what `atoms`
    reads of it; None: no model),
    its cost) of one solve under the control's configuration (brave: the last model holds
    every brave atom found; optimising: the last is the best), within the budget and before
    `until`; each(model) sees every model on the way.  A synchronous solve, its last model
    read once (clingo's on_last): reading every model's atoms cost ~10 ms a model of a
    scenario space, and a brave pass has a few hundred; a timer interrupts it at the bound."""
    last: list[list[clingo.Symbol]] = []
    cost: list[int] = []
    stopped = [False]
    if budget.exhausted() or (until is not None and time.monotonic() >= until):
        return False, None, cost

    def counted(model: clingo.Model) -> bool:
        budget.models += 1
        if each is not None:
            each(model)
        stopped[0] = budget.exhausted() or (until is not None and time.monotonic() >= until)
        return not stopped[0]

    def keep(model: clingo.Model) -> None:
        last[:] = [atoms(model) if callable(atoms) else model.symbols(atoms=True) if atoms
                   else model.symbols(shown=True)]
        cost[:] = model.cost
    limit = budget.remaining() if until is None else min(budget.remaining(), until - time.monotonic())
    result = solve_interrupted(ctl, max(limit, 0.01), assumptions=list(assumptions), on_model=counted, on_last=keep)
    if result.interrupted:
        budget.exhausted()
    return not (stopped[0] or result.interrupted or result.unknown), (last[0] if last else None), cost


def brave(ctl: clingo.Control, budget: Budget, until: float | None = None, assumptions: Assumptions = (),
          heuristic: str = "Berkmin") -> tuple[set[clingo.Symbol], bool]:
    """The shown atoms some model holds (those of the last model when cut
    short), and whether the enumeration finished."""
    with configured(ctl, enum="brave", heuristic=heuristic):
        finished, last, _ = last_model(ctl, budget, assumptions, until)
    return set(last or ()), finished


def satisfiable(ctl: clingo.Control, budget: Budget, assumptions: Assumptions, *, heuristic: str,
                until: float | None = None, conflicts: int | None = None, restarts: str | None = None,
                on_model: Callable[[clingo.Model], None] | None = None) -> tuple[bool, bool]:
    """(finished, satisfiable) of one search for a model under the assumptions."""
    with configured(ctl, models=1, heuristic=heuristic, conflicts=conflicts, restarts=restarts):
        return solve(ctl, budget, assumptions, on_model, until)


def optimum(ctl: clingo.Control, budget: Budget, target: clingo.Symbol,
            on_scenario: Callable[[clingo.Model], None] | None = None,
            below: list[int] | None = None,
            assumptions: Assumptions = (), read: ReadAtoms | None = None
            ) -> tuple[list[clingo.Symbol] | None, bool, list[int]]:
    """The smallest model holding target (by the program's #minimize): (its
    atoms (what `read` reads of it where given), proven minimal, its cost); only
    one costing less than `below` when given (none: (None, True, [])), and
    holding the assumptions.  on_scenario sees every model the search passes through."""
    if below is None:
        opt = "opt"
    else:
        bound = strictly_below(below)
        if bound is None:       # nothing costs less than nothing
            return None, True, []
        opt = "opt," + ",".join(map(str, bound))
    # the Domain heuristic leaves the scenario's optional inputs out first (scenarios.lp)
    with configured(ctl, opt=opt, heuristic="Domain"):
        finished, best, cost = last_model(ctl, budget, [(target, True), *assumptions], atoms=read or True,
                                          each=on_scenario)
    return best, finished, cost


_NO_BOUND = 2 ** 31 - 1


def strictly_below(cost: list[int]) -> list[int] | None:
    """The largest cost vector (levels of non-negative costs, highest first)
    below `cost`, as clasp's inclusive bound takes it; None when cost is all
    zeros.  (clasp rejects every model under a negative level bound.)"""
    for level in range(len(cost) - 1, -1, -1):
        if cost[level] > 0:
            return [*cost[:level], cost[level] - 1] + [_NO_BOUND] * (len(cost) - level - 1)
    return None
