"""Find a policy pack, prepare it once per process, and rule reports in batches.

The pack's files are parsed into clingo ASTs and rewritten (ppgcheck/engine/indexing.py)
so every input-dependent predicate carries a report index: one grounding then
rules a whole batch of reports, each seeing only its own facts, and what does
not depend on a report (ladders, citations, vocabulary tables) is grounded
once for all of them.  A batch of one report is grounded with the pack as
written, which grounds faster than the rewrite (tests/test_indexing.py checks
the two against each other on every golden report).  Both are kept in the
on-disk cache (ppgcheck/cache.py), so a process that rules one report skips
parsing and rewriting the pack.
Facts enter through clingo's backend as symbols: no report text becomes
program text.  (Grounding the policy once over every possible input, as
#externals, was tried first: the input domains made it take minutes and
gigabytes.)
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import TYPE_CHECKING

import clingo

from ppgcheck.cache import cached_json, is_cached
from ppgcheck.packs import isolation
from ppgcheck.packs.messages import error_logger
from ppgcheck.packs.pack import Pack, load_pack
from ppgcheck.engine.reach import Reach, shown_slice, usable_text
from ppgcheck.errors import PolicyError
from ppgcheck.contract import EXPLORED as _EXPLORED_SIGNATURES
from ppgcheck.contract import INDEX_PREDICATE
from ppgcheck.language.facts import Fact, constant_to_slug, slug_to_constant
from ppgcheck.language.report import Report
from ppgcheck.language.vocabulary import Vocabulary, pack_vocabulary

if TYPE_CHECKING:       # clingo.ast is imported only to parse (ppgcheck/packs/pack.py)
    from ppgcheck.packs.program import Program

# a model's shown atoms by "name/arity": the argument tuples, in no particular order
ShownAtoms = dict[str, list[tuple[clingo.Symbol, ...]]]

# what the exploring solve adds to a report's atoms (the default solve never derives them)
EXPLORED = tuple(f"{name}/{arity}" for name, arity in sorted(_EXPLORED_SIGNATURES))
_EXPLORED_NAMES = frozenset(name for name, _ in _EXPLORED_SIGNATURES)

# a grounding of at most this many reports (a report and its variants) grounds only the
# statements their facts can fire: a single report of fab or dci uses about half the pack
SLICED_AT_MOST = 64



@dataclass(frozen=True)
class IndexedProgram:
    """A pack rewritten for batch grounding, the pack as written, and the ids it defines."""

    statements: list[str]                   # the rewrite: a batch of reports
    plain_statements: list[str]             # as written (comments dropped): one report grounds faster
    reach: Reach                            # which of them a grounding can use, given its facts
    depends: dict | None                    # what each rule defines and reads (reach.dependencies)
    indexed: frozenset[tuple[str, int]]     # signatures that carry the report index
    sections: dict[str, str]                # infraction slug -> its citation
    penalties: list[str]                    # penalty slugs (and `none`)
    ranks: dict[str, int]                   # penalty constant -> its place on the ladder
    header_values: dict[str, list[str]]     # header -> the values the guide tells apart (header_matters/2)
    relevance: dict[str, frozenset[str]]    # observation kind -> the modifiers that can change its ruling
    not_recorded: dict[str, list[str]]      # penalty slug -> [why, section]: the guide does not record it

    @cached_property
    def text(self) -> str:
        return "\n".join(self.statements)

    @cached_property
    def plain(self) -> str:
        return "\n".join(self.plain_statements)

    def usable_text(self, fact_lists: Sequence[list[Fact]], indexed: bool,
                    shown: frozenset[str] | None = None) -> str:
        """The program a grounding of these reports' facts needs: the statements that can
        fire (engine/reach.py), rewritten for a batch or as written.  A batch of more than
        SLICED_AT_MOST reports grounds the whole program: together its reports use nearly
        every statement, and finding which costs more than grounding the rest.  shown: only
        the `#show name/arity.` statements of these names (reading a model costs per atom),
        and only the rules their atoms depend on (a question's variant: ~20-35 % less to ground)."""
        statements = self.statements if indexed else self.plain_statements
        if shown is None and len(fact_lists) > SLICED_AT_MOST:
            return self.text if indexed else self.plain
        usable = None if len(fact_lists) > SLICED_AT_MOST else self.reach.usable(fact_lists)
        if shown is not None:
            needed = self._shown_slice(shown)
            usable = [(usable is None or usable[at]) and (needed is None or needed[at]) and _shows(st, shown)
                      for at, st in enumerate(statements)]
        return usable_text(statements, usable)

    def _shown_slice(self, shown: frozenset[str]) -> list[bool] | None:
        """The statements the atoms of these names depend on (reach.shown_slice), found once."""
        if shown not in self._slices:
            self._slices[shown] = shown_slice(self.depends, shown)
        return self._slices[shown]

    @cached_property
    def _slices(self) -> dict[frozenset[str], list[bool] | None]:
        return {}


def _shows(statement: str, shown: frozenset[str]) -> bool:
    """Whether a statement stays in a program showing only these names: a `#show name/arity.`
    of another name does not."""
    if not (statement.startswith("#show ") and statement.endswith(".") and "/" in statement):
        return True
    return statement[6:].partition("/")[0].strip() in shown


class PolicyEngine:
    """One prepared policy pack, reused for every report of the process."""

    def __init__(self, policy: str | Pack, rules: Path | None = None) -> None:
        self.pack = policy if isinstance(policy, Pack) else load_pack(policy, rules)
        self.policy = self.pack.id
        self.files = self.pack.runtime_files
        # every file the pack loads, includes too, confined by the pack before anything reads one
        self.sources = self.pack.confined(self.files)
        self.where = self.pack.where
        self._statements: "Program | None" = None
        self._replaced = False        # statements set by a subclass differ from the files'
        self._program: IndexedProgram | None = None

    @property
    def statements(self) -> "Program":
        """The pack as parsed, core first, before the rewrite (for coverage)."""
        if self._statements is None:
            self._statements = self.pack.parsed(self.files, order="files")
        return self._statements

    @statements.setter
    def statements(self, statements: "Program") -> None:
        self._statements, self._program, self._replaced = statements, None, True

    @property
    def vocabulary(self) -> Vocabulary:
        """The language of this pack's reports: the core's forms and the pack's."""
        return pack_vocabulary(self.pack)

    @property
    def program(self) -> IndexedProgram:
        if self._program is None:
            self._program = self._prepare()
        return self._program

    def _prepare(self) -> IndexedProgram:
        def index(statements: Callable[[], "Program"]) -> dict:
            # parsed, held to the contract and indexed in one job: a pack of millions of facts
            # is bounded while it is parsed too (an error of the contract still names the pack)
            def work() -> dict:
                # (only when the pack is prepared: a cached one is ruled without the rewrite and clingo.ast)
                from ppgcheck.engine.indexing import index_pack
                from ppgcheck.engine.unread import with_input_reads
                parsed = with_input_reads(statements(), self.pack.core)     # what the pack reads: facts
                return self._index(parsed, index_pack(self.pack, parsed))
            return isolation.call_bounded(work, self.where, self.locate_overrun)
        if self._replaced:       # not the files' program: the cache key would not describe it
            data = index(lambda: self.statements)
        else:
            # the parsed statements are not kept: only coverage and diff ask for them
            data = cached_json(*self._cache_key(),
                               lambda: index(lambda: self.pack.parsed(self.files, order="files", keep=False)))
        return IndexedProgram(data["statements"], data["plain_statements"], Reach(data["reach"]), data["depends"],
                              frozenset((n, a) for n, a in data["indexed"]),
                              data["sections"], data["penalties"], data["ranks"], data["header_values"],
                              {kind: frozenset(read) for kind, read in data["relevance"].items()},
                              data["not_recorded"])

    def _cache_key(self, kind: str = "policy") -> tuple[str, list[Path]]:
        """What the prepared program (or, `contract`, that the pack met the contract) is cached
        under: clingo's version and every file of the pack's runtime program (and the package's
        code: cache.py)."""
        return f"{kind}-clingo{clingo.__version__}", list(self.sources)

    def prepared_before(self) -> bool:
        """Whether the pack's files, byte for byte, were prepared before (the cache holds
        their program): they met the contract then (index_pack), with this code."""
        return not self._replaced and is_cached(*self._cache_key())

    def hold_to_contract(self, limits: isolation.Limits | None = None) -> None:
        """index_pack(): the pack's program held to the contract, once for its files byte
        for byte (prepared before, or met before and kept as met in the cache: `check` and
        `diff` prepare no program, and the rewrite took ~0.5-0.7 s of each of their runs)."""
        # (only when a pack is held to the contract: ruling does not)
        from ppgcheck.engine.indexing import index_pack
        if self._replaced:
            index_pack(self.pack)
        elif not self.prepared_before():
            # (parsed in a job: a pack of millions of facts is bounded while it is parsed)
            cached_json(*self._cache_key("contract"), lambda: isolation.call_bounded(
                lambda: bool(index_pack(self.pack)), self.where, self.locate_overrun, limits))

    def _index(self, statements: "Program", batched: tuple[list, set]) -> dict:
        # (only when the pack is prepared: a cached one is ruled without it)
        from clingo.ast import ASTType
        from ppgcheck.engine.indexing import unneeded_statements
        from ppgcheck.engine.reach import program_dependencies, program_summary
        rewritten, indexed = batched
        written = [statement for statement in statements if statement.ast_type is not ASTType.Comment]
        ctl = self._control("\n".join(str(statement) for statement in rewritten))    # what every report shares
        atoms = ctl.symbolic_atoms
        sections = {constant_to_slug(a.symbol.arguments[0].name): a.symbol.arguments[1].string
                    for a in atoms.by_signature("section", 2)}
        penalties = [constant_to_slug(a.symbol.arguments[0].name)
                     for a in atoms.by_signature("penalty_id", 1)]
        ranks = {a.symbol.arguments[0].name: a.symbol.arguments[1].number
                 for a in atoms.by_signature("penalty_rank", 2)}
        not_recorded = {constant_to_slug(pen.name): [why.string, sec.string]
                        for pen, why, sec in (a.symbol.arguments for a in atoms.by_signature("not_recorded", 3))}
        header_values: dict[str, list[str]] = {}
        for a in atoms.by_signature("header_matters", 2):
            header, value = a.symbol.arguments
            header_values.setdefault(header.name, []).append(str(value))
        unneeded = unneeded_statements(statements)    # read above (header_matters), not by a ruling
        plain = [str(statement) for at, statement in enumerate(written) if at not in unneeded]
        return {"statements": [str(statement) for at, statement in enumerate(rewritten) if at not in unneeded],
                "plain_statements": plain,
                "reach": program_summary(statements, unneeded), "depends": program_dependencies(statements, unneeded),
                "indexed": sorted(indexed), "sections": sections,
                "penalties": penalties, "ranks": ranks, "not_recorded": not_recorded,
                "header_values": {h: sorted(v) for h, v in sorted(header_values.items())},
                "relevance": self._relevance("\n".join(plain), ranks)}

    def _relevance(self, plain: str, ranks: dict[str, int]) -> dict[str, list[str]]:
        """For each observation kind of the pack's language, the modifiers the rules about it
        read that can change its infraction or default penalty (engine/variants.py)."""
        # (only when the pack is prepared: a cached one is ruled without it)
        from ppgcheck.engine import variants
        core = "\n".join(self.pack.text(f) for f in self.pack.core_files())
        read = variants.Relevance(plain, variants.core_heads(core), set(ranks))
        return {kind: sorted(read(kind)) for kind in sorted(self.vocabulary.observations)}

    @property
    def sections(self) -> dict[str, str]:
        """Infraction id (slug) -> its citation."""
        return self.program.sections

    @property
    def penalties(self) -> list[str]:
        return self.program.penalties

    @property
    def not_recorded(self) -> dict[str, tuple[str, str]]:
        """Penalty slug -> (why, section): the penalties the guide does not record
        (not_recorded/3): an event gives them to no later ruling as history."""
        return {pen: (why, sec) for pen, (why, sec) in self.program.not_recorded.items()}

    def _control(self, text: str, fact_lists: Sequence[list[Fact]] = (), ground: bool = True,
                 indexed: bool = True) -> clingo.Control:
        """A control with the program and each report's facts (under its index, for the
        rewrite), grounded unless asked not to (bench/inproc.py times the two steps apart)."""
        messages: list[str] = []
        ctl = clingo.Control(["--warn=none", "--models=2"], logger=error_logger(messages))
        try:
            ctl.add("base", [], text)
            with ctl.backend() as backend:
                for index, facts in enumerate(fact_lists):
                    prefix = [clingo.Number(index)] if indexed else []
                    if indexed:
                        backend.add_rule([backend.add_atom(clingo.Function(INDEX_PREDICATE, prefix))])
                    for name, arguments in facts:
                        backend.add_rule([backend.add_atom(clingo.Function(name, [*prefix, *arguments]))])
            if ground:
                ctl.ground([("base", [])])
        except RuntimeError:
            raise PolicyError(f"policy `{self.policy}` does not ground: " + "; ".join(self._located(messages))) \
                from None
        return ctl

    def _located(self, messages: list[str]) -> list[str]:
        """clingo's messages about the rewritten text name lines of a `<block>`; the pack's
        own statements, grounded as written, name its files' lines instead (a policy author
        looks for `rules/x/y.lp:37`, not `<block>:963`).  Only on a failure: never on a ruling."""
        if not any("<block>:" in m for m in messages):
            return messages
        located: list[str] = []
        # (only on a failure: a ruling never parses the pack's ASTs here)
        from clingo import ast
        ctl = clingo.Control(["--warn=none"], logger=error_logger(located))
        try:
            with ast.ProgramBuilder(ctl) as builder:
                for node in self.pack.parsed(self.files, order="files", keep=False).nodes:
                    builder.add(node)
            ctl.ground([("base", [])])
        except RuntimeError:
            return located or messages
        return messages

    def check_ids(self, report: Report) -> None:
        """History entries and a judge call must name this policy's ids."""
        if not report.history and not report.judge_call:
            return
        def known(value: str, table: list[str], what: str, line: int, column: int) -> None:
            if value not in table:
                raise report.error(f"unknown {what} `{value}` for policy `{self.policy}`: "
                                   f"`ppgcheck ids --policy {self.policy}` lists them",
                                   (line, column), suggestions=self.closest_ids(value, table),
                                   suggesting="did you mean")
        infractions = sorted(self.sections)
        for entry in report.history:
            known(entry.penalty, self.penalties, "penalty", entry.line, entry.penalty_column)
            known(entry.infraction, infractions, "infraction", entry.line, entry.infraction_column)
        if report.judge_call:
            line, column = report.positions["judge_call_infraction"]
            known(report.judge_call[0], infractions, "infraction", line, column)
            line, column = report.positions["judge_call_penalty"]
            known(report.judge_call[1], self.penalties, "penalty", line, column)

    def closest_ids(self, value: str, table: list[str]) -> list[str]:
        """The ids nearest an unknown one: by spelling; else, for an infraction named like
        an observation (`marked-cards`), the infractions this guide rules that observation as
        (`sleeves` under yugioh): a one-observation report is ruled to find them (a job)."""
        # (only to suggest a close match)
        import difflib
        close = difflib.get_close_matches(value, table, n=3, cutoff=0.5)
        if close or table is self.penalties:
            return close
        # (only to suggest an id by ruling a probe report)
        from ppgcheck.language.facts import build_facts
        from ppgcheck.language.report import Observation
        kind = slug_to_constant(value)
        if kind not in self.vocabulary.observations:
            return []
        probe = Report(policy=self.policy, persons=[("A", "player"), ("B", "player")],
                       observations=[Observation("A", kind, other="B")], vocab=self.vocabulary)
        facts = build_facts(probe).inputs
        self.program        # noqa: B018 (prepared here, for the job and what follows)

        def ruled_as() -> list[str]:
            committed = self.solve(facts).get("committed/3", [])
            return sorted({constant_to_slug(i.name) for _, _, i in committed})
        return isolation.call_bounded(ruled_as, self.where, lambda: self.locate_overrun([facts]))

    def solve_many(self, fact_lists: Sequence[list[Fact]], explore: Sequence[bool] | None = None,
                   shown: frozenset[str] | None = None) -> list[ShownAtoms]:
        """For each report's input facts, the shown atoms of its one model; one grounding for all.
        A report with a discretion or a base set open is explored too (permitted/4, option/7),
        unless `explore` says not (a question's variant needs only its default).  shown: only
        the atoms of these names (QUESTION_SHOWN for questions' variants).  Run it inside a job
        (isolation.call_bounded, as api.rule_prepared does): the job bounds the grounding,
        and the solving stops itself at the job's deadline."""
        if not fact_lists:
            return []
        return self._solve_many(self.program, fact_lists, explore, shown)

    def locate_overrun(self, fact_lists: Sequence[list[Fact]] = ()) -> str | None:
        """The file whose rules took grounding these reports past the limits, if one did alone."""
        from ppgcheck.packs import overrun      # only past a limit
        return overrun.locate(self.files, fact_lists, parse=lambda path: self.pack.parsed([path], keep=False))

    def _solve_many(self, program: IndexedProgram, fact_lists: Sequence[list[Fact]],
                    explore: Sequence[bool] | None, shown: frozenset[str] | None = None) -> list[ShownAtoms]:
        alone = len(fact_lists) == 1      # the pack as written: no index to add or strip
        isolation.phase("grounding")
        ctl = self._control(program.usable_text(fact_lists, indexed=not alone, shown=shown), fact_lists,
                            indexed=not alone)
        isolation.phase("solving")
        models = _models(ctl)
        if len(models) != 1:
            raise PolicyError(f"policy `{self.policy}` gave {len(models)} answer sets for a batch of "
                              f"{len(fact_lists)} report(s); a policy must derive exactly one per report "
                              "(a bug in the pack)")
        per_report = self._split(models[0], len(fact_lists), alone)
        wanted = [i for i, atoms in enumerate(per_report) if atoms.get("open_choice/3")
                  and (explore is None or explore[i])]
        if wanted:
            switches = [clingo.Function("explore", [] if alone else [clingo.Number(i)]) for i in wanted]
            for i, explored in enumerate(self._split(self._explore(ctl, switches), len(fact_lists), alone)):
                if i in wanted:      # the others' brave atoms are their one model's
                    for name in EXPLORED:
                        per_report[i][name] = explored.get(name, [])
        isolation.keep_until_exit(ctl)
        return per_report

    def _split(self, symbols: list[clingo.Symbol], count: int, alone: bool) -> list[ShownAtoms]:
        """Each report's shown atoms (its index stripped), plus those every report shares."""
        shared: ShownAtoms = {}
        per_report: list[ShownAtoms] = [{} for _ in range(count)]
        indexed = frozenset() if alone else self.program.indexed     # alone, every atom is the report's
        for sym in symbols:
            name, arguments = sym.name, sym.arguments
            arity = len(arguments) - 1
            if (name, arity) in indexed:
                per_report[arguments[0].number].setdefault(f"{name}/{arity}", []).append(tuple(arguments[1:]))
            else:
                shared.setdefault(f"{name}/{arity + 1}", []).append(tuple(arguments))
        for atoms in per_report:
            for key, rows in shared.items():
                atoms[key] = atoms.get(key, []) + rows
        return per_report

    def _explore(self, ctl: clingo.Control, switches: list[clingo.Symbol]) -> list[clingo.Symbol]:
        """The brave consequences with `explore` on for some reports: every course the guide
        permits, on the same grounding (rules/core/penalties.lp, "discretion").  The reports of
        a batch are independent, so the batch's brave consequences are each report's own."""
        for switch in switches:
            ctl.assign_external(switch, True)
        ctl.configuration.solve.enum_mode = "brave"
        ctl.configuration.solve.models = 0
        last: list[clingo.Symbol] = []

        def keep(model: clingo.Model) -> None:     # only the last model holds every brave atom:
            last[:] = model.symbols(shown=True)     # reading each model's cost ~5 ms a model of a batch
        _solve_within(ctl, on_last=keep)
        return [symbol for symbol in last if symbol.name in _EXPLORED_NAMES]    # (split: ~15 us a symbol)

    def solve(self, facts: list[Fact]) -> ShownAtoms:
        """The shown atoms of the one model for one report's input facts."""
        return self.solve_many([facts])[0]


def _models(ctl: clingo.Control) -> list[list[clingo.Symbol]]:
    """The shown atoms of each model."""
    models: list[list[clingo.Symbol]] = []
    _solve_within(ctl, on_model=lambda model: models.append(model.symbols(shown=True)))
    return models


def _solve_within(ctl: clingo.Control, **callbacks) -> None:
    """Solve, stopped at the job's deadline (isolation.remaining)."""
    if isolation.solve_interrupted(ctl, isolation.remaining(), **callbacks).interrupted:
        raise isolation.out_of_time()


def engine(policy: str, rules: Path | None = None) -> PolicyEngine:
    """The process-wide engine of a policy, bundled or under another rules folder."""
    return _engine(policy, rules)     # one cache key however `rules` was passed


@cache
def _engine(policy: str, rules: Path | None) -> PolicyEngine:
    return PolicyEngine(policy, rules)


def hold_to_contract(pack: Pack, limits: isolation.Limits | None = None) -> None:
    """Confine every rules file of the pack's folder and of its core, loaded or not (a
    version of a pack is refused whole, before any of it is read); then hold what a report
    is ruled with to the contract (index_pack), so that no command (check, diff, coverage)
    accepts a pack `rule` and `test` refuse.  Files prepared before for ruling, or held to
    it before, byte for byte, met it then: their rewrite is not done again (~0.7 s for dci).
    The rewrite is a job under `limits` (the process's by default)."""
    pack.confined(pack.every_file)
    PolicyEngine(pack).hold_to_contract(limits)
