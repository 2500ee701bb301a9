"""`ppgcheck check`: prove a policy pack consistent, or show the incident that breaks it.

The pack is grounded over rules/core/scenarios.lp (choice rules over what the
pack reads, ppgcheck/analysis/scenarios.py) instead of the runtime's externals.  One
brave-consequence pass collects every finding any scenario reaches; then an
optimising solve gives the smallest scenario (fewest observations, then
modifiers, then history entries, then persons and headers) that shows a
finding, or any of a group of findings that one scenario showed together (one
search witnesses them all: _witnesses).  That scenario is printed back as a
report (report.print_report): `ppgcheck rule` on it reproduces the finding.
Every solve pays for the whole program, so the check counts its solves: each
scenario found, the witness searches' too, also tells the RELs of every
finding it holds (_finding_rels, searched on the same grounding, projected
on the REL).
Each control holds only the rules its searches can tell apart (rules no shown,
wanted or minimized atom depends on are left out: scenarios.needed_only).  The
monotonicity proof of a large pack runs first on a finer slice
(scenarios.Slicer: rules told apart by the constants their atoms name too, and
no #minimize, which only witnesses read); only a pack whose slice holds a
violation is searched again over both copies in full, for its witnesses.
The monotonicity search needs nothing the other searches find: where the
platform forks (and no progress is shown) it runs in a child beside them.

Growing with the pack, not faster: a solve pays for the whole program it
searches, so a pack ten times larger would cost ten times more per search and
need more searches.  Two splits keep each search to the part of the pack a
scenario can reach, both exact:
- a header the pack compares with several values (its rules for each round,
  say) splits the scenario space into parts grounded one by one
  (_split_by_header): the grounder leaves out what a part cannot fire, every
  search runs part by part and their results are joined (a finding's witness
  is the smallest of its parts', a later part asked only for a smaller one);
- history no rule reads for a person who does not commit that infraction is
  left out of a part (history_scope.py proves which), and the monotonicity
  proof, where that holds, runs one part per observation kind.

Kinds: conflict, gap (core findings, scope included), dead-rule (a pack rule no
scenario fires), cap (a repeat upgrade left above the pack's declared cap),
monotonicity (one worse fact gives a lighter penalty; two copies of the program
side by side), citation (a rule or infraction without its section).
"""
from __future__ import annotations

import concurrent.futures
import functools
import os

import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

import clingo
from clingo import ast

from ppgcheck.errors import PolicyError, UsageError
from ppgcheck.language.facts import constant_to_slug
from ppgcheck.analysis.history_scope import history_locality
from ppgcheck.language.report import HistoryEntry, MatchState, Modifier, Observation, Report, print_report
from ppgcheck.resources import policy_ids, rules_dir
from ppgcheck.analysis.scenarios import (ANY, INPUTS, PackReads, Slicer, header_parts, kind_parts, needed_only, parse_statements,
                        read_pack, renamed, renamed_parts, scenario_facts, statement_parts, symbol_value,
                        with_fired)
from ppgcheck.language.vocabulary import Vocabulary, vocabulary, vocabulary_of_files

CORE_FOR_CHECK = ("vocabulary.lp", "scenarios.lp", "penalties.lp", "findings.lp", "output.lp")
RENAMED_CORE = ("vocabulary.lp", "penalties.lp", "findings.lp", "output.lp")
KIND_ORDER = ("conflict", "gap", "cap", "monotonicity", "dead-rule", "vocabulary", "citation", "misquote")
LEVELS = ("info", "warning", "error")
NAMES = {1: "Alice", 2: "Bob"}
PREFIX = "b__"
# VSIDS, clasp's default heuristic, for the check's own searches: Berkmin (kept for
# `ppgcheck diff`) took two to five times longer to refute these.
HEURISTIC = "Vsids"
STEP_TEXT = {"on_purpose": "adding `on purpose`", "stricter_rel": "a stricter REL",
             "stricter_tier": "a higher tier", "longer_ruling": "a longer ruling",
             "one_more_prior_offense": "one more prior offense"}


@dataclass
class Location:
    file: str
    line: int


@dataclass
class CheckFinding:
    kind: str                     # conflict | gap | cap | monotonicity | dead-rule | citation
    level: str                    # error | warning | info
    message: str
    sections: list[str] = field(default_factory=list)
    locations: list[Location] = field(default_factory=list)
    witness: Report | None = None
    witness_text: str = ""
    contrast: Report | None = None      # monotonicity: the same report one step worse
    contrast_text: str = ""
    runtime: tuple[str, str, str, str] | None = None  # the finding/5 `ppgcheck rule` shows: kind, level, message, section
    minimal: bool = True
    rels: list[str] = field(default_factory=list)   # the RELs it shows up at ("none": no `rel:` header); [] = not asked

    @property
    def rank(self) -> int:
        return LEVELS.index(self.level)


@dataclass
class CheckResult:
    policy: str
    path: str
    findings: list[CheckFinding] = field(default_factory=list)
    models: int = 0
    seconds: float = 0.0
    complete: bool = True
    notes: list[str] = field(default_factory=list)

    def at_or_above(self, level: str) -> list[CheckFinding]:
        return [f for f in self.findings if f.rank >= LEVELS.index(level)]

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for f in self.findings:
            out[f.kind] = out.get(f.kind, 0) + 1
        return out


class _Budget:
    """The time bound and the model cap shared by every solve of one check."""

    def __init__(self, timeout: float, max_models: int) -> None:
        self.deadline = time.monotonic() + timeout
        self.timeout, self.max_models = timeout, max_models
        self.models = 0
        self.hit: str | None = None

    def remaining(self) -> float:
        return self.deadline - time.monotonic()

    def exhausted(self) -> bool:
        if self.hit:
            return True
        if self.remaining() <= 0:
            self.hit = f"time bound of {self.timeout:g} s reached: the check is incomplete (raise --timeout)"
        elif self.models >= self.max_models:
            self.hit = f"model cap of {self.max_models} models reached: the check is incomplete (raise --max-models)"
        return self.hit is not None


def _solve(ctl: clingo.Control, budget: _Budget, assumptions=(), on_model=None,
           until: float | None = None) -> tuple[bool, bool]:
    """Solve, calling on_model(model) for each model, within the budget (and
    before `until`, a monotonic time, without spending the budget's bound).
    Returns (finished, satisfiable)."""
    sat = False
    with ctl.solve(assumptions=list(assumptions), yield_=True, async_=True) as handle:
        while True:
            if budget.exhausted() or (until is not None and time.monotonic() >= until):
                handle.cancel()
                return False, sat
            handle.resume()
            limit = budget.remaining() if until is None else min(budget.remaining(), until - time.monotonic())
            if not handle.wait(max(limit, 0.01)):
                handle.cancel()
                budget.exhausted()
                return False, sat
            model = handle.model()
            if model is None:
                return True, sat
            sat = True
            budget.models += 1
            on_model(model)


def _brave(ctl: clingo.Control, budget: _Budget, until: float | None = None,
           assumptions=(), heuristic: str = "Berkmin") -> tuple[set[clingo.Symbol], bool]:
    ctl.configuration.solve.enum_mode = "brave"
    ctl.configuration.solve.opt_mode = "ignore"
    ctl.configuration.solve.models = 0
    last: list[clingo.Symbol] = []

    def keep(m: clingo.Model) -> None:
        last[:] = m.symbols(shown=True)
    ctl.configuration.solver.heuristic = heuristic
    finished, _ = _solve(ctl, budget, assumptions=assumptions, on_model=keep, until=until)
    return set(last), finished


def _witness(ctl: clingo.Control, budget: _Budget, target: clingo.Symbol,
             on_scenario: Callable[[list[clingo.Symbol]], None] | None = None,
             below: list[int] | None = None) -> tuple[list[clingo.Symbol] | None, bool, list[int]]:
    """The smallest scenario holding target: (its atoms, proven minimal, its
    cost); only one costing less than `below` when given (none: (None, True,
    [])).  on_scenario sees the atoms of every scenario the search passes
    through."""
    ctl.configuration.solve.enum_mode = "auto"
    if below is None:
        ctl.configuration.solve.opt_mode = "opt"
    else:
        bound = _strictly_below(below)
        if bound is None:       # nothing costs less than nothing
            return None, True, []
        ctl.configuration.solve.opt_mode = "opt," + ",".join(map(str, bound))
    ctl.configuration.solver.heuristic = "Domain"   # leave optional inputs out first
    ctl.configuration.solve.models = 0
    best: list[list[clingo.Symbol]] = []
    cost: list[int] = []

    def keep(m: clingo.Model) -> None:
        best[:] = [m.symbols(atoms=True)]
        cost[:] = m.cost
        if on_scenario:
            on_scenario(best[0])
    finished, _ = _solve(ctl, budget, assumptions=[(target, True)], on_model=keep)
    return (best[0] if best else None), finished, cost


