"""Main-content extraction: how much of pw_adaptive's markdown is the page's main
content, and how much of the main content reaches it, beside trafilatura.

Pages: up to ``--pages`` HTML files per real site (every k-th file of the
sorted list, so the sample spreads over the site), served from disk on
127.0.0.1: the two copies in ``../shared/data/real-sites`` (or
``$PW_ADAPTIVE_REAL_SITES``) and every site laid out under
``$PW_ADAPTIVE_CORPUS`` (``/work/corpus`` here). Sites not on disk are
skipped.

Main content, defined per page on the rendered DOM (after scripts ran): the
``innerText`` of the site generator's content container, the element in which
the generator puts the page's own text and nothing else:

* VuePress 2 (default theme, theme-hope, plume): ``[vp-content]`` or
  ``.vp-doc``: the rendered markdown file, without navbar, sidebar, page meta,
  prev/next links or footer;
* Hugo (qu-edu-iq's theme): ``article.article-content``: the page's body
  text, without menus, breadcrumbs, related news or footer;
* otherwise the first of ``main``, ``[role=main]``, ``article``.

Pages without such an element, or whose container is empty (a redirect stub),
are left out of the figures and counted. The container's text includes its
heading anchors and in-text link texts; our title line ("# Title") comes from
the page's h1, which these containers hold.

Measures, per page, on word tokens (letters or digit runs, lower-cased; each
CJK character is a token), as multisets (``Counter`` intersection):

* precision: share of the extractor's tokens that are main-content tokens
  (how much of the output is main content; the rest is chrome: menus, skip
  links, cookie notices, footers, related-article lists);
* recall: share of the main content's tokens that reach the output;
* F1 of the two.

Extractors: pw_adaptive's renderer (``RenderedPage.markdown``, link targets
removed) and ``trafilatura.extract`` (2.x; ``output_format="markdown"``,
tables kept, links off, other options default) on the same rendered DOM
(``page.content()`` once ready). The table gives per-site means and the share
of pages whose output starts with text that is not main content (the first
non-empty line's tokens mostly outside it: a skip link, a banner, a menu).

    .venv/bin/python benchmarks/extraction.py [--pages 30] [--site NAME ...]
        [--json benchmarks/results/extraction.json]

trafilatura is the ``bench`` extra (``pip install -e '.[bench]'``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import json
import os
import platform
import re
import statistics
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

os.environ.setdefault(
    "PW_ADAPTIVE_BROWSER_ARGS", '"--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"'
)

from playwright.async_api import Browser, async_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pw_adaptive.render import PlaywrightRenderer, RenderSettings, launch_browser  # noqa: E402
from pw_adaptive.text.scripts import CJK  # noqa: E402

SHARED = Path(
    os.environ.get("PW_ADAPTIVE_REAL_SITES", ROOT.parent / "shared" / "data" / "real-sites")
)
CORPUS = Path(os.environ.get("PW_ADAPTIVE_CORPUS", "/work/corpus"))

CONTAINERS = (
    "[vp-content]",
    ".vp-doc",
    "article.article-content",
    "main",
    "[role=main]",
    "article",
)
"""Content containers, tried in order (see the module doc)."""

MAIN_TEXT_JS = """(selectors) => {
  for (const sel of selectors) {
    const el = document.querySelector(sel);
    if (el) return {selector: sel, text: el.innerText || ""};
  }
  return null;
}"""

_TOKEN = re.compile(f"[{CJK}]|[^\\W_{CJK}]+")
_LINK_TARGET = re.compile(r"\]\([^)]*\)")


def tokens(text: str) -> list[str]:
    """Word tokens: runs of letters/digits, lower-cased; CJK characters one each."""
    return _TOKEN.findall(text.lower())


def markdown_text(markdown: str) -> str:
    """The words a reader sees in markdown: link targets removed."""
    return _LINK_TARGET.sub("]", markdown)


@dataclass(frozen=True)
class Score:
    precision: float
    recall: float
    f1: float
    chrome_first: bool


def score(output: str, main: str) -> Score:
    out, ref = Counter(tokens(output)), Counter(tokens(main))
    common = sum((out & ref).values())
    precision = common / max(1, sum(out.values()))
    recall = common / max(1, sum(ref.values()))
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    first = next((line for line in output.splitlines() if tokens(line)), "")
    first_tokens = Counter(tokens(first))
    chrome_first = bool(first_tokens) and sum((first_tokens & ref).values()) < 0.5 * sum(
        first_tokens.values()
    )
    return Score(precision, recall, f1, chrome_first)


@dataclass(frozen=True)
class PageResult:
    site: str
    path: str
    container: str
    main_tokens: int
    ours: Score
    trafilatura: Score


def sites(names: list[str] | None) -> dict[str, Path]:
    """Web roots of the real sites on disk, by name."""
    found: dict[str, Path] = {}
    for root in (SHARED, CORPUS):
        if not root.is_dir():
            continue
        for path in sorted(root.iterdir()):
            if path.is_dir() and path.name != "labels" and (path / "index.html").exists():
                found.setdefault(path.name, path)
    return {n: p for n, p in found.items() if not names or n in names}


def sample(root: Path, count: int) -> list[str]:
    pages = sorted(
        str(p.relative_to(root))
        for p in root.rglob("*.html")
        if p.name != "404.html" and not any(part.startswith(".") for part in p.parts)
    )
    step = max(1, len(pages) // count)
    return pages[::step][:count]


@contextlib.contextmanager
def serve(root: Path) -> Iterator[str]:
    handler = functools.partial(_Quiet, directory=str(root))
    server = _Server(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


class _Server(ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        # The renderer aborts blocked images and fonts mid-answer: a broken
        # pipe here is expected, not worth a traceback.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


async def measure_site(browser: Browser, name: str, root: Path, count: int) -> list[PageResult]:
    import trafilatura

    results: list[PageResult] = []
    context = await browser.new_context(service_workers="block")
    renderer = PlaywrightRenderer(browser, RenderSettings(explore_clicks=False))
    try:
        with serve(root) as base:
            for path in sample(root, count):
                url = base + path
                rendered = await renderer.render(url)
                page = await context.new_page()
                try:
                    await page.goto(url, wait_until="load", timeout=20_000)
                    await page.wait_for_timeout(500)
                    main = await page.evaluate(MAIN_TEXT_JS, list(CONTAINERS))
                    dom = await page.content()
                finally:
                    await page.close()
                if rendered.error or not main or not tokens(main["text"]):
                    print(f"  {name}/{path}: no main content, left out", file=sys.stderr)
                    continue
                extracted = trafilatura.extract(
                    dom, url=url, output_format="markdown", include_tables=True, include_links=False
                )
                results.append(
                    PageResult(
                        name,
                        path,
                        main["selector"],
                        len(tokens(main["text"])),
                        score(markdown_text(rendered.markdown), main["text"]),
                        score(extracted or "", main["text"]),
                    )
                )
    finally:
        await renderer.close()
        await context.close()
    return results


def summarize(results: list[PageResult]) -> dict[str, dict[str, Any]]:
    table: dict[str, dict[str, Any]] = {}
    for site in sorted({r.site for r in results}):
        rows = [r for r in results if r.site == site]
        entry: dict[str, Any] = {"pages": len(rows)}
        for who in ("ours", "trafilatura"):
            scores = [getattr(r, who) for r in rows]
            entry[who] = {
                "precision": round(statistics.mean(s.precision for s in scores), 3),
                "recall": round(statistics.mean(s.recall for s in scores), 3),
                "f1": round(statistics.mean(s.f1 for s in scores), 3),
                "chrome_first": round(statistics.mean(s.chrome_first for s in scores), 3),
            }
        table[site] = entry
    return table


def print_table(table: dict[str, dict[str, Any]]) -> None:
    print(
        "| site | pages | extractor | precision (output that is main) "
        "| recall (main that reaches output) | F1 | output opens with chrome |"
    )
    print("| --- | ---: | --- | ---: | ---: | ---: | ---: |")
    for site, entry in table.items():
        for who, label in (("ours", "pw_adaptive"), ("trafilatura", "trafilatura")):
            s = entry[who]
            print(
                f"| {site} | {entry['pages']} | {label} | {s['precision']:.1%} "
                f"| {s['recall']:.1%} | {s['f1']:.1%} | {s['chrome_first']:.0%} |"
            )


async def main_async(args: argparse.Namespace) -> int:
    found = sites(args.site)
    if not found:
        print("no real site on disk; nothing measured", file=sys.stderr)
        return 0
    started = time.monotonic()
    results: list[PageResult] = []
    async with async_playwright() as pw:
        browser = await launch_browser(pw)
        try:
            for name, root in found.items():
                print(f"{name}: {root}", file=sys.stderr)
                results.extend(await measure_site(browser, name, root, args.pages))
        finally:
            await browser.close()
    table = summarize(results)
    print_table(table)
    if args.json:
        import trafilatura

        Path(args.json).write_text(
            json.dumps(
                {
                    "command": "benchmarks/extraction.py " + " ".join(sys.argv[1:]),
                    "trafilatura": trafilatura.__version__,
                    "python": platform.python_version(),
                    "elapsed_s": round(time.monotonic() - started, 1),
                    "containers": list(CONTAINERS),
                    "sites": table,
                    "pages": [asdict(r) for r in results],
                },
                indent=1,
                ensure_ascii=False,
            )
            + "\n",
            encoding="utf-8",
        )
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("--pages", type=int, default=30, help="pages per site (default 30)")
    parser.add_argument("--site", action="append", help="only this site (repeatable)")
    parser.add_argument("--json", help="write the figures and per-page scores here")
    return asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
