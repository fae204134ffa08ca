"""Core speed: what the pure-Python core costs per page, beside a page render.

Measures, on synthetic but realistic inputs (university-portal vocabulary,
a 60-link page mix of menu, body and footer links):

- links canonicalized per second (`canonicalize_url`);
- links scored per second (`score_link`, query "international student housing");
- `relevance()` calls per second on a 2,000-word page;
- pages whose language is detected per second (`detect_language`);
- content dedup checks per second (`ContentDeduper.check`, 2,000-word pages);
- frontier push+pop per second at 10k and 1M URLs: the frontier alone
  (`push_canonical`, no trap detector), and the full `push` path at 10k
  (canonicalize + scope + trap detector);
- peak memory of the 1M-URL frontier (tracemalloc peak while pushing);
- checkpoint saves: a full save of 10k queued entries, and the incremental
  save after each page (median, and mean including WAL checkpoints);

then the core cost of one page (1 relevance + 1 language detection + 60 links canonicalized, scored
and pushed + 1 pop + 1 dedup check + 1 checkpoint save) as a share of a
100 ms and a 500 ms render.

    .venv/bin/python benchmarks/core_speed.py [--quick] [--json FILE]

The full run takes about a minute on an idle machine; `--quick` (smaller
sizes) about ten seconds.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TextIO

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # runnable as a script from anywhere
    sys.path.insert(0, str(ROOT))

from fixtures_site.words import PORTAL_WORDS  # noqa: E402
from pw_adaptive.core.dedup import ContentDeduper  # noqa: E402
from pw_adaptive.core.frontier import Frontier  # noqa: E402
from pw_adaptive.core.links import Link, Region, score_link  # noqa: E402
from pw_adaptive.core.query import Query  # noqa: E402
from pw_adaptive.core.relevance import relevance  # noqa: E402
from pw_adaptive.core.scope import Scope  # noqa: E402
from pw_adaptive.core.traps import TrapDetector  # noqa: E402
from pw_adaptive.core.urls import canonicalize_url  # noqa: E402
from pw_adaptive.crawling.checkpoint import Checkpoint  # noqa: E402
from pw_adaptive.text.lang import detect_language  # noqa: E402

QUERY = "international student housing"
SITE = "https://www.uni.edu"
LINKS_PER_PAGE = 60
"""Links on a typical portal page: ~20 menu, ~30 body, ~10 footer."""
RENDER_MS = (100.0, 500.0)
"""A headless Chromium render of one portal page, DOM quiet to markdown."""

_VOCABULARY = [
    *PORTAL_WORDS,
    "research",
    "faculty",
    "admissions",
    "tuition",
    "fees",
    "scholarship",
    "course",
    "programme",
    "module",
    "lecture",
]
_NAV = ["About", "Study", "Research", "Students", "Staff", "News", "Events", "Contact"]
_FOOTER = ["Privacy", "Accessibility", "Cookies", "Imprint", "Jobs", "Sitemap"]
_GENERIC = ["Learn more", "Read more", "Details", "More", "Apply now"]


@dataclass(frozen=True)
class Sizes:
    """Input sizes of one benchmark run."""

    links: int = 60_000
    pages: int = 300
    small_frontier: int = 10_000
    large_frontier: int = 1_000_000
    dedup_pages: int = 500
    repeats: int = 3


FULL = Sizes()
QUICK = Sizes(links=6_000, pages=40, small_frontier=10_000, large_frontier=50_000, dedup_pages=60)
TINY = Sizes(links=120, pages=2, small_frontier=200, large_frontier=500, dedup_pages=3, repeats=1)


@dataclass(frozen=True)
class Row:
    """One measured figure."""

    name: str
    value: float
    unit: str


# ----------------------------------------------------------------- inputs


def _slug(rng: random.Random, words: int) -> str:
    return "-".join(rng.choice(_VOCABULARY) for _ in range(words))


def make_links(count: int, seed: int = 1) -> list[Link]:
    """A page-like mix: a third menu links, half body links, the rest footer.

    Body links carry tracking parameters and anchors now and then, and a
    share are generic ("Learn more") under a card heading.
    """
    rng = random.Random(seed)
    links: list[Link] = []
    for i in range(count):
        kind = i % 6
        if kind in (0, 1):
            label = rng.choice(_NAV)
            links.append(Link(f"{SITE}/{label.lower()}/", text=label, region=Region.NAV))
        elif kind == 5:
            label = rng.choice(_FOOTER)
            links.append(Link(f"{SITE}/{label.lower()}", text=label, region=Region.FOOTER))
        else:
            slug = _slug(rng, 3)
            url = f"{SITE}/{rng.choice(_VOCABULARY)}/{slug}"
            if rng.random() < 0.3:
                url += "?utm_source=newsletter&utm_medium=email&ref=home"
            if rng.random() < 0.2:
                url += "#overview"
            if rng.random() < 0.3:
                links.append(
                    Link(url, text=rng.choice(_GENERIC), context_heading=slug.replace("-", " "))
                )
            else:
                links.append(Link(url, text=slug.replace("-", " ").capitalize()))
    return links


def make_page(words: int = 2_000, seed: int = 3) -> str:
    """Markdown of a long portal page: headings every ~150 words, paragraphs."""
    rng = random.Random(seed)
    blocks: list[str] = ["# Student accommodation"]
    written = 0
    while written < words:
        if written % 150 < 60:
            blocks.append("## " + _slug(rng, 3).replace("-", " ").capitalize())
        length = rng.randint(30, 90)
        blocks.append(" ".join(rng.choice(_VOCABULARY) for _ in range(length)) + ".")
        written += length
    return "\n\n".join(blocks)


def make_urls(count: int, seed: int = 2) -> list[str]:
    """Distinct canonical URLs of one site, slugs of portal words."""
    rng = random.Random(seed)
    urls: set[str] = set()
    while len(urls) < count:
        urls.add(f"{SITE}/{rng.choice(_VOCABULARY)}/{_slug(rng, 4)}")
    return [canonicalize_url(url) for url in urls]


class _NoTraps(TrapDetector):
    """Accepts every URL: isolates the frontier's own cost."""

    def check(self, url: str) -> str | None:
        return None


