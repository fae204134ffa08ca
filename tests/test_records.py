"""The crawl's final judgement of which pages are about the query
(``records.final_relevant``, what ``CrawlResult.relevant_pages`` returns)."""

from __future__ import annotations

from typing import Any

from pw_adaptive.core.relevance import (
    FAMILY_MIN,
    FAMILY_RARE_SHARE,
    FINAL_SHARE_OF_BEST,
    NARROW_SHARE_OF_BEST,
    SIBLINGS_MIN,
)
from pw_adaptive.records import CrawlResult, PageRecord, final_relevant

SITE = "https://u.edu"


def record(path: str, relevance: float, relevant: bool = True, **kw: Any) -> PageRecord:
    fields: dict[str, Any] = {
        "url": SITE + path, "final_url": SITE + path, "title": path, "depth": 1,
        "relevance": relevance, "link_score": 0.5, "blind": False, "evidence": (0,),
        "fresh": False, "markdown": "", "relevant": relevant,
    }  # fmt: skip
    fields.update(kw)
    return PageRecord(**fields)


def paths(pages: list[PageRecord]) -> list[str]:
    return [p.url.removeprefix(SITE) for p in pages]


def test_a_page_marked_early_is_held_against_the_best_page_of_the_crawl() -> None:
    assert FINAL_SHARE_OF_BEST == 0.5
    pages = [
        record("/news/open-day.html", 0.2),  # marked while it was the best
        record("/about.html", 0.1, relevant=False),
        record("/housing/halls.html", 0.6),
        record("/housing/rents.html", 0.3),  # half of the best: kept
        record("/contact.html", 0.29),  # just under half, at the site's root
    ]
    assert paths(final_relevant(pages)) == ["/housing/halls.html", "/housing/rents.html"]
    result = CrawlResult(
        start_url=SITE + "/", query="housing", terms=("housing",), stop_reason="saturated",
        pages=tuple(pages), attachments=(), coverage=1.0, evidence=(3,),
    )  # fmt: skip
    assert paths(result.relevant_pages()) == ["/housing/halls.html", "/housing/rents.html"]
    assert result.summary()["relevant_pages"] == 2
    # A page never marked stays out, however relevant.
    assert final_relevant([record("/a.html", 0.9, relevant=False)]) == []


def test_a_page_in_the_folder_of_a_page_kept_is_kept() -> None:
    pages = [
        record("/dorms/", 0.5),
        record("/dorms/north/", 0.45),
        record("/dorms/north/elm.html", 0.2),  # the folder of "/dorms/north/": kept
        record("/dorms/north/oak.html", 0.2, relevant=False),  # not marked
        record("/dorms/south/ash.html", 0.2),  # its folder has no page kept
        record("/news/2026/", 0.2),
    ]
    assert paths(final_relevant(pages)) == ["/dorms/", "/dorms/north/", "/dorms/north/elm.html"]
    # Hash routes: the route's folder.
    routes = [
        record("/#/housing/halls", 0.6),
        record("/#/housing/fees", 0.2),
        record("/#/news", 0.2),
    ]
    assert paths(final_relevant(routes)) == ["/#/housing/halls", "/#/housing/fees"]


def test_the_root_folder_keeps_nothing_and_unobserved_pages_do_not_count() -> None:
    pages = [record("/index.html", 0.6), record("/contact.html", 0.2)]
    assert paths(final_relevant(pages)) == ["/index.html"]
    # A duplicate or a failed page neither is kept nor sets the best.
    pages = [
        record("/a/x.html", 0.3),
        record("/b/y.html", 0.9, note="duplicate_content"),
        record("/c/z.html", 0.9, error="http_500"),
    ]
    assert paths(final_relevant(pages)) == ["/a/x.html"]


