"""Crawl quality on the fixture tasks: pw_adaptive beside baselines, one run.

For every task of ``fixtures_site``, with the same renderer and budget (100):

* ``pw_adaptive``: the defaults (anchor scoring, adaptive stopper);
* ``pw_adaptive, no stopper``: the same scoring, crawling to the budget;
* ``breadth-first``: every link alike (Crawlee's and Scrapy's default order);
* ``url keywords``: query words in the URL only (Crawl4AI's
  ``KeywordRelevanceScorer``), no stopper.

Prints per-crawler totals: pages fetched, recall of relevant pages, harvest
rate (relevant fetched / fetched), tasks with every fact found, pages until the
last relevant page, and stop reasons; writes per-task rows as JSON.

    .venv/bin/python benchmarks/quality.py [--portal NAME ...] [--json FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from playwright.async_api import async_playwright

from fixtures_site import serve_portals
from pw_adaptive.api import AdaptiveCrawler
from pw_adaptive.render import RenderSettings
from pw_adaptive.render.browser import launch_browser
from pw_adaptive.scoring import AnchorScorer, BreadthFirstScorer, LinkScorer, UrlKeywordScorer
from pw_adaptive.settings import CrawlSettings
from pw_adaptive.urls import canonicalize_url

CRAWLERS: dict[str, tuple[LinkScorer, bool]] = {
    "pw_adaptive": (AnchorScorer(), True),
    "pw_adaptive, no stopper": (AnchorScorer(), False),
    "breadth-first": (BreadthFirstScorer(), False),
    "url keywords": (UrlKeywordScorer(), False),
}


@dataclass
class TaskRow:
    crawler: str
    task: str
    pages: int
    relevant: int
    found: int
    facts: int
    facts_found: int
    last_relevant_at: int
    stop_reason: str
    seconds: float


async def run_task(
    browser: Any, name: str, task: dict[str, Any], origin: str, budget: int
) -> TaskRow:
    scorer, stopper = CRAWLERS[name]
    settings = CrawlSettings(max_pages=budget, concurrency=4, adaptive_stop=stopper)
    crawler = AdaptiveCrawler(settings, browser=browser, scorer=scorer)
    started = time.perf_counter()
    result = await crawler.run(task["start_url"], task["query"])
    relevant = {canonicalize_url(origin + r) for r in task["relevant"]}
    found, last = set(), 0
    for i, page in enumerate(result.pages, 1):
        hit = {page.url, page.final_url} & relevant
        if hit and page.error is None:
            found |= hit
            last = i
    markdown = "\n".join(p.markdown for p in result.pages)
    return TaskRow(
        crawler=name,
        task=task["id"],
        pages=len(result.pages),
        relevant=len(relevant),
        found=len(found),
        facts=len(task["facts"]),
        facts_found=sum(f in markdown for f in task["facts"]),
        last_relevant_at=last,
        stop_reason=result.stop_reason,
        seconds=time.perf_counter() - started,
    )


def summarize(rows: list[TaskRow]) -> None:
    print(
        f"{'crawler':<26}{'pages':>7}{'recall':>8}{'harvest':>9}{'facts ok':>10}"
        f"{'to last rel.':>14}  stop reasons"
    )
    for name in CRAWLERS:
        mine = [r for r in rows if r.crawler == name]
        if not mine:
            continue
        with_content = [r for r in mine if r.relevant]
        pages = sum(r.pages for r in mine)
        recall = sum(r.found / r.relevant for r in with_content) / max(len(with_content), 1)
        harvest = sum(r.found for r in mine) / max(pages, 1)
        facts_ok = sum(r.facts_found == r.facts for r in with_content) / max(len(with_content), 1)
        to_last = sum(r.last_relevant_at for r in with_content) / max(len(with_content), 1)
        reasons = Counter(r.stop_reason for r in mine).most_common()
        print(
            f"{name:<26}{pages:>7}{recall:>8.3f}{harvest:>9.3f}{facts_ok:>10.0%}"
            f"{to_last:>14.1f}  {', '.join(f'{k} {v}' for k, v in reasons)}"
        )


async def main_async(args: argparse.Namespace) -> list[TaskRow]:
    rows: list[TaskRow] = []
    with serve_portals(args.portal) as sites:
        async with async_playwright() as pw:
            browser = await launch_browser(pw, RenderSettings())
            for task in sites.tasks():
                origin = sites.url(task["portal"])
                for name in CRAWLERS:
                    rows.append(await run_task(browser, name, task, origin, args.budget))
                    print(f"{name:<26} {task['id']:<32} {rows[-1].found}/{rows[-1].relevant} "
                          f"in {rows[-1].pages} pages", file=sys.stderr, flush=True)  # fmt: skip
            await browser.close()
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--portal", action="append", help="portal (repeatable; default: all)")
    parser.add_argument("--budget", type=int, default=100)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    rows = asyncio.run(main_async(args))
    summarize(rows)
    if args.json:
        args.json.write_text(json.dumps([asdict(r) for r in rows], indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
