"""`ppgcheck diff`: a rule edit shows exactly the incidents it changes, each with
a witness ruled by both versions; a contradiction it introduces fails the diff.

Each test compares copies of rules/core and rules/fab only (one pack), so the
scenario search stays small.
"""
from __future__ import annotations

import json
import shutil
import subprocess
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner

from ppgcheck.cli import cli
from ppgcheck.analysis.diff import DiffResult, diff_rules
from ppgcheck.analysis.diff_render import exit_code
from ppgcheck.ci.revisions import diff_base
from ppgcheck.ci.sarif import diff_to_sarif
from ppgcheck.language.report import parse_report
from ppgcheck.resources import rules_dir

TARDINESS_BASE = 'base_penalty(O, P, tardiness, intellect_penalty, "PPG 3.1")'
CONTRADICTION = '''
% --- PPG 3.1 Tardiness (a contradictory edit) ---
% "Under 5 minutes is a Warning."
base_penalty(O, P, tardiness, warning, "PPG 3.1") :-
    committed(O, P, tardiness), count(O, minutes, N), N < 5.
'''


def copy_rules(dest: Path) -> Path:
    """rules/core and rules/fab copied under dest/rules."""
    root = dest / "rules"
    shutil.copytree(rules_dir() / "core", root / "core")
    shutil.copytree(rules_dir() / "fab", root / "fab")
    return root


def edit(root: Path, old: str, new: str) -> None:
    path = root / "fab" / "s3_1_tardiness.lp"
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


@pytest.fixture(scope="session")
def unedited(tmp_path_factory) -> Path:
    """rules/core and rules/fab copied once: the old side of the edits below (never written
    to), so what a diff derives from it is derived once a worker, not once a test."""
    return copy_rules(tmp_path_factory.mktemp("unedited"))


@pytest.fixture(scope="module")
def versions(tmp_path_factory, unedited) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("diff")
    old = unedited
    raised = copy_rules(base / "raised")
    edit(raised, TARDINESS_BASE, TARDINESS_BASE.replace("intellect_penalty", "game_loss"))
    contradictory = copy_rules(base / "contradictory")
    path = contradictory / "fab" / "s3_1_tardiness.lp"
    path.write_text(path.read_text() + CONTRADICTION)
    return {"old": old, "raised": raised, "contradictory": contradictory}


@cache
def _diff(old: str, new: str) -> tuple[DiffResult, ...]:
    return tuple(diff_rules(old, new, "fab", timeout=120))


def diff(versions, new: str) -> DiffResult:
    (result,) = _diff(str(versions["old"]), str(versions[new]))
    return result


def test_identical_rules_have_no_change(versions):
    (result,) = diff_rules(versions["old"], versions["old"], "fab")
    assert result.complete and result.changes == []
    assert exit_code([result]) == 0 and exit_code([result], fail_on_change=True) == 0


def test_raising_tardiness_to_game_loss_changes_exactly_tardiness(versions):
    result = diff(versions, "raised")
    assert result.complete
    assert result.changes
    # exactly that class of incidents: Tardiness, its penalty and the notes a Game Loss brings
    assert {c.what for c in result.changes} == {"penalty", "penalty_path", "note"}
    assert {c.subject for c in result.changes} == {"tardiness"}
    assert {c.observation for c in result.changes} <= {"late", "no_show"}
    assert not result.introduced() and not result.removed()
    # the plain case: a late player's IP2 becomes a Game Loss
    plain = [c for c in result.changes if (c.before, c.after) == ("intellect-penalty", "game-loss")]
    assert plain, [c.message for c in result.changes]
    witness = parse_report(plain[0].witness_text)
    assert witness.observations[0].kind == "late"
    minutes = witness.observations[0].counts["minutes"]
    assert 1 <= minutes <= 10          # "Under 1 minute is a Warning", "Over 10 minutes is a Game Loss"
    assert plain[0].ruling_before == ["Alice: tardiness, intellect-penalty; fix: extend the match by the time lost"]
    assert plain[0].ruling_after == ["Alice: tardiness, game-loss; fix: extend the match by the time lost"]


