"""The private-address guard: a crawl of a public site never reaches inside the network.

A page on the public internet can point the crawler's browser at
``http://127.0.0.1:8080/admin``, ``http://10.0.0.5/``, a cloud metadata
service (``http://169.254.169.254/latest/meta-data/``) or a public name that
resolves to any of them (server-side request forgery, DNS rebinding). When the
start URL's host is public, :class:`NetGuard` tells which URLs to block: those
whose host is, or resolves to, a non-public address (see
:func:`address_kind`). The renderer asks it for every request the browser
makes (documents, subresources, popups, workers: ``render/guard.py``), and the
fetcher for robots.txt and attachments (``render/fetch.py``), hop by hop
through redirects. When the start URL is itself private (an intranet portal, a
fixture server on 127.0.0.1), the guard is off: crawling a private site is the
user's explicit choice. ``CrawlSettings.allow_private_addresses`` turns it off
for public sites too.

Name resolution: ``localhost`` and ``*.localhost`` are loopback without a
look-up (RFC 6761 section 6.3, and what Chromium does); other names are
resolved with ``getaddrinfo`` in the event loop's executor thread, never on
the loop itself, and a name is blocked when *any* of its addresses is
non-public. Answers are cached per host for :data:`DNS_CACHE_TTL_S`. A name
that does not resolve is not blocked: the browser, asking the same resolver,
cannot reach it either.

WebSockets, which Chromium's request interception never sees, are checked
through Playwright's WebSocket routing (``render/guard.py``): one to a
blocked host is closed before it connects and counted like a blocked request.

Limits, by design of a guard that sits beside the browser rather than inside
its network stack: the browser resolves names again itself, so a DNS server
that answers differently within seconds (rebinding) can still win a race;
WebSockets opened by workers are not routed (Playwright's WebSocket routing
works in frames only); and redirects of subresources are followed by Chromium
without asking the route handler (documents' redirects are checked, see
``render/guard.py``). Chromium 156, the version tested, refused both into
127/8 from a page the guard had served (its Local Network Access checks count
a served document as public), but that is the browser's policy, not the
guard's. Use a network-level egress policy when those matter.

Tests that serve a "public" site from 127.0.0.1 name it in ``public_hosts``
(``CrawlSettings.treat_as_public``): those hosts count as public whatever
they resolve to, both to switch the guard on and to let their requests
through. No global state: each crawl builds its own guard.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Sequence
from urllib.parse import urlsplit

__all__ = [
    "BLOCKED_NETWORKS",
    "DNS_CACHE_TTL_S",
    "METADATA_ADDRESSES",
    "NetGuard",
    "Resolver",
    "address_kind",
    "guard_for",
    "host_kind",
    "system_resolver",
]

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

Resolver = Callable[[str], Awaitable[Sequence[str]]]
"""Resolves a host name to its addresses (text form); raises ``OSError`` when it cannot."""

DNS_CACHE_TTL_S = 60.0
"""Seconds a host's look-up is reused. ``getaddrinfo`` does not report record
TTLs; 60 s is Chromium's own host cache lifetime (``kCacheEntryTTLSeconds``
in net/dns/host_resolver_manager.cc), so the guard and the browser see the
same answer for about as long."""

RESOLVE_TIMEOUT_S = 5.0
"""Longest wait for one ``getaddrinfo``; a name that takes longer counts as
unresolvable (the browser's own look-up fails the same way)."""

METADATA_ADDRESSES: frozenset[IPAddress] = frozenset(
    ipaddress.ip_address(a)
    for a in (
        "169.254.169.254",  # AWS, GCP, Azure, OpenStack, DigitalOcean instance metadata
        "169.254.170.2",  # AWS ECS task metadata and credentials
        "fd00:ec2::254",  # AWS instance metadata over IPv6 (Nitro)
        "100.100.100.200",  # Alibaba Cloud instance metadata
    )
)
"""Cloud instance-metadata services: the classic SSRF target (they hand out
credentials). Reported as ``metadata`` before their network's kind."""

BLOCKED_NETWORKS: tuple[tuple[str, ipaddress.IPv4Network | ipaddress.IPv6Network], ...] = tuple(
    (kind, ipaddress.ip_network(net))
    for kind, net in (
        # "This network" (RFC 1122 3.2.1.3): Linux connects 0.0.0.0 to the
        # local host, so it is a loopback in disguise.
        ("unspecified", "0.0.0.0/8"),
        ("private", "10.0.0.0/8"),  # RFC 1918
        # RFC 6598 shared address space: a carrier's internal network (CGNAT),
        # never a public site; Alibaba Cloud's metadata service lives there.
        ("shared", "100.64.0.0/10"),
        ("loopback", "127.0.0.0/8"),  # RFC 1122
        ("link_local", "169.254.0.0/16"),  # RFC 3927
        ("private", "172.16.0.0/12"),  # RFC 1918
        ("private", "192.168.0.0/16"),  # RFC 1918
        ("unspecified", "::/128"),
        ("loopback", "::1/128"),  # RFC 4291
        ("unique_local", "fc00::/7"),  # RFC 4193
        ("link_local", "fe80::/10"),  # RFC 4291
        ("private", "fec0::/10"),  # deprecated site-local (RFC 3879), still routed inside sites
    )
)
"""Networks a public crawl must not reach, with the kind reported for each.
Multicast, broadcast and documentation ranges are left out: no HTTP server
answers there."""

# IPv6 forms that carry an IPv4 address the kernel or a translator reaches:
# NAT64 well-known prefix (RFC 6052) and IPv4-compatible addresses (RFC 4291
# 2.5.5.1, deprecated but still parsed). IPv4-mapped (::ffff:0:0/96) and 6to4
# (2002::/16) come from ipaddress's own ``ipv4_mapped`` and ``sixtofour``.
_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
_IPV4_COMPATIBLE = ipaddress.IPv6Network("::/96")

_HTTP_SCHEMES = frozenset({"http", "https", "ws", "wss"})


def _parse(address: str | IPAddress) -> IPAddress:
    if isinstance(address, ipaddress.IPv4Address | ipaddress.IPv6Address):
        return address
    text = address.strip().strip("[]").split("%", 1)[0]  # drop an IPv6 zone id ("fe80::1%eth0")
    return ipaddress.ip_address(text)


def _embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address in _NAT64 or (address in _IPV4_COMPATIBLE and int(address) > 1):
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return None


def address_kind(address: str | IPAddress) -> str | None:
    """The kind of a non-public address, or None for a public one.

    Kinds: ``metadata`` (:data:`METADATA_ADDRESSES`), then the kind of the
    first network of :data:`BLOCKED_NETWORKS` holding the address
    (``loopback``, ``private``, ``link_local``, ``unique_local``, ``shared``,
    ``unspecified``). An IPv6 address that embeds an IPv4 address (IPv4-mapped
    ``::ffff:127.0.0.1``, IPv4-compatible, NAT64 ``64:ff9b::/96``, 6to4
    ``2002::/16``) has the kind of the IPv4 address. Brackets and an IPv6 zone
    id are accepted. Raises ``ValueError`` for text that is no IP address.
    """
    parsed = _parse(address)
    if parsed in METADATA_ADDRESSES:
        return "metadata"
    for kind, network in BLOCKED_NETWORKS:
        if parsed in network:
            return kind
    if isinstance(parsed, ipaddress.IPv6Address):
        inner = _embedded_ipv4(parsed)
        if inner is not None:
            return address_kind(inner)
    return None


def _is_localhost(host: str) -> bool:
    return host == "localhost" or host.endswith(".localhost")


def host_kind(host: str) -> str | None:
    """:func:`address_kind` for a URL host that needs no look-up: an IP
    literal, or ``localhost`` / ``*.localhost`` (``loopback``). None for a
    public literal and for every other name (resolve it first)."""
    return _kind_without_lookup(host.lower().rstrip("."))[1]


def _kind_without_lookup(host: str) -> tuple[bool, str | None]:
    """``(known, kind)`` for a lowercase host: known for ``localhost`` names
    and IP literals (with their :func:`address_kind`), not for other names."""
    if _is_localhost(host):
        return True, "loopback"
    try:
        return True, address_kind(host)
    except ValueError:
        return False, None


async def system_resolver(host: str) -> Sequence[str]:
    """The system resolver (``getaddrinfo``), run in the loop's executor thread."""
    loop = asyncio.get_running_loop()
    infos = await asyncio.wait_for(
        loop.getaddrinfo(host, None, type=socket.SOCK_STREAM), RESOLVE_TIMEOUT_S
    )
    return [str(info[4][0]) for info in infos]


class NetGuard:
    """Decides which URLs a crawl of a public site may not request.

    ``public_hosts``: hosts (names or IP literals, compared lowercase without
    a port) that count as public whatever they resolve to.
    ``resolver``: resolves names (default :func:`system_resolver`); tests
    inject a fake one. ``on_block(url, kind)`` is called for every blocked
    request; ``blocked`` counts them by kind.
    """

    def __init__(
        self,
        *,
        public_hosts: Iterable[str] = (),
        resolver: Resolver | None = None,
        ttl_s: float = DNS_CACHE_TTL_S,
        on_block: Callable[[str, str], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.public_hosts = frozenset(_bare_host(h) for h in public_hosts)
        self._resolver: Resolver = resolver or system_resolver
        self._ttl_s = ttl_s
        self._on_block = on_block
        self._clock = clock
        self._cache: dict[str, tuple[float, str | None]] = {}
        self._pending: dict[str, asyncio.Future[str | None]] = {}
        self.blocked: Counter[str] = Counter()

    async def kind_of_host(self, host: str) -> str | None:
        """The non-public kind of ``host`` (resolved and cached), or None when public."""
        host = _bare_host(host)
        if host in self.public_hosts:
            return None
        cached = self._cache.get(host)  # names only: checked first, no parsing
        if cached is not None and cached[0] > self._clock():
            return cached[1]
        known, kind = _kind_without_lookup(host)
        if known:
            return kind
        pending = self._pending.get(host)
        if pending is not None:  # one look-up per host at a time
            return await asyncio.shield(pending)
        future: asyncio.Future[str | None] = asyncio.get_running_loop().create_future()
        self._pending[host] = future
        try:
            kind = await self._resolve_kind(host)
            self._cache[host] = (self._clock() + self._ttl_s, kind)
            future.set_result(kind)
            return kind
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: waiters get it, nobody logs it
            raise
        finally:
            del self._pending[host]

    async def _resolve_kind(self, host: str) -> str | None:
        try:
            addresses = await self._resolver(host)
        except (OSError, TimeoutError, UnicodeError):
            return None  # unresolvable: the browser cannot reach it either
        for address in addresses:
            try:
                kind = address_kind(address)
            except ValueError:
                continue
            if kind is not None:
                return kind
        return None

    async def is_public(self, url: str) -> bool:
        """Whether ``url``'s host is public (the guard is for crawls that start there)."""
        host = urlsplit(url).hostname
        return host is not None and await self.kind_of_host(host) is None

    async def check(self, url: str) -> str | None:
        """The reason to block a request for ``url`` (``private_address:<kind>``), or None.

        Only the host matters: http(s) and ws(s) URLs of a non-public host are
        blocked; other schemes (``data:``, ``blob:``, ``about:``) never leave
        the browser and pass. A blocked URL is counted and reported to
        ``on_block``.
        """
        parts = urlsplit(url)
        if parts.scheme.lower() not in _HTTP_SCHEMES or not parts.hostname:
            return None
        kind = await self.kind_of_host(parts.hostname)
        if kind is None:
            return None
        self.blocked[kind] += 1
        if self._on_block is not None:
            self._on_block(url, kind)
        return f"private_address:{kind}"


def _bare_host(host: str) -> str:
    """Lowercase host without brackets, port or trailing dot."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host[1:]
    if host.count(":") == 1:  # "host:port" (an IPv6 literal has several colons)
        host = host.partition(":")[0]
    return host.rstrip(".")


async def guard_for(
    start_url: str,
    *,
    allow_private: bool,
    public_hosts: Iterable[str] = (),
    resolver: Resolver | None = None,
    on_block: Callable[[str, str], None] | None = None,
) -> NetGuard | None:
    """The guard for a crawl from ``start_url``, or None when it is off.

    Off when ``allow_private`` is set, or when the start URL's host is itself
    non-public (crawling an intranet or a local server is the user's choice).
    """
    if allow_private:
        return None
    guard = NetGuard(public_hosts=public_hosts, resolver=resolver, on_block=on_block)
    return guard if await guard.is_public(start_url) else None
