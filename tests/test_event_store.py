"""The event store (`rule --event`, `ppgcheck event ...`): the event's penalties counted
without retyping them, submitted once, voided and amended with an audit trail.

The repeat rule these tests lean on is FaB PPG 1.2: the 3rd gameplay infraction of
the same type in a day goes up one level (golden case ppg1_2-repeat-gameplay-third-fires);
a new day starts the count again.
"""
from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from ppgcheck import api
from ppgcheck.version import __version__
from ppgcheck.cli import cli
from ppgcheck.engine.ruling import PlayerRuling, RulingSet
from ppgcheck.errors import ResubmittedReport, StoreError
from ppgcheck.event import schema
from ppgcheck.event.store import EventStore
from ppgcheck.language.report import parse_report

ALICE = """\
policy: {policy}
rel: competitive
day: {day}
round: {round}
table: {table}
player: {name}
player: Bob

{name} drew 1 extra card.
"""
# two observations of one person the FaB pack relates today (only the highest penalty is issued)
RELATED = """\
policy: fab
rel: competitive
day: 2
player: Alice
player: Bob

Alice drew 1 extra card.
Alice shuffled an ordered set into her deck.
"""


def report(folder: Path, name: str = "Alice", day: int = 2, policy: str = "fab", file: str = "r.txt",
           round: int = 1, table: int = 12) -> Path:
    path = folder / file
    quoted = json.dumps(name) if not name.isalnum() else name
    path.write_text(ALICE.format(policy=policy, day=day, name=quoted, round=round, table=table), encoding="utf-8")
    return path


def invoke(*args, input: str | None = None):
    return CliRunner().invoke(cli, [str(a) for a in args], input=input)


def rule(path, event: Path, *more):
    return invoke("rule", path, "--event", event, "--judge", "Ann", *more)


def ruled(path: Path, event: Path, *more) -> dict:
    result = rule(path, event, "--format", "json", *more)
    assert result.exit_code in (0, 1), result.output
    [one] = json.loads(result.stdout)
    return one


def rows(event: Path, table: str) -> int:
    with sqlite3.connect(event) as db:
        return db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]


def counts(event: Path) -> dict[str, int]:
    return {t: rows(event, t) for t in ("reports", "rulings", "penalties", "counted", "audit", "persons")}


def test_the_third_report_of_the_day_is_upgraded_from_the_store_alone(tmp_path):
    event = tmp_path / "event.db"
    results = [ruled(report(tmp_path, file=f"r{i}.txt", round=i), event) for i in (1, 2, 3)]
    assert [r["rulings"][0]["penalty"] for r in results] == ["warning", "warning", "intellect-penalty"]
    assert results[2]["rulings"][0]["adjustments"][0]["kind"] == "repeat"
    assert [len(r["event"]["counted"]) for r in results] == [0, 1, 2]
    assert [p["id"] for p in results[2]["event"]["counted"]] == [1, 2]
    assert results[2]["event"]["upgrades"] == [{"player": "Alice", "infraction": "hidden-card-error",
                                                "to": "intellect-penalty",
                                                "reason": results[2]["rulings"][0]["adjustments"][0]["reason"],
                                                "section": "PPG 1.2"}]
    recorded = [r["event"]["recorded"][0] for r in results]
    assert [(p["player"], p["penalty"], p["infraction"], p["day"], p["round"], p["table"], p["judge"], p["source"])
            for p in recorded] == [("Alice", pen, "hidden-card-error", 2, i, 12, "Ann", str(tmp_path / f"r{i}.txt"))
                                   for i, pen in ((1, "warning"), (2, "warning"), (3, "intellect-penalty"))]


TRIGGER = "policy: fab\nrel: competitive\nday: 1\nround: {round}\nplayer: Alice\nplayer: Bob\n\nAlice missed a trigger\n"
RULE_BROKEN = ("policy: dci\nrel: regular\nday: 1\nround: {round}\nmatch: best of 3\nplayer: Alice\nplayer: Bob\n\n"
               "Alice broke a game rule\n")


def test_a_penalty_the_guide_does_not_record_is_logged_but_counted_by_no_later_ruling(tmp_path):
    """FaB PPG 1.4: "All penalties (except Caution) should be recorded".  Three Missed Triggers
    (a Caution each) at an event: the third is no 3rd of the day (PPG 1.2 would upgrade it), each
    Caution is in the log, none is given as history, and the export leaves them out."""
    event = tmp_path / "event.db"
    results = []
    for n in (1, 2, 3):
        (tmp_path / f"t{n}.txt").write_text(TRIGGER.format(round=n), encoding="utf-8")
        results.append(ruled(tmp_path / f"t{n}.txt", event))
    assert [r["rulings"][0]["penalty"] for r in results] == ["caution"] * 3
    assert [r["event"]["counted"] for r in results] == [[], [], []]
    assert [[p["penalty"] for p in r["event"]["recorded"]] for r in results] == [["caution"]] * 3
    assert results[0]["event"]["not_recorded"] == [{"penalty": "caution", "section": "PPG 1.4",
                                                    "text": "a Caution is a spoken, informal warning and is not recorded"}]
    text = rule(tmp_path / "t3.txt", event).output
    assert "logged #3 Alice: caution" in text and "counted in no later ruling" in text
    exported = invoke("event", "export", "--event", event)
    assert exported.exit_code == 0 and "missed-trigger" not in exported.stdout
    assert "3 penalties the guide does not record not exported: #1 (caution)" in exported.stderr
    shown = invoke("event", "show", "--event", event).output
    assert shown.count("[not recorded by the guide (PPG 1.4): counted in no ruling]") == 3


def test_a_caution_a_guide_notes_for_repeats_is_counted(tmp_path):
    """DCI UPG 20: "A Caution is noted for the duration of the tournament in case of repeated
    offense": the second Game Rule Violation at Regular REL counts the first one's Caution, and
    the Head Judge may upgrade it (UPG 40)."""
    event = tmp_path / "event.db"
    results = []
    for n in (1, 2):
        (tmp_path / f"g{n}.txt").write_text(RULE_BROKEN.format(round=n), encoding="utf-8")
        results.append(ruled(tmp_path / f"g{n}.txt", event))
    assert [r["rulings"][0]["penalty"] for r in results] == ["caution", "caution"]
    assert [p["penalty"] for p in results[1]["event"]["counted"]] == ["caution"]
    assert "warning" in results[1]["rulings"][0]["permitted"]
    assert results[0]["event"]["not_recorded"] == []


def test_every_ruling_keeps_its_report_judge_time_and_versions(tmp_path):
    event = tmp_path / "event.db"
    path = report(tmp_path)
    ruled(path, event)
    with sqlite3.connect(event) as db:
        db.row_factory = sqlite3.Row
        row = db.execute("SELECT * FROM reports JOIN rulings ON rulings.report_id = reports.id").fetchone()
    assert row["original"] == path.read_text() and row["source"] == str(path) and row["judge"] == "Ann"
    assert row["canonical"].startswith("policy: fab\n") and "table: 12" in row["canonical"]
    assert row["submitted_at"].endswith("Z") and row["ppgcheck_version"] == __version__
    assert row["rules_version"] == api.rules_version("fab") and row["rules_version"].startswith("sha256:")
    assert json.loads(row["ruling_json"])["rulings"][0]["infraction"] == "hidden-card-error"