def test_the_same_final_penalty_reached_another_way_is_not_a_final_penalty_change(versions):
    """A raised base that a later stage brings back to the same final penalty changes how
    the penalty is reached, not the penalty: the two are told apart."""
    result = diff(versions, "raised")
    final = lambda text: text.split(" (base")[0]
    paths = [c for c in result.changes if c.what == "penalty_path"]
    assert paths, [c.message for c in result.changes]
    for c in paths:
        assert final(c.before) == final(c.after) and c.before != c.after
        assert c.message.startswith("penalty reached differently: tardiness")
        assert f"{final(c.after)} either way, from base intellect-penalty → game-loss" in c.message
        assert c.ruling_before != c.ruling_after
    finals = [c for c in result.changes if c.what == "penalty"]
    assert finals and all(final(c.before) != final(c.after) for c in finals)
    assert all(c.message.startswith("final penalty changed: tardiness") for c in finals)


def edit_file(root: Path, name: str, old: str, new: str) -> None:
    path = root / "fab" / name
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def changes(before: Path, tmp_path: Path, name: str, old: str, new: str, count: int = 1):
    after = copy_rules(tmp_path / "new")
    edit_file(after, name, old, new)
    (result,) = diff_rules(before, after, "fab")
    assert result.complete
    assert len(result.changes) == count, [c.message for c in result.changes]
    for change in result.changes:
        assert change.witness_text and change.ruling_before != change.ruling_after
    return result.changes


def one_change(before: Path, tmp_path: Path, name: str, old: str, new: str):
    (change,) = changes(before, tmp_path, name, old, new)
    return change


def test_a_time_extension_edit_is_a_change_with_its_witness(unedited, tmp_path):
    change = one_change(unedited, tmp_path, "s3_1_tardiness.lp", "late_minutes(O, P, N), N > 0.",
                        "late_minutes(O, P, N), N > 2.")
    assert (change.what, change.message) == ("time_extension", "time extension of the match changed")
    minutes = parse_report(change.witness_text).observations[0].counts["minutes"]
    assert minutes in (1, 2)
    assert f"time extension: {minutes} minutes" in change.ruling_before
    assert not any(line.startswith("time extension") for line in change.ruling_after)


def test_an_outcome_edit_is_a_change_with_a_witness_at_the_end_of_a_match(unedited, tmp_path):
    # the higher seed wins at step 5; the edit gives it to the lower one
    change = one_change(unedited, tmp_path, "s5_trp3_2_playoffs.lp", "tally_tied(life), tally_more(seed, P).",
                        "tally_tied(life), tally_more(seed, Q), opponent(P, Q).")
    assert (change.what, change.message) == ("outcome", "the outcome of the match changed")
    witness = parse_report(change.witness_text)
    assert "kept_going" in [s.kind for s in witness.states] and "seed" in witness.tallies
    winner = min(witness.tallies["seed"], key=lambda pair: pair[1])[0]
    assert any(line.startswith(f"outcome: result: {winner} wins the match") for line in change.ruling_before)
    assert not any(line.startswith(f"outcome: result: {winner} wins") for line in change.ruling_after)


def test_a_new_head_judge_confirmation_is_a_change(unedited, tmp_path):
    # an edit for the test: PPG 1.2 exempts Tardiness from confirmation
    anchor = 'time_extension(N, "PPG 3.1") :-'
    late, no_show = changes(unedited, tmp_path, "s3_1_tardiness.lp", anchor,
                            'head_judge(O, P, tardiness, "PPG 3.1") :- committed(O, P, tardiness).\n' + anchor,
                            count=2)
    assert (late.observation, no_show.observation) == ("late", "no_show")
    for change in (late, no_show):
        assert (change.what, change.subject, change.before, change.after) == (
            "head_judge", "tardiness", "not required", "required")
        assert change.message.startswith("Head Judge confirmation now required: tardiness")
        assert not any("the Head Judge confirms" in line for line in change.ruling_before)
        assert any("the Head Judge confirms (PPG 3.1)" in line for line in change.ruling_after)


