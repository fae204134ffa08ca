"""``pw-adaptive report`` end to end: a real crawl of the traps portal, its
report opened in headless Chromium from ``file://`` with every other request
aborted, and what a person would see there.

One crawl and one browser for the module: the report of the crawl, and the
same crawl with a hostile page added. The screenshot is kept as a test
artefact in ``$PW_ADAPTIVE_ARTIFACTS`` (default: ``.artifacts/`` at the
repository root, git-ignored).
"""

from __future__ import annotations

import asyncio
import json
import os
import struct
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Page, Request, Route, async_playwright

from pw_adaptive.cli import EXIT_OK, main
from pw_adaptive.render import RenderSettings, launch_browser

pytestmark = pytest.mark.e2e

TEST_ARGS = ("--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",)
ARTIFACTS = Path(
    os.environ.get("PW_ADAPTIVE_ARTIFACTS") or Path(__file__).resolve().parents[2] / ".artifacts"
)
LOCAL_SCHEMES = ("file:", "data:", "about:")
HOSTILE = (
    '<img src="http://evil.example/x.png" onerror="window.pwned=1"><script>window.pwned=2</script>'
)

Inspect = Callable[[Page], Awaitable[dict[str, Any]]]


async def _inspect_report(page: Page) -> dict[str, Any]:
    first_cell = page.locator("#pages tbody tr").first.locator("td").first
    seen = {
        "banner": await page.locator("#stop-reason").inner_text(),
        "tree": await page.locator("#tree").inner_text(),
        "table": await page.locator("#pages").inner_text(),
        "polylines": await page.locator("svg#plot polyline").count(),
        "dots": await page.locator("svg#plot circle.relevance").count(),
        "blind_visible": await page.locator("#tree .badge.blind").first.is_visible(),
        "trap_visible": await page.locator("#tree .badge.trap").first.is_visible(),
        "first_row": await first_cell.inner_text(),
    }
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "report.png").unlink(missing_ok=True)  # never pass on an old screenshot
    await page.screenshot(path=str(ARTIFACTS / "report.png"), full_page=True)
    # The inline script runs under the report's CSP: sorting and folding work.
    header = page.locator("#pages th", has_text="#")
    await header.click()
    await header.click()
    seen["sorted_first"] = await first_cell.inner_text()
    await page.get_by_role("button", name="collapse all").click()
    seen["collapsed"] = not await page.locator("#tree .badge.trap").first.is_visible()
    return seen


async def _inspect_hostile(page: Page) -> dict[str, Any]:
    return {
        "pwned": await page.evaluate("window.pwned === undefined ? null : window.pwned"),
        "tree": await page.locator("#tree").inner_text(),
        "js_links": await page.locator('a[href^="javascript:" i]').count(),
    }


async def _open_all(reports: dict[str, tuple[Path, Inspect]]) -> dict[str, dict[str, Any]]:
    """Open each report in a fresh page, non-local requests aborted; per report,
    what its inspector returned plus the requests made and the console errors."""

    async def block(route: Route) -> None:
        if route.request.url.startswith(LOCAL_SCHEMES):
            await route.continue_()
        else:
            await route.abort()

    out: dict[str, dict[str, Any]] = {}
    async with async_playwright() as playwright:
        browser = await launch_browser(playwright, RenderSettings(browser_args=TEST_ARGS))
        try:
            context = await browser.new_context(java_script_enabled=True)
            await context.route("**/*", block)
            for name, (path, inspect) in reports.items():
                requests: list[str] = []
                errors: list[str] = []
                page = await context.new_page()

                def on_request(request: Request, requests: list[str] = requests) -> None:
                    requests.append(request.url)

                page.on("request", on_request)
                page.on(
                    "console", lambda m, e=errors: e.append(m.text) if m.type == "error" else None
                )
                page.on("pageerror", lambda exc, e=errors: e.append(str(exc)))
                await page.goto(path.as_uri())
                seen = await inspect(page)
                out[name] = {**seen, "requests": requests, "errors": errors}
                await page.close()
        finally:
            await browser.close()
    return out


