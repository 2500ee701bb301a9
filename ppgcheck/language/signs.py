"""Reading a sentence by the words a guide and its game use for a situation.

A pack's `read_sign(Kind, Text)` says an observation's situation on its own (`pocketed`:
theft), `read_hint(Kind, Text)` points to it (`mana`: a game rule).  A sentence in which no
form or reader phrase of an observation is found is scored by them: SIGN points for each
sign found, HINT for each hint (the longest texts first, a word counted once); a
`read_scene(Kind, Text)` counts as a hint, but scenes alone never make a sign (`draw phase`
and `draw for turn` are where every normal draw happens).  It is read
as the top kind when that kind has at least SIGN points and every other kind less than half
of it; refused, naming both, when two kinds score alike; else left to the suggestions,
which rank by the same score.  The reading is shown as every reading is (`read as`, `not
read`), and every refusal of the reader still applies to it.
"""
from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from functools import cache

from ppgcheck.language.matching import Found, Patterns, Word, names_someone, present_forms
from ppgcheck.language.vocabulary import PERSON_SLOTS, Vocabulary
from ppgcheck.language.wordforms import is_participle, lemmas, phrase_at, phrase_forms, tokenize

SIGN = 2                # the points of a sign: enough on its own
HINT = 1                # of a hint: ranks, and adds to a sign
MAX_FILLERS = 2         # filler words a sign's words may have between them (`tapped a creature`)
NUMBER_REACH = 2        # words from a count's number to its unit word (`3 more cards`)
ARTICLES = ("a", "an")  # a number word of the language that is also an article
_MORE = ("extra", "additional", "more")     # between an article and its unit: `an extra card`


@dataclass(frozen=True)
class Sign:
    kind: str
    words: tuple[frozenset[str], ...]     # each word's dictionary forms
    points: int
    scene: bool = False                   # a `read_scene`: a hint beside another, never a sign with scenes alone

    @property
    def required(self) -> tuple[frozenset[str], ...]:
        """The words a sentence must hold for the sign to stand in it (a pronoun may be a name)."""
        return tuple(w for i, w in enumerate(self.words) if i == 0 or not w & _PRONOUNS)


@dataclass
class Score:
    points: int = 0
    read: set[int] | None = None
    scene: int = 0          # the points of its scenes (`draw phase`): at most a hint's without another word


@cache
def signs_of(compiled: Patterns) -> tuple[Sign, ...]:
    """The pack's signs and hints, the longest first (a text is matched before its parts)."""
    out: list[Sign] = []
    alike: dict[tuple[str, int], list[Sign]] = {}
    for fact, points in (("read_sign", SIGN), ("read_hint", HINT), ("read_scene", HINT)):
        for kind, text in compiled.vocab.reading.get(fact, []):
            words = tuple(t.forms for t in tokenize(text))
            same = alike.setdefault((kind, len(words)), [])
            # (`sleeve` and `sleeves` are one word: one hint, never two that make a sign together)
            if words and not any(all(a & b for a, b in zip(sign.words, words)) for sign in same):
                same.append(Sign(kind, words, points, scene=fact == "read_scene"))
                out.append(same[-1])
    # (a sign whose pronoun may stand for a name after one as long without: `turn up in`
    # before `in her backpack`)
    return tuple(sorted(out, key=lambda s: (-len(s.words), any(w & _PRONOUNS for w in s.words[1:]), -s.points)))


@cache
def _with_required(compiled: Patterns) -> tuple[tuple[tuple[Sign, tuple[frozenset[str], ...]], ...],
                                                dict[str, tuple[int, ...]]]:
    """The signs in order with the words each requires, and where the signs of each first word are."""
    table = tuple((sign, sign.required) for sign in signs_of(compiled))
    by_first: dict[str, list[int]] = {}
    for i, (sign, _) in enumerate(table):
        for form in sign.words[0]:
            by_first.setdefault(form, []).append(i)
    return table, {form: tuple(at) for form, at in by_first.items()}


