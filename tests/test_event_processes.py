"""The event store under real processes: judges ruling at once, and crashes.

Every report here is a hidden-card error of the same player on the same day, so
each ruling must count every penalty committed before it: the j-th one committed
counts exactly the j-1 before it, whichever process wrote them.
"""
from __future__ import annotations

import json
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ppgcheck.event.integrity import check_store

REPORT = """\
policy: fab
rel: competitive
day: 1
round: {round}
table: {table}
player: Alice
player: Bob

Alice drew 1 extra card.
"""


def write_reports(folder: Path, count: int, table: int) -> list[Path]:
    folder.mkdir(parents=True)
    paths = []
    for i in range(count):
        path = folder / f"r{i:02d}.txt"
        path.write_text(REPORT.format(round=i + 1, table=table))
        paths.append(path)
    return paths


def writer(folder: Path, event: Path, judge: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "ppgcheck", "rule", str(folder), "--event", str(event),
                             "--judge", judge, "--format", "jsonl"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def printed(stdout: str) -> list[dict]:
    """The rulings a writer printed whole (a line cut by a kill is not printed)."""
    out = []
    lines = stdout.splitlines()
    for number, line in enumerate(lines, 1):
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:
            assert number == len(lines), "only the last line can be cut"
    return out


def table_counts(event: Path) -> dict[str, int]:
    with sqlite3.connect(event) as db:
        return {t: db.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
                for t in ("reports", "rulings", "penalties", "counted", "audit", "persons")}


def stored(event: Path) -> dict[int, dict]:
    """Each stored report: its source, ruling JSON, penalty ids and the penalty ids it counted."""
    with sqlite3.connect(event) as db:
        out = {rid: {"source": src, "ruling": json.loads(ruling), "penalties": [], "counted": []}
               for rid, src, ruling in db.execute("SELECT r.id, r.source, g.ruling_json FROM reports r "
                                                  "JOIN rulings g ON g.report_id = r.id")}
        for pid, rid in db.execute("SELECT id, report_id FROM penalties"):
            out[rid]["penalties"].append(pid)
        for rid, pid in db.execute("SELECT g.report_id, c.penalty_id FROM counted c JOIN rulings g "
                                   "ON g.id = c.ruling_id"):
            out[rid]["counted"].append(pid)
    return out


def assert_each_counted_all_before_it(records: dict[int, dict]) -> None:
    for record in records.values():
        (own,) = record["penalties"]
        assert sorted(record["counted"]) == list(range(1, own)), record["source"]


# (8 judges of 10 reports race as 8 of 25 did: what is tested is the writers' overlap, not their length)
EACH = 10
ALL = 8 * EACH


@pytest.mark.slow(50)
def test_eight_judges_at_once_lose_nothing_and_count_everything(tmp_path):
    event = tmp_path / "event.db"
    folders = [tmp_path / f"judge{k}" for k in range(8)]
    for k, folder in enumerate(folders):
        write_reports(folder, EACH, table=k + 1)
    judges = [writer(folder, event, f"judge{k}") for k, folder in enumerate(folders)]
    outputs = [j.communicate(timeout=300) for j in judges]
    assert [j.returncode for j in judges] == [0] * 8, [err for _, err in outputs]
    lines = [sub for out, _ in outputs for sub in printed(out)]
    assert len(lines) == ALL and {s["event"]["outcome"] for s in lines} == {"recorded"}
    counts = table_counts(event)
    assert (counts["reports"], counts["penalties"]) == (ALL, ALL)
    records = stored(event)
    assert_each_counted_all_before_it(records)
    assert sorted(len(r["counted"]) for r in records.values()) == list(range(ALL))
    assert check_store(event) == ([], {"reports": ALL, "penalties": ALL, "persons": 2, "imports": 0, "audit": ALL})

    again = [writer(folder, event, f"judge{k}") for k, folder in enumerate(folders)]
    outputs = [j.communicate(timeout=300) for j in again]
    assert [j.returncode for j in again] == [0] * 8
    lines = [sub for out, _ in outputs for sub in printed(out)]
    assert len(lines) == ALL and {s["event"]["outcome"] for s in lines} == {"already-recorded"}
    assert table_counts(event) == counts                  # re-submitting all of them writes nothing


def test_kill_9_never_loses_a_committed_ruling_nor_leaves_a_partial_one(tmp_path):
    rng = random.Random(13)
    event = tmp_path / "event.db"
    batches = [write_reports(tmp_path / f"batch{b:02d}", 5, table=b + 1) for b in range(20)]
    shown: dict[int, dict] = {}                           # report id -> the ruling a writer printed
    for b, paths in enumerate(batches):
        judge = writer(paths[0].parent, event, f"judge{b}")
        time.sleep(rng.uniform(0.2, 1.5))                  # from the imports to past the batch's end
        judge.send_signal(signal.SIGKILL)
        out, _ = judge.communicate(timeout=60)
        problems, _ = check_store(event) if event.exists() else (["no file"], {})
        if problems in (["no file"], ["an empty SQLite file, not an event store"]):
            assert printed(out) == []                       # killed before the store was created
            continue
        assert problems == []                              # nothing partial
        records = stored(event)
        for sub in printed(out):                           # everything printed is stored, as printed
            report_id = sub["event"]["report_id"]
            assert records[report_id]["ruling"] == {k: v for k, v in sub.items() if k != "event"}
            assert [p["id"] for p in sub["event"]["recorded"]] == records[report_id]["penalties"]
            shown[report_id] = sub
        mine = {rid for rid, r in records.items() if Path(r["source"]).parent == paths[0].parent}
        assert len(mine - set(shown)) <= 1                 # at most the one committed as the kill came
    # the batches again, to the end: what a crash left unprinted is printed now, once, as stored
    before = set(stored(event))
    rerun = subprocess.run([sys.executable, "-m", "ppgcheck", "rule", *(str(p[0].parent) for p in batches),
                            "--event", str(event), "--judge", "rerun", "--format", "jsonl"],
                           capture_output=True, text=True, timeout=300)
    assert rerun.returncode == 0, rerun.stderr
    final = printed(rerun.stdout)
    assert len(final) == 100
    records = stored(event)
    assert {sub["event"]["report_id"] for sub in final} == set(records)      # stored == printed
    for sub in final:
        report_id = sub["event"]["report_id"]
        assert records[report_id]["ruling"] == {k: v for k, v in sub.items() if k != "event"}
        assert sub["event"]["outcome"] == ("already-recorded" if report_id in before else "recorded")
    assert len(records) == 100 and check_store(event)[0] == []
    assert_each_counted_all_before_it(records)
