"""The sitemap's last look: pages no link reached, checked before the crawl stops."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from interrupted import crawl_until_cancelled

from pw_adaptive import AdaptiveCrawler, CrawlSettings
from pw_adaptive.core.frontier import Frontier
from pw_adaptive.core.links import Link, Region
from pw_adaptive.crawling.sitemap_reserve import SITEMAP_PARENT, SitemapReserve, read_llms_txt
from pw_adaptive.pages import FetchResult, RenderedPage
from pw_adaptive.testing import FakeRenderer, make_page

SITE = "http://uni.test"
QUERY = "undergraduate admission requirements"
REQUIREMENTS = (
    "## Undergraduate admission requirements\n\nUndergraduate applicants need the national "
    "secondary certificate. Admission requirements include a medical examination.\n\n"
    "Undergraduate admission is decided by the ministry's central admission plan."
)
TEXT = {
    "/": "Welcome to the university.",
    "/admissions/": "## Admissions\n\nUndergraduate admission: see the requirements below.",
    "/admissions/undergraduate/": REQUIREMENTS,
    # A second section that no page links to: only the sitemap lists it.
    "/students/admission/": (
        "## Admission requirements and registration\n\nRegistration of undergraduate "
        "students opens in September; admission requirements: original certificate, "
        "four photographs and the admission form."
    ),
    "/en/students/admission/": REQUIREMENTS,
    # Another page only a site index lists, under a URL that names nothing.
    "/services/s7/": (
        "## Admission requirements and registration\n\nUndergraduate admission requirements:"
        " the original certificate and a medical examination; registration opens in September."
    ),
}
NAV = [("/admissions/", "Admissions"), ("/about/", "About"), ("/news/", "News")]
CHILDREN = {
    "/admissions/": [("/admissions/undergraduate/", "Undergraduate admission requirements")],
    "/news/": [(f"/news/{i}/", f"Story {i}") for i in range(30)],
}
SITEMAP_URLS = ["/", "/admissions/", "/admissions/undergraduate/", "/students/admission/"]


def _page(url: str) -> RenderedPage:
    path = url.removeprefix(SITE) or "/"
    links = [Link(SITE + p, text=t, region=Region.NAV) for p, t in NAV]
    links += [Link(SITE + p, text=t) for p, t in CHILDREN.get(path, [])]
    text = TEXT.get(path, f"A story about rowing, number {path}.")
    return make_page(url, title=path, markdown=text, links=links)


def _sitemap(paths: list[str], languages: dict[str, str] | None = None) -> bytes:
    entries = []
    for path in paths:
        tag = (languages or {}).get(path)
        alternate = (
            f'<xhtml:link rel="alternate" hreflang="{tag}" href="{SITE}{path}"/>' if tag else ""
        )
        entries.append(f"<url><loc>{SITE}{path}</loc>{alternate}</url>")
    return (
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
        f'xmlns:xhtml="http://www.w3.org/1999/xhtml">{"".join(entries)}</urlset>'
    ).encode()


class _Server:
    """Answers the crawl's plain requests: robots.txt and sitemaps."""

    def __init__(self, files: dict[str, bytes]) -> None:
        self.files = files
        self.asked: list[str] = []

    async def fetch(self, url: str, *, max_bytes: int) -> FetchResult:
        self.asked.append(url.removeprefix(SITE))
        body = self.files.get(url.removeprefix(SITE))
        if body is None:
            return FetchResult(url, 404, "text/html", b"<h1>Not found</h1>", "http_404")
        kind = "text/plain" if url.endswith(".txt") else "application/xml"
        return FetchResult(url, 200, kind, body)


def _crawl(server: _Server, **options: Any) -> Any:
    settings = CrawlSettings(concurrency=1, probe_soft_404=False, **options)
    crawler = AdaptiveCrawler(settings, renderer=FakeRenderer(_page), fetcher=server)
    return asyncio.run(crawler.run(SITE + "/", QUERY))


def _paths(result: Any) -> list[str]:
    return [p.url.removeprefix(SITE) for p in result.pages]


def test_without_a_sitemap_the_second_section_is_never_reached() -> None:
    result = _crawl(_Server({}))
    assert "/admissions/undergraduate/" in _paths(result)
    assert "/students/admission/" not in _paths(result)
    assert result.stop["sitemap"] == {
        "files": 1,
        "urls": 0,
        "llms_txt": 0,
        "reserved": 0,
        "released": 0,
    }


