"""Click-only navigation: elements without an href that change the URL when clicked.

SPA menus and cards often navigate from a click handler (``router.push``,
``location.hash = ...``, ``location.href = ...``) on a ``<button>``, a
``role="link"`` element or an ``<a href="#">``. Candidates are clicked in
scratch pages, opened fresh at the page's URL and made ready, so that nothing
leaks into the page being extracted; one scratch page serves candidates in
turn, since most clicks on a real site lead nowhere, until a click fails or
changes its URL and ``history.back()`` does not bring the same document back
to the page's route (a card grid of client-side routes is explored in one
copy). A URL change after the click (pushState, a hash route) or a
main-frame navigation (recorded and aborted, never loaded) yields a ``Link``
with ``via_click=True``; so does a window it opens on the same site (a
copy's ``window.open`` records the URL and opens nothing; a window to
another site, a share button's, leads nowhere); an in-page anchor does not. A
click that navigates nowhere but adds anchors to the page (a menu group that
renders its items only once opened, as Docusaurus 2's collapsed sidebar
categories do) yields the links it added, as the extraction script sees them
(region, context heading, visibility), also with ``via_click=True``.

Bounded per page by ``max_click_explorations`` (highest priority first: role=link
and href="#" anchors, then onclick/data-route elements, then buttons, then
cursor:pointer elements), ``click_concurrency`` and ``click_budget_s``; per
crawl by ``explore_budget_s``. A ``ClickMemory`` (``click_memory.py``) shared
by the crawl's pages answers candidates explored before on the same site
(with the links a click of the page chrome rendered), so a sidebar's or a
header's click targets are clicked once per site, not once per page; once a
site's empty-href anchors are seen to be placeholders (a click reloads the
page), its others are not clicked. Toggles
(``aria-expanded``, ``<summary>``, group headers followed by their list of
links) are no candidates (``extract.js``): the links they reveal are in the
DOM already. The exception is a collapsed category of a navigation menu
whose list item holds only its toggle (Docusaurus 2 and 3 mount a category's
list when it is first opened), or, in a menu of blocks rather than a list,
whose wrapper holds only its toggle beside entries that are links (Vuetify's
v-list-group, all its items mounted on opening): it is clicked like a button, and gives the
links it renders, with those of the collapsed categories it holds, opened in
place two levels down (a toggle that is a link to a page is not clicked).
A page's collapsed categories (two or more) are opened in one copy by one
script, one after another, each keeping the links its own menu item holds
once open, read before the next is opened (on thu-wiki, a Docusaurus site,
the speed benchmark's exploration share at concurrency 1 went from 29% to
20% when they were first opened together). vuepress-theme-hope's sidebar
groups are such categories without ARIA (a plain button, all that its menu
item holds) and an accordion: opening one closes the one open before, so
opening all and reading at the end, as was done first, kept only the last
one's links. If any of them asks to navigate, which one cannot be told,
each is clicked on its own in a fresh copy.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from contextlib import ExitStack, suppress
from dataclasses import replace

from playwright.async_api import BrowserContext, Page

from pw_adaptive.core.links import Link
from pw_adaptive.render.click_memory import CHROME_REGIONS, ClickMemory, click_key
from pw_adaptive.render.extract import (
    TAKE_OPENED,
    ClickCandidate,
    extract_page,
    mark_click_candidates,
)
from pw_adaptive.render.hooks import PageState, arm, close_quietly, prepare_page, same_site
from pw_adaptive.render.ready import settled, wait_until_ready
from pw_adaptive.render.records import RenderSettings
from pw_adaptive.render.search_index import search_indexes

__all__ = ["choose_candidates", "explore_clicks"]

_CLICK_TIMEOUT_MS = 1500
_CLICKS_PER_SCRATCH = 4
"""Candidates per worker when the live page serves as the first scratch copy:
a second worker renders the page once more, which costs about as much as
four clicks that lead nowhere."""
_POINTER_CLICK_MS = 400
"""How long a pointer click may wait for its element to be stable and uncovered
before the click event is fired on it instead (an overlay fading in, a
widget that keeps moving: Playwright would wait the whole timeout)."""

_HITTABLE = """(el) => {
  el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
  const r = el.getBoundingClientRect();
  if (r.width <= 0 || r.height <= 0) return true;  // let Playwright say why it cannot click
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  // A hit inside an open shadow root is reported as its host.
  return !hit || el.contains(hit) || hit.contains(el) || (hit.shadowRoot && hit.shadowRoot.contains(el));
}"""
"""Whether a pointer at the element's centre reaches it (nothing lies on top)."""
_POLL_S = 0.04