# ---------------------------------------------------------------------------
# model -> Report
# ---------------------------------------------------------------------------

_INPUT_NAMES = {"person", "rel", "tier", "event_kind", "game_kind", "round", "round_kind", "best_of",
                "day", "when", "ruling_minutes", "observation", "other_person", "modifier", "count",
                "history", "match_state", "tally"}




def scenario_report(atoms: list[clingo.Symbol], policy: str, prefix: str = "",
                    vocab: Vocabulary | None = None) -> Report:
    """The report whose facts are exactly the scenario's input atoms, written in `vocab`
    (the pack's language; by default the bundled policy's)."""
    vocab = vocab or vocabulary(policy)
    by: dict[str, list[tuple]] = {}
    for sym in atoms:
        if sym.name.startswith(prefix) and sym.name[len(prefix):] in _INPUT_NAMES:
            name = sym.name[len(prefix):]
            if prefix == "" and sym.name.startswith(PREFIX):
                continue
            by.setdefault(f"{name}/{len(sym.arguments)}", []).append(tuple(sym.arguments))
    r = Report(policy=policy, vocab=vocab)
    for p, role in sorted(by.get("person/2", []), key=lambda t: t[0].number):
        r.persons.append((NAMES[p.number], role.name))
    single = {"rel/1": "rel", "event_kind/1": "event_kind", "game_kind/1": "game_kind",
              "round_kind/1": "round_kind", "tier/1": "tier", "round/1": "round",
              "best_of/1": "best_of", "day/1": "day", "ruling_minutes/1": "ruling_minutes"}
    for sig, attr in single.items():
        if by.get(sig):
            setattr(r, attr, symbol_value(by[sig][0][0]))
    if by.get("when/1"):
        w = by["when/1"][0][0]
        r.when = (w.name, w.arguments[0].number if w.arguments else None)
    counts: dict[tuple[int, str], int] = {(o.number, k.name): n.number for o, k, n in by.get("count/3", [])}
    others = {o.number: q.number for o, q in by.get("other_person/2", [])}
    for o, p, k in sorted(by.get("observation/3", []), key=lambda t: t[0].number):
        form = vocab.canonical("observation", k.name)
        obs = Observation(NAMES[p.number], k.name,
                          other=NAMES[others[o.number]] if o.number in others else None,
                          counts={s: counts[(o.number, s)] for s in form.slots
                                  if s not in ("P", "Q") and (o.number, s) in counts})
        mods = [Modifier(m.name, number=counts.get((o.number, vocab.counted_modifiers.get(m.name, "")))
                         if m.name in vocab.counted_modifiers else None)
                for o2, m in by.get("modifier/2", []) if o2 == o]
        mods += [Modifier(m.name, person=NAMES[q.number]) for o2, m, q in by.get("modifier/3", []) if o2 == o]
        obs.modifiers = sorted(mods, key=lambda m: (m.kind, m.person or ""))
        r.observations.append(obs)
    for p, pen, i, d, x in sorted(by.get("history/5", []), key=lambda t: tuple(str(a) for a in t[:4]) + (t[4].number,)):
        r.history.append(HistoryEntry(NAMES[p.number], constant_to_slug(pen.name), constant_to_slug(i.name),
                                      d.number or None))
    order = list(vocab.states)      # the vocabulary's order: time called before what follows it
    for kind, who in sorted(by.get("match_state/2", []),
                            key=lambda t: (order.index(t[0].name) if t[0].name in order else len(order), str(t[1]))):
        persons = [who] if who.type is clingo.SymbolType.Number else list(who.arguments)
        r.states.append(MatchState(kind.name, [NAMES[p.number] for p in persons]))
    for key, p, n in sorted(by.get("tally/3", []), key=lambda t: (t[0].name, t[1].number)):
        r.tallies.setdefault(key.name, []).append((NAMES[p.number], n.number))
    return r


# ---------------------------------------------------------------------------
# the check
# ---------------------------------------------------------------------------

def resolve_pack(policy: str | None = None, path: str | Path | None = None) -> list[tuple[str, Path, Path]]:
    """(policy id, pack folder, core folder) for a bundled policy, a pack folder,
    or a rules folder holding several packs; every bundled pack when neither is given."""
    if policy and path:
        raise UsageError("give either --policy or a RULES_DIR, not both")
    if policy:
        root = rules_dir()
        if policy not in policy_ids(root):
            import difflib
            close = difflib.get_close_matches(policy, policy_ids(root), n=1)
            hint = f" (did you mean `{close[0]}`?)" if close else ""
            raise UsageError(f"unknown policy `{policy}`{hint}: known policies are "
                             + ", ".join(f"`{k}`" for k in policy_ids(root)))
        return [(policy, root / policy, root / "core")]
    if path is None:
        root = rules_dir()
        return [(p, root / p, root / "core") for p in policy_ids(root)]
    folder = Path(path)
    if not folder.is_dir():
        raise UsageError(f"no such rules folder: `{path}`")
    own_core = folder.parent / "core"
    core = own_core if (own_core / "penalties.lp").is_file() else rules_dir() / "core"
    if any(folder.glob("*.lp")):
        return [(folder.name, folder, core)]
    sub_core = folder / "core"
    core = sub_core if (sub_core / "penalties.lp").is_file() else rules_dir() / "core"
    packs = [(p.name, p, core) for p in sorted(folder.iterdir())
             if p.is_dir() and p.name != "core" and any(p.glob("*.lp"))]
    if not packs:
        raise UsageError(f"`{path}` holds no policy pack (*.lp files, or folders of them)")
    return packs


def _logger(messages: list[str]):
    def log(code: clingo.MessageCode, message: str) -> None:
        if code in (clingo.MessageCode.RuntimeError, clingo.MessageCode.OperationUndefined):
            messages.append(" ".join(message.split()))
    return log


def _parse(files: list[Path], messages: list[str]) -> list[ast.AST]:
    try:
        return parse_statements(files)
    except RuntimeError:
        raise PolicyError("policy files do not parse: " + ("; ".join(messages) or ", ".join(map(str, files)))) from None


# What each control shows (rules/core/scenarios.lp), and the predicates it
# keeps besides: the inputs, which witnesses are read back from.
MAIN_SHOWN = {"chk_finding", "chk_finding_named", "chk_uncited", "chk_cap", "chk_fired"}
INPUT_NAMES = {name for name, _ in INPUTS}


@dataclass
class _Program:
    """The check's program for one kind of search, its statements parsed and
    pruned once (a part of the scenario space each gets a control of its own)."""
    statements: list[ast.AST]
    tags: dict                 # chk_fired tag -> (file, line)
    wanted: set[str]
    _history_scope: str | None = None

    def history_scope(self) -> str:
        """The facts that leave history out where it cannot matter (computed once)."""
        if self._history_scope is None:
            self._history_scope = history_scope_facts(self.statements, self.wanted)
        return self._history_scope

    def control(self, facts: str, messages: list[str], scoped: bool = False) -> clingo.Control:
        ctl = clingo.Control(["--warn=none"], logger=_logger(messages))
        ctl.configuration.solver.opt_strategy = "usc"
        with ast.ProgramBuilder(ctl) as bld:
            for st in self.statements:
                bld.add(st)
        ctl.add("base", [], facts + (self.history_scope() if scoped else ""))
        return ctl


