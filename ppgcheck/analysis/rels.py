"""The RELs a finding shows up at (`rels` of a finding; "only at: ..." in its message).

Every scenario the witness searches pass through tells the RELs of the
findings it holds; a finding whose rules never read the REL shows up at
every REL, with no search (`blind_to_rel`); for the others, one enumeration
of a scenario per finding and REL it was not seen at (scenarios.lp, `#program
rel_project`), on the same groundings; a search per finding where that one
does not finish in time.
"""
from __future__ import annotations

import time
from collections.abc import Callable

import clingo
from clingo import ast

from ppgcheck.analysis import tuning
from ppgcheck.analysis.search import Budget, add_picks, configured, solve, solve_switched
from ppgcheck.analysis.slicing import ANY, Slicer
from ppgcheck.analysis.space import Space
from ppgcheck.packs.program import Program
from ppgcheck.language.vocabulary import vocabulary

# Statements that change no answer set: left out of the REL-blindness analysis.
_NO_ANSWER_CHANGE = (ast.ASTType.Minimize, ast.ASTType.Heuristic, ast.ASTType.ShowSignature,
                     ast.ASTType.ShowTerm, ast.ASTType.ProjectAtom, ast.ASTType.ProjectSignature)


def rel_names(required: bool = False) -> list[str]:
    """The RELs a finding can show up at; "none": no `rel:` header, which a pack that
    tells RELs apart never leaves out of a scenario (scenarios.lp, header_matters/2)."""
    return [*([] if required else ["none"]), *vocabulary().values.get("rel", ())]


def requires_rel(program: Program) -> bool:
    """The pack tells RELs apart (rel_covered/1, so core's header_matters(rel, _))."""
    return any(st.kind == ast.ASTType.Rule and st.head_form == "atom" and any(a.name == "rel_covered" for a in st.heads)
               for st in program.statements)


class RelsSeen:
    """The RELs each finding was seen at, from every scenario a search passes through."""

    def __init__(self, targets: list[clingo.Symbol], rels: list[str]) -> None:
        self.rels = rels
        self.at: dict[clingo.Symbol, set[str]] = {t: set() for t in targets}
        self._header = [(clingo.Function("rel", [clingo.Function(r)]), r) for r in rels if r != "none"]

    def __call__(self, model: clingo.Model) -> None:
        """A scenario a search passed through (asked about its atoms, not read whole)."""
        rel = next((r for atom, r in self._header if model.contains(atom)), "none")
        for t, seen in self.at.items():
            if rel not in seen and model.contains(t):
                seen.add(rel)

    def unseen_somewhere(self, t: clingo.Symbol) -> bool:
        return len(self.at[t]) < len(self.rels)


def finding_rels(seen: RelsSeen, blind_among: Callable[[list[clingo.Symbol]], set[clingo.Symbol]], space: Space,
                 parts_of: dict[clingo.Symbol, list[int]], budget: Budget) -> dict[clingo.Symbol, tuple[list[str], bool]]:
    """The RELs of each finding seen asks about, and whether that is proven
    (every part holding it searched to the end).  blind_among(targets): those
    blind to the REL (blind_to_rel over the core, the pack and the
    one-observation scenario facts)."""
    rels = seen.rels
    pending = [t for t in seen.at if seen.unseen_somewhere(t)]
    blind = blind_among(pending) if pending else set()
    asked = [t for t in seen.at if t not in blind]
    searched: dict[clingo.Symbol, list[bool]] = {t: [] for t in asked}
    for i, (_, part_ctl) in enumerate(space.parts):
        here = [t for t in asked if i in parts_of[t]]
        if not here or budget.hit:
            continue
        rel_ctl = None
        if any(seen.unseen_somewhere(t) for t in here):
            # the part's own grounding, its models projected on chk_rel_at/1
            part_ctl.ground([("rel_project", [])])
            rel_ctl = part_ctl
        for t, (found, done) in _search(rel_ctl, budget, here, seen.at, rels).items():
            seen.at[t].update(found)
            searched[t].append(done)
    out = {t: ([rel for rel in rels if rel in seen.at[t]], len(searched[t]) == len(parts_of[t]) and all(searched[t]))
           for t in asked if searched[t]}
    out.update((t, (rels, True)) for t in blind)
    return out


def _search_together(ctl: clingo.Control, budget: Budget, targets: list[clingo.Symbol],
                     seen: dict[clingo.Symbol, set[str]], rel_atoms: list[tuple[clingo.Symbol, str]],
                     record: Callable[[clingo.Model], None], until: float) -> bool:
    """Every target's RELs in one enumeration (search.add_picks): a scenario picks one
    target it holds, at a REL that target was not seen at, and the models are projected on
    the pick and the REL.  Whether it finished (else nothing is proven and each target gets
    its own search)."""
    atoms = ctl.symbolic_atoms
    rel_literal = {rel: atoms[atom].literal for atom, rel in rel_atoms if atoms[atom] is not None}
    with ctl.backend() as backend:
        switch, picks = add_picks(backend, len(targets))
        for t, pick in zip(targets, picks):
            held = atoms[t]
            backend.add_rule([], [pick, -held.literal] if held is not None else [pick])
            for rel in seen[t]:
                if rel in rel_literal:
                    backend.add_rule([], [pick, rel_literal[rel]])
        backend.add_project(picks)
    return solve_switched(ctl, budget, switch, record, until)


