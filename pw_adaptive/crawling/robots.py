"""robots.txt per RFC 9309, parsed by protego.

Fetching is the caller's job (the crawler fetches through the browser
context); this module turns what came back into a policy:

* 2xx: the rules apply (longest match wins, Allow beats Disallow on a tie:
  protego implements RFC 9309 matching);
* 4xx, 404 included: no robots.txt, everything allowed (RFC 9309 2.3.1.3);
* 5xx or unreachable: everything disallowed (RFC 9309 2.3.1.4);
* ``Crawl-delay`` honoured up to ``MAX_CRAWL_DELAY``.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from protego import Protego

MAX_CRAWL_DELAY = 10.0
"""Seconds. A site asking for more would make a 100-page crawl take hours;
we cap it (Google ignores Crawl-delay altogether)."""

MAX_ROBOTS_BYTES = 500 * 1024
"""RFC 9309 2.5: crawlers must parse at least the first 500 KiB."""


def robots_url(url: str) -> str:
    """The robots.txt URL for the origin of ``url``."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}/robots.txt"


@dataclass(frozen=True)
class RobotsPolicy:
    """What one origin's robots.txt allows a given user agent."""

    user_agent: str
    allow_all: bool = False
    disallow_all: bool = False
    rules: Protego | None = None

    @classmethod
    def from_response(
        cls, status: int | None, body: bytes | str, user_agent: str = "pw-adaptive"
    ) -> RobotsPolicy:
        """Build the policy from the fetch result (``status`` None: unreachable)."""
        if status is None or status >= 500:
            return cls(user_agent, disallow_all=True)
        if 400 <= status < 500:
            return cls(user_agent, allow_all=True)
        if status >= 300:  # redirects were followed by the fetcher; a bare 3xx is unusable
            return cls(user_agent, allow_all=True)
        text = (
            body[:MAX_ROBOTS_BYTES].decode("utf-8", "replace") if isinstance(body, bytes) else body
        )
        return cls(user_agent, rules=Protego.parse(text))

    def allows(self, url: str) -> bool:
        """Whether ``url`` may be fetched."""
        if self.disallow_all:
            return False
        if self.allow_all or self.rules is None:
            return True
        if urlsplit(url).path == "/robots.txt":
            return True
        return bool(self.rules.can_fetch(url, self.user_agent))

    def sitemaps(self) -> tuple[str, ...]:
        """The sitemap URLs the robots.txt names (``Sitemap:`` lines)."""
        if self.rules is None:
            return ()
        return tuple(self.rules.sitemaps)

    def crawl_delay(self) -> float:
        """The Crawl-delay for our user agent, capped at ``MAX_CRAWL_DELAY`` (0 when unset)."""
        if self.rules is None:
            return 0.0
        delay = self.rules.crawl_delay(self.user_agent)
        if delay is None:
            return 0.0
        return min(float(delay), MAX_CRAWL_DELAY)
