"""Per-host politeness: which queued entry may be fetched now.

`HostScheduler` keeps one queue per host and the delay each host must wait
between two fetches (the frontier's `host_delay`, raised per host by robots
`Crawl-delay`). It answers "the best entry whose host is ready" and "how long
until one is"; after a restore, the entries that were in flight come first,
in launch order (`relaunch`). What is queued is the `Frontier`'s business:
the scheduler reads the frontier's `queued` mapping to tell live entries from
stale ones.

Implementation: one binary heap per host holds `(-score, depth, seq, push, entry)`
tuples; a heap of hosts, keyed by each ready host's best tuple, picks the best
ready host, and a heap of `(ready_at, host)` wakes hosts whose delay has
passed. Re-pushes with a better score and URLs dropped as aliases leave stale
tuples behind that are skipped when they surface (lazy deletion), so adding
and popping are O(log n).
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Iterable, Mapping

from pw_adaptive.core.frontier_state import FrontierEntry
from pw_adaptive.core.urls import host_of_canonical

__all__ = ["HostScheduler", "Item", "live_top"]

Item = tuple[float, int, int, int, FrontierEntry]
"""A host-heap tuple: the key `(-score, depth, seq)`, smaller is better, then
the frontier's count of tuples pushed, then the entry. The count is unique,
so the entry is never compared: a URL demoted and raised back to an earlier
score has two tuples with the same key (the older one stale), whose entries
may differ in their link text or parent."""
_Posted = tuple[float, int, int, str]
"""A ready-heap tuple: a host's best key, then the host."""


def live_top(heap: list[Item], queued: Mapping[str, FrontierEntry]) -> Item | None:
    """The best live tuple of a lazily deleted ``heap``: stale tuples (their
    entry no longer the one ``queued`` holds for the URL) are popped on the way."""
    while heap:
        item = heap[0]
        entry = item[4]
        if queued.get(entry.url) is entry:
            return item
        heapq.heappop(heap)
    return None


class _Host:
    """Politeness state and queue of one host."""

    __slots__ = ("crawl_delay", "heap", "last_pop", "posted", "ready_at", "waiting")

    def __init__(self) -> None:
        self.heap: list[Item] = []
        self.waiting = False
        """True while the host is in its delay; it then has no posted tuple."""
        self.ready_at = 0.0
        """When a waiting host becomes ready (monotonic seconds)."""
        self.posted: _Posted | None = None
        """The only valid tuple of this host in the ready heap (by identity)."""
        self.last_pop: float | None = None
        self.crawl_delay = 0.0


