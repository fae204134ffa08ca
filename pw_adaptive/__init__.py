"""pw_adaptive: focused, adaptive crawling of JavaScript-heavy sites with a real browser.

Everything a user needs is importable from here; the modules behind it are
documented in docs/architecture.md. The crawl runners (``crawl``,
``AdaptiveCrawler``, the batch executors) and ``BrowserNotFoundError`` are
imported on first use (PEP 562): ``import pw_adaptive`` loads neither them
nor Playwright.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pw_adaptive._lazy import lazy_names
from pw_adaptive.batch.jobs import Job
from pw_adaptive.core.links import Link, LinkScore, Region, is_blind, score_link
from pw_adaptive.core.query import DEFAULT_SYNONYMS, Query, Synonyms, estimate_tokens
from pw_adaptive.core.relevance import EVIDENCE_RELEVANCE, MIN_RELEVANCE, relevance
from pw_adaptive.core.scoring import LinkScorer
from pw_adaptive.core.stopper import AdaptiveOptions, StopReason
from pw_adaptive.core.urls import canonicalize_url
from pw_adaptive.crawling.loop import Progress, StartPageError
from pw_adaptive.identity import __version__ as __version__
from pw_adaptive.pages import Attachment, Fetcher, FetchResult, RenderedPage, Renderer
from pw_adaptive.records import AttachmentRecord, CrawlResult, PageRecord, PageTimings, SkipRecord
from pw_adaptive.render.records import RenderSettings
from pw_adaptive.settings import CrawlSettings

if TYPE_CHECKING:
    from pw_adaptive.batch.local import JobOutcome, LocalExecutor, crawl_many
    from pw_adaptive.batch.ray_executor import RayExecutor
    from pw_adaptive.crawling.api import AdaptiveCrawler, acrawl, crawl
    from pw_adaptive.render.browser import BrowserNotFoundError

__all__ = [
    "DEFAULT_SYNONYMS",
    "EVIDENCE_RELEVANCE",
    "MIN_RELEVANCE",
    "AdaptiveCrawler",
    "AdaptiveOptions",
    "Attachment",
    "AttachmentRecord",
    "BrowserNotFoundError",
    "CrawlResult",
    "CrawlSettings",
    "FetchResult",
    "Fetcher",
    "Job",
    "JobOutcome",
    "Link",
    "LinkScore",
    "LinkScorer",
    "LocalExecutor",
    "PageRecord",
    "PageTimings",
    "Progress",
    "Query",
    "RayExecutor",
    "Region",
    "RenderSettings",
    "RenderedPage",
    "Renderer",
    "SkipRecord",
    "StartPageError",
    "StopReason",
    "Synonyms",
    "acrawl",
    "canonicalize_url",
    "crawl",
    "crawl_many",
    "estimate_tokens",
    "is_blind",
    "relevance",
    "score_link",
]
"""What a user calls, passes or receives. The parts inside a crawl (the
frontier, the stopper's state, the deduper, the checkpoint, the trap
detector) are importable from their modules but not part of this face."""

_LAZY = {
    "AdaptiveCrawler": "pw_adaptive.crawling.api",
    "acrawl": "pw_adaptive.crawling.api",
    "crawl": "pw_adaptive.crawling.api",
    "JobOutcome": "pw_adaptive.batch.local",
    "LocalExecutor": "pw_adaptive.batch.local",
    "crawl_many": "pw_adaptive.batch.local",
    "RayExecutor": "pw_adaptive.batch.ray_executor",
    "BrowserNotFoundError": "pw_adaptive.render.browser",
}
"""Names imported on first use, and the module that defines each."""


__getattr__, __dir__ = lazy_names(globals(), _LAZY)
