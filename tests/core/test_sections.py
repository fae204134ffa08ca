"""SectionWords: a qualifier of the query that names a section leading nowhere."""

from __future__ import annotations

import pytest

from pw_adaptive.core.query import Query
from pw_adaptive.core.sections import (
    SECTION_PATIENCE,
    SectionWords,
    mask_section_words,
    qualifiers_of,
    section_terms,
)

QUERY = Query("becas para estudiantes de pregrado")
PREGRADO = 1 << QUERY.terms.index("pregrado")
COURSE = "http://a.test/unmsm/pregrado/plan-2018/cfo601/"


def test_qualifiers_are_the_specific_words_that_name_no_topic() -> None:
    assert QUERY.topical[QUERY.terms.index("becas")]
    assert qualifiers_of(QUERY) == PREGRADO  # "estudiantes" is a generic portal word
    # A query that names no topic of the lexicon has no qualifiers to learn.
    assert qualifiers_of(Query("Karlsruhe Mannheim")) == 0


@pytest.mark.parametrize(
    ("url", "terms"),
    [
        (COURSE, PREGRADO),
        ("http://a.test/unmsm/pregrado/", 0),  # the section's own page names it last
        ("http://a.test/pregrado/becas-pregrado/", 0),  # and so does this leaf
        ("http://a.test/blog/becas/", 0),
        ("http://a.test/#/pregrado/cfo601", PREGRADO),  # a hash route's path
    ],
)
def test_section_terms_are_qualifiers_of_parent_segments_only(url: str, terms: int) -> None:
    assert section_terms(QUERY, url) == terms


def test_a_spent_words_parent_segments_are_masked_for_scoring() -> None:
    assert mask_section_words(QUERY, COURSE, PREGRADO) == "http://a.test/unmsm/_/plan-2018/cfo601/"
    assert mask_section_words(QUERY, COURSE, 0) == COURSE
    assert mask_section_words(QUERY, "http://a.test/#/pregrado/x?id=1", PREGRADO) == (
        "http://a.test/#/_/x?id=1"
    )
    assert mask_section_words(QUERY, "http://a.test/blog/becas/", PREGRADO) == (
        "http://a.test/blog/becas/"
    )


def test_a_word_is_spent_after_patience_irrelevant_pages_under_it() -> None:
    words = SectionWords(QUERY, patience=3)
    assert words.observe(COURSE, 0.0) == 0
    assert words.observe("http://a.test/unmsm/pregrado/plan-2018/cfo602/", 0.0) == 0
    assert words.observe("http://a.test/blog/", 0.0) == 0  # not under the word
    assert words.observe("http://a.test/unmsm/pregrado/plan-2018/cfo603/", 0.01) == PREGRADO
    assert words.spent == PREGRADO
    assert words.observe("http://a.test/unmsm/pregrado/plan-2018/cfo604/", 0.0) == 0  # once


def test_one_relevant_page_under_the_word_keeps_it_a_clue_for_good() -> None:
    words = SectionWords(QUERY, patience=2)
    words.observe("http://a.test/unmsm/pregrado/becas/", 0.4)
    for n in range(SECTION_PATIENCE):
        words.observe(f"http://a.test/unmsm/pregrado/plan-2018/cfo{n}/", 0.0)
    assert words.spent == 0


def test_state_round_trips_and_is_checked() -> None:
    words = SectionWords(QUERY, patience=2)
    words.observe(COURSE, 0.0)
    words.observe(COURSE.replace("601", "602"), 0.0)
    again = SectionWords(QUERY, patience=2)
    again.restore(words.state())
    assert again.spent == PREGRADO and again.state() == words.state()
    again.restore(None)  # a checkpoint written before section words were kept
    assert again.spent == PREGRADO
    with pytest.raises(ValueError, match="another number of terms"):
        SectionWords(Query("housing")).restore(words.state())
    with pytest.raises(ValueError, match="patience"):
        SectionWords(QUERY, patience=0)
