"""Start-up: a one-page crawl in a fresh process, beside a bare Playwright script.

A user who crawls one site per command pays the start on every command:
Python's imports, the query's parse (a query in a Latin script needs the
language model, about half a second to load; a Chinese one of more than two
characters in a run, jieba's dictionary, 0.3 s; a Korean one, Kiwi's
model, about 1.3 s), Playwright's driver and
Chromium's launch. This benchmark serves one small page on 127.0.0.1 and
times, in fresh processes taking turns, ``--repeat`` times per query:

- **pw_adaptive**: ``python -m pw_adaptive.cli crawl URL --query Q
  --max-pages 1 --quiet --out FILE`` (the crawl's whole life: the page, its
  records and the summary written, the browser closed);
- **bare playwright**: a script that imports only Playwright, launches the
  same Chromium with the same arguments, opens a page, goes to the URL
  (``load``), reads its HTML and closes the browser: the least a
  Playwright crawler of one page can do.

It prints, per query, the median seconds of each and their ratio (the
overhead of everything pw_adaptive does besides rendering, at start),
and with ``--json`` saves every time. The first pair is a warm-up (disk
caches) and is not counted.

    .venv/bin/python benchmarks/startup.py --repeat 6 --json benchmarks/results/startup.json
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from quality import serve_directory  # noqa: E402

from pw_adaptive.render.browser import (  # noqa: E402
    find_chromium,
    launch_args,
    playwright_shell_first,
)
from pw_adaptive.render.records import RenderSettings  # noqa: E402

QUERIES: tuple[str, ...] = (
    "tuition fees",
    "学费",
    "宿舍 住宿条件（各宿舍楼情况、设施、规定）",
    "기숙사 신청 방법이랑 기숙사비 알려주세요",
)
"""One query in a Latin script (its parse needs the language model), one
that the script alone places (Chinese), a longer Chinese one (a labelled
task of njust-manual) whose runs of characters are cut into words by jieba,
which loads a dictionary, and a Korean one (a labelled task of chu-os2024)
whose words Kiwi's morphological analyser splits, which loads a model."""

PAGE = """<!doctype html><html lang="en"><head><title>Tuition fees</title></head>
<body><main><h1>Tuition fees</h1><p>Tuition fees (学费) are paid at the start of
each term.</p></main></body></html>"""

BARE_SCRIPT = """
import asyncio, json, sys
from playwright.async_api import async_playwright

async def main(url, executable, args):
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=executable or None, args=args)
        page = await browser.new_page()
        await page.goto(url, wait_until="load")
        html = await page.content()
        await browser.close()
    assert "Tuition fees" in html

asyncio.run(main(sys.argv[1], sys.argv[2], json.loads(sys.argv[3])))
"""

RUNNERS = ("pw_adaptive", "bare playwright")


@dataclass(frozen=True)
class Row:
    """Medians of one query's fresh-process runs."""

    query: str
    runs: int
    adaptive_s: float
    bare_s: float
    ratio: float
    adaptive_spread: float
    """Largest minus smallest of pw_adaptive's times."""
    bare_spread: float


def summarize(query: str, times: dict[str, list[float]]) -> Row:
    """A query's row from each runner's times (seconds, warm-up left out)."""
    adaptive, bare = times[RUNNERS[0]], times[RUNNERS[1]]
    if not adaptive or not bare or len(adaptive) != len(bare):
        raise ValueError("each runner needs the same number of runs, at least one")
    a, b = statistics.median(adaptive), statistics.median(bare)
    return Row(
        query=query,
        runs=len(adaptive),
        adaptive_s=round(a, 3),
        bare_s=round(b, 3),
        ratio=round(a / b, 3),
        adaptive_spread=round(max(adaptive) - min(adaptive), 3),
        bare_spread=round(max(bare) - min(bare), 3),
    )


def table(rows: Sequence[Row]) -> str:
    """The printed table (Markdown)."""
    lines = [
        "| query | runs | pw_adaptive s (median) | bare playwright s (median) | ratio | spread pw / bare |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in rows:
        lines.append(
            f"| {r.query} | {r.runs} | {r.adaptive_s:.2f} | {r.bare_s:.2f} | {r.ratio:.2f} "
            f"| {r.adaptive_spread:.2f} / {r.bare_spread:.2f} |"
        )
    return "\n".join(lines)


def _timed(argv: list[str]) -> float:
    started = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise RuntimeError(f"{argv[:4]} exited {done.returncode}: {done.stderr.strip()[-500:]}")
    return elapsed


def _chromium() -> str:
    """The Chromium ``launch_browser`` would launch: "" for Playwright's own
    headless shell (launched by naming no executable), else the discovered one."""
    if playwright_shell_first():
        return ""
    from playwright.async_api import async_playwright

    async def find() -> str:
        async with async_playwright() as playwright:
            return find_chromium(playwright) or ""

    return asyncio.run(find())


def measure(url: str, query: str, repeat: int, work: Path) -> dict[str, list[float]]:
    """``repeat`` fresh-process runs of each runner, taking turns, after a warm-up pair."""
    settings = RenderSettings()
    executable = _chromium()
    args = launch_args(settings)
    out = work / "out.jsonl"
    crawl = ["crawl", url, "--query", query, "--max-pages", "1", "--quiet", "--out", str(out)]
    commands = {
        RUNNERS[0]: [sys.executable, "-m", "pw_adaptive.cli", *crawl],
        RUNNERS[1]: [sys.executable, "-c", BARE_SCRIPT, url, executable, json.dumps(args)],
    }
    times: dict[str, list[float]] = {name: [] for name in RUNNERS}
    for turn in range(repeat + 1):
        for name, argv in commands.items():
            elapsed = _timed(argv)
            if name == RUNNERS[0]:
                records = [
                    json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()
                ]
                if [r["type"] for r in records] != ["page", "summary"]:
                    raise RuntimeError(f"the crawl wrote {[r['type'] for r in records]}")
            if turn:  # the first pair warms the disk caches
                times[name].append(round(elapsed, 4))
        print(f"  {query}: pair {turn}/{repeat} done", file=sys.stderr, flush=True)
    return times


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--repeat", type=int, default=6, help="counted runs per runner and query")
    parser.add_argument("--queries", nargs="+", default=list(QUERIES))
    parser.add_argument("--json", type=Path, help="write every time and the rows here")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be >= 1")
    rows, raw = [], {}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        site = work / "site"
        site.mkdir()
        (site / "index.html").write_text(PAGE, encoding="utf-8")
        with serve_directory(site) as origin:
            for query in args.queries:
                raw[query] = measure(origin + "/", query, args.repeat, work)
                rows.append(summarize(query, raw[query]))
    print(table(rows))
    if args.json is not None:
        data = {
            "date": datetime.date.today().isoformat(),
            "command": " ".join(["benchmarks/startup.py", *(argv or sys.argv[1:])]),
            "python": sys.version.split()[0],
            "rows": [asdict(r) for r in rows],
            "times": raw,
        }
        args.json.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
