"""Unit tests of the quality benchmark's parts (no browser): the oracle, the
render cache, scoring a crawl against the truth, the ablation switches and
the real-site labels."""

from __future__ import annotations

import asyncio
import html
import json
import re
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from pw_adaptive.core.query import Query
from pw_adaptive.core.scope import Scope
from pw_adaptive.core.scoring import AnchorScorer, BreadthFirstScorer
from pw_adaptive.core.stopper import (
    COLD_PATIENCE,
    MIN_SOURCES,
    Adaptive,
    AdaptiveOptions,
    StopReason,
)
from pw_adaptive.pages import FetchResult, RenderedPage
from pw_adaptive.records import CrawlResult, PageRecord
from pw_adaptive.settings import CrawlSettings
from pw_adaptive.testing import FakeRenderer, make_page

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import _corpus  # noqa: E402
import quality  # noqa: E402
from _oracle import Oracle, explore, oracle_pages  # noqa: E402
from _render_cache import RenderCache  # noqa: E402

ORIGIN = "http://127.0.0.1:9"  # never contacted: every render here is fake


def _page(
    url: str, links: list[str], *, final: str | None = None, status: int = 200
) -> RenderedPage:
    redirects = (url,) if final else ()
    return make_page(url, links=links, final_url=final or url, status=status, redirects=redirects)


# ----------------------------------------------------------------- oracle


def test_oracle_single_target_is_its_shortest_path() -> None:
    # s -> a -> b -> t and s -> c -> t: the shortest path is s, c, t.
    edges = {"s": ["a", "c"], "a": ["b"], "b": ["t"], "c": ["t"]}
    oracle = oracle_pages(edges, "s", ["t"])
    assert oracle.pages == 3
    assert oracle.distances == {"t": 2}
    assert oracle.path == ("s", "c", "t")


def test_oracle_shares_a_hub_between_targets() -> None:
    # t1 is under a or b (both at depth 1); t2 only under b. Taking b for both
    # gives {s, b, t1, t2}: 4 pages, not 5.
    edges = {"s": ["a", "b"], "a": ["t1"], "b": ["t1", "t2"]}
    oracle = oracle_pages(edges, "s", ["t1", "t2"])
    assert oracle.pages == 4
    assert set(oracle.path) == {"s", "b", "t1", "t2"}


def test_oracle_counts_the_start_and_handles_no_targets_and_unreachable() -> None:
    edges = {"s": ["a"], "a": ["s"]}
    assert oracle_pages(edges, "s", []).pages == 1
    assert oracle_pages(edges, "s", ["s"]).pages == 1
    missing = oracle_pages(edges, "s", ["a", "zzz"])
    assert missing.pages == 2
    assert missing.unreached == ("zzz",)


def test_oracle_reaches_a_target_through_a_redirecting_link() -> None:
    # /old redirects to /t: fetching /old is how a crawler gets /t.
    edges = {"s": ["x", "old"], "x": ["t"]}
    oracle = oracle_pages(edges, "s", ["t"], aliases={"old": "t"})
    assert oracle.distances == {"t": 1}
    assert oracle.pages == 2


def test_explore_stops_when_every_target_is_reached_and_prefers_cached_pages() -> None:
    site = {
        f"{ORIGIN}/": [f"{ORIGIN}/a", f"{ORIGIN}/b", f"{ORIGIN}/c"],
        f"{ORIGIN}/a": [f"{ORIGIN}/a1"],
        f"{ORIGIN}/b": [f"{ORIGIN}/t"],
        f"{ORIGIN}/c": [f"{ORIGIN}/c1"],
        f"{ORIGIN}/t": [],
    }
    fake = FakeRenderer(lambda url: _page(url, site.get(url, [])))
    cached = {f"{ORIGIN}/", f"{ORIGIN}/b"}
    graph = asyncio.run(
        explore(
            f"{ORIGIN}/",
            [f"{ORIGIN}/t"],
            fake.render,
            cached.__contains__,
            Scope(f"{ORIGIN}/"),
            batch=1,
        )
    )
    # Layer 1 is expanded cached page first (b), which reveals t: a and c are
    # never rendered.
    assert fake.rendered == [f"{ORIGIN}/", f"{ORIGIN}/b"]
    assert graph.complete and graph.live_renders == 0
    assert oracle_pages(graph.edges, f"{ORIGIN}/", [f"{ORIGIN}/t"]).pages == 3