def test_the_sitemap_page_the_links_missed_is_rendered_before_the_stop() -> None:
    without = _crawl(_Server({}))
    result = _crawl(_Server({"/sitemap.xml": _sitemap(SITEMAP_URLS)}))
    paths = _paths(result)
    assert "/students/admission/" in paths
    # The reserve waits for the first stop: the crawl went as before until then.
    assert paths[: len(without.pages) - 1] == _paths(without)[: len(without.pages) - 1]
    page = next(p for p in result.pages if p.url.endswith("/students/admission/"))
    assert page.parent == SITEMAP_PARENT
    # Only pages whose URL words name most of the query are kept ("/" names
    # nothing); of them, only the one no link reached is released.
    assert result.stop["sitemap"]["reserved"] == 3
    assert result.stop["sitemap"]["released"] == 1
    assert "the 1 pages the sitemap names" in result.stop["why"]
    assert len(result.pages) >= len(without.pages)


def test_robots_txt_names_the_sitemap_and_another_hosts_sitemap_is_not_read() -> None:
    robots = (
        "User-agent: *\nAllow: /\n"
        "Sitemap: https://elsewhere.test/sitemap.xml\n"
        f"Sitemap: {SITE}/maps/pages.xml\n"
    ).encode()
    server = _Server({"/robots.txt": robots, "/maps/pages.xml": _sitemap(SITEMAP_URLS)})
    result = _crawl(server)
    assert "/students/admission/" in _paths(result)
    assert "/sitemap.xml" not in server.asked
    assert not any("elsewhere" in url for url in server.asked)


def test_robots_txt_rules_apply_to_the_sitemap_pages() -> None:
    robots = b"User-agent: *\nDisallow: /students/\n"
    server = _Server({"/robots.txt": robots, "/sitemap.xml": _sitemap(SITEMAP_URLS)})
    assert "/students/admission/" not in _paths(_crawl(server))


def test_a_page_on_another_allowed_host_obeys_that_hosts_robots_txt() -> None:
    other = "http://apply.uni.test"
    # The start host allows everything; the other host, in scope on request,
    # disallows its admission pages.
    server = _Server(
        {
            "/robots.txt": b"User-agent: *\nAllow: /\n",
            f"{other}/robots.txt": b"User-agent: *\nDisallow: /students/\n",
            "/sitemap.xml": _sitemap([*SITEMAP_URLS, "/x"]).replace(
                f"{SITE}/x".encode(), f"{other}/students/admission/".encode()
            ),
        }
    )
    result = _crawl(server, allowed_hosts=[other])
    assert f"{other}/robots.txt" in server.asked
    assert f"{other}/students/admission/" not in [p.url for p in result.pages]
    assert "/students/admission/" in _paths(result)  # the start host's own page


def test_pages_outside_the_crawls_scope_are_not_kept() -> None:
    server = _Server({"/sitemap.xml": _sitemap(SITEMAP_URLS)})
    settings = CrawlSettings(concurrency=1, probe_soft_404=False, url_prefix=SITE + "/admissions/")
    crawler = AdaptiveCrawler(settings, renderer=FakeRenderer(_page), fetcher=server)
    result = asyncio.run(crawler.run(SITE + "/admissions/", QUERY))
    # A crawl kept to "/admissions/": the sitemap's "/students/..." is out.
    assert "/students/admission/" not in _paths(result)
    assert result.stop["sitemap"]["reserved"] == 2  # "/admissions/" and its child


def test_another_language_version_is_left_out() -> None:
    paths = ["/", "/en/students/admission/"]
    languages = {"/": "ar", "/en/students/admission/": "en"}
    server = _Server({"/sitemap.xml": _sitemap(paths, languages)})
    result = _crawl(server)
    assert "/en/students/admission/" not in _paths(result)
    assert result.stop["sitemap"]["reserved"] == 0


LLMS_TXT = (
    "# Uni\n\n## Pages\n\n"
    f"- [Admissions]({SITE}/admissions/): how to apply\n"
    "- [Admission requirements and registration](/services/s7/): documents for undergraduates\n"
    "- [Rowing club](/services/s8/): the boathouse\n"
).encode()


