from __future__ import annotations

import dataclasses

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from pw_adaptive.core.links import (
    DEFAULT_INHERIT,
    FAQ_FLOOR,
    GENERIC_ANCHORS,
    HIDDEN_FACTOR,
    HINT_FLOOR,
    HINT_SPREAD,
    INHERIT_MIN_RELEVANCE,
    MIN_CLUE,
    SECTION_FLOORS,
    Link,
    LinkScore,
    Region,
    is_blind,
    is_faq_link,
    is_generic_anchor,
    is_language_switch,
    language_prefix,
    score_link,
)
from pw_adaptive.core.query import Query, TermWeights
from pw_adaptive.core.relevance import EVIDENCE_RELEVANCE

SITE = "https://www.example.ac.uk"


@pytest.mark.parametrize(
    ("link", "query", "blind"),
    [
        pytest.param(
            Link(
                f"{SITE}/study/fees/accommodation-123",
                text="Learn more",
                context_heading="Accommodation fees",
            ),
            "housing fees",
            False,
            id="learn-more-under-accommodation-fees",
        ),
        pytest.param(
            Link(f"{SITE}/about", text="About us", region=Region.FOOTER),
            "tuition fees",
            True,
            id="about-us-in-footer",
        ),
        pytest.param(
            Link(f"{SITE}/go/5521", text="", accessible_name="Scholarships"),
            "scholarship",
            False,
            id="icon-link-with-aria-label",
        ),
        pytest.param(
            Link(f"{SITE}/your-stay", text="Your stay", region=Region.NAV),
            "student housing",
            True,
            id="your-stay-in-nav",
        ),
        pytest.param(
            Link(f"{SITE}/accommodation/", text="Your stay", region=Region.NAV),
            "student housing",
            False,
            id="your-stay-with-accommodation-url",
        ),
        pytest.param(
            Link(f"{SITE}/#/life/accommodation", text="Your stay", region=Region.NAV),
            "student housing",
            False,
            id="your-stay-with-route-slug",
        ),
        pytest.param(
            Link(f"{SITE}/zsfw/", text="学生宿舍"),
            "宿舍",
            False,
            id="chinese-link-text",
        ),
        pytest.param(
            Link(f"{SITE}/%E5%AE%BF%E8%88%8D/", text="生活"),
            "宿舍",
            False,
            id="chinese-percent-encoded-url",
        ),
        pytest.param(
            Link(f"{SITE}/news/42", text="Read more »", context_heading="New lab opens"),
            "housing fees",
            True,
            id="read-more-under-unrelated-heading",
        ),
        pytest.param(
            Link(f"{SITE}/feedback", text="Feedback", region=Region.FOOTER),
            "fees",
            True,
            id="feedback-is-not-fees",
        ),
    ],
)
def test_link_blindness(link: Link, query: str, blind: bool) -> None:
    q = Query(query)
    assert is_blind(link, q) is blind
    assert score_link(link, q).blind is blind


def test_score_orders_both_terms_then_one_term_then_blind_nav_then_blind_footer() -> None:
    query = Query("housing fees")
    both = Link(f"{SITE}/a", text="Accommodation fees")
    one = Link(f"{SITE}/b", text="Accommodation")
    blind_nav = Link(f"{SITE}/c", text="Your stay", region=Region.NAV)
    blind_footer = Link(f"{SITE}/d", text="Contact", region=Region.FOOTER)
    scores = [score_link(link, query).score for link in (both, one, blind_nav, blind_footer)]
    assert scores == sorted(scores, reverse=True)
    assert len(set(scores)) == 4


