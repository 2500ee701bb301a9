"""`ppgcheck check`: prove a policy pack consistent, or show the incident that breaks it.

The pack is grounded over rules/core/scenarios.lp (choice rules over what the
pack reads: reads.py, scenarios.py) instead of the runtime's inputs, and
checked in passes, each adding findings (findings.py):

1. citations: rules without their section string or banner, and facts the
   rules read that no form of the report language produces (reads.py);
2. one brave pass over every one-observation scenario collects every finding
   any scenario reaches, and every pack rule some scenario fires;
3. dead rules: the rules none fires, searched for again with two
   observations (dead_rules.py; in a forked child beside the witnesses where it can);
4. witnesses: the smallest scenario showing each finding (witnesses.py),
   and the RELs it shows up at (rels.py);
5. monotonicity: one fact made worse never gives a lighter penalty
   (monotonicity.py; in a forked child beside the others where it can);
6. with the guides' text (`--sources`), every quoted sentence is looked up in
   it (quotes.py).

Every search runs over the scenario space (space.py: whole, or for a large
pack in parts) within one Budget of time and models (search.py).
"""
from __future__ import annotations

import concurrent.futures
import functools
import itertools
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import clingo

from ppgcheck.analysis import tuning
from ppgcheck.analysis.context import Context
from ppgcheck.analysis.dead_rules import dead_rules_beside
from ppgcheck.analysis.determinism import no_answer_set, nondeterminism
from ppgcheck.analysis.findings import (LEVELS, CheckFinding, CheckResult, Citation, Location, Misquote,
                                        VocabularyGap, render_text, result_dict)
from ppgcheck.analysis.holes import other_holes
from ppgcheck.analysis.monotonicity import monotonicity
from ppgcheck.analysis.programs import MAIN_SHOWN, check_program
from ppgcheck.analysis.rels import RelsSeen, finding_rels, rel_names
from ppgcheck.analysis.search import brave
from ppgcheck.analysis.space import Space, scenario_space
from ppgcheck.analysis.traits import blind_to_rel
from ppgcheck.analysis.witnesses import WitnessReports, across_parts, finding_for, target, target_key
from ppgcheck.engine.policy import hold_to_contract
from ppgcheck.engine.unread import ANY, input_reads
from ppgcheck.language.vocabulary import Vocabulary
from ppgcheck.packs import isolation, overrun
from ppgcheck.packs.pack import SCENARIO_CORE, Pack, find_packs, shown_path
from ppgcheck.packs.isolation import Forked, can_fork

T = TypeVar("T")

__all__ = ["LEVELS", "CheckFinding", "CheckResult", "bounded_pack_job", "check_pack", "check_policy", "render_text",
           "result_dict"]


def check_policy(policy: str | None = None, path: str | Path | None = None, *,
                 observations: int = 2, timeout: float = 60.0, max_models: int = 200_000,
                 monotonicity: bool = True, sources: Path | None = None,
                 progress: Callable[[str], None] | None = None) -> list[CheckResult]:
    """Check a bundled policy, a pack folder, or every pack of a rules folder.
    Returns one CheckResult per pack.  Several packs are checked in parallel,
    one process a core, unless a progress callback wants them one at a time.
    With `sources` (the folder of the guides' text), every quoted sentence is looked up
    in it: one that is not there is a `misquote` finding."""
    packs = find_packs(policy, path)
    options = dict(observations=observations, timeout=timeout, max_models=max_models,
                   monotonicity=monotonicity)
    workers = min(len(packs), os.cpu_count() or 1)
    if progress is None and workers > 1:
        with concurrent.futures.ProcessPoolExecutor(max_workers=workers) as pool:
            jobs = [pool.submit(bounded_pack_job, functools.partial(check_pack, pack, progress=None, **options),
                                pack, timeout) for pack in packs]
            results = [job.result() for job in jobs]
    else:
        results = [bounded_pack_job(functools.partial(check_pack, pack, progress=progress, **options), pack, timeout)
                   for pack in packs]
    if sources is not None:
        for result, pack in zip(results, packs):
            result.findings.extend(misquotes(pack, sources))
    return results


