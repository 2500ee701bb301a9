"""`ppgcheck event ...`: read, correct, export and check an event's record (ppgcheck/event/).

Every command takes `--event EVENT.db` (or $PPGCHECK_EVENT); a command that changes
the record takes `--judge NAME` (or $PPGCHECK_JUDGE) and a `--reason`.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ppgcheck import api
from ppgcheck.cli import cli
from ppgcheck.cli.common import fails_cleanly, rules_option
from ppgcheck.errors import UsageError

# an id or a filter the store compares with its rows: SQLite's integers are 64-bit
ROW_ID = click.IntRange(1, 2**63 - 1)


def event_option(command):
    return click.option("--event", "event", required=True, envvar="PPGCHECK_EVENT", metavar="EVENT.db",
                        type=click.Path(dir_okay=False, path_type=Path),
                        help="The event's store (or $PPGCHECK_EVENT).")(command)


def judge_option(command):
    return click.option("--judge", required=True, envvar="PPGCHECK_JUDGE", metavar="NAME",
                        help="Who makes the change (or $PPGCHECK_JUDGE).")(command)


def reason_option(command):
    return click.option("--reason", required=True, help="Why: kept in the event's history.")(command)


# --- what a submission prints ---------------------------------------------------------

def _plural(n: int, word: str) -> str:
    if n == 1:
        return f"{n} {word}"
    return f"{n} {word[:-1]}ies" if word.endswith("y") else f"{n} {word}s"


def submission_text(sub, explain: bool, view: bool = False) -> str:
    """The stored ruling, then what the event store did with it (`view`: what it holds of it,
    in the words of a record looked at, not of a submission)."""
    out = [(sub.explained if explain else sub.text)]
    if view:
        out.append(f"  event {sub.store}: report #{sub.report_id}, recorded by {sub.judge} at {sub.at}")
    elif sub.outcome == "already-recorded":
        out.append(f"  event {sub.store}: already recorded as report #{sub.report_id} by {sub.judge} at {sub.at}: "
                   "nothing written")
    else:
        head = f"  event {sub.store}: recorded as report #{sub.report_id}"
        if sub.superseded:
            head += f", superseding report #{sub.superseded} (its penalties no longer count)"
        out.append(head)
    # every person named is given their penalties in force: the rules count what they read
    out.append(f"    history given: {_plural(len(sub.counted), 'earlier penalty')} of the persons named"
               + (":" if sub.counted else ""))
    out.extend(f"      {api.recorded_line(p)}" for p in sub.counted)
    if sub.match_result is not None:
        out.append(f"    match result recorded: {sub.match_result.describe()}")
    for p in sub.recorded:
        if p.status == "pending":
            choices = (f"one of {', '.join(f'`{c}`' for c in p.permitted)}" if p.permitted
                       else "a penalty of the policy (the guide names none here)")
            out.append(f"    pending #{p.id} {p.player}: {p.infraction} — the guide names no default penalty; the "
                       f"judge chooses {choices}: "
                       f"`ppgcheck event amend {p.id} --penalty PENALTY --reason ... --judge NAME --event {sub.store}`")
        else:
            chosen = " (the judge's choice)" if p.chosen_by == "judge" else ""
            label = "penalty" if view else ("recorded" if p.status == "in-force" else p.status)
            unrecorded = sub.not_recorded.get(p.penalty)
            if unrecorded:      # kept in the log, not in the tournament's record
                label = "penalty" if view else "logged"
                chosen += f" — counted in no later ruling: {unrecorded[0]} ({unrecorded[1]})"
            out.append(f"    {label} {api.recorded_line(p, with_status=view)}{chosen}")
    return "\n".join(out)


def submission_json(sub) -> dict:
    return {**sub.ruling, "event": sub.as_dict()}


# --- the commands -----------------------------------------------------------------------

@cli.group("event")
def event_group() -> None:
    """Read, correct, export and check an event's record (see `rule --event`).

    \b
    Example:
      ppgcheck rule r5-t12.txt --event event.db --judge Ann
      ppgcheck event show --event event.db --player Alice
      ppgcheck event void 2 --reason "wrong player" --judge Ann --event event.db
      ppgcheck event export --format csv --event event.db > penalties.csv
    """


@event_group.command("show")
@event_option
@click.option("--player", help="Only this person's penalties.")
@click.option("--day", type=ROW_ID, help="Only this day's.")
@click.option("--round", "round_", type=ROW_ID, help="Only this round's.")
@click.option("--table", type=ROW_ID, help="Only this table's.")
@click.option("--all", "everything", is_flag=True, help="Also void and superseded penalties.")
@click.option("--report", "report_id", type=ROW_ID, help="One report: its stored ruling and penalties.")
@click.option("--time-extensions", is_flag=True, help="The time extensions per round and table.")
@click.option("--results", is_flag=True, help="The outcomes of matches the reports gave (by day, round, table).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@fails_cleanly
def show(event: Path, player: str | None, day: int | None, round_: int | None, table: int | None,
         everything: bool, report_id: int | None, time_extensions: bool, results: bool, fmt: str) -> None:
    """Show the event's penalties (by player, day, round, table), a report, time extensions,
    or match results.

    \b
    Example:
      ppgcheck event show --event event.db --player Alice
      ppgcheck event show --event event.db --report 3
      ppgcheck event show --event event.db --time-extensions
      ppgcheck event show --event event.db --results --round 5
    """
    store = api.open_event(event)
    if report_id is not None:
        sub = store.report(report_id)
        click.echo(json.dumps(submission_json(sub), indent=2, ensure_ascii=False) if fmt == "json"
                   else submission_text(sub, explain=False, view=True))
        return
    if time_extensions:
        rows = store.time_extensions()
        if fmt == "json":
            click.echo(json.dumps(rows, indent=2, ensure_ascii=False))
            return
        click.echo(f"{event}: time extensions of {_plural(len(rows), 'table')}")
        for row in rows:
            where = (f"day {row['day']}, " if row["day"] else "") + \
                    (f"round {row['round']}" if row["round"] else "no round") + ", " + \
                    (f"table {row['table']}" if row["table"] else "no table")
            minutes = row["minutes"]
            click.echo(f"  {where}: {minutes} minute{'' if minutes == 1 else 's'} ({', '.join(row['sources'])})")
        return
    if results:
        _show_results(store, event, day, round_, table, everything, fmt)
        return
    rows = api.listed_penalties(store, player, day, round_, table, everything)
    if fmt == "json":
        click.echo(json.dumps([api.penalty_json(p) for p in rows], indent=2, ensure_ascii=False))
        return
    filters = ", ".join(f"{k} {v}" for k, v in (("player", player), ("day", day), ("round", round_),
                                                ("table", table)) if v is not None)
    click.echo(f"{event} ({store.event_name()}): " + _plural(len(rows), "penalty")
               + (f" of {filters}" if filters else ""))
    for p in rows:
        why = api.not_recorded_why(p)
        unrecorded = f" [not recorded by the guide ({why[1]}): counted in no ruling]" if why else ""
        click.echo(f"  {api.recorded_line(p, with_status=True)}{unrecorded} — {p.judge}, {p.time}")
    stale = api.stale_rulings(store)
    if stale:       # a change since made their history another: persistent until ruled again
        click.echo(f"needs ruling again: report {', '.join(f'#{r}' for r in stale)}, whose "
                   f"{'ruling' if len(stale) == 1 else 'rulings'} counted another history than the event "
                   f"gives now (`ppgcheck event rerule {stale[0]} --reason ... --judge ... --event {event}`)")


def _show_results(store, event: Path, day: int | None, round_: int | None, table: int | None,
                  everything: bool, fmt: str) -> None:
    rows = store.match_results(day, round_, table, everything)
    if fmt == "json":
        click.echo(json.dumps([r.as_dict() for r in rows], indent=2, ensure_ascii=False))
        return
    click.echo(f"{event} ({store.event_name()}): " + _plural(len(rows), "match result"))
    for r in rows:
        where = ", ".join(f"{k} {v}" for k, v in (("day", r.day), ("round", r.round), ("table", r.table))
                          if v is not None)
        status = f" [{r.status}]" if r.status != "in-force" else ""
        click.echo(f"  report #{r.report_id}" + (f", {where}" if where else "") + f": {r.describe()} ({r.source}){status}")


@event_group.command("void")
@click.argument("penalty_id", type=ROW_ID, required=False)
@click.option("--report", "report_id", type=ROW_ID, help="Void a whole report and its penalties instead.")
@reason_option
@judge_option
@event_option
@fails_cleanly
def void(penalty_id: int | None, report_id: int | None, reason: str, judge: str, event: Path) -> None:
    """Void a penalty (PENALTY_ID, as `event show` lists it) or a whole report: it stays in
    the record and stops counting for repeats.

    \b
    Example:
      ppgcheck event void 2 --reason "ruled on the wrong player" --judge Ann --event event.db
    """
    if (penalty_id is None) == (report_id is None):
        raise UsageError("give a penalty id or --report ID (one of them)")
    if report_id is not None:
        store = api.open_event(event)
        voided = api.void_report(store, report_id, reason, judge)
        click.echo(f"voided report #{report_id} and {_plural(len(voided), 'penalty')}")
        for p in voided:
            click.echo(f"  {api.recorded_line(p, with_status=True)}")
        _counted_hint(store.counted_by([p.id for p in voided]), event)
        return
    row, counted_by = api.void_penalty(event, penalty_id, reason, judge)
    click.echo(f"voided {api.recorded_line(row)}")
    _counted_hint(counted_by, event)


def _counted_hint(counted_by: list[int], event: Path, amended: bool = False) -> None:
    """The later rulings that counted a changed penalty (amended: or would count it as it is
    now), and the command that rules them again."""
    if counted_by:
        reports = ", ".join(f"#{r}" for r in counted_by)
        lead = (f"the rulings of report {reports} counted it as it was, or would count it as it is now"
                if amended else f"counted by the rulings of report {reports}")
        click.echo(f"  {lead}: their penalties stand until a judge rules them again (`ppgcheck event rerule "
                   + f"{counted_by[0]} --reason ... --judge ... --event {event}`)")


@event_group.command("rerule")
@click.argument("report_id", type=ROW_ID)
@reason_option
@judge_option
@event_option
@rules_option("The rules folder the event was ruled with.")
@fails_cleanly
def rerule(report_id: int, reason: str, judge: str, event: Path, rules: Path | None) -> None:
    """Rule a report (REPORT_ID, as `event show` lists it) again with its players' penalties
    in force now, after a void or an amendment of one its ruling counted: each of its
    penalties the ruling changes is amended (the old one superseded, the audit saying so).

    \b
    Example:
      ppgcheck event rerule 3 --reason "penalty #1 was voided" --judge Ann --event event.db
    """
    store = api.open_event(event)
    changes, counted = api.rerule_report(store, report_id, reason, judge, rules)
    now = "counting " + (", ".join(f"#{p.id}" for p in counted) if counted else "no earlier penalty")
    if not changes:
        click.echo(f"report #{report_id} ruled again ({now}): its penalties stand")
        return
    click.echo(f"report #{report_id} ruled again ({now}): " + _plural(len(changes), "penalty") + " amended")
    for old, new in changes:
        click.echo(f"  {api.recorded_line(old)}  →  {api.recorded_line(new)}")
    later = store.counted_by([old.id for old, _ in changes])
    _counted_hint([r for r in later if r != report_id], event)


@event_group.command("amend")
@click.argument("penalty_id", type=ROW_ID)
@click.option("--penalty", help="The penalty the judge chooses (one the guide permits for it).")
@click.option("--notes", help="New notes for the penalty.")
@reason_option
@judge_option
@event_option
@rules_option("The rules folder the event was ruled with (for the penalties a policy knows).")
@fails_cleanly
def amend(penalty_id: int, penalty: str | None, notes: str | None, reason: str, judge: str, event: Path,
          rules: Path | None) -> None:
    """Change a penalty in force or pending: another penalty the guide permits, or its notes.
    The old row stays in the record, superseded by the new one.

    To correct the report itself, rule the corrected report with `rule --event ... --amend`.

    \b
    Example:
      ppgcheck event amend 4 --penalty game-loss --reason "Head Judge upgraded" --judge Ann --event event.db
    """
    if penalty is None and notes is None:
        raise UsageError("nothing to amend: give --penalty and/or --notes")
    row = api.amend_penalty(event, penalty_id, reason, judge, penalty, notes, rules)
    click.echo(f"amended #{penalty_id}: now {api.recorded_line(row)}")
    if penalty is not None:     # another penalty: the later rulings it changes
        _counted_hint(api.rulings_changed_by_amend(event, penalty_id, row, rules), event, amended=True)


@event_group.command("history")
@event_option
@click.option("--penalty", "penalty_id", type=ROW_ID, help="Only this penalty's line of changes.")
@click.option("--report", "report_id", type=ROW_ID, help="Only this report's.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@fails_cleanly
def history(event: Path, penalty_id: int | None, report_id: int | None, fmt: str) -> None:
    """Show who changed what and when: every submission, amendment, void and import.

    \b
    Example:
      ppgcheck event history --event event.db --penalty 2
    """
    # (when the command runs: the CLI loads only the command it runs)
    from dataclasses import asdict

    rows = api.open_event(event).audit(penalty_id, report_id)
    if fmt == "json":
        click.echo(json.dumps([asdict(r) for r in rows], indent=2, ensure_ascii=False))
        return
    for r in rows:
        target = " ".join(f"{kind} #{value}" for kind, value in (("report", r.report_id), ("penalty", r.penalty_id),
                                                                 ("import", r.import_id)) if value is not None)
        detail = ", ".join(f"{k}: {v}" for k, v in r.detail.items())
        if r.action == "settings":      # each setting changed: [before, after], None where unset
            detail = ", ".join(f"{k.replace('_', ' ')} {'none' if v[0] is None else v[0]} → "
                               f"{'none' if v[1] is None else v[1]}" for k, v in r.detail.items())
        click.echo(f"{r.at}  {r.judge}: {r.action}" + (f" {target}" if target else "")
                   + (f" — {r.reason}" if r.reason else "")
                   + (f" ({detail})" if detail else ""))


@event_group.command("export")
@event_option
@click.option("--format", "fmt", type=click.Choice(["csv", "json"]), default="csv", show_default=True)
@click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path), help="Write here, not to stdout.")
@click.option("--results", is_flag=True,
              help="Export the match outcomes the rulings in force gave (a result, the penalty that ends the "
                   "match, the guide's next step) instead of the penalties.")
@rules_option("The rules folder the event was ruled with (for the penalties its guides do not record).")
@fails_cleanly
def export(event: Path, fmt: str, output: Path | None, results: bool, rules: Path | None) -> None:
    """Export the penalties in force, in the fields tournament platforms import: player,
    round, table, infraction, penalty, judge, time, notes, time_extension (then policy,
    day and report, for `event import`).  Pending penalties are left out, and said; so are
    those the guide does not record (FaB's Cautions, PPG 1.4).
    With --results: the match outcomes instead (day, round, table, kind, scope, result,
    winner, player, penalty, step, section, report).

    \b
    Example:
      ppgcheck event export --format csv --event event.db > penalties.csv
      ppgcheck event export --results --format csv --event event.db > results.csv
    """
    store = api.open_event(event)
    if results:
        text = api.export_match_results(store, fmt)
    else:
        text, unrecorded = api.export_penalties(store, fmt, rules)
    if output:
        try:
            output.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"cannot write `{output}`: {exc.strerror}") from None
    else:
        click.echo(text, nl=False)
    if not results and unrecorded:
        click.echo(f"{_plural(len(unrecorded), 'penalty')} the guide does not record not exported: "
                   + ", ".join(f"#{p.id} ({p.penalty})" for p in unrecorded), err=True)
    pending = [] if results else api.pending_penalties(store)
    if pending:
        click.echo(f"{_plural(len(pending), 'pending penalty')} not exported "
                   "(no penalty chosen yet): " + ", ".join(f"#{p.id}" for p in pending), err=True)


@event_group.command("import")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@judge_option
@event_option
@rules_option("Check the rows against the packs under this rules folder instead of the bundled ones.")
@fails_cleanly
def import_command(file: Path, judge: str, event: Path, rules: Path | None) -> None:
    """Import penalties: a CSV or JSON that `event export` wrote, or the JSON Lines log of
    the retired `rule --event-log`.  Every row is checked first; a bad row imports nothing,
    and the same file again writes nothing.

    \b
    Example:
      ppgcheck event import day1.jsonl --judge Ann --event event.db
    """
    import_id, rows, new = api.import_penalties(event, file, judge, rules)
    if new:
        click.echo(f"imported {_plural(rows, 'penalty')} from {file} "
                   f"(import #{import_id})")
    else:
        click.echo(f"{file} was already imported (import #{import_id}): nothing written")


UNSET = "none"      # an option's value that unsets the setting


def _setting(value: str | None, name: str, number: bool = False):
    """One option's value: absent (not changed), `none` (unset), or the value (a whole number
    for `number`)."""
    if value is None or value.strip().lower() == UNSET:
        return value if value is None else UNSET
    value = value.strip()
    if number:
        if not value.isdigit():
            raise UsageError(f"--{name} is a whole number (or `{UNSET}` to unset it), not `{value}`")
        return int(value)
    return value.lower()


def _settings_changes(policy: str | None, rel: str | None, day: str | None, round_: str | None) -> dict:
    """The settings the options change (None: unset), `--round N[,KIND]` split in two."""
    changes = {}
    for key, value, number in (("policy", policy, False), ("rel", rel, False), ("day", day, True)):
        value = _setting(value, key, number)
        if value is not None:
            changes[key] = None if value == UNSET else value
    if round_ is not None:
        number, _, kind = round_.partition(",")
        value = _setting(number, "round", number=True)
        changes["round"] = None if value == UNSET else value
        if value == UNSET:
            changes["round_kind"] = None
        elif kind.strip():          # (without a kind, the round's kind stays: the next Swiss round)
            kind = _setting(kind, "round")
            changes["round_kind"] = None if kind == UNSET else kind
    return changes


def settings_text(event: Path, settings) -> str:
    shown = [f"  {key.replace('_', ' ')}: {value}" for key, value in settings.as_dict().items() if value is not None]
    return f"{event}: the event's settings" + (":\n" + "\n".join(shown) if shown else ": none set")


@event_group.command("settings")
@event_option
@click.option("--policy", metavar="POLICY", help="The event's policy (`none` unsets it).")
@click.option("--rel", metavar="REL", help="Its REL, one the policy's report language knows (`none` unsets it).")
@click.option("--day", metavar="N", help="The day now (`none` unsets it).")
@click.option("--round", "round_", metavar="N[,KIND]",
              help="The round now, and its kind: `5,swiss` (`5` keeps the kind, `5,none` unsets it, `none` both).")
@click.option("--judge", envvar="PPGCHECK_JUDGE", metavar="NAME",
              help="Who changes them, the Head Judge (or $PPGCHECK_JUDGE); needed to change them.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@rules_option("Check the values against the packs under this rules folder instead of the bundled ones.")
@fails_cleanly
def settings(event: Path, policy: str | None, rel: str | None, day: str | None, round_: str | None,
             judge: str | None, fmt: str, rules: Path | None) -> None:
    """Show or set the event's own settings: its policy, REL, day, round and round kind, set
    by the Head Judge (per day, per round).  The judge station's report builder prefills a new
    report with them; a report submitted without `rel:`, `round:` or `day:` lines is not given
    them (the report's text is what is recorded and ruled).  Each change is in `event history`.

    \b
    Example:
      ppgcheck event settings --event event.db --policy fab --rel competitive --day 2 --round 5,swiss --judge Hana
      ppgcheck event settings --event event.db --round 6 --judge Hana
      ppgcheck event settings --event event.db
    """
    changes = _settings_changes(policy, rel, day, round_)
    store = api.open_event(event)
    if changes:
        if judge is None:
            raise UsageError("changing the event's settings needs `--judge NAME` (or $PPGCHECK_JUDGE)")
        before, after = api.set_event_settings(store, judge, changes, rules)
        if before == after:
            click.echo(f"{event}: the event's settings are already these: nothing written")
    current = store.settings()
    if fmt == "json":
        click.echo(json.dumps(current.as_dict(), indent=2, ensure_ascii=False))
    else:
        click.echo(settings_text(event, current))


@event_group.command("check")
@event_option
@fails_cleanly
def check(event: Path) -> None:
    """Check an event store: SQLite's integrity check and the store's own invariants
    (every report has its ruling and all its penalties, nothing void still counts, every
    change has its audit entry).  Exit 1 when something is wrong.

    \b
    Example:
      ppgcheck event check --event event.db
    """
    problems, counts = api.check_event_store(event)
    if problems:
        click.echo(f"{event}: {_plural(len(problems), 'problem')}")
        for problem in problems:
            click.echo(f"  {problem}")
        sys.exit(1)
    click.echo(f"{event}: ok — " + ", ".join(f"{n} {name}" for name, n in counts.items()))
