"""Tests for pw_adaptive.core.politeness: per-host queues, delays and relaunches."""

from __future__ import annotations

import itertools

import pytest

from pw_adaptive.core.frontier_state import FrontierEntry
from pw_adaptive.core.politeness import HostScheduler, Item


def _entry(url: str, score: float = 0.5, seq: int = 0) -> FrontierEntry:
    return FrontierEntry(url, score, 1, False, None, "", seq)


_PUSHES = itertools.count()


def _item(entry: FrontierEntry) -> Item:
    return (-entry.score, entry.depth, entry.seq, next(_PUSHES), entry)


def _scheduler(
    host_delay: float, *entries: FrontierEntry
) -> tuple[HostScheduler, dict[str, FrontierEntry]]:
    queued = {entry.url: entry for entry in entries}
    scheduler = HostScheduler(host_delay, queued)
    for entry in entries:
        scheduler.add(_item(entry))
    return scheduler, queued


def _take(scheduler: HostScheduler, queued: dict[str, FrontierEntry], now: float) -> str | None:
    """Pop like the frontier does: the owner retires what it gets."""
    entry = scheduler.pop(now)
    if entry is None:
        return None
    del queued[entry.url]
    return entry.url


def test_best_ready_host_goes_first_and_a_fetched_host_waits_its_delay() -> None:
    scheduler, queued = _scheduler(
        1.0,
        _entry("https://a.edu/1", 0.9, 0),
        _entry("https://a.edu/2", 0.8, 1),
        _entry("https://b.edu/1", 0.1, 2),
    )
    assert _take(scheduler, queued, 10.0) == "https://a.edu/1"
    assert _take(scheduler, queued, 10.0) == "https://b.edu/1"
    assert _take(scheduler, queued, 10.5) is None
    assert scheduler.next_ready_in(10.5) == pytest.approx(0.5)
    assert _take(scheduler, queued, 11.0) == "https://a.edu/2"


def test_items_whose_entry_left_the_queue_are_skipped() -> None:
    low = _entry("https://a.edu/x", 0.2, 0)
    other = _entry("https://a.edu/y", 0.5, 1)
    scheduler, queued = _scheduler(0.0, low, other)
    raised = _entry("https://a.edu/x", 0.9, 0)
    queued[raised.url] = raised  # a re-push with a better score: `low` goes stale
    scheduler.add(_item(raised))
    del queued[other.url]  # aliased or marked done: retired by its owner
    assert scheduler.pop(0.0) is raised
    del queued[raised.url]
    assert scheduler.pop(0.0) is None
    assert scheduler.next_ready_in(0.0) == 0.0  # nothing live anywhere


def test_relaunch_goes_first_in_order_and_waits_for_its_host() -> None:
    scheduler, queued = _scheduler(
        2.0,
        _entry("https://a.edu/best", 0.9, 0),
        _entry("https://a.edu/second", 0.1, 1),
        _entry("https://b.edu/first", 0.2, 2),
        _entry("https://c.edu/gone", 0.3, 3),
    )
    scheduler.relaunch(["https://b.edu/first", "https://a.edu/second", "https://x.edu/unknown"])
    assert scheduler.relaunching() == ("https://b.edu/first", "https://a.edu/second")
    assert _take(scheduler, queued, 0.0) == "https://b.edu/first"
    assert _take(scheduler, queued, 0.0) == "https://a.edu/second"
    assert scheduler.relaunching() == ()
    assert _take(scheduler, queued, 0.0) == "https://c.edu/gone"
    assert _take(scheduler, queued, 0.0) is None  # a.edu waits: relaunched at 0.0
    assert _take(scheduler, queued, 2.0) == "https://a.edu/best"


