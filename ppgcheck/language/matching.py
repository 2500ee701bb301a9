"""Finding the forms of a vocabulary inside a free sentence.

Every observation, modifier, adverb and state form (and the reader's own phrases,
rules/core/reading.lp `read_phrase`) is compiled into a pattern: its words by their
dictionary forms, its {slots}; words a sentence may leave out (`a`, `her`: `read_filler`)
are optional.  A pattern is found in a sentence word after word, in order, with at most
MAX_GAP other words between two it reads; words of the sentence already read by another
pattern are not read again.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import cached_property

from ppgcheck.language.build import MAX_DIGITS
from ppgcheck.language.grammar import tokens as form_tokens
from ppgcheck.language.grammar import unit_positions
from ppgcheck.language.vocabulary import PERSON_SLOTS, Vocabulary
from ppgcheck.language.wordforms import Speller, Token, lemmas, tokenize

MAX_GAP = 3              # other words allowed between two words of an observation's pattern
MODIFIER_GAP = 1         # a modifier is written in one piece: one other word at most
SUBJECT_GAP = 8          # words between the subject and its verb (`Kim, in game 2 at table 4, drew ...`)
NUMBER: frozenset[str] = frozenset({"#number"})     # a form's count slot, where a verb needs one next
MAX_STEPS = 4000         # search steps a pattern may take in one sentence (bounds the work)


@dataclass(frozen=True)
class Element:
    what: str                  # person | number | word | negation | possessive
    name: str                  # the slot's name, or the word as the form writes it
    forms: frozenset[str] = frozenset()
    optional: bool = False


@dataclass(frozen=True)
class Pattern:
    category: str              # observation | modifier | state
    kind: str
    text: str
    elements: tuple[Element, ...]

    @property
    def content(self) -> int:
        """How many words the pattern must read (more: a more specific pattern)."""
        return sum(not e.optional for e in self.elements)

    @cached_property
    def required(self) -> tuple[frozenset[str], ...]:
        """The forms of each word it must read: a sentence without one of them is no place for it."""
        return tuple(e.forms for e in self.elements if e.what == "word" and not e.optional)


@dataclass
class Word:
    """A word of the sentence as patterns read it."""
    text: str
    start: int
    end: int
    forms: frozenset[str]
    person: str | None = None
    number: int | None = None
    negation: bool = False
    joined: tuple["Word", ...] = ()          # the words read with this one (`instead of M` of an `extra`)
    pause: bool = False                      # punctuation or a quote mark before it (`told Lee "you ...`)
    stop: bool = False                       # a sentence's end before it (`.`, `;`, `:`, `!`, `?`)


@dataclass
class Found:
    """Where a pattern stands in a sentence: the words it read and what its slots hold."""
    pattern: Pattern
    read: tuple[int, ...]                       # indexes of the words it read
    persons: dict[str, str] = field(default_factory=dict)
    numbers: dict[str, int] = field(default_factory=dict)
    inferred: bool = False      # read from signs or a modifier it implies, not from a form's words

    @property
    def span(self) -> int:
        return self.read[-1] - self.read[0] if self.read else 0


class Patterns:
    """The patterns of a vocabulary, and the words it knows (for the speller)."""

    def __init__(self, vocab: Vocabulary) -> None:
        reading = vocab.reading
        self.vocab = vocab
        self.fillers = {args[0].lower() for args in reading.get("read_filler", [])}
        self.negations = {args[0].lower() for args in reading.get("read_negation", [])}
        self.synonyms = [(tuple(written.lower().split()), tuple(means.lower().split()))
                         for written, means in reading.get("read_synonym", [])]
        # (each synonym's words as the forms a word must share, the longest synonym first)
        self.synonyms_longest_first = [(written, means, tuple(lemmas(w) for w in written))
                                       for written, means in sorted(self.synonyms, key=lambda s: -len(s[0]))]
        self.together = {form for (text,) in reading.get("read_together", []) for form in lemmas(text.lower())}
        # (read_instead's units, each as its forms, with the word that makes it a difference: `extra`)
        self.instead_units = {tuple(lemmas(unit.lower())): word.lower() for unit, word in reading.get("read_instead", [])}
        self.contrasts = sorted({tuple(text.lower().split()) for (text,) in reading.get("read_instead_of", [])},
                                key=len, reverse=True)
        self.patterns: list[Pattern] = []
        categories = {"observation": vocab.observations, "modifier": vocab.modifiers, "adverb": vocab.adverbs,
                      "state": vocab.states}
        for category, table in categories.items():
            for kind, forms in table.items():
                for form in forms:
                    self.patterns.append(self.compile("modifier" if category == "adverb" else category, kind,
                                                      form.text, strict_form=True))
        for kind, text in reading.get("read_phrase", []):
            category = next((c for c, table in categories.items() if kind in table), None)
            if category is not None:
                self.patterns.append(self.compile("modifier" if category == "adverb" else category, kind, text))
        known = {f for p in self.patterns for e in p.elements for f in e.forms}
        known |= {w for written, _ in self.synonyms for w in written}
        known |= {args[1].lower() for args in reading.get("read_cue", [])}
        known |= {args[0].lower() for args in reading.get("read_doubt", [])}
        known |= {t.text for fact in ("read_sign", "read_hint", "read_scene") for _, text in reading.get(fact, [])
                  for t in tokenize(text)}
        self.known = known
        self.numbers = {**vocab.numbers, **{word.lower(): int(n) for word, n in reading.get("read_number", [])}}
        self.speller = Speller(known | set(self.numbers))

    @cached_property
    def _by_required(self) -> tuple[dict[str, tuple[int, ...]], tuple[int, ...]]:
        """Where each pattern is in `patterns`, by the forms of its first required word (and those
        that require none): a sentence's forms name the few it may hold."""
        index: dict[str, list[int]] = {}
        always = []
        for k, pattern in enumerate(self.patterns):
            if not pattern.required:
                always.append(k)
                continue
            for form in pattern.required[0]:
                index.setdefault(form, []).append(k)
        return {form: tuple(at) for form, at in index.items()}, tuple(always)

    def candidates(self, words: list[Word], modifiers: bool) -> list[Pattern]:
        """The modifier patterns (else the others) a sentence may hold, in their order: those
        whose first required word it has (find() tests the rest of them)."""
        index, always = self._by_required
        at = sorted({k for form in present_forms(words) for k in index.get(form, ())}.union(always))
        return [p for k in at if ((p := self.patterns[k]).category == "modifier") == modifiers]

    @cached_property
    def verbs(self) -> dict[str, tuple[tuple[frozenset[str], frozenset[str] | None], ...]]:
        """Each observation kind's verbs: the first word after the subject in its patterns,
        with the word its pattern needs next (`kept` of `kept notes`), None if none."""
        verbs: dict[str, set[tuple[frozenset[str], frozenset[str] | None]]] = {}
        for pattern in self.patterns:
            elements = pattern.elements
            if pattern.category != "observation" or not elements or elements[0] != Element("person", "P"):
                continue
            needed = [e for e in elements[1:] if (e.what == "word" and not e.optional and e.name not in self.fillers)
                      or e.what == "number"]
            if needed and needed[0].what == "word":
                following = None if len(needed) < 2 else NUMBER if needed[1].what == "number" else needed[1].forms
                verbs.setdefault(pattern.kind, set()).add((needed[0].forms, following))
        return {kind: tuple(pairs) for kind, pairs in verbs.items()}

    def verb_of(self, words: list[Word], i: int, said: set[str]) -> str | None:
        """The observation kind (none of `said`) whose verb word i is, with the word its
        pattern needs next within MAX_GAP words: `and kept notes`, never `and kept the pack`."""
        for kind, pairs in self.verbs.items():
            if kind in said:
                continue
            for verb, following in pairs:
                if not verb & words[i].forms:
                    continue
                if following is None or any(w.number is not None if following is NUMBER else following & w.forms
                                            for w in words[i + 1:i + 2 + MAX_GAP]):
                    return kind
        return None

    def compile(self, category: str, kind: str, text: str, strict_form: bool = False) -> Pattern:
        """A form's pattern.  A sentence may leave out the fillers of an observation's form
        (`Kim missed trigger`), only articles and possessives of a modifier or of a reader
        phrase (written for the reader, each of its words means something)."""
        items = list(form_tokens(text))
        units = unit_positions(items, self.vocab)
        classes = {w: words for words in self.vocab.word_classes.values() for w in words}
        elements = []
        for i, (what, name) in enumerate(items):
            if what == "slot":
                elements.append(Element("person" if name in PERSON_SLOTS else "number", name))
            elif name == ",":
                continue
            elif name == "'s":
                elements.append(Element("possessive", name, optional=True))
            else:
                word = name.lower()
                for part in tokenize(word):
                    if part.text in self.negations:
                        elements.append(Element("negation", part.text))
                        continue
                    forms = set(part.forms)
                    if i in units:
                        forms |= {f for pair in self.vocab.units[units[i]] for w in pair for f in lemmas(w)}
                    for other in classes.get(part.text, []):
                        forms |= lemmas(other)
                    # a modifier keeps its words but articles and possessives (`with her decklist`
                    # is not read from `decklist` alone)
                    optional = part.text in (self.fillers if category != "modifier" and strict_form else
                                             {"a", "an", "the", *classes})
                    elements.append(Element("word", part.text, frozenset(forms), optional=optional))
        return Pattern(category, kind, text, tuple(elements))

    def words(self, sentence: str, mentions: list[tuple[int, int, str]]) -> list[Word]:
        """The sentence as words: each person mention (start, end, name: found by the
        reader) one word, synonyms replaced by the words they mean, typos corrected."""
        out: list[Word] = []
        numbers = self.numbers
        previous_end = 0
        for token in _number_words_apart(tokenize(sentence), numbers):
            pause = bool(_PAUSE.search(sentence, previous_end, token.start)) if out else False
            stop = bool(_STOP.search(sentence, previous_end, token.start)) if pause else False
            previous_end = token.end
            mention = next((m for m in mentions if m[0] <= token.start < m[1]), None)
            if mention is not None:
                if out and out[-1].person is not None and out[-1].start == mention[0]:
                    continue            # the rest of a multiword name
                if out and out[-1].person is not None and sentence[out[-1].end:mention[0]].strip() == "+":
                    # (a pad's `kim + lee`: the pair; a `+` elsewhere is no word, `dice + swearing`)
                    out.append(Word("+", out[-1].end, mention[0], lemmas("and")))
                out.append(Word(sentence[mention[0]:mention[1]], mention[0], mention[1], frozenset(),
                                person=mention[2], pause=pause, stop=stop))
                if token.end == mention[1] + 1:      # `Kims deck` (reader.py `mentions`): Kim's
                    out.append(Word("'s", mention[1], token.end, frozenset({"'s"})))
                continue
            forms = set(token.forms)
            fixed = self.speller.correct(token.text)
            if fixed:
                forms |= lemmas(fixed) | {fixed}
            value = number_of(token.text, numbers, fixed)
            out.append(Word(token.text, token.start, token.end, frozenset(forms), number=value,
                            negation=token.text in self.negations, pause=pause, stop=stop))
        return self.read_together(self.read_instead(self.replace_synonyms(compound_numbers(_did_not(out)))))

    def read_instead(self, words: list[Word]) -> list[Word]:
        """`N Unit ... instead of M` (M < N) read as `N-M Word Unit` where `read_instead(Unit,
        Word)` says so (`drew 3 cards instead of two`: 1 extra card); the words `instead of M`
        are read with it (a count the sentence states as a difference, not guessed)."""
        rules = self.instead_units
        counted = {verb.lower(): unit for verb, unit in self.vocab.reading.get("read_counted", [])}
        for i, word in enumerate(words):
            if word.number is None or i + 1 >= len(words):
                continue
            # the unit right after the number, or after one word (`two encounter cards`)
            at = next((a for a in (i + 1, i + 2) if a < len(words) and (a == i + 1 or (
                words[i + 1].number is None and words[i + 1].person is None and not words[i + 1].negation))
                and any(set(forms) & words[a].forms for forms in rules)), None)
            verb = next((counted[v] for v in (words[i - 1].forms if i else ()) if v in counted), None)
            if at is None and verb is not None and _unit_left_out(words, i, rules):
                # `drew 2 extra, mixed in hand`: the verb's unit after the word, said by no word
                words.insert(i + 2, Word("", words[i + 1].end, words[i + 1].end, lemmas(verb)))
                continue
            # (`should have drawn 1`, never `had to discard 1`: a contrast's verb is the count's own)
            contrasts = (self.contrasts, words[i - 1].forms if i else frozenset())
            if at is None and verb is not None and _instead_of(words, i + 1, i + 12, contrasts) is not None:
                # `drew 3 instead of 2`: the verb's unit, said by no word (`read_counted`)
                words.insert(i + 1, Word("", word.end, word.end, lemmas(verb)))
                at = i + 1
            if at is None:
                continue
            unit = next(extra for forms, extra in rules.items() if set(forms) & words[at].forms)
            span = _instead_of(words, at + 1, i + 12, contrasts)
            if span is None:
                continue
            j, k = span
            said = words[k].number
            if said is not None and said < word.number:
                word.number -= said
                joined = tuple(words[j:k + 1])
                words[k].number = None       # read with the difference, never as a count of its own
                if at == i + 2 and unit in words[i + 1].forms:
                    words[i + 1].joined = joined        # `two extra cards instead of one`: the word is written
                else:
                    words.insert(at, Word("", words[at].start, words[at].start, lemmas(unit), joined=joined))
        return words

    def read_together(self, words: list[Word]) -> list[Word]:
        """`N Unit ... stuck together` (N > 1) read as `N-1 Word Unit` where `read_instead(Unit,
        Word)` says so and a word after the unit is a `read_together` (`two cards stuck together`:
        they came as one draw, one of them due; 1 extra card).  A count said as extra already
        (`2 extra cards stuck together`) or a difference read by read_instead stays as written."""
        together, rules = self.together, self.instead_units
        if not together:
            return words
        for i, word in enumerate(words):
            if word.number is None or word.number < 2 or i + 1 >= len(words):
                continue
            at = i + 1 if any(set(forms) & words[i + 1].forms for forms in rules) else None
            if at is None:
                continue
            unit = next(extra for forms, extra in rules.items() if set(forms) & words[at].forms)
            if unit in words[i + 1].forms or words[at].joined or (i and unit in words[i - 1].forms):
                continue
            after = words[at + 1:at + 1 + _TOGETHER_REACH]
            for n, w in enumerate(after):
                if w.forms & together:
                    word.number -= 1
                    # (the words that say so are read with it, `stuck together`: the count is what they say)
                    said = words[at + 1:at + 2 + n + (at + 2 + n < len(words) and words[at + 2 + n].text.lower()
                                                     == "together")]
                    words.insert(at, Word("", words[at].start, words[at].start, lemmas(unit), joined=tuple(said)))
                    break
                if w.pause or w.stop or w.person is not None or w.number is not None:
                    break
        return words

    def replace_synonyms(self, words: list[Word]) -> list[Word]:
        """Each run of words a `read_synonym` names, read as the words it means (the
        longest first); a one-word synonym adds its meaning to the word's forms."""
        present = frozenset().union(*(w.forms for w in words))
        for written, means, wanted in self.synonyms_longest_first:
            if not all(want & present for want in wanted):
                continue        # (a word it needs is not in the sentence: most synonyms)
            i = 0
            while i + len(written) <= len(words):
                run = words[i:i + len(written)]
                if all(w.person is None and want & w.forms for w, want in zip(run, wanted)):
                    if len(written) == 1 and len(means) == 1:
                        run[0].forms = run[0].forms | lemmas(means[0])
                        present |= run[0].forms      # (a later synonym may need the meaning's words)
                        i += 1
                        continue
                    start, end = run[0].start, run[-1].end
                    text = " ".join(w.text for w in run)
                    # (`half an hour`: 30 minutes; `drew to extra`, a dictation slip, two extra)
                    new = [Word(text if j == 0 else "", start, end, lemmas(m), negation=m in self.negations,
                                number=number_of(m, self.numbers)) for j, m in enumerate(means)]
                    words[i:i + len(written)] = new
                    present = present.union(*(w.forms for w in new))
                    i += len(new)
                else:
                    i += 1
        return words

    def find(self, pattern: Pattern, words: list[Word], taken: set[int],
             subject: str | None = None) -> Found | None:
        """The tightest place the pattern reads in the words (none of them `taken`)."""
        present = present_forms(words)
        if not all(forms & present for forms in pattern.required):
            return None         # (most patterns: a set test instead of a walk of the words)
        best: list[Found] = []
        steps = [0]
        elements = pattern.elements
        gap = MODIFIER_GAP if pattern.category == "modifier" else MAX_GAP
        # a pattern read by one word of several (`decklist` of `with her decklist`) is too weak a sign
        least = min(2, len(elements))
        uncounted = not any(element.what == "number" for element in elements)

        def accepts(element: Element, word: Word, persons: dict[str, str]) -> bool:
            if element.what == "person":
                if word.person is None or word.person in persons.values():
                    return False
                return element.name != "P" or subject is None or word.person == subject
            if word.person is not None:
                return False
            if element.what == "number":
                return word.number is not None
            if element.what == "negation":
                return word.negation
            if element.what == "possessive":
                return word.text == "'s"
            return bool(element.forms & word.forms)

        def step(i: int, at: int, read: list[int], persons: dict[str, str], numbers: dict[str, int]) -> None:
            steps[0] += 1
            if steps[0] > MAX_STEPS:
                return
            if i == len(elements):
                if len(read) >= least:
                    best.append(Found(pattern, tuple(read), dict(persons), dict(numbers)))
                return
            element = elements[i]
            reach = SUBJECT_GAP if i == 1 and elements[0].what == "person" else gap
            end = len(words) if not read else min(len(words), at + reach + 1)
            if i and elements[i - 1].what == "number" and element.what == "word" and read:
                end = min(end, at + 1)      # a number's unit follows it (`7 minutes`, not `40 seven minutes`)
            for j in range(at, end):
                if read and j > at and names_someone(words, j - 1):
                    break           # a gap never passes over another person (`Kim said Lee drew ...`)
                if read and j > at and uncounted and reach != SUBJECT_GAP and words[j - 1].number not in (None, 1):
                    break           # nor, in a pattern with no count (one), over another (`looked at top 3 w/ her card`;
                    # where and when between the subject and the verb are context: `Kim, at table 9, played ...`)
                if read and (words[j].stop and words[j].person is not None
                             or words[j].pause and elements[i - 1].what == "negation"):
                    break           # a negation's reach ends at a pause (`no riffle, on purpose`: not `not on
                    #  purpose`), and a sentence naming someone is hers (`Lee called me over: Kim called him ...`)
                if j in taken or not accepts(element, words[j], persons):
                    continue
                if i == 1 and elements[0].what == "person" and j >= 2 and words[j - 1].text == "'s" \
                        and words[j - 2].person is not None:
                    continue        # `pointed out Lee's missed trigger`: Lee's trigger, not Kim's verb
                if element.what == "person" and read and elements[i - 1].what == "word" and _own_object(words[at:j]):
                    continue        # `pushed the cards toward Lee`: the verb's object is the cards, not Lee
                if element.what == "person" and not names_someone(words, j) and not (
                        i + 1 < len(elements) and elements[i + 1].what == "possessive"):
                    continue        # `Lee's deck` is no subject, unless the form says `{P}'s`
                slot_persons = {**persons, element.name: words[j].person} if element.what == "person" else persons
                slot_numbers = {**numbers, element.name: words[j].number} if element.what == "number" else numbers
                step(i + 1, j + 1, read + [j], slot_persons, slot_numbers)
            if element.optional:
                step(i + 1, at, read, persons, numbers)

        step(0, 0, [], {}, {})
        if not best:
            return None
        return min(best, key=lambda f: (f.span - len(f.read), f.read[0]))


