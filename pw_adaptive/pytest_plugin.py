"""pytest plugin (entry point ``pytest11``): fixtures for users' end-to-end tests.

* ``fixture_site`` (session): the local fixture portals running on free
  127.0.0.1 ports, with their URLs and ground truth
  (``fixture_site.url("spa_hash")``, ``fixture_site.tasks()``).
* pytest-playwright's ``browser`` and ``page`` fixtures work with a system
  Chromium when Playwright's own browser is not installed: the launch
  arguments get ``executable_path`` from pw_adaptive's browser discovery and
  the quiet-offline Chromium flags.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture(scope="session")
def fixture_site() -> Iterator[Any]:
    """The fixture portals, served on 127.0.0.1 for the whole test session."""
    from fixtures_site import serve_portals

    with serve_portals() as sites:
        yield sites


class _PlaywrightLaunchOverride:
    """Registered after pytest-playwright so that this fixture overrides theirs."""

    @pytest.fixture(scope="session")
    def browser_type_launch_args(self, browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
        from pw_adaptive.render.browser import (
            browser_args,
            find_chromium,
            playwright_chromium_installed,
        )

        args = dict(browser_type_launch_args)
        if "executable_path" in args or playwright_chromium_installed():
            return args
        path = find_chromium(headless=bool(args.get("headless", True)))
        if path is None:
            return args  # pytest-playwright's own error names the fix
        args["executable_path"] = path
        # pw_adaptive's quiet flags, then $PW_ADAPTIVE_BROWSER_ARGS
        args["args"] = [*args.get("args", []), *browser_args()]
        return args


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "e2e: browser tests (headless Chromium)")
    if config.pluginmanager.has_plugin("playwright") and not config.pluginmanager.has_plugin(
        "pw_adaptive_playwright"
    ):
        config.pluginmanager.register(_PlaywrightLaunchOverride(), "pw_adaptive_playwright")