def _program(core: Path, pack_stmts: list[ast.AST], messages: list[str], root: Path, *,
             shown: set[str], wanted: Iterable[str] = (), fired: bool = False,
             renamed_copy: bool = False) -> _Program:
    """The pack over the scenario space, showing only the `shown` chk_* atoms:
    with a `chk_fired` twin of every pack rule (dead rules), or beside the
    renamed copy the monotonicity search compares.  Rules nothing shown,
    wanted or minimized reads are left out."""
    statements: list[ast.AST] = []
    # the runtime's #show lines are left out: the check shows only its chk_* atoms
    for st in _parse([core / name for name in CORE_FOR_CHECK], messages):
        if st.ast_type in (ast.ASTType.ShowSignature, ast.ASTType.ShowTerm) and (
                Path(st.location.begin.filename).name != "scenarios.lp" or getattr(st, "name", "") not in shown):
            continue
        statements.append(st)
    tags: dict = {}
    if fired:
        pack_stmts, tags = with_fired(pack_stmts, root)
    statements += pack_stmts
    wanted = set(wanted) | INPUT_NAMES
    if renamed_copy:
        statements += renamed(_parse([core / n for n in RENAMED_CORE], messages) + pack_stmts, PREFIX)
        wanted |= {PREFIX + name for name in INPUT_NAMES}
    return _Program(needed_only(statements, wanted), tags, wanted)


def _control(core: Path, pack_stmts: list[ast.AST], facts: str, messages: list[str], root: Path,
             **options) -> tuple[clingo.Control, dict]:
    program = _program(core, pack_stmts, messages, root, **options)
    return program.control(facts, messages), program.tags


def history_scope_facts(statements: list[ast.AST], wanted: Iterable[str]) -> str:
    """`scen_hist_scoped` and the infractions read by name, where the program
    reads a person's history only for what they commit (ppgcheck/analysis/history_scope.py);
    nothing otherwise."""
    read_by_name = history_locality(statements, wanted)
    if read_by_name is None:
        return ""
    return "scen_hist_scoped.\n" + "".join(f"scen_hist_global({name}).\n" for name in sorted(read_by_name))


def _ground(policy: str, ctl: clingo.Control, messages: list[str], what: str = "checking") -> clingo.Control:
    try:
        ctl.ground([("base", [])])
    except RuntimeError:
        raise PolicyError(f"policy `{policy}` does not ground for {what}: " + "; ".join(messages)) from None
    return ctl


# More than this many rules no one-observation scenario fires, for each part of
# the space, are searched for with two observations together (_fired_with_two):
# one search per rule proves one rule dead at a time, quickly (yugioh x10
# gated, 10 rules: 0.8 s; together 1.2 s), but fab x10 gated leaves 330
# (~100 s one by one; together, part by part, 16 s).
MANY_UNFIRED = 2


def _fired_with_two(policy: str, reads: PackReads, program: _Program, split_by: str | None,
                    unfired: list[str], budget: _Budget, messages: list[str]) -> dict[str, bool | None]:
    """For each rule (tag) no one-observation scenario fires: whether one with
    two observations does (None: the search ran out of time).  One search at
    a time for a scenario firing any rule still open (scenarios.lp,
    chk_wakes_unfired), each found closing every rule it fires, until none
    does: the last, unsatisfiable, search proves the rest dead.  Part by part
    where the one-observation space is split by a header (the same header
    splits the two-observation space)."""
    facts = scenario_facts(reads, 2) + "".join(f"chk_unfired({clingo.String(tag)}).\n" for tag in unfired)
    spaces = [f for _, f in header_parts(facts, split_by, {str(v) for v in reads.header_constants[split_by]})] \
        if split_by else [facts]
    until = time.monotonic() + min(3.0 * len(unfired), max(budget.remaining(), 0.01))
    fired: set[str] = set()
    wakes = clingo.Function("chk_wakes_unfired")
    for space in spaces:
        ctl = _ground(policy, program.control(space, messages, scoped=split_by is not None), messages)
        ctl.configuration.solve.enum_mode = "auto"
        ctl.configuration.solve.opt_mode = "ignore"
        ctl.configuration.solve.models = 1
        ctl.configuration.solver.heuristic = HEURISTIC
        still = {tag: clingo.Function("chk_still_unfired", [clingo.String(tag)]) for tag in unfired
                 if tag not in fired}
        for atom in still.values():
            ctl.assign_external(atom, True)
        while still:
            woken: list[str] = []

            def record(m: clingo.Model) -> None:
                woken.extend(tag for tag in still if m.contains(clingo.Function("chk_fired", [clingo.String(tag)])))
            done, sat = _solve(ctl, budget, assumptions=[(wakes, True)], on_model=record, until=until)
            if not done:
                return {tag: True if tag in fired else None for tag in unfired}
            if not sat:
                break
            for tag in woken:
                fired.add(tag)
                ctl.assign_external(still.pop(tag), False)
    return {tag: tag in fired for tag in unfired}


# Headers a monotonicity step changes (a stricter REL, a higher tier, a longer
# ruling): the space is split only by another, so that each part is closed
# under the steps.
STEPPED_HEADERS = {"rel", "tier", "ruling_minutes"}
# A header the pack compares with at least this many values is tried as a
# split, and split by when one of its parts grounds to under this share of
# the whole space's atoms.
SPLIT_MIN_VALUES = 3
SPLIT_SHARE = 1 / 3


def _split_candidates(reads: PackReads) -> list[str]:
    """The headers the pack compares with several values, most values first."""
    return sorted((h for h, values in reads.header_constants.items()
                   if h not in STEPPED_HEADERS and len(values) >= SPLIT_MIN_VALUES),
                  key=lambda h: (-len(reads.header_constants[h]), h))


def _split_space(policy: str, program: _Program, reads: PackReads, facts: str,
                 messages: list[str]) -> tuple[str | None, list[tuple[str, clingo.Control]]]:
    """The header that splits the one-observation scenario space (None:
    none, _split_by_header), and the parts the searches run on: (facts,
    grounded control) each."""
    split = _split_by_header(reads, facts, lambda part: _ground(
        policy, program.control(part, messages, scoped=True), messages))
    return split or (None, [(facts, _ground(policy, program.control(facts, messages), messages))])


def _split_by_header(reads: PackReads, facts: str, ground: Callable[[str], clingo.Control]
                     ) -> tuple[str, list[tuple[str, clingo.Control]]] | None:
    """The space split by a header the pack compares with several values
    (copies of its rules for each round, say), when it selects parts of the
    rules: the space without the header and the space at each value tried
    for it, each grounded on its own by `ground` (facts -> control), so that
    the grounder leaves out the rules a part cannot fire and the history no
    infraction of the part reads (scen_hist_scoped).  A search over each part
    and the union of what they find is the search over the whole, at a cost
    that grows with the parts' sizes rather than with the whole's.  The
    values the pack never names share the part without the header.  Chosen
    when the part at the first value the pack names grounds to under a third
    of the whole, estimated as the part without the header plus what the part
    at each value the pack names adds to it.  (header, parts), or None when
    no header is."""
    for header in _split_candidates(reads):
        named = {str(v) for v in reads.header_constants[header]}
        parts = header_parts(facts, header, named)
        if len(parts) < 2:
            continue
        probe_at = 1
        grounded = {i: ground(parts[i][1]) for i in (0, probe_at)}
        without, probe = (len(grounded[i].symbolic_atoms) for i in (0, probe_at))
        whole = without + (len(parts) - 1) * max(probe - without, 0)
        if probe >= SPLIT_SHARE * whole:
            continue
        return header, [(part_facts, grounded.get(i) or ground(part_facts))
                        for i, (_, part_facts) in enumerate(parts)]
    return None


def _banners(files: list[Path]) -> dict[str, list[tuple[int, str]]]:
    out: dict[str, list[tuple[int, str]]] = {}
    pat = re.compile(r"^%\s*-{3}\s*(.*?)\s*-*\s*$")
    for f in files:
        rows = []
        for i, line in enumerate(f.read_text(encoding="utf-8").splitlines(), start=1):
            m = pat.match(line)
            if m and m.group(1):
                rows.append((i, m.group(1)))
        out[str(f)] = rows
    return out


def _section_at(banners: dict[str, list[tuple[int, str]]], file: str, line: int) -> str:
    above = [text for ln, text in banners.get(file, []) if ln < line]
    return above[-1] if above else ""


def _rel(path: str, root: Path) -> str:
    p = Path(path)
    try:
        return str(p.resolve().relative_to(root.resolve()))
    except ValueError:
        return str(p)


