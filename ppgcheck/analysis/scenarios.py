"""The scenario space of a policy pack, read from the pack itself.

`ppgcheck check` grounds the pack over rules/core/scenarios.lp instead of
rules/core/inputs.lp.  scenarios.lp holds the choice rules; this module reads
the pack's own rules (clingo's AST) to find what they read — observation kinds,
modifiers, count keys, headers, history — and the numbers they compare inputs
against, and turns that into `scen_*` facts that bound the choice rules.  No
scenario is written by hand: every value comes from the pack or the vocabulary.

It also holds the two AST rewrites the check needs: tagging every pack rule
with a `chk_fired("file:line")` twin (dead rules), and renaming a whole program
into a second copy (monotonicity compares two copies side by side); and
leaving out the rules nothing the check looks at depends on (needed_only).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

import clingo
from clingo import ast

from ppgcheck.engine import confine
from ppgcheck.language.vocabulary import Vocabulary, vocabulary, vocabulary_of_files
from ppgcheck.resources import core_dir

# Input predicates of the report language (rules/core/CONTRACT.md).
INPUTS = {("person", 2), ("rel", 1), ("tier", 1), ("event_kind", 1), ("game_kind", 1),
          ("round", 1), ("round_kind", 1), ("best_of", 1), ("day", 1), ("when", 1),
          ("ruling_minutes", 1), ("judge_call", 2), ("observation", 3), ("other_person", 2),
          ("modifier", 2), ("modifier", 3), ("count", 3), ("history", 5), ("match_state", 2), ("tally", 3)}
# The core's helpers over the match state (rules/core/output.lp): reading one reads these states.
STATE_HELPERS = {"time_called": ("time_called_during_turn", "time_called_between_games",
                                 "conceded_after_time_before_action", "conceded_after_time_after_action",
                                 "extra_turns_over", "tiebreaker_over", "kept_going")}
TALLY_HELPERS = {"tally_more", "tally_tied"}
HEADER_NUMBERS = ("tier", "round", "best_of", "day", "ruling_minutes")
HEADER_VALUES = ("rel", "event_kind", "game_kind", "round_kind")
HISTORY_READERS = {"prior_today", "prior_event", "prior", "history"}
# Facts whose numbers are not thresholds.
NOT_THRESHOLDS = {"penalty_rank", "stage", "time_extension", "obs_id", "person_id", "history_nth"}
# Modifiers of the language that exclude each other: a report holding both says nothing.
EXCLUSIVE = [
    ("intent", ("on_purpose", "accidental")),
    ("discovery", ("caught_at_once", "caught_before_next_action", "caught_within_turn_cycle",
                   "caught_later")),
    ("repair", ("simple_rewind_possible", "partial_fix_possible", "full_rewind_possible",
                "cannot_be_fixed")),
    ("advantage", ("advantage", "significant_advantage", "strategic_advantage", "no_advantage")),
    ("result", ("visible_result", "hidden_result")),
    ("deck_order", ("from_randomized_deck", "from_non_random_deck")),
    ("identifiable", ("extras_identifiable", "extras_not_identifiable")),
    ("difference", ("minor_difference", "big_difference")),
    ("request", ("requested", "unrequested")),
    ("pattern", ("with_pattern", "without_pattern")),
]
REL_ORDER = ("casual", "regular", "competitive", "professional")
# Count keys where a larger number is a worse fact (monotonicity); `intellect` is not.
WORSE_KEYS = {"minutes", "cards", "cards_off"}


@dataclass
class PackReads:
    """What a pack's rules read, and the numbers they compare it against."""

    files: list[Path]
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
    rules: list[tuple[str, int, str]] = field(default_factory=list)  # (file, line, head text)
    citation_problems: list[tuple[str, str, int, str]] = field(default_factory=list)
    wildcards: list[str] = field(default_factory=list)
    infraction_heads: list[tuple[str, int, str]] = field(default_factory=list)  # infraction(O,P,const) rules
    vocab: Vocabulary | None = None      # the language of the pack's reports (the core's and the pack's forms)
    read_at: dict[tuple[str, str], tuple[str, int]] = field(default_factory=dict)  # (what, name) -> first read
    unproduced: list[tuple[str, str, str, int]] = field(default_factory=list)  # (what, name, file, line)
    states: set[str] = field(default_factory=set)     # match-state kinds the rules read
    tallies: set[str] = field(default_factory=set)    # tally keys the rules read


# ---------------------------------------------------------------------------
# reading the pack
# ---------------------------------------------------------------------------

def parse_statements(files: list[Path]) -> list[ast.AST]:
    """The statements of the files, confined (ppgcheck/engine/confine.py)."""
    out: list[ast.AST] = []
    confine.parse_files(files, out.append)
    return out


def _atoms(node: ast.AST, out: list, sign: int = 0) -> None:
    """Every symbolic atom under a body element, with its sign."""
    t = node.ast_type
    if t == ast.ASTType.Literal:
        if node.atom.ast_type == ast.ASTType.SymbolicAtom:
            out.append((node.atom.symbol, node.sign))
        elif node.atom.ast_type == ast.ASTType.BodyAggregate:
            for el in node.atom.elements:
                for lit in el.condition:
                    _atoms(lit, out)
        elif node.atom.ast_type == ast.ASTType.Aggregate:
            for el in node.atom.elements:
                _atoms(el, out)
    elif t == ast.ASTType.ConditionalLiteral:
        _atoms(node.literal, out)
        for lit in node.condition:
            _atoms(lit, out)


