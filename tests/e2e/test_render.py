"""The Playwright renderer against pages served on 127.0.0.1 (one browser per module)."""

from __future__ import annotations

import asyncio
import http.server
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import ClassVar
from urllib.parse import urlsplit

import pytest
from pages import ROUTES  # tests/e2e/pages.py (pytest puts this directory on sys.path)
from playwright.async_api import Browser, Playwright, async_playwright

from pw_adaptive.core.links import Link, Region
from pw_adaptive.crawling.api import AdaptiveCrawler
from pw_adaptive.render import (
    BrowserNotFoundError,
    PlaywrightRenderer,
    RenderedPage,
    RenderSettings,
    browser_args,
    find_chromium,
    launch_browser,
)
from pw_adaptive.render.browser import blocks_resources
from pw_adaptive.render.hooks import same_site, site_of
from pw_adaptive.render.ready import ACTIVITY_SCRIPT
from pw_adaptive.settings import CrawlSettings

pytestmark = pytest.mark.e2e

TEST_ARGS = ("--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",)
SETTINGS = RenderSettings(browser_args=TEST_ARGS)

Render = Callable[..., RenderedPage]


class _Handler(http.server.BaseHTTPRequestHandler):
    requested: ClassVar[list[str]] = []  # every path asked for, in order

    def do_GET(self) -> None:
        self.requested.append(urlsplit(self.path).path)
        page = ROUTES.get(urlsplit(self.path).path)
        if page is None:
            self.send_response(404)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(b"<h1>Not found</h1>")
            return
        if page.delay_s:
            time.sleep(page.delay_s)
        body = page.body.encode("utf-8")
        self.send_response(page.status)
        self.send_header("Content-Type", page.content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in page.headers.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    loop = asyncio.new_event_loop()
    yield loop
    loop.close()


@pytest.fixture(scope="module")
def chromium_browser(loop: asyncio.AbstractEventLoop) -> Iterator[Browser]:
    playwright: Playwright = loop.run_until_complete(async_playwright().start())
    launched = loop.run_until_complete(launch_browser(playwright, SETTINGS))
    yield launched
    loop.run_until_complete(launched.close())
    loop.run_until_complete(playwright.stop())


@pytest.fixture(scope="module")
def render(
    loop: asyncio.AbstractEventLoop, chromium_browser: Browser, site: str
) -> Iterator[Render]:
    renderers: dict[RenderSettings, PlaywrightRenderer] = {}

    def run(path: str, settings: RenderSettings = SETTINGS) -> RenderedPage:
        if settings not in renderers:
            renderers[settings] = PlaywrightRenderer(chromium_browser, settings)
        url = path if path.startswith("http") else site + path
        return loop.run_until_complete(renderers[settings].render(url))

    yield run
    for renderer in renderers.values():
        loop.run_until_complete(renderer.close())


@pytest.fixture(scope="module")
def portal(render: Render) -> RenderedPage:
    return render("/portal")


def _link(page: RenderedPage, path: str) -> Link:
    matches = [link for link in page.links if urlsplit(link.url).path == path]
    assert matches, f"no link to {path} in {[link.url for link in page.links]}"
    return matches[0]


def test_hash_route_renders_delayed_content(render: Render) -> None:
    page = render("/spa#/housing")
    assert page.error is None and page.status == 200
    assert "Halls of residence" in page.markdown
    assert "Loading" not in page.markdown
    assert page.headings == ("Housing",)
    assert page.final_url.endswith("/spa#/housing")


def test_two_hash_routes_in_a_row_show_their_own_content(render: Render) -> None:
    first = render("/spa#/housing")
    second = render("/spa#/fees")
    assert "Halls of residence" in first.markdown
    assert "Tuition fees" in second.markdown
    assert "Halls of residence" not in second.markdown


@pytest.mark.parametrize(
    ("path", "text"),
    [
        # An SPA that fetches its data before its first render.
        ("/fetch-spa", "Applications close on 30 June."),
        # Loads the page's fetch/XHR do not show, after the load event: a
        # module behind its modulepreload link, a chunk's script element,
        # a worker that sends the content.
        ("/late-module", "Exchange places open in March."),
        ("/late-chunk", "Rooms are let from September."),
        ("/late-worker", "The library fine is 20 pence a day."),
        # A worker the page asked, still working once its script has loaded.
        ("/asked-worker", "Theses are due on 1 June."),
    ],
    ids=["fetch-spa", "late-module", "late-chunk", "late-worker", "asked-worker"],
)
def test_content_still_on_its_way_is_awaited(render: Render, path: str, text: str) -> None:
    page = render(path)
    assert text in page.markdown
    assert page.ready == "quiet"


def _busy_after_load(
    loop: asyncio.AbstractEventLoop, browser: Browser, url: str, loaded: str = "true"
) -> str:
    """What the early ready rule asks the page (``ready.busy``) 300 ms after
    ``url`` has loaded and the JavaScript expression ``loaded`` holds."""

    async def once() -> str:
        context = await browser.new_context()
        await context.add_init_script(ACTIVITY_SCRIPT)
        page = await context.new_page()
        try:
            await page.goto(url)
            await page.wait_for_function(loaded)
            await page.wait_for_timeout(300)
            return str(await page.evaluate("window.__pwAdaptive.busy(100, 400)"))
        finally:
            await context.close()

    return loop.run_until_complete(once())


def test_a_worker_never_asked_anything_stops_counting_as_pending_work(
    loop: asyncio.AbstractEventLoop, chromium_browser: Browser, site: str
) -> None:
    # A search index's worker that idles all along is no pending work once
    # its script has loaded, but the same worker, once asked, is until it
    # answers.
    loaded = (
        "performance.getEntriesByType('resource').some((e) => e.name.endsWith('/idle-worker.js'))"
    )
    assert _busy_after_load(loop, chromium_browser, site + "/idle-worker", loaded) == ""
    busy = _busy_after_load(loop, chromium_browser, site + "/idle-worker-asked", loaded)
    assert busy == "workers"


def test_an_endless_animation_loop_is_pending_work_only_while_the_dom_changes(
    loop: asyncio.AbstractEventLoop, chromium_browser: Browser, site: str
) -> None:
    # A frame requested from a frame's own callback continues a loop: a
    # loop that moves a tooltip is no pending work (a click on such a site
    # would otherwise wait its whole click_wait_ms); one that keeps adding to
    # the page is.
    assert _busy_after_load(loop, chromium_browser, site + "/frame-loop") == ""
    assert _busy_after_load(loop, chromium_browser, site + "/frame-loop-grows") == "frames"


def test_a_window_a_click_opens_is_a_link_on_the_site_and_nothing_elsewhere(
    render: Render, site: str
) -> None:
    # The scratch copy's window.open opens no window: the guide's URL is
    # learnt without a request, and the share window leads nowhere.
    _Handler.requested.clear()
    page = render("/share")
    clicked = {link.url for link in page.links if link.via_click}
    assert clicked == {site + "/guide-window"}
    assert "/guide-window" not in _Handler.requested


def test_a_timer_that_never_changes_the_content_stops_being_awaited(
    loop: asyncio.AbstractEventLoop, chromium_browser: Browser, site: str
) -> None:
    # The same call site of the site's script runs a timer on every page
    # without adding anything: after three pages the renderer no longer
    # waits for it, and a page's early rule then finds nothing pending while
    # that timer (300 ms, set again by the theme's own function) is due.
    # The second renderer is given the first one's memory, as a crawl's
    # recycled contexts are: what the first page taught is kept.
    first = PlaywrightRenderer(chromium_browser, SETTINGS)
    timers = first.quiet_timers
    assert timers is not None
    second = PlaywrightRenderer(chromium_browser, SETTINGS, quiet_timers=timers)
    try:
        for renderer, month in ((first, "May"), (second, "June"), (second, "July")):
            assert timers.quiet(site) == []
            page = loop.run_until_complete(renderer.render(f"{site}/timers/theme/{month}"))
            assert f"Payments in {month}" in page.markdown
        quiet = timers.quiet(site)
    finally:
        loop.run_until_complete(first.close())
        loop.run_until_complete(second.close())
    assert len(quiet) == 1 and quiet[0].startswith("300 ") and "timer-theme.js" in quiet[0]

    async def busy(ignored: list[str]) -> str:
        context = await chromium_browser.new_context()
        await context.add_init_script(ACTIVITY_SCRIPT)
        page = await context.new_page()
        try:
            await page.goto(site + "/timers/theme/August")
            await page.wait_for_timeout(500)  # the load and the first timer are over
            script = "(quiet) => { mounted(); return window.__pwAdaptive.busy(100, 1000, new Set(quiet)); }"
            return str(await page.evaluate(script, ignored))
        finally:
            await context.close()

    assert loop.run_until_complete(busy([])) == "timers"
    assert loop.run_until_complete(busy(quiet)) == ""


def test_a_timer_that_renders_content_is_awaited_on_every_page(
    loop: asyncio.AbstractEventLoop, chromium_browser: Browser, site: str
) -> None:
    renderer = PlaywrightRenderer(chromium_browser, SETTINGS)
    assert renderer.quiet_timers is not None
    try:
        for month in ("May", "June", "July", "August"):
            page = loop.run_until_complete(renderer.render(f"{site}/timers/render/{month}"))
            assert f"Grants are paid in {month}." in page.markdown
        assert renderer.quiet_timers.quiet(site) == []
    finally:
        loop.run_until_complete(renderer.close())


def test_a_page_that_replaces_error_still_gets_its_timers(render: Render) -> None:
    # Timers are named from a stack trace: a page's own Error must not break them.
    page = render("/error-replaced")
    assert "The library opens at eight." in page.markdown


def test_a_page_that_breaks_json_is_still_extracted(render: Render) -> None:
    page = render("/broken-json")
    assert "Travel grants cover up to 300 euros." in page.markdown
    assert _link(page, "/grants/apply").text == "How to apply for a grant"


def test_early_ready_rule_off_still_awaits_the_late_module(render: Render) -> None:
    page = render("/late-module", RenderSettings(browser_args=TEST_ARGS, settle_ms=0))
    assert "Exchange places open in March." in page.markdown


def test_click_only_button_under_an_overlay_is_explored(render: Render, site: str) -> None:
    page = render("/overlay")
    clicked = {link.url for link in page.links if link.via_click}
    assert clicked == {site + "/overlay-target"}


def test_open_shadow_roots_are_flattened(render: Render) -> None:
    page = render("/shadow")
    assert "Shadow paragraph about bursaries." in page.markdown
    assert "Slotted note from the light DOM." in page.markdown
    assert "## Scholarships in shadow" in page.markdown
    link = _link(page, "/shadow-target")
    assert link.text == "Shadow link"
    assert link.context_heading == "Scholarships in shadow"
    assert link.region is Region.MAIN


def test_a_typeset_formula_is_read_once_from_its_mathml(render: Render) -> None:
    markdown = " ".join(render("/formulas").markdown.split())
    # KaTeX keeps the TeX source: the formula reads as markdown math, in its line.
    assert "A module costs $n \\times 715$ pounds for n credits." in markdown
    # MathJax's assistive MathML has no source: its tokens, on a line of its own.
    assert "\nt = 9535\n" in "\n" + render("/formulas").markdown.replace("\n\n", "\n") + "\n"
    # The drawings beside them are left out.
    assert "715" not in markdown.replace("$n \\times 715$", "")
    assert markdown.count("9535") == 1
    # An aria-hidden element that draws no formula is text as before.
    assert "Rooms: \u2605 four stars." in markdown
    # A paragraph or a table cell holding a formula keeps its words and its place.
    assert "Where t is the yearly fee." in markdown
    assert "| 30 | 4600 |" in markdown


def test_hidden_alternative_panes_without_aria_are_in_markdown(render: Render) -> None:
    page = render("/year-tabs")
    markdown = " ".join(page.markdown.split())
    # One year's table shown, the other hidden by a class: a tab set without
    # roles or panel classes; both are read.
    assert "Ada Lovelace" in markdown and "Council members 2024-2025" in markdown
    assert "| Grace Hopper | chair of the council |" in markdown
    # Not a pane: a pager's short word, an inline date's other form, a hidden
    # store of links (its links are read as links, its text is not content).
    assert "Next" not in markdown
    assert "2023-10-22" not in markdown
    assert "Go club" not in markdown
    assert any(link.url.endswith("/clubs/go") for link in page.links)


def test_hidden_menu_links_are_kept_and_marked_invisible(portal: RenderedPage) -> None:
    link = _link(portal, "/study/graduate-admissions")
    assert link.visible is False
    assert link.region is Region.NAV
    assert _link(portal, "/study").visible is True


@pytest.mark.parametrize(
    ("path", "text", "name", "region", "heading"),
    [
        ("/accommodation/fees", "Learn more", "", Region.MAIN, "Accommodation fees"),
        ("/visa", "", "Visa guidance", Region.MAIN, "Visas and immigration"),
        ("/funding", "", "Scholarships", Region.MAIN, None),
        ("/about", "About us", "", Region.FOOTER, None),
        ("/research", "Research", "", Region.NAV, None),
        ("/events", "Events", "", Region.MAIN, None),
    ],
    ids=[
        "card-learn-more",
        "image-above-heading",
        "icon-aria-label",
        "footer",
        "nav",
        "routerlink",
    ],
)
def test_links_carry_text_name_region_and_heading(
    portal: RenderedPage, path: str, text: str, name: str, region: Region, heading: str | None
) -> None:
    link = _link(portal, path)
    assert (link.text, link.accessible_name, link.region) == (text, name, region)
    if heading is not None:
        assert link.context_heading == heading


def test_card_links_carry_the_card_teaser_but_menu_links_do_not(portal: RenderedPage) -> None:
    card = _link(portal, "/accommodation/fees")
    assert "Rooms from 150 pounds a week." in card.context_text
    assert _link(portal, "/research").context_text == ""  # a menu item: siblings are not context


def test_images_are_not_requested(portal: RenderedPage, chromium_browser: Browser) -> None:
    assert "/portal" in _Handler.requested
    assert "/img/visa.png" not in _Handler.requested
    assert blocks_resources(chromium_browser)  # by Chromium's switches, no route


def test_a_browser_launched_elsewhere_gets_its_images_aborted_by_a_route(
    loop: asyncio.AbstractEventLoop, site: str
) -> None:
    async def run() -> tuple[bool, RenderedPage]:
        async with async_playwright() as playwright:
            plain = RenderSettings(browser_args=TEST_ARGS, block_resources=False)
            browser = await launch_browser(playwright, plain)
            try:
                async with PlaywrightRenderer(browser, SETTINGS) as renderer:
                    return blocks_resources(browser), await renderer.render(site + "/img-only")
            finally:
                await browser.close()

    native, page = loop.run_until_complete(run())
    assert not native
    assert "# Campus map" in page.markdown
    assert "/img/campus-map.png" not in _Handler.requested


def test_renderer_uses_a_users_context_and_leaves_it_open(
    loop: asyncio.AbstractEventLoop, chromium_browser: Browser, site: str
) -> None:
    async def scenario() -> tuple[RenderedPage, int]:
        context = await chromium_browser.new_context()
        renderer = PlaywrightRenderer(context, SETTINGS)
        page = await renderer.render(site + "/shadow")
        await renderer.close()
        still_open = await context.new_page()  # raises if the renderer closed it
        await still_open.close()
        pages_left = len(context.pages)
        await context.close()
        return page, pages_left

    page, pages_left = loop.run_until_complete(scenario())
    assert "Shadow paragraph about bursaries." in page.markdown
    assert pages_left == 0


def test_pages_are_asked_to_reduce_motion_unless_the_setting_is_off(render: Render) -> None:
    assert "Motion preference: reduce" in render("/motion").markdown
    plain = replace(SETTINGS, reduced_motion=False)
    assert "Motion preference: no-preference" in render("/motion", plain).markdown


def test_concurrent_renders_keep_their_own_content(
    loop: asyncio.AbstractEventLoop, chromium_browser: Browser, site: str
) -> None:
    async def scenario() -> list[RenderedPage]:
        renderer = PlaywrightRenderer(chromium_browser, SETTINGS)
        try:
            routes = ("/spa#/housing", "/spa#/fees", "/spa#/")
            return list(await asyncio.gather(*(renderer.render(site + r) for r in routes)))
        finally:
            await renderer.close()

    housing, fees, home = loop.run_until_complete(scenario())
    assert "Halls of residence" in housing.markdown
    assert "Tuition fees" in fees.markdown
    assert "Welcome to the portal." in home.markdown


def _renders_in_turn(
    loop: asyncio.AbstractEventLoop, browser: Browser, settings: RenderSettings, urls: list[str]
) -> tuple[list[RenderedPage], int]:
    """Render ``urls`` one after another with one renderer; the pages and how
    many of the renders went on in a page that had rendered before."""

    async def scenario() -> tuple[list[RenderedPage], int]:
        renderer = PlaywrightRenderer(browser, settings)
        try:
            return [await renderer.render(url) for url in urls], renderer.pages_reused
        finally:
            await renderer.close()

    return loop.run_until_complete(scenario())


def test_a_page_goes_on_to_the_next_url_but_never_to_its_own_hash_route(
    loop: asyncio.AbstractEventLoop, chromium_browser: Browser, site: str
) -> None:
    settings = replace(SETTINGS, explore_clicks=False)
    urls = [site + u for u in ("/spa#/housing", "/spa#/fees", "/final", "/spa#/fees", "/alert")]
    pages, reused = _renders_in_turn(loop, chromium_browser, settings, urls)
    housing, fees, final, fees_again, alert = pages
    assert "Halls of residence" in housing.markdown
    assert "Tuition fees" in fees.markdown and "Halls of residence" not in fees.markdown
    assert final.headings == ("Final page",)
    # /spa#/fees in the page that showed /final: a new document, its own route
    assert "Tuition fees" in fees_again.markdown and "Final page" not in fees_again.markdown
    assert "The page went on." in alert.markdown
    # The first /spa page was idle while /spa#/fees rendered: a fresh page
    # for that one (same document), the idle ones for the rest.
    assert reused == 3


def test_a_page_that_asks_before_it_is_left_does_not_keep_the_next_url(
    loop: asyncio.AbstractEventLoop, chromium_browser: Browser, site: str
) -> None:
    # No retry: the first attempt itself must get through (a redirect chain
    # keeps the navigation open long enough for the prompt to stop it).
    settings = replace(SETTINGS, explore_clicks=False, retries=0)
    urls = [site + "/leave-prompt", site + "/r1"]
    (form, final), reused = _renders_in_turn(loop, chromium_browser, settings, urls)
    assert "Application form" in form.markdown
    assert final.error is None and final.headings == ("Final page",)
    assert reused == 1


def test_a_timer_the_previous_url_left_in_the_tab_does_not_fail_the_next(
    loop: asyncio.AbstractEventLoop, chromium_browser: Browser, site: str
) -> None:
    # /leaves-later is ready before its one-second timer fires, and the tab
    # goes on to /final-slowly, which the server answers after 1.8 s: the
    # timer's navigation takes the tab meanwhile. That is not the URL's
    # failure, and its page is not /final: the renderer starts again in a
    # fresh tab, without a retry (none allowed here).
    settings = replace(SETTINGS, explore_clicks=False, retries=0)
    urls = [site + "/leaves-later", site + "/final-slowly"]
    (notice, slow), reused = _renders_in_turn(loop, chromium_browser, settings, urls)
    assert notice.error is None and "You will be taken" in notice.markdown
    assert slow.error is None
    assert slow.final_url == site + "/final-slowly"
    assert slow.headings == ("Final page",)
    assert reused == 1


def test_one_render_per_page_opens_a_fresh_page_for_every_url(
    loop: asyncio.AbstractEventLoop, chromium_browser: Browser, site: str
) -> None:
    settings = replace(SETTINGS, explore_clicks=False, renders_per_page=1)
    urls = [site + u for u in ("/final", "/alert", "/final")]
    pages, reused = _renders_in_turn(loop, chromium_browser, settings, urls)
    assert [p.error for p in pages] == [None, None, None]
    assert reused == 0


def _downloads_in_turn(
    loop: asyncio.AbstractEventLoop,
    browser: Browser,
    settings: RenderSettings,
    urls: list[str],
    resource: str,
) -> tuple[list[RenderedPage], int]:
    """``urls`` rendered in turn, and how often the site served ``resource`` meanwhile."""
    before = _Handler.requested.count(resource)
    pages, _ = _renders_in_turn(loop, browser, settings, urls)
    return pages, _Handler.requested.count(resource) - before


@pytest.mark.parametrize("block", [True, False])
def test_a_theme_search_index_is_downloaded_only_until_its_host_is_known(
    loop: asyncio.AbstractEventLoop, chromium_browser: Browser, site: str, block: bool
) -> None:
    index = "/docs-theme/search/search_index.json"
    settings = replace(SETTINGS, explore_clicks=False, block_search_index=block)
    urls = [site + "/docs-theme/" + p for p in ("library", "canteen", "gym")]
    pages, downloads = _downloads_in_turn(loop, chromium_browser, settings, urls, index)
    # The first page shows that the host's pages load an index; the next
    # pages fail that request, and their content is there all the same.
    assert downloads == (1 if block else 3)
    assert [p.error for p in pages] == [None, None, None]
    assert "Gym opens at nine every weekday." in pages[2].markdown


@pytest.mark.parametrize("block", [True, False])
def test_a_document_drawn_by_script_is_downloaded_only_until_its_host_is_known(
    loop: asyncio.AbstractEventLoop, chromium_browser: Browser, site: str, block: bool
) -> None:
    document = "/syllabus/doc.pdf"
    settings = replace(SETTINGS, explore_clicks=False, block_drawn_documents=block)
    urls = [site + "/syllabus/" + p for p in ("optics", "mechanics", "quantum")]
    pages, downloads = _downloads_in_turn(loop, chromium_browser, settings, urls, document)
    # The first page shows that the host's pages fetch documents to draw
    # them; the next pages fail that request, and keep their text and links.
    assert downloads == (1 if block else 3)
    assert [p.error for p in pages] == [None, None, None]
    assert "Page 1 of 3" in pages[0].markdown
    drawn = "Could not load the document" if block else "Page 1 of 3"
    assert drawn in pages[2].markdown
    assert "Quantum meets on Mondays." in pages[2].markdown
    assert site + document in {a.url for a in pages[2].attachments}


def test_non_http_links_are_skipped(portal: RenderedPage) -> None:
    assert all(link.url.startswith("http") for link in portal.links)


def test_hidden_tab_and_accordion_panels_are_in_markdown(portal: RenderedPage) -> None:
    assert "Undergraduate deadline is 15 January." in portal.markdown
    assert "Postgraduate deadline is 30 June." in portal.markdown
    assert "Family housing is available on request." in portal.markdown
    assert "Late applications close on 15 August." in portal.markdown


def test_navigation_footer_and_ui_chrome_are_not_in_markdown(portal: RenderedPage) -> None:
    for chrome in ("Nav only words", "Footer only words", "masthead", "Modal secret", "cookies"):
        assert chrome not in portal.markdown
        assert chrome not in portal.main_text
    assert portal.markdown.startswith("# International students")
    assert "[Learn more](" in portal.markdown


def test_title_headings_and_canonical(portal: RenderedPage, site: str) -> None:
    assert portal.title == "International students | Example University"
    assert portal.headings == (
        "International students",
        "Accommodation fees",
        "Visas and immigration",
        "Documents",
    )
    assert portal.canonical == site + "/portal-canonical"


def test_attachments_are_separated_from_links(portal: RenderedPage) -> None:
    kinds = {urlsplit(a.url).path: (a.kind, a.text) for a in portal.attachments}
    assert kinds == {
        "/files/housing-guide.pdf": ("pdf", "Housing guide (PDF)"),
        "/files/fee-table.XLSX": ("xlsx", "Fee table"),
        "/download": ("file", "Application form"),
        "/brochure": ("pdf", "Brochure"),
    }
    assert not any(urlsplit(link.url).path in kinds for link in portal.links)


def test_click_only_navigation_is_discovered(portal: RenderedPage, site: str) -> None:
    clicked = {link.url: link for link in portal.links if link.via_click}
    assert set(clicked) == {
        site + "/virtual-tour",
        site + "/contact-admissions",
        site + "/portal#/open-day",
    }
    tour = clicked[site + "/virtual-tour"]
    assert (tour.text, tour.region, tour.context_heading) == (
        "Virtual tour",
        Region.MAIN,
        "Documents",
    )
    # A click-only element in a card carries the card's teaser, as a link does;
    # one that sits directly in the main content has none.
    assert tour.context_text == ""
    contact = clicked[site + "/contact-admissions"]
    assert "Questions about your application?" in contact.context_text


def test_dialogs_do_not_hang(render: Render) -> None:
    page = render("/alert")
    assert page.error is None
    assert "The page went on." in page.markdown


def test_page_that_throws_still_renders(render: Render) -> None:
    page = render("/throws")
    assert page.error is None
    assert "# Still rendered" in page.markdown


def test_redirect_chain_is_recorded(render: Render, site: str) -> None:
    page = render("/r1")
    assert page.redirects == (site + "/r1", site + "/r2")
    assert page.final_url == site + "/final"
    assert page.status == 200
    assert page.title == "Final"


def test_never_quiet_page_returns_within_the_cap(render: Render) -> None:
    settings = RenderSettings(browser_args=TEST_ARGS, ready_cap_ms=1200, explore_clicks=False)
    started = time.monotonic()
    page = render("/mutating", settings)
    assert time.monotonic() - started < 4.0
    assert page.ready == "cap"
    assert "# Live ticker" in page.markdown


def test_server_rendered_page_is_ready_without_waiting_for_the_cap(render: Render) -> None:
    page = render("/cjk")
    assert page.ready == "static"
    assert page.elapsed_s < 3.0
    assert page.markdown == "# 学生宿舍\n\n国际学生可以申请校内宿舍。"
    assert page.main_text == "学生宿舍\n国际学生可以申请校内宿舍。"


def test_http_error_page_renders_with_its_status(render: Render) -> None:
    page = render("/no-such-page")
    assert page.status == 404
    assert page.error is None
    assert "Not found" in page.markdown


def test_document_response_becomes_an_attachment(render: Render, site: str) -> None:
    page = render("/guide.pdf")
    assert page.error == "download"
    assert [(a.url, a.kind) for a in page.attachments] == [(site + "/guide.pdf", "pdf")]


def test_download_navigation_is_reported_not_saved(render: Render) -> None:
    page = render("/export")
    assert page.error == "download"
    assert len(page.attachments) == 1


def test_unreachable_host_is_an_error_not_an_exception(render: Render) -> None:
    page = render("http://unresolvable.invalid/")
    assert page.error is not None
    assert "ERR_NAME_NOT_RESOLVED" in page.error
    assert page.status is None


def test_missing_chromium_from_environment_is_a_clear_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PW_ADAPTIVE_CHROMIUM", "/nonexistent/chromium")
    with pytest.raises(BrowserNotFoundError, match="playwright install chromium"):
        find_chromium()


def test_browser_args_come_from_environment_then_settings() -> None:
    environ = {"PW_ADAPTIVE_BROWSER_ARGS": '"--host-resolver-rules=MAP * ~NOTFOUND" --lang=en'}
    args = browser_args(RenderSettings(browser_args=("--mute-audio",)), environ=environ)
    assert args[-3:] == ["--host-resolver-rules=MAP * ~NOTFOUND", "--lang=en", "--mute-audio"]
    assert "--disable-gpu" in args


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("https://www.ox.ac.uk/a", "https://admissions.ox.ac.uk/b", True),
        ("https://www.ox.ac.uk/a", "https://www.cam.ac.uk/b", False),
        ("https://apply.example.edu/", "https://example.edu/x", True),
        ("https://example.edu/", "https://www.googletagmanager.com/gtm.js", False),
        ("http://127.0.0.1:8000/", "http://127.0.0.1:9000/", True),
        ("https://example.edu/", "data:image/png;base64,xx", True),
    ],
    ids=["ac-uk-subdomains", "ac-uk-other", "edu-subdomain", "tag-manager", "ip", "data-url"],
)
def test_same_site(a: str, b: str, same: bool) -> None:
    assert same_site(a, b) is same
    assert site_of("www.ox.ac.uk") == "ox.ac.uk"


