"""A judge's line that says several things (`Kim drew an extra card and Lee let it pass`):
read as its sentences and clauses, each by the reader, when the line as a whole is refused.

A line is cut at a sentence's end (`.`, `;`, `!`, `?`) and before `and`, `but`, `then`,
`while`, `because`, `since` or a comma that starts a clause with a person (a declared name, a pronoun, `the
opponent`).  Each piece is read in turn, a pronoun standing for the subject before it; a
piece of modifiers alone (`It was on purpose`, `Found 2 turns later`) adds them to the
statement before it.  The line is read only when every piece is: one piece refused leaves
the whole line refused, as it was.
"""
from __future__ import annotations

import dataclasses
import re

from ppgcheck.language.matching import patterns
from ppgcheck.language.model import Reading
from ppgcheck.language.reader import Context, Read, Refusal, read_sentence, sentence_words
from ppgcheck.language.signs import score
from ppgcheck.language.vocabulary import Vocabulary

CONTINUATION = "It was "        # the reader's line for modifiers alone (reader.py `_continuation`)
MAX_PIECES = 6                  # more pieces than a note's line says: not read piece by piece
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+|;\s*")


def read_pieces(sentence: str, context: Context, vocab: Vocabulary) -> list[Read] | None:
    """The statements of a line read piece by piece (the main one first), or None when it
    has one piece or a piece cannot be read."""
    pieces = split(sentence, context)
    if not 1 < len(pieces) <= MAX_PIECES:
        return None
    reads: list[Read] = []
    current = dataclasses.replace(context)
    for piece in pieces:
        result = read_sentence(piece, current, vocab)
        if isinstance(result, Refusal):
            return None
        if result.line.startswith(CONTINUATION):
            if not reads:
                return None
            reads[-1] = _joined(reads[-1], result, piece)
            continue
        reads.append(result)
        current = dataclasses.replace(current, previous=result.subject)
    return reads


def _joined(read: Read, more: Read, piece: str) -> Read:
    """A statement with the modifiers of the piece after it."""
    line = read.line + ", " + more.line[len(CONTINUATION):]
    reading = Reading(f"{read.reading.written} {piece.strip()}", line,
                      [*read.reading.not_read, *more.reading.not_read])
    return Read(line, reading, read.subject)


def split(sentence: str, context: Context) -> list[str]:
    """The pieces of a line: its sentences, each cut before a clause that starts with a person."""
    persons = [re.escape(name) for name in sorted(context.names, key=len, reverse=True)]
    persons += ["she", "he", "they", r"(?:the|her|his|their)\s+opponent"]
    clause = re.compile(rf",?\s+(?:and|but|then|while|because|since)\s+(?=(?:{'|'.join(persons)})\b)"
                        rf"|,\s+(?=(?:{'|'.join(persons)})\b)", re.IGNORECASE)
    pieces = []
    for part in _SENTENCE_END.split(sentence):
        pieces.extend(p for p in clause.split(part) if p and p.strip(" ,.;"))
    return [p.strip() for p in pieces]


def unread_statement(read: Read, context: Context, vocab: Vocabulary) -> str | None:
    """A run of words the reading left unread that starts with another declared person and
    holds a sign or hint of the policy's kinds (`... Ben didn't notice at all`): a statement
    of its own that could not be read, never left out silently; None when there is none."""
    for text in read.reading.not_read:
        words = sentence_words(text, context, vocab)
        start = 1 if words and words[0].text.lower() in ("and", "but", "then", "while", "so", "because", "since") else 0
        if len(words) <= start or words[start].person in (None, read.subject):
            continue
        if score(patterns(vocab), words, {i for i, w in enumerate(words) if w.person is not None}):
            return text
    return None
