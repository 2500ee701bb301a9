"""Hostile reports and what ppgcheck must make of them (tests/test_fuzz.py, bench/fuzz).

Two sources of reports: the Lark grammar itself, as generated for each bundled
policy from its vocabulary and for the core alone (hypothesis.extra.lark.from_lark),
its names drawn with control characters, quotes, backslashes and characters of
every Unicode plane, its ids from the bundled packs' own; and the golden reports,
mutated byte by byte.  A file's bytes are read as `ppgcheck rule` reads them
(report by report), each report checked against its policy, ruled, and the ruling
rendered as text and JSON.  The property: each report is ruled or gets a PpgError,
and nothing else happens: any other exception is a crash.
"""
from __future__ import annotations

import io
import json
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path

import lark
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark

from ppgcheck import api
from ppgcheck.engine.policy import engine
from ppgcheck.engine.render import render_text, ruling_dict
from ppgcheck.errors import PpgError
from ppgcheck.language.grammar import keyword_word
from ppgcheck.language.report import Report, read_reports, report_language
from ppgcheck.resources import policy_ids

GOLDEN = Path(__file__).parent / "golden"

# characters a name should survive or be refused cleanly for: controls, quotes, escapes,
# invisible and joining ones, and one from each plane (BMP, SMP, SIP, TIP, SSP, private use)
ODD = ["\t", "\x00", "\x07", "\x1b", "\x7f", "\x85", '"', "\\", "'", "\u00a0", "\u200b", "\u200d", "\u2028",
       "\ufeff", "\ufffd", "\U0001F600", "\U00020000", "\U00030000", "\U000E0001", "\U000F0000", "\U0010FFFD",
       "é", "ß", "İ", "\u0301",
       # bidi controls (a name displayed reversed), a lone carriage return (CR-only line endings)
       "\u202e", "\u202a", "\u2066", "\u2069", "\u200e", "\u200f", "\r"]
CHARACTERS = st.characters(exclude_categories=("Cs",)) | st.sampled_from(ODD)


@cache
def known_ids() -> list[str]:
    """The policy, infraction and penalty ids of the bundled packs."""
    ids = set(policy_ids())
    for policy in policy_ids():
        ids |= set(engine(policy).sections) | set(engine(policy).penalties)
    return sorted(ids)


def _quoted(name: str, escape: bool) -> str:
    return '"' + (name.replace("\\", "\\\\").replace('"', '\\"') if escape else name) + '"'


def names() -> st.SearchStrategy[str]:
    hostile = st.builds(_quoted, st.text(CHARACTERS, min_size=1, max_size=12), st.booleans())
    return st.sampled_from(['"Alice"', '"Bob"', '"Al\\"ice"', '"B\\\\ob"']) | hostile


def grammar_reports() -> st.SearchStrategy[bytes]:
    """Files drawn from the report grammar of a bundled policy (generated from its
    vocabulary: the core's forms and its pack's) or of the core alone, mostly well
    formed; ids and names biased to the ones that get a report ruled, and names that
    try everything."""
    return st.sampled_from([None, *policy_ids()]).flatmap(_grammar_reports)


