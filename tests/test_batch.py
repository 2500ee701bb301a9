"""Batch rulings through the CLI (`ppgcheck rule` with many inputs), via click's CliRunner.

The batch path does not depend on what a policy says, so these tests run on two
tiny policy packs on top of the real rules/core (grounded in milliseconds)
instead of the bundled guides: they check files, directories, `-`, `---`,
jsonl order, errors and "grounded once per process".  No test here is timed;
timing lives in bench/run.
"""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from ppgcheck.packs import pack as pack_module
from ppgcheck.engine import policy as policy_module
from ppgcheck import resources
from ppgcheck.cli import cli

CORE = Path(resources.rules_dir()) / "core"

MINI = """\
% mini: a one-section test pack (not a real guide)
penalty_rank(warning, 1).
penalty_rank(game_loss, 2).
next_penalty(warning, game_loss).
rel_covered(competitive).
scope_section("T 1").
section(drawing_extra_cards, "T 1").
infraction(O, P, drawing_extra_cards) :- observation(O, P, drew_extra_cards).
base_penalty(O, P, drawing_extra_cards, {pen}, "T 1") :- committed(O, P, drawing_extra_cards).
fix(O, P, drawing_extra_cards, 1, "shuffle the extra cards into the deck", "T 1") :-
    committed(O, P, drawing_extra_cards).
"""

GOOD = "policy: {policy}\nrel: competitive\nplayer: {name}\nplayer: Zed\n{name} drew {n} extra cards.\n"
GAP = "policy: mini\nplayer: Alice\nplayer: Bob\nAlice missed a trigger.\n"
BAD_SYNTAX = "policy: mini\nplayer: Alice\nAlice juggled the deck.\n"
BAD_NAME = "policy: mini\nplayer: Alice\nMallory drew 1 extra cards.\n"


def good(name: str = "Alice", n: int = 1, policy: str = "mini") -> str:
    return GOOD.format(policy=policy, name=name, n=n)


@pytest.fixture
def rules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> SimpleNamespace:
    """A rules tree: the real core plus the packs `mini` (Warning) and `minib` (Game Loss),
    with a fresh engine cache and a count of engines built."""
    root = tmp_path / "rules"
    shutil.copytree(CORE, root / "core")
    for name, pen in (("mini", "warning"), ("minib", "game_loss")):
        (root / name).mkdir()
        (root / name / "s1_test.lp").write_text(MINI.format(pen=pen))
    monkeypatch.setattr(resources, "rules_dir", lambda: root)
    monkeypatch.setattr(pack_module, "rules_dir", lambda: root)
    built: list[str] = []

    class CountingEngine(policy_module.PolicyEngine):
        def __init__(self, policy: str, rules_root: Path | None = None) -> None:
            built.append(policy)
            super().__init__(policy, rules_root)

    monkeypatch.setattr(policy_module, "PolicyEngine", CountingEngine)
    policy_module._engine.cache_clear()
    yield SimpleNamespace(path=root, built=built)
    policy_module._engine.cache_clear()


def invoke(*args: str, input: str | None = None):
    return CliRunner().invoke(cli, ["rule", *args], input=input, catch_exceptions=False)


def jsonl(stdout: str) -> list[dict]:
    lines = stdout.splitlines()
    out = []
    for line in lines:
        assert line.strip(), "jsonl has no blank lines"
        obj = json.loads(line)            # each line is one whole JSON value ...
        assert isinstance(obj, dict)      # ... and that value is one ruling object
        out.append(obj)
    return out


