"""The frontier: which URL to render next, and which ones never to render.

`Frontier.push` takes a discovered link through the filters in a fixed order
and either queues it or returns the reason it was skipped:

1. `"invalid_url"`: `canonicalize_url` rejected it;
2. `"duplicate_url"`: its canonical form is queued, being fetched, fetched, or
   a known alias of a fetched URL (a redirect source or target, a
   `rel=canonical` page). When it is still queued and the new score is higher,
   the queued entry takes the new score (see `push`);
3. `"out_of_scope"`: the `Scope` refuses it (without a scope: not http(s));
4. `"too_deep"`: `depth > max_depth`;
5. the `TrapDetector`'s reason (`"calendar"`, `"session_id"`, …).

Every skip is counted in `skipped`. Robots.txt is the crawler's business
(checked before `push`); `set_crawl_delay` lets it apply `Crawl-delay`.

`pop` returns the best queued entry whose host is not in its politeness delay:
higher score first, then shallower, then earlier discovery. It counts against
the page budget and moves the entry to "in flight" until `mark_done`.

Implementation: one binary heap per host holds `(-score, depth, seq, entry)`
tuples; a heap of hosts, keyed by each ready host's best tuple, picks the best
ready host, and a heap of `(ready_at, host)` wakes hosts whose delay has
passed. Re-pushes with a better score and URLs dropped as aliases leave stale
tuples behind that are skipped when they surface (lazy deletion), so push and
pop are O(log n). A second lazy heap over non-blind entries makes
`best_score` O(1) amortised.
"""

from __future__ import annotations

import heapq
import math
import time
from collections import Counter, deque
from dataclasses import dataclass

from pw_adaptive.traps import TrapDetector
from pw_adaptive.urls import Scope, canonicalize_url, url_host

__all__ = [
    "DUPLICATE_URL",
    "INVALID_URL",
    "OUT_OF_SCOPE",
    "TOO_DEEP",
    "Frontier",
    "FrontierChanges",
    "FrontierEntry",
    "FrontierState",
]

INVALID_URL = "invalid_url"
"""Skip reason: the URL could not be canonicalized."""
DUPLICATE_URL = "duplicate_url"
"""Skip reason: the canonical URL (or an alias of it) is already known."""
OUT_OF_SCOPE = "out_of_scope"
"""Skip reason: the scope refuses the URL."""
TOO_DEEP = "too_deep"
"""Skip reason: the link is deeper than `max_depth`."""


@dataclass(frozen=True, slots=True)
class FrontierEntry:
    """One queued URL and how it was found."""

    url: str
    """Canonical URL."""
    score: float
    """Link score in [0, 1]: higher is popped first."""
    depth: int
    """Links followed from the start URL (the start URL has depth 0)."""
    blind: bool
    """True when the link carried no clue, only its region's floor."""
    parent: str | None
    """Canonical URL of the page the link was found on; None for seeds."""
    text: str
    """The link's visible text (or accessible name), for reports."""
    seq: int
    """Discovery order, unique per frontier: the last tie-breaker."""


_Key = tuple[float, int, int]
"""(-score, depth, seq): smaller is better; unique per (URL, score)."""
_Item = tuple[float, int, int, FrontierEntry]
"""A host-heap tuple: the key, then the entry (never compared: seq is unique)."""
_Posted = tuple[float, int, int, str]
"""A ready-heap tuple: a host's best key, then the host."""


def _host_of_canonical(url: str) -> str:
    """`url_host` of a canonical URL, without canonicalizing it again.

    Canonical URLs always read `scheme://host[:port]/…` (lowercase host, no
    userinfo, default port dropped), so the host is the text between `://`
    and the next `/`: ten times cheaper than `url_host`, which parses.
    """
    start = url.find("://") + 3
    end = url.find("/", start)
    return url[start:end] if end >= 0 else url[start:]


class _Host:
    """Politeness state and queue of one host."""

    __slots__ = ("crawl_delay", "heap", "last_pop", "posted", "ready_at", "waiting")

    def __init__(self) -> None:
        self.heap: list[_Item] = []
        self.waiting = False
        """True while the host is in its delay; it then has no posted tuple."""
        self.ready_at = 0.0
        """When a waiting host becomes ready (monotonic seconds)."""
        self.posted: _Posted | None = None
        """The only valid tuple of this host in the ready heap (by identity)."""
        self.last_pop: float | None = None
        self.crawl_delay = 0.0


