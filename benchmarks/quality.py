"""Crawl quality: pw_adaptive beside peers and baselines, an oracle, ablations and calibration.

Tasks: the labelled tasks of the real corpus first (sites written by others,
``benchmarks/corpus/``, served from disk on 127.0.0.1; a site that is not laid
out is skipped), then every task of ``fixtures_site`` (a development set: it
was written together with the rules that crawl it). Per task, with the same
budget (100 by default):

* ``pw_adaptive``: the defaults (anchor scoring, adaptive stopper);
* ``breadth-first``: every link alike, no stopper (Crawlee's default order);
* ``url keywords``: query words (and their synonyms) in the URL only, no
  stopper (the idea of Crawl4AI's ``KeywordRelevanceScorer``);
* ``pw_adaptive, no stopper``: pw_adaptive's scoring, crawling to the budget;
* the peers of ``benchmarks/_peers.py`` on the real corpus: Crawl4AI's
  best-first and adaptive crawlers (their own virtualenv, ``make peers``) and a
  plain breadth-first Playwright crawler, each rendering live;
* ablations: pw_adaptive with one stop rule or constant switched off or
  varied (``ABLATIONS``).

pw_adaptive and the in-process baselines see identical renders: one Chromium,
one browser context, and a render cache (``benchmarks/_render_cache.py``) that
renders each URL once and replays it to every other crawler that asks for it
(``--render-cache FILE`` keeps it between runs). The oracle
(``benchmarks/_oracle.py``) is the size of the union of shortest link paths
from the start to every relevant page, found by breadth-first search over the
same renders; efficiency = oracle / pages fetched.

For the real corpus it prints, per crawler: recall of relevant pages, facts
found, precision and recall of the pages it marks relevant (borderline pages
neutral), pages fetched, pages on absent topics, pages against the oracle and
wall time, for all tasks, split by native and English queries, and
pw_adaptive's per site. Then the
per-group tables, ablations and relevance calibration; ``--per-task`` adds one
row per task and crawler. Everything is also written as JSON.

A crawl that raises (a bug, not a start page that fails to load) does not end
the run: its traceback goes to stderr, it counts as finding nothing (stop
reason ``crashed``), the other tasks go on, and the run exits with status 1
after writing its tables, JSON, traces and render cache.

    .venv/bin/python benchmarks/quality.py [--portal NAME ...] [--no-real]
        [--no-fixtures] [--no-peers] [--peer-tasks-per-site N] [--no-ablations]
        [--budget 100] [--per-task] [--trace DIR] [--render-cache FILE] [--json FILE]
        [--request need|tell] [--reworded A|B|C]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import errno
import functools
import json
import os
import pickle
import platform
import re
import subprocess
import sys
import threading
import time
import traceback
import zlib
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Final

# Offline, Chromium stalls on every DNS look-up of an outside host (the real
# portal links fonts and analytics): resolve nothing but loopback, as the
# Makefile does. Set before pw_adaptive reads it.
os.environ.setdefault(
    "PW_ADAPTIVE_BROWSER_ARGS", '"--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"'
)

from playwright.async_api import async_playwright

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
if str(ROOT / "benchmarks") not in sys.path:
    sys.path.insert(0, str(ROOT / "benchmarks"))

from _corpus import REAL_SITES_ENV, html_sibling, label_sets, page_key  # noqa: E402
from _oracle import Oracle, explore, oracle_pages  # noqa: E402
from _peers import PEERS, PeerRun, run_peer  # noqa: E402
from _render_cache import RenderCache  # noqa: E402

from fixtures_site import serve_portals  # noqa: E402
from pw_adaptive.core.query import Synonyms  # noqa: E402
from pw_adaptive.core.scope import Scope  # noqa: E402
from pw_adaptive.core.scoring import (  # noqa: E402
    AnchorScorer,
    BreadthFirstScorer,
    LinkScorer,
    UrlKeywordScorer,
)
from pw_adaptive.core.stopper import (  # noqa: E402
    COLD_PATIENCE,
    EVIDENCE_RELEVANCE,
    MIN_RELEVANCE,
    MIN_SOURCES,
    TOUCH_PATIENCE,
)
from pw_adaptive.core.urls import canonicalize_url  # noqa: E402
from pw_adaptive.crawling.api import AdaptiveCrawler  # noqa: E402
from pw_adaptive.crawling.loop import StartPageError  # noqa: E402
from pw_adaptive.records import CrawlResult  # noqa: E402
from pw_adaptive.render import PlaywrightRenderer, RenderSettings  # noqa: E402
from pw_adaptive.render.browser import launch_browser  # noqa: E402
from pw_adaptive.render.fetch import PlaywrightFetcher  # noqa: E402
from pw_adaptive.settings import CrawlSettings  # noqa: E402
from pw_adaptive.text.scripts import ARABIC, HAN, KANA  # noqa: E402

DEFAULT_JSON = ROOT / "benchmarks" / "results" / "quality.json"
DEFAULT = "pw_adaptive"


@dataclass(frozen=True)
class Variant:
    """One crawler configuration: a link scorer, settings and a synonyms lexicon."""

    name: str
    scorer: LinkScorer
    settings: CrawlSettings
    synonyms: Synonyms | None = None
    """None: the default lexicon."""
    rule: str = ""
    """For an ablation: the rule or constant it changes."""


def baselines(budget: int) -> list[Variant]:
    """pw_adaptive's defaults first, then the baselines, all at ``budget``."""
    on = CrawlSettings(max_pages=budget)
    off = replace(on, adaptive_stop=False)
    return [
        Variant(DEFAULT, AnchorScorer(), on),
        Variant("breadth-first", BreadthFirstScorer(), off),
        Variant("url keywords", UrlKeywordScorer(), off),
        Variant("pw_adaptive, no stopper", AnchorScorer(), off),
    ]


