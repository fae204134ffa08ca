"""Pins the public API: adding or removing a name must be a deliberate change."""

import pw_adaptive


def test_all_is_sorted_and_complete() -> None:
    assert pw_adaptive.__all__ == sorted(pw_adaptive.__all__, key=lambda n: (not n.isupper(), n))
    for name in pw_adaptive.__all__:
        assert hasattr(pw_adaptive, name), name


def test_public_names_are_exactly_these() -> None:
    assert set(pw_adaptive.__all__) == {
        "DEFAULT_SYNONYMS", "EVIDENCE_RELEVANCE", "MIN_RELEVANCE", "Adaptive",
        "AdaptiveCrawler", "AdaptiveOptions", "AttachmentRecord", "BrowserNotFoundError",
        "Checkpoint", "ContentDeduper", "CrawlResult", "CrawlSettings", "Frontier",
        "FrontierEntry", "Job", "JobOutcome", "Link", "LinkScore", "LocalExecutor",
        "PageRecord", "Query", "RayExecutor", "Region", "RenderSettings", "RenderedPage",
        "Scope", "Soft404Detector", "StartPageError", "StopReason", "Synonyms", "TermWeights",
        "TrapDetector", "TrapSettings", "acrawl", "canonicalize_url", "crawl", "crawl_many",
        "estimate_tokens", "is_blind", "relevance", "score_link",
    }  # fmt: skip
