"""The private-address classifier and guard, on literal addresses and a fake resolver.

No test here sends a packet: names are resolved by an injected resolver, and
the guard's WebSocket route is driven with a stand-in for Playwright's
``WebSocketRoute`` (the browser side is in ``tests/e2e/test_netguard_browser.py``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any, cast

import pytest
from playwright.async_api import BrowserContext, WebSocketRoute

from pw_adaptive.netguard import NetGuard, address_kind, guard_for, host_kind
from pw_adaptive.render.guard import (
    WEBSOCKET_REFUSED_CODE,
    GuardRoute,
    install_guard,
    remove_guard,
)


@pytest.mark.parametrize(
    ("address", "kind"),
    [
        pytest.param("127.0.0.1", "loopback", id="loopback"),
        pytest.param("127.255.255.254", "loopback", id="loopback-top"),
        pytest.param("127.0.0.2", "loopback", id="loopback-other"),
        pytest.param("10.0.0.1", "private", id="10/8"),
        pytest.param("10.255.255.255", "private", id="10/8-top"),
        pytest.param("172.16.0.1", "private", id="172.16/12"),
        pytest.param("172.31.255.255", "private", id="172.16/12-top"),
        pytest.param("192.168.1.1", "private", id="192.168/16"),
        pytest.param("169.254.1.1", "link_local", id="169.254/16"),
        pytest.param("169.254.169.254", "metadata", id="metadata-v4"),
        pytest.param("169.254.170.2", "metadata", id="metadata-ecs"),
        pytest.param("100.100.100.200", "metadata", id="metadata-alibaba"),
        pytest.param("fd00:ec2::254", "metadata", id="metadata-v6"),
        pytest.param("[fd00:ec2::254]", "metadata", id="metadata-v6-brackets"),
        pytest.param("0.0.0.0", "unspecified", id="zero"),
        pytest.param("0.1.2.3", "unspecified", id="0/8"),
        pytest.param("100.64.0.1", "shared", id="cgnat"),
        pytest.param("100.127.255.255", "shared", id="cgnat-top"),
        pytest.param("::1", "loopback", id="v6-loopback"),
        pytest.param("[::1]", "loopback", id="v6-loopback-brackets"),
        pytest.param("::", "unspecified", id="v6-unspecified"),
        pytest.param("fc00::1", "unique_local", id="fc00/7"),
        pytest.param("fdff:ffff::1", "unique_local", id="fd-unique-local"),
        pytest.param("fe80::1", "link_local", id="v6-link-local"),
        pytest.param("fe80::1%eth0", "link_local", id="v6-link-local-zone"),
        pytest.param("fec0::1", "private", id="v6-site-local"),
        pytest.param("::ffff:127.0.0.1", "loopback", id="v4-mapped-loopback"),
        pytest.param("::ffff:10.1.2.3", "private", id="v4-mapped-private"),
        pytest.param("::ffff:169.254.169.254", "metadata", id="v4-mapped-metadata"),
        pytest.param("::127.0.0.1", "loopback", id="v4-compatible"),
        pytest.param("64:ff9b::a00:1", "private", id="nat64-private"),
        pytest.param("2002:c0a8:101::1", "private", id="6to4-private"),
    ],
)
def test_non_public_addresses_are_classified(address: str, kind: str) -> None:
    assert address_kind(address) == kind


@pytest.mark.parametrize(
    "address",
    [
        "8.8.8.8",
        "1.1.1.1",
        "11.0.0.1",
        "100.63.255.255",  # just below CGNAT
        "100.128.0.0",  # just above CGNAT
        "172.15.255.255",
        "172.32.0.1",
        "192.167.255.255",
        "192.169.0.1",
        "169.253.255.255",
        "128.0.0.1",
        "2606:4700:4700::1111",
        "2001:db8::1",
        "::ffff:8.8.8.8",
        "64:ff9b::808:808",
        "2002:808:808::1",
    ],
)
def test_public_addresses_pass(address: str) -> None:
    assert address_kind(address) is None


def test_text_that_is_no_address_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        address_kind("example.com")


@pytest.mark.parametrize(
    ("host", "kind"),
    [
        pytest.param("localhost", "loopback", id="localhost"),
        pytest.param("LOCALHOST.", "loopback", id="localhost-fqdn-case"),
        pytest.param("app.localhost", "loopback", id="sub-localhost"),
        pytest.param("[::1]", "loopback", id="v6-literal"),
        pytest.param("10.0.0.1", "private", id="v4-literal"),
        pytest.param("8.8.8.8", None, id="public-literal"),
        pytest.param("example.com", None, id="name-needs-lookup"),
        pytest.param("localhost.example.com", None, id="not-localhost"),
    ],
)
def test_host_kind_needs_no_lookup(host: str, kind: str | None) -> None:
    assert host_kind(host) == kind


class FakeResolver:
    """Answers from a table; raises OSError for unknown names; counts calls."""

    def __init__(self, table: dict[str, list[str]], delay_s: float = 0.0) -> None:
        self.table = table
        self.calls: list[str] = []
        self.delay_s = delay_s

    async def __call__(self, host: str) -> Sequence[str]:
        self.calls.append(host)
        if self.delay_s:
            await asyncio.sleep(self.delay_s)
        if host not in self.table:
            raise OSError(f"cannot resolve {host}")
        return self.table[host]


TABLE = {
    "public.example": ["93.184.216.34", "2606:2800:220:1::1"],
    "rebind.example": ["93.184.216.34", "127.0.0.1"],
    "intranet.example": ["10.1.2.3"],
    "metadata.example": ["169.254.169.254"],
    "v6.example": ["::ffff:192.168.0.10"],
}


def _check(guard: NetGuard, url: str) -> str | None:
    return asyncio.run(guard.check(url))


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        pytest.param("https://public.example/a", None, id="public-name"),
        pytest.param("http://intranet.example/", "private_address:private", id="private-name"),
        pytest.param("http://rebind.example/", "private_address:loopback", id="any-address"),
        pytest.param("http://metadata.example/", "private_address:metadata", id="metadata"),
        pytest.param("http://v6.example/", "private_address:private", id="mapped-answer"),
        pytest.param("http://unknown.example/", None, id="unresolvable"),
        pytest.param("http://127.0.0.2:8000/x", "private_address:loopback", id="literal"),
        pytest.param("http://[::1]:8000/", "private_address:loopback", id="v6-literal"),
        pytest.param("http://localhost:9/", "private_address:loopback", id="localhost"),
        pytest.param("ws://10.0.0.1/socket", "private_address:private", id="websocket"),
        pytest.param("http://user:pw@10.0.0.1/", "private_address:private", id="userinfo"),
        pytest.param("data:text/html,hi", None, id="data-url"),
        pytest.param("blob:https://public.example/uuid", None, id="blob-url"),
    ],
)
def test_check_blocks_hosts_that_are_or_resolve_to_private_addresses(
    url: str, reason: str | None
) -> None:
    assert _check(NetGuard(resolver=FakeResolver(TABLE)), url) == reason


def test_blocks_are_counted_and_reported() -> None:
    seen: list[tuple[str, str]] = []
    guard = NetGuard(resolver=FakeResolver(TABLE), on_block=lambda u, k: seen.append((u, k)))
    for url in ("http://127.0.0.1/", "http://10.0.0.1/", "http://public.example/"):
        _check(guard, url)
    assert seen == [("http://127.0.0.1/", "loopback"), ("http://10.0.0.1/", "private")]
    assert guard.blocked == {"loopback": 1, "private": 1}


def test_public_hosts_pass_whatever_they_resolve_to() -> None:
    guard = NetGuard(public_hosts=["127.0.0.1", "Intranet.Example"], resolver=FakeResolver(TABLE))
    assert _check(guard, "http://127.0.0.1:8000/") is None
    assert _check(guard, "http://intranet.example/") is None
    assert _check(guard, "http://127.0.0.2:8000/") == "private_address:loopback"


def test_lookups_are_cached_per_host_until_the_ttl_runs_out() -> None:
    now = [0.0]
    resolver = FakeResolver(TABLE)
    guard = NetGuard(resolver=resolver, ttl_s=60.0, clock=lambda: now[0])

    async def scenario() -> None:
        await guard.check("http://intranet.example/a")
        await guard.check("http://intranet.example/b")
        now[0] = 59.0
        await guard.check("http://INTRANET.example:8080/c")
        now[0] = 61.0
        await guard.check("http://intranet.example/d")

    asyncio.run(scenario())
    assert resolver.calls == ["intranet.example", "intranet.example"]


def test_concurrent_lookups_of_one_host_share_one_resolution() -> None:
    resolver = FakeResolver(TABLE, delay_s=0.05)
    guard = NetGuard(resolver=resolver)

    async def scenario() -> list[str | None]:
        urls = [f"http://rebind.example/{i}" for i in range(5)]
        return await asyncio.gather(*(guard.check(u) for u in urls))

    assert asyncio.run(scenario()) == ["private_address:loopback"] * 5
    assert resolver.calls == ["rebind.example"]


def test_ip_literals_and_localhost_are_never_resolved() -> None:
    resolver = FakeResolver(TABLE)
    guard = NetGuard(resolver=resolver)
    for url in (
        "http://127.0.0.1/",
        "http://8.8.8.8/",
        "http://[2001:db8::1]/",
        "http://a.localhost/",
    ):
        _check(guard, url)
    assert resolver.calls == []


@pytest.mark.parametrize(
    ("start", "allow", "public", "active"),
    [
        pytest.param("https://public.example/", False, (), True, id="public-start"),
        pytest.param("https://public.example/", True, (), False, id="allowed-by-option"),
        pytest.param("http://127.0.0.1:8000/", False, (), False, id="loopback-start"),
        pytest.param("http://intranet.example/", False, (), False, id="intranet-start"),
        pytest.param("http://127.0.0.1:8000/", False, ("127.0.0.1",), True, id="marked-public"),
    ],
)
def test_the_guard_is_on_only_for_public_start_urls(
    start: str, allow: bool, public: tuple[str, ...], active: bool
) -> None:
    guard = asyncio.run(
        guard_for(start, allow_private=allow, public_hosts=public, resolver=FakeResolver(TABLE))
    )
    assert (guard is not None) is active


class FakeWebSocketRoute:
    """Records what the guard's WebSocket handler does with one WebSocket."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.actions: list[str] = []

    async def close(self, *, code: int | None = None, reason: str | None = None) -> None:
        self.actions.append(f"close {code}")

    def connect_to_server(self) -> None:
        self.actions.append("connect")