def test_load_more_lists_are_expanded_before_extraction(render: Render, site: str) -> None:
    page = render("/news-list")
    urls = {link.url for link in page.links}
    assert {f"{site}/news/extra-1", f"{site}/news/extra-2"} <= urls
    assert "Scholarship round 2 opens" in page.markdown


def test_click_outcomes_are_remembered_across_pages(
    loop: asyncio.AbstractEventLoop, chromium_browser: Browser, site: str
) -> None:
    async def twice() -> tuple[RenderedPage, RenderedPage, int, int, list[int]]:
        async with PlaywrightRenderer(chromium_browser, SETTINGS) as renderer:
            first = await renderer.render(site + "/portal")
            explored = renderer.click_memory.explored
            reused = [renderer.pages_reused]
            second = await renderer.render(site + "/portal")
            reused.append(renderer.pages_reused)
            third = await renderer.render(site + "/final")
            reused.append(renderer.pages_reused)
            assert third.headings == ("Final page",)
            return first, second, explored, renderer.click_memory.explored, reused

    first, second, explored, explored_after, reused = loop.run_until_complete(twice())
    clicked = {link.url for link in first.links if link.via_click}
    assert clicked and clicked == {link.url for link in second.links if link.via_click}
    assert explored > 0 and explored_after == explored  # nothing clicked the second time
    # The first copy was clicked: closed. The second was answered from memory,
    # never clicked: it goes on to the next URL.
    assert reused == [0, 0, 1]
    assert first.timings.explore_s > 0
    assert second.timings.explore_s < first.timings.explore_s
    timings = first.timings
    assert timings.navigation_s > 0 and timings.extract_s > 0
    assert timings.total_s >= timings.navigation_s + timings.ready_s + timings.extract_s


