"""Run one piece of work in a forked child, so what clingo allocates dies with it.

clingo interns every symbol it creates and never frees one (potassco/clingo#203;
the maintainers' advice is to let a worker process end).  A long batch of
distinct reports would otherwise keep every ground atom it ever made.  A fork
inherits the prepared policy, the parsed reports and the imports, so the child
starts at once: it grounds, solves and renders, sends its result back through a
pipe (pickled: plain Python values only) and exits, taking its symbols along.
Where there is no fork (Windows) the work runs in the process itself.
`PPGCHECK_FORK=off` runs it in the process too (for profiling and debuggers).

A pack is untrusted input, so grounding and solving it is a *job*
(call_bounded): such a child in a process group of its own, its address space
capped (RLIMIT_AS) and a CPU-time backstop set, waited for under a wall-clock
deadline and killed, with whatever it started, past it.  The child tells the
parent its phase (grounding, solving) and other progress through the same pipe,
in frames, so a limit hit names what was going on (docs/security.md).
"""
from __future__ import annotations

import contextlib
import functools
import os
import pickle
import select
import signal
import struct
import sys
import threading
import time
import traceback
from dataclasses import dataclass
from typing import Callable, Generic, TypeVar

from ppgcheck.errors import ConfinementError, LimitExceeded, PolicyError, PpgError, ProgramError, UsageError

T = TypeVar("T")


@dataclass(frozen=True)
class Limits:
    """What one grounding-and-solving job may use: wall-clock seconds and megabytes of address space."""

    seconds: float
    megabytes: int


# far above what a bundled pack needs (a batch of 256 reports: well under a second and
# 400 MB of address space; a whole `check`: under 400 MB), low enough that a runaway stops
DEFAULT_LIMITS = Limits(seconds=60.0, megabytes=2048)
# the child's own deadline (solving stops cooperatively) comes this long before the kill
GRACE = 1.0


# a PpgError crosses the pipe as (class name, message), the nearest of these classes
# (a ProgramError's UnsupportedConstruct as a ProgramError): subclasses with their own
# fields do not all survive pickling, and the CLI needs only the message and code
_ERRORS: dict[str, type[PpgError]] = {cls.__name__: cls for cls in (PolicyError, UsageError, LimitExceeded,
                                                                    ConfinementError, ProgramError)}


class _ChildError(PpgError):
    """A PpgError raised in the child, as its message (the CLI prints str(exc))."""


class _State:
    limits = DEFAULT_LIMITS
    exit_on_overrun = False            # the CLI without fork: a runaway grounding ends the process
    deadline: float | None = None      # inside a job: when its work must be done
    job_limits = DEFAULT_LIMITS        # inside a job: its limits
    where = ""                         # inside a job: what it works on, as its errors name it
    channel: int | None = None         # inside a forked job: where progress frames go
    phase = "grounding"
    kept: object = None                # inside a forked job: what keep_until_exit keeps
    kept_beside: list = []             # ... and what it keeps beside the others (at most KEPT_BESIDE)


def limits() -> Limits:
    return _State.limits


_blaming = threading.local()


def blame_until() -> float | None:
    """When the search for the file to blame must be done (a monotonic time), in the thread
    that runs it; None outside one (overrun.locate bounds its job by it)."""
    return getattr(_blaming, "until", None)


class Blame:
    """The search for the file to blame for a job past its limit (a locate function), held
    to the job's own deadline: the command stops within its limit, blame included.  Started
    beside the job, in a thread, once half its time is gone and it is still grounding; else
    run when asked, in the time left."""

    def __init__(self, locate: Callable[[], str | None], deadline: float) -> None:
        self.locate, self.deadline = locate, deadline
        self.halfway = time.monotonic() + (deadline - time.monotonic()) / 2
        self.thread: threading.Thread | None = None
        self.value: str | None = None

    def _run(self) -> None:
        _blaming.until = self.deadline
        try:
            self.value = self.locate()
        except Exception:       # noqa: BLE001 (no file to blame: the error names the pack)
            self.value = None
        finally:
            _blaming.until = None

    def start(self) -> None:
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def found(self) -> str | None:
        if self.thread is None:
            self._run()
        else:
            self.thread.join(max(0.0, self.deadline - time.monotonic()) + 0.5)
        return self.value


