"""The report as one self-contained HTML document.

Everything is inline: CSS in a ``<style>``, the plot as SVG, one small script
that only sorts the pages table and folds the tree. A Content-Security-Policy
allows exactly that style and that script (by hash) and nothing else, so the
page loads nothing from the network even if a crawled title tried to. Every
text taken from the crawl is escaped, and only http(s) URLs become links.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Sequence
from html import escape
from typing import Any

from pw_adaptive.core.stopper import AdaptiveOptions
from pw_adaptive.records import PageRecord, SkipRecord, final_relevant
from pw_adaptive.report.log import CrawlLog, PageRow
from pw_adaptive.report.plot import COVERAGE_COLOUR, RELEVANCE_COLOUR, render_plot, term_colour

STOP_REASONS = {
    "coverage_reached": "every query term has enough evidence and new pages stopped adding to it",
    "saturated": "pages kept arriving that added nothing new",
    "no_relevant_pages": "nothing relevant was found and only blind links were left to follow",
    "budget_exhausted": "the page budget (max pages) was spent",
    "frontier_exhausted": "no links were left to follow",
    "time_limit": "the time limit was reached",
    "cancelled": "the crawl was cancelled (SIGINT/SIGTERM)",
}
"""One line per stop reason, for the banner."""

CSS = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 1100px; padding: 0 1rem 3rem;
  color: #1d1d1d; }
h1 { font-size: 1.4rem; margin: 1rem 0 .5rem; } h2 { font-size: 1.15rem; margin-top: 2rem; }
.banner { padding: .7rem 1rem; border-radius: 6px; font-size: 1.05rem; }
.banner.finished { background: #e3f1e6; border: 1px solid #5a9b68; }
.banner.stopped { background: #fdf2dc; border: 1px solid #c9a13b; }
.banner.unknown { background: #f8e1e1; border: 1px solid #b55; }
.notes { background: #f4f4f4; border-left: 4px solid #999; padding: .4rem .8rem; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; }
dl.facts dt { font-weight: 600; } dl.facts dd { margin: 0; }
.legend span { margin-right: 1.2rem; white-space: nowrap; }
.badge { display: inline-block; font-size: .75rem; padding: 0 .35rem; border-radius: 3px;
  margin-left: .3rem; border: 1px solid; }
.badge.blind { background: #eee; color: #555; border-color: #999; }
.badge.trap { background: #fde2e0; color: #8c1c13; border-color: #d9534f; }
.badge.note { background: #f1efe1; color: #6b5d00; border-color: #c8b800; }
.badge.error { background: #f8d7da; color: #721c24; border-color: #c66; }
.badge.fresh { background: #e0f0ff; color: #0b4f8a; border-color: #5b9bd5; }
.tree ul { list-style: none; padding-left: 1.3rem; margin: 0; border-left: 1px dotted #bbb; }
.tree > ul { border-left: none; padding-left: 0; }
.tree summary { cursor: pointer; }
.tree .line { display: block; padding-left: 1.05rem; }
.order { color: #555; font-variant-numeric: tabular-nums; }
.num { font-variant-numeric: tabular-nums; color: #333; }
.relevant > details > summary .title, .relevant > .line .title { font-weight: 600; }
.url { color: #666; font-size: .8rem; word-break: break-all; }
table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid #ddd; padding: .25rem .4rem; text-align: left; vertical-align: top; }
th { background: #f4f4f4; cursor: pointer; user-select: none; position: sticky; top: 0; }
td.snippet { color: #444; font-size: .8rem; max-width: 28rem; }
button { margin-right: .5rem; }
"""

SCRIPT = """
document.querySelectorAll("table.sortable").forEach(function (table) {
  table.querySelectorAll("th").forEach(function (th, col) {
    th.addEventListener("click", function () {
      var body = table.tBodies[0];
      var numeric = th.dataset.type === "num";
      var dir = th.dataset.dir === "desc" ? 1 : -1;
      th.dataset.dir = dir === 1 ? "asc" : "desc";
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = a.cells[col].dataset.v, y = b.cells[col].dataset.v;
        if (numeric) { return dir * (parseFloat(x) - parseFloat(y)); }
        return dir * x.localeCompare(y);
      });
      rows.forEach(function (row) { body.appendChild(row); });
    });
  });
});
document.querySelectorAll("button[data-fold]").forEach(function (button) {
  button.addEventListener("click", function () {
    var open = button.dataset.fold === "open";
    document.querySelectorAll(".tree details").forEach(function (d) { d.open = open; });
  });
});
"""


