"""Client-side search indexes: learnt per site, then not downloaded.

Documentation and handbook themes give their readers a search box that
works without a server: every page downloads the whole site's text as one
index file and builds a search engine from it in the page's scripts
(MkDocs and Material for MkDocs: ``search/search_index.json``; GitBook:
``search_index.json`` or ``search_plus_index.json``; just-the-docs:
``search-data.json``; Docsy: ``offline-search-index.<hash>.json``). A crawl
never searches, and the index holds no text of the page it is on, yet on
zju-welcome (Material for MkDocs, a 1 MB index) reading and indexing it cost
more than half of every page's time.

So the renderer looks, on the first :data:`PROBES` pages of each host, for
a request of such a file among the page's resource timing entries; once a
host's page has made one, the later pages of that host fail the request
before it is sent (the DevTools protocol's ``Fetch`` domain, with URL
patterns: Chromium pauses only the matching requests, but every request of
the page then passes through its interceptor, which cost a site of 230
requests a page 10-20% of its speed, so hosts that never load an index are
left alone). The search box of such a page is broken; its content is not.
``RenderSettings.block_search_index`` switches this off.

PDF documents that a page's scripts download to draw them are learnt the
same way (``RenderSettings.block_drawn_documents``). A PDF.js viewer
fetches the document and paints each of its pages on a canvas, which
extraction never reads; on caefisica, whose course pages each show a
syllabus so, painting it (and painting it again for each "Next page" button
that click exploration tries) took more of the crawl's CPU than the
renders of the pages around it. Every page of a host is looked at until one
is seen fetching a document (``fetch`` or ``XMLHttpRequest`` of a path
ending in ``.pdf``): such viewers sit on some pages of a site, not on all.
Later pages of that host fail those requests (resource types ``Fetch`` and
``XHR`` only: a link to the document, an ``<iframe>`` or ``<embed>`` of it,
and the crawler's own download of it as an attachment are left alone). The
viewer shows an empty canvas or its error; the page's text is untouched.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import weakref
from collections import Counter
from typing import Any, Final

from playwright.async_api import BrowserContext, CDPSession, Page

from pw_adaptive.core.urls import url_host
from pw_adaptive.render.hooks import consume_error
from pw_adaptive.render.records import RenderSettings

__all__ = [
    "DOCUMENT_PATTERNS",
    "FETCH_PATTERNS",
    "INDEX_FILES",
    "PROBES",
    "SearchIndexes",
    "search_indexes",
]

INDEX_FILES: Final = (
    "search_index.json",
    "search-index.json",
    "searchindex.json",
    "search_plus_index.json",
    "search-data.json",
    "offline-search-index.*.json",
)
"""The index files' names (``*``: any run of characters but a slash)."""

FETCH_PATTERNS: Final = tuple(f"*/{name}*" for name in INDEX_FILES)
""":data:`INDEX_FILES` as DevTools ``Fetch`` URL patterns (``*`` is any run of characters)."""

DOCUMENT_PATTERNS: Final = tuple(
    {"urlPattern": pattern, "resourceType": kind, "requestStage": "Request"}
    for pattern in ("*.pdf", "*.pdf?*", "*.PDF", "*.PDF?*")
    for kind in ("Fetch", "XHR")
)
"""DevTools ``Fetch`` patterns of a PDF document downloaded by a page's
scripts (the path ends in ``.pdf``; a query may follow)."""

# The patterns each kind of learnt request is failed by.
_PATTERNS: Final[dict[str, tuple[dict[str, str], ...]]] = {
    "index": tuple({"urlPattern": p, "requestStage": "Request"} for p in FETCH_PATTERNS),
    "document": DOCUMENT_PATTERNS,
}

PROBES: Final = 3
"""Pages of a host whose requests are looked at: a theme loads its index on
every page or on none (a search page of its own aside)."""

# The same names, asked of the page's resource timing entries (a JavaScript
# regular expression, case-insensitive: a slash, the name, then the end of
# the path).
_INDEX_NAME: Final = (
    r"/(?:"
    + "|".join(re.escape(name).replace(r"\*", r"[^/?#]*") for name in INDEX_FILES)
    + r")(?:[?#]|$)"
)
# What the page downloaded: [a search index, a PDF document by script].
_LOADED: Final = r"""(source) => {
  const name = new RegExp(source, "i");
  const entries = performance.getEntriesByType("resource");
  const drawn = (entry) => {
    if (entry.initiatorType !== "fetch" && entry.initiatorType !== "xmlhttprequest") return false;
    try { return /\.pdf$/i.test(new URL(entry.name).pathname); } catch (e) { return false; }
  };
  return [entries.some((entry) => name.test(entry.name)), entries.some(drawn)];
}"""


