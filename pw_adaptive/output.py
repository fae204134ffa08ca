"""JSON Lines output that is never left with a torn line.

Every record is serialised first and written with one ``write`` of the whole
line, then flushed (and optionally fsynced), so a crash leaves the file ending
on a complete line. Opening an existing file for append first cuts any torn
tail left by a process killed mid-write.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from types import TracebackType
from typing import IO, Any


def dumps_record(record: dict[str, Any]) -> str:
    """One record as one line of JSON (no raw newlines inside, UTF-8 kept)."""
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"), allow_nan=False) + "\n"


def repair_tail(path: Path) -> int:
    """Truncate ``path`` after its last newline; returns the bytes cut."""
    if not path.exists():
        return 0
    size = path.stat().st_size
    if size == 0:
        return 0
    with path.open("rb+") as fh:
        block = 1 << 16
        pos = size
        while pos > 0:
            start = max(0, pos - block)
            fh.seek(start)
            chunk = fh.read(pos - start)
            nl = chunk.rfind(b"\n")
            if nl >= 0:
                keep = start + nl + 1
                if keep < size:
                    fh.truncate(keep)
                return size - keep
            pos = start
        fh.truncate(0)
        return size


class JsonlWriter:
    """Writes records to a file (append, torn tail repaired) or a stream."""

    def __init__(
        self, target: str | os.PathLike[str] | IO[str], *, append: bool = False, fsync: bool = False
    ) -> None:
        self._fsync = fsync
        self._own = not hasattr(target, "write")
        if self._own:
            path = Path(os.fspath(target))  # type: ignore[arg-type]
            if append:
                repair_tail(path)
            self._fh: IO[str] = path.open("a" if append else "w", encoding="utf-8")
        else:
            self._fh = target  # type: ignore[assignment]

    def write(self, record: dict[str, Any]) -> None:
        self._fh.write(dumps_record(record))
        self._fh.flush()
        if self._fsync and self._own:
            os.fsync(self._fh.fileno())

    def close(self) -> None:
        if self._own:
            self._fh.close()

    def __enter__(self) -> JsonlWriter:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
