"""What `check` and `diff` report, and the one registry of its kinds.

Every kind of finding is registered once, with the tool that reports it, its
usual level and what it means: the registry orders a check's findings (and its
summary), gives each its SARIF rule and maps levels to SARIF's.  A check finding is one class
per kind, holding what that kind tells (a monotonicity break its one-step-worse
report, a core finding the finding `ppgcheck rule` shows for its witness).
A new kind is a `register` and, for `check`, a class.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from ppgcheck.language.report import Report

LEVELS = ("info", "warning", "error")
SARIF_LEVELS = {"error": "error", "warning": "warning", "info": "note"}


@dataclass(frozen=True)
class Kind:
    name: str           # shown in the text, the JSON and as the SARIF rule id
    tool: str           # check | diff | rule (a ruling's own finding, engine/ruling.py)
    level: str          # the level it is reported at (a citation or a core finding may say otherwise)
    description: str    # the SARIF rule's short description


KINDS: dict[str, Kind] = {}     # in the order findings are listed


def register(name: str, tool: str, level: str, description: str) -> Kind:
    KINDS[name] = Kind(name, tool, level, description)
    return KINDS[name]


def kinds(tool: str) -> list[Kind]:
    return [k for k in KINDS.values() if k.tool == tool]


def kind_order(tool: str) -> tuple[str, ...]:
    return tuple(k.name for k in kinds(tool))


def sarif_rules(tool: str) -> dict[str, str]:
    return {k.name: k.description for k in kinds(tool)}


@dataclass(frozen=True)
class Location:
    file: str
    line: int


@dataclass
class CheckFinding:
    """A finding of `ppgcheck check`; `kind` is its class's."""

    KIND: ClassVar[Kind]
    level: str                    # error | warning | info
    message: str
    sections: list[str] = field(default_factory=list)
    locations: list[Location] = field(default_factory=list)
    witness: Report | None = None
    witness_text: str = ""
    minimal: bool = True
    rels: list[str] = field(default_factory=list)   # the RELs it shows up at ("none": no `rel:` header); [] = not asked

    @property
    def kind(self) -> str:
        return self.KIND.name

    @property
    def rank(self) -> int:
        return LEVELS.index(self.level)

    @property
    def contrast_text(self) -> str:
        return ""

    @property
    def runtime_finding(self) -> dict | None:
        return None

    def to_dict(self) -> dict:
        return {"kind": self.kind, "level": self.level, "message": self.message, "sections": self.sections,
                "locations": [{"file": loc.file, "line": loc.line} for loc in self.locations],
                "witness": self.witness_text or None, "contrast": self.contrast_text or None,
                "minimal": self.minimal, "rels": self.rels, "runtime_finding": self.runtime_finding}


@dataclass
class CoreFinding(CheckFinding):
    """A finding the core derives (rules/core/findings.lp): `ppgcheck rule` on its witness shows it."""

    runtime: tuple[str, str, str, str] | None = None    # kind, level, message, section of the finding/5

    @property
    def runtime_finding(self) -> dict | None:
        if not self.runtime:
            return None
        kind, level, message, section = self.runtime
        return {"kind": kind, "level": level, "message": message, "section": section}


@dataclass
class Conflict(CoreFinding):
    KIND = register("conflict", "check", "error", "Two rules of the guide disagree on the same facts.")


@dataclass
class Gap(CoreFinding):
    KIND = register("gap", "check", "error", "The guide says nothing for these facts (uncovered observation, undefined "
                                             "infraction, no penalty).")


@dataclass
class Scope(CoreFinding):
    KIND = register("scope", "check", "warning", "The report is of a kind the guide says it is not written for "
                                                 "(a REL out of its scope).")


@dataclass
class Cap(CheckFinding):
    KIND = register("cap", "check", "error", "A repeat upgrade ends above the cap the guide states.")

    @classmethod
    def past(cls, infraction: str, before: str, penalty: str, cap: str, **where) -> "Cap":
        """A repeat upgrade taking an infraction from `before` to `penalty`, above the cap (slugs)."""
        return cls(cls.KIND.level,
                   f"a repeat upgrade takes {infraction} from {before} to {penalty}, past the cap {cap}", **where)


