"""URL trap detection: URLs a crawler could follow forever without new content.

A URL trap is a part of a site that generates unboundedly many URLs: relative
links that stack path segments (``/a/b/a/b/a/b``), calendars with endless
"next month" links, session ids that make every URL new, faceted search whose
filter combinations multiply, pagination past the last real page, and
redirect loops. :class:`TrapDetector` names the trap a URL falls into, so the
frontier can skip it and count the skip by reason.

The detector canonicalizes every URL first (:func:`pw_adaptive.core.urls.canonicalize_url`,
the adbar/courlan lesson: canonicalize before filtering), so tracking and
session parameters that canonicalization drops never count as variants, and
looks at the route fragment of hash-routed single-page applications as well
as the server path: ``#/events/2031-05`` is a calendar, ``#/courses?a=1&b=2``
is a faceted search.

Every limit lives in :class:`TrapSettings` with the reason for its default.
The dates a URL names, for the calendar trap, are read by
:mod:`pw_adaptive.core.url_dates`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, fields
from datetime import date, timedelta
from enum import StrEnum
from urllib.parse import unquote

from pw_adaptive.core.url_dates import date_spans, relative_offsets
from pw_adaptive.core.urls import canonicalize_url

__all__ = ["TrapDetector", "TrapReason", "TrapSettings"]


class TrapReason(StrEnum):
    """Why a URL was skipped as a trap; the values are the plain reason strings."""

    REPEATED_SEGMENTS = "repeated_segments"
    PATH_TOO_DEEP = "path_too_deep"
    URL_TOO_LONG = "url_too_long"
    CALENDAR = "calendar"
    SESSION_ID = "session_id"
    FACETED_EXPLOSION = "faceted_explosion"
    ENDLESS_PAGINATION = "endless_pagination"
    REDIRECT_LOOP = "redirect_loop"
    BROKEN_LINK = "broken_link"


@dataclass(frozen=True, slots=True)
class TrapSettings:
    """Limits of the URL trap detectors. Every field must be a positive integer."""

    max_url_length: int = 2000
    """Longest canonical URL, in characters. The sitemaps protocol caps URLs at
    2,048 characters and Internet Explorer at 2,083; "keep URLs under 2,000
    characters" is the usual portable limit. Longer URLs are nearly always
    generated (accumulated parameters, encoded state), not pages people link."""

    max_path_depth: int = 12
    """Most non-empty path segments, server path and route path together.
    Heritrix's TooManyPathSegmentsDecideRule uses 20 for the open web; portal
    pages sit 3-8 levels deep (``/study/international/pg/fees/2027``), so 12
    leaves room while cutting relative-link pile-ups early."""

    max_segment_repeats: int = 2
    """How often one path segment may occur in a path (each path separately).
    ``/a/b/a/b`` is allowed, ``/a/b/a/b/a/b`` is not. Heritrix's
    PathologicalPathDecideRule uses 2 for consecutive repeats; counting
    non-consecutive repeats too catches the loops that relative links build."""

    calendar_past_days: int = 730
    """Dated URLs (``/events/2024/05``, ``?date=20240101``) entirely before
    today minus this many days are calendar traps: "previous month" links go
    back forever. Two years, not one, so the last full academic cycle stays
    reachable. A post's permalink (a slug after the date:
    ``/2013/10/07/merit-scholarships.html``) is no calendar view, whatever
    its age: a site's only page on a topic may be an old post (two of the
    Slovak student chamber's tasks in the real corpus)."""

    calendar_future_days: int = 730
    """Dated URLs entirely after today plus this many days are calendar traps:
    "next month" links go forward forever. Two years, because admissions
    publish about two entry cycles ahead ("2028 entry" pages in late 2026)."""

    max_query_variants: int = 30
    """Distinct query variants allowed per path template (the path with digit
    runs replaced by a placeholder) before further ones are faceted-search
    explosion. A variant is the set of parameters with their values, ignoring
    pagination and with all-digit values replaced by a placeholder (ids). Only
    queries with two or more parameters count: one parameter enumerates items
    (``?id=``, ``?title=``) and is bounded by the site's content, while the
    combinations of several filters multiply. 30 covers every single filter
    of a typical course finder and a few pairs."""

    max_facet_params: int = 6
    """Most query parameters (server and route query together, pagination
    excluded) in one URL. Combining more than six filters multiplies the
    variants without adding pages anyone links on purpose."""

    max_page: int = 50
    """Highest page number followed (``?page=N``, ``/page/N``). At 10-20 items
    a page that is 500-1,000 items; a focused crawl spends its budget long
    before, and listings that never end serve the last page (or an empty one)
    for every larger N."""

    max_offset: int = 5000
    """Highest item offset followed (``?offset=N``, ``?start=N``), the offset
    form of ``max_page``: 50 pages of 100 items."""

    max_redirects: int = 10
    """Most redirects (hops, ``len(chain) - 1``) in one chain. Browsers and
    Scrapy stop at 20; a site needing more than 10 hops is looping or bouncing
    through trackers."""

    broken_leaf_parents: int = 2
    """Parent paths under which URLs ending in the same last path segment
    answered 404 (or 410) before every other URL ending in it is skipped as
    ``broken_link``. A relative link in a site's template ("obfuscated" where
    a script should have written an e-mail address, "img/logo") resolves
    under every page and is broken under every page: on a real student
    council's site seven of twenty pages of one crawl were such 404s. Two
    different parents are the first sign of a pattern; the cost of being
    wrong is one page of that name, under a third parent, never rendered."""

    def __post_init__(self) -> None:
        for field in fields(self):
            value = getattr(self, field.name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"TrapSettings.{field.name} must be a positive integer: {value!r}")


