"""The canonical line a reading says: the printer's line for what the reader found (its
form's slots filled with the names and numbers read, the modifiers read)."""
from __future__ import annotations

from ppgcheck.language.grammar import language
from ppgcheck.language.matching import Found, Word
from ppgcheck.language.model import Modifier, Observation
from ppgcheck.language.printer import fill, print_observation, quote_name
from ppgcheck.language.signs import unit_number
from ppgcheck.language.vocabulary import PERSON_SLOTS, Vocabulary


def line_of(found: Found, modifiers: list[Found], vocab: Vocabulary) -> str:
    """The canonical line of a reading (the printer's, names quoted as it quotes them)."""
    pattern = found.pattern
    if pattern.category == "state":
        form = vocab.canonical("state", pattern.kind)
        slots = [s for s in form.slots if s in PERSON_SLOTS]
        return fill(form, {s: quote_name(found.persons.get(s, ""), language(vocab)) for s in slots}, vocab)
    return print_observation(observation_of(found, modifiers, vocab), vocab)


def observation_of(found: Found, modifiers: list[Found], vocab: Vocabulary) -> Observation:
    """The observation a reading says (a count a reader phrase leaves out is 1, a person its subject)."""
    pattern = found.pattern
    slots = vocab.canonical("observation", pattern.kind).slots
    counts = {slot: found.numbers.get(slot, 1) for slot in slots if slot not in PERSON_SLOTS}
    other = found.persons.get("Q") if pattern.kind in vocab.two_person else None
    observation = Observation(found.persons.get("P", ""), pattern.kind, other, counts)
    for modifier in modifiers:
        kind = modifier.pattern.kind
        number = next(iter(modifier.numbers.values()), None) if kind in vocab.counted_modifiers else None
        # a reader phrase that leaves its person out says it of the subject (`and at once called a judge`)
        written = any(e.what == "person" for e in modifier.pattern.elements)
        person = modifier.persons.get("Q") if written or kind not in vocab.person_modifiers else observation.subject
        observation.modifiers.append(Modifier(kind, person, number))
    return observation


def inferred_line(vocab: Vocabulary, kind: str, subject: str, words: list[Word]) -> str | None:
    form = vocab.canonical("observation", kind)
    if "Q" in form.slots:
        return None
    counts = {}
    for slot in form.slots:
        if slot not in PERSON_SLOTS:
            place = unit_number(vocab, slot, words)
            counts[slot] = words[place[0]].number if place else 1
    return print_observation(Observation(subject, kind, None, counts), vocab)
