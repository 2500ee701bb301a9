"""One grounding rules many reports: the indexed rewrite (ppgcheck/engine/indexing.py) and
PolicyEngine.solve_many must rule every report exactly as it is ruled alone."""
from __future__ import annotations

import shutil
from pathlib import Path

import clingo
import clingo.ast
import pytest

from ppgcheck import api
from ppgcheck.errors import PolicyError, PpgError
from ppgcheck.ci.golden import find_cases
from ppgcheck.engine.indexing import (INDEX_PREDICATE, UnsupportedConstruct, dependent_signatures, index_program,
                                      unneeded_statements)
from ppgcheck.engine.policy import EXPLORED, PolicyEngine, engine
from ppgcheck.engine.render import ruling_dict
from ppgcheck.engine.unread import input_reads
from ppgcheck.language.report import parse_reports
from ppgcheck.resources import policy_ids, rules_dir
from sampling import sampled

GOLDEN = Path(__file__).parent / "golden"


def parse(text: str) -> list[clingo.ast.AST]:
    statements: list[clingo.ast.AST] = []
    clingo.ast.parse_string(text, statements.append)
    return statements


def solve_indexed(program: str, reports: list[str]) -> list[set[str]]:
    """Rewrite `program` with input `day/1`, ground it once with every report's facts."""
    rewritten, indexed = index_program(parse(program), {("day", 1)})
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], "\n".join(map(str, rewritten)))
    for i, facts in enumerate(reports):
        ctl.add("base", [], f"{INDEX_PREDICATE}({i}). " + facts.replace("day(", f"day({i},"))
    ctl.ground([("base", [])])
    seen: list[set[str]] = [set() for _ in reports]
    with ctl.solve(yield_=True) as handle:
        for model in handle:
            for sym in model.symbols(shown=True):
                if (sym.name, len(sym.arguments) - 1) in indexed:
                    seen[sym.arguments[0].number].add(str(clingo.Function(sym.name, sym.arguments[1:])))
                else:
                    seen[0].add(str(sym))      # a shared atom, listed once
    return seen


PROGRAM = """
ladder(warning, 1). ladder(game_loss, 2).
worst(P) :- ladder(P, N), N = #max { M : ladder(_, M) }.
today(D) :- day(D).
today(1) :- not day(_).
late(D) :- today(D), D > 1, #count { X : day(X) } = 1.
#show today/1. #show late/1. #show worst/1.
"""


def test_reports_in_one_grounding_do_not_see_each_other() -> None:
    # `today(1) :- not day(_)` must hold for the report without a day and only for it
    first, second, third = solve_indexed(PROGRAM, ["day(3).", "", "day(1)."])
    assert first == {"today(3)", "late(3)", "worst(game_loss)"}
    assert second == {"today(1)"}
    assert third == {"today(1)"}


def test_only_what_depends_on_an_input_is_indexed() -> None:
    dependent = dependent_signatures(parse(PROGRAM), {("day", 1)})
    assert dependent == {("day", 1), ("today", 1), ("late", 1)}       # ladder, worst: shared


def test_a_ruling_grounds_without_what_no_shown_atom_needs() -> None:
    statements = parse("""
form(late, "was late").                 % the language's: read by nothing shown
kind(K) :- form(K, _).
ladder(warning, 1). ladder(game_loss, 2).
penalty(P) :- day(D), ladder(P, D).
odd :- not even. even :- not odd.       % not dropped: it may change the answer sets
:- used(X), X > 3.
used(5) :- table(5).                    % read by a constraint
table(4).
#show penalty/1.
""")
    kept = [str(s) for at, s in enumerate(x for x in statements if x.ast_type is not clingo.ast.ASTType.Comment)
            if at not in unneeded_statements(statements)]
    assert not any(text.startswith(("form(", "kind(")) for text in kept)
    assert {"ladder(warning,1).", "odd :- not even.", "used(5) :- table(5).", "table(4)."} <= set(kept)


@pytest.mark.parametrize("program, why", [
    ("{ a }. a :- day(1).", "head"),                                  # a choice rule
    ("p(X) :- day(X). p(1, 2).", "p/1"),                             # p/1 indexed reads as p/2
    (f"{INDEX_PREDICATE}(1).", "reserved"),
])
def test_constructs_the_rewrite_cannot_keep_apart_are_refused(program: str, why: str) -> None:
    with pytest.raises(UnsupportedConstruct, match=why):
        index_program(parse(program), {("day", 1)})


