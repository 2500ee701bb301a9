#!/usr/bin/env python
"""bench/first_run.py: the first `ppgcheck rule` after `pip install .`, against the import floor.

    python bench/first_run.py                  # pip install . into a fresh venv, then time (~1-2 min)
    python bench/first_run.py --wheel FILE     # install this wheel instead
    python bench/first_run.py --reps 7 --json out.json

In a fresh virtual environment with this tree installed (not editable), these run in turn,
--reps rounds, so that each sees the same machine load:

  floor     the venv's `python -c "import clingo, lark"` (the cold row's floor, bench/run)
  first     `ppgcheck rule examples/fab/hidden-card-error.txt` with an empty cache folder
            (a new XDG_CACHE_HOME each round): a user's first ruling after the install
  second    the same again on the cache folder the first run left: every later ruling
  unbuilt   (information) the first run with the wheel's ppgcheck/prebuilt/ moved away,
            as every first run was before the wheel carried it

Each is given as its median and as floor + the median of its paired differences (and the
median ratio).  Target (issue 41): the first ruling under one second, the second within
floor + 60 ms.  bench/run's cold row runs this too (`--skip first-run` leaves it out).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "fab" / "hidden-card-error.txt"
FIRST_TARGET_S, SECOND_TARGET_S = 1.0, 0.060


def _user_env(**extra: str) -> dict[str, str]:
    """A user's environment: the installed package, not a checkout's, and the default cache folder."""
    env = {k: v for k, v in os.environ.items() if k not in ("PPGCHECK_CACHE", "PYTHONPATH")}
    return {**env, **extra}


def install(venv: Path, wheel: Path | None) -> Path:
    """A fresh venv with ppgcheck installed as a user installs it; its python."""
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, env=_user_env())
    python = venv / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", str(wheel or ROOT)], check=True,
                   stdout=subprocess.DEVNULL, env=_user_env())
    return python


def _timed(cmd: list[str], cache: Path, cwd: Path) -> float:
    env = _user_env(XDG_CACHE_HOME=str(cache))
    started = time.perf_counter()
    done = subprocess.run(cmd, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - started
    if done.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(cmd)}: exit {done.returncode}: {done.stderr.strip()[-300:]}")
    return seconds


def measure(reps: int = 5, wheel: Path | None = None) -> dict:
    """The floor, first, second and unbuilt runs' times (seconds, one list each)."""
    with tempfile.TemporaryDirectory(prefix="ppgbench-first-") as t:
        tmp = Path(t)
        python = install(tmp / "venv", wheel)
        prebuilt = Path(subprocess.run([str(python), "-c", "import ppgcheck.cache as c; print(c.prebuilt_dir())"],
                                       check=True, capture_output=True, text=True, cwd=tmp,
                                       env=_user_env()).stdout.strip())
        floor_cmd = [str(python), "-c", "import clingo, lark"]
        rule_cmd = [str(python), "-m", "ppgcheck", "rule", str(EXAMPLE)]
        # the installed bytecode and the files read once, as after any install
        _timed(floor_cmd, tmp / "warm", tmp)
        times: dict[str, list[float]] = {"floor": [], "first": [], "second": [], "unbuilt": []}
        for n in range(reps):
            cache = tmp / f"cache-{n}"
            times["floor"].append(_timed(floor_cmd, cache, tmp))
            times["first"].append(_timed(rule_cmd, cache, tmp))
            times["second"].append(_timed(rule_cmd, cache, tmp))
            if prebuilt.is_dir():
                prebuilt.rename(prebuilt.with_name("prebuilt-away"))
                try:
                    times["unbuilt"].append(_timed(rule_cmd, tmp / f"unbuilt-{n}", tmp))
                finally:
                    prebuilt.with_name("prebuilt-away").rename(prebuilt)
        times["prebuilt_entries"] = sorted(p.name for p in prebuilt.iterdir()) if prebuilt.is_dir() else []
        times["first_cache_entries"] = sorted(p.name for p in (tmp / "cache-0" / "ppgcheck").glob("*"))
        return times


def summary(times: dict) -> list[tuple[str, float, float, float]]:
    """(run, median seconds, median paired difference to the floor, median ratio) per run."""
    floors = times["floor"]
    out = []
    for name in ("first", "second", "unbuilt"):
        runs = times[name]
        if runs:
            out.append((name, statistics.median(runs), statistics.median(r - f for r, f in zip(runs, floors)),
                        statistics.median(r / f for r, f in zip(runs, floors))))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reps", type=int, default=5, help="rounds of the four runs (medians)")
    ap.add_argument("--wheel", type=Path, help="install this wheel instead of `pip install .` of this tree")
    ap.add_argument("--json", type=Path, help="write every time here")
    args = ap.parse_args()
    times = measure(args.reps, args.wheel)
    floor = statistics.median(times["floor"])
    print(f"load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; import floor {floor * 1000:.0f} ms "
          f"(median of {args.reps}); {len(times['prebuilt_entries'])} prebuilt entries, "
          f"{len(times['first_cache_entries'])} computed by the first run")
    targets = {"first": f"< {FIRST_TARGET_S:.0f} s", "second": f"≤ floor + {SECOND_TARGET_S * 1000:.0f} ms",
               "unbuilt": "(information)"}
    for name, median, diff, ratio in summary(times):
        print(f"  {name:8} {median * 1000:7.0f} ms   floor + {diff * 1000:5.0f} ms   {ratio:5.2f}x the floor   "
              f"target {targets[name]}")
    if args.json:
        args.json.write_text(json.dumps(times, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
