"""Plain HTTP fetches (robots.txt, attachments) through the browser context.

Going through Playwright's ``APIRequestContext`` keeps one network identity
for the crawl: the same proxy, cookies and host-resolver rules as the pages.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from playwright.async_api import BrowserContext
from playwright.async_api import Error as PlaywrightError


@dataclass(frozen=True)
class FetchResult:
    """The outcome of one fetch: a status and body, or an error kind."""

    url: str
    status: int | None
    content_type: str = ""
    body: bytes = b""
    error: str | None = None


class Fetcher(Protocol):
    """Fetches a URL without rendering it."""

    async def fetch(self, url: str, *, max_bytes: int) -> FetchResult: ...


class PlaywrightFetcher:
    """:class:`Fetcher` over a Playwright ``BrowserContext``'s request API."""

    def __init__(self, context: BrowserContext, *, timeout_s: float = 15.0) -> None:
        self._context = context
        self._timeout_ms = timeout_s * 1000

    async def fetch(self, url: str, *, max_bytes: int) -> FetchResult:
        try:
            response = await self._context.request.get(
                url, timeout=self._timeout_ms, max_redirects=5, fail_on_status_code=False
            )
        except PlaywrightError as exc:
            return FetchResult(url, None, error=f"fetch: {str(exc).splitlines()[0][:200]}")
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
