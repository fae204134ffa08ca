"""Loading jieba's prefix table from its cache in one piece, and Korean words' content parts (``text.segment``)."""

from __future__ import annotations

import marshal
import tempfile
from pathlib import Path

import jieba
import pytest

from pw_adaptive.core.query import Query
from pw_adaptive.text import segment

PHRASES = ("宿舍住宿条件各宿舍楼情况设施规定", "研究生招生简章和学费标准", "校园网络怎么办理")


def test_the_cache_read_in_one_piece_cuts_as_jieba_does() -> None:
    reference = jieba.Tokenizer()
    reference.initialize()  # builds jieba's cache first when the machine has none
    fast = jieba.Tokenizer()
    assert segment._load_jieba_cache(fast)
    assert fast.initialized and fast.total == reference.total
    assert fast.FREQ == reference.FREQ
    for phrase in PHRASES:
        assert fast.lcut(phrase) == reference.lcut(phrase)


@pytest.mark.parametrize(
    "content",
    [None, b"not marshal at all", marshal.dumps(["a", "list"]), marshal.dumps(({}, 0))],
    ids=["missing", "garbage", "wrong-shape", "empty-table"],
)
def test_no_usable_cache_leaves_the_load_to_jieba(
    content: bytes | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    if content is not None:
        (tmp_path / "jieba.cache").write_bytes(content)
    tokenizer = jieba.Tokenizer()
    assert not segment._load_jieba_cache(tokenizer)
    assert not tokenizer.initialized


def test_a_tokenizer_with_its_own_dictionary_or_cache_is_left_alone(tmp_path: Path) -> None:
    custom = tmp_path / "dict.txt"
    custom.write_text("宿舍楼 5 n\n", encoding="utf-8")
    assert not segment._load_jieba_cache(jieba.Tokenizer(str(custom)))
    own_cache = jieba.Tokenizer()
    own_cache.cache_file = str(tmp_path / "mine.cache")
    assert not segment._load_jieba_cache(own_cache)


@pytest.mark.parametrize(
    ("word", "content"),
    [
        ("기숙사를", "기숙사"),
        ("스케줄링에서", "스케줄링"),
        ("지원해야", "지원"),
        ("휴학하려면", "휴학"),
        ("장학금은", "장학금"),
        ("되나요", None),
        ("알려주세요", None),
        ("어떻게", None),
        ("막는", None),
    ],
)
def test_a_korean_word_keeps_its_content_part(word: str, content: str | None) -> None:
    assert segment.korean_content(word) == content


def test_without_kiwi_a_korean_word_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(segment, "_kiwi", lambda: None)
    assert segment.korean_content("되나요") == "되나요"


def test_without_kiwi_a_korean_query_word_still_loses_its_particle(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The fallback the module promises: a known particle is cut, as before Kiwi.
    monkeypatch.setattr(segment, "_kiwi", lambda: None)
    assert segment.korean_content("기숙사를") == "기숙사"
    assert Query("기숙사를 신청").terms == ("기숙사", "신청")
