"""Commands a judge runs: rule, compare, vocab, print."""
from __future__ import annotations

import re

import json
import sys
from pathlib import Path

import click

from ppgcheck import api
from ppgcheck.cli import cli
from ppgcheck.cli.common import (check_rules_folder, complete_policy, fails_cleanly, failure_json, limit_options,
                                 report_files, report_sources, rules_option, strict_option)
from ppgcheck.cli.rule_run import BATCH_SIZE, RuleRun
from ppgcheck.errors import ReportError, UsageError


@cli.command()
@click.argument("reports", nargs=-1, required=True)
@click.option("--policy", "-p", shell_complete=complete_policy,
              help="Rule under this policy, overriding each report's `policy:` line.")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "jsonl"]), default="text",
              show_default=True, help="Output: text for a judge, json (docs/ruling-json.md), jsonl streams one line per report.")
@click.option("--explain", is_flag=True, help="Add the derivation, each step with its section.")
@click.option("--questions/--no-questions", default=None,
              help="List the unstated facts that would change each ruling (each report is ruled again with "
                   "each one added).  Default: on for text and json, off for jsonl batches.")
@click.option("--batch-size", type=click.IntRange(1, 4096), default=BATCH_SIZE, show_default=True,
              help="Reports of one policy ruled by one grounding.")
@click.option("--workers", type=click.IntRange(1, 64), default=None,
              help="Batches ruled at once, each in a process of its own, while the next reports are read "
                   "(default: one more than the CPUs this process may use, at most 4).  The output is the same.")
@rules_option("Rule with the packs under this rules folder (a `core/` and one folder per policy), e.g. a "
               "league's edited copy, instead of the bundled ones.")
@click.option("--event", "event", type=click.Path(dir_okay=False, path_type=Path), metavar="EVENT.db",
              envvar="PPGCHECK_EVENT",
              help="Record at this event (its store, created when missing; or $PPGCHECK_EVENT): each report's "
                   "history is its persons' penalties in force there, and the penalties each ruling issues are "
                   "recorded.  Reports are then ruled one by one, in order; the same report again (by any path, "
                   "or from stdin) prints its stored ruling and writes nothing.")
@click.option("--judge", envvar="PPGCHECK_JUDGE", metavar="NAME",
              help="With --event: who submits the reports (or $PPGCHECK_JUDGE).")
@click.option("--amend", is_flag=True,
              help="With --event: a report whose source name is already recorded with other content supersedes it.")
@click.option("--choose", "choose", multiple=True, metavar="INFRACTION=PENALTY",
              help="With --event: record this penalty (one the guide permits) for this infraction instead of the "
                   "guide's default; a report's `judge call:` line chooses the same way.")
@click.option("--event-log", "event_log", hidden=True, help="Retired: see `ppgcheck event import`.")
@strict_option("Accept canonical forms only (`ppgcheck vocab`), as golden cases and `ppgcheck test` do; by "
               "default a sentence that is not one is read for the statements in it, and the ruling shows the "
               "reading.")
@limit_options(timeout=True)
@fails_cleanly
def rule(reports: tuple[str, ...], policy: str | None, fmt: str, explain: bool, questions: bool | None,
         batch_size: int, workers: int | None, rules: Path | None, event: Path | None, judge: str | None,
         amend: bool, choose: tuple[str, ...], event_log: str | None, strict: bool) -> None:
    """Rule on incident REPORTS (files, directories of *.txt, or - for stdin).

    A file may hold several reports separated by `---`.  A sentence written as
    a judge writes it (not a canonical form) is read for the statements in it:
    the ruling shows, for each such sentence, what it was read as and the
    words not read (`--strict`: canonical forms only).  Exit code: 0 ruled,
    1 ruled with findings (conflict, gap, scope), 2 bad input (the bad file's
    error on stderr; with --format json in its place in the list on stdout,
    {"report", "error": {"kind", "line", "column", "message", "expected",
    "suggestions"}}; the other files are still ruled).

    \b
    Example:
      ppgcheck rule examples/fab/hidden-card-error.txt --explain
      cat report.txt | ppgcheck rule - --format json
      ppgcheck rule season/ --rules edited-rules --format jsonl
      ppgcheck rule r5-t12.txt --event event.db --judge Ann
    """
    check_rules_folder(rules)
    if questions is None:
        questions = fmt != "jsonl"
    submit = event_submitter(event, judge, amend, choose, event_log, rules, questions)
    if policy:
        api.load_policy(policy, rules)  # an unknown --policy is a usage error before anything runs
    run = RuleRun(fmt=fmt, explain=explain, policy=policy, rules=rules, questions=questions,
                  batch_size=batch_size, workers=workers, submit=submit, tolerant=not strict)
    sys.exit(run.run(report_files(reports, policy, rules, tolerant=not strict)))


