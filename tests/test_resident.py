"""The resident child (ppgcheck/packs/resident.py): job after job in one forked process,
each under the limits and with the errors of a job forked for it (isolation.call_bounded)."""
from __future__ import annotations

import functools
import os
import pickle
import signal
import time

import pytest

from ppgcheck.packs import isolation
from ppgcheck.packs.resident import Resident
from ppgcheck.errors import LimitExceeded, PolicyError, UsageError

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")
resource = pytest.importorskip("resource")

SMALL = isolation.Limits(seconds=1.0, megabytes=2048)


@pytest.fixture
def resident():
    worker = Resident(max_jobs=4)
    yield worker
    worker.close()


def run(worker: Resident, work, where: str = "the pack", **kw):
    return worker.start(work, where, **kw).result()


# module-level work: a job crosses a pipe, so it must pickle
def pid_and(value: object) -> tuple[int, object]:
    return os.getpid(), value


def count_calls() -> int:
    count_calls.calls = getattr(count_calls, "calls", 0) + 1
    return count_calls.calls


def raise_(error: Exception) -> None:
    raise error


def sleep_in(phase: str) -> None:
    isolation.phase(phase)
    time.sleep(60)


def hog_memory() -> int:
    return len([bytearray(2**20) for _ in range(4000)])     # 4 GB, far past the limit


def limits_inside() -> tuple[tuple[int, int], tuple[int, int], float, bool]:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return (resource.getrlimit(resource.RLIMIT_AS), resource.getrlimit(resource.RLIMIT_CPU),
            usage.ru_utime + usage.ru_stime, isolation.in_job())


def test_jobs_run_one_after_another_in_one_child_and_their_values_come_back(resident: Resident) -> None:
    first, value = run(resident, functools.partial(pid_and, [1.5, {"a": None}]))
    second, _ = run(resident, functools.partial(pid_and, 2))
    assert first == second == resident.pid != os.getpid() and value == [1.5, {"a": None}]
    assert run(resident, count_calls) == 1 and run(resident, count_calls) == 2      # its state is its own
    assert getattr(count_calls, "calls", 0) == 0


def sleep_then(value: object) -> object:
    time.sleep(0.3)
    return value


def test_a_started_job_is_polled_until_its_answer_is_in(resident: Resident) -> None:
    job = resident.start(functools.partial(sleep_then, "done"), "the pack")
    assert not job.ready()
    deadline = time.monotonic() + 10
    while not job.ready() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert job.ready() and job.result() == "done"


def test_after_max_jobs_a_new_child_takes_over(resident: Resident) -> None:
    pids = [run(resident, functools.partial(pid_and, k))[0] for k in range(6)]
    assert len(set(pids[:4])) == 1 and pids[4] == pids[5] != pids[0]


@pytest.mark.parametrize("error", [PolicyError("policy `x` does not ground: boom"), UsageError("unknown policy `x`")])
def test_a_ppg_error_comes_back_as_its_class_and_message_and_the_child_stays(resident: Resident, error) -> None:
    pid = run(resident, functools.partial(pid_and, 0))[0]
    with pytest.raises(type(error)) as raised:
        run(resident, functools.partial(raise_, error))
    assert str(raised.value) == str(error)
    assert run(resident, functools.partial(pid_and, 0))[0] == pid


def test_a_bug_is_a_runtime_error_and_the_next_job_gets_a_new_child(resident: Resident) -> None:
    pid = run(resident, functools.partial(pid_and, 0))[0]
    with pytest.raises(RuntimeError, match=r"(?s)failed:.*ValueError: the decoder tripped"):
        run(resident, functools.partial(raise_, ValueError("the decoder tripped")))
    assert run(resident, functools.partial(pid_and, 0))[0] != pid


def test_a_job_past_its_time_is_stopped_and_named_and_the_next_one_runs(resident: Resident) -> None:
    looked: list[str] = []
    with pytest.raises(LimitExceeded, match=r"^solving exceeded 1 s in the pack$"):
        run(resident, functools.partial(sleep_in, "solving"), locate=lambda: looked.append("x") or "f.lp",
            limits=SMALL)
    assert looked == []         # only grounding looks for the file to blame
    with pytest.raises(LimitExceeded, match=r"^grounding exceeded 1 s in f\.lp$"):
        run(resident, functools.partial(sleep_in, "grounding"), locate=lambda: "f.lp", limits=SMALL)
    assert run(resident, functools.partial(pid_and, "next"))[1] == "next"