def test_dropping_a_confirmation_another_section_also_requires_changes_no_ruling(unedited, tmp_path):
    # a significant advantage makes marked cards a Game Loss, which PPG 1.2 has confirmed anyway
    before, after = unedited, copy_rules(tmp_path / "new")
    edit_file(after, "s3_7_marked_cards.lp", 'head_judge(O, P, marked_cards, "PPG 3.7") :-',
              'unused_head_judge(O, P, marked_cards, "PPG 3.7") :-')
    (result,) = diff_rules(before, after, "fab")
    assert result.complete and result.changes == []


def test_a_reworded_note_is_a_change(unedited, tmp_path):
    change = one_change(unedited, tmp_path, "s3_7_marked_cards.lp", '"a proxy is possible in rare cases"',
                        '"a proxy is possible"')
    assert (change.what, change.subject, change.message) == ("note", "marked-cards", "notes changed: marked-cards"
                                                             + change.message.removeprefix("notes changed: marked-cards"))
    assert any("a proxy is possible in rare cases" in line for line in change.ruling_before)
    assert not any("a proxy is possible in rare cases" in line for line in change.ruling_after)


def test_who_may_move_the_penalty_is_a_change(unedited, tmp_path):
    """A discretionary option (discretion/9) changes nothing by default, but who may
    move the penalty where is part of the ruling: a change of its own."""
    change = one_change(unedited, tmp_path, "s3_9_communicating_incorrect_game_information.lp",
                        "to(caution), judge,", "to(caution), head_judge,")
    assert (change.what, change.subject) == ("discretion", "communicating-incorrect-game-information")
    assert change.message.startswith("what the guide leaves open changed")
    assert any("; judge may make it caution (PPG 3.9)" in line for line in change.ruling_before)
    assert any("; head-judge may make it caution (PPG 3.9)" in line for line in change.ruling_after)


def test_a_reworded_report_note_is_a_change(unedited, tmp_path):
    change = one_change(unedited, tmp_path, "s3_3_slow_play.lp",
                        '"no extra time is given for a slow-play accusation alone"',
                        '"no extra time for an accusation"')
    assert (change.what, change.message) == ("report_note", "notes on the whole report changed")
    witness = parse_report(change.witness_text).observations[0]
    assert witness.kind == "played_slowly"
    assert "note: no extra time is given for a slow-play accusation alone" in change.ruling_before
    assert "note: no extra time for an accusation" in change.ruling_after


@pytest.mark.slow(40)
def test_a_helper_threshold_edit_shows_the_new_boundary(unedited, tmp_path):
    old = unedited
    new = copy_rules(tmp_path / "new")
    edit(new, "late_minutes(O, P, N), N > 10.", "late_minutes(O, P, N), N > 9.")
    (result,) = diff_rules(old, new, "fab")
    assert result.complete
    assert {(c.what, c.subject) for c in result.changes} == {("penalty", "tardiness"), ("note", "tardiness")}
    (change,) = [c for c in result.changes if c.what == "penalty"]
    assert (change.what, change.subject, change.before) == ("penalty", "tardiness", "intellect-penalty")
    assert change.after.startswith("game-loss")
    assert parse_report(change.witness_text).observations[0].counts == {"minutes": 10}


# A helper outside any one infraction (the Game Loss's timing) cannot be confined to some
# observation kinds: every scenario is searched.  Only the classes whose inputs changed are
# compared (the penalty's were grounded over every pair of rulings: over 2 GB), so a rule that
# changes nothing says so, and one that changes the notes finds it.  (Two tests, so that xdist
# runs the two diffs side by side.)
GAME_LOSS_TIMING = "game_loss_deferred(O) :- observation(O, _, _), when(after_time)."


@pytest.mark.slow(25)
def test_a_redundant_edit_to_a_helper_every_pack_rule_may_read_changes_nothing(unedited, tmp_path):
    redundant = GAME_LOSS_TIMING + "\ngame_loss_deferred(O) :- observation(O, _, _), when(between_games)."
    before, after = unedited, copy_rules(tmp_path / "same")
    edit_file(after, "s1_4_penalties.lp", GAME_LOSS_TIMING, redundant)
    (result,) = diff_rules(before, after, "fab")
    assert result.complete and result.changes == []


