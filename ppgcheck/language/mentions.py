"""Who a judge's sentence names: each declared person where it is written (`Player A`, `PA`,
`Player Kim`, `Kims deck`), a pronoun that starts it (or starts the judge's finding: `I
determined that she ...`) as the previous sentence's subject, `the opponent` as the other of
two players, and `the spectator` as the one declared."""
from __future__ import annotations

import re
from dataclasses import dataclass

from ppgcheck.language.refusals import Refusal
from ppgcheck.language.vocabulary import Vocabulary


@dataclass
class Context:
    """What the report says before the sentence: its declared names (players first
    among them) and the subject of the previous sentence."""
    names: list[str]
    players: list[str]
    previous: str | None = None


# the words that open a leading clause before its sentence's subject (`While shuffling she ...`)
_LEADING = ("while", "when", "after", "before", "during", "as", "once", "then", "later", "afterwards", "in")
_PLAYER_LETTER = re.compile(r"player\s+([a-z0-9])", re.IGNORECASE)
# the judge's words that open a finding, before a pronoun that starts it (`I determined that she ...`)
_FINDING = (r"(?:(?:i|we)\s+(?:then\s+|later\s+|also\s+)?(?:determined|found|confirmed|established|concluded|"
            r"verified|learned|learnt)|it\s+turned\s+out|turns\s+out|it\s+was\s+clear)\s+(?:that\s+)?")


def mentions(sentence: str, context: Context, vocab: Vocabulary) -> list[tuple[int, int, str]] | Refusal:
    """(start, end, name) of each person the sentence names."""
    found: list[tuple[int, int, str]] = []
    declared = {name.lower() for name in context.names}
    for name in sorted(context.names, key=len, reverse=True):
        # (`Kims deck`, typed fast: Kim's, where no declared name is written so; matching.py
        # reads the `s` as the possessive)
        owner = "" if f"{name}s".lower() in declared or name.lower().endswith("s") else r"(?=s\b)|"
        pattern = r'"?(?<![\w\'-])' + r"\s+".join(map(re.escape, name.split())) + rf'(?:{owner}(?![\w-]|\'(?!s\b)))"?'
        if not name.lower().startswith(("player ", "player-")):
            # (`Player Kim stated ...`, as formal write-ups name a player: the word is the name's)
            pattern = r"(?:(?<![\w'-])player\s+)?" + pattern
        short = _PLAYER_LETTER.fullmatch(name)
        if short:       # `PA` for `Player A` (`P1` for `Player 1`), as judges shorten it
            pattern = rf"(?:{pattern}|(?<![\w'-])P{re.escape(short.group(1))}(?![\w'-]))"
        for match in re.finditer(pattern, sentence, re.IGNORECASE):
            if not any(s < match.end() and match.start() < e for s, e, _ in found):
                found.append((match.start(), match.end(), name))
    reading = vocab.reading
    pronouns = {args[0] for args in reading.get("read_pronoun", [])}
    first = re.match(rf"\s*(?:{_FINDING})?([^\W\d_]+)\b", sentence, re.IGNORECASE)
    if first and first.group(1).lower() in pronouns and context.previous:
        found.append((first.start(1), first.end(1), context.previous))
    elif context.previous and pronouns:
        # (after a leading clause that names no one: `While shuffling she dropped the deck`)
        lead = re.match(rf"\s*(?:{'|'.join(_LEADING)})\b[^,.;:!?\"\u201c]*?\b({'|'.join(map(re.escape, pronouns))})\b",
                        sentence, re.IGNORECASE)
        if lead and not any(s < lead.end() for s, _, _ in found):
            found.append((lead.start(1), lead.end(1), context.previous))
    opponents = "|".join(re.escape(args[0]) for args in reading.get("read_opponent", []))
    if opponents:
        for match in re.finditer(rf"\b(?:the|her|his|their)\s+(?:{opponents})\b", sentence, re.IGNORECASE):
            if any(s < match.end() and match.start() < e for s, e, _ in found):
                continue
            named = next((m for m in found if re.fullmatch(r",?\s+", sentence[match.end():m[0]])), None)
            if named is not None:       # `her opponent Kim`: the opponent is the one named
                found[found.index(named)] = (match.start(), named[1], named[2])
                continue
            other = _opponent(match.start(), found, context)
            if isinstance(other, Refusal):
                other.column = match.start() + 1
                return other
            found.append((match.start(), match.end(), other))
        # `Saki's opponent`: the other of two players, named where the name stands
        for match in re.finditer(rf"(?:'|\u2019)?s\s+(?:{opponents})\b", sentence, re.IGNORECASE):
            whose = next((m for m in found if m[1] == match.start()), None)
            if whose is None or whose[2] not in context.players:
                continue
            if len(context.players) != 2:
                return Refusal(f"`{whose[2]}'s opponent` names the other player where the report declares "
                               f"exactly two players; it declares {len(context.players)}: write the name",
                               whose[0] + 1)
            other = next(p for p in context.players if p != whose[2])
            found[found.index(whose)] = (whose[0], match.end(), other)
    found.extend(_quoted(sentence, found, context))
    spectators = [name for name in context.names if name not in context.players]
    for match in re.finditer(r"\bthe\s+spectator\b", sentence, re.IGNORECASE):
        if len(spectators) == 1 and not any(s < match.end() and match.start() < e for s, e, _ in found):
            found.append((match.start(), match.end(), spectators[0]))     # the one the report declares
    return sorted(found)


