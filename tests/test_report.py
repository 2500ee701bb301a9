"""The report language: every form parses, errors say where and what, printing round-trips."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from ppgcheck.errors import ReportError
from ppgcheck.language.facts import build_facts
from ppgcheck.language.report import Modifier, Observation, parse_report, parse_reports, print_report
from ppgcheck.language.vocabulary import vocabulary

from conftest import HEADER, fill

DATA = Path(__file__).parent / "data"
DESIGN_DOC = Path(__file__).resolve().parents[2] / "shared" / "design" / "report-language.md"

COMPLETE = """\
# Table 12, round 5
policy: fab
rel: competitive
round: 5, swiss
day: 2
when: during game 1
player: Alice
player: Bob

Alice drew 5 cards with intellect 4, mixed into her hand, caught before Bob's next action.
It was not on purpose.
the ruling took 3 minutes

history:
  Alice: warning for hidden-card-error, day 2
"""


def canonical_lines() -> list[str]:
    lines = [l for l in (DATA / "canonical_forms.txt").read_text().splitlines()
             if l and not l.startswith("#")]
    return lines


def as_report(line: str) -> str:
    statement = re.sub(r"\bP\b", "Alice", line)
    statement = re.sub(r"\bQ\b", "Bob", statement)
    statement = statement.replace(" N ", " 2 ").replace(" M", " 4").replace("N cards off", "2 cards off")
    if ":" in line.split(" ")[0]:
        # a header line, with the names it needs
        policy = "" if statement.startswith("policy") else "policy: fab\n"
        person = "" if statement.startswith(("player", "spectator")) else "player: Bob\n"
        if "Alice" in statement and person:        # a tally line names both players
            person = "player: Alice\n" + person
        return policy + person + statement + "\n"
    return HEADER + statement + "\n"


@pytest.mark.parametrize("line", canonical_lines())
def test_every_canonical_form_of_the_language_doc_parses(line):
    report = parse_report(as_report(line))
    assert report.persons


@pytest.mark.skipif(not DESIGN_DOC.exists(), reason="shared design docs are not beside this checkout")
def test_the_transcribed_forms_cover_the_language_doc():
    """Each backticked observation form of the doc is in tests/data/canonical_forms.txt."""
    doc = DESIGN_DOC.read_text()
    transcribed = (DATA / "canonical_forms.txt").read_text()
    phrases = re.findall(r"`(P [^`]+|Q gave P advice)`", doc)
    missing = [p for p in phrases if p.replace("...", "").strip() not in transcribed
               and not p.endswith("...")]
    assert not missing


def test_the_complete_report_of_the_language_doc():
    report = parse_report(COMPLETE, "r5-t12.txt")
    assert report.policy == "fab" and report.rel == "competitive"
    assert (report.round, report.round_kind, report.day) == (5, "swiss", 2)
    assert report.when == ("during_game", 1)
    assert report.persons == [("Alice", "player"), ("Bob", "player")]
    assert report.ruling_minutes == 3
    [obs] = report.observations
    assert obs == Observation("Alice", "drew_above_intellect", None, {"cards": 5, "intellect": 4},
                              [Modifier("mixed_into_hand"), Modifier("caught_before_next_action", "Bob"),
                               Modifier("accidental")])
    assert [(h.person, h.penalty, h.infraction, h.day) for h in report.history] == \
        [("Alice", "warning", "hidden-card-error", 2)]


@pytest.mark.parametrize("category", ["observation", "modifier"])
def test_every_vocabulary_form_parses_to_its_listed_fact(category):
    vocab = vocabulary()
    table = vocab.observations if category == "observation" else vocab.modifiers
    for kind, forms in table.items():
        for form in forms:
            if category == "observation":
                text = HEADER + fill(form) + "\n"
            else:
                text = HEADER + "Alice broke a game rule, " + fill(form) + "\n"
            facts = {str(s) for s in build_facts(parse_report(text)).symbols}
            expected = form.fact.replace("(O,", "(1,").replace(",P,", ",1,")
            expected = expected.replace(",Q)", ",2)").replace("(1,Q)", "(1,2)")
            expected = re.sub(r",[A-Z_]+\)", ",2)", expected)
            for fact in expected.split(", "):
                assert fact in facts, (form.text, fact, facts)


def test_keywords_are_case_insensitive_and_names_case_preserving():
    report = parse_report("POLICY: fab\nPlayer: aLiCe\naLiCe DREW 1 EXTRA CARD, Mixed Into His Hand\n")
    assert report.persons == [("aLiCe", "player")]
    assert report.observations[0].kind == "drew_extra_cards"
    assert report.observations[0].counts == {"cards": 1}


def test_statements_may_end_with_a_period_and_carry_comments():
    report = parse_report("policy: fab # the guide\nplayer: Alice.\n\n# comment line\n"
                          "Alice stalled. # what the judge saw\n")
    assert [o.kind for o in report.observations] == ["stalled"]


def test_quoted_names_with_escapes():
    report = parse_report('policy: fab\nplayer: "Drew O\'Neil"\nplayer: "say \\"hi\\" \\\\ bye"\n'
                          '"Drew O\'Neil" harassed "say \\"hi\\" \\\\ bye"\n')
    assert report.persons[1][0] == 'say "hi" \\ bye'
    assert report.observations[0].other == 'say "hi" \\ bye'


def test_a_name_that_is_a_keyword_must_be_quoted():
    report = parse_report('policy: fab\nplayer: "round"\n"round" stalled\n')
    assert report.persons == [("round", "player")]
    assert '"round"' in print_report(report)


def test_several_reports_separated_by_dashes():
    reports = parse_reports(HEADER + "Alice stalled\n---\n" + HEADER + "Bob stalled\n")
    assert [r.observations[0].subject for r in reports] == ["Alice", "Bob"]
    assert reports[1].line == 6


def test_it_lines_add_modifiers_to_the_previous_observation():
    report = parse_report(HEADER + "Alice broke a game rule\nIt was on purpose, caught later.\n"
                          "It cannot be fixed\n")
    assert [m.kind for m in report.observations[0].modifiers] == [
        "on_purpose", "caught_later", "cannot_be_fixed"]


def test_print_then_parse_is_identity_on_the_complete_report():
    report = parse_report(COMPLETE)
    assert parse_report(print_report(report)) == report


# --- errors ---------------------------------------------------------------------

def error_of(text: str, source: str = "r.txt") -> ReportError:
    with pytest.raises(ReportError) as info:
        parse_reports(text, source)
    return info.value


def test_a_typo_names_the_place_and_the_closest_form():
    err = error_of("policy: fab\nplayer: Alice\nAlice drew 2 extar cards\n")
    assert (err.file, err.line, err.column) == ("r.txt", 3, 14)
    assert str(err).splitlines() == [
        "r.txt:3:14: error: unexpected `extar`",
        "3 | Alice drew 2 extar cards",
        "                 ^",
        "expected: `card`, `cards`, `extra`",
        "closest valid forms:",
        "  P drew N extra cards",
        "  P looked at N extra cards",
        "  P had marked cards",          # one form of each kind: the nearest
    ]


def test_an_undeclared_name_is_an_error():
    err = error_of("policy: fab\nplayer: Alice\nAlicia stalled\n")
    assert (err.line, err.column) == (3, 1)
    assert "`Alicia` is not declared" in err.message
    assert err.suggestions == ["Alice"]


def test_a_name_in_a_modifier_must_be_declared_too():
    err = error_of("policy: fab\nplayer: Alice\nAlice missed a trigger, created by Bob\n")
    assert (err.line, err.column) == (3, 36)


def test_a_number_out_of_range_is_an_error():
    err = error_of("policy: fab\nplayer: Alice\nAlice was 999 minutes late\n")
    assert (err.line, err.column) == (3, 11)
    assert err.message == "minutes `999` is out of range: expected 0 to 120"


def test_a_header_given_twice_is_an_error():
    err = error_of("policy: fab\nrel: competitive\nrel: professional\n")
    assert err.message == "`rel` is given twice (first on line 2)"


def test_a_person_declared_twice_is_an_error():
    err = error_of("policy: fab\nplayer: Alice\nspectator: Alice\n")
    assert err.message == "`Alice` is declared twice"


def test_an_it_line_needs_an_observation_before_it():
    err = error_of("policy: fab\nplayer: Alice\nIt was on purpose\n")
    assert err.message == "an `It ...` line must follow an observation"


def test_a_history_entry_needs_a_history_line():
    err = error_of("policy: fab\nplayer: Alice\nAlice: warning for slow-play\n")
    assert err.message == "a history entry must follow a `history:` line"


def test_a_nul_byte_is_a_clear_error():
    err = error_of("policy: fab\nplayer: \"A\x00B\"\n")
    assert (err.line, err.column) == (2, 11)
    assert err.message == "control character U+0000 is not allowed in a report"


def test_an_empty_file_is_an_error():
    assert error_of("\n# only a comment\n").message.startswith(("the file holds no report", "empty report"))


def test_an_empty_report_between_separators_is_an_error():
    err = error_of(HEADER + "Alice stalled\n---\n---\n" + HEADER + "Alice stalled\n")
    assert "expected" in str(err) or "empty report" in err.message


def test_a_missing_newline_at_the_end_is_fine():
    assert parse_report(HEADER + "Alice stalled").observations[0].kind == "stalled"


def test_too_many_observations_is_an_error():
    err = error_of(HEADER + "Alice stalled\n" * 9)
    assert err.message == "too many observations: at most 8 in one report"


# --- names ---------------------------------------------------------------------

@pytest.mark.parametrize("name", ["Zoë", "O'Neil", "José-María", "Bob_2", "J.R.R", "2Pac", "Łukasz", "李雷"])
def test_a_name_of_letters_digits_and_inner_signs_is_bare(name):
    report = parse_report(f"policy: fab\nplayer: {name}\nplayer: Bob\n{name} drew 1 extra card, "
                          f"caught before Bob's next action\n")
    assert report.persons[0] == (name, "player")
    assert report.observations[0].subject == name
    assert f"player: {name}\n" in print_report(report)


def test_a_possessive_is_not_part_of_the_name():
    report = parse_report("policy: fab\nplayer: Alice\nplayer: O'Neil\n"
                          "Alice drew 1 extra card, caught before O'Neil's next action\n")
    assert report.observations[0].modifiers[0].person == "O'Neil"


def test_typographic_apostrophes_and_quotes_read_as_plain_ones():
    report = parse_report("policy: fab\nplayer: O\u2019Neil\nplayer: \u201cMary Ann\u201d\n"
                          "O\u2019Neil harassed \"Mary Ann\"\nIt was on purpose, caught before O'Neil\u2019s next action\n")
    assert report.persons == [("O'Neil", "player"), ("Mary Ann", "player")]


@pytest.mark.parametrize("line", ['player: Dr. Mary', 'player: Zoë🎲', 'spectator: 12'])
def test_a_name_that_is_not_words_must_be_quoted_and_the_error_says_so(line):
    err = error_of(f"policy: fab\n{line}\n")
    assert (err.line, err.column) == (2, line.index(":") + 3)
    role, name = line.split(": ")
    assert err.message.startswith("quote a name") and f'`{role}: "{name}"`' in err.message


@pytest.mark.parametrize("text", ["policy: fab\nplayer: round\nround stalled\n",
                                  "policy: fab\nplayer: It\nIt stalled\n",
                                  "policy: fab\nplayer: A\nplayer: B\nB drew 1 extra card, A had a fair chance to notice\n",
                                  "policy: fab\nplayer: Day\nDay stalled\nDay drew 2 extar cards\n"])
def test_a_name_read_as_a_keyword_must_be_quoted_and_the_error_says_so(text):
    err = error_of(text)
    assert (err.line, err.column) == (2, 9)
    assert "is a word of the report language: quote the name" in err.message


def test_a_name_that_is_a_keyword_only_elsewhere_stays_bare():
    report = parse_report("policy: fab\nplayer: A\nplayer: B\nA drew 1 extra card, caught before B's next action\n")
    assert report.observations[0].subject == "A"
    assert 'player: "A"' in print_report(report)          # printed quoted: safe wherever it goes
    err = error_of("policy: fab\nplayer: A\nA drew 2 extar cards\n")
    assert err.message == "unexpected `extar`"


def test_a_quoted_name_without_its_closing_quote_is_named():
    err = error_of('policy: fab\nplayer: "Mary\n')
    assert err.message.startswith('a quoted name ends with `"`')


# --- what an error expects -----------------------------------------------------------

def test_a_mistyped_header_lists_the_headers_not_the_verbs():
    err = error_of("polcy: fab\nplayer: Alice\n")
    assert err.message == "unknown header `polcy`"
    assert "`policy:`" in err.expected and "`drew`" not in str(err)
    assert err.suggestions[0] == "policy: N"


def test_a_bad_header_value_lists_that_header_s_values():
    assert error_of("policy: fab\nrel: competetive\n").expected == [
        "`casual`", "`competitive`", "`professional`", "`regular`"]


def test_where_many_words_fit_the_closest_come_first_and_the_rest_are_counted():
    err = error_of("policy: fab\nplayer: Alice\nAlice drw 1 extra card\n")
    assert err.expected[0] == "`drew`" and len(err.expected) == 9
    assert err.expected[-1].endswith("more (`ppgcheck vocab` lists every form)")


def test_a_typo_suggests_the_form_the_judge_meant_first():
    """The closest forms are found from the observation, not from its modifiers after a comma
    (`, mixed into her hand` put the opening-hand forms first); the error reads `end of line`."""
    with pytest.raises(ReportError) as typo:
        parse_report("policy: fab\nrel: competitive\nplayer: Dave\nDave drew 2 extar cards, mixed into her hand\n")
    assert typo.value.suggestions[0] == "P drew N extra cards"
    with pytest.raises(ReportError) as short:
        parse_report("policy: fab\nplayer: Al\nAl was late\n")
    assert "unexpected end of line" in str(short.value)
    assert short.value.suggestions[0] == "P was N minutes late"


def test_two_modifiers_that_exclude_each_other_are_an_error_at_the_second():
    """`on purpose` and `accidentally` (core's exclusive/2 groups) on one observation, even on an
    `It ...` line after it: the report contradicts itself, and the ruling would follow one of them."""
    with pytest.raises(ReportError) as caught:
        parse_report("policy: dci\nplayer: Alice\nAlice deliberately drew 1 extra card\nIt was not on purpose.\n")
    error = caught.value
    assert (error.line, error.column) == (4, 8)
    assert str(error).startswith("<report>:4:8: error: `accidental` contradicts `on purpose` (line 3): "
                                 "an observation is one of `accidental`, `on purpose`")
    assert parse_report("policy: dci\nplayer: Alice\nAlice drew 1 extra card, on purpose\n"
                        "Alice drew 1 extra card, accidentally\n").observations[1].modifiers[0].kind == "accidental"
