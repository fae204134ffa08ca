"""What a site sees of the crawler: the User-Agent on pages and on robots.txt,
robots rules for the ``pw-adaptive`` token, and Chromium arguments given with
``--browser-arg`` reaching Chromium whole."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from pw_adaptive import __version__
from pw_adaptive.cli import EXIT_OK, main

pytestmark = pytest.mark.e2e

ROBOTS = "User-agent: *\nDisallow: /nobody/\n\nUser-agent: pw-adaptive\nDisallow: /private/\n"
PAGES = {
    "/": "<h1>Student portal</h1><nav><a href='/fees'>Tuition fees</a> "
    "<a href='/private/fees-draft'>Tuition fees draft</a></nav>",
    "/fees": "<main><h1>Tuition fees</h1><p>Tuition fees for 2026 are 9,250 pounds a year."
    " Fees are paid in two instalments.</p></main>",
    "/private/fees-draft": "<main><h1>Tuition fees draft</h1><p>Draft fees.</p></main>",
}


class _Site:
    def __init__(self) -> None:
        self.seen: list[tuple[str, str]] = []  # (path, User-Agent)
        site = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                site.seen.append((self.path, self.headers.get("User-Agent", "")))
                if self.path == "/robots.txt":
                    body, kind, status = ROBOTS.encode(), "text/plain", 200
                elif self.path in PAGES:
                    html = f"<!doctype html><title>{self.path}</title><body>{PAGES[self.path]}"
                    body, kind, status = html.encode(), "text/html; charset=utf-8", 200
                else:
                    body, kind, status = b"<title>Not found</title>Not found", "text/html", 404
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"


@pytest.fixture()
def site() -> Iterator[_Site]:
    s = _Site()
    thread = threading.Thread(target=s.server.serve_forever, daemon=True)
    thread.start()
    yield s
    s.server.shutdown()
    s.server.server_close()


def _crawl(site: _Site, tmp_path: Path, *extra: str) -> list[dict[str, Any]]:
    out = tmp_path / "out.jsonl"
    argv = ["crawl", site.url, "-q", "tuition fees", "--quiet", "--concurrency", "1",
            "--out", str(out), *extra]  # fmt: skip
    assert main(argv) == EXIT_OK
    return [json.loads(line) for line in out.read_text("utf-8").splitlines()]


def test_a_browser_arg_with_spaces_reaches_chromium_whole(
    site: _Site, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Only the flag gives the rule: split at its spaces, Chromium would take
    # "*", "~NOTFOUND", ... for pages to open and refuse to start.
    monkeypatch.delenv("PW_ADAPTIVE_BROWSER_ARGS", raising=False)
    rule = "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"
    records = _crawl(site, tmp_path, f"--browser-arg={rule}")
    pages = [r["final_url"] for r in records if r["type"] == "page"]
    assert site.url + "fees" in pages


def test_pages_and_robots_txt_see_the_crawlers_user_agent(site: _Site, tmp_path: Path) -> None:
    records = _crawl(site, tmp_path)
    paths = {path for path, _ in site.seen}
    assert {"/robots.txt", "/", "/fees"} <= paths
    for path, agent in site.seen:
        assert agent.startswith(f"Mozilla/5.0 (compatible; pw-adaptive/{__version__}; +"), path
        assert "Chrome/" in agent and "Headless" not in agent, path
    # The pw-adaptive group of robots.txt applies: its Disallow is obeyed.
    assert not any(path.startswith("/private/") for path in paths)
    assert records[-1]["type"] == "summary"


def test_user_agent_option_replaces_the_header(site: _Site, tmp_path: Path) -> None:
    _crawl(site, tmp_path, "--user-agent", "AcmeBot/1.0 (+https://acme.example/bot)")
    assert site.seen and {agent for _, agent in site.seen} == {
        "AcmeBot/1.0 (+https://acme.example/bot)"
    }
    assert not any(path.startswith("/private/") for path, _ in site.seen)
