"""How long the judge took, as a note says it (ppgcheck/language/ruling_time.py): read as the
report's `the ruling took N minutes` only beside a word of fixing, never from a range, a
shortfall or a bound above one minute, and shown in the statement's reading."""
from __future__ import annotations

import pytest

from ppgcheck.api import rule_report
from ppgcheck.language.printer import print_report
from ppgcheck.language.report import parse_report
from ppgcheck.language.ruling_time import ruling_time
from ppgcheck.language.vocabulary import vocabulary

FFG = "policy: ffg\nplayer: Kim\nplayer: Lee\n"


@pytest.mark.parametrize("text,minutes", [
    ("quick fix, took me about a minute", 1),
    ("fixed in two minutes", 2),
    ("Took me 4 minutes to sort out.", 4),
    ("Untangling it took five minutes", 5),
    ("simple fix, under a minute", 1),
    ("took approx. 3 minutes to fix", 3),
    ("half a minute to fix", 1),
    ("Both got unpicked in 4 mins.", 4),
])
def test_a_duration_beside_a_word_of_fixing_is_the_ruling_time(text, minutes):
    assert ruling_time(text, vocabulary("ffg")).minutes == minutes


@pytest.mark.parametrize("text", [
    "3-4 minutes to fix",                # a range
    "a minute or two to fix",
    "almost 5 minutes to fix",           # short of its number
    "a couple of minutes to fix",
    "within 4 minutes we fixed it",      # a bound above one minute
    "Kim was 5 minutes late",            # no word of fixing
    "we took the extra die out, 2 min",
    "fixed it in 2 minutes, then 3 minutes to fix the next one",        # two times
])
def test_no_ruling_time_is_read_where_the_note_is_unsure_or_says_no_fixing(text):
    assert ruling_time(text, vocabulary("ffg")) is None


def test_the_ruling_time_of_a_note_tells_ffg_s_gameplay_error_rows_apart():
    minor = rule_report(FFG + "Kim made a gameplay error, fixed in two minutes\n", tolerant=True, questions=False)[0]
    intermediate = rule_report(FFG + "Kim made a gameplay error. Took me 4 minutes to sort out.\n", tolerant=True,
                               questions=False)[0]
    assert [r.infraction for r in minor.rulings] == ["minor-gameplay-error"]
    assert [r.infraction for r in intermediate.rulings] == ["intermediate-gameplay-error"]


def test_the_ruling_time_is_shown_in_the_reading_and_prints_back_as_the_report_s_line():
    report = parse_report(FFG + "Kim made a gameplay error. Took me 4 minutes to sort out.\n", tolerant=True)
    [observation] = report.observations
    assert observation.reading.read_as == "Kim made a gameplay error; the ruling took 4 minutes"
    assert "4 minutes" not in " ".join(observation.reading.not_read)
    printed = print_report(report)
    assert "the ruling took 4 minutes" in printed
    assert rule_report(printed, questions=False)[0].rulings[0].infraction == "intermediate-gameplay-error"


def test_a_count_the_statement_read_is_no_ruling_time():
    report = parse_report(FFG + "Kim was 3 minutes late, the scorekeeper fixed the slip\n", tolerant=True)
    assert report.ruling_minutes is None


def test_a_report_that_states_its_ruling_time_keeps_it():
    report = parse_report(FFG + "Kim made a gameplay error, fixed in two minutes\nthe ruling took 5 minutes\n",
                          tolerant=True)
    assert report.ruling_minutes == 5
