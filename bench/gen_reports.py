#!/usr/bin/env python
"""Generate mixed incident reports for the benchmark, from the report vocabulary.

Every report is built as a `Report` from the forms of rules/core/vocabulary.lp
(`ppgcheck.language.vocabulary.vocabulary()`), printed in canonical form and kept only if
it parses back to the same report and every id it names (history entries, a
judge call) is an infraction or penalty of its policy.  Observation and
modifier kinds are drawn from those the policy pack mentions, so most reports
exercise real rules rather than only the gap finding.

    python bench/gen_reports.py --count 1000 --out /tmp/reports          # one file per report
    python bench/gen_reports.py --count 1000 --stream /tmp/all.txt       # one file, `---` between
    python bench/gen_reports.py --count 5 --stream -                     # to stdout

Deterministic for a given --seed and rules tree.
"""
from __future__ import annotations

import argparse
import random
import re
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import clingo  # noqa: E402

from ppgcheck.errors import PpgError  # noqa: E402
from ppgcheck.language.facts import constant_to_slug  # noqa: E402
from ppgcheck.language.report import (HistoryEntry, Modifier, Observation, Report,  # noqa: E402
                             parse_reports, print_report)
from ppgcheck.resources import policy_ids, rules_dir  # noqa: E402
from ppgcheck.language.vocabulary import vocabulary  # noqa: E402

NAMES = ["Alice", "Bob", "Carol", "Dan", "Erin", "Frank"]
# the core files but inputs.lp: without the #external declarations nothing that
# depends on a report is grounded, so reading a pack's ids takes milliseconds
STATIC_CORE = ("vocabulary.lp", "penalties.lp", "findings.lp", "output.lp")
_IDENT = re.compile(r"\b[a-z][a-z0-9_]*\b")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_COMMENT = re.compile(r"%[^\n]*")


@dataclass
class PackIds:
    policy: str
    infractions: list[str]        # slugs
    penalties: list[str]          # slugs
    observations: list[str]       # observation kinds the pack mentions (all when none)
    modifiers: list[str]          # modifier kinds the pack mentions (all when none)


@cache
def pack_ids(policy: str, rules: Path | None = None) -> PackIds:
    root = rules or rules_dir()
    files = [root / "core" / f for f in STATIC_CORE] + sorted((root / policy).glob("*.lp"))
    ctl = clingo.Control(["--warn=none"])
    for f in files:
        ctl.load(str(f))
    ctl.ground([("base", [])])
    atoms = ctl.symbolic_atoms
    infractions = sorted({constant_to_slug(a.symbol.arguments[0].name)
                          for a in atoms.by_signature("section", 2)})
    penalties = sorted({constant_to_slug(a.symbol.arguments[0].name)
                        for a in atoms.by_signature("penalty_rank", 2)})
    words: set[str] = set()
    for f in sorted((root / policy).glob("*.lp")):
        text = _COMMENT.sub("", _STRING.sub('""', f.read_text(encoding="utf-8")))
        words.update(_IDENT.findall(text))
    vocab = vocabulary()
    observations = sorted(k for k in vocab.observations if k in words) or sorted(vocab.observations)
    modifiers = sorted(k for k in vocab.modifiers if k in words) or sorted(vocab.modifiers)
    return PackIds(policy, infractions, penalties, observations, modifiers)


def _small(rng: random.Random, lo: int, hi: int) -> int:
    """Mostly small numbers (the interesting thresholds are low), sometimes any."""
    if rng.random() < 0.8:
        return rng.randint(lo, min(hi, lo + 12))
    return rng.randint(lo, hi)


