"""`ppgcheck serve --rules DIR`: the station serves the packs of a rules folder everywhere it
reads one (the policies, each policy's reference and search, reading and ruling a report, the
batches in and out of process, event submissions and the record), and the bundled packs
without it.  The folder holds a copy of tests/fixtures/packs/acme, a pack with words of its
own (`ate food at the table`) that no bundled pack reads, and a pack `ppgcheck new-pack`
makes; the bundled core serves them both."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from ppgcheck import api
from ppgcheck.cli import cli
from ppgcheck.engine.render import ruling_dict
from ppgcheck.language.report import parse_reports
from ppgcheck.server.app import create_app
from ppgcheck.server.base import Station
from ppgcheck.server.batching import RulingBatcher
from station import HEAD_TOKEN, JUDGE_TOKEN, client, signed_in, with_tokens, write  # noqa: F401 (the fixture)

ACME = Path(__file__).parent / "fixtures" / "packs" / "acme"
SPILLED = ("policy: acme\nplayer: Alice\nplayer: Bob\n"
           "Alice deliberately ate at the table, the food spilled on Bob's cards\n")
LATE = "policy: snacks\nplayer: Carol\nCarol was 5 minutes late\n"


@pytest.fixture(scope="module")
def house(tmp_path_factory) -> Path:
    """A rules folder without a core: a copy of the acme pack, and `snacks` as new-pack makes it."""
    root = tmp_path_factory.mktemp("house")
    shutil.copytree(ACME, root / "acme", ignore=shutil.ignore_patterns("golden", "source"))
    made = CliRunner().invoke(cli, ["new-pack", "snacks", "--into", str(root), "--source", "snacks.txt"])
    assert made.exit_code == 0, made.output
    with open(root / "snacks" / "s00_penalties.lp", "a") as ladder:       # what the bundled station cannot know
        ladder.write('not_recorded(warning, "a Snacks Warning is spoken only", "ACME SNACKS 1").\n')
    return root


@pytest.fixture(scope="module")
def served(house, tmp_path_factory):
    """A station serving `house` with an event (tokens required), in process."""
    with signed_in(with_tokens(tmp_path_factory.mktemp("event") / "e.db", rules=house)) as c:
        yield c


def test_the_station_lists_the_folder_s_policies_and_the_page_offers_them(served):
    assert served.get("/api/policies").json() == {"policies": ["acme", "snacks"]}
    page = served.get("/").text
    assert '<option value="acme">' in page and '<option value="snacks">' in page
    assert '<option value="fab">' not in page


def test_a_policy_the_folder_does_not_have_is_unknown_as_on_any_station(served):
    for path in ("/api/policies/fab", "/api/policies/fab/search", "/api/vocab?policy=fab"):
        response = served.get(path)
        assert response.status_code == 404, path
        assert "known policies are `acme`, `snacks`" in response.json()["error"]["message"]
    refused = served.post("/api/rule", json={"report": SPILLED, "policy": "fab"})
    assert refused.status_code == 400 and refused.json()["error"]["kind"] == "usage"
    unknown = served.post("/api/rule", json={"report": "policy: fab\nplayer: A\nA was 3 minutes late\n"})
    assert unknown.status_code == 422 and "`acme`, `snacks`" in unknown.json()["error"]["message"]


def test_the_reference_vocabulary_and_search_are_the_pack_s(served):
    reference = served.get("/api/policies/acme").json()
    assert {"id": "eating-at-the-table", "section": "ACME 2"} in reference["infractions"]
    assert "spilled_on_cards" in reference["modifiers_read"]["ate_food"]
    vocab = served.get("/api/vocab?policy=acme").json()
    assert "ate_food" in str(vocab) and vocab["policies"] == ["acme", "snacks"]
    found = served.get("/api/policies/acme/search").json()["observations"]
    assert [i["id"] for i in found["ate_food"]["infractions"]] == ["eating-at-the-table"]
    assert found["ate_food"]["infractions"][0]["initials"] == ["EATT"]
    snacks = served.get("/api/policies/snacks/search").json()["observations"]
    assert [i["id"] for i in snacks["late"]["infractions"]] == ["tardiness"] and "ate_food" not in snacks


def test_a_report_in_the_pack_s_own_words_is_read_and_ruled(served, house, client):  # noqa: F811 (the fixture)
    read = served.post("/api/read", json={"report": SPILLED}).json()
    assert "error" not in read and read["reports"][0]["policy"] == "acme"
    assert served.post("/api/parse", json={"report": SPILLED}).json()["reports"][0]["observations"] == 1
    [ruled] = served.post("/api/rule", json={"report": SPILLED}).json()
    [ruling] = ruled["rulings"]
    assert (ruling["infraction"], ruling["penalty"], ruling["section"]) == ("eating-at-the-table", "game-loss",
                                                                             "ACME 2")
    assert ruled == ruling_dict(api.rule_prepared(api.prepare(parse_reports(SPILLED, "report", rules=house),
                                                              rules=house), house, questions=True)[0])
    # the bundled station knows no acme: without --rules nothing changed
    assert client.post("/api/rule", json={"report": SPILLED}).status_code == 422
    assert "acme" not in client.get("/api/policies").json()["policies"]


def test_comparing_rules_under_each_guide_the_station_serves(served):
    [compared] = served.post("/api/compare", json={"report": LATE}).json()
    assert sorted(compared["policies"]) == ["acme", "snacks"]
    assert [r["infraction"] for r in compared["policies"]["snacks"]["rulings"]] == ["tardiness"]
    assert compared["policies"]["acme"]["rulings"] == []


def test_a_submission_records_the_pack_s_ruling_and_the_record_reads_its_pack(served):
    response = write(served, "/api/event/reports", {"report": SPILLED, "source": "t1", "judge": "Dana"})
    assert response.status_code == 200, response.text
    [first] = response.json()["submissions"]
    assert [(p["infraction"], p["penalty"]) for p in first["recorded"]] == [("eating-at-the-table", "game-loss")]
    second = write(served, "/api/event/reports", {"report": SPILLED.split("Alice deliberately")[0]
                                                  + "Alice ate food at the table\n", "source": "t2", "judge": "Dana"})
    [second] = second.json()["submissions"]
    assert [p["penalty"] for p in second["recorded"]] == ["warning"] and len(second["counted"]) == 1
    record = served.get("/api/event").json()
    assert [(p["policy"], p["penalty"]) for p in record["penalties"]] == [("acme", "game-loss"), ("acme", "warning")]
    voided = write(served, f"/api/event/penalties/{first['recorded'][0]['id']}/void",
                   {"reason": "wrong table", "judge": "Hana"}, token=HEAD_TOKEN)
    assert voided.json()["counted_by_reports"] == [second["report_id"]]
    assert served.get("/api/event").json()["needs_ruling_again"] == [second["report_id"]]
    again = write(served, f"/api/event/reports/{second['report_id']}/rerule", {"reason": "voided", "judge": "Hana"},
                  token=HEAD_TOKEN)
    assert again.status_code == 200, again.text
    assert served.get("/api/event").json()["needs_ruling_again"] == []
    assert "eating-at-the-table" in served.get("/api/event/export?format=csv").text


def test_the_record_and_the_export_know_what_the_pack_does_not_record(served):
    """snacks does not record its Warnings: the record says so, the export leaves them out,
    and a later ruling that did not count one is not stale."""
    for source in ("c1", "c2"):
        response = write(served, "/api/event/reports", {"report": LATE, "source": source, "judge": "Dana"})
        assert response.status_code == 200, response.text
        assert response.json()["submissions"][0]["counted"] == []
    record = served.get("/api/event?player=Carol").json()
    assert [p["not_recorded"] for p in record["penalties"]] == [
        {"text": "a Snacks Warning is spoken only", "section": "ACME SNACKS 1"}] * 2
    assert record["needs_ruling_again"] == []
    assert "Carol" not in served.get("/api/event/export?format=csv").text


def test_a_worker_process_rules_with_the_folder_s_packs(house):
    prepared = api.prepare(parse_reports(SPILLED + "---\n" + LATE, "r", rules=house), rules=house)
    batcher = RulingBatcher(workers=1, rules=house)
    batcher.start()
    try:
        served = batcher.rule(prepared)
    finally:
        batcher.close()
    assert [ruling_dict(rs) for rs in served] == [ruling_dict(rs) for rs in
                                                  api.rule_prepared(prepared, house, questions=True)]
    assert [rs.rulings[0].infraction for rs in served] == ["eating-at-the-table", "tardiness"]


def test_a_station_and_its_batcher_serve_one_folder(house, tmp_path):
    assert Station(rules=house).batcher.rules == house
    with pytest.raises(ValueError):
        Station(rules=house, batcher=RulingBatcher(rules=tmp_path))


def test_serve_refuses_a_folder_that_holds_no_pack(tmp_path):
    result = CliRunner().invoke(cli, ["serve", "--rules", str(tmp_path), "--port", "0"])
    assert result.exit_code == 2 and "is not a rules folder" in result.output
    assert "--rules DIR" in CliRunner().invoke(cli, ["serve", "--help"]).output


def test_a_pack_file_that_is_a_symlink_out_of_the_folder_is_refused_unread(tmp_path):
    """The folder is untrusted as `rule --rules` takes it: a pack file that leads outside it
    is refused by name, its content never reaches a ruling, and the station still starts."""
    secret = tmp_path / "secret.lp"
    secret.write_text('infraction(O, P, leaked_secret) :- observation(O, P, ate_food).\n')
    root = tmp_path / "rules"
    shutil.copytree(ACME, root / "acme", ignore=shutil.ignore_patterns("golden", "source"))
    (root / "acme" / "z_secret.lp").symlink_to(secret)
    station = Station(rules=root)
    station.batcher.start()     # the pack is left for its requests, not a failed start
    try:
        with TestClient(create_app(station), raise_server_exceptions=False) as c:
            for response in (c.post("/api/rule", json={"report": SPILLED}), c.get("/api/policies/acme")):
                assert response.status_code == 500 and response.json()["error"]["kind"] == "policy"
                assert "is a symlink to a file outside the rules folder" in response.text
                assert "leaked_secret" not in response.text
    finally:
        station.close()


def test_event_export_on_the_command_line_takes_the_folder_too(house, tmp_path):
    """`event export --rules DIR` leaves out what the folder's guide does not record (snacks'
    Warnings); without it the bundled packs know no `snacks` and export it."""
    event, report = tmp_path / "e.db", tmp_path / "late.txt"
    report.write_text(LATE)
    runner = CliRunner()
    ruled = runner.invoke(cli, ["rule", str(report), "--rules", str(house), "--event", str(event), "--judge", "Dana"])
    assert ruled.exit_code == 0, ruled.output
    kept = runner.invoke(cli, ["event", "export", "--event", str(event), "--rules", str(house)])
    assert kept.exit_code == 0 and "Carol" not in kept.stdout and "does not record" in kept.stderr
