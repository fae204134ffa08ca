"""Tests for pw_adaptive.core.frontier: order, filters, dedup, budget, politeness."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pw_adaptive.core.frontier import QUEUED, Frontier, FrontierEntry
from pw_adaptive.core.scope import Scope
from pw_adaptive.core.traps import TrapDetector

START = "https://u.edu/"


class _CalendarTraps(TrapDetector):
    """Flags /calendar/ URLs and remembers what it was asked."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: list[str] = []

    def check(self, url: str) -> str | None:
        self.asked.append(url)
        return "calendar" if "/calendar/" in url else None


def _drain(frontier: Frontier, now: float = 0.0) -> list[FrontierEntry]:
    out: list[FrontierEntry] = []
    while (entry := frontier.pop(now)) is not None:
        out.append(entry)
    return out


def _urls(entries: list[FrontierEntry]) -> list[str]:
    return [entry.url for entry in entries]


def test_pops_by_score_then_depth_then_discovery() -> None:
    frontier = Frontier(max_pages=10)
    frontier.push("https://u.edu/low", score=0.1, depth=0)
    frontier.push("https://u.edu/deep", score=0.5, depth=3)
    frontier.push("https://u.edu/first", score=0.5, depth=1)
    frontier.push("https://u.edu/second", score=0.5, depth=1)
    frontier.push("https://u.edu/high", score=0.9, depth=5)
    assert _urls(_drain(frontier)) == [
        "https://u.edu/high",
        "https://u.edu/first",
        "https://u.edu/second",
        "https://u.edu/deep",
        "https://u.edu/low",
    ]


def test_entry_records_how_it_was_found() -> None:
    frontier = Frontier()
    frontier.push(
        "HTTPS://U.EDU/a?utm_source=x", score=0.4, depth=2, blind=True, parent=START, text="A"
    )
    entry = frontier.pop(0.0)
    assert entry == FrontierEntry("https://u.edu/a", 0.4, 2, True, START, "A", 0)


@pytest.mark.parametrize(
    "variant",
    [
        pytest.param("https://u.edu/housing?utm_source=news&utm_medium=mail", id="utm"),
        pytest.param("https://u.edu/housing#apply", id="anchor-fragment"),
        pytest.param("HTTPS://U.EDU:443/housing", id="case-and-port"),
        pytest.param("https://u.edu/x/../housing", id="dot-segments"),
    ],
)
def test_canonical_variants_are_duplicates(variant: str) -> None:
    frontier = Frontier()
    assert frontier.push("https://u.edu/housing", score=0.5, depth=1) is None
    assert frontier.push(variant, score=0.5, depth=1) == "duplicate_url"
    assert frontier.skipped["duplicate_url"] == 1
    assert len(frontier) == 1


def test_route_fragments_are_distinct_pages() -> None:
    frontier = Frontier()
    assert frontier.push("https://u.edu/#/housing", score=0.5, depth=1) is None
    assert frontier.push("https://u.edu/#/fees", score=0.5, depth=1) is None
    assert len(frontier) == 2


def test_duplicates_include_in_flight_and_done() -> None:
    frontier = Frontier()
    frontier.push("https://u.edu/a", score=0.5, depth=0)
    entry = frontier.pop(0.0)
    assert entry is not None
    assert frontier.push("https://u.edu/a", score=0.9, depth=0) == "duplicate_url"
    frontier.mark_done(entry.url)
    assert frontier.push("https://u.edu/a", score=0.9, depth=0) == "duplicate_url"
    assert frontier.skipped["duplicate_url"] == 2
    assert frontier.done_count == 1


def test_repush_with_higher_score_raises_priority() -> None:
    frontier = Frontier()
    frontier.push("https://u.edu/a", score=0.2, depth=2, text="old")
    frontier.push("https://u.edu/b", score=0.5, depth=1)
    assert frontier.push("https://u.edu/a", score=0.8, depth=1, text="better") == "duplicate_url"
    assert frontier.upgraded == 1
    assert len(frontier) == 2
    first = frontier.pop(0.0)
    assert first is not None
    assert (first.url, first.score, first.depth, first.text, first.seq) == (
        "https://u.edu/a",
        0.8,
        1,
        "better",
        0,
    )
    assert _urls(_drain(frontier)) == ["https://u.edu/b"]


