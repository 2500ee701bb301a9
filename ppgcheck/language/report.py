"""Incident reports: parse text into Report dataclasses and print them back.

Parsing is LALR (grammar/report.lark).  Every error carries file, line, column,
the line with a caret, what was expected and the closest valid forms.
"""
from __future__ import annotations

import difflib
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import BinaryIO

import lark
from lark import Token, Tree

from ppgcheck.errors import ReportError
from ppgcheck.resources import grammar_dir
from ppgcheck.language.vocabulary import Vocabulary, vocabulary

MAX_PERSONS = 8
MAX_OBSERVATIONS = 8
MAX_HISTORY_REPEATS = 6


@dataclass
class Modifier:
    kind: str
    person: str | None = None
    number: int | None = None


@dataclass
class Observation:
    subject: str
    kind: str
    other: str | None = None
    counts: dict[str, int] = field(default_factory=dict)
    modifiers: list[Modifier] = field(default_factory=list)
    line: int = field(default=0, compare=False)


@dataclass
class HistoryEntry:
    person: str
    penalty: str
    infraction: str
    day: int | None = None
    line: int = field(default=0, compare=False)
    penalty_column: int = field(default=0, compare=False)
    infraction_column: int = field(default=0, compare=False)


@dataclass
class Report:
    policy: str | None = None
    rel: str | None = None
    tier: int | None = None
    event_kind: str | None = None
    game_kind: str | None = None
    round: int | None = None
    round_kind: str | None = None
    best_of: int | None = None
    day: int | None = None
    table: int | None = None        # for the event record only: no rule reads it
    when: tuple[str, int | None] | None = None
    persons: list[tuple[str, str]] = field(default_factory=list)
    ruling_minutes: int | None = None
    judge_call: tuple[str, str] | None = None
    observations: list[Observation] = field(default_factory=list)
    history: list[HistoryEntry] = field(default_factory=list)
    source: str = field(default="<report>", compare=False)
    line: int = field(default=1, compare=False)
    lines: list[str] = field(default_factory=list, compare=False, repr=False)
    positions: dict[str, tuple[int, int]] = field(default_factory=dict, compare=False, repr=False)
    one_of_several: bool = field(default=False, compare=False, repr=False)
    line_offset: int = field(default=0, compare=False, repr=False)    # lines of the file before `lines`

    @property
    def name(self) -> str:
        """The file, and the report's first line when the file holds several reports."""
        return f"{self.source}:{self.line}" if self.one_of_several else self.source

    def error(self, message: str, where: str | tuple[int, int], **extra) -> ReportError:
        """An error located at a recorded position of this report."""
        line, column = self.positions.get(where, (self.line, 1)) if isinstance(where, str) else where
        return ReportError(message, self.source, line, column, self.line_text(line), **extra)

    def line_text(self, line: int) -> str:
        """The text of a line of the file (the report holds its own lines only)."""
        return _line(self.lines, line - self.line_offset)


# ---------------------------------------------------------------------------
# the parser
# ---------------------------------------------------------------------------

@cache
def grammar_text() -> str:
    return (grammar_dir() / "report.lark").read_text()


@cache
def _parser() -> lark.Lark:
    options = dict(parser="lalr", lexer="contextual", propagate_positions=True,
                   maybe_placeholders=False)
    try:  # Lark keeps the built LALR tables in the temp folder: a cold start skips building them
        return lark.Lark(grammar_text(), cache=True, **options)
    except OSError:
        return lark.Lark(grammar_text(), **options)


@cache
def keywords() -> frozenset[str]:
    """Every literal word of the grammar: a name equal to one must be quoted."""
    return frozenset(w.lower() for w in re.findall(r'"([A-Za-z][\w\'-]*)"i?', grammar_text()))


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
# control characters, and a byte order mark past the start of a file: invisible, never meant
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufeff]")

_SINGLE_HEADERS = {"h_policy": "policy", "h_rel": "rel", "h_tier": "tier", "h_event": "event",
                   "h_game": "game", "h_round": "round", "h_round_kind": "round",
                   "h_draft": "round", "h_best_of": "match", "h_single_game": "match",
                   "h_day": "day", "h_table": "table", "h_when": "when", "h_ruling_minutes": "the ruling took",
                   "h_judge_call": "judge call"}