def test_a_job_past_its_memory_is_named_and_the_next_job_gets_a_new_child(resident: Resident) -> None:
    pid = run(resident, functools.partial(pid_and, 0))[0]
    with pytest.raises(LimitExceeded, match=r"^grounding exceeded 300 MB in the pack$"):
        run(resident, hog_memory, limits=isolation.Limits(60, 300))
    assert run(resident, functools.partial(pid_and, 0))[0] != pid


def test_each_job_is_capped_and_has_a_cpu_backstop_from_what_the_child_used(resident: Resident) -> None:
    (address, _), (cpu_soft, _), used, in_job = run(resident, limits_inside, limits=isolation.Limits(5, 700))
    assert address == 700 * 2**20 and in_job
    assert used + 5 <= cpu_soft <= used + 5 + isolation.GRACE + 3
    assert not isolation.in_job()       # the caller is not in a job


def test_a_child_that_dies_is_reported_and_replaced(resident: Resident) -> None:
    pid = run(resident, functools.partial(pid_and, 0))[0]
    os.kill(pid, signal.SIGKILL)        # between jobs: the next job goes to a new child
    deadline = time.monotonic() + 10
    while _running(pid) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert run(resident, functools.partial(pid_and, 1))[0] not in (pid, os.getpid())
    with pytest.raises(LimitExceeded, match=r"exceeded 60 s"):      # killed in a job: as past its time
        run(resident, functools.partial(os.kill, 0, signal.SIGKILL), limits=isolation.Limits(60, 2048))


def _running(pid: int) -> bool:
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().rsplit(")", 1)[-1].split()[0] != "Z"


def test_work_that_does_not_pickle_is_refused_before_any_child_starts(resident: Resident) -> None:
    with pytest.raises((pickle.PicklingError, AttributeError), match="(?i)pickle"):
        run(resident, lambda: 1)
    assert resident.pid is None and not resident.busy


def test_close_ends_the_child(resident: Resident) -> None:
    pid = run(resident, functools.partial(pid_and, 0))[0]
    resident.close()
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
    assert resident.pid is None


def test_the_server_batcher_rules_its_batches_in_one_resident_child() -> None:
    from ppgcheck import api
    from ppgcheck.language.report import parse_reports
    from ppgcheck.server.batching import RulingBatcher
    batcher = RulingBatcher()
    try:
        prepared = api.prepare(parse_reports("policy: fab\nplayer: Alice\nAlice was 5 minutes late\n"))
        alone = api.rule_prepared(prepared)
        first = batcher.rule(prepared, questions=False)
        pid = batcher._resident.pid
        second = batcher.rule(prepared, questions=False)
        assert pid is not None and batcher._resident.pid == pid
        assert [rs.exit_code for rs in first] == [rs.exit_code for rs in second] == [rs.exit_code for rs in alone]
        assert first == second == alone and first[0].rulings[0].infraction == "tardiness"
    finally:
        batcher.close()


def test_a_child_leaves_when_told_though_another_child_holds_its_pipe() -> None:
    first, second = Resident(), Resident()
    try:
        run(first, functools.partial(pid_and, 0))
        run(second, functools.partial(pid_and, 0))      # forked later: it inherits the first one's pipe
        started = time.monotonic()
        first.close()
        assert time.monotonic() - started < 2 and first.pid is None
    finally:
        first.close()
        second.close()


def test_a_child_leaves_when_its_parent_is_gone(tmp_path) -> None:
    marker = tmp_path / "resident.pid"
    parent = os.fork()
    if parent == 0:         # a parent that dies without closing its resident
        try:
            worker = Resident()
            marker.write_text(str(run(worker, functools.partial(pid_and, 0))[0]))
        finally:
            os._exit(0)
    os.waitpid(parent, 0)
    child = int(marker.read_text())
    deadline = time.monotonic() + 10
    while _gone_or_zombie(child) is False and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _gone_or_zombie(child), "the resident child outlived its parent"


def _gone_or_zombie(pid: int) -> bool:
    try:
        return not _running(pid)
    except FileNotFoundError:
        return True
