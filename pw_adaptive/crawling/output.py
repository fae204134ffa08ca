"""JSON Lines output that is never left with a torn line.

Every record is serialised first and written with one ``write`` of the whole
line, then flushed (and optionally fsynced), so a crash leaves the file ending
on a complete line. Opening an existing file for append first cuts any torn
tail left by a process killed mid-write, and the summary line a finished or
cancelled crawl ended with (the resumed crawl writes its own), and counts the
records left (`JsonlWriter.records_before`), so that a resumed crawl can send
the records that a killed process had saved but not yet written.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from types import TracebackType
from typing import IO, Any

# Characters json.dumps(ensure_ascii=False) leaves raw that still break a
# line: U+0085, U+2028 and U+2029 are line boundaries for str.splitlines and
# many JSON Lines readers, and a lone surrogate (JavaScript strings may hold
# one) cannot be encoded as UTF-8 at all. They only occur inside JSON
# strings, where a \uXXXX escape means the same character.
_ESCAPE_IN_LINE = re.compile("[\x85\u2028\u2029\ud800-\udfff]")


def dumps_record(record: dict[str, Any]) -> str:
    """One record as one line of valid UTF-8 JSON (no raw newline, U+2028,
    U+2029, U+0085 or lone surrogate inside; other non-ASCII kept)."""
    line = json.dumps(record, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    if _ESCAPE_IN_LINE.search(line) is not None:
        line = _ESCAPE_IN_LINE.sub(lambda m: f"\\u{ord(m.group()):04x}", line)
    return line + "\n"


def repair_tail(path: Path) -> int:
    """Truncate ``path`` after its last newline; returns the bytes cut."""
    if not path.exists():
        return 0
    size = path.stat().st_size
    if size == 0:
        return 0
    with path.open("rb+") as fh:
        keep = _newline_before(fh, size) + 1  # 0 when there is no newline at all
        if keep < size:
            fh.truncate(keep)
        return size - keep


def _newline_before(fh: IO[bytes], end: int) -> int:
    """Offset of the last ``\\n`` in ``fh`` before offset ``end``, or -1.

    Reads backwards in 64 KiB blocks, so a long file costs one block."""
    block = 1 << 16
    pos = end
    while pos > 0:
        start = max(0, pos - block)
        fh.seek(start)
        nl = fh.read(pos - start).rfind(b"\n")
        if nl >= 0:
            return start + nl
        pos = start
    return -1


def _records_end(fh: IO[bytes]) -> int:
    """Where the records of ``fh`` end: before a torn tail and the ``summary``
    lines after the last record. Reads backwards from the end, line by line."""
    end = _newline_before(fh, fh.seek(0, os.SEEK_END)) + 1  # after the last complete line
    while end > 0:
        start = _newline_before(fh, end - 1) + 1  # the last line, its newline included
        fh.seek(start)
        try:
            last = json.loads(fh.read(end - start))
        except ValueError:
            break
        if not isinstance(last, dict) or last.get("type") != "summary":
            break
        end = start
    return end


def _lines_before(fh: IO[bytes], end: int) -> int:
    """The newlines in the first ``end`` bytes of ``fh``, read in 1 MiB blocks."""
    fh.seek(0)
    lines = 0
    while end > 0 and (chunk := fh.read(min(end, 1 << 20))):
        lines += chunk.count(b"\n")
        end -= len(chunk)
    return lines


def prepare_append(path: Path) -> int:
    """Make ``path`` ready for a resumed crawl to append to; returns its records.

    Cuts a torn tail (as `repair_tail` does), then trailing ``summary`` lines,
    and counts the lines left: the records (pages, attachments, skips) already
    written. 0 when the file does not exist.
    """
    if not path.exists():
        return 0
    with path.open("rb+") as fh:
        end = _records_end(fh)
        if end < fh.seek(0, os.SEEK_END):
            fh.truncate(end)
        return _lines_before(fh, end)


def count_records(path: Path) -> int:
    """The records `prepare_append` would leave in ``path``, without changing it:
    complete lines, less trailing ``summary`` lines. 0 when it does not exist."""
    if not path.exists():
        return 0
    with path.open("rb") as fh:
        return _lines_before(fh, _records_end(fh))


class JsonlWriter:
    """Writes records to a file (append: see `prepare_append`) or a stream.

    ``records_before`` is the number of records the file held when it was
    opened for append (0 otherwise).
    """

    def __init__(
        self, target: str | os.PathLike[str] | IO[str], *, append: bool = False, fsync: bool = False
    ) -> None:
        self._fsync = fsync
        self._own = not hasattr(target, "write")
        self.records_before = 0
        if self._own:
            path = Path(os.fspath(target))  # type: ignore[arg-type]
            if append:
                self.records_before = prepare_append(path)
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
