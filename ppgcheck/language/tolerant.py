"""Parsing a report tolerantly: the strict parse first; each line it refuses is read by
the tolerant reader (reader.py) and replaced by the canonical line it says, its Reading
kept for the observation; a line the reader cannot read is an error at that line with
whole-line suggestions (suggestions.py), each of which parses strictly."""
from __future__ import annotations

import dataclasses
import functools

import re
from collections.abc import Callable

from ppgcheck.errors import ReportError
from ppgcheck.language import clock
from ppgcheck.language.model import Reading, Report
from ppgcheck.language.printer import print_observation
from ppgcheck.language.reader import NOTHING_FOUND, Context, Read, Refusal, read_sentence
from ppgcheck.language.sentences import CONTINUATION, context_only, leaves_a_clause, read_pieces, unread_statement
from ppgcheck.language.ruling_time import RULING_LINE, RULING_STATED, ruling_time
from ppgcheck.language.suggestions import suggest
from ppgcheck.language.verdict import read_verdict, verdict_at
from ppgcheck.language.vocabulary import Vocabulary

# a line that starts like a header, history or a tally (`player: Kim`, `history:`, `score:`): not a
# sentence, so its strict error stands (`Deck check: ...` is a judge's sentence)
_HEADER_LIKE = re.compile(r"\s*(policy|rel|tier|event|game|round|match|day|table|when|player|spectator|history"
                          r"|judge call|score|life|seed)\s*:|\s+\w[^:]*:", re.IGNORECASE)
_DECLARATION = re.compile(r'\s*(player|spectator)\s*:\s*(?:"((?:[^"\\]|\\.)*)"|(.*?))\s*\.?\s*(#.*)?$',
                          re.IGNORECASE)
_HEADERS = re.compile(r"\s*(policy|rel|tier|event|game|round|match|day|table|when|player|spectator)\s*:",
                      re.IGNORECASE)
# a line the strict language read whose value is refused (a number out of range, a hidden
# character in a name): the judge's value is wrong, not the wording, and is never read again
_STATED_WRONG = re.compile(r"out of range|is not allowed in a|declared twice")
_HISTORY = re.compile(r"\s*history\s*:", re.IGNORECASE)
_ENTRY = re.compile(r"\s*[^\s:][^:]*:\s*\S")      # `Lee: none for slow-play`, `Kim: Warning for ...`
_SEPARATOR = re.compile(r"[ \t]*---+[ \t]*\.?[ \t]*(#.*)?\Z")


def parse_tolerantly(lines: list[str], source: str, parse: Callable[..., list[Report]],
                     vocab_of_line: Callable[[int], Vocabulary]) -> list[Report]:
    """The reports of the lines, each line the strict parse refuses read by the reader."""
    written = list(lines)
    lines = list(lines)
    readings: dict[int, Reading] = {}
    origin: dict[int, int] = {}         # a statement appended past the end: the line it was read from
    # a line of context alone (`Round 6, table 31.`): its error, made only if it has no statement to go with
    asides: dict[int, Callable[[], ReportError]] = {}
    for _ in range(2 * len(lines) + 1):
        try:
            reports = parse(lines)
        except ReportError as exc:
            n = exc.line
            if n in readings or not 0 < n <= len(lines) or _HEADER_LIKE.match(lines[n - 1]) \
                    or not lines[n - 1].strip() or _STATED_WRONG.search(exc.message):
                raise _at_origin(_as_shown(exc, parse, lines), origin, written) from None
            vocab = vocab_of_line(n)
            context = _context(lines, n)
            result, pieces = _read_line(lines, written, n, context, vocab)
            # (one piece that reads more of the line than the line read whole: `... She called a judge at once`)
            if pieces and (isinstance(result, Refusal) or len(pieces) > 1 or _unread(pieces[0]) < _unread(result)):
                # the main statement where it was written, the others after the report's last line
                result, *others = pieces
                for other in others:
                    lines.append(other.line)
                    readings[len(lines)] = other.reading
                    origin[len(lines)] = n
            if isinstance(result, Refusal):
                error = functools.partial(_refusal_error, exc, result, list(lines), n, source, parse, context, vocab)
                if result.message == NOTHING_FOUND and n <= len(written) and context_only(lines[n - 1], context, vocab):
                    asides[n] = error       # shown as not read beside the statement after it
                    lines[n - 1] = ""
                    continue
                raise error() from None
            readings[n] = result.reading
            lines[n - 1] = result.line
            if n <= len(written) and _last_report(lines, n):
                _add_ruling_time(lines, written, readings, origin, n, vocab)
            continue
        taken = {o.line for report in reports for o in report.observations}
        continued = _continued(reports, readings, taken, written)
        hidden = next((n for n, r in sorted(readings.items()) if n not in taken and n not in continued
                       and r.not_read), None)
        if hidden is not None:
            # a state of the match has no place to show what was not read: never dropped unseen
            line = origin.get(hidden, hidden)
            raise ReportError(f"cannot read this sentence: it reads as `{readings[hidden].read_as}`, and "
                              f"`{readings[hidden].not_read[0]}` is not read: write the line as it reads, and "
                              "what else happened as a line of its own", source, line, 1, written[line - 1],
                              suggestions=[readings[hidden].read_as], suggesting="did you mean")
        for report in reports:
            for observation in report.observations:
                observation.reading = readings.get(observation.line)
                _show_continuations(observation, report, continued, readings, written)
                if observation.line in origin:
                    observation.line = origin[observation.line]
                    for modifier in observation.modifiers:
                        modifier.line = observation.line
            report.lines = report.lines[:len(written)] if origin else report.lines
        for n, error in asides.items():
            if not _aside(reports, n, written):
                raise error()       # context of no statement: the line as the strict parse refused it
        return reports
    raise AssertionError("each pass reads a new line")     # pragma: no cover


