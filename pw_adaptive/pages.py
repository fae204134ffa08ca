"""The browser seam: what a renderer returns and the protocols the crawler calls.

``Renderer.render(url)`` gives a ``RenderedPage``; ``Fetcher.fetch(url)`` gives
a ``FetchResult`` (robots.txt, attachments). The crawl core depends on these
and nothing else of the browser: ``pw_adaptive.render`` implements them over
Playwright, ``pw_adaptive.testing`` fakes them. This module imports no
Playwright.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol
from urllib.parse import parse_qsl, unquote, urlsplit

from pw_adaptive.core.links import Link
from pw_adaptive.core.urls import ATTACHMENT_EXTENSIONS, path_extension
from pw_adaptive.records import PageTimings

__all__ = [
    "ATTACHMENT_EXTENSIONS",
    "FEED_EXTENSIONS",
    "MEDIA_EXTENSIONS",
    "Attachment",
    "FetchResult",
    "Fetcher",
    "PageTimings",
    "RenderedPage",
    "Renderer",
    "attachment_kind",
    "is_feed_url",
    "is_mail_address_url",
    "is_media_url",
]


@dataclass(frozen=True)
class Attachment:
    """A document linked from a page (PDF, DOCX, XLSX, ...), not rendered as a page."""

    url: str
    """Absolute URL of the document."""
    text: str
    """What the link says: its visible text, else its accessible name (may be empty)."""
    kind: str
    """Lower-case file kind: ``pdf``, ``docx``, ``xlsx``, ``doc``, ``xls``, ``pptx``, ...;
    ``file`` when only a ``download`` attribute marks the link."""


@dataclass(frozen=True)
class RenderedPage:
    """One URL rendered in the browser and extracted.

    ``error`` is set only when no page could be rendered; it starts with the failure
    kind (``pw_adaptive.crawling.retry.FailureKind``): ``"timeout: ..."``, ``"unresponsive: ..."``,
    ``"crash: ..."``, ``"browser_closed: ..."``, ``"network: ..."``, ``"redirect_loop: ..."``, or
    ``"download"`` when the navigation turned into a download or answered with a
    document (PDF, DOCX, ...), which is then the one entry of ``attachments``. The
    other fields are then empty. An HTTP error page (404, 500) renders normally
    and only its ``status`` tells.
    """

    url: str
    """The URL that was asked for."""
    final_url: str
    """The page's URL once ready: after HTTP redirects and client-side routing."""
    status: int | None
    """HTTP status of the main document (for hash routes: of the document that serves
    them); None when there was no response."""
    title: str
    """``document.title``, else the first h1; whitespace collapsed."""
    headings: tuple[str, ...]
    """Texts of the h1-h3 headings of the main content, in document order."""
    markdown: str
    """The main content as markdown (navigation, header and footer left out)."""
    main_text: str
    """The main content as plain text, one block per line (for dedup and soft-404)."""
    links: tuple[Link, ...]
    """Links to pages, in document order, including hidden ones and those found by
    clicking (``via_click``); exact repeats removed; attachments not included."""
    attachments: tuple[Attachment, ...]
    """Documents linked from the page, one per URL, in document order."""
    canonical: str | None
    """Absolute URL from ``<link rel=canonical>``, if any."""
    redirects: tuple[str, ...]
    """The HTTP redirect chain: every URL that answered with a redirect, the asked-for
    URL first; empty when the first response was final."""
    error: str | None
    """Why the page could not be rendered, or None."""
    elapsed_s: float
    """Wall-clock seconds spent on this URL, click exploration and retry included."""
    content_type: str = ""
    """Media type of the main document (``text/html``), parameters dropped."""
    ready: str = ""
    """How ready detection ended: ``quiet`` (DOM quiet after changing), ``static``
    (nothing changed during the grace window), or ``cap`` (the cap was reached; a
    page that did not answer at all by then fails with a ``timeout``)."""
    retry_after: str = ""
    """The ``Retry-After`` header of the main document's answer, as sent (a 429 or
    503 asking the crawler to come back later; ``pw_adaptive.crawling.retry`` parses it)."""
    timings: PageTimings = field(default_factory=PageTimings)
    """Where the time went (``elapsed_s`` is its ``total_s``)."""


class Renderer(Protocol):
    """Turns a URL into a ``RenderedPage``; never raises for a page that fails."""

    async def render(self, url: str) -> RenderedPage:
        """Render ``url`` and extract it; failures are reported in ``RenderedPage.error``."""
        ...


