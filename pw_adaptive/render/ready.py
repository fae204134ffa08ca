"""Ready detection: when has a JavaScript page finished rendering its content?

Not ``networkidle``: long-polling, analytics beacons and chat widgets keep the
network busy on real portals, and waiting for 500 ms of silence costs every page.
Instead, after DOMContentLoaded, a MutationObserver watches the DOM (child lists
and text; attribute flips such as animated classes are ignored):

* once the DOM has changed, the page is ready when it has been quiet for
  ``quiet_ms`` (a client-side router renders in bursts);
* a page whose DOM does not change at all within ``grace_ms`` (server-rendered,
  or rendered by synchronous scripts before DOMContentLoaded) is ready then, and
  a page without any script element at once;
* in both cases also ``document.readyState == "complete"``, no same-site
  ``fetch``/``XMLHttpRequest`` still in flight and none answered (body read
  included) within the last ``quiet_ms``, or ``2 * quiet_ms`` while the DOM has
  not changed yet (an SPA that fetches its data before its first render, then
  renders after a delay, must not look static);
* earlier, after only ``settle_ms`` of quiet (counted from the last change, or
  from the start of the wait), when nothing that could change the DOM is
  pending: no short timer (``setTimeout`` of at most a second; not one that
  three of the host's pages saw run without changing their content,
  :class:`QuietTimers`) or animation
  frame waiting to run (a frame requested from a frame's own callback, an
  animation loop that some libraries keep running for the page's whole life,
  only while the DOM changed within ``settle_ms``), no ``fetch``/XHR to any
  site in flight, no load of the page (script, stylesheet and preload
  elements, frames: from insertion to their load or error event; other script
  and stylesheet requests from resource timing; a worker until it first
  answers, or, if the page never posted it a message, until ``settle_ms``
  after its script loaded: a search index's worker idles all along) unfinished
  or finished within ``settle_ms``, and the page's thread not busy (the
  watcher's own timer ran on time). Most pages of a real site are such:
  waiting the full windows cost every page half a second. All of it is watched
  in the page: subscribing to Playwright's request events cost the crawl 5-12%
  of its wall time in a scratch A/B (every event of every page crosses into
  Python; ``docs/benchmarks.md``), and a request that only a worker or a
  native ``import()`` makes in flight is the price;
* never later than ``ready_cap_ms`` (pages that never stop mutating, requests
  that never end);
* ``"unresponsive"`` when the page's own timer did not even fire by the cap
  (plus 2 s of slack): a script that never yields (``for (;;) {}``) holds the
  page's only thread, and nothing more can be read from it.

The init script (``ACTIVITY_SCRIPT``) keeps the page's pending work in
``window.__pwAdaptive``; click exploration asks the same question
(:func:`settled`) after each click instead of always waiting ``click_wait_ms``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field

from playwright.async_api import Page

from pw_adaptive.core.variants import rule_host
from pw_adaptive.render.records import RenderSettings

__all__ = [
    "ACTIVITY_SCRIPT",
    "READY_FUNCTION",
    "TIMER_EVIDENCE",
    "TIMER_RECHECK",
    "QuietTimers",
    "settled",
    "wait_for_next_document",
    "wait_until_ready",
]

ACTIVITY_SCRIPT = r"""
(() => {
  if (window.__pwAdaptive !== undefined) return;
  const now = () => performance.now();
  const A = window.__pwAdaptive = {
    pending: 0,          // same-site fetch/XHR in flight
    pendingAll: 0,       // fetch/XHR to any site in flight
    lastResponse: -1,    // when a same-site response (or its body) last arrived
    lastAnyResponse: -1, // the same for any site
    timers: new Map(),   // short timeouts not yet run: id -> due time
    frames: new Set(),   // animation frames requested, not yet run
    loopFrames: new Set(),  // the same, requested from a frame's own callback
    inFrame: 0,          // > 0 while a frame's callback runs
    lastChange: -1,      // when an element or text node was last added or removed
    fired: [],           // [call site, when] of the short timers that ran
  };
  // Same site = same last two host labels (three under a two-letter ccTLD with a
  // generic second level such as ac.uk, edu.au): cross-site beacons must not
  // delay readiness.
  const site = (host) => {
    const labels = host.split(".");
    const n = labels.length >= 3 && labels[labels.length - 1].length === 2 &&
      /^(ac|co|com|edu|gov|net|org|or|ne|go)$/.test(labels[labels.length - 2]) ? 3 : 2;
    return labels.slice(-n).join(".");
  };
  const counts = (url) => {
    try { return site(new URL(url, location.href).hostname) === site(location.hostname); }
    catch (e) { return false; }
  };
  const stamp = (same) => {
    A.lastAnyResponse = now();
    if (same) A.lastResponse = A.lastAnyResponse;
  };
  const done = (same) => {
    A.pendingAll = Math.max(0, A.pendingAll - 1);
    if (same) A.pending = Math.max(0, A.pending - 1);
    stamp(same);
  };
  // Reading a body (res.json()) ends later than the fetch promise: stamp it too.
  const R = window.Response && window.Response.prototype;
  if (R) {
    for (const name of ["json", "text", "arrayBuffer", "blob", "formData"]) {
      const read = R[name];
      if (!read) continue;
      R[name] = function () {
        const same = counts(this.url || location.href);
        const p = read.apply(this, arguments);
        p.then(() => stamp(same), () => stamp(same));
        return p;
      };
    }
  }
  const origFetch = window.fetch;
  if (origFetch) {
    window.fetch = function (input, init) {
      const url = typeof input === "string" ? input : (input && input.url) || String(input);
      const same = counts(url);
      A.pendingAll += 1;
      if (same) A.pending += 1;
      let p;
      try { p = origFetch.apply(this, arguments); } catch (e) { done(same); throw e; }
      p.then(() => done(same), () => done(same));
      return p;
    };
  }
  const XHR = window.XMLHttpRequest;
  if (XHR) {
    const open = XHR.prototype.open, send = XHR.prototype.send;
    XHR.prototype.open = function (method, url) {
      this.__pwAdaptiveSame = counts(String(url));
      return open.apply(this, arguments);
    };
    XHR.prototype.send = function () {
      const same = !!this.__pwAdaptiveSame;
      A.pendingAll += 1;
      if (same) A.pending += 1;
      this.addEventListener("loadend", () => done(same), { once: true });
      return send.apply(this, arguments);
    };
  }
  // Short timeouts are work about to happen (a router's delayed render, a
  // redirect); longer ones (carousels, session warnings) are not waited for.
  // A timer of SITE_MS or more is named by its delay and the caller's frame
  // (script URL, line, column), the same on every page of a site's build, so
  // that the renderer can learn the ones that never change the content (a
  // theme's "transitions on again" timer after mount) and stop waiting for
  // them (QuietTimers).
  const SHORT_MS = 1000, SITE_MS = 50;
  const setT = window.setTimeout, clearT = window.clearTimeout;
  A.setTimeout = (fn, ms) => setT.call(window, fn, ms);
  const Error0 = window.Error;
  const callSite = () => {
    try {  // a page may have replaced Error, or its stack
      const frames = String(new Error0().stack || "").split("\n");
      return frames.length > 3 ? frames[3].trim() : "";
    } catch (e) { return ""; }
  };
  window.setTimeout = function (handler, delay, ...rest) {
    const ms = Number(delay) || 0;
    if (typeof handler !== "function" || ms > SHORT_MS) return setT.apply(window, arguments);
    const site = ms >= SITE_MS ? ms + " " + callSite() : "";
    let id = 0;
    id = setT.call(window, function () {
      A.timers.delete(id);
      if (site && A.fired.length < 200) A.fired.push([site, now()]);
      return handler.apply(this, arguments);
    }, ms, ...rest);
    A.timers.set(id, [now() + ms, site]);
    return id;
  };
  window.clearTimeout = function (id) {
    A.timers.delete(id);
    return clearT.apply(window, arguments);
  };
  const raf = window.requestAnimationFrame, caf = window.cancelAnimationFrame;
  if (raf && caf) {
    // A frame requested from a frame's callback continues an animation loop
    // (a tooltip library that repositions its tooltips on every frame, for
    // as long as the page lives): pending work only while the DOM is still
    // changing.
    window.requestAnimationFrame = function (callback) {
      let id = 0;
      const set = A.inFrame > 0 ? A.loopFrames : A.frames;
      id = raf.call(window, function () {
        set.delete(id);
        A.inFrame += 1;
        try { return callback.apply(this, arguments); } finally { A.inFrame -= 1; }
      });
      set.add(id);
      return id;
    };
    window.cancelAnimationFrame = function (id) {
      A.frames.delete(id);
      A.loopFrames.delete(id);
      return caf.apply(window, arguments);
    };
  }
  // Loads that fetch/XHR do not show: script, stylesheet and preload
  // elements (a bundler's chunk before it runs; Vite's modulepreload ahead of
  // an import()) and frames, each from its insertion into the document until
  // its load or error event. An element that never fires either (a script
  // that is never run) keeps only the early rule from deciding.
  A.loading = new Set();
  A.lastLoadEnd = -1;    // when such a load, or a request seen in resource timing, last ended
  A.silentWorkers = new Set();  // workers started that have not answered yet
  const SCRIPT_TYPE = /^$|javascript|ecmascript|^module$/i;
  const PRELOAD_AS = /^(script|style|fetch|document)$/i;
  const loads = (el) => {
    switch (el.tagName) {
      case "SCRIPT":
        return el.hasAttribute("src") && !el.noModule && SCRIPT_TYPE.test(el.type.trim());
      case "LINK": {
        const rel = el.rel.toLowerCase().split(/\s+/);
        return el.hasAttribute("href") && (rel.includes("stylesheet") ||
          rel.includes("modulepreload") || (rel.includes("preload") && PRELOAD_AS.test(el.as)));
      }
      case "IFRAME": {
        // A frame without a source is loaded at once, before this sees it.
        const src = (el.getAttribute("src") || "").trim();
        return src !== "" && !/^(about|javascript):/i.test(src) &&
          !el.hasAttribute("srcdoc") && el.loading !== "lazy";
      }
      default:
        return false;
    }
  };
  const ended = (event) => {
    if (A.loading.delete(event.target)) A.lastLoadEnd = now();
  };
  // A load event does not reach the window: listen on the document.
  document.addEventListener("load", ended, true);
  document.addEventListener("error", ended, true);
  const inserted = (node) => {
    if (node.nodeType !== 1) return;
    if (loads(node)) A.loading.add(node);
    if (node.firstElementChild) {
      for (const el of node.querySelectorAll("script[src], link[href], iframe"))
        if (loads(el)) A.loading.add(el);
    }
  };
  new MutationObserver((records) => {
    A.lastChange = now();
    for (const record of records) for (const node of record.addedNodes) inserted(node);
  }).observe(document, { subtree: true, childList: true });
  // What an element's events do not cover (an import() of a module, a
  // stylesheet's @import): stamped when the resource timing entry arrives.
  const TIMED = new Set(["script", "link", "css", "iframe"]);
  const workerScripts = new Map();  // a script URL -> the silent workers started from it
  const INERT = /\.(woff2?|ttf|otf|eot|png|jpe?g|gif|webp|avif|svg|ico|mp4|webm|mp3)(\?|#|$)/i;
  if (window.PerformanceObserver) {
    try {
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
          for (const worker of workerScripts.get(entry.name) || [])
            if (worker.loaded < 0) worker.loaded = entry.responseEnd || now();
          if (!TIMED.has(entry.initiatorType)) continue;
          if (INERT.test(entry.name)) continue;
          if (entry.initiatorType === "css" && !/\.css(\?|#|$)/i.test(entry.name)) continue;
          A.lastLoadEnd = Math.max(A.lastLoadEnd, entry.responseEnd || now());
        }
      }).observe({ type: "resource" });
    } catch (e) {}
  }
  // A worker (pdf.js) loads and works out of the page's sight: count it busy
  // until it first answers, and each answer as a response. A worker the page
  // has not asked anything (no postMessage) once its script has loaded (its
  // resource timing entry) and run for `settleMs` without answering is idle:
  // a search index's worker waits for a search that never comes, and counting
  // it kept every page of a VuePress theme off the early rule. A script from
  // a blob: or data: URL has no timing entry: such a worker is loaded at once.
  const Worker0 = window.Worker;
  if (Worker0) {
    window.Worker = new Proxy(Worker0, {
      construct(target, args, newTarget) {
        const worker = Reflect.construct(target, args, newTarget);
        let url = "";
        try { url = new URL(String(args[0]), location.href).href; } catch (e) {}
        const state = { loaded: /^(blob|data):/i.test(url) ? now() : -1, asked: false };
        A.silentWorkers.add(state);
        if (url && state.loaded < 0) {
          if (!workerScripts.has(url)) workerScripts.set(url, new Set());
          workerScripts.get(url).add(state);
        }
        const heard = () => {
          A.silentWorkers.delete(state);
          if (workerScripts.has(url)) workerScripts.get(url).delete(state);
          A.lastLoadEnd = now();
        };
        worker.addEventListener("message", heard);
        worker.addEventListener("error", heard);
        const post = worker.postMessage;
        worker.postMessage = function () {
          state.asked = true;
          return post.apply(this, arguments);
        };
        return worker;
      },
    });
  }
  // Why the page is not settled ("" when it is): pending work that can still
  // change the DOM within the next `horizonMs` (a timer due later is not
  // waited for: the caller would not wait that long anyway; nor is one whose
  // call site is in `quiet`, a Set), or a response or load that ended less
  // than `settleMs` ago.
  A.busy = (settleMs, horizonMs, quiet) => {
    const t = now();
    if (document.readyState !== "complete") return "loading";
    if (A.pendingAll > 0) return "requests";
    if (A.lastAnyResponse >= 0 && t - A.lastAnyResponse < settleMs) return "response";
    for (const el of A.loading) if (!el.isConnected) A.loading.delete(el);
    if (A.loading.size > 0) return "loads";
    if (A.lastLoadEnd >= 0 && t - A.lastLoadEnd < settleMs) return "loaded";
    for (const w of A.silentWorkers)
      if (w.asked || w.loaded < 0 || t - w.loaded < settleMs) return "workers";
    for (const [due, site] of A.timers.values())
      if (due <= t + horizonMs && !(quiet && quiet.has(site))) return "timers";
    if (A.frames.size > 0) return "frames";
    if (A.loopFrames.size > 0 && A.lastChange >= 0 && t - A.lastChange < settleMs) return "frames";
    return "";
  };
})();
"""
"""Init script (runs before any page script): the page's pending work (fetch/XHR
in flight, short timers, animation frames) in ``window.__pwAdaptive``."""

READY_FUNCTION = r"""
({ quietMs, graceMs, capMs, settleMs, quietTimers }) => new Promise((resolve) => {
  const A = window.__pwAdaptive || {};
  const quiet = new Set(quietTimers || []);
  const later = A.setTimeout || ((fn, ms) => setTimeout(fn, ms));
  const W = { t0: performance.now(), lastChange: -1 };
  W.observer = new MutationObserver(() => { W.lastChange = performance.now(); });
  W.observer.observe(document, { subtree: true, childList: true, characterData: true });
  // Without a single script nothing can change the DOM: no grace needed.
  const grace = document.scripts.length === 0 ? 0 : graceMs;
  const deadline = performance.now() + capMs;
  let lastTick = performance.now();
  const tick = () => {
    const now = performance.now();
    const onTime = now - lastTick < 100;  // the page's thread is not busy
    lastTick = now;
    // A response that just arrived is activity too: its data is rendered a few tasks later.
    // Data that arrived while the DOM has not changed yet is about to be rendered
    // (often after a client-side delay): wait twice as long for it.
    const lastResponse = A.lastResponse === undefined ? -1 : A.lastResponse;
    const settled = (window_) => document.readyState === "complete" &&
      !(A.pending > 0) && !(lastResponse >= 0 && now - lastResponse < window_);
    const since = W.lastChange >= 0 ? W.lastChange : W.t0;
    // When the rules above would decide at the latest, if nothing changed meanwhile.
    const due = (W.lastChange >= 0 ? W.lastChange + quietMs : W.t0 + grace) + 2 * 40;
    let verdict = null;
    if (W.lastChange >= 0 && now - W.lastChange >= quietMs && settled(quietMs)) verdict = "quiet";
    else if (W.lastChange < 0 && now - W.t0 >= grace && settled(2 * quietMs)) verdict = "static";
    else if (settleMs > 0 && A.busy && onTime && now - since >= settleMs &&
             A.busy(settleMs, Math.max(0, due - now), quiet) === "")
      verdict = W.lastChange >= 0 ? "quiet" : "static";
    else if (now >= deadline) verdict = "cap";
    if (!verdict) { later(tick, 40); return; }
    W.observer.disconnect();
    // Each timer that ran while the page was awaited, and whether an element
    // or text node was added or removed since it ran (its own rendering comes
    // in the same task or the next few).
    const timers = (A.fired || []).map(([site, when]) => [site, A.lastChange >= when]);
    resolve({ verdict, timers });
  };
  tick();
})
"""
"""Function evaluated after DOMContentLoaded; resolves to ``{verdict, timers}``:
quiet, static or cap, and each short timer that ran with whether the content
changed after it (for :class:`QuietTimers`)."""

_SETTLED_FUNCTION = r"""
([settleMs, horizonMs]) => window.__pwAdaptive && window.__pwAdaptive.busy
  ? window.__pwAdaptive.busy(settleMs, horizonMs) : "unknown"