@contextlib.contextmanager
def limits_set(seconds: float | None = None, megabytes: int | None = None, *, exit_on_overrun: bool = False):
    """The limits of every job started inside (a command's --timeout and --memory-limit);
    with `exit_on_overrun`, a runaway grounding without fork ends the process (the CLI)."""
    before = _State.limits, _State.exit_on_overrun
    _State.limits = Limits(before[0].seconds if seconds is None else seconds,
                           before[0].megabytes if megabytes is None else megabytes)
    _State.exit_on_overrun = exit_on_overrun
    try:
        yield
    finally:
        _State.limits, _State.exit_on_overrun = before


def in_job() -> bool:
    return _State.deadline is not None


def leave_job() -> None:
    """In a resident child (resident.py), after a job's answer: no deadline, and what it kept freed."""
    _State.deadline, _State.kept, _State.kept_beside = None, None, []


# a check's groundings kept to its job's end: each is alive until the check ends anyway
KEPT_BESIDE = 8


def keep_until_exit(value: object, *, beside: bool = False) -> None:
    """In a forked job, keep this (the last clingo control) to the child's exit, which hands
    its memory back at once, instead of freeing it piece by piece (~15-20 ms a small
    grounding, ~50 ms one of a check's).  beside: kept with those kept before (a check's
    groundings, up to KEPT_BESIDE), not in their place (a batch's: each freed as the next comes)."""
    if _State.channel is None:
        return
    if not beside:
        _State.kept = value
    elif len(_State.kept_beside) < KEPT_BESIDE:
        _State.kept_beside.append(value)


def solve_interrupted(ctl, seconds: float | None, **callbacks):
    """ctl.solve(**callbacks) (a clingo control), interrupted by a timer after `seconds`
    (None: not at all); its SolveResult says whether it was.  A synchronous solve, not an
    asynchronous one waited for: clingo calls on_last only in a synchronous solve."""
    timer = None if seconds is None else threading.Timer(max(seconds, 0.0), ctl.interrupt)
    if timer is not None:
        timer.daemon = True
        timer.start()
    try:
        return ctl.solve(**callbacks)
    finally:
        if timer is not None:
            timer.cancel()


def remaining() -> float | None:
    """Seconds left to the running job (None outside a job): solving stops itself then."""
    return None if _State.deadline is None else max(0.0, _State.deadline - time.monotonic())


def out_of_time() -> LimitExceeded:
    """The error of a job whose work (solving, say) stopped itself at the deadline."""
    return overrun("time", _State.phase, _State.job_limits, _State.where)


def phase(name: str) -> None:
    """What the job does now (`grounding`, `solving`): a limit hit names it."""
    _State.phase = name
    progress(("phase", name))


def progress(value: object) -> None:
    """Send the parent a value while the work goes on (the last one is known if the job is stopped)."""
    if _State.channel is not None:
        write_frame(_State.channel, pickle.dumps(("progress", value)))


def can_fork() -> bool:
    return hasattr(os, "fork") and os.environ.get("PPGCHECK_FORK", "on") != "off"


def call_isolated(work: Callable[[], T]) -> T:
    """`work()`, run in a forked child when the platform has fork; its return value
    must pickle.  A PpgError from the child is raised here with the same message;
    any other failure raises RuntimeError with the child's traceback."""
    if not can_fork():
        return work()
    return Forked(work).result()


def call_bounded(work: Callable[[], T], where: str, locate: Callable[[], str | None] | None = None,
                 limits: Limits | None = None, grace: float = GRACE) -> T:
    """`work()` as one job under the limits (the process's, unless given): in a forked
    child with its address space capped, stopped `grace` seconds after its deadline.
    Past a limit it raises LimitExceeded, "grounding exceeded 10 s in WHERE", WHERE
    being what `locate()` finds (the file to blame) when it finds one.  Inside a job
    the work runs in it, under the enclosing job's limits.  Without fork it runs here,
    solving bounded by the deadline, grounding only where the CLI may end the process."""
    return start_bounded(work, where, locate, limits, grace).result()


