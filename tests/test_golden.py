"""The project's golden suites, run through the same runner as `ppgcheck test`."""
from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from ppgcheck.ci.golden import CaseResult, ExpectationError, find_cases, load_expectation, run_case, run_cases

GOLDEN = Path(__file__).parent / "golden"
CASES = find_cases([GOLDEN])
# cases ruled together as `ppgcheck test` rules them (run_cases: one grounding per policy, not
# one per case); each chunk is one xdist group, so its cases are ruled once, on one worker
CHUNK = 50


@cache
def chunk_results(start: int) -> dict[Path, CaseResult]:
    cases = CASES[start:start + CHUNK]
    return dict(zip(cases, run_cases(cases)))


@pytest.mark.parametrize("start, case", [
    pytest.param(index - index % CHUNK, case, id=str(case.relative_to(GOLDEN)),
                 marks=pytest.mark.xdist_group(f"golden{index // CHUNK}"))
    for index, case in enumerate(CASES)])
def test_golden_case(start, case):
    result = chunk_results(start)[case]
    assert result.name == str(case)
    assert result.passed, "\n".join(result.failures)


@pytest.mark.parametrize("policy", ["fab", "dci", "ffg", "yugioh"])
def test_every_policy_has_golden_cases(policy):
    assert len(find_cases([GOLDEN / policy])) >= 20


def write_case(folder: Path, report: str, expectation: str) -> Path:
    """A golden case in folder: the report `case.txt` and its `case.expected.toml`."""
    (folder / "case.expected.toml").write_text(expectation)
    case = folder / "case.txt"
    case.write_text(report)
    return case


def test_an_unknown_key_in_an_expectation_is_rejected(tmp_path):
    case = write_case(tmp_path, "policy: fab\nplayer: Alice\nAlice stalled\n",
                      'description = "typo"\n[[ruling]]\nplayer = "Alice"\ninfraction = "stalling"\n'
                      'penalty = "warning"\npenaltee = "x"\n')
    with pytest.raises(ExpectationError) as info:
        run_case(case)
    assert "unknown key `penaltee` in [[ruling]] #1" in str(info.value)


def test_an_expectation_needs_a_description(tmp_path):
    path = tmp_path / "case.expected.toml"
    path.write_text('exit = 0\n')
    with pytest.raises(ExpectationError, match="the top level needs `description`"):
        load_expectation(path)


def test_a_wrong_expectation_fails_with_a_readable_diff(tmp_path):
    case = write_case(tmp_path, "policy: fab\nrel: competitive\nplayer: Alice\n"
                                "Alice shuffled an ordered set into her deck\n",
                      'description = "wrong on purpose"\n[[ruling]]\nplayer = "Alice"\n'
                      'infraction = "shuffling-error"\npenalty = "warning"\n')
    result = run_case(case)
    assert not result.passed
    assert "missing ruling: Alice shuffling-error warning" in result.failures
    assert "unexpected ruling: Alice shuffling-error intellect-penalty" in result.failures


def test_cases_run_against_an_edited_copy_of_the_rules(tmp_path):
    """`ppgcheck test --rules DIR`: a policy author edits a copy of the rules and runs the
    cases against it; the bundled rules stay as they are."""
    import shutil

    from click.testing import CliRunner

    from ppgcheck.cli import cli
    from ppgcheck.resources import rules_dir

    edited = tmp_path / "rules"
    shutil.copytree(rules_dir(), edited)
    tardiness = edited / "yugioh" / "s18_tardiness.lp"
    cases = tmp_path / "cases"
    cases.mkdir()
    (cases / "late.txt").write_text("policy: yugioh\nplayer: Alice\nAlice was 5 minutes late\n")
    (cases / "late.expected.toml").write_text(
        'description = "tardiness over 3 and under 10 minutes"\n[[ruling]]\nplayer = "Alice"\n'
        'infraction = "tardiness"\npenalty = "game-loss"\n')
    runner = CliRunner()
    bundled = runner.invoke(cli, ["test", str(cases)])
    assert bundled.exit_code == 0, bundled.output
    # the edit: tardiness under 10 minutes becomes a Warning in the copy only
    text = tardiness.read_text()
    assert "game_loss" in text
    tardiness.write_text(text.replace("game_loss", "warning"))
    copy = runner.invoke(cli, ["test", str(cases), "--rules", str(edited)])
    assert copy.exit_code == 1
    assert "unexpected ruling: Alice tardiness warning" in copy.output
    assert runner.invoke(cli, ["test", str(cases)]).exit_code == 0      # the bundled rules did not change
    covered = runner.invoke(cli, ["test", str(cases), "--rules", str(edited), "--coverage"])
    assert "coverage yugioh" in covered.output
    not_rules = runner.invoke(cli, ["test", str(cases), "--rules", str(cases)])
    assert not_rules.exit_code == 2 and "holds no policy pack" in not_rules.output


def test_an_outcome_option_a_near_miss_excludes_fails_the_case(tmp_path):
    """`option_excludes` / `note_excludes`: a near miss says what the outcome must not offer."""
    case = write_case(tmp_path, "policy: yugioh\ntier: 1\nplayer: Alice\nplayer: Bob\n"
                                "time was called between games\nscore: Alice 1, Bob 1\n",
                      'description = "the side-deck option is there"\n[outcome]\nkind = "none"\n'
                      'option_excludes = ["side deck"]\nnote_excludes = ["nothing like this"]\n')
    result = run_case(case)
    assert not result.passed
    assert any(f.startswith("outcome: an option mentions `side deck`") for f in result.failures)
    assert not any("nothing like this" in f for f in result.failures)


def test_two_rulings_alike_are_held_to_their_own_expectations(tmp_path):
    """Two expectations of one (player, infraction, penalty) are held to the two rulings of it
    in order: the second related Warning is the one not issued, and saying so of the first fails."""
    report = ("policy: fab\nrel: competitive\nday: 1\nplayer: Alice\nplayer: Bob\n"
              "Alice took illegal notes, from the same root cause.\nAlice took illegal notes.\n")
    ruling = '[[ruling]]\nplayer = "Alice"\ninfraction = "note-taking-and-outside-assistance"\npenalty = "warning"\n'
    (tmp_path / "right").mkdir()
    (tmp_path / "wrong").mkdir()
    right = run_case(write_case(tmp_path / "right", report, 'description = "d"\n' + ruling + "issued = true\n"
                                + ruling + "issued = false\n"))
    assert right.passed, right.failures
    wrong = run_case(write_case(tmp_path / "wrong", report, 'description = "d"\n' + ruling + "issued = false\n"
                                + ruling + "issued = true\n"))
    assert not wrong.passed
    assert wrong.failures[:2] == ["Alice note-taking-and-outside-assistance: issued expected False, got True",
                                  "Alice note-taking-and-outside-assistance: issued expected True, got False"]
