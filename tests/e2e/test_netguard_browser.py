"""The private-address guard in a real browser, without a packet outside 127.0.0.0/8.

The "public" site runs on 127.0.0.1 and is marked public for the test
(``CrawlSettings.treat_as_public``); the "private" targets are a server on
127.0.0.2 (Linux routes all of 127/8 to loopback) and one reached as
``localhost``. With the guard on, neither may receive a single request, and
the summary counts the blocks; with ``allow_private_addresses`` the same
crawl reaches both. The same crawl checks that ``file:``, ``data:``,
``javascript:`` and ``chrome:`` URLs, in links or in a script's
``location.href``, are never fetched. A page of the public site that opens
WebSockets to an echo server on the public host and to one on 127.0.0.2
checks the WebSocket route: the private one is refused before it connects,
the public one is relayed with its messages intact.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.server
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import urlsplit

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request
from websockets.sync.server import Server as WebSocketServer
from websockets.sync.server import ServerConnection, serve

from pw_adaptive import AdaptiveCrawler, CrawlSettings
from pw_adaptive.render import RenderSettings

pytestmark = pytest.mark.e2e

RESOLVER_ARGS = (
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1 , EXCLUDE 127.0.0.2"
    " , EXCLUDE localhost",
)
SECRET = "PWA-SECRET-7f3c9e"
# Chromium's Local Network Access checks deny a document the guard served
# (a fulfilled response counts as public) any connection to 127/8, WebSockets
# included. Off for the WebSocket tests, so that the relayed socket to the
# "public" 127.0.0.1 can connect and the private one is refused by the guard
# alone. (Playwright's own --disable-features list is replaced; the page needs
# none of it.)
NO_LOCAL_NETWORK_CHECKS = "--disable-features=LocalNetworkAccessChecks"


@dataclass
class Server:
    """A tiny HTTP server that records every path it is asked for."""

    host: str
    pages: dict[str, tuple[int, str, str]] = field(default_factory=dict)
    requests: list[str] = field(default_factory=list)
    port: int = 0

    def start(self) -> http.server.ThreadingHTTPServer:
        owner = self

        class Handler(http.server.BaseHTTPRequestHandler):
            headers_sent: ClassVar[bool] = False

            def do_GET(self) -> None:
                path = urlsplit(self.path).path
                owner.requests.append(path)
                status, content_type, body = owner.pages.get(path, (200, "text/plain", "ok"))
                self.send_response(status)
                if status in (301, 302):
                    self.send_header("Location", body)
                    body = ""
                self.send_header("Content-Type", content_type)
                data = body.encode()
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: object) -> None:
                pass

        server = http.server.ThreadingHTTPServer((self.host, 0), Handler)
        server.daemon_threads = True
        self.port = server.server_port
        threading.Thread(target=server.serve_forever, daemon=True).start()
        return server


@pytest.fixture()
def sites(tmp_path: Path) -> Iterator[dict[str, Any]]:
    public, other, local = Server("127.0.0.1"), Server("127.0.0.2"), Server("127.0.0.1")
    servers = [s.start() for s in (public, other, local)]
    secret = tmp_path / "secret.txt"
    secret.write_text(f"<h1>Student housing {SECRET}</h1>", encoding="utf-8")
    o = f"http://127.0.0.2:{other.port}"
    lh = f"http://localhost:{local.port}"
    public.pages["/"] = (200, "text/html", f"""<!doctype html>
<html><head><title>Student housing</title>
<link rel="stylesheet" href="{lh}/style.css">
<script src="{o}/app.js"></script></head>
<body><main><h1>Student housing</h1>
<p>Student housing: halls of residence and private housing for every student.</p>
<p>Housing fees and housing applications for students.</p>
<a href="{o}/housing">Student housing on the intranet</a>
<a href="{lh}/housing">Student housing on localhost</a>
<a href="/redirect">Student housing moved</a>
<a href="/schemes">Student housing options</a>
<a href="{o}/housing-fees.pdf">Housing fees (PDF)</a>
<iframe src="{o}/frame"></iframe>
<script>fetch("{lh}/api").catch(() => {{}}); new Image().src = "{o}/pixel";</script>
</main></body></html>""")  # fmt: skip
    public.pages["/redirect"] = (302, "text/html", f"{o}/redirected")
    public.pages["/schemes"] = (200, "text/html", f"""<!doctype html>
