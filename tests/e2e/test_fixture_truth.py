"""The fixture portals' ground truth holds in a real browser (headless Chromium).

For every task of every portal found by ``fixtures_site.load_portals()``:

(a) every relevant page renders in a fresh page and every fact is visible on
    one of them (text of the body and of open shadow roots, after the content
    renders; collapsed accordions and tabs are opened when a fact is not yet
    visible, as a person would); each attachment is linked from a relevant page;
(b) every relevant page is reachable from the task's start by following what
    the pages show: ``a[href]``/``area[href]`` links (hover-hidden menu links
    included) and click-only elements (buttons, ``role=link`` ...) clicked in a
    fresh page, whose new location or newly revealed links count as reached.
    The search is bounded (depth <= 6, links per page, pages per start) and
    target-guided: links whose route shares the longest prefix with a not yet
    found relevant route go first, so the large portal is searched along its
    task paths instead of in full. One search per (portal, start) serves all
    its tasks; a relevant page linked from the start itself fails (depth >= 2).

One browser for the module; pages are rendered concurrently on a private
event loop (Playwright's async API), so the module needs no pytest-asyncio.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import re
from collections.abc import Awaitable, Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar
from urllib.parse import unquote, urlsplit

import pytest

from fixtures_site import RunningSites, load_portals, serve_portals

pytestmark = pytest.mark.e2e

playwright_api = pytest.importorskip("playwright.async_api")

from pw_adaptive.render.browser import QUIET_ARGS, find_chromium  # noqa: E402

CHROMIUM_ARGS = [*QUIET_ARGS, "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"]

MAX_DEPTH = 6  # link depth bound of the reachability search
MAX_PAGES = 220  # pages rendered per (portal, start)
MAX_LINKS_PER_PAGE = 150
MAX_CLICKS_PER_PAGE = 8
WORKERS = 6  # pages rendered at once
GOTO_TIMEOUT_MS = 10_000
READY_CAP_S = 5.0  # longest wait for a page to settle
QUIET_MS = 350  # DOM quiet window that counts as "rendered"
FACT_TIMEOUT_MS = 10_000
ATTACHMENT_EXT = re.compile(r"\.(pdf|docx?|xlsx?|pptx?|zip|csv)$", re.IGNORECASE)

PORTALS = load_portals()
TASKS: list[tuple[str, dict[str, Any]]] = [
    (name, task) for name, portal in PORTALS.items() for task in portal.truth()["tasks"]
]
RELEVANT_TASKS = [item for item in TASKS if item[1]["relevant"]]

# Records the last DOM change and counts pending short timers, so the test can
# tell when a client-rendered page has settled.
READY_SCRIPT = """
(() => {
  const fx = { last: performance.now(), pending: new Set() };
  Object.defineProperty(window, "__fx", { value: fx, enumerable: false });
  new MutationObserver(() => { fx.last = performance.now(); }).observe(document, {
    subtree: true, childList: true, characterData: true, attributes: true,
  });
  const setT = window.setTimeout.bind(window);
  const clearT = window.clearTimeout.bind(window);
  window.setTimeout = function (fn, ms, ...rest) {
    if (typeof fn !== "function" || Number(ms) > 2000) return setT(fn, ms, ...rest);
    const id = setT(function () { fx.pending.delete(id); return fn.apply(this, rest); }, ms);
    fx.pending.add(id);
    return id;
  };
  window.clearTimeout = function (id) { fx.pending.delete(id); return clearT(id); };
})();
"""

READY_STATE_JS = (
    "() => window.__fx ? [performance.now() - window.__fx.last, window.__fx.pending.size] : [0, 1]"
)

# Text a person sees: the body's innerText plus the rendered text of open shadow roots.
DEEP_TEXT_JS = """
() => {
  const parts = [document.body ? document.body.innerText : ""];
  const walk = (root) => {
    for (const el of root.querySelectorAll("*")) {
      if (!el.shadowRoot) continue;
      for (const child of el.shadowRoot.children) {
        if (child.tagName !== "STYLE" && child.tagName !== "SCRIPT") parts.push(child.innerText || "");
      }
      walk(el.shadowRoot);
    }
  };
  walk(document);
  return parts.join("\\n");
}
"""

HAS_ANY_FACT_JS = (
    "(facts) => { const t = (" + DEEP_TEXT_JS + ")().replace(/\\s+/g, ' ');"
    " return facts.some((f) => t.includes(f)); }"
)

LINKS_JS = """
(els) => els.map((e) => {
  const raw = typeof e.href === "string" ? e.href : e.getAttribute("href");
  try { return new URL(raw, document.baseURI).href; } catch (err) { return ""; }
})
"""

CLICKABLE = "button, [role=link], [role=button], [role=tab], [onclick], summary"
CLICK_INFO_JS = """
(els) => els.map((e) => ({
  sig: e.outerHTML.slice(0, 400),
  skip: !!(e.closest && e.closest("a[href]")) || e.disabled === true,
}))
"""

EXPAND_JS = """
() => {
  const all = [];
  const walk = (root) => {
    for (const el of root.querySelectorAll("*")) { all.push(el); if (el.shadowRoot) walk(el.shadowRoot); }
  };
  walk(document);
  for (const el of all) if (el.tagName === "DETAILS") el.open = true;
  return all.filter((el) => el.getAttribute("aria-expanded") === "false").length;
}
"""

T = TypeVar("T")


def normalize(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def route_key(url: str, origin: str) -> str | None:
    """A URL as the truth files spell routes: path (+ sorted query) (+ #/ or #!/ route)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or f"{parts.scheme}://{parts.netloc}" != origin:
        return None
    key = unquote(parts.path) or "/"
    if parts.query:
        key += "?" + "&".join(sorted(parts.query.split("&")))
    if parts.fragment.startswith(("/", "!/")):
        key += "#" + unquote(parts.fragment)
    return key


def segments(key: str) -> list[str]:
    return [s for s in re.split(r"[/#?&]+", key) if s]


def shared_prefix(a: list[str], b: list[str]) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


@dataclass
class Rendered:
    url: str  # final URL after redirects and client routing
    text: str
    links: list[str]
    clickables: list[tuple[int, str]]  # (index among CLICKABLE matches, signature)


@dataclass
class Reach:
    """Result of one bounded search from a start route."""

    start_key: str | None
    depth: dict[str, int] = field(default_factory=dict)  # route key -> depth found
    parent: dict[str, str] = field(default_factory=dict)
    start_children: set[str] = field(default_factory=set)
    pages: int = 0

    def path_to(self, key: str) -> list[str]:
        chain = [key]
        while chain[-1] in self.parent and len(chain) < 20:
            chain.append(self.parent[chain[-1]])
        return list(reversed(chain))


class Browser:
    """One Chromium for the module, driven on a private event loop."""

    def __init__(self, executable: str) -> None:
        self.loop = asyncio.new_event_loop()
        self._pw: Any = self.run(playwright_api.async_playwright().start())
        self.browser: Any = self.run(
            self._pw.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS, headless=True)
        )
        self.no_effect: set[tuple[str, str]] = set()  # (origin, click signature) that did nothing

    def run(self, coro: Awaitable[T]) -> T:
        return self.loop.run_until_complete(coro)

    def close(self) -> None:
        self.run(self.browser.close())
        self.run(self._pw.stop())
        self.loop.close()

    # -- one page --------------------------------------------------------

    async def _open(self, context: Any, url: str) -> Any:
        page = await context.new_page()
        inflight = [0]

        def started(_req: Any) -> None:
            inflight[0] += 1

        def ended(_req: Any) -> None:
            inflight[0] = max(0, inflight[0] - 1)

        page.on("request", started)
        page.on("requestfinished", ended)
        page.on("requestfailed", ended)
        page.on("popup", lambda popup: asyncio.ensure_future(popup.close()))
        page.inflight = inflight
        await page.goto(url, wait_until="domcontentloaded", timeout=GOTO_TIMEOUT_MS)
        await self._settle(page)
        return page

    async def _settle(self, page: Any, cap_s: float = READY_CAP_S) -> None:
        deadline = self.loop.time() + cap_s
        while self.loop.time() < deadline:
            await asyncio.sleep(0.05)
            if page.inflight[0] > 0:
                continue
            try:
                quiet_ms, pending = await page.evaluate(READY_STATE_JS)
            except Exception:  # navigating: the context is being replaced
                continue
            if quiet_ms >= QUIET_MS and pending == 0:
                return

    async def _links(self, page: Any) -> list[str]:
        try:
            links: list[str] = await page.locator("a[href], area[href]").evaluate_all(LINKS_JS)
        except Exception:
            return []
        return [link for link in links if link]

    async def _clickables(self, page: Any) -> list[tuple[int, str]]:
        try:
            info = await page.locator(CLICKABLE).evaluate_all(CLICK_INFO_JS)
        except Exception:
            return []
        return [(i, item["sig"]) for i, item in enumerate(info) if not item["skip"]]

    async def _text(self, page: Any) -> str:
        try:
            return normalize(await page.evaluate(DEEP_TEXT_JS))
        except Exception:
            return ""

    async def render(self, context: Any, url: str, facts: list[str] | None = None) -> Rendered:
        page = await self._open(context, url)
        try:
            if facts:
                with contextlib.suppress(Exception):  # missing facts are reported by the caller
                    await page.wait_for_function(
                        HAS_ANY_FACT_JS, arg=facts, timeout=FACT_TIMEOUT_MS, polling=100
                    )
                await self._settle(page)
            return Rendered(
                page.url,
                await self._text(page),
                await self._links(page),
                await self._clickables(page),
            )
        finally:
            await page.close()

    async def expanded_text(self, context: Any, url: str) -> str:
        """Text after opening what a person would open: details, collapsed toggles, tabs."""
        page = await self._open(context, url)
        texts = [await self._text(page)]
        try:
            await page.evaluate(EXPAND_JS)
            toggles = page.locator("[aria-expanded=false], [role=tab], summary")
            for i in range(min(await toggles.count(), 20)):
                try:
                    await toggles.nth(i).click(timeout=1000)
                except Exception:
                    continue
                await self._settle(page, cap_s=3.0)
                texts.append(await self._text(page))
            return " ".join(texts)
        finally:
            await page.close()

    async def click_outcome(self, context: Any, url: str, index: int) -> tuple[str, list[str]]:
        """Click the index-th clickable in a fresh page at ``url``: (new URL, new links)."""
        page = await self._open(context, url)
        try:
            before_url = page.url
            before = set(await self._links(page))
            target = page.locator(CLICKABLE).nth(index)
            try:
                await target.click(timeout=1500)
            except Exception:
                try:
                    await target.dispatch_event("click")
                except Exception:
                    return before_url, []
            await asyncio.sleep(0.1)
            await self._settle(page, cap_s=3.0)
            after = await self._links(page)
            return page.url, [link for link in after if link not in before]
        finally:
            await page.close()

    # -- many pages ------------------------------------------------------

    async def render_many(self, urls: dict[str, list[str]]) -> dict[str, Rendered | BaseException]:
        context = await self.browser.new_context(service_workers="block")
        await context.add_init_script(READY_SCRIPT)
        sem = asyncio.Semaphore(WORKERS)

        async def one(url: str, facts: list[str]) -> Rendered:
            async with sem:
                return await self.render(context, url, facts)

        try:
            keys = list(urls)
            results = await asyncio.gather(*(one(u, urls[u]) for u in keys), return_exceptions=True)
            return dict(zip(keys, results, strict=True))
        finally:
            await context.close()

    async def expanded_many(self, urls: list[str]) -> dict[str, str]:
        context = await self.browser.new_context(service_workers="block")
        await context.add_init_script(READY_SCRIPT)
        try:
            out = {}
            for url in urls:
                try:
                    out[url] = await self.expanded_text(context, url)
                except Exception:
                    out[url] = ""
            return out
        finally:
            await context.close()

    async def explore(self, origin: str, start: str, targets: set[str]) -> Reach:
        """Bounded, target-guided search from ``start`` until every target is reached."""
        context = await self.browser.new_context(service_workers="block")
        await context.add_init_script(READY_SCRIPT)
        sem = asyncio.Semaphore(WORKERS)
        unfound = set(targets)
        target_segs = {t: segments(t) for t in targets}
        reach = Reach(start_key=route_key(origin + start, origin))
        seen: set[str] = set()
        heap: list[tuple[float, int, int, str, str | None]] = []
        counter = [0]

        def similarity(key: str | None) -> int:
            if key is None:
                return 0
            segs = segments(key)
            return max((shared_prefix(segs, target_segs[t]) for t in unfound), default=0)

        def push(url: str, key: str, depth: int, parent: str | None) -> None:
            # a link's own route counts; a page close to a target lends its links half a step
            score = max(float(similarity(key)), similarity(parent) - 0.5)
            counter[0] += 1
            heapq.heappush(heap, (-score, depth, counter[0], url, parent))

        def reached(key: str, depth: int, parent: str | None) -> None:
            if key not in reach.depth or depth < reach.depth[key]:
                reach.depth[key] = depth
                if parent is not None and parent != key:
                    reach.parent[key] = parent
            unfound.discard(key)

        async def visit(url: str) -> tuple[Rendered, list[str]] | None:
            async with sem:
                try:
                    rendered = await self.render(context, url)
                except Exception:
                    return None
            extra: list[str] = []
            todo = [(i, s) for i, s in rendered.clickables if (origin, s) not in self.no_effect]
            for index, sig in todo[:MAX_CLICKS_PER_PAGE]:
                async with sem:
                    try:
                        new_url, new_links = await self.click_outcome(context, rendered.url, index)
                    except Exception:
                        continue
                if new_url != rendered.url:
                    extra.append(new_url)
                extra.extend(new_links)
                if new_url == rendered.url and not new_links:
                    self.no_effect.add((origin, sig))
            return rendered, extra

        def absorb(url: str, depth: int, parent: str | None, result: Any) -> None:
            requested = route_key(url, origin)
            if result is None or requested is None:
                return
            rendered, extra = result
            final = route_key(rendered.url, origin) or requested
            reached(final, depth, parent)
            for link in rendered.links[:MAX_LINKS_PER_PAGE] + extra:
                key = route_key(link, origin)
                if key is None or ATTACHMENT_EXT.search(key.split("?", 1)[0]):
                    continue
                if depth == 0:
                    reach.start_children.add(key)
                reached(key, depth + 1, final)
                if key not in seen:
                    seen.add(key)
                    push(link, key, depth + 1, final)

        assert reach.start_key is not None
        seen.add(reach.start_key)
        push(origin + start, reach.start_key, 0, None)
        running: dict[asyncio.Future[Any], tuple[str, int, str | None]] = {}
        try:
            while (heap or running) and unfound:
                while heap and len(running) < WORKERS and reach.pages < MAX_PAGES:
                    _score, depth, _n, url, parent = heapq.heappop(heap)
                    if depth < MAX_DEPTH:
                        reach.pages += 1
                        running[asyncio.ensure_future(visit(url))] = (url, depth, parent)
                if not running:
                    break
                done, _pending = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
                before = set(unfound)
                for fut in done:
                    url, depth, parent = running.pop(fut)
                    absorb(url, depth, parent, fut.result())
                if unfound != before:  # re-rank the frontier for what is left to find
                    items = list(heap)
                    heap.clear()
                    for _score, depth, _n, url, parent in items:
                        push(url, route_key(url, origin) or url, depth, parent)
            return reach
        finally:
            for fut in running:
                fut.cancel()
            await asyncio.gather(*running, return_exceptions=True)
            await context.close()


