"""The arithmetic of benchmarks/startup.py (its run: tests/e2e/test_startup_benchmark_smoke.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import startup


def test_a_row_holds_the_medians_their_ratio_and_spreads() -> None:
    row = startup.summarize(
        "fees", {"pw_adaptive": [3.0, 2.0, 2.5], "bare playwright": [1.0, 1.5, 1.25]}
    )
    assert (row.runs, row.adaptive_s, row.bare_s, row.ratio) == (3, 2.5, 1.25, 2.0)
    assert (row.adaptive_spread, row.bare_spread) == (1.0, 0.5)
    assert (
        startup.table([row]).splitlines()[-1] == "| fees | 3 | 2.50 | 1.25 | 2.00 | 1.00 / 0.50 |"
    )


def test_runners_without_the_same_number_of_runs_are_refused() -> None:
    with pytest.raises(ValueError):
        startup.summarize("fees", {"pw_adaptive": [1.0, 2.0], "bare playwright": [1.0]})
    with pytest.raises(ValueError):
        startup.summarize("fees", {"pw_adaptive": [], "bare playwright": []})
