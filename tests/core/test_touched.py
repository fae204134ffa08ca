"""Touched leads: the pages below which the cold give-up waits (core/touched.py)."""

from __future__ import annotations

import pytest

from pw_adaptive.core.links import names_a_term
from pw_adaptive.core.query import Query
from pw_adaptive.core.touched import TouchedLeads, own_folder

SITE = "http://guide.test"


@pytest.mark.parametrize(
    ("url", "folder"),
    [
        (SITE + "/course/", "/course/"),
        (SITE + "/course", "/course/"),
        (SITE + "/course/README", "/course/"),
        (SITE + "/course/index.html", "/course/"),
        (SITE + "/course/notes.html", "/course/"),
        (SITE + "/#/docs/course/README", "/docs/course/"),
        (SITE + "/#/docs/course", "/docs/course/"),
    ],
)
def test_the_folder_a_page_names_as_its_own(url: str, folder: str) -> None:
    assert own_folder(url) == ("guide.test", folder)


@pytest.mark.parametrize("url", [SITE + "/", SITE + "/index.html", SITE + "/README"])
def test_the_sites_root_owns_no_folder(url: str) -> None:
    assert own_folder(url) is None


def is_below(url: str, page: str) -> bool:
    """Whether a link to ``url`` found on the kept ``page`` holds the give-up."""
    touched = TouchedLeads()
    touched.observe(page)
    return touched.holds([(url, page)])


def test_pages_below_a_page_are_in_its_folder_and_not_the_page_itself() -> None:
    page = SITE + "/#/docs/course/README"
    assert is_below(SITE + "/#/docs/course/exam-tips", page)
    assert is_below(SITE + "/#/docs/course/notes/week-1", page)
    assert not is_below(page, page)
    assert not is_below(SITE + "/#/docs/course", page)  # the same folder's page
    assert not is_below(SITE + "/#/docs/other/README", page)  # a sibling
    assert not is_below("http://other.test/#/docs/course/exam-tips", page)
    assert is_below(SITE + "/course/exam-tips", SITE + "/course")
    assert not is_below(SITE + "/courses", SITE + "/course")


def test_only_a_kept_pages_links_below_it_hold_and_each_hold_is_counted() -> None:
    touched = TouchedLeads()
    page = SITE + "/course/"
    assert touched.observe(page)
    assert not touched.observe(page)  # kept once
    assert not touched.observe(SITE + "/")  # the root: its links are the site
    assert len(touched) == 1
    # Found on the page but not below it (its menu), or below it but found elsewhere.
    assert not touched.holds([(SITE + "/about/", page), (SITE + "/course/x", SITE + "/")])
    assert touched.held == 0
    assert touched.holds([(SITE + "/about/", page), (SITE + "/course/exam-tips", page)])
    assert touched.held == 1


def test_the_state_round_trips_and_an_older_state_keeps_nothing() -> None:
    touched = TouchedLeads()
    touched.observe(SITE + "/course/")
    touched.holds([(SITE + "/course/tips", SITE + "/course/")])
    again = TouchedLeads()
    again.restore(touched.state())
    assert again.state() == {"pages": [SITE + "/course/"], "held": 1}
    assert again.holds([(SITE + "/course/tips", SITE + "/course/")])
    again.restore(None)
    assert len(again) == 0 and again.held == 0


def test_a_link_names_a_term_of_a_long_question_though_its_clue_is_blind() -> None:
    query = Query(
        "which foreign open lectures do seniors recommend alongside the compilers classes"
    )
    assert names_a_term("Compilers", query)
    assert not names_a_term("Exam tips", query)
    assert not names_a_term("", query)


def test_a_link_that_names_only_a_qualifier_of_a_topical_query_names_no_term() -> None:
    query = Query("Wohnheim in Karlsruhe finden")
    assert names_a_term("Wohnheime", query)
    assert not names_a_term("Karlsruhe", query)  # where the link sits, not where it leads