def test_a_sites_empty_href_placeholders_are_clicked_until_known(
    loop: asyncio.AbstractEventLoop, chromium_browser: Browser, site: str
) -> None:
    async def pages() -> tuple[list[RenderedPage], int, int]:
        async with PlaywrightRenderer(chromium_browser, SETTINGS) as renderer:
            rendered = [await renderer.render(site + "/plans/a")]
            explored = renderer.click_memory.explored
            rendered.append(await renderer.render(site + "/plans/b"))
            memory = renderer.click_memory
            return rendered, explored, memory.explored - explored, memory.placeholders

    rendered, first, second, skipped = loop.run_until_complete(pages())
    assert all(not any(link.via_click for link in page.links) for page in rendered)
    # Three placeholders reloaded their page: the next page's two are not clicked.
    assert (first, second, skipped) == (3, 0, 2)


def test_empty_href_placeholders_are_clicked_where_a_script_uses_them(
    loop: asyncio.AbstractEventLoop, chromium_browser: Browser, site: str
) -> None:
    async def pages() -> tuple[RenderedPage, int, int]:
        async with PlaywrightRenderer(chromium_browser, SETTINGS) as renderer:
            scripted = await renderer.render(site + "/scripted-empty")
            await renderer.render(site + "/plans/a")
            explored = renderer.click_memory.explored
            await renderer.render(site + "/plans/b")
            return (
                scripted,
                renderer.click_memory.explored - explored,
                renderer.click_memory.placeholders,
            )

    scripted, second, skipped = loop.run_until_complete(pages())
    assert [link.url for link in scripted.links if link.via_click] == [site + "/apply/form"]
    assert (second, skipped) == (2, 0)


