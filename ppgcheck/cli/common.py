"""What the commands share: clean failures, reading report files, common options."""
from __future__ import annotations

import contextlib
import functools
import gc
import os
import pickle
import stat
import sys
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, TypeVar

import click

from ppgcheck import api
from ppgcheck.errors import PpgError, ReportError, UsageError, error_dict

if TYPE_CHECKING:
    from ppgcheck.api import Report

T = TypeVar("T")


def fails_cleanly(command):
    """Turn library errors into a message on stderr and exit code 2."""
    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except PpgError as exc:
            click.echo(str(exc), err=True)
            sys.exit(exc.exit_code)
    return wrapper


@contextlib.contextmanager
def rare_cycle_collection():
    """A batch makes millions of short-lived objects, few of them cyclic: collecting
    cycles every 700 allocations (Python's default) cost ~10% of a batch's time."""
    thresholds = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(100_000, 50, 100)
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()


def report_files(paths: tuple[str, ...], policy: str | None = None, rules: Path | None = None,
                 tolerant: bool = False) -> list[tuple[str, Callable[[], Iterator[Report | ReportError]], Path | None]]:
    """(name, reports, path) for each file, each report file under a directory, and `-` (stdin: no path),
    each report in its policy's language (`policy`, else its `policy:` line; a pack of `rules`;
    `tolerant`: free sentences read by the tolerant reader, else canonical forms only).
    Nothing is read until `reports()` is iterated, and then report by report
    (language/report.py: read_reports), so memory stays flat whatever a file's size;
    a FIFO or a character device is read as a stream.  A file that cannot be opened
    raises its UsageError from the iteration."""
    entries: list[tuple[str, Callable[[], Iterator[Report | ReportError]], Path | None]] = []
    for raw in paths:
        if raw == "-":
            entries.append(("<stdin>", functools.partial(_stream_reports, None, "<stdin>", policy, rules, tolerant),
                            None))
            continue
        path = Path(raw)
        if path.is_dir():
            files = sorted(p for p in path.rglob("*.txt") if p.is_file())
            if not files:
                raise UsageError(f"no report files (*.txt) under `{raw}`")
            entries.extend((str(f), functools.partial(_stream_reports, f, str(f), policy, rules, tolerant), f)
                           for f in files)
        else:
            entries.append((raw, functools.partial(_stream_reports, path, raw, policy, rules, tolerant), path))
    return entries


@dataclass(frozen=True)
class WholeFile:
    """A report file of one report, read whole; the job that rules it parses it."""

    name: str
    raw: bytes
    policy_id: str
    tolerant: bool = False      # free sentences read by the tolerant reader


def whole_file(path: Path | None, name: str, policy: str | None, rules: Path | None,
               tolerant: bool = False) -> WholeFile | None:
    """A regular file read whole when it holds one report (no separator line) within the
    reading limits and names a known policy (`policy`, else its `policy:` line): read_reports
    reads it the same from memory.  None: read it report by report, here."""
    if path is None:
        return None
    found = api.one_report_file(path, policy, rules)
    if found is None:
        return None
    raw, policy_id = found
    return WholeFile(name, raw, policy_id, tolerant)


def parse_whole(item: WholeFile, policy: str | None, rules: Path | None) -> list[tuple[Report, str]]:
    """The reports of a file read whole, checked (in the job): what reading it here gives."""
    return api.prepare_bytes(item.raw, item.name, policy, rules, item.tolerant)


def _stream_reports(path: Path | None, name: str, policy: str | None, rules: Path | None, tolerant: bool
                    ) -> Iterator[Report | ReportError]:
    if path is None:
        yield from api.read_reports(_stdin_bytes(), name, policy, rules, tolerant)
        return
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise UsageError(f"no such file or directory: `{path}`") from None
    except OSError as exc:
        raise UsageError(f"`{path}` cannot be read: {(exc.strerror or 'error').lower()}") from None
    if not (stat.S_ISREG(mode) or stat.S_ISFIFO(mode) or stat.S_ISCHR(mode)):
        raise UsageError(f"`{path}` is not a file reports can be read from (a socket or a block device)")
    try:
        stream = open(path, "rb")
    except OSError as exc:
        raise UsageError(f"`{path}` cannot be read: {(exc.strerror or 'error').lower()}") from None
    with stream:
        yield from api.read_reports(stream, name, policy, rules, tolerant)


# what a file's checked reports may take in memory before they are kept on disk
SPOOL_BYTES = 8 * 2**20


def read_whole(items: Iterable[T]) -> Iterator[T]:
    """Every item, all read before the first is returned (so an error in any raises here,
    before anything is ruled), kept in memory up to SPOOL_BYTES and on disk beyond: a
    file is ruled whole or not at all, with memory flat whatever its size."""
    spool = tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES)
    shared: list = []
    try:
        for item in items:
            _SpoolPickler(spool, shared).dump(item)
        spool.seek(0)
    except BaseException:
        spool.close()
        raise
    return _replay(spool, shared)


