"""The match-state statements and tally lines of the report language (issue 18): each form
parses to its fact, tallies check names and ranges, and a report prints back to itself."""
from __future__ import annotations

import pytest

from ppgcheck.errors import ReportError
from ppgcheck.language.facts import build_facts
from ppgcheck.language.report import parse_report, print_report
from ppgcheck.language.vocabulary import vocabulary

from conftest import HEADER, fill


def facts_of(text: str) -> set[str]:
    return {str(s) for s in build_facts(parse_report(HEADER + text)).symbols}


def test_every_state_form_parses_to_its_listed_fact():
    vocab = vocabulary()
    assert vocab.states, "the core declares match-state forms"
    for kind, forms in vocab.states.items():
        for form in forms:
            expected = form.fact.replace(",P)", ",1)").replace("(P,Q)", "(1,2)")
            assert facts_of(fill(form) + "\n") & {s for s in [expected]}, (form.text, expected)


@pytest.mark.parametrize("line, fact", [
    ("time was called during Alice's turn", "match_state(time_called_during_turn,1)"),
    ("time was called between games", "match_state(time_called_between_games,none)"),
    ("the extra turns are over", "match_state(extra_turns_over,none)"),
    ("the players are side-decking", "match_state(side_decking,none)"),
    ("Alice and Bob agreed to a draw", "match_state(agreed_draw,(1,2))"),
    ("Bob conceded", "match_state(conceded,2)"),
    ("Alice conceded after time was called, before any action",
     "match_state(conceded_after_time_before_action,1)"),
    ("Alice conceded after time was called, after an action",
     "match_state(conceded_after_time_after_action,1)"),
    ("Bob refused a feature match", "match_state(refused_feature_match,2)"),
])
def test_the_issues_statements_yield_their_facts(line, fact):
    assert fact in facts_of(line + "\n")


@pytest.mark.parametrize("line, facts", [
    ("score: Alice 1, Bob 0", {"tally(score,1,1)", "tally(score,2,0)"}),
    ("life: Alice 12, Bob 9", {"tally(life,1,12)", "tally(life,2,9)"}),
    ("seed: Alice 3, Bob 6", {"tally(seed,1,3)", "tally(seed,2,6)"}),
    ("life: Bob 8000", {"tally(life,2,8000)"}),
])
def test_tally_lines_yield_a_fact_a_pair(line, facts):
    assert facts <= facts_of(line + "\n")


def test_a_tally_names_each_person_once_and_declared_names_only():
    with pytest.raises(ReportError, match="given twice"):
        parse_report(HEADER + "life: Alice 3, Alice 4\n")
    with pytest.raises(ReportError, match="not declared"):
        parse_report(HEADER + "score: Alice 1, Carol 0\n")
    with pytest.raises(ReportError, match="out of range"):
        parse_report(HEADER + "score: Alice 9, Bob 0\n")
    with pytest.raises(ReportError, match="given twice"):
        parse_report(HEADER + "score: Alice 1, Bob 0\nscore: Alice 1, Bob 1\n")


def test_a_report_with_an_incident_and_the_end_of_its_match_prints_back_to_itself():
    text = (HEADER + "Alice drew 2 extra cards\nscore: Alice 1, Bob 1\nlife: Alice 12, Bob 12\n"
            "time was called during Alice's turn\nAlice conceded after time was called, before any action\n")
    report = parse_report(text)
    assert [s.kind for s in report.states] == ["time_called_during_turn", "conceded_after_time_before_action"]
    again = parse_report(print_report(report))
    assert again == report
    assert "Alice conceded after time was called, before any action" in print_report(report)


def test_a_name_that_is_a_tally_word_is_quoted():
    report = parse_report('policy: fab\nplayer: "life"\nplayer: Bob\nlife: "life" 3, Bob 4\n')
    assert report.tallies == {"life": [("life", 3), ("Bob", 4)]}
    assert parse_report(print_report(report)) == report


def test_vocab_lists_the_match_state_forms():
    from click.testing import CliRunner

    from ppgcheck.cli import cli
    out = CliRunner().invoke(cli, ["vocab"]).output
    assert "time was called during {P}'s turn" in out
    assert "match_state(agreed_draw,(P,Q))" in out
    assert "score" in out and "tally(score,P,N)" in out


# --- the outcome in the ruling's text, JSON and the comparison --------------------------------

MATCH_END = ("policy: fab\nrel: competitive\nround: 3, playoff\nplayer: Alice\nplayer: Bob\n"
             "time was called during Bob's turn\nlife: Alice 12, Bob 9\n")


def test_the_outcome_in_text_and_json():
    from ppgcheck import api
    from ppgcheck.engine.render import render_text, ruling_dict
    (rs,) = api.rule_report(MATCH_END)
    assert "match — result: Alice wins the match (TRP 3)" in render_text(rs)
    data = ruling_dict(rs)
    assert {k: data["outcome"][k] for k in ("step", "result", "winner", "section")} == {
        "step": None, "result": "win", "winner": "Alice", "section": "TRP 3"}
    assert data["outcomes"] == [data["outcome"]] and data["findings"] == []


def test_two_outcomes_are_no_single_outcome_and_a_conflict():
    from ppgcheck import api
    from ppgcheck.engine.render import ruling_dict
    text = ("policy: fab\nrel: professional\nround: 3, swiss\nplayer: Alice\nplayer: Bob\n"
            "Bob refused a feature match\nAlice conceded\n")
    (rs,) = api.rule_report(text)
    data = ruling_dict(rs)
    assert data["outcome"] is None and len(data["outcomes"]) == 2
    assert {f["kind"] for f in data["findings"]} == {"conflict"}


def test_compare_has_a_row_for_the_match():
    from ppgcheck import api
    from ppgcheck.engine.render import comparison_dict, render_comparison_text
    comparison = api.compare_report(parse_report(MATCH_END))
    text = render_comparison_text(comparison)
    assert "  the match" in text
    row = text[text.index("  the match"):]
    assert "fab" in row and "result: Alice wins the match (TRP 3)" in row
    assert comparison_dict(comparison)["policies"]["fab"]["outcome"]["winner"] == "Alice"


def test_a_misspelled_state_gets_its_form_as_the_closest():
    with pytest.raises(ReportError) as caught:
        parse_report(HEADER + "Alice refused a featur match\n")
    assert "P refused a feature match" in str(caught.value)
