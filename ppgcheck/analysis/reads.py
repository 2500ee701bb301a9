"""What a pack's rules read, and the numbers they compare it against.

The scenario space (scenarios.py) is generated from this: the observation
kinds, modifiers, count keys, headers and history the pack's rules read,
and the thresholds their comparisons name.  No scenario is written by hand:
every value comes from the pack or the vocabulary.  Reading the pack also
finds its static citation problems (a rule without its section string, or
under no section banner).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import clingo
from clingo import ast

from ppgcheck.cache import cached_json
from ppgcheck.contract import INPUTS
from ppgcheck.packs.pack import Pack
from ppgcheck.packs.program import Program, Statement, constant, ground_facts, symbol_value
from ppgcheck.language.vocabulary import Vocabulary, pack_vocabulary

HEADER_NUMBERS = ("tier", "round", "best_of", "day", "ruling_minutes")
HEADER_VALUES = ("rel", "event_kind", "game_kind", "round_kind")
HISTORY_READERS = {"prior_today", "prior_event", "prior", "history"}
# The core's helpers over the match state (rules/core/output.lp): reading one reads these states.
STATE_HELPERS = {"time_called": ("time_called_during_turn", "time_called_between_games",
                                 "conceded_after_time_before_action", "conceded_after_time_after_action",
                                 "extra_turns_over", "tiebreaker_over", "kept_going")}
TALLY_HELPERS = {"tally_more", "tally_tied"}
# Facts whose numbers are not thresholds.
NOT_THRESHOLDS = {"penalty_rank", "stage", "time_extension", "obs_id", "person_id", "history_nth"}
# heads whose section string locates the section
LOCATING_HEADS = ("base_penalty", "adjustment", "not_infraction", "fix", "note")
# where an input atom names the constant a form of the report language must produce
_READ_POSITIONS = {("observation", 3): 2, ("modifier", 2): 1, ("modifier", 3): 1, ("count", 3): 1,
                   ("match_state", 2): 0, ("tally", 3): 0}


@dataclass
class PackReads:
    """What a pack's rules read, and the numbers they compare it against."""

    observation_kinds: set[str] = field(default_factory=set)
    modifiers: set[str] = field(default_factory=set)
    count_keys: set[str] = field(default_factory=set)
    headers: set[str] = field(default_factory=set)
    header_constants: dict[str, set] = field(default_factory=dict)
    when_values: set[tuple[str, int | None]] = field(default_factory=set)
    thresholds: set[int] = field(default_factory=set)
    history_thresholds: set[int] = field(default_factory=set)
    reads_history: bool = False
    reads_history_penalty: set[str] = field(default_factory=set)
    infractions: dict[str, str] = field(default_factory=dict)       # id -> section
    penalties: list[tuple[str, int]] = field(default_factory=list)  # (id, rank)
    cap: tuple[str, str] | None = None                              # (penalty, section)
    section_locations: dict[str, tuple[str, int]] = field(default_factory=dict)
    citation_problems: list[tuple[str, str, int, str]] = field(default_factory=list)
    wildcards: list[str] = field(default_factory=list)
    infraction_heads: list[tuple[str, int, str]] = field(default_factory=list)  # infraction(O,P,const) rules
    vocab: Vocabulary | None = None      # the language of the pack's reports (the core's and the pack's forms)
    read_at: dict[tuple[str, str], tuple[str, int]] = field(default_factory=dict)  # (what, name) -> first read
    unproduced: list[tuple[str, str, str, int]] = field(default_factory=list)  # (what, name, file, line)
    states: set[str] = field(default_factory=set)     # match-state kinds the rules read
    tallies: set[str] = field(default_factory=set)    # tally keys the rules read

    def merged(self, other: "PackReads") -> "PackReads":
        """The scenario bounds of two versions together (`diff`): what either reads."""
        out = PackReads()
        for name in ("observation_kinds", "modifiers", "count_keys", "headers", "when_values",
                     "thresholds", "history_thresholds", "reads_history_penalty", "states", "tallies"):
            setattr(out, name, set(getattr(self, name)) | set(getattr(other, name)))
        out.header_constants = {k: set(self.header_constants.get(k, set())) | set(other.header_constants.get(k, set()))
                                for k in set(self.header_constants) | set(other.header_constants)}
        out.reads_history = self.reads_history or other.reads_history
        out.infractions = {**other.infractions, **self.infractions}
        out.penalties = self.penalties or other.penalties
        out.cap = self.cap or other.cap
        out.section_locations = {**other.section_locations, **self.section_locations}
        out.wildcards = list(dict.fromkeys(self.wildcards + other.wildcards))
        # scenarios are written in the first version's language: what only the other's forms
        # say cannot be a scenario of both
        out.vocab = self.vocab
        if self.vocab is not None:
            out.observation_kinds &= set(self.vocab.observations)
            out.modifiers &= set(self.vocab.modifiers)
            out.states &= set(self.vocab.states)
            out.tallies &= set(self.vocab.tallies)
        return out


    # --- as JSON, for the cache (read_pack_cached) ------------------------------------
    _SETS = ("observation_kinds", "modifiers", "count_keys", "headers", "thresholds", "history_thresholds",
             "reads_history_penalty", "states", "tallies")
    _ROWS = ("penalties", "citation_problems", "infraction_heads", "unproduced")

    def to_json(self) -> dict | None:
        """Every field but the vocabulary as JSON values; None where one holds a value JSON
        does not tell apart from another (a clingo symbol, say)."""
        def plain(value) -> bool:
            return value is None or type(value) in (str, int, bool)
        data = {name: sorted(getattr(self, name), key=repr) for name in self._SETS}
        data.update({name: [list(row) for row in getattr(self, name)] for name in self._ROWS})
        data["header_constants"] = {h: sorted(values, key=repr) for h, values in self.header_constants.items()}
        data["when_values"] = sorted((list(v) for v in self.when_values), key=repr)
        data["reads_history"] = self.reads_history
        data["infractions"] = self.infractions
        data["cap"] = list(self.cap) if self.cap else None
        data["section_locations"] = {s: list(at) for s, at in self.section_locations.items()}
        data["wildcards"] = self.wildcards
        data["read_at"] = [[what, name, *at] for (what, name), at in self.read_at.items()]
        leaves = [*(v for name in self._SETS for v in data[name]),
                  *(v for name in self._ROWS for row in data[name] for v in row),
                  *(v for values in data["header_constants"].values() for v in values),
                  *(v for row in data["when_values"] for v in row), *self.infractions.values(),
                  *(v for row in data["read_at"] for v in row)]
        return data if all(plain(v) for v in leaves) else None

    @classmethod
    def from_json(cls, data: dict, vocab: Vocabulary | None) -> "PackReads":
        reads = cls(**{name: set(data[name]) for name in cls._SETS},
                    **{name: [tuple(row) for row in data[name]] for name in cls._ROWS})
        reads.header_constants = {h: set(values) for h, values in data["header_constants"].items()}
        reads.when_values = {tuple(v) for v in data["when_values"]}
        reads.reads_history = data["reads_history"]
        reads.infractions = data["infractions"]
        reads.cap = tuple(data["cap"]) if data["cap"] else None
        reads.section_locations = {s: tuple(at) for s, at in data["section_locations"].items()}
        reads.wildcards = data["wildcards"]
        reads.read_at = {(what, name): (file, line) for what, name, file, line in data["read_at"]}
        reads.vocab = vocab
        return reads


