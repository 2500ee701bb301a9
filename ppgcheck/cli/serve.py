"""`ppgcheck serve`: the judge station (ppgcheck/server/) on uvicorn."""
from __future__ import annotations

import socket
from pathlib import Path

import click

from ppgcheck.cli import cli
from ppgcheck.cli.common import check_rules_folder, fails_cleanly, rules_option
from ppgcheck.errors import UsageError


@cli.command()
@click.option("--event", "event", type=click.Path(dir_okay=False, path_type=Path), metavar="EVENT.db",
              help="Keep this event's record (created when missing): judges submit to it, the page shows it.")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on.  Anything but a loopback address prints a judge token, a Head "
                   "Judge token and a QR code of the page with the judge token.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option("--allowed-host", "allowed", multiple=True, metavar="NAME",
              help="A name judges open the station by (a DNS name of this machine), besides its own names and "
                   "addresses; repeat for several.  Any other Host header is refused (DNS rebinding).")
@click.option("--workers", type=click.IntRange(0, 64), default=None,
              help="Processes that rule concurrent requests' batches (default: one per CPU beyond two, at most 4; "
                   "0, the default on two CPUs or fewer, rules in the server's own process).")
@rules_option("Serve the packs under this rules folder (a `core/` and one folder per policy; without `core/`, "
              "the bundled core), e.g. a pack being written or a house pack, instead of the bundled ones: the "
              "page, every ruling and the event's submissions use them.")
@fails_cleanly
def serve(event: Path | None, host: str, port: int, allowed: tuple[str, ...], workers: int | None,
          rules: Path | None) -> None:
    """Serve the judge station: a phone-first page and a JSON API over the same library.

    Reading rulings needs no token.  Writing to the event needs the judge token,
    voiding a penalty the Head Judge token.  Everything the page uses ships with
    ppgcheck: it works offline on a venue's own network.

    \b
    Example:
      ppgcheck serve --event saturday.db
      ppgcheck serve --event saturday.db --host 0.0.0.0 --port 8000
      ppgcheck serve --rules house-rules --event saturday.db
    """
    check_rules_folder(rules)
    # (when the command runs: the CLI loads only the command it runs)
    import os

    # (when the command runs: the CLI loads only the command it runs)
    import uvicorn

    # (when the command runs: the CLI loads only the command it runs)
    from ppgcheck.server.access import Access
    from ppgcheck.server.app import create_app
    from ppgcheck.server.base import Station
    from ppgcheck.server.batching import RulingBatcher
    from ppgcheck.server.hosts import allowed_hosts

    if workers is None:     # on two CPUs the server's own threads need one: measured, workers only cost there
        cpus = os.cpu_count() or 1
        workers = min(4, cpus - 1) if cpus > 2 else 0
    station = Station(access=Access.for_host(host), event_path=event, rules=rules,
                      batcher=RulingBatcher(workers=workers, rules=rules))
    if event is not None:
        # (when the command runs: the CLI loads only the command it runs)
        from ppgcheck import api
        station.event = api.open_event(event, create=True)
    try:
        with socket.create_server((host, port)) as probe:
            port = probe.getsockname()[1]       # port 0: the one the system picked
    except OSError as exc:
        raise UsageError(f"cannot listen on `{host}:{port}`: {exc.strerror or exc}") from None
    station.batcher.start()
    page = f"http://{_reachable(host)}:{port}/"
    click.echo(f"ppgcheck judge station: {page}" + (f" (event `{event}`)" if event else "")
               + (f" (rules `{rules}`: {', '.join(station.policies())})" if rules else ""))
    if station.access.tokens_required:
        click.echo(f"  judge token:      {station.access.judge}")
        click.echo(f"  Head Judge token: {station.access.head_judge}")
        judge_url = f"{page}?token={station.access.judge}"
        click.echo(f"  judges open: {judge_url}")
        _qr(judge_url)
    try:
        app = create_app(station, allowed_hosts(host, allowed, _reachable(host)))
        uvicorn.run(app, host=host, port=port, log_level="warning", server_header=False,
                    limit_concurrency=256, timeout_keep_alive=30)
    finally:
        station.close()


def _reachable(host: str) -> str:
    """The address judges' phones use: this machine's LAN address when bound to every interface."""
    if host not in ("0.0.0.0", "::", ""):
        return f"[{host}]" if ":" in host else host
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))        # no packet is sent: this picks the outgoing interface
            return s.getsockname()[0]
    except OSError:
        return socket.gethostname()


def _qr(text: str) -> None:
    """A QR code of the page, in the terminal, for judges' phones to scan."""
    # (when the command runs: the CLI loads only the command it runs)
    import io

    # (when the command runs: the CLI loads only the command it runs)
    import segno
    out = io.StringIO()
    segno.make(text, error="m").terminal(out=out, compact=True)
    click.echo(out.getvalue())