def test_repush_with_lower_score_changes_nothing() -> None:
    frontier = Frontier()
    frontier.push("https://u.edu/a", score=0.6, depth=1, text="keep")
    frontier.push("https://u.edu/a", score=0.3, depth=0, text="worse")
    entry = frontier.pop(0.0)
    assert entry is not None and (entry.score, entry.text) == (0.6, "keep")
    assert frontier.upgraded == 0


def test_demote_lowers_a_queued_score_and_its_blindness() -> None:
    frontier = Frontier()
    frontier.push("https://u.edu/course", score=0.3, depth=2, text="CFO601")
    frontier.push("https://u.edu/blog", score=0.1, depth=1, blind=True)
    assert frontier.best_score() == 0.3
    assert not frontier.demote("https://u.edu/course", 0.4, blind=True)  # not lower
    assert not frontier.demote("https://u.edu/unknown", 0.0, blind=True)
    assert frontier.demote("https://u.edu/course", 0.08, blind=True)
    assert frontier.demoted == 1
    assert frontier.best_score() == 0.0  # nothing with a clue is queued now
    entries = _drain(frontier)
    assert _urls(entries) == ["https://u.edu/blog", "https://u.edu/course"]
    assert (entries[1].score, entries[1].blind, entries[1].text, entries[1].seq) == (
        0.08,
        True,
        "CFO601",
        0,
    )
    with pytest.raises(ValueError, match="NaN"):
        frontier.demote("https://u.edu/x", float("nan"), blind=False)


def test_a_demoted_url_raised_back_to_its_old_score_by_another_link_pops_once() -> None:
    # Its stale first tuple and its new one have the same key, and entries
    # that differ in their link text: the heaps must never compare them.
    frontier = Frontier()
    frontier.push("https://u.edu/other", score=0.12, depth=1, text="Other")
    frontier.push("https://u.edu/exams", score=0.12, depth=1, text="Exams", blind=True)
    assert frontier.demote("https://u.edu/exams", 0.10, blind=True)
    frontier.push("https://u.edu/exams", score=0.12, depth=1, text="Exam registration")
    assert frontier.best_score() == 0.12
    entries = _drain(frontier)
    assert _urls(entries) == ["https://u.edu/other", "https://u.edu/exams"]
    assert (entries[1].score, entries[1].text, entries[1].blind) == (
        0.12,
        "Exam registration",
        False,
    )
    assert frontier.best_score() == 0.0


def test_scale_queued_lowers_the_matching_entries_keeping_their_order() -> None:
    frontier = Frontier()
    frontier.push("https://u.edu/faculties/law/", score=0.4, depth=1, text="Law")
    frontier.push("https://u.edu/faculties/arts/", score=0.1, depth=1, blind=True)
    frontier.push("https://u.edu/housing/", score=0.2, depth=1, text="Housing")
    lowered = frontier.scale_queued(lambda url: "/faculties/" in url, 0.1)
    assert lowered == 2 and frontier.demoted == 2
    assert frontier.best_score() == 0.2
    entries = _drain(frontier)
    assert _urls(entries) == [
        "https://u.edu/housing/",
        "https://u.edu/faculties/law/",
        "https://u.edu/faculties/arts/",
    ]
    assert entries[1].score == pytest.approx(0.04) and not entries[1].blind
    assert entries[2].score == pytest.approx(0.01) and entries[2].blind
    assert frontier.scale_queued(lambda url: True, 0.5) == 0  # nothing queued
    with pytest.raises(ValueError, match="factor"):
        frontier.scale_queued(lambda url: True, 1.0)


def test_redirect_target_becomes_alias() -> None:
    frontier = Frontier()
    frontier.push("https://u.edu/old", score=0.5, depth=1)
    frontier.push("https://u.edu/new", score=0.1, depth=1)
    entry = frontier.pop(0.0)
    assert entry is not None
    frontier.mark_done(entry.url, final_url="https://u.edu/new?utm_campaign=x")
    # The queued copy of the redirect target left the queue, later links skip it.
    assert len(frontier) == 0
    assert frontier.push("https://u.edu/new", score=0.9, depth=1) == "duplicate_url"
    assert frontier.is_known("https://u.edu/new#top")
    assert frontier.knows("https://u.edu/new") and frontier.knows("https://u.edu/old")
    assert not frontier.knows("https://u.edu/other")
    assert frontier.resolve("https://u.edu/new") == "https://u.edu/old"


