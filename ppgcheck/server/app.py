"""`ppgcheck serve`'s application: the routes of rulings.py and event_routes.py, the static
files, and one JSON error handler for everything (base.py)."""
from __future__ import annotations

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.routing import Mount

from ppgcheck.errors import PpgError
from ppgcheck.server import event_routes, rulings
from ppgcheck.server.access import RequestRefused
from ppgcheck.server.base import HERE, Station, on_error, templates
from starlette.staticfiles import StaticFiles


def create_app(station: Station | None = None) -> Starlette:
    station = station or Station()
    routes = [*rulings.routes(), *event_routes.routes(),
              Mount("/static", StaticFiles(directory=HERE / "static"), name="static")]
    app = Starlette(routes=routes, exception_handlers={Exception: on_error, HTTPException: on_error,
                                                       RequestRefused: on_error, PpgError: on_error})
    app.state.station = station
    app.state.templates = templates()
    return app
