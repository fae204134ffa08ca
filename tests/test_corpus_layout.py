"""Tests for benchmarks/corpus/layout.py: finding a site's snapshot."""

from __future__ import annotations

import importlib.util
import subprocess
from pathlib import Path

_SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "corpus" / "layout.py"
_spec = importlib.util.spec_from_file_location("corpus_layout", _SCRIPT)
assert _spec is not None and _spec.loader is not None
layout = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(layout)


def _git(*args: str) -> None:
    subprocess.run(["git", *args], check=True, capture_output=True)


def test_a_snapshot_is_found_bare_or_as_a_clone(tmp_path: Path) -> None:
    _git("init", "-q", "--bare", str(tmp_path / "owner+bare" / "repo"))
    _git("init", "-q", str(tmp_path / "owner+clone" / "repo"))
    assert layout.git_dir(tmp_path, "owner/bare") == tmp_path / "owner+bare" / "repo"
    assert layout.git_dir(tmp_path, "owner/clone") == tmp_path / "owner+clone" / "repo" / ".git"
    assert layout.git_dir(tmp_path, "owner/absent") is None