def test_explore_follows_redirects_drops_error_pages_and_respects_its_bound() -> None:
    site = {
        f"{ORIGIN}/": [f"{ORIGIN}/gone", f"{ORIGIN}/old", "https://elsewhere.example/x"],
        f"{ORIGIN}/gone": [f"{ORIGIN}/t2"],  # a 404 page: its links are not followed
    }

    async def render(url: str) -> RenderedPage:
        if url == f"{ORIGIN}/old":
            return _page(url, [], final=f"{ORIGIN}/t")
        return _page(url, site.get(url, []), status=404 if url.endswith("gone") else 200)

    graph = asyncio.run(
        explore(
            f"{ORIGIN}/",
            [f"{ORIGIN}/t", f"{ORIGIN}/t2"],
            render,
            lambda _u: False,
            Scope(f"{ORIGIN}/"),
        )
    )
    assert graph.aliases == {f"{ORIGIN}/old": f"{ORIGIN}/t"}
    assert graph.edges[f"{ORIGIN}/"] == [f"{ORIGIN}/gone", f"{ORIGIN}/old"]  # out of scope dropped
    assert graph.edges[f"{ORIGIN}/gone"] == []
    assert not graph.complete  # t2 only behind a 404 page
    oracle = oracle_pages(graph.edges, f"{ORIGIN}/", [f"{ORIGIN}/t", f"{ORIGIN}/t2"], graph.aliases)
    assert oracle.distances == {f"{ORIGIN}/t": 1} and oracle.unreached == (f"{ORIGIN}/t2",)

    bounded = asyncio.run(
        explore(
            f"{ORIGIN}/",
            [f"{ORIGIN}/t2"],
            render,
            lambda _u: False,
            Scope(f"{ORIGIN}/"),
            max_live=1,
        )
    )
    assert bounded.live_renders == 1 and not bounded.complete


# ----------------------------------------------------------------- render cache


class _SlowRenderer:
    def __init__(self) -> None:
        self.calls: list[str] = []
        self.running = 0
        self.peak = 0

    async def render(self, url: str) -> RenderedPage:
        self.calls.append(url)
        self.running += 1
        self.peak = max(self.peak, self.running)
        await asyncio.sleep(0.02)
        self.running -= 1
        return _page(url, [f"{url}/child"], final=url + "/final")


class _Fetcher:
    def __init__(self) -> None:
        self.calls = 0

    async def fetch(self, url: str, *, max_bytes: int) -> FetchResult:
        self.calls += 1
        return FetchResult(url, 200, body=b"x")


def test_render_cache_renders_each_url_once_and_replays_it_unchanged() -> None:
    inner, fetcher = _SlowRenderer(), _Fetcher()

    async def scenario() -> None:
        cache = RenderCache(inner, fetcher, max_live=2)
        first = await asyncio.gather(*(cache.render(f"{ORIGIN}/p{i % 3}") for i in range(9)))
        again = await cache.render(f"{ORIGIN}/p1")
        assert inner.calls.count(f"{ORIGIN}/p1") == 1 and len(inner.calls) == 3
        assert inner.peak <= 2
        assert again is first[1]  # the very same render: final URL, redirects, links
        assert again.url == f"{ORIGIN}/p1" and again.final_url == f"{ORIGIN}/p1/final"
        assert cache.stats.live_renders == 3 and cache.stats.cached_renders == 7
        assert set(cache.rendered()) == {f"{ORIGIN}/p0", f"{ORIGIN}/p1", f"{ORIGIN}/p2"}
        await cache.fetch(f"{ORIGIN}/robots.txt", max_bytes=10)
        await cache.fetch(f"{ORIGIN}/robots.txt", max_bytes=10)
        assert fetcher.calls == 1 and cache.stats.cached_fetches == 1

    asyncio.run(scenario())


def test_render_cache_survives_a_caller_that_cancels() -> None:
    inner = _SlowRenderer()

    async def scenario() -> None:
        cache = RenderCache(inner, None)
        quitter = asyncio.ensure_future(cache.render(f"{ORIGIN}/x"))
        waiter = asyncio.ensure_future(cache.render(f"{ORIGIN}/x"))
        await asyncio.sleep(0)
        quitter.cancel()  # a crawl that stopped cancels its in-flight render
        page = await waiter
        assert page.url == f"{ORIGIN}/x" and inner.calls == [f"{ORIGIN}/x"]
        assert (await cache.fetch(f"{ORIGIN}/f", max_bytes=1)).error == "no_fetcher"

    asyncio.run(scenario())


# ----------------------------------------------------------------- scoring a crawl


def _record(url: str, final: str, markdown: str = "", error: str | None = None) -> PageRecord:
    return PageRecord(
        url=url, final_url=final, title="", depth=0, relevance=0.0, link_score=0.0,
        blind=False, evidence=(), fresh=False, markdown=markdown, status=200, parent=None,
        headings=(), links=0, error=error, note=None, elapsed_s=0.0,
    )  # fmt: skip


def _saturated(pages: tuple[PageRecord, ...]) -> CrawlResult:
    """A crawl of ``pages`` for the query "q" that stopped saturated."""
    return CrawlResult(
        start_url=f"{ORIGIN}/", query="q", terms=("q",), stop_reason=StopReason.SATURATED,
        pages=pages, attachments=(), coverage=0.0, evidence=(), skipped={}, failures={},
        elapsed_s=0.0,
    )  # fmt: skip


