"""Crawl state in an SQLite file, for resuming an interrupted crawl.

One file holds one crawl: the frontier (queued and in-flight entries, the
launch order of the in-flight ones, fetched URLs, aliases, skip counters,
budget used, discovery counter, crawl delays)
and a key/value table of JSON values that the crawler fills with its own
state (stopper, output offset, records). The file is stamped with the crawl
key the caller computes from the start URL, query and options, so a resume
never mixes two crawls.

Saves are incremental: the frontier journals which URLs changed since the
last save (`Frontier.drain_changes`), and a save upserts or deletes just those
rows, in one transaction together with any state values passed to `save`.
SQLite runs in WAL mode with `synchronous=NORMAL`: a commit costs no fsync, a
crash of the process loses nothing committed, and a power cut loses at most
the last commits (https://www.sqlite.org/wal.html, "Performance
Considerations"), which a crawl can redo.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from types import TracebackType
from typing import Any

from pw_adaptive.core.frontier import Frontier
from pw_adaptive.core.frontier_state import FrontierChanges, FrontierEntry, FrontierState

__all__ = ["FORMAT", "SCHEMA_VERSION", "Checkpoint"]

FORMAT = "pw_adaptive-state"
"""Value of the `format` meta row: tells our files from other SQLite files."""
SCHEMA_VERSION = 2
"""Bumped on any incompatible change of the tables below."""

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE queue (
    url TEXT PRIMARY KEY,
    score REAL NOT NULL,
    depth INTEGER NOT NULL,
    blind INTEGER NOT NULL,
    parent TEXT,
    text TEXT NOT NULL,
    seq INTEGER NOT NULL,
    qualifier_only INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE done (url TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TABLE alias (alias TEXT PRIMARY KEY, url TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE state (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
"""

_MIGRATIONS: dict[str, tuple[str, tuple[str, ...]]] = {
    "1": (
        "2",
        ("ALTER TABLE queue ADD COLUMN qualifier_only INTEGER NOT NULL DEFAULT 0",),
    ),
}
"""Schema version -> (the next version, the statements that upgrade a state
file to it), applied in one transaction each when a crawl resumes. Version 2
added the queue's ``qualifier_only`` (``FrontierEntry.qualifier_only``); the
links queued before it resume as links with a clue, as they were judged."""

_UPSERT_QUEUE = "INSERT OR REPLACE INTO queue VALUES (?, ?, ?, ?, ?, ?, ?, ?)"

_QueueRow = tuple[str, float, int, int, str | None, str, int, int]


def _row(entry: FrontierEntry) -> _QueueRow:
    return (
        entry.url,
        entry.score,
        entry.depth,
        int(entry.blind),
        entry.parent,
        entry.text,
        entry.seq,
        int(entry.qualifier_only),
    )