class _SpoolPickler(pickle.Pickler):
    """Keeps a report's vocabulary (~38 KB pickled, the same object for every report of a
    policy) out of the spool: the spool names it, and the reports read back share it."""

    def __init__(self, file, shared: list) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.shared, self.vocabulary_type = shared, api.Vocabulary

    def persistent_id(self, obj: object) -> int | None:     # (called for every object pickled)
        if not isinstance(obj, self.vocabulary_type):
            return None
        for i, known in enumerate(self.shared):
            if known is obj:
                return i
        self.shared.append(obj)
        return len(self.shared) - 1


class _SpoolUnpickler(pickle.Unpickler):
    def __init__(self, file, shared: list) -> None:
        super().__init__(file)
        self.shared = shared

    def persistent_load(self, pid: int) -> object:
        return self.shared[pid]


def _replay(spool, shared: list) -> Iterator:
    with spool:
        while True:
            try:
                yield _SpoolUnpickler(spool, shared).load()
            except EOFError:
                return


def _stdin_bytes():
    stdin = sys.stdin
    return getattr(stdin, "buffer", stdin)


def report_sources(paths: tuple[str, ...], policy: str | None = None, rules: Path | None = None,
                   tolerant: bool = False) -> list[Report]:
    """Every report of the files (for commands that take one report file): the first
    bad report's error raised."""
    out: list[Report] = []
    for _, reports, _ in report_files(paths, policy, rules, tolerant):
        for report in reports():
            if isinstance(report, ReportError):
                raise report
            out.append(report)
    return out


def strict_option(help_text: str):
    """--strict: canonical forms only (the default reads free sentences tolerantly, as a judge writes)."""
    return click.option("--strict", is_flag=True, help=help_text)


def failure_json(exc: PpgError, name: str) -> dict:
    """What `--format json` prints for an input that cannot be ruled: the file and its error."""
    return {"report": name, "error": error_dict(exc)}


def rules_option(help_text: str):
    return click.option("--rules", "rules", type=click.Path(exists=True, file_okay=False, path_type=Path),
                        metavar="DIR", help=help_text)


def complete_policy(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Shell completion of --policy: the packs of --rules when given, else the bundled ones."""
    # (when the command runs: the CLI loads only the command it runs)
    from ppgcheck.resources import policy_ids
    rules = ctx.params.get("rules")
    try:
        known = policy_ids(Path(rules) if rules else None)
    except OSError:
        return []
    return [p for p in known if p.startswith(incomplete)]


def check_rules_folder(rules: Path | None) -> None:
    """A rules folder holds policy packs (folders of *.lp files), and perhaps its own `core/`
    (else the bundled core is used)."""
    # (when the command runs: the CLI loads only the command it runs)
    from ppgcheck.resources import policy_ids
    if rules is not None and not (rules / "core").is_dir() and not policy_ids(rules):
        raise UsageError(f"`{rules}` is not a rules folder: it holds no policy pack (a folder of *.lp files) "
                         "and no `core/`")


def limit_options(timeout: bool):
    """--memory-limit (and, with `timeout`, --timeout) on a command that grounds a pack: the
    limits of every job it runs (ppgcheck/packs/isolation.py).  `check` and `diff` have
    their own --timeout, the time bound of a pack's search, which bounds its grounding too."""
    default_seconds, default_megabytes = api.default_job_limits()

    def add(command):
        @functools.wraps(command)
        def limited(*args, memory_limit: int, job_timeout: float | None = None, **kwargs):
            with api.job_limits(job_timeout, memory_limit, exit_on_overrun=True):
                return command(*args, **kwargs)
        limited = click.option(
            "--memory-limit", type=click.IntRange(64, 2**40), default=default_megabytes, show_default=True,
            metavar="MB", help="Memory (address space) each grounding-and-solving job may use, in MB.")(limited)
        if timeout:
            limited = click.option(
                "--timeout", "job_timeout", type=click.FloatRange(0.1, 10**7), default=default_seconds,
                show_default=True, metavar="SECONDS",
                help="Wall-clock limit of each grounding-and-solving job (a batch of reports), in seconds.")(limited)
        return limited
    return add


def search_options(timeout: float, observations: int):
    """The scenario-search bounds `check` and `diff` share."""
    def add(command):
        for option in reversed([
            click.option("--observations", type=click.IntRange(1, 2), default=observations, show_default=True,
                         help="Scenarios with up to this many observations (2 also looks for interactions)."),
            click.option("--timeout", type=click.FloatRange(min=1), default=timeout, show_default=True,
                         help="Time bound per pack, in seconds (its grounding too: past it, the pack fails)."),
            click.option("--max-models", type=click.IntRange(min=1), default=200_000, show_default=True,
                         help="Model cap per pack."),
        ]):
            command = option(command)
        return command
    return add
