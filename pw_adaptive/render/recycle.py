"""``RecyclingRenderer``: a fresh browser context every N pages, for long crawls.

A context keeps state that closing its pages does not free: the in-memory
HTTP cache of an off-the-record context, cookies and storage of every origin
visited, the network service's bookkeeping. Over thousands of pages that
state grows (see the "Long runs" section of ``docs/benchmarks.md`` for the
figures). Recycling starts a new ``PlaywrightRenderer`` (and so a new
context) after every ``RenderSettings.recycle_context_pages`` renders; the
old one is closed as soon as its last page in flight is done, so renders in
progress are never cut off.

A page is rendered the same way in a new context as in an old one (every
URL is a new document either way), so recycling does not change what a crawl
finds; what it drops is state a site may set: cookies (a consent banner
accepted once comes back) and storage.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from typing import Protocol

from playwright.async_api import BrowserContext

from pw_adaptive.pages import RenderedPage
from pw_adaptive.render.records import ClosedOnExit

__all__ = ["ContextRenderer", "RecyclingRenderer"]


class ContextRenderer(Protocol):
    """What a recycled renderer must offer (``PlaywrightRenderer`` does)."""

    async def render(self, url: str) -> RenderedPage: ...

    async def context(self) -> BrowserContext: ...

    async def close(self) -> None: ...


class _Generation:
    __slots__ = ("active", "renderer", "started")

    def __init__(self, renderer: ContextRenderer) -> None:
        self.renderer = renderer
        self.started = 0  # renders begun with this renderer
        self.active = 0  # renders in progress


class RecyclingRenderer(ClosedOnExit):
    """Renders with a renderer from ``make_renderer``, replaced every ``every`` pages.

    ``make_renderer`` returns a new renderer with its own context (for
    instance ``lambda: PlaywrightRenderer(browser, settings)``). ``every``
    < 1 never replaces it. ``contexts_created`` counts the renderers made for
    rendering. ``context()`` is the context of one more renderer that renders
    nothing and lives as long as this one: for the fetcher (robots.txt,
    attachments), which must not lose its context mid-crawl.
    """

    def __init__(self, make_renderer: Callable[[], ContextRenderer], every: int) -> None:
        self._make = make_renderer
        self._every = every
        self._current: _Generation | None = None
        self._retired: list[_Generation] = []
        self._anchor: ContextRenderer | None = None
        self.contexts_created = 0

    def _generation(self) -> _Generation:
        current = self._current
        if current is None or (self._every >= 1 and current.started >= self._every):
            if current is not None:
                self._retired.append(current)
            current = self._current = _Generation(self._make())
            self.contexts_created += 1
        return current

    async def render(self, url: str) -> RenderedPage:
        """Render ``url`` in the current context (see ``Renderer.render``)."""
        generation = self._generation()
        generation.started += 1
        generation.active += 1
        try:
            return await generation.renderer.render(url)
        finally:
            generation.active -= 1
            await self._close_idle()

    async def _close_idle(self) -> None:
        idle = [g for g in self._retired if g.active == 0]
        if idle:
            self._retired = [g for g in self._retired if g.active > 0]
            for generation in idle:
                with suppress(Exception):
                    await generation.renderer.close()

    async def context(self) -> BrowserContext:
        """A context that stays open until ``close`` (for fetches)."""
        if self._anchor is None:
            self._anchor = self._make()
        return await self._anchor.context()

    async def close(self) -> None:
        """Close every renderer made (their contexts; the browser stays open)."""
        renderers = [g.renderer for g in (*self._retired, self._current) if g is not None]
        if self._anchor is not None:
            renderers.append(self._anchor)
        self._retired, self._current, self._anchor = [], None, None
        for renderer in renderers:
            with suppress(Exception):
                await renderer.close()