def test_rel_canonical_alias() -> None:
    frontier = Frontier()
    frontier.push("https://u.edu/page?view=print", score=0.5, depth=1)
    frontier.add_alias("https://u.edu/page?view=print", "https://u.edu/page")
    assert len(frontier) == 0
    assert frontier.push("https://u.edu/page?view=print", score=0.5, depth=1) == "duplicate_url"


def test_mark_done_of_a_queued_url_removes_it() -> None:
    frontier = Frontier()
    frontier.push("https://u.edu/a", score=0.5, depth=1)
    frontier.push("https://u.edu/b", score=0.4, depth=1)
    frontier.mark_done("https://u.edu/a")
    assert _urls(_drain(frontier)) == ["https://u.edu/b"]


def test_skips_are_counted_by_reason() -> None:
    traps = _CalendarTraps()
    frontier = Frontier(max_depth=2, scope=Scope(START), traps=traps)
    assert frontier.push("http://[broken", score=0.5, depth=1) == "invalid_url"
    assert frontier.push("https://other.org/a", score=0.5, depth=1) == "out_of_scope"
    assert frontier.push("mailto:x@u.edu", score=0.5, depth=1) in {"invalid_url", "out_of_scope"}
    assert frontier.push("https://u.edu/deep", score=0.5, depth=3) == "too_deep"
    assert frontier.push("https://u.edu/calendar/2031/01", score=0.5, depth=1) == "calendar"
    assert frontier.push("https://u.edu/calendar/2031/01", score=0.5, depth=1) == "calendar"
    assert frontier.push("https://u.edu/ok", score=0.5, depth=2) is None
    assert frontier.skipped["invalid_url"] + frontier.skipped["out_of_scope"] == 3
    assert frontier.skipped["too_deep"] == 1
    assert frontier.skipped["calendar"] == 2
    # The trap URL was judged once; the filters before traps kept the rest away.
    assert traps.asked == ["https://u.edu/calendar/2031/01", "https://u.edu/ok"]


def test_without_scope_only_http_is_allowed() -> None:
    frontier = Frontier()
    assert frontier.push("https://anywhere.org/x", score=0.5, depth=0) is None
    assert frontier.push("ftp://u.edu/file", score=0.5, depth=0) in {"invalid_url", "out_of_scope"}


def test_nan_score_is_an_error() -> None:
    with pytest.raises(ValueError, match="NaN"):
        Frontier().push("https://u.edu/a", score=float("nan"), depth=0)


def test_budget_limits_pops() -> None:
    frontier = Frontier(max_pages=2)
    for i in range(5):
        frontier.push(f"https://u.edu/{i}", score=0.5, depth=1)
    assert frontier.budget_left == 2
    assert len(_drain(frontier)) == 2
    assert frontier.fetched == 2 and frontier.budget_left == 0
    assert frontier.pop(0.0) is None
    assert len(frontier) == 3


def test_politeness_delay_per_host() -> None:
    frontier = Frontier(host_delay=1.0)
    frontier.push("https://a.edu/1", score=0.9, depth=0)
    frontier.push("https://a.edu/2", score=0.8, depth=0)
    frontier.push("https://b.edu/1", score=0.1, depth=0)
    assert _url(frontier.pop(10.0)) == "https://a.edu/1"
    # a.edu waits; the worse entry of a ready host goes first.
    assert _url(frontier.pop(10.1)) == "https://b.edu/1"
    assert frontier.pop(10.2) is None
    assert frontier.next_ready_in(10.2) == pytest.approx(0.8)
    assert _url(frontier.pop(11.0)) == "https://a.edu/2"
    assert frontier.next_ready_in(11.0) is None


def test_crawl_delay_raises_the_host_delay() -> None:
    frontier = Frontier(host_delay=0.5)
    frontier.set_crawl_delay("a.edu", 5.0)
    for i in range(3):
        frontier.push(f"https://a.edu/{i}", score=0.5, depth=0)
    assert frontier.pop(0.0) is not None
    assert frontier.pop(4.9) is None
    assert frontier.next_ready_in(4.0) == pytest.approx(1.0)
    assert frontier.pop(5.0) is not None


