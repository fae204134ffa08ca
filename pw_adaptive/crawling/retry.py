"""Which failed page loads are tried again, when, and how often.

A page load fails with a *kind*: ``http_<status>`` for an HTTP error answer,
else the prefix of ``RenderedPage.error`` (``timeout``, ``crash``,
``browser_closed``, ``network``, ``redirect_loop``, ``download``, ...).
:class:`RetryPolicy` says which kinds are transient — HTTP 429 and the 5xx of
overloaded servers (500, 502, 503, 504), timeouts, renderer crashes and a
browser that went away — and :func:`render_with_retries` renders a URL again
after a pause until it succeeds, fails for good, or runs out of attempts:

* the pause is exponential with jitter: ``backoff_s * 2 ** (attempt - 1)``
  plus up to ``backoff_s`` of random jitter, at most ``backoff_max_s``
  (AWS Architecture Blog, "Exponential Backoff and Jitter", 2015);
* a ``Retry-After`` answer header (RFC 9110 section 10.2.3: delay-seconds or an
  HTTP-date) replaces that pause, capped at ``retry_after_cap_s`` so that a
  server asking for an hour cannot stall the crawl.

The loop itself is tenacity's; this module is pure (no browser).
"""

from __future__ import annotations

import asyncio
import email.utils
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from tenacity import (
    AsyncRetrying,
    RetryCallState,
    retry_if_result,
    stop_after_attempt,
    wait_exponential_jitter,
)

from pw_adaptive.pages import RenderedPage
from pw_adaptive.settings import CrawlSettings

__all__ = [
    "RETRYABLE_KINDS",
    "RETRYABLE_STATUSES",
    "FailureKind",
    "RetryPolicy",
    "failure_kind",
    "parse_retry_after",
    "render_with_retries",
]


class FailureKind:
    """The failure kinds the renderer and the crawler report (besides ``http_<status>``)."""

    TIMEOUT = "timeout"
    """Navigation or the whole render attempt took longer than its timeout
    (a slow server, a page that loads forever)."""
    UNRESPONSIVE = "unresponsive"
    """The page's script never yields (``for (;;) {}``): its own timers do not
    fire, so nothing can be read. Not retried: the same script spins again, and
    each attempt costs the ready cap and more."""
    CRASH = "crash"
    """The page's renderer process crashed or was killed."""
    BROWSER_CLOSED = "browser_closed"
    """The whole browser went away (crash, killed) while the page rendered."""
    NETWORK = "network"
    """A network error (``net::ERR_CONNECTION_REFUSED``, name not resolved, ...)."""
    REDIRECT_LOOP = "redirect_loop"
    """The redirects went round in a circle (or past Chromium's limit of 20)."""
    DOWNLOAD = "download"
    """The URL answered with a file to download, not a page."""
    LEFT_SCOPE = "left_scope"
    """A redirect or a script took the page to a URL out of the crawl's scope."""


RETRYABLE_STATUSES: frozenset[int] = frozenset(CrawlSettings.retry_statuses)
"""HTTP statuses of transient overload, the default of
``CrawlSettings.retry_statuses`` (RFC 9110 15.6: 502-504 are a gateway's or an
overloaded server's; RFC 6585: 429 too many requests; 500 is commonly a
transient crash in a portal's backend)."""

RETRYABLE_KINDS: frozenset[str] = frozenset(
    {FailureKind.TIMEOUT, FailureKind.CRASH, FailureKind.BROWSER_CLOSED}
)
"""Renderer failure kinds worth another attempt: the next one may well succeed."""


def failure_kind(page: RenderedPage) -> str | None:
    """The kind of failure of a rendered page, or None when it loaded fine.

    ``http_<status>`` for a page answered with status >= 400, else the part
    of ``page.error`` before its first colon (``"timeout: ..."`` -> ``timeout``).
    """
    if page.error is not None:
        head = page.error.split(":", 1)[0].strip().lower()
        return head.replace(" ", "_")[:40] or "error"
    if page.status is not None and page.status >= 400:
        return f"http_{page.status}"
    return None


