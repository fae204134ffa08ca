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
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from pw_adaptive.core.query import Query, Synonyms
from pw_adaptive.core.scoring import LinkScorer
from pw_adaptive.core.stopper import StopReason
from pw_adaptive.core.urls import url_host
from pw_adaptive.crawling.checkpoint import Checkpoint
from pw_adaptive.crawling.loop import (
    PageProcessor,
    ProgressSink,
    RecordSink,
    StartPageError,
    crawl_loop,
)
from pw_adaptive.crawling.retry import RetryPolicy, render_with_retries
from pw_adaptive.crawling.run import CrawlRun, new_run
from pw_adaptive.netguard import NetGuard, guard_for
from pw_adaptive.pages import Fetcher, RenderedPage, Renderer
from pw_adaptive.records import AttachmentRecord, CrawlResult, PageRecord, SkipRecord
from pw_adaptive.render.records import RenderSettings
from pw_adaptive.settings import CrawlSettings
from pw_adaptive.text.lang import preload as preload_language_model

if TYPE_CHECKING:
    from playwright.async_api import Browser, BrowserContext, Playwright

    from pw_adaptive.render.click_memory import ClickMemory
    from pw_adaptive.render.page import PlaywrightRenderer


def crawl_key(start_url: str, query: Query, settings: CrawlSettings) -> str:
    """Identifies a crawl in a state file: start URL, query terms and settings."""
    blob = "\n".join([start_url, "\x1f".join(query.terms), settings.fingerprint()])
    return hashlib.blake2b(blob.encode(), digest_size=16).hexdigest()


class _EarlyLaunch:
    """Playwright and a Chromium, started as a task when a crawl begins, so that
    their start (about a second in a fresh process: the driver, then the
    browser) overlaps the query's parse, the private-address check of the
    start host's address and the state file, instead of following them. The
    crawl's session :meth:`take` s them; when the crawl ends before (a bad
    query, a state file of another crawl), :meth:`discard` closes them."""

    def __init__(self, settings: RenderSettings) -> None:
        self._task = asyncio.ensure_future(_start_browser(settings))
        self._taken = False

    async def take(self) -> tuple[Playwright, Browser]:
        """The started Playwright and browser (the launch's error, if it failed)."""
        self._taken = True
        return await self._task

    async def discard(self) -> None:
        """Close what was started unless the session took it. The launch is let
        finish, not cancelled: a driver cancelled while it starts could be
        left running; its error, if any, is nobody's concern any more."""
        if self._taken:
            return
        self._taken = True
        try:
            playwright, browser = await asyncio.shield(self._task)
        except Exception:
            return
        await _close_browser(playwright, browser)


async def _start_browser(settings: RenderSettings) -> tuple[Playwright, Browser]:
    """Start Playwright's driver and launch Chromium with ``settings``."""
    from playwright.async_api import async_playwright

    from pw_adaptive.render.browser import launch_browser

    playwright = await async_playwright().start()
    try:
        return playwright, await launch_browser(playwright, settings)
    except BaseException:
        await playwright.stop()
        raise


async def _close_browser(playwright: Playwright, *browsers: Browser) -> None:
    try:
        for browser in browsers:
            await browser.close()
    finally:
        await playwright.stop()


