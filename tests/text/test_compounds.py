from __future__ import annotations

import pytest

from pw_adaptive.text import compounds
from pw_adaptive.text.compounds import split_compound

needs_wordfreq = pytest.mark.skipif(
    compounds._frequency() is None, reason="wordfreq is not installed (extra segmenters)"
)


@needs_wordfreq
@pytest.mark.parametrize(
    ("word", "lang", "parts"),
    [
        # German, with and without a linking "s".
        ("prüfungssekretariat", "de", ("prüfung", "sekretariat")),
        ("auslandssemester", "de", ("ausland", "semester")),
        ("klausurtag", "de", ("klausur", "tag")),
        ("kinderbetreuung", "de", ("kinder", "betreuung")),
        # Dutch, linking "en"; Swedish; Norwegian filed under Bokmål.
        ("studentenvereniging", "nl", ("studenten", "vereniging")),
        ("studentbostad", "sv", ("student", "bostad")),
        ("studentbolig", "no", ("student", "bolig")),
    ],
)
def test_a_closed_compound_is_cut_into_two_common_words(
    word: str, lang: str, parts: tuple[str, str]
) -> None:
    assert split_compound(word, lang) == parts


@needs_wordfreq
@pytest.mark.parametrize(
    ("word", "lang"),
    [
        ("informatik", "de"),  # no cut leaves two common words
        ("zulassung", "de"),
        ("semester", "de"),  # a common word of its own
        ("wohnheim", "xx"),  # not a compounding language
        ("tenttitulokset", "fi"),  # Finnish: case endings are "words" of the lists
        ("accommodation", "en"),
        ("klausur-tag", "de"),  # hyphenated words are split by the query
        ("tagzeit", "de"),  # too short
    ],
)
def test_other_words_and_languages_stay_whole(word: str, lang: str) -> None:
    assert split_compound(word, lang) is None


def test_without_wordfreq_no_word_is_split(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compounds, "_frequency", lambda: None)
    split_compound.cache_clear()
    try:
        assert split_compound("prüfungssekretariat", "de") is None
    finally:
        split_compound.cache_clear()
