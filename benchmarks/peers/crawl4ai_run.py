"""Crawl4AI as a peer: its best-first deep crawl or its AdaptiveCrawler, on the system Chromium.

Runs under the peers' virtualenv, never under the project's (Crawl4AI pins its
own Playwright and pulls in a large dependency tree)::

    make peers
    .venv-peers/bin/python benchmarks/peers/crawl4ai_run.py --tasks tasks.json \\
        --out out.json --strategy bestfirst|adaptive [--budget 100] [--concurrency 4] \\
        [--url-encoded-keywords] [--confidence-threshold 0.7]

``tasks.json`` is a JSON list of ``{"id", "start_url", "query"}``. The output
is ``{"crawler", "version", "chromium", "launch_s", "tasks": [{"id", "pages":
[{"url", "final_url", "markdown", "t_s", "score"}], "identified", "wall_s",
"error", ...}]}`` with pages in fetch order; ``markdown`` is Crawl4AI's own raw
markdown of the page and ``t_s`` the seconds from the task's start to the end
of that page's fetch.

How Crawl4AI is made to use Debian's Chromium, offline
------------------------------------------------------
Crawl4AI's default ("dedicated") browser mode calls Playwright's
``chromium.launch`` without an executable path, which needs Playwright's own
browser download; ``BrowserConfig`` has no field for a binary. Its "custom"
mode instead connects over the DevTools protocol to a browser that is already
running (``BrowserConfig(browser_mode="custom", cdp_url=...)``). So this
script launches the system Chromium itself, headless, with Crawl4AI's own
launch flags (``ManagedBrowser.build_browser_flags``: what Crawl4AI passes when
it launches a browser for CDP itself) plus the quiet-offline flags and the
resolver rule that every crawler in the benchmark gets, on
``--remote-debugging-port=0`` (Chromium picks a free port and writes it to
``DevToolsActivePort`` in the profile, so parallel runs never collide), and
hands Crawl4AI ``cdp_url=http://127.0.0.1:<port>``.

``create_isolated_context=True`` gives each crawl a fresh page in a context of
Crawl4AI's own making, as its dedicated mode does (without it, a CDP-attached
Crawl4AI reuses the tabs of the browser's default context).

Before Crawl4AI is imported, ``CRAWL4_AI_BASE_DIRECTORY`` points at a fresh
temporary directory (its SQLite cache, its ``.crawl4ai`` home and marker files
go there, not into ``~``, and no run reads another's cache),
``CRAWL4AI_NO_CLOUD_NOTICE=1`` silences its banner, and
``PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1`` / ``HF_HUB_OFFLINE=1`` make any download
attempt fail at once instead of waiting on the network. ``crawl4ai-setup``
(which runs ``playwright install``) is never run. The default statistical
adaptive strategy and the best-first strategy load no model.

What differs from Crawl4AI's defaults, and why
-----------------------------------------------
* best-first: ``max_depth`` = the budget (Crawl4AI requires a depth; this makes
  ``max_pages`` the only limit), ``include_external=False``, ``max_pages`` =
  the budget, ``KeywordRelevanceScorer(keywords=query.split())`` as its docs
  show for focused crawling (``--url-encoded-keywords`` adds each keyword
  percent-encoded: the scorer matches the raw URL, so without it a non-ASCII
  keyword never matches a percent-encoded path); ``semaphore_count`` = ``--concurrency`` (the
  default dispatcher's cap on pages in flight; Crawl4AI's default is 10).
  ``stream=True`` so results arrive as fetched.
* adaptive: ``AdaptiveConfig(strategy="statistical", max_pages=budget,
  max_depth=budget)``, and ``--confidence-threshold`` if given. The default ``max_depth`` of 5 counts expansion rounds
  of ``top_k_links=3`` pages each, so it would end every crawl at 16 pages
  whatever the budget; raised so that the adaptive stop or the budget ends it.
  Its round size (3) and link-preview concurrency (5) are fixed by Crawl4AI;
  ``--concurrency`` does not apply. ``identified`` is what
  ``get_relevant_content()`` returns with its default ``top_k=5``, keeping
  pages whose score is above 0; all pages' scores are in ``pages[].score``.
* everything else (``wait_until="domcontentloaded"``, the default markdown
  generator, the rate limiter's 0.1–0.4 s delay per domain, cache bypass) is
  Crawl4AI's default.
"""

