"""Who may do what at a judge station, and what a request may carry.

Reading needs nothing.  Writing to the event needs the judge token (or the Head
Judge's), voiding needs the Head Judge token; a server bound to a loopback address
has no tokens (the machine's own user runs it).  Tokens are compared in constant time.
Every write also needs the station's CSRF token in `X-CSRF-Token` (the page has it in
a meta tag; a page of another site cannot read it), a JSON body (an HTML form of
another site cannot send one) and, when the browser sends an Origin, this host's."""
from __future__ import annotations

import hmac
import ipaddress
import json
import secrets
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from starlette.requests import Request

MAX_BODY = 64 * 1024            # a report is a few hundred bytes; a batch of them stays far below
JUDGE, HEAD_JUDGE = "judge", "head-judge"


class RequestRefused(Exception):
    """A request refused before it reaches the library: its status and a one-line message."""

    def __init__(self, status: int, message: str, kind: str = "request") -> None:
        super().__init__(message)
        self.status, self.message, self.kind = status, message, kind


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def new_token() -> str:
    return secrets.token_urlsafe(18)


@dataclass(frozen=True)
class Access:
    """The station's tokens: None where writing needs none (a loopback-only server)."""

    judge: str | None = None
    head_judge: str | None = None
    csrf: str = field(default_factory=new_token)

    @classmethod
    def for_host(cls, host: str) -> Access:
        return cls() if is_loopback(host) else cls(new_token(), new_token())

    @property
    def tokens_required(self) -> bool:
        return self.judge is not None

    def role(self, request: Request) -> str | None:
        """The role the request's bearer token grants (the Head Judge may do what a judge may)."""
        if not self.tokens_required:
            return HEAD_JUDGE
        given = _bearer(request)
        if given is None:
            return None
        # both compared whatever the first gives, so the time says nothing about which matched
        head = hmac.compare_digest(given.encode(), (self.head_judge or "").encode())
        judge = hmac.compare_digest(given.encode(), (self.judge or "").encode())
        return HEAD_JUDGE if head else JUDGE if judge else None

    def require(self, request: Request, role: str) -> None:
        """Refuse a write without the CSRF token or the role's token."""
        origin = request.headers.get("origin")
        if origin and urlsplit(origin).netloc != request.headers.get("host", ""):
            raise RequestRefused(403, f"cross-site request from `{origin}` refused", "csrf")
        sent = request.headers.get("x-csrf-token", "")
        if not hmac.compare_digest(sent.encode(), self.csrf.encode()):
            raise RequestRefused(403, "missing or wrong `X-CSRF-Token`: reload the page", "csrf")
        granted = self.role(request)
        if granted is None:
            what = "the Head Judge token" if role == HEAD_JUDGE else "a judge token"
            status = 401 if _bearer(request) is None else 403
            raise RequestRefused(status, f"this needs {what} (`Authorization: Bearer TOKEN`)", "token")
        if role == HEAD_JUDGE and granted != HEAD_JUDGE:
            raise RequestRefused(403, "only the Head Judge token may do this", "token")


def _bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None


async def read_json(request: Request, limit: int = MAX_BODY) -> dict:
    """The request's JSON object, its size bounded before it is read whole."""
    if "application/json" not in request.headers.get("content-type", ""):
        raise RequestRefused(415, "send the body as JSON (`Content-Type: application/json`)")
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise RequestRefused(413, f"the body is over {limit // 1024} KiB", "size")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise RequestRefused(413, f"the body is over {limit // 1024} KiB", "size")
    try:
        data = json.loads(body.decode("utf-8"))
    except UnicodeDecodeError:
        raise RequestRefused(400, "the body is not UTF-8", "json") from None
    except json.JSONDecodeError as exc:
        raise RequestRefused(400, f"malformed JSON: {exc.msg.lower()} at line {exc.lineno} column {exc.colno}",
                             "json") from None
    if not isinstance(data, dict):
        raise RequestRefused(400, "the body must be a JSON object", "json")
    return data


def field_of(data: dict, name: str, kind: type, required: bool = True, default=None):
    """One field of a JSON body, of the type expected."""
    if name not in data or data[name] is None:
        if required:
            raise RequestRefused(400, f"missing field `{name}`", "json")
        return default
    value = data[name]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RequestRefused(400, f"field `{name}` must be a {_TYPE_NAMES.get(kind, kind.__name__)}", "json")
    return value


_TYPE_NAMES = {str: "string", int: "whole number", bool: "boolean", dict: "JSON object", list: "list"}
