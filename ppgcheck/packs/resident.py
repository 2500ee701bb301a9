"""A resident job process: one forked child that runs jobs one after another.

A job forked afresh (isolation.py) writes to pages it shares with its parent, and
each first write is a page fault: a server's batch of 17 reports cost ~3,200 of
them, ~13 ms of system time, a third more than ruling the batch in the process
(measured with bench/load.py's reports).  A resident child pays them once and
then rules batch after batch in memory that is already its own.  It is still a
job: its own process group, its address space capped, each job under the same
deadline and CPU-time backstop as a forked one, stopped (and replaced by a new
child at the next job) past them.  clingo never frees a symbol
(potassco/clingo#203), so the child also leaves after MAX_JOBS jobs, after a job
that ran out of memory or failed with a bug, and when its parent is gone.

The work crosses a pipe, so it must pickle (a module-level function and plain
values: functools.partial, not a lambda); so must its value.  One job runs at a
time; the caller holds `Resident` from one thread, as the server's batcher does.
"""
from __future__ import annotations

import contextlib
import os
import pickle
import select
import signal
import struct
import sys
import time
from typing import Callable, TypeVar

from ppgcheck.packs import isolation
from ppgcheck.packs.isolation import GRACE, Job, Limits
from ppgcheck.errors import PolicyError

T = TypeVar("T")

# jobs one child runs before it leaves, so the symbols of old batches do not pile up
MAX_JOBS = 64


class Resident:
    """The resident child (started at the first job, or by warm()) and its two pipes."""

    def __init__(self, max_jobs: int = MAX_JOBS) -> None:
        self.max_jobs = max_jobs
        self.pid: int | None = None
        self._requests: int | None = None      # write end: jobs to the child
        self._answers: int | None = None       # read end: its frames back
        self._buffer = bytearray()
        self.busy = False
        self.jobs = 0                          # answered by the present child

    def warm(self) -> None:
        """Start the child now (after the packs are prepared: it inherits them)."""
        if not self._alive():
            self._spawn()

    def start(self, work: Callable[[], T], where: str, locate: Callable[[], str | None] | None = None,
              limits: Limits | None = None, grace: float = GRACE) -> Job[T]:
        """isolation.start_bounded's job, run by the resident child: the same errors past
        the same limits; its value taken with .result() before the next job starts."""
        if self.busy:
            raise RuntimeError("the resident child runs one job at a time")
        bound = limits or isolation.limits()
        request = pickle.dumps((work, bound, grace, where), protocol=pickle.HIGHEST_PROTOCOL)
        if not self._alive():
            self._spawn()
        started = time.monotonic()
        try:
            isolation.write_frame(self._requests, request)
        except BrokenPipeError:         # it left since: a new one
            self._end()
            self._spawn()
            isolation.write_frame(self._requests, request)
        self.busy = True
        return Job(_Call(self, bound, started), bound.seconds + grace, where, locate)

    def close(self) -> None:
        """End the child: told to leave, it leaves between jobs."""
        self._end(kill=False)

    # --- the parent's side --------------------------------------------------------------
    def _alive(self) -> bool:
        if self.pid is None:
            return False
        try:
            done, _ = os.waitpid(self.pid, os.WNOHANG)
        except ChildProcessError:       # reaped by someone else
            done = self.pid
        if done:                        # it left (after a failure, or killed): reaped
            self.pid = None
            self._end()
            return False
        return True

    def _spawn(self) -> None:
        requests_read, requests_write = os.pipe()
        answers_read, answers_write = os.pipe()
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:                                    # the child: never returns
            status = 1
            try:
                os.close(requests_write)
                os.close(answers_read)
                status = _serve(requests_read, answers_write)
            finally:
                os._exit(status)
        os.close(requests_read)
        os.close(answers_write)
        with contextlib.suppress(OSError):      # the child does it too: whichever runs first
            os.setpgid(pid, pid)
        self.pid, self._requests, self._answers = pid, requests_write, answers_read
        self._buffer = bytearray()
        self.jobs = 0

    def _end(self, kill: bool = True) -> int | None:
        """Close the pipes and reap the child, killed first with whatever it started, or
        told to leave (an empty job: other children may hold its pipe open, so the pipe's
        end is no sign); its wait status."""
        if not kill and self._requests is not None:
            with contextlib.suppress(OSError):
                isolation.write_frame(self._requests, b"")
        for fd in (self._requests, self._answers):
            if fd is not None:
                os.close(fd)
        self._requests = self._answers = None
        self.busy = False
        status = None
        if self.pid is not None:
            if kill:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.pid, signal.SIGKILL)
            status = _reap(self.pid)
            self.pid = None
        return status

    def _next_frame(self, deadline: float | None, on_progress: Callable[[object], None]) -> tuple | None:
        """The child's answer to the running job, unpickled: (kind, value), () when it ended
        first, None when the deadline (a monotonic time; None: none) passed first; its
        progress frames handed to on_progress on the way."""
        while True:
            while (frame := isolation.pop_frame(self._buffer)) is not None:
                if frame[0] != "progress":
                    return frame
                on_progress(frame[1])
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            if not select.select([self._answers], [], [], left)[0]:
                return None
            chunk = os.read(self._answers, 1 << 16)
            if not chunk:
                return ()
            self._buffer += chunk