"""

_CONTEXT_GONE = ("Execution context was destroyed", "navigation", "Cannot find context")


async def wait_for_next_document(page: Page, timeout_s: float) -> bool:
    """After ``page``'s document went away under a call ("Execution context was
    destroyed"), wait until a document is there again and parsed; False when
    none came within ``timeout_s``.

    Not ``wait_for_load_state``: Chromium can drop the old document's context
    before the new document commits (a navigation to another site, or one
    that fails and ends on an error page), and the load state still answers
    for the old document until then, at once. A function wait is run again
    in each new context, so it ends only in a document that exists."""
    try:
        await page.wait_for_function(
            "() => document.readyState !== 'loading'", polling=50, timeout=timeout_s * 1000
        )
    except Exception:  # none in time, or the page closed
        return False
    return True


async def settled(page: Page, settle_ms: int, horizon_ms: int) -> bool:
    """Whether nothing that could change ``page`` within ``horizon_ms`` is pending
    (see the module doc): no load of the page unfinished or finished within
    ``settle_ms``, and the page's own pending work (timers due within the
    horizon, frames, fetch/XHR) done."""
    try:
        busy = await page.evaluate(_SETTLED_FUNCTION, [settle_ms, horizon_ms])
        return bool(busy == "")
    except Exception:
        return False


TIMER_EVIDENCE = 3
"""Pages of a host on which a timer's call site must have run without the
content changing after it, and none with, before the early rule stops
waiting for it on the host's later pages (:class:`QuietTimers`)."""