def _continued(reports: list[Report], readings: dict[int, Reading], taken: set[int],
               written: list[str]) -> dict[int, int]:
    """Each line read as modifiers alone (`It was on purpose`: `I determined that she did it on
    purpose`), with the line of the observation it continues (the last one before it in its report)."""
    out = {}
    for n, reading in readings.items():
        if n in taken or not reading.read_as.startswith(CONTINUATION) or n > len(written):
            continue
        before = [o.line for report in reports for o in report.observations if o.line < n
                  and not any(_SEPARATOR.match(written[k - 1]) for k in range(o.line + 1, n))]
        if before:
            out[n] = max(before)
    return out


def _show_continuations(observation, report: Report, continued: dict[int, int], readings: dict[int, Reading],
                        written: list[str]) -> None:
    """The observation's reading with the lines that continue it: their words, and what was not read."""
    lines = sorted(n for n, at in continued.items() if at == observation.line)
    if not lines:
        return
    reading = observation.reading or Reading(written[observation.line - 1].strip(), "", [])
    observation.reading = dataclasses.replace(
        reading, written=" ".join([reading.written, *(readings[n].written for n in lines)]),
        read_as=print_observation(observation, report.vocab),
        not_read=[*reading.not_read, *(text for n in lines for text in readings[n].not_read)])


def _as_shown(exc: ReportError, parse: Callable[..., list[Report]], lines: list[str]) -> ReportError:
    """The strict error the judge sees: with the language's closest forms, which the tries
    the reader makes leave out (their cost, ~50 ms a try)."""
    try:
        parse(lines, closest_forms=True)
    except ReportError as shown:
        return shown
    return exc      # pragma: no cover (the same lines fail the same way)


def _add_ruling_time(lines: list[str], written: list[str], readings: dict[int, Reading], origin: dict[int, int],
                     n: int, vocab: Vocabulary) -> None:
    """How long the judge took, where line n says it (`fixed in 2 min`: ruling_time.py) in words
    its reading left unread and its report states no time yet: the report's `the ruling took N
    minutes`, appended, and shown in the line's reading (read as `...; the ruling took N minutes`)."""
    start = max((i + 1 for i in range(n - 1) if _SEPARATOR.match(written[i])), default=0)
    if any(RULING_STATED.match(line) for line in written[start:] + lines[len(written):]):
        return
    time = ruling_time(written[n - 1], vocab)
    if time is None:
        return
    for k in [n, *(k for k, at in origin.items() if at == n)]:
        reading = readings[k]
        for i, piece in enumerate(reading.not_read):
            if time.words not in piece:
                continue        # (a duration some reading read is no time of the judge's)
            lines.append(RULING_LINE.format(time.minutes))
            origin[len(lines)] = n
            rest = " ".join(piece.replace(time.words, "", 1).split()).strip(" ,;:.-")
            not_read = [*reading.not_read[:i], *([rest] if rest else []), *reading.not_read[i + 1:]]
            readings[k] = dataclasses.replace(reading, read_as=f"{reading.read_as}; {lines[-1]}", not_read=not_read)
            return


