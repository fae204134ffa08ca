"""The further pages of a paginated listing, recognised without words.

A news or post listing shows its newest items and links its older ones
through numbered pages: "1 2 3 4 5 »" under the list, leading to
``/page/2/``, ``/strana2`` or ``?page=3``. Those links say nothing of the
query (their text is a number), so a focused crawl scores them as blind
links and ends, on a site whose answer is an old post, before it has read
the titles that would lead there.

A page-number link is told by its form alone, in any language: its visible
text is a number from 2 to :data:`MAX_PAGE_NUMBER` (in any script's digits)
or a forward arrow, and its URL's last path segment or its query holds that
number (for an arrow, some number) as a digit run of its own, written
without leading zeros. "1" is left out: it leads back to the listing's first
page. A URL whose path names a date is a calendar's day or month, whatever
its link says ("2" in a month grid leads to ``/calendar/2026/11/02/``). The
crawler keeps page-number links for a last look before it stops
(``crawling.listing_reserve``).
"""

from __future__ import annotations

import re
from typing import Final
from urllib.parse import urlsplit

from pw_adaptive.core.url_dates import date_spans

__all__ = ["FORWARD_ARROWS", "MAX_PAGE_NUMBER", "is_page_number_link"]

MAX_PAGE_NUMBER: Final = 999
"""The highest page number taken for a listing's page (a larger number in a
link's text is a year, a count or an id)."""

FORWARD_ARROWS: Final = frozenset("»›→⟩❯>⇒▶▸")
"""Characters that, alone or repeated, make a "next page" link's text."""

_DIGITS: Final = re.compile(r"(?<![0-9])([0-9]{1,3})(?![0-9])")


def _number(text: str) -> int | None:
    """The number ``text`` is (any script's decimal digits), or None."""
    if not text or not text.isdecimal() or len(text) > 3:
        return None
    return int(text)


def _tail(url: str) -> str | None:
    """The part of ``url`` a listing's page number sits in: its last
    non-empty path segment and its query; None when its path names a date."""
    parts = urlsplit(url)
    segments = [s for s in parts.path.split("/") if s]
    if next(date_spans((segments,), ()), None) is not None:
        return None
    last = segments[-1] if segments else ""
    return f"{last}?{parts.query}" if parts.query else last


def is_page_number_link(text: str, url: str) -> bool:
    """Whether a link with visible ``text`` to ``url`` is a numbered or
    "next" page of a listing (see the module's docstring)."""
    text = text.strip()
    tail = _tail(url)
    if tail is None:
        return False
    number = _number(text)
    if number is not None:
        return 2 <= number <= MAX_PAGE_NUMBER and str(number) in _DIGITS.findall(tail)
    compact = "".join(text.split())
    if compact and all(ch in FORWARD_ARROWS for ch in compact):
        return _DIGITS.search(tail) is not None
    return False
