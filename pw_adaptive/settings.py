"""One settings object for a crawl, every field documented where it is declared."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any

from pw_adaptive.core.dedup import DedupSettings
from pw_adaptive.core.links import DEFAULT_INHERIT
from pw_adaptive.core.stopper import EVIDENCE_RELEVANCE, AdaptiveOptions
from pw_adaptive.core.traps import TrapSettings
from pw_adaptive.core.variants import DEFAULT_MIN_EVIDENCE

_ADDED_LATER: tuple[tuple[str, ...], ...] = (
    ("traps",),
    ("dedup",),
    ("variant_evidence",),
    ("stub_folders",),
    ("adaptive", "clue_resets_cold"),
    ("adaptive", "touch_resets_cold"),
    ("adaptive", "qualifier_clues_count"),
    ("adaptive", "fresh_share_of_best"),
    ("adaptive", "unnamed_terms_spared"),
    ("adaptive", "lead_beats_failed"),
)
"""Settings (paths through nested settings) added after state files were first
saved: ``CrawlSettings.fingerprint`` leaves each out while it has its default."""


@dataclass(frozen=True)
class CrawlSettings:
    """How one crawl runs. Validated on construction (``ValueError``)."""

    max_pages: int = 100
    """Budget: pages rendered at most (the start page included; the soft-404
    probe and robots.txt are not counted)."""
    max_depth: int | None = 8
    """Link depth from the start page beyond which links are not followed
    (relevant portal pages sit at depth 2-5; None: unlimited)."""
    time_limit_s: float | None = None
    """Wall-clock limit for the whole crawl; stop reason ``time_limit``."""
    concurrency: int = 4
    """Pages rendered at once. Pages are processed in the order they were
    started, so at a given concurrency the crawl does not depend on render
    timings; a higher one fetches more pages before the stopper ends it."""
    host_delay_s: float = 0.0
    """Minimum seconds between two page starts on the same host (politeness);
    raised to a robots.txt Crawl-delay when that is larger."""
    allowed_hosts: tuple[str, ...] = ()
    """Hosts in scope besides the start URL's own site."""
    url_prefix: str | None = None
    """When set, only URLs starting with this prefix are in scope."""
    respect_robots: bool = True
    """Obey robots.txt (RFC 9309) on every origin in scope."""
    user_agent: str = "pw-adaptive"
    """The product token matched against robots.txt groups."""
    allow_private_addresses: bool = False
    """Let a crawl that starts on a public host reach loopback, private,
    link-local, unique-local and cloud-metadata addresses. Off by default:
    pages of a public site must not steer the browser into the local network
    (``pw_adaptive.netguard``). A start URL on such an address (an intranet,
    a local server) turns the guard off by itself."""
    treat_as_public: tuple[str, ...] = ()
    """Hosts (names or IP literals, no port) the private-address guard counts
    as public whatever they resolve to. For tests that stand a loopback
    server in for a public site; never needed against real sites."""
    adaptive: AdaptiveOptions = field(default_factory=AdaptiveOptions)
    """The stopper's options."""
    traps: TrapSettings = field(default_factory=TrapSettings)
    """Limits of the URL trap detectors (``pw_adaptive.core.traps``)."""
    dedup: DedupSettings = field(default_factory=DedupSettings)
    """Thresholds of content dedup (``pw_adaptive.core.dedup``)."""
    variant_evidence: int = DEFAULT_MIN_EVIDENCE
    """Duplicates that must agree before a URL variant (a query parameter, a
    trailing path segment or slash, a language prefix) is learnt not to change
    a site's pages and skipped before rendering (``pw_adaptive.core.variants``)."""
    stub_folders: bool = True
    """Put last the queued pages of a folder whose pages turned out to be
    copies of one stub (two siblings duplicated another page of their folder,
    or read as a sibling does but for the words of their titles, more than
    the folder's pages with content of their own: a list of faculty pages
    that read "TODO"; ``pw_adaptive.core.stubs``). False leaves their scores
    alone."""
    touched_leads: bool = True
    """Before the first find, let the cold give-up (``no_relevant_pages``) wait
    while a page that a link naming a term of the query led to, and that
    touches the query, has a link to a page below it queued: the answer may be
    one level under the page the link named, behind a link that says nothing
    of the query (``pw_adaptive.core.touched``). False: such pages hold
    nothing."""
    adaptive_stop: bool = True
    """Stop on the stopper's verdict. False: crawl until the budget or the
    frontier runs out (the benchmarks' "stopper off" baseline)."""
    use_sitemaps: bool = True
    """Read the start origin's sitemaps (robots.txt ``Sitemap:`` lines, else
    ``/sitemap.xml``) and its ``llms.txt`` files in the background, keep the
    pages whose URL words name most of the query (or whose llms.txt title and
    description name it as a link's text would), and render those no link
    reached before the stopper ends the crawl
    (``pw_adaptive.crawling.sitemap_reserve``). False: follow links only.
    The reserve is saved with the crawl's state: a resumed crawl makes the
    decisions an uninterrupted one makes."""
    forgive_score: float = 0.35
    """While a non-blind link at least this strong is queued, the stale run is
    forgiven: pages that came up empty must not end the crawl before a
    promising link was followed. 0.35 is a link whose own words hit about a
    third of the query, or a weaker clue on a relevant page. Once pages behind
    links as strong turn out not to be about the query, only a stronger link
    forgives (``AdaptiveOptions.lead_beats_failed``)."""
    inherit: float = DEFAULT_INHERIT
    """Share of the parent page's relevance a link inherits (Shark-Search)."""
    inherit_min_relevance: float = EVIDENCE_RELEVANCE
    """Only pages at least this relevant pass a share on to their links
    (``pw_adaptive.core.links.INHERIT_MIN_RELEVANCE``); 0 lets every page do so."""
    rescore_links: bool = True
    """Score a queued link again each time a page links to it, and raise its
    priority when the new sighting is stronger (a link inherits from a
    relevant page that repeats it). False keeps the first score."""
    term_weights: bool = True
    """Weigh query terms in link clues by how rare they are on the pages seen
    so far (a term on every page, like "student" on a portal, counts less)."""
    section_floors: bool = True
    """Give links their region's floor score (menus explore, footers rarely)."""
    section_words: bool = True
    """Learn which qualifiers of the query the site uses as section names that
    lead nowhere (``pw_adaptive.core.sections``): after ten irrelevant pages
    under "/pregrado/" and none relevant, "pregrado" in a parent segment of a
    URL is no longer a clue for "becas para estudiantes de pregrado"."""
    probe_soft_404: bool = True
    """Render a route that cannot exist on the start origin and skip pages
    that look like it (SPAs answer unknown routes with HTTP 200). It renders
    beside the first pages, none of which is judged before it is done; first
    and alone at concurrency 1 or when the start host asks for a delay."""
    harvest_attachments: bool = True
    """Fetch documents linked from pages with relevance >= MIN_RELEVANCE and
    extract their text (PDF)."""
    max_attachment_bytes: int = 20 * 1024 * 1024
    """Attachments larger than this are recorded but not downloaded."""
    max_attachments_per_page: int = 20
    """Documents read from one page. When a page links more, the ones whose
    links carry the strongest clue for the query (their text or URL, scored
    as any link is) are read, ties in the page's order, and the others are
    recorded with the error ``page_limit``,
    not requested. A course page links a dozen; a documents archive can link
    hundreds, which would hold the crawl for minutes. 0: none is read."""
    checkpoint_every: int = 1
    """With a state file, save the crawl state after this many pages."""
    retry_attempts: int = 3
    """Attempts per page at most, the first included, for transient failures:
    the statuses of ``retry_statuses``, timeouts, renderer crashes and a browser
    that went away (``pw_adaptive.crawling.retry``). 1 turns retries off. Each attempt
    is one call to the renderer, which itself tries once more at once after a
    crash or a network error (``RenderSettings.retries``, default 1): a page
    that always crashes is rendered ``2 * retry_attempts`` times."""
    retry_backoff_s: float = 1.0
    """Pause before the first retry of a page; doubled for each further retry,
    plus up to as much random jitter."""
    retry_backoff_max_s: float = 30.0
    """Longest backoff pause between two attempts."""
    retry_after_cap_s: float = 60.0
    """A 429 or 503 answer's ``Retry-After`` (seconds or an HTTP-date) replaces the
    backoff pause, but never asks for more than this."""
    retry_statuses: tuple[int, ...] = (429, 500, 502, 503, 504)
    """HTTP statuses of the main document that are retried (overload, rate limit)."""

    def __post_init__(self) -> None:
        if self.max_pages < 1:
            raise ValueError(f"max_pages must be >= 1, got {self.max_pages}")
        if self.max_depth is not None and self.max_depth < 0:
            raise ValueError(f"max_depth must be >= 0, got {self.max_depth}")
        if self.time_limit_s is not None and self.time_limit_s <= 0:
            raise ValueError(f"time_limit_s must be > 0, got {self.time_limit_s}")
        if not 1 <= self.concurrency <= 64:
            raise ValueError(f"concurrency must be in 1..64, got {self.concurrency}")
        if self.host_delay_s < 0:
            raise ValueError(f"host_delay_s must be >= 0, got {self.host_delay_s}")
        if not 0.0 <= self.inherit <= 1.0:
            raise ValueError(f"inherit must be in [0, 1], got {self.inherit}")
        if not 0.0 <= self.inherit_min_relevance <= 1.0:
            raise ValueError(
                f"inherit_min_relevance must be in [0, 1], got {self.inherit_min_relevance}"
            )
        if self.checkpoint_every < 1:
            raise ValueError(f"checkpoint_every must be >= 1, got {self.checkpoint_every}")
        if self.max_attachment_bytes < 0:
            raise ValueError("max_attachment_bytes must be >= 0")
        if self.max_attachments_per_page < 0:
            raise ValueError(
                f"max_attachments_per_page must be >= 0, got {self.max_attachments_per_page}"
            )
        for hosts in ("allowed_hosts", "treat_as_public"):
            if isinstance(getattr(self, hosts), str):  # tuple("a.b") would be its letters
                raise ValueError(f"{hosts} must be a sequence of hosts, not one string")
        if self.variant_evidence < 1:
            raise ValueError(f"variant_evidence must be >= 1, got {self.variant_evidence}")
        if self.retry_attempts < 1:
            raise ValueError(f"retry_attempts must be >= 1, got {self.retry_attempts}")
        if min(self.retry_backoff_s, self.retry_backoff_max_s, self.retry_after_cap_s) < 0:
            raise ValueError("retry_backoff_s, retry_backoff_max_s, retry_after_cap_s must be >= 0")

    @classmethod
    def from_options(cls, **options: Any) -> CrawlSettings:
        """Build settings from keyword options; unknown names are a ``ValueError``.

        Stopper options (``coverage_threshold``, ``evidence_per_term``,
        ``patience``, ``min_gain``) may be given flat.
        """
        names = {f.name for f in fields(cls)}
        adaptive_names = {f.name for f in fields(AdaptiveOptions)}
        unknown = sorted(set(options) - names - adaptive_names)
        if unknown:
            raise ValueError(f"unknown crawl option(s): {', '.join(unknown)}")
        adaptive_kw = {k: options.pop(k) for k in list(options) if k in adaptive_names}
        for name in ("allowed_hosts", "treat_as_public", "retry_statuses"):
            if name in options:
                value = options[name]
                options[name] = (value,) if isinstance(value, str) else tuple(value)
        settings = cls(**options)
        if adaptive_kw:
            settings = replace(settings, adaptive=replace(settings.adaptive, **adaptive_kw))
        return settings

    def fingerprint(self) -> str:
        """A stable hash of the settings that change which pages a crawl fetches."""
        data = asdict(self)
        for volatile in ("time_limit_s", "checkpoint_every", "concurrency"):
            data.pop(volatile, None)
        # Left out at their defaults, so state files saved before these
        # settings existed still resume.
        defaults = CrawlSettings()
        for *parents, name in _ADDED_LATER:
            ours, theirs, held = self, defaults, data
            for parent in parents:
                ours, theirs, held = getattr(ours, parent), getattr(theirs, parent), held[parent]
            if getattr(ours, name) == getattr(theirs, name):
                held.pop(name, None)
        blob = json.dumps(data, sort_keys=True, default=str).encode()
        return hashlib.blake2b(blob, digest_size=12).hexdigest()
