"""Page-number links of a listing, told by their form in any language."""

from __future__ import annotations

import pytest

from pw_adaptive.core.listings import is_page_number_link


@pytest.mark.parametrize(
    ("text", "url"),
    [
        ("2", "http://u.test/strana2"),  # Jekyll's paginator, in Slovak
        ("3", "http://u.test/news/page/3/"),  # WordPress
        ("12", "http://u.test/news?page=12"),
        ("4", "http://u.test/blog/?p=4&sort=new"),
        ("٣", "http://u.test/page/3/"),  # Arabic-Indic digits
        ("»", "http://u.test/page/2/"),
        ("› ›", "http://u.test/posts?offset=20"),
    ],
)
def test_numbered_and_next_pages_of_a_listing(text: str, url: str) -> None:
    assert is_page_number_link(text, url)


@pytest.mark.parametrize(
    ("text", "url"),
    [
        ("1", "http://u.test/page/1/"),  # back to the first page
        ("2", "http://u.test/news?page=12"),  # the number is not the URL's
        ("2", "http://u.test/page/02/"),  # nor written with a leading zero
        ("2", "http://u.test/calendar/2026/11/2/"),  # a calendar's day
        ("2", "http://u.test/2013/10/07/post-2.html"),  # a post
        ("2", "http://u.test/room2/booking"),  # not the last segment
        ("2024", "http://u.test/archive/2024/"),  # a year, not a page
        ("»", "http://u.test/about/"),  # an arrow to a page without a number
        ("Next", "http://u.test/page/2/"),  # words are the anchor scorer's
        ("", "http://u.test/page/2/"),
    ],
)
def test_other_links_are_not_page_numbers(text: str, url: str) -> None:
    assert not is_page_number_link(text, url)
