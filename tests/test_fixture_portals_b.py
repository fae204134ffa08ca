"""The webcomponents, chinese and traps fixture portals answer as designed.

No browser: every check calls ``PORTAL.handle`` directly with a ``Request``.
"""

from __future__ import annotations

import json
import re
from collections import deque
from html.parser import HTMLParser
from typing import Any
from urllib.parse import parse_qs, quote, unquote, urljoin, urlsplit

import pytest

from fixtures_site.common import Portal, Request, Response
from fixtures_site.portals import chinese, traps, webcomponents
from pw_adaptive.crawling.attachments import extract_text

PORTALS: dict[str, Portal] = {
    "webcomponents": webcomponents.PORTAL,
    "chinese": chinese.PORTAL,
    "traps": traps.PORTAL,
}
HEX32 = re.compile(r"^[0-9a-f]{32}$")


def get(portal: Portal, target: str) -> Response:
    """Ask a portal for ``target`` (a path with optional query) as the server would."""
    parts = urlsplit(target)
    raw_path = quote(parts.path, safe="/;=%")
    request = Request(
        method="GET",
        path=unquote(raw_path),
        raw_path=raw_path,
        query=parts.query,
        headers={"host": "127.0.0.1"},
    )
    return portal.handle(request)


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            href = dict(attrs).get("href")
            if href:
                self.hrefs.append(href)


def hrefs(response: Response) -> list[str]:
    parser = _Links()
    parser.feed(response.body.decode("utf-8"))
    return parser.hrefs


def absolute_links(response: Response, base: str) -> list[str]:
    """Same-origin links of a server-rendered page, resolved against ``base``, decoded."""
    out = []
    for href in hrefs(response):
        url = urlsplit(urljoin("http://127.0.0.1" + base, href))
        if url.netloc == "127.0.0.1":
            out.append(unquote(url.path) + (f"?{url.query}" if url.query else ""))
    return out


def tasks(name: str) -> list[dict[str, Any]]:
    truth = PORTALS[name].truth()
    assert truth["portal"] == name
    result: list[dict[str, Any]] = truth["tasks"]
    return result


# --- ground truth ----------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(PORTALS))
def test_truth_has_enough_well_formed_tasks(name: str) -> None:
    items = tasks(name)
    assert len(items) >= 5
    assert any(not t["relevant"] and not t["facts"] for t in items), "needs a task with no content"
    for task in items:
        assert set(task) >= {"id", "query", "start", "relevant", "facts", "attachments"}
        assert task["id"].startswith(f"{name}-")
        assert bool(task["relevant"]) == bool(task["facts"])
        for path in [task["start"], *task["relevant"], *task["attachments"]]:
            assert path.startswith("/") and "%" not in path


def test_task_ids_are_unique_across_portals() -> None:
    ids = [t["id"] for name in PORTALS for t in tasks(name)]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("name", sorted(PORTALS))
def test_relevant_pages_and_attachments_are_served(name: str) -> None:
    portal = PORTALS[name]
    for task in tasks(name):
        assert get(portal, task["start"]).status == 200
        for path in task["relevant"]:
            response = get(portal, path)
            assert response.status == 200, path
            assert response.content_type.startswith("text/html")
        for path in task["attachments"]:
            response = get(portal, path)
            assert response.status == 200 and response.content_type == "application/pdf", path


@pytest.mark.parametrize("name", sorted(PORTALS))
def test_attachments_are_valid_pdfs_with_text(name: str) -> None:
    portal = PORTALS[name]
    for task in tasks(name):
        for path in task["attachments"]:
            content = extract_text("pdf", get(portal, path).body)
            assert len(content) > 40, path


def test_chinese_and_traps_facts_are_in_the_served_pages() -> None:
    # webcomponents renders from inline JSON and its API; traps' fee table is
    # rendered by script (checked separately); the rest is server-rendered text.
    for name in ("chinese", "traps"):
        for task in tasks(name):
            for path in task["relevant"]:
                if path == "/study/costs/":
                    continue
                body = get(PORTALS[name], path).body.decode("utf-8")
                for fact in task["facts"]:
                    assert fact in body, (task["id"], path, fact)


# --- webcomponents -----------------------------------------------------------------


def page_data(response: Response) -> dict[str, Any]:
    body = response.body.decode("utf-8")
    match = re.search(r'<script type="application/json" id="nit-data">(.*?)</script>', body, re.S)
    assert match
    data: dict[str, Any] = json.loads(match.group(1).replace("<\\/", "</"))
    return data


def test_webcomponents_unknown_paths_are_real_404s() -> None:
    portal = webcomponents.PORTAL
    assert get(portal, "/no/such/page/").status == 404
    assert get(portal, "/study/programmes/msc-robotics/modules").status == 404  # click-only tab
    assert get(portal, "/api/programmes/msc-robotics/nothing").status == 404


