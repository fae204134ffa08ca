"""The mutable state of one crawl (:class:`CrawlRun`) and how a crawl starts (:func:`new_run`).

The crawl loop (``pw_adaptive.crawling.loop``) updates it page by page; the API
(``pw_adaptive.crawling.api``) checkpoints and restores it, and builds the
:class:`~pw_adaptive.records.CrawlResult` from it.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from pw_adaptive.core.dedup import ContentDeduper
from pw_adaptive.core.frontier import Frontier
from pw_adaptive.core.links import Link
from pw_adaptive.core.query import Query, TermWeights
from pw_adaptive.core.relevance import SiteTitles
from pw_adaptive.core.scope import Scope
from pw_adaptive.core.sections import SectionWords, qualifiers_of
from pw_adaptive.core.soft404 import Soft404Detector
from pw_adaptive.core.stopper import Adaptive, StopReason
from pw_adaptive.core.stubs import StubFolders
from pw_adaptive.core.touched import TouchedLeads
from pw_adaptive.core.traps import TrapDetector, TrapReason
from pw_adaptive.core.urls import canonicalize_url
from pw_adaptive.core.variants import VariantLearner
from pw_adaptive.crawling.listing_reserve import ListingReserve
from pw_adaptive.crawling.robots import RobotsPolicy
from pw_adaptive.crawling.sitemap_reserve import SitemapReserve
from pw_adaptive.records import AttachmentRecord, CrawlResult, PageRecord, SkipRecord
from pw_adaptive.settings import CrawlSettings

__all__ = ["SKIP_RECORDS_PER_REASON", "CrawlRun", "new_run"]

SKIP_RECORDS_PER_REASON = 20
"""Trap skips recorded with their URL (``skip`` records), per trap reason per
crawl. Enough to show where a trap starts (the report's crawl tree); a
calendar or faceted search refuses thousands of links, which only the
summary's ``skipped`` counts."""

_TRAP_REASONS = frozenset(TrapReason)


@dataclass
class CrawlRun:
    """The mutable state of one crawl."""

    start_url: str
    query: Query
    settings: CrawlSettings
    frontier: Frontier
    adaptive: Adaptive
    scope: Scope
    term_weights: TermWeights | None = None
    sections: SectionWords | None = None
    """Qualifiers of the query learnt to name sections that lead nowhere."""
    section_links: dict[str, tuple[Link, float, float]] = field(default_factory=dict)
    """Queued URLs that hold a qualifier in a parent segment: the sighting
    that gave each its score (the link, its page's relevance, the language
    factor), to score it again once the qualifier is spent."""
    dedup: ContentDeduper = field(default_factory=ContentDeduper)
    soft404: Soft404Detector = field(default_factory=Soft404Detector)
    variants: VariantLearner = field(default_factory=VariantLearner)
    """Query parameters and path segments learnt not to change a page's content."""
    stubs: StubFolders = field(default_factory=StubFolders)
    """Folders whose pages turned out to be copies of one stub."""
    touched: TouchedLeads = field(default_factory=TouchedLeads)
    """Pages whose links below them hold the cold give-up (``touched_leads``)."""
    titles: SiteTitles = field(default_factory=SiteTitles)
    """The site's name in its page titles, learnt per host, kept out of relevance."""
    robots: dict[str, RobotsPolicy] = field(default_factory=dict)
    unreachable: dict[str, str] = field(default_factory=dict)
    """Origins whose robots.txt could not be fetched at all, with the error."""
    pages: list[PageRecord] = field(default_factory=list)
    attachments: list[AttachmentRecord] = field(default_factory=list)
    attachments_seen: set[str] = field(default_factory=set)
    skips: list[SkipRecord] = field(default_factory=list)
    """Trap skips recorded with their URL, in discovery order (bounded)."""
    final_urls: set[str] = field(default_factory=set)
    failures: Counter[str] = field(default_factory=Counter)
    context_leads: set[str] = field(default_factory=set)
    """Queued URLs whose best link's only clue is a qualifier around it
    (``LinkScore.qualifier_context_only``), kept until the first find: they
    do not hold the cold give-up (``Adaptive.observe``'s ``hold``)."""
    context_leads_passed: int = 0
    """How many of ``context_leads`` were queued or rendering when the stopper
    last passed over them (for the stop's explanation)."""
    best_relevance: float = 0.0
    """The highest relevance of any page so far (``relevance.about_enough``)."""
    rendering: dict[str, float] = field(default_factory=dict)
    """Scores of the non-blind pages being rendered right now, by URL."""
    sitemap: SitemapReserve = field(default_factory=SitemapReserve)
    """The start origin's sitemap pages kept for a last look before the crawl
    stops, and what the sitemaps gave (``crawling.sitemap_reserve``)."""
    listings: ListingReserve = field(default_factory=ListingReserve)
    """The page-number links of listings met, kept for a last look before a
    saturated stop (``crawling.listing_reserve``)."""
    stop_reason: str | None = None
    started: float = field(default_factory=time.monotonic)
    elapsed_before: float = 0.0

    @property
    def skipped(self) -> Counter[str]:
        """The crawl's one skip counter, reason -> count: the frontier's
        (links it refused, and what the crawler skipped: robots.txt, media
        files, learnt URL variants, duplicate or soft-404 pages)."""
        return self.frontier.skipped

    def elapsed(self) -> float:
        return self.elapsed_before + time.monotonic() - self.started

    def result(self) -> CrawlResult:
        return CrawlResult(
            start_url=self.start_url,
            query=self.query.text,
            terms=self.query.terms,
            qualifiers=self.query.qualifier_terms,
            stop_reason=self.stop_reason or StopReason.FRONTIER_EXHAUSTED,
            pages=tuple(self.pages),
            attachments=tuple(self.attachments),
            coverage=self.adaptive.coverage(),
            evidence=tuple(self.adaptive.evidence()),
            skipped=dict(self.skipped),
            failures=dict(self.failures),
            elapsed_s=self.elapsed(),
            skips=tuple(self.skips),
            evidence_per_term=self.adaptive.options.evidence_per_term,
            stop=self.explain_stop(),
            variant_rules=self.variants.learnt_rules(),
            stub_folders=tuple(host + path for host, path in self.stubs.stub_folders()),
        )

    def give_up_lead(self, lead: float) -> float | None:
        """The lead that may hold the cold give-up back (``Adaptive.observe``'s
        ``hold``): ``lead``, the best queued or rendering link's score, without
        the links whose only clue is a qualifier around them
        (``context_leads``), which say where a link sits, not where it leads.
        None when no such link is waiting (``lead`` decides) or with
        ``qualifier_clues_count`` off; the leads are forgotten at the first
        find, when the give-up is over. Keeps ``context_leads_passed``."""
        leads = self.context_leads
        self.context_leads_passed = 0
        if not leads:
            return None
        if self.adaptive.has_found():
            leads.clear()
            return None
        if lead <= 0.0 or not self.settings.adaptive.qualifier_clues_count:
            return None
        frontier = self.frontier
        rendering = [score for url, score in self.rendering.items() if url not in leads]
        self.context_leads_passed = sum(
            1 for url in leads if url in self.rendering or frontier.queued_score(url) is not None
        )
        return max([frontier.best_score_except(leads), *rendering])

    def explain_stop(self) -> dict[str, Any]:
        """Why the crawl judged its stop safe: the stop reason, one sentence,
        and the state the judgement rested on (the summary's ``stop``)."""
        adaptive = self.adaptive
        options = adaptive.options
        reason = self.stop_reason or StopReason.FRONTIER_EXHAUSTED
        best = self.frontier.best_score()
        patience = max(options.patience, 1)
        terms = len(self.query)
        waiting = f"no queued link scored {self.settings.forgive_score} or more (best {best:.2f})"
        failed = adaptive.failed_promise()
        if best >= self.settings.forgive_score and options.lead_beats_failed and best <= failed:
            # A lead strong enough to forgive did not, because links that
            # scored as high just led to pages not about the query.
            waiting = (
                f"the best queued link ({best:.2f}) promises no more than links that"
                f" just led to pages not about the query ({failed:.2f})"
            )
        coverage = f"coverage {adaptive.coverage():.0%} of {terms} terms"
        qualifying = qualifiers_of(self.query) if options.qualifier_clues_count else 0
        named = [term for i, term in enumerate(self.query.terms) if qualifying >> i & 1]
        qualifiers = f" (or with a clue of qualifiers only: {', '.join(named)})" if named else ""
        if (
            adaptive.coverage() >= options.coverage_threshold
            and adaptive.sources() < options.min_sources
        ):
            # Full coverage from too few pages does not count (MIN_SOURCES): say so.
            coverage += (
                f" but from {adaptive.sources()} page{'s' if adaptive.sources() != 1 else ''}"
                f" ({options.min_sources} needed)"
            )
        unnamed = adaptive.unnamed() if adaptive.covered() else []
        spared = ""
        if 0 < len(unnamed) < terms:
            words = ", ".join(repr(self.query.terms[i]) for i in unnamed)
            spared = f" but {words}, which no page with evidence names,"
        why = {
            StopReason.COVERAGE_REACHED: (
                f"every term{spared} reached {options.evidence_per_term} pieces of evidence from"
                f" {adaptive.sources()} pages, the last {adaptive.stale()} pages added nothing"
                f" new, and {waiting}"
            ),
            StopReason.SATURATED: (
                f"{adaptive.stale()} pages in a row added nothing new (patience {patience}),"
                f" {coverage}, and {waiting}"
            ),
            StopReason.NO_RELEVANT_PAGES: (
                f"nothing relevant was found and {adaptive.cold()} pages came through"
                f" links without any clue for the query{qualifiers} and said nothing of"
                " it (pages behind a clue, and pages that only touch the query, are not"
                " counted); no link with a clue was queued or rendering"
            ),
            StopReason.BUDGET_EXHAUSTED: (
                f"the budget of {self.settings.max_pages} pages was spent"
                f" ({len(self.frontier)} links still queued, best {best:.2f})"
            ),
            StopReason.FRONTIER_EXHAUSTED: "no link in scope was left to follow",
            StopReason.TIME_LIMIT: f"the time limit of {self.settings.time_limit_s} s was reached",
            StopReason.CANCELLED: "the crawl was cancelled (SIGINT/SIGTERM or the caller)",
        }.get(StopReason(reason), str(reason))
        if self.context_leads_passed and reason == StopReason.NO_RELEVANT_PAGES:
            why += (
                f" but {self.context_leads_passed} whose only clue was a qualifier around"
                " the link (the heading or paragraph it sits in), which says where a"
                " link sits, not where it leads"
            )
        if self.touched.held and reason == StopReason.NO_RELEVANT_PAGES:
            why += (
                f"; it waited {self.touched.held} times for a page below one that a link"
                " naming a term of the query led to and that touched the query"
            )
        sitemap = self.sitemap.stats
        if sitemap.released and reason in _HELD_REASONS:
            source = "sitemap names" if not sitemap.llms_txt else "sitemap and llms.txt name"
            why += (
                f"; the {sitemap.released} pages the {source} by the query's words"
                " were rendered first"
            )
        if self.listings.released and reason == StopReason.SATURATED:
            why += (
                f"; {self.listings.released} further pages of a listing (page-number"
                " links) were rendered first"
            )
        return {
            "reason": str(reason),
            "why": why,
            "coverage": round(adaptive.coverage(), 4),
            "covered": adaptive.covered(),
            "stale": adaptive.stale(),
            "cold": adaptive.cold(),
            "sources": adaptive.sources(),
            "queued": len(self.frontier),
            "best_queued": round(best, 4),
            "failed_promise": round(failed, 4),
            "sitemap": sitemap.to_json(),
            "listing_pages": self.listings.released,
            # Pages a link naming a term led to, touching the query, whose
            # links below them held the cold give-up (times held).
            "touched_leads": {"pages": len(self.touched), "held": self.touched.held},
            # Qualifiers learnt to name sections that lead nowhere: links that
            # held them only there were scored again without them.
            "section_words": [
                term
                for i, term in enumerate(self.query.terms)
                if self.sections is not None and self.sections.spent >> i & 1
            ],
        }

    def record_skip(self, url: str, parent: str, reason: str) -> SkipRecord | None:
        """Keep a trap skip with its URL, once per URL and at most
        ``SKIP_RECORDS_PER_REASON`` per reason; None when it is not kept."""
        if reason not in _TRAP_REASONS:
            return None
        if any(s.url == url for s in self.skips):
            return None
        if sum(1 for s in self.skips if s.reason == reason) >= SKIP_RECORDS_PER_REASON:
            return None
        record = SkipRecord(url=url, parent=parent, reason=reason)
        self.skips.append(record)
        return record


_HELD_REASONS = frozenset(
    {
        StopReason.COVERAGE_REACHED,
        StopReason.SATURATED,
        StopReason.NO_RELEVANT_PAGES,
        StopReason.FRONTIER_EXHAUSTED,
    }
)
"""The stops that wait for the sitemap's released pages: the stopper's, and
the frontier's end (``SitemapReserve.hold``)."""


def new_run(start_url: str, query: Query, settings: CrawlSettings) -> CrawlRun:
    """Fresh crawl state; ``ValueError`` for a start URL that is not http(s)."""
    start = canonicalize_url(start_url)
    scope = Scope(start, allowed_hosts=settings.allowed_hosts, prefix=settings.url_prefix)
    frontier = Frontier(
        max_pages=settings.max_pages,
        max_depth=settings.max_depth,
        scope=scope,
        traps=TrapDetector(settings.traps),
        host_delay=settings.host_delay_s,
    )
    run = CrawlRun(
        start_url=start,
        query=query,
        settings=settings,
        frontier=frontier,
        adaptive=Adaptive(
            settings.adaptive, len(query), settings.forgive_score, topics=query.topic_terms
        ),
        scope=scope,
        term_weights=TermWeights(len(query)) if settings.term_weights else None,
        sections=SectionWords(query) if settings.section_words else None,
        dedup=ContentDeduper.from_settings(settings.dedup),
        variants=VariantLearner(settings.variant_evidence),
    )
    reason = frontier.push(start, score=1.0, depth=0, blind=False)
    if reason is not None:
        raise ValueError(f"start URL {start!r} cannot be crawled: {reason}")
    return run