def test_an_in_page_anchor_does_not_cost_a_fresh_copy_of_the_page(
    loop: asyncio.AbstractEventLoop, chromium_browser: Browser, site: str
) -> None:
    url = site + "/anchor-then-route"

    async def once() -> tuple[RenderedPage, int]:
        async with PlaywrightRenderer(chromium_browser, SETTINGS) as renderer:
            loads: list[str] = []
            context = await renderer.context()
            context.on("request", lambda r: loads.append(r.url) if r.url == url else None)
            page = await renderer.render(url)
            return page, len(loads)

    page, loads = loop.run_until_complete(once())
    assert [link.url for link in page.links if link.via_click] == [site + "/guide/next"]
    assert loads == 1  # the rendered page served both clicks


def _render_counting_clicks(
    loop: asyncio.AbstractEventLoop, browser: Browser, url: str
) -> tuple[RenderedPage, int]:
    """``url`` rendered by a fresh renderer, and how many candidates it clicked."""

    async def once() -> tuple[RenderedPage, int]:
        async with PlaywrightRenderer(browser, SETTINGS) as renderer:
            page = await renderer.render(url)
            return page, renderer.click_memory.explored

    return loop.run_until_complete(once())


def test_group_headers_are_not_clicked_but_their_links_are_kept(
    loop: asyncio.AbstractEventLoop, chromium_browser: Browser, site: str
) -> None:
    page, explored = _render_counting_clicks(loop, chromium_browser, site + "/docs")
    paths = {urlsplit(link.url).path: link for link in page.links}
    assert {"/guides/one", "/guides/two", "/reference/api"} <= set(paths)
    assert not paths["/guides/one"].visible  # in a collapsed group: read, not clicked
    assert paths["/guides/tour"].via_click
    assert explored == 1  # the tour button only


