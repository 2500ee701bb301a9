"""Dead rules: pack rules no scenario fires.

Every pack rule with a body has a `chk_fired("file:line")` twin
(programs.with_fired); the one-observation brave pass tells which fire.  A
rule none fires is searched for again with two observations (rules about
related infractions, or both players, need a second one) before it is
called dead, in a program with the twins of those rules alone: one bounded
search per rule, or, for many rules, one search at a
time for a scenario firing any rule still open (scenarios.lp,
chk_wakes_unfired), each found closing every rule it fires, until none does.
"""
from __future__ import annotations

import time
from collections.abc import Callable

import clingo

from ppgcheck.analysis import tuning
from ppgcheck.analysis.context import Context
from ppgcheck.analysis.findings import DeadRule, Location
from ppgcheck.analysis.programs import CheckProgram, check_program
from ppgcheck.analysis.scenarios import scenario_facts
from ppgcheck.analysis.search import beside, configured, satisfiable, solve
from ppgcheck.analysis.space import Space
from ppgcheck.packs import isolation
from ppgcheck.packs.pack import shown_path


def dead_rules_beside(ctx: Context, program: CheckProgram, space: Space, found: set[clingo.Symbol],
                      fork: bool) -> Callable[[], list[DeadRule]]:
    """dead_rules(...) started in a forked child beside the passes after it (the witnesses
    need nothing it finds), where the platform forks and `fork` allows (search.beside): call
    what it returns for the findings."""
    collect = beside(ctx.budget, lambda: dead_rules(ctx, program, space, found)) if fork else None
    if collect is None:
        out = dead_rules(ctx, program, space, found)
        return lambda: out
    return collect


def dead_rules(ctx: Context, program: CheckProgram, space: Space, found: set[clingo.Symbol]) -> list[DeadRule]:
    """A finding for each pack rule no scenario fires (found: the one-observation
    brave pass's atoms, complete), with what was searched."""
    fired = {s.arguments[0].string for s in found if s.name == "chk_fired"}
    unfired = [tag for tag in program.tags if tag not in fired]
    two_obs = fired_with_two(ctx, space, unfired) if ctx.observations > 1 and unfired else {}
    out: list[DeadRule] = []
    for tag, (fname, line) in program.tags.items():
        if tag in fired or two_obs.get(tag):
            continue
        sec = ctx.pack.section_at(fname, line)
        searched = "with up to two observations" if ctx.observations > 1 and two_obs.get(tag) is False \
            else "with one observation"
        if ctx.observations > 1 and two_obs.get(tag) is None:
            searched = "with one observation (the two-observation search ran out of time)"
        out.append(DeadRule.unfired(tag, searched, sections=[sec] if sec else [],
                                    locations=[Location(shown_path(fname, ctx.root), line)]))
    return out


def fired_with_two(ctx: Context, space: Space, unfired: list[str]) -> dict[str, bool | None]:
    """For each rule (tag) no one-observation scenario fires: whether one with
    two observations does (None: the search ran out of time).  The program searched
    has the twins of these rules alone, and only what they read (the findings'
    rules left out, unless an unfired rule reads them): yugioh x10's search ~45 %
    quicker, and its program kept in the cache as the others are."""
    # a header the guide tells apart may be left out here (scenarios.lp, chk_headers_free): a
    # rule firing only without it (FaB's scope note on REL, DCI's REL note) fires without it
    facts = scenario_facts(ctx.reads, 2) + "chk_headers_free.\n"
    program = check_program(ctx.pack, ctx.root, shown={"chk_fired"}, wanted={"chk_wakes_unfired"},
                            fired=True, fired_only=unfired)
    if len(unfired) > tuning.MANY_UNFIRED * space.splits:
        ctx.say(f"{ctx.pack.id}: two observations for {len(unfired)} rules")
        return _together(ctx, program, facts, space, unfired)
    ctl = ctx.ground(program.control(facts, ctx.messages))
    isolation.keep_until_exit(ctl, beside=True)
    budget = ctx.budget
    two_obs: dict[str, bool | None] = {}
    for tag in unfired:
        ctx.say(f"{ctx.pack.id}: two observations for {tag}")
        target = clingo.Function("chk_fired", [clingo.String(tag)])
        done, sat = satisfiable(ctl, budget, [(target, True)], heuristic="Berkmin",
                                until=time.monotonic() + min(tuning.TWO_OBSERVATIONS_SLICE,
                                                             max(budget.remaining(), 0.01)))
        two_obs[tag] = True if sat else (False if done else None)
        if budget.hit:
            break
    return two_obs


def _together(ctx: Context, program: CheckProgram, facts: str, space: Space,
              unfired: list[str]) -> dict[str, bool | None]:
    """One search at a time for a scenario firing any rule still open, each
    found closing every rule it fires, until none does: the last,
    unsatisfiable, search proves the rest dead.  Part by part where the
    one-observation space is split by a header (the same header splits the
    two-observation space)."""
    budget = ctx.budget
    facts += "".join(f"chk_unfired({clingo.String(tag)}).\n" for tag in unfired)
    until = time.monotonic() + min(tuning.TWO_OBSERVATIONS_SLICE * len(unfired), max(budget.remaining(), 0.01))
    fired: set[str] = set()
    wakes = clingo.Function("chk_wakes_unfired")
    for part in space.split(facts):
        ctl = ctx.ground(program.control(part, ctx.messages, scoped=space.header is not None))
        isolation.keep_until_exit(ctl, beside=True)
        still = {tag: clingo.Function("chk_still_unfired", [clingo.String(tag)]) for tag in unfired
                 if tag not in fired}
        for atom in still.values():
            ctl.assign_external(atom, True)
        with configured(ctl, models=1, heuristic=tuning.HEURISTIC):
            while still:
                woken: list[str] = []

                def record(m: clingo.Model) -> None:
                    woken.extend(tag for tag in still if m.contains(clingo.Function("chk_fired", [clingo.String(tag)])))
                done, sat = solve(ctl, budget, [(wakes, True)], record, until)
                if not done:
                    return {tag: True if tag in fired else None for tag in unfired}
                if not sat:
                    break
                for tag in woken:
                    fired.add(tag)
                    ctl.assign_external(still.pop(tag), False)
    return {tag: tag in fired for tag in unfired}