def _comparisons(node: ast.AST, out: list) -> None:
    t = node.ast_type
    if t == ast.ASTType.Literal and node.atom.ast_type == ast.ASTType.Comparison:
        out.append(node.atom)
    elif t == ast.ASTType.Literal and node.atom.ast_type == ast.ASTType.BodyAggregate:
        for g in (node.atom.left_guard, node.atom.right_guard):
            if g is not None:
                out.append(("guard", g.term))
        for el in node.atom.elements:
            for lit in el.condition:
                _comparisons(lit, out)
    elif t == ast.ASTType.ConditionalLiteral:
        _comparisons(node.literal, out)
        for lit in node.condition:
            _comparisons(lit, out)


def _fn(term: ast.AST) -> tuple[str, list]:
    if term.ast_type == ast.ASTType.Function:
        return term.name, list(term.arguments)
    if term.ast_type == ast.ASTType.SymbolicTerm and term.symbol.type == clingo.SymbolType.Function:
        return term.symbol.name, [ast.SymbolicTerm(term.location, a) for a in term.symbol.arguments]
    return "", []


def _const(term: ast.AST):
    """A constant term's value: str for a name, int for a number, clingo.Symbol else; None if not ground."""
    if term.ast_type == ast.ASTType.SymbolicTerm:
        s = term.symbol
        if s.type == clingo.SymbolType.Number:
            return s.number
        if s.type == clingo.SymbolType.Function and not s.arguments:
            return s.name
        return s
    if term.ast_type == ast.ASTType.Function and not term.arguments:
        return term.name
    if term.ast_type == ast.ASTType.UnaryOperation and term.argument.ast_type == ast.ASTType.SymbolicTerm:
        s = term.argument.symbol
        if s.type == clingo.SymbolType.Number:
            return -s.number
    return None


def _var(term: ast.AST) -> str | None:
    return term.name if term.ast_type == ast.ASTType.Variable else None


def _ints(term: ast.AST) -> list[int]:
    """Integer literals in a term (thresholds): `10`, `L-1`, `N+2`."""
    c = _const(term)
    if isinstance(c, int):
        return [c]
    if term.ast_type == ast.ASTType.BinaryOperation:
        return _ints(term.left) + _ints(term.right)
    if term.ast_type == ast.ASTType.UnaryOperation:
        return _ints(term.argument)
    return []


def _vars(term: ast.AST) -> set[str]:
    out: set[str] = set()

    class V(ast.Transformer):
        def visit_Variable(self, node):
            out.add(node.name)
            return node
    V()(term)
    return out


_CONSTS: dict[str, clingo.Symbol] = {}


def _string(term: ast.AST) -> str | None:
    c = _const(term)
    if isinstance(c, str) and c in _CONSTS:
        c = _CONSTS[c]
    if isinstance(c, clingo.Symbol) and c.type == clingo.SymbolType.String:
        return c.string
    return None


def ground_facts(statements: list[ast.AST]) -> dict[tuple[str, int], list[clingo.Symbol]]:
    """Ground only the pack's facts (rules without a body): helper tables like
    `grv_observation(broke_game_rule; left_state_illegal)`."""
    ctl = clingo.Control(["--warn=none"])
    with ast.ProgramBuilder(ctl) as bld:
        for st in statements:
            if (st.ast_type == ast.ASTType.Rule and not st.body and
                    st.head.ast_type == ast.ASTType.Literal) or st.ast_type == ast.ASTType.Definition:
                bld.add(st)
    ctl.ground([("base", [])])
    out: dict[tuple[str, int], list[clingo.Symbol]] = {}
    for a in ctl.symbolic_atoms:
        if a.is_fact:
            out.setdefault((a.symbol.name, len(a.symbol.arguments)), []).append(a.symbol)
    return out


def symbol_value(s: clingo.Symbol):
    """A number or constant as its Python value; any other symbol as itself."""
    if s.type == clingo.SymbolType.Number:
        return s.number
    if s.type == clingo.SymbolType.Function and not s.arguments:
        return s.name
    return s


