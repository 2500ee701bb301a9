"""A judge's line that says several things (`Kim drew an extra card and Lee let it pass`):
read as its sentences and clauses, each by the reader, when the line as a whole is refused.

A line is cut at a sentence's end (`.`, `;`, `!`, `?`, `:`) and before a clause joiner (`and`,
`but`, `because`: signs.CLAUSE_JOINERS) or a comma that starts a clause with a person (a
declared name, a pronoun, `the opponent`), never between two persons who are one subject
(`Kim and Lee were both late`: the same statement of each).  Each piece is read in turn, a pronoun standing
for the subject before it; a piece of modifiers alone (`It was on purpose`, `Found 2 turns
later`) adds them to the statement before it; a piece that says nothing the language reads
(`Round 6, table 31.`) or a person calling the judge over (`Lee called me over:`) is kept
as not read.  The line is read only when every other piece is: one piece refused leaves the
whole line refused, as it was.
"""
from __future__ import annotations

import dataclasses
import re
from itertools import product

from ppgcheck.language import clock
from ppgcheck.language.matching import patterns
from ppgcheck.language.model import Reading
from ppgcheck.language.reader import (NOTHING_FOUND, PERCEIVED_FILLERS, Context, Read, Refusal, modifiers_in,
                                      read_sentence, sentence_words)
from ppgcheck.language.signs import CLAUSE_JOINERS, JOINERS_AND_SO, PERCEIVING, score
from ppgcheck.language.vocabulary import Vocabulary
from ppgcheck.language.wordforms import ABBREVIATIONS, phrase_at, phrase_forms, phrase_in, tokenize

CONTINUATION = "It was "        # the reader's line for modifiers alone (reader.py `_continuation`)
MAX_PIECES = 6                  # more pieces than a note's line says: not read piece by piece
# (never after a judge's abbreviation: `approx. 3 min`, `e.g.`, `vs.`; a colon ends a piece too, not
# before a quote, `Lee: "I drew two"`, whose words are hers; a quote's own end ends one, `... my hand?" Kim`;
# ` / ` between a write-up's parts, `Call: ... / Found: ...`)
_SENTENCE_END = re.compile("".join(rf"(?<!\b{re.escape(a)}\.)" for a in ABBREVIATIONS)
                           + r"(?<=[.!?;])\s+(?=\S)|(?<=:)\s+(?=[^\s\"\u201c])|(?<=[.!?][\"\u201d])\s+(?=\S)"
                           + r"|;\s*|\s+/\s+", re.IGNORECASE)


def read_pieces(sentence: str, context: Context, vocab: Vocabulary) -> list[Read] | None:
    """The statements of a line read piece by piece (the main one first), or None when it
    has one piece or a piece cannot be read.  A sentence whose clauses cannot all be read is
    read whole where that reads and leaves no clause of a person unread (`Kim played an attack
    but she only pitched one card.`: the sign is the whole sentence's)."""
    sentences = split_sentences(sentence, context)
    pieces = [piece for _, clauses in sentences for piece in clauses]
    if not (1 < len(pieces) or pieces and _joint(pieces[0], context)) or len(pieces) > MAX_PIECES:
        return None
    state = _Pieces(sentence, dataclasses.replace(context), vocab)
    for whole, clauses in sentences:
        kept = state.copy()
        if all(state.take(piece) for piece in clauses):
            continue
        state = kept
        if len(clauses) < 2 or not _reads_whole(whole, state.current, vocab) or not state.take(whole):
            return None
    return state.statements()