def starts(rows: list[dict], source: str) -> list[int]:
    """The line each report starts on, from names `SOURCE` or `SOURCE:LINE`; all distinct."""
    lines = []
    for r in rows:
        name = r["report"]
        assert name == source or name.startswith(source + ":"), name
        lines.append(int(name[len(source) + 1:]) if name != source else 1)
    assert len(set(lines)) == len(lines)
    return lines


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_many_files_and_directories_in_one_process(rules: SimpleNamespace, tmp_path: Path) -> None:
    a = write(tmp_path / "in" / "a.txt", good("Alice"))
    d = tmp_path / "in" / "dir"
    write(d / "b.txt", good("Bob", policy="minib"))
    write(d / "c.txt", good("Carol"))
    write(d / "sub" / "d.txt", good("Dana", policy="minib"))
    write(d / "notes.md", "not a report")                     # only *.txt are reports
    e = write(tmp_path / "in" / "e.txt", good("Erin"))
    result = invoke(str(a), str(d), str(e), "--format", "jsonl")
    assert result.exit_code == 0, result.stderr
    rows = jsonl(result.stdout)
    assert [r["report"] for r in rows] == [str(a), str(d / "b.txt"), str(d / "c.txt"),
                                           str(d / "sub" / "d.txt"), str(e)]
    assert [r["rulings"][0]["player"] for r in rows] == ["Alice", "Bob", "Carol", "Dana", "Erin"]
    assert [r["rulings"][0]["penalty"] for r in rows] == ["warning", "game-loss", "warning",
                                                          "game-loss", "warning"]
    # five reports, two policies: each policy was grounded once for the whole batch
    assert sorted(rules.built) == ["mini", "minib"]
    assert result.stderr == ""


def test_reports_separated_by_dashes_in_one_file(rules: SimpleNamespace, tmp_path: Path) -> None:
    f = write(tmp_path / "season.txt", "---\n".join([good("Alice", 1), good("Bob", 2, "minib"),
                                                     "# a comment\n" + good("Carol", 3)]))
    result = invoke(str(f), "--format", "jsonl")
    assert result.exit_code == 0, result.stderr
    rows = jsonl(result.stdout)
    assert [r["rulings"][0]["player"] for r in rows] == ["Alice", "Bob", "Carol"]
    assert [r["policy"] for r in rows] == ["mini", "minib", "mini"]
    # each report is named by its file (and the line it starts on), in file order
    assert starts(rows, str(f)) == sorted(starts(rows, str(f)))
    assert rules.built.count("mini") == 1


def test_reports_from_stdin(rules: Path) -> None:
    text = "---\n".join(good(n, i + 1) for i, n in enumerate(["Alice", "Bob", "Carol", "Dana"]))
    result = invoke("-", "--format", "jsonl", input=text)
    assert result.exit_code == 0, result.stderr
    rows = jsonl(result.stdout)
    assert [r["rulings"][0]["player"] for r in rows] == ["Alice", "Bob", "Carol", "Dana"]
    assert starts(rows, "<stdin>") == sorted(starts(rows, "<stdin>"))


def test_stdin_between_files_keeps_argument_order(rules: SimpleNamespace, tmp_path: Path) -> None:
    a = write(tmp_path / "a.txt", good("Alice"))
    z = write(tmp_path / "z.txt", good("Zoe"))
    result = invoke(str(z), "-", str(a), "--format", "jsonl", input=good("Sam") + "---\n" + good("Tia"))
    assert result.exit_code == 0, result.stderr
    assert [r["rulings"][0]["player"] for r in jsonl(result.stdout)] == ["Zoe", "Sam", "Tia", "Alice"]


def test_jsonl_is_one_json_object_per_line_in_input_order(rules: SimpleNamespace, tmp_path: Path) -> None:
    # more than 50 inputs: the progress bar would show on a terminal; off a terminal
    # (here) nothing but jsonl reaches stdout and nothing at all reaches stderr
    d = tmp_path / "many"
    names = [f"P{i:03d}" for i in range(60)]
    for i, name in enumerate(names):
        text = GAP.replace("Alice", name) if i % 7 == 3 else good(name, i % 5 + 1, "minib" if i % 2 else "mini")
        write(d / f"{i:03d}.txt", text)
    result = invoke(str(d), "--format", "jsonl")
    assert result.exit_code == 1                 # some reports carry a gap finding
    assert result.stderr == ""
    rows = jsonl(result.stdout)
    assert len(rows) == len(names) == len(result.stdout.splitlines())
    assert [r["report"] for r in rows] == [str(d / f"{i:03d}.txt") for i in range(60)]
    for i, r in enumerate(rows):
        if i % 7 == 3:
            assert r["rulings"] == [] and [f["kind"] for f in r["findings"]] == ["gap"]
        else:
            assert r["rulings"][0]["player"] == names[i]
    assert sorted(rules.built) == ["mini", "minib"]