_PRESENT: list = [None, -1, frozenset()]     # the last words asked of (held), their length, their forms


def present_forms(words: list[Word]) -> frozenset[str]:
    """Every form of the words (the last list asked of kept, and held so that no other list
    takes its id: the reader asks of one sentence at a time, hundreds of patterns in turn; a
    word's forms are set once, as the list is made, and a word put in changes its length)."""
    if _PRESENT[0] is not words or _PRESENT[1] != len(words):
        _PRESENT[:] = [words, len(words), frozenset().union(*(w.forms for w in words))]
    return _PRESENT[2]


_COMPILED: dict[tuple[str, str | None], Patterns] = {}
_STOP = re.compile(r"[.;:!?](?=\s|$)|[.;:!?][\"\u201d)]|\s/\s")     # (` / `: a write-up's parts)
_PAUSE = re.compile(r"[.,;:!?\"\u201c\u201d()\u2013\u2014]|\s[-/]\s")


def patterns(vocab: Vocabulary) -> Patterns:
    """The compiled patterns of a vocabulary (once a process and vocabulary)."""
    key = (vocab.key, vocab.pack)
    if key not in _COMPILED:
        _COMPILED[key] = Patterns(vocab)
    return _COMPILED[key]


# after `N extra`, words that show the unit was left out (`drew 2 extra in the draw phase`)
_AFTER_A_COUNT = frozenset({"in", "at", "for", "during", "off", "from", "by", "on", "and", "but", "so", "then",
                            "when", "while", "because", "after", "before", "into", "instead"})


