"""Which Chromium a launch takes: the headless shell first for a headless launch.

No browser is started: the system paths are pointed at files in a temporary
directory and Playwright is replaced by an object that records the launch.
"""

from __future__ import annotations

import asyncio
import json
import stat
from pathlib import Path
from typing import Any

import pytest

from pw_adaptive.render import RenderSettings
from pw_adaptive.render import browser as B


def _exe(path: Path) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


@pytest.fixture
def system(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """A headless shell and a full Chromium as the only system browsers."""
    shell = _exe(tmp_path / "lib" / "chromium-headless-shell")
    full = _exe(tmp_path / "lib" / "chromium")
    monkeypatch.setattr(B, "SYSTEM_HEADLESS_SHELL_PATHS", (str(tmp_path / "no-shell"), shell))
    monkeypatch.setattr(B, "SYSTEM_CHROMIUM_PATHS", (full,))
    monkeypatch.delenv(B.CHROMIUM_ENV, raising=False)
    # No Playwright download in an empty registry.
    monkeypatch.setenv("PLAYWRIGHT_BROWSERS_PATH", str(tmp_path / "registry"))
    return {"shell": shell, "full": full}


def test_a_headless_launch_finds_the_headless_shell_first(system: dict[str, str]) -> None:
    assert B.find_chromium(environ={}) == system["shell"]
    assert B.find_chromium(environ={}, headless=True) == system["shell"]


def test_a_headed_launch_needs_the_full_browser(system: dict[str, str]) -> None:
    assert B.find_chromium(environ={}, headless=False) == system["full"]


def test_without_a_shell_the_full_browser_serves(system: dict[str, str]) -> None:
    Path(system["shell"]).unlink()
    assert B.find_chromium(environ={}) == system["full"]


def test_the_environment_still_wins(system: dict[str, str], tmp_path: Path) -> None:
    named = _exe(tmp_path / "other" / "chrome")
    assert B.find_chromium(environ={B.CHROMIUM_ENV: named}) == named


def _registry(tmp_path: Path, *installed: str) -> Path:
    """A Playwright registry with these browsers' markers, at the driver's revisions."""
    import playwright

    package = Path(playwright.__file__).parent / "driver" / "package"
    data = json.loads((package / "browsers.json").read_text("utf-8"))
    revisions = {b["name"]: b["revision"] for b in data["browsers"]}
    registry = tmp_path / "registry"
    for name in installed:
        folder = registry / f"{name.replace('-', '_')}-{revisions[name]}"
        folder.mkdir(parents=True)
        (folder / "INSTALLATION_COMPLETE").write_text("")
    return registry


def test_playwrights_own_shell_is_seen_on_disk(tmp_path: Path) -> None:
    registry = _registry(tmp_path, "chromium")
    env = {"PLAYWRIGHT_BROWSERS_PATH": str(registry)}
    assert B.playwright_chromium_installed(environ=env)
    assert not B.playwright_headless_shell_installed(environ=env)
    registry = _registry(tmp_path / "both", "chromium", "chromium-headless-shell")
    env = {"PLAYWRIGHT_BROWSERS_PATH": str(registry)}
    assert B.playwright_headless_shell_installed(environ=env)


class _Browser:
    """Stands for a launched browser (weakly referenced, as real ones are)."""


class _Chromium:
    def __init__(self, fail_without_path: bool = False) -> None:
        self.calls: list[dict[str, Any]] = []
        self.fail_without_path = fail_without_path
        self.executable_path = ""  # no bundled full Chromium

    async def launch(self, **kwargs: Any) -> _Browser:
        self.calls.append(kwargs)
        if self.fail_without_path and "executable_path" not in kwargs:
            raise RuntimeError("Executable doesn't exist at .../chrome-headless-shell")
        return _Browser()


class _Playwright:
    def __init__(self, chromium: _Chromium) -> None:
        self.chromium = chromium


def _launch(chromium: _Chromium, settings: RenderSettings | None = None) -> None:
    asyncio.run(B.launch_browser(_Playwright(chromium), settings))  # type: ignore[arg-type]


def test_playwrights_own_shell_is_launched_by_naming_no_executable(
    system: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    registry = _registry(tmp_path, "chromium", "chromium-headless-shell")
    monkeypatch.setenv("PLAYWRIGHT_BROWSERS_PATH", str(registry))
    chromium = _Chromium()
    _launch(chromium)
    assert len(chromium.calls) == 1
    assert "executable_path" not in chromium.calls[0]
    assert chromium.calls[0]["headless"] is True
    assert "--disable-gpu" in chromium.calls[0]["args"]


def test_a_broken_playwright_shell_falls_back_to_the_discovered_executable(
    system: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    registry = _registry(tmp_path, "chromium-headless-shell")
    monkeypatch.setenv("PLAYWRIGHT_BROWSERS_PATH", str(registry))
    chromium = _Chromium(fail_without_path=True)
    _launch(chromium)
    assert [c.get("executable_path") for c in chromium.calls] == [None, system["shell"]]


def test_a_named_executable_or_a_headed_launch_skips_playwrights_shell(
    system: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    registry = _registry(tmp_path, "chromium-headless-shell")
    monkeypatch.setenv("PLAYWRIGHT_BROWSERS_PATH", str(registry))
    chromium = _Chromium()
    _launch(chromium, RenderSettings(headless=False))
    assert chromium.calls[-1]["executable_path"] == system["full"]
    _launch(chromium, RenderSettings(executable_path=system["full"]))
    assert chromium.calls[-1]["executable_path"] == system["full"]
    monkeypatch.setenv(B.CHROMIUM_ENV, system["full"])
    _launch(chromium)
    assert chromium.calls[-1]["executable_path"] == system["full"]
    assert all("executable_path" in c for c in chromium.calls)


def test_without_playwrights_shell_the_system_shell_is_launched(system: dict[str, str]) -> None:
    chromium = _Chromium()
    _launch(chromium)
    assert chromium.calls == [
        {"executable_path": system["shell"], "headless": True, "args": chromium.calls[0]["args"]}
    ]