def event_submitter(event: Path | None, judge: str | None, amend: bool, choose: tuple[str, ...],
                    event_log: str | None, rules: Path | None, questions: bool = False):
    """With --event, the function that submits one prepared report to the store; else None."""
    if event_log is not None:
        raise UsageError("--event-log is retired: the event record is an SQLite store now; import the log once with "
                         f"`ppgcheck event import {event_log} --event EVENT.db --judge NAME`, then rule with "
                         "`--event EVENT.db --judge NAME`")
    if event is None:
        if amend or choose:
            raise UsageError(("--amend" if amend else "--choose") + " needs --event EVENT.db")
        return None
    if not judge:
        raise UsageError("--event needs --judge NAME: who submits the reports")
    choices = {}
    for item in choose:
        infraction, _, penalty = item.partition("=")
        if not infraction or not penalty:
            raise UsageError(f"--choose `{item}`: expected INFRACTION=PENALTY, e.g. `hidden-card-error=game-loss`")
        choices[infraction.strip()] = penalty.strip()
    api.check_judge(judge)
    store = api.open_event(event, create=True)

    def submit(report, policy_id: str):
        # the event knows a file by where it is, however its path was typed (`./r.txt`, `r.txt`)
        if not report.source.startswith("<"):
            report.source = str(Path(report.source).resolve())
        return api.submit_prepared(store, report, policy_id, judge, rules, amend, choices, questions)
    return submit


def reader_words(vocab_) -> list[tuple[str, str, str]]:
    """(kind, fact, text) of each word the tolerant reader takes for an observation of this
    vocabulary's policy, by kind (rules/*/reading.lp)."""
    kinds = set(vocab_.policy_kinds if vocab_.policy_kinds is not None else vocab_.observations)
    out = {(kind, fact, text) for fact in ("read_phrase", "read_sign", "read_hint", "read_scene", "read_cue")
           for kind, text in vocab_.reading.get(fact, []) if kind in kinds}
    order = {"read_phrase": 0, "read_sign": 1, "read_hint": 2, "read_scene": 3, "read_cue": 4}
    return sorted(out, key=lambda item: (item[0], order[item[1]], item[2]))


def reader_other_words(vocab_) -> list[tuple[str, str, str]]:
    """(kind, fact, text) of the tolerant reader's words that are no observation's: a
    modifier's phrases, a negated modifier read as another (`read_negates`: text is the one
    read), and who called the judge (`read_summons` after a name, `read_summoned` before `by`
    or `from` and a name: context, kept as not read), and the words around a clock time
    (`read_round_began`, `read_arrived`: an arrival's time against the round's start), and
    the words about a count (`read_bound`: a limit, refused; `read_counted`: a verb's unit), and
    the judge's verdict of legal play (`read_legal`) and a player's suspicion (`read_suspicion`),
    and the words of the judge's fix time (`read_fix_word`) and of a count due (`read_instead_of`),
    and of cards that came as one draw (`read_together`)."""
    modifiers = set(vocab_.modifiers)
    out = [(kind, "read_phrase", text) for kind, text in vocab_.reading.get("read_phrase", []) if kind in modifiers]
    out += [(negated, "read_negates", read) for negated, read in vocab_.reading.get("read_negates", [])]
    out += [("summons", fact, text) for fact in ("read_summons", "read_summoned")
            for (text,) in vocab_.reading.get(fact, [])]
    out += [("clock", fact, text) for fact in ("read_round_began", "read_arrived")
            for (text,) in vocab_.reading.get(fact, [])]
    out += [("count", "read_bound", text) for (text,) in vocab_.reading.get("read_bound", [])]
    out += [(unit, "read_counted", verb) for verb, unit in vocab_.reading.get("read_counted", [])]
    out += [("verdict", fact, text) for fact in ("read_legal", "read_suspicion")
            for (text,) in vocab_.reading.get(fact, [])]
    out += [("ruling time", "read_fix_word", text) for (text,) in vocab_.reading.get("read_fix_word", [])]
    out += [("count", "read_instead_of", text) for (text,) in vocab_.reading.get("read_instead_of", [])]
    out += [("count", "read_together", text) for (text,) in vocab_.reading.get("read_together", [])]
    return sorted(set(out))


