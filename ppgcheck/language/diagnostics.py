"""Syntax errors a person can act on: where, what fits there, and the closest valid forms.

`expected:` lists only what fits the line's context: a line that starts like a header
(`polcy: fab`) lists the headers, not the verbs an observation could continue with;
where many words fit, those closest to the word typed come first.  A name the grammar
cannot read bare gets the advice to quote it.
"""
from __future__ import annotations

import difflib
import re

import lark

from ppgcheck.errors import ReportError
from ppgcheck.language.names import INVISIBLE
from ppgcheck.language.names import parse as parse_with_names
from ppgcheck.language.grammar import Language
from ppgcheck.language.vocabulary import Vocabulary, value_text

MAX_EXPECTED = 8
# text compared by difflib (quadratic in its length) is cut to this many characters: a
# 30,000-character name or line took minutes to match against the names and forms
FUZZY_AT_MOST = 120
# the words of a declared name tried as the start of an undeclared one (`Player B`): a
# 10,000-word name compiled a pattern for each prefix, minutes in all
NAME_WORDS_AT_MOST = 8


def _fuzzy(text: str) -> str:
    return text[:FUZZY_AT_MOST]


def close_names(name: str, names: list[str]) -> list[str]:
    """Up to 3 declared names like a name (as difflib finds them, on their first characters)."""
    cut = {_fuzzy(n): n for n in names}
    return [cut[n] for n in difflib.get_close_matches(_fuzzy(name), list(cut), n=3)]


def _similarity(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, _fuzzy(a), _fuzzy(b)).ratio()


_TERMINAL_WORDS = {"NAME": "a name", "QNAME": "a quoted name", "OPPONENT": "`the opponent`",
                   "PRONOUN": "`she`, `he` or `they`", "INT": "a number",
                   "ID": "an id like `hidden-card-error`", "_NL": "end of line",
                   "SEPARATOR": "`---`", "$END": "end of file", "COMMA": "`,`", "COLON": "`:`"}
_HEADER_START = re.compile(r"\s*([^\W\d]\w*(?: \w+)?)\s*:")
_DECLARATION = re.compile(r"\s*(player|spectator)\s*:\s*(.*?)\s*\.?\s*(#.*)?$", re.IGNORECASE)


def _line(lines: list[str], n: int) -> str:
    return lines[n - 1] if 0 < n <= len(lines) else ""


def _describe(lang: Language, terminal: str) -> str:
    if terminal in _TERMINAL_WORDS:
        return _TERMINAL_WORDS[terminal]
    if terminal in lang.keyword_words:
        return f"`{lang.keyword_words[terminal]}`"
    try:
        pattern = lang.parser.get_terminal(terminal).pattern
    except KeyError:
        return terminal.lower()
    return f"`{pattern.value}`"


