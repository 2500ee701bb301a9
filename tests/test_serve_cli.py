"""`ppgcheck serve` as a judge starts it: the address, and on a non-loopback address the
tokens and a QR code of the page with the judge token."""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time

import httpx2


def start(*args: str) -> tuple[subprocess.Popen, list[str]]:
    proc = subprocess.Popen([sys.executable, "-m", "ppgcheck", "serve", "--port", "0", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    first = proc.stdout.readline()
    return proc, [first]


def stop(proc: subprocess.Popen) -> str:
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
    return out + err


def wait_for(url: str) -> httpx2.Response:
    deadline = time.monotonic() + 30
    while True:
        try:
            return httpx2.get(url, timeout=5)
        except httpx2.TransportError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def test_loopback_by_default_no_tokens():
    proc, lines = start()
    try:
        match = re.match(r"ppgcheck judge station: (http://127\.0\.0\.1:(\d+)/)", lines[0])
        assert match, lines
        page = wait_for(match.group(1))
        assert page.status_code == 200 and "Build the report" in page.text
        assert httpx2.get(match.group(1) + "api/session").json()["tokens_required"] is False
    finally:
        rest = stop(proc)
    assert "token" not in rest.lower() and "Traceback" not in rest


def test_every_interface_prints_tokens_and_a_qr_code():
    proc, lines = start("--host", "0.0.0.0")
    try:
        out = lines + [proc.stdout.readline() for _ in range(4)]
        url = re.match(r"ppgcheck judge station: (http://[^ ]+/)", out[0]).group(1)
        judge = re.search(r"judge token:\s+(\S+)", out[1]).group(1)
        head = re.search(r"Head Judge token:\s+(\S+)", out[2]).group(1)
        assert judge != head and len(judge) >= 20
        assert out[3].strip() == f"judges open: {url}?token={judge}"
        port = url.rsplit(":", 1)[1].strip("/")
        local = f"http://127.0.0.1:{port}/"
        wait_for(local)
        session = httpx2.get(local + "api/session", headers={"Authorization": f"Bearer {judge}"}).json()
        assert session["tokens_required"] is True and session["role"] == "judge"
    finally:
        stop(proc)
    assert set(out[4].strip()) == {"█"}, "a QR code in the terminal (its quiet zone first)"


def test_a_busy_port_is_a_clear_error():
    import socket
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "ppgcheck", "serve", "--port", str(port)],
                              capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.startswith(f"cannot listen on `127.0.0.1:{port}`") and "Traceback" not in done.stderr


def test_worker_processes_leave_with_a_killed_server():
    proc, lines = start("--workers", "1")
    try:
        assert "judge station" in lines[0]
        children = set()
        for task in os.listdir(f"/proc/{proc.pid}/task"):
            with open(f"/proc/{proc.pid}/task/{task}/children") as f:
                children |= {int(c) for c in f.read().split()}
        assert children, "a worker process rules the batches"
    finally:
        proc.kill()
        proc.communicate()
    deadline = time.monotonic() + 15
    while any(os.path.exists(f"/proc/{c}") and _alive(c) for c in children):
        assert time.monotonic() < deadline, "a worker outlived its server"
        time.sleep(0.2)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False