@pytest.mark.parametrize("bad", [BAD_SYNTAX, BAD_NAME, good(policy="nosuchpolicy")],
                         ids=["syntax", "undeclared-name", "unknown-policy"])
def test_one_bad_report_among_good_ones(rules: SimpleNamespace, tmp_path: Path, bad: str) -> None:
    first = write(tmp_path / "1.txt", good("Alice"))
    broken = write(tmp_path / "2.txt", bad)
    last = write(tmp_path / "3.txt", good("Carol", policy="minib"))
    result = invoke(str(first), str(broken), str(last), "--format", "jsonl")
    assert result.exit_code == 2
    rows = jsonl(result.stdout)
    assert [r["report"] for r in rows] == [str(first), str(last)]
    assert [r["rulings"][0]["player"] for r in rows] == ["Alice", "Carol"]
    # the bad file's error, located, on stderr; nothing about the good ones
    assert f"{broken}:" in result.stderr and "error" in result.stderr
    assert str(first) not in result.stderr and str(last) not in result.stderr
    assert "Traceback" not in result.stderr


def test_bad_report_in_a_separated_file_spares_the_other_files(rules: SimpleNamespace, tmp_path: Path) -> None:
    # a file is ruled whole or not at all (no partial result for one file) ...
    mixed = write(tmp_path / "a.txt", good("Alice") + "---\n" + BAD_SYNTAX)
    other = write(tmp_path / "b.txt", good("Bob"))
    result = invoke(str(mixed), str(other), "--format", "jsonl")
    assert result.exit_code == 2
    # ... and the batch goes on with the next file
    assert [r["report"] for r in jsonl(result.stdout)] == [str(other)]
    assert f"{mixed}:" in result.stderr


def test_bad_report_text_format_and_json_list(rules: SimpleNamespace, tmp_path: Path) -> None:
    a = write(tmp_path / "a.txt", good("Alice"))
    bad = write(tmp_path / "b.txt", BAD_SYNTAX)
    c = write(tmp_path / "c.txt", good("Carol"))
    text = invoke(str(a), str(bad), str(c))
    assert text.exit_code == 2
    assert str(a) in text.stdout and str(c) in text.stdout and f"{bad}:" in text.stderr
    as_json = invoke(str(a), str(bad), str(c), "--format", "json")
    assert as_json.exit_code == 2
    # the bad file's error in the list, in its place, for a program to read (issue 36)
    assert [r["report"] for r in json.loads(as_json.stdout)] == [str(a), str(bad), str(c)]
    assert [set(r) for r in json.loads(as_json.stdout)][1] == {"report", "error"}


def test_findings_and_bad_input_exit_codes_combine(rules: SimpleNamespace, tmp_path: Path) -> None:
    gap = write(tmp_path / "a.txt", GAP)
    ok = write(tmp_path / "b.txt", good())
    assert invoke(str(ok), "--format", "jsonl").exit_code == 0
    assert invoke(str(gap), str(ok), "--format", "jsonl").exit_code == 1
    bad = write(tmp_path / "c.txt", BAD_SYNTAX)
    assert invoke(str(gap), str(bad), str(ok), "--format", "jsonl").exit_code == 2
    assert invoke(str(bad), str(gap), "--format", "jsonl").exit_code == 2


def test_policy_option_overrides_every_report(rules: SimpleNamespace, tmp_path: Path) -> None:
    files = [write(tmp_path / f"{i}.txt", good(f"P{i}", policy="mini")) for i in range(3)]
    result = invoke(*map(str, files), "--policy", "minib", "--format", "jsonl")
    assert result.exit_code == 0, result.stderr
    assert {r["policy"] for r in jsonl(result.stdout)} == {"minib"}
    assert rules.built == ["minib"]


@pytest.mark.parametrize("kind", ["missing", "not-utf8"])
def test_unreadable_file_among_good_ones(rules: SimpleNamespace, tmp_path: Path, kind: str) -> None:
    first = write(tmp_path / "1.txt", good("Alice"))
    broken = tmp_path / "2.txt"
    if kind == "not-utf8":
        broken.write_bytes(b"policy: mini\nplayer: \xff\xfe\n")
    last = write(tmp_path / "3.txt", good("Carol"))
    result = invoke(str(first), str(broken), str(last), "--format", "jsonl")
    assert result.exit_code == 2
    assert [r["report"] for r in jsonl(result.stdout)] == [str(first), str(last)]
    assert str(broken) in result.stderr and "Traceback" not in result.stderr


