"""What a pack's rules read of a report, as facts: `reads_input(What, Value)`.

A report states headers, modifiers, numbers, match states, tallies, a history and
a judge's call; a guide that no rule of which reads one of them rules the report as
if the line were not there.  rules/core/findings.lp decides which facts of a report
are unread (an `input` finding, the ruling unchanged) from the facts built here,
read off the pack's program: a pack that starts reading a fact stops producing the
finding.  What = `modifier`, `count`, `state`, `tally`, or a header (`rel`, `tier`,
`event_kind`, `game_kind`, `round`, `round_kind`, `best_of`, `day`, `when`,
`ruling_minutes`, `history`); Value the constant read, or `any` where a rule reads
the fact through a variable that no table of the pack narrows.

The core's helpers (`time_called`, `prior_today`, `tally_more`, ...) read inputs for
a pack: their reads count only where the pack reads the helper.  What the core
itself reads for every pack (`from the same root cause`, the judge's call) is
declared in findings.lp.
"""
from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import clingo

from ppgcheck.packs.program import (Atom, Program, Statement, compile_term, ground_facts, parse_text,
                                   symbol_value)

# input predicate/arity -> (what it is reported as, the argument naming the value read)
_READ: dict[tuple[str, int], tuple[str, int]] = {
    ("modifier", 2): ("modifier", 1), ("modifier", 3): ("modifier", 1), ("count", 3): ("count", 1),
    ("match_state", 2): ("state", 0), ("tally", 3): ("tally", 0),
    ("rel", 1): ("rel", 0), ("tier", 1): ("tier", 0), ("event_kind", 1): ("event_kind", 0),
    ("game_kind", 1): ("game_kind", 0), ("round", 1): ("round", 0), ("round_kind", 1): ("round_kind", 0),
    ("best_of", 1): ("best_of", 0), ("day", 1): ("day", 0), ("when", 1): ("when", 0),
    ("ruling_minutes", 1): ("ruling_minutes", 0), ("history", 5): ("history", -1),
    ("history_day", 1): ("history", -1)}
# the core's tally helpers name the tally they compare (rules/core/output.lp)
_TALLY_HELPERS = {("tally_more", 2), ("tally_tied", 1)}
ANY = "any"
# the core's own account of the report's facts (findings.lp): it reads every input, and
# reading it is no use of one (a pack reading `finding/5` would otherwise read them all)
_ACCOUNT = {"input_fact", "input_read", "input_said", "round_read"}


def input_reads(program: Program, core: Path) -> list[tuple[str, str]]:
    """(what, value) for every input the pack's rules read, directly or through the core's
    helpers; `core` is the folder of the core's files (their rules read only for a pack)."""
    statements = [st for st in program.statements if st.kind is clingo.ast.ASTType.Rule and st.node.body]
    in_core = {st: Path(st.file).parent == core for st in statements}
    defined_by_core: dict[str, list[Statement]] = {}
    for st in statements:
        if in_core[st]:
            for name in st.defined_names():
                defined_by_core.setdefault(name, []).append(st)
    tables = ground_facts(program)
    # what the core declares it reads for every pack (rules/core/findings.lp)
    found: set[tuple[str, str]] = {(str(symbol_value(w)), str(symbol_value(v)))
                                   for w, v in (f.arguments for f in tables.get(("reads_input", 2), []))}
    todo = [st for st in statements if not in_core[st]]
    seen: set[str] = set()
    while todo:
        st = todo.pop()
        for name in _read_from(st, tables, found):
            if name in defined_by_core and name not in seen and name not in _ACCOUNT:
                seen.add(name)
                todo.extend(defined_by_core[name])
    return sorted(found)


def _read_from(st: Statement, tables: dict, found: set[tuple[str, str]]) -> set[str]:
    """Add the inputs one statement reads to `found`; the other predicates it reads."""
    others: set[str] = set()
    for read in st.reads:
        atom = read.atom
        name = atom.name.lstrip("-")
        signature = (name, len(atom.args))
        if signature in _TALLY_HELPERS:
            found.update(("tally", v) for v in _values(atom, 0) or [ANY])
            continue
        if signature not in _READ:
            others.add(name)
            continue
        what, position = _READ[signature]
        if position < 0:
            found.add((what, ANY))
            continue
        values = _values(atom, position)
        if values is None:
            found.update((what, v) for v in _through_table(st, atom.args[position], tables))
        else:
            found.update((what, v) for v in values)
    return others


def _values(atom: Atom, position: int) -> list[str] | None:
    """The constants an input atom reads at a position: one, or a pool's
    (`match_state((extra_turns_over; kept_going), none)`); None for a variable or any other term."""
    term = atom.terms[position]
    if term.ast_type is clingo.ast.ASTType.Pool:
        parts = [_value(Atom(atom.name, (compile_term(t),), (t,)), 0) for t in term.arguments]
        return None if None in parts else parts
    value = _value(atom, position)
    return None if value is None else [value]


def _value(atom: Atom, position: int) -> str | None:
    """The constant (a name, a number, or a function's name: `during_game(2)`) an input
    atom reads at a position; None for a variable or any other term."""
    term = atom.args[position]
    if term[0] == "s":
        value = symbol_value(term[1])
        if isinstance(value, clingo.Symbol) and value.type is clingo.SymbolType.Function:
            return value.name
        return str(value) if isinstance(value, (str, int)) else None
    if term[0] == "f" and term[1]:
        return term[1]
    return None


def _through_table(st: Statement, term: tuple, tables: dict) -> Iterable[str]:
    """The values a variable can take where the rule binds it in one of the pack's fact tables
    (`grv_observation(broke_game_rule; left_state_illegal)`); [`any`] when none narrows it."""
    if term[0] != "v":
        return [ANY]
    values: set[str] = set()
    for atom in st.positive_atoms():
        if (atom.name, len(atom.args)) in _READ:
            continue
        for i, arg in enumerate(atom.args):
            if arg == term:
                rows = tables.get((atom.name, len(atom.args)), [])
                if not rows:
                    return [ANY]
                values.update(str(symbol_value(row.arguments[i])) for row in rows)
    return sorted(values) or [ANY]


def with_input_reads(program: Program, core: Path) -> Program:
    """The program and, as facts, what its pack's rules read (`reads_input/2`): the text is
    written here from the pack's own constants, never from a report."""
    facts = "\n".join(f"reads_input({what}, {value})." for what, value in input_reads(program, core))
    return Program.join([program, parse_text(facts)]) if facts else program