def test_a_narrow_page_needs_more_of_the_best_page() -> None:
    # A page whose text mentions a third of the query's specific terms or
    # fewer matched on one side of the query: 0.6 of the best is not enough.
    assert NARROW_SHARE_OF_BEST == 0.7
    pages = [
        record("/admissions/postgraduate/", 1.0),
        record("/admissions/plans/", 0.6, breadth=1 / 3),  # narrow, under 0.7: out
        record("/admissions/fees/", 0.6, breadth=0.5),  # not narrow: half is enough
        record("/students/visas/", 0.75, breadth=0.25),  # narrow, over 0.7: kept
        record("/admissions/postgraduate/phd.html", 0.4, breadth=0.0),  # a kept page's folder
    ]
    assert paths(final_relevant(pages)) == [
        "/admissions/postgraduate/",
        "/admissions/fees/",
        "/students/visas/",
        "/admissions/postgraduate/phd.html",
    ]
    # A narrow page under 0.7 lends its folder to no other page.
    pages = [
        record("/guide/", 1.0),
        record("/dorms/", 0.6, breadth=0.0),
        record("/dorms/elm.html", 0.4),
    ]
    assert paths(final_relevant(pages)) == ["/guide/"]


def test_a_page_that_names_only_the_sites_own_words_is_left_out() -> None:
    # "student radio in Gent" on a directory of Ghent's associations: term 1
    # ("radio") names what is asked, term 2 ("Gent") is on every page.
    pages = [
        record("/", 0.0, relevant=False, named=(2,)),
        record("/projects/radio.html", 0.6, named=(1, 2)),
        *(record(f"/clubs/c{i}.html", 0.3, named=(2,)) for i in range(6)),  # marked
        record("/faq/", 0.1, relevant=False, named=(2,)),
        record("/about/", 0.0, relevant=False),
    ]
    assert paths(final_relevant(pages)) == [
        "/projects/radio.html",
        *(f"/clubs/c{i}.html" for i in range(6)),
    ]
    assert paths(final_relevant(pages, qualifiers=(1, 2))) == ["/projects/radio.html"]
    result = CrawlResult(
        start_url=SITE + "/", query="student radio in Gent", terms=("student", "radio", "gent"),
        stop_reason="saturated", pages=tuple(pages), attachments=(), coverage=1.0,
        evidence=(3, 3, 3), qualifiers=(1, 2),
    )  # fmt: skip
    assert paths(result.relevant_pages()) == ["/projects/radio.html"]
    summary = result.summary()
    assert summary["qualifiers"] == [1, 2] and summary["relevant_pages"] == 1
    # A page that also names a word that is not site-wide stays; so does
    # every page when every word of the query is site-wide (nothing to tell
    # the pages apart by), and a page whose record predates "named".
    kept = [*pages, record("/clubs/radio-club.html", 0.3, named=(1, 2)), record("/old/", 0.5)]
    assert paths(final_relevant(kept, qualifiers=(1, 2))) == [
        "/projects/radio.html", "/clubs/radio-club.html", "/old/",
    ]  # fmt: skip
    everywhere = [
        record(p.url.removeprefix(SITE), p.relevance, p.relevant, named=(2,)) for p in pages
    ]
    assert len(final_relevant(everywhere, qualifiers=(2,))) == 7
    # A dropped page makes no folder for its neighbours.
    folder = [*pages, record("/clubs/c9.html", 0.1, named=())]
    assert paths(final_relevant(folder, qualifiers=(2,))) == ["/projects/radio.html"]


def test_breadth_round_trips_and_old_records_are_never_narrow() -> None:
    page = record("/a/", 0.6, breadth=0.25)
    assert PageRecord.from_json(page.to_json()).breadth == 0.25
    old = {k: v for k, v in page.to_json().items() if k != "breadth"}
    assert PageRecord.from_json(old).breadth == 1.0


def test_named_terms_round_trip() -> None:
    page = record("/a/", 0.6, named=(0, 2))
    assert PageRecord.from_json(page.to_json()).named == (0, 2)
    old = {k: v for k, v in page.to_json().items() if k != "named"}
    assert PageRecord.from_json(old).named == ()


