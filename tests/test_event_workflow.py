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
