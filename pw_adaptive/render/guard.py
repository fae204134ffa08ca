"""The private-address guard (``pw_adaptive.netguard``) at the browser's request level.

:func:`install_guard` adds a route on a ``BrowserContext``, so it sees every
request of every page of the context: documents of the main frame, iframes and
popups, subresources (scripts, styles, fetch/XHR) and dedicated workers'
requests. A request whose host is, or resolves to, a non-public address is
aborted (``net::ERR_BLOCKED_BY_CLIENT``) before any packet leaves. Page-level
routes (``hooks.py``) run first and fall back to this one.

Redirects: Playwright route handlers do not see redirect hops (Chromium
follows a 3xx itself), so a public page could redirect the browser into the
private network. For documents the guard therefore fetches the request
itself without following redirects (``route.fetch(max_redirects=0)``,
through the context's request API, which shares its cookies), checks every
``Location`` of the chain hop by hop (GET only; up to Chromium's limit of 20),
and only then hands the first response to the browser. A redirected document
is thus requested twice (once by the check, once by the browser), and a
server that changes its redirect target between the two requests can still
win that race. Subresource redirects are not checked (see the netguard
module's limits).

WebSockets: Chromium's request interception never sees a WebSocket handshake,
so :func:`install_guard` also routes the context's WebSockets
(``BrowserContext.route_web_socket``, Playwright 1.48+). Playwright does this
by replacing the ``WebSocket`` constructor in every frame of every page with a
stand-in that asks the route before it opens the real connection. A WebSocket
to a blocked host is closed before it connects (the page sees no ``open``,
then a ``close`` with code 1006, what a refused connection reports) and is
counted by the guard like any blocked request; any other is connected to its
server (``connect_to_server()``), and Playwright relays its messages (text
and binary) and closes both ways unchanged, each message through the
Playwright connection and back. WebSockets opened by workers are not routed
(the stand-in lives in frames only). The route exists only while the guard
is on: a crawl of a private site keeps the browser's own ``WebSocket``.

Cost: any route turns on Playwright's request interception for every
request of the context, and with it Chromium's HTTP cache off. On real
sites served as public, crawls with the guard ran at 0.74-0.98x the pages
per second, with 1.11-1.35x the CPU per page (``benchmarks/speed.py
--guard``; ``docs/benchmarks.md`` has the variants tried). Chromium's own
Local Network Access checks refuse a public page's subresources, iframes
and workers' requests into the local network, but not main-frame
navigations, so the route stays.

Playwright has no call that removes a WebSocket route (microsoft/playwright
#41158 was closed without one), so :func:`remove_guard` disarms it: on a
context the caller lent, later WebSockets connect as if no route were there,
and WebSocket routes the caller added to that context before
:func:`install_guard` stay shadowed by the disarmed one.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from urllib.parse import urljoin

from playwright.async_api import APIResponse, BrowserContext, Request, Route, WebSocketRoute

from pw_adaptive.netguard import NetGuard

__all__ = [
    "MAX_REDIRECTS",
    "WEBSOCKET_REFUSED_CODE",
    "GuardRoute",
    "install_guard",
    "redirect_target",
    "remove_guard",
]

MAX_REDIRECTS = 20
"""Redirect hops checked for one document: Chromium's own limit
(``kMaxRedirects`` in net/url_request/url_request_http_job.cc)."""

WEBSOCKET_REFUSED_CODE = 1006
"""Close code a page sees for a blocked WebSocket: "abnormal closure", what
browsers report when the connection could not be made (RFC 6455 section 7.4.1)."""

RequestHandler = Callable[[Route, Request], Awaitable[None]]

# Headers not carried to another hop: the context's cookie jar adds the right
# cookies for each URL, and credentials never cross to another host.
_HOP_DROPPED_HEADERS = frozenset({"cookie", "authorization", "proxy-authorization", "host"})


def redirect_target(url: str, response: APIResponse) -> str | None:
    """Where a 3xx ``response`` to ``url`` sends the client (absolute), or None
    for any other answer."""
    if not 300 <= response.status < 400:
        return None
    location = response.headers.get("location")
    return urljoin(url, location) if location else None


def _abort_code(exc: BaseException) -> str:
    """A Playwright abort error code matching a failed fetch, so page errors read as usual."""
    text = str(exc)
    if "ECONNREFUSED" in text:
        return "connectionrefused"
    if "ENOTFOUND" in text or "EAI_AGAIN" in text:
        return "namenotresolved"
    if "Timeout" in text or "ETIMEDOUT" in text:
        return "timedout"
    return "failed"


async def _serve_document(route: Route, request: Request, guard: NetGuard) -> None:
    try:
        first = await route.fetch(max_redirects=0)
    except Exception as exc:
        await route.abort(_abort_code(exc))
        return
    target = redirect_target(request.url, first)
    headers = {k: v for k, v in request.headers.items() if k.lower() not in _HOP_DROPPED_HEADERS}
    hops = 0
    while target is not None:
        if await guard.check(target) is not None:
            await first.dispose()
            await route.abort("blockedbyclient")
            return
        hops += 1
        if hops >= MAX_REDIRECTS or request.method != "GET":
            break  # Chromium stops the chain itself; other methods: first hop only
        try:
            hop = await route.fetch(url=target, headers=headers, max_redirects=0)
        except Exception:
            break  # the browser's own request of this hop fails the same way
        target = redirect_target(target, hop)
        await hop.dispose()
    await route.fulfill(response=first)
    await first.dispose()


def _handler(guard: NetGuard) -> RequestHandler:
    async def on_route(route: Route, request: Request) -> None:
        try:
            if await guard.check(request.url) is not None:
                await route.abort("blockedbyclient")
                return
            if request.resource_type == "document" and request.url.startswith(("http:", "https:")):
                await _serve_document(route, request, guard)
                return
            await route.fallback()
        except Exception:
            # Fail closed: an unexpected error must not let the request through
            # unchecked (nor leave it hanging). A page closed meanwhile lands here.
            with contextlib.suppress(Exception):
                await route.abort("failed")

    return on_route


class GuardRoute:
    """The guard as installed on one context: its request handler (a context
    route on ``**/*``) and its WebSocket handler. Made by :func:`install_guard`;
    give it to :func:`remove_guard`."""

    def __init__(self, guard: NetGuard) -> None:
        self.guard = guard
        self.on_request: RequestHandler = _handler(guard)
        self.armed = True
        """False once removed: WebSockets then connect unchecked, as without a route."""

    async def on_web_socket(self, ws: WebSocketRoute) -> None:
        """Refuse a WebSocket to a blocked host, connect any other to its server."""
        if self.armed:
            try:
                blocked = await self.guard.check(ws.url) is not None
            except Exception:
                blocked = True  # fail closed, as for requests
            if blocked:
                # Closed before the handler returns: Playwright fires "open" in the
                # page for a WebSocket whose handler neither connected nor closed it.
                await ws.close(code=WEBSOCKET_REFUSED_CODE)
                return
        ws.connect_to_server()


async def install_guard(context: BrowserContext, guard: NetGuard) -> GuardRoute:
    """Route every request and WebSocket of ``context`` through ``guard``; returns
    the installation (give it to :func:`remove_guard`)."""
    installed = GuardRoute(guard)
    await context.route("**/*", installed.on_request)
    try:
        await context.route_web_socket("**/*", installed.on_web_socket)
    except BaseException:
        await remove_guard(context, installed)  # all or nothing
        raise
    return installed


async def remove_guard(context: BrowserContext, installed: GuardRoute) -> None:
    """Undo :func:`install_guard` (for a context the caller lent us): the request
    route is removed and the WebSocket route disarmed (see the module doc);
    never raises."""
    installed.armed = False
    with contextlib.suppress(Exception):
        await context.unroute("**/*", installed.on_request)