@dataclasses.dataclass
class _Pieces:
    """What the pieces of a line read so far: the statements, the context pieces before the
    first, who called the judge, who the context pieces name."""
    line: str
    current: Context
    vocab: Vocabulary
    reads: list[Read] = dataclasses.field(default_factory=list)
    before: list[str] = dataclasses.field(default_factory=list)
    summoners: set[str] = dataclasses.field(default_factory=set)
    background: set[str] = dataclasses.field(default_factory=set)

    def copy(self) -> "_Pieces":
        return dataclasses.replace(self, reads=list(self.reads), before=list(self.before),
                                   summoners=set(self.summoners), background=set(self.background))

    def take(self, piece: str) -> bool:
        """Read one piece into the statements; False where it cannot be read."""
        vocab, current = self.vocab, self.current
        summoner = summons(piece, current, vocab)
        if summoner:            # who called the judge over: context, not a statement
            self.summoners.add(summoner)
            self._context(piece)
            return True
        joint = read_joint(piece, current, vocab)
        if joint:
            self.reads.extend(joint)
            self.current = dataclasses.replace(current, previous=None)     # (`they` may be either)
            return True
        result = read_sentence(piece, current, vocab)
        if isinstance(result, Refusal):
            if result.message != NOTHING_FOUND or not context_only(piece, current, vocab) and not (
                    _whole_sentence(piece, self.line) and context_only(piece, current, vocab, background=True)):
                return False
            self.background |= {w.person for w in sentence_words(piece, current, vocab) if w.person is not None}
            self._context(piece)
            return True
        if result.line.startswith(CONTINUATION):
            if not self.reads:
                return False
            self.reads[-1] = _joined(self.reads[-1], result, piece)
            return True
        self.reads.append(result)
        self.current = dataclasses.replace(current, previous=result.subject)
        return True

    def _context(self, piece: str) -> None:
        if self.reads:
            self.reads[-1] = _with_context(self.reads[-1], after=piece)
        else:
            self.before.append(piece)

    def statements(self) -> list[Read] | None:
        reads = self.reads
        if any(read.subject in self.summoners for read in reads):
            return None         # (a player calling a judge about her own error may be reporting it)
        if any(read.subject in self.background for read in reads):
            return None         # (what the subject did that cannot be read is never left out: `Kim juggled the dice`)
        if reads and self.before:
            reads[0] = _with_context(reads[0], before=" ".join(self.before))
        return reads or None


def _reads_whole(sentence: str, context: Context, vocab: Vocabulary) -> bool:
    """A sentence read whole that leaves no clause of a person unread (`..., she only pitched`
    read; `... and Lee let it pass` unread is a statement of its own, never left out)."""
    result = read_sentence(sentence, context, vocab)
    return isinstance(result, Read) and not leaves_a_clause(result, context, vocab)


_JOINER = re.compile(rf"^(?:{'|'.join(sorted(JOINERS_AND_SO))})\s+")    # `and Lee ...`: Lee's clause


def leaves_a_clause(read: Read, context: Context, vocab: Vocabulary) -> bool:
    """Words the reading left unread start with a person (`..., Lee let it pass`, `... She called
    a judge at once`): a statement of its own, or more of the one read."""
    names = [name.lower() for name in context.names]
    pronouns = [f"{word} " for (word,) in vocab.reading.get("read_pronoun", [])]
    return any(_JOINER.sub("", text.lower()).startswith((*names, *pronouns)) for text in read.reading.not_read)


def _whole_sentence(piece: str, line: str) -> bool:
    """The piece stands on its own: a sentence of the line, or a clause cut from the next by
    a comma alone (`Zoe was waiting at table 9, Yuri sat down ...`), never one a joiner ties to
    the statement (`..., because Lee's aura stopped it`: it may say why it is no infraction)."""
    at = line.find(piece)
    before, after = line[:at].rstrip(), line[at + len(piece):].lstrip()
    return at >= 0 and (not before or before[-1] in ".;!?:,") and (not after or piece[-1] in ".;!?" or after[0] in ".;!?,")


def read_joint(sentence: str, context: Context, vocab: Vocabulary) -> list[Read] | None:
    """`Kim and Lee were both 5 minutes late`, `Viktor and Moe start shoving each other`: two
    declared persons as one subject, read as the same statement of each (`each other` the other
    one); None unless both read, and read alike (a form of the two, `{P} and {Q} decided the
    winner randomly`, was tried first, on the whole line)."""
    joint = _joint(sentence, context)
    if not joint:
        return None
    first, second = (_declared(joint.group(i), context) for i in (1, 2))
    if first == second:
        return None
    rest = _BOTH_AFTER_VERB.sub(r"\1", joint.group(3))
    said = _EACH_OTHER.search(rest)        # the judge's words, where the other's name stands in
    reads = []
    for person, other in ((first, second), (second, first)):
        result = read_sentence(person + _EACH_OTHER.sub(other, rest), context, vocab)
        if not isinstance(result, Read) or result.subject != person:
            return None
        not_read = [re.sub(rf"\b{re.escape(other)}\b", said.group(), text) if said else text
                    for text in result.reading.not_read]
        reading = dataclasses.replace(result.reading, written=sentence.strip(), not_read=not_read)
        reads.append(Read(result.line, reading, person))
    if _swapped(reads[0].line, first, second) != reads[1].line:
        return None         # not the same statement of each: nothing is read for them
    if any(_says_allowed(text, vocab) for read in reads for text in read.reading.not_read):
        return None         # (`both drew an extra card with the event's effect`: a card let them)
    return reads