def test_crawl_delay_set_after_a_pop_applies_from_that_pop() -> None:
    frontier = Frontier()
    frontier.push("https://a.edu/1", score=0.5, depth=0)
    frontier.push("https://a.edu/2", score=0.5, depth=0)
    assert frontier.pop(0.0) is not None
    frontier.set_crawl_delay("https://a.edu/robots.txt", 2.0)
    assert frontier.pop(1.0) is None
    assert frontier.next_ready_in(1.0) == pytest.approx(1.0)
    assert frontier.pop(2.0) is not None


def test_next_ready_in_is_zero_when_ready_and_none_when_empty() -> None:
    frontier = Frontier(host_delay=3.0)
    assert frontier.next_ready_in(0.0) is None
    frontier.push("https://a.edu/1", score=0.5, depth=0)
    assert frontier.next_ready_in(0.0) == 0.0


def test_best_score_ignores_blind_entries() -> None:
    frontier = Frontier()
    assert frontier.best_score() == 0.0
    frontier.push("https://u.edu/menu", score=0.9, depth=1, blind=True)
    assert frontier.best_score() == 0.0
    frontier.push("https://u.edu/housing", score=0.6, depth=1)
    frontier.push("https://u.edu/fees", score=0.4, depth=1)
    assert frontier.best_score() == 0.6
    assert _drain_urls_until(frontier, "https://u.edu/housing")
    assert frontier.best_score() == 0.4
    frontier.push("https://u.edu/fees", score=0.7, depth=1)  # upgrade
    assert frontier.best_score() == 0.7


def test_best_score_except_leaves_out_the_urls_given() -> None:
    frontier = Frontier()
    frontier.push("https://u.edu/menu", score=0.9, depth=1, blind=True)
    frontier.push("https://u.edu/news", score=0.6, depth=1)
    frontier.push("https://u.edu/fees", score=0.4, depth=1)
    assert frontier.best_score_except(set()) == frontier.best_score() == 0.6
    assert frontier.best_score_except({"https://u.edu/news"}) == 0.4
    assert frontier.best_score_except({"https://u.edu/news", "https://u.edu/fees"}) == 0.0


def test_snapshot_restore_keeps_pop_order() -> None:
    original = Frontier(max_pages=50)
    for i in range(30):
        original.push(f"https://u.edu/p{i}", score=(i * 7 % 10) / 10, depth=i % 3, blind=i % 4 == 0)
    original.push("https://u.edu/p3", score=0.95, depth=0)  # upgrade
    in_flight = original.pop(0.0)
    done = original.pop(0.0)
    assert in_flight is not None and done is not None
    original.mark_done(done.url, "https://u.edu/final")
    restored = Frontier(max_pages=50)
    restored.restore(original.snapshot())
    assert restored.fetched == 1  # the in-flight entry is queued again
    assert restored.is_known("https://u.edu/final")
    assert restored.best_score() == in_flight.score  # in flight again, re-queued
    assert _urls(_drain(restored)) == [in_flight.url, *_urls(_drain(original))]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(min_value=0, max_value=40),
            st.floats(min_value=0.0, max_value=1.0, allow_nan=False),
            st.integers(min_value=0, max_value=4),
            st.booleans(),
        ),
        max_size=80,
    )
)
def test_pops_come_out_best_first(pushes: list[tuple[int, float, int, bool]]) -> None:
    frontier = Frontier(max_pages=1000)
    best: dict[str, float] = {}
    for page, score, depth, blind in pushes:
        url = f"https://h{page % 3}.edu/p{page}"
        frontier.push(url, score=score, depth=depth, blind=blind)
        best[url] = max(score, best.get(url, 0.0))
    entries = _drain(frontier)
    scores = [entry.score for entry in entries]
    assert scores == sorted(scores, reverse=True)
    assert {entry.url: entry.score for entry in entries} == best
    keys = [(-e.score, e.depth, e.seq) for e in entries]
    assert keys == sorted(keys)


def _url(entry: FrontierEntry | None) -> str | None:
    return None if entry is None else entry.url


def _drain_urls_until(frontier: Frontier, url: str) -> bool:
    while (entry := frontier.pop(0.0)) is not None:
        if entry.url == url:
            return True
    return False


