"""Tests for pw_adaptive.core.scope: same site, extra hosts and wildcards, prefixes."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pw_adaptive.core.scope import Scope
from pw_adaptive.core.urls import canonicalize_url


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        pytest.param("https://uni.edu/fees", True, id="same-host"),
        pytest.param("https://www.uni.edu/fees", True, id="www-variant"),
        pytest.param("http://uni.edu/fees", True, id="other-scheme"),
        pytest.param("HTTPS://UNI.EDU:443/x", True, id="non-canonical-spelling"),
        pytest.param("https://apply.uni.edu/", False, id="subdomain"),
        pytest.param("https://uni.edu:8443/", False, id="other-port"),
        pytest.param("https://example.org/", False, id="other-site"),
        pytest.param("mailto:office@uni.edu", False, id="mailto"),
        pytest.param("javascript:void(0)", False, id="javascript"),
        pytest.param("/relative", False, id="relative"),
        pytest.param("", False, id="empty"),
    ],
)
def test_scope_same_site_by_default(url: str, expected: bool) -> None:
    assert Scope("https://www.uni.edu/").allows(url) is expected


def test_scope_port_must_match_for_fixture_servers() -> None:
    scope = Scope("http://127.0.0.1:8000/")
    assert scope.allows("http://127.0.0.1:8000/a")
    assert scope.allows("http://127.0.0.1:8000/#/fees")
    assert not scope.allows("http://127.0.0.1:8001/a")
    assert not scope.allows("http://127.0.0.1/a")


def test_scope_allowed_hosts() -> None:
    scope = Scope(
        "https://uni.edu/",
        allowed_hosts=["Apply.Uni.EDU", "https://housing.org/", "*.intl.uni.edu", "127.0.0.1:9000"],
    )
    assert scope.allows("https://apply.uni.edu/form")
    assert scope.allows("https://www.housing.org/x")
    assert scope.allows("https://intl.uni.edu/")
    assert scope.allows("https://cn.intl.uni.edu/")
    assert scope.allows("http://127.0.0.1:9000/")
    assert not scope.allows("https://evil-intl.uni.edu/")
    assert not scope.allows("https://library.uni.edu/")
    assert not scope.allows("http://127.0.0.1:9001/")


def test_scope_bad_allowed_host_raises() -> None:
    with pytest.raises(ValueError, match="allowed host"):
        Scope("https://uni.edu/", allowed_hosts=["bad host"])


def test_scope_prefix() -> None:
    scope = Scope("https://uni.edu/", prefix="https://uni.edu/international/")
    assert scope.allows("https://uni.edu/international/fees")
    assert scope.allows("http://www.uni.edu/international/")
    assert not scope.allows("https://uni.edu/international")
    assert not scope.allows("https://uni.edu/research/")
    assert not scope.allows("https://uni.edu/#/international/fees")


def test_scope_start_url_is_always_allowed() -> None:
    scope = Scope("https://uni.edu/home", prefix="https://uni.edu/international/")
    assert scope.allows("https://uni.edu/home")
    assert not scope.allows("https://uni.edu/about")


def test_scope_prefix_on_another_host_decides_alone() -> None:
    scope = Scope("https://uni.edu/", prefix="https://apply.uni.edu/intl/")
    assert scope.allows("https://apply.uni.edu/intl/form")
    assert not scope.allows("https://uni.edu/intl/form")


def test_scope_prefix_with_route() -> None:
    scope = Scope("https://uni.edu/app", prefix="https://uni.edu/app#/courses")
    assert scope.allows("https://uni.edu/app#/courses/msc")
    assert not scope.allows("https://uni.edu/app#/news")


def test_scope_rejects_bad_start_url() -> None:
    with pytest.raises(ValueError):
        Scope("mailto:office@uni.edu")


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_scope_allows_arbitrary_text_without_raising(text: str) -> None:
    # Any exception escapes and fails the test: invalid input is out of scope.
    assert isinstance(Scope("https://uni.edu/").allows(text), bool)


@pytest.mark.parametrize(
    "scope",
    [
        Scope("https://www.uni.edu/"),
        Scope("https://uni.edu/", allowed_hosts=["*.partner.org", "apply.uni.edu:8443"]),
        Scope("https://uni.edu/app", prefix="https://uni.edu/app#/courses"),
    ],
    ids=["same-site", "hosts", "prefix"],
)
@pytest.mark.parametrize(
    "url",
    [
        "HTTPS://UNI.EDU:443/x",
        "http://www.uni.edu/fees?b=2&a=1",
        "https://lab.partner.org/",
        "https://apply.uni.edu:8443/form",
        "https://uni.edu/app#/courses/msc",
        "https://uni.edu/app#/news",
        "https://example.org/",
    ],
)
def test_allows_canonical_agrees_with_allows_on_the_canonical_form(scope: Scope, url: str) -> None:
    assert scope.allows_canonical(canonicalize_url(url)) is scope.allows(url)
