"""A render cache so that every crawler of the quality benchmark sees identical pages.

:class:`RenderCache` wraps one real :class:`~pw_adaptive.pages.Renderer` and
one :class:`~pw_adaptive.pages.Fetcher` and implements both protocols.
The first request for a URL renders it (a *live* render); every later request
for the same URL, from any crawler, ablation or the oracle, gets the very same
``RenderedPage`` object back (a *cached* replay). So:

* all crawlers see identical renders (same links, same markdown, same final
  URL and redirect chain), whatever Chromium's timings were;
* the cache is keyed by the exact URL string the caller asked for. The
  crawler asks for canonical frontier URLs (and the soft-404 probe URL, which
  is deterministic per start URL), so the key is the requested canonical URL;
  the stored page keeps its own ``url`` (that same string), ``final_url`` and
  ``redirects``, which the crawler then handles as it would a live render;
* two callers asking for the same URL at the same time share one render: the
  render runs as its own task, and callers await it through
  :func:`asyncio.shield`, so a crawl that stops and cancels its in-flight
  renders never cancels a render another crawl waits for.

Fetches (robots.txt, attachments) are cached the same way, by URL and size cap.
At most ``max_live`` renders run at once: the crawls of the benchmark run side
by side on one browser and two cores.
"""

from __future__ import annotations

import asyncio
import dataclasses
from dataclasses import dataclass

from pw_adaptive.pages import Fetcher, FetchResult, RenderedPage, Renderer

__all__ = ["CacheStats", "RenderCache"]


@dataclass
class CacheStats:
    """How many requests were served live and how many from the cache."""

    live_renders: int = 0
    cached_renders: int = 0
    live_fetches: int = 0
    cached_fetches: int = 0


def _fill_new_fields(record: object) -> None:
    """Give a record unpickled from an older run the defaults of fields added since."""
    for f in dataclasses.fields(record):  # type: ignore[arg-type]
        if f.name not in record.__dict__:
            if f.default is not dataclasses.MISSING:
                value = f.default
            elif f.default_factory is not dataclasses.MISSING:
                value = f.default_factory()
            else:
                continue
            object.__setattr__(record, f.name, value)


class RenderCache:
    """A caching :class:`Renderer` and :class:`Fetcher` over real ones (see module doc)."""

    def __init__(self, renderer: Renderer, fetcher: Fetcher | None, *, max_live: int = 4) -> None:
        if max_live < 1:
            raise ValueError(f"max_live must be >= 1, got {max_live}")
        self._renderer = renderer
        self._fetcher = fetcher
        self._pages: dict[str, asyncio.Task[RenderedPage]] = {}
        self._fetches: dict[tuple[str, int], asyncio.Task[FetchResult]] = {}
        self._live = asyncio.Semaphore(max_live)
        self.stats = CacheStats()

    async def _render_live(self, url: str) -> RenderedPage:
        async with self._live:
            page = await self._renderer.render(url)
        if page.error is not None and not page.error.startswith(("download", "redirect_loop")):
            # A timeout or crash says more about the machine's load than about
            # the page: the next crawler that asks renders it again.
            self._pages.pop(url, None)
        return page

    async def render(self, url: str) -> RenderedPage:
        """The page for ``url``: rendered on the first request, replayed after."""
        task = self._pages.get(url)
        if task is None:
            task = asyncio.ensure_future(self._render_live(url))
            self._pages[url] = task
            self.stats.live_renders += 1
        else:
            self.stats.cached_renders += 1
        return await asyncio.shield(task)

    def seed(
        self, pages: dict[str, RenderedPage], fetches: dict[tuple[str, int], FetchResult]
    ) -> None:
        """Replay renders and fetches saved by an earlier run (``quality.py
        --render-cache``) as if they had been made live. Call it inside the loop."""
        loop = asyncio.get_running_loop()
        for url, page in pages.items():
            _fill_new_fields(page)
            done_page: asyncio.Future[RenderedPage] = loop.create_future()
            done_page.set_result(page)
            self._pages.setdefault(url, done_page)  # type: ignore[arg-type]
        for key, result in fetches.items():
            done_fetch: asyncio.Future[FetchResult] = loop.create_future()
            done_fetch.set_result(result)
            self._fetches.setdefault(key, done_fetch)  # type: ignore[arg-type]

    def fetched(self) -> dict[tuple[str, int], FetchResult]:
        """Every finished fetch, by (URL, size cap)."""
        return {
            key: task.result()
            for key, task in self._fetches.items()
            if task.done() and not task.cancelled() and task.exception() is None
        }

    def is_cached(self, url: str) -> bool:
        """True when ``url`` was rendered already or is rendering now."""
        return url in self._pages

    def rendered(self) -> dict[str, RenderedPage]:
        """Every finished render, by the URL that was asked for."""
        return {
            url: task.result()
            for url, task in self._pages.items()
            if task.done() and not task.cancelled() and task.exception() is None
        }

    async def _fetch_live(self, url: str, max_bytes: int) -> FetchResult:
        assert self._fetcher is not None
        return await self._fetcher.fetch(url, max_bytes=max_bytes)

    async def fetch(self, url: str, *, max_bytes: int) -> FetchResult:
        """``url`` fetched once per size cap, then replayed."""
        if self._fetcher is None:
            return FetchResult(url, None, error="no_fetcher")
        key = (url, max_bytes)
        task = self._fetches.get(key)
        if task is None:
            task = asyncio.ensure_future(self._fetch_live(url, max_bytes))
            self._fetches[key] = task
            self.stats.live_fetches += 1
        else:
            self.stats.cached_fetches += 1
        return await asyncio.shield(task)

    async def drain(self) -> None:
        """Wait for renders and fetches that nobody awaits any more (crawls that
        stopped while they ran), so the browser can close cleanly."""
        pending = [t for t in (*self._pages.values(), *self._fetches.values()) if not t.done()]
        if pending:
            await asyncio.gather(*pending, return_exceptions=True)