class _Call:
    """The running job of a Resident, as a Job waits for it (the interface of isolation.Forked)."""

    def __init__(self, resident: Resident, limits: Limits, started: float) -> None:
        self.resident, self.limits, self.started = resident, limits, started
        self.phase = "grounding"
        self._answer: tuple | None = None

    def _note(self, value: object) -> None:
        if isinstance(value, tuple) and value[:1] == ("phase",):
            self.phase = value[1]

    def poll(self, deadline: float | None = None) -> bool:
        if self._answer is None and self.resident.busy:
            self._answer = self.resident._next_frame(time.monotonic(), self._note)
        return self._answer is not None or (deadline is not None and time.monotonic() >= deadline)

    def result(self, deadline: float | None = None, where: str = "", locate=None):
        resident = self.resident
        frame = self._answer
        # the file to blame is looked for as a forked job's is: beside the job once half its
        # time is gone, and never past its deadline (the caller stops within its limit)
        blame = isolation.Blame(locate, deadline) if frame is None and locate is not None \
            and deadline is not None else None
        if frame is None:
            frame = resident._next_frame(deadline if blame is None else blame.halfway, self._note)
            if frame is None and blame is not None and time.monotonic() < deadline:
                if self.phase == "grounding":
                    blame.start()
                frame = resident._next_frame(deadline, self._note)
        resident.busy = False
        if frame is None:               # past the deadline: the child is stopped
            resident._end()
            found = blame.found() if blame is not None and self.phase == "grounding" else None
            raise isolation.overrun("time", self.phase, self.limits, found or where)
        locate = blame.found if blame is not None else locate
        if not frame:                   # it ended without an answer: killed, or a crash
            status = resident._end(kill=False) or 0
            if os.WIFSIGNALED(status) and os.WTERMSIG(status) in (signal.SIGXCPU, signal.SIGKILL):
                raise isolation.overrun("time", self.phase, self.limits, where)
            raise PolicyError(f"{self.phase} in {where} ended abnormally ({isolation.describe_status(status)}): "
                              f"past the {self.limits.megabytes} MB memory limit, or a crash")
        kind, value = frame
        resident.jobs += 1
        if kind in ("memory", "bug") or resident.jobs >= resident.max_jobs:
            resident._end(kill=False)       # it leaves: a new child for the next job
        return isolation.answer_of(kind, value, self.limits, where, locate)

    def stop(self) -> None:
        self.resident._end()


def _reap(pid: int, patience: float = 5.0) -> int | None:
    """Wait for a child that is leaving; one that has not left after `patience` seconds is killed."""
    deadline = time.monotonic() + patience
    while True:
        try:
            done, status = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            return None
        if done:
            return status
        if time.monotonic() >= deadline:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGKILL)
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            return os.waitpid(pid, 0)[1]
        time.sleep(0.001)


# --- the child's side -------------------------------------------------------------------

def _serve(requests: int, answers: int) -> int:
    """The child's loop: a job per request, its answer framed back; leaves (status 0) when
    told to (an empty job) or its parent is gone, and after a job that ran out of memory
    or failed with a bug (what it leaves behind is not to be trusted)."""
    parent = os.getppid()
    while True:
        head = _read_exactly(requests, 8, parent)
        payload = None if head is None else _read_exactly(requests, struct.unpack("<Q", head)[0], parent)
        if not payload:
            return 0
        work, bound, grace, where = pickle.loads(payload)
        isolation.enter_job(bound, answers, time.monotonic(), grace, where, resident=True)
        kind, answer = isolation.job_outcome(work)
        isolation.write_frame(answers, answer)
        isolation.leave_job()       # the job's groundings freed now, not in the next job's time
        if kind in ("memory", "bug"):
            return 0


def _read_exactly(fd: int, size: int, parent: int) -> bytes | None:
    """`size` bytes from the request pipe; None at its end or once the parent is gone
    (looked at every second: another child may hold the pipe open after the parent's end)."""
    data = bytearray()
    while len(data) < size:
        if not select.select([fd], [], [], 1.0)[0]:
            if os.getppid() != parent:
                return None
            continue
        chunk = os.read(fd, size - len(data))
        if not chunk:
            return None
        data += chunk
    return bytes(data)
