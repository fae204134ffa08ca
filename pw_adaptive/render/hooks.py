"""Guards installed on every page the renderer opens.

* Requests: images, fonts and media not loaded (``block_resources``: by
  Chromium itself when ``launch_browser`` started it with ``BLOCKING_ARGS``,
  else aborted by a route); with ``block_third_party``, subresources of other
  sites aborted; in a page "armed" for a click (``arm``), main-frame
  navigations recorded and cancelled (the target URL is all click
  exploration needs). Without any of these, no route is installed: a route
  pauses every request of the page for Python.
* Dialogs (alert, confirm, prompt) dismissed; beforeunload's "Leave this
  page?" accepted (a reused page goes on to the next URL).
* Downloads cancelled (contexts the renderer creates refuse them anyway).
* Popups recorded and closed.
* The page's pending work (requests, short timers, animation frames) tracked
  for ready detection (``ready.py``).

Handlers never raise: a page closed under a pending handler is not an error.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from playwright.async_api import Dialog, Download, Page, Request, Route

from pw_adaptive.render.browser import blocks_resources
from pw_adaptive.render.ready import ACTIVITY_SCRIPT
from pw_adaptive.render.records import RenderSettings

__all__ = [
    "BLOCKED_RESOURCE_TYPES",
    "PageState",
    "arm",
    "close_quietly",
    "consume_error",
    "prepare_page",
    "same_site",
    "site_of",
]

BLOCKED_RESOURCE_TYPES = frozenset({"image", "font", "media"})
"""Playwright resource types aborted when ``RenderSettings.block_resources`` is on."""

# Second-level labels under which registrations happen at the third level
# (example.ac.uk, example.edu.au, example.co.jp): a small stand-in for the Public
# Suffix List, enough to tell a university's own hosts from a CDN's.
_GENERIC_SECOND_LEVEL = frozenset({"ac", "co", "com", "edu", "gov", "net", "org", "or", "ne", "go"})

CLOSE_TIMEOUT_S = 5.0
"""Longest wait for Chromium to close a page before giving up on it."""


def site_of(host: str) -> str:
    """The registrable part of ``host`` (approximate): ``www.ox.ac.uk`` -> ``ox.ac.uk``,
    ``apply.example.edu`` -> ``example.edu``; IP addresses and single labels unchanged."""
    host = host.lower().rstrip(".")
    try:
        ipaddress.ip_address(host.strip("[]"))
        return host
    except ValueError:
        pass
    labels = host.split(".")
    keep = 2
    if len(labels) >= 3 and len(labels[-1]) == 2 and labels[-2] in _GENERIC_SECOND_LEVEL:
        keep = 3
    return ".".join(labels[-keep:])


def same_site(url: str, other: str) -> bool:
    """Whether two URLs belong to the same site (see ``site_of``); non-http URLs
    (``data:``, ``blob:``, ``about:``) count as same-site."""
    a, b = urlsplit(url), urlsplit(other)
    if a.scheme not in ("http", "https") or b.scheme not in ("http", "https"):
        return True
    return site_of(a.hostname or "") == site_of(b.hostname or "")


@dataclass
class PageState:
    """Mutable per-page bookkeeping shared with the page's event handlers."""

    url: str
    """The URL the page was opened for (the site of last resort for third-party checks)."""
    armed: bool = False
    """When True, main-frame navigations are recorded in ``navigations`` and aborted."""
    navigations: list[str] = field(default_factory=list)
    """Main-frame navigation targets seen while armed."""
    popups: list[str] = field(default_factory=list)
    """URLs of popups the page opened (all closed)."""
    downloads: list[str] = field(default_factory=list)
    """URLs of downloads the page started (all cancelled)."""
    route: Callable[[Route, Request], Awaitable[None]] | None = None
    """The page's route handler (``prepare_page``), installed on first need."""
    routed: bool = False
    """Whether ``route`` is installed on the page."""

    def reset(self, url: str) -> None:
        """Start over for ``url``, the next document of the same page (the
        renderer reuses pages): the handlers and the route stay installed."""
        self.url = url
        self.armed = False
        self.navigations.clear()
        self.popups.clear()
        self.downloads.clear()


async def prepare_page(page: Page, settings: RenderSettings, state: PageState) -> None:
    """Install the guards of the module doc on a fresh ``page``; call before ``goto``."""

    async def on_dialog(dialog: Dialog) -> None:
        with contextlib.suppress(Exception):
            # "Leave this page?" is answered yes: the renderer goes on to the
            # next URL in the same page, and a page that asks must not keep it.
            if dialog.type == "beforeunload":
                await dialog.accept()
            else:
                await dialog.dismiss()

    async def on_download(download: Download) -> None:
        state.downloads.append(download.url)
        with contextlib.suppress(Exception):
            await download.cancel()

    async def on_popup(popup: Page) -> None:
        state.popups.append(popup.url)
        await close_quietly(popup)

    async def on_route(route: Route, request: Request) -> None:
        try:
            if _is_main_navigation(page, request):
                if state.armed:
                    state.navigations.append(request.url)
                    # "aborted" cancels the navigation as a user's Stop would:
                    # no error page replaces the document, so the scratch copy
                    # can serve the next click.
                    await route.abort("aborted")
                    return
            elif settings.block_resources and request.resource_type in BLOCKED_RESOURCE_TYPES:
                await route.abort()
                return
            elif settings.block_third_party:
                page_url = page.main_frame.url
                if not page_url.startswith("http"):
                    page_url = state.url
                if not same_site(request.url, page_url):
                    await route.abort()
                    return
            await route.fallback()
        except Exception:  # the page closed meanwhile, or the route was handled
            pass

    page.on("dialog", on_dialog)
    page.on("download", on_download)
    page.on("popup", on_popup)
    state.route = on_route
    await page.add_init_script(script=ACTIVITY_SCRIPT)
    native = blocks_resources(page.context.browser)
    if settings.block_third_party or (settings.block_resources and not native):
        await page.route("**/*", on_route)
        state.routed = True


async def arm(page: Page, state: PageState) -> None:
    """From now on, record and cancel ``page``'s main-frame navigations
    (``state.navigations``); installs the page's route if it has none yet."""
    if not state.routed and state.route is not None:
        await page.route("**/*", state.route)
        state.routed = True
    state.armed = True


def _is_main_navigation(page: Page, request: Request) -> bool:
    try:
        return request.is_navigation_request() and request.frame == page.main_frame
    except Exception:  # service-worker requests have no frame
        return False


def consume_error(future: asyncio.Future[Any]) -> None:
    """A done callback for work nobody awaits (a spare page opened ahead, a
    request failed on a page's behalf): its error, if any, is retrieved, so
    that asyncio does not log it as never retrieved."""
    if not future.cancelled():
        future.exception()


async def close_quietly(page: Page) -> None:
    """Close ``page`` without running beforeunload handlers; ignore a page already gone."""
    # Bounded: a page cancelled in the middle of a navigation can leave
    # Playwright waiting for a close acknowledgement that never comes.
    with contextlib.suppress(Exception):
        await asyncio.wait_for(page.close(run_before_unload=False), CLOSE_TIMEOUT_S)
