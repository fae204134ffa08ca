"""Tests for pw_adaptive.core.dedup: fingerprints and near-duplicates."""

from __future__ import annotations

import random

import pytest

from fixtures_site.words import PORTAL_WORDS
from pw_adaptive.core.dedup import (
    ContentDeduper,
    DedupMatch,
    exact_fingerprint,
    fingerprint,
    hamming,
    jaccard,
    simhash64,
    tokenize,
)
from pw_adaptive.text.normalize import normalize_main_text

_VOCABULARY = PORTAL_WORDS


def _long_text(seed: int, words: int = 400) -> str:
    rng = random.Random(seed)
    return " ".join(rng.choice(_VOCABULARY) for _ in range(words))


def _fingerprint_form(text: str) -> str:
    return normalize_main_text(text, for_fingerprint=True)


def test_normalize_main_text_folds_case_width_and_whitespace() -> None:
    assert (
        _fingerprint_form("  Ｓｔｕｄｅｎｔ\tHOUSING \n\n Fee 2025 ") == "student housing fee 2025"
    )
    assert _fingerprint_form(_fingerprint_form("ﬁnal  Ａ")) == _fingerprint_form("ﬁnal  Ａ")


def test_normalize_main_text_by_default_only_tidies_whitespace_per_line() -> None:
    raw = "  Ｓｔｕｄｅｎｔ\tHOUSING \n\n \n Fee   2025 "
    assert normalize_main_text(raw) == "Ｓｔｕｄｅｎｔ HOUSING\nFee 2025"
    assert normalize_main_text(normalize_main_text(raw)) == normalize_main_text(raw)
    assert _fingerprint_form(normalize_main_text(raw)) == _fingerprint_form(raw)


def test_tokenize_splits_cjk_into_characters() -> None:
    assert tokenize("国际学生宿舍 fees 2025") == [
        "国",
        "际",
        "学",
        "生",
        "宿",
        "舍",
        "fees",
        "2025",
    ]


def test_exact_fingerprint_ignores_case_and_spacing() -> None:
    assert exact_fingerprint("Housing  Fees\n2025") == exact_fingerprint("housing fees 2025")
    assert exact_fingerprint("housing fees 2025") != exact_fingerprint("housing fees 2026")
    assert len(exact_fingerprint("x")) == 32


def test_simhash_is_stable_across_processes() -> None:
    # Pinned value: BLAKE2b is unsalted, so the fingerprint never changes.
    assert simhash64("the quick brown fox jumps over the lazy dog") == simhash64(
        "The  quick brown fox jumps over the lazy dog."
    )
    assert simhash64("") == 0
    assert 0 <= simhash64(_long_text(1)) < 2**64


def test_hamming_counts_differing_bits() -> None:
    assert hamming(0b1011, 0b0001) == 2
    assert hamming(2**64 - 1, 0) == 64


def test_jaccard() -> None:
    assert jaccard({"a", "b"}, {"b", "c"}) == pytest.approx(1 / 3)
    assert jaccard(set(), set()) == 1.0


def test_exact_duplicate_is_reported_and_not_recorded() -> None:
    deduper = ContentDeduper()
    text = _long_text(1)
    assert deduper.check("https://u.edu/a", text) is None
    assert deduper.check("https://u.edu/a?print=1", text.upper()) == "duplicate"
    assert len(deduper) == 1
    assert deduper.match(text) == DedupMatch("duplicate", "https://u.edu/a", 1.0)


@pytest.mark.parametrize(
    "edit",
    [
        pytest.param(lambda w: w.__setitem__(200, "zebra"), id="changed-word"),
        pytest.param(lambda w: w.insert(5, "Updated 12 March 2025"), id="changed-date"),
        pytest.param(lambda w: w.append("views 10423"), id="counter-at-end"),
    ],
)
def test_near_duplicate_long_page(edit: object) -> None:
    deduper = ContentDeduper()
    words = _long_text(7).split()
    assert deduper.check("https://u.edu/a", " ".join(words)) is None
    assert callable(edit)
    edit(words)
    assert deduper.check("https://u.edu/b", " ".join(words)) == "near_duplicate"
    found = deduper.match(" ".join(words))
    assert found is not None and found.original_url == "https://u.edu/a"


