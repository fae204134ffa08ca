"""Compare two runs of ``benchmarks/quality.py``: totals side by side, then every task that moved.

Each run is the file ``quality.py --json`` wrote. The totals are the ones
``quality.py`` prints for the real corpus (``real_totals``), computed from
the rows of one crawler (``pw_adaptive`` by default), for the real corpus,
the fixtures or both: recall (mean over tasks with content), facts, the
precision of the pages it marks relevant (borderline pages neutral) with
the right and judged counts, identification recall, pages, pages against
the oracle and the absent topics over 12 pages. Then one line per task whose
pages found, facts found, pages fetched, marks or stop reason differ, and a
count of the tasks that find more or less. A change of judgement is judged
task by task: a better total can hide a task that got worse.

    .venv/bin/python benchmarks/compare_quality.py BEFORE.json AFTER.json
        [--crawler pw_adaptive] [--group real|fixtures|all]

Exit status: 0, or 2 when a file is missing or is not such a run, or the
crawler has no rows in it.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import MISSING, dataclass, fields
from pathlib import Path
from typing import Any, TextIO

ROOT = Path(__file__).resolve().parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from quality import DEFAULT, RealTotals, Row, totals_of_rows  # noqa: E402

ABSENT_LIMIT = 12
"""Issue 12's bound on the pages of a crawl for a topic the site lacks."""

_ROW_FIELDS = frozenset(f.name for f in fields(Row))
_REQUIRED = frozenset(
    f.name for f in fields(Row) if f.default is MISSING and f.default_factory is MISSING
)


class RunError(Exception):
    """A file that is not a run of ``quality.py --json``."""


def load_rows(path: Path, crawler: str, group: str) -> dict[str, Row]:
    """The rows of ``crawler`` in the run at ``path``, by task, for ``group``
    ("real": every site but the fixtures; "fixtures"; "all")."""
    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise RunError(f"{path}: cannot read it as JSON ({exc})") from exc
    if not isinstance(data, dict) or not isinstance(data.get("rows"), list):
        raise RunError(f"{path}: no 'rows' list: not a run of quality.py --json")
    rows: dict[str, Row] = {}
    for item in data["rows"]:
        if not isinstance(item, dict) or not item.keys() >= _REQUIRED:
            raise RunError(f"{path}: a row lacks the fields of quality.py's Row: {item!r:.120}")
        row = Row(**{k: v for k, v in item.items() if k in _ROW_FIELDS})
        if row.crawler != crawler:
            continue
        if group == "real" and row.group == "fixtures":
            continue
        if group == "fixtures" and row.group != "fixtures":
            continue
        rows[row.task] = row
    if not rows:
        raise RunError(f"{path}: no rows of crawler {crawler!r} in group {group!r}")
    return rows


@dataclass(frozen=True)
class Summary:
    totals: RealTotals
    absent_over: list[tuple[str, int]]
    """Absent topics crawled past :data:`ABSENT_LIMIT` pages: (task, pages)."""


def summarize(rows: dict[str, Row], crawler: str) -> Summary:
    totals = totals_of_rows(list(rows.values()), crawler)
    assert totals is not None  # load_rows never returns no rows
    over = sorted(
        (r.task, r.pages) for r in rows.values() if not r.relevant and r.pages > ABSENT_LIMIT
    )
    return Summary(totals, over)


def _share(x: float | None) -> str:
    return "—" if x is None else f"{x:.3f}"


def totals_table(labels: Sequence[str], summaries: Sequence[Summary]) -> list[str]:
    lines = [
        "| run | tasks | recall | facts | marks right (precision) | identified: recall"
        f" | pages | pages / oracle | absent topics over {ABSENT_LIMIT} pages |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for label, s in zip(labels, summaries, strict=True):
        t = s.totals
        over = ", ".join(f"{task} {pages}" for task, pages in s.absent_over) or "none"
        lines.append(
            f"| {label} | {t.tasks} | {t.recall:.3f} | {t.facts:.3f}"
            f" | {t.marks_right} / {t.marks_judged} ({_share(t.id_precision)}) | {_share(t.id_recall)}"
            f" | {t.pages:,} | {t.oracle_ratio:.2f} | {len(s.absent_over)}: {over} |"
        )
    return lines


def _moved(a: Row, b: Row) -> bool:
    keys = ("found", "facts_found", "pages", "identified_relevant", "identified_irrelevant")
    return any(getattr(a, k) != getattr(b, k) for k in keys) or a.stop_reason != b.stop_reason


def task_lines(before: dict[str, Row], after: dict[str, Row]) -> list[str]:
    """One line per task in both runs that moved; tasks in one run only, named."""
    lines = []
    for task in sorted(before.keys() & after.keys()):
        a, b = before[task], after[task]
        if not _moved(a, b):
            continue
        stop = (
            a.stop_reason
            if a.stop_reason == b.stop_reason
            else f"{a.stop_reason} -> {b.stop_reason}"
        )
        lines.append(
            f"{task}: found {a.found} -> {b.found} of {a.relevant}; facts {a.facts_found} ->"
            f" {b.facts_found} of {a.facts}; pages {a.pages} -> {b.pages}; marks right/wrong"
            f" {a.identified_relevant}/{a.identified_irrelevant} ->"
            f" {b.identified_relevant}/{b.identified_irrelevant}; {stop}"
        )
    for name, only in (
        ("before", before.keys() - after.keys()),
        ("after", after.keys() - before.keys()),
    ):
        if only:
            lines.append(f"only in the {name} run: {', '.join(sorted(only))}")
    return lines


def counts(before: dict[str, Row], after: dict[str, Row]) -> str:
    both = sorted(before.keys() & after.keys())

    def n(pred: Callable[[Row, Row], bool]) -> int:
        return sum(1 for t in both if pred(before[t], after[t]))

    return (
        f"tasks that find more pages: {n(lambda a, b: b.found > a.found)}, fewer:"
        f" {n(lambda a, b: b.found < a.found)}; more facts: {n(lambda a, b: b.facts_found > a.facts_found)},"
        f" fewer: {n(lambda a, b: b.facts_found < a.facts_found)}; a right mark lost:"
        f" {n(lambda a, b: b.identified_relevant < a.identified_relevant)}; a wrong mark gained:"
        f" {n(lambda a, b: b.identified_irrelevant > a.identified_irrelevant)}; pages changed:"
        f" {n(lambda a, b: b.pages != a.pages)}"
    )


def main(argv: list[str] | None = None, out: TextIO = sys.stdout) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", type=Path, help="a run of quality.py --json")
    parser.add_argument("after", type=Path, help="another run, of the change")
    parser.add_argument(
        "--crawler", default=DEFAULT, help=f"rows of this crawler (default: {DEFAULT})"
    )
    parser.add_argument(
        "--group",
        choices=("real", "fixtures", "all"),
        default="real",
        help="the real corpus (default), the fixture portals, or both",
    )
    args = parser.parse_args(argv)
    try:
        before = load_rows(args.before, args.crawler, args.group)
        after = load_rows(args.after, args.crawler, args.group)
    except RunError as exc:
        print(f"compare_quality: {exc}", file=sys.stderr)
        return 2
    summaries = [summarize(before, args.crawler), summarize(after, args.crawler)]
    lines = totals_table([str(args.before), str(args.after)], summaries)
    moved = task_lines(before, after)
    lines += ["", counts(before, after), "", *(moved or ["no task moved"])]
    print("\n".join(lines), file=out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