def test_webcomponents_page_content_lives_in_script_data_not_markup() -> None:
    response = get(webcomponents.PORTAL, "/campus-life/residences/")
    body = response.body.decode("utf-8")
    markup = body.split('<script type="application/json"')[0]
    assert "Harbour Hall" not in markup  # shadow DOM content, rendered by nit.js
    assert "<nit-page>" in markup
    assert "attachShadow" in get(webcomponents.PORTAL, "/static/nit.js").body.decode()


def test_webcomponents_tab_panels_come_from_the_api_with_a_delay() -> None:
    portal = webcomponents.PORTAL
    base = page_data(get(portal, "/study/programmes/msc-robotics/"))
    tabs_block = next(b for b in base["blocks"] if b["type"] == "tabs")
    assert tabs_block["active"] == "overview"
    linked = {t["id"]: t["href"] for t in tabs_block["tabs"]}
    assert linked["costs"] == "/study/programmes/msc-robotics/costs"
    assert linked["modules"] is None
    deep = page_data(get(portal, "/study/programmes/msc-robotics/costs"))
    assert next(b for b in deep["blocks"] if b["type"] == "tabs")["active"] == "costs"
    assert "18,400" not in json.dumps(deep)  # only the API has the amount
    panel = get(portal, "/api/programmes/msc-robotics/costs")
    assert panel.delay_s > 0
    assert "EUR 18,400 per year for non-EU students" in panel.body.decode("utf-8")
    assert "/files/msc-robotics-costs-2027.pdf" in panel.body.decode("utf-8")


def test_webcomponents_relevant_article_only_appears_after_load_more() -> None:
    portal = webcomponents.PORTAL
    news = page_data(get(portal, "/news/"))
    size = next(b for b in news["blocks"] if b["type"] == "news")["pageSize"]
    first = json.loads(get(portal, f"/api/news?offset=0&limit={size}").body)
    second = json.loads(get(portal, f"/api/news?offset={size}&limit={size}").body)
    target = "/news/aurora-scholarship-opens/"
    assert first["more"] is True
    assert target not in [i["href"] for i in first["items"]]
    assert target in [i["href"] for i in second["items"]]
    home = page_data(get(portal, "/"))
    assert target not in json.dumps(home)


def test_webcomponents_accordion_holds_the_housing_price() -> None:
    data = page_data(get(webcomponents.PORTAL, "/campus-life/residences/"))
    accordion = next(b for b in data["blocks"] if b["type"] == "accordion")
    texts = [p for item in accordion["items"] for p in item["paras"]]
    assert any("Harbour Hall single en-suite room: EUR 640 per month" in t for t in texts)


# --- chinese ---------------------------------------------------------------------


def test_chinese_paths_are_served_raw_and_percent_encoded() -> None:
    portal = chinese.PORTAL
    raw = get(portal, "/学生/住宿")
    encoded = get(portal, "/%E5%AD%A6%E7%94%9F/%E4%BD%8F%E5%AE%BF")
    assert raw.status == encoded.status == 200
    assert raw.body == encoded.body
    assert "学生公寓" in raw.body.decode("utf-8")
    assert get(portal, "/学生/不存在").status == 404


def test_chinese_every_internal_link_resolves() -> None:
    portal = chinese.PORTAL
    seen = {"/"}
    queue = deque(["/"])
    encoded_links = 0
    while queue:
        path = queue.popleft()
        response = get(portal, path)
        assert response.status == 200, path
        if not response.content_type.startswith("text/html"):
            continue
        encoded_links += sum("%E" in h for h in hrefs(response))
        for link in absolute_links(response, path):
            if link not in seen:
                seen.add(link)
                queue.append(link)
    assert encoded_links > 0  # some hrefs are percent-encoded, as many CMSes write them
    assert {"/学生/住宿", "/国际/来华留学/奖学金", "/library/hours"} <= seen


def test_chinese_generic_anchors_carry_their_clue_in_the_card_heading() -> None:
    body = get(chinese.PORTAL, "/服务/").body.decode("utf-8")
    assert re.search(r"<h3>文献资源</h3><p>[^<]*</p><a href=\"/图书馆/\">更多</a>", body)


# --- traps -----------------------------------------------------------------------


def test_traps_redirect_loop() -> None:
    portal = traps.PORTAL
    a = get(portal, "/loop-a")
    b = get(portal, "/loop-b")
    assert (a.status, a.headers["Location"]) == (302, "/loop-b")
    assert (b.status, b.headers["Location"]) == (302, "/loop-a")


def next_link(response: Response, base: str, label: str) -> str:
    parser = _Labelled()
    parser.feed(response.body.decode("utf-8"))
    href = parser.links[label]
    return urljoin(base, href)


class _Labelled(HTMLParser):
    """Anchor text → href."""

    def __init__(self) -> None:
        super().__init__()
        self.links: dict[str, str] = {}
        self._href: str | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            self._href = dict(attrs).get("href")
            self._text = []

    def handle_data(self, data: str) -> None:
        if self._href is not None:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self._href is not None:
            self.links["".join(self._text).strip()] = self._href
            self._href = None


