"""A judge's own verdict of legal play: a note that ends in `all legal, no infraction` after
a call over something the rules allow is read as `P did nothing wrong` (each pack says why
that is no infraction, with its guide's sentence), never refused for want of a statement.

The verdict is the judge's finding, so it is read only where the note says nothing else:
a sentence of it that reads as a statement of the language (outside what a player claimed,
thought or asked: `Lee thought Kim drew an extra card`) makes the note say both, and it is
refused.  The subject is the person the verdict names (`no infraction for Lee`), else the
first player the note names who is not the one who called, claimed or asked, else the
other of two players of a caller; the words around the verdict are shown as not read.
"""
from __future__ import annotations

import re

from ppgcheck.language.grammar import language
from ppgcheck.language.model import Reading
from ppgcheck.language.printer import quote_name
from ppgcheck.language.matching import patterns
from ppgcheck.language.reader import NOTHING_FOUND, Context, Read, mentions, read_sentence, sentence_words
from ppgcheck.language.refusals import Refusal
from ppgcheck.language.signs import SIGN, claim_words, score
from ppgcheck.language.vocabulary import Vocabulary
from ppgcheck.language.wordforms import Token, phrase_at, phrase_forms, sentence_spans, tokenize

LEGAL_FORM = "did nothing wrong"        # core vocabulary.lp's canonical form of `played_legally`
LEGAL_KIND = "played_legally"
NEGATION_REACH = 2                      # words before a verdict a negation unsays it from (`not all legal`)
_PAUSE = re.compile(r"[.,;:!?()]")
# a relative clause set off in the middle of a sentence (`her decklist, which was legal, registered 60`)
_OF_A_THING = re.compile(r",\s*which\s*$", re.IGNORECASE)
_PRONOUNS = frozenset({"she", "he", "they", "i", "we"})
# a verdict that starts with its verb (`is legal`, `was fine`) judges the play only after one of
# these (`it's fine`, `everything was correct`); after a thing it judges the thing (`her list is legal`)
_COPULAS = frozenset({"is", "was", "'s", "are", "were", "be", "checks", "checked"})
# after `no infraction`, a word that makes it the guide's silence (`no infraction fits`: a gap)
_OF_THE_GUIDE = frozenset({"fit", "fits", "apply", "applies", "cover", "covers", "exist", "exists", "match",
                           "matches", "describe", "describes"})
_GENERIC = frozenset({"it", "that", "this", "everything", "all", "which", "play", "plays", "action",
                      "actions", "there", "so", "pace"})


def read_verdict(line: str, context: Context, vocab: Vocabulary) -> Read | Refusal | None:
    """The line read as the judge's verdict of legal play; a refusal where it says something
    else besides; None where it has no verdict."""
    located = _located(line, context, vocab)
    if located is None:
        return None
    found, claiming, (start, end) = located
    both, unread = _statement_besides(line, start, end, claiming, context, vocab)
    if both is not None:
        return both
    if unread:
        return None         # (a sentence the reader refuses for what it says: the note is read as it was before)
    subject = _subject(line, found, end, claiming, context)
    if subject is None:
        return Refusal(f"`{line[start:end]}` says nothing was wrong, and the note names no one it is about: "
                       "say who (a name the header declares)", start + 1)
    canonical = f"{quote_name(subject, language(vocab))} {LEGAL_FORM}"
    not_read = [piece for piece in (line[:start].strip(" ,;:-"), line[end:].strip(" ,;:-.")) if piece]
    return Read(canonical, Reading(line.strip(), canonical, not_read), subject)


def verdict_at(line: str, context: Context, vocab: Vocabulary) -> tuple[int, int] | None:
    """(start, end) of the judge's verdict of legal play in a line, None where it has none:
    a line that reads as an infraction beside it says both, and is never ruled on."""
    located = _located(line, context, vocab)
    return located[2] if located is not None else None


def _located(line: str, context: Context, vocab: Vocabulary) -> tuple[list, list[int], tuple[int, int]] | None:
    """The persons a line names, where each who claims stands, and (start, end) of the judge's
    verdict; None where the line has no verdict."""
    found = mentions(line, context, vocab)
    if isinstance(found, Refusal):
        return None
    tokens = tokenize(line)
    claiming = _claiming(tokens, claim_words(vocab), found)
    verdict = _verdict(line, tokens, claiming, vocab)
    return None if verdict is None else (found, claiming, verdict)


