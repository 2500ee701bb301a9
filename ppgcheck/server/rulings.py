"""Rulings over HTTP: /api/rule, /api/parse, /api/compare, the vocabulary and the policies' ids,
and the page with its ruling cards.  Each handler reads the request, calls the library,
and renders; the ruling itself is ppgcheck.api's."""
from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ppgcheck import api
from ppgcheck.errors import ReportError
from ppgcheck.server import openapi
from ppgcheck.server.access import read_json
from ppgcheck.server.base import Station, error_body, html, parsed, prepared, report_fields, rulings
from ppgcheck.server.card import card
from ppgcheck.version import __version__

async def api_rule(request: Request) -> Response:
    return JSONResponse(await rulings(request))


def _station(request: Request) -> Station:
    return request.app.state.station


async def api_parse(request: Request) -> Response:
    data = await read_json(request)
    station = _station(request)
    text, policy, source = report_fields(data, station)

    def check() -> list[dict]:
        return [{"policy": policy_id, "persons": [name for name, _ in report.persons],
                 "observations": len(report.observations)}
                for report, policy_id in prepared(text, policy, source, rules=station.rules)]
    return JSONResponse({"reports": await run_in_threadpool(check)})


async def api_read(request: Request) -> Response:
    """How the tolerant reader reads a report text, as the judge types it: each report's policy,
    persons and observations, and the reading of each sentence that is not a canonical form
    (a text it cannot read is the parser's error, with its whole-line suggestions)."""
    data = await read_json(request)
    station = _station(request)
    text, policy, source = report_fields(data, station)

    def read() -> dict:
        try:
            return {"reports": [{"policy": policy_id, "persons": [name for name, _ in report.persons],
                                 "observations": len(report.observations), "readings": api.readings(report)}
                                for report, policy_id in prepared(text, policy, source, True, station.rules)]}
        except ReportError as exc:
            # a half-typed report is an answer here, not a failed request (the page asks as the
            # judge types; a browser logs every 4xx as an error)
            return {"reports": [], "error": error_body(exc)[1]}
    return JSONResponse(await run_in_threadpool(read))


async def api_compare(request: Request) -> Response:
    data = await read_json(request)
    station = _station(request)
    text, _, source = report_fields(data, station)

    def compare() -> list[dict]:
        # under each guide the station serves
        return [api.comparison_as_json(api.compare_report(r, rules=station.rules))
                for r in parsed(text, source, station.rules)]
    return JSONResponse(await run_in_threadpool(compare))


async def api_vocab(request: Request) -> Response:
    """The forms a report builder offers: core's, plus a policy's own with `?policy=P`."""
    policy = request.query_params.get("policy") or None
    station = _station(request)
    if policy is not None:
        station.known_policy(policy, 404, "policy")
    return JSONResponse(await run_in_threadpool(api.vocabulary_catalog, policy, station.rules))


async def api_policies(request: Request) -> Response:
    return JSONResponse({"policies": _station(request).policies()})


async def api_policy(request: Request) -> Response:
    station = _station(request)
    policy_id = station.known_policy(request.path_params["policy"], 404, "usage")

    def describe() -> dict:
        return {"id": policy_id, **api.policy_reference(policy_id, station.rules),
                "modifiers_read": api.modifiers_read(policy_id, station.rules)}
    return JSONResponse(await run_in_threadpool(describe))


async def api_policy_search(request: Request) -> Response:
    """What the builder's observation search finds each observation by (api.observation_search)."""
    station = _station(request)
    policy_id = station.known_policy(request.path_params["policy"], 404, "usage")
    # (ruled by the batcher, with the station's packs, in its resident child: the server's threads never fork)
    found = await run_in_threadpool(api.observation_search, policy_id, station.rules, station.batcher.rule)
    return JSONResponse({"id": policy_id, "observations": found})


async def api_session(request: Request) -> Response:
    """What the page needs to write: the CSRF token (readable by this site's pages only)."""
    station: Station = request.app.state.station
    role = station.access.role(request)
    return JSONResponse({"csrf": station.access.csrf, "tokens_required": station.access.tokens_required,
                         "role": role, "event": station.event_path.name if station.event_path else None,
                         "version": __version__})


async def api_openapi(request: Request) -> Response:
    return JSONResponse(openapi.document(__version__))


async def page_index(request: Request) -> Response:
    return html(request, "index.html", policies=_station(request).policies())


async def ui_card(request: Request) -> Response:
    found = await rulings(request)
    return html(request, "cards.html", cards=[card(d) for d in found])


def routes() -> list[Route]:
    return [
        Route("/", page_index),
        Route("/ui/card", ui_card, methods=["POST"]),
        Route("/api/rule", api_rule, methods=["POST"]),
        Route("/api/parse", api_parse, methods=["POST"]),
        Route("/api/read", api_read, methods=["POST"]),
        Route("/api/compare", api_compare, methods=["POST"]),
        Route("/api/vocab", api_vocab),
        Route("/api/policies", api_policies),
        Route("/api/policies/{policy}", api_policy),
        Route("/api/policies/{policy}/search", api_policy_search),
        Route("/api/session", api_session),
        Route("/api/openapi.json", api_openapi),
    ]
