"""Fixture portals without a browser: truth files, server answers, PDFs, special behaviours."""

from __future__ import annotations

import http.client
import json
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import quote, urlsplit

import pytest

from fixtures_site import RunningSites, load_portals, serve_portals
from fixtures_site.common import Request
from fixtures_site.portals import _spa_hash_pages as hash_pages
from fixtures_site.portals import _spa_history_pages as history_pages
from fixtures_site.portals import classic, large, spa_hash, spa_history
from fixtures_site.portals._kit import strip_tags
from pw_adaptive.crawling.attachments import extract_text

PORTALS = load_portals()
MY_PORTALS = ("spa_hash", "spa_history", "classic", "large")
TASK_KEYS = {"id", "query", "start", "relevant", "facts", "attachments"}


def _all_tasks() -> list[tuple[str, dict[str, Any]]]:
    return [(name, task) for name, p in PORTALS.items() for task in p.truth()["tasks"]]


ALL_TASKS = _all_tasks()


def _task_id(item: tuple[str, dict[str, Any]]) -> str:
    return str(item[1].get("id", "?"))


@pytest.fixture(scope="module")
def sites() -> Iterator[RunningSites]:
    with serve_portals() as running:
        yield running


class Fetched:
    def __init__(self, status: int, headers: dict[str, str], body: bytes) -> None:
        self.status = status
        self.headers = headers
        self.body = body

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")


def fetch(base_url: str, path: str) -> Fetched:
    """One GET without following redirects; ``path`` may hold non-ASCII characters."""
    parts = urlsplit(base_url)
    conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=10)
    try:
        conn.request("GET", quote(path, safe="/%?=&;:@!$'()*+,-._~"))
        resp = conn.getresponse()
        body = resp.read()
        return Fetched(resp.status, {k.lower(): v for k, v in resp.getheaders()}, body)
    finally:
        conn.close()


def fetch_following(base_url: str, path: str, limit: int = 10) -> tuple[Fetched, list[str]]:
    """GET following redirects; returns the last response and the paths visited."""
    visited = [path]
    resp = fetch(base_url, path)
    while resp.status in (301, 302, 303, 307, 308) and len(visited) <= limit:
        location = resp.headers["location"]
        parts = urlsplit(location)
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        visited.append(path)
        resp = fetch(base_url, path)
    return resp, visited


def server_path(route: str) -> str:
    """The part of a truth route the server sees (a hash route's fragment stays client-side)."""
    return route.split("#", 1)[0] or "/"


# ---------------------------------------------------------------------------
# portals and truth files


def test_my_portals_are_loaded() -> None:
    for name in MY_PORTALS:
        assert name in PORTALS, name
        assert PORTALS[name].description


def test_cli_lists_portals(capsys: pytest.CaptureFixture[str]) -> None:
    from fixtures_site.__main__ import main

    assert main(["list"]) == 0
    out = capsys.readouterr().out
    for name in PORTALS:
        assert name in out


@pytest.mark.parametrize("name", sorted(PORTALS))
def test_truth_file_is_valid(name: str) -> None:
    truth = PORTALS[name].truth()
    assert truth["portal"] == name
    tasks = truth["tasks"]
    assert len(tasks) >= 5, f"{name}: at least 5 tasks"
    assert any(not t["relevant"] for t in tasks), f"{name}: needs a task with no relevant page"
    for task in tasks:
        assert set(task) >= TASK_KEYS, f"{name}: task keys {sorted(task)}"
        assert isinstance(task["id"], str) and task["id"]
        assert isinstance(task["query"], str) and task["query"].strip()
        assert isinstance(task["start"], str) and task["start"].startswith("/")
        for key in ("relevant", "facts", "attachments"):
            assert isinstance(task[key], list), (task["id"], key)
            assert all(isinstance(v, str) and v for v in task[key]), (task["id"], key)
        assert all(r.startswith("/") for r in task["relevant"]), task["id"]
        assert all(a.startswith("/") for a in task["attachments"]), task["id"]
        assert len(set(task["relevant"])) == len(task["relevant"]), task["id"]
        if task["relevant"]:
            assert task["facts"], f"{task['id']}: relevant pages need facts"
            assert task["start"] not in task["relevant"], task["id"]
        else:
            assert not task["facts"] and not task["attachments"], task["id"]


