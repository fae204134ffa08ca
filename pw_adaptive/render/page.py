"""``PlaywrightRenderer``: one URL in, one ``RenderedPage`` out.

Per URL: a page in the renderer's context with the guards of ``hooks.py``,
``goto`` until DOMContentLoaded, ready detection (``ready.py``), one
extraction (``extract.js``), markdown, then click exploration in scratch pages
(``clicks.py``). The page is a fresh one, or one that rendered an earlier URL
and nothing else (``RenderSettings.renders_per_page``): the next URL is then a
new document in the same tab, which keeps the renderer process and what it
compiled of the site. Never for a URL that differs from the page's own only
in its fragment: that navigation stays in the same document (a hash route),
and the ready wait would pass on the previous route's content. A page that
was clicked (exploration, "Load more") is never reused, and one whose
previous document navigates it away while the next URL loads (a timer that
document left) gives way to a fresh page at once, not counted as a retry.
A failed attempt (crash, network error) is retried once on a fresh page; a
timeout or a download is not retried. ``render`` never raises for a page: failures are
reported in ``RenderedPage.error``.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager, suppress
from dataclasses import replace

from playwright.async_api import Browser, BrowserContext, Page, Response, async_playwright
from playwright.async_api import TimeoutError as PlaywrightTimeoutError

from pw_adaptive.identity import default_user_agent
from pw_adaptive.netguard import NetGuard
from pw_adaptive.pages import Attachment, PageTimings, RenderedPage, attachment_kind
from pw_adaptive.render.browser import BrowserClosedError, launch_browser
from pw_adaptive.render.click_memory import ClickMemory
from pw_adaptive.render.clicks import explore_clicks
from pw_adaptive.render.extract import Extraction, extract_page
from pw_adaptive.render.guard import GuardRoute, install_guard, remove_guard
from pw_adaptive.render.hooks import PageState, close_quietly, consume_error, prepare_page
from pw_adaptive.render.markdown import html_to_markdown
from pw_adaptive.render.ready import QuietTimers, wait_for_next_document, wait_until_ready
from pw_adaptive.render.records import ClosedOnExit, RenderSettings
from pw_adaptive.render.search_index import search_indexes
from pw_adaptive.text.languages import phrases

__all__ = ["PlaywrightRenderer", "open_renderer", "redirect_chain"]

_CONTEXT_GONE = ("Execution context was destroyed", "Cannot find context")

_MAX_REPLACEMENTS = 3
"""Documents a render follows after the first one replaced it during extraction
(client-side redirects, a page that goes on to another): then it gives up."""

_INTERRUPTED = ("is interrupted by another navigation", "net::ERR_ABORTED")
"""How ``goto`` fails when another navigation took the page meanwhile."""


def _interrupted(exc: BaseException) -> bool:
    """Whether ``goto`` failed because another navigation took the page."""
    return any(marker in str(exc) for marker in _INTERRUPTED)


def _context_gone(exc: BaseException) -> bool:
    """Whether ``exc`` says the document went away under a call (a navigation)."""
    return any(marker in str(exc) for marker in _CONTEXT_GONE)


class _Unresponsive(Exception):
    """The page's script never yields (an endless loop): nothing can be extracted."""


class _ReusedPageMoved(Exception):
    """A reused page's previous document navigated it while the next URL loaded."""


class _NotAPage(Exception):
    """The navigation turned into a download, or answered with a document (PDF, ...)."""

    def __init__(self, kind: str, status: int | None) -> None:
        super().__init__(kind)
        self.kind = kind
        self.status = status


def _user_agent(settings: RenderSettings, browser: Browser) -> str | None:
    """The User-Agent for a new context (``RenderSettings.user_agent``); None
    leaves Chromium's own."""
    if settings.user_agent is None:
        return default_user_agent(browser.version)
    return settings.user_agent or None


def redirect_chain(response: Response | None) -> tuple[str, ...]:
    """URLs that answered the main request with a redirect, the first request first."""
    if response is None:
        return ()
    chain: list[str] = []
    request = response.request.redirected_from
    while request is not None:
        chain.append(request.url)
        request = request.redirected_from
    return tuple(reversed(chain))


