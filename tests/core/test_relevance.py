from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pw_adaptive.core.query import Query
from pw_adaptive.core.relevance import (
    EVIDENCE_RELEVANCE,
    MIN_RELEVANCE,
    SHARE_OF_BEST,
    SITE_WIDE_MIN_PAGES,
    SITE_WIDE_OFF_SHARE,
    SITE_WIDE_SHARE,
    Assessment,
    SiteTitles,
    about_enough,
    assess,
    relevance,
    site_wide_terms,
    url_words,
)


def nothing(verdict: Assessment) -> bool:
    """The page scores 0 and is not about the query."""
    return verdict.relevance == 0.0 and not verdict.about


ACCOMMODATION_PAGE = """\
# Accommodation for overseas students

We guarantee a room in our halls of residence to every new international
student who accepts an offer by 30 June.

## Choosing your hall

Our residences range from catered halls on the main campus to self-catered
flats in the city centre. All rooms have Wi-Fi and contents insurance included.

## Costs

Rent starts at £150 per week for a standard room. Rent is paid in three
instalments, at the start of each term.
"""

NEWS_PAGE = (
    "# New engineering building opens\n\n"
    + "The university opened its new engineering building on Monday. " * 3
    + "The building includes labs, lecture theatres, workshops and a cafe. " * 10
    + "Over 2,000 students will use the facilities each week. "
    + "The vice-chancellor thanked the donors and staff who made it possible. " * 8
    + "Plans for new housing on the site were not discussed."
)

SCHOLARSHIPS_PAGE = """\
# Scholarships

The Global Excellence Scholarship is worth £5,000 a year.

Scholarships are awarded on academic merit. Every applicant with an offer is
considered for a scholarship automatically.

## Other funding

Bursaries are available for students from low-income households.
"""

DEADLINES_SECTION = """

## Deadlines

The deadline for scholarship applications is 1 March. Late applications are
not considered after the deadline.
"""

CHINESE_PAGE = """\
# 留学生宿舍

学校为国际学生提供校内宿舍。

## 宿舍费用

双人间每学年 12000 元,单人间每学年 18000 元,费用在入住时缴纳。

## 申请宿舍

新生请在报到前通过留学生服务系统申请宿舍。
"""


def test_page_about_the_query_in_other_words_is_relevant() -> None:
    score = relevance(
        Query("International student housing"),
        markdown=ACCOMMODATION_PAGE,
        title="Accommodation for overseas students | Example University",
        url="https://www.example.ac.uk/study/international/accommodation/",
    )
    assert score >= EVIDENCE_RELEVANCE
    assert score >= 0.5


def test_news_item_mentioning_a_term_once_is_below_min_relevance() -> None:
    for query in ("International student housing", "housing", "students"):
        score = relevance(
            Query(query),
            markdown=NEWS_PAGE,
            title="New engineering building opens",
            url="https://www.example.ac.uk/news/2024/new-engineering-building",
        )
        assert score < MIN_RELEVANCE, query


@pytest.mark.parametrize(
    ("markdown", "title", "headings", "url"),
    [
        pytest.param("", "", (), "", id="all-empty"),
        pytest.param("   \n\n ", "", (), "", id="blank-markdown"),
        pytest.param("", "", (), "https://example.org/", id="root-url"),
    ],
)
def test_empty_page_scores_zero(
    markdown: str, title: str, headings: tuple[str, ...], url: str
) -> None:
    query = Query("scholarship deadline")
    assert relevance(query, markdown=markdown, title=title, headings=headings, url=url) == 0.0


def test_page_about_all_terms_scores_at_least_half() -> None:
    score = relevance(
        Query("scholarship deadline"),
        markdown=SCHOLARSHIPS_PAGE + DEADLINES_SECTION,
        title="Scholarship deadlines",
    )
    assert score >= 0.5


def test_page_fully_about_one_of_two_terms_scores_partly() -> None:
    query = Query("scholarship deadline")
    partial = relevance(query, markdown=SCHOLARSHIPS_PAGE, title="Scholarships")
    full = relevance(
        query, markdown=SCHOLARSHIPS_PAGE + DEADLINES_SECTION, title="Scholarship deadlines"
    )
    assert 0.2 <= partial <= 0.5
    assert partial < full


