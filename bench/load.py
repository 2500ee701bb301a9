#!/usr/bin/env python
"""The judge station under load, for bench/run's `load` row (run as a child process;
prints one JSON object).

    python bench/load.py [--clients 20] [--requests 50] [--mode event|rule] [--policy fab] [--seed 6]

It starts `ppgcheck serve` (a real uvicorn, loopback, a fresh event store) and, in this
process:
  inproc   the same operation one request at a time, in process, on the same kind of
           reports: submitting to a scratch event store (`event`) or ruling (`rule`);
  load     --clients threads, each with its own HTTP connection, sending --requests
           each, all at once: submitting reports to the event (POST /api/event/reports)
           or ruling them (POST /api/rule); latency of every request.  Each client is
           a table of its own: its reports name its own players, again and again;
  record   (event mode) the event's record afterwards: every submission's report and
           penalties are there once, and nothing else is.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for path in (ROOT, ROOT / "bench"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))


def _reports(count: int, seed: int, policy: str) -> list[str]:
    """Generated reports of the event's guide, without history blocks (the event gives the history)."""
    from gen_reports import generate
    out = []
    for _, text in generate(count, seed, [policy]):
        # a judge call is the judge's choice, which the event refuses where the guide does not permit it
        out.append("".join(line for line in text.split("history:")[0].splitlines(keepends=True)
                           if not line.startswith("judge call:")))
    return out


def _at_table(text: str, k: int) -> str:
    """The report as client k sends it: its players are that table's (client k's own names),
    so clients' reports name different persons, and one client's name the same ones again."""
    return re.sub(r"\b(Alice|Bob|Carol|Dan|Erin|Frank)\b", lambda m: f"{m.group(1)}{k}", text)


def _percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, max(0, round(q * (len(xs) - 1))))]


