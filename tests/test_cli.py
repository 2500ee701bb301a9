"""The command line, through click's CliRunner: exit codes, formats, clean errors."""
from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from ppgcheck.cli import cli
from ppgcheck.language.vocabulary import vocabulary

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "fab" / "hidden-card-error.txt"


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(cli, list(args), input=input)


def test_rule_the_bundled_example():
    result = run("rule", str(EXAMPLE))
    assert result.exit_code == 0, result.output
    assert "Alice: hidden-card-error (PPG 2.5)" in result.output
    assert "penalty: WARNING" in result.output
    assert "the guide agrees with the judge's call" in result.output


def test_rule_json_follows_the_language_doc_shape():
    result = run("rule", str(EXAMPLE), "--format", "json")
    [data] = json.loads(result.output)          # a list, even for one report
    assert set(data) >= {"report", "policy", "rulings", "findings"}
    [ruling] = data["rulings"]
    assert set(ruling) >= {"player", "infraction", "section", "base_penalty", "penalty",
                           "adjustments", "fix", "head_judge", "time_extension_minutes", "explanation"}
    assert (ruling["infraction"], ruling["penalty"], ruling["time_extension_minutes"]) == \
        ("hidden-card-error", "warning", 3)
    assert all("(PPG" in step for step in ruling["explanation"][1:])


def test_explain_adds_the_derivation_with_sections():
    result = run("rule", str(EXAMPLE), "--explain")
    assert "why:" in result.output
    assert "base penalty warning (PPG 2.5)" in result.output


def test_findings_give_exit_code_1():
    result = run("rule", "-", input="policy: fab\nrel: casual\nplayer: Alice\nAlice stalled\n")
    assert result.exit_code == 1
    assert "FINDING" in result.output


def test_bad_input_gives_the_error_only_and_exit_code_2():
    result = run("rule", "-", input="policy: fab\nplayer: Alice\nAlice drew 2 extar cards\n")
    assert result.exit_code == 2
    assert result.output.startswith("<stdin>:3:14: error: unexpected `extar`")
    assert "Traceback" not in result.output and "penalty" not in result.output


def test_one_bad_report_in_a_file_rules_nothing_of_that_file():
    text = "policy: fab\nplayer: Alice\nAlice stalled\n---\npolicy: fab\nplayer: Bob\nBob juggled\n"
    result = run("rule", "-", input=text)
    assert result.exit_code == 2
    assert "Alice" not in result.output.split("error:")[0]


def test_a_missing_policy_is_an_error():
    result = run("rule", "-", input="player: Alice\nAlice stalled\n")
    assert result.exit_code == 2
    assert "missing `policy:` header" in result.output


def test_an_unknown_policy_header_suggests_the_closest():
    result = run("rule", "-", input="policy: fbb\nplayer: Alice\nAlice stalled\n")
    assert result.exit_code == 2
    assert "unknown policy `fbb`" in result.output and "fab" in result.output


def test_an_unknown_policy_option_is_a_usage_error():
    result = run("rule", str(EXAMPLE), "--policy", "magic")
    assert result.exit_code == 2
    assert "unknown policy `magic`" in result.output


def test_an_unknown_history_id_is_an_error_with_the_closest_ids():
    text = "policy: fab\nplayer: Alice\nAlice stalled\nhistory:\n  Alice: warning for hiden-card-error\n"
    result = run("rule", "-", input=text)
    assert result.exit_code == 2
    assert "<stdin>:5:22: error: unknown infraction `hiden-card-error` for policy `fab`" in result.output
    assert "hidden-card-error" in result.output


def test_a_missing_file_is_a_usage_error():
    result = run("rule", "no/such/report.txt")
    assert result.exit_code == 2
    assert "no such file or directory" in result.output


def test_vocab_lists_every_form_with_its_fact():
    result = run("vocab")
    assert result.exit_code == 0
    vocab = vocabulary()
    for forms in list(vocab.observations.values()) + list(vocab.modifiers.values()):
        for form in forms:
            assert form.text in result.output
    assert "observation(O,P,drew_extra_cards), count(O,cards,CARDS)" in result.output


