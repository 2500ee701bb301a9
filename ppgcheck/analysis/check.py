"""`ppgcheck check`: prove a policy pack consistent, or show the incident that breaks it.

The pack is grounded over rules/core/scenarios.lp (choice rules over what the
pack reads: reads.py, scenarios.py) instead of the runtime's inputs, and
checked in passes, each adding findings (findings.py):

1. citations: rules without their section string or banner (reads.py);
2. one brave pass over every one-observation scenario collects every finding
   any scenario reaches, and every pack rule some scenario fires;
3. dead rules: the rules none fires, searched for again with two
   observations (dead_rules.py);
4. witnesses: the smallest scenario showing each finding (witnesses.py),
   and the RELs it shows up at (rels.py);
5. monotonicity: one fact made worse never gives a lighter penalty
   (monotonicity.py; in a forked child beside the others where it can).

Every search runs over the scenario space (space.py: whole, or for a large
pack in parts) within one Budget of time and models (search.py).
"""
from __future__ import annotations

import concurrent.futures
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import clingo
from clingo.ast import ASTType

from ppgcheck.analysis import tuning
from ppgcheck.analysis.dead_rules import dead_rules, fired_with_two
from ppgcheck.analysis.findings import (LEVELS, CheckFinding, CheckResult, Citation, Location, render_text,
                                        result_dict)
from ppgcheck.analysis.monotonicity import forked_result, monotonicity
from ppgcheck.analysis.programs import MAIN_SHOWN, CheckProgram, check_program
from ppgcheck.analysis.reads import PackReads, read_pack
from ppgcheck.analysis.rels import RelsSeen, finding_rels, rel_names
from ppgcheck.analysis.scenarios import scenario_facts
from ppgcheck.analysis.search import Budget, brave, ground
from ppgcheck.analysis.space import Space, is_large, scenario_space
from ppgcheck.analysis.witnesses import WitnessReports, across_parts, finding_for, target, target_key
from ppgcheck.engine.pack import Pack, find_packs, shown_path
from ppgcheck.engine.program import Program

__all__ = ["LEVELS", "CheckFinding", "CheckResult", "check_pack", "check_policy", "render_text", "result_dict"]


def check_policy(policy: str | None = None, path: str | Path | None = None, *,
                 observations: int = 2, timeout: float = 60.0, max_models: int = 200_000,
                 monotonicity: bool = True,
                 progress: Callable[[str], None] | None = None) -> list[CheckResult]:
    """Check a bundled policy, a pack folder, or every pack of a rules folder.
    Returns one CheckResult per pack.  Several packs are checked in parallel,
    one process a core, unless a progress callback wants them one at a time."""
    packs = find_packs(policy, path)
    options = dict(observations=observations, timeout=timeout, max_models=max_models,
                   monotonicity=monotonicity)
    workers = min(len(packs), os.cpu_count() or 1)
    if progress is None and workers > 1:
        with concurrent.futures.ProcessPoolExecutor(max_workers=workers) as pool:
            jobs = [pool.submit(check_pack, pack, progress=None, **options) for pack in packs]
            return [job.result() for job in jobs]
    return [check_pack(pack, progress=progress, **options) for pack in packs]


@dataclass
class Context:
    """What every pass of one pack's check shares."""

    pack: Pack
    reads: PackReads
    budget: Budget
    observations: int
    say: Callable[[str], None]
    root: Path = field(default_factory=Path.cwd)
    messages: list[str] = field(default_factory=list)       # what clingo said, for a failed grounding

    @property
    def large(self) -> bool:
        """A pack large enough for the strategies that pay only there (space.py, monotonicity.py)."""
        return is_large(sum(1 for node in self.pack.program if node.ast_type == ASTType.Rule and node.body))

    def ground(self, ctl: clingo.Control) -> clingo.Control:
        return ground(ctl, [("base", [])], f"policy `{self.pack.id}` does not ground for checking", self.messages)


def check_pack(pack: Pack, *, observations: int = 2, timeout: float = 60.0, max_models: int = 200_000,
               monotonicity: bool = True, progress: Callable[[str], None] | None = None) -> CheckResult:
    """The check of one pack: its passes, then its findings in kind order."""
    started = time.monotonic()
    say = (lambda msg: progress(f"{msg} [{time.monotonic() - started:.1f}s]")) if progress else (lambda _msg: None)
    ctx = Context(pack, read_pack(pack), Budget(timeout, max_models), observations, say)
    result = CheckResult(pack.id, str(pack.folder))
    result.notes.extend(f"scenario space: {w}" for w in ctx.reads.wildcards)
    result.findings.extend(_citations(ctx))
    large = ctx.large
    # the monotonicity search needs nothing the others find: a forked child beside them
    child = _start_monotonicity(ctx, large) if monotonicity and progress is None else None
    say(f"{pack.id}: grounding the scenario space")
    program = check_program(pack, ctx.root, shown=MAIN_SHOWN,
                            wanted={"chk_open_held", "chk_rel_at", "chk_wakes_unfired"}, fired=True)
    space = scenario_space(ctx.reads, scenario_facts(ctx.reads, 1), large=large,
                           whole=lambda facts: ctx.ground(program.control(facts, ctx.messages)),
                           part=lambda facts: ctx.ground(program.control(facts, ctx.messages, scoped=True)))
    say(f"{pack.id}: searching every one-observation scenario")
    held_in, finished = _brave_pass(ctx, space)
    found = set().union(*held_in)
    result.complete = finished
    if not found and finished:
        result.notes.append("the scenario space is empty: the pack reads no observation kind")
    _dead_rule_pass(ctx, program, space, found, result)
    _witness_pass(ctx, space, found, held_in, result)
    if monotonicity and not ctx.budget.hit:
        _monotonicity_pass(ctx, child, large, result)
    elif child:
        child.stop()
    if ctx.budget.hit:
        result.complete = False
        result.notes.append(ctx.budget.hit)
    result.models = ctx.budget.models
    result.seconds = time.monotonic() - started
    result.sort()
    return result


