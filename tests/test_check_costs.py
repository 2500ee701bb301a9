"""costs.Cheaper: the atom it adds is true in a model exactly where the model's cost vector
(clingo's `Model.cost`, highest priority first) is lexicographically below the one given."""
from __future__ import annotations

import clingo
import pytest

from ppgcheck.analysis import costs

PROGRAM = """
{ a; b; c; d; e }.
:~ a. [1@3]
:~ b. [2@3]
:~ c. [1@1, c]
:~ d. [3@1, d]
:~ d. [1@0]
:~ e, not a. [2@0]
"""


def observed() -> clingo.Control:
    ctl = clingo.Control(["--warn=none"])
    costs.observe(ctl)
    ctl.add("base", [], PROGRAM)
    ctl.ground([("base", [])])
    return ctl


# nothing below, the highest level deciding, a lower level deciding on a tie, the heaviest
# models exactly (two: with and without e, all the others below) and above it (all below)
@pytest.mark.parametrize("vector", [[0, 0, 0], [1, 0, 0], [1, 1, 0], [2, 3, 1], [3, 4, 1], [3, 4, 2], [1, 4, 0],
                                    [0, 0, 5]])
def test_below_holds_exactly_where_the_cost_is_lower(vector):
    ctl = observed()
    levels = costs.levels(ctl)
    assert levels is not None and len(levels) == 3
    with ctl.backend() as backend:
        below = costs.Cheaper(backend, levels).below(vector)
    ctl.configuration.solve.opt_mode = "enum"
    ctl.configuration.solve.models = 0
    seen: list[tuple[list[int], bool]] = []
    ctl.solve(on_model=lambda m: seen.append((list(m.cost), m.is_true(below))))
    assert len(seen) == 32                              # every model, each told right
    assert all(is_below == (cost < vector) for cost, is_below in seen), seen
    assert sum(is_below for _, is_below in seen) == {(0, 0, 0): 0, (3, 4, 1): 30, (3, 4, 2): 32}.get(
        tuple(vector), sum(cost < vector for cost, _ in seen))


def test_an_unobserved_control_has_no_levels():
    ctl = clingo.Control()
    ctl.add("base", [], PROGRAM)
    ctl.ground([("base", [])])
    assert costs.levels(ctl) is None


WITNESS_SPACE = """
{ x; y; z }.
t(1) :- x.  t(1) :- y.
t(2) :- y.  t(2) :- z.
t(3) :- z.
#minimize { 1@2 : x ; 5@1 : y ; 2@1 : z }.
#external chk_open(t(1..3)).
chk_open_held :- chk_open(t(N)), t(N).
"""


@pytest.mark.parametrize("observed_costs", [True, False])
def test_a_later_part_gives_exactly_the_targets_it_holds_cheaper(observed_costs):
    """witnesses._smaller_here: of targets witnessed elsewhere at a cost, those this grounding
    holds at a smaller one, each with its smallest; where the cost levels are observed
    (costs.py), one search first tells whether any is held cheaper at all."""
    from ppgcheck.analysis.search import Budget
    from ppgcheck.analysis.witnesses import _none_cheaper, _smaller_here
    ctl = clingo.Control(["--warn=none"])
    if observed_costs:
        costs.observe(ctl)
    ctl.add("base", [], WITNESS_SPACE)
    ctl.ground([("base", [])])
    t1, t2, t3 = (clingo.Function("t", [clingo.Number(n)]) for n in (1, 2, 3))
    # t(1) by y costs [0, 5] here, t(2) by z [0, 2], t(3) by z [0, 2]
    earlier = {t1: [0, 6], t2: [0, 2], t3: [1, 0]}
    assert not _none_cheaper(ctl, Budget(10, 1000), earlier)
    smaller, unfinished = _smaller_here(ctl, Budget(10, 1000), earlier)
    assert unfinished == []
    assert {t: cost for t, (_, proven, cost) in smaller.items() if proven} == {t1: [0, 5], t3: [0, 2]}
    smallest = {t1: [0, 5], t2: [0, 2], t3: [0, 2]}
    assert _none_cheaper(ctl, Budget(10, 1000), smallest) == observed_costs
    assert _smaller_here(ctl, Budget(10, 1000), smallest) == ({}, [])