def test_chinese_page_is_relevant_to_a_chinese_query() -> None:
    score = relevance(Query("留学生宿舍费用"), markdown=CHINESE_PAGE, title="留学生宿舍")
    assert score >= 0.5


def test_chinese_page_is_relevant_to_an_english_query_through_synonyms() -> None:
    score = relevance(Query("international student housing"), markdown=CHINESE_PAGE)
    assert score >= EVIDENCE_RELEVANCE


@pytest.mark.parametrize(
    ("where", "kwargs"),
    [
        pytest.param("title", {"title": "Tuition fees"}, id="title"),
        pytest.param("headings", {"headings": ("Tuition fees",)}, id="headings"),
        pytest.param("url", {"url": "https://example.edu/tuition-fees/"}, id="url"),
    ],
)
def test_each_field_alone_gives_evidence(where: str, kwargs: dict[str, Any]) -> None:
    score = relevance(Query("fees"), markdown="Some unrelated text.", **kwargs)
    assert score > MIN_RELEVANCE, where


def test_title_outweighs_headings_which_outweigh_url() -> None:
    query = Query("fees")
    title = relevance(query, markdown="", title="Fees")
    heading = relevance(query, markdown="", headings=("Fees",))
    url = relevance(query, markdown="", url="https://example.edu/fees")
    assert title > heading > url > 0


def test_long_page_needs_more_mentions_than_a_short_one() -> None:
    query = Query("visa")
    mentions = "You will need a visa. " * 4
    filler = "The campus is a short walk from the station and the river. " * 60
    short = relevance(query, markdown=mentions)
    long = relevance(query, markdown=mentions + filler)
    assert short > long


def test_more_mentions_saturate_below_one() -> None:
    query = Query("visa")
    scores = [relevance(query, markdown="Visa rules. " * n) for n in (2, 4, 8, 32)]
    assert scores == sorted(scores)
    assert scores[-1] <= 1.0
    assert scores[-1] - scores[-2] < scores[1] - scores[0]


def test_headings_are_read_from_markdown_when_not_given() -> None:
    query = Query("fees")
    from_markdown = relevance(query, markdown="## Tuition fees\n\nPay by card.")
    given_headings = relevance(
        query, markdown="## Tuition fees\n\nPay by card.", headings=("Tuition fees",)
    )
    assert from_markdown == given_headings > MIN_RELEVANCE


def test_link_targets_in_markdown_are_not_body_mentions() -> None:
    query = Query("fees")
    markdown = "See [this page](https://example.edu/fees/fees/fees) for more."
    assert relevance(query, markdown=markdown) == 0.0


@pytest.mark.parametrize(
    ("url", "words"),
    [
        pytest.param(
            "https://www.example.ac.uk/study/international-students/Accommodation_Fees.html",
            "study international students Accommodation Fees html",
            id="separators",
        ),
        pytest.param("https://example.edu/%E5%AE%BF%E8%88%8D/", "宿舍", id="percent-decoded-cjk"),
        pytest.param(
            "https://example.edu/#/student-life/housing", "student life housing", id="route"
        ),
        pytest.param(
            "https://example.edu/app#!/studentHousing", "app student Housing", id="hashbang"
        ),
        pytest.param("https://example.edu/page#fees", "page", id="in-page-fragment-dropped"),
        pytest.param("https://fees.example.edu/?q=fees", "", id="host-and-query-dropped"),
        pytest.param("http://[::1", "", id="malformed"),
    ],
)
def test_url_words_read_path_and_route(url: str, words: str) -> None:
    assert url_words(url) == words


# --- properties --------------------------------------------------------------

_QUERY = Query("international student housing")
_TERM_WORDS = st.sampled_from(["international", "students", "housing", "accommodation", "宿舍"])
_TEXT = st.text(max_size=200)
_HEADINGS = st.lists(st.text(max_size=40), min_size=1, max_size=4)


