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

Every skip is counted in `skipped`, the crawl's one skip counter: the crawler
counts its own reasons there too (`skip`). A crawler `screen`s a link through
these filters before it pays for scoring it and for robots.txt (the
crawler's business; `set_crawl_delay` lets it apply `Crawl-delay`), then
`place`s it: every link is filtered once. `push` does both.

`pop` returns the best queued entry whose host is not in its politeness delay:
higher score first, then shallower, then earlier discovery. It counts against
the page budget and moves the entry to "in flight" until `mark_done`.

Per-host queues and politeness delays live in `pw_adaptive.core.politeness`
(`HostScheduler`); the records (`FrontierEntry`, the checkpoint's
`FrontierState` and `FrontierChanges`, the change journal) in
`pw_adaptive.core.frontier_state`. Push and pop are O(log n); a lazy heap over
non-blind entries makes `best_score` O(1) amortised.
"""

from __future__ import annotations

import heapq
import math
import time
from collections import Counter
from collections.abc import Callable, Container, Iterable, Iterator

from pw_adaptive.core.frontier_state import (
    ChangeJournal,
    FrontierChanges,
    FrontierEntry,
    FrontierState,
)
from pw_adaptive.core.politeness import HostScheduler, Item, live_top
from pw_adaptive.core.scope import Scope
from pw_adaptive.core.traps import TrapDetector, TrapReason
from pw_adaptive.core.urls import canonicalize_url, host_of_canonical, url_host

__all__ = [
    "DUPLICATE_URL",
    "INVALID_URL",
    "OUT_OF_SCOPE",
    "QUEUED",
    "TOO_DEEP",
    "Frontier",
    "FrontierEntry",
]

INVALID_URL = "invalid_url"
"""Skip reason: the URL could not be canonicalized."""
DUPLICATE_URL = "duplicate_url"
"""Skip reason: the canonical URL (or an alias of it) is already known."""
OUT_OF_SCOPE = "out_of_scope"
"""Skip reason: the scope refuses the URL."""
TOO_DEEP = "too_deep"
"""Skip reason: the link is deeper than `max_depth`."""
QUEUED = "queued"
"""`Frontier.screen`'s verdict for a URL that is queued already: not a skip,
the link may still raise the queued entry's score (`place`)."""


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
        self.skipped: Counter[str] = Counter()
        """Skip reason -> number of `push` calls skipped for it."""
        self.fetched = 0
        """Entries popped so far (in flight or done): the budget used."""
        self.upgraded = 0
        """Re-pushes of a queued URL that raised its score."""
        self.demoted = 0
        """Queued URLs whose score was lowered (`demote`)."""
        self._seq = 0
        self._pushes = 0
        """Tuples pushed onto the heaps: their unique last key (`Item`)."""
        self._queued: dict[str, FrontierEntry] = {}
        self._in_flight: dict[str, FrontierEntry] = {}
        self._done: set[str] = set()
        self._aliases: dict[str, str] = {}
        self._trapped: dict[str, str] = {}
        self._hosts = HostScheduler(host_delay, self._queued)
        self._best: list[Item] = []
        self._journal = ChangeJournal()

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
        qualifier_only: bool = False,
    ) -> str | None:
        """Queue `url` unless a filter refuses it; return the skip reason or None.

        The URL is canonicalized first; the filters and their order are in
        the module docstring, and every refusal is counted in `skipped`.

        Re-pushing a URL that is still queued returns `"duplicate_url"`, but
        when the new score is higher the queued entry is replaced by one with
        the new score, depth, blindness, `qualifier_only`, parent and text and
        the *original* discovery `seq`: the best link to a page decides how
        soon it is fetched and how it is reported, and discovery order stays
        stable.
        Raises ValueError for a NaN score.
        """
        try:
            canonical = canonicalize_url(url)
        except ValueError:
            return self.skip(INVALID_URL)
        return self.push_canonical(
            canonical,
            score=score,
            depth=depth,
            blind=blind,
            parent=parent,
            text=text,
            qualifier_only=qualifier_only,
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
        qualifier_only: bool = False,
    ) -> str | None:
        """`push` for a URL that is already the output of `canonicalize_url`.

        Saves the canonicalization for callers that canonicalized the link
        anyway (to score or report it). Passing a non-canonical URL breaks
        URL dedup silently. The same as `screen` followed by `place`.
        """
        if math.isnan(score):
            raise ValueError(f"score is NaN for {url!r}")
        verdict = self.screen(url, depth)
        if verdict is not None and verdict != QUEUED:
            return verdict
        return self.place(
            url,
            score=score,
            depth=depth,
            blind=blind,
            parent=parent,
            text=text,
            qualifier_only=qualifier_only,
        )

    def screen(self, url: str, depth: int) -> str | None:
        """Run a canonical `url`, found at `depth`, through the filters without
        queueing it: None when it may be queued, `QUEUED` when it already is
        (`place` may raise its score), else the skip reason, counted in
        `skipped`. A crawler screens a link before it pays for scoring it
        and for its robots.txt, then `place`s it: every link is filtered once.
        The trap detector sees each URL it is asked about once: screen a URL
        once per sighting.
        """
        if url in self._queued:
            return QUEUED
        if url in self._in_flight or url in self._done or url in self._aliases:
            return self.skip(DUPLICATE_URL)
        trapped = self._trapped.get(url)
        if trapped is not None:
            return self.skip(trapped)
        if self.scope is not None:
            if not self.scope.allows_canonical(url):
                return self.skip(OUT_OF_SCOPE)
        elif not url.startswith(("http://", "https://")):
            return self.skip(OUT_OF_SCOPE)
        if self.max_depth is not None and depth > self.max_depth:
            return self.skip(TOO_DEEP)
        reason = self.traps.check(url)
        if reason is not None:
            # Remembered so that a trap URL linked from every page is judged
            # once: stateful detectors would otherwise count it again.
            self._trapped[url] = reason
            return self.skip(reason)
        return None

    def place(
        self,
        url: str,
        *,
        score: float,
        depth: int,
        blind: bool = False,
        parent: str | None = None,
        text: str = "",
        qualifier_only: bool = False,
    ) -> str | None:
        """Queue a canonical `url` that `screen` let through (None), or, when
        it is queued already, raise its score if the new one is higher and
        return `"duplicate_url"` (counted). Raises ValueError for a NaN score."""
        if math.isnan(score):
            raise ValueError(f"score is NaN for {url!r}")
        queued = self._queued.get(url)
        if queued is not None:
            if score > queued.score:
                self._upgrade(queued, score, depth, blind, parent, text, qualifier_only)
            return self.skip(DUPLICATE_URL)
        seq = self._seq
        self._seq = seq + 1
        self._enqueue(
            FrontierEntry(url, float(score), depth, blind, parent, text, seq, qualifier_only)
        )
        return None

    def skip(self, reason: str) -> str:
        """Count one skip for `reason` (the crawl's one skip counter: the
        crawler counts its own reasons, robots.txt or a media file, here too);
        returns `reason`."""
        self.skipped[reason] += 1
        return reason

    def _upgrade(
        self,
        old: FrontierEntry,
        score: float,
        depth: int,
        blind: bool,
        parent: str | None,
        text: str,
        qualifier_only: bool,
    ) -> None:
        """Replace a queued entry by a better-scored one (old tuples go stale)."""
        self.upgraded += 1
        self._enqueue(
            FrontierEntry(
                old.url, float(score), depth, blind, parent, text, old.seq, qualifier_only
            )
        )

    def demote(self, url: str, score: float, *, blind: bool, qualifier_only: bool = False) -> bool:
        """Lower the score of queued canonical `url` to `score` (and set its
        blindness and `qualifier_only`), keeping its place among equals: what made its score is
        known now to promise less. False, and nothing changed, when `url` is
        not queued or `score` is not lower. Raises ValueError for a NaN score."""
        if math.isnan(score):
            raise ValueError(f"score is NaN for {url!r}")
        queued = self._queued.get(url)
        if queued is None or score >= queued.score:
            return False
        self.demoted += 1
        self._enqueue(
            FrontierEntry(
                url,
                float(score),
                queued.depth,
                blind,
                queued.parent,
                queued.text,
                queued.seq,
                qualifier_only,
            )
        )
        return True

    def scale_queued(self, matches: Callable[[str], bool], factor: float) -> int:
        """Multiply by ``factor`` (in [0, 1)) the scores of the queued URLs that
        ``matches``, each keeping its blindness and its place among equals (as
        ``demote``); returns how many were lowered. Raises ValueError for a
        factor outside [0, 1)."""
        if not 0.0 <= factor < 1.0:
            raise ValueError(f"factor must be in [0, 1), got {factor}")
        lowered = 0
        for url, entry in list(self._queued.items()):
            if matches(url) and self.demote(
                url, entry.score * factor, blind=entry.blind, qualifier_only=entry.qualifier_only
            ):
                lowered += 1
        return lowered

    def _enqueue(self, entry: FrontierEntry) -> None:
        url = entry.url
        self._queued[url] = entry
        self._pushes += 1
        item: Item = (-entry.score, entry.depth, entry.seq, self._pushes, entry)
        self._hosts.add(item)
        if not entry.blind:
            heapq.heappush(self._best, item)
        journal = self._journal
        if journal.token is not None:
            journal.dirty.add(url)

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
        entry = self._hosts.pop(now)
        if entry is None:
            return None
        del self._queued[entry.url]
        self._in_flight[entry.url] = entry
        self.fetched += 1
        best = self._best
        if best and best[0][4] is entry:
            heapq.heappop(best)
        return entry

    def put_first(self, urls: Iterable[str]) -> None:
        """Pop the queued ones of `urls` before any other entry, in this order,
        whatever their scores (each once its host is ready): pages a stop
        waits for must not wait behind better-scored links. A snapshot keeps
        the order (they are relaunched first after a restore)."""
        self._hosts.put_first(urls)

    def learn_missing(self, url: str) -> list[FrontierEntry]:
        """``url`` answered 404 or 410: tell the trap detector, and when that
        makes its last path segment broken on the site, drop the queued URLs
        ending in it (``"broken_link"``). Returns the entries dropped."""
        if not self.traps.note_missing(url):
            return []
        return self.drop_queued(TrapReason.BROKEN_LINK, self.traps.is_broken)

    def drop_queued(self, reason: str, matches: Callable[[str], bool]) -> list[FrontierEntry]:
        """Take the queued URLs that ``matches`` out of the queue as skipped for
        ``reason`` (counted; later pushes of them are refused the same way),
        as when the trap detector learns a pattern after they were queued.
        Returns the entries dropped."""
        dropped = [entry for url, entry in self._queued.items() if matches(url)]
        for entry in dropped:
            self._drop_queued(entry.url)
            self._trapped[entry.url] = reason
            self.skip(reason)
        return dropped

    def requeue(self, entry: FrontierEntry) -> None:
        """Put back an entry that `pop` returned and that was not rendered (a
        twin of it is being rendered): it no longer counts against the budget,
        and keeps its place in the order. Raises ValueError when `entry` is not
        in flight."""
        self._unpop(entry.url)
        self._enqueue(entry)

    def _unpop(self, url: str) -> None:
        """Take canonical `url` out of the flight and give back the budget
        `pop` took for it; ValueError when it is not in flight."""
        if self._in_flight.pop(url, None) is None:
            raise ValueError(f"{url!r} is not in flight")
        self.fetched -= 1

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
        self._hosts.hold(now, (host_of_canonical(url) for url in self._done if "://" in url))

    def reserve_host(self, url: str, now: float | None = None) -> float:
        """Seconds to wait before a plain request to ``url``'s host (an
        attachment): 0.0 when it may go now, and then the host's politeness
        delay starts as if a page of it had been popped. Without a delay for
        the host, always 0.0."""
        if now is None:
            now = time.monotonic()
        return self._hosts.reserve(url_host(url), now)

    def next_ready_in(self, now: float | None = None) -> float | None:
        """Seconds until `pop` can return a queued entry; None when none is queued.

        0.0 when an entry is ready now. Ignores the budget: check
        `budget_left` for that.
        """
        if not self._queued:
            return None
        if now is None:
            now = time.monotonic()
        return self._hosts.next_ready_in(now)

    def set_crawl_delay(self, host: str, seconds: float) -> None:
        """Wait at least `seconds` between pops for `host` (robots Crawl-delay).

        `host` is a `url_host` value (`host[:port]`) or any URL on the host.
        The effective delay is the larger of this and `host_delay`; it
        applies from the host's last pop on.
        """
        if not seconds >= 0.0:
            raise ValueError(f"crawl delay must be >= 0, got {seconds}")
        host_name = url_host(host) if "://" in host else host.lower()
        self._hosts.set_crawl_delay(host_name, seconds)

    @property
    def host_delay(self) -> float:
        """Minimum seconds between two pops for the same host."""
        return self._hosts.host_delay

    @host_delay.setter
    def host_delay(self, seconds: float) -> None:
        self._hosts.host_delay = seconds

    # ------------------------------------------------------------ done, alias

    def mark_done(self, url: str, final_url: str | None = None) -> None:
        """Record that `url` was fetched; `final_url` (after redirects) becomes
        an alias of it (see `add_alias`).

        Also accepts URLs that were never popped (a page's `rel=canonical`
        target, for instance): they become known, and leave the queue if they
        were queued. URLs that cannot be canonicalized are recorded as given.
        """
        canonical = self._canonical_or_raw(url)
        journal = self._journal
        tracking = journal.token is not None
        if self._in_flight.pop(canonical, None) is not None and tracking:
            journal.dirty.add(canonical)  # in-flight entries are saved as queued
        if canonical not in self._done:
            self._done.add(canonical)
            self._drop_queued(canonical)
            if tracking:
                journal.done.append(canonical)
        if final_url is not None:
            self.add_alias(final_url, canonical)

    def release_as_alias(self, url: str, target: str) -> None:
        """`url` was popped but not rendered: it is `target`, a URL already
        fetched (a redirect seen without rendering). It leaves the flight, no
        longer counts against the budget, and becomes an alias of `target`.
        Raises ValueError when `url` is not in flight."""
        canonical = self._canonical_or_raw(url)
        self._unpop(canonical)
        if self._journal.token is not None:
            self._journal.dirty.add(canonical)  # no longer saved as queued
        self.add_alias(canonical, target)

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
        if self._journal.token is not None:
            self._journal.aliases[alias] = url

    def _drop_queued(self, url: str) -> None:
        if self._queued.pop(url, None) is not None and self._journal.token is not None:
            self._journal.dirty.add(url)

    def is_known(self, url: str) -> bool:
        """True when `url` (canonicalized) is queued, in flight, done or an alias."""
        try:
            canonical = canonicalize_url(url)
        except ValueError:
            return False
        return self.knows(canonical)

    def queued_urls(self) -> list[str]:
        """The URLs waiting in the queue (not in flight), in no particular order."""
        return list(self._queued)

    def pending_links(self) -> Iterator[tuple[str, str | None]]:
        """(URL, the page it was found on) of every entry queued or in flight,
        in no particular order. O(queued): for a question asked rarely."""
        for entries in (self._queued, self._in_flight):
            for entry in entries.values():
                yield entry.url, entry.parent

    def knows(self, canonical: str) -> bool:
        """`is_known` for a URL that is already canonical (no canonicalization)."""
        return (
            canonical in self._queued
            or canonical in self._in_flight
            or canonical in self._done
            or canonical in self._aliases
        )

    def waiting(self, canonical: str) -> bool:
        """Whether a canonical URL is queued or in flight (not yet done)."""
        return canonical in self._queued or canonical in self._in_flight

    def queued_score(self, canonical: str) -> float | None:
        """The score of a queued (not yet popped) canonical URL, or None."""
        entry = self._queued.get(canonical)
        return None if entry is None else entry.score

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
        top = live_top(self._best, self._queued)
        return 0.0 if top is None else top[4].score

    def best_score_except(self, urls: Container[str]) -> float:
        """:meth:`best_score` among the queued non-blind entries whose URL is
        not in ``urls``. O(queued): for a question asked rarely."""
        return max(
            (
                entry.score
                for url, entry in self._queued.items()
                if not entry.blind and url not in urls
            ),
            default=0.0,
        )

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
            crawl_delays=self._hosts.crawl_delays(),
            in_flight=self._launch_order(),
        )

    def _launch_order(self) -> tuple[str, ...]:
        """In-flight URLs in launch order, then those still waiting for their
        relaunch after a restore (they were launched before any in flight)."""
        return (*self._hosts.relaunching(), *self._in_flight)

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
        self._hosts = HostScheduler(self.host_delay, self._queued)
        items: list[Item] = [
            (-e.score, e.depth, e.seq, push, e) for push, e in enumerate(self._queued.values())
        ]
        self._pushes = len(items)
        self._hosts.load(items)
        self._best = [item for item in items if not item[4].blind]
        heapq.heapify(self._best)
        for host_name, seconds in state.crawl_delays.items():
            self.set_crawl_delay(host_name, seconds)
        self._hosts.relaunch(state.in_flight)
        self.reset_changes()

    def drain_changes(self, token: object) -> FrontierChanges | None:
        """Changes since the previous call with the same `token`, then forget them.

        Returns None on the first call, and whenever the previous call used
        another token or `reset_changes`/`restore` came in between: the caller
        must then save a full `snapshot()`, taken right after this call. The
        journal is kept only while someone drains it.
        """
        journal = self._journal
        if journal.token is not token:
            journal.restart(token)
            return None
        upserts, removed = journal.rows(self._queued, self._in_flight)
        changes = FrontierChanges(
            upserts=upserts,
            removed=removed,
            done=tuple(journal.done),
            aliases=tuple(journal.aliases.items()),
            skipped=dict(self.skipped),
            fetched=self.fetched - len(self._in_flight),
            seq=self._seq,
            upgraded=self.upgraded,
            crawl_delays=self._hosts.crawl_delays(),
            in_flight=self._launch_order(),
        )
        journal.restart(token)
        return changes

    def reset_changes(self) -> None:
        """Drop the change journal: the next `drain_changes` returns None.

        Call it when changes were drained but could not be saved.
        """
        self._journal.restart(None)