@dataclass
class E2E:
    browser: Browser
    sites: RunningSites
    pages: dict[str, dict[str, Rendered | BaseException]] = field(default_factory=dict)
    reach: dict[tuple[str, str], Reach] = field(default_factory=dict)

    def origin(self, portal: str) -> str:
        return self.sites.url(portal)

    def relevant_pages(self, portal: str) -> dict[str, Rendered | BaseException]:
        """Every relevant route of the portal, rendered once (waiting for its facts)."""
        if portal not in self.pages:
            facts: dict[str, list[str]] = {}
            for name, task in TASKS:
                if name != portal:
                    continue
                for route in task["relevant"]:
                    facts.setdefault(route, []).extend(task["facts"])
            origin = self.origin(portal)
            by_url = self.browser.run(
                self.browser.render_many(
                    {origin + r: [normalize(f) for f in fs] for r, fs in facts.items()}
                )
            )
            self.pages[portal] = {r: by_url[origin + r] for r in facts}
        return self.pages[portal]

    def reachability(self, portal: str, start: str) -> Reach:
        if (portal, start) not in self.reach:
            origin = self.origin(portal)
            targets = {
                route_key(origin + r, origin) or r
                for name, task in TASKS
                if name == portal and task["start"] == start
                for r in task["relevant"]
            }
            self.reach[(portal, start)] = self.browser.run(
                self.browser.explore(origin, start, targets)
            )
        return self.reach[(portal, start)]