def ablations(budget: int) -> list[Variant]:
    """pw_adaptive with one rule or constant switched off or varied at a time."""
    base = CrawlSettings(max_pages=budget)

    def stopper(**changes: Any) -> CrawlSettings:
        return replace(base, adaptive=replace(base.adaptive, **changes))

    return [
        Variant(
            "cold give-up off",
            AnchorScorer(),
            stopper(cold_patience=None),
            rule="no_relevant_pages after COLD_PATIENCE x patience blind pages",
        ),
        Variant(
            f"cold patience x2 ({2 * COLD_PATIENCE})",
            AnchorScorer(),
            stopper(cold_patience=2 * COLD_PATIENCE),
            rule=f"COLD_PATIENCE = {COLD_PATIENCE}",
        ),
        Variant(
            "a clue that led nowhere restarts the cold count",
            AnchorScorer(),
            stopper(clue_resets_cold=True),
            rule="a page behind a clue that says nothing holds the cold count (the seed: restarts)",
        ),
        Variant(
            "a touching page restarts the cold count",
            AnchorScorer(),
            stopper(touch_resets_cold=True),
            rule="a page that only touches the query holds the cold count (the seed: restarts)",
        ),
        Variant(
            "a clue of qualifiers only holds the cold count",
            AnchorScorer(),
            stopper(qualifier_clues_count=False),
            rule="a page behind a clue of qualifiers only counts as blind for the cold give-up",
        ),
        Variant(
            "any fresh evidence is new",
            AnchorScorer(),
            stopper(fresh_share_of_best=None),
            rule="a page below SHARE_OF_BEST of the best adds nothing new (the seed: it does)",
        ),
        Variant(
            "any strong lead forgives",
            AnchorScorer(),
            stopper(lead_beats_failed=False),
            rule="only a lead above the links whose pages were not about the query forgives",
        ),
        Variant(
            "every term needs evidence for coverage",
            AnchorScorer(),
            stopper(unnamed_terms_spared=0),
            rule="one term no page names is left out of coverage (the seed: every term counts)",
        ),
        Variant(
            "touching pages never stale",
            AnchorScorer(),
            stopper(touch_patience=None),
            rule=f"touching pages stale after TOUCH_PATIENCE ({TOUCH_PATIENCE}) x patience",
        ),
        Variant(
            "MIN_SOURCES 1",
            AnchorScorer(),
            stopper(min_sources=1),
            rule=f"MIN_SOURCES = {MIN_SOURCES}",
        ),
        Variant(
            "MIN_SOURCES 3",
            AnchorScorer(),
            stopper(min_sources=3),
            rule=f"MIN_SOURCES = {MIN_SOURCES}",
        ),
        Variant(
            "full patience when covered",
            AnchorScorer(),
            stopper(halve_patience_when_covered=False),
            rule="half the patience once covered",
        ),
        Variant(
            "forgive off",
            AnchorScorer(),
            replace(base, forgive_score=2.0),
            rule=f"forgive while a link >= {base.forgive_score} waits",
        ),
        Variant(
            "sitemaps off",
            AnchorScorer(),
            replace(base, use_sitemaps=False),
            rule="the sitemap's and llms.txt's pages rendered before a stop",
        ),
        Variant(
            "synonyms off",
            AnchorScorer(),
            base,
            synonyms=Synonyms(),
            rule="the synonyms lexicon",
        ),
        Variant(
            "section floors off",
            AnchorScorer(),
            replace(base, section_floors=False),
            rule="section floors",
        ),
        Variant(
            "inherit 0",
            AnchorScorer(),
            replace(base, inherit=0.0),
            rule=f"inherited score (inherit = {base.inherit})",
        ),
        Variant(
            "inherit from every page",
            AnchorScorer(),
            replace(base, inherit_min_relevance=0.0),
            rule=f"inherit only from pages >= {base.inherit_min_relevance}",
        ),
        Variant(
            "term weights off",
            AnchorScorer(),
            replace(base, term_weights=False),
            rule="learnt term weights",
        ),
        Variant(
            "section words off",
            AnchorScorer(),
            replace(base, section_words=False),
            rule="learnt section words",
        ),
    ]


@dataclass(frozen=True)
class Task:
    """One benchmark task, with absolute canonical URLs."""

    id: str
    group: str
    """``fixtures`` or the real site's name: tables are per group."""
    query: str
    start_url: str
    relevant: frozenset[str]
    facts: tuple[str, ...]
    borderline: frozenset[str] = frozenset()
    """Pages a lenient judge might accept: neither hits nor misses."""
    lang: str = "en"
    """The query's language."""
    site_langs: tuple[str, ...] = ()
    """The languages the site is written in (empty for fixtures)."""

    @property
    def real(self) -> bool:
        return self.group != "fixtures"

    @functools.cached_property
    def relevant_keys(self) -> dict[str, str]:
        """``_corpus.page_key`` of each relevant page -> the page as labelled:
        fetched pages and marks are compared by key (``/guide``, ``/guide/``
        and ``/guide/index.html`` are one page)."""
        return {page_key(url): url for url in self.relevant}

    @functools.cached_property
    def borderline_keys(self) -> frozenset[str]:
        return frozenset(page_key(url) for url in self.borderline)

    def labelled(self, *urls: str) -> set[str]:
        """The relevant pages, as labelled, that any of ``urls`` is."""
        keys = self.relevant_keys
        return {keys[k] for url in urls if (k := page_key(url)) in keys}

    @property
    def query_kind(self) -> str:
        """``native``: the query is in a language of the site; ``english``: an
        English query on a site not written in English (issue 14's split)."""
        if not self.site_langs or self.lang in self.site_langs:
            return "native"
        return "english" if self.lang == "en" else "other"


@dataclass
class Row:
    """The outcome of one crawler on one task."""

    crawler: str
    task: str
    group: str
    pages: int
    relevant: int
    found: int
    harvest: float
    facts: int
    facts_found: int
    last_relevant_at: int
    stop_reason: str
    oracle: int
    efficiency: float
    found_urls: list[str] = field(default_factory=list)
    found_at: dict[str, int] = field(default_factory=dict)
    """Fetch index (1-based) at which each relevant page found was first fetched."""
    identified: int | None = None
    """Pages the crawler marked relevant in its output (None: it marks none)."""
    identified_relevant: int = 0
    """Of those, pages the labels call relevant."""
    identified_irrelevant: int = 0
    """Of those, pages the labels call neither relevant nor borderline."""
    wall_s: float = 0.0

    @property
    def recall(self) -> float:
        return self.found / self.relevant if self.relevant else 1.0


def _collapse(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


_MARKDOWN_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|<>~])")
"""A backslash escape of markdown ("2050mm\\*1000mm" for the text
"2050mm*1000mm"): every crawler's markdown may hold them."""


def _as_text(markdown: str) -> str:
    """A page's markdown read as the text it shows, for the facts check: its
    backslash escapes dropped, its white space collapsed. A fact is copied
    from the page's text, which a converter escapes where the character
    would mean markdown."""
    return _collapse(_MARKDOWN_ESCAPE.sub(r"\1", markdown))


def identified(result: CrawlResult) -> list[str]:
    """The final URLs of the pages a pw_adaptive crawl marks relevant in its output."""
    return [p.final_url for p in result.relevant_pages() if p.error is None]


def identification(task: Task, urls: Sequence[str] | None) -> tuple[int | None, int, int]:
    """(identified, of them relevant, of them irrelevant); borderline pages are neutral."""
    if urls is None:
        return None, 0, 0
    marked = {page_key(url) for url in urls}
    return (
        len(marked),
        len(marked & task.relevant_keys.keys()),
        len(marked - task.relevant_keys.keys() - task.borderline_keys),
    )


def measure(
    name: str,
    task: Task,
    fetched: Sequence[tuple[str, str, str] | None],
    *,
    stop_reason: str,
    oracle: int,
    marked: Sequence[str] | None,
    wall_s: float,
    shown: Mapping[str, str] | None = None,
) -> Row:
    """One crawl against the task's truth. ``fetched`` holds, in fetch order,
    (url, final_url, markdown) per page, None for a page that failed.
    ``shown`` maps a relevant page the crawl did not fetch to the fetched page
    the crawler says shows it (a learnt URL variant: ``CrawlResult.page_showing``):
    found when that page was."""
    found: set[str] = set()
    found_at: dict[str, int] = {}
    last = 0
    showing: dict[str, set[str]] = {}
    for url, page_url in (shown or {}).items():
        showing.setdefault(page_url, set()).add(url)
    for i, page in enumerate(fetched, 1):
        if page is None:
            continue
        hit = task.labelled(page[0], page[1], *showing.get(page[0], ()))
        if hit:
            for url in hit - found:
                found_at[url] = i
            found |= hit
            last = i
    text = _as_text("\n".join(page[2] for page in fetched if page is not None))
    pages = len(fetched)
    n_marked, marked_rel, marked_irr = identification(task, marked)
    return Row(
        crawler=name,
        task=task.id,
        group=task.group,
        pages=pages,
        relevant=len(task.relevant),
        found=len(found),
        harvest=len(found) / pages if pages else 0.0,
        facts=len(task.facts),
        facts_found=sum(_collapse(f) in text for f in task.facts),
        last_relevant_at=last,
        stop_reason=stop_reason,
        oracle=oracle,
        efficiency=oracle / pages if pages else 0.0,
        found_urls=sorted(found),
        found_at=found_at,
        identified=n_marked,
        identified_relevant=marked_rel,
        identified_irrelevant=marked_irr,
        wall_s=wall_s,
    )