def score(compiled: Patterns, words: list[Word], taken: set[int]) -> dict[str, Score]:
    """Each observation kind of the policy the sentence's signs and hints point to."""
    vocab = compiled.vocab
    allowed = set(vocab.policy_kinds) if vocab.policy_kinds is not None else set(vocab.observations)
    used = set(taken)
    scores: dict[str, Score] = {}
    present = present_forms(words)
    table, by_first = _with_required(compiled)
    # (most signs share no word with the sentence: only those whose first word it holds, in
    # their order, and whose other words it holds too, are walked)
    for at_sign in sorted({i for form in present for i in by_first.get(form, ())}):
        sign, required = table[at_sign]
        if sign.kind not in allowed or not all(want & present for want in required):
            continue
        at = _find(sign, words, used, compiled.fillers)
        if at is None:
            continue
        used.update(at)
        held = scores.setdefault(sign.kind, Score(0, set()))
        held.points += sign.points
        held.scene += sign.points if sign.scene else 0
        held.read.update(at)
    for held in scores.values():
        if held.points == held.scene:       # (`Kim drew for turn in her Draw Phase`: two scenes, no sign)
            held.points = min(held.points, HINT)
    return scores


def _find(sign: Sign, words: list[Word], used: set[int], fillers: set[str]) -> list[int] | None:
    """Where the sign's words stand in order, only fillers between them (none of them used)."""
    for start, word in enumerate(words):
        if start in used or word.person is not None or not sign.words[0] & word.forms:
            continue
        at = [start]
        j = start + 1
        for n, want in enumerate(sign.words[1:], start=2):
            skipped = 0
            while j < len(words) and not (want & words[j].forms) and words[j].text in fillers \
                    and skipped < MAX_FILLERS and j not in used:
                j += 1
                skipped += 1
            named = _named_for(want, words, j, last=n == len(sign.words))
            if named:
                at.extend(range(j, j + named))
                j += named
                continue
            if j >= len(words) or j in used or words[j].person is not None or not (
                    want & words[j].forms or _same_pronoun(want, words[j])):
                break
            at.append(j)
            j += 1
        else:
            return at
    return None


# a sign's pronoun stands for whoever the sentence names there: `called her a cheater` is
# said of `called Lee a cheater`, `touched his cards` of `touched Ben's cards`
_OBJECT_PRONOUNS = frozenset({"her", "him", "them"})
_OWNER_PRONOUNS = frozenset({"her", "his", "their"})
_PRONOUNS = _OBJECT_PRONOUNS | _OWNER_PRONOUNS


def _same_pronoun(want: frozenset[str], word: Word) -> bool:
    """A sign's pronoun read in another pronoun of its role (`called her a moron` in `called him
    a moron`, `touched her cards` in `touched their cards`): a pronoun's gender is no sign."""
    text = word.text.lower()
    return bool(want & _OBJECT_PRONOUNS and text in _OBJECT_PRONOUNS
                or want & _OWNER_PRONOUNS and text in _OWNER_PRONOUNS)


def _named_for(want: frozenset[str], words: list[Word], j: int, last: bool) -> int:
    """How many words at j a sign's pronoun stands for: a named person (1), a person's
    `'s` (2: an owner, never a sign's last word, `touched her`), else 0."""
    if j >= len(words) or words[j].person is None:
        return 0
    owner = j + 1 < len(words) and words[j + 1].text == "'s"
    if owner and want & _OWNER_PRONOUNS and not last:
        return 2
    return 1 if not owner and want & _OBJECT_PRONOUNS else 0


def top_kinds(scores: dict[str, Score]) -> list[str]:
    """The kinds by their points, the highest first."""
    return sorted(scores, key=lambda kind: (-scores[kind].points, kind))