@given(_TEXT, _TEXT, st.lists(st.text(max_size=40), max_size=4), st.text(max_size=80))
def test_relevance_is_within_unit_interval(
    markdown: str, title: str, headings: list[str], url: str
) -> None:
    score = relevance(_QUERY, markdown=markdown, title=title, headings=headings, url=url)
    assert 0.0 <= score <= 1.0


@given(_TEXT, _TEXT, _HEADINGS, _TERM_WORDS)
def test_adding_a_query_term_to_the_title_never_lowers_the_score(
    markdown: str, title: str, headings: list[str], word: str
) -> None:
    before = relevance(_QUERY, markdown=markdown, title=title, headings=headings)
    after = relevance(_QUERY, markdown=markdown, title=f"{title} {word}", headings=headings)
    assert after >= before


@given(_TEXT, _TEXT, _HEADINGS, _TERM_WORDS)
def test_adding_a_heading_with_a_query_term_never_lowers_the_score(
    markdown: str, title: str, headings: list[str], word: str
) -> None:
    before = relevance(_QUERY, markdown=markdown, title=title, headings=headings)
    after = relevance(_QUERY, markdown=markdown, title=title, headings=[*headings, word])
    assert after >= before


def test_a_page_full_of_students_is_not_evidence_for_a_specific_query() -> None:
    home = "\n\n".join(
        ["Our students come first. Students from 120 countries study here."] * 4
        + ["Student life, student clubs and student support for every student."]
    )
    query = Query("accommodation for nursing students on placement")
    assert relevance(query, markdown=home, title="Meridian University") < EVIDENCE_RELEVANCE


def test_a_specific_page_is_relevant_without_the_generic_word() -> None:
    page = (
        "## Accommodation on placement\n\nNursing placements in rural trusts come with "
        "free accommodation in staff residences. Placement accommodation is booked by the "
        "placements office; nursing placement rooms are shared flats."
    )
    query = Query("accommodation for nursing students on placement")
    assert relevance(query, markdown=page, title="Nursing placements") >= EVIDENCE_RELEVANCE


def test_a_page_that_only_says_generic_portal_words_scores_nothing() -> None:
    q = Query("student housing on campus")
    page = "Students love our campus. Every student can join a club on campus. Students!"
    assert relevance(q, markdown=page, title="Campus life for students") == 0.0
    assert relevance(q, markdown=page + " Housing is guaranteed.", title="Housing") > 0.0


@pytest.mark.parametrize(
    ("markdown", "title", "about"),
    [
        ("Halls cost 150 a week. Contracts run 40 weeks. Apply in May.", "Student housing", True),
        ("\n".join(f"- [Housing news {i}](/news/{i})" for i in range(12)), "Housing news", False),
        ("We welcome students. Housing is one of many services. Sport too.", "Welcome", False),
    ],
    ids=["named-in-title", "hub-of-links", "passing-mention"],
)
def test_a_page_is_about_the_query_when_it_names_it_and_is_not_a_hub(
    markdown: str, title: str, about: bool
) -> None:
    verdict = assess(Query("student housing"), markdown=markdown, title=title)
    assert verdict.about is about


def _teaser(title: str, slug: str) -> str:
    return f"## [{title}](https://u.example/blog/{slug}/)\n\nA short teaser on {title.lower()}."


def test_a_listing_of_posts_is_not_about_the_query_however_much_its_teasers_say() -> None:
    q = Query("student housing")
    posts = [
        ("Student housing fees for 2025", "fees"),
        ("New student housing opens", "new-hall"),
        ("Housing for exchange students", "exchange"),
    ]
    listing = "# Blog\n\n" + "\n\n".join(_teaser(t, s) for t, s in posts)
    verdict = assess(q, markdown=listing, title="Blog")
    assert verdict.relevance >= EVIDENCE_RELEVANCE
    assert not verdict.about
    # Two linked headings are not yet a listing.
    two = "# Blog\n\n" + "\n\n".join(_teaser(t, s) for t, s in posts[:2])
    assert assess(q, markdown=two, title="Blog").about
    # A page whose own sections each link to their details: most headings
    # are its own, so it stays about the query.
    own = "\n\n".join(
        f"## {h}\n\nStudent housing {h.lower()}: rooms from 150 a week, halls on campus."
        for h in ("Halls", "Rent", "Contracts", "Rooms")
    )
    programme = (
        "# Student housing\n\n" + own + "\n\n" + "\n\n".join(_teaser(t, s) for t, s in posts)
    )
    assert assess(q, markdown=programme, title="Student housing").about


