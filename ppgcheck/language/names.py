"""Names as a report's header declares them, `the opponent`, and pronouns.

A name declared in a `player:` / `spectator:` line is read in the report's other lines as
written there, spaces included, without quotes (`player: Player A`, then `Player A drew
...`), and without regard to case: the name is always the declared spelling, so two names
that differ in case only are one name declared twice.  Where a declared name is as long as
a keyword that fits there, the keyword wins and the name is quoted (`player: "round"`), as
before; the longest declared name wins where one starts another (`Lee`, `Lee Ann`), and a
declared name wins over a pronoun or `the opponent` as long as it.

`the opponent` (`her`, `his`, `their opponent`) is the other player of a report that
declares exactly two; a pronoun (`she`, `he`, `they`) starting a statement is the subject
of the statement before.  The lexer below finds these (the grammar's OPPONENT and PRONOUN
terminals match nothing by themselves); ReportBuilder resolves them to declared names
(Resolver), so a report holds only declared names and prints them.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

import lark
from lark import Token
from lark.exceptions import UnexpectedCharacters, UnexpectedToken
from lark.lexer import LexerThread

from ppgcheck.errors import ReportError
from ppgcheck.language.grammar import PRONOUNS, WORD_END, Language, tokens

# a bare name's word (report.lark: NAME), and a declared bare name: such words and spaces
_WORD = r"(?!\d+\b)\w+(?:(?:[.\-]|'(?!s\b))\w+)*"
_DECLARATION = re.compile(rf"""[ \t]*(player|spectator)[ \t]*:[ \t]*
    (?:"(?P<quoted>(?:[^"\\\n\r]|\\["\\])*)"|(?P<bare>{_WORD}(?:[ \t]+{_WORD})*))
    [ \t]*\.?[ \t]*(?:\#.*)?\r?\Z""", re.IGNORECASE | re.VERBOSE)
_SEPARATOR = re.compile(r"[ \t]*---+[ \t]*\.?[ \t]*(#.*)?\r?\Z")
_ESCAPE = re.compile(r'\\(["\\])')
_SPACES = re.compile(r"[ \t]*")
OPPONENT = re.compile(r"(?:the|her|his|their)[ \t]+opponent" + WORD_END, re.IGNORECASE)
_PRONOUN = re.compile("(?:" + "|".join(PRONOUNS) + ")" + WORD_END, re.IGNORECASE)
# bidi controls and zero-width characters: a name holding one looks like another name
INVISIBLE = re.compile(r"[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")


@dataclass
class Name:
    """A person's name as a statement uses it (declared spelling), with its token (for the
    error's place)."""
    value: str
    token: Token


@dataclass
class Declared:
    """The persons one report declares: (name, role, line) in order."""
    first: int                       # the report's first and last line (1-based)
    last: int
    persons: list[tuple[str, str, int]] = field(default_factory=list)

    @property
    def players(self) -> list[str]:
        return list(dict.fromkeys(n for n, role, _ in self.persons if role == "player"))

    def role(self, name: str) -> str | None:
        return next((role for n, role, _ in self.persons if n == name), None)

    def spelling(self, name: str) -> str:
        """The declared spelling of a name (the first declaration's), else the name as written."""
        folded = name.casefold()
        return next((n for n, _, _ in self.persons if n.casefold() == folded), name)

    @cached_property
    def patterns(self) -> list[tuple[str, re.Pattern]]:
        """Each declared name as the body reads it, the longest first."""
        names = sorted(dict.fromkeys(n for n, _, _ in self.persons), key=len, reverse=True)
        return [(n, _pattern(n)) for n in names]


@lru_cache(maxsize=512)
def _pattern(name: str) -> re.Pattern:
    words = [re.escape(w) for w in name.split()]
    ends = WORD_END if re.match(r"\w", name[-1:]) else ""
    return re.compile(r"[ \t]+".join(words) + ends, re.IGNORECASE)


def declarations(lines: list[str]) -> list[Declared]:
    """The persons each report of a file's lines declares (reports are separated by `---`
    lines), read before the report is parsed: its names are read as declared everywhere."""
    reports = [Declared(1, len(lines))]
    for number, text in enumerate(lines, start=1):
        if _SEPARATOR.match(text):
            reports[-1].last = number - 1
            reports.append(Declared(number + 1, len(lines)))
            continue
        found = _DECLARATION.match(text)
        if found:
            quoted = found.group("quoted")
            name = found.group("bare") if quoted is None else _ESCAPE.sub(r"\1", quoted)
            reports[-1].persons.append((name, found.group(1).lower(), number))
    return reports


def declared_at(reports: list[Declared], line: int) -> Declared:
    return next((r for r in reports if r.first <= line <= r.last), reports[-1])


# ---------------------------------------------------------------------------
# the lexer
# ---------------------------------------------------------------------------

def parse(lang: Language, text: str) -> lark.Tree:
    """Parse a report's text with the names its headers declare read as declared."""
    frontend = lang.parser.parser
    lexer = _NamesLexer(frontend.lexer, declarations(text.split("\n")), lang)
    return frontend.parser.parse(LexerThread.from_text(lexer, text), "start")


@lru_cache(maxsize=16)
def _form_openings(lang: Language) -> tuple[re.Pattern, ...]:
    """The words before the first slot of each form that starts like `the opponent` (`the
    opponent could not notice it`): there the words are the form's, not a person."""
    openings = set()
    for form in lang.forms:
        words = []
        for what, word in tokens(form.text):
            if what == "slot":
                break
            words.append(word)
        if OPPONENT.match(" ".join(words)):
            openings.add(r"[ \t]+".join(map(re.escape, words)) + WORD_END)
    return tuple(re.compile(o, re.IGNORECASE) for o in sorted(openings))


class _NamesLexer:
    """Lark's contextual lexer, reading first, where a person may stand, a declared name,
    `the opponent` or a pronoun when it is longer than what the lexer reads there (or as
    long, and the lexer reads a name)."""

    def __init__(self, contextual, reports: list[Declared], lang: Language) -> None:
        self.inner, self.reports, self.lang = contextual, reports, lang

    def lex(self, lexer_state, parser_state) -> Iterator[Token]:
        # as lark.lexer.ContextualLexer.lex, with a person's name looked for first
        try:
            while True:
                lexer = self.inner.lexers[parser_state.position]
                token = self._person(lexer, lexer_state, parser_state)
                yield token if token is not None else lexer.next_token(lexer_state, parser_state)
        except EOFError:
            pass
        except UnexpectedCharacters as error:
            try:
                last_token = lexer_state.last_token
                token = self.inner.root_lexer.next_token(lexer_state, parser_state)
                raise UnexpectedToken(token, error.allowed, state=parser_state, token_history=[last_token],
                                      terminals_by_name=self.inner.root_lexer.terminals_by_name)
            except UnexpectedCharacters:
                raise error from None

    def _candidates(self, text: str, at: int, line: int, accepts) -> Iterator[tuple[str, str, int]]:
        """(terminal, value, length) of each person that starts at `at`."""
        if "NAME" in accepts:
            for name, pattern in declared_at(self.reports, line).patterns:
                found = pattern.match(text, at)
                if found:
                    yield "NAME", name, found.end() - at
                    break
        if "OPPONENT" in accepts:
            found = OPPONENT.match(text, at)
            if found and not any(o.match(text, at) for o in _form_openings(self.lang)):
                yield "OPPONENT", found.group(), found.end() - at
        if "PRONOUN" in accepts:
            found = _PRONOUN.match(text, at)
            if found:
                yield "PRONOUN", found.group(), found.end() - at

    def _person(self, lexer, lexer_state, parser_state) -> Token | None:
        accepts = parser_state.parse_conf.parse_table.states[parser_state.position]
        if "NAME" not in accepts:       # (no person stands here: most tokens)
            return None
        text, counter = lexer_state.text.text, lexer_state.line_ctr
        at = _SPACES.match(text, counter.char_pos, lexer_state.text.end).end()
        found = max(self._candidates(text, at, counter.line, accepts), key=lambda c: c[2], default=None)
        if found is None:
            return None
        terminal, value, length = found
        usual = lexer.match(lexer_state.text, at)
        if usual and (len(usual[0]) > length or (len(usual[0]) == length and usual[1] != "NAME")):
            return None
        counter.feed(text[counter.char_pos:at], test_newline=False)
        token = Token(terminal, value, at, counter.line, counter.column)
        counter.feed(text[at:at + length], test_newline=False)
        token.end_line, token.end_column, token.end_pos = counter.line, counter.column, counter.char_pos
        lexer_state.last_token = token
        return token


# ---------------------------------------------------------------------------
# resolving `the opponent` and pronouns
# ---------------------------------------------------------------------------

class Resolver:
    """The declared name each person of a report's statements stands for, in text order:
    ReportBuilder asks for each person as it reads it (statements come in order)."""

    def __init__(self, lines: list[str], fail: Callable[..., ReportError]) -> None:
        self.lines, self.fail = lines, fail
        self.reports = declarations(lines)
        self.subjects: dict[int, str] = {}        # line -> the subject of its statement

    def person(self, token: Token, value: str) -> str:
        """The declared name a person token stands for (a name as written: its declared spelling)."""
        starts = token.column == self._indent(token.line) + 1
        declared = declared_at(self.reports, token.line)
        if token.type == "PRONOUN":
            if not starts:
                raise self.fail(f"a pronoun (`{token}`) stands only at the start of a statement, for the subject "
                                "of the statement before (write the name)", token.line, token.column)
            value = self._previous_subject(token)
        elif token.type == "OPPONENT":
            value = self._opponent(token, declared, None if starts else self.subjects.get(token.line))
        else:
            value = declared.spelling(value)
        if starts:
            self.subjects[token.line] = value
        return value

    def carry(self, line: int) -> None:
        """An `It ...` line: its subject is the observation's it continues."""
        before = self._statement_before(line)
        if before and before in self.subjects:
            self.subjects[line] = self.subjects[before]

    def _indent(self, line: int) -> int:
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        return len(text) - len(text.lstrip(" \t"))

    def _statement_before(self, line: int) -> int | None:
        """The line of the statement before `line` in its report (None: it is the first)."""
        for number in range(line - 1, 0, -1):
            text = self.lines[number - 1].strip()
            if _SEPARATOR.match(text):
                return None
            if text and not text.startswith("#"):
                return number
        return None

    def _previous_subject(self, token: Token) -> str:
        """The subject of the statement before the token's (a pronoun's, or that `the opponent` is of)."""
        means = ("is the other player than the subject of its statement or of the one before"
                 if token.type == "OPPONENT" else "stands for the subject of the statement before")
        before = self._statement_before(token.line)
        if before is None:
            raise self.fail(f"`{token}` starts the report: it {means}, and there is none (write the name)",
                            token.line, token.column)
        if before not in self.subjects:
            raise self.fail(f"`{token}` {means}, and line {before} names none (write the name)",
                            token.line, token.column)
        return self.subjects[before]

    def _opponent(self, token: Token, declared: Declared, subject: str | None) -> str:
        players = declared.players
        if len(players) != 2:
            count = {0: "no player", 1: "one player"}.get(len(players), f"{len(players)} players")
            raise self.fail(f"`{token}` is the other player where a report declares exactly two, and this one "
                            f"declares {count} (write the name)", token.line, token.column)
        if subject is None:
            subject = self._previous_subject(token)
        if declared.role(subject) == "spectator":
            raise self.fail(f"`{token}` of `{subject}`: a spectator is not an opponent (write the name)",
                            token.line, token.column)
        if subject not in players:
            raise self.fail(f"`{token}` of `{subject}`: `{subject}` is not a declared player", token.line,
                            token.column)
        return players[1] if subject == players[0] else players[0]
