"""Shared helpers for the test suite."""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from ppgcheck.resources import rules_dir
from ppgcheck.language.vocabulary import Form

NAMES = {"P": "Alice", "Q": "Bob", "name": "Alice"}


def fill(form: Form | str, number: int = 2) -> str:
    """A form's text with its slots filled by sample values."""
    text = form.text if isinstance(form, Form) else form
    return re.sub(r"\{(\w+)\}", lambda m: NAMES.get(m.group(1), str(number)), text)


HEADER = "policy: fab\nplayer: Alice\nplayer: Bob\n"


def all_commands() -> dict:
    """Every command of `ppgcheck`, the groups it imports only when asked for too."""
    import click

    from ppgcheck.cli import cli
    ctx = click.Context(cli)
    return {name: cli.get_command(ctx, name) for name in cli.list_commands(ctx)}


@pytest.fixture(autouse=True, scope="session")
def _private_cache(tmp_path_factory: pytest.TempPathFactory):
    """The suite (and the CLI runs it starts) use their own cache folder, not the user's.
    Under pytest-xdist the workers share one (its writes are atomic), so a pack's derived
    data is computed once per run, not once per worker."""
    base = tmp_path_factory.getbasetemp()
    folder = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "ppgcheck-cache"
    folder.mkdir(exist_ok=True)
    previous = os.environ.get("PPGCHECK_CACHE")
    os.environ["PPGCHECK_CACHE"] = str(folder)
    # an installed wheel carries prebuilt entries (ppgcheck/prebuilt/): the suite computes its
    # own, so that what it counts does not depend on how ppgcheck was installed
    os.environ["PPGCHECK_PREBUILT"] = "off"
    yield
    if previous is None:
        os.environ.pop("PPGCHECK_CACHE", None)
    else:
        os.environ["PPGCHECK_CACHE"] = previous


@pytest.fixture
def twice_pack(tmp_path: Path) -> Path:
    """The clean fixture pack (in a rules folder of its own) and two rules no
    one-observation scenario fires: one a second observation fires (c_twice.lp:3,
    a player late twice), one nothing fires (c_twice.lp:5)."""
    root = tmp_path / "src"
    pack = root / "twice"
    pack.mkdir(parents=True)
    (root / "core").symlink_to(rules_dir() / "core")
    for f in (Path(__file__).parent / "fixtures" / "packs" / "clean").glob("*.lp"):
        (pack / f.name).write_text(f.read_text(encoding="utf-8"), encoding="utf-8")
    (pack / "c_twice.lp").write_text(
        '% --- FIX 2 Tardiness ---\n'
        '% "A player late twice in one report gets a note."\n'
        'note(O2, P, tardiness, "late twice", "FIX 2") :-\n'
        '    committed(O1, P, tardiness), committed(O2, P, tardiness), O1 < O2.\n'
        'note(O, P, tardiness, "never", "FIX 2") :- committed(O, P, tardiness), count(O, minutes, N), N < 0.\n',
        encoding="utf-8")
    return pack


# files whose tests share one xdist worker: one headless browser at a time, and the fuzzing
# runs, whose time bounds should not compete with each other for the cores
_SERIAL_FILES = {"test_browser.py": "browser", "test_fuzz.py": "fuzz", "test_event_processes.py": "processes"}
# the seconds a group takes that no slow mark of its tests says (test_browser.py is not ours to mark)
_GROUP_SECONDS = {"browser": 60}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        group = _SERIAL_FILES.get(item.path.name)
        if group:
            item.add_marker(pytest.mark.xdist_group(group))
    # the longest work first: xdist (loadgroup, --no-loadscope-reorder in pyproject.toml) hands
    # out its work units (a test, or a group's tests together) in this order, so the long ones
    # start at once on separate workers instead of ending the run alone
    seconds = _unit_seconds(items)
    items.sort(key=lambda item: -seconds[_unit(item)])


def _unit(item: pytest.Item) -> str:
    """What xdist hands out whole: the test's group, or the test itself."""
    mark = item.get_closest_marker("xdist_group")
    return f"@{mark.args[0] if mark.args else mark.kwargs['name']}" if mark else item.nodeid


def _unit_seconds(items: list[pytest.Item]) -> dict[str, float]:
    """The seconds each work unit takes: the sum of its tests' slow marks (their time alone,
    bench/README.md: measured one file at a time), or _GROUP_SECONDS; 0 for the rest, which
    a stable sort keeps in collection order (xdist starts a group where its first test is)."""
    seconds: dict[str, float] = {}
    for item in items:
        unit = _unit(item)
        mark = item.get_closest_marker("slow")
        seconds[unit] = seconds.get(unit, 0.0) + (float(mark.args[0]) if mark else 0.0)
    for unit in seconds:
        seconds[unit] = seconds[unit] or _GROUP_SECONDS.get(unit.removeprefix("@"), 0.0)
    return seconds


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    """A run without chromium says so at the end, not only as a skip count (.ci/run sets CI,
    under which the browser tests fail instead of skipping)."""
    skipped = [r for r in terminalreporter.stats.get("skipped", []) if "test_browser" in r.nodeid]
    if skipped:
        terminalreporter.write_line(f"{len(skipped)} browser test(s) skipped: no chromium "
                                    "(`apt-get install -y chromium`)", yellow=True)