def check_policy(policy: str | None = None, path: str | Path | None = None, *,
                 observations: int = 2, timeout: float = 60.0, max_models: int = 200_000,
                 monotonicity: bool = True, sources: Path | None = None,
                 progress: Callable[[str], None] | None = None) -> list[CheckResult]:
    """Check a bundled policy, a pack folder, or every pack of a rules folder.
    Returns one CheckResult per pack.  Several packs are checked in parallel,
    one process a core, unless a progress callback wants them one at a time.
    With `sources` (the folder of the guides' text), every quoted sentence is looked up
    in it: one that is not there is a `misquote` finding."""
    packs = resolve_pack(policy, path)
    options = dict(observations=observations, timeout=timeout, max_models=max_models,
                   monotonicity=monotonicity)
    workers = min(len(packs), os.cpu_count() or 1)
    if progress is None and workers > 1:
        with concurrent.futures.ProcessPoolExecutor(max_workers=workers) as pool:
            jobs = [pool.submit(bounded_pack_job, functools.partial(_check_pack, pid, pack, core, progress=None,
                                                                    **options), pack, core, timeout)
                    for pid, pack, core in packs]
            results = [job.result() for job in jobs]
    else:
        results = [bounded_pack_job(functools.partial(_check_pack, pid, pack, core, progress=progress, **options),
                                    pack, core, timeout) for pid, pack, core in packs]
    if sources is not None:
        for result, (_, pack, _) in zip(results, packs):
            result.findings.extend(_misquote_findings(pack, sources))
    return results


def bounded_pack_job(work: Callable, pack: Path, core: Path, timeout: float):
    """`work()`, a pack's check (or diff), as one job: the pack's files confined, its
    grounding bounded by the search's time bound too (the search stops itself there;
    grounding cannot, so the job is stopped a grace period later) and by the memory limit."""
    from ppgcheck.engine import confine, isolation, overrun
    confine.check_folders(pack, core)
    bound = isolation.Limits(timeout, isolation.limits().megabytes)
    files = [core / name for name in CORE_FOR_CHECK] + sorted(pack.glob("*.lp"))
    return isolation.call_bounded(work, f"the scenario space of {confine.shown(pack)}",
                                  lambda: overrun.locate(files, limits=bound), bound, grace=5 + timeout / 4)


def _misquote_findings(pack: Path, sources: Path) -> list[CheckFinding]:
    """A sentence a rule quotes that its source does not hold (analysis/quotes.py)."""
    from ppgcheck.analysis.quotes import misquotes
    files = sorted(pack.glob("*.lp"))
    banners = _banners(files)
    root = Path.cwd()
    return [CheckFinding("misquote", "error",
                         f"the quote `{m.missing}` is not in " + " or ".join(f"`{s}`" for s in m.sources),
                         sections=[s for s in [_section_at(banners, str(m.quote.file), m.quote.line + 1)] if s],
                         locations=[Location(_rel(str(m.quote.file), root), m.quote.line)])
            for m in misquotes(files, sources)]


