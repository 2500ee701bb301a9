"""What the commands share: clean failures, reading report files, common options."""
from __future__ import annotations

import contextlib
import functools
import gc
import sys
from pathlib import Path
from typing import Callable

import click

from ppgcheck.errors import PpgError, UsageError


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


def report_files(paths: tuple[str, ...]) -> list[tuple[str, Callable[[], str]]]:
    """(name, read) for each file, each report file under a directory, and `-` (stdin).
    Nothing is read until `read()` is called, so a batch holds one file at a time;
    a missing or non-UTF-8 file raises its UsageError from `read()`."""
    entries: list[tuple[str, Callable[[], str]]] = []
    for raw in paths:
        if raw == "-":
            entries.append(("<stdin>", read_stdin))
            continue
        path = Path(raw)
        if path.is_dir():
            files = sorted(p for p in path.rglob("*.txt") if p.is_file())
            if not files:
                raise UsageError(f"no report files (*.txt) under `{raw}`")
            entries.extend((str(f), functools.partial(read_file, f)) for f in files)
        else:
            entries.append((raw, functools.partial(read_file, path)))
    return entries


def read_stdin() -> str:
    with click.open_file("-", encoding="utf-8") as stdin:
        return stdin.read()


def read_file(path: Path) -> str:
    if not path.is_file():
        raise UsageError(f"no such file or directory: `{path}`")
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(f"`{path}` is not UTF-8 text: {exc.reason} at byte {exc.start}") from None


def report_sources(paths: tuple[str, ...]) -> list[tuple[str, str]]:
    """(name, text) of each report file, read now; the first bad file raises."""
    return [(name, read()) for name, read in report_files(paths)]


def rules_option(help_text: str):
    return click.option("--rules", "rules", type=click.Path(exists=True, file_okay=False, path_type=Path),
                        metavar="DIR", help=help_text)


def check_rules_folder(rules: Path | None) -> None:
    if rules is not None and not (rules / "core").is_dir():
        raise UsageError(f"`{rules}` is not a rules folder: it has no `core/` folder")


def limit_options(timeout: bool):
    """--memory-limit (and, with `timeout`, --timeout) on a command that grounds a pack: the
    limits of every job it runs (ppgcheck/engine/isolation.py).  `check` and `diff` have
    their own --timeout, the time bound of a pack's search, which bounds its grounding too."""
    from ppgcheck.engine.isolation import DEFAULT_LIMITS

    def add(command):
        @functools.wraps(command)
        def limited(*args, memory_limit: int, job_timeout: float | None = None, **kwargs):
            from ppgcheck.engine import isolation
            isolation.set_limits(job_timeout, memory_limit, exit_on_overrun=True)
            return command(*args, **kwargs)
        limited = click.option(
            "--memory-limit", type=click.IntRange(min=64), default=DEFAULT_LIMITS.megabytes, show_default=True,
            metavar="MB", help="Memory (address space) each grounding-and-solving job may use, in MB.")(limited)
        if timeout:
            limited = click.option(
                "--timeout", "job_timeout", type=click.FloatRange(min=0.1), default=DEFAULT_LIMITS.seconds,
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