def test_the_llms_txt_names_a_page_by_its_title_where_its_url_says_nothing() -> None:
    without = _crawl(_Server({}))
    assert "/services/s7/" not in _paths(without)
    result = _crawl(_Server({"/llms.txt": LLMS_TXT}))
    paths = _paths(result)
    assert "/services/s7/" in paths
    assert "/services/s8/" not in paths  # its title names nothing of the query
    assert paths[: len(without.pages) - 1] == _paths(without)[: len(without.pages) - 1]
    # Rendered as soon as the stopper first wanted to stop, whatever the queue holds.
    assert paths[len(without.pages)] == "/services/s7/"
    assert result.stop["sitemap"]["llms_txt"] == 3
    assert result.stop["sitemap"]["released"] == 1
    assert "the 1 pages the sitemap and llms.txt name by" in result.stop["why"]


def test_an_llms_txt_that_robots_txt_disallows_is_not_read() -> None:
    robots = b"User-agent: *\nDisallow: /llms.txt\n"
    server = _Server({"/robots.txt": robots, "/llms.txt": LLMS_TXT})
    result = _crawl(server)
    assert "/llms.txt" not in server.asked
    assert "/services/s7/" not in _paths(result)


def test_llms_txt_is_read_at_the_root_and_in_the_start_pages_folder() -> None:
    index = b"- [Admission requirements](/ar/admissions/requirements/): documents\n"
    server = _Server({"/ar/llms.txt": index})

    def anywhere(url: str) -> bool:
        return True

    entries = asyncio.run(read_llms_txt(server, SITE + "/ar/", anywhere))
    assert server.asked == ["/llms.txt", "/ar/llms.txt"]
    assert [e.url for e in entries] == [SITE + "/ar/admissions/requirements/"]
    # Out of the crawl's scope: not asked for at all.
    server.asked.clear()
    asyncio.run(read_llms_txt(server, SITE + "/ar/", lambda url: "/ar/" in url))
    assert server.asked == ["/ar/llms.txt"]


@pytest.mark.parametrize(
    "options",
    [{"use_sitemaps": False}, {"adaptive_stop": False, "max_pages": 8}],
    ids=["sitemaps off", "stopper off"],
)
def test_the_sitemap_is_left_alone_when_switched_off_or_without_the_stopper(
    options: dict[str, Any],
) -> None:
    server = _Server({"/sitemap.xml": _sitemap(SITEMAP_URLS)})
    result = _crawl(server, **options)
    assert "/students/admission/" not in _paths(result)
    assert "/sitemap.xml" not in server.asked
    assert "/llms.txt" not in server.asked


@pytest.mark.parametrize("after", [2, "stop"], ids=["before the release", "after the release"])
def test_a_resumed_crawl_makes_the_sitemaps_decisions_an_uninterrupted_one_makes(
    tmp_path: Any, after: int | str
) -> None:
    files = {"/sitemap.xml": _sitemap(SITEMAP_URLS)}
    reference = _crawl(_Server(files), checkpoint_every=1)
    stop_at = len(_crawl(_Server({})).pages) if after == "stop" else after
    state = tmp_path / "crawl.state"
    settings = CrawlSettings(concurrency=1, probe_soft_404=False, checkpoint_every=1)

    crawler = AdaptiveCrawler(settings, renderer=FakeRenderer(_page), fetcher=_Server(files))
    crawl_until_cancelled(crawler, SITE + "/", QUERY, state, stop_at)
    crawler = AdaptiveCrawler(settings, renderer=FakeRenderer(_page), fetcher=_Server(files))
    resumed = asyncio.run(crawler.run(SITE + "/", QUERY, state_path=state))
    assert _paths(resumed) == _paths(reference)
    assert resumed.stop == reference.stop


def test_released_pages_are_rendered_next_even_below_the_queues_scores() -> None:
    async def scenario() -> list[str]:
        frontier = Frontier(max_pages=50)
        for i in range(4):
            frontier.push(f"{SITE}/hub/{i}/", score=0.4, depth=2, blind=True)
        reserve = SitemapReserve()

        async def read() -> list[tuple[str, float]]:
            return [(f"{SITE}/students/admission/", 0.31), (f"{SITE}/hub/0/", 0.9)]

        reserve.start(read())
        assert await reserve.hold(frontier, limit=5)  # the stop waits
        order = []
        while (entry := frontier.pop(0.0)) is not None:
            order.append(entry.url.removeprefix(SITE))
            frontier.mark_done(entry.url)
        assert not await reserve.hold(frontier, limit=5)  # all rendered: stop
        return order

    order = asyncio.run(scenario())
    # The queued hub page named by the reserve goes first too, at its own score.
    assert order[:2] == ["/students/admission/", "/hub/0/"]
    assert sorted(order[2:]) == ["/hub/1/", "/hub/2/", "/hub/3/"]
