"""`ppgcheck diff`: what a change to the rules changes, over the same scenario space.

Both versions of a pack are grounded side by side over one scenario space
(rules/core/scenarios.lp bounded by what *either* version reads: reads.py,
scenarios.py; the program: diff_program.py).  A `dif_class/5` atom names every
class of incident whose ruling differs: `infraction` (committed in one version
only), `no_infraction` (an explicit not-an-infraction, by section, in one
version only), `penalty` (the same infraction, a different base penalty,
final penalty or issued flag), `fix`, `note`, `head_judge`, `time_extension`,
`report_note`, or `finding(Kind, Level, Message, Section)` (a finding one
version derives and the other does not).  One brave pass collects every class
any scenario reaches; then each class gets the smallest scenario that shows it
(search.optimum), printed back as a report and ruled by both versions
(PolicyEngine) to show the two rulings side by side.  An edit that cannot be
confined to some infractions or observation kinds (a helper every section may
read) is compared in parts of a few observation kinds, a grounding each.
"""
from __future__ import annotations

import copy
import functools
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

import clingo

from ppgcheck.analysis import diff_bounds, tuning
from ppgcheck.analysis.check import bounded_pack_job, check_pack
from ppgcheck.analysis.diff_probe import cannot_rule
from ppgcheck.analysis.diff_program import FIRST_KIND, OUTPUTS, changed_predicates, diff_control, same_core
from ppgcheck.analysis.findings import CORE_FINDINGS
from ppgcheck.analysis.reads import PackReads, read_pack
from ppgcheck.analysis.scenarios import kind_parts, scenario_facts, scenario_report
from ppgcheck.analysis.search import Budget, brave, configured, ground, last_model, optimum
from ppgcheck.packs.pack import RUNTIME_CORE, Pack, packs_in, shown_path
from ppgcheck.engine.policy import PolicyEngine
from ppgcheck.engine.ruling import RulingSet, _text, decode
from ppgcheck.engine.words import default_or_choices
from ppgcheck.errors import PpgError, UsageError
from ppgcheck.language.facts import build_facts, constant_to_slug, slug_to_constant
from ppgcheck.language.report import Report, print_report

# changes a witness's ruling shows only with its notes and time extension
_NOTE_CHANGES = {"note", "time_extension", "report_note"}

WHAT_ORDER = ("finding", "infraction", "no_infraction", "penalty", "penalty_path", "discretion", "fix", "note",
              "head_judge", "time_extension", "report_note", "outcome")


@dataclass
class Change:
    what: str                      # infraction | no_infraction | penalty (the final one) | penalty_path (the
                                   # same final penalty reached another way) | discretion | fix | note |
                                   # head_judge | time_extension | report_note | finding
    observation: str               # the observation kind the class is about ("" for the report)
    subject: str                   # infraction id, section (no_infraction), "" for findings
    before: str
    after: str
    message: str
    level: str = "info"            # findings: their level; ruling changes: info
    introduced: bool | None = None  # findings: True introduced, False removed
    sections: list[str] = field(default_factory=list)
    location: tuple[str, int] | None = None
    witness: Report | None = None
    witness_text: str = ""
    minimal: bool = True
    ruling_before: list[str] = field(default_factory=list)
    ruling_after: list[str] = field(default_factory=list)

    @property
    def sarif_rule(self) -> str:
        """Its kind in the registry (findings.py)."""
        return ("cannot-rule" if self.what == "cannot_rule" else "finding-introduced" if self.introduced
                else "finding-removed" if self.introduced is False else "ruling-changed")


@dataclass
class DiffResult:
    policy: str
    old: str
    new: str
    status: str = "compared"       # compared | added | removed
    changes: list[Change] = field(default_factory=list)
    complete: bool = True
    models: int = 0
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)
    root: str = ""                 # the folder the locations are relative to (the new version's Pack.root)

    def introduced(self, level: str | None = None) -> list[Change]:
        return [c for c in self.changes if c.introduced and (level is None or c.level == level)]

    def removed(self) -> list[Change]:
        return [c for c in self.changes if c.introduced is False]

    @property
    def changed(self) -> bool:
        return bool(self.changes) or self.status != "compared"