def signed(compiled: Patterns, words: list[Word]) -> Found | list[str] | None:
    """The one observation the sentence's signs say, as found (subject, count, the words read);
    the kinds it could be when two score alike; None when no kind has a sign's points."""
    vocab = compiled.vocab
    taken = {i for i, w in enumerate(words) if w.person is not None}
    scores = score(compiled, words, taken)
    ranked = top_kinds(scores)
    if not ranked or scores[ranked[0]].points < SIGN:
        return None
    best = scores[ranked[0]].points
    rivals = [k for k in ranked[1:] if 2 * scores[k].points >= best and scores[k].points >= SIGN]
    alike = _over(vocab, [ranked[0], *rivals])
    if len(alike) > 1:
        return alike
    kind = alike[0]
    form = vocab.canonical("observation", kind)
    placed = doers(compiled, words, kind, scores[kind].read)
    if placed is None:
        return None
    subject_at, other = placed
    found_persons = {"P": words[subject_at].person}
    read = {subject_at, *scores[kind].read}
    if other is not None:
        found_persons["Q"] = words[other].person
        read.add(other)
    numbers: dict[str, int] = {}
    context = {args[0].lower() for args in vocab.reading.get("read_context", [])}
    for slot in form.slots:
        if slot in PERSON_SLOTS:
            continue
        place = unit_number(vocab, slot, words, read)
        if place is None:
            if any(w.number is not None and w.text not in ARTICLES and not (i and words[i - 1].text in context)
                   for i, w in enumerate(words) if i not in read) \
                    or any(w.text in plurals(vocab, slot) for w in words):
                return None      # a number it cannot place, or a count said without one (`a few minutes`)
            continue            # a count the sentence leaves out is 1 (`the top card`), as a reader phrase's
        numbers[slot] = words[place[0]].number
        read.update(place)
    pattern = compiled.compile("observation", kind, form.text)
    return Found(pattern, tuple(sorted(i for i in read if i < len(words))), found_persons, numbers, inferred=True)


_SUBJECT_PRONOUNS = frozenset({"she", "he", "they"})
# verbs of seeing that what follows happened (`Pru noticed that Olaf ...`): the seer is no doer of it
PERCEIVING = frozenset({"notice", "see", "spot", "catch", "realize", "realise", "observe", "watch", "discover"})


def seen(words: list[Word], k: int) -> bool:
    """Word k, a verb of seeing, is passive (`Kim had been seen sorting her lands`: Kim was seen)."""
    return k > 0 and words[k - 1].text.lower() in ("been", "was", "were", "being", "is", "are", "got")


def _pronoun_doer(words: list[Word], persons: list[int], start: int, first_sign: int) -> int | None:
    """Where no one named acts before the signs but `she` does (`Kim's activation was fine but
    she swore at Lee`), the one person named before the pronoun (an owner too); -1 where two
    are or none is; None where no pronoun stands there."""
    pronoun = next((i for i in range(start, first_sign) if words[i].text.lower() in _SUBJECT_PRONOUNS), None)
    if pronoun is None:
        return None
    named = [i for i in persons if i < pronoun]
    if not named:
        return -1           # (`After the game she swore at Lee`: not Lee, and who, the note does not say)
    return named[-1] if len({words[i].person for i in named}) == 1 else -1


def other_pronoun(vocab: Vocabulary, words: list[Word], subject_at: int, first_sign: int) -> int | None:
    """A clause of `she`/`he`/`they` (after `and`, `but`, a comma) between the subject and the
    signs, after two persons were named (`Kim's opponent asked her life total and she gave ...`),
    or right after a reporting verb (`Bea says he drew two`): the signs say what the pronoun's
    person did, and it may be either.  Where it stands, else None."""
    pronouns = {args[0].lower() for args in vocab.reading.get("read_pronoun", [])}
    for i in range(subject_at + 1, first_sign):
        verb = i - 1
        while verb > subject_at + 1 and words[verb].text.lower() in ("me", "us"):
            verb -= 1       # (`Lee told me she ...`; not `Lee stated that she had spilled ...`, of herself)
        if words[i].person is None and words[i].text.lower() in pronouns and reports([words[verb]], vocab):
            return i        # `Bea says he drew two`: the speaker, or whom she speaks of
        clause = words[i].pause or words[i - 1].text.lower() in JOINERS_AND_SO | {"when"}
        if words[i].person is None and words[i].text.lower() in pronouns and clause:
            # (an owner too: `Lee complained about Kim's pace. She took ...` may be Kim's;
            # `Kim's opponent` names two)
            named = {w.person for w in words[:i] if w.person is not None}
            implied = any(w.person is not None and w.text.lower() != w.person.lower() for w in words[:i])
            if len(named) >= 2 or implied:
                return i
    return None


# the words that join a clause of its own subject to a line (`... and she gave ...`,
# `..., because Lee ...`; `told Ben she was` is what the teller said, of the teller): a line
# is cut before them (sentences.py), and a pronoun after them may be either person named.
# `so` too, except for the cut: `pressured Lee so she would miss her trigger` is Lee's.
CLAUSE_JOINERS = frozenset({"and", "but", "then", "while", "because", "since"})
JOINERS_AND_SO = CLAUSE_JOINERS | {"so"}