<html><head><title>Student housing options</title></head>
<body><main><h1>Student housing options</h1>
<p>Student housing options for every student: halls and flats.</p>
<a href="file://{secret}">Student housing file</a>
<a href="data:text/html,<h1>Student housing data</h1>">Student housing data</a>
<a href="javascript:location.href='file://{secret}'">Student housing script</a>
<a href="chrome://settings/">Student housing settings</a>
<iframe src="file://{secret}"></iframe>
<script>setTimeout(() => {{ location.href = "file://{secret}"; }}, 50);</script>
</main></body></html>""")  # fmt: skip
    yield {
        "public": public,
        "other": other,
        "local": local,
        "start": f"http://127.0.0.1:{public.port}/",
    }
    for server in servers:
        server.shutdown()
        server.server_close()


def _crawl(sites: dict[str, Any], *, allow_private: bool) -> list[dict[str, Any]]:
    settings = CrawlSettings(
        max_pages=12,
        concurrency=2,
        respect_robots=False,
        adaptive_stop=False,
        probe_soft_404=False,
        allowed_hosts=(f"127.0.0.2:{sites['other'].port}", f"localhost:{sites['local'].port}"),
        treat_as_public=("127.0.0.1",),
        allow_private_addresses=allow_private,
    )
    records: list[dict[str, Any]] = []
    render = RenderSettings(
        browser_args=RESOLVER_ARGS, retries=0, ready_cap_ms=2000, explore_clicks=False
    )
    crawler = AdaptiveCrawler(settings, render_settings=render)
    asyncio.run(crawler.run(sites["start"], "student housing", on_record=records.append))
    return records


def test_private_addresses_get_no_request_from_a_public_crawl(sites: dict[str, Any]) -> None:
    records = _crawl(sites, allow_private=False)
    assert sites["other"].requests == []
    assert sites["local"].requests == []
    summary = records[-1]
    # The two link targets, the redirect and the PDF, plus the start page's
    # subresources (stylesheet, script, iframe, fetch: at least two of them
    # are issued before the page is ready).
    assert summary["skipped"]["private_address"] >= 6
    pages = {r["url"]: r for r in records if r["type"] == "page"}
    other = f"http://127.0.0.2:{sites['other'].port}/housing"
    assert "ERR_BLOCKED_BY_CLIENT" in (pages[other]["error"] or "")
    attachment = next(r for r in records if r["type"] == "attachment")
    assert attachment["error"] == "private_address:loopback"
    # Only http(s) was ever fetched: no file:, data:, javascript: or chrome: page,
    # and the local file's content never reached the output.
    assert sites["start"] + "schemes" in pages
    for record in records:
        if record["type"] == "page":
            assert record["final_url"].startswith("http://")
    assert SECRET not in "\n".join(map(str, records))


def test_allow_private_addresses_lets_the_requests_through(sites: dict[str, Any]) -> None:
    records = _crawl(sites, allow_private=True)
    assert {"/app.js", "/frame", "/housing", "/redirected", "/housing-fees.pdf"} <= set(
        sites["other"].requests
    )
    assert {"/style.css", "/api", "/housing"} <= set(sites["local"].requests)
    assert "private_address" not in records[-1]["skipped"]


@dataclass
class EchoServer:
    """A WebSocket server that echoes every message and records every handshake path."""

    host: str
    handshakes: list[str] = field(default_factory=list)
    port: int = 0

    def start(self) -> WebSocketServer:
        def on_handshake(_connection: ServerConnection, request: Request) -> None:
            self.handshakes.append(request.path)

        def echo(connection: ServerConnection) -> None:
            with contextlib.suppress(ConnectionClosed):
                for message in connection:
                    connection.send(message)

        server = serve(echo, self.host, 0, process_request=on_handshake)
        self.port = server.socket.getsockname()[1]
        threading.Thread(target=server.serve_forever, daemon=True).start()
        return server


@pytest.fixture()
def chat() -> Iterator[dict[str, Any]]:
    """A public page that opens a WebSocket to a public and to a private echo server,
    sends each a text and a binary message and lists what happens in the DOM."""
    site, public, private = Server("127.0.0.1"), EchoServer("127.0.0.1"), EchoServer("127.0.0.2")
    http_server = site.start()
    socket_servers = [public.start(), private.start()]
    site.pages["/chat"] = (200, "text/html", f"""<!doctype html>