@pytest.mark.parametrize(
    ("link", "source", "clue"),
    [
        pytest.param(Link(f"{SITE}/x", text="Accommodation fees"), "text", 1.0, id="text"),
        pytest.param(Link(f"{SITE}/x", text="Fees"), "text", 0.5, id="text-half"),
        pytest.param(
            Link(f"{SITE}/x", accessible_name="Housing fees"),
            "accessible_name",
            0.9,
            id="accessible-name",
        ),
        pytest.param(
            Link(f"{SITE}/x", text="Learn more", context_heading="Housing fees"),
            "context_heading",
            0.9,
            id="heading-over-generic-anchor",
        ),
        pytest.param(
            Link(f"{SITE}/x", text="Undergraduate", context_heading="Housing fees"),
            "context_heading",
            0.4,
            id="heading-over-specific-anchor-counts-partly",
        ),
        pytest.param(
            Link(f"{SITE}/housing/fees", text="Your stay"), "url", 0.6, id="url-weaker-than-text"
        ),
        pytest.param(Link(f"{SITE}/x", text="Your stay"), "", 0.0, id="none"),
    ],
)
def test_clue_comes_from_the_strongest_source(link: Link, source: str, clue: float) -> None:
    result = score_link(link, Query("housing fees"))
    assert result.clue_source == source
    assert result.clue == pytest.approx(clue)


def test_text_wins_over_weaker_sources_that_hit_as_many_terms() -> None:
    link = Link(
        f"{SITE}/housing", text="Housing", accessible_name="Housing", context_heading="Housing"
    )
    assert score_link(link, Query("housing")).clue_source == "text"


def test_score_is_clue_plus_inherited_share_of_parent_relevance() -> None:
    link = Link(f"{SITE}/x", text="Fees")
    result = score_link(link, Query("housing fees"), parent_relevance=0.8)
    assert result.score == pytest.approx(0.5 + DEFAULT_INHERIT * 0.8)
    assert score_link(link, Query("housing fees"), 0.8, inherit=0.0).score == 0.5


def test_inheritance_lifts_a_blind_link_without_making_it_a_clue() -> None:
    link = Link(f"{SITE}/x", text="Next", region=Region.MAIN)
    result = score_link(link, Query("housing fees"), parent_relevance=1.0)
    assert result.blind
    assert result.clue == 0.0
    # Shark-Search: the inherited share comes on top of the section floor.
    assert result.score == pytest.approx(SECTION_FLOORS[Region.MAIN] + DEFAULT_INHERIT)


def test_blind_children_of_a_relevant_page_outrank_blind_links_elsewhere() -> None:
    link = Link(f"{SITE}/x", text="Learn more", region=Region.MAIN)
    query = Query("student visa")
    on_relevant = score_link(link, query, parent_relevance=0.3)
    on_home = score_link(link, query, parent_relevance=0.0)
    assert on_relevant.blind and on_home.blind
    assert on_relevant.score > on_home.score


def test_a_page_below_the_evidence_threshold_passes_nothing_on() -> None:
    # "Faculty of Science" for "computer science PhD application deadline":
    # the page touches one word of the query, and its clue-less department
    # links must not outrank the other faculties' links one level up.
    department = Link(f"{SITE}/departments/chemistry", text="Chemistry", region=Region.MAIN)
    query = Query("computer science PhD application deadline")
    below = score_link(department, query, parent_relevance=INHERIT_MIN_RELEVANCE - 0.01)
    assert below.score == SECTION_FLOORS[Region.MAIN]
    at = score_link(department, query, parent_relevance=INHERIT_MIN_RELEVANCE)
    assert at.score == pytest.approx(
        SECTION_FLOORS[Region.MAIN] + DEFAULT_INHERIT * INHERIT_MIN_RELEVANCE
    )
    # inherit_min=0 restores plain Shark-Search: every page passes its share.
    ungated = score_link(department, query, 0.14, inherit_min=0.0)
    assert ungated.score == pytest.approx(SECTION_FLOORS[Region.MAIN] + DEFAULT_INHERIT * 0.14)
    assert INHERIT_MIN_RELEVANCE == EVIDENCE_RELEVANCE


@pytest.mark.parametrize("inherit_min", [-0.01, 1.01])
def test_inherit_min_outside_unit_interval_is_rejected(inherit_min: float) -> None:
    with pytest.raises(ValueError, match="inherit_min"):
        score_link(Link(f"{SITE}/x"), Query("housing"), 0.5, inherit_min=inherit_min)


