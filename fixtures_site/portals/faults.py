"""Fault portal, ``faults``: Harrow Library Service, a small site where things go wrong.

Not a university task portal: it has no ground-truth tasks (``fault_injection``
is set, so ``serve_portals()`` leaves it out unless named) and serves the
failure-handling tests (``tests/e2e/test_faults.py``). ``faults.truth.json``
lists what a crawler should make of every route: the healthy pages, the pages
that survive their fault (fetched, possibly after retries), and the routes
that fail for good (counted by kind).

Healthy: ``/`` links to every fault route and to ``/guide/``, whose five pages
link only among themselves. Faults, one route each (``LOG`` records every
request, so a test can count attempts and the pauses between them):

* ``/fault/crash``: content that keeps changing for 0.8 s (time for a test to
  crash the renderer mid-page);
* ``/fault/slow-once``: the first answer waits 5 s (a navigation timeout), the
  next ones are immediate;
* ``/fault/flaky-503``: 503 twice, then a page linking ``/fault/after-flaky``
  (reachable only once the retry succeeded);
* ``/fault/always-500``: 500 every time;
* ``/fault/rate-limited``: 429 with ``Retry-After: 1`` once, then the page;
* ``/fault/rate-limited-date``: 429 with ``Retry-After`` an HTTP-date an hour
  ahead once, then the page;
* ``/fault/never-quiet``: the DOM changes every 50 ms forever;
* ``/fault/busy-loop``: an endless ``for (;;) {}`` 50 ms after load;
* ``/fault/huge-dom``: a 10 MB document (20,000 long paragraphs);
* ``/fault/dialogs``: alert, confirm and prompt at load, a beforeunload handler;
* ``/fault/downloads``: links to a file served as an attachment
  (``/fault/files/report.bin``) and to one marked ``download``;
* ``/fault/popup``: opens ``/fault/popup-target`` with ``window.open`` (linked
  from nowhere);
* ``/fault/elsewhere``: sends itself to another host (``localhost`` on the same
  port: another origin, out of a crawl's scope);
* ``/fault/loop-a``: 302 to ``/fault/loop-b``, which redirects back.
"""

from __future__ import annotations

import email.utils
import threading
import time
from collections import Counter
from html import escape

from fixtures_site.common import Portal, Request, Response, html, not_found, text

NAME = "Harrow Library Service"

GUIDE: dict[str, tuple[str, str]] = {
    "/guide/hours": (
        "Opening hours",
        "The central reading room opens at 08:30 and closes at 22:00 on weekdays; "
        "at weekends it opens from 10:00 to 18:00. Hours change during the "
        "examination period.",
    ),
    "/guide/borrowing": (
        "Borrowing and renewals",
        "Members borrow up to twelve items for three weeks and renew them online "
        "twice unless another reader has reserved them.",
    ),
    "/guide/study-rooms": (
        "Group study rooms",
        "Six glass-walled rooms seat up to eight people each; book a slot of up to "
        "three hours at the welcome desk or on the booking screen.",
    ),
    "/guide/printing": (
        "Printing and scanning",
        "Print from any catalogue terminal; black and white pages cost 5p and "
        "colour pages 20p. Scanning to email is free.",
    ),
    "/guide/contact": (
        "Contact the library team",
        "Write to the enquiry desk, call 01632 960 410, or ask a librarian on the "
        "ground floor between 09:00 and 17:00.",
    ),
}

FAULT_LINKS: tuple[tuple[str, str], ...] = (
    ("/fault/crash", "Reading room floor plan"),
    ("/fault/slow-once", "Archive catalogue"),
    ("/fault/flaky-503", "Events this month"),
    ("/fault/always-500", "Membership renewal form"),
    ("/fault/rate-limited", "Digital newspapers"),
    ("/fault/rate-limited-date", "E-book lending"),
    ("/fault/never-quiet", "Live seat availability"),
    ("/fault/busy-loop", "Interactive map"),
    ("/fault/huge-dom", "Complete accessions register"),
    ("/fault/dialogs", "Feedback survey"),
    ("/fault/downloads", "Downloads"),
    ("/fault/popup", "Catalogue help"),
    ("/fault/elsewhere", "Partner libraries"),
    ("/fault/loop-a", "Old catalogue address"),
)


