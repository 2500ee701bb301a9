"""Machine output names a pack's files relative to the folder holding its rules folder
(`rules/fab/s3_1_tardiness.lp`), wherever the rules are and whatever the working folder:
never the folder ppgcheck is installed in, never a temporary folder.  SARIF gives them
with the uriBaseId `RULESROOT`."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from ppgcheck.cli import cli
from ppgcheck.resources import rules_dir

PACKS = Path(__file__).parent / "fixtures" / "packs"
TARDINESS_BASE = 'base_penalty(O, P, tardiness, intellect_penalty, "PPG 3.1")'


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_check_names_pack_files_from_the_rules_folder(tmp_path, monkeypatch):
    rules = tmp_path / "somewhere" / "rules"
    shutil.copytree(PACKS / "dead", rules / "dead")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    text = run("check", str(rules), "--fail-on", "never").output
    assert "[rules/dead/b_tardiness.lp:18]" in text and "fires the rule at rules/dead/b_tardiness.lp:18" in text
    assert str(tmp_path) not in text
    (doc,) = json.loads(run("check", str(rules), "--format", "json").output)
    assert doc["path"] == "rules/dead"
    assert doc["findings"][0]["locations"] == [{"file": "rules/dead/b_tardiness.lp", "line": 18}]
    sarif = json.loads(run("check", str(rules), "--format", "sarif").output)
    (run_,) = sarif["runs"]
    (result,) = run_["results"]
    where = result["locations"][0]["physicalLocation"]["artifactLocation"]
    assert where == {"uri": "rules/dead/b_tardiness.lp", "uriBaseId": "RULESROOT"}
    assert run_["originalUriBaseIds"]["RULESROOT"]["uri"] == (tmp_path / "somewhere").resolve().as_uri() + "/"


def test_bundled_packs_are_named_as_rules_whatever_the_working_folder(tmp_path, monkeypatch):
    """`test --coverage` of a bundled pack run from another folder: `rules/fab/…`, and
    SARIF does not say where the package is installed."""
    (tmp_path / "late.txt").write_text("policy: fab\nrel: competitive\nplayer: Alice\nAlice was 12 minutes late\n")
    (tmp_path / "late.expected.toml").write_text('description = "over 10 minutes"\n[[ruling]]\nplayer = "Alice"\ninfraction = "tardiness"\n'
                                                 'penalty = "game-loss"\n')
    monkeypatch.chdir(tmp_path)
    out = run("test", str(tmp_path), "--coverage", "--format", "json").output
    ids = [r["id"] for r in json.loads(out)["coverage"][0]["rule_coverage"]]
    assert ids and all(i.startswith("rules/fab/") for i in ids), ids
    from ppgcheck.analysis.findings import CheckResult, Location, Gap
    from ppgcheck.ci.sarif import to_sarif
    result = CheckResult("fab", "rules/fab", [Gap("error", "a hole", locations=[Location("rules/fab/a b.lp", 3)])],
                         root=str(rules_dir().parent))
    doc = to_sarif([result])
    assert "uri" not in doc["runs"][0]["originalUriBaseIds"]["RULESROOT"]
    where = doc["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert where == {"uri": "rules/fab/a%20b.lp", "uriBaseId": "RULESROOT"}


def test_diff_names_the_edited_rule_from_the_rules_folder(tmp_path, monkeypatch):
    old, new = tmp_path / "old" / "rules", tmp_path / "new" / "rules"
    for root in (old, new):
        shutil.copytree(rules_dir() / "core", root / "core")
        shutil.copytree(rules_dir() / "fab", root / "fab")
    path = new / "fab" / "s3_1_tardiness.lp"
    path.write_text(path.read_text().replace(TARDINESS_BASE, TARDINESS_BASE.replace("intellect_penalty", "game_loss")))
    monkeypatch.chdir(tmp_path / "old")
    text = run("diff", str(old), str(new), "--policy", "fab").output
    assert "[rules/fab/s3_1_tardiness.lp:" in text and str(tmp_path) not in text.split("\n", 1)[1]
    sarif = json.loads(run("diff", str(old), str(new), "--policy", "fab", "--format", "sarif").output)
    (run_,) = sarif["runs"]
    uris = {loc["physicalLocation"]["artifactLocation"]["uri"] for r in run_["results"] for loc in r.get("locations", [])
            if "physicalLocation" in loc}
    assert uris == {"rules/fab/s3_1_tardiness.lp"}
    assert run_["originalUriBaseIds"]["RULESROOT"]["uri"] == (tmp_path / "new").resolve().as_uri() + "/"
