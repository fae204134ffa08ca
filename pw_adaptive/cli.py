"""The ``pw-adaptive`` command over the public API: argument parsing, the
progress bar (``rich``, on stderr), and signals (the first SIGINT or SIGTERM
stops the crawl cleanly: summary written, state saved).

Exit codes: 0 on any stop reason, 2 on bad arguments or input, 3 when the
start URL cannot be loaded, 1 on an unexpected error; ``batch``: 4 when
some jobs failed (see its summary.jsonl), 130 when interrupted.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import os
import re
import signal
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from pw_adaptive.core.relevance import MIN_RELEVANCE

if TYPE_CHECKING:
    from pw_adaptive.render.records import RenderSettings

EXIT_OK, EXIT_ERROR, EXIT_USAGE, EXIT_START = 0, 1, 2, 3
EXIT_JOBS_FAILED, EXIT_INTERRUPTED = 4, 130


class UsageError(ValueError):
    """Bad command-line input: reported on one line, exit 2."""


DESCRIPTION = """\
Crawl a site for one topic with headless Chromium: pages are rendered, turned
into markdown and scored; the links that promise most for the query are
followed first, and the crawl stops by itself when the topic is covered or
nothing new turns up.

  pw-adaptive crawl https://www.example.ac.uk/ -q "tuition fees" -o fees.jsonl
  pw-adaptive report fees.jsonl
