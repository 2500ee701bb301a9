"""A policy author's and CI's jobs: golden cases (`test`) and their rule coverage, the
consistency check of a pack (`check`) against a baseline of known findings, what an edit
changes (`diff`), a new pack's scaffold; each result rendered as text, JSON, JUnit or SARIF.
Each job imports its own modules when it runs: a command loads only the job it runs."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Callable


# --- golden cases and coverage -----------------------------------------------------------

def run_golden_cases(paths: list[Path], rules: Path | None = None) -> list:
    """Each golden case (NAME.txt with NAME.expected.toml) under the paths, ruled and compared."""
    # (the golden cases' modules when `test` runs: saves every other command's start-up time)
    from ppgcheck.ci.golden import run_cases
    return run_cases(paths, rules)


def golden_results_as(fmt: str, results: list) -> str:
    """Golden case results as JUnit XML (`junit`) or JSON (`json`)."""
    # (the reports' modules when `test` runs: saves every other command's start-up time)
    from ppgcheck.ci.testreport import render_junit, render_results_json
    return render_junit(results) if fmt == "junit" else render_results_json(results)


def measure_coverage(paths: list[Path], rules: Path | None = None) -> list:
    """Rule coverage per pack of the golden cases under the paths: which rules some case fires
    and some case just misses."""
    # (the coverage's modules when asked for: saves every other command's start-up time)
    from ppgcheck.ci.coverage import measure
    return measure(paths, rules)


def coverage_below(measured: list, threshold: float | None) -> list:
    """The packs whose rule coverage is below the threshold (percent; None: none is)."""
    # (the coverage's modules when asked for: saves every other command's start-up time)
    from ppgcheck.ci.coverage import below
    return below(measured, threshold)


def coverage_with_results(fmt: str, results: list, measured: list, threshold: float | None) -> str:
    """The coverage, with the golden case results, as text, JSON or JUnit (`fmt`)."""
    # (the coverage's modules when asked for: saves every other command's start-up time)
    from ppgcheck.ci.coverage import render_with_results
    return render_with_results(fmt, results, measured, threshold)


# --- the check -------------------------------------------------------------------------------

def check_packs(policy: str | None = None, rules_dir: str | None = None, *, observations: int = 2,
                timeout: float = 60.0, max_models: int = 200_000, monotonicity: bool = True,
                sources: Path | None = None, progress: Callable[[str], None] | None = None) -> list:
    """Check a bundled policy's pack (every bundled pack without one), or the packs of a rules
    folder or a pack folder: one CheckResult a pack (analysis/check.py check_policy)."""
    # (the checker when `check` runs: saves every other command's start-up time)
    from ppgcheck.analysis.check import check_policy
    return check_policy(policy, rules_dir, observations=observations, timeout=timeout, max_models=max_models,
                        monotonicity=monotonicity, sources=sources, progress=progress)


def check_results_as(fmt: str, results: list) -> str:
    """Check results as text grouped by kind (`text`), JSON (`json`) or SARIF 2.1.0 (`sarif`)."""
    # (the checker's renderers when `check` runs: saves every other command's start-up time)
    from ppgcheck.analysis.check import render_text, result_dict
    from ppgcheck.ci.sarif import render_sarif
    if fmt == "json":
        return json.dumps([result_dict(r) for r in results], indent=2, ensure_ascii=False)
    if fmt == "sarif":
        return render_sarif(results)
    return render_text(results)


def split_by_baseline(results: list, baseline: Path) -> tuple[dict, dict, list]:
    """Check results against a baseline file of known source holes: (new findings by policy,
    known ones by policy, baseline entries no longer found)."""
    # (the baseline when asked for: saves every other command's start-up time)
    from ppgcheck.ci.baseline import load_baseline, split_known
    return split_known(results, load_baseline(baseline))


def level_rank(level: str) -> int:
    """A finding level's rank (error above warning above info), as a finding's `rank`."""
    # (the checker when `check` runs: saves every other command's start-up time)
    from ppgcheck.analysis.check import LEVELS
    return LEVELS.index(level)


# --- the diff -------------------------------------------------------------------------------

def diff_folders(old: str | Path, new: str | Path, policy: str | None = None, **options) -> list:
    """What the edit from one rules folder (or pack folder) to another changes: one DiffResult
    a pack (analysis/diff.py diff_rules)."""
    # (the diff when `diff` runs: saves every other command's start-up time)
    from ppgcheck.analysis.diff import diff_rules
    return diff_rules(old, new, policy, **options)


def diff_against_revision(rev: str, policy: str | None = None, *, rules: str = "rules", **options) -> list:
    """What the working tree's rules folder changes against the same folder at a git revision."""
    # (the diff when `diff` runs: saves every other command's start-up time)
    from ppgcheck.ci.revisions import diff_base
    return diff_base(rev, policy, rules=rules, **options)


def diff_results_as(fmt: str, results: list) -> str:
    """Diff results as text with a witness a change (`text`), JSON (`json`) or SARIF 2.1.0 (`sarif`)."""
    # (the diff's renderers when `diff` runs: saves every other command's start-up time)
    from ppgcheck.analysis.diff_render import render_json, render_text
    from ppgcheck.ci.sarif import render_diff_sarif
    if fmt == "json":
        return render_json(results)
    if fmt == "sarif":
        return render_diff_sarif(results)
    return render_text(results)


def diff_exit_code(results: list, fail_on_change: bool = False) -> int:
    """1 when a change introduces an error-level finding (`fail_on_change`: any change), else 0."""
    # (the diff's renderers when `diff` runs: saves every other command's start-up time)
    from ppgcheck.analysis.diff_render import exit_code
    return exit_code(results, fail_on_change)


# --- a new pack -----------------------------------------------------------------------------

def new_pack(name: str, into: Path, source: str | None = None, title: str | None = None) -> list[Path]:
    """Create a policy pack NAME under `into` (ppgcheck/scaffold.py): the files written."""
    # (the scaffold when `new-pack` runs: saves every other command's start-up time)
    from ppgcheck.scaffold import new_pack as scaffold
    return scaffold(name, into, source, title)
