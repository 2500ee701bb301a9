"""Incident reports: parse text into Report dataclasses (and print them back, printer.py).

The language of a report is its policy's: the core's forms and those its pack adds
(vocabulary.py), made into a grammar by grammar.py.  The policy is `--policy` when
given, else the report's own `policy:` line, read before the report is parsed; a file
whose reports are written in different languages is parsed report by report.  Every
error carries file, line, column, the line with a caret, what was expected and the
closest valid forms (diagnostics.py).
"""
from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import re
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

import lark

from ppgcheck.errors import ReportError
from ppgcheck.language.build import MAX_HISTORY_REPEATS, MAX_OBSERVATIONS, MAX_PERSONS, ReportBuilder
from ppgcheck.language import names
from ppgcheck.language.grammar import Language, language
from ppgcheck.language.model import HistoryEntry, Modifier, Observation, Report
from ppgcheck.language.printer import (print_history_entry, print_observation, print_report, print_reports,
                                       quote_name)
from ppgcheck.language.vocabulary import Vocabulary, vocabulary

__all__ = ["HistoryEntry", "Modifier", "Observation", "Report", "parse_report", "parse_reports",
           "print_history_entry", "print_observation", "print_report", "print_reports", "quote_name",
           "report_language", "read_reports", "MAX_PERSONS", "MAX_OBSERVATIONS",
           "MAX_HISTORY_REPEATS", "MAX_REPORT_BYTES", "MAX_REPORT_LINES"]

# control characters, and a byte order mark past the start of a file: invisible, never meant
# (a carriage return not before a line feed: a file with CR-only line endings would read as one line)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufeff]|\r(?!\n)")
# a line the grammar reads as a separator (report.lark: SEPARATOR and the end of line)
_SEPARATOR = re.compile(r"[ \t]*---+[ \t]*\.?[ \t]*(#.*)?\Z")
_POLICY = re.compile(r"[ \t]*policy[ \t]*:[ \t]*([A-Za-z][\w/-]*)", re.IGNORECASE)
# typographic apostrophes and quotes, as a phone types them, are read as plain ones
_TYPOGRAPHIC = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"'})


def report_language(policy: str | None = None, rules: Path | None = None) -> Language:
    """The language reports of a policy are written in (the core's alone for no policy)."""
    return language(vocabulary(policy, rules))


def parse_reports(text: str, source: str = "<report>", policy: str | None = None,
                  rules: Path | None = None, first_line: int = 1, tolerant: bool = False) -> list[Report]:
    """Parse a file's text into its reports (separated by `---` lines), each in the language
    of its policy: `policy` when given, else its `policy:` line (a pack of `rules`, the
    bundled packs by default).  `first_line` is the line of the file the text starts at
    (read_reports parses a file report by report).  `tolerant`: a sentence that is not a
    canonical form is read by the tolerant reader (its Observation.reading says how);
    strict (the default) accepts canonical forms only."""
    text = text.translate(_TYPOGRAPHIC)
    if text.startswith("\ufeff") and first_line == 1:    # a byte order mark: not part of the report
        text = text[1:]
    # lines as the grammar counts them (str.splitlines also splits at U+2028 and others)
    lines = [line.removesuffix("\r") for line in text.split("\n")]
    try:
        if tolerant:
            reports = _parse_tolerant(text, lines, source, policy, rules, first_line - 1)
        else:
            reports = _parse_text(text, lines, source, policy, rules, first_line - 1)
    except ReportError as exc:
        if first_line == 1:
            raise
        raise dataclasses.replace(exc, line=exc.line + first_line - 1) from None
    for report in reports:
        report.one_of_several = len(reports) > 1
        report.vocab = vocabulary(policy or report.policy, rules)
        if first_line > 1:
            _shift(report, first_line - 1)
    return reports


def _parse_text(text: str, lines: list[str], source: str, policy: str | None, rules: Path | None,
                line_offset: int) -> list[Report]:
    refused = _control_character(text, source, 1)
    if refused:
        raise refused
    if not text.strip():
        raise ReportError("the file holds no report", source, 1, 1, "")
    chunks = _chunks(lines)
    vocabs = [vocabulary(policy or header, rules) for _, _, header in chunks]
    if len({v.key for v in vocabs}) == 1:
        return _parse(text, lines, source, vocabs[0], line_offset=line_offset)
    reports = []        # reports in different languages: each parsed alone, at its own lines
    for (start, end, _), vocab in zip(chunks, vocabs):
        reports.extend(_parse("\n" * start + "\n".join(lines[start:end]), lines, source, vocab, first=start + 1,
                              line_offset=line_offset))
    return reports


