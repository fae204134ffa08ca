"""What a crawl produces: page, attachment and skip records, and the result.

Each record has ``to_json()`` giving exactly the JSON Lines object the CLI
writes (see the project DESIGN, "Outputs"), and ``from_json()`` reading one
back: it checks every field's type, since the JSON may come from a damaged or
foreign file (``TypeError``, ``ValueError`` or ``KeyError`` when it is not a
record of that kind).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Self, TypeVar

from pw_adaptive.core.relevance import (
    FINAL_SHARE_OF_BEST,
    NARROW_BREADTH,
    NARROW_SHARE_OF_BEST,
    SIBLINGS_MIN,
    route_or_path,
    site_wide_terms,
    words_few_of_the_marked_name,
    words_only_the_best_names,
)
from pw_adaptive.core.urls import canonicalize_url, url_host
from pw_adaptive.core.variants import reduced_forms

_T = TypeVar("_T")


@dataclass(frozen=True)
class PageTimings:
    """Where the wall-clock time of one page went, in seconds.

    The renderer fills the first four; the crawler adds ``attachments_s``
    (documents fetched and read for a relevant page). ``total_s`` is the whole
    render (retries on a fresh page included), plus attachments once added.
    """

    navigation_s: float = 0.0
    """``goto`` until DOMContentLoaded (the last attempt)."""
    ready_s: float = 0.0
    """Ready detection, "Load more" clicks included (the last attempt)."""
    extract_s: float = 0.0
    """The extraction script and the markdown conversion (the last attempt)."""
    explore_s: float = 0.0
    """Click exploration in scratch pages (0 when every candidate was remembered)."""
    attachments_s: float = 0.0
    """Fetching and reading the page's attachments (set by the crawler)."""
    total_s: float = 0.0

    PARTS = ("navigation_s", "ready_s", "extract_s", "explore_s", "attachments_s")
    """The parts, in the order they happen (``total_s`` also holds what is between
    them: opening pages, retries)."""

    def to_json(self) -> dict[str, float]:
        return {name: round(getattr(self, name), 3) for name in (*self.PARTS, "total_s")}

    @classmethod
    def from_json(cls, data: Any) -> Self:
        """The timings ``data`` holds (a missing or null object: all zero)."""
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise TypeError("expected an object")
        names = (*cls.PARTS, "total_s")
        return cls(**{n: expect_float(data.get(n, 0.0)) for n in names})


@dataclass(frozen=True)
class PageRecord:
    """One fetched page, in fetch order."""

    url: str
    """The canonical URL that was requested."""
    final_url: str
    """Where the page ended up (redirects, client-side navigation), canonical."""
    title: str
    depth: int
    relevance: float
    link_score: float
    """Score of the link that led here (1.0 for the start page)."""
    blind: bool
    """The link that led here carried no clue for the query."""
    evidence: tuple[int, ...]
    """Evidence per query term after this page."""
    fresh: bool
    """This page brought fresh on-topic content."""
    markdown: str
    status: int | None = None
    parent: str | None = None
    headings: tuple[str, ...] = ()
    links: int = 0
    """Links found on the page."""
    error: str | None = None
    """Failure kind when the page could not be rendered."""
    note: str | None = None
    """Why the page was not observed: "duplicate_content", "soft_404", ..."""
    elapsed_s: float = 0.0
    relevant: bool = False
    """The page is about the query, not only touching it, as judged when it
    was recorded, against the best page before it
    (:func:`pw_adaptive.core.relevance.about_enough`). The crawl's final
    answer, ``CrawlResult.relevant_pages()``, also holds it against the best
    page of the whole crawl (:func:`final_relevant`)."""
    lang: str = ""
    """Language of the page's text (ISO 639-1, :func:`pw_adaptive.text.detect_language`);
    "" when it has none, or in records written before languages were recorded."""
    timings: PageTimings = field(default_factory=PageTimings)
    """Where the page's time went (navigation, ready wait, extraction, click
    exploration, attachments)."""
    breadth: float = 1.0
    """The share of the query's specific terms the page's text mentions
    (:attr:`pw_adaptive.core.relevance.Assessment.breadth`); 1.0 in records
    written before it was recorded."""
    named: tuple[int, ...] = ()
    """The query's specific terms, by index into the crawl's terms, that the
    page names in its title, a heading, its URL or its text
    (:attr:`pw_adaptive.core.relevance.Assessment.named`); empty in records
    written before it was recorded."""

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "page",
            "url": self.url,
            "final_url": self.final_url,
            "title": self.title,
            "depth": self.depth,
            "relevance": round(self.relevance, 4),
            "relevant": self.relevant,
            "breadth": round(self.breadth, 4),
            "named": list(self.named),
            "link_score": round(self.link_score, 4),
            "blind": self.blind,
            "evidence": list(self.evidence),
            "fresh": self.fresh,
            "status": self.status,
            "parent": self.parent,
            "headings": list(self.headings),
            "links": self.links,
            "error": self.error,
            "note": self.note,
            "elapsed_s": round(self.elapsed_s, 3),
            "lang": self.lang,
            "timings": self.timings.to_json(),
            "markdown": self.markdown,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        """The record ``data`` holds. Only ``url`` is required: a missing field
        takes the URL (``final_url``), nothing (text, lists), 0 or false."""
        url = expect_str(data["url"])
        return cls(
            url=url,
            final_url=expect_str(data.get("final_url") or url),
            title=expect_str(data.get("title") or ""),
            depth=expect_int(data.get("depth", 0)),
            relevance=expect_float(data.get("relevance", 0.0)),
            link_score=expect_float(data.get("link_score", 0.0)),
            blind=bool(data.get("blind", False)),
            evidence=tuple(expect_int(e) for e in _expect_list(data.get("evidence"))),
            fresh=bool(data.get("fresh", False)),
            markdown=expect_str(data.get("markdown") or ""),
            status=_opt(expect_int, data.get("status")),
            parent=_opt(expect_str, data.get("parent")),
            headings=tuple(expect_str(h) for h in _expect_list(data.get("headings"))),
            links=expect_int(data.get("links", 0)),
            error=_opt(expect_str, data.get("error")),
            note=_opt(expect_str, data.get("note")),
            elapsed_s=expect_float(data.get("elapsed_s", 0.0)),
            relevant=bool(data.get("relevant", False)),
            lang=expect_str(data.get("lang") or ""),
            timings=PageTimings.from_json(data.get("timings")),
            breadth=expect_float(data.get("breadth", 1.0)),
            named=tuple(expect_int(i) for i in _expect_list(data.get("named"))),
        )


