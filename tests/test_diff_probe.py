"""diff's probe of whether a version can rule (analysis/diff_probe.py): that a version rules
is kept for its files byte for byte, so a diff's old side is probed once; that one cannot rule
is never kept, and a changed file is probed again."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ppgcheck.analysis import diff_probe
from ppgcheck.packs import isolation
from ppgcheck.packs.pack import Pack
from ppgcheck.resources import rules_dir

CLEAN = Path(__file__).parent / "fixtures" / "packs" / "clean"


@pytest.fixture
def pack(tmp_path: Path) -> Pack:
    """A copy of a small pack (two files) with the bundled core: a version to probe cheaply."""
    shutil.copytree(CLEAN, tmp_path / "clean")
    return Pack("clean", tmp_path / "clean", rules_dir() / "core")


def _jobs(monkeypatch) -> list[str]:
    started: list[str] = []
    real = isolation.call_bounded

    def counting(work, where, *args, **kwargs):
        started.append(where)
        return real(work, where, *args, **kwargs)
    monkeypatch.setattr(isolation, "call_bounded", counting)
    return started


def test_a_version_that_rules_is_probed_once_for_its_bytes(pack, monkeypatch):
    assert diff_probe.cannot_rule(pack, 120) is None
    jobs = _jobs(monkeypatch)
    assert diff_probe.cannot_rule(Pack("clean", pack.folder, pack.core), 120) is None
    assert not any("determinism" in job or "each kind" in job for job in jobs)
    # a changed file is another version: probed again
    edited = next(pack.folder.glob("*.lp"))
    edited.write_text(edited.read_text() + "\n% an edit\n")
    assert diff_probe.cannot_rule(Pack("clean", pack.folder, pack.core), 120) is None
    assert any("determinism" in job for job in jobs)


def test_a_version_that_cannot_rule_is_probed_every_time(pack, monkeypatch):
    loop = pack.folder / "z_loop.lp"
    # (two answer sets whenever a player is more than 5 minutes late: a negation loop)
    loop.write_text("% a loop\nflip(O) :- observation(O, P, late), count(O, minutes, N), N > 5, not flop(O).\n"
                    "flop(O) :- observation(O, P, late), count(O, minutes, N), N > 5, not flip(O).\n")
    first = diff_probe.cannot_rule(Pack("clean", pack.folder, pack.core), 120)
    jobs = _jobs(monkeypatch)
    second = diff_probe.cannot_rule(Pack("clean", pack.folder, pack.core), 120)
    assert first and "two answer sets" in first and first == second
    assert any("determinism" in job for job in jobs)
