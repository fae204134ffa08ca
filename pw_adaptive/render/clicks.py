"""Click-only navigation: elements without an href that change the URL when clicked.

SPA menus and cards often navigate from a click handler (``router.push``,
``location.hash = ...``, ``location.href = ...``) on a ``<button>``, a
``role="link"`` element or an ``<a href="#">``. Each candidate the extraction
script found is clicked in its own scratch page, opened fresh at the page's URL
and made ready, so that one click cannot spoil the next (an open modal, a changed
route) and nothing leaks into the page being extracted. A URL change after the
click (pushState, hash change) or a main-frame navigation (recorded and aborted,
never loaded) yields a ``Link`` with ``via_click=True``; a popup's URL too.

Bounded per page by ``max_click_explorations`` (highest priority first: role=link
and href="#" anchors, then onclick/data-route elements, then buttons, then
cursor:pointer elements), ``click_concurrency`` and ``click_budget_s``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from playwright.async_api import BrowserContext

from pw_adaptive.links import Link
from pw_adaptive.render.extract import ClickCandidate, mark_click_candidates
from pw_adaptive.render.hooks import PageState, close_quietly, prepare_page
from pw_adaptive.render.ready import wait_until_ready
from pw_adaptive.render.records import RenderSettings

__all__ = ["choose_candidates", "explore_clicks"]

_CLICK_TIMEOUT_MS = 1500
_POLL_S = 0.04


def choose_candidates(candidates: Sequence[ClickCandidate], limit: int) -> list[ClickCandidate]:
    """The candidates worth a click: one per (text, accessible name), by priority then
    document order, at most ``limit``."""
    seen: set[tuple[str, str]] = set()
    unique: list[ClickCandidate] = []
    for candidate in candidates:
        key = (candidate.text.casefold(), candidate.accessible_name.casefold())
        if key not in seen:
            seen.add(key)
            unique.append(candidate)
    unique.sort(key=lambda c: (-c.priority, c.index))
    return unique[: max(0, limit)]


async def explore_clicks(
    context: BrowserContext,
    url: str,
    candidates: Sequence[ClickCandidate],
    settings: RenderSettings,
) -> list[Link]:
    """Click the chosen candidates of the page at ``url``; return the links found, one
    per target URL, in candidate order. Never raises for a candidate that fails."""
    chosen = choose_candidates(candidates, settings.max_click_explorations)
    if not chosen:
        return []
    loop = asyncio.get_running_loop()
    deadline = loop.time() + settings.click_budget_s
    gate = asyncio.Semaphore(max(1, settings.click_concurrency))

    async def explore(candidate: ClickCandidate) -> Link | None:
        async with gate:
            left = deadline - loop.time()
            if left <= 0:
                return None
            try:
                return await asyncio.wait_for(
                    _explore_one(context, url, candidate, settings), timeout=left
                )
            except Exception:  # a timeout, a crash, a page gone: no link from it
                return None

    found = await asyncio.gather(*(explore(c) for c in chosen))
    links: list[Link] = []
    targets: set[str] = set()
    for link in found:
        if link is not None and link.url not in targets:
            targets.add(link.url)
            links.append(link)
    return links


async def _explore_one(
    context: BrowserContext, url: str, candidate: ClickCandidate, settings: RenderSettings
) -> Link | None:
    page = await context.new_page()
    state = PageState(url=url)
    try:
        await prepare_page(page, settings, state)
        await page.goto(url, wait_until="domcontentloaded", timeout=settings.nav_timeout_s * 1000)
        await wait_until_ready(page, settings)
        texts = await mark_click_candidates(page)
        index = candidate.index
        if index >= len(texts) or texts[index] != candidate.text:
            # The fresh copy differs (random content): find the same text instead.
            if candidate.text not in texts:
                return None
            index = texts.index(candidate.text)
        before = page.url
        state.armed = True
        target = page.locator(f'[data-pw-adaptive-click="{index}"]').first
        try:
            await target.click(timeout=_CLICK_TIMEOUT_MS)
        except Exception:  # covered by an overlay, moving, detached: fire the event
            await target.dispatch_event("click", timeout=_CLICK_TIMEOUT_MS)
        loop = asyncio.get_running_loop()
        until = loop.time() + settings.click_wait_ms / 1000
        while loop.time() < until:
            if state.navigations or state.popups or page.url != before:
                break
            await asyncio.sleep(_POLL_S)
        new_url = next(
            (u for u in (*state.navigations, page.url, *state.popups) if _is_new(u, before)),
            None,
        )
        if new_url is None:
            return None
        return Link(
            url=new_url,
            text=candidate.text,
            accessible_name=candidate.accessible_name,
            region=candidate.region,
            context_heading=candidate.context_heading,
            context_text=candidate.context_text,
            visible=True,
            via_click=True,
        )
    finally:
        await close_quietly(page)


def _is_new(candidate: str, before: str) -> bool:
    return candidate.startswith(("http://", "https://")) and candidate != before
