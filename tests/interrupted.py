"""A crawl interrupted on purpose, for the tests of resuming from a state file."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from pw_adaptive import AdaptiveCrawler


def crawl_until_cancelled(
    crawler: AdaptiveCrawler, start_url: str, query: str, state: Path, after: int
) -> None:
    """Run ``crawler`` with the state file ``state`` and cancel it once
    ``after`` pages are done, as SIGINT would; the crawl must end cancelled."""

    async def interrupted() -> None:
        cancel = asyncio.Event()

        def progress(p: Any) -> None:
            if p.pages >= after:
                cancel.set()

        result = await crawler.run(
            start_url, query, state_path=state, cancel=cancel, on_progress=progress
        )
        assert result.stop_reason == "cancelled"

    asyncio.run(interrupted())