@cache
def _grammar_reports(policy: str | None) -> st.SearchStrategy[bytes]:
    text = report_language(policy).text
    grammar = lark.Lark(text, parser="lalr", lexer="contextual", start=list(STARTS))
    newline = st.sampled_from(["\n", "\n", "\n", "\r\n", ".\n", "  # a comment\n", "\n\n"]) | \
        st.builds(lambda t: f" # {t}\n", st.text(CHARACTERS, max_size=8))
    explicit = {
        "NAME": st.sampled_from(["Alice", "Bob", "Carol"]) | st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,8}", fullmatch=True),
        "QNAME": names(),
        "ID": st.sampled_from(known_ids()) | st.from_regex(r"[a-z][a-z0-9]{0,6}(?:[-/][a-z0-9]{1,4}){0,2}",
                                                           fullmatch=True),
        "INT": st.integers(0, 12).map(str) | st.sampled_from(["0", "00", "99999999999999999999"]),
        "_NL": newline,
        "__IGNORE_0": st.sampled_from([" ", " ", "  ", "\t"]),
        "SEPARATOR": st.sampled_from(["---", "----"]),
        "_NO_FORM": st.nothing(),       # a generated rule with no form: never matches
        # found by names.py's lexer, not by their own (never-matching) patterns
        "OPPONENT": st.sampled_from(["the opponent", "Her opponent", "their  opponent"]),
        "PRONOUN": st.sampled_from(["she", "He", "THEY"]),
    }
    for terminal in grammar.terminals:       # words apart (the grammar's spaces are optional to from_lark)
        word = keyword_word(terminal.pattern)
        if terminal.name not in explicit and word is not None:
            explicit[terminal.name] = st.sampled_from([word, word.upper(), word.capitalize()]).map(
                lambda w: f" {w} " if w[0].isalnum() else w)
    for name in ("NAME", "QNAME", "ID", "INT", "OPPONENT", "PRONOUN"):
        explicit[name] = explicit[name].map(lambda w: f" {w} ")
    whole = _lark_strategies(grammar, explicit)("start")
    declared = _with_header(grammar, explicit, policy)
    return st.integers(0, 3).flatmap(lambda n: whole if n == 0 else declared).map(lambda t: t.encode("utf-8"))


STARTS = ("start", "observation", "continuation", "header", "history_entry")


def _lark_strategies(parser: lark.Lark, explicit: dict) -> Callable[[str], st.SearchStrategy[str]]:
    """from_lark for each start of the parser, its grammar compiled once for all of them
    (from_lark compiles it again for each strategy) and without the terminals `explicit` gives
    strategies for: from_lark builds and validates a regex strategy for every terminal it is
    given, then replaces those with the explicit ones (most of the suite's fuzzing time)."""
    terminals, rules, ignore_names = parser.grammar.compile(list(STARTS), ())
    used = {t.name for t in terminals} | set(ignore_names) | {
        symbol.name for rule in rules for symbol in rule.expansion if symbol.is_term}
    given = {name: strategy for name, strategy in explicit.items() if name in used}
    kept = [t for t in terminals if t.name not in given or t.name in ignore_names]

    class Compiled:
        def compile(self, start, terminals_to_keep):       # (the parameter name from_lark checks for)
            return kept, rules, ignore_names

    view = object.__new__(lark.Lark)
    view.__dict__.update(parser.__dict__)
    view.grammar = Compiled()
    return lambda start: from_lark(view, start=start, explicit=given)


_FIRST, _SECOND = "\x01first\x01", "\x01second\x01"     # placeholders for the declared names


def _with_header(parser: lark.Lark, explicit: dict, policy: str | None) -> st.SearchStrategy[str]:
    """A report whose statements the grammar draws, after a header that gets it ruled
    (its policy, its players) most of the time; the players' names hostile now and then,
    and the statements name the players declared.  `policy` is the language's (None:
    the core's, under any bundled policy)."""
    declared = {**explicit, "NAME": st.sampled_from([f" {_FIRST} ", f" {_SECOND} "]), "QNAME": st.nothing()}
    lines = _lark_strategies(parser, declared)
    body = st.lists(lines("observation"), min_size=1, max_size=3)
    more = st.lists(lines("continuation") | lines("header"), max_size=1)
    history = st.lists(lines("history_entry"), max_size=2).map(lambda h: ["history:", *h] if h else [])
    plain = st.sampled_from(["Alice", '"Alice"', "Bob", "Carol", '"Dee Dee"'])
    name = st.one_of(plain, plain, plain, names())

    @st.composite
    def report(draw) -> str:
        first, second = draw(name), draw(name)
        policy_ = policy or draw(st.sampled_from(policy_ids()))
        if second.strip('"') == first.strip('"'):
            second = '"' + second.strip('"') + ' 2"'       # not the same person twice
        lines_ = [f"policy: {policy_}", f"player: {first}", f"player: {second}"]
        lines_ += [line for part in (draw(body), draw(more), draw(history)) for line in part]
        return "".join(line.replace(_FIRST, first).replace(_SECOND, second) + "\n" for line in lines_)
    return report()


