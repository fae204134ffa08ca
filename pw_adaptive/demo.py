"""``make demo``: serve a fixture portal, crawl it for a sample query, show what was found.

``python -m pw_adaptive.demo [--portal NAME] [--task ID]``
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from rich.console import Console
from rich.table import Table

from pw_adaptive.core.urls import canonicalize_url
from pw_adaptive.crawling.api import crawl

DEFAULT_PORTAL = "spa_hash"


def _pick_task(tasks: list[dict[str, Any]], task_id: str | None) -> dict[str, Any]:
    if task_id is not None:
        for task in tasks:
            if task["id"] == task_id:
                return task
        raise SystemExit(f"no task {task_id!r}; tasks: {', '.join(t['id'] for t in tasks)}")
    # The first task that has content: the demo should find something.
    return next(t for t in tasks if t["relevant"])


def main(argv: list[str] | None = None) -> int:
    from fixtures_site import serve_portals

    parser = argparse.ArgumentParser(prog="python -m pw_adaptive.demo")
    parser.add_argument("--portal", default=DEFAULT_PORTAL)
    parser.add_argument("--task", default=None, help="task id from the portal's truth.json")
    args = parser.parse_args(argv)
    console = Console()
    with serve_portals([args.portal]) as sites:
        origin = sites.url(args.portal)
        task = _pick_task(sites[args.portal].truth()["tasks"], args.task)
        start = origin + task["start"]
        console.print(f"[bold]portal[/] {args.portal} at {origin}/")
        console.print(f"[bold]query[/]  {task['query']!r} from {start}")
        result = crawl(start, task["query"], concurrency=4)

    relevant = {canonicalize_url(origin + r) for r in task["relevant"]}
    table = Table(title="pages fetched (fetch order)")
    for col in ("#", "url", "rel.", "link", "blind", "fresh", "note"):
        table.add_column(col)
    for i, page in enumerate(result.pages, 1):
        mark = "[green]*[/] " if page.final_url in relevant or page.url in relevant else ""
        table.add_row(
            str(i),
            mark + page.final_url.removeprefix(origin),
            f"{page.relevance:.2f}",
            f"{page.link_score:.2f}",
            "yes" if page.blind else "",
            "yes" if page.fresh else "",
            page.note or page.error or "",
        )
    console.print(table)
    fetched = {p.final_url for p in result.pages} | {p.url for p in result.pages}
    markdown = "\n".join(p.markdown for p in result.pages)
    found = relevant & fetched
    console.print(f"[bold]relevant pages found[/] {len(found)}/{len(relevant)} (* above)")
    for fact in task["facts"]:
        where = next((p.final_url for p in result.pages if fact in p.markdown), None)
        status = f"[green]found[/] on {where.removeprefix(origin)}" if where else "[red]missing[/]"
        console.print(f"  fact {fact!r}: {status}")
    for att in result.attachments:
        console.print(
            f"  attachment {att.url.removeprefix(origin)} ({att.kind}, {len(att.content)} chars)"
        )
    console.print(
        f"[bold]stop reason[/] {result.stop_reason} after {len(result.pages)} pages, "
        f"coverage {result.coverage:.0%}, evidence {dict(zip(result.terms, result.evidence, strict=True))}, "
        f"{result.elapsed_s:.1f}s"
    )
    ok = bool(found) and all(f in markdown for f in task["facts"])
    return 0 if ok or not relevant else 1


if __name__ == "__main__":
    sys.exit(main())