def syntax_error(exc: lark.exceptions.UnexpectedInput, lines: list[str], source: str,
                 lang: Language, closest_forms: bool = True) -> ReportError:
    """The error for a strict parse's failure; `closest_forms`: with the language's forms
    nearest the line as suggestions (the costly part)."""
    line = getattr(exc, "line", None)
    column = getattr(exc, "column", None)
    if not isinstance(line, int) or line < 1:
        line, column = max(len(lines), 1), len(_line(lines, len(lines))) + 1
    line_text = _line(lines, line)
    hidden = INVISIBLE.match(line_text, column - 1)
    if hidden:      # invisible: the line would read as something it is not
        return ReportError(f"bidi control or zero-width character U+{ord(hidden.group()):04X} is not allowed in a "
                           "report", source, line, column, INVISIBLE.sub("?", line_text))
    if isinstance(exc, lark.exceptions.UnexpectedToken) and exc.token.type == "$END":
        found_text, found = "", "end of file"
    else:
        rest = line_text[column - 1:].split()
        found_text = rest[0] if rest else ""
        found = f"`{found_text}`" if found_text else "end of line"
    vocab = lang.vocab
    names = _declared(lines[:line - 1])
    keyword = _misread_name(lines, line, names, lang)
    if keyword:
        at, column = names[keyword]
        role = _DECLARATION.match(_line(lines, at)).group(1).lower()
        return ReportError(f"`{keyword}` is a word of the report language: quote the name, `{role}: \"{keyword}\"`, "
                           "and write it quoted wherever it is used", source, at, column, _line(lines, at))
    undeclared = _undeclared_words(line_text, column, found_text, names)
    if undeclared:
        start, phrase = undeclared
        return ReportError(f"`{phrase}` is not declared (declared: {', '.join(f'`{n}`' for n in names)}): add a "
                           f"`player: {phrase}` or `spectator: {phrase}` line", source, line, start, line_text,
                           suggestions=close_names(phrase, list(names)),
                           suggesting="declared names like it")
    declared = _DECLARATION.match(line_text)
    if declared and column > declared.start(2):
        name, role = declared.group(2), declared.group(1).lower()
        if name.startswith('"'):
            message = 'a quoted name ends with `"` on the same line (write `\\"` for a quote inside it)'
        else:
            message = (f"quote a name that is not one word of letters and digits (`-`, `'` and `.` inside): "
                       f"`{role}: \"{name}\"`")
        return ReportError(message, source, line, declared.start(2) + 1, line_text)
    header = _HEADER_START.match(line_text)
    if header and header.group(1).lower() not in header_keys(vocab) and column >= header.end() \
            and header.group(1) not in names:
        keys = sorted(header_keys(vocab))
        close = difflib.get_close_matches(_fuzzy(header.group(1).lower()), keys, n=3, cutoff=0.5)
        return ReportError(f"unknown header `{header.group(1)}`", source, line, 1, line_text,
                           expected=[f"`{k}:`" for k in keys],
                           suggestions=[c for k in close for c in header_lines(vocab, k)][:3])
    terminals = sorted(getattr(exc, "expected", None) or getattr(exc, "allowed", None) or [])
    expected = sorted({_describe(lang, t) for t in terminals})
    if len(expected) > MAX_EXPECTED:
        word = found_text.lower()
        closest = sorted(expected, key=lambda e: -_similarity(word, e.strip("`")))
        expected = closest[:MAX_EXPECTED] + [f"... {len(expected) - MAX_EXPECTED} more (`ppgcheck vocab` lists "
                                              "every form)"]
    message = f"unexpected {found}"
    if found_text and found_text.lower().rstrip(".,") in lang.must_quote and "a name" in expected:
        message += f" (a name that is a word of the report language is quoted: `\"{found_text}\"`)"
    return ReportError(message, source, line, column, line_text, expected=expected,
                       suggestions=nearest_forms(line_text, column, vocab) if closest_forms else [])


def _undeclared_words(line_text: str, column: int, found: str, names: dict) -> tuple[int, str] | None:
    """(column, words) of a name of several words that no one declared, when the error is at a
    word after the start of a declared one (`Player B` where `Player A` is declared)."""
    before = line_text[:column - 1]
    for name in names:
        words = name.split()
        for count in range(min(len(words) - 1, NAME_WORDS_AT_MOST), 0, -1):
            opening = re.search(r"(?<![\w'.\-])" + r"[ \t]+".join(map(re.escape, words[:count])) + r"[ \t]+\Z",
                                before, re.IGNORECASE)
            if opening and found and found.lower() != words[count].lower():
                return opening.start() + 1, before[opening.start():] + found.rstrip(".,")
    return None


def _misread_name(lines: list[str], line: int, names: dict[str, tuple[int, int]], lang: Language) -> str | None:
    """A declared bare name the grammar read as a keyword on the error's line (`player:
    round`, then `round stalled`): the one whose quoting there and in its declaration
    lets the parse get past that line."""
    for name, (at, column) in names.items():
        word = re.compile(rf"(?<![\w'.\-]){re.escape(name)}(?![\w\-]|'\w|\.\w)")
        if name.lower() not in lang.must_quote or not word.search(_line(lines, line)):
            continue
        fixed = list(lines)
        fixed[line - 1] = word.sub(f'"{name}"', fixed[line - 1])
        declaration = fixed[at - 1]     # (the name only: in `player: player` the first is the keyword)
        fixed[at - 1] = declaration[:column - 1] + word.sub(f'"{name}"', declaration[column - 1:], count=1)
        try:
            parse_with_names(lang, "\n".join(fixed) + "\n")
        except lark.exceptions.UnexpectedInput as exc:
            if not isinstance(getattr(exc, "line", None), int) or exc.line <= line:
                continue
        return name
    return None


