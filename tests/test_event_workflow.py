"""The event workflow end to end, through the CLI a judge types (README, "At an event").

Three hidden-card errors of one player on one day (tests/data/event/hidden-card-1..3.txt):
the third is upgraded (FaB PPG 1.2: the 3rd gameplay infraction of a type in a day goes up
one level).  The second is voided; a fourth then counts only the two left.  The record is
exported to CSV and imported into a new store, with the same rows.
"""
from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from click.testing import CliRunner

from ppgcheck.cli import cli

DATA = Path(__file__).resolve().parent / "data" / "event"


def ppgcheck(*args) -> str:
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result.stdout


def rule(number: int, event: Path) -> dict:
    [submitted] = json.loads(ppgcheck("rule", DATA / f"hidden-card-{number}.txt", "--event", event, "--judge",
                                      "Ann", "--format", "json"))
    return submitted


def test_void_the_second_and_the_fourth_counts_two(tmp_path):
    event = tmp_path / "event.db"
    first, second, third = (rule(n, event) for n in (1, 2, 3))
    penalties = [r["rulings"][0]["penalty"] for r in (first, second, third)]
    assert penalties == ["warning", "warning", "intellect-penalty"]
    (upgrade,) = third["event"]["upgrades"]
    assert (upgrade["to"], upgrade["section"]) == ("intellect-penalty", "PPG 1.2")
    assert [p["id"] for p in third["event"]["counted"]] == [1, 2]

    second_penalty = second["event"]["recorded"][0]["id"]
    ppgcheck("event", "void", second_penalty, "--reason", "it was Bob's card", "--judge", "Bea", "--event", event)

    fourth = rule(4, event)
    assert [p["id"] for p in fourth["event"]["counted"]] == [1, 3]      # two prior: the first and the third
    assert [p["penalty"] for p in fourth["event"]["counted"]] == ["warning", "intellect-penalty"]
    assert fourth["rulings"][0]["penalty"] == "intellect-penalty"       # two earlier today: still the 3rd or later

    history = ppgcheck("event", "history", "--event", event).splitlines()
    assert [line.split("  ", 1)[1].split(" (")[0] for line in history] == [
        "Ann: submit report #1", "Ann: submit report #2", "Ann: submit report #3",
        "Bea: void penalty #2 — it was Bob's card", "Ann: submit report #4"]

    exported = ppgcheck("event", "export", "--format", "csv", "--event", event)
    rows = list(csv.DictReader(io.StringIO(exported)))
    assert [(r["player"], r["round"], r["table"], r["penalty"], r["judge"], r["time_extension"]) for r in rows] == [
        ("Alice", "3", "11", "warning", "Ann", "2"), ("Alice", "5", "13", "intellect-penalty", "Ann", "2"),
        ("Alice", "6", "14", "intellect-penalty", "Ann", "2")]
    assert list(rows[0])[:9] == ["player", "round", "table", "infraction", "penalty", "judge", "time", "notes",
                                 "time_extension"]

    csv_file = tmp_path / "penalties.csv"
    csv_file.write_text(exported)
    copy = tmp_path / "copy.db"
    assert ppgcheck("event", "import", csv_file, "--judge", "Bea", "--event", copy) == (
        f"imported 3 penalties from {csv_file} (import #1)\n")
    assert ppgcheck("event", "export", "--format", "csv", "--event", copy) == exported
    def extensions(store: Path) -> list[tuple]:
        shown = ppgcheck("event", "show", "--event", store, "--time-extensions", "--format", "json")
        return [(r["round"], r["table"], r["minutes"]) for r in json.loads(shown)]
    # the second report still stands (only its penalty was voided): its 2 minutes stay in the event's summary
    assert extensions(event) == [(3, 11, 2), (4, 12, 2), (5, 13, 2), (6, 14, 2)]
    assert extensions(copy) == [(3, 11, 2), (5, 13, 2), (6, 14, 2)]
    assert ppgcheck("event", "check", "--event", copy).startswith(f"{copy}: ok")

    # the third's upgrade counted the voided second: ruled again, and the fourth, which
    # counted the third's old penalty, is named in turn
    out = ppgcheck("event", "rerule", 3, "--reason", "#2 was voided", "--judge", "Bea", "--event", event)
    assert out.startswith("report #3 ruled again (counting #1): 1 penalty amended")
    assert "counted by the rulings of report #4:" in out and "ppgcheck event rerule 4" in out