def test_distinct_long_pages_are_not_flagged() -> None:
    deduper = ContentDeduper()
    for seed in range(200):
        assert deduper.check(f"https://u.edu/{seed}", _long_text(seed)) is None
    assert len(deduper) == 200


def test_short_page_near_duplicate_by_jaccard() -> None:
    deduper = ContentDeduper()
    base = _long_text(3, words=30).split()
    base = [*dict.fromkeys(base), "alpha", "beta", "gamma"]  # distinct words
    assert deduper.check("https://u.edu/a", " ".join(base)) is None
    changed = [*base[:-1], "delta"]
    assert deduper.check("https://u.edu/b", " ".join(changed)) == "near_duplicate"


def test_distinct_short_pages_are_not_flagged() -> None:
    deduper = ContentDeduper()
    assert deduper.check("https://u.edu/a", "Housing fees for 2025 are listed below.") is None
    assert deduper.check("https://u.edu/b", "Application deadlines for 2025 are below.") is None
    assert deduper.check("https://u.edu/c", "Contact the housing office.") is None


def test_short_and_long_pages_use_their_own_test() -> None:
    deduper = ContentDeduper(short_text_words=10)
    assert deduper.check("https://u.edu/a", "one two three four five six seven eight") is None
    # 8 words vs 9 distinct words: Jaccard 8/9 < 0.9, not a near-duplicate.
    assert deduper.check("https://u.edu/b", "one two three four five six seven eight nine") is None


def test_tokenize_splits_hangul_into_characters_like_han_and_kana() -> None:
    assert tokenize("기숙사를 신청 fees") == ["기", "숙", "사", "를", "신", "청", "fees"]


def test_korean_notice_with_one_particle_added_is_a_near_duplicate() -> None:
    # Hangul used to tokenise as words: "기숙사의" was a new word, and the short
    # page's word-set Jaccard (11/13) missed it; per character it is 33/34.
    notice = "2025학년도 2학기 기숙사 입사 신청 안내. 신청 기간은 8월 1일부터 14일까지이며 포털에서 신청합니다."
    deduper = ContentDeduper()
    assert deduper.check("https://u.edu/ko/a", notice) is None
    variant = notice.replace("기숙사 입사", "기숙사의 입사")
    assert deduper.check("https://u.edu/ko/b", variant) == "near_duplicate"
    other = "도서관 이용 시간 안내. 학기 중에는 오전 9시부터 오후 10시까지 운영합니다."
    assert deduper.check("https://u.edu/ko/c", other) is None


def test_cjk_near_duplicate_and_distinct() -> None:
    deduper = ContentDeduper()
    rng = random.Random(5)
    chars = "国际学生宿舍申请截止日期住宿费用退款政策校园图书馆食堂奖学金录取要求"
    text = "".join(rng.choice(chars) for _ in range(600))
    assert fingerprint(text).word_count == 600
    assert deduper.check("https://u.edu/zh/a", text) is None
    assert deduper.check("https://u.edu/zh/b", text[:300] + "更新" + text[300:]) == "near_duplicate"
    other = "".join(rng.choice(chars) for _ in range(600))
    assert deduper.check("https://u.edu/zh/c", other) is None


@pytest.mark.parametrize("bad", [-1, 32])
def test_deduper_rejects_bad_threshold(bad: int) -> None:
    with pytest.raises(ValueError, match="near_threshold"):
        ContentDeduper(near_threshold=bad)


def test_near_threshold_zero_still_finds_exact_simhash() -> None:
    deduper = ContentDeduper(near_threshold=0)
    text = _long_text(11)
    assert deduper.check("https://u.edu/a", text) is None
    # Same tokens, different punctuation: not equal texts, but equal SimHash.
    assert deduper.check("https://u.edu/b", text + " .") == "near_duplicate"
