"""Reading a crawl's JSON Lines back: the records a report needs, and nothing more.

:func:`read_log` streams the file line by line and keeps, per page, only the
fields the report shows and a short snippet of its markdown, so a crawl of
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
from dataclasses import dataclass, field
from typing import Any

SNIPPET_CHARS = 240
"""Characters of a page's markdown kept for the report (whitespace collapsed)."""


class ReportInputError(ValueError):
    """The input cannot be read as a crawl's JSON Lines."""


@dataclass(frozen=True)
class PageRow:
    """One page record, as the report shows it."""

    order: int
    """Fetch order, from 1."""
    url: str
    final_url: str
    title: str
    depth: int
    relevance: float
    link_score: float
    blind: bool
    evidence: tuple[int, ...]
    fresh: bool
    parent: str | None
    note: str | None
    error: str | None
    status: int | None
    snippet: str


@dataclass(frozen=True)
class SkipRow:
    """A link refused as a URL trap."""

    url: str
    parent: str
    reason: str


@dataclass(frozen=True)
class AttachmentRow:
    url: str
    page: str
    kind: str
    error: str | None


@dataclass(frozen=True)
class CrawlLog:
    """Everything a report is made from, read from one JSON Lines file."""

    pages: tuple[PageRow, ...]
    skips: tuple[SkipRow, ...] = ()
    attachments: tuple[AttachmentRow, ...] = ()
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
    skips: list[SkipRow] = []
    attachments: list[AttachmentRow] = []
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
                pages.append(_page(record, len(pages) + 1))
            elif kind == "skip":
                skips.append(
                    SkipRow(_str(record["url"]), _str(record["parent"]), _str(record["reason"]))
                )
            elif kind == "attachment":
                attachments.append(
                    AttachmentRow(
                        _str(record["url"]),
                        _str(record.get("page", "")),
                        _str(record.get("kind", "")),
                        _opt_str(record.get("error")),
                    )
                )
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


def _page(r: dict[str, Any], order: int) -> PageRow:
    url = _str(r["url"])
    evidence = r.get("evidence") or []
    if not isinstance(evidence, list):
        raise TypeError("evidence is not a list")
    status = r.get("status")
    return PageRow(
        order=order,
        url=url,
        final_url=_str(r.get("final_url") or url),
        title=_str(r.get("title") or ""),
        depth=_int(r.get("depth", 0)),
        relevance=_float(r.get("relevance", 0.0)),
        link_score=_float(r.get("link_score", 0.0)),
        blind=bool(r.get("blind", False)),
        evidence=tuple(_int(e) for e in evidence),
        fresh=bool(r.get("fresh", False)),
        parent=_opt_str(r.get("parent")),
        note=_opt_str(r.get("note")),
        error=_opt_str(r.get("error")),
        status=None if status is None else _int(status),
        snippet=snippet(_str(r.get("markdown") or "")),
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
    _str(r.get("stop_reason", ""))
    _float(r.get("coverage", 0.0))
    target = r.get("evidence_per_term")
    if target is not None and (_int(target) < 1):
        raise ValueError("evidence_per_term")
    return r


def _str(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError("expected a string")
    return value


def _opt_str(value: Any) -> str | None:
    return None if value is None else _str(value)


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("expected an integer")
    return value


def _float(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError("expected a number")
    result = float(value)
    if result != result or result in (float("inf"), float("-inf")):
        raise ValueError("not a finite number")
    return result