def _short_error(exc: BaseException) -> str:
    text = str(exc).strip()
    first = text.splitlines()[0] if text else type(exc).__name__
    for prefix in ("Page.goto: ", "Page.evaluate: ", "Locator.click: "):
        first = first.removeprefix(prefix)
    return first[:300]


def _failure(exc: BaseException, browser_connected: bool) -> str:
    """``RenderedPage.error`` for an exception of one attempt: ``"<kind>: <detail>"``
    with a kind of ``pw_adaptive.crawling.retry.FailureKind``."""
    detail = _short_error(exc)
    if not browser_connected:
        kind = "browser_closed"
    elif "ERR_TOO_MANY_REDIRECTS" in detail:
        kind = "redirect_loop"
    elif "crashed" in detail.lower() or "has been closed" in detail:
        kind = "crash"  # the renderer process died (or was killed) under the page
    elif "net::ERR_" in detail:
        kind = "network"
    else:
        kind = "error"
    return f"{kind}: {detail}"


_NOT_RETRIED_AT_ONCE = ("redirect_loop", "browser_closed")
"""Failure kinds the renderer does not retry itself: a loop stays a loop, and a
browser that went away is relaunched by the next render call."""

_MAX_IDLE_PAGES = 16
"""Idle pages a renderer keeps for the next URLs at most."""