@cli.command()
@click.option("--policy", "-p", shell_complete=complete_policy,
              help="Add the forms this policy's pack declares to the core's.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--words", is_flag=True,
              help="Also list the words the tolerant reader takes for each observation in a free note "
                   "(its phrases, signs, hints and cues), and its other words (modifier phrases, negated "
                   "modifiers, who called the judge).")
@rules_option("List the language of a pack under this rules folder (with --policy).")
@fails_cleanly
def vocab(policy: str | None, fmt: str, rules: Path | None, words: bool) -> None:
    """List every form the report language accepts, with the fact it produces.

    P and Q stand for declared names, other {slots} for numbers (digits or a
    number word). Forms a pack adds are marked with the pack's name; the first
    form of a kind is the one `ppgcheck print` writes, the others are synonyms.
    With --words, the words a free note is read by follow (docs/report-language.md).

    \b
    Example:
      ppgcheck vocab | grep drew
      ppgcheck vocab --policy fab --words | grep pocket
      ppgcheck vocab --policy acme --rules my-rules
    """
    check_rules_folder(rules)
    vocab_ = api.report_vocabulary(policy, rules)     # an unknown policy is an error, not the core's forms
    forms = vocab_.all_forms() + list(vocab_.when.values()) + vocab_.value_forms()
    origin = {"core": "core", "pack": vocab_.pack}
    said = reader_words(vocab_) if words else []
    other = reader_other_words(vocab_) if words else []
    if fmt == "json":
        click.echo(json.dumps([{"category": f.category, "kind": f.kind, "form": f.text, "fact": f.fact,
                                "origin": origin[f.origin]} for f in forms]
                              + [{"category": "reader", "kind": kind, "form": text, "fact": fact,
                                  "origin": "reading"} for kind, fact, text in said]
                              + [{"category": "reader-other", "kind": kind, "form": text, "fact": fact,
                                  "origin": "reading"} for kind, fact, text in other],
                              indent=2, ensure_ascii=False))
        return
    mark = lambda f: f"  [{vocab_.pack}]" if f.origin == "pack" else ""      # noqa: E731
    for title, category in (("Headers", "header"), ("Observations", "observation"),
                            ("Modifiers (after a comma, or on an `It ...` line)", "modifier"),
                            ("Adverbs (before the verb: `P deliberately drew 1 extra card`)", "adverb"),
                            ("The state of the match", "state"),
                            ("Tallies (`WORD: NAME N, NAME N, ...`, a fact a pair)", "tally")):
        click.echo(f"{title}:")
        for f in forms:
            if f.category == category:
                text = f"{f.text}: {{P}} N, {{Q}} M" if category == "tally" else f.text
                click.echo(f"  {text:<58} {f.fact}{mark(f)}")
        click.echo()
    click.echo("Values of `when:`:")
    for f in vocab_.when.values():
        click.echo(f"  when: {f.text:<52} {f.fact}{mark(f)}")
    click.echo()
    click.echo("Header values:")
    for f in vocab_.value_forms():
        if f.category == "value":
            click.echo(f"  {_in_its_header(f, forms):<58} {f.fact}{mark(f)}")
    click.echo()
    click.echo("Number words (wherever a form has a number):")
    click.echo("  " + ", ".join(f"{w} = {n}" for w, n in vocab_.numbers.items()))
    click.echo("Units (agree with the number before them):")
    click.echo("  " + ", ".join(f"{{{key}}} {s}/{p}" for key, units in vocab_.units.items() for s, p in units))
    if said:
        click.echo()
        click.echo("Words the tolerant reader takes for an observation (read_phrase: says it; read_sign: says it")
        click.echo("on its own; read_hint: points to it; read_scene: where it happens, a hint beside another;")
        click.echo("read_cue: makes a reading of another kind refused):")
        for kind, fact, text in said:
            click.echo(f"  {kind:<32} {fact:<12} {text}")
        click.echo("Its other words (read_phrase: a modifier's; read_negates: `not` before the first reads as the")
        click.echo("second; read_summons, read_summoned: who called the judge, kept as not read; read_round_began,")
        click.echo("read_arrived: the words that say what a clock time is the time of; read_bound: a limit before a")
        click.echo("count, refused; read_counted: the unit a verb counts before `instead of`; read_legal: the")
        click.echo("judge's verdict of legal play, read as `P did nothing wrong`; read_suspicion: a player's claim;")
        click.echo("read_fix_word: beside a duration, the judge's time to fix it; read_instead_of: before the count")
        click.echo("due, `drew 2 when she should have drawn 1`; read_together: after `N cards`, one draw with one due):")
        for kind, fact, text in other:
            click.echo(f"  {kind:<32} {fact:<13} {text}")
    click.echo("Words that stand for each other:")
    for name, words in vocab_.word_classes.items():
        click.echo(f"  {name}: " + ", ".join(words))


