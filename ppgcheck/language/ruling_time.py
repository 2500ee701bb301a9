"""How long the judge took to fix what happened, as a note says it (`fixed in 2 min`, `took me
about four minutes to back it all up`, `under a minute to sort out`): the report's `the ruling
took N minutes`, which FFG's gameplay-error rows, UPG 20's Caution and PPG 1.2's time
extension read.

A duration is read only in a sentence that also has a word of fixing (`read_fix_word`) near
it: a duration alone is as likely the lateness or the deck check.  It is refused, left unread,
where the note gives a range (`3-4 minutes`), says it falls short (`almost 5`), or bounds it
above one minute (`within 4 minutes`): only `under a minute` is read, as 1 minute, which every
guide's line (over one minute, at most two) treats as it treats anything less.  `half a
minute` is 1 minute: whole minutes, rounded up (PPG 1.2).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ppgcheck.language.vocabulary import Vocabulary
from ppgcheck.language.wordforms import Token, phrase_at, phrase_forms, sentence_spans, tokenize

RULING_LINE = "the ruling took {} minutes"     # core vocabulary.lp's header_form(ruling, ...)
RULING_STATED = re.compile(r"\s*the\s+ruling\s+took\b", re.IGNORECASE)   # a line that states it already
MAX_MINUTES = 120                              # its header_range
FIX_REACH = 6                                  # words between a duration and its word of fixing
_APPROXIMATELY = frozenset({"about", "around", "approx", "approximately", "roughly", "maybe", "like", "some",
                            "only", "just", "ca", "perhaps", "probably"})
_RANGE_WORDS = frozenset({"or", "to"})


@dataclass(frozen=True)
class RulingTime:
    minutes: int
    words: str          # the words it was read from, as written


def ruling_time(line: str, vocab: Vocabulary) -> RulingTime | None:
    """The one time the judge took that the line says, or None (none, two, or unsure)."""
    found = [time for start, end in sentence_spans(line) for time in _in_sentence(line, start, end, vocab)]
    return found[0] if len({t.minutes for t in found}) == 1 else None


def _in_sentence(line: str, start: int, end: int, vocab: Vocabulary) -> list[RulingTime]:
    tokens = [Token(t.text, t.start + start, t.end + start, t.forms) for t in tokenize(line[start:end])]
    forms = [t.forms for t in tokens]
    fixing = [i for i in range(len(tokens)) if any(phrase_at(forms, word, i) for (word,) in
                                                   vocab.reading.get("read_fix_word", []))]
    units = {w for pairs in vocab.units.get("minutes", []) for w in pairs}
    out = []
    for u, token in enumerate(tokens):
        if token.text not in units or not any(abs(i - u) <= FIX_REACH for i in fixing):
            continue
        time = _duration(line, tokens, u, vocab)
        if time is not None:
            out.append(time)
    return out


def _duration(line: str, tokens: list[Token], unit: int, vocab: Vocabulary) -> RulingTime | None:
    """The minutes the words before tokens[unit] (a unit of minutes) say, or None where unsure."""
    n = unit - 1
    if n < 0:
        return None
    numbers = {**vocab.numbers, **{w.lower(): int(v) for w, v in vocab.reading.get("read_number", [])}}
    word = tokens[n].text
    if word.isdigit():
        minutes = int(word)
    elif word in numbers:
        minutes = numbers[word]
    elif word in ("a", "an"):
        minutes = 1
    else:
        return None
    following = tokens[unit + 1:unit + 3]
    if len(following) == 2 and following[0].text in _RANGE_WORDS and \
            (following[1].text.isdigit() or following[1].text in numbers):
        return None                             # `a minute or two`
    first = n
    if word in ("a", "an") and n > 0 and tokens[n - 1].text == "half":
        first = n - 1                           # half a minute: 1, rounded up
    before = [t.text for t in tokens[max(0, first - 2):first]]
    joined = first > 0 and re.fullmatch(r"\s*(?:[-–/]|or|to)?\s*", line[tokens[first - 1].end:tokens[first].start],
                                        re.IGNORECASE)
    if before and joined and (before[-1] in _RANGE_WORDS or before[-1].isdigit() or before[-1] in numbers):
        return None                             # `3-4 minutes`, `two or three minutes`
    doubts = {w for (w,) in vocab.reading.get("read_doubt", [])}
    if any(b in doubts for b in before):
        return None                             # `almost 5 minutes`, `a couple of minutes`
    if minutes > MAX_MINUTES:
        return None
    bounded = _bounded(tokens, first, vocab)
    if bounded is not None and minutes != 1:
        return None                             # `within 4 minutes`: a limit, not a time
    while first > 0 and tokens[first - 1].text in _APPROXIMATELY:
        first -= 1
    begin = bounded if bounded is not None else first
    return RulingTime(minutes, line[tokens[begin].start:tokens[unit].end])


def _bounded(tokens: list[Token], first: int, vocab: Vocabulary) -> int | None:
    """Where a bound before the number starts (`under`, `less than`, `within`), or None."""
    forms = [t.forms for t in tokens]
    for (text,) in [*vocab.reading.get("read_bound", []), ("within",), ("in under",)]:
        length = len(phrase_forms(text))
        at = first - length
        if at >= 0 and phrase_at(forms, text, at):
            return at
    return None
