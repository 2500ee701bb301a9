"""What the station's routes share: the Station (tokens, ruling queue, event), reading a
report from a request, JSON errors, and rendering a template with the page's headers.

Every failure is a JSON error with a 4xx status (a report's with the parser's line,
column and what was expected); nothing a client sends can produce a traceback."""
from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response

from ppgcheck import api
from ppgcheck.api import parse_reports
from ppgcheck.errors import PolicyError, PpgError, ReportError, ResubmittedReport, UsageError
from ppgcheck.resources import policy_ids
from ppgcheck.version import __version__
from ppgcheck.server.access import Access, RequestRefused, field_of, read_json
from ppgcheck.server.batching import RulingBatcher
from ppgcheck.server.submissions import SubmissionQueue

HERE = Path(__file__).resolve().parent
MAX_REPORTS = 50            # reports in one request (a file may hold several, `---` apart)
log = logging.getLogger("ppgcheck.server")


@dataclass
class Station:
    """What one server holds: its tokens, the ruling queue, the event (if any) and the rules
    folder whose packs it serves (`serve --rules DIR`; None: the bundled packs)."""

    access: Access = field(default_factory=Access)
    event_path: Path | None = None
    batcher: RulingBatcher = field(default_factory=RulingBatcher)
    event: object | None = None         # the open EventStore
    rules: Path | None = None
    _writer: object | None = field(default=None, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def __post_init__(self) -> None:
        # the batches are ruled with the station's packs: a batcher made without a folder takes
        # the station's; one made with another folder would rule with other packs than it reads
        if self.batcher.rules is None:
            self.batcher.rules = self.rules
        elif self.batcher.rules != self.rules:
            raise ValueError(f"the station serves `{self.rules}` but its batcher rules with `{self.batcher.rules}`")

    def policies(self) -> list[str]:
        """The policies the station serves."""
        return policy_ids(self.rules)

    def known_policy(self, policy: str, status: int, kind: str) -> str:
        """`policy`, or a refusal (`status`, `kind`) naming the policies served."""
        if policy not in self.policies():
            raise RequestRefused(status, f"unknown policy `{policy}`: known policies are "
                                 + ", ".join(f"`{p}`" for p in self.policies()), kind)
        return policy

    def store(self):
        """The open event store, or a 404 for a station that keeps none."""
        if self.event is None:
            raise RequestRefused(404, "this station keeps no event: start it with `ppgcheck serve --event EVENT.db`",
                                 "event")
        return self.event

    def writer(self):
        """The one writer of the event (submissions.py)."""
        store = self.store()
        with self._lock:
            if self._writer is None:
                self._writer = SubmissionQueue(store, self.batcher, self.rules)
            return self._writer

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
        self.batcher.close()


# --- errors --------------------------------------------------------------------------

def error_body(exc: Exception) -> tuple[int, dict]:
    if isinstance(exc, RequestRefused):
        return exc.status, {"kind": exc.kind, "message": exc.message}
    if isinstance(exc, ResubmittedReport):      # (the store words it for the CLI: --amend)
        exc = exc.remedied('send it again with "amend": true to supersede it')
        return 422, {**_report_error(exc), "kind": "resubmitted", "recorded_report": exc.recorded}
    if isinstance(exc, ReportError):
        return 422, _report_error(exc)
    if isinstance(exc, UsageError):
        return 400, {"kind": "usage", "message": str(exc)}
    if isinstance(exc, PolicyError):
        return 500, {"kind": "policy", "message": str(exc)}
    if type(exc).__name__ == "NotRecorded":     # a report or penalty number the store does not hold
        return 404, {"kind": "event", "message": str(exc)}
    if type(exc).__name__ == "StoreError":
        return 409, {"kind": "event", "message": str(exc)}
    if isinstance(exc, PpgError):
        return 400, {"kind": "input", "message": str(exc)}
    if isinstance(exc, HTTPException):
        message = {404: "no such page or endpoint", 405: "method not allowed here"}.get(exc.status_code, exc.detail)
        return exc.status_code, {"kind": "http", "message": message}
    return 500, {"kind": "internal", "message": "internal error: the station's log has the details"}


def _report_error(exc: ReportError) -> dict:
    return {"kind": "report", "message": exc.message, "source": exc.file, "line": exc.line,
            "column": exc.column, "line_text": exc.line_text, "expected": exc.expected,
            "suggestions": exc.suggestions, "text": exc.render()}


async def on_error(request: Request, exc: Exception) -> Response:
    status, body = error_body(exc)
    if status >= 500:
        log.error("%s %s failed", request.method, request.url.path, exc_info=exc)
    return JSONResponse({"error": body}, status_code=status)


# --- reading reports -------------------------------------------------------------------

def parsed(text: str, source: str, rules: Path | None, tolerant: bool = False) -> list:
    """The reports of a request's text, each in its policy's language (a pack of `rules`);
    `tolerant`: free sentences are read by the tolerant reader (the page's), else canonical
    forms only."""
    reports = parse_reports(text, source, rules=rules, tolerant=tolerant)
    if len(reports) > MAX_REPORTS:
        raise RequestRefused(413, f"{len(reports)} reports in one request: at most {MAX_REPORTS}", "size")
    return reports


def prepared(text: str, policy: str | None, source: str, tolerant: bool = False, rules: Path | None = None):
    """The reports of a request's text with their policies (`parsed`), their ids checked."""
    return api.prepare(parsed(text, source, rules, tolerant), policy, rules)


def report_fields(data: dict, station: Station) -> tuple[str, str | None, str]:
    text = field_of(data, "report", str)
    policy = field_of(data, "policy", str, required=False)
    if policy is not None:
        station.known_policy(policy, 400, "usage")
    source = field_of(data, "source", str, required=False) or "report"
    return text, policy, source[:200]


async def rulings(request: Request, questions_default: bool = True) -> list[dict]:
    data = await read_json(request)
    station: Station = request.app.state.station
    text, policy, source = report_fields(data, station)
    questions = field_of(data, "questions", bool, required=False, default=questions_default)
    tolerant = field_of(data, "tolerant", bool, required=False, default=False)

    def rule() -> list[dict]:
        ruled = station.batcher.rule(prepared(text, policy, source, tolerant, station.rules), questions)
        return [api.ruling_as_json(rs) for rs in ruled]
    return await run_in_threadpool(rule)


def templates() -> Environment:
    """Every template autoescaped: a player called `<script>` stays text."""
    return Environment(loader=FileSystemLoader(HERE / "templates"),
                       autoescape=select_autoescape(default=True, default_for_string=True))


def html(request: Request, name: str, status: int = 200, **context) -> HTMLResponse:
    station: Station = request.app.state.station
    page = request.app.state.templates.get_template(name).render(
        csrf=station.access.csrf, tokens_required=station.access.tokens_required,
        event=station.event_path.name if station.event_path else None, version=__version__, **context)
    return HTMLResponse(page, status_code=status,
                        headers={"Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
                                 "object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
                                 "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"})


