"""`ppgcheck check` over parts of the scenario space (space.split_by_header,
space.split_by_kind) finds what it finds over the whole space: the same
findings at the same RELs, each with a witness as small."""
from __future__ import annotations

import re
from pathlib import Path

import clingo
import pytest
from clingo import ast

import ppgcheck.analysis.check as check
import ppgcheck.analysis.dead_rules as dead_rules
from ppgcheck import check_policy
from ppgcheck.analysis import tuning
from ppgcheck.analysis.scenarios import header_parts, kind_parts
from ppgcheck.resources import rules_dir

PACKS = Path(__file__).parent / "fixtures" / "packs"


def gated_copies(source: Path, root: Path, copies: int, ids: list[str]) -> Path:
    """The pack `copies` times over: copy k (k >= 1) with each infraction id
    renamed id_ck and each of its rules applying only in round k + 1."""
    pack = root / f"{source.name}_gated"
    pack.mkdir(parents=True)
    if not (root / "core").exists():
        (root / "core").symlink_to(rules_dir() / "core")
    token = re.compile(r'"(?:[^"\\]|\\.)*"|%[^\n]*|\b(' + "|".join(ids) + r')\b')
    for k in range(copies):
        for f in sorted(source.glob("*.lp")):
            text = f.read_text(encoding="utf-8")
            if k:
                text = token.sub(lambda m: m.group(0) if m.group(1) is None else f"{m.group(1)}_c{k}", text)
                text = _gated(text, k)
            (pack / f"c{k}_{f.name}").write_text(text, encoding="utf-8")
    (pack / "c0_gate.lp").write_text("".join(f"copy({k}) :- round({k + 1}).\n" for k in range(1, copies)),
                                     encoding="utf-8")
    return pack


def _gated(text: str, k: int) -> str:
    out: list[str] = []

    def keep(st) -> None:
        if st.ast_type == ast.ASTType.Rule and st.body:
            where = st.location
            gate = ast.Literal(where, ast.Sign.NoSign, ast.SymbolicAtom(
                ast.Function(where, "copy", [ast.SymbolicTerm(where, clingo.Number(k))], 0)))
            st = st.update(body=[*st.body, gate])
        out.append(str(st))
    ast.parse_string(text, keep)
    return "\n".join(out) + "\n"


def witness_size(report) -> tuple:
    """The inputs a witness holds, level by level of scenarios.lp's #minimize."""
    if report is None:
        return ()
    headers = [report.rel, report.tier, report.event_kind, report.game_kind, report.round, report.round_kind,
               report.best_of, report.day, report.when, report.ruling_minutes]
    return (len(report.observations), sum(len(o.modifiers) for o in report.observations), len(report.history),
            len(report.persons) + sum(h is not None for h in headers))


def summary(result) -> list[tuple]:
    return sorted((f.kind, f.level, f.message, tuple(f.rels), f.minimal, witness_size(f.witness),
                   witness_size(getattr(f, "contrast", None))) for f in result.findings)


@pytest.mark.parametrize("name", ["monotonicity", "conflict"])
def test_split_space_finds_what_the_whole_space_finds(name, tmp_path, monkeypatch):
    monkeypatch.setenv("PPGCHECK_FORK", "off")   # the spy sees calls in this process only (a check is a forked job)
    pack = gated_copies(PACKS / name, tmp_path / "rules", 4, ["tardiness"])
    (whole,) = check_policy(path=pack)           # too small to split
    split_sizes: list[int] = []
    real_space = check.scenario_space

    def spy(*args, **kwargs):
        space = real_space(*args, **kwargs)
        split_sizes.append(len(space.parts))
        return space
    monkeypatch.setattr(tuning, "SPLIT_SHARE", 1.0)
    monkeypatch.setattr(tuning, "LARGE_PACK_RULES", 0)
    monkeypatch.setattr(check, "scenario_space", spy)
    (split,) = check_policy(path=pack)
    assert split_sizes and split_sizes[0] > 1, "the space was not split"
    assert whole.complete and split.complete
    assert summary(split) == summary(whole)
    kinds = {f.kind for f in whole.findings}
    assert "conflict" in kinds and (name != "monotonicity" or "monotonicity" in kinds)


