"""QuietTimers: which timers of a site the ready wait stops waiting for (pure Python)."""

from __future__ import annotations

from pw_adaptive.render.ready import TIMER_EVIDENCE, TIMER_RECHECK, QuietTimers

THEME = "300 at mounted (https://uni.example/assets/theme.js:2:4885)"
RENDER = "200 at load (https://uni.example/assets/app.js:1:90)"


def _pages(n: int, host: str = "https://uni.example") -> list[str]:
    return [f"{host}/guide/{i}.html" for i in range(n)]


def test_a_timer_is_quiet_once_enough_pages_saw_it_change_nothing() -> None:
    timers = QuietTimers()
    for url in _pages(TIMER_EVIDENCE - 1):
        timers.learn(url, [[THEME, False]])
    assert timers.quiet("https://uni.example/x") == []
    timers.learn(_pages(TIMER_EVIDENCE)[-1], [[THEME, False]])
    assert timers.quiet("https://uni.example/x") == [THEME]


def test_the_same_page_seen_again_is_no_new_evidence() -> None:
    timers = QuietTimers()
    for _ in range(TIMER_EVIDENCE + 2):
        timers.learn("https://uni.example/guide/1.html", [[THEME, False]])
    assert timers.quiet("https://uni.example/x") == []


def test_one_change_after_a_timer_keeps_it_awaited_for_the_crawl() -> None:
    timers = QuietTimers()
    timers.learn("https://uni.example/a", [[THEME, True]])
    for url in _pages(TIMER_EVIDENCE + 2):
        timers.learn(url, [[THEME, False]])
    assert timers.quiet("https://uni.example/x") == []
    # ... also when the change comes after it was quiet already.
    for url in _pages(TIMER_EVIDENCE):
        timers.learn(url, [[RENDER, False]])
    assert timers.quiet("https://uni.example/x") == [RENDER]
    timers.learn("https://uni.example/b", [[RENDER, False], [RENDER, True]])
    assert timers.quiet("https://uni.example/x") == []


def test_timers_are_learnt_per_host() -> None:
    timers = QuietTimers()
    for url in _pages(TIMER_EVIDENCE):
        timers.learn(url, [[THEME, False]])
    assert timers.quiet("https://uni.example/") == [THEME]
    assert timers.quiet("https://other.example/") == []
    assert timers.quiet("https://UNI.example/guide/") == [THEME]


def test_what_a_page_reports_that_is_not_a_timer_teaches_nothing() -> None:
    timers = QuietTimers()
    for url in _pages(TIMER_EVIDENCE):
        timers.learn(url, [["", False], [THEME], [3, False], [THEME, False, 1]])
    assert timers.quiet("https://uni.example/") == []


def test_every_tenth_page_of_a_host_waits_for_its_quiet_timers_again() -> None:
    timers = QuietTimers()
    for url in _pages(TIMER_EVIDENCE):
        timers.learn(url, [[THEME, False]])
    given = [timers.for_page(f"https://uni.example/p/{i}") for i in range(1, 2 * TIMER_RECHECK + 1)]
    waited = [i for i, quiet in enumerate(given, start=1) if quiet == []]
    assert waited == [TIMER_RECHECK, 2 * TIMER_RECHECK]
    assert all(quiet == [THEME] for quiet in given if quiet)
    assert timers.for_page("https://other.example/") == []  # counted per host
    # The page that waited saw it change the content: awaited from then on.
    timers.learn("https://uni.example/p/20", [[THEME, True]])
    assert timers.for_page("https://uni.example/p/21") == []