# ---------------------------------------------------------------------------
# Patterns, compiled once.

# ASP.NET cookieless session state puts the id in the path:
# "/(S(lit3py55t21z5v55vlm25s55))/page.aspx", also "(X(1)S(...))" (Microsoft
# Learn, "Cookieless SessionIDs").
_ASPNET_COOKIELESS_RE = re.compile(r"\((?:[A-Za-z]\([A-Za-z0-9_-]*\))+\)")
# Session path parameters in the URL-rewriting style of Java servlets
# ("/p;jsessionid=ID"); canonicalization removes jsessionid, any other that
# survived is still a session id.
_SESSION_PATH_PARAM_RE = re.compile(
    r";(?:jsessionid|phpsessid|sid|sessid|sessionid|session_id|aspsessionid[a-z]*|oscsid|zenid)=",
    re.IGNORECASE,
)
# Session id values: Java (32 hex, optionally ".node"), PHP (26-32 chars of
# [a-z0-9]), ASP.NET (24 chars): 16+ letters and digits. Shorter values are
# ordinary identifiers ("sid=3" site id, "session=2026-27" academic session).
_SESSION_TOKEN_RE = re.compile(
    r"(?=[A-Za-z0-9]*[0-9])(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]{16,}(?:\.[\w-]+)?"
)
# Query keys that carry session ids after canonicalization: "sid" that is not
# 32 hex, osCommerce "osCsid", Zen Cart "zenid", and any key naming a session.
_SESSION_KEYS = frozenset({"sid", "sessid", "oscsid", "zenid", "sess"})

# Pagination: "/page/7" (WordPress), "/page-7", and page keys.
_PAGE_SEGMENT_RE = re.compile(r"page[-_]?(\d{1,9})", re.IGNORECASE)
_PAGE_NUMBER_RE = re.compile(r"\d{1,9}")
_PAGE_KEYS = frozenset(
    {"page", "pg", "paged", "pagenum", "pagenumber", "pageno", "pageindex", "pageidx", "pagina"}
)
_OFFSET_KEYS = frozenset({"offset", "start", "startrow", "startindex", "startat", "skip"})
# Offsets with 8+ digits are dates, timestamps or ids, not item offsets.
_OFFSET_RE = re.compile(r"\d{1,7}")

# Path template for faceted-search counting: digit runs become one placeholder.
_DIGITS_RE = re.compile(r"\d+")


def _leaf(parts: _Url) -> tuple[str, str, str] | None:
    """(site, last path segment, parent path) of a URL; None for a URL whose
    path has fewer than two segments (a root page has no pattern to share)."""
    if len(parts.segments) < 2:
        return None
    return parts.site, parts.segments[-1], "/".join(parts.segments[:-1])


@dataclass(frozen=True, slots=True)
class _Url:
    """A canonical URL split into the parts the detectors read."""

    canonical: str
    site: str  # "scheme://host[:port]"
    segments: tuple[str, ...]  # non-empty server path segments
    route_segments: tuple[str, ...]  # non-empty route path segments
    path: str
    route_path: str
    params: tuple[tuple[str, str], ...]  # (normalised key, value), server then route