@pytest.fixture(scope="module")
def crawled(fixture_site: Any, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A short crawl of the traps portal (session ids in every link), its report,
    the report of the same crawl with a hostile page, and what Chromium showed."""
    task = next(t for t in fixture_site.tasks() if t["id"] == "traps-deadline")
    tmp = tmp_path_factory.mktemp("report")
    results, report = tmp / "crawl.jsonl", tmp / "report.html"
    argv = ["crawl", task["start_url"], "--query", task["query"], "--out", str(results),
            "--max-pages", "20", "--concurrency", "2", "--quiet"]  # fmt: skip
    assert main(argv) == EXIT_OK
    assert main(["report", str(results), "-o", str(report)]) == EXIT_OK
    records = [json.loads(line) for line in results.read_text(encoding="utf-8").splitlines()]

    summary = records[-1]
    evil = {"type": "page", "url": "http://evil.example/", "final_url": "javascript:window.pwned=3",
            "title": HOSTILE, "depth": 1, "relevance": 0.9, "link_score": 0.5, "blind": False,
            "evidence": [0] * len(summary["terms"]), "fresh": True,
            "parent": summary["start_url"], "markdown": HOSTILE}  # fmt: skip
    hostile_results, hostile = tmp / "hostile.jsonl", tmp / "hostile.html"
    lines = [json.dumps(r) for r in [*records[:-1], evil, summary]]
    hostile_results.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["report", str(hostile_results), "-o", str(hostile)]) == EXIT_OK

    seen = asyncio.run(
        _open_all({"report": (report, _inspect_report), "hostile": (hostile, _inspect_hostile)})
    )
    return {"records": records, "seen": seen}


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return int(width), int(height)


def test_the_report_shows_the_crawl_offline_in_chromium(crawled: dict[str, Any]) -> None:
    records, seen = crawled["records"], crawled["seen"]["report"]
    summary = records[-1]
    pages = [r for r in records if r["type"] == "page"]
    skips = [r for r in records if r["type"] == "skip"]
    assert any(p["blind"] for p in pages) and skips, "the portal must give blind pages and traps"

    assert not [u for u in seen["requests"] if not u.startswith(LOCAL_SCHEMES)], seen["requests"]
    assert not seen["errors"], seen["errors"]
    assert summary["stop_reason"] in seen["banner"]
    relevant = [p for p in pages if p["relevance"] >= 0.05 and p["title"]]
    assert relevant and all(p["title"] in seen["tree"] for p in relevant)
    assert all(p["title"] in seen["table"] for p in relevant)
    assert seen["blind_visible"] and "blind" in seen["tree"]
    assert seen["trap_visible"] and f"trap: {skips[0]['reason']}" in seen["tree"]
    assert skips[0]["url"] in seen["tree"]
    assert seen["polylines"] == 1 + len(summary["terms"])  # coverage + one per term
    assert seen["dots"] == len(pages)
    best = max(pages, key=lambda p: p["relevance"])
    assert seen["first_row"] == str(pages.index(best) + 1)  # sorted by relevance
    assert seen["sorted_first"] == "1"
    assert seen["collapsed"]


def test_the_screenshot_is_kept_as_an_artefact(crawled: dict[str, Any]) -> None:
    data = (ARTIFACTS / "report.png").read_bytes()
    width, height = _png_size(data)
    assert width >= 800 and height >= 600 and len(data) > 20_000


def test_hostile_titles_stay_text_and_run_nothing(crawled: dict[str, Any]) -> None:
    seen = crawled["seen"]["hostile"]
    assert seen["pwned"] is None
    assert HOSTILE in seen["tree"]
    assert seen["js_links"] == 0
    assert not [u for u in seen["requests"] if not u.startswith(LOCAL_SCHEMES)], seen["requests"]
    assert not seen["errors"], seen["errors"]