def _folder(url: str) -> tuple[str, str]:
    """The host and the folder of the site ``url`` sits in: its path (or hash
    route) up to the last "/" ("/dorms/north/" for "/dorms/north/" and for
    "/dorms/north/elm.html")."""
    path = route_or_path(url)[1]
    return url_host(url), path[: path.rfind("/") + 1]


def final_relevant(pages: Sequence[PageRecord], qualifiers: Sequence[int] = ()) -> list[PageRecord]:
    """The crawl's final judgement of which of ``pages`` are about the query,
    in their order: observed pages marked relevant when recorded
    (``PageRecord.relevant``) that reach ``FINAL_SHARE_OF_BEST`` of the best
    observed page's relevance (``NARROW_SHARE_OF_BEST`` for a narrow page,
    one whose text mentions at most ``NARROW_BREADTH`` of the query's
    specific terms), or sit in the same folder (below the site's root) as a
    page that does. A marked page that names only site-wide words of the
    query (``relevance.site_wide_terms`` among ``qualifiers``, the crawl's
    ``CrawlResult.qualifiers``: "Gent" on a directory of Ghent's student
    associations) is left out, and makes no folder, when another marked page
    names a word that is not site-wide. When the query names no topic of
    the lexicon that a page names, and a word of it is named by the best
    page alone (``relevance.words_only_the_best_names``: a course's name
    among a course guide's pages), a marked page without such a word is left
    out too, when at least ``SIBLINGS_MIN`` marked pages lack it (one other
    page is no template's family: the supermarket's own page beside the
    campus services' page that alone says when it opens). When no word is
    the best page's alone, a word of it that fewer than a quarter of at
    least four marked pages name does the same
    (``relevance.words_few_of_the_marked_name``: an exam notice that names
    every course names the answer's course too). A pure function of
    the records and the query's qualifier terms: a crawl read back from its
    JSON Lines output is judged the same way."""
    observed = [p for p in pages if p.note is None and p.error is None]
    marked = [p for p in observed if p.relevant]
    if not marked:
        return []
    named = [p.named for p in observed]
    wide = site_wide_terms(named, [p.named for p in observed if not p.relevant], qualifiers)
    # Only when some marked page names a word that is not site-wide: the
    # answer is then told apart by it, and never emptied by this rule alone.
    if wide and any(set(p.named) - wide for p in marked):
        marked = [p for p in marked if not p.named or set(p.named) - wide]
    top = max(observed, key=lambda p: p.relevance)
    own = words_only_the_best_names(named, top.named, qualifiers) or words_few_of_the_marked_name(
        named, [p.named for p in marked], top.named, qualifiers
    )
    if own and top.relevant and len(marked) >= SIBLINGS_MIN + 1:
        marked = [p for p in marked if set(p.named) & own]
    best = top.relevance

    def reaches(page: PageRecord) -> bool:
        narrow = page.breadth <= NARROW_BREADTH + 1e-9
        share = NARROW_SHARE_OF_BEST if narrow else FINAL_SHARE_OF_BEST
        return page.relevance >= share * best

    folders = {_folder(p.final_url) for p in marked if reaches(p)}
    folders = {f for f in folders if f[1] != "/"}
    return [p for p in marked if reaches(p) or _folder(p.final_url) in folders]


