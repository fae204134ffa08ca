"""Crawls without a browser: a fake renderer and a page factory.

For pw_adaptive's own tests and for code built on it. ``FakeRenderer`` is a
``Renderer`` (``pw_adaptive.pages``) that serves pages from a dict, or from a
function of the URL; ``make_page`` builds a ``RenderedPage`` from the few
fields a test cares about::

    from pw_adaptive import AdaptiveCrawler, CrawlSettings
    from pw_adaptive.testing import FakeRenderer, make_page

    site = FakeRenderer({
        "http://u.test/": make_page("http://u.test/", links=["http://u.test/fees"]),
        "http://u.test/fees": make_page("http://u.test/fees", markdown="Tuition fees ..."),
    })
    settings = CrawlSettings(respect_robots=False, probe_soft_404=False)
    result = await AdaptiveCrawler(settings, renderer=site).run("http://u.test/", "fees")
    assert site.rendered == ["http://u.test/", "http://u.test/fees"]

No Playwright is imported here.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Mapping

from pw_adaptive.core.links import Link
from pw_adaptive.pages import Attachment, PageTimings, RenderedPage

__all__ = ["FakeRenderer", "make_page"]


def make_page(
    url: str,
    *,
    title: str = "",
    markdown: str = "",
    links: Iterable[Link | str] = (),
    main_text: str | None = None,
    final_url: str | None = None,
    status: int | None = 200,
    headings: Iterable[str] = (),
    attachments: Iterable[Attachment] = (),
    canonical: str | None = None,
    redirects: Iterable[str] = (),
    error: str | None = None,
    elapsed_s: float = 0.0,
    content_type: str = "",
    ready: str = "",
    retry_after: str = "",
    timings: PageTimings | None = None,
) -> RenderedPage:
    """A ``RenderedPage`` of ``url``: a 200 without redirects unless told otherwise.

    ``main_text`` defaults to ``markdown``, ``final_url`` to ``url``; a link given
    as a string becomes ``Link(url)`` (main region, no text).
    """
    return RenderedPage(
        url=url,
        final_url=url if final_url is None else final_url,
        status=status,
        title=title,
        headings=tuple(headings),
        markdown=markdown,
        main_text=markdown if main_text is None else main_text,
        links=tuple(Link(x) if isinstance(x, str) else x for x in links),
        attachments=tuple(attachments),
        canonical=canonical,
        redirects=tuple(redirects),
        error=error,
        elapsed_s=elapsed_s,
        content_type=content_type,
        ready=ready,
        retry_after=retry_after,
        timings=PageTimings() if timings is None else timings,
    )


class FakeRenderer:
    """A ``Renderer`` over a fixed site: no browser, no network.

    ``pages`` maps a URL to its page (a URL not in it renders as an empty 404
    page, as a real site's would), or is a function building the page of a URL.
    ``delay`` is the seconds each render takes: one number, a dict per URL
    (others take none) or a function of the URL (called once per render, so it
    may draw random delays). ``rendered`` lists the URLs asked for, in order.
    """

    def __init__(
        self,
        pages: Mapping[str, RenderedPage] | Callable[[str], RenderedPage],
        *,
        delay: float | Mapping[str, float] | Callable[[str], float] = 0.0,
    ) -> None:
        self.pages = pages
        self.delay = delay
        self.rendered: list[str] = []

    def _delay(self, url: str) -> float:
        if isinstance(self.delay, int | float):
            return float(self.delay)
        if isinstance(self.delay, Mapping):
            return self.delay.get(url, 0.0)
        return self.delay(url)

    async def render(self, url: str) -> RenderedPage:
        """The page of ``url``, after its delay."""
        seconds = self._delay(url)
        if seconds > 0:
            await asyncio.sleep(seconds)
        self.rendered.append(url)
        if isinstance(self.pages, Mapping):
            page = self.pages.get(url)
            return page if page is not None else make_page(url, status=404)
        return self.pages(url)
