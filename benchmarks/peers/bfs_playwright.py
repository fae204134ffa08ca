"""A breadth-first same-site crawler in plain Playwright, as a competent user would write it.

The baseline a focused crawler has to beat: no query, no scoring, no stop
but the budget. Runs under the project's virtualenv (Playwright and
markdownify) and does not import pw_adaptive::

    .venv/bin/python benchmarks/peers/bfs_playwright.py --tasks tasks.json --out out.json \\
        [--budget 100] [--concurrency 4]

Same task and output format as ``crawl4ai_run.py`` (crawler
``"bfs-playwright"``; ``score`` and ``identified`` are null: it judges nothing).

One system Chromium (``peer_common.chromium_path``: ``$PW_ADAPTIVE_CHROMIUM``, else
Debian's headless shell, else ``/usr/lib/chromium/chromium``;
the benchmark's quiet-offline flags) for the run, one browser context per
task. For each URL: a fresh page, ``goto(wait_until="load")``, then
``document.documentElement.outerHTML`` and the resolved ``href`` of every
``a[href]``; markdownify turns the HTML into markdown (head, scripts, styles
and templates dropped first, the title kept as a heading). Links are kept when they have the start URL's origin; the
fragment is dropped unless it is a hash route (``#/...``, the URL of a page in
a hash-routed single-page app); URLs are deduplicated as strings; links to
files that are not web pages (PDF, images, office documents, archives, media)
are not followed. ``--concurrency`` workers take URLs from one FIFO queue, so
pages are fetched level by level (up to the overlap of the workers). The
budget counts pages fetched with an HTTP status below 400; failures (HTTP
errors, timeouts) go to ``failed``.
"""

from __future__ import annotations

import asyncio
import re
import sys
import time
import traceback
from collections import deque
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag, urlsplit

from bs4 import BeautifulSoup
from markdownify import MarkdownConverter
from playwright.async_api import Browser, BrowserContext, async_playwright
from playwright.async_api import Error as PlaywrightError

sys.path.insert(0, str(Path(__file__).resolve().parent))
from peer_common import (
    Task,
    base_parser,
    chromium_args,
    chromium_path,
    chromium_version,
    load_tasks,
    summary_line,
    write_output,
)

CRAWLER = "bfs-playwright"
GOTO_TIMEOUT_MS = 30_000
NOT_PAGES = re.compile(
    r"\.(pdf|png|jpe?g|gif|webp|svg|ico|bmp|tiff?|zip|rar|7z|gz|tgz|bz2|xz|tar|"
    r"docx?|xlsx?|pptx?|odt|ods|odp|csv|mp3|mp4|m4a|wav|ogg|webm|avi|mov|mkv|exe|dmg|apk|iso)$",
    re.IGNORECASE,
)
READ_JS = """() => ({
  html: document.documentElement.outerHTML,
  links: Array.from(document.querySelectorAll('a[href]'), a => a.href),
})"""


def origin(url: str) -> tuple[str, str]:
    parts = urlsplit(url)
    return parts.scheme, parts.netloc.lower()


def normalize_link(href: str, site: tuple[str, str]) -> str | None:
    """The URL to queue for a link, or None when it is off-site or not a page."""
    parts = urlsplit(href)
    if parts.scheme not in ("http", "https") or (parts.scheme, parts.netloc.lower()) != site:
        return None
    if NOT_PAGES.search(parts.path):
        return None
    url, fragment = urldefrag(href)
    if fragment.startswith("/"):  # a hash route names a page of a single-page app
        return f"{url}#{fragment}"
    return url


def to_markdown(html: str) -> str:
    """markdownify's markdown of the page, without the text of scripts, styles and <head>.

    markdownify keeps the text of elements it does not know (inline JSON-LD,
    CSS, theme scripts), so those are removed from the parsed tree first; the
    title goes first as a heading, as a reader would see it in the tab.
    """
    soup = BeautifulSoup(html, "html.parser")
    title = soup.title.get_text(" ", strip=True) if soup.title else ""
    for tag in soup(["head", "script", "style", "noscript", "template"]):
        tag.decompose()
    body = MarkdownConverter(heading_style="ATX").convert_soup(soup).strip()
    return f"# {title}\n\n{body}" if title else body


async def crawl(browser: Browser, task: Task, budget: int, concurrency: int) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": task.id,
        "pages": [],
        "failed": [],
        "identified": None,
        "error": None,
    }
    site = origin(task.start_url)
    start = normalize_link(task.start_url, site) or task.start_url
    queue: deque[str] = deque([start])
    seen = {start}
    in_flight = 0
    done = asyncio.Event()
    t0 = time.perf_counter()
    context: BrowserContext = await browser.new_context()

    def budget_left() -> bool:
        return len(out["pages"]) + in_flight < budget

    async def fetch(url: str) -> None:
        page = await context.new_page()
        try:
            response = await page.goto(url, wait_until="load", timeout=GOTO_TIMEOUT_MS)
            status = response.status if response is not None else None
            if status is not None and status >= 400:
                out["failed"].append({"url": url, "error": f"HTTP {status}", "t_s": _since(t0)})
                return
            data = await page.evaluate(READ_JS)
            final_url = page.url
        except PlaywrightError as exc:
            out["failed"].append({"url": url, "error": str(exc).splitlines()[0], "t_s": _since(t0)})
            return
        finally:
            await page.close()
        if len(out["pages"]) >= budget:
            return
        out["pages"].append(
            {
                "url": url,
                "final_url": final_url,
                "markdown": to_markdown(data["html"]),
                "t_s": _since(t0),
                "score": None,
                "status": status,
            }
        )
        for href in data["links"]:
            link = normalize_link(href, site)
            if link is not None and link not in seen:
                seen.add(link)
                queue.append(link)

    async def worker() -> None:
        nonlocal in_flight
        while True:
            if queue and budget_left():
                url = queue.popleft()
                in_flight += 1
                try:
                    await fetch(url)
                finally:
                    in_flight -= 1
                    done.set()  # wake the idle workers: links may have been queued
            elif in_flight == 0 or not budget_left():
                return
            else:
                done.clear()
                await done.wait()

    try:
        await asyncio.gather(*(worker() for _ in range(max(1, concurrency))))
    except Exception as exc:  # a failed task is a result, not the end of the run
        out["error"] = f"{type(exc).__name__}: {exc}"
        traceback.print_exc()
    finally:
        await context.close()
    out["wall_s"] = round(time.perf_counter() - t0, 3)
    return out


def _since(t0: float) -> float:
    return round(time.perf_counter() - t0, 3)


async def main() -> int:
    args = base_parser(__doc__.splitlines()[0]).parse_args()
    tasks = load_tasks(args.tasks)
    flags = chromium_args()
    results: list[dict[str, Any]] = []
    async with async_playwright() as pw:
        t_launch = time.perf_counter()
        browser = await pw.chromium.launch(
            executable_path=chromium_path(), args=flags, headless=True
        )
        launch_s = round(time.perf_counter() - t_launch, 3)
        version = f"playwright {_playwright_version()}; chromium {browser.version}"
        try:
            for task in tasks:
                res = await crawl(browser, task, args.budget, args.concurrency)
                results.append(res)
                print(summary_line(CRAWLER, res), flush=True)
        finally:
            await browser.close()
    write_output(
        args.out,
        CRAWLER,
        version,
        results,
        chromium=chromium_path(),
        chromium_version=chromium_version(),
        chromium_flags=flags,
        launch_s=launch_s,
        budget=args.budget,
        concurrency=args.concurrency,
    )
    return 0


def _playwright_version() -> str:
    from importlib.metadata import version

    return version("playwright")


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
