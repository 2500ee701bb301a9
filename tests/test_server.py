"""The judge station's API and pages, in process (Starlette's TestClient): rulings equal
the library's, bad requests get a 4xx JSON error and never a traceback, writes need
tokens and the CSRF token, and everything rendered is escaped."""
from __future__ import annotations

import html
import json
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from ppgcheck import api
from ppgcheck.engine.render import ruling_dict
from ppgcheck.server import openapi
from ppgcheck.server.access import Access
from ppgcheck.server.app import create_app
from ppgcheck.server.base import Station
from sampling import sampled
from station import HEAD_TOKEN, JUDGE_TOKEN, client  # noqa: F401 (the fixture)

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = (ROOT / "examples" / "fab" / "hidden-card-error.txt").read_text()
TYPO = "policy: fab\nplayer: Alice\nAlice drew 2 extar cards\n"


@pytest.fixture(scope="module")
def guarded():
    """A station that needs tokens (as `serve --host 0.0.0.0` runs it), without an event."""
    station = Station(access=Access(JUDGE_TOKEN, HEAD_TOKEN))
    with TestClient(create_app(station), raise_server_exceptions=False) as c:
        yield c
    station.batcher.close()


def assert_error(response, status: int, kind: str | None = None) -> dict:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    assert "Traceback" not in response.text
    error = response.json()["error"]
    assert error["message"] and "\n" not in error["message"]
    if kind:
        assert error["kind"] == kind
    return error


def test_rule_answers_what_the_library_rules(client):
    response = client.post("/api/rule", json={"report": EXAMPLE, "source": "examples/fab/hidden-card-error.txt"})
    assert response.status_code == 200
    expected = [ruling_dict(rs) for rs in api.rule_report(EXAMPLE, source="examples/fab/hidden-card-error.txt")]
    assert response.json() == json.loads(json.dumps(expected))
    ruling = response.json()[0]["rulings"][0]
    assert (ruling["player"], ruling["infraction"], ruling["penalty"]) == ("Alice", "hidden-card-error", "warning")


def test_rule_is_the_cli_json(client, tmp_path):
    path = tmp_path / "r.txt"
    path.write_text(EXAMPLE)
    cli = subprocess.run([sys.executable, "-m", "ppgcheck", "rule", str(path), "--format", "json"],
                         capture_output=True, text=True)
    served = client.post("/api/rule", json={"report": EXAMPLE, "source": str(path)}).json()
    assert served == json.loads(cli.stdout)     # both a list, one object per report


def test_rule_under_another_policy_and_without_questions(client):
    late = "rel: competitive\nplayer: Bob\nBob was 4 minutes late\n"
    plain = client.post("/api/rule", json={"report": late, "policy": "dci", "questions": False}).json()[0]
    assert plain["policy"] == "dci" and plain["questions"] == []
    assert plain["rulings"][0]["infraction"] == "tournament-error/tardiness"
    asked = client.post("/api/rule", json={"report": EXAMPLE}).json()[0]
    assert asked["questions"], "the default asks the questions that would change the ruling"


def test_several_reports_in_one_request_each_ruled_in_order(client):
    late = "policy: fab\nplayer: Bob\nBob was 4 minutes late\n"
    rulings = client.post("/api/rule", json={"report": EXAMPLE + "---\n" + late}).json()
    assert [r["rulings"][0]["infraction"] for r in rulings] == ["hidden-card-error", "tardiness"]


def test_parse_error_carries_line_column_expected(client):
    error = assert_error(client.post("/api/rule", json={"report": TYPO}), 422, "report")
    assert (error["line"], error["column"]) == (3, 14)
    assert error["line_text"] == "Alice drew 2 extar cards"
    assert "`extra`" in error["expected"]
    assert error["message"] == "unexpected `extar`"
    assert_error(client.post("/api/parse", json={"report": TYPO}), 422, "report")


def test_parse_reads_without_ruling(client):
    result = client.post("/api/parse", json={"report": EXAMPLE}).json()
    assert result == {"reports": [{"policy": "fab", "persons": ["Alice", "Bob"], "observations": 1}]}