class PlaywrightRenderer(ClosedOnExit):
    """Renders URLs in headless Chromium (implements the ``Renderer`` protocol).

    ``target`` is a Playwright ``Browser`` (the renderer then creates and owns one
    ``BrowserContext``: downloads refused, service workers blocked so routes see
    every request) or a user's own ``BrowserContext`` (used as is, never closed).
    With a ``guard`` (``pw_adaptive.netguard``), every request of the context
    goes through it (``render/guard.py``).
    When the browser goes away (crashed, killed), the next ``render`` or
    ``context`` call takes a new one from ``relaunch`` (given by whoever
    launched the first one, who also closes every browser it hands out) and
    goes on in a new context; without ``relaunch``, or when the target is a
    ``BrowserContext``, it raises ``BrowserClosedError`` instead: a crawl on a
    user's browser cannot go on.
    Safe to call ``render`` concurrently: every call works on its own pages.
    """

    def __init__(
        self,
        target: Browser | BrowserContext,
        settings: RenderSettings | None = None,
        *,
        guard: NetGuard | None = None,
        relaunch: Callable[[], Awaitable[Browser]] | None = None,
        click_memory: ClickMemory | None = None,
        quiet_timers: QuietTimers | None = None,
    ) -> None:
        self._settings = settings or RenderSettings()
        # `is None`, not `or`: a memory that has learnt nothing yet is empty
        # (len 0) and falsy, and the crawl's recycled renderers must share it.
        self.click_memory = (
            click_memory
            if click_memory is not None
            else ClickMemory(self._settings.explore_budget_s)
        )
        """What click targets led to on the sites rendered (shared with the other
        renderers of a crawl when given), and the crawl's exploration time."""
        self.quiet_timers: QuietTimers | None = None
        """The timers of the sites rendered that the ready wait no longer
        waits for (``RenderSettings.learn_quiet_timers``; shared with the
        other renderers of a crawl when given, as ``click_memory`` is)."""
        if self._settings.learn_quiet_timers:
            self.quiet_timers = quiet_timers if quiet_timers is not None else QuietTimers()
        self._relaunch = relaunch
        self.relaunches = 0
        """Times the browser was relaunched after it went away."""
        # The private-address guard (render/guard.py), routed on the context
        # when it is first used and unrouted from a borrowed one on close.
        self._guard = guard
        self._guard_route: GuardRoute | None = None
        self._browser: Browser | None = None
        self._context: BrowserContext | None = None
        if isinstance(target, BrowserContext):
            self._context = target
            self._owns_context = False
        else:
            self._browser = target
            self._owns_context = True
        self._lock = asyncio.Lock()
        self._spare: asyncio.Future[Page] | None = None
        # Pages that rendered a URL and may render another (renders_per_page):
        # the page, its state (handlers stay installed) and its renders so far.
        self._idle: list[tuple[Page, PageState, int]] = []
        self.pages_reused = 0
        """Renders that went on in a page that had rendered another URL before."""

    @property
    def settings(self) -> RenderSettings:
        """The settings this renderer was built with."""
        return self._settings

    async def context(self) -> BrowserContext:
        """The context pages are opened in, created on first use from the browser
        (and again in a relaunched browser, see the class doc)."""
        await self._ensure_browser()
        async with self._lock:
            if self._context is None:
                assert self._browser is not None
                self._context = await self._browser.new_context(
                    accept_downloads=False,
                    service_workers="block",
                    ignore_https_errors=self._settings.ignore_https_errors,
                    user_agent=_user_agent(self._settings, self._browser),
                    viewport={"width": 1280, "height": 900},
                    reduced_motion="reduce" if self._settings.reduced_motion else "no-preference",
                )
            if self._guard is not None and self._guard_route is None:
                self._guard_route = await install_guard(self._context, self._guard)
            return self._context

    async def _fresh_page(self) -> Page:
        """A page never navigated before. Opening a page costs Chromium a renderer
        process (~0.1-0.2 s), so one spare page is opened ahead, while the current
        URL renders, and handed to the next call."""
        context = await self.context()
        spare, self._spare = self._spare, asyncio.ensure_future(context.new_page())
        self._spare.add_done_callback(consume_error)
        if spare is not None:
            with suppress(Exception):
                page = await spare
                if not page.is_closed():
                    return page
        return await context.new_page()

    def _reusable(self, url: str) -> tuple[Page, PageState, int] | None:
        """An idle page that may render ``url`` as a new document: not one whose
        own URL differs from it only in the fragment (a hash route would be a
        same-document navigation, and the ready wait would pass on the old
        route's content)."""
        self._idle = [entry for entry in self._idle if not entry[0].is_closed()]
        base = url.partition("#")[0]
        for i, (page, _state, _renders) in enumerate(self._idle):
            if page.url.partition("#")[0] != base:
                return self._idle.pop(i)
        return None

    async def _park(self, page: Page, state: PageState, renders: int) -> None:
        """Keep ``page`` for the next URL, or close it when it has rendered its share."""
        if renders < self._settings.renders_per_page and not page.is_closed():
            self._idle.append((page, state, renders))
            # One idle page per render that may run at once is plenty; a crawl
            # whose concurrency fell leaves the rest.
            while len(self._idle) > _MAX_IDLE_PAGES:
                await close_quietly(self._idle.pop(0)[0])
        else:
            await close_quietly(page)

    def _connected(self) -> bool:
        """Whether the browser behind the pages is still there."""
        browser = self._browser
        if browser is None and self._context is not None:
            browser = self._context.browser
        return browser is None or browser.is_connected()

    async def _ensure_browser(self) -> None:
        """Relaunch a browser that went away (see the class doc), or raise
        ``BrowserClosedError`` when this renderer may not."""
        if self._connected():
            return
        gone = self._browser
        if gone is None or self._relaunch is None:
            raise BrowserClosedError(
                "the browser the crawl was given has been closed or has crashed; "
                "the crawl cannot go on (a crawl that launches its own browser relaunches it)"
            )
        async with self._lock:
            if self._browser is not gone:
                return  # a concurrent render relaunched it already
            self._spare = None
            self._idle = []  # pages of the browser that went away
            self._context = None
            self._guard_route = None
            self._browser = await self._relaunch()
            self.relaunches += 1

    async def close(self) -> None:
        """Close the context if this renderer created it, and the spare page (the
        browser stays open, relaunched ones too: they are ``relaunch``'s)."""
        spare, self._spare = self._spare, None
        if spare is not None:
            with suppress(Exception):
                await close_quietly(await spare)
        idle, self._idle = self._idle, []
        for page, _state, _renders in idle:
            await close_quietly(page)
        async with self._lock:
            if self._guard_route is not None and self._context is not None:
                if not self._owns_context:
                    await remove_guard(self._context, self._guard_route)
                self._guard_route = None
            if self._owns_context and self._context is not None:
                with suppress(Exception):
                    await self._context.close()
                self._context = None

    async def render(self, url: str) -> RenderedPage:
        """Render ``url`` (see the module doc); never raises for a failing page, but
        raises ``BrowserClosedError`` when the browser went away and may not be
        relaunched (see the class doc)."""
        started = time.monotonic()
        settings = self._settings
        error = "not rendered"
        for attempt in range(1 + max(0, settings.retries)):
            await self._ensure_browser()
            try:
                page, extraction, live, renders = await asyncio.wait_for(
                    self._render_attempt(url, reuse=attempt == 0), timeout=settings.page_timeout_s
                )
            except (TimeoutError, PlaywrightTimeoutError) as exc:
                if not self._connected():
                    error = _failure(exc, browser_connected=False)
                    break
                error = f"timeout: no page within {settings.page_timeout_s:g} s"
                if isinstance(exc, PlaywrightTimeoutError):
                    error = f"timeout: {_short_error(exc)}"
                break
            except _Unresponsive:
                error = "unresponsive: the page's script never yields"
                break
            except _NotAPage as doc:
                attachment = Attachment(url=url, text="", kind=doc.kind)
                return _failed(url, "download", started, (attachment,), status=doc.status)
            except Exception as exc:  # crash, network error, closed target: retry
                error = _failure(exc, browser_connected=self._connected())
                if error.startswith(_NOT_RETRIED_AT_ONCE):
                    break
                continue
            explore_s = 0.0
            if live is not None:
                explore_started = time.monotonic()
                try:
                    page = await self._with_click_links(page, extraction, live)
                finally:
                    # Every candidate answered from memory (most pages of a
                    # site, once its chrome was explored): nothing clicked the
                    # page, which may go on to the next URL.
                    if renders and not live[1].armed:
                        await self._park(live[0], live[1], renders)
                    else:
                        await close_quietly(live[0])
                explore_s = time.monotonic() - explore_started
            total = time.monotonic() - started
            timings = replace(page.timings, explore_s=explore_s, total_s=total)
            return replace(page, elapsed_s=total, timings=timings)
        return _failed(url, error, started)

    async def _render_attempt(
        self, url: str, *, reuse: bool
    ) -> tuple[RenderedPage, Extraction, tuple[Page, PageState] | None, int]:
        """``_render_once``; again on a fresh page when the reused page's previous
        document navigated it away (not this URL's failure: not a retry)."""
        try:
            return await self._render_once(url, reuse=reuse)
        except _ReusedPageMoved:
            return await self._render_once(url, reuse=False)

    async def _render_once(
        self, url: str, *, reuse: bool = True
    ) -> tuple[RenderedPage, Extraction, tuple[Page, PageState] | None, int]:
        """One attempt. The page is returned open (third item) when it has
        click-only candidates to explore: it then serves as the first scratch
        copy, and the caller closes or parks it. The fourth item is the URLs
        the page has rendered, this one included, or 0 when it may not render
        another. ``reuse`` False: a fresh page (a retry: whatever the page
        before left running, a script's late navigation, must not fail it
        again)."""
        settings = self._settings
        reused = self._reusable(url) if reuse else None
        if reused is not None:
            page, state, renders = reused
            state.reset(url)
            self.pages_reused += 1
        else:
            page, state, renders = await self._fresh_page(), PageState(url=url), 0
        keep = park = False
        try:
            if reused is None:
                await prepare_page(page, settings, state)
            # guard and probe do nothing for kinds the settings leave off.
            indexes = search_indexes(page.context)
            await indexes.guard(page, url, settings)
            t_nav = time.monotonic()
            try:
                response = await page.goto(
                    url, wait_until="domcontentloaded", timeout=settings.nav_timeout_s * 1000
                )
            except Exception as exc:
                if state.downloads or "Download is starting" in str(exc):
                    raise _NotAPage(attachment_kind(url) or "file", None) from exc
                if reused is not None and _interrupted(exc):
                    # A timer of the previous document sent the page elsewhere
                    # (its late redirect) while this URL was loading.
                    raise _ReusedPageMoved from exc
                raise
            content_type = ""
            if response is not None:
                content_type = response.headers.get("content-type", "").split(";")[0].strip()
            document_kind = attachment_kind("", media_type=content_type)
            if document_kind is not None and response is not None:
                raise _NotAPage(document_kind, response.status)
            t_ready = time.monotonic()
            ready = await wait_until_ready(page, settings, self.quiet_timers)
            if ready == "unresponsive":
                raise _Unresponsive
            clicked = 0
            if settings.load_more_clicks > 0:
                clicked = await expand_load_more(page, settings)
            t_extract = time.monotonic()
            bounds = {
                "max_elements": settings.max_elements,
                "max_chars": settings.max_content_chars,
            }
            for replaced in range(_MAX_REPLACEMENTS + 1):
                try:
                    extraction = await extract_page(page, **bounds)
                    break
                except Exception as exc:
                    if replaced == _MAX_REPLACEMENTS or not _context_gone(exc):
                        raise
                # A late client-side redirect replaced the document: extract the
                # new one once it is ready (which may itself go on to another).
                await wait_for_next_document(page, settings.nav_timeout_s)
                ready = await wait_until_ready(page, settings, self.quiet_timers)
            final_url = page.url
            await indexes.probe(page, url, settings)
            if not final_url.startswith(("http:", "https:")):
                # A navigation that failed (another host that does not resolve)
                # leaves Chromium's error page: name where the page went.
                final_url = await failed_navigation(page) or final_url
            markdown = html_to_markdown(extraction.html)
            timings = PageTimings(
                navigation_s=t_ready - t_nav,
                ready_s=t_extract - t_ready,
                extract_s=time.monotonic() - t_extract,
            )
            rendered = RenderedPage(
                url=url,
                final_url=final_url,
                status=response.status if response is not None else None,
                title=extraction.title,
                headings=extraction.headings,
                markdown=markdown,
                main_text=extraction.main_text,
                links=extraction.links,
                attachments=extraction.attachments,
                canonical=extraction.canonical,
                redirects=redirect_chain(response),
                error=None,
                elapsed_s=0.0,
                content_type=content_type.lower(),
                ready=ready,
                retry_after=response.headers.get("retry-after", "") if response else "",
                timings=timings,
            )
            keep = bool(
                settings.explore_clicks and extraction.clicks and (rendered.status or 200) < 400
            )
            # A page goes on to the next URL only as the page it was: not after
            # a click (a beforeunload prompt, a state that a script keeps), nor
            # from Chromium's error page or a download.
            park = not clicked and not state.downloads and page.url.startswith("http")
            renders += 1
            return rendered, extraction, (page, state) if keep else None, renders if park else 0
        finally:
            # A page kept for exploration is the caller's (its clicks decide).
            if park and not keep:
                await self._park(page, state, renders)
            elif not keep:
                await close_quietly(page)

    async def _with_click_links(
        self, page: RenderedPage, extraction: Extraction, live: tuple[Page, PageState]
    ) -> RenderedPage:
        context = await self.context()
        found = await explore_clicks(
            context,
            page.final_url,
            extraction.clicks,
            self._settings,
            self.click_memory,
            live=live,
        )
        known = {link.url for link in page.links}
        extra = tuple(link for link in found if link.url not in known)
        return replace(page, links=page.links + extra) if extra else page