def inproc(mode: str, reports: list[str], budget: float, requests: int) -> list[float]:
    """The same operation, one at a time, in this process (warm: each policy once first), on
    the reports the first clients send, in their order (the same tables, the same histories)."""
    from ppgcheck import api
    from ppgcheck.language.report import parse_reports
    times: list[float] = []
    with tempfile.TemporaryDirectory(prefix="ppgload-") as tmp:
        store = api.open_event(Path(tmp) / "inproc.db", create=True) if mode == "event" else None
        for policy in ("dci", "fab", "ffg", "yugioh"):
            api.rule_prepared(api.prepare(parse_reports(f"policy: {policy}\nplayer: A\nA was 2 minutes late\n")))
        started = time.perf_counter()
        for i, text in enumerate(reports):
            t0 = time.perf_counter()
            prepared = api.prepare(parse_reports(_at_table(text, i // requests), f"inproc-{i}"))
            if store is not None:
                for report, policy_id in prepared:     # (no questions: the API's default for a submission)
                    api.submit_prepared(store, report, policy_id, "bench")
            else:
                api.rule_prepared(prepared, questions=True)
            times.append(time.perf_counter() - t0)
            if time.perf_counter() - started > budget and len(times) >= 20:
                break
    return times


def serve(event: Path | None, workers: int | None) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen([sys.executable, "-m", "ppgcheck", "serve", "--port", "0",
                             *(["--event", str(event)] if event else []),
                             *(["--workers", str(workers)] if workers is not None else [])],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    line = proc.stdout.readline()
    match = re.search(r"(http://\S+/)", line)
    if not match:
        proc.kill()
        raise RuntimeError(f"the station did not start: {line}{proc.stderr.read()[-500:]}")
    import httpx2 as httpx     # (the test extras' client: pyproject.toml)
    deadline = time.monotonic() + 60
    while True:
        try:
            httpx.get(match.group(1) + "api/session", timeout=5)
            return proc, match.group(1).rstrip("/")
        except httpx.TransportError:
            if time.monotonic() > deadline:
                proc.kill()
                raise


def load(base: str, mode: str, reports: list[str], clients: int, requests: int) -> dict:
    import httpx2 as httpx     # (the test extras' client: pyproject.toml)
    csrf = httpx.get(base + "/api/session").json()["csrf"]
    latencies: list[float] = []
    errors: list[str] = []
    answers: list[dict] = []
    lock = threading.Lock()
    start = threading.Barrier(clients)

    def client(k: int) -> None:
        with httpx.Client(base_url=base, timeout=120, headers={"X-CSRF-Token": csrf}) as http:
            http.get("/api/session")            # the connection is open before the clock starts
            start.wait()
            for i in range(requests):
                text = _at_table(reports[(k * requests + i) % len(reports)], k)
                body = {"report": text, "source": f"load-{k}-{i}", "judge": f"judge {k}"}
                t0 = time.perf_counter()
                try:
                    r = http.post("/api/event/reports" if mode == "event" else "/api/rule", json=body)
                    elapsed = time.perf_counter() - t0
                    ok = r.status_code == 200
                    data = r.json() if ok else None
                except (httpx.HTTPError, ValueError) as exc:
                    elapsed, ok, data = time.perf_counter() - t0, False, None
                    r = exc
                with lock:
                    latencies.append(elapsed)
                    if ok:
                        answers.append({"client": k, "i": i, "data": data})
                    else:
                        errors.append(f"client {k} request {i}: {getattr(r, 'status_code', '')} "
                                      f"{getattr(r, 'text', str(r))[:200]}")

    threads = [threading.Thread(target=client, args=(k,)) for k in range(clients)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - t0
    out = {"latencies": latencies, "errors": errors, "wall_s": wall, "answers": len(answers)}
    if mode == "event":
        out.update(record_check(base, answers))
    return out


def record_check(base: str, answers: list[dict]) -> dict:
    """Every answered submission's report and penalties are in the record once, and nothing else."""
    import httpx2 as httpx     # (the test extras' client: pyproject.toml)
    reports = [s["report_id"] for a in answers for s in a["data"]["submissions"]]
    sources = [s["recorded"][0]["source"] for a in answers for s in a["data"]["submissions"] if s["recorded"]]
    answered = sorted(p["id"] for a in answers for s in a["data"]["submissions"] for p in s["recorded"])
    stored = sorted(p["id"] for p in httpx.get(base + "/api/event", params={"all": "1"}, timeout=120)
                    .json()["penalties"])
    return {"reports": len(reports), "duplicate_reports": len(reports) - len(set(reports)),
            "duplicate_sources": len(sources) - len(set(sources)),
            "penalties_answered": len(answered), "penalties_stored": len(stored),
            "lost": len(set(answered) - set(stored)), "unexpected": len(set(stored) - set(answered)),
            "duplicated": len(answered) - len(set(answered))}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--clients", type=int, default=20)
    ap.add_argument("--requests", type=int, default=50)
    ap.add_argument("--mode", choices=["event", "rule"], default="event")
    ap.add_argument("--seed", type=int, default=6)
    ap.add_argument("--policy", default="fab", help="the event's guide (an event runs under one)")
    ap.add_argument("--workers", type=int, default=None, help="`serve --workers` (default: serve's own)")
    ap.add_argument("--inproc-count", type=int, default=100)
    ap.add_argument("--inproc-budget", type=float, default=60)
    args = ap.parse_args()
    reports = _reports(max(args.clients * args.requests, args.inproc_count), args.seed, args.policy)
    result: dict = {"mode": args.mode, "clients": args.clients, "requests": args.requests, "policy": args.policy}
    inproc_times = inproc(args.mode, reports[:args.inproc_count], args.inproc_budget, args.requests)
    result["inproc"] = {"n": len(inproc_times), "median_s": statistics.median(inproc_times),
                        "p99_s": _percentile(inproc_times, 0.99)}
    with tempfile.TemporaryDirectory(prefix="ppgload-") as tmp:
        proc, base = serve(Path(tmp) / "event.db" if args.mode == "event" else None, args.workers)
        try:
            measured = load(base, args.mode, reports, args.clients, args.requests)
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
    lat = measured.pop("latencies")
    result.update(measured)
    result["load"] = {"n": len(lat), "p50_s": _percentile(lat, 0.5) if lat else None,
                      "p99_s": _percentile(lat, 0.99) if lat else None}
    result["errors"] = result["errors"][:20] + ([f"... {len(result['errors']) - 20} more"]
                                                if len(result["errors"]) > 20 else [])
    print(json.dumps(result))


if __name__ == "__main__":
    main()