def read_pack(pack_files: list[Path], vocab: Vocabulary | None = None) -> PackReads:
    """What the pack's rules read; `vocab` is the language of its reports (by default the
    bundled core's with the forms of these files)."""
    if vocab is None:
        vocab = vocabulary_of_files(core_dir() / "vocabulary.lp", pack_files,
                                    pack_files[0].parent.name if pack_files else None)
    statements = parse_statements(pack_files)
    facts = ground_facts(statements)
    _CONSTS.clear()
    for st in statements:  # `#const upg40 = "UPG 40 ...".` names a section string
        if st.ast_type == ast.ASTType.Definition and st.value.ast_type == ast.ASTType.SymbolicTerm:
            _CONSTS[st.name] = st.value.symbol
    reads = PackReads(files=list(pack_files), vocab=vocab)
    banners = _banner_lines(pack_files)
    # indirect sources: (pred, arity, position) whose fact constants feed an input argument
    sources: dict[str, set[tuple[str, int, int]]] = {"observation": set(), "modifier": set(),
                                                     "count_key": set()}
    wildcard: dict[str, list[str]] = {"observation": [], "modifier": []}

    for st in statements:
        if st.ast_type != ast.ASTType.Rule:
            continue
        loc = st.location.begin
        head_name, head_args = ("", [])
        if st.head.ast_type == ast.ASTType.Literal and st.head.atom.ast_type == ast.ASTType.SymbolicAtom:
            head_name, head_args = _fn(st.head.atom.symbol)
        # facts: numbers in tables are thresholds (late_range(card, 1, 5))
        if not st.body:
            if head_name == "section" and len(head_args) == 2:
                sec = _string(head_args[1])
                if sec is not None:
                    reads.section_locations.setdefault(sec, (loc.filename, loc.line))
            if head_name and head_name not in NOT_THRESHOLDS:
                for arg in head_args:
                    reads.thresholds.update(_ints(arg))
            continue
        reads.rules.append((loc.filename, loc.line, head_name))
        _citation(reads, st, head_name, head_args, banners)
        for arg in head_args:
            sec = _string(arg)
            if sec and head_name in ("base_penalty", "adjustment", "not_infraction", "fix", "note"):
                reads.section_locations.setdefault(sec, (loc.filename, loc.line))
        if head_name == "adjustment" and len(head_args) == 8:
            stage = _const(head_args[3])
            tname, targs = _fn(head_args[5])
            if stage == 3 and tname == "cap" and targs and isinstance(_const(targs[0]), str):
                reads.cap = reads.cap or (_const(targs[0]), _string(head_args[7]) or "")
        atoms: list = []
        comps: list = []
        for el in st.body:
            _atoms(el, atoms)
            _comparisons(el, comps)
        # variables bound to numeric inputs, by what they count
        numeric_vars: dict[str, str] = {}
        for sym, _sign in atoms:
            name, args = _fn(sym)
            arity = len(args)
            _note_read(reads, name, args, loc)
            if name in HEADER_NUMBERS + HEADER_VALUES + ("when",) and (name, arity) in INPUTS:
                reads.headers.add(name)
            if name == "observation" and arity == 3:
                k = _const(args[2])
                if isinstance(k, str):
                    reads.observation_kinds.add(k)
                elif _var(args[2]):
                    wildcard["observation"].append(_var(args[2]))
            elif name == "modifier" and arity in (2, 3):
                m = _const(args[1])
                if isinstance(m, str):
                    reads.modifiers.add(m)
                elif _var(args[1]):
                    wildcard["modifier"].append(_var(args[1]))
            elif name == "count" and arity == 3:
                k = _const(args[1])
                if isinstance(k, str):
                    reads.count_keys.add(k)
                if _var(args[2]):
                    numeric_vars[_var(args[2])] = "count"
            elif name in HEADER_NUMBERS and arity == 1:
                c = _const(args[0])
                if isinstance(c, int):
                    reads.header_constants.setdefault(name, set()).add(c)
                    reads.thresholds.add(c)
                elif _var(args[0]):
                    numeric_vars[_var(args[0])] = name
            elif name in HEADER_VALUES and arity == 1:
                c = _const(args[0])
                if isinstance(c, str):
                    reads.header_constants.setdefault(name, set()).add(c)
            elif name == "when" and arity == 1:
                w = args[0]
                c = _const(w)
                if isinstance(c, str):
                    reads.when_values.add((c, None))
                else:
                    wn, wargs = _fn(w)
                    if wn:
                        n = _const(wargs[0]) if wargs else None
                        reads.when_values.add((wn, n if isinstance(n, int) else None))
                        if isinstance(n, int):
                            reads.thresholds.add(n)
                    elif _var(w):
                        reads.when_values.add(("*", None))
            elif name == "match_state" and arity == 2:
                k = _const(args[0])
                reads.states |= {k} if isinstance(k, str) else set(vocab.states)
            elif name in STATE_HELPERS and arity == 0:
                reads.states.update(STATE_HELPERS[name])
            elif (name == "tally" and arity == 3) or (name in TALLY_HELPERS and arity in (1, 2)):
                k = _const(args[0])
                reads.tallies |= {k} if isinstance(k, str) else set(vocab.tallies)
            elif name in HISTORY_READERS:
                reads.reads_history = True
                if name in ("prior_today", "prior_event") and arity == 3 and _var(args[2]):
                    numeric_vars[_var(args[2])] = "history"
                if name in ("history", "prior") and arity == 5:
                    pen = _const(args[1])
                    if isinstance(pen, str):
                        reads.reads_history_penalty.add(pen)
        # one hop: a variable kind bound by a helper table
        for key, names in wildcard.items():
            for vname in names:
                for sym, sign in atoms:
                    name, args = _fn(sym)
                    if sign != 0 or (name, len(args)) in INPUTS:
                        continue
                    for i, a in enumerate(args):
                        if _var(a) == vname:
                            sources[key].add((name, len(args), i))
            names.clear()
        # thresholds: integer literals compared with anything
        for comp in comps:
            terms = [comp[1]] if isinstance(comp, tuple) else [comp.term] + [g.term for g in comp.guards]
            ints = [i for t in terms for i in _ints(t)]
            used = set().union(*(_vars(t) for t in terms))
            if any(numeric_vars.get(v) == "history" for v in used):
                reads.history_thresholds.update(ints)
            else:
                reads.thresholds.update(ints)
    # resolve the one-hop sources against the pack's fact tables
    for key, found in sources.items():
        for pred, arity, pos in found:
            values = [symbol_value(s.arguments[pos]) for s in facts.get((pred, arity), [])]
            names = {v for v in values if isinstance(v, str)}
            table = vocab.observations if key == "observation" else vocab.modifiers
            if key == "observation":
                reads.observation_kinds.update(n for n in names if n in table)
            else:
                reads.modifiers.update(n for n in names if n in table)
            if not names:
                reads.wildcards.append(f"{key} read through {pred}/{arity} with no fact table")
    _unproduced(reads, vocab)
    reads.observation_kinds &= set(vocab.observations)
    reads.modifiers &= set(vocab.modifiers)
    reads.states &= set(vocab.states)
    reads.tallies &= set(vocab.tallies)
    for s in facts.get(("section", 2), []):
        if s.arguments[1].type == clingo.SymbolType.String:
            reads.infractions[s.arguments[0].name] = s.arguments[1].string
    reads.penalties = sorted(((s.arguments[0].name, s.arguments[1].number)
                              for s in facts.get(("penalty_rank", 2), [])
                              if s.arguments[1].type == clingo.SymbolType.Number), key=lambda t: t[1])
    declared = facts.get(("repeat_cap", 2), [])
    if declared:
        reads.cap = (declared[0].arguments[0].name, declared[0].arguments[1].string)
    # citation: infractions classified under an id without section/2
    for (fname, line, inf) in reads.infraction_heads:
        if inf not in reads.infractions:
            reads.citation_problems.append(("error", fname, line,
                                            f"infraction `{inf}` has no section(…, \"Sec\") fact"))
    return reads


