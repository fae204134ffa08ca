"""Plain HTTP fetches (robots.txt, attachments) through the browser context.

Going through Playwright's ``APIRequestContext`` keeps one network identity
for the crawl: the same proxy, cookies and host-resolver rules as the pages.
With a private-address guard (``pw_adaptive.netguard``) redirects are
followed hop by hop and every hop is checked before it is requested.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from playwright.async_api import APIResponse, BrowserContext
from playwright.async_api import Error as PlaywrightError

from pw_adaptive.netguard import NetGuard
from pw_adaptive.pages import Fetcher, FetchResult
from pw_adaptive.render.guard import redirect_target

# FetchResult and the Fetcher protocol live in pw_adaptive.pages; re-exported.
__all__ = ["MAX_FETCH_REDIRECTS", "FetchResult", "Fetcher", "PlaywrightFetcher"]

MAX_FETCH_REDIRECTS = 5
"""Redirects followed for robots.txt and attachments (RFC 9309 2.3.1.2: at
least five for robots.txt)."""


class PlaywrightFetcher:
    """:class:`Fetcher` over a Playwright ``BrowserContext``'s request API.

    ``context`` may also be a coroutine function returning the context to use
    (``PlaywrightRenderer.context``): fetches then follow the renderer into its
    new context after a browser relaunch."""

    def __init__(
        self,
        context: BrowserContext | Callable[[], Awaitable[BrowserContext]],
        *,
        timeout_s: float = 15.0,
        guard: NetGuard | None = None,
    ) -> None:
        self._context = context
        self._timeout_ms = timeout_s * 1000
        self._guard = guard

    async def _current(self) -> BrowserContext:
        context = self._context
        return context if isinstance(context, BrowserContext) else await context()

    async def _get(self, url: str) -> APIResponse | str:
        """GET ``url`` following up to ``MAX_FETCH_REDIRECTS`` redirects; with a
        guard, hop by hop, and the guard's reason (a string) for a blocked hop."""
        if self._guard is None:
            return await (await self._current()).request.get(
                url,
                timeout=self._timeout_ms,
                max_redirects=MAX_FETCH_REDIRECTS,
                fail_on_status_code=False,
            )
        for _hop in range(MAX_FETCH_REDIRECTS + 1):
            blocked = await self._guard.check(url)
            if blocked is not None:
                return blocked
            response = await (await self._current()).request.get(
                url, timeout=self._timeout_ms, max_redirects=0, fail_on_status_code=False
            )
            target = redirect_target(url, response)
            if target is None:
                return response
            await response.dispose()
            url = target
        return "too_many_redirects"

    async def fetch(self, url: str, *, max_bytes: int) -> FetchResult:
        try:
            response = await self._get(url)
            if isinstance(response, str):
                return FetchResult(url, None, error=response)
        except PlaywrightError as exc:
            return FetchResult(url, None, error=f"fetch: {str(exc).splitlines()[0][:200]}")
        url = response.url or url  # where the redirects, if any, ended
        try:
            content_type = response.headers.get("content-type", "")
            declared = response.headers.get("content-length")
            if declared is not None and declared.isdigit() and int(declared) > max_bytes:
                return FetchResult(url, response.status, content_type, error="too_large")
            body = await response.body()
            if len(body) > max_bytes:
                return FetchResult(url, response.status, content_type, error="too_large")
            if response.status >= 400:
                return FetchResult(
                    url, response.status, content_type, body, f"http_{response.status}"
                )
            return FetchResult(url, response.status, content_type, body)
        except PlaywrightError as exc:
            return FetchResult(
                url, response.status, error=f"fetch: {str(exc).splitlines()[0][:200]}"
            )
        finally:
            await response.dispose()