def test_a_ruling_that_counted_a_voided_penalty_is_ruled_again(tmp_path):
    """After the second is voided, the third's upgrade counted a penalty that no longer
    counts: `event rerule` rules it again with the penalties in force now (one prior: a
    Warning), amending its penalty; a fourth then counts the first and the amended third."""
    event = tmp_path / "event.db"
    first, second, third = (rule(n, event) for n in (1, 2, 3))
    assert third["rulings"][0]["penalty"] == "intellect-penalty"
    voided = ppgcheck("event", "void", second["event"]["recorded"][0]["id"], "--reason", "it was Bob's card",
                      "--judge", "Bea", "--event", event)
    assert "counted by the rulings of report #3" in voided and "ppgcheck event rerule 3" in voided

    out = ppgcheck("event", "rerule", 3, "--reason", "penalty #2 was voided", "--judge", "Bea", "--event", event)
    head, change = out.splitlines()
    assert head == "report #3 ruled again (counting #1): 1 penalty amended"
    assert change.startswith("  #3 Alice: intellect-penalty for hidden-card-error")
    assert "→  #4 Alice: warning for hidden-card-error" in change
    in_force = json.loads(ppgcheck("event", "show", "--event", event, "--format", "json"))
    assert [(p["id"], p["penalty"], p["status"]) for p in in_force] == [(1, "warning", "in-force"),
                                                                        (4, "warning", "in-force")]
    fourth = rule(4, event)
    assert [p["id"] for p in fourth["event"]["counted"]] == [1, 4]
    assert fourth["rulings"][0]["penalty"] == "intellect-penalty"       # two earlier today: the 3rd

    again = ppgcheck("event", "rerule", 3, "--reason", "once more", "--judge", "Bea", "--event", event)
    assert again == "report #3 ruled again (counting #1): its penalties stand\n"
    history = ppgcheck("event", "history", "--event", event).splitlines()
    # a rule-again whose penalties stand is in the history too (a judge looked at it again)
    assert [line.split("  ", 1)[1].split(" (")[0] for line in history][-3:] == [
        "Bea: amend penalty #4 — penalty #2 was voided", "Ann: submit report #4", "Bea: rerule report #3 — once more"]
    assert ppgcheck("event", "check", "--event", event).startswith(f"{event}: ok")
    [entry] = [e for e in json.loads(ppgcheck("event", "history", "--event", event, "--format", "json"))
               if e["detail"].get("ruled_again") == 3]
    assert entry["detail"]["counted"] == [1] and len(entry["detail"]["rules_version"]) >= 12

    voided_report = ppgcheck("event", "void", "--report", 3, "--reason", "wrong table", "--judge", "Bea",
                             "--event", event)
    assert "counted by the rulings of report #4" in voided_report      # the fourth counted the amended penalty
    refused = CliRunner().invoke(cli, ["event", "rerule", "3", "--reason", "x", "--judge", "Bea", "--event",
                                       str(event)])
    assert refused.exit_code == 2
    assert "report #3 is void: only a report in force can be ruled again" in refused.output


def test_ruling_again_keeps_a_judges_choice_the_guide_still_permits(tmp_path):
    from ppgcheck import api
    from ppgcheck.errors import StoreError
    from ppgcheck.language.report import parse_reports
    event = tmp_path / "event.db"
    report = tmp_path / "stale-marker.txt"
    report.write_text("policy: fab\nrel: competitive\nplayer: Alice\nplayer: Bob\n\n"
                      "Alice gave incorrect game information, Bob acted on it, from a stale marker.\n")
    [submitted] = json.loads(ppgcheck("rule", report, "--event", event, "--judge", "Ann", "--format", "json",
                                      "--choose", "communicating-incorrect-game-information=caution"))
    assert [(p["penalty"], p["chosen_by"]) for p in submitted["event"]["recorded"]] == [("caution", "judge")]
    out = ppgcheck("event", "rerule", 1, "--reason", "checking", "--judge", "Bea", "--event", event)
    assert out == "report #1 ruled again (counting no earlier penalty): its penalties stand\n"

    # a ruling that issues other penalties (here: another report's) is a new report, not an amendment
    store = api.open_event(event)
    [(other, policy)] = api.prepare(parse_reports("policy: fab\nplayer: Alice\nAlice was 5 minutes late\n"))
    try:
        store.rerule(1, other, "Bea", "x", lambda r: api.rule_prepared([(r, policy)])[0])
        raise AssertionError("ruled again with other penalties")
    except StoreError as exc:
        assert "issues other penalties (Alice: tardiness) than those in force " in str(exc)
    assert [(p.penalty, p.status) for p in store.penalties()] == [("caution", "in-force")]


