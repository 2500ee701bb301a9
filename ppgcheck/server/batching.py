"""Rule the reports of concurrent requests together, in one grounding per policy.

Grounding a pack costs most of a single ruling, and a grounding rules a batch of
reports for little more (ppgcheck/engine/policy.py).  One worker thread rules what
the requests queued while it was busy as one batch (api.rule_prepared), so twenty
judges asking at once wait about two groundings, not twenty.  Each request still gets
exactly its own rulings, in order; where a batch fails, each request is ruled alone,
so an error reaches only the request that caused it."""
from __future__ import annotations

import queue
import threading
from concurrent.futures import Future
from dataclasses import dataclass

from ppgcheck import api
from ppgcheck.engine.ruling import RulingSet
from ppgcheck.language.report import Report


@dataclass
class _Job:
    prepared: list[tuple[Report, str]]
    questions: bool
    done: Future


class RulingBatcher:
    """A queue of prepared reports and the one thread that rules them."""

    def __init__(self, max_reports: int = 128) -> None:
        self.max_reports = max_reports
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def rule(self, prepared: list[tuple[Report, str]], questions: bool = True) -> list[RulingSet]:
        """The rulings of these prepared reports (api.prepare), in order; blocks until ruled."""
        job = _Job(prepared, questions, Future())
        self._start()
        self._jobs.put(job)
        return job.done.result()

    def close(self) -> None:
        with self._lock:
            if self._thread is not None:
                self._jobs.put(None)
                self._thread.join()
                self._thread = None

    def _start(self) -> None:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._work, name="ppgcheck-rulings", daemon=True)
                self._thread.start()

    def _work(self) -> None:
        while True:
            first = self._jobs.get()
            if first is None:
                return
            jobs, size, stop = [first], len(first.prepared), False
            while size < self.max_reports:
                try:
                    job = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if job is None:
                    stop = True
                    break
                jobs.append(job)
                size += len(job.prepared)
            for questions in (True, False):
                self._rule([j for j in jobs if j.questions is questions], questions)
            if stop:
                return

    @staticmethod
    def _rule(jobs: list[_Job], questions: bool) -> None:
        if not jobs:
            return
        try:
            rulings = api.rule_prepared([p for j in jobs for p in j.prepared], questions=questions)
        except Exception as exc:
            if len(jobs) > 1:
                for job in jobs:
                    RulingBatcher._rule([job], questions)
            else:                       # the request hears of it, none hangs
                jobs[0].done.set_exception(exc)
            return
        start = 0
        for job in jobs:
            job.done.set_result(rulings[start:start + len(job.prepared)])
            start += len(job.prepared)