def _csp_hash(source: str) -> str:
    digest = hashlib.sha256(source.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


CSP = (
    f"default-src 'none'; style-src {_csp_hash(CSS)}; script-src {_csp_hash(SCRIPT)}; "
    "img-src data:; base-uri 'none'; form-action 'none'"
)
"""Nothing but the inline style and script above may load or run."""


def _e(text: object) -> str:
    return escape(str(text), quote=True)


def _link(url: str, text: str, cls: str = "") -> str:
    """An anchor for http(s) URLs; other schemes (``javascript:``) stay plain text."""
    klass = f' class="{cls}"' if cls else ""
    if url.lower().startswith(("http://", "https://")):
        return f'<a{klass} href="{_e(url)}" rel="noreferrer noopener">{_e(text)}</a>'
    return f"<span{klass}>{_e(text)}</span>"


def render_html(log: CrawlLog) -> str:
    """The whole report for ``log``."""
    summary = log.summary or {}
    terms = _terms(log)
    target = _evidence_target(summary)
    # The crawl's answer (CrawlResult.relevant_pages): counted and set in bold.
    relevant = final_relevant(log.pages, _qualifiers(summary))
    title = f"pw-adaptive report: {summary.get('query') or 'crawl'}"
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(title)}</title><style>{CSS}</style></head><body>",
        f"<h1>{_e(title)}</h1>",
        _banner(log),
    ]
    notes = list(log.notes)
    if log.summary is None:
        notes.append(f"evidence target assumed to be the default, {target} per term")
    elif "evidence_per_term" not in log.summary:
        notes.append(f"the summary does not name the evidence target: assumed {target}")
    if notes:
        parts.append('<div class="notes" id="notes"><ul>')
        parts.extend(f"<li>{_e(n)}</li>" for n in notes)
        parts.append("</ul></div>")
    parts.append(_facts(log, terms, target, len(relevant)))
    parts.append('<h2 id="plot-heading">Coverage, evidence and relevance over fetch order</h2>')
    parts.append(_legend(terms))
    parts.append(render_plot(log.pages, terms, target))
    parts.append('<h2 id="tree-heading">Crawl tree</h2>')
    parts.append(
        '<p><button type="button" data-fold="open">expand all</button>'
        '<button type="button" data-fold="close">collapse all</button> '
        "Each page shows its fetch order, relevance and the score of the link that led "
        'there; <span class="badge blind">blind</span> marks a page reached by a link '
        'with no clue for the query, <span class="badge trap">trap: reason</span> a '
        "link refused as a URL trap.</p>"
    )
    parts.append(render_tree(log.pages, log.skips, relevant))
    parts.append(_time_section(log))
    parts.append('<h2 id="pages-heading">Pages by relevance</h2>')
    parts.append(_pages_table(log.pages))
    if log.attachments:
        parts.append('<h2 id="attachments-heading">Attachments</h2><ul class="attachments">')
        for a in log.attachments:
            err = f' <span class="badge error">{_e(a.error)}</span>' if a.error else ""
            parts.append(
                f"<li>{_e(a.kind)} {_link(a.url, a.url)} from "
                f'<span class="url">{_e(a.page)}</span>{err}</li>'
            )
        parts.append("</ul>")
    parts.append(f"<script>{SCRIPT}</script></body></html>\n")
    return "".join(parts)


def _terms(log: CrawlLog) -> list[str]:
    terms = (log.summary or {}).get("terms")
    if terms:
        return list(terms)
    width = max((len(p.evidence) for p in log.pages), default=0)
    return [f"term {i + 1}" for i in range(width)]


def _qualifiers(summary: dict[str, Any]) -> list[int]:
    """The query's qualifier terms (``CrawlResult.qualifiers``); none in a log
    written before they were recorded."""
    qualifiers: list[int] = summary.get("qualifiers") or []
    return qualifiers  # read_log let through only a list of integers


