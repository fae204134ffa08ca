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
* never later than ``ready_cap_ms`` (pages that never stop mutating, requests
  that never end);
* ``"unresponsive"`` when the page's own timer did not even fire by the cap
  (plus 2 s of slack): a script that never yields (``for (;;) {}``) holds the
  page's only thread, and nothing more can be read from it.
"""

from __future__ import annotations

import asyncio

from playwright.async_api import Page

from pw_adaptive.render.records import RenderSettings

__all__ = ["PENDING_REQUESTS_SCRIPT", "READY_FUNCTION", "wait_until_ready"]

PENDING_REQUESTS_SCRIPT = r"""
(() => {
  if (window.__pwAdaptivePending !== undefined) return;
  window.__pwAdaptivePending = 0;
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
  window.__pwAdaptiveLastResponse = -1;
  const stamp = () => { window.__pwAdaptiveLastResponse = performance.now(); };
  const done = () => {
    window.__pwAdaptivePending = Math.max(0, window.__pwAdaptivePending - 1);
    stamp();
  };
  // Reading a body (res.json()) ends later than the fetch promise: stamp it too.
  const R = window.Response && window.Response.prototype;
  if (R) {
    for (const name of ["json", "text", "arrayBuffer", "blob", "formData"]) {
      const read = R[name];
      if (!read) continue;
      R[name] = function () {
        const p = read.apply(this, arguments);
        p.then(stamp, stamp);
        return p;
      };
    }
  }
  const origFetch = window.fetch;
  if (origFetch) {
    window.fetch = function (input, init) {
      const url = typeof input === "string" ? input : (input && input.url) || String(input);
      if (!counts(url)) return origFetch.apply(this, arguments);
      window.__pwAdaptivePending += 1;
      let p;
      try { p = origFetch.apply(this, arguments); } catch (e) { done(); throw e; }
      p.then(done, done);
      return p;
    };
  }
  const XHR = window.XMLHttpRequest;
  if (XHR) {
    const open = XHR.prototype.open, send = XHR.prototype.send;
    XHR.prototype.open = function (method, url) {
      this.__pwAdaptiveCounts = counts(String(url));
      return open.apply(this, arguments);
    };
    XHR.prototype.send = function () {
      if (this.__pwAdaptiveCounts) {
        window.__pwAdaptivePending += 1;
        this.addEventListener("loadend", done, { once: true });
      }
      return send.apply(this, arguments);
    };
  }
})();
"""
"""Init script (runs before any page script): counts same-site fetch/XHR in flight."""

READY_FUNCTION = r"""
({ quietMs, graceMs, capMs }) => new Promise((resolve) => {
  const t0 = performance.now();
  // Without a single script nothing can change the DOM: no grace needed.
  const grace = document.scripts.length === 0 ? 0 : graceMs;
  let lastChange = -1;
  const observer = new MutationObserver(() => { lastChange = performance.now(); });
  observer.observe(document, { subtree: true, childList: true, characterData: true });
  const tick = () => {
    const now = performance.now();
    // A response that just arrived is activity too: its data is rendered a few tasks later.
    // Data that arrived while the DOM has not changed yet is about to be rendered
    // (often after a client-side delay): wait twice as long for it.
    const lastResponse = window.__pwAdaptiveLastResponse;
    const settled = (window_) => document.readyState === "complete" &&
      !(window.__pwAdaptivePending > 0) && !(lastResponse >= 0 && now - lastResponse < window_);
    let verdict = null;
    if (lastChange >= 0 && now - lastChange >= quietMs && settled(quietMs)) verdict = "quiet";
    else if (lastChange < 0 && now - t0 >= grace && settled(2 * quietMs)) verdict = "static";
    else if (now - t0 >= capMs) verdict = "cap";
    if (verdict) { observer.disconnect(); resolve(verdict); } else setTimeout(tick, 40);
  };
  tick();
})
"""
"""Function evaluated after DOMContentLoaded; resolves to quiet, static or cap."""

_CONTEXT_GONE = ("Execution context was destroyed", "navigation", "Cannot find context")


async def wait_until_ready(page: Page, settings: RenderSettings) -> str:
    """Wait until ``page`` is ready (see the module doc); return how it ended.

    A client-side redirect during the wait (a new document) restarts detection
    on the new document, within the same cap. Never raises for a slow page: the
    cap is enforced in the page and again here (``"unresponsive"`` when the page
    did not answer by then).
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + settings.ready_cap_ms / 1000
    for _ in range(3):
        left_ms = max(0, int((deadline - loop.time()) * 1000))
        args = {
            "quietMs": settings.quiet_ms,
            "graceMs": min(settings.grace_ms, left_ms),
            "capMs": left_ms,
        }
        try:
            verdict = await asyncio.wait_for(
                page.evaluate(READY_FUNCTION, args), timeout=left_ms / 1000 + 2.0
            )
            return str(verdict)
        except TimeoutError:
            return "unresponsive"
        except Exception as exc:
            if not any(marker in str(exc) for marker in _CONTEXT_GONE):
                raise
            # The document was replaced (location.href = ...): wait for the new one.
            left_s = max(0.1, deadline - loop.time())
            try:
                await page.wait_for_load_state("domcontentloaded", timeout=left_s * 1000)
            except Exception:
                return "cap"
    return "cap"