@cli.command()
@click.argument("report")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@rules_option("Compare the guides under this rules folder (a `core/` and one folder per policy) instead of "
               "the bundled ones.")
@strict_option("Accept canonical forms only; by default free sentences are read as `ppgcheck rule` reads them.")
@fails_cleanly
def compare(report: str, fmt: str, rules: Path | None, strict: bool) -> None:
    """Rule the observations of REPORT under every bundled guide, side by side.

    A guide with no rule for an observation shows it as not covered. Headers
    that belong to one guide (tier, event kind) are defaulted by the others,
    and each guide says what it assumed.  A free sentence is read as `ppgcheck
    rule` reads it, its reading shown (`--strict`: canonical forms only).
    Exit 1 when a guide has a finding or leaves an observation uncovered, else
    0, 2 for bad input; `--format json` is a list, one object per report (a
    report that cannot be read: its error, as `ppgcheck rule` gives it).

    \b
    Example:
      ppgcheck compare examples/compare/extra-card.txt
    """
    check_rules_folder(rules)
    try:
        reports = report_sources((report,), rules=rules, tolerant=not strict)
    except ReportError as exc:
        if fmt != "json":
            raise
        click.echo(json.dumps([failure_json(exc, exc.file)], indent=2, ensure_ascii=False))
        sys.exit(exc.exit_code)
    results = [api.compare_report(r, rules=rules) for r in reports]
    if fmt == "json":
        click.echo(json.dumps([api.comparison_as_json(c) for c in results], indent=2, ensure_ascii=False))
    else:
        click.echo("\n\n".join(api.comparison_as_text(c) for c in results))
    sys.exit(max((c.exit_code for c in results), default=0))


@cli.command("log", hidden=True, context_settings={"ignore_unknown_options": True})
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
@fails_cleanly
def log_command(args: tuple[str, ...]) -> None:
    """Retired: the event record is an SQLite store (`ppgcheck event show`)."""
    raise UsageError("`ppgcheck log` is retired with --event-log: import the log with `ppgcheck event import LOG "
                     "--event EVENT.db --judge NAME`, then `ppgcheck event show --event EVENT.db`")


@cli.command("print")
@click.argument("report", type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option("--policy", "-p", shell_complete=complete_policy,
              help="Read the report in this policy's language (default: its `policy:` line).")
@rules_option("Read the report in the language of a pack under this rules folder.")
@strict_option("Accept canonical forms only; by default free sentences are read as `ppgcheck rule` reads them.")
@fails_cleanly
def print_command(report: str, policy: str | None, rules: Path | None, strict: bool) -> None:
    """Print a report file in canonical form (comments dropped, one statement a line,
    synonyms written in the first form of their kind).  A free sentence prints as
    the canonical sentence it was read as, which rules the same (`--strict`:
    canonical forms only).

    \b
    Example:
      ppgcheck print examples/fab/hidden-card-error.txt
    """
    check_rules_folder(rules)
    click.echo(api.print_reports(report_sources((report,), policy, rules, tolerant=not strict)), nl=False)


def _in_its_header(value, forms) -> str:
    """A header value as written in its header (`event: casual`, not a bare `casual` that
    `rel:` takes too): the first header form stating the value's fact with a variable."""
    predicate = value.fact.split("(", 1)[0]
    for f in forms:
        if f.category == "header" and f.fact == value.fact:       # a header of its own (`round: draft`)
            return f.text
    for f in forms:
        if f.category == "header" and re.search(rf"\b{predicate}\([A-Z]", f.fact):
            return re.sub(r"\{\w+\}(?!.*\{)", value.text, f.text)
    return value.text
