"""The station's reading endpoint (/api/read: the tolerant reader's reading, live as the judge
types) and its observation search (/api/policies/P/search: infraction names, initials,
sections and default numbers, all from the pack's own rulings)."""
from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from ppgcheck import api
from ppgcheck.language.model import Reading
from ppgcheck.server import base
from ppgcheck.server.app import create_app
from ppgcheck.server.base import Station
from station import client  # noqa: F401 (the fixture)

CANONICAL = "policy: fab\nplayer: Alice\nplayer: Bob\nAlice drew 2 extra cards\n"


def test_a_canonical_report_reads_with_no_reading(client):
    answer = client.post("/api/read", json={"report": CANONICAL})
    assert answer.status_code == 200, answer.text
    [report] = answer.json()["reports"]
    assert report["policy"] == "fab" and report["persons"] == ["Alice", "Bob"]
    assert report["observations"] == 1 and report["readings"] == []


def test_the_reading_of_a_free_sentence_is_returned(client, monkeypatch):
    """The reader (another module) sets Observation.reading; the endpoint hands each one on
    with its line, and reads tolerantly (the strict parse is not asked)."""
    asked = []
    parse = base.parse_reports

    def reader(text, source="<report>", policy=None, rules=None, first_line=1, tolerant=False):
        asked.append(tolerant)
        reports = parse(text, source, policy, rules, first_line)
        reports[0].observations[0].reading = Reading("In game 2, Alice drew two extra cards", "Alice drew 2 extra cards",
                                                     ["In game 2,"])
        return reports
    monkeypatch.setattr(base, "parse_reports", reader)
    [report] = client.post("/api/read", json={"report": CANONICAL}).json()["reports"]
    assert asked == [True]
    assert report["readings"] == [{"line": 4, "written": "In game 2, Alice drew two extra cards",
                                   "read_as": "Alice drew 2 extra cards", "not_read": ["In game 2,"]}]


def test_a_report_it_cannot_read_is_the_parsers_error_with_its_suggestions(client):
    answer = client.post("/api/read", json={"report": "policy: fab\nplayer: Alice\nAlice drew 2 extar cards\n"})
    assert answer.status_code == 200           # a half-typed report is an answer, not a failure
    assert answer.json()["reports"] == []
    error = answer.json()["error"]
    assert (error["line"], error["column"]) == (3, 14)
    assert isinstance(error["suggestions"], list)


def test_the_page_rules_and_submits_tolerantly_only_when_asked(client, monkeypatch):
    asked = []
    parse = base.parse_reports

    def spy(text, source="<report>", policy=None, rules=None, first_line=1, tolerant=False):
        asked.append(tolerant)
        return parse(text, source, policy, rules, first_line)
    monkeypatch.setattr(base, "parse_reports", spy)
    assert client.post("/api/rule", json={"report": CANONICAL}).status_code == 200
    assert client.post("/ui/card", json={"report": CANONICAL, "tolerant": True}).status_code == 200
    assert asked == [False, True]


@pytest.fixture(scope="module")
def fab_search():
    return api.observation_search("fab")


def test_the_search_knows_infraction_names_initials_and_sections(client, fab_search):
    answer = client.get("/api/policies/fab/search")
    assert answer.status_code == 200
    assert answer.json()["observations"] == fab_search
    [hidden] = [i for i in fab_search["drew_above_intellect"]["infractions"]]
    assert hidden["id"] == "hidden-card-error" and hidden["section"] == "PPG 2.5"
    assert hidden["words"] == "hidden card error" and hidden["initials"] == ["HCE"]
    # looking at extra cards becomes a hidden card error once mixed into the hand (PPG 2.5)
    assert "hidden-card-error" in [i["id"] for i in fab_search["looked_at_extra_cards"]["with_more"]]
    assert client.get("/api/policies/nope/search").status_code == 404


def test_an_infraction_id_of_two_parts_has_initials_for_each(client):
    dci = api.observation_search("dci")
    [drawing] = dci["drew_extra_cards"]["infractions"]
    assert drawing["words"] == "card drawing / drawing extra cards" and drawing["initials"] == ["CD", "DEC"]


def test_default_numbers_make_the_observation_an_infraction(fab_search):
    """Not `drew 1 cards with intellect 1` (no infraction): the first numbers the pack rules
    as one, and the ruling at them is an infraction."""
    defaults = fab_search["drew_above_intellect"]["defaults"]
    assert defaults["cards"] > defaults["intellect"]
    [rs] = api.rule_report("policy: fab\nplayer: Alice\n"
                           f"Alice drew {defaults['cards']} cards with intellect {defaults['intellect']}\n"
                           .replace("drew 1 cards", "drew 1 card"), questions=False)
    assert [r.infraction for r in rs.rulings] == ["hidden-card-error"]
    # a form no number makes an infraction on its own has no defaults (the page prompts instead)
    assert fab_search["clerical_error"]["defaults"] is None