def test_a_void_names_only_the_rulings_in_force_that_counted_it(tmp_path):
    """The third report amended: its old version's ruling counted the second too, but only
    the version in force can be ruled again."""
    event = tmp_path / "event.db"
    rule(1, event)
    second = rule(2, event)
    third = tmp_path / "third.txt"
    third.write_text((DATA / "hidden-card-3.txt").read_text())
    ppgcheck("rule", third, "--event", event, "--judge", "Ann")
    third.write_text((DATA / "hidden-card-3.txt").read_text().replace("took 2 minutes", "took 4 minutes"))
    [amended] = json.loads(ppgcheck("rule", third, "--event", event, "--judge", "Ann", "--amend", "--format", "json"))
    assert amended["event"]["outcome"] == "amended" and amended["event"]["report_id"] == 4
    voided = ppgcheck("event", "void", second["event"]["recorded"][0]["id"], "--reason", "twice", "--judge", "Bea",
                      "--event", event)
    assert "counted by the rulings of report #4:" in voided


def test_amending_a_counted_penalty_names_the_rulings_that_counted_it(tmp_path):
    event = tmp_path / "event.db"
    text = ("policy: fab\nrel: competitive\nplayer: Alice\nplayer: Bob\n\n"
            "Alice gave incorrect game information, Bob acted on it, from a stale marker.\n")
    for name in ("first.txt", "second.txt"):
        (tmp_path / name).write_text(text)
    ppgcheck("rule", tmp_path / "first.txt", "--event", event, "--judge", "Ann",
             "--choose", "communicating-incorrect-game-information=caution")
    # FaB PPG 1.4: a Caution is not recorded, so the second ruling does not count the first
    second = ppgcheck("rule", tmp_path / "second.txt", "--event", event, "--judge", "Ann")
    assert "history given: 0 earlier penalties" in second
    noted = ppgcheck("event", "amend", 1, "--notes", "table 4", "--reason", "x", "--judge", "Bea", "--event", event)
    assert "rulings of report" not in noted                                           # the same penalty
    amended = ppgcheck("event", "amend", 3, "--penalty", "warning", "--reason", "x", "--judge", "Bea",
                       "--event", event)      # a Warning is recorded: the second ruling would count it now
    assert "the rulings of report #2 counted it as it was, or would count it as it is now" in amended
    assert "ppgcheck event rerule 2" in amended
    again = ppgcheck("event", "amend", 4, "--penalty", "caution", "--reason", "x", "--judge", "Bea",
                     "--event", event)        # back to a Caution: nothing counted the Warning yet
    assert "rulings of report" not in again


def test_a_change_needs_a_bounded_reason_and_changes_nothing_without_one(tmp_path):
    """The record keeps a change's reason and a penalty's notes: a blank or over-long reason
    (and over-long notes) is refused with exit 2 and the record is left as it was."""
    event = tmp_path / "event.db"
    rule(1, event)
    refused = [
        ("event", "void", 1, "--reason", " ", "--judge", "Bea", "--event", event),
        ("event", "void", "--report", 1, "--reason", "x" * 501, "--judge", "Bea", "--event", event),
        ("event", "amend", 1, "--penalty", "caution", "--reason", "x" * 501, "--judge", "Bea", "--event", event),
        ("event", "amend", 1, "--notes", "y" * 2001, "--reason", "appeal", "--judge", "Bea", "--event", event),
        ("event", "rerule", 1, "--reason", "", "--judge", "Bea", "--event", event),
    ]
    for args in refused:
        result = CliRunner().invoke(cli, [str(a) for a in args])
        assert result.exit_code == 2, (args[:2], result.output)
        assert "Traceback" not in result.output
        assert "reason" in result.output or "notes" in result.output
    history = ppgcheck("event", "history", "--event", event).splitlines()
    assert [line.split("  ", 1)[1].split(" (")[0] for line in history] == ["Ann: submit report #1"]
    ppgcheck("event", "void", 1, "--reason", "x" * 500, "--judge", "Bea", "--event", event)
