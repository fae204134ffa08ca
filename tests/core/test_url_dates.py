"""Tests for pw_adaptive.core.url_dates: the dates and calendar offsets a URL names."""

from __future__ import annotations

from datetime import date

import pytest

from pw_adaptive.core.url_dates import date_spans, relative_offsets

Span = tuple[date, date]


@pytest.mark.parametrize(
    ("segments", "expected"),
    [
        pytest.param(
            ("events", "2031-05"), [(date(2031, 5, 1), date(2031, 5, 31))], id="year-month"
        ),
        pytest.param(
            ("events", "2031-05-17"), [(date(2031, 5, 17), date(2031, 5, 17))], id="iso-day"
        ),
        pytest.param(
            ("news", "2031", "05", "17"),
            [(date(2031, 5, 17), date(2031, 5, 17))],
            id="year-month-day-segments",
        ),
        pytest.param(("cal", "2031-W20"), [(date(2031, 5, 12), date(2031, 5, 18))], id="iso-week"),
        pytest.param(
            ("events", "2031"),
            [(date(2031, 1, 1), date(2031, 12, 31))],
            id="year-after-calendar-folder",
        ),
        pytest.param(("units", "2101"), [], id="year-like-course-code"),
        pytest.param(("archive", "3000-01"), [], id="implausible-year"),
        pytest.param(("events", "2031-02-30"), [], id="impossible-day"),
    ],
)
def test_dates_in_path_segments(segments: tuple[str, ...], expected: list[Span]) -> None:
    assert list(date_spans([segments], [])) == expected


@pytest.mark.parametrize(
    ("segments", "is_post"),
    [
        pytest.param(("2013", "10", "07", "merit-scholarships.html"), True, id="jekyll-post"),
        pytest.param(("news", "2019", "05", "new-rules"), True, id="year-month-post"),
        pytest.param(("news", "2019-05-02", "open-day"), True, id="iso-date-post"),
        pytest.param(("events", "2019", "gala"), True, id="year-after-folder-post"),
        pytest.param(("news", "2019", "05"), False, id="month-view"),
        pytest.param(("2015", "03", "page", "2"), False, id="archive-page"),
        pytest.param(("events", "2019-05", "list"), False, id="view-name"),
        pytest.param(("news", "2019", "05", "17", "index.html"), False, id="index-file"),
        pytest.param(("news", "2019", "05", "17", "2"), False, id="number-after-date"),
    ],
)
def test_a_post_date_is_left_out_only_when_asked(segments: tuple[str, ...], is_post: bool) -> None:
    every = list(date_spans([segments], []))
    assert len(every) == 1
    assert list(date_spans([segments], [], posts=False)) == ([] if is_post else every)


def test_route_path_is_read_like_the_server_path() -> None:
    spans = list(date_spans([("app",), ("events", "2031-05")], []))
    assert spans == [(date(2031, 5, 1), date(2031, 5, 31))]


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        pytest.param(
            [("when", "2030-01-01T10:00")],
            [(date(2030, 1, 1), date(2030, 1, 1))],
            id="iso-date-time",
        ),
        pytest.param(
            [("q", "2029/03")], [(date(2029, 3, 1), date(2029, 3, 31))], id="slash-separated"
        ),
        pytest.param(
            [("from", "20300101")], [(date(2030, 1, 1), date(2030, 1, 1))], id="compact-date-key"
        ),
        pytest.param([("id", "20300101")], [], id="compact-digits-under-other-key"),
        pytest.param(
            [("ts", "1900000000000")],
            [(date(2030, 3, 17), date(2030, 3, 17))],
            id="timestamp-milliseconds",
        ),
        pytest.param(
            [("year", "2031"), ("month", "2")],
            [(date(2031, 2, 1), date(2031, 2, 28))],
            id="year-and-month-params",
        ),
        pytest.param(
            [("day", "9"), ("year", "2031")],
            [(date(2031, 1, 1), date(2031, 12, 31))],
            id="day-without-month-is-ignored",
        ),
        pytest.param(
            [("year", "2031"), ("month", "2"), ("day", "30")], [], id="impossible-param-date"
        ),
        pytest.param([("v", "2019.1.5")], [], id="version-string"),
    ],
)
def test_dates_in_query_parameters(params: list[tuple[str, str]], expected: list[Span]) -> None:
    assert list(date_spans([], params)) == expected


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        pytest.param([("monthoffset", "37")], [37 * 30], id="unit-in-key"),
        pytest.param([("offsetweeks", "-80")], [-80 * 7], id="unit-after-offset"),
        pytest.param([("view", "weeks"), ("offset", "-80")], [-80 * 7], id="unit-parameter"),
        pytest.param([("offset", "-80")], [], id="offset-without-unit-is-items"),
        pytest.param([("dayoffset", "1234567")], [], id="too-many-digits"),
    ],
)
def test_relative_offsets(params: list[tuple[str, str]], expected: list[int]) -> None:
    assert list(relative_offsets(params)) == expected