def test_vocab_words_lists_what_the_reader_takes_for_each_observation_of_the_policy():
    vocab = vocabulary("yugioh")
    kinds = set(vocab.policy_kinds)
    result = run("vocab", "--policy", "yugioh", "--words", "--format", "json")
    listed = {(e["kind"], e["fact"], e["form"]) for e in json.loads(result.output) if e["category"] == "reader"}
    expected = {(kind, fact, text) for fact in ("read_sign", "read_hint", "read_phrase")
                for kind, text in vocab.reading.get(fact, []) if kind in kinds}
    assert expected and expected <= listed
    assert all(kind in kinds for kind, _, _ in listed)          # never another guide's kinds
    assert "read_sign" not in run("vocab", "--policy", "yugioh").output


def test_vocab_words_lists_the_reader_s_other_words_summons_negations_and_modifier_phrases():
    result = run("vocab", "--policy", "fab", "--words", "--format", "json")
    listed = {(e["kind"], e["fact"], e["form"]) for e in json.loads(result.output) if e["category"] == "reader-other"}
    assert {("summons", "read_summoned", "called over"), ("summons", "read_summons", "called me over"),
            ("mixed_into_hand", "read_negates", "extras_identifiable"),
            ("from_cards_of", "read_phrase", "from {Q}'s deck"), ("clock", "read_arrived", "sit down"),
            ("clock", "read_round_began", "begin"), ("ruling time", "read_fix_word", "fix"),
            ("count", "read_instead_of", "should have"), ("count", "read_together", "stuck")} <= listed
    text = run("vocab", "--policy", "fab", "--words").output
    assert "read_summoned" in text and "read_negates" in text and "read_round_began" in text
    assert "read_fix_word" in text and "read_instead_of" in text


def test_compare_rules_the_same_observations_under_every_guide():
    result = run("compare", str(ROOT / "examples" / "compare" / "extra-card.txt"), "--format", "json")
    [data] = json.loads(result.output)
    assert set(data["policies"]) == {"fab", "dci", "ffg", "yugioh"}
    assert data["policies"]["fab"]["rulings"][0]["infraction"] == "hidden-card-error"
    # FFG and Yu-Gi-Oh are not written for competitive REL: a finding, so exit 1
    # (besides the report's lines FFG reads no rule of: `input` findings, the report's own)
    assert [f["kind"] for f in data["policies"]["ffg"]["findings"] if f["kind"] != "input"] == ["scope"]
    assert result.exit_code == 1, result.output


def test_compare_exits_0_only_when_every_guide_covers_every_observation_cleanly(tmp_path):
    covered = tmp_path / "covered.txt"
    covered.write_text("policy: fab\nrel: competitive\nplayer: Bob\nBob was 4 minutes late\n")
    assert run("compare", str(covered), "--rules", str(edited_rules(tmp_path))).exit_code == 0
    # without its Tardiness section the guide leaves the observation uncovered: exit 1
    without = edited_rules(tmp_path / "without")
    (without / "fab" / "s3_1_tardiness.lp").unlink()
    result = run("compare", str(covered), "--rules", str(without))
    assert result.exit_code == 1 and "not covered" in result.output, result.output


def test_print_gives_the_canonical_form():
    result = run("print", str(EXAMPLE))
    assert result.exit_code == 0
    assert "Alice drew 5 cards with intellect 4, mixed into her hand, caught before Bob's next action, " \
           "not on purpose" in result.output


def test_every_command_has_help_with_an_example():
    from conftest import all_commands
    for name, command in all_commands().items():
        if command.hidden:          # a retired spelling that only says what replaced it
            continue
        result = run(name, "--help")
        assert result.exit_code == 0
        assert command.help and "Example" in command.help, name
        for sub_name, sub in getattr(command, "commands", {}).items():
            assert run(name, sub_name, "--help").exit_code == 0
            assert sub.help and "Example" in sub.help, f"{name} {sub_name}"


