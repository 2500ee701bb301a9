"""The event over HTTP: submit a report (judge token), the record by player, round and
table, void a penalty or a whole report, choose a penalty among those permitted, change
a penalty's notes and rule again (Head Judge token),
CSV/JSON export and a printable penalty slip.
Everything is the event store's (ppgcheck/event/); this module reads requests and renders."""
from __future__ import annotations

import hashlib

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ppgcheck import api
from ppgcheck.server.access import HEAD_JUDGE, JUDGE, RequestRefused, field_of, read_json
from ppgcheck.server.base import Station, html, prepared, report_fields
from ppgcheck.server.card import card, changes_of

STATUSES = ("in-force", "pending", "void", "superseded")


def _station(request: Request) -> Station:
    return request.app.state.station


def _number(request: Request, name: str) -> int | None:
    raw = request.query_params.get(name, "").strip()
    if not raw:
        return None
    if not raw.isdigit() or not 0 < int(raw) < 10**6:
        raise RequestRefused(400, f"`{name}` must be a positive whole number, not `{raw[:20]}`", "query")
    return int(raw)


def _filters(request: Request) -> dict:
    player = request.query_params.get("player", "").strip() or None
    return {"player": player, "day": _number(request, "day"), "round": _number(request, "round"),
            "table": _number(request, "table")}


def _record(request: Request, pending_filter: bool = False) -> dict:
    """The event's penalties (live ones, or every one with `all`; with `pending_filter`, only
    the pending ones when `pending` asks), its roster and time extensions.  (The event page
    lists every row and hides all but the pending ones itself, so its count stays that of
    the rows listed.)"""
    station = _station(request)
    store = station.store()
    everything = request.query_params.get("all") in ("1", "true")
    pending = pending_filter and request.query_params.get("pending") in ("1", "true")
    filters = _filters(request)
    statuses = ("pending",) if pending else STATUSES if everything else STATUSES[:2]
    rows = store.penalties(**filters, statuses=statuses)
    everyone = store.penalties(statuses=STATUSES)
    replaced_by = {p.replaces: p.id for p in everyone if p.replaces}

    def shown(p) -> dict:       # a penalty the guide does not record says so (FaB's Cautions)
        why = api.not_recorded_why(p, station.rules)
        # the replacement chain: the row this one replaced, the row that replaced it
        return {**api.penalty_json(p), "not_recorded": {"text": why[0], "section": why[1]} if why else None,
                "replaces": p.replaces, "replaced_by": replaced_by.get(p.id)}
    return {"event": store.event_name(), "settings": store.settings().as_dict(),
            "penalties": [shown(p) for p in rows],
            "roster": sorted({p.player for p in everyone}, key=str.casefold),
            "days": sorted({p.day for p in everyone if p.day}),
            "time_extensions": store.time_extensions(),
            # rulings a change since made wrong until ruled again (every page load: not only after the change)
            "needs_ruling_again": api.stale_rulings(store, station.rules),
            "filters": {**filters, "all": everything, **({"pending": pending} if pending_filter else {})}}


async def api_event(request: Request) -> Response:
    return JSONResponse(await run_in_threadpool(_record, request, True))


async def _submit(request: Request, questions_default: bool) -> list:
    station = _station(request)
    station.access.require(request, JUDGE)
    data = await read_json(request)
    text, policy, source = report_fields(data, station)
    judge = field_of(data, "judge", str)
    amend = field_of(data, "amend", bool, required=False, default=False)
    choices = field_of(data, "choices", dict, required=False, default={})
    # the ruling a judge reads on the page lists the facts to ask about, as `rule` does; a
    # program's submissions ask for them (`"questions": true`), as `--format jsonl` batches do
    questions = field_of(data, "questions", bool, required=False, default=questions_default)
    tolerant = field_of(data, "tolerant", bool, required=False, default=False)
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in choices.items()):
        raise RequestRefused(400, "`choices` maps infraction ids to penalty ids (strings)", "json")
    if "source" not in data:            # without a name the content names the report: the same text is one report
        source = "station:" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
    writer = station.writer()

    def submit() -> list:
        api.check_judge(judge)
        return writer.submit(prepared(text, policy, source, tolerant, station.rules), judge, amend, choices,
                             questions)
    return await run_in_threadpool(submit)


