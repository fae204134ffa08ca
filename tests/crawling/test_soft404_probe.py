"""The soft-404 probe renders beside the crawl's first page, yet every page is
judged with its lesson learnt; alone and first at concurrency 1 or under a
politeness delay (a fake renderer: no browser)."""

from __future__ import annotations

import asyncio

import pytest

from pw_adaptive import AdaptiveCrawler, CrawlSettings
from pw_adaptive.core.links import Link
from pw_adaptive.core.soft404 import Soft404Detector
from pw_adaptive.pages import RenderedPage
from pw_adaptive.testing import FakeRenderer, make_page

SITE = "http://portal.test"
START = SITE + "/"
PROBE = Soft404Detector.probe_url(START)
NOT_FOUND = (
    "We could not find the page you asked for. It may have moved, or the address may be "
    "mistyped. Try the search box or go back to the home page of the university."
)


def _page(url: str) -> RenderedPage:
    if url == START:
        links = [Link(SITE + "/fees", text="Tuition fees"), Link(SITE + "/old", text="Old fees")]
        return make_page(url, title="Home", markdown="Welcome. Tuition fees and more.", links=links)
    if url == SITE + "/fees":
        return make_page(url, title="Fees", markdown="Tuition fees are 900 pounds a term.")
    # Anything else is the site's "not found" page, answered with 200.
    return make_page(url, title="Not found", markdown=NOT_FOUND)


def _crawl(**options: object) -> tuple[FakeRenderer, dict[str, str | None]]:
    renderer = FakeRenderer(_page, delay={PROBE: 0.3})
    settings = CrawlSettings(respect_robots=False, adaptive_stop=False, **options)  # type: ignore[arg-type]
    result = asyncio.run(AdaptiveCrawler(settings, renderer=renderer).run(START, "tuition fees"))
    return renderer, {p.url.removeprefix(SITE): p.note for p in result.pages}


def test_the_probe_renders_beside_the_start_page_and_still_judges_every_page() -> None:
    renderer, notes = _crawl(concurrency=4)
    # The start page finished rendering while the slow probe still rendered.
    assert renderer.rendered.index(START) < renderer.rendered.index(PROBE)
    assert notes == {"/": None, "/fees": None, "/old": "soft_404"}


@pytest.mark.parametrize("options", [{"concurrency": 1}, {"concurrency": 4, "host_delay_s": 0.01}])
def test_the_probe_renders_first_and_alone_at_concurrency_1_or_under_a_delay(
    options: dict[str, object],
) -> None:
    renderer, notes = _crawl(**options)
    assert renderer.rendered[0] == PROBE
    assert notes == {"/": None, "/fees": None, "/old": "soft_404"}