@dataclass(frozen=True)
class AttachmentRecord:
    """A document (PDF, DOCX, XLSX, ...) linked from a relevant page."""

    url: str
    text: str
    """The link's visible text."""
    page: str
    """The page that links to it."""
    kind: str
    status: int | None = None
    content_type: str = ""
    size: int = 0
    content: str = ""
    """Extracted text (PDF); empty when the kind has no extractor or it failed."""
    error: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "attachment",
            "url": self.url,
            "text": self.text,
            "page": self.page,
            "kind": self.kind,
            "status": self.status,
            "content_type": self.content_type,
            "size": self.size,
            "error": self.error,
            "content": self.content,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        """The record ``data`` holds. Only ``url`` is required: a missing field
        takes nothing (text), 0 or None."""
        return cls(
            url=expect_str(data["url"]),
            text=expect_str(data.get("text") or ""),
            page=expect_str(data.get("page") or ""),
            kind=expect_str(data.get("kind") or ""),
            status=_opt(expect_int, data.get("status")),
            content_type=expect_str(data.get("content_type") or ""),
            size=expect_int(data.get("size", 0)),
            content=expect_str(data.get("content") or ""),
            error=_opt(expect_str, data.get("error")),
        )


@dataclass(frozen=True)
class SkipRecord:
    """A discovered link the crawler refused as a URL trap (not fetched).

    Only trap reasons are recorded (``TrapReason`` values: ``calendar``,
    ``session_id``, ...), each URL once, and at most
    ``crawl_run.SKIP_RECORDS_PER_REASON`` per reason per crawl; every skip,
    recorded or not, is counted in the summary's ``skipped``.
    """

    url: str
    """The canonical URL that was refused."""
    parent: str
    """The page (final URL) whose link was refused first."""
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"type": "skip", "url": self.url, "parent": self.parent, "reason": self.reason}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        """The record ``data`` holds; every field is required."""
        return cls(
            url=expect_str(data["url"]),
            parent=expect_str(data["parent"]),
            reason=expect_str(data["reason"]),
        )