def _evidence_target(summary: dict[str, Any]) -> int:
    target: int = summary.get("evidence_per_term") or AdaptiveOptions().evidence_per_term
    return target  # read_log let through only None or an integer >= 1


def _banner(log: CrawlLog) -> str:
    if log.summary is None:
        return (
            '<p class="banner unknown" id="stop-reason"><strong>No stop reason</strong>: the '
            f"file ends without a summary (crawl interrupted); {len(log.pages)} pages read.</p>"
        )
    reason = str(log.summary.get("stop_reason", ""))
    why = STOP_REASONS.get(reason, "unknown stop reason")
    finished = reason in (
        "coverage_reached",
        "saturated",
        "no_relevant_pages",
        "frontier_exhausted",
    )
    cls = "finished" if finished else "stopped"
    stop = log.summary.get("stop")
    detail = stop.get("why") if isinstance(stop, dict) else None
    said = (
        f' <span id="stop-why">The crawl: {_e(detail)}.</span>' if isinstance(detail, str) else ""
    )
    return (
        f'<p class="banner {cls}" id="stop-reason">Stopped: <strong>{_e(reason)}</strong> '
        f"— {_e(why)}.{said}</p>"
    )


def _facts(log: CrawlLog, terms: Sequence[str], target: int, relevant: int) -> str:
    s = log.summary or {}
    last = log.pages[-1].evidence if log.pages else ()
    evidence = s.get("evidence") or dict(zip(terms, last, strict=False))
    rows: list[tuple[str, str]] = []
    if s.get("start_url"):
        rows.append(("start URL", _link(str(s["start_url"]), str(s["start_url"]))))
    if s.get("query"):
        rows.append(("query", _e(s["query"])))
    rows.append(("pages", f"{len(log.pages)} fetched, {relevant} relevant"))
    if "coverage" in s:
        rows.append(("coverage", f"{float(s['coverage']):.0%}"))
    if evidence:
        rows.append(
            (
                "evidence per term",
                ", ".join(f"{_e(t)} {_e(evidence.get(t, 0))}/{target}" for t in terms),
            )
        )
    for key, label in (("skipped", "links skipped"), ("failures", "failures")):
        counts = s.get(key) or {}
        if counts:
            rows.append((label, ", ".join(f"{_e(k)} {_e(v)}" for k, v in sorted(counts.items()))))
    if log.skips:
        rows.append(("trap skips listed", f"{len(log.skips)} (in the crawl tree)"))
    if "elapsed_s" in s:
        elapsed = f"{float(s['elapsed_s']):.1f} s"
        timings = s.get("timings")
        if isinstance(timings, dict) and isinstance(timings.get("explore_share"), (int, float)):
            share = float(timings["explore_share"])
            elapsed += f" ({share:.0%} of the pages' time in click exploration)"
        rows.append(("elapsed", elapsed))
    explored = _exploration(s.get("exploration"))
    if explored:
        rows.append(("click exploration", _e(explored)))
    body = "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in rows)
    return f'<dl class="facts" id="facts">{body}</dl>'


def _exploration(stats: object) -> str:
    """The summary's ``exploration`` in one line ("" when absent or empty):
    what was clicked, what was answered without a click, and what the
    scratch copies cost."""
    if not isinstance(stats, dict) or not stats:
        return ""

    def n(key: str) -> int:
        value = stats.get(key)
        return int(value) if isinstance(value, (int, float)) else 0

    answered = sum(n(k) for k in ("reused", "inert", "predicted", "placeholders", "left_to_others"))
    parts = [f"{n('clicked')} candidates clicked"]
    if n("opened_together"):
        parts[0] += f" ({n('opened_together')} menu groups opened together)"
    parts.append(f"{answered} answered without a click")
    parts.append(f"{n('fresh_copies')} fresh copies of a page")
    restorations = f"{n('restorations')} restorations"
    if n("restorations_failed"):
        restorations += f" ({n('restorations_failed')} failed)"
    parts.append(restorations)
    spent = stats.get("spent_s")
    if isinstance(spent, (int, float)):
        parts.append(f"{float(spent):.1f} s")
    return ", ".join(parts)