from __future__ import annotations

import asyncio
import atexit
import os
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any
from urllib.parse import quote

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

# Before Crawl4AI is imported: some of its modules read these at import time.
_HOME = tempfile.mkdtemp(prefix="crawl4ai-home-")
atexit.register(shutil.rmtree, _HOME, ignore_errors=True)  # also after --help or an error
os.environ["CRAWL4_AI_BASE_DIRECTORY"] = _HOME
os.environ.setdefault("CRAWL4AI_NO_CLOUD_NOTICE", "1")
os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

from crawl4ai import (  # noqa: E402
    AdaptiveConfig,
    AdaptiveCrawler,
    AsyncWebCrawler,
    BrowserConfig,
    CrawlerRunConfig,
)
from crawl4ai.__version__ import __version__ as CRAWL4AI_VERSION  # noqa: E402
from crawl4ai.browser_manager import ManagedBrowser  # noqa: E402
from crawl4ai.deep_crawling import BestFirstCrawlingStrategy  # noqa: E402
from crawl4ai.deep_crawling.scorers import KeywordRelevanceScorer  # noqa: E402

VIEWPORT = (1080, 600)  # Crawl4AI's default viewport


def launch_chromium(profile: str, flags: list[str]) -> tuple[subprocess.Popen[bytes], str]:
    """Start headless Chromium with DevTools on a free loopback port: (process, cdp_url)."""
    cmd = [
        chromium_path(),
        "--headless=new",
        "--remote-debugging-port=0",
        f"--user-data-dir={profile}",
        *flags,
        "about:blank",
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    port_file = Path(profile) / "DevToolsActivePort"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"Chromium exited with {proc.returncode}: {' '.join(cmd)}")
        if port_file.exists():
            lines = port_file.read_text().split()
            if lines and lines[0].isdigit():
                return proc, f"http://127.0.0.1:{lines[0]}"
        time.sleep(0.05)
    proc.kill()
    raise RuntimeError("Chromium did not open its DevTools port within 30 s")


def browser_config(cdp_url: str | None) -> BrowserConfig:
    if cdp_url is None:  # only to compute Crawl4AI's launch flags
        return BrowserConfig(headless=True, verbose=False)
    return BrowserConfig(
        browser_mode="custom",
        cdp_url=cdp_url,
        headless=True,
        verbose=False,
        create_isolated_context=True,
        # Close this crawler's contexts and its connection on exit (not the
        # browser: it serves the next task).
        cdp_cleanup_on_close=True,
        cdp_close_delay=0.0,
    )


def crawl4ai_launch_flags() -> list[str]:
    """Crawl4AI's own flags for a browser it launches, then ours, without repeats."""
    own = ManagedBrowser.build_browser_flags(browser_config(None))
    own += [f"--window-size={VIEWPORT[0]},{VIEWPORT[1]}", "--ignore-certificate-errors"]
    return list(dict.fromkeys([*own, *chromium_args()]))


class FetchClock:
    """Records when each page's fetch returned, by wrapping the crawler's ``arun``.

    Observation only: the wrapper passes everything through. Both strategies
    fetch every page through ``crawler.arun`` (best-first via the dispatcher,
    adaptive directly), so this gives a per-page time for both.
    """

    def __init__(self, crawler: AsyncWebCrawler) -> None:
        self.t0 = time.perf_counter()
        self.done: dict[str, float] = {}
        inner = crawler.arun

        async def timed(url: str, config: Any = None, **kwargs: Any) -> Any:
            result = await inner(url, config=config, **kwargs)
            if config is None or getattr(config, "deep_crawl_strategy", None) is None:
                self.done.setdefault(url, time.perf_counter() - self.t0)
            return result

        crawler.arun = timed  # type: ignore[method-assign]

    def t_s(self, url: str) -> float | None:
        t = self.done.get(url)
        return round(t, 3) if t is not None else None