def _check_pack(policy: str, pack: Path, core: Path, *, observations: int, timeout: float,
                max_models: int, monotonicity: bool,
                progress: Callable[[str], None] | None) -> CheckResult:
    started = time.monotonic()
    t0 = time.monotonic()
    say = (lambda msg: progress(f"{msg} [{time.monotonic() - t0:.1f}s]")) if progress else (lambda _msg: None)
    budget = _Budget(timeout, max_models)
    files = sorted(pack.glob("*.lp"))
    root = Path.cwd()
    result = CheckResult(policy, str(pack))
    messages: list[str] = []
    stmts = _parse(files, messages)
    reads = read_pack(files, vocabulary_of_files(core / "vocabulary.lp", files, policy))
    banners = _banners(files)
    result.notes.extend(f"scenario space: {w}" for w in reads.wildcards)

    # --- static citation problems ---------------------------------------------------
    for level, fname, line, msg in reads.citation_problems:
        result.findings.append(CheckFinding("citation", level, msg,
                                            sections=[s for s in [_section_at(banners, fname, line)] if s],
                                            locations=[Location(_rel(fname, root), line)]))
    result.findings.extend(_unproduced_findings(policy, reads, banners, root))

    # The rules of a pack whose monotonicity proof slices are read once here, for
    # the slices the REL and the monotonicity searches take (a forked child
    # inherits them).
    pack_parts = statement_parts(stmts) if _mono_sliced(stmts, reads) else None
    # The monotonicity search needs nothing the other searches find: where the
    # platform forks it runs in a child beside them (its findings, notes and
    # models come back at its turn below).
    mono_child = None
    if monotonicity and progress is None:
        from ppgcheck.engine.isolation import Forked, can_fork
        if can_fork():
            def mono_work():
                notes: list[str] = []
                found = _monotonicity(policy, core, stmts, files, reads, banners, budget, messages, root,
                                      say, notes, pack_parts)
                return found, notes, budget.models, budget.hit
            mono_child = Forked(mono_work)
    say(f"{policy}: grounding the scenario space")
    program = _program(core, stmts, messages, root, shown=MAIN_SHOWN,
                       wanted={"chk_open_held", "chk_rel_at", "chk_wakes_unfired"}, fired=True)
    tags = program.tags
    # A pack where one header's values select parts of its rules is searched
    # part by part, each part of the space grounded on its own (_split_space).
    split_by, parts = _split_space(policy, program, reads, scenario_facts(reads, 1), messages)
    say(f"{policy}: searching every one-observation scenario")
    held_in: list[set[clingo.Symbol]] = []       # the brave consequences of each part
    finished = True
    for _, part_ctl in parts:
        part, done = _brave(part_ctl, budget, heuristic=HEURISTIC)
        held_in.append(part)
        finished = finished and done
        if not done:
            break
    brave = set().union(*held_in)
    if not finished:
        result.complete = False
    if not brave and finished:
        result.notes.append("the scenario space is empty: the pack reads no observation kind")
    fired = {s.arguments[0].string for s in brave if s.name == "chk_fired"}
    two_obs: dict[str, bool | None] = {}   # tag -> fired with two observations (None: unknown)
    unfired = [tag for tag in tags if tag not in fired]
    if observations > 1 and finished and len(unfired) > MANY_UNFIRED * len(parts):
        say(f"{policy}: two observations for {len(unfired)} rules")
        two_obs = _fired_with_two(policy, reads, program, split_by, unfired, budget, messages)
    elif observations > 1 and finished and unfired:
        # Two observations: does a second one wake the rules no single observation
        # fires (rules about related infractions, or both players)?  One bounded
        # satisfiability search per rule.
        ctl2 = _ground(policy, program.control(scenario_facts(reads, 2), messages), messages)
        ctl2.configuration.solve.enum_mode = "auto"
        ctl2.configuration.solve.opt_mode = "ignore"
        ctl2.configuration.solve.models = 1
        ctl2.configuration.solver.heuristic = "Berkmin"
        for tag in unfired:
            say(f"{policy}: two observations for {tag}")
            target = clingo.Function("chk_fired", [clingo.String(tag)])
            done, sat = _solve(ctl2, budget, assumptions=[(target, True)], on_model=lambda m: None,
                               until=time.monotonic() + min(3.0, max(budget.remaining(), 0.01)))
            two_obs[tag] = True if sat else (False if done else None)
            if budget.hit:
                break

    # one target per finding; the parts of the space holding it
    groups: dict[tuple, clingo.Symbol] = {}
    for sym in sorted(brave):
        key = _target_key(sym)
        if key is not None:
            groups.setdefault(key, _target(sym))
    targets = [(key[0], sym) for key, sym in groups.items()]
    held_targets = [{_target(sym) for sym in part} for part in held_in]
    parts_of = {sym: [i for i, held in enumerate(held_targets) if sym in held] for _, sym in targets}

    # --- dead rules -------------------------------------------------------------------
    if result.complete:
        for tag, (fname, line) in tags.items():
            if tag in fired or two_obs.get(tag):
                continue
            sec = _section_at(banners, fname, line)
            scope = " with up to two observations" if observations > 1 and two_obs.get(tag) is False \
                else " with one observation"
            if observations > 1 and two_obs.get(tag) is None:
                scope = " with one observation (the two-observation search ran out of time)"
            result.findings.append(CheckFinding(
                "dead-rule", "warning", f"no scenario{scope} fires the rule at {tag}",
                sections=[sec] if sec else [], locations=[Location(_rel(fname, root), line)]))
    else:
        result.notes.append("dead rules not reported: the search did not finish")

    # --- witnesses, and the RELs a finding shows up at ------------------------------------
    say(f"{policy}: witnesses for {len(targets)} findings")
    asks_rels = [sym for what, sym in targets if what == "finding" and sym.arguments[0].name != "scope"]
    seen_at: dict[clingo.Symbol, set[str]] = {t: set() for t in asks_rels}
    rel_names = _rel_names(_requires_rel(stmts))
    rel_header = {clingo.Function("rel", [clingo.Function(r)]): r for r in rel_names if r != "none"}

    def seen(atoms: list[clingo.Symbol]) -> None:
        """Every scenario a witness search passes through tells the RELs of the findings it holds."""
        held = set(atoms)
        rel = next((rel_header[a] for a in atoms if a in rel_header), "none")
        for t in seen_at:
            if t in held:
                seen_at[t].add(rel)
    # a smallest witness in each part holding the finding: the smallest of them
    # (the first part's on a tie), proven minimal when each part's search was
    witnesses: dict[clingo.Symbol, tuple[list[clingo.Symbol], bool]] = {}
    costs: dict[clingo.Symbol, list[int]] = {}
    unsure: set[clingo.Symbol] = set()      # a part's search for it did not finish
    on_scenario = seen if asks_rels else None
    for i, (_, part_ctl) in enumerate(parts):
        here = [sym for _, sym in targets if i in parts_of[sym]]
        if not here or budget.hit:
            unsure.update(here)
            continue
        part_ctl.ground([("witness_goal", [])])
        fresh = [t for t in here if t not in witnesses]
        found = _witnesses(part_ctl, budget, fresh, on_scenario) if fresh else {}
        for t in fresh:
            if t in found:
                atoms, proven, costs[t] = found[t]
                witnesses[t] = (atoms, proven)
            else:
                unsure.add(t)
        # a finding an earlier part has a witness for: only a smaller one here counts
        by_cost: dict[tuple, list[clingo.Symbol]] = {}
        for t in here:
            if t not in fresh and t in costs:
                by_cost.setdefault(tuple(costs[t]), []).append(t)
        for cost, group in by_cost.items():
            smaller, finished = _smaller_witnesses(part_ctl, budget, group, list(cost), on_scenario)
            for t in group:
                if t in smaller:
                    atoms, proven, costs[t] = smaller[t]
                    witnesses[t] = (atoms, proven and witnesses[t][1])
                elif not finished:
                    unsure.add(t)
    witnesses = {t: (atoms, proven and t not in unsure) for t, (atoms, proven) in witnesses.items()}
    rels_at: dict[clingo.Symbol, tuple[list[str], bool]] = {}
    blind: set[clingo.Symbol] = set()
    if asks_rels and not budget.hit:
        say(f"{policy}: the RELs of {len(asks_rels)} findings")
        # a finding the witness searches did not see at every REL, whose rules never read it
        pending = [t for t in asks_rels if len(seen_at[t]) < len(rel_names)]
        blind = _rel_blind(core, stmts, reads, pending, messages, pack_parts) if pending else set()
        asks_rels = [t for t in asks_rels if t not in blind]
        searched: dict[clingo.Symbol, list[bool]] = {t: [] for t in asks_rels}
        for i, (_, part_ctl) in enumerate(parts):
            here = [t for t in asks_rels if i in parts_of[t]]
            if not here or budget.hit:
                continue
            rel_ctl = None
            if any(len(seen_at[t]) < len(rel_names) for t in here):
                # the part's own grounding, its models projected on chk_rel_at/1
                part_ctl.ground([("rel_project", [])])
                rel_ctl = part_ctl
            for t, (rels, done) in _finding_rels(rel_ctl, budget, here, seen_at, rel_names).items():
                seen_at[t].update(rels)
                searched[t].append(done)
        # known: every part holding the finding searched to the end
        rels_at = {t: ([rel for rel in rel_names if rel in seen_at[t]],
                       len(searched[t]) == len(parts_of[t]) and all(searched[t]))
                   for t in asks_rels if searched[t]}
    rels_at.update((sym, (rel_names, True)) for sym in blind)
    read = _WitnessReports(policy, reads.vocab)
    for what, sym in targets:
        if sym not in witnesses:
            result.complete = False
            break
        atoms, proven = witnesses[sym]
        finding = _finding_for(what, sym, atoms, proven, reads, root, read)
        if sym in rels_at:
            finding.rels, known_rels = rels_at[sym]
            # a finding only some RELs have names them
            if finding.rels and known_rels and len(finding.rels) < len(rel_names):
                named = ", ".join("no REL given" if r == "none" else f"{r} REL" for r in finding.rels)
                finding.message += f" (only at: {named})"
        result.findings.append(finding)

    # --- monotonicity -----------------------------------------------------------------------
    if monotonicity and not budget.hit:
        say(f"{policy}: grounding two copies for monotonicity")
        got = _forked_result(mono_child) if mono_child else None     # a PolicyError in it is raised here
        if got and budget.models + got[2] < budget.max_models:
            found, notes, models, hit = got
            result.findings.extend(found)
            result.notes.extend(notes)
            budget.models += models
            budget.hit = budget.hit or hit
        else:   # no child, or the model cap would have cut the search short here: as it would have
            result.findings.extend(_monotonicity(policy, core, stmts, files, reads, banners,
                                                 budget, messages, root, say, result.notes, pack_parts))
    elif mono_child:
        mono_child.stop()
    if budget.hit:
        result.complete = False
        result.notes.append(budget.hit)
    result.models = budget.models
    result.seconds = time.monotonic() - started
    result.findings.sort(key=lambda f: (KIND_ORDER.index(f.kind), -f.rank, f.sections, f.message))
    return result


def _generic(sym: clingo.Symbol) -> bool:
    """A chk_finding/5 of the core's one generic message ("no rule ...
    classifies this observation", no section), which only the observation's
    kind tells apart; every other message names its case."""
    return len(sym.arguments) == 5 and sym.arguments[2].type == clingo.SymbolType.String


def _target_key(sym: clingo.Symbol) -> tuple | None:
    """What tells a finding apart (the generic one by its observation's kind too)."""
    if sym.name in ("chk_finding", "chk_finding_named"):
        k, lv, msg, sec, *okind = sym.arguments
        return ("finding", k.name, lv.name, str(msg), sec.string, okind[0].name if _generic(sym) else "")
    if sym.name == "chk_uncited":
        return ("uncited", sym.arguments[0].name)
    if sym.name == "chk_cap":
        return ("cap", sym.arguments[0].name, sym.arguments[3].name)
    return None


def _target(sym: clingo.Symbol) -> clingo.Symbol:
    """The atom a witness search asks for: a finding whatever its observation's
    kind, unless its message is the generic one."""
    if sym.name in ("chk_finding", "chk_finding_named") and not _generic(sym):
        return clingo.Function("chk_finding_any", sym.arguments[:4])
    return sym


def _strictly_below(cost: list[int]) -> list[int] | None:
    """The largest cost vector (levels of non-negative costs, highest first)
    below `cost`, as clasp's inclusive bound takes it; None when cost is all
    zeros.  (clasp rejects every model under a negative level bound.)"""
    for level in range(len(cost) - 1, -1, -1):
        if cost[level] > 0:
            return [*cost[:level], cost[level] - 1] + [_NO_BOUND] * (len(cost) - level - 1)
    return None


_NO_BOUND = 2 ** 31 - 1


def _witnesses(ctl: clingo.Control, budget: _Budget, targets: list[clingo.Symbol],
               on_scenario: Callable[[list[clingo.Symbol]], None] | None = None
               ) -> dict[clingo.Symbol, tuple[list[clingo.Symbol], bool, list[int]]]:
    """A smallest scenario for each target (its atoms, proven minimal, its cost), one
    search for several targets where they go together (scenarios.lp, `#program
    witness_goal`): the optimum over the scenarios holding some target of a
    group is a smallest witness of every target of the group it holds.  A
    group is one target, then the targets still open that the last witness
    held (the pairwise conflicts of several rules, say).  Targets the budget
    left without a witness are missing from the result.  The caller grounds
    `witness_goal` first."""
    out: dict[clingo.Symbol, tuple[list[clingo.Symbol], bool, list[int]]] = {}
    for first in targets:
        group = [] if first in out else [first]
        while group:
            if len(group) == 1:   # the target itself is the simpler assumption
                atoms, proven, cost = _witness(ctl, budget, group[0], on_scenario)
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