# whether a strict syntax error lists the closest forms of the language (difflib against every
# form: ~50 ms a line); the tolerant reader's strict tries, whose errors it mostly discards, do not
_CLOSEST_FORMS = contextvars.ContextVar("closest_forms", default=True)


@contextlib.contextmanager
def _closest_forms(shown: bool) -> Iterator[None]:
    token = _CLOSEST_FORMS.set(shown)
    try:
        yield
    finally:
        _CLOSEST_FORMS.reset(token)


def _parse_tolerant(text: str, lines: list[str], source: str, policy: str | None, rules: Path | None,
                    line_offset: int) -> list[Report]:
    """The reports of a text whose free sentences the tolerant reader reads (tolerant.py)."""
    try:        # a report in the language needs no reader: its word forms' libraries (lemminflect
        with _closest_forms(False):     # and numpy) cost ~75 ms
            return _parse_text(text, lines, source, policy, rules, line_offset)
    except ReportError:
        pass
    # (only a line the strict parse refuses needs the reader, its word forms and their libraries)
    from ppgcheck.language.tolerant import parse_tolerantly
    strict_text = text

    def parse(current: list[str], closest_forms: bool = False) -> list[Report]:
        """The strict parse of the lines; its error lists the closest forms only when asked
        (an error the judge will see)."""
        joined = strict_text if current == lines else "\n".join(current)
        with _closest_forms(closest_forms):
            return _parse_text(joined, current, source, policy, rules, line_offset)

    def vocab_of_line(n: int) -> Vocabulary:
        chunk = next((c for c in _chunks(lines) if c[0] < n <= c[1]), (0, 0, None))
        return vocabulary(policy or chunk[2], rules)

    return parse_tolerantly(lines, source, parse, vocab_of_line)


def _control_character(text: str, source: str, first_line: int) -> ReportError | None:
    """The error for the first control character (or stray BOM) in text, whose first line
    is the file's line first_line; None when there is none."""
    bad = _CONTROL.search(text)
    if not bad:
        return None
    start = text.rfind("\n", 0, bad.start()) + 1
    end = text.find("\n", bad.start())
    shown = text[start:end if end >= 0 else len(text)].removesuffix("\r")
    what = ("a byte order mark (U+FEFF)" if bad.group() == "\ufeff" else
            "a carriage return without a line feed (CR-only line endings: save the file with LF or CRLF)"
            if bad.group() == "\r" else f"control character U+{ord(bad.group()):04X}")
    return ReportError(f"{what} is not allowed in a report", source, first_line + text.count("\n", 0, bad.start()),
                       bad.start() - start + 1, shown.replace(bad.group(), "?"))


def _shift(report: Report, offset: int) -> None:
    """Line numbers of a report parsed alone, made the file's."""
    report.line_offset = offset
    report.line += offset
    report.positions = {key: (line + offset, column) for key, (line, column) in report.positions.items()}
    for item in (*report.observations, *report.history):
        item.line += offset


# ---------------------------------------------------------------------------
# reading a file report by report
# ---------------------------------------------------------------------------

MAX_REPORT_BYTES = 64 * 1024
MAX_REPORT_LINES = 1000
_BOM = b"\xef\xbb\xbf"
# a line the grammar reads as a SEPARATOR and its end of line (report.lark: SEPARATOR, _NL)
_SEPARATOR_LINE = re.compile(rb"[ \t]*---+[ \t]*\.?[ \t]*(#[^\n]*)?\r?\n?\Z")