def test_a_pack_that_no_header_selects_parts_of_is_not_split(monkeypatch):
    monkeypatch.setenv("PPGCHECK_FORK", "off")   # the spy sees calls in this process only (a check is a forked job)
    sizes: list[int] = []
    real_space = check.scenario_space
    monkeypatch.setattr(tuning, "LARGE_PACK_RULES", 0)     # large enough to try
    monkeypatch.setattr(tuning, "KIND_SPLIT_MIN_ATOMS", 10 ** 9)     # no split by observation kind either
    monkeypatch.setattr(check, "scenario_space",
                        lambda *a, **k: sizes.append(len(real_space(*a, **k).parts)) or real_space(*a, **k))
    check_policy(policy="yugioh", monotonicity=False)
    assert sizes == [1]


def test_a_small_pack_is_not_split(tmp_path, monkeypatch):
    """The split pays only on a large pack: below tuning.LARGE_PACK_RULES the space is whole."""
    monkeypatch.setenv("PPGCHECK_FORK", "off")   # the spy sees calls in this process only (a check is a forked job)
    pack = gated_copies(PACKS / "conflict", tmp_path / "rules", 4, ["tardiness"])
    sizes: list[int] = []
    real_space = check.scenario_space
    monkeypatch.setattr(tuning, "SPLIT_SHARE", 1.0)       # a split the share would take
    monkeypatch.setattr(tuning, "KIND_SPLIT_MIN_ATOMS", 10 ** 9)     # no split by observation kind either
    monkeypatch.setattr(check, "scenario_space",
                        lambda *a, **k: sizes.append(len(real_space(*a, **k).parts)) or real_space(*a, **k))
    check_policy(path=pack, monotonicity=False)
    assert sizes == [1]


@pytest.mark.slow(45)
@pytest.mark.parametrize("name", ["yugioh", "ffg"])
def test_space_split_by_observation_kind_finds_what_the_whole_space_finds(name, monkeypatch):
    """A pack reading many observation kinds has its one-observation space
    searched in parts by kind (space.split_by_kind): the same findings, dead
    rules included, at the same RELs, each with a witness as small."""
    monkeypatch.setenv("PPGCHECK_FORK", "off")   # the spy sees calls in this process only (a check is a forked job)
    where = {"policy": name}
    monkeypatch.setattr(tuning, "KIND_SPLIT_MIN_ATOMS", 10 ** 9)
    (whole,) = check_policy(**where, monotonicity=False)
    sizes: list[int] = []
    real_space = check.scenario_space
    monkeypatch.setattr(check, "scenario_space",
                        lambda *a, **k: sizes.append(len(real_space(*a, **k).parts)) or real_space(*a, **k))
    monkeypatch.setattr(tuning, "KIND_SPLIT_MIN_ATOMS", 0)
    monkeypatch.setattr(tuning, "KIND_GROUPS", 3)
    (split,) = check_policy(**where, monotonicity=False)
    assert sizes and sizes[0] > 1, "the space was not split"
    assert whole.complete and split.complete
    assert summary(split) == summary(whole)
    assert whole.findings


def _noting_ground(grounded: list[str], atoms: int):
    """A space's grounding: the scenario facts and `atoms` atoms more, each text it grounds noted."""
    def ground(text: str) -> clingo.Control:
        grounded.append(text)
        ctl = clingo.Control(["--warn=none"])
        ctl.add("base", [], f"{text}x(1..{atoms}).")
        ctl.ground([("base", [])])
        return ctl
    return ground