def _failed_row(name: str, task: Task, oracle: int, reason: str = "start_failed") -> Row:
    """The row of a crawl that produced no result (``reason``: its stop reason)."""
    return Row(name, task.id, task.group, 0, len(task.relevant), 0, 0.0,
               len(task.facts), 0, 0, reason, oracle, 0.0)  # fmt: skip


def score_crawl(
    name: str,
    task: Task,
    result: CrawlResult | None,
    oracle: int,
    wall_s: float = 0.0,
    failure: str = "start_failed",
) -> Row:
    """Measure one crawl against the task's truth (``result`` None: it failed,
    for the reason ``failure``: ``start_failed`` or ``crashed``; nothing found)."""
    if result is None:
        return _failed_row(name, task, oracle, failure)
    fetched = [
        None if p.error is not None else (p.url, p.final_url, p.markdown) for p in result.pages
    ]
    # A relevant page the crawl skipped as a learnt variant of a page it
    # rendered (a copy of a page several sections share) is one it has.
    shown = {
        url: page.url
        for url in task.relevant
        if (page := result.page_showing(url)) is not None and url not in (page.url, page.final_url)
    }
    return measure(
        name,
        task,
        fetched,
        stop_reason=str(result.stop_reason),
        oracle=oracle,
        marked=identified(result),
        wall_s=wall_s,
        shown=shown,
    )


def score_peer(name: str, task: Task, run: PeerRun | None, oracle: int) -> Row:
    """Measure a peer's crawl (``benchmarks/_peers.py``) against the task's truth."""
    if run is None or (run.error is not None and not run.pages):
        return _failed_row(name, task, oracle)
    fetched = [(url, final, md) for (url, final), md in zip(run.pages, run.markdown, strict=True)]
    return measure(
        name,
        task,
        fetched,
        stop_reason=run.stop_reason,
        oracle=oracle,
        marked=run.identified,
        wall_s=run.wall_s,
    )


# --------------------------------------------------------------------------
# Tasks: fixture portals and labelled real sites


def fixture_tasks(sites: Any) -> list[Task]:
    tasks = []
    for t in sites.tasks():
        origin = sites.url(t["portal"])
        tasks.append(
            Task(
                id=t["id"],
                group="fixtures",
                query=t["query"],
                start_url=t["start_url"],
                relevant=frozenset(canonicalize_url(origin + r) for r in t["relevant"]),
                facts=tuple(t["facts"]),
            )
        )
    return tasks


def _script_language(text: str) -> str:
    """A label set's query language when it does not say: by script (older sets)."""
    if re.search(f"[{ARABIC}]", text):
        return "ar"
    if re.search(f"[{KANA}]", text):
        return "ja"
    if re.search(f"[{HAN}]", text):
        return "zh"
    return "en"


REQUESTS: Final[dict[str, dict[str, str]]] = {
    "need": {
        "en": "I need information about {q}",
        "es": "necesito información sobre {q}",
        "pt": "preciso de informações sobre {q}",
        "de": "ich brauche Informationen zu {q}",
        "it": "ho bisogno di informazioni su {q}",
        "pl": "potrzebuję informacji: {q}",
        "fi": "tarvitsen tietoa: {q}",
        "ar": "أحتاج معلومات عن {q}",
        "zh": "我需要{q}的信息",
        "ja": "{q}についての情報が必要です",
    },
    "tell": {
        "en": "please tell me the details: {q}",
        "es": "por favor, quiero saber los detalles: {q}",
        "pt": "por favor, quero saber os detalhes: {q}",
        "de": "bitte sagen Sie mir die Details: {q}",
        "it": "per favore, vorrei sapere i dettagli: {q}",
        "pl": "proszę o szczegóły: {q}",
        "fi": "kertokaa lisätietoja: {q}",
        "ar": "من فضلك أريد أن أعرف التفاصيل: {q}",
        "zh": "请告诉我详细情况：{q}",
        "ja": "詳しく教えてください：{q}",
    },
}
"""``--request KIND``: each real task's query wrapped in a request in its own
language, as users type them ("I need information about tuition fees"). The
words around the query ask; they name nothing a page must say. A query whose
language has no template here is left as it is."""


REWORDED = ROOT / "benchmarks" / "labels" / "reworded" / "sets.json"
"""``--reworded SET``: the corpus's tasks asked in other words (natural
questions instead of the labels' keyword lists), each set a mapping of task
id to its new query; the labels stay. The file's description says how each
set was written and what it may be used for."""


def reworded_queries(name: str, path: Path = REWORDED) -> dict[str, str]:
    """Task id -> query of the reworded set ``name`` (``--reworded``)."""
    sets: dict[str, dict[str, str]] = json.loads(path.read_text(encoding="utf-8"))["sets"]
    if name not in sets:
        raise SystemExit(f"--reworded: no set {name!r} in {path} (sets: {', '.join(sorted(sets))})")
    return sets[name]


def label_tasks(
    labels: dict[str, Any],
    origin: str,
    request: str | None = None,
    reworded: dict[str, str] | None = None,
) -> list[Task]:
    """Tasks of one label set (``benchmarks/_corpus.py``) served at ``origin``;
    ``request``: wrap each query in that kind of request (:data:`REQUESTS`);
    ``reworded``: only the tasks it names, each asked in its words
    (:func:`reworded_queries`)."""

    def urls(paths: Sequence[str]) -> frozenset[str]:
        return frozenset(canonicalize_url(origin + r) for r in paths)

    def task(t: dict[str, Any]) -> Task:
        lang = t.get("lang") or _script_language(t["query"])
        query = reworded[t["id"]] if reworded is not None else t["query"]
        template = REQUESTS[request].get(lang) if request else None
        return Task(
            id=t["id"],
            group=labels["site"],
            query=template.format(q=query) if template else query,
            start_url=canonicalize_url(origin + t["start"]),
            relevant=urls(t["relevant"]),
            facts=tuple(t["facts"]),
            borderline=urls(t.get("borderline", ())),
            lang=lang,
            site_langs=tuple(labels.get("languages", ())),
        )

    return [task(t) for t in labels["tasks"] if reworded is None or t["id"] in reworded]


_SITEMAP_LINE = re.compile(r"^(\s*sitemap:\s*)https?://[^/\s]+", re.IGNORECASE)
_SITEMAP_LOC = re.compile(rb"(<loc>\s*)https?://[^/<\s]+")
_MARKDOWN_TARGET = re.compile(rb"(\]\(\s*)https?://[^/)\s]+")