def bounded_pack_job(work: Callable[[], T], pack: Pack, timeout: float) -> T:
    """`work()`, a pack's check (or diff), as one job: every file of the pack and its core
    confined first (by the Pack), its grounding bounded by the search's time bound too (the
    search stops itself there; grounding cannot, so the job is stopped a grace period
    later) and by the memory limit."""
    bound = isolation.Limits(timeout, isolation.limits().megabytes)
    hold_to_contract(pack, isolation.Limits(timeout + 5 + timeout / 4, bound.megabytes))
    files = pack.core_files(SCENARIO_CORE) + pack.files
    return isolation.call_bounded(work, f"the scenario space of {pack.where}",
                                  lambda: overrun.locate(files, limits=bound, parse=lambda path: pack.parsed([path])),
                                  bound, grace=5 + timeout / 4)


def check_pack(pack: Pack, *, observations: int = 2, timeout: float = 60.0, max_models: int = 200_000,
               monotonicity: bool = True, progress: Callable[[str], None] | None = None) -> CheckResult:
    """The check of one pack: its passes, then its findings in kind order."""
    started = time.monotonic()
    say = (lambda msg: progress(f"{msg} [{time.monotonic() - started:.1f}s]")) if progress else (lambda _msg: None)
    ctx = Context.of(pack, timeout, max_models, observations=observations, say=say)
    result = CheckResult(pack.id, shown_path(pack.folder, pack.root), root=str(pack.root))
    result.notes.extend(f"scenario space: {w}" for w in ctx.reads.wildcards)
    result.findings.extend(citations(ctx))
    result.findings.extend(unproduced(ctx))
    result.unread = unread_forms(pack, ctx.reads.vocab)
    # the monotonicity search needs nothing the others find: a forked child beside them
    child = _start_monotonicity(ctx) if monotonicity and progress is None else None
    say(f"{pack.id}: grounding the scenario space")
    program = check_program(pack, ctx.root, shown=MAIN_SHOWN,
                            wanted={"chk_open_held", "chk_rel_at", "chk_wakes_unfired"}, fired=True)
    space = scenario_space(ctx.reads, ctx.one_observation, large=ctx.large,
                           whole=lambda facts: ctx.ground(program.control(facts, ctx.messages)),
                           part=lambda facts: ctx.ground(program.control(facts, ctx.messages, scoped=True)),
                           program=program.text)
    say(f"{pack.id}: searching every one-observation scenario")
    held_in, result.complete = _brave_pass(ctx, space)
    found = set().union(*held_in)
    if result.complete and ctx.budget.models == 0:
        # every rule would be dead, every search empty: the one finding that says why
        result.findings.append(no_answer_set(ctx))
        if child:
            child.stop()
        return _finished(result, ctx, space, started)
    if not found and result.complete:
        result.notes.append("the scenario space is empty: the pack reads no observation kind")
    # the two-observation search for dead rules needs nothing the witnesses find: a forked
    # child beside them
    dead = dead_rules_beside(ctx, program, space, found, fork=progress is None) if result.complete else None
    if dead is None:
        result.notes.append("dead rules not reported: the search did not finish")
    findings, witnessed = _witness_pass(ctx, space, found, held_in)
    if not ctx.budget.hit:
        result.findings.extend(nondeterminism(ctx))
    if dead is not None:
        result.findings.extend(dead())
    result.findings.extend(findings)
    result.complete = result.complete and witnessed
    if monotonicity and not ctx.budget.hit:
        result.findings.extend(_monotonicity_pass(ctx, child, result.notes))
    elif child:
        child.stop()
    return _finished(result, ctx, space, started)


def _finished(result: CheckResult, ctx: Context, space: Space, started: float) -> CheckResult:
    if ctx.budget.hit:
        result.complete = False
        result.notes.append(ctx.budget.hit)
    for _, part_ctl in space.parts:
        isolation.keep_until_exit(part_ctl, beside=True)
    result.models = ctx.budget.models
    result.seconds = time.monotonic() - started
    result.sort()
    return result


