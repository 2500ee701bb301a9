"""`ppgcheck test --coverage`: which rules the golden cases fire and just miss.

A small suite of FaB Tardiness cases (PPG 3.1: "Over 10 minutes is a Game
Loss"; "Under 1 minute is a Warning") in a temporary folder, so the numbers do
not move when the bundled suites grow.
"""
from __future__ import annotations

import json
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
from click.testing import CliRunner

from ppgcheck.cli import cli
from ppgcheck.ci.coverage import measure
from ppgcheck.resources import rules_dir

TARDINESS = rules_dir() / "fab" / "s3_1_tardiness.lp"

CASES = {
    "late-12": ("Alice was 12 minutes late", "game-loss", "over 10 minutes late is a Game Loss"),
    "late-10": ("Alice was 10 minutes late", "intellect-penalty", "exactly 10 minutes is not over 10"),
}


def line_of(text: str) -> int:
    """The line of the rule whose text holds `text` (the rule's first line)."""
    lines = TARDINESS.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if text in line)
    while not lines[at].startswith(("adjustment", "base_penalty", "infraction", "not_infraction")):
        at -= 1
    return at + 1


@pytest.fixture
def suite(tmp_path) -> Path:
    for name, (line, penalty, why) in CASES.items():
        (tmp_path / f"{name}.txt").write_text(f"policy: fab\nrel: competitive\nplayer: Alice\n{line}\n")
        (tmp_path / f"{name}.expected.toml").write_text(
            f'description = "{why}"\n[[ruling]]\nplayer = "Alice"\ninfraction = "tardiness"\n'
            f'penalty = "{penalty}"\n')
    return tmp_path


def rule(coverage, text: str):
    line = line_of(text)
    (found,) = [r for r in coverage.rules if r.file == str(TARDINESS) and r.line == line]
    return found


def test_a_threshold_rule_is_fired_by_one_case_and_just_missed_by_the_other(suite):
    (fab,) = measure([suite])
    assert fab.policy == "fab" and fab.cases == 2
    over_ten = rule(fab, '"late over 10 minutes"')
    assert over_ten.kind == "upgrade" and over_ten.subject == "tardiness" and over_ten.section == "PPG 3.1"
    assert [Path(c).name for c in over_ten.fired_by] == ["late-12.txt"]
    assert [Path(c).name for c in over_ten.missed_by] == ["late-10.txt"]
    assert over_ten.covered
    under_one = rule(fab, '"late under 1 minute"')
    assert under_one.kind == "downgrade"
    assert not under_one.fired and sorted(Path(c).name for c in under_one.missed_by) == ["late-10.txt", "late-12.txt"]


def test_a_rule_with_no_condition_beyond_its_anchor_counts_once_fired(suite):
    (fab,) = measure([suite])
    base = rule(fab, "base_penalty(O, P, tardiness")
    assert base.kind == "base_penalty" and not base.missable
    assert base.fired and base.covered


def test_rules_about_other_observations_are_neither_fired_nor_missed(suite):
    (fab,) = measure([suite])
    other = [r for r in fab.rules if r.subject == "hidden-card-error"]
    assert other and not any(r.fired_by or r.missed_by for r in other)
    assert 0 < fab.percent < 50


@pytest.mark.slow(25)
def test_cli_threshold_fails_below_and_passes_above(suite):
    runner = CliRunner()
    low = runner.invoke(cli, ["test", str(suite), "--coverage-threshold", "90"])
    assert low.exit_code == 1, low.output
    assert "2 passed, 0 failed" in low.output
    assert "coverage fab:" in low.output and "BELOW the threshold of 90 %" in low.output
    assert f"{line_of('late under 1 minute')}: downgrade tardiness (PPG 3.1) — never fired" in low.output
    ok = runner.invoke(cli, ["test", str(suite), "--coverage-threshold", "1"])
    assert ok.exit_code == 0, ok.output
    plain = runner.invoke(cli, ["test", str(suite), "--coverage"])
    assert plain.exit_code == 0 and "coverage fab:" in plain.output


def test_cli_coverage_in_json_and_junit(suite):
    runner = CliRunner()
    as_json = runner.invoke(cli, ["test", str(suite), "--coverage-threshold", "90", "--format", "json"])
    data = json.loads(as_json.output)
    assert data["passed"] == 2
    (fab,) = data["coverage"]
    assert fab["policy"] == "fab" and fab["passed"] is False and fab["threshold"] == 90
    assert any(r["fired_by"] and r["missed_by"] for r in fab["rule_coverage"])
    junit = runner.invoke(cli, ["test", str(suite), "--coverage-threshold", "90", "--format", "junit"])
    suite_xml = ET.fromstring(junit.output)
    assert suite_xml.get("tests") == "3" and suite_xml.get("failures") == "1"
    (cov,) = [c for c in suite_xml if c.get("name") == "coverage/fab"]
    assert cov.find("failure") is not None


def test_cli_rejects_an_unknown_key_with_a_clear_error(suite):
    (suite / "late-10.expected.toml").write_text(
        'description = "typo"\n[[ruling]]\nplayer = "Alice"\ninfraction = "tardiness"\n'
        'penalty = "intellect-penalty"\npenatly = "x"\n')
    result = CliRunner().invoke(cli, ["test", str(suite), "--coverage"])
    assert result.exit_code == 2
    assert "late-10.expected.toml: unknown key `penatly` in [[ruling]] #1" in result.output
    assert "allowed keys:" in result.output