@cache
def golden_texts() -> list[bytes]:
    return [p.read_bytes() for p in sorted(GOLDEN.rglob("*.txt"))]


PIECES = [b"\t", b"\x00", b'"', b"\\", b"\xef\xbb\xbf", b"\xff", b"\xc3", b"\r", b"\n", b"\n---\n", b"---", b",",
          b", on purpose", b"It was ", b"player: ", b"history:\n  ", b"policy: fab\n", b" 99999999999999999999",
          b"#", b".", b"'s", *(c.encode("utf-8") for c in ODD)]


@st.composite
def mutated_golden_reports(draw) -> bytes:
    """A golden report with a few byte-level mutations: deleted, inserted or replaced
    bytes, lines duplicated or swapped, a cut, a separator."""
    data = bytearray(draw(st.sampled_from(golden_texts())))
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(data)))
        op = draw(st.sampled_from(["delete", "insert", "replace", "duplicate", "swap", "cut", "number", "repeat"]))
        piece = draw(st.sampled_from(PIECES) | st.binary(min_size=1, max_size=4))
        if op == "delete":
            del data[at:at + draw(st.integers(1, 8))]
        elif op == "insert":
            data[at:at] = piece
        elif op == "replace":
            data[at:at + len(piece)] = piece
        elif op == "cut":
            del data[at:]
        elif op == "number":        # a number of up to 10,000 digits where one was (int() refuses 4,301)
            after = re.search(rb"\d+", bytes(data[at:]))
            digits = (at + after.start(), at + after.end()) if after else next(
                (m.span() for m in re.finditer(rb"\d+", bytes(data))), None)
            if digits is not None:
                size = draw(st.sampled_from([19, 4300, 4301, 10_000]) | st.integers(1, 10_000))
                data[digits[0]:digits[1]] = draw(st.sampled_from([b"9", b"1", b"0"])) * size
        elif op == "repeat":        # a piece repeated deep: long runs of quotes, commas, modifiers
            data[at:at] = piece * draw(st.integers(2, 5000))
        else:
            lines = bytes(data).split(b"\n")
            i, j = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
            if op == "duplicate":
                lines.insert(i, lines[i])
            else:
                lines[i], lines[j] = lines[j], lines[i]
            data = bytearray(b"\n".join(lines))
    return bytes(data)


def hostile_files() -> st.SearchStrategy[bytes]:
    return grammar_reports() | mutated_golden_reports()


def prepare(data: bytes, source: str = "fuzz.txt") -> tuple[list[tuple[Report, str]], int]:
    """A file's reports read as `ppgcheck rule` reads them, each checked against its
    policy: (those ready to rule, how many got a PpgError)."""
    prepared: list[tuple[Report, str]] = []
    errors = 0
    for item in read_reports(io.BytesIO(data), source):
        if isinstance(item, PpgError):
            errors += 1
            continue
        try:
            prepared.extend(api.prepare([item]))
        except PpgError:
            errors += 1
    return prepared, errors


def rule_and_render(prepared: list[tuple[Report, str]]) -> int:
    """Rule the reports together (one job) and render each ruling as text and JSON: how
    many were ruled (0 when the batch got a PpgError)."""
    if not prepared:
        return 0
    try:
        rulings = api.rule_prepared(prepared, questions=True)
    except PpgError:
        return 0
    for rs in rulings:
        render_text(rs, explain=True)
        json.dumps(ruling_dict(rs), ensure_ascii=False)
    return len(rulings)
