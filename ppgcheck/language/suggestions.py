"""Whole-line suggestions for a sentence the reader refused: the forms of the report's
policy ranked by the signs found whole, then by the words (their dictionary forms,
synonyms, cue words, and the words of their signs and hints) they share with the sentence,
each word weighted by how rare it is among the kinds (IDF), with the sentence's own names
and numbers filled in.  A caller offers only lines that parse
strictly (report.py checks each)."""
from __future__ import annotations

import math
from collections.abc import Callable
from functools import cache

from ppgcheck.language.matching import Patterns, Word, patterns
from ppgcheck.language.model import Modifier, Observation
from ppgcheck.language.printer import print_observation
from ppgcheck.language.reader import MAX_WORDS, Context, Refusal, modifiers_in, sentence_words
from ppgcheck.language.signs import ARTICLES, doers, likely_doer, passive_agent, score, signs_of, unit_number
from ppgcheck.language.vocabulary import PERSON_SLOTS, Vocabulary
from ppgcheck.language.wordforms import lemmas

MAX_SUGGESTIONS = 3
SIGN_WORDS_WEIGHT = 1.0     # a word of a kind's signs counts as much as a word of its forms


@cache
def _bags(compiled: Patterns) -> tuple[dict[str, frozenset[str]], dict[str, float]]:
    """Each observation kind's words (its forms' and cues), and each word's IDF."""
    bags: dict[str, set[str]] = {}
    strict = {(kind, form.text) for kind, forms in compiled.vocab.observations.items() for form in forms}
    for pattern in compiled.patterns:
        # the forms' own words and the cues: a reader phrase's context words (`after the
        # round started`) say little of what its kind is
        if pattern.category != "observation" or (pattern.kind, pattern.text) not in strict:
            continue
        bag = bags.setdefault(pattern.kind, set())
        bag.update(f for e in pattern.elements if e.what == "word" and not e.optional for f in e.forms)
        bag.update(e.name for e in pattern.elements if e.what == "negation")
    for kind, cue in compiled.vocab.reading.get("read_cue", []):
        if kind in bags:
            bags[kind] |= lemmas(cue.lower())
    return _with_idf(bags, floor=1.0)


@cache
def _sign_bags(compiled: Patterns) -> tuple[dict[str, frozenset[str]], dict[str, float]]:
    """Each observation kind's words of its signs and hints (their dictionary forms, the
    fillers aside), and each word's IDF among the kinds: the guide's words for a situation
    rank its form even where no sign is found whole (`found to contain 61 cards` beside the
    sign `contained 61 cards`)."""
    bags: dict[str, set[str]] = {}
    for sign in signs_of(compiled):
        bag = bags.setdefault(sign.kind, set())
        for forms in sign.words:
            if not forms & compiled.fillers:
                bag |= forms
    return _with_idf(bags, floor=0.0)


def _with_idf(bags: dict[str, set[str]], floor: float) -> tuple[dict[str, frozenset[str]], dict[str, float]]:
    """The kinds' bags, frozen, and each word's IDF among them (smoothed, plus `floor`: the
    forms' words weigh at least 1, a sign word common to every kind nothing)."""
    count: dict[str, int] = {}
    for bag in bags.values():
        for word in bag:
            count[word] = count.get(word, 0) + 1
    idf = {word: math.log((1 + len(bags)) / (1 + n)) + floor for word, n in count.items()}
    return {kind: frozenset(bag) for kind, bag in bags.items()}, idf


def _sign_words(compiled: Patterns, kind: str, forms_in: set[str]) -> float:
    """The IDF weight of the sentence's words among the kind's signs and hints."""
    bags, idf = _sign_bags(compiled)
    return sum(idf[w] for w in bags.get(kind, frozenset()) & forms_in)