def _aside(reports: list[Report], n: int, written: list[str]) -> bool:
    """Line n, context alone, shown as not read by the statement after it in its report (or,
    where none follows, the one before); False when its report has no statement to show it."""
    start = max((i + 1 for i in range(n - 1) if _SEPARATOR.match(written[i])), default=0)
    end = next((i for i in range(n, len(written)) if _SEPARATOR.match(written[i])), len(written))
    observations = sorted(((o, report.vocab) for report in reports for o in report.observations
                           if start < o.line <= end), key=lambda pair: pair[0].line)
    if not observations:
        return False
    observation, vocab = next((pair for pair in observations if pair[0].line > n), observations[-1])
    text, before = written[n - 1].strip(), observation.line > n
    reading = observation.reading or Reading(written[observation.line - 1].strip(), print_observation(observation, vocab))
    observation.reading = dataclasses.replace(
        reading, written=f"{text} {reading.written}" if before else f"{reading.written} {text}",
        not_read=[text, *reading.not_read] if before else [*reading.not_read, text])
    return True


def _read_line(lines: list[str], written: list[str], n: int, context: Context,
               vocab: Vocabulary) -> tuple[Read | Refusal, list[Read] | None]:
    """Line n read whole, and piece by piece where it says more; its clock times as minutes
    after the round began (clock.py; the round's start on a line before too, as written), the
    reading showing the judge's own words.  A line that reads as an infraction beside the
    judge's verdict of legal play says both, and is refused."""
    verdict = read_verdict(lines[n - 1], context, vocab)
    if verdict is not None:         # the judge's verdict of legal play: the note says nothing else
        return verdict, None
    result, pieces = _read_timed(lines, written, n, context, vocab)
    judged = verdict_at(lines[n - 1], context, vocab) if isinstance(result, Read) or pieces else None
    if judged is None:
        return result, pieces
    # (`lee and kim already finished, waiting for time to run out, no infraction`: stalling?)
    read = result.line if isinstance(result, Read) else pieces[0].line
    return Refusal(f"the note says both `{read}` and that nothing was wrong (`{lines[n - 1][judged[0]:judged[1]]}`): "
                   "write the one the judge found", judged[0] + 1, readings=[read]), None


def _read_timed(lines: list[str], written: list[str], n: int, context: Context,
                vocab: Vocabulary) -> tuple[Read | Refusal, list[Read] | None]:
    began = next((t for line in reversed(_chunk(written, n)) if (t := clock.round_began(line, context.names, vocab))
                  is not None), None)
    timed, said = clock.in_minutes(lines[n - 1], began, context.names, vocab)
    for line in ([timed] if said else []) + [lines[n - 1]]:
        result = read_sentence(line, context, vocab)
        pieces = read_pieces(line, context, vocab) if _says_more(result, context, vocab) and _last_report(lines, n) else None
        # (a line read as one piece still says what it left unread: `... because Chidi ...`)
        unread = unread_statement(result, context, vocab) if isinstance(result, Read) and len(pieces or []) <= 1 \
            else None
        if unread:
            result = Refusal(f"`{unread}` says what else happened, and it cannot be read: write it as a line "
                             "of its own", line.find(unread) + 1, readings=[result.line])
        if line is timed and (isinstance(result, Read) or pieces):
            return _as_written(result, said), [_as_written(piece, said) for piece in pieces] if pieces else pieces
    return result, pieces


def _as_written(result: Read | Refusal, said: dict[str, str]) -> Read | Refusal:
    """A reading of a line with its clock times in minutes, in the judge's words again."""
    if isinstance(result, Refusal):
        return result
    return Read(result.line, clock.as_written(result.reading, said), result.subject)