_TIME_PARTS = (
    ("navigation_s", "navigation"),
    ("ready_s", "ready wait"),
    ("extract_s", "extraction"),
    ("explore_s", "click exploration"),
    ("attachments_s", "attachments"),
)
_SLOWEST = 10


def _time_section(log: CrawlLog) -> str:
    """Where the crawl's time went: each part summed over the pages (with its
    share of the pages' total), then the slowest pages by part, so that a slow
    site says why it is slow."""
    timed = [p for p in log.pages if p.timings.total_s > 0]
    if not timed:
        return ""
    total = sum(p.timings.total_s for p in timed)
    out = [
        '<h2 id="time-heading">Time per page</h2>',
        f"<p>{len(timed)} pages took {total:.1f} s together (pages render concurrently,"
        " so this may exceed the crawl's elapsed time).</p>",
        '<table id="time-parts"><thead><tr><th>part</th><th>seconds</th><th>share</th>'
        "<th>per page</th></tr></thead><tbody>",
    ]
    for name, label in _TIME_PARTS:
        spent = sum(getattr(p.timings, name) for p in timed)
        out.append(
            f"<tr><td>{label}</td><td>{spent:.1f}</td><td>{spent / total:.0%}</td>"
            f"<td>{spent / len(timed):.2f}</td></tr>"
        )
    out.append("</tbody></table>")
    head = "".join(f'<th data-type="num">{label}</th>' for _, label in _TIME_PARTS)
    out.append(
        '<table class="sortable" id="time-pages"><thead><tr><th data-type="num">#</th>'
        f'<th>page</th><th data-type="num">total s</th>{head}</tr></thead><tbody>'
    )
    for p in sorted(timed, key=lambda p: -p.timings.total_s)[:_SLOWEST]:
        cells = "".join(
            f'<td data-v="{getattr(p.timings, n):.3f}">{getattr(p.timings, n):.2f}</td>'
            for n, _ in _TIME_PARTS
        )
        out.append(
            f'<tr><td data-v="{p.order}">{p.order}</td>'
            f'<td><span class="url">{_e(p.final_url)}</span></td>'
            f'<td data-v="{p.timings.total_s:.3f}">{p.timings.total_s:.2f}</td>{cells}</tr>'
        )
    out.append("</tbody></table>")
    return "".join(out)


def _legend(terms: Sequence[str]) -> str:
    items = [
        f'<span><svg width="22" height="6"><line x1="0" x2="22" '
        f'y1="3" y2="3" stroke="{COVERAGE_COLOUR}" stroke-width="3"/></svg> coverage</span>',
        f'<span><svg width="10" height="10"><circle cx="5" cy="5" r="4" fill="{RELEVANCE_COLOUR}"/>'
        "</svg> page relevance (hollow: not observed)</span>",
    ]
    for i, term in enumerate(terms):
        items.append(
            f'<span><svg width="22" height="6"><line x1="0" x2="22" y1="3" y2="3" '
            f'stroke="{term_colour(i)}" stroke-width="2" stroke-dasharray="6 3"/></svg> '
            f"evidence: {_e(term)}</span>"
        )
    return f'<p class="legend">{"".join(items)}</p>'


def _badges(page: PageRow) -> str:
    out = []
    if page.blind:
        out.append('<span class="badge blind">blind</span>')
    if page.fresh:
        out.append('<span class="badge fresh">fresh</span>')
    if page.note:
        out.append(f'<span class="badge note">{_e(page.note)}</span>')
    if page.error:
        out.append(f'<span class="badge error">error: {_e(page.error)}</span>')
    return "".join(out)


def _node_line(page: PageRow) -> str:
    label = page.title.strip() or page.final_url
    return (
        f'<span class="order">#{page.order}</span> '
        f"{_link(page.final_url, label, 'title')}"
        f' <span class="num">rel {page.relevance:.2f}</span>'
        f' <span class="num">link {page.link_score:.2f}</span>{_badges(page)}'
        f' <span class="url">{_e(page.final_url)}</span>'
    )


