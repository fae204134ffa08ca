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
cursor:pointer elements), ``click_concurrency`` and ``click_budget_s``; per
crawl by ``explore_budget_s``. A ``ClickMemory`` (``click_memory.py``) shared
by the crawl's pages answers candidates explored before on the same site, so
a sidebar's or a header's click targets are clicked once per site, not once
per page. Toggles (``aria-expanded``, ``<summary>``, group headers followed by
their list of links) are no candidates at all (``extract.js``): the links they
reveal are in the DOM already.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from contextlib import suppress

from playwright.async_api import BrowserContext

from pw_adaptive.links import Link
from pw_adaptive.render.click_memory import ClickMemory, click_key
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
    memory: ClickMemory | None = None,
) -> list[Link]:
    """Click the chosen candidates of the page at ``url``; return the links found, one
    per target URL, in candidate order. Never raises for a candidate that fails.

    With a ``memory``, candidates whose outcome it knows are answered from it
    (not clicked, not counted against ``max_click_explorations``), a candidate
    another page is exploring right now is awaited, and new outcomes are
    learnt; once the memory's per-crawl budget is spent, nothing new is
    clicked."""
    memory = memory if memory is not None else ClickMemory()
    loop = asyncio.get_running_loop()
    started = loop.time()
    deadline = started + settings.click_budget_s
    gate = asyncio.Semaphore(max(1, settings.click_concurrency))
    outcomes: dict[int, str | None] = {}
    to_explore: list[ClickCandidate] = []
    waits: list[tuple[ClickCandidate, asyncio.Future[str | None]]] = []
    for candidate in choose_candidates(candidates, len(candidates)):
        key = click_key(url, candidate)
        known = memory.recall(key, url)
        if known is not ClickMemory.UNKNOWN:
            memory.reused += 1
            outcomes[candidate.index] = known if isinstance(known, str) else None
            continue
        pending = memory.pending(key)
        if pending is not None:
            waits.append((candidate, pending))
        elif len(to_explore) < settings.max_click_explorations:
            to_explore.append(candidate)
    if to_explore and not memory.budget_left:
        to_explore = []

    async def explore(candidate: ClickCandidate) -> None:
        key = click_key(url, candidate)
        with memory.exploring(key) as future:
            async with gate:
                left = deadline - loop.time()
                if left <= 0 or not memory.budget_left:
                    return
                try:
                    outcome = await asyncio.wait_for(
                        _explore_one(context, url, candidate, settings), timeout=left
                    )
                except Exception:  # a timeout, a crash, a page gone: nothing learnt
                    return
            memory.learn(key, url, outcome)
            future.set_result(outcome)
            outcomes[candidate.index] = outcome

    async def await_other(candidate: ClickCandidate, future: asyncio.Future[str | None]) -> None:
        left = deadline - loop.time()
        with suppress(Exception):
            outcomes[candidate.index] = await asyncio.wait_for(asyncio.shield(future), left)

    try:
        await asyncio.gather(
            *(explore(c) for c in to_explore), *(await_other(c, f) for c, f in waits)
        )
    finally:
        if to_explore:
            memory.spend(loop.time() - started)
    links: list[Link] = []
    targets: set[str] = set()
    for candidate in sorted(candidates, key=lambda c: c.index):
        target = outcomes.get(candidate.index)
        if target is None or target in targets or target == url:
            continue
        targets.add(target)
        links.append(
            Link(
                url=target,
                text=candidate.text,
                accessible_name=candidate.accessible_name,
                region=candidate.region,
                context_heading=candidate.context_heading,
                context_text=candidate.context_text,
                visible=True,
                via_click=True,
            )
        )
    return links


async def _explore_one(
    context: BrowserContext, url: str, candidate: ClickCandidate, settings: RenderSettings
) -> str | None:
    """Where clicking ``candidate`` on a fresh copy of ``url`` leads: a URL, or None
    when nothing navigates. Raises when the candidate cannot be clicked at all
    (then nothing is learnt about it)."""
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
                raise LookupError("candidate not found on a fresh copy")
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
        return next(
            (u for u in (*state.navigations, page.url, *state.popups) if _is_new(u, before)),
            None,
        )
    finally:
        await close_quietly(page)


def _is_new(candidate: str, before: str) -> bool:
    return candidate.startswith(("http://", "https://")) and candidate != before
