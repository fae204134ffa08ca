"""The CLI and the library end to end on a fixture portal: output format,
exit codes, markdown files, and resuming an interrupted crawl."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import sys
from pathlib import Path
from typing import Any

import pytest

from pw_adaptive import AdaptiveCrawler, CrawlSettings, crawl
from pw_adaptive.cli import EXIT_OK, EXIT_START, EXIT_USAGE, main
from pw_adaptive.crawling.loop import Progress

# The speed benchmark's /proc reader.
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from speed import process_tree

pytestmark = pytest.mark.e2e

PAGE_KEYS = {"type", "url", "final_url", "title", "depth", "relevance", "link_score", "blind",
             "evidence", "fresh", "markdown"}  # fmt: skip
SUMMARY_KEYS = {"type", "stop_reason", "pages", "coverage", "evidence", "skipped", "elapsed_s"}


@pytest.fixture(scope="module")
def classic(fixture_site: Any) -> dict[str, Any]:
    task = next(t for t in fixture_site.tasks() if t["id"] == "classic-fees")
    return {"url": task["start_url"], "query": task["query"]}


def test_cli_writes_json_lines_in_fetch_order_with_a_final_summary(
    classic: dict[str, Any], tmp_path: Path
) -> None:
    out, md = tmp_path / "out.jsonl", tmp_path / "md"
    argv = ["crawl", classic["url"], "--query", classic["query"], "--out", str(out),
            "--markdown-dir", str(md), "--concurrency", "1", "--quiet"]  # fmt: skip
    assert main(argv) == EXIT_OK
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    pages = [r for r in records if r["type"] == "page"]
    assert pages and set(pages[0]) >= PAGE_KEYS
    assert records[-1]["type"] == "summary" and set(records[-1]) >= SUMMARY_KEYS
    assert records[-1]["pages"] == len(pages)
    assert next(p["depth"] for p in pages) == 0
    relevant = [p for p in pages if p["relevance"] >= 0.05 and p["markdown"]]
    assert len(list(md.glob("*.md"))) == len({p["final_url"] for p in relevant})


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_cli_exits_3_when_the_start_url_cannot_be_loaded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"http://127.0.0.1:{_closed_port()}/"
    assert (
        main(["crawl", url, "--query", "fees", "--quiet", "--out", str(tmp_path / "o")])
        == EXIT_START
    )
    assert "cannot load the start URL" in capsys.readouterr().err


def test_cli_exits_2_on_a_query_of_stop_words_and_closes_the_browser_it_started(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The crawl parses the query while Chromium starts: the refusal comes from
    # there, after the launch, and must leave neither output nor a browser.
    out = tmp_path / "o.jsonl"
    before = _children()
    url = f"http://127.0.0.1:{_closed_port()}/"
    assert main(["crawl", url, "--query", "the of and", "--quiet", "--out", str(out)]) == EXIT_USAGE
    err = capsys.readouterr().err.strip()
    assert err.startswith("pw-adaptive: error:") and "no terms" in err and "\n" not in err
    assert not out.exists()
    assert _children() == before


def _children() -> set[int]:
    """Processes started by this one and still alive (Playwright's driver while it runs)."""
    return {p.pid for p in process_tree(os.getpid())} - {os.getpid()}


def test_an_interrupted_crawl_resumes_to_the_same_pages(
    classic: dict[str, Any], tmp_path: Path
) -> None:
    settings = CrawlSettings(concurrency=1)
    full = crawl(classic["url"], classic["query"], concurrency=1)
    state = tmp_path / "state.sqlite"

    async def interrupted() -> list[str]:
        cancel = asyncio.Event()

        def on_progress(p: Progress) -> None:
            if p.pages >= 3:
                cancel.set()

        result = await AdaptiveCrawler(settings).run(
            classic["url"], classic["query"], state_path=state, cancel=cancel,
            on_progress=on_progress,
        )  # fmt: skip
        assert result.stop_reason == "cancelled"
        return [p.url for p in result.pages]

    first = asyncio.run(interrupted())
    assert 3 <= len(first) < len(full.pages)
    fetched_again: list[str] = []

    async def resumed() -> Any:
        return await AdaptiveCrawler(settings).run(
            classic["url"], classic["query"], state_path=state,
            on_record=lambda r: fetched_again.append(r.get("url", "")) if r["type"] == "page" else None,
        )  # fmt: skip

    second = asyncio.run(resumed())
    assert not set(first) & set(fetched_again)  # done pages are not fetched again
    assert [p.url for p in second.pages] == [p.url for p in full.pages]
    assert second.stop_reason == full.stop_reason


def test_a_state_file_of_another_crawl_is_refused(classic: dict[str, Any], tmp_path: Path) -> None:
    state = tmp_path / "state.sqlite"
    crawl(classic["url"], classic["query"], concurrency=1, max_pages=2, state_path=str(state))
    with pytest.raises(ValueError, match="another crawl"):
        crawl(classic["url"], "library opening hours", max_pages=2, state_path=str(state))
