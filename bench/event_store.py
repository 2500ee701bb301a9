#!/usr/bin/env python
"""The event store's cost, for bench/run (run as a child process; prints one JSON object).

    python bench/event_store.py DIR [--writers 8] [--tmp TMPDIR]

For the reports under DIR (one per *.txt, as bench/gen_reports.py writes them; their
`history:` blocks and judge calls are dropped, since the store gives the history):

  alone   the reports ruled one at a time in this process, in order, each with the
          penalties the ones before it issued to its persons (under its policy) typed
          in as its history: what each ruling must see, without the store;
  store   the same reports into a new event store by --writers processes at once
          (forked from this one once every engine is warm, so no process pays for
          imports or grounding the packs), each submitting its share in order; timed
          from the moment all of them start to the last one's end.

Both run in the same process tree on the same machine load; the row is the ratio of
their wall times.  On a shared machine eight processes get a larger share of the
cores than one, so the row also gives the ratio of CPU seconds (the writers' own
after they were ready, against this process's for the one-at-a-time run).
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from ppgcheck import api  # noqa: E402
from ppgcheck.event.store import default_penalty  # noqa: E402
from ppgcheck.language.report import HistoryEntry, Report, parse_reports  # noqa: E402


def load(folder: Path) -> list[tuple[Report, str]]:
    prepared = []
    for path in sorted(folder.glob("*.txt")):
        for report, policy in api.prepare(parse_reports(path.read_text(encoding="utf-8"), path.name)):
            report.history, report.judge_call = [], None
            prepared.append((report, policy))
    return prepared


def alone(prepared: list[tuple[Report, str]]) -> tuple[float, float]:
    """One at a time, each with the earlier penalties of its persons as its history:
    (wall, CPU) seconds."""
    issued: list[tuple[str, HistoryEntry]] = []
    start, cpu = time.perf_counter(), time.process_time()
    for report, policy in prepared:
        names = {name for name, _ in report.persons}
        report.history = [h for p, h in issued if p == policy and h.person in names]
        (rs,) = api.rule_prepared([(report, policy)])
        report.history = []
        issued += [(policy, HistoryEntry(r.player, default_penalty(r), r.infraction, report.day))
                   for r in rs.rulings if r.issued and default_penalty(r) not in (None, "none")]
    return time.perf_counter() - start, time.process_time() - cpu


def _writer(store_path: Path, share: list[tuple[Report, str]], go, done) -> None:
    store = api.open_event(store_path)
    go.wait()
    for report, policy in share:
        api.submit_prepared(store, report, policy, "bench")
    done.put(len(share))


def into_store(prepared: list[tuple[Report, str]], writers: int, store_path: Path) -> tuple[float, float, int]:
    """--writers processes at once, each its share of the reports in order: (wall seconds,
    the writers' CPU seconds after they were ready, reports submitted)."""
    store = api.open_event(store_path, create=True)
    context = multiprocessing.get_context("fork")
    go, done = context.Event(), context.Queue()
    shares = [prepared[i::writers] for i in range(writers)]
    processes = [context.Process(target=_writer, args=(store_path, share, go, done)) for share in shares]
    for p in processes:
        p.start()
    time.sleep(0.5)                 # every writer is up and waiting
    ready = sum(_cpu(p.pid) for p in processes)
    start = time.perf_counter()
    go.set()
    for p in processes:
        p.join()
    seconds = time.perf_counter() - start
    cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = cpu.ru_utime + cpu.ru_stime - ready
    if any(p.exitcode != 0 for p in processes):
        raise SystemExit(f"a writer failed: exit codes {[p.exitcode for p in processes]}")
    store.close()
    return seconds, cpu, sum(done.get() for _ in processes)


def _cpu(pid: int) -> float:
    """A live process's CPU seconds so far (Linux /proc; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("folder", type=Path)
    ap.add_argument("--writers", type=int, default=8)
    ap.add_argument("--tmp", type=Path, default=Path("/tmp"))
    args = ap.parse_args()
    prepared = load(args.folder)
    for policy in sorted({p for _, p in prepared}):     # warm every engine before forking
        api.rule_prepared([next(x for x in prepared if x[1] == policy)])
        api.rules_version(policy)
    alone_s, alone_cpu = alone(prepared)
    store_s, store_cpu, submitted = into_store(prepared, args.writers, args.tmp / "bench-event.db")
    print(json.dumps({"reports": len(prepared), "writers": args.writers, "alone_s": alone_s, "store_s": store_s,
                      "alone_cpu_s": alone_cpu, "store_cpu_s": store_cpu, "submitted": submitted}))


if __name__ == "__main__":
    main()
