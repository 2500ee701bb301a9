"""The tolerant reader never crashes and never reads what it cannot print: any line of
judge-like words (names, pronouns, the packs' signs, numbers, negations, punctuation, odd
characters) under any policy is read or refused with a ReportError, and what it reads
prints as a canonical report that parses strictly to the same facts."""
from __future__ import annotations

import re

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from ppgcheck.errors import ReportError
from ppgcheck.language.facts import build_facts
from ppgcheck.language.printer import print_report
from ppgcheck.language.report import parse_reports
from ppgcheck.language.vocabulary import vocabulary
from ppgcheck.language.wordforms import tokenize
from sampling import examples

POLICIES = ("fab", "dci", "ffg", "yugioh")
NAMES = ("Kim", "Lee", "Player A", "x). #include \"/etc/passwd\". a(")


def _words() -> list[str]:
    """The words a judge's note is made of here: every pack's reading words and forms."""
    words: set[str] = set()
    for policy in POLICIES:
        vocab = vocabulary(policy)
        for facts in vocab.reading.values():
            for args in facts:
                words.update(t.text for arg in args if isinstance(arg, str) for t in tokenize(arg))
        for forms in vocab.observations.values():
            words.update(t.text for form in forms for t in tokenize(form.text.replace("{", " ").replace("}", " ")))
    return sorted(w for w in words if w.isprintable())


def _phrases() -> list[str]:
    """Every pack's reader phrases and signs, their slots filled (`Kim drew 2 cards ...`)."""
    out: set[str] = set()
    for policy in POLICIES:
        reading = vocabulary(policy).reading
        for fact in ("read_phrase", "read_sign", "read_hint"):
            for _, text in reading.get(fact, []):
                text = text.replace("{P}", "Kim").replace("{Q}", "Lee")
                out.add(re.sub(r"\{\w+\}", "2", text) if "Kim" in text else "Kim " + re.sub(r"\{\w+\}", "2", text))
    return sorted(out)


WORDS = _words()
PHRASES = _phrases()
PIECES = st.one_of(st.sampled_from(WORDS), st.sampled_from(NAMES), st.sampled_from(("she", "her opponent", "Kim's",
                                                                                  "not", "never", "instead of")),
                   st.integers(0, 10**20).map(str), st.sampled_from((",", ".", ";", "and", "'s", "\u2019s")),
                   st.text(max_size=3))
# bench/full_sweeps draws the larger count
SETTINGS = settings(max_examples=examples(50, 150), deadline=None, suppress_health_check=list(HealthCheck))


def report(policy: str, line: str) -> str:
    return f'policy: {policy}\nplayer: Kim\nplayer: Lee\nplayer: "Player A"\n{line}\n'


# a line: a phrase or sign of some pack said by Kim, with words around and inside it
LINES = st.tuples(st.lists(PIECES, max_size=4), st.sampled_from(PHRASES), st.lists(PIECES, max_size=6)).map(
    lambda parts: " ".join([*parts[0], parts[1], *parts[2]]))


@SETTINGS
@given(st.sampled_from(POLICIES), st.one_of(LINES, st.lists(PIECES, min_size=1, max_size=14).map(" ".join)))
@example("fab", "Kim 0 life \u00b2")       # `²` is a digit to str.isdigit() and a ValueError to int()
def test_a_judge_like_line_is_read_or_refused_cleanly_and_reads_back_strictly(policy, line):
    line = line.replace("\n", " ").replace("\r", " ")
    text = report(policy, line)
    try:
        reports = parse_reports(text, tolerant=True)
    except ReportError as error:
        assert error.line >= 1 and error.message
        # each line suggested whole and strict (a strict error's `closest valid forms` are the
        # language's forms, `P drew N extra cards`, as `ppgcheck vocab` lists them)
        for suggestion in error.suggestions if error.suggesting == "did you mean" else []:
            parse_reports(report(policy, suggestion))
        return
    for parsed in reports:
        printed = print_report(parsed)
        assert facts(parse_reports(printed)[0]) == facts(parsed)


def facts(parsed) -> list[str]:
    return sorted(str(s) for s in build_facts(parsed).symbols)
