"""packs/pack.py: one resolver finds every pack a command takes, with its core."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ppgcheck.engine.policy import hold_to_contract
from ppgcheck.language.vocabulary import pack_vocabulary

from ppgcheck.analysis.findings import kind_order, register, sarif_rules
from ppgcheck.ci.sarif import diff_to_sarif, to_sarif
from ppgcheck.packs.pack import RUNTIME_CORE, find_packs, load_pack, packs_in
from ppgcheck.errors import UsageError
from ppgcheck.resources import policy_ids, rules_dir

PACKS = Path(__file__).parent / "fixtures" / "packs"


def test_a_bundled_policy_and_every_bundled_pack():
    (fab,) = find_packs("fab")
    assert (fab.id, fab.folder, fab.core) == ("fab", rules_dir() / "fab", rules_dir() / "core")
    assert [p.id for p in find_packs()] == policy_ids()
    assert load_pack("fab").runtime_files == [rules_dir() / "core" / f for f in RUNTIME_CORE] + fab.files


def test_a_pack_folder_takes_the_core_beside_it_or_the_bundled_one(tmp_path):
    (gap,) = find_packs(path=PACKS / "gap")
    assert gap.core == rules_dir() / "core"            # tests/fixtures/packs has no core
    root = tmp_path / "rules"
    shutil.copytree(rules_dir() / "core", root / "core")
    shutil.copytree(PACKS / "gap", root / "gap")
    shutil.copytree(PACKS / "clean", root / "clean")
    (own,) = find_packs(path=root / "gap")
    assert own.core == root / "core"
    assert [(p.id, p.core) for p in find_packs(path=root)] == [("clean", root / "core"), ("gap", root / "core")]
    assert set(packs_in(root)) == {"clean", "gap"} and packs_in(tmp_path / "nothing") == {}


def test_what_is_not_a_pack_is_a_usage_error(tmp_path):
    with pytest.raises(UsageError, match="unknown policy `fabb` \\(did you mean `fab`\\?\\)"):
        find_packs("fabb")
    with pytest.raises(UsageError, match="not both"):
        find_packs("fab", PACKS)
    with pytest.raises(UsageError, match="holds no policy pack"):
        find_packs(path=tmp_path)
    with pytest.raises(UsageError, match="unknown policy `core`"):
        load_pack("core")


def test_banners_give_each_rule_its_section():
    (dead,) = find_packs(path=PACKS / "dead")
    (path,) = [p for p in dead.files if p.name == "b_tardiness.lp"]
    assert dead.first_banner(str(path)) > 0
    assert dead.section_at(str(path), 18) == "FIX 2 Tardiness"


def test_the_registry_of_kinds_drives_the_order_and_the_sarif_rules():
    assert kind_order("check") == ("conflict", "gap", "scope", "cap", "monotonicity", "nondeterminism", "no-answer-set",
                                   "dead-rule",
                                   "vocabulary", "citation", "misquote")
    check_rules = [r["id"] for r in to_sarif([])["runs"][0]["tool"]["driver"]["rules"]]
    diff_rules = [r["id"] for r in diff_to_sarif([])["runs"][0]["tool"]["driver"]["rules"]]
    assert check_rules == list(kind_order("check")) and diff_rules == list(sarif_rules("diff"))
    from ppgcheck.analysis import findings
    try:
        register("procedure-hole", "check", "warning", "A procedure the guide leaves open.")   # a kind to come
        assert kind_order("check")[-1] == "procedure-hole"
        assert [r["id"] for r in to_sarif([])["runs"][0]["tool"]["driver"]["rules"]][-1] == "procedure-hole"
        assert "input" not in kind_order("check")       # a ruling's finding, not the guide's
    finally:
        findings.KINDS.pop("procedure-hole")


def test_the_report_language_of_a_policy_finds_its_files_through_the_resolver(monkeypatch):
    from ppgcheck.packs import pack as pack_module
    from ppgcheck.language import vocabulary as vocabulary_module
    listed: list[Path] = []
    listing = pack_module.pack_files
    monkeypatch.setattr(pack_module, "pack_files", lambda folder: listed.append(folder) or listing(folder))
    vocabulary_module._policy_vocabulary.cache_clear()
    try:
        assert "ate_food" in vocabulary_module.vocabulary("acme", PACKS).observations
        assert listed == [PACKS / "acme"]
        assert "ate_food" not in vocabulary_module.vocabulary("unknown", PACKS).observations   # the core's alone
    finally:
        vocabulary_module._policy_vocabulary.cache_clear()
    # the Pack's own vocabulary is the same language
    assert pack_vocabulary(load_pack("acme", PACKS)).observations == vocabulary_module.vocabulary("acme", PACKS).observations


def test_a_pack_prepared_before_byte_for_byte_is_not_rewritten_again_to_check_its_contract(tmp_path, monkeypatch):
    """hold_to_contract holds the runtime program to the batch contract; files whose program is
    in the cache (rewritten before, with this code) met it then, and an edit checks again."""
    from ppgcheck.engine import indexing as indexing_module
    from ppgcheck.engine.policy import PolicyEngine
    monkeypatch.setenv("PPGCHECK_CACHE", str(tmp_path / "cache"))
    root = tmp_path / "rules"
    shutil.copytree(rules_dir() / "core", root / "core")
    shutil.copytree(rules_dir() / "yugioh", root / "yugioh")
    log = tmp_path / "rewrites"           # (a file: the rewrite runs in a bounded job, a child process)
    log.write_text("")
    real = indexing_module.index_pack

    def rewrites() -> list[str]:
        return log.read_text().split()

    def counted(pack, statements=None):
        with log.open("a") as out:
            out.write(pack.id + "\n")
        return real(pack, statements)
    # (policy.py imports it when it prepares a pack: patched where it is defined)
    monkeypatch.setattr(indexing_module, "index_pack", counted)
    hold_to_contract(load_pack("yugioh", root))
    assert rewrites() == ["yugioh"]                        # never prepared: rewritten to check it
    PolicyEngine(load_pack("yugioh", root)).program          # prepared (and cached) for ruling
    log.write_text("")
    hold_to_contract(load_pack("yugioh", root))
    assert rewrites() == []
    first = sorted((root / "yugioh").glob("*.lp"))[0]
    first.write_text(first.read_text() + "\n% edited\n")
    hold_to_contract(load_pack("yugioh", root))
    assert rewrites() == ["yugioh"]
