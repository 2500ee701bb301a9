"""Submissions to the event from concurrent requests: one writer, rulings batched.

The event store rules a report inside the transaction that reads its history and
records its penalties (ppgcheck/event/store.py), so judges' submissions are
serialised, each paying a grounding of its own.  Here one thread takes the
submissions queued while it was busy and, for those whose persons no other of them
names (the rest wait for the next round):
  1. asks the store for each report's history, by starting its submission with a
     ruling callback that notes the history and stops the transaction (nothing is
     written: a report already recorded answers at once);
  2. rules them all with those histories in one batch (batching.py);
  3. submits each again, its callback answering with the batch's ruling when the
     store hands it the same history and day, else ruling afresh (a writer outside
     this server came between).  A report without `day:` is ruled on the day it will
     be recorded on: the latest of the store's and of the `day:` lines before it in the wave.
Which penalties count, and what is recorded, stays the store's alone."""
from __future__ import annotations

import copy
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path

from ppgcheck import api
from ppgcheck.api import Report, RulingSet
from ppgcheck.server.batching import BatchWorker, RulingBatcher


class _Noted(Exception):
    """Raised by the noting callback: the store rolls the transaction back."""

    def __init__(self, history: list) -> None:
        super().__init__("history noted")
        self.history = history


@dataclass
class _Item:
    report: Report
    policy: str
    job: _Job
    history: list | None = None
    event_day: int | None = None        # the event's day the store gave it when its history was noted
    result: object | None = None
    error: BaseException | None = None

    @property
    def persons(self) -> set[tuple[str, str]]:
        return {(self.policy, name) for name, _ in self.report.persons}


@dataclass
class _Job:
    judge: str
    amend: bool
    choices: dict[str, str]
    questions: bool = True              # the ruling lists the questions that would change it (the judge reads it)
    done: Future = field(default_factory=Future)
    items: list[_Item] = field(default_factory=list)


class SubmissionQueue(BatchWorker):
    """The one writer of a station's event store."""

    thread_name = "ppgcheck-event-writer"

    def __init__(self, store, batcher: RulingBatcher, rules: Path | None = None, max_reports: int = 64) -> None:
        super().__init__(max_reports)
        self.store, self.batcher, self.rules = store, batcher, rules      # rules: the station's folder

    def submit(self, prepared: list[tuple[Report, str]], judge: str, amend: bool = False,
               choices: dict[str, str] | None = None, questions: bool = True) -> list:
        """Submit prepared reports, in order (api.submit_prepared for each); blocks until done.
        The first error is raised; the reports before it are recorded, as with the CLI."""
        job = _Job(judge, amend, dict(choices or {}), questions)
        job.items = [_Item(report, policy, job) for report, policy in prepared]
        return self.wait_for(job)

    def size(self, job: _Job) -> int:
        return len(job.items)

    def handle(self, jobs: list[_Job]) -> None:
        self._submit_all(jobs)
        for job in jobs:
            failed = next((i.error for i in job.items if i.error is not None), None)
            if failed is not None:
                job.done.set_exception(failed)
            else:
                job.done.set_result([i.result for i in job.items])

    def _submit_all(self, jobs: list[_Job]) -> None:
        """Rounds in which no two reports name the same person (under the same policy);
        each request's reports go one after another, in order, until one fails."""
        while True:
            wave: list[_Item] = []
            taken: set[tuple[str, str]] = set()
            for job in jobs:
                if any(i.error is not None for i in job.items):
                    continue
                item = next((i for i in job.items if i.result is None), None)
                if item is None:
                    continue
                if not item.persons & taken:
                    wave.append(item)
                taken |= item.persons      # a later report naming them waits, keeping their order
            if not wave:
                return
            self._wave(wave)

    def _wave(self, wave: list[_Item]) -> None:
        named: int | None = None        # the latest `day:` of the wave's reports before this one
        for item in wave:
            item.history = self._note_history(item)
            if item.report.event_day is not None and named is not None:
                # a report without `day:` is ruled on the event's latest day as it is recorded,
                # after the wave's reports before it: a `day: 2` among them moves that day
                item.report.event_day = max(item.report.event_day, named)
            item.event_day = item.report.event_day
            if item.history is not None and item.report.day is not None:
                named = max(named or item.report.day, item.report.day)
        to_rule = [i for i in wave if i.history is not None and i.error is None]
        if to_rule:
            # one batch, each report with or without its questions
            rulings = self.batcher.rule([(_with_history(i.report, i.history), i.policy) for i in to_rule],
                                        questions=[i.job.questions for i in to_rule])
            try:        # one commit (one sync to disk) for the wave; none is answered before it
                with self.store.grouped():
                    for item, ruled in zip(to_rule, rulings):
                        self._record(item, ruled)
            except Exception as exc:        # nothing of the wave is recorded
                for item in to_rule:
                    if item.error is None:
                        item.result, item.error = None, exc

    def _note_history(self, item: _Item) -> list | None:
        """The history the store gives the report now (None: answered or failed already)."""
        def note(report: Report) -> RulingSet:
            raise _Noted(list(report.history))
        try:
            item.result = self._call(item, note)
        except _Noted as noted:
            return noted.history
        except Exception as exc:
            item.error = exc
        return None

    def _record(self, item: _Item, ruled: RulingSet) -> None:
        def rule(report: Report) -> RulingSet:
            if report.history == item.history and report.event_day == item.event_day:
                return ruled
            return api.rule_prepared([(report, item.policy)], self.rules, questions=item.job.questions)[0]
        try:
            item.result = self._call(item, rule)
        except Exception as exc:
            item.error = exc

    def _call(self, item: _Item, rule):
        job = item.job
        return api.submit_prepared(self.store, item.report, item.policy, job.judge, self.rules, amend=job.amend,
                                   choices=job.choices, rule=rule)


def _with_history(report: Report, history: list) -> Report:
    ruled = copy.copy(report)
    ruled.history = list(history)
    return ruled
