"""The names a station answers to (DNS rebinding), and `nosniff` on every response.

A page of another site can point a name of its own at 127.0.0.1 (DNS rebinding) and
then read the station as if it were its own origin: its Origin and Host match, so the
CSRF check holds nothing back.  The Host header tells the name the browser used: a
station answers only to the names it serves (loopback names; with `--host`, the
machine's own names and addresses and those given by `--allowed-host`) and refuses any
other with 400.  Every response also says `X-Content-Type-Options: nosniff`, so a
browser never reads a JSON or CSV body as a page or a script.
"""
from __future__ import annotations

import json
import socket
from collections.abc import Iterable

from ppgcheck.server.access import is_loopback

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
_NOSNIFF = (b"x-content-type-options", b"nosniff")


def host_name(header: str) -> str:
    """The name of a Host header, without its port (`[::1]:8000` -> `::1`), lowercase."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:header.find("]")] if "]" in header else header
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


def allowed_hosts(bound: str, extra: Iterable[str] = (), reachable: str | None = None) -> frozenset[str]:
    """The names a station bound to `bound` answers to: the loopback names, the bound address,
    `extra` (--allowed-host); past loopback, the machine's own names and addresses too."""
    names = set(LOOPBACK_NAMES) | {host_name(h) for h in extra if h.strip()}
    if bound and bound not in ("0.0.0.0", "::"):
        names.add(host_name(bound) if bound.startswith("[") else bound.lower())
    if not is_loopback(bound):
        names |= _own_names()
        if reachable:
            names.add(reachable.lower())
    return frozenset(names)


def _own_names() -> set[str]:
    """This machine's host names and the addresses they resolve to."""
    names = {socket.gethostname().lower(), socket.getfqdn().lower()}
    for name in list(names):
        try:
            names |= {info[4][0].lower() for info in socket.getaddrinfo(name, None)}
        except OSError:
            pass
    return {n for n in names if n}


class HostCheck:
    """ASGI middleware: a request whose Host is not one of `allowed` gets 400 (None: no check);
    every response gets `X-Content-Type-Options: nosniff`."""

    def __init__(self, app, allowed: frozenset[str] | None) -> None:
        self.app, self.allowed = app, allowed

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if self.allowed is not None:
            host = next((value.decode("latin-1") for key, value in scope.get("headers", ()) if key == b"host"), "")
            if host_name(host) not in self.allowed:
                await _refuse(send, host)
                return

        async def with_nosniff(message) -> None:
            if message["type"] == "http.response.start":
                headers = [h for h in message.get("headers", []) if h[0].lower() != _NOSNIFF[0]]
                message = {**message, "headers": [*headers, _NOSNIFF]}
            await send(message)
        await self.app(scope, receive, with_nosniff)


async def _refuse(send, host: str) -> None:
    shown = host[:80] or "(none)"
    body = json.dumps({"error": f"this station does not answer to the host `{shown}`: open it by its own address "
                                "(or start it with `--allowed-host NAME`)", "kind": "host"}).encode()
    await send({"type": "http.response.start", "status": 400,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            _NOSNIFF]})
    await send({"type": "http.response.body", "body": body})
