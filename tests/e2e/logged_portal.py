"""The ``large`` fixture portal served with a log of the paths it was asked for.

Resume tests use it to show which pages a resumed crawl fetched again: set
``phase`` before each step, then read ``paths(phase)``.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from fixtures_site.common import Portal, Request, Response
from fixtures_site.server import load_portals, start_portal


@dataclass
class LoggedPortal:
    """The large portal's URL and the paths requested, by phase."""

    url: str = ""
    phase: str = "setup"
    requests: list[tuple[str, str]] = field(default_factory=list)  # (phase, path)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def paths(self, phase: str) -> list[str]:
        """The paths requested during ``phase``, in order."""
        with self.lock:
            return [path for p, path in self.requests if p == phase]


@contextmanager
def serve_logged_portal() -> Iterator[LoggedPortal]:
    """Serve the large portal on 127.0.0.1 with a request log, until the block ends."""
    large = load_portals()["large"]
    logged = LoggedPortal()

    def handle(request: Request) -> Response:
        with logged.lock:
            logged.requests.append((logged.phase, request.path))
        return large.handle(request)

    running = start_portal(Portal(name=large.name, handle=handle))
    logged.url = running.url + "/"
    try:
        yield logged
    finally:
        running.server.shutdown()
        running.server.server_close()
