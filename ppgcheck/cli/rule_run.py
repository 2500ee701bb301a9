"""One `ppgcheck rule` run: its input files read in order, their reports ruled in
batches (each a job in a forked child, side by side: inflight.py) or submitted to an
event one by one, and every ruling and every bad file's error printed in input order."""
from __future__ import annotations

import contextlib
import functools
import itertools
import json
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import click

from ppgcheck import api
from ppgcheck.cli.common import WholeFile, failure_json, parse_whole, rare_cycle_collection, read_whole, whole_file
from ppgcheck.cli.inflight import InFlight, default_workers
from ppgcheck.api import Report
from ppgcheck.errors import ConfinementError, LimitExceeded, PpgError, ReportError, StoreError, UsageError

# reports of one policy ruled by one grounding: large enough that the cost of a
# grounding vanishes, small enough that output keeps flowing
BATCH_SIZE = 256
# reports read and not ruled, in batches: past it every policy's pending reports start (a
# policy's reports rare in a long run would hold back every output after them); reading
# waits for the jobs past twice as many reports read and not printed
HELD_BATCHES = 4
Item = tuple[Report, str] | WholeFile      # a checked report with its policy, or a file its job parses
Source = tuple[str, Callable, "Path | None"]   # an input: its name, its reports, its path (report_files)
Submit = Callable[[Report, str], object]       # an event's submitter (ruling.event_submitter)


@dataclass(frozen=True)
class BadInput:
    """An input that cannot be ruled, printed in input order with the rulings: the message a
    judge reads (on stderr) and the JSON a program reads (on stdout, with --format json)."""

    message: str
    data: dict

    @classmethod
    def of(cls, exc: PpgError, name: str) -> "BadInput":
        return cls(str(exc), failure_json(exc, name))