@dataclass
class Monotonicity(CheckFinding):
    KIND = register("monotonicity", "check", "warning", "A worse fact gives a lighter penalty.")
    contrast: Report | None = None      # the witness made one step worse
    contrast_text: str = ""             # (a field here, where the other kinds have none)

    @classmethod
    def lighter(cls, step: str, what: str, before: str, after: str, of: str = "penalty",
                **where) -> "Monotonicity":
        """`step` (made one step worse) takes `what` from penalty `before` to a lighter
        `after`; `of` the default penalty, or the heaviest one the guide permits."""
        return cls(cls.KIND.level, f"{step} gives a lighter {of}: {what}, {before} → {after}", **where)


@dataclass
class Nondeterminism(CheckFinding):
    KIND = register("nondeterminism", "check", "error",
                    "A report gets two answer sets of the pack: `rule` cannot rule it.")

    @classmethod
    def two_answer_sets(cls, predicates: str, **where) -> "Nondeterminism":
        """The witness gets two answer sets, told apart by these predicates (on a cycle through `not`)."""
        return cls(cls.KIND.level, "this report gets two answer sets (the pack must derive exactly one per "
                   f"report; `rule` refuses it): they differ on {predicates}, on a cycle through negation", **where)


@dataclass
class NoAnswerSet(CheckFinding):
    KIND = register("no-answer-set", "check", "error",
                    "No report gets an answer set of the pack: `rule` refuses every report.")

    @classmethod
    def for_every_report(cls, **where) -> "NoAnswerSet":
        """No scenario of the space gets an answer set (a constraint or an odd loop through `not`)."""
        return cls(cls.KIND.level, "no report gets an answer set of the pack (it must derive exactly one per "
                   "report; `rule` refuses every report): a constraint that always holds, or a rule on a "
                   "loop through `not` (`a :- not a.`), leaves no model", **where)


@dataclass
class DeadRule(CheckFinding):
    KIND = register("dead-rule", "check", "warning", "No scenario fires this rule.")

    @classmethod
    def unfired(cls, tag: str, searched: str, **where) -> "DeadRule":
        """The rule at `tag` that no scenario of those `searched` fires."""
        return cls(cls.KIND.level, f"no scenario {searched} fires the rule at {tag}", **where)


# how a fact the rules read is written, and the form that would produce it
_READ_AS = {"observation": "observation(O, P, {})", "modifier": "modifier(O, {})", "count": "count(O, {}, N)",
            "when": "when({})"}
_FORM_TO_ADD = {"observation": "an `observation_form({}, \"{{P}} ...\")`",
                "modifier": "a `modifier_form({}, \"...\")`", "count": "a form with a `{{{}}}` slot",
                "when": "a `when_form({}, \"...\")`"}


@dataclass
class VocabularyGap(CheckFinding):
    KIND = register("vocabulary", "check", "error",
                    "The rules read a fact no form of the report language produces.")

    @classmethod
    def unproduced(cls, what: str, name: str, policy: str, **where) -> "VocabularyGap":
        """The rules read `name` (an observation kind, a modifier, a count key, a header
        value: `what`) that no form of the pack's report language produces."""
        fact = _READ_AS.get(what, what + "({})").format(name)
        add = _FORM_TO_ADD.get(what, f"a `{what}_value({{}})`").format(name)
        return cls(cls.KIND.level,
                   f"the rules read `{fact}` but no form of the report language produces it: add {add} to the "
                   f"pack (`ppgcheck vocab --policy {policy}` lists the forms)", **where)


@dataclass
class Citation(CheckFinding):
    KIND = register("citation", "check", "error", "A rule or infraction without its section.")

    @classmethod
    def uncited(cls, infraction: str, **where) -> "Citation":
        """An infraction some scenario derives that has no section (slug)."""
        return cls(cls.KIND.level, f"infraction `{infraction}` is derived but has no section(…, \"Sec\") fact",
                   **where)


