"""A pack that adds words: tests/fixtures/packs/acme declares its own observation and
modifier forms in its own folder, and is ruled, checked, tested and diffed with no change
to ppgcheck's code, grammar or core."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from ppgcheck.cli import cli
from ppgcheck.errors import PolicyError, ReportError
from ppgcheck.language.report import parse_reports
from ppgcheck.language.vocabulary import vocabulary

PACKS = Path(__file__).parent / "fixtures" / "packs"
ACME = PACKS / "acme"


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


@pytest.fixture
def acme_copy(tmp_path: Path) -> Path:
    """A rules folder holding a copy of the acme pack (no core: the bundled one is used)."""
    root = tmp_path / "rules"
    shutil.copytree(ACME, root / "acme")
    return root


def test_vocab_lists_the_pack_s_forms_beside_the_core_s():
    with_pack = run("vocab", "--policy", "acme", "--rules", str(PACKS))
    assert with_pack.exit_code == 0, with_pack.output
    assert "{P} ate food at the table" in with_pack.output and "[acme]" in with_pack.output
    assert "{P} drew {cards} extra cards" in with_pack.output
    listed = json.loads(run("vocab", "--policy", "acme", "--rules", str(PACKS), "--format", "json").output)
    assert {"category": "modifier", "kind": "spilled_on_cards", "form": "the food spilled on {Q}'s cards",
            "fact": "modifier(O,spilled_on_cards,Q)", "origin": "acme"} in listed
    assert "ate food" not in run("vocab").output


def test_the_golden_cases_pass():
    result = run("test", str(ACME / "golden"), "--rules", str(PACKS))
    assert result.exit_code == 0, result.output
    assert "4 passed, 0 failed" in result.output


def test_rule_reads_the_pack_s_words():
    result = run("rule", "--rules", str(PACKS), str(ACME / "golden" / "spilled.txt"), "--format", "json")
    assert result.exit_code == 0, result.output
    [ruling] = json.loads(result.output)[0]["rulings"]
    assert (ruling["infraction"], ruling["penalty"]) == ("eating-at-the-table", "game-loss")


def test_check_proves_the_pack_clean():
    result = run("check", str(ACME))
    assert result.exit_code == 0, result.output
    assert "no findings" in result.output


def test_a_report_of_another_policy_cannot_use_the_pack_s_words():
    with pytest.raises(ReportError) as info:
        parse_reports("policy: fab\nplayer: Alice\nAlice ate food at the table\n", rules=PACKS)
    assert "unexpected `ate`" in info.value.message


def test_reports_of_two_languages_in_one_file_are_each_read_in_their_own():
    text = ("policy: acme\nplayer: Alice\nAlice ate food at the table\n---\n"
            "policy: fab\nplayer: Bob\nBob drew 1 extra card\n---\npolicy: acme\nplayer: Carol\nCarol eated\n")
    with pytest.raises(ReportError) as info:
        parse_reports(text, "mixed.txt", rules=PACKS)
    assert (info.value.line, info.value.column) == (11, 7)
    first, second = parse_reports(text.rsplit("---", 1)[0], "mixed.txt", rules=PACKS)
    assert first.observations[0].kind == "ate_food" and second.observations[0].kind == "drew_extra_cards"
    assert (first.observations[0].line, second.observations[0].line) == (3, 7)


def test_policy_overrides_the_header_for_the_language_too():
    [report] = parse_reports("policy: fab\nplayer: Alice\nAlice ate at the table\n", policy="acme", rules=PACKS)
    assert report.observations[0].kind == "ate_food"


def test_print_writes_the_pack_s_canonical_forms():
    result = run("print", str(ACME / "golden" / "spilled.txt"), "--rules", str(PACKS))
    assert result.exit_code == 0, result.output
    assert "Alice ate food at the table, on purpose, the food spilled on Bob's cards" in result.output


def test_diff_shows_an_edit_with_a_witness_in_the_pack_s_words(tmp_path: Path, acme_copy: Path):
    old = tmp_path / "old"
    shutil.copytree(acme_copy, old)
    eating = acme_copy / "acme" / "b_eating.lp"
    eating.write_text(eating.read_text().replace("eating_at_the_table, warning", "eating_at_the_table, caution"))
    result = run("diff", str(old), str(acme_copy))
    assert "penalty changed: eating-at-the-table" in result.output, result.output
    assert "Alice ate food at the table" in result.output


def test_check_reports_a_fact_the_rules_read_that_no_form_produces(acme_copy: Path):
    (acme_copy / "acme" / "d_soda.lp").write_text(
        '% --- ACME 3 Coffee Excess ---\n'
        '% "Coffee Excess is a Caution."\n'
        'infraction(O, P, coffee_excess) :- observation(O, P, drank_soda).\n')
    result = run("check", str(acme_copy / "acme"), "--format", "json")
    assert result.exit_code == 1
    [found] = [f for f in json.loads(result.output)[0]["findings"] if f["kind"] == "vocabulary"]
    assert found["level"] == "error"
    assert "`observation(O, P, drank_soda)` but no form of the report language produces it" in found["message"]
    assert found["locations"][0]["file"].endswith("d_soda.lp") and found["locations"][0]["line"] == 3


@pytest.mark.parametrize("form,message", [
    ('modifier_form(wiped, "wiped by {Q}").', "declare person_modifier(wiped)"),
    ('observation_form(ate_cake, "{P} ate {slices} slices").', "has no count_range(slices"),
    ('observation_form(ate_food, "{P} ate {cups} cups").', "a synonym must have the same {slots}"),
    ('observation_form(snacked, "{P} ate at the table").', "is also a form of `ate_food`"),
    ('modifier_form(greasy, "greasy, very").', "is not a word"),
])
def test_a_form_that_does_not_fit_its_declarations_is_a_clear_error(acme_copy: Path, form, message):
    (acme_copy / "acme" / "vocabulary.lp").write_text(
        (ACME / "vocabulary.lp").read_text() + form + "\n")
    with pytest.raises(PolicyError) as info:
        vocabulary("acme", acme_copy)
    assert message in str(info.value) and "policy `acme`" in str(info.value)
    result = run("rule", "--rules", str(acme_copy), str(ACME / "golden" / "ate-food.txt"))
    assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output
