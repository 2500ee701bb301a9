"""Determinism: every report gets exactly one answer set of a pack.

`rule` refuses a pack that gives a report two answer sets ("a policy must
derive exactly one per report"), so a pack that can is broken for the reports
that show it.  A pack whose predicates depend on each other only positively
(through no `not`, aggregate or choice inside a cycle: stratified) has at most
one answer set for any report, and nothing is searched.  Otherwise the pack is
grounded over the scenario space and its ground rules looked at (clingo's
observer): most such cycles are told apart by their constants and vanish
there (the bundled packs').  The atoms still on a cycle through negation are
searched: two copies of the program (the second renamed, programs.PREFIX) read
one scenario of the space, and a model where the copies differ on one of those
atoms is a report with two answer sets: its witness.
"""
from __future__ import annotations

import time
from collections.abc import Iterable

import clingo

from ppgcheck.analysis import tuning
from ppgcheck.analysis.context import Context
from ppgcheck.analysis.findings import Location, NoAnswerSet, Nondeterminism
from ppgcheck.analysis.programs import PREFIX, cached_for_pack, check_program
from ppgcheck.analysis.scenarios import scenario_report
from ppgcheck.analysis.search import configured, last_model, scenario_atoms
from ppgcheck.contract import INPUT_NAMES, INPUTS
from ppgcheck.language.report import print_report
from ppgcheck.packs.pack import RUNTIME_CORE, shown_path
from ppgcheck.packs.program import Program, Signature

DIFFER = "nd__differ"
_SCENARIO_PREFIXES = ("chk_", "scen_", "mono_")
SEARCH_SLICE = 20.0         # seconds at most of the check's budget for the two copies' search


def unstratified(core: Program, pack: Program) -> dict[Signature, tuple[str, int]]:
    """The predicates the pack defines on a cycle through a `not`, an aggregate or a
    choice head (a choice's head depends on itself) that a statement of the pack closes,
    each with the place of a statement defining it.  The core's own cycles (the
    choices `explore` opens) are the contract's, and rule's runtime relies on them."""
    edges: dict[Signature, set[Signature]] = {}
    negative: set[tuple[Signature, Signature]] = set()
    where: dict[Signature, tuple[str, int]] = {}
    for of_pack, statements in ((False, core.statements), (True, pack.statements)):
        for st in statements:
            if not st.heads:
                continue
            reads = st.reads
            for head in st.heads:
                sig = (head.name.lstrip("-"), len(head.args))
                if of_pack:
                    where.setdefault(sig, (st.file, st.line))
                targets = edges.setdefault(sig, set())
                if st.head_form not in ("atom", "constraint"):
                    targets.add(sig)
                    if of_pack:
                        negative.add((sig, sig))
                for read in reads:
                    body = (read.atom.name.lstrip("-"), len(read.atom.args))
                    targets.add(body)
                    if of_pack and (not read.positive or read.where in ("aggregate", "set")):
                        negative.add((sig, body))
    component = _components(edges)
    cyclic = {component[a] for a, b in negative if b in component and component.get(a) == component[b]}
    return {sig: where[sig] for sig, c in component.items() if c in cyclic and sig in where}


