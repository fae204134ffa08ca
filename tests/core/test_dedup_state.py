"""Tests for the checkpoint form of the dedup state: `ContentDeduper.state` /
`restore` give back a deduper that answers exactly as the saved one (the
soft-404 probes' state is tested in test_soft404.py)."""

from __future__ import annotations

import json
import random

import pytest

from pw_adaptive.core.dedup import ContentDeduper

_WORDS = ["housing", "fees", "tuition", "deadline", "visa", "library", "hall", "room",
          "contract", "scholarship", "nursing", "placement", "campus", "rent", "term"]  # fmt: skip


def _text(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(_WORDS) + str(rng.randrange(50)) for _ in range(words))


def _corpus() -> list[str]:
    """Long and short pages, with exact and near copies among them."""
    rng = random.Random(7)
    pages = [_text(rng, rng.choice([12, 30, 120, 400])) for _ in range(40)]
    pages.append(pages[3].upper())  # exact duplicate after normalisation
    long_page = next(p for p in pages if len(p.split()) >= 120)
    pages.append(long_page + " one extra sentence")  # near-duplicate, long
    short_page = next(p for p in pages if len(p.split()) == 30)
    pages.append(short_page.rsplit(" ", 1)[0] + " changed1")  # near-duplicate, short
    return pages


def test_a_restored_deduper_classifies_every_later_page_as_the_original_does() -> None:
    pages = _corpus()
    original = ContentDeduper()
    for i, text in enumerate(pages[:25]):
        original.check(f"https://u.edu/{i}", text)
    rows = json.loads(json.dumps(original.state()))  # through JSON, as in the state file
    restored = ContentDeduper()
    restored.restore(rows)
    assert restored.recorded == original.recorded and len(restored) == len(original)
    for i, text in enumerate(pages[25:] + pages[:25], start=25):
        assert restored.match(text) == original.match(text)
        assert restored.check(f"https://u.edu/{i}", text) == original.check(
            f"https://u.edu/{i}", text
        )
    assert restored.state() == original.state()


def test_deduper_state_rows_are_incremental() -> None:
    pages = _corpus()
    deduper = ContentDeduper()
    saved: list[list[object]] = []
    for i, text in enumerate(pages):
        before = deduper.recorded
        deduper.check(f"https://u.edu/{i}", text)
        saved.extend(deduper.state(before))  # what a checkpoint adds after each page
    assert saved == deduper.state()
    restored = ContentDeduper()
    restored.restore(saved[:10])
    restored.restore(saved[10:])
    assert restored.state() == deduper.state()


def test_a_near_duplicate_seen_before_a_restore_is_still_one_after_it() -> None:
    rng = random.Random(3)
    page = _text(rng, 200)
    original = ContentDeduper()
    assert original.check("https://u.edu/a", page) is None
    restored = ContentDeduper()
    restored.restore(original.state())
    assert restored.check("https://u.edu/b", page + " print view") == "near_duplicate"
    assert restored.check("https://u.edu/c", page.title()) == "duplicate"
    assert restored.match(page + " print view").original_url == "https://u.edu/a"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "row",
    [
        pytest.param(["https://u.edu/"], id="too-short"),
        pytest.param(["https://u.edu/", "ab", "not-a-number", None], id="bad-simhash"),
        pytest.param(None, id="not-a-row"),
    ],
)
def test_deduper_restore_rejects_malformed_rows(row: object) -> None:
    with pytest.raises(ValueError, match="malformed"):
        ContentDeduper().restore([row])  # type: ignore[list-item]
