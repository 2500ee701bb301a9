"""history_scope.history_locality: where a program reads a person's history
only for an infraction they commit, the check may leave other history out."""
from __future__ import annotations

from clingo import ast

from ppgcheck.analysis.history_scope import history_locality

CORE = """
prior(P, Pen, I, D, X) :- history(P, Pen, I, D, X).
prior_scope(P, I) :- committed(_, P, I).
prior_scope(P, I) :- history(P, _, I, _, _).
prior_event(P, I, N) :- prior_scope(P, I), N = #count { Pen, X : prior(P, Pen, I, _, X) }.
penalty(O, P, I, game_loss) :- committed(O, P, I), upgraded(P, I).
#show penalty/4.
"""


def locality(program: str, wanted=()):
    statements: list = []
    ast.parse_string(CORE + program, statements.append)
    why: list[str] = []
    return history_locality(statements, wanted, why), why


def test_history_read_for_the_infraction_committed_is_scoped():
    found, _ = locality("upgraded(P, I) :- committed(_, P, I), prior_event(P, I, N), N >= 1.")
    assert found == set()


GUARDED_THROUGH_REPEATED = """
    repeated(P, I) :- committed(_, P, I), prior_event(P, I, N), N >= 1.
    warned(P) :- repeated(P, I), prior(P, warning, I, _, _).
    penalty(O, P, I, game_loss) :- committed(O, P, I), warned(P).
"""


def test_a_guard_through_a_predicate_every_rule_of_which_needs_the_commitment():
    found, _ = locality(GUARDED_THROUGH_REPEATED)
    assert found == set()


def test_a_predicate_one_rule_of_which_does_without_the_commitment_guards_nothing():
    found, why = locality(GUARDED_THROUGH_REPEATED + "repeated(P, I) :- flagged(P, I).")
    assert found is None and "reads prior for any infraction" in why[0]


def test_an_infraction_read_by_name_keeps_its_history():
    found, _ = locality("upgraded(P, I) :- committed(_, P, I), prior(P, warning, slow_play, _, _).")
    assert found == {"slow_play"}


def test_a_count_over_every_infraction_is_not_scoped():
    found, why = locality("""
        points(P, N) :- committed(_, P, _), N = #count { I, X : prior(P, _, I, _, X) }.
        upgraded(P, I) :- committed(_, P, I), points(P, N), N > 3.
    """)
    assert found is None and "reads prior for any infraction" in why[0]


def test_what_nothing_reads_does_not_count():
    found, _ = locality("""
        upgraded(P, I) :- committed(_, P, I), prior_event(P, I, N), N >= 1.
        any_history :- history(_, _, _, _, _).
    """)
    assert found == set()
    found, _ = locality("any_history :- history(_, _, _, _, _).", wanted={"any_history"})
    assert found is None


def test_a_constraint_on_derived_history_is_not_scoped_but_one_on_the_input_is():
    found, _ = locality(":- history(P, _, _, D, _), D > 2.")
    assert found == set()
    found, _ = locality(":- prior_event(P, I, N), N > 2.")
    assert found is None