def start_bounded(work: Callable[[], T], where: str, locate: Callable[[], str | None] | None = None,
                  limits: Limits | None = None, grace: float = GRACE) -> "Job[T]":
    """call_bounded's job started now, its value (or error) taken with .result():
    with fork the child runs while the caller goes on; without, the work runs here now."""
    bound = limits or _State.limits
    if in_job():
        return Job.done(work)
    if not can_fork():
        return Job.done(lambda: _in_process(work, bound, where, grace))
    return Job(Forked(work, bound, grace, where), bound.seconds + grace, where, locate)


class Job(Generic[T]):
    """A started job: result() waits for its value and raises what call_bounded would."""

    def __init__(self, child: "Forked | None", seconds: float, where: str,
                 locate: Callable[[], str | None] | None, outcome: tuple | None = None) -> None:
        self.child, self.seconds, self.where, self.locate = child, seconds, where, locate
        self.outcome = outcome

    @classmethod
    def done(cls, work: Callable[[], T]) -> "Job[T]":
        try:
            return cls(None, 0.0, "", None, ("ok", work()))
        except BaseException as exc:        # raised again by result(), where call_bounded raised it
            return cls(None, 0.0, "", None, ("error", exc))

    def result(self) -> T:
        if self.outcome is None:
            child = self.child
            try:
                self.outcome = ("ok", child.result(deadline=child.started + self.seconds, where=self.where,
                                                   locate=self.locate))
            except BaseException as exc:
                self.outcome = ("error", exc)
            self.child = None
        kind, value = self.outcome
        if kind == "error":
            raise value
        return value

    def ready(self) -> bool:
        """Whether result() would return at once."""
        return self.child is None or self.child.poll(self.child.started + self.seconds)

    def stop(self) -> None:
        """End the child of a job whose value is no longer wanted."""
        if self.child is not None:
            self.child.stop()
            self.child = None
            self.outcome = ("error", RuntimeError("stopped"))


def overrun(kind: str, phase_name: str, bound: Limits, where: str) -> LimitExceeded:
    """The error of a job past a limit: "grounding exceeded 10 s in WHERE"."""
    amount = f"{bound.seconds:g} s" if kind == "time" else f"{bound.megabytes} MB"
    return LimitExceeded(f"{phase_name} exceeded {amount} in {where}")


