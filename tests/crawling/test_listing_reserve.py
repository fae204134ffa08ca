"""The listing's last look: its further pages, read before a saturated stop."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from interrupted import crawl_until_cancelled

from pw_adaptive import AdaptiveCrawler, CrawlSettings
from pw_adaptive.core.frontier import Frontier
from pw_adaptive.core.links import Link, Region
from pw_adaptive.crawling.listing_reserve import ListingReserve
from pw_adaptive.pages import RenderedPage
from pw_adaptive.testing import FakeRenderer, make_page

SITE = "http://chamber.test"
QUERY = "merit scholarship conditions"
OLD_POST = "/2013/10/07/new-rules/"
TEXT = {
    "/scholarships/": (
        "## Scholarships\n\nThe faculty awards social and merit scholarships every term."
        " Merit scholarship conditions are set by the university's rules."
    ),
    OLD_POST: (
        "## Merit scholarships: the new rules\n\nFrom this year the merit scholarship goes to"
        " the best ten percent of each programme. Conditions: a grade average of 1.5 and no"
        " failed exam. The merit scholarship is paid in two instalments."
    ),
}
NAV = [("/scholarships/", "Scholarships")] + [(f"/club/{i}/", f"Club {i}") for i in range(8)]
# Each listing page shows three posts, newest first, and the page numbers.
POSTS = [(f"/2016/0{m}/01/rowing-{m}/", f"Rowing regatta, round {m}") for m in range(1, 7)]
POSTS.insert(6, (OLD_POST, "Merit scholarships: the new rules"))
LISTINGS = {"/": 0, "/page2/": 1, "/page3/": 2}


def _page(url: str) -> RenderedPage:
    path = url.removeprefix(SITE) or "/"
    links = [Link(SITE + p, text=t, region=Region.NAV) for p, t in NAV]
    if path in LISTINGS:
        first = 3 * LISTINGS[path]
        links += [Link(SITE + p, text=t) for p, t in POSTS[first : first + 3]]
        links += [Link(f"{SITE}/page{n}/", text=str(n)) for n in (2, 3) if n != first // 3 + 1]
        text = "## News\n\n" + "\n".join(t for _, t in POSTS[first : first + 3])
    else:
        text = TEXT.get(path, f"## {path}\n\nA page about the club's boats and its members.")
    return make_page(url, title=path, markdown=text, links=links)


def _without_the_post(url: str) -> RenderedPage:
    """The site where the third listing page's post is one more regatta."""
    page = _page(url)
    links = [
        Link(link.url, text="Rowing regatta, round 7") if link.url.endswith(OLD_POST) else link
        for link in page.links
    ]
    return make_page(url, title=page.title, markdown=page.markdown, links=links)


def _crawl(query: str = QUERY, site: Any = _page, **options: Any) -> Any:
    options.setdefault("concurrency", 1)
    # The club pages differ only by their number: stubs, which stub_folders
    # would put last; these tests are about the listing's pages.
    options.setdefault("stub_folders", False)
    settings = CrawlSettings(probe_soft_404=False, use_sitemaps=False, **options)
    crawler = AdaptiveCrawler(settings, renderer=FakeRenderer(site, delay=0.005))
    return asyncio.run(crawler.run(SITE + "/", query))


def _paths(result: Any) -> list[str]:
    return [p.url.removeprefix(SITE) for p in result.pages]


def test_the_old_post_on_the_third_listing_page_is_found_before_the_stop() -> None:
    result = _crawl()
    paths = _paths(result)
    assert OLD_POST in paths
    assert paths.index("/page3/") < paths.index(OLD_POST)
    assert result.stop["listing_pages"] == 2
    assert "2 further pages of a listing" in result.stop["why"]


@pytest.mark.parametrize("concurrency", [2, 4, 8])
def test_pages_rendering_when_the_stop_waits_are_set_aside(concurrency: int) -> None:
    # The listing's pages give nothing: the stop comes after them, and the
    # pages that were rendering when it was first asked for are dropped, as
    # at any stop; the crawl ends where it ends at concurrency 1.
    alone = _crawl(site=_without_the_post)
    assert alone.stop["listing_pages"] == 2
    assert alone.stop_reason == "saturated"
    result = _crawl(site=_without_the_post, concurrency=concurrency)
    assert _paths(result) == _paths(alone)


