"""Commands a policy author and CI run: test, check, diff."""
from __future__ import annotations

import sys
from pathlib import Path

import click

from ppgcheck import api
from ppgcheck.cli import cli
from ppgcheck.cli.common import (check_rules_folder, complete_policy, fails_cleanly, limit_options, rules_option,
                                  search_options)
from ppgcheck.errors import UsageError


@cli.command("test")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option("--format", "fmt", type=click.Choice(["text", "json", "junit"]), default="text",
              show_default=True, help="text for people, json or junit XML for CI.")
@click.option("--verbose", "-v", is_flag=True, help="List passing cases too.")
@click.option("--coverage", is_flag=True,
              help="Report rule coverage per pack: which rules some case fires and some case just misses.")
@click.option("--coverage-threshold", type=click.FloatRange(0, 100), metavar="N",
              help="Exit 1 when a pack's rule coverage is below N percent (implies --coverage).")
@rules_option("Rule the cases with the packs under this rules folder (a `core/` and one folder per "
               "policy), e.g. an edited copy, instead of the bundled ones.")
@limit_options(timeout=True)
@fails_cleanly
def test_command(paths: tuple[Path, ...], fmt: str, verbose: bool, coverage: bool,
                 coverage_threshold: float | None, rules: Path | None) -> None:
    """Run golden cases: each NAME.txt report with NAME.expected.toml beside it.

    Exit code 1 when any case fails (or, with --coverage-threshold, a pack's
    rule coverage is below N %); 2 when an expectation file breaks the schema.

    \b
    Example:
      ppgcheck test tests/golden/fab
      ppgcheck test tests/golden --format junit > golden.xml
      ppgcheck test tests/golden/fab --coverage-threshold 90
      ppgcheck test tests/golden/fab --rules my-rules
    """
    check_rules_folder(rules)
    results = api.run_golden_cases(list(paths), rules)
    failed = [r for r in results if not r.passed]
    if fmt == "junit" and not (coverage or coverage_threshold is not None):
        click.echo(api.golden_results_as("junit", results))
    elif fmt == "json" and not (coverage or coverage_threshold is not None):
        click.echo(api.golden_results_as("json", results))
    elif fmt != "text":
        pass    # printed below, with the coverage
    else:
        for r in results:
            if not r.passed:
                click.echo(f"FAIL {r.name} — {r.description}")
                for line in r.failures:
                    click.echo("  " + line.replace("\n", "\n  "))
            elif verbose:
                click.echo(f"ok   {r.name}")
        click.echo(f"{len(results) - len(failed)} passed, {len(failed)} failed")
    low = []
    if coverage or coverage_threshold is not None:
        measured = api.measure_coverage(list(paths), rules)
        low = api.coverage_below(measured, coverage_threshold)
        click.echo(api.coverage_with_results(fmt, results, measured, coverage_threshold))
    sys.exit(1 if failed or low else 0)


@cli.command("check")
@click.argument("rules_dir", required=False, type=click.Path(file_okay=False), metavar="[RULES_DIR]")
@rules_option("Check the packs under this rules folder (a `core/` and one folder per policy), or this one "
              "pack folder, instead of the bundled packs.")
@click.option("--policy", "-p", shell_complete=complete_policy,
              help="Check this bundled policy (default: every bundled pack).")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "sarif"]), default="text",
              show_default=True, help="text grouped by kind, json, or SARIF 2.1.0 for code scanning.")
@click.option("--fail-on", type=click.Choice(["error", "warning", "info", "never"]), default="error",
              show_default=True, help="Exit 1 when a finding is at or above this level.")
@search_options(timeout=60.0, observations=2)
@limit_options(timeout=False)
@click.option("--no-monotonicity", is_flag=True, help="Skip the monotonicity search (two copies of the program).")
@click.option("--baseline", type=click.Path(dir_okay=False, path_type=Path),
              help="A TOML file of known source holes (policy, kind, message, reason): "
                   "those do not fail the check; any other finding does.")
@click.option("--sources", type=click.Path(exists=True, file_okay=False, path_type=Path), metavar="DIR",
              help="The folder of the guides' text: each sentence a rule quotes must be in the source it "
                   "names (a `misquote` finding otherwise).")