@pytest.fixture(scope="module")
def e2e() -> Iterator[E2E]:
    executable = find_chromium()
    if executable is None:
        pytest.skip("no Chromium found (set PW_ADAPTIVE_CHROMIUM)")
    browser = Browser(executable)
    try:
        with serve_portals() as sites:
            yield E2E(browser, sites)
    finally:
        browser.close()


def _task_id(item: tuple[str, dict[str, Any]]) -> str:
    return str(item[1]["id"])


@pytest.mark.parametrize("item", RELEVANT_TASKS, ids=_task_id)
def test_facts_visible_on_relevant_pages(e2e: E2E, item: tuple[str, dict[str, Any]]) -> None:
    portal, task = item
    origin = e2e.origin(portal)
    rendered = e2e.relevant_pages(portal)
    texts: dict[str, str] = {}
    links: set[str] = set()
    for route in task["relevant"]:
        page = rendered[route]
        if isinstance(page, BaseException):
            pytest.fail(f"{route} did not render: {page!r}")
        assert route_key(page.url, origin) == route_key(origin + route, origin), (
            f"{route} ended at {page.url}"
        )
        texts[route] = page.text
        links.update(route_key(link, origin) or link for link in page.links)
    missing = [f for f in task["facts"] if not any(normalize(f) in t for t in texts.values())]
    if missing:  # open accordions and tabs, as a person would, then look again
        more = e2e.browser.run(e2e.browser.expanded_many([origin + r for r in task["relevant"]]))
        for route in task["relevant"]:
            texts[route] += " " + more[origin + route]
        missing = [f for f in missing if not any(normalize(f) in t for t in texts.values())]
    assert not missing, f"{task['id']}: facts not visible on {task['relevant']}: {missing}"
    for route, text in texts.items():
        assert any(normalize(f) in text for f in task["facts"]), (
            f"{task['id']}: {route} shows none of the facts"
        )
    for attachment in task["attachments"]:
        assert attachment in links, f"{task['id']}: {attachment} not linked from a relevant page"


@pytest.mark.parametrize("item", TASKS, ids=_task_id)
def test_relevant_pages_reachable_from_start(e2e: E2E, item: tuple[str, dict[str, Any]]) -> None:
    portal, task = item
    origin = e2e.origin(portal)
    reach = e2e.reachability(portal, task["start"])
    assert reach.start_key in reach.depth, f"{task['id']}: start {task['start']} did not render"
    for route in task["relevant"]:
        key = route_key(origin + route, origin) or route
        assert key in reach.depth, (
            f"{task['id']}: {route} not reached from {task['start']} "
            f"(depth <= {MAX_DEPTH}, {reach.pages} pages rendered)"
        )
        assert key not in reach.start_children, (
            f"{task['id']}: {route} is linked from the start page itself (depth 1, want >= 2)"
        )
        assert reach.depth[key] <= MAX_DEPTH, (task["id"], route, reach.path_to(key))
