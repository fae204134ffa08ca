"""The adaptive stopper: decides when a focused crawl has seen enough.

Ported from the pagesift frontier's ``Adaptive`` (Rust, see the project's
design notes). A crawl stops when

* every query term has collected enough evidence from relevant pages and the
  last few pages added nothing new (``coverage_reached``);
* pages keep arriving that add nothing new, covered or not (``saturated``);
* nothing relevant was ever found and the crawler keeps having to follow
  "blind" links, links with no clue for the query (``no_relevant_pages``).

Evidence only comes from pages whose relevance clears ``EVIDENCE_RELEVANCE``:
a news item that says "students" once must not fill the coverage, or a small
budget would "finish" on noise.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from pw_adaptive.core.query import Query, TextHits, estimate_tokens
from pw_adaptive.core.relevance import EVIDENCE_RELEVANCE, MIN_RELEVANCE, SHARE_OF_BEST

__all__ = [
    "COLD_PATIENCE",
    "EVIDENCE_RELEVANCE",
    "MIN_RELEVANCE",
    "MIN_SOURCES",
    "TOUCH_PATIENCE",
    "Adaptive",
    "AdaptiveOptions",
    "StopReason",
    "coverage_of",
]
"""The stopper's names; the two relevance thresholds it judges pages by are
defined in :mod:`pw_adaptive.core.relevance` and offered here too."""

COLD_PATIENCE = 2
"""Before anything is found, give up after ``COLD_PATIENCE * patience``
blind, irrelevant pages (consecutive in the seed, where any page that
touches the query restarts the count: ``AdaptiveOptions.touch_resets_cold``).
Simulated on 69 universities x 5 topics with a budget of 100 in the seed's
history: twice the patience (10 pages by default) saves about a quarter of
the pages and loses under 5% of the useful ones, all on sites that wandered
blindly for dozens of pages first."""

TOUCH_PATIENCE = 2
"""After something was found, pages that only touch the query (relevance
between ``MIN_RELEVANCE`` and ``EVIDENCE_RELEVANCE``) count for nothing, as
in the seed; but once more than ``TOUCH_PATIENCE * patience`` of them came
since the last page that brought anything new, each further one counts as
adding nothing new. A course catalogue whose every page names the query's
level of study in its URL ("pregrado") kept a crawl for scholarships going for
50 pages after its last find; one passing mention is still forgiven."""

MIN_SOURCES = 2
"""Coverage only counts once at least this many pages contributed evidence:
one overview page ("Accommodation and dining") can mention every term three
times, and stopping there missed the application and fee pages."""


class StopReason(StrEnum):
    """Why a crawl stopped. Members compare equal to their plain strings."""

    COVERAGE_REACHED = "coverage_reached"
    SATURATED = "saturated"
    NO_RELEVANT_PAGES = "no_relevant_pages"
    BUDGET_EXHAUSTED = "budget_exhausted"
    FRONTIER_EXHAUSTED = "frontier_exhausted"
    TIME_LIMIT = "time_limit"
    CANCELLED = "cancelled"


@dataclass(frozen=True)
class AdaptiveOptions:
    """Knobs of the stopper. The defaults are the values the seed's tests use."""

    coverage_threshold: float = 1.0
    """Coverage (mean over terms of min(1, evidence / evidence_per_term)) that
    counts as "covered". 1.0: every term needs its full evidence."""
    evidence_per_term: int = 3
    """Fresh relevant blocks a term needs to be fully covered."""
    patience: int = 5
    """Consecutive pages without anything new before ``saturated``; half of it
    (rounded up) once covered. 5 gives the seed's 10-page cold patience."""
    min_gain: float = 0.05
    """A page whose fresh tokens are below this share of everything collected
    so far counts as adding nothing new."""
    cold_patience: int | None = COLD_PATIENCE
    """Multiple of ``patience``: blind, irrelevant pages (``clue_resets_cold``,
    ``touch_resets_cold``), before anything is found,
    that end the crawl with ``no_relevant_pages``. None
    turns the cold give-up off (an ablation of the quality benchmark)."""
    touch_patience: int | None = TOUCH_PATIENCE
    """Multiple of ``patience``: pages that only touch the query, since the
    last page that brought anything new, before each further one counts as
    stale (:data:`TOUCH_PATIENCE`). None: they never do (the seed's rule; an
    ablation of the quality benchmark)."""
    min_sources: int = MIN_SOURCES
    """Pages that must have contributed evidence before coverage counts."""
    halve_patience_when_covered: bool = True
    """Once covered, stop after half the patience (rounded up) of nothing new;
    False waits the full patience as when not covered (an ablation)."""
    clue_resets_cold: bool = False
    """Whether a page that a link with a clue led to, and that says nothing of
    the query (relevance below ``MIN_RELEVANCE``), restarts the count of the
    cold give-up, as in the seed (True; an ablation). By default it neither
    counts as blind nor restarts the count: a clue that led nowhere is no sign
    that the site has the topic. On a student handbook with no careers
    section, one link whose text shared a word with a query on career
    services restarted the count, and the crawl took 19 pages instead of 12;
    over the 147 real-corpus tasks, no page found was lost by not restarting."""

    touch_resets_cold: bool = False
    """Whether a page that touches the query (relevance between
    ``MIN_RELEVANCE`` and ``EVIDENCE_RELEVANCE``) restarts the count of the
    cold give-up, as in the seed (True; an ablation). By default it holds the
    count: it is not counted as blind, and the blind pages before it still
    count. A passing mention is no lead by itself; its page's links carry the
    lead when there is one, and a queued link with a clue holds the give-up
    back (``observe``). On the real corpus (166 tasks) a touching page had
    restarted the count on two topics the sites do not have (a transport
    page naming the student residence's bus stop, an organisation chart's
    "departments": 17 and 15 pages); with the count held, and a missing page
    counted (the crawler's rule), they give up in 12, and no page found was
    lost."""

    qualifier_clues_count: bool = True
    """Whether a page behind a link whose visible clue names only words that
    qualify the query's topic (``LinkScore.qualifier_only``: "Undergraduate
    class football match" for undergraduate tuition), and that says nothing
    of the query, counts towards the cold give-up as a blind link's page
    does. The link is still a lead while it is queued (``observe``'s
    ``lead``), so the crawl follows it before giving up. False: such a page
    is a clue's page, neither counted nor restarting the count (an ablation).
    On the real corpus (166 tasks) two topics the sites do not have ran past
    12 pages on such links (three class matches of undergraduates for
    tuition, an international campus's page for visas: 14 and 13 pages);
    counted, they give up in 11, two other tasks take one page fewer, and no
    page found was lost. A qualifier in a link's URL is not
    such a clue: it names the section the page sits in
    (``core.sections``), and a scholarship found behind a course
    catalogue's "/pregrado/" pages would be lost. A link whose qualifier
    stands only around it (the heading or paragraph it sits in,
    ``LinkScore.qualifier_context_only``) is not even a lead: on the real
    corpus (255 tasks) a topic a site does not have ran to 14 pages on two
    badge links in a news item about the campus the query names; without
    them as leads it gives up in 11, and no other real or fixture task
    changed (``observe``'s ``hold``)."""

    fresh_share_of_best: float | None = SHARE_OF_BEST
    """After the first find, a page whose relevance is below this share of
    the best page's so far (``relevance.SHARE_OF_BEST``, the share below which
    the output does not mark a page relevant) adds nothing new: its blocks
    still count as evidence for coverage, but it does not interrupt a run of
    pages with nothing new. A university's vision statement naming
    "academic" is no new content for "academic calendar exam dates" once the
    calendar scored 0.55, and four such pages (0.16-0.18) had kept a crawl
    going for 21 pages after its find. None: any page with fresh evidence interrupts the
    run, as in the seed (an ablation). On the real corpus (166 tasks) 11 tasks
    took 39 pages fewer, none more, and no page found was lost; at 0.5, 24
    tasks took 81 fewer, but at 0.6 an installation guide's third page (0.53
    of the best) was lost."""

    unnamed_terms_spared: int = 1
    """Query terms, up to this many, that no page with evidence names, left
    out of ``covered`` once at least two terms are named: a word the site does
    not use (a question's verb, "funzionano" in "come funzionano le sessioni
    d'esame"; a system's name the pages write another way) can never be
    covered, and waiting for it kept crawls to the full patience instead of
    the covered half. ``coverage()`` still counts every term. 0: every term
    needs its evidence, as in the seed (an ablation). On the real corpus (166
    tasks) 11 tasks took 34 pages fewer, none more, and no page found was
    lost; on the fixtures 5 tasks took 12 fewer. The price: a word that names
    a second part of the topic the pages found so far leave out ("fees"
    beside "housing") gets the covered half of the patience, not all of it;
    a queued link that promises it (``forgive_score``) still holds the stop
    back."""

    lead_beats_failed: bool = True
    """Whether a lead forgives the stale run only while it scores higher than
    every link whose page turned out not to be about the query (below
    ``EVIDENCE_RELEVANCE``, or below ``fresh_share_of_best`` of the best page)
    since the last page that was about it or brought something new
    (``observe``'s ``promise``). A lead that promises no more than links that
    just led nowhere is no reason to keep going: a year's course notes, each
    behind a link whose URL names the year and term of the query, forgave one
    another's empty pages and kept a crawl going for its whole budget (100
    pages, about 0.15 each). Links that score the same as the failed ones are still
    followed while the ordinary patience lasts, and pages about the query
    that add little (one dormitory building after another) keep the
    forgiveness going. False: any lead at ``forgive_score`` forgives, as
    before (an ablation). On the real corpus (200 tasks, replayed) three tasks
    took 71 pages fewer, and no page found was lost."""

    def __post_init__(self) -> None:
        if not 0.0 <= self.coverage_threshold <= 1.0:
            raise ValueError(f"coverage_threshold must be in [0, 1], got {self.coverage_threshold}")
        if self.evidence_per_term < 1:
            raise ValueError(f"evidence_per_term must be >= 1, got {self.evidence_per_term}")
        if self.patience < 1:
            raise ValueError(f"patience must be >= 1, got {self.patience}")
        if not 0.0 <= self.min_gain <= 1.0:
            raise ValueError(f"min_gain must be in [0, 1], got {self.min_gain}")
        if self.cold_patience is not None and self.cold_patience < 1:
            raise ValueError(f"cold_patience must be >= 1 or None, got {self.cold_patience}")
        if self.touch_patience is not None and self.touch_patience < 1:
            raise ValueError(f"touch_patience must be >= 1 or None, got {self.touch_patience}")
        if self.min_sources < 1:
            raise ValueError(f"min_sources must be >= 1, got {self.min_sources}")
        if self.unnamed_terms_spared < 0:
            raise ValueError(f"unnamed_terms_spared must be >= 0, got {self.unnamed_terms_spared}")
        share = self.fresh_share_of_best
        if share is not None and not 0.0 <= share <= 1.0:
            raise ValueError(f"fresh_share_of_best must be in [0, 1] or None, got {share}")


