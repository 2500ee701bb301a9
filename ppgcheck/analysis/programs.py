"""The programs `ppgcheck check` searches: a pack over its scenario space.

The core with rules/core/scenarios.lp, the pack, and what a kind of search
adds: a `chk_fired("file:line")` twin of every pack rule (dead rules), or a
renamed second copy of the program (monotonicity compares the two side by
side).  Each program shows only the `chk_*` atoms its searches read, and
keeps only the rules those, the wanted predicates and the inputs depend on
(slicing.needed_only).
"""
from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import clingo
from clingo import ast

from ppgcheck.analysis import costs
from ppgcheck.analysis.history_scope import history_locality
from ppgcheck.contract import INPUT_NAMES
from ppgcheck.analysis.search import messages_logger
from ppgcheck.analysis.slicing import needed_only
from ppgcheck.cache import cached_json
from ppgcheck.packs.pack import RUNTIME_CORE, SCENARIO_CORE, Pack, shown_path
from ppgcheck.packs.program import Atom, Program, Statement, renamed

# What the main searches show (rules/core/scenarios.lp)
MAIN_SHOWN = {"chk_finding", "chk_finding_named", "chk_uncited", "chk_cap", "chk_fired"}
# the prefix of the monotonicity search's second copy
PREFIX = "b__"
_SHOWS = (ast.ASTType.ShowSignature, ast.ASTType.ShowTerm)


def with_fired(program: Program, root: Path | None = None,
               only: set[str] | None = None) -> tuple[Program, dict[str, tuple[str, int]]]:
    """The statements, and for each rule with a body a twin `chk_fired("file:line") :- Body.`
    (only: for the rules of these tags alone); with the tag of each twin's rule."""
    out: list[Statement] = []
    tags: dict[str, tuple[str, int]] = {}
    seen: set[str] = set()
    for st in program.statements:
        out.append(st)
        if st.kind == ast.ASTType.Rule and st.node.body:
            loc = st.node.location
            tag = f"{shown_path(st.file, root)}:{st.line}"
            if tag in seen:
                tag = f"{tag}:{loc.begin.column}"
            seen.add(tag)
            if only is not None and tag not in only:
                continue
            tags[tag] = (st.file, st.line)
            term = ast.SymbolicTerm(loc, clingo.String(tag))
            head = ast.Literal(loc, ast.Sign.NoSign, ast.SymbolicAtom(ast.Function(loc, "chk_fired", [term], 0)))
            out.append(st.with_head(ast.Rule(loc, head, st.node.body),
                                    Atom("chk_fired", (("s", clingo.String(tag)),), (term,))))
    return Program.of(out), tags


def history_scope_facts(program: Program | list[ast.AST], wanted: Iterable[str]) -> str:
    """`scen_hist_scoped` and the infractions read by name, where the program
    reads a person's history only for what they commit (history_scope.py);
    nothing otherwise."""
    read_by_name = history_locality(program, wanted)
    if read_by_name is None:
        return ""
    return "scen_hist_scoped.\n" + "".join(f"scen_hist_global({name}).\n" for name in sorted(read_by_name))


@dataclass
class CheckProgram:
    """The check's program for one kind of search, as clingo reads it: its statements'
    text, read and pruned once (each part of the scenario space gets a control of its
    own), and kept in the cache for a pack byte for byte the same."""

    text: str                  # one statement a line from each of `lines`
    tags: dict                 # chk_fired tag -> (file, line)
    wanted: set[str]
    lines: list[tuple[int, str, int]]  # (the statement's first line in text, its file, its line there)
    history_scope: str         # the facts that leave history out where it cannot matter

    def control(self, facts: str, messages: list[str], scoped: bool = False) -> clingo.Control:
        ctl = clingo.Control(["--warn=none"], logger=messages_logger(messages, self.located))
        ctl.configuration.solver.opt_strategy = "usc"
        costs.observe(ctl)      # (the witness searches compare costs: costs.py)
        ctl.add("base", [], self.text)
        ctl.add("base", [], facts + (self.history_scope if scoped else ""))
        return ctl

    def located(self, message: str) -> str:
        """clingo's message with a place in the text named by the rule file's own."""
        starts = [start for start, _, _ in self.lines]

        def place(match: re.Match) -> str:
            at = bisect.bisect_right(starts, int(match.group(1))) - 1
            if at < 0:
                return match.group(0)
            start, file, line = self.lines[at]
            return f"{file}:{line + int(match.group(1)) - start}:"
        return _IN_TEXT.sub(place, message)