@fails_cleanly
def check_command(rules_dir: str | None, rules: Path | None, policy: str | None, fmt: str, fail_on: str,
                  observations: int, timeout: float, max_models: int, no_monotonicity: bool,
                  baseline: Path | None, sources: Path | None) -> None:
    """Prove a policy pack consistent, or show the incident that breaks it.

    Searches every scenario the pack can tell apart for conflicts, gaps, dead
    rules, repeat upgrades past the cap, monotonicity breaks, reports with two
    answer sets and missing citations; each finding comes with a witness report that
    `ppgcheck rule` reproduces. --rules names a pack folder or a folder of packs
    (RULES_DIR, the same given without --rules, is kept for older scripts).
    With --sources, every sentence a rule quotes is looked up in the guide's text.
    Exit code: 0 clean, 1 findings at or above --fail-on (or the time bound or
    model cap stopped the search), 2 usage error.

    \b
    Example:
      ppgcheck check --policy fab
      ppgcheck check --rules tests/fixtures/packs/gap --format sarif > check.sarif
      ppgcheck check --baseline rules/known-findings.toml
      ppgcheck check --policy fab --sources guides/
    """
    if rules is not None and rules_dir is not None:
        raise UsageError("give the rules folder once: --rules DIR")
    rules_dir = str(rules) if rules is not None else rules_dir
    live = sys.stderr.isatty()

    def progress(message: str) -> None:
        click.echo(f"\r\x1b[2K{message}", nl=False, err=True)
    results = api.check_packs(policy, rules_dir, observations=observations, timeout=timeout,
                           max_models=max_models, monotonicity=not no_monotonicity, sources=sources,
                           progress=progress if live else None)
    if live:
        click.echo("\r\x1b[2K", nl=False, err=True)
    for r in results:
        for note in r.notes:
            if "time bound" in note or "model cap" in note:
                click.echo(f"{r.policy}: {note}", err=True)
    click.echo(api.check_results_as(fmt, results))
    if baseline is not None:
        new, known, stale = api.split_by_baseline(results, baseline)
        counted = sum(len(v) for v in known.values())
        click.echo(f"baseline {baseline}: {counted} known finding(s) of the published guides", err=True)
        for entry in stale:
            click.echo(f"baseline entry no longer found ({entry.policy}, {entry.kind}): {entry.message}", err=True)
        fresh = [f for group in new.values() for f in group
                 if fail_on != "never" and f.rank >= api.level_rank(fail_on)]
        for f in fresh:
            click.echo(f"NEW {f.kind} ({f.level}): {f.message}", err=True)
        failing = bool(fresh)
    else:
        failing = fail_on != "never" and any(r.at_or_above(fail_on) for r in results)
    incomplete = any(not r.complete for r in results)   # not proven clean
    sys.exit(1 if failing or incomplete else 0)


@cli.command("diff")
@click.argument("folders", nargs=-1, type=click.Path(exists=True, file_okay=False))
@click.option("--base", "base", metavar="GITREV",
              help="Compare the working tree's rules folder with the same folder at this git revision.")
@click.option("--rules", "rules_path", default="rules", show_default=True, metavar="PATH",
              help="With --base: the rules folder, relative to the current directory.")
@click.option("--policy", "-p", shell_complete=complete_policy,
              help="Compare only this pack.")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "sarif"]), default="text",
              show_default=True, help="text with a witness per change, json, or SARIF 2.1.0 for code scanning.")
@click.option("--fail-on-change", is_flag=True, help="Exit 1 on any change, not only on a new error-level finding.")
@search_options(timeout=120.0, observations=1)
@limit_options(timeout=False)
@fails_cleanly
def diff_command(folders: tuple[str, ...], base: str | None, rules_path: str, policy: str | None, fmt: str,
                 fail_on_change: bool, observations: int, timeout: float, max_models: int) -> None:
    """Show what a rule edit changes: OLD NEW rules folders, or --base GITREV.

    Both versions are ruled over the same scenario space; every class of
    incident whose ruling changed (infraction, penalty, fix, findings) is
    listed with a minimal witness report and its ruling before and after,
    plus the findings the change introduces or removes. Exit code: 1 when the
    change introduces an error-level finding (or any change, with
    --fail-on-change), 0 otherwise, 2 usage error.

    \b
    Example:
      ppgcheck diff --base origin/main --policy fab
      ppgcheck diff old/rules rules --format sarif > diff.sarif
    """
    options = dict(observations=observations, timeout=timeout, max_models=max_models)
    if base is not None:
        if folders:
            raise UsageError("give either OLD NEW folders or --base GITREV, not both")
        results = api.diff_against_revision(base, policy, rules=rules_path, **options)
    elif len(folders) == 2:
        results = api.diff_folders(folders[0], folders[1], policy, **options)
    else:
        raise UsageError("give two rules folders (OLD NEW), or --base GITREV")
    for r in results:
        for note in r.notes if not r.complete else []:
            click.echo(f"{r.policy}: incomplete: {note}", err=True)
    click.echo(api.diff_results_as(fmt, results))
    sys.exit(api.diff_exit_code(results, fail_on_change))


@cli.command("new-pack")
@click.argument("name")
@click.option("--into", type=click.Path(file_okay=False, path_type=Path), default=Path("."), show_default=True,
              help="The rules folder to create the pack in.")
@click.option("--source", metavar="FILE", help="The file name of the guide's text the pack encodes.")
@click.option("--title", help="The guide's title, for the README.")
@fails_cleanly
def new_pack_command(name: str, into: Path, source: str | None, title: str | None) -> None:
    """Create a policy pack NAME: a README naming the source, the ladder, one section
    file with its banner, a vocabulary file and a golden case, which `check` and `test`
    pass. docs/authoring.md goes on from there.

    \b
    Example:
      ppgcheck new-pack acme-snacks --into my-rules --source acme-snacks.txt
    """
    written = api.new_pack(name, into, source, title)
    pack = into / name
    click.echo(f"created {pack}/: " + ", ".join(str(p.relative_to(pack)) for p in written))
    click.echo("next:")
    click.echo(f"  ppgcheck check {pack}")
    click.echo(f"  ppgcheck test {pack / 'golden'} --rules {into}")
    click.echo(f"  ppgcheck vocab --policy {name} --rules {into}")