def test_a_new_day_starts_the_count_again(tmp_path):
    event = tmp_path / "event.db"
    for i in (1, 2):
        ruled(report(tmp_path, file=f"r{i}.txt"), event)
    next_day = ruled(report(tmp_path, day=3, file="day3.txt"), event)
    assert next_day["rulings"][0]["penalty"] == "warning"
    assert len(next_day["event"]["counted"]) == 2        # given to the rules, which count per day


def test_only_the_reports_persons_and_policy_count(tmp_path):
    event = tmp_path / "event.db"
    for i in (1, 2):
        ruled(report(tmp_path, name="Carol", file=f"carol{i}.txt"), event)
    ruled(report(tmp_path, policy="dci", file="dci.txt"), event)
    alice = ruled(report(tmp_path), event)
    assert alice["rulings"][0]["penalty"] == "warning" and alice["event"]["counted"] == []


def test_a_name_that_looks_like_code_is_recorded_and_counted_as_a_name(tmp_path):
    name = 'x). #include "/etc/passwd". a('
    event = tmp_path / "event.db"
    results = [ruled(report(tmp_path, name=name, file=f"r{i}.txt"), event)["rulings"][0] for i in (1, 2, 3)]
    assert [r["player"] for r in results] == [name] * 3
    assert [r["penalty"] for r in results] == ["warning", "warning", "intellect-penalty"]
    shown = invoke("event", "show", "--event", event, "--player", name, "--format", "json")
    assert [p["player"] for p in json.loads(shown.stdout)] == [name] * 3


def test_exactly_the_issued_penalties_are_recorded(tmp_path):
    event = tmp_path / "event.db"
    path = tmp_path / "related.txt"
    path.write_text(RELATED)
    result = ruled(path, event)
    issued = [(r["infraction"], r["penalty"]) for r in result["rulings"] if r["issued"]]
    assert len(result["rulings"]) == 2 and issued      # (one issued, one absorbed by the FaB pack today)
    assert [(p["infraction"], p["penalty"]) for p in result["event"]["recorded"]] == issued


def test_a_typed_history_with_the_store_is_an_error_and_nothing_is_recorded(tmp_path):
    event = tmp_path / "event.db"
    path = report(tmp_path)
    path.write_text(path.read_text() + "\nhistory:\n  Alice: warning for hidden-card-error, day 2\n")
    result = rule(path, event)
    assert result.exit_code == 2
    assert result.output == (f"{path}:12:3: error: this report has a `history:` block, "
                             "and the event store gives the history: use one of them\n"
                             "12 |   Alice: warning for hidden-card-error, day 2\n"
                             "       ^\n")
    assert rows(event, "reports") == 0


def test_a_batch_is_ruled_in_order_and_a_bad_file_does_not_stop_it(tmp_path):
    event = tmp_path / "event.db"
    folder = tmp_path / "reports"
    folder.mkdir()
    for i in (1, 2, 4):
        report(folder, file=f"{i}.txt")
    (folder / "3.txt").write_text("policy: fab\nplayer: Alice\nAlice juggled.\n")
    result = rule(folder, event, "--format", "jsonl")
    assert result.exit_code == 2 and "3.txt:3" in result.stderr
    penalties = [json.loads(line)["rulings"][0]["penalty"] for line in result.stdout.splitlines()]
    assert penalties == ["warning", "warning", "intellect-penalty"]


def test_the_same_report_again_prints_the_stored_ruling_and_writes_nothing(tmp_path):
    event = tmp_path / "event.db"
    path = report(tmp_path)
    first = rule(path, event)
    before = counts(event)
    again = rule(path, event)
    assert again.exit_code == first.exit_code == 0 and counts(event) == before
    ruling, _, event_part = again.stdout.partition(f"  event {event}: ")
    assert ruling == first.stdout.partition(f"  event {event}: ")[0]
    assert event_part.startswith("already recorded as report #1 by Ann at ") and "nothing written" in event_part
    # a comment or blank line more is the same report: identity is the canonical print
    path.write_text("# table 12, the judge's note\n" + path.read_text() + "\n\n")
    assert json.loads(rule(path, event, "--format", "json").stdout)[0]["event"]["outcome"] == "already-recorded"
    assert counts(event) == before


def test_a_changed_report_under_the_same_name_supersedes_only_with_amend(tmp_path):
    event = tmp_path / "event.db"
    path = report(tmp_path, file="r5.txt")
    for i in (1, 2):
        ruled(report(tmp_path, file=f"earlier{i}.txt"), event)
    first = ruled(path, event)
    assert first["rulings"][0]["penalty"] == "intellect-penalty"        # the third of the day
    ruled(report(tmp_path, file="later.txt"), event)
    report(tmp_path, name="Carol", file="r5.txt")        # the judge named the wrong player
    before = counts(event)
    refused = rule(path, event)
    assert refused.exit_code == 2 and counts(event) == before
    assert refused.stderr.startswith(f"{path}:1:1: error: `{path}` is already in the event with other content "
                                     "(report #3): pass --amend to supersede it")
    amended = ruled(path, event, "--amend")
    assert amended["event"]["outcome"] == "amended" and amended["event"]["superseded"] == 3
    assert amended["rulings"][0]["player"] == "Carol" and amended["event"]["counted"] == []
    # Alice's penalty from r5.txt no longer counts; the amended report keeps r5's place
    alice = invoke("event", "show", "--event", event, "--player", "Alice", "--all", "--format", "json")
    assert [(p["source"].rsplit("/", 1)[-1], p["status"]) for p in json.loads(alice.stdout)] == [
        ("earlier1.txt", "in-force"), ("earlier2.txt", "in-force"), ("r5.txt", "superseded"),
        ("later.txt", "in-force")]
    text = rule(path, event, "--amend")
    assert "already recorded as report #5" in text.stdout


