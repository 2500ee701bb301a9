"""The tolerant reader: a judge's free sentence -> the canonical line it says, and how it
was read (the canonical sentence and the words not read), or a refusal with suggestions.

A sentence is read when it has a declared subject (a name as the header declares it, a
pronoun starting the sentence for the previous subject, `the opponent` for the other of
two players) and exactly one observation or state, found by its form or a reader phrase
(matching.py); every modifier found anywhere in it is read too, and the rest is kept as
not read.  Never a silent misreading: the sentence is refused (with whole-line
suggestions, suggestions.py) when it holds no observation, two observations, a negation
the language cannot say, or an unread word that speaks of another observation or a
modifier (`read_cue`).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from ppgcheck.language.build import MAX_DIGITS
from ppgcheck.language.canonical_lines import inferred_line, line_of, observation_of
from ppgcheck.language.count_refusals import count_refusal
from ppgcheck.language.matching import Found, Patterns, Word, is_digits, patterns
from ppgcheck.language.mentions import Context, mentions
from ppgcheck.language.model import Modifier, Observation, Reading
from ppgcheck.language.grammar import language
from ppgcheck.language.printer import fill, print_observation, quote_name
from ppgcheck.language.refusals import (NOTHING, Refusal, answered_modifiers, asked, cue_refusal, exclusive_refusal, negated,
                                        negation_refusal)
from ppgcheck.language.signs import (PERCEIVING, calls_judge, claim_words, is_object, is_seer, other_pronoun,
                                     reporting_verbs, reports, score, seen, signed, spoken_kinds, talk_of_anyone,
                                     when_clause)
from ppgcheck.language.vocabulary import PERSON_SLOTS, Vocabulary

MAX_WORDS = 200         # a judge's sentence is shorter: a longer one is refused, so reading it stays cheap
NOTHING_FOUND = "no statement of the report language found in the sentence"


@dataclass
class Read:
    line: str                 # the canonical line
    reading: Reading
    subject: str


def read_sentence(sentence: str, context: Context, vocab: Vocabulary) -> Read | Refusal:
    """Read one free sentence in the language of a vocabulary."""
    compiled = patterns(vocab)
    found_names = mentions(sentence, context, vocab)
    if isinstance(found_names, Refusal):
        return found_names
    if len(sentence.split()) > MAX_WORDS:
        return Refusal(f"the sentence has more than {MAX_WORDS} words: write one statement a line")
    words = compiled.words(sentence, found_names)
    too_long = next((w for w in words if is_digits(w.text) and len(w.text) > MAX_DIGITS), None)
    if too_long:        # (matching.py reads no number past MAX_DIGITS: never read as none at all)
        return Refusal(f"`{too_long.text[:12]}…` ({len(too_long.text)} digits) is out of range: no number "
                       "of the report language is that long", too_long.start + 1)
    found = _observation(compiled, words)
    if isinstance(found, Found) and found.pattern.category == "state":
        # `She called a judge at once`: a modifier of the statement before says more than the state
        more = _continuation(sentence, words, compiled, context, covering=found.read)
        if more:
            return more
    if isinstance(found, Refusal) and found.message == NOTHING_FOUND:
        found = _continuation(sentence, words, compiled, context) or _inferred(compiled, words) \
            or _signed(compiled, words) or found
    if isinstance(found, (Refusal, Read)):
        return found
    if not found.persons:
        return Refusal("no declared name in the sentence: say who (a name the header declares)")
    refused = _other_subject(words, found, vocab) or _pronoun_subject(words, found, compiled, context) \
        or _seer_subject(words, found) or _own_error(words, found, vocab) or _general_talk(words, found, vocab) \
        or _caller_subject(words, found, vocab)
    if refused:
        return refused
    taken = set(found.read)
    modifiers = _modifiers(compiled, words, taken) if found.pattern.category == "observation" else []
    refused = negation_refusal(sentence, words, taken, modifiers, vocab, found) \
        or answered_modifiers(sentence, words, modifiers, vocab, taken) \
        or _asked(words, taken | {i for m in modifiers for i in m.read}) \
        or _claimed(words, found, modifiers, vocab) or _scare_quoted(sentence, words, found, modifiers, vocab)
    if refused:
        return refused
    # (a negation read may make one modifier another said too: `nobody did it on purpose, it was
    # an accident` is one `not on purpose`; its words stay read)
    modifiers = [m for i, m in enumerate(modifiers) if all(k.pattern.kind != m.pattern.kind for k in modifiers[:i])]
    refused = exclusive_refusal(modifiers, vocab, found) or count_refusal(sentence, words, taken, found, vocab)
    if refused:
        return refused
    line = line_of(found, modifiers, vocab)
    taken |= {i for i, w in enumerate(words) if any(w is j for t in list(taken) for j in words[t].joined)}
    refused = cue_refusal(sentence, words, taken, found, modifiers, vocab, line)
    if refused:
        return refused
    reading = Reading(sentence.strip(), line, _not_read(sentence, words, taken, compiled))
    return Read(line, reading, found.persons.get("P", ""))


def _asked(words: list[Word], read: set[int]) -> Refusal | None:
    """What was read stands in a question (`Kim asked if she had underpaid; she had not`,
    `asked the judge whether ...`): a clause of `if` or `whether` within four words after a
    form of `ask`, to its next pause; the question says what someone wondered, not what
    happened.  Refused, with the reading offered."""
    for i, word in enumerate(words):
        if word.text.lower() not in ("if", "whether"):
            continue
        ask = next((j for j in range(max(0, i - 4), i) if "ask" in words[j].forms), None)
        if ask is None:
            continue
        end = next((j for j in range(i + 1, len(words)) if words[j].pause), len(words))
        if any(i < j < end for j in read if words[j].person is None):
            return Refusal(f"`{words[ask].text} ... {word.text}` asks a question: write what happened, not what "
                           "was asked", word.start + 1)
    return None


def _claimed(words: list[Word], found: Found, modifiers: list[Found], vocab: Vocabulary) -> Refusal | None:
    """A modifier in what another person says (`Kim drew an extra card. Lee said it was on
    purpose.`, `Lee claims Kim did it on purpose`): Lee's claim, not what the judge found.
    Refused, with the line with it and the line without it (the subject's own account, `she said
    it was an accident`, is read)."""
    subject = found.persons.get("P")
    verbs = reporting_verbs(vocab)
    for modifier in modifiers:
        first = min(modifier.read)
        # (the claim's clause reaches the modifier: no pause between, `before Olek noticed, so ...`)
        claim = next((k for k in range(1, first) if words[k].forms & verbs and words[k - 1].person is not None
                      and words[k - 1].person != subject and k - 1 not in modifier.read
                      and not any(w.pause for w in words[k + 1:first + 1])), None)
        if claim is not None and words[claim].forms & PERCEIVING and _when_caught(modifier, vocab):
            continue            # `Lee notice two turn later`: when it was seen, which a verb of seeing says
        if claim is not None:
            others = [m for m in modifiers if m is not modifier]
            return Refusal(f"`{words[claim - 1].text} {words[claim].text} ...` is {words[claim - 1].text}'s account, not "
                           "what you found: write what happened", words[claim - 1].start + 1,
                           readings=[line_of(found, modifiers, vocab), line_of(found, others, vocab)])
    return None


_QUOTES = "\"'\u2018\u2019\u201c\u201d"


def _scare_quoted(sentence: str, words: list[Word], found: Found, modifiers: list[Found],
                  vocab: Vocabulary) -> Refusal | None:
    """A modifier alone in quotes that no one is said to have said (`Kim "accidentally" drew
    two`): quotes of that kind may mean the opposite.  Refused, with the line with it and
    the line without it."""
    verbs = reporting_verbs(vocab)
    for modifier in modifiers:
        first, last = min(modifier.read), max(modifier.read)
        before = sentence[:words[first].start].rstrip()
        after = sentence[words[last].end:].lstrip()
        if not (before and after and before[-1] in _QUOTES and after[0] in _QUOTES):
            continue
        if first and words[first - 1].forms & verbs:
            continue            # `she said "by accident"`: her account, read as the rest of the sentence
        others = [m for m in modifiers if m is not modifier]
        return Refusal(f"`{sentence[len(before) - 1:len(sentence) - len(after) + 1]}` stands in quotes, which may "
                       "mean the opposite: write what you found", len(before),
                       readings=[line_of(found, modifiers, vocab), line_of(found, others, vocab)])
    return None


def _when_caught(modifier: Found, vocab: Vocabulary) -> bool:
    """A modifier of when the error was caught (`caught later`, `caught before the next pick`)."""
    return any(form.text.startswith("caught ") for form in vocab.modifiers.get(modifier.pattern.kind, []))


def _continuation(sentence: str, words: list[Word], compiled: Patterns, context: Context,
                  covering: tuple[int, ...] = ()) -> Read | None:
    """A sentence of modifiers alone about the previous observation (`She did it on
    purpose`, `She called a judge at once`): the continuation line `It was ...`, when every
    modifier reads plainly (and reads every word of `covering`: a state's, `she called a judge`,
    that a modifier says more of)."""
    if context.previous is None:
        return None
    modifiers = _modifiers(compiled, words, set())
    persons = {i for i, w in enumerate(words) if w.person is not None}
    taken = persons | {i for m in modifiers for i in m.read}
    # (another person only as a modifier's: `Lee called a judge at once`)
    if any(words[i].person != context.previous and not any(i in m.read for m in modifiers) for i in persons):
        return None
    if not modifiers or any(w.negation for i, w in enumerate(words) if i not in taken) \
            or not set(covering) <= taken or answered_modifiers(sentence, words, modifiers, compiled.vocab):
        return None     # (`On purpose?` alone: asked, not said)
    said = {m.pattern.kind for m in modifiers}
    groups = [compiled.vocab.exclusive[kind] for kind in said if kind in compiled.vocab.exclusive]
    if len(groups) != len(set(groups)):
        return None         # (`I don't think he did it on purpose`: `without thinking` and `on purpose`)
    if any(cue.lower() in w.forms and kind not in said for i, w in enumerate(words) if i not in taken
           for kind, cue in compiled.vocab.reading.get("read_cue", [])):
        return None
    vocab = compiled.vocab
    parts = []
    for modifier in modifiers:
        form = vocab.canonical("modifier", modifier.pattern.kind)
        if any(slot not in modifier.persons for slot in form.slots):
            return None
        names = {slot: quote_name(person, language(vocab)) for slot, person in modifier.persons.items()}
        parts.append(fill(form, names, vocab))
    line = "It was " + ", ".join(parts)
    return Read(line, Reading(sentence.strip(), line, _not_read(sentence, words, taken, compiled)), context.previous)


# ---------------------------------------------------------------------------
# what it says
# ---------------------------------------------------------------------------

def _observation(compiled: Patterns, words: list[Word]) -> Found | Refusal:
    """The one observation (or match state) the sentence states."""
    best: dict[tuple[str, str], Found] = {}
    for pattern in compiled.candidates(words, modifiers=False):
        found = compiled.find(pattern, words, set())
        if found is None:
            continue
        key = (pattern.category, pattern.kind)
        held = best.get(key)
        if held is None or (len(found.read), -found.span) > (len(held.read), -held.span):
            best[key] = found
    if not best:
        return Refusal(NOTHING_FOUND)
    kept = [f for f in best.values()
            if not any(set(f.read) < set(g.read) for g in best.values() if g is not f)]
    if len(kept) > 1 and any(f.pattern.category == "state" for f in kept):
        # `... and at once called a judge`: a modifier that says more than the state, not a state
        said = [set(m.read) for m in _modifiers(compiled, words, set())]
        kept = [f for f in kept if f.pattern.category != "state"
                or not any({i for i in f.read if words[i].person is None} <= read for read in said)]
    if len(kept) > 1:
        kept.sort(key=lambda f: f.read[0])
        described = " or ".join(f"`{f.pattern.kind}`" for f in kept[:3])
        return Refusal(f"the sentence can be read two ways ({described}): write the one you mean",
                       words[kept[0].read[0]].start + 1, readings=[line_of(f, [], compiled.vocab) for f in kept])
    return kept[0]


def _inferred(compiled: Patterns, words: list[Word]) -> Found | Refusal | None:
    """No form found: the one observation kind the sentence's modifiers imply
    (`read_implies`), said by the first person it names; None when nothing points to
    one, a refusal when several kinds do.  (Cue words alone never make a reading: a word
    is too weak a sign of what happened.)"""
    vocab = compiled.vocab
    # (not who called the judge over: `Kim called me over. Lee's sleeves are reflective`)
    named = [i for i, w in enumerate(words) if w.person is not None and not calls_judge(words, i, vocab)]
    # a person named as doing something; else the owner (`All of Kim's lands are in sleeves ...`)
    subjects = [i for i in named if not (i + 1 < len(words) and words[i + 1].text == "'s" and i > 0)] or named
    if not subjects:
        return None
    taken = {i for i, w in enumerate(words) if w.person is not None}
    implies: dict[str, list[str]] = {}
    for modifier, kind in vocab.reading.get("read_implies", []):
        implies.setdefault(modifier, []).append(kind)
    evidence: dict[str, list[int]] = {}
    first_implying = len(words)
    implying: set[str] = set()
    for modifier in _modifiers(compiled, words, set(taken)):
        if _negated_before(words, modifier.read[0]):
            continue        # `None of Kim's sleeves are lighter ...`: it says nothing happened
        for kind in implies.get(modifier.pattern.kind, []):
            evidence.setdefault(kind, [])
            first_implying = min(first_implying, modifier.read[0])
            implying.add(modifier.pattern.kind)
    if len(evidence) != 1:
        if len(evidence) > 1:
            subject = words[subjects[0]].person
            lines = [inferred_line(vocab, kind, subject, words) for kind in sorted(evidence)]
            return Refusal(f"the sentence speaks of {' and '.join(f'`{k}`' for k in sorted(evidence))}: "
                           "write the one you mean", readings=[line for line in lines if line])
        return None
    kind, read = next(iter(evidence.items()))
    form = vocab.canonical("observation", kind)
    pattern = compiled.compile("observation", kind, form.text)
    # the subject is the person named last before what the modifier says (`Lee said nothing
    # when Kim defended from arsenal`: Kim), and an earlier one makes the sentence refused
    before = [i for i in subjects if i < first_implying and not is_object(words, i)
              and (i == 0 or len(subjects) == 1 or not (i + 1 < len(words) and words[i + 1].text == "'s"))]
    if not before:
        return None
    subject_at = before[-1]
    receiving = {args[0] for args in vocab.reading.get("read_receiver", [])}
    if subject_at == first_implying - 1 and any(m in receiving for m in implying):
        return None         # (`Kim did not ask Lee anything`: who did not ask is who was advised, if anyone)
    if any(w.forms & PERCEIVING for w in words[subject_at + 1:first_implying]):
        return None         # (`Kim's opp noticed her sleeves r double sleeved`: the seer's sleeves?)
    if is_seer(words, subject_at) or any(w.person is not None for w in words[subject_at + 1:first_implying]) \
            and reports(words[subject_at + 1:first_implying], vocab) \
            or other_pronoun(vocab, words, subject_at, first_implying) is not None:
        return None         # (`Odile pointed out that Bram's ...`, `Ben said Jo's ...`, `Lee says she ...`: not hers)
    subject = words[subject_at].person
    persons = {"P": subject}
    if "Q" in form.slots:
        other = next((w.person for w in words if w.person not in (None, subject)), None)
        if other is None:
            return None
        persons["Q"] = other
    numbers = {}
    free = [w.number for i, w in enumerate(words) if w.number is not None and i not in taken]
    for slot in form.slots:
        if slot not in PERSON_SLOTS:
            if not free:
                return None
            numbers[slot] = free.pop(0)
    read_at = sorted({subject_at, *read} | {i for i, w in enumerate(words) if w.number in numbers.values()
                                            and w.number is not None})
    return Found(pattern, tuple(read_at), persons, numbers, inferred=True)


def _negated_before(words: list[Word], at: int) -> bool:
    """A negation in the clause before words[at]: from its last pause, person who acts or
    `that` (`Lee never noticed that Kim defended from arsenal`: Kim's clause is not negated)."""
    def starts_clause(i: int) -> bool:
        owner = i + 1 < len(words) and words[i + 1].text == "'s"
        return words[i].pause or (words[i].person is not None and not owner) or words[i].text == "that"
    start = max((i for i in range(at + 1) if starts_clause(i)), default=0)
    return any(w.negation for w in words[start:at])


def _signed(compiled: Patterns, words: list[Word]) -> Found | Refusal | None:
    """No form found: the one observation the pack's signs say (signs.py), or a refusal
    naming the kinds they point to alike."""
    found = signed(compiled, words)
    if not isinstance(found, list):
        return found
    subject = next((w.person for w in words if w.person is not None), None)
    lines = [inferred_line(compiled.vocab, kind, subject, words) for kind in found] if subject else []
    return Refusal(f"the sentence speaks of {' and '.join(f'`{k}`' for k in found)}: write the one you mean",
                   readings=[line for line in lines if line])


def _subject_at(words: list[Word], found: Found) -> int | None:
    """Where the subject of what was read stands among the words read."""
    return next((i for i in found.read if words[i].person == found.persons.get("P")), None)


def _other_subject(words: list[Word], found: Found, vocab: Vocabulary) -> Refusal | None:
    """A sentence that starts with another person than the subject read (`Lee rushed so
    that Kim would miss her trigger`) says what that person did: refused, not guessed.  Where
    what that person did is not noticing (`Lee never noticed that Kim ...`: a `read_hint` of
    did_not_notice_error), the lines offered say so."""
    subject = found.persons.get("P")
    at = _subject_at(words, found)
    context = when_clause(words, found.read) if at is not None else range(0)
    for i, word in enumerate(words[:at] if at is not None else []):
        if word.person is None or word.person == subject or i in found.read or i in context:
            continue
        if i + 1 < len(words) and words[i + 1].text == "'s":
            continue            # `Lee's deck`: of Lee, not by Lee
        if _paired_with(words, i, subject, found.read):
            continue            # `Kim and Lee were playing game 2 when Kim drew ...`: what both did
        if found.pattern.kind in spoken_kinds(vocab) and _asked_by(words, i, subject):
            continue            # `Kim asked Lee how much life she had and Lee said 12, but ...`: his answer
        between = words[i + 1:at]
        if calls_judge(words, i, vocab) and not _claimed_by_caller(words, i, at, found, vocab):
            # (`Lee called me at the start of his turn. His opponent, Kim, had ...`; not `Lee called me
            # saying Kim missed her trigger`: what the caller claims)
            continue
        if _perceived(words, between, word.person, found):
            continue            # `Pru noticed that Olaf played ...`: who saw it is context
        readings = _not_noticed(words, between, word.person, found, vocab)
        if not readings and reports(between, vocab) and found.pattern.category == "observation":
            # `Kim says Lee hit her`: what Lee did is the line Kim reports
            readings = [line_of(found, _modifiers(patterns(vocab), words, set(found.read)), vocab)]
        return Refusal(f"the sentence starts with what {word.person} did, and the statement read is about "
                       f"{subject}: write one statement a line, each with its subject", word.start + 1,
                       readings=readings)
    return None


def _claimed_by_caller(words: list[Word], caller: int, at: int, found: Found, vocab: Vocabulary) -> bool:
    """A word of claiming or asking after the caller, in the sentence of what was read (`Lee called me
    saying Kim missed ...`, `Lee asked me to watch his match for slow play; Kim ...`): the caller's
    claim; never in a sentence before it (`Kim asked for a judge to watch her match. Her opponent ...`)."""
    claims = claim_words(vocab) - {"call"}
    first = min((k for k in found.read if words[k].person is None), default=at)
    sentence = max((k for k in range(caller + 1, first + 1) if words[k].stop), default=caller + 1)
    return any(words[k].forms & claims for k in range(sentence, at))


def _asked_by(words: list[Word], i: int, subject: str) -> bool:
    """The person at i asked the subject (`Kim asked Lee ...`): what the subject then said answers her."""
    return i + 2 < len(words) and "ask" in words[i + 1].forms and words[i + 2].person == subject


def _caller_subject(words: list[Word], found: Found, vocab: Vocabulary) -> Refusal | None:
    """The subject read only called the judge over, and what was read follows a pause and someone
    else's words (`Lee called me over, the player drew 2 extra cards`): who did it is not said;
    refused, never ruled for the caller.  A pronoun there is the pronoun rules' to place."""
    at = _subject_at(words, found)
    if at is None or not calls_judge(words, at, vocab):
        return None
    first = min((k for k in found.read if k > at and words[k].person is None), default=None)
    between = words[at + 1:first] if first is not None else []
    if not any(w.pause for w in between) or any(w.text.lower() in _SUBJECT_WORDS for w in between):
        return None
    return Refusal(f"{words[at].text} called the judge; the sentence does not say who did what was read: "
                   "write the name", words[first].start + 1)


# what may stand for the caller after her call (`Lee called me over because he drew ...`)
_SUBJECT_WORDS = frozenset({"she", "he", "they", "i"})


def _general_talk(words: list[Word], found: Found, vocab: Vocabulary) -> Refusal | None:
    """The subject says what people in general do (`Lee said long games make players forget
    triggers`): no act of hers, unless saying it is the act (a lie, advice)."""
    subject = found.persons.get("P")
    at = _subject_at(words, found)
    first = min((i for i in found.read if words[i].person is None), default=None)
    if at is None or first is None or first < at or found.pattern.kind in spoken_kinds(vocab) \
            or not talk_of_anyone(words, vocab, at, first):
        return None
    return Refusal(f"the sentence tells what {subject} said of people in general, not what anyone declared "
                   "did: write what happened, with its subject", words[at].start + 1)


def _paired_with(words: list[Word], i: int, subject: str, read: tuple[int, ...]) -> bool:
    """Word i names a person beside the subject, `and` between (`Kim and Lee`, `Lee and Kim`),
    a pair the statement read names its subject after (never the pair as the subject: `Kim and
    Lee both drew ...` is refused here, read_joint reads it for each)."""
    return any(0 <= j < len(words) and 0 <= k < len(words) and words[j].text.lower() in ("and", "&")
               and words[k].person == subject and k not in read for j, k in ((i - 1, i - 2), (i + 1, i + 2)))


# the words beside a verb of seeing (signs.PERCEIVING) in `Pru noticed that Olaf ...`
PERCEIVED_FILLERS = frozenset({"that", "how", "then", "just", "clearly", "also", "had", "has", "it",
                               # (what of the subject's things was seen: `noticed that some of Sam's sleeves`)
                               "some", "of", "one", "all", "several", "most", "few", "many", "the", "a"})
# after the statement read, words that join on what the one who saw did next (`and kept quiet`)
_NEXT_CLAUSE = frozenset({"and", "but", "so", "then", "while", "yet"})


def _perceived(words: list[Word], between: list[Word], seer: str, found: Found) -> bool:
    """The words between the first person and the subject say only that the first saw what
    the subject did (`Pru noticed that Olaf played his event in the wrong phase`): the one who
    saw is context, the statement the subject's, where nothing after it says more of the one
    who saw (`..., and kept quiet`, `... but said nothing`: what the seer did is refused)."""
    if not between or not any(w.forms & PERCEIVING for w in between) \
            or any(not w.forms & PERCEIVING and w.text not in PERCEIVED_FILLERS for w in between):
        return False
    tail = words[max(found.read) + 1:]
    return not any(w.person == seer or w.negation or w.text in _NEXT_CLAUSE for w in tail)


def _seer_subject(words: list[Word], found: Found) -> Refusal | None:
    """The subject read only saw what the form's words say (`Kim's opp noticed her sleeves are
    double sleeved`: the sleeves are not the seer's): refused, never read as the seer's."""
    subject = found.persons.get("P")
    at = _subject_at(words, found)
    after = [i for i in found.read if at is not None and i > at and words[i].person is None]
    if not after:
        return None
    between = words[at + 1:after[0]]
    seeing = next((w for k, w in enumerate(between) if w.forms & PERCEIVING and not seen(between, k)), None)
    if seeing is None or any(w.text in _NEXT_CLAUSE for w in between):
        return None         # (`Lee saw it and let it pass`: what the seer did next is the seer's)
    return Refusal(f"`{words[at].text} ... {seeing.text}` says what {subject} saw, and what was seen is not "
                   f"said to be {subject}'s: write who did it", seeing.start + 1)


def _pronoun_subject(words: list[Word], found: Found, compiled: Patterns, context: Context) -> Refusal | None:
    """What was read after `and she` where two persons are named before it (`Kim's opponent
    asked her life total and she gave the wrong number`): the pronoun's person did it, and it
    may be either; refused, with the line for each."""
    subject = found.persons.get("P")
    at = _subject_at(words, found)
    after = [i for i in found.read if at is not None and i > at and words[i].person is None]
    pronoun_at = other_pronoun(compiled.vocab, words, at, after[0]) if after else None
    if pronoun_at is None or _speaker_said(words, found, pronoun_at, compiled.vocab):
        return None
    pronoun = words[pronoun_at]
    modifiers = _modifiers(compiled, words, set(found.read)) if found.pattern.category == "observation" else []
    others = dict.fromkeys(w.person for w in words if w.person is not None and w.person != subject)
    if not others:      # (`Kim's opponent`: the other of the two players)
        others = dict.fromkeys(p for p in context.players if p != subject)
    lines = [line_of(found, modifiers, compiled.vocab)]
    for other in others:
        persons = {slot: (subject if name == other else other if name == subject else name)
                   for slot, name in found.persons.items()}
        lines.append(line_of(replace(found, persons=persons), modifiers, compiled.vocab))
    who = " or ".join([subject, *others]) if others else f"{subject} or the other player"
    return Refusal(f"`{pronoun.text}` may be {who}: write the name", pronoun.start + 1, readings=lines)


def _speaker_said(words: list[Word], found: Found, pronoun_at: int, vocab: Vocabulary) -> bool:
    """The pronoun follows a reporting verb and the kind is done by saying (`read_spoken`): `Lee
    said he was at 8 life but he was at 5` is what Lee said, whoever `he` is."""
    speaking = {args[0].lower() for args in vocab.reading.get("read_speaking", [])}
    return found.pattern.kind in spoken_kinds(vocab) and pronoun_at > 0 and bool(words[pronoun_at - 1].forms & speaking)


def _own_error(words: list[Word], found: Found, vocab: Vocabulary) -> Refusal | None:
    """A kind that is the opponent's share of another's error (`read_others_error`: `let it
    pass`) read of a subject who did something first, her own clause ended and the pronoun
    starting the next (`Kim put the wrong card in her arsenal and she didn't notice it`): her own
    error, never another's; refused."""
    if found.pattern.kind not in {kind for (kind,) in vocab.reading.get("read_others_error", [])}:
        return None
    subject = found.persons.get("P")
    at = _subject_at(words, found)
    said = [i for i in found.read if at is not None and i > at and words[i].person is None]
    pronouns = {word.lower() for (word,) in vocab.reading.get("read_pronoun", [])}
    between = words[at + 1:said[0]] if said else []
    if any(w.text.lower() in pronouns for w in between) and len(between) > 2:
        return Refusal(f"what {subject} did first is not read, and `{line_of(found, [], vocab)}` is said of "
                       "another player's error: write what happened, and who noticed it", words[at].start + 1)
    return None


def _not_noticed(words: list[Word], between: list[Word], other: str, found: Found, vocab: Vocabulary) -> list[str]:
    """The lines a sentence may mean whose first person did not notice the error read
    after it: that error with `OTHER had a fair chance to notice` (the question the guide asks
    of the opponent, FaB PPG 2.2, UPG 126), and `OTHER did not notice SUBJECT's error`."""
    compiled = patterns(vocab)
    if "did_not_notice_error" not in score(compiled, between, set()) or found.pattern.category != "observation":
        return []
    observation = observation_of(found, _modifiers(compiled, words, set(found.read)), vocab)
    lines = []
    if "had_fair_chance" in vocab.modifiers and observation.other is None:
        if not any(m.kind == "had_fair_chance" for m in observation.modifiers):
            observation.modifiers.append(Modifier("had_fair_chance", other))
        lines.append(print_observation(observation, vocab))
    if "did_not_notice_error" in vocab.observations:
        lines.append(print_observation(Observation(other, "did_not_notice_error", observation.subject, {}), vocab))
    return lines


def sentence_words(sentence: str, context: Context, vocab: Vocabulary) -> list[Word]:
    """The sentence's words as the reader reads them, each declared name one person word
    (none where the names cannot be read: `the opponent` of three players)."""
    found_names = mentions(sentence, context, vocab)
    return patterns(vocab).words(sentence, [] if isinstance(found_names, Refusal) else found_names)


def modifiers_in(sentence: str, context: Context, vocab: Vocabulary) -> list[Modifier]:
    """The modifiers found anywhere in a sentence, one of each exclusive group (what a
    suggestion keeps of it)."""
    compiled = patterns(vocab)
    words = sentence_words(sentence, context, vocab)
    taken = {i for i, w in enumerate(words) if w.person is not None}
    out: list[Modifier] = []
    groups: set[str] = set()
    negates = {m: n for m, n in vocab.reading.get("read_negates", [])}
    founds = _modifiers(compiled, words, taken)
    if answered_modifiers(sentence, words, founds, vocab) is not None:
        # (`On purpose?` unanswered, or answered `no` with no form to say it: a suggestion leaves it out)
        founds = [f for f in founds if not asked(sentence, words, f)]
    for found in founds:
        kind = found.pattern.kind
        if negated(sentence, words, taken, found.read[0]):
            if negates.get(kind, NOTHING) == NOTHING:
                continue            # a suggestion never says what the sentence denies
            kind = negates[kind]
        group = vocab.exclusive.get(kind)
        if group in groups or (kind in vocab.person_modifiers and "Q" not in found.persons):
            continue
        groups.add(group) if group else None
        number = next(iter(found.numbers.values()), None) if kind in vocab.counted_modifiers else None
        out.append(Modifier(kind, found.persons.get("Q"), number))
    return out


def _modifiers(compiled: Patterns, words: list[Word], taken: set[int]) -> list[Found]:
    """Every modifier found in the words not yet read, the longest first, each kind once."""
    found = [f for p in compiled.candidates(words, modifiers=True)
             for f in [compiled.find(p, words, taken)] if f is not None]
    found.sort(key=lambda f: (-len(f.read), f.span, f.read[0]))
    kept: list[Found] = []
    for item in found:
        if set(item.read) & taken or any(k.pattern.kind == item.pattern.kind for k in kept):
            continue
        kept.append(item)
        taken.update(item.read)
    return sorted(kept, key=lambda f: f.read[0])


# ---------------------------------------------------------------------------
# what was not read
# ---------------------------------------------------------------------------

def _not_read(sentence: str, words: list[Word], taken: set[int], compiled: Patterns) -> list[str]:
    """The runs of words not read, as written (runs of fillers alone left out)."""
    runs: list[list[int]] = []
    for i in range(len(words)):
        if i in taken:
            continue
        if runs and runs[-1][-1] == i - 1:
            runs[-1].append(i)
        else:
            runs.append([i])
    out = []
    for run in runs:
        if all(words[i].text in compiled.fillers or words[i].text == "'s" for i in run):
            continue
        first = run[0] + (words[run[0]].text == "'s")        # (`'s creature ...`: the owner was read)
        if first <= run[-1]:
            out.append(sentence[words[first].start:words[run[-1]].end].strip(" ,;"))
    return [text for text in out if text]
