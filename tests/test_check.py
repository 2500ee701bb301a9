"""`ppgcheck check`: each fixture pack is broken in exactly one way and the check
finds exactly that, with a witness `ppgcheck rule` reproduces; the clean pack
has no finding."""
from __future__ import annotations

import json
import shutil
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner

from ppgcheck import api, check_policy
from ppgcheck.engine import batches
from ppgcheck.analysis.check import CheckFinding, CheckResult
from ppgcheck.analysis.diff import diff_rules
from ppgcheck.analysis.findings import CoreFinding
from ppgcheck.cli import cli
from ppgcheck.engine.policy import PolicyEngine
from ppgcheck.language.report import parse_report
from ppgcheck.resources import policy_ids, rules_dir
from ppgcheck.ci.sarif import to_sarif

PACKS = Path(__file__).parent / "fixtures" / "packs"
BROKEN = ["conflict", "gap", "rel-gap", "dead", "cap", "monotonicity", "citation"]


@cache
def result(name: str) -> CheckResult:
    (r,) = check_policy(path=PACKS / name, timeout=60)
    return r


def kinds(r: CheckResult) -> list[str]:
    return sorted(f.kind for f in r.findings)


def test_clean_pack_has_no_finding():
    r = result("clean")
    assert r.complete
    assert r.findings == []


def test_check_policy_returns_dataclasses():
    r = result("gap")
    assert isinstance(r, CheckResult) and r.complete
    assert all(isinstance(f, CheckFinding) for f in r.findings)


def test_conflict_overlapping_ranges_at_the_boundary():
    r = result("conflict")
    assert kinds(r) == ["conflict"]
    (f,) = r.findings
    assert f.level == "error" and f.sections == ["FIX 2"]
    assert "two base penalties for tardiness" in f.message
    assert parse_report(f.witness_text).observations[0].counts == {"minutes": 10}
    assert f.minimal


def test_gap_hole_between_ranges_at_the_boundary():
    r = result("gap")
    assert kinds(r) == ["gap"]
    (f,) = r.findings
    assert "no penalty for tardiness" in f.message
    report = parse_report(f.witness_text)
    assert report.observations[0].counts == {"minutes": 10}
    assert report.observations[0].modifiers == [] and report.history == []


def test_dead_rule_is_located():
    r = result("dead")
    assert kinds(r) == ["dead-rule"]
    (f,) = r.findings
    assert f.level == "warning" and f.witness is None
    assert "no scenario with up to two observations fires the rule" in f.message
    assert f.locations[0].file.endswith("dead/b_tardiness.lp") and f.locations[0].line == 18
    ((one,),) = [r.findings for r in check_policy(path=PACKS / "dead", observations=1)]
    assert "no scenario with one observation fires the rule" in one.message


def test_cap_repeat_upgrade_past_declared_cap():
    r = result("cap")
    assert kinds(r) == ["cap"]
    (f,) = r.findings
    assert "game-loss to disqualification" in f.message
    report = parse_report(f.witness_text)
    assert report.observations[0].counts["minutes"] == 11       # just over the threshold
    assert [h.infraction for h in report.history] == ["tardiness"]  # one prior Tardiness


def test_monotonicity_more_minutes_lighter_penalty():
    r = result("monotonicity")
    assert kinds(r) == ["monotonicity"]
    (f,) = r.findings
    assert "warning → caution" in f.message
    before, after = parse_report(f.witness_text), parse_report(f.contrast_text)
    assert (before.observations[0].counts, after.observations[0].counts) == ({"minutes": 10}, {"minutes": 11})


def test_citation_missing_section_and_empty_section():
    r = result("citation")
    assert kinds(r) == ["citation"] * 3
    messages = " | ".join(f.message for f in r.findings)
    assert "has no section" in messages and "empty section" in messages


# --- round trip: `ppgcheck rule` on every witness gives the finding back ----------------

def fixture_engine(tmp_root: Path, name: str) -> PolicyEngine:
    root = tmp_root / "rules"
    if not root.exists():
        root.mkdir()
        (root / "core").symlink_to(rules_dir() / "core")
    if not (root / name).exists():
        (root / name).symlink_to(PACKS / name)
    return PolicyEngine(name, root)


@pytest.mark.parametrize("name", ["conflict", "gap", "rel-gap"])
def test_witnesses_round_trip_through_rule(name, tmp_path, monkeypatch):
    eng = fixture_engine(tmp_path, name)
    monkeypatch.setattr(batches, "engine", lambda policy, rules=None: eng)
    checked = [f for f in result(name).findings if isinstance(f, CoreFinding) and f.runtime]
    assert checked
    for f in checked:
        (rs,) = api.rule_report(f.witness_text, policy=name)
        got = {(x.kind, x.level, x.message, x.section) for x in rs.findings}
        assert f.runtime in got, (f.witness_text, got)