def test_void_stops_a_penalty_counting_and_history_says_who_when_and_why(tmp_path):
    event = tmp_path / "event.db"
    for i in (1, 2):
        ruled(report(tmp_path, file=f"r{i}.txt"), event)
    voided = invoke("event", "void", "2", "--reason", "ruled on the wrong player", "--judge", "Bea", "--event", event)
    assert voided.exit_code == 0, voided.output
    assert voided.stdout.startswith("voided #2 Alice: warning for hidden-card-error, day 2, round 1, table 12")
    third = ruled(report(tmp_path, file="r3.txt"), event)
    assert third["rulings"][0]["penalty"] == "warning" and [p["id"] for p in third["event"]["counted"]] == [1]
    again = invoke("event", "void", "2", "--reason", "twice", "--judge", "Bea", "--event", event)
    assert again.exit_code == 2 and again.stderr == ("penalty #2 is void: only a penalty in force or pending "
                                                     "can be changed\n")
    missing = invoke("event", "void", "99", "--reason", "x", "--judge", "Bea", "--event", event)
    assert missing.exit_code == 2 and missing.stderr == f"no penalty #99 in `{event}`\n"
    history = invoke("event", "history", "--event", event, "--penalty", "2", "--format", "json")
    entries = json.loads(history.stdout)
    assert [(e["action"], e["judge"], e["reason"]) for e in entries] == [
        ("submit", "Ann", ""), ("void", "Bea", "ruled on the wrong player")]
    assert rows(event, "penalties") == 3           # nothing is deleted


def test_a_ruling_whose_history_changed_needs_ruling_again_until_it_is(tmp_path):
    """After a void, the rulings that counted the penalty are listed as needing ruling again
    on every `event show` (not only in the void's output), until a rule-again counts the
    history of now; a change of notes changes no history."""
    event = tmp_path / "event.db"
    for i in (1, 2, 3):
        ruled(report(tmp_path, file=f"r{i}.txt", round=i), event)

    def needing() -> str:
        lines = [line for line in invoke("event", "show", "--event", event).stdout.splitlines()
                 if line.startswith("needs ruling again")]
        return lines[0] if lines else ""
    invoke("event", "amend", "1", "--notes", "table 12, seat B", "--reason", "typo", "--judge", "Bea",
           "--event", event)
    assert needing() == ""                                     # the same penalty: the same history
    invoke("event", "void", "4", "--reason", "wrong player", "--judge", "Bea", "--event", event)
    assert needing().startswith("needs ruling again: report #2, #3, whose rulings counted another history")
    assert api.stale_rulings(event) == [2, 3]
    assert invoke("event", "rerule", "3", "--reason", "#4 voided", "--judge", "Bea", "--event", event).exit_code == 0
    assert needing().startswith("needs ruling again: report #2, whose ruling")
    stands = invoke("event", "rerule", "2", "--reason", "#4 voided", "--judge", "Bea", "--event", event)
    assert "its penalties stand" in stands.stdout and needing() == "" and api.stale_rulings(event) == []


def test_a_pending_penalty_chosen_later_makes_the_later_rulings_of_the_person_stale(tmp_path):
    """A pending penalty counts in no ruling; once the Head Judge chooses it, the person's later
    rulings would have counted it: the amend names them, and they need ruling again."""
    event = tmp_path / "event.db"
    stalled = tmp_path / "stalled.txt"
    stalled.write_text("policy: dci\nrel: competitive\nround: 1\nplayer: Carol\nplayer: Dan\n\nCarol stalled\n")
    assert ruled(stalled, event)["event"]["recorded"][0]["status"] == "pending"
    later = tmp_path / "later.txt"
    later.write_text("policy: dci\nrel: competitive\nround: 2\nplayer: Carol\nplayer: Dan\n\n"
                     "Carol drew an extra card\n")
    assert ruled(later, event)["event"]["counted"] == []
    assert api.stale_rulings(event) == []
    chosen = invoke("event", "amend", "1", "--penalty", "disqualification-without-prizes", "--reason", "on purpose",
                    "--judge", "Hana", "--event", event)
    assert "the rulings of report #2 counted it as it was, or would count it as it is now" in chosen.stdout
    assert api.stale_rulings(event) == [2]


def test_void_a_whole_report(tmp_path):
    event = tmp_path / "event.db"
    path = tmp_path / "two.txt"
    path.write_text(RELATED.replace("Alice shuffled", "Bob shuffled"))
    ruled(path, event)
    result = invoke("event", "void", "--report", "1", "--reason", "wrong table", "--judge", "Bea", "--event", event)
    assert result.exit_code == 0 and result.stdout.startswith("voided report #1 and 2 penalties")
    assert json.loads(invoke("event", "show", "--event", event, "--format", "json").stdout) == []
    assert invoke("event", "check", "--event", event).exit_code == 0


def test_a_voided_penalty_names_the_rulings_that_counted_it(tmp_path):
    event = tmp_path / "event.db"
    for i in (1, 2, 3):
        ruled(report(tmp_path, file=f"r{i}.txt"), event)
    result = invoke("event", "void", "1", "--reason", "x", "--judge", "Bea", "--event", event)
    assert "counted by the rulings of report #2, #3" in result.stdout


def test_amend_chooses_another_permitted_penalty_and_keeps_the_old_row(tmp_path):
    event = tmp_path / "event.db"
    ruled(report(tmp_path), event)
    refused = invoke("event", "amend", "1", "--penalty", "game-loss", "--reason", "x", "--judge", "Bea",
                     "--event", event)
    assert refused.exit_code == 2 and refused.stderr == ("`game-loss` is not a penalty the guide permits for "
                                                         "penalty #1 (hidden-card-error): it permits `warning`\n")
    result = invoke("event", "amend", "1", "--notes", "player was warned at the table", "--reason", "notes",
                    "--judge", "Bea", "--event", event)
    assert result.exit_code == 0 and result.stdout.startswith("amended #1: now #2 Alice: warning")
    shown = json.loads(invoke("event", "show", "--event", event, "--all", "--format", "json").stdout)
    assert [(p["id"], p["status"], p["notes"]) for p in shown] == [
        (1, "superseded", "Alice drew 1 extra card"), (2, "in-force", "player was warned at the table")]
    audit = json.loads(invoke("event", "history", "--event", event, "--penalty", "1", "--format", "json").stdout)
    assert [e["action"] for e in audit] == ["submit", "amend"]
    assert audit[1]["detail"]["replaces"] == 1 and audit[1]["penalty_id"] == 2


def test_a_judge_call_outside_what_the_guide_permits_is_an_error(tmp_path):
    event = tmp_path / "event.db"
    path = report(tmp_path)
    path.write_text(path.read_text() + "judge call: hidden-card-error, game-loss\n")
    result = rule(path, event)
    assert result.exit_code == 2 and rows(event, "reports") == 0
    assert result.stderr.startswith(f"{path}:10:32: error: judge call `game-loss` for Alice's hidden-card-error "
                                    "is not a penalty the guide permits here: it permits `warning`")
    agreeing = report(tmp_path, file="agrees.txt")
    agreeing.write_text(agreeing.read_text() + "judge call: hidden-card-error, warning\n")
    assert ruled(agreeing, event)["event"]["recorded"][0]["chosen_by"] == "guide"
    chosen = rule(report(tmp_path, file="c.txt"), event, "--choose", "hidden-card-error=game-loss")
    assert chosen.exit_code == 2 and "--choose `game-loss` for Alice's hidden-card-error" in chosen.stderr
    bad = rule(report(tmp_path, file="c.txt"), event, "--choose", "hidden-card-error")
    assert bad.exit_code == 2 and "expected INFRACTION=PENALTY" in bad.stderr


