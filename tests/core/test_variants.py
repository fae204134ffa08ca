"""VariantLearner: URL variants learnt from duplicates, skipped before rendering."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from pw_adaptive.core.variants import (
    VariantLearner,
    route_anchor,
    shared_page_rule,
    slash_twin,
    variant_rule,
    without_return_to,
)

A = "http://a.test"


def _crawl(pages: Any, start: str) -> tuple[Any, Any]:
    """Crawl the fake site ``pages`` from ``start`` without a stopper or a
    depth limit: the fake renderer (its ``rendered`` URLs) and the result."""
    from pw_adaptive import AdaptiveCrawler, CrawlSettings
    from pw_adaptive.testing import FakeRenderer

    site = FakeRenderer(pages)
    settings = CrawlSettings(
        concurrency=1, max_depth=None, respect_robots=False, probe_soft_404=False,
        adaptive_stop=False,
    )  # fmt: skip
    return site, asyncio.run(AdaptiveCrawler(settings, renderer=site).run(start, "handbook"))


@pytest.mark.parametrize(
    ("url", "original", "rule"),
    [
        (A + "/x?print=1", A + "/x", ("a.test", "q:print")),
        (A + "/x?id=3&sort=asc", A + "/x?id=3&sort=desc", ("a.test", "q:sort")),
        (A + "/x/print", A + "/x/", ("a.test", "p:print")),
        (A + "/x/amp", A + "/x", ("a.test", "p:amp")),
        (A + "/x?a=1&b=2", A + "/x", None),  # two parameters differ
        (A + "/y?print=1", A + "/x", None),  # another path
        ("http://b.test/x?print=1", A + "/x", None),  # another host
        (A + "/x", A + "/x", None),
        (A + "/de/admissions", A + "/en/admissions", ("a.test", "f:de>en")),
        (A + "/de/", A + "/en/", None),  # a language's home: too little to go on
        (A + "/about", A + "/about/", ("a.test", "s:+")),
        (A + "/about/", A + "/about", ("a.test", "s:-")),
        # A hash route's own query ("#/page?id=<heading>": docsify).
        (A + "/#/fees?id=rates", A + "/#/fees", ("a.test", "r:id")),
        (A + "/#/?id=welcome", A + "/", ("a.test", "r:id")),  # the root route
        (A + "/#/fees?id=rates", A + "/#/news", None),  # another route
        (A + "/#/fees?id=a&tab=b", A + "/#/fees", None),  # two parameters differ
        (A + "/x#/fees?id=rates", A + "/y#/fees", None),  # another document
    ],
)
def test_variant_rule(url: str, original: str, rule: tuple[str, str] | None) -> None:
    assert variant_rule(url, original) == rule


def test_a_parameter_is_learnt_after_two_agreeing_duplicates() -> None:
    learner = VariantLearner()
    assert not learner.observe_duplicate(A + "/x?print=1", A + "/x")
    assert learner.reduce(A + "/y?print=1") is None
    assert learner.observe_duplicate(A + "/y?print=1", A + "/y")
    assert learner.rules("a.test") == ["q:print"]
    assert learner.reduce(A + "/z?id=4&print=1") == A + "/z?id=4"
    assert learner.reduce(A + "/z?id=4") is None
    assert learner.reduce("http://b.test/z?print=1") is None


def test_a_hash_route_parameter_is_learnt_and_reduced() -> None:
    learner = VariantLearner()
    assert not learner.observe_duplicate(A + "/#/fees?id=rates", A + "/#/fees")
    assert learner.observe_duplicate(A + "/#/?id=welcome", A + "/")
    assert learner.rules("a.test") == ["r:id"]
    assert learner.reduce(A + "/#/exams?id=dates") == A + "/#/exams"
    assert learner.reduce(A + "/#/?id=about") == A + "/"
    assert learner.reduce(A + "/#/exams?page=2&id=dates") == A + "/#/exams?page=2"
    assert learner.reduce(A + "/exams?id=3") is None  # the URL's own query is another rule


@pytest.mark.parametrize(
    ("url", "page", "expected"),
    [
        (A + "/#/fees?id=tuition-fees", A + "/#/fees", True),
        (A + "/#/fees?id=tuition-fees-1", A + "/#/fees", True),  # a repeated heading
        (A + "/#/?id=welcome", A + "/", True),  # the root route
        (A + "/#/fees?id=%E5%AE%BF%E8%88%8D-%E8%B4%B9%E7%94%A8", A + "/#/fees", True),
        (A + "/#/fees?id=deadlines", A + "/#/fees", False),  # no such heading
        (A + "/#/fees?id=tuition-fees", A + "/#/news", False),  # another page's heading
        (A + "/fees?id=tuition-fees", A + "/fees", False),  # no hash route
        (A + "/#/fees", A + "/#/fees?id=tuition-fees", False),  # a parameter removed
    ],
)
def test_route_anchor_is_a_link_to_a_heading_of_the_page(
    url: str, page: str, expected: bool
) -> None:
    headings = ["Tuition fees", "宿舍 费用", "Welcome"]
    assert route_anchor(url, page, headings) is expected


def _docsify_site(url: str) -> Any:
    """Six hash-routed pages; each links, as "?id=<slug>", its two headings of
    the first levels, a fourth-level heading by a pilcrow (the heading in its
    markdown only), a heading by its own text as a table of contents does
    (not queued, any of them), a heading renamed since (learnt from
    duplicates), and the next page."""
    from pw_adaptive.core.links import Link
    from pw_adaptive.testing import make_page

    route = url.partition("#")[2].partition("?")[0] or "/"
    n = int(route.strip("/").removeprefix("p") or 0)
    text = f"Page {n} of the handbook. " + " ".join(f"word{n}x{i}" for i in range(80))
    text += f"\n\n#### Deposit {n}\n\nPaid once."
    page = f"{SITE}/#/p{n}" if n else f"{SITE}/"
    base = f"{page.rstrip('/')}{'' if n else '/#/'}"
    links = [
        Link(f"{base}?id=rent-{n}", text=f"Rent {n}"),
        Link(f"{base}?id=rules-{n}", text=f"Rules {n}"),
        Link(f"{base}?id=deposit-{n}", text="¶"),
        Link(f"{base}?id=contents-{n}", text=f"Contents {n}"),
        Link(f"{base}?id=fine-print-{n}", text="Small print"),
    ]
    if n < 5:
        links.append(Link(f"{SITE}/#/p{n + 1}", text=f"Chapter {n + 1}"))
    return make_page(
        url, title=str(n), markdown=text, links=links, headings=[f"Rent {n}", f"Rules {n}"]
    )


def test_a_crawl_of_a_hash_routed_site_skips_links_to_its_own_headings() -> None:
    site, result = _crawl(_docsify_site, SITE + "/")
    anchors = ("id=rent", "id=rules", "id=deposit", "id=contents")
    assert not [u for u in site.rendered if any(a in u for a in anchors)]
    assert len([u for u in site.rendered if "id=fine-print" in u]) == 2  # taught the rule
    assert len([u for u in site.rendered if "?id=" not in u]) == 6
    assert result.skipped["in_page_anchor"] == 24
    assert result.skipped["url_variant"] >= 3


def test_a_counter_case_keeps_a_parameter_that_changes_content() -> None:
    learner = VariantLearner()
    learner.observe_duplicate(A + "/news?page=1", A + "/news")
    learner.observe_distinct(A + "/news?page=2", {A + "/news"}.__contains__)
    learner.observe_duplicate(A + "/events?page=1", A + "/events")
    assert learner.rules("a.test") == []
    assert learner.reduce(A + "/x?page=3") is None


def test_path_segment_reduces_to_the_known_form() -> None:
    learner = VariantLearner(min_evidence=1)
    learner.observe_duplicate(A + "/x/print", A + "/x")
    assert learner.reduce(A + "/y/print", {A + "/y"}.__contains__) == A + "/y"
    assert learner.reduce(A + "/y/print") == A + "/y/"
    assert learner.reduce(A + "/print/y") is None


def test_a_trailing_slash_the_server_adds_is_learnt() -> None:
    learner = VariantLearner()
    learner.observe_duplicate(A + "/about", A + "/about/")
    assert learner.reduce(A + "/life") is None
    learner.observe_duplicate(A + "/news", A + "/news/")
    assert learner.reduce(A + "/life/catering") == A + "/life/catering/"
    assert learner.reduce(A + "/life/") is None
    assert learner.reduce(A + "/guide.pdf") is None  # a file, not a directory
    # A page whose slash-less form shows something else is a counter-case.
    learner.observe_distinct(A + "/faq", {A + "/faq/"}.__contains__)
    assert learner.reduce(A + "/life") is None


def test_one_redirect_teaches_the_slash_rule() -> None:
    learner = VariantLearner()
    assert learner.observe_duplicate(A + "/about", A + "/about/", redirect=True)
    assert learner.reduce(A + "/life") == A + "/life/"
    # Other rules still need two cases, redirected or not.
    assert not learner.observe_duplicate(A + "/x?lang=en", A + "/x", redirect=True)


def test_a_trailing_slash_the_server_removes_is_learnt() -> None:
    learner = VariantLearner(min_evidence=1)
    learner.observe_duplicate(A + "/about/", A + "/about")
    assert learner.reduce(A + "/life/") == A + "/life"
    assert learner.reduce(A + "/") is None


def test_crawl_skips_slashless_links_once_the_redirect_is_learnt() -> None:
    site, result = _crawl(_directory_site, SITE + "/0/")
    slashless = [u for u in site.rendered if not u.endswith("/")]
    assert len(slashless) == 1  # the redirect that taught the rule
    assert len(site.rendered) == 11
    assert result.skipped["url_variant"] >= 8


def test_state_round_trip() -> None:
    learner = VariantLearner()
    learner.observe_duplicate(A + "/x?print=1", A + "/x")
    learner.observe_duplicate(A + "/y?print=1", A + "/y")
    learner.observe_duplicate(A + "/n?page=1", A + "/n")
    learner.observe_distinct(A + "/n?page=2", {A + "/n"}.__contains__)
    again = VariantLearner()
    again.restore(learner.state())
    assert again.state() == learner.state()
    assert again.rules("a.test") == ["q:print"]
    again.restore(None)
    with pytest.raises(ValueError):
        VariantLearner(min_evidence=0)


def _directory_site(url: str) -> Any:
    """Ten directory pages, each linking to the next and to itself without its
    trailing slash, which the server redirects to the directory."""
    from pw_adaptive.core.links import Link
    from pw_adaptive.testing import make_page

    n = int(url.removeprefix(SITE).strip("/") or 0)
    text = f"Page {n} of the handbook. " + " ".join(f"word{n}x{i}" for i in range(80))
    links = [Link(f"{SITE}/{n}", text="Permalink")]
    if n < 9:
        links.append(Link(f"{SITE}/{n + 1}/", text=f"Chapter {n + 1}"))
    final = url if url.endswith("/") else url + "/"
    return make_page(url, title=str(n), markdown=text, links=links, final_url=final)


def _print_site(url: str) -> Any:
    """Ten pages, each linking to the next and to its own print view (same text)."""
    from pw_adaptive.core.links import Link
    from pw_adaptive.testing import make_page

    path = url.removeprefix(SITE).split("?")[0]
    n = int(path.strip("/") or 0)
    text = f"Page {n} of the handbook. " + " ".join(f"word{n}x{i}" for i in range(80))
    links = [Link(f"{SITE}/{n}?print=1", text="Print")]
    if n < 9:
        links.append(Link(f"{SITE}/{n + 1}", text=f"Chapter {n + 1}"))
    return make_page(url, title=str(n), markdown=text, links=links)


SITE = "http://handbook.test"


def test_crawl_skips_print_views_once_learnt_and_counts_them() -> None:
    site, result = _crawl(_print_site, SITE + "/0")
    printed = [u for u in site.rendered if "print=1" in u]
    assert len(printed) == 2  # the two that taught the rule
    assert len([u for u in site.rendered if "print" not in u]) == 10
    assert result.skipped["url_variant"] >= 7
    assert result.summary()["skipped"]["url_variant"] == result.skipped["url_variant"]


def test_learnt_variants_are_saved_in_the_state_file(tmp_path: Path) -> None:
    from pw_adaptive import AdaptiveCrawler, CrawlSettings
    from pw_adaptive.core.query import Query
    from pw_adaptive.crawling.api import crawl_key
    from pw_adaptive.crawling.checkpoint import Checkpoint
    from pw_adaptive.testing import FakeRenderer

    settings = CrawlSettings(
        concurrency=1, max_depth=None, respect_robots=False, probe_soft_404=False,
        adaptive_stop=False,
    )  # fmt: skip
    state = tmp_path / "state.sqlite"
    crawler = AdaptiveCrawler(settings, renderer=FakeRenderer(_print_site))
    asyncio.run(crawler.run(SITE + "/0", "handbook", state_path=state))
    key = crawl_key(SITE + "/0", Query("handbook"), settings)
    with Checkpoint(state, crawl_key=key) as checkpoint:
        saved = checkpoint.get_state("variants")
    learner = VariantLearner()
    learner.restore(saved)
    assert learner.rules("handbook.test") == ["q:print"]


def test_a_language_copy_is_reduced_to_the_page_it_shows() -> None:
    learner = VariantLearner()
    learner.observe_duplicate(A + "/de/admissions", A + "/en/admissions")
    learner.observe_duplicate(A + "/de/camps", A + "/en/camps")
    assert learner.reduce(A + "/de/clubs?x=1") == A + "/en/clubs?x=1"
    assert learner.reduce(A + "/fr/clubs") is None
    # A translated page is a counter-case: the rule is dropped.
    learner.observe_distinct(A + "/de/fees", {A + "/en/fees"}.__contains__)
    assert learner.reduce(A + "/de/clubs") is None


def test_a_page_shown_under_two_sections_is_shared_by_the_others() -> None:
    canteens = "/info/services/canteens/"
    assert shared_page_rule(A + "/compsci" + canteens, A + "/acsai" + canteens) == (
        "a.test",
        f"t:{canteens}>acsai",
    )
    assert shared_page_rule(A + "/x?print=1", A + "/x") is None
    learner = VariantLearner()
    assert learner.observe_duplicate(A + "/compsci" + canteens, A + "/acsai" + canteens)
    # One case is enough for this path, and for no other.
    assert learner.reduce(A + "/datasci" + canteens) == A + "/acsai" + canteens
    assert learner.reduce(A + "/acsai" + canteens) is None
    assert learner.reduce(A + "/datasci/info/services/libraries/") is None
    # Two pages written from one template are near, not the same: a third
    # section's page there may be its own.
    near = VariantLearner()
    assert not near.observe_duplicate(
        A + "/physics/admissions/", A + "/chemistry/admissions/", exact=False
    )
    assert near.reduce(A + "/biology/admissions/") is None
    # A section with a page of its own there is a counter-case.
    learner.observe_distinct(A + "/physics" + canteens, {A + "/acsai" + canteens}.__contains__)
    assert learner.reduce(A + "/datasci" + canteens) is None


def _programmes_site(url: str) -> Any:
    """Four degree programmes; each links the same canteens page under its
    own prefix, and ten pages of its own."""
    from pw_adaptive.core.links import Link
    from pw_adaptive.testing import make_page

    path = url.removeprefix(SITE)
    programmes = ["acsai", "compsci", "cybersec", "datasci"]
    if path.endswith("/canteens/"):
        text = "The canteens: menus, prices and opening times. " * 20
        return make_page(url, title="Canteens", markdown=text)
    links = []
    if path == "/":
        links = [Link(f"{SITE}/{p}/", text=p) for p in programmes]
    elif path.count("/") == 2:
        links = [Link(f"{SITE}{path}info/canteens/", text="Canteens")]
        links += [Link(f"{SITE}{path}course-{i}/", text=f"Course {i}") for i in range(10)]
    text = f"{path}: " + " ".join(f"w{path}{i}" for i in range(60))
    return make_page(url, title=path, markdown=text, links=links)


@pytest.mark.parametrize("concurrency", [1, 4], ids=lambda c: f"concurrency-{c}")
def test_a_shared_page_is_rendered_twice_at_most(concurrency: int) -> None:
    from pw_adaptive import AdaptiveCrawler, CrawlSettings
    from pw_adaptive.testing import FakeRenderer

    site = FakeRenderer(_programmes_site)
    settings = CrawlSettings(
        concurrency=concurrency, respect_robots=False, probe_soft_404=False, adaptive_stop=False,
    )  # fmt: skip
    result = asyncio.run(AdaptiveCrawler(settings, renderer=site).run(SITE + "/", "canteens"))
    assert len([u for u in site.rendered if u.endswith("/canteens/")]) == 2
    assert result.skipped["url_variant"] == 2
    assert len([u for u in site.rendered if "/course-" in u]) == 40
    # The result tells which page shows a copy it skipped, and why.
    rendered = {p.url for p in result.pages if p.url.endswith("/canteens/")}
    skipped = {f"{SITE}/{p}/info/canteens/" for p in ("acsai", "compsci", "cybersec", "datasci")}
    for url in skipped - rendered:
        shown = result.page_showing(url)
        assert shown is not None and shown.url in rendered
    assert result.page_showing(f"{SITE}/physics/info/canteens/") is not None  # the rule's reach
    assert result.page_showing(f"{SITE}/acsai/info/libraries/") is None
    (rule,) = result.summary()["variant_rules"]["handbook.test"]
    assert rule.startswith("t:/info/canteens/>")


def test_slash_twins_are_the_forms_a_learnt_slash_rule_reduces_to_a_url() -> None:
    learner = VariantLearner()
    assert learner.slash_twins(A + "/about/") == []  # nothing learnt yet
    learner.observe_duplicate(A + "/news", A + "/news/", redirect=True)
    assert learner.slash_twins(A + "/about/") == [A + "/about"]
    assert learner.slash_twins(A + "/about/?x=1") == [A + "/about?x=1"]
    assert learner.slash_twins(A + "/about") == []  # the plain form has no slash-less twin
    assert learner.slash_twins(A + "/") == []
    assert learner.slash_twins("https://other.test/about/") == []  # another host


@pytest.mark.parametrize(
    ("url", "twin"),
    [
        ("https://u.example/team", "https://u.example/team/"),
        ("https://u.example/team/", "https://u.example/team"),
        ("https://u.example/a/b?x=1", "https://u.example/a/b/?x=1"),
        ("https://u.example/", None),
    ],
)
def test_a_slash_twin_toggles_the_trailing_slash_and_the_root_has_none(
    url: str, twin: str | None
) -> None:
    assert slash_twin(url) == twin


@pytest.mark.parametrize(
    ("link", "page", "expected"),
    [
        (A + "/auth/login?path=/de/faq/", A + "/de/faq/", A + "/auth/login"),
        (
            A + "/wp-login.php?redirect_to=http%3A%2F%2Fa.test%2Fde%2Ffaq%2F&reauth=1",
            A + "/de/faq/",
            A + "/wp-login.php?reauth=1",
        ),
        # Percent-encoded paths are compared decoded.
        (A + "/print?url=%2Fdocs%2F%E4%BD%93", A + "/docs/%E4%BD%93", A + "/print"),
        # Other values, another host and the bare root are left alone.
        (A + "/list?page=2", A + "/de/faq/", A + "/list?page=2"),
        (
            "https://b.test/login?path=/de/faq/",
            A + "/de/faq/",
            "https://b.test/login?path=/de/faq/",
        ),
        (A + "/login?next=/", A + "/", A + "/login?next=/"),
    ],
)
def test_return_to_parameters_naming_the_page_are_dropped(
    link: str, page: str, expected: str
) -> None:
    assert without_return_to(link, page) == expected


def _login_links_site(url: str) -> Any:
    """Eight pages, each with a log-in link that names it (a 404)."""
    from pw_adaptive.core.links import Link
    from pw_adaptive.testing import make_page

    path = url.removeprefix(SITE)
    if path.startswith("/auth/login"):
        return make_page(url, markdown="Not found", status=404, error="http_404")
    links = [Link(SITE + f"/{n}/", text=f"Page {n}") for n in range(8)]
    links.append(Link(SITE + f"/auth/login?path={path}", text="Log in"))
    return make_page(url, title=path, markdown=f"Handbook page {path}.", links=links)


def test_a_crawl_renders_a_log_in_link_that_names_each_page_once() -> None:
    from pw_adaptive import AdaptiveCrawler, CrawlSettings
    from pw_adaptive.testing import FakeRenderer

    site = FakeRenderer(_login_links_site)
    settings = CrawlSettings(
        concurrency=1, respect_robots=False, probe_soft_404=False, adaptive_stop=False,
        retry_attempts=1,
    )  # fmt: skip
    asyncio.run(AdaptiveCrawler(settings, renderer=site).run(SITE + "/0/", "handbook"))
    logins = [u for u in site.rendered if "/auth/login" in u]
    assert logins == [SITE + "/auth/login"]
