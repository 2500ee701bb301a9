"""Monotonicity: no scenario made one fact worse gets a lighter penalty.

Two copies of the program side by side (the second renamed `b__`,
programs.PREFIX) read one scenario and the same scenario one step worse
(adding `on purpose`, a stricter REL, a higher tier, a longer ruling, one
more prior offense, a larger count: rules/core/scenarios.lp, `#program
monotone`); `mono_violation` holds where the worse one is penalised less.
Refuting it proves the pack monotone; each violation found (chk_mono) gets a
smallest witness and its one-step-worse contrast.

A large pack's proof runs first on a slice (slicing.Slicer: rules told
apart by the constants of their atoms too, and no #minimize, which only
witnesses read), over each part of its space when it is split (by a header,
or, where history counts only for what is committed, by observation kind: no
step leaves a part); only a pack whose slice holds a violation is searched
again over both copies in full, for its witnesses.  The search needs nothing
the other searches find: where the platform forks it runs in a child beside
them.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import clingo
from clingo import ast

from ppgcheck.analysis import tuning
from ppgcheck.analysis.context import Context
from ppgcheck.analysis.findings import Monotonicity
from ppgcheck.analysis.heaviest import heaviest_breaks
from ppgcheck.contract import INPUTS
from ppgcheck.analysis.programs import PREFIX, as_text, cached_for_pack, check_program, history_scope_facts
from ppgcheck.analysis.scenarios import kind_parts, scenario_report
from ppgcheck.analysis.search import Budget, brave, configured, messages_logger, optimum, solve
from ppgcheck.analysis.slicing import ANY, Slicer
from ppgcheck.analysis.space import split_by_header
from ppgcheck.analysis.witnesses import locations_for
from ppgcheck.packs import isolation
from ppgcheck.packs.program import Program, parse_text, renamed
from ppgcheck.language.facts import constant_to_slug
from ppgcheck.language.report import print_report
from ppgcheck.packs.isolation import Forked, can_fork

STEP_TEXT = {"on_purpose": "adding `on purpose`", "stricter_rel": "a stricter REL",
             "stricter_tier": "a higher tier", "longer_ruling": "a longer ruling",
             "one_more_prior_offense": "one more prior offense"}
VIOLATION = clingo.Function("mono_violation")
_NOT_SLICED = (ast.ASTType.ShowSignature, ast.ASTType.ShowTerm, ast.ASTType.Minimize)


def _until(budget: Budget) -> float:
    """The end of the proof's time slice: half the time left, within bounds."""
    low, high = tuning.MONOTONICITY_SLICE
    return time.monotonic() + max(low, min(budget.remaining() / 2, high))


def _observation(subject: int, kind: str) -> clingo.Symbol:
    return clingo.Function("observation", [clingo.Number(1), clingo.Number(subject), clingo.Function(kind)])


_MONOTONE = [("base", []), ("monotone", [])]
_GROUNDS_FOR = "the monotonicity check"


def _grounded(ctx: Context, program: str, extra: str) -> clingo.Control:
    ctl = clingo.Control(["--warn=none"], logger=messages_logger(ctx.messages))
    ctl.add("base", [], program)
    ctl.add("base", [], extra)
    return ctx.ground(ctl, _MONOTONE, _GROUNDS_FOR)


def refuted(ctx: Context) -> bool:
    """Whether no scenario made one step worse gets a lighter penalty, proven on
    the slice of the two copies mono_violation depends on, over each part of
    the space when it is split (by a header, or by observation kind).  False
    when some subject's part holds a violation, or the proof ran out of its
    time: the full search then runs."""
    reads, budget = ctx.reads, ctx.budget
    whole_facts = ctx.one_observation
    rules, scope = _proof_slice(ctx, whole_facts)
    until = _until(budget)
    kinds = sorted(reads.observation_kinds)

    def proof(ctl: clingo.Control, subject: int) -> tuple[bool, bool]:
        other = [(_observation(3 - subject, k), False) for k in kinds]
        with configured(ctl, models=1, heuristic=tuning.HEURISTIC):
            return solve(ctl, budget, other + [(VIOLATION, True)], until=until)

    # a header that splits the space, else (where only the history of what is
    # committed counts) a part per observation kind, each grounded without most
    # of the history: no step changes either

    def ground_part(part: str) -> clingo.Control:
        return _grounded(ctx, rules, part + scope)
    split = split_by_header(reads, whole_facts, ground_part, program=f"{rules}\0{scope}")
    parts = split.parts if split else None
    if parts is None and scope:
        parts = [(part, None) for part in kind_parts(whole_facts)]
    if parts is not None:
        for part, ctl in parts:
            ctl = ctl or ground_part(part)
            for subject in (1, 2):
                done, sat = proof(ctl, subject)
                if sat or not done:
                    return False
        return True
    return _both_subjects(proof, _grounded(ctx, rules, whole_facts))




def _proof_slice(ctx: Context, whole_facts: str) -> tuple[str, str]:
    """The slice of the two copies mono_violation depends on (the pack's inputs and the
    scenario facts), as clingo reads it, and its history scope; kept in the cache with the
    pack's bytes: renaming and slicing a large pack's program took seconds of Python."""
    pack = ctx.pack

    def write() -> dict:
        core = pack.core_program().where(lambda st: st.kind not in _NOT_SLICED)
        facts = parse_text(whole_facts)
        copy = renamed(core.where(lambda st: Path(st.file).name != "scenarios.lp") + pack.program, PREFIX)
        keep = Slicer(Program.join([core, pack.program, copy, facts])).rules(
            [(name, (ANY,) * arity) for name, arity in INPUTS] + [("mono_violation", ())])
        fact_statements = {id(st) for st in facts.statements}
        rules = keep.where(lambda st: id(st) not in fact_statements)
        return {"text": as_text(rules)[0], "scope": history_scope_facts(rules, {"mono_violation"})}
    data = cached_for_pack("slice", pack, write, whole_facts)
    return data["text"], data["scope"]