def _open_witness(ctl: clingo.Control, budget: _Budget, group: list[clingo.Symbol],
                  on_scenario: Callable[[list[clingo.Symbol]], None] | None = None,
                  below: list[int] | None = None) -> tuple[list[clingo.Symbol] | None, bool, list[int]]:
    """_witness of a scenario holding any target of the group (scenarios.lp,
    `#program witness_goal`: chk_open set for each while it searches)."""
    opened = [clingo.Function("chk_open", [t]) for t in group]
    for atom in opened:
        ctl.assign_external(atom, True)
    try:
        return _witness(ctl, budget, clingo.Function("chk_open_held"), on_scenario, below=below)
    finally:
        for atom in opened:
            ctl.assign_external(atom, False)


def _smaller_witnesses(ctl: clingo.Control, budget: _Budget, targets: list[clingo.Symbol], cost: list[int],
                       on_scenario: Callable[[list[clingo.Symbol]], None] | None = None
                       ) -> tuple[dict[clingo.Symbol, tuple[list[clingo.Symbol], bool, list[int]]], bool]:
    """Of targets that have a witness of this cost already (in another part of
    the space), those a smaller scenario of this control holds, each with its
    smallest (as _witnesses); and whether the search finished.  One search
    for all of them: where none has a smaller witness here (the usual case),
    it ends at once."""
    out: dict[clingo.Symbol, tuple[list[clingo.Symbol], bool, list[int]]] = {}
    group = list(targets)
    while group:
        atoms, proven, found = _open_witness(ctl, budget, group, on_scenario, below=cost)
        if atoms is None or not proven:
            return out, proven and atoms is None
        held = set(atoms)
        out.update((t, (atoms, proven, found)) for t in group if t in held)
        group = [t for t in group if t not in out]
    return out, True


def _rel_names(required: bool = False) -> list[str]:
    """The RELs a finding can show up at; "none": no `rel:` header, which a pack that
    tells RELs apart never leaves out of a scenario (scenarios.lp, header_matters/2)."""
    return [*([] if required else ["none"]), *vocabulary().values.get("rel", ())]


def _requires_rel(statements: list[ast.AST]) -> bool:
    """The pack tells RELs apart (rel_covered/1, so core's header_matters(rel, _))."""
    def names(term: ast.AST) -> list[str]:
        if term.ast_type == ast.ASTType.Pool:
            return [name for t in term.arguments for name in names(t)]
        return [getattr(term, "name", "")]
    return any(st.ast_type == ast.ASTType.Rule and st.head.ast_type == ast.ASTType.Literal
               and st.head.atom.ast_type == ast.ASTType.SymbolicAtom
               and "rel_covered" in names(st.head.atom.symbol) for st in statements)


def _parts_of(statements: list[ast.AST], pack: list[ast.AST], pack_parts: list | None) -> list | None:
    """scenarios.statement_parts of the statements, the pack's read once
    already (pack_parts, in the pack's order; None: read them here)."""
    if pack_parts is None:
        return statement_parts(statements)
    known = {id(st): part for st, part in zip(pack, pack_parts)}
    rest = statement_parts([st for st in statements if id(st) not in known])
    if rest is None:
        return None
    others = iter(rest)
    return [known[id(st)] if id(st) in known else next(others) for st in statements]


# Statements that change no answer set: left out of the REL-blindness analysis.
_NO_ANSWER_CHANGE = (ast.ASTType.Minimize, ast.ASTType.Heuristic, ast.ASTType.ShowSignature,
                     ast.ASTType.ShowTerm, ast.ASTType.ProjectAtom, ast.ASTType.ProjectSignature)


def _rel_blind(core: Path, stmts, reads: PackReads, targets: list[clingo.Symbol],
               messages: list[str], pack_parts: list | None = None) -> set[clingo.Symbol]:
    """The targets whose derivation never reads the scenario's REL: those a
    scenario holds at every REL and without one, with no search.  The REL is a
    header of its own in the scenario space (one choice, no constraint), so a
    target is blind to it when the atoms it depends on (scenarios.Slicer, told
    apart by their constants too, over the base program with its constraints)
    include neither rel/1 nor a header/2 that may be the REL's."""
    statements: list[ast.AST] = []
    facts: list[ast.AST] = []
    ast.parse_string(scenario_facts(reads, 1), facts.append)
    program = "base"
    for st in _parse([core / name for name in CORE_FOR_CHECK], messages) + stmts + facts:
        if st.ast_type == ast.ASTType.Program:
            program = st.name
        elif program == "base" and st.ast_type not in _NO_ANSWER_CHANGE:
            statements.append(st)
    slicer = Slicer(statements, parts=_parts_of(statements, stmts, pack_parts))
    if slicer.whole:    # a form the slicer cannot read: every target is searched
        return set()
    rel = clingo.Function("rel")

    def blind_to_rel(group: list[clingo.Symbol]) -> bool:
        _, needed = slicer.closure([(t.name, tuple(t.arguments)) for t in group])
        return ("rel", 1) not in needed and not any(
            pattern[0] is ANY or pattern[0] == rel for pattern in needed.get(("header", 2), ()))
    # all of them at once first: one closure where the pack never reads the REL
    if blind_to_rel(targets):
        return set(targets)
    return {t for t in targets if len(targets) > 1 and blind_to_rel([t])}


def _finding_rels(ctl: clingo.Control | None, budget: _Budget, targets: list[clingo.Symbol],
                  seen_before: dict[clingo.Symbol, set[str]] | None = None, rels: list[str] | None = None
                  ) -> dict[clingo.Symbol, tuple[list[str], bool]]:
    """At which RELs (and without one: "none") each target shows up, and
    whether that is proven: one bounded search per target enumerating one
    scenario per REL (projected on chk_rel_at/1: scenarios.lp, `#program
    rel_project`, grounded by the caller).
    Every scenario found tells the RELs of all the targets it holds, so a
    target already seen at every REL needs no search of its own; seen_before:
    the RELs the witness searches' scenarios showed each target at (ctl None:
    every target was seen at every REL)."""
    rels = rels or _rel_names()
    seen: dict[clingo.Symbol, set[str]] = {t: set((seen_before or {}).get(t, ())) for t in targets}
    if ctl is None:     # every target seen at every REL already
        return {t: ([rel for rel in rels if rel in seen[t]], True) for t in targets}
    ctl.configuration.solve.enum_mode = "auto"
    ctl.configuration.solve.opt_mode = "ignore"
    ctl.configuration.solve.models = 0
    ctl.configuration.solve.project = "project"
    ctl.configuration.solver.heuristic = HEURISTIC
    done: dict[clingo.Symbol, bool] = {}
    rel_atoms = [(clingo.Function("chk_rel_at", [clingo.Function(rel)]), rel) for rel in rels]

    def record(m: clingo.Model) -> None:
        rel = next(r for a, r in rel_atoms if m.contains(a))
        for t in targets:
            if m.contains(t):
                seen[t].add(rel)
    for t in targets:
        if len(seen[t]) == len(rels):
            done[t] = True
            continue
        others = [(clingo.Function("chk_rel_at", [clingo.Function(rel)]), False) for rel in seen[t]]
        done[t], _ = _solve(ctl, budget, assumptions=[(t, True), *others], on_model=record,
                            until=time.monotonic() + 0.5 * len(rels))
        if budget.hit:
            break
    return {t: ([rel for rel in rels if rel in seen[t]], done[t]) for t in done}


def _locations_for(sections: list[str], reads: PackReads, root: Path) -> list[Location]:
    out: list[Location] = []
    for s in sections:
        if s in reads.section_locations:
            f, line = reads.section_locations[s]
            loc = Location(_rel(f, root), line)
            if loc not in out:
                out.append(loc)
    return out


_READ_AS = {"observation": "observation(O, P, {})", "modifier": "modifier(O, {})", "count": "count(O, {}, N)",
            "when": "when({})"}
