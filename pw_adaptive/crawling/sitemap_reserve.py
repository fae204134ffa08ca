"""A last look at the site's sitemap before the crawl stops.

A focused crawl follows the links a person would follow, best first, and
stops when the pages stop adding anything new. Sites repeat a topic in a
second section that no link from the first one leads to ("Admission
requirements" under *Student services* as well as under *Admissions*); the
stopper then ends the crawl before it ever sees that section. The site's
sitemap lists it, and its URL often names the topic.

So, at the start of a crawl, the start origin's sitemaps are read in the
background (robots.txt ``Sitemap:`` lines, else ``/sitemap.xml``; index files
followed up to ``MAX_SITEMAP_FILES`` files), and the pages whose URL words
name more than half of the query (:data:`SITEMAP_MIN_SHARE`) are kept in
reserve. They are not queued: where the site's own links reach them, the
crawl meets them with the words a person reads, in the order its links
suggest. The first time the stopper wants to end the crawl, the reserved
pages it has not reached, the best named first and at most the stopper's
patience of them, are queued, and the stop waits until they are rendered.
They are rendered next, before any other queued link whatever its score
(``Frontier.put_first``): the stop is waiting for them. One that brings
something new resets the stale run, as any page does; when none does, the
crawl ends as it would have, a few pages later. A crawl therefore never ends
earlier than it would without its sitemap.

A site's ``llms.txt`` (``core.llms_txt``; the origin's and the one in the
start page's folder) is read beside the sitemaps. Its entries say what each
page is about, in the site's words: an entry is judged as a link with the
entry's title as its text and its description as its teaser, and kept in
the same reserve when that clue exceeds :data:`SITEMAP_MIN_CLUE`. On a site
whose URLs are English and whose pages are Arabic, an Arabic query names
next to nothing in the URLs and much in the titles.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import asdict, dataclass, fields
from typing import Any, Final
from urllib.parse import urljoin

from pw_adaptive.core.frontier import QUEUED, Frontier
from pw_adaptive.core.links import CLUE_WEIGHTS
from pw_adaptive.core.llms_txt import MAX_LLMS_BYTES, LlmsEntry, parse_llms_txt
from pw_adaptive.core.sitemaps import MAX_SITEMAP_BYTES, MAX_SITEMAP_FILES, parse_sitemap
from pw_adaptive.pages import Fetcher, FetchResult

__all__ = [
    "MAX_RESERVE",
    "SITEMAP_MIN_CLUE",
    "SITEMAP_MIN_SHARE",
    "SITEMAP_PARENT",
    "SitemapReserve",
    "read_llms_txt",
    "read_sitemaps",
]

SITEMAP_MIN_SHARE: Final = 0.5
"""A sitemap URL is kept when its words name more than this share of the
query (weighted by the terms' weights, as a link's clue is): a link needs
less, because a person put it on a page among other words, while a sitemap
lists every page of the site and a URL that names one term of several
("/study/talks/...library...") is mostly noise."""

SITEMAP_MIN_CLUE: Final = CLUE_WEIGHTS["url"] * SITEMAP_MIN_SHARE
"""The clue (``score_link``) a sitemap URL must exceed: a URL clue is
``CLUE_WEIGHTS["url"]`` times the share of the query it names."""

READ_WAIT_S: Final = 10.0
"""Seconds a stop waits at most for sitemaps still being read (they are read
in the background from the start, so this only matters on a very slow site
or a crawl that stops within its first pages)."""

MAX_RESERVE: Final = 50
"""Sitemap and llms.txt pages kept in reserve at most, the best named first."""

SITEMAP_PARENT: Final = "sitemap"
"""The ``parent`` of a page queued from the sitemap (no page linked to it)."""


@dataclass(frozen=True)
class SitemapPages:
    """What a site's sitemaps list, all files together."""

    files: int
    """Sitemap files read."""
    urls: tuple[str, ...]
    """Page URLs, in the sitemaps' order."""
    languages: dict[str, str]
    """URL -> language tag, where the sitemap names it (``Sitemap.languages``)."""


async def _read(fetcher: Fetcher, url: str, max_bytes: int) -> FetchResult | None:
    """``url`` fetched, or None when it answered nothing usable (an error, a
    status of 400 or more, an empty body): a missing index reads as empty."""
    fetched = await fetcher.fetch(url, max_bytes=max_bytes)
    if fetched.status is None or fetched.status >= 400 or not fetched.body:
        return None
    return fetched


async def read_sitemaps(
    fetcher: Fetcher, start_url: str, named: Iterable[str], allows: Callable[[str], bool]
) -> SitemapPages:
    """The pages the sitemaps of ``start_url``'s origin list.

    ``named`` are the robots.txt's ``Sitemap:`` URLs; only those that
    ``allows`` (the crawl's scope) are read, and without any,
    ``/sitemap.xml`` is tried; an index's sitemaps likewise. The pages are
    returned as listed: the caller judges them. Failures read as empty
    sitemaps.
    """
    todo = [u for u in named if allows(u)] or [urljoin(start_url, "/sitemap.xml")]
    seen: set[str] = set()
    listed: dict[str, None] = {}
    languages: dict[str, str] = {}
    while todo and len(seen) < MAX_SITEMAP_FILES:
        url = todo.pop(0)
        if url in seen:
            continue
        seen.add(url)
        fetched = await _read(fetcher, url, MAX_SITEMAP_BYTES)
        if fetched is None:
            continue
        sitemap = parse_sitemap(fetched.body, fetched.url or url)
        todo += [u for u in sitemap.sitemaps if allows(u)]
        listed.update(dict.fromkeys(sitemap.urls))
        languages.update(sitemap.languages)
    return SitemapPages(len(seen), tuple(listed), languages)