def _note_read(reads: PackReads, name: str, args: list, loc) -> None:
    """Where the rules first read an input constant (an observation kind, a modifier, a count
    key, a header value), for the finding when no form of the language produces it."""
    position = {("observation", 3): 2, ("modifier", 2): 1, ("modifier", 3): 1, ("count", 3): 1,
                ("match_state", 2): 0, ("tally", 3): 0}.get((name, len(args)))
    if position is None and name in HEADER_VALUES + ("when",) and len(args) == 1:
        position = 0
    if position is None:
        return
    value = _const(args[position])
    if name == "when" and not isinstance(value, str):
        value = _fn(args[position])[0]
    if isinstance(value, str) and value:
        reads.read_at.setdefault((name, value), (loc.filename, loc.line))


def _unproduced(reads: PackReads, vocab: Vocabulary) -> None:
    """The input constants the rules read that no form of the language produces: a rule
    reading one can never fire from a report."""
    counted = {s for forms in vocab.observations.values() for f in forms for s in f.slots}
    counted |= set(vocab.counted_modifiers.values())
    known = {"observation": set(vocab.observations), "modifier": set(vocab.modifiers), "count": counted,
             "match_state": set(vocab.states), "tally": set(vocab.tallies),
             "when": set(vocab.when), **{h: set(vocab.values.get(h, [])) for h in HEADER_VALUES}}
    for (what, name), (file, line) in sorted(reads.read_at.items(), key=lambda item: item[1]):
        if name not in known[what]:
            reads.unproduced.append((what, name, file, line))


_BANNER = re.compile(r"^%\s*-{3}")


def _banner_lines(files: list[Path]) -> dict[str, int]:
    """The first banner line (`% --- PPG 2.5 ...`) of each file, 0 when there is none."""
    out: dict[str, int] = {}
    for f in files:
        first = 0
        for i, line in enumerate(f.read_text(encoding="utf-8").splitlines(), start=1):
            if _BANNER.match(line):
                first = i
                break
        out[str(f)] = first
    return out


def _citation(reads: PackReads, st, head_name: str, head_args: list, banners: dict[str, int]) -> None:
    loc = st.location.begin
    where = (loc.filename, loc.line)
    cited_arg = {"base_penalty": 4, "adjustment": 7}.get(head_name)
    if cited_arg is not None and len(head_args) > cited_arg:
        arg = head_args[cited_arg]
        sec = _string(arg)
        if sec is not None and not sec.strip():
            reads.citation_problems.append(("error", *where, f"{head_name} rule cites an empty section"))
        elif sec is None and _var(arg) is None:
            reads.citation_problems.append(("error", *where, f"{head_name} rule has no section string"))
    if head_name == "infraction" and len(head_args) == 3:
        inf = _const(head_args[2])
        if isinstance(inf, str):
            reads.infraction_heads.append((*where, inf))
    if head_name in ("infraction", "base_penalty", "adjustment"):
        first = banners.get(loc.filename, 0)
        if not first or first > loc.line:
            reads.citation_problems.append(("warning", *where,
                                            f"{head_name} rule sits under no section banner (`% --- Sec ---`)"))


# ---------------------------------------------------------------------------
# the scenario facts
# ---------------------------------------------------------------------------

def _domain(lo: int, hi: int, thresholds: set[int]) -> list[int]:
    vals = {lo, hi}
    for t in thresholds:
        vals.update((t - 1, t, t + 1))
    return sorted(v for v in vals if lo <= v <= hi)


def scenario_facts(reads: PackReads, observations: int = 2, vocab: Vocabulary | None = None) -> str:
    """The `scen_*` facts bounding rules/core/scenarios.lp for this pack (ASP text
    built only from identifiers of the pack and the vocabulary)."""
    vocab = vocab or reads.vocab or vocabulary()
    out: list[str] = [f"scen_max_obs({observations})."]
    kinds = sorted(reads.observation_kinds)
    for k in kinds:
        out.append(f"scen_obs_kind({k}).")
        for slot in vocab.canonical("observation", k).slots:
            if slot not in ("P", "Q"):
                out.append(f"scen_obs_count({k},{slot}).")
    mods = sorted(reads.modifiers)
    for m in mods:
        out.append(f"scen_pmod({m})." if m in vocab.person_modifiers else f"scen_mod({m}).")
        if m in vocab.counted_modifiers:
            out.append(f"scen_mod_count({m},{vocab.counted_modifiers[m]}).")
    for group, members in EXCLUSIVE:
        for m in members:
            if m in reads.modifiers:
                out.append(f"scen_exclusive({group},{m}).")
    keys = {s for k in kinds for s in vocab.canonical("observation", k).slots if s not in ("P", "Q")}
    keys |= {vocab.counted_modifiers[m] for m in mods if m in vocab.counted_modifiers}
    for key in sorted(keys):
        lo, hi = vocab.count_ranges[key]
        values = _domain(lo, hi, reads.thresholds) if key in reads.count_keys else [max(lo, 1) if lo <= 1 <= hi else lo]
        out.extend(f"scen_value({key},{v})." for v in values)
        if key in reads.count_keys and key in WORSE_KEYS:
            out.append(f"scen_worse_key({key}).")
        out.extend(f"scen_next_value({key},{a},{b})." for a, b in zip(values, values[1:]))
    # headers
    out.extend(f"scen_header_value(rel,{r})." for r in vocab.values.get("rel", REL_ORDER))
    out.extend(f"scen_rel_next({a},{b})." for a, b in zip(REL_ORDER, REL_ORDER[1:]))
    for h in ("event_kind", "game_kind", "round_kind"):
        if h in reads.headers:
            out.extend(f"scen_header_value({h},{v})." for v in vocab.values.get(h, []))
    needs_day = "day" in reads.headers or reads.reads_history
    if "round_kind" in reads.headers and "round" not in reads.headers:
        out.append("scen_header_value(round,1).")   # `round: N, swiss` needs a number
    for h in HEADER_NUMBERS:
        if h in reads.headers or (h == "day" and needs_day):
            lo, hi = vocab.header_ranges[h]
            extra = reads.thresholds | set(reads.header_constants.get(h, set()))
            values = _domain(lo, hi, extra) if h != "day" else sorted({1, 2} | {d for d in _domain(lo, hi, reads.header_constants.get(h, set()))})
            out.extend(f"scen_header_value({h},{v})." for v in values)
            if h == "ruling_minutes":
                out.extend(f"scen_next_value(ruling_minutes,{a},{b})." for a, b in zip(values, values[1:]))
            if h == "tier":
                out.extend(f"scen_tier_next({a},{b})." for a, b in zip(values, values[1:]))
    if "when" in reads.headers:
        out.extend(_when_facts(reads, vocab))
    # history
    if reads.reads_history and reads.infractions:
        bound = max([t + 1 for t in reads.history_thresholds if t >= 0] or [2])
        bound = min(bound, 6)
        out.append(f"scen_hist_max({bound}).")
        pens = sorted(reads.reads_history_penalty) or _representative_penalty(reads)
        out.extend(f"scen_hist_pen({p})." for p in pens)
        out.extend(f"scen_hist_inf({i})." for i in sorted(reads.infractions))
        days = [0, 1, 2] if needs_day else [0]
        out.extend(f"scen_hist_day({d})." for d in days)
    if reads.cap:
        out.append(f"chk_cap_pen({reads.cap[0]}).")
    out.extend(_match_state_facts(reads, vocab))
    return "\n".join(out) + "\n"


