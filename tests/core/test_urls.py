"""Tests for pw_adaptive.core.urls: canonicalization, route fragments, hosts."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pw_adaptive.core.urls import (
    canonicalize_url,
    host_of_canonical,
    is_home_page,
    is_route_fragment,
    is_subtree_root,
    url_host,
)

CANONICAL_CASES = [
    # Scheme, host, port.
    pytest.param(
        "HTTP://WWW.Uni.EDU/Study", "http://www.uni.edu/Study", id="scheme-host-lowercase"
    ),
    pytest.param("https://uni.edu:443/a", "https://uni.edu/a", id="https-default-port"),
    pytest.param("http://uni.edu:80/a", "http://uni.edu/a", id="http-default-port"),
    pytest.param("http://uni.edu:443/a", "http://uni.edu:443/a", id="https-port-on-http-kept"),
    pytest.param("http://127.0.0.1:8000", "http://127.0.0.1:8000/", id="fixture-port-kept"),
    pytest.param("http://uni.edu:08080/", "http://uni.edu:8080/", id="port-leading-zero"),
    pytest.param("http://uni.edu:/a", "http://uni.edu/a", id="empty-port"),
    pytest.param("https://uni.edu./a", "https://uni.edu/a", id="trailing-dot-host"),
    pytest.param("https://user:secret@uni.edu/a", "https://uni.edu/a", id="userinfo-dropped"),
    pytest.param("http://[2001:DB8::0:1]:8080/", "http://[2001:db8::1]:8080/", id="ipv6-literal"),
    pytest.param(
        "http://例子.中国/住宿", "http://xn--fsqu00a.xn--fiqs8s/%E4%BD%8F%E5%AE%BF", id="idn"
    ),
    pytest.param("https://BÜCHER.de/", "https://xn--bcher-kva.de/", id="idn-uppercase"),
    # Path.
    pytest.param("https://uni.edu", "https://uni.edu/", id="empty-path"),
    pytest.param("https://uni.edu/a/./b/../c", "https://uni.edu/a/c", id="dot-segments"),
    pytest.param("https://uni.edu/a/b/..", "https://uni.edu/a/", id="dot-segments-trailing"),
    pytest.param("https://uni.edu/../../a", "https://uni.edu/a", id="dot-segments-above-root"),
    pytest.param("https://uni.edu/a/%2E%2E/b", "https://uni.edu/b", id="encoded-dot-segments"),
    pytest.param("https://uni.edu/Fees/PG", "https://uni.edu/Fees/PG", id="path-case-kept"),
    pytest.param("https://uni.edu/fees/", "https://uni.edu/fees/", id="trailing-slash-kept"),
    pytest.param("https://uni.edu/a//b", "https://uni.edu/a//b", id="server-double-slash-kept"),
    pytest.param("https://uni.edu/%7euser/%41", "https://uni.edu/~user/A", id="unreserved-decoded"),
    pytest.param(
        "https://uni.edu/a%2fb%3f", "https://uni.edu/a%2Fb%3F", id="reserved-hex-uppercased"
    ),
    pytest.param("https://uni.edu/a b", "https://uni.edu/a%20b", id="space-encoded"),
    pytest.param("https://uni.edu/100%", "https://uni.edu/100%25", id="stray-percent"),
    pytest.param(
        "https://uni.edu/zh/住宿", "https://uni.edu/zh/%E4%BD%8F%E5%AE%BF", id="chinese-path"
    ),
    pytest.param(
        "https://uni.edu/zh/%e4%bd%8f%e5%ae%bf",
        "https://uni.edu/zh/%E4%BD%8F%E5%AE%BF",
        id="chinese-path-encoded-lowercase",
    ),
    pytest.param(
        "https://uni.edu/shop;jsessionid=0AF31C2B?x=1",
        "https://uni.edu/shop?x=1",
        id="jsessionid-path",
    ),
    pytest.param(
        "https://uni.edu/a;JSESSIONID=1;v=2/b",
        "https://uni.edu/a;v=2/b",
        id="jsessionid-other-params",
    ),
    # Query.
    pytest.param("https://uni.edu/s?b=2&a=1", "https://uni.edu/s?a=1&b=2", id="query-sorted"),
    pytest.param(
        "https://uni.edu/s?t=2&a=1&t=1", "https://uni.edu/s?a=1&t=2&t=1", id="query-repeated-stable"
    ),
    pytest.param("https://uni.edu/s?", "https://uni.edu/s", id="empty-query"),
    pytest.param("https://uni.edu/s?&&a=1&", "https://uni.edu/s?a=1", id="empty-query-pieces"),
    pytest.param("https://uni.edu/s?a&b=", "https://uni.edu/s?a&b=", id="blank-values-kept"),
    pytest.param("https://uni.edu/s?q=a+b%20c", "https://uni.edu/s?q=a+b%20c", id="plus-kept"),
    pytest.param(
        "https://uni.edu/s?utm_source=n&UTM_Medium=e&utm_campaign=x&id=3",
        "https://uni.edu/s?id=3",
        id="utm-dropped",
    ),
    pytest.param(
        "https://uni.edu/?gclid=1&fbclid=2&msclkid=3&mc_cid=4&mc_eid=5&_ga=6&k=v",
        "https://uni.edu/?k=v",
        id="click-ids-dropped",
    ),
    pytest.param(
        "https://uni.edu/?jsessionid=A&PHPSESSID=B&sessionid=C&ASPSESSIONIDQQ=D&cfid=1&cftoken=2",
        "https://uni.edu/",
        id="session-params-dropped",
    ),
    pytest.param(
        "https://uni.edu/?sid=0123456789abcdef0123456789ABCDEF",
        "https://uni.edu/",
        id="hex-sid-dropped",
    ),
    pytest.param("https://uni.edu/?sid=42", "https://uni.edu/?sid=42", id="short-sid-kept"),
    pytest.param(
        "https://uni.edu/?q=住宿", "https://uni.edu/?q=%E4%BD%8F%E5%AE%BF", id="query-utf8"
    ),
    pytest.param(
        "https://uni.edu/?a=%3d%26", "https://uni.edu/?a=%3D%26", id="query-reserved-kept"
    ),
    # Fragments.
    pytest.param("https://uni.edu/page#section", "https://uni.edu/page", id="anchor-dropped"),
    pytest.param(
        "https://uni.edu/page#:~:text=fees", "https://uni.edu/page", id="text-fragment-dropped"
    ),
    pytest.param("https://uni.edu/page#", "https://uni.edu/page", id="empty-fragment-dropped"),
    pytest.param("https://uni.edu/page#!", "https://uni.edu/page", id="bare-hashbang-dropped"),
    pytest.param(
        "https://uni.edu/page#!section", "https://uni.edu/page", id="hashbang-no-slash-dropped"
    ),
    pytest.param("https://uni.edu/#/fees", "https://uni.edu/#/fees", id="route-kept"),
    pytest.param("https://uni.edu/#!/fees", "https://uni.edu/#!/fees", id="hashbang-route-kept"),
    pytest.param("https://uni.edu/#/", "https://uni.edu/", id="root-route-dropped"),
    pytest.param("https://uni.edu/#!/", "https://uni.edu/", id="root-hashbang-dropped"),
    pytest.param(
        "https://uni.edu/#/Fees/PG/", "https://uni.edu/#/Fees/PG/", id="route-case-slash-kept"
    ),
    pytest.param("https://uni.edu/#/a/./b/../c", "https://uni.edu/#/a/c", id="route-dot-segments"),
    pytest.param("https://uni.edu/#//a//b", "https://uni.edu/#/a/b", id="route-double-slash"),
    pytest.param(
        "https://uni.edu/#/c?z=1&utm_source=x&a=2", "https://uni.edu/#/c?a=2&z=1", id="route-query"
    ),
    pytest.param("https://uni.edu/#/c?utm_source=x", "https://uni.edu/#/c", id="route-query-empty"),
    pytest.param("https://uni.edu/#/fees#intl", "https://uni.edu/#/fees", id="route-inner-anchor"),
    pytest.param(
        "https://uni.edu/#/fees:~:text=tuition", "https://uni.edu/#/fees", id="route-text-directive"
    ),
    pytest.param(
        "https://uni.edu/#/zh/住宿", "https://uni.edu/#/zh/%E4%BD%8F%E5%AE%BF", id="route-utf8"
    ),
    pytest.param(
        "https://uni.edu/#/a;jsessionid=77/b", "https://uni.edu/#/a/b", id="route-jsessionid"
    ),
    pytest.param("https://uni.edu/?b=1#/x", "https://uni.edu/?b=1#/x", id="query-and-route"),
    # Input cleanup (WHATWG): outer whitespace, inner tabs and newlines.
    pytest.param("  https://uni.edu/a \n", "https://uni.edu/a", id="outer-whitespace"),
    pytest.param("https://uni.edu/a\n/b\t", "https://uni.edu/a/b", id="inner-newline-tab"),
]


@pytest.mark.parametrize(("url", "expected"), CANONICAL_CASES)
def test_canonicalize_url(url: str, expected: str) -> None:
    assert canonicalize_url(url) == expected
    assert canonicalize_url(expected) == expected


BASE_CASES = [
    pytest.param("/fees", "https://uni.edu/study/intl", "https://uni.edu/fees", id="absolute-path"),
    pytest.param("fees", "https://uni.edu/study/intl", "https://uni.edu/study/fees", id="relative"),
    pytest.param("../fees", "https://uni.edu/a/b/c", "https://uni.edu/a/fees", id="parent"),
    pytest.param(
        "?page=2", "https://uni.edu/news?page=1", "https://uni.edu/news?page=2", id="query"
    ),
    pytest.param("#/fees", "https://uni.edu/app#/home", "https://uni.edu/app#/fees", id="route"),
    pytest.param(
        "#/fees", "https://uni.edu/app?x=1", "https://uni.edu/app?x=1#/fees", id="route-query"
    ),
    pytest.param("#top", "https://uni.edu/app#/home", "https://uni.edu/app", id="anchor"),
    pytest.param("", "https://uni.edu/app#/home", "https://uni.edu/app#/home", id="empty-is-base"),
    pytest.param(
        "//cdn.uni.edu/x", "https://uni.edu/", "https://cdn.uni.edu/x", id="scheme-relative"
    ),
    pytest.param(
        "http://other.org/x", "https://uni.edu/", "http://other.org/x", id="absolute-wins"
    ),
]


@pytest.mark.parametrize(("url", "base", "expected"), BASE_CASES)
def test_base_resolution(url: str, base: str, expected: str) -> None:
    assert canonicalize_url(url, base) == expected


def test_encoded_and_raw_chinese_paths_are_one_url() -> None:
    raw = canonicalize_url("https://uni.edu/zh/住宿")
    encoded = canonicalize_url("https://uni.edu/zh/%E4%BD%8F%E5%AE%BF")
    lowercase = canonicalize_url("https://uni.edu/zh/%e4%bd%8f%e5%ae%bf")
    assert raw == encoded == lowercase
    assert raw.isascii()


def test_hash_route_fragments_are_distinct_pages() -> None:
    fees = canonicalize_url("https://uni.edu/#/fees")
    admissions = canonicalize_url("https://uni.edu/#/admissions")
    assert fees != admissions
    assert canonicalize_url("https://uni.edu/#section") == canonicalize_url("https://uni.edu/")


def test_credentials_never_appear() -> None:
    canonical = canonicalize_url("https://alice:hunter2@uni.edu/secret")
    assert "alice" not in canonical
    assert "hunter2" not in canonical


@pytest.mark.parametrize(
    "url",
    [
        pytest.param("ftp://alice:hunter2@uni.edu/", id="scheme"),
        pytest.param("http://alice:hunter2@uni.edu:99999/", id="port"),
        pytest.param("http://alice:hunter2@[zz]/", id="ipv6"),
        pytest.param("http://alice:hunter2@uni\x01.edu/", id="control"),
    ],
)
def test_credentials_never_appear_in_errors(url: str) -> None:
    with pytest.raises(ValueError) as error:
        canonicalize_url(url)
    assert "hunter2" not in str(error.value)
    assert "alice" not in str(error.value)


INVALID_CASES = [
    pytest.param("", id="empty"),
    pytest.param("   ", id="blank"),
    pytest.param("/fees", id="relative-no-base"),
    pytest.param("//uni.edu/fees", id="scheme-relative-no-base"),
    pytest.param("uni.edu/fees", id="no-scheme"),
    pytest.param("javascript:void(0)", id="javascript"),
    pytest.param("mailto:office@uni.edu", id="mailto"),
    pytest.param("tel:+441234", id="tel"),
    pytest.param("data:text/html,hi", id="data"),
    pytest.param("file:///etc/passwd", id="file"),
    pytest.param("ftp://uni.edu/x", id="ftp"),
    pytest.param("http://", id="no-host"),
    pytest.param("http:///path", id="empty-host"),
    pytest.param("http://user@/x", id="only-userinfo"),
    pytest.param("http://uni.edu:99999/", id="port-out-of-range"),
    pytest.param("http://uni.edu:8o/", id="port-not-numeric"),
    pytest.param("http://[::1/", id="ipv6-unterminated"),
    pytest.param("http://[fe80::zz]/", id="ipv6-invalid"),
    pytest.param("http://999.1.1.1/", id="ipv4-invalid"),
    pytest.param("http://uni..edu/", id="empty-label"),
    pytest.param("http://uni edu/", id="space-in-host"),
    pytest.param("http://a" + "b" * 70 + ".edu/", id="label-too-long"),
    pytest.param("http://" + "ü" * 64 + ".de/", id="bad-idn-label-too-long"),
    pytest.param("http://a\ufffdb.de/", id="bad-idn-prohibited"),
    pytest.param("http://uni.edu\\@evil.com/", id="backslash-authority"),
    pytest.param("http://uni\x00.edu/", id="nul"),
    pytest.param("https://uni.edu/a\x07b", id="control-char"),
    pytest.param("https://uni.edu/\ud800", id="lone-surrogate"),
]


@pytest.mark.parametrize("url", INVALID_CASES)
def test_invalid_urls_raise_value_error(url: str) -> None:
    with pytest.raises(ValueError):
        canonicalize_url(url)


def test_error_messages_name_the_problem() -> None:
    with pytest.raises(ValueError, match="unsupported scheme 'mailto'"):
        canonicalize_url("mailto:x@uni.edu")
    with pytest.raises(ValueError, match="relative URL without a base"):
        canonicalize_url("/fees")
    with pytest.raises(ValueError, match="port"):
        canonicalize_url("http://uni.edu:70000/")


def test_relative_url_against_non_http_base_is_rejected() -> None:
    with pytest.raises(ValueError):
        canonicalize_url("/x", "mailto:office@uni.edu")


@pytest.mark.parametrize(
    ("fragment", "expected"),
    [
        pytest.param("#/fees", True, id="route"),
        pytest.param("/fees", True, id="route-without-hash"),
        pytest.param("#!/fees", True, id="hashbang"),
        pytest.param("!/fees", True, id="hashbang-without-hash"),
        pytest.param("#/", True, id="root-route"),
        pytest.param("#section", False, id="anchor"),
        pytest.param("#:~:text=x", False, id="text-fragment"),
        pytest.param("#", False, id="empty-hash"),
        pytest.param("", False, id="empty"),
        pytest.param("#!", False, id="bare-hashbang"),
        pytest.param("#!section", False, id="hashbang-no-slash"),
    ],
)
def test_is_route_fragment(fragment: str, expected: bool) -> None:
    assert is_route_fragment(fragment) is expected


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        pytest.param("HTTPS://WWW.Uni.EDU:443/x", "www.uni.edu", id="default-port"),
        pytest.param("http://127.0.0.1:8000/x", "127.0.0.1:8000", id="port"),
        pytest.param("http://例子.中国/", "xn--fsqu00a.xn--fiqs8s", id="idn"),
        pytest.param("http://[::1]:81/", "[::1]:81", id="ipv6"),
    ],
)
def test_url_host(url: str, expected: str) -> None:
    assert url_host(url) == expected


def test_url_host_rejects_bad_urls() -> None:
    with pytest.raises(ValueError):
        url_host("mailto:x@uni.edu")


# --- Properties -----------------------------------------------------------

_SEGMENT = st.text(
    alphabet=st.sampled_from(list("aZ09-._~%!$&'()*+,;=:@ /?#[]éé住宿\\^|\"<>")), max_size=8
)
_HOSTS = st.sampled_from(
    ["uni.edu", "WWW.Uni.EDU", "127.0.0.1", "例子.中国", "[::1]", "xn--bcher-kva.de", "a_b.c-d.org"]
)


@st.composite
def _http_urls(draw: st.DrawFn) -> str:
    scheme = draw(st.sampled_from(["http", "https", "HTTP", "hTTps"]))
    userinfo = draw(st.sampled_from(["", "user@", "u:p@"]))
    host = draw(_HOSTS)
    port = draw(st.sampled_from(["", ":80", ":443", ":8000", ":"]))
    path = "/".join(draw(st.lists(_SEGMENT, max_size=5)))
    query = "&".join(
        draw(
            st.lists(
                st.tuples(
                    st.sampled_from(["a", "b", "utm_source", "sid", "page", "Q", "%61", ""]),
                    _SEGMENT,
                ).map("=".join),
                max_size=4,
            )
        )
    )
    fragment = draw(st.sampled_from(["", "#", "#x", "#/", "#!/", "#/r/", "#:~:text="])) + draw(
        _SEGMENT
    )
    url = f"{scheme}://{userinfo}{host}{port}/{path}"
    if query or draw(st.booleans()):
        url += "?" + query
    return url + fragment


@settings(max_examples=500, deadline=None)
@given(_http_urls())
def test_canonicalize_is_idempotent(url: str) -> None:
    try:
        canonical = canonicalize_url(url)
    except ValueError:
        return
    assert canonicalize_url(canonical) == canonical
    assert canonical.isascii()
    assert canonical.startswith(("http://", "https://"))


@settings(max_examples=200, deadline=None)
@given(_http_urls(), _http_urls())
def test_canonicalize_with_base_is_idempotent(url: str, base: str) -> None:
    relative = url.split("/", 3)[-1]
    try:
        canonical = canonicalize_url(relative, base)
    except ValueError:
        return
    assert canonicalize_url(canonical) == canonical


@settings(max_examples=1000, deadline=None)
@given(st.text())
def test_arbitrary_text_raises_only_value_error(text: str) -> None:
    try:
        canonical = canonicalize_url(text)
    except ValueError:
        return
    assert canonicalize_url(canonical) == canonical


@settings(max_examples=300, deadline=None)
@given(st.text(), st.text())
def test_arbitrary_text_with_base_raises_only_value_error(text: str, base: str) -> None:
    # Any exception other than ValueError escapes suppress() and fails the test.
    with contextlib.suppress(ValueError):
        canonicalize_url(text, base)
    with contextlib.suppress(ValueError):
        canonicalize_url(text, "https://uni.edu/a/b?c#/d")


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=40))
def test_arbitrary_text_after_http_prefix(text: str) -> None:
    for prefix in ("http://", "https://uni.edu/", "https://uni.edu/#/", "http://[", "http://u:"):
        try:
            canonical = canonicalize_url(prefix + text)
        except ValueError:
            continue
        assert canonicalize_url(canonical) == canonical


@pytest.mark.parametrize(
    ("url", "host"),
    [
        pytest.param("https://u.edu/a/b", "u.edu", id="path"),
        pytest.param("http://u.edu:8080/", "u.edu:8080", id="port"),
        pytest.param("https://u.edu", "u.edu", id="no-path"),
        pytest.param("https://u.edu/#/route", "u.edu", id="route-fragment"),
    ],
)
def test_host_of_canonical_is_the_text_between_scheme_and_path(url: str, host: str) -> None:
    assert host_of_canonical(url) == host


@pytest.mark.parametrize(
    ("url", "home"),
    [
        ("https://u.edu/", True),
        ("https://u.edu", True),
        ("https://u.edu/index.html", True),
        ("https://u.edu/en/", True),
        ("https://u.edu/zh-CN/index.html", True),
        ("https://u.edu/#/", True),
        ("https://u.edu/#/fees", False),
        ("https://u.edu/#!/housing", False),
        ("https://u.edu/#section", True),
        ("https://u.edu/news/", False),
        ("https://u.edu/en/housing/", False),
        ("https://u.edu/blog/", False),
    ],
)
def test_a_home_page_is_a_site_root_or_a_language_root(url: str, home: bool) -> None:
    assert is_home_page(url) is home


@pytest.mark.parametrize(
    ("url", "links", "root"),
    [
        # A GitHub Pages project site: every link of its start stays in /guide/.
        ("https://u.io/guide/", ["/guide/a.html", "/guide/b/", "/guide/b/c.html"], True),
        # Links to other sites do not count; the page's own URL neither.
        (
            "https://u.io/guide/",
            ["/guide/", "/guide/a", "/guide/b", "/guide/c", "https://x.org/"],
            True,
        ),
        # A section's index links the rest of its site (its menu, "home").
        ("https://u.edu/admissions/", ["/admissions/a", "/admissions/b", "/fees/", "/"], False),
        # Too few links to tell; not a folder; a route; the site root.
        ("https://u.io/guide/", ["/guide/a", "/guide/b"], False),
        ("https://u.io/guide/intro.html", ["/guide/a", "/guide/b", "/guide/c"], False),
        ("https://u.io/guide/#/fees", ["/guide/a", "/guide/b", "/guide/c"], False),
        ("https://u.io/", ["/a", "/b", "/c"], False),
    ],
)
def test_a_subtree_root_is_a_folder_whose_links_all_stay_inside_it(
    url: str, links: list[str], root: bool
) -> None:
    absolute = [link if "://" in link else "https://" + url.split("/")[2] + link for link in links]
    assert is_subtree_root(url, absolute) is root