def coverage_of(evidence: Sequence[int], evidence_per_term: int) -> float:
    """Mean over terms of ``min(1, evidence / evidence_per_term)``; 0.0 without terms.

    The stopper's coverage, as a pure function of the evidence counts, so that
    readers of a crawl's records (the HTML report) recompute it page by page.
    """
    if not evidence:
        return 0.0
    target = float(max(evidence_per_term, 1))
    return sum(min(1.0, e / target) for e in evidence) / len(evidence)


def _block_hash(block: str) -> int:
    # A stable 64-bit hash (Python's hash() is salted per process, and the
    # seen-set is checkpointed for resume).
    return int.from_bytes(hashlib.blake2b(block.encode("utf-8"), digest_size=8).digest(), "big")


class Adaptive:
    """State of one adaptive crawl: evidence per term, blocks seen, stale run."""

    def __init__(
        self,
        options: AdaptiveOptions,
        terms: int,
        forgive_score: float | None = None,
        topics: Sequence[int] = (),
    ) -> None:
        self.options = options
        self.forgive_score = forgive_score
        """A lead (see ``observe``) at least this strong forgives the stale run;
        None: never (the seed's stopper, which knows nothing of links)."""
        self.topics = tuple(topics)
        """The terms (by index) that name what the query asks about (a topic
        of the lexicon: "dormitory", not "Ghent" or "register"). While none of
        them is named, no unnamed term is spared (``covered``): the words
        around a topic are no coverage of it. Empty: any term may be spared."""
        self._evidence = [0] * terms
        # Hashes of relevant blocks already counted: the same paragraph on
        # several pages (navigation, footers, reposts) counts once.
        self._seen: set[int] = set()
        self._collected = 0  # relevant content collected so far, in estimated tokens
        self._stale = 0
        self._cold = 0  # blind, irrelevant pages while nothing was found
        self._touching = 0  # pages that only touched the query since the last fresh one
        self._sources = 0  # pages that contributed fresh evidence
        self._best = 0.0  # the highest relevance observed
        self._last_fresh = False
        # The highest link score among pages not about the query since the
        # last page that was about it or brought something new (lead_beats_failed).
        self._failed_promise = 0.0

    def coverage(self) -> float:
        """Mean over terms of ``min(1, evidence / evidence_per_term)``."""
        return coverage_of(self._evidence, self.options.evidence_per_term)

    def evidence(self) -> list[int]:
        """Evidence count per query term (a copy)."""
        return list(self._evidence)

    def has_found(self) -> bool:
        """Some page has brought fresh on-topic content."""
        return self._collected > 0

    def covered(self) -> bool:
        """Coverage reached the threshold, from at least ``min_sources`` pages;
        the terms no page named (``unnamed``) left out, up to
        ``unnamed_terms_spared`` of them, while two terms or more are named
        and one of the query's ``topics`` (when it has any) is."""
        options = self.options
        if self._sources < options.min_sources:
            return False
        if self.coverage() >= options.coverage_threshold:
            return True
        unnamed = self.unnamed()
        if not unnamed or len(unnamed) > options.unnamed_terms_spared:
            return False
        if self.topics and all(self._evidence[i] == 0 for i in self.topics):
            return False
        named = [e for e in self._evidence if e > 0]
        return len(named) >= 2 and (
            coverage_of(named, options.evidence_per_term) >= options.coverage_threshold
        )

    def unnamed(self) -> list[int]:
        """The terms (by index) that no page with evidence has named."""
        return [i for i, e in enumerate(self._evidence) if e == 0]

    def last_fresh(self) -> bool:
        """The page last observed brought fresh on-topic content."""
        return self._last_fresh

    def stale(self) -> int:
        """Consecutive pages that brought nothing new."""
        return self._stale

    def cold(self) -> int:
        """Blind, irrelevant pages while nothing was found. Pages behind a clue
        that said nothing of the query and pages that touch it are not
        counted; with ``clue_resets_cold`` or ``touch_resets_cold`` (the
        seed's rules) they restart the count instead."""
        return self._cold

    def sources(self) -> int:
        """Pages that contributed fresh evidence."""
        return self._sources

    def failed_promise(self) -> float:
        """The highest score of a link whose page was not about the query, since
        the last page that was or brought something new (0 when none): a lead
        forgives the stale run only above it (``lead_beats_failed``)."""
        return self._failed_promise

    def forgive(self) -> None:
        """Reset the stale run (``observe`` does so while a strong lead waits)."""
        self._stale = 0

    def observe(
        self,
        query: Query,
        markdown: str,
        relevance: float,
        blind: bool,
        *,
        lead: float = 0.0,
        hits: TextHits | None = None,
        qualifier_clue: bool = False,
        promise: float = 0.0,
        hold: float | None = None,
    ) -> str | None:
        """Record one page's main markdown; return a stop reason when done.

        ``lead`` is the score of the strongest link still queued or being
        rendered (0 when none has a clue). While it is at least
        ``forgive_score`` the stale run is forgiven first: pages that came up
        empty must not end the crawl before a promising link was followed.
        And while any lead has a clue, ``no_relevant_pages`` is not returned:
        blind pages started before that link was found kept arriving, and the
        content may be deep, not absent.

        ``blind`` says the page was reached by a blind link: nothing on the
        link carried a clue for the query, its score was only the section
        floor. Before anything is found, irrelevant pages do not count as
        stale (portals and news hubs stand in front of content), but
        ``COLD_PATIENCE * patience`` blind, irrelevant pages mean the site has
        no lead to the query: stop with ``no_relevant_pages``. A page behind a
        link with a clue that says nothing of the query, and a page that only
        touches the query, are not counted and, unlike in the seed, do not
        restart the count (``AdaptiveOptions.clue_resets_cold`` and
        ``touch_resets_cold``). While links with clues keep coming the content
        may just be deep: no stop. ``qualifier_clue`` says the link's clue
        named only words that qualify the query's topic: with
        ``AdaptiveOptions.qualifier_clues_count`` the page counts as a blind
        link's.

        ``hold``, when given, replaces ``lead`` for that last rule: the score
        of the strongest queued or rendering link that may lead to the query's
        content. The crawler leaves out links whose only clue is a qualifier
        around them (``LinkScore.qualifier_context_only``) while
        ``qualifier_clues_count`` is on.

        ``promise`` is the score of the link that led to this page. While
        pages come up not about the query, the highest such score is kept,
        and only a lead above it forgives
        (``AdaptiveOptions.lead_beats_failed``).

        ``hits`` is the page's blocks and their hit masks when the caller
        scanned the page already (``relevance.scan_page``: the crawler does,
        once per page); without it the blocks of ``markdown`` are scanned here.
        """
        strong = self.forgive_score is not None and lead >= self.forgive_score
        if strong and (not self.options.lead_beats_failed or lead > self._failed_promise):
            self.forgive()
        counted = blind or (qualifier_clue and self.options.qualifier_clues_count)
        about = self._about(relevance)
        reason = self._observe(query, markdown, relevance, counted, hits)
        if about or self._last_fresh:
            self._failed_promise = 0.0
        elif self._collected > 0:
            self._failed_promise = max(self._failed_promise, promise)
        if reason == StopReason.NO_RELEVANT_PAGES and (lead if hold is None else hold) > 0.0:
            return None
        return reason

    def _weak(self, relevance: float) -> bool:
        """After the first find, a page of this relevance is far below the best
        page so far (``fresh_share_of_best``): it adds evidence but nothing new."""
        share = self.options.fresh_share_of_best
        return share is not None and self._collected > 0 and relevance < share * self._best

    def _about(self, relevance: float) -> bool:
        """Whether a page of this relevance counts as about the query: it
        gives evidence and is not weak (``_weak``)."""
        return relevance >= EVIDENCE_RELEVANCE and not self._weak(relevance)

    def _observe(
        self, query: Query, markdown: str, relevance: float, blind: bool, hits: TextHits | None
    ) -> str | None:
        """The seed's rules for one page (see ``observe``)."""
        self._last_fresh = False
        patience = max(self.options.patience, 1)
        # Judged against the best page before this one, not this one.
        weak = self._weak(relevance)
        self._best = max(self._best, relevance)
        if self._collected == 0:
            if blind and relevance < MIN_RELEVANCE:
                self._cold += 1
                cold = self.options.cold_patience
                if cold is not None and self._cold >= cold * patience:
                    return StopReason.NO_RELEVANT_PAGES
            else:
                # Not counted: a page that a link's clue led to and that says
                # nothing of the query, or a page that touches it. Neither is
                # a sign of the topic; the seed restarted the count on both.
                touching = relevance >= MIN_RELEVANCE
                options = self.options
                if options.touch_resets_cold if touching else options.clue_resets_cold:
                    self._cold = 0
        if relevance < MIN_RELEVANCE:
            # Irrelevant pages after a find: the relevant part is exhausted.
            if self._collected > 0:
                self._stale += 1
                return self._verdict()
            return None
        if relevance < EVIDENCE_RELEVANCE:
            # Touching the topic counts for nothing, unless a long run of such
            # pages since the last find says the relevant part is exhausted.
            self._touching += 1
            touch = self.options.touch_patience
            if self._collected > 0 and touch is not None and self._touching > touch * patience:
                self._stale += 1
                return self._verdict()
            return None
        fresh = 0
        if hits is None:
            hits = query.scan(markdown)
        for block, mask in zip(hits.blocks, hits.masks, strict=True):
            if mask == 0:
                continue
            digest = _block_hash(block)
            if digest in self._seen:
                continue
            self._seen.add(digest)
            for i in range(len(self._evidence)):
                if mask & (1 << i):
                    self._evidence[i] += 1
            fresh += max(estimate_tokens(block), 1)
        self._collected += fresh
        if fresh > 0:
            self._sources += 1
        gain = fresh / max(self._collected, 1)
        if gain < self.options.min_gain or fresh == 0 or weak:
            self._stale += 1
        else:
            self._stale = 0
            self._touching = 0
            self._last_fresh = True
        return self._verdict()

    def _verdict(self) -> str | None:
        # Covered is not enough on its own: while pages still bring new
        # relevant content (one library branch's opening hours after another)
        # keep going, and stop after half the usual patience of nothing new.
        patience = max(self.options.patience, 1)
        covered_patience = (
            max(math.ceil(patience / 2), 1)
            if self.options.halve_patience_when_covered
            else patience
        )
        if self.covered() and self._stale >= covered_patience:
            return StopReason.COVERAGE_REACHED
        if self._stale >= patience:
            return StopReason.SATURATED
        return None

    def state(self) -> dict[str, Any]:
        """A JSON-able snapshot, for checkpoints."""
        return {
            "evidence": list(self._evidence),
            "seen": sorted(self._seen),
            "collected": self._collected,
            "stale": self._stale,
            "cold": self._cold,
            "touching": self._touching,
            "sources": self._sources,
            "last_fresh": self._last_fresh,
            "best": self._best,
            "failed_promise": self._failed_promise,
        }

    def restore(self, state: dict[str, Any]) -> None:
        """Load a snapshot made by :meth:`state` for the same query."""
        evidence = [int(e) for e in state["evidence"]]
        if len(evidence) != len(self._evidence):
            raise ValueError("stopper state was saved for a query with another number of terms")
        self._evidence = evidence
        self._seen = {int(h) for h in state["seen"]}
        self._collected = int(state["collected"])
        self._stale = int(state["stale"])
        self._cold = int(state["cold"])
        self._touching = int(state.get("touching", 0))  # absent from older states
        self._sources = int(state["sources"])
        self._last_fresh = bool(state["last_fresh"])
        self._best = float(state.get("best", 0.0))  # absent from older states
        self._failed_promise = float(state.get("failed_promise", 0.0))