@pytest.mark.parametrize("threshold, parts", [(3, 2), (100, 1)])
def test_the_whole_space_is_ground_to_be_measured_once(threshold, parts, tmp_path, monkeypatch):
    """The whole space's size decides the split by kind; it is kept in the cache, so a space
    split by kind is not ground whole again, and one that is not is ground once a check."""
    from ppgcheck.analysis.reads import PackReads
    from ppgcheck.analysis.space import scenario_space
    monkeypatch.setenv("PPGCHECK_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(tuning, "KIND_SPLIT_MIN_ATOMS", threshold)
    facts = "scen_obs_kind(a).\nscen_obs_kind(b).\n"
    grounded: list[str] = []
    ground = _noting_ground(grounded, 5)
    for run in range(2):
        grounded.clear()
        space = scenario_space(PackReads(observation_kinds={"a", "b"}), facts, large=False, whole=ground, part=ground,
                               program="the program's text")
        assert len(space.parts) == parts
        assert grounded.count(facts) == (1 if run == 0 or parts == 1 else 0)


def test_a_header_refused_for_a_split_is_not_tried_again(tmp_path, monkeypatch):
    """The sizes of the two parts a header split is judged by are kept in the cache: a
    header refused (its parts ground to nearly the whole) is not ground to be tried again."""
    from ppgcheck.analysis.reads import PackReads
    from ppgcheck.analysis.space import scenario_space
    monkeypatch.setenv("PPGCHECK_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(tuning, "KIND_SPLIT_MIN_ATOMS", 10 ** 9)
    facts = "".join(f"scen_header_value(round,{n}).\n" for n in (1, 2, 3)) + "scen_obs_kind(a).\n"
    reads = PackReads(observation_kinds={"a"}, header_constants={"round": {1, 2, 3}})
    grounded: list[str] = []
    ground = _noting_ground(grounded, 50)
    for run in range(2):
        grounded.clear()
        space = scenario_space(reads, facts, large=True, whole=ground, part=ground, program="the program's text")
        assert space.header is None and len(space.parts) == 1
        assert grounded == ([*(part for _, part in header_parts(facts, "round", {"1", "2", "3"})[:2]), facts]
                            if run == 0 else [facts])


def test_kind_parts_deal_every_kind_to_one_part():
    facts = ("scen_max_obs(1).\nscen_obs_kind(a).\nscen_obs_kind(b).\nscen_obs_kind(c).\n"
             "scen_obs_kind(d).\nscen_obs_kind(e).\nscen_value(minutes,3).\n")
    for groups, expected in ((None, [["a"], ["b"], ["c"], ["d"], ["e"]]), (2, [["a", "c", "e"], ["b", "d"]]),
                             (9, [["a"], ["b"], ["c"], ["d"], ["e"]])):
        parts = kind_parts(facts, groups)
        assert [[line[len("scen_obs_kind("):-2] for line in part.splitlines() if line.startswith("scen_obs_kind(")]
                for part in parts] == expected
        assert all("scen_max_obs(1)." in part and "scen_value(minutes,3)." in part for part in parts)


def test_header_parts_are_disjoint_and_cover_the_space():
    facts = ("scen_max_obs(1).\nscen_header_value(round,1).\nscen_header_value(round,2).\n"
             "scen_header_value(round,3).\nscen_value(minutes,3).\n")
    parts = header_parts(facts, "round", {"2", "3"})
    assert [v for v, _ in parts] == [None, "2", "3"]
    # the value no rule names stays with the space without the header
    assert "scen_header_value(round,1)." in parts[0][1] and "scen_value(minutes,3)." in parts[0][1]
    assert "scen_header_value(round,2)." not in parts[0][1] and "not header" not in parts[0][1]
    assert "scen_header_value(round,2).\n:- not header(round,2)." in parts[1][1]
    assert "scen_header_value(round,1)." not in parts[1][1] and "scen_header_value(round,3)." not in parts[1][1]


@pytest.mark.parametrize("name", ["clean", "conflict", "gap", "monotonicity", "rel-gap", "cap"])
def test_monotonicity_proof_by_observation_kind_agrees_with_the_full_search(name, monkeypatch):
    """Where history is read only for what is committed, the sliced proof runs
    one part per observation kind (scenarios.kind_parts); it refutes exactly
    where the full search over both copies finds no violation."""
    from ppgcheck.analysis import monotonicity
    from ppgcheck.analysis.context import Context
    from ppgcheck.analysis.scenarios import kind_parts
    from ppgcheck.packs.pack import find_packs
    (pack,) = find_packs(path=PACKS / name)
    used: list[int] = []
    monkeypatch.setattr(monotonicity, "kind_parts", lambda facts: used.append(1) or kind_parts(facts))
    refuted = monotonicity.refuted(Context.of(pack, 60, 100_000))
    assert used, "the proof did not run by observation kind"
    (full,) = check_policy(path=PACKS / name)
    assert refuted == (not any(f.kind == "monotonicity" for f in full.findings))
    assert name != "monotonicity" or not refuted


def test_a_bounded_witness_search_finds_only_a_strictly_smaller_scenario():
    """search.optimum(below=cost): what a later part of the space is asked
    for a finding an earlier part has a witness of that cost for."""
    from ppgcheck.analysis.search import Budget, optimum
    ctl = clingo.Control(["--warn=none"])
    # t holds with x (cost 1 at level 2) or with y (5 at level 1): y is smaller
    ctl.add("base", [], "{ x; y }. t :- x. t :- y. #minimize { 1@2 : x ; 5@1 : y }.")
    ctl.ground([("base", [])])
    t = clingo.Function("t")
    atoms, proven, cost = optimum(ctl, Budget(10, 1000), t)
    assert proven and cost == [0, 5] and clingo.Function("y") in atoms
    for below, found in (([0, 5], None), ([0, 6], [0, 5]), ([1, 0], [0, 5]), ([0, 4], None), ([0, 0], None)):
        atoms, proven, cost = optimum(ctl, Budget(10, 1000), t, below=below)
        assert proven and (cost or None) == found, below


def test_a_witness_is_read_as_its_shown_atoms_and_what_a_scenario_says():
    """search.scenario_atoms: of a model, the shown atoms and those of the inputs, of what
    is committed and of the generic target, never a helper atom."""
    from ppgcheck.analysis.search import SCENARIO_SIGNATURES, scenario_atoms
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], "{ person(1,player); observation(1,1,late) }. committed(1,1,x) :- observation(1,1,late)."
                        " helper :- person(1,player). chk_finding(a) :- helper."
                        " chk_finding_any(a,b,c,d) :- committed(1,1,x). #show chk_finding/1.")
    ctl.ground([("base", [])])
    ctl.configuration.solve.models = 0
    models: list[tuple] = []
    ctl.solve(on_model=lambda m: models.append((sorted(scenario_atoms(ctl)(m)), sorted(m.symbols(atoms=True)),
                                                sorted(m.symbols(shown=True)))))
    assert len(models) == 4
    for read, every, shown in models:
        assert read == sorted({*shown, *(a for a in every if (a.name, len(a.arguments)) in SCENARIO_SIGNATURES)})
        assert clingo.Function("helper") not in read
    assert any(clingo.parse_term("chk_finding_any(a,b,c,d)") in read for read, _, _ in models)


