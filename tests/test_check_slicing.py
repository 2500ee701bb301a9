"""slicing.Slicer: the slice of a program that some atoms depend on, told
apart by the constants atoms name as well as by predicate.  An atom the slice
is asked for is true in exactly the same answers as in the whole program; the
rules about other constants are left out.  `ppgcheck check` proves the
monotonicity of a pack on such a slice (monotonicity.refuted)."""
from __future__ import annotations

from pathlib import Path

import clingo
import pytest
from clingo import ast

from ppgcheck.analysis import monotonicity
from ppgcheck.analysis.context import Context
from ppgcheck.analysis.slicing import ANY, sliced, statement_parts
from ppgcheck.packs.pack import find_packs
from ppgcheck.packs.program import Program, renamed

PACKS = Path(__file__).parent / "fixtures" / "packs"


def statements(text: str) -> list[ast.AST]:
    out: list[ast.AST] = []
    ast.parse_string(text, out.append)
    return out


def heads(stmts: list[ast.AST]) -> set[str]:
    return {str(st.head) for st in stmts if st.ast_type == ast.ASTType.Rule and st.body}


def answers(stmts: list[ast.AST], shown: str) -> set[tuple[str, ...]]:
    ctl = clingo.Control(["0", "--warn=none"])
    with ast.ProgramBuilder(ctl) as bld:
        for st in stmts:
            bld.add(st)
    ctl.add("base", [], shown)
    ctl.ground([("base", [])])
    out: set[tuple[str, ...]] = set()
    ctl.solve(on_model=lambda m: out.add(tuple(sorted(map(str, m.symbols(shown=True))))))
    return out


# Two infractions classified from their own observations; a helper shared by
# both (`hurried`) and a pairwise conflict (core-like) that needs both.
PROGRAM = """
kind(late; slow; rude).
{ observation(1, 1, K) : kind(K) }.
{ modifier(1, hurry) }.
hurried(O) :- modifier(O, hurry).
infraction(O, P, tardiness) :- observation(O, P, late).
infraction(O, P, slow_play) :- observation(O, P, slow).
infraction(O, P, slow_play) :- observation(O, P, late), hurried(O).
infraction(O, P, conduct) :- observation(O, P, rude).
penalty(O, P, I, warning) :- infraction(O, P, I), not hurried(O).
penalty(O, P, I, game_loss) :- infraction(O, P, I), hurried(O).
penalty(O, P, conduct, match_loss) :- infraction(O, P, conduct).
conflict(O, (I1, I2)) :- infraction(O, P, I1), infraction(O, P, I2), I1 < I2.
supersedes(conduct, tardiness).
superseded(O, P, I2) :- infraction(O, P, I1), infraction(O, P, I2), supersedes(I1, I2).
"""
INPUTS = [("observation", (ANY, ANY, ANY)), ("modifier", (ANY, ANY))]


def test_rules_about_other_constants_are_left_out():
    sym = clingo.Function("slow_play")
    kept = heads(sliced(statements(PROGRAM), INPUTS + [("penalty", (ANY, ANY, sym, ANY))]))
    assert "infraction(O,P,slow_play)" in kept and "hurried(O)" in kept
    assert "infraction(O,P,tardiness)" not in kept and "infraction(O,P,conduct)" not in kept
    assert "penalty(O,P,conduct,match_loss)" not in kept and not any(h.startswith("conflict") for h in kept)


def test_a_finding_that_needs_rules_of_two_slices_keeps_both():
    target = clingo.parse_term("conflict(1,(slow_play,tardiness))")
    stmts = sliced(statements(PROGRAM), INPUTS + [("conflict", tuple(target.arguments))])
    kept = heads(stmts)
    assert {"infraction(O,P,slow_play)", "infraction(O,P,tardiness)", "hurried(O)"} <= kept
    assert "infraction(O,P,conduct)" not in kept
    shown = "#show conflict/2. #show observation/3. #show modifier/2."
    wanted = lambda rows: {tuple(a for a in row if not a.startswith("conflict") or a == str(target))
                           for row in rows}
    # the conflict holds in exactly the same scenarios, sliced or not
    sliced_rows, whole_rows = wanted(answers(stmts, shown)), wanted(answers(statements(PROGRAM), shown))
    assert sliced_rows == whole_rows and any(str(target) in row for row in whole_rows)


def test_a_fact_join_binds_the_other_constant_or_drops_the_rule():
    sym = clingo.Function("tardiness")
    kept = heads(sliced(statements(PROGRAM), INPUTS + [("superseded", (ANY, ANY, sym))]))
    assert "superseded(O,P,I2)" in kept and "infraction(O,P,conduct)" in kept   # supersedes(conduct, tardiness)
    assert "infraction(O,P,slow_play)" not in kept
    kept = heads(sliced(statements(PROGRAM), INPUTS + [("superseded", (ANY, ANY, clingo.Function("slow_play")))]))
    assert not any(h.startswith(("superseded", "infraction")) for h in kept)    # nothing supersedes slow_play


