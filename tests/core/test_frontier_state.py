"""Tests for pw_adaptive.core.frontier_state: the change journal behind incremental
checkpoints (the records themselves are exercised by test_checkpoint)."""

from __future__ import annotations

from pw_adaptive.core.frontier_state import ChangeJournal, FrontierEntry


def _entry(url: str) -> FrontierEntry:
    return FrontierEntry(url, 0.5, 1, False, None, "", 0)


def test_journal_starts_off() -> None:
    journal = ChangeJournal()
    assert journal.token is None
    assert journal.rows({}, {}) == ((), ())


def test_rows_upsert_queued_and_in_flight_entries_and_remove_the_rest() -> None:
    journal = ChangeJournal()
    journal.restart("token")
    journal.dirty.update({"https://u.edu/q", "https://u.edu/f", "https://u.edu/gone"})
    queued = {"https://u.edu/q": _entry("https://u.edu/q")}
    in_flight = {"https://u.edu/f": _entry("https://u.edu/f")}
    upserts, removed = journal.rows(queued, in_flight)
    assert sorted(entry.url for entry in upserts) == ["https://u.edu/f", "https://u.edu/q"]
    assert removed == ("https://u.edu/gone",)


def test_restart_forgets_every_change_and_hands_over_the_token() -> None:
    journal = ChangeJournal()
    journal.restart("first")
    journal.dirty.add("https://u.edu/a")
    journal.done.append("https://u.edu/b")
    journal.aliases["https://u.edu/c"] = "https://u.edu/b"
    journal.restart(None)
    assert (journal.token, journal.dirty, journal.done, journal.aliases) == (None, set(), [], {})
