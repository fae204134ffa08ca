"""Tests for benchmarks/corpus/layout.py: finding a site's snapshot, and what its build needs."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
from pathlib import Path

import pytest

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


@pytest.mark.skipif(shutil.which("dpkg-query") is None, reason="not a Debian machine")
def test_a_build_that_needs_a_package_not_installed_fails_first_and_keeps_the_old_layout(
    tmp_path: Path,
) -> None:
    _git("init", "-q", "--bare", str(tmp_path / "mirror" / "owner+site" / "repo"))
    site = {
        "name": "site",
        "repo": "owner/site",
        "commit": "0" * 40,
        "build": {"apt": ["bash", "pw-adaptive-no-such-package"], "commands": ["true"]},
    }
    assert layout.missing_tools(site) == ["pw-adaptive-no-such-package"]
    old = tmp_path / "out" / "site" / "index.html"
    old.parent.mkdir(parents=True)
    old.write_text("laid out before")
    with pytest.raises(LookupError, match="apt-get install -y pw-adaptive-no-such-package"):
        layout.lay_out(site, tmp_path / "mirror", tmp_path / "out")
    assert old.read_text() == "laid out before"
    assert layout.missing_tools({"name": "plain"}) == []
