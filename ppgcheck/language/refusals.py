"""The refusals of a reading once its observation is found: a negation the language cannot
say, two modifiers of one exclusive group, an unread word that speaks of another observation or
a modifier (`read_cue`), or words that say the action was allowed (`read_allowed`).  Never a
silent misreading: each refusal names the lines the sentence could have meant."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ppgcheck.language.canonical_lines import inferred_line, line_of, observation_of
from ppgcheck.language.matching import Found, Patterns, Word, patterns
from ppgcheck.language.model import Modifier
from ppgcheck.language.printer import print_observation
from ppgcheck.language.signs import SIGN, reporting_verbs, score
from ppgcheck.language.vocabulary import PERSON_SLOTS, Vocabulary
from ppgcheck.language.wordforms import phrase_at

NEGATION_REACH = 2      # a negation this many words before what it negates (`never mixed`, `did not draw`)


@dataclass
class Refusal:
    message: str
    column: int = 1
    readings: list[str] = field(default_factory=list)     # the lines it could have meant
    extra: list[str] = field(default_factory=list)        # modifier kinds its cue words speak of
    dropped: list[str] = field(default_factory=list)      # modifier kinds it negates: never suggested
    allowed: bool = False       # refused for words that say the action was allowed (`with her scry`)


def negation_refusal(sentence: str, words: list[Word], taken: set[int], modifiers: list[Found], vocab: Vocabulary,
                     found: Found) -> Refusal | None:
    """Each unread negation before words read: the negated modifier where the language
    has one (`not on purpose`), else a refusal.  It reaches what follows it in its clause
    (`She did not do it on purpose`), or the next words past a clause's end.  A negation
    with nothing read within its reach negates none of the reading and is kept as not read."""
    negates = {m: n for m, n in vocab.reading.get("read_negates", [])}

    def reaches(i: int, j: int) -> bool:
        return negation_reaches(sentence, words, i, j)

    def nearest(i: int, modifier: Found) -> bool:
        # (the negation nearest a modifier is the one that negates it, and one the modifier says
        # itself is its own: `she wasnt paying attention no sign she did it on purpose` is not on
        # purpose, never `wasnt` undoing the `no` of `no sign she did it on purpose`)
        return not any(words[j].negation for j in range(i + 1, max(modifier.read) + 1))
    for i, word in enumerate(words):
        if not word.negation or i in taken:
            continue
        after = [m for m in modifiers if reaches(i, m.read[0]) and nearest(i, m)]
        if after and negates.get(after[0].pattern.kind) == NOTHING:
            modifiers.remove(after[0])      # `late without notifying a judge`: no modifier, the words read
            taken.add(i)
            continue
        if after and after[0].pattern.kind in negates:
            modifier = after[0]
            other = negates[modifier.pattern.kind]
            modifier.pattern = next(p for p in patterns(vocab).patterns
                                    if p.category == "modifier" and p.kind == other)
            taken.add(i)
            continue
        governed = {j for m in modifiers if reaches(i, m.read[0]) and not nearest(i, m) for j in m.read}
        if not after and not any(reaches(i, j) for j in taken - governed):
            continue            # negates nothing read (`... and Lee didnt`): kept as not read
        said = f"`{after[0].pattern.text}`" if after else "what it says"
        return Refusal(f"`{word.text}` negates {said}, and the report language has no form that says so: "
                       "write what happened without it", word.start + 1,
                       readings=[line_of(found, [m for m in modifiers if m not in after[:1]], vocab)],
                       dropped=[m.pattern.kind for m in after[:1]])
    return None


# `read_negates(M, nothing)`: `not` before M says what a statement says without any modifier
NOTHING = "nothing"


def negated(sentence: str, words: list[Word], taken: set[int], at: int) -> bool:
    """An unread negation reaches the word at `at` (as negation_refusal reads one)."""
    return any(w.negation and i not in taken and negation_reaches(sentence, words, i, at) for i, w in enumerate(words))


def negation_reaches(sentence: str, words: list[Word], negation: int, at: int) -> bool:
    """A negation reaches a word after it in its clause, or within NEGATION_REACH words
    past a joining word (`not knowingly or on purpose`); never past punctuation (`he couldn't
    pay; unintentional`, `a card she did not want, honest mistake`: not negated)."""
    if at <= negation:
        return False
    between = sentence[words[negation].end:words[at].start]
    return not re.search(r"[.,;:!?]", between) and (
        at - negation <= NEGATION_REACH or same_clause(sentence, words[negation].end, words[at].start))


def same_clause(sentence: str, start: int, end: int) -> bool:
    """No clause ends between two places of a sentence (a stop, a comma, `and`, `but`)."""
    return not re.search(r"[.,;:!?]|\b(?:and|but|then|so|while|because)\b", sentence[start:end], re.I)


def exclusive_refusal(modifiers: list[Found], vocab: Vocabulary, found: Found) -> Refusal | None:
    groups: dict[str, Found] = {}
    for modifier in modifiers:
        group = vocab.exclusive.get(modifier.pattern.kind)
        if group is None:
            continue
        if group in groups:
            first = groups[group]
            others = [m for m in modifiers if m is not first and m is not modifier]
            return Refusal(f"the sentence says both `{first.pattern.text}` and `{modifier.pattern.text}`: "
                           "write the one you mean", readings=[line_of(found, others + [first], vocab),
                                                               line_of(found, others + [modifier], vocab)])
        groups[group] = modifier
    return None


JOINERS = {"and", "then"}     # `... and drew one`: a second statement, not context


def cue_refusal(sentence: str, words: list[Word], taken: set[int], found: Found, modifiers: list[Found],
                vocab: Vocabulary, line: str) -> Refusal | None:
    """A refusal when an unread word speaks of another observation or of a modifier not read:
    a cue word, the verb of another form joined on (`... and kept notes`), or a joined
    clause whose signs say another kind (`... and then pocketed a booster`)."""
    said = {found.pattern.kind} | {m.pattern.kind for m in modifiers}
    said |= {m for kind, m in vocab.reading.get("read_says", []) if kind == found.pattern.kind}
    negates = dict(vocab.reading.get("read_negates", []))
    cues = vocab.reading.get("read_cue", [])
    doubts = {args[0].lower() for args in vocab.reading.get("read_doubt", [])}
    counted = found.pattern.category == "observation" and any(
        slot not in PERSON_SLOTS for slot in vocab.canonical("observation", found.pattern.kind).slots)
    # (a count said as a difference, `drew 2 instead of 1, both in her hand`, is no count a doubt word blurs)
    counted = counted and not any(words[t].joined for t in taken if t < len(words))
    compiled = patterns(vocab)
    forms = [w.forms for w in words]
    # (a state read beside words of what else happened, `Marek called a judge ... just to burn time`,
    # is no line to offer first: the suggestions rank what else the words say)
    offered = [line] if found.pattern.category != "state" else []
    allowed = allowed_at(words, taken, found, vocab)
    if allowed is not None:
        return Refusal(f"`{words[allowed].text}` may say it was allowed (a card's effect, a rule): write what was "
                       "wrong in the report language", words[allowed].start + 1, readings=offered, allowed=True)
    for i, word in enumerate(words):
        if i in taken or word.person is not None:
            continue
        joined = i > 0 and word.text not in JOINERS and (words[i - 1].text in JOINERS or (
            i > 1 and words[i - 2].text in JOINERS and words[i - 1].person is not None))
        if counted and word.forms & doubts:
            return Refusal(f"`{word.text}` makes the count unsure: write the count as it happened", word.start + 1,
                           readings=offered)
        other = (compiled.verb_of(words, i, said) or signed_clause(sentence, words, i, said, compiled)) \
            if joined else None
        if other:
            return Refusal(f"`{word.text}` says what else happened (`{other}`): write one statement a line",
                           word.start + 1, readings=offered)
        for kind, cue in cues:
            if kind in said or cue in doubts or not _cue_at(words, forms, i, cue, taken):
                continue
            if negates.get(kind) in said and negated(sentence, words, taken, i):
                continue        # `a card she did not want, honest mistake`: what was read says it
            if kind in vocab.observations and _denied(words, i):
                continue        # `no peeking`, `without peeking`: no sign of looking
            if kind in vocab.observations and _excuse(words, i, found.persons.get("P"), vocab):
                continue        # `..., says she came in late and missed it`: her account, not the judge's finding
                # (never a modifier's cue: `he said he wanted a smooth draw` may admit intent)
            if kind in vocab.observations and vocab.policy_kinds is not None and kind not in vocab.policy_kinds:
                continue        # another guide's kind (`drew` of FaB's intellect draw, in a Yu-Gi-Oh note)
            if kind in vocab.observations or kind in vocab.states:
                message = f"`{word.text}` speaks of `{kind}` too: write one statement a line"
            elif kind in vocab.modifiers:
                # (also a modifier of another kind only: `legs equipment ... not on her list` beside a
                # reading of a deck that does not match its list says the list is wrong)
                message = f"`{word.text}` may say `{vocab.modifiers[kind][0].text}`, which this reading does not say"
            else:
                continue
            cued = with_cue(found, modifiers, kind, vocab) if offered else []
            return Refusal(message, word.start + 1, readings=[*cued, *offered],
                           extra=[kind] if kind in vocab.modifiers else [])
    return None


def _excuse(words: list[Word], i: int, subject: str | None, vocab: Vocabulary) -> bool:
    """Word i stands in the subject's own account of herself (`Kim was tracking life on an app,
    says she came in late and missed it`): after a reporting verb of hers (no one else named
    before it in its clause) and `she`/`he` or her name, in the same clause."""
    verbs = reporting_verbs(vocab)
    pronouns = {args[0].lower() for args in vocab.reading.get("read_pronoun", [])}
    for v in reversed(range(i)):
        if words[v + 1].pause and v + 1 <= i - 1 or words[v].person not in (None, subject):
            return False
        if not words[v].forms & verbs:
            continue
        k = v + 2 if v + 2 < i and words[v + 1].text.lower() == "that" else v + 1
        about_self = k < i and (words[k].person == subject or words[k].person is None
                                and words[k].text.lower() in pronouns)
        start = max((j for j in range(v + 1) if words[j].pause), default=0)
        teller = {w.person for w in words[start:v]} - {None}
        return about_self and teller <= {subject}
    return False


def _cue_at(words: list[Word], forms: list[frozenset[str]], i: int, cue: str, taken: set[int]) -> bool:
    """A cue starts at word i (`forms`: each word's): its one word, or each word of a cue of
    several (`all lands`), unread."""
    if " " not in cue:
        return cue in words[i].forms
    size = len(cue.split())
    return phrase_at(forms, cue, i) and not taken & set(range(i, i + size))


# between a negation and the word it denies (`did not even peek`, `never any peeking`)
_DENIAL_FILLERS = frozenset({"any", "even", "a", "the", "do", "did", "does", "to", "be", "been", "was"})


def _denied(words: list[Word], i: int) -> bool:
    """Word i right after a negation (`no peeking`, `without peeking`, `did not even peek`)."""
    j = i - 1
    while j >= 0 and words[j].text.lower() in _DENIAL_FILLERS and not words[j + 1].pause:
        j -= 1
    return j >= 0 and i - j <= 3 and not words[j + 1].pause and (words[j].negation or words[j].text.lower() == "without")


def allowed_at(words: list[Word], taken: set[int], found: Found, vocab: Vocabulary) -> int | None:
    """Where unread words say the action was allowed (`read_allowed`: `with her scry`), in a
    reading a reader phrase or the signs made (a form says what was wrong itself); None if nowhere."""
    category = found.pattern.category
    table = vocab.observations if category == "observation" else vocab.states if category == "state" else {}
    if not found.inferred and any(form.text == found.pattern.text for form in table.get(found.pattern.kind, [])):
        return None
    forms = [frozenset() if j in taken else w.forms for j, w in enumerate(words)]
    for (text,) in vocab.reading.get("read_allowed", []):
        for i in range(len(words)):
            if phrase_at(forms, text, i) \
                    and not any(w.negation for w in words[max(0, i - 3):i]) \
                    and not (i and words[i - 1].text == "than"):    # `no effect that allows it`, `more than allowed`
                return i
    return None


def signed_clause(sentence: str, words: list[Word], i: int, said: set[str], compiled: Patterns) -> str | None:
    """The kind (none of `said`) the signs of the clause starting at word i say, with a
    sign's points: the clause ends at punctuation or the next joining word."""
    end = i + 1
    while end < len(words) and not clause_break(sentence, words[end - 1], words[end]):
        end += 1
    scores = score(compiled, words[i:end], set())
    return next((kind for kind in sorted(scores) if kind not in said and scores[kind].points >= SIGN), None)


def clause_break(sentence: str, before: Word, word: Word) -> bool:
    return bool(re.search(r"[.,;:!?]", sentence[before.end:word.start])) or word.text in JOINERS | {"but", "so"}


def with_cue(found: Found, modifiers: list[Found], kind: str, vocab: Vocabulary) -> list[str]:
    """The line the cue word may mean: the reading with the cued modifier added (in place of
    one of its exclusive group), or the cued observation said by the same subject."""
    subject = found.persons.get("P", "")
    if kind in vocab.observations:
        line = inferred_line(vocab, kind, subject, [])
        return [line] if line else []
    if kind not in vocab.modifiers or kind in vocab.person_modifiers or kind in vocab.counted_modifiers \
            or found.pattern.category != "observation":
        return []
    group = vocab.exclusive.get(kind)
    kept = [m for m in modifiers if group is None or vocab.exclusive.get(m.pattern.kind) != group]
    observation = observation_of(found, kept, vocab)
    observation.modifiers.append(Modifier(kind))
    return [print_observation(observation, vocab)]


# a modifier asked, then answered (`on purpose? no`, `Q: on purpose? A: no.`): the answer
_QUESTION = re.compile(r"[\"'\u201d)]*\s*\?")
_ANSWER = re.compile(r"[?\s]*(?:a\s*[:.\-]\s*)?(?P<word>no|nope|not really|yes|yep|yeah)\b", re.IGNORECASE)


def answered_modifiers(sentence: str, words: list[Word], modifiers: list[Found], vocab: Vocabulary,
                       taken: set[int] | None = None) -> Refusal | None:
    """A modifier the note asks (`On purpose? No.`, a write-up's `Q: on purpose? A: no`) is
    what the answer says: `no` reads it negated where the language has that (read_negates),
    `yes` as it is; with no answer, or no negation to read, the sentence is refused.  Never
    read as said: `on purpose?` is a question, not the judge's finding.  The answer's words join
    `taken` (read with the modifier)."""
    negates = dict(vocab.reading.get("read_negates", []))
    for modifier in modifiers:
        end = words[max(modifier.read)].end
        asked = _QUESTION.match(sentence, end)
        if asked is None:
            continue
        answer = _ANSWER.match(sentence, asked.end())
        said = sentence[words[min(modifier.read)].start:asked.end()]
        if answer is None:
            return Refusal(f"`{said}` is asked, and the note does not say the answer: write what the judge "
                           "found", words[min(modifier.read)].start + 1)
        if taken is not None:
            taken |= {i for i, w in enumerate(words) if asked.end() <= w.start < answer.end()}
        if answer.group("word").lower() in ("yes", "yep", "yeah"):
            continue
        other = negates.get(modifier.pattern.kind)
        if other is None or other == NOTHING:
            return Refusal(f"`{said}` is answered `{answer.group('word')}`, and the report language has no "
                           "form that says so: write what happened without it", words[min(modifier.read)].start + 1,
                           dropped=[modifier.pattern.kind])
        modifier.pattern = next(p for p in patterns(vocab).patterns if p.category == "modifier" and p.kind == other)
    return None


def asked(sentence: str, words: list[Word], modifier: Found) -> bool:
    """The modifier is asked (`On purpose?`), not said."""
    return _QUESTION.match(sentence, words[max(modifier.read)].end) is not None

