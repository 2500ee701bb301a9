"""Refusals of a count the reader read: a second count beside it, a range, a bound said
before it (`over 3 minutes`), minutes never said, a plural with no number.  Each is refused
with the lines the judge may have meant: the reader never picks a count."""
from __future__ import annotations

import re
from dataclasses import replace

from ppgcheck.language.canonical_lines import line_of
from ppgcheck.language.matching import Found, Word
from ppgcheck.language.refusals import Refusal
from ppgcheck.language.signs import ARTICLES, plurals, unit_number
from ppgcheck.language.vocabulary import PERSON_SLOTS, Vocabulary
from ppgcheck.language.wordforms import SENTENCE_END, phrase_at, phrase_forms


def count_refusal(sentence: str, words: list[Word], taken: set[int], found: Found,
                  vocab: Vocabulary) -> Refusal | None:
    """The first refusal of the count read, in this order; None where the count stands."""
    return _other_count(sentence, words, taken, found, vocab) or _count_range(sentence, words, taken, found, vocab) \
        or _count_bound(words, taken, found, vocab) or _unsaid_count(words, found, vocab) \
        or _unsaid_minutes(words, found, vocab)


def _other_count(sentence: str, words: list[Word], taken: set[int], found: Found,
                 vocab: Vocabulary) -> Refusal | None:
    """A second number of a count read, left unread (`says he was only 2 minutes late but he
    arrived 6 minutes after the round started`): which one is meant is not the reader's to
    pick.  Refused, with the line for each (a number in another sentence of the line, `Gave
    them 3 minutes extra.`, counts something else)."""
    read = [i for i in taken if words[i].number is not None]
    for slot, number in found.numbers.items():
        place = unit_number(vocab, slot, words, taken)
        # (`a card's effect`: an article is no count said against the one read)
        if place is None or words[place[0]].number == number or words[place[0]].text.lower() in ARTICLES \
                or read and SENTENCE_END.search(sentence, *sorted((words[read[0]].end, words[place[0]].start))):
            continue
        other = words[place[0]].number
        lines = [line_of(replace(found, numbers={**found.numbers, slot: n}), [], vocab) for n in (number, other)]
        return Refusal(f"`{words[place[0]].text} {words[place[1]].text}` is a second count beside the {number} "
                       "read: write the one meant", words[place[0]].start + 1, readings=lines)
    return None


# between the two numbers of a range (`2-3 cards`, `two or three`, `3 to 4 minutes`)
_RANGE = re.compile(r"\s*(?:[-–/]|or|to)\s*", re.IGNORECASE)


def _count_range(sentence: str, words: list[Word], taken: set[int], found: Found,
                 vocab: Vocabulary) -> Refusal | None:
    """A count read as the second number of a range (`2-3 extra cards`, `3 or 4 minutes`): the
    judge does not know which, and the reader never picks.  Refused, with the line for each."""
    for i in sorted(taken):
        slot = next((slot for slot, number in found.numbers.items() if words[i].number == number), None)
        # the number before, apart by `-` or `/`, or by the word `or` or `to`
        at = i - 2 if i > 1 and words[i - 1].text.lower() in ("or", "to") else i - 1
        if slot is None or at < 0 or at in taken or words[at].number is None \
                or not _RANGE.fullmatch(sentence[words[at].end:words[i].start]):
            continue
        numbers = (words[at].number, words[i].number)
        lines = [line_of(replace(found, numbers={**found.numbers, slot: n}), [], vocab) for n in numbers]
        return Refusal(f"`{sentence[words[at].start:words[i].end]}` is a range: write the count meant",
                       words[at].start + 1, readings=lines)
    return None


def _count_bound(words: list[Word], taken: set[int], found: Found, vocab: Vocabulary) -> Refusal | None:
    """A count read with a bound before it (`over 3 minutes`, `more than 10 minutes`, `at
    least 2 cards`: `read_bound`): the number is a limit, not the count, and a guide's line may
    fall between (Yu-Gi-Oh's "later than 3 minutes").  Refused, with the line for the number."""
    bounds = [phrase for (phrase,) in vocab.reading.get("read_bound", [])]
    forms = [w.forms for w in words]
    # (of minutes, where the guides draw their lines: `flipped over 2 cards` is no bound)
    minutes = {found.numbers[slot] for slot in found.numbers if _of_minutes(vocab, slot)}
    for i in sorted(taken):
        if words[i].number is None or words[i].number not in minutes:
            continue
        for bound in bounds:
            at = i - len(phrase_forms(bound))
            if at >= 0 and not taken & set(range(at, i)) and phrase_at(forms, bound, at):
                said = " ".join(w.text for w in words[at:i + 1])
                return Refusal(f"`{said}` says a limit, not the count: write the count", words[at].start + 1,
                               readings=[line_of(found, [], vocab)])
    return None


def _unsaid_minutes(words: list[Word], found: Found, vocab: Vocabulary) -> Refusal | None:
    """A count of minutes the sentence does not say (`Kim arrived late`): read as 1 it would be
    a guess each guide's lines of minutes turn on.  Refused, with the line for 1 to correct."""
    if found.pattern.category != "observation":
        return None
    form = vocab.canonical("observation", found.pattern.kind)
    for slot in form.slots:
        if slot in PERSON_SLOTS or slot in found.numbers or not _of_minutes(vocab, slot):
            continue
        if not any(w.forms & {u for pair in vocab.units[slot] for u in pair} for w in words):
            return Refusal("the sentence does not say how many minutes: write the count",
                           readings=[line_of(found, [], vocab)])
    return None


def _of_minutes(vocab: Vocabulary, slot: str) -> bool:
    """A count slot of minutes (its unit `minute`)."""
    return any(singular == "minute" for singular, _ in vocab.units.get(slot, []))


def _unsaid_count(words: list[Word], found: Found, vocab: Vocabulary) -> Refusal | None:
    """A count read as 1 for want of any number in the sentence where it says the count's
    unit in the plural (`drew some extra cards`): more than one, and not how many.  Refused."""
    if found.pattern.category != "observation" or any(w.number is not None for w in words):
        return None
    form = vocab.canonical("observation", found.pattern.kind)
    for slot in form.slots:
        if slot in PERSON_SLOTS or slot in found.numbers:
            continue
        plural = next((w for w in words if w.text in plurals(vocab, slot)), None)
        if plural is not None:
            return Refusal(f"`{plural.text}` says more than one, and not how many: write the count",
                           plural.start + 1, readings=[])
    return None