def _says_allowed(text: str, vocab: Vocabulary) -> bool:
    """Words left unread say the action was allowed (`read_allowed`: `with the event's effect`)."""
    return phrase_in([token.forms for token in tokenize(text)], [a for (a,) in vocab.reading.get("read_allowed", [])])


def _joint(sentence: str, context: Context) -> re.Match | None:
    """Two declared persons as the sentence's subject: the match of the two and the rest (`Kim
    and Lee`, `Kim & Lee`, a pad's `kim + lee`)."""
    names = [re.escape(name) for name in sorted(context.names, key=len, reverse=True)]
    if len(names) < 2:
        return None
    alternatives = "|".join(names)
    return re.match(rf"\s*(?:both\s+)?({alternatives})\s+(?:and|&|\+)\s+({alternatives})\b(?:\s+both\b)?(.*)\Z", sentence,
                    re.IGNORECASE | re.DOTALL)


# `were both`, `have both`: the word that makes one statement of two subjects
_BOTH_AFTER_VERB = re.compile(r"^(\s+\w+)\s+both\b", re.IGNORECASE)
_EACH_OTHER = re.compile(r"\b(?:each other|one another)\b", re.IGNORECASE)


def _declared(written: str, context: Context) -> str:
    """A name as the header declares it (the judge's case may differ)."""
    return next(name for name in context.names if name.lower() == written.lower())


def _swapped(line: str, first: str, second: str) -> str:
    """The line with the two names swapped."""
    names = re.compile(rf"\b({re.escape(first)}|{re.escape(second)})\b")
    return names.sub(lambda match: second if match.group(1) == first else first, line)


def context_only(piece: str, context: Context, vocab: Vocabulary, background: bool = False) -> bool:
    """A piece that says nothing the language reads (`Round 6, table 31.`): no person, no
    sign or hint, no observation's verb, no modifier, cue word or negation.  It is kept as
    not read beside the statements of its line, never read as one.  With `background`, a
    piece of a line whose other pieces say what happened may name a person and negate
    (`Lee had lethal on board but had not attacked yet.`): with nothing of the language in
    it, it is what went before, kept as not read."""
    compiled = patterns(vocab)
    piece = clock.without_start(piece, context.names, vocab)      # (`Round began 10:00`: when, not what)
    words = sentence_words(piece, context, vocab)
    if not words or not background and any(w.person is not None or w.negation for w in words):
        return False
    cues = {cue.lower() for _, cue in vocab.reading.get("read_cue", [])}
    verbs = {f for pairs in compiled.verbs.values() for verb, _ in pairs for f in verb}
    # (a word before a number is a label, `turn five`, `pick 7`: no verb)
    labels = {i for i in range(len(words) - 1) if words[i + 1].number is not None}
    return not (score(compiled, words, set()) or modifiers_in(piece, context, vocab)
                or any(w.forms & cues or (w.forms & verbs and i not in labels) for i, w in enumerate(words)))


def summons(piece: str, context: Context, vocab: Vocabulary) -> str | None:
    """Who calls the judge over in a piece that says nothing more (`Lee called me over`, `Theo
    calls me to the table`: `read_summons`): where the judge's note starts, not a statement of
    what happened; None when the piece is no summons."""
    words = sentence_words(piece, context, vocab)
    if len(words) < 2:
        return None
    if words[0].person is None:
        return _summoned_by(piece, words, context, vocab)
    if len(words) == 2 and words[1].text.lower() in ("called", "calls"):
        return words[0].person      # (`Lee called: Kim drew up to 5 ...`: a piece of her call alone)
    forms = [word.forms for word in words]
    # (after the name, or after a few words set off by commas: `Max, watching, flagged table 4 to me`)
    starts = [1] + [k for k in range(2, min(len(words), 5)) if words[1].pause and words[k].pause][:1]
    for (text,), at in product(sorted((args for args in vocab.reading.get("read_summons", [])),
                                      key=lambda a: -len(a[0])), starts):
        length = len(phrase_forms(text))
        if len(words) <= at + length - 1 or not phrase_at(forms, text, at):
            continue
        # (where and when after it: `Lee called me over on turn 6 of their X-Wing game:`, `after
        # Kim's second attack`: a person named as an owner only, no negation)
        rest = piece[words[at + length - 1].end:].strip(" ,.;:()[]")
        rest_words = words[at + length:]
        owners_only = all(w.person is None or j + 1 < len(rest_words) and rest_words[j + 1].text == "'s"
                          for j, w in enumerate(rest_words)) and not any(w.negation for w in rest_words)
        if not rest or context_only(rest, context, vocab, background=owners_only):
            return words[0].person
    return None