async def api_submit(request: Request) -> Response:
    return JSONResponse({"submissions": [{**s.as_dict(), "ruling": s.ruling}
                                         for s in await _submit(request, questions_default=False)]})


async def ui_submit(request: Request) -> Response:
    return html(request, "submitted.html",
                submissions=[(s, card(s.ruling)) for s in await _submit(request, questions_default=True)])


async def _head_judge_change(request: Request, what: str) -> tuple[Station, str, str, dict]:
    """The station, the reason, the judge and the whole body of a change only the Head Judge
    makes (`what` names it in the refusal of an empty reason; the reason's and the notes'
    lengths are api.check_change's, which every change reaches)."""
    station = _station(request)
    station.access.require(request, HEAD_JUDGE)
    data = await read_json(request)
    reason = field_of(data, "reason", str)
    judge = field_of(data, "judge", str)
    if not reason.strip():
        raise RequestRefused(400, f"{what} needs a reason", "json")
    return station, reason, judge, data


async def api_void(request: Request) -> Response:
    station, reason, judge, _ = await _head_judge_change(request, "a void")
    penalty_id = _row_id(request, "penalty_id")
    store = station.store()

    def void() -> dict:
        row, counted_by = api.void_penalty(store, penalty_id, reason, judge)
        return {"voided": api.penalty_json(row), "counted_by_reports": counted_by}
    return JSONResponse(await run_in_threadpool(void))


async def api_void_report(request: Request) -> Response:
    """Void a whole report ruled by mistake and every live penalty of it (Head Judge): it
    stays in the record and stops counting."""
    station, reason, judge, _ = await _head_judge_change(request, "a void")
    report_id = _row_id(request, "report_id")
    store = station.store()

    def void() -> dict:
        voided = api.void_report(store, report_id, reason, judge)
        return {"voided_report": report_id, "voided": [api.penalty_json(p) for p in voided],
                "counted_by_reports": store.counted_by([p.id for p in voided])}
    return JSONResponse(await run_in_threadpool(void))


async def api_amend(request: Request) -> Response:
    """Choose a penalty's penalty among those the guide permits (Head Judge): a pending one's,
    or another than the one issued (an option the ruling names); and/or change its notes.
    The old row stays, superseded."""
    station, reason, judge, data = await _head_judge_change(request, "a change of penalty")
    penalty = field_of(data, "penalty", str, required=False)
    notes = field_of(data, "notes", str, required=False)
    if penalty is None and notes is None:
        raise RequestRefused(400, "nothing to change: give `penalty` and/or `notes`", "json")
    penalty_id = _row_id(request, "penalty_id")
    store = station.store()

    def amend() -> dict:
        row = api.amend_penalty(store, penalty_id, reason, judge, penalty, notes, station.rules)
        # another penalty changes what later rulings counted (or would count); other notes do not
        counted = api.rulings_changed_by_amend(store, penalty_id, row, station.rules) if penalty is not None else []
        return {"amended": api.penalty_json(row), "replaces": penalty_id, "counted_by_reports": counted}
    return JSONResponse(await run_in_threadpool(amend))


async def api_rerule(request: Request) -> Response:
    """Rule a report again with the penalties in force now (Head Judge): after a void of a
    penalty its ruling counted (`counted_by_reports` of the void's answer)."""
    station, reason, judge, _ = await _head_judge_change(request, "ruling a report again")
    report_id = _row_id(request, "report_id")

    def rerule() -> dict:
        changes, counted = api.rerule_report(station.store(), report_id, reason, judge, station.rules)
        return {"report_id": report_id, "counted": [api.penalty_json(p) for p in counted],
                "amended": [{"old": api.penalty_json(old), "new": api.penalty_json(new)} for old, new in changes]}
    return JSONResponse(await run_in_threadpool(rerule))


