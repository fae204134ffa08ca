"""Smoke test of benchmarks/speed.py: one tiny run, the table and the JSON shape.

No speed is asserted: the figures of a 5-page run mean nothing.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from benchmark_scripts import load_script

pytestmark = pytest.mark.e2e

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "speed.py"


def test_speed_benchmark_prints_both_runners_and_writes_the_json(tmp_path: Path) -> None:
    result = tmp_path / "speed.json"
    argv = ["--pages", "5", "--concurrency", "2", "--repeat", "1", "--no-peer"]
    argv += ["--json", str(result)]
    done = subprocess.run(
        [sys.executable, str(BENCHMARK), *argv], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    lines = [line.split() for line in done.stdout.splitlines()]
    table = [cells for cells in lines if len(cells) > 10]  # the rows, not the ratio lines
    assert [cells[:4] for cells in table if cells[:1] == ["pw_adaptive"]] == [
        ["pw_adaptive", "2", "1", "5"]
    ]
    assert [cells[:5] for cells in table if cells[:1] == ["bare"]] == [
        ["bare", "playwright", "2", "1", "5"]
    ]

    data = json.loads(result.read_text())
    adaptive, bare = data["rows"]
    assert (adaptive["runner"], bare["runner"]) == ("pw_adaptive", "bare playwright")
    for row in (adaptive, bare):
        assert row["pages"] == 5
        assert row["pages_per_s"] > 0
        assert row["cpu_s_per_page"] > 0
        assert row["peak_mib"] > 50  # Python plus a Chromium: far above 50 MiB
        if row["cpu_s_cgroup"] is not None:  # the sampled tree misses some, never adds
            assert row["cpu_s_tree"] <= row["cpu_s_cgroup"] * 1.05
    (ratio,) = data["ratios"]
    assert ratio["concurrency"] == 2
    assert ratio["pages_per_s"] == pytest.approx(adaptive["pages_per_s"] / bare["pages_per_s"])
    assert len(data["runs"]) == 2


def _speed_module() -> ModuleType:
    return load_script("speed.py", "speed_benchmark_e2e")


def _bare(speed: ModuleType, urls: list[str]) -> Any:
    """The bare loop over ``urls`` at concurrency 1, in a worker thread
    (pytest-playwright may hold this thread's event loop)."""
    with ThreadPoolExecutor(1) as pool:
        job = pool.submit(asyncio.run, speed.run_bare(speed.Meter(None), urls, 1, site="t"))
        return job.result(timeout=60)


def test_the_bare_loop_cuts_off_a_page_that_never_yields_and_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Reading the DOM of a page whose script spins after ``load`` never returns
    in Playwright: without a bound per step, such a page hung a whole benchmark."""
    speed = _speed_module()
    monkeypatch.setattr(speed, "BARE_STEP_S", 2.0)
    spinning = "data:text/html,<p>x</p><script>onload=()=>setTimeout(()=>{for(;;){}},0)</script>"
    run = _bare(speed, [spinning, "data:text/html,<p>fine</p>"])
    assert (run.pages, run.stalled) == (2, 1)


class _RedirectingSite(BaseHTTPRequestHandler):
    """``/`` sends itself on to ``/next`` by script once loaded (a start page
    that picks the reader's language)."""

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        body = b"<p>next</p>"
        if self.path == "/":
            body = b"<p>start</p><script>addEventListener('load', () => location.href = '/next')</script>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def test_the_bare_loop_reads_the_page_a_script_sent_it_to(monkeypatch: pytest.MonkeyPatch) -> None:
    """Playwright will not read a page that is navigating, and closing it then
    hung until the step's bound: the loop reads the new document instead."""
    speed = _speed_module()
    monkeypatch.setattr(speed, "BARE_STEP_S", 5.0)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _RedirectingSite)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        start = f"http://127.0.0.1:{server.server_address[1]}/"
        run = _bare(speed, [start, start])
    finally:
        server.shutdown()
        server.server_close()
    assert (run.pages, run.stalled) == (2, 0)