def test_a_grid_of_cards_is_a_listing_and_sections_with_their_own_text_are_not() -> None:
    q = Query("student housing")
    cards = "\n\n".join(
        f"### {h}\n\nStudent housing {h.lower()} in brief.\n\n[Read more](https://u.example/{h}/)"
        for h in ("Halls", "Rent", "Contracts")
    )
    grid = "# Student housing\n\n" + cards
    verdict = assess(q, markdown=grid, title="Student housing")
    assert verdict.relevance >= EVIDENCE_RELEVANCE
    assert not verdict.about
    # The same sections with a paragraph of their own each explain the topic.
    detail = " Rooms cost 150 a week, bills included; contracts run for 40 weeks from September."
    own = grid.replace(" in brief.", " in brief." + detail * 2)
    assert assess(q, markdown=own, title="Student housing").about


def test_headings_that_link_to_the_page_itself_are_no_listing() -> None:
    # Documentation themes link each heading to its own anchor (a permalink):
    # the page stands for itself, not for other pages.
    q = Query("student housing")
    url = "https://u.example/housing/"
    sections = "\n\n".join(
        f"## [{h}]({url}#{h.lower()})\n\nStudent housing {h.lower()}: see the office."
        for h in ("Halls", "Rent", "Contracts", "Rooms")
    )
    page = "# Student housing\n\n" + sections
    assert assess(q, markdown=page, title="Student housing", url=url).about
    # The same headings linking to pages of their own are a listing.
    elsewhere = page.replace(f"]({url}#", "](https://u.example/housing/")
    assert not assess(q, markdown=elsewhere, title="Student housing", url=url).about


def test_a_page_that_ends_with_next_steps_cards_is_no_listing() -> None:
    # Tabs to the programme's other pages (this one among them), the page's
    # own text, its fee schedule as a PDF, and two "next steps" cards.
    q = Query("tuition fees")
    site = "https://u.example/msc/"
    url = site + "costs"
    tabs = f"[Overview]({site}overview) [Costs]({url}) [Entry]({site}entry)"
    page = "\n\n".join(
        [
            f"# MSc Robotics\n\nTwo years, in English.\n\n{tabs}",
            "## What it costs\n\nTuition fees are EUR 4,200 a year for EU students.",
            "## Talk to us\n\nThe programme office answers questions on fees.",
            f"## Documents\n\n- [Tuition fees 2027]({site}fees-2027.pdf) (PDF)",
            "## Next steps",
            f"### How to apply\n\nDeadlines and documents.\n\n[Learn more]({site}apply)",
            f"### Funding\n\nScholarships for students.\n\n[Learn more]({site}funding)",
        ]
    )
    assert assess(q, markdown=page, title="Tuition fees", url=url).about


def test_hash_routes_are_pages_of_their_own_for_the_listing_rule() -> None:
    # A single-page app's cards link to routes of the same document: each
    # route is a page of its own, so the grid is a listing.
    q = Query("student housing")
    url = "https://u.example/#/housing"
    cards = "\n\n".join(
        f"### {h}\n\nStudent housing {h.lower()}: what to know before you move in."
        f"\n\n[Read more](https://u.example/#/housing/{h.lower()})"
        for h in ("Halls", "Rent", "Contracts")
    )
    grid = "# Student housing\n\n" + cards
    verdict = assess(q, markdown=grid, title="Student housing", url=url)
    assert verdict.relevance >= EVIDENCE_RELEVANCE
    assert not verdict.about
    # The same cards, each linking to the page's own route, are its own sections.
    own = re.sub(r"\(https://u\.example/#/housing/\w+\)", f"({url})", grid)
    assert own != grid
    assert assess(q, markdown=own, title="Student housing", url=url).about