class Groundings:
    """Each grounding (PolicyEngine.solve_many call) as it happens: how many reports and
    which process ran it.  Written to a file, because a batch that more input follows
    is ruled in a forked child (ppgcheck/packs/isolation.py), whose lists the test never sees."""

    def __init__(self, log: Path) -> None:
        self.log = log

    def entries(self) -> list[tuple[int, int]]:
        if not self.log.exists():
            return []
        return [tuple(map(int, line.split())) for line in self.log.read_text().splitlines()]  # type: ignore[misc]

    def sizes(self) -> list[int]:
        return [size for size, _ in self.entries()]


def count_groundings(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Groundings:
    groundings = Groundings(tmp_path / "groundings.log")
    solve_many = policy_module.PolicyEngine.solve_many

    def counted(self, fact_lists, explore=None, shown=None):
        with groundings.log.open("a") as log:
            log.write(f"{len(fact_lists)} {os.getpid()}\n")
        return solve_many(self, fact_lists, explore, shown)

    monkeypatch.setattr(policy_module.PolicyEngine, "solve_many", counted)
    return groundings


def test_batches_of_a_few_reports_keep_order_across_policies_and_errors(
        rules: SimpleNamespace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    groundings = count_groundings(monkeypatch, tmp_path)
    files = []
    for i in range(7):
        text = BAD_SYNTAX if i == 3 else good(f"P{i}", policy="minib" if i % 2 else "mini")
        files.append(write(tmp_path / f"{i}.txt", text))
    result = invoke(*map(str, files), "--format", "jsonl", "--batch-size", "2")
    assert result.exit_code == 2 and f"{files[3]}:" in result.stderr
    rows = jsonl(result.stdout)
    assert [r["rulings"][0]["player"] for r in rows] == ["P0", "P1", "P2", "P4", "P5", "P6"]
    assert [r["rulings"][0]["penalty"] for r in rows] == ["warning", "game-loss", "warning",
                                                          "warning", "game-loss", "warning"]
    # a policy's reports are ruled when two of them wait (P0 P2 | P3 P4 | P1 P5 | P6), one
    # grounding a batch; P3, a file of one report, is parsed in its batch's job and refused there
    assert sorted(groundings.sizes()) == [1, 1, 2, 2]


def test_batch_size_one_rules_each_report_alone_with_the_same_result(
        rules: SimpleNamespace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    groundings = count_groundings(monkeypatch, tmp_path)
    files = [write(tmp_path / f"{i}.txt", good(f"P{i}", i + 1, "minib" if i % 2 else "mini")) for i in range(4)]
    alone = invoke(*map(str, files), "--format", "jsonl", "--batch-size", "1")
    assert groundings.sizes() == [1, 1, 1, 1]
    together = invoke(*map(str, files), "--format", "jsonl")
    assert groundings.sizes()[4:] == [2, 2]
    assert alone.stdout == together.stdout and alone.exit_code == together.exit_code == 0
    assert invoke(str(files[0]), "--batch-size", "0").exit_code == 2      # a usage error


# --- a batch that more input follows is ruled in a forked child --------------------

needs_fork = pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform: every batch runs in-process")


def mixed_files(tmp_path: Path, count: int = 7) -> list[Path]:
    return [write(tmp_path / f"{i}.txt", BAD_SYNTAX if i == 3 else good(f"P{i}", i + 1, "minib" if i % 2 else "mini"))
            for i in range(count)]


@needs_fork
def test_every_batch_is_ruled_in_a_child_of_its_own_for_each_policy(
        rules: SimpleNamespace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    groundings = count_groundings(monkeypatch, tmp_path)
    invoke(*map(str, mixed_files(tmp_path, 6)), "--format", "jsonl", "--batch-size", "2")
    pids = [pid for _, pid in groundings.entries()]
    assert sorted(groundings.sizes()) == [1, 2, 2]      # P0 P2 | P3 P4 | P1 P5 (P3 is bad)
    # each batch a job in its own child (bounded in time and memory), the last ones too
    assert len(set(pids)) == 3 and os.getpid() not in pids


@needs_fork
@pytest.mark.parametrize("fmt", ["jsonl", "json", "text"])
def test_forked_batches_give_the_output_of_in_process_ones(
        rules: SimpleNamespace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fmt: str) -> None:
    files = [*map(str, mixed_files(tmp_path, 9)), str(write(tmp_path / "gap.txt", GAP))]
    forked = invoke(*files, "--format", fmt, "--batch-size", "2")
    monkeypatch.setenv("PPGCHECK_FORK", "off")
    here = invoke(*files, "--format", fmt, "--batch-size", "2")
    assert forked.stdout == here.stdout and forked.stderr == here.stderr
    assert forked.exit_code == here.exit_code == 2
    assert forked.stdout.count("8.txt") == 1     # each report once, the bad one ruled nowhere
    if fmt == "json":       # (its error in the list, for a program)
        assert [r["error"]["kind"] for r in json.loads(forked.stdout) if r["report"].endswith("3.txt")] == ["parse"]
    else:
        assert "3.txt" not in forked.stdout


@needs_fork
def test_a_policy_error_in_a_child_is_the_same_clear_error(
        rules: SimpleNamespace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(self, fact_lists, explore=None):
        raise policy_module.PolicyError(f"policy `{self.policy}` does not ground: boom")

    monkeypatch.setattr(policy_module.PolicyEngine, "solve_many", broken)
    result = invoke(*map(str, mixed_files(tmp_path)), "--format", "jsonl", "--batch-size", "2")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.strip() == "policy `mini` does not ground: boom"


def test_a_files_reports_come_back_whole_from_the_spool_sharing_their_vocabulary(monkeypatch):
    """read_whole keeps a file's checked reports (on disk past SPOOL_BYTES) and gives them
    back equal, in order; the reports of a policy share its one vocabulary, which the
    spool names rather than copies (a copy each was ~38 KB and ~3 ms a report)."""
    from ppgcheck.cli import common
    from ppgcheck.language.report import parse_reports
    monkeypatch.setattr(common, "SPOOL_BYTES", 4096)       # past the first few reports: on disk
    text = "\n---\n".join(f"policy: fab\nplayer: Alice{i}\nAlice{i} was {i} minutes late" for i in range(1, 41))
    reports = parse_reports(text, "many.txt")
    back = list(common.read_whole(iter(reports)))
    assert [r.persons for r in back] == [r.persons for r in reports]
    assert [r.observations for r in back] == [r.observations for r in reports]
    assert all(r.vocab is reports[0].vocab for r in back)


# --- files of one report are parsed in the job that rules them; batches run side by side ---

def varied_files(tmp_path: Path) -> list[str]:
    """Files of one report (good, bad syntax, unknown name, no policy line, unknown policy),
    a file of several reports, and a directory: what `rule` reads whole and what it reads here."""
    files = [write(tmp_path / f"{i:02}.txt", good(f"P{i}", i % 3 + 1, "minib" if i % 2 else "mini"))
             for i in range(9)]
    files.insert(2, write(tmp_path / "bad-syntax.txt", BAD_SYNTAX))
    files.insert(4, write(tmp_path / "bad-name.txt", BAD_NAME))
    files.insert(5, write(tmp_path / "no-policy.txt", "rel: competitive\nplayer: Ann\nAnn drew 1 extra cards.\n"))
    files.insert(6, write(tmp_path / "other-policy.txt", good("Q", policy="nosuch")))
    files.insert(7, write(tmp_path / "several.txt", good("S1") + "---\n" + good("S2", policy="minib")))
    files.insert(8, write(tmp_path / "gap.txt", GAP))
    return [*map(str, files), str(write(tmp_path / "dir" / "d.txt", good("D", policy="minib")).parent)]


@pytest.mark.parametrize("fmt", ["jsonl", "text"])
def test_files_parsed_in_the_job_print_what_reading_them_here_prints(
        rules: SimpleNamespace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fmt: str) -> None:
    from ppgcheck.cli import rule_run
    files = varied_files(tmp_path)
    in_jobs = invoke(*files, "--format", fmt, "--batch-size", "2")
    monkeypatch.setattr(rule_run, "whole_file", lambda *args: None)     # every file read and parsed here
    here = invoke(*files, "--format", fmt, "--batch-size", "2")
    assert (in_jobs.stdout, in_jobs.stderr, in_jobs.exit_code) == (here.stdout, here.stderr, here.exit_code)
    assert in_jobs.exit_code == 2
    for name in ("bad-syntax.txt", "bad-name.txt", "no-policy.txt", "other-policy.txt"):
        assert in_jobs.stderr.count(name) >= 1 and name not in in_jobs.stdout
    # the errors come in input order too
    order = [in_jobs.stderr.index(n) for n in ("bad-syntax.txt", "bad-name.txt", "no-policy.txt", "other-policy.txt")]
    assert order == sorted(order)


@needs_fork
def test_workers_and_batch_sizes_change_nothing_printed(rules: SimpleNamespace, tmp_path: Path) -> None:
    files = varied_files(tmp_path)
    runs = [invoke(*files, "--format", "jsonl", *options)
            for options in ([], ["--workers", "1"], ["--workers", "3", "--batch-size", "1"],
                            ["--workers", "2", "--batch-size", "3"])]
    first = runs[0]
    rows = jsonl(first.stdout)
    assert [r["report"].rsplit("/", 1)[-1] for r in rows] == [
        "00.txt", "01.txt", "02.txt", "several.txt:1", "several.txt:7", "gap.txt",
        "03.txt", "04.txt", "05.txt", "06.txt", "07.txt", "08.txt", "d.txt"]
    for run in runs[1:]:
        assert (run.stdout, run.stderr, run.exit_code) == (first.stdout, first.stderr, first.exit_code)


class _Done:
    """A job that is ready at once, or fails."""

    def __init__(self, outputs: list | None) -> None:
        self.outputs, self.stopped = outputs, False

    def ready(self) -> bool:
        return True

    def result(self) -> list:
        if self.outputs is None:
            raise policy_module.PolicyError("boom")
        return self.outputs

    def stop(self) -> None:
        self.stopped = True


def test_inflight_prints_in_input_order_whatever_order_the_batches_run_in() -> None:
    from ppgcheck.cli.inflight import InFlight
    printed: list = []
    inflight = InFlight(2, printed.append)
    numbers = [inflight.number() for _ in range(6)]
    inflight.start([numbers[1], numbers[4]], lambda: _Done(["b1", "b4"]))       # a policy's batch
    assert printed == []                                                         # 0 is not ruled yet
    inflight.start([numbers[0], numbers[2], numbers[3]], lambda: _Done(["a0", "a2", "a3"]))
    inflight.start([numbers[5]], lambda: _Done(["c5"]))
    inflight.finish()
    assert printed == ["a0", "b1", "a2", "a3", "b4", "c5"] and inflight.waiting == 0


def test_inflight_a_failed_batch_prints_what_comes_before_it_and_stops_the_rest() -> None:
    from ppgcheck.cli.inflight import InFlight
    printed: list = []
    inflight = InFlight(3, printed.append)
    numbers = [inflight.number() for _ in range(4)]
    later = _Done(["d3"])
    later.ready = lambda: False      # still running when the failure is found
    inflight.queued.extend([([numbers[0]], lambda: _Done(["a0"])), ([numbers[1], numbers[2]], lambda: _Done(None)),
                            ([numbers[3]], lambda: later)])
    with pytest.raises(policy_module.PolicyError, match="boom"):
        inflight.finish()
    assert printed == ["a0"] and later.stopped


def test_inflight_tells_each_printed_output_its_file_in_input_order() -> None:
    # rule's progress bar counts the files printed whole, not the files read
    from ppgcheck.cli.inflight import InFlight
    printed: list = []
    inflight = InFlight(2, printed.append, lambda source: printed.append(f"file {source}"))
    numbers = [inflight.number(source) for source in (0, 0, 1)]
    inflight.put("error of file 2", 2)
    inflight.start([numbers[2]], lambda: _Done(["c"]))
    assert printed == []                                    # file 0's reports are not ruled yet
    inflight.start(numbers[:2], lambda: _Done(["a", "b"]))
    inflight.finish()
    assert printed == ["a", "file 0", "b", "file 0", "c", "file 1", "error of file 2", "file 2"]