def test_score_crawl_measures_recall_harvest_facts_and_efficiency() -> None:
    task = quality.Task(
        id="t", group="fixtures", query="q", start_url=f"{ORIGIN}/",
        relevant=frozenset({f"{ORIGIN}/r1", f"{ORIGIN}/r2"}), facts=("£9,250  per year", "absent"),
    )  # fmt: skip
    pages = (
        _record(f"{ORIGIN}/", f"{ORIGIN}/"),
        _record(f"{ORIGIN}/old", f"{ORIGIN}/r1", markdown="Fees: £9,250\nper year"),
        _record(f"{ORIGIN}/r2", f"{ORIGIN}/r2", error="timeout"),  # a failed fetch finds nothing
        _record(f"{ORIGIN}/x", f"{ORIGIN}/x"),
    )
    result = _saturated(pages)
    row = quality.score_crawl("pw_adaptive", task, result, oracle=3)
    assert (row.pages, row.found, row.relevant) == (4, 1, 2)
    assert row.harvest == pytest.approx(0.25) and row.recall == pytest.approx(0.5)
    assert (row.facts_found, row.facts) == (1, 2)
    assert row.last_relevant_at == 2
    assert row.found_at == {f"{ORIGIN}/r1": 2}
    assert row.efficiency == pytest.approx(0.75)
    assert row.stop_reason == "saturated"
    failed = quality.score_crawl("x", task, None, oracle=3)
    assert failed.stop_reason == "start_failed" and failed.pages == 0


def test_a_fact_is_found_in_markdown_that_escapes_its_characters() -> None:
    # The label copies the page's text; the markdown escapes "*" and "_".
    task = quality.Task(
        id="t", group="fixtures", query="q", start_url=f"{ORIGIN}/",
        relevant=frozenset({f"{ORIGIN}/r"}), facts=("2050mm*1000mm bed", "room_list", "absent*"),
    )  # fmt: skip
    pages = (
        _record(f"{ORIGIN}/r", f"{ORIGIN}/r", markdown="**2050mm\\*1000mm\nbed** see room\\_list"),
    )
    result = _saturated(pages)
    row = quality.score_crawl("pw_adaptive", task, result, oracle=1)
    assert (row.facts_found, row.facts) == (2, 3)


def test_a_trace_lists_each_page_with_its_label_mark_freshness_and_parent(tmp_path: Path) -> None:
    task = quality.Task(
        id="t", group="fixtures", query="q", start_url=f"{ORIGIN}/",
        relevant=frozenset({f"{ORIGIN}/r1", f"{ORIGIN}/r2"}), facts=(),
    )  # fmt: skip
    found = replace(
        _record(f"{ORIGIN}/r1", f"{ORIGIN}/r1"),
        relevance=0.5, link_score=0.4, fresh=True, relevant=True, depth=1, parent=f"{ORIGIN}/",
    )  # fmt: skip
    blind = replace(
        _record(f"{ORIGIN}/x", f"{ORIGIN}/x"),
        blind=True, parent=f"{ORIGIN}/r1", relevance=0.2, relevant=True,
    )  # fmt: skip
    result = CrawlResult(
        start_url=f"{ORIGIN}/", query="q", terms=("q",), stop_reason=StopReason.SATURATED,
        pages=(_record(f"{ORIGIN}/", f"{ORIGIN}/"), found, blind), attachments=(),
        coverage=0.0, evidence=(0,),
    )  # fmt: skip
    row = quality.score_crawl("pw_adaptive", task, result, oracle=2)
    oracle = Oracle(2, {f"{ORIGIN}/r1": 1}, (f"{ORIGIN}/r2",), (f"{ORIGIN}/", f"{ORIGIN}/r1"))
    outcome = quality.TaskOutcome([row], oracle, True, 0, [], default=result)
    quality.write_traces(tmp_path, [task], {"t": outcome})
    lines = (tmp_path / "t.txt").read_text(encoding="utf-8").splitlines()
    assert lines[0] == "t: 'q' (en) -> saturated after 3 pages"
    start, answer, other = lines[2:5]
    assert not start.endswith("<-") and "<-" not in start and " new " not in start
    # "+": in the crawl's answer; "*": marked when recorded, below half the best.
    assert answer.startswith("  2 R+ rel=0.500 link=0.40") and " new d=1 " in answer
    assert answer.endswith(f"<- {ORIGIN}/")
    assert other.startswith("  3 -* rel=0.200") and " blind " in other
    assert other.endswith(f"<- {ORIGIN}/r1")
    assert lines[5:] == [f"missed: {ORIGIN}/r2"]


def test_a_trace_says_why_the_start_page_failed(tmp_path: Path) -> None:
    task = quality.Task(
        id="t", group="fixtures", query="q", start_url=f"{ORIGIN}/",
        relevant=frozenset({f"{ORIGIN}/r1"}), facts=(),
    )  # fmt: skip
    row = quality.score_crawl("pw_adaptive", task, None, oracle=2)
    assert row.stop_reason == "start_failed" and row.pages == 0
    oracle = Oracle(2, {f"{ORIGIN}/r1": 1}, (), (f"{ORIGIN}/",))
    error = f"cannot load the start URL {ORIGIN}/: timeout"
    outcome = quality.TaskOutcome([row], oracle, True, 0, [], start_error=error)
    quality.write_traces(tmp_path, [task], {"t": outcome})
    lines = (tmp_path / "t.txt").read_text(encoding="utf-8").splitlines()
    assert lines == [f"t: 'q' (en) -> {error}", f"missed: {ORIGIN}/r1"]


class _BrokenScorer(AnchorScorer):
    """A link scorer with a bug: it raises on the first link it scores."""

    def score(self, *args: Any, **kwargs: Any) -> Any:
        raise ValueError("a bug in the scorer")