def test_unknown_policy_is_a_clear_error(client):
    assert "unknown policy `nope`" in assert_error(client.post("/api/rule", json={"report": EXAMPLE, "policy": "nope"}),
                                                   400)["message"]
    assert_error(client.post("/api/rule", json={"report": "player: A\nA was 3 minutes late\n"}), 422, "report")
    assert_error(client.get("/api/policies/nope"), 404)


def test_malformed_json(client):
    assert_error(client.post("/api/rule", content=b'{"report": ', headers={"content-type": "application/json"}),
                 400, "json")
    assert_error(client.post("/api/rule", json=["a list"]), 400, "json")
    assert_error(client.post("/api/rule", json={"report": 3}), 400, "json")
    assert_error(client.post("/api/rule", json={}), 400, "json")
    assert_error(client.post("/api/rule", content=b"\xff\xfe", headers={"content-type": "application/json"}),
                 400, "json")
    assert_error(client.post("/api/rule", content=b"report=x",
                             headers={"content-type": "application/x-www-form-urlencoded"}), 415)


def test_oversized_body_is_refused_before_it_is_read(client):
    big = json.dumps({"report": "# " + "x" * 70_000}).encode()
    assert_error(client.post("/api/rule", content=big, headers={"content-type": "application/json"}), 413, "size")

    def chunks():                    # no Content-Length: the stream is cut at the limit
        for _ in range(100):
            yield b" " * 1024
    assert_error(client.post("/api/rule", content=chunks(), headers={"content-type": "application/json"}),
                 413, "size")
    many = "---\n".join(["policy: fab\nplayer: A\nA was 3 minutes late\n"] * 51)
    assert_error(client.post("/api/rule", json={"report": many}), 413, "size")


def test_unknown_route_and_method_are_json(client):
    assert_error(client.get("/api/nothing-here"), 404, "http")
    assert_error(client.get("/api/rule"), 405, "http")


def test_no_event_is_a_404_naming_the_option(client):
    error = assert_error(client.get("/api/event"), 404, "event")
    assert "--event" in error["message"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(st.text(max_size=200), st.binary(max_size=200).map(lambda b: b.decode("latin-1"))))
def test_any_report_text_is_a_ruling_or_a_4xx(client, text):
    response = client.post("/api/rule", json={"report": "policy: fab\nplayer: Alice\n" + text, "questions": False})
    assert response.status_code in (200, 422), response.text
    assert "Traceback" not in response.text


def test_compare_rules_under_every_guide(client):
    report = (ROOT / "examples" / "compare" / "extra-card.txt").read_text()
    result = client.post("/api/compare", json={"report": report}).json()
    assert set(result[0]["policies"]) == {"dci", "fab", "ffg", "yugioh"}


def test_vocab_lists_every_form_the_cli_lists(client):
    catalog = client.get("/api/vocab").json()
    cli = json.loads(subprocess.run([sys.executable, "-m", "ppgcheck", "vocab", "--format", "json"],
                                    capture_output=True, text=True).stdout)
    served = {o["text"] for o in catalog["observations"]} | {t for o in catalog["observations"] for t in o["synonyms"]}
    assert served == {f["form"] for f in cli if f["category"] == "observation"}
    mods = {m["kind"]: m for m in catalog["modifiers"]}
    assert mods["caught_before_next_action"]["person"] and mods["on_purpose"]["group"] == "intent"
    assert "player" in catalog["keywords"]
    # the words the tolerant reader takes for a kind, for the builder's search (`stole`: theft)
    words = {o["kind"]: o["words"] for o in catalog["observations"]}
    assert "stole" in words["stole_material"] and "stole" not in words["late"]


def test_policy_reference(client):
    fab = client.get("/api/policies/fab").json()
    assert {"id": "hidden-card-error", "section": "PPG 2.5"} in fab["infractions"]
    assert fab["penalties"].index("warning") < fab["penalties"].index("game-loss")
    # what can change a draw above intellect's ruling (PPG 2.4/2.5), not what other kinds' rules read
    read = fab["modifiers_read"]["drew_above_intellect"]
    assert "extras_identifiable" in read and "on_purpose" in read and "mixed_into_hand" not in read
    assert "PPG 2.5" in fab["sections"]