async def read_llms_txt(
    fetcher: Fetcher, start_url: str, allows: Callable[[str], bool]
) -> tuple[LlmsEntry, ...]:
    """The pages the llms.txt files of ``start_url``'s site list: the
    origin's ``/llms.txt`` and the one in the start page's folder
    (``/ar/llms.txt`` for a crawl started at ``/ar/``), those that ``allows``
    (the crawl's scope and robots.txt). Missing files read as empty."""
    locations = dict.fromkeys(
        u for u in (urljoin(start_url, "/llms.txt"), urljoin(start_url, "llms.txt")) if allows(u)
    )
    entries: dict[str, LlmsEntry] = {}
    for url in locations:
        fetched = await _read(fetcher, url, MAX_LLMS_BYTES)
        if fetched is None:
            continue
        for entry in parse_llms_txt(fetched.body, fetched.url or url, fetched.content_type):
            entries.setdefault(entry.url, entry)
    return tuple(entries.values())


@dataclass
class SitemapStats:
    """What the sitemap gave a crawl (the summary's ``stop["sitemap"]``)."""

    files: int = 0
    """Sitemap files read."""
    urls: int = 0
    """Page URLs they listed."""
    llms_txt: int = 0
    """Pages the site's llms.txt files listed (``core.llms_txt``)."""
    reserved: int = 0
    """Of the pages of both, kept in reserve: their URL words, or their
    llms.txt title and description, name the query."""
    released: int = 0
    """Reserved pages queued when the stopper first wanted to stop."""

    def to_json(self) -> dict[str, int]:
        return asdict(self)


class SitemapReserve:
    """The sitemap's pages kept back until the stopper first wants to stop.

    ``start`` begins reading in the background (it overlaps the first
    renders); ``hold`` is asked with every stop reason and says whether the
    stop must wait; ``close`` cancels a read still running.
    """

    def __init__(self) -> None:
        self.stats = SitemapStats()
        self._task: asyncio.Future[list[tuple[str, float]]] | None = None
        self._released: set[str] = set()
        self._used = False

    @property
    def used(self) -> bool:
        """Whether the reserve was released (or found empty) at a first stop."""
        return self._used

    def state(self) -> dict[str, Any]:
        """A JSON-able snapshot, for checkpoints: the counts, whether the
        reserve was used, and the released pages not yet rendered."""
        return {
            "stats": self.stats.to_json(),
            "used": self._used,
            "released": sorted(self._released),
        }

    def restore(self, state: dict[str, Any] | None) -> None:
        """Load a snapshot made by :meth:`state` (None: nothing was saved, and a
        resumed crawl reads its sitemaps again)."""
        if state is None:
            return
        saved = state.get("stats", {})
        for name in (f.name for f in fields(SitemapStats)):
            setattr(self.stats, name, int(saved.get(name, 0)))
        self._used = bool(state.get("used", False))
        self._released = {str(url) for url in state.get("released", ())}

    def start(self, read: Awaitable[list[tuple[str, float]]]) -> None:
        """Read the reserve with ``read``: (URL, score) pairs, best first."""
        self._task = asyncio.ensure_future(read)

    async def hold(self, frontier: Frontier, limit: int) -> bool:
        """Whether a stop must wait: released pages are still queued or
        rendering. The first call releases up to ``limit`` reserved pages
        that the crawl has neither rendered nor skipped."""
        if not self._used:
            self._used = True
            self._release(frontier, await self._reserve(), limit)
        waiting = frontier.waiting
        self._released = {url for url in self._released if waiting(url)}
        return bool(self._released)

    def released_urls(self) -> frozenset[str]:
        """The released pages a stop is waiting for (as of the last ``hold``)."""
        return frozenset(self._released)

    async def _reserve(self) -> list[tuple[str, float]]:
        task, self._task = self._task, None
        if task is None:
            return []
        done, _ = await asyncio.wait({task}, timeout=READ_WAIT_S)
        if not done:
            task.cancel()
            return []
        if task.cancelled() or task.exception() is not None:
            return []  # a sitemap that cannot be read is no sitemap
        return task.result()

    def _release(self, frontier: Frontier, reserve: list[tuple[str, float]], limit: int) -> None:
        released: list[str] = []
        for url, score in reserve:
            if len(released) >= limit:
                break
            verdict = frontier.screen(url, 1)
            if verdict is not None and verdict != QUEUED:
                continue  # rendered, in flight, or refused by a filter
            frontier.place(url, score=score, depth=1, parent=SITEMAP_PARENT)
            released.append(url)
        # The stop waits for them: they are rendered next, not after every
        # better-scored link of the queue (their scores stay what they are).
        frontier.put_first(released)
        self._released = set(released)
        self.stats.released = len(released)

    async def close(self) -> None:
        """Cancel a read still running."""
        task, self._task = self._task, None
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