def diff_rules(old: str | Path, new: str | Path, policy: str | None = None, *, observations: int = 1,
               timeout: float = 120.0, max_models: int = 200_000, old_label: str = "",
               new_label: str = "") -> list[DiffResult]:
    """Compare two rules folders (or two pack folders): one DiffResult per pack."""
    old_path, new_path = Path(old), Path(new)
    for path in (old_path, new_path):
        if not path.is_dir():
            raise UsageError(f"no such rules folder: `{path}`")
    old_packs, new_packs = packs_in(old_path), packs_in(new_path)
    if not old_packs and not new_packs:
        raise UsageError(f"neither `{old}` nor `{new}` holds a policy pack (*.lp files, or folders of them)")
    if len(old_packs) == 1 and len(new_packs) == 1 and set(old_packs) != set(new_packs) and not policy:
        # two single pack folders under different names: the same pack
        old_packs = {next(iter(new_packs)): next(iter(old_packs.values()))}
    ids = sorted(set(old_packs) | set(new_packs))
    if policy:
        if policy not in ids:
            raise UsageError(f"no pack `{policy}` in either version: packs are "
                             + ", ".join(f"`{i}`" for i in ids))
        ids = [policy]
    old_label, new_label = old_label or str(old_path), new_label or str(new_path)
    results = []
    for pid in ids:
        o_lab = _label(old_label, old_path, old_packs.get(pid), pid)
        n_lab = _label(new_label, new_path, new_packs.get(pid), pid)
        if pid not in old_packs:
            results.append(_added(new_packs[pid], o_lab, n_lab, timeout, max_models))
        elif pid not in new_packs:
            results.append(DiffResult(pid, o_lab, n_lab, status="removed", notes=["the pack is removed"]))
        else:
            results.append(diff_pack(old_packs[pid], new_packs[pid], observations=observations,
                                     timeout=timeout, max_models=max_models, old_label=o_lab, new_label=n_lab))
    return results


def _label(given: str, path: Path, pack: Pack | None, pid: str) -> str:
    """How a side's pack is named: the folder given when it is the pack's own, else the
    pack's folder under it (its own name: a renamed single pack keeps its old folder's)."""
    if pack is None:
        return f"{given}/{pid}"
    folder = Path(pack.folder)
    return given if folder.resolve() == path.resolve() else f"{given}/{folder.name}"


def _added(pack: Pack, old_label: str, new_label: str, timeout: float, max_models: int) -> DiffResult:
    """A new pack: everything it rules is new; its check findings are introduced."""
    result = DiffResult(pack.id, old_label, new_label, status="added", notes=["the pack is new"], root=str(pack.root))
    broken = cannot_rule(pack, timeout)
    if broken:
        result.changes.extend(_broken_changes({"new": broken}))
        return result
    checked = bounded_pack_job(functools.partial(check_pack, pack, timeout=timeout, max_models=max_models,
                                                 monotonicity=False), pack, timeout)
    for f in checked.findings:
        result.changes.append(Change("finding", "", "", "absent", "present",
                                     f"finding introduced: {f.kind} ({f.level}): {f.message}",
                                     level=f.level, introduced=True, sections=f.sections,
                                     location=(f.locations[0].file, f.locations[0].line) if f.locations else None,
                                     witness=f.witness, witness_text=f.witness_text, minimal=f.minimal))
    result.complete, result.models, result.seconds = checked.complete, checked.models, checked.seconds
    return result


def diff_pack(old: Pack, new: Pack, *, observations: int = 1, timeout: float = 120.0,
              max_models: int = 200_000, old_label: str = "", new_label: str = "") -> DiffResult:
    """Compare two versions of one pack.  A version that cannot rule (its files refused, a
    report of some observation kind past the time or memory limit, not exactly one answer
    set: diff_probe.py) is a change of its own, and the rulings are then not compared.  The
    comparison is one job (check.bounded_pack_job)."""
    result = DiffResult(new.id, old_label or str(old.folder), new_label or str(new.folder), root=str(new.root))
    broken = {side: cannot_rule(version, timeout) for side, version in (("old", old), ("new", new))}
    if broken["old"] or broken["new"]:
        result.changes.extend(_broken_changes(broken))
        result.notes.append("the rulings are not compared: a version that cannot rule has nothing to compare")
        return result
    work = functools.partial(_diff_pack, old, new, observations=observations, timeout=timeout,
                             max_models=max_models, result=result)
    return bounded_pack_job(work, new, timeout)


