"""Crawl scope: which URLs belong to a crawl.

:class:`Scope` decides on canonical URLs (:func:`pw_adaptive.core.urls.canonicalize_url`),
so every spelling of a URL gets the same answer: same site by default, extra
hosts or wildcards on request, or a URL prefix that replaces the site rule.
"""

from __future__ import annotations

from collections.abc import Iterable

from pw_adaptive.core.urls import canonicalize_url, url_host

__all__ = ["Scope"]


class Scope:
    """Which URLs belong to a crawl.

    A URL is in scope when it canonicalizes to an ``http`` or ``https`` URL
    and passes the site rule or, when ``prefix`` is given, the prefix rule.
    The start URL itself is always in scope.

    * **Same site** (default). Its ``host[:port]`` equals the start URL's, or
      matches one of ``allowed_hosts``. A leading ``"www."`` is ignored on
      both sides, so ``uni.edu`` and ``www.uni.edu`` are one site. The scheme
      is ignored (``http`` and ``https`` are one site), but a non-default port
      must match: ``127.0.0.1:8001`` is another site than ``127.0.0.1:8000``
      (fixture servers run side by side on one address). Subdomains are
      other sites unless allowed.
    * **Extra hosts.** Each entry of ``allowed_hosts`` is a host
      (``"apply.uni.edu"``), a ``host:port``, a URL (its host is used), or a
      wildcard ``"*.uni.edu"`` that allows ``uni.edu`` and every subdomain.
      Entries are normalised like URL hosts (lowercase, IDN to punycode,
      default ports dropped).
    * **Prefix.** When ``prefix`` is given, it replaces the site rule: the
      URL's site must be the prefix's (scheme and ``"www."`` ignored) and its
      path, query and route fragment must start with the canonical prefix's.
      A prefix is a string prefix: ``https://uni.edu/intl`` also allows
      ``/intl-fees``; end it with ``"/"`` to mean a folder. A route prefix
      such as ``https://uni.edu/app#/courses`` restricts a hash-routed app.

    Raises:
        ValueError: when ``start_url``, ``prefix`` or an ``allowed_hosts``
            entry is not a valid http(s) URL or host.
    """

    def __init__(
        self,
        start_url: str,
        *,
        allowed_hosts: Iterable[str] = (),
        prefix: str | None = None,
    ) -> None:
        self.start_url: str = canonicalize_url(start_url)
        sites = {_site_key(url_host(self.start_url))}
        wildcards: list[tuple[str, str]] = []
        for entry in allowed_hosts:
            wildcard, hostport = _parse_host_entry(entry)
            if wildcard:
                wildcards.append(_split_site_port(_site_key(hostport)))
            else:
                sites.add(_site_key(hostport))
        self._sites = frozenset(sites)
        self._wildcards = tuple(wildcards)
        self.prefix: str | None = None
        self._prefix_site = ""
        self._prefix_rest = ""
        if prefix is not None:
            self.prefix = canonicalize_url(prefix)
            self._prefix_site, self._prefix_rest = _split_site_rest(self.prefix)

    def __repr__(self) -> str:
        return f"Scope({self.start_url!r}, hosts={sorted(self._sites)!r}, prefix={self.prefix!r})"

    def allows(self, url: str) -> bool:
        """Return True when ``url`` is in scope; False for any invalid URL."""
        try:
            canonical = canonicalize_url(url)
        except ValueError:
            return False
        return self.allows_canonical(canonical)

    def allows_canonical(self, canonical: str) -> bool:
        """:meth:`allows` for a URL that is already the output of
        ``canonicalize_url`` (the crawler and the frontier canonicalize every
        link once, then ask here without canonicalizing it again)."""
        if canonical == self.start_url:
            return True
        site, rest = _split_site_rest(canonical)
        if self.prefix is not None:
            return site == self._prefix_site and rest.startswith(self._prefix_rest)
        return site in self._sites or self._wildcard_allows(site)

    def _wildcard_allows(self, site: str) -> bool:
        if not self._wildcards:
            return False
        host, port = _split_site_port(site)
        return any(
            port == suffix_port and (host == suffix or host.endswith("." + suffix))
            for suffix, suffix_port in self._wildcards
        )


# --------------------------------------------------------------------------
# Internals.


def _site_key(hostport: str) -> str:
    return hostport[4:] if hostport.startswith("www.") else hostport


def _split_site_port(hostport: str) -> tuple[str, str]:
    """Split ``host[:port]`` (IPv6 literals in brackets) into host and port."""
    bracket = hostport.rfind("]")
    colon = hostport.rfind(":")
    if colon > bracket:
        return hostport[:colon], hostport[colon + 1 :]
    return hostport, ""


def _split_site_rest(canonical: str) -> tuple[str, str]:
    start = canonical.index("://") + 3
    slash = canonical.index("/", start)
    return _site_key(canonical[start:slash]), canonical[slash:]


def _parse_host_entry(entry: str) -> tuple[bool, str]:
    """Parse an ``allowed_hosts`` entry into (is_wildcard, host[:port])."""
    text = entry.strip()
    wildcard = False
    if text.startswith("*."):
        wildcard, text = True, text[2:]
    elif text.startswith("."):
        wildcard, text = True, text[1:]
    if "://" not in text:
        text = f"http://{text}/"
    try:
        hostport = url_host(text)
    except ValueError as exc:
        raise ValueError(f"invalid allowed host {entry!r}: {exc}") from None
    if hostport.endswith(":443"):
        # A bare entry is parsed as http; its https default port is no port.
        hostport = hostport[:-4]
    return wildcard, hostport