_FORM_TO_ADD = {"observation": "an `observation_form({}, \"{{P}} ...\")`",
                "modifier": "a `modifier_form({}, \"...\")`", "count": "a form with a `{{{}}}` slot",
                "when": "a `when_form({}, \"...\")`"}


def _unproduced_findings(policy: str, reads: PackReads, banners, root: Path) -> list[CheckFinding]:
    """A fact the rules read that no form of the report language produces: no report can
    say it, so the rules reading it never fire."""
    out = []
    for what, name, file, line in reads.unproduced:
        fact = _READ_AS.get(what, what + "({})").format(name)
        add = _FORM_TO_ADD.get(what, f"a `{what}_value({{}})`").format(name)
        out.append(CheckFinding(
            "vocabulary", "error",
            f"the rules read `{fact}` but no form of the report language produces it: add {add} to the "
            f"pack (`ppgcheck vocab --policy {policy}` lists the forms)",
            sections=[s for s in [_section_at(banners, file, line)] if s],
            locations=[Location(_rel(file, root), line)]))
    return out


class _WitnessReports:
    """The report, its text and the committed infractions of each witness
    scenario, read once: one witness often holds many findings (the pairwise
    conflicts of several rules), and reading a scenario's atoms is slow."""

    def __init__(self, policy: str, vocab: Vocabulary | None = None) -> None:
        self.policy, self.vocab = policy, vocab
        self._read: dict[int, tuple[list, Report | None, str, set[str]]] = {}

    def __call__(self, atoms) -> tuple[Report | None, str, set[str]]:
        key = id(atoms)
        if key not in self._read:
            witness = scenario_report(atoms, self.policy, vocab=self.vocab) if atoms is not None else None
            text = print_report(witness) if witness else ""
            # (the atoms are kept too, so that no other list takes their id)
            self._read[key] = (atoms, witness, text, _committed_ids(atoms))
        return self._read[key][1:]


def _finding_for(what: str, sym: clingo.Symbol, atoms, proven: bool, reads: PackReads, root: Path,
                 read: _WitnessReports) -> CheckFinding:
    from ppgcheck.engine.ruling import _text  # the runtime's own message formatting
    witness, text, committed = read(atoms)
    if what == "finding":
        k, lv, msg, sec, *rest = sym.arguments
        okind = rest[0] if rest else clingo.Function("none")
        message = _text(msg)
        kind = "gap" if k.name == "scope" else k.name
        shown = message
        if msg.type == clingo.SymbolType.String and sec.string == "" and okind.name != "none":
            shown = f"{message}: `{okind.name}`"
        sections = [sec.string] if sec.string else []
        if not sections and witness:
            sections = sorted({reads.infractions.get(i, "") for i in committed} - {""})
        return CheckFinding(kind, lv.name, shown, sections=sections,
                            locations=_locations_for(sections, reads, root), witness=witness,
                            witness_text=text, runtime=(k.name, lv.name, message, sec.string),
                            minimal=proven)
    if what == "uncited":
        inf = sym.arguments[0].name
        return CheckFinding("citation", "error",
                            f"infraction `{constant_to_slug(inf)}` is derived but has no section(…, \"Sec\") fact",
                            witness=witness, witness_text=text, minimal=proven)
    # cap
    inf, before, pen, cap = (a.name for a in sym.arguments)
    sec = reads.cap[1] if reads.cap else ""
    sections = list(dict.fromkeys(s for s in [reads.infractions.get(inf, ""), sec] if s))
    return CheckFinding("cap", "error",
                        f"a repeat upgrade takes {constant_to_slug(inf)} from {constant_to_slug(before)} to "
                        f"{constant_to_slug(pen)}, past the cap {constant_to_slug(cap)}",
                        sections=sections, locations=_locations_for(sections, reads, root),
                        witness=witness, witness_text=text, minimal=proven)


def _committed_ids(atoms) -> set[str]:
    return {a.arguments[2].name for a in atoms or [] if a.name == "committed" and len(a.arguments) == 3}


# A pack with at least this many rules (with a body) has its monotonicity proven
# on a slice first (_mono_refuted).  Slicing costs ~0.1-0.2 s up front, and a
# pack whose slice holds a violation is searched twice: on the bundled packs
# (123-435 rules) it did not pay (yugioh +0.12 s, ffg +0.6 s); on yugioh x10
# (1330 rules) the proof takes ~35% less.
SLICED_MONO_RULES = 600


def _mono_sliced(stmts, reads: PackReads) -> bool:
    """Whether the monotonicity proof runs on a slice first (_mono_refuted): a
    large pack, or one a header may split."""
    rules = sum(1 for st in stmts if st.ast_type == ast.ASTType.Rule and st.body)
    return rules >= SLICED_MONO_RULES or bool(_split_candidates(reads))


def _mono_refuted(policy: str, core: Path, stmts, reads: PackReads, budget: _Budget,
                  messages: list[str], pack_parts: list | None = None) -> bool:
    """Whether no scenario made one step worse gets a lighter penalty, proven on
    the slice of the two copies mono_violation depends on (scenarios.Slicer:
    told apart by the constants of the atoms too, and without the #minimize
    statements, which only the witnesses read), over each part of the space
    when it is split (by a header or by observation kind: no step leaves a
    part).  False when some subject's part holds a violation, or the proof
    ran out of its time: the full search then runs as before."""
    core_stmts = [st for st in _parse([core / name for name in CORE_FOR_CHECK], messages)
                  if st.ast_type not in (ast.ASTType.ShowSignature, ast.ASTType.ShowTerm, ast.ASTType.Minimize)]
    facts: list[ast.AST] = []
    whole_facts = scenario_facts(reads, 1)
    ast.parse_string(whole_facts, facts.append)
    core_parts = statement_parts(core_stmts)
    pack_parts = statement_parts(stmts) if pack_parts is None else pack_parts
    copied = [(st, p) for st, p in zip(core_stmts, core_parts or [None] * len(core_stmts))
              if Path(st.location.begin.filename).name in RENAMED_CORE] + \
        list(zip(stmts, pack_parts or [None] * len(stmts)))
    statements = core_stmts + stmts + renamed([st for st, _ in copied], PREFIX) + facts
    copies = renamed_parts([st for st, _ in copied], [p for _, p in copied], PREFIX) \
        if core_parts is not None and pack_parts is not None else None
    facts_parts = statement_parts(facts)
    parts = None if copies is None or facts_parts is None else core_parts + pack_parts + copies + facts_parts
    keep = Slicer(statements, parts=parts).rules([(name, (ANY,) * arity) for name, arity in INPUTS]
                                                 + [("mono_violation", ())])
    until = time.monotonic() + max(2.0, min(budget.remaining() / 2, 30.0))
    violation = clingo.Function("mono_violation")
    kinds = sorted(reads.observation_kinds)

    def grounded(statements: list[ast.AST], extra: str) -> clingo.Control:
        ctl = clingo.Control(["--warn=none"], logger=_logger(messages))
        with ast.ProgramBuilder(ctl) as bld:
            for st in statements:
                bld.add(st)
        ctl.add("base", [], extra)
        try:
            ctl.ground([("base", []), ("monotone", [])])
        except RuntimeError:
            raise PolicyError(f"policy `{policy}` does not ground for the monotonicity check: "
                              + "; ".join(messages)) from None
        ctl.configuration.solve.enum_mode = "auto"
        ctl.configuration.solve.opt_mode = "ignore"
        ctl.configuration.solve.models = 1
        ctl.configuration.solver.heuristic = HEURISTIC
        return ctl

    def proof(ctl: clingo.Control, subject: int) -> tuple[bool, bool]:
        other = [(clingo.Function("observation", [clingo.Number(1), clingo.Number(3 - subject), clingo.Function(k)]),
                  False) for k in kinds]
        return _solve(ctl, budget, assumptions=other + [(violation, True)], on_model=lambda m: None, until=until)

    fact_ids = {id(st) for st in facts}
    rules = [st for st in keep if id(st) not in fact_ids]
    scope = history_scope_facts(rules, {"mono_violation"})
    # a header that splits the space, else (where only the history of what is
    # committed counts) a part per observation kind, each grounded without most
    # of the history: no step changes either
    def ground_part(part: str) -> clingo.Control:
        return grounded(rules, part + scope)
    split = _split_by_header(reads, whole_facts, ground_part)
    parts = split[1] if split else None
    if parts is None and scope:
        parts = ((part, None) for part in kind_parts(whole_facts))
    if parts is not None:
        for part, ctl in parts:
            ctl = ctl or ground_part(part)
            for subject in (1, 2):
                done, sat = proof(ctl, subject)
                if sat or not done:
                    return False
        return True
    ctl = grounded(keep, "")
    # the two subjects' proofs are independent: the second runs in a forked child
    # beside the first (the grounding is inherited), where the platform forks
    from ppgcheck.engine.isolation import Forked, can_fork
    second = Forked(lambda: proof(ctl, 2)) if can_fork() else None
    try:
        done, sat = proof(ctl, 1)
        if sat or not done:
            return False
        done, sat = (_forked_result(second) or (False, False)) if second else proof(ctl, 2)
        return done and not sat
    finally:
        if second:
            second.stop()