def _summoned_by(piece: str, words: list, context: Context, vocab: Vocabulary) -> str | None:
    """`Called over by Lee`, `Judge call from Lee at table 4`: a summons in the passive
    (`read_summoned`), its person after `by` or `from` (`by a spectator (Carol)`), and after
    that only where and when (context_only)."""
    forms = [word.forms for word in words]
    for (text,) in vocab.reading.get("read_summoned", []):
        length = len(phrase_forms(text))
        if len(words) <= length + 1 or not phrase_at(forms, text):
            continue
        rest = words[length:]
        if rest[0].text.lower() not in ("by", "from"):
            continue
        at = next((i for i, word in enumerate(rest[1:4], start=1) if word.person is not None), None)
        if at is None or any(w.person is None and w.text.lower() not in _SUMMONER_WORDS for w in rest[1:at]):
            return None
        after = piece[rest[at].end:].strip(" ()[],.")
        return rest[at].person if not after or context_only(after, context, vocab) else None
    return None


# the words that may stand between `by` and the person who called (`by a spectator (Carol)`)
_SUMMONER_WORDS = {"a", "the", "her", "his", "their", "spectator", "player", "opponent", "opp", "nap", "ap"}


def _with_context(read: Read, before: str = "", after: str = "") -> Read:
    """A statement with a context piece of its line shown as not read."""
    written = " ".join(part for part in (before.strip(), read.reading.written, after.strip()) if part)
    not_read = [*([before.strip()] if before else []), *read.reading.not_read, *([after.strip()] if after else [])]
    return Read(read.line, Reading(written, read.reading.read_as, not_read), read.subject)


def _joined(read: Read, more: Read, piece: str) -> Read:
    """A statement with the modifiers of the piece after it."""
    line = read.line + ", " + more.line[len(CONTINUATION):]
    reading = Reading(f"{read.reading.written} {piece.strip()}", line,
                      [*read.reading.not_read, *more.reading.not_read])
    return Read(line, reading, read.subject)


def split(sentence: str, context: Context) -> list[str]:
    """The pieces of a line: its sentences, each cut before a clause that starts with a person."""
    return [piece for _, clauses in split_sentences(sentence, context) for piece in clauses]


def split_sentences(sentence: str, context: Context) -> list[tuple[str, list[str]]]:
    """Each sentence of a line with its clauses (cut before a clause that starts with a person)."""
    persons = [re.escape(name) for name in sorted(context.names, key=len, reverse=True)]
    persons += ["she", "he", "they", r"(?:the|her|his|their)\s+opponent"]
    clause = re.compile(rf",?\s+(?:{'|'.join(sorted(CLAUSE_JOINERS))})\s+(?=(?:{'|'.join(persons)})\b)"
                        rf"|,\s+(?=(?:{'|'.join(persons)})\b)", re.IGNORECASE)
    out = []
    for part in _SENTENCE_END.split(sentence):
        joint = _joint(part, context)
        head = part[:joint.start(3)] if joint else ""   # `Kim and Lee`: one subject, never cut in two
        first, *others = clause.split(part[len(head):])
        cut = [p.strip() for p in [head + first, *others] if p and p.strip(" ,.;")]
        if cut:
            out.append((part.strip(), cut))
    return out


def unread_statement(read: Read, context: Context, vocab: Vocabulary) -> str | None:
    """A run of words the reading left unread that starts with another declared person and
    holds a sign or hint of the policy's kinds (`... Ben didn't notice at all`): a statement
    of its own that could not be read, never left out silently; None when there is none."""
    for text in read.reading.not_read:
        words = sentence_words(text, context, vocab)
        start = 1 if words and words[0].text.lower() in JOINERS_AND_SO else 0
        if len(words) <= start or words[start].person in (None, read.subject):
            continue
        if all(w.forms & PERCEIVING or w.text in PERCEIVED_FILLERS for w in words[start + 1:]):
            continue        # `Lee noticed that`: who saw what the statement says (reader.py `_perceived`)
        if score(patterns(vocab), words, {i for i, w in enumerate(words) if w.person is not None}):
            return text
    return None