def _citations(ctx: Context) -> list[Citation]:
    """The pack's static citation problems (reads.py)."""
    return [Citation(level, msg, sections=[s for s in [ctx.pack.section_at(fname, line)] if s],
                     locations=[Location(shown_path(fname, ctx.root), line)])
            for level, fname, line, msg in ctx.reads.citation_problems]


def _brave_pass(ctx: Context, space: Space) -> tuple[list[set[clingo.Symbol]], bool]:
    """The brave consequences of each part of the space, and whether every part's search finished."""
    held_in: list[set[clingo.Symbol]] = []
    for _, part_ctl in space.parts:
        part, done = brave(part_ctl, ctx.budget, heuristic=tuning.HEURISTIC)
        held_in.append(part)
        if not done:
            return held_in, False
    return held_in, True


def _dead_rule_pass(ctx: Context, program: CheckProgram, space: Space, found: set[clingo.Symbol],
                    result: CheckResult) -> None:
    fired = {s.arguments[0].string for s in found if s.name == "chk_fired"}
    unfired = [tag for tag in program.tags if tag not in fired]
    two_obs: dict[str, bool | None] = {}   # tag -> fired with two observations (None: unknown)
    if ctx.observations > 1 and result.complete and unfired:
        two_obs = fired_with_two(ctx.pack, program, scenario_facts(ctx.reads, 2), space, unfired, ctx.budget,
                                 ctx.messages, ctx.say)
    if result.complete:
        result.findings.extend(dead_rules(ctx.pack, program.tags, fired, two_obs, ctx.observations, ctx.root))
    else:
        result.notes.append("dead rules not reported: the search did not finish")


def _witness_pass(ctx: Context, space: Space, found: set[clingo.Symbol], held_in: list[set[clingo.Symbol]],
                  result: CheckResult) -> None:
    """A finding for each target of the brave pass, with its smallest witness and its RELs."""
    groups: dict[tuple, clingo.Symbol] = {}
    for sym in sorted(found):
        key = target_key(sym)
        if key is not None:
            groups.setdefault(key, target(sym))
    targets = [(key[0], sym) for key, sym in groups.items()]
    held_targets = [{target(sym) for sym in part} for part in held_in]
    parts_of = {sym: [i for i, held in enumerate(held_targets) if sym in held] for _, sym in targets}
    ctx.say(f"{ctx.pack.id}: witnesses for {len(targets)} findings")
    seen = RelsSeen([sym for what, sym in targets if what == "finding" and sym.arguments[0].name != "scope"])
    witnessed = across_parts(space, ctx.budget, parts_of, seen if seen.at else None)
    rels_at: dict[clingo.Symbol, tuple[list[str], bool]] = {}
    if seen.at and not ctx.budget.hit:
        ctx.say(f"{ctx.pack.id}: the RELs of {len(seen.at)} findings")
        facts = Program.parse(scenario_facts(ctx.reads, 1))
        rels_at = finding_rels(seen, Program.join([ctx.pack.core_program(), ctx.pack.program, facts]), space,
                               parts_of, ctx.budget)
    read = WitnessReports(ctx.pack.id)
    for what, sym in targets:
        if sym not in witnessed:
            result.complete = False
            break
        finding = finding_for(what, sym, *witnessed[sym], ctx.reads, ctx.root, read)
        if sym in rels_at:
            finding.rels, known_rels = rels_at[sym]
            # a finding only some RELs have names them
            if finding.rels and known_rels and len(finding.rels) < len(rel_names()):
                named = ", ".join("no REL given" if r == "none" else f"{r} REL" for r in finding.rels)
                finding.message += f" (only at: {named})"
        result.findings.append(finding)


def _start_monotonicity(ctx: Context, large: bool):
    """The monotonicity search started in a forked child, where the platform forks (None: not started)."""
    from ppgcheck.engine.isolation import Forked, can_fork
    if not can_fork():
        return None

    def work():
        notes: list[str] = []
        found = monotonicity(ctx.pack, ctx.reads, ctx.budget, ctx.messages, ctx.root, ctx.say, notes, large)
        return found, notes, ctx.budget.models, ctx.budget.hit
    return Forked(work)


def _monotonicity_pass(ctx: Context, child, large: bool, result: CheckResult) -> None:
    """The child's findings, notes and models at their turn (a PolicyError in it is raised here)."""
    ctx.say(f"{ctx.pack.id}: grounding two copies for monotonicity")
    budget = ctx.budget
    got = forked_result(child) if child else None
    if got and budget.models + got[2] < budget.max_models:
        found, notes, models, hit = got
        result.findings.extend(found)
        result.notes.extend(notes)
        budget.models += models
        budget.hit = budget.hit or hit
    else:   # no child, or the model cap would have cut the search short here: as it would have
        result.findings.extend(monotonicity(ctx.pack, ctx.reads, budget, ctx.messages, ctx.root, ctx.say,
                                            result.notes, large))