TIMER_RECHECK = 10
"""Every this many pages of a host, the ready wait waits for the host's quiet
timers as for any other, to see whether they still change nothing
(:class:`QuietTimers`)."""

_MAX_SITES_PER_HOST = 1000
"""Timer call sites remembered per host at most (a page that makes up new
script URLs for ever must not grow the memory)."""


@dataclass
class _TimerSite:
    quiet_pages: set[str] = field(default_factory=set)
    changed: bool = False


class QuietTimers:
    """Short timers that a site's pages set and that never change their content.

    The early rule waits for every short timer due before the quiet rule would
    decide: its callback may render the page. Some never do. VitePress's
    sidebar sets one of 300 ms on every page to turn its transitions back on
    after mounting (a class, no content), so every page of bnbu-handbook
    waited about 0.2 s longer than its loads and content needed. A timer is
    named by its delay and its caller's frame in the site's script (URL,
    line and column: the same on every page of one build); once
    :data:`TIMER_EVIDENCE` pages of a host saw it run with no element or
    text node added or removed after it, and no page saw it followed by a
    change, the early rule no longer waits for it on that host. A timer no
    longer waited for mostly runs after the page was read, unseen, so every
    :data:`TIMER_RECHECK`-th page of the host waits for them all again:
    a change after one there (a timer of the theme that renders a widget
    on some pages only) ends its quiet standing for the crawl, as any
    change after it on a page that waited for it does. The quiet and static
    windows still apply to every page. One instance serves a crawl, shared
    by its renderers (as ``ClickMemory`` is); pure Python."""

    def __init__(self) -> None:
        self._hosts: dict[str, dict[str, _TimerSite]] = {}
        self._asked: dict[str, int] = {}

    def for_page(self, url: str) -> list[str]:
        """The call sites not to wait for on the page at ``url`` about to be
        awaited: :meth:`quiet`, but none on every :data:`TIMER_RECHECK`-th
        page of the host."""
        host = rule_host(url)
        asked = self._asked[host] = self._asked.get(host, 0) + 1
        return [] if asked % TIMER_RECHECK == 0 else self.quiet(url)

    def quiet(self, url: str) -> list[str]:
        """The call sites of ``url``'s host known to change nothing."""
        sites = self._hosts.get(rule_host(url), {})
        return sorted(
            name
            for name, site in sites.items()
            if not site.changed and len(site.quiet_pages) >= TIMER_EVIDENCE
        )

    def learn(self, url: str, timers: Sequence[object]) -> None:
        """Record what the timers that ran on the page at ``url`` were followed
        by: ``[call site, changed]`` lists as the page reports them (anything
        else in ``timers`` teaches nothing)."""
        ran: dict[str, bool] = {}
        for item in timers:
            if isinstance(item, list) and len(item) == 2 and isinstance(item[0], str) and item[0]:
                ran[item[0]] = ran.get(item[0], False) or bool(item[1])
        if not ran:
            return
        sites = self._hosts.setdefault(rule_host(url), {})
        for name, changed in ran.items():
            site = sites.get(name)
            if site is None:
                if len(sites) >= _MAX_SITES_PER_HOST:
                    continue
                site = sites[name] = _TimerSite()
            if changed:
                site.changed = True
            elif len(site.quiet_pages) < TIMER_EVIDENCE:
                site.quiet_pages.add(url)