def test_a_slideshows_arrows_are_not_clicked_but_a_link_in_it_is(
    loop: asyncio.AbstractEventLoop, chromium_browser: Browser, site: str
) -> None:
    page, explored = _render_counting_clicks(loop, chromium_browser, site + "/slideshow")
    found = {urlsplit(link.url).path for link in page.links if link.via_click}
    assert found == {"/programme", "/guides/tour"}
    assert explored == 2  # not the arrows, the swiper's button or its bullet


def test_links_a_click_renders_without_navigating_are_kept_once_per_site(
    loop: asyncio.AbstractEventLoop, chromium_browser: Browser, site: str
) -> None:
    async def twice() -> tuple[RenderedPage, RenderedPage, int, int]:
        async with PlaywrightRenderer(chromium_browser, SETTINGS) as renderer:
            first = await renderer.render(site + "/lazy-menu")
            explored = renderer.click_memory.explored
            second = await renderer.render(site + "/lazy-menu")
            return first, second, explored, renderer.click_memory.explored

    first, second, explored, explored_after = loop.run_until_complete(twice())
    revealed = {urlsplit(link.url).path: link for link in first.links if link.via_click}
    assert set(revealed) == {"/housing/halls", "/housing/rent"}
    halls = revealed["/housing/halls"]
    assert halls.text == "Halls of residence" and halls.region == Region.NAV and halls.visible
    assert explored == 2  # "Housing" and "Contact", each once
    # The menu is the same on every page of the site: the second page is not
    # clicked again, and gets the links the first click rendered.
    assert explored_after == explored
    assert {link for link in second.links if link.via_click} == set(revealed.values())