@dataclass(frozen=True, slots=True)
class FrontierState:
    """Everything needed to rebuild a frontier (see `Frontier.snapshot`).

    Politeness timers are not part of it: monotonic clock readings mean
    nothing in another process (after a restore, `hold_hosts` makes every
    host wait a full delay instead). Entries that were in flight are stored as
    queued, and not counted in `fetched`: their pages were never recorded;
    `in_flight` keeps the order they were launched in.
    """

    queued: tuple[FrontierEntry, ...]
    """Queued and in-flight entries, in discovery order."""
    done: tuple[str, ...]
    """Fetched canonical URLs, sorted."""
    aliases: tuple[tuple[str, str], ...]
    """(alias, canonical URL it stands for), sorted."""
    skipped: dict[str, int]
    fetched: int
    seq: int
    """Next discovery sequence number."""
    upgraded: int
    crawl_delays: dict[str, float]
    in_flight: tuple[str, ...] = ()
    """URLs of `queued` that were in flight, in launch order: a restored
    frontier pops them first, in that order (see `Frontier.restore`)."""


@dataclass(frozen=True, slots=True)
class FrontierChanges:
    """What changed since the previous `Frontier.drain_changes` call.

    Row-level changes (queued entries, done URLs, aliases) are deltas; the
    small scalar fields are the current values.
    """

    upserts: tuple[FrontierEntry, ...]
    """Entries added to the queue or whose score was raised."""
    removed: tuple[str, ...]
    """URLs that left the queue for good (fetched or aliased)."""
    done: tuple[str, ...]
    aliases: tuple[tuple[str, str], ...]
    skipped: dict[str, int]
    fetched: int
    seq: int
    upgraded: int
    crawl_delays: dict[str, float]
    in_flight: tuple[str, ...] = ()
    """The current value of `FrontierState.in_flight`."""