def test_a_waiting_relaunch_holds_back_every_other_host() -> None:
    scheduler, queued = _scheduler(
        1.0,
        _entry("https://a.edu/1", 0.9, 0),
        _entry("https://a.edu/2", 0.1, 1),
        _entry("https://b.edu/1", 0.5, 2),
    )
    assert _take(scheduler, queued, 0.0) == "https://a.edu/1"
    scheduler.relaunch(["https://a.edu/2"])
    assert _take(scheduler, queued, 0.5) is None  # b.edu is ready, but not next
    assert scheduler.next_ready_in(0.5) == pytest.approx(0.5)
    assert _take(scheduler, queued, 1.0) == "https://a.edu/2"
    assert _take(scheduler, queued, 1.0) == "https://b.edu/1"


def test_hold_starts_the_delay_of_known_and_named_hosts_only_when_they_have_one() -> None:
    scheduler, queued = _scheduler(
        0.0, _entry("https://a.edu/1"), _entry("https://b.edu/1", 0.4, 1)
    )
    scheduler.set_crawl_delay("a.edu", 3.0)
    scheduler.set_crawl_delay("c.edu", 5.0)
    scheduler.hold(10.0, ["c.edu"])
    assert _take(scheduler, queued, 10.0) == "https://b.edu/1"
    assert _take(scheduler, queued, 12.9) is None
    assert _take(scheduler, queued, 13.0) == "https://a.edu/1"
    assert scheduler.crawl_delays() == {"a.edu": 3.0, "c.edu": 5.0}


def test_crawl_delay_set_while_waiting_moves_the_wake_up() -> None:
    scheduler, queued = _scheduler(
        1.0, _entry("https://a.edu/1", 0.9, 0), _entry("https://a.edu/2", 0.1, 1)
    )
    assert _take(scheduler, queued, 0.0) == "https://a.edu/1"
    scheduler.set_crawl_delay("a.edu", 4.0)
    assert _take(scheduler, queued, 1.0) is None  # the old wake-up is superseded
    assert scheduler.next_ready_in(1.0) == pytest.approx(3.0)
    scheduler.set_crawl_delay("a.edu", 0.0)  # back to host_delay, from the last fetch
    assert _take(scheduler, queued, 1.0) == "https://a.edu/2"


def test_load_orders_like_adding_one_by_one() -> None:
    entries = [_entry(f"https://h{i % 3}.edu/{i}", (i * 7 % 10) / 10, i) for i in range(20)]
    one_by_one, queued_a = _scheduler(0.0, *entries)
    queued_b = {entry.url: entry for entry in entries}
    loaded = HostScheduler(0.0, queued_b)
    loaded.load(_item(entry) for entry in entries)
    assert [_take(loaded, queued_b, 0.0) for _ in entries] == [
        _take(one_by_one, queued_a, 0.0) for _ in entries
    ]


def test_a_reserved_request_starts_the_delay_and_waits_for_a_pending_one() -> None:
    a1, a2 = _entry("https://a.test/1", 0.9, 1), _entry("https://a.test/2", 0.8, 2)
    scheduler, queued = _scheduler(1.0, a1, a2)
    # A document of a.test requested at 10.0: the host's pages wait a second.
    assert scheduler.reserve("a.test", 10.0) == 0.0
    assert _take(scheduler, queued, 10.5) is None
    assert scheduler.next_ready_in(10.5) == pytest.approx(0.5)
    assert _take(scheduler, queued, 11.0) == "https://a.test/1"
    # A page popped at 11.0: the next document waits for the rest of the delay.
    assert scheduler.reserve("a.test", 11.25) == pytest.approx(0.75)
    assert scheduler.reserve("a.test", 12.0) == 0.0
    assert _take(scheduler, queued, 12.5) is None
    assert _take(scheduler, queued, 13.0) == "https://a.test/2"


def test_without_a_delay_a_reserved_request_never_waits() -> None:
    scheduler, queued = _scheduler(0.0, _entry("https://a.test/1"))
    assert scheduler.reserve("a.test", 5.0) == 0.0
    assert scheduler.reserve("a.test", 5.0) == 0.0
    assert _take(scheduler, queued, 5.0) == "https://a.test/1"
