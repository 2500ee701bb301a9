"""`ppgcheck serve`'s application: the routes of rulings.py and event_routes.py, the static
files, one JSON error handler for everything (base.py), and the Host check (hosts.py)."""
from __future__ import annotations

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.routing import Mount

from ppgcheck.errors import PpgError
from ppgcheck.server import event_routes, rulings
from ppgcheck.server.access import RequestRefused
from ppgcheck.server.base import HERE, Station, on_error, templates
from ppgcheck.server.hosts import HostCheck
from starlette.staticfiles import StaticFiles


def create_app(station: Station | None = None, allowed_hosts: frozenset[str] | None = None) -> Starlette:
    """The application; `allowed_hosts`: the Host names it answers to (hosts.py; None: any)."""
    station = station or Station()
    routes = [*rulings.routes(), *event_routes.routes(),
              Mount("/static", StaticFiles(directory=HERE / "static"), name="static")]
    app = Starlette(routes=routes, exception_handlers={Exception: on_error, HTTPException: on_error,
                                                       RequestRefused: on_error, PpgError: on_error},
                    middleware=[Middleware(HostCheck, allowed=allowed_hosts)])
    app.state.station = station
    app.state.templates = templates()
    return app