@cache
def bundled(policy: str) -> CheckResult:
    """A bundled pack's check without the monotonicity search (dci's: ~25 s), run once per
    worker for the tests below, which share an xdist group so that it is one worker."""
    (r,) = check_policy(policy, timeout=120, monotonicity=False)
    return r


@pytest.mark.parametrize("policy", [pytest.param("fab", marks=pytest.mark.xdist_group("check-fab")),
                                    "dci", "ffg", "yugioh"])
@pytest.mark.slow(45)
def test_bundled_witnesses_round_trip(policy):
    """Every conflict/gap witness of a bundled pack is ruled with that finding.  The
    witnesses are one text of `---`-separated reports, ruled as `ppgcheck rule` rules such
    a file (one grounding, not one per witness: dci's 67 witnesses in 4 s, not 55 s;
    tests/test_indexing.py proves a batch rules each report as alone)."""
    if policy not in policy_ids():
        pytest.skip(f"no bundled pack `{policy}`")
    r = bundled(policy)
    assert r.complete
    witnessed = [f for f in r.findings if isinstance(f, CoreFinding) and f.runtime and f.witness_text]
    assert witnessed
    assert not any("\n---" in f.witness_text for f in witnessed)
    rulings = api.rule_report("\n---\n".join(f.witness_text for f in witnessed))
    assert len(rulings) == len(witnessed)
    for f, rs in zip(witnessed, rulings):
        got = {(x.kind, x.level, x.message, x.section) for x in rs.findings}
        assert f.runtime in got, (f.witness_text, got)


# --- command line ---------------------------------------------------------------------------

def run(*args: str):
    return CliRunner().invoke(cli, ["check", *args])


def test_cli_exit_codes():
    assert run(str(PACKS / "clean")).exit_code == 0
    assert run(str(PACKS / "gap")).exit_code == 1
    assert run(str(PACKS / "dead")).exit_code == 0                      # a warning
    assert run(str(PACKS / "dead"), "--fail-on", "warning").exit_code == 1
    assert run(str(PACKS / "gap"), "--fail-on", "never").exit_code == 0
    bad = run("--policy", "nope")
    assert bad.exit_code == 2 and "unknown policy" in bad.output
    assert run(str(PACKS / "no-such-pack")).exit_code == 2


def test_cli_text_groups_by_kind_with_counts():
    out = run(str(PACKS / "citation")).output
    assert "3 citation" in out and "citation (3)" in out


def test_cli_json():
    out = run(str(PACKS / "gap"), "--format", "json").output
    (doc,) = json.loads(out)
    assert doc["counts"] == {"gap": 1}
    assert "Alice was 10 minutes late" in doc["findings"][0]["witness"]


def test_sarif_locations():
    doc = to_sarif([result("gap"), result("dead")])
    assert doc["version"] == "2.1.0"
    results = doc["runs"][0]["results"]
    assert {r["ruleId"] for r in results} == {"gap", "dead-rule"}
    gap = next(r for r in results if r["ruleId"] == "gap")
    loc = gap["locations"][0]
    assert loc["physicalLocation"]["artifactLocation"]["uri"].endswith("gap/b_tardiness.lp")
    assert loc["logicalLocations"][0]["name"] == "FIX 2"
    assert gap["level"] == "error"


def test_model_cap_is_reported():
    (r,) = check_policy(path=PACKS / "gap", max_models=1)
    assert not r.complete
    assert any("model cap of 1 models reached" in n for n in r.notes)


def test_time_bound_is_reported():
    (r,) = check_policy(path=PACKS / "gap", timeout=1e-6)
    assert not r.complete
    assert any("time bound" in n and "--timeout" in n for n in r.notes)
    assert run(str(PACKS / "clean"), "--max-models", "1").exit_code == 1   # incomplete is not clean


def test_two_observations_prove_a_rule_dead():
    (r,) = check_policy(path=PACKS / "dead", observations=2)
    (f,) = r.findings
    assert f.kind == "dead-rule" and f.message.startswith("no scenario with up to two observations fires")
    (clean,) = check_policy(path=PACKS / "clean", observations=2)
    assert clean.findings == []


