"""The crawl loop: composes the frontier, the renderer, relevance and the stopper.

One :class:`~pw_adaptive.crawling.run.CrawlRun` per crawl holds the mutable state; :class:`AdaptiveCrawler`
owns (or borrows) the browser and runs crawls. The loop keeps up to
``concurrency`` pages rendering; pages are processed in the event loop one at
a time, in the order they were started (so the outcome does not depend on
render timings, at any concurrency):

1. failures are counted by kind and recorded; redirects and client-side
   navigation are checked against the scope again;
2. duplicates (same final URL, same or near-same content) and soft-404s are
   recorded and not observed;
3. relevance -> ``Adaptive.observe``, told the strongest link still waiting
   (the stopper forgives and holds back its verdict for it) -> stop reason;
4. links are scored and pushed (robots.txt checked per origin), attachments
   of relevant pages fetched and read.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from pw_adaptive.core.dedup import fingerprint
from pw_adaptive.core.frontier import DUPLICATE_URL, INVALID_URL, QUEUED, FrontierEntry
from pw_adaptive.core.links import (
    LANGUAGE_SWITCH_FACTOR,
    Link,
    LinkScore,
    Region,
    is_language_switch,
    names_a_term,
)
from pw_adaptive.core.listings import is_page_number_link
from pw_adaptive.core.relevance import (
    MIN_RELEVANCE,
    about_enough,
    assess,
    markdown_headings,
    scan_page,
)
from pw_adaptive.core.scoring import AnchorScorer, LinkScorer
from pw_adaptive.core.sections import mask_section_words, section_terms
from pw_adaptive.core.stopper import StopReason
from pw_adaptive.core.stubs import STUB_FACTOR, folder_of
from pw_adaptive.core.urls import canonicalize_url, is_subtree_root, url_host
from pw_adaptive.core.variants import (
    route_anchor,
    shared_page_rule,
    slash_twin,
    without_return_to,
)
from pw_adaptive.crawling.attachments import extract_text
from pw_adaptive.crawling.robots import RobotsPolicy, robots_url
from pw_adaptive.crawling.run import CrawlRun
from pw_adaptive.crawling.sitemap_reserve import (
    MAX_RESERVE,
    SITEMAP_MIN_CLUE,
    read_llms_txt,
    read_sitemaps,
)
from pw_adaptive.pages import (
    Fetcher,
    FetchResult,
    RenderedPage,
    attachment_kind,
    is_feed_url,
    is_mail_address_url,
    is_media_url,
)
from pw_adaptive.records import AttachmentRecord, PageRecord
from pw_adaptive.text.lang import detect_language

if TYPE_CHECKING:
    from pw_adaptive.core.query import TextHits

RecordSink = Callable[[dict[str, Any]], None]
"""Receives every record (page, attachment, skip, summary) as a JSON-able dict."""

ProgressSink = Callable[["Progress"], None]

CANCEL_GRACE_S = 10.0
"""Seconds to wait for pages still rendering when the crawl stops."""

PROBE_BYTES = 64 * 1024
"""Body bytes a slash-twin probe (``PageProcessor.probe_twin``) reads at most:
it wants the status and the URL after redirects, not the page."""


class StartPageError(RuntimeError):
    """The start URL could not be loaded (network error, HTTP error, robots)."""


@dataclass(frozen=True)
class Progress:
    """A snapshot for progress bars, sent after every page."""

    pages: int
    max_pages: int
    coverage: float
    best_queued: float
    queued: int
    last_url: str


ROBOTS_REFUSED = "robots"
"""The error of a document robots.txt disallows: recorded, never requested."""

PAGE_LIMIT = "page_limit"
"""The error of a document beyond ``CrawlSettings.max_attachments_per_page``
of its page: recorded, never requested."""


class PageProcessor:
    """Turns rendered pages into records, stopper verdicts and new links."""

    def __init__(
        self,
        run: CrawlRun,
        fetcher: Fetcher | None,
        emit: RecordSink,
        scorer: LinkScorer | None = None,
    ) -> None:
        self.run = run
        self.fetcher = fetcher
        self.emit = emit
        self.scorer: LinkScorer = scorer or AnchorScorer()
        # How links are scored, read from the settings once; only the learnt
        # term weights change from page to page.
        self._inherit = run.settings.inherit
        self._floors: dict[Region, float] | None = None if run.settings.section_floors else {}
        self._inherit_min = run.settings.inherit_min_relevance
        self._hold_began = False

    def take_hold(self) -> bool:
        """Whether the last page made a stop wait for released pages (a
        sitemap's or a listing's last look); asked once per page."""
        began, self._hold_began = self._hold_began, False
        return began

    def released_urls(self) -> frozenset[str]:
        """The released pages a stop waits for (the sitemap's and a listing's)."""
        return self.run.sitemap.released_urls() | self.run.listings.released_urls()

    def released(self) -> tuple[int, int]:
        """The released pages a stop waits for: (still queued, not yet done)."""
        frontier = self.run.frontier
        waiting = [url for url in self.released_urls() if frontier.waiting(url)]
        return sum(frontier.queued_score(url) is not None for url in waiting), len(waiting)

    async def robots_for(self, url: str) -> RobotsPolicy | None:
        """The robots policy of ``url``'s origin (fetched once), or None when ignored."""
        run = self.run
        if not run.settings.respect_robots or self.fetcher is None:
            return None
        origin = url_host(url)
        policy = run.robots.get(origin)
        if policy is None:
            fetched = await self.fetcher.fetch(robots_url(url), max_bytes=512 * 1024)
            # A 4xx means "no robots.txt" and a 5xx or no answer "stay out"
            # (RFC 9309); the policy reads that off the status alone.
            policy = RobotsPolicy.from_response(
                fetched.status, fetched.body, run.settings.user_agent
            )
            if fetched.status is None:
                run.unreachable[origin] = fetched.error or "unreachable"
            run.robots[origin] = policy
            delay = policy.crawl_delay()
            if delay > run.settings.host_delay_s:
                run.frontier.set_crawl_delay(origin, delay)
        return policy

    def start_sitemap(self, start_url: str) -> None:
        """Begin reading the start origin's sitemaps in the background
        (``pw_adaptive.crawling.sitemap_reserve``); nothing without a fetcher,
        with ``use_sitemaps`` off, or without the stopper (nothing to hold)."""
        settings = self.run.settings
        if self.fetcher is not None and settings.use_sitemaps and settings.adaptive_stop:
            self.run.sitemap.start(self._sitemap_candidates(self.fetcher, start_url))

    async def _sitemap_candidates(
        self, fetcher: Fetcher, start_url: str
    ) -> list[tuple[str, float]]:
        """The sitemap and llms.txt pages worth a last look, (URL, score), best first."""
        run = self.run
        policy = await self.robots_for(start_url)
        named = policy.sitemaps() if policy is not None else ()
        listed, llms = await asyncio.gather(
            read_sitemaps(fetcher, start_url, named, run.scope.allows),
            read_llms_txt(
                fetcher,
                start_url,
                lambda url: run.scope.allows(url) and (policy is None or policy.allows(url)),
            ),
        )
        stats = run.sitemap.stats
        stats.files, stats.urls, stats.llms_txt = listed.files, len(listed.urls), len(llms)
        # (canonical URL, primary language tag or "", the link a person reads)
        pages: list[tuple[str, str, Link]] = []
        for url, link in [(u, Link(u)) for u in listed.urls] + [
            (e.url, Link(e.url, text=e.title, context_text=e.description)) for e in llms
        ]:
            try:
                target = canonicalize_url(url)
            except ValueError:
                continue
            if run.scope.allows_canonical(target):  # a university's sitemap, one faculty
                pages.append((target, _primary(listed.languages.get(url, "")), link))
        # The language of the start page, where the sitemap names it: the
        # versions of the site in other languages are left out, as links to
        # them are (LANGUAGE_SWITCH_FACTOR).
        own = next((tag for target, tag, _ in pages if target == start_url), "")
        prior = list(run.query.term_weights)
        best: dict[str, float] = {}
        for number, (target, tag, link) in enumerate(pages, 1):
            if number % 1000 == 0:
                await asyncio.sleep(0)  # a long sitemap must not hold up the pages
            if is_language_switch(start_url, target) or (own and tag and tag != own):
                continue  # the same pages in a language the user did not start in
            # A sitemap URL is judged by its words; an llms.txt entry also by
            # its title and description, as a link by its text and teaser.
            scored = self.scorer.score(
                link,
                run.query,
                0.0,
                inherit=self._inherit,
                floors={},
                weights=prior,
                inherit_min=self._inherit_min,
            )
            if scored.clue <= SITEMAP_MIN_CLUE or scored.score <= best.get(target, 0.0):
                continue
            # The target's own origin's robots.txt, as for a link (a scope may
            # span hosts); read once per origin.
            target_policy = await self.robots_for(target)
            if target_policy is not None and not target_policy.allows(target):
                continue
            best[target] = scored.score
        # Stable: the sitemaps' order (then llms.txt's) among equals.
        reserve = sorted(best.items(), key=lambda item: -item[1])
        del reserve[MAX_RESERVE:]
        stats.reserved = len(reserve)
        return reserve

    async def process(self, entry: FrontierEntry, page: RenderedPage) -> str | None:
        """Record one rendered page; returns the stopper's reason, if any."""
        run = self.run
        note: str | None = None
        final = _canonical_or(page.final_url, entry.url)
        error = page.error
        if error is None and page.status is not None and page.status >= 400:
            error = f"http_{page.status}"
        if error is None and not run.scope.allows(final):
            error = "left_scope"  # a redirect or script took the page out of scope
        if error is None and page.redirects:
            # The final URL is where the page's scripts left it. A router that
            # puts back the URL the server redirected away from (the server
            # adds a directory's slash, a Gatsby router drops it again) has
            # not looped: the page rendered. Only a URL repeated among the
            # server's redirects, or too many of them, is a loop.
            hops = list(page.redirects)
            loop = run.frontier.traps.check_redirects(hops if final in hops else [*hops, final])
            if loop is not None:
                error = loop
        if error is not None:
            run.failures[_failure_kind(error)] += 1
            run.frontier.mark_done(entry.url)
            if error in ("http_404", "http_410"):
                # The same relative link broken under several pages: the
                # queued copies of it under other pages are broken too.
                for dropped in run.frontier.learn_missing(entry.url):
                    skip = run.record_skip(dropped.url, dropped.parent or "", "broken_link")
                    if skip is not None:
                        self.emit(skip.to_json())
            reason = None
            if error in ("http_404", "http_410") and not run.adaptive.has_found():
                # A page that is not there: for the cold start, an irrelevant
                # page (counted when the link that led here was blind). Other
                # failures (a timeout, a server error) say nothing of the site.
                reason = await self._observe(entry, "", 0.0)
            self._emit_page(entry, page, final, 0.0, error=error)
            return reason
        run.frontier.mark_done(entry.url, final)
        canonical = _canonical_or(page.canonical, "") if page.canonical else ""
        if canonical and canonical != final and run.scope.allows(canonical):
            run.frontier.mark_done(canonical)
        if final != entry.url and final in run.final_urls:
            note = "duplicate_url"
        elif canonical and canonical != final and canonical in run.final_urls:
            note = "duplicate_canonical"
        elif run.soft404.is_soft_404(url_host(final), page.main_text):
            note = "soft_404"
        else:
            fp = fingerprint(page.main_text)
            match = run.dedup.match_fingerprint(fp)
            if match is None:
                run.dedup.add_fingerprint(final, fp)
                run.variants.observe_distinct(final, run.final_urls.__contains__)
                if run.stubs.observe_distinct(final, fp, page.title):
                    self._put_stubs_last(final)
            else:
                note = f"{match.reason}_content"
                exact = match.reason == "duplicate"  # not a near one
                self._learn_variant(final, match.original_url, exact=exact)
                if run.stubs.observe_duplicate(final, match.original_url):
                    self._put_stubs_last(final)
        if final != entry.url:
            # A redirect is a duplicate by definition, whether or not its
            # target was fetched before: "/clubs" sent to "/clubs/" teaches the
            # site's trailing-slash policy before the other "/x" links of the
            # same menu are rendered only to be redirected too.
            self._learn_variant(entry.url, final, redirect=True)
        if note is None:
            # A queued "/alumni" found before the slash rule was learnt is
            # known once "/alumni/" is fetched.
            self._drop_slash_twins(final)
        if note == "duplicate_canonical":
            self._learn_variant(final, canonical)
        run.final_urls.add(final)
        if canonical:
            run.final_urls.add(canonical)
        if note is not None:
            run.frontier.skip(note)
            # An empty, irrelevant page for the stopper: it still counts
            # towards the cold start when the link that led here was blind.
            reason = await self._observe(entry, "", 0.0)
            self._emit_page(entry, page, final, 0.0, note=note)
            return reason
        # The site's name in the title says nothing about the page.
        host = url_host(final)
        title = run.titles.strip(host, page.title)
        run.titles.observe(host, page.title)
        # The page's query hits, found once: relevance, the stopper's fresh
        # blocks and the term weights all read them.
        hits = scan_page(run.query, page.markdown)
        verdict = assess(
            run.query,
            markdown=page.markdown,
            title=title,
            headings=page.headings,
            url=final,
            hits=hits,
            # The start page of a site under a base path is its home page
            # when its links never leave the folder.
            home=entry.depth == 0 and is_subtree_root(final, (link.url for link in page.links)),
        )
        score = verdict.relevance
        # The page's own links are queued before the stopper judges the page:
        # a blind hub that is the last straw of the cold start may be the one
        # that links to the answer, and that link is the lead that holds the
        # give-up back.
        if run.term_weights is not None:
            run.term_weights.observe(hits.mask)
        if run.sections is not None:
            words = run.sections.observe(final, score)
            if words:
                self._rescore_section_links(words)
        await self._push_links(entry, page, final, score)
        if (
            run.settings.touched_leads
            and score >= MIN_RELEVANCE
            and not run.adaptive.has_found()
            and names_a_term(entry.text, run.query)
        ):
            # A link that named a term of the query (one of a long question's
            # is a blind link) led to a page that touches it: its answer may
            # be a level below, behind links that say nothing of the query.
            run.touched.observe(final)
        reason = await self._observe(entry, page.markdown, score, hits)
        harvested: list[AttachmentRecord] = []
        if score >= MIN_RELEVANCE and run.settings.harvest_attachments:
            started = time.monotonic()
            harvested = await self._harvest(page, final)
            spent = time.monotonic() - started
            timings = replace(
                page.timings, attachments_s=spent, total_s=page.timings.total_s + spent
            )
            page = replace(page, timings=timings)
        run.best_relevance = max(run.best_relevance, score)
        relevant = about_enough(verdict, run.best_relevance)
        self._emit_page(
            entry,
            page,
            final,
            score,
            relevant=relevant,
            breadth=verdict.breadth,
            named=verdict.named,
        )
        for record in harvested:
            self.emit(record.to_json())
        return reason

    def _learn_variant(
        self, url: str, original: str, *, redirect: bool = False, exact: bool = True
    ) -> None:
        """``url`` showed ``original``'s content (``redirect``: the site sent it
        there; ``exact``: the same text, not only a near one): learn from it,
        and once a rule is learnt, drop the queued URLs it reduces to a known
        one (their content is known: ``skipped["url_variant"]``)."""
        variants = self.run.variants
        if variants.observe_duplicate(url, original, redirect=redirect, exact=exact):
            self._drop_known_variants()

    def twin_in_flight(self, url: str, in_flight: Iterable[FrontierEntry]) -> bool:
        """Whether a page being rendered may be ``url`` itself: its slash twin
        ("/team" while "/team/" renders; most sites redirect one to the other,
        and the first redirect teaches the rule, but a twin started before that
        would be rendered twice), the same path under another first segment
        (a page two sections may share), or a URL that a learnt rule makes
        the same page. The caller holds ``url`` back until the twin is done: a
        wait, not a skip, so a site that serves both forms loses nothing."""
        entries = list(in_flight)
        twin = slash_twin(url)
        if twin is not None and any(entry.url == twin for entry in entries):
            return True
        if any(shared_page_rule(url, entry.url) is not None for entry in entries):
            # The same path under another first segment ("/compsci/info/canteens/"
            # while "/acsai/info/canteens/" renders): if one turns out to show
            # the other, the site shares the page, and the rest are skipped.
            return True
        variants = self.run.variants
        if not variants.has_rules(url):
            return False
        for entry in entries:
            other = entry.url
            if (
                variants.reduce(other, url.__eq__) == url
                or variants.reduce(url, other.__eq__) == other
            ):
                return True
        return False

    def twin_to_probe(self, url: str) -> bool:
        """Whether ``url`` is worth a plain HTTP request before it is rendered:
        its slash twin was rendered already ("/faq" after "/faq/"), so it may
        well redirect to a page the crawl has (:meth:`probe_twin`). Once a
        redirect has taught the site's slash rule, such a URL never reaches
        the queue (``_push_links``, ``_drop_slash_twins``)."""
        twin = slash_twin(url)
        return self.fetcher is not None and twin is not None and twin in self.run.final_urls

    async def probe_twin(self, url: str) -> str | None:
        """The slash twin of ``url`` when a plain HTTP request for ``url`` is
        redirected there, a page already rendered; else None (render it). A
        request costs milliseconds, a render a second: the duplicate render of
        a site's first slash-less link, before any redirect taught the rule."""
        twin = slash_twin(url)
        if self.fetcher is None or twin is None:
            return None
        fetched = await self.fetcher.fetch(url, max_bytes=PROBE_BYTES)
        if fetched.status is None or fetched.status >= 400:
            return None
        final = _canonical_or(fetched.url, url)
        return twin if final == twin and twin in self.run.final_urls else None

    def settle_twin(self, entry: FrontierEntry, twin: str) -> None:
        """``entry`` was not rendered: it redirects to ``twin`` (:meth:`probe_twin`).
        It becomes an alias of ``twin``, gives its budget back, is counted as a
        learnt URL variant, and teaches the site's slash rule."""
        run = self.run
        run.frontier.release_as_alias(entry.url, twin)
        run.frontier.skip("url_variant")
        self._learn_variant(entry.url, twin, redirect=True)

    def _drop_slash_twins(self, url: str) -> None:
        """Take the queued slash twins of ``url`` (a learnt rule reduces them
        to it) out of the queue as aliases of ``url``: O(1), not a scan."""
        frontier = self.run.frontier
        for twin in self.run.variants.slash_twins(url):
            if frontier.queued_score(twin) is not None:
                frontier.add_alias(twin, url)
                frontier.skip("url_variant")

    def _put_stubs_last(self, url: str) -> None:
        """``url``'s folder was just learnt to hold copies of one stub: its
        queued pages go after every other (``STUB_FACTOR``), when
        ``stub_folders`` is on (a scan of the queue, once per such folder)."""
        run = self.run
        if not run.settings.stub_folders:
            return
        folder = folder_of(url)
        run.frontier.scale_queued(lambda queued: folder_of(queued) == folder, STUB_FACTOR)

    def _drop_known_variants(self) -> None:
        """Drop the queued URLs that a learnt rule reduces to a URL already
        fetched or queued (when a rule is learnt: a scan of the queue)."""
        run = self.run
        frontier = run.frontier
        for queued in frontier.queued_urls():
            reduced = run.variants.reduce(queued, frontier.knows)
            if reduced is not None and frontier.knows(reduced):
                frontier.add_alias(queued, frontier.resolve(reduced))
                frontier.skip("url_variant")

    async def _observe(
        self, entry: FrontierEntry, markdown: str, score: float, hits: TextHits | None = None
    ) -> str | None:
        """The stopper's verdict on one page (None while ``adaptive_stop`` is off).
        A stop first waits for the sitemap's reserved pages (``SitemapReserve``)."""
        run = self.run
        lead = max(run.frontier.best_score(), max(run.rendering.values(), default=0.0))
        reason = run.adaptive.observe(
            run.query,
            markdown,
            score,
            entry.blind,
            lead=lead,
            hits=hits,
            qualifier_clue=entry.qualifier_only,
            promise=entry.score,
            hold=run.give_up_lead(lead),
        )
        if reason is None or not run.settings.adaptive_stop:
            return None
        if reason == StopReason.NO_RELEVANT_PAGES and run.touched.holds(
            run.frontier.pending_links()
        ):
            # A page below a touched lead is still to come (core/touched.py).
            return None
        patience = run.settings.adaptive.patience
        if await run.sitemap.hold(run.frontier, patience) or (
            reason == StopReason.SATURATED and run.listings.hold(run.frontier, patience)
        ):
            self._hold_began = True
            return None
        return reason

    async def _push_links(
        self, entry: FrontierEntry, page: RenderedPage, final: str, score: float
    ) -> None:
        run = self.run
        weights = self._link_weights()
        frontier = run.frontier
        depth = entry.depth + 1
        # Before the first find, which queued links only have a qualifier
        # around them (CrawlRun.context_leads); after it nobody asks.
        cold = not run.adaptive.has_found()
        headings: list[str] | None = None  # every heading of the page, read at the first need
        for link in page.links:
            try:
                target = canonicalize_url(link.url)
                # A log-in or print link that names the page it is on: one URL
                # for all pages.
                returns = without_return_to(target, final)
                if returns != target:
                    target = canonicalize_url(returns)
            except ValueError:
                frontier.skip(INVALID_URL)
                continue
            if "?" in target.partition("#")[2]:
                if headings is None:
                    headings = [*page.headings, *markdown_headings(page.markdown)]
                if route_anchor(target, final, [*headings, link.text]):
                    # A hash router's link to a heading of this very page
                    # (docsify's "#/page?id=<heading>"): the page again,
                    # scrolled. The heading is one of the page's, of any
                    # level, or the link's own text (a table of contents).
                    frontier.skip("in_page_anchor")
                    continue
            if is_media_url(target):
                # A photo, a video, an archive: nothing to read, nothing to follow.
                frontier.skip("media_file")
                continue
            if is_feed_url(target):
                # A news feed (or a sitemap): the titles and teasers of pages
                # that are reached as pages.
                frontier.skip("feed")
                continue
            if is_mail_address_url(target):
                # An e-mail address written without "mailto:": a 404 under the page.
                frontier.skip("mail_address")
                continue
            # A print view, sort order or other variant learnt not to change the
            # page: skip it when the plain URL is known, else queue the plain one.
            # (A variant queued before its rule was learnt stays as it is: a
            # second entry under the plain URL would render the page twice.)
            reduced = run.variants.reduce(target, frontier.knows)
            if reduced is not None:
                if frontier.knows(reduced):
                    frontier.skip("url_variant")
                    continue
                if not frontier.knows(target):
                    target = reduced
            # Every filter of the frontier, once, before the link is scored.
            # A link still queued is scored again, and a stronger sighting
            # raises its score (the frontier keeps its discovery order): a
            # sidebar that every page repeats is first seen on the home page,
            # where nothing vouches for it; seen again on a relevant page, its
            # links inherit that page's relevance. Links in flight or done
            # are not scored again.
            verdict = frontier.screen(target, depth)
            if verdict == QUEUED:
                if not run.settings.rescore_links:
                    frontier.skip(DUPLICATE_URL)
                    continue
            elif verdict is not None:
                skip = run.record_skip(target, final, verdict)
                if skip is not None:
                    self.emit(skip.to_json())
                continue
            else:
                policy = await self.robots_for(target)
                if policy is not None and not policy.allows(target):
                    frontier.skip("robots")
                    continue
            factor = LANGUAGE_SWITCH_FACTOR if is_language_switch(final, target) else 1.0
            if run.settings.stub_folders and run.stubs.is_stub(target):
                # A page of a folder of stubs: after every other.
                factor *= STUB_FACTOR
            # A link under a qualifier's section is kept, to be scored again
            # if the word is spent (_rescore_section_links).
            in_section = run.sections is not None and section_terms(run.query, target) != 0
            scored = self._score(link, target, score, weights)
            # Another language version of the site goes last (factor).
            priority = scored.score * factor
            before = frontier.queued_score(target)
            placed = frontier.place(
                target,
                score=priority,
                depth=depth,
                blind=scored.blind,
                parent=final,
                text=link.text or link.accessible_name,
                qualifier_only=scored.qualifier_only,
            )
            if is_page_number_link(link.text, target) and frontier.queued_score(target) is not None:
                # "2", "»" under a listing: kept for a last look (ListingReserve).
                run.listings.note(target)
            # Whether this link set the entry's score (its clue is the entry's).
            raised = frontier.queued_score(target) != before
            if raised and cold:
                if scored.qualifier_context_only:
                    run.context_leads.add(target)
                else:
                    run.context_leads.discard(target)
            if in_section and raised:
                run.section_links[target] = (link, score, factor)
            if placed is None:
                # "/team/" queued while "/team", queued before the slash rule
                # was learnt, waits too: one entry for the page.
                self._drop_slash_twins(target)

    def _link_weights(self) -> list[float]:
        """The query's term weights for link clues now: the prior, times what
        the pages so far taught (``TermWeights``) when that is on."""
        run = self.run
        prior = run.query.term_weights
        return list(prior) if run.term_weights is None else run.term_weights.combined(prior)

    def _score(
        self, link: Link, target: str, parent: float, weights: list[float] | None
    ) -> LinkScore:
        """``link`` (to canonical ``target``) scored on a page of relevance
        ``parent``; the query's spent section words (``SectionWords``) in
        the parents of its path say nothing."""
        run = self.run
        if run.sections is not None and run.sections.spent:
            masked = mask_section_words(run.query, target, run.sections.spent)
            if masked != target:
                link = replace(link, url=masked)
        return self.scorer.score(
            link,
            run.query,
            parent,
            inherit=self._inherit,
            floors=self._floors,
            weights=weights,
            inherit_min=self._inherit_min,
        )

    def _rescore_section_links(self, spent: int) -> None:
        """Score again, without the section words just ``spent``, the queued
        links whose paths hold them; lower those that promised more."""
        run = self.run
        frontier = run.frontier
        weights = self._link_weights()
        for target, (link, parent, factor) in list(run.section_links.items()):
            if frontier.queued_score(target) is None:
                del run.section_links[target]
                continue
            if not section_terms(run.query, target) & spent:
                continue
            scored = self._score(link, target, parent, weights)
            frontier.demote(
                target,
                scored.score * factor,
                blind=scored.blind,
                qualifier_only=scored.qualifier_only,
            )

    async def _harvest(self, page: RenderedPage, final: str) -> list[AttachmentRecord]:
        """Fetch and read the page's new attachments; returns their records (kept
        in ``run.attachments``; emitted by the caller after the page's record).

        A document goes by the rules a page goes by: one that robots.txt
        disallows is recorded, not requested (its error ``robots``), and each
        request waits for its host's politeness delay (``host_delay_s``,
        Crawl-delay) and starts it, so the pages after it wait too. One
        document is requested at a time, but the next one is requested while
        the last one is being read: the request waits on the network and the
        reading on the CPU (course pages link a dozen PDFs). Beyond
        ``max_attachments_per_page`` documents, those that name the query
        least are recorded (error ``page_limit``), not requested."""
        run = self.run
        todo: list[tuple[str, str, str]] = []
        for att in page.attachments:
            try:
                url = canonicalize_url(att.url)
            except ValueError:
                continue
            if url in run.attachments_seen or not run.scope.allows(url):
                continue
            run.attachments_seen.add(url)
            todo.append((url, att.text, att.kind))
        chosen = self._within_page_limit(todo)
        out: list[AttachmentRecord] = []
        reading: asyncio.Future[AttachmentRecord] | None = None
        try:
            for index, (url, text, kind) in enumerate(todo):
                fetched = (
                    await self._request(url)
                    if index in chosen
                    else FetchResult(url, None, error=PAGE_LIMIT)
                )
                if reading is not None:
                    out.append(await reading)
                reading = asyncio.ensure_future(self._read(url, text, kind, final, fetched))
            if reading is not None:
                out.append(await reading)
                reading = None
        finally:
            if reading is not None:
                reading.cancel()
        run.attachments.extend(out)
        return out

    def _within_page_limit(self, todo: list[tuple[str, str, str]]) -> set[int]:
        """The indexes of the documents of ``todo`` (url, link text, kind) to
        read: all of them up to ``max_attachments_per_page``; beyond it, the
        ones whose link carries the strongest clue for the query (its text or
        URL, scored as any link is), ties in the page's order."""
        limit = self.run.settings.max_attachments_per_page
        if len(todo) <= limit:
            return set(range(len(todo)))
        weights = self._link_weights()
        clues = [self._score(Link(url, text), url, 0.0, weights).clue for url, text, _ in todo]
        ranked = sorted(range(len(todo)), key=lambda index: (-clues[index], index))
        return set(ranked[:limit])

    async def _request(self, url: str) -> FetchResult | None:
        """The document's response, by the rules a page goes by: one robots.txt
        disallows is not requested (error ``robots``), and the request waits
        for its host's politeness delay and starts it (None without a fetcher)."""
        policy = await self.robots_for(url)
        if policy is not None and not policy.allows(url):
            return FetchResult(url, None, error=ROBOTS_REFUSED)
        while (wait := self.run.frontier.reserve_host(url)) > 0.0:
            await asyncio.sleep(wait)
        return await self._download(url)

    async def _download(self, url: str) -> FetchResult | None:
        """The attachment's response (None without a fetcher)."""
        if self.fetcher is None:
            return None
        return await self.fetcher.fetch(url, max_bytes=self.run.settings.max_attachment_bytes)

    async def _read(
        self, url: str, text: str, kind: str, page: str, fetched: FetchResult | None
    ) -> AttachmentRecord:
        """The record of a fetched attachment, its text read."""
        if fetched is None:
            return AttachmentRecord(url=url, text=text, page=page, kind=kind, error="no_fetcher")
        if fetched.error is not None:
            if fetched.error not in (ROBOTS_REFUSED, PAGE_LIMIT):  # not requested: no failure
                self.run.failures["attachment"] += 1
            return AttachmentRecord(
                url=url, text=text, page=page, kind=kind, status=fetched.status, error=fetched.error
            )
        real_kind = attachment_kind(url, media_type=fetched.content_type) or kind
        content, error = "", None
        try:
            # In a worker thread: a long PDF takes PDFium a tenth of a second
            # or more, and the event loop must go on serving the pages being
            # rendered (their ready waits and extraction run on it).
            content = await asyncio.to_thread(extract_text, real_kind, fetched.body)
        except ValueError as exc:
            error = str(exc)
            self.run.failures["attachment"] += 1
        return AttachmentRecord(
            url=url,
            text=text,
            page=page,
            kind=real_kind,
            status=fetched.status,
            content_type=fetched.content_type,
            size=len(fetched.body),
            content=content,
            error=error,
        )

    def _emit_page(
        self,
        entry: FrontierEntry,
        page: RenderedPage,
        final: str,
        score: float,
        *,
        error: str | None = None,
        note: str | None = None,
        relevant: bool = False,
        breadth: float = 0.0,
        named: tuple[int, ...] = (),
    ) -> None:
        run = self.run
        record = PageRecord(
            url=entry.url,
            final_url=final,
            title=page.title,
            depth=entry.depth,
            relevance=score,
            link_score=entry.score,
            blind=entry.blind,
            evidence=tuple(run.adaptive.evidence()),
            fresh=run.adaptive.last_fresh() if error is None and note is None else False,
            markdown=page.markdown if error is None else "",
            status=page.status,
            parent=entry.parent,
            headings=page.headings,
            links=len(page.links),
            error=error,
            note=note,
            elapsed_s=page.elapsed_s,
            relevant=relevant,
            lang=detect_language(page.markdown) if error is None else "",
            timings=page.timings,
            breadth=breadth,
            named=named,
        )
        run.pages.append(record)
        self.emit(record.to_json())