def _match_state_facts(reads: PackReads, vocab: Vocabulary) -> list[str]:
    """The states of the match the pack reads (with the persons each names), their groups,
    and the tallies it reads, each at two values: equal, or one player ahead."""
    out = []
    for kind in sorted(reads.states):
        persons = [s for s in vocab.canonical("state", kind).slots if s in ("P", "Q")]
        out.append(f"scen_state({kind},{len(persons)}).")
        out.append(f"scen_state_group({vocab.state_groups.get(kind, kind)},{kind}).")
    for key in sorted(reads.tallies):
        lo, hi = vocab.tally_ranges[key]
        out.extend(f"scen_tally_value({key},{v})." for v in range(lo, min(lo + 1, hi) + 1))
    return out


def header_parts(facts: str, header: str, named: set[str]) -> list[tuple[str | None, str]]:
    """The scenario facts split by one header into disjoint parts: (None, the
    space without the header or at a value the pack never names), then
    (value, the space with the header set to it) for each value it names."""
    prefix = f"scen_header_value({header},"
    lines = facts.splitlines()
    values = [line[len(prefix):-2] for line in lines if line.startswith(prefix)]
    rest = "".join(line + "\n" for line in lines if not line.startswith(prefix))
    unnamed = "".join(f"{prefix}{v}).\n" for v in values if v not in named)
    return [(None, rest + unnamed)] + [(v, f"{rest}{prefix}{v}).\n:- not header({header},{v}).\n")
                                       for v in values if v in named]


def kind_parts(facts: str) -> list[str]:
    """The one-observation scenario facts split into disjoint parts, one per
    observation kind (the observation of each part's scenarios is of that kind)."""
    lines = facts.splitlines()
    kinds = [line for line in lines if line.startswith("scen_obs_kind(")]
    rest = "".join(line + "\n" for line in lines if not line.startswith("scen_obs_kind("))
    return [f"{rest}{kind}\n" for kind in kinds]


def _representative_penalty(reads: PackReads) -> list[str]:
    """Every penalty of the ladder: rules may read the most severe prior penalty
    (an upgrade path's next step, the end of the path).  Not a disqualification:
    a disqualified player has no later incident at the event."""
    return ([p for p, _ in reads.penalties if p != "none" and not p.startswith("disqualification")]
            or [p for p, _ in reads.penalties][:1])


def _when_facts(reads: PackReads, vocab: Vocabulary) -> list[str]:
    out = []
    wanted = reads.when_values
    for kind, form in vocab.when.items():
        if ("*", None) not in wanted and not any(k == kind for k, _ in wanted):
            continue
        if form.slots:            # `before round {round}`: a number in a header_range
            key = form.slots[0]
            lo, hi = vocab.header_ranges[key]
            consts = {n for k, n in wanted if k == kind and n is not None}
            values = _domain(lo, hi, consts) if consts else [lo]
            out.extend(f"scen_header_value(when,{kind}({v}))." for v in values)
        else:
            out.append(f"scen_header_value(when,{kind}).")
    return out


# ---------------------------------------------------------------------------
# AST rewrites
# ---------------------------------------------------------------------------

def with_fired(statements: list[ast.AST],
               root: Path | None = None) -> tuple[list[ast.AST], dict[str, tuple[str, int]]]:
    """The statements, and for each rule with a body a twin `chk_fired("file:line") :- Body.`;
    with the tag of each twin's rule."""
    out: list[ast.AST] = []
    tags: dict[str, tuple[str, int]] = {}
    for st in statements:
        out.append(st)
        if st.ast_type == ast.ASTType.Rule and st.body:
            loc = st.location.begin
            name = Path(loc.filename)
            shown = str(name.relative_to(root)) if root and name.is_relative_to(root) else str(name)
            tag = f"{shown}:{loc.line}"
            if tag in tags:
                tag = f"{tag}:{loc.column}"
            tags[tag] = (loc.filename, loc.line)
            head = ast.Literal(st.location, ast.Sign.NoSign, ast.SymbolicAtom(
                ast.Function(st.location, "chk_fired", [ast.SymbolicTerm(st.location, clingo.String(tag))], 0)))
            out.append(ast.Rule(st.location, head, st.body))
    return out, tags