def _function(term: ast.AST) -> tuple[str, list[ast.AST]]:
    """A function term's name and arguments; ("", []) for any other term."""
    if term.ast_type == ast.ASTType.Function:
        return term.name, list(term.arguments)
    if term.ast_type == ast.ASTType.SymbolicTerm and term.symbol.type == clingo.SymbolType.Function:
        return term.symbol.name, [ast.SymbolicTerm(term.location, a) for a in term.symbol.arguments]
    return "", []


def _var(term: ast.AST) -> str | None:
    return term.name if term.ast_type == ast.ASTType.Variable else None


def _ints(term: ast.AST) -> list[int]:
    """Integer literals in a term (thresholds): `10`, `L-1`, `N+2`."""
    c = constant(term)
    if isinstance(c, int):
        return [c]
    if term.ast_type == ast.ASTType.BinaryOperation:
        return _ints(term.left) + _ints(term.right)
    if term.ast_type == ast.ASTType.UnaryOperation:
        return _ints(term.argument)
    return []


def _variables(term: ast.AST) -> set[str]:
    out: set[str] = set()

    class Variables(ast.Transformer):
        def visit_Variable(self, node):
            out.add(node.name)
            return node
    Variables()(term)
    return out


class _Reading:
    """One pass over a pack's rules, filling in its PackReads."""

    def __init__(self, program: Program, pack: Pack) -> None:
        self.pack = pack
        self.reads = PackReads()
        # `#const upg40 = "UPG 40 ...".` names a section string
        self.consts = {st.name: st.value.symbol for st in program.nodes
                       if st.ast_type == ast.ASTType.Definition and st.value.ast_type == ast.ASTType.SymbolicTerm}
        # indirect sources: (pred, arity, position) whose fact constants feed an input argument
        self.sources: dict[str, set[tuple[str, int, int]]] = {"observation": set(), "modifier": set()}

    def string(self, term: ast.AST) -> str | None:
        c = constant(term)
        if isinstance(c, str) and c in self.consts:
            c = self.consts[c]
        if isinstance(c, clingo.Symbol) and c.type == clingo.SymbolType.String:
            return c.string
        return None

    def rule(self, st: Statement) -> None:
        reads, node = self.reads, st.node
        head = st.head_atom()
        head_name, head_args = (head.name, list(head.terms)) if head else ("", [])
        if not node.body:       # facts: numbers in tables are thresholds (late_range(card, 1, 5))
            if head_name == "section" and len(head_args) == 2:
                sec = self.string(head_args[1])
                if sec is not None:
                    reads.section_locations.setdefault(sec, (st.file, st.line))
            if head_name and head_name not in NOT_THRESHOLDS:
                for arg in head_args:
                    reads.thresholds.update(_ints(arg))
            return
        self.citation(st, head_name, head_args)
        for arg in head_args:
            sec = self.string(arg)
            if sec and head_name in LOCATING_HEADS:
                reads.section_locations.setdefault(sec, (st.file, st.line))
        if head_name == "adjustment" and len(head_args) == 8:
            tname, targs = _function(head_args[5])
            if constant(head_args[3]) == 3 and tname == "cap" and targs and isinstance(constant(targs[0]), str):
                reads.cap = reads.cap or (constant(targs[0]), self.string(head_args[7]) or "")
        body = [r for r in st.body if r.atom.plain]
        numeric_vars: dict[str, str] = {}      # variables bound to numeric inputs, by what they count
        wildcard: dict[str, list[str]] = {"observation": [], "modifier": []}
        for read in body:
            self.note_read(read.atom.name, list(read.atom.terms), st)
            self.atom(read.atom.name, list(read.atom.terms), numeric_vars, wildcard)
        # one hop: a variable kind bound by a helper table
        for key, names in wildcard.items():
            for vname in names:
                for read in body:
                    name, args = read.atom.name, read.atom.terms
                    if not read.positive or (name, len(args)) in INPUTS:
                        continue
                    self.sources[key].update((name, len(args), i) for i, a in enumerate(args) if _var(a) == vname)
        # thresholds: integer literals compared with anything
        for terms in st.comparisons:
            ints = [i for t in terms for i in _ints(t)]
            used = set().union(*(_variables(t) for t in terms))
            if any(numeric_vars.get(v) == "history" for v in used):
                reads.history_thresholds.update(ints)
            else:
                reads.thresholds.update(ints)

    def atom(self, name: str, args: list[ast.AST], numeric_vars: dict[str, str],
             wildcard: dict[str, list[str]]) -> None:
        reads, arity = self.reads, len(args)
        if name in HEADER_NUMBERS + HEADER_VALUES + ("when",) and (name, arity) in INPUTS:
            reads.headers.add(name)
        if name == "observation" and arity == 3:
            self.named(args[2], reads.observation_kinds, wildcard["observation"])
        elif name == "modifier" and arity in (2, 3):
            self.named(args[1], reads.modifiers, wildcard["modifier"])
        elif name == "count" and arity == 3:
            if isinstance(constant(args[1]), str):
                reads.count_keys.add(constant(args[1]))
            if _var(args[2]):
                numeric_vars[_var(args[2])] = "count"
        elif name in HEADER_NUMBERS and arity == 1:
            c = constant(args[0])
            if isinstance(c, int):
                reads.header_constants.setdefault(name, set()).add(c)
                reads.thresholds.add(c)
            elif _var(args[0]):
                numeric_vars[_var(args[0])] = name
        elif name in HEADER_VALUES and arity == 1:
            if isinstance(constant(args[0]), str):
                reads.header_constants.setdefault(name, set()).add(constant(args[0]))
        elif name == "when" and arity == 1:
            self.when(args[0])
        elif name == "match_state" and arity == 2:
            reads.states |= {constant(args[0])} if isinstance(constant(args[0]), str) else {"*"}
        elif name in STATE_HELPERS and arity == 0:
            reads.states.update(STATE_HELPERS[name])
        elif (name == "tally" and arity == 3) or (name in TALLY_HELPERS and arity in (1, 2)):
            reads.tallies |= {constant(args[0])} if isinstance(constant(args[0]), str) else {"*"}
        elif name in HISTORY_READERS:
            reads.reads_history = True
            if name in ("prior_today", "prior_event") and arity == 3 and _var(args[2]):
                numeric_vars[_var(args[2])] = "history"
            if name in ("history", "prior") and arity == 5 and isinstance(constant(args[1]), str):
                reads.reads_history_penalty.add(constant(args[1]))

    def note_read(self, name: str, args: list[ast.AST], st: Statement) -> None:
        """Where the rules first read an input constant (an observation kind, a modifier, a count
        key, a header value), for the finding when no form of the language produces it."""
        position = _READ_POSITIONS.get((name, len(args)))
        if position is None and name in HEADER_VALUES + ("when",) and len(args) == 1:
            position = 0
        if position is None:
            return
        value = constant(args[position])
        if name == "when" and not isinstance(value, str):
            value = _function(args[position])[0]
        if isinstance(value, str) and value:
            self.reads.read_at.setdefault((name, value), (st.file, st.line))

    @staticmethod
    def named(term: ast.AST, found: set[str], variables: list[str]) -> None:
        """A kind read by name is found; one read through a variable is followed (one hop)."""
        if isinstance(constant(term), str):
            found.add(constant(term))
        elif _var(term):
            variables.append(_var(term))

    def when(self, term: ast.AST) -> None:
        reads = self.reads
        if isinstance(constant(term), str):
            reads.when_values.add((constant(term), None))
            return
        name, args = _function(term)
        if name:
            n = constant(args[0]) if args else None
            reads.when_values.add((name, n if isinstance(n, int) else None))
            if isinstance(n, int):
                reads.thresholds.add(n)
        elif _var(term):
            reads.when_values.add(("*", None))

    def citation(self, st: Statement, head_name: str, head_args: list[ast.AST]) -> None:
        reads = self.reads
        where = (st.file, st.line)
        cited_arg = {"base_penalty": 4, "adjustment": 7}.get(head_name)
        if cited_arg is not None and len(head_args) > cited_arg:
            arg = head_args[cited_arg]
            sec = self.string(arg)
            if sec is not None and not sec.strip():
                reads.citation_problems.append(("error", *where, f"{head_name} rule cites an empty section"))
            elif sec is None and _var(arg) is None:
                reads.citation_problems.append(("error", *where, f"{head_name} rule has no section string"))
        if head_name == "infraction" and len(head_args) == 3 and isinstance(constant(head_args[2]), str):
            reads.infraction_heads.append((*where, constant(head_args[2])))
        if head_name in ("infraction", "base_penalty", "adjustment"):
            first = self.pack.first_banner(st.file)
            if not first or first > st.line:
                reads.citation_problems.append(("warning", *where,
                                                f"{head_name} rule sits under no section banner (`% --- Sec ---`)"))

    def finish(self, facts: dict, vocab: Vocabulary) -> PackReads:
        """Resolve the one-hop sources against the pack's fact tables, and read its tables."""
        reads = self.reads
        reads.vocab = vocab
        for key, found in self.sources.items():
            table = vocab.observations if key == "observation" else vocab.modifiers
            into = reads.observation_kinds if key == "observation" else reads.modifiers
            for pred, arity, pos in found:
                names = {v for v in (symbol_value(s.arguments[pos]) for s in facts.get((pred, arity), []))
                         if isinstance(v, str)}
                into.update(n for n in names if n in table)
                if not names:
                    reads.wildcards.append(f"{key} read through {pred}/{arity} with no fact table")
        reads.unproduced = _unproduced(reads.read_at, vocab)
        reads.observation_kinds &= set(vocab.observations)
        reads.modifiers &= set(vocab.modifiers)
        # a state or tally read through a variable: every one the language has
        reads.states = set(vocab.states) if "*" in reads.states else reads.states & set(vocab.states)
        reads.tallies = set(vocab.tallies) if "*" in reads.tallies else reads.tallies & set(vocab.tallies)
        for s in facts.get(("section", 2), []):
            if s.arguments[1].type == clingo.SymbolType.String:
                reads.infractions[s.arguments[0].name] = s.arguments[1].string
        reads.penalties = sorted(((s.arguments[0].name, s.arguments[1].number)
                                  for s in facts.get(("penalty_rank", 2), [])
                                  if s.arguments[1].type == clingo.SymbolType.Number), key=lambda t: t[1])
        declared = facts.get(("repeat_cap", 2), [])
        if declared:
            reads.cap = (declared[0].arguments[0].name, declared[0].arguments[1].string)
        for (fname, line, inf) in reads.infraction_heads:   # classified under an id without section/2
            if inf not in reads.infractions:
                reads.citation_problems.append(("error", fname, line,
                                                f"infraction `{inf}` has no section(…, \"Sec\") fact"))
        return reads