def test_a_crawl_that_raises_is_counted_as_crashed_and_the_other_crawls_go_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = {f"{ORIGIN}/": [f"{ORIGIN}/t"], f"{ORIGIN}/t": []}
    task = quality.Task(
        id="t", group="fixtures", query="tuition fees", start_url=f"{ORIGIN}/",
        relevant=frozenset({f"{ORIGIN}/t"}), facts=(),
    )  # fmt: skip
    settings = CrawlSettings(max_pages=5, adaptive_stop=False)
    variants = [
        quality.Variant(quality.DEFAULT, _BrokenScorer(), settings),
        quality.Variant("breadth-first", BreadthFirstScorer(), settings),
    ]
    cache = RenderCache(FakeRenderer(lambda url: _page(url, site.get(url, []))), _Fetcher())
    outcome = asyncio.run(quality.run_task(task, variants, cache, oracle_bound=10))
    broken, fine = outcome.rows
    assert broken.stop_reason == "crashed" and broken.found == 0 and broken.pages == 0
    assert fine.found == 1 and fine.stop_reason != "crashed"
    assert outcome.crashed == {quality.DEFAULT: "ValueError: a bug in the scorer"}
    assert outcome.start_error is None
    err = capsys.readouterr().err
    assert "t: the pw_adaptive crawl crashed:" in err and "Traceback" in err
    quality.write_traces(tmp_path, [task], {"t": outcome})
    first = (tmp_path / "t.txt").read_text(encoding="utf-8").splitlines()[0]
    assert first == "t: 'tuition fees' (en) -> the crawl crashed: ValueError: a bug in the scorer"


def test_a_relevant_page_the_crawl_skipped_as_a_copy_of_one_it_rendered_is_found() -> None:
    shared = "/info/canteens/"
    task = quality.Task(
        id="t", group="fixtures", query="q", start_url=f"{ORIGIN}/",
        relevant=frozenset({f"{ORIGIN}/a{shared}", f"{ORIGIN}/b{shared}", f"{ORIGIN}/c{shared}"}),
        facts=(),
    )  # fmt: skip
    pages = (
        _record(f"{ORIGIN}/", f"{ORIGIN}/"),
        _record(f"{ORIGIN}/a{shared}", f"{ORIGIN}/a{shared}"),
        _record(f"{ORIGIN}/b{shared}", f"{ORIGIN}/b{shared}"),
    )

    def crawl(rules: dict[str, tuple[str, ...]]) -> CrawlResult:
        return CrawlResult(
            start_url=f"{ORIGIN}/", query="q", terms=("q",), stop_reason=StopReason.SATURATED,
            pages=pages, attachments=(), coverage=0.0, evidence=(), variant_rules=rules,
        )  # fmt: skip

    host = urlsplit(ORIGIN).hostname or ""
    learnt = quality.score_crawl("pw_adaptive", task, crawl({host: (f"t:{shared}>a",)}), 2)
    assert learnt.found == 3
    assert learnt.found_at[f"{ORIGIN}/c{shared}"] == 2  # with the copy it was shown by
    assert quality.score_crawl("pw_adaptive", task, crawl({}), 2).found == 2


def test_totals_and_ablation_rows() -> None:
    def row(crawler: str, task: str, pages: int, found: list[str]) -> quality.Row:
        return quality.Row(crawler, task, "fixtures", pages, 2, len(found), len(found) / pages,
                           0, 0, 1, "saturated", 2, 2 / pages, found)  # fmt: skip

    rows = [
        row("pw_adaptive", "a", 10, ["a1", "a2"]),
        row("pw_adaptive", "b", 10, ["b1"]),
        row("forgive off", "a", 6, ["a1"]),
        row("forgive off", "b", 10, ["b1"]),
    ]
    t = quality.totals(rows, "pw_adaptive")
    assert (t.pages, t.found, t.oracle) == (20, 3, 4)
    assert t.recall == pytest.approx(0.75) and t.harvest == pytest.approx(0.15)
    variant = quality.Variant("forgive off", quality.AnchorScorer(), CrawlSettings())
    (abl,) = quality.ablation_rows(rows, [variant])
    assert (abl.pages_vs_default, abl.found_vs_default, abl.lost, abl.gained) == (-4, -1, 1, 0)
    assert abl.tasks_changed == 1


# ----------------------------------------------------------------- ablation switches


def test_every_ablation_changes_exactly_one_thing_and_defaults_stay() -> None:
    default = quality.baselines(100)[0]
    assert default.settings == CrawlSettings(max_pages=100)
    assert AdaptiveOptions().cold_patience == COLD_PATIENCE
    assert AdaptiveOptions().min_sources == MIN_SOURCES
    assert AdaptiveOptions().halve_patience_when_covered is True
    for variant in quality.ablations(100):
        changed = [
            name
            for name in (
                "forgive_score",
                "section_floors",
                "inherit",
                "inherit_min_relevance",
                "term_weights",
                "section_words",
                "use_sitemaps",
                "adaptive",
            )
            if getattr(variant.settings, name) != getattr(default.settings, name)
        ] + (["synonyms"] if variant.synonyms is not None else [])
        assert len(changed) == 1, variant.name
        assert replace(variant.settings, **{
            n: getattr(default.settings, n) for n in changed if n != "synonyms"
        }) == default.settings  # fmt: skip