def test_a_page_on_the_qualifier_alone_is_not_about_the_topic() -> None:
    # "engineering" qualifies the topic the lexicon knows (scholarships): a
    # page that names only the qualifier, half the query, is no evidence of
    # it, and a user asking for scholarships does not want it among the answers.
    q = Query("engineering scholarships")
    lab = assess(
        q,
        markdown="Engineering labs open in May. Engineering students build robots.",
        title="Engineering faculty news",
        url="https://u.example/engineering/news/",
    )
    assert nothing(lab)
    # More than half of the query without the topic's word still counts.
    q3 = Query("engineering scholarships Karlsruhe")
    abroad = assess(
        q3,
        markdown="Engineering in Karlsruhe: labs open in May for engineering students.",
        title="Engineering in Karlsruhe",
    )
    assert abroad.relevance > 0.0 and abroad.about
    grant = assess(
        q,
        markdown="Engineering scholarships of 2,500 a year. Apply by 1 March.",
        title="Engineering scholarships",
    )
    assert grant.about
    # A query with no topic of the lexicon keeps the old rule.
    assert assess(
        Query("capstone partner company"),
        markdown="Capstone projects run for eight weeks each spring.",
        title="Capstone projects",
    ).about


def test_the_site_name_is_learnt_from_titles_and_stripped() -> None:
    titles = SiteTitles()
    seen = []
    for title in [
        "Home | DSK International - International School in Kobe",
        "Admissions | DSK International - International School in Kobe",
        "Fees | Saturday school | DSK International - International School in Kobe",
        "Schedule | Saturday school | DSK International - International School in Kobe",
    ]:
        seen.append(titles.strip("dsk.test", title))
        titles.observe("dsk.test", title)
    # Two earlier titles make a part the site's; a section's name stays.
    assert seen[:2] == [
        "Home | DSK International - International School in Kobe",
        "Admissions | DSK International - International School in Kobe",
    ]
    assert seen[2:] == ["Fees | Saturday school", "Schedule | Saturday school"]
    # Per host; a title that is only the site's name says nothing.
    assert titles.strip("other.test", "DSK International") == "DSK International"
    assert titles.strip("dsk.test", "International School in Kobe") == ""
    restored = SiteTitles()
    restored.restore(titles.state())
    assert restored.strip("dsk.test", "Clubs | DSK International") == "Clubs"


def test_a_query_word_in_the_site_name_does_not_make_every_page_relevant() -> None:
    query = Query("international school admissions")
    title = "Clubs | DSK International - International School in Kobe"
    text = "# Clubs\n\nAfter-school clubs: football, chess and robotics, every weekday."
    titles = SiteTitles()
    for _ in range(2):
        titles.observe("dsk.test", title)
    before = assess(query, markdown=text, title=title)
    after = assess(query, markdown=text, title=titles.strip("dsk.test", title))
    assert before.about and not after.about
    assert after.relevance < before.relevance


def test_about_enough_holds_a_page_against_the_best_seen_so_far() -> None:
    about = Assessment(0.3, True)
    assert about_enough(about, best=0.3)  # the first page about the query
    assert about_enough(about, best=0.3 / SHARE_OF_BEST)
    assert not about_enough(about, best=0.31 / SHARE_OF_BEST)
    assert not about_enough(Assessment(0.9, False), best=0.9)  # a hub stays a hub


def test_a_page_naming_only_the_words_that_qualify_the_topic_scores_0() -> None:
    query = Query("Wohnheim oder WG-Zimmer in Karlsruhe finden")
    assert query.topical == (True, False, False)
    leisure = (
        "# Außerhalb des Studiums\n\nKarlsruhe bietet viele Bars. In Karlsruhe gibt es "
        "Kinos, Bäder und Parks; rund um Karlsruhe kann man wandern. Karlsruhe hat einen Zoo."
    )
    # It would count as evidence if "Karlsruhe" were the subject of the query.
    assert assess(Query("Karlsruhe"), markdown=leisure).relevance >= EVIDENCE_RELEVANCE
    assert nothing(assess(query, markdown=leisure, title="Außerhalb des Studiums"))
    housing = "# Wohnheime\n\nDas Studierendenwerk Karlsruhe vermietet Zimmer im Wohnheim."
    assert assess(query, markdown=housing, title="Wohnheime").about
    # Half of the specific terms is enough: the page names the subject by its
    # qualifiers when they are most of the query.
    both = "# WG-Zimmer in Karlsruhe\n\nWG-Zimmer in Karlsruhe: Angebote und Preise."
    assert assess(query, markdown=both, title="WG-Zimmer in Karlsruhe").about


