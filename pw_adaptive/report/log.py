"""Reading a crawl's JSON Lines back: the records a report needs, and nothing more.

:func:`read_log` streams the file line by line and reads each record with its
``from_json`` in :mod:`pw_adaptive.records`, keeping of a page's markdown
only a short snippet (and of an attachment none of its text), so a crawl of
thousands of pages (hundreds of megabytes of markdown) is read in bounded
memory. It is lenient with what an interrupted or resumed crawl leaves behind
and strict with what is not a crawl at all:

* a file that cannot be read, is not UTF-8, or has no valid ``page`` /
  ``skip`` / ``attachment`` / ``summary`` record: :class:`ReportInputError`;
* lines that are not JSON objects, or records with fields of the wrong type,
  are ignored and counted in a note (a torn last line after a crash is
  the usual case);
* records of other types are ignored silently: newer writers may add types;
* no summary (the crawl was interrupted or is still running): the report is
  made from the pages alone, with a note; several summaries (a crawl resumed
  with ``--state`` appends to its output): the last one wins.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from pw_adaptive.records import (
    AttachmentRecord,
    PageRecord,
    SkipRecord,
    expect_float,
    expect_int,
    expect_str,
)

SNIPPET_CHARS = 240
"""Characters of a page's markdown kept for the report (whitespace collapsed)."""


class ReportInputError(ValueError):
    """The input cannot be read as a crawl's JSON Lines."""


@dataclass(frozen=True)
class PageRow(PageRecord):
    """A page record as the report keeps it: with its fetch order, its
    ``markdown`` cut to :func:`snippet` and its ``headings`` dropped (so its
    ``to_json()`` is not the record that was read)."""

    order: int = 0
    """Fetch order, from 1."""

    @property
    def snippet(self) -> str:
        """The start of the page's markdown (all the report keeps of it)."""
        return self.markdown


@dataclass(frozen=True)
class CrawlLog:
    """Everything a report is made from, read from one JSON Lines file."""

    pages: tuple[PageRow, ...]
    skips: tuple[SkipRecord, ...] = ()
    attachments: tuple[AttachmentRecord, ...] = ()
    """Attachment records without their extracted ``content``."""
    summary: dict[str, Any] | None = None
    """The last summary record, or None when the crawl did not finish."""
    notes: tuple[str, ...] = field(default=())
    """What the reader had to work around, for the report to say."""


def read_log(path: str | os.PathLike[str]) -> CrawlLog:
    """Read a crawl's JSON Lines file; :class:`ReportInputError` when it is not one."""
    try:
        with open(path, encoding="utf-8") as fh:
            return parse_lines(fh)
    except FileNotFoundError as exc:
        raise ReportInputError(f"{os.fspath(path)}: no such file") from exc
    except IsADirectoryError as exc:
        raise ReportInputError(f"{os.fspath(path)}: is a directory") from exc
    except UnicodeDecodeError as exc:
        raise ReportInputError(f"{os.fspath(path)}: not UTF-8 text") from exc
    except OSError as exc:
        raise ReportInputError(f"{os.fspath(path)}: {exc.strerror or exc}") from exc


def parse_lines(lines: Iterable[str]) -> CrawlLog:
    """Parse JSON Lines records (see the module docstring for the rules)."""
    pages: list[PageRow] = []
    skips: list[SkipRecord] = []
    attachments: list[AttachmentRecord] = []
    summaries: list[dict[str, Any]] = []
    bad = 0
    for line in lines:
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            if not isinstance(record, dict):
                raise TypeError("not an object")
            kind = record.get("type")
            if kind == "page":
                page = PageRow.from_json(record)
                order, cut = len(pages) + 1, snippet(page.markdown)
                pages.append(replace(page, order=order, markdown=cut, headings=()))
            elif kind == "skip":
                skips.append(SkipRecord.from_json(record))
            elif kind == "attachment":
                attachments.append(replace(AttachmentRecord.from_json(record), content=""))
            elif kind == "summary":
                summaries.append(_summary(record))
        except (ValueError, TypeError, KeyError):
            bad += 1
    if not (pages or skips or attachments or summaries):
        what = "no crawl records" if bad == 0 else f"{bad} lines, none a crawl record"
        raise ReportInputError(f"not a pw-adaptive JSON Lines file ({what})")
    notes: list[str] = []
    if bad:
        notes.append(
            f"{bad} unreadable line{'s' * (bad != 1)} ignored (a torn last line after a crash?)"
        )
    if not summaries:
        notes.append("no summary record: the crawl was interrupted or is still running")
    elif len(summaries) > 1:
        notes.append(f"the crawl was resumed: {len(summaries)} summaries, the last one is shown")
    return CrawlLog(
        pages=tuple(pages),
        skips=tuple(skips),
        attachments=tuple(attachments),
        summary=summaries[-1] if summaries else None,
        notes=tuple(notes),
    )


def snippet(markdown: str, limit: int = SNIPPET_CHARS) -> str:
    """The start of ``markdown`` with whitespace collapsed, at most ``limit`` chars."""
    head = " ".join(markdown[: limit * 4].split())
    return head if len(head) <= limit else head[: limit - 1].rstrip() + "…"


def _summary(r: dict[str, Any]) -> dict[str, Any]:
    # Checked here so that rendering can trust the types it reads.
    terms = r.get("terms", [])
    if not isinstance(terms, list) or not all(isinstance(t, str) for t in terms):
        raise TypeError("terms")
    for key in ("evidence", "skipped", "failures"):
        value = r.get(key, {})
        if not isinstance(value, dict) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in value.values()
        ):
            raise TypeError(key)
    expect_str(r.get("stop_reason", ""))
    expect_float(r.get("coverage", 0.0))
    expect_float(r.get("elapsed_s", 0.0))
    qualifiers = r.get("qualifiers", [])
    if not isinstance(qualifiers, list):
        raise TypeError("qualifiers")
    for index in qualifiers:
        expect_int(index)
    target = r.get("evidence_per_term")
    if target is not None and expect_int(target) < 1:
        raise ValueError("evidence_per_term")
    return r