class _Rename(ast.Transformer):
    def __init__(self, prefix: str) -> None:
        self.prefix = prefix

    def visit_SymbolicAtom(self, node):
        sym = node.symbol
        if sym.ast_type == ast.ASTType.Function:
            return node.update(symbol=sym.update(name=self.prefix + sym.name,
                                                 arguments=[self(a) for a in sym.arguments]))
        if sym.ast_type == ast.ASTType.SymbolicTerm and sym.symbol.type == clingo.SymbolType.Function:
            s = sym.symbol
            return node.update(symbol=ast.SymbolicTerm(sym.location, clingo.Function(self.prefix + s.name, s.arguments, s.positive)))
        return node

    def visit_Defined(self, node):
        return node.update(name=self.prefix + node.name)


_NOT_RENAMED = (ast.ASTType.ShowSignature, ast.ASTType.ShowTerm, ast.ASTType.External,
                ast.ASTType.Minimize, ast.ASTType.Definition)


def renamed(statements: list[ast.AST], prefix: str) -> list[ast.AST]:
    """A copy of the statements with every predicate renamed `prefix + name`
    (shows, externals, constants and minimize statements are left out)."""
    rename = _Rename(prefix)
    return [rename(st) for st in statements if st.ast_type not in _NOT_RENAMED]


def renamed_parts(statements: list[ast.AST], parts: list[tuple[list, list, bool]] | None,
                  prefix: str) -> list[tuple[list, list, bool]] | None:
    """statement_parts(renamed(statements, prefix)) from the statements' own
    parts (walking clingo's AST again costs more than renaming)."""
    if parts is None:
        return None

    def pre(atoms: list) -> list:
        return [(n if n.startswith("-") else prefix + n, args) for n, args in atoms]   # as _Rename does
    rename = _Rename(prefix)
    # _Rename leaves a pool's predicates as they are: such statements are read again
    return [(pre(d), pre(r), False) if not pooled else _statement_parts(rename(st))
            for st, (d, r, pooled) in zip(statements, parts) if st.ast_type not in _NOT_RENAMED]


# Every lower-case identifier outside string literals: the predicates (and
# function symbols and constants: a harmless surplus) a statement reads.
_IDENTIFIER = re.compile(r'"(?:[^"\\]|\\.)*"|\b([a-z_][A-Za-z0-9_\']*)')


def _head_names(head: ast.AST) -> set[str]:
    """The predicates a rule head defines (a choice's conditions are read, not defined)."""
    if head.ast_type == ast.ASTType.Literal:
        literals = [head]
    elif head.ast_type in (ast.ASTType.Disjunction, ast.ASTType.Aggregate):
        literals = [el.literal for el in head.elements]
    elif head.ast_type == ast.ASTType.HeadAggregate:
        literals = [el.condition.literal for el in head.elements]
    else:
        literals = []
    return {_fn(lit.atom.symbol)[0] for lit in literals if lit.atom.ast_type == ast.ASTType.SymbolicAtom} - {""}


def _defined_names(statement: ast.AST) -> set[str]:
    """The predicates a rule or an external defines (its condition is read)."""
    if statement.ast_type == ast.ASTType.Rule:
        return _head_names(statement.head)
    if statement.ast_type == ast.ASTType.External:
        return {_fn(statement.atom.symbol)[0]} - {""}
    return set()


def needed_only(statements: list[ast.AST], wanted: set[str]) -> list[ast.AST]:
    """The statements less the rules (and externals) whose predicates nothing
    needs.  A predicate is needed when it is wanted, read by a constraint,
    show, minimize or heuristic statement, or read by a rule defining a needed
    predicate (predicates are told apart by name only).  The rules left out
    cannot change the rest (pack rules are stratified and never reject
    input), and leaving them out makes the program smaller to ground and to
    search."""
    defines = [_defined_names(st) for st in statements]
    reads = [set(_IDENTIFIER.findall(str(st))) - {""} for st in statements]
    needed = set(wanted).union(*(r for d, r in zip(defines, reads) if not d))
    defined_by: dict[str, list[int]] = {}
    for i, names in enumerate(defines):
        for name in names:
            defined_by.setdefault(name, []).append(i)
    todo, kept = list(needed), set()
    while todo:
        for i in defined_by.get(todo.pop(), []):
            if i not in kept:
                kept.add(i)
                todo.extend(reads[i] - needed)
                needed |= reads[i]
    return [st for i, st in enumerate(statements) if not defines[i] or i in kept]


# ---------------------------------------------------------------------------
# slicing by the constants an atom names
# ---------------------------------------------------------------------------
# needed_only tells predicates apart by name; `sliced` also by the constants
# their arguments name: the rules deriving penalty(_, _, sleeves, _) are not
# those deriving penalty(_, _, sleeves_c3, _) when their heads name the
# infraction.  A pattern is an atom's predicate and arguments, each argument a
# symbol, ANY (whatever value), or a function pattern (name, arguments).

ANY = None


def _compile(term: ast.AST) -> tuple:
    """A term as plain tuples (clingo's AST is slow to walk): ("v", name) a
    variable, ("s", symbol) a symbol, ("f", name, args) a function or tuple,
    ("a",) anything else (arithmetic, pools, intervals, `_`: any value)."""
    t = term.ast_type
    if t == ast.ASTType.Variable:
        return ("a",) if term.name == "_" else ("v", term.name)
    if t == ast.ASTType.SymbolicTerm:
        return ("s", term.symbol)
    if t == ast.ASTType.Function and not term.external:
        return ("f", term.name, tuple(_compile(a) for a in term.arguments))
    return ("a",)


