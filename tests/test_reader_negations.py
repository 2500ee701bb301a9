"""Which negation negates a modifier: the one nearest it, and a modifier that says its own
negation (`no sign she did it on purpose`) is never undone by another before it."""
from __future__ import annotations

import pytest

from ppgcheck.errors import ReportError
from ppgcheck.language.report import parse_report

HEADER = "policy: fab\nplayer: Kim\nplayer: Lee\n"


def read(sentence: str):
    return parse_report(HEADER + sentence + "\n", tolerant=True).observations[0]


@pytest.mark.parametrize("sentence", [
    # a dictated run-on: `wasnt` belongs to its own clause, the phrase says no intent
    "Kim drew 2 extra cards she wasnt paying attention no sign she did it on purpose",
    "Kim drew 2 extra cards she wasnt careful but it was not on purpose",
])
def test_an_earlier_negation_never_undoes_a_negation_nearer_the_modifier(sentence):
    obs = read(sentence)
    assert (obs.kind, [m.kind for m in obs.modifiers]) == ("drew_extra_cards", ["accidental"])
    assert any("wasnt" in text for text in obs.reading.not_read)


def test_a_negation_before_the_observation_is_still_refused_beside_a_negated_modifier():
    with pytest.raises(ReportError, match="negates"):
        read("Kim didnt draw 2 extra cards no sign she did it on purpose")


def test_a_lone_negation_still_negates_the_modifier_after_it():
    obs = read("Kim drew 2 extra cards, she did not do it on purpose")
    assert [m.kind for m in obs.modifiers] == ["accidental"]


@pytest.mark.parametrize("note, modifier", [
    ("Kim drew 2 extra cards. On purpose? No.", "accidental"),
    ("Q: what happened? A: Kim drew 2 extra cards. Q: on purpose? A: no.", "accidental"),
    ("Kim drew 2 extra cards. On purpose? Yes, she admitted it.", "on_purpose"),
])
def test_a_modifier_asked_is_what_its_answer_says(note, modifier):
    obs = read(note)
    assert [m.kind for m in obs.modifiers] == [modifier]


def test_a_modifier_asked_and_never_answered_is_refused():
    with pytest.raises(ReportError, match="is asked"):
        read("Kim drew 2 extra cards. On purpose?")


def _suggestions(note: str) -> list[str]:
    with pytest.raises(ReportError) as refused:
        read(note)
    return str(refused.value).partition("did you mean:\n")[2].splitlines()


def test_a_suggestion_says_a_modifier_as_its_answer_does():
    lines = _suggestions("Kim juggled her hand. On purpose? No.")
    assert lines and all("not on purpose" in line for line in lines)


def test_a_suggestion_leaves_out_a_modifier_asked_and_never_answered():
    lines = _suggestions("Kim juggled her hand. On purpose?")
    assert lines and not any("purpose" in line for line in lines)


def test_a_state_refused_for_what_else_its_words_say_is_not_the_first_suggestion():
    # (`called a judge` is read, and `knew` may say `on purpose`: the line to offer is what he did)
    lines = _suggestions("Up a game with little time left, Kim called a judge for a ruling he obviously knew, "
                         "just to burn time")
    assert lines and "called a judge" not in lines[0]