def test_a_rule_two_observations_fire_is_not_dead(twice_pack):
    """A rule only a second observation wakes (a player late twice in one
    report) is fired by the two-observation search, so it is not reported."""
    (one,) = check_policy(path=twice_pack, observations=1)
    assert sorted(f.message.split("/")[-1] for f in one.findings if f.kind == "dead-rule") == \
        ["c_twice.lp:3", "c_twice.lp:5"]
    (two,) = check_policy(path=twice_pack, observations=2)
    assert [f.message.split("/")[-1] for f in two.findings] == ["c_twice.lp:5"]


def test_scenario_space_brackets_each_threshold():
    from ppgcheck.analysis.reads import read_pack
    from ppgcheck.analysis.scenarios import scenario_facts
    from ppgcheck.packs.pack import find_packs
    (pack,) = find_packs(path=PACKS / "gap")
    reads = read_pack(pack)
    assert 10 in reads.thresholds and "late" in reads.observation_kinds
    facts = scenario_facts(reads)
    for n in (0, 9, 10, 11, 120):                      # threshold ± 1 and the range ends
        assert f"scen_value(minutes,{n})." in facts
    assert "scen_value(minutes,50)." not in facts


def test_gap_at_some_rels_names_them():
    """A pack that tells RELs apart: a report without `rel:` is ruled at each REL, so
    "no REL given" is never where the guide's own gap shows up."""
    (r,) = check_policy(path=PACKS / "rel-gap")
    (f,) = r.findings
    assert f.kind == "gap" and sorted(f.rels) == ["casual", "regular"]
    assert "(only at: casual REL, regular REL)" in f.message
    assert "rel: " in f.witness_text


@pytest.mark.parametrize("name", ["rel-gap", "gap", "conflict"])
def test_rels_of_findings_whose_rules_never_read_the_rel_agree_with_the_search(name, monkeypatch, tmp_path):
    """A finding whose rules never read the REL is put at every REL without a
    search (rels.blind_to_rel); the REL searches, run for every finding, find
    exactly the same RELs."""
    monkeypatch.setenv("PPGCHECK_FORK", "off")   # the spy sees calls in this process only (a check is a forked job)
    monkeypatch.setenv("PPGCHECK_CACHE", str(tmp_path / "cache"))     # (the blind findings are kept there)
    import ppgcheck.analysis.rels as rels
    blind_calls: list[set] = []
    real_blind = rels.blind_to_rel

    def spy(*args):
        blind_calls.append(real_blind(*args))
        return blind_calls[-1]
    monkeypatch.setattr(rels, "blind_to_rel", spy)
    (analysed,) = check_policy(path=PACKS / name)
    monkeypatch.setattr(rels, "blind_to_rel", lambda *args: set())
    monkeypatch.setenv("PPGCHECK_CACHE", "off")
    (searched,) = check_policy(path=PACKS / name)
    assert [(f.message, f.rels) for f in analysed.findings] == [(f.message, f.rels) for f in searched.findings]
    assert all(f.rels for f in searched.findings if f.kind != "dead-rule")
    blind = set().union(*blind_calls)
    if name == "rel-gap":      # its penalties depend on the REL: searched
        assert blind == set()
    else:
        assert blind, "the REL searches were not skipped for rules that never read the REL"


def test_findings_one_scenario_shows_share_a_smallest_witness(tmp_path, monkeypatch):
    """Two copies of the conflict pack's rules under two infraction ids: the two
    `two base penalties` conflicts and the conflict between the ids come from
    one observation; each witness is still the smallest, and is ruled with its
    finding."""
    root = tmp_path / "rules"
    pack = root / "twin"
    pack.mkdir(parents=True)
    (root / "core").symlink_to(rules_dir() / "core")
    for f in (PACKS / "conflict").glob("*.lp"):
        (pack / f.name).write_text(f.read_text())
    twin = (PACKS / "conflict" / "b_tardiness.lp").read_text()
    (pack / "c_tardiness_b.lp").write_text(twin.replace("tardiness", "tardiness_b").replace("FIX 2", "FIX 3"))
    (r,) = check_policy(path=pack, timeout=60, monotonicity=False)
    assert r.complete and kinds(r) == ["conflict"] * 3
    eng = PolicyEngine("twin", root)
    monkeypatch.setattr(batches, "engine", lambda policy, rules=None: eng)
    for f in r.findings:
        assert f.minimal
        if "two base penalties" in f.message:
            assert parse_report(f.witness_text).observations[0].counts == {"minutes": 10}
        (rs,) = api.rule_report(f.witness_text, policy="twin")
        assert f.runtime in {(x.kind, x.level, x.message, x.section) for x in rs.findings}


# --- the procedures besides penalties (issue 18) ---------------------------------------------

