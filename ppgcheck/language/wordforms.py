"""Words as the tolerant reader compares them: lowercase, without punctuation, each with
its dictionary forms (drew, draws, had drawn -> draw, via lemminflect), and a near-miss
typo of a vocabulary word read as that word (via rapidfuzz); the numbers a word states are
matching.py's `number_of`.

lemminflect and rapidfuzz replace hand-written tables of inflections and typos: a form's
word in any tense, and a misspelt long word, match without listing them.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import lemminflect
from rapidfuzz import fuzz, process

# a word (letters and digits, with `-` and `'` inside), the possessive `'s`, or a digit run
# (or a judge's shorthand: `w/o`, `w/`, `b/c`, `&`, `+1`; `3rd` is one word, an ordinal, no count)
# (a judge's pad writes minutes as a mark after the number: `arrived 4' late`, `took ~4'`)
# (`+1 card`: one extra card; never `+1/+1` or a card's `+1 click`)
_WORD = re.compile(r"(?<![\w/])\+\d+(?=\s+cards?\b)|(?<!\w)(?:w/o|w/|b/c)(?!\w)|&|'s\b|\d+(?:st|nd|rd|th)\b|\d+"
                   r"|(?<=\d)['\u2032](?![\w'])"
                   r"|[^\W\d_]+(?:[-'][^\W\d_]+)*", re.UNICODE | re.IGNORECASE)
# contractions judges type, split as the forms write them (`didn't` = `did not`)
_CONTRACTIONS = {"can't": ("can", "not"), "cannot": ("can", "not"), "won't": ("will", "not"),
                 "n't": ("not",), "w/o": ("without",), "w/": ("with",), "b/c": ("because",), "&": ("and",),
                 "'": ("min",), "\u2032": ("min",)}
# a judge's abbreviations, whose dot ends no sentence (`approx. 3 min`, `e.g.`, `vs.`, `rd. 3`)
ABBREVIATIONS = ("approx", "ca", "e.g", "i.e", "vs", "esp", "rd", "tbl")
# where a sentence of a note ends: `.`, `;`, `!` or `?` before a space or the end (never `3.5`,
# never an abbreviation's dot)
SENTENCE_END = re.compile(r"(?:" + "".join(rf"(?<!\b{re.escape(a)})" for a in ABBREVIATIONS)
                          + r"\.|[;!?])+(?=\s|$)", re.IGNORECASE)
TYPO_MIN_LENGTH = 5         # shorter words are too close to each other to correct
TYPO_MIN_SCORE = 88         # rapidfuzz ratio a typo needs to be read as a vocabulary word


@dataclass(frozen=True)
class Token:
    """A word of a sentence: its text (lowercase), where it stands, and its dictionary forms."""
    text: str
    start: int
    end: int
    forms: frozenset[str]


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence of a note's line, its end mark included (SENTENCE_END)."""
    spans, start = [], 0
    for match in SENTENCE_END.finditer(text):
        spans.append((start, match.end()))
        start = match.end()
    if text[start:].strip() or not spans:
        spans.append((start, len(text)))
    return spans


def tokenize(sentence: str) -> list[Token]:
    """The words of a sentence, contractions split (`didn't` -> `did`, `not`)."""
    out: list[Token] = []
    for match in _WORD.finditer(sentence.replace("\u2019", "'")):
        word, start, end = match.group().lower(), match.start(), match.end()
        if word.startswith("+") and word[1:].isdigit():
            parts = (word[1:], "extra")
        elif word in _CONTRACTIONS:
            parts = _CONTRACTIONS[word]
        elif word.endswith("n't") and len(word) > 3:
            parts = (word[:-3], "not")
        elif word.endswith("'s") and len(word) > 2 and word != "'s" and word != "let's":   # (`let's roll`: no `let`)
            # each part where it stands: `Lee's` is a name, then the possessive after it
            out.extend([Token(word[:-2], start, end - 2, lemmas(word[:-2])), Token("'s", end - 2, end, lemmas("'s"))])
            continue
        else:
            parts = (word,)
        out.extend(Token(part, start, end, lemmas(part)) for part in parts)
    return out


@lru_cache(maxsize=4096)
def phrase_forms(text: str) -> tuple[frozenset[str], ...]:
    """The forms of each word of a pack's phrase (`read_allowed`, `read_summons`): tokenized
    once a process, not at every sentence read."""
    return tuple(token.forms for token in tokenize(text))


def phrase_at(forms: Sequence[frozenset[str]], text: str, start: int = 0) -> bool:
    """The phrase `text` stands in `forms` (each word's forms) from `start` on, word by word."""
    want = phrase_forms(text)
    if len(forms) - start < len(want) or want and not want[0] & forms[start]:
        return False        # (most phrases fail at their first word: no slice of the sentence made)
    return all(want[k] & forms[start + k] for k in range(1, len(want)))


def phrase_in(forms: Sequence[frozenset[str]], texts: Sequence[str]) -> bool:
    """One of the phrases `texts` stands somewhere in `forms`."""
    return any(phrase_at(forms, text, i) for text in texts for i in range(len(forms)))


@lru_cache(maxsize=8192)
def lemmas(word: str) -> frozenset[str]:
    """A word and its dictionary forms (`drew` -> {drew, draw}); a number word stays itself."""
    word = word.lower()
    found = {word}
    if word.isalpha() and len(word) > 2:
        for pos, forms in lemminflect.getAllLemmas(word).items():
            # a verb's or a noun's forms; an adjective's or adverb's only as itself: `later`
            # is no `late` (tardy), `worse` no `wrong`
            if pos not in ("ADJ", "ADV"):
                found.update(f.lower() for f in forms)
    return frozenset(found)


class Speller:
    """Corrects a near-miss typo of a long vocabulary word (`shuffeled` -> `shuffled`)."""

    def __init__(self, known: set[str]) -> None:
        self.known = known
        self.long = sorted(w for w in known if len(w) >= TYPO_MIN_LENGTH)

    @lru_cache(maxsize=4096)
    def correct(self, word: str) -> str | None:
        """The vocabulary word a typo stands for, or None (a known or a short word stays)."""
        if len(word) < TYPO_MIN_LENGTH or word in self.known or not word.isalpha() or not self.long:
            return None
        if lemminflect.getAllLemmas(word):
            return None         # an English word (`making`) is what it says, not a typo of `marking`
        best = process.extractOne(word, self.long, scorer=fuzz.ratio, score_cutoff=TYPO_MIN_SCORE)
        return best[0] if best else None

    def __hash__(self) -> int:          # lru_cache on a method: one cache per speller
        return id(self)


@lru_cache(maxsize=4096)
def is_participle(word: str) -> bool:
    """A verb's past participle (`stolen`, `marked`): after `was` it says what was done to
    someone, not what they did."""
    verbs = lemminflect.getAllLemmas(word.lower()).get("VERB", ())
    return any(word.lower() in lemminflect.getInflection(verb, tag="VBN") for verb in verbs)