def parse_reports(text: str, source: str = "<report>", first_line: int = 1) -> list[Report]:
    """Parse a file's text into its reports (separated by `---` lines); `first_line` is the
    line of the file the text starts at (read_reports parses a file report by report)."""
    if text.startswith("\ufeff") and first_line == 1:    # a byte order mark: not part of the report
        text = text[1:]
    lines = [line.removesuffix("\r") for line in text.split("\n")]
    try:
        reports = _parse_text(text, lines, source)
    except ReportError as exc:
        exc.line += first_line - 1
        raise
    for report in reports:
        report.one_of_several = len(reports) > 1
        if first_line > 1:
            _shift(report, first_line - 1)
    return reports


def _parse_text(text: str, lines: list[str], source: str) -> list[Report]:
    bad = _CONTROL.search(text)
    if bad:
        line = text.count("\n", 0, bad.start()) + 1
        column = bad.start() - (text.rfind("\n", 0, bad.start()) + 1) + 1
        what = "a byte order mark (U+FEFF)" if bad.group() == "\ufeff" else \
            f"control character U+{ord(bad.group()):04X}"
        raise ReportError(f"{what} is not allowed in a report", source, line, column,
                          _line(lines, line).replace(bad.group(), "?"))
    if not text.strip():
        raise ReportError("the file holds no report", source, 1, 1, "")
    try:
        tree = _parser().parse(text if text.endswith("\n") else text + "\n")
    except lark.exceptions.UnexpectedInput as exc:
        raise _syntax_error(exc, text, lines, source) from None
    return [_Builder(source, lines, vocabulary()).report(node)
            for node in tree.children if isinstance(node, Tree) and node.data == "report"]


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


def read_reports(stream: BinaryIO, source: str) -> Iterator[Report | ReportError]:
    """Each report of a file as it is read, or the error of a bad one: one report in
    memory at a time, whatever the file's size.  A report past MAX_REPORT_BYTES or
    MAX_REPORT_LINES is an error found while reading (the first error within what was
    read, if there is one, else the limit's), and the rest of the file is then not
    read; so is the rest of a file that is not UTF-8.  A BOM at the start is skipped."""
    line_no, start, size, first = 0, 1, 0, True
    lines: list[str] = []
    while True:
        raw = stream.readline(MAX_REPORT_BYTES + 1 - size)
        if line_no == 0 and raw.startswith(_BOM):
            raw = raw[len(_BOM):]
        line_no += bool(raw)
        if not raw or _SEPARATOR_LINE.match(raw):
            yield from _chunk_reports(lines, start, source, several=bool(raw) or not first, first=first)
            if not raw:
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
            yield _overlong(lines, start, line_no, source, size > MAX_REPORT_BYTES)
            return


def _chunk_reports(lines: list[str], start: int, source: str, several: bool,
                   first: bool) -> Iterator[Report | ReportError]:
    """The report of the lines between two separators (or its error)."""
    text = "".join(lines)
    if not text.strip():
        message = "the file holds no report" if first and not several else \
            "empty report: a report needs at least one statement"
        yield ReportError(message, source, start, 1, "")
        return
    try:
        reports = parse_reports(text, source, first_line=start)
    except ReportError as exc:
        yield exc
        return
    for report in reports:
        report.one_of_several = several or len(reports) > 1
        yield report


def _overlong(lines: list[str], start: int, line_no: int, source: str, by_size: bool) -> ReportError:
    """A report past a limit: the first error within its complete lines (say, too many
    observations at line 14), else the limit's own."""
    read = "".join(lines[:-1])
    if read.strip():
        try:
            parse_reports(read, source, first_line=start)
        except ReportError as exc:
            if exc.line < line_no:
                exc.message += " (the rest of the file is not read)"
                return exc
    limit = f"{MAX_REPORT_BYTES} bytes" if by_size else f"{MAX_REPORT_LINES} lines"
    text = lines[-1].rstrip("\r\n")
    return ReportError(f"the report starting at line {start} is longer than {limit}: a report may be at most "
                       f"{limit} (the rest of the file is not read)", source, line_no, 1,
                       text[:200] + ("..." if len(text) > 200 else ""))


