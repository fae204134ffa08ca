"""The library API: ``crawl`` (sync), ``acrawl`` (async) and ``AdaptiveCrawler``.

``crawl`` always runs the crawl in a worker thread with its own event loop,
so it works where a loop is already running (Jupyter, pytest-playwright's
sync fixtures) as well as in plain scripts.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import hashlib
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from playwright.async_api import Browser, BrowserContext, async_playwright

from pw_adaptive.adaptive import StopReason
from pw_adaptive.checkpoint import Checkpoint
from pw_adaptive.crawler import (
    CrawlRun,
    PageProcessor,
    ProgressSink,
    RecordSink,
    StartPageError,
    crawl_loop,
    new_run,
)
from pw_adaptive.query import Query, Synonyms
from pw_adaptive.records import AttachmentRecord, CrawlResult, PageRecord
from pw_adaptive.render import PlaywrightRenderer, RenderedPage, Renderer, RenderSettings
from pw_adaptive.render.browser import launch_browser
from pw_adaptive.render.fetch import Fetcher, PlaywrightFetcher
from pw_adaptive.scoring import LinkScorer
from pw_adaptive.settings import CrawlSettings
from pw_adaptive.urls import url_host


def crawl_key(start_url: str, query: Query, settings: CrawlSettings) -> str:
    """Identifies a crawl in a state file: start URL, query terms and settings."""
    blob = "\n".join([start_url, "\x1f".join(query.terms), settings.fingerprint()])
    return hashlib.blake2b(blob.encode(), digest_size=16).hexdigest()


class AdaptiveCrawler:
    """Runs adaptive crawls on one browser.

    ``browser`` may be a Playwright ``Browser`` (a context is created per
    crawl) or a ``BrowserContext`` (used as it is, never closed here); without
    one the crawler starts Playwright and launches a Chromium per crawl.
    ``renderer``/``fetcher`` replace the browser entirely (tests, other
    engines); ``scorer`` replaces the link scoring (benchmark baselines).
    """

    def __init__(
        self,
        settings: CrawlSettings | None = None,
        *,
        render_settings: RenderSettings | None = None,
        browser: Browser | BrowserContext | None = None,
        renderer: Renderer | None = None,
        fetcher: Fetcher | None = None,
        synonyms: Synonyms | None = None,
        scorer: LinkScorer | None = None,
    ) -> None:
        self.settings = settings or CrawlSettings()
        self._scorer = scorer
        self.render_settings = render_settings or RenderSettings()
        self._browser = browser
        self._renderer = renderer
        self._fetcher = fetcher
        self._synonyms = synonyms

    @asynccontextmanager
    async def _session(self) -> AsyncIterator[tuple[Renderer, Fetcher | None]]:
        if self._renderer is not None:
            yield self._renderer, self._fetcher
            return
        if self._browser is not None:
            # A BrowserContext is used as it is; from a Browser the renderer
            # makes its own context (downloads off, service workers blocked so
            # that request interception sees every request) and closes it.
            async with PlaywrightRenderer(self._browser, self.render_settings) as renderer:
                context = await renderer.context()
                yield renderer, self._fetcher or PlaywrightFetcher(context)
            return
        async with async_playwright() as playwright:
            browser = await launch_browser(playwright, self.render_settings)
            try:
                async with PlaywrightRenderer(browser, self.render_settings) as renderer:
                    context = await renderer.context()
                    yield renderer, self._fetcher or PlaywrightFetcher(context)
            finally:
                await browser.close()

    async def run(
        self,
        start_url: str,
        query: str | Query,
        *,
        on_record: RecordSink | None = None,
        on_progress: ProgressSink | None = None,
        state_path: str | os.PathLike[str] | None = None,
        cancel: asyncio.Event | None = None,
    ) -> CrawlResult:
        """Crawl from ``start_url`` for ``query``; ``ValueError`` on bad input.

        Records are passed to ``on_record`` in fetch order, then the summary.
        With ``state_path`` the crawl state is saved to SQLite after every
        page, and a crawl found there (same start URL, query and settings) is
        resumed: pages fetched before are not fetched again, and their records
        are not sent again.
        """
        q = query if isinstance(query, Query) else Query(query, self._synonyms)
        settings = self.settings
        run = new_run(start_url, q, settings)
        sink: RecordSink = on_record or (lambda _record: None)
        checkpoint = None
        if state_path is not None:
            checkpoint = Checkpoint(state_path, crawl_key=crawl_key(run.start_url, q, settings))
            _resume(run, checkpoint)
        async with self._session() as (renderer, fetcher):
            processor = PageProcessor(run, fetcher, sink, self._scorer)
            if not run.pages:
                await _check_start(run, processor)
            if settings.probe_soft_404 and not run.pages:
                await _probe_soft_404(run, renderer)
            counter = {"n": 0}

            def after_page() -> None:
                counter["n"] += 1
                if checkpoint is not None and counter["n"] % settings.checkpoint_every == 0:
                    _save(run, checkpoint)

            first = not run.pages
            await crawl_loop(
                run,
                _first_page_guard(renderer, run) if first else renderer.render,
                processor,
                progress=on_progress,
                cancel=cancel,
                after_page=after_page,
            )
        result = run.result()
        if checkpoint is not None:
            _save(run, checkpoint, done=True)
            checkpoint.close()
        sink(result.summary())
        return result


def _first_page_guard(renderer: Renderer, run: CrawlRun) -> Any:
    """Render pages; the very first one must load or the crawl cannot start."""

    async def render(url: str) -> RenderedPage:
        page = await renderer.render(url)
        if url == run.start_url and not run.pages:
            failed = page.error or (
                f"HTTP {page.status}" if page.status is not None and page.status >= 400 else None
            )
            if failed:
                raise StartPageError(f"cannot load the start URL {url}: {failed}")
        return page

    return render


async def _check_start(run: CrawlRun, processor: PageProcessor) -> None:
    policy = await processor.robots_for(run.start_url)
    error = run.unreachable.get(url_host(run.start_url))
    if error is not None:
        raise StartPageError(f"cannot load the start URL {run.start_url}: {error}")
    if policy is not None and not policy.allows(run.start_url):
        raise StartPageError(
            f"robots.txt disallows the start URL {run.start_url} (use ignore-robots to override)"
        )


async def _probe_soft_404(run: CrawlRun, renderer: Renderer) -> None:
    """Learn what a route that cannot exist looks like on the start origin."""
    probe = run.soft404.probe_url(run.start_url)
    page = await renderer.render(probe)
    if page.error is None and page.status is not None and page.status < 400 and page.main_text:
        run.soft404.learn(url_host(run.start_url), page.main_text)


def _save(run: CrawlRun, checkpoint: Checkpoint, *, done: bool = False) -> None:
    """Save the crawl: the frontier, the run state and the records not saved yet.

    One transaction, so a crash leaves either the old state or the new one.
    Records are stored one row each and only once (saving every page's
    markdown again after every page would cost O(pages^2)).
    """
    state: dict[str, Any] = {
        "run": {
            "adaptive": run.adaptive.state(),
            "pages": len(run.pages),
            "attachments": len(run.attachments),
            "final_urls": sorted(run.final_urls),
            "skipped": dict(run.skipped),
            "failures": dict(run.failures),
            "elapsed": run.elapsed(),
            "stop_reason": run.stop_reason if done else None,
        }
    }
    for i in range(run.saved_pages, len(run.pages)):
        state[f"page:{i}"] = run.pages[i].to_json()
    for i in range(run.saved_attachments, len(run.attachments)):
        state[f"attachment:{i}"] = run.attachments[i].to_json()
    checkpoint.save(run.frontier, state=state)
    run.saved_pages, run.saved_attachments = len(run.pages), len(run.attachments)


def _resume(run: CrawlRun, checkpoint: Checkpoint) -> None:
    state = checkpoint.get_state("run")
    if state is None:
        return
    checkpoint.load_frontier(run.frontier)
    run.adaptive.restore(state["adaptive"])
    run.pages = [_page_from_json(checkpoint.get_state(f"page:{i}")) for i in range(state["pages"])]
    run.attachments = [
        _attachment_from_json(checkpoint.get_state(f"attachment:{i}"))
        for i in range(state["attachments"])
    ]
    run.saved_pages, run.saved_attachments = len(run.pages), len(run.attachments)
    run.attachments_seen = {a.url for a in run.attachments}
    run.final_urls = set(state["final_urls"])
    run.skipped.update(state["skipped"])
    run.failures.update(state["failures"])
    run.elapsed_before = float(state["elapsed"])
    # A crawl that ended on its own stays ended; one that was interrupted
    # (cancelled, out of time) goes on where it stopped.
    if state.get("stop_reason") not in (None, StopReason.CANCELLED, StopReason.TIME_LIMIT):
        run.stop_reason = state["stop_reason"]


def _page_from_json(data: dict[str, Any]) -> PageRecord:
    fields = {k: v for k, v in data.items() if k != "type"}
    fields["evidence"] = tuple(fields["evidence"])
    fields["headings"] = tuple(fields["headings"])
    return PageRecord(**fields)


def _attachment_from_json(data: dict[str, Any]) -> AttachmentRecord:
    return AttachmentRecord(**{k: v for k, v in data.items() if k != "type"})


async def acrawl(
    start_url: str,
    query: str | Query,
    *,
    browser: Browser | BrowserContext | None = None,
    render_settings: RenderSettings | None = None,
    synonyms: Synonyms | None = None,
    on_record: RecordSink | None = None,
    on_progress: ProgressSink | None = None,
    state_path: str | os.PathLike[str] | None = None,
    **options: Any,
) -> CrawlResult:
    """Crawl ``start_url`` for ``query`` (async). Options are :class:`CrawlSettings` fields."""
    settings = CrawlSettings.from_options(**options)
    crawler = AdaptiveCrawler(
        settings, render_settings=render_settings, browser=browser, synonyms=synonyms
    )
    return await crawler.run(
        start_url, query, on_record=on_record, on_progress=on_progress, state_path=state_path
    )


def crawl(start_url: str, query: str | Query, **options: Any) -> CrawlResult:
    """Crawl ``start_url`` for ``query`` and return the result (sync).

    Runs :func:`acrawl` in a worker thread with its own event loop, so it is
    safe to call while another loop runs on this thread (Jupyter,
    pytest-playwright). Takes the same keyword options as :func:`acrawl`,
    except a ``browser``: Playwright objects belong to the loop that made them.
    """
    if "browser" in options:
        raise ValueError(
            "crawl() cannot use a Playwright browser from another thread; use acrawl()"
        )
    with concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="pw-adaptive") as pool:
        return pool.submit(asyncio.run, acrawl(start_url, query, **options)).result()
