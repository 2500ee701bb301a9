"""A pack's report grammar: the fixed skeleton (grammar/report.lark) and the rules generated
from its vocabulary's forms, built into one LALR parser per vocabulary.

Each generated alternative is aliased `form_<n>`, the n-th entry of `Language.forms`,
so the tree says which form (synonyms included) a statement was written in.  The parser
of a vocabulary is kept in ppgcheck's cache folder (ppgcheck/cache.py) with its forms,
under a key made of what the grammar text is generated from (the skeleton, the
vocabulary's key, this module's and the vocabulary module's code): a process that finds
it generates no text, and only a new vocabulary pays for new LALR tables.
"""
from __future__ import annotations

import dataclasses
import logging
import re
from functools import cache, cached_property

import lark

from ppgcheck.errors import PolicyError
from ppgcheck.language import parser_cache
from ppgcheck.cache import code_digest
from ppgcheck.language.vocabulary import PERSON_SLOTS, Form, Vocabulary, value_text
from ppgcheck.resources import grammar_dir

# a form's text: {slots}, the possessive `'s`, and words
_TOKEN = re.compile(r"\{(\w+)\}|('s)\b|(,|[^\s{},]+)")
# the header each generated value rule gives the values of
VALUE_RULES = {"rel": "rel_value", "event_kind": "event_value", "game_kind": "game_value",
               "round_kind": "round_kind"}
# a form's subject may be followed by an adverb unless the next word joins a second name
_NOT_A_VERB = {"and", "'s"}
# A keyword ends where a bare name (report.lark: NAME) would: never before a letter, digit
# or `_`, nor before `-`, `.` or `'` (but `'s`) that a name continues with, so `a` never
# reads the start of `Ada`.  Keywords are terminals of their own, above NAME: a whole word
# that is a keyword where both fit is the keyword (a name like it is quoted).
WORD_END = r"(?!\w|[.\-]\w|'(?!s\b)\w)"
KEYWORD_PREFIX = "_KW_"   # `_`: kept out of the tree, as a plain string is
_KEYWORD_PRIORITY = 2
_SKELETON_WORD = re.compile(r'"([a-z]+)"i')
# the words read as a pronoun wherever a person stands (names.py): a name like one is quoted
PRONOUNS = ("she", "he", "they")


@cache
def skeleton() -> str:
    return (grammar_dir() / "report.lark").read_text(encoding="utf-8")


@cache
def tokens(text: str) -> tuple[tuple[str, str], ...]:
    """A form's text as ("slot", name) and ("word", word) items (kept: printing an
    observation reads its form's every time)."""
    out = []
    for match in _TOKEN.finditer(text):
        slot, possessive, word = match.groups()
        out.append(("slot", slot) if slot else ("word", possessive or word))
    return tuple(out)


def unit_positions(items: list[tuple[str, str]], vocab: Vocabulary) -> dict[int, str]:
    """The words that agree with a number before them (`2 extra cards`): position -> count key."""
    found: dict[int, str] = {}
    for i, (what, name) in enumerate(items):
        if what != "slot" or name in PERSON_SLOTS or name not in vocab.units:
            continue
        words = {w for pair in vocab.units[name] for w in pair}
        for j in range(i + 1, min(i + 3, len(items))):
            if items[j][0] == "word" and items[j][1].lower() in words:
                found[j] = name
                break
    return found


def _string(word: str) -> str:
    flag = "i" if any(c.isalpha() for c in word) else ""     # `,` is the skeleton's own terminal
    return '"' + word.lower().replace("\\", "\\\\").replace('"', '\\"') + '"' + flag


def keyword_word(pattern: lark.lexer.Pattern) -> str | None:
    """The word a keyword terminal's pattern matches (None: not a keyword's)."""
    if isinstance(pattern, lark.lexer.PatternStr):
        return pattern.value.lower() if any(c.isalpha() for c in pattern.value) else None
    if not pattern.value.endswith(WORD_END):
        return None
    return re.sub(r"\\(.)", r"\1", pattern.value[:-len(WORD_END)])