def test_click_only_link_in_a_card_is_led_by_the_card_teaser() -> None:
    # A role="link" span found by clicking, under a teaser that names a synonym
    # of a query term: it outranks the menu's clue-less links.
    query = Query("student visa requirements")
    checklist = Link(
        f"{SITE}/arriving/paperwork",
        text="Open the checklist",
        context_heading="Before you fly",
        context_text="Before you fly Your study permit, health cover and documents.",
        via_click=True,
    )
    menu = Link(f"{SITE}/global", text="Global", region=Region.NAV)
    scored = score_link(checklist, query)
    assert not scored.blind and scored.clue_source == "context_text"
    assert scored.score > score_link(menu, query).score
    # Without its teaser the same element is blind and sinks below the menu.
    bare = score_link(dataclasses.replace(checklist, context_text=""), query)
    assert bare.blind and bare.score < score_link(menu, query).score


@pytest.mark.parametrize("region", list(Region), ids=[region.value for region in Region])
def test_blind_link_scores_its_section_floor(region: Region) -> None:
    link = Link(f"{SITE}/x", text="Your stay", region=region)
    result = score_link(link, Query("housing"))
    assert result == LinkScore(score=SECTION_FLOORS[region], clue=0.0, blind=True, clue_source="")


def test_menus_explore_and_footers_rarely() -> None:
    floors = SECTION_FLOORS
    assert floors[Region.NAV] == floors[Region.HEADER]
    assert floors[Region.NAV] > floors[Region.MAIN] > floors[Region.ASIDE] > floors[Region.FOOTER]
    assert all(0.0 < floor < 0.15 for floor in floors.values())


def test_floors_replace_the_section_floors() -> None:
    footer = Link(f"{SITE}/x", text="Legal", region=Region.FOOTER)
    nav = Link(f"{SITE}/y", text="Legal", region=Region.NAV)
    floors = {Region.FOOTER: 0.05}
    assert score_link(footer, Query("housing"), floors=floors).score == 0.05
    assert score_link(nav, Query("housing"), floors=floors).score == 0.0


def test_empty_floors_turn_section_floors_off() -> None:
    nav = Link(f"{SITE}/y", text="Your stay", region=Region.NAV)
    result = score_link(nav, Query("housing"), 0.5, floors={})
    assert result.score == pytest.approx(DEFAULT_INHERIT * 0.5)
    assert score_link(nav, Query("housing"), floors={}).score == 0.0


def test_hidden_links_score_like_visible_ones_with_a_small_penalty() -> None:
    visible = Link(f"{SITE}/x", text="Accommodation", region=Region.NAV)
    hidden = dataclasses.replace(visible, visible=False)
    query = Query("housing")
    floor = SECTION_FLOORS[Region.NAV]
    assert score_link(hidden, query).score == pytest.approx(floor + (1 - floor) * HIDDEN_FACTOR)
    assert not score_link(hidden, query).blind
    assert score_link(hidden, query).score < score_link(visible, query).score
    blind_hidden = Link(f"{SITE}/y", text="Your stay", region=Region.NAV, visible=False)
    assert score_link(blind_hidden, query).score == SECTION_FLOORS[Region.NAV]


@pytest.mark.parametrize(
    "inherit", [pytest.param(-0.1, id="negative"), pytest.param(1.5, id="above-one")]
)
def test_inherit_share_outside_unit_interval_is_rejected(inherit: float) -> None:
    with pytest.raises(ValueError, match="inherit"):
        score_link(Link(f"{SITE}/x"), Query("housing"), inherit=inherit)


@pytest.mark.parametrize(
    ("text", "generic"),
    [
        pytest.param("Learn more", True, id="learn-more"),
        pytest.param("Read more »", True, id="decorated"),
        pytest.param("FIND OUT MORE →", True, id="upper-case-arrow"),
        pytest.param("了解更多 >", True, id="chinese"),
        pytest.param("", True, id="empty"),
        pytest.param("Fees", False, id="specific"),
        pytest.param("Learn more about fees", False, id="specific-sentence"),
    ],
)
def test_generic_anchors(text: str, generic: bool) -> None:
    assert is_generic_anchor(text) is generic


def test_generic_anchors_are_stored_normalized() -> None:
    assert all(anchor == anchor.strip().lower() for anchor in GENERIC_ANCHORS)
    assert {"learn more", "read more", "more", "details", "click here", "更多", "详情"} <= (
        GENERIC_ANCHORS
    )