def _term_pattern(term: tuple, binding: dict):
    """The pattern of a compiled term under a binding of its variables (unbound: ANY)."""
    tag = term[0]
    if tag == "v":
        return binding.get(term[1], ANY)
    if tag == "s":
        return term[1]
    if tag == "f":
        args = tuple(_term_pattern(a, binding) for a in term[2])
        if all(isinstance(a, clingo.Symbol) for a in args):
            return clingo.Function(term[1], list(args))
        return (term[1], args)
    return ANY


def _unify(term: tuple, pattern, binding: dict) -> bool:
    """Whether some instance of the compiled term can match pattern; binds its
    variables (in place) to the parts of pattern they stand for."""
    if pattern is ANY:
        return True
    tag = term[0]
    if tag == "v":
        old = binding.get(term[1], ANY)
        if old is ANY:
            binding[term[1]] = pattern
            return True
        return old == pattern or _compatible(old, pattern)
    if tag == "s":
        return _compatible(term[1], pattern)
    if tag == "f":
        name, args = _fn_pattern(pattern)
        if name is None or name != term[1] or len(args) != len(term[2]):
            return False
        return all(_unify(a, p, binding) for a, p in zip(term[2], args))
    return True


def _fn_pattern(pattern):
    if isinstance(pattern, tuple):
        return pattern
    if pattern.type == clingo.SymbolType.Function:
        return pattern.name, tuple(pattern.arguments)
    return None, ()


def _compatible(a, b) -> bool:
    """Whether two patterns have a common instance."""
    if a is ANY or b is ANY:
        return True
    if isinstance(a, clingo.Symbol) and isinstance(b, clingo.Symbol):
        return a == b
    (na, aa), (nb, ab) = _fn_pattern(a), _fn_pattern(b)
    return na is not None and na == nb and len(aa) == len(ab) and all(map(_compatible, aa, ab))


_POOLS = [0]     # pools read so far (statement_parts notes the statements holding one)


class _Unknown(Exception):
    """An atom Slicer cannot read: it slices nothing then (keeps every statement)."""


def _atom_parts(atom: ast.AST) -> list[tuple[str, tuple]]:
    """(predicate, compiled argument terms) of a symbolic atom, one per
    alternative of a pool; classically negated predicates start with '-'."""
    return _symbol_parts(atom.symbol, "")


def _symbol_parts(sym: ast.AST, sign: str) -> list[tuple[str, tuple]]:
    t = sym.ast_type
    if t == ast.ASTType.Pool:
        _POOLS[0] += 1
        return [p for alt in sym.arguments for p in _symbol_parts(alt, sign)]
    if t == ast.ASTType.UnaryOperation and not sign:
        return _symbol_parts(sym.argument, "-")
    if t == ast.ASTType.Function and not sym.external:
        return [(sign + sym.name, tuple(_compile(a) for a in sym.arguments))]
    if t == ast.ASTType.SymbolicTerm and sym.symbol.type == clingo.SymbolType.Function:
        return [(sign + sym.symbol.name, tuple(("s", a) for a in sym.symbol.arguments))]
    raise _Unknown(str(sym))


def _read_atoms(node: ast.AST, out: list) -> None:
    """Every symbolic atom a statement reads (bodies, conditions, aggregates)."""
    class Reads(ast.Transformer):
        def visit_SymbolicAtom(self, atom):
            out.extend(_atom_parts(atom))
            return atom
    Reads()(node)


def statement_parts(statements: list[ast.AST]) -> list[tuple[list, list, bool]] | None:
    """(head atoms defined, atoms read) of each statement, for Slicer; None
    when some atom is of a form it cannot read."""
    try:
        return [_statement_parts(st) for st in statements]
    except _Unknown:
        return None


def _statement_parts(st: ast.AST) -> tuple[list, list, bool]:
    """(head atoms it defines, atoms it reads, whether it holds a pool) as
    (predicate, argument terms)."""
    pools = _POOLS[0]
    defined: list = []
    reads: list = []
    if st.ast_type == ast.ASTType.Rule:
        head = st.head
        if head.ast_type == ast.ASTType.Literal:
            if head.atom.ast_type == ast.ASTType.SymbolicAtom:
                defined.extend(_atom_parts(head.atom))
            else:
                _read_atoms(head, reads)
        elif head.ast_type in (ast.ASTType.Disjunction, ast.ASTType.Aggregate):
            for el in head.elements:
                if el.literal.atom.ast_type == ast.ASTType.SymbolicAtom:
                    defined.extend(_atom_parts(el.literal.atom))
                for lit in el.condition:
                    _read_atoms(lit, reads)
            for guard in (getattr(head, "left_guard", None), getattr(head, "right_guard", None)):
                if guard is not None:
                    _read_atoms(guard.term, reads)
        elif head.ast_type == ast.ASTType.HeadAggregate:
            for el in head.elements:
                lit = el.condition.literal
                if lit.atom.ast_type == ast.ASTType.SymbolicAtom:
                    defined.extend(_atom_parts(lit.atom))
                for c in el.condition.condition:
                    _read_atoms(c, reads)
        else:
            _read_atoms(head, reads)
        for lit in st.body:
            _read_atoms(lit, reads)
    elif st.ast_type == ast.ASTType.External:
        defined.extend(_atom_parts(st.atom))
        for lit in st.body:
            _read_atoms(lit, reads)
    else:
        _read_atoms(st, reads)
    return defined, reads, _POOLS[0] != pools