def parse_report(text: str, source: str = "<report>") -> Report:
    """Parse text holding exactly one report."""
    reports = parse_reports(text, source)
    if len(reports) != 1:
        raise ReportError(f"expected one report, found {len(reports)}", source, 1, 1, "")
    return reports[0]


def _line(lines: list[str], n: int) -> str:
    return lines[n - 1] if 0 < n <= len(lines) else ""


_ESCAPE = re.compile(r'\\(["\\])')
_NAME_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_CONTROL_SHOWN = re.compile(r"[\x00-\x1f\x7f\ufeff]")     # shown as `?`, so the caret lines up


class _Builder:
    """Turns one `report` subtree into a Report, validating as it goes."""

    def __init__(self, source: str, lines: list[str], vocab: Vocabulary) -> None:
        self.source, self.lines, self.vocab = source, lines, vocab

    def fail(self, message: str, line: int, column: int, **extra) -> ReportError:
        return ReportError(message, self.source, line, column, _line(self.lines, line), **extra)

    def name(self, token: Token) -> str:
        """A person's name as written: a bare name, or a quoted one unescaped (\\" and \\\\);
        a control character in it (a tab, say) is an error at its column."""
        if token.type != "QNAME":
            return token.value
        bad = _NAME_CONTROL.search(token.value)
        if bad:
            column = token.column + bad.start()
            raise ReportError(f"control character U+{ord(bad.group()):04X} is not allowed in a name", self.source,
                              token.line, column, _CONTROL_SHOWN.sub("?", _line(self.lines, token.line)))
        return _ESCAPE.sub(r"\1", token.value[1:-1])

    def number(self, token: Token, lo: int, hi: int, what: str) -> int:
        value = int(token.value)
        if not lo <= value <= hi:
            raise self.fail(f"{what} `{value}` is out of range: expected {lo} to {hi}",
                            token.line, token.column)
        return value

    def header_number(self, token: Token, key: str, what: str) -> int:
        lo, hi = self.vocab.header_ranges[key]
        return self.number(token, lo, hi, what)

    def report(self, node: Tree) -> Report:
        statements = list(node.children)
        if not statements:
            line = node.meta.line if not node.meta.empty else 1
            raise self.fail("empty report: a report needs at least one statement", line, 1)
        report = Report(source=self.source, line=statements[0].meta.line, lines=self.lines)
        self.seen: dict[str, int] = {}
        self.uses: list[tuple[str, Token]] = []
        in_history = False
        for st in statements:
            kind = st.data
            if kind == "history_head":
                in_history = True
            elif kind == "history_entry":
                if not in_history:
                    raise self.fail("a history entry must follow a `history:` line",
                                    st.meta.line, st.meta.column)
                report.history.append(self.history_entry(st))
            elif kind == "observation":
                if len(report.observations) == MAX_OBSERVATIONS:
                    raise self.fail(f"too many observations: at most {MAX_OBSERVATIONS} in one report",
                                    st.meta.line, st.meta.column)
                report.observations.append(self.observation(st))
            elif kind == "continuation":
                if not report.observations:
                    raise self.fail("an `It ...` line must follow an observation",
                                    st.meta.line, st.meta.column)
                obs = report.observations[-1]
                for mod in st.children:
                    self.add_modifier(obs, mod)
            else:
                self.header(report, st)
        self.check_names(report)
        self.check_repeats(report)
        return report

    # --- headers -------------------------------------------------------------
    def header(self, report: Report, st: Tree) -> None:
        kind, args = st.data, st.children
        line, column = st.meta.line, st.meta.column
        key = _SINGLE_HEADERS.get(kind)
        if key is not None:
            if key in self.seen:
                raise self.fail(f"`{key}` is given twice (first on line {self.seen[key]})", line, column)
            self.seen[key] = line
        if kind == "h_policy":
            report.policy = args[0].value.lower()
            report.positions["policy"] = (args[0].line, args[0].column)
        elif kind == "h_rel":
            report.rel = args[0].data
        elif kind == "h_tier":
            report.tier = self.header_number(args[0], "tier", "tier")
        elif kind == "h_event":
            report.event_kind = args[0].data
        elif kind == "h_game":
            report.game_kind = args[0].data
        elif kind == "h_round":
            report.round = self.header_number(args[0], "round", "round")
        elif kind == "h_round_kind":
            report.round = self.header_number(args[0], "round", "round")
            report.round_kind = args[1].data
        elif kind == "h_draft":
            report.round_kind = "draft"
        elif kind == "h_best_of":
            report.best_of = self.header_number(args[0], "best_of", "best of")
        elif kind == "h_single_game":
            report.best_of = 1
        elif kind == "h_day":
            report.day = self.header_number(args[0], "day", "day")
        elif kind == "h_table":
            report.table = self.header_number(args[0], "table", "table")
        elif kind == "h_when":
            value = args[0]
            number = None
            if value.children:
                key = "round" if value.data == "before_round" else "game"
                number = self.header_number(value.children[0], key, key)
            report.when = (value.data, number)
        elif kind in ("h_player", "h_spectator"):
            token = args[0].children[0]
            name = self.name(token)
            if any(n == name for n, _ in report.persons):
                raise self.fail(f"`{name}` is declared twice", token.line, token.column)
            if len(report.persons) == MAX_PERSONS:
                raise self.fail(f"too many persons: at most {MAX_PERSONS} in one report",
                                token.line, token.column)
            report.persons.append((name, "player" if kind == "h_player" else "spectator"))
        elif kind == "h_ruling_minutes":
            report.ruling_minutes = self.header_number(args[0], "ruling_minutes", "ruling time")
        elif kind == "h_judge_call":
            report.judge_call = (args[0].value.lower(), args[1].value.lower())
            report.positions["judge_call_infraction"] = (args[0].line, args[0].column)
            report.positions["judge_call_penalty"] = (args[1].line, args[1].column)
        else:  # pragma: no cover - the grammar has no other header
            raise self.fail(f"unknown header `{kind}`", line, column)

    # --- history ---------------------------------------------------------------
    def history_entry(self, st: Tree) -> HistoryEntry:
        person, penalty, infraction, *day = st.children
        return HistoryEntry(self.person(person), penalty.value.lower(), infraction.value.lower(),
                            self.header_number(day[0], "day", "day") if day else None,
                            line=st.meta.line, penalty_column=penalty.column,
                            infraction_column=infraction.column)

    # --- observations ------------------------------------------------------------
    def observation(self, st: Tree) -> Observation:
        persons = [c for c in st.children if isinstance(c, Tree) and c.data == "person"]
        rest = [c for c in st.children if isinstance(c, Tree) and c.data != "person"]
        phrase, mods = rest[0], rest[1:]
        obs = Observation(self.person(persons[0]), phrase.data.removeprefix("obs_"), line=st.meta.line)
        if len(persons) == 2:  # `P and Q decided ...`
            obs.other = self.person(persons[1])
        for child in phrase.children:
            if child.data == "person":
                obs.other = self.person(child)
            else:
                key, value = self.count(child)
                obs.counts[key] = value
        for mod in mods:
            self.add_modifier(obs, mod)
        return obs

    def add_modifier(self, obs: Observation, mod: Tree) -> None:
        modifier = Modifier(mod.data.removeprefix("mod_"))
        for child in mod.children:
            if child.data == "person":
                modifier.person = self.person(child)
            else:
                modifier.number = self.count(child)[1]
        obs.modifiers.append(modifier)

    def person(self, node: Tree) -> str:
        """A person named in a statement (checked against the declarations later)."""
        token = node.children[0]
        name = self.name(token)
        self.uses.append((name, token))
        return name

    def count(self, node: Tree) -> tuple[str, int]:
        """A number, keyed by the count it fills (`n_cards` -> cards), within its range."""
        key = node.data.removeprefix("n_")
        lo, hi = self.vocab.count_ranges[key]
        return key, self.number(node.children[0], lo, hi, key.replace("_", " "))

    # --- whole-report checks -------------------------------------------------------
    def check_names(self, report: Report) -> None:
        declared = [n for n, _ in report.persons]
        for name, token in self.uses:
            if name not in declared:
                close = difflib.get_close_matches(name, declared, n=3)
                raise self.fail(f"`{name}` is not declared: add a `player: {name}` or "
                                f"`spectator: {name}` line", token.line, token.column,
                                suggestions=[f"{c}" for c in close])

    def check_repeats(self, report: Report) -> None:
        counts: dict[tuple, int] = {}
        for entry in report.history:
            key = (entry.person, entry.penalty, entry.infraction, entry.day)
            counts[key] = counts.get(key, 0) + 1
            if counts[key] > MAX_HISTORY_REPEATS:
                raise self.fail(f"the same history entry is repeated more than {MAX_HISTORY_REPEATS} times",
                                entry.line, 1)


