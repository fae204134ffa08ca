"""How the renderer is configured (``RenderSettings``) and the base of renderers.

This module does not import Playwright: the CLI, job files and the batch
runners use the settings without a browser. What a renderer returns and the
``Renderer`` protocol live in ``pw_adaptive.pages`` (re-exported here).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import TracebackType
from typing import Self

from pw_adaptive.pages import Attachment, PageTimings, RenderedPage, Renderer

__all__ = [
    "Attachment",
    "ClosedOnExit",
    "PageTimings",
    "RenderSettings",
    "RenderedPage",
    "Renderer",
]


@dataclass(frozen=True)
class RenderSettings:
    """Every knob of the Playwright renderer; the defaults suit university portals.
    Validated on construction (``ValueError``)."""

    nav_timeout_s: float = 15.0
    """Timeout of the navigation itself, until DOMContentLoaded."""
    page_timeout_s: float = 20.0
    """Timeout of one render attempt: navigation, ready detection and extraction."""
    quiet_ms: int = 300
    """Ready once the DOM has had no change for this long after its first change."""
    grace_ms: int = 500
    """Ready, for a page whose DOM does not change at all (server-rendered), after this
    long (counted from DOMContentLoaded) once the load event has fired."""
    settle_ms: int = 100
    """Ready earlier, after this long without a DOM change, when nothing that
    could change the page is pending (no short timer, animation frame or
    request of the page unfinished); also how long a click that started
    nothing is given before it counts as leading nowhere. 0 turns the early
    rule off: ``quiet_ms``, ``grace_ms`` and ``click_wait_ms`` always apply."""
    ready_cap_ms: int = 5000
    """Ready detection never waits longer than this (pages that never stop mutating)."""
    learn_quiet_timers: bool = True
    """Learn, per host, the short timers that its pages set and that never
    change their content (a theme's timer that turns its transitions back
    on after mounting), and let the early rule stop waiting for them once
    three pages saw one run with nothing added or removed after it; every
    tenth page of the host waits for them again, and one change after such
    a timer has it awaited for the rest of the crawl
    (``pw_adaptive.render.ready.QuietTimers``). False: every short timer
    due before the quiet rule decides is waited for."""
    block_resources: bool = True
    """Load no images, web fonts or media: extraction never needs them (Chromium
    switches for a browser ``launch_browser`` starts, a route otherwise)."""
    block_search_index: bool = True
    """Do not download a theme's client-side search index (the whole site's
    text, fetched and indexed on every page by MkDocs, GitBook, just-the-docs
    and Docsy themes) on a host whose pages were seen loading one
    (``pw_adaptive.render.search_index``): a crawl never searches. On
    zju-welcome (a 1 MB index) a 40-page crawl took less than half the wall
    time. False: pages load it as a reader's browser does."""
    block_drawn_documents: bool = True
    """Do not download the PDF documents that a page's scripts fetch to draw
    them (PDF.js viewers: each page of the document painted on a canvas,
    which extraction never reads) on a host whose pages were seen fetching
    one (``pw_adaptive.render.search_index``). A link to the document is
    still a link, and its text is read as an attachment like any other. On
    caefisica (a syllabus viewer on each course's term page) the speed
    benchmark's CPU a page at concurrency 4 went from 1.21-1.23x the bare
    loop's (the twenty-fifth session's two runs) to 1.00-1.04x (the
    twenty-seventh's), and its pages per second from 0.74-0.77x to
    0.83-0.86x (``docs/benchmarks.md``). False: pages download and draw
    them."""
    reduced_motion: bool = True
    """Ask pages to reduce motion (the CSS media feature
    ``prefers-reduced-motion: reduce``, in contexts the renderer creates).
    Sites that honour it skip the transitions of the menus and groups that
    click exploration and "Load more" open, and their other animations:
    nothing a crawl reads, only frames the page's thread draws while the
    crawl waits for it to settle. On njust-manual (a VuePress theme whose
    style sheet turns every transition off under it) a 40-page crawl took
    7% less wall time and 8% less CPU per page, the same pages; qu-edu-iq
    and iwi-hka, which do not honour it, within noise (scratch A/B runs,
    ``docs/benchmarks.md``). False: the browser's default (no preference)."""
    block_third_party: bool = False
    """Abort subresource requests to other sites than the page's (analytics, tag
    managers, font CDNs): offline, each of their DNS look-ups stalls a page."""
    explore_clicks: bool = True
    """Click elements that may navigate without an href, in a scratch page."""
    load_more_clicks: int = 3
    """Times a "Load more" / "Show more" button is clicked on the page itself
    before extraction, so that lists revealing more links on demand (news,
    events, search results) show them; 0 turns this off."""
    max_click_explorations: int = 10
    """At most this many click-only elements are explored per page."""
    click_concurrency: int = 2
    """Scratch pages open at once for click exploration of one page."""
    click_wait_ms: int = 500
    """After a click, wait this long at most for the URL to change."""
    click_budget_s: float = 15.0
    """Wall-clock budget for all click explorations of one page."""
    explore_budget_s: float | None = 120.0
    """Seconds of click exploration per crawl, summed over its pages; once spent,
    only outcomes remembered from earlier pages are used (see ``ClickMemory``:
    each click target is explored once per site). None: no per-crawl bound."""
    renders_per_page: int = 20
    """URLs one browser page renders, one after another, before it is closed;
    1: a fresh page for every URL. A page goes on to the next URL only when
    that is a new document (a URL that differs from the page's own only in its
    fragment, a hash route, gets another page), and only when nothing clicked
    it (click exploration, "Load more"): a clicked page is closed. A new
    page costs Chromium a new renderer process, which loads and compiles the
    site's scripts and styles again: over the URLs of three real sites of
    the speed benchmark, a bare loop that reused its pages rendered 1.3-1.7x
    as many pages per second as one that opened a fresh page per URL (a
    scratch script's paired runs). What a tab keeps from one document to
    the next (its sessionStorage, its history) is dropped with the page
    after this many."""
    retries: int = 1
    """Extra attempts, each on a fresh page, right after a crash or a failed
    navigation (not after a timeout, a redirect loop, a download or a closed
    browser). The crawler retries transient failures again, with backoff
    (``CrawlSettings.retry_attempts``)."""
    max_elements: int = 20_000
    """Elements the extraction visits at most; the rest of a larger DOM (a 10 MB
    page has about 100,000) is left out of the markdown and the links. Bounds the
    time of one extraction (about 3 s for 20,000 elements on one core)."""
    max_content_chars: int = 1_000_000
    """Characters of text the extraction keeps at most; the markdown stays about
    this size (portal pages have a few thousand)."""
    recycle_context_pages: int = 0
    """When the crawler owns the browser, replace the browser context after this
    many pages (0: never). Off by default: over a 2,000-page crawl of the large
    fixture portal one context stayed flat at about 470-500 MiB (peak 636 MiB),
    and recycling every 500 pages only raised the peak while two contexts
    overlapped (see ``RecyclingRenderer`` and the "Long runs" benchmark). Turn
    it on for sites whose pages pile up storage or service workers. Cookies
    and storage that sites set are dropped with the old context."""
    browser_args: tuple[str, ...] = ()
    """Extra Chromium command-line arguments (after those of ``PW_ADAPTIVE_BROWSER_ARGS``)."""
    executable_path: str | None = None
    """Chromium to launch; None to discover one (see ``find_chromium``)."""
    headless: bool = True
    """Run the browser without a window."""
    user_agent: str | None = None
    """User-Agent header of the contexts the renderer creates (pages, robots.txt and
    attachments alike). None: ``pw_adaptive.identity.default_user_agent``,
    Chromium's engine tokens with ``compatible; pw-adaptive/<version>; +<url>``
    in them; ``""``: Chromium's own (which says ``HeadlessChrome``). A context you
    pass in keeps its own. robots.txt rules are matched for
    ``CrawlSettings.user_agent``, not for this string."""
    ignore_https_errors: bool = False
    """Accept invalid TLS certificates in contexts the renderer creates."""

    def __post_init__(self) -> None:
        _check_render_settings(self)  # ValueError for a value no renderer can use


