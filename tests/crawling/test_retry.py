"""Retry policy: which failures are retried, backoff, Retry-After, bounded attempts."""

from __future__ import annotations

import asyncio
import email.utils

import pytest

from pw_adaptive.crawling.retry import (
    RetryPolicy,
    failure_kind,
    parse_retry_after,
    render_with_retries,
)
from pw_adaptive.pages import RenderedPage
from pw_adaptive.settings import CrawlSettings
from pw_adaptive.testing import make_page

NOW = 1_800_000_000.0  # a fixed Unix time for HTTP-date arithmetic


def page(
    url: str = "http://u.test/", *, status: int | None = 200, error: str | None = None, **kw: str
) -> RenderedPage:
    markdown = "ok" if error is None else ""
    return make_page(url, status=status, markdown=markdown, main_text="", error=error, **kw)


@pytest.mark.parametrize(
    ("rendered", "kind"),
    [
        (page(), None),
        (page(status=None), None),
        (page(status=503), "http_503"),
        (page(status=429), "http_429"),
        (page(status=404), "http_404"),
        (page(status=None, error="timeout: no page within 20 s"), "timeout"),
        (page(status=None, error="crash: Target crashed"), "crash"),
        (page(status=None, error="browser_closed: Target closed"), "browser_closed"),
        (page(status=None, error="redirect_loop: net::ERR_TOO_MANY_REDIRECTS"), "redirect_loop"),
        (page(status=None, error="download"), "download"),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_failure_kind(rendered: RenderedPage, kind: str | None) -> None:
    assert failure_kind(rendered) == kind


@pytest.mark.parametrize(
    ("kind", "retried"),
    [
        ("http_429", True),
        ("http_500", True),
        ("http_502", True),
        ("http_503", True),
        ("http_504", True),
        ("http_501", False),
        ("http_404", False),
        ("timeout", True),
        ("crash", True),
        ("browser_closed", True),
        ("redirect_loop", False),
        ("download", False),
        ("network", False),
        ("left_scope", False),
        (None, False),
    ],
)
def test_transient_failures_are_retryable_and_others_not(kind: str | None, retried: bool) -> None:
    assert RetryPolicy().retryable(kind) is retried


def test_retry_after_in_seconds_and_as_http_date() -> None:
    assert parse_retry_after("120") == 120.0
    assert parse_retry_after(" 0 ") == 0.0
    later = email.utils.formatdate(NOW + 90, usegmt=True)
    assert parse_retry_after(later, now=NOW) == pytest.approx(90.0)
    earlier = email.utils.formatdate(NOW - 90, usegmt=True)
    assert parse_retry_after(earlier, now=NOW) == 0.0


@pytest.mark.parametrize("value", ["", "soon", "-5", "1.5", "Wed, 99 Foo 2026 07:28:00 GMT"])
def test_unusable_retry_after_is_ignored(value: str) -> None:
    assert parse_retry_after(value, now=NOW) is None


def test_retry_after_is_honoured_but_capped() -> None:
    policy = RetryPolicy(backoff_s=1.0, retry_after_cap_s=10.0)
    assert policy.pause(1, "3") == 3.0
    assert policy.pause(1, "3600") == 10.0
    an_hour_later = email.utils.formatdate(NOW + 3600, usegmt=True)
    assert policy.pause(1, an_hour_later, now=NOW) == 10.0


def test_backoff_doubles_with_jitter_and_is_capped() -> None:
    policy = RetryPolicy(backoff_s=1.0, backoff_max_s=5.0)
    for attempt, base in ((1, 1.0), (2, 2.0), (3, 4.0)):
        pauses = [policy.pause(attempt) for _ in range(50)]
        assert all(base <= p <= base + 1.0 for p in pauses), (attempt, pauses)
        assert len(set(pauses)) > 1, "jitter spreads the pauses"
    assert all(policy.pause(10) <= 5.0 for _ in range(20))


def test_policy_rejects_nonsense() -> None:
    with pytest.raises(ValueError):
        RetryPolicy(max_attempts=0)
    with pytest.raises(ValueError):
        RetryPolicy(backoff_s=-1)
    with pytest.raises(ValueError):
        CrawlSettings(retry_attempts=0)
    with pytest.raises(ValueError):
        CrawlSettings(retry_after_cap_s=-1)


class Script:
    """A fake renderer answering from a list of pages, recording calls and sleeps."""

    def __init__(self, *pages: RenderedPage) -> None:
        self.pages = list(pages)
        self.calls = 0
        self.sleeps: list[float] = []

    async def render(self, url: str) -> RenderedPage:
        self.calls += 1
        return self.pages[min(self.calls, len(self.pages)) - 1]

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)


def run(script: Script, policy: RetryPolicy, retried: list[str]) -> RenderedPage:
    return asyncio.run(
        render_with_retries(
            script.render, "http://u.test/", policy, on_retry=retried.append, sleep=script.sleep
        )
    )


def test_transient_failures_are_retried_until_success() -> None:
    script = Script(page(status=503), page(error="crash: Target crashed", status=None), page())
    retried: list[str] = []
    result = run(script, RetryPolicy(max_attempts=5, backoff_s=0.5), retried)
    assert result.error is None and result.status == 200
    assert script.calls == 3
    assert retried == ["http_503", "crash"]
    assert len(script.sleeps) == 2
    assert 0.5 <= script.sleeps[0] <= 1.0 and 1.0 <= script.sleeps[1] <= 1.5


def test_attempts_are_bounded_and_the_last_failure_is_returned() -> None:
    script = Script(page(status=500))
    retried: list[str] = []
    result = run(script, RetryPolicy(max_attempts=3, backoff_s=0.0), retried)
    assert result.status == 500
    assert script.calls == 3
    assert retried == ["http_500", "http_500"]


def test_429_waits_as_long_as_retry_after_says_within_the_cap() -> None:
    script = Script(page(status=429, retry_after="7"), page(status=429, retry_after="999"), page())
    run(script, RetryPolicy(max_attempts=3, backoff_s=0.1, retry_after_cap_s=20.0), [])
    assert script.sleeps == [7.0, 20.0]


@pytest.mark.parametrize(
    "failed",
    [
        page(status=404),
        page(status=None, error="redirect_loop: net::ERR_TOO_MANY_REDIRECTS"),
        page(status=None, error="download"),
    ],
    ids=["http_404", "redirect_loop", "download"],
)
def test_permanent_failures_are_not_retried(failed: RenderedPage) -> None:
    script = Script(failed, page())
    retried: list[str] = []
    assert run(script, RetryPolicy(max_attempts=5), retried) is failed
    assert script.calls == 1 and not retried and not script.sleeps


def test_a_single_attempt_policy_never_retries() -> None:
    script = Script(page(status=503), page())
    assert run(script, RetryPolicy(max_attempts=1), []).status == 503
    assert script.calls == 1