def _broken_changes(broken: dict[str, str | None]) -> list[Change]:
    out = []
    for side, error in broken.items():
        if error:
            message = f"the {side} version cannot rule: {error}"
            out.append(Change("cannot_rule", "", "", "rules" if side == "new" else "cannot rule",
                              "cannot rule" if side == "new" else "rules", message, level="error",
                              introduced=side == "new"))
    return out


def _diff_pack(old: Pack, new: Pack, *, observations: int, timeout: float, max_models: int,
               result: DiffResult) -> DiffResult:
    started = time.monotonic()
    budget = Budget(timeout, max_models)
    new_reads = read_pack(new)
    reads = new_reads.merged(read_pack(old))
    touched = diff_bounds.touched_infractions(old.program, new.program, new.core_program(RUNTIME_CORE)) \
        if same_core(old, new) else None
    space = _bounded_space(reads, touched, old, new, observations, result.notes)
    changed = changed_predicates(new, old)
    if not changed & OUTPUTS or not (space.observation_kinds or space.states):
        result.notes.append("no rule that decides a ruling differs between the versions")
        result.seconds = time.monotonic() - started
        return result
    witnesses = _Witnesses(budget, reads, new_reads, old, new)
    if touched is None and observations == 1 and len(space.observation_kinds) > 1:
        result.complete = _diff_in_parts(space, old, new, changed, budget, witnesses, result.notes)
    else:
        messages: list[str] = []
        ctl = diff_control(new, old, scenario_facts(space, observations) + FIRST_KIND, messages, touched, changed)
        ground(ctl, [("base", [])], f"`{new.id}` does not ground for the diff", messages)
        if touched is not None or len(reads.observation_kinds) <= 1:
            found, finished = brave(ctl, budget)
        else:   # (`none`: the scenarios of a state of the match with no observation)
            kinds = sorted(reads.observation_kinds) + (["none"] if reads.states else [])
            found, finished = _brave_by_kind(ctl, budget, kinds, result.notes)
        result.complete = finished
        witnesses.add(ctl, found)
    result.changes.extend(witnesses.changes())
    searched = result.complete
    if witnesses.stopped:
        result.complete = False
    if budget.hit:
        result.notes.append(budget.hit)
    elif not searched:
        result.notes.append("the search did not finish: the changes found so far are listed")
    result.models = budget.models
    result.seconds = time.monotonic() - started
    return result


def _bounded_space(reads: PackReads, touched: tuple[set[str], set[str]] | None, old: Pack, new: Pack,
                   observations: int, notes: list[str]) -> PackReads:
    """The scenario bounds: only a state of the match and no observation when every
    edited rule holds only with one; with one observation, only the kinds a touched
    infraction or exclusion needs."""
    if reads.states and diff_bounds.about_the_match_only(old.program, new.program):
        space = copy.copy(reads)
        space.observation_kinds = set()
        notes.append("the changed rules read the state of the match: scenarios hold a state and no observation")
        return space
    if not (touched and (touched[0] or touched[1]) and observations == 1):
        return reads
    kinds = diff_bounds.kinds_classifying(touched[0], old.program + new.program)
    if kinds is None:
        return reads
    space = copy.copy(reads)
    space.observation_kinds = reads.observation_kinds & (kinds | touched[1])
    about = [f"`{constant_to_slug(i)}`" for i in sorted(touched[0])]
    about += [f"observations of kind `{k}`" for k in sorted(touched[1])]
    notes.append("the changed rules are about " + ", ".join(about) + ": scenarios observe "
                 + (", ".join(f"`{k}`" for k in sorted(space.observation_kinds)) or "nothing"))
    return space


