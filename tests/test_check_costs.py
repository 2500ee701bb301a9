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