class _Generator:
    """Writes the generated rules, numbering each alternative after its form."""

    def __init__(self, vocab: Vocabulary) -> None:
        self.vocab = vocab
        self.forms: list[Form] = []
        self.numbers: dict[str, str] = {}      # count key -> its number rule
        self.classes = {w: words for words in vocab.word_classes.values() for w in words}
        self.keywords: dict[str, str] = {}     # a word -> its keyword terminal

    def literal(self, word: str) -> str:
        """A word of a form or of the skeleton: a keyword terminal when it ends in a letter or
        digit (whole words only, WORD_END), else a plain string (`,`, `:`)."""
        word = word.lower()
        if not any(c.isalpha() for c in word) or not re.match(r"\w", word[-1]):
            return _string(word)
        if word not in self.keywords:
            base = KEYWORD_PREFIX + re.sub(r"[^A-Z0-9]", "_", word.upper())
            taken = set(self.keywords.values())
            self.keywords[word] = base if base not in taken else f"{base}_{len(self.keywords)}"
        return self.keywords[word]

    def group(self, words: list[str]) -> str:
        return "(" + " | ".join(self.literal(w) for w in dict.fromkeys(words)) + ")"

    def keyword_terminals(self) -> str:
        lines = []
        for word, terminal in self.keywords.items():
            pattern = (re.escape(word) + WORD_END).replace("/", "\\/")
            lines.append(f"{terminal}.{_KEYWORD_PRIORITY}: /{pattern}/i\n")
        return "".join(lines)

    def alternative(self, form: Form, adverb: bool = False) -> str:
        items = tokens(form.text)
        units = unit_positions(items, self.vocab)
        adverb_at = None
        if adverb and self.vocab.adverbs:
            adverb_at = next((i for i, (what, name) in enumerate(items[:-1])
                              if what == "slot" and name in PERSON_SLOTS and items[i + 1][0] == "word"
                              and items[i + 1][1].lower() not in _NOT_A_VERB), None)
        out = []
        for i, (what, name) in enumerate(items):
            if what == "slot":
                out.append("person" if name in PERSON_SLOTS else self.number(name))
            elif i in units:
                out.append(self.group([w for pair in self.vocab.units[units[i]] for w in pair]))
            elif name.lower() in self.classes:
                out.append(self.group(self.classes[name.lower()]))
            else:
                out.append(self.literal(name))
            if i == adverb_at:
                out.append("adverb?")
        self.forms.append(form)
        return " ".join(out) + f"  -> form_{len(self.forms) - 1}"

    def number(self, key: str) -> str:
        """A rule of its own for the numbers of each key: where an error stops after a number,
        it expects what follows that key's numbers, not every number's."""
        return self.numbers.setdefault(key, f"n_{len(self.numbers)}")

    def rule(self, name: str, forms: list[Form], adverb: bool = False) -> str:
        """A rule with an alternative per form (one that never matches when there is none:
        a core without `game:` values, say)."""
        alternatives = [self.alternative(f, adverb) for f in forms] or ["_NO_FORM"]
        return f"{name}: " + "\n    | ".join(alternatives) + "\n"

    def tally_rule(self, forms: list[Form]) -> str:
        """`score: Alice 1, Bob 0`: a tally's words, a colon, then name/number pairs."""
        alternatives = []
        for form in forms:
            self.forms.append(form)
            words = " ".join(self.literal(w) for what, w in tokens(form.text))
            alternatives.append(f'{words} ":" tally_pair ("," tally_pair)*  -> form_{len(self.forms) - 1}')
        return "tally: " + "\n    | ".join(alternatives or ["_NO_FORM"]) + "\n"

    def text(self) -> str:
        v = self.vocab
        rules = [self.rule("obs_phrase", [f for forms in v.observations.values() for f in forms], adverb=True),
                 self.rule("modifier", [f for forms in v.modifiers.values() for f in forms])]
        if v.adverbs:
            rules.append(self.rule("adverb", [f for forms in v.adverbs.values() for f in forms]))
        rules.append(self.rule("state_phrase", [f for forms in v.states.values() for f in forms]))
        rules.append(self.tally_rule([f for forms in v.tallies.values() for f in forms]))
        rules.append(self.rule("number_word", [Form("number", str(n), w, f"N = {n}") for w, n in v.numbers.items()]))
        for header, rule in VALUE_RULES.items():
            rules.append(self.rule(rule, [Form("value", value, value_text(value), f"{header}({value})")
                                          for value in v.values.get(header, [])]))
        rules.append(self.rule("when_value", list(v.when.values())))
        rules += [f"{rule}: INT -> number\n    | number_word -> number\n" for rule in self.numbers.values()]
        rules.append("_NO_FORM: /(?!)./\n")
        return "\n".join(rules)


