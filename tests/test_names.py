"""Names as the header declares them, `the opponent` and pronouns (ppgcheck/language/names.py)."""
from __future__ import annotations

import pytest

from ppgcheck.errors import ReportError
from ppgcheck.language.facts import build_facts
from ppgcheck.language.report import parse_report, print_report

TWO = "policy: fab\nplayer: Player A\nplayer: NAP\n"


def error_of(text: str) -> ReportError:
    with pytest.raises(ReportError) as info:
        parse_report(text, "r.txt")
    return info.value


def caret(err: ReportError) -> tuple[int, int]:
    return err.line, err.column


# --- names as declared --------------------------------------------------------------------

def test_a_declared_name_with_spaces_is_read_unquoted_and_printed_so():
    text = TWO + "Player A drew 2 extra cards, reported by NAP\nNAP gave Player A advice\n"
    report = parse_report(text)
    assert report.persons == [("Player A", "player"), ("NAP", "player")]
    first, second = report.observations
    assert (first.subject, first.modifiers[0].person) == ("Player A", "NAP")
    assert (second.subject, second.other) == ("NAP", "Player A")
    assert print_report(report) == text          # canonical: printed as it was written


def test_a_declared_name_is_read_without_regard_to_case_as_its_declared_spelling():
    report = parse_report(TWO + "player a drew 2 extra cards\nnap  harassed PLAYER   A\n")
    assert [(o.subject, o.other) for o in report.observations] == [("Player A", None), ("NAP", "Player A")]


def test_names_that_differ_in_case_only_are_one_name_declared_twice():
    err = error_of("policy: fab\nplayer: Ann\nplayer: ANN\nAnn drew 2 extra cards\n")
    assert caret(err) == (3, 9)
    assert "declared twice" in err.message and "without regard to case" in err.message


@pytest.mark.parametrize("order", [("Lee", "Lee Ann"), ("Lee Ann", "Lee")])
def test_the_longest_declared_name_is_read_where_one_starts_another(order):
    header = "policy: fab\n" + "".join(f"player: {n}\n" for n in order)
    report = parse_report(header + "Lee Ann drew 2 extra cards\nLee drew 1 extra card\nLee harassed Lee Ann\n")
    assert [(o.subject, o.other) for o in report.observations] == [("Lee Ann", None), ("Lee", None),
                                                                   ("Lee", "Lee Ann")]


def test_a_name_that_only_starts_like_a_declared_one_is_not_it():
    err = error_of("policy: fab\nplayer: Lee\nplayer: Bo\nLeeAnn drew 2 extra cards\n")
    assert caret(err) == (4, 1) and "`LeeAnn` is not declared" in err.message


def test_a_one_word_name_that_is_a_keyword_where_it_stands_is_still_quoted():
    err = error_of("policy: fab\nplayer: round\nround stalled\n")
    assert caret(err) == (2, 9) and "quote the name" in err.message


def test_names_still_reach_clingo_as_numbered_persons_only():
    name = 'x). penalty(disqualification'
    report = parse_report(f'policy: fab\nplayer: "{name}"\nplayer: Lee Ann\n{name} drew 2 extra cards\n'
                          "Lee Ann harassed the opponent\n")
    assert report.observations[1].other == name
    facts = repr(build_facts(report).inputs)
    assert "penalty(" not in facts and "Lee Ann" not in facts


@pytest.mark.parametrize("char", ["\u202e", "\u200b", "\u2066", "\u200d"])
def test_a_bidi_control_or_zero_width_character_in_a_name_is_an_error(char):
    err = error_of(f'policy: fab\nplayer: "Ki{char}m"\nplayer: Kim\n')
    assert caret(err) == (2, 12)
    assert f"U+{ord(char):04X} is not allowed in a name" in err.message


@pytest.mark.parametrize("char", ["\u202e", "\u200b"])
def test_a_bidi_control_or_zero_width_character_in_a_bare_name_is_an_error_at_it(char):
    err = error_of(f"policy: fab\nplayer: Ki{char}m\n")
    assert caret(err) == (2, 11) and f"U+{ord(char):04X} is not allowed" in err.message
    assert err.line_text == "player: Ki?m"      # shown, so that the caret lines up


# --- the opponent ---------------------------------------------------------------------------

