"""The station's OpenAPI document (served at /api/openapi.json; tests/test_server.py
checks it names every route the app has, and no other)."""
from __future__ import annotations

_ERROR = {"description": "a JSON error: `{\"error\": {\"kind\", \"message\", ...}}`; a report that does not "
                         "parse adds `source`, `line`, `column`, `line_text`, `expected`, `suggestions`",
          "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
_JSON = {"content": {"application/json": {"schema": {"type": "object"}}}}
# the body of a change only the Head Judge makes (void, rule again; choosing a penalty adds the penalty)
_REASON_BODY = {"required": True, "content": {"application/json": {"schema": {
    "type": "object", "required": ["reason", "judge"],
    "properties": {"reason": {"type": "string", "minLength": 1, "maxLength": 500},
                   "judge": {"type": "string", "maxLength": 100}}}}}}

_AMEND_BODY = {"required": True, "content": {"application/json": {"schema": {
    "type": "object", "required": ["reason", "judge"],
    "properties": {"penalty": {"type": "string", "description": "one of the penalty's `permitted`"},
                   "notes": {"type": "string", "maxLength": 2000, "description": "the penalty's new notes"},
                   "reason": {"type": "string", "minLength": 1, "maxLength": 500},
                   "judge": {"type": "string", "maxLength": 100}},
    "anyOf": [{"required": ["penalty"]}, {"required": ["notes"]}]}}}}

_SETTINGS_BODY = {"required": True, "content": {"application/json": {"schema": {
    "type": "object", "required": ["judge"], "additionalProperties": False,
    "properties": {"judge": {"type": "string", "maxLength": 100},
                   "policy": {"type": ["string", "null"]}, "rel": {"type": ["string", "null"]},
                   "day": {"type": ["integer", "null"]}, "round": {"type": ["integer", "null"]},
                   "round_kind": {"type": ["string", "null"], "description": "swiss, playoff, ...: with a round"}}}}}}


def _report_body(*extra: str) -> dict:
    props = {"report": {"type": "string", "description": "report text (several reports `---` apart)"},
             "policy": {"type": "string", "description": "rule under this policy instead of the `policy:` line"},
             "source": {"type": "string", "description": "the report's name (an event's key for it)"},
             "questions": {"type": "boolean", "description": "list the unstated facts that would change it "
                                                             "(default true)"},
             "tolerant": {"type": "boolean", "description": "read free sentences with the tolerant reader "
                                                            "(default false: canonical forms only)"}}
    for name in extra:
        props[name] = _EXTRA[name]
    if "judge" in extra:        # a submission: the page asks for the questions, a program opts in
        props["questions"] = {"type": "boolean", "description": "list the unstated facts that would change it "
                                                               "(default false for a submission)"}
    return {"required": True, "content": {"application/json": {"schema": {
        "type": "object", "required": ["report", *[e for e in extra if e == "judge"]], "properties": props,
        "additionalProperties": True}}}}


_EXTRA = {"judge": {"type": "string", "description": "who submits (one line, at most 100 characters)"},
          "amend": {"type": "boolean", "description": "supersede the report of the same source name"},
          "choices": {"type": "object", "additionalProperties": {"type": "string"},
                      "description": "infraction id -> the penalty the judge chooses among those permitted"}}


def _op(summary: str, *, body: dict | None = None, auth: str | None = None, ok: str = "application/json",
        errors: tuple[int, ...] = (400, 413, 415, 422), params: list | None = None) -> dict:
    op: dict = {"summary": summary,
                "responses": {"200": {"description": "done", "content": {ok: {"schema": {"type": "object"}}}},
                              **{str(code): _ERROR for code in errors}}}
    if body:
        op["requestBody"] = body
    if auth:
        op["security"] = [{"bearer": []}]
        op["description"] = (f"needs {auth} (`Authorization: Bearer TOKEN`) where the station has tokens, "
                             "and the station's CSRF token in `X-CSRF-Token` (GET /api/session)")
        op["responses"].update({"401": _ERROR, "403": _ERROR})
    if params:
        op["parameters"] = params
    return op


def _query(*names: str) -> list[dict]:
    return [{"name": n, "in": "query", "required": False,
             "schema": {"type": "string" if n in ("player", "format", "all", "pending") else "integer"}} for n in names]


def _path(name: str, kind: str = "integer") -> list[dict]:
    return [{"name": name, "in": "path", "required": True, "schema": {"type": kind}}]


def document(version: str) -> dict:
    return {
        "openapi": "3.1.0",
        "info": {"title": "ppgcheck judge station", "version": version,
                 "description": "Rulings of incident reports under tournament penalty guides, and an event's "
                                "penalty record.  Reading needs no token; writing to the event needs the judge "
                                "token, voiding the Head Judge token.  Bodies are JSON, at most 64 KiB."},
        "paths": {
            "/api/rule": {"post": _op("rule reports: the JSON list of `ppgcheck rule --format json`",
                                      body=_report_body())},
            "/api/parse": {"post": _op("parse and check reports without ruling them", body=_report_body())},
            "/api/read": {"post": _op("how the tolerant reader reads reports: each report's policy, persons, "
                                      "observations and the reading (`written`, `read_as`, `not_read`) of "
                                      "each sentence that is not a canonical form; a text it cannot read answers 200 with "
                                      "`error` (the parser's, with whole-line `suggestions`) and no reports",
                                      body=_report_body())},
            "/api/compare": {"post": _op("rule a report's observations under every guide the station serves",
                                         body=_report_body())},
            "/api/vocab": {"get": _op("the report language's forms, for a report builder", errors=())},
            "/api/policies": {"get": _op("the policies the station serves (the bundled ones, or those of "
                                         "`serve --rules`)", errors=())},
            "/api/policies/{policy}": {"get": _op("a policy's infractions, penalties, sections, and the modifiers "
                                                  "its rules read per observation", errors=(404,),
                                                  params=_path("policy", "string"))},
            "/api/policies/{policy}/search": {"get": _op(
                "what a builder's observation search finds each observation by: the infractions its rules "
                "make it (id, section, words, initials), those one more modifier makes it, the first "
                "numbers that make it an infraction", errors=(404,), params=_path("policy", "string"))},
            "/api/session": {"get": _op("the CSRF token for writes, whether tokens are needed, the bearer's role",
                                        errors=())},
            "/api/openapi.json": {"get": _op("this document", errors=())},
            "/api/event": {"get": _op("the event's penalties (live, `all=1` every one, `pending=1` only those "
                                      "the Head Judge has still to choose), its roster and time extensions",
                                      errors=(400, 404),
                                      params=_query("player", "day", "round", "table", "all", "pending"))},
            "/api/event/reports": {"post": _op("rule reports with the event's penalties in force as their "
                                               "history and record them (the same report again writes nothing)",
                                               body=_report_body("judge", "amend", "choices"), auth="a judge token",
                                               errors=(400, 404, 409, 413, 415, 422))},
            "/api/event/reports/{report_id}": {"get": _op("a recorded report: its stored ruling and penalties",
                                                          errors=(404, 409), params=_path("report_id"))},
            "/api/event/penalties/{penalty_id}/void": {"post": _op(
                "void a penalty: it stays in the record and stops counting", auth="the Head Judge token",
                body=_REASON_BODY,
                errors=(400, 404, 409, 413, 415), params=_path("penalty_id"))},
            "/api/event/penalties/{penalty_id}/amend": {"post": _op(
                "choose a penalty's penalty among those the guide permits (a pending one's, or another "
                "than the one issued), and/or change its notes: the old row stays, superseded",
                auth="the Head Judge token",
                body=_AMEND_BODY, errors=(400, 404, 409, 413, 415), params=_path("penalty_id"))},
            "/api/event/reports/{report_id}/rerule": {"post": _op(
                "rule a report again with the penalties in force now (after a void of one its ruling counted), "
                "amending each of its penalties the ruling changes", auth="the Head Judge token",
                body=_REASON_BODY,
                errors=(400, 404, 409, 413, 415), params=_path("report_id"))},
            "/api/event/reports/{report_id}/void": {"post": _op(
                "void a whole report ruled by mistake and every live penalty of it: they stay in the record "
                "and stop counting", auth="the Head Judge token", body=_REASON_BODY,
                errors=(400, 404, 409, 413, 415), params=_path("report_id"))},
            "/api/event/settings": {
                "get": _op("the event's own settings (policy, rel, day, round, round_kind; null: not set), "
                           "which a report builder prefills a new report with", errors=(404,)),
                "post": _op("change the event's settings the body names (null unsets one), checked as a "
                            "report's headers are; a report submitted later is not given them",
                            auth="the Head Judge token", body=_SETTINGS_BODY, errors=(400, 404, 409, 413, 415))},
            "/api/event/export": {"get": _op("the penalties in force in the fields tournament platforms import "
                                             "(those the guide does not record left out: FaB's Cautions)",
                                             ok="text/csv", errors=(400, 404), params=_query("format"))},
        },
        "components": {
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
            "schemas": {"Error": {"type": "object", "required": ["error"], "properties": {"error": {
                "type": "object", "required": ["kind", "message"],
                "properties": {"kind": {"type": "string"}, "message": {"type": "string"},
                               "source": {"type": "string"}, "line": {"type": "integer"},
                               "column": {"type": "integer"}, "line_text": {"type": "string"},
                               "expected": {"type": "array", "items": {"type": "string"}},
                               "suggestions": {"type": "array", "items": {"type": "string"}},
                               "recorded_report": {"type": "integer", "description": (
                                   "kind `resubmitted`: the report in force from the same source, which "
                                   "the request replaces when sent again with \"amend\": true")}}}}}},
        },
    }
