"""Smoke test of benchmarks/startup.py: one tiny run, the table and the JSON shape.

No time is asserted: the figures of one run mean nothing.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "startup.py"


def test_one_run_prints_a_row_per_query_and_writes_every_time(tmp_path: Path) -> None:
    result = tmp_path / "startup.json"
    argv = ["--repeat", "1", "--queries", "tuition fees", "--json", str(result)]
    done = subprocess.run(
        [sys.executable, str(BENCHMARK), *argv], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    rows = [line for line in done.stdout.splitlines() if line.startswith("| tuition fees |")]
    assert len(rows) == 1
    data = json.loads(result.read_text())
    (row,) = data["rows"]
    assert row["runs"] == 1 and row["adaptive_s"] > 0 and row["bare_s"] > 0
    assert [len(t) for t in data["times"]["tuition fees"].values()] == [1, 1]