def _unproduced(read_at: dict[tuple[str, str], tuple[str, int]], vocab: Vocabulary) -> list[tuple[str, str, str, int]]:
    """The input constants the rules read that no form of the language produces: a rule
    reading one can never fire from a report."""
    counted = {s for forms in vocab.observations.values() for f in forms for s in f.slots}
    counted |= set(vocab.counted_modifiers.values())
    known = {"observation": set(vocab.observations), "modifier": set(vocab.modifiers), "count": counted,
             "match_state": set(vocab.states), "tally": set(vocab.tallies), "when": set(vocab.when),
             **{h: set(vocab.values.get(h, [])) for h in HEADER_VALUES}}
    return [(what, name, file, line) for (what, name), (file, line) in sorted(read_at.items(), key=lambda i: i[1])
            if name not in known[what]]


def read_pack(pack: Pack, vocab: Vocabulary | None = None) -> PackReads:
    """What the pack's own rules read (the core's are the same for every pack); `vocab` is
    the language of its reports (by default the pack's: the core's forms and its own)."""
    program = pack.program
    reading = _Reading(program, pack)
    for st in program.statements:
        if st.kind == ast.ASTType.Rule:
            reading.rule(st)
    return reading.finish(ground_facts(program), vocab or pack_vocabulary(pack))


def read_pack_cached(pack: Pack) -> PackReads:
    """read_pack(pack), kept in the cache (cache.py) under the pack's and the core
    vocabulary's bytes, where they are (and the package's code: cache.py)."""
    files = [pack.core / "vocabulary.lp", *pack.files]
    fresh: list[PackReads] = []      # read here (a miss): used as it is

    def read() -> dict | None:
        fresh.append(read_pack(pack))
        return fresh[0].to_json()
    data = cached_json(f"reads-clingo{clingo.__version__}", files, read, salt=repr([str(f) for f in files]))
    if fresh:
        return fresh[0]
    return read_pack(pack) if data is None else PackReads.from_json(data, pack_vocabulary(pack))
