#!/usr/bin/env python
"""In-process measurements for bench/run (run as a child process; prints one JSON object).

    python bench/inproc.py batch DIR [--policy P] [--budget S] [--naive-out NDIR --naive-count K] [--profile N]
    python bench/inproc.py memory DIR [--policy P] [--count N] [--every K] [--budget S]

For the reports under DIR (one report per *.txt file, as bench/gen_reports.py
writes them) it times, in one process:

  ground   preparing each policy's engine (once per process: the rewritten
           program, from the on-disk cache when it is there);
  pipeline per report, batch by batch as the CLI runs (BATCH_SIZE reports):
           parse, check ids, build facts, one grounding per policy, decode,
           render one jsonl line per report ÷ the reports of the batch;
  bare     per report: `PolicyEngine.solve_many` alone on the same batch's
           already-built facts, timed right after it;
  split    (information) per report of a policy's first batch: the control
           with the prepared program and the facts, grounding, solving.

A timed pass stops after --budget seconds (at least one batch).
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

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from ppgcheck import api  # noqa: E402
from ppgcheck.cli.ruling import BATCH_SIZE  # noqa: E402
from ppgcheck.errors import PpgError  # noqa: E402
from ppgcheck.language.facts import build_facts  # noqa: E402
from ppgcheck.engine.policy import EXPLORED, engine  # noqa: E402
from ppgcheck.engine.render import render_jsonl  # noqa: E402
from ppgcheck.language.report import parse_reports  # noqa: E402


def _stats(xs: list[float]) -> dict:
    if not xs:
        return {"n": 0}
    xs_sorted = sorted(xs)
    return {"n": len(xs), "median": statistics.median(xs), "mean": statistics.fmean(xs),
            "p90": xs_sorted[int(0.9 * (len(xs) - 1))], "max": xs_sorted[-1], "total": sum(xs)}


def _pipeline(text: str, name: str) -> list[str]:
    return [render_jsonl(rs) for rs in api.rule_report(text, source=name)]


def _pipeline_batch(items) -> tuple[list[str], list[str], list]:
    """What `ppgcheck rule DIR --format jsonl` does for one batch of files: parse and
    check each, rule them with one grounding per policy, render a jsonl line each."""
    prepared, errors = [], []
    for name, text, _ in items:
        try:
            prepared.extend(api.prepare(parse_reports(text, name)))
        except PpgError as exc:
            errors.append(str(exc).splitlines()[0])
    return [render_jsonl(rs) for rs in api.rule_prepared(prepared)], errors, prepared


def _bare(prepared) -> float:
    """Seconds for `PolicyEngine.solve_many` alone on the batch's already-built facts."""
    by_policy: dict[str, list] = {}
    for report, policy in prepared:
        by_policy.setdefault(policy, []).append(build_facts(report).inputs)
    t = time.perf_counter()
    for policy, fact_lists in by_policy.items():
        engine(policy).solve_many(fact_lists)
    return time.perf_counter() - t


def _split(eng, fact_lists) -> tuple[float, float, float]:
    """Where one `PolicyEngine.solve_many` spends its time: a control with the prepared
    program and the facts, grounding, solving (with the shown atoms)."""
    t0 = time.perf_counter()
    ctl = eng._control(eng.program.text, fact_lists, ground=False)
    t1 = time.perf_counter()
    ctl.ground([("base", [])])
    t2 = time.perf_counter()
    with ctl.solve(yield_=True) as handle:
        for model in handle:
            model.symbols(shown=True)
    return t1 - t0, t2 - t1, time.perf_counter() - t2


def _shown_text(atoms) -> list[str]:
    """A report's shown atoms as clingo prints them, sorted."""
    return sorted(f"{key.split('/')[0]}({','.join(map(str, args))})" if args else key.split("/")[0]
                  for key, rows in atoms.items() for args in rows)


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
        engine(p).program
        ground[p] = time.perf_counter() - t
    rss_after_ground = _rss_mb()

    profile_text = ""
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        _pipeline_batch(items[:args.profile])
        prof.disable()
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats("cumulative").print_stats(25)
        profile_text = out.getvalue()

    # batch by batch, as the CLI runs: the whole pipeline, then right after it (so that
    # both see the same machine load) the bare solve_many on the same facts
    pipeline: list[float] = []    # per report, one value per batch
    bare: list[float] = []
    paired: list[float] = []
    errors: list[str] = []
    rulings = 0
    prepared_all = []
    started = time.perf_counter()
    for first in range(0, len(items), BATCH_SIZE):
        if pipeline and time.perf_counter() - started > args.budget:
            break
        chunk = items[first:first + BATCH_SIZE]
        t = time.perf_counter()
        lines, chunk_errors, prepared = _pipeline_batch(chunk)
        whole = time.perf_counter() - t
        solo = _bare(prepared)
        errors += chunk_errors
        rulings += len(lines)
        prepared_all += prepared
        pipeline += [whole / len(prepared)] * len(prepared)
        bare += [solo / len(prepared)] * len(prepared)
        paired.append(whole / solo)

    # information: where the time of one solve_many goes, on the first batch of each policy
    split: dict[str, list[float]] = {"build": [], "ground": [], "solve": []}
    for p in policies:
        facts = [build_facts(r).inputs for r, q in prepared_all[:BATCH_SIZE * 4] if q == p][:BATCH_SIZE]
        if facts:
            b, g, s_ = _split(engine(p), facts)
            for key, value in zip(("build", "ground", "solve"), (b, g, s_)):
                split[key].append(value / len(facts))

    naive: list[dict] = []
    if args.naive_out and args.naive_count and prepared_all:
        out = Path(args.naive_out)
        out.mkdir(parents=True, exist_ok=True)
        step = max(1, len(prepared_all) // args.naive_count)
        for i, (r, policy) in enumerate(prepared_all[::step][:args.naive_count]):
            eng, facts = engine(policy), build_facts(r)
            lp = out / f"facts-{policy}-{i:04d}.lp"
            lp.write_text("".join(f"{s}.\n" for s in facts.symbols), encoding="utf-8")
            atoms = eng.solve(facts.inputs)
            naive.append({"policy": policy, "facts": str(lp), "files": [str(f) for f in eng.files],
                          "shown": _shown_text(atoms),
                          # the engine's second, brave solve (permitted/4, option/7) ran for it
                          "explored": bool(atoms.get("open_choice/3")), "explored_names": list(EXPLORED)})

    return {"reports": len(items), "measured": len(pipeline), "rulings": rulings, "errors": errors,
            "policies": policies, "ground_s": ground, "rss_after_ground_mb": rss_after_ground,
            "maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "pipeline": _stats(pipeline), "bare": _stats(bare), "paired_ratio": _stats(paired),
            "pipeline_total_s": sum(pipeline), "bare_total_s": sum(bare), "batch_size": BATCH_SIZE,
            "split": {k: _stats(v) for k, v in split.items()},
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
    args = ap.parse_args()
    result = batch(args) if args.mode == "batch" else memory(args)
    sys.stdout.write(json.dumps(result) + "\n")


if __name__ == "__main__":
    main()
