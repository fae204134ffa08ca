"""End to end: print views of the classic portal are learnt and skipped before rendering."""

from __future__ import annotations

from typing import Any

import pytest

from pw_adaptive.crawling.api import crawl
from pw_adaptive.render import RenderSettings

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]


def test_print_views_are_rendered_twice_at_most(fixture_site: Any) -> None:
    origin = fixture_site.url("classic")
    result = crawl(
        origin + "/",
        "tuition and fees",
        max_pages=30,
        adaptive_stop=False,
        concurrency=1,
        render_settings=RenderSettings(explore_clicks=False),
    )
    printed = [p.url for p in result.pages if "print=1" in p.url]
    assert len(result.pages) == 30
    assert len(printed) <= 2, printed
    assert result.skipped.get("url_variant", 0) > 0
    duplicates = [p for p in result.pages if p.note and "duplicate" in p.note]
    assert len(duplicates) <= 3