# where clingo's messages place what it read from a string: `<string>:LINE:COLUMN...:`
_IN_TEXT = re.compile(r"<(?:string|block)>:(\d+):[\d:-]*")   # (clingo 5.8 says <block>)


def as_text(program: Program) -> tuple[str, list[tuple[int, str, int]]]:
    """The statements' text, one a line (comments left out), with where each came from."""
    out: list[str] = []
    lines: list[tuple[int, str, int]] = []
    at = 1
    for st in program.statements:
        if st.kind == ast.ASTType.Comment:
            continue
        text = str(st.node)
        lines.append((at, st.file, st.line))
        out.append(text)
        at += text.count("\n") + 1
    return "\n".join(out) + "\n", lines


def cached_for_pack(kind: str, pack: Pack, compute: Callable[[], Any], *asked: object) -> Any:
    """compute(), kept in the cache (cache.py) under the bytes of the pack and its scenario core,
    where they are, clingo's version and what else it depends on (`asked`; the package's code
    keys every entry): what the check derives from a pack alone, read again only when one of
    them changes."""
    files = pack.core_files(SCENARIO_CORE) + pack.files
    return cached_json(f"{kind}-clingo{clingo.__version__}", files, compute,
                       salt=repr((*asked, [str(f) for f in files])))


def check_program(pack: Pack, root: Path, *, shown: set[str], wanted: Iterable[str] = (),
                  fired: bool = False, renamed_copy: bool = False,
                  fired_only: Iterable[str] | None = None) -> CheckProgram:
    """The pack over the scenario space, showing only the `shown` chk_* atoms:
    with a `chk_fired` twin of every pack rule (dead rules; `fired_only`: of the
    rules of these tags alone), or beside the renamed copy the monotonicity
    search compares.  Rules nothing shown, wanted or minimized reads are left
    out.  Kept in the cache (cache.py) under the pack's and the core's bytes,
    where they are, and the code that writes it."""
    wanted = set(wanted) | INPUT_NAMES
    if renamed_copy:
        wanted |= {PREFIX + name for name in INPUT_NAMES}
    only = None if fired_only is None else set(fired_only)
    data = cached_for_pack("check", pack,
                           lambda: _written(pack, root, shown, wanted, fired, renamed_copy, only),
                           sorted(shown), sorted(wanted), fired, renamed_copy, str(root),
                           None if only is None else sorted(only))
    return CheckProgram(data["text"], {tag: tuple(at) for tag, at in data["tags"].items()}, wanted,
                        [tuple(line) for line in data["lines"]], data["history_scope"])


def _written(pack: Pack, root: Path, shown: set[str], wanted: set[str], fired: bool, renamed_copy: bool,
             only: set[str] | None = None) -> dict:
    # the runtime's #show lines are left out: the check shows only its chk_* atoms
    core = pack.core_program().where(lambda st: st.kind not in _SHOWS or (
        Path(st.file).name == "scenarios.lp" and getattr(st.node, "name", "") in shown))
    pack_program, tags = with_fired(pack.program, root, only) if fired else (pack.program, {})
    parts = [core, pack_program]
    if renamed_copy:
        parts.append(renamed(pack.core_program(RUNTIME_CORE) + pack_program, PREFIX))
    program = needed_only(Program.join(parts), wanted)
    text, lines = as_text(program)
    # (the history scope read here, from the statements already read: from the text it is ~8x slower)
    return {"text": text, "tags": tags, "lines": lines, "history_scope": history_scope_facts(program, wanted)}
