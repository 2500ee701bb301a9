"""The program `ppgcheck diff` searches: both versions of a pack side by side.

The new version as is, over the scenario space (rules/core/scenarios.lp),
and beside it the old version's rules for every predicate whose definition
differs (and those that depend on them: diff_bounds.changed_predicates),
renamed `o__`, reading the same input facts; everything the edit does not
touch is shared.  `dif_class/5` names every class of incident whose ruling
differs:

    dif_class(What, ObservationKind, Subject, Before, After)
"""
from __future__ import annotations

from pathlib import Path

import clingo
from clingo import ast

from ppgcheck.analysis import diff_bounds
from ppgcheck.analysis.search import messages_logger
from ppgcheck.engine.pack import RUNTIME_CORE, SCENARIO_CORE, Pack
from ppgcheck.engine.program import Program, Rename

OLD = "o__"

# What each version rules, over one scenario: the new version's atoms under
# dif_*, the old version's under odif_* (written with plain names here; the
# old side's body atoms are then renamed `o__` wherever the old definition of
# a predicate differs from the new one, see diff_bounds.changed_predicates).
VIEW = """
{p}dif_base(O, P, I, Pen) :- committed(O, P, I), pen(O, P, I, 0, Pen).
{p}dif_base(O, P, I, undetermined) :- committed(O, P, I), not pen(O, P, I, 0, _).
{p}dif_final(O, P, I, Pen) :- penalty(O, P, I, Pen).
{p}dif_final(O, P, I, undetermined) :- committed(O, P, I), not penalty(O, P, I, _).
{p}dif_issued(O, P, I, issued) :- issued(O, P, I, _).
{p}dif_issued(O, P, I, absorbed) :- penalty(O, P, I, _), not issued(O, P, I, _).
{p}dif_issued(O, P, I, none) :- committed(O, P, I), not penalty(O, P, I, _).
{p}dif_ruling(O, P, I, r(B, F, X)) :- {p}dif_base(O, P, I, B), {p}dif_final(O, P, I, F), {p}dif_issued(O, P, I, X).
{p}dif_end(O, P, I, e(F, X)) :- {p}dif_final(O, P, I, F), {p}dif_issued(O, P, I, X).
{p}dif_path(O, P, I, S, Pen) :- committed(O, P, I), pen(O, P, I, S, Pen).
{p}dif_option(O, P, I, move(S, K, T, B, C, Sec)) :- discretion(O, P, I, S, K, T, B, C, Sec).
{p}dif_option(O, P, I, base(Pen, Sec)) :- base_choice(O, P, I, Pen, Sec).
{p}dif_committed(O, P, I) :- committed(O, P, I).
{p}dif_infraction(O, P, I) :- infraction(O, P, I).
{p}dif_ni(O, P, S) :- not_infraction(O, P, _, S).
{p}dif_fix(O, P, I, S, T, Sec) :- fix(O, P, I, S, T, Sec).
{p}dif_finding(K, L, O, M, S) :- finding(K, L, O, M, S).
{p}dif_note(O, P, I, T, S) :- note(O, P, I, T, S).
{p}dif_head_judge(O, P, I) :- head_judge(O, P, I, _).
{p}dif_time(M, S) :- time_extension(M, S).
{p}dif_report_note(T, S) :- report_note(T, S).
{p}dif_outcome(X, S) :- outcome(X, S).
{p}dif_outcome_note(T, S) :- outcome_note(T, S).
#defined note/5. #defined head_judge/4. #defined time_extension/2. #defined report_note/2.
#defined discretion/9. #defined base_choice/5.
"""

