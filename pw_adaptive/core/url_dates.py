"""Dates and calendar offsets named by a URL, for the calendar trap.

Calendars link "next month" and "previous month" forever, so a crawler must
know which dates a URL names to keep to a window around today
(:class:`pw_adaptive.core.traps.TrapDetector`). This module reads them from the
parts of a canonical URL:

* path segments: ``2031-05``, ``2031-05-17``, ISO weeks ``2031-W20``, a year
  followed by a month (and day) segment (``/2031/05/17``), or a year alone
  after a calendar-like folder (``/events/2031``);
* query values: ISO 8601 dates with an optional time (``2030-01-01T10:00``),
  ISO weeks, and under date-like keys compact dates (``20300101``) and Unix
  timestamps;
* separate year, month and day parameters, which together name one date;
* relative offsets (``?month_offset=37``, or ``?offset=-80`` with
  ``?unit=week``), in days.

A date in the path that a slug follows (``/2013/10/07/merit-scholarships.html``,
``/news/2019/05/new-rules/``) is the date of a post: the page someone wrote
that day, one of a finite set, not a view that a "previous month" link
generates. ``date_spans(..., posts=False)`` leaves such dates out; a view
name after the date (``/2015/03/page/2``, ``/events/2031-05/list``) keeps it
a calendar view.

Query parameter names are expected normalised as the trap detector does:
lowercase, without ``_`` and ``-``, reduced to their last bracket part.
"""

from __future__ import annotations

import re
from calendar import monthrange
from collections.abc import Iterable, Iterator, Sequence
from datetime import UTC, date, datetime, timedelta

__all__ = ["date_spans", "relative_offsets"]

# Dates in path segments: "2031-05", "2031-05-17", ISO week "2031-W20".
_DATE_SEGMENT_RE = re.compile(r"(\d{4})-(\d{1,2})(?:-(\d{1,2}))?")
_WEEK_RE = re.compile(r"(\d{4})-?W(\d{1,2})", re.IGNORECASE)
_YEAR_RE = re.compile(r"\d{4}")
_MONTH_OR_DAY_RE = re.compile(r"\d{1,2}")
# Dates in query values: ISO 8601 dates with an optional time
# ("2029-03", "2030-01-01T10:00"), also with "/" separators. Not ".":
# "2019.1.5" is more often a version than a date.
_DATE_VALUE_RE = re.compile(r"(\d{4})([-/])(\d{1,2})(?:\2(\d{1,2}))?(?:(?:[T+ ]|%20).*)?")
# Keys whose 8-digit values are compact dates ("?from=20300101") and whose
# 10- or 13-digit values are Unix timestamps; any key containing "date" too.
_DATE_KEYS = frozenset(
    {"d", "day", "dt", "from", "to", "start", "end", "since", "until", "when", "on"}
)
_TIMESTAMP_KEYS = frozenset({"ts", "time", "timestamp", "epoch"})
_COMPACT_DATE_RE = re.compile(r"(\d{4})(\d{2})(\d{2})")  # "20300101"
_TIMESTAMP_RE = re.compile(r"\d{10}|\d{13}")  # Unix seconds or milliseconds
_SIGNED_INT_RE = re.compile(r"[+-]?\d{1,6}")
# Relative calendar offsets: "?month_offset=37", "?weeksOffset=-80".
_OFFSET_KEY_RE = re.compile(
    r"(day|week|month|year)s?(?:offset|shift|delta)|(?:offset|shift|delta)(day|week|month|year)s?"
)
# Year-only path segments count as dates only after a calendar-like folder:
# elsewhere a 4-digit segment is too often an id or course code ("/units/2101").
_CALENDAR_FOLDERS = frozenset(
    {
        "agenda",
        "archive",
        "archives",
        "calendar",
        "calendars",
        "diary",
        "event",
        "events",
        "news",
        "schedule",
        "timetable",
        "whats-on",
        "year",
    }
)
# Path segments after a date that name a view of the calendar, not a post.
_VIEW_SEGMENTS = frozenset(
    {
        "agenda",
        "all",
        "archive",
        "atom",
        "calendar",
        "day",
        "default",
        "feed",
        "grid",
        "ical",
        "ics",
        "index",
        "list",
        "map",
        "month",
        "page",
        "past",
        "photo",
        "print",
        "rss",
        "summary",
        "today",
        "upcoming",
        "week",
        "year",
    }
)
_EXTENSION_RE = re.compile(r"\.[a-z0-9]{1,5}$", re.IGNORECASE)
# Plausible years for dates read from paths and unkeyed values. The price of
# reading "/2031/05" as a date: an id pair like "/units/2101/12" reads as one.
_MIN_YEAR = 1900
_MAX_YEAR = 2199
_UNIT_DAYS = {"day": 1, "week": 7, "month": 30, "year": 365}
_UNIT_KEYS = frozenset({"unit", "view", "period", "range", "interval", "mode"})


