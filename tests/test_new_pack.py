"""`ppgcheck new-pack`: a scaffold that `check` and `test` pass, whose placeholder quotes
`check --sources` points at."""
from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from ppgcheck.cli import cli


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_a_new_pack_is_checked_and_tested_clean(tmp_path: Path):
    rules = tmp_path / "my-rules"
    made = run("new-pack", "acme-snacks", "--into", str(rules), "--source", "acme-snacks.txt")
    assert made.exit_code == 0, made.output
    pack = rules / "acme-snacks"
    assert sorted(p.relative_to(pack).as_posix() for p in pack.rglob("*") if p.is_file()) == [
        "README.md", "golden/late.expected.toml", "golden/late.txt", "s00_penalties.lp", "s01_tardiness.lp",
        "vocabulary.lp"]
    assert "`acme-snacks.txt`" in (pack / "README.md").read_text()
    assert "% --- ACME SNACKS 2 Tardiness" in (pack / "s01_tardiness.lp").read_text()
    checked = run("check", str(pack))
    assert checked.exit_code == 0 and "no findings" in checked.output, checked.output
    tested = run("test", str(pack / "golden"), "--rules", str(rules))
    assert tested.exit_code == 0 and "1 passed, 0 failed" in tested.output, tested.output


def test_its_placeholder_quotes_are_misquotes_until_the_guide_is_quoted(tmp_path: Path):
    run("new-pack", "acme", "--into", str(tmp_path), "--source", "acme.txt")
    sources = tmp_path / "sources"
    sources.mkdir()
    (sources / "acme.txt").write_text("ACME 1 Penalties\nCaution, Warning.\n")
    result = run("check", str(tmp_path / "acme"), "--sources", str(sources), "--no-monotonicity")
    assert result.exit_code == 1
    assert result.output.count("error: the quote `Replace with") == 6


def test_a_bad_name_or_a_folder_in_use_is_refused(tmp_path: Path):
    for name in ("Acme", "core", "acme snacks", "acme--x", "acme_x"):
        result = run("new-pack", name, "--into", str(tmp_path))
        assert result.exit_code == 2 and "cannot name a policy" in result.output, name
    (tmp_path / "acme").mkdir()
    (tmp_path / "acme" / "mine.lp").write_text("a.\n")
    result = run("new-pack", "acme", "--into", str(tmp_path))
    assert result.exit_code == 2 and "already exists and is not empty" in result.output
