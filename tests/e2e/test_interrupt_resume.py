"""Interrupting the CLI and resuming it: SIGKILL mid-crawl, SIGINT, SIGTERM.

Each crawl runs ``pw-adaptive crawl`` as a subprocess against the ``large``
portal, served here with a request log, with ``--concurrency 3`` so that pages
are in flight whenever the process is stopped. Pages are processed in launch
order, so an uninterrupted run is the reference a resumed one must equal.
"""

from __future__ import annotations

import asyncio
import json
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from logged_portal import LoggedPortal, serve_logged_portal  # tests/e2e/logged_portal.py

pytestmark = pytest.mark.e2e

QUERY = "tuition fees 2026/27"
BUDGET = "12"
CONCURRENCY = "3"
KILL_AFTER_PAGES = 4
"""Page lines in the output before the crawl is stopped."""


@pytest.fixture(scope="module")
def portal() -> Iterator[LoggedPortal]:
    with serve_logged_portal() as logged:
        yield logged


def _argv(portal: LoggedPortal, out: Path, state: Path | None) -> list[str]:
    argv = [sys.executable, "-m", "pw_adaptive.cli", "crawl", portal.url, "--query", QUERY,
            "--max-pages", BUDGET, "--concurrency", CONCURRENCY, "--out", str(out), "--quiet"]  # fmt: skip
    return argv + (["--state", str(state)] if state is not None else [])


def _run(portal: LoggedPortal, phase: str, out: Path, state: Path | None) -> None:
    portal.phase = phase
    done = subprocess.run(_argv(portal, out, state), capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr


def _records(out: Path) -> list[dict[str, Any]]:
    text = out.read_text(encoding="utf-8")
    assert text.endswith("\n")
    return [json.loads(line) for line in text.splitlines()]  # a torn line fails here


def _page_urls(records: list[dict[str, Any]]) -> list[str]:
    return [r["url"] for r in records if r["type"] == "page"]


def _page_lines(out: Path) -> int:
    if not out.exists():
        return 0
    return out.read_bytes().count(b'"type":"page"')


def _start_and_wait(
    portal: LoggedPortal, phase: str, out: Path, state: Path
) -> subprocess.Popen[str]:
    """Start the CLI and return once the output has `KILL_AFTER_PAGES` page lines."""
    portal.phase = phase
    proc = subprocess.Popen(
        _argv(portal, out, state), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    deadline = time.monotonic() + 180
    while _page_lines(out) < KILL_AFTER_PAGES:
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise AssertionError(f"the crawl ended before {KILL_AFTER_PAGES} pages: {proc.stderr}")
        time.sleep(0.05)
    return proc


@pytest.fixture(scope="module")
def reference(portal: LoggedPortal, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """An uninterrupted run: its pages and summary."""
    out = tmp_path_factory.mktemp("reference") / "out.jsonl"
    _run(portal, "reference", out, None)
    records = _records(out)
    assert len(_page_urls(records)) > KILL_AFTER_PAGES + int(CONCURRENCY)
    return {"pages": _page_urls(records), "summary": records[-1]}


def test_a_crawl_killed_with_sigkill_resumes_without_fetching_done_pages_again(
    portal: LoggedPortal, reference: dict[str, Any], tmp_path: Path
) -> None:
    out, state = tmp_path / "out.jsonl", tmp_path / "state.sqlite"
    proc = _start_and_wait(portal, "killed", out, state)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    before = _page_urls(_records(out))
    assert len(before) >= KILL_AFTER_PAGES
    with sqlite3.connect(state) as db:  # pages were rendering at the kill
        (frontier,) = db.execute("SELECT value FROM meta WHERE key = 'frontier'").fetchone()
    assert json.loads(frontier)["in_flight"]
    with out.open("a", encoding="utf-8") as fh:  # as if killed in the middle of a write
        fh.write('{"type":"page","url":"http://torn')
    _run(portal, "resumed", out, state)
    records = _records(out)
    pages = _page_urls(records)
    assert pages[: len(before)] == before  # the lines written before the kill are kept
    assert len(pages) == len(set(pages))  # no page recorded twice
    assert set(pages) == set(reference["pages"])
    assert [r["type"] for r in records].count("summary") == 1 and records[-1]["type"] == "summary"
    assert records[-1]["stop_reason"] == reference["summary"]["stop_reason"]
    assert records[-1]["pages"] == len(pages)
    # The server saw no request for a page recorded before the kill.
    resumed_paths = set(portal.paths("resumed"))
    done_paths = {url.removeprefix(portal.url.rstrip("/")) for url in before}
    assert not done_paths & resumed_paths


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["sigint", "sigterm"])
def test_sigint_and_sigterm_stop_cleanly_with_a_summary_and_a_state_that_resumes(
    portal: LoggedPortal,
    reference: dict[str, Any],
    tmp_path: Path,
    sig: signal.Signals,
) -> None:
    out, state = tmp_path / "out.jsonl", tmp_path / "state.sqlite"
    proc = _start_and_wait(portal, f"stopped-{sig.name}", out, state)
    proc.send_signal(sig)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 0, stderr
    records = _records(out)
    summary = records[-1]
    assert summary["type"] == "summary" and summary["stop_reason"] == "cancelled"
    assert summary["pages"] == len(_page_urls(records)) < len(reference["pages"])
    _run(portal, f"resumed-{sig.name}", out, state)
    records = _records(out)
    pages = _page_urls(records)
    assert len(pages) == len(set(pages)) and set(pages) == set(reference["pages"])
    assert [r["type"] for r in records].count("summary") == 1
    assert records[-1]["stop_reason"] == reference["summary"]["stop_reason"]


def test_context_recycling_every_n_pages_does_not_change_the_crawl(fixture_site: Any) -> None:
    from playwright.async_api import async_playwright

    from pw_adaptive import AdaptiveCrawler, CrawlSettings
    from pw_adaptive.render import PlaywrightRenderer, RenderSettings, launch_browser
    from pw_adaptive.render.fetch import PlaywrightFetcher
    from pw_adaptive.render.recycle import RecyclingRenderer

    task = next(t for t in fixture_site.tasks() if t["id"] == "classic-fees")
    settings = CrawlSettings(concurrency=2)

    async def crawl(every: int) -> tuple[list[str], int, int]:
        render = RenderSettings(recycle_context_pages=every)
        async with async_playwright() as playwright:
            browser = await launch_browser(playwright, render)
            recycler = RecyclingRenderer(lambda: PlaywrightRenderer(browser, render), every)
            async with recycler:
                crawler = AdaptiveCrawler(
                    settings, renderer=recycler, fetcher=PlaywrightFetcher(recycler.context)
                )
                result = await crawler.run(task["start_url"], task["query"])
                open_contexts = len(browser.contexts)
            await browser.close()
        return [p.url for p in result.pages], recycler.contexts_created, open_contexts

    plain, plain_contexts, _ = asyncio.run(crawl(0))
    recycled, contexts, open_contexts = asyncio.run(crawl(3))
    assert recycled == plain
    assert plain_contexts == 1
    # The soft-404 probe is rendered too: one context per 3 renders.
    assert contexts >= (len(recycled) + 1 + 2) // 3 > 2
    assert open_contexts <= 3  # the fetcher's, the current one, one finishing its pages
