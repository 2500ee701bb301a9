"""The command line's surface: `ppgcheck example` (the bundled example reports, which the wheel
carries), `ppgcheck` alone printing its help, --rules everywhere, whole summaries."""
from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from ppgcheck.cli import cli

ROOT = Path(__file__).resolve().parent.parent


def test_the_list_names_every_example_of_the_checkout():
    out = CliRunner().invoke(cli, ["example"])
    assert out.exit_code == 0, out.output
    listed = {line.split()[0] for line in out.output.splitlines()}
    on_disk = {p.relative_to(ROOT / "examples").with_suffix("").as_posix()
               for p in (ROOT / "examples").rglob("*.txt")}
    assert listed == on_disk


def test_an_example_prints_as_the_file_holds_it():
    out = CliRunner().invoke(cli, ["example", "fab/hidden-card-error"])
    assert out.exit_code == 0
    assert out.output == (ROOT / "examples" / "fab" / "hidden-card-error.txt").read_text(encoding="utf-8")


def test_a_written_example_rules_as_the_file_does(tmp_path: Path):
    target = tmp_path / "report.txt"
    runner = CliRunner()
    assert runner.invoke(cli, ["example", "examples/dci/slow-play.txt", "--write", str(target)]).exit_code == 0
    written = runner.invoke(cli, ["rule", str(target)]).output
    bundled = runner.invoke(cli, ["rule", str(ROOT / "examples" / "dci" / "slow-play.txt")]).output
    assert written.replace(str(target), "R") == bundled.replace(str(ROOT / "examples" / "dci" / "slow-play.txt"), "R")


def test_an_unknown_example_is_a_usage_error_naming_the_examples():
    out = CliRunner().invoke(cli, ["example", "fab/nothing"])
    assert out.exit_code == 2
    assert "fab/hidden-card-error" in out.output and "Traceback" not in out.output


def test_writing_never_overwrites(tmp_path: Path):
    target = tmp_path / "report.txt"
    target.write_text("mine\n")
    out = CliRunner().invoke(cli, ["example", "fab/hidden-card-error", "--write", str(target)])
    assert out.exit_code == 2 and target.read_text() == "mine\n"


def test_ppgcheck_alone_prints_its_help_and_succeeds():
    out = CliRunner().invoke(cli, [])
    assert out.exit_code == 0
    assert "Usage:" in out.output and "rule" in out.output


def test_check_takes_the_rules_folder_as_every_command_does():
    runner = CliRunner()
    pack = str(ROOT / "tests" / "fixtures" / "packs" / "gap")
    by_option = runner.invoke(cli, ["check", "--rules", pack, "--format", "json"])
    by_position = runner.invoke(cli, ["check", pack, "--format", "json"])
    assert by_option.exit_code == by_position.exit_code == 1      # the fixture's one gap
    findings = [json.loads(out.output)[0]["findings"] for out in (by_option, by_position)]
    assert findings[0] == findings[1] and findings[0]
    both = runner.invoke(cli, ["check", pack, "--rules", pack])
    assert both.exit_code == 2 and "once" in both.output


def test_the_command_list_gives_whole_summaries():
    out = CliRunner().invoke(cli, ["--help"], terminal_width=80)
    commands = out.output.split("Commands:", 1)[1]
    assert "..." not in commands
    assert "breaks it." in " ".join(commands.split())


def test_vocab_names_the_header_of_each_value():
    out = CliRunner().invoke(cli, ["vocab", "--policy", "ffg"])
    values = out.output.split("Header values:", 1)[1].split("\n\n", 1)[0].split("\n")
    written = [line.rsplit(None, 1)[0].strip() for line in values if line.strip()]
    assert "rel: casual" in written and "event: casual" in written and "round: draft" in written
    assert len(set(written)) == len(written)     # no value twice without its header
