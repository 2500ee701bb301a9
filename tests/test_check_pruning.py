"""`ppgcheck check` grounds only the rules its searches can tell apart
(slicing.needed_only): a rule whose atoms nothing shown, wanted, minimized or
constrained reads is left out, and leaving it out changes no answer."""
from __future__ import annotations

import clingo
from clingo import ast

from ppgcheck.analysis.slicing import needed_only


def statements(text: str) -> list[ast.AST]:
    out: list[ast.AST] = []
    ast.parse_string(text, out.append)
    return out


def kept_heads(text: str, wanted: set[str]) -> set[str]:
    return {str(st.head) for st in needed_only(statements(text), wanted)
            if st.ast_type == ast.ASTType.Rule and st.head.ast_type == ast.ASTType.Literal
            and st.head.atom.ast_type == ast.ASTType.SymbolicAtom}


PROGRAM = """
input(1..3).
helper(X) :- input(X), X > 1.
shown(X) :- helper(X).
note(X, "a shown(1) in a string is no read") :- input(X).
unread(X) :- note(X, _).
guard(X) :- input(X).
:- guard(3), shown(3), not input(3).
#show shown/1.
"""


def test_rules_nothing_reads_are_left_out():
    heads = kept_heads(PROGRAM, set())
    assert {"helper(X)", "shown(X)", "guard(X)"} <= heads      # read by #show or by a constraint
    assert not {h for h in heads if h.startswith(("note", "unread"))}


def test_wanted_predicates_are_kept_with_what_they_read():
    heads = kept_heads(PROGRAM, {"unread"})
    assert any(h.startswith("note") for h in heads) and "unread(X)" in heads


def test_choice_conditions_and_minimize_statements_are_reads():
    text = """
    kind(a). kind(b).
    { pick(K) : kind(K) } 1.
    cost(K, 2) :- pick(K).
    unused(K) :- pick(K).
    #minimize { C, K : cost(K, C) }.
    """
    heads = kept_heads(text, set())
    assert {"kind(a)", "kind(b)", "cost(K,2)"} <= heads and "unused(K)" not in heads


def test_left_out_rules_change_no_shown_answer():
    def answers(stmts: list[ast.AST]) -> set[tuple[str, ...]]:
        """The shown part of every answer set (a left-out choice only repeats them)."""
        ctl = clingo.Control(["0", "--warn=none"])
        with ast.ProgramBuilder(ctl) as bld:
            for st in stmts:
                bld.add(st)
        ctl.ground([("base", [])])
        out: set[tuple[str, ...]] = set()
        ctl.solve(on_model=lambda m: out.add(tuple(sorted(map(str, m.symbols(shown=True))))))
        return out

    text = PROGRAM + "{ extra(X) : input(X) } 1.\nlate(X) :- extra(X), not unread(X).\n"
    assert answers(needed_only(statements(text), set())) == answers(statements(text))


def test_an_external_is_kept_only_where_its_atom_is_read():
    text = """
    kind(a).
    #external open(K) : kind(K).
    goal :- open(K), kind(K).
    """
    def externals(wanted: set[str]) -> list[ast.AST]:
        return [st for st in needed_only(statements(text), wanted) if st.ast_type == ast.ASTType.External]
    assert externals(set()) == []
    assert len(externals({"goal"})) == 1