def _open_web_socket(installed: GuardRoute, url: str) -> list[str]:
    ws = FakeWebSocketRoute(url)
    asyncio.run(installed.on_web_socket(cast(WebSocketRoute, ws)))
    return ws.actions


@pytest.mark.parametrize(
    ("url", "actions", "blocked"),
    [
        pytest.param("wss://public.example/live", ["connect"], {}, id="public"),
        pytest.param(
            "ws://intranet.example/live",
            [f"close {WEBSOCKET_REFUSED_CODE}"],
            {"private": 1},
            id="private-name",
        ),
        pytest.param(
            "ws://169.254.169.254/",
            [f"close {WEBSOCKET_REFUSED_CODE}"],
            {"metadata": 1},
            id="metadata",
        ),
        pytest.param("ws://127.0.0.1:8000/chat", ["connect"], {}, id="marked-public"),
    ],
)
def test_websockets_to_private_addresses_are_refused_and_others_connected(
    url: str, actions: list[str], blocked: dict[str, int]
) -> None:
    guard = NetGuard(public_hosts=["127.0.0.1"], resolver=FakeResolver(TABLE))
    assert _open_web_socket(GuardRoute(guard), url) == actions
    assert guard.blocked == blocked


def test_a_websocket_is_refused_when_the_check_fails() -> None:
    async def broken(_host: str) -> Sequence[str]:
        raise RuntimeError("resolver bug")

    installed = GuardRoute(NetGuard(resolver=broken))
    assert _open_web_socket(installed, "ws://anything.example/") == [
        f"close {WEBSOCKET_REFUSED_CODE}"
    ]