def _verdict(line: str, tokens: list[Token], claiming: list[int], vocab: Vocabulary) -> tuple[int, int] | None:
    """(start, end) of the first verdict the judge writes: a `read_legal` phrase that no
    negation just before unsays and no verb of claiming before it in its sentence puts in a
    player's mouth (`Rui asked me if that's legal`)."""
    negations = {word for (word,) in vocab.reading.get("read_negation", [])}
    forms = [token.forms for token in tokens]
    for i in range(len(tokens)):
        for (text,) in vocab.reading.get("read_legal", []):
            if not phrase_at(forms, text, i):
                continue
            after = i + len(phrase_forms(text))
            if not _as_written(tokens[after - 1], text):
                continue
            if tokens[i].text in _COPULAS and (i == 0 or tokens[i - 1].text not in _GENERIC):
                continue
            if after < len(tokens) and tokens[after].forms & _OF_THE_GUIDE:
                continue        # `no infraction fits`: the guide's silence, not the judge's verdict
            start, end = tokens[i].start, tokens[after - 1].end
            before = [t for t in tokens[max(0, i - NEGATION_REACH):i] if not _PAUSE.search(line[t.end:start])]
            sentence = _sentence_start(line, start)
            # (a clause the judge starts between the claim and the verdict makes the verdict hers)
            claimed = any(sentence <= at < start and _judge_clause(line, tokens, at, start) is None for at in claiming)
            if _contrasted(tokens, end, line):
                return None         # `the play was fine but she swore at Lee`: fine in part, not legal play
            if _OF_A_THING.search(line[:start]) and re.match(r"\s*,\s*\w", line[end:]):
                continue            # `her decklist, which was legal, registered 60`: of the list, not the play
            if not claimed and not any(t.forms & negations for t in before):
                return start, end
    return _bare_verdict(line, tokens, vocab)


def _as_written(last: Token, text: str) -> bool:
    """A verdict's last word as the phrase writes it, or its plural: `was corrected` is what the
    judge did, never `was correct`."""
    word = text.split()[-1].lower()
    return last.text in (word, word + "s")


def _bare_verdict(line: str, tokens: list[Token], vocab: Vocabulary) -> tuple[int, int] | None:
    """(start, end) of a verdict word alone after a pause at the end of the line (`..., legend
    rule done, legal`: `read_legal_alone`), the judge's last word on what she saw."""
    alone = {word.lower() for (word,) in vocab.reading.get("read_legal_alone", [])}
    if not tokens or tokens[-1].text not in alone or len(tokens) < 2:
        return None
    last = tokens[-1]
    if not _PAUSE.search(line[tokens[-2].end:last.start]) or line[last.end:].strip(" .!") != "":
        return None
    return last.start, last.end


def _judge_clause(line: str, tokens: list[Token], after: int, before: int) -> int | None:
    """Where the judge's own clause starts between two places of a line (`tokens`: its words):
    `I` or `we` after a pause or a joiner (`lee called me over because kim took two actions, I read
    the card ...`, `and I checked`); never `asked me if I ...`."""
    for k, token in enumerate(tokens):
        if k == 0 or not after < token.start < before or token.text not in _JUDGE:
            continue
        if _PAUSE.search(line[tokens[k - 1].end:token.start]) or tokens[k - 1].text in _JUDGE_JOINERS:
            return token.start
    return None


_JUDGE = frozenset({"i", "we"})
_JUDGE_JOINERS = frozenset({"and", "so", "then", "but"})
_CONTRASTS = frozenset({"but", "however", "although", "though", "except", "apart", "besides", "otherwise"})


def _contrasted(tokens: list[Token], verdict_end: int, line: str) -> bool:
    """The verdict's sentence goes on to set something against it (`fine but she swore`,
    `all legal otherwise`); one set against before it (`three ships but in another order,
    which is fine`) is what the verdict judges."""
    end = next((e for s, e in sentence_spans(line) if s <= verdict_end <= e), len(line))
    return any(verdict_end <= t.start < end and t.text in _CONTRASTS for t in tokens)