def test_a_collapsed_menu_category_that_mounts_its_list_when_opened_is_clicked(
    loop: asyncio.AbstractEventLoop, chromium_browser: Browser, site: str
) -> None:
    page, explored = _render_counting_clicks(loop, chromium_browser, site + "/lazy-categories")
    paths = {urlsplit(link.url).path: link for link in page.links}
    assert {"/intro", "/fees", "/fees/tuition"} <= set(paths)
    assert paths["/housing/halls"].via_click and paths["/housing/rent"].via_click
    # A category inside the category is opened too, within the same exploration.
    assert paths["/housing/private/landlords"].via_click
    assert paths["/housing/halls"].region == Region.NAV
    assert not paths["/fees/tuition"].via_click  # an open category is read, not clicked
    # Only "Housing": not the open category's caret, nor the hamburger whose
    # menu is in the DOM, nor the accordion of the page's own content.
    assert explored == 1


GROUP_LINKS = {
    "/housing/halls",
    "/housing/rent",
    "/fees/tuition",
    "/fees/refunds",
    "/library/hours",
}
"""What ``/groups/a`` and ``/groups/jump`` lead to by clicks: every group's list,
the one nested in "Fees" too."""


def test_a_menus_collapsed_groups_are_opened_in_one_copy_each_keeping_its_own_links(
    loop: asyncio.AbstractEventLoop, chromium_browser: Browser, site: str
) -> None:
    async def twice() -> tuple[RenderedPage, RenderedPage, int, int, int]:
        async with PlaywrightRenderer(chromium_browser, SETTINGS) as renderer:
            first = await renderer.render(site + "/groups/a")
            memory = renderer.click_memory
            explored, together = memory.explored, memory.opened_together
            second = await renderer.render(site + "/groups/b")
            return first, second, explored, together, memory.explored

    before = len(_Handler.requested)
    first, second, explored, together, explored_after = loop.run_until_complete(twice())
    clicked = {urlsplit(link.url).path for link in first.links if link.via_click}
    assert clicked == GROUP_LINKS
    assert explored == 3
    assert together == 3  # in turn by one script in one copy, not a click and a wait each
    # Opened in the page itself, after its extraction: no other copy loaded.
    assert _Handler.requested[before:].count("/groups/a") == 1
    # "Fees" alone on the next page is answered from memory with its own
    # links, not with those of the groups opened beside it.
    assert explored_after == explored
    assert {urlsplit(link.url).path for link in second.links if link.via_click} == {
        "/fees/tuition",
        "/fees/refunds",
    }