# ---------------------------------------------------------------------------
# syntax errors: what was expected, and the closest valid forms
# ---------------------------------------------------------------------------

_TERMINAL_WORDS = {"NAME": "a name", "QNAME": "a quoted name", "INT": "a number",
                   "ID": "an id like `hidden-card-error`", "_NL": "end of line",
                   "SEPARATOR": "`---`", "$END": "end of file"}


def _describe(terminal: str) -> str:
    if terminal in _TERMINAL_WORDS:
        return _TERMINAL_WORDS[terminal]
    try:
        pattern = _parser().get_terminal(terminal).pattern
    except KeyError:
        return terminal.lower()
    return f"`{pattern.value}`"


def _syntax_error(exc: lark.exceptions.UnexpectedInput, text: str, lines: list[str],
                  source: str) -> ReportError:
    line = getattr(exc, "line", None)
    column = getattr(exc, "column", None)
    if not isinstance(line, int) or line < 1:
        line, column = max(len(lines), 1), len(_line(lines, len(lines))) + 1
    line_text = _line(lines, line)
    expected_terms = sorted(getattr(exc, "expected", None) or getattr(exc, "allowed", None) or [])
    expected = sorted({_describe(t) for t in expected_terms})
    if len(expected) > 10:
        expected = expected[:10] + [f"... {len(expected) - 10} more"]
    if isinstance(exc, lark.exceptions.UnexpectedToken) and exc.token.type == "$END":
        found = "the end of the file"
    else:
        found_text = line_text[column - 1:].split()[0] if line_text[column - 1:].split() else ""
        found = f"`{found_text}`" if found_text else "the end of the line"
    return ReportError(f"unexpected {found}", source, line, column, line_text,
                       expected=expected, suggestions=closest_forms(line_text, column))