def _sentence_start(line: str, at: int) -> int:
    return max((s for s, _ in sentence_spans(line) if s <= at), default=0)


def _statement_besides(line: str, start: int, end: int, claiming: list[int], context: Context,
                       vocab: Vocabulary) -> tuple[Refusal | None, bool]:
    """What the note says besides the verdict, each sentence read up to the first person in it
    who claims, asks or calls (what follows is theirs, not the judge's finding): a refusal where a
    sentence reads as a statement (the note says both), and whether one says what the reader
    cannot read (refused for it, or with a sign of another situation)."""
    text = line[:start] + " " * (end - start) + line[end:]
    tokens = tokenize(text)
    pieces = []
    for begin, finish in sentence_spans(text):
        cut = min((at for at in claiming if begin <= at < finish), default=finish)
        pieces.append((begin, text[begin:cut]))
        judge = _judge_clause(text, tokens, cut, finish)      # (the judge's own clause after the claim: her finding)
        if judge is not None:
            pieces.append((judge, text[judge:finish]))
    for begin, said in pieces:
        if not tokenize(said):
            continue
        read = read_sentence(said, context, vocab)
        if isinstance(read, Read):
            return Refusal(f"the note says both `{read.line}` and that nothing was wrong (`{line[start:end]}`): "
                           "write the one the judge found", begin + 1, readings=[read.line]), False
        if read.allowed:
            continue            # (`looked at the top three with her event ...; legal play`: what allowed it)
        if read.message != NOTHING_FOUND or _signed(said, context, vocab):
            return None, True   # not a note of legal play alone
    return None, False


def _signed(text: str, context: Context, vocab: Vocabulary) -> bool:
    """The text holds a sign of a situation of the policy (`pocketed a booster`): what it says is
    no legal play, whether or not the reader can read it."""
    scores = score(patterns(vocab), sentence_words(text, context, vocab), set())
    return any(held.points >= SIGN for kind, held in scores.items() if kind != LEGAL_KIND)


def _claiming(tokens: list[Token], claims: set[str], found: list[tuple[int, int, str]]) -> list[int]:
    """Where each person who claims, asks or calls stands: a name or a pronoun with a verb of
    claiming right after it (`Lee thought`, `she then asked`; `as the card
    says` is no one's claim)."""
    at = [s for s, e, _ in found if _claims_after(tokens, e, claims)]
    at += [t.start for t in tokens if t.text in _PRONOUNS and _claims_after(tokens, t.end, claims)]
    return sorted(at)


def _subject(line: str, found: list[tuple[int, int, str]], end: int, claiming: list[int],
             context: Context) -> str | None:
    """Whom the verdict is about (see the module's doc; where every player named called or
    claimed, the other of the first)."""
    named = next((name for s, _, name in found if end <= s and not line[end:s].strip(" ,").count(" ") > 1
                  and re.match(r"\s*(?:for|by|from|on)\s", line[end:s])), None)
    if named:
        return named
    callers = {name for s, _, name in found if s in claiming}
    others = [name for _, _, name in found if name not in callers]
    players = [name for name in others if name in context.players] or others
    if players:
        return players[0]
    caller = next((name for _, _, name in found if name in callers and name in context.players), None)
    if caller and len(context.players) == 2:
        return next(p for p in context.players if p != caller)
    return context.previous if not found else None


def _claims_after(tokens: list[Token], end: int, claims: set[str]) -> bool:
    """A verb of claiming, asking or calling right after a name (`Lee thought`, `Lee then
    called`; not `Kim activated Called by the Grave`)."""
    after = [t for t in tokens if t.start >= end]
    at = next((i for i, t in enumerate(after) if t.text not in _BEFORE_VERB), None)
    if at is None or not after[at].forms & claims:
        return False
    return not (at + 1 < len(after) and after[at + 1].text == "at")     # `swore at Lee`: said to, not claimed


# words that may stand between a person and the verb of what they did (`Lee then called me`)
_BEFORE_VERB = frozenset({"then", "also", "just", "immediately", "first", "later", "quickly", "finally", "again",
                          "had", "has", "have", "was", "is", "did", "does", "had", "even", "still", "only", "not"})
