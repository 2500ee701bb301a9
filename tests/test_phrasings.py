"""What judges type: the synonyms of the vocabulary yield the canonical facts, and the
fifty phrasings of tests/data/phrasings.txt parse at the rate the README states."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from ppgcheck.errors import ReportError
from ppgcheck.language.facts import build_facts
from ppgcheck.language.report import parse_report
from ppgcheck.language.vocabulary import vocabulary

ROOT = Path(__file__).resolve().parents[1]
HEADER = "policy: fab\nplayer: Kim\nplayer: Lee\n"


def facts(statement: str) -> list[str]:
    return sorted(str(s) for s in build_facts(parse_report(HEADER + statement + "\n")).symbols)


def phrasings() -> list[tuple[str, str]]:
    out = []
    for line in (ROOT / "tests" / "data" / "phrasings.txt").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            typed, canonical = (part.strip() for part in line.split("=>"))
            out.append((typed, canonical))
    return out


def misses() -> list[str]:
    out = []
    for typed, _ in phrasings():
        try:
            parse_report(HEADER + typed + "\n")
        except ReportError:
            out.append(typed)
    return out


def test_the_list_holds_fifty_phrasings():
    assert len(phrasings()) == 50


@pytest.mark.parametrize("typed,canonical", phrasings())
def test_a_phrasing_that_parses_says_what_its_canonical_form_says(typed, canonical):
    expected = facts(canonical)
    try:
        got = facts(typed)
    except ReportError:
        pytest.skip("a miss (listed in the README)")
    assert got == expected


def test_the_readme_states_the_parse_rate_and_lists_every_miss():
    readme = (ROOT / "docs" / "report-language.md").read_text(encoding="utf-8")
    missed = misses()
    parsed = len(phrasings()) - len(missed)
    assert f"{parsed} of the {len(phrasings())} phrasings" in readme
    section = readme.split("phrasings that do not parse yet", 1)[1].split("\n\n", 2)[1]
    assert [line.removeprefix("- `").removesuffix("`") for line in section.splitlines()] == missed
    assert parsed >= 40


@pytest.mark.parametrize("kind,word", [(f.kind, f.text) for forms in vocabulary().adverbs.values() for f in forms])
def test_an_adverb_before_the_verb_is_its_modifier(kind, word):
    assert facts(f"Kim {word} drew 2 extra cards") == facts(f"Kim drew 2 extra cards, {vocabulary().modifiers[kind][0].text}")


def test_an_adverb_comes_after_the_second_name_of_a_pair():
    assert facts("Kim and Lee deliberately decided the winner randomly") == \
        facts("Kim and Lee decided the winner randomly, on purpose")


@pytest.mark.parametrize("word,number", list(vocabulary().numbers.items()))
def test_a_number_word_is_its_number(word, number):
    noun = "card" if number == 1 else "cards"
    assert facts(f"Kim drew {word} extra {noun}") == facts(f"Kim drew {number} extra cards")


def test_a_unit_agrees_with_its_number_either_way():
    assert facts("Kim was 1 minute late") == facts("Kim was 1 minutes late") == facts("Kim was one min late")
    assert facts("Kim looked at 3 extra card") == facts("Kim looked at three extra cards")


@pytest.mark.parametrize("word", vocabulary().word_classes["possessive"])
def test_possessives_stand_for_each_other(word):
    assert facts(f"Kim drew 2 extra cards, mixed into {word} hand") == \
        facts("Kim drew 2 extra cards, mixed into her hand")


def test_every_synonym_is_listed_by_vocab():
    from click.testing import CliRunner

    from ppgcheck.cli import cli
    listed = CliRunner().invoke(cli, ["vocab"]).output
    vocab = vocabulary()
    for forms in [*vocab.observations.values(), *vocab.modifiers.values(), *vocab.adverbs.values()]:
        for form in forms:
            assert re.search(rf"^  {re.escape(form.text)} ", listed, re.MULTILINE), form.text
    for word in vocab.numbers:
        assert f"{word} = " in listed