def _header_keys(vocab: Vocabulary) -> set[str]:
    return {f.text.split(":")[0] for f in vocab.headers if ":" in f.text and not f.text.startswith("{")}


def _header_lines(vocab: Vocabulary, key: str) -> list[str]:
    """Every concrete line of one header (`rel: casual`, `rel: regular`, ...)."""
    values = {"rel": vocab.values["rel"], "event": vocab.values["event_kind"],
              "game": vocab.values["game_kind"], "round_kind": ["swiss", "playoff"],
              "when": [f.text.replace("{N}", "1") for f in vocab.when.values()]}
    lines = []
    for form in vocab.headers:
        if not form.text.startswith(key + ":"):
            continue
        text = form.text
        for slot, options in values.items():
            if "{" + slot + "}" in text:
                lines += [text.replace("{" + slot + "}", o) for o in options]
                break
        else:
            lines.append(_template(text))
    return [re.sub(r"\{\w+\}", "N", line) for line in lines]


def _shape(text: str) -> str:
    text = re.sub(r'"(?:[^"\\]|\\.)*"', "P", text.strip().rstrip("."))
    return re.sub(r"\b\d+\b", "N", text).lower()


def _template(form_text: str) -> str:
    out = form_text.replace("{P}", "P").replace("{Q}", "Q").replace("{name}", "P")
    return re.sub(r"\{\w+\}", "N", out)