class AdaptiveCrawler:
    """Runs adaptive crawls on one browser.

    ``browser`` may be a Playwright ``Browser`` (a context is created per
    crawl) or a ``BrowserContext`` (used as it is, never closed here); without
    one the crawler starts Playwright and launches a Chromium per crawl.
    ``renderer``/``fetcher`` replace the browser entirely (tests, other
    engines); ``scorer`` replaces the link scoring (benchmark baselines).
    When the start URL's host is public, the browser and fetcher made here
    block requests to private addresses (``pw_adaptive.netguard``; see
    ``CrawlSettings.allow_private_addresses``); a given renderer or fetcher
    is used as it is.
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

    def _click_memory(self) -> ClickMemory | None:
        """The click memory of a crawl this crawler renders itself (None when
        it was given a renderer)."""
        if self._renderer is not None:
            return None
        from pw_adaptive.render.click_memory import ClickMemory

        return ClickMemory(self.render_settings.explore_budget_s)

    def _launch_early(self) -> _EarlyLaunch | None:
        """Start the browser this crawl will launch (None when it was given one,
        or a renderer)."""
        if self._renderer is not None or self._browser is not None:
            return None
        return _EarlyLaunch(self.render_settings)

    @asynccontextmanager
    async def _session(
        self,
        guard: NetGuard | None = None,
        early: _EarlyLaunch | None = None,
        memory: ClickMemory | None = None,
    ) -> AsyncIterator[tuple[Renderer, Fetcher | None]]:
        """The renderer and fetcher of one crawl. ``memory``: the crawl's click
        memory (:meth:`_click_memory`), shared by its recycled renderers."""
        if self._renderer is not None:
            yield self._renderer, self._fetcher
            return
        # Playwright is imported here, not at the top: a crawl given its own
        # renderer (tests, other engines) runs without it installed.
        from playwright.async_api import BrowserContext

        from pw_adaptive.render.browser import launch_browser
        from pw_adaptive.render.fetch import PlaywrightFetcher
        from pw_adaptive.render.page import PlaywrightRenderer
        from pw_adaptive.render.ready import QuietTimers

        settings = self.render_settings
        # One memory of quiet timers for the crawl (and the crawl's memory of
        # click outcomes), shared by recycled renderers.
        timers = QuietTimers()
        if isinstance(self._browser, BrowserContext):
            # A BrowserContext is used as it is (never recycled, never closed).
            async with PlaywrightRenderer(
                self._browser, settings, guard=guard, click_memory=memory, quiet_timers=timers
            ) as renderer:
                context = await renderer.context()
                yield renderer, self._fetcher or PlaywrightFetcher(context, guard=guard)
            return
        if self._browser is not None:
            browser_given = self._browser
            async with self._recycling(
                lambda: PlaywrightRenderer(
                    browser_given,
                    settings,
                    guard=guard,
                    click_memory=memory,
                    quiet_timers=timers,
                ),
                guard,
            ) as session:
                yield session
            return
        # run() starts the launch early; a session opened on its own starts it here.
        playwright, first = await (early or _EarlyLaunch(settings)).take()
        launched = [first]
        try:
            relaunching = asyncio.Lock()

            async def relaunch() -> Browser:
                # The browser this crawl launched went away: the first renderer to
                # notice launches another one, the others (the fetcher's, other
                # recycled contexts) get that one; later contexts are made in it.
                async with relaunching:
                    if not launched[-1].is_connected():
                        launched.append(await launch_browser(playwright, settings))
                    return launched[-1]

            async with self._recycling(
                lambda: PlaywrightRenderer(
                    launched[-1],
                    settings,
                    guard=guard,
                    relaunch=relaunch,
                    click_memory=memory,
                    quiet_timers=timers,
                ),
                guard,
            ) as session:
                yield session
        finally:
            await _close_browser(playwright, *launched)

    @asynccontextmanager
    async def _recycling(
        self, make: Callable[[], PlaywrightRenderer], guard: NetGuard | None
    ) -> AsyncIterator[tuple[Renderer, Fetcher | None]]:
        """Renderers from ``make``, each making its own context from a Browser
        (downloads off, service workers blocked so that request interception
        sees every request), a new one every ``recycle_context_pages`` pages
        (never for 0), all closed on exit; and the fetcher, which looks the
        context up on every fetch (a relaunch replaces it)."""
        from pw_adaptive.render.fetch import PlaywrightFetcher
        from pw_adaptive.render.recycle import RecyclingRenderer

        recycle_every = self.render_settings.recycle_context_pages
        async with RecyclingRenderer(make, recycle_every) as recycler:
            await recycler.context()
            yield recycler, self._fetcher or PlaywrightFetcher(recycler.context, guard=guard)

    async def run(
        self,
        start_url: str,
        query: str | Query,
        *,
        on_record: RecordSink | None = None,
        on_progress: ProgressSink | None = None,
        state_path: str | os.PathLike[str] | None = None,
        cancel: asyncio.Event | None = None,
        resend_from: int | None = None,
    ) -> CrawlResult:
        """Crawl from ``start_url`` for ``query``; ``ValueError`` on bad input.

        Records are passed to ``on_record`` in fetch order, then the summary.
        Setting ``cancel`` stops the crawl (stop reason ``cancelled``) within
        about half a second; pages still rendering are dropped, not recorded.

        With ``state_path`` the crawl state is saved to SQLite every
        ``checkpoint_every`` pages, and a crawl found there (same start URL,
        query and settings) is resumed: pages fetched before are not fetched
        again, and their records are not sent again, except those from the
        ``resend_from``-th on (count them in the output you append to: the
        lines of a JSON Lines file, say, without a summary). A record is sent
        only once it is saved, so after a crash or SIGKILL the state file
        holds every record that was sent, and the output can be completed
        from it; ``ValueError`` when ``resend_from`` exceeds the records saved.
        Pages that were rendering when the crawl stopped are rendered again,
        first and in the order they were started, so a resumed crawl makes
        the decisions an uninterrupted one makes. Hosts with a politeness
        delay wait that delay before their first page after a resume.
        """
        # The language model's load and the browser's launch start first and
        # overlap each other and the rest of the set-up: the query's parse (in
        # a thread: a query in a Latin script waits there for the model), the
        # start host's address check and the state file.
        preload_language_model()
        early = self._launch_early()
        try:
            return await self._run(
                early,
                start_url,
                query,
                on_record=on_record,
                on_progress=on_progress,
                state_path=state_path,
                cancel=cancel,
                resend_from=resend_from,
            )
        finally:
            if early is not None:
                await early.discard()

    async def _run(
        self,
        early: _EarlyLaunch | None,
        start_url: str,
        query: str | Query,
        *,
        on_record: RecordSink | None,
        on_progress: ProgressSink | None,
        state_path: str | os.PathLike[str] | None,
        cancel: asyncio.Event | None,
        resend_from: int | None,
    ) -> CrawlResult:
        if isinstance(query, Query):
            q = query
        else:  # in a thread: the browser's launch goes on meanwhile
            q = await asyncio.to_thread(Query, query, self._synonyms)
        settings = self.settings
        run = new_run(start_url, q, settings)
        sink: RecordSink = on_record or (lambda _record: None)
        checkpoint = None
        journal = _Journal(sink)
        if state_path is not None:
            checkpoint = Checkpoint(state_path, crawl_key=crawl_key(run.start_url, q, settings))
        # The state file is closed however the crawl ends (a start page that
        # fails, a browser that went away, an interrupt), so that the caller
        # may remove or reuse it at once.
        try:
            if checkpoint is not None:
                saved = _resume(run, checkpoint)
                journal.saved = len(saved)
                journal.saved_dedup = run.dedup.recorded
                for record in _to_resend(saved, resend_from, checkpoint):
                    sink(record)
            emit: RecordSink = journal.pending.append if checkpoint is not None else sink
            # Requests to private addresses are counted as skipped "private_address".
            guard = await guard_for(
                run.start_url,
                allow_private=settings.allow_private_addresses,
                public_hosts=settings.treat_as_public,
                on_block=lambda _url, _kind: run.skipped.update(("private_address",)),
            )
            memory = self._click_memory()
            async with self._session(guard, early, memory) as (renderer, fetcher):
                processor = PageProcessor(run, fetcher, emit, self._scorer)
                if not run.pages:
                    await _check_start(run, processor)
                if run.stop_reason is None and not run.sitemap.used:
                    processor.start_sitemap(run.start_url)
                probe: asyncio.Future[None] | None = None
                if settings.probe_soft_404 and not run.pages:
                    overlap = await _probe_may_overlap(run, processor)
                    probe = asyncio.ensure_future(_probe_soft_404(run, renderer))
                    if not overlap:
                        await probe
                counter = {"n": 0}

                def after_page() -> None:
                    counter["n"] += 1
                    if checkpoint is not None and counter["n"] % settings.checkpoint_every == 0:
                        _save(run, checkpoint, journal)

                first = not run.pages
                render = _with_retries(renderer.render, run)
                if probe is not None and not probe.done():
                    render = _after_probe(render, probe)
                try:
                    await crawl_loop(
                        run,
                        _first_page_guard(render, run) if first else render,
                        processor,
                        progress=on_progress,
                        cancel=cancel,
                        after_page=after_page,
                    )
                finally:
                    if probe is not None and not probe.done():
                        probe.cancel()
                        await asyncio.wait({probe})
                    await run.sitemap.close()
            result = run.result()
            if memory is not None:
                result = replace(result, exploration=memory.stats())
            if checkpoint is not None:
                _save(run, checkpoint, journal, done=True)
        finally:
            if checkpoint is not None:
                checkpoint.close()
        sink(result.summary())
        return result


STATE_LAYOUT = 2
"""Version of the crawl state this module keeps in a state file's key/value
table (``run``, ``record:<i>``, ``dedup:<i>``, ``soft404``, ``variants``,
``stubs``, ``touched``; a state file without ``variants``, ``stubs`` or
``touched`` resumes with nothing learnt)."""


class _Journal:
    """Records emitted since the last save, and how much of the crawl is saved.

    With a state file, records are held here until the save that covers
    their page, then sent: what the caller received is always a prefix of
    what the file holds, so nothing is lost or duplicated across a crash.
    """

    def __init__(self, sink: RecordSink) -> None:
        self.sink = sink
        self.pending: list[dict[str, Any]] = []
        self.saved = 0  # records in the state file
        self.saved_dedup = 0  # content fingerprints in the state file


Render = Callable[[str], Awaitable[RenderedPage]]


def _with_retries(render: Render, run: CrawlRun) -> Render:
    """``render`` with the crawl's retry policy (``pw_adaptive.crawling.retry``); every
    failed attempt that is retried is counted in ``run.failures`` by kind (the
    last attempt is counted when its page is processed)."""
    settings = run.settings
    policy = RetryPolicy(
        max_attempts=settings.retry_attempts,
        backoff_s=settings.retry_backoff_s,
        backoff_max_s=settings.retry_backoff_max_s,
        retry_after_cap_s=settings.retry_after_cap_s,
        statuses=frozenset(settings.retry_statuses),
    )

    def count(kind: str) -> None:
        run.failures[kind] += 1

    async def attempt(url: str) -> RenderedPage:
        return await render_with_retries(render, url, policy, on_retry=count)

    return attempt


def _first_page_guard(render_page: Render, run: CrawlRun) -> Any:
    """Render pages; the very first one must load or the crawl cannot start."""

    async def render(url: str) -> RenderedPage:
        page = await render_page(url)
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


async def _probe_may_overlap(run: CrawlRun, processor: PageProcessor) -> bool:
    """Whether the soft-404 probe may render beside the crawl's first pages:
    not at concurrency 1, nor when the start host asks for a delay between
    fetches (``host_delay_s``, robots.txt's ``Crawl-delay``); the probe then
    renders first, alone."""
    if run.settings.concurrency < 2 or run.settings.host_delay_s > 0:
        return False
    policy = await processor.robots_for(run.start_url)
    return policy is None or not policy.crawl_delay()


def _after_probe(render_page: Render, probe: asyncio.Future[None]) -> Render:
    """Render pages while the soft-404 probe renders, but hand none over before
    the probe has taught its lesson: every page is then judged as it would be
    after a probe rendered first (the start page's render no longer waits for
    the probe's, about one render per crawl)."""

    async def render(url: str) -> RenderedPage:
        page = await render_page(url)
        await asyncio.shield(probe)  # a cancelled render must not cancel the probe
        return page

    return render


async def _probe_soft_404(run: CrawlRun, renderer: Renderer) -> None:
    """Learn what a route that cannot exist looks like on the start origin."""
    probe = run.soft404.probe_url(run.start_url)
    page = await renderer.render(probe)
    if page.error is None and page.status is not None and page.status < 400 and page.main_text:
        run.soft404.learn(url_host(run.start_url), page.main_text)


def _save(run: CrawlRun, checkpoint: Checkpoint, journal: _Journal, *, done: bool = False) -> None:
    """Save the crawl, then send the records it covers.

    Saved in one transaction: the frontier, the run state (stopper, term
    weights, soft-404 probes, counters) and what was added since the last
    save: records (one row each, ``record:<i>`` in emission order: pages,
    attachments, skips) and content fingerprints (``dedup:<i>``). A crash
    leaves either the old state or the new one, and a save costs O(new data)
    (saving every page's markdown again would cost O(pages^2)).
    """
    records = list(journal.pending)
    dedup_rows = run.dedup.state(journal.saved_dedup)
    state: dict[str, Any] = {
        "run": {
            "layout": STATE_LAYOUT,
            "adaptive": run.adaptive.state(),
            "term_weights": run.term_weights.state() if run.term_weights is not None else None,
            "records": journal.saved + len(records),
            "dedup": journal.saved_dedup + len(dedup_rows),
            "final_urls": sorted(run.final_urls),
            "context_leads": sorted(run.context_leads),
            "failures": dict(run.failures),
            "elapsed": run.elapsed(),
            "stop_reason": run.stop_reason if done else None,
        },
        "soft404": run.soft404.state(),
        "variants": run.variants.state(),
        "stubs": run.stubs.state(),
        "touched": run.touched.state(),
        "titles": run.titles.state(),
        "sitemap": run.sitemap.state(),
        "listings": run.listings.state(),
        "sections": run.sections.state() if run.sections is not None else None,
    }
    for i, record in enumerate(records, start=journal.saved):
        state[f"record:{i}"] = record
    for i, row in enumerate(dedup_rows, start=journal.saved_dedup):
        state[f"dedup:{i}"] = row
    checkpoint.save(run.frontier, state=state)
    journal.saved += len(records)
    journal.saved_dedup += len(dedup_rows)
    journal.pending.clear()  # in place: the processor appends to this list
    for record in records:
        journal.sink(record)


def _resume(run: CrawlRun, checkpoint: Checkpoint) -> list[dict[str, Any]]:
    """Load a saved crawl into ``run``; returns the records saved, in order.

    Everything that decides which page comes next is restored: the frontier
    (in-flight entries relaunched first), the stopper, the term weights, the
    content fingerprints and soft-404 probes, the URLs seen. The trap
    detector's memory of faceted-search variants is rebuilt by checking again
    every URL it let through (queued or fetched); robots.txt is fetched again.
    """
    state = checkpoint.get_state("run")
    if state is None:
        return []
    if state.get("layout") != STATE_LAYOUT:
        raise ValueError(
            f"state file {checkpoint.path} was written by another version of pw_adaptive"
            " (its crawl state layout differs); delete it to start over"
        )
    checkpoint.load_frontier(run.frontier)
    frontier = run.frontier
    snapshot = frontier.snapshot()
    for url in (*snapshot.done, *(entry.url for entry in snapshot.queued)):
        frontier.traps.check(url)
    frontier.hold_hosts()
    run.adaptive.restore(state["adaptive"])
    if run.term_weights is not None and state["term_weights"] is not None:
        run.term_weights.restore(state["term_weights"])
    run.dedup.restore(checkpoint.get_state(f"dedup:{i}") for i in range(state["dedup"]))
    run.soft404.restore(checkpoint.get_state("soft404"))
    run.variants.restore(checkpoint.get_state("variants"))
    run.stubs.restore(checkpoint.get_state("stubs"))
    run.touched.restore(checkpoint.get_state("touched"))
    run.titles.restore(checkpoint.get_state("titles"))
    run.sitemap.restore(checkpoint.get_state("sitemap"))
    run.listings.restore(checkpoint.get_state("listings"))
    if run.sections is not None:
        run.sections.restore(checkpoint.get_state("sections"))
    saved = [checkpoint.get_state(f"record:{i}") for i in range(int(state["records"]))]
    for record in saved:
        if record["type"] == "page":
            run.pages.append(PageRecord.from_json(record))
        elif record["type"] == "attachment":
            run.attachments.append(AttachmentRecord.from_json(record))
        elif record["type"] == "skip":
            run.skips.append(SkipRecord.from_json(record))
    run.attachments_seen = {a.url for a in run.attachments}
    run.best_relevance = max((page.relevance for page in run.pages), default=0.0)
    for page in run.pages:  # the broken relative links the crawl had learnt
        if page.error in ("http_404", "http_410"):
            frontier.traps.note_missing(page.url)
    run.final_urls = set(state["final_urls"])
    run.context_leads = set(state.get("context_leads", ()))  # absent from older states
    # The frontier's state holds the skip counter; states written before it
    # was the crawl's only one kept the crawler's own skips here.
    run.skipped.update(state.get("skipped", {}))
    run.failures.update(state["failures"])
    run.elapsed_before = float(state["elapsed"])
    # A crawl that ended on its own stays ended; one that was interrupted
    # (cancelled, out of time) goes on where it stopped.
    if state.get("stop_reason") not in (None, StopReason.CANCELLED, StopReason.TIME_LIMIT):
        run.stop_reason = state["stop_reason"]
    return saved


def _to_resend(
    saved: list[dict[str, Any]], resend_from: int | None, checkpoint: Checkpoint
) -> list[dict[str, Any]]:
    """The saved records from the ``resend_from``-th on (none for None)."""
    if resend_from is None:
        return []
    if not 0 <= resend_from <= len(saved):
        raise ValueError(
            f"the output holds {resend_from} records but state file {checkpoint.path}"
            f" saved {len(saved)}: they belong to different crawls"
        )
    return saved[resend_from:]


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