def _monotonicity(policy: str, core: Path, stmts, files, reads: PackReads, banners,
                  budget: _Budget, messages: list[str], root: Path, say,
                  notes: list[str], pack_parts: list | None = None) -> list[CheckFinding]:
    if _mono_sliced(stmts, reads):
        if _mono_refuted(policy, core, stmts, reads, budget, messages, pack_parts) or budget.hit:
            return []
        say(f"{policy}: the slice holds a violation: both copies in full for its witnesses")
    ctl, _ = _control(core, stmts, scenario_facts(reads, 1), messages, root, shown={"chk_mono"},
                      wanted={"mono_violation"}, renamed_copy=True)
    try:
        ctl.ground([("base", []), ("monotone", [])])
    except RuntimeError:
        raise PolicyError(f"policy `{policy}` does not ground for the monotonicity check: "
                          + "; ".join(messages)) from None
    say(f"{policy}: searching every scenario made one step worse")
    # Searches for a single atom (mono_violation) that every violation derives:
    # refuting it proves a part of the space free of violations.  One search
    # per subject (far quicker than one over both, or one per observation
    # kind); a subject whose part holds a violation is searched again kind by
    # kind, and only those parts for every step and penalty that shows one
    # (chk_mono, grounded then).
    until = time.monotonic() + max(2.0, min(budget.remaining() / 2, 30.0))
    violation = clingo.Function("mono_violation")
    ctl.configuration.solve.enum_mode = "auto"
    ctl.configuration.solve.opt_mode = "ignore"
    ctl.configuration.solve.models = 1
    ctl.configuration.solver.heuristic = HEURISTIC
    kinds = sorted(reads.observation_kinds)

    def observation(subject: int, kind: str) -> clingo.Symbol:
        return clingo.Function("observation", [clingo.Number(1), clingo.Number(subject), clingo.Function(kind)])

    def violated_in(part: list[tuple[clingo.Symbol, bool]]) -> tuple[bool, bool]:
        return _solve(ctl, budget, assumptions=part + [(violation, True)], on_model=lambda m: None, until=until)

    violated: list[clingo.Symbol] = []
    finished = True
    for subject in (1, 2):
        done, sat = violated_in([(observation(3 - subject, kind), False) for kind in kinds])
        for kind in kinds if done and sat else []:
            done, sat = violated_in([(observation(subject, kind), True)])
            if sat:
                violated.append(observation(subject, kind))
            if not done:
                break
        finished = finished and done
        if not finished:
            break
    brave: set[clingo.Symbol] = set()
    if violated:
        ctl.ground([("mono_detail", [])])
    for obs in violated:
        part, done = _brave(ctl, budget, until, assumptions=[(obs, True), (violation, True)],
                            heuristic=HEURISTIC)
        brave |= part
        finished = finished and done
        if not done:
            break
    if not finished and not budget.hit:
        notes.append("the monotonicity search did not finish in its time slice: the violations found so far are listed")
    groups: dict[tuple, clingo.Symbol] = {}
    for sym in sorted(brave):
        if sym.name == "chk_mono":
            kind, ia, pa, ib, pb = sym.arguments
            groups.setdefault((str(kind), ia.name, pa.name, ib.name, pb.name), sym)
    out: list[CheckFinding] = []
    for n, sym in enumerate(groups.values(), start=1):
        say(f"{policy}: monotonicity witness {n}/{len(groups)}")
        atoms, proven, _ = _witness(ctl, budget, sym)
        kind, ia, pa, ib, pb = sym.arguments
        step = STEP_TEXT.get(kind.name) or (f"more {kind.arguments[0].name}" if kind.arguments else str(kind))
        a, b = constant_to_slug(ia.name), constant_to_slug(ib.name)
        what = a if a == b else f"{a} → {b}"
        sections = sorted({reads.infractions.get(ia.name, ""), reads.infractions.get(ib.name, "")} - {""})
        witness = scenario_report(atoms, policy, vocab=reads.vocab) if atoms else None
        contrast = scenario_report(atoms, policy, PREFIX, reads.vocab) if atoms else None
        out.append(CheckFinding(
            "monotonicity", "warning",
            f"{step} gives a lighter penalty: {what}, {constant_to_slug(pa.name)} → {constant_to_slug(pb.name)}",
            sections=sections, locations=_locations_for(sections, reads, root),
            witness=witness, witness_text=print_report(witness) if witness else "",
            contrast=contrast, contrast_text=print_report(contrast) if contrast else "",
            minimal=proven))
        if budget.hit:
            break
    return out


# ---------------------------------------------------------------------------
# rendering
# ---------------------------------------------------------------------------

def render_text(results: list[CheckResult]) -> str:
    out: list[str] = []
    for r in results:
        counts = r.counts()
        summary = ", ".join(f"{counts[k]} {k}" for k in KIND_ORDER if k in counts) or "no findings"
        out.append(f"{r.policy} ({r.path}): {summary} — {r.models} models, {r.seconds:.1f} s"
                   + ("" if r.complete else " — INCOMPLETE"))
        for kind in KIND_ORDER:
            group = [f for f in r.findings if f.kind == kind]
            if not group:
                continue
            out.append(f"  {kind} ({len(group)})")
            for f in group:
                where = "; ".join(f"{loc.file}:{loc.line}" for loc in f.locations)
                secs = ", ".join(f.sections)
                tail = " ".join(x for x in (f"({secs})" if secs else "", f"[{where}]" if where else "") if x)
                out.append(f"    {f.level}: {f.message}" + (f" {tail}" if tail else ""))
                if f.witness_text:
                    label = "witness" + ("" if f.minimal else " (not proven minimal)")
                    out.append(f"      {label}:")
                    out.extend("        " + line for line in f.witness_text.splitlines())
                if f.contrast_text:
                    out.append("      one step worse:")
                    out.extend("        " + line for line in f.contrast_text.splitlines())
        for note in r.notes:
            out.append(f"  note: {note}")
    return "\n".join(out)


def finding_dict(f: CheckFinding) -> dict:
    return {"kind": f.kind, "level": f.level, "message": f.message, "sections": f.sections,
            "locations": [{"file": loc.file, "line": loc.line} for loc in f.locations],
            "witness": f.witness_text or None, "contrast": f.contrast_text or None,
            "minimal": f.minimal, "rels": f.rels,
            "runtime_finding": ({"kind": f.runtime[0], "level": f.runtime[1], "message": f.runtime[2],
                                 "section": f.runtime[3]} if f.runtime else None)}


def result_dict(r: CheckResult) -> dict:
    return {"policy": r.policy, "path": r.path, "complete": r.complete, "models": r.models,
            "seconds": round(r.seconds, 3), "counts": r.counts(), "notes": r.notes,
            "findings": [finding_dict(f) for f in r.findings]}


# Public hooks for `ppgcheck diff` (ppgcheck/analysis/diff.py): the same budget, brave pass and smallest-witness search.
Budget, brave_consequences, smallest_witness, clingo_logger = _Budget, _brave, _witness, _logger

__all__ = ["Budget", "CheckFinding", "CheckResult", "Location", "brave_consequences", "check_policy",
           "render_text", "result_dict", "scenario_report", "smallest_witness"]


def _forked_result(child):
    """A forked search's result; None when the child ended without one (killed, or a
    bug): the caller then does the work in the process, where a bug shows itself."""
    try:
        return child.result()
    except RuntimeError:
        return None
