"""Find, load and ground a policy pack once per process; solve one report at a time.

The pack is grounded over the input domains of rules/core/vocabulary.lp with
every input declared `#external` (rules/core/inputs.lp).  A report switches its
facts on, the grounded program is solved, and the facts are switched off again:
no report pays for grounding the policy.
"""
from __future__ import annotations

import difflib
from functools import cache
from pathlib import Path

import clingo

from .errors import PolicyError, UsageError
from .facts import constant_to_slug, slug_to_constant
from .report import Report
from .resources import policy_ids, rules_dir

CORE_FILES = ("vocabulary.lp", "inputs.lp", "penalties.lp", "findings.lp", "output.lp")


def pack_files(policy: str, rules: Path | None = None) -> list[Path]:
    root = rules or rules_dir()
    pack = root / policy
    if not pack.is_dir() or not any(pack.glob("*.lp")):
        known = policy_ids(root)
        close = difflib.get_close_matches(policy, known, n=1)
        hint = f" (did you mean `{close[0]}`?)" if close else ""
        raise UsageError(f"unknown policy `{policy}`{hint}: known policies are "
                         + ", ".join(f"`{k}`" for k in known))
    return [root / "core" / f for f in CORE_FILES] + sorted(pack.glob("*.lp"))


def load_program(ctl: clingo.Control, files: list[Path], messages: list[str]) -> None:
    for path in files:
        try:
            ctl.load(str(path))
        except RuntimeError:
            detail = "; ".join(messages) or "it does not parse"
            raise PolicyError(f"policy file `{path}` does not load: {detail}") from None


class PolicyEngine:
    """One grounded policy pack, reused for every report of the process."""

    def __init__(self, policy: str, rules: Path | None = None) -> None:
        self.policy = policy
        self.files = pack_files(policy, rules)
        messages: list[str] = []

        def logger(code: clingo.MessageCode, message: str) -> None:
            if code in (clingo.MessageCode.RuntimeError, clingo.MessageCode.OperationUndefined):
                messages.append(" ".join(message.split()))

        self.ctl = clingo.Control(["--warn=none", "--models=2"], logger=logger)
        load_program(self.ctl, self.files, messages)
        try:
            self.ctl.ground([("base", [])])
        except RuntimeError:
            raise PolicyError(f"policy `{policy}` does not ground: " + "; ".join(messages)) from None
        atoms = self.ctl.symbolic_atoms
        self.sections = {constant_to_slug(a.symbol.arguments[0].name): a.symbol.arguments[1].string
                         for a in atoms.by_signature("section", 2)}
        self.penalties = [constant_to_slug(a.symbol.arguments[0].name)
                          for a in atoms.by_signature("penalty_id", 1)]

    def check_ids(self, report: Report) -> None:
        """History entries and a judge call must name this policy's ids."""
        def known(value: str, table: list[str], what: str, line: int, column: int) -> None:
            if value not in table:
                close = difflib.get_close_matches(value, table, n=3, cutoff=0.5)
                raise report.error(f"unknown {what} `{value}` for policy `{self.policy}`",
                                   (line, column), suggestions=close)
        infractions = sorted(self.sections)
        for entry in report.history:
            known(entry.penalty, self.penalties, "penalty", entry.line, entry.penalty_column)
            known(entry.infraction, infractions, "infraction", entry.line, entry.infraction_column)
        if report.judge_call:
            line, column = report.positions["judge_call_infraction"]
            known(report.judge_call[0], infractions, "infraction", line, column)
            line, column = report.positions["judge_call_penalty"]
            known(report.judge_call[1], self.penalties, "penalty", line, column)

    def solve(self, facts: list[clingo.Symbol]) -> list[clingo.Symbol]:
        """The shown atoms of the one model for these input facts."""
        atoms = self.ctl.symbolic_atoms
        for sym in facts:
            atom = atoms[sym]
            if atom is None or not atom.is_external:
                raise PolicyError(f"input fact `{sym}` is outside the grounded input domain")
        for sym in facts:
            self.ctl.assign_external(sym, True)
        models: list[list[clingo.Symbol]] = []
        try:
            with self.ctl.solve(yield_=True) as handle:
                for model in handle:
                    models.append(model.symbols(shown=True))
        finally:
            for sym in facts:
                self.ctl.assign_external(sym, False)
        if len(models) != 1:
            raise PolicyError(f"policy `{self.policy}` gave {len(models)} answer sets for one report; "
                              "a policy must derive exactly one (a bug in the pack)")
        return models[0]


@cache
def engine(policy: str) -> PolicyEngine:
    """The process-wide grounded engine of a bundled policy."""
    return PolicyEngine(policy)


def policy_constant(slug: str) -> str:
    return slug_to_constant(slug)
