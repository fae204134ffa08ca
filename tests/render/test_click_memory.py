"""ClickMemory: each click target is explored once per site, not once per page."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from pw_adaptive.core.links import Link, Region
from pw_adaptive.render.click_memory import (
    INERT_EVIDENCE,
    PLACEHOLDER_EVIDENCE,
    RULE_EVIDENCE,
    ClickMemory,
    click_key,
)
from pw_adaptive.render.clicks import explore_clicks
from pw_adaptive.render.extract import ClickCandidate
from pw_adaptive.render.records import RenderSettings


def _candidate(text: str, region: Region = Region.HEADER, index: int = 0) -> ClickCandidate:
    return ClickCandidate(
        index=index,
        priority=1,
        text=text,
        accessible_name="",
        region=region,
        context_heading="",
        tag="button",
        path="html>body>header>button",
    )


def test_key_folds_digits_case_and_spaces_and_keeps_the_host() -> None:
    a = click_key("http://a.test/x", _candidate("Updated 2026/7/21  14:58"))
    b = click_key("http://a.test/y", _candidate("updated 2025/1/2 9:01"))
    c = click_key("http://b.test/x", _candidate("Updated 2026/7/21 14:58"))
    assert a == b
    assert a != c


def test_chrome_outcome_is_reused_on_the_next_page() -> None:
    memory = ClickMemory()
    key = click_key("http://a.test/1", _candidate("Search"))
    assert memory.recall(key, "http://a.test/1") is ClickMemory.UNKNOWN
    memory.learn(key, "http://a.test/1", None)
    assert memory.recall(key, "http://a.test/2") is None
    memory.learn(key, "http://a.test/1", None)
    other = click_key("http://a.test/1", _candidate("Tour"))
    memory.learn(other, "http://a.test/1", "http://a.test/tour")
    assert memory.recall(other, "http://a.test/9") == "http://a.test/tour"


def test_main_content_outcome_needs_two_agreeing_pages() -> None:
    memory = ClickMemory()
    key = click_key("http://a.test/1", _candidate("Open", Region.MAIN))
    memory.learn(key, "http://a.test/1", "http://a.test/open")
    assert memory.recall(key, "http://a.test/2") is ClickMemory.UNKNOWN
    assert memory.recall(key, "http://a.test/1") == "http://a.test/open"
    memory.learn(key, "http://a.test/2", "http://a.test/open")
    assert memory.recall(key, "http://a.test/3") == "http://a.test/open"


def test_a_candidate_that_leads_elsewhere_from_each_page_is_always_explored() -> None:
    memory = ClickMemory()
    key = click_key("http://a.test/1", _candidate("Next", Region.MAIN))
    memory.learn(key, "http://a.test/1", "http://a.test/2")
    memory.learn(key, "http://a.test/2", "http://a.test/3")
    assert memory.recall(key, "http://a.test/3") is ClickMemory.UNKNOWN
    assert memory.recall(key, "http://a.test/1") is ClickMemory.UNKNOWN


def test_budget_is_spent_by_seconds() -> None:
    memory = ClickMemory(budget_s=1.0)
    assert memory.budget_left
    memory.spend(0.6)
    assert memory.budget_left
    memory.spend(0.6)
    assert not memory.budget_left
    assert ClickMemory().budget_left
    with pytest.raises(ValueError):
        ClickMemory(budget_s=-1)


def test_pending_exploration_is_shared_and_forgotten_on_failure() -> None:
    async def main() -> None:
        memory = ClickMemory()
        key = click_key("http://a.test/1", _candidate("Search"))
        with memory.exploring(key) as future:
            assert memory.pending(key) is future
            future.set_result("http://a.test/s")
        assert memory.pending(key) is None
        with memory.exploring(key) as failed:
            pass
        assert failed.done() and isinstance(failed.exception(), LookupError)

    asyncio.run(main())


def test_a_chrome_candidate_another_page_explores_is_left_to_it_a_main_one_awaited() -> None:
    # Nothing here needs a browser: every candidate is being explored by
    # another page, so explore_clicks never opens or clicks a page.
    settings = RenderSettings(click_budget_s=30.0)

    async def main() -> None:
        memory = ClickMemory()
        chrome = _candidate("Search", Region.HEADER, index=0)
        main_card = _candidate("Open the card", Region.MAIN, index=1)
        elsewhere = "http://a.test/1"
        with (
            memory.exploring(click_key(elsewhere, chrome)),
            memory.exploring(click_key(elsewhere, main_card)) as card,
        ):
            only_chrome = await asyncio.wait_for(
                explore_clicks(None, "http://a.test/2", [chrome], settings, memory), 5.0
            )  # type: ignore[arg-type]
            assert only_chrome == [] and memory.left_to_others == 1
            both = asyncio.ensure_future(
                explore_clicks(None, "http://a.test/2", [chrome, main_card], settings, memory)  # type: ignore[arg-type]
            )
            await asyncio.sleep(0.3)
            assert not both.done()  # awaiting the card's outcome
            card.set_result("http://a.test/card")
            links = await asyncio.wait_for(both, 5.0)
        assert [link.url for link in links] == ["http://a.test/card"]
        assert links[0].via_click

    asyncio.run(main())


def test_main_content_click_that_led_nowhere_is_trusted_at_once() -> None:
    memory = ClickMemory()
    key = click_key("http://a.test/1", _candidate("Refresh", Region.MAIN))
    memory.learn(key, "http://a.test/1", None)
    assert memory.recall(key, "http://a.test/2") is None


@pytest.mark.parametrize(
    ("candidate", "before", "new"),
    [
        ("http://a.test/tour", "http://a.test/", True),
        ("http://a.test/#/open-day", "http://a.test/", True),
        ("http://a.test/#!/fees", "http://a.test/#!/home", True),
        ("http://a.test/x#doc-copyright", "http://a.test/x", False),  # an in-page anchor
        ("http://a.test/x", "http://a.test/x", False),
        ("about:blank", "http://a.test/x", False),
    ],
)
def test_what_counts_as_a_navigation(candidate: str, before: str, new: bool) -> None:
    from pw_adaptive.render.clicks import _is_new

    assert _is_new(candidate, before) is new


def test_empty_href_placeholders_are_known_per_site_after_enough_reloads() -> None:
    memory = ClickMemory()
    for _ in range(PLACEHOLDER_EVIDENCE - 1):
        memory.learn_empty_href("http://a.test/plans", reloaded=True)
    assert not memory.placeholder_site("http://a.test/rules")
    memory.learn_empty_href("http://a.test/plans", reloaded=True)
    assert memory.placeholder_site("http://a.test/rules")
    assert not memory.placeholder_site("http://b.test/rules")  # another host


def test_one_empty_href_that_did_something_else_keeps_them_all_clicked() -> None:
    memory = ClickMemory()
    memory.learn_empty_href("http://a.test/apply", reloaded=False)  # a script stopped the reload
    for _ in range(PLACEHOLDER_EVIDENCE + 2):
        memory.learn_empty_href("http://a.test/plans", reloaded=True)
    assert not memory.placeholder_site("http://a.test/plans")


def test_links_a_click_rendered_are_recalled_in_the_chrome_explored_again_in_main() -> None:
    memory = ClickMemory()
    halls = (Link("http://a.test/housing/halls", "Halls", region=Region.NAV),)
    menu = click_key("http://a.test/1", _candidate("Housing", Region.NAV))
    memory.learn(menu, "http://a.test/1", None, revealed=halls)
    assert memory.recall(menu, "http://a.test/2") is None
    assert memory.revealed(menu) == halls
    # In the main content (a lazily rendered accordion) they are the page's own.
    answers = click_key("http://a.test/1", _candidate("Show answers", Region.MAIN))
    memory.learn(answers, "http://a.test/1", None, revealed=halls)
    assert memory.recall(answers, "http://a.test/2") is ClickMemory.UNKNOWN
    assert memory.revealed(answers) == ()
    memory.learn(answers, "http://a.test/2", None)
    assert memory.recall(answers, "http://a.test/3") is ClickMemory.UNKNOWN


def _tooltip(text: str, index: int = 0) -> ClickCandidate:
    # One entry of a list of QR-code tooltips: same template, its own text.
    return ClickCandidate(
        index=index,
        priority=0,
        text=text,
        accessible_name="",
        region=Region.MAIN,
        context_heading="",
        tag="span",
        path="main>div>ol>li>span>span",
    )


def test_a_template_whose_candidates_lead_nowhere_is_inert_after_enough_of_them() -> None:
    memory = ClickMemory()
    page = "http://a.test/accounts"
    for n in range(INERT_EVIDENCE):
        assert not memory.inert_template(click_key(page, _tooltip("Library")))
        memory.learn(click_key(page, _tooltip(f"Account {chr(65 + n)}")), page, None)
    # Another text of the same template, from another page: inert.
    assert memory.inert_template(click_key("http://a.test/other", _tooltip("Library")))
    # Another template (a button in the same list), or another host: not.
    button = ClickCandidate(1, 1, "Library", "", Region.MAIN, "", tag="button", path="main>div")
    assert not memory.inert_template(click_key(page, button))
    assert not memory.inert_template(click_key("http://b.test/accounts", _tooltip("Library")))


def test_the_same_candidate_learnt_again_is_no_more_evidence() -> None:
    memory = ClickMemory()
    key = click_key("http://a.test/1", _tooltip("Library"))
    for page in range(INERT_EVIDENCE + 2):
        memory.learn(key, f"http://a.test/{page}", None)
    assert not memory.inert_template(key)


@pytest.mark.parametrize("active", ["leads somewhere", "reveals links"])
def test_one_candidate_of_the_template_that_does_something_keeps_it_clicked(active: str) -> None:
    memory = ClickMemory()
    page = "http://a.test/cards"
    if active == "leads somewhere":
        memory.learn(click_key(page, _tooltip("Halls")), page, "http://a.test/halls")
    else:
        halls = (Link("http://a.test/halls", "Halls"),)
        memory.learn(click_key(page, _tooltip("Halls")), page, None, revealed=halls)
    for n in range(INERT_EVIDENCE + 2):
        memory.learn(click_key(page, _tooltip(f"Card {chr(65 + n)}")), page, None)
    assert not memory.inert_template(click_key(page, _tooltip("Fees")))


def test_an_inert_templates_candidates_are_answered_without_a_click() -> None:
    # No browser: every candidate's template is inert, so explore_clicks
    # never opens or clicks a page (a click would fail on context None).
    memory = ClickMemory()
    page = "http://a.test/accounts"
    for n in range(INERT_EVIDENCE):
        memory.learn(click_key(page, _tooltip(f"Account {chr(65 + n)}")), page, None)
    explored = memory.explored
    candidates = [_tooltip(f"Other {n}", index=n) for n in range(5)]
    links = asyncio.run(
        explore_clicks(None, "http://a.test/more", candidates, RenderSettings(), memory)  # type: ignore[arg-type]
    )
    assert links == []
    assert memory.inert == 5 and memory.explored == explored


def _chip(text: str, group: str = "Tag", index: int = 0) -> ClickCandidate:
    # A blog theme's tag chip: a span the router sends to the tag's page.
    return replace(
        _tooltip(text, index),
        region=Region.NAV,
        role="navigation",
        path="main>div>div>span>span",
        parent_label=group,
    )


def _learn_chip(memory: ClickMemory, page: str, chip: ClickCandidate, outcome: str | None) -> None:
    memory.learn(click_key(page, chip), page, outcome, text=chip.text, group=chip.parent_label)


def test_a_template_whose_targets_are_named_after_their_texts_is_answered_by_its_rule() -> None:
    memory = ClickMemory()
    page = "http://a.test/radar/"
    tags = {"Himastat": "himastat", "Jejak Pengurus": "jejak-pengurus", "Rapat": "rapat"}
    for n, (text, slug) in enumerate(tags.items()):
        new = _chip("Universitas Terbuka")
        assert memory.predict(click_key(page, new), new.text, "Tag") is None
        _learn_chip(memory, page, _chip(text, index=n), f"http://a.test/tag/{slug}/")
    assert len(tags) == RULE_EVIDENCE
    other = "http://a.test/jepret/"
    chip = _chip("Universitas Terbuka")
    assert memory.predict(click_key(other, chip), chip.text, "Tag") == (
        "http://a.test/tag/universitas-terbuka/"
    )
    # Written in the URL as the site writes it: percent-encoded.
    chip = _chip("宿舍 安排")
    assert memory.predict(click_key(other, chip), chip.text, "Tag") == (
        "http://a.test/tag/%E5%AE%BF%E8%88%8D-%E5%AE%89%E6%8E%92/"
    )
    # The chips of another group of the same template lead elsewhere: no rule yet.
    chip = _chip("Radar", group="Category")
    assert memory.predict(click_key(other, chip), chip.text, "Category") is None


def test_a_click_that_stays_on_its_page_fits_the_rule_when_the_rule_names_the_page() -> None:
    memory = ClickMemory()
    _learn_chip(memory, "http://a.test/tag/rapat/", _chip("Rapat"), None)
    _learn_chip(
        memory, "http://a.test/x/", _chip("Sejarah Kampus"), "http://a.test/tag/sejarah-kampus/"
    )
    _learn_chip(memory, "http://a.test/x/", _chip("Dosen Tetap"), "http://a.test/tag/dosen-tetap/")
    chip = _chip("Kurikulum Baru")
    assert memory.predict(click_key("http://a.test/y/", chip), chip.text, "Tag") == (
        "http://a.test/tag/kurikulum-baru/"
    )


@pytest.mark.parametrize(
    "odd",
    [
        "led nowhere",  # a chip that did nothing, on a page the rule does not name
        "elsewhere",  # a target that does not carry its text
        "two sections",  # two prefixes in one group
    ],
)
def test_one_candidate_the_rule_does_not_explain_keeps_the_template_clicked(odd: str) -> None:
    memory = ClickMemory()
    page = "http://a.test/x/"
    for text in ("Alpha Beta", "Gamma Delta", "Epsilon Zeta"):
        _learn_chip(
            memory, page, _chip(text), f"http://a.test/tag/{text.lower().replace(' ', '-')}/"
        )
    if odd == "led nowhere":
        _learn_chip(memory, page, _chip("Eta Theta"), None)
    elif odd == "elsewhere":
        _learn_chip(memory, page, _chip("Eta Theta"), "http://a.test/about/")
    else:
        _learn_chip(memory, page, _chip("Eta Theta"), "http://a.test/category/eta-theta/")
    chip = _chip("Iota Kappa")
    assert memory.predict(click_key(page, chip), chip.text, "Tag") is None


def test_a_rule_the_examples_leave_open_predicts_only_what_they_agree_on() -> None:
    # One-word lower-case targets fit the text as it is, lower-cased and
    # hyphenated alike: a text with a space or capitals is not predicted.
    memory = ClickMemory()
    page = "http://a.test/x/"
    for text in ("Radar", "Jepret", "Link"):
        _learn_chip(memory, page, _chip(text), f"http://a.test/tag/{text.lower()}/")
    assert memory.predict(click_key(page, _chip("Gemas")), "Gemas", "Tag") == (
        "http://a.test/tag/gemas/"
    )
    assert memory.predict(click_key(page, _chip("Semester 2")), "Semester 2", "Tag") is None


def test_a_template_s_rule_answers_its_candidates_without_a_click() -> None:
    # No browser: every candidate is answered by the rule, so explore_clicks
    # never opens or clicks a page (a click would fail on context None).
    memory = ClickMemory()
    page = "http://a.test/x/"
    for text in ("Alpha Beta", "Gamma Delta", "Epsilon Zeta"):
        _learn_chip(
            memory, page, _chip(text), f"http://a.test/tag/{text.lower().replace(' ', '-')}/"
        )
    explored = memory.explored
    candidates = [_chip("Mu Nu", index=0), _chip("Xi Omicron", index=1)]
    links = asyncio.run(
        explore_clicks(None, "http://a.test/y/", candidates, RenderSettings(), memory)  # type: ignore[arg-type]
    )
    assert [link.url for link in links] == [
        "http://a.test/tag/mu-nu/",
        "http://a.test/tag/xi-omicron/",
    ]
    assert all(link.via_click for link in links)
    assert memory.predicted == 2 and memory.explored == explored
    stats = memory.stats()
    assert stats["predicted"] == 2 and stats["clicked"] == explored
    assert stats["fresh_copies"] == 0 and stats["restorations"] == 0


def test_stats_say_what_was_clicked_what_was_answered_and_what_it_cost() -> None:
    memory = ClickMemory()
    key = click_key("http://a.test/", _candidate("Menu", Region.NAV))
    memory.learn(key, "http://a.test/", None)
    assert memory.recall(key, "http://a.test/other/") is None
    memory.reused += 1  # the caller counts what recall answered
    memory.fresh_copies += 2
    memory.restorations += 3
    memory.restorations_failed += 1
    memory.spend(1.23456)
    stats = memory.stats()
    assert stats["clicked"] == 1 and stats["reused"] == 1
    assert (stats["fresh_copies"], stats["restorations"], stats["restorations_failed"]) == (2, 3, 1)
    assert stats["spent_s"] == 1.235
    assert set(stats) >= {"inert", "predicted", "placeholders", "left_to_others", "opened_together"}


def test_a_renderer_keeps_the_memory_it_is_given_even_while_empty() -> None:
    # An empty memory has len 0: a renderer that fell back to a memory of its
    # own on a falsy one would not share it with the crawl's other renderers.
    from pw_adaptive.render.page import PlaywrightRenderer

    memory = ClickMemory()
    assert len(memory) == 0
    renderer = PlaywrightRenderer(None, RenderSettings(), click_memory=memory)  # type: ignore[arg-type]
    assert renderer.click_memory is memory
