"""Serve the fixture portals on 127.0.0.1, one origin (port) per portal.

``serve_portals()`` is a context manager for tests and benchmarks (free ports,
background threads); ``python -m fixtures_site serve`` runs them in the
foreground.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import unquote, urlsplit

from fixtures_site import portals as portals_pkg
from fixtures_site.common import Portal, Request, Response

HOST = "127.0.0.1"


def load_portals(*, fault_injection: bool = False) -> dict[str, Portal]:
    """Every portal module under ``fixtures_site/portals`` that defines PORTAL; the
    fault-injection portals (no ground truth tasks) only with ``fault_injection``."""
    found: dict[str, Portal] = {}
    for info in sorted(pkgutil.iter_modules(portals_pkg.__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{portals_pkg.__name__}.{info.name}")
        portal = getattr(module, "PORTAL", None)
        if isinstance(portal, Portal) and (fault_injection or not portal.fault_injection):
            found[portal.name] = portal
    return found


def _handler_for(portal: Portal) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        server_version = "fixtures_site/1"
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:  # quiet by default
            return

        def _serve(self, method: str) -> None:
            parts = urlsplit(self.path)
            request = Request(
                method=method,
                path=unquote(parts.path),
                raw_path=parts.path,
                query=parts.query,
                headers={k.lower(): v for k, v in self.headers.items()},
            )
            try:
                response = portal.handle(request)
            except Exception as exc:  # a portal bug must show as a 500, not a hung socket
                response = Response(status=500, body=f"portal error: {exc!r}".encode())
            if response.delay_s:
                time.sleep(response.delay_s)
            body = b"" if method == "HEAD" else response.body
            try:
                self.send_response(response.status)
                self.send_header("Content-Type", response.content_type)
                self.send_header("Content-Length", str(len(response.body)))
                self.send_header("Cache-Control", "no-store")
                for key, value in response.headers.items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                pass

        def do_GET(self) -> None:
            self._serve("GET")

        def do_HEAD(self) -> None:
            self._serve("HEAD")

    return Handler


@dataclass
class RunningPortal:
    portal: Portal
    server: ThreadingHTTPServer
    thread: threading.Thread

    @property
    def url(self) -> str:
        port = self.server.server_address[1]
        return f"http://{HOST}:{port}"

    def truth(self) -> dict[str, Any]:
        return self.portal.truth()


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A browser that gives up on a page (a timeout, a closed tab) resets its
        # connection: not a server error worth a traceback.
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


def start_portal(portal: Portal, port: int = 0) -> RunningPortal:
    server = _Server((HOST, port), _handler_for(portal))
    thread = threading.Thread(
        target=server.serve_forever, name=f"fixture-{portal.name}", daemon=True
    )
    thread.start()
    return RunningPortal(portal, server, thread)


@dataclass
class RunningSites:
    """The running portals: ``sites["spa_hash"].url``, ``sites.tasks()``."""

    portals: dict[str, RunningPortal]

    def __getitem__(self, name: str) -> RunningPortal:
        return self.portals[name]

    def url(self, name: str) -> str:
        return self.portals[name].url

    def tasks(self) -> list[dict[str, Any]]:
        """Every task of every running portal, with absolute ``start_url`` and ``portal``."""
        out = []
        for name, running in self.portals.items():
            for task in running.truth()["tasks"]:
                out.append({**task, "portal": name, "start_url": running.url + task["start"]})
        return out


@contextmanager
def serve_portals(
    names: Iterable[str] | None = None,
    base_port: int = 0,
    port_of: Callable[[str], int] | None = None,
) -> Iterator[RunningSites]:
    """Serve the portals ``names`` (default: all but the fault-injection ones)
    on 127.0.0.1: on ports ``base_port``, ``base_port + 1``, ... in order,
    on ``port_of(name)`` when given (a port of its own per portal, the same
    in every run), else on free ports."""
    available = load_portals(fault_injection=True)
    wanted = (
        list(names)
        if names is not None
        else [name for name, portal in available.items() if not portal.fault_injection]
    )
    unknown = [n for n in wanted if n not in available]
    if unknown:
        raise ValueError(f"unknown portal(s): {', '.join(unknown)}; known: {', '.join(available)}")
    running: dict[str, RunningPortal] = {}
    try:
        for i, name in enumerate(wanted):
            port = base_port + i if base_port else 0
            if port_of is not None:
                port = port_of(name)
            running[name] = start_portal(available[name], port)
        yield RunningSites(running)
    finally:
        for r in running.values():
            r.server.shutdown()
            r.server.server_close()
