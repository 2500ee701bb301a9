#!/usr/bin/env python
"""In-process measurements for bench/run (run as a child process; prints one JSON object).

    python bench/inproc.py batch DIR [--naive-out NDIR --naive-count K] [--profile N]

For the reports under DIR (one report per *.txt file, as bench/gen_reports.py
writes them) it times, in one process:

  ground   building the grounded engine of each policy (once per process);
  pipeline per report: parse, check ids, build facts, solve, decode, render one
           jsonl line (what `ppgcheck rule --format jsonl` does per report);
  bare     per report: `PolicyEngine.solve` alone on the already-built facts.

With --naive-out it also writes, for K reports spread over the batch, the
report's input facts as an .lp file (from the same clingo symbols the engine
switches on), the engine's rule files and the shown atoms the engine derived,
so bench/run can time the clingo executable on exactly the same rules and facts
and check it finds the same answer.  With --profile N it runs cProfile over the
pipeline of the first N reports and returns the top functions.
"""
from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from ppgcheck import api  # noqa: E402
from ppgcheck.errors import PpgError  # noqa: E402
from ppgcheck.facts import build_facts  # noqa: E402
from ppgcheck.policy import engine  # noqa: E402
from ppgcheck.render import render_jsonl  # noqa: E402
from ppgcheck.report import parse_reports  # noqa: E402


def _stats(xs: list[float]) -> dict:
    if not xs:
        return {"n": 0}
    xs_sorted = sorted(xs)
    return {"n": len(xs), "median": statistics.median(xs), "mean": statistics.fmean(xs),
            "p90": xs_sorted[int(0.9 * (len(xs) - 1))], "max": xs_sorted[-1], "total": sum(xs)}


def _pipeline(text: str, name: str) -> list[str]:
    return [render_jsonl(rs) for rs in api.rule_report(text, source=name)]


def batch(args: argparse.Namespace) -> dict:
    files = sorted(Path(args.dir).glob("*.txt"))
    texts = [(str(f), f.read_text(encoding="utf-8")) for f in files]
    policies: list[str] = []
    parsed = []
    for name, text in texts:
        reports = parse_reports(text, name)
        parsed.append(reports)
        for r in reports:
            if r.policy not in policies:
                policies.append(r.policy)

    ground: dict[str, float] = {}
    for p in policies:
        t = time.perf_counter()
        engine(p)
        ground[p] = time.perf_counter() - t

    profile_text = ""
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        for name, text in texts[:args.profile]:
            try:
                _pipeline(text, name)
            except PpgError:
                pass
        prof.disable()
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats("cumulative").print_stats(25)
        profile_text = out.getvalue()

    pipeline: list[float] = []
    by_policy: dict[str, list[float]] = {}
    errors: list[str] = []
    rulings = 0
    for (name, text), reports in zip(texts, parsed):
        t = time.perf_counter()
        try:
            lines = _pipeline(text, name)
        except PpgError as exc:
            errors.append(str(exc).splitlines()[0])
            continue
        dt = time.perf_counter() - t
        rulings += len(lines)
        pipeline.append(dt)
        by_policy.setdefault(reports[0].policy, []).append(dt)

    bare: list[float] = []
    bare_by_policy: dict[str, list[float]] = {}
    prepared = []
    for reports in parsed:
        for r in reports:
            try:
                eng = engine(r.policy)
                eng.check_ids(r)
            except PpgError:
                continue
            prepared.append((r, eng, build_facts(r)))
    for r, eng, facts in prepared:
        t = time.perf_counter()
        try:
            eng.solve(facts.symbols)
        except PpgError:
            continue
        dt = time.perf_counter() - t
        bare.append(dt)
        bare_by_policy.setdefault(r.policy, []).append(dt)

    naive: list[dict] = []
    if args.naive_out and args.naive_count:
        out = Path(args.naive_out)
        out.mkdir(parents=True, exist_ok=True)
        step = max(1, len(prepared) // args.naive_count)
        for i, (r, eng, facts) in enumerate(prepared[::step][:args.naive_count]):
            lp = out / f"facts{i:04d}-{r.policy}.lp"
            lp.write_text("".join(f"{s}.\n" for s in facts.symbols), encoding="utf-8")
            shown = sorted(str(s) for s in eng.solve(facts.symbols))
            naive.append({"policy": r.policy, "facts": str(lp), "files": [str(f) for f in eng.files],
                          "shown": shown})

    return {"reports": len(texts), "rulings": rulings, "errors": errors, "policies": policies,
            "ground_s": ground,
            "pipeline": _stats(pipeline),
            "pipeline_by_policy": {p: _stats(v) for p, v in by_policy.items()},
            "bare": _stats(bare),
            "bare_by_policy": {p: _stats(v) for p, v in bare_by_policy.items()},
            "naive": naive, "profile": profile_text}


def main() -> None:
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="mode", required=True)
    b = sub.add_parser("batch")
    b.add_argument("dir")
    b.add_argument("--naive-out")
    b.add_argument("--naive-count", type=int, default=0)
    b.add_argument("--profile", type=int, default=0)
    args = ap.parse_args()
    result = batch(args)
    sys.stdout.write(json.dumps(result) + "\n")


if __name__ == "__main__":
    main()