def page_record(result: Any, clock: FetchClock, score: float | None) -> dict[str, Any]:
    md = result.markdown
    raw = getattr(md, "raw_markdown", None) if md is not None else None
    if raw is None and md is not None:
        raw = str(md)
    return {
        "url": result.url,
        "final_url": result.redirected_url or result.url,
        "markdown": raw or "",
        "t_s": clock.t_s(result.url),
        "score": score,
        "status": result.status_code,
    }


async def run_bestfirst(
    task: Task, cdp_url: str, budget: int, concurrency: int, encode_keywords: bool
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": task.id,
        "pages": [],
        "failed": [],
        "identified": None,
        "error": None,
    }
    keywords = task.query.split()
    if encode_keywords:
        keywords += [quote(k) for k in keywords if quote(k) != k]
    strategy = BestFirstCrawlingStrategy(
        max_depth=budget,
        include_external=False,
        max_pages=budget,
        url_scorer=KeywordRelevanceScorer(keywords=keywords),
    )
    run_cfg = CrawlerRunConfig(
        deep_crawl_strategy=strategy, stream=True, semaphore_count=concurrency, verbose=False
    )
    out["settings"] = {
        "keywords": keywords,
        "max_depth": budget,
        "max_pages": budget,
        "semaphore_count": concurrency,
    }
    t0 = time.perf_counter()
    try:
        async with AsyncWebCrawler(config=browser_config(cdp_url)) as crawler:
            clock = FetchClock(crawler)
            clock.t0 = t0
            async for result in await crawler.arun(task.start_url, config=run_cfg):
                score = (result.metadata or {}).get("score")
                if result.success:
                    out["pages"].append(page_record(result, clock, score))
                else:
                    out["failed"].append(
                        {
                            "url": result.url,
                            "error": result.error_message,
                            "t_s": clock.t_s(result.url),
                        }
                    )
    except Exception as exc:  # a failed task is a result, not the end of the run
        out["error"] = f"{type(exc).__name__}: {exc}"
        traceback.print_exc()
    out["wall_s"] = round(time.perf_counter() - t0, 3)
    in_fetch_order(out["pages"])
    return out


def in_fetch_order(pages: list[dict[str, Any]]) -> None:
    """Sort by fetch end; ``rank`` keeps the order the strategy yielded them in.

    Best-first fetches a batch of up to 10 URLs at once and yields the batch in
    its priority order, so yield order and fetch order differ within a batch.
    """
    for rank, page in enumerate(pages):
        page["rank"] = rank
    pages.sort(key=lambda p: (p["t_s"] is None, p["t_s"] or 0.0, p["rank"]))


