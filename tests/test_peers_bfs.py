"""The breadth-first Playwright peer's link rules and markdown, without a browser."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

PEERS = Path(__file__).resolve().parent.parent / "benchmarks" / "peers"
sys.path.insert(0, str(PEERS))

import bfs_playwright as bfs  # noqa: E402
import peer_common  # noqa: E402

SITE = ("http", "127.0.0.1:8811")


@pytest.mark.parametrize(
    ("href", "expected"),
    [
        ("http://127.0.0.1:8811/a/b.html", "http://127.0.0.1:8811/a/b.html"),
        ("http://127.0.0.1:8811/a/b.html#section-2", "http://127.0.0.1:8811/a/b.html"),
        ("http://127.0.0.1:8811/app/#/housing/halls", "http://127.0.0.1:8811/app/#/housing/halls"),
        ("http://127.0.0.1:8811/a?x=1#top", "http://127.0.0.1:8811/a?x=1"),
        ("http://127.0.0.1:8812/a", None),  # another origin
        ("https://127.0.0.1:8811/a", None),  # another scheme is another origin
        ("http://example.org/a", None),
        ("mailto:office@example.org", None),
        ("javascript:void(0)", None),
        ("http://127.0.0.1:8811/files/guide.PDF", None),
        ("http://127.0.0.1:8811/img/map.jpg", None),
    ],
)
def test_normalize_link(href: str, expected: str | None) -> None:
    assert bfs.normalize_link(href, SITE) == expected


def test_markdown_drops_scripts_styles_and_head_but_keeps_title_and_links() -> None:
    html = (
        "<html><head><title>Dormitories</title><style>p{color:red}</style>"
        '<script type="application/ld+json">{"@type":"WebPage"}</script></head>'
        "<body><script>var theme = 'dark';</script><h2>Rooms</h2>"
        '<p>Four beds per room, <a href="/dorm/rent.html">rent</a>.</p>'
        "<noscript>enable JS</noscript></body></html>"
    )
    md = bfs.to_markdown(html)
    assert md.startswith("# Dormitories")
    assert "## Rooms" in md
    assert "[rent](/dorm/rent.html)" in md
    for leaked in ("color:red", "WebPage", "theme", "enable JS"):
        assert leaked not in md


def test_tasks_file_and_chromium_args(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "tasks.json"
    path.write_text(
        json.dumps([{"id": "t1", "start_url": "http://127.0.0.1:1/", "query": "宿舍 住宿条件"}]),
        encoding="utf-8",
    )
    assert peer_common.load_tasks(str(path)) == [
        peer_common.Task("t1", "http://127.0.0.1:1/", "宿舍 住宿条件")
    ]
    monkeypatch.setenv(peer_common.EXTRA_ARGS_ENV, f'"{peer_common.RESOLVER_ARG}" --lang=en')
    args = peer_common.chromium_args()
    assert args.count(peer_common.RESOLVER_ARG) == 1  # the Makefile's copy is not repeated
    assert args[-1] == "--lang=en"
    assert "--disable-quic" in args


def test_peers_use_pw_adaptives_quiet_flags() -> None:
    from pw_adaptive.render.browser import QUIET_ARGS

    assert peer_common.QUIET_ARGS == QUIET_ARGS
    assert peer_common.chromium_args()[: len(QUIET_ARGS)] == list(QUIET_ARGS)