# the words that open a clause saying when or why (`After Tam chained a hand trap, Wren ...`)
SUBORDINATORS = frozenset("after when while as before once since because although though whilst until".split())


def when_clause(words: list[Word], read: Collection[int]) -> range:
    """Where a clause of when or why stands before what was read (`After Tam chained a hand
    trap, Wren ...`, `Round 5. When Lee attacked, Kim ...`): from its word, at the start or
    after punctuation, to its comma; an empty range where there is none.  Who acts in it is
    the statement's context, not its subject."""
    if not words or not read:
        return range(0)
    first = min(read)
    for start in reversed(range(first)):
        if words[start].text.lower() in SUBORDINATORS and (start == 0 or words[start].pause):
            end = next((i for i in range(start + 1, first + 1) if words[i].pause), None)
            return range(start, end) if end is not None else range(0)
    return range(0)


def _holder(words: list[Word], persons: list[int], start: int, first_sign: int) -> list[int]:
    """The last person named as an owner from `start` to the signs (`Call: Lee says ... / Found:
    Kim's Main Deck has 41 cards`: Kim, never the caller of an earlier part); empty where none is.
    (Only for a form of one person: `Pam's friend told her to attack` is no act of Pam's.)"""
    held = [i for i in persons if start <= i < first_sign and i + 1 < len(words) and words[i + 1].text == "'s"]
    return held[-1:]


def _paired(words: list[Word], at: int) -> bool:
    """The person at `at` is named beside another as one subject (`Kim and Lee`, `Lee & Kim`)."""
    return any(0 <= j < len(words) and 0 <= k < len(words) and words[j].text.lower() in ("and", "&")
               and words[k].person not in (None, words[at].person) for j, k in ((at + 1, at + 2), (at - 1, at - 2)))


def is_seer(words: list[Word], at: int) -> bool:
    """The person at `at` is who saw or pointed out what the signs say, not who did it (`caught
    by Nico`, `Kim pointed it out right away`): a sign reading of her would be a misreading."""
    after_by = at >= 2 and words[at - 1].text.lower() == "by" and bool(words[at - 2].forms & PERCEIVING)
    return after_by or any(w.text.lower() in _POINTING for w in words[at + 1:at + 3])


# the words that open a leading clause of when (`During Hugo's combat step ...`, `With Juno
# still at 800 LP ...`)
_LEADING = SUBORDINATORS | {"during", "with"}
# a verb by which a person points out what another did (`Kim pointed it out`, `flagged it`)
_POINTING = frozenset({"pointed", "points", "point", "flagged", "flags"})


def _in_leading_clause(words: list[Word], persons: list[int], at: int) -> bool:
    """The person at `at` stands in a leading clause of when (`During Hugo's combat step Priya
    cast a sorcery`, `While Elin was still in Main Phase 1 Dario gathered up ...`), no comma
    closing it, and another person acts after her: which of them did it is not the reader's to pick."""
    if not words or words[0].text.lower() not in _LEADING or any(w.pause for w in words[1:at + 1]):
        return False
    # (the clause says what was hers or how she was, `Hugo's combat step`, `Elin was still in ...`;
    # never `After the game Ben called Ann ...`, where Ben acts in the main clause)
    if not (at + 1 < len(words) and words[at + 1].text.lower() in ("'s", "was", "is", "were", "still")):
        return False
    return any(i > at and words[i].person != words[at].person and names_someone(words, i) for i in persons)


def likely_doer(words: list[Word], vocab: Vocabulary) -> int | None:
    """Where the person who most likely did what a sentence says stands, for a line that is
    only suggested: the first one named who acts, never who called the judge, saw or reports
    it, an object, or one in a clause of when (`With Kim still at 1200 LP, Lee scooped ...`,
    `Lee says Kim kept whispering ...`: Lee in both).  None where no one is left."""
    persons = [i for i, w in enumerate(words) if w.person is not None]
    leading = words[0].text.lower() in _LEADING if words else False
    closed = next((i for i, w in enumerate(words) if w.pause), len(words))
    acting = [i for i in persons if names_someone(words, i) and not is_object(words, i)
              and not calls_judge(words, i, vocab) and not _summoner(words, i, vocab) and not is_seer(words, i)
              and not (leading and i < closed)]
    for at, nxt in zip(acting, acting[1:]):
        between = words[at + 1:nxt]
        if words[at].person != words[nxt].person and len(between) <= 3 and not any(w.pause for w in between) \
                and reports(between, vocab):
            continue        # (`Lee says Kim ...`, `Lee told me Kim ...`: what Kim did; never `Lee said he was at
            # 14 life but ..., Kim attacked`, Lee's own words)
        return at
    return acting[-1] if acting else None