def _blind_irrelevant_run(options: AdaptiveOptions, pages: int) -> str | None:
    q = Query("veterinary clinic")
    a = Adaptive(options, len(q))
    reason = None
    for _ in range(pages):
        reason = a.observe(q, "", 0.0, blind=True) or reason
    return reason


def test_cold_give_up_switch() -> None:
    assert _blind_irrelevant_run(AdaptiveOptions(), 10) == StopReason.NO_RELEVANT_PAGES
    assert _blind_irrelevant_run(AdaptiveOptions(cold_patience=4), 10) is None
    assert _blind_irrelevant_run(AdaptiveOptions(cold_patience=4), 20) == "no_relevant_pages"
    assert _blind_irrelevant_run(AdaptiveOptions(cold_patience=None), 200) is None
    with pytest.raises(ValueError):
        AdaptiveOptions(cold_patience=0)
    with pytest.raises(ValueError):
        AdaptiveOptions(min_sources=0)


def test_min_sources_and_covered_patience_switches() -> None:
    q = Query("housing")
    page = "\n\n".join(f"Housing block {i} with rooms." for i in range(3))

    def covered_after(options: AdaptiveOptions) -> tuple[bool, str | None]:
        a = Adaptive(options, len(q))
        a.observe(q, page, 0.9, blind=False)
        reasons = [a.observe(q, page, 0.9, blind=False) for _ in range(5)]
        return a.covered(), next((r for r in reasons if r), None)

    assert covered_after(AdaptiveOptions()) == (False, "saturated")  # one source only
    assert covered_after(AdaptiveOptions(min_sources=1)) == (True, "coverage_reached")
    a = Adaptive(AdaptiveOptions(min_sources=1, halve_patience_when_covered=False), len(q))
    a.observe(q, page, 0.9, blind=False)
    # Full patience: the stale pages run out as "saturated" only after 5, and
    # the covered verdict needs as many.
    reasons = [a.observe(q, page, 0.9, blind=False) for _ in range(5)]
    assert reasons[:4] == [None] * 4 and reasons[4] == "coverage_reached"


# ----------------------------------------------------------------- real-site labels


