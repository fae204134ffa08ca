from __future__ import annotations

import pytest

from pw_adaptive.robots import MAX_CRAWL_DELAY, RobotsPolicy, robots_url

ROBOTS = """
User-agent: *
Disallow: /private/
Allow: /private/open/
Disallow: /search
Crawl-delay: 2

User-agent: pw-adaptive
Disallow: /no-bots/
Allow: /no-bots/welcome
"""


@pytest.mark.parametrize(
    ("status", "url", "allowed"),
    [
        pytest.param(404, "https://u.example/private/x", True, id="404-allows-all"),
        pytest.param(403, "https://u.example/private/x", True, id="403-allows-all"),
        pytest.param(503, "https://u.example/", False, id="5xx-disallows-all"),
        pytest.param(None, "https://u.example/", False, id="unreachable-disallows-all"),
    ],
)
def test_status_codes_follow_rfc_9309(status: int | None, url: str, allowed: bool) -> None:
    assert (
        RobotsPolicy.from_response(status, b"User-agent: *\nDisallow: /\n").allows(url) is allowed
    )


@pytest.mark.parametrize(
    ("agent", "url", "allowed"),
    [
        pytest.param("someone", "https://u.example/private/x", False, id="disallowed-prefix"),
        pytest.param("someone", "https://u.example/private/open/x", True, id="longest-match-wins"),
        pytest.param("someone", "https://u.example/search?q=x", False, id="query-urls"),
        pytest.param("someone", "https://u.example/housing", True, id="unlisted-allowed"),
        pytest.param("pw-adaptive", "https://u.example/no-bots/x", False, id="own-group"),
        pytest.param("pw-adaptive", "https://u.example/no-bots/welcome", True, id="own-allow"),
        pytest.param("pw-adaptive", "https://u.example/private/x", True, id="own-group-only"),
    ],
)
def test_rules_match_per_user_agent(agent: str, url: str, allowed: bool) -> None:
    assert RobotsPolicy.from_response(200, ROBOTS.encode(), agent).allows(url) is allowed


def test_crawl_delay_is_read_and_capped() -> None:
    assert RobotsPolicy.from_response(200, ROBOTS, "someone").crawl_delay() == 2.0
    huge = RobotsPolicy.from_response(200, "User-agent: *\nCrawl-delay: 3600\n", "x")
    assert huge.crawl_delay() == MAX_CRAWL_DELAY
    assert RobotsPolicy.from_response(404, b"", "x").crawl_delay() == 0.0


def test_robots_url_is_per_origin() -> None:
    assert robots_url("http://127.0.0.1:8000/a/b?c#/d") == "http://127.0.0.1:8000/robots.txt"