class FaultLog:
    """Every request the portal answered: path and monotonic time (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._hits: list[tuple[str, float]] = []

    def record(self, path: str) -> int:
        """Record a request; returns how many earlier requests asked for ``path``."""
        with self._lock:
            before = sum(1 for p, _ in self._hits if p == path)
            self._hits.append((path, time.monotonic()))
            return before

    def times(self, path: str) -> list[float]:
        """Monotonic times of the requests for ``path``, in order."""
        with self._lock:
            return [t for p, t in self._hits if p == path]

    def counts(self) -> Counter[str]:
        with self._lock:
            return Counter(p for p, _ in self._hits)

    def reset(self) -> None:
        with self._lock:
            self._hits.clear()


LOG = FaultLog()
"""The requests of every running copy of this portal (a test resets it first)."""


def _page(title: str, body: str, script: str = "") -> Response:
    script_tag = f"<script>{script}</script>" if script else ""
    return html(
        '<!doctype html><html lang="en-GB"><head><meta charset="utf-8">'
        f"<title>{escape(title)} | {NAME}</title></head><body>"
        f'<header><a href="/">{NAME}</a></header>'
        f"<main><h1>{escape(title)}</h1>{body}</main>{script_tag}</body></html>"
    )


def _home() -> Response:
    items = "".join(f'<li><a href="{p}">{escape(label)}</a></li>' for p, label in FAULT_LINKS)
    return _page(
        "Welcome to the library",
        "<p>Harrow Library Service lends books, films and study space to everyone "
        "who lives or works in the borough.</p>"
        '<p><a href="/guide/">Visitor guide</a></p>'
        f"<h2>Services</h2><ul>{items}</ul>",
    )


def _guide(path: str) -> Response:
    links = "".join(f'<li><a href="{p}">{escape(t)}</a></li>' for p, (t, _) in GUIDE.items())
    if path == "/guide/":
        return _page("Visitor guide", f"<p>Everything about a visit.</p><ul>{links}</ul>")
    title, body = GUIDE[path]
    return _page(title, f"<p>{escape(body)}</p><h2>More of the guide</h2><ul>{links}</ul>")


def _huge_dom() -> Response:
    filler = "bound volumes of the parish magazine, minutes and maps; " * 8
    rows = "".join(
        f"<p>Accession {i}: volume {i % 977} of the local history collection, "
        f"shelf {i % 61}, received in batch {i // 1000}: {filler}</p>"
        for i in range(20_000)
    )
    return _page("Complete accessions register", rows)


def _fault(path: str, before: int, host: str) -> Response:
    if path == "/fault/crash":
        return _page(
            "Reading room floor plan",
            "<p>The floor plan shows the quiet zone on the first floor, the group "
            'rooms on the second and the café beside the entrance.</p><p id="plan"></p>',
            "let n = 0; const t = setInterval(() => { "
            "document.getElementById('plan').textContent = 'Drawing section ' + (++n); "
            "if (n >= 16) clearInterval(t); }, 50);",
        )
    if path == "/fault/slow-once":
        page = _page(
            "Archive catalogue",
            "<p>The archive catalogue lists parish records, maps and photographs "
            "held in the strongroom; ask two days ahead to see an item.</p>",
        )
        return Response(page.status, page.body, page.content_type, delay_s=5.0 if not before else 0)
    if path == "/fault/flaky-503":
        if before < 2:
            return html("<h1>Service unavailable</h1>", status=503)
        return _page(
            "Events this month",
            "<p>Author talks on Tuesdays, baby rhyme time on Fridays and a local "
            "history walk on the last Saturday.</p>"
            '<p><a href="/fault/after-flaky">Book an event place</a></p>',
        )
    if path == "/fault/after-flaky":
        return _page(
            "Book an event place",
            "<p>Places at talks and walks are free; book at the welcome desk or by "
            "phone, and cancel if you cannot come.</p>",
        )
    if path == "/fault/always-500":
        return html("<h1>Internal server error</h1>", status=500)
    if path in ("/fault/rate-limited", "/fault/rate-limited-date"):
        if not before:
            retry_after = (
                "1"
                if path == "/fault/rate-limited"
                else email.utils.formatdate(time.time() + 3600, usegmt=True)
            )
            return html("<h1>Too many requests</h1>", status=429, **{"Retry-After": retry_after})
        title = "Digital newspapers" if path == "/fault/rate-limited" else "E-book lending"
        return _page(
            title,
            f"<p>{escape(title)}: members sign in with their card number and PIN to "
            "read from home; titles are returned automatically.</p>",
        )
    if path == "/fault/never-quiet":
        return _page(
            "Live seat availability",
            "<p>Free seats in the reading rooms, updated as people come and go.</p>"
            '<p id="seats">Counting seats</p>',
            "let n = 0; setInterval(() => { "
            "document.getElementById('seats').textContent = 'Seats free: ' + (n++ % 120); }, 50);",
        )
    if path == "/fault/busy-loop":
        return _page(
            "Interactive map",
            "<p>The interactive map is loading.</p>",
            "setTimeout(() => { for (;;) {} }, 50);",
        )
    if path == "/fault/huge-dom":
        return _huge_dom()
    if path == "/fault/dialogs":
        return _page(
            "Feedback survey",
            "<p>Tell us how we are doing: the survey takes three minutes and every "
            "answer is read by the service manager.</p>",
            "alert('Welcome!'); confirm('Take the survey?'); prompt('Your name?'); "
            "addEventListener('beforeunload', (e) => { e.preventDefault(); e.returnValue = ''; });",
        )
    if path == "/fault/downloads":
        return _page(
            "Downloads",
            "<p>Annual reports and the membership data export for partner services.</p>"
            '<ul><li><a href="/fault/files/report.bin">Annual report (binary)</a></li>'
            '<li><a href="/fault/files/data.zip" download>Membership data export</a></li></ul>',
        )
    if path.startswith("/fault/files/"):
        return Response(
            body=b"\x00\x01binary payload\x02" * 64,
            content_type="application/octet-stream",
            headers={"Content-Disposition": f'attachment; filename="{path.rsplit("/", 1)[1]}"'},
        )
    if path == "/fault/popup":
        return _page(
            "Catalogue help",
            "<p>Search the catalogue by title, author or subject; put a phrase in "
            "quotes to find it exactly.</p>",
            "window.open('/fault/popup-target', 'help', 'width=400,height=300');",
        )
    if path == "/fault/popup-target":
        return _page("Catalogue help window", "<p>A small help window.</p>")
    if path == "/fault/elsewhere":
        port = host.rsplit(":", 1)[1] if ":" in host else "80"
        return _page(
            "Partner libraries",
            "<p>Taking you to our partners' site.</p>",
            f"setTimeout(() => {{ location.href = 'http://localhost:{port}/guide/'; }}, 0);",
        )
    if path == "/fault/loop-a":
        return Response(status=302, headers={"Location": "/fault/loop-b"})
    if path == "/fault/loop-b":
        return Response(status=302, headers={"Location": "/fault/loop-a"})
    return not_found("Page not found")


def handle(request: Request) -> Response:
    path = request.path
    before = LOG.record(path)
    if path == "/robots.txt":
        return text("User-agent: *\nAllow: /\n")
    if path == "/":
        return _home()
    if path == "/guide/" or path in GUIDE:
        return _guide(path)
    if path.startswith("/fault/"):
        return _fault(path, before, request.headers.get("host", ""))
    return not_found("Page not found")


PORTAL = Portal(
    "faults",
    handle,
    "Harrow Library Service: injected faults (crashes, timeouts, 5xx, 429, endless "
    "scripts, a 10 MB DOM, dialogs, downloads, popups, redirect loops)",
    fault_injection=True,
)
