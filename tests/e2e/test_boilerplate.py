"""Chrome that the DOM-to-markdown step leaves out, found by structure and
markup names rather than by English wording: skip links, cookie and consent
notices, floating toolbars; and in-page links kept as text."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from playwright.async_api import async_playwright

from pw_adaptive.render import PlaywrightRenderer, RenderedPage, RenderSettings, launch_browser

pytestmark = pytest.mark.e2e

ARTICLE = (
    "<h1>Tuition fees</h1><p>Undergraduate tuition is 9,250 pounds a year.</p>"
    "<h2 id='pay'><a class='header-anchor' href='#pay'>Paying</a></h2>"
    "<p>Pay in two instalments. See <a href='#/fees/refunds'>refunds</a>.</p>"
)
PAGES = {
    # A skip link without any "skip" name, in German, first focusable element.
    "/de": "<a href='#inhalt' class='sr-only'>Zum Inhalt springen</a>"
    "<header><a href='/'>Home</a></header><main id='inhalt'>" + ARTICLE + "</main>",
    # Two skip links in a row, Chinese, before the header; the target is the app root.
    "/zh": "<div id='app'><a href='#app'>跳至主要内容</a><a href='#nav'>跳至导航</a>"
    "<nav id='nav'><a href='/'>首页</a></nav><div class='content'>" + ARTICLE + "</div></div>",
    # Named skip link that is not first: a logo link comes before it.
    "/named": "<a href='/'>Logo</a><a class='vp-skip-link visually-hidden' href='#c'>"
    "Aller au contenu</a><div id='c'>" + ARTICLE + "</div>",
    # Cookie notices: fixed banner; static block with a button; dialog named by aria-label.
    "/cookies": "<div class='cc-window' style='position:fixed;bottom:0'>Diese Website "
    "verwendet Kekse.</div><main>" + ARTICLE + "</main>"
    "<div id='cookie-notice'>Nous utilisons des témoins. <button>OK</button></div>"
    "<section role='dialog' aria-label='Cookie-Einstellungen'>Einstellungen wählen "
    "<a href='/privacy'>Datenschutz</a></section>",
    # A page about cookies keeps its text: a named section without notice shape.
    "/cookie-policy": "<main><section id='cookie-policy'><h1>Cookie policy</h1>"
    "<p>Session cookies keep you signed in to the portal.</p></section></main>",
    # A floating toolbar of buttons (font size, contrast), hidden panel included.
    "/toolbar": "<main>" + ARTICLE + "<button class='md-top' hidden>Nach oben</button></main>"
    "<div style='position:fixed;right:0;top:50%'>"
    "<button>A11y</button><div role='region' hidden><h3>Einstellungen</h3>"
    "<button>A-</button><button>A+</button><button>Kontrast umschalten</button></div></div>",
    # A sidebar of links is a menu; an aside of information stays.
    "/aside": "<aside class='vp-sidebar'>"
    + "".join(f"<a href='/p{i}'>Seite {i}</a>" for i in range(8))
    + "</aside><main>"
    + ARTICLE
    + "</main><aside><h2>Kontakt</h2><p>Studienbüro, Raum 12, "
    "montags 9-12 Uhr. <a href='/map'>Lageplan</a></p></aside>",
    # An in-page table of contents after the title stays (as text).
    "/toc": "<header><a href='/'>Home</a></header><main><h1>Handbook</h1>"
    "<a href='#fees'>Fees section</a><h2 id='fees'>Fees</h2><p>Fees are due in May.</p></main>",
}


class _Handler(BaseHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        body = PAGES.get(self.path.split("?")[0])
        data = (f"<!doctype html><title>t</title><body>{body}" if body else "").encode()
        self.send_response(200 if body else 404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@pytest.fixture(scope="module")
def rendered() -> Iterator[dict[str, RenderedPage]]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"

    async def render_all() -> dict[str, RenderedPage]:
        async with async_playwright() as pw:
            browser = await launch_browser(pw)
            try:
                async with PlaywrightRenderer(browser, RenderSettings()) as renderer:
                    return {path: await renderer.render(base + path) for path in PAGES}
            finally:
                await browser.close()

    yield asyncio.run(render_all())
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize("path", ["/de", "/zh", "/named"])
def test_skip_links_are_left_out(rendered: dict[str, RenderedPage], path: str) -> None:
    page = rendered[path]
    first = "[Logo]" if path == "/named" else "# Tuition fees"  # a logo link is not chrome here
    assert page.markdown.startswith(first), page.markdown[:80]
    for words in ("Zum Inhalt", "跳至", "Aller au contenu"):
        assert words not in page.markdown


def test_cookie_notices_are_left_out_in_any_language(rendered: dict[str, RenderedPage]) -> None:
    md = rendered["/cookies"].markdown
    assert "9,250 pounds" in md
    for words in ("Kekse", "témoins", "Einstellungen wählen"):
        assert words not in md


def test_a_page_about_cookies_keeps_its_text(rendered: dict[str, RenderedPage]) -> None:
    assert "Session cookies keep you signed in" in rendered["/cookie-policy"].markdown


def test_a_floating_toolbar_of_buttons_is_left_out(rendered: dict[str, RenderedPage]) -> None:
    md = rendered["/toolbar"].markdown
    assert "9,250 pounds" in md and "Kontrast" not in md and "A+" not in md
    assert "Nach oben" not in md  # a hidden back-to-top button


def test_in_page_links_keep_their_text_and_hash_routes_stay_links(
    rendered: dict[str, RenderedPage],
) -> None:
    md = rendered["/de"].markdown
    assert "## Paying" in md and "#pay" not in md
    assert "[refunds](http://" in md and "#/fees/refunds)" in md
    toc = rendered["/toc"].markdown
    assert "Fees section" in toc and "(http" not in toc


def test_an_aside_of_links_is_left_out_and_one_of_information_kept(
    rendered: dict[str, RenderedPage],
) -> None:
    page = rendered["/aside"]
    assert "Seite 3" not in page.markdown and "Studienbüro, Raum 12" in page.markdown
    assert any(link.url.endswith("/p3") for link in page.links)  # still followed