@dataclass
class Misquote(CheckFinding):
    KIND = register("misquote", "check", "error", "A sentence a rule quotes is not in the source text.")

    @classmethod
    def missing(cls, text: str, sources: tuple[str, ...], **where) -> "Misquote":
        """A quoted `text` that none of the `sources` (file names) holds."""
        return cls(cls.KIND.level, f"the quote `{text}` is not in " + " or ".join(f"`{s}`" for s in sources),
                   **where)


# the classes of the core's finding kinds (findings.lp)
CORE_FINDINGS: dict[str, type[CoreFinding]] = {"conflict": Conflict, "gap": Gap, "scope": Scope}

register("finding-introduced", "diff", "error",   # (the finding's own level)
         "The change introduces a finding (conflict, gap, ...) that the old rules did not have.")
register("finding-removed", "diff", "info", "The change removes a finding the old rules had.")
register("ruling-changed", "diff", "info",
         "A class of incidents is ruled differently (infraction, penalty, fix, the outcome of the match).")
register("pack-changed", "diff", "info", "A pack is added or removed.")
register("cannot-rule", "diff", "error",
         "A version of a pack cannot rule (refused files, past a time or memory limit, not one answer set).")
# a ruling's own finding, not the guide's (engine/ruling.py): the report leaves out what the guide asks
register("input", "rule", "warning", "The report leaves out a header or fact the guide needs to rule.")


@dataclass
class CheckResult:
    policy: str
    path: str
    findings: list[CheckFinding] = field(default_factory=list)
    models: int = 0
    seconds: float = 0.0
    complete: bool = True
    notes: list[str] = field(default_factory=list)
    root: str = ""              # the folder the locations are relative to (Pack.root): SARIF's RULESROOT
    # the forms of the language no rule of the pack reads, by what they state (modifier, state,
    # tally, header): a report stating one gets an `input` finding (engine/unread.py)
    unread: dict[str, list[str]] = field(default_factory=dict)

    def at_or_above(self, level: str) -> list[CheckFinding]:
        return [f for f in self.findings if f.rank >= LEVELS.index(level)]

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for f in self.findings:
            out[f.kind] = out.get(f.kind, 0) + 1
        return out

    def sort(self) -> None:
        order = kind_order("check")
        self.findings.sort(key=lambda f: (order.index(f.kind), -f.rank, f.sections, f.message))


def render_text(results: list[CheckResult]) -> str:
    order = kind_order("check")
    out: list[str] = []
    for r in results:
        counts = r.counts()
        summary = ", ".join(f"{counts[k]} {k}" for k in order if k in counts) or "no findings"
        out.append(f"{r.policy} ({r.path}): {summary} — {r.models} models, {r.seconds:.1f} s"
                   + ("" if r.complete else " — INCOMPLETE"))
        for kind in order:
            group = [f for f in r.findings if f.kind == kind]
            if group:
                out.append(f"  {kind} ({len(group)})")
                out.extend(line for f in group for line in _finding_lines(f))
        out.extend(f"  note: {note}" for note in r.notes)
        out.extend(f"  never reads ({what}): {', '.join(names)}" for what, names in r.unread.items())
    return "\n".join(out)


def _finding_lines(f: CheckFinding) -> list[str]:
    where = "; ".join(f"{loc.file}:{loc.line}" for loc in f.locations)
    secs = ", ".join(f.sections)
    tail = " ".join(x for x in (f"({secs})" if secs else "", f"[{where}]" if where else "") if x)
    out = [f"    {f.level}: {f.message}" + (f" {tail}" if tail else "")]
    if f.witness_text:
        out.append("      witness" + ("" if f.minimal else " (not proven minimal)") + ":")
        out.extend("        " + line for line in f.witness_text.splitlines())
    if f.contrast_text:
        out.append("      one step worse:")
        out.extend("        " + line for line in f.contrast_text.splitlines())
    return out


def result_dict(r: CheckResult) -> dict:
    return {"policy": r.policy, "path": r.path, "complete": r.complete, "models": r.models,
            "seconds": round(r.seconds, 3), "counts": r.counts(), "notes": r.notes, "unread": r.unread,
            "findings": [f.to_dict() for f in r.findings]}
