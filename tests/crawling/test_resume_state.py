"""Resume support without a browser: in-flight entries relaunched first and in
launch order, politeness after a restore, context recycling every N pages."""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar

from pw_adaptive.core.frontier import Frontier
from pw_adaptive.crawling.checkpoint import Checkpoint
from pw_adaptive.render.recycle import RecyclingRenderer


def _frontier() -> Frontier:
    frontier = Frontier(max_pages=50)
    for i, score in enumerate([0.9, 0.8, 0.7, 0.6, 0.5]):
        frontier.push(f"https://u.edu/{i}", score=score, depth=1)
    return frontier


def test_entries_in_flight_at_a_save_are_relaunched_first_in_launch_order(tmp_path: Any) -> None:
    frontier = _frontier()
    launched = [frontier.pop(now=0.0), frontier.pop(now=0.0), frontier.pop(now=0.0)]
    assert [e.url for e in launched if e] == [f"https://u.edu/{i}" for i in range(3)]
    frontier.mark_done("https://u.edu/0")
    # A page processed meanwhile found a better link than those in flight.
    frontier.push("https://u.edu/best", score=1.0, depth=2)
    with Checkpoint(tmp_path / "s.sqlite", crawl_key="k") as checkpoint:
        checkpoint.save(frontier)
    restored = Frontier(max_pages=50)
    with Checkpoint(tmp_path / "s.sqlite", crawl_key="k") as checkpoint:
        checkpoint.load_frontier(restored)
    assert restored.fetched == 1 and len(restored) == 5  # 2 in flight + 3 queued
    order = [restored.pop(now=0.0) for _ in range(3)]
    assert [e.url for e in order if e] == [
        "https://u.edu/1",
        "https://u.edu/2",
        "https://u.edu/best",
    ]
    assert restored.fetched == 4


def test_a_relaunch_keeps_the_politeness_delay_of_each_host() -> None:
    frontier = Frontier(max_pages=50, host_delay=2.0)
    frontier.push("https://u.edu/a", score=0.9, depth=1)
    frontier.push("https://u.edu/b", score=0.8, depth=1)
    first, second = frontier.pop(now=0.0), frontier.pop(now=2.0)
    assert first is not None and second is not None
    restored = Frontier(max_pages=50, host_delay=2.0)
    restored.restore(frontier.snapshot())
    restored.hold_hosts(now=10.0)
    assert restored.pop(now=11.0) is None  # a full delay after the resume first
    assert restored.next_ready_in(now=11.0) == 1.0
    assert restored.pop(now=12.0) is not None and restored.pop(now=12.5) is None
    assert restored.pop(now=14.0) is not None


def test_hold_hosts_leaves_hosts_without_a_delay_ready() -> None:
    frontier = _frontier()
    frontier.hold_hosts(now=0.0)
    assert frontier.pop(now=0.0) is not None


class _FakeRenderer:
    made: ClassVar[list[_FakeRenderer]] = []

    def __init__(self) -> None:
        self.rendered: list[str] = []
        self.closed = False
        self.made.append(self)

    async def render(self, url: str) -> Any:
        await asyncio.sleep(0.01)
        assert not self.closed, "rendered in a closed context"
        self.rendered.append(url)
        return url

    async def context(self) -> Any:
        return self

    async def close(self) -> None:
        self.closed = True


def test_the_context_is_replaced_every_n_pages_and_closed_once_idle() -> None:
    _FakeRenderer.made = []

    async def crawl() -> RecyclingRenderer:
        async with RecyclingRenderer(_FakeRenderer, every=3) as recycler:
            anchor = await recycler.context()
            urls = [f"u{i}" for i in range(8)]
            assert await asyncio.gather(*(recycler.render(u) for u in urls[:4])) == urls[:4]
            for url in urls[4:]:
                await recycler.render(url)
            assert recycler.contexts_created == 3
            assert not anchor.closed  # type: ignore[attr-defined]
        return recycler

    asyncio.run(crawl())
    renderers = [r for r in _FakeRenderer.made if r.rendered]
    assert [len(r.rendered) for r in renderers] == [3, 3, 2]
    assert all(r.closed for r in _FakeRenderer.made)


def test_recycling_every_0_pages_keeps_one_context() -> None:
    _FakeRenderer.made = []

    async def crawl() -> int:
        async with RecyclingRenderer(_FakeRenderer, every=0) as recycler:
            for i in range(10):
                await recycler.render(f"u{i}")
            return recycler.contexts_created

    assert asyncio.run(crawl()) == 1