def test_generic_accessible_name_does_not_stop_heading_from_counting_fully() -> None:
    link = Link(f"{SITE}/x", text="", accessible_name="Learn more", context_heading="Scholarships")
    result = score_link(link, Query("scholarship"))
    assert result.clue_source == "context_heading"
    assert result.clue == pytest.approx(0.9)


# --- properties --------------------------------------------------------------

_QUERY = Query("international student housing")
_LINKS = st.builds(
    Link,
    url=st.text(max_size=60),
    text=st.text(max_size=40),
    accessible_name=st.text(max_size=40),
    region=st.sampled_from(list(Region)),
    context_heading=st.text(max_size=40),
    visible=st.booleans(),
)


@given(_LINKS, st.floats(min_value=-1.0, max_value=2.0, allow_nan=False))
def test_score_link_never_raises_and_stays_in_range(link: Link, parent: float) -> None:
    result = score_link(link, _QUERY, parent)
    assert SECTION_FLOORS[link.region] <= result.score <= 1.0
    assert 0.0 <= result.clue <= 1.0
    # Blind means no clue worth following: none at all, or one below MIN_CLUE
    # (a word of the query in the heading over a link with words of its own).
    assert result.blind is (result.clue < MIN_CLUE) is is_blind(link, _QUERY)
    assert (result.clue_source == "") is (result.clue == 0.0)


@given(_LINKS, st.sampled_from(["Accommodation", "Overseas students", "宿舍"]))
def test_adding_a_query_term_to_a_specific_anchor_never_lowers_the_score(
    link: Link, word: str
) -> None:
    # A generic anchor ("Learn more", or none) is read through its card
    # heading; once it names something itself, the heading counts only partly.
    assume(not is_generic_anchor(link.text))
    before = score_link(link, _QUERY).score
    after = score_link(dataclasses.replace(link, text=f"{link.text} {word}"), _QUERY).score
    assert after >= before


def test_a_weak_clue_is_still_blind() -> None:
    # One word of a four-word query in a card teaser is no lead to follow.
    link = Link(f"{SITE}/x", text="MSc Energy Systems", context_text="Industrial placements.")
    result = score_link(link, Query("veterinary medicine clinical placements"))
    assert 0.0 < result.clue < MIN_CLUE
    assert result.blind


def test_a_generic_word_alone_is_a_weak_clue_with_portal_weights() -> None:
    link = Link(f"{SITE}/x", text="Students win rowing silver")
    query = Query("student visa requirements")
    assert score_link(link, query, weights=query.term_weights).blind
    assert not score_link(Link(f"{SITE}/v", text="Visa guidance"), query).blind


def test_term_weights_discount_terms_on_every_page_but_not_after_one_page() -> None:
    weights = TermWeights(2)
    assert weights.weights() is None
    weights.observe(0b01)
    first = weights.weights()
    assert first is not None and first[0] >= 0.7 and first[1] == 1.0
    for _ in range(20):
        weights.observe(0b01)
    later = weights.weights()
    assert later is not None and later[0] == TermWeights.MIN_WEIGHT and later[1] == 1.0
    # What a clue is weighed with: the query's own weights times the learnt ones.
    assert weights.combined([0.3, 1.0]) == pytest.approx([0.3 * TermWeights.MIN_WEIGHT, 1.0])
    assert TermWeights(2).combined([0.3, 1.0]) == [0.3, 1.0]  # still warming up


@pytest.mark.parametrize(
    ("url", "tag"),
    [
        ("https://u.test/zh-CN/intro.html", "zh-cn"),
        ("https://u.test/en/", "en"),
        ("https://u.test/pt_BR/cursos", "pt_br"),
        ("https://u.test/news/2024", None),
        ("https://u.test/", None),
        ("https://u.test/xx/", None),
    ],
)
def test_language_prefix(url: str, tag: str | None) -> None:
    assert language_prefix(url) == tag


def test_language_switches_need_a_tagged_page() -> None:
    page = "https://u.test/ja/"
    links = [
        "https://u.test/de/",
        "https://u.test/fr/a",
        "https://u.test/ja/b",
        "https://x.test/en/",
    ]
    assert [is_language_switch(page, url) for url in links] == [True, True, False, False]
    # A page at the root gives no evidence that "/it/" is Italian, not IT services.
    assert not is_language_switch("https://u.test/", "https://u.test/it/")
    assert not is_language_switch("https://u.test/", "https://u.test/hr/")


