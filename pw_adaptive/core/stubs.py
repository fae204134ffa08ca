"""Folders of stub pages: siblings that turn out to be copies of one template.

Some sites publish a page for every member of a list before they have
anything to say about most of them: 15 of the 17 faculty pages of
ssuj-informator read only their faculty's name and "TODO". Each is a page of
its own (its own URL and heading), so no URL rule joins them
(:mod:`pw_adaptive.core.variants` learns variants of one page), and content
dedup recognises each one only after it was rendered: 8 of a 40-page crawl's
renders (issue 13).

``StubFolders`` watches the duplicates a crawl meets. When a page's content
duplicates a sibling's (another page of the same folder: the same path up to
its last segment, "/faculties/law/" beside "/faculties/medicine/"), exactly or
nearly, the folder earns a point; a page of the folder with content of its
own is a counter-point, when it is not short itself (:data:`OWN_WORDS`). A
short page is a copy too when its text, without the words of its title, is
a short sibling's (:func:`text_beside_title`): a stub that names a faculty
of three words escapes the near-duplicate test, which allows short texts
one word in ten, and such stubs differ by their name alone. A folder with at least
:data:`MIN_DUPLICATES` such duplicates, more than the pages of its own it
showed, is a stub folder: the
crawler puts its queued pages last (:data:`STUB_FACTOR` on their scores),
and does not drop them (two of ssuj's faculties do have a page, and a later
page of the folder with content of its own undoes the judgement).

Pure and deterministic (the crawler feeds it in processing order); its state
is saved in the crawl checkpoint.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Final

from pw_adaptive.core.dedup import DEFAULT_JACCARD_THRESHOLD, Fingerprint, jaccard, tokenize
from pw_adaptive.core.relevance import route_or_path
from pw_adaptive.core.urls import host_of_canonical
from pw_adaptive.text.normalize import normalize_main_text

__all__ = [
    "MIN_DUPLICATES",
    "OWN_WORDS",
    "STUB_FACTOR",
    "StubFolders",
    "folder_of",
    "text_beside_title",
]

MIN_DUPLICATES: Final = 2
"""Siblings that must have duplicated another page of their folder before the
folder's other pages go last: one copy may be a page left for later, two
outnumbering the folder's own pages are a template's habit."""

OWN_WORDS: Final = 50
"""Words of main text from which a page with new content counts as the
folder's own (``pw_adaptive.core.dedup``'s short-text bound)."""

STUB_FACTOR: Final = 0.1
"""Multiplier on the score of a queued page of a stub folder: after every
page that does not sit in one, ahead of nothing."""

Folder = tuple[str, str]
"""(host, the path up to its last segment): "/faculties/" for
"/faculties/law/" and for "/faculties/law.html"."""


def _path(url: str) -> str:
    """The path (or hash route) naming ``url``'s page, without a trailing slash."""
    return route_or_path(url)[1].rstrip("/")


def folder_of(url: str) -> Folder | None:
    """The folder canonical ``url``'s page sits in among its siblings (a hash
    route's, for a hash-routed page), or None for the site's root, which has
    none."""
    return _folder(url, _path(url))


def _folder(url: str, path: str) -> Folder | None:
    return (host_of_canonical(url), path[: path.rfind("/") + 1]) if path else None


def text_beside_title(words: frozenset[str], title: str) -> frozenset[str]:
    """A page's main-text ``words`` (``Fingerprint.words``: its distinct
    tokens) that its ``title`` does not hold, the title normalised as
    fingerprints are: what two stubs of one template that differ only by
    their name have alike."""
    return words - set(tokenize(normalize_main_text(title, for_fingerprint=True)))


class StubFolders:
    """Per folder: pages seen to copy a sibling, and pages with content of their own."""

    def __init__(self, min_duplicates: int = MIN_DUPLICATES) -> None:
        if min_duplicates < 1:
            raise ValueError(f"min_duplicates must be >= 1, got {min_duplicates}")
        self.min_duplicates = min_duplicates
        self._copies: Counter[Folder] = Counter()
        self._own: Counter[Folder] = Counter()
        self._short: dict[Folder, list[frozenset[str]]] = {}
        """Per folder, the words beside their titles of its short pages with
        new content."""

    def observe_duplicate(self, url: str, original: str) -> bool:
        """``url``'s content duplicated ``original``'s (both canonical). True
        when this made ``url``'s folder a stub folder (the caller may then put
        its queued pages last). Pages of different folders, or of one path
        (variants of one page), teach nothing here."""
        path, other = _path(url), _path(original)
        folder = _folder(url, path)
        if folder is None or path == other or folder != _folder(original, other):
            return False
        return self._count_copy(folder)

    def observe_distinct(self, url: str, fp: Fingerprint, title: str = "") -> bool:
        """Canonical ``url``'s content, fingerprinted ``fp``, was new: a page of
        its own in its folder unless it is short (:data:`OWN_WORDS`); a short
        one whose words beside its ``title`` (:func:`text_beside_title`) are
        a short sibling's is a copy. True when this made the folder a stub
        folder (the caller may then put its queued pages last)."""
        folder = folder_of(url)
        if folder is None:
            return False
        if fp.word_count >= OWN_WORDS:
            self._own[folder] += 1
            return False
        beside = text_beside_title(fp.words, title)
        seen = self._short.setdefault(folder, [])
        if not any(_alike(beside, other) for other in seen):
            seen.append(beside)
            return False
        return self._count_copy(folder)

    def _count_copy(self, folder: Folder) -> bool:
        """One more copy in ``folder``; True when that made it a stub folder."""
        before = self.is_stub_folder(folder)
        self._copies[folder] += 1
        return self.is_stub_folder(folder) and not before

    def is_stub_folder(self, folder: Folder | None) -> bool:
        """Whether ``folder``'s pages are known to be copies of one stub."""
        if folder is None:
            return False
        copies = self._copies[folder]
        return copies >= self.min_duplicates and copies > self._own[folder]

    def is_stub(self, url: str) -> bool:
        """Whether canonical ``url`` sits in a stub folder (asked of every
        link: nothing to parse before a first copy is seen)."""
        return bool(self._copies) and self.is_stub_folder(folder_of(url))

    def stub_folders(self) -> list[Folder]:
        """The stub folders known now, sorted."""
        return sorted(f for f in self._copies if self.is_stub_folder(f))

    def state(self) -> dict[str, Any]:
        """JSON-able state for a checkpoint."""
        return {
            "copies": [[h, p, n] for (h, p), n in sorted(self._copies.items())],
            "own": [[h, p, n] for (h, p), n in sorted(self._own.items())],
            "short": [
                [h, p, [sorted(words) for words in seen]]
                for (h, p), seen in sorted(self._short.items())
            ],
        }

    def restore(self, state: dict[str, Any] | None) -> None:
        """Load what ``state`` saved (None: nothing)."""
        if not state:
            return
        for host, path, n in state.get("copies", ()):
            self._copies[(str(host), str(path))] = int(n)
        for host, path, n in state.get("own", ()):
            self._own[(str(host), str(path))] = int(n)
        for host, path, seen in state.get("short", ()):
            self._short[(str(host), str(path))] = [
                frozenset(str(word) for word in words) for words in seen
            ]


def _alike(a: frozenset[str], b: frozenset[str]) -> bool:
    """Whether two short texts beside their titles are one stub's: the same
    words, or as near as the near-duplicate test asks of short texts."""
    return a == b or (bool(a) and bool(b) and jaccard(a, b) >= DEFAULT_JACCARD_THRESHOLD)
