"""packs/program.py: each statement read once into what it defines and reads;
a construct no analysis reads is one located error."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from clingo import ast

from ppgcheck.analysis.programs import with_fired
from ppgcheck.analysis.slicing import statement_parts
from ppgcheck.analysis.search import Budget, brave, configured, optimum
from ppgcheck.cli import cli
from ppgcheck.packs.pack import find_packs
from ppgcheck.packs.program import (Program, ProgramError, Statement, UnsupportedConstruct, parse_files, parse_text,
                                     reachable, renamed)

PACKS = Path(__file__).parent / "fixtures" / "packs"


def read(text: str) -> list[Statement]:
    return [st for st in parse_text(text).statements if st.kind != ast.ASTType.Program]


def test_a_rule_reads_its_body_with_sign_and_guards():
    (st,) = read("p(X) :- q(X), not r(X), #count { Y : s(X, Y), t(Y) } > 1.")
    assert [a.name for a in st.heads] == ["p"]
    assert [(r.atom.name, r.where, r.positive) for r in st.reads] == [
        ("q", "body", True), ("r", "body", False), ("s", "aggregate", True), ("t", "aggregate", True)]
    # a read is guarded by the positive atoms beside it: the body's, or its condition's
    assert [g.name for g in st.reads[1].guards] == ["q"]
    assert [g.name for g in st.reads[2].guards] == ["s", "t"]
    assert [a.name for a in st.outer] == ["q"]
    assert [str(t) for terms in st.comparisons for t in terms] == ["1"]


def test_pools_and_classical_negation():
    (st,) = read("-a(1;2) :- b(X;Y), c.")
    assert [(a.name, a.pooled) for a in st.heads] == [("-a", True), ("-a", True)]
    assert st.pooled and st.head_atom() is None and st.defined_names() == set()
    assert [a.name for a in st.positive_atoms()] == ["c"]        # written out: no pool


def test_a_construct_no_analysis_reads_is_located(tmp_path):
    path = tmp_path / "odd.lp"
    path.write_text("p :- q.\n\n&diff { a - b } <= 3 :- r.\n")
    statements = parse_files([path]).statements
    odd = [st.unsupported for st in statements if st.unsupported]
    assert len(odd) == 1 and isinstance(odd[0], UnsupportedConstruct)
    assert (odd[0].file, odd[0].line) == (str(path), 3)
    assert str(odd[0]).startswith(f"{path}:3: ")


def test_a_file_that_does_not_parse_is_one_located_error(tmp_path):
    path = tmp_path / "broken.lp"
    path.write_text("p :- q.\np :- q(\n")
    with pytest.raises(ProgramError) as raised:
        parse_files([path])
    assert (raised.value.file, raised.value.line) == (str(path), 3)
    assert str(raised.value) == f"{path}:3: policy file does not parse: syntax error, unexpected EOF, expecting ) or ;"


def test_a_pack_that_does_not_parse_fails_cleanly_in_every_command(tmp_path):
    root = tmp_path / "rules"
    (root / "broken").mkdir(parents=True)
    (root / "core").symlink_to(Path(__file__).parent.parent / "rules" / "core")
    (root / "broken" / "a.lp").write_text('section(x, "S 1").\ninfraction(O, P, x) :- observation(O, P, late\n')
    report = tmp_path / "r.txt"
    report.write_text("policy: broken\nplayer: Alice\nAlice was 3 minutes late\n")
    for args in (["check", str(root / "broken")], ["rule", str(report), "--rules", str(root)],
                 ["diff", str(PACKS / "clean"), str(root / "broken")]):
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 2, (args, result.output)
        assert "a.lp:3: policy file does not parse" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("name", ["clean", "dead", "monotonicity"])
def test_derived_readings_are_the_readings_of_the_derived_statements(name):
    """A renamed copy and the chk_fired twins are read from their sources, not
    walked again: the same reading as walking their statements afresh."""
    (pack,) = find_packs(path=PACKS / name)
    program = pack.core_program() + pack.program
    for derived in (renamed(program, "b__"), with_fired(pack.program)[0]):
        fresh = Program(derived.nodes)
        assert statement_parts(derived) == statement_parts(fresh)
        assert [(s.outer, s.reads) for s in derived.statements] == [(s.outer, s.reads) for s in fresh.statements]


def test_reachable_is_the_closure_of_the_edges():
    edges = {"a": {"b"}, "b": {"c"}, "d": {"a"}}
    assert reachable({"a"}, edges) == {"a", "b", "c"}
    assert reachable(set(), edges) == set()


def test_every_search_leaves_the_configuration_as_it_was():
    import clingo
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], "{ x; y }. t :- x. #minimize { 1 : x }.")
    ctl.ground([("base", [])])
    solve, solver = ctl.configuration.solve, ctl.configuration.solver
    before = (solve.enum_mode, solve.opt_mode, solve.models, solver.heuristic, solve.project)
    brave(ctl, Budget(10, 100))
    optimum(ctl, Budget(10, 100), clingo.Function("t"))
    with configured(ctl, models=1, heuristic="Berkmin", project="project"):
        assert (solve.models, solve.project) == ("1", "project,0")
    assert (solve.enum_mode, solve.opt_mode, solve.models, solver.heuristic, solve.project) == before
