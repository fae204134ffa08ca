"""Long runs: memory of a 2,000-page crawl, with and without context recycling.

Crawls the ``large`` fixture portal (5,143 routes) with the adaptive stopper
off, so the crawl goes on until the page budget, once per recycling setting
(``RenderSettings.recycle_context_pages``; 0 = one context for the whole
crawl). Every second it sums the PSS (proportional set size: shared pages
split between the processes that map them, so the sum does not count
Chromium's shared code once per process) of this Python process and all its
descendants: the Playwright driver (node) and every Chromium process. It
prints the peak and the PSS each time the crawl passes a multiple of 250
pages, and writes ``benchmarks/results/long_run.json``.

    PW_ADAPTIVE_BROWSER_ARGS='"--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"' \\
        .venv/bin/python benchmarks/long_run.py [--pages 2000] [--every 0 500]

Linux only (reads /proc). Figures depend on the machine's load: run it on an
idle machine for figures to compare.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from fixtures_site import serve_portals  # noqa: E402
from pw_adaptive import AdaptiveCrawler, CrawlSettings  # noqa: E402
from pw_adaptive.crawling.loop import Progress  # noqa: E402
from pw_adaptive.render import RenderSettings  # noqa: E402

QUERY = "tuition fees 2026/27"
STEP = 250
RESULTS = ROOT / "benchmarks" / "results" / "long_run.json"


def _children() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        # The command name may contain spaces and parentheses: ppid follows the last ")".
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        tree.setdefault(ppid, []).append(int(entry))
    return tree


def _pss_kib(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def tree_pss_mib(root: int) -> tuple[float, int]:
    """Summed PSS of ``root`` and all its descendants (MiB), and their number."""
    tree = _children()
    pids, todo = [], [root]
    while todo:
        pid = todo.pop()
        pids.append(pid)
        todo.extend(tree.get(pid, ()))
    return sum(_pss_kib(pid) for pid in pids) / 1024, len(pids)


class Sampler(threading.Thread):
    """Samples the process tree's PSS every ``interval`` seconds."""

    def __init__(self, interval: float = 1.0) -> None:
        super().__init__(daemon=True)
        self.interval = interval
        self.pages = 0
        self.samples: list[tuple[float, int, float, int]] = []  # (t, pages, MiB, processes)
        self._halt = threading.Event()
        self._start = time.monotonic()

    def run(self) -> None:
        while not self._halt.is_set():
            mib, processes = tree_pss_mib(os.getpid())
            self.samples.append((time.monotonic() - self._start, self.pages, mib, processes))
            self._halt.wait(self.interval)

    def stop(self) -> None:
        self._halt.set()
        self.join()


def run_once(url: str, pages: int, every: int, concurrency: int) -> dict[str, Any]:
    settings = CrawlSettings(
        max_pages=pages, max_depth=None, concurrency=concurrency, adaptive_stop=False
    )
    render = RenderSettings(recycle_context_pages=every)
    sampler = Sampler()
    by_step: dict[int, float] = {}

    def on_progress(p: Progress) -> None:
        sampler.pages = p.pages
        if p.pages % STEP == 0 and p.pages not in by_step:
            by_step[p.pages] = tree_pss_mib(os.getpid())[0]
            print(f"  every={every}: {p.pages} pages, {by_step[p.pages]:.0f} MiB", flush=True)

    sampler.start()
    started = time.monotonic()
    result = asyncio.run(
        AdaptiveCrawler(settings, render_settings=render).run(url, QUERY, on_progress=on_progress)
    )
    elapsed = time.monotonic() - started
    sampler.stop()
    peak = max(sampler.samples, key=lambda s: s[2])
    return {
        "recycle_context_pages": every,
        "pages": len(result.pages),
        "stop_reason": result.stop_reason,
        "errors": sum(1 for p in result.pages if p.error),
        "elapsed_s": round(elapsed, 1),
        "peak_pss_mib": round(peak[2], 1),
        "peak_at_pages": peak[1],
        "peak_processes": max(s[3] for s in sampler.samples),
        "pss_mib_by_pages": {str(k): round(v, 1) for k, v in sorted(by_step.items())},
        "samples": [[round(t, 1), n, round(m, 1), c] for t, n, m, c in sampler.samples],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=2000)
    parser.add_argument("--every", type=int, nargs="+", default=[0, 500])
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()
    runs: list[dict[str, Any]] = []
    with serve_portals(["large"]) as sites:
        url = sites.url("large") + "/"
        for every in args.every:
            print(f"crawl of {args.pages} pages, recycle_context_pages={every}", flush=True)
            runs.append(run_once(url, args.pages, every, args.concurrency))
            r = runs[-1]
            print(
                f"  -> {r['pages']} pages ({r['stop_reason']}, {r['errors']} errors) in "
                f"{r['elapsed_s']} s; peak PSS {r['peak_pss_mib']} MiB at {r['peak_at_pages']} "
                f"pages, {r['peak_processes']} processes at most",
                flush=True,
            )
            report = {
                "query": QUERY,
                "portal": "large",
                "concurrency": args.concurrency,
                "load_average": os.getloadavg(),
                "runs": runs,
            }
            args.out.parent.mkdir(parents=True, exist_ok=True)
            args.out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