class Forked:
    """`work()` started now in a forked child (the caller checks can_fork() first);
    result() waits for its value, as call_isolated returns it; stop() ends a child
    whose value is no longer wanted.  With limits the child is a job: its own process
    group (stop() ends whatever it started too), its address space and CPU time capped."""

    def __init__(self, work: Callable[[], object], limits: Limits | None = None, grace: float = GRACE,
                 where: str = "") -> None:
        read_end, write_end = os.pipe()
        sys.stdout.flush()      # the child must not inherit (and later repeat) buffered output
        sys.stderr.flush()
        self.limits = limits
        self.started = time.monotonic()
        self.pid: int | None = os.fork()
        if self.pid == 0:                               # the child: never returns
            status = 1
            try:
                os.close(read_end)
                if limits is not None:
                    enter_job(limits, write_end, self.started, grace, where)
                write_frame(write_end, job_outcome(work)[1])
                os.close(write_end)
                status = 0
            finally:
                os._exit(status)
        os.close(write_end)
        if limits is not None:
            with contextlib.suppress(OSError):      # the child does it too: whichever runs first
                os.setpgid(self.pid, self.pid)
        self.read_end: int | None = read_end
        self.phase = "grounding"
        self._buffer = bytearray()          # the child's frames as they come in
        self._answer: tuple = ()            # its answer frame, unpickled: (kind, value)

    def result(self, deadline: float | None = None, where: str = "", locate=None):
        blame = Blame(locate, deadline) if locate is not None and deadline is not None else None
        try:
            frame = self._last_frame(deadline if blame is None else blame.halfway)
            if frame is None and blame is not None and time.monotonic() < deadline:
                if self.phase == "grounding":       # half its time gone: look for the file to blame beside it
                    blame.start()
                frame = self._last_frame(deadline)
        except BaseException:       # interrupted here: the child's answer has no reader now
            self.stop()
            raise
        if frame is None:           # past the deadline: the child was stopped
            self.stop()
            found = blame.found() if blame is not None and self.phase == "grounding" else None
            raise overrun("time", self.phase, self.limits, found or where)
        locate = blame.found if blame is not None else locate
        _, status = os.waitpid(self.pid, 0)
        self.pid = None
        if not frame:
            # killed by a signal, or ended by the C library itself (glibc's "cannot allocate
            # memory for thread-local data: ABORT" exits 127 when clingo hits the cap)
            if self.limits is not None and status != 0:
                if os.WIFSIGNALED(status) and os.WTERMSIG(status) in (signal.SIGXCPU, signal.SIGKILL):
                    raise overrun("time", self.phase, self.limits, where)
                raise PolicyError(f"{self.phase} in {where} ended abnormally ({describe_status(status)}): "
                                  f"past the {self.limits.megabytes} MB memory limit, or a crash")
            raise RuntimeError(f"the forked process ended without an answer ({describe_status(status)})")
        return answer_of(*frame, self.limits, where, locate)

    def result_or_none(self):
        """result(), or None when the child ended without one (killed, or a bug): for a
        search beside the caller's, which then does the work itself, where a bug shows."""
        try:
            return self.result()
        except RuntimeError:
            return None

    def _last_frame(self, deadline: float | None) -> tuple | None:
        """The child's answer, unpickled (() when it ended without one), progress frames
        noted on the way; None when the deadline passed first."""
        while not self._read(deadline):
            if deadline is not None and time.monotonic() >= deadline:
                return None
        return self._answer

    def poll(self, deadline: float | None = None) -> bool:
        """Whether result() would return at once: the child's answer is in, or the deadline passed."""
        return self._read(0.0) or (deadline is not None and time.monotonic() >= deadline)

    def _read(self, deadline: float | None) -> bool:
        """Read what the child wrote, waiting up to the deadline (a monotonic time; 0.0:
        not at all) for the first chunk; True once the pipe is closed."""
        if self.read_end is None:
            return True
        if deadline is not None:
            left = max(0.0, deadline - time.monotonic())
            if not select.select([self.read_end], [], [], left)[0]:
                return False
        while True:
            chunk = os.read(self.read_end, 1 << 16)
            if not chunk:
                os.close(self.read_end)
                self.read_end = None
                return True
            self._frames(chunk)
            if not select.select([self.read_end], [], [], 0)[0]:
                return False

    def _frames(self, chunk: bytes) -> None:
        self._buffer += chunk
        while (frame := pop_frame(self._buffer)) is not None:
            if frame[0] == "progress":
                self.on_progress(frame[1])
            else:
                self._answer = frame

    def on_progress(self, value: object) -> None:
        if isinstance(value, tuple) and value[:1] == ("phase",):
            self.phase = value[1]
        self.last_progress = value

    def stop(self) -> None:
        if self.pid:
            with contextlib.suppress(ProcessLookupError):
                if self.limits is not None:
                    os.killpg(self.pid, signal.SIGKILL)      # the job and whatever it started
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
            self.pid = None
        if self.read_end is not None:
            os.close(self.read_end)
            self.read_end = None

    def __del__(self) -> None:
        self.stop()


def enter_job(bound: Limits, channel: int, started: float, grace: float, where: str, *,
              resident: bool = False) -> None:
    """In a forked child: become a job (own process group, capped address space and CPU time).
    resident: a child that runs job after job (resident.py): its CPU-time backstop counts from
    what it has used so far, and the hard limit stays, so the next job can move it on."""
    # (only in a bounded child)
    import resource
    os.setpgid(0, 0)
    # its answer and any error cross the channel: what the C library says on its own as it
    # ends the child past the memory cap (glibc's "cannot allocate memory for thread-local
    # data: ABORT") would reach the user's terminal beside the clean error
    quiet = os.open(os.devnull, os.O_WRONLY)
    os.dup2(quiet, 2)
    os.close(quiet)
    _State.deadline, _State.channel, _State.job_limits = started + bound.seconds, channel, bound
    _State.where, _State.phase, _State.kept_beside = where, "grounding", []
    cap = bound.megabytes * 2**20
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (cap if hard == resource.RLIM_INFINITY else min(cap, hard), hard))
    used = 0.0
    if resident:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        used = usage.ru_utime + usage.ru_stime
    cpu = int(used + bound.seconds + grace) + 2       # a backstop should the parent be gone
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    if hard == resource.RLIM_INFINITY or hard > cpu:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, hard if resident else cpu + 1))