def _both_subjects(proof: Callable[[clingo.Control, int], tuple[bool, bool]], ctl: clingo.Control) -> bool:
    """The two subjects' proofs are independent: the second runs in a forked
    child beside the first (the grounding is inherited), where the platform forks."""
    second = Forked(lambda: proof(ctl, 2)) if can_fork() else None
    try:
        done, sat = proof(ctl, 1)
        if sat or not done:
            return False
        done, sat = (second.result_or_none() or (False, False)) if second else proof(ctl, 2)
        return done and not sat
    finally:
        if second:
            second.stop()


def monotonicity(ctx: Context, notes: list[str]) -> list[Monotonicity]:
    """The monotonicity breaks of the pack, each with its smallest witness; a
    large pack's proven on a slice first."""
    pack, reads, budget, say = ctx.pack, ctx.reads, ctx.budget, ctx.say
    if ctx.large:
        if refuted(ctx) or budget.hit:
            if not budget.hit and ctx.traits.leaves_choices:
                notes.append("the heaviest permitted penalty's monotonicity is not searched for a pack this "
                             "large (only the default penalty's is proven)")
            return []
        say(f"{pack.id}: the slice holds a violation: both copies in full for its witnesses")
    program = check_program(pack, ctx.root, shown={"chk_mono"}, wanted={"mono_violation", "mono_like"},
                            renamed_copy=True)
    ctl = ctx.ground(program.control(ctx.one_observation, ctx.messages), _MONOTONE, _GROUNDS_FOR)
    isolation.keep_until_exit(ctl, beside=True)
    say(f"{pack.id}: searching every scenario made one step worse")
    until = _until(budget)
    violated, finished = _violated(ctl, budget, sorted(reads.observation_kinds), until)
    found: set[clingo.Symbol] = set()
    if violated:
        ctl.ground([("mono_kinds", []), ("mono_detail", [])])
    for obs in violated:
        part, done = brave(ctl, budget, until, [(obs, True), (VIOLATION, True)], heuristic=tuning.HEURISTIC)
        found |= part
        finished = finished and done
        if not done:
            break
    if not finished and not budget.hit:
        notes.append("the monotonicity search did not finish in its time slice: the violations found so far are listed")
    groups: dict[tuple, clingo.Symbol] = {}
    for sym in sorted(found):
        if sym.name == "chk_mono":
            kind, ia, pa, ib, pb = sym.arguments
            groups.setdefault((str(kind), ia.name, pa.name, ib.name, pb.name), sym)
    out: list[Monotonicity] = []
    for n, sym in enumerate(groups.values(), start=1):
        say(f"{pack.id}: monotonicity witness {n}/{len(groups)}")
        out.append(_finding(ctx, sym, *optimum(ctl, budget, sym)[:2]))
        if budget.hit:
            break
    if not budget.hit:
        say(f"{pack.id}: searching the heaviest permitted penalties")
        out.extend(heaviest_breaks(ctx, ctl, _until(budget), notes,
                                   lambda sym, atoms, proven: _finding(ctx, sym, atoms, proven, heaviest=True)))
    return out


def _violated(ctl: clingo.Control, budget: Budget, kinds: list[str],
              until: float) -> tuple[list[clingo.Symbol], bool]:
    """The subjects' observations (by kind) some violation holds, and whether the
    searches finished.  A single atom (mono_violation) that every violation
    derives: refuting it proves a part of the space free of violations.  One
    search per subject (far quicker than one over both, or one per observation
    kind); a subject whose part holds a violation is searched again kind by kind."""
    violated: list[clingo.Symbol] = []
    finished = True
    with configured(ctl, models=1, heuristic=tuning.HEURISTIC, restarts=tuning.PROOF_RESTARTS):
        for subject in (1, 2):
            done, sat = solve(ctl, budget, [(_observation(3 - subject, k), False) for k in kinds]
                              + [(VIOLATION, True)], until=until)
            for kind in kinds if done and sat else []:
                done, sat = solve(ctl, budget, [(_observation(subject, kind), True), (VIOLATION, True)], until=until)
                if sat:
                    violated.append(_observation(subject, kind))
                if not done:
                    break
            finished = finished and done
            if not finished:
                break
    return violated, finished


def _finding(ctx: Context, sym: clingo.Symbol, atoms, proven: bool, heaviest: bool = False) -> Monotonicity:
    pack, reads = ctx.pack, ctx.reads
    kind, ia, pa, ib, pb = sym.arguments
    step = STEP_TEXT.get(kind.name) or (f"more {kind.arguments[0].name}" if kind.arguments else str(kind))
    a, b = constant_to_slug(ia.name), constant_to_slug(ib.name)
    what = a if a == b else f"{a} → {b}"
    sections = sorted({reads.infractions.get(ia.name, ""), reads.infractions.get(ib.name, "")} - {""})
    witness = scenario_report(atoms, pack.id, vocab=reads.vocab) if atoms else None
    contrast = scenario_report(atoms, pack.id, PREFIX, reads.vocab) if atoms else None
    return Monotonicity.lighter(step, what, constant_to_slug(pa.name), constant_to_slug(pb.name),
                                of="heaviest permitted penalty" if heaviest else "penalty",
                                sections=sections, locations=locations_for(sections, reads, ctx.root),
                                witness=witness, witness_text=print_report(witness) if witness else "",
                                contrast=contrast, contrast_text=print_report(contrast) if contrast else "",
                                minimal=proven)