# --- the card and the slip -------------------------------------------------------------------

def test_the_card_shows_each_reading_whether_observations_are_objects_or_strings():
    from ppgcheck.server.card import card
    ruled = {"report": "station-abc12-xyz", "policy": "fab", "observations": [
        "Alice drew 2 extra cards",
        {"read_as": "Bob was 3 minutes late", "written": "Bob got to table 40 three minutes late",
         "not_read": ["to table 40"]},
        {"read_as": "Alice played slowly", "written": "Alice played slowly", "not_read": []}]}
    c = card(ruled)
    assert c["readings"] == [{"n": 2, "read_as": "Bob was 3 minutes late",
                              "written": "Bob got to table 40 three minutes late", "not_read": ["to table 40"]}]
    assert c["source_shown"] == ""                       # the station's own draft key is no name for a judge
    assert card({**ruled, "report": "table-12.txt"})["source_shown"] == "table-12.txt"


def test_a_report_ruled_again_keeps_its_slip_as_it_was_and_names_its_replacement(tmp_path):
    """Issue 39: after a void and "rule again", the slip of the report ruled again shows the
    ruling as it was (its upgrade), marked replaced, and the penalty in force says it was
    ruled again after the void, not "the Head Judge's decision"."""
    from station import HEAD_TOKEN, JUDGE_TOKEN, with_tokens
    hidden = ("policy: fab\nrel: competitive\nround: {n}\nday: 2\nplayer: Alice\nplayer: Bob\nAlice drew 5 cards "
              "with intellect 4, mixed into her hand, caught before Bob's next action, not on purpose\n")
    station = with_tokens(tmp_path / "event.db")
    with TestClient(create_app(station), raise_server_exceptions=False) as client:
        csrf = client.get("/api/session").json()["csrf"]

        def write(path, body, token=JUDGE_TOKEN):
            done = client.post(path, json=body, headers={"X-CSRF-Token": csrf, "Authorization": f"Bearer {token}"})
            assert done.status_code == 200, done.text
            return done.json()
        subs = [write("/api/event/reports", {"report": hidden.format(n=n), "judge": "Dana", "source": f"r{n}"}
                      )["submissions"][0] for n in (1, 2, 3)]
        third = subs[2]
        old_id = third["recorded"][0]["id"]
        write(f"/api/event/penalties/{subs[1]['recorded'][0]['id']}/void", {"reason": "entered twice", "judge": "Hana"},
              HEAD_TOKEN)
        ruled = write(f"/api/event/reports/{third['report_id']}/rerule",
                      {"reason": "penalty #2 voided: entered twice", "judge": "Hana"}, HEAD_TOKEN)
        new_id = ruled["amended"][0]["new"]["id"]
        slip = client.get(f"/event/slip/{third['report_id']}").text
    station.close()
    in_force = slip[slip.index('class="in-force"'):slip.index("</section>", slip.index('class="in-force"'))]
    assert f"ruled again, replacing #{old_id}, after penalty #2 voided: entered twice" in in_force
    assert "Head Judge&#39;s decision" not in slip and "Head Judge's decision" not in slip
    ruling = slip[slip.index('class="ruling'):]
    assert f"Replaced by penalty #{new_id}" in ruling
    # what the ruling said then: its upgrade, not the new penalty beside it
    assert third["ruling"]["rulings"][0]["penalty"].upper().replace("-", " ") in ruling.split("</section>")[0]
    assert 'class="penalty decided"' not in ruling
    assert f"#{old_id}, replaced by #{new_id}" in slip


def test_the_event_view_marks_which_penalty_replaced_which(tmp_path):
    from station import HEAD_TOKEN, JUDGE_TOKEN, with_tokens
    station = with_tokens(tmp_path / "event.db")
    with TestClient(create_app(station), raise_server_exceptions=False) as client:
        csrf = client.get("/api/session").json()["csrf"]
        headers = {"X-CSRF-Token": csrf}
        done = client.post("/api/event/reports", headers={**headers, "Authorization": f"Bearer {JUDGE_TOKEN}"},
                           json={"report": "policy: dci\nrel: competitive\nplayer: Carol\nCarol stalled\n",
                                 "judge": "Dana"}).json()
        old = done["submissions"][0]["recorded"][0]["id"]
        amended = client.post(f"/api/event/penalties/{old}/amend",
                              headers={**headers, "Authorization": f"Bearer {HEAD_TOKEN}"},
                              json={"penalty": "disqualification-without-prizes", "reason": "on purpose",
                                    "judge": "Hana"}).json()["amended"]["id"]
        rows = {p["id"]: p for p in client.get("/api/event", params={"all": "1"}).json()["penalties"]}
        page = client.get("/event", params={"all": "1"}).text
    station.close()
    assert (rows[amended]["replaces"], rows[old]["replaced_by"]) == (old, amended)
    assert f"replaces #{old}" in page and f"replaced by #{amended}" in page