def _over(vocab, kinds: list[str]) -> list[str]:
    """The kinds left when each one another of them is read over (`read_over`: stalling's
    signs beside slow play's say slow play on purpose) is dropped."""
    over = {(a.lower(), b.lower()) for a, b in vocab.reading.get("read_over", [])}
    return [k for k in kinds if not any((other, k) in over for other in kinds if other != k)]


def doers(compiled: Patterns, words: list[Word], kind: str, signs: set[int],
          other_before: bool = False) -> tuple[int, int | None] | None:
    """Where the subject of a sign reading of `kind` stands (its signs at `signs`), and its
    {Q} where the form has one; None when the sentence names no one who can be.
    The subject is the owner named right before them (`Lee saw Kim's missed trigger`: Kim,
    and the reader refuses it for Lee's part) where the form has no {Q} and the sentence is
    not passive; else the person named last as doing something before what the signs say
    (`Lee says Kim yelled at her`: Kim); else that owner; else the first named after it;
    else the owner named (`Arjun's creature sat there with 0 toughness`), unless the signs
    say what was done to her things (`Ann's deck was stolen`).  {Q} is the next other person
    named after the subject; with `other_before` (a suggestion's), else the last one before it."""
    vocab = compiled.vocab
    form = vocab.canonical("observation", kind)
    persons = [i for i, w in enumerate(words) if w.person is not None]
    if not persons or not signs:
        return None
    context = when_clause(words, signs)
    acting = [i for i in persons if names_someone(words, i) and not is_object(words, i) and i not in context
              and not calls_judge(words, i, vocab)]
    first_sign = min(signs)
    passive = _passive(words)
    owner = first_sign - 2 if first_sign >= 2 and words[first_sign - 1].text == "'s" \
        and words[first_sign - 2].person is not None else None
    agent = passive_agent(words, context)
    if agent is not None and _summoner(words, agent, vocab):
        agent = None            # (`I was called over by Mei, who explained ...`: she called the judge)
    if agent is not None:
        subject_at = agent
        if "Q" in form.slots:
            other = next((i for i in persons if words[i].person != words[agent].person), None)
            return None if other is None else (agent, other)
    elif acting:
        # (in the sentence of the signs, where it names someone: `Lee called me over: Kim called him ...`)
        start = max((k for k in range(first_sign + 1) if words[k].stop), default=0)
        held = _holder(words, persons, start, first_sign) if start > 0 and "Q" not in form.slots else []
        before = [i for i in acting if start <= i < first_sign] or held or [i for i in acting if i < first_sign]
        said = _pronoun_doer(words, persons, start, first_sign) if not before else None
        if said == -1:
            return None         # a pronoun before the signs that may be either of two named before it
        subject_at = before[-1] if before else said if said is not None else owner \
            if owner is not None and not passive else acting[0]
        if subject_at > first_sign and "Q" not in form.slots and not passive:
            # (no one acts before the signs: whose things they are said of, not who acts after them,
            # `Kim's hero shows 6 damage but her dial says 3 ... while Lee looked away`)
            subject_at = next(iter(_holder(words, persons, 0, first_sign)), subject_at)
        if _reporter(words, vocab, acting, subject_at) and kind not in spoken_kinds(vocab):
            return None         # (`Max told me quietly he thinks Kim gets advice ...`: Max's suspicion)
        if "Q" in form.slots and len(before) >= 2 and not _reports(words, vocab, before[0], before[1]):
            subject_at = before[0]      # (`Kim called Lee an idiot`: the first does it to the next)
        elif "Q" not in form.slots and owner is not None and not passive:
            subject_at = owner          # (`Carlos saw Dee's illegal attack`: what Dee did)
        if any(w.forms & PERCEIVING and not seen(words, k) for k, w in enumerate(words[:subject_at + 3])
               if k > subject_at):
            return None         # (`Kim's opp noticed her sleeves are ...`: whose sleeves, the seer's?)
        if _bidden(words, vocab, subject_at, first_sign):
            return None         # (`Kim told Lee to hurry up`: what Kim asked for, not what anyone did)
        asked = _asked_about(words, subject_at, first_sign)
        if asked is not None:
            # (`Kim asked her friend Max what she should pitch and he told her`: Max advised Kim;
            # `Kim asked her friend in the crowd which ...`: someone no one declared did)
            return (asked, subject_at) if "Q" in form.slots and asked >= 0 else None
    elif passive and not form.text.startswith("{P}'s") and not _owned(vocab, kind, words, persons):
        return None
    else:
        subject_at = persons[0]
        if calls_judge(words, subject_at, vocab):
            return None         # (`Lee called me over: half the room had turned to watch`)
        if "Q" in form.slots and subject_at + 1 < len(words) and words[subject_at + 1].text == "'s":
            return None         # (`Pam's friend told her to attack`: her friend did it, to her)
        if subject_at > first_sign and _pronoun_doer(words, persons, 0, first_sign) is not None:
            return None         # (`After the game she swore at Lee`: she did it, not Lee)
    if is_seer(words, subject_at) or _in_leading_clause(words, persons, subject_at):
        return None
    if "Q" not in form.slots and _paired(words, subject_at):
        return None         # (`...; Kim and Lee had finished their match`: both, no one doer of a sign)
    if "Q" not in form.slots:
        return subject_at, None
    subject = words[subject_at].person
    other = next((i for i in persons if i > subject_at and words[i].person != subject), None)
    # (`Lee called me over: Kim called him an idiot`: `him` is the other one, named in a sentence before)
    pronoun = any(words[i].text.lower() in _OBJECT_PRONOUNS for i in range(subject_at + 1, len(words))) \
        and any(w.stop for w in words[:subject_at + 1])
    if other is None and (other_before or pronoun):
        other = next((i for i in reversed(persons) if i < subject_at and words[i].person != subject), None)
    return None if other is None else (subject_at, other)


