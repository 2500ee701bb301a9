"""Dead rules: pack rules no scenario fires.

Every pack rule with a body has a `chk_fired("file:line")` twin
(programs.with_fired); the one-observation brave pass tells which fire.  A
rule none fires is searched for again with two observations (rules about
related infractions, or both players, need a second one) before it is
called dead: one bounded search per rule, or, for many rules, one search at a
time for a scenario firing any rule still open (scenarios.lp,
chk_wakes_unfired), each found closing every rule it fires, until none does.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import clingo

from ppgcheck.analysis import tuning
from ppgcheck.analysis.findings import DeadRule, Location
from ppgcheck.analysis.programs import CheckProgram
from ppgcheck.analysis.search import Budget, configured, ground, satisfiable, solve
from ppgcheck.analysis.space import Space
from ppgcheck.engine.pack import Pack, shown_path

def fired_with_two(pack: Pack, program: CheckProgram, facts: str, space: Space, unfired: list[str],
                   budget: Budget, messages: list[str], say: Callable[[str], None]) -> dict[str, bool | None]:
    """For each rule (tag) no one-observation scenario fires: whether one with
    two observations does (None: the search ran out of time).  facts: the
    two-observation scenario facts."""
    if len(unfired) > tuning.MANY_UNFIRED * len(space.parts):
        say(f"{pack.id}: two observations for {len(unfired)} rules")
        return _together(pack, program, facts, space, unfired, budget, messages)
    ctl = _ground(pack, program.control(facts, messages), messages)
    two_obs: dict[str, bool | None] = {}
    for tag in unfired:
        say(f"{pack.id}: two observations for {tag}")
        target = clingo.Function("chk_fired", [clingo.String(tag)])
        done, sat = satisfiable(ctl, budget, [(target, True)], heuristic="Berkmin",
                                until=time.monotonic() + min(tuning.TWO_OBSERVATIONS_SLICE,
                                                             max(budget.remaining(), 0.01)))
        two_obs[tag] = True if sat else (False if done else None)
        if budget.hit:
            break
    return two_obs


def _ground(pack: Pack, ctl: clingo.Control, messages: list[str]) -> clingo.Control:
    return ground(ctl, [("base", [])], f"policy `{pack.id}` does not ground for checking", messages)


def _together(pack: Pack, program: CheckProgram, facts: str, space: Space, unfired: list[str],
              budget: Budget, messages: list[str]) -> dict[str, bool | None]:
    """One search at a time for a scenario firing any rule still open, each
    found closing every rule it fires, until none does: the last,
    unsatisfiable, search proves the rest dead.  Part by part where the
    one-observation space is split by a header (the same header splits the
    two-observation space)."""
    facts += "".join(f"chk_unfired({clingo.String(tag)}).\n" for tag in unfired)
    until = time.monotonic() + min(tuning.TWO_OBSERVATIONS_SLICE * len(unfired), max(budget.remaining(), 0.01))
    fired: set[str] = set()
    wakes = clingo.Function("chk_wakes_unfired")
    for part in space.split(facts):
        ctl = _ground(pack, program.control(part, messages, scoped=space.header is not None), messages)
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


def dead_rules(pack: Pack, tags: dict[str, tuple[str, int]], fired: set[str], two_obs: dict[str, bool | None],
               observations: int, root: Path) -> list[DeadRule]:
    """A finding for each rule no scenario fired, with what was searched."""
    out: list[DeadRule] = []
    for tag, (fname, line) in tags.items():
        if tag in fired or two_obs.get(tag):
            continue
        sec = pack.section_at(fname, line)
        searched = "with up to two observations" if observations > 1 and two_obs.get(tag) is False \
            else "with one observation"
        if observations > 1 and two_obs.get(tag) is None:
            searched = "with one observation (the two-observation search ran out of time)"
        out.append(DeadRule.unfired(tag, searched, sections=[sec] if sec else [],
                                    locations=[Location(shown_path(fname, root), line)]))
    return out
