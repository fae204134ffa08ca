"""The renderer: the only package of pw_adaptive that imports Playwright.

``PlaywrightRenderer(browser_or_context, settings).render(url)`` returns a
``RenderedPage``: final URL, status, title, headings, markdown of the main
content, links (visible text, accessible name, region, card heading,
visibility, found by click), attachments, canonical URL and redirect chain.
"""

from pw_adaptive.render.browser import (
    BrowserClosedError,
    BrowserNotFoundError,
    browser_args,
    find_chromium,
    launch_browser,
)
from pw_adaptive.render.page import PlaywrightRenderer, open_renderer
from pw_adaptive.render.records import Attachment, RenderedPage, Renderer, RenderSettings

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
