"""Soft-404 detection: error pages served as ordinary pages.

Many SPAs and some CMSs answer an unknown route with status 200 and a "page
not found" message, or with their home page. A probe URL that cannot exist is
rendered once per site; pages whose main text matches the probe's fingerprint
(exact or near duplicate, with the tests of `pw_adaptive.core.dedup`) are error
pages. Words the URL contributes (the probe token, the requested path) are
removed before fingerprinting, since error pages often echo them.
"""

from __future__ import annotations

import re
from hashlib import blake2b
from typing import Any
from urllib.parse import unquote, urlsplit, urlunsplit

from pw_adaptive.core.dedup import (
    DEDUP_STATE_VERSION,
    DEFAULT_JACCARD_THRESHOLD,
    DEFAULT_NEAR_THRESHOLD,
    DEFAULT_SHORT_TEXT_WORDS,
    ContentDeduper,
    tokenize,
)
from pw_adaptive.text.normalize import normalize_main_text

__all__ = ["Soft404Detector", "site_key"]

_DEFAULT_PORTS = {"http": "80", "https": "443"}


def site_key(origin: str) -> str:
    """The `host[:port]` a URL, origin or bare host belongs to, lowercased.

    `https://User@U.EDU:443/a` and `u.edu` give `u.edu`; a default port is
    dropped, another kept. Soft-404 probes are learned per site key, so the
    crawler may pass `url_host(url)`, the page URL or its origin alike.
    Raises ValueError for an empty string.
    """
    origin = origin.strip()
    if "://" not in origin:
        if not origin:
            raise ValueError("empty origin")
        return origin.rpartition("@")[2].lower()
    parts = urlsplit(origin)
    host = parts.hostname
    if not host:
        raise ValueError(f"URL without host: {origin!r}")
    if ":" in host:  # IPv6 literal: urlsplit strips the brackets
        host = f"[{host}]"
    port = parts.port
    if port is not None and str(port) != _DEFAULT_PORTS.get(parts.scheme.lower()):
        return f"{host}:{port}"
    return host


PROBE_PREFIX = "pw-adaptive-probe-"
"""First part of the last segment of every probe URL: recognisable in server
logs, and never a plausible page name."""

_PROBE_RE = re.compile(re.escape(PROBE_PREFIX) + "[0-9a-f]+")
# The probe token as an error page may echo it; removed before fingerprinting
# even when the caller passes a bare host instead of the probe URL.


def _strip_url_words(text: str, url: str) -> str:
    """Normalised `text` without the probe token and the words that occur in
    `url`'s path, query or fragment (percent-decoded; nothing for a bare
    host): what an error page would echo back."""
    url_words: set[str] = set()
    if "://" in url:
        parts = urlsplit(url.strip())
        echoed = unquote(" ".join((parts.path, parts.query, parts.fragment)))
        url_words = set(
            tokenize(normalize_main_text(_PROBE_RE.sub(" ", echoed), for_fingerprint=True))
        )
    tokens = tokenize(_PROBE_RE.sub(" ", normalize_main_text(text, for_fingerprint=True)))
    return " ".join(token for token in tokens if token not in url_words)


class Soft404Detector:
    """Recognises "page not found" pages served as ordinary pages.

    Many SPAs and some CMSs answer every unknown route with status 200 and an
    error message, or with the home page. The crawler renders
    `probe_url(start_url)` once per site, calls `learn(origin, main_text)`
    with the result, and then drops pages for which
    `is_soft_404(origin, main_text)` is true. A page matches when its main
    text is an exact or near duplicate of a learned probe page, with the same
    tests as `ContentDeduper` (the probe page often echoes the requested path,
    so the near test matters). Several probe pages may be learned per origin.
    """

    def __init__(
        self,
        near_threshold: int = DEFAULT_NEAR_THRESHOLD,
        short_text_words: int = DEFAULT_SHORT_TEXT_WORDS,
        jaccard_threshold: float = DEFAULT_JACCARD_THRESHOLD,
    ) -> None:
        self._settings = (near_threshold, short_text_words, jaccard_threshold)
        self._probes: dict[str, ContentDeduper] = {}

    @staticmethod
    def probe_url(start_url: str) -> str:
        """A URL on the start URL's site that cannot exist.

        Deterministic per start URL (the suffix is a BLAKE2b hash of it), so
        reruns and tests see the same probe, yet no site has such a page.
        When the start URL routes by fragment (`#/…` or `#!/…`, a hash-routed
        SPA), the probe is a route on the same document,
        `…#/pw-adaptive-probe-<hex>` (keeping `#!/` when used), because a path
        probe would hit the server, not the SPA's router. Otherwise it is the
        path `/pw-adaptive-probe-<hex>` at the origin's root.

        Raises ValueError when `start_url` is not an absolute URL.
        """
        parts = urlsplit(start_url.strip())
        if not parts.scheme or not parts.netloc:
            raise ValueError(f"not an absolute URL: {start_url!r}")
        token = PROBE_PREFIX + blake2b(start_url.encode("utf-8"), digest_size=6).hexdigest()
        fragment = parts.fragment
        if fragment.startswith(("/", "!/")):
            route = "!/" if fragment.startswith("!") else "/"
            return urlunsplit(
                (parts.scheme, parts.netloc, parts.path or "/", parts.query, route + token)
            )
        return urlunsplit((parts.scheme, parts.netloc, "/" + token, "", ""))

    def learn(self, origin: str, text: str) -> None:
        """Record the main text of a probe page for `origin`.

        `origin` may be any URL on the site; it is reduced by `origin_of`.
        Pass the probe URL itself: words of its path, query and fragment are
        removed from the text first, since error pages often echo the
        requested path ("/pw-adaptive-probe-… was not found"). An empty probe
        page is ignored: it carries no fingerprint worth matching (empty pages
        are the content deduper's business).
        """
        stripped = _strip_url_words(text, origin)
        if not stripped:
            return
        key = site_key(origin)
        deduper = self._probes.get(key)
        if deduper is None:
            deduper = self._probes[key] = ContentDeduper(*self._settings)
        deduper.add(key, stripped)

    def is_soft_404(self, origin: str, text: str) -> bool:
        """True when `text` matches a probe page learned for `origin`.

        `origin` is reduced by `site_key`. Pass the page's URL when possible:
        the words of its path are then ignored, so the error page echoing
        `/housing/old-halls` matches the one learned for the probe.
        """
        deduper = self._probes.get(site_key(origin))
        return deduper is not None and deduper.match(_strip_url_words(text, origin)) is not None

    def knows(self, origin: str) -> bool:
        """True once a probe page was learned for `origin`."""
        return site_key(origin) in self._probes

    def state(self) -> dict[str, Any]:
        """The learned probe pages, JSON-able: `{"version": 1, "sites": {site
        key: ContentDeduper.state() rows}}`. Small: one row per probe page."""
        return {
            "version": DEDUP_STATE_VERSION,
            "sites": {key: deduper.state() for key, deduper in self._probes.items()},
        }

    def restore(self, state: dict[str, Any]) -> None:
        """Replace the learned probe pages by those of `state` (see `state`).

        Raises ValueError for another version or a malformed state.
        """
        if not isinstance(state, dict) or state.get("version") != DEDUP_STATE_VERSION:
            raise ValueError(f"unsupported soft-404 state: {str(state)[:80]!r}")
        probes: dict[str, ContentDeduper] = {}
        for key, rows in dict(state["sites"]).items():
            deduper = probes[str(key)] = ContentDeduper(*self._settings)
            deduper.restore(rows)
        self._probes = probes
