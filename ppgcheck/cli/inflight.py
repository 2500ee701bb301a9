"""Batches of a `rule` run ruled while the run reads on, their outputs in input order.

Each batch (one policy's checked reports) is a job in a forked child
(ppgcheck/packs/isolation.py); up to `workers` of them run at once, beside the
process that parses the next reports.  A report's output waits until every report
before it has its own, so the output is the same whatever the workers and the batch
boundaries.  A job that fails stops the run where the single-process run would
have stopped: what comes before it is emitted, the jobs after it are ended.
"""
from __future__ import annotations

import os
from collections import deque
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from ppgcheck.packs.isolation import Job

Output = object        # what a report (or a file read whole) prints: the caller's emit() takes it


def default_workers() -> int:
    """One more than the CPUs this process may use (the batches differ in size: the last
    one would otherwise run alone), at most 4 (each job holds a grounding's memory)."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    return max(1, min(cpus + 1, 4))


class InFlight:
    """Batches queued, jobs running and outputs not yet emitted, oldest first."""

    def __init__(self, workers: int, emit: Callable[[Output], None],
                 emitted_from: Callable[[int], None] | None = None) -> None:
        self.workers = max(1, workers)
        self.emit = emit
        self.emitted_from = emitted_from            # told the source of each output emitted
        self.sources: deque[int] = deque()          # the source (an input file) of each output not emitted
        self.next_number = 0                        # the number the next report taken gets
        self.emitted = 0                            # outputs emitted: every number below
        self.ready: dict[int, Output] = {}          # outputs waiting for earlier ones
        self.queued: deque[tuple[list[int], Callable[[], Job]]] = deque()
        self.running: deque[tuple[list[int], Job]] = deque()

    def number(self, source: int = 0) -> int:
        """The output position of the next report taken (in input order), from this source."""
        self.sources.append(source)
        self.next_number += 1
        return self.next_number - 1

    @property
    def waiting(self) -> int:
        """Reports taken whose outputs are not emitted yet."""
        return self.next_number - self.emitted

    def put(self, output: Output, source: int = 0) -> None:
        """The output of the next report, known now (printed once those before it are)."""
        self.ready[self.number(source)] = output
        self._emit_ready()

    def start(self, numbers: list[int], start_job: Callable[[], Job]) -> None:
        """Rule the reports with these numbers in a job, started once a worker is free."""
        self.queued.append((numbers, start_job))
        self.pump()

    def pump(self) -> None:
        """Without waiting: take the answers of the jobs that are done, start queued ones."""
        while self.running and self.running[0][1].ready():
            self._collect_oldest()
        self._start_queued()

    def drain(self, below: int) -> None:
        """Wait for jobs, oldest first, until fewer than `below` outputs are held back."""
        while self.waiting >= below and (self.running or self.queued):
            self._start_queued()
            self._collect_oldest()
        self._start_queued()

    def finish(self) -> None:
        """Wait for every job; emit every output."""
        self.drain(1)

    def _start_queued(self) -> None:
        while self.queued and len(self.running) < self.workers:
            numbers, start_job = self.queued.popleft()
            self.running.append((numbers, start_job()))

    def _collect_oldest(self) -> None:
        numbers, job = self.running.popleft()
        try:
            outputs = job.result()
        except BaseException:
            self._emit_ready()          # what comes before the failed batch
            for _, later in self.running:
                later.stop()
            self.running.clear()
            self.queued.clear()
            raise
        self.ready.update(zip(numbers, outputs))
        self._emit_ready()

    def _emit_ready(self) -> None:
        while self.emitted in self.ready:
            self.emit(self.ready.pop(self.emitted))
            self.emitted += 1
            source = self.sources.popleft()
            if self.emitted_from is not None:
                self.emitted_from(source)
