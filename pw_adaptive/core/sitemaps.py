"""Sitemaps (sitemaps.org protocol 0.9): the pages a site lists for crawlers.

A sitemap is an XML ``<urlset>`` of ``<url><loc>`` entries, or a
``<sitemapindex>`` of further sitemaps; either may be gzip-compressed. Sites
name theirs in robots.txt (``Sitemap:`` lines) or serve one at
``/sitemap.xml``. The crawler reads them for one thing: pages whose URL
words name the query but that no followed link has reached yet, such as a
second admissions page under "Student services" while the crawl was busy in
"Admissions".

Parsing is lenient where real generators are sloppy (a relative ``<loc>``, a
missing namespace, stray whitespace) and strict where it protects the crawl:
``defusedxml`` refuses entity expansion and external entities, bodies are
capped, and so are the number of sitemap files and of URLs read.
"""

from __future__ import annotations

import gzip
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final
from urllib.parse import urljoin, urlsplit

from defusedxml import ElementTree
from defusedxml.common import DefusedXmlException

__all__ = [
    "MAX_SITEMAP_BYTES",
    "MAX_SITEMAP_FILES",
    "MAX_SITEMAP_URLS",
    "Sitemap",
    "parse_sitemap",
]

MAX_SITEMAP_BYTES: Final = 10 * 1024 * 1024
"""Largest sitemap read, uncompressed (the protocol allows 50 MB; university
sites list a few thousand URLs, well under this)."""

MAX_SITEMAP_FILES: Final = 8
"""Sitemap files read per crawl, index files included: a news portal's index
can list hundreds of monthly archives, none of which a focused crawl needs."""

MAX_SITEMAP_URLS: Final = 20_000
"""URLs kept from all sitemaps of a crawl."""

_GZIP_MAGIC: Final = b"\x1f\x8b"


@dataclass(frozen=True)
class Sitemap:
    """What one sitemap file lists: page URLs, or further sitemaps (an index)."""

    urls: tuple[str, ...] = ()
    sitemaps: tuple[str, ...] = ()
    languages: Mapping[str, str] = field(default_factory=dict)
    """URL -> its language tag (lowercased), for the entries that list
    themselves among their ``xhtml:link rel="alternate" hreflang`` versions
    (multilingual sites do, to tell search engines which page is which)."""


def _local(tag: str) -> str:
    # "{http://www.sitemaps.org/schemas/sitemap/0.9}loc" -> "loc"
    return tag.rsplit("}", 1)[-1]


def _decompress(body: bytes) -> bytes | None:
    """``body`` gunzipped when it is gzip (whatever the server said), capped."""
    if not body.startswith(_GZIP_MAGIC):
        return body if len(body) <= MAX_SITEMAP_BYTES else None
    try:
        inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
        out = inflater.decompress(body, MAX_SITEMAP_BYTES + 1)
    except (zlib.error, gzip.BadGzipFile):
        return None
    return out if len(out) <= MAX_SITEMAP_BYTES else None


def parse_sitemap(body: bytes, url: str) -> Sitemap:
    """The URLs (or, for an index, the sitemaps) that ``body``, fetched from
    ``url``, lists: absolute http(s) URLs, in document order, without
    repeats. A relative ``<loc>`` is resolved against ``url``. Anything that
    is not a readable sitemap (HTML served for a missing file, broken or
    hostile XML, an oversized body) gives an empty ``Sitemap``."""
    data = _decompress(body)
    if not data or b"<" not in data[:2048]:
        return Sitemap()
    try:
        root = ElementTree.fromstring(data)
    except (ElementTree.ParseError, DefusedXmlException, ValueError):
        return Sitemap()
    kind = _local(root.tag)
    if kind not in ("urlset", "sitemapindex"):
        return Sitemap()
    found: dict[str, None] = {}
    languages: dict[str, str] = {}
    for entry in root:
        if len(found) >= MAX_SITEMAP_URLS:
            break
        loc = ""
        versions: list[tuple[str, str]] = []
        for child in entry:
            name = _local(child.tag)
            if name == "loc" and child.text:
                loc = urljoin(url, child.text.strip())
            elif name == "link" and child.get("rel") == "alternate":
                tag, href = child.get("hreflang"), child.get("href")
                if tag and href:
                    versions.append((tag.strip().lower(), href.strip()))
        if urlsplit(loc).scheme not in ("http", "https"):
            continue
        found[loc] = None
        for tag, href in versions:
            if tag != "x-default" and urljoin(url, href) == loc:
                languages[loc] = tag
    listed = tuple(found)
    if kind == "sitemapindex":
        return Sitemap(sitemaps=listed)
    return Sitemap(urls=listed, languages=languages)
