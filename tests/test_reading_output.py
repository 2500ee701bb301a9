"""The reading shown with every ruling (issue 36): a free sentence's canonical reading and the
words not read, in text and JSON; canonical sentences print nothing extra; rulings stored by
earlier versions (observations as strings) still load.  The reader itself is tested elsewhere:
here the Reading is set on parsed observations, as the tolerant reader sets it."""
from __future__ import annotations

import json
import sqlite3

from ppgcheck import api
from ppgcheck.engine.render import (comparison_dict, render_comparison_text, render_text, ruling_dict,
                                    stored_observations, stored_ruling)
from ppgcheck.language.model import Reading
from ppgcheck.language.report import parse_report

REPORT = """policy: fab
rel: competitive
player: Alice
player: Bob
Alice drew 2 extra cards, mixed into her hand
Bob was 3 minutes late
"""
WRITTEN = "In game 2, Alice drew two extra cards and they went into her hand at table 40"
READ_AS = "Alice drew 2 extra cards, mixed into her hand"


def freely_read(text: str = REPORT, not_read: tuple[str, ...] = ("In game 2", "at table 40")):
    """The report, its first observation as the tolerant reader would have read WRITTEN."""
    report = parse_report(text, "note.txt")
    report.observations[0].reading = Reading(WRITTEN, READ_AS, list(not_read))
    return report


def ruled(report):
    [rs] = api.rule_prepared(api.prepare([report]))
    return rs


def test_the_text_ruling_shows_what_a_free_sentence_was_read_as_and_the_words_not_read():
    text = render_text(ruled(freely_read()))
    lines = text.splitlines()
    assert lines[1] == f"  [observation 1] read as: {READ_AS}"
    assert lines[2] == '    not read: "In game 2", "at table 40"'
    assert "[observation 2] read as" not in text         # written canonically: nothing extra
    assert "Alice: hidden-card-error" in text             # the ruling is on the reading


def test_a_report_of_one_free_sentence_names_no_observation_number_and_omits_an_empty_not_read():
    one = REPORT.replace("Bob was 3 minutes late\n", "")
    lines = render_text(ruled(freely_read(one, not_read=()))).splitlines()
    assert lines[1] == f"  read as: {READ_AS}"
    assert "not read" not in lines[2]


def test_canonical_sentences_rule_to_the_same_text_as_before():
    canonical = render_text(ruled(parse_report(REPORT, "note.txt")))
    read = render_text(ruled(freely_read()))
    assert "read as" not in canonical and "not read" not in canonical
    assert [line for line in read.splitlines() if "read as:" not in line and "not read:" not in line] == \
        canonical.splitlines()


def test_the_json_observations_carry_the_reading():
    data = ruling_dict(ruled(freely_read()))
    first, second = data["observations"]
    assert first == {"read_as": READ_AS, "written": WRITTEN, "not_read": ["In game 2", "at table 40"]}
    assert second == {"read_as": "Bob was 3 minutes late", "written": "Bob was 3 minutes late", "not_read": []}
    assert {r["observation"] for r in data["rulings"]} == {1, 2}


def test_compare_shows_the_reading_under_the_observation():
    report = freely_read()
    comparison = api.compare_report(report)
    text = render_comparison_text(comparison)
    assert f'  {READ_AS}\n    written: "{WRITTEN}"\n    not read: "In game 2", "at table 40"\n' in text
    assert comparison_dict(comparison)["observations"][0]["written"] == WRITTEN


def test_a_stored_ruling_of_an_earlier_version_reads_back_in_todays_shape():
    old = {"report": "r.txt", "observations": ["Alice drew 2 extra cards"], "rulings": []}
    assert stored_ruling(old)["observations"] == [
        {"read_as": "Alice drew 2 extra cards", "written": "Alice drew 2 extra cards", "not_read": []}]
    new = ruling_dict(ruled(freely_read()))
    assert stored_ruling(json.loads(json.dumps(new))) == new
    assert stored_observations([{"read_as": "A was late"}]) == [
        {"read_as": "A was late", "written": "A was late", "not_read": []}]
    assert stored_ruling({"report": "r.txt"}) == {"report": "r.txt"}     # older still: no observations


def test_the_event_store_reads_back_a_ruling_stored_with_string_observations(tmp_path):
    event = tmp_path / "event.db"
    [sub] = api.submit_report(event, REPORT, "Ann", source="r.txt")
    assert sub.ruling["observations"][0] == {"read_as": READ_AS, "written": READ_AS, "not_read": []}
    with sqlite3.connect(event) as db:      # as an earlier version stored it
        data = json.loads(db.execute("SELECT ruling_json FROM rulings").fetchone()[0])
        data["observations"] = [o["read_as"] for o in data["observations"]]
        db.execute("UPDATE rulings SET ruling_json = ?", (json.dumps(data),))
    stored = api.open_event(event).report(sub.report_id).ruling
    assert stored["observations"] == sub.ruling["observations"]