@pytest.mark.parametrize(
    ("url", "text", "faq"),
    [
        ("https://u.edu/faq/library/", "Library", True),  # the URL names it
        ("https://u.edu/x", "Frequently asked questions", True),
        ("https://u.edu/blog/preguntas-frecuentes/", "Dudas", True),
        ("https://u.edu/fuksit/ukk/", "UKK", True),
        ("https://u.edu/a", "よくある質問", True),
        ("https://u.edu/a", "新生常见问题解答", True),  # inside an unspaced run
        ("https://u.edu/a", "الأسئلة الشائعة", True),
        ("https://u.edu/faqir/", "Faqir", False),  # a word that only starts like it
        ("https://u.edu/about/", "About us", False),
    ],
)
def test_faq_links_are_recognised_in_every_script(url: str, text: str, faq: bool) -> None:
    assert is_faq_link(Link(url, text=text)) is faq


def test_a_faq_link_without_a_clue_gets_its_floor_and_stays_blind() -> None:
    query = Query("Mensa Öffnungszeiten")
    faq = score_link(Link("https://u.edu/faq/", text="FAQ", region=Region.FOOTER), query)
    assert faq.blind and faq.score == pytest.approx(FAQ_FLOOR)
    menu = score_link(Link("https://u.edu/about/", text="About", region=Region.NAV), query)
    assert faq.score > menu.score
    # A link with a clue is not lowered, and stays above the FAQ floor.
    clue = score_link(Link("https://u.edu/mensa/", text="Mensa", region=Region.FOOTER), query)
    assert not clue.blind and clue.score > FAQ_FLOOR


def test_a_link_with_a_menu_hint_gets_its_floor_stays_blind_and_yields_to_faq() -> None:
    query = Query("bus routes from campus into town and fares")
    hinted = score_link(
        Link("https://u.edu/road.html", text="Road Transport", region=Region.NAV), query
    )
    assert hinted.blind and HINT_FLOOR < hinted.score < HINT_FLOOR + HINT_SPREAD
    # The hint may sit in the URL alone, and lifts a footer link too.
    by_url = score_link(
        Link("https://u.edu/transportation/", text="More", region=Region.FOOTER), query
    )
    assert by_url.blind and by_url.score == pytest.approx(hinted.score)
    # In a parent segment it names the section, not the page: weaker still.
    in_section = score_link(
        Link("https://u.edu/transportation/maps/", text="More", region=Region.FOOTER), query
    )
    assert in_section.blind and HINT_FLOOR < in_section.score < by_url.score
    menu = score_link(Link("https://u.edu/about/", text="About", region=Region.NAV), query)
    faq = score_link(Link("https://u.edu/faq/", text="FAQ", region=Region.NAV), query)
    assert menu.score < hinted.score < faq.score
    # A link with a clue keeps its own, higher score.
    clue = score_link(Link("https://u.edu/bus/", text="Bus timetable", region=Region.NAV), query)
    assert not clue.blind and clue.score > FAQ_FLOOR


def test_a_hint_that_names_the_section_of_more_of_the_query_comes_first() -> None:
    # "shuttle" and "bus" reach the transport topic, "timetable" the class
    # timetable: a study menu hints the timetable, a transport menu both.
    query = Query("campus shuttle bus timetable and fare")
    transport = score_link(Link("https://u.edu/a/", text="校内出行", region=Region.NAV), query)
    study = score_link(Link("https://u.edu/b/", text="学习相关", region=Region.NAV), query)
    menu = score_link(Link("https://u.edu/c/", text="关于", region=Region.NAV), query)
    faq = score_link(Link("https://u.edu/d/", text="常见问题", region=Region.NAV), query)
    assert transport.blind and study.blind
    assert menu.score < study.score < transport.score < faq.score
    assert transport.score - HINT_FLOOR == pytest.approx(2 * (study.score - HINT_FLOOR))


