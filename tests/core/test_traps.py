"""Tests for pw_adaptive.core.traps: each trap kind, its negatives, and the settings."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pw_adaptive.core.traps import TrapDetector, TrapReason, TrapSettings

TODAY = date(2026, 11, 30)


def _detector(**limits: int) -> TrapDetector:
    return TrapDetector(TrapSettings(**limits), today=TODAY)


NORMAL_URLS = [
    pytest.param("https://u.edu/", id="home"),
    pytest.param("https://u.edu/admissions/undergraduate/2027-entry", id="entry-year-slug"),
    pytest.param("https://u.edu/admissions/postgraduate/2028-entry/", id="entry-two-years-ahead"),
    pytest.param("https://u.edu/news/2026/11/open-day", id="news-near-today"),
    pytest.param("https://u.edu/news/2025/02/fees-announced", id="news-last-year"),
    pytest.param("https://u.edu/events/2027/03", id="calendar-near-future"),
    pytest.param("https://u.edu/news/2019/05/old-story", id="post-far-past"),
    pytest.param("https://u.edu/2013/10/07/merit-scholarships.html", id="jekyll-post-far-past"),
    pytest.param("https://u.edu/events/2040/graduation-gala/", id="event-post-far-future"),
    pytest.param("https://u.edu/#/news/2015-03-02/new-rules", id="route-post-far-past"),
    pytest.param("https://u.edu/fees/2026-27", id="academic-year"),
    pytest.param("https://u.edu/fees?session=2026-27", id="academic-session-param"),
    pytest.param("https://u.edu/units/2101", id="four-digit-course-code"),
    pytest.param("https://u.edu/courses?year=2", id="year-of-study"),
    pytest.param("https://u.edu/news?page=2", id="page-two"),
    pytest.param("https://u.edu/news?page=50", id="page-at-limit"),
    pytest.param("https://u.edu/search?q=housing&offset=40", id="small-offset"),
    pytest.param("https://u.edu/course?id=123456", id="id-param"),
    pytest.param("https://u.edu/?sid=3", id="short-sid"),
    pytest.param("https://u.edu/a/b/a/b", id="two-repeats"),
    pytest.param("https://u.edu/" + "/".join("abcdefghijkl"), id="depth-at-limit"),
    pytest.param("https://u.edu/#/courses/msc-data-science", id="route"),
    pytest.param("https://u.edu/#/events/2026-12", id="route-calendar-near"),
    pytest.param("https://u.edu/app.js?v=2019.1.5", id="version-string"),
    pytest.param("https://u.edu/e?from=20261201", id="compact-date-near"),
    pytest.param("mailto:office@u.edu", id="not-http"),
    pytest.param("not a url at all", id="garbage"),
]


@pytest.mark.parametrize("url", NORMAL_URLS)
def test_normal_urls_are_not_traps(url: str) -> None:
    assert TrapDetector(today=TODAY).check(url) is None


# --- repeated segments ------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        pytest.param("https://u.edu/a/b/a/b/a/b", id="cycle"),
        pytest.param("https://u.edu/x/x/x", id="consecutive"),
        pytest.param("https://u.edu/en/study/en/fees/en/", id="scattered"),
        pytest.param("https://u.edu/#/a/b/a/b/a/b", id="route"),
    ],
)
def test_repeated_segments(url: str) -> None:
    assert TrapDetector(today=TODAY).check(url) == "repeated_segments"


def test_repeated_segments_counts_each_path_apart() -> None:
    detector = TrapDetector(today=TODAY)
    assert detector.check("https://u.edu/app/app/#/app/app") is None


def test_repeated_segments_limit_is_configurable() -> None:
    assert _detector(max_segment_repeats=3).check("https://u.edu/a/b/a/b/a/b") is None
    assert _detector(max_segment_repeats=1).check("https://u.edu/a/b/a") == "repeated_segments"


# --- depth and length -------------------------------------------------------


def test_path_too_deep() -> None:
    detector = TrapDetector(today=TODAY)
    assert detector.check("https://u.edu/" + "/".join("abcdefghijklm")) == "path_too_deep"


def test_path_depth_counts_the_route_path() -> None:
    detector = TrapDetector(today=TODAY)
    url = "https://u.edu/a/b/c/d/e/f/#/g/h/i/j/k/l/m"
    assert detector.check(url) == "path_too_deep"


def test_path_depth_ignores_empty_segments() -> None:
    assert TrapDetector(today=TODAY).check("https://u.edu/a//b///c/") is None


def test_url_too_long() -> None:
    detector = TrapDetector(today=TODAY)
    assert detector.check("https://u.edu/search?q=" + "x" * 2000) == "url_too_long"
    assert detector.check("https://u.edu/search?q=" + "x" * 1900) is None


def test_url_length_is_measured_on_the_canonical_url() -> None:
    # 2,000 characters of tracking parameters disappear in canonicalization.
    url = "https://u.edu/fees?utm_source=" + "x" * 2000
    assert TrapDetector(today=TODAY).check(url) is None


# --- calendar ---------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        pytest.param("https://u.edu/events/2031/05", id="path-year-month-future"),
        pytest.param("https://u.edu/events/2031/05/17", id="path-full-date"),
        pytest.param("https://u.edu/calendar/2031-05", id="path-iso-month"),
        pytest.param("https://u.edu/events/2040", id="path-year-after-calendar-folder"),
        pytest.param("https://u.edu/news/2019/05", id="path-far-past"),
        pytest.param("https://u.edu/2015/03/page/2", id="month-archive-page"),
        pytest.param("https://u.edu/events/2031-05/list", id="path-date-then-view"),
        pytest.param("https://u.edu/news/2019/05/17/index.html", id="path-date-then-index"),
        pytest.param("https://u.edu/events/1990/07/", id="trailing-slash"),
        pytest.param("https://u.edu/calendar?month=2029-03", id="query-iso-month"),
        pytest.param("https://u.edu/events?date=20300101", id="query-compact-date"),
        pytest.param("https://u.edu/events?year=2040&month=1", id="query-year-month"),
        pytest.param("https://u.edu/events?year=1990", id="query-year-past"),
        pytest.param("https://u.edu/events?start=2030-01-01T10:00", id="query-iso-datetime"),
        pytest.param("https://u.edu/events?week=2031-W05", id="query-iso-week"),
        pytest.param("https://u.edu/events?ts=1893456000", id="query-unix-timestamp"),
        pytest.param("https://u.edu/app#/events/2031-05", id="route-path"),
        pytest.param("https://u.edu/app#/events?day=2031-05-02", id="route-query"),
    ],
)
def test_calendar_far_from_today(url: str) -> None:
    assert TrapDetector(today=TODAY).check(url) == "calendar"


@pytest.mark.parametrize(
    "url",
    [
        pytest.param("https://u.edu/cal?monthOffset=37", id="month-offset"),
        pytest.param("https://u.edu/cal?week_offset=-200", id="week-offset-past"),
        pytest.param("https://u.edu/cal?offset=37&view=month", id="offset-with-unit"),
    ],
)
def test_calendar_relative_offsets(url: str) -> None:
    assert TrapDetector(today=TODAY).check(url) == "calendar"


def test_calendar_relative_offset_near_is_allowed() -> None:
    detector = TrapDetector(today=TODAY)
    assert detector.check("https://u.edu/cal?monthOffset=3") is None
    assert detector.check("https://u.edu/cal?offset=-2&view=week") is None


def test_calendar_next_links_stop_at_the_window() -> None:
    detector = TrapDetector(today=TODAY)
    verdicts = {
        month: detector.check(
            f"https://u.edu/calendar?month={2026 + month // 12}-{month % 12 + 1:02d}"
        )
        for month in range(10, 60)
    }
    allowed = [month for month, verdict in verdicts.items() if verdict is None]
    # Nov 2026 + 730 days = 30 Nov 2028: months up to 2028-11 are allowed.
    assert max(allowed) == 12 * 2 + 10
    assert all(verdict == "calendar" for month, verdict in verdicts.items() if month > 34)


def test_calendar_window_is_configurable() -> None:
    narrow = _detector(calendar_future_days=30, calendar_past_days=30)
    assert narrow.check("https://u.edu/events/2027/03") == "calendar"
    assert narrow.check("https://u.edu/news/2026/11/open-day") is None
    assert narrow.check("https://u.edu/news/2026/09") == "calendar"
    assert narrow.check("https://u.edu/news/2026/09/old") is None  # a post, not a view


def test_calendar_default_today_is_real_today() -> None:
    assert TrapDetector().today == date.today()


# --- session ids --------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        pytest.param("https://u.edu/?sid=k2j3h4g5f6d7s8a9q0w1", id="non-hex-sid"),
        pytest.param("https://u.edu/?osCsid=a1b2c3d4e5f6g7h8i9j0", id="oscommerce"),
        pytest.param("https://u.edu/?user_session=A1B2C3D4E5F6G7H8", id="session-key"),
        pytest.param("https://u.edu/(S(lit3py55t21z5v55vlm25s55))/default.aspx", id="aspnet"),
        pytest.param("https://u.edu/(X(1)S(lit3py55t21z5v55vlm25s55))/a.aspx", id="aspnet-x"),
        pytest.param("https://u.edu/cart;phpsessid=abc123", id="path-param"),
        pytest.param("https://u.edu/#/cart?sid=k2j3h4g5f6d7s8a9q0w1", id="route-query"),
        pytest.param("https://u.edu/#/(S(lit3py55t21z5v55vlm25s55))/home", id="route-aspnet"),
    ],
)
def test_session_id(url: str) -> None:
    assert TrapDetector(today=TODAY).check(url) == "session_id"


def test_session_ids_removed_by_canonicalization_are_not_traps() -> None:
    detector = TrapDetector(today=TODAY)
    assert detector.check("https://u.edu/a;jsessionid=0123456789ABCDEF0123456789ABCDEF") is None
    assert detector.check("https://u.edu/?PHPSESSID=0123456789abcdef0123456789abcdef") is None
    assert detector.check("https://u.edu/#/a;jsessionid=0123456789ABCDEF") is None


# --- pagination ---------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        pytest.param("https://u.edu/news?page=51", id="page-param"),
        pytest.param("https://u.edu/news?Page_No=999", id="page-no-param"),
        pytest.param("https://u.edu/blog/page/51/", id="wordpress-path"),
        pytest.param("https://u.edu/news/page-80", id="page-dash-segment"),
        pytest.param(
            "https://u.edu/news?tx_news_pi1[@widget_0][currentPage]=80", id="typo3-bracket-key"
        ),
        pytest.param("https://u.edu/search?q=x&start=100000", id="offset"),
        pytest.param("https://u.edu/#/news?page=51", id="route-query"),
        pytest.param("https://u.edu/#/news/page/51", id="route-path"),
        pytest.param("https://u.edu/#/search?q=x&offset=90000", id="route-offset"),
    ],
)
def test_endless_pagination(url: str) -> None:
    assert TrapDetector(today=TODAY).check(url) == "endless_pagination"


def test_pagination_limit_is_configurable() -> None:
    assert _detector(max_page=10).check("https://u.edu/news?page=11") == "endless_pagination"
    assert _detector(max_page=100).check("https://u.edu/news?page=99") is None


def test_page_size_is_not_a_page_number() -> None:
    assert TrapDetector(today=TODAY).check("https://u.edu/news?page_size=100") is None


# --- faceted search -----------------------------------------------------------


def test_faceted_explosion_after_max_variants() -> None:
    detector = _detector(max_query_variants=5)
    verdicts = [detector.check(f"https://u.edu/courses?level=l{i}&mode=m{i % 2}") for i in range(7)]
    assert verdicts == [None] * 5 + ["faceted_explosion"] * 2


def test_faceted_variants_already_seen_stay_allowed() -> None:
    detector = _detector(max_query_variants=2)
    first = "https://u.edu/courses?level=pg&mode=ft"
    assert detector.check(first) is None
    assert detector.check("https://u.edu/courses?level=ug&mode=ft") is None
    assert detector.check("https://u.edu/courses?level=ug&mode=pt") == "faceted_explosion"
    assert detector.check(first) is None
    # Parameter order and tracking parameters do not make a new variant.
    assert detector.check("https://u.edu/courses?mode=ft&level=pg&utm_source=x") is None


def test_faceted_counts_per_path_template() -> None:
    detector = _detector(max_query_variants=2)
    for i in range(2):
        assert detector.check(f"https://u.edu/faculty/1{i}/courses?a={i}x&b=y") is None
    # /faculty/99/courses has the same template as /faculty/10/courses.
    assert detector.check("https://u.edu/faculty/99/courses?a=zz&b=y") == "faceted_explosion"
    assert detector.check("https://u.edu/news?a=zz&b=y") is None


def test_faceted_ignores_pagination_and_numeric_ids() -> None:
    detector = _detector(max_query_variants=2)
    for page in range(1, 40):
        assert detector.check(f"https://u.edu/courses?level=pg&mode=ft&page={page}") is None
    for course in range(100):
        assert detector.check(f"https://u.edu/view.php?id={course}&section=intro") is None


def test_single_parameter_queries_are_not_facets() -> None:
    detector = _detector(max_query_variants=2)
    for i in range(50):
        assert detector.check(f"https://u.edu/wiki?title=Page_{i}") is None


def test_faceted_route_queries() -> None:
    detector = _detector(max_query_variants=3)
    verdicts = [
        detector.check(f"https://u.edu/#/courses?level=pg&mode=ft&campus=c{i}") for i in range(5)
    ]
    assert verdicts == [None] * 3 + ["faceted_explosion"] * 2


def test_too_many_facet_params() -> None:
    detector = TrapDetector(today=TODAY)
    url = "https://u.edu/courses?a=1&b=2&c=3&d=4&e=5&f=6&g=7"
    assert detector.check(url) == "faceted_explosion"
    assert detector.check("https://u.edu/courses?a=1&b=2&c=3&d=4&e=5&f=6") is None


def test_rejected_urls_are_not_recorded() -> None:
    detector = _detector(max_query_variants=1)
    # Too long: rejected before the faceted detector records anything.
    assert detector.check("https://u.edu/c?a=1&b=" + "x" * 3000) == "url_too_long"
    assert detector.check("https://u.edu/c?a=x&b=y") is None


# --- redirects ----------------------------------------------------------------


def test_redirect_loop_on_repeated_url() -> None:
    detector = TrapDetector(today=TODAY)
    chain = ["http://u.edu/a", "https://u.edu/a", "https://u.edu/login", "http://u.edu/a"]
    assert detector.check_redirects(chain) == "redirect_loop"


def test_redirect_chain_too_long() -> None:
    detector = TrapDetector(today=TODAY)
    assert detector.check_redirects([f"https://u.edu/{i}" for i in range(12)]) == "redirect_loop"
    assert detector.check_redirects([f"https://u.edu/{i}" for i in range(11)]) is None


@pytest.mark.parametrize(
    "chain",
    [
        pytest.param([], id="empty"),
        pytest.param(["https://u.edu/a"], id="no-redirect"),
        pytest.param(
            ["http://u.edu/a", "https://u.edu/a", "https://u.edu/a/"], id="upgrade-and-slash"
        ),
        pytest.param(["https://u.edu/a?utm_source=x", "https://u.edu/a"], id="tracking-stripped"),
    ],
)
def test_normal_redirects(chain: list[str]) -> None:
    assert TrapDetector(today=TODAY).check_redirects(chain) is None


# --- settings and API -----------------------------------------------------------


def test_reasons_are_the_documented_strings() -> None:
    assert sorted(TrapReason) == sorted(
        [
            "broken_link",
            "calendar",
            "endless_pagination",
            "faceted_explosion",
            "path_too_deep",
            "redirect_loop",
            "repeated_segments",
            "session_id",
            "url_too_long",
        ]
    )


def test_settings_defaults() -> None:
    defaults = TrapSettings()
    assert defaults.max_url_length == 2000
    assert defaults.max_path_depth == 12
    assert defaults.max_segment_repeats == 2
    assert defaults.max_page == 50
    assert defaults.max_query_variants == 30
    assert defaults.max_redirects == 10


@pytest.mark.parametrize("field", ["max_page", "max_url_length", "calendar_past_days"])
@pytest.mark.parametrize("value", [0, -1])
def test_settings_reject_non_positive(field: str, value: int) -> None:
    with pytest.raises(ValueError, match=field):
        TrapSettings(**{field: value})


def test_settings_are_frozen() -> None:
    with pytest.raises(AttributeError):
        TrapSettings().max_page = 3  # type: ignore[misc]


@settings(max_examples=500, deadline=None)
@given(st.text())
def test_check_never_raises(text: str) -> None:
    detector = TrapDetector(today=TODAY)
    verdict = detector.check(text)
    assert verdict is None or verdict in set(TrapReason)
    detector.check("https://u.edu/" + text)
    detector.check("https://u.edu/?" + text)
    detector.check("https://u.edu/#/" + text)
    detector.check_redirects([text, text])


def test_a_leaf_missing_under_two_parents_is_broken_everywhere_on_the_site() -> None:
    traps = TrapDetector()
    assert traps.note_missing("https://u.edu/faq/a/obfuscated") is False
    assert traps.check("https://u.edu/faq/b/obfuscated") is None  # one parent: no pattern yet
    # The same parent twice is still one parent.
    assert traps.note_missing("https://u.edu/faq/a/obfuscated") is False
    assert traps.note_missing("https://u.edu/news/obfuscated") is True
    assert traps.is_broken("https://u.edu/faq/b/obfuscated")
    assert traps.check("https://u.edu/faq/b/obfuscated") == "broken_link"
    assert traps.note_missing("https://u.edu/x/obfuscated") is False  # known already
    # Other sites, other names and root pages are not concerned.
    assert not traps.is_broken("https://other.edu/faq/b/obfuscated")
    assert not traps.is_broken("https://u.edu/faq/b/contact")
    assert traps.note_missing("https://u.edu/missing") is False
    assert not traps.is_broken("https://u.edu/obfuscated")


def test_the_broken_leaf_limit_is_a_setting() -> None:
    traps = TrapDetector(TrapSettings(broken_leaf_parents=3))
    assert not traps.note_missing("https://u.edu/a/x")
    assert not traps.note_missing("https://u.edu/b/x")
    assert traps.note_missing("https://u.edu/c/x")