def citations(ctx: Context) -> list[Citation]:
    """The pack's static citation problems (reads.py)."""
    return [Citation(level, msg, sections=[s for s in [ctx.pack.section_at(fname, line)] if s],
                     locations=[Location(shown_path(fname, ctx.root), line)])
            for level, fname, line, msg in ctx.reads.citation_problems]


def unproduced(ctx: Context) -> list[VocabularyGap]:
    """A fact the rules read that no form of the report language produces: no report can
    say it, so the rules reading it never fire."""
    return [VocabularyGap.unproduced(what, name, ctx.pack.id,
                                     sections=[s for s in [ctx.pack.section_at(file, line)] if s],
                                     locations=[Location(shown_path(file, ctx.root), line)])
            for what, name, file, line in ctx.reads.unproduced]


# the header lines of the language, by the facts they state
_HEADER_LINES = [(("rel",), "`rel:`"), (("tier",), "`tier:`"), (("event_kind",), "`event:`"),
                 (("game_kind",), "`game:`"), (("best_of",), "`match:`"), (("round", "round_kind"), "`round:`"),
                 (("when",), "`when:`"), (("day",), "`day:`"), (("history",), "`history:`"),
                 (("ruling_minutes",), "`the ruling took N minutes`")]


def unread_forms(pack: Pack, vocab: Vocabulary) -> dict[str, list[str]]:
    """The forms of the pack's language that no rule of it reads (engine/unread.py): a report
    stating one is ruled as without it, with an `input` finding."""
    read = set(input_reads(pack.parsed(pack.runtime_files, order="files"), pack.core))

    def unread(what: str, names) -> list[str]:
        return sorted(n for n in names if (what, n) not in read and (what, ANY) not in read)
    read_what = {what for what, _ in read}
    out = {"modifier": [f"`{vocab.modifiers[m][0].text}`" for m in unread("modifier", vocab.modifiers)],
           "state": [f"`{vocab.states[k][0].text}`" for k in unread("state", vocab.states)],
           "tally": [f"`{k}:`" for k in unread("tally", vocab.tallies)],
           "header": [line for whats, line in _HEADER_LINES if not read_what & set(whats)]}
    return {what: names for what, names in out.items() if names}


def misquotes(pack: Pack, sources: Path) -> list[Misquote]:
    """A sentence a rule quotes that its source does not hold (quotes.py)."""
    # (only with --sources)
    from ppgcheck.analysis.quotes import misquotes as find
    root = pack.root
    return [Misquote.missing(m.missing, m.sources,
                             sections=[s for s in [pack.section_at(str(m.quote.file), m.quote.line + 1)] if s],
                             locations=[Location(shown_path(m.quote.file, root), m.quote.line)])
            for m in find(pack.files, sources, pack.text)]


def _brave_pass(ctx: Context, space: Space) -> tuple[list[set[clingo.Symbol]], bool]:
    """The brave consequences of each part of the space, and whether every part's search finished."""
    held_in: list[set[clingo.Symbol]] = []
    for _, part_ctl in space.parts:
        part, done = brave(part_ctl, ctx.budget, heuristic=tuning.HEURISTIC)
        held_in.append(part)
        if not done:
            return held_in, False
    return held_in, True