def _declared(lines: list[str]) -> dict[str, tuple[int, int]]:
    """The names declared in these lines (as written), with the line and column of each."""
    names: dict[str, tuple[int, int]] = {}
    for number, text in enumerate(lines, start=1):
        found = _DECLARATION.match(text)
        if found:
            names.setdefault(found.group(2), (number, found.start(2) + 1))
    return names


def header_keys(vocab: Vocabulary) -> set[str]:
    return {f.text.split(":")[0] for f in vocab.headers if ":" in f.text and not f.text.startswith("{")}


def header_lines(vocab: Vocabulary, key: str) -> list[str]:
    """Every concrete line of one header (`rel: casual`, `rel: regular`, ...)."""
    values = {"rel": vocab.values.get("rel", []), "event": vocab.values.get("event_kind", []),
              "game": vocab.values.get("game_kind", []),
              "round_kind": [v for v in vocab.values.get("round_kind", []) if v != "draft"],
              "when": [re.sub(r"\{\w+\}", "1", f.text) for f in vocab.when.values()]}
    lines = []
    for form in vocab.headers:
        if not form.text.startswith(key + ":"):
            continue
        text = form.text
        for slot, options in values.items():
            if "{" + slot + "}" in text:
                lines += [text.replace("{" + slot + "}", value_text(o)) for o in options]
                break
        else:
            lines.append(template(text))
    return [re.sub(r"\{\w+\}", "N", line) for line in lines]


def _shape(text: str) -> str:
    text = re.sub(r'"(?:[^"\\]|\\.)*"', "P", text.strip().rstrip("."))
    return re.sub(r"\b\d+\b", "N", text).lower()


def template(form_text: str) -> str:
    """A form as `vocab` and errors show it: P and Q for names, N for numbers."""
    out = form_text.replace("{P}", "P").replace("{Q}", "Q").replace("{name}", "P")
    return re.sub(r"\{\w+\}", "N", out)


def nearest_forms(line_text: str, column: int, vocab: Vocabulary, limit: int = 3) -> list[str]:
    """The forms of the language nearest to the text around the error."""
    header = _HEADER_START.match(line_text)
    if header and header.group(1).lower() in header_keys(vocab):
        candidates = header_lines(vocab, header.group(1).lower())
        shaped = line_text.strip().lower()
        return sorted(candidates, key=lambda c: -_similarity(shaped, c))[:limit]
    start = line_text.rfind(",", 0, max(column - 1, 0))
    if start >= 0:  # the error sits in a modifier
        segment = line_text[start + 1:].split(",")[0]
        kinds = [[f.text for f in forms] for forms in vocab.modifiers.values()]
        shaped = _shape(segment)
    else:
        # the observation only: its modifiers after the next comma matched other forms'
        # words (`..., mixed into her hand` put the opening-hand forms first)
        end = line_text.find(",", max(column - 1, 0))
        observed = line_text if end < 0 else line_text[:end]
        words = observed.strip().split(None, 1)
        shaped = _shape("P " + words[1]) if len(words) == 2 else _shape(observed)
        kinds = [[f.text for f in forms] for forms in vocab.observations.values()] + [[f.text] for f in vocab.headers]
        kinds += [[f.text for f in forms] for forms in vocab.states.values()]
        if line_text.lstrip().lower().startswith("it "):
            kinds = [["It " + f.text for f in forms] for forms in vocab.modifiers.values()]
            shaped = _shape(line_text)

    def score(text: str) -> float:
        return _similarity(shaped, template(text).lower())
    # one form of each kind, the one nearest the text (the canonical one on a tie)
    best = [max(texts, key=lambda t: (score(t), -texts.index(t))) for texts in kinds]
    return [template(c) for c in sorted(best, key=lambda t: -score(t))[:limit]]