@pytest.mark.parametrize("words", ["the opponent", "her opponent", "His opponent", "their  opponent"])
def test_the_opponent_is_the_other_of_two_players(words):
    report = parse_report(TWO + f"NAP drew 2 extra cards, {words} called a judge at once\n"
                                f"{words} drew 1 extra card\n")
    first, second = report.observations
    assert first.modifiers[0].person == "Player A"
    assert second.subject == "Player A"       # the other player than the subject of the statement before


def test_the_opponent_prints_as_the_name():
    report = parse_report(TWO + "Player A drew 2 extra cards, the opponent called a judge at once\n")
    assert print_report(report).splitlines()[-1] == "Player A drew 2 extra cards, NAP called a judge at once"


def test_a_spectator_does_not_count_and_is_no_ones_opponent():
    report = parse_report("policy: fab\nplayer: Kim\nspectator: Sam\nplayer: Lee\nKim harassed the opponent\n")
    assert report.observations[0].other == "Lee"
    err = error_of("policy: fab\nplayer: Kim\nspectator: Sam\nplayer: Lee\nSam harassed the opponent\n")
    assert caret(err) == (5, 14) and "a spectator is not an opponent" in err.message


def test_a_form_that_starts_with_the_opponent_is_still_that_form():
    report = parse_report(TWO + "NAP drew 2 extra cards, the opponent could not notice it\n")
    [modifier] = report.observations[0].modifiers
    assert (modifier.kind, modifier.person) == ("unnoticeable", None)


@pytest.mark.parametrize("players, count", [(["Kim", "Lee", "Max"], "3 players"), (["Kim"], "one player")])
def test_the_opponent_needs_exactly_two_players(players, count):
    header = "policy: fab\n" + "".join(f"player: {p}\n" for p in players)
    err = error_of(header + "Kim harassed the opponent\n")
    assert caret(err) == (len(players) + 2, 14)
    assert "exactly two" in err.message and count in err.message


def test_the_opponent_with_nobody_before_it_is_an_error():
    err = error_of(TWO + "The opponent drew 2 extra cards\n")
    assert caret(err) == (4, 1) and "starts the report" not in err.message and "line 3" in err.message


# --- pronouns ---------------------------------------------------------------------------------

def test_a_pronoun_starting_a_statement_is_the_subject_of_the_one_before():
    report = parse_report(TWO + "NAP drew 2 extra cards\nIt was caught at once\nShe looked at 1 extra card\n"
                                "they drew 1 extra card\n")
    assert [o.subject for o in report.observations] == ["NAP", "NAP", "NAP"]
    assert "\nNAP looked at 1 extra card\n" in print_report(report)


def test_a_pronoun_with_no_statement_before_is_an_error_at_it():
    err = error_of("She drew 2 extra cards\npolicy: fab\nplayer: Kim\n")
    assert caret(err) == (1, 1) and "starts the report" in err.message


def test_a_pronoun_after_a_line_with_no_subject_is_an_error_at_it():
    err = error_of(TWO + "  He drew 2 extra cards\n")
    assert caret(err) == (4, 3) and "line 3 names none" in err.message


def test_a_pronoun_stands_only_at_the_start_of_a_statement():
    err = error_of(TWO + "NAP drew 2 extra cards, reported by she\n")
    assert caret(err) == (4, 37) and "start of a statement" in err.message


@pytest.mark.parametrize("name", ["She", '"She"', "the opponent"])
def test_a_declared_name_wins_over_a_pronoun_or_the_opponent(name):
    report = parse_report(f"policy: fab\nplayer: {name}\nplayer: Kim\n{name} harassed Kim\nKim harassed {name}\n")
    assert [(o.subject, o.other) for o in report.observations] == [(name.strip('"'), "Kim"), ("Kim", name.strip('"'))]
    assert parse_report(print_report(report)) == report


def test_the_opponent_in_a_statement_with_no_subject_is_of_the_subject_before():
    report = parse_report(TWO + "Player A drew 2 extra cards\ntime was called during the opponent's turn\n")
    assert report.states[0].persons == ["NAP"]
    err = error_of(TWO + "time was called during the opponent's turn\n")
    assert caret(err) == (4, 24) and "line 3 names none" in err.message


@pytest.mark.parametrize("line, column, name", [("Player B drew 2 extra cards", 1, "Player B"),
                                                ("NAP harassed player  B", 14, "player  B")])
def test_a_name_of_several_words_no_one_declared_is_named_whole(line, column, name):
    err = error_of(TWO + line + "\n")
    assert caret(err) == (4, column)
    assert err.message.startswith(f"`{name}` is not declared")
    assert err.suggestions == ["Player A"]
