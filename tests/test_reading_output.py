"""The reading shown with every ruling (issue 36): a free sentence's canonical reading and the
words not read, in text and JSON; canonical sentences print nothing extra; rulings stored by
earlier versions (observations as strings) still load.  The reader itself is tested elsewhere:
here the Reading is set on parsed observations, as the tolerant reader sets it."""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

import ppgcheck.language.report as report_module
from ppgcheck import api
from ppgcheck.cli import cli
from ppgcheck.engine.render import (comparison_dict, render_comparison_text, render_text, ruling_dict,
                                    stored_observations, stored_ruling)
from ppgcheck.language.model import Reading
from ppgcheck.language.printer import print_observation
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


# --- the command line, with the tolerant reader stood in for ---------------------------------
NOTE = REPORT.replace(READ_AS, WRITTEN)
# examples/notes/ holds judges' free notes, which only the tolerant reader reads
EXAMPLES = sorted(p for p in (Path(__file__).resolve().parent.parent / "examples").rglob("*.txt")
                  if p.parent.name != "notes")
NOTES = sorted((Path(__file__).resolve().parent.parent / "examples" / "notes").glob("*.txt"))


@pytest.fixture
def reader(monkeypatch):
    """parse_reports(tolerant=True) reads WRITTEN as READ_AS (the reader's contract); strict, it
    is the real parser.  (A file of one report is parsed in the forked job that rules it,
    which inherits the stand-in.)"""
    real = report_module.parse_reports

    def parse(text, source="<report>", policy=None, rules=None, first_line=1, tolerant=False):
        if not tolerant or WRITTEN not in text:
            return real(text, source, policy, rules, first_line)
        reports = real(text.replace(WRITTEN, READ_AS), source, policy, rules, first_line)
        for report in reports:
            report.lines = [line.replace(READ_AS, WRITTEN) for line in report.lines]     # as written
            for obs in report.observations:
                if print_observation(obs, report.vocabulary) == READ_AS:
                    obs.reading = Reading(WRITTEN, READ_AS, ["In game 2", "at table 40"])
        return reports
    monkeypatch.setattr(report_module, "parse_reports", parse)
    for home in ("ppgcheck.api.ruling", "ppgcheck.api.event"):     # where the api's jobs parse reports
        monkeypatch.setattr(f"{home}.parse_reports", parse)


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(cli, list(args), input=input)


def test_rule_reads_a_free_sentence_by_default_and_shows_the_reading(reader, tmp_path):
    note = tmp_path / "note.txt"
    note.write_text(NOTE)
    for args in ((str(note),), ("-",)):         # a file (parsed in the job that rules it) and stdin
        result = run("rule", *args, input=NOTE)
        assert result.exit_code == 0, result.output
        assert f"  [observation 1] read as: {READ_AS}\n" in result.stdout
        assert '    not read: "In game 2", "at table 40"\n' in result.stdout
        assert "Alice: hidden-card-error" in result.stdout
    [data] = json.loads(run("rule", str(note), "--format", "json").stdout)
    assert data["observations"][0] == {"read_as": READ_AS, "written": WRITTEN,
                                       "not_read": ["In game 2", "at table 40"]}


def test_rule_strict_refuses_a_free_sentence(reader, tmp_path):
    note = tmp_path / "note.txt"
    note.write_text(NOTE)
    text = run("rule", str(note), "--strict")
    assert text.exit_code == 2 and text.stdout == ""
    assert text.stderr.startswith(f"{note}:5:")
    assert "Alice drew two extra cards" in text.stderr      # the line, under its caret


def test_a_report_that_cannot_be_read_prints_its_error_as_json_on_stdout(reader, tmp_path):
    note = tmp_path / "note.txt"
    note.write_text(NOTE)
    result = run("rule", str(note), "--strict", "--format", "json")
    assert result.exit_code == 2 and result.stderr == ""
    [failure] = json.loads(result.stdout)
    assert failure["report"] == str(note)
    error = failure["error"]
    assert set(error) == {"kind", "line", "column", "message", "expected", "suggestions"}
    assert (error["kind"], error["line"]) == ("parse", 5)
    assert error["column"] > 1 and error["message"] and error["expected"]
    assert all(isinstance(s, str) for s in error["suggestions"])
    # the other files are still ruled, in input order
    both = run("rule", str(EXAMPLES[0]), str(note), str(EXAMPLES[1]), "--strict", "--format", "json")
    first, failed, last = json.loads(both.stdout)
    assert both.exit_code == 2 and first["rulings"] and last["rulings"] and failed["error"]["kind"] == "parse"
    assert (first["report"], failed["report"], last["report"]) == (str(EXAMPLES[0]), str(note), str(EXAMPLES[1]))
    # a batch's jsonl is a line per report ruled: the error goes to stderr, as for text
    lines = run("rule", str(note), "--strict", "--format", "jsonl")
    assert lines.exit_code == 2 and lines.stdout == "" and f"{note}:5:" in lines.stderr


