"""What the peer crawlers share: the task file, the output file, the CLI and Chromium.

Standard library only: ``crawl4ai_run.py`` imports this under the peers'
virtualenv (``.venv-peers``) and ``bfs_playwright.py`` under the project's, and
neither may import pw_adaptive. The Chromium flags are the ones pw_adaptive
uses (its ``render.browser.QUIET_ARGS``, read from that file's source, and the
Makefile's resolver rule), so every crawler in a benchmark run drives the same
browser the same way.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import shlex
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CHROMIUM_ENV = "PW_ADAPTIVE_CHROMIUM"
EXTRA_ARGS_ENV = "PW_ADAPTIVE_BROWSER_ARGS"

_BROWSER_MODULE = Path(__file__).resolve().parents[2] / "pw_adaptive" / "render" / "browser.py"


def _browser_literal(name: str) -> tuple[str, ...]:
    """The tuple of strings ``name`` in pw_adaptive's ``render/browser.py``,
    read from its source.

    The module cannot be imported here (it needs pw_adaptive and Playwright,
    which the peers' virtualenv lacks), so the literal is parsed instead.
    """
    tree = ast.parse(_BROWSER_MODULE.read_text(encoding="utf-8"))
    for node in tree.body:
        if (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and node.target.id == name
            and node.value is not None
        ):
            return tuple(ast.literal_eval(node.value))
    raise RuntimeError(f"no {name} literal in {_BROWSER_MODULE}")


# Keep Chromium from talking to Google's services in the background: offline,
# each such request would stall or fail and add noise to the timings.
QUIET_ARGS = _browser_literal("QUIET_ARGS")
DEFAULT_CHROMIUMS = (
    *_browser_literal("SYSTEM_HEADLESS_SHELL_PATHS"),
    *_browser_literal("SYSTEM_CHROMIUM_PATHS"),
)
"""The system browsers in the order pw_adaptive's ``find_chromium`` tries them
for a headless launch (headless shells first), so that the peers drive the
browser pw_adaptive drives. (Crawl4AI launched the way its docs set it up,
with Playwright's own browsers, gets Playwright's headless shell too.)"""
# Offline, every DNS look-up of an outside host (fonts, analytics, CDNs that
# a real site references) would wait for a resolver that never answers.
RESOLVER_ARG = "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"


@dataclass(frozen=True)
class Task:
    id: str
    start_url: str
    query: str


def chromium_path() -> str:
    """``$PW_ADAPTIVE_CHROMIUM``, else the first of ``DEFAULT_CHROMIUMS`` that
    exists, else ``chromium`` on the PATH; an error if there is none."""

    def runnable(path: str) -> bool:
        return Path(path).is_file() and os.access(path, os.X_OK)

    named = os.environ.get(CHROMIUM_ENV)
    if named:
        if not runnable(named):
            raise SystemExit(f"Chromium not found at {named} (set {CHROMIUM_ENV})")
        return named
    path = next(filter(runnable, DEFAULT_CHROMIUMS), None) or shutil.which("chromium")
    if path is None:
        raise SystemExit(f"no Chromium found at {DEFAULT_CHROMIUMS[:3]} (set {CHROMIUM_ENV})")
    return path


def chromium_version() -> str:
    """What ``chromium --version`` prints, e.g. "Chromium 156.0.8078.114 built on Debian ..."."""
    try:
        out = subprocess.run(
            [chromium_path(), "--version"], capture_output=True, text=True, timeout=30
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"unknown ({exc})"
    return out.stdout.strip() or "unknown"


def chromium_args() -> list[str]:
    """The quiet flags, the resolver rule, then ``$PW_ADAPTIVE_BROWSER_ARGS``, without repeats."""
    extra = shlex.split(os.environ.get(EXTRA_ARGS_ENV, ""))
    return list(dict.fromkeys([*QUIET_ARGS, RESOLVER_ARG, *extra]))


def load_tasks(path: str) -> list[Task]:
    raw = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(raw, list):
        raise SystemExit(f"{path}: expected a JSON list of tasks")
    return [
        Task(id=str(t["id"]), start_url=str(t["start_url"]), query=str(t["query"])) for t in raw
    ]


def write_output(
    path: str, crawler: str, version: str, tasks: list[dict[str, Any]], **extra: Any
) -> None:
    out = {"crawler": crawler, "version": version, **extra, "tasks": tasks}
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(json.dumps(out, ensure_ascii=False, indent=1), encoding="utf-8")


def base_parser(description: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--tasks", required=True, help='JSON list of {"id", "start_url", "query"}')
    parser.add_argument("--out", required=True, help="output JSON file")
    parser.add_argument("--budget", type=int, default=100, help="pages per task (default 100)")
    parser.add_argument("--concurrency", type=int, default=4, help="pages in flight (default 4)")
    return parser


def summary_line(crawler: str, task: dict[str, Any]) -> str:
    pages = task["pages"]
    chars = sum(len(p["markdown"]) for p in pages)
    empty = sum(1 for p in pages if not p["markdown"].strip())
    err = f" error={task['error']}" if task["error"] else ""
    return (
        f"{crawler} {task['id']}: {len(pages)} pages in {task['wall_s']:.1f} s, "
        f"{chars} markdown chars, {empty} empty{err}"
    )
