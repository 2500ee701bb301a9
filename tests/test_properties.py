"""Property tests (the fuzz catalogue):
- parsing any string fails cleanly: only ReportError, never another exception;
- print ∘ parse is the identity on generated reports;
- every well-formed report yields exactly one ruling set under every bundled policy.
"""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ppgcheck import api
from ppgcheck.errors import ReportError
from ppgcheck.engine.policy import engine
from ppgcheck.language.report import parse_report, parse_reports, print_report
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
