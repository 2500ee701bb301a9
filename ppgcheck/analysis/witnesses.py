"""The smallest scenario showing each finding, and the finding it makes.

The brave pass tells which findings some scenario shows (its targets); an
optimising search then finds the smallest scenario holding a target (fewest
observations, then modifiers, history entries, persons and headers:
scenarios.lp's #minimize), several targets at once where one scenario holds
them together (scenarios.lp, `#program witness_goal`).  Over a space in
parts, a finding's witness is the smallest of its parts', a later part asked
only for a strictly smaller one.  The scenario is read back as a report
(scenarios.scenario_report): `ppgcheck rule` on it reproduces the finding.
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import clingo

from ppgcheck.analysis import costs as cost_levels, tuning
from ppgcheck.analysis.findings import CORE_FINDINGS, Cap, CheckFinding, Citation, Location
from ppgcheck.analysis.reads import PackReads
from ppgcheck.analysis.scenarios import scenario_report
from ppgcheck.contract import INPUT_NAMES
from ppgcheck.analysis.search import Budget, configured, optimum, scenario_atoms, solve
from ppgcheck.analysis.space import Space
from ppgcheck.packs.pack import shown_path
from ppgcheck.language.facts import constant_to_slug
from ppgcheck.language.report import Report, print_report
from ppgcheck.language.vocabulary import Vocabulary

Witness = tuple[list[clingo.Symbol], bool, list[int]]     # a scenario's atoms, proven minimal, its cost
OnScenario = Callable[[clingo.Model], None] | None     # each model a search passes through


def _generic(sym: clingo.Symbol) -> bool:
    """A chk_finding/5 of the core's one generic message ("no rule ...
    classifies this observation", no section), which only the observation's
    kind tells apart; every other message names its case."""
    return len(sym.arguments) == 5 and sym.arguments[2].type == clingo.SymbolType.String


def target_key(sym: clingo.Symbol) -> tuple | None:
    """What tells a finding apart (the generic one by its observation's kind too)."""
    if sym.name in ("chk_finding", "chk_finding_named"):
        k, lv, msg, sec, *okind = sym.arguments
        return ("finding", k.name, lv.name, str(msg), sec.string, okind[0].name if _generic(sym) else "")
    if sym.name == "chk_uncited":
        return ("uncited", sym.arguments[0].name)
    if sym.name == "chk_cap":
        return ("cap", sym.arguments[0].name, sym.arguments[3].name)
    return None


def target(sym: clingo.Symbol) -> clingo.Symbol:
    """The atom a witness search asks for: a finding whatever its observation's
    kind, unless its message is the generic one."""
    if sym.name in ("chk_finding", "chk_finding_named") and not _generic(sym):
        return clingo.Function("chk_finding_any", sym.arguments[:4])
    return sym


def witnesses(ctl: clingo.Control, budget: Budget, targets: list[clingo.Symbol],
              on_scenario: OnScenario = None) -> dict[clingo.Symbol, Witness]:
    """A smallest scenario for each target, one search for several targets
    where they go together: the optimum over the scenarios holding some
    target of a group is a smallest witness of every target of the group it
    holds.  A group is one target, then the targets still open that the last
    witness held (the pairwise conflicts of several rules, say).  Targets the
    budget left without a witness are missing from the result.  The caller
    grounds `witness_goal` first."""
    out: dict[clingo.Symbol, Witness] = {}
    for first in targets:
        group = [] if first in out else [first]
        while group:
            if len(group) == 1:   # the target itself is the simpler assumption
                atoms, proven, cost = optimum(ctl, budget, group[0], on_scenario, read=scenario_atoms(ctl))
            else:
                atoms, proven, cost = _open_witness(ctl, budget, group, on_scenario)
            if atoms is None:
                return out
            held = set(atoms)
            out.update((t, (atoms, proven, cost)) for t in group if t in held)
            if not proven:
                return out
            group = [t for t in targets if t not in out and t in held]
    return out


def _open_witness(ctl: clingo.Control, budget: Budget, group: list[clingo.Symbol], on_scenario: OnScenario = None,
                  below: list[int] | None = None) -> tuple[list[clingo.Symbol] | None, bool, list[int]]:
    """The optimum of a scenario holding any target of the group (scenarios.lp,
    `#program witness_goal`: chk_open set for each while it searches)."""
    opened = [clingo.Function("chk_open", [t]) for t in group]
    for atom in opened:
        ctl.assign_external(atom, True)
    try:
        return optimum(ctl, budget, clingo.Function("chk_open_held"), on_scenario, below=below,
                       read=scenario_atoms(ctl))
    finally:
        for atom in opened:
            ctl.assign_external(atom, False)


def _smaller_witnesses(ctl: clingo.Control, budget: Budget, targets: list[clingo.Symbol], cost: list[int],
                       on_scenario: OnScenario = None) -> tuple[dict[clingo.Symbol, Witness], bool]:
    """Of targets that have a witness of this cost already (in another part of
    the space), those a smaller scenario of this control holds, each with its
    smallest (as witnesses); and whether the search finished.  One search
    for all of them: where none has a smaller witness here (the usual case),
    it ends at once."""
    out: dict[clingo.Symbol, Witness] = {}
    group = list(targets)
    while group:
        atoms, proven, found = _open_witness(ctl, budget, group, on_scenario, below=cost)
        if atoms is None or not proven:
            return out, proven and atoms is None
        held = set(atoms)
        out.update((t, (atoms, proven, found)) for t in group if t in held)
        group = [t for t in group if t not in out]
    return out, True


def _smaller_here(ctl: clingo.Control, budget: Budget, costs: dict[clingo.Symbol, list[int]],
                  on_scenario: OnScenario = None) -> tuple[dict[clingo.Symbol, Witness], list[clingo.Symbol]]:
    """Of targets with a witness of the given cost already (in another part of the space),
    those a smaller scenario of this control holds, each with its smallest; and those whose
    search did not finish.  One search per cost; of several costs, one search first for a
    scenario holding any target below its own cost (_none_cheaper), which usually finds none:
    each solve pays a step over the whole part before it searches, and a later part holding
    an earlier part's findings again (a pack split by a header) had a search per cost that
    found nothing, ~150 of them in a pack ten times a bundled one's size."""
    by_cost: dict[tuple, list[clingo.Symbol]] = {}
    for t, cost in costs.items():
        by_cost.setdefault(tuple(cost), []).append(t)
    if len(by_cost) > 1 and _none_cheaper(ctl, budget, costs, on_scenario):
        return {}, []
    out: dict[clingo.Symbol, Witness] = {}
    unfinished: list[clingo.Symbol] = []
    for cost, group in by_cost.items():
        smaller, finished = _smaller_witnesses(ctl, budget, group, list(cost), on_scenario)
        out.update(smaller)
        if not finished:
            unfinished += [t for t in group if t not in smaller]
    return out, unfinished


def _none_cheaper(ctl: clingo.Control, budget: Budget, costs: dict[clingo.Symbol, list[int]],
                  on_scenario: OnScenario = None) -> bool:
    """Whether one search proves that no scenario of this control holds a target at a cost
    below the target's own (costs.Cheaper: the comparison as atoms; a fresh atom for "some
    target below its cost" asked as an assumption).  False where the control's cost levels
    are unknown, a scenario holds one, or the search did not finish."""
    levels = cost_levels.levels(ctl)
    if levels is None or any(len(cost) != len(levels) for cost in costs.values()):
        return False
    atoms = ctl.symbolic_atoms
    with ctl.backend() as backend:
        cheaper = cost_levels.Cheaper(backend, levels)
        some = backend.add_atom()
        below: dict[tuple, int] = {}
        for t in costs:
            if atoms[t] is None:        # (not in this part's grounding: never held here)
                continue
            key = tuple(costs[t])
            if key not in below:
                below[key] = cheaper.below(costs[t])
            backend.add_rule([some], [atoms[t].literal, below[key]])
    with configured(ctl, heuristic=tuning.HEURISTIC, models=1):
        finished, held = solve(ctl, budget, [some], on_scenario)
    return finished and not held


def across_parts(space: Space, budget: Budget, parts_of: dict[clingo.Symbol, list[int]],
                 on_scenario: OnScenario) -> dict[clingo.Symbol, tuple[list[clingo.Symbol], bool]]:
    """A smallest witness of each target over the space: the smallest of the
    parts holding it (the first part's on a tie), proven minimal when each
    part's search was.  parts_of: the parts (indices) holding each target."""
    found_in: dict[clingo.Symbol, tuple[list[clingo.Symbol], bool]] = {}
    costs: dict[clingo.Symbol, list[int]] = {}
    unsure: set[clingo.Symbol] = set()      # a part's search for it did not finish
    for i, (_, part_ctl) in enumerate(space.parts):
        here = [t for t in parts_of if i in parts_of[t]]
        if not here or budget.hit:
            unsure.update(here)
            continue
        part_ctl.ground([("witness_goal", [])])
        fresh = [t for t in here if t not in found_in]
        found = witnesses(part_ctl, budget, fresh, on_scenario) if fresh else {}
        for t in fresh:
            if t in found:
                atoms, proven, costs[t] = found[t]
                found_in[t] = (atoms, proven)
            else:
                unsure.add(t)
        # a finding an earlier part has a witness for: only a smaller one here counts
        earlier = {t: costs[t] for t in here if t not in fresh and t in costs}
        smaller, unfinished = _smaller_here(part_ctl, budget, earlier, on_scenario) if earlier else ({}, [])
        for t, (atoms, proven, cost) in smaller.items():
            costs[t] = cost
            found_in[t] = (atoms, proven and found_in[t][1])
        unsure.update(unfinished)
    return {t: (atoms, proven and t not in unsure) for t, (atoms, proven) in found_in.items()}


def locations_for(sections: list[str], reads: PackReads, root: Path) -> list[Location]:
    out: list[Location] = []
    for s in sections:
        if s in reads.section_locations:
            f, line = reads.section_locations[s]
            loc = Location(shown_path(f, root), line)
            if loc not in out:
                out.append(loc)
    return out


class WitnessReports:
    """The report, its text and the committed infractions of each witness
    scenario, read once: one witness often holds many findings (the pairwise
    conflicts of several rules), and reading a scenario's atoms is slow."""

    def __init__(self, policy: str, vocab: Vocabulary | None = None) -> None:
        self.policy, self.vocab = policy, vocab
        self._read: dict[int, tuple[list, Report | None, str, set[str]]] = {}

    def __call__(self, atoms) -> tuple[Report | None, str, set[str]]:
        key = id(atoms)
        if key not in self._read:
            # the atoms read here, each name read once (every read is a call into clingo)
            wanted = [a for a in atoms or [] if (name := a.name) in INPUT_NAMES or name == "committed"]
            witness = scenario_report(wanted, self.policy, vocab=self.vocab) if atoms is not None else None
            text = print_report(witness) if witness else ""
            committed = {a.arguments[2].name for a in wanted if a.name == "committed" and len(a.arguments) == 3}
            # (the atoms are kept too, so that no other list takes their id)
            self._read[key] = (atoms, witness, text, committed)
        return self._read[key][1:]


def finding_for(what: str, sym: clingo.Symbol, atoms, proven: bool, reads: PackReads, root: Path,
                read: WitnessReports) -> CheckFinding:
    """The finding a target of the brave pass makes, with its witness."""
    from ppgcheck.engine.ruling import _text  # the runtime's own message formatting
    witness, text, committed = read(atoms)
    if what == "finding":
        k, lv, msg, sec, *rest = sym.arguments
        okind = rest[0] if rest else clingo.Function("none")
        message = _text(msg)
        shown = message
        if msg.type == clingo.SymbolType.String and sec.string == "" and okind.name != "none":
            shown = f"{message}: `{okind.name}`"
        sections = [sec.string] if sec.string else []
        if not sections and witness:
            sections = sorted({reads.infractions.get(i, "") for i in committed} - {""})
        return CORE_FINDINGS[k.name](lv.name, shown, sections=sections, locations=locations_for(sections, reads, root),
                                     witness=witness, witness_text=text, minimal=proven,
                                     runtime=(k.name, lv.name, message, sec.string))
    if what == "uncited":
        return Citation.uncited(constant_to_slug(sym.arguments[0].name), witness=witness, witness_text=text,
                                minimal=proven)
    inf, before, pen, cap = (a.name for a in sym.arguments)
    sec = reads.cap[1] if reads.cap else ""
    sections = list(dict.fromkeys(s for s in [reads.infractions.get(inf, ""), sec] if s))
    return Cap.past(*map(constant_to_slug, (inf, before, pen, cap)), sections=sections,
                    locations=locations_for(sections, reads, root), witness=witness, witness_text=text,
                    minimal=proven)