def closest_forms(line_text: str, column: int, limit: int = 3) -> list[str]:
    """The forms of the language nearest to the text around the error."""
    vocab = vocabulary()
    header = re.match(r"\s*([A-Za-z][A-Za-z ]*?)\s*:", line_text)
    if header and header.group(1).lower() in _header_keys(vocab):
        candidates = _header_lines(vocab, header.group(1).lower())
        shaped = line_text.strip().lower()
        return sorted(candidates, key=lambda c: -difflib.SequenceMatcher(None, shaped, c).ratio())[:limit]
    start = line_text.rfind(",", 0, max(column - 1, 0))
    if start >= 0:  # the error sits in a modifier
        segment = line_text[start + 1:].split(",")[0]
        candidates = [f.text for forms in vocab.modifiers.values() for f in forms]
        shaped = _shape(segment)
    else:
        words = line_text.strip().split(None, 1)
        shaped = _shape("P " + words[1]) if len(words) == 2 else _shape(line_text)
        candidates = ([f.text for forms in vocab.observations.values() for f in forms]
                      + [f.text for f in vocab.headers])
        if line_text.lstrip().lower().startswith("it "):
            candidates = ["It " + f.text for forms in vocab.modifiers.values() for f in forms]
            shaped = _shape(line_text)
    scored = sorted(candidates, key=lambda c: -difflib.SequenceMatcher(
        None, shaped, _template(c).lower()).ratio())
    return [_template(c) for c in scored[:limit]]


# ---------------------------------------------------------------------------
# printing: Report -> canonical text (parse(print(r)) == r)
# ---------------------------------------------------------------------------

def quote_name(name: str) -> str:
    if _NAME.match(name) and name.lower() not in keywords():
        return name
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _fill(text: str, values: dict[str, str]) -> str:
    filled = re.sub(r"\{(\w+)\}", lambda m: values[m.group(1)], text)
    return re.sub(r"\b1 (extra )?(card|minute)s\b", r"1 \1\2", filled)


def print_observation(obs: Observation, vocab: Vocabulary | None = None) -> str:
    vocab = vocab or vocabulary()
    values = {"P": quote_name(obs.subject), "Q": quote_name(obs.other or "")}
    values.update({k: str(v) for k, v in obs.counts.items()})
    parts = [_fill(vocab.canonical("observation", obs.kind).text, values)]
    for mod in obs.modifiers:
        form = vocab.canonical("modifier", mod.kind)
        slot_values = {"Q": quote_name(mod.person or "")}
        if mod.number is not None:
            slot_values.update({s: str(mod.number) for s in form.slots if s != "Q"})
        parts.append(_fill(form.text, slot_values))
    return ", ".join(parts)


def print_report(report: Report) -> str:
    vocab = vocabulary()
    out: list[str] = []
    if report.policy:
        out.append(f"policy: {report.policy}")
    if report.rel:
        out.append(f"rel: {report.rel}")
    if report.tier is not None:
        out.append(f"tier: {report.tier}")
    if report.event_kind:
        out.append(f"event: {report.event_kind}")
    if report.game_kind:
        out.append(f"game: {report.game_kind}")
    if report.round is not None:
        out.append(f"round: {report.round}" + (f", {report.round_kind}" if report.round_kind else ""))
    elif report.round_kind == "draft":
        out.append("round: draft")
    if report.best_of is not None:
        out.append("match: single game" if report.best_of == 1 else f"match: best of {report.best_of}")
    if report.day is not None:
        out.append(f"day: {report.day}")
    if report.table is not None:
        out.append(f"table: {report.table}")
    if report.when:
        kind, number = report.when
        out.append("when: " + vocab.when[kind].text.replace("{N}", str(number)))
    for name, role in report.persons:
        out.append(f"{role}: {quote_name(name)}")
    out.extend(print_observation(obs, vocab) for obs in report.observations)
    if report.ruling_minutes is not None:
        out.append(f"the ruling took {report.ruling_minutes} minutes")
    if report.judge_call:
        out.append(f"judge call: {report.judge_call[0]}, {report.judge_call[1]}")
    if report.history:
        out.append("history:")
        out.extend(f"  {print_history_entry(e)}" for e in report.history)
    return "\n".join(out) + "\n"


def print_history_entry(entry: HistoryEntry) -> str:
    day = f", day {entry.day}" if entry.day is not None else ""
    return f"{quote_name(entry.person)}: {entry.penalty} for {entry.infraction}{day}"


def print_reports(reports: list[Report]) -> str:
    return "---\n".join(print_report(r) for r in reports)
