"""The station's event endpoints and its one writer (server/submissions.py): concurrent
submissions count each other as one after another would, nothing is lost or written
twice, and a ruling is never recorded with a history other than the one the store gave."""
from __future__ import annotations

import csv
import io
import re
import threading

import pytest

pytest.importorskip("ppgcheck.event.store", reason="the event store (issue 13) is not in this tree")


from ppgcheck import api  # noqa: E402
from ppgcheck.language.report import parse_reports  # noqa: E402
from ppgcheck.server.submissions import SubmissionQueue, _Item, _Job  # noqa: E402
from station import HEAD_TOKEN, JUDGE_TOKEN, signed_in, with_tokens, write  # noqa: E402

HIDDEN = ("policy: fab\nrel: competitive\nround: {round}\nday: 2\ntable: {table}\nplayer: {p}\nplayer: Bob\n"
          "{p} drew 5 cards with intellect 4, mixed into her hand, caught before Bob's next action, not on purpose\n")


@pytest.fixture
def station(tmp_path):
    with signed_in(with_tokens(tmp_path / "event.db")) as client:
        yield client


def submit(client, text: str, source: str, judge: str = "Dana") -> dict:
    response = write(client, "/api/event/reports", {"report": text, "source": source, "judge": judge})
    assert response.status_code == 200, response.text
    (submission,) = response.json()["submissions"]
    return submission


def test_three_errors_upgrade_void_and_export(station):
    first = submit(station, HIDDEN.format(round=1, table=1, p="Alice"), "r1")
    second = submit(station, HIDDEN.format(round=2, table=2, p="Alice"), "r2")
    third = submit(station, HIDDEN.format(round=3, table=3, p="Alice"), "r3")
    assert [len(s["counted"]) for s in (first, second, third)] == [0, 1, 2]
    assert third["upgrades"] and third["ruling"]["rulings"][0]["penalty"] != "warning"
    again = submit(station, HIDDEN.format(round=3, table=3, p="Alice"), "r3")
    assert again["outcome"] == "already-recorded" and again["report_id"] == third["report_id"]

    penalty = second["recorded"][0]["id"]
    assert write(station, f"/api/event/penalties/{penalty}/void", {"reason": "twice", "judge": "Dana"}
                 ).status_code == 403                                     # a judge may not void
    voided = write(station, f"/api/event/penalties/{penalty}/void", {"reason": "twice", "judge": "Hana"},
                   token=HEAD_TOKEN)
    assert voided.status_code == 200 and voided.json()["voided"]["status"] == "void"
    assert voided.json()["counted_by_reports"] == [third["report_id"]]
    again_void = write(station, f"/api/event/penalties/{penalty}/void", {"reason": "twice", "judge": "Hana"},
                       token=HEAD_TOKEN)
    assert again_void.status_code == 409 and "void" in again_void.json()["error"]["message"]

    rerule = f"/api/event/reports/{third['report_id']}/rerule"
    assert write(station, rerule, {"reason": "#2 was voided", "judge": "Dana"}).status_code == 403
    assert write(station, rerule, {"reason": " ", "judge": "Hana"}, token=HEAD_TOKEN).status_code == 400
    ruled = write(station, rerule, {"reason": "#2 was voided", "judge": "Hana"}, token=HEAD_TOKEN).json()
    (amended,) = ruled["amended"]                                         # one prior now: a Warning again
    assert (amended["old"]["id"], amended["new"]["penalty"]) == (third["recorded"][0]["id"], "warning")
    assert [p["id"] for p in ruled["counted"]] == [first["recorded"][0]["id"]]
    assert write(station, rerule, {"reason": "again", "judge": "Hana"}, token=HEAD_TOKEN).json()["amended"] == []

    fourth = submit(station, HIDDEN.format(round=4, table=4, p="Alice"), "r4")
    assert len(fourth["counted"]) == 2                                    # the void one no longer counts

    record = station.get("/api/event", params={"player": "Alice"}).json()
    assert len(record["penalties"]) == 3 and {"Alice"} <= set(record["roster"])
    # each row names its report (the event view links its slip); the amended one keeps the third's
    assert {p["round"]: p["report_id"] for p in record["penalties"]} == {
        1: first["report_id"], 3: third["report_id"], 4: fourth["report_id"]}
    assert len(station.get("/api/event", params={"player": "Alice", "all": "1"}).json()["penalties"]) == 5
    assert [p["round"] for p in station.get("/api/event", params={"round": 4}).json()["penalties"]] == [4]
    exported = station.get("/api/event/export", params={"format": "csv"})
    assert exported.headers["content-type"].startswith("text/csv")
    assert [r["round"] for r in csv.DictReader(io.StringIO(exported.text))] == ["1", "3", "4"]
    assert station.get("/api/event/export", params={"format": "xml"}).status_code == 400
    assert station.get("/api/event", params={"round": "x"}).status_code == 400
    assert station.get(f"/api/event/reports/{fourth['report_id']}").json()["report_id"] == fourth["report_id"]
    assert station.get("/api/event/reports/999").status_code == 404      # not held: not a conflict