class HostScheduler:
    """Per-host queues of `Item`s and per-host politeness delays.

    An item is live while `queued[entry.url] is entry`; the owner retires an
    item by removing or replacing its entry in `queued`, and the scheduler
    drops it when it surfaces. Times are `time.monotonic()` readings.

    Arguments:
        host_delay: minimum seconds between two fetches from one host;
            `set_crawl_delay` can raise it per host.
        queued: the owner's canonical URL -> queued entry mapping, read only.
    """

    def __init__(self, host_delay: float, queued: Mapping[str, FrontierEntry]) -> None:
        self.host_delay = host_delay
        self._queued = queued
        self._hosts: dict[str, _Host] = {}
        self._ready: list[_Posted] = []
        self._waiting: list[tuple[float, str]] = []
        self._relaunch: deque[str] = deque()

    def _host(self, host_name: str) -> _Host:
        host = self._hosts.get(host_name)
        if host is None:
            host = self._hosts[host_name] = _Host()
        return host

    def add(self, item: Item) -> None:
        """Queue `item` under its URL's host."""
        host_name = host_of_canonical(item[4].url)
        host = self._hosts.get(host_name)  # `_host` inlined: once per push
        if host is None:
            host = self._hosts[host_name] = _Host()
        heapq.heappush(host.heap, item)
        if not host.waiting:
            posted = host.posted
            if posted is None or item[:3] < posted[:3]:
                self._post(host, host_name, item)

    def load(self, items: Iterable[Item]) -> None:
        """Queue many items into an empty scheduler at once (heapify: O(n))."""
        for item in items:
            self._host(host_of_canonical(item[4].url)).heap.append(item)
        for host_name, host in self._hosts.items():
            heapq.heapify(host.heap)
            self._post(host, host_name, host.heap[0])

    def _post(self, host: _Host, host_name: str, item: Item) -> None:
        """Make `item` the host's entry in the ready heap."""
        posted: _Posted = (item[0], item[1], item[2], host_name)
        host.posted = posted
        heapq.heappush(self._ready, posted)

    def _clean_top(self, host: _Host) -> Item | None:
        """The host's best live tuple, after dropping stale ones."""
        return live_top(host.heap, self._queued)

    def relaunch(self, urls: Iterable[str]) -> None:
        """Pop the queued ones of `urls` before anything else, in this order,
        whatever their scores, each once its host is ready (the entries in
        flight when a restored snapshot was taken, in launch order)."""
        self._relaunch = deque(url for url in urls if url in self._queued)

    def put_first(self, urls: Iterable[str]) -> None:
        """Pop the queued ones of `urls` after those already waiting to be
        relaunched and before anything else, in this order, whatever their
        scores, each once its host is ready."""
        self._relaunch.extend(url for url in urls if url in self._queued)

    def relaunching(self) -> tuple[str, ...]:
        """The URLs still waiting for their relaunch, in order."""
        return tuple(url for url in self._relaunch if url in self._queued)

    def _relaunch_head(self) -> FrontierEntry | None:
        """The next entry to relaunch, dropping those that left the queue
        meanwhile (aliased, marked done)."""
        relaunch = self._relaunch
        while relaunch:
            entry = self._queued.get(relaunch[0])
            if entry is not None:
                return entry
            relaunch.popleft()
        return None

    def pop(self, now: float) -> FrontierEntry | None:
        """Take the next entry to relaunch, else the best live entry of the
        best ready host; None when its host waits, or no host is ready.

        The entry leaves its host's queue (the owner still has to retire it
        from `queued`) and the host starts its delay.
        """
        self._wake(now)
        entry = self._relaunch_head()
        if entry is not None:
            if not self._claim(entry.url, now):
                return None  # relaunched in order: the others wait for this one
            self._relaunch.popleft()
            return entry
        ready = self._ready
        while ready:
            posted = heapq.heappop(ready)
            host_name = posted[3]
            host = self._hosts[host_name]
            if posted is not host.posted:
                continue  # superseded by a better tuple, or the host is waiting
            host.posted = None
            item = self._clean_top(host)
            if item is None:
                continue
            if item[0] != posted[0] or item[2] != posted[2]:
                self._post(host, host_name, item)  # the posted entry left the queue
                continue
            heapq.heappop(host.heap)
            host.last_pop = now
            delay = max(self.host_delay, host.crawl_delay)
            if delay > 0.0:
                host.waiting = True
                host.ready_at = now + delay
                heapq.heappush(self._waiting, (host.ready_at, host_name))
            else:
                # The popped entry is still in `queued`, but its only tuple
                # just left the heap: the live tops are the same as after
                # the owner retires it.
                top = self._clean_top(host)
                if top is not None:
                    self._post(host, host_name, top)
            return item[4]
        return None

    def _claim(self, url: str, now: float) -> bool:
        """Fetch `url` out of turn if its host is ready: start the host's delay
        and return True; False while the host waits.

        The entry's tuples stay in the heaps and go stale once the owner
        retires the entry from `queued`, as for any entry that leaves it.
        """
        host_name = host_of_canonical(url)
        host = self._hosts[host_name]
        if host.waiting:
            return False
        self._start_delay(host, host_name, now)
        return True

    def _start_delay(self, host: _Host, host_name: str, now: float) -> None:
        """`host` is fetched from at `now`: its delay, if it has one, starts."""
        host.last_pop = now
        delay = max(self.host_delay, host.crawl_delay)
        if delay > 0.0:
            host.waiting = True
            host.posted = None
            host.ready_at = now + delay
            heapq.heappush(self._waiting, (host.ready_at, host_name))

    def reserve(self, host_name: str, now: float) -> float:
        """A request to `host_name` that is not a page (a linked document):
        while the host waits, the seconds left (nothing changes); else 0.0,
        and the host's delay starts as for a popped page, so the next page
        from the host waits for it too."""
        host = self._host(host_name)
        if host.waiting:
            if host.ready_at > now:
                return host.ready_at - now
            self._wake(now)  # its delay is over: back among the ready hosts
        self._start_delay(host, host_name, now)
        return 0.0

    def hold(self, now: float, host_names: Iterable[str] = ()) -> None:
        """Start the delay of every known host and of `host_names`, as if each
        had been fetched at `now`. Hosts without a delay are not affected."""
        names = set(self._hosts)
        names.update(host_names)
        for host_name in names:
            host = self._host(host_name)
            if max(self.host_delay, host.crawl_delay) > 0.0:
                self._start_delay(host, host_name, now)

    def _wake(self, now: float) -> None:
        """Move hosts whose delay has passed back to the ready heap."""
        waiting = self._waiting
        while waiting and waiting[0][0] <= now:
            ready_at, host_name = heapq.heappop(waiting)
            host = self._hosts[host_name]
            if not host.waiting or host.ready_at != ready_at:
                continue  # superseded by set_crawl_delay
            host.waiting = False
            top = self._clean_top(host)
            if top is not None:
                self._post(host, host_name, top)

    def next_ready_in(self, now: float) -> float:
        """Seconds until `pop` can return an entry: 0.0 when one is ready now,
        or when no host holds a live entry."""
        self._wake(now)
        relaunch = self._relaunch_head()
        if relaunch is not None:
            host = self._hosts[host_of_canonical(relaunch.url)]
            return max(0.0, host.ready_at - now) if host.waiting else 0.0
        ready = self._ready
        while ready:
            posted = ready[0]
            host = self._hosts[posted[3]]
            if posted is host.posted and self._clean_top(host) is not None:
                return 0.0
            heapq.heappop(ready)
            if posted is host.posted:
                host.posted = None
        soonest: float | None = None
        for ready_at, host_name in self._waiting:
            host = self._hosts[host_name]
            if (
                host.waiting
                and host.ready_at == ready_at
                and (soonest is None or ready_at < soonest)
                and self._clean_top(host) is not None
            ):
                soonest = ready_at
        return 0.0 if soonest is None else max(0.0, soonest - now)

    def set_crawl_delay(self, host_name: str, seconds: float) -> None:
        """Wait at least `seconds` (>= 0) between fetches from `host_name`
        (`host[:port]`).

        The effective delay is the larger of this and `host_delay`; it
        applies from the host's last fetch on.
        """
        state = self._host(host_name)
        state.crawl_delay = float(seconds)
        if state.last_pop is None:
            return
        ready_at = state.last_pop + max(self.host_delay, state.crawl_delay)
        if state.waiting and ready_at == state.ready_at:
            return
        state.waiting = True
        state.posted = None
        state.ready_at = ready_at
        heapq.heappush(self._waiting, (ready_at, host_name))

    def crawl_delays(self) -> dict[str, float]:
        """Host -> crawl delay, for the hosts given a non-zero one."""
        return {name: host.crawl_delay for name, host in self._hosts.items() if host.crawl_delay}