def test_task_ids_unique_and_enough_tasks() -> None:
    ids = [task["id"] for _name, task in ALL_TASKS]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    assert not duplicates, duplicates
    assert len(ids) >= 30, f"only {len(ids)} tasks across {len(PORTALS)} portals"


# ---------------------------------------------------------------------------
# the server answers what the truth names


@pytest.mark.parametrize("item", ALL_TASKS, ids=_task_id)
def test_server_answers_start_and_relevant(sites: RunningSites, item: tuple[str, Any]) -> None:
    name, task = item
    base = sites.url(name)
    resp, _ = fetch_following(base, server_path(task["start"]))
    assert resp.status == 200, (task["start"], resp.status)
    for route in task["relevant"]:
        path = server_path(route)
        resp = fetch(base, path)
        # relevant routes are final URLs: no redirect on the way
        assert resp.status == 200, (route, resp.status)
        assert resp.headers["content-type"].startswith("text/html"), route


@pytest.mark.parametrize("item", ALL_TASKS, ids=_task_id)
def test_attachments_are_pdfs_with_text(sites: RunningSites, item: tuple[str, Any]) -> None:
    name, task = item
    for path in task["attachments"]:
        resp = fetch(sites.url(name), path)
        assert resp.status == 200, path
        assert resp.headers["content-type"].startswith("application/pdf"), path
        text = extract_text("pdf", resp.body)
        assert len(text.split()) >= 10, (path, text)


def _page_text(name: str, route: str) -> str:
    """Text of a relevant page of one of my portals, from the server (no browser)."""
    base = route.split("#", 1)
    if name == "spa_hash":
        status, data = spa_hash.page_data(base[1].lstrip("!") if len(base) > 1 else "/")
        assert status == 200, route
        return strip_tags(data["html"])
    if name == "spa_history":
        status, data = spa_history.view_data(route)
        assert status == 200, route
        return strip_tags(data["html"])
    handler = {"classic": classic.handle, "large": large.handle}[name]
    resp = handler(Request("GET", route, route, "", {}))
    assert resp.status == 200, route
    return strip_tags(resp.body.decode("utf-8"))


@pytest.mark.parametrize(
    "item", [i for i in ALL_TASKS if i[0] in MY_PORTALS and i[1]["relevant"]], ids=_task_id
)
def test_facts_are_in_the_content(item: tuple[str, Any]) -> None:
    """Every fact sits on at least one relevant page (the e2e test checks what renders)."""
    name, task = item
    texts = [_page_text(name, route) for route in task["relevant"]]
    for fact in task["facts"]:
        assert any(fact in t for t in texts), (task["id"], fact)


def test_spa_hash_api_answers_every_route(sites: RunningSites) -> None:
    base = sites.url("spa_hash")
    shell = fetch(base, "/")
    assert shell.status == 200 and "/static/app.js" in shell.text
    assert "Residence halls" not in shell.text  # content comes from the API, not the shell
    routes = spa_hash.routes()
    api_paths = [
        "/api/page?route=" + quote(r.split("#", 1)[1].lstrip("!"), safe="") for r in routes
    ]
    with ThreadPoolExecutor(max_workers=12) as pool:  # the API answers after a delay
        answers = list(pool.map(lambda path: fetch(base, path), api_paths))
    for route, resp in zip(routes, answers, strict=True):
        assert resp.status == 200, route
        data = json.loads(resp.body)
        assert data["title"] and "<h1>" in data["html"], route
    missing = fetch(base, "/api/page?route=/no/such/route")
    assert missing.status == 404
    assert json.loads(missing.body)["title"] == "Page not found"


def test_spa_hash_uses_hash_and_hashbang_routes() -> None:
    linked = set()
    for page in hash_pages.PAGES.values():
        linked.update(re.findall(r'href="(#!?/[^"]*)"', page.body))
    assert any(h.startswith("#!/") for h in linked)
    assert any(h.startswith("#/") for h in linked)
    truth_routes = {r for _n, t in ALL_TASKS if _n == "spa_hash" for r in t["relevant"]}
    assert set(spa_hash.routes()) >= truth_routes