@pytest.mark.parametrize(
    ("link", "query", "qualifier_only"),
    [
        pytest.param(
            Link(f"{SITE}/news/42", text="Undergraduate class football match"),
            "undergraduate tuition fees",
            True,
            id="a level of study alone, in the text",
        ),
        pytest.param(
            Link(f"{SITE}/news/42", text="Undergraduate tuition fees 2026"),
            "undergraduate tuition fees",
            False,
            id="the topic beside it",
        ),
        pytest.param(
            Link(f"{SITE}/undergraduate/plan-2018/", text="Electromagnetism I"),
            "undergraduate tuition fees",
            False,
            id="in the URL: the section the page sits in",
        ),
        pytest.param(
            Link(f"{SITE}/news/7", text="Boat race in Karlsruhe"),
            "Wohnheim in Karlsruhe",
            True,
            id="a place",
        ),
        pytest.param(
            Link(f"{SITE}/news/7", text="Karlsruhe rowing club"),
            "Karlsruhe rowing club",
            False,
            id="a query that names no topic of the lexicon",
        ),
        pytest.param(
            Link(f"{SITE}/news/7", text="Rowing club"),
            "undergraduate tuition fees",
            False,
            id="blind",
        ),
    ],
)
def test_a_clue_of_words_that_only_qualify_the_topic(
    link: Link, query: str, qualifier_only: bool
) -> None:
    scored = score_link(link, Query(query))
    assert scored.qualifier_only is qualifier_only
    assert not (scored.qualifier_only and scored.blind)
    assert not scored.qualifier_context_only  # every clue above is on the link


@pytest.mark.parametrize(
    ("link", "around"),
    [
        pytest.param(
            Link(f"{SITE}/program/it", text="", context_heading="Film night in Karlsruhe"),
            True,
            id="an image link under a heading naming the place",
        ),
        pytest.param(
            Link(f"{SITE}/news/7", text="Read more", context_text="A regatta in Karlsruhe."),
            True,
            id="a generic anchor in a paragraph naming the place",
        ),
        pytest.param(
            Link(f"{SITE}/news/7", text="Boat race in Karlsruhe"),
            False,
            id="the place in the link's own text",
        ),
        pytest.param(
            Link(f"{SITE}/halls", text="", context_heading="Wohnheim in Karlsruhe"),
            False,
            id="the topic around the link",
        ),
    ],
)
def test_a_qualifier_only_around_the_link(link: Link, around: bool) -> None:
    scored = score_link(link, Query("Wohnheim in Karlsruhe"))
    assert not scored.blind
    assert scored.qualifier_context_only is around
    assert scored.qualifier_context_only <= scored.qualifier_only


def test_a_part_of_a_compound_of_the_query_hints_at_it_and_the_link_stays_blind() -> None:
    pytest.importorskip("wordfreq")
    # "Prüfungssekretariat" (exam office) and "Klausurtag" (exam day) are
    # compounds: a menu's "Prüfungsanmeldung" (exam registration) shares
    # their first part and leads where the exam rules are.
    query = Query(
        "bin am Klausurtag krank, bis wann muss das Attest beim Prüfungssekretariat sein?"
    )
    exams = score_link(
        Link("https://u.de/infos/pruefungen/", text="Prüfungsanmeldung", region=Region.NAV), query
    )
    menu = score_link(Link("https://u.de/alumni/", text="Alumni", region=Region.NAV), query)
    assert exams.blind and HINT_FLOOR < exams.score < HINT_FLOOR + HINT_SPREAD
    assert menu.score < exams.score
    # A part hints as the query writes it, not by its stem: "informatik"
    # stems to "informat", which starts "Informationsseite" too.
    media = Query("Bewerbungsschluss für den Bachelor Medieninformatik")
    info = score_link(Link("https://u.de/i/", text="Informationsseite", region=Region.NAV), media)
    cs = score_link(Link("https://u.de/c/", text="Informatik", region=Region.NAV), media)
    assert info.score < HINT_FLOOR < cs.score and cs.blind
    # A generic portal word is no hint ("Studenten" of "Studentenwohnheim").
    housing = Query("Zimmer im Studentenwohnheim")
    students = score_link(Link("https://u.de/s/", text="Studentenrat", region=Region.NAV), housing)
    assert students.blind and students.score < HINT_FLOOR
