"""What a renderer returns, how it is configured, and the protocol it implements.

This module does not import Playwright: the crawler, fakes in unit tests and
the CLI can use the records without a browser.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import TracebackType
from typing import Protocol, Self

from pw_adaptive.links import Link
from pw_adaptive.records import PageTimings

__all__ = [
    "Attachment",
    "ClosedOnExit",
    "PageTimings",
    "RenderSettings",
    "RenderedPage",
    "Renderer",
]


@dataclass(frozen=True)
class Attachment:
    """A document linked from a page (PDF, DOCX, XLSX, ...), not rendered as a page."""

    url: str
    """Absolute URL of the document."""
    text: str
    """What the link says: its visible text, else its accessible name (may be empty)."""
    kind: str
    """Lower-case file kind: ``pdf``, ``docx``, ``xlsx``, ``doc``, ``xls``, ``pptx``, ...;
    ``file`` when only a ``download`` attribute marks the link."""


@dataclass(frozen=True)
class RenderedPage:
    """One URL rendered in the browser and extracted.

    ``error`` is set only when no page could be rendered; it starts with the failure
    kind (``pw_adaptive.retry.FailureKind``): ``"timeout: ..."``, ``"crash: ..."``,
    ``"browser_closed: ..."``, ``"network: ..."``, ``"redirect_loop: ..."``, or
    ``"download"`` when the navigation turned into a download or answered with a
    document (PDF, DOCX, ...), which is then the one entry of ``attachments``. The
    other fields are then empty. An HTTP error page (404, 500) renders normally
    and only its ``status`` tells.
    """

    url: str
    """The URL that was asked for."""
    final_url: str
    """The page's URL once ready: after HTTP redirects and client-side routing."""
    status: int | None
    """HTTP status of the main document (for hash routes: of the document that serves
    them); None when there was no response."""
    title: str
    """``document.title``, else the first h1; whitespace collapsed."""
    headings: tuple[str, ...]
    """Texts of the h1-h3 headings of the main content, in document order."""
    markdown: str
    """The main content as markdown (navigation, header and footer left out)."""
    main_text: str
    """The main content as plain text, one block per line (for dedup and soft-404)."""
    links: tuple[Link, ...]
    """Links to pages, in document order, including hidden ones and those found by
    clicking (``via_click``); exact repeats removed; attachments not included."""
    attachments: tuple[Attachment, ...]
    """Documents linked from the page, one per URL, in document order."""
    canonical: str | None
    """Absolute URL from ``<link rel=canonical>``, if any."""
    redirects: tuple[str, ...]
    """The HTTP redirect chain: every URL that answered with a redirect, the asked-for
    URL first; empty when the first response was final."""
    error: str | None
    """Why the page could not be rendered, or None."""
    elapsed_s: float
    """Wall-clock seconds spent on this URL, click exploration and retry included."""
    content_type: str = ""
    """Media type of the main document (``text/html``), parameters dropped."""
    ready: str = ""
    """How ready detection ended: ``quiet`` (DOM quiet after changing), ``static``
    (nothing changed during the grace window), or ``cap`` (the cap was reached; a
    page that did not answer at all by then fails with a ``timeout``)."""
    retry_after: str = ""
    """The ``Retry-After`` header of the main document's answer, as sent (a 429 or
    503 asking the crawler to come back later; ``pw_adaptive.retry`` parses it)."""
    timings: PageTimings = field(default_factory=PageTimings)
    """Where the time went (``elapsed_s`` is its ``total_s``)."""


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
    ready_cap_ms: int = 5000
    """Ready detection never waits longer than this (pages that never stop mutating)."""
    block_resources: bool = True
    """Abort requests for images, fonts and media: extraction never needs them."""
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


class Renderer(Protocol):
    """Turns a URL into a ``RenderedPage``; never raises for a page that fails."""

    async def render(self, url: str) -> RenderedPage:
        """Render ``url`` and extract it; failures are reported in ``RenderedPage.error``."""
        ...