_HREF_OF = """(a) => {
  const raw = (a.getAttribute("href") || "").trim();
  if (!raw || raw === "#" || /^javascript:/i.test(raw)) return null;
  try { return new URL(raw, a.baseURI || document.baseURI).href; } catch (e) { return null; }
}"""
"""The URL an anchor leads to, resolved as the extraction script resolves it;
null for none (an empty, "#" or javascript: href)."""

_HREFS_IN = (
    "(root) => {\n  const hrefOf = "
    + _HREF_OF
    + """;
  const out = [];
  for (const a of root.querySelectorAll("a[href], area[href]")) {
    const url = hrefOf(a);
    if (url) out.push(url);
  }
  return out;
}"""
)
"""The URLs of the anchors under ``root`` (:data:`_HREF_OF`)."""
_HREFS = f"() => ({_HREFS_IN})(document)"
"""The URLs of the document's anchors: the ones a click added are what it revealed."""

_OPENABLE_IN = """(item, el) => {
  const out = [];
  for (const toggle of item.querySelectorAll('[aria-expanded="false"]')) {
    if (out.length >= 12) break;
    if (toggle === el) continue;
    // Only what opens in place: a link to a page of its own would move the copy.
    const href = (toggle.getAttribute("href") || "").trim();
    if (toggle.tagName === "A" && href !== "" && href !== "#" && toggle.getAttribute("role") !== "button")
      continue;
    out.push(toggle);
  }
  return out;
}"""
"""The collapsed toggles that a menu item ``item``, opened by ``el``, now holds
(a category inside a category), at most twelve."""

_MENU_ITEM_OF = """(el) => {
  const ITEM_ROLES = new Set(["listitem", "treeitem", "menuitem", "none", "presentation"]);
  let item = el.parentElement;
  for (let level = 0; level < 3 && item; level++, item = item.parentElement) {
    if (item.localName === "li" || ITEM_ROLES.has((item.getAttribute("role") || "").toLowerCase()))
      return item;
  }
  return el.parentElement;
}"""
"""The menu item of a group's toggle ``el``, found as the extraction script
finds it: the nearest of three ancestors that is a list item (``lazyItem``),
else the toggle's wrapper (a menu of blocks, as Vuetify's v-list-group:
``lazyBlock``)."""

_NESTED_TOGGLES = (
    "(indices) => {\n  const openableIn = "
    + _OPENABLE_IN
    + ";\n  const menuItemOf = "
    + _MENU_ITEM_OF
    + """;
  let opened = 0;
  for (const index of indices) {
    const el = document.querySelector(`[data-pw-adaptive-click="${index}"]`);
    if (!el || el.getAttribute("aria-expanded") !== "true") continue;
    const item = menuItemOf(el);
    if (!item) continue;
    for (const toggle of openableIn(item, el)) {
      toggle.click();
      opened += 1;
    }
  }
  return opened;
}"""
)
"""Open, in place, the collapsed toggles that the menu categories marked with
these ordinals, once opened, now hold (a category inside a category: Docusaurus mounts each
level's list only when it is opened), so that their links are read with the
category's; returns how many were clicked."""
_NESTED_ROUNDS = 2
"""Levels of nested categories opened below the one clicked."""