CLASSES = """
dif_kind(O, K) :- observation(O, _, K).
dif_kind(0, none).

dif_class(infraction, K, I, committed, not_committed) :-
    odif_committed(O, P, I), not dif_committed(O, P, I), dif_kind(O, K).
dif_class(infraction, K, I, not_committed, committed) :-
    dif_committed(O, P, I), not odif_committed(O, P, I), dif_kind(O, K).
dif_class(no_infraction, K, S, listed, not_listed) :- odif_ni(O, P, S), not dif_ni(O, P, S), dif_kind(O, K).
dif_class(no_infraction, K, S, not_listed, listed) :- dif_ni(O, P, S), not odif_ni(O, P, S), dif_kind(O, K).
% the final penalty (or whether it is issued) changed; or the same final penalty reached
% another way (another base, another penalty after some stage of adjustments)
% (whether the ends differ, or one is shared, is settled per infraction first: joined with
% both rulings, the possible ends multiplied the ground rules by thousands in a large space)
dif_class(penalty, K, I, RO, RN) :-
    dif_committed(O, P, I), odif_committed(O, P, I), dif_kind(O, K),
    dif_ruling(O, P, I, RN), odif_ruling(O, P, I, RO), dif_ends_differ(O, P, I).
dif_ends_differ(O, P, I) :- dif_end(O, P, I, EN), odif_end(O, P, I, EO), EN != EO.
dif_class(penalty_path, K, I, RO, RN) :-
    dif_committed(O, P, I), odif_committed(O, P, I), dif_kind(O, K),
    dif_ruling(O, P, I, RN), odif_ruling(O, P, I, RO), dif_end_shared(O, P, I),
    dif_path_differs(O, P, I).
dif_end_shared(O, P, I) :- dif_end(O, P, I, E), odif_end(O, P, I, E).
dif_path_differs(O, P, I) :- dif_path(O, P, I, S, Pen), odif_committed(O, P, I), not odif_path(O, P, I, S, Pen).
dif_path_differs(O, P, I) :- odif_path(O, P, I, S, Pen), dif_committed(O, P, I), not dif_path(O, P, I, S, Pen).
% who may move the penalty where (discretion.md): a changed option is a change
dif_class(discretion, K, I, changed, changed) :-
    dif_committed(O, P, I), odif_committed(O, P, I), dif_kind(O, K),
    dif_option(O, P, I, X), not odif_option(O, P, I, X).
dif_class(discretion, K, I, changed, changed) :-
    dif_committed(O, P, I), odif_committed(O, P, I), dif_kind(O, K),
    odif_option(O, P, I, X), not dif_option(O, P, I, X).
dif_class(fix, K, I, changed, changed) :-
    dif_committed(O, P, I), odif_committed(O, P, I), dif_kind(O, K),
    dif_fix(O, P, I, S, T, Sec), not odif_fix(O, P, I, S, T, Sec).
dif_class(fix, K, I, changed, changed) :-
    dif_committed(O, P, I), odif_committed(O, P, I), dif_kind(O, K),
    odif_fix(O, P, I, S, T, Sec), not dif_fix(O, P, I, S, T, Sec).
dif_class(finding(Kd, L, M, S), K, none, present, absent) :-
    odif_finding(Kd, L, O, M, S), not dif_finding(Kd, L, O, M, S), dif_kind(O, K).
dif_class(finding(Kd, L, M, S), K, none, absent, present) :-
    dif_finding(Kd, L, O, M, S), not odif_finding(Kd, L, O, M, S), dif_kind(O, K).
dif_class(note, K, I, changed, changed) :-
    dif_committed(O, P, I), odif_committed(O, P, I), dif_kind(O, K),
    dif_note(O, P, I, T, S), not odif_note(O, P, I, T, S).
dif_class(note, K, I, changed, changed) :-
    dif_committed(O, P, I), odif_committed(O, P, I), dif_kind(O, K),
    odif_note(O, P, I, T, S), not dif_note(O, P, I, T, S).
dif_class(head_judge, K, I, not_required, required) :-
    dif_committed(O, P, I), odif_committed(O, P, I), dif_kind(O, K),
    dif_head_judge(O, P, I), not odif_head_judge(O, P, I).
dif_class(head_judge, K, I, required, not_required) :-
    dif_committed(O, P, I), odif_committed(O, P, I), dif_kind(O, K),
    odif_head_judge(O, P, I), not dif_head_judge(O, P, I).
% time extensions are about the match, not one observation (the same grants: the same total)
dif_class(time_extension, none, none, changed, changed) :- dif_time(M, S), not odif_time(M, S).
dif_class(time_extension, none, none, changed, changed) :- odif_time(M, S), not dif_time(M, S).
dif_class(report_note, none, none, changed, changed) :- dif_report_note(T, S), not odif_report_note(T, S).
dif_class(report_note, none, none, changed, changed) :- odif_report_note(T, S), not dif_report_note(T, S).
% the outcome is about the match, not one observation
dif_class(outcome, none, none, changed, changed) :- dif_outcome(X, S), not odif_outcome(X, S).
dif_class(outcome, none, none, changed, changed) :- odif_outcome(X, S), not dif_outcome(X, S).
dif_class(outcome, none, none, changed, changed) :- dif_outcome_note(T, S), not odif_outcome_note(T, S).
dif_class(outcome, none, none, changed, changed) :- odif_outcome_note(T, S), not dif_outcome_note(T, S).
#defined not_infraction/4. #defined fix/6.
#defined dif_touch/1. #defined dif_touch_kind/1. #defined dif_restrict/0.
% Only scenarios where an infraction the changed rules name is classified, in
% either version, or that observe a kind a changed exclusion needs.
dif_relevant :- dif_infraction(_, _, I), dif_touch(I).
dif_relevant :- odif_infraction(_, _, I), dif_touch(I).
dif_relevant :- observation(_, _, K), dif_touch_kind(K).
:- dif_restrict, not dif_relevant.
#show dif_class/5.
"""

# Predicates the comparison reads: when none of them differs, nothing can.
OUTPUTS = {"committed", "not_infraction", "pen", "penalty", "issued", "fix", "finding", "note", "head_judge",
           "time_extension", "report_note", "outcome", "outcome_note", "discretion", "base_choice"}