class _Witnesses:
    """A change for each class found, with its smallest witness ruled by both versions;
    a class found in several parts of the space keeps the cheapest witness."""

    def __init__(self, budget: Budget, reads: PackReads, new_reads: PackReads, old: Pack, new: Pack) -> None:
        self.budget, self.reads, self.new_reads, self.new = budget, reads, new_reads, new
        self.edited = diff_bounds.edited_rules(old.program, new.program, new.root)
        self.engines = {"old": PolicyEngine(old), "new": PolicyEngine(new)}
        self.found: dict[clingo.Symbol, tuple[list[int] | None, Change]] = {}
        self.stopped = False

    def add(self, ctl: clingo.Control, found: set[clingo.Symbol]) -> None:
        """The witnesses of these classes in this control's part of the space."""
        for sym in sorted(found, key=_order):
            if sym.name != "dif_class":
                continue
            if self.stopped:
                return
            atoms, proven, cost = optimum(ctl, self.budget, sym)
            known = self.found.get(sym)
            if known is not None and (atoms is None or (known[0] is not None and known[0] <= cost)):
                continue
            self.found[sym] = (cost if atoms is not None else None, self._change(sym, atoms, proven))
            if self.budget.hit:
                self.stopped = True

    def _change(self, sym: clingo.Symbol, atoms: list[clingo.Symbol] | None, proven: bool) -> Change:
        new = self.new
        change = _change(sym, self.reads, self.new_reads)
        at = change.location and (shown_path(change.location[0], new.root), change.location[1])
        change.location = _edited_location(change, self.edited) or at
        if atoms is not None:
            change.witness = scenario_report(atoms, new.id, vocab=self.new_reads.vocab)
            change.witness_text = print_report(change.witness)
            change.minimal = proven
            change.ruling_before = _summary(self.engines["old"], change.witness, change.what)
            change.ruling_after = _summary(self.engines["new"], change.witness, change.what)
        return change

    def changes(self) -> list[Change]:
        return [change for _, (_, change) in sorted(self.found.items(), key=lambda item: _order(item[0]))]


# kinds of observation a part of the space holds when an edit cannot be confined to some
# (a grounding of every kind at once: fab's space with the repeat cap edited took 1.2 GB and
# did not finish its brave pass in 90 s; one part a kind, 38 groundings: 73 MB, 29 s)
KINDS_PER_PART = 6