def test_openapi_documents_every_route_and_no_other(client):
    app = client.app
    served = {(r.path.replace(":int", ""), m.lower()) for r in app.routes if getattr(r, "methods", None)
              for m in r.methods if m != "HEAD" and r.path.startswith("/api/")}
    document = client.get("/api/openapi.json").json()
    assert document == openapi.document(document["info"]["version"])
    documented = {(path, method) for path, ops in document["paths"].items() for method in ops}
    assert served == documented


def test_card_is_escaped_and_phrased_like_the_cli(client):
    hostile = ('policy: fab\nplayer: "<script>alert(1)</script>"\nplayer: Bob\n'
               '"<script>alert(1)</script>" was 4 minutes late\n')
    page = client.post("/ui/card", json={"report": hostile})
    assert page.status_code == 200
    assert "<script>" not in page.text and "&lt;script&gt;alert(1)&lt;/script&gt;" in page.text
    card = client.post("/ui/card", json={"report": EXAMPLE}).text
    assert "WARNING" in card and "hidden-card-error" in card and "3 minutes" in card
    assert "some cards already left the mixed group? → Alice: hidden-card-error, INTELLECT PENALTY" in card


def test_page_headers_forbid_inline_script(client):
    page = client.get("/")
    assert page.status_code == 200
    assert "script-src" not in page.headers["content-security-policy"]     # default-src 'self' covers it
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert client.get("/static/station.js").status_code == 200


# --- who may write -------------------------------------------------------------------------

def session(c, token: str | None = None) -> dict:
    return c.get("/api/session", headers={"Authorization": f"Bearer {token}"} if token else {}).json()


def test_loopback_station_needs_no_token_but_the_csrf_token(client):
    s = session(client)
    assert s["tokens_required"] is False and s["role"] == "head-judge"
    no_csrf = client.post("/api/event/reports", json={"report": EXAMPLE, "judge": "Dana"})
    assert_error(no_csrf, 403, "csrf")
    with_csrf = client.post("/api/event/reports", json={"report": EXAMPLE, "judge": "Dana"},
                            headers={"X-CSRF-Token": s["csrf"]})
    assert_error(with_csrf, 404, "event")       # past the checks: this station keeps no event


def test_tokens_decide_who_writes(guarded):
    csrf = session(guarded)["csrf"]
    assert session(guarded)["role"] is None
    assert session(guarded, JUDGE_TOKEN)["role"] == "judge"
    assert session(guarded, HEAD_TOKEN)["role"] == "head-judge"
    body = {"report": EXAMPLE, "judge": "Dana"}

    def submit(headers):
        return guarded.post("/api/event/reports", json=body, headers={"X-CSRF-Token": csrf, **headers})
    assert_error(submit({}), 401, "token")
    assert_error(submit({"Authorization": "Bearer wrong"}), 403, "token")
    assert_error(submit({"Authorization": f"Bearer {JUDGE_TOKEN}x"}), 403, "token")
    assert_error(submit({"Authorization": f"Basic {JUDGE_TOKEN}"}), 401, "token")
    assert_error(submit({"Authorization": f"Bearer {JUDGE_TOKEN}"}), 404, "event")     # allowed
    void = {"reason": "typo", "judge": "Dana"}
    judge_void = guarded.post("/api/event/penalties/1/void", json=void,
                              headers={"X-CSRF-Token": csrf, "Authorization": f"Bearer {JUDGE_TOKEN}"})
    assert "Head Judge" in assert_error(judge_void, 403, "token")["message"]
    head_void = guarded.post("/api/event/penalties/1/void", json=void,
                             headers={"X-CSRF-Token": csrf, "Authorization": f"Bearer {HEAD_TOKEN}"})
    assert_error(head_void, 404, "event")


def test_cross_site_writes_are_refused(guarded):
    csrf = session(guarded)["csrf"]
    headers = {"X-CSRF-Token": csrf, "Authorization": f"Bearer {JUDGE_TOKEN}", "Origin": "http://evil.example"}
    assert_error(guarded.post("/api/event/reports", json={"report": EXAMPLE, "judge": "D"}, headers=headers),
                 403, "csrf")
    headers["X-CSRF-Token"] = csrf[:-1] + ("A" if csrf[-1] != "A" else "B")
    del headers["Origin"]
    assert_error(guarded.post("/api/event/reports", json={"report": EXAMPLE, "judge": "D"}, headers=headers),
                 403, "csrf")