def test_screen_then_place_filters_each_link_once() -> None:
    traps = _CalendarTraps()
    frontier = Frontier(max_pages=10, max_depth=2, scope=Scope(START), traps=traps)
    url = "https://u.edu/a"
    assert frontier.screen(url, 1) is None
    assert frontier.place(url, score=0.4, depth=1) is None
    # Placing what was screened runs no filter again: the trap detector saw it once.
    assert traps.asked == [url]
    assert frontier.screen(url, 1) == QUEUED
    assert frontier.place(url, score=0.9, depth=1) == "duplicate_url"  # the score was raised
    assert frontier.queued_score(url) == pytest.approx(0.9)
    assert frontier.screen("https://elsewhere.org/", 1) == "out_of_scope"
    assert frontier.screen("https://u.edu/deep", 3) == "too_deep"
    entry = frontier.pop(now=0.0)
    assert entry is not None and entry.url == url
    assert frontier.screen(url, 1) == "duplicate_url"  # in flight
    # One counter for every skip, the crawler's own reasons included.
    assert frontier.skip("robots") == "robots"
    assert dict(frontier.skipped) == {
        "duplicate_url": 2,
        "out_of_scope": 1,
        "too_deep": 1,
        "robots": 1,
    }
    assert frontier.screen("https://u.edu/calendar/2031/", 1) == "calendar"
    assert frontier.screen("https://u.edu/calendar/2031/", 1) == "calendar"  # remembered
    assert traps.asked == [url, "https://u.edu/calendar/2031/"]
    assert frontier.skipped["calendar"] == 2


def test_a_requeued_entry_gives_its_budget_back_and_keeps_its_place() -> None:
    frontier = Frontier(max_pages=2, scope=Scope(START))
    frontier.push("https://u.edu/a", score=0.5, depth=1)
    frontier.push("https://u.edu/b", score=0.4, depth=1)
    first = frontier.pop(now=0.0)
    assert first is not None and first.url == "https://u.edu/a" and frontier.fetched == 1
    frontier.requeue(first)
    assert frontier.fetched == 0 and frontier.queued_score("https://u.edu/a") == 0.5
    again = frontier.pop(now=0.0)
    assert again is not None and again.url == "https://u.edu/a" and again.seq == first.seq
    with pytest.raises(ValueError, match="not in flight"):
        frontier.requeue(dataclasses.replace(first, url="https://u.edu/zzz"))


def test_a_released_entry_gives_its_budget_back_and_becomes_an_alias() -> None:
    frontier = Frontier(max_pages=2, scope=Scope(START))
    frontier.push("https://u.edu/team/", score=0.9, depth=1)
    frontier.push("https://u.edu/team", score=0.8, depth=1)
    first = frontier.pop(now=0.0)
    assert first is not None
    frontier.mark_done(first.url)
    second = frontier.pop(now=0.0)
    assert second is not None and second.url == "https://u.edu/team"
    assert frontier.budget_left == 0
    frontier.release_as_alias(second.url, first.url)
    assert frontier.budget_left == 1 and frontier.in_flight == 0
    assert frontier.push("https://u.edu/team", score=0.8, depth=1) == "duplicate_url"
    with pytest.raises(ValueError):
        frontier.release_as_alias("https://u.edu/other", first.url)


def test_put_first_pops_those_urls_before_better_scored_ones_and_survives_a_snapshot() -> None:
    frontier = Frontier(max_pages=20)
    for i in range(3):
        frontier.push(f"https://u.edu/strong{i}", score=0.9, depth=1)
    frontier.push("https://u.edu/weak", score=0.1, depth=1)
    frontier.push("https://u.edu/weaker", score=0.05, depth=1)
    # Not queued: ignored. Queued: in the order given, then the usual order.
    frontier.put_first(["https://u.edu/weaker", "https://u.edu/unknown", "https://u.edu/weak"])
    assert frontier.best_score() == 0.9  # scores are unchanged
    restored = Frontier(max_pages=20)
    restored.restore(frontier.snapshot())
    expected = [
        "https://u.edu/weaker",
        "https://u.edu/weak",
        "https://u.edu/strong0",
        "https://u.edu/strong1",
        "https://u.edu/strong2",
    ]
    assert _urls(_drain(frontier)) == expected
    assert _urls(_drain(restored)) == expected