def _visible_text(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"<script.*?</script>|<style.*?</style>", " ", text, flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", text)))


LABEL_SETS = sorted((BENCHMARKS / "labels").glob("*.json"))


@pytest.mark.parametrize("labels_path", LABEL_SETS, ids=[p.stem for p in LABEL_SETS])
def test_labels_are_well_formed_and_true_to_the_pages(labels_path: Path) -> None:
    labels = json.loads(labels_path.read_text(encoding="utf-8"))
    tasks = labels["tasks"]
    assert len(tasks) >= 4 and any(not t["relevant"] for t in tasks)
    assert len({t["id"] for t in tasks}) == len(tasks)
    site = _corpus.sites().get(labels["site"])
    assert site is not None, f"no manifest for {labels['site']} in benchmarks/corpus/sites"
    if not site.laid_out:
        pytest.skip(f"{site.root} is not laid out (benchmarks/corpus/layout.py)")
    for task in tasks:
        assert task.get("lang"), task["id"]
        # Each page once: "/x/" and "/x/index.html" are one page (page_key).
        keys = [_corpus.page_key(p) for p in (*task["relevant"], *task.get("borderline", ()))]
        assert len(set(keys)) == len(keys), task["id"]
        assert _corpus.page_file(site.root, task["start"]) is not None, task["start"]
        texts = []
        for path in task["relevant"]:
            page = _corpus.page_file(site.root, path)
            assert page is not None, path
            texts.append(_visible_text(page))
        for path in task.get("borderline", ()):
            assert _corpus.page_file(site.root, path) is not None, path
        for fact in task["facts"]:
            assert any(fact in t for t in texts), (task["id"], fact)
        assert bool(task["facts"]) == bool(task["relevant"])


def test_every_reworded_query_asks_a_labelled_task_with_an_answer() -> None:
    # The shared folder's label sets (njust-manual, qu-edu-iq) are read
    # where they are; a task of theirs is checked when the folder is here.
    shared = _corpus.shared_dir() / "labels"
    paths = [*LABEL_SETS, *sorted(shared.glob("*.json"))]
    tasks = {t["id"]: t for p in paths for t in json.loads(p.read_text(encoding="utf-8"))["tasks"]}
    data = json.loads(quality.REWORDED.read_text(encoding="utf-8"))
    assert set(data["sets"]) == {"A", "B", "C"} and data["description"]
    for name in data["sets"]:
        for task_id, query in quality.reworded_queries(name).items():
            if task_id not in tasks and not shared.is_dir():
                continue
            task = tasks[task_id]
            assert task["relevant"], task_id  # an absent topic has no answer to word
            assert query != task["query"], task_id
            assert Query(query).terms, task_id  # raises on a query of stop words only


def test_a_reworded_set_keeps_its_tasks_labels_and_takes_their_new_words() -> None:
    labels = {
        "site": "s",
        "tasks": [
            {
                "id": "a",
                "query": "tuition fees",
                "lang": "en",
                "start": "/",
                "relevant": ["/fees"],
                "facts": [],
            },
            {
                "id": "b",
                "query": "library",
                "lang": "en",
                "start": "/",
                "relevant": ["/lib"],
                "facts": [],
            },
        ],
    }
    tasks = quality.label_tasks(
        labels, ORIGIN, reworded={"a": "how much does a year of study cost"}
    )
    assert [(t.id, t.query) for t in tasks] == [("a", "how much does a year of study cost")]
    assert tasks[0].relevant == frozenset({ORIGIN + "/fees"})
    with pytest.raises(SystemExit, match="no set 'Z'"):
        quality.reworded_queries("Z")


def test_every_site_manifest_names_its_licence_and_languages() -> None:
    for name, site in _corpus.sites().items():
        assert site.manifest.get("license"), name
        assert site.languages, name
        if site.manifest.get("source") != "shared":
            assert len(str(site.manifest.get("commit", ""))) == 40, name


def test_recall_at_default_pages_cuts_baselines_at_pw_adaptive_cost() -> None:
    def row(crawler: str, pages: int, found_at: dict[str, int]) -> quality.Row:
        return quality.Row(crawler, "a", "fixtures", pages, 2, len(found_at), 0.0, 0, 0, 0,
                           "saturated", 2, 0.0, sorted(found_at), found_at)  # fmt: skip

    rows = [
        row("pw_adaptive", 10, {"r1": 4}),
        row("breadth-first", 100, {"r1": 9, "r2": 60}),
    ]
    assert quality.recall_at_default_pages(rows, "breadth-first") == pytest.approx(0.5)
    assert quality.recall_at_default_pages(rows, "pw_adaptive") == pytest.approx(0.5)


def test_a_peer_is_measured_like_pw_adaptive_with_borderline_pages_neutral() -> None:
    task = quality.Task(
        id="t", group="site", query="fees", start_url="http://s/", relevant=frozenset({"http://s/a"}),
        facts=("EUR 100",), borderline=frozenset({"http://s/b"}),
    )  # fmt: skip
    run = quality.PeerRun(
        pages=[("http://s/", "http://s/"), ("http://s/b", "http://s/b"), ("http://s/a", "http://s/a")],
        markdown=["home", "hub", "Fees: EUR 100 a term"],
        identified=["http://s/a", "http://s/b", "http://s/"],
    )  # fmt: skip
    row = quality.score_peer("peer", task, run, oracle=2)
    assert (row.pages, row.found, row.facts_found, row.found_at) == (3, 1, 1, {"http://s/a": 3})
    assert (row.identified, row.identified_relevant, row.identified_irrelevant) == (3, 1, 1)
    totals = quality.real_totals([row], [task], "peer")
    assert totals is not None and totals.id_precision == 0.5 and totals.oracle_ratio == 1.5


def test_a_directory_and_its_index_file_are_one_page_for_labels_finds_marks_and_oracle() -> None:
    # The site links /guide (redirected to /guide/); the label names the file,
    # /guide/index.html, and the borderline hub /news/index.html.
    for form in ("/guide/index.html", "/guide/", "/guide"):
        assert _corpus.page_key(ORIGIN + form) == f"{ORIGIN}/guide"
    assert _corpus.page_key(f"{ORIGIN}/guide/index.html?x=1") == f"{ORIGIN}/guide?x=1"
    assert _corpus.page_key(f"{ORIGIN}/index.html") == f"{ORIGIN}/"
    assert _corpus.page_key(f"{ORIGIN}/") == f"{ORIGIN}/"
    assert _corpus.page_key(f"{ORIGIN}/guide/index.htm") == f"{ORIGIN}/guide/index.htm"
    assert _corpus.page_key(f"{ORIGIN}/myindex.html") == f"{ORIGIN}/myindex.html"
    labels = {
        "site": "s",
        "tasks": [
            {"id": "a", "query": "guide", "lang": "en", "start": "/",
             "relevant": ["/guide/index.html"], "facts": [], "borderline": ["/news/index.html"]},
        ],
    }  # fmt: skip
    (task,) = quality.label_tasks(labels, ORIGIN)
    run = quality.PeerRun(
        pages=[(f"{ORIGIN}/", f"{ORIGIN}/"), (f"{ORIGIN}/news", f"{ORIGIN}/news/"),
               (f"{ORIGIN}/guide", f"{ORIGIN}/guide/")],
        markdown=["home", "news", "the guide"],
        identified=[f"{ORIGIN}/guide/", f"{ORIGIN}/news/"],
    )  # fmt: skip
    row = quality.score_peer("peer", task, run, oracle=2)
    assert (row.found, row.relevant, row.found_at) == (1, 1, {f"{ORIGIN}/guide/index.html": 3})
    assert (row.identified_relevant, row.identified_irrelevant) == (1, 0)
    # The oracle reaches the label through the directory link and its redirect,
    # and through a link that names the index file itself.
    edges = {f"{ORIGIN}/": [f"{ORIGIN}/guide"]}
    oracle = oracle_pages(
        edges, f"{ORIGIN}/", task.relevant, {f"{ORIGIN}/guide": f"{ORIGIN}/guide/"}
    )
    assert oracle.pages == 2 and not oracle.unreached
    edges = {f"{ORIGIN}/": [f"{ORIGIN}/guide/index.html"]}
    assert oracle_pages(edges, f"{ORIGIN}/", task.relevant).pages == 2


def test_the_real_corpus_per_site_table_has_one_row_per_site_for_pw_adaptive() -> None:
    def task(tid: str, site: str, relevant: int) -> quality.Task:
        pages = frozenset(f"http://{site}/{i}" for i in range(relevant))
        return quality.Task(tid, site, "fees", f"http://{site}/", pages, ("x",))

    def row(crawler: str, t: quality.Task, pages: int, found: int) -> quality.Row:
        return quality.Row(crawler, t.id, t.group, pages, len(t.relevant), found, 0.0,
                           1, 1 if found else 0, 1, "saturated", 2, 0.0)  # fmt: skip

    a1, a2, b1 = task("a1", "site-a", 2), task("a2", "site-a", 0), task("b1", "site-b", 1)
    rows = [row("pw_adaptive", a1, 10, 1), row("pw_adaptive", a2, 7, 0),
            row("pw_adaptive", b1, 5, 1), row("peer", b1, 100, 0)]  # fmt: skip
    lines = quality.real_site_table(rows, [a1, a2, b1])
    assert lines[0].startswith("| site | tasks | recall |")
    body = lines[2:]
    assert [line.split(" | ")[0] for line in body] == ["| site-a", "| site-b"]
    # site-a: recall over its task with content, facts pooled, pages summed,
    # the absent task's pages listed; the peer's row is not counted anywhere.
    assert body[0].startswith("| site-a | 2 | 0.500 | 0.500 | — | — | 17 | 7 (7) | 5.00 |")
    assert body[1].startswith("| site-b | 1 | 1.000 | 1.000 | — | — | 5 | none (0) | 2.50 |")


# --- the static server: a snapshot served as its own server would serve it --


def test_the_static_server_names_itself_in_sitemaps_robots_txt_and_llms_txt(tmp_path: Path) -> None:
    import urllib.request

    (tmp_path / "robots.txt").write_text(
        "User-agent: *\nCrawl-delay: 5\nSitemap: https://www.uni.test/sitemap.xml\n"
    )
    (tmp_path / "sitemap.xml").write_text(
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        "<url><loc>https://www.uni.test/fees/</loc></url></urlset>"
    )
    (tmp_path / "feed.xml").write_text("<rss><link>https://www.uni.test/</link></rss>")
    (tmp_path / "ar").mkdir()
    (tmp_path / "ar" / "llms.txt").write_text(
        "# Uni\n- [Fees](https://www.uni.test/ar/fees/): what it costs\n- [Map](/ar/map/)\n",
        encoding="utf-8",
    )
    with quality.serve_directory(tmp_path) as origin:

        def get(path: str) -> str:
            with urllib.request.urlopen(origin + path) as response:
                return str(response.read().decode())

        robots = get("/robots.txt")
        assert f"Sitemap: {origin}/sitemap.xml" in robots and "Crawl-delay" not in robots
        assert f"<loc>{origin}/fees/</loc>" in get("/sitemap.xml")
        assert "https://www.uni.test/" in get("/feed.xml")  # not a sitemap: as it is
        llms = get("/ar/llms.txt")
        assert f"[Fees]({origin}/ar/fees/): what it costs" in llms and "[Map](/ar/map/)" in llms


def test_the_static_server_answers_an_extensionless_path_with_its_html_file(
    tmp_path: Path,
) -> None:
    import urllib.error
    import urllib.request

    (tmp_path / "projects").mkdir()
    (tmp_path / "projects" / "cupcake.html").write_text("<h1>Cupcake</h1>")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.html").write_text("<h1>Docs</h1>")
    (tmp_path / "docs.html").write_text("<h1>Not this one</h1>")
    (tmp_path / "backend").mkdir()  # a folder without an index, beside its page
    (tmp_path / "backend.html").write_text("<h1>Backend</h1>")
    with quality.serve_directory(tmp_path) as origin:

        def get(path: str) -> tuple[str, str]:
            with urllib.request.urlopen(origin + path) as response:
                return response.headers["Content-Type"], response.read().decode()

        assert get("/projects/cupcake") == ("text/html", "<h1>Cupcake</h1>")
        assert get("/projects/cupcake.html")[1] == "<h1>Cupcake</h1>"
        # A folder of that name wins, as on GitHub Pages.
        assert get("/docs/")[1] == "<h1>Docs</h1>"
        assert get("/docs")[1] == "<h1>Docs</h1>"
        assert get("/backend")[1] == "<h1>Backend</h1>"
        with pytest.raises(urllib.error.HTTPError) as missing:
            get("/projects/nothing")
        assert missing.value.code == 404
    assert (
        _corpus.page_file(tmp_path, "/projects/cupcake") == tmp_path / "projects" / "cupcake.html"
    )
    assert _corpus.page_file(tmp_path, "/docs") == tmp_path / "docs" / "index.html"
    assert _corpus.page_file(tmp_path, "/backend") == tmp_path / "backend.html"
    assert _corpus.page_file(tmp_path, "/projects/nothing") is None


def test_a_docsify_route_is_read_from_the_markdown_the_router_renders(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("<script>window.$docsify = {}</script>")
    (tmp_path / "README.md").write_text("# Home")
    (tmp_path / "docs" / "exams").mkdir(parents=True)
    (tmp_path / "docs" / "exams" / "README.md").write_text("# Exams")
    (tmp_path / "docs" / "exams" / "resits.md").write_text("# Resits")
    page = _corpus.page_file
    assert page(tmp_path, "/#/docs/exams/resits") == tmp_path / "docs" / "exams" / "resits.md"
    assert page(tmp_path, "/#/docs/exams/resits?id=dates") == tmp_path / "docs/exams/resits.md"
    assert page(tmp_path, "/#/docs/exams/") == tmp_path / "docs" / "exams" / "README.md"
    assert page(tmp_path, "/#/") == tmp_path / "index.html"  # the cover: the page itself
    assert page(tmp_path, "/#/docs/nothing") == tmp_path / "index.html"
    # Not a docsify site: a hash is an anchor of the page.
    (tmp_path / "plain").mkdir()
    (tmp_path / "plain" / "index.html").write_text("<h1>Plain</h1>")
    assert page(tmp_path, "/plain/#/docs/exams/resits") == tmp_path / "plain" / "index.html"


def test_a_client_that_hangs_up_mid_file_is_no_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import socket
    import struct
    import time

    (tmp_path / "big.html").write_bytes(b"x" * 8_000_000)
    with quality.serve_directory(tmp_path) as origin:
        host, port = origin.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port))) as client:
            client.sendall(b"GET /big.html HTTP/1.1\r\nHost: x\r\n\r\n")
            client.recv(1024)
            # Close with a reset, as a browser dropping a page does.
            client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        time.sleep(0.5)
    assert "Traceback" not in capsys.readouterr().err


