"""Other crawlers on the same tasks: Crawl4AI's best-first and adaptive crawlers
and a plain breadth-first Playwright crawler (``benchmarks/peers/``).

Each peer is a script run as a subprocess (Crawl4AI in its own virtualenv,
``.venv-peers``, made by ``make peers``) with a JSON list of tasks; it writes
one JSON file with the pages it fetched, in order, with their markdown, and the
pages it reports as relevant when it reports any. A peer whose interpreter or
script is missing is skipped with a note.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pw_adaptive.core.urls import canonicalize_url

ROOT = Path(__file__).resolve().parent.parent
PEERS_DIR = ROOT / "benchmarks" / "peers"
PEERS_PYTHON = ROOT / ".venv-peers" / "bin" / "python"


@dataclass(frozen=True)
class Peer:
    name: str
    python: Path
    script: Path
    args: tuple[str, ...] = ()

    def available(self) -> str | None:
        """None when it can run, else why not."""
        if not self.python.exists():
            return f"{self.python} missing (make peers)"
        if not self.script.is_file():
            return f"{self.script} missing"
        return None


PEERS: tuple[Peer, ...] = (
    Peer(
        "crawl4ai best-first",
        PEERS_PYTHON,
        PEERS_DIR / "crawl4ai_run.py",
        ("--strategy", "bestfirst"),
    ),
    Peer(
        "crawl4ai adaptive", PEERS_PYTHON, PEERS_DIR / "crawl4ai_run.py", ("--strategy", "adaptive")
    ),
    Peer("bfs playwright", Path(sys.executable), PEERS_DIR / "bfs_playwright.py"),
)


@dataclass
class PeerRun:
    """One peer's crawl of one task."""

    pages: list[tuple[str, str]] = field(default_factory=list)
    """(url, final_url), canonical, in fetch order."""
    markdown: list[str] = field(default_factory=list)
    identified: list[str] | None = None
    stop_reason: str = "budget_or_frontier"
    wall_s: float = 0.0
    error: str | None = None


def _canonical(url: str) -> str:
    try:
        return canonicalize_url(url)
    except ValueError:
        return url


def parse(data: dict[str, Any]) -> dict[str, PeerRun]:
    """A peer's output file, by task id."""
    out: dict[str, PeerRun] = {}
    for task in data.get("tasks", []):
        run = PeerRun(wall_s=float(task.get("wall_s") or 0.0), error=task.get("error"))
        for page in task.get("pages", []):
            url = _canonical(page["url"])
            run.pages.append((url, _canonical(page.get("final_url") or url)))
            run.markdown.append(page.get("markdown") or "")
        if task.get("identified") is not None:
            run.identified = [_canonical(u) for u in task["identified"]]
        if task.get("stop_reason"):
            run.stop_reason = str(task["stop_reason"])
        out[task["id"]] = run
    return out


def run_peer(
    peer: Peer,
    tasks: Sequence[dict[str, str]],
    *,
    budget: int,
    concurrency: int = 4,
    timeout_s: float = 3600.0,
) -> dict[str, PeerRun]:
    """Run ``peer`` on ``tasks`` (``id``, ``start_url``, ``query``); by task id.
    Raises RuntimeError when the peer cannot run or fails as a whole."""
    why = peer.available()
    if why is not None:
        raise RuntimeError(why)
    with tempfile.TemporaryDirectory(prefix="pw-peer-") as tmp:
        tasks_file = Path(tmp) / "tasks.json"
        out_file = Path(tmp) / "out.json"
        tasks_file.write_text(json.dumps(list(tasks), ensure_ascii=False))
        cmd = [
            str(peer.python),
            str(peer.script),
            *peer.args,
            "--tasks",
            str(tasks_file),
            "--out",
            str(out_file),
            "--budget",
            str(budget),
            "--concurrency",
            str(concurrency),
        ]
        proc = subprocess.run(
            cmd, capture_output=True, text=True, timeout=timeout_s, env=dict(os.environ)
        )
        if proc.returncode != 0 or not out_file.is_file():
            tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
            raise RuntimeError(f"exit {proc.returncode}: {' | '.join(tail)}")
        return parse(json.loads(out_file.read_text(encoding="utf-8")))
