"""`ppgcheck rule --event-log FILE`: the day's penalties counted without retyping them.

The repeat rule these tests lean on is FaB PPG 1.2: the 3rd gameplay infraction
of the same type in a day goes up one level (golden case
ppg1_2-repeat-gameplay-third-fires); a new day starts the count again.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from ppgcheck.cli import cli

ALICE = """\
policy: {policy}
rel: competitive
day: {day}
player: {name}
player: Bob

{name} drew 1 extra card.
"""
# related infractions: only the Intellect Penalty is issued, the Warning is absorbed
RELATED = """\
policy: fab
rel: competitive
day: 2
player: Alice
player: Bob

Alice drew 1 extra card.
Alice shuffled an ordered set into her deck, from the same root cause.
"""


def report(tmp_path: Path, name: str = "Alice", day: int = 2, policy: str = "fab", file: str = "r.txt") -> Path:
    path = tmp_path / file
    text = ALICE.format(policy=policy, day=day, name=f'"{name}"' if not name.isalnum() else name)
    path.write_text(text, encoding="utf-8")
    return path


def rule(*args, input: str | None = None):
    return CliRunner().invoke(cli, ["rule", *map(str, args)], input=input)


def ruled(path: Path, log: Path) -> dict:
    result = rule(path, "--event-log", log, "--format", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def lines(log: Path) -> list[dict]:
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


def test_the_third_report_of_the_day_is_upgraded_from_the_log_alone(tmp_path):
    log = tmp_path / "event" / "log.jsonl"            # its folder is created too
    path = report(tmp_path)
    first, second, third = (ruled(path, log) for _ in range(3))
    assert [r["rulings"][0]["penalty"] for r in (first, second, third)] == ["warning", "warning",
                                                                              "intellect-penalty"]
    assert third["rulings"][0]["adjustments"][0]["kind"] == "repeat"
    assert [r["event_log"]["counted"] for r in (first, second, third)] == [0, 1, 2]
    assert lines(log) == [{"policy": "fab", "player": "Alice", "penalty": p, "infraction": "hidden-card-error",
                           "day": 2, "report": str(path)} for p in ("warning", "warning", "intellect-penalty")]


def test_a_new_day_starts_the_count_again(tmp_path):
    log = tmp_path / "log.jsonl"
    for _ in range(2):
        ruled(report(tmp_path), log)
    next_day = ruled(report(tmp_path, day=3, file="day3.txt"), log)
    assert next_day["rulings"][0]["penalty"] == "warning"
    assert next_day["event_log"]["counted"] == 2        # given to the rules, which count per day


def test_only_the_reports_persons_and_policy_count(tmp_path):
    log = tmp_path / "log.jsonl"
    for _ in range(2):
        ruled(report(tmp_path, name="Carol", file="carol.txt"), log)
    log.write_text(log.read_text() + json.dumps({"policy": "dci", "player": "Alice", "penalty": "warning",
                                                 "infraction": "game-play-error/hidden-card-error",
                                                 "day": 2}) + "\n")
    alice = ruled(report(tmp_path), log)
    assert alice["rulings"][0]["penalty"] == "warning" and alice["event_log"]["counted"] == 0


def test_a_name_that_looks_like_code_is_logged_and_counted_as_a_name(tmp_path):
    name = 'x). #include "/etc/passwd". a('
    log = tmp_path / "log.jsonl"
    path = tmp_path / "odd.txt"
    path.write_text(ALICE.format(policy="fab", day=2, name=json.dumps(name)), encoding="utf-8")
    rulings = [ruled(path, log)["rulings"][0] for _ in range(3)]
    assert [r["player"] for r in rulings] == [name] * 3
    assert [r["penalty"] for r in rulings] == ["warning", "warning", "intellect-penalty"]
    assert {row["player"] for row in lines(log)} == {name}


def test_an_absorbed_penalty_is_not_recorded(tmp_path):
    log = tmp_path / "log.jsonl"
    path = tmp_path / "related.txt"
    path.write_text(RELATED)
    result = ruled(path, log)
    assert result["event_log"]["recorded"] == 1
    assert [(row["infraction"], row["penalty"]) for row in lines(log)] == [("shuffling-error", "intellect-penalty")]


def test_a_typed_history_with_the_log_is_an_error_and_nothing_is_recorded(tmp_path):
    log = tmp_path / "log.jsonl"
    path = tmp_path / "typed.txt"
    path.write_text(ALICE.format(policy="fab", day=2, name="Alice")
                    + "\nhistory:\n  Alice: warning for hidden-card-error, day 2\n")
    result = rule(path, "--event-log", log)
    assert result.exit_code == 2
    # the error, the line and the caret under `Alice`, and no ruling
    assert result.output == (f"{path}:10:3: error: this report has a `history:` block, "
                             "and --event-log gives the history: use one of them\n"
                             "10 |   Alice: warning for hidden-card-error, day 2\n"
                             "       ^\n")
    assert not log.exists() or log.read_text() == ""


def test_a_batch_is_ruled_in_order_and_a_bad_file_does_not_stop_it(tmp_path):
    log = tmp_path / "log.jsonl"
    folder = tmp_path / "reports"
    folder.mkdir()
    for i in (1, 2, 4):
        report(folder, file=f"{i}.txt")
    (folder / "3.txt").write_text("policy: fab\nplayer: Alice\nAlice juggled.\n")
    result = rule(folder, "--event-log", log, "--format", "jsonl")
    assert result.exit_code == 2 and "3.txt:3" in result.output
    penalties = [json.loads(line)["rulings"][0]["penalty"] for line in result.stdout.splitlines()]
    assert penalties == ["warning", "warning", "intellect-penalty"]


def test_a_broken_log_is_a_clear_error(tmp_path):
    log = tmp_path / "log.jsonl"
    path = report(tmp_path)
    log.write_text('{"policy": "fab", "player": "Alice", "penalty": "warning", "infraction": "hidden-card-error"}\n'
                   "not json\n")
    result = rule(path, "--event-log", log)
    assert result.exit_code == 2 and result.output.startswith(f"{log}:2: not a JSON object")
    log.write_text('{"policy": "fab", "player": "Alice", "penalty": "warning", "infraction": "card-juggling"}\n')
    result = rule(path, "--event-log", log)
    assert result.exit_code == 2 and f"{log}:1: unknown infraction `card-juggling` for policy `fab`" in result.output
    log.write_text('{"policy": "fab", "player": "Alice", "penalty": "warning"}\n')
    result = rule(path, "--event-log", log)
    assert result.exit_code == 2 and "needs the strings `policy`, `player`, `penalty`, `infraction`" in result.output
    assert "Traceback" not in result.output


def test_identical_penalties_beyond_what_a_report_counts_are_said(tmp_path):
    log = tmp_path / "log.jsonl"
    row = {"policy": "fab", "player": "Alice", "penalty": "warning", "infraction": "hidden-card-error", "day": 2}
    log.write_text((json.dumps(row) + "\n") * 8)
    result = rule(report(tmp_path), "--event-log", log)
    assert result.exit_code == 0
    assert "6 earlier penalties of these persons counted, 1 recorded (2 identical ones beyond 6 not counted)" \
        in result.output


def test_two_judges_at_once_count_one_after_the_other(tmp_path):
    log = tmp_path / "log.jsonl"
    path = report(tmp_path)
    script = ("import sys\nfrom ppgcheck.cli import main\n"
              "sys.argv = ['ppgcheck', 'rule', sys.argv[1], '--event-log', sys.argv[2]]\nmain()\n")
    judges = [subprocess.Popen([sys.executable, "-c", f"for _ in range(3):\n"
                                f"    import subprocess, sys\n"
                                f"    subprocess.run([sys.executable, '-c', {script!r}, {str(path)!r}, {str(log)!r}],"
                                f" check=True, stdout=subprocess.DEVNULL)"]) for _ in range(2)]
    assert [j.wait(timeout=120) for j in judges] == [0, 0]
    penalties = [row["penalty"] for row in lines(log)]
    # each report counts every one recorded before it: two Warnings, then Intellect Penalties
    assert penalties == ["warning", "warning"] + ["intellect-penalty"] * 4


def test_log_shows_the_penalties_as_history_lines_a_report_can_take(tmp_path):
    from ppgcheck.language.report import parse_report
    name = 'Ann "the Judge" Lee'
    log = tmp_path / "log.jsonl"
    path = tmp_path / "ann.txt"
    path.write_text(ALICE.format(policy="fab", day=2, name=json.dumps(name)), encoding="utf-8")
    for _ in range(3):
        ruled(path, log)
    result = CliRunner().invoke(cli, ["log", str(log)])
    assert result.exit_code == 0
    head, policy, *entries = result.output.splitlines()
    assert head == f"{log}: 3 penalties" and policy == "policy: fab"
    pasted = ALICE.format(policy="fab", day=2, name=json.dumps(name)) + "history:\n" + "\n".join(entries) + "\n"
    history = parse_report(pasted).history
    assert [(h.person, h.penalty, h.infraction, h.day) for h in history] == [
        (name, "warning", "hidden-card-error", 2), (name, "warning", "hidden-card-error", 2),
        (name, "intellect-penalty", "hidden-card-error", 2)]
    only_bob = CliRunner().invoke(cli, ["log", str(log), "--player", "Bob", "--format", "json"])
    assert only_bob.exit_code == 0 and json.loads(only_bob.output) == []
    missing = CliRunner().invoke(cli, ["log", str(tmp_path / "none.jsonl")])
    assert missing.exit_code == 2 and "no event log at" in missing.output
