"""A modifier alone in quotes (`Kim "accidentally" drew two`) may mean the opposite: refused,
both lines offered; the same words said by someone (`she said "by accident"`) are read."""
from __future__ import annotations

import pytest

from ppgcheck.errors import ReportError
from ppgcheck.language.report import parse_report

HEADER = "policy: dci\nplayer: Kim\nplayer: Lee\n"


@pytest.mark.parametrize("sentence", ['Kim "accidentally" drew 2 cards instead of 1',
                                      "Kim 'accidentally' drew 2 cards instead of 1",
                                      "Kim drew 2 cards instead of 1 \u201cby accident\u201d"])
def test_a_modifier_in_scare_quotes_is_refused_with_both_lines(sentence):
    with pytest.raises(ReportError) as caught:
        parse_report(HEADER + sentence + "\n", tolerant=True)
    assert "quotes" in caught.value.message
    assert caught.value.suggestions[:2] == ["Kim drew 1 extra card, not on purpose", "Kim drew 1 extra card"]


@pytest.mark.parametrize("sentence", ['Kim drew 2 cards instead of 1, she said "by accident"',
                                      "Kim drew 2 cards instead of 1 by accident"])
def test_a_modifier_said_or_unquoted_is_read(sentence):
    obs = parse_report(HEADER + sentence + "\n", tolerant=True).observations[0]
    assert obs.reading.read_as == "Kim drew 1 extra card, not on purpose"
