"""``pw-adaptive``: a command-line shell over the public API (argument parsing only).

Exit codes: 0 on any stop reason, 2 on bad arguments or input, 3 when the
start URL cannot be loaded, 1 on an unexpected error.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import re
import shlex
import signal
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from pw_adaptive.adaptive import MIN_RELEVANCE

EXIT_OK, EXIT_ERROR, EXIT_USAGE, EXIT_START = 0, 1, 2, 3


class UsageError(ValueError):
    """Bad command-line input: reported on one line, exit 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # one line, exit 2, like every other bad input
        raise UsageError(message)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="pw-adaptive", description=__doc__.splitlines()[0] if __doc__ else "")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    c = sub.add_parser("crawl", help="crawl a site for a query, write JSON Lines")
    c.add_argument("url", help="start URL (http or https)")
    c.add_argument("--query", "-q", required=True, help='topic query, e.g. "student housing"')
    c.add_argument("--max-pages", type=int, default=100, help="page budget (default 100)")
    c.add_argument("--max-depth", type=int, default=8, help="link depth limit (default 8)")
    c.add_argument("--concurrency", type=int, default=4, help="pages in flight (default 4)")
    c.add_argument("--time-limit", type=float, default=None, help="seconds for the whole crawl")
    c.add_argument("--out", "-o", help="JSON Lines output file (default: stdout)")
    c.add_argument("--markdown-dir", help="also write each relevant page's markdown here")
    c.add_argument("--state", help="SQLite state file: saved after every page, resumed on rerun")
    c.add_argument("--allow-host", action="append", default=[], help="extra host in scope")
    c.add_argument("--ignore-robots", action="store_true", help="do not obey robots.txt")
    c.add_argument("--delay", type=float, default=0.0, help="seconds between pages per host")
    c.add_argument("--browser-arg", action="append", default=[], help="extra Chromium argument")
    c.add_argument(
        "--block-third-party",
        action="store_true",
        help="abort requests to other sites (analytics, fonts): each stalls offline",
    )
    c.add_argument("--quiet", action="store_true", help="no progress bar")
    s = sub.add_parser("serve-fixtures", help="serve the fixture portals on 127.0.0.1")
    s.add_argument("--portal", action="append", help="portal name (repeatable; default: all)")
    s.add_argument("--port", type=int, default=0, help="first port (default: free ports)")
    return parser


def _validate_crawl(args: argparse.Namespace) -> None:
    from pw_adaptive.query import Query
    from pw_adaptive.urls import canonicalize_url

    try:
        canonicalize_url(args.url)
        Query(args.query)
    except ValueError as exc:
        raise UsageError(str(exc)) from exc
    for name in ("max_pages", "concurrency"):
        if getattr(args, name) < 1:
            raise UsageError(f"--{name.replace('_', '-')} must be >= 1")
    if args.max_depth < 0 or args.delay < 0:
        raise UsageError("--max-depth and --delay must be >= 0")
    if args.time_limit is not None and args.time_limit <= 0:
        raise UsageError("--time-limit must be > 0")
    if args.out and Path(args.out).is_dir():
        raise UsageError(f"--out {args.out} is a directory")
    if (
        args.markdown_dir
        and Path(args.markdown_dir).exists()
        and not Path(args.markdown_dir).is_dir()
    ):
        raise UsageError(f"--markdown-dir {args.markdown_dir} is not a directory")


_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
_DOTS = re.compile(r"\.{2,}")


def markdown_filename(url: str, max_len: int = 120) -> str:
    """A safe, bounded file name for a page's markdown: no path traversal."""
    parts = urlsplit(url)
    raw = f"{parts.hostname or 'page'}-{parts.path}-{parts.fragment}"
    slug = _DOTS.sub(".", _UNSAFE.sub("-", raw)).strip("-.")
    digest = hashlib.blake2b(url.encode(), digest_size=4).hexdigest()
    return f"{slug[: max_len - 12] or 'page'}-{digest}.md"


async def _crawl(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from pw_adaptive.api import AdaptiveCrawler
    from pw_adaptive.crawler import Progress as CrawlProgress
    from pw_adaptive.crawler import StartPageError
    from pw_adaptive.output import JsonlWriter
    from pw_adaptive.render import RenderSettings
    from pw_adaptive.render.browser import BrowserNotFoundError
    from pw_adaptive.settings import CrawlSettings

    settings = CrawlSettings(
        max_pages=args.max_pages,
        max_depth=args.max_depth,
        time_limit_s=args.time_limit,
        concurrency=args.concurrency,
        host_delay_s=args.delay,
        allowed_hosts=tuple(args.allow_host),
        respect_robots=not args.ignore_robots,
    )
    render_settings = RenderSettings(
        browser_args=tuple(a for arg in args.browser_arg for a in shlex.split(arg)),
        block_third_party=args.block_third_party,
    )
    resume = bool(args.state) and Path(args.state).exists()
    writer = JsonlWriter(args.out, append=resume) if args.out else JsonlWriter(sys.stdout)
    md_dir = Path(args.markdown_dir) if args.markdown_dir else None
    if md_dir is not None:
        md_dir.mkdir(parents=True, exist_ok=True)

    def on_record(record: dict[str, Any]) -> None:
        writer.write(record)
        if (
            md_dir is not None
            and record["type"] == "page"
            and record["relevance"] >= MIN_RELEVANCE
            and record["markdown"]
        ):
            target = md_dir / markdown_filename(record["final_url"])
            target.write_text(record["markdown"], encoding="utf-8")

    console = Console(stderr=True)
    progress = Progress(
        TextColumn("[bold]crawl"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("coverage {task.fields[coverage]:.0%}  best queued {task.fields[best]:.2f}"),
        console=console,
        disable=args.quiet,
        transient=True,
    )
    task = progress.add_task("crawl", total=args.max_pages, coverage=0.0, best=0.0)

    def on_progress(p: CrawlProgress) -> None:
        progress.update(task, completed=p.pages, coverage=p.coverage, best=p.best_queued)

    cancel = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, cancel.set)
    crawler = AdaptiveCrawler(settings, render_settings=render_settings)
    started = time.monotonic()
    try:
        with progress:
            result = await crawler.run(
                args.url,
                args.query,
                on_record=on_record,
                on_progress=on_progress,
                state_path=args.state,
                cancel=cancel,
            )
    except StartPageError as exc:
        print(f"pw-adaptive: {exc}", file=sys.stderr)
        return EXIT_START
    except BrowserNotFoundError as exc:
        print(f"pw-adaptive: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except ValueError as exc:
        print(f"pw-adaptive: {exc}", file=sys.stderr)
        return EXIT_USAGE
    finally:
        writer.close()
    if not args.quiet:
        console.print(
            f"stopped: {result.stop_reason} after {len(result.pages)} pages, "
            f"{len(result.relevant_pages())} relevant, coverage {result.coverage:.0%}, "
            f"{time.monotonic() - started:.1f}s"
        )
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if args.command == "crawl":
            _validate_crawl(args)
            return asyncio.run(_crawl(args))
        if args.command == "serve-fixtures":
            from fixtures_site.__main__ import main as serve_main

            serve = ["serve", *[f"--portal={p}" for p in args.portal or []], f"--port={args.port}"]
            return serve_main(serve)
    except UsageError as exc:
        print(f"pw-adaptive: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
