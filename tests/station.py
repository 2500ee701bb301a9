"""A judge station for tests: a real uvicorn on a free loopback port, in a thread."""
from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn
from starlette.testclient import TestClient

from ppgcheck.server.access import Access
from ppgcheck.server.app import create_app
from ppgcheck.server.base import Station

JUDGE_TOKEN, HEAD_TOKEN = "judge-token-for-tests", "head-judge-token-for-tests"
OUTPUT = Path(__file__).resolve().parent / "output"      # artifacts CI keeps (git-ignored)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def running(station: Station) -> Iterator[str]:
    """The station served until the block ends; yields its base URL."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(station), host="127.0.0.1", port=port, log_level="warning",
                                           lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test station did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        station.close()


def with_tokens(event: Path | None = None, rules: Path | None = None) -> Station:
    """A station as `serve --host 0.0.0.0 [--rules DIR]` makes it (tokens required), with known tokens."""
    station = Station(access=Access(JUDGE_TOKEN, HEAD_TOKEN), event_path=event, rules=rules)
    if event is not None:
        from ppgcheck import api
        station.event = api.open_event(event, create=True)
    return station


@contextlib.contextmanager
def signed_in(station: Station) -> Iterator[TestClient]:
    """The station in process, its client holding the page's CSRF token (`client.csrf`, for
    `write`); the station is closed after."""
    with TestClient(create_app(station), raise_server_exceptions=False) as client:
        client.csrf = client.get("/api/session").json()["csrf"]
        yield client
    station.close()


def write(client: TestClient, path: str, body: dict, token: str = JUDGE_TOKEN):
    """A POST as the page sends it: the CSRF token and a judge's (or the Head Judge's) token."""
    return client.post(path, json=body, headers={"X-CSRF-Token": client.csrf, "Authorization": f"Bearer {token}"})


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    """A station without an event, in process (Starlette's TestClient), one per test module."""
    station = Station()
    with TestClient(create_app(station), raise_server_exceptions=False) as c:
        yield c
    station.batcher.close()
