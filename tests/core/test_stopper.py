"""The seed's four stopper tests, translated, plus option validation and state round trips."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pw_adaptive.core.query import Query
from pw_adaptive.core.relevance import SHARE_OF_BEST
from pw_adaptive.core.stopper import (
    COLD_PATIENCE,
    EVIDENCE_RELEVANCE,
    MIN_RELEVANCE,
    MIN_SOURCES,
    TOUCH_PATIENCE,
    Adaptive,
    AdaptiveOptions,
    StopReason,
)


def _blind_pages(stopper: Adaptive, q: Query, n: int) -> None:
    """``n`` pages reached by blind links that say nothing of ``q``: none ends the crawl."""
    for _ in range(n):
        assert stopper.observe(q, "About us.", 0.0, True) is None


def opts(threshold: float, per_term: int, patience: int) -> AdaptiveOptions:
    return AdaptiveOptions(
        coverage_threshold=threshold, evidence_per_term=per_term, patience=patience, min_gain=0.05
    )


def test_constants_match_the_seed() -> None:
    assert (MIN_RELEVANCE, EVIDENCE_RELEVANCE, COLD_PATIENCE, MIN_SOURCES) == (0.05, 0.15, 2, 2)


def test_adaptive_stops_once_covered_and_nothing_new_comes() -> None:
    q = Query("refund policy")
    a = Adaptive(opts(1.0, 3, 5), len(q))
    assert a.observe(q, "Our refund policy.\n\nAnother refund policy line.", 1.0, False) is None
    assert a.coverage() < 1.0
    # Covered now, but the page still brought something new: keep crawling.
    assert a.observe(q, "The policy covers every refund.", 1.0, False) is None
    assert a.coverage() >= 1.0
    assert a.observe(q, "Refunds for gift cards: policy.", 1.0, False) is None
    # Once covered, it takes ceil(5 / 2) = 3 pages with nothing new to stop.
    assert a.observe(q, "Our refund policy.", 1.0, False) is None
    assert a.observe(q, "Our refund policy.", 1.0, False) is None
    assert a.observe(q, "Our refund policy.", 1.0, False) == "coverage_reached"


def test_adaptive_stops_when_pages_add_nothing_new() -> None:
    q = Query("refund policy")
    a = Adaptive(opts(1.0, 100, 2), len(q))
    assert a.observe(q, "Refund policy text.", 1.0, False) is None
    assert a.observe(q, "Refund policy text.", 1.0, False) is None
    assert a.observe(q, "Refund policy text.", 1.0, False) == "saturated"


def test_irrelevant_pages_neither_count_as_evidence_nor_as_stale() -> None:
    q = Query("refund policy")
    a = Adaptive(opts(1.0, 1, 1), len(q))
    # A news page mentions a refund in passing: low relevance, no evidence, not stale.
    assert a.observe(q, "A refund was mentioned in passing.", 0.03, False) is None
    assert a.evidence() == [0, 0]
    assert a.observe(q, "Nothing here.", 0.0, False) is None
    # One page covers every term, but coverage needs a second source; once
    # covered, one page with nothing new (patience 1) stops the crawl.
    assert a.observe(q, "Refund policy in full.", 0.9, False) is None
    assert a.observe(q, "The refund policy, again.", 0.9, False) is None
    assert a.observe(q, "Refund policy in full.", 0.9, False) == "coverage_reached"
    # After a find, irrelevant pages in a row mean the relevant part is done;
    # pages between the two thresholds count for nothing either way.
    a = Adaptive(opts(1.0, 100, 2), len(q))
    assert a.observe(q, "Refund policy in full.", 0.9, False) is None
    assert a.observe(q, "Team page.", 0.0, False) is None
    assert a.observe(q, "Refund mentioned once.", 0.1, False) is None
    assert a.evidence() == [1, 1]
    assert a.observe(q, "Careers page.", 0.0, False) == "saturated"


def test_gives_up_when_only_blind_links_are_left_and_nothing_was_found() -> None:
    q = Query("refund policy")
    # The seed's rule that a touching page restarts the count is an option
    # here (the default holds the count: the next test).
    a = Adaptive(replace(opts(1.0, 100, 2), touch_resets_cold=True), len(q))
    # Links with a clue that led nowhere are not blind probing.
    for _ in range(10):
        assert a.observe(q, "Team page.", 0.0, False) is None
    # Three blind pages, then one that touches the topic: the count restarts.
    _blind_pages(a, q, 3)
    assert a.observe(q, "Refund mentioned once.", 0.1, True) is None
    for _ in range(3):
        assert a.observe(q, "Careers.", 0.0, True) is None
    assert a.observe(q, "Contact.", 0.0, True) == "no_relevant_pages"
    # Once something was found it does not give up: blind pages count as stale.
    a = Adaptive(opts(1.0, 100, 5), len(q))
    assert a.observe(q, "Refund policy in full.", 0.9, False) is None
    for _ in range(4):
        assert a.observe(q, "Careers.", 0.0, True) is None


def test_a_touching_page_holds_the_cold_count() -> None:
    q = Query("refund policy")
    a = Adaptive(opts(1.0, 100, 2), len(q))
    _blind_pages(a, q, 3)
    # A passing mention, blind or not, is no sign that the site has the
    # topic: not counted, and the three blind pages before it still count.
    assert a.observe(q, "Refund mentioned once.", 0.1, True) is None
    assert a.observe(q, "Refund mentioned again.", 0.1, False) is None
    assert a.cold() == 3
    assert a.observe(q, "Contact.", 0.0, True) == "no_relevant_pages"
    # A page that counts as evidence ends the cold start for good.
    b = Adaptive(opts(1.0, 100, 2), len(q))
    _blind_pages(b, q, 3)
    assert b.observe(q, "Refund policy in full.", 0.9, True) is None
    assert b.has_found()
    assert b.observe(q, "Contact.", 0.0, True) is None


@pytest.mark.parametrize("counted", [True, False])
def test_a_page_behind_a_clue_of_qualifiers_only_counts_as_blind(counted: bool) -> None:
    q = Query("undergraduate tuition fees")
    a = Adaptive(replace(opts(1.0, 100, 3), qualifier_clues_count=counted), len(q))
    _blind_pages(a, q, 3)  # of the 6 that give up
    # "Undergraduate class football match": a clue, but of the qualifier only.
    assert a.observe(q, "A football match.", 0.0, False, qualifier_clue=True) is None
    assert a.cold() == (4 if counted else 3)
    # Still a lead while queued: no give-up while a link with a clue waits.
    assert a.observe(q, "Contact.", 0.0, True, lead=0.3) is None
    reason = a.observe(q, "Contact.", 0.0, True)
    assert reason == ("no_relevant_pages" if counted else None)


def test_hold_replaces_the_lead_for_the_give_up_only() -> None:
    q = Query("student housing")
    a = Adaptive(opts(1.0, 100, 3), len(q))
    _blind_pages(a, q, 5)  # of the 6 that give up
    # A lead waits, but the caller says none of it may lead to the topic.
    assert a.observe(q, "Contact.", 0.0, True, lead=0.3, hold=0.0) == "no_relevant_pages"
    b = Adaptive(opts(1.0, 100, 3), len(q))
    _blind_pages(b, q, 5)
    assert b.observe(q, "Contact.", 0.0, True, lead=0.3, hold=0.2) is None
    assert b.observe(q, "Contact.", 0.0, True, lead=0.3) is None  # hold None: the lead


def test_forgive_resets_the_stale_run() -> None:
    q = Query("refund policy")
    a = Adaptive(opts(1.0, 100, 2), len(q))
    assert a.observe(q, "Refund policy text.", 1.0, False) is None
    assert a.observe(q, "Refund policy text.", 1.0, False) is None
    assert a.stale() == 1
    a.forgive()
    assert a.stale() == 0
    assert a.observe(q, "Refund policy text.", 1.0, False) is None


def test_a_strong_lead_forgives_the_stale_run() -> None:
    q = Query("refund policy")
    a = Adaptive(opts(1.0, 100, 2), len(q), forgive_score=0.35)
    assert a.observe(q, "Refund policy text.", 1.0, False) is None
    # The same text again is stale; with a strong link waiting it is forgiven.
    for _ in range(3):
        assert a.observe(q, "Refund policy text.", 1.0, False, lead=0.5) is None
        assert a.stale() == 1
    assert a.observe(q, "Refund policy text.", 1.0, False, lead=0.2) == "saturated"
    # Without a forgive score (the seed's stopper) no lead forgives.
    a = Adaptive(opts(1.0, 100, 2), len(q))
    assert a.observe(q, "Refund policy text.", 1.0, False) is None
    assert a.observe(q, "Refund policy text.", 1.0, False, lead=0.9) is None
    assert a.observe(q, "Refund policy text.", 1.0, False, lead=0.9) == "saturated"


@pytest.mark.parametrize("beats", [True, False])
def test_a_lead_no_stronger_than_links_that_led_nowhere_does_not_forgive(beats: bool) -> None:
    q = Query("refund policy")
    options = replace(opts(1.0, 100, 2), lead_beats_failed=beats)
    a = Adaptive(options, len(q), forgive_score=0.35)
    assert a.observe(q, "Refund policy in full.", 0.9, False, promise=1.0) is None
    # Pages behind links scoring 0.4 that are not about the query, while
    # more links scoring 0.4 wait: the first is forgiven, as before.
    assert a.observe(q, "Contact.", 0.0, False, lead=0.4, promise=0.4) is None
    assert a.stale() == 1
    reason = a.observe(q, "About us.", 0.0, False, lead=0.4, promise=0.4)
    if beats:
        # A lead that promises no more than the link that just led nowhere.
        assert reason == StopReason.SATURATED
    else:
        assert reason is None
        assert a.stale() == 1
    # A stronger lead still forgives.
    b = Adaptive(options, len(q), forgive_score=0.35)
    b.observe(q, "Refund policy in full.", 0.9, False, promise=1.0)
    b.observe(q, "Contact.", 0.0, False, lead=0.4, promise=0.4)
    assert b.observe(q, "About us.", 0.0, False, lead=0.6, promise=0.4) is None
    assert b.stale() == 1
    # A page about the query that adds little (the same text again) keeps
    # the forgiveness of leads as strong as its own link going.
    c = Adaptive(options, len(q), forgive_score=0.35)
    c.observe(q, "Refund policy in full.", 0.9, False, promise=1.0)
    c.observe(q, "Contact.", 0.0, False, lead=0.4, promise=0.4)
    assert c.observe(q, "Refund policy in full.", 0.8, False, lead=0.6, promise=0.4) is None
    assert c.observe(q, "Refund policy in full.", 0.8, False, lead=0.4, promise=0.4) is None
    assert c.stale() == 1


def test_a_lead_with_a_clue_holds_back_no_relevant_pages() -> None:
    q = Query("refund policy")
    a = Adaptive(opts(1.0, 100, 2), len(q))
    _blind_pages(a, q, 3)
    assert a.observe(q, "Careers.", 0.0, True, lead=0.1) is None
    assert a.cold() == 4
    assert a.observe(q, "Contact.", 0.0, True) == "no_relevant_pages"


def test_a_clue_that_led_nowhere_neither_counts_nor_restarts_the_cold_count() -> None:
    q = Query("refund policy")
    a = Adaptive(opts(1.0, 100, 2), len(q))
    _blind_pages(a, q, 3)
    # A link with a clue ("Customer services") led to a page that says nothing
    # of the query: not blind, so not counted, and no sign of the topic.
    assert a.observe(q, "Campus network.", 0.0, False) is None
    assert a.cold() == 3
    assert a.observe(q, "Contact.", 0.0, True) == "no_relevant_pages"
    # With the seed's touch rule, a page that touches the query restarts the
    # count, clue or not.
    b = Adaptive(replace(opts(1.0, 100, 2), touch_resets_cold=True), len(q))
    _blind_pages(b, q, 3)
    assert b.observe(q, "Refund mentioned once.", 0.1, False) is None
    assert b.cold() == 0
    # The seed's rule, kept as an option: any page behind a clue restarts it.
    seed = Adaptive(replace(opts(1.0, 100, 2), clue_resets_cold=True), len(q))
    _blind_pages(seed, q, 3)
    assert seed.observe(q, "Campus network.", 0.0, False) is None
    assert seed.cold() == 0


def test_last_fresh_and_has_found_follow_fresh_content() -> None:
    q = Query("refund policy")
    a = Adaptive(AdaptiveOptions(), len(q))
    assert not a.has_found()
    a.observe(q, "Refund policy text.", 1.0, False)
    assert a.has_found() and a.last_fresh()
    a.observe(q, "Refund policy text.", 1.0, False)
    assert not a.last_fresh()


def test_stop_reasons_compare_equal_to_plain_strings() -> None:
    assert StopReason.SATURATED == "saturated"
    assert {r.value for r in StopReason} >= {"coverage_reached", "saturated", "no_relevant_pages"}


@pytest.mark.parametrize(
    "kwargs",
    [
        pytest.param({"coverage_threshold": 1.5}, id="threshold-above-one"),
        pytest.param({"evidence_per_term": 0}, id="zero-evidence"),
        pytest.param({"patience": 0}, id="zero-patience"),
        pytest.param({"min_gain": -0.1}, id="negative-gain"),
        pytest.param({"touch_patience": 0}, id="zero-touch-patience"),
    ],
)
def test_bad_options_raise_value_error(kwargs: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        AdaptiveOptions(**kwargs)  # type: ignore[arg-type]


def test_state_round_trip_continues_identically() -> None:
    q = Query("refund policy")
    a = Adaptive(opts(1.0, 3, 5), len(q))
    a.observe(q, "Our refund policy.\n\nAnother refund policy line.", 1.0, False)
    a.observe(q, "The policy covers every refund.", 1.0, False)
    b = Adaptive(opts(1.0, 3, 5), len(q))
    b.restore(a.state())
    # A page far below the best so far: the best must survive the round trip.
    assert a.observe(q, "Refunds for gift cards: policy.", 0.3, False) == b.observe(
        q, "Refunds for gift cards: policy.", 0.3, False
    )
    assert a.stale() == b.stale() == 1
    for text in ["Refunds for vouchers: policy.", *["Our refund policy."] * 3]:
        assert a.observe(q, text, 1.0, False) == b.observe(q, text, 1.0, False)
    assert a.state() == b.state()
    # The score of a link that led nowhere survives too (lead_beats_failed).
    a = Adaptive(opts(1.0, 100, 2), len(q), forgive_score=0.35)
    a.observe(q, "Our refund policy.", 1.0, False)
    a.observe(q, "Contact.", 0.0, False, lead=0.4, promise=0.4)
    b = Adaptive(opts(1.0, 100, 2), len(q), forgive_score=0.35)
    b.restore(a.state())
    assert b.observe(q, "About.", 0.0, False, lead=0.4) == StopReason.SATURATED


@pytest.mark.parametrize("share", [SHARE_OF_BEST, None])
def test_a_page_far_below_the_best_adds_nothing_new(share: float | None) -> None:
    q = Query("academic calendar exam dates")
    a = Adaptive(replace(opts(1.0, 100, 3), fresh_share_of_best=share), len(q))
    assert a.observe(q, "Academic calendar: exam dates for 2026.", 0.55, False) is None
    assert a.observe(q, "Contact.", 0.0, False) is None
    assert a.stale() == 1
    # A vision statement naming "academic": fresh text, a sixth of the best.
    assert a.observe(q, "Our academic vision for the region.", 0.16, False) is None
    assert a.evidence()[0] == 2  # its evidence counts all the same
    if share is None:
        assert a.stale() == 0  # the seed: any fresh evidence is new
    else:
        assert a.stale() == 2
        assert a.observe(q, "Contact us.", 0.0, False) == "saturated"
    # A page at least that share of the best is new.
    b = Adaptive(replace(opts(1.0, 100, 3), fresh_share_of_best=share), len(q))
    b.observe(q, "Academic calendar: exam dates for 2026.", 0.55, False)
    b.observe(q, "Contact.", 0.0, False)
    assert b.observe(q, "Exam dates of the resit session.", 0.3, False) is None
    assert b.stale() == 0


def test_restore_rejects_a_state_for_another_query() -> None:
    a = Adaptive(AdaptiveOptions(), 2)
    with pytest.raises(ValueError):
        Adaptive(AdaptiveOptions(), 3).restore(a.state())


def test_the_stopper_reads_the_hits_its_caller_found() -> None:
    from pw_adaptive.core.relevance import scan_page

    query = Query("housing fees")
    pages = [
        "## Housing\n\nHousing fees are 150 a week.\n\nApply for housing by June.",
        "## Fees\n\nHousing fees are 150 a week.\n\nDeposits and fees: 250.",
        "Nothing about it.",
    ]
    scanned = Adaptive(AdaptiveOptions(), len(query))
    given = Adaptive(AdaptiveOptions(), len(query))
    for page in pages:
        a = scanned.observe(query, page, 0.8, blind=False)
        b = given.observe(query, page, 0.8, blind=False, hits=scan_page(query, page))
        assert a == b
    assert scanned.state() == given.state()
    # A block whose only hit is a link's URL: evidence when the stopper scans
    # the markdown itself, none with the page's hits (link targets dropped).
    linked = "See [the office](/housing/fees) for more."
    alone = Adaptive(AdaptiveOptions(), len(query))
    alone.observe(query, linked, 0.8, blind=False)
    with_hits = Adaptive(AdaptiveOptions(), len(query))
    with_hits.observe(query, linked, 0.8, blind=False, hits=scan_page(query, linked))
    assert alone.evidence() == [1, 1] and with_hits.evidence() == [0, 0]


def test_a_long_run_of_pages_that_only_touch_the_query_ends_in_saturation() -> None:
    q = Query("refund policy")
    a = Adaptive(opts(1.0, 100, 2), len(q))
    assert a.observe(q, "Refund policy in full.", 0.9, False) is None
    # Up to TOUCH_PATIENCE x patience touching pages count for nothing (the seed).
    for i in range(TOUCH_PATIENCE * 2):
        assert a.observe(q, f"Refund mentioned once, page {i}.", 0.1, False) is None
    assert a.stale() == 0
    # Then each one is a page that added nothing new.
    assert a.observe(q, "Refund mentioned once more.", 0.1, False) is None
    assert a.stale() == 1
    assert a.observe(q, "And once more.", 0.1, False) == StopReason.SATURATED
    # A page with something new starts the count again.
    b = Adaptive(opts(1.0, 100, 2), len(q))
    b.observe(q, "Refund policy in full.", 0.9, False)
    for i in range(TOUCH_PATIENCE * 2):
        b.observe(q, f"Refund mentioned once, page {i}.", 0.1, False)
    assert b.observe(q, "A new refund policy for gift cards.", 0.9, False) is None
    for i in range(TOUCH_PATIENCE * 2):
        assert b.observe(q, f"Refund in passing, page {i}.", 0.1, False) is None
    assert b.stale() == 0


def test_touching_pages_never_count_with_touch_patience_off() -> None:
    q = Query("refund policy")
    a = Adaptive(AdaptiveOptions(evidence_per_term=100, patience=2, touch_patience=None), len(q))
    a.observe(q, "Refund policy in full.", 0.9, False)
    for i in range(50):
        assert a.observe(q, f"Refund mentioned once, page {i}.", 0.1, False) is None
    # Before anything was found, touching pages keep resetting the cold count.
    c = Adaptive(opts(1.0, 100, 2), len(q))
    for i in range(50):
        assert c.observe(q, f"Refund mentioned once, page {i}.", 0.1, True) is None


@pytest.mark.parametrize("spared", [1, 0])
def test_a_term_no_page_names_is_spared_from_coverage(spared: int) -> None:
    q = Query("exam sessions funzionano")  # a verb the pages never use
    a = Adaptive(replace(opts(1.0, 2, 5), unnamed_terms_spared=spared), len(q))
    assert a.observe(q, "Exam sessions: January and June.", 0.6, False) is None
    assert a.observe(q, "Exam sessions have two dates each.", 0.6, False) is None
    assert a.unnamed() == [2]
    assert a.coverage() == pytest.approx(2 / 3)  # every term still counts here
    assert a.covered() is (spared == 1)
    # Once covered, half the patience (3 of 5) of nothing new ends the crawl.
    reasons = [a.observe(q, "Contact.", 0.0, False) for _ in range(3)]
    assert reasons[-1] == ("coverage_reached" if spared else None)


@pytest.mark.parametrize("topics", [(), (0,), (2,)])
def test_the_query_topic_is_never_spared_from_coverage(topics: tuple[int, ...]) -> None:
    # "Dormitory" is what is asked; "registration" and "month" only qualify
    # it. Pages about course registration each month name both qualifiers
    # and never the topic: no coverage of the question, when the stopper
    # knows which term is its topic.
    q = Query("dormitory registration month")
    assert q.topical[0]
    a = Adaptive(opts(1.0, 2, 5), len(q), topics=topics)
    a.observe(q, "Course registration opens each month.", 0.4, False)
    a.observe(q, "Registration of theses: one month before.", 0.4, False)
    assert a.unnamed() == [0]
    assert a.covered() is (topics != (0,))
    reasons = [a.observe(q, "Contact.", 0.0, False) for _ in range(3)]
    assert reasons[-1] == (None if topics == (0,) else "coverage_reached")


def test_two_unnamed_terms_or_a_single_named_one_are_not_covered() -> None:
    q = Query("exam sessions funzionano davvero")
    a = Adaptive(opts(1.0, 1, 5), len(q))
    a.observe(q, "Exam sessions: January.", 0.6, False)
    a.observe(q, "Exam sessions: June.", 0.6, False)
    assert a.unnamed() == [2, 3]
    assert not a.covered()
    q2 = Query("exam funzionano")
    b = Adaptive(opts(1.0, 1, 5), len(q2))
    b.observe(q2, "Exam in January.", 0.6, False)
    b.observe(q2, "Exam in June.", 0.6, False)
    assert b.unnamed() == [1]
    assert not b.covered()
