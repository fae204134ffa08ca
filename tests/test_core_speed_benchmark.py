"""Smoke test of benchmarks/core_speed.py: runs with toy sizes, checks the rows.

No timing is asserted: the numbers of a toy run mean nothing.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from types import ModuleType

from benchmark_scripts import load_script

EXPECTED_ROWS = [
    "links canonicalized",
    "links scored",
    "relevance() on a 2,000-word page",
    "language detected, 2,000-word pages",
    "dedup checks, 2,000-word pages",
    "frontier push+pop, 200 URLs",
    "frontier push+pop, 200 URLs, canonicalize+scope+traps",
    "frontier push+pop, 500 URLs",
    "frontier peak memory, 500 URLs",
    "checkpoint full save, 200 queued",
    "checkpoint save after one page, median",
    "checkpoint save after one page, mean",
    "core cost per page",
    "core cost per page vs a 100 ms render",
    "core cost per page vs a 500 ms render",
]


def _load() -> ModuleType:
    return load_script("core_speed.py", "core_speed")


def test_core_speed_prints_every_row(tmp_path: Path) -> None:
    core_speed = _load()
    out = io.StringIO()
    result = tmp_path / "core.json"
    assert core_speed.main(["--tiny", "--json", str(result)], out=out) == 0
    lines = out.getvalue().splitlines()
    names = [line.rsplit("  ", 2)[0].rstrip() for line in lines[2:]]
    assert names == EXPECTED_ROWS
    rows = json.loads(result.read_text())["rows"]
    assert [row["name"] for row in rows] == EXPECTED_ROWS
    assert all(row["value"] > 0 for row in rows)
