"""Link scorers: how the crawler ranks the links of a page.

The default, :class:`AnchorScorer`, is pw_adaptive's own (what a person sees
on the link, synonyms, Shark-Search inheritance, section floors, learnt term
weights). The others are the baselines the quality benchmark compares it
with, run on the same renderer and budget:

* :class:`BreadthFirstScorer`: every link alike, so the frontier's tie-break
  (shallower first, then discovery order) makes the crawl breadth-first, as
  Crawlee and Scrapy crawl by default;
* :class:`UrlKeywordScorer`: query words in the URL only, like Crawl4AI's
  ``KeywordRelevanceScorer``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from pw_adaptive.core.links import Link, LinkScore, Region, score_link
from pw_adaptive.core.query import Query
from pw_adaptive.core.relevance import url_words


class LinkScorer(Protocol):
    """Scores one link found on a page whose relevance is ``parent_relevance``."""

    def score(
        self,
        link: Link,
        query: Query,
        parent_relevance: float,
        *,
        inherit: float,
        floors: Mapping[Region, float] | None,
        weights: Sequence[float] | None,
        inherit_min: float,
    ) -> LinkScore: ...


class AnchorScorer:
    """pw_adaptive's scoring: :func:`pw_adaptive.core.links.score_link`."""

    def score(
        self,
        link: Link,
        query: Query,
        parent_relevance: float,
        *,
        inherit: float,
        floors: Mapping[Region, float] | None,
        weights: Sequence[float] | None,
        inherit_min: float,
    ) -> LinkScore:
        return score_link(
            link,
            query,
            parent_relevance,
            inherit=inherit,
            floors=floors,
            weights=weights,
            inherit_min=inherit_min,
        )


class BreadthFirstScorer:
    """Every link scores the same and none is blind: breadth-first order."""

    def score(
        self,
        link: Link,
        query: Query,
        parent_relevance: float,
        *,
        inherit: float,
        floors: Mapping[Region, float] | None,
        weights: Sequence[float] | None,
        inherit_min: float,
    ) -> LinkScore:
        return LinkScore(score=0.5, clue=0.5, blind=False, clue_source="")


class UrlKeywordScorer:
    """The share of query terms (with synonyms) found in the URL's words."""

    def score(
        self,
        link: Link,
        query: Query,
        parent_relevance: float,
        *,
        inherit: float,
        floors: Mapping[Region, float] | None,
        weights: Sequence[float] | None,
        inherit_min: float,
    ) -> LinkScore:
        share = query.hit_mask(url_words(link.url)).bit_count() / len(query)
        return LinkScore(score=share, clue=share, blind=share == 0.0, clue_source="url")
