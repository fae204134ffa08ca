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
from pw_adaptive.adaptive import EVIDENCE_RELEVANCE, MIN_RELEVANCE, AdaptiveOptions, StopReason
from pw_adaptive.crawler import Progress, StartPageError
from pw_adaptive.identity import __version__ as __version__
from pw_adaptive.jobs import Job
from pw_adaptive.links import Link, LinkScore, Region, is_blind, score_link
from pw_adaptive.pages import Attachment, Fetcher, FetchResult, RenderedPage, Renderer
from pw_adaptive.query import DEFAULT_SYNONYMS, Query, Synonyms, estimate_tokens
from pw_adaptive.records import AttachmentRecord, CrawlResult, PageRecord, PageTimings, SkipRecord
from pw_adaptive.relevance import relevance
from pw_adaptive.render.records import RenderSettings
from pw_adaptive.scoring import LinkScorer
from pw_adaptive.settings import CrawlSettings
from pw_adaptive.urls import canonicalize_url

if TYPE_CHECKING:
    from pw_adaptive.api import AdaptiveCrawler, acrawl, crawl
    from pw_adaptive.batch import JobOutcome, LocalExecutor, crawl_many
    from pw_adaptive.ray_executor import RayExecutor
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
    "AdaptiveCrawler": "pw_adaptive.api",
    "acrawl": "pw_adaptive.api",
    "crawl": "pw_adaptive.api",
    "JobOutcome": "pw_adaptive.batch",
    "LocalExecutor": "pw_adaptive.batch",
    "crawl_many": "pw_adaptive.batch",
    "RayExecutor": "pw_adaptive.ray_executor",
    "BrowserNotFoundError": "pw_adaptive.render.browser",
}
"""Names imported on first use, and the module that defines each."""


__getattr__, __dir__ = lazy_names(globals(), _LAZY)