class Language:
    """The parser of one vocabulary, and what printing and errors need of it."""

    def __init__(self, vocab: Vocabulary, forms: list[Form], parser: lark.Lark, text: str | None = None) -> None:
        self.vocab = vocab
        self.forms = forms          # the form each generated alternative `form_<n>` parses
        self.parser = parser
        self._text = text

    @property
    def text(self) -> str:
        """The whole grammar (generated again when the parser came from the cache)."""
        if self._text is None:
            self._text = grammar_text(self.vocab)[0]
        return self._text

    @cached_property
    def must_quote(self) -> frozenset[str]:
        """The keywords a bare name would be read as: each keyword the parser accepts in
        some state where it also accepts a name, and the pronouns."""
        states = self.parser.parser.parser._parse_table.states
        words: set[str] = set()
        for actions in states.values():
            if "NAME" not in actions:
                continue
            for terminal in actions:
                if terminal not in self._terminals:
                    continue
                word = self.keyword_words.get(terminal)
                if word is not None:
                    words.add(word)
        if "PRONOUN" in self._terminals:
            words.update(PRONOUNS)
        return frozenset(words)

    @cached_property
    def bare_name(self) -> re.Pattern:
        """The grammar's bare name (NAME)."""
        return re.compile(self.parser.get_terminal("NAME").pattern.to_regexp())

    @cached_property
    def _terminals(self) -> frozenset[str]:
        return frozenset(t.name for t in self.parser.terminals)

    @cached_property
    def keyword_words(self) -> dict[str, str]:
        """Each keyword terminal's word (`_KW_THE` -> `the`)."""
        found = {t.name: keyword_word(t.pattern) for t in self.parser.terminals}
        return {name: word for name, word in found.items() if word is not None}

    @cached_property
    def keywords(self) -> frozenset[str]:
        """Every literal word of the grammar."""
        return frozenset(self.keyword_words.values())


_LANGUAGES: dict[str, Language] = {}


def language(vocab: Vocabulary) -> Language:
    """The language of a vocabulary (one per process and vocabulary)."""
    found = _LANGUAGES.get(vocab.key)
    if found is None:
        found = _LANGUAGES[vocab.key] = _build(vocab)
    return found


def grammar_text(vocab: Vocabulary) -> tuple[str, list[Form]]:
    """The grammar of a vocabulary: the skeleton and the generated rules, and the forms
    the generated alternatives parse."""
    generator = _Generator(vocab)
    fixed = _SKELETON_WORD.sub(lambda found: generator.literal(found.group(1)), skeleton())
    text = fixed + "\n// --- generated from the vocabulary ---\n" + generator.text()
    return text + "\n// keywords: whole words only\n" + generator.keyword_terminals(), generator.forms


def _generated_from(vocab: Vocabulary) -> str:
    """What a vocabulary's grammar text is made from: the skeleton, the vocabulary (its
    key is its content's digest) and the code that generates the rules (the package's)."""
    return f"{vocab.key}\0{code_digest()}\0{skeleton()}"


# how every report parser is built (part of its cache key: a kept parser built otherwise is not used)
_LARK_OPTIONS = {"parser": "lalr", "lexer": "contextual", "propagate_positions": True, "maybe_placeholders": False}


def _build(vocab: Vocabulary) -> Language:
    """The language of a vocabulary: its LALR parser and forms, kept in ppgcheck's cache
    folder.  Lark resolves a shift/reduce conflict by shifting, which would silently
    shadow a form: a grammar with one is refused (and its parser is not kept)."""
    path = parser_cache.path_for(_generated_from(vocab), repr(sorted(_LARK_OPTIONS.items())))
    if path is not None:
        kept = parser_cache.load_kept(path)
        if kept is not None:
            parser, forms = kept
            return Language(vocab, [Form(*fields) for fields in forms], parser)
    text, forms = grammar_text(vocab)
    conflicts: list[str] = []
    capture = _Capture(conflicts)
    saved = (lark.logger.handlers[:], lark.logger.level)
    lark.logger.handlers[:] = [capture]
    lark.logger.setLevel(logging.DEBUG)
    where = f"policy `{vocab.pack}`" if vocab.pack else "the core vocabulary"
    try:
        parser = lark.Lark(text, **_LARK_OPTIONS)
    except lark.exceptions.GrammarError as exc:
        detail = " ".join(str(exc).split())[:300]
        raise PolicyError(f"the forms of {where} make the report language ambiguous: {detail}") from None
    finally:
        lark.logger.handlers[:], level = saved
        lark.logger.setLevel(level)
    if conflicts:
        raise PolicyError(f"the forms of {where} make the report language ambiguous: "
                          + "; ".join(conflicts[:2]))
    if path is not None:
        parser_cache.keep(parser, [dataclasses.astuple(f) for f in forms], path)
    return Language(vocab, forms, parser, text)


class _Capture(logging.Handler):
    """Collects the shift/reduce conflicts Lark reports while it builds the tables."""

    def __init__(self, conflicts: list[str]) -> None:
        super().__init__(logging.DEBUG)
        self.conflicts = conflicts
        self.pending = False

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if message.startswith("Shift/Reduce conflict"):
            self.conflicts.append(message.split(":")[0].replace("terminal ", "the word ").lower())
            self.pending = True
        elif self.pending and message.startswith(" * "):
            self.conflicts[-1] += f" in `{message[3:].strip()}`"
            self.pending = False