class Slicer:
    """Slices of one program (its statements parsed once): `rules(wanted)` is
    the statements less the rules no wanted atom depends on, told apart by
    predicate and by the constants of the atoms.  An atom wanted or read is a
    pattern (predicate, arguments: a symbol, ANY or a function pattern), and a
    rule is kept when its head can match a needed pattern; what its body reads,
    with the head's variables bound to that pattern's values, is needed in
    turn.  A body atom of a predicate only facts define binds the rule's other
    variables to the values of the facts it matches (none: the rule cannot
    derive the pattern).  Statements defining nothing (constraints, #minimize,
    #show, #heuristic) are kept, and read every atom they mention, except those
    of the `ignore` types, which are left out (#minimize for a search that does
    not optimise).

    Every ground rule deriving a needed atom is an instance of a kept rule, and
    its body atoms are needed: the needed atoms are closed under dependencies,
    so they are true in an answer set of the slice exactly where they are in
    one of the program (the same scenario space: its inputs must be wanted).
    Atoms outside that closure may be missing or different in the slice."""

    EXPAND = 64     # at most this many bindings a rule is split into by its facts

    def __init__(self, statements: list[ast.AST], ignore: Iterable[ast.ASTType] = (),
                 parts: list[tuple[list, list, bool]] | None = None) -> None:
        self.statements = statements
        self.ignore = set(ignore)
        parts = parts if parts is not None else statement_parts(statements)
        self.whole = parts is None      # an atom it cannot read: no slicing
        self.parts = parts or [([], [], False) for _ in statements]
        self.by_head: dict[tuple[str, int], list[int]] = {}
        bodies: dict[tuple[str, int], bool] = {}       # predicate -> defined by facts (of base) only
        program = "base"
        for i, (st, (defined, *_)) in enumerate(zip(statements, self.parts)):
            if st.ast_type == ast.ASTType.Program:
                program = st.name
            fact = (st.ast_type == ast.ASTType.Rule and not st.body and st.head.ast_type == ast.ASTType.Literal
                    and program == "base")
            for name, args in defined:
                key = (name, len(args))
                self.by_head.setdefault(key, []).append(i)
                bodies[key] = bodies.get(key, True) and fact
        facts = ground_facts([st for st, (defined, *_) in zip(statements, self.parts)
                              if defined and all(bodies[(n, len(a))] for n, a in defined)]
                             + [st for st in statements if st.ast_type == ast.ASTType.Definition])
        self.facts = {key: facts.get(key, []) for key, only in bodies.items() if only}
        # the positive body atoms of each rule over predicates only facts define
        self.joins: list[list[tuple[str, list[ast.AST]]]] = []
        for st in statements:
            joins = []
            if st.ast_type == ast.ASTType.Rule:
                for lit in st.body:
                    if (lit.ast_type == ast.ASTType.Literal and lit.sign == ast.Sign.NoSign
                            and lit.atom.ast_type == ast.ASTType.SymbolicAtom
                            and lit.atom.symbol.ast_type != ast.ASTType.Pool):
                        (parts,) = _atom_parts(lit.atom)
                        key = (parts[0], len(parts[1]))
                        if key in self.facts or key not in self.by_head:
                            joins.append(parts)     # (no rule at all: no fact either)
            self.joins.append(joins)
        self.always = [i for i, (st, (defined, *_)) in enumerate(zip(statements, self.parts))
                       if not defined and st.ast_type not in self.ignore]

    def _bindings(self, i: int, binding: dict) -> list[dict]:
        """The binding split by the facts the rule's fact atoms can match ([]: none)."""
        out = [binding]
        for name, args in self.joins[i]:
            nxt = []
            for b in out:
                for fact in self.facts.get((name, len(args)), ()):
                    b2 = dict(b)
                    if all(_unify(a, v, b2) for a, v in zip(args, fact.arguments)):
                        nxt.append(b2)
            if len(nxt) > self.EXPAND:
                return out
            out = nxt
            if not out:
                return []
        return out

    def closure(self, wanted: Iterable[tuple[str, tuple]]) -> tuple[set[int], dict[tuple[str, int], set]]:
        """(indices of the statements kept, the needed patterns by predicate)."""
        needed: dict[tuple[str, int], set] = {}
        todo: list[tuple[str, tuple]] = []

        def need(name: str, args: tuple) -> None:
            key = (name, len(args))
            have = needed.setdefault(key, set())
            if args in have or (ANY,) * len(args) in have:
                return
            if all(a is ANY for a in args):
                have.clear()
            have.add(args)
            todo.append((name, args))

        for name, args in wanted:
            need(name, tuple(args))
        kept: set[int] = set(self.always)
        for i in self.always:
            for name, args in self.parts[i][1]:
                need(name, tuple(_term_pattern(a, {}) for a in args))
        while todo:
            name, pattern = todo.pop()
            for i in self.by_head.get((name, len(pattern)), []):
                for hname, hargs in self.parts[i][0]:
                    if hname != name or len(hargs) != len(pattern):
                        continue
                    binding: dict = {}
                    if not all(_unify(a, p, binding) for a, p in zip(hargs, pattern)):
                        continue
                    for b in self._bindings(i, binding):
                        kept.add(i)
                        for rname, rargs in self.parts[i][1]:
                            need(rname, tuple(_term_pattern(a, b) for a in rargs))
        return kept, needed

    def rules(self, wanted: Iterable[tuple[str, tuple]]) -> list[ast.AST]:
        if self.whole:
            return [st for st in self.statements if st.ast_type not in self.ignore]
        kept, _ = self.closure(wanted)
        keep = (ast.ASTType.Program, ast.ASTType.Definition, ast.ASTType.Defined, ast.ASTType.ShowSignature)
        return [st for i, st in enumerate(self.statements)
                if i in kept or (st.ast_type in keep and st.ast_type not in self.ignore)]


def sliced(statements: list[ast.AST], wanted: Iterable[tuple[str, tuple]],
           ignore: Iterable[ast.ASTType] = ()) -> list[ast.AST]:
    """Slicer(statements, ignore).rules(wanted): the rules wanted atoms depend on."""
    return Slicer(statements, ignore).rules(wanted)