def test_procedure_holes_each_with_a_witness_rule_reproduces(tmp_path, monkeypatch):
    """The procedures fixture: a state with no outcome, two outcomes, and an outcome against
    a penalty of the same report, each found with a witness stating the match."""
    r = result("procedures")
    messages = {f.message.split(" (only at")[0]: f for f in r.findings}
    assert "the guide gives no outcome for this state of the match: extra-turns-over" in messages
    assert any(m.startswith("two outcomes for one state of the match: one more turn is played and a match winner")
               for m in messages)
    contradiction = messages["the outcome gives the match to a player whose match-loss ends it"]
    witness = parse_report(contradiction.witness_text)
    assert [s.kind for s in witness.states] == ["conceded"] and witness.observations[0].kind == "late"
    eng = fixture_engine(tmp_path, "procedures")
    monkeypatch.setattr(batches, "engine", lambda policy, rules=None: eng)
    for f in r.findings:
        if f.runtime:
            (rs,) = api.rule_report(f.witness_text, policy="procedures")
            assert f.runtime in {(x.kind, x.level, x.message, x.section) for x in rs.findings}, f.witness_text


def test_a_pack_reading_no_match_state_searches_none():
    assert not any("outcome" in f.message for f in result("clean").findings)
    assert not any("outcome" in f.message for f in result("gap").findings)


@pytest.mark.xdist_group("check-fab")
def test_fab_procedure_holes():
    """The FaB quick reference's procedure holes: time called between games, an intentional
    draw in a play-off, and equal life after every play-off step with no seeds."""
    r = bundled("fab")
    holes = {f.message.split(" (only at")[0]: f for f in r.findings if "no outcome" in f.message}
    assert set(holes) == {f"the guide gives no outcome for this state of the match: {k}"
                          for k in ("time-called-between-games", "agreed-draw", "kept-going")}
    seeds = parse_report(holes["the guide gives no outcome for this state of the match: kept-going"].witness_text)
    assert "seed" not in seeds.tallies and len(set(n for _, n in seeds.tallies["life"])) == 1
    assert not any("two outcomes" in f.message or "ends it" in f.message for f in r.findings)


def test_a_rel_out_of_scope_is_a_scope_finding_everywhere(tmp_path):
    """The core's `scope` finding (a REL the guide is not written for) is labelled
    `scope`, not `gap`: in check's text, JSON and SARIF, and in a diff that narrows the scope."""
    def pack(name: str, rels: list[str]) -> Path:
        folder = tmp_path / name / "scope"
        shutil.copytree(PACKS / "clean", folder)
        ladder = folder / "a_penalties.lp"
        # one fact a REL (the diff reads a pooled fact's edit as no edit: a known limit of its reader)
        ladder.write_text(ladder.read_text().replace("rel_covered(casual; regular; competitive; professional).",
                                                     " ".join(f"rel_covered({r})." for r in rels)))
        return folder
    wide = pack("wide", ["casual", "regular", "competitive", "professional"])
    narrow = pack("narrow", ["competitive", "professional"])
    (r,) = check_policy(path=narrow)
    assert kinds(r) == ["scope", "scope"] and {f.level for f in r.findings} == {"warning"}
    assert all("is not written for" in f.message for f in r.findings)
    text = run(str(narrow)).output
    assert "2 scope" in text and "  scope (2)" in text and "gap" not in text
    (doc,) = json.loads(run(str(narrow), "--format", "json").output)
    assert doc["counts"] == {"scope": 2}
    sarif = to_sarif([r])
    assert {x["ruleId"] for x in sarif["runs"][0]["results"]} == {"scope"}
    assert "scope" in {rule["id"] for rule in sarif["runs"][0]["tool"]["driver"]["rules"]}
    (d,) = diff_rules(wide, narrow)
    introduced = [c.message for c in d.introduced()]
    assert len(introduced) == 2 and all(m.startswith("finding introduced: scope (warning)") for m in introduced)


# --- the heaviest permitted penalty (shared/design/discretion.md) -----------------------

def _heaviest_pack(tmp_path: Path, condition: str) -> Path:
    """The monotonicity-heaviest fixture with its upgrade option under `condition`."""
    pack = tmp_path / "rules" / "heaviest"
    shutil.copytree(PACKS / "monotonicity-heaviest", pack)
    (tmp_path / "rules" / "core").symlink_to(rules_dir() / "core")
    rules = pack / "b_tardiness.lp"
    rules.write_text(rules.read_text().replace("count(O, minutes, N), N <= 10.", condition + "."))
    return pack