def parse_retry_after(value: str, *, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header value, or None when unusable.

    Accepts delay-seconds (``"120"``) and an HTTP-date
    (``"Wed, 21 Oct 2026 07:28:00 GMT"``, measured from ``now``, a Unix time,
    default the current time). A date in the past gives 0; a negative or
    malformed value gives None.
    """
    value = value.strip()
    if not value:
        return None
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:  # RFC 9110: an HTTP-date is always UTC
        return None
    current = time.time() if now is None else now
    return max(0.0, when.timestamp() - current)


@dataclass(frozen=True)
class RetryPolicy:
    """Bounded retries with backoff for transient page failures (see the module doc)."""

    max_attempts: int = 3
    """Attempts per URL at most, the first one included (1: never retry)."""
    backoff_s: float = 1.0
    """Pause before the first retry; doubles with each further retry."""
    backoff_max_s: float = 30.0
    """Longest pause computed by the backoff."""
    retry_after_cap_s: float = 60.0
    """Longest pause a ``Retry-After`` header may ask for."""
    statuses: frozenset[int] = RETRYABLE_STATUSES
    """HTTP statuses that are retried."""
    kinds: frozenset[str] = RETRYABLE_KINDS
    """Renderer failure kinds that are retried."""

    def __post_init__(self) -> None:
        if self.max_attempts < 1:
            raise ValueError(f"max_attempts must be >= 1, got {self.max_attempts}")
        if self.backoff_s < 0 or self.backoff_max_s < 0 or self.retry_after_cap_s < 0:
            raise ValueError("backoff_s, backoff_max_s and retry_after_cap_s must be >= 0")

    def retryable(self, kind: str | None) -> bool:
        """Whether a failure of this kind is worth another attempt."""
        if kind is None:
            return False
        if kind.startswith("http_"):
            code = kind.removeprefix("http_")
            return code.isdigit() and int(code) in self.statuses
        return kind in self.kinds

    def pause(self, attempt: int, retry_after: str = "", *, now: float | None = None) -> float:
        """Seconds to wait after failed attempt number ``attempt`` (1-based).

        A usable ``Retry-After`` value wins, capped at ``retry_after_cap_s``;
        otherwise exponential backoff with jitter, capped at ``backoff_max_s``.
        """
        asked = parse_retry_after(retry_after, now=now)
        if asked is not None:
            return min(asked, self.retry_after_cap_s)
        backoff = wait_exponential_jitter(
            multiplier=self.backoff_s, max=self.backoff_max_s, exp_base=2, jitter=self.backoff_s
        )
        return float(backoff(_attempt_state(attempt)))


def _attempt_state(attempt: int) -> RetryCallState:
    state = RetryCallState(retry_object=AsyncRetrying(), fn=None, args=(), kwargs={})
    state.attempt_number = attempt
    return state


async def render_with_retries(
    render: Callable[[str], Awaitable[RenderedPage]],
    url: str,
    policy: RetryPolicy,
    *,
    on_retry: Callable[[str], None] | None = None,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
) -> RenderedPage:
    """Render ``url``, again after a pause while the failure is retryable and
    attempts are left; returns the last attempt's page (failed or not).

    ``on_retry(kind)`` is called for every failed attempt that is retried
    (the crawler counts them); exceptions of ``render`` are not retried.
    """

    def wait(state: RetryCallState) -> float:
        page: RenderedPage | None = state.outcome.result() if state.outcome else None
        return policy.pause(state.attempt_number, page.retry_after if page else "")

    def before_sleep(state: RetryCallState) -> None:
        page: RenderedPage | None = state.outcome.result() if state.outcome else None
        kind = failure_kind(page) if page is not None else None
        if on_retry is not None and kind is not None:
            on_retry(kind)

    def last_page(state: RetryCallState) -> RenderedPage:
        assert state.outcome is not None
        page: RenderedPage = state.outcome.result()
        return page

    retrying = AsyncRetrying(
        stop=stop_after_attempt(policy.max_attempts),
        wait=wait,
        retry=retry_if_result(lambda page: policy.retryable(failure_kind(page))),
        before_sleep=before_sleep,
        retry_error_callback=last_page,
        sleep=sleep,
        reraise=True,
    )
    page: RenderedPage = await retrying(render, url)
    return page