class TrapDetector:
    """Detect URL traps; one instance per crawl.

    ``check`` is stateless for every trap but faceted search, whose detector
    remembers the query variants seen per path template: the
    ``max_query_variants + 1``-th distinct variant of a template is rejected,
    variants already seen stay allowed. A URL is recorded only when it passes
    every check.

    ``today`` anchors the calendar window (default: the date when the detector
    is created, so verdicts do not change at midnight during a crawl).
    """

    def __init__(self, settings: TrapSettings | None = None, *, today: date | None = None) -> None:
        self.settings: TrapSettings = settings if settings is not None else TrapSettings()
        self.today: date = today if today is not None else date.today()
        self._earliest = _shift(self.today, -self.settings.calendar_past_days)
        self._latest = _shift(self.today, self.settings.calendar_future_days)
        self._variants: dict[str, set[str]] = {}
        self._missing: dict[tuple[str, str], set[str]] = {}  # (site, leaf) -> parent paths
        self._broken: set[tuple[str, str]] = set()

    def check(self, url: str) -> str | None:
        """Return the trap reason for ``url``, or None when it is not a trap.

        Checks in order: ``url_too_long``, ``session_id``,
        ``repeated_segments``, ``path_too_deep``, ``calendar``,
        ``endless_pagination``, ``broken_link``, ``faceted_explosion``; the
        first hit wins.
        A URL that cannot be canonicalized is analysed as written.
        """
        parts = _split(url)
        settings = self.settings
        if len(parts.canonical) > settings.max_url_length:
            return TrapReason.URL_TOO_LONG
        if _has_session_id(parts):
            return TrapReason.SESSION_ID
        for segments in (parts.segments, parts.route_segments):
            if segments and max(Counter(segments).values()) > settings.max_segment_repeats:
                return TrapReason.REPEATED_SEGMENTS
        if len(parts.segments) + len(parts.route_segments) > settings.max_path_depth:
            return TrapReason.PATH_TOO_DEEP
        if self._is_calendar(parts):
            return TrapReason.CALENDAR
        if self._is_endless_pagination(parts):
            return TrapReason.ENDLESS_PAGINATION
        if self._broken and self._is_broken(parts):
            return TrapReason.BROKEN_LINK
        if self._is_faceted_explosion(parts):
            return TrapReason.FACETED_EXPLOSION
        return None

    def note_missing(self, url: str) -> bool:
        """Record that ``url`` answered 404 or 410. True when this makes its last
        path segment broken for the site (``broken_leaf_parents`` distinct
        parents): the caller may drop queued URLs that :meth:`is_broken` now
        flags."""
        key = _leaf(_split(url))
        if key is None:
            return False
        site, leaf, parent = key
        if (site, leaf) in self._broken:
            return False
        parents = self._missing.setdefault((site, leaf), set())
        parents.add(parent)
        if len(parents) >= self.settings.broken_leaf_parents:
            self._broken.add((site, leaf))
            return True
        return False

    def is_broken(self, url: str) -> bool:
        """Whether ``url`` ends in a path segment found broken on its site
        (:meth:`note_missing`); stateless."""
        return bool(self._broken) and self._is_broken(_split(url))

    def _is_broken(self, parts: _Url) -> bool:
        key = _leaf(parts)
        return key is not None and (key[0], key[1]) in self._broken

    def check_redirects(self, chain: Sequence[str]) -> str | None:
        """Return ``"redirect_loop"`` for a looping or overlong redirect chain.

        ``chain`` lists the URLs in the order visited, the requested URL first.
        It loops when a URL occurs twice (compared exactly as written: a
        redirect that only drops tracking parameters is not a loop) or when it
        has more than ``max_redirects`` hops (``len(chain) - 1``).
        """
        if len(chain) - 1 > self.settings.max_redirects:
            return TrapReason.REDIRECT_LOOP
        seen: set[str] = set()
        for url in chain:
            key = url.strip()
            if key in seen:
                return TrapReason.REDIRECT_LOOP
            seen.add(key)
        return None

    # -- calendar ----------------------------------------------------------

    def _is_calendar(self, parts: _Url) -> bool:
        params = [(_bare_key(key), value) for key, value in parts.params]
        for start, end in date_spans((parts.segments, parts.route_segments), params, posts=False):
            if end < self._earliest or start > self._latest:
                return True
        for days in relative_offsets(params):
            if (
                days > self.settings.calendar_future_days
                or -days > self.settings.calendar_past_days
            ):
                return True
        return False

    # -- pagination --------------------------------------------------------

    def _is_endless_pagination(self, parts: _Url) -> bool:
        max_page = self.settings.max_page
        for segments in (parts.segments, parts.route_segments):
            for index, segment in enumerate(segments):
                match = _PAGE_SEGMENT_RE.fullmatch(segment)
                if match is not None and int(match.group(1)) > max_page:
                    return True
                if (
                    segment.lower() == "page"
                    and index + 1 < len(segments)
                    and _PAGE_NUMBER_RE.fullmatch(segments[index + 1]) is not None
                    and int(segments[index + 1]) > max_page
                ):
                    return True
        for key, value in parts.params:
            if _is_page_key(key):
                if _PAGE_NUMBER_RE.fullmatch(value) is not None and int(value) > max_page:
                    return True
            elif (
                _bare_key(key) in _OFFSET_KEYS
                and _OFFSET_RE.fullmatch(value) is not None
                and int(value) > self.settings.max_offset
            ):
                return True
        return False

    # -- faceted search ----------------------------------------------------

    def _is_faceted_explosion(self, parts: _Url) -> bool:
        facets = [
            (key, value)
            for key, value in parts.params
            if not _is_page_key(key) and _bare_key(key) not in _OFFSET_KEYS
        ]
        if len(facets) > self.settings.max_facet_params:
            return True
        if len(facets) < 2:
            return False
        template = parts.site + _DIGITS_RE.sub("0", parts.path)
        if parts.route_path:
            template += "#" + _DIGITS_RE.sub("0", parts.route_path)
        variant = "&".join(
            sorted(f"{key}={'0' if value.isdigit() else value}" for key, value in facets)
        )
        seen = self._variants.setdefault(template, set())
        if variant in seen:
            return False
        if len(seen) >= self.settings.max_query_variants:
            return True
        seen.add(variant)
        return False


