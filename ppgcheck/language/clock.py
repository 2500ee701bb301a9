"""Clock times in a judge's note (`Round began 10:00. Kim sat down at 10:07.`): an arrival's
time, where the note says when the round began, is the minutes between the two, written the
way the reader's phrases of lateness read it (`Kim sat down 7 minutes after the round
started`).  Only arithmetic happens here: which words say the round began (`read_round_began`)
and which say a person got there (`read_arrived`) are the packs' words (rules/core/reading.lp).

The note's own words are kept: the reading shows the sentence as written, and a line the reader
cannot read is refused in the judge's words, never in these.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ppgcheck.language.model import Reading
from ppgcheck.language.vocabulary import Vocabulary
from ppgcheck.language.wordforms import Token, phrase_forms, phrase_in, tokenize

# `10:07`, `9:58am`, `2:41 p.m.` (a time of day; its last `.` may end the sentence, so it stays)
_CLOCK = re.compile(r"(?<![\d:.])([01]?\d|2[0-3]):([0-5]\d)(?![\d:])(?:\s*([ap])\.?m\b)?", re.IGNORECASE)
# what a clause ends with: a clock's word never reaches past it
_PAUSE = re.compile(r"[;!?(),]|\.(?=\s|\Z)|\s[-–—]+\s")
# the words before a time that say `at` it (replaced with it); `until` stays (`not until ...`)
_AT = re.compile(r"(?:\b(?:at|around|about|approximately|approx\.?|roughly|ca\.?)\s+|[~@]\s*)+\Z", re.IGNORECASE)
_NEAR = 4                   # words between a clock and the words that say what it is the time of
_WRAP = 12 * 60             # `12:55` to `1:04` on a 12-hour clock
_MOST = 3 * 60              # a difference past this is not an arrival after the round's start


@dataclass(frozen=True)
class Clock:
    start: int              # where the time stands in the line (`at` before it included)
    end: int
    minutes: int            # since midnight (a 12-hour time read as written)
    near: tuple[Token, ...] = ()        # the words around it that may say what it is the time of


def round_began(line: str, names: list[str], vocab: Vocabulary) -> int | None:
    """The time the line says the round began (`Round 3 started at 10:00`, `10:00 start`), or None."""
    times = {clock.minutes for clock, kind in _clocks(line, names, vocab) if kind == "began"}
    return times.pop() if len(times) == 1 else None


def without_start(line: str, names: list[str], vocab: Vocabulary) -> str:
    """The line without the time the round began and the words saying so (`Round began 10:00,
    table 12` -> `Round , table 12`): what is left of it says what else it says."""
    began = {form for (text,) in vocab.reading.get("read_round_began", []) for forms in phrase_forms(text)
             for form in forms}
    starts = [c for c, kind in _clocks(line, names, vocab) if kind == "began"]
    spans = [(c.start, c.end) for c in starts] + [(t.start, t.end) for c in starts for t in c.near if t.forms & began]
    for start, end in spans:
        line = line[:start] + " " * (end - start) + line[end:]
    return line


def in_minutes(line: str, began: int | None, names: list[str], vocab: Vocabulary) -> tuple[str, dict[str, str]]:
    """The line with each arrival's time as the minutes after the round began (the time the
    line says, else `began`, from a line before), and each new text with the words it stands for."""
    clocks = _clocks(line, names, vocab)
    starts = {clock.minutes for clock, kind in clocks if kind == "began"}
    if len(starts) > 1 or not (starts or began is not None):
        return line, {}
    start = starts.pop() if starts else began
    out, said, at = [], {}, 0
    for clock, kind in clocks:
        late = _after(start, clock.minutes) if kind == "arrived" else None
        if late is None:
            continue
        text = f"{late} minute{'s' if late > 1 else ''} after the round started"
        start = _particle_before(line, clock.start)
        out += [line[at:start], text]
        said[text] = line[start:clock.end].strip()
        at = clock.end
    return "".join(out) + line[at:], said


def as_written(reading: Reading, said: dict[str, str]) -> Reading:
    """A reading of a line whose times in_minutes wrote as minutes, in the judge's words again;
    the end of such a text a reading did not take (`the round started`, after `{P} sat down
    {minutes} minutes after`) is the reader's words, never shown as the judge's."""
    ends = sorted({" ".join(timed.split()[k:]) for timed in said for k in range(2, len(timed.split()))},
                  key=len, reverse=True)

    def written(text: str) -> str:
        end = next((end for end in ends if text == end or text.startswith(end + " ")), "")
        text = text[len(end):].strip()
        for timed, words in said.items():
            text = text.replace(timed, words)
        return text
    not_read = [text for text in map(written, reading.not_read) if text]
    return replace(reading, written=written(reading.written), not_read=not_read)


def _particle_before(line: str, at: int) -> int:
    """Where the time's text starts, an `over` of the verb before it taken in (`came over at 11:12`
    is `came 12 minutes after ...`, never `over 12 minutes`, a limit)."""
    before = re.search(r"\bover\s+$", line[:at], re.IGNORECASE)
    return before.start() if before else at


def _after(start: int, arrived: int) -> int | None:
    late = arrived - start
    if late <= 0 and late + _WRAP > 0:
        late += _WRAP
    return late if 0 < late <= _MOST else None


def _clocks(line: str, names: list[str], vocab: Vocabulary) -> list[tuple[Clock, str]]:
    """Each time of day in the line and what it is the time of: `began` (the round), `arrived` (a
    person got there) or `other`."""
    matches = list(_CLOCK.finditer(line))
    if not matches:         # (most lines: no words to look at)
        return []
    out = []
    tokens, person = tokenize(line), _persons(names, vocab)
    for match in matches:
        hours, minutes = int(match.group(1)), int(match.group(2))
        if match.group(3) and match.group(3).lower() == "p" and hours < 12:
            hours += 12
        before = _clause(tokens, line, match.start(), backwards=True)
        after = _clause(tokens, line, match.end(), backwards=False)
        at = _AT.search(line[:match.start()])
        clock = Clock(at.start() if at else match.start(), match.end(), hours * 60 + minutes,
                      tuple(before[:_NEAR] + after[:_NEAR]))
        out.append((clock, _kind(before, after, person, vocab)))
    return out


def _clause(tokens: list[Token], line: str, at: int, backwards: bool) -> list[Token]:
    """The words of the clause before (or after) a place in the line, nearest first."""
    if backwards:
        pause = max((m.end() for m in _PAUSE.finditer(line, 0, at)), default=0)
        return [t for t in reversed(tokens) if pause <= t.start and t.end <= at]
    pause = next((m.start() for m in _PAUSE.finditer(line, at)), len(line))
    return [t for t in tokens if at <= t.start and t.end <= pause]


def _kind(before: list[Token], after: list[Token], person: set[str], vocab: Vocabulary) -> str:
    if not any(t.text in person for t in after[:_NEAR]):
        # `a 10:00 start` right after the time; `Round 3 began at 10:00` in a clause naming no one
        if _says(after[:2], vocab, "read_round_began") or not any(t.text in person for t in before) \
                and _says(list(reversed(before[:_NEAR])) + after[:_NEAR], vocab, "read_round_began"):
            return "began"
    said = list(reversed(before))
    if any(t.text in person for t in said) and _says(said[-_NEAR - 3:], vocab, "read_arrived"):
        return "arrived"
    return "other"


def _says(tokens: list[Token], vocab: Vocabulary, fact: str) -> bool:
    return phrase_in([t.forms for t in tokens], [text for (text,) in vocab.reading.get(fact, [])])


def _persons(names: list[str], vocab: Vocabulary) -> set[str]:
    """The words that name a person: each declared name's words, the pronouns, `opponent`."""
    words = {t.text for name in names for t in tokenize(name)}
    words |= {word for (word,) in vocab.reading.get("read_pronoun", [])}
    return words | {word for (word,) in vocab.reading.get("read_opponent", [])}