def test_an_option_lost_when_the_scenario_gets_worse_breaks_the_heaviest_permitted_penalty():
    """The default (Warning) never gets lighter, but the Head Judge's option to make
    it a Game Loss ends past 10 minutes: the heaviest permitted penalty gets lighter,
    with the smallest witness and its one-step-worse contrast."""
    r = result("monotonicity-heaviest")
    assert kinds(r) == ["monotonicity"]
    (f,) = r.findings
    assert "lighter heaviest permitted penalty" in f.message and "game-loss → warning" in f.message
    before, after = parse_report(f.witness_text), parse_report(f.contrast_text)
    assert (before.observations[0].counts, after.observations[0].counts) == ({"minutes": 10}, {"minutes": 11})
    assert len(before.persons) == 1 and not before.history and f.minimal


def test_the_heaviest_break_witnesses_rule_as_the_finding_says(tmp_path, monkeypatch):
    """`ppgcheck rule` on the witness permits a Game Loss; on its contrast, only the Warning."""
    eng = fixture_engine(tmp_path, "monotonicity-heaviest")
    monkeypatch.setattr(batches, "engine", lambda policy, rules=None: eng)
    (f,) = result("monotonicity-heaviest").findings
    permitted = []
    for text in (f.witness_text, f.contrast_text):
        (rs,) = api.rule_report(text, policy="monotonicity-heaviest")
        (ruling,) = rs.rulings
        permitted.append((ruling.penalty, sorted(ruling.permitted)))
    assert permitted == [("warning", ["game-loss", "warning"]), ("warning", ["warning"])]


@pytest.mark.parametrize("condition", ["count(O, minutes, N)", "count(O, minutes, N), N >= 5"])
def test_an_option_kept_or_gained_when_worse_is_no_break(tmp_path, condition):
    """The same option at every count, or only from 5 minutes on (gained as the
    player gets later): the heaviest permitted penalty never gets lighter."""
    (r,) = check_policy(path=_heaviest_pack(tmp_path, condition), timeout=60)
    assert r.complete and kinds(r) == []


def test_the_candidate_search_takes_turns_until_it_finds_or_refutes(tmp_path, monkeypatch):
    """The heaviest-permitted search's candidate search takes turns between restart policies,
    each turn bounded in conflicts, the bound doubling: with turns of one conflict it still
    finds the break, and still proves a pack without one (the check complete)."""
    from ppgcheck.analysis import tuning
    monkeypatch.setattr(tuning, "CANDIDATE_TURN_CONFLICTS", 1)
    (r,) = check_policy(path=PACKS / "monotonicity-heaviest", timeout=60)
    assert kinds(r) == ["monotonicity"] and "game-loss → warning" in r.findings[0].message
    (clean,) = check_policy(path=_heaviest_pack(tmp_path, "count(O, minutes, N)"), timeout=60)
    assert clean.complete and kinds(clean) == []


def test_a_default_break_is_not_reported_again_as_a_heaviest_break(tmp_path):
    """Where the default penalty already gets lighter, that is the one finding:
    the heaviest permitted penalty's search leaves such scenarios to it."""
    pack = _heaviest_pack(tmp_path, "count(O, minutes, N), N <= 10")
    (pack / "c_downgrade.lp").write_text(
        '% --- FIX 2 Tardiness ----------------------------------------------------------\n'
        '% "Over 10 minutes late is only a Caution."\n'
        'adjustment(O, P, tardiness, 1, downgrade, to(caution), "over 10 minutes late", "FIX 2") :-\n'
        '    committed(O, P, tardiness), count(O, minutes, N), N > 10.\n')
    (r,) = check_policy(path=pack, timeout=60)
    assert kinds(r) == ["monotonicity"]
    assert "gives a lighter penalty: tardiness, warning → caution" in r.findings[0].message


# --- a distinct hole gets its own witness ----------------------------------------------

def test_a_second_hole_of_one_gap_gets_its_own_witness():
    """`late` is classified from 1 to 10 minutes only: the gap's smallest witness
    shows 0 minutes, and the hole past 10 is a finding of its own with its own
    smallest witness, where one witness per message used to hide it."""
    r = result("two-holes")
    assert kinds(r) == ["gap", "gap"]
    by_minutes = {parse_report(f.witness_text).observations[0].counts["minutes"]: f for f in r.findings}
    assert sorted(by_minutes) == [0, 11]
    assert by_minutes[0].message == "no rule of this guide classifies this observation: `late`"
    assert by_minutes[11].message.endswith("(another hole at minutes 11 and more)")
    assert all(f.minimal for f in r.findings)


def test_one_hole_is_one_finding():
    """The gap fixture's hole is the one value between its two ranges: no other hole."""
    (f,) = result("gap").findings
    assert "another hole" not in f.message