class SearchIndexes:
    """What one browser context learnt: the hosts whose pages load a search
    index, and those whose pages' scripts download PDF documents to draw them."""

    def __init__(self) -> None:
        self.hosts: set[str] = set()
        """Hosts seen loading an index: their pages fail its request."""
        self.document_hosts: set[str] = set()
        """Hosts seen fetching a PDF document by script: their pages fail
        such requests (:data:`DOCUMENT_PATTERNS`)."""
        self._probed: Counter[str] = Counter()
        # Per page: its DevTools session and the kinds of request it fails.
        self._sessions: weakref.WeakKeyDictionary[Page, tuple[CDPSession, frozenset[str]]] = (
            weakref.WeakKeyDictionary()
        )

    async def probe(self, page: Page, url: str, settings: RenderSettings) -> bool:
        """After ``page`` rendered ``url``: look among the page's resources for
        a search index request (``settings.block_search_index``, on the first
        :data:`PROBES` pages of a host not yet known to load one) and for a PDF
        document fetched by a script (``settings.block_drawn_documents``, on
        every page of a host not yet known to fetch one), and learn the host
        for what is found. True when anything was learnt."""
        host = url_host(url)
        want_index = (
            settings.block_search_index and host not in self.hosts and self._probed[host] < PROBES
        )
        want_document = settings.block_drawn_documents and host not in self.document_hosts
        if not (want_index or want_document):
            return False
        if want_index:
            self._probed[host] += 1
        try:
            index, document = await page.evaluate(_LOADED, _INDEX_NAME)
        except Exception:  # the page went away: nothing learnt
            return False
        learnt = False
        if want_index and index:
            self.hosts.add(host)
            learnt = True
        if want_document and document:
            self.document_hosts.add(host)
            learnt = True
        return learnt

    async def guard(self, page: Page, url: str, settings: RenderSettings) -> None:
        """Before ``page`` goes to ``url``: make ``page`` fail the requests its
        host is known for, a search index (``settings.block_search_index``) and
        PDF documents fetched by script (``settings.block_drawn_documents``).
        A page that goes on to the next URL keeps what it failed and gets its
        new host's too; a page that cannot, as outside Chromium, is left as it
        is."""
        host = url_host(url)
        kinds = {
            kind
            for kind, wanted, hosts in (
                ("index", settings.block_search_index, self.hosts),
                ("document", settings.block_drawn_documents, self.document_hosts),
            )
            if wanted and host in hosts
        }
        held = self._sessions.get(page)
        if held is not None:
            kinds |= held[1]
        if not kinds or (held is not None and kinds == held[1]):
            return
        patterns = [pattern for kind in sorted(kinds) for pattern in _PATTERNS[kind]]
        with contextlib.suppress(Exception):
            if held is not None:
                session = held[0]
            else:
                session = await page.context.new_cdp_session(page)

                def paused(event: dict[str, Any]) -> None:
                    fail = {"requestId": event["requestId"], "errorReason": "BlockedByClient"}
                    task = asyncio.ensure_future(session.send("Fetch.failRequest", fail))
                    task.add_done_callback(consume_error)

                session.on("Fetch.requestPaused", paused)
            # Enabling again replaces the patterns: the union of the kinds.
            await session.send("Fetch.enable", {"patterns": patterns})
            self._sessions[page] = (session, frozenset(kinds))


_BY_CONTEXT: weakref.WeakKeyDictionary[BrowserContext, SearchIndexes] = weakref.WeakKeyDictionary()


def search_indexes(context: BrowserContext) -> SearchIndexes:
    """The :class:`SearchIndexes` of ``context`` (search indexes and drawn
    documents), shared by the renderer's pages and click exploration's
    scratch pages."""
    found = _BY_CONTEXT.get(context)
    if found is None:
        found = _BY_CONTEXT[context] = SearchIndexes()
    return found
