"""The crawler's name: version, robots.txt token, default User-Agent."""

from __future__ import annotations

import re

from pw_adaptive.crawling.robots import RobotsPolicy
from pw_adaptive.identity import INFO_URL, ROBOTS_TOKEN, __version__, default_user_agent
from pw_adaptive.settings import CrawlSettings


def test_default_user_agent_names_the_crawler_and_keeps_chrome_tokens() -> None:
    ua = default_user_agent("156.0.8078.114")
    assert ua == (
        f"Mozilla/5.0 (compatible; pw-adaptive/{__version__}; +{INFO_URL}) "
        "AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36"
    )
    assert "Headless" not in ua


def test_unparsable_browser_version_drops_only_the_chrome_token() -> None:
    ua = default_user_agent("")
    assert "Chrome/" not in ua and f"pw-adaptive/{__version__}" in ua


def test_version_is_one_in_pyproject_and_package() -> None:
    import pw_adaptive

    assert pw_adaptive.__version__ == __version__
    assert re.fullmatch(r"\d+\.\d+\.\d+", __version__)


def test_robots_rules_for_the_product_token_apply() -> None:
    assert CrawlSettings().user_agent == ROBOTS_TOKEN == "pw-adaptive"
    robots = "User-agent: *\nAllow: /\n\nUser-agent: pw-adaptive\nDisallow: /private/\n"
    policy = RobotsPolicy.from_response(200, robots, CrawlSettings().user_agent)
    assert not policy.allows("http://h.example/private/x")
    assert policy.allows("http://h.example/public/")