_OPEN_GROUPS_IN_TURN = (
    "async ([indices, waitMs, settleMs, rounds]) => {\n  const openableIn = "
    + _OPENABLE_IN
    + ";\n  const menuItemOf = "
    + _MENU_ITEM_OF
    + ";\n  const hrefOf = "
    + _HREF_OF
    + """;
  const squash = (text) => (text || "").replace(/\\s+/g, " ").trim();
  const anchorsIn = (root) => {
    const out = [];
    for (const a of root.querySelectorAll("a[href], area[href]")) {
      const url = hrefOf(a);
      if (!url) continue;
      out.push([url, squash(a.innerText || a.textContent),
                squash(a.getAttribute("aria-label") || a.getAttribute("title") || "")]);
    }
    return out;
  };
  const A = window.__pwAdaptive;
  const later = (A && A.setTimeout) || ((fn, ms) => setTimeout(fn, ms));  // not counted as pending
  const start = location.href;
  // Resolves once the item's subtree changes (and the framework has had a
  // frame to finish); or when nothing the click started is pending after
  // settleMs (it led nowhere: the question a click of its own asks,
  // ready.settled), the URL changed, or waitMs passed.
  const changed = (node) => new Promise((resolve) => {
    const t0 = performance.now();
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      observer.disconnect();
      resolve();
    };
    const observer = new MutationObserver(() => {
      observer.disconnect();
      requestAnimationFrame(() => later(finish, 0));
    });
    observer.observe(node, { childList: true, subtree: true });
    const poll = () => {
      if (done) return;
      const spent = performance.now() - t0;
      if (spent >= waitMs || location.href !== start) return finish();
      if (settleMs > 0 && spent >= settleMs && A && A.busy && A.busy(settleMs, waitMs - spent) === "")
        return finish();
      later(poll, 40);
    };
    later(poll, 40);
  });
  const groups = [];
  for (const index of indices) {
    const el = document.querySelector(`[data-pw-adaptive-click="${index}"]`);
    const item = el ? menuItemOf(el) : null;
    if (!el || !item || el.getAttribute("aria-expanded") === "true") { groups.push(null); continue; }
    const opening = changed(item);
    el.click();
    await opening;
    for (let round = 0; round < rounds && location.href === start; round++) {
      const toggles = openableIn(item, el);
      if (!toggles.length) break;
      const nested = changed(item);
      for (const toggle of toggles) toggle.click();
      await nested;
    }
    if (location.href !== start) return null;
    // Read now: an accordion closes this group when the next one opens.
    groups.push(anchorsIn(item));
  }
  return groups;
}"""
)
"""Open the collapsed menu groups marked with these ordinals one after
another in place, each with the collapsed toggles it then holds
(``rounds`` levels down), and return, for each, the anchors (URL, text,
name) its menu item holds once open, read before the next group is opened;
null for a group not found or open already; null as a whole when a click
changed the page's URL. The item is :data:`_MENU_ITEM_OF`'s."""


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
    *,
    live: tuple[Page, PageState] | None = None,
) -> list[Link]:
    """Click the chosen candidates of the page at ``url``; return the links found, one
    per target URL, in candidate order. Never raises for a candidate that fails.

    With a ``memory``, candidates whose outcome it knows are answered from it
    (not clicked, not counted against ``max_click_explorations``), a candidate
    of the main content that another page is exploring right now is awaited
    (one of the page chrome is left to that page), and new outcomes are
    learnt; once the memory's per-crawl budget is spent, nothing new is
    clicked. ``live``: the page itself (already extracted, so clicks may
    spoil it), used as the first worker's first scratch copy instead of
    rendering the page once more; the caller closes it."""
    memory = memory if memory is not None else ClickMemory()
    loop = asyncio.get_running_loop()
    started = loop.time()
    deadline = started + settings.click_budget_s
    outcomes: dict[int, str | None] = {}
    revealed: dict[int, tuple[Link, ...]] = {}
    to_explore: list[ClickCandidate] = []
    waits: list[tuple[ClickCandidate, asyncio.Future[str | None]]] = []
    placeholders = memory.placeholder_site(url)
    for candidate in choose_candidates(candidates, len(candidates)):
        if candidate.empty_href and placeholders:
            memory.placeholders += 1
            outcomes[candidate.index] = None
            continue
        key = click_key(url, candidate)
        known = memory.recall(key, url)
        if known is not ClickMemory.UNKNOWN:
            memory.reused += 1
            outcomes[candidate.index] = known if isinstance(known, str) else None
            revealed[candidate.index] = memory.revealed(key)
            continue
        answer = memory.by_template(key, candidate)
        if answer is not ClickMemory.UNKNOWN:
            outcomes[candidate.index] = answer if isinstance(answer, str) else None
            continue
        pending = memory.pending(key)
        if pending is not None:
            if key[1] in CHROME_REGIONS:
                # The page chrome leads to the same place from every page, and
                # the page exploring it now adds what it finds to its links:
                # waiting would only hold this page back.
                memory.left_to_others += 1
                continue
            waits.append((candidate, pending))
        elif len(to_explore) < settings.max_click_explorations:
            to_explore.append(candidate)
    if to_explore and not memory.budget_left:
        to_explore = []

    futures: dict[int, asyncio.Future[str | None]] = {}

    def report(
        candidate: ClickCandidate, outcome: str | None, found: tuple[Link, ...], learnt: bool
    ) -> None:
        # learnt: the candidate was clicked (not answered by its template's rule).
        if learnt:
            key = click_key(url, candidate)
            memory.learn(
                key, url, outcome, revealed=found, text=candidate.text, group=candidate.parent_label
            )
        futures[candidate.index].set_result(outcome)
        outcomes[candidate.index] = outcome
        if found:
            revealed[candidate.index] = found

    # Each worker takes the next candidate from one queue and clicks it in its
    # scratch page, and opens a new one only after a click that changed the
    # page's URL or failed: most click-only candidates of a real site lead
    # nowhere (widgets, toggles), and loading the page again for each of them
    # was most of the cost of exploration. The first worker starts on the live
    # page; another worker (a further render of the page) only pays off for a
    # longer queue.
    queue = list(to_explore)

    async def await_other(candidate: ClickCandidate, future: asyncio.Future[str | None]) -> None:
        left = deadline - loop.time()
        with suppress(Exception):
            outcomes[candidate.index] = await asyncio.wait_for(asyncio.shield(future), left)

    with ExitStack() as stack:
        for candidate in to_explore:
            futures[candidate.index] = stack.enter_context(
                memory.exploring(click_key(url, candidate))
            )
        try:
            first: tuple[Page, PageState] | _Scratch | None = live
            if sum(1 for c in queue if c.group) >= 2:
                # A menu's collapsed groups render their links in place: opened
                # in turn by one script in one copy, with one extraction, they
                # cost no click and wait each (on thu-wiki, a Docusaurus site,
                # each click of its own cost 0.2-0.5 s).
                waiting = len(queue)
                first = await _open_groups_in_turn(
                    context, url, queue, settings, report, deadline, live, memory
                )
                memory.opened_together += waiting - len(queue)
            per_worker = _CLICKS_PER_SCRATCH if first is not None else 1
            workers = min(settings.click_concurrency, -(-len(queue) // per_worker))
            if workers == 0 and isinstance(first, _Scratch):
                # Clicked, so the caller would not keep the live page either.
                await close_quietly(first.page)
            await asyncio.gather(
                *(
                    _explore_sequence(
                        context,
                        url,
                        queue,
                        settings,
                        report,
                        deadline,
                        memory,
                        first if i == 0 else None,
                    )
                    for i in range(workers)
                ),
                *(await_other(c, f) for c, f in waits),
            )
        finally:
            if to_explore:
                memory.spend(loop.time() - started)
    links: list[Link] = []
    targets: set[str] = {url}
    for candidate in sorted(candidates, key=lambda c: c.index):
        target = outcomes.get(candidate.index)
        if target is not None and target not in targets:
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
        for link in revealed.get(candidate.index, ()):
            if link.url not in targets:
                targets.add(link.url)
                links.append(replace(link, via_click=True))
    return links


async def _explore_sequence(
    context: BrowserContext,
    url: str,
    todo: list[ClickCandidate],
    settings: RenderSettings,
    report: Callable[[ClickCandidate, str | None, tuple[Link, ...], bool], None],
    deadline: float,
    memory: ClickMemory,
    live: tuple[Page, PageState] | _Scratch | None = None,
) -> None:
    """Click the candidates of ``todo`` (a queue shared with the other workers,
    consumed from the front) in turn in a scratch page of ``url``; ``report``
    each outcome. A new scratch page is opened after a click that changed the URL
    when going back does not restore the page (:func:`_restored`), and after a failure, when the candidate is tried once more
    in a fresh page (the one before may have been spoiled by an earlier click).
    Candidates left when the deadline passes, or that fail twice, get no report.
    ``live`` (see ``explore_clicks``), or a copy already in use, is the first copy."""
    loop = asyncio.get_running_loop()
    retried: set[int] = set()
    scratch: _Scratch | None = None
    if isinstance(live, _Scratch):
        scratch, live = live, None
    try:
        while todo:
            left = deadline - loop.time()
            if left <= 0 or not memory.budget_left:
                return
            candidate = todo.pop(0)
            answer = memory.by_template(click_key(url, candidate), candidate)
            if answer is not ClickMemory.UNKNOWN:
                # Its siblings, clicked meanwhile (this page's own list of
                # them, or another page's), led nowhere or taught their rule.
                report(candidate, answer if isinstance(answer, str) else None, (), False)
                continue
            try:
                if scratch is None and live is not None:
                    page, state = live
                    live = None
                    scratch = _Scratch(page, state, await mark_click_candidates(page))
                if scratch is None:
                    scratch = await asyncio.wait_for(
                        _open_scratch(context, url, settings, memory), left
                    )
                    left = deadline - loop.time()
                outcome = await asyncio.wait_for(scratch.click(candidate, settings), left)
            except Exception:  # a timeout, a crash, a page gone: nothing learnt (yet)
                fresh = scratch is None or scratch.clicks == 0
                if scratch is not None:
                    await close_quietly(scratch.page)
                    scratch = None
                if not fresh and candidate.index not in retried:
                    retried.add(candidate.index)
                    todo.insert(0, candidate)
                continue
            report(candidate, outcome, scratch.revealed, True)
            if candidate.empty_href:
                memory.learn_empty_href(url, scratch.reloaded)
            if scratch.moved() and not (
                todo and await _restored(scratch, settings, deadline, memory)
            ):
                await close_quietly(scratch.page)
                scratch = None
    finally:
        if scratch is not None:
            await close_quietly(scratch.page)


async def _open_groups_in_turn(
    context: BrowserContext,
    url: str,
    queue: list[ClickCandidate],
    settings: RenderSettings,
    report: Callable[[ClickCandidate, str | None, tuple[Link, ...], bool], None],
    deadline: float,
    live: tuple[Page, PageState] | None,
    memory: ClickMemory,
) -> _Scratch | None:
    """Open the collapsed menu groups of ``queue`` in turn in one copy of the
    page (``live``, else a fresh one; :meth:`_Scratch.open_groups`) and
    ``report`` for each the links its menu item held once open; take the
    groups answered out of ``queue``. Returns
    the copy, to serve the candidates left, or None when it is gone or spoiled:
    a group whose click asked to navigate (which one cannot be told) leaves
    every group to a click of its own in a fresh copy. Never raises."""
    loop = asyncio.get_running_loop()
    scratch: _Scratch | None = None
    groups = [c for c in queue if c.group]
    try:
        if live is not None:
            page, state = live
            marked = await asyncio.wait_for(mark_click_candidates(page), deadline - loop.time())
            scratch = _Scratch(page, state, marked)
        else:
            scratch = await asyncio.wait_for(
                _open_scratch(context, url, settings, memory), deadline - loop.time()
            )
        found = await asyncio.wait_for(
            scratch.open_groups(groups, settings), deadline - loop.time()
        )
    except Exception:  # a timeout, a crash, a page gone: each group on its own
        if scratch is not None:
            await close_quietly(scratch.page)
        return None
    if found is None:
        if scratch.clicks:
            await close_quietly(scratch.page)
            return None
        return scratch
    for candidate in groups:
        if candidate.index in found:
            report(candidate, None, found[candidate.index], True)
            queue.remove(candidate)
    return scratch


class _Scratch:
    """A scratch copy of the page, its candidates marked, clicked one after another."""

    def __init__(self, page: Page, state: PageState, texts: list[str]) -> None:
        self.page = page
        self.state = state
        self.texts = texts
        self.start_url = page.url
        self.clicks = 0
        self.reloaded = False
        """Whether the last click asked to load the page itself again (a plain
        link's default action: no script stopped it)."""
        self.hrefs: set[str] | None = None
        """The anchors' URLs before the next click (read at the first click)."""
        self.revealed: tuple[Link, ...] = ()
        """Links that the last click added to the page without navigating (a
        menu group that renders its items only once opened), as the
        extraction script sees them."""
        self.index = -1
        """The mark of the element last clicked."""

    def moved(self) -> bool:
        """Whether the last click left the page elsewhere (a new URL: a route
        change, or an error page): the next candidate needs a fresh copy. A
        navigation the click started was cancelled before it replaced the
        document (``hooks.py``): the copy is still the page. So it is after an
        in-page anchor (``#doc-copyright``), which only scrolls it: on a
        VuePress site a comment widget's buttons each cost a fresh copy
        (about a second) that way."""
        if self.page.is_closed():
            return True
        now = self.page.url
        if now == self.start_url:
            return False
        return not now.startswith(("http://", "https://")) or _is_new(now, self.start_url)

    async def click(self, candidate: ClickCandidate, settings: RenderSettings) -> str | None:
        """Where clicking ``candidate`` leads: a URL, or None when nothing navigates.
        Raises when it cannot be clicked (then nothing is learnt about it)."""
        index = candidate.index
        texts = self.texts
        if index >= len(texts) or texts[index] != candidate.text:
            # The fresh copy differs (random content): find the same text instead.
            if candidate.text not in texts:
                raise LookupError("candidate not found on a fresh copy")
            index = texts.index(candidate.text)
        page, state = self.page, self.state
        target = page.locator(f'[data-pw-adaptive-click="{index}"]').first
        if self.clicks and not await target.count():
            # An earlier click rendered this part of the copy again (a tab
            # list that a framework builds anew on each switch: uut-codegeeks'
            # lecturers), and took the marks with it. Mark the candidates
            # again and find this one by its text, rather than wait out the
            # click timeouts (3 s) for a mark that will not come back.
            self.texts = texts = await mark_click_candidates(page)
            if candidate.text not in texts:
                raise LookupError("candidate gone after an earlier click")
            index = texts.index(candidate.text)
            target = page.locator(f'[data-pw-adaptive-click="{index}"]').first
        state.navigations.clear()
        state.popups.clear()
        self.revealed = ()
        if self.hrefs is None:
            self.hrefs = set(await page.evaluate(_HREFS))
        before = page.url
        await arm(page, state)
        self.clicks += 1
        self.index = index
        try:
            # Covered by something else (a modal notice, a cookie banner):
            # Playwright would retry the click until its timeout, 1.5 s lost per
            # candidate on a site with an overlay. Fire the event at once instead.
            if not await target.evaluate(_HITTABLE, timeout=_CLICK_TIMEOUT_MS):
                raise LookupError("covered")
            await target.click(timeout=_POINTER_CLICK_MS)
        except Exception:  # covered by an overlay, moving, detached: fire the event
            await target.dispatch_event("click", timeout=_CLICK_TIMEOUT_MS)
        await _after_click(
            page, settings, lambda: bool(state.navigations or state.popups or page.url != before)
        )
        # A window the click asked for (HOLD_POPUPS): a page of the site is
        # where it leads; another site's (a share button's) is not crawled.
        with suppress(Exception):
            opened = await page.evaluate(TAKE_OPENED)
            state.popups.extend(u for u in opened if isinstance(u, str) and same_site(u, before))
        here = before.partition("#")[0]
        self.reloaded = any(u.partition("#")[0] == here for u in state.navigations)
        led_to = next(
            (u for u in (*state.navigations, page.url, *state.popups) if _is_new(u, before)),
            None,
        )
        if led_to is None and not self.moved():
            self.revealed = await self._revealed(settings)
        return led_to

    async def open_groups(
        self, groups: Sequence[ClickCandidate], settings: RenderSettings
    ) -> dict[int, tuple[Link, ...]] | None:
        """Open these collapsed menu groups in place, one after another in one
        script, each with the collapsed groups it holds (:data:`_NESTED_ROUNDS`
        levels down), and return, by candidate index, the links each group's
        menu item then holds that the page did not have before. Each group's
        links are read before the next one is opened: an accordion (the
        sidebar of vuepress-theme-hope) closes one group when another opens.
        A link still on the page is given as the extraction script sees it;
        one that a later group's opening removed, with its anchor's text and
        the group's region and context. None when fewer than two of them are
        found on this copy (nothing clicked), or when a click asked to
        navigate or moved the copy."""
        texts = self.texts
        indices = [c.index for c in groups if c.index < len(texts) and texts[c.index] == c.text]
        if len(indices) < 2:
            return None
        page, state = self.page, self.state
        state.navigations.clear()
        state.popups.clear()
        if self.hrefs is None:
            self.hrefs = set(await page.evaluate(_HREFS))
        before = page.url

        def asked_to_move() -> bool:
            return bool(state.navigations or state.popups or page.url != before)

        await arm(page, state)
        self.clicks += 1
        owned: list[list[list[str]] | None] | None = await page.evaluate(
            _OPEN_GROUPS_IN_TURN,
            [indices, settings.click_wait_ms, settings.settle_ms, _NESTED_ROUNDS],
        )
        await _after_click(page, settings, asked_to_move)
        if owned is None or asked_to_move() or self.moved():
            return None
        known = self.hrefs
        on_page = await self._added_links(settings)
        here = page.url.partition("#")[0]
        by_candidate = {c.index: c for c in groups}
        found: dict[int, tuple[Link, ...]] = {}
        for index, anchors in zip(indices, owned, strict=True):
            if anchors is None:
                continue
            group = by_candidate[index]
            links: dict[str, Link] = {}
            for url, text, name in anchors:
                if url in known or url in links or url.partition("#")[0] == here:
                    continue
                links[url] = on_page.get(url) or Link(
                    url=url,
                    text=text,
                    accessible_name=name,
                    region=group.region,
                    context_heading=group.context_heading,
                )
            found[index] = tuple(links.values())
        return found

    async def _revealed(self, settings: RenderSettings) -> tuple[Link, ...]:
        """The links the last click added to the page (none when it cannot tell),
        with those of the collapsed categories it revealed, opened in turn."""
        try:
            await self._open_nested(settings, [self.index])
            return tuple((await self._added_links(settings)).values())
        except Exception:  # the page went away or would not answer
            return ()

    async def _added_links(self, settings: RenderSettings) -> dict[str, Link]:
        """The links to other pages that the copy has gained since its anchors
        were last read, by URL, as the extraction script sees them (region,
        context heading, visibility); the anchors are read anew."""
        now = set(await self.page.evaluate(_HREFS))
        new, self.hrefs = now - (self.hrefs or set()), now
        here = self.page.url.partition("#")[0]
        new = {u for u in new if u.partition("#")[0] != here}
        if not new:
            return {}
        extraction = await extract_page(
            self.page, max_elements=settings.max_elements, max_chars=settings.max_content_chars
        )
        added: dict[str, Link] = {}
        for link in extraction.links:
            if link.url in new:
                added.setdefault(link.url, link)  # the first, as a page's links are read
        return added

    async def _open_nested(self, settings: RenderSettings, indices: Sequence[int]) -> None:
        """Open the collapsed toggles inside the menu categories marked with
        ``indices`` (:data:`_NESTED_TOGGLES`), level by level, each time
        waiting for the page to settle as after a click."""
        for _ in range(_NESTED_ROUNDS):
            if not await self.page.evaluate(_NESTED_TOGGLES, list(indices)):
                return
            await _after_click(self.page, settings)


async def _after_click(
    page: Page, settings: RenderSettings, moved: Callable[[], bool] = lambda: False
) -> None:
    """Wait, after a click, at most ``click_wait_ms``: until ``moved()`` (the
    click navigated) or, once ``settle_ms`` have passed, until nothing that
    could still navigate or render is pending (no timer, load or frame: the
    click led nowhere). Most clicks on a real site are such, and waiting the
    full ``click_wait_ms`` for each was most of the exploration's time."""
    loop = asyncio.get_running_loop()
    clicked = loop.time()
    until = clicked + settings.click_wait_ms / 1000
    while loop.time() < until:
        if moved():
            return
        if (
            settings.settle_ms > 0
            and loop.time() - clicked >= settings.settle_ms / 1000
            and await settled(page, settings.settle_ms, int((until - loop.time()) * 1000))
        ):
            return
        await asyncio.sleep(_POLL_S)


async def _restored(
    scratch: _Scratch, settings: RenderSettings, deadline: float, memory: ClickMemory
) -> bool:
    """Bring a copy that a click moved to another route of the same document
    (``history.pushState`` or a hash change: a navigation to a new document
    is cancelled, ``hooks.py``) back to the page's own route with
    ``history.back()``, and mark its candidates again: much cheaper than
    rendering the page once more, which a card grid whose every card is a
    route change (a FAQ's topics) paid per card. True when, within
    ``click_wait_ms``, the copy is back at its URL and shows the same
    candidates as before (given the time to settle, which a page with endless
    activity never does); else False, and the caller closes it. The copy
    counts as back with its URL's in-page anchor changed (a table of contents
    that writes the heading scrolled to into the URL) and with candidates
    added after its own (a "back to top" button shown once the clicks have
    scrolled it: 10 of 14 restorations failed on himastat-ut so). Counted in
    ``memory`` (``restorations``, ``restorations_failed``)."""
    back = await _go_back(scratch, settings, deadline)
    if back:
        memory.restorations += 1
    else:
        memory.restorations_failed += 1
    return back


async def _go_back(scratch: _Scratch, settings: RenderSettings, deadline: float) -> bool:
    """:func:`_restored` without the count."""
    page = scratch.page
    if page.is_closed():
        return False
    loop = asyncio.get_running_loop()
    until = min(deadline, loop.time() + settings.click_wait_ms / 1000)
    try:
        await page.evaluate("() => history.back()")
        while _is_new(page.url, scratch.start_url):
            if loop.time() >= until:
                return False
            await asyncio.sleep(_POLL_S)
        while loop.time() < until and not await settled(
            page,
            settings.settle_ms,
            max(int((until - loop.time()) * 1000), 0),
        ):
            await asyncio.sleep(_POLL_S)
        texts = await mark_click_candidates(page)
    except Exception:  # the page went away or would not answer: a fresh copy then
        return False
    if page.is_closed() or _is_new(page.url, scratch.start_url):
        return False
    if texts[: len(scratch.texts)] != scratch.texts:
        return False
    # Candidates after the page's own, in document order, came with the
    # scroll of the clicks (a "back to top" button); the others are the same.
    scratch.texts = texts
    return True


async def _open_scratch(
    context: BrowserContext, url: str, settings: RenderSettings, memory: ClickMemory
) -> _Scratch:
    """A fresh copy of the page at ``url``, ready, its candidates marked;
    counted in ``memory.fresh_copies``."""
    memory.fresh_copies += 1
    page = await context.new_page()
    state = PageState(url=url)
    try:
        await prepare_page(page, settings, state)
        await search_indexes(context).guard(page, url, settings)
        await page.goto(url, wait_until="domcontentloaded", timeout=settings.nav_timeout_s * 1000)
        await wait_until_ready(page, settings)
        texts = await mark_click_candidates(page)
    except BaseException:
        await close_quietly(page)
        raise
    return _Scratch(page, state, texts)


def _is_new(candidate: str, before: str) -> bool:
    """Whether ``candidate`` is another page than ``before``: an in-page anchor
    (``#doc-copyright``: the same URL but for a fragment that is no hash
    route) is not."""
    if not candidate.startswith(("http://", "https://")) or candidate == before:
        return False
    base, _, fragment = candidate.partition("#")
    if base == before.partition("#")[0]:
        return fragment.startswith(("/", "!"))
    return True
