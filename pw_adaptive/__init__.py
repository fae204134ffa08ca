"""pw_adaptive: focused, adaptive crawling of JavaScript-heavy sites with a real browser.

Everything a user needs is importable from here; the modules behind it are
documented in docs/architecture.md. The crawl runners (``crawl``,
``AdaptiveCrawler``, the batch executors) and ``BrowserNotFoundError`` are
imported on first use (PEP 562): ``import pw_adaptive`` loads neither them
nor Playwright.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from pw_adaptive.adaptive import (
    EVIDENCE_RELEVANCE,
    MIN_RELEVANCE,
    Adaptive,
    AdaptiveOptions,
    StopReason,
)
from pw_adaptive.checkpoint import Checkpoint
from pw_adaptive.crawler import StartPageError
from pw_adaptive.dedup import ContentDeduper
from pw_adaptive.frontier import Frontier, FrontierEntry
from pw_adaptive.identity import __version__ as __version__
from pw_adaptive.jobs import Job
from pw_adaptive.links import Link, LinkScore, Region, TermWeights, is_blind, score_link
from pw_adaptive.pages import RenderedPage
from pw_adaptive.query import DEFAULT_SYNONYMS, Query, Synonyms, estimate_tokens
from pw_adaptive.records import AttachmentRecord, CrawlResult, PageRecord
from pw_adaptive.relevance import relevance
from pw_adaptive.render.records import RenderSettings
from pw_adaptive.scope import Scope
from pw_adaptive.settings import CrawlSettings
from pw_adaptive.soft404 import Soft404Detector
from pw_adaptive.traps import TrapDetector, TrapSettings
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


def __getattr__(name: str) -> Any:
    home = _LAZY.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
