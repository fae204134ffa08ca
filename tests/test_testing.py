"""The shipped fakes: ``make_page`` fills in a page, ``FakeRenderer`` serves a site."""

from __future__ import annotations

import asyncio

from pw_adaptive.core.links import Link
from pw_adaptive.pages import Renderer
from pw_adaptive.testing import FakeRenderer, make_page


def test_make_page_defaults_to_a_plain_200_whose_text_is_its_markdown() -> None:
    page = make_page("http://u.test/a", title="A", markdown="Fees", links=["http://u.test/b"])
    assert page.final_url == page.url and page.status == 200
    assert page.error is None and page.redirects == () and page.headings == ()
    assert page.main_text == "Fees"
    assert page.links == (Link("http://u.test/b"),)
    assert make_page("http://u.test/", markdown="# x", main_text="x").main_text == "x"


def test_fake_renderer_serves_its_pages_records_the_urls_and_404s_the_rest() -> None:
    home = make_page("http://u.test/", markdown="Home")
    fake = FakeRenderer({home.url: home}, delay={home.url: 0.001})
    site: Renderer = fake  # the protocol the crawler takes

    async def both() -> list[int | None]:
        return [(await site.render(u)).status for u in (home.url, "http://u.test/gone")]

    assert asyncio.run(both()) == [200, 404]
    assert fake.rendered == [home.url, "http://u.test/gone"]


def test_fake_renderer_builds_pages_from_a_function() -> None:
    fake = FakeRenderer(lambda url: make_page(url, title=url[-1]), delay=lambda _url: 0.0)
    assert asyncio.run(fake.render("http://u.test/x")).title == "x"