def _unit_left_out(words: list[Word], i: int, rules: dict[tuple[str, ...], str]) -> bool:
    """`N extra` after a counting verb, then a pause, the end or a joining word: the unit unsaid."""
    extra = {word for word in rules.values()}
    return i + 1 < len(words) and words[i + 1].text.lower() in extra and (
        i + 2 == len(words) or words[i + 2].pause or words[i + 2].text.lower() in _AFTER_A_COUNT)


# how far after `N cards` a `read_together` word may stand (`two cards were stuck together`)
_TOGETHER_REACH = 3
# before a contrast said with a verb of duty (`when she should have drawn 1`), the words that
# tie it on; read with it
_CONTRAST_OPENERS = frozenset({"when", "but", "while", "where", "though", "although", "and", "she", "he",
                               "they", "it", "was", "is", "only"})
# between a contrast and its number, besides the count's own verb (`should have drawn only 1`)
_CONTRAST_GAP = frozenset({"have", "only", "just", "been", "be", "get", "got", "gotten", "a", "total", "of"})


_DETERMINERS = frozenset({"the", "a", "an", "his", "her", "their", "its", "my", "some"})


def _own_object(gap: list[Word]) -> bool:
    """Words between a verb and a person that give the verb an object of its own (`the cards`)."""
    return any(w.text.lower() in _DETERMINERS and n.person is None and n.number is None
               for w, n in zip(gap, gap[1:]))