_OBJECT_PRONOUNS = {"him", "her", "them"}


def _reporter(words: list[Word], vocab: Vocabulary, acting: list[int], at: int) -> bool:
    """The person at `at` tells the judge what she thinks of another named after her in the same
    sentence (`Max told me he thinks Kim ...`, `Lee says that Kim ...`): a reporting verb (not
    `asked`), then `me`, `that` or a pronoun, before the other's name."""
    later = next((k for k in acting if k > at and words[k].person != words[at].person), None)
    if later is None or any(w.stop for w in words[at + 1:later + 1]):
        return False        # (in one sentence: `... asked me for a shuffle. Jo told me ...` is no report of Jo)
    verbs = reporting_verbs(vocab) - {"ask"}
    return any(words[v].forms & verbs and words[v + 1].text.lower() in _REPORT_FOLLOWERS for v in range(at + 1, later))


# what follows a verb by which someone reports what she thinks of another (`told me`, `says that`, `thinks she`)
_REPORT_FOLLOWERS = frozenset({"me", "us", "that", "he", "she", "they"})


def talk_of_anyone(words: list[Word], vocab: Vocabulary, subject_at: int, first_sign: int) -> bool:
    """Between the subject and the signs, a reporting verb and then a word for people in general
    and no one named (`Lee said long games make players forget triggers`): talk of what anyone
    does, no act of the speaker's."""
    verbs = reporting_verbs(vocab)
    said = next((i for i in range(subject_at + 1, first_sign) if words[i].forms & verbs), None)
    talk = words[said + 1:first_sign] if said is not None else []
    return bool(talk) and all(w.person is None and not w.stop for w in talk) \
        and any(w.text.lower() in _ANYONE for w in talk)


# people in general, no one the report declares
_ANYONE = frozenset({"players", "people", "everyone", "everybody", "anyone", "anybody", "someone",
                     "somebody", "nobody", "you"})


def spoken_kinds(vocab: Vocabulary) -> set[str]:
    """The kinds done by saying them (`read_spoken`: wrong game information, a lie to a judge)."""
    return {args[0] for args in vocab.reading.get("read_spoken", [])}