class RuleRun:
    """What a run has printed so far (its exit code, the json list), and the reports
    waiting for their batch."""

    def __init__(self, *, fmt: str, explain: bool, policy: str | None, rules: Path | None, questions: bool,
                 batch_size: int, workers: int | None, submit: Submit | None, tolerant: bool = False) -> None:
        self.fmt, self.explain, self.policy, self.rules, self.questions = fmt, explain, policy, rules, questions
        self.batch_size, self.submit, self.tolerant = batch_size, submit, tolerant
        self.exit_code = 0
        self.collected: list[dict] = []
        # by policy, waiting for a batch: checked reports, and files of one report the job parses
        self.pending: dict[str, list[tuple[int, Item]]] = {}
        self.render: Callable = {"text": lambda rs: api.ruling_as_text(rs, explain=explain) + "\n",
                                 "jsonl": api.ruling_as_json_line, "json": api.ruling_as_json}[fmt]
        self.bar = None
        self.inflight = InFlight(workers or default_workers(), self._emit_item, self._printed_up_to)

    def run(self, sources: list[Source]) -> int:
        """Rule (or submit) every report of the sources; the exit code."""
        # a bar over the files whose rulings are printed (a file's reports are ruled in batches later)
        if self.fmt != "text" and len(sources) > 50 and sys.stderr.isatty():
            self.bar = click.progressbar(length=len(sources), label="ruling", file=sys.stderr)
        with rare_cycle_collection(), (self.bar or contextlib.nullcontext()):
            for source, (name, reports, path) in enumerate(sources):
                if not self._read(source, name, reports, path):
                    break
            self._rule_pending(list(self.pending), last=True)
            self.inflight.finish()
            self._printed_up_to(len(sources))
        if self.fmt == "json":
            click.echo(json.dumps(self.collected, indent=2, ensure_ascii=False))   # a list, however many reports
        return self.exit_code

    def _read(self, source: int, name: str, reports: Callable, path: Path | None) -> bool:
        """Take one input's reports; False when the event's store can take no more."""
        if self.submit is not None:
            self._printed_up_to(source)               # each file is stored and printed when read
            whole = None
        else:
            whole = whole_file(path, name, self.policy, self.rules, self.tolerant)
        if whole is not None:                   # parsed in the job that rules it
            return self._take(whole, whole.policy_id, source)
        try:
            checked = read_whole(self._prepared(reports()))   # a file is ruled whole or not at all
        except (ConfinementError, LimitExceeded):
            raise                           # the pack, not the input: the command stops
        except PpgError as exc:
            self.inflight.put(BadInput.of(exc, name), source)     # printed in input order, with the rulings
            return True
        return all(self._take(report, policy_id, source) for report, policy_id in checked)

    # --- printing ----------------------------------------------------------------------
    def _emit(self, code: int, out: str | dict) -> None:
        self.exit_code = max(self.exit_code, code)
        if self.fmt == "json":
            self.collected.append(out)          # type: ignore[arg-type]
        else:
            click.echo(out)

    def _bad_input(self, failure: BadInput) -> None:
        """A judge (text) and a batch (jsonl: a line per report ruled) read the error on stderr;
        a program (json) in the list on stdout, where the input's rulings would be."""
        self.exit_code = 2
        if self.fmt == "json":
            self.collected.append(failure.data)
        else:
            click.echo(failure.message, err=True)

    def _emit_item(self, outputs: list[tuple[int, str | dict]] | BadInput) -> None:
        if isinstance(outputs, BadInput):
            self._bad_input(outputs)
            return
        for code, out in outputs:
            self._emit(code, out)

    def _printed_up_to(self, source: int) -> None:
        """Every file before this one is printed whole."""
        if self.bar is not None and source > self.bar.pos:
            self.bar.update(source - self.bar.pos)

    # --- ruling and submitting -----------------------------------------------------------
    def _prepared(self, reports: Iterator[Report | ReportError]) -> Iterator[tuple[Report, str]]:
        """Each report with its policy, its ids checked; the first bad one raises."""
        for report in reports:
            if isinstance(report, ReportError):
                raise report
            yield from api.prepare([report], self.policy, self.rules)

    def _take(self, report: Report | WholeFile, policy_id: str, source: int) -> bool:
        """Rule one checked report (or a file of one) now (at an event) or with its batch;
        False when the event's store can take no more."""
        if self.submit is not None:       # each report sees the penalties of the ones before it
            return self._submit_each([(report, policy_id)])    # type: ignore[list-item]
        batch = self.pending.setdefault(policy_id, [])
        batch.append((self.inflight.number(source),
                      report if isinstance(report, WholeFile) else (report, policy_id)))
        held = self.batch_size * HELD_BATCHES
        if len(batch) >= self.batch_size:
            self._rule_pending([policy_id])
        elif sum(map(len, self.pending.values())) >= held:
            self._rule_pending(list(self.pending))
        if self.inflight.waiting >= 2 * held:     # the reports held stay bounded
            self.inflight.drain(held)
        else:
            self.inflight.pump()
        return True

    def _rule_pending(self, policy_ids: list[str], last: bool = False) -> None:
        """Start these policies' pending reports, a batch each, each a job in a forked child
        (ppgcheck/packs/isolation.py): bounded in time and memory, and clingo's symbols
        do not pile up over a long run; the outputs come in input order (inflight.py).
        Unless they are the `last`, the freed heap is handed back for the reading to come."""
        for policy_id in policy_ids:
            numbers, items = zip(*self.pending.pop(policy_id))
            part = list(items)
            names = [item.name if isinstance(item, WholeFile) else item[0].name for item in part]
            work = functools.partial(_rule_items, part, self.policy, self.rules, self.questions, self.render)
            self.inflight.start(list(numbers), functools.partial(
                api.start_ruling_job, [policy_id], names, self.rules, work,
                functools.partial(_parsed_items, part, self.policy, self.rules)))
        if not last:
            api.hand_back_free_memory()

    def _submit_each(self, prepared: list[tuple[Report, str]]) -> bool:
        """Submit reports to the event store in order; False when the store can take no more."""
        # (when the command runs: the CLI loads only the command it runs)
        from ppgcheck.cli.event import submission_json, submission_text
        render_submission = {"text": lambda sub: submission_text(sub, self.explain) + "\n",
                             "json": submission_json,
                             "jsonl": lambda sub: json.dumps(submission_json(sub), ensure_ascii=False,
                                                             separators=(",", ":"))}[self.fmt]
        for report, policy_id in prepared:
            name = report.name          # as given (the submitter makes a file's path absolute)
            try:
                sub = self.submit(report, policy_id)      # type: ignore[misc]
            except (ReportError, UsageError) as exc:
                self._bad_input(BadInput.of(exc, name))
                continue
            except StoreError as exc:
                self._bad_input(BadInput.of(exc, name))
                return False
            self._emit(sub.exit_code, render_submission(sub))
            sys.stdout.flush()          # printed means stored: a ruling is printed once committed
        return True


def _reports_of(item: Item, policy: str | None, rules: Path | None) -> list[tuple[Report, str]]:
    """An item's checked reports: a file read whole parsed now (in its job), raising its error."""
    return parse_whole(item, policy, rules) if isinstance(item, WholeFile) else [item]


def _rule_items(part: list[Item], policy: str | None, rules: Path | None, questions: bool,
                render: Callable) -> list[list[tuple[int, str | dict]] | BadInput]:
    """(In the job) each item's outputs: its rulings' (exit code, rendering), or a bad file's error."""
    ready: list[list[tuple[Report, str]] | BadInput] = []
    for item in part:
        try:
            ready.append(_reports_of(item, policy, rules))
        except (ConfinementError, LimitExceeded):
            raise
        except PpgError as exc:
            ready.append(BadInput.of(exc, item.name if isinstance(item, WholeFile) else item[0].name))
    ruled = iter(api.rule_prepared([p for got in ready if not isinstance(got, BadInput) for p in got], rules,
                                   questions))
    return [got if isinstance(got, BadInput) else
            [(rs.exit_code, render(rs)) for rs in itertools.islice(ruled, len(got))] for got in ready]


def _parsed_items(part: list[Item], policy: str | None, rules: Path | None) -> list[tuple[Report, str]]:
    """The reports of the items that parse (only to find the pack file to blame for an overrun)."""
    found: list[tuple[Report, str]] = []
    for item in part:
        with contextlib.suppress(PpgError):
            found.extend(_reports_of(item, policy, rules))
    return found