def _failed(
    url: str,
    error: str,
    started: float,
    attachments: tuple[Attachment, ...] = (),
    *,
    status: int | None = None,
) -> RenderedPage:
    elapsed = time.monotonic() - started
    return RenderedPage(
        url=url,
        final_url=url,
        status=status,
        title="",
        headings=(),
        markdown="",
        main_text="",
        links=(),
        attachments=attachments,
        canonical=None,
        redirects=(),
        error=error,
        elapsed_s=elapsed,
        timings=PageTimings(total_s=elapsed),
    )


@asynccontextmanager
async def open_renderer(
    settings: RenderSettings | None = None,
) -> AsyncIterator[PlaywrightRenderer]:
    """Start Playwright, launch Chromium (``launch_browser``) and yield a renderer;
    everything is closed on exit. For scripts and benchmarks that own no browser."""
    settings = settings or RenderSettings()
    async with async_playwright() as playwright:
        browser = await launch_browser(playwright, settings)
        try:
            async with PlaywrightRenderer(browser, settings) as renderer:
                yield renderer
        finally:
            await browser.close()


# Buttons that reveal more items of the same list, in every language of
# data/languages.json. Matched on the whole, trimmed label (one more word
# allowed: "Load more news") so that "Load more" matches but "Load more than
# one file" not.
_LOAD_MORE = re.compile(
    "^\\s*(?:"
    + "|".join(re.escape(label).replace("\\ ", "\\s+") for label in sorted(phrases("load_more")))
    + ")(?:\\s+\\w+)?\\s*$",
    re.IGNORECASE,
)