class FakeContext:
    """Records the routes the guard adds to and removes from a context."""

    def __init__(self) -> None:
        self.routes: list[tuple[str, Any]] = []
        self.web_socket_routes: list[tuple[str, Any]] = []

    async def route(self, url: str, handler: Any) -> None:
        self.routes.append((url, handler))

    async def unroute(self, url: str, handler: Any) -> None:
        self.routes.remove((url, handler))

    async def route_web_socket(self, url: str, handler: Any) -> None:
        self.web_socket_routes.append((url, handler))


def test_the_websocket_route_comes_and_goes_with_the_request_route() -> None:
    context = FakeContext()
    guard = NetGuard(resolver=FakeResolver(TABLE))
    installed = asyncio.run(install_guard(cast(BrowserContext, context), guard))
    assert context.routes == [("**/*", installed.on_request)]
    assert context.web_socket_routes == [("**/*", installed.on_web_socket)]
    asyncio.run(remove_guard(cast(BrowserContext, context), installed))
    assert context.routes == []
    # Playwright cannot remove a WebSocket route: the guard's stays, disarmed,
    # and lets every WebSocket connect unchecked and uncounted.
    assert _open_web_socket(installed, "ws://10.0.0.1/") == ["connect"]
    assert guard.blocked == {}


def test_a_guard_that_cannot_route_websockets_is_not_installed_at_all() -> None:
    class NoWebSocketRouting(FakeContext):
        async def route_web_socket(self, url: str, handler: Any) -> None:
            raise RuntimeError("Another client is already routing WebSockets")

    context = NoWebSocketRouting()
    guard = NetGuard(resolver=FakeResolver(TABLE))
    with pytest.raises(RuntimeError):
        asyncio.run(install_guard(cast(BrowserContext, context), guard))
    assert context.routes == []