def _diff_in_parts(space: PackReads, old: Pack, new: Pack, changed: set[str], budget: Budget,
                   witnesses: _Witnesses, notes: list[str]) -> bool:
    """One observation's scenarios, a grounding for each part of the observation kinds
    (scenarios.kind_parts; a state of the match with no observation is in each part):
    each part's brave pass, then its classes' witnesses.  Whether every part was searched
    to its end."""
    parts = kind_parts(scenario_facts(space, 1), -(-len(space.observation_kinds) // KINDS_PER_PART))
    unfinished: list[str] = []
    for n, facts in enumerate(parts):
        kinds = re.findall(r"^scen_obs_kind\((\w+)", facts, re.MULTILINE)
        if budget.exhausted() or witnesses.stopped:
            unfinished.extend(kinds)
            continue
        messages: list[str] = []
        ctl = diff_control(new, old, facts + FIRST_KIND, messages, None, changed)
        ground(ctl, [("base", [])], f"`{new.id}` does not ground for the diff", messages)
        # each part its share of what the brave passes may take of the time left
        until = time.monotonic() + tuning.DIFF_BRAVE_SHARE * budget.remaining() / (len(parts) - n)
        with configured(ctl, enum="brave", heuristic="Vsids"):
            finished, last, _ = last_model(ctl, budget, (), until)
        if not finished:
            unfinished.extend(kinds)
        witnesses.add(ctl, set(last or ()))
    if unfinished:
        notes.append("not every scenario was searched for observations of kind "
                     + ", ".join(f"`{k}`" for k in sorted(unfinished)) + " (raise --timeout)")
    return not unfinished


def _brave_by_kind(ctl: clingo.Control, budget: Budget, kinds: list[str],
                   notes: list[str]) -> tuple[set[clingo.Symbol], bool]:
    """The brave pass one observation kind at a time (the first observation's kind
    as an assumption), so that a kind whose scenarios are hard to exhaust does not
    starve the others: a first round gives every kind an equal short slice, a
    second round shares the time left among the kinds not finished."""
    found: set[clingo.Symbol] = set()
    start = time.monotonic()
    end = start + tuning.DIFF_BRAVE_SHARE * budget.remaining()   # the rest is for the witnesses
    pending = list(kinds)
    # Vsids: far fewer hard-tailed runs than Berkmin here
    with configured(ctl, enum="brave", heuristic="Vsids"):
        for round_end in (start + tuning.DIFF_FIRST_ROUND * (end - start), end):
            unfinished: list[str] = []
            for n, kind in enumerate(pending):
                if budget.exhausted() or time.monotonic() >= round_end:
                    unfinished.extend(pending[n:])
                    break
                until = time.monotonic() + (round_end - time.monotonic()) / (len(pending) - n)
                if not _brave_kind(ctl, budget, kind, until, found):
                    unfinished.append(kind)
            pending = unfinished
            if not pending:
                break
    if pending:
        notes.append("not every scenario was searched for observations of kind "
                     + ", ".join(f"`{k}`" for k in pending) + " (raise --timeout)")
    return found, not pending


def _brave_kind(ctl: clingo.Control, budget: Budget, kind: str, until: float,
                found: set[clingo.Symbol]) -> bool:
    """Brave consequences of the scenarios whose first observation is of this kind,
    added to found (those of the last model when cut short); True when exhausted."""
    finished, last, _ = last_model(ctl, budget, [(clingo.Function("dif_first_kind", [clingo.Function(kind)]), True)],
                                   until)
    found.update(last or ())
    return finished


def _edited_location(change: Change, edited: list[tuple[str, int, set[str]]]) -> tuple[str, int] | None:
    """The edited rule a change comes from: one whose head names its infraction or
    cites its section; the only edited rule when there is one."""
    subject = slug_to_constant(change.subject) if change.subject else ""
    for file, line, words in edited:
        if (subject and subject in words) or any(sec in words for sec in change.sections):
            return (file, line)
    if len(edited) == 1:
        return edited[0][:2]
    return None


def _order(sym: clingo.Symbol):
    what = sym.arguments[0]
    name = what.name if what.type == clingo.SymbolType.Function else str(what)
    return (WHAT_ORDER.index(name) if name in WHAT_ORDER else 99, str(sym))


def _slug(sym: clingo.Symbol) -> str:
    if sym.type == clingo.SymbolType.Function and not sym.arguments:
        return constant_to_slug(sym.name)
    if sym.type == clingo.SymbolType.String:
        return sym.string
    return str(sym)


def _path_text(before: clingo.Symbol, after: clingo.Symbol) -> str:
    """The same final penalty reached another way: from another base, or another way between."""
    final = _slug(after.arguments[1])
    if before.arguments[0] != after.arguments[0]:
        return f"{final} either way, from base {_slug(before.arguments[0])} → {_slug(after.arguments[0])}"
    return f"{final} either way, by other adjustments"


def _ruling_text(r: clingo.Symbol) -> str:
    base, final, issued = r.arguments
    text = _slug(final)
    if base != final:
        text += f" (base {_slug(base)})"
    if issued.name == "absorbed":
        text += ", not issued"
    return text


def _change(sym: clingo.Symbol, reads: PackReads, new_reads: PackReads) -> Change:
    """The change a dif_class/5 atom names."""
    what, kind, subject, before, after = sym.arguments
    obs = "" if kind.name == "none" else kind.name
    on = f" (observation `{obs}`)" if obs else ""
    if what.name == "finding":
        fk, level, msg, sec = what.arguments
        introduced = after.name == "present"
        shown = CORE_FINDINGS[fk.name].KIND.name if fk.name in CORE_FINDINGS else fk.name
        loc = (new_reads if introduced else reads).section_locations.get(sec.string) if sec.string else None
        return Change("finding", obs, "", before.name, after.name,
                      f"finding {'introduced' if introduced else 'removed'}: {shown} ({level.name}): {_text(msg)}{on}",
                      level=level.name, introduced=introduced, sections=[sec.string] if sec.string else [],
                      location=loc)
    if what.name == "no_infraction":
        sec = subject.string
        listed = after.name == "listed"
        return Change("no_infraction", obs, sec, before.name, after.name,
                      f"not-an-infraction ({sec}) {'now' if listed else 'no longer'} applies{on}",
                      sections=[sec], location=reads.section_locations.get(sec))
    if what.name == "time_extension":
        return Change("time_extension", "", "", "changed", "changed", "time extension of the match changed")
    if what.name == "report_note":
        return Change("report_note", "", "", "changed", "changed", "notes on the whole report changed")
    if what.name == "outcome":
        return Change("outcome", "", "", "changed", "changed", "the outcome of the match changed")
    inf = constant_to_slug(subject.name)
    sec = reads.infractions.get(subject.name, "")
    if what.name == "infraction":
        message = f"infraction {'now' if after.name == 'committed' else 'no longer'} committed: {inf}{on}"
        b, a = before.name.replace("_", " "), after.name.replace("_", " ")
    elif what.name == "penalty":
        b, a = _ruling_text(before), _ruling_text(after)
        message = f"final penalty changed: {inf}{on}: {b} → {a}"
    elif what.name == "penalty_path":
        b, a = _ruling_text(before), _ruling_text(after)
        message = f"penalty reached differently: {inf}{on}: {_path_text(before, after)}"
    elif what.name == "discretion":
        b, a = "changed", "changed"
        message = (f"what the guide leaves open changed (who may move the penalty where, or the set it "
                   f"narrows the penalty to): {inf}{on}")
    elif what.name == "head_judge":
        b, a = before.name.replace("_", " "), after.name.replace("_", " ")
        message = f"Head Judge confirmation {'now' if after.name == 'required' else 'no longer'} required: {inf}{on}"
    else:
        b, a = "changed", "changed"
        message = f"{'fix' if what.name == 'fix' else 'notes'} changed: {inf}{on}"
    return Change(what.name, obs, inf, b, a, message, sections=[sec] if sec else [],
                  location=reads.section_locations.get(sec) if sec else None)


def _summary(engine: PolicyEngine, report: Report, what: str = "") -> list[str]:
    """One line per ruling, no-infraction and finding of the witness under one version;
    and what a change of `what` (the notes, the time extension, the adjustments, the
    discretionary options) needs to show."""
    notes = what in _NOTE_CHANGES
    try:
        facts = build_facts(report)
        rs: RulingSet = decode(engine.solve(facts.inputs), facts, report, engine.policy, engine.program.ranks)
    except PpgError as exc:
        return [f"(not ruled: {exc})"]
    out = []
    for r in rs.rulings:
        line = f"{r.player}: {r.infraction}, {default_or_choices(r)}"
        if r.base_penalty and r.base_penalty != r.penalty:
            line += f" (base {r.base_penalty})"
        if not r.issued and r.penalty:
            line += ", not issued"
        if r.fix:
            line += "; fix: " + "; ".join(c.text for c in r.fix)
        if r.notes and notes:
            line += "; notes: " + "; ".join(c.text for c in r.notes)
        if r.head_judge:
            line += f"; the Head Judge confirms ({r.head_judge})"
        if what == "penalty_path" and r.adjustments:
            line += "; " + ", ".join(f"{a.kind} to {a.to} ({a.section})" for a in r.adjustments)
        if what == "discretion":
            line += "".join(f"; {o.by} may make it {o.penalty} ({o.section})" for o in r.options)
        out.append(line)
    out += [f"{n.player}: no infraction ({n.section})" for n in rs.no_infractions]
    out += [f"{f.kind} ({f.level}): {f.message}" + (f" ({f.section})" if f.section else "")
            for f in rs.findings]
    out += [f"outcome: {o.kind}: {o.describe()} ({o.section})" for o in rs.outcomes]
    out += [f"outcome note: {n.text} ({n.section})" for n in rs.outcome_notes]
    if notes:
        if rs.time_extension_minutes:
            out.append(f"time extension: {rs.time_extension_minutes} minutes")
        out += [f"note: {n.text}" for n in rs.notes]
    return out or ["nothing derived"]


__all__ = ["Change", "DiffResult", "diff_pack", "diff_rules"]
