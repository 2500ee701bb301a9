"""call_isolated: work in a forked child, its answer (or its error) back in the caller."""
from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from ppgcheck.packs import isolation
from ppgcheck.errors import PolicyError, PpgError, ReportError, UsageError

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")
resource = pytest.importorskip("resource")


def test_the_work_runs_in_another_process_and_its_value_comes_back() -> None:
    assert isolation.call_isolated(lambda: ("pid", os.getpid(), [1.5, {"a": None}])) != ("pid", os.getpid(),
                                                                                          [1.5, {"a": None}])
    tag, pid, payload = isolation.call_isolated(lambda: ("pid", os.getpid(), [1.5, {"a": None}]))
    assert tag == "pid" and pid != os.getpid() and payload == [1.5, {"a": None}]


def test_what_the_child_changes_stays_in_the_child() -> None:
    state = {"grounded": 0}

    def work() -> int:
        state["grounded"] += 1
        return state["grounded"]

    assert isolation.call_isolated(work) == 1
    assert isolation.call_isolated(work) == 1
    assert state == {"grounded": 0}


def test_without_fork_the_work_runs_here(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PPGCHECK_FORK", "off")
    assert isolation.call_isolated(os.getpid) == os.getpid()


@pytest.mark.parametrize("error", [PolicyError("policy `x` does not ground: boom"),
                                   UsageError("unknown policy `x`")])
def test_a_ppg_error_comes_back_as_its_class_and_message(error: PpgError) -> None:
    def work() -> None:
        raise error

    with pytest.raises(type(error)) as raised:
        isolation.call_isolated(work)
    assert str(raised.value) == str(error) and raised.value.exit_code == 2


def test_an_error_with_fields_comes_back_as_its_message() -> None:
    error = ReportError("unknown infraction `x`", "r.txt", 3, 7, "Alice did x.")

    def work() -> None:
        raise error

    with pytest.raises(PpgError) as raised:
        isolation.call_isolated(work)
    assert str(raised.value) == str(error) and raised.value.exit_code == 2


def test_a_bug_in_the_child_is_a_runtime_error_with_its_traceback() -> None:
    def work() -> None:
        raise ValueError("the decoder tripped")

    with pytest.raises(RuntimeError, match=r"(?s)the forked process failed:.*ValueError: the decoder tripped"):
        isolation.call_isolated(work)


def test_a_child_that_dies_is_reported_not_waited_for_forever() -> None:
    with pytest.raises(RuntimeError, match=r"ended without an answer \(killed by signal 9\)"):
        isolation.call_isolated(lambda: os.kill(os.getpid(), signal.SIGKILL))


def test_returning_free_memory_is_harmless() -> None:
    isolation.return_free_memory()
    isolation.return_free_memory()


# ---------------------------------------------------------------------------
# bounded jobs (call_bounded): time, memory, the phase, the file to blame
# ---------------------------------------------------------------------------

SMALL = isolation.Limits(seconds=1.0, megabytes=2048)


def test_a_job_past_its_time_is_stopped_and_named() -> None:
    def work() -> None:
        time.sleep(60)

    with pytest.raises(isolation.LimitExceeded, match=r"^grounding exceeded 1 s in the pack$"):
        isolation.call_bounded(work, "the pack", limits=SMALL)


def test_a_job_past_its_memory_is_stopped_and_named() -> None:
    def work() -> int:
        hog = [bytearray(2**20) for _ in range(4000)]     # 4 GB, far past the limit
        return len(hog)

    with pytest.raises(isolation.LimitExceeded, match=r"^grounding exceeded 300 MB in the pack$"):
        isolation.call_bounded(work, "the pack", limits=isolation.Limits(60, 300))


def test_the_phase_the_job_was_in_is_named_and_only_grounding_looks_for_a_file() -> None:
    looked: list[str] = []

    def solving() -> None:
        isolation.phase("solving")
        time.sleep(60)

    with pytest.raises(isolation.LimitExceeded, match=r"^solving exceeded 1 s in the pack$"):
        isolation.call_bounded(solving, "the pack", lambda: looked.append("x") or "f.lp", limits=SMALL)
    assert looked == []
    with pytest.raises(isolation.LimitExceeded, match=r"^grounding exceeded 1 s in f\.lp$"):
        isolation.call_bounded(lambda: os.kill(os.getpid(), signal.SIGSTOP), "the pack", lambda: "f.lp",
                               limits=SMALL)


def test_a_job_stopped_takes_what_it_started_along(tmp_path) -> None:
    marker = tmp_path / "grandchild.pid"

    def work() -> None:
        pid = os.fork()
        if pid == 0:
            time.sleep(120)
            os._exit(0)
        marker.write_text(str(pid))
        time.sleep(60)

    with pytest.raises(isolation.LimitExceeded):
        isolation.call_bounded(work, "the pack", limits=SMALL)
    grandchild = int(marker.read_text())
    deadline = time.monotonic() + 10
    while alive(grandchild) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not alive(grandchild), "the job's own child outlived it"


def alive(pid: int) -> bool:
    """Running (a zombie, killed but not yet reaped by init, is not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and stat.read_text().rsplit(")", 1)[-1].split()[0] == "Z")


def test_inside_a_job_a_nested_job_runs_in_the_same_process() -> None:
    def outer() -> tuple[int, int, bool]:
        return os.getpid(), isolation.call_bounded(os.getpid, "inner"), isolation.in_job()

    pid, inner, in_job = isolation.call_bounded(outer, "outer")
    assert pid == inner != os.getpid() and in_job and not isolation.in_job()


def test_solving_stops_itself_at_the_deadline_with_the_jobs_name() -> None:
    def work() -> None:
        isolation.phase("solving")
        while isolation.remaining() > 0:
            time.sleep(0.05)
        raise isolation.out_of_time()

    with pytest.raises(isolation.LimitExceeded, match=r"^solving exceeded 1 s in the batch$"):
        isolation.call_bounded(work, "the batch", limits=SMALL)


@pytest.mark.parametrize("fork", ["on", "off"])
def test_a_hard_solve_in_the_engine_is_interrupted_at_the_deadline(fork: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine solves synchronously (for clingo's on_last); a timer interrupts it:
    without the fork nothing else would stop this search (14 pigeons, 13 holes)."""
    import clingo

    from ppgcheck.engine.policy import _solve_within
    monkeypatch.setenv("PPGCHECK_FORK", fork)

    def pigeons() -> None:
        ctl = clingo.Control()
        ctl.add("base", [], "1 { in(P,H) : H = 1..13 } 1 :- P = 1..14. :- in(P,H), in(Q,H), P < Q.")
        ctl.ground([("base", [])])
        isolation.phase("solving")
        _solve_within(ctl, on_last=lambda model: None)

    started = time.monotonic()
    with pytest.raises(isolation.LimitExceeded, match=r"^solving exceeded 1 s in the pack$"):
        isolation.call_bounded(pigeons, "the pack", limits=SMALL)
    assert time.monotonic() - started < 10


def test_without_fork_a_job_runs_here_with_its_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PPGCHECK_FORK", "off")
    pid, left = isolation.call_bounded(lambda: (os.getpid(), isolation.remaining()), "here", limits=SMALL)
    assert pid == os.getpid() and 0 < left <= 1.0 and not isolation.in_job()

    def hog() -> int:
        return len([bytearray(2**20) for _ in range(8000)])
    before = resource.getrlimit(resource.RLIMIT_AS)
    with pytest.raises(isolation.LimitExceeded, match="exceeded 2048 MB in here"):
        isolation.call_bounded(hog, "here", limits=SMALL)
    assert resource.getrlimit(resource.RLIMIT_AS) == before    # restored
