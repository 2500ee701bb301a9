"""Find, load and parse a policy pack once per process; rule one report at a time.

The pack's files are parsed once into clingo ASTs.  Each report gets a fresh
control: the parsed policy plus the report's facts (built from symbols, never
from text) are grounded together, so grounding only covers what the report
says.  (Grounding the policy once over every possible input, as #externals,
was tried: the input domains made it take minutes and gigabytes.)
"""
from __future__ import annotations

import difflib
from functools import cache
from pathlib import Path

import clingo
import clingo.ast

from .errors import PolicyError, UsageError
from .facts import constant_to_slug
from .report import Report
from .resources import policy_ids, rules_dir

CORE_FILES = ("vocabulary.lp", "penalties.lp", "findings.lp", "output.lp")


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


_NOWHERE = clingo.ast.Location(clingo.ast.Position("<report>", 1, 1),
                               clingo.ast.Position("<report>", 1, 1))


def fact_statement(sym: clingo.Symbol) -> clingo.ast.AST:
    """A fact as an AST node made from a symbol: report text never becomes program text."""
    atom = clingo.ast.SymbolicAtom(clingo.ast.SymbolicTerm(_NOWHERE, sym))
    return clingo.ast.Rule(_NOWHERE, clingo.ast.Literal(_NOWHERE, clingo.ast.Sign.NoSign, atom), [])


def parse_program(files: list[Path]) -> list[clingo.ast.AST]:
    statements: list[clingo.ast.AST] = []
    messages: list[str] = []

    def logger(code: clingo.MessageCode, message: str) -> None:
        messages.append(" ".join(message.split()))

    for path in files:
        try:
            clingo.ast.parse_files([str(path)], statements.append, logger=logger)
        except RuntimeError:
            detail = "; ".join(messages) or "it does not parse"
            raise PolicyError(f"policy file `{path}` does not load: {detail}") from None
    return statements


class PolicyEngine:
    """One parsed policy pack, reused for every report of the process."""

    def __init__(self, policy: str, rules: Path | None = None) -> None:
        self.policy = policy
        self.files = pack_files(policy, rules)
        self.statements = parse_program(self.files)
        self._ids: tuple[dict[str, str], list[str]] | None = None

    @property
    def sections(self) -> dict[str, str]:
        """Infraction id (slug) -> its citation."""
        return self._read_ids()[0]

    @property
    def penalties(self) -> list[str]:
        return self._read_ids()[1]

    def _read_ids(self) -> tuple[dict[str, str], list[str]]:
        # the pack's ids, from a grounding with no report; only reports that name
        # ids (history, judge call) need them, so it is done on first use
        if self._ids is None:
            ctl = self._ground([])  # keep the control alive while its atoms are read
            atoms = ctl.symbolic_atoms
            sections = {constant_to_slug(a.symbol.arguments[0].name): a.symbol.arguments[1].string
                        for a in atoms.by_signature("section", 2)}
            penalties = [constant_to_slug(a.symbol.arguments[0].name)
                         for a in atoms.by_signature("penalty_id", 1)]
            self._ids = (sections, penalties)
        return self._ids

    def _ground(self, facts: list[clingo.Symbol]) -> clingo.Control:
        messages: list[str] = []

        def logger(code: clingo.MessageCode, message: str) -> None:
            if code is clingo.MessageCode.RuntimeError:
                messages.append(" ".join(message.split()))

        ctl = clingo.Control(["--warn=none", "--models=2"], logger=logger)
        with clingo.ast.ProgramBuilder(ctl) as builder:
            for statement in self.statements:
                builder.add(statement)
            for sym in facts:
                builder.add(fact_statement(sym))
        try:
            ctl.ground([("base", [])])
        except RuntimeError:
            raise PolicyError(f"policy `{self.policy}` does not ground: " + "; ".join(messages)) from None
        return ctl

    def check_ids(self, report: Report) -> None:
        """History entries and a judge call must name this policy's ids."""
        if not report.history and not report.judge_call:
            return
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
        ctl = self._ground(facts)
        models: list[list[clingo.Symbol]] = []
        with ctl.solve(yield_=True) as handle:
            for model in handle:
                models.append(model.symbols(shown=True))
        if len(models) != 1:
            raise PolicyError(f"policy `{self.policy}` gave {len(models)} answer sets for one report; "
                              "a policy must derive exactly one (a bug in the pack)")
        return models[0]


@cache
def engine(policy: str) -> PolicyEngine:
    """The process-wide engine of a bundled policy."""
    return PolicyEngine(policy)
