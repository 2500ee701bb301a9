"""Property tests (the fuzz catalogue):
- parsing any string fails cleanly: only ReportError, never another exception;
- print ∘ parse is the identity on generated reports;
- every well-formed report yields exactly one ruling set under every bundled policy;
- a keyword matches whole words only: a name or word that starts with one is read whole.
"""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from ppgcheck import api
from ppgcheck.errors import ReportError
from ppgcheck.engine.policy import engine
from ppgcheck.language.report import parse_report, parse_reports, print_report, report_language
from ppgcheck.resources import policy_ids

from strategies import reports

ALPHABET = st.characters(codec="utf-8") | st.sampled_from(list("\n\n:,.-'\"\\#abc 0123456789"))
WORDS = st.sampled_from(["policy:", "fab", "player:", "Alice", "drew", "2", "extra", "cards", ",",
                         "caught", "at", "once", "\n", "It", "was", "---", "history:", ": warning for",
                         "hidden-card-error", '"', "\\", "\x00"])


@settings(max_examples=300, deadline=None)
@given(st.text(ALPHABET, max_size=200))
def test_random_text_raises_only_the_documented_error(text):
    try:
        parse_reports(text, "fuzz.txt")
    except ReportError as err:
        assert err.file == "fuzz.txt" and err.line >= 1 and err.column >= 1


@settings(max_examples=300, deadline=None)
@given(st.lists(WORDS, max_size=40).map(" ".join))
def test_near_miss_reports_raise_only_the_documented_error(text):
    try:
        parse_reports(text, "fuzz.txt")
    except ReportError as err:
        assert str(err).startswith("fuzz.txt:")


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(reports())
def test_print_then_parse_is_identity(report):
    text = print_report(report)
    assert parse_report(text) == report
    assert print_report(parse_report(text)) == text


@pytest.mark.parametrize("policy", policy_ids())
def test_every_well_formed_report_yields_exactly_one_ruling_set(policy):
    policy_engine = engine(policy)
    ids = (policy_engine.penalties, sorted(policy_engine.sections) or ["none"])

    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(reports(policy=policy, with_history_ids=ids if policy_engine.sections else None))
    def check(report):
        [ruling_set] = api.rule_report(print_report(report), source="gen.txt")
        assert ruling_set.policy == policy
        assert len(ruling_set.rulings) + len(ruling_set.no_infractions) + len(ruling_set.findings) >= 1

    check()


# --- keywords are whole words (issue 36, item 1) ---------------------------------------------

FAB = report_language("fab")
# the keywords a word can start with: those a bare name can continue (`a` -> `Ada`)
PREFIXES = sorted(k for k in FAB.keywords if FAB.bare_name.fullmatch(k + "x"))
SUFFIX = st.text(st.sampled_from("abcdexyzé"), min_size=1, max_size=4)
# a line of the language whose every word after the subject is a keyword
KEYWORD_LINE = "Lee drew 2 extra cards, mixed into her hand, caught at once"


def _longer(keyword: str, suffix: str) -> str | None:
    """A word that starts with the keyword and is no keyword itself (None: it is one)."""
    word = keyword.capitalize() + suffix
    return None if word.lower() in FAB.keywords else word


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(PREFIXES), SUFFIX)
def test_a_name_that_starts_with_a_keyword_parses_as_itself(keyword, suffix):
    name = _longer(keyword, suffix)
    assume(name is not None)
    report = parse_report(f"policy: fab\nplayer: {name}\nplayer: Lee\n{name} drew 2 extra cards, reported by {name}\n"
                          f"Lee gave {name} advice\n{name} and Lee played each other by mistake\n")
    assert [n for n, _ in report.persons] == [name, "Lee"]
    first, second, third = report.observations
    assert (first.subject, first.modifiers[0].person) == (name, name)
    assert (second.subject, second.other) == ("Lee", name)
    assert (third.subject, third.other) == (name, "Lee")
    printed = print_report(report)
    assert f"player: {name}\n" in printed and parse_report(printed) == report      # printed bare


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([i for i, w in enumerate(KEYWORD_LINE.split()) if w.rstrip(",") in FAB.keywords]), SUFFIX)
def test_a_misspelt_word_that_starts_with_a_keyword_is_the_error_at_its_start(index, suffix):
    """A word lengthened past a keyword (`extra` -> `extrax`) is read as one word: the error
    is at its first letter, never inside it (`a` used to read the start of `Ada`)."""
    words = KEYWORD_LINE.split(" ")
    word = _longer(words[index].rstrip(","), suffix)
    assume(word is not None)
    words[index] = word + ("," if words[index].endswith(",") else "")
    line = " ".join(words)
    with pytest.raises(ReportError) as caught:
        parse_report(f"policy: fab\nplayer: Lee\n{line}\n")
    err = caught.value
    start = len(" ".join(words[:index])) + 2
    assert err.line == 3 and err.column >= start and line[err.column - 2] == " "
    if not words[index - 1].endswith(","):      # (after a comma a name may stand: it is read as one)
        assert err.column == start and err.message.startswith(f"unexpected `{words[index]}`")


@pytest.mark.parametrize("text, column, found", [
    ("Lee called Ada a cheater", 12, "Ada"),
    ("Lee drew 2 extras cards", 12, "extras"),
    ("Lee didnt reveal a card", 5, "didnt"),
])
def test_a_keyword_never_reads_the_start_of_a_word(text, column, found):
    with pytest.raises(ReportError) as caught:
        parse_report(f"policy: fab\nplayer: Lee\nplayer: Ada\n{text}\n")
    assert (caught.value.line, caught.value.column) == (4, column)
    assert caught.value.message.startswith(f"unexpected `{found}`")
