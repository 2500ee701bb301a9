"""The event's own settings (issue 39): policy, REL, day, round and round kind, set by the Head
Judge (`event settings`, POST /api/event/settings), checked as a report's headers are, kept in
the event's history, migrated into a store of the previous version; and never added to a
report submitted without those lines (a builder prefills them: the report's text is ruled)."""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from ppgcheck.cli import cli
from ppgcheck.event import schema
from station import HEAD_TOKEN, client, signed_in, with_tokens, write  # noqa: F401 (client: a fixture)

README = ["--policy", "fab", "--rel", "competitive", "--day", "2", "--round", "5,swiss"]
NO_HEADERS = "policy: fab\nplayer: Alice\nplayer: Bob\nAlice drew 5 cards with intellect 4, mixed into her hand\n"


def invoke(*args, input: str | None = None):
    return CliRunner().invoke(cli, [str(a) for a in args], input=input)


def settings_of(event: Path) -> dict:
    shown = invoke("event", "settings", "--event", event, "--format", "json")
    assert shown.exit_code == 0, shown.output
    return json.loads(shown.stdout)


@pytest.fixture
def event(tmp_path) -> Path:
    path = tmp_path / "event.db"
    assert invoke("rule", "-", "--event", path, "--judge", "Ann", input=NO_HEADERS).exit_code in (0, 1)
    return path


def test_the_head_judge_sets_the_settings_and_the_history_says_so(event):
    assert "none set" in invoke("event", "settings", "--event", event).stdout
    done = invoke("event", "settings", "--event", event, *README, "--judge", "Hana")
    assert done.exit_code == 0, done.output
    assert "rel: competitive" in done.stdout and "round kind: swiss" in done.stdout
    assert settings_of(event) == {"policy": "fab", "rel": "competitive", "day": 2, "round": 5, "round_kind": "swiss"}
    # the next round keeps its kind; `none` unsets; the same again writes nothing
    assert invoke("event", "settings", "--event", event, "--round", "6", "--judge", "Hana").exit_code == 0
    assert settings_of(event)["round"] == 6 and settings_of(event)["round_kind"] == "swiss"
    assert invoke("event", "settings", "--event", event, "--rel", "none", "--judge", "Hana").exit_code == 0
    assert settings_of(event)["rel"] is None
    again = invoke("event", "settings", "--event", event, "--rel", "none", "--judge", "Hana")
    assert "nothing written" in again.stdout
    history = invoke("event", "history", "--event", event).stdout.splitlines()
    changes = [line for line in history if ": settings" in line]
    assert len(changes) == 3 and all("Hana: settings" in line for line in changes)
    assert "(policy none → fab, rel none → competitive, day none → 2, round none → 5, round kind none → swiss)" \
        in changes[0]
    assert changes[1].endswith("(round 5 → 6)") and changes[2].endswith("(rel competitive → none)")


@pytest.mark.parametrize("options, words", [
    (["--rel", "pro"], "unknown REL `pro` under the report language: one of `casual`"),
    (["--policy", "fab", "--rel", "pro"], "unknown REL `pro` under policy `fab`"),
    (["--day", "8"], "day 8 is out of range: a day is a number from 1 to 7"),
    (["--round", "31"], "round 31 is out of range"),
    (["--round", "3,draft"], "unknown round kind `draft`"),
    (["--policy", "mtg"], "unknown policy `mtg`"),
    (["--day", "two"], "--day is a whole number"),
])
def test_a_value_the_report_language_refuses_is_refused(event, options, words):
    refused = invoke("event", "settings", "--event", event, *options, "--judge", "Hana")
    assert refused.exit_code == 2 and words in refused.output and "Traceback" not in refused.output
    assert settings_of(event) == dict.fromkeys(("policy", "rel", "day", "round", "round_kind"))


def test_a_change_needs_a_judge(event):
    refused = invoke("event", "settings", "--event", event, "--day", "2")
    assert refused.exit_code == 2 and "--judge NAME" in refused.output


def test_a_report_without_the_header_lines_is_not_given_the_settings(event):
    """The settings prefill a builder's report; the store rules and records the report's text."""
    assert invoke("event", "settings", "--event", event, *README, "--judge", "Hana").exit_code == 0
    assert invoke("rule", "-", "--event", event, "--judge", "Ann",
                  input=NO_HEADERS.replace("Alice drew", "Bob drew")).exit_code in (0, 1)
    with sqlite3.connect(event) as db:
        canonical, rnd = db.execute("SELECT canonical, round FROM reports ORDER BY id DESC").fetchone()
    assert "rel:" not in canonical and "round:" not in canonical and rnd is None


def test_a_version_4_store_is_migrated_and_keeps_its_history(event):
    """The store as version 4 made it: no settings columns, an audit table without `settings`."""
    with sqlite3.connect(event) as db:
        for column in ("policy", "rel", "day", "round", "round_kind"):
            db.execute(f"ALTER TABLE event DROP COLUMN {column}")
        db.execute("CREATE TABLE audit_v4 AS SELECT * FROM audit")
        db.execute("DROP TABLE audit")
        db.execute("ALTER TABLE audit_v4 RENAME TO audit")
        db.execute("PRAGMA user_version = 4")
    done = invoke("event", "settings", "--event", event, "--day", "1", "--judge", "Hana")
    assert done.exit_code == 0, done.output
    history = invoke("event", "history", "--event", event).stdout
    assert "Ann: submit report #1" in history and "Hana: settings" in history
    with sqlite3.connect(event) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == schema.SCHEMA_VERSION == 5
    assert invoke("event", "check", "--event", event).exit_code == 0


def test_the_station_shows_the_settings_and_only_the_head_judge_changes_them(tmp_path):
    with signed_in(with_tokens(tmp_path / "event.db")) as station:
        assert station.get("/api/event").json()["settings"]["rel"] is None
        body = {"judge": "Hana", "policy": "fab", "rel": "competitive", "day": 2, "round": 5, "round_kind": "swiss"}
        assert write(station, "/api/event/settings", body).status_code == 403          # a judge's token
        done = write(station, "/api/event/settings", body, token=HEAD_TOKEN)
        assert done.status_code == 200 and done.json()["changed"] is True
        assert station.get("/api/event").json()["settings"] == {k: v for k, v in body.items() if k != "judge"}
        assert station.get("/api/event/settings").json()["settings"]["round_kind"] == "swiss"
        bad = write(station, "/api/event/settings", {"judge": "Hana", "rel": "pro"}, token=HEAD_TOKEN)
        assert bad.status_code == 400 and "unknown REL `pro`" in bad.json()["error"]["message"]
        odd = write(station, "/api/event/settings", {"judge": "Hana", "table": 3}, token=HEAD_TOKEN)
        assert odd.status_code == 400 and "`table`" in odd.json()["error"]["message"]
        unset = write(station, "/api/event/settings", {"judge": "Hana", "round": None}, token=HEAD_TOKEN)
        assert unset.json()["settings"]["round"] is None and unset.json()["settings"]["round_kind"] is None
        page = station.get("/event").text
        assert 'id="event-settings-form"' in page and "<b>policy fab · REL competitive · day 2</b>" in page
        assert '<option value="competitive" selected>' in page


def test_a_station_without_an_event_has_no_settings(client):  # noqa: F811
    missing = client.get("/api/event/settings")
    assert missing.status_code == 404 and "keeps no event" in missing.json()["error"]["message"]