def test_a_pack_using_an_unsupported_construct_is_a_policy_error(tmp_path: Path) -> None:
    root = tmp_path / "rules"
    shutil.copytree(rules_dir() / "core", root / "core")
    (root / "odd").mkdir()
    (root / "odd" / "s1.lp").write_text('section(x, "S 1").\n{ infraction(O, P, x) } :- observation(O, P, _).\n')
    with pytest.raises(PolicyError, match="cannot batch"):
        PolicyEngine("odd", root).solve([])


def golden_reports(policy: str):
    for case in find_cases([GOLDEN / policy]):
        try:
            yield from api.prepare(parse_reports(case.read_text(encoding="utf-8"), str(case)))
        except PpgError:
            continue                      # an expected-error case rules nothing


@pytest.mark.parametrize("policy", policy_ids())
def test_every_golden_report_rules_the_same_in_one_batch_as_alone(policy: str) -> None:
    prepared = list(golden_reports(policy))
    assert len(prepared) > 20
    together = [ruling_dict(rs) for rs in api.rule_prepared(prepared)]
    for i, item in sampled(prepared, 30, policy):
        assert together[i] == ruling_dict(api.rule_prepared([item])[0]), item[0].name


def test_a_batch_mixing_policies_keeps_report_order() -> None:
    prepared = [item for policy in policy_ids() for item in list(golden_reports(policy))[:5]]
    shuffled = prepared[::2] + prepared[1::2]
    rulings = api.rule_prepared(shuffled)
    assert [rs.report for rs in rulings] == [report.name for report, _ in shuffled]
    assert [rs.policy for rs in rulings] == [policy for _, policy in shuffled]


@pytest.mark.parametrize("policy", policy_ids())
def test_the_pack_ids_are_read_from_what_every_report_shares(policy: str) -> None:
    ids = engine(policy)
    assert ids.sections and all(section for section in ids.sections.values())
    assert "none" in ids.penalties and len(ids.penalties) > 2


def shown_alone(files: list[Path], facts, reads: list[tuple[str, str]] = ()) -> set[str]:
    """The shown atoms of the pack's own files with one report's plain facts (no rewrite),
    and what the pack's rules read (`reads_input/2`, engine/unread.py: the engine adds them)."""
    ctl = clingo.Control(["--warn=none"])
    for path in files:
        ctl.load(str(path))
    with ctl.backend() as backend:
        for sym in facts.symbols:
            backend.add_rule([backend.add_atom(sym)])
        for what, value in reads:
            backend.add_rule([backend.add_atom(clingo.parse_term(f"reads_input({what},{value})"))])
    ctl.ground([("base", [])])
    with ctl.solve(yield_=True) as handle:
        [shown] = [model.symbols(shown=True) for model in handle]
    atoms = {str(sym) for sym in shown}
    if any(sym.name == "open_choice" for sym in shown):   # the exploring solve, as written
        ctl.assign_external(clingo.Function("explore"), True)
        ctl.configuration.solve.enum_mode = "brave"
        ctl.configuration.solve.models = 0
        with ctl.solve(yield_=True) as handle:
            brave = [model.symbols(shown=True) for model in handle][-1]
        explored = {name.split("/")[0] for name in EXPLORED}
        atoms |= {str(sym) for sym in brave if sym.name in explored}
    return atoms


@pytest.mark.parametrize("policy", policy_ids())
def test_the_rewrite_derives_what_the_pack_as_written_derives(policy: str) -> None:
    from ppgcheck.language.facts import build_facts
    prepared = [item for _, item in sampled(list(golden_reports(policy)), 30, policy)]
    facts = [build_facts(report) for report, _ in prepared]
    batch = engine(policy).solve_many([f.inputs for f in facts])
    pack = engine(policy).pack
    reads = input_reads(pack.parsed(pack.runtime_files, order="files"), pack.core)
    for report_facts, atoms in zip(facts, batch):
        rewritten = {f"{key.split('/')[0]}({','.join(map(str, args))})" if args else key.split("/")[0]
                     for key, rows in atoms.items() for args in rows}
        assert rewritten == shown_alone(engine(policy).files, report_facts, reads)
