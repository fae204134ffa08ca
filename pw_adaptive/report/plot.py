"""The report's plot, as inline SVG made here: no plotting library, no script.

Over fetch order (x: page 1 .. n) on a 0..1 scale (y):

* the stopper's coverage after each page (a thick line), recomputed from the
  page's evidence with :func:`pw_adaptive.core.stopper.coverage_of`;
* each term's evidence as a share of the target, ``min(1, e / target)``
  (thin dashed lines, one colour per term);
* each page's relevance (dots; hollow for pages the stopper never saw:
  duplicates, soft-404s, failures);
* ``MIN_RELEVANCE`` and ``EVIDENCE_RELEVANCE`` as horizontal guides.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from pw_adaptive.core.stopper import EVIDENCE_RELEVANCE, MIN_RELEVANCE, coverage_of
from pw_adaptive.report.log import PageRow

WIDTH, HEIGHT = 960, 340
LEFT, RIGHT, TOP, BOTTOM = 48, 16, 16, 36
COVERAGE_COLOUR = "#1b4f9c"
RELEVANCE_COLOUR = "#c0392b"
TERM_COLOURS = ("#2e8b57", "#d68910", "#8e44ad", "#16a085", "#7f8c8d", "#b03a2e", "#2874a6")


def term_colour(i: int) -> str:
    """The colour of term ``i`` in the plot and its legend."""
    return TERM_COLOURS[i % len(TERM_COLOURS)]


def _x(order: int, n: int) -> float:
    span = WIDTH - LEFT - RIGHT
    return LEFT + (span * (order - 1) / (n - 1) if n > 1 else span / 2)


def _y(value: float) -> float:
    return TOP + (HEIGHT - TOP - BOTTOM) * (1.0 - min(max(value, 0.0), 1.0))


def _points(values: Sequence[float]) -> str:
    n = len(values)
    return " ".join(f"{_x(i + 1, n):.1f},{_y(v):.1f}" for i, v in enumerate(values))


def series(
    pages: Sequence[PageRow], terms: int, evidence_per_term: int
) -> tuple[list[float], list[list[float]]]:
    """Coverage after each page, and each term's ``min(1, e / target)`` after each page.

    A page whose evidence does not have one count per term (a foreign or
    damaged record) repeats the previous values.
    """
    coverage: list[float] = []
    per_term: list[list[float]] = [[] for _ in range(terms)]
    last = (0,) * terms
    target = max(evidence_per_term, 1)
    for page in pages:
        if len(page.evidence) == terms:
            last = page.evidence
        coverage.append(coverage_of(last, target))
        for i, count in enumerate(last):
            per_term[i].append(min(1.0, count / target))
    return coverage, per_term


def render_plot(pages: Sequence[PageRow], terms: Sequence[str], evidence_per_term: int) -> str:
    """The plot as an ``<svg>`` element (empty-crawl text when there are no pages)."""
    if not pages:
        return '<p class="empty">No pages were fetched.</p>'
    n = len(pages)
    coverage, per_term = series(pages, len(terms), evidence_per_term)
    out = [
        f'<svg id="plot" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}" role="img" aria-labelledby="plot-title">',
        '<title id="plot-title">Coverage, evidence per term and relevance over fetch order</title>',
    ]
    out.extend(_axes(n))
    for value, label in (
        (MIN_RELEVANCE, "MIN_RELEVANCE"),
        (EVIDENCE_RELEVANCE, "EVIDENCE_RELEVANCE"),
    ):
        y = _y(value)
        out.append(
            f'<line class="guide" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y:.1f}" y2="{y:.1f}" '
            'stroke="#999" stroke-dasharray="2 3"/>'
            f'<text x="{WIDTH - RIGHT - 4}" y="{y - 3:.1f}" text-anchor="end" font-size="10" '
            f'fill="#666">{label} {value:g}</text>'
        )
    for i, values in enumerate(per_term):
        out.append(
            f'<polyline class="term" data-term="{escape(terms[i])}" fill="none" '
            f'stroke="{term_colour(i)}" stroke-width="1.5" stroke-dasharray="6 3" '
            f'points="{_points(values)}"/>'
        )
    out.append(
        f'<polyline class="coverage" fill="none" stroke="{COVERAGE_COLOUR}" stroke-width="3" '
        f'points="{_points(coverage)}"/>'
    )
    radius = 3.0 if n <= 200 else 1.6
    for page in pages:
        observed = page.note is None and page.error is None
        fill = RELEVANCE_COLOUR if observed else "none"
        out.append(
            f'<circle class="relevance" cx="{_x(page.order, n):.1f}" cy="{_y(page.relevance):.1f}" '
            f'r="{radius}" fill="{fill}" stroke="{RELEVANCE_COLOUR}"/>'
        )
    out.append("</svg>")
    return "".join(out)


def _axes(n: int) -> list[str]:
    bottom, right = HEIGHT - BOTTOM, WIDTH - RIGHT
    out = [
        f'<line x1="{LEFT}" x2="{LEFT}" y1="{TOP}" y2="{bottom}" stroke="#333"/>'
        f'<line x1="{LEFT}" x2="{right}" y1="{bottom}" y2="{bottom}" stroke="#333"/>'
    ]
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        y = _y(tick)
        out.append(
            f'<line x1="{LEFT - 4}" x2="{LEFT}" y1="{y:.1f}" y2="{y:.1f}" stroke="#333"/>'
            f'<text x="{LEFT - 7}" y="{y + 3:.1f}" text-anchor="end" font-size="10">{tick:g}</text>'
        )
    step = max(1, _nice_step(n))
    ticks = [1, *range(step, n + 1, step)] if n > 1 else [1]
    for order in dict.fromkeys(ticks):
        x = _x(order, n)
        out.append(
            f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{bottom}" y2="{bottom + 4}" stroke="#333"/>'
            f'<text x="{x:.1f}" y="{bottom + 15}" text-anchor="middle" font-size="10">{order}</text>'
        )
    out.append(
        f'<text x="{(LEFT + right) / 2:.0f}" y="{HEIGHT - 4}" text-anchor="middle" '
        'font-size="11">fetch order</text>'
    )
    return out


def _nice_step(n: int) -> int:
    """A round tick step giving at most about 10 ticks for ``n`` pages."""
    raw = max(n / 10, 1)
    magnitude = int(10 ** (len(str(int(raw))) - 1))
    return next(f * magnitude for f in (1, 2, 5, 10) if raw <= f * magnitude)