@dataclass(frozen=True)
class FetchResult:
    """The outcome of one fetch: a status and body, or an error kind."""

    url: str
    """The URL that answered, after redirects (the URL asked for when none answered)."""
    status: int | None
    content_type: str = ""
    body: bytes = b""
    error: str | None = None


class Fetcher(Protocol):
    """Fetches a URL without rendering it."""

    async def fetch(self, url: str, *, max_bytes: int) -> FetchResult: ...


MEDIA_EXTENSIONS: frozenset[str] = frozenset(
    {
        *("png", "jpg", "jpeg", "gif", "webp", "avif", "svg", "ico", "bmp", "tif", "tiff"),
        *("mp4", "webm", "mov", "avi", "mkv", "mp3", "wav", "ogg", "m4a", "flac"),
        *("woff", "woff2", "ttf", "otf", "eot"),
        *("zip", "rar", "7z", "tar", "gz", "tgz", "bz2", "xz", "exe", "msi", "dmg", "apk", "iso"),
        *("epub", "mobi"),
    }
)
"""URL path extensions of images, video, audio, fonts, archives, installers
and e-books: a link to one (a full-size photo, a calendar posted as an image,
a handbook as EPUB) is neither a page nor a document whose text the crawl
reads, so it is not followed."""

_MEDIA_TYPE_KINDS: Mapping[str, str] = {
    "application/pdf": "pdf",
    "application/msword": "doc",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
    "application/vnd.ms-excel": "xls",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "xlsx",
    "application/vnd.ms-powerpoint": "ppt",
    "application/vnd.openxmlformats-officedocument.presentationml.presentation": "pptx",
    "application/vnd.oasis.opendocument.text": "odt",
    "application/vnd.oasis.opendocument.spreadsheet": "ods",
    "application/vnd.oasis.opendocument.presentation": "odp",
    "application/rtf": "rtf",
    "text/csv": "csv",
}
"""Media types (of an ``<a type=...>`` hint or a response) that name a document kind."""


def is_media_url(url: str) -> bool:
    """True when ``url``'s path ends in an extension of :data:`MEDIA_EXTENSIONS`
    (images, video, audio, fonts, archives, installers, e-books)."""
    return path_extension(url) in MEDIA_EXTENSIONS


FEED_EXTENSIONS: frozenset[str] = frozenset({"xml", "rss", "atom"})
"""URL path extensions of machine-readable documents: news feeds (``feed.xml``,
``index.xml``, ``rss.xml``, ``atom.xml``) and sitemaps. A feed lists the
titles and teasers of pages the crawl can reach as pages; a sitemap is read
as one by the crawl's sitemap step. Neither is a page for a reader."""


def is_feed_url(url: str) -> bool:
    """True when ``url`` is a news feed or another XML document rather than a
    page: its path ends in an extension of :data:`FEED_EXTENSIONS`, or its last
    segment is ``feed`` (WordPress serves every feed at ``.../feed/``, and at
    ``?feed=rss2`` without pretty permalinks)."""
    if path_extension(url) in FEED_EXTENSIONS:
        return True
    parts = urlsplit(url)
    path = parts.path.rstrip("/")
    if path[path.rfind("/") + 1 :].lower() == "feed":
        return True
    return any(name.lower() == "feed" for name, _ in parse_qsl(parts.query))


_MAIL_ADDRESS = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[^\W\d_]{2,}")


def is_mail_address_url(url: str) -> bool:
    """True when the last segment of ``url``'s path is an e-mail address: an
    ``href="office@uni.edu"`` written without ``mailto:``, which a browser
    resolves against the page's folder (``/faq/office@uni.edu``) and the
    server answers with a 404. ``/@user`` and ``/@user@host`` are left alone."""
    if "@" not in url and "%40" not in url:  # nearly every link: no split, no decoding
        return False
    path = urlsplit(url).path
    segment = unquote(path[path.rfind("/") + 1 :])
    return "@" in segment and _MAIL_ADDRESS.fullmatch(segment) is not None


def attachment_kind(url: str, *, download: bool = False, media_type: str = "") -> str | None:
    """The document kind of a link, or None for a page.

    By the URL path's extension (``.pdf``, ``.docx``, ... see ``ATTACHMENT_EXTENSIONS``),
    else by a media type hint (``<a type="application/pdf">``), else ``"file"`` for a
    link with a ``download`` attribute.
    """
    extension = path_extension(url)
    if extension in ATTACHMENT_EXTENSIONS:
        return extension
    kind = _MEDIA_TYPE_KINDS.get(media_type.split(";", 1)[0].strip().lower())
    if kind:
        return kind
    return "file" if download else None
