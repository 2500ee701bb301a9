"""Run one piece of work in a forked child, so what clingo allocates dies with it.

clingo interns every symbol it creates and never frees one (potassco/clingo#203;
the maintainers' advice is to let a worker process end).  A long batch of
distinct reports would otherwise keep every ground atom it ever made.  A fork
inherits the prepared policy, the parsed reports and the imports, so the child
starts at once: it grounds, solves and renders, sends its result back through a
pipe (pickled: plain Python values only) and exits, taking its symbols along.
Where there is no fork (Windows) the work runs in the process itself.
`PPGCHECK_FORK=off` runs it in the process too (for profiling and debuggers).
"""
from __future__ import annotations

import ctypes
import functools
import os
import pickle
import signal
import sys
import traceback
from typing import Callable, TypeVar

from ppgcheck.errors import PolicyError, PpgError, UsageError

T = TypeVar("T")

# a PpgError crosses the pipe as (class name, message): subclasses with their own
# fields do not all survive pickling, and the CLI needs only the message and code
_ERRORS: dict[str, type[PpgError]] = {"PolicyError": PolicyError, "UsageError": UsageError}


class _ChildError(PpgError):
    """A PpgError raised in the child, as its message (the CLI prints str(exc))."""


def can_fork() -> bool:
    return hasattr(os, "fork") and os.environ.get("PPGCHECK_FORK", "on") != "off"


def call_isolated(work: Callable[[], T]) -> T:
    """`work()`, run in a forked child when the platform has fork; its return value
    must pickle.  A PpgError from the child is raised here with the same message;
    any other failure raises RuntimeError with the child's traceback."""
    if not can_fork():
        return work()
    return Forked(work).result()


class Forked:
    """`work()` started now in a forked child (the caller checks can_fork() first);
    result() waits for its value, as call_isolated returns it; stop() ends a child
    whose value is no longer wanted."""

    def __init__(self, work: Callable[[], object]) -> None:
        read_end, write_end = os.pipe()
        sys.stdout.flush()      # the child must not inherit (and later repeat) buffered output
        sys.stderr.flush()
        self.pid: int | None = os.fork()
        if self.pid == 0:                               # the child: never returns
            status = 1
            try:
                os.close(read_end)
                with os.fdopen(write_end, "wb") as pipe:
                    pipe.write(_outcome(work))
                status = 0
            finally:
                os._exit(status)
        os.close(write_end)
        self.read_end: int | None = read_end

    def result(self):
        try:
            with os.fdopen(self.read_end, "rb") as pipe:
                data = pipe.read()
        except BaseException:       # interrupted here: the child's answer has no reader now
            self.read_end = None
            self.stop()
            raise
        self.read_end = None
        _, status = os.waitpid(self.pid, 0)
        self.pid = None
        if not data:
            raise RuntimeError(f"the forked process ended without an answer ({_describe(status)})")
        kind, value = pickle.loads(data)
        if kind == "ok":
            return value
        if kind == "ppg":
            name, message = value
            raise _ERRORS.get(name, _ChildError)(message)
        raise RuntimeError("the forked process failed:\n" + value)

    def stop(self) -> None:
        if self.pid:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
            self.pid = None
        if self.read_end is not None:
            os.close(self.read_end)
            self.read_end = None

    def __del__(self) -> None:
        self.stop()


def _outcome(work: Callable[[], object]) -> bytes:
    try:
        return pickle.dumps(("ok", work()), protocol=pickle.HIGHEST_PROTOCOL)
    except PpgError as exc:
        return pickle.dumps(("ppg", (type(exc).__name__, str(exc))))
    except BaseException:       # a bug, or Ctrl-C: the parent reports it
        return pickle.dumps(("bug", traceback.format_exc()))


def _describe(status: int) -> str:
    if os.WIFSIGNALED(status):
        return f"killed by signal {os.WTERMSIG(status)}"
    return f"exit status {os.waitstatus_to_exitcode(status)}"


def return_free_memory() -> None:
    """Hand freed heap pages back to the system.  glibc keeps them for reuse, and a
    long batch that parses a thousand reports between forks otherwise creeps by
    ~0.6 KB a report in fragments (measured: 40 -> 46 MB over 10,000 reports)."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


@functools.cache
def _malloc_trim():
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(None).malloc_trim     # glibc only (musl has none)
    except (OSError, AttributeError):
        return None
