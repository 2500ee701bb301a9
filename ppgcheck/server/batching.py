"""Rule the reports of concurrent requests together, in one grounding per policy.

Grounding a pack costs most of a single ruling, and a grounding rules a batch of
reports for little more (ppgcheck/engine/policy.py).  One worker thread rules what
the requests queued while it was busy as one batch (api.rule_prepared), so twenty
judges asking at once wait about two groundings, not twenty.  The worker gathers while
requests keep arriving (each a few milliseconds after the last, for at most 50 ms):
clients answered together ask again together, and a batch of one followed by a batch
of the rest would double their wait.

With `workers`, a batch is ruled in that many processes at once, one part per policy
(a large part halved while processes are idle); each process holds its own prepared
packs (clingo grounds under Python's lock, so threads would rule one after another).
Dispatching the next batch while one is still being ruled was measured and dropped:
the batches got smaller and the whole slower.  On two CPUs shared with the server's
own threads the processes cost more than they gave (bench/load.py), so `serve` uses
them only beyond two.  Each request still gets exactly its
own rulings, in order; where a batch fails, each request is ruled alone, so an error
reaches only the request that caused it."""
from __future__ import annotations

import logging
import multiprocessing
import os
import queue
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ppgcheck import api
from ppgcheck.api import Report, RulingSet, parse_reports
from ppgcheck.errors import PpgError
from ppgcheck.resources import policy_ids

if TYPE_CHECKING:
    from ppgcheck.packs.resident import Resident

Prepared = list[tuple[Report, str]]
log = logging.getLogger("ppgcheck.server")


def gather(jobs: queue.SimpleQueue, first, size, limit: int, gap: float = 0.005, cap: float = 0.05):
    """The first job and those that follow it closely: each within `gap` seconds of the
    last, for at most `cap` seconds, until `limit` (by `size`).  Returns (jobs, stop):
    stop when the queue's end-of-work marker (None) came."""
    taken, total = [first], size(first)
    start = last = time.monotonic()
    while total < limit:
        wait = min(last + gap, start + cap) - time.monotonic()
        try:
            job = jobs.get(timeout=max(0.0, wait))
        except queue.Empty:
            return taken, False
        if job is None:
            return taken, True
        taken.append(job)
        total += size(job)
        last = time.monotonic()
    return taken, False


class BatchWorker:
    """A queue of jobs and the one thread that takes them in batches (`gather`); each job
    carries a Future (`done`) its request waits on."""

    thread_name = "ppgcheck-batches"

    def __init__(self, max_size: int) -> None:
        self.max_size = max_size
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def size(self, job) -> int:
        raise NotImplementedError

    def handle(self, jobs: list) -> None:
        """Carry out a batch of jobs, settling each one's Future."""
        raise NotImplementedError

    def wait_for(self, job):
        """Queue a job (the thread starts with the first) and wait for its result."""
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._work, name=self.thread_name, daemon=True)
                self._thread.start()
        self._jobs.put(job)
        return job.done.result()

    def close(self) -> None:
        with self._lock:
            if self._thread is not None:
                self._jobs.put(None)
                self._thread.join()
                self._thread = None

    def _work(self) -> None:
        while True:
            first = self._jobs.get()
            if first is None:
                return
            jobs, stop = gather(self._jobs, first, self.size, self.max_size)
            try:
                self.handle(jobs)
            except BaseException as exc:     # a bug here must not hang the requests
                for job in jobs:
                    if not job.done.done():
                        job.done.set_exception(exc)
            if stop:
                return


@dataclass
class _Job:
    prepared: Prepared
    questions: bool | list[bool]        # for every report, or one flag a report
    done: Future



# in a worker process: the resident child its parts are ruled in (started by _warm)
_worker_resident: Resident | None = None


def rule_part(prepared: Prepared, questions: bool | list[bool], resident: Resident | None = None,
              rules: Path | None = None) -> list[RulingSet]:
    """One part of a batch, in a worker process or in this one: a job in the resident child
    (the packs under `rules`, else the bundled ones)."""
    return api.rule_prepared(prepared, rules, questions=questions, resident=resident or _worker_resident)


def prepare_packs(rules: Path | None = None) -> None:
    """Prepare every pack served (those under `rules`, else the bundled ones) and the parser
    before the first request needs them.  A pack of a `--rules` folder that cannot be
    prepared (or whose own core reads no lateness) is left for the requests that name it:
    they get its error, as `rule --rules` would, and the other packs are served."""
    for policy in policy_ids(rules):
        try:
            api.rule_prepared(api.prepare(parse_reports(f"policy: {policy}\nplayer: A\nA was 2 minutes late\n",
                                                        rules=rules), rules=rules),
                              rules, questions=True)
        except PpgError as exc:
            if rules is None:       # a bundled pack that fails is a bug, not an author's draft
                raise
            log.warning("pack `%s` of `%s` not prepared: %s", policy, rules, exc)