def test_a_site_port_another_program_holds_ends_the_run_with_a_message(tmp_path: Path) -> None:
    import contextlib
    import socket

    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        with contextlib.ExitStack() as stack, pytest.raises(SystemExit) as stopped:
            quality.serve_on_own_port(
                stack, quality.serve_directory(tmp_path, port), f"site-x on port {port}"
            )
    assert f"cannot serve site-x on port {port}: its port is taken" in str(stopped.value)


def test_the_sites_ports_lie_below_the_ephemeral_ports() -> None:
    # Linux hands out 32768-60999 to outgoing connections: a site's port there
    # can be held by the browser's own connection when the run starts.
    for first, count in (quality.REAL_PORTS, quality.FIXTURE_PORTS):
        assert first >= 1024
        assert first + count <= 32768
    real = range(quality.REAL_PORTS[0], sum(quality.REAL_PORTS))
    fixture = range(quality.FIXTURE_PORTS[0], sum(quality.FIXTURE_PORTS))
    assert not set(real) & set(fixture)


def test_each_fixture_portal_has_a_port_of_its_own_in_every_run() -> None:
    # A saved render cache is keyed by URL: on free ports, a later run could
    # get a port another portal had and replay that portal's pages.
    from fixtures_site import load_portals, serve_portals

    names = sorted(load_portals())
    first: set[int] = set()
    ports = {name: quality.fixture_port(name, first) for name in names}
    assert len(set(ports.values())) == len(names)
    assert all(30000 <= port < 32700 for port in ports.values())
    again: set[int] = set()
    assert {name: quality.fixture_port(name, again) for name in names} == ports
    # A port already taken (here by a real site) moves the portal to the next.
    assert quality.fixture_port(names[0], {ports[names[0]]}) == ports[names[0]] + 1
    with serve_portals(names[:2], port_of=ports.__getitem__) as sites:
        assert [sites.url(n) for n in names[:2]] == [
            f"http://127.0.0.1:{ports[n]}" for n in names[:2]
        ]


