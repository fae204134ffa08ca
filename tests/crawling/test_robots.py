from __future__ import annotations

import pytest

from pw_adaptive.crawling.robots import MAX_CRAWL_DELAY, MAX_ROBOTS_BYTES, RobotsPolicy, robots_url

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


@pytest.mark.parametrize("status", [400, 401, 403, 404, 410, 451])
def test_every_4xx_means_no_robots_txt(status: int) -> None:
    # RFC 9309 2.3.1.3: "unavailable" (400-499): the crawler may access anything,
    # even when the error page happens to look like robots rules.
    policy = RobotsPolicy.from_response(status, b"User-agent: *\nDisallow: /\n")
    assert policy.allows("https://u.example/private/x")
    assert policy.crawl_delay() == 0.0


@pytest.mark.parametrize("status", [500, 502, 503, 504, 599, None])
def test_5xx_or_no_answer_means_stay_out(status: int | None) -> None:
    # RFC 9309 2.3.1.4: "unreachable": the crawler must assume complete disallow.
    policy = RobotsPolicy.from_response(status, b"")
    assert not policy.allows("https://u.example/")
    assert not policy.allows("https://u.example/housing")


TIES = """
User-agent: *
Disallow: /page
Allow: /page
Disallow: /a/*.php$
Allow: /a/ok
Allow: /folder/
Disallow: /folder
Disallow: /*.pdf$
"""


@pytest.mark.parametrize(
    ("path", "allowed"),
    [
        pytest.param("/page", True, id="tie-allow-wins"),
        pytest.param("/pages", True, id="tie-allow-wins-longer-path"),
        pytest.param("/a/x.php", False, id="wildcard-and-end-anchor"),
        pytest.param("/a/x.php?q=1", True, id="end-anchor-is-end-of-url"),
        pytest.param("/a/ok.php", False, id="longer-disallow-beats-shorter-allow"),
        pytest.param("/a/ok", True, id="allow-longer-than-nothing"),
        pytest.param("/folder/x", True, id="longer-allow-beats-shorter-disallow"),
        pytest.param("/folder", False, id="exact-disallow"),
        pytest.param("/docs/fees.pdf", False, id="suffix-pattern"),
        pytest.param("/docs/fees.pdf.html", True, id="suffix-anchor-respected"),
    ],
)
def test_the_longest_match_wins_and_allow_wins_ties(path: str, allowed: bool) -> None:
    # RFC 9309 2.2.2: the most specific (longest) match wins; on equal
    # Allow and Disallow the crawler should use Allow.
    assert RobotsPolicy.from_response(200, TIES).allows("https://u.example" + path) is allowed


def test_user_agent_groups_match_case_insensitively() -> None:
    text = "User-agent: PW-Adaptive\nDisallow: /x\n\nUser-agent: *\nDisallow: /\n"
    policy = RobotsPolicy.from_response(200, text, "pw-adaptive")
    assert not policy.allows("https://u.example/x")
    assert policy.allows("https://u.example/y")


def test_robots_txt_itself_is_always_allowed() -> None:
    policy = RobotsPolicy.from_response(200, "User-agent: *\nDisallow: /\n")
    assert policy.allows("https://u.example/robots.txt")
    assert not policy.allows("https://u.example/index.html")


def test_only_the_first_500_kib_are_parsed() -> None:
    # RFC 9309 2.5: a parsing limit of at least 500 KiB; rules past it are ignored.
    filler = "# " + "x" * 1000 + "\n"
    body = "User-agent: *\n" + filler * 520 + "Disallow: /late\n"
    assert len(body.encode()) > MAX_ROBOTS_BYTES
    assert RobotsPolicy.from_response(200, body.encode()).allows("https://u.example/late")
    early = "User-agent: *\nDisallow: /early\n" + filler * 520
    assert not RobotsPolicy.from_response(200, early.encode()).allows("https://u.example/early")


@pytest.mark.parametrize(
    ("line", "delay"),
    [
        pytest.param("Crawl-delay: 0.5", 0.5, id="fraction"),
        pytest.param("Crawl-delay: 10", 10.0, id="at-cap"),
        pytest.param(f"Crawl-delay: {MAX_CRAWL_DELAY * 100:g}", MAX_CRAWL_DELAY, id="capped"),
        pytest.param("Crawl-delay: soon", 0.0, id="invalid-ignored"),
        pytest.param("", 0.0, id="unset"),
    ],
)
def test_crawl_delay_is_honoured_up_to_the_cap(line: str, delay: float) -> None:
    policy = RobotsPolicy.from_response(200, f"User-agent: *\nDisallow: /x\n{line}\n")
    assert policy.crawl_delay() == delay