def _warm(parent: int, rules: Path | None = None) -> None:
    """A worker leaves when the server does (even killed), and prepares every pack served
    before its first batch, then starts its resident child (which inherits them)."""
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(0)
    threading.Thread(target=watch, name="ppgcheck-parent-watch", daemon=True).start()
    prepare_packs(rules)
    global _worker_resident
    if api.forks():
        _worker_resident = api.resident_child()
        _worker_resident.warm()


class RulingBatcher(BatchWorker):
    """A queue of prepared reports, the thread that batches them, and its worker processes."""

    thread_name = "ppgcheck-rulings"

    def __init__(self, max_reports: int = 128, workers: int = 0, rules: Path | None = None) -> None:
        super().__init__(max_reports)
        self.workers = workers
        self.rules = rules          # the rules folder whose packs it rules with (None: the bundled packs)
        self._pool: ProcessPoolExecutor | None = None
        # without worker processes, each batch is a job in one resident child instead of a
        # child forked for it: a fresh child's page faults cost a third of a batch of 17
        self._resident = api.resident_child() if not workers and api.forks() else None

    def start(self) -> None:
        """Prepare the packs where batches are ruled: here (then start the resident child,
        which inherits them), or in worker processes started now (spawned: the server's
        threads are not forked); else the first batches would wait for it."""
        if not self.workers:
            prepare_packs(self.rules)
            if self._resident is not None:
                self._resident.warm()
            return
        with self._lock:
            if self._pool is None:
                self._pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                                 initializer=_warm, initargs=(os.getpid(), self.rules))
                for f in [self._pool.submit(time.sleep, 0) for _ in range(self.workers)]:
                    f.result()

    def rule(self, prepared: Prepared, questions: bool | list[bool] = True) -> list[RulingSet]:
        """The rulings of these prepared reports (api.prepare), in order, with the questions
        (for all, or a flag a report); blocks until ruled."""
        return self.wait_for(_Job(prepared, questions, Future()))

    def close(self) -> None:
        super().close()
        if self._resident is not None:
            self._resident.close()
        with self._lock:
            if self._pool is not None:
                self._pool.shutdown(wait=True)
                self._pool = None

    def size(self, job: _Job) -> int:
        return len(job.prepared)

    def handle(self, jobs: list[_Job]) -> None:
        """One batch for every job, each report with its job's `questions` (one grounding, where
        a batch of some with and some without questions was two, one after the other)."""
        try:
            rulings = self._rule_batch([p for j in jobs for p in j.prepared],
                                       [asks for j in jobs for asks in api.questions_each(j.questions, len(j.prepared))])
        except Exception as exc:
            self._failed(jobs, exc)
        else:
            self._deliver(jobs, rulings)

    def _rule_batch(self, prepared: Prepared, questions: list[bool]) -> list[RulingSet]:
        if self._pool is None:
            return rule_part(prepared, questions, self._resident, self.rules)
        parts = list(api.positions_by_policy(prepared).values())
        while len(parts) < self.workers and max(len(p) for p in parts) >= 8:
            largest = max(parts, key=len)       # two groundings at once beat one twice as large
            parts.remove(largest)
            parts += [largest[:len(largest) // 2], largest[len(largest) // 2:]]
        rulings: list[RulingSet | None] = [None] * len(prepared)
        try:
            futures = [(positions, self._pool.submit(rule_part, [prepared[i] for i in positions],
                                                     [questions[i] for i in positions], None, self.rules))
                       for positions in parts]
            for positions, future in futures:
                for position, rs in zip(positions, future.result()):
                    rulings[position] = rs
        except BrokenProcessPool:       # a worker died (killed, out of memory): new ones, and this batch here
            with self._lock:
                self._pool.shutdown(wait=False, cancel_futures=True)
                self._pool = None
            self.start()
            return rule_part(prepared, questions, rules=self.rules)
        return rulings  # type: ignore[return-value]  (every position was filled)

    @staticmethod
    def _deliver(jobs: list[_Job], rulings: list[RulingSet]) -> None:
        start = 0
        for job in jobs:
            job.done.set_result(rulings[start:start + len(job.prepared)])
            start += len(job.prepared)

    def _failed(self, jobs: list[_Job], exc: BaseException) -> None:
        """A failed batch: each request ruled alone, here, so only the culprit hears of it."""
        if len(jobs) == 1:
            jobs[0].done.set_exception(exc)
            return
        for job in jobs:
            try:
                job.done.set_result(rule_part(job.prepared, job.questions, self._resident, self.rules))
            except Exception as own:
                job.done.set_exception(own)