def test_a_run_of_some_tasks_serves_their_sites_only_on_the_ports_of_a_full_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Two label sets of one site (its English and Arabic tasks), another
    # site, and a site not laid out.
    for name in ("alpha", "beta"):
        (tmp_path / name).mkdir()

    def labels(site: str, file: str, ids: list[str]) -> dict[str, Any]:
        return {"site": site, "file": file, "root_path": tmp_path / site,
                "tasks": [{"id": i} for i in ids]}  # fmt: skip

    sets = [
        labels("alpha", "alpha.json", ["a1", "a2"]),
        labels("alpha", "alpha-ar.json", ["a3"]),
        labels("gamma", "gamma.json", ["g1"]),
        labels("beta", "beta.json", ["b1"]),
    ]
    full = quality.real_sites_to_serve(sets, set())
    alpha = quality.site_port("alpha", set())
    assert [(s["file"], port) for s, port in full] == [
        ("alpha.json", alpha),
        ("alpha-ar.json", alpha),
        ("beta.json", quality.site_port("beta", {alpha})),
    ]
    assert "gamma.json" in capsys.readouterr().err
    some = quality.real_sites_to_serve(sets, set(), ["a3", "b1"])
    assert [(s["file"], port) for s, port in some] == [
        ("alpha-ar.json", full[0][1]),
        ("beta.json", full[2][1]),
    ]