def test_a_fact_naming_a_const_joins_under_the_const_value():
    # dci cites its sections as #const names (`repeat_path_citation(standard, upg40)`): the
    # join binds the section to the string the grounder derives, and the fact must match it
    program = PROGRAM + """
#const sec = "UPG 1".
cited(tardiness, sec).
section(O, P, I, S) :- infraction(O, P, I), cited(I, S).
"""
    wanted = INPUTS + [("section", (ANY, ANY, ANY, ANY))]
    stmts = sliced(statements(program), wanted)
    assert "cited(tardiness,sec)" in {str(st.head) for st in stmts if st.ast_type == ast.ASTType.Rule}
    shown = "#show section/4. #show observation/3. #show modifier/2."
    rows = answers(stmts, shown)
    assert rows == answers(statements(program), shown)
    assert any('section(1,1,tardiness,"UPG 1")' in row for row in rows)


def test_wanted_atoms_hold_in_the_same_answers():
    shown = "#show penalty/4. #show observation/3. #show modifier/2."
    for inf in ("tardiness", "slow_play", "conduct"):
        stmts = sliced(statements(PROGRAM), INPUTS + [("penalty", (ANY, ANY, clingo.Function(inf), ANY))])
        keep = lambda rows: {tuple(a for a in row if not a.startswith("penalty") or f",{inf}," in a)
                             for row in rows}
        assert keep(answers(stmts, shown)) == keep(answers(statements(PROGRAM), shown))


def test_a_renamed_copy_reads_as_the_renamed_statements_read_afresh():
    stmts = Program(statements(PROGRAM + "-odd(1) :- kind(late).\n#minimize { 1, K : observation(1, 1, K) }."))
    copy = renamed(stmts, "b__")      # each statement's reading renamed with it
    assert statement_parts(copy) == statement_parts(Program(copy.nodes))
    assert any(name.startswith("b__") for defined, _, _ in statement_parts(copy) for name, _ in defined)


@pytest.mark.parametrize("fork", ["on", "off"])    # the second subject's proof in a forked child, or here
def test_the_sliced_monotonicity_proof(fork, monkeypatch):
    monkeypatch.setenv("PPGCHECK_FORK", fork)

    def refuted(name: str) -> bool:
        (pack,) = find_packs(path=PACKS / name)
        return monotonicity.refuted(Context.of(pack, 60, 10_000))
    assert refuted("clean")
    assert not refuted("monotonicity")      # a violation: the full search runs and finds it


def test_the_check_finds_the_same_with_the_sliced_proof(monkeypatch):
    from ppgcheck import check_policy
    from ppgcheck.analysis import tuning
    from ppgcheck.analysis.check import result_dict

    def findings(name: str) -> list[dict]:
        (r,) = check_policy(path=PACKS / name, timeout=60)
        return result_dict(r)["findings"]
    packs = ["monotonicity", "clean", "cap"]
    whole = {name: findings(name) for name in packs}
    monkeypatch.setattr(tuning, "LARGE_PACK_RULES", 0)     # every pack proven on its slice first
    assert {name: findings(name) for name in packs} == whole
    assert any(f["kind"] == "monotonicity" for f in whole["monotonicity"])


def test_the_searches_beside_the_others_find_the_same(monkeypatch):
    """The monotonicity search, the heaviest permitted penalty's search for other breaks
    and the two-observation search for dead rules, each in a forked child beside the
    other passes, find what they find run in the process."""
    from ppgcheck import check_policy
    from ppgcheck.analysis.check import result_dict

    def findings(name: str) -> tuple[list[dict], list[str], bool]:
        (r,) = check_policy(path=PACKS / name, timeout=60)
        d = result_dict(r)
        return d["findings"], d["notes"], d["complete"]
    packs = ["monotonicity", "monotonicity-heaviest", "clean", "cap", "dead"]
    monkeypatch.setenv("PPGCHECK_FORK", "on")     # in a forked child beside the other searches
    beside = {name: findings(name) for name in packs}
    monkeypatch.setenv("PPGCHECK_FORK", "off")    # after them, in the process itself
    assert {name: findings(name) for name in packs} == beside
    assert any(f["kind"] == "dead-rule" and "two observations" in f["message"] for f in beside["dead"][0])
    assert any(f["kind"] == "monotonicity" for f in beside["monotonicity"][0])
    assert any("heaviest permitted" in f["message"] for f in beside["monotonicity-heaviest"][0])


def test_a_closure_stops_at_a_pattern_and_skips_what_is_known():
    """closure(stop=...) is None once a needed atom meets the stop test (the REL,
    for rels.blind_to_rel), whichever way it is reached; `known` leaves out the
    patterns an earlier closure went through, and the verdicts stay the same."""
    from ppgcheck.analysis.slicing import Slicer
    slicer = Slicer(statements("""
        reads_rel(X) :- mid(X).   mid(X) :- rel(X), obs(X).
        blind_a(X) :- shared(X).  blind_b(X) :- shared(X), obs(X).   shared(X) :- obs(X).
        obs(1..3).  rel(1).
    """))

    def is_rel(name, args):
        return name == "rel"
    assert slicer.closure([("reads_rel", (ANY,))], stop=is_rel) is None
    first = slicer.closure([("blind_a", (ANY,))], stop=is_rel)
    assert first is not None and ("shared", 1) in first[1]
    again = slicer.closure([("blind_b", (ANY,))], stop=is_rel, known=first[1])
    assert again is not None and ("shared", 1) not in again[1]     # known: not gone through again
    assert slicer.closure([("reads_rel", (ANY,))], stop=is_rel, known=first[1]) is None
