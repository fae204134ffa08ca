"""llms.txt (https://llmstxt.org): a site's own index of its pages, in markdown.

A site that publishes an ``llms.txt`` (at its root, or at the root of one part
of it, such as ``/ar/llms.txt`` for the Arabic pages) lists its pages as
markdown links under section headings, each with the page's title and often
a line about it::

    ## Admissions
    - [Admission plans](https://www.example.edu/admissions/plans/): yearly plans

A sitemap gives a page's URL only; this gives what the page is about, in the
words the site itself uses for it, which is what a crawl scores links by.
The crawler reads it beside the sitemaps (``crawling.sitemap_reserve``).

Parsing is lenient about the markdown (any list marker, a title in emphasis,
a description after ``:`` or a dash) and strict where it protects the crawl:
an HTML page served for a missing file (a single-page app's catch-all
route) is no llms.txt, bodies are capped, and so is the number of entries.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final
from urllib.parse import urljoin, urlsplit

__all__ = ["MAX_LLMS_BYTES", "MAX_LLMS_ENTRIES", "LlmsEntry", "parse_llms_txt"]

MAX_LLMS_BYTES: Final = 2 * 1024 * 1024
"""Largest llms.txt read (the format is an index, not the site's text; a
site's full-text ``llms-full.txt`` is not read)."""

MAX_LLMS_ENTRIES: Final = 5_000
"""Entries kept from one llms.txt."""

# A list item whose first thing is a link: "- [Title](url)", "* [**Title**](url)",
# "1. [Title](url)", then optionally ": description" or " - description".
_ENTRY: Final = re.compile(
    r"^[ \t]*(?:[-*+]|\d{1,3}[.)])[ \t]+\[(?P<title>[^\]\n]+)\]\((?P<target>[^)\s]+)"
    r"(?:[ \t]+\"[^\"\n]*\")?\)[ \t]*(?:[:\-\u2013\u2014][ \t]*(?P<description>.*))?$",
    re.MULTILINE,
)
_EMPHASIS: Final = re.compile(r"[*_`]+")


@dataclass(frozen=True)
class LlmsEntry:
    """One page an llms.txt lists."""

    url: str
    """Absolute http(s) URL (relative targets resolved against the file's URL)."""
    title: str
    """The link's text: the page's title as the site gives it."""
    description: str = ""
    """The line after the link, when there is one."""


def parse_llms_txt(body: bytes, url: str, content_type: str = "") -> tuple[LlmsEntry, ...]:
    """The pages that ``body``, fetched from ``url``, lists: one entry per
    distinct http(s) URL, in document order, the first mention kept. Anything
    that is not an llms.txt (an HTML page, a body over :data:`MAX_LLMS_BYTES`)
    gives no entries."""
    if len(body) > MAX_LLMS_BYTES or "html" in content_type.lower():
        return ()
    # A byte-order mark and Windows line ends are common in hand-edited files.
    text = "\n".join(body.decode("utf-8-sig", errors="replace").splitlines())
    if text.lstrip()[:1] == "<":  # HTML served as text/plain for a missing file
        return ()
    entries: dict[str, LlmsEntry] = {}
    for match in _ENTRY.finditer(text):
        if len(entries) >= MAX_LLMS_ENTRIES:
            break
        target = urljoin(url, match["target"].strip("<>"))
        if urlsplit(target).scheme not in ("http", "https") or target in entries:
            continue
        title = " ".join(_EMPHASIS.sub("", match["title"]).split())
        description = " ".join(_EMPHASIS.sub("", match["description"] or "").split())
        if title:
            entries[target] = LlmsEntry(target, title, description)
    return tuple(entries.values())