def _components(edges: dict[Signature, set[Signature]]) -> dict[Signature, int]:
    """Tarjan's strongly connected components, iteratively (a pack's graph may be deep)."""
    index: dict[Signature, int] = {}
    low: dict[Signature, int] = {}
    component: dict[Signature, int] = {}
    stack: list[Signature] = []
    on_stack: set[Signature] = set()
    counter = 0
    for root in list(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component[member] = index[node]
                    if member == node:
                        break
    return component


class _GroundRules:
    """clingo's ground rules as a graph of program atoms: each head's body atoms, a `not`
    or an aggregate making the edge negative, and the heads of choices; the symbol of each
    atom.  The scenario's own rules (its choice of the inputs, the `chk_`, `scen_` and
    `mono_` atoms) are facts at runtime, and a rule reading `explore` never fires in a
    ruling's default: neither is a cycle of the pack's."""

    def __init__(self) -> None:
        self.rules: list[tuple[bool, list[int], list[tuple[int, bool]]]] = []
        self.symbols: dict[int, clingo.Symbol] = {}

    def rule(self, choice: bool, head, body) -> None:
        self.rules.append((choice, list(head), [(abs(lit), lit < 0) for lit in body]))

    def weight_rule(self, choice: bool, head, lower_bound: int, body) -> None:
        self.rules.append((choice, list(head), [(abs(lit), True) for lit, _ in body]))

    def output_atom(self, symbol: clingo.Symbol, atom: int) -> None:
        if atom:
            self.symbols[atom] = symbol

    def _of_scenario(self, atom: int) -> bool:
        symbol = self.symbols.get(atom)
        return symbol is not None and (symbol.name in INPUT_NAMES or symbol.name.startswith(_SCENARIO_PREFIXES))

    def cyclic(self, names: set[str]) -> set[clingo.Symbol]:
        """The atoms of these predicates on a cycle through a `not` or an aggregate, or the
        head of a choice of the pack's."""
        explore = {atom for atom, symbol in self.symbols.items() if symbol.name == "explore" and not symbol.arguments}
        edges: dict[int, set[int]] = {}
        negative: set[tuple[int, int]] = set()
        chosen: set[int] = set()
        for choice, head, body in self.rules:
            if any(atom in explore and not negated for atom, negated in body):
                continue
            for atom in head:
                if self._of_scenario(atom):
                    continue
                if choice:
                    chosen.add(atom)
                targets = edges.setdefault(atom, set())
                for other, negated in body:
                    targets.add(other)
                    if negated:
                        negative.add((atom, other))
        component = _components(edges)
        cyclic = {component[a] for a, b in negative if b in component and component.get(a) == component[b]}
        atoms = {a for a, c in component.items() if c in cyclic} | chosen
        return {self.symbols[a] for a in atoms if a in self.symbols and self.symbols[a].name in names}


def _differ_rules(atoms: Iterable[clingo.Symbol]) -> str:
    """The second copy reads the first's scenario; a model must tell the copies apart on one of these atoms."""
    lines = [f"{PREFIX}{name}{_variables(n)} :- {name}{_variables(n)}." for name, n in INPUTS]
    for atom in atoms:
        copy = clingo.Function(PREFIX + atom.name, atom.arguments, atom.positive)
        lines += [f"{DIFFER} :- {atom}, not {copy}.", f"{DIFFER} :- {copy}, not {atom}."]
    lines.append(f":- not {DIFFER}.")
    return "\n".join(lines) + "\n"


def _variables(arity: int) -> str:
    return "(" + ",".join(f"V{i}" for i in range(arity)) + ")" if arity else ""


def _cyclic_atoms(ctx: Context) -> dict:
    """The atoms of the pack on a cycle through negation, as text, with their predicates
    and the statements defining those (kept in the cache: a large pack's took seconds)."""
    pack = ctx.pack
    cyclic = unstratified(pack.core_program(RUNTIME_CORE), pack.program)
    if not cyclic:
        return {"atoms": [], "names": [], "places": []}
    names = {name for name, _ in cyclic}
    program = check_program(pack, ctx.root, shown=set(), wanted=names)
    ctl = program.control(ctx.one_observation, ctx.messages)
    ground_rules = _GroundRules()
    ctl.register_observer(ground_rules)
    ctx.ground(ctl, what="the determinism check")
    return {"atoms": [str(a) for a in sorted(ground_rules.cyclic(names))], "names": sorted(names),
            "places": sorted([name, list(place)] for (name, _), place in cyclic.items())}


def nondeterminism(ctx: Context, notes: list[str] | None = None) -> list[Nondeterminism]:
    """An error-level finding with its witness report when some scenario of one observation
    gets two answer sets of the pack; none for a pack stratified by predicate, or by ground
    atom over the scenario space (the bundled packs)."""
    pack = ctx.pack
    found = cached_for_pack("determinism", pack, lambda: _cyclic_atoms(ctx), ctx.one_observation)
    atoms = [clingo.parse_term(text) for text in found["atoms"]]
    if not atoms:
        return []
    names = set(found["names"])
    ctx.say(f"{pack.id}: searching for a report with two answer sets")
    program = check_program(pack, ctx.root, shown=set(), wanted=names | {PREFIX + n for n in names},
                            renamed_copy=True)
    ctl = ctx.ground(program.control(ctx.one_observation + _differ_rules(atoms), ctx.messages),
                     what="the determinism check")
    until = time.monotonic() + max(1.0, min(ctx.budget.remaining() / 3, SEARCH_SLICE))
    with configured(ctl, models=1, heuristic=tuning.HEURISTIC):
        finished, model, _ = last_model(ctl, ctx.budget, until=until, atoms=scenario_atoms(ctl))
    if model is None:
        if not finished and notes is not None:
            notes.append("the search for a report with two answer sets did not finish (a cycle through "
                         "negation: " + ", ".join(sorted({f"{a.name}/{len(a.arguments)}" for a in atoms})) + ")")
        return []
    witness = scenario_report(list(dict.fromkeys(model)), pack.id, vocab=ctx.reads.vocab)
    places = sorted({tuple(place) for name, place in found["places"] if name in {a.name for a in atoms}})
    shown = ", ".join(sorted({f"{a.name}/{len(a.arguments)}" for a in atoms}))
    return [Nondeterminism.two_answer_sets(shown, locations=[Location(shown_path(file, ctx.root), line)
                                                               for file, line in places[:5]],
                                           witness=witness, witness_text=print_report(witness))]


def no_answer_set(ctx: Context) -> NoAnswerSet:
    """The error for a pack no scenario gets a model of, placed at its statements whose head
    the body reads under `not` (`a :- not a.`), or else at its constraints."""
    pack = ctx.pack
    places = {(st.file, st.line) for st in pack.program.statements if _reads_itself_negated(st)} or \
        {(st.file, st.line) for st in pack.program.statements if st.head_form == "constraint"}
    return NoAnswerSet.for_every_report(locations=[Location(shown_path(file, ctx.root), line)
                                                   for file, line in sorted(places)[:5]])


def _reads_itself_negated(statement) -> bool:
    heads = {(h.name, len(h.args)) for h in statement.heads}
    return any(not read.positive and (read.atom.name, len(read.atom.args)) in heads for read in statement.reads)
