"""Property-based tests (hypothesis) over canonicalization, trap detection and
the JSON Lines writer: whatever the input, they keep their contracts."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from urllib.parse import urlsplit

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pw_adaptive.core.traps import TrapDetector, TrapReason
from pw_adaptive.core.urls import canonicalize_url
from pw_adaptive.crawling.output import JsonlWriter, repair_tail

# --------------------------------------------------------------- URL strategies

_label = st.from_regex(r"[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?", fullmatch=True)
_hosts = st.one_of(
    st.lists(_label, min_size=1, max_size=4).map(".".join),
    st.lists(_label, min_size=1, max_size=3).map(lambda ls: ".".join(ls).upper()),
    st.ip_addresses(v=4).map(str),
    st.ip_addresses(v=6).map(lambda a: f"[{a}]"),
    st.sampled_from(["宿舍.example", "bücher.de", "xn--bcher-kva.de", "localhost", "例え.テスト"]),
)
_schemes = st.sampled_from(
    ["http", "https", "HTTP", "HtTpS", "ftp", "file", "javascript", "data", "mailto", "chrome", ""]
)
_url_text = st.text(
    st.characters(codec="utf-8", exclude_categories=("Cs",)) | st.sampled_from("%/?#&=;.@:"),
    max_size=30,
)
_userinfo = st.one_of(
    st.just(""),
    st.tuples(
        st.from_regex(r"[A-Za-z0-9._~-]{1,8}", fullmatch=True),
        st.from_regex(r"[A-Za-z0-9._~!$&'()*+,;=-]{0,12}", fullmatch=True),
    ).map(lambda up: f"{up[0]}:{up[1]}@"),
)


@st.composite
def url_like(draw: st.DrawFn) -> str:
    """URLs as they appear in hrefs: mostly well-formed, with odd parts."""
    scheme = draw(_schemes)
    port = draw(st.one_of(st.just(""), st.integers(0, 70000).map(lambda p: f":{p}")))
    path = draw(_url_text)
    if path and not path.startswith("/"):
        path = "/" + path
    query = draw(st.one_of(st.just(""), _url_text.map(lambda q: "?" + q)))
    fragment = draw(st.one_of(st.just(""), _url_text.map(lambda f: "#" + f)))
    return f"{scheme}://{draw(_userinfo)}{draw(_hosts)}{port}{path}{query}{fragment}"


def _authority(canonical: str) -> str:
    return canonical.split("://", 1)[1].split("/", 1)[0]


# ------------------------------------------------------------ canonicalization


@given(url_like())
@settings(max_examples=120, deadline=None)
def test_canonical_urls_are_idempotent_http_ascii_and_without_userinfo(url: str) -> None:
    try:
        canonical = canonicalize_url(url)
    except ValueError:
        return
    assert canonicalize_url(canonical) == canonical
    assert urlsplit(canonical).scheme in ("http", "https")
    assert canonical.isascii()
    assert "@" not in _authority(canonical)
    assert urlsplit(canonical).username is None and urlsplit(canonical).password is None


@given(st.text(max_size=60))
@settings(deadline=None)
def test_any_text_either_canonicalizes_or_raises_value_error(text: str) -> None:
    try:
        canonical = canonicalize_url(text)
    except ValueError:
        return
    assert canonicalize_url(canonical) == canonical


@given(url_like(), st.sampled_from(["https://u.example/a/b?x=1", "http://127.0.0.1:8000/app#/x"]))
@settings(deadline=None)
def test_relative_resolution_is_idempotent_too(url: str, base: str) -> None:
    relative = url.split("://", 1)[1].split("/", 1)[-1]
    for candidate in (url, relative, "../" + relative, "#/" + relative):
        try:
            canonical = canonicalize_url(candidate, base)
        except ValueError:
            continue
        assert canonicalize_url(canonical) == canonical
        assert urlsplit(canonical).scheme in ("http", "https")


@given(
    st.sampled_from(["ftp", "file", "javascript", "data", "mailto", "chrome", "blob", "about"]),
    st.text(max_size=20),
)
@settings(deadline=None)
def test_only_http_and_https_are_ever_accepted(scheme: str, rest: str) -> None:
    for url in (f"{scheme}://{rest}", f"{scheme}:{rest}"):
        try:
            canonical = canonicalize_url(url)
        except ValueError:
            continue
        # Only reachable when the text parses as a relative reference that
        # happens to look like an http(s) URL: it never keeps another scheme.
        assert urlsplit(canonical).scheme in ("http", "https")  # pragma: no cover


# -------------------------------------------------------------- trap detection

_segments = st.lists(
    st.one_of(
        _label,
        st.sampled_from(["page", "2030", "01", "calendar", "events", "a", "..", "p", "2"]),
        st.integers(0, 3000).map(str),
        st.dates().map(lambda d: d.isoformat()),
    ),
    max_size=12,
)
_params = st.lists(
    st.tuples(
        st.sampled_from(["page", "p", "offset", "date", "sid", "sort", "color", "size", "q", "ts"]),
        st.one_of(st.integers(-5, 10**6).map(str), _label, st.dates().map(str)),
    ),
    max_size=6,
)


@st.composite
def crawl_urls(draw: st.DrawFn) -> str:
    path = "/" + "/".join(draw(_segments))
    params = draw(_params)
    query = "&".join(f"{k}={v}" for k, v in params)
    return f"https://u.example{path}" + (f"?{query}" if query else "")


_REASONS = {str(r) for r in TrapReason}


@given(st.lists(st.one_of(crawl_urls(), st.text(max_size=40)), max_size=25))
@settings(max_examples=60, deadline=None)
def test_trap_detection_never_raises_and_is_deterministic(urls: list[str]) -> None:
    today = date(2026, 6, 1)
    first, second = TrapDetector(today=today), TrapDetector(today=today)
    a = [first.check(u) for u in urls]
    b = [second.check(u) for u in urls]
    assert a == b
    assert all(r is None or r in _REASONS for r in a)
    for detector in (first, second):
        reason = detector.check_redirects(urls)
        assert reason is None or reason in _REASONS


# ------------------------------------------------------------- JSON Lines writer

_json_text = st.text(
    st.characters(codec=None) | st.sampled_from("\n\r\u2028\u2029\x85\x0b\x0c\x1c\ud800\udfff")
)
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | _json_text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_json_text, inner, max_size=4),
    max_leaves=20,
)
records = st.dictionaries(_json_text, json_values, max_size=6)


@given(st.lists(records, min_size=1, max_size=5))
@settings(
    suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=30, deadline=None
)
def test_any_records_round_trip_one_per_line(
    tmp_path: Path, batch: list[dict[str, object]]
) -> None:
    out = tmp_path / "out.jsonl"
    with JsonlWriter(out) as writer:
        for record in batch:
            writer.write(record)
    raw = out.read_bytes()
    text = raw.decode("utf-8")  # always valid UTF-8, even for lone surrogates
    # The same lines whichever line splitting a reader uses.
    assert text.splitlines() == text.split("\n")[:-1]
    assert [json.loads(line) for line in text.splitlines()] == batch


@given(st.lists(records, min_size=1, max_size=4), st.data())
@settings(
    suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=20, deadline=None
)
def test_a_torn_tail_is_cut_before_appending(
    tmp_path: Path, batch: list[dict[str, object]], data: st.DataObject
) -> None:
    out = tmp_path / "torn.jsonl"
    out.unlink(missing_ok=True)
    with JsonlWriter(out) as writer:
        for record in batch:
            writer.write(record)
    whole = out.read_bytes()
    last_start = whole.rstrip(b"\n").rfind(b"\n") + 1
    cut = data.draw(st.integers(last_start, len(whole) - 1), label="cut")
    out.write_bytes(whole[:cut])  # a crash in the middle of the last line
    with JsonlWriter(out, append=True) as writer:
        writer.write({"type": "summary"})
    lines = out.read_text(encoding="utf-8").splitlines()
    assert [json.loads(line) for line in lines] == [*batch[:-1], {"type": "summary"}]
    assert repair_tail(out) == 0