@dataclass(frozen=True)
class CrawlResult:
    """Everything one crawl found, and why it stopped."""

    start_url: str
    query: str
    terms: tuple[str, ...]
    stop_reason: str
    pages: tuple[PageRecord, ...]
    attachments: tuple[AttachmentRecord, ...]
    coverage: float
    evidence: tuple[int, ...]
    skipped: dict[str, int] = field(default_factory=dict)
    failures: dict[str, int] = field(default_factory=dict)
    elapsed_s: float = 0.0
    skips: tuple[SkipRecord, ...] = ()
    """Trap skips with their URLs (bounded: see :class:`SkipRecord`)."""
    evidence_per_term: int | None = None
    """The stopper's evidence target per term (coverage = mean of
    ``min(1, evidence / evidence_per_term)``); None when unknown."""
    stop: dict[str, Any] = field(default_factory=dict)
    """Why the stop was judged safe: ``reason``, a sentence ``why``, and the
    stopper's and frontier's state it rested on (``CrawlRun.explain_stop``)."""
    qualifiers: tuple[int, ...] = ()
    """The query's terms (by index) that name no topic of the lexicon
    (:attr:`pw_adaptive.core.query.Query.qualifier_terms`): the words that
    :func:`final_relevant` may find site-wide."""
    variant_rules: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """The URL variants the crawl learnt, per host
    (:class:`~pw_adaptive.core.variants.VariantLearner`: "q:print" for print
    views, "t:/info/canteens/>acsai" for a page several sections share): the
    URLs it skipped as showing a page it has (:meth:`page_showing`)."""
    stub_folders: tuple[str, ...] = ()
    """Folders whose pages the crawl found to be copies of one stub, as
    ``host/path/`` (:class:`~pw_adaptive.core.stubs.StubFolders`): their
    queued pages went last (``CrawlSettings.stub_folders``)."""
    exploration: dict[str, float] = field(default_factory=dict)
    """What click exploration did over the crawl (``ClickMemory.stats``):
    candidates clicked, answered without a click (``reused``, ``inert``,
    ``predicted``, ``placeholders``, ``left_to_others``), scratch copies
    rendered afresh, restorations, and the seconds spent. Empty when the
    crawl was given its own renderer; after a resume, the resumed part's."""

    def page_showing(self, url: str) -> PageRecord | None:
        """The page of this crawl that shows ``url``'s content: its own record
        (by the URL asked or the one it ended at), else the rendered page that
        a learnt URL variant reduces it to (a print view's page, the copy of a
        shared page the crawl rendered); None when the crawl does not have it."""
        try:
            canonical = canonicalize_url(url)
        except ValueError:
            return None
        pages = self._rendered_by_url
        for form in (canonical, *reduced_forms(canonical, self.variant_rules)):
            if form in pages:
                return pages[form]
        return None

    @functools.cached_property
    def _rendered_by_url(self) -> dict[str, PageRecord]:
        """The pages rendered without an error, by the URL asked and the one
        each ended at (the first record of a URL wins): built once."""
        pages: dict[str, PageRecord] = {}
        for page in self.pages:
            if page.error is None:
                pages.setdefault(page.url, page)
                pages.setdefault(page.final_url, page)
        return pages

    def relevant_pages(self, min_relevance: float | None = None) -> list[PageRecord]:
        """The pages about the query, best first: marked relevant when recorded
        and still so against the best page of the whole crawl
        (:func:`final_relevant`). With ``min_relevance``, every observed page
        at least that relevant instead."""
        if min_relevance is None:
            keep = final_relevant(self.pages, self.qualifiers)
        else:
            keep = [p for p in self.pages if p.relevance >= min_relevance and p.note is None]
        return sorted(keep, key=lambda p: -p.relevance)

    def timings(self) -> dict[str, float]:
        """Each part of ``PageTimings`` summed over the pages, and ``explore_share``:
        click exploration over the pages' total time. Pages render concurrently,
        so the sums may exceed ``elapsed_s``; the share is what part of the
        rendering work went to exploration (at concurrency 1, of the wall time)."""
        totals = {
            name: round(sum(getattr(p.timings, name) for p in self.pages), 3)
            for name in (*PageTimings.PARTS, "total_s")
        }
        total = totals["total_s"]
        share = totals["explore_s"] / total if total > 0 else 0.0
        totals["explore_share"] = round(share, 4)
        return totals

    def summary(self) -> dict[str, Any]:
        """The final JSON Lines record."""
        return {
            "type": "summary",
            "start_url": self.start_url,
            "query": self.query,
            "terms": list(self.terms),
            "qualifiers": list(self.qualifiers),
            "stop_reason": self.stop_reason,
            "pages": len(self.pages),
            "relevant_pages": len(self.relevant_pages()),
            "attachments": len(self.attachments),
            "coverage": round(self.coverage, 4),
            "evidence": dict(zip(self.terms, self.evidence, strict=True)),
            "skipped": dict(sorted(self.skipped.items())),
            "failures": dict(sorted(self.failures.items())),
            "elapsed_s": round(self.elapsed_s, 3),
            "timings": self.timings(),
            "evidence_per_term": self.evidence_per_term,
            "stop": self.stop,
            "variant_rules": {host: list(rules) for host, rules in self.variant_rules.items()},
            "stub_folders": list(self.stub_folders),
            "exploration": dict(self.exploration),
        }


# Field checks for ``from_json`` (and for the summary record, which has no class).


def expect_str(value: Any) -> str:
    """``value`` if it is a string; TypeError otherwise."""
    if not isinstance(value, str):
        raise TypeError("expected a string")
    return value


def expect_int(value: Any) -> int:
    """``value`` if it is an integer (not a bool); TypeError otherwise."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("expected an integer")
    return value


def expect_float(value: Any) -> float:
    """``value`` as a float if it is a finite number (not a bool); TypeError or ValueError."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError("expected a number")
    result = float(value)
    if result != result or result in (float("inf"), float("-inf")):
        raise ValueError("not a finite number")
    return result


def _opt(check: Callable[[Any], _T], value: Any) -> _T | None:
    return None if value is None else check(value)


def _expect_list(value: Any) -> list[Any]:
    """A JSON array field; absent, null or empty reads as empty."""
    if not isinstance(value or [], list):
        raise TypeError("expected a list")
    return value or []