def _instead_of(words: list[Word], start: int, end: int,
                contrasts: tuple[list[tuple[str, ...]], frozenset[str]]) -> tuple[int, int] | None:
    """Where a contrast (`instead of`, `rather than`, `should have drawn`: core's
    `read_instead_of`) stands in words[start:end] before any person or number, and its number
    (`drew 3 cards instead of two`): the first word read with it and the number's place.  The
    words between a contrast and its number are the count's verb (`verb`) and a few fillers."""
    phrases, verb = contrasts
    for j in range(start, min(len(words) - 1, end)):
        if words[j].person is not None or words[j].number is not None:
            return None
        size = next((len(c) for c in phrases if tuple(w.text.lower() for w in words[j:j + len(c)]) == c), 0)
        if not size:
            continue
        k = j + size
        while k < len(words) and words[k].number is None and not words[k].pause \
                and (words[k].text.lower() in _CONTRAST_GAP or words[k].forms & verb):
            k += 1
        if k >= len(words) or words[k].number is None or any(w.pause for w in words[j + 1:k + 1]):
            return None
        while j > start and not words[j].pause and words[j - 1].text.lower() in _CONTRAST_OPENERS:
            j -= 1
        return j, k
    return None


def names_someone(words: list[Word], i: int) -> bool:
    """Whether word i names a person who does something (not `Lee's` of `Lee's deck`)."""
    return words[i].person is not None and not (i + 1 < len(words) and words[i + 1].text == "'s")