def suggest(sentence: str, context: Context, vocab: Vocabulary, refusal: Refusal,
            parses: Callable[[str], bool]) -> list[str]:
    """Up to MAX_SUGGESTIONS whole lines for a refused sentence, each one `parses` accepts:
    the readings the refusal names first, then the policy's forms ranked by meaning."""
    if len(sentence.split()) > MAX_WORDS:
        return []           # (refused for its length: nothing to rank)
    compiled = patterns(vocab)
    mentions = _names_in(sentence, context)
    words = compiled.words(sentence, [])
    forms_in = set().union(*(w.forms for w in words)) if words else set()
    subject = mentions[0] if mentions else context.previous or (context.players[0] if context.players else None)
    lines: list[str] = []
    if subject is None:
        return []
    bags, idf = _bags(compiled)
    allowed = vocab.policy_kinds if vocab.policy_kinds is not None else list(vocab.observations)
    modifiers = [m for m in modifiers_in(sentence, context, vocab) if m.kind not in refusal.dropped]
    implied = {kind for m, kind in vocab.reading.get("read_implies", []) if any(x.kind == m for x in modifiers)}
    scored = []
    cues: dict[str, set[str]] = {}
    for kind, cue in vocab.reading.get("read_cue", []):
        cues.setdefault(kind, set()).add(cue.lower())
    negated = any(w.negation for w in words)
    named = sentence_words(sentence, context, vocab)
    agent = passive_agent(named)
    if agent is not None:       # (`Sara was called a cheater by Tomas`: Tomas's line first)
        subject = named[agent].person
    elif (likely := likely_doer(named, vocab)) is not None:
        subject = named[likely].person
    signs = score(compiled, named, {i for i, w in enumerate(named) if w.person is not None})
    weighed = _weighed(compiled)
    for kind in allowed:
        coverage = max((_coverage(elements, forms_in, negated) for elements in weighed.get(kind, [])),
                       default=(0.0, 0.0))
        cued = sum(idf.get(c, 1.0) for c in cues.get(kind, set()) & forms_in)
        # the meaning shared (IDF-weighted), more for a pattern the sentence holds more of
        # the pack's signs first (the guide's words for the situation), then what the forms share
        points = signs[kind].points if kind in signs else 0
        meaning = coverage[1] * (0.5 + 0.5 * coverage[0]) + cued + (100 if kind in implied else 0) + 1000 * points \
            + SIGN_WORDS_WEIGHT * _sign_words(compiled, kind, forms_in)
        if meaning > 0:
            scored.append((-meaning, kind))
    candidates = list(refusal.readings)
    for _, kind in sorted(scored):
        # a kind the signs say is said by the one the signs' reading would take as its doer
        placed = doers(compiled, named, kind, signs[kind].read, other_before=True) if kind in signs else None
        doer = named[placed[0]].person if placed else subject
        done_to = [named[placed[1]].person] if placed and placed[1] is not None else \
            [m for m in mentions if m != doer] + [p for p in context.players if p != doer]
        line = _filled(kind, doer, done_to, words, vocab, modifiers, refusal.extra)
        if line:
            candidates.append(line)
    for line in candidates:
        if line not in lines and parses(line):
            lines.append(line)
        if len(lines) == MAX_SUGGESTIONS:
            break
    return lines


@cache
def _weighed(compiled: Patterns) -> dict[str, list[list[tuple[bool, frozenset[str], float]]]]:
    """Each observation kind's patterns as the words they must read, each with its IDF weight
    (is it a negation, its forms, its weight): what _coverage sums, weighed once."""
    _, idf = _bags(compiled)
    out: dict[str, list[list[tuple[bool, frozenset[str], float]]]] = {}
    for pattern in compiled.patterns:
        if pattern.category != "observation":
            continue
        out.setdefault(pattern.kind, []).append([
            (element.what == "negation", element.forms, max((idf.get(f, 1.0) for f in element.forms), default=1.0))
            for element in pattern.elements if not element.optional and element.what in ("word", "negation")])
    return out


def _coverage(elements: list[tuple[bool, frozenset[str], float]], forms_in: set[str],
              negated: bool) -> tuple[float, float]:
    """How much of a pattern's meaning the sentence has: the IDF-weighted share of its
    words (its fillers aside) the sentence holds, in any order, and their weight."""
    total = found = 0.0
    for negation, forms, weight in elements:
        total += weight
        if (negation and negated) or forms & forms_in:
            found += weight
    return (found / total if total else 0.0), found


def _filled(kind: str, subject: str, others: list[str], words: list[Word], vocab: Vocabulary,
            modifiers: list[Modifier], extra: list[str]) -> str | None:
    """The canonical line of a kind with the sentence's names and the numbers of its counts
    (a count's number is the one before its unit word, `7 minutes`, never `table 12`; one
    missing or out of its range is its range's lowest above 0)."""
    form = vocab.canonical("observation", kind)
    counts = {}
    for slot in form.slots:
        if slot in PERSON_SLOTS:
            continue
        low, high = vocab.count_ranges.get(slot, (1, 60))
        place = unit_number(vocab, slot, words)
        value = words[place[0]].number if place else _named_number(slot, words, max(low, 1))
        counts[slot] = value if low <= value <= high else max(low, 1)
    other = None
    if "Q" in form.slots:
        if not others:
            return None
        other = others[0]
    observation = Observation(subject, kind, other, counts, list(modifiers))
    groups = {vocab.exclusive.get(m.kind) for m in modifiers} - {None}
    for modifier in extra:
        if modifier not in vocab.person_modifiers and modifier not in vocab.counted_modifiers \
                and vocab.exclusive.get(modifier) not in groups:
            observation.modifiers.append(Modifier(modifier))
    return print_observation(observation, vocab)


def _named_number(slot: str, words: list[Word], default: int) -> int:
    """The number said next to a count's own name where it has no unit word (`her hero has
    four intellect`, `intellect is 4`: within two words either side), else the default."""
    for i, word in enumerate(words):
        if slot not in word.forms:
            continue
        near = [*words[max(0, i - 2):i][::-1], *words[i + 1:i + 3]]
        number = next((w.number for w in near if w.number is not None and w.text not in ARTICLES), None)
        if number is not None:
            return number
    return default


def _names_in(sentence: str, context: Context) -> list[str]:
    """The declared names a sentence names, in order."""
    lowered = sentence.lower()
    found = sorted((lowered.find(name.lower()), name) for name in context.names if name.lower() in lowered)
    return [name for _, name in found]