def _bidden(words: list[Word], vocab: Vocabulary, subject_at: int, first_sign: int) -> bool:
    """Between the subject and the signs, a reporting verb, a person and `to` (`told Lee to`,
    `asked her to`; the `to` may be the sign's own, `to play faster`): the signs say what the
    subject bade someone do."""
    verbs = reporting_verbs(vocab)
    return any(words[i].forms & verbs and (words[i + 1].person is not None
                                           or words[i + 1].text.lower() in _OBJECT_PRONOUNS)
               and words[i + 2].text.lower() == "to" for i in range(subject_at + 1, first_sign - 1))


def _asked_about(words: list[Word], subject_at: int, first_sign: int) -> int | None:
    """Where the person the subject asked stands, where the signs follow the question (`Kim asked
    Max what she should pitch`): what the signs say is the answer, the asked one's, not the
    subject's; -1 where the one asked is no declared person (`asked her friend in the crowd
    which ...`); None where the subject asked no one anything before them."""
    for i in range(subject_at + 1, first_sign + 1):     # (the sign's own `asked her friend`, too)
        if not words[i].forms & {"ask"}:
            continue
        reach = words[i + 1:i + 1 + ASK_REACH]
        question = next((j for j, w in enumerate(reach) if w.text.lower() in _QUESTION_WORDS), None)
        asked = next((k for k in range(i + 1, min(i + 1 + ASK_REACH, len(words))) if words[k].person is not None),
                     None)
        if asked is not None and any(w.text.lower() in _QUESTION_WORDS for w in words[asked + 1:asked + 1 + ASK_REACH]):
            return asked
        if question and not any(w.person is not None or w.text.lower() in _THE_JUDGE for w in reach[:question]):
            return -1       # (never `Sam asked how many Life Points Uma had left`, nor `asked me what ...`)
    return None


# the words that start a question asked (`asked Max what to pitch`, `whether she could block`), and
# how far from `asked` the one asked, and from her the question, may stand
ASK_REACH = 6
_THE_JUDGE = frozenset({"me", "us", "judge"})      # the one asked where the question is the judge's to answer
_QUESTION_WORDS = frozenset({"what", "which", "whether", "if", "how"})


def unit_number(vocab: Vocabulary, slot: str, words: list[Word],
                taken: set[int] = frozenset()) -> tuple[int, int] | None:
    """Where the number of a count slot and its unit word stand: a number followed within
    NUMBER_REACH words by the slot's unit word (`3 cards`, `4 more minutes`)."""
    units = _units(vocab, slot)
    for i, word in enumerate(words):
        if word.number is None or i in taken:
            continue
        # `a minute`, `an extra card`, never `a few minutes`
        reach = NUMBER_REACH if word.text not in ARTICLES \
            else 2 if i + 1 < len(words) and words[i + 1].text in _MORE else 1
        for j in range(i + 1, min(len(words), i + 1 + reach)):
            if words[j].forms & units:
                return i, j
            if words[j].number is not None or words[j].person is not None:
                break
    return None


def plurals(vocab: Vocabulary, slot: str) -> set[str]:
    """A count slot's unit words in the plural (`cards`, `mins`): more than one, not said how many."""
    return {plural for singular, plural in vocab.units.get(slot, []) if plural != singular}


def _units(vocab: Vocabulary, slot: str) -> set[str]:
    """The dictionary forms of a count slot's unit words (`card`, `cards`)."""
    return {f for pair in vocab.units.get(slot, []) for w in pair for f in lemmas(w)}


def _owned(vocab: Vocabulary, kind: str, words: list[Word], persons: list[int]) -> bool:
    """A kind said of a player's own things (`read_owned`: `Ann's foils are bowed`, marked
    cards), in a sentence that names no one but their owner: the owner is its subject."""
    owned = {args[0] for args in vocab.reading.get("read_owned", [])}
    return kind in owned and len({words[i].person for i in persons}) == 1


def passive_agent(words: list[Word], context: Collection[int] = ()) -> int | None:
    """Where the agent of a passive sentence stands (`the top card was flipped face up by him`,
    `Kim was called a cheater by Lee`): the one who did it, whoever is named before; not an
    owner (`stolen by Lee's Mind Control`), nor one followed by what she did it with (`drawn by
    Kim with Pot of Greed`: a card's effect may have made it legal), nor one in a clause of when
    or why (`context`).  None in a sentence that is not passive or names no agent."""
    if not _passive(words):
        return None
    return next((i for i, word in enumerate(words) if word.person is not None and i > 0
                 and words[i - 1].text.lower() == "by" and i not in context
                 and (i + 1 == len(words) or words[i + 1].pause or words[i + 1].text.lower() in _AFTER_AGENT)), None)


