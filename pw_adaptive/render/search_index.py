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

__all__ = ["FETCH_PATTERNS", "INDEX_FILES", "PROBES", "SearchIndexes", "search_indexes"]

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
_LOADED_INDEX: Final = """(source) => {
  const name = new RegExp(source, "i");
  return performance.getEntriesByType("resource").some((entry) => name.test(entry.name));
}"""


class SearchIndexes:
    """What one browser context learnt: the hosts whose pages load a search index."""

    def __init__(self) -> None:
        self.hosts: set[str] = set()
        """Hosts seen loading an index: their pages fail its request."""
        self._probed: Counter[str] = Counter()
        self._sessions: weakref.WeakKeyDictionary[Page, CDPSession] = weakref.WeakKeyDictionary()

    async def probe(self, page: Page, url: str) -> bool:
        """After ``page`` rendered ``url``: on the first :data:`PROBES` pages of
        a host not yet known to load an index, look for an index request among
        the page's resources and learn the host when there is one. True when
        learnt."""
        host = url_host(url)
        if host in self.hosts or self._probed[host] >= PROBES:
            return False
        self._probed[host] += 1
        try:
            loaded = bool(await page.evaluate(_LOADED_INDEX, _INDEX_NAME))
        except Exception:  # the page went away: nothing learnt
            return False
        if loaded:
            self.hosts.add(host)
        return loaded

    async def guard(self, page: Page, url: str) -> None:
        """Before ``page`` goes to ``url``: when ``url``'s host loads an index,
        make ``page`` fail that request (once per page; a page that cannot, as
        outside Chromium, is left as it is)."""
        if page in self._sessions or url_host(url) not in self.hosts:
            return
        with contextlib.suppress(Exception):
            session = await page.context.new_cdp_session(page)

            def paused(event: dict[str, Any]) -> None:
                fail = {"requestId": event["requestId"], "errorReason": "BlockedByClient"}
                task = asyncio.ensure_future(session.send("Fetch.failRequest", fail))
                task.add_done_callback(consume_error)

            session.on("Fetch.requestPaused", paused)
            patterns = [{"urlPattern": p, "requestStage": "Request"} for p in FETCH_PATTERNS]
            await session.send("Fetch.enable", {"patterns": patterns})
            self._sessions[page] = session


_BY_CONTEXT: weakref.WeakKeyDictionary[BrowserContext, SearchIndexes] = weakref.WeakKeyDictionary()


def search_indexes(context: BrowserContext) -> SearchIndexes:
    """The :class:`SearchIndexes` of ``context``, shared by the renderer's pages
    and click exploration's scratch pages."""
    found = _BY_CONTEXT.get(context)
    if found is None:
        found = _BY_CONTEXT[context] = SearchIndexes()
    return found
