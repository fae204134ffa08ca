"""A last look at a listing's further pages before the crawl stops saturated.

A site's news or post listing links its older items through numbered pages
(``core.listings``). Those links are blind: "2", "3", "»" say nothing of the
query, so a focused crawl rarely takes them, and a site whose answer is an
old post ("merit scholarships, the new rules", four years down the list)
ends ``saturated`` with the post's title never read.

So the crawl notes every queued page-number link it meets. The first time
the stopper wants to end the crawl as ``saturated``, the noted links still
queued, at most the stopper's patience of them in the order they were met,
are rendered next (``Frontier.put_first``), and the stop waits for them. A
listing page adds nothing itself; what it gives is the titles of the items
it lists, scored as links: one that names the query is queued with its
clue, and the stopper does not end a crawl while such a link waits. When
none does, the crawl ends as it would have, a few pages later.

Only ``saturated`` waits: a crawl that stops ``no_relevant_pages`` found
nothing of the query on the site (a listing's older pages would rarely
change that, and an absent topic must stay cheap), and one whose coverage
is reached has its answer.
"""

from __future__ import annotations

from typing import Any

from pw_adaptive.core.frontier import Frontier

__all__ = ["ListingReserve"]


class ListingReserve:
    """The page-number links a crawl met, for one last look at a saturated stop."""

    def __init__(self) -> None:
        self._noted: dict[str, None] = {}
        self._released: set[str] = set()
        self._used = False
        self.released = 0
        """Listing pages queued first when the stopper first wanted to stop."""

    def note(self, url: str) -> None:
        """Keep a queued page-number link (canonical URL), in the order met."""
        if not self._used:
            self._noted.setdefault(url, None)

    def hold(self, frontier: Frontier, limit: int) -> bool:
        """Whether a saturated stop must wait: released pages are still
        queued or rendering. The first call releases up to ``limit`` noted
        links that are still queued or rendering."""
        if not self._used:
            self._used = True
            # Queued, or already rendering (at a high concurrency): the stop
            # waits for both.
            urls = [url for url in self._noted if frontier.waiting(url)][:limit]
            self._released = set(urls)
            self.released = len(urls)
            frontier.put_first(url for url in urls if frontier.queued_score(url) is not None)
            self._noted.clear()
        waiting = frontier.waiting
        self._released = {url for url in self._released if waiting(url)}
        return bool(self._released)

    def released_urls(self) -> frozenset[str]:
        """The released pages a stop is waiting for (as of the last ``hold``)."""
        return frozenset(self._released)

    def state(self) -> dict[str, Any]:
        """A JSON-able snapshot, for checkpoints."""
        return {
            "used": self._used,
            "released": self.released,
            "noted": list(self._noted),
            "waiting": sorted(self._released),
        }

    def restore(self, state: dict[str, Any] | None) -> None:
        """Load a snapshot made by :meth:`state` (None: nothing was saved)."""
        if state is None:
            return
        self._used = bool(state.get("used", False))
        self.released = int(state.get("released", 0))
        self._noted = dict.fromkeys(str(url) for url in state.get("noted", ()))
        self._released = {str(url) for url in state.get("waiting", ())}