def test_set_aside_pages_follow_the_released_ones_when_the_crawl_goes_on() -> None:
    alone = _paths(_crawl())
    paths = _paths(_crawl(concurrency=4))
    # /club/5/ to /club/7/ were rendering when the stop first waited.
    assert (
        paths[:9]
        == alone[:9]
        == [
            "/",
            "/scholarships/",
            *(f"/club/{i}/" for i in range(5)),
            "/page2/",
            "/page3/",
        ]
    )
    assert paths[9:12] == ["/club/5/", "/club/6/", "/club/7/"]
    assert OLD_POST in paths


def _twin_in_the_menu(url: str) -> RenderedPage:
    """The site whose menu links "/page2" (no slash) where "Club 6" was: it
    renders beside /club/5/ and /club/7/ when the stop first waits, and is
    set aside, while the listing's "2" goes to its slash twin "/page2/"."""
    page = _page(url)
    links = [
        Link(f"{SITE}/page2", text=link.text, region=link.region)
        if link.url.endswith("/club/6/")
        else link
        for link in page.links
    ]
    return make_page(url, title=page.title, markdown=page.markdown, links=links)


def test_a_set_aside_twin_does_not_hold_the_released_page_back() -> None:
    # The released "/page2/" must not wait for its set-aside twin "/page2":
    # that one is processed only after the wait, so the crawl would never end.
    async def crawl() -> Any:
        settings = CrawlSettings(probe_soft_404=False, use_sitemaps=False, concurrency=4)
        crawler = AdaptiveCrawler(settings, renderer=FakeRenderer(_twin_in_the_menu, delay=0.005))
        return await asyncio.wait_for(crawler.run(SITE + "/", QUERY), timeout=10)

    result = asyncio.run(crawl())
    paths = _paths(result)
    assert paths.index("/page2/") < paths.index("/page2")
    assert OLD_POST in paths


def test_without_the_stopper_nothing_is_held() -> None:
    result = _crawl(adaptive_stop=False, max_pages=12)
    assert result.stop["listing_pages"] == 0


def test_an_absent_topic_gives_up_without_the_listing() -> None:
    result = _crawl("student dormitory rent")
    assert result.stop_reason == "no_relevant_pages"
    assert result.stop["listing_pages"] == 0
    assert "/page2/" not in _paths(result)


def test_released_pages_are_rendered_next_and_the_stop_waits_for_them() -> None:
    frontier = Frontier(max_pages=50)
    for i in range(4):
        frontier.push(f"{SITE}/hub/{i}/", score=0.4, depth=1, blind=True)
    reserve = ListingReserve()
    for n in (2, 3, 4):
        frontier.push(f"{SITE}/page{n}/", score=0.08, depth=1, blind=True)
        reserve.note(f"{SITE}/page{n}/")
    reserve.note(f"{SITE}/page9/")  # never queued (refused by a filter)
    assert reserve.hold(frontier, limit=2)
    order = []
    while (entry := frontier.pop(0.0)) is not None:
        order.append(entry.url.removeprefix(SITE))
        frontier.mark_done(entry.url)
        if len(order) == 1:
            assert reserve.hold(frontier, limit=2)  # one still waits
    assert not reserve.hold(frontier, limit=2)
    assert order[:2] == ["/page2/", "/page3/"]
    assert reserve.released == 2
    # One look only: what is noted later is not released.
    frontier.push(f"{SITE}/page5/", score=0.08, depth=1, blind=True)
    reserve.note(f"{SITE}/page5/")
    assert not reserve.hold(frontier, limit=2)


@pytest.mark.parametrize("after", [3, 9], ids=["before the release", "while it waits"])
def test_a_resumed_crawl_makes_the_same_decisions(tmp_path: Any, after: int) -> None:
    reference = _crawl()
    state = tmp_path / "crawl.state"
    settings = CrawlSettings(
        stub_folders=False,  # as _crawl
        concurrency=1,
        probe_soft_404=False,
        use_sitemaps=False,
        checkpoint_every=1,
    )

    crawler = AdaptiveCrawler(settings, renderer=FakeRenderer(_page))
    crawl_until_cancelled(crawler, SITE + "/", QUERY, state, after)
    crawler = AdaptiveCrawler(settings, renderer=FakeRenderer(_page))
    resumed = asyncio.run(crawler.run(SITE + "/", QUERY, state_path=state))
    assert _paths(resumed) == _paths(reference)
    assert resumed.stop == reference.stop
