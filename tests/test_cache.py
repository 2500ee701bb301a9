"""The on-disk cache only saves time: the same answers with it, without it, and
with a broken or unwritable cache folder."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from ppgcheck.engine.policy import hold_to_contract

from ppgcheck import cache
from ppgcheck.engine.policy import PolicyEngine
from ppgcheck.resources import rules_dir


def calls_counted(value):
    calls = []

    def compute():
        calls.append(1)
        return value
    return compute, calls


def test_a_value_is_computed_once_per_content(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PPGCHECK_CACHE", str(tmp_path / "cache"))
    source = tmp_path / "a.lp"
    source.write_text("a.")
    compute, calls = calls_counted({"x": [1, 2]})
    assert cache.cached_json("t", [source], compute) == {"x": [1, 2]}
    assert cache.cached_json("t", [source], compute) == {"x": [1, 2]}
    assert len(calls) == 1
    source.write_text("b.")                      # an edited input is a new key
    assert cache.cached_json("t", [source], compute) == {"x": [1, 2]}
    assert len(calls) == 2


def test_off_broken_and_unwritable_caches_only_cost_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = tmp_path / "a.lp"
    source.write_text("a.")
    compute, calls = calls_counted([1])
    monkeypatch.setenv("PPGCHECK_CACHE", "off")
    assert cache.cached_json("t", [source], compute) == [1]
    assert cache.cached_json("t", [source], compute) == [1]
    assert len(calls) == 2
    folder = tmp_path / "cache"
    monkeypatch.setenv("PPGCHECK_CACHE", str(folder))
    folder.mkdir()
    (folder / f"{cache.cache_key('t', [source])}.json").write_text("{truncated")
    assert cache.cached_json("t", [source], compute) == [1]        # recomputed, and repaired
    assert json.loads((folder / f"{cache.cache_key('t', [source])}.json").read_text()) == [1]
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("PPGCHECK_CACHE", str(blocker / "sub"))     # cannot be created
    assert cache.cached_json("t", [source], compute) == [1]


def test_old_entries_are_pruned(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PPGCHECK_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(cache, "MAX_ENTRIES", 3)
    for i in range(6):
        source = tmp_path / f"{i}.lp"
        source.write_text(str(i))
        cache.cached_json("t", [source], lambda: i)
    assert len(list((tmp_path / "cache").glob("*.json"))) == 3


def test_the_entries_used_longest_ago_are_pruned_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import os
    monkeypatch.setenv("PPGCHECK_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(cache, "MAX_ENTRIES", 3)
    sources = []
    for i in range(3):
        sources.append(tmp_path / f"{i}.lp")
        sources[-1].write_text(str(i))
        cache.cached_json("t", [sources[-1]], lambda: i)
        entry = tmp_path / "cache" / f"{cache.cache_key('t', [sources[-1]])}.json"
        os.utime(entry, (1_000_000 + i, 1_000_000 + i))      # written in this order, long ago
    compute, calls = calls_counted("not again")
    assert cache.cached_json("t", [sources[0]], compute) == 0 and not calls     # the oldest, read now
    newest = tmp_path / "3.lp"
    newest.write_text("3")
    cache.cached_json("t", [newest], lambda: 3)     # one too many: the one used longest ago goes
    kept = {p.name for p in (tmp_path / "cache").glob("*.json")}
    assert kept == {f"{cache.cache_key('t', [s])}.json" for s in (sources[0], sources[2], newest)}


def test_a_pack_held_to_the_contract_is_not_rewritten_again_until_edited(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """`check` and `diff` hold a pack to the contract (index_pack) without preparing its
    program: that it met it is kept for its bytes, and an edit is held to it again."""
    import shutil

    from ppgcheck.engine import indexing as indexing_module
    from ppgcheck.errors import PolicyError
    from ppgcheck.packs.pack import find_packs
    monkeypatch.setenv("PPGCHECK_CACHE", str(tmp_path / "cache"))
    shutil.copytree(Path(__file__).parent / "fixtures" / "packs" / "clean", tmp_path / "rules" / "clean")
    (pack,) = find_packs(None, tmp_path / "rules" / "clean")
    batched = indexing_module.index_pack
    log = tmp_path / "rewrites"          # (a file: the rewrite runs in a bounded job, a child process)
    log.write_text("")

    def counted(pack, *args):
        with log.open("a") as out:
            out.write(pack.id + "\n")
        return batched(pack, *args)
    # (policy.py imports it when it prepares a pack: patched where it is defined)
    monkeypatch.setattr(indexing_module, "index_pack", counted)
    hold_to_contract(pack)
    hold_to_contract(find_packs(None, pack.folder)[0])
    assert len(log.read_text().split()) == 1
    rule_file = pack.files[0]
    rule_file.write_text(rule_file.read_text() + "\n{ broken(1) }.\n")     # a choice: against the contract
    with pytest.raises(PolicyError):
        hold_to_contract(find_packs(None, pack.folder)[0])
    with pytest.raises(PolicyError):          # refused again: a failure is not kept as met
        hold_to_contract(find_packs(None, pack.folder)[0])
    assert len(log.read_text().split()) == 3


def test_a_policy_program_is_the_same_from_the_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PPGCHECK_CACHE", "off")
    fresh = PolicyEngine("fab").program
    monkeypatch.setenv("PPGCHECK_CACHE", str(tmp_path / "cache"))
    PolicyEngine("fab").program                  # fills the cache
    assert PolicyEngine("fab").program == fresh  # read back from it


def test_the_cache_key_is_the_files_and_the_package_code(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One hash of the package's code keys every entry: no hand-kept list of which module
    derives what can leave a stale entry in use after a code change."""
    monkeypatch.setenv("PPGCHECK_CACHE", str(tmp_path / "cache"))
    PolicyEngine("yugioh").program
    [entry] = (tmp_path / "cache").glob("policy-*.json")
    import clingo
    files = PolicyEngine("yugioh").files
    assert entry.name == f"{cache.cache_key(f'policy-clingo{clingo.__version__}', files)}.json"
    assert any(f.parent == rules_dir() / "yugioh" for f in files)
    # a change to any module of the package is a new key
    package = tmp_path / "copy" / "ppgcheck"
    shutil.copytree(Path(cache.__file__).parent, package, ignore=shutil.ignore_patterns("__pycache__"))
    before = cache.code_digest()
    monkeypatch.setattr(cache, "__file__", str(package / "cache.py"))
    cache.code_digest.cache_clear()
    try:
        assert cache.code_digest() == before
        module = package / "engine" / "variants.py"
        module.write_text(module.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
        cache.code_digest.cache_clear()
        edited = cache.code_digest()
        assert edited != before
        # and so is a change to the package's own ASP (the diff's view of two versions)
        program = package / "analysis" / "diff_first_kind.lp"
        program.write_text(program.read_text(encoding="utf-8") + "\n% edited\n", encoding="utf-8")
        cache.code_digest.cache_clear()
        assert cache.code_digest() != edited
    finally:
        cache.code_digest.cache_clear()


def test_the_vocabulary_is_the_same_from_the_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ppgcheck.language import vocabulary as vocabulary_module
    path = rules_dir() / "core" / "vocabulary.lp"
    fresh = vocabulary_module.load_vocabulary(path)
    monkeypatch.setenv("PPGCHECK_CACHE", str(tmp_path / "cache"))
    for _ in range(2):                            # computed and stored, then read back
        vocabulary_module._vocabulary.cache_clear()
        vocabulary_module._policy_vocabulary.cache_clear()
        assert vocabulary_module.vocabulary() == fresh
    assert len(list((tmp_path / "cache").glob("vocabulary-*.json"))) == 1
    vocabulary_module._vocabulary.cache_clear()
    vocabulary_module._policy_vocabulary.cache_clear()


REPORT = "policy: fab\nrel: competitive\nplayer: Alice\nAlice drew 5 cards with intellect 4\n"


def _parse_fresh(text: str):
    """The report parsed by a parser got from the cache folder (no language kept in the process)."""
    from ppgcheck.language import grammar
    from ppgcheck.language.report import parse_reports
    grammar._LANGUAGES.clear()
    try:
        return parse_reports(text, "r.txt")
    finally:
        grammar._LANGUAGES.clear()


def test_the_report_parser_is_the_same_from_the_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ppgcheck.errors import ReportError
    monkeypatch.setenv("PPGCHECK_CACHE", str(tmp_path / "cache"))
    built = _parse_fresh(REPORT)
    kept = list((tmp_path / "cache").glob("grammar-*.pickle"))
    assert len(kept) == 1
    assert _parse_fresh(REPORT) == built          # read back from the file
    with pytest.raises(ReportError) as first:     # its errors too: the parse table is whole
        _parse_fresh(REPORT.replace("drew", "drew drew"))
    assert first.value.line == 4 and "expected" in str(first.value)


class _OpensAFile:
    """Unpickled, it would call open(path, "w"): what a planted cache file could do."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __reduce__(self):
        return (open, (str(self.path), "w"))


@pytest.mark.parametrize("content", ["empty", "text", "foreign"])
def test_a_broken_or_foreign_parser_file_is_rebuilt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    content: str) -> None:
    """A truncated file, or one naming anything but Lark's own classes, is never used
    (nothing it names is called): the parser is built again and the file replaced."""
    import pickle
    monkeypatch.setenv("PPGCHECK_CACHE", str(tmp_path / "cache"))
    built = _parse_fresh(REPORT)
    [kept] = (tmp_path / "cache").glob("grammar-*.pickle")
    planted = tmp_path / "planted"
    data = {"empty": b"", "text": b"not a pickle", "foreign": pickle.dumps(_OpensAFile(planted))}[content]
    kept.write_bytes(data)
    assert _parse_fresh(REPORT) == built
    assert not planted.exists()
    assert kept.read_bytes() != data


def test_a_parser_built_with_other_options_is_not_reused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The kept parser's key holds the Lark options it was built with: a change of them
    (in a new version of ppgcheck) builds and keeps a parser of its own."""
    from ppgcheck.language import grammar
    monkeypatch.setenv("PPGCHECK_CACHE", str(tmp_path / "cache"))
    _parse_fresh(REPORT)
    monkeypatch.setattr(grammar, "_LARK_OPTIONS", {**grammar._LARK_OPTIONS, "debug": False})
    _parse_fresh(REPORT)
    assert len(list((tmp_path / "cache").glob("grammar-*.pickle"))) == 2


def test_the_kept_parser_has_its_scanners_built_and_they_scan_alike(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Every scanner of the contextual lexer comes from the file (its expressions as
    `re` compiled them), and each expression is the one Lark would compile."""
    import re

    from ppgcheck.language import grammar
    monkeypatch.setenv("PPGCHECK_CACHE", str(tmp_path / "cache"))
    _parse_fresh(REPORT)
    grammar._LANGUAGES.clear()
    from ppgcheck.language.report import report_language
    lexer = report_language("fab").parser.parser.lexer
    scanners = {id(s): s for s in lexer.lexers.values()}.values()
    assert len(scanners) > 100 and all(s._scanner is not None for s in scanners)
    sample = REPORT + 'Bob said "x). #include" 3 minutes late, on purpose\n'
    for scanner in scanners:
        for kept in scanner._scanner._mres:
            compiled = re.compile(kept.pattern, kept.flags)
            assert (kept.groupindex, kept.groups) == (compiled.groupindex, compiled.groups)
            for at in range(len(sample)):
                found, expected = kept.match(sample, at), compiled.match(sample, at)
                assert (found and (found.lastgroup, found.group())) == (expected and (expected.lastgroup,
                                                                                      expected.group()))


def test_a_kept_expression_with_damaged_code_is_not_used(tmp_path: Path) -> None:
    """`_sre.compile` checks the code it is given: a damaged file is read as no parser."""
    import io
    import pickle

    from ppgcheck.language import parser_cache

    class Damaged(pickle.Pickler):
        def persistent_id(self, obj):
            return ("pattern", ("a", 32, b"\xff" * 16, 0, {}, (None,))) if obj == "expression" else None
    buffer = io.BytesIO()
    Damaged(buffer).dump(["expression"])
    (tmp_path / "kept.pickle").write_bytes(buffer.getvalue())
    assert parser_cache.load(tmp_path / "kept.pickle") is None


def test_the_kept_language_has_the_forms_and_text_it_was_generated_with(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A process that finds the parser generates no grammar text: the forms come from the
    file, in the order of the generated alternatives, and the text is generated on demand."""
    from ppgcheck.language import grammar
    from ppgcheck.language.report import report_language
    from ppgcheck.language.vocabulary import vocabulary
    monkeypatch.setenv("PPGCHECK_CACHE", str(tmp_path / "cache"))
    _parse_fresh(REPORT)
    grammar._LANGUAGES.clear()
    generated = []

    generate = grammar.grammar_text

    def counted(vocab):
        generated.append(vocab)
        return generate(vocab)
    monkeypatch.setattr(grammar, "grammar_text", counted)
    kept = report_language("fab")
    assert not generated
    text, forms = generate(vocabulary("fab"))
    assert kept.forms == forms
    assert kept.text == text and len(generated) == 1


def test_where_compiled_code_cannot_be_kept_the_parser_is_kept_without_scanners(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another Python's `re` (no code to keep): the parser is kept as Lark would have it, its
    scanners built on first use, and parses the same."""
    from ppgcheck.language import grammar, parser_cache
    monkeypatch.setenv("PPGCHECK_CACHE", str(tmp_path / "cache"))

    def unavailable(pattern):
        raise AttributeError("no re._parser here")
    monkeypatch.setattr(parser_cache, "_compiled_form", unavailable)
    built = _parse_fresh(REPORT)
    [kept] = (tmp_path / "cache").glob("grammar-*.pickle")
    assert parser_cache.load(kept) is not None
    assert _parse_fresh(REPORT) == built
    grammar._LANGUAGES.clear()


def _check_programs(pack) -> list:
    from ppgcheck.analysis.programs import MAIN_SHOWN, check_program
    return [check_program(pack, pack.root, shown=MAIN_SHOWN, wanted={"chk_open_held"}, fired=True),
            check_program(pack, pack.root, shown={"chk_mono"}, wanted={"mono_violation"}, renamed_copy=True)]


def _copied_pack(tmp_path: Path, name: str):
    import shutil

    from ppgcheck.packs.pack import find_packs
    shutil.copytree(Path(__file__).parent / "fixtures" / "packs" / name, tmp_path / "rules" / name)
    (pack,) = find_packs(None, tmp_path / "rules" / name)
    hold_to_contract(pack)
    return pack


def test_a_check_program_is_the_same_from_the_cache_and_new_for_an_edit(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from ppgcheck.packs.pack import find_packs
    pack = _copied_pack(tmp_path, "conflict")
    monkeypatch.setenv("PPGCHECK_CACHE", "off")
    fresh = [(p.text, p.tags, p.lines, p.history_scope) for p in _check_programs(pack)]
    assert any(p[1] for p in fresh) and all("chk_" in p[0] for p in fresh)
    monkeypatch.setenv("PPGCHECK_CACHE", str(tmp_path / "cache"))
    for _ in range(2):                            # computed and stored, then read back
        assert [(p.text, p.tags, p.lines, p.history_scope) for p in _check_programs(pack)] == fresh
    assert len(list((tmp_path / "cache").glob("check-*.json"))) == 2
    rule_file = next(f for f in pack.files if "late" in f.read_text())
    rule_file.write_text(rule_file.read_text().replace("late", "ate_late"))    # (an observation no form says)
    (edited,) = find_packs(None, pack.folder)
    hold_to_contract(edited)
    from_edit = [p.text for p in _check_programs(edited)]
    assert len(list((tmp_path / "cache").glob("check-*.json"))) == 4
    assert all("ate_late" in text for text in from_edit) and from_edit != [p[0] for p in fresh]


def test_a_check_program_names_the_rule_file_in_clingos_messages() -> None:
    from ppgcheck.analysis.programs import CheckProgram
    program = CheckProgram("a.\nb :- a.\nc(X) :- b,\n  X = 1.\nd.\n", {}, set(),
                           [(1, "core.lp", 7), (2, "pack.lp", 3), (3, "pack.lp", 9), (5, "pack.lp", 20)], "")
    assert program.located("<string>:4:3-8: info: operation undefined") == "pack.lp:10: info: operation undefined"
    assert program.located("<string>:2:1-9: error: x") == "pack.lp:3: error: x"
    assert program.located("no place here") == "no place here"


def test_what_a_pack_reads_is_the_same_from_the_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ppgcheck.analysis.reads import read_pack, read_pack_cached
    from ppgcheck.packs.pack import find_packs
    monkeypatch.setenv("PPGCHECK_CACHE", str(tmp_path / "cache"))
    packs = [pack for policy in ("dci", "fab", "ffg", "yugioh") for pack in find_packs(policy, None)]
    packs += [_copied_pack(tmp_path / name, name) for name in ("rel-gap", "cap", "dead")]
    for pack in packs:
        hold_to_contract(pack)
        fresh = read_pack(pack)
        assert read_pack_cached(pack) == fresh      # computed and stored
        assert read_pack_cached(pack) == fresh      # read back
        assert fresh.infractions and fresh.observation_kinds
    assert len(list((tmp_path / "cache").glob("reads-*.json"))) == len(packs)


def test_a_packs_traits_and_blind_findings_are_the_same_from_the_cache(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """What the check reads of a pack's statements (analysis/traits.py) is kept with its bytes;
    the findings blind to the REL are kept per set of findings asked about."""
    import clingo

    from ppgcheck.analysis import rels, traits
    from ppgcheck.analysis.reads import read_pack
    from ppgcheck.analysis.scenarios import scenario_facts
    from ppgcheck.packs.pack import find_packs
    pack = _copied_pack(tmp_path, "conflict")
    facts = scenario_facts(read_pack(pack), 1)
    # the conflict pack's one finding (blind to the REL), and an atom that is the REL
    targets = [clingo.parse_term('chk_finding_any(conflict,error,("two base penalties for {}: {} and {}",'
                                 'tardiness,game_loss,warning),"FIX 2")'), clingo.parse_term("rel(regular)")]
    monkeypatch.setenv("PPGCHECK_CACHE", "off")
    fresh_traits, fresh_blind = traits.pack_traits(pack), traits.blind_to_rel(pack, facts, targets)
    assert fresh_traits.rules > 0 and fresh_traits.requires_rel
    assert fresh_blind == rels.blind_to_rel(traits.rel_program(pack, facts), targets)
    assert targets[0] in fresh_blind and targets[1] not in fresh_blind
    monkeypatch.setenv("PPGCHECK_CACHE", str(tmp_path / "cache"))
    for _ in range(2):                            # computed and stored, then read back
        assert traits.pack_traits(pack) == fresh_traits
        assert traits.blind_to_rel(pack, facts, targets) == fresh_blind
    assert traits.blind_to_rel(pack, facts, targets[1:]) == set()       # other findings asked: not the same entry
    assert len(list((tmp_path / "cache").glob("blind-*.json"))) == 2
    rule_file = next(f for f in pack.files if "late" in f.read_text())
    rule_file.write_text(rule_file.read_text() + "\nnote_late(P) :- observation(_, P, late).\n")
    (edited,) = find_packs(None, pack.folder)
    assert traits.pack_traits(edited).rules == fresh_traits.rules + 1


def test_the_monotonicity_proofs_slice_is_the_same_from_the_cache(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A large pack's monotonicity proof runs on a slice of the two copies (renamed and sliced
    in Python: seconds on a large pack), kept in the cache with the pack's bytes."""
    from ppgcheck.analysis.context import Context
    from ppgcheck.analysis.monotonicity import _proof_slice
    from ppgcheck.analysis.scenarios import scenario_facts
    from ppgcheck.packs.pack import find_packs
    pack = _copied_pack(tmp_path, "monotonicity")
    facts = scenario_facts(Context.of(pack).reads, 1)
    monkeypatch.setenv("PPGCHECK_CACHE", "off")
    text, scope = _proof_slice(Context.of(pack), facts)
    assert "mono_violation" in text and "b__" in text
    monkeypatch.setenv("PPGCHECK_CACHE", str(tmp_path / "cache"))
    for _ in range(2):                            # computed and stored, then read back
        assert _proof_slice(Context.of(pack), facts) == (text, scope)
    assert len(list((tmp_path / "cache").glob("slice-*.json"))) == 1
    rule_file = next(f for f in pack.files if "late" in f.read_text())
    rule_file.write_text(rule_file.read_text() + "\n% an edit\n")
    (edited,) = find_packs(None, pack.folder)
    assert _proof_slice(Context.of(edited), facts) == (text, scope)
    assert len(list((tmp_path / "cache").glob("slice-*.json"))) == 2


def _walks_counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The files confine._check_shape walks from now on, as if in a new process."""
    from ppgcheck.packs import confine
    walked: list[str] = []
    walk = confine._check_shape
    monkeypatch.setattr(confine, "_shapes_passed", None)       # a new process knows nothing yet
    monkeypatch.setattr(confine, "_shapes_added", False)
    monkeypatch.setattr(confine, "_check_shape", lambda text, file: walked.append(file) or walk(text, file))
    return walked


def test_a_rules_file_whose_shape_passed_is_not_walked_again_in_a_later_process(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ppgcheck.packs.confine import ConfinementError, check_files
    monkeypatch.setenv("PPGCHECK_CACHE", str(tmp_path / "cache"))
    rules = tmp_path / "rules.lp"
    rules.write_text("a(1). b(X) :- a(X).\n")
    walked = _walks_counted(monkeypatch)
    assert check_files([rules]).statements == 2
    assert len(walked) == 1 and list((tmp_path / "cache").glob("shapes-*.json"))
    walked = _walks_counted(monkeypatch)
    assert check_files([rules]).statements == 2 and walked == []      # the count is kept too
    rules.write_text("a(" * 300 + ")" * 300 + ".\n")                   # other bytes: walked, and refused
    walked = _walks_counted(monkeypatch)
    with pytest.raises(ConfinementError, match="nested more than"):
        check_files([rules])
    walked = _walks_counted(monkeypatch)
    with pytest.raises(ConfinementError, match="nested more than"):  # a refusal is never kept
        check_files([rules])
    assert len(walked) == 1


def test_a_broken_map_of_passed_shapes_only_costs_the_walk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ppgcheck.packs.confine import check_files
    monkeypatch.setenv("PPGCHECK_CACHE", str(tmp_path / "cache"))
    rules = tmp_path / "rules.lp"
    rules.write_text("a(1).\n")
    check_files([rules])
    [kept] = (tmp_path / "cache").glob("shapes-*.json")
    for broken in ("[1, 2]", "{not json", json.dumps({digest: "x" for digest in json.loads(kept.read_text())})):
        kept.write_text(broken)
        walked = _walks_counted(monkeypatch)
        assert check_files([rules]).statements == 1 and len(walked) == 1


def test_an_entry_another_process_prunes_meanwhile_only_costs_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two workers pruning one folder: the entries one lists may be gone when it looks at them
    (CI saw FileNotFoundError reach a forked job when the prune left the write's guard)."""
    monkeypatch.setenv("PPGCHECK_CACHE", str(tmp_path / "cache"))
    source = tmp_path / "a.lp"
    source.write_text("a.")

    def pruned_meanwhile(folder):
        raise FileNotFoundError(2, "No such file or directory", str(folder / "gone.json"))
    monkeypatch.setattr(cache, "_prune", pruned_meanwhile)
    assert cache.cached_json("t", [source], lambda: {"x": 1}) == {"x": 1}
    assert cache.cached_json("t", [source], lambda: {"x": 2}) == {"x": 1}      # written all the same