async def wait_until_ready(
    page: Page, settings: RenderSettings, timers: QuietTimers | None = None
) -> str:
    """Wait until ``page`` is ready (see the module doc); return how it ended.

    A client-side redirect during the wait (a new document) restarts detection
    on the new document, within the same cap. Never raises for a slow page:
    the cap is enforced in the page and again here (``"unresponsive"`` when the
    page did not answer by then). With ``timers``, the early rule does not wait
    for the timers it knows to be quiet on the page's host, and learns from
    the timers that ran on this page.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + settings.ready_cap_ms / 1000
    for _ in range(3):
        left_ms = max(0, int((deadline - loop.time()) * 1000))
        args = {
            "quietMs": settings.quiet_ms,
            "graceMs": min(settings.grace_ms, left_ms),
            "capMs": left_ms,
            "settleMs": settings.settle_ms,
            "quietTimers": timers.for_page(page.url) if timers is not None else [],
        }
        try:
            outcome = await asyncio.wait_for(
                page.evaluate(READY_FUNCTION, args), timeout=left_ms / 1000 + 2.0
            )
            ran = outcome.get("timers")
            if timers is not None and isinstance(ran, list):
                timers.learn(page.url, ran)
            return str(outcome["verdict"])
        except TimeoutError:
            return "unresponsive"
        except Exception as exc:
            if not any(marker in str(exc) for marker in _CONTEXT_GONE):
                raise
            # The document was replaced (location.href = ...): wait for the new one.
            if not await wait_for_next_document(page, max(0.1, deadline - loop.time())):
                return "cap"
    return "cap"
