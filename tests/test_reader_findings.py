"""The judge's own finding in a note: `I determined that she did it on purpose` continues the
statement before it (what the judge found, its opening words kept as not read), where another
person's determination (`Lee determined that ...`) is their account and refused; a sentence of
modifiers that contradict each other is refused, never printed as a line that cannot parse."""
from __future__ import annotations

import pytest

from ppgcheck.errors import ReportError
from ppgcheck.language.report import parse_report

HEADER = "policy: dci\nplayer: Kim\nplayer: Lee\n"


def read(*lines: str):
    return parse_report(HEADER + "\n".join(lines) + "\n", tolerant=True).observations


def refused(*lines: str) -> ReportError:
    with pytest.raises(ReportError) as caught:
        read(*lines)
    return caught.value


@pytest.mark.parametrize("lines", [
    ("Kim drew 2 cards instead of 1. I determined that she did it on purpose.",),
    ("Kim drew 2 cards instead of 1.", "I determined that she did it on purpose."),
])
def test_the_judges_finding_continues_the_statement_before_with_its_opening_not_read(lines):
    [obs] = read(*lines)
    assert (obs.kind, {m.kind for m in obs.modifiers}) == ("drew_extra_cards", {"on_purpose"})
    assert obs.reading.read_as == "Kim drew 1 extra card, on purpose"
    assert any("I determined that" in text for text in obs.reading.not_read)


def test_a_continuation_on_a_line_of_its_own_shows_its_words_in_the_reading():
    [obs] = read("Kim drew 2 cards instead of 1.", "I determined that she did it on purpose.")
    assert obs.reading.written == "Kim drew 2 cards instead of 1. I determined that she did it on purpose."


@pytest.mark.parametrize("sentence", ["Kim drew 2 cards instead of 1. Lee determined that she did it on purpose.",
                                      "Kim drew 2 cards instead of 1. Lee stated that she did it on purpose."])
def test_another_persons_determination_is_their_account(sentence):
    assert "account" in refused(sentence).message


def test_contradicting_modifiers_after_a_statement_are_refused_with_both_lines():
    error = refused("Lee played slowly. I don't think he is doing it on purpose.")
    assert "says both" in error.message
    assert set(error.suggestions[:2]) == {"Lee played slowly, not on purpose", "Lee played slowly, on purpose"}


@pytest.mark.parametrize("sentence", ["Kim arrived 3 minutes late without notifying a judge beforehand",
                                      "Kim was 3 minutes late without notifying a judge"])
def test_a_denied_modifier_that_says_the_default_is_the_statement_without_it(sentence):
    # (ffg: Tardiness is being late "without notifying a judge beforehand": `read_negates(M, nothing)`)
    [obs] = parse_report("policy: ffg\nplayer: Kim\nplayer: Lee\n" + sentence + "\n", tolerant=True).observations
    assert (obs.kind, obs.counts, obs.modifiers) == ("late", {"minutes": 3}, [])


def test_the_modifier_itself_is_still_read():
    [obs] = parse_report("policy: ffg\nplayer: Kim\nplayer: Lee\nKim was 3 minutes late after notifying a judge\n",
                         tolerant=True).observations
    assert [m.kind for m in obs.modifiers] == ["after_notifying_judge"]
