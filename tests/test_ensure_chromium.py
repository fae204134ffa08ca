"""``scripts/ensure-chromium.sh`` (``make chromium``) on what is already installed.

Only the branches that install nothing run here: Playwright's own browsers
seen in a registry made of install markers, and a ``PW_ADAPTIVE_CHROMIUM``
that names no file.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "ensure-chromium.sh"


def _run(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(SCRIPT), sys.executable],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def _registry(tmp_path: Path) -> Path:
    import playwright

    package = Path(playwright.__file__).parent / "driver" / "package"
    data = json.loads((package / "browsers.json").read_text("utf-8"))
    for entry in data["browsers"]:
        if entry["name"] in ("chromium", "chromium-headless-shell"):
            folder = tmp_path / f"{entry['name'].replace('-', '_')}-{entry['revision']}"
            folder.mkdir(parents=True)
            (folder / "INSTALLATION_COMPLETE").write_text("")
    return tmp_path


def test_playwrights_own_browsers_are_enough(tmp_path: Path) -> None:
    env = {"PLAYWRIGHT_BROWSERS_PATH": str(_registry(tmp_path)), "PW_ADAPTIVE_CHROMIUM": ""}
    done = _run(env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "chromium: Playwright's own Chromium"
    assert "apt-get" not in done.stdout + done.stderr


def test_a_named_browser_that_does_not_exist_is_an_error(tmp_path: Path) -> None:
    done = _run({"PW_ADAPTIVE_CHROMIUM": str(tmp_path / "no-chromium")})
    assert done.returncode == 1
    assert "does not exist or is not executable" in done.stderr
    assert "Traceback" not in done.stderr