def test_a_page_on_the_level_of_study_alone_is_no_evidence_of_its_fees() -> None:
    query = Query("本科学费一年多少钱")
    match = (
        "# 本科生班级足球赛\n\n本科生班级足球赛每年秋季举行。各院系本科生组队参赛，"
        "本科生裁判由体育部培训。决赛在东操场举行。"
    )
    assert nothing(assess(query, markdown=match, title="本科生班级足球赛"))
    fees = "# 本科学费\n\n本科生学费每学年5000元，在开学前通过网上缴费平台交学费。"
    assert assess(query, markdown=fees, title="本科学费").about


def test_a_page_on_a_lesser_topic_of_the_query_alone_scores_0() -> None:
    query = Query("dorm rooms: how many roommates, private bathroom, housing fee")
    fees = (
        "# Fees\n\nThe tuition fee is paid each semester. A fee of 50 euros is charged "
        "for late payment. The fee can be paid in two instalments."
    )
    # About fees, one of the query's topics, but not its main one (housing).
    assert assess(Query("fee"), markdown=fees, title="Fees").relevance >= EVIDENCE_RELEVANCE
    assert nothing(assess(query, markdown=fees, title="Fees"))
    rooms = (
        "# Dorm rooms\n\nEach dorm room has two roommates and a private bathroom. "
        "The housing fee is 300 euros a month."
    )
    assert assess(query, markdown=rooms, title="Dorm rooms").about


def test_a_query_without_a_topic_word_has_no_qualifiers() -> None:
    query = Query("rowing regatta")
    assert query.topical == (False, False)
    page = "# Rowing regatta\n\nThe rowing regatta is in May."
    assert assess(query, markdown=page, title="Rowing regatta").about


def test_a_site_s_home_page_is_never_about_the_query() -> None:
    # The same text on the home page and on a page of its own: only the second
    # is about the query; the score is the same (the URLs name no term).
    query = Query("student housing")
    home = assess(query, markdown=ACCOMMODATION_PAGE, url="https://u.edu/en/")
    page = assess(query, markdown=ACCOMMODATION_PAGE, url="https://u.edu/en/welcome/")
    assert page.about and not home.about
    assert home.relevance == page.relevance
    spa = assess(query, markdown=ACCOMMODATION_PAGE, url="https://u.edu/#/housing")
    assert spa.about
    # The home of a site under a base path, known to the caller (a subtree root).
    base = assess(query, markdown=ACCOMMODATION_PAGE, url="https://u.io/guide/", home=True)
    assert not base.about and base.relevance == page.relevance


def test_a_question_asking_when_is_answered_by_the_calendar_that_names_its_subject() -> None:
    # "When are the final exams" names no calendar; the page that publishes the
    # dates names itself the academic calendar and mentions the exams twice.
    markdown = (
        "# Academic Calendar 2024-2025\n\n"
        "Registration opens on 1 September. Classes begin on 15 September.\n\n"
        "Final exams take place from 10 to 25 June; resit exams from 1 to 10 September."
    )
    page = {
        "markdown": markdown,
        "title": "Academic Calendar",
        "url": "https://u.example/academics/calendar/",
    }
    asked = assess(Query("when are the final exams"), **page)
    plain = assess(Query("final exams"), **page)
    assert asked.about and asked.relevance >= EVIDENCE_RELEVANCE
    assert asked.relevance > plain.relevance
    # Naming the calendar is no answer by itself: a calendar that never says
    # "exams" is nothing to the question.
    other = {**page, "markdown": "# Academic Calendar\n\nClasses begin on 15 September."}
    assert assess(Query("when are the final exams"), **other).relevance == 0.0
    # A query that names the calendar itself gets no second date facet.
    named = Query("when is the academic calendar for final exams")
    assert not named.names_calendar("Academic Calendar")