def _opponent(at: int, found: list[tuple[int, int, str]], context: Context) -> str | Refusal:
    """The other player of the one a sentence speaks of before `the opponent` (else of
    the previous subject), where the report declares exactly two players."""
    if len(context.players) != 2:
        return Refusal(f"`the opponent` names the other player where the report declares exactly two players; "
                       f"it declares {len(context.players)}: write the name")
    before = [name for start, _, name in found if start < at]
    whose = before[0] if before else context.previous or (found[0][2] if found else None)
    if whose not in context.players:
        return Refusal("`the opponent` of whom? name a player first")
    return next(p for p in context.players if p != whose)


_QUOTE = re.compile(r"[\"\u201c]([^\"\u201c\u201d]+)[\"\u201d]")
# what stands between a person and her words quoted (`Kim: "...`, `Lee said "...`, `Chidi's account: "...`)
_SPEAKS = re.compile(r"(?:'s\s+(?:account|statement|version|words|story)|,?\s+(?:in\s+(?:her|his|their)\s+own\s+words"
                     r"|(?:says|said|states|stated|claims|claimed|tells\s+me|told\s+me|explains|explained|admits|admitted"
                     r"|insists|insisted|replies|replied|answers|answered|asks|asked|adds|added)))?\s*[:,]?\s*$", re.IGNORECASE)
_FIRST_PERSON = re.compile(r"(?<![\w'-])(?:i|me|myself)(?![\w-]|'(?!m\b|ve\b|d\b|ll\b))", re.IGNORECASE)
_THIRD_PERSON = re.compile(r"(?<![\w'-])(?:she|he|her|him)(?![\w'-])", re.IGNORECASE)


def _quoted(sentence: str, found: list[tuple[int, int, str]], context: Context) -> list[tuple[int, int, str]]:
    """Who the pronouns of a person's words quoted stand for: `I` and `me` for the speaker (`Lee:
    "I drew two"`: Lee, never the judge), `she` and `him` for the other of two players where the
    report declares no one else (`Chidi's account: "She kept muttering that I'm a clown"`)."""
    out: list[tuple[int, int, str]] = []
    for quote in _QUOTE.finditer(sentence):
        before = [m for m in found if m[1] <= quote.start()]
        if not before:
            continue
        _, said_at, speaker = max(before, key=lambda m: m[1])
        if not _SPEAKS.fullmatch(sentence, said_at, quote.start()):
            continue
        if any(quote.start() < s < quote.end() for s, _, _ in found):
            continue        # (a quote that names someone: its pronouns are not the reader's to place)
        inner = quote.start(1)
        out += [(inner + m.start(), inner + m.end(), speaker) for m in _FIRST_PERSON.finditer(quote.group(1))]
        others = [p for p in context.players if p != speaker]
        if speaker in context.players and len(context.players) == 2 and len(context.names) == 2:
            out += [(inner + m.start(), inner + m.end(), others[0]) for m in _THIRD_PERSON.finditer(quote.group(1))]
    return out

