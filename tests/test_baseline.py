"""`ppgcheck check --baseline`: known source holes pass, anything new fails."""
from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from ppgcheck.cli import cli

FIXTURES = Path(__file__).parent / "fixtures" / "packs"
ROOT = Path(__file__).resolve().parent.parent
GAP = 'policy = "gap"\nkind = "gap"\nmessage = "the guide gives no penalty for tardiness here"\n'


def check(tmp_path: Path, baseline: str, pack: str = "gap"):
    path = tmp_path / "known.toml"
    path.write_text(baseline)
    return CliRunner().invoke(cli, ["check", str(FIXTURES / pack), "--baseline", str(path),
                                    "--no-monotonicity"])


def test_a_known_finding_with_its_reason_passes(tmp_path):
    result = check(tmp_path, "[[known]]\n" + GAP + 'reason = "the fixture gives no penalty"\n')
    assert result.exit_code == 0, result.output
    assert "1 known finding(s)" in result.output


def test_a_finding_missing_from_the_baseline_fails(tmp_path):
    result = check(tmp_path, "")
    assert result.exit_code == 1
    assert "NEW gap (error): the guide gives no penalty for tardiness here" in result.output


def test_an_entry_without_a_reason_is_rejected(tmp_path):
    result = check(tmp_path, "[[known]]\n" + GAP + 'reason = ""\n')
    assert result.exit_code == 2
    assert "every entry gives its reason" in result.output


def test_an_entry_no_longer_found_is_reported(tmp_path):
    result = check(tmp_path, "[[known]]\n" + GAP + 'reason = "r"\n' + "[[known]]\n"
                   'policy = "gap"\nkind = "conflict"\nmessage = "gone"\nreason = "r"\n')
    assert result.exit_code == 0
    assert "baseline entry no longer found (gap, conflict): gone" in result.output


def test_the_bundled_baseline_gives_every_entry_a_reason():
    from ppgcheck.ci.baseline import load_baseline
    entries = load_baseline(ROOT / "rules" / "known-findings.toml")
    assert entries and all(len(e.reason) > 20 for e in entries)


def test_every_verified_dead_rule_names_a_rule_of_its_pack_and_the_golden_case_that_fires_it():
    """A dead rule in the baseline is verified: the line it names still starts a rule (an edit
    that moves it makes the entry stale), and the golden case a reason names exists."""
    import re
    from ppgcheck.ci.baseline import load_baseline
    dead = [e for e in load_baseline(ROOT / "rules" / "known-findings.toml") if e.kind == "dead-rule"]
    assert dead
    for entry in dead:
        path, _, line = entry.message.rpartition(" at ")[2].partition(":")
        text = (ROOT / path).read_text(encoding="utf-8").splitlines()[int(line) - 1]
        assert text.strip() and not text.lstrip().startswith("%"), (entry.message, text)
        for case in re.findall(r"tests/golden/[\w/.-]+", entry.reason):
            assert (ROOT / f"{case}.txt").is_file() or (ROOT / case).is_file(), case