def _refusal_error(exc: ReportError, result: Refusal, lines: list[str], n: int, source: str,
                   parse: Callable[[list[str]], list[Report]], context: Context, vocab: Vocabulary) -> ReportError:
    """The error for line n, which the reader refused, with whole lines to choose from."""
    header = _header(lines, n)
    offered = suggest(lines[n - 1], context, vocab, result, lambda line: _parses(parse, header, line))
    if result.message != NOTHING_FOUND:
        return ReportError(f"cannot read this sentence: {result.message}", source, n, result.column,
                           lines[n - 1], suggestions=offered, suggesting="did you mean")
    if _a_form_mistyped(lines[n - 1], offered):
        # nothing of the language in it: the strict error says where and what fits (`extar` at
        # its caret), the reader adds whole lines to choose from (the strict error's "closest
        # valid forms" are templates, not lines: never offered)
        return dataclasses.replace(exc, suggestions=offered, suggesting="did you mean")
    # a sentence: where the language's forms stop
    word = lines[n - 1][exc.column - 1:].split(maxsplit=1)[:1] if exc.line == n else []
    stop = f"; the language's forms stop at `{word[0]}`" if word else ""
    return ReportError(f"cannot read this sentence: {NOTHING_FOUND}{stop}", source, n, exc.column if word else 1,
                       lines[n - 1], suggestions=offered, suggesting="did you mean")


# a line of at most this many words, or this close to a line offered (rapidfuzz ratio), is a
# form of the language mistyped: the strict error's caret and what fits there help; in a
# judge's sentence they point at its first comma (`unexpected \`,\``, expected `with`)
_FORM_WORDS = 6
_FORM_LIKENESS = 80


def _a_form_mistyped(line: str, offered: list[str]) -> bool:
    """Whether the line reads as a form of the language with a word wrong, not as a sentence."""
    from rapidfuzz import fuzz     # (the reader's word forms load it already)
    text = " ".join(line.split()).lower()
    return len(text.split()) <= _FORM_WORDS or any(fuzz.ratio(text, o.lower()) >= _FORM_LIKENESS for o in offered)


def _says_more(result: Read | Refusal, context: Context, vocab: Vocabulary) -> bool:
    """A line to read piece by piece: refused whole, or read with words not read that
    start with a person (`..., Lee let it pass`, `... She called a judge at once`: a
    statement of its own, or more of the one read)."""
    return isinstance(result, Refusal) or leaves_a_clause(result, context, vocab)


def _unread(read: Read) -> int:
    return sum(len(text.split()) for text in read.reading.not_read)


def _last_report(lines: list[str], n: int) -> bool:
    """Line n belongs to the file's last report (a statement appended after the file's last
    line is still its own report's)."""
    return not any(_SEPARATOR.match(line) for line in lines[n:])


def _at_origin(error: ReportError, origin: dict[int, int], written: list[str]) -> ReportError:
    """An error on a statement appended past the end, at the line it was read from."""
    if error.line not in origin:
        return error
    line = origin[error.line]
    return dataclasses.replace(error, line=line, line_text=written[line - 1], column=1)


def _chunk(lines: list[str], n: int) -> list[str]:
    """The lines of the report line n belongs to, up to line n (excluded)."""
    start = max((i + 1 for i in range(n - 1) if _SEPARATOR.match(lines[i])), default=0)
    return lines[start:n - 1]


def _context(lines: list[str], n: int) -> Context:
    """The names line n's report declares before it and the subject of the sentence before."""
    names, players, previous = [], [], None
    chunk = _chunk(lines, n)
    end = next((i for i in range(n, len(lines)) if _SEPARATOR.match(lines[i])), len(lines))
    for line in chunk + lines[n:end]:
        declared = _DECLARATION.match(line)
        if declared:
            name = (declared.group(2) if declared.group(2) is not None else declared.group(3)).strip()
            if name and name not in names:
                names.append(name)
                if declared.group(1).lower() == "player":
                    players.append(name)
    in_history = False
    for line in chunk:
        # (a history entry, `Lee: none for slow-play`, names no sentence's subject)
        in_history = bool(_HISTORY.match(line)) or in_history and bool(_ENTRY.match(line))
        if in_history or _HEADER_LIKE.match(line):
            continue
        text = line.strip().lstrip('"').lower()
        previous = next((name for name in sorted(names, key=len, reverse=True)
                         if text.startswith(name.lower())), previous)
    return Context(names, players, previous)


def _header(lines: list[str], n: int) -> list[str]:
    return [line for line in _chunk(lines, n) if _HEADERS.match(line)]


def _parses(parse: Callable[[list[str]], list[Report]], header: list[str], line: str) -> bool:
    try:
        parse([*header, line])
    except ReportError:
        return False
    return True