def _render_opening_groups(
    loop: asyncio.AbstractEventLoop, browser: Browser, url: str
) -> tuple[RenderedPage, int, int, int]:
    """``url`` rendered by a fresh renderer; the candidates it clicked, how
    many of them were menu groups opened in turn in one copy, and how many
    times the page itself was requested meanwhile (once: no other copy)."""

    async def once() -> tuple[RenderedPage, int, int]:
        async with PlaywrightRenderer(browser, SETTINGS) as renderer:
            page = await renderer.render(url)
            memory = renderer.click_memory
            return page, memory.explored, memory.opened_together

    before = len(_Handler.requested)
    page, explored, together = loop.run_until_complete(once())
    loads = _Handler.requested[before:].count(urlsplit(url).path)
    return page, explored, together, loads


def test_an_accordions_groups_without_aria_are_opened_in_turn_each_read_before_the_next(
    loop: asyncio.AbstractEventLoop, chromium_browser: Browser, site: str
) -> None:
    page, explored, together, loads = _render_opening_groups(
        loop, chromium_browser, site + "/groups/accordion"
    )
    clicked = {urlsplit(link.url): link for link in page.links if link.via_click}
    paths = {url.path for url in clicked}
    # Opening "Fees" unmounted the list of "Housing": each list was read
    # before the next group was opened.
    assert paths == {"/housing/halls", "/housing/rent", "/fees/tuition", "/library/hours"}
    halls = next(link for url, link in clicked.items() if url.path == "/housing/halls")
    assert halls.text == "/housing/halls" and halls.region == Region.ASIDE
    assert explored == 3 and together == 3
    assert loads == 1  # in the page itself
    statistics = next(link for link in page.links if link.url.endswith("/courses/statistics-1"))
    assert not statistics.via_click  # the open group is read, not clicked