def test_event_input_errors_are_4xx(station):
    bad = write(station, "/api/event/reports", {"report": "policy: fab\nplayer: A\nA drew 2 extar cards\n",
                                                "judge": "Dana"})
    assert bad.status_code == 422 and bad.json()["error"]["line"] == 3
    assert write(station, "/api/event/reports", {"report": HIDDEN.format(round=1, table=1, p="A")}
                 ).status_code == 400                                     # no judge
    assert write(station, "/api/event/reports", {"report": HIDDEN.format(round=1, table=1, p="A"),
                                                 "judge": "x\ny"}).status_code == 400
    changed = write(station, "/api/event/reports", {"report": HIDDEN.format(round=1, table=1, p="A"),
                                                    "judge": "D", "source": "same"})
    assert changed.status_code == 200
    refused = write(station, "/api/event/reports", {"report": HIDDEN.format(round=2, table=1, p="A"),
                                                    "judge": "D", "source": "same"})
    error = refused.json()["error"]
    assert refused.status_code == 422 and error["kind"] == "resubmitted"
    assert error["recorded_report"] == changed.json()["submissions"][0]["report_id"]
    assert '"amend": true' in error["message"] and "--amend" not in error["text"]
    hostile = '<script>alert(1)</script>'
    page = station.post("/ui/submit", json={"report": HIDDEN.format(round=1, table=1, p=f'"{hostile}"'),
                                            "judge": hostile},
                        headers={"X-CSRF-Token": station.csrf, "Authorization": f"Bearer {JUDGE_TOKEN}"})
    assert page.status_code == 200 and "<script>" not in page.text
    listing = station.get("/event")
    assert listing.status_code == 200 and "<script>" not in listing.text and "&lt;script&gt;" in listing.text


