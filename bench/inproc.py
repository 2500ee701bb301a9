#!/usr/bin/env python
"""In-process measurements for bench/run (run as a child process; prints one JSON object).

    python bench/inproc.py batch DIR [--policy P] [--budget S] [--naive-out NDIR --naive-count K] [--profile N]
    python bench/inproc.py memory DIR [--policy P] [--count N] [--every K] [--budget S]

For the reports under DIR (one report per *.txt file, as bench/gen_reports.py
writes them) it times, in one process:

  ground   building the grounded engine of each policy (once per process);
  pipeline per report: parse, check ids, build facts, solve, decode, render one
           jsonl line (what `ppgcheck rule --format jsonl` does per report);
  bare     per report: `PolicyEngine.solve` alone on the already-built facts;
  split    (information) on a sample, the parts of one solve: building the
           control from the pre-parsed policy, grounding, solving.

A timed pass stops after --budget seconds (at least --min-reports reports).
`memory` rules the reports over and over and samples the process's RSS.

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
import resource
import statistics
import sys
import time
from pathlib import Path

import clingo
import clingo.ast

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from ppgcheck import api  # noqa: E402
from ppgcheck.errors import PpgError  # noqa: E402
from ppgcheck.facts import build_facts  # noqa: E402
from ppgcheck.policy import PolicyEngine, engine  # noqa: E402
try:
    from ppgcheck.policy import fact_statement  # noqa: E402
except ImportError:  # the engine that grounds once over #externals
    fact_statement = None
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


def _split(eng, facts) -> tuple[float, float, float]:
    """Where one `PolicyEngine.solve` spends its time: building the control from
    the pre-parsed program, grounding, solving (with the shown atoms)."""
    t0 = time.perf_counter()
    ctl = clingo.Control(["--warn=none", "--models=2"])
    with clingo.ast.ProgramBuilder(ctl) as builder:
        for statement in eng.statements:
            builder.add(statement)
        for sym in facts:
            builder.add(fact_statement(sym))
    t1 = time.perf_counter()
    ctl.ground([("base", [])])
    t2 = time.perf_counter()
    with ctl.solve(yield_=True) as handle:
        for model in handle:
            model.symbols(shown=True)
    return t1 - t0, t2 - t1, time.perf_counter() - t2


def _load(directory: str, policy: str | None):
    files = sorted(Path(directory).glob("*.txt"))
    items = []
    for f in files:
        text = f.read_text(encoding="utf-8")
        reports = parse_reports(text, str(f))
        if policy and reports[0].policy != policy:
            continue
        items.append((str(f), text, reports))
    return items


def batch(args: argparse.Namespace) -> dict:
    items = _load(args.dir, args.policy)
    policies = list(dict.fromkeys(r.policy for _, _, reports in items for r in reports))
    ground: dict[str, float] = {}
    for p in policies:
        t = time.perf_counter()
        engine(p)
        ground[p] = time.perf_counter() - t
    rss_after_ground = _rss_mb()

    profile_text = ""
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        for name, text, _ in items[:args.profile]:
            try:
                _pipeline(text, name)
            except PpgError:
                pass
        prof.disable()
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats("cumulative").print_stats(25)
        profile_text = out.getvalue()

    # the whole pipeline per report, as `ppgcheck rule --format jsonl` runs it, and right
    # after it (so that both see the same machine load) the bare solve on the same facts
    pipeline: list[float] = []
    bare: list[float] = []
    paired: list[float] = []
    errors: list[str] = []
    rulings = 0
    prepared = []
    started = time.perf_counter()
    for name, text, reports in items:
        if len(pipeline) >= args.min_reports and time.perf_counter() - started > args.budget:
            break
        t = time.perf_counter()
        try:
            lines = _pipeline(text, name)
        except PpgError as exc:
            errors.append(str(exc).splitlines()[0])
            continue
        whole = time.perf_counter() - t
        pipeline.append(whole)
        rulings += len(lines)
        solo = 0.0
        for r in reports:
            eng = engine(r.policy)
            facts = build_facts(r)
            prepared.append((r, eng, facts))
            t = time.perf_counter()
            eng.solve(facts.symbols)
            solo += time.perf_counter() - t
        bare.append(solo)
        paired.append(whole / solo)

    # pass 3 (information): where the time of a solve goes, on a sample
    split: dict[str, list[float]] = {"build": [], "ground": [], "solve": []}
    if fact_statement is not None and prepared and hasattr(prepared[0][1], "statements"):
        for r, eng, facts in prepared[::max(1, len(prepared) // 100)]:
            b, g, s_ = _split(eng, facts.symbols)
            split["build"].append(b)
            split["ground"].append(g)
            split["solve"].append(s_)

    naive: list[dict] = []
    if args.naive_out and args.naive_count and prepared:
        out = Path(args.naive_out)
        out.mkdir(parents=True, exist_ok=True)
        step = max(1, len(prepared) // args.naive_count)
        for i, (r, eng, facts) in enumerate(prepared[::step][:args.naive_count]):
            lp = out / f"facts-{r.policy}-{i:04d}.lp"
            lp.write_text("".join(f"{s}.\n" for s in facts.symbols), encoding="utf-8")
            shown = sorted(str(s) for s in eng.solve(facts.symbols))
            naive.append({"policy": r.policy, "facts": str(lp), "files": [str(f) for f in eng.files],
                          "shown": shown})

    return {"reports": len(items), "measured": len(pipeline), "rulings": rulings, "errors": errors,
            "policies": policies, "ground_s": ground, "rss_after_ground_mb": rss_after_ground,
            "maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "pipeline": _stats(pipeline), "bare": _stats(bare), "paired_ratio": _stats(paired),
            "split": {k: _stats(v) for k, v in split.items()},
            "pipeline_times": pipeline, "bare_times": bare,
            "naive": naive, "profile": profile_text}


def memory(args: argparse.Namespace) -> dict:
    """Rule the reports over and over (up to --count or --budget), sampling RSS."""
    items = _load(args.dir, args.policy)
    for p in dict.fromkeys(r.policy for _, _, reports in items for r in reports):
        engine(p)
    samples: list[tuple[int, float]] = [(0, _rss_mb())]
    started = time.perf_counter()
    n = 0
    while n < args.count and items:
        name, text, _ = items[n % len(items)]
        try:
            _pipeline(text, f"{name}#{n}")
        except PpgError:
            pass
        n += 1
        if n % args.every == 0:
            samples.append((n, _rss_mb()))
            if time.perf_counter() - started > args.budget:
                break
    samples.append((n, _rss_mb()))
    return {"reports": n, "seconds": time.perf_counter() - started, "samples": samples,
            "maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def _rss_mb() -> float:
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def main() -> None:
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="mode", required=True)
    b = sub.add_parser("batch")
    b.add_argument("dir")
    b.add_argument("--naive-out")
    b.add_argument("--naive-count", type=int, default=0)
    b.add_argument("--profile", type=int, default=0)
    m = sub.add_parser("memory")
    m.add_argument("dir")
    m.add_argument("--count", type=int, default=10000)
    m.add_argument("--every", type=int, default=100)
    for p in (b, m):
        p.add_argument("--policy")
        p.add_argument("--budget", type=float, default=120, help="seconds per timed pass")
        p.add_argument("--min-reports", type=int, default=5)
    args = ap.parse_args()
    result = batch(args) if args.mode == "batch" else memory(args)
    sys.stdout.write(json.dumps(result) + "\n")


if __name__ == "__main__":
    main()
