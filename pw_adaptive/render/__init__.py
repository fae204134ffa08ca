"""The renderer: the only package of pw_adaptive that imports Playwright.

``PlaywrightRenderer(browser_or_context, settings).render(url)`` returns a
``RenderedPage``: final URL, status, title, headings, markdown of the main
content, links (visible text, accessible name, region, card heading,
visibility, found by click), attachments, canonical URL and redirect chain.

The names below are imported on first use (PEP 562), so that importing a
Playwright-free module of this package (``render.records``: the settings)
does not load Playwright.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pw_adaptive._lazy import lazy_names

if TYPE_CHECKING:
    from pw_adaptive.pages import Attachment, RenderedPage, Renderer
    from pw_adaptive.render.browser import (
        BrowserClosedError,
        BrowserNotFoundError,
        browser_args,
        find_chromium,
        launch_browser,
    )
    from pw_adaptive.render.page import PlaywrightRenderer, open_renderer
    from pw_adaptive.render.records import RenderSettings

__all__ = [
    "Attachment",
    "BrowserClosedError",
    "BrowserNotFoundError",
    "PlaywrightRenderer",
    "RenderSettings",
    "RenderedPage",
    "Renderer",
    "browser_args",
    "find_chromium",
    "launch_browser",
    "open_renderer",
]

_HOMES = {
    "Attachment": "pw_adaptive.pages",
    "RenderedPage": "pw_adaptive.pages",
    "Renderer": "pw_adaptive.pages",
    "BrowserClosedError": "pw_adaptive.render.browser",
    "BrowserNotFoundError": "pw_adaptive.render.browser",
    "browser_args": "pw_adaptive.render.browser",
    "find_chromium": "pw_adaptive.render.browser",
    "launch_browser": "pw_adaptive.render.browser",
    "PlaywrightRenderer": "pw_adaptive.render.page",
    "open_renderer": "pw_adaptive.render.page",
    "RenderSettings": "pw_adaptive.render.records",
}
"""Where each public name is defined."""


__getattr__, __dir__ = lazy_names(globals(), _HOMES)
