"""The extraction benchmark's measures (no browser): tokens, precision and
recall against the main content, the chrome-first flag, the page sample."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import extraction


def test_tokens_are_words_and_single_cjk_characters() -> None:
    assert extraction.tokens("Skip to 宿舍app, fees_2026 العربية") == [
        "skip", "to", "宿", "舍", "app", "fees", "2026", "العربية",
    ]  # fmt: skip


def test_link_targets_are_not_words_a_reader_sees() -> None:
    text = extraction.markdown_text("See [fees](http://h.example/fees-2026) now")
    assert extraction.tokens(text) == ["see", "fees", "now"]


def test_precision_recall_and_chrome_first() -> None:
    main = "Tuition fees are 9250 pounds a year"
    s = extraction.score("Skip to content\n\n" + main + " menu menu", main)
    assert s.recall == 1.0
    assert s.precision == pytest.approx(7 / 12)
    assert s.chrome_first
    clean = extraction.score(main, main)
    assert (clean.precision, clean.recall, clean.f1, clean.chrome_first) == (1, 1, 1, False)
    assert extraction.score("", main).f1 == 0.0


def test_the_sample_spreads_over_the_site_and_skips_404(tmp_path: Path) -> None:
    for i in range(10):
        (tmp_path / f"p{i}").mkdir()
        (tmp_path / f"p{i}" / "index.html").write_text("x")
    (tmp_path / "404.html").write_text("x")
    pages = extraction.sample(tmp_path, 3)
    assert pages == ["p0/index.html", "p3/index.html", "p6/index.html"]
