"""The browser a crawl launches starts while the query is parsed, and is closed
whatever ends the crawl before it is used (no real browser: the launch is
replaced by a recorder)."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

import pw_adaptive.crawling.api as api
from pw_adaptive.core.query import Query
from pw_adaptive.crawling.api import AdaptiveCrawler
from pw_adaptive.render.records import RenderSettings
from pw_adaptive.settings import CrawlSettings


class _Launch:
    """Stands in for ``_start_browser``: records that it started, what was closed."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self.closed: list[str] = []

    async def start(self, settings: RenderSettings) -> tuple[Any, Any]:
        self.started.set()
        await asyncio.sleep(0.05)
        launch = self

        class Browser:
            async def close(self) -> None:
                launch.closed.append("browser")

        class Playwright:
            async def stop(self) -> None:
                launch.closed.append("playwright")

        return Playwright(), Browser()


@pytest.fixture
def launch(monkeypatch: pytest.MonkeyPatch) -> _Launch:
    recorder = _Launch()
    monkeypatch.setattr(api, "_start_browser", recorder.start)
    return recorder


def test_the_browser_starts_while_the_query_is_parsed_and_a_bad_query_closes_it(
    launch: _Launch, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[bool] = []

    class Parse(Query):
        def __init__(self, text: str, synonyms: Any = None) -> None:
            # The parse runs in a thread: the launch, started before it, goes
            # on meanwhile. Were the two in sequence, this would wait in vain.
            seen.append(launch.started.wait(timeout=10))
            super().__init__(text, synonyms)

    monkeypatch.setattr(api, "Query", Parse)
    crawler = AdaptiveCrawler(CrawlSettings())
    with pytest.raises(ValueError, match="no terms"):
        asyncio.run(crawler.run("http://127.0.0.1:9/", "the of and"))
    assert seen == [True]
    assert launch.closed == ["browser", "playwright"]


def test_a_state_file_of_another_crawl_closes_the_started_browser(
    launch: _Launch, tmp_path: Any
) -> None:
    state = tmp_path / "state.sqlite"
    state.write_text("not a state file")
    crawler = AdaptiveCrawler(CrawlSettings())
    with pytest.raises(ValueError):
        asyncio.run(crawler.run("http://127.0.0.1:9/", "fees", state_path=state))
    assert launch.closed == ["browser", "playwright"]


def test_a_crawl_given_a_renderer_launches_nothing(launch: _Launch) -> None:
    class Refusing:
        async def render(self, url: str) -> Any:
            raise AssertionError("not reached")

    crawler = AdaptiveCrawler(CrawlSettings(), renderer=Refusing())
    with pytest.raises(ValueError):
        asyncio.run(crawler.run("http://127.0.0.1:9/", ""))
    assert not launch.started.is_set()