"""

EPILOG = """\
exit codes: 0 crawl finished (any stop reason), 1 unexpected error (no usable
Chromium, ...), 2 bad arguments or input, 3 start URL could not be loaded,
4 some batch jobs failed, 130 interrupted.
"""

ONE_ARG = "one Chromium argument, passed whole; repeatable: --browser-arg=--lang=de"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # one line, exit 2, like every other bad input
        raise UsageError(message)


def build_parser() -> argparse.ArgumentParser:
    from pw_adaptive.identity import __version__

    parser = _Parser(
        prog="pw-adaptive",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"pw-adaptive {__version__}")
    sub = parser.add_subparsers(
        dest="command", required=True, parser_class=_Parser, title="commands", metavar="COMMAND"
    )
    c = sub.add_parser(
        "crawl",
        help="crawl a site for a query; write one JSON line per page and a summary",
        description="Crawl a site for a topic query, from a start URL, with headless "
        "Chromium. Writes JSON Lines: a record per page (URL, title, relevance, "
        "markdown, ...), attachments, skipped URL traps and a final summary with "
        "the stop reason.",
    )
    c.add_argument("url", help="start URL (http or https)")
    c.add_argument("--query", "-q", required=True, help='topic query, e.g. "student housing"')
    c.add_argument("--max-pages", type=int, default=None, help="page budget (default 100)")
    c.add_argument("--max-depth", type=int, default=None, help="link depth limit (default 8)")
    c.add_argument("--concurrency", type=int, default=None, help="pages in flight (default 4)")
    c.add_argument("--time-limit", type=float, default=None, help="seconds for the whole crawl")
    c.add_argument("--out", "-o", help="JSON Lines output file (default: stdout)")
    c.add_argument("--markdown-dir", help="also write each relevant page's markdown here")
    c.add_argument("--state", help="SQLite state file: saved after every page, resumed on rerun")
    c.add_argument("--allow-host", action="append", default=[], help="extra host in scope")
    c.add_argument("--ignore-robots", action="store_true", help="do not obey robots.txt")
    c.add_argument(
        "--allow-private",
        action="store_true",
        help="let a crawl of a public site reach loopback, private and metadata addresses",
    )
    c.add_argument("--delay", type=float, default=None, help="seconds between pages per host")
    c.add_argument("--browser-arg", action="append", default=[], metavar="ARG", help=ONE_ARG)
    c.add_argument(
        "--user-agent",
        help="User-Agent header (default: Chromium's engine tokens naming pw-adaptive "
        "and its version; robots.txt is matched for pw-adaptive either way)",
    )
    c.add_argument(
        "--block-third-party",
        action="store_true",
        help="abort requests to other sites (analytics, fonts): each stalls offline",
    )
    c.add_argument("--quiet", action="store_true", help="no progress bar")
    _add_settings_arguments(c)
    b = sub.add_parser(
        "batch",
        help="run many crawls from a JSON Lines jobs file, locally or on Ray",
        description="Run the crawls of a jobs file (one JSON object a line: start_url, "
        "query and any crawl setting), several at once; each job's JSON Lines go to "
        "OUT/<id>.jsonl and one line per job to OUT/summary.jsonl. Rerunning skips "
        "finished jobs and resumes the others.",
    )
    b.add_argument("jobs", help="JSON Lines, one job a line: {start_url, query, options...}")
    b.add_argument("--out", "-o", required=True, help="directory: a file per job, summary.jsonl")
    b.add_argument("--workers", "-w", type=int, default=None, help="jobs at once (default 2)")
    b.add_argument(
        "--ray",
        nargs="?",
        const="",
        default=None,
        metavar="ADDRESS",
        help="run on Ray: a cluster address (auto, ray://host:10001), none for a local Ray",
    )
    b.add_argument("--browser-arg", action="append", default=[], metavar="ARG", help=ONE_ARG)
    b.add_argument("--user-agent", help="User-Agent header (default: names pw-adaptive)")
    b.add_argument("--block-third-party", action="store_true", help="abort third-party requests")
    b.add_argument("--quiet", action="store_true", help="no line per finished job")
    _add_settings_arguments(b)
    st = sub.add_parser("settings", help="list every setting of --settings and --set, with docs")
    st.add_argument("--json", action="store_true", help="as JSON: name, type, default, doc")
    s = sub.add_parser(
        "serve-fixtures",
        help="serve the bundled test portals on 127.0.0.1 (to try a crawl offline)",
        description="Serve the fixture portals that ship with pw-adaptive (small "
        "university sites: classic HTML, single-page apps, web components, URL traps, "
        "faults) on 127.0.0.1 until Ctrl-C; prints each portal's URL.",
    )
    s.add_argument("--portal", action="append", help="portal name (repeatable; default: all)")
    s.add_argument("--port", type=int, default=0, help="first port (default: free ports)")
    r = sub.add_parser(
        "report",
        help="write a self-contained HTML report of a crawl's JSON Lines",
        description="Write one HTML file (no network access needed to open it) with the "
        "stop reason, coverage over the crawl, the crawl tree and the pages sorted by "
        "relevance, from the JSON Lines of `pw-adaptive crawl`.",
    )
    r.add_argument("results", help="JSON Lines written by `pw-adaptive crawl`")
    r.add_argument("--out", "-o", help="HTML file to write (default: RESULTS with .html)")
    return parser


def _add_settings_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--settings",
        metavar="FILE",
        help="JSON or TOML settings file: sections crawl, render, adaptive (`pw-adaptive settings`)",
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="SECTION.FIELD=VALUE",
        help="one setting, e.g. render.explore_clicks=false (repeatable; `--set help` lists them)",
    )


def _overrides(args: argparse.Namespace) -> Any:
    """The ``--settings`` file with the ``--set`` assignments laid over it."""
    from pw_adaptive.crawling.overrides import Overrides, SettingsError, load_settings_file

    try:
        base = load_settings_file(args.settings) if args.settings else Overrides()
        return Overrides.from_assignments(args.set, base)
    except SettingsError as exc:
        raise UsageError(str(exc)) from exc


def _settings_list(args: argparse.Namespace) -> int:
    from dataclasses import asdict

    from pw_adaptive.crawling.overrides import catalog, format_catalog

    if getattr(args, "json", False):
        import json

        print(json.dumps([{"key": d.key, **asdict(d)} for d in catalog()], indent=1))
    else:
        print(format_catalog())
    return EXIT_OK


def render_settings_of(args: argparse.Namespace, overrides: Any = None) -> RenderSettings:
    """The renderer's settings from ``crawl`` or ``batch`` arguments over the
    settings file and ``--set``. Each ``--browser-arg`` is one Chromium
    argument, kept whole: ``"--flag=a b"`` must not become three
    (``PW_ADAPTIVE_BROWSER_ARGS`` is the shell-split list)."""
    from pw_adaptive.render.records import RenderSettings

    if overrides is None:
        overrides = _overrides(args)
    base = overrides.apply_render(RenderSettings())
    try:
        return overrides.apply_render(  # type: ignore[no-any-return]
            replace(
                base,
                browser_args=(*base.browser_args, *args.browser_arg),
                block_third_party=args.block_third_party or base.block_third_party,
                user_agent=args.user_agent if args.user_agent is not None else base.user_agent,
            )
        )
    except ValueError as exc:
        raise UsageError(str(exc)) from exc


def _check_user_agent(value: str | None) -> None:
    # A control character would make Chromium reject every request's headers.
    if value is not None and any(ord(ch) < 32 or ord(ch) == 127 for ch in value):
        raise UsageError("--user-agent must not contain control characters (newlines, tabs)")


def _validate_crawl(args: argparse.Namespace) -> None:
    from pw_adaptive.core.urls import canonicalize_url

    try:
        canonicalize_url(args.url)
    except ValueError as exc:
        raise UsageError(str(exc)) from exc
    # The query itself is parsed by the crawl, while the browser starts (the
    # parse may wait half a second for the language model); a query the
    # parse refuses (only stop words, too many terms) exits 2 from there,
    # before any output is written.
    if not args.query.strip():
        raise UsageError(f"query {args.query!r} has no terms: it is empty")
    _check_user_agent(args.user_agent)
    for name in ("max_pages", "concurrency"):
        if getattr(args, name) is not None and getattr(args, name) < 1:
            raise UsageError(f"--{name.replace('_', '-')} must be >= 1")
    if (args.max_depth or 0) < 0 or (args.delay or 0) < 0:
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
    if args.state:
        state = Path(args.state)
        if state.is_dir():
            raise UsageError(f"--state {args.state} is a directory")
        if state.exists() and not os.access(state, os.R_OK | os.W_OK):
            raise UsageError(f"--state {args.state} cannot be read and written")


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

    from pw_adaptive.crawling.api import AdaptiveCrawler
    from pw_adaptive.crawling.loop import Progress as CrawlProgress
    from pw_adaptive.crawling.loop import StartPageError
    from pw_adaptive.crawling.output import JsonlWriter, count_records
    from pw_adaptive.render.browser import BrowserNotFoundError
    from pw_adaptive.settings import CrawlSettings

    # Defaults, then the settings file, then the flags given, then --set.
    overrides = _overrides(args)
    from_file = overrides.apply_crawl(CrawlSettings())
    flags: dict[str, Any] = {
        "max_pages": args.max_pages,
        "max_depth": args.max_depth,
        "time_limit_s": args.time_limit,
        "concurrency": args.concurrency,
        "host_delay_s": args.delay,
    }
    given = {k: v for k, v in flags.items() if v is not None}
    if args.allow_host:
        given["allowed_hosts"] = (*from_file.allowed_hosts, *args.allow_host)
    if args.ignore_robots:
        given["respect_robots"] = False
    if args.allow_private:
        given["allow_private_addresses"] = True
    try:
        settings = overrides.apply_crawl(replace(from_file, **given))
    except ValueError as exc:
        raise UsageError(str(exc)) from exc
    render_settings = render_settings_of(args, overrides)
    resume = bool(args.state) and Path(args.state).exists()
    # Records the output already holds: a resumed crawl sends the saved ones
    # after them (those a killed run had saved but not written yet).
    held = count_records(Path(args.out)) if resume and args.out else None
    md_dir = Path(args.markdown_dir) if args.markdown_dir else None
    # Opened on the first record: input the library rejects (a state file of
    # another crawl, ...) leaves no output file created or truncated.
    writer: JsonlWriter | None = None

    def on_record(record: dict[str, Any]) -> None:
        nonlocal writer
        if writer is None:
            writer = JsonlWriter(args.out, append=resume) if args.out else JsonlWriter(sys.stdout)
        writer.write(record)
        if (
            md_dir is not None
            and record["type"] == "page"
            and record["relevance"] >= MIN_RELEVANCE
            and record["markdown"]
        ):
            md_dir.mkdir(parents=True, exist_ok=True)
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
    task = progress.add_task("crawl", total=settings.max_pages, coverage=0.0, best=0.0)

    def on_progress(p: CrawlProgress) -> None:
        progress.update(task, completed=p.pages, coverage=p.coverage, best=p.best_queued)

    cancel = asyncio.Event()
    loop = asyncio.get_running_loop()
    signals = (signal.SIGINT, signal.SIGTERM)

    def stop(sig: signal.Signals) -> None:
        # The first SIGINT/SIGTERM stops the crawl cleanly (stop reason
        # "cancelled", summary written, state saved); the default action is
        # back for a second one, so that a stuck stop can still be forced.
        cancel.set()
        for s in signals:
            loop.remove_signal_handler(s)
        print(f"pw-adaptive: {sig.name}: stopping (again to quit at once)", file=sys.stderr)

    for sig in signals:
        loop.add_signal_handler(sig, stop, sig)
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
                resend_from=held,
            )
    except StartPageError as exc:
        print(f"pw-adaptive: {exc}", file=sys.stderr)
        return EXIT_START
    except BrowserNotFoundError as exc:
        print(f"pw-adaptive: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except ValueError as exc:
        print(f"pw-adaptive: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    finally:
        if writer is not None:
            writer.close()
    if not args.quiet:
        console.print(
            f"stopped: {result.stop_reason} after {len(result.pages)} pages, "
            f"{len(result.relevant_pages())} relevant, coverage {result.coverage:.0%}, "
            f"{time.monotonic() - started:.1f}s"
        )
    return EXIT_OK


def _report(args: argparse.Namespace) -> int:
    from pw_adaptive.report import ReportInputError, write_report

    out = Path(args.out) if args.out else Path(args.results).with_suffix(".html")
    if out.is_dir():
        raise UsageError(f"--out {out} is a directory")
    if out.resolve() == Path(args.results).resolve():
        raise UsageError("--out would overwrite the results file")
    try:
        log = write_report(args.results, out)
    except ReportInputError as exc:
        raise UsageError(str(exc)) from exc
    except OSError as exc:
        raise UsageError(f"cannot write {out}: {exc.strerror or exc}") from exc
    reason = log.summary.get("stop_reason") if log.summary else "no summary"
    print(f"pw-adaptive: wrote {out} ({len(log.pages)} pages, {reason})", file=sys.stderr)
    return EXIT_OK


def _batch(args: argparse.Namespace) -> int:
    import threading

    from pw_adaptive.batch.jobs import JobError, load_jobs
    from pw_adaptive.batch.local import JobOutcome, LocalExecutor, crawl_many
    from pw_adaptive.render.browser import BrowserNotFoundError

    if args.workers is not None and args.workers < 1:
        raise UsageError("--workers must be >= 1")
    _check_user_agent(args.user_agent)
    if Path(args.out).exists() and not Path(args.out).is_dir():
        raise UsageError(f"--out {args.out} is not a directory")
    try:
        jobs = load_jobs(args.jobs)
    except JobError as exc:
        raise UsageError(str(exc)) from exc
    if args.ray is None:
        executor: Any = LocalExecutor(args.workers or 2)
    else:
        from pw_adaptive.batch.ray_executor import MissingRayError, RayExecutor

        try:
            executor = RayExecutor(args.ray or None, workers=args.workers)
        except MissingRayError as exc:
            print(f"pw-adaptive: {exc}", file=sys.stderr)
            return EXIT_ERROR
    overrides = _overrides(args)
    render_settings = render_settings_of(args, overrides)
    # The file's and --set's crawl settings are every job's defaults; a job's
    # own options win.
    defaults = {**overrides.section("crawl"), **overrides.section("adaptive")}
    if defaults:
        try:
            jobs = [j.with_defaults(defaults) for j in jobs]
        except JobError as exc:
            raise UsageError(str(exc)) from exc
    seen = 0

    def on_outcome(o: JobOutcome) -> None:
        nonlocal seen
        seen += 1
        if args.quiet:
            return
        state = "skipped" if o.skipped else o.status
        detail = o.error if o.status == "failed" else f"{o.stop_reason}, {o.pages} pages"
        print(f"[{seen}/{len(jobs)}] {state:7} {o.id}: {detail}", file=sys.stderr)

    cancel = threading.Event()
    signals = (signal.SIGINT, signal.SIGTERM)
    in_main = threading.current_thread() is threading.main_thread()
    previous = {sig: signal.signal(sig, lambda *_: cancel.set()) for sig in signals if in_main}
    try:
        outcomes = crawl_many(
            jobs, args.out, executor=executor, render_settings=render_settings,
            on_outcome=on_outcome, cancel=cancel,
        )  # fmt: skip
    except BrowserNotFoundError as exc:
        print(f"pw-adaptive: {exc}", file=sys.stderr)
        return EXIT_ERROR
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    failed = sum(o.status == "failed" for o in outcomes)
    skipped = sum(o.skipped for o in outcomes)
    print(
        f"pw-adaptive: {len(outcomes) - failed - skipped} done, {skipped} skipped (done before), "
        f"{failed} failed, {len(jobs) - len(outcomes)} not run; see {Path(args.out) / 'summary.jsonl'}",
        file=sys.stderr,
    )
    if cancel.is_set():
        return EXIT_INTERRUPTED
    return EXIT_JOBS_FAILED if failed else EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        words = list(sys.argv[1:] if argv is None else argv)
        asks_help = any(
            w == "--set=help" or (w == "--set" and nxt == "help")
            for w, nxt in zip(words, [*words[1:], ""], strict=True)
        )
        if asks_help:  # before parsing: `crawl --set help` needs no URL or query
            return _settings_list(argparse.Namespace(json=False))
        args = parser.parse_args(argv)
        if args.command == "settings":
            return _settings_list(args)
        if args.command == "crawl":
            _validate_crawl(args)
            return asyncio.run(_crawl(args))
        if args.command == "report":
            return _report(args)
        if args.command == "batch":
            return _batch(args)
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