class _StaticHandler(SimpleHTTPRequestHandler):
    """Serves a built site from disk, as its own server would serve it under
    the loopback origin. ``robots.txt`` is served without its ``Crawl-delay``
    lines: the copy is on loopback, and a delay would only slow the benchmark
    down (it changes when pages start, not which). A snapshot's sitemaps and
    robots.txt ``Sitemap:`` lines name the production host
    (``https://www.example.edu/...``), and so do the links of an
    ``llms.txt``; they are served with the loopback origin in its place, as
    the production server names itself. A path that names no file or folder
    (or a folder without an index) is answered with the same path plus
    ``.html`` when that file exists, as GitHub Pages and most static hosts
    answer it: sites written for them link ``/projects/cupcake`` for
    ``projects/cupcake.html``."""

    def translate_path(self, path: str) -> str:
        local = super().translate_path(path)
        sibling = html_sibling(Path(local))
        return local if sibling is None else str(sibling)

    def _send(self, body: bytes, content_type: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0]
        origin = f"http://{self.headers.get('Host', '127.0.0.1')}"
        if path == "/robots.txt":
            robots = Path(self.directory) / "robots.txt"
            if robots.is_file():
                lines = robots.read_text(encoding="utf-8").splitlines()
                kept = [ln for ln in lines if not ln.lower().startswith("crawl-delay")]
                body = "\n".join(_SITEMAP_LINE.sub(rf"\g<1>{origin}", ln) for ln in kept)
                self._send(body.encode(), "text/plain; charset=utf-8")
                return
        if (
            path.endswith((".xml", "/llms.txt"))
            and (file := Path(self.translate_path(path))).is_file()
        ):
            body, host = file.read_bytes(), rb"\g<1>" + origin.encode()
            if path.endswith("/llms.txt"):
                self._send(_MARKDOWN_TARGET.sub(host, body), "text/plain; charset=utf-8")
                return
            if b"<urlset" in body or b"<sitemapindex" in body:
                self._send(_SITEMAP_LOC.sub(host, body), "text/xml")
                return
        super().do_GET()

    def log_message(self, format: str, *args: Any) -> None:
        pass


class _QuietServer(ThreadingHTTPServer):
    """A browser that closes a page (a crawler's page, a peer's) while a file is
    still being sent is no error of the benchmark: no traceback for it. The
    listen backlog is a real server's, not socketserver's 5: four tasks render
    at once, each page opening several connections for its assets."""

    request_queue_size = 128

    def handle_error(self, request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], ConnectionError):  # broken pipe, reset
            return
        super().handle_error(request, client_address)


