"""benchmarks/startup.py: its arithmetic, and one tiny run end to end.

No time is asserted: the figures of one run mean nothing.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "startup.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("startup_benchmark", BENCHMARK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_a_row_holds_the_medians_their_ratio_and_spreads() -> None:
    startup = _load()
    row = startup.summarize(
        "fees", {"pw_adaptive": [3.0, 2.0, 2.5], "bare playwright": [1.0, 1.5, 1.25]}
    )
    assert (row.runs, row.adaptive_s, row.bare_s, row.ratio) == (3, 2.5, 1.25, 2.0)
    assert (row.adaptive_spread, row.bare_spread) == (1.0, 0.5)
    assert (
        startup.table([row]).splitlines()[-1] == "| fees | 3 | 2.50 | 1.25 | 2.00 | 1.00 / 0.50 |"
    )


def test_runners_without_the_same_number_of_runs_are_refused() -> None:
    startup = _load()
    with pytest.raises(ValueError):
        startup.summarize("fees", {"pw_adaptive": [1.0, 2.0], "bare playwright": [1.0]})
    with pytest.raises(ValueError):
        startup.summarize("fees", {"pw_adaptive": [], "bare playwright": []})


@pytest.mark.e2e
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
