"""The pytest plugin as a user meets it: a separate pytest run on a user's test
file, using ``fixture_site`` and pytest-playwright's ``page`` with whatever
Chromium pw_adaptive finds (a subprocess also keeps pytest-playwright's event
loop out of this session)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

USER_TEST = """
def test_fixture_portal_in_a_playwright_page(page, fixture_site):
    page.goto(fixture_site.url("classic") + "/")
    assert "Alder Valley" in page.title()
    assert len(fixture_site.tasks()) >= 30


def test_crawl_under_pytest_playwright(page, fixture_site):
    from pw_adaptive import crawl

    page.goto("about:blank")  # the sync page fixture's loop is running on this thread
    task = next(t for t in fixture_site.tasks() if t["id"] == "classic-fees")
    result = crawl(task["start_url"], task["query"], max_pages=5)
    assert result.stop_reason and result.pages
"""


def test_users_get_fixture_site_and_a_working_page_fixture(tmp_path: Path) -> None:
    (tmp_path / "test_user.py").write_text(USER_TEST, encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert "2 passed" in run.stdout