def test_a_refused_judge_call_names_the_fact_that_would_give_it(tmp_path):
    """A judge who calls a penalty the guide gives only on a fact the report leaves out
    (some cards already left the mixed group: an Intellect Penalty) is told that fact, not
    only what the guide permits as written; a call no fact gives is told no more."""
    event = tmp_path / "event.db"
    path = report(tmp_path)
    path.write_text(path.read_text() + "judge call: hidden-card-error, intellect-penalty\n")
    result = rule(path, event)
    assert result.exit_code == 2 and rows(event, "reports") == 0
    first = result.stderr.splitlines()[0]
    assert first.endswith("it permits `warning`; the guide gives `intellect-penalty` if the report says: "
                          "Alice drew 1 extra card, some cards already left the mixed group"), first
    path.write_text(path.read_text().replace("intellect-penalty", "disqualification"))
    refused = rule(path, event).stderr.splitlines()[0]
    assert refused.endswith("it permits `warning`"), refused


def _fake_rule(penalty: str | None, permitted: list[str]):
    """A ruling the guide leaves to the judge (the v2 model: no default, a permitted set)."""
    def rule(report):
        ruling = PlayerRuling(1, "Alice", "cheating", "X 1", None, penalty, penalty is not None)
        ruling.permitted = permitted
        return RulingSet(report.name, "fab", ["Alice drew 1 extra card"], rulings=[ruling])
    return rule


def test_a_ruling_without_a_default_is_pending_until_the_judge_chooses(tmp_path):
    event = tmp_path / "event.db"
    store = EventStore(event, create=True)
    choices = ["disqualification", "game-loss"]
    def submit(round: int, rule):
        text = ALICE.format(policy="fab", day=1, round=round, table=1, name="Alice")
        return store.submit(parse_report(text, f"r{round}.txt"), "fab", "Ann", rule, rules_version="r", version="v")
    sub = submit(1, _fake_rule(None, choices))
    (pending,) = sub.recorded
    assert (pending.status, pending.penalty, pending.permitted) == ("pending", None, choices)
    from ppgcheck.cli.event import submission_text
    assert ("pending #1 Alice: cheating — the guide names no default penalty; the judge chooses one of "
            "`disqualification`, `game-loss`") in submission_text(sub, explain=False)
    later = submit(2, _fake_rule("warning", ["warning"]))
    assert later.counted == []                  # a pending penalty does not count
    with pytest.raises(StoreError, match="penalty #1 is pending: choose its penalty with --penalty"):
        store.amend(1, "notes only", "Bea", notes="x")
    with pytest.raises(StoreError, match="`warning` is not a penalty the guide permits"):
        store.amend(1, "HJ", "Bea", penalty="warning")
    chosen = store.amend(1, "Head Judge chose", "Bea", penalty="game-loss")
    assert (chosen.status, chosen.penalty, chosen.chosen_by) == ("in-force", "game-loss", "judge")
    third = submit(3, _fake_rule("warning", ["warning"]))
    assert [p.id for p in third.counted] == [later.recorded[0].id, chosen.id]


def test_no_count_is_capped(tmp_path):
    """Eight identical earlier penalties are all counted (a typed history takes at most six)."""
    event = tmp_path / "event.db"
    log = tmp_path / "old.jsonl"
    line = {"policy": "fab", "player": "Alice", "penalty": "warning", "infraction": "hidden-card-error", "day": 2}
    log.write_text((json.dumps(line) + "\n") * 8)
    assert invoke("event", "import", log, "--judge", "Ann", "--event", event).exit_code == 0
    result = ruled(report(tmp_path), event)
    assert len(result["event"]["counted"]) == 8
    assert result["rulings"][0]["penalty"] == "intellect-penalty"


def test_time_extensions_are_summed_per_round_and_table(tmp_path):
    event = tmp_path / "event.db"
    for i, (round, table) in enumerate(((5, 12), (5, 12), (5, 3), (6, 12))):
        path = report(tmp_path, name="Alice" if i % 2 else "Carol", file=f"t{i}.txt", round=round, table=table)
        path.write_text(path.read_text() + f"the ruling took {i + 2} minutes\n")
        ruled(path, event)
    result = invoke("event", "show", "--event", event, "--time-extensions", "--format", "json")
    summary = [(r["round"], r["table"], r["minutes"], len(r["sources"])) for r in json.loads(result.stdout)]
    assert summary == [(5, 3, 4, 1), (5, 12, 2 + 3, 2), (6, 12, 5, 1)]


def test_time_extensions_of_the_same_round_and_table_on_two_days_are_apart(tmp_path):
    event = tmp_path / "event.db"
    for i, day in enumerate((1, 2, 2)):
        path = report(tmp_path, name="Alice" if i % 2 else "Carol", file=f"d{i}.txt", day=day, round=3, table=12)
        path.write_text(path.read_text() + f"the ruling took {i + 2} minutes\n")
        ruled(path, event)
    result = invoke("event", "show", "--event", event, "--time-extensions", "--format", "json")
    summary = [(r["day"], r["round"], r["table"], r["minutes"]) for r in json.loads(result.stdout)]
    assert summary == [(1, 3, 12, 2), (2, 3, 12, 3 + 4)]
    text = invoke("event", "show", "--event", event, "--time-extensions").stdout
    assert "  day 1, round 3, table 12: 2 minutes" in text and "  day 2, round 3, table 12: 7 minutes" in text


def test_show_filters_by_player_day_round_and_table(tmp_path):
    event = tmp_path / "event.db"
    for i, (name, day, round, table) in enumerate((("Alice", 1, 1, 1), ("Carol", 1, 2, 1), ("Alice", 2, 3, 4))):
        ruled(report(tmp_path, name=name, day=day, round=round, table=table, file=f"s{i}.txt"), event)

    def shown(*filters) -> list[tuple]:
        out = invoke("event", "show", "--event", event, *filters, "--format", "json")
        return [(p["player"], p["day"], p["round"], p["table"]) for p in json.loads(out.stdout)]
    assert shown("--player", "Alice") == [("Alice", 1, 1, 1), ("Alice", 2, 3, 4)]
    assert shown("--day", "1") == [("Alice", 1, 1, 1), ("Carol", 1, 2, 1)]
    assert shown("--round", "2") == [("Carol", 1, 2, 1)]
    assert shown("--table", "4") == [("Alice", 2, 3, 4)]
    text = invoke("event", "show", "--event", event, "--table", "1").stdout
    assert text.splitlines()[0] == f"{event} (event): 2 penalties of table 1"