# what may follow the agent of a passive sentence: where, when, how often
_AFTER_AGENT = frozenset("in at during on before after while when and but so because then again twice for".split())


def calls_judge(words: list[Word], at: int, vocab: Vocabulary) -> bool:
    """The person at `at` calls the judge over (`Lee came to get me because ...`: `read_summons`),
    which is all the sentence says she did."""
    forms = [w.forms for w in words]
    return any(phrase_at(forms, text, at + 1) for (text,) in vocab.reading.get("read_summons", []))


def _summoner(words: list[Word], at: int, vocab: Vocabulary) -> bool:
    """The agent at `at` is who called the judge over (`called over by Mei`: `read_summoned`)."""
    forms = [w.forms for w in words]
    return any(at - 1 - len(phrase_forms(text)) >= 0 and phrase_at(forms, text, at - 1 - len(phrase_forms(text)))
               for (text,) in vocab.reading.get("read_summoned", []))


def _passive(words: list[Word]) -> bool:
    """The sentence says what was done (`were stolen`, `got marked`): a form of `be` or
    `get` before a past participle, never one of a penalty the person was given (`Kim was
    issued a Warning for Slow Play`: what Kim did is what the signs say)."""
    return any(words[i].forms & {"be", "get"} and is_participle(words[i + 1].text)
               and not words[i + 1].forms & _PENALIZED for i in range(len(words) - 1))


# the verbs of a penalty given (`was issued`, `got a warning`, `was disqualified for ...`)
_PENALIZED = frozenset({"issue", "give", "award", "assess", "hand", "warn", "caution", "penalize", "penalise",
                        "disqualify", "dq"})


# what follows a person who is the object of a verb (`Ben hit Ann in the face`, `told Kim to
# block`, `called Lee an idiot`), never a subject's verb; and what a person after it is not
# the object of (`after Lee attacked`, `says Kim yelled`)
OBJECT_FOLLOWERS = frozenset("""a an the his her their its my he she they it him them this that these those
    you your i me we
    not to in on at into onto for with from about across during over by which what how where why
    then and but when after before because so while until if as""".split())
CLAUSE_STARTS = frozenset("that when because while and but so then if after before as since until".split())


def is_object(words: list[Word], i: int) -> bool:
    """The person at i is the object of the word before it (`Hugo told Priya his ...`):
    what follows is no verb of hers but a word a verb's object is followed by."""
    if i == 0 or words[i].stop or words[i - 1].person is not None or words[i - 1].text in CLAUSE_STARTS:
        return False        # (`... decklist chk / Lee: list has 56`: a sentence's end before her, she starts one)
    if words[i].pause and i + 1 < len(words) and words[i + 1].pause:
        return False        # (`A spectator, Max, told Kim ...`: a name set off by commas names who it was)
    return i + 1 == len(words) or words[i + 1].pause or words[i + 1].text in OBJECT_FOLLOWERS


def _reports(words: list[Word], vocab: Vocabulary, first: int, second: int) -> bool:
    """The words between two persons say the first reports what the second did (`Lee says
    Kim ...`, `Lee told me Kim ...`: `read_reporting`), or hold a clause's end: then the
    second is the one who did it."""
    between = words[first + 1:second]
    return not between or reports(between, vocab) or any(
        w.text in ("that", "when", "because", "while", "and", "but", "so") for w in between)


def reporting_verbs(vocab: Vocabulary) -> set[str]:
    """The verbs by which one person reports what another did (`says`, `told me`: `read_reporting`)."""
    return {args[0].lower() for args in vocab.reading.get("read_reporting", [])}


def claim_words(vocab: Vocabulary) -> set[str]:
    """The words by which a person claims, reports, asks or calls (`read_reporting`,
    `read_suspicion`): what follows them is what someone said or thought, not a finding."""
    return {word for fact in ("read_reporting", "read_suspicion") for (word,) in vocab.reading.get(fact, [])}


def reports(words: list[Word], vocab: Vocabulary) -> bool:
    """Some of the words is a verb by which one person reports what another did."""
    verbs = reporting_verbs(vocab)
    return any(w.forms & verbs for w in words)
