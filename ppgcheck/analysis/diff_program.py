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
from ppgcheck.contract import DIFF_COMPARED
from ppgcheck.packs.pack import RUNTIME_CORE, SCENARIO_CORE, Pack
from ppgcheck.packs.program import Program, Rename, parse_files

OLD = "o__"

# What each version rules, over one scenario (diff_view.lp): the new version's atoms under
# dif_*, the old version's under odif_* (the view renamed; the old side's body atoms are then
# renamed `o__` wherever the old definition of a predicate differs from the new one, see
# diff_bounds.changed_predicates); the classes compared (diff_classes.lp).
_HERE = Path(__file__).resolve().parent
VIEW, CLASSES = _HERE / "diff_view.lp", _HERE / "diff_classes.lp"

# Predicates the comparison reads: when none of them differs, nothing can.
OUTPUTS = DIFF_COMPARED

# The kind of the first observation, to split the search by it (diff_first_kind.lp).
FIRST_KIND = (_HERE / "diff_first_kind.lp").read_text(encoding="utf-8")

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
        view = parse_files([VIEW])
        for node in view + parse_files([CLASSES]):
            if not CLASS_INPUTS.get(_class_of(node), changed) & changed:
                continue
            bld.add(node)
        old_view = Rename("o", {a.name for st in view.statements for a in st.heads})
        for node in view:
            bld.add(rename(old_view(node)))
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