<html><head><title>Student housing chat</title></head>
<body><main><h1>Student housing chat</h1>
<p>Student housing chat: ask the housing office about student housing.</p>
<ul id="log"></ul>
<p id="waiting">Connecting</p>
<script>
// Until each socket has echoed both messages or closed, a "Connecting" line
// changes every 50 ms: the page is not ready (its DOM is not quiet) while a
// loaded machine delays the echoes.
const settled = {{}};
const ticker = setInterval(() => {{
  const line = document.getElementById("waiting");
  if (Object.keys(settled).length === 2 && Object.values(settled).every((s) => s.done)) {{
    clearInterval(ticker);
    line.remove();
  }} else {{
    line.textContent += ".";
  }}
}}, 50);
function show(text) {{
  const item = document.createElement("li");
  item.textContent = text;
  document.getElementById("log").appendChild(item);
}}
function connect(name, url) {{
  const state = settled[name] = {{ echoes: 0, done: false }};
  const socket = new WebSocket(url);
  socket.binaryType = "arraybuffer";
  socket.onopen = () => {{
    show(name + " socket open");
    socket.send("ping " + name);
    socket.send(new Uint8Array([0, 255, 7]));
  }};
  socket.onmessage = (event) => {{
    show(name + " socket echo " + (typeof event.data === "string"
      ? event.data : "bytes " + Array.from(new Uint8Array(event.data)).join("-")));
    state.echoes += 1;
    state.done = state.echoes >= 2;
  }};
  socket.onclose = (event) => {{
    show(name + " socket closed " + event.code);
    state.done = true;
  }};
}}
connect("public", "ws://127.0.0.1:{public.port}/chat");
connect("private", "ws://127.0.0.2:{private.port}/chat");
</script></main></body></html>""")  # fmt: skip
    yield {"public": public, "private": private, "start": f"http://127.0.0.1:{site.port}/chat"}
    http_server.shutdown()
    http_server.server_close()
    for server in socket_servers:
        server.shutdown()


def _render_chat(chat: dict[str, Any], *, allow_private: bool) -> tuple[str, dict[str, int]]:
    settings = CrawlSettings(
        max_pages=1,
        respect_robots=False,
        adaptive_stop=False,
        probe_soft_404=False,
        treat_as_public=("127.0.0.1",),
        allow_private_addresses=allow_private,
    )
    records: list[dict[str, Any]] = []
    render = RenderSettings(
        browser_args=(*RESOLVER_ARGS, NO_LOCAL_NETWORK_CHECKS),
        retries=0,
        ready_cap_ms=3000,
        explore_clicks=False,
    )
    crawler = AdaptiveCrawler(settings, render_settings=render)
    asyncio.run(crawler.run(chat["start"], "student housing", on_record=records.append))
    page = next(r for r in records if r["type"] == "page")
    return page["markdown"], records[-1]["skipped"]


def test_a_websocket_to_a_private_address_is_refused_and_a_public_one_relayed(
    chat: dict[str, Any],
) -> None:
    markdown, skipped = _render_chat(chat, allow_private=False)
    assert chat["private"].handshakes == []
    assert "private socket open" not in markdown
    assert "private socket closed 1006" in markdown
    assert skipped["private_address"] == 1
    # The public WebSocket goes through the guard's route to the real server,
    # and both messages come back unchanged.
    assert chat["public"].handshakes == ["/chat"]
    assert "public socket echo ping public" in markdown
    assert "public socket echo bytes 0-255-7" in markdown


def test_websockets_to_private_addresses_connect_when_allowed(chat: dict[str, Any]) -> None:
    markdown, skipped = _render_chat(chat, allow_private=True)
    assert chat["private"].handshakes == ["/chat"]
    assert "private socket echo ping private" in markdown
    assert "private socket echo bytes 0-255-7" in markdown
    assert "public socket echo ping public" in markdown
    assert "private_address" not in skipped