# The kind of the first observation, to split the search by it.
# A scenario with a state of the match has no observation here (`none`), so that the
# states add their own few scenarios instead of multiplying every other
# (`ppgcheck check` searches them together, for an outcome against a penalty).
FIRST_KIND = ("dif_first_kind(K) :- observation(1, _, K).\n"
              "dif_first_kind(none) :- not observation(1, _, _).\n"
              ":- chk_state(_), observation(_, _, _).\n:- chk_tally(_), observation(_, _, _).\n")

_SHOWS = (ast.ASTType.ShowSignature, ast.ASTType.ShowTerm)

# What each class compares (through VIEW): a class none of whose inputs changed holds in
# no scenario (the old side reads the same atoms as the new), so its rules are left out;
# the solver would otherwise have to prove that over the whole space.
CLASS_INPUTS = {
    "infraction": {"committed"}, "no_infraction": {"not_infraction"},
    "penalty": {"committed", "pen", "penalty", "issued"}, "penalty_path": {"committed", "pen", "penalty", "issued"},
    "discretion": {"committed", "discretion", "base_choice"}, "fix": {"committed", "fix"}, "finding": {"finding"},
    "note": {"committed", "note"}, "head_judge": {"committed", "head_judge"}, "time_extension": {"time_extension"},
    "report_note": {"report_note"}, "outcome": {"outcome", "outcome_note"}}


def diff_control(new: Pack, old: Pack, facts: str, messages: list[str],
                 touched: tuple[set[str], set[str]] | None, changed: set[str]) -> clingo.Control:
    """The new version over the scenario space, plus an `o__` copy of the old version's
    rules for every predicate whose definition changed (`changed`: changed_predicates,
    found once for every part of the space)."""
    ctl = clingo.Control(["--warn=none"], logger=messages_logger(messages))
    ctl.configuration.solver.opt_strategy = "usc"
    new_core = new.core_program(SCENARIO_CORE)
    old_all, compared_new = _compared(new, old)
    if touched is not None:
        facts += ("dif_restrict.\n" + "".join(f"dif_touch({i}).\n" for i in sorted(touched[0]))
                  + "".join(f"dif_touch_kind({k}).\n" for k in sorted(touched[1])))
    rename = Rename(OLD, changed)
    defined = {node.name for node in compared_new.nodes if node.ast_type == ast.ASTType.Definition}
    with ast.ProgramBuilder(ctl) as bld:
        for node in (new_core + new.program).nodes:
            if node.ast_type not in _SHOWS:
                bld.add(node)
        for st in old_all.statements:
            if st.kind == ast.ASTType.Rule and diff_bounds.head_names(st) & changed:
                bld.add(rename(st.node))
            elif st.kind == ast.ASTType.Defined and st.node.name in changed:
                bld.add(rename(st.node))
            elif st.kind == ast.ASTType.Definition and st.node.name not in defined:
                bld.add(st.node)      # a constant only the old version defines
                defined.add(st.node.name)
        for node in Program.parse(VIEW.format(p="") + CLASSES):
            if not CLASS_INPUTS.get(_class_of(node), changed) & changed:
                continue
            bld.add(node)
        for node in Program.parse(VIEW.format(p="o")):
            bld.add(rename(node))
    ctl.add("base", [], facts)
    return ctl


def changed_predicates(new: Pack, old: Pack) -> set[str]:
    """The predicates whose rules differ between the versions, and those depending on them."""
    return diff_bounds.changed_predicates(*_compared(new, old))


def _compared(new: Pack, old: Pack) -> tuple[Program, Program]:
    """The old version as it rules, and the new one as it is compared: without the scenarios."""
    compared_new = new.core_program(SCENARIO_CORE).where(lambda st: Path(st.file).name != "scenarios.lp")
    return old.core_program(RUNTIME_CORE) + old.program, compared_new + new.program


def same_core(old: Pack, new: Pack) -> bool:
    """Whether the two versions rule with the same core (a core file missing from either counts as the same)."""
    return all(old.text(o) == new.text(n) for o, n in zip(old.core_files(), new.core_files())
               if o.is_file() and n.is_file())


def _class_of(node: ast.AST) -> str | None:
    """The class a `dif_class` rule derives (its head's first argument), else None."""
    if (node.ast_type != ast.ASTType.Rule or node.head.ast_type != ast.ASTType.Literal
            or node.head.atom.ast_type != ast.ASTType.SymbolicAtom):
        return None
    symbol = node.head.atom.symbol
    if symbol.ast_type != ast.ASTType.Function or symbol.name != "dif_class":
        return None
    first = symbol.arguments[0]
    if first.ast_type == ast.ASTType.SymbolicTerm:        # a constant: `penalty`
        return first.symbol.name
    return first.name if first.ast_type == ast.ASTType.Function else None