def test_a_page_on_another_level_of_study_only_touches_the_query() -> None:
    # The undergraduate page answers "admission requirements" as well as the
    # postgraduate one does, but for other students.
    markdown = (
        "# Admission requirements\n\n"
        "Applicants need a secondary school certificate. Admission requirements "
        "include an entrance exam and an interview; apply online by 1 July."
    )
    query = Query("postgraduate admission requirements")
    other = assess(
        query,
        markdown=markdown,
        title="Undergraduate admission",
        url="https://u.example/admissions/undergraduate/",
    )
    own = assess(
        query,
        markdown=markdown,
        title="Postgraduate admission",
        url="https://u.example/admissions/postgraduate/",
    )
    plain = assess(
        query, markdown=markdown, title="Admission", url="https://u.example/admissions/apply/"
    )
    assert own.about and plain.about
    assert not other.about
    assert MIN_RELEVANCE >= other.relevance > 0.0
    assert own.relevance > plain.relevance


def test_breadth_is_the_share_of_specific_terms_the_text_mentions() -> None:
    query = Query("student housing fees deadline")  # "student" is a generic word
    both = assess(query, markdown="Housing fees are paid each term by the students.")
    assert both.breadth == 2 / 3
    # Named only in the title and the URL: no mention in the text.
    title = assess(
        query,
        markdown="Pay by card at the office.",
        title="Housing fees",
        url="https://u.example/housing/fees/",
    )
    assert title.breadth == 0.0


def test_named_terms_are_the_specific_terms_a_page_names_anywhere() -> None:
    query = Query("student housing fees deadline")  # "student" is generic: never named
    assert query.terms == ("student", "housing", "fees", "deadline")
    verdict = assess(
        query,
        markdown="The deadline is in May for all students.",
        title="Housing",
        url="https://u.example/fees/",
    )
    assert verdict.named == (1, 2, 3)
    # Named once in passing, scoring nothing: still named (what the site uses).
    assert assess(query, markdown="Fees of the library.").named == (2,)
    assert assess(query, markdown="Students welcome.").named == ()


def test_a_word_that_most_pages_name_on_and_off_the_query_is_site_wide() -> None:
    assert (SITE_WIDE_SHARE, SITE_WIDE_OFF_SHARE, SITE_WIDE_MIN_PAGES) == (0.8, 0.5, 8)
    # Term 0 ("radio") is the question's; term 1 ("Gent") the site's city.
    on_query = [{0, 1}, {1}]
    off_query = [{1}] * 6 + [set()] * 2
    named = on_query + off_query  # ten pages: 8 name "Gent", 2 name "radio"
    assert site_wide_terms(named, off_query, candidates=(0, 1)) == {1}
    # Only the query's qualifiers can be site-wide.
    assert site_wide_terms(named, off_query, candidates=(0,)) == frozenset()
    # A focused crawl's own word: on nearly every page, but on fewer than
    # half of the pages off the query it is the query's, not the site's.
    focused = [{0}] * 8 + [{0}, set(), set()]
    assert site_wide_terms(focused, focused[8:], candidates=(0,)) == frozenset()
    assert site_wide_terms(focused, [{0}, {0}, set()], candidates=(0,)) == {0}
    # Too few pages, or fewer than two off the query: nothing is site-wide.
    assert site_wide_terms(named[:7], off_query[:5], candidates=(1,)) == frozenset()
    assert site_wide_terms([{1}] * 9, [{1}], candidates=(1,)) == frozenset()
    # Just under the share: not site-wide.
    seven = [{1}] * 7 + [set()] * 2  # 7 of 9 < 0.8
    assert site_wide_terms(seven, [{1}, {1}], candidates=(1,)) == frozenset()


def test_a_heading_over_nothing_is_not_about_the_query() -> None:
    # A documentation theme's folder index: the folder's name as a heading,
    # nothing under it. It names the subject, and says nothing of it.
    query = Query("third year elective courses")
    empty = assess(query, markdown="# Third year elective courses", url="https://u.example/y3/")
    assert empty.relevance >= EVIDENCE_RELEVANCE and not empty.about
    full = assess(
        query,
        markdown="# Third year elective courses\n\nChoose two elective courses in the autumn term.",
        url="https://u.example/y3/",
    )
    assert full.about