def _course_guide(best_names: tuple[int, ...]) -> list[PageRecord]:
    """A course guide crawled for "OS course exam: open book? which chapters?"
    (terms 0 "course", 1 "operating systems", 2 "materials", 3 "final",
    4 "chapter", none a topic of the lexicon): every course page names the
    exam words; the operating systems course's page is the best."""
    return [
        record("/", 0.1, relevant=False, named=(0,)),
        record("/courses/", 0.14, relevant=False, named=(0,)),
        record("/courses/os.html", 0.53, named=best_names),
        *(record(f"/courses/c{i}.html", 0.4, named=(0, 2, 3, 4)) for i in range(6)),
        record("/notices/final-exams.html", 0.33, named=(0, 2, 3)),
    ]


def test_with_no_topic_the_word_only_the_best_page_names_tells_the_answer() -> None:
    qualifiers = (0, 1, 2, 3, 4)
    pages = _course_guide(best_names=(0, 1, 2, 3, 4))
    # "Operating systems" is named by its course's page alone: the other
    # course pages are its template siblings, not answers.
    assert paths(final_relevant(pages, qualifiers)) == ["/courses/os.html"]
    # When a topic of the lexicon is among the words (term 3 here), or no
    # word is the best page's alone, the siblings stay.
    assert len(final_relevant(pages, (0, 1, 2, 4))) == 8
    assert len(final_relevant(_course_guide(best_names=(0, 2, 3, 4)), qualifiers)) == 8
    # Nor with fewer pages than a share says anything of.
    assert len(final_relevant(pages[:6], qualifiers)) == 4
    # Nor with one marked page beside the best: two pages are no family.
    pair = [*pages[:3], *(record(f"/other/o{i}.html", 0.1, relevant=False) for i in range(6))]
    pair.append(record("/courses/c0.html", 0.4, named=(0, 2, 3, 4)))
    assert paths(final_relevant(pair, qualifiers)) == ["/courses/os.html", "/courses/c0.html"]
    assert SIBLINGS_MIN == 2


def test_with_no_topic_a_word_few_of_the_marked_pages_name_tells_the_answer() -> None:
    # svuit-mmtt: the operating systems course's name is on the exam notices
    # (observed, not marked) and on one other course's page (a prerequisite),
    # so no word is the best page's alone; of the eleven marked course pages,
    # two name it: those two are kept, their nine siblings left out.
    qualifiers = (0, 1, 2, 3, 4)
    siblings = [record(f"/courses/c{i}.html", 0.4, named=(0, 2, 3, 4)) for i in range(1, 10)]
    pages = [
        *_course_guide(best_names=(0, 1, 2, 3, 4))[:3],
        record("/courses/c0.html", 0.4, named=(0, 1, 2, 3, 4)),
        *siblings,
        record("/notices/final-exams.html", 0.33, relevant=False, named=(0, 1, 2, 3)),
    ]
    assert paths(final_relevant(pages, qualifiers)) == ["/courses/os.html", "/courses/c0.html"]
    assert FAMILY_RARE_SHARE * 11 > 2 > FAMILY_RARE_SHARE * 7
    # Two of seven or of eight marked pages is not fewer than a quarter:
    # all stay.
    assert len(final_relevant(pages[:9] + pages[-1:], qualifiers)) == 7
    assert len(final_relevant(pages[:10] + pages[-1:], qualifiers)) == 8
    # With a topic of the lexicon among the words, all stay too.
    assert len(final_relevant(pages, (0, 1, 2, 4))) == 11
    # Below FAMILY_MIN marked pages, a word that only the best page of them
    # names is not enough (the answer may be the second best).
    small = [*pages[:3], siblings[0], siblings[1], pages[-1]]
    small += [record(f"/other/o{i}.html", 0.1, relevant=False) for i in range(4)]
    assert FAMILY_MIN == 4
    assert len(final_relevant(small, qualifiers)) == 3