class Frontier:
    """Priority queue of URLs to render, with scope, depth, trap and URL dedup
    filters, per-host politeness and a page budget.

    Arguments:
        max_pages: `pop` returns None once this many entries were popped.
        max_depth: links deeper than this are skipped as `"too_deep"`
            (None: no limit).
        scope: which URLs belong to the crawl; None accepts any http(s) URL.
        traps: URL trap detector; None creates one with default settings
            (every crawl needs one, and the crawler reaches it as `traps`).
        host_delay: minimum seconds between two pops for the same host;
            `set_crawl_delay` can raise it per host.
    """

    def __init__(
        self,
        *,
        max_pages: int = 100,
        max_depth: int | None = None,
        scope: Scope | None = None,
        traps: TrapDetector | None = None,
        host_delay: float = 0.0,
    ) -> None:
        if max_pages < 0:
            raise ValueError(f"max_pages must be >= 0, got {max_pages}")
        if max_depth is not None and max_depth < 0:
            raise ValueError(f"max_depth must be >= 0 or None, got {max_depth}")
        if not host_delay >= 0.0:
            raise ValueError(f"host_delay must be >= 0, got {host_delay}")
        self.max_pages = max_pages
        self.max_depth = max_depth
        self.scope = scope
        self.traps: TrapDetector = traps if traps is not None else TrapDetector()
        self.host_delay = host_delay
        self.skipped: Counter[str] = Counter()
        """Skip reason -> number of `push` calls skipped for it."""
        self.fetched = 0
        """Entries popped so far (in flight or done): the budget used."""
        self.upgraded = 0
        """Re-pushes of a queued URL that raised its score."""
        self._seq = 0
        self._queued: dict[str, FrontierEntry] = {}
        self._in_flight: dict[str, FrontierEntry] = {}
        self._done: set[str] = set()
        self._aliases: dict[str, str] = {}
        self._trapped: dict[str, str] = {}
        self._hosts: dict[str, _Host] = {}
        self._ready: list[_Posted] = []
        self._waiting: list[tuple[float, str]] = []
        self._best: list[_Item] = []
        # Entries in flight when the restored snapshot was taken, in launch
        # order: popped before anything else (see `restore`).
        self._relaunch: deque[str] = deque()
        # Change journal for incremental checkpoints; off (None) until the
        # first drain_changes call, so crawls without a checkpoint pay nothing.
        self._change_token: object | None = None
        self._dirty: set[str] = set()
        self._new_done: list[str] = []
        self._new_aliases: dict[str, str] = {}

    # ------------------------------------------------------------------ push

    def push(
        self,
        url: str,
        *,
        score: float,
        depth: int,
        blind: bool = False,
        parent: str | None = None,
        text: str = "",
    ) -> str | None:
        """Queue `url` unless a filter refuses it; return the skip reason or None.

        The URL is canonicalized first; the filters and their order are in
        the module docstring, and every refusal is counted in `skipped`.

        Re-pushing a URL that is still queued returns `"duplicate_url"`, but
        when the new score is higher the queued entry is replaced by one with
        the new score, depth, blindness, parent and text and the *original*
        discovery `seq`: the best link to a page decides how soon it is
        fetched and how it is reported, and discovery order stays stable.
        Raises ValueError for a NaN score.
        """
        try:
            canonical = canonicalize_url(url)
        except ValueError:
            self.skipped[INVALID_URL] += 1
            return INVALID_URL
        return self.push_canonical(
            canonical, score=score, depth=depth, blind=blind, parent=parent, text=text
        )

    def push_canonical(
        self,
        url: str,
        *,
        score: float,
        depth: int,
        blind: bool = False,
        parent: str | None = None,
        text: str = "",
    ) -> str | None:
        """`push` for a URL that is already the output of `canonicalize_url`.

        Saves the canonicalization for callers that canonicalized the link
        anyway (to score or report it). Passing a non-canonical URL breaks
        URL dedup silently.
        """
        if math.isnan(score):
            raise ValueError(f"score is NaN for {url!r}")
        queued = self._queued.get(url)
        if queued is not None:
            if score > queued.score:
                self._upgrade(queued, score, depth, blind, parent, text)
            self.skipped[DUPLICATE_URL] += 1
            return DUPLICATE_URL
        if url in self._in_flight or url in self._done or url in self._aliases:
            self.skipped[DUPLICATE_URL] += 1
            return DUPLICATE_URL
        trapped = self._trapped.get(url)
        if trapped is not None:
            self.skipped[trapped] += 1
            return trapped
        if self.scope is not None:
            if not self.scope.allows(url):
                self.skipped[OUT_OF_SCOPE] += 1
                return OUT_OF_SCOPE
        elif not url.startswith(("http://", "https://")):
            self.skipped[OUT_OF_SCOPE] += 1
            return OUT_OF_SCOPE
        if self.max_depth is not None and depth > self.max_depth:
            self.skipped[TOO_DEEP] += 1
            return TOO_DEEP
        reason = self.traps.check(url)
        if reason is not None:
            # Remembered so that a trap URL linked from every page is judged
            # once: stateful detectors would otherwise count it again.
            self._trapped[url] = reason
            self.skipped[reason] += 1
            return reason
        seq = self._seq
        self._seq = seq + 1
        self._enqueue(FrontierEntry(url, float(score), depth, blind, parent, text, seq))
        return None

    def _upgrade(
        self,
        old: FrontierEntry,
        score: float,
        depth: int,
        blind: bool,
        parent: str | None,
        text: str,
    ) -> None:
        """Replace a queued entry by a better-scored one (old tuples go stale)."""
        self.upgraded += 1
        self._enqueue(FrontierEntry(old.url, float(score), depth, blind, parent, text, old.seq))

    def _enqueue(self, entry: FrontierEntry) -> None:
        url = entry.url
        self._queued[url] = entry
        item: _Item = (-entry.score, entry.depth, entry.seq, entry)
        host_name = _host_of_canonical(url)
        host = self._hosts.get(host_name)
        if host is None:
            host = self._hosts[host_name] = _Host()
        heapq.heappush(host.heap, item)
        if not entry.blind:
            heapq.heappush(self._best, item)
        if not host.waiting:
            posted = host.posted
            if posted is None or item[:3] < posted[:3]:
                self._post(host, host_name, item)
        if self._change_token is not None:
            self._dirty.add(url)

    def _post(self, host: _Host, host_name: str, item: _Item) -> None:
        """Make `item` the host's entry in the ready heap."""
        posted: _Posted = (item[0], item[1], item[2], host_name)
        host.posted = posted
        heapq.heappush(self._ready, posted)

    def _clean_top(self, host: _Host) -> _Item | None:
        """The host's best live tuple, after dropping stale ones."""
        heap = host.heap
        queued = self._queued
        while heap:
            item = heap[0]
            entry = item[3]
            if queued.get(entry.url) is entry:
                return item
            heapq.heappop(heap)
        return None

    # ------------------------------------------------------------------- pop

    def pop(self, now: float | None = None) -> FrontierEntry | None:
        """Take the best entry whose host is ready, or None.

        None when the budget is spent (`fetched == max_pages`), the queue is
        empty, or every host with queued entries is in its politeness delay
        (`next_ready_in` says for how long). `now` is a `time.monotonic()`
        reading, injectable for tests. The entry counts against the budget
        and stays in flight (known, not queued) until `mark_done`.
        """
        if self.fetched >= self.max_pages:
            return None
        if now is None:
            now = time.monotonic()
        self._wake(now)
        if self._relaunch_head() is not None:
            return self._pop_relaunch(now)
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
            entry = item[3]
            del self._queued[entry.url]
            self._in_flight[entry.url] = entry
            self.fetched += 1
            best = self._best
            if best and best[0] is item:
                heapq.heappop(best)
            host.last_pop = now
            delay = max(self.host_delay, host.crawl_delay)
            if delay > 0.0:
                host.waiting = True
                host.ready_at = now + delay
                heapq.heappush(self._waiting, (host.ready_at, host_name))
            else:
                top = self._clean_top(host)
                if top is not None:
                    self._post(host, host_name, top)
            return entry
        return None

    def _relaunch_head(self) -> FrontierEntry | None:
        """The next entry to relaunch after a restore, dropping those that left
        the queue meanwhile (aliased, marked done)."""
        relaunch = self._relaunch
        while relaunch:
            entry = self._queued.get(relaunch[0])
            if entry is not None:
                return entry
            relaunch.popleft()
        return None

    def _pop_relaunch(self, now: float) -> FrontierEntry | None:
        """Pop the next entry to relaunch once its host is ready, else None.

        The entry's tuples in the heaps go stale and are dropped lazily, as
        for any entry that leaves the queue.
        """
        entry = self._relaunch_head()
        assert entry is not None
        host_name = _host_of_canonical(entry.url)
        host = self._hosts[host_name]
        if host.waiting:
            return None  # relaunched in order: the others wait for this one
        self._relaunch.popleft()
        del self._queued[entry.url]
        self._in_flight[entry.url] = entry
        self.fetched += 1
        host.last_pop = now
        delay = max(self.host_delay, host.crawl_delay)
        if delay > 0.0:
            host.waiting = True
            host.posted = None
            host.ready_at = now + delay
            heapq.heappush(self._waiting, (host.ready_at, host_name))
        return entry

    def hold_hosts(self, now: float | None = None) -> None:
        """Start the politeness delay of every host fetched or queued, as if
        each had been fetched at `now`.

        A restored frontier knows no timers (see `FrontierState`): call this
        after `restore` so that a crawl resumed right after it stopped never
        fetches from a host sooner than its delay after the last fetch. Hosts
        without a delay are not affected.
        """
        if now is None:
            now = time.monotonic()
        names = set(self._hosts)
        names.update(_host_of_canonical(url) for url in self._done if "://" in url)
        for host_name in names:
            host = self._hosts.get(host_name)
            if host is None:
                host = self._hosts[host_name] = _Host()
            delay = max(self.host_delay, host.crawl_delay)
            if delay <= 0.0:
                continue
            host.last_pop = now
            host.waiting = True
            host.posted = None
            host.ready_at = now + delay
            heapq.heappush(self._waiting, (host.ready_at, host_name))

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

    def next_ready_in(self, now: float | None = None) -> float | None:
        """Seconds until `pop` can return a queued entry; None when none is queued.

        0.0 when an entry is ready now. Ignores the budget: check
        `budget_left` for that.
        """
        if not self._queued:
            return None
        if now is None:
            now = time.monotonic()
        self._wake(now)
        relaunch = self._relaunch_head()
        if relaunch is not None:
            host = self._hosts[_host_of_canonical(relaunch.url)]
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

    def set_crawl_delay(self, host: str, seconds: float) -> None:
        """Wait at least `seconds` between pops for `host` (robots Crawl-delay).

        `host` is a `url_host` value (`host[:port]`) or any URL on the host.
        The effective delay is the larger of this and `host_delay`; it
        applies from the host's last pop on.
        """
        if not seconds >= 0.0:
            raise ValueError(f"crawl delay must be >= 0, got {seconds}")
        host_name = url_host(host) if "://" in host else host.lower()
        state = self._hosts.get(host_name)
        if state is None:
            state = self._hosts[host_name] = _Host()
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

    # ------------------------------------------------------------ done, alias

    def mark_done(self, url: str, final_url: str | None = None) -> None:
        """Record that `url` was fetched; `final_url` (after redirects) becomes
        an alias of it (see `add_alias`).

        Also accepts URLs that were never popped (a page's `rel=canonical`
        target, for instance): they become known, and leave the queue if they
        were queued. URLs that cannot be canonicalized are recorded as given.
        """
        canonical = self._canonical_or_raw(url)
        tracking = self._change_token is not None
        if self._in_flight.pop(canonical, None) is not None and tracking:
            self._dirty.add(canonical)  # in-flight entries are saved as queued
        if canonical not in self._done:
            self._done.add(canonical)
            self._drop_queued(canonical)
            if tracking:
                self._new_done.append(canonical)
        if final_url is not None:
            self.add_alias(final_url, canonical)

    def add_alias(self, alias: str, url: str) -> None:
        """Make `alias` stand for the known URL `url` (redirect, rel=canonical).

        Later pushes of `alias` are skipped as `"duplicate_url"`, and a queued
        entry for `alias` leaves the queue: its content was fetched as `url`.
        Nothing happens when both canonicalize to the same URL, or when
        `alias` was fetched itself or is being fetched.
        """
        alias = self._canonical_or_raw(alias)
        url = self._canonical_or_raw(url)
        if alias == url or alias in self._done or alias in self._in_flight:
            return
        if alias in self._aliases:
            return
        self._aliases[alias] = url
        self._drop_queued(alias)
        if self._change_token is not None:
            self._new_aliases[alias] = url

    def _drop_queued(self, url: str) -> None:
        if self._queued.pop(url, None) is not None and self._change_token is not None:
            self._dirty.add(url)

    def is_known(self, url: str) -> bool:
        """True when `url` (canonicalized) is queued, in flight, done or an alias."""
        try:
            canonical = canonicalize_url(url)
        except ValueError:
            return False
        return (
            canonical in self._queued
            or canonical in self._in_flight
            or canonical in self._done
            or canonical in self._aliases
        )

    def resolve(self, url: str) -> str:
        """The canonical URL that `url` stands for (itself unless an alias)."""
        canonical = self._canonical_or_raw(url)
        return self._aliases.get(canonical, canonical)

    @staticmethod
    def _canonical_or_raw(url: str) -> str:
        try:
            return canonicalize_url(url)
        except ValueError:
            return url

    # ----------------------------------------------------------------- state

    def best_score(self) -> float:
        """Highest score among queued non-blind entries; 0.0 when there is none.

        O(1) amortised: the crawler calls it after every page.
        """
        best = self._best
        queued = self._queued
        while best:
            item = best[0]
            entry = item[3]
            if queued.get(entry.url) is entry:
                return entry.score
            heapq.heappop(best)
        return 0.0

    @property
    def budget_left(self) -> int:
        """Pops left before the budget is spent."""
        return max(0, self.max_pages - self.fetched)

    @property
    def in_flight(self) -> int:
        """Entries popped and not yet marked done."""
        return len(self._in_flight)

    @property
    def done_count(self) -> int:
        """URLs recorded by `mark_done`."""
        return len(self._done)

    def __len__(self) -> int:
        """Number of queued entries (not counting in-flight ones)."""
        return len(self._queued)

    def snapshot(self) -> FrontierState:
        """The frontier's persistent state (see `FrontierState`)."""
        entries = sorted((*self._queued.values(), *self._in_flight.values()), key=lambda e: e.seq)
        return FrontierState(
            queued=tuple(entries),
            done=tuple(sorted(self._done)),
            aliases=tuple(sorted(self._aliases.items())),
            skipped=dict(self.skipped),
            fetched=self.fetched - len(self._in_flight),
            seq=self._seq,
            upgraded=self.upgraded,
            crawl_delays=self._crawl_delays(),
            in_flight=self._launch_order(),
        )

    def _launch_order(self) -> tuple[str, ...]:
        """In-flight URLs in launch order, then those still waiting for their
        relaunch after a restore (they were launched before any in flight)."""
        waiting = tuple(url for url in self._relaunch if url in self._queued)
        return (*waiting, *self._in_flight)

    def restore(self, state: FrontierState) -> None:
        """Replace this frontier's contents by `state`.

        Settings (budget, scope, traps, delays) stay those of this object;
        the restored entries are not filtered again. The entries that were
        in flight (`state.in_flight`) are popped first, in the order they
        were launched, whatever their scores: a crawl resumed from a snapshot
        then launches pages in the order the interrupted crawl did. After
        them, pop order is the one the snapshotted frontier would have had.
        Host timers restart ready (see `hold_hosts`). The change journal is
        switched off until the next `drain_changes`.
        """
        self.skipped = Counter(state.skipped)
        self.fetched = state.fetched
        self.upgraded = state.upgraded
        self._seq = state.seq
        self._queued = {entry.url: entry for entry in state.queued}
        self._in_flight = {}
        self._done = set(state.done)
        self._aliases = dict(state.aliases)
        self._trapped = {}
        self._hosts = {}
        self._ready = []
        self._waiting = []
        self._best = []
        for entry in self._queued.values():
            item: _Item = (-entry.score, entry.depth, entry.seq, entry)
            host_name = _host_of_canonical(entry.url)
            host = self._hosts.get(host_name)
            if host is None:
                host = self._hosts[host_name] = _Host()
            host.heap.append(item)
            if not entry.blind:
                self._best.append(item)
        heapq.heapify(self._best)
        for host_name, host in self._hosts.items():
            heapq.heapify(host.heap)
            self._post(host, host_name, host.heap[0])
        for host_name, seconds in state.crawl_delays.items():
            self.set_crawl_delay(host_name, seconds)
        self._relaunch = deque(url for url in state.in_flight if url in self._queued)
        self.reset_changes()

    def drain_changes(self, token: object) -> FrontierChanges | None:
        """Changes since the previous call with the same `token`, then forget them.

        Returns None on the first call, and whenever the previous call used
        another token or `reset_changes`/`restore` came in between: the caller
        must then save a full `snapshot()`, taken right after this call. The
        journal is kept only while someone drains it.
        """
        if self._change_token is not token:
            self._change_token = token
            self._forget_changes()
            return None
        queued = self._queued
        in_flight = self._in_flight
        upserts: list[FrontierEntry] = []
        removed: list[str] = []
        for url in self._dirty:
            entry = queued.get(url) or in_flight.get(url)
            if entry is None:
                removed.append(url)
            else:
                upserts.append(entry)
        changes = FrontierChanges(
            upserts=tuple(upserts),
            removed=tuple(removed),
            done=tuple(self._new_done),
            aliases=tuple(self._new_aliases.items()),
            skipped=dict(self.skipped),
            fetched=self.fetched - len(in_flight),
            seq=self._seq,
            upgraded=self.upgraded,
            crawl_delays=self._crawl_delays(),
            in_flight=self._launch_order(),
        )
        self._forget_changes()
        return changes

    def reset_changes(self) -> None:
        """Drop the change journal: the next `drain_changes` returns None.

        Call it when changes were drained but could not be saved.
        """
        self._change_token = None
        self._forget_changes()

    def _forget_changes(self) -> None:
        self._dirty = set()
        self._new_done = []
        self._new_aliases = {}

    def _crawl_delays(self) -> dict[str, float]:
        return {name: host.crawl_delay for name, host in self._hosts.items() if host.crawl_delay}