def _witness_pass(ctx: Context, space: Space, found: set[clingo.Symbol],
                  held_in: list[set[clingo.Symbol]]) -> tuple[list[CheckFinding], bool]:
    """A finding for each target of the brave pass, with its smallest witness
    and its RELs; and whether every target has its witness."""
    groups: dict[tuple, clingo.Symbol] = {}
    for sym in sorted(found):
        key = target_key(sym)
        if key is not None:
            groups.setdefault(key, target(sym))
    targets = [(key[0], sym) for key, sym in groups.items()]
    held_targets = [{target(sym) for sym in part} for part in held_in]
    parts_of = {sym: [i for i, held in enumerate(held_targets) if sym in held] for _, sym in targets}
    ctx.say(f"{ctx.pack.id}: witnesses for {len(targets)} findings")
    rels = rel_names(ctx.traits.requires_rel)
    seen = RelsSeen([sym for what, sym in targets if what == "finding" and sym.arguments[0].name != "scope"], rels)
    witnessed = across_parts(space, ctx.budget, parts_of, seen if seen.at else None)
    # the gaps' other holes before the RELs, whose part of the program (rel_project) would add
    # its REL to what the holes' enumeration tells apart
    shown = list(itertools.takewhile(lambda item: item[1] in witnessed, targets))
    gaps = [sym for what, sym in shown if what == "finding" and sym.arguments[0].name == "gap"]
    read = WitnessReports(ctx.pack.id, ctx.reads.vocab)
    holes = _other_holes(ctx, space, parts_of, witnessed, gaps, read) if gaps and not ctx.budget.hit else {}
    rels_at: dict[clingo.Symbol, tuple[list[str], bool]] = {}
    if seen.at and not ctx.budget.hit:
        ctx.say(f"{ctx.pack.id}: the RELs of {len(seen.at)} findings")
        rels_at = finding_rels(seen, lambda targets: blind_to_rel(ctx.pack, ctx.one_observation, targets), space,
                               parts_of, ctx.budget)
    out: list[CheckFinding] = []
    for what, sym in shown:
        finding = finding_for(what, sym, *witnessed[sym], ctx.reads, ctx.root, read)
        if sym in rels_at:
            finding.rels, known_rels = rels_at[sym]
            # a finding only some RELs have names them
            if finding.rels and known_rels and len(finding.rels) < len(rels):
                named = ", ".join("no REL given" if r == "none" else f"{r} REL" for r in finding.rels)
                finding.message += f" (only at: {named})"
        out.append(finding)
        out.extend(holes.get(sym, ()))      # a gap's other holes right after it
    return out, len(shown) == len(targets)


def _other_holes(ctx: Context, space: Space, parts_of: dict[clingo.Symbol, list[int]],
                 witnessed: dict[clingo.Symbol, tuple[list[clingo.Symbol], bool]], gaps: list[clingo.Symbol],
                 read: WitnessReports) -> dict[clingo.Symbol, list[CheckFinding]]:
    """For each gap, a finding for each of its other holes (holes.py), its message saying
    which; the gaps of each part of the space searched together."""
    found: dict[clingo.Symbol, list[CheckFinding]] = {sym: [] for sym in gaps}
    for i, (_, part_ctl) in enumerate(space.parts):
        here = [sym for sym in gaps if parts_of[sym][0] == i]
        if not here or ctx.budget.hit:
            continue
        for sym, holes in other_holes(part_ctl, ctx.budget, [(sym, witnessed[sym][0]) for sym in here]).items():
            for hole in holes:
                finding = finding_for("finding", sym, *hole.witness[:2], ctx.reads, ctx.root, read)
                finding.message += f" ({hole.describe()})"
                found[sym].append(finding)
    return found


def _start_monotonicity(ctx: Context):
    """The monotonicity search started in a forked child, where the platform forks (None: not started)."""
    if not can_fork():
        return None

    def work():
        notes: list[str] = []
        found = monotonicity(ctx, notes)
        return found, notes, ctx.budget.models, ctx.budget.hit
    return Forked(work)


def _monotonicity_pass(ctx: Context, child, notes: list[str]) -> list[CheckFinding]:
    """The child's findings, notes and models at their turn (a PolicyError in it is raised here)."""
    ctx.say(f"{ctx.pack.id}: grounding two copies for monotonicity")
    budget = ctx.budget
    got = child.result_or_none() if child else None
    if got and budget.models + got[2] < budget.max_models:
        found, child_notes, models, hit = got
        notes.extend(child_notes)
        budget.models += models
        budget.hit = budget.hit or hit
        return found
    # no child, or the model cap would have cut the search short here: as it would have
    return monotonicity(ctx, notes)
