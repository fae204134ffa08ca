"""Learn which of the query's words a site uses as a section name that leads nowhere.

A word in a parent segment of a URL's path names the section the page sits
in, and every page of that section shares it ("/unmsm/pregrado/plan-2018/
cfo601/"). When the word only qualifies the query's topic ("pregrado" in
"becas para estudiantes de pregrado", where the topic is "becas"), a link
whose sole clue is that word promises a page of the section, not one of the
topic. Often that is the way in: a department's course pages under
"/marine-biology/" for "marine biology field trip cost". Sometimes it is a
course catalogue: on the real corpus a crawl for scholarships fetched 58 course
pages in a row, each with "pregrado" in its path and each judged irrelevant,
before it opened the blog post that answers it. Zeroing such clues outright
cost the fixtures' field-trip task its answer, so the crawl learns it instead.

``SectionWords`` watches the pages fetched: for each qualifier of a topical
query (:attr:`~pw_adaptive.core.query.Query.topical`) that a page's URL holds in
a parent segment and not in its last one, a page below ``MIN_RELEVANCE``
counts a miss; a page at or above it marks the word as leading somewhere, for
good. After ``patience`` misses and no such page, the word is *spent*: the
crawler scores links as if their URLs did not hold it in a parent segment
(:func:`mask_section_words`), and scores the links it had queued on its
strength again (``CrawlSettings.section_words``).

Pure and deterministic; its state is saved in the crawl checkpoint.
"""

from __future__ import annotations

import functools
from typing import Any, Final
from urllib.parse import quote, unquote, urlsplit, urlunsplit

from pw_adaptive.core.query import Query
from pw_adaptive.core.relevance import MIN_RELEVANCE, route_or_path, url_words

__all__ = [
    "SECTION_PATIENCE",
    "SectionWords",
    "mask_section_words",
    "qualifiers_of",
    "section_terms",
]

SECTION_PATIENCE: Final = 10
"""Irrelevant pages under a section word, with none relevant, before the word
is spent: the stopper's cold patience (twice its patience of 5). On the
fixtures' field-trip task two pages under "/marine-biology/" precede the
answer; on the real corpus's scholarship task 56 course pages would follow."""

_MASK: Final = "_"
"""What a spent word's segment becomes in the URL a link is scored by."""


@functools.lru_cache(maxsize=64)
def qualifiers_of(query: Query) -> int:
    """The query's qualifier terms as a bit mask: terms that say something
    specific (prior weight 1) but name no topic of the lexicon, in a query
    that names one. 0 when the query names no topic, or only topics."""
    weights = query.term_weights
    topical = query.topical
    if not any(topical[i] for i, w in enumerate(weights) if w >= 1.0):
        return 0
    return sum(1 << i for i, w in enumerate(weights) if w >= 1.0 and not topical[i])


def _segments(path: str) -> list[str]:
    return [segment for segment in path.split("/") if segment]


@functools.lru_cache(maxsize=8192)
def section_terms(query: Query, url: str) -> int:
    """The qualifiers of ``query`` that ``url`` holds in a parent segment of
    its path (or hash route) and not in its last segment. Asked of every
    link the crawl scores, and a site's menus repeat the same links: cached."""
    qualifiers = qualifiers_of(query)
    if not qualifiers:
        return 0
    _, path = route_or_path(url)
    segments = _segments(path)
    if len(segments) < 2:
        return 0
    leaf = query.hit_mask(url_words("/" + segments[-1])) & qualifiers
    parents = query.hit_mask(url_words("/" + "/".join(segments[:-1]))) & qualifiers
    return parents & ~leaf


def mask_section_words(query: Query, url: str, spent: int) -> str:
    """``url`` with every parent segment of its path (or hash route) that names
    one of the ``spent`` terms replaced by ``_``: the URL a link is scored by
    once those words are known to lead nowhere as section names. ``url``
    itself when there is nothing to mask."""
    if not spent or not section_terms(query, url) & spent:
        return url
    is_route, path = route_or_path(url)
    segments = path.split("/")
    last = max(i for i, segment in enumerate(segments) if segment)
    for i in range(last):
        segment = segments[i]
        if segment and query.hit_mask(url_words("/" + unquote(segment))) & spent:
            segments[i] = _MASK
    masked = "/".join(segments)
    parts = urlsplit(url)
    if is_route:
        query_part = parts.fragment.partition("?")
        fragment = masked + (query_part[1] + query_part[2])
        return urlunsplit(parts._replace(fragment=fragment))
    return urlunsplit(parts._replace(path=quote(unquote(masked), safe="/%_")))


class SectionWords:
    """Qualifier words of the query seen to name sections that lead nowhere.

    ``patience``: irrelevant pages under a word, with none relevant, before
    it is spent (default :data:`SECTION_PATIENCE`)."""

    def __init__(self, query: Query, patience: int = SECTION_PATIENCE) -> None:
        if patience < 1:
            raise ValueError(f"patience must be >= 1, got {patience}")
        self._query = query
        self._patience = patience
        self._misses = [0] * len(query)
        self._led = 0  # terms under which a relevant page was found
        self.spent = 0
        """The spent terms, as a bit mask."""

    def observe(self, url: str, relevance: float) -> int:
        """Count the page at ``url`` whose relevance is ``relevance``; returns
        the terms this page spent (a bit mask, 0 for none)."""
        terms = section_terms(self._query, url) & ~self.spent
        if not terms:
            return 0
        if relevance >= MIN_RELEVANCE:
            self._led |= terms
            return 0
        newly = 0
        for i in range(len(self._misses)):
            if terms >> i & 1:
                self._misses[i] += 1
                if self._misses[i] >= self._patience and not self._led >> i & 1:
                    newly |= 1 << i
        self.spent |= newly
        return newly

    def state(self) -> dict[str, Any]:
        """A JSON-able snapshot, for checkpoints."""
        return {"misses": list(self._misses), "led": self._led, "spent": self.spent}

    def restore(self, state: dict[str, Any] | None) -> None:
        """Load a snapshot made by :meth:`state` for the same query (None: nothing)."""
        if not state:
            return
        misses = [int(n) for n in state["misses"]]
        if len(misses) != len(self._misses):
            raise ValueError("section words were saved for a query with another number of terms")
        self._misses = misses
        self._led = int(state["led"])
        self.spent = int(state["spent"])