# ---------------------------------------------------------------------------
# Helpers.


def _split(url: str) -> _Url:
    """Canonicalize ``url`` (or take it as written) and split it into parts."""
    try:
        canonical = canonicalize_url(url)
    except ValueError:
        canonical = url.strip()
    rest = canonical
    site = ""
    scheme_end = canonical.find("://")
    if scheme_end >= 0:
        slash = canonical.find("/", scheme_end + 3)
        if slash < 0:
            site, rest = canonical, "/"
        else:
            site, rest = canonical[:slash], canonical[slash:]
    rest, _, fragment = rest.partition("#")
    path, _, query = rest.partition("?")
    route_path = route_query = ""
    if fragment.startswith("!/"):
        fragment = fragment[1:]
    if fragment.startswith("/"):
        route_path, _, route_query = fragment.partition("?")
    params = _parse_query(query, "") + _parse_query(route_query, "#")
    return _Url(
        canonical=canonical,
        site=site,
        segments=tuple(segment for segment in path.split("/") if segment),
        route_segments=tuple(segment for segment in route_path.split("/") if segment),
        path=path,
        route_path=route_path,
        params=params,
    )


def _parse_query(query: str, prefix: str) -> tuple[tuple[str, str], ...]:
    """Split a query into (key, value) pairs with normalised keys.

    Keys are percent-decoded, lowercased, stripped of "_" and "-", and reduced
    to their last bracket part ("tx_news_pi1[@widget_0][currentPage]" ->
    "currentpage"), so one name matches every framework's spelling. ``prefix``
    marks route parameters for the faceted-search variant only; it is removed
    again by :func:`_bare_key`.
    """
    if not query:
        return ()
    pairs: list[tuple[str, str]] = []
    for piece in query.split("&"):
        if not piece:
            continue
        key, _, value = piece.partition("=")
        name = unquote(key).lower()
        if name.endswith("]"):
            name = name[:-1].rpartition("[")[2] or name
        name = name.replace("_", "").replace("-", "")
        pairs.append((prefix + name, value))
    return tuple(pairs)


def _bare_key(key: str) -> str:
    return key[1:] if key.startswith("#") else key


def _is_page_key(key: str) -> bool:
    name = _bare_key(key)
    # "currentpage", "newspage", "tx_news_pi1[currentPage]" are page numbers too.
    return name in _PAGE_KEYS or name.endswith("page")


def _has_session_id(parts: _Url) -> bool:
    for path in (parts.path, parts.route_path):
        if path and (
            _ASPNET_COOKIELESS_RE.search(path) is not None
            or (";" in path and _SESSION_PATH_PARAM_RE.search(path) is not None)
        ):
            return True
    for key, value in parts.params:
        name = _bare_key(key)
        if (name in _SESSION_KEYS or "session" in name) and _SESSION_TOKEN_RE.fullmatch(
            value
        ) is not None:
            return True
    return False


def _shift(day: date, days: int) -> date:
    """``day + days``, clamped to the representable dates."""
    try:
        return day + timedelta(days=days)
    except OverflowError:
        return date.max if days > 0 else date.min