@pytest.mark.slow(45)
def test_an_edit_to_a_helper_every_pack_rule_may_read_finds_the_notes_it_changes(unedited, tmp_path):
    before, after = unedited, copy_rules(tmp_path / "narrower")
    edit_file(after, "s1_4_penalties.lp", GAME_LOSS_TIMING, "")
    (result,) = diff_rules(before, after, "fab")
    assert result.complete and result.changes
    assert {c.what for c in result.changes} == {"note"}
    for change in result.changes:
        assert "when: after time was called" in change.witness_text
        assert any("applies to the next game" in line for line in change.ruling_before)
        assert any("the current game ends" in line for line in change.ruling_after)


@pytest.mark.slow(90)
def test_an_edit_to_the_repeat_cap_finds_every_final_penalty_it_changes(unedited, tmp_path):
    """The cap on repeat upgrades is read for every infraction: the edit cannot be confined,
    and its penalty classes are many (every pair of rulings).  The space is searched in
    parts of a few observation kinds (one grounding of them all took 1.2 GB and did not
    finish in 90 s); the search ends, and each change is one the witness shows."""
    before, after = unedited, copy_rules(tmp_path / "new")
    edit_file(after, "s1_4_penalties.lp", "RB <= RGL, RA > RGL.", "RB < RGL, RA > RGL.")
    (result,) = diff_rules(before, after, "fab")
    assert result.complete
    finals = {c.subject: c for c in result.changes if c.what == "penalty"}
    assert "marked-cards" in finals and "decklist-error" in finals
    assert {c.what for c in result.changes} == {"penalty", "note"}
    for change in finals.values():
        assert change.before.startswith("game-loss") and change.after.startswith("disqualification")
        assert "history:" in change.witness_text
        assert any("game-loss" in line for line in change.ruling_before)
        assert any("disqualification" in line for line in change.ruling_after)


def test_removing_an_exclusion_opens_a_gap_and_fails(unedited, tmp_path):
    old = unedited
    new = copy_rules(tmp_path / "new")
    path = new / "fab" / "s3_1_tardiness.lp"
    text = path.read_text()
    path.write_text(text[:text.index('not_infraction(O, P, "the player arrived before')])
    (result,) = diff_rules(old, new, "fab")
    assert result.complete
    (gap,) = result.introduced("error")
    assert gap.message.startswith("finding introduced: gap (error): no rule of this guide classifies")
    witness = parse_report(gap.witness_text).observations[0]
    assert witness.kind == "late" and [m.kind for m in witness.modifiers] == ["before_scheduled_start"]
    # and the Head Judge's note that goes with every gap (PPG 1.2)
    assert {c.what for c in result.changes} == {"finding", "no_infraction", "report_note"}
    assert exit_code([result]) == 1


def test_every_change_has_a_witness_that_both_versions_rule_differently(versions):
    for c in diff(versions, "raised").changes:
        assert c.witness_text and c.minimal
        assert c.ruling_before != c.ruling_after, c.message


def test_a_pure_change_passes_unless_fail_on_change(versions):
    result = diff(versions, "raised")
    assert exit_code([result]) == 0
    assert exit_code([result], fail_on_change=True) == 1


def test_a_contradictory_rule_is_caught_and_fails(versions):
    result = diff(versions, "contradictory")
    (conflict,) = result.introduced("error")
    assert conflict.what == "finding" and "two base penalties for tardiness" in conflict.message
    assert conflict.sections == ["PPG 3.1"]
    minutes = parse_report(conflict.witness_text).observations[0].counts["minutes"]
    assert minutes < 5
    assert any("conflict" in line for line in conflict.ruling_after)
    assert not any("conflict" in line for line in conflict.ruling_before)
    assert exit_code([result]) == 1