class Checkpoint:
    """An SQLite state file for one crawl.

    Opening creates the file when it does not exist (or is empty). Raises
    ValueError when the file is not SQLite, is corrupt, is an SQLite file of
    another program or schema version, or was made for another `crawl_key`.
    Use it as a context manager, or call `close`.
    """

    def __init__(self, path: str | os.PathLike[str], *, crawl_key: str) -> None:
        self.path = os.fspath(path)
        self.crawl_key = crawl_key
        try:
            # isolation_level=None: no implicit transactions; `_transaction`
            # issues BEGIN/COMMIT itself, one transaction per save.
            self._db = sqlite3.connect(self.path, isolation_level=None)
        except sqlite3.Error as exc:
            raise ValueError(f"cannot open state file {self.path}: {exc}") from exc
        try:
            self._open()
        except sqlite3.DatabaseError as exc:
            self._db.close()
            raise ValueError(
                f"state file {self.path} is not a valid pw_adaptive state file"
                f" (not SQLite, or corrupt: {exc})"
            ) from exc
        except BaseException:
            self._db.close()
            raise

    def _open(self) -> None:
        db = self._db
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if not tables:
            with self._transaction():
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.executemany(
                    "INSERT INTO meta VALUES (?, ?)",
                    [
                        ("format", FORMAT),
                        ("schema_version", str(SCHEMA_VERSION)),
                        ("crawl_key", self.crawl_key),
                    ],
                )
            return
        meta = dict(db.execute("SELECT key, value FROM meta")) if "meta" in tables else {}
        if meta.get("format") != FORMAT:
            raise ValueError(
                f"state file {self.path} is an SQLite database of another program,"
                " not a pw_adaptive state file"
            )
        version = meta.get("schema_version")
        if version not in _MIGRATIONS and version != str(SCHEMA_VERSION):
            raise ValueError(
                f"state file {self.path} has schema version {version},"
                f" this pw_adaptive reads version {SCHEMA_VERSION}"
            )
        if meta.get("crawl_key") != self.crawl_key:
            raise ValueError(
                f"state file {self.path} belongs to another crawl"
                f" (crawl key {meta.get('crawl_key')!r}, expected {self.crawl_key!r});"
                " use another state path or delete the file to start over"
            )
        while version in _MIGRATIONS:
            target, statements = _MIGRATIONS[version]
            with self._transaction():
                for statement in statements:
                    db.execute(statement)
                db.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (target,))
            version = target

    # ------------------------------------------------------------ lifecycle

    def close(self) -> None:
        """Close the database (WAL content is checkpointed into the file)."""
        self._db.close()

    def __enter__(self) -> Checkpoint:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    # ----------------------------------------------------------------- save

    def save(
        self, frontier: Frontier | None = None, *, state: Mapping[str, Any] | None = None
    ) -> None:
        """Save the frontier and/or state values in one transaction.

        Pass everything that must stay consistent (frontier, stopper state,
        output offset) in one call: a crash then leaves either all of it or
        none of it saved. The frontier part is incremental after the first
        save or `load_frontier` through this object; otherwise it rewrites
        the frontier tables. Values must be JSON-serializable.
        """
        encoded = {key: json.dumps(value) for key, value in (state or {}).items()}
        changes: FrontierChanges | None = None
        snapshot: FrontierState | None = None
        if frontier is not None:
            changes = frontier.drain_changes(self)
            if changes is None:
                snapshot = frontier.snapshot()
        try:
            with self._transaction() as db:
                if snapshot is not None:
                    self._write_snapshot(db, snapshot)
                elif changes is not None:
                    self._write_changes(db, changes)
                if encoded:
                    db.executemany(
                        "INSERT OR REPLACE INTO state VALUES (?, ?)", list(encoded.items())
                    )
        except BaseException:
            if frontier is not None:
                frontier.reset_changes()  # the next save rewrites everything
            raise

    def save_frontier(self, frontier: Frontier) -> None:
        """Save the frontier (see `save`)."""
        self.save(frontier)

    def put_state(self, key: str, value: Any) -> None:
        """Store one JSON-serializable value under `key` (its own transaction)."""
        self.save(state={key: value})

    def get_state(self, key: str) -> Any:
        """The value stored under `key`, or None."""
        row = self._db.execute("SELECT value FROM state WHERE key = ?", (key,)).fetchone()
        return None if row is None else json.loads(row[0])

    @staticmethod
    def _write_snapshot(db: sqlite3.Connection, state: FrontierState) -> None:
        db.execute("DELETE FROM queue")
        db.execute("DELETE FROM done")
        db.execute("DELETE FROM alias")
        db.executemany(_UPSERT_QUEUE, [_row(entry) for entry in state.queued])
        db.executemany("INSERT INTO done VALUES (?)", [(url,) for url in state.done])
        db.executemany("INSERT INTO alias VALUES (?, ?)", state.aliases)
        Checkpoint._write_scalars(
            db,
            state.skipped,
            state.fetched,
            state.seq,
            state.upgraded,
            state.crawl_delays,
            state.in_flight,
        )

    @staticmethod
    def _write_changes(db: sqlite3.Connection, changes: FrontierChanges) -> None:
        if changes.removed:
            db.executemany("DELETE FROM queue WHERE url = ?", [(url,) for url in changes.removed])
        if changes.upserts:
            db.executemany(_UPSERT_QUEUE, [_row(entry) for entry in changes.upserts])
        if changes.done:
            db.executemany("INSERT OR IGNORE INTO done VALUES (?)", [(u,) for u in changes.done])
        if changes.aliases:
            db.executemany("INSERT OR IGNORE INTO alias VALUES (?, ?)", changes.aliases)
        Checkpoint._write_scalars(
            db,
            changes.skipped,
            changes.fetched,
            changes.seq,
            changes.upgraded,
            changes.crawl_delays,
            changes.in_flight,
        )

    @staticmethod
    def _write_scalars(
        db: sqlite3.Connection,
        skipped: Mapping[str, int],
        fetched: int,
        seq: int,
        upgraded: int,
        crawl_delays: Mapping[str, float],
        in_flight: Sequence[str],
    ) -> None:
        scalars = {
            "skipped": dict(skipped),
            "fetched": fetched,
            "seq": seq,
            "upgraded": upgraded,
            "crawl_delays": dict(crawl_delays),
            "in_flight": list(in_flight),
        }
        db.execute("INSERT OR REPLACE INTO meta VALUES ('frontier', ?)", (json.dumps(scalars),))

    # ----------------------------------------------------------------- load

    @property
    def has_frontier(self) -> bool:
        """True when a frontier was saved in this file."""
        row = self._db.execute("SELECT 1 FROM meta WHERE key = 'frontier'").fetchone()
        return row is not None

    def load_frontier(self, frontier: Frontier) -> None:
        """Restore the saved frontier into `frontier` (see `Frontier.restore`).

        Leaves `frontier` untouched when nothing was saved yet. Later saves
        through this object are incremental. Raises ValueError when the
        stored rows are unreadable.
        """
        try:
            state = self._read_state()
        except (sqlite3.DatabaseError, KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"state file {self.path} is corrupt: {exc}") from exc
        if state is None:
            return
        frontier.restore(state)
        frontier.drain_changes(self)  # in sync with the file from here on

    def _read_state(self) -> FrontierState | None:
        db = self._db
        row = db.execute("SELECT value FROM meta WHERE key = 'frontier'").fetchone()
        if row is None:
            return None
        scalars = json.loads(row[0])
        queued = tuple(
            FrontierEntry(
                str(url),
                float(score),
                int(depth),
                bool(blind),
                parent,
                str(text),
                int(seq),
                bool(qualifier_only),
            )
            for url, score, depth, blind, parent, text, seq, qualifier_only in db.execute(
                "SELECT url, score, depth, blind, parent, text, seq, qualifier_only"
                " FROM queue ORDER BY seq"
            )
        )
        done = tuple(url for (url,) in db.execute("SELECT url FROM done ORDER BY url"))
        aliases = tuple(
            (str(alias), str(url))
            for alias, url in db.execute("SELECT alias, url FROM alias ORDER BY alias")
        )
        return FrontierState(
            queued=queued,
            done=done,
            aliases=aliases,
            skipped={str(k): int(v) for k, v in scalars["skipped"].items()},
            fetched=int(scalars["fetched"]),
            seq=int(scalars["seq"]),
            upgraded=int(scalars["upgraded"]),
            crawl_delays={str(k): float(v) for k, v in scalars["crawl_delays"].items()},
            in_flight=tuple(str(url) for url in scalars.get("in_flight", ())),
        )