def test_concurrent_submissions_count_each_other(station):
    """Twelve judges at once, three of them about Alice: every penalty is recorded once,
    and Alice's three rulings counted 0, 1 and 2 earlier ones."""
    results: dict[str, dict] = {}

    def send(name: str, source: str, round_: int) -> None:
        results[source] = submit(station, HIDDEN.format(round=round_, table=round_, p=name), source)

    threads = [threading.Thread(target=send, args=("Alice" if i % 4 == 0 else f"P{i}", f"s{i}", i + 1))
               for i in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 12
    alice = sorted(len(results[f"s{i}"]["counted"]) for i in (0, 4, 8))
    assert alice == [0, 1, 2]
    assert all(len(results[f"s{i}"]["counted"]) == 0 for i in range(12) if i % 4)
    recorded = sorted(p["id"] for s in results.values() for p in s["recorded"])
    stored = sorted(p["id"] for p in station.get("/api/event", params={"all": "1"}).json()["penalties"])
    assert recorded == stored and len(set(stored)) == len(stored) == 12


def test_a_ruling_for_another_history_is_never_recorded(tmp_path):
    """The store hands the callback a history; a batch ruled with an older one is not used."""
    store = api.open_event(tmp_path / "e.db", create=True)
    writer = SubmissionQueue(store, batcher=None)
    for n in (1, 2):                                                     # two warnings recorded meanwhile
        (report, policy), = api.prepare(parse_reports(HIDDEN.format(round=n, table=n, p="Alice"), f"r{n}"))
        api.submit_prepared(store, report, policy, "Dana")
    (third, policy), = api.prepare(parse_reports(HIDDEN.format(round=3, table=3, p="Alice"), "r3"))
    stale = api.rule_prepared([(third, policy)])[0]                      # ruled as if she had none
    assert stale.rulings[0].penalty == "warning"
    item = _Item(third, policy, _Job("Dana", False, {}), history=[])
    writer._record(item, stale)
    assert item.error is None
    assert len(item.result.counted) == 2
    assert item.result.ruling["rulings"][0]["penalty"] != "warning"      # the third one, upgraded


def test_the_record_marks_a_penalty_the_guide_does_not_record(station):
    """FaB PPG 1.4 (Cautions are not recorded): the submission says the Caution counts in no
    later ruling, the record marks it, and the export leaves it out."""
    text = "policy: fab\nrel: competitive\nround: 1\nplayer: Alice\nplayer: Bob\nAlice missed a trigger\n"
    first, second = submit(station, text, "t1"), submit(station, text.replace("round: 1", "round: 2"), "t2")
    assert [p["penalty"] for p in first["recorded"] + second["recorded"]] == ["caution", "caution"]
    assert second["counted"] == [] and second["not_recorded"][0]["section"] == "PPG 1.4"
    listed = station.get("/api/event").json()["penalties"]
    assert [p["not_recorded"]["section"] for p in listed] == ["PPG 1.4", "PPG 1.4"]
    assert station.get("/event").text.count("not recorded · PPG 1.4") == 2
    exported = station.get("/api/event/export", params={"format": "csv"})
    assert exported.status_code == 200 and "missed-trigger" not in exported.text


def test_the_record_lists_the_rulings_a_void_left_to_rule_again(station):
    """The rulings that counted a voided penalty are listed on the record (its page and
    /api/event) on every load, not only in the void's answer, until they are ruled again."""
    for n in (1, 2):
        submit(station, HIDDEN.format(round=n, table=n, p="Alice"), f"h{n}")
    listed = station.get("/api/event").json()
    assert listed["needs_ruling_again"] == []
    voided = write(station, f"/api/event/penalties/{listed['penalties'][0]['id']}/void",
                   {"reason": "wrong player", "judge": "Hana"}, token=HEAD_TOKEN)
    assert voided.json()["counted_by_reports"] == [2]
    assert station.get("/api/event").json()["needs_ruling_again"] == [2]
    page = station.get("/event").text
    assert 'id="stale" data-reports="2"' in page and "Needs ruling again" in page
    again = write(station, "/api/event/reports/2/rerule", {"reason": "voided", "judge": "Hana"}, token=HEAD_TOKEN)
    assert again.status_code == 200, again.text
    assert station.get("/api/event").json()["needs_ruling_again"] == []
    assert 'id="stale"' not in station.get("/event").text


def test_a_wave_rules_a_report_without_a_day_on_the_day_an_earlier_one_of_it_names(tmp_path, monkeypatch):
    """A report without `day:` is on the event's latest day as it is recorded, after the reports
    of its wave before it: one of them naming a later day moves it.  The wave's batch rules it
    on that day, so its ruling stands (it was ruled again alone: a whole wave of them, once)."""
    store = api.open_event(tmp_path / "e.db", create=True)
    rule, alone = api.rule_prepared, []

    class Batcher:
        def rule(self, prepared, questions):
            return rule(prepared, questions=questions)
    writer = SubmissionQueue(store, batcher=Batcher())
    monkeypatch.setattr(api, "rule_prepared", lambda prepared, **kw: alone.append(prepared) or rule(prepared, **kw))
    texts = [HIDDEN.format(round=1, table=1, p="Alice"),                        # day: 2
             HIDDEN.format(round=1, table=2, p="Carol").replace("day: 2\n", "").replace("Bob", "Dan")]
    items = []
    for n, text in enumerate(texts):
        (report, policy), = api.prepare(parse_reports(text, f"w{n}"))
        items.append(_Item(report, policy, _Job("Dana", False, {}, questions=False)))
    writer._wave(items)
    assert [i.error for i in items] == [None, None]
    assert alone == []
    assert "taken to be on day 2" in items[1].result.ruling["assumptions"][0]["text"]
    assert [p.day for p in store.penalties()] == [2, 2]


STALE = ("policy: fab\nrel: competitive\nround: {round}\ntable: 1\nplayer: Alice\nplayer: Bob\n"
         "Alice gave incorrect game information, Bob acted on it, from a stale marker.\n")
STALLED = "policy: dci\nrel: competitive\nround: 1\ntable: 2\nplayer: Carol\nCarol stalled\n"


def test_the_head_judge_chooses_among_the_permitted_penalties(station):
    """A penalty the guide leaves to the Head Judge (pending: no default) is chosen at the
    station, and an issued one changed to another the ruling permits (PPG 3.9's Caution);
    later rulings that counted a changed one are named, for ruling them again."""
    stalled = submit(station, STALLED, "stalled")
    (pending,) = stalled["recorded"]
    assert (pending["status"], pending["penalty"]) == ("pending", None)
    assert pending["permitted"] == ["disqualification-with-prizes", "disqualification-without-prizes"]
    submit(station, STALE.format(round=9).replace("Alice", "Zed"), "s9")     # an issued penalty beside it
    waiting = station.get("/api/event", params={"pending": "1"}).json()
    assert [p["id"] for p in waiting["penalties"]] == [pending["id"]] and waiting["filters"]["pending"] is True
    assert len(station.get("/api/event").json()["penalties"]) == 2
    amend = f"/api/event/penalties/{pending['id']}/amend"
    choice = {"penalty": "disqualification-without-prizes", "reason": "stalled on purpose", "judge": "Hana"}
    assert write(station, amend, {**choice, "judge": "Dana"}).status_code == 403        # a judge may not
    assert write(station, amend, {**choice, "reason": " "}, token=HEAD_TOKEN).status_code == 400
    assert write(station, amend, {"reason": "r", "judge": "Hana"}, token=HEAD_TOKEN).status_code == 400
    refused = write(station, amend, {**choice, "penalty": "warning"}, token=HEAD_TOKEN)
    assert refused.status_code == 409 and "not a penalty the guide permits" in refused.json()["error"]["message"]
    chosen = write(station, amend, choice, token=HEAD_TOKEN).json()
    assert chosen["replaces"] == pending["id"] and chosen["counted_by_reports"] == []
    assert (chosen["amended"]["penalty"], chosen["amended"]["status"], chosen["amended"]["chosen_by"]) == (
        "disqualification-without-prizes", "in-force", "judge")
    record = station.get("/api/event", params={"player": "Carol", "all": "1"}).json()["penalties"]
    assert {(p["id"], p["status"]) for p in record} == {(pending["id"], "superseded"),
                                                        (chosen["amended"]["id"], "in-force")}
    gone = write(station, amend, choice, token=HEAD_TOKEN)
    assert gone.status_code == 409                                        # superseded: not changed again

    first = submit(station, STALE.format(round=1), "s1")
    second = submit(station, STALE.format(round=2), "s2")
    (warning,) = first["recorded"]
    assert (warning["penalty"], warning["permitted"]) == ("warning", ["caution", "warning"])
    assert [p["id"] for p in second["counted"]] == [warning["id"]]
    page = station.get("/event").text
    assert re.search(r'data-penalty="warning"\s+data-permitted="caution warning">change</button>', page)
    lowered = write(station, f"/api/event/penalties/{warning['id']}/amend",
                    {"penalty": "caution", "reason": "HJ: a Caution, as 3.9 allows", "judge": "Hana"},
                    token=HEAD_TOKEN).json()
    assert lowered["amended"]["penalty"] == "caution"
    assert lowered["counted_by_reports"] == [second["report_id"]]


def test_the_head_judge_voids_a_whole_report_and_changes_notes(station):
    """A report ruled by mistake is voided whole (its penalties with it) at the station, and
    the later rulings that counted them are named; a penalty's notes are changed, the old row
    superseded, and nothing a later ruling counted is said to change."""
    first = submit(station, HIDDEN.format(round=1, table=1, p="Alice"), "v1")
    second = submit(station, HIDDEN.format(round=2, table=2, p="Alice"), "v2")
    assert station.get(f"/api/event/reports/{first['report_id']}").json()["status"] == "in-force"
    void = f"/api/event/reports/{first['report_id']}/void"
    assert write(station, void, {"reason": "wrong player", "judge": "Dana"}).status_code == 403
    assert write(station, void, {"reason": " ", "judge": "Hana"}, token=HEAD_TOKEN).status_code == 400
    too_long = write(station, void, {"reason": "x" * 501, "judge": "Hana"}, token=HEAD_TOKEN)
    assert too_long.status_code == 400 and "500 characters" in too_long.text and "--reason" not in too_long.text
    assert station.get(f"/api/event/reports/{first['report_id']}").json()["status"] == "in-force"
    voided = write(station, void, {"reason": "wrong player", "judge": "Hana"}, token=HEAD_TOKEN)
    assert voided.status_code == 200, voided.text
    body = voided.json()
    assert body["voided_report"] == first["report_id"]
    assert [(p["id"], p["status"]) for p in body["voided"]] == [(first["recorded"][0]["id"], "void")]
    assert body["counted_by_reports"] == [second["report_id"]]
    assert write(station, void, {"reason": "again", "judge": "Hana"}, token=HEAD_TOKEN).status_code == 409
    assert station.get(f"/api/event/reports/{first['report_id']}").json()["status"] == "void"
    slip = station.get(f"/event/slip/{first['report_id']}").text
    assert "This report is void" in slip and "void-report-form" not in slip
    assert "void-report-form" in station.get(f"/event/slip/{second['report_id']}").text
    assert write(station, "/api/event/reports/999/void", {"reason": "r", "judge": "Hana"},
                 token=HEAD_TOKEN).status_code == 404

    (penalty,) = second["recorded"]
    amend = f"/api/event/penalties/{penalty['id']}/amend"
    notes = {"notes": "player asked for an appeal", "reason": "appeal noted", "judge": "Hana"}
    assert write(station, amend, {**notes, "judge": "Dana"}).status_code == 403
    too_long = write(station, amend, {**notes, "notes": "x" * 2001}, token=HEAD_TOKEN)
    assert too_long.status_code == 400 and "2000 characters" in too_long.text
    assert write(station, amend, {**notes, "reason": "x" * 501}, token=HEAD_TOKEN).status_code == 400
    assert write(station, amend, {**notes, "notes": 3}, token=HEAD_TOKEN).status_code == 400
    changed = write(station, amend, notes, token=HEAD_TOKEN).json()
    assert changed["replaces"] == penalty["id"] and changed["counted_by_reports"] == []
    assert (changed["amended"]["notes"], changed["amended"]["penalty"]) == (notes["notes"], penalty["penalty"])
    record = station.get("/api/event", params={"player": "Alice", "all": "1"}).json()["penalties"]
    assert {(p["id"], p["status"]) for p in record} == {
        (first["recorded"][0]["id"], "void"), (penalty["id"], "superseded"), (changed["amended"]["id"], "in-force")}
    page = station.get("/event").text
    assert "player asked for an appeal" in page
    # only live penalties are offered for a change
    assert f'data-penalty-id="{penalty["id"]}">void' not in station.get("/event", params={"all": "1"}).text
    openapi = station.get("/api/openapi.json").json()
    assert "/api/event/reports/{report_id}/void" in openapi["paths"]


def test_the_event_view_tells_days_apart(station):
    """Round 3 of day 1 is not round 3 of day 2: with more than one day the view has a day
    filter and column, and its round and table links keep the day; time extensions per day."""
    one_day = HIDDEN.replace("day: 2", "day: {day}") + "the ruling took 4 minutes\n"
    submit(station, one_day.format(day=1, round=3, table=12, p="Alice"), "d1")
    page = station.get("/event").text
    assert 'name="day"' not in page and "<th>Day</th>" not in page          # one day: no day column
    submit(station, one_day.format(day=2, round=3, table=12, p="Carol"), "d2")
    page = station.get("/event").text
    assert 'name="day"' in page and "<th>Day</th>" in page
    assert 'href="/event?day=2&amp;round=3"' in page and 'href="/event?day=1&amp;table=12"' in page
    assert [p["player"] for p in station.get("/api/event", params={"day": 2, "round": 3}).json()["penalties"]] == [
        "Carol"]
    record = station.get("/api/event").json()
    assert record["days"] == [1, 2] and record["filters"]["all"] is False
    assert [(t["day"], t["round"], t["table"], t["minutes"]) for t in record["time_extensions"]] == [
        (1, 3, 12, 4), (2, 3, 12, 4)]
    assert "day 1, round 3, table 12: 4 minutes" in page
    assert 'name="all" value="1" checked' in station.get("/event", params={"all": "1"}).text


def test_a_submission_answers_with_the_questions_a_judge_should_ask(station):
    """The station's submit card lists the questions that would change the ruling, as `rule`
    and the Rule button do (it listed none: a judge who went straight to Submit never saw
    "the extra cards can be identified?"); the JSON API gives them with `"questions": true`
    (a program's batch asks for them, as `--format jsonl` does) and honours it (it did not)."""
    text = HIDDEN.format(round=1, table=1, p="Alice").replace(", not on purpose", "")
    page = write(station, "/ui/submit", {"report": text, "source": "q1", "judge": "Dana"})
    assert page.status_code == 200 and "can be identified?" in page.text
    asked = write(station, "/api/event/reports", {"report": text.replace("round: 1", "round: 2"), "source": "q2",
                                                  "judge": "Dana", "questions": True}).json()["submissions"][0]
    assert any("can be identified" in q["add"] for q in asked["ruling"]["questions"])
    plain = submit(station, text.replace("round: 1", "round: 3"), "q3")
    assert plain["ruling"]["questions"] == []
