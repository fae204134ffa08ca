"""Pins the public API: adding or removing a name must be a deliberate change."""

import pw_adaptive


def test_all_is_sorted_and_complete() -> None:
    assert pw_adaptive.__all__ == sorted(pw_adaptive.__all__, key=lambda n: (not n.isupper(), n))
    for name in pw_adaptive.__all__:
        assert hasattr(pw_adaptive, name), name


def test_public_names_are_exactly_these() -> None:
    assert set(pw_adaptive.__all__) == {
        "DEFAULT_SYNONYMS", "EVIDENCE_RELEVANCE", "MIN_RELEVANCE", "AdaptiveCrawler", "AdaptiveOptions", "Attachment", "AttachmentRecord", "BrowserNotFoundError", "CrawlResult", "CrawlSettings", "FetchResult", "Fetcher", "Job", "JobOutcome", "Link", "LinkScore", "LinkScorer", "LocalExecutor", "PageRecord", "PageTimings", "Progress", "Query", "RayExecutor", "Region", "RenderSettings", "RenderedPage", "Renderer", "SkipRecord", "StartPageError", "StopReason", "Synonyms", "acrawl", "canonicalize_url", "crawl", "crawl_many", "estimate_tokens", "is_blind", "relevance", "score_link",
    }  # fmt: skip