def _in_process(work: Callable[[], T], bound: Limits, where: str, grace: float) -> T:
    """The best effort without fork: solving stops at the deadline; a grounding past it
    ends the process when the CLI allows (clingo releases the GIL while grounding, so
    a timer thread runs); the address space is capped where `resource` exists."""
    _State.deadline, _State.phase, _State.job_limits = time.monotonic() + bound.seconds, "grounding", bound
    _State.where = where
    timer = None
    if _State.exit_on_overrun:
        def stop_process() -> None:
            sys.stderr.write(f"{overrun('time', _State.phase, bound, where)} "
                             "(no fork on this platform: the process is stopped)\n")
            sys.stderr.flush()
            os._exit(2)
        timer = threading.Timer(bound.seconds + grace, stop_process)
        timer.daemon = True
        timer.start()
    try:
        with _address_space(bound.megabytes):
            return work()
    except MemoryError:
        raise overrun("memory", _State.phase, bound, where) from None
    finally:
        if timer is not None:
            timer.cancel()
        _State.deadline, _State.phase = None, "grounding"


@contextlib.contextmanager
def _address_space(megabytes: int):
    try:
        # (only in a bounded child)
        import resource
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        cap = megabytes * 2**20
        resource.setrlimit(resource.RLIMIT_AS, (cap if hard == resource.RLIM_INFINITY else min(cap, hard), hard))
    except (ImportError, ValueError, OSError):     # no `resource` (Windows), or a cap below what is in use
        yield
        return
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def write_frame(fd: int, data: bytes) -> None:
    view = memoryview(struct.pack("<Q", len(data)) + data)
    while view:
        view = view[os.write(fd, view):]


_MEMORY = pickle.dumps(("memory", "grounding"))


def job_outcome(work: Callable[[], object]) -> tuple[str, bytes]:
    """work()'s value, or what it raised, as the frame a job answers with (answer_of reads
    it, unpickled), and its kind: ok, ppg (a PpgError), memory, bug."""
    try:
        return "ok", pickle.dumps(("ok", work()), protocol=pickle.HIGHEST_PROTOCOL)
    except PpgError as exc:
        name = next((cls.__name__ for cls in type(exc).__mro__ if cls.__name__ in _ERRORS), type(exc).__name__)
        return "ppg", pickle.dumps(("ppg", (name, str(exc))))
    except MemoryError:
        return "memory", _MEMORY if _State.phase == "grounding" else pickle.dumps(("memory", _State.phase))
    except BaseException:       # a bug, or Ctrl-C: the parent reports it
        return "bug", pickle.dumps(("bug", traceback.format_exc()))


def pop_frame(buffer: bytearray) -> tuple | None:
    """The first whole frame of a job's output (write_frame), unpickled: (kind, value),
    and taken off the buffer; None while none is whole."""
    if len(buffer) < 8:
        return None
    size = struct.unpack("<Q", buffer[:8])[0]
    if len(buffer) < 8 + size:
        return None
    frame = pickle.loads(buffer[8:8 + size])
    del buffer[:8 + size]
    return frame


def answer_of(kind: str, value: object, limits: Limits | None, where: str,
              locate: Callable[[], str | None] | None = None):
    """The value a job's answer frame (job_outcome), unpickled, carries: its kind (ok, ppg,
    memory, bug) and value; or the error it raised."""
    if kind == "ok":
        return value
    if kind == "ppg":
        name, message = value
        raise _ERRORS.get(name, _ChildError)(message)
    if kind == "memory":
        if limits is None:
            raise RuntimeError("the forked process ran out of memory")
        found = locate() if locate is not None and value == "grounding" else None
        raise overrun("memory", value, limits, found or where)
    raise RuntimeError("the forked process failed:\n" + str(value))


def describe_status(status: int) -> str:
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
        # (only in a bounded child)
        import ctypes
        return ctypes.CDLL(None).malloc_trim     # glibc only (musl has none)
    except (OSError, AttributeError):
        return None