@pytest.mark.parametrize("gated", [False, True])
def test_rules_two_observations_fire_are_found_together_as_one_by_one(gated, twice_pack, tmp_path, monkeypatch):
    """Many rules no one-observation scenario fires are searched for with two
    observations together (dead_rules._together, part by part where the
    space is split); the same rules stay dead as when searched one by one."""
    monkeypatch.setenv("PPGCHECK_FORK", "off")   # the spy sees calls in this process only (a check is a forked job)
    pack = twice_pack
    if gated:
        monkeypatch.setattr(tuning, "SPLIT_SHARE", 1.0)
        monkeypatch.setattr(tuning, "LARGE_PACK_RULES", 0)
        pack = gated_copies(pack, tmp_path / "rules", 3, ["tardiness"])

    def dead(result) -> list[str]:
        return sorted(f.message for f in result.findings if f.kind == "dead-rule")
    monkeypatch.setattr(tuning, "MANY_UNFIRED", 10 ** 6)
    (one_by_one,) = check_policy(path=pack, monotonicity=False)
    together_calls: list[int] = []
    real = dead_rules._together
    monkeypatch.setattr(dead_rules, "_together", lambda *a: together_calls.append(1) or real(*a))
    monkeypatch.setattr(tuning, "MANY_UNFIRED", -1)
    (together,) = check_policy(path=pack, monotonicity=False)
    assert together_calls
    assert dead(together) == dead(one_by_one)
    assert dead(one_by_one) and all("with up to two observations" in m for m in dead(one_by_one))
    assert not any("c_twice.lp:3" in m for m in dead(one_by_one))
    assert any("c_twice.lp:5" in m for m in dead(one_by_one))


def test_witness_costs_have_every_level_in_every_part(tmp_path):
    """A part of the space without modifiers or history still has every level
    of the witness objective, so costs from different parts compare."""
    from ppgcheck.analysis.programs import MAIN_SHOWN, check_program
    from ppgcheck.analysis.reads import read_pack
    from ppgcheck.analysis.scenarios import scenario_facts
    from ppgcheck.analysis.search import Budget, brave, ground, optimum
    from ppgcheck.analysis.witnesses import target as target_of
    from ppgcheck.packs.pack import find_packs
    (pack,) = find_packs(path=PACKS / "gap")
    messages: list[str] = []
    program = check_program(pack, tmp_path, shown=MAIN_SHOWN, wanted={"chk_open_held"})
    facts = "".join(line + "\n" for line in scenario_facts(read_pack(pack), 1).splitlines()
                    if not line.startswith(("scen_mod", "scen_pmod", "scen_hist")))
    ctl = ground(program.control(facts, messages), [("base", [])], "gap does not ground", messages)
    found, _ = brave(ctl, Budget(10, 1000))
    target = target_of(next(s for s in sorted(found) if s.name == "chk_finding_named"))
    atoms, proven, cost = optimum(ctl, Budget(10, 1000), target)
    assert atoms and proven and len(cost) == 6