@dataclass(frozen=True)
class _KnownTwin:
    """What a probed URL came to instead of a page: its slash twin, rendered already."""

    url: str


async def _probed(
    processor: PageProcessor, render: Callable[[str], Awaitable[RenderedPage]], url: str
) -> RenderedPage | _KnownTwin:
    """Render ``url`` unless a plain request finds it redirects to its slash
    twin, a page the crawl has (``PageProcessor.probe_twin``)."""
    try:
        twin = await processor.probe_twin(url)
    except Exception:  # a probe that fails says nothing: render as usual
        twin = None
    return _KnownTwin(twin) if twin is not None else await render(url)


def _primary(tag: str) -> str:
    """The primary subtag of a language tag ("pt-br" -> "pt"; "" -> "")."""
    return tag.replace("_", "-").split("-", 1)[0]


def _canonical_or(url: str | None, fallback: str) -> str:
    if not url:
        return fallback
    try:
        return canonicalize_url(url)
    except ValueError:
        return fallback


def _failure_kind(error: str) -> str:
    """A short, countable kind for an error message ("timeout", "http_503", ...)."""
    head = error.split(":", 1)[0].strip().lower()
    return head.replace(" ", "_")[:40] or "error"


async def crawl_loop(
    run: CrawlRun,
    render: Callable[[str], Any],
    processor: PageProcessor,
    *,
    progress: ProgressSink | None = None,
    cancel: asyncio.Event | None = None,
    after_page: Callable[[], None] | None = None,
) -> None:
    """Fetch and process pages until a stop reason is set on ``run``."""
    settings = run.settings
    deadline = (
        time.monotonic() + settings.time_limit_s - run.elapsed_before
        if settings.time_limit_s is not None
        else None
    )
    in_flight: dict[asyncio.Task[RenderedPage | _KnownTwin], FrontierEntry] = {}
    # While a stop waits for released pages (the sitemap's or a listing's last
    # look), the pages that were rendering when it was asked for are set
    # aside: rendered, not processed. The released pages are processed
    # first; when one of them keeps the crawl going, the set-aside pages
    # follow in their order, and when the stop comes after all, they are
    # dropped like any page still rendering at a stop. So a hold costs the
    # released pages, not the concurrency's worth of pages already started
    # besides (three at concurrency 4).
    deferred: dict[asyncio.Task[RenderedPage | _KnownTwin], FrontierEntry] = {}
    holding = False
    try:
        while run.stop_reason is None:
            if cancel is not None and cancel.is_set():
                run.stop_reason = StopReason.CANCELLED
                break
            if deadline is not None and time.monotonic() >= deadline:
                run.stop_reason = StopReason.TIME_LIMIT
                break
            if holding and processor.released()[1] == 0:
                holding = False  # the released pages are done and the crawl goes on
                in_flight = {**deferred, **in_flight}
                deferred.clear()
            held: list[FrontierEntry] = []
            while len(in_flight) + sum(not t.done() for t in deferred) < settings.concurrency:
                if holding and processor.released()[0] == 0:
                    break  # only the released pages start while the stop waits
                entry = run.frontier.pop()
                if entry is None:
                    break
                # (A twin among the set-aside pages does not hold a page back:
                # it is not processed until the stop's wait is over.)
                if processor.twin_in_flight(entry.url, in_flight.values()):
                    # "/team/" while "/team" is being rendered (and redirected
                    # there): wait until the twin is done, which settles it.
                    held.append(entry)
                    continue
                if processor.twin_to_probe(entry.url):
                    in_flight[asyncio.ensure_future(_probed(processor, render, entry.url))] = entry
                else:
                    in_flight[asyncio.ensure_future(render(entry.url))] = entry
                if not entry.blind:
                    run.rendering[entry.url] = entry.score
            for entry in held:
                run.frontier.requeue(entry)
            if not in_flight:
                if holding and run.frontier.budget_left <= 0:
                    # No budget for the released pages: the set-aside ones,
                    # paid for already, are processed.
                    holding = False
                    in_flight = {**deferred}
                    deferred.clear()
                    continue
                wait = run.frontier.next_ready_in()
                if run.frontier.budget_left <= 0:
                    run.stop_reason = StopReason.BUDGET_EXHAUSTED
                elif wait is None:
                    if await run.sitemap.hold(run.frontier, settings.adaptive.patience):
                        continue  # the sitemap's reserved pages first
                    run.stop_reason = StopReason.FRONTIER_EXHAUSTED
                else:
                    await asyncio.sleep(min(wait, 1.0))
                continue
            # Pages are processed in the order they were started, not the order
            # they finished: the stopper and the frontier then see the same
            # sequence whatever the render timings, so a crawl is reproducible
            # at any concurrency (the others keep rendering meanwhile).
            oldest = next(iter(in_flight))
            timeout = 0.5 if cancel is not None or deadline is not None else None
            done, _ = await asyncio.wait({oldest}, timeout=timeout)
            if cancel is not None and cancel.is_set():
                # Not recorded: a page that finished while the crawl was being
                # stopped may have failed because of the stop (a Ctrl-C reaches
                # the browser too). It stays in flight, and a resume renders it.
                continue
            for task in done:
                entry = in_flight.pop(task)
                run.rendering.pop(entry.url, None)
                page = task.result()
                if isinstance(page, _KnownTwin):
                    processor.settle_twin(entry, page.url)
                    continue
                reason = await processor.process(entry, page)
                if processor.take_hold() and not holding:
                    holding = True
                    released = processor.released_urls()
                    for started, waiting in list(in_flight.items()):
                        if waiting.url not in released:
                            deferred[started] = in_flight.pop(started)
                if after_page is not None:
                    after_page()
                if progress is not None:
                    progress(
                        Progress(
                            pages=len(run.pages),
                            max_pages=settings.max_pages,
                            coverage=run.adaptive.coverage(),
                            best_queued=run.frontier.best_score(),
                            queued=len(run.frontier),
                            last_url=entry.url,
                        )
                    )
                if reason is not None and run.stop_reason is None:
                    run.stop_reason = reason
                    break
    finally:
        run.rendering.clear()
        in_flight.update(deferred)
        for task in in_flight:
            task.cancel()
        if in_flight:
            # Bounded: a renderer stuck in Chromium must not keep the crawl open.
            await asyncio.wait(in_flight, timeout=CANCEL_GRACE_S)