def _command(*args: str, **kwargs):
    """`python -m ppgcheck ARGS` in its own process, as a user runs it (console.run, cli.main)."""
    import subprocess
    import sys
    return subprocess.run([sys.executable, "-m", "ppgcheck", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=120, **kwargs)


def test_the_command_in_its_own_process_flushes_its_output_and_keeps_exit_codes(tmp_path):
    # main() ends the process without the interpreter's teardown: the output must be all there
    ruled = _command("rule", str(EXAMPLE), "--format", "json")
    assert ruled.returncode == 0 and ruled.stderr == ""
    assert json.loads(ruled.stdout)[0]["rulings"][0]["penalty"] == "warning"
    bad = tmp_path / "bad.txt"
    bad.write_text("policy: fab\nplayer: Alice\nAlice juggled\n")
    failed = _command("rule", str(bad))
    assert failed.returncode == 2 and failed.stdout == ""
    assert f"{bad}:3:7: error" in failed.stderr and "Traceback" not in failed.stderr
    from_stdin = _command("rule", "-", input="policy: fab\nplayer: Alice\nAlice missed a trigger\n")
    assert from_stdin.returncode == 0 and "Alice: missed-trigger (PPG 2.3)" in from_stdin.stdout
    assert _command("--version").stdout.startswith("ppgcheck, version")


def test_the_command_stops_quietly_when_its_reader_goes_away():
    import subprocess
    import sys
    many = " ".join([str(EXAMPLE)] * 200)
    shell = subprocess.run(f"{sys.executable} -m ppgcheck rule {many} --format jsonl | head -n 1",
                           shell=True, capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert shell.stdout.count("\n") == 1
    assert "Traceback" not in shell.stderr


def test_every_section_that_asks_for_the_head_judge_is_cited_in_order():
    # a Game Loss for marked cards: PPG 1.2 (IP2 or higher) and PPG 3.7 (significant advantage) both ask
    report = ROOT / "tests" / "golden" / "fab" / "ppg3_7-significant-advantage-game-loss-fires.txt"
    assert "confirm with the Head Judge (PPG 1.2, PPG 3.7)" in run("rule", str(report)).output
    assert json.loads(run("rule", str(report), "--format", "json").output)[0]["rulings"][0]["head_judge"] is True
    # a Warning for marked cards: neither asks
    warning = ROOT / "tests" / "golden" / "fab" / "ppg3_7-marked-cards-warning.txt"
    assert "Head Judge (" not in run("rule", str(warning)).output


def edited_rules(tmp_path: Path) -> Path:
    """rules/core and rules/fab, with Tardiness raised from an IP2 to a Game Loss."""
    import shutil

    from ppgcheck.resources import rules_dir
    root = tmp_path / "rules"
    shutil.copytree(rules_dir() / "core", root / "core")
    shutil.copytree(rules_dir() / "fab", root / "fab")
    path = root / "fab" / "s3_1_tardiness.lp"
    text = path.read_text()
    old = 'base_penalty(O, P, tardiness, intellect_penalty, "PPG 3.1")'
    assert old in text
    path.write_text(text.replace(old, old.replace("intellect_penalty", "game_loss")))
    return root


def test_rule_with_an_edited_rules_folder(tmp_path):
    report = ROOT / "tests" / "golden" / "fab" / "ppg3_1-tardiness-base-ip2.txt"
    rules = edited_rules(tmp_path)
    [bundled] = json.loads(run("rule", str(report), "--format", "json").output)
    [edited] = json.loads(run("rule", str(report), "--format", "json", "--rules", str(rules)).output)
    assert bundled["rulings"][0]["penalty"] == "intellect-penalty"
    assert edited["rulings"][0]["penalty"] == "game-loss"
    # a batch (more than one grounding, the first in a child) uses the folder too
    many = run("rule", str(report), str(report), str(report), "--format", "jsonl", "--batch-size", "1",
               "--rules", str(rules))
    assert [json.loads(line)["rulings"][0]["penalty"] for line in many.output.splitlines()] == ["game-loss"] * 3


def test_rule_rules_folder_errors(tmp_path):
    report = ROOT / "tests" / "golden" / "fab" / "ppg3_1-tardiness-base-ip2.txt"
    (tmp_path / "empty").mkdir()
    result = run("rule", str(report), "--rules", str(tmp_path / "empty"))
    assert result.exit_code == 2 and "is not a rules folder: it holds no policy pack" in result.output
    rules = edited_rules(tmp_path)
    result = run("rule", str(report), "--rules", str(rules), "--policy", "dci")
    assert result.exit_code == 2 and "unknown policy `dci`" in result.output and "`fab`" in result.output
    dci = report.read_text().replace("policy: fab", "policy: dci")
    result = run("rule", "-", "--rules", str(rules), input=dci)
    assert result.exit_code == 2 and "unknown policy `dci`: known policies are `fab`" in result.output


def test_compare_with_an_edited_rules_folder(tmp_path):
    report = ROOT / "tests" / "golden" / "fab" / "ppg3_1-tardiness-base-ip2.txt"
    rules = edited_rules(tmp_path)          # only core and an edited fab
    result = run("compare", str(report), "--format", "json", "--rules", str(rules))
    assert result.exit_code == 0, result.output
    [data] = json.loads(result.output)
    assert set(data["policies"]) == {"fab"}
    assert data["policies"]["fab"]["rulings"][0]["penalty"] == "game-loss"
    assert run("compare", str(report), "--rules", str(tmp_path)).exit_code == 2      # no core/ there


def test_ids_lists_infractions_with_sections_and_penalties_lightest_first():
    result = CliRunner().invoke(cli, ["ids", "--policy", "yugioh", "--format", "json"])
    assert result.exit_code == 0, result.output
    listing = json.loads(result.output)["yugioh"]
    assert {"id": "sleeves", "section": "YGO: Sleeves"} in listing["infractions"]
    penalties = listing["penalties"]
    assert penalties.index("warning") < penalties.index("game-loss") < penalties.index("match-loss")


def test_an_unknown_history_id_named_like_an_observation_suggests_what_the_guide_rules_it_as(tmp_path):
    report = tmp_path / "r.txt"
    report.write_text("policy: yugioh\nplayer: Alice\nAlice has marked cards\nhistory:\n"
                      "  Alice: warning for marked-cards\n")
    result = CliRunner().invoke(cli, ["rule", str(report)])
    assert result.exit_code == 2
    assert "unknown infraction `marked-cards` for policy `yugioh`" in result.output
    assert "did you mean:\n  sleeves" in result.output


def test_compare_shows_a_gap_beside_the_ruling_and_why_a_penalty_is_not_issued(tmp_path):
    """A guide with one ruling and a gap for the same observation shows both (it exits 1 for
    that gap, so the reason must be there); a penalty the guide has not issued for another
    reason than a related infraction says that reason (issue 37)."""
    report = tmp_path / "report.txt"
    report.write_text("policy: dci\nrel: competitive\nplayer: Alice\nplayer: Bob\n"
                      "Alice drew too few cards at the start of the game\n"
                      "Alice broke a game rule, by not paying the full cost, the players resolved it quickly\n")
    result = run("compare", str(report))
    assert result.exit_code == 1, result.output
    assert "gap: the guide gives no penalty for card-drawing/improper-drawing-at-start-of-game" in result.output
    assert "(not issued: the players resolved it quickly" in result.output
    assert "(not issued: related)" not in result.output


def test_a_report_in_the_language_loads_no_reader():
    """The cold start (issue 41, floor + 60 ms): a report the strict language reads imports
    neither the tolerant reader nor its word forms' libraries (lemminflect pulls in numpy,
    ~75 ms), in a fresh process that rules the bundled example."""
    import os
    import subprocess
    import sys
    code = ("import sys\nfrom ppgcheck.cli import cli\n"
            "try:\n    cli(['rule', sys.argv[1]], standalone_mode=False)\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.startswith(('lemminflect', 'numpy', 'rapidfuzz', "
            "'ppgcheck.language.tolerant', 'ppgcheck.language.reader'))))")
    example = Path(__file__).resolve().parent.parent / "examples" / "fab" / "hidden-card-error.txt"
    env = {**os.environ, "PPGCHECK_FORK": "off"}        # (the ruling in this process, where sys.modules shows it)
    done = subprocess.run([sys.executable, "-c", code, str(example)], capture_output=True, text=True, timeout=120,
                          env=env)
    assert done.stdout.strip().splitlines()[-1] == "[]", done.stdout + done.stderr