def date_spans(
    paths: Iterable[Sequence[str]], params: Iterable[tuple[str, str]], *, posts: bool = True
) -> Iterator[tuple[date, date]]:
    """Yield the (first day, last day) of every date a URL names.

    ``paths`` holds the URL's non-empty path segments, one sequence per path
    (server path, route path); ``params`` its query parameters as
    ``(name, value)`` with normalised names, server and route query together.
    A year-month(-day) date in a path or an ISO value whose year is outside
    1900-2199 is not read as a date (such numbers are more often ids), and an
    impossible date (``2031-02-30``) yields nothing. With ``posts=False`` a
    path date that a slug follows (a post's date, see the module
    documentation) is left out.
    """
    for segments in paths:
        for index, segment in enumerate(segments):
            found = _segment_span(segments, index, segment)
            if found is None:
                continue
            dated, length = found
            after = index + length
            if posts or not _is_slug(segments[after] if after < len(segments) else None):
                yield dated
    year = month = day = None
    for name, value in params:
        span = _value_span(name, value)
        if span is not None:
            yield span
        elif _YEAR_RE.fullmatch(value) is not None and (
            name in ("y", "yr") or name.endswith("year")
        ):
            year = int(value)
        elif _MONTH_OR_DAY_RE.fullmatch(value) is not None:
            if name in ("m", "mm", "mon") or name.endswith("month"):
                month = int(value)
            elif name in ("d", "dd") or name.endswith("day"):
                day = int(value)
    if year is not None:
        span = _span(year, month, day if month is not None else None)
        if span is not None:
            yield span


def _segment_span(
    segments: Sequence[str], index: int, segment: str
) -> tuple[tuple[date, date], int] | None:
    """The date that starts at ``segments[index]`` and how many segments it
    takes (``/2031/05/17`` three, ``2031-05`` one); None when none starts there."""
    match = _DATE_SEGMENT_RE.fullmatch(segment)
    if match is not None:
        year, month, day = match.groups()
        return _sized(_plausible_span(int(year), int(month), int(day) if day else None), 1)
    match = _WEEK_RE.fullmatch(segment)
    if match is not None:
        return _sized(_week_span(int(match.group(1)), int(match.group(2))), 1)
    if _YEAR_RE.fullmatch(segment) is None:
        return None
    year = int(segment)
    following = segments[index + 1 : index + 3]
    if following and _MONTH_OR_DAY_RE.fullmatch(following[0]) is not None:
        if len(following) > 1 and _MONTH_OR_DAY_RE.fullmatch(following[1]) is not None:
            return _sized(_plausible_span(year, int(following[0]), int(following[1])), 3)
        return _sized(_plausible_span(year, int(following[0]), None), 2)
    if index > 0 and segments[index - 1].lower() in _CALENDAR_FOLDERS:
        return _sized(_plausible_span(year, None, None), 1)
    return None


def _sized(span: tuple[date, date] | None, length: int) -> tuple[tuple[date, date], int] | None:
    return None if span is None else (span, length)


def _is_slug(segment: str | None) -> bool:
    """Whether the segment after a path date (None: the date ends the path)
    names a post: it has a letter and, without its file extension, is no view
    of the calendar (``page``, ``list``, ``index.html``)."""
    if segment is None:
        return False
    stem = _EXTENSION_RE.sub("", segment).lower()
    return any(c.isalpha() for c in stem) and stem not in _VIEW_SEGMENTS


def _value_span(name: str, value: str) -> tuple[date, date] | None:
    match = _DATE_VALUE_RE.fullmatch(value)
    if match is not None:
        year, _, month, day = match.groups()
        return _plausible_span(int(year), int(month), int(day) if day else None)
    match = _WEEK_RE.fullmatch(value)
    if match is not None:
        return _week_span(int(match.group(1)), int(match.group(2)))
    if "date" not in name and name not in _DATE_KEYS and name not in _TIMESTAMP_KEYS:
        return None
    match = _COMPACT_DATE_RE.fullmatch(value)
    if match is not None:
        return _span(int(match.group(1)), int(match.group(2)), int(match.group(3)))
    if _TIMESTAMP_RE.fullmatch(value) is not None:
        seconds = int(value) // (1000 if len(value) == 13 else 1)
        try:
            moment = datetime.fromtimestamp(seconds, tz=UTC).date()
        except (OverflowError, OSError, ValueError):
            return None
        return moment, moment
    return None


def relative_offsets(params: Sequence[tuple[str, str]]) -> Iterator[int]:
    """Yield the day offsets (signed) of relative calendar parameters.

    ``params`` as for :func:`date_spans`. A key names its unit
    (``monthoffset``, ``weeksshift``, ``deltadays``; a month counts 30 days,
    a year 365), or a plain ``offset``/``shift`` takes the unit of a
    ``unit``/``view``/``period`` parameter (``?view=week&offset=-80``).
    """
    unit_days = None
    for name, value in params:
        if name in _UNIT_KEYS:
            unit_days = _UNIT_DAYS.get(value.lower().rstrip("s"), unit_days)
    for name, value in params:
        if _SIGNED_INT_RE.fullmatch(value) is None:
            continue
        match = _OFFSET_KEY_RE.fullmatch(name)
        if match is not None:
            yield int(value) * _UNIT_DAYS[match.group(1) or match.group(2)]
        elif unit_days is not None and name in ("offset", "shift"):
            yield int(value) * unit_days


def _plausible_span(year: int, month: int | None, day: int | None) -> tuple[date, date] | None:
    if not _MIN_YEAR <= year <= _MAX_YEAR:
        return None
    return _span(year, month, day)


def _span(year: int, month: int | None, day: int | None) -> tuple[date, date] | None:
    """First and last day of a year, a month or a day; None if not a date."""
    try:
        if month is None:
            return date(year, 1, 1), date(year, 12, 31)
        if day is None:
            return date(year, month, 1), date(year, month, monthrange(year, month)[1])
        moment = date(year, month, day)
    except (ValueError, OverflowError):
        return None
    return moment, moment


def _week_span(year: int, week: int) -> tuple[date, date] | None:
    try:
        monday = date.fromisocalendar(year, week, 1)
        return monday, monday + timedelta(days=6)
    except (ValueError, OverflowError):
        return None
