"""End to end: a site's sitemap and llms.txt lead a real crawl to pages no link reaches.

A small static site is served from disk by the standard library's file server
(real content types: ``text/xml`` for the sitemap, ``text/plain`` for
llms.txt) and crawled in Chromium with the defaults, so the fetcher, robots.txt,
the scope, the reserve and the renderer all take part.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from pw_adaptive.crawling.api import crawl
from pw_adaptive.crawling.sitemap_reserve import SITEMAP_PARENT

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]

QUERY = "undergraduate admission requirements"
NAV = '<nav><a href="/admissions/">Admissions</a> <a href="/about/">About</a></nav>'


def _page(title: str, body: str) -> str:
    return (
        f"<!doctype html><html><head><title>{title}</title></head>"
        f"<body>{NAV}<main><h1>{title}</h1>{body}</main></body></html>"
    )


PAGES = {
    "index.html": _page("Welcome", "<p>Welcome to the university.</p>"),
    "about/index.html": _page("About", "<p>Founded long ago beside a river.</p>"),
    "admissions/index.html": _page(
        "Admissions",
        "<p>Undergraduate admission opens in July.</p>"
        '<p><a href="/admissions/undergraduate/">Undergraduate admission requirements</a></p>',
    ),
    "admissions/undergraduate/index.html": _page(
        "Undergraduate admission requirements",
        "<p>Undergraduate applicants need the national secondary certificate.</p>"
        "<p>Admission requirements include a medical examination.</p>"
        "<p>Undergraduate admission follows the ministry's admission plan.</p>",
    ),
    # No page links to these two: one only the sitemap lists (its URL names
    # the query), the other only llms.txt (its URL names nothing).
    "students/admission-requirements/index.html": _page(
        "Admission requirements and registration",
        "<p>Undergraduate registration opens in September; admission requirements:"
        " the original certificate, four photographs and the admission form.</p>",
    ),
    "services/s7/index.html": _page(
        "Registration documents",
        "<p>Undergraduate admission requirements for transfer students: a transcript"
        " and a letter from the former university.</p>",
    ),
}


@pytest.fixture
def site(tmp_path: Path) -> Iterator[str]:
    for path, html in PAGES.items():
        file = tmp_path / path
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(html, encoding="utf-8")
    handler = functools.partial(SimpleHTTPRequestHandler, directory=str(tmp_path))
    handler.log_message = lambda *args: None  # type: ignore[method-assign]
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    origin = f"http://127.0.0.1:{server.server_address[1]}"
    (tmp_path / "robots.txt").write_text(
        f"User-agent: *\nAllow: /\nSitemap: {origin}/maps/pages.xml\n", encoding="utf-8"
    )
    (tmp_path / "maps").mkdir()
    urls = ["/", "/admissions/", "/admissions/undergraduate/", "/students/admission-requirements/"]
    (tmp_path / "maps" / "pages.xml").write_text(
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        + "".join(f"<url><loc>{origin}{u}</loc></url>" for u in urls)
        + "</urlset>",
        encoding="utf-8",
    )
    (tmp_path / "llms.txt").write_text(
        "# The university\n\n## Pages\n\n"
        f"- [Admissions]({origin}/admissions/): how to apply\n"
        "- [Admission requirements for transfer students](/services/s7/): documents\n",
        encoding="utf-8",
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield origin
    finally:
        server.shutdown()
        server.server_close()


def _paths(result: Any, origin: str) -> list[str]:
    return [p.url.removeprefix(origin) for p in result.pages]


def test_the_sitemap_and_llms_txt_pages_are_rendered_before_the_stop(site: str) -> None:
    result = crawl(site + "/", QUERY, concurrency=1)
    paths = _paths(result, site)
    assert "/admissions/undergraduate/" in paths
    for orphan in ("/students/admission-requirements/", "/services/s7/"):
        assert orphan in paths
        page = next(p for p in result.pages if p.url == site + orphan)
        assert page.parent == SITEMAP_PARENT and page.error is None
    counts = result.stop["sitemap"]
    assert counts["files"] == 1 and counts["urls"] == 4 and counts["llms_txt"] == 2
    assert counts["released"] == 2
    # A site this small runs out of links; that stop waited for them too.
    assert result.stop_reason == "frontier_exhausted"
    assert "the 2 pages the sitemap and llms.txt name" in result.stop["why"]


def test_without_site_indexes_the_crawl_follows_links_only(site: str) -> None:
    result = crawl(site + "/", QUERY, concurrency=1, use_sitemaps=False)
    paths = _paths(result, site)
    assert "/admissions/undergraduate/" in paths
    assert "/students/admission-requirements/" not in paths
    assert "/services/s7/" not in paths
