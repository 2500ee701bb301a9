"""Which unstated modifiers a question asks about: those the rules deciding an observation's
infraction or penalty read (ppgcheck/engine/variants.py, Relevance)."""
from __future__ import annotations

from sampling import sampled
from ppgcheck.engine.variants import Relevance

# the program text as the engine keeps it: one statement a line, as clingo prints it
TABLE = """gpe_category(clerical_error,1).
gpe_category(broke_game_rule,5).
gpe_observation(O,P,N) :- observation(O,P,K); gpe_category(K,N).
infraction(O,P,fraud) :- gpe_observation(O,P,_); modifier(O,on_purpose).
infraction(O,P,grv) :- gpe_observation(O,P,5); not modifier(O,on_purpose).
base_penalty(O,P,clerical,warning,"S") :- observation(O,P,clerical_error); modifier(O,caught_at_once).
"""


def test_a_kind_listed_in_a_table_of_facts_is_followed_to_the_rules_reading_the_table():
    """Three audits of the packs found 'on purpose?' never asked where a pack lists its
    observation kinds in a table of facts: the search followed rules only."""
    relevant = Relevance(TABLE, frozenset(), set())
    assert "on_purpose" in relevant("broke_game_rule")


def test_a_table_does_not_join_the_kinds_it_lists():
    """A table naming several kinds leads from each to its predicate, not to the other kinds'
    own rules: a modifier only clerical errors read is not asked of a broken game rule."""
    relevant = Relevance(TABLE, frozenset(), set())
    assert "caught_at_once" in relevant("clerical_error")
    assert "caught_at_once" not in relevant("broke_game_rule")


def test_a_rule_pinned_to_another_observation_kind_is_not_followed():
    """Fraud is derived from many kinds; the rule deriving it from a draft's `announcing picks`
    names the draft's kind: its modifier is not asked of a broken game rule (a dci game play
    error was ruled again with 29 modifiers, most of them other kinds' own)."""
    text = ("infraction(O,P,fraud) :- observation(O,P,broke_game_rule); modifier(O,on_purpose).\n"
            "infraction(O,P,fraud) :- observation(O,P,broke_draft_procedure); modifier(O,announcing_picks).\n"
            "adjustment(O,P,fraud,1,upgrade,up,\"R\",\"S\") :- committed(O,P,fraud); modifier(O,in_public).\n")
    relevant = Relevance(text, frozenset(), set())
    assert "announcing_picks" not in relevant("broke_game_rule")
    assert "announcing_picks" in relevant("broke_draft_procedure")
    assert {"on_purpose", "in_public"} <= relevant("broke_game_rule")      # what fraud's own rules read stays


def _variants_of_golden_reports(policy: str, size: int = 40):
    """The question variants of a fixed sample of a policy's golden reports (tests/sampling.py;
    all of them under bench/full_sweeps)."""
    from pathlib import Path

    from ppgcheck import api
    from ppgcheck.engine import variants
    from ppgcheck.language.report import parse_report
    folder = Path(__file__).parent / "golden" / policy
    policy_engine = api.engine(policy, None)
    out = []
    for _, path in sampled(sorted(folder.glob("*.txt")), size, f"questions-{policy}"):
        report = parse_report(path.read_text(encoding="utf-8"), str(path))
        out.extend(v.report for v in variants.question_variants(report, api.relevance(policy_engine)))
    return policy_engine, out


def test_a_question_variant_read_from_its_few_shown_atoms_is_ruled_as_in_full():
    """A question's variant is ruled in a grounding that shows only what questions compare
    (contract.QUESTION_SHOWN) and read without text (ruling.decode_outcomes): each variant's
    infractions, base and default penalties, open base sets, not-infractions and findings are
    those of the full ruling."""
    from ppgcheck.contract import QUESTION_SHOWN
    from ppgcheck.engine.ruling import decode, decode_outcomes
    from ppgcheck.language.facts import build_facts

    def compared(rs):
        return ([(r.observation, r.player, r.infraction, r.base_penalty, r.penalty, r.base_choices)
                 for r in rs.rulings],
                sorted((n.observation, n.player) for n in rs.no_infractions),
                sorted((f.kind, f.level, f.observation) for f in rs.findings))
    for policy in ("dci", "fab", "ffg", "yugioh"):
        policy_engine, reports = _variants_of_golden_reports(policy)
        assert reports, policy
        facts = [build_facts(r) for r in reports]
        full = policy_engine.solve_many([f.inputs for f in facts], explore=[False] * len(facts))
        few = policy_engine.solve_many([f.inputs for f in facts], explore=[False] * len(facts), shown=QUESTION_SHOWN)
        ranks = policy_engine.program.ranks
        for report, report_facts, atoms, shown in zip(reports, facts, full, few):
            assert compared(decode_outcomes(shown, report_facts, report, policy, ranks)) == \
                compared(decode(atoms, report_facts, report, policy, ranks)), report.observations
            assert {key.split("/")[0] for key in shown} <= QUESTION_SHOWN


def test_a_report_ruled_alone_gets_the_questions_and_ruling_it_gets_in_a_batch():
    """Alone (a cold `ppgcheck rule`, a station's submission), a report's questions' variants
    ground with the report itself (engine/batches.py: QUESTIONS_WITH_RULING_AT_MOST); in a batch they ground
    apart, showing only what a question compares.  The ruling, its values and its questions
    are the same either way."""
    from pathlib import Path

    from ppgcheck import api
    from ppgcheck.language.report import parse_report
    from ppgcheck.engine import batches
    assert batches.QUESTIONS_WITH_RULING_AT_MOST >= 1
    for policy in ("dci", "fab", "ffg", "yugioh"):
        paths = [path for _, path in sampled(sorted((Path(__file__).parent / "golden" / policy).glob("*.txt")),
                                             25, f"alone-{policy}")]
        prepared = api.prepare([parse_report(p.read_text(encoding="utf-8"), str(p)) for p in paths])
        batch = api.rule_prepared(prepared, questions=True)
        assert any(rs.questions for rs in batch), policy
        for item, in_batch in zip(prepared, batch):
            assert api.rule_prepared([item], questions=True) == [in_batch], item[0].name


def test_a_value_that_makes_it_another_infraction_with_no_default_says_so_in_words():
    """by_value names another infraction's penalty with its id; where the guide names that one
    no default, the set it narrows it to (or that it names none), never Python's None."""
    from ppgcheck.engine.ruling import PlayerRuling
    from ppgcheck.engine.words import variant_label as _label
    ruled = PlayerRuling(1, "Alice", "card-drawing/drawing-extra-cards", "UPG 212", "warning", "warning", True)
    at_value = PlayerRuling(1, "Alice", "cheating/fraud", "UPG 152", None, None, False,
                            base_choices=["disqualification-with-prizes", "disqualification-without-prizes"])
    assert _label(at_value, ruled) == \
        "cheating/fraud: disqualification-with-prizes or disqualification-without-prizes"
    at_value.base_choices = []
    assert _label(at_value, ruled) == "cheating/fraud: no penalty named"
    same = PlayerRuling(1, "Alice", "card-drawing/drawing-extra-cards", "UPG 212", "game-loss", "game-loss", True)
    assert _label(same, ruled) == "game-loss"
