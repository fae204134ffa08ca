"""Touched leads: pages below which a long question's content may go on.

Before a crawl finds anything, its cold give-up (``no_relevant_pages``) counts
the pages that blind links led to. A link's clue is the share of the query's
terms it names, so one term of a long question stays under ``MIN_CLUE``: for
"学软院的面向对象和数据结构，有没有推荐跟着看的国外公开课？" (seven terms) a course
list's link "面向对象程序设计方法" names one, 0.14, and is blind. The course's
page touches the question; its exam-experience post, one level below it and
linked from it as "考试经验帖", answers it. Counted as ten blind pages among
the course lists of a deep site, such crawls gave up one level too early.
A link with a clue fares no better: "软件系统分析与设计" (two terms of ten)
is followed, its page touches the question, but the exam post below it is
behind a blind link again, and the blind pages around it end the crawl.

``TouchedLeads`` keeps, before the first find, the pages that a link naming a
specific term of the query (:func:`~pw_adaptive.core.links.names_a_term`),
blind or not, led to and that touch the query. While a link from one of them to a page
below it (in the folder the page names as its own: ``/course/`` for
``/course/`` and ``/course/README``, a hash route's alike) is queued, the cold
give-up waits. Only pages below: a page's links to the rest of its site (its
menus) would hold the give-up as long as the site has pages.

Pure Python; its state is saved in the crawl checkpoint.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pw_adaptive.core.relevance import route_or_path
from pw_adaptive.core.urls import host_of_canonical

__all__ = ["TouchedLeads", "own_folder"]

_INDEX_NAMES = frozenset({"readme", "index", "default", "home"})
"""Last segments (without an extension) that name their folder's own page."""


def own_folder(url: str) -> tuple[str, str] | None:
    """(host, the folder canonical ``url``'s page names as its own), or None
    when that folder is the site's root.

    ``/course/`` and ``/course`` own ``/course/``; ``/course/README``,
    ``/course/index.html`` and ``/course/notes.html`` (a file) own
    ``/course/``. A hash route's path counts as the path (``#/docs/c/README``
    owns ``/docs/c/``)."""
    path = route_or_path(url)[1]
    if not path.endswith("/"):
        last = path[path.rfind("/") + 1 :]
        if "." in last or last.lower() in _INDEX_NAMES:
            path = path[: path.rfind("/") + 1]
        else:
            path += "/"
    if path.strip("/") == "":
        return None
    return host_of_canonical(url), path


def _in_folder(url: str, folder: tuple[str, str]) -> bool:
    """Whether canonical ``url`` sits in ``folder`` (:func:`own_folder`'s
    answer), below the folder's own page."""
    if host_of_canonical(url) != folder[0]:
        return False
    path = route_or_path(url)[1]
    return path.startswith(folder[1]) and path.rstrip("/") != folder[1].rstrip("/")


class TouchedLeads:
    """Pages reached through a link naming a term of the query, touching it,
    before the first find (see the module's docstring)."""

    def __init__(self) -> None:
        self._folders: dict[str, tuple[str, str]] = {}
        """Each kept page, in the order kept, with the folder it owns."""
        self.held = 0
        """Times the cold give-up waited for a page below one of them."""

    def __len__(self) -> int:
        return len(self._folders)

    def observe(self, url: str) -> bool:
        """Keep canonical ``url``'s page; False when it owns no folder below
        the site's root (its links below it would be the whole site) or was
        kept before."""
        if url in self._folders:
            return False
        folder = own_folder(url)
        if folder is None:
            return False
        self._folders[url] = folder
        return True

    def holds(self, queued: Iterable[tuple[str, str | None]]) -> bool:
        """Whether one of ``queued`` ((URL, the page it was found on) pairs)
        was found on a kept page and sits below it; counts ``held``."""
        if not self._folders:
            return False
        for url, parent in queued:
            folder = self._folders.get(parent) if parent is not None else None
            if folder is not None and url != parent and _in_folder(url, folder):
                self.held += 1
                return True
        return False

    def state(self) -> dict[str, Any]:
        return {"pages": list(self._folders), "held": self.held}

    def restore(self, state: dict[str, Any] | None) -> None:
        """Load :meth:`state`'s output; None (an older state file) leaves
        nothing kept."""
        self._folders.clear()
        self.held = 0
        if not state:
            return
        for url in state.get("pages", ()):
            self.observe(str(url))
        self.held = int(state.get("held", 0))