def _check_render_settings(s: RenderSettings) -> None:
    for name in ("nav_timeout_s", "page_timeout_s"):
        if getattr(s, name) <= 0:
            raise ValueError(f"{name} must be > 0, got {getattr(s, name)}")
    for name in (
        "quiet_ms",
        "grace_ms",
        "settle_ms",
        "ready_cap_ms",
        "load_more_clicks",
        "max_click_explorations",
        "click_wait_ms",
        "click_budget_s",
        "retries",
        "recycle_context_pages",
    ):
        if getattr(s, name) < 0:
            raise ValueError(f"{name} must be >= 0, got {getattr(s, name)}")
    if s.renders_per_page < 1:
        raise ValueError(f"renders_per_page must be >= 1, got {s.renders_per_page}")
    if s.click_concurrency < 1:
        raise ValueError(f"click_concurrency must be >= 1, got {s.click_concurrency}")
    if s.max_elements < 1 or s.max_content_chars < 1:
        raise ValueError("max_elements and max_content_chars must be >= 1")
    if s.explore_budget_s is not None and s.explore_budget_s < 0:
        raise ValueError(f"explore_budget_s must be >= 0 or None, got {s.explore_budget_s}")
    if isinstance(s.browser_args, str):  # tuple("--x") would be its letters
        raise ValueError("browser_args must be a sequence of arguments, not one string")


class ClosedOnExit:
    """Base of the renderers: ``async with renderer:`` awaits ``close()`` on exit."""

    async def close(self) -> None:
        """Free what the renderer holds (its subclasses say what)."""

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()