def read_reports(stream: BinaryIO, source: str, policy: str | None = None,
                 rules: Path | None = None, tolerant: bool = False) -> Iterator[Report | ReportError]:
    """Each report of a file as it is read (in its policy's language, as parse_reports),
    or the error of a bad one: one report in memory at a time, whatever the file's size.
    A report past MAX_REPORT_BYTES or MAX_REPORT_LINES is an error found while reading
    (the first error within what was read, if there is one, else the limit's), and the
    rest of the file is then not read; so is the rest of a file that is not UTF-8.
    A BOM at the start is skipped.  `tolerant`: free sentences read as parse_reports reads them."""
    line_no, start, size, first = 0, 1, 0, True
    lines: list[str] = []
    language = (policy, rules, tolerant)
    while True:
        raw = stream.readline(MAX_REPORT_BYTES + 1 - size)
        if line_no == 0 and raw.startswith(_BOM):
            raw = raw[len(_BOM):]
        line_no += bool(raw)
        if not raw or _SEPARATOR_LINE.match(raw):
            yield from _chunk_reports(lines, start, source, language, several=bool(raw) or not first, first=first)
            if not raw:
                return
            refused = _control_character(raw.decode("utf-8", "replace"), source, line_no)
            if refused:  # a separator's comment is text of the file too: refused as parse_reports refuses it
                yield refused
                return
            first, lines, size, start = False, [], 0, line_no + 1
            continue
        try:
            lines.append(raw.decode("utf-8"))
        except UnicodeDecodeError as exc:
            text = raw[:exc.start].decode("utf-8", "replace")
            yield ReportError(f"`{source}` is not UTF-8 text: {exc.reason} (the rest of the file is not read)",
                              source, line_no, len(text) + 1, text)
            return
        size += len(raw)
        if size > MAX_REPORT_BYTES or len(lines) > MAX_REPORT_LINES:
            yield _overlong(lines, start, line_no, source, language, size > MAX_REPORT_BYTES)
            return


def _chunk_reports(lines: list[str], start: int, source: str, language: tuple[str | None, Path | None, bool],
                   several: bool, first: bool) -> Iterator[Report | ReportError]:
    """The report of the lines between two separators (or its error)."""
    text = "".join(lines)
    if not text.strip():
        message = "the file holds no report" if first and not several else \
            "empty report: a report needs at least one statement"
        yield ReportError(message, source, start, 1, "")
        return
    try:
        reports = _parse_chunk(text, source, language, start)
    except ReportError as exc:
        yield exc
        return
    for report in reports:
        report.one_of_several = several or len(reports) > 1
        yield report


def _parse_chunk(text: str, source: str, language: tuple[str | None, Path | None, bool], start: int) -> list[Report]:
    policy, rules, tolerant = language
    return parse_reports(text, source, policy, rules, first_line=start, tolerant=tolerant)


def _overlong(lines: list[str], start: int, line_no: int, source: str, language: tuple[str | None, Path | None, bool],
              by_size: bool) -> ReportError:
    """A report past a limit: the first error within its complete lines (say, too many
    observations at line 14), else the limit's own."""
    read = "".join(lines[:-1])
    if read.strip():
        try:
            _parse_chunk(read, source, language, start)
        except ReportError as exc:
            if exc.line < line_no:
                return dataclasses.replace(exc, message=exc.message + " (the rest of the file is not read)")
    limit = f"{MAX_REPORT_BYTES} bytes" if by_size else f"{MAX_REPORT_LINES} lines"
    text = lines[-1].rstrip("\r\n")
    return ReportError(f"the report starting at line {start} is longer than {limit}: a report may be at most "
                       f"{limit} (the rest of the file is not read)", source, line_no, 1,
                       text[:200] + ("..." if len(text) > 200 else ""))


def parse_report(text: str, source: str = "<report>", policy: str | None = None,
                 rules: Path | None = None, tolerant: bool = False) -> Report:
    """Parse text holding exactly one report."""
    reports = parse_reports(text, source, policy, rules, tolerant=tolerant)
    if len(reports) != 1:
        raise ReportError(f"expected one report, found {len(reports)}", source, 1, 1, "")
    return reports[0]


def _line(lines: list[str], n: int) -> str:
    return lines[n - 1] if 0 < n <= len(lines) else ""


def separator_line(line: bytes) -> bool:
    """Whether a line of a file (split at its newlines) separates two reports."""
    return bool(_SEPARATOR_LINE.match(line))


def single_policy(text: str) -> str | None:
    """The policy the `policy:` line of a file's one report names (as parse_reports reads it)."""
    return _chunks(text.split("\n"))[0][2]


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


def _parse(text: str, lines: list[str], source: str, vocab: Vocabulary, first: int = 1,
           line_offset: int = 0) -> list[Report]:
    lang = language(vocab)
    if not text.strip():
        raise ReportError("empty report: a report needs at least one statement", source, first, 1, _line(lines, first))
    try:
        tree = names.parse(lang, text if text.endswith("\n") else text + "\n")
    except lark.exceptions.UnexpectedInput as exc:
        from ppgcheck.language.diagnostics import syntax_error     # only a report with an error needs it
        raise syntax_error(exc, lines, source, lang, closest_forms=_CLOSEST_FORMS.get()) from None
    try:
        return ReportBuilder(source, lines, lang, vocab, line_offset).transform(tree)
    except lark.exceptions.VisitError as exc:
        if isinstance(exc.orig_exc, ReportError):
            raise exc.orig_exc from None
        raise