def test_traps_events_calendar_never_ends() -> None:
    portal = traps.PORTAL
    target = "/events?month=2026-11"
    seen = set()
    for _ in range(60):  # five years forward, every page new
        response = get(portal, target)
        assert response.status == 200
        seen.add(target)
        target = next_link(response, target, "Next month")
    assert len(seen) == 60 and target == "/events?month=2031-11"
    far = get(portal, "/events?month=2199-12")
    assert next_link(far, "/", "Next month") == "/events?month=2200-01"
    assert next_link(far, "/", "Previous month") == "/events?month=2199-11"
    past = get(portal, "/calendar/1901/01/")
    assert past.status == 200
    assert next_link(past, "/", "« December") == "/calendar/1900/12/"
    day = get(portal, "/calendar/2300/02/28/")
    assert next_link(day, "/", "Next day") == "/calendar/2300/03/01/"


def test_traps_course_facets_link_every_combination() -> None:
    portal = traps.PORTAL
    seen = {"/courses"}
    queue = deque(["/courses"])
    while queue and len(seen) < 5000:
        target = queue.popleft()
        for link in absolute_links(get(portal, target), target):
            if link.startswith("/courses?") and link not in seen:
                seen.add(link)
                queue.append(link)
    full = [u for u in seen if len(parse_qs(urlsplit(u).query)) == len(traps.FACETS)]
    combinations = 1
    for values in traps.FACETS.values():
        combinations *= len(values)
    assert len(full) == combinations  # 3*3*2*6*3 = 324 fully-faceted URLs
    assert len(seen) > combinations


def test_traps_session_ids_in_links() -> None:
    portal = traps.PORTAL
    home_links = hrefs(get(portal, "/"))
    study_links = hrefs(get(portal, "/study/"))
    jsession = [h for h in home_links if ";jsessionid=" in h]
    assert jsession and all(re.search(r";jsessionid=[0-9A-F]{32}$", h) for h in jsession)
    sids = [parse_qs(urlsplit(h).query)["sid"][0] for h in home_links if "sid=" in h]
    assert any(HEX32.match(s) for s in sids)
    opaque = [s for s in sids if not re.fullmatch(r"[0-9a-fA-F]+", s)]
    assert opaque, "a non-hex sid token"
    study_sids = [parse_qs(urlsplit(h).query)["sid"][0] for h in study_links if "sid=" in h]
    assert set(sids).isdisjoint(study_sids)  # tokens change with the linking page
    assert hrefs(get(portal, "/")) == home_links  # ... deterministically
    plain = get(portal, "/study/")
    with_session = get(portal, f"/study/;jsessionid={'A' * 32}")
    assert with_session.status == 200 and with_session.body == plain.body
    assert get(portal, "/life/?sid=" + "0" * 32).body == get(portal, "/life/").body
    assert any("utm_source=" in h for h in home_links)


def test_traps_news_pagination_never_ends() -> None:
    response = get(traps.PORTAL, "/news?page=100000")
    assert response.status == 200
    assert next_link(response, "/", "Older stories") == "/news?page=100001"


def test_traps_relative_links_repeat_path_segments() -> None:
    portal = traps.PORTAL
    assert "info/" in hrefs(get(portal, "/info/"))
    deep = "/info/" + "info/" * 6
    assert get(portal, deep).status == 200
    assert urljoin(deep, "info/") == deep + "info/"
    title = re.compile(r"<title>(.*?)</title>")
    library = get(portal, "/info/library/").body.decode()
    repeated = get(portal, "/info/info/info/library/").body.decode()
    assert title.findall(library) == title.findall(repeated) == ["Library - Westmere University"]
    maps = "/campus/maps/campus/maps/campus/maps/"
    assert "Campus maps" in get(portal, maps).body.decode()
    assert urljoin(maps, "campus/maps/") == maps + "campus/maps/"


def test_traps_slow_pages_set_a_delay() -> None:
    portal = traps.PORTAL
    assert 3.0 <= get(portal, "/life/stay/halls/").delay_s <= 5.0
    assert 3.0 <= get(portal, "/research/repository").delay_s <= 5.0
    assert get(portal, "/life/stay/").delay_s == 0.0


def test_traps_costs_page_script_throws_after_rendering_the_fees() -> None:
    body = get(traps.PORTAL, "/study/costs/").body.decode("utf-8")
    assert "International undergraduate: GBP 21,500 per year" not in body  # rendered by script
    script = body[body.index("<script>") :]
    assert script.index("li.textContent") < script.index("WestmereAnalytics.track")
    assert "WestmereAnalytics =" not in body  # so the call throws a TypeError


def test_traps_unknown_pages_are_soft_404s() -> None:
    response = get(traps.PORTAL, "/no/such/page")
    assert response.status == 200
    assert "find that page" in response.body.decode("utf-8")
    assert get(traps.PORTAL, "/calendar/2026/13/").status == 200  # soft 404 too