def test_a_menu_of_blocks_has_its_collapsed_groups_opened_nested_ones_too(
    loop: asyncio.AbstractEventLoop, chromium_browser: Browser, site: str
) -> None:
    # Vuetify's v-list-group: no list elements, a div around each header.
    page, explored, together, loads = _render_opening_groups(
        loop, chromium_browser, site + "/groups/blocks"
    )
    paths = {urlsplit(link.url).path: link for link in page.links}
    clicked = {path for path, link in paths.items() if link.via_click}
    assert clicked == {
        "/housing/halls",
        "/housing/rent",
        "/study/calendar",
        "/study/teaching/exams",  # in "Teaching", a group inside "Study"
        "/study/teaching/resits",
    }
    assert paths["/housing/halls"].region == Region.NAV
    assert not paths["/blocks/contact"].via_click
    # The two groups, in turn in the page itself; not the language button,
    # whose wrapper sits in no menu of links.
    assert explored == 2 and together == 2
    assert loads == 1


def test_tabs_built_anew_by_a_click_are_marked_again_in_the_same_copy(
    loop: asyncio.AbstractEventLoop, chromium_browser: Browser, site: str
) -> None:
    async def once() -> tuple[RenderedPage, dict[str, float]]:
        async with PlaywrightRenderer(chromium_browser, SETTINGS) as renderer:
            page = await renderer.render(site + "/tabs")
            return page, renderer.click_memory.stats()

    before = len(_Handler.requested)
    page, stats = loop.run_until_complete(once())
    clicked = {urlsplit(link.url).path for link in page.links if link.via_click}
    assert clicked == {"/tabs/exams"}
    # "Slides" and "Exams" were found again by their text after the click
    # before had replaced the buttons: every click in the page itself, no
    # fresh copy (a mark waited for in vain failed the click, and the
    # candidate went to a new copy of the page).
    assert stats["clicked"] == 3, stats
    assert stats["fresh_copies"] == 0, stats
    assert _Handler.requested[before:].count("/tabs") == 1


def test_a_group_that_navigates_sends_the_groups_back_to_a_click_each(
    loop: asyncio.AbstractEventLoop, chromium_browser: Browser, site: str
) -> None:
    page, explored, together, _ = _render_opening_groups(
        loop, chromium_browser, site + "/groups/jump"
    )
    clicked = {urlsplit(link.url).path for link in page.links if link.via_click}
    assert clicked == GROUP_LINKS  # "/library/hours": where "Library" led, by a click of its own
    assert explored == 3 and together == 0


def test_a_slash_less_twin_that_redirects_is_not_rendered_again(
    loop: asyncio.AbstractEventLoop, chromium_browser: Browser, site: str
) -> None:
    settings = CrawlSettings(max_pages=10, concurrency=1, adaptive_stop=False)
    crawler = AdaptiveCrawler(
        settings,
        render_settings=replace(SETTINGS, explore_clicks=False),
        browser=chromium_browser,
    )
    _Handler.requested.clear()
    result = loop.run_until_complete(crawler.run(site + "/twin/", "student housing"))
    rendered = [urlsplit(page.url).path for page in result.pages]
    assert rendered == ["/twin/", "/twin/guide/", "/twin/rents/"]
    # "/twin/guide" was asked once, over plain HTTP, and its budget given back.
    assert _Handler.requested.count("/twin/guide") == 1
    assert result.skipped["url_variant"] >= 1
    assert not any(page.note and "duplicate" in page.note for page in result.pages)


@pytest.mark.parametrize("path", ["/route-cards", "/route-cards/scrolled"])
def test_route_cards_are_explored_in_one_copy_going_back_after_each(
    loop: asyncio.AbstractEventLoop, chromium_browser: Browser, site: str, path: str
) -> None:
    async def once() -> tuple[RenderedPage, dict[str, float]]:
        async with PlaywrightRenderer(chromium_browser, SETTINGS) as renderer:
            page = await renderer.render(site + path)
            return page, renderer.click_memory.stats()

    before = len(_Handler.requested)
    page, stats = loop.run_until_complete(once())
    clicked = {link.url for link in page.links if link.via_click}
    topics = ("housing", "fees", "exams", "visas", "library", "transport")
    assert clicked == {f"{site}/route-cards/{topic}" for topic in topics}
    # Counted as what the exploration did: a restoration after each card
    # clicked but the last (nothing left to click then), no copy beyond one.
    # Once three cards have shown the template's rule, the memory may answer
    # the rest without a click (how many were clicked by then depends on the
    # machine's load).
    assert stats["clicked"] >= 3 and stats["clicked"] + stats["predicted"] >= len(topics), stats
    assert stats["restorations"] >= stats["clicked"] - 1, stats
    assert stats["fresh_copies"] <= 1, stats
    # Each card moved the copy to another route of the same document;
    # history.back() brought it back instead of loading the page again, also
    # when the copy came back with an in-page anchor in its URL and a
    # "Back to top" button after the cards.
    loads = _Handler.requested[before:].count(path)
    assert loads <= 2, loads  # the page itself and at most one more copy
