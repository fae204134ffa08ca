"""Crawl speed: pw_adaptive at concurrency 1, 4 and 8 beside a bare Playwright loop.

Serves a fixture portal on 127.0.0.1, crawls it with the stopper off (so every
run fetches the same number of pages), then replays the same URLs with a bare
Playwright loop (fresh page, goto, wait for load, content) in the same run.
Prints pages per second, CPU seconds per page and peak memory (this Python
process plus every Chromium process, summed PSS), and the ratios against the
bare loop at the same concurrency.

    .venv/bin/python benchmarks/crawl_speed.py [--portal large] [--pages 80] [--json FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from playwright.async_api import async_playwright

from fixtures_site import serve_portals
from pw_adaptive.api import AdaptiveCrawler
from pw_adaptive.render import RenderSettings
from pw_adaptive.render.browser import launch_browser
from pw_adaptive.settings import CrawlSettings


def _pss_kib(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup") as fh:
            for line in fh:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def _descendants(root: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as fh:
                ppid = int(fh.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(entry))
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(children.get(pid, []))
    return out


def _cpu_seconds() -> float:
    """CPU time of this process and its (waited-for and live) children."""
    total = 0.0
    for pid in _descendants(os.getpid()):
        try:
            with open(f"/proc/{pid}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            continue
    return total


@contextmanager
def peak_memory() -> Iterator[Callable[[], float]]:
    """Samples the summed PSS of this process tree every 100 ms; yields a reader (MiB)."""
    peak = [0]
    stop = threading.Event()

    def sample() -> None:
        while not stop.is_set():
            peak[0] = max(peak[0], sum(_pss_kib(p) for p in _descendants(os.getpid())))
            stop.wait(0.1)

    thread = threading.Thread(target=sample, daemon=True)
    thread.start()
    try:
        yield lambda: peak[0] / 1024
    finally:
        stop.set()
        thread.join()


@dataclass
class Row:
    runner: str
    concurrency: int
    pages: int
    seconds: float
    pages_per_s: float
    cpu_s_per_page: float
    peak_mib: float


async def run_crawler(
    start: str, query: str, pages: int, concurrency: int
) -> tuple[Row, list[str]]:
    settings = CrawlSettings(
        max_pages=pages, concurrency=concurrency, adaptive_stop=False, probe_soft_404=False
    )
    crawler = AdaptiveCrawler(settings, render_settings=RenderSettings())
    cpu0, t0 = _cpu_seconds(), time.perf_counter()
    with peak_memory() as peak:
        result = await crawler.run(start, query)
        cpu1 = _cpu_seconds()
        elapsed = time.perf_counter() - t0
        mib = peak()
    n = len(result.pages)
    row = Row("pw_adaptive", concurrency, n, elapsed, n / elapsed, (cpu1 - cpu0) / max(n, 1), mib)
    return row, [p.url for p in result.pages]


async def run_bare(urls: list[str], concurrency: int) -> Row:
    """The practical limit: fresh page, goto, wait for load, read content."""
    cpu0, t0 = _cpu_seconds(), time.perf_counter()
    with peak_memory() as peak:
        async with async_playwright() as pw:
            browser = await launch_browser(pw, RenderSettings())
            context = await browser.new_context()
            queue: asyncio.Queue[str] = asyncio.Queue()
            for url in urls:
                queue.put_nowait(url)

            async def worker() -> None:
                while not queue.empty():
                    url = queue.get_nowait()
                    page = await context.new_page()
                    try:
                        await page.goto(url, wait_until="load")
                        await page.wait_for_timeout(50)
                        await page.content()
                    finally:
                        await page.close()

            await asyncio.gather(*(worker() for _ in range(concurrency)))
            await browser.close()
        cpu1 = _cpu_seconds()
        elapsed = time.perf_counter() - t0
        mib = peak()
    n = len(urls)
    return Row("bare playwright", concurrency, n, elapsed, n / elapsed, (cpu1 - cpu0) / n, mib)


def print_table(rows: list[Row]) -> None:
    bare = {r.concurrency: r for r in rows if r.runner == "bare playwright"}
    print(
        f"{'runner':<16}{'conc':>5}{'pages':>7}{'sec':>8}{'pages/s':>9}"
        f"{'cpu s/page':>11}{'peak MiB':>10}{'speed vs bare':>15}"
    )
    for r in rows:
        ratio = r.pages_per_s / bare[r.concurrency].pages_per_s if r.concurrency in bare else 0.0
        print(
            f"{r.runner:<16}{r.concurrency:>5}{r.pages:>7}{r.seconds:>8.1f}{r.pages_per_s:>9.2f}"
            f"{r.cpu_s_per_page:>11.3f}{r.peak_mib:>10.0f}{ratio:>15.2f}"
        )


async def main_async(args: argparse.Namespace) -> list[Row]:
    rows: list[Row] = []
    with serve_portals([args.portal]) as sites:
        truth = sites[args.portal].truth()
        task = next(t for t in truth["tasks"] if t["relevant"])
        start = sites.url(args.portal) + task["start"]
        for conc in args.concurrency:
            row, urls = await run_crawler(start, task["query"], args.pages, conc)
            rows.append(row)
            rows.append(await run_bare(urls, conc))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--portal", default="large")
    parser.add_argument("--pages", type=int, default=80)
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 4, 8])
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    rows = asyncio.run(main_async(args))
    print_table(rows)
    print(
        f"(python max RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB; "
        f"{os.cpu_count()} cores)"
    )
    if args.json:
        data: dict[str, Any] = {"portal": args.portal, "rows": [asdict(r) for r in rows]}
        args.json.write_text(json.dumps(data, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
