"""The fuzz property (tests/fuzzing.py): a report drawn from the grammar, or a golden
report mutated, is ruled or gets a PpgError, and nothing else.  bench/fuzz runs the
same property over 100,000 files outside pytest."""
from __future__ import annotations

import io

import pytest
from hypothesis import HealthCheck, example, given, settings

from fuzzing import grammar_reports, hostile_files, mutated_golden_reports, prepare, rule_and_render
from sampling import examples
from ppgcheck.language.report import Report, parse_reports, print_report, read_reports
from ppgcheck.errors import ReportError

# the suite's counts; bench/full_sweeps draws the larger ones, bench/fuzz 100,000 files
QUICK = settings(max_examples=examples(20, 60), deadline=None, suppress_health_check=list(HealthCheck))
MUTATED = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))


@pytest.mark.slow(120)
@QUICK
@given(grammar_reports())
def test_a_report_from_the_grammar_is_ruled_or_refused_cleanly(data: bytes) -> None:
    prepared, errors = prepare(data)
    rule_and_render(prepared)        # any exception but a PpgError fails the test


@MUTATED
@given(mutated_golden_reports())
def test_a_mutated_golden_report_is_ruled_or_refused_cleanly(data: bytes) -> None:
    prepared, errors = prepare(data)
    rule_and_render(prepared)


@settings(max_examples=examples(100, 300), deadline=None, suppress_health_check=list(HealthCheck))
@given(hostile_files())
@example(b" history :\n--- # \x1f\n history :\n")      # a control character in a separator's comment (found here)
def test_reading_report_by_report_finds_what_parsing_the_whole_file_finds(data: bytes) -> None:
    """The streaming reader against the whole-file parser, on files it can read whole:
    the same reports, with the same lines; an error in the file is an error either way."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return
    items = list(read_reports(io.BytesIO(data), "f.txt"))
    try:
        whole = parse_reports(text.removeprefix("\ufeff"), "f.txt")
    except ReportError:
        assert any(isinstance(item, ReportError) for item in items)
        return
    streamed = [item for item in items if isinstance(item, Report)]
    if len(streamed) == len(items):
        assert [print_report(r) for r in streamed] == [print_report(r) for r in whole]
        assert [(r.line, r.name) for r in streamed] == [(r.line, r.name) for r in whole]