def test_reading_needs_no_token(guarded):
    assert guarded.post("/api/rule", json={"report": EXAMPLE}).status_code == 200
    assert guarded.get("/api/vocab").status_code == 200


def test_concurrent_requests_each_get_their_own_rulings(client):
    """The batcher rules concurrent requests together; each still gets exactly its own."""
    names = [f"P{i}" for i in range(12)]
    results: dict[str, object] = {}

    def ask(name: str, minutes: int) -> None:
        report = f"policy: fab\nplayer: {name}\n{name} was {minutes} minutes late\n"
        results[name] = client.post("/api/rule", json={"report": report, "questions": minutes % 2 == 0}).json()

    threads = [threading.Thread(target=ask, args=(n, 2 + i % 20)) for i, n in enumerate(names)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for i, name in enumerate(names):
        (ruling,) = results[name]
        expected = ruling_dict(api.rule_report(f"policy: fab\nplayer: {name}\n{name} was {2 + i % 20} minutes late\n",
                                               source="report", questions=i % 2 == 0)[0])
        assert ruling == json.loads(json.dumps(expected))


def _batched(texts: list[str], workers: int, questions: bool | list[bool]):
    """The reports prepared, and their rulings from a batcher with these worker processes."""
    from ppgcheck.language.report import parse_reports
    from ppgcheck.server.batching import RulingBatcher
    prepared = [p for i, t in enumerate(texts) for p in api.prepare(parse_reports(t, f"r{i}"))]
    batcher = RulingBatcher(workers=workers)
    batcher.start()
    try:
        return prepared, batcher.rule(prepared, questions=questions)
    finally:
        batcher.close()


def test_worker_processes_rule_as_the_library_does():
    """Batches split over worker processes (one part per policy, a large part halved) come
    back whole and in order."""
    texts = [f"policy: {p}\nrel: competitive\nplayer: P{i}\nP{i} was {1 + i % 9} minutes late\n"
             for i, p in enumerate(["fab"] * 10 + ["dci", "yugioh", "fab", "ffg"])]
    prepared, served = _batched(texts, workers=2, questions=True)
    expected = api.rule_prepared(prepared, questions=True)
    assert [ruling_dict(rs) for rs in served] == [ruling_dict(rs) for rs in expected]


def test_one_batch_rules_some_reports_with_questions_and_some_without():
    """A station's wave of submissions is one batch whatever each asks (the page's card wants
    the questions, the JSON API by default not): each report gets the ruling it would alone."""
    texts = [f"policy: {p}\nrel: competitive\nplayer: P{i}\nP{i} played slowly\n"
             for i, p in enumerate(["fab", "dci", "fab", "yugioh", "dci", "fab"])]
    flags = [i % 2 == 0 for i in range(len(texts))]       # (one report a text)
    prepared, served = _batched(texts, workers=0, questions=flags)
    alone = [api.rule_prepared([p], questions=flag)[0] for p, flag in zip(prepared, flags)]
    assert [ruling_dict(rs) for rs in served] == [ruling_dict(rs) for rs in alone]
    assert any(rs.questions for rs, flag in zip(served, flags) if flag)
    assert not any(rs.questions for rs, flag in zip(served, flags) if not flag)


def test_a_killed_worker_process_is_replaced():
    import os
    import signal

    from ppgcheck.language.report import parse_reports
    from ppgcheck.server.batching import RulingBatcher
    prepared = api.prepare(parse_reports("policy: fab\nplayer: A\nA was 3 minutes late\n", "r"))
    batcher = RulingBatcher(workers=1)
    batcher.start()
    try:
        (pid,) = list(batcher._pool._processes)
        os.kill(pid, signal.SIGKILL)
        (first,) = batcher.rule(prepared)
        (second,) = batcher.rule(prepared)
        assert list(batcher._pool._processes) != [pid]
    finally:
        batcher.close()
    expected = ruling_dict(api.rule_prepared(prepared, questions=True)[0])
    assert ruling_dict(first) == expected and ruling_dict(second) == expected


def test_card_says_what_the_text_ruling_says(client):
    """For golden reports of every guide, the card's penalty lines and options are the
    text renderer's, word for word (escaped): a fixed sample of 10 reports a folder, bad input
    among them (every golden report under PPGCHECK_FULL_SWEEP=1, bench/full_sweeps)."""
    import html
    import re

    from ppgcheck.engine.render import render_text
    folders = sorted(path for path in (ROOT / "tests" / "golden").iterdir() if path.is_dir())
    paths = [path for folder in folders for _, path in sampled(sorted(folder.glob("*.txt")), 10, f"card {folder.name}")]
    assert len(paths) >= 50
    for path in paths:
        text = path.read_text()
        response = client.post("/ui/card", json={"report": text, "source": path.name})
        try:
            ruled = api.rule_report(text, source=path.name)
        except api.ReportError as exc:          # a golden case of bad input: the same error
            assert response.status_code == 422 and response.json()["error"]["message"] == exc.message
            continue
        card = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html.unescape(response.text)))
        for rs in ruled:
            for line in render_text(rs).splitlines():
                line = line.strip()
                if line.startswith("penalty: "):
                    penalty = line.removeprefix("penalty: ").split(" — ")[0]
                    assert penalty in card, (path.name, penalty)
                elif line.startswith(("the Head Judge may", "the judge may")):
                    assert line in card, (path.name, line)


