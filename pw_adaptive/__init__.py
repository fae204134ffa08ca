"""pw_adaptive: focused, adaptive crawling of JavaScript-heavy sites with a real browser.

Everything a user needs is importable from here; the modules behind it are
documented in docs/architecture.md.
"""

from pw_adaptive.adaptive import (
    EVIDENCE_RELEVANCE,
    MIN_RELEVANCE,
    Adaptive,
    AdaptiveOptions,
    StopReason,
)
from pw_adaptive.api import AdaptiveCrawler, acrawl, crawl
from pw_adaptive.batch import JobOutcome, LocalExecutor, crawl_many
from pw_adaptive.checkpoint import Checkpoint
from pw_adaptive.crawler import StartPageError
from pw_adaptive.dedup import ContentDeduper
from pw_adaptive.frontier import Frontier, FrontierEntry
from pw_adaptive.identity import __version__ as __version__
from pw_adaptive.jobs import Job
from pw_adaptive.links import Link, LinkScore, Region, TermWeights, is_blind, score_link
from pw_adaptive.query import DEFAULT_SYNONYMS, Query, Synonyms, estimate_tokens
from pw_adaptive.ray_executor import RayExecutor
from pw_adaptive.records import AttachmentRecord, CrawlResult, PageRecord
from pw_adaptive.relevance import relevance
from pw_adaptive.render import BrowserNotFoundError, RenderedPage, RenderSettings
from pw_adaptive.scope import Scope
from pw_adaptive.settings import CrawlSettings
from pw_adaptive.soft404 import Soft404Detector
from pw_adaptive.traps import TrapDetector, TrapSettings
from pw_adaptive.urls import canonicalize_url

__all__ = [
    "DEFAULT_SYNONYMS",
    "EVIDENCE_RELEVANCE",
    "MIN_RELEVANCE",
    "Adaptive",
    "AdaptiveCrawler",
    "AdaptiveOptions",
    "AttachmentRecord",
    "BrowserNotFoundError",
    "Checkpoint",
    "ContentDeduper",
    "CrawlResult",
    "CrawlSettings",
    "Frontier",
    "FrontierEntry",
    "Job",
    "JobOutcome",
    "Link",
    "LinkScore",
    "LocalExecutor",
    "PageRecord",
    "Query",
    "RayExecutor",
    "Region",
    "RenderSettings",
    "RenderedPage",
    "Scope",
    "Soft404Detector",
    "StartPageError",
    "StopReason",
    "Synonyms",
    "TermWeights",
    "TrapDetector",
    "TrapSettings",
    "acrawl",
    "canonicalize_url",
    "crawl",
    "crawl_many",
    "estimate_tokens",
    "is_blind",
    "relevance",
    "score_link",
]
