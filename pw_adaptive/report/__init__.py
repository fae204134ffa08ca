"""``pw-adaptive report``: one self-contained HTML file from a crawl's JSON Lines.

The report shows the stop reason, a plot of coverage, evidence per term and
page relevance over fetch order (inline SVG), the crawl tree with blind links
and the URL traps refused on the way, and the pages with their relevance. It
loads nothing from the network (inline CSS, SVG and script, locked down by a
Content-Security-Policy), escapes everything a crawled page supplied, and
keeps only a short snippet of each page's markdown, so a crawl of thousands
of pages gives a report of a few megabytes.

* :func:`read_log` reads the JSON Lines (see :mod:`pw_adaptive.report.log`
  for what is tolerated and what is refused with :class:`ReportInputError`);
* :func:`render_html` turns it into the document;
* :func:`write_report` does both and replaces the output file atomically.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from pw_adaptive.report.html import render_html
from pw_adaptive.report.log import CrawlLog, PageRow, ReportInputError, read_log

__all__ = [
    "CrawlLog",
    "PageRow",
    "ReportInputError",
    "read_log",
    "render_html",
    "write_report",
]


def write_report(source: str | os.PathLike[str], target: str | os.PathLike[str]) -> CrawlLog:
    """Read ``source``, write the HTML report to ``target``; returns what was read.

    The document is written to a temporary file next to ``target`` and renamed
    over it, so ``target`` is either the old file or the whole new report,
    never half of one. Raises :class:`ReportInputError` for unreadable input
    and ``OSError`` when ``target`` cannot be written.
    """
    log = read_log(source)
    document = render_html(log)
    out = Path(os.fspath(target))
    fd, tmp = tempfile.mkstemp(prefix=f".{out.name}.", suffix=".tmp", dir=out.parent)
    try:
        os.fchmod(fd, 0o644)  # mkstemp's 0600 would make the report private
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(document)
        os.replace(tmp, out)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return log
