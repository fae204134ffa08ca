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


def test_a_build_that_fails_leaves_no_folder_to_pass_for_a_laid_out_site(
    tmp_path: Path,
) -> None:
    # upinfo-unica's build once failed on a machine without Jekyll and left
    # an empty folder, which the quality benchmark served as the site (every
    # task crawled one empty page) instead of skipping it.
    src = tmp_path / "src"
    _git("init", "-q", str(src))
    (src / "page.md").write_text("# A page")
    _git("-C", str(src), "add", "page.md")
    _git("-C", str(src), "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one")
    commit = subprocess.run(
        ["git", "-C", str(src), "rev-parse", "HEAD"], check=True, capture_output=True, text=True
    ).stdout.strip()
    mirror = tmp_path / "mirror" / "owner+site"
    mirror.mkdir(parents=True)
    (mirror / "repo").symlink_to(src / ".git")
    site = {
        "name": "site",
        "repo": "owner/site",
        "commit": commit,
        "build": {"commands": ['cp page.md "$OUT/"', "exit 3"]},
    }
    with pytest.raises(subprocess.CalledProcessError):
        layout.lay_out(site, tmp_path / "mirror", tmp_path / "out")
    assert not (tmp_path / "out" / "site").exists()
    site["build"] = {"commands": ['cp page.md "$OUT/"']}
    assert "laid out 1 files" in layout.lay_out(site, tmp_path / "mirror", tmp_path / "out")
    assert (tmp_path / "out" / "site" / "page.md").read_text() == "# A page"
