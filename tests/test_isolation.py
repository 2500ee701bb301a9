"""call_isolated: work in a forked child, its answer (or its error) back in the caller."""
from __future__ import annotations

import os
import signal

import pytest

from ppgcheck.engine import isolation
from ppgcheck.errors import PolicyError, PpgError, ReportError, UsageError

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")


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