def blind_to_rel(program: Program, targets: list[clingo.Symbol]) -> set[clingo.Symbol]:
    """The targets whose derivation never reads the scenario's REL: those a
    scenario holds at every REL and without one, with no search.  The REL is a
    header of its own in the scenario space (one choice, no constraint), so a
    target is blind to it when the atoms it depends on (slicing.Slicer, told
    apart by their constants too, over the base program with its constraints)
    include neither rel/1 nor a header/2 that may be the REL's."""
    statements = []
    part = "base"
    for st in program.statements:
        if st.kind == ast.ASTType.Program:
            part = st.node.name
        elif part == "base" and st.kind not in _NO_ANSWER_CHANGE:
            statements.append(st)
    slicer = Slicer(Program.of(statements))
    if slicer.whole:    # a form the slicer cannot read: every target is searched
        return set()
    rel = clingo.Function("rel")

    def reads_rel(name: str, args: tuple) -> bool:
        return (name, len(args)) == ("rel", 1) or (
            (name, len(args)) == ("header", 2) and (args[0] is ANY or args[0] == rel))

    known: dict[tuple[str, int], set] = {}      # the patterns of the closures found blind

    def blind(group: list[clingo.Symbol]) -> bool:
        # (a closure stops at the first REL it reaches, and skips what an earlier
        # blind closure went through: one pass over their union in all)
        found = slicer.closure([(t.name, tuple(t.arguments)) for t in group], stop=reads_rel, known=known)
        for key, patterns in (found[1] if found else {}).items():
            known.setdefault(key, set()).update(patterns)
        return found is not None

    if not blind([]):   # a constraint of the pack reads the REL: nothing is blind to it
        return set()

    # halves of a group that reads the REL, down to one target: a few closures where
    # most targets are blind
    def blind_among(group: list[clingo.Symbol]) -> set[clingo.Symbol]:
        if blind(group):
            return set(group)
        if len(group) == 1:
            return set()
        middle = len(group) // 2
        return blind_among(group[:middle]) | blind_among(group[middle:])
    return blind_among(targets) if targets else set()


def _search(ctl: clingo.Control | None, budget: Budget, targets: list[clingo.Symbol],
            seen_before: dict[clingo.Symbol, set[str]] | None = None,
            rels: list[str] | None = None) -> dict[clingo.Symbol, tuple[list[str], bool]]:
    """At which RELs (and without one: "none") each target shows up, and
    whether that is proven: one bounded search per target enumerating one
    scenario per REL (projected on chk_rel_at/1, grounded by the caller).
    Every scenario found tells the RELs of all the targets it holds, so a
    target already seen at every REL needs no search of its own; seen_before:
    the RELs the witness searches' scenarios showed each target at (ctl None:
    every target was seen at every REL)."""
    rels = rels or rel_names()
    seen: dict[clingo.Symbol, set[str]] = {t: set((seen_before or {}).get(t, ())) for t in targets}
    if ctl is None:     # every target seen at every REL already
        return {t: ([rel for rel in rels if rel in seen[t]], True) for t in targets}
    done: dict[clingo.Symbol, bool] = {}
    rel_atoms = [(clingo.Function("chk_rel_at", [clingo.Function(rel)]), rel) for rel in rels]

    def record(m: clingo.Model) -> None:
        rel = next(r for a, r in rel_atoms if m.contains(a))
        for t in targets:
            if m.contains(t):
                seen[t].add(rel)
    with configured(ctl, heuristic=tuning.HEURISTIC, project="project"):
        open_ = [t for t in targets if len(seen[t]) < len(rels)]
        if len(open_) > 1 and _search_together(ctl, budget, open_, seen, rel_atoms, record,
                                               until=time.monotonic() + tuning.REL_SLICE * len(rels) * len(open_)):
            return {t: ([rel for rel in rels if rel in seen[t]], True) for t in targets}
        for t in targets:
            if len(seen[t]) == len(rels):
                done[t] = True
                continue
            others = [(clingo.Function("chk_rel_at", [clingo.Function(rel)]), False) for rel in seen[t]]
            done[t], _ = solve(ctl, budget, [(t, True), *others], record,
                               until=time.monotonic() + tuning.REL_SLICE * len(rels))
            if budget.hit:
                break
    return {t: ([rel for rel in rels if rel in seen[t]], done[t]) for t in done}
