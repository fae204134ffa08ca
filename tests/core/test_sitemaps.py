"""Reading sitemaps: urlsets, indexes, gzip, language versions, and what is refused."""

from __future__ import annotations

import gzip

from pw_adaptive.core.sitemaps import MAX_SITEMAP_BYTES, Sitemap, parse_sitemap

NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
XHTML = 'xmlns:xhtml="http://www.w3.org/1999/xhtml"'
BASE = "https://uni.test/sitemap.xml"


def _urlset(*entries: str) -> bytes:
    return f'<?xml version="1.0"?><urlset {NS} {XHTML}>{"".join(entries)}</urlset>'.encode()


def test_a_urlset_lists_its_pages_in_order_without_repeats() -> None:
    body = _urlset(
        "<url><loc>https://uni.test/admissions/</loc><lastmod>2026-01-01</lastmod></url>",
        "<url><loc>\n  https://uni.test/students/admission/\n</loc></url>",
        "<url><loc>https://uni.test/admissions/</loc></url>",
    )
    assert parse_sitemap(body, BASE) == Sitemap(
        urls=("https://uni.test/admissions/", "https://uni.test/students/admission/")
    )


def test_an_index_lists_sitemaps_not_pages() -> None:
    body = (
        f"<sitemapindex {NS}><sitemap><loc>https://uni.test/en/sitemap.xml</loc></sitemap>"
        "<sitemap><loc>https://uni.test/ar/sitemap.xml</loc></sitemap></sitemapindex>"
    ).encode()
    parsed = parse_sitemap(body, BASE)
    assert parsed.urls == ()
    assert parsed.sitemaps == ("https://uni.test/en/sitemap.xml", "https://uni.test/ar/sitemap.xml")


def test_a_relative_loc_and_a_missing_namespace_are_read_leniently() -> None:
    body = b"<urlset><url><loc>/blog/becas/</loc></url><url><loc>mailto:x@uni.test</loc></url></urlset>"
    assert parse_sitemap(body, "https://uni.test/blog/sitemap.xml").urls == (
        "https://uni.test/blog/becas/",
    )


def test_a_gzip_sitemap_is_read_whatever_its_name() -> None:
    body = gzip.compress(_urlset("<url><loc>https://uni.test/fees/</loc></url>"))
    assert parse_sitemap(body, BASE).urls == ("https://uni.test/fees/",)


def test_an_entry_that_names_itself_among_its_language_versions_has_that_language() -> None:
    entry = (
        "<url><loc>https://uni.test/kilta/</loc>"
        '<xhtml:link rel="alternate" hreflang="fi" href="https://uni.test/kilta/"/>'
        '<xhtml:link rel="alternate" hreflang="en" href="https://uni.test/en/kilta/"/>'
        '<xhtml:link rel="alternate" hreflang="x-default" href="https://uni.test/kilta/"/>'
        "</url>"
    )
    other = (
        "<url><loc>https://uni.test/en/kilta/</loc>"
        '<xhtml:link rel="alternate" hreflang="EN-gb" href="https://uni.test/en/kilta/"/></url>'
    )
    parsed = parse_sitemap(_urlset(entry, other, "<url><loc>https://uni.test/x/</loc></url>"), BASE)
    assert parsed.languages == {
        "https://uni.test/kilta/": "fi",
        "https://uni.test/en/kilta/": "en-gb",
    }


def test_what_is_not_a_sitemap_reads_as_an_empty_one() -> None:
    assert parse_sitemap(b"<!doctype html><html><body>Not found</body></html>", BASE) == Sitemap()
    assert parse_sitemap(b"", BASE) == Sitemap()
    assert parse_sitemap(b"<urlset><url><loc>https://uni.test/</loc>", BASE) == Sitemap()
    assert parse_sitemap(b"\x1f\x8b broken gzip", BASE) == Sitemap()
    assert parse_sitemap(b"<rss><channel/></rss>", BASE) == Sitemap()


def test_entity_expansion_is_refused() -> None:
    bomb = (
        b'<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa">'
        b'<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>'
        b"<urlset><url><loc>https://uni.test/&b;</loc></url></urlset>"
    )
    assert parse_sitemap(bomb, BASE) == Sitemap()


def test_an_oversized_sitemap_is_not_read() -> None:
    entry = b"<url><loc>https://uni.test/p/</loc></url>"
    body = b"<urlset>" + entry * (MAX_SITEMAP_BYTES // len(entry) + 1) + b"</urlset>"
    assert parse_sitemap(body, BASE) == Sitemap()
    assert parse_sitemap(gzip.compress(body), BASE) == Sitemap()