def test_print_writes_the_reading_as_a_canonical_report_that_rules_the_same(reader, tmp_path):
    note = tmp_path / "note.txt"
    note.write_text(NOTE)
    printed = run("print", str(note))
    assert printed.exit_code == 0 and READ_AS in printed.stdout and WRITTEN not in printed.stdout
    assert run("print", str(note), "--strict").exit_code == 2
    canonical = tmp_path / "canonical.txt"
    canonical.write_text(printed.stdout)
    [free] = json.loads(run("rule", str(note), "--format", "json").stdout)
    [strict] = json.loads(run("rule", str(canonical), "--strict", "--format", "json").stdout)
    assert [o["read_as"] for o in free["observations"]] == [o["read_as"] for o in strict["observations"]]
    assert free["rulings"] == strict["rulings"] and free["findings"] == strict["findings"]


def test_compare_reads_tolerantly_and_strict_refuses_with_the_json_error(reader, tmp_path):
    note = tmp_path / "note.txt"
    note.write_text(NOTE)
    compared = run("compare", str(note))
    assert f'    written: "{WRITTEN}"' in compared.stdout
    refused = run("compare", str(note), "--strict", "--format", "json")
    assert refused.exit_code == 2 and json.loads(refused.stdout)[0]["error"]["line"] == 5


def test_the_example_notes_are_read_and_strict_refuses_them():
    assert NOTES
    for note in NOTES:
        assert "read as:" in run("rule", str(note)).stdout
        assert run("rule", str(note), "--strict").exit_code == 2


def test_the_examples_rule_byte_identically_with_and_without_strict():
    for example in EXAMPLES:
        tolerant, strict = run("rule", str(example)), run("rule", str(example), "--strict")
        assert tolerant.stdout == strict.stdout and tolerant.exit_code == strict.exit_code, example
        assert "read as:" not in strict.stdout


def test_a_free_note_ruled_at_an_event_keeps_its_reading_and_is_ruled_again_as_written(reader, tmp_path):
    note, event = tmp_path / "note.txt", tmp_path / "event.db"
    note.write_text(NOTE)
    result = run("rule", str(note), "--event", str(event), "--judge", "Ann", "--format", "json")
    assert result.exit_code == 0, result.output
    [data] = json.loads(result.stdout)
    assert data["observations"][0]["written"] == WRITTEN
    assert run("rule", str(note), "--event", str(event), "--judge", "Ann", "--strict").exit_code == 2
    stored = api.open_event(event).report(1)
    assert f"read as: {READ_AS}" in stored.text and stored.ruling["observations"][0]["written"] == WRITTEN
    changes, _ = api.rerule_report(event, 1, "looked again", "Bea")     # the original text, read as submitted
    assert changes == []


def test_every_golden_report_reads_the_same_tolerantly_with_no_reading():
    """A canonical sentence is never a reading: the golden cases (their reports, not the bad
    input of errors/) print and rule the same whether read tolerantly or strictly."""
    from ppgcheck.language.report import parse_reports, print_reports
    golden = Path(__file__).resolve().parent / "golden"
    cases = [c for c in sorted(golden.rglob("*.txt")) if "errors" not in c.relative_to(golden).parts]
    assert len(cases) > 500
    for case in cases:
        text = case.read_text(encoding="utf-8")
        strict, tolerant = parse_reports(text, case.name), parse_reports(text, case.name, tolerant=True)
        assert all(o.reading is None for r in tolerant for o in r.observations), case
        assert print_reports(tolerant) == print_reports(strict), case


def test_other_errors_of_a_file_extend_the_json_shape_with_their_kind(tmp_path):
    missing = tmp_path / "missing.txt"
    result = run("rule", str(missing), str(EXAMPLES[0]), "--format", "json")
    failed, ruled_ = json.loads(result.stdout)
    assert result.exit_code == 2 and ruled_["rulings"]
    assert failed == {"report": str(missing), "error": {"kind": "usage",
                                                        "message": f"no such file or directory: `{missing}`"}}
    from ppgcheck.errors import ResubmittedReport, StoreError, error_dict
    refused = ResubmittedReport("held: pass --amend", "r.txt", 1, 1, "", recorded=3, held="held")
    assert error_dict(refused) == {"kind": "resubmitted", "message": "held: pass --amend"}
    assert error_dict(StoreError("locked"))["kind"] == "store"
