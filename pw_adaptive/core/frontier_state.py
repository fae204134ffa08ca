"""The frontier's records: a queued entry, its checkpoint state, and the
journal of what changed between two checkpoints.

`Frontier.snapshot` returns a `FrontierState` and `Frontier.restore` takes
one; `Frontier.drain_changes` returns a `FrontierChanges` built from the
frontier's `ChangeJournal`. `pw_adaptive.crawling.checkpoint` stores both in SQLite.
`FrontierEntry` is re-exported by `pw_adaptive.core.frontier`, its home in the
public API.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["ChangeJournal", "FrontierChanges", "FrontierEntry", "FrontierState"]


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
    qualifier_only: bool = False
    """True when the link's clue named only words that qualify the query's
    topic (``LinkScore.qualifier_only``): a lead, but the stopper counts the
    page towards the cold give-up as if the link were blind."""


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


class ChangeJournal:
    """The rows a frontier changed since its last drain, for incremental
    checkpoints.

    Off (`token` None) until someone drains it, so crawls without a
    checkpoint pay nothing: the frontier records a change only while `token`
    is set. `token` identifies the drainer (see `Frontier.drain_changes`).
    """

    __slots__ = ("aliases", "dirty", "done", "token")

    def __init__(self) -> None:
        self.token: object | None = None
        """Who drains the journal; None while it is off."""
        self.dirty: set[str] = set()
        """URLs whose queue row changed: queued, re-scored, or left the queue."""
        self.done: list[str] = []
        """URLs newly marked done, in order."""
        self.aliases: dict[str, str] = {}
        """New aliases: alias -> the canonical URL it stands for."""

    def rows(
        self, queued: Mapping[str, FrontierEntry], in_flight: Mapping[str, FrontierEntry]
    ) -> tuple[tuple[FrontierEntry, ...], tuple[str, ...]]:
        """The changed queue rows: (entries to upsert, URLs to remove).

        An in-flight entry is saved as queued; a URL in neither mapping left
        the queue for good.
        """
        upserts: list[FrontierEntry] = []
        removed: list[str] = []
        for url in self.dirty:
            entry = queued.get(url) or in_flight.get(url)
            if entry is None:
                removed.append(url)
            else:
                upserts.append(entry)
        return tuple(upserts), tuple(removed)

    def restart(self, token: object | None) -> None:
        """Forget every recorded change and hand the journal to `token`
        (None: switch it off)."""
        self.token = token
        self.dirty = set()
        self.done = []
        self.aliases = {}