def _skip_item(skip: SkipRecord) -> str:
    return (
        f'<li class="skip"><span class="line"><span class="badge trap">trap: {_e(skip.reason)}'
        f'</span> <span class="url">{_e(skip.url)}</span></span></li>'
    )


def tree_structure(
    pages: Sequence[PageRow], skips: Sequence[SkipRecord]
) -> tuple[list[int], dict[int, list[int]], dict[int, list[SkipRecord]], list[SkipRecord]]:
    """Roots, page children and trap children by page index, and orphan skips.

    A page hangs under the earlier page whose URL or final URL is its parent
    (first match wins); one without such a page is a root. Only earlier
    pages can be parents, so damaged input cannot make a cycle.
    """
    where: dict[str, int] = {}
    for i, page in enumerate(pages):
        where.setdefault(page.url, i)
        where.setdefault(page.final_url, i)
    roots: list[int] = []
    children: dict[int, list[int]] = {}
    for i, page in enumerate(pages):
        parent = where.get(page.parent) if page.parent is not None else None
        if parent is None or parent >= i:
            roots.append(i)
        else:
            children.setdefault(parent, []).append(i)
    traps: dict[int, list[SkipRecord]] = {}
    orphans: list[SkipRecord] = []
    for skip in skips:
        parent = where.get(skip.parent)
        if parent is None:
            orphans.append(skip)
        else:
            traps.setdefault(parent, []).append(skip)
    return roots, children, traps, orphans


def render_tree(
    pages: Sequence[PageRow], skips: Sequence[SkipRecord], relevant: Sequence[PageRecord]
) -> str:
    """Nested ``<ul>``/``<details>`` by parent; iterative, so any depth renders.
    The pages of the crawl's answer (``relevant``: ``final_relevant(pages)``)
    are set in bold."""
    roots, children, traps, orphans = tree_structure(pages, skips)
    answer = {id(page) for page in relevant}
    out = ['<div class="tree" id="tree"><ul>']
    # A stack of pending work: an int is a page to open, a str is markup to emit.
    stack: list[int | str] = list(reversed(roots))
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
            continue
        page = pages[item]
        cls = "node relevant" if id(page) in answer else "node"
        kids, trapped = children.get(item, []), traps.get(item, [])
        if not kids and not trapped:
            out.append(f'<li class="{cls}" id="p{page.order}"><span class="line">')
            out.append(_node_line(page))
            out.append("</span></li>")
            continue
        out.append(f'<li class="{cls}" id="p{page.order}"><details open><summary>')
        out.append(_node_line(page))
        out.append("</summary><ul>")
        out.extend(_skip_item(s) for s in trapped)  # refused links first, then the pages
        stack.append("</ul></details></li>")
        stack.extend(reversed(kids))
    out.append("</ul>")
    if orphans:
        out.append('<p>Trap skips from pages not in the file:</p><ul class="orphans">')
        out.extend(_skip_item(s) for s in orphans)
        out.append("</ul>")
    out.append("</div>")
    return "".join(out)


def _pages_table(pages: Sequence[PageRow]) -> str:
    head = (
        '<table class="sortable" id="pages"><thead><tr>'
        '<th data-type="num">#</th><th data-type="num">relevance</th><th>title</th>'
        '<th data-type="num">depth</th><th data-type="num">link</th><th>marks</th>'
        "<th>snippet</th></tr></thead><tbody>"
    )
    rows = []
    for p in sorted(pages, key=lambda p: (-p.relevance, p.order)):
        label = p.title.strip() or p.final_url
        rows.append(
            f'<tr><td data-v="{p.order}">{p.order}</td>'
            f'<td data-v="{p.relevance:.4f}">{p.relevance:.3f}</td>'
            f'<td data-v="{_e(label.casefold())}">{_link(p.final_url, label)}'
            f'<br><span class="url">{_e(p.final_url)}</span></td>'
            f'<td data-v="{p.depth}">{p.depth}</td>'
            f'<td data-v="{p.link_score:.4f}">{p.link_score:.2f}</td>'
            f'<td data-v="{int(p.blind)}">{_badges(p)}</td>'
            f'<td class="snippet" data-v="">{_e(p.snippet)}</td></tr>'
        )
    return head + "".join(rows) + "</tbody></table>"