_LOAD_MORE_PREFIXES = sorted({" ".join(label.lower().split()) for label in phrases("load_more")})

_MAY_LOAD_MORE = r"""(prefixes) => {
  const BUTTONS = 'button, [role="button"], input[type="button"], input[type="submit"], input[type="reset"], input[type="image"]';
  const label = (el) => {
    let text = el.getAttribute("aria-label") || "";
    const ids = el.getAttribute("aria-labelledby");
    if (ids) for (const id of ids.split(/\s+/)) {
      const other = document.getElementById(id);
      if (other) text += " " + other.textContent;
    }
    return [text, el.textContent, el.value, el.title, el.alt]
      .map((t) => (typeof t === "string" ? t : "").split(/\s+/).filter(Boolean).join(" ").toLowerCase());
  };
  const roots = [document];
  for (let i = 0; i < roots.length; i++) {
    for (const el of roots[i].querySelectorAll("*")) if (el.shadowRoot) roots.push(el.shadowRoot);
    for (const el of roots[i].querySelectorAll(BUTTONS))
      for (const text of label(el)) if (prefixes.some((p) => text.startsWith(p))) return true;
  }
  return false;
}"""
"""Whether some button-like element (open shadow roots included) has a label
that starts with a "Load more" phrase: a cheap superset of the role query."""