# ------------------------------------------------------------- measuring


def _rate(count: int, action: Callable[[], object], repeats: int) -> float:
    """Best-of-`repeats` operations per second of `action` doing `count` operations."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - start)
    return count / best if best > 0 else float("inf")


def bench_canonicalize(sizes: Sizes) -> float:
    urls = [link.url for link in make_links(sizes.links)]
    return _rate(len(urls), lambda: [canonicalize_url(url) for url in urls], sizes.repeats)


def bench_score_links(sizes: Sizes) -> float:
    query = Query(QUERY)
    links = make_links(sizes.links)
    return _rate(
        len(links), lambda: [score_link(link, query, 0.4) for link in links], sizes.repeats
    )


def bench_relevance(sizes: Sizes) -> float:
    query = Query(QUERY)
    page = make_page()
    url = f"{SITE}/students/housing/international"

    def relevance_loop() -> None:
        for _ in range(sizes.pages):
            relevance(query, markdown=page, title="International student housing", url=url)

    return _rate(sizes.pages, relevance_loop, sizes.repeats)


def bench_language(sizes: Sizes) -> float:
    """Pages whose language is detected per second (the crawler records it)."""
    page = make_page()
    detect_language(page)  # load the model outside the timing

    def language_loop() -> None:
        for _ in range(sizes.pages):
            detect_language(page)

    return _rate(sizes.pages, language_loop, sizes.repeats)


def bench_dedup(sizes: Sizes) -> float:
    pages = [make_page(seed=seed) for seed in range(sizes.dedup_pages)]

    def dedup_loop() -> None:
        deduper = ContentDeduper()
        for i, page in enumerate(pages):
            deduper.check(f"{SITE}/p{i}", page)

    return _rate(len(pages), dedup_loop, sizes.repeats)


def bench_frontier(urls: Sequence[str], *, full: bool) -> float:
    """Push every URL, then pop them all; (push + pop) pairs per second."""
    rng = random.Random(4)
    scores = [rng.random() for _ in urls]
    if full:
        frontier = Frontier(
            max_pages=len(urls), scope=Scope(SITE + "/"), traps=TrapDetector(), max_depth=10
        )
        push = frontier.push
    else:
        frontier = Frontier(max_pages=len(urls), traps=_NoTraps())
        push = frontier.push_canonical
    start = time.perf_counter()
    for url, score in zip(urls, scores, strict=True):
        push(url, score=score, depth=2)
    while frontier.pop(0.0) is not None:
        pass
    elapsed = time.perf_counter() - start
    if frontier.fetched != len(urls):
        raise RuntimeError(f"frontier lost URLs: {frontier.fetched} of {len(urls)}")
    return len(urls) / elapsed


def bench_frontier_memory(urls: Sequence[str]) -> float:
    """Peak MB allocated while building a frontier of `urls` (URL strings excluded)."""
    rng = random.Random(5)
    scores = [rng.random() for _ in urls]
    tracemalloc.start()
    try:
        frontier = Frontier(max_pages=len(urls), traps=_NoTraps())
        for url, score in zip(urls, scores, strict=True):
            frontier.push_canonical(url, score=score, depth=2)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    del frontier
    return peak / 1e6


def bench_checkpoint(sizes: Sizes) -> tuple[float, float, float]:
    """Checkpoint costs in ms: a full save of a `small_frontier` frontier, then
    the median and the mean of the incremental saves after each simulated page
    (60 pushes, 1 pop, `mark_done`, one state value). The mean includes the
    WAL checkpoints, whose fsync makes a few saves slow."""
    urls = make_urls(sizes.small_frontier + LINKS_PER_PAGE * sizes.pages)
    frontier = Frontier(max_pages=sizes.pages + 1, traps=_NoTraps())
    seed, fresh = urls[: sizes.small_frontier], iter(urls[sizes.small_frontier :])
    for i, url in enumerate(seed):
        frontier.push_canonical(url, score=(i % 97) / 97, depth=2)
    saves: list[float] = []
    with (
        tempfile.TemporaryDirectory() as tmp,
        Checkpoint(Path(tmp) / "state.sqlite", crawl_key="bench") as checkpoint,
    ):
        start = time.perf_counter()
        checkpoint.save_frontier(frontier)
        full_ms = (time.perf_counter() - start) * 1e3
        for page in range(sizes.pages):
            entry = frontier.pop(0.0)
            if entry is None:
                raise RuntimeError("frontier ran dry")
            for _ in range(LINKS_PER_PAGE):
                frontier.push_canonical(next(fresh), score=0.5, depth=3)
            frontier.mark_done(entry.url)
            start = time.perf_counter()
            checkpoint.save(frontier, state={"offset": page})
            saves.append((time.perf_counter() - start) * 1e3)
    return full_ms, statistics.median(saves), statistics.fmean(saves)


def run(sizes: Sizes, log: TextIO | None = None) -> list[Row]:
    """Run every measurement; return the rows in report order."""

    def note(message: str) -> None:
        if log is not None:
            print(message, file=log, flush=True)

    rows: list[Row] = []
    note("canonicalize ...")
    canonicalize = bench_canonicalize(sizes)
    rows.append(Row("links canonicalized", canonicalize, "/s"))
    note("score_link ...")
    scored = bench_score_links(sizes)
    rows.append(Row("links scored", scored, "/s"))
    note("relevance ...")
    relevant = bench_relevance(sizes)
    rows.append(Row("relevance() on a 2,000-word page", relevant, "/s"))
    note("language ...")
    language = bench_language(sizes)
    rows.append(Row("language detected, 2,000-word pages", language, "/s"))
    note("dedup ...")
    dedup = bench_dedup(sizes)
    rows.append(Row("dedup checks, 2,000-word pages", dedup, "/s"))
    note("frontier ...")
    small = make_urls(sizes.small_frontier)
    core_small = max(bench_frontier(small, full=False) for _ in range(sizes.repeats))
    rows.append(Row(f"frontier push+pop, {sizes.small_frontier:,} URLs", core_small, "/s"))
    full_small = max(bench_frontier(small, full=True) for _ in range(sizes.repeats))
    rows.append(
        Row(
            f"frontier push+pop, {sizes.small_frontier:,} URLs, canonicalize+scope+traps",
            full_small,
            "/s",
        )
    )
    large = make_urls(sizes.large_frontier)
    rows.append(
        Row(
            f"frontier push+pop, {sizes.large_frontier:,} URLs",
            bench_frontier(large, full=False),
            "/s",
        )
    )
    rows.append(
        Row(
            f"frontier peak memory, {sizes.large_frontier:,} URLs",
            bench_frontier_memory(large),
            "MB",
        )
    )
    del large
    note("checkpoint ...")
    full_save_ms, median_save_ms, mean_save_ms = bench_checkpoint(sizes)
    rows.append(Row(f"checkpoint full save, {sizes.small_frontier:,} queued", full_save_ms, "ms"))
    rows.append(Row("checkpoint save after one page, median", median_save_ms, "ms"))
    rows.append(Row("checkpoint save after one page, mean", mean_save_ms, "ms"))
    per_page_ms = (
        1e3
        * (
            1 / relevant
            + 1 / language
            + LINKS_PER_PAGE * (1 / canonicalize + 1 / scored + 1 / full_small)
            + 1 / dedup
        )
        + mean_save_ms
    )
    rows.append(Row("core cost per page", per_page_ms, "ms"))
    for render_ms in RENDER_MS:
        rows.append(
            Row(
                f"core cost per page vs a {render_ms:.0f} ms render",
                100 * per_page_ms / render_ms,
                "%",
            )
        )
    return rows


def format_rows(rows: Sequence[Row]) -> str:
    """A plain-text table: name, value with thousands separators, unit."""
    width = max(len(row.name) for row in rows)
    lines = [f"{'measure':<{width}}  {'value':>14}  unit", "-" * (width + 22)]
    for row in rows:
        value = f"{row.value:,.0f}" if row.unit == "/s" else f"{row.value:,.2f}"
        lines.append(f"{row.name:<{width}}  {value:>14}  {row.unit}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Parse arguments, run, print the table to `out` (stdout); progress on stderr."""
    parser = argparse.ArgumentParser(description="pw_adaptive core speed benchmark")
    parser.add_argument("--quick", action="store_true", help="smaller sizes, about ten seconds")
    parser.add_argument("--tiny", action="store_true", help="toy sizes, for the smoke test")
    parser.add_argument("--json", type=Path, help="also write the rows as JSON to this file")
    args = parser.parse_args(argv)
    out = out if out is not None else sys.stdout
    sizes = TINY if args.tiny else QUICK if args.quick else FULL
    rows = run(sizes, log=sys.stderr)
    print(format_rows(rows), file=out)
    if args.json is not None:
        args.json.write_text(
            json.dumps({"sizes": asdict(sizes), "rows": [asdict(row) for row in rows]}, indent=2)
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