def is_digits(text: str) -> bool:
    """Digits 0-9 only: `²` is a digit to str.isdigit() and no number to int()."""
    return text.isascii() and text.isdigit()


_TENS = (20, 30, 40, 50, 60, 70, 80, 90)


_ORDINALS = frozenset({"first", "second", "third"})


def _number_words_apart(tokens: list[Token], number_words: dict[str, int]) -> list[Token]:
    """`five-minute`, `four-intellect` read as a number and its word, as `5-minute` is (a
    hyphenated word stays one word elsewhere: `de-side`, `twenty-two`)."""
    out: list[Token] = []
    for token in tokens:
        head, hyphen, tail = token.text.partition("-")
        if hyphen and head in number_words and tail.isalpha() and tail not in number_words \
                and tail not in _ORDINALS and not tail.endswith("th"):      # (`forty-first` is one word)
            middle = token.start + len(head)
            out += [Token(head, token.start, middle, lemmas(head)), Token(tail, middle + 1, token.end, lemmas(tail))]
        else:
            out.append(token)
    return out


def compound_numbers(words: list[Word]) -> list[Word]:
    """`twenty two` read as one number, 22 (not `two` with `twenty` left unread: a judge's
    `twenty two minutes late` is no 2-minute tardiness): a tens word and a unit word after it
    with nothing between them."""
    out: list[Word] = []
    for word in words:
        before = out[-1] if out else None
        if before is not None and not word.pause and before.number in _TENS and not is_digits(before.text) \
                and "-" not in before.text and word.number is not None and 1 <= word.number <= 9 \
                and not is_digits(word.text):
            out[-1] = replace(before, text=f"{before.text} {word.text}", end=word.end,
                              number=before.number + word.number)
            continue
        out.append(word)
    return out


def number_of(text: str, number_words: dict[str, int], corrected: str | None = None) -> int | None:
    """The number a word states: its digits (none past MAX_DIGITS: past any range of the
    language, and int() refuses 4,301 digits), else the number word it is or is a typo of."""
    if is_digits(text):
        return int(text) if len(text) <= MAX_DIGITS else None
    tens, hyphen, unit = text.lower().partition("-")      # `twenty-two`: a ten and a unit
    if hyphen and number_words.get(tens, 0) in _TENS and 1 <= number_words.get(unit, 0) <= 9:
        return number_words[tens] + number_words[unit]
    return number_words.get(corrected or text)


def _did_not(words: list[Word]) -> list[Word]:
    """`had not discarded` says what `did not discard` says: a `have` before a negation is also `do`
    (the packs' words are written with `did not`)."""
    return [replace(w, forms=w.forms | {"do", "did"}) if "have" in w.forms and k + 1 < len(words)
            and words[k + 1].negation else w for k, w in enumerate(words)]
