"""Tests for pw_adaptive.crawling.checkpoint: SQLite state files and resume."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from pw_adaptive.core.frontier import Frontier, FrontierEntry
from pw_adaptive.crawling.checkpoint import Checkpoint

KEY = "crawl-key-1"


def _filled_frontier() -> Frontier:
    frontier = Frontier(max_pages=100)
    for i in range(40):
        frontier.push(
            f"https://u.edu/p{i}",
            score=(i * 37 % 17) / 17,
            depth=i % 4,
            blind=i % 5 == 0,
            parent="https://u.edu/",
            text=f"link {i}",
            qualifier_only=i % 5 == 1,
        )
    frontier.push("https://other.org/x", score=0.5, depth=1)
    frontier.set_crawl_delay("u.edu", 2.0)
    return frontier


def _drain(frontier: Frontier) -> list[FrontierEntry]:
    out: list[FrontierEntry] = []
    now = 0.0
    while (wait := frontier.next_ready_in(now)) is not None:
        now += wait
        entry = frontier.pop(now)
        if entry is None:
            break
        out.append(entry)
    return out


def test_round_trip_gives_the_same_pop_order(tmp_path: Path) -> None:
    path = tmp_path / "state.sqlite"
    original = _filled_frontier()
    first = original.pop(-10.0)  # host timers are not saved: let the delay pass
    assert first is not None
    original.mark_done(first.url, "https://u.edu/moved")
    with Checkpoint(path, crawl_key=KEY) as checkpoint:
        assert not checkpoint.has_frontier
        checkpoint.save_frontier(original)
        assert checkpoint.has_frontier
    resumed = Frontier(max_pages=100)
    with Checkpoint(path, crawl_key=KEY) as checkpoint:
        checkpoint.load_frontier(resumed)
    assert resumed.fetched == 1
    assert resumed.skipped == original.skipped
    assert resumed.is_known("https://u.edu/moved")
    assert resumed.push(first.url, score=1.0, depth=0) == "duplicate_url"
    original.push(first.url, score=1.0, depth=0)
    assert _drain(resumed) == _drain(original)


def test_incremental_saves_match_a_full_save(tmp_path: Path) -> None:
    frontier = _filled_frontier()
    with Checkpoint(tmp_path / "inc.sqlite", crawl_key=KEY) as checkpoint:
        checkpoint.save_frontier(frontier)  # full
        for step in range(15):
            entry = frontier.pop(step * 10.0)
            assert entry is not None
            frontier.push(f"https://u.edu/new{step}", score=0.3, depth=2)
            frontier.push("https://u.edu/p7", score=0.99, depth=1)  # upgrade once
            frontier.mark_done(entry.url, f"https://u.edu/final{step}")
            checkpoint.save(frontier, state={"offset": step})
        in_flight = frontier.pop(1000.0)  # saved as queued
        assert in_flight is not None
        checkpoint.save_frontier(frontier)
        assert checkpoint.get_state("offset") == 14
    expected = frontier.snapshot()
    resumed = Frontier(max_pages=100)
    with Checkpoint(tmp_path / "inc.sqlite", crawl_key=KEY) as checkpoint:
        checkpoint.load_frontier(resumed)
    assert resumed.snapshot() == expected


def test_saves_after_load_are_incremental(tmp_path: Path) -> None:
    path = tmp_path / "state.sqlite"
    with Checkpoint(path, crawl_key=KEY) as checkpoint:
        checkpoint.save_frontier(_filled_frontier())
    resumed = Frontier(max_pages=100)
    with Checkpoint(path, crawl_key=KEY) as checkpoint:
        checkpoint.load_frontier(resumed)
        assert resumed.drain_changes(checkpoint) is not None  # journal is on
        entry = resumed.pop(0.0)
        assert entry is not None
        resumed.mark_done(entry.url)
        checkpoint.save_frontier(resumed)
    again = Frontier(max_pages=100)
    with Checkpoint(path, crawl_key=KEY) as checkpoint:
        checkpoint.load_frontier(again)
    assert again.snapshot() == resumed.snapshot()


def test_load_from_a_new_file_leaves_the_frontier_alone(tmp_path: Path) -> None:
    frontier = _filled_frontier()
    before = frontier.snapshot()
    with Checkpoint(tmp_path / "new.sqlite", crawl_key=KEY) as checkpoint:
        checkpoint.load_frontier(frontier)
    assert frontier.snapshot() == before


def test_state_values(tmp_path: Path) -> None:
    with Checkpoint(tmp_path / "s.sqlite", crawl_key=KEY) as checkpoint:
        assert checkpoint.get_state("stopper") is None
        checkpoint.put_state("stopper", {"stale": 2, "evidence": [1, 0, 3], "name": "宿舍"})
        checkpoint.put_state("offset", 1234)
        checkpoint.put_state("offset", 1300)
    with Checkpoint(tmp_path / "s.sqlite", crawl_key=KEY) as checkpoint:
        assert checkpoint.get_state("stopper") == {
            "stale": 2,
            "evidence": [1, 0, 3],
            "name": "宿舍",
        }
        assert checkpoint.get_state("offset") == 1300


def test_failed_save_rolls_back_and_next_save_is_full(tmp_path: Path) -> None:
    frontier = _filled_frontier()
    with Checkpoint(tmp_path / "f.sqlite", crawl_key=KEY) as checkpoint:
        checkpoint.save_frontier(frontier)
        frontier.push("https://u.edu/late", score=0.8, depth=1)
        with pytest.raises(TypeError):
            checkpoint.save(frontier, state={"bad": object()})
        checkpoint.save_frontier(frontier)
    resumed = Frontier(max_pages=100)
    with Checkpoint(tmp_path / "f.sqlite", crawl_key=KEY) as checkpoint:
        checkpoint.load_frontier(resumed)
    assert resumed.is_known("https://u.edu/late")


def test_a_queued_link_keeps_its_qualifier_only_clue(tmp_path: Path) -> None:
    path = tmp_path / "state.sqlite"
    original = _filled_frontier()
    with Checkpoint(path, crawl_key=KEY) as checkpoint:
        checkpoint.save_frontier(original)
    resumed = Frontier(max_pages=100)
    with Checkpoint(path, crawl_key=KEY) as checkpoint:
        checkpoint.load_frontier(resumed)
    flagged = {entry.url for entry in _drain(resumed) if entry.qualifier_only}
    assert flagged == {f"https://u.edu/p{i}" for i in range(40) if i % 5 == 1}


def test_a_state_file_of_schema_1_is_upgraded_and_resumes(tmp_path: Path) -> None:
    path = tmp_path / "state.sqlite"
    with Checkpoint(path, crawl_key=KEY) as checkpoint:
        checkpoint.save_frontier(_filled_frontier())
    # What version 1 wrote: the queue without the qualifier_only column.
    with sqlite3.connect(path) as db:
        db.execute("ALTER TABLE queue DROP COLUMN qualifier_only")
        db.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")
    db.close()
    resumed = Frontier(max_pages=100)
    with Checkpoint(path, crawl_key=KEY) as checkpoint:
        checkpoint.load_frontier(resumed)
    entries = _drain(resumed)
    assert len(entries) == 41
    assert not any(entry.qualifier_only for entry in entries)
    with sqlite3.connect(path) as db:
        version = db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    db.close()
    assert version == ("2",)


def test_a_state_file_of_an_unknown_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "state.sqlite"
    Checkpoint(path, crawl_key=KEY).close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    db.close()
    with pytest.raises(ValueError, match="schema version 99"):
        Checkpoint(path, crawl_key=KEY)


def test_wrong_crawl_key_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "state.sqlite"
    Checkpoint(path, crawl_key=KEY).close()
    with pytest.raises(ValueError, match="belongs to another crawl"):
        Checkpoint(path, crawl_key="another-key")


@pytest.mark.parametrize(
    "content",
    [
        pytest.param(b"this is not a database at all, just text" * 100, id="text"),
        pytest.param(b"SQLite format 3\x00" + b"\xff" * 4000, id="corrupt-header"),
    ],
)
def test_garbage_file_is_refused(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "garbage.sqlite"
    path.write_bytes(content)
    with pytest.raises(ValueError, match="not a valid pw_adaptive state file"):
        Checkpoint(path, crawl_key=KEY)


def test_sqlite_file_of_another_program_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE t (x)")
    with pytest.raises(ValueError, match="another program"):
        Checkpoint(path, crawl_key=KEY)


def test_empty_file_becomes_a_new_state_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.sqlite"
    path.touch()
    with Checkpoint(path, crawl_key=KEY) as checkpoint:
        assert not checkpoint.has_frontier
