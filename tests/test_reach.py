"""A grounding of a few reports grounds only the statements their facts can fire
(ppgcheck/engine/reach.py): the statements dropped must change no shown atom."""
from __future__ import annotations

import clingo
import clingo.ast
import pytest

from ppgcheck import api
from ppgcheck.engine import policy as policy_module
from ppgcheck.engine import variants
from ppgcheck.engine.policy import engine
from ppgcheck.packs.program import parse_text
from ppgcheck.engine.reach import Reach, program_summary, usable_text
from ppgcheck.language.facts import build_facts
from ppgcheck.resources import policy_ids
from sampling import sampled
from test_indexing import golden_reports


def kept(program: str, facts: list[tuple[str, tuple]]) -> list[str]:
    """The statements of `program` a grounding with these facts keeps."""
    parsed = parse_text(program)
    written = [str(s.node) for s in parsed.statements if s.kind is not clingo.ast.ASTType.Comment]
    usable = Reach(program_summary(parsed, set())).usable([facts])
    return written if usable is None else [text for text, keep in zip(written, usable) if keep]


def fact(name: str, *arguments) -> tuple[str, tuple]:
    return name, tuple(clingo.Number(a) if isinstance(a, int) else clingo.String(a[1:]) if a.startswith("$")
                       else clingo.Function(a) for a in arguments)


PROGRAM = """
late(P) :- observation(P, late).
marked(P) :- observation(P, marked_cards).
penalty(P, warning) :- late(P).
penalty(P, game_loss) :- marked(P), not waived(P).
minutes(P, M) :- observation(P, late), took(P, M).
named(P) :- said(P, "Alice").
:- penalty(P, game_loss), marked(P), late(P).
#show penalty/2.
"""


def test_a_rule_whose_positive_body_no_fact_can_match_is_dropped() -> None:
    program = kept(PROGRAM, [fact("observation", "alice", "late")])
    assert "late(P) :- observation(P,late)." in program
    assert "penalty(P,warning) :- late(P)." in program                      # through a derived atom
    assert not any(text.startswith(("marked(", "penalty(P,game_loss)", "minutes(")) for text in program)
    assert not any(text.startswith(":-") for text in program)               # its body cannot hold
    assert "#show penalty/2." in program


def test_a_negated_literal_never_drops_a_rule_and_a_constant_must_match() -> None:
    program = kept(PROGRAM, [fact("observation", "bob", "marked_cards")])
    assert "penalty(P,game_loss) :- marked(P); not waived(P)." in program   # waived/1: nowhere
    assert "penalty(P,warning) :- late(P)." not in program


def test_a_string_in_a_fact_matches_any_string() -> None:
    assert 'named(P) :- said(P,"Alice").' in kept(PROGRAM, [fact("said", "bob", "$Bob")])


def test_a_statement_the_reader_cannot_follow_keeps_the_whole_program() -> None:
    assert Reach(None).usable([[fact("observation", "alice", "late")]]) is None
    assert usable_text(["a.", "b."], None) == "a.\nb."


def canonical(atoms: dict) -> dict:
    return {key: sorted(map(str, rows)) for key, rows in atoms.items() if rows}


@pytest.mark.parametrize("policy", policy_ids())
def test_every_golden_report_and_its_variants_rule_the_same_sliced(policy: str) -> None:
    """Each golden report with every variant it is ruled with, questions too, in a grounding
    of their own (sliced), against the same facts in one batch too large to slice (the
    whole pack): the same shown and explored atoms.  (A report alone, as written, is
    compared with the whole pack by test_indexing's golden reports ruled alone and together.)"""
    policy_engine = engine(policy)
    program = policy_engine.program
    groups = []
    for report, _ in golden_reports(policy):
        reports = [report, *(v.report for v in variants.header_variants(report, program.header_values)),
                   *(v.report for v in variants.question_variants(report, api.relevance(policy_engine)))]
        groups.append([build_facts(r).inputs for r in reports])
    batch = [facts for group in groups for facts in group]
    assert len(batch) > policy_module.SLICED_AT_MOST
    whole = iter(policy_engine.solve_many(batch))
    expected_each = [[canonical(next(whole)) for _ in group] for group in groups]
    sliced_some = False
    for i, group in sampled(groups, 30, policy):
        sliced_some = sliced_some or len(program.usable_text(group, indexed=True)) < len(program.text)
        assert [canonical(atoms) for atoms in policy_engine.solve_many(group)] == expected_each[i]
    assert sliced_some


def test_a_large_batch_grounds_the_whole_program() -> None:
    program = engine("yugioh").program
    facts = [build_facts(report).inputs for report, _ in golden_reports("yugioh")]
    assert len(facts) > policy_module.SLICED_AT_MOST
    assert program.usable_text(facts, indexed=True) == program.text
    assert len(program.usable_text(facts[:1], indexed=True)) < len(program.text)


def sliced(program: str, shown: set[str]) -> list[str]:
    """The statements of `program` a grounding showing only these names keeps (reach.shown_slice)."""
    from ppgcheck.engine.reach import program_dependencies, shown_slice
    parsed = parse_text(program)
    written = [str(s.node) for s in parsed.statements if s.kind is not clingo.ast.ASTType.Comment]
    needed = shown_slice(program_dependencies(parsed, set()), frozenset(shown))
    return written if needed is None else [text for text, keep in zip(written, needed) if keep]


def test_a_grounding_showing_some_names_keeps_only_the_rules_they_depend_on():
    program = """
    infraction(P, tardiness) :- observation(P, late).
    penalty(P, warning) :- infraction(P, tardiness), not waived(P).
    waived(P) :- observation(P, excused).
    note(P, "ten minutes") :- penalty(P, warning).
    fix(P, extension) :- observation(P, late).
    { extra(P) ; penalty(P, game_loss) } = 1 :- observation(P, marked).
    extra(P) :- observation(P, marked), deliberate(P).
    :- penalty(P, warning), forbidden(P).
    forbidden(P) :- observation(P, banned).
    """
    kept_rules = sliced(program, {"penalty"})
    assert not any(r.startswith(("note(", "fix(")) for r in kept_rules)      # nothing shown reads them
    assert any(r.startswith("waived(") for r in kept_rules)                 # read negated by a kept rule
    assert any(r.startswith("extra(P) :-") for r in kept_rules)             # bound to the choice's other head
    assert any(r.startswith("forbidden(") for r in kept_rules)              # a constraint's reads stay
    assert len(sliced(program, {"note"})) == len(kept_rules) + 1            # note reads penalty: all but fix
    assert len(sliced(program, {"fix", "note"})) == 10                       # every statement, `#program` too
    optimised = program + "#minimize { 1,P : late_by(P) }.\nlate_by(P) :- observation(P, late).\n"
    assert any(r.startswith("late_by(") for r in sliced(optimised, {"penalty"}))     # what a #minimize reads stays


def test_a_question_variant_grounds_fewer_statements_than_a_ruling():
    """A question's variant (contract.QUESTION_SHOWN) needs neither notes, fixes nor explanations."""
    from ppgcheck.contract import QUESTION_SHOWN
    for policy_id in policy_ids():
        program = engine(policy_id).program
        needed = program._shown_slice(QUESTION_SHOWN)
        assert needed is not None and sum(needed) < 0.9 * len(needed), policy_id
        kept_text = usable_text(program.statements, needed)
        assert "\nnote(" not in kept_text and "\nfix(" not in kept_text, policy_id