def test_card_shows_the_match_outcome_as_the_text_ruling_words_it(client):
    """A report ending the match: the card shows the outcome (and a procedure's note)
    in the text ruling's words, cited."""
    from ppgcheck.engine.render import render_text
    report = ("policy: fab\nrel: competitive\nround: 5, swiss\nplayer: Alice\nplayer: Bob\n"
              "Alice drew 1 extra card.\ntime was called during Alice's turn\nthe extra turns are over\n")
    text = render_text(api.rule_report(report)[0])
    match = [line.strip().removeprefix("match — ") for line in text.splitlines() if "match — " in line]
    assert match and any("draw" in line for line in match)
    card = client.post("/ui/card", json={"report": report}).text
    assert "The match" in card
    for line in match:
        assert html.escape(line, quote=False) in card, line
    none = client.post("/ui/card", json={"report": EXAMPLE}).text
    assert "The match" not in none


def test_the_card_says_how_the_guide_stands_to_the_judges_call_and_why_a_question_has_no_penalty(client):
    """The station's card words a judge's call and a question as the text ruling does: a call
    on the option the guide permits is not a disagreement; a question answered by a gap or a
    conflict says so (and one narrowed to a set keeps it)."""
    from ppgcheck.engine.render import render_text
    golden = Path(__file__).resolve().parent / "golden" / "yugioh"
    for name, wanted in (("judge-call-option-permitted", "the guide permits the judge&#39;s call"),
                         ("judge-call-outside-permitted-disagrees", "the guide DISAGREES with the judge&#39;s call"),
                         ("question-on-purpose-not-covered", "not covered by the guide (a gap)"),
                         ("question-worn-sleeves-conflict", "two rules of the guide disagree")):
        report = (golden / f"{name}.txt").read_text(encoding="utf-8")
        card = client.post("/ui/card", json={"report": report}).text
        assert wanted in card, name
        assert wanted.replace("&#39;", "'") in render_text(api.rule_report(report)[0]), name
    sleeves = client.post("/ui/card", json={"report": (golden / "question-worn-sleeves-conflict.txt").read_text()}).text
    assert "DISQUALIFICATION WITH PRIZES or DISQUALIFICATION WITHOUT PRIZES" in sleeves


# --- the event's pages (ux audit of 2 Dec: findings 18, 19, 20) -------------------------------

@pytest.fixture
def event_client(tmp_path):
    pytest.importorskip("ppgcheck.event.store", reason="the event store (issue 13) is not in this tree")
    from station import signed_in, with_tokens
    with signed_in(with_tokens(tmp_path / "event.db")) as c:
        yield c


def _write(client, path: str, body: dict, token: str = JUDGE_TOKEN) -> dict:
    from station import write
    response = write(client, path, body, token)
    assert response.status_code == 200, response.text
    return response.json()


def _submit(client, text: str, source: str) -> dict:
    (submission,) = _write(client, "/api/event/reports", {"report": text, "source": source, "judge": "Dana"})["submissions"]
    return submission