def make_report(rng: random.Random, policy: str) -> Report:
    vocab = vocabulary()
    ids = pack_ids(policy)
    names = rng.sample(NAMES, rng.choice((2, 2, 2, 3)))
    report = Report(policy=policy)
    report.persons = [(n, "player") for n in names[:2]] + [(n, rng.choice(("player", "spectator")))
                                                          for n in names[2:]]
    players = [n for n, role in report.persons if role == "player"]
    if rng.random() < 0.9:
        report.rel = rng.choice(vocab.values["rel"])
    if policy == "yugioh" or rng.random() < 0.1:
        report.tier = rng.randint(1, 2)
    if policy == "ffg" or rng.random() < 0.1:
        report.event_kind = rng.choice(vocab.values["event_kind"])
        if rng.random() < 0.5:
            report.game_kind = rng.choice(vocab.values["game_kind"])
    if rng.random() < 0.6:
        report.round = rng.randint(1, 15)
        report.round_kind = rng.choice((None, "swiss", "playoff"))
    if rng.random() < 0.3:
        report.best_of = rng.choice((1, 3, 3, 5))
    if rng.random() < 0.5:
        report.day = rng.randint(1, 3)
    if rng.random() < 0.6:
        kind = rng.choice(sorted(vocab.when))
        report.when = (kind, rng.randint(1, 3) if "{N}" in vocab.when[kind].text else None)
    if rng.random() < 0.4:
        report.ruling_minutes = rng.randint(0, 12)
    for _ in range(rng.choice((1, 1, 1, 2, 2, 3))):
        kind = rng.choice(ids.observations)
        form = vocab.canonical("observation", kind)
        subject = rng.choice(players)
        obs = Observation(subject, kind)
        if "{Q}" in form.text or kind in vocab.two_person:
            obs.other = rng.choice([n for n in names if n != subject])
        for slot in form.slots:
            if slot not in ("P", "Q"):
                lo, hi = vocab.count_ranges[slot]
                obs.counts[slot] = _small(rng, lo, hi)
        used: set[str] = set()          # modifier kinds, and groups that exclude each other (one of each)
        for _ in range(rng.choice((0, 1, 1, 2, 2, 3))):
            mod_kind = rng.choice(ids.modifiers)
            group = "group:" + vocab.exclusive.get(mod_kind, mod_kind)
            if mod_kind in used or group in used:
                continue
            used.update((mod_kind, group))
            mod = Modifier(mod_kind)
            if mod_kind in vocab.person_modifiers:
                mod.person = rng.choice(names)
            if mod_kind in vocab.counted_modifiers:
                lo, hi = vocab.count_ranges[vocab.counted_modifiers[mod_kind]]
                mod.number = _small(rng, lo, hi)
            obs.modifiers.append(mod)
        report.observations.append(obs)
    if ids.infractions and ids.penalties:
        for _ in range(rng.choice((0, 0, 0, 1, 1, 2))):
            report.history.append(HistoryEntry(rng.choice(players), rng.choice(ids.penalties),
                                               rng.choice(ids.infractions),
                                               report.day if report.day and rng.random() < 0.8 else None))
        if rng.random() < 0.15:
            report.judge_call = (rng.choice(ids.infractions), rng.choice(ids.penalties))
    return report


def valid(report: Report, text: str) -> bool:
    """Parses back to the same report, and names only ids of its policy."""
    try:
        parsed = parse_reports(text, "<generated>")
    except PpgError:
        return False
    if len(parsed) != 1 or parsed[0] != report:
        return False
    ids = pack_ids(report.policy)
    for entry in report.history:
        if entry.penalty not in ids.penalties or entry.infraction not in ids.infractions:
            return False
    if report.judge_call and (report.judge_call[0] not in ids.infractions
                              or report.judge_call[1] not in ids.penalties):
        return False
    return True


def generate(count: int, seed: int = 6, policies: list[str] | None = None) -> list[tuple[str, str]]:
    """(policy, report text) for `count` reports, round-robin over the policies."""
    rng = random.Random(seed)
    policies = policies or policy_ids()
    out: list[tuple[str, str]] = []
    rejected = 0
    while len(out) < count:
        policy = policies[len(out) % len(policies)]
        report = make_report(rng, policy)
        text = print_report(report)
        if valid(report, text):
            out.append((policy, text))
        else:
            rejected += 1
            if rejected > 10 * count + 100:
                raise SystemExit(f"gen_reports: too many rejected reports ({rejected}); "
                                 "is the vocabulary or grammar broken?")
    return out


def write_dir(reports: list[tuple[str, str]], out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    width = max(5, len(str(len(reports))))
    for i, (policy, text) in enumerate(reports, start=1):
        path = out / f"{i:0{width}d}-{policy}.txt"
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    return paths


def stream_text(reports: list[tuple[str, str]]) -> str:
    return "---\n".join(text for _, text in reports)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=6)
    ap.add_argument("--policy", action="append", help="only this policy (repeatable); default: every bundled pack")
    where = ap.add_mutually_exclusive_group(required=True)
    where.add_argument("--out", type=Path, help="a directory: one NNNNN-POLICY.txt per report")
    where.add_argument("--stream", help="one file (or - for stdout) with the reports separated by ---")
    args = ap.parse_args(argv)
    reports = generate(args.count, args.seed, args.policy)
    if args.out:
        write_dir(reports, args.out)
    elif args.stream == "-":
        sys.stdout.write(stream_text(reports))
    else:
        Path(args.stream).write_text(stream_text(reports), encoding="utf-8")


if __name__ == "__main__":
    main()
