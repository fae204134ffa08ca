"""The README's examples run as written: its pytest-plugin example in a
separate project (a temporary directory with nothing but the user's test
file, the installed package and no new install), in a pytest subprocess."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

README = Path(__file__).resolve().parents[2] / "README.md"


def _python_block_after(heading: str) -> str:
    text = README.read_text(encoding="utf-8")
    section = text[text.index(heading) :]
    match = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert match, f"no python example under {heading!r}"
    return match.group(1)


def test_the_readme_plugin_example_passes_in_a_separate_project(tmp_path: Path) -> None:
    project = tmp_path / "my-project"
    (project / "tests").mkdir(parents=True)
    example = _python_block_after("## Testing your own code")
    assert "fixture_site" in example
    (project / "tests" / "test_portal.py").write_text(example, encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=project,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert re.search(r"\b1 passed\b", run.stdout), run.stdout[-2000:]