def test_cli_exit_codes_and_formats(versions, monkeypatch):
    import ppgcheck.analysis.diff
    monkeypatch.setattr(ppgcheck.analysis.diff, "diff_rules",
                        lambda old, new, policy, **options: list(_diff(str(old), str(new))))
    runner = CliRunner()
    old, bad = str(versions["old"]), str(versions["contradictory"])
    text = runner.invoke(cli, ["diff", old, bad, "--policy", "fab"])
    assert text.exit_code == 1, text.output
    assert "finding introduced: conflict (error): two base penalties for tardiness" in text.output
    assert "witness:" in text.output and "before:" in text.output and "after:" in text.output
    as_json = runner.invoke(cli, ["diff", old, bad, "--policy", "fab", "--format", "json"])
    assert as_json.exit_code == 1
    (data,) = json.loads(as_json.output)
    assert data["introduced"] == 1 and data["policy"] == "fab"
    as_sarif = runner.invoke(cli, ["diff", old, bad, "--policy", "fab", "--format", "sarif"])
    sarif = json.loads(as_sarif.output)
    assert sarif["version"] == "2.1.0"
    introduced = [r for r in sarif["runs"][0]["results"] if r["ruleId"] == "finding-introduced"]
    assert introduced and introduced[0]["level"] == "error"
    assert introduced[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].endswith("s3_1_tardiness.lp")
    raised = runner.invoke(cli, ["diff", old, str(versions["raised"]), "-p", "fab", "--fail-on-change"])
    assert raised.exit_code == 1 and "penalty changed: tardiness" in raised.output


def test_sarif_of_a_ruling_change_is_a_note(versions):
    sarif = diff_to_sarif([diff(versions, "raised")])
    levels = {(r["ruleId"], r["level"]) for r in sarif["runs"][0]["results"]}
    assert levels == {("ruling-changed", "note")}


def test_a_new_pack_brings_its_findings_and_a_removed_one_is_reported(tmp_path):
    empty = tmp_path / "empty" / "rules"
    shutil.copytree(rules_dir() / "core", empty / "core")
    full = copy_rules(tmp_path / "full")
    (added,) = diff_rules(empty, full)
    assert added.status == "added" and added.introduced("error")
    assert exit_code([added]) == 1
    (removed,) = diff_rules(full, empty)
    assert removed.status == "removed" and removed.changes == []
    assert exit_code([removed]) == 0 and exit_code([removed], fail_on_change=True) == 1


@pytest.mark.parametrize("args, message", [
    (["diff"], "give two rules folders"),
    (["diff", "--base", "HEAD", "rules", "rules"], "not both"),
])
def test_usage_errors_exit_2(args, message):
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2
    assert message in result.output


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=ppgcheck", "-c", "user.email=ppgcheck@example.org",
                    "-c", "commit.gpgsign=false", *args], cwd=repo, check=True, capture_output=True)


@pytest.fixture
def repo(tmp_path) -> Path:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    copy_rules(tmp_path)
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", "rules")
    git(tmp_path, "commit", "-q", "-m", "rules")
    return tmp_path


def test_base_compares_the_working_tree_with_a_revision(repo):
    edit(repo / "rules", TARDINESS_BASE, TARDINESS_BASE.replace("intellect_penalty", "game_loss"))
    (result,) = diff_base("HEAD", "fab", cwd=repo)
    assert result.old == "rules@HEAD/fab" and result.new == "rules/fab"
    assert {c.subject for c in result.changes} == {"tardiness"}
    assert not result.introduced()


def test_base_unknown_revision_and_new_pack(repo, monkeypatch):
    monkeypatch.chdir(repo)
    result = CliRunner().invoke(cli, ["diff", "--base", "no-such-rev", "--policy", "fab"])
    assert result.exit_code == 2 and "unknown git revision `no-such-rev`" in result.output
    clean = CliRunner().invoke(cli, ["diff", "--base", "HEAD"])
    assert clean.exit_code == 0 and "no change" in clean.output


# --- CI integration: the documented workflow and the pre-commit hooks ---------------

ROOT = Path(__file__).resolve().parent.parent