def test_the_store_is_safe_to_share_between_threads(tmp_path):
    event = tmp_path / "event.db"
    store = api.open_event(event, create=True)
    texts = [ALICE.format(policy="fab", day=1, round=i + 1, table=1, name="Alice") for i in range(12)]
    errors: list[BaseException] = []

    def judge(part: list[int]) -> None:
        try:
            for i in part:
                (prepared,) = api.prepare([parse_report(texts[i], f"t{i}.txt")])
                api.submit_prepared(store, *prepared, "Ann")
        except BaseException as exc:      # noqa: BLE001 - reported below
            errors.append(exc)
    threads = [threading.Thread(target=judge, args=([i for i in range(12) if i % 4 == k],)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    subs = [store.report(i) for i in range(1, 13)]
    # serialised: each ruling counted exactly the penalties recorded before it
    assert sorted(len(s.counted) for s in subs) == list(range(12))
    assert all([p.id for p in s.counted] == list(range(1, s.recorded[0].id)) for s in subs)


# --- the retired JSON Lines log -------------------------------------------------------------

def test_the_event_log_is_retired_with_a_way_forward(tmp_path):
    result = invoke("rule", report(tmp_path), "--event-log", "day1.jsonl")
    assert result.exit_code == 2 and "`ppgcheck event import day1.jsonl --event EVENT.db --judge NAME`" in result.stderr
    log = invoke("log", "day1.jsonl", "--player", "Alice")
    assert log.exit_code == 2 and log.stderr.startswith("`ppgcheck log` is retired")


def test_an_old_log_imports_once_and_its_penalties_count(tmp_path):
    event = tmp_path / "event.db"
    log = tmp_path / "day2.jsonl"
    log.write_text("".join(json.dumps({"policy": "fab", "player": "Alice", "penalty": "warning",
                                       "infraction": "hidden-card-error", "day": 2, "report": f"r{i}.txt"}) + "\n"
                           for i in (1, 2)))
    first = invoke("event", "import", log, "--judge", "Ann", "--event", event)
    assert first.exit_code == 0 and first.stdout == f"imported 2 penalties from {log} (import #1)\n"
    again = invoke("event", "import", log, "--judge", "Ann", "--event", event)
    assert again.stdout == f"{log} was already imported (import #1): nothing written\n"
    assert ruled(report(tmp_path), event)["rulings"][0]["penalty"] == "intellect-penalty"


@pytest.mark.parametrize("content, message", [
    ("not json\n", "{path}:1: not a JSON object"),
    ('{"policy": "fab", "player": "Alice", "penalty": "warning"}\n',
     "{path}:1: an event log line needs the strings `policy`, `player`, `penalty`, `infraction`"),
    ('{"policy": "fab", "player": "Alice", "penalty": "warning", "infraction": "card-juggling"}\n',
     "{path}:1: unknown infraction `card-juggling` for policy `fab`"),
    ('{"policy": "fab", "player": "Alice", "penalty": "warning", "infraction": "hidden-card-error", "day": 0}\n',
     "{path}:1: `day` must be a positive whole number or empty, not `0`"),
])
def test_a_bad_log_line_imports_nothing(tmp_path, content, message):
    event = tmp_path / "event.db"
    log = tmp_path / "log.jsonl"
    good = '{"policy": "fab", "player": "Bob", "penalty": "warning", "infraction": "hidden-card-error"}\n'
    log.write_text(good + content.replace("1:", "2:"))
    result = invoke("event", "import", log, "--judge", "Ann", "--event", event)
    assert result.exit_code == 2 and result.stderr.startswith(message.format(path=log).replace(":1:", ":2:"))
    assert "Traceback" not in result.output
    assert not event.exists() or rows(event, "penalties") == 0


@pytest.mark.parametrize("csv_text, message", [
    ("player,infraction,penalty\nAlice,hidden-card-error,warning\n", "{path}:1: the header has no column `policy`"),
    ("player,infraction,penalty,policy,tabel\nAlice,hidden-card-error,warning,fab,3\n",
     "{path}:2: unknown field `tabel`"),
    ("player,infraction,penalty,policy,round\nAlice,hidden-card-error,warning,fab,three\n",
     "{path}:2: `round` must be a positive whole number or empty, not `three`"),
    ("player,infraction,penalty,policy\nAlice,hidden-card-error,warning,fab,extra\n",
     "{path}:2: more cells than the header has columns"),
    ("player,infraction,penalty,policy\nAlice,hidden-card-error,,fab\n", "{path}:2: `penalty` is missing"),
    ("player,infraction,penalty,policy\nAlice,hidden-card-error,warning,mtg\n", "{path}:2: unknown policy `mtg`"),
])
def test_a_bad_csv_row_imports_nothing(tmp_path, csv_text, message):
    event = tmp_path / "event.db"
    path = tmp_path / "penalties.csv"
    path.write_text(csv_text)
    result = invoke("event", "import", path, "--judge", "Ann", "--event", event)
    assert result.exit_code == 2 and result.stderr.startswith(message.format(path=path)), result.stderr
    assert not event.exists() or rows(event, "penalties") == 0


def test_json_export_imports_back_to_the_same_rows(tmp_path):
    event, copy = tmp_path / "event.db", tmp_path / "copy.db"
    for i in (1, 2, 3):
        ruled(report(tmp_path, file=f"r{i}.txt", round=i), event)
    exported = tmp_path / "penalties.json"
    assert invoke("event", "export", "--format", "json", "--output", exported, "--event", event).exit_code == 0
    assert invoke("event", "import", exported, "--judge", "Bea", "--event", copy).exit_code == 0
    again = invoke("event", "export", "--format", "json", "--event", copy)
    assert json.loads(again.stdout) == json.loads(exported.read_text())
    assert [r["penalty"] for r in json.loads(again.stdout)] == ["warning", "warning", "intellect-penalty"]


# --- faults ----------------------------------------------------------------------------------

def test_a_damaged_or_foreign_file_is_a_clear_error_naming_event_check(tmp_path):
    path = report(tmp_path)
    damaged = tmp_path / "damaged.db"
    damaged.write_bytes(b"this is not a database at all" * 200)
    result = rule(path, damaged)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.stderr.strip().endswith(f"run `ppgcheck event check --event {damaged}`")
    checked = invoke("event", "check", "--event", damaged)
    assert checked.exit_code == 1 and "not an SQLite database" in checked.stdout
    foreign = tmp_path / "foreign.db"
    with sqlite3.connect(foreign) as db:
        db.execute("CREATE TABLE scores (player TEXT)")
    result = invoke("event", "show", "--event", foreign)
    assert result.exit_code == 2 and result.stderr == (
        f"`{foreign}`: an SQLite file, but not a ppgcheck event store: run `ppgcheck event check --event {foreign}`\n")
    assert "not a ppgcheck event store" in invoke("event", "check", "--event", foreign).stdout


def test_a_store_from_a_newer_ppgcheck_is_refused(tmp_path):
    event = tmp_path / "event.db"
    ruled(report(tmp_path), event)
    with sqlite3.connect(event) as db:
        db.execute(f"PRAGMA user_version = {schema.SCHEMA_VERSION + 1}")
    result = invoke("event", "show", "--event", event)
    assert result.exit_code == 2 and "written by a newer ppgcheck" in result.stderr


def test_event_check_finds_what_the_store_promises_and_a_partial_write(tmp_path):
    event = tmp_path / "event.db"
    for i in (1, 2):
        ruled(report(tmp_path, file=f"r{i}.txt"), event)
    ok = invoke("event", "check", "--event", event)
    assert ok.exit_code == 0 and ok.stdout.startswith(f"{event}: ok — 2 reports, 2 penalties")
    with sqlite3.connect(event) as db:
        db.execute("PRAGMA foreign_keys = OFF")
        db.execute("DELETE FROM counted WHERE penalty_id = 2")
        db.execute("DELETE FROM penalties WHERE id = 2")          # what a torn write would leave
        db.execute("UPDATE penalties SET status = 'void' WHERE id = 1")
    broken = invoke("event", "check", "--event", event)
    assert broken.exit_code == 1
    assert broken.stdout.splitlines()[1:] == ["  report #2: its ruling issued 1 penalties and 0 are recorded "
                                              "(a partial write)",
                                              "  penalty #1 is void with no audit entry saying who voided it"]


@pytest.fixture
def connect_with(monkeypatch):
    """Open the store's connections with extra settings (a full disk, a read-only file)."""
    def patch(uri_mode: str | None = None, pragma: str | None = None) -> None:
        original = schema.connect

        def connect(path, busy_timeout=schema.BUSY_TIMEOUT):
            if uri_mode:
                db = sqlite3.connect(f"file:{path}?mode={uri_mode}", uri=True, timeout=busy_timeout,
                                     isolation_level=None)
                db.row_factory = sqlite3.Row
            else:
                db = original(path, busy_timeout)
            if pragma:
                db.execute(pragma)
            return db
        monkeypatch.setattr(schema, "connect", connect)
    return patch


def test_a_full_disk_writes_nothing(tmp_path, connect_with):
    event = tmp_path / "event.db"
    ruled(report(tmp_path), event)
    before = counts(event)
    pages = sqlite3.connect(event).execute("PRAGMA page_count").fetchone()[0]
    connect_with(pragma=f"PRAGMA max_page_count = {pages}")
    long_name = "A" * 25_000          # more pages than the disk has, within a report's 64 KB (twice the name)
    result = rule(report(tmp_path, name=long_name, file="big.txt"), event)
    assert result.exit_code == 2 and result.stderr == f"the disk holding `{event}` is full: nothing was written\n"
    assert counts(event) == before and result.stdout == ""


def test_a_read_only_store_writes_nothing_and_still_reads(tmp_path, connect_with):
    event = tmp_path / "event.db"
    ruled(report(tmp_path), event)
    before = counts(event)
    connect_with(uri_mode="ro")
    result = rule(report(tmp_path, file="r2.txt"), event)
    assert result.exit_code == 2 and result.stderr == f"`{event}` is read-only: nothing was written\n"
    assert counts(event) == before
    assert json.loads(invoke("event", "show", "--event", event, "--format", "json").stdout)[0]["player"] == "Alice"


def test_a_store_locked_too_long_is_an_error_and_nothing_is_written(tmp_path, monkeypatch):
    event = tmp_path / "event.db"
    ruled(report(tmp_path), event)
    before = counts(event)
    monkeypatch.setattr(schema, "BUSY_TIMEOUT", 0.3)
    other = sqlite3.connect(event, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")           # another judge's ruling that never ends
    try:
        result = rule(report(tmp_path, file="r2.txt"), event)
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert result.exit_code == 2 and result.stderr == (
        f"`{event}` stayed locked by another judge's ruling for more than 0.3 s: nothing was written; try again\n")
    assert counts(event) == before


def test_a_judge_waits_as_long_as_other_judges_rulings_go_in(tmp_path, monkeypatch):
    """The lock wait fails only when one ruling kept the lock past the bound: a judge who loses
    every race to other judges whose rulings keep going in (eight at once on a slow machine)
    waits for them, however long that is in all."""
    event = tmp_path / "event.db"
    ruled(report(tmp_path), event)
    monkeypatch.setattr(schema, "BUSY_TIMEOUT", 0.3)
    other = sqlite3.connect(event, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    busy = threading.Event()

    def other_judges() -> None:        # a ruling written every 0.1 s for 1.2 s, the lock taken again at once
        busy.set()
        for n in range(12):
            time.sleep(0.1)
            other.execute("INSERT INTO persons (name) VALUES (?)", (f"judge{n}",))
            other.execute("COMMIT")
            other.execute("BEGIN IMMEDIATE")
        other.execute("COMMIT")
    writer = threading.Thread(target=other_judges)
    writer.start()
    busy.wait()
    try:
        result = rule(report(tmp_path, file="r2.txt"), event)
    finally:
        writer.join()
        other.close()
    assert result.exit_code in (0, 1), result.stderr
    assert counts(event)["reports"] == 2


def test_event_commands_need_a_store_and_a_judge(tmp_path):
    missing = invoke("event", "show", "--event", tmp_path / "none.db")
    assert missing.exit_code == 2 and missing.stderr.startswith(f"no event store at `{tmp_path / 'none.db'}`")
    no_judge = CliRunner().invoke(cli, ["rule", str(report(tmp_path)), "--event", str(tmp_path / "e.db")],
                                  env={"PPGCHECK_JUDGE": ""})
    assert no_judge.exit_code == 2 and no_judge.stderr == "--event needs --judge NAME: who submits the reports\n"
    amend = invoke("rule", report(tmp_path), "--amend")
    assert amend.exit_code == 2 and amend.stderr == "--amend needs --event EVENT.db\n"


def test_reports_from_stdin_are_told_apart_by_their_content(tmp_path):
    event = tmp_path / "event.db"
    texts = [ALICE.format(policy="fab", day=1, round=r, table=1, name="Alice") for r in (1, 2)]
    outcomes = [json.loads(invoke("rule", "-", "--event", event, "--judge", "Ann", "--format", "json",
                                  input=text).stdout)[0]["event"]["outcome"] for text in texts + texts[:1]]
    assert outcomes == ["recorded", "recorded", "already-recorded"]


def test_the_library_submits_a_text_and_bad_input_records_nothing(tmp_path):
    from ppgcheck.errors import ReportError
    event = tmp_path / "event.db"
    one = ALICE.format(policy="fab", day=1, round=1, table=1, name="Alice")
    with pytest.raises(ReportError):
        api.submit_report(event, one + "---\n" + one.replace("drew 1 extra card", "juggled"), "Ann", "two.txt")
    assert not event.exists()
    (sub,) = api.submit_report(event, one, "Ann", "one.txt")
    assert (sub.outcome, sub.report_id, sub.source, sub.judge) == ("recorded", 1, "one.txt", "Ann")
    assert sub.ruling["rulings"][0]["penalty"] == "warning" and sub.exit_code == 0
    assert sub.as_dict()["recorded"][0]["penalty"] == "warning"
    (again,) = api.submit_report(event, one, "Bea", "one.txt")
    assert (again.outcome, again.judge, again.ruling) == ("already-recorded", "Ann", sub.ruling)


def test_an_older_store_is_migrated_in_place_keeping_its_record(tmp_path, monkeypatch):
    event = tmp_path / "event.db"
    ruled(report(tmp_path), event)
    step = "ALTER TABLE reports ADD COLUMN venue TEXT NOT NULL DEFAULT '';"
    monkeypatch.setattr(schema, "MIGRATIONS", [*schema.MIGRATIONS, step])
    monkeypatch.setattr(schema, "SCHEMA_VERSION", len(schema.MIGRATIONS) + 1)
    shown = invoke("event", "show", "--event", event, "--format", "json")
    assert shown.exit_code == 0 and json.loads(shown.stdout)[0]["player"] == "Alice"
    with sqlite3.connect(event) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == schema.SCHEMA_VERSION
        assert db.execute("SELECT venue FROM reports").fetchall() == [("",)]


# --- the outcome of a match, beside the penalties (issue 18) -----------------------------------

END_OF_MATCH = """\
policy: fab
rel: competitive
round: 5, swiss
table: 7
player: Alice
player: Bob
Alice drew 1 extra card.
time was called during Alice's turn
{last}
"""


def test_a_match_result_is_recorded_beside_the_penalties_and_follows_its_report(tmp_path):
    event = tmp_path / "event.db"
    path = tmp_path / "t7.txt"
    path.write_text(END_OF_MATCH.format(last="the extra turns are over"), encoding="utf-8")
    data = ruled(path, event, "--judge", "Ann")
    assert data["outcome"]["result"] == "draw"
    assert data["event"]["match_result"]["result"] == "draw" and data["event"]["recorded"][0]["penalty"] == "warning"
    shown = invoke("event", "show", "--results", "--event", event)
    assert shown.exit_code == 0
    # (no `day:`: recorded on the event's latest day, day 1 before any, as the ruling says)
    assert "report #1, day 1, round 5, table 7: the match is a draw (TRP 3)" in shown.stdout
    # an amended report's result no longer stands: the new one's does
    path.write_text(END_OF_MATCH.format(last="Bob conceded after time was called, before any action"), encoding="utf-8")
    ruled(path, event, "--judge", "Ann", "--amend")
    results = json.loads(invoke("event", "show", "--results", "--all", "--event", event, "--format", "json").stdout)
    assert [(r["report_id"], r["result"], r["winner"], r["status"]) for r in results] == [
        (1, "draw", None, "superseded"), (2, "win", "Alice", "in-force")]
    in_force = json.loads(invoke("event", "show", "--results", "--event", event, "--format", "json").stdout)
    assert [r["report_id"] for r in in_force] == [2]
    assert "match result recorded: Alice wins the match (TRP 3)" in invoke(
        "event", "show", "--report", "2", "--event", event).stdout


def test_a_report_with_no_outcome_records_no_match_result(tmp_path):
    event = tmp_path / "event.db"
    ruled(report(tmp_path), event)
    assert rows(event, "match_results") == 0


def test_a_version_1_store_gains_the_match_results_table(tmp_path):
    event = tmp_path / "event.db"
    ruled(report(tmp_path), event)
    with sqlite3.connect(event) as db:       # the store as version 1 wrote it
        db.execute("DROP TABLE match_results")
        db.execute("PRAGMA user_version = 1")
    shown = invoke("event", "show", "--results", "--event", event)
    assert shown.exit_code == 0 and "0 match results" in shown.stdout
    with sqlite3.connect(event) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == schema.SCHEMA_VERSION == 5
        assert db.execute("SELECT COUNT(*) FROM penalties").fetchone()[0] == 1


def test_export_results_gives_the_outcomes_in_force(tmp_path):
    """`event export --results`: one row per outcome of a ruling in force (an amended report's
    outcome is replaced by the new one's), in CSV and JSON, and no penalty rows."""
    event = tmp_path / "event.db"
    path = tmp_path / "t7.txt"
    path.write_text(END_OF_MATCH.format(last="the extra turns are over"), encoding="utf-8")
    ruled(path, event, "--judge", "Ann")
    path.write_text(END_OF_MATCH.format(last="Bob conceded after time was called, before any action"),
                    encoding="utf-8")
    ruled(path, event, "--judge", "Ann", "--amend")
    as_json = invoke("event", "export", "--results", "--format", "json", "--event", event)
    assert as_json.exit_code == 0
    assert [(r["round"], r["table"], r["kind"], r["result"], r["winner"], r["section"])
            for r in json.loads(as_json.stdout)] == [(5, 7, "result", "win", "Alice", "TRP 3")]
    as_csv = invoke("event", "export", "--results", "--event", event).stdout.splitlines()
    assert as_csv[0] == "day,round,table,kind,scope,result,winner,player,penalty,step,section,report"
    assert len(as_csv) == 2 and ",5,7,result,match,win,Alice," in as_csv[1]
    penalties = invoke("event", "export", "--event", event).stdout.splitlines()
    assert penalties[0].startswith("player,round,table,infraction,penalty")


def _submit(store: EventStore, path: Path) -> None:
    [(parsed, policy_id)] = api.prepare([parse_report(path.read_text(encoding="utf-8"), str(path))])
    api.submit_prepared(store, parsed, policy_id, "Ann")


def test_grouped_submissions_are_committed_together_each_whole_or_nothing(tmp_path):
    """The station records a batch's submissions in one transaction (one sync to disk): none
    is in the store before the group ends, a refused one leaves the others, and the later ones
    count the earlier ones as the event's history."""
    event = tmp_path / "event.db"
    store = api.open_event(event, create=True)
    _submit(store, report(tmp_path, file="first.txt", round=1))
    report(tmp_path, name="Carol", file="first.txt")                 # edited: refused without --amend
    before = counts(event)
    with store.grouped():
        _submit(store, report(tmp_path, file="r2.txt", round=2))
        with pytest.raises(ResubmittedReport):
            _submit(store, tmp_path / "first.txt")
        _submit(store, report(tmp_path, file="r3.txt", round=3))
        assert counts(event) == before                # another connection sees nothing yet
    assert counts(event)["reports"] == before["reports"] + 2
    third = store.penalties(player="Alice")[-1]
    assert (third.source.rsplit("/", 1)[-1], third.penalty) == ("r3.txt", "intellect-penalty")


def test_a_group_that_fails_records_none_of_its_submissions(tmp_path):
    event = tmp_path / "event.db"
    store = api.open_event(event, create=True)
    _submit(store, report(tmp_path, file="first.txt"))
    before = counts(event)
    with pytest.raises(RuntimeError), store.grouped():
        _submit(store, report(tmp_path, file="r2.txt", round=2))
        raise RuntimeError("the batch failed")
    assert counts(event) == before
    _submit(store, report(tmp_path, file="r3.txt", round=3))         # the store goes on
    assert counts(event)["reports"] == before["reports"] + 1


def test_a_report_without_day_is_recorded_on_the_events_latest_day(tmp_path):
    """A report without `day:` is taken to be on the latest day the event has recorded (day 1
    before any), said in its ruling and kept in the record: a day-1 report written without
    `day:` never counts as "today" on day 2 (it was stored without a day and counted every day)."""
    event = tmp_path / "event.db"
    no_day = ALICE.replace("day: {day}\n", "")
    first = tmp_path / "d1-no-day.txt"
    first.write_text(no_day.format(policy="fab", name="Alice", round=2, table=3), encoding="utf-8")
    ruled_first = ruled(first, event)
    assert any("day 1, the latest day recorded there" in a["text"] for a in ruled_first["assumptions"])
    assert ruled_first["event"]["recorded"][0]["day"] == 1
    ruled(report(tmp_path, day=2, file="d2-a.txt", round=6), event)
    second_of_day_2 = ruled(report(tmp_path, day=2, file="d2-b.txt", round=8), event)
    assert second_of_day_2["rulings"][0]["penalty"] == "warning"      # the day-1 one does not count today
    later = tmp_path / "d2-no-day.txt"
    later.write_text(no_day.format(policy="fab", name="Alice", round=9, table=4), encoding="utf-8")
    third_of_day_2 = ruled(later, event)
    assert third_of_day_2["rulings"][0]["penalty"] == "intellect-penalty"    # taken as day 2: the 3rd today
    assert third_of_day_2["event"]["recorded"][0]["day"] == 2


def test_the_same_file_by_another_path_is_the_same_report(tmp_path, monkeypatch):
    """The event keys a file by where it is: `./r.txt`, `r.txt` and its absolute path are one
    report, recorded once (each used to record a penalty of its own, each upgrading the next)."""
    event = tmp_path / "event.db"
    report(tmp_path)
    monkeypatch.chdir(tmp_path)
    first = ruled(Path("r.txt"), event)
    for typed in ("./r.txt", str(tmp_path / "r.txt")):
        again = rule(typed, event)
        assert again.exit_code == 0 and "already recorded as report #1" in again.stdout, again.output
    assert first["event"]["recorded"][0]["id"] == 1 and rows(event, "penalties") == 1


def test_rule_records_at_the_event_named_by_the_environment(tmp_path, monkeypatch):
    """`$PPGCHECK_EVENT` and `$PPGCHECK_JUDGE` work for `rule` as for the `event` commands (the
    ruling was printed with no history and nothing recorded)."""
    event = tmp_path / "event.db"
    monkeypatch.setenv("PPGCHECK_EVENT", str(event))
    monkeypatch.setenv("PPGCHECK_JUDGE", "Ann")
    result = invoke("rule", report(tmp_path), "--format", "json")
    assert result.exit_code == 0, result.output
    [one] = json.loads(result.stdout)
    assert one["event"]["recorded"][0]["judge"] == "Ann" and rows(event, "penalties") == 1


def test_separate_reports_from_stdin_are_no_problem_for_the_check(tmp_path):
    event = tmp_path / "event.db"
    for name in ("Alice", "Carol"):
        text = ALICE.format(policy="fab", day=1, name=name, round=1, table=1)
        assert invoke("rule", "-", "--event", event, "--judge", "Ann", input=text).exit_code == 0
    checked = invoke("event", "check", "--event", event)
    assert checked.exit_code == 0 and checked.stdout.startswith(f"{event}: ok"), checked.output


def test_a_version_2_store_keeps_its_history_and_takes_a_rerule_entry(tmp_path):
    event = tmp_path / "event.db"
    ruled(report(tmp_path), event)
    with sqlite3.connect(event) as db:       # the audit table as version 2 made it
        db.execute("CREATE TABLE audit_v2 AS SELECT * FROM audit")
        db.execute("DROP TABLE audit")
        db.execute("ALTER TABLE audit_v2 RENAME TO audit")
        db.execute("PRAGMA user_version = 2")
    result = invoke("event", "rerule", 1, "--reason", "looked again", "--judge", "Bea", "--event", event)
    assert result.exit_code == 0 and "its penalties stand" in result.stdout, result.output
    history = invoke("event", "history", "--event", event).stdout
    assert "Ann: submit report #1" in history and "Bea: rerule report #1 — looked again" in history
    with sqlite3.connect(event) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == schema.SCHEMA_VERSION == 5


def test_an_infraction_the_guide_gives_no_penalty_is_pending_in_the_record(tmp_path):
    """FaB Cheating (named, never given a penalty): the record holds it as a pending penalty the
    Head Judge decides from the policy's ladder (it was recorded as a report with no penalty
    row: missing from the event view, `event show --player` and the exports)."""
    event = tmp_path / "event.db"
    path = tmp_path / "cheat.txt"
    path.write_text("policy: fab\nrel: competitive\nday: 1\nround: 4, swiss\ntable: 1\nplayer: Dave\n"
                    "Dave broke a game rule, on purpose.\n", encoding="utf-8")
    result = rule(path, event)
    assert result.exit_code in (0, 1), result.output
    assert "pending #1 Dave: cheating" in result.stdout and "a penalty of the policy" in result.stdout
    shown = invoke("event", "show", "--player", "Dave", "--event", event)
    assert "#1 Dave: PENDING for cheating" in shown.stdout
    refused = invoke("event", "amend", 1, "--penalty", "disqualified", "--reason", "HJ", "--judge", "Hana",
                     "--event", event)
    assert refused.exit_code == 2 and "it permits" in refused.output
    chosen = invoke("event", "amend", 1, "--penalty", "disqualification", "--reason", "cheating: HJ decision",
                    "--judge", "Hana", "--event", event)
    assert chosen.exit_code == 0, chosen.output
    in_force = json.loads(invoke("event", "show", "--event", event, "--format", "json").stdout)
    assert [(p["player"], p["penalty"], p["status"]) for p in in_force] == [("Dave", "disqualification", "in-force")]


def test_looking_at_a_report_is_worded_as_a_record_not_a_submission(tmp_path):
    event = tmp_path / "event.db"
    ruled(report(tmp_path), event)
    shown = invoke("event", "show", "--report", 1, "--event", event)
    assert shown.exit_code == 0, shown.output
    assert "report #1, recorded by Ann at " in shown.stdout and "penalty #1 Alice: warning" in shown.stdout
    assert "nothing written" not in shown.stdout and "already recorded" not in shown.stdout


def test_a_player_is_found_whatever_the_case_of_the_name_typed(tmp_path):
    event = tmp_path / "event.db"
    ruled(report(tmp_path), event)
    shown = invoke("event", "show", "--player", "alice", "--event", event)
    assert shown.exit_code == 0 and "#1 Alice: warning for hidden-card-error" in shown.stdout, shown.output