async def expand_load_more(page: Page, settings: RenderSettings) -> int:
    """Click visible "Load more" buttons (also inside open shadow roots) up to
    ``settings.load_more_clicks`` times, waiting for the page to settle after
    each; returns the number of clicks. Never raises."""
    clicks = 0
    for _ in range(settings.load_more_clicks):
        button = page.get_by_role("button", name=_LOAD_MORE).first
        try:
            # The role query computes the accessible name of every button of
            # the page (0.03-0.05 s a page on qu-edu-iq): only when a label
            # could match at all.
            if not await page.evaluate(_MAY_LOAD_MORE, _LOAD_MORE_PREFIXES):
                break
            if not await button.is_visible():
                break
            await button.click(timeout=settings.click_wait_ms * 4)
        except Exception:
            break
        clicks += 1
        await wait_until_ready(page, settings)
    return clicks


async def failed_navigation(page: Page) -> str:
    """Where ``page`` tried to go when it shows Chromium's error page (a
    client-side redirect to a host that does not resolve): the URL of the
    current history entry, which keeps the target of a failed navigation.
    "" when it cannot tell. Asked of the browser only then (the request
    events that would tell it as it happens cost every page)."""
    try:
        session = await page.context.new_cdp_session(page)
        try:
            history = await session.send("Page.getNavigationHistory")
        finally:
            await session.detach()
        url = str(history["entries"][history["currentIndex"]].get("url", ""))
    except Exception:  # not Chromium, or the page went away
        return ""
    return url if url.startswith(("http:", "https:")) else ""