LATE_ONE_MINUTE = ("policy: fab\nrel: competitive\nround: 7\nday: 2\ntable: 5\nplayer: Lee\nLee was 1 minute late\n"
                   "the ruling took 1 minute\n")


def test_one_minute_is_singular_on_the_card_and_the_event_page(client, event_client):
    card_html = client.post("/ui/card", json={"report": LATE_ONE_MINUTE}).text
    assert "time extension: <b>1 minute</b>" in card_html and "1 minutes" not in card_html
    _submit(event_client, LATE_ONE_MINUTE, "lee")
    page = event_client.get("/event").text
    assert "table 5: 1 minute<" in page and "1 minutes" not in page
    two = LATE_ONE_MINUTE.replace("Lee was 1 minute late", "Lee was 2 minutes late")
    assert "time extension: <b>2 minutes</b>" in client.post("/ui/card", json={"report": two}).text


def test_pending_penalties_are_counted_highlighted_and_a_player_found_in_any_case(event_client):
    _submit(event_client, "policy: dci\nrel: competitive\nround: 1\ntable: 2\nplayer: Carol\nCarol stalled\n", "c")
    _submit(event_client, LATE_ONE_MINUTE, "lee")
    page = event_client.get("/event").text
    assert re.search(r'id="pending-count" data-pending="1"><b>1 pending\s+penalty</b>', page)
    assert 'id="pending-only"' in page and 'id="pending-toggle"' in page
    assert re.search(r'<tr data-penalty-id="\d+" class="status-pending">', page)
    # the store matches a name exactly: the page names the players it meant
    lower = event_client.get("/event", params={"player": "caro"}).text
    assert 'players named like this: <a href="/event?player=Carol">Carol</a>' in lower
    none = event_client.get("/event").text
    assert "players named like this" not in none


def test_a_slip_after_the_head_judges_decision_leads_with_the_decision(event_client):
    """DCI Cheating is "a Disqualification" with or without prizes: recorded PENDING, then the
    Head Judge chooses.  The slip leads with the decision, marks the PENDING row as replaced by
    it, and spells penalties as the card does (DISQUALIFICATION WITHOUT PRIZES)."""
    sub = _submit(event_client, "policy: dci\nrel: competitive\nround: 4\ntable: 9\nplayer: Hank\nHank stalled\n", "h")
    (pending,) = sub["recorded"]
    assert pending["status"] == "pending"
    decided = _write(event_client, f"/api/event/penalties/{pending['id']}/amend",
                     {"penalty": "disqualification-without-prizes", "reason": "on purpose", "judge": "Olga"},
                     token=HEAD_TOKEN)["amended"]
    slip = event_client.get(f"/event/slip/{sub['report_id']}").text
    lead = slip.index('class="in-force"')
    assert lead < slip.index('class="card"')
    in_force = slip[lead:slip.index("</section>", lead)]
    assert "DISQUALIFICATION WITHOUT PRIZES" in in_force and f"penalty #{decided['id']}" in in_force
    assert "PENDING" not in in_force
    assert f"replaced by #{decided['id']}" in slip
    assert re.search(rf'<tr class="status-superseded" data-penalty-id="{pending["id"]}">', slip)
    assert "DISQUALIFICATION-WITHOUT-PRIZES" not in slip and "disqualification-without-prizes</b>" not in slip
    # the card's block: the decision where the ruling's open choice was, which is shown struck out
    card_part = slip[slip.index('class="card"'):]
    assert re.search(r'<p class="penalty decided" data-penalty="disqualification-without-prizes">'
                     r'DISQUALIFICATION WITHOUT PRIZES</p>', card_part)
    assert "the Head Judge&#39;s decision" in card_part
    undecided = card_part.index("the guide does not say which")
    assert card_part.rfind("<s>", 0, undecided) > card_part.rfind("</s>", 0, undecided)
    assert "confirm with the Head Judge" not in card_part
    # a penalty still pending leads the slip as PENDING, for the Head Judge to choose
    other = _submit(event_client, "policy: dci\nrel: competitive\nround: 5\ntable: 3\nplayer: Ivy\nIvy stalled\n", "i")
    assert "the Head Judge chooses it" in event_client.get(f"/event/slip/{other['report_id']}").text