SETTINGS = {"policy": str, "rel": str, "day": int, "round": int, "round_kind": str}


async def api_settings(request: Request) -> Response:
    """The event's settings (GET), or a change of those the body names (POST, Head Judge):
    `null` unsets one, one not named stays.  A report builder prefills a new report with them."""
    station = _station(request)
    store = station.store()
    if request.method == "GET":
        return JSONResponse({"settings": (await run_in_threadpool(store.settings)).as_dict()})
    station.access.require(request, HEAD_JUDGE)
    data = await read_json(request)
    judge = field_of(data, "judge", str)
    unknown = sorted(set(data) - set(SETTINGS) - {"judge"})
    if unknown:
        raise RequestRefused(400, f"unknown fields {', '.join(f'`{k}`' for k in unknown)}: the settings are "
                             + ", ".join(f"`{k}`" for k in SETTINGS), "json")
    changes = {}
    for key, kind in SETTINGS.items():
        if key in data:
            changes[key] = field_of(data, key, kind, required=False)

    def change() -> dict:
        before, after = api.set_event_settings(store, judge, changes, station.rules)
        return {"settings": after.as_dict(), "changed": before != after}
    return JSONResponse(await run_in_threadpool(change))


async def api_report(request: Request) -> Response:
    store = _station(request).store()
    sub = await run_in_threadpool(store.report, _row_id(request, "report_id"))
    return JSONResponse({**sub.as_dict(), "ruling": sub.ruling})


async def api_export(request: Request) -> Response:
    fmt = request.query_params.get("format", "csv")
    if fmt not in ("csv", "json"):
        raise RequestRefused(400, f"unknown export format `{fmt[:20]}`: `csv` or `json`", "query")
    station = _station(request)
    store = station.store()
    body, _ = await run_in_threadpool(api.export_penalties, store, fmt, station.rules)     # (as `event export`)
    name = f"{store.event_name()}-penalties.{fmt}".replace('"', "")
    return Response(body, media_type="text/csv; charset=utf-8" if fmt == "csv" else "application/json",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


async def page_event(request: Request) -> Response:
    record = await run_in_threadpool(_record, request)
    station = _station(request)
    choices = await run_in_threadpool(api.event_setting_choices, record["settings"]["policy"], station.rules)
    return html(request, "event.html", record=record, choices=choices)


async def page_slip(request: Request) -> Response:
    store = _station(request).store()
    report_id = _row_id(request, "report_id")
    sub = await run_in_threadpool(store.report, report_id)
    changes = changes_of(await run_in_threadpool(store.audit, None, report_id))
    return html(request, "slip.html", sub=sub, card=card(sub.ruling), changes=changes)


ROW_IDS = range(1, 2**63)       # SQLite's rowids: a larger number in a URL is no row, not an overflow


def _row_id(request: Request, name: str) -> int:
    """The report or penalty id of a URL; one past SQLite's rowids is a 404 as a missing one is."""
    value = int(request.path_params[name])
    if value not in ROW_IDS:
        what = "report" if name == "report_id" else "penalty"
        raise RequestRefused(404, f"no {what} #{value}: ids run from 1 to {ROW_IDS[-1]}", "event")
    return value


def routes() -> list[Route]:
    return [
        Route("/event", page_event),
        Route("/event/slip/{report_id:int}", page_slip),
        Route("/ui/submit", ui_submit, methods=["POST"]),
        Route("/api/event", api_event),
        Route("/api/event/reports", api_submit, methods=["POST"]),
        Route("/api/event/reports/{report_id:int}", api_report),
        Route("/api/event/penalties/{penalty_id:int}/void", api_void, methods=["POST"]),
        Route("/api/event/penalties/{penalty_id:int}/amend", api_amend, methods=["POST"]),
        Route("/api/event/reports/{report_id:int}/rerule", api_rerule, methods=["POST"]),
        Route("/api/event/reports/{report_id:int}/void", api_void_report, methods=["POST"]),
        Route("/api/event/export", api_export),
        Route("/api/event/settings", api_settings, methods=["GET", "POST"]),
    ]
