"""Incident reports: parse text into Report dataclasses (and print them back, printer.py).

The language of a report is its policy's: the core's forms and those its pack adds
(vocabulary.py), made into a grammar by grammar.py.  The policy is `--policy` when
given, else the report's own `policy:` line, read before the report is parsed; a file
whose reports are written in different languages is parsed report by report.  Every
error carries file, line, column, the line with a caret, what was expected and the
closest valid forms (diagnostics.py).
"""
from __future__ import annotations

import re
from pathlib import Path

import lark

from ppgcheck.errors import ReportError
from ppgcheck.language.build import MAX_HISTORY_REPEATS, MAX_OBSERVATIONS, MAX_PERSONS, ReportBuilder
from ppgcheck.language.diagnostics import closest_forms, syntax_error
from ppgcheck.language.grammar import Language, language
from ppgcheck.language.model import HistoryEntry, MatchState, Modifier, Observation, Report
from ppgcheck.language.printer import (print_history_entry, print_observation, print_report, print_reports,
                                       quote_name)
from ppgcheck.language.vocabulary import Vocabulary, vocabulary

__all__ = ["HistoryEntry", "Modifier", "Observation", "Report", "parse_report", "parse_reports",
           "print_history_entry", "print_observation", "print_report", "print_reports", "quote_name",
           "closest_forms", "report_language", "MAX_PERSONS", "MAX_OBSERVATIONS", "MAX_HISTORY_REPEATS"]

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
# a line the grammar reads as a separator (report.lark: SEPARATOR and the end of line)
_SEPARATOR = re.compile(r"[ \t]*---+[ \t]*\.?[ \t]*(#.*)?\Z")
_POLICY = re.compile(r"[ \t]*policy[ \t]*:[ \t]*([A-Za-z][\w/-]*)", re.IGNORECASE)
# typographic apostrophes and quotes, as a phone types them, are read as plain ones
_TYPOGRAPHIC = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"'})


def report_language(policy: str | None = None, rules: Path | None = None) -> Language:
    """The language reports of a policy are written in (the core's alone for no policy)."""
    return language(vocabulary(policy, rules))


def parse_reports(text: str, source: str = "<report>", policy: str | None = None,
                  rules: Path | None = None) -> list[Report]:
    """Parse a file's text into its reports (separated by `---` lines), each in the language
    of its policy: `policy` when given, else its `policy:` line (a pack of `rules`, the
    bundled packs by default)."""
    text = text.translate(_TYPOGRAPHIC)
    lines = text.splitlines()
    bad = _CONTROL.search(text)
    if bad:
        line = text.count("\n", 0, bad.start()) + 1
        column = bad.start() - (text.rfind("\n", 0, bad.start()) + 1) + 1
        raise ReportError(f"control character U+{ord(bad.group()):04X} is not allowed in a report",
                          source, line, column, _line(lines, line).replace(bad.group(), "?"))
    if not text.strip():
        raise ReportError("the file holds no report", source, 1, 1, "")
    chunks = _chunks(lines)
    vocabs = [vocabulary(policy or header, rules) for _, _, header in chunks]
    if len({v.key for v in vocabs}) == 1:
        reports = _parse(text, lines, source, vocabs[0])
    else:       # reports in different languages: each parsed alone, at its own lines
        reports = []
        for (start, end, _), vocab in zip(chunks, vocabs):
            reports.extend(_parse("\n" * start + "\n".join(lines[start:end]), lines, source, vocab, first=start + 1))
    for report in reports:
        report.one_of_several = len(reports) > 1
        report.vocab = vocabulary(policy or report.policy, rules)
    return reports


def parse_report(text: str, source: str = "<report>", policy: str | None = None,
                 rules: Path | None = None) -> Report:
    """Parse text holding exactly one report."""
    reports = parse_reports(text, source, policy, rules)
    if len(reports) != 1:
        raise ReportError(f"expected one report, found {len(reports)}", source, 1, 1, "")
    return reports[0]


def _line(lines: list[str], n: int) -> str:
    return lines[n - 1] if 0 < n <= len(lines) else ""


def _chunks(lines: list[str]) -> list[tuple[int, int, str | None]]:
    """(first line, end, the policy its `policy:` line names) of each report's lines."""
    chunks: list[tuple[int, int, str | None]] = []
    start, policy = 0, None
    for i, line in enumerate(lines):
        if _SEPARATOR.match(line):
            chunks.append((start, i, policy))
            start, policy = i + 1, None
        elif policy is None:
            found = _POLICY.match(line)
            policy = found.group(1).lower() if found else None
    chunks.append((start, len(lines), policy))
    return chunks


def _parse(text: str, lines: list[str], source: str, vocab: Vocabulary, first: int = 1) -> list[Report]:
    lang = language(vocab)
    if not text.strip():
        raise ReportError("empty report: a report needs at least one statement", source, first, 1, _line(lines, first))
    try:
        tree = lang.parser.parse(text if text.endswith("\n") else text + "\n")
    except lark.exceptions.UnexpectedInput as exc:
        raise syntax_error(exc, lines, source, lang) from None
    try:
        return ReportBuilder(source, lines, lang, vocab).transform(tree)
    except lark.exceptions.VisitError as exc:
        if isinstance(exc.orig_exc, ReportError):
            raise exc.orig_exc from None
        raise