def test_the_documented_workflow_is_the_shipped_one_and_runs_check_test_and_diff():
    yaml = pytest.importorskip("yaml")
    shipped = (ROOT / "docs" / "ppgcheck-rules.yml").read_text()
    doc = (ROOT / "docs" / "ci.md").read_text()
    body = shipped[shipped.index("name: rules"):]
    assert body.strip() in doc
    workflow = yaml.safe_load(shipped)
    assert "rules/**" in workflow[True]["pull_request"]["paths"]     # `on:` loads as True
    runs = " ".join(step.get("run", "") for step in workflow["jobs"]["rules"]["steps"])
    for command in ("ppgcheck test", "ppgcheck diff --base", "ppgcheck check"):
        assert command in runs


def test_pre_commit_hooks_name_real_commands():
    yaml = pytest.importorskip("yaml")
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    assert {h["id"] for h in hooks} == {"ppgcheck-diff", "ppgcheck-test", "ppgcheck-check"}
    for hook in hooks:
        words = hook["entry"].split()
        assert words[:3] == ["python", "-m", "ppgcheck"] and words[3] in cli.commands
        help_run = CliRunner().invoke(cli, words[3:4] + ["--help"])
        for option in (w for w in words[4:] if w.startswith("--")):
            assert option in help_run.output, (hook["id"], option)


def test_an_edit_inside_a_pooled_fact_is_an_edit(tmp_path):
    """`rel_covered(casual; regular; competitive; professional).` is a pool of four
    facts: dropping one is an edit (the diff once read a pooled head as naming no
    predicate and said "no change", and its old copy left the pool unrenamed)."""
    roots = {}
    for side in ("old", "new"):
        root = roots[side] = tmp_path / side / "rules"
        shutil.copytree(Path(__file__).parent / "fixtures" / "packs" / "clean", root / "clean")
        (root / "core").symlink_to(rules_dir() / "core")
    scope = roots["new"] / "clean" / "a_penalties.lp"
    text = scope.read_text()
    assert "rel_covered(casual; regular; competitive; professional)." in text
    scope.write_text(text.replace("rel_covered(casual; regular; competitive; professional).",
                                  "rel_covered(casual; regular; competitive)."))
    (result,) = diff_rules(roots["old"] / "clean", roots["new"] / "clean", "clean")
    assert result.complete
    (change,) = result.changes
    assert change.introduced and "not written for professional REL" in change.message


def test_two_pack_folders_are_labelled_by_their_own_folders(tmp_path):
    """`diff old/clean new/renamed`: each side is named by the folder given (not the
    folder with the pack's name appended, nor the new pack's name on the old side)."""
    for side, name in (("old", "clean"), ("new", "renamed")):
        root = tmp_path / side
        shutil.copytree(Path(__file__).parent / "fixtures" / "packs" / "clean", root / name)
        (root / "core").symlink_to(rules_dir() / "core")
    (result,) = diff_rules(tmp_path / "old" / "clean", tmp_path / "new" / "renamed")
    assert (result.old, result.new) == (str(tmp_path / "old" / "clean"), str(tmp_path / "new" / "renamed"))


def test_a_penalty_made_a_set_without_a_default_reads_as_words(unedited, tmp_path):
    """A ruling with no default penalty is summed up in words, never as Python's `None`: a
    Warning made a choice of Caution or Warning reads as that set, lightest first."""
    before, after = unedited, copy_rules(tmp_path / "new")
    head = 'base_penalty(O, P, communicating_incorrect_game_information, warning, "PPG 3.9") :-'
    edit_file(after, "s3_9_communicating_incorrect_game_information.lp", head,
              head.replace("base_penalty", "base_choice") + "\n    committed(O, P, communicating_incorrect_game_information).\n"
              + head.replace("base_penalty", "base_choice").replace("warning", "caution"))
    (result,) = diff_rules(before, after, "fab")
    lines = [line for c in result.changes for line in c.ruling_before + c.ruling_after]
    assert any("communicating-incorrect-game-information, one of caution, warning (the guide does not say which)"
               in line for line in lines), lines
    assert not any("None" in line for line in lines)