async def run_adaptive(
    task: Task, cdp_url: str, budget: int, confidence_threshold: float | None
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": task.id,
        "pages": [],
        "failed": [],
        "identified": None,
        "error": None,
    }
    config = AdaptiveConfig(strategy="statistical", max_pages=budget, max_depth=budget)
    if confidence_threshold is not None:
        config.confidence_threshold = confidence_threshold
    out["settings"] = {
        "strategy": config.strategy,
        "max_pages": config.max_pages,
        "max_depth": config.max_depth,
        "top_k_links": config.top_k_links,
        "confidence_threshold": config.confidence_threshold,
        "min_gain_threshold": config.min_gain_threshold,
    }
    t0 = time.perf_counter()
    adaptive: AdaptiveCrawler | None = None
    clock: FetchClock | None = None
    try:
        async with AsyncWebCrawler(config=browser_config(cdp_url)) as crawler:
            clock = FetchClock(crawler)
            clock.t0 = t0
            adaptive = AdaptiveCrawler(crawler, config)
            await adaptive.digest(start_url=task.start_url, query=task.query)
    except Exception as exc:
        out["error"] = f"{type(exc).__name__}: {exc}"
        traceback.print_exc()
    out["wall_s"] = round(time.perf_counter() - t0, 3)
    if adaptive is None or adaptive.state is None or clock is None:
        return out
    state = adaptive.state
    ranked = adaptive.get_relevant_content(top_k=len(state.knowledge_base) or 1)
    scores = {d["index"]: d["score"] for d in ranked}
    for i, result in enumerate(state.knowledge_base):
        out["pages"].append(page_record(result, clock, scores.get(i)))
    in_fetch_order(out["pages"])
    top = adaptive.get_relevant_content()  # its default: top_k=5
    out["identified"] = [d["url"] for d in top if d["score"] > 0]
    metrics = {k: v for k, v in state.metrics.items() if isinstance(v, (int, float))}
    out["confidence"] = metrics.get("confidence")
    out["metrics"] = metrics
    out["stop"] = adaptive_stop_reason(state, config, out["error"])
    return out


def adaptive_stop_reason(state: Any, config: AdaptiveConfig, error: str | None) -> str:
    """Which of AdaptiveCrawler.digest's exits ended the crawl (it does not say)."""
    if error:
        return "error"
    if state.metrics.get("confidence", 0.0) >= config.confidence_threshold:
        return "confidence_reached"
    if len(state.crawled_urls) >= config.max_pages:
        return "max_pages"
    if state.metrics.get("depth_reached", 0) >= config.max_depth:
        return "max_depth"
    # The remaining exits: no link left to rank, the best link's gain under
    # min_gain_threshold, or every top link already crawled.
    return "no_gain_or_links"


async def main() -> int:
    parser = base_parser(__doc__.splitlines()[0])
    parser.add_argument("--strategy", choices=("bestfirst", "adaptive"), required=True)
    parser.add_argument(
        "--url-encoded-keywords",
        action="store_true",
        help="best-first: also give the scorer each keyword percent-encoded (off by default: "
        "KeywordRelevanceScorer matches the raw URL, so non-ASCII keywords never match "
        "percent-encoded paths)",
    )
    parser.add_argument(
        "--confidence-threshold",
        type=float,
        default=None,
        help="adaptive: stop confidence (default: Crawl4AI's, 0.7). With one page crawled its "
        "consistency is 1.0, so a start page holding every query word already scores 0.7",
    )
    args = parser.parse_args()
    tasks = load_tasks(args.tasks)
    flags = crawl4ai_launch_flags()
    profile = tempfile.mkdtemp(prefix="crawl4ai-chromium-")
    atexit.register(shutil.rmtree, profile, ignore_errors=True)  # runs after Chromium has exited
    t_launch = time.perf_counter()
    proc, cdp_url = launch_chromium(profile, flags)
    launch_s = round(time.perf_counter() - t_launch, 3)
    crawler_name = f"crawl4ai-{args.strategy}"
    results: list[dict[str, Any]] = []
    try:
        for task in tasks:
            if args.strategy == "bestfirst":
                res = await run_bestfirst(
                    task, cdp_url, args.budget, args.concurrency, args.url_encoded_keywords
                )
            else:
                res = await run_adaptive(task, cdp_url, args.budget, args.confidence_threshold)
            results.append(res)
            print(summary_line(crawler_name, res), flush=True)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
    write_output(
        args.out,
        crawler_name,
        CRAWL4AI_VERSION,
        results,
        chromium=chromium_path(),
        chromium_version=chromium_version(),
        chromium_flags=flags,
        launch_s=launch_s,
        budget=args.budget,
        concurrency=args.concurrency,
        url_encoded_keywords=args.url_encoded_keywords,
        confidence_threshold=args.confidence_threshold,
    )
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