@contextlib.contextmanager
def serve_directory(root: Path, port: int = 0) -> Iterator[str]:
    """Serve ``root`` on 127.0.0.1 (``port`` 0: a free one); yields the origin."""
    handler = functools.partial(_StaticHandler, directory=str(root))
    server = _QuietServer(("127.0.0.1", port), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


# --------------------------------------------------------------------------
# Running


@dataclass
class TaskOutcome:
    rows: list[Row]
    oracle: Oracle
    oracle_complete: bool
    oracle_live_renders: int
    # (crawler, url, final_url, relevance, note/error) of every page, for calibration
    pages: list[tuple[str, str, str, float, bool]]
    default: CrawlResult | None = None
    """pw_adaptive's own crawl, for ``--trace``."""
    start_error: str | None = None
    """Why pw_adaptive's default crawl could not start (``StartPageError``)."""
    crashed: dict[str, str] = field(default_factory=dict)
    """Crawler name -> the exception that ended its crawl of this task (a bug:
    the run goes on with the other tasks, and ends with exit status 1)."""


async def run_task(
    task: Task, variants: Sequence[Variant], cache: RenderCache, oracle_bound: int
) -> TaskOutcome:
    """The default crawl first (it fills the cache), then the others side by side."""

    crashed: dict[str, str] = {}

    async def crawl(variant: Variant) -> tuple[CrawlResult | None, float, str | None]:
        """The crawl, its wall time and, when it could not start, why. A crawl
        that raises anything else is recorded in ``crashed`` with its traceback
        on stderr, so that one task's bug does not throw away a long run."""
        started = time.perf_counter()
        crawler = AdaptiveCrawler(
            variant.settings,
            renderer=cache,
            fetcher=cache,
            synonyms=variant.synonyms,
            scorer=variant.scorer,
        )
        try:
            result = await crawler.run(task.start_url, task.query)
        except StartPageError as exc:
            return None, time.perf_counter() - started, str(exc)
        except Exception as exc:
            crashed[variant.name] = f"{type(exc).__name__}: {exc}"
            print(f"{task.id}: the {variant.name} crawl crashed:", file=sys.stderr)
            traceback.print_exc(file=sys.stderr)
            return None, time.perf_counter() - started, None
        return result, time.perf_counter() - started, None

    first = await crawl(variants[0])
    rest = await asyncio.gather(*(crawl(v) for v in variants[1:]))
    timed = [first, *rest]
    results = [r for r, _, _ in timed]
    graph = await explore(
        task.start_url,
        task.relevant,
        cache.render,
        cache.is_cached,
        Scope(task.start_url),
        max_live=oracle_bound,
    )
    oracle = oracle_pages(graph.edges, task.start_url, task.relevant, graph.aliases)
    rows = [
        score_crawl(
            v.name, task, r, oracle.pages, wall, "crashed" if v.name in crashed else "start_failed"
        )
        for v, (r, wall, _) in zip(variants, timed, strict=True)
    ]
    pages = [
        (v.name, p.url, p.final_url, p.relevance, p.error is None and p.note is None)
        for v, r in zip(variants, results, strict=True)
        if r is not None and v.synonyms is None
        for p in r.pages
    ]
    start_error = first[2]
    return TaskOutcome(
        rows, oracle, graph.complete, graph.live_renders, pages, results[0], start_error, crashed
    )


def save_cache(cache: RenderCache, path: Path) -> None:
    """Keep the renders so far in ``path`` (``--render-cache``), atomically."""
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_suffix(".part")
    with part.open("wb") as f:
        pickle.dump((cache.rendered(), cache.fetched()), f)
    part.replace(path)


# Both ranges lie below Linux's default range of ephemeral ports (32768-60999):
# there, any program's outgoing connection (the browser's, a test's) can hold
# the port a site needs, and a run failed to bind one that way.
REAL_PORTS: Final = (20000, 10000)
"""First port and number of ports of the real sites (20000-29999)."""
FIXTURE_PORTS: Final = (30000, 2700)
"""First port and number of ports of the fixture portals (30000-32699)."""


def site_port(name: str, taken: set[int], ports: tuple[int, int] = REAL_PORTS) -> int:
    """The port of the site or portal ``name``: the same in every run, so that
    a saved render cache (``--render-cache``, keyed by URL) matches it and
    no other site. By a hash of the name within ``ports`` (first, count);
    when two names hash alike, the later one (sites come in a fixed order)
    takes the next port not in ``taken``, which the port joins."""
    first, count = ports
    port = first + zlib.crc32(name.encode()) % count
    while port in taken:
        port = first + (port - first + 1) % count
    taken.add(port)
    return port


def fixture_port(name: str, taken: set[int]) -> int:
    """The port of fixture portal ``name`` (:data:`FIXTURE_PORTS`)."""
    return site_port(name, taken, FIXTURE_PORTS)


def real_sites_to_serve(
    label_sets: Iterable[dict[str, Any]], taken: set[int], task_ids: Iterable[str] | None = None
) -> list[tuple[dict[str, Any], int]]:
    """The label sets to serve, each with its site's port (:func:`site_port`):
    those laid out, and with ``task_ids`` only those that hold one of them. A
    site not laid out is skipped with a line on stderr. Every laid-out site
    takes its port, served or not, so that a site's port is the same
    whichever tasks a run picks (two runs of other sites' tasks can then run
    side by side; the render cache matches either way)."""
    wanted = set(task_ids or ())
    port_of: dict[Path, int] = {}
    chosen = []
    for labels in label_sets:
        root = labels["root_path"]
        if not root.is_dir():
            print(f"skipping {labels['file']}: {root} is not laid out"
                  f" (benchmarks/corpus/layout.py; {REAL_SITES_ENV})",
                  file=sys.stderr)  # fmt: skip
            continue
        if root not in port_of:
            port_of[root] = site_port(labels["site"], taken)
        if wanted and not any(task["id"] in wanted for task in labels["tasks"]):
            continue
        chosen.append((labels, port_of[root]))
    return chosen


def serve_on_own_port(
    stack: contextlib.ExitStack, server: contextlib.AbstractContextManager[Any], what: str
) -> Any:
    """Enter ``server`` (a site on its own port) on ``stack``; a port another
    program holds ends the run with a message that names it, not a traceback."""
    try:
        return stack.enter_context(server)
    except OSError as exc:
        if exc.errno != errno.EADDRINUSE:
            raise
        raise SystemExit(
            f"cannot serve {what}: its port is taken by another program (each site"
            " has a port of its own, the same in every run, so that a saved"
            " --render-cache matches it); stop that program and run again"
        ) from exc


async def run_all(
    tasks: Sequence[Task], variants: Sequence[Variant], args: argparse.Namespace
) -> tuple[dict[str, TaskOutcome], RenderCache]:
    gate = asyncio.Semaphore(args.tasks_at_once)
    done = 0
    async with async_playwright() as pw:
        # One renderer (and so one ClickMemory) serves every task of the run,
        # each URL rendered once for all of them: a crawl's exploration budget
        # (explore_budget_s, 120 s) would be spent by the first sites' pages and
        # leave the later ones unexplored, as it did in some runs (all of
        # thu-wiki's and iwi-hka's click-only links missing). Each page's
        # exploration stays bounded by click_budget_s.
        render_settings = RenderSettings(
            explore_clicks=not args.no_explore_clicks, explore_budget_s=None
        )
        browser = await launch_browser(pw, render_settings)
        async with PlaywrightRenderer(browser, render_settings) as renderer:
            context = await renderer.context()
            cache = RenderCache(renderer, PlaywrightFetcher(context), max_live=args.renders)
            saved = args.render_cache
            if saved is not None and saved.is_file():
                with saved.open("rb") as f:
                    cache.seed(*pickle.load(f))

            async def one(task: Task) -> tuple[str, TaskOutcome]:
                nonlocal done
                async with gate:
                    outcome = await run_task(task, variants, cache, args.oracle_bound)
                done += 1
                if args.render_cache is not None and done % 5 == 0:
                    save_cache(cache, args.render_cache)
                row = outcome.rows[0]
                print(
                    f"[{done}/{len(tasks)}] {task.id:<34} pw_adaptive {row.found}/{row.relevant}"
                    f" in {row.pages} pages, oracle {outcome.oracle.pages}; renders"
                    f" {cache.stats.live_renders} live / {cache.stats.cached_renders} cached"
                    + (f"; {outcome.start_error}" if outcome.start_error else "")
                    + "".join(f"; {n} crashed: {e}" for n, e in outcome.crashed.items()),
                    file=sys.stderr,
                    flush=True,
                )
                return task.id, outcome

            pairs = await asyncio.gather(*(one(t) for t in tasks))
            await cache.drain()
            if args.render_cache is not None:
                save_cache(cache, args.render_cache)
        await browser.close()
    return dict(pairs), cache


# --------------------------------------------------------------------------
# Summaries


@dataclass
class Totals:
    crawler: str
    tasks: int
    pages: int
    found: int
    relevant: int
    recall: float
    """Mean over tasks with relevant pages of the share found."""
    harvest: float
    """Relevant pages found / pages fetched, over all tasks."""
    facts_ok: float
    """Share of tasks with content where every fact was found."""
    to_last: float
    """Mean over tasks with content of the fetch index of the last relevant page found."""
    oracle: int
    efficiency: float
    """Sum of oracles / sum of pages fetched, over all tasks."""
    stop_reasons: dict[str, int]


def totals(rows: Sequence[Row], crawler: str) -> Totals:
    mine = [r for r in rows if r.crawler == crawler]
    content = [r for r in mine if r.relevant]
    pages = sum(r.pages for r in mine)
    oracle = sum(r.oracle for r in mine)
    return Totals(
        crawler=crawler,
        tasks=len(mine),
        pages=pages,
        found=sum(r.found for r in mine),
        relevant=sum(r.relevant for r in mine),
        recall=sum(r.recall for r in content) / max(len(content), 1),
        harvest=sum(r.found for r in mine) / max(pages, 1),
        facts_ok=sum(r.facts_found == r.facts for r in content) / max(len(content), 1),
        to_last=sum(r.last_relevant_at for r in content) / max(len(content), 1),
        oracle=oracle,
        efficiency=oracle / max(pages, 1),
        stop_reasons=dict(Counter(r.stop_reason for r in mine).most_common()),
    )


def recall_at_default_pages(rows: Sequence[Row], crawler: str) -> float:
    """Mean recall of ``crawler`` within as many pages as pw_adaptive fetched on
    each task (tasks with relevant pages): the baselines cut at equal cost."""
    budget = {r.task: r.pages for r in rows if r.crawler == DEFAULT}
    mine = [r for r in rows if r.crawler == crawler and r.relevant and r.task in budget]
    shares = [sum(i <= budget[r.task] for i in r.found_at.values()) / r.relevant for r in mine]
    return sum(shares) / max(len(shares), 1)


def totals_table(rows: Sequence[Row], names: Sequence[str]) -> list[str]:
    out = [
        "| crawler | tasks | pages | relevant found | recall | harvest | all facts"
        " | to last rel. | oracle | efficiency | recall @ pw_adaptive's pages | stop reasons |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for name in names:
        t = totals(rows, name)
        if not t.tasks:
            continue
        reasons = ", ".join(f"{k} {v}" for k, v in t.stop_reasons.items())
        out.append(
            f"| {name} | {t.tasks} | {t.pages} | {t.found}/{t.relevant} | {t.recall:.3f}"
            f" | {t.harvest:.3f} | {t.facts_ok:.0%} | {t.to_last:.1f} | {t.oracle}"
            f" | {t.efficiency:.3f} | {recall_at_default_pages(rows, name):.3f} | {reasons} |"
        )
    return out


def per_task_table(rows: Sequence[Row], names: Sequence[str]) -> list[str]:
    out = [
        "| task | crawler | pages | found | harvest | facts | to last | stop | oracle | eff. |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |",
    ]
    order = {n: i for i, n in enumerate(names)}
    for r in sorted(
        (r for r in rows if r.crawler in order), key=lambda r: (r.task, order[r.crawler])
    ):
        out.append(
            f"| {r.task} | {r.crawler} | {r.pages} | {r.found}/{r.relevant} | {r.harvest:.3f}"
            f" | {r.facts_found}/{r.facts} | {r.last_relevant_at} | {r.stop_reason}"
            f" | {r.oracle} | {r.efficiency:.3f} |"
        )
    return out


@dataclass
class AblationRow:
    name: str
    rule: str
    pages: int
    pages_vs_default: int
    """Positive: the ablation fetched more pages, i.e. the rule saves them."""
    found: int
    found_vs_default: int
    """Negative: the ablation lost relevant pages the default finds."""
    lost: int
    gained: int
    recall: float
    harvest: float
    tasks_changed: int


def ablation_rows(rows: Sequence[Row], variants: Sequence[Variant]) -> list[AblationRow]:
    default = {r.task: r for r in rows if r.crawler == DEFAULT}
    out = []
    for v in variants:
        mine = [r for r in rows if r.crawler == v.name]
        if not mine:
            continue
        t = totals(rows, v.name)
        lost = gained = changed = 0
        for r in mine:
            base = default[r.task]
            lost += len(set(base.found_urls) - set(r.found_urls))
            gained += len(set(r.found_urls) - set(base.found_urls))
            changed += r.pages != base.pages or r.found_urls != base.found_urls
        base_pages = sum(default[r.task].pages for r in mine)
        base_found = sum(default[r.task].found for r in mine)
        out.append(
            AblationRow(
                name=v.name,
                rule=v.rule,
                pages=t.pages,
                pages_vs_default=t.pages - base_pages,
                found=t.found,
                found_vs_default=t.found - base_found,
                lost=lost,
                gained=gained,
                recall=t.recall,
                harvest=t.harvest,
                tasks_changed=changed,
            )
        )
    return out


def ablation_table(rows: Sequence[AblationRow], default: Totals) -> list[str]:
    out = [
        "| ablation | rule | pages | pages vs default | relevant found | lost | gained"
        " | recall | harvest | tasks changed |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        f"| (defaults) | | {default.pages} | | {default.found} | | | {default.recall:.3f}"
        f" | {default.harvest:.3f} | |",
    ]
    for a in rows:
        out.append(
            f"| {a.name} | {a.rule} | {a.pages} | {a.pages_vs_default:+d} | {a.found}"
            f" | {a.lost} | {a.gained} | {a.recall:.3f} | {a.harvest:.3f} | {a.tasks_changed} |"
        )
    return out


@dataclass
class Calibration:
    group: str
    relevant_pages: int
    irrelevant_pages: int
    relevant_at_min: float
    """Share of relevant pages with relevance >= MIN_RELEVANCE."""
    relevant_at_evidence: float
    """Share of relevant pages with relevance >= EVIDENCE_RELEVANCE."""
    irrelevant_below_min: float
    """Share of irrelevant pages with relevance < MIN_RELEVANCE."""


def calibration(outcomes: dict[str, TaskOutcome], tasks: Sequence[Task]) -> list[Calibration]:
    """Relevance the crawlers recorded for every distinct page of every task."""
    by_group: dict[str, tuple[list[float], list[float]]] = {}
    for task in tasks:
        scores: dict[str, tuple[float, bool]] = {}
        for _crawler, url, final, score, ok in outcomes[task.id].pages:
            if not ok:
                continue  # failed, duplicate or soft-404 pages are not scored
            relevant = bool(task.labelled(url, final))
            scores.setdefault(final, (score, relevant))
        rel, irr = by_group.setdefault(task.group, ([], []))
        for score, relevant in scores.values():
            (rel if relevant else irr).append(score)
    out = []
    for group, (rel, irr) in by_group.items():
        out.append(
            Calibration(
                group=group,
                relevant_pages=len(rel),
                irrelevant_pages=len(irr),
                relevant_at_min=sum(s >= MIN_RELEVANCE for s in rel) / max(len(rel), 1),
                relevant_at_evidence=sum(s >= EVIDENCE_RELEVANCE for s in rel) / max(len(rel), 1),
                irrelevant_below_min=sum(s < MIN_RELEVANCE for s in irr) / max(len(irr), 1),
            )
        )
    return out


def calibration_table(rows: Sequence[Calibration]) -> list[str]:
    out = [
        f"| tasks | relevant pages | irrelevant pages | relevant >= MIN_RELEVANCE ({MIN_RELEVANCE})"
        f" | relevant >= EVIDENCE_RELEVANCE ({EVIDENCE_RELEVANCE})"
        " | irrelevant < MIN_RELEVANCE |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for c in rows:
        out.append(
            f"| {c.group} | {c.relevant_pages} | {c.irrelevant_pages} | {c.relevant_at_min:.1%}"
            f" | {c.relevant_at_evidence:.1%} | {c.irrelevant_below_min:.1%} |"
        )
    return out


def verdict(rows: Sequence[Row], names: Sequence[str], group: str) -> list[str]:
    """Does pw_adaptive beat every baseline on harvest at equal or better recall?"""
    mine = [r for r in rows if r.group == group]
    ours = totals(mine, DEFAULT)
    out = []
    for name in names:
        if name == DEFAULT or not any(r.crawler == name for r in mine):
            continue
        other = totals(mine, name)
        wins = ours.harvest > other.harvest and ours.recall >= other.recall
        out.append(
            f"- {group}: pw_adaptive vs {name}: harvest {ours.harvest:.3f} vs"
            f" {other.harvest:.3f}, recall {ours.recall:.3f} vs {other.recall:.3f}:"
            f" {'better' if wins else 'NOT better'}"
        )
    return out


def write_traces(folder: Path, tasks: Sequence[Task], outcomes: dict[str, TaskOutcome]) -> None:
    """One text file per task: pw_adaptive's pages in fetch order with their
    relevance, link score, blindness, whether they brought fresh on-topic
    content (``new``), label (R relevant, b borderline) and the page whose
    link led there (``<-``); ``+`` marks a page of the crawl's answer
    (``CrawlResult.relevant_pages``), ``*`` one marked relevant when it was
    recorded that the answer left out (``records.final_relevant``)."""
    folder.mkdir(parents=True, exist_ok=True)
    for task in tasks:
        result = outcomes[task.id].default
        lines = [f"{task.id}: {task.query!r} ({task.lang})"]
        crash = outcomes[task.id].crashed.get(DEFAULT)
        if result is None and outcomes[task.id].start_error:
            lines[0] += f" -> {outcomes[task.id].start_error}"
        elif result is None and crash is not None:
            lines[0] += f" -> the crawl crashed: {crash}"
        elif result is not None:
            lines[0] += f" -> {result.stop_reason} after {len(result.pages)} pages"
            lines.append(
                f"summary: {json.dumps(result.summary().get('stop', {}), ensure_ascii=False)}"
            )
            final = {id(p) for p in result.relevant_pages()}
            for i, page in enumerate(result.pages, 1):
                keys = {page_key(page.url), page_key(page.final_url)}
                mark = (
                    "R"
                    if task.labelled(page.url, page.final_url)
                    else "b"
                    if keys & task.borderline_keys
                    else "-"
                )
                flag = page.error or page.note or ""
                if page.url != page.final_url:
                    flag = f"{flag} (asked {page.url})".strip()
                if page.parent:
                    flag = f"{flag} <- {page.parent}".strip()
                lines.append(
                    f"{i:3d} {mark}{'+' if id(page) in final else '*' if page.relevant else ' '}"
                    f" rel={page.relevance:.3f}"
                    f" link={page.link_score:.2f}"
                    f"{' blind' if page.blind else '      '}{' new' if page.fresh else '    '}"
                    f" d={page.depth} {page.final_url} {flag}"
                )
        missed = sorted(task.relevant - set(outcomes[task.id].rows[0].found_urls))
        lines += [f"missed: {u}" for u in missed]
        (folder / f"{task.id}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


def run_peers(
    tasks: Sequence[Task], outcomes: dict[str, TaskOutcome], budget: int, concurrency: int
) -> tuple[list[Row], list[str]]:
    """Every peer of ``benchmarks/_peers.py`` on ``tasks``; rows and notes."""
    rows: list[Row] = []
    notes: list[str] = []
    payload = [{"id": t.id, "start_url": t.start_url, "query": t.query} for t in tasks]
    by_id = {t.id: t for t in tasks}
    for peer in PEERS:
        started = time.perf_counter()
        print(f"peer {peer.name}: {len(tasks)} tasks...", file=sys.stderr, flush=True)
        try:
            runs = run_peer(peer, payload, budget=budget, concurrency=concurrency)
        except (RuntimeError, subprocess.TimeoutExpired, ValueError, KeyError) as exc:
            notes.append(f"- {peer.name}: not run ({exc})")
            continue
        for task_id, task in by_id.items():
            rows.append(
                score_peer(peer.name, task, runs.get(task_id), outcomes[task_id].oracle.pages)
            )
        notes.append(f"- {peer.name}: {len(runs)} tasks in {time.perf_counter() - started:.0f} s")
    return rows, notes


@dataclass
class RealTotals:
    crawler: str
    tasks: int
    recall: float
    """Mean over tasks with relevant pages of the share fetched."""
    facts: float
    """Facts found / facts, over all tasks."""
    marks_right: int
    """Pages it marked relevant that the labels call relevant."""
    marks_judged: int
    """Pages it marked relevant that the labels call relevant or irrelevant
    (borderline pages neutral)."""
    id_precision: float | None
    """``marks_right / marks_judged``; None when the crawler marks none."""
    id_recall: float | None
    """Relevant pages it marked relevant / relevant pages, over all tasks."""
    pages: int
    absent_pages_max: int
    absent_pages: list[int]
    absent_stops: dict[str, int]
    oracle_ratio: float
    """Pages fetched / oracle pages, over tasks with content."""
    wall_s: float


def real_totals(rows: Sequence[Row], tasks: Sequence[Task], crawler: str) -> RealTotals | None:
    """The real corpus's figures of ``crawler`` on ``tasks`` (None: no row)."""
    ids = {t.id for t in tasks}
    return totals_of_rows([r for r in rows if r.crawler == crawler and r.task in ids], crawler)


def totals_of_rows(mine: Sequence[Row], crawler: str) -> RealTotals | None:
    """:func:`real_totals` of rows already chosen (one crawler's; None: none)."""
    if not mine:
        return None
    content = [r for r in mine if r.relevant]
    absent = [r for r in mine if not r.relevant]
    marked = [r for r in mine if r.identified is not None]
    right = sum(r.identified_relevant for r in marked)
    judged = right + sum(r.identified_irrelevant for r in marked)
    return RealTotals(
        crawler=crawler,
        tasks=len(mine),
        recall=sum(r.recall for r in content) / max(len(content), 1),
        facts=sum(r.facts_found for r in mine) / max(sum(r.facts for r in mine), 1),
        marks_right=right,
        marks_judged=judged,
        id_precision=right / judged if judged else None,
        id_recall=right / max(sum(r.relevant for r in marked), 1) if marked else None,
        pages=sum(r.pages for r in mine),
        absent_pages_max=max((r.pages for r in absent), default=0),
        absent_pages=[r.pages for r in absent],
        absent_stops=dict(Counter(r.stop_reason for r in absent)),
        oracle_ratio=sum(r.pages for r in content) / max(sum(r.oracle for r in content), 1),
        wall_s=sum(r.wall_s for r in mine),
    )


REAL_TABLE_HEAD = [
    "| {label} | tasks | recall | facts | identified: precision | identified: recall"
    " | pages | absent topics: pages (max) | pages / oracle | wall s |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |",
]


def real_row(label: str, t: RealTotals) -> str:
    """One row of the real corpus's tables: ``t`` under ``label``."""

    def pct(x: float | None) -> str:
        return "—" if x is None else f"{x:.3f}"

    absent = ", ".join(str(n) for n in t.absent_pages) or "none"
    return (
        f"| {label} | {t.tasks} | {t.recall:.3f} | {t.facts:.3f} | {pct(t.id_precision)}"
        f" | {pct(t.id_recall)} | {t.pages} | {absent} ({t.absent_pages_max})"
        f" | {t.oracle_ratio:.2f} | {t.wall_s:.0f} |"
    )


def real_table(rows: Sequence[Row], tasks: Sequence[Task], names: Sequence[str]) -> list[str]:
    """The real corpus's columns, one row per crawler that ran ``tasks``."""
    out = [REAL_TABLE_HEAD[0].format(label="crawler"), REAL_TABLE_HEAD[1]]
    for name in names:
        t = real_totals(rows, tasks, name)
        if t is not None:
            out.append(real_row(name, t))
    return out


def real_site_table(rows: Sequence[Row], tasks: Sequence[Task]) -> list[str]:
    """The same columns for pw_adaptive, one row per site: a new site's
    figures, or a session's earlier sites alone, are read off here."""
    out = [REAL_TABLE_HEAD[0].format(label="site"), REAL_TABLE_HEAD[1]]
    for group in dict.fromkeys(t.group for t in tasks):
        t = real_totals(rows, [t for t in tasks if t.group == group], DEFAULT)
        if t is not None:
            out.append(real_row(group, t))
    return out


# --------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--portal", action="append", help="fixture portal (repeatable; default all)"
    )
    parser.add_argument("--no-fixtures", action="store_true", help="skip the fixture tasks")
    parser.add_argument("--no-real", action="store_true", help="skip the labelled real sites")
    parser.add_argument("--no-ablations", action="store_true", help="skip the ablations")
    parser.add_argument("--no-peers", action="store_true", help="skip Crawl4AI and the BFS peer")
    parser.add_argument("--peer-concurrency", type=int, default=4)
    parser.add_argument(
        "--peer-tasks-per-site",
        type=int,
        default=0,
        help="run the peers on the first N tasks of each real site only (0: all)",
    )
    parser.add_argument(
        "--only-default", action="store_true", help="pw_adaptive's defaults only (development)"
    )
    parser.add_argument(
        "--no-explore-clicks",
        action="store_true",
        help="render without click exploration (faster; loses click-only links)",
    )
    parser.add_argument(
        "--trace", type=Path, help="write pw_adaptive's crawl of each task, page by page, here"
    )
    parser.add_argument(
        "--render-cache",
        type=Path,
        help="keep renders in this file between runs (development: judgement changes"
        " replay in seconds; delete it after a renderer change)",
    )
    parser.add_argument(
        "--task",
        action="append",
        help="only these task ids (repeatable); only their sites are served",
    )
    parser.add_argument("--budget", type=int, default=100)
    parser.add_argument("--renders", type=int, default=4, help="live renders at once")
    parser.add_argument("--tasks-at-once", type=int, default=4)
    parser.add_argument(
        "--oracle-bound", type=int, default=400, help="pages the oracle may render per task"
    )
    parser.add_argument(
        "--request",
        choices=sorted(REQUESTS),
        help="wrap each real task's query in a request in its language"
        " ('I need information about ...'): a robustness check",
    )
    parser.add_argument(
        "--reworded",
        metavar="SET",
        help="only the real tasks of this set of benchmarks/labels/reworded/sets.json, each"
        " asked in its words (labels unchanged): a robustness check of the query side",
    )
    parser.add_argument("--per-task", action="store_true", help="print one row per task")
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON)
    args = parser.parse_args(argv)

    reworded = reworded_queries(args.reworded) if args.reworded else None
    started = time.perf_counter()
    variants = baselines(args.budget) + ([] if args.no_ablations else ablations(args.budget))
    if args.only_default:
        variants = variants[:1]
    peer_rows: list[Row] = []
    peer_notes: list[str] = []
    with contextlib.ExitStack() as stack:
        tasks: list[Task] = []
        served: dict[Path, str] = {}
        ports: set[int] = set()
        if not args.no_real:
            for labels, port in real_sites_to_serve(label_sets(), ports, args.task):
                root = labels["root_path"]
                if root not in served:
                    served[root] = serve_on_own_port(
                        stack, serve_directory(root, port), f"{labels['site']} on port {port}"
                    )
                tasks += label_tasks(labels, served[root], args.request, reworded)
        if not args.no_fixtures:
            # A port of its own per portal too, apart from the real sites':
            # on free ports, a saved render cache replayed one portal's pages
            # to another that a later run got the same port for.
            first, count = FIXTURE_PORTS
            sites = serve_on_own_port(
                stack,
                serve_portals(args.portal, port_of=lambda name: fixture_port(name, ports)),
                f"the fixture portals on ports {first}-{first + count - 1}",
            )
            tasks += fixture_tasks(sites)
        if args.task:
            tasks = [t for t in tasks if t.id in set(args.task)]
        outcomes, cache = asyncio.run(run_all(tasks, variants, args))
        if not args.no_peers:
            peer_tasks = [t for t in tasks if t.real]
            if args.peer_tasks_per_site:
                per_site: Counter[str] = Counter()
                sample = []
                for t in peer_tasks:
                    if per_site[t.group] < args.peer_tasks_per_site:
                        per_site[t.group] += 1
                        sample.append(t)
                peer_tasks = sample
            peer_rows, peer_notes = run_peers(
                peer_tasks, outcomes, args.budget, args.peer_concurrency
            )
    wall = time.perf_counter() - started

    rows = [r for t in tasks for r in outcomes[t.id].rows] + peer_rows
    names = [v.name for v in baselines(args.budget)] + [p.name for p in PEERS]
    groups = list(dict.fromkeys(t.group for t in tasks))
    real = [t for t in tasks if t.real]
    lines: list[str] = []
    if real:
        lines += ["", f"## Real corpus ({len(real)} tasks on"
                  f" {len({t.group for t in real})} sites, budget {args.budget})", ""]  # fmt: skip
        lines += real_table(rows, real, names)
        for kind in ("native", "english"):
            subset = [t for t in real if t.query_kind == kind]
            if subset:
                lines += ["", f"### Real corpus, {kind} queries ({len(subset)} tasks)", ""]
                lines += real_table(rows, subset, names)
        peer_ids = {r.task for r in peer_rows}
        if peer_ids and len(peer_ids) < len(real):
            subset = [t for t in real if t.id in peer_ids]
            lines += ["", f"### Real corpus, the {len(subset)} tasks the peers ran", ""]
            lines += real_table(rows, subset, names)
        lines += ["", f"### Real corpus, per site: {DEFAULT}", ""]
        lines += real_site_table(rows, real)
        lines += ["", *peer_notes]
        lines += ["", "## Per site, then the fixtures (a development set)"]
    for group in groups:
        n = sum(t.group == group for t in tasks)
        lines += ["", f"### Totals: {group} ({n} tasks, budget {args.budget})", ""]
        lines += totals_table([r for r in rows if r.group == group], names)
        lines += ["", *verdict(rows, [v.name for v in baselines(args.budget)], group)]
    abl = ablation_rows(rows, ablations(args.budget)) if not args.no_ablations else []
    if abl:
        lines += ["", f"### Ablations: all {len(tasks)} tasks, against the defaults", ""]
        lines += ablation_table(abl, totals(rows, DEFAULT))
    calib = calibration(outcomes, tasks)
    lines += ["", "### Relevance calibration (every distinct page rendered, per truth)", ""]
    lines += calibration_table(calib)
    incomplete = [t.id for t in tasks if not outcomes[t.id].oracle_complete]
    oracle_live = sum(o.oracle_live_renders for o in outcomes.values())
    s = cache.stats
    lines += [
        "",
        f"Renders: {s.live_renders} live, {s.cached_renders} replayed from the cache"
        f" ({oracle_live} of the live ones by the oracle's search); fetches"
        f" {s.live_fetches} live, {s.cached_fetches} cached.",
        f"Oracle incomplete (render bound hit) for: {', '.join(incomplete) or 'none'}.",
        f"Wall time: {wall:.0f} s ({len(tasks)} tasks x {len(variants)} crawlers,"
        f" {os.cpu_count()} cores).",
    ]
    if args.per_task:
        lines += ["", "### Per task", "", *per_task_table(rows, [v.name for v in variants])]
    print("\n".join(lines))

    if args.trace is not None:
        write_traces(args.trace, tasks, outcomes)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        data = {
            "meta": {
                "budget": args.budget,
                "date": time.strftime("%Y-%m-%d"),
                "wall_s": round(wall, 1),
                "cpus": os.cpu_count(),
                "python": platform.python_version(),
                "tasks": len(tasks),
                "request": args.request,
                "reworded": args.reworded,
                "crawlers": [v.name for v in variants],
                "renders": asdict(s),
                "oracle_live_renders": oracle_live,
                "oracle_incomplete": incomplete,
                "start_failed": {
                    t: o.start_error for t, o in outcomes.items() if o.start_error is not None
                },
                "crashed": {t: o.crashed for t, o in outcomes.items() if o.crashed},
            },
            "totals": {
                g: [asdict(totals([r for r in rows if r.group == g], n)) for n in names]
                for g in groups
            },
            "ablations": [asdict(a) for a in abl],
            "calibration": [asdict(c) for c in calib],
            "oracle": {
                t.id: {
                    "pages": outcomes[t.id].oracle.pages,
                    "distances": outcomes[t.id].oracle.distances,
                    "unreached": list(outcomes[t.id].oracle.unreached),
                    "path": list(outcomes[t.id].oracle.path),
                    "complete": outcomes[t.id].oracle_complete,
                }
                for t in tasks
            },
            "real": {
                kind: real_totals(rows, [t for t in real if kind in ("all", t.query_kind)], names)
                for kind in ("all", "native", "english")
            },
            "peer_notes": peer_notes,
            "rows": [asdict(r) for r in rows],
        }
        args.json.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    crashes = [(t, name, error) for t, o in outcomes.items() for name, error in o.crashed.items()]
    if crashes:
        print(f"{len(crashes)} crawl(s) crashed (each counted as finding nothing above,"
              " stop reason 'crashed'; tracebacks above):", file=sys.stderr)  # fmt: skip
        for t, name, error in crashes:
            print(f"  {t} ({name}): {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