def test_spa_history_soft_404(sites: RunningSites) -> None:
    base = sites.url("spa_history")
    real = fetch(base, "/community/living/on-campus")
    fake = fetch(base, "/this/page/does-not-exist-4711")
    assert real.status == fake.status == 200
    assert real.body == fake.body  # the same shell: only the client knows
    api = fetch(base, "/api/view?path=/this/page/does-not-exist-4711")
    assert api.status == 404
    assert json.loads(api.body)["title"] == "Page not found"


def test_spa_history_button_only_page_has_no_href() -> None:
    target = history_pages.BUTTON_ONLY_PATH
    sources = [page.body for page in history_pages.PAGES.values()] + [spa_history.SHELL]
    assert not any(f'href="{target}' in s for s in sources)
    assert 'role="link"' in history_pages.PAGES["/global/arriving"].body
    truth = {r for _n, t in ALL_TASKS if _n == "spa_history" for r in t["relevant"]}
    assert target in truth


def test_spa_history_mega_menu_is_hidden_until_hover() -> None:
    assert ".mega .panel{display:none" in spa_history.STYLE
    assert ".mega>li:hover .panel" in spa_history.STYLE
    assert 'href="/community/living"' in spa_history.SHELL
    # the residences hub is linked from the hidden menu only
    assert not any('href="/community/living"' in p.body for p in history_pages.PAGES.values())


def test_classic_redirect_chain(sites: RunningSites) -> None:
    base = sites.url("classic")
    first = fetch(base, classic_old := "/reslife/halls.aspx")
    assert first.status == 301
    resp, visited = fetch_following(base, classic_old)
    assert resp.status == 200
    assert visited == [
        "/reslife/halls.aspx",
        "/campus-life/housing/halls",
        "/living/residence-halls/",
    ]
    second = fetch(base, visited[1])
    assert second.status == 302
    slashless = fetch(base, "/living")
    assert slashless.status == 301 and slashless.headers["location"] == "/living/"
    assert fetch(base, "/no-such-page/").status == 404


def test_classic_canonical_and_print_duplicates(sites: RunningSites) -> None:
    base = sites.url("classic")
    for path in ("/living/residence-halls/", "/bursar/cost-of-attendance/"):
        plain = fetch(base, path).text
        printed = fetch(base, path + "?print=1").text
        canonical = f'<link rel="canonical" href="{base}{path}">'
        assert canonical in plain and canonical in printed
        main_plain = plain.split("<main>", 1)[1].split("</main>", 1)[0]
        assert main_plain in printed
        assert f'href="{path}?print=1"' in plain


def test_large_portal_has_5000_routes() -> None:
    routes = large.routes()
    assert len(routes) >= 5000
    assert len(set(routes)) == len(routes)
    for path in routes:  # every listed route renders (direct calls: fast)
        assert large.handle(Request("GET", path, path, "", {})).status == 200, path
    truth = {r for _n, t in ALL_TASKS if _n == "large" for r in t["relevant"]}
    assert truth <= set(routes)


def test_large_portal_over_http(sites: RunningSites) -> None:
    base = sites.url("large")
    routes = large.routes()
    for path in routes[:: max(1, len(routes) // 200)]:
        assert fetch(base, path).status == 200, path
    assert fetch(base, "/faculties/science").status == 301
    assert fetch(base, "/faculties/nowhere/").status == 404


@pytest.mark.parametrize(
    "module", [spa_hash, spa_history, classic, large], ids=lambda m: m.__name__.rsplit(".", 1)[1]
)
def test_every_attachment_parses(module: Any) -> None:
    for path, doc in module.ATTACHMENTS.items():
        resp = module.handle(Request("GET", path, path, "", {}))
        assert resp.status == 200 and resp.content_type == "application/pdf", path
        text = extract_text("pdf", resp.body)
        assert doc.lines[0].split()[0] in text, path
