"""How much a rendered page is about a query: facet relevance in [0, 1].

Each query term is a facet. A facet collects weighted evidence from where the
term (or a synonym) occurs:

* the title: presence, :data:`TITLE_WEIGHT`;
* the headings: ``1 - 0.5**n`` for ``n`` headings that mention it, times
  :data:`HEADING_WEIGHT`;
* the URL's path and route fragment (:func:`url_words`): presence,
  :data:`URL_WEIGHT`;
* the body: mentions length-normalised to a page of :data:`BODY_REFERENCE_WORDS`
  words (``count * sqrt(reference / max(reference, words))``: a long page
  needs more mentions), minus :data:`PASSING_MENTIONS` (one mention said in
  passing), times :data:`BODY_WEIGHT`.

The facet score saturates, ``1 - exp(-evidence)``: the third heading about
"fees" says less than the first. Facets combine as
``(1 - SOFT_MIN_SHARE) * mean + SOFT_MIN_SHARE * min``: a page about the
whole query scores high, a page about one of two terms scores partly (about a
third), and a page that mentions a term once in passing scores 0. So does a
page that names only generic portal words ("students"), or only a few of the
words that qualify the query's topic ("Karlsruhe" in "Wohnheim in Karlsruhe
finden": :data:`QUALIFIERS_SHARE`).

A question asking when something happens ("when are the final exams") and
naming no calendar has one facet more on a page that names the academic
calendar in its title, a heading or its URL: the date, fully present, in the
mean (:data:`CALENDAR_WEIGHT`; :meth:`Query.names_calendar`). The calendar is
where universities publish the dates; it still needs a specific term.

The thresholds that judge this score are defined here and used by the
stopper: ``MIN_RELEVANCE`` (0.05) and ``EVIDENCE_RELEVANCE`` (0.15).
Navigation and footer text are kept out by the renderer; this module scores
only what it is given.
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Final
from urllib.parse import unquote, urlsplit

from pw_adaptive.core.query import Query, TextHits, normalize_text
from pw_adaptive.core.urls import (
    ATTACHMENT_EXTENSIONS,
    is_home_page,
    is_route_fragment,
    path_extension,
)
from pw_adaptive.text.segment import word_count

__all__ = [
    "BODY_REFERENCE_WORDS",
    "BODY_WEIGHT",
    "CALENDAR_WEIGHT",
    "EVIDENCE_RELEVANCE",
    "FAMILY_MIN",
    "FAMILY_RARE_SHARE",
    "FOCUS_MENTIONS",
    "HEADING_WEIGHT",
    "HUB_LINK_SHARE",
    "LISTING_HEADINGS",
    "MIN_RELEVANCE",
    "PASSING_MENTIONS",
    "QUALIFIERS_SHARE",
    "SHARE_OF_BEST",
    "SIBLINGS_MIN",
    "SITE_WIDE_MIN_PAGES",
    "SITE_WIDE_OFF_SHARE",
    "SITE_WIDE_SHARE",
    "SOFT_MIN_SHARE",
    "TEASER_WORDS",
    "TITLE_WEIGHT",
    "URL_WEIGHT",
    "Assessment",
    "SiteTitles",
    "about_enough",
    "assess",
    "markdown_headings",
    "relevance",
    "route_or_path",
    "scan_page",
    "site_wide_terms",
    "strip_link_targets",
    "url_words",
    "words_few_of_the_marked_name",
    "words_only_the_best_names",
]

MIN_RELEVANCE: Final = 0.05
"""Pages below this relevance are irrelevant: they give no evidence, and once
something was found a run of them means the relevant part is exhausted. Also
the threshold for harvesting attachments. The seed recalibrated it from 0.12
when relevance became per-facet: on 1,833 hand-labelled pages both keep about
90% of useful pages."""

EVIDENCE_RELEVANCE: Final = 0.15
"""Only pages at or above this relevance add evidence and take part in the
"anything new?" judgement. Pages between the two thresholds touch the topic
but count for nothing either way (the seed: 0.3 -> 0.15 both keep ~52% of
useful pages)."""

TITLE_WEIGHT: Final = 1.5
"""Evidence for a term in the title. Alone it gives a facet 1 - e^-1.5 = 0.78:
the title is the page's own statement of its topic, the strongest single clue."""

HEADING_WEIGHT: Final = 1.2
"""Evidence for a term in the headings at saturation (0.6 for one heading, 0.9
for two). A heading names a section of the page: less than the title, more
than the URL."""

URL_WEIGHT: Final = 0.5
"""Evidence for a term in the URL path or route. Weaker than text: slugs are
often stale, abbreviated or generated, but "/accommodation/fees" is a real clue."""

BODY_WEIGHT: Final = 0.35
"""Evidence per body mention beyond the passing one, on a page of the reference
length. Without any title, heading or URL support, four mentions on a 300-word
page give a facet of about 0.55 and eight about 0.85, so a body-only page
about a term still counts, but needs several mentions to."""

BODY_REFERENCE_WORDS: Final = 200
"""Body length (in words) up to which mentions count in full. Longer bodies
scale mentions by sqrt(reference / words), as in pivoted length normalisation
(Singhal, Buckley and Mitra, SIGIR 1996): a 2,000-word page needs about three
times the mentions of a 200-word page for the same facet score."""

PASSING_MENTIONS: Final = 1.0
"""Body mentions (length-normalised) discounted as said in passing. A news item
saying "students" once is not about students (DESIGN, Relevance; the seed
stopper's MIN_RELEVANCE note): a lone body mention, with no support from the
title, headings or URL, gives its facet nothing, and such a page scores 0."""

SOFT_MIN_SHARE: Final = 0.25
"""Share of the weakest facet in the combination. A page about all terms beats
a page about some of them, and a page about one of two terms lands at about
(1 - 0.25) / 2 = 0.375 of a full one instead of 0.5."""

FOCUS_MENTIONS: Final = 3.0
"""Length-normalised body mentions of a specific term that make a page about
it even when its title, headings and URL do not name it (a FAQ section)."""

HUB_LINK_SHARE: Final = 0.5
"""A page whose text is more than half link text is a hub (a menu, a list of
news teasers, a table of contents): it leads to the answer, it is not one."""

LISTING_HEADINGS: Final = 3
"""A page with at least this many teaser sections, making up at least half of
its sections, is a listing: a blog index, an author's or a tag's page of
posts, a news archive, a grid of cards. A teaser section stands for another
page: its heading is a link to it ("## [Post title](url)"), or its text is a
short teaser (:data:`TEASER_WORDS`) beside one or two links ("Read more").
Such a page is not about the query, however much its teasers say, as a hub
is not: it leads to the answer. Blog, documentation and portal themes write
their lists this way (Hugo, Jekyll, Docusaurus, WordPress, Bootstrap cards);
a page that explains its topic section by section has sections of its own.
A link to the page itself (a heading's permalink) or to a document (a PDF)
stands for no other page: a documentation page whose headings link to
their own anchors, or a programme page that ends with its fee schedule and
two "next steps" cards, is not a listing. On the real corpus (166 tasks)
35 pages marked relevant were listings (a blog index, authors' pages, a
wiki's index, the admissions and student services card pages of one portal
in both its languages), all labelled irrelevant, and no labelled-relevant
page was one."""

TEASER_WORDS: Final = 30
"""The most words (outside link text) of a teaser section
(:data:`LISTING_HEADINGS`): a card's line or two. On the real corpus 20 to 30
words tell the same pages apart; at 40 a labelled-relevant page of short
sections, each with a link, starts to count as a listing."""

QUALIFIERS_SHARE: Final = 0.5
"""When a query names a topic of the lexicon ("Wohnheim") beside words that
qualify it ("Karlsruhe"), a page that names none of the topic's words and
no more than this share of the query's specific terms scores 0, as a page
that names only generic portal words does (:attr:`Query.topical`). A page on
leisure in Karlsruhe is no evidence of student housing in Karlsruhe, nor a
physics course of the physics school's phone numbers, nor an undergraduate
course page of "becas para estudiantes de pregrado". On the real corpus (107
tasks) it took 43 pages off, found the same pages, and ended the one absent
topic that had run on such pages (iwi-wohnen, 14 pages) with
``no_relevant_pages`` after 12. It was "fewer than" this share until the
ninth session: at exactly half (the topic and one qualifier, the page naming
the qualifier), the pages of an undergraduate section counted as touching
undergraduate scholarships and the crawl saturated among them (cae-becas,
36 pages, 0 of 1 found; now 73 pages, 1 of 1; no other task of 116 found
less)."""

SHARE_OF_BEST: Final = 0.35
"""A page is about the query only if its relevance is at least this share of
the best relevance the crawl has seen so far (:func:`about_enough`). Where the
answer scores 0.85, a page scoring 0.2 mentions the query on the way to
something else. On the real corpus (107 tasks, a replay of the quality
benchmark's traces): of the 172 pages marked relevant that hand labels call
irrelevant, 31 fall below 0.35 of the best page found before them; no
labelled-relevant page does (at 0.4 two do). The benchmark itself printed
precision 0.461 -> 0.510 with the same finds."""

SITE_WIDE_SHARE: Final = 0.8
"""In a crawl's final answer, a query word that names no topic of the lexicon
(a place, a school, a course code: :attr:`Query.qualifier_terms`) is
*site-wide* when at least this share of the crawl's pages name it, and at
least :data:`SITE_WIDE_OFF_SHARE` of the pages the crawl did not find about
the query: "Gent" on a directory of Ghent's student associations, "Pitt" and
"CS" on Pitt's computer-science wiki. It tells the site's pages from other
sites, not one page from another, so a page that names only site-wide
words of the query is not in the answer (:func:`site_wide_terms`). Words of
a lexicon topic are never site-wide: a focused crawl of a dormitory section
finds "dormitory" on nearly every page because it asked for them."""

SITE_WIDE_OFF_SHARE: Final = 0.5
"""The share of the pages not about the query (at least two of them) that must
name a word for it to be site-wide (:data:`SITE_WIDE_SHARE`): a word that the
crawl's pages off the query name as often as a coin toss is the site's, not
the query's, while a focused crawl's own word is rarer off the query."""

SITE_WIDE_MIN_PAGES: Final = 8
"""Pages a crawl must have observed before any word counts as site-wide: a
share of fewer pages says little about a site."""

CALENDAR_WEIGHT: Final = 1.0
"""Weight of the date facet (:meth:`Query.names_calendar`) in the mean of a
page that names the academic calendar, for a query that asks when something
happens and names no calendar: a specific term's weight."""

FINAL_SHARE_OF_BEST: Final = 0.5
"""In a crawl's final answer (``CrawlResult.relevant_pages``), a page marked
relevant when it was recorded must also reach this share of the best page of
the whole crawl, or sit in the same folder of its site as a page that does
(one dormitory building's page beside the page on the buildings). A page is
marked against the best page before it (:func:`about_enough`), so pages
marked early, while the best was a hub or a news item, were kept even when
the answer turned up later scoring twice as much. On the real corpus (200
tasks; a scratch count over the quality benchmark's replayed traces): of 154
marked pages that hand labels call irrelevant, 68 fall below half the crawl's
best and outside such a folder, and 4 of 253 labelled-relevant marked pages
do (at 0.35, 19 and none; at 0.55, 89 and 9); on the fixtures, 7 of 53 and
none. The quality benchmark, live: marks precision 0.623 -> 0.748, their
recall 0.819 -> 0.806."""

NARROW_BREADTH: Final = 1 / 3
"""A page whose text mentions at most this share of the query's specific terms
(:attr:`Assessment.breadth`) is narrow: it matches the query on one side of
it, its title, URL or one word ("Admission plans" for "postgraduate admission
requirements"), and needs :data:`NARROW_SHARE_OF_BEST` of the best page to be
in a crawl's final answer."""

NARROW_SHARE_OF_BEST: Final = 0.7
"""In a crawl's final answer, a narrow page (:data:`NARROW_BREADTH`) must reach
this share of the best page of the whole crawl, or sit in the same folder as
a page that is in the answer on its own. On the real corpus (200 tasks; a
scratch count over the quality benchmark's replayed traces), of 83 marked
pages that hand labels call irrelevant, 15 are narrow and below 0.7 of the
best, and 1 of 249 labelled-relevant marked pages is; on the three reworded
sets (203 tasks), 18 of 122 and 1 of 266. At 0.6, 5 irrelevant pages and no
relevant one on the corpus; at 0.75, 15 and 2."""

# Markdown link texts ("[text](url)") and what is not text (markup, spaces).
_LINK_TEXT: Final = re.compile(r"(?<!!)\[([^\]]*)\]\([^)]*\)")
_NON_TEXT: Final = re.compile(r"[\s#*_>|\-\[\]()`]+")
# Markdown link and image targets: "[text](url)" keeps "text" and drops the
# URL, so path words do not count as body mentions nor lengthen the body.
_LINK_TARGET: Final = re.compile(r"\]\([^)\s]*(?:\s+\"[^\"]*\")?\)")
_ATX_HEADING: Final = re.compile(r"^ {0,3}#{1,6}[ \t]+(.+?)[ \t#]*$", re.MULTILINE)
# A markdown link with its target: "[Post title](url)".
_LINK_WITH_TARGET: Final = re.compile(r"(?<!!)\[[^\]\n]*\]\(([^)\s]*)[^)\n]*\)")
_IMAGE: Final = re.compile(r"!\[[^\]]*\]\([^)]*\)")
# camelCase boundaries in route slugs ("studentHousing").
_CAMEL_BOUNDARY: Final = re.compile(r"(?<=[a-z])(?=[A-Z])")
_URL_SEPARATORS: Final = re.compile(r"[\W_]+")


def strip_link_targets(markdown: str) -> str:
    """``markdown`` with its link and image targets dropped ("[text](url)" keeps
    "text"): path words are no mention, and do not lengthen the body."""
    return _LINK_TARGET.sub("]", markdown)


def markdown_headings(markdown: str) -> list[str]:
    """The texts of ``markdown``'s headings of every level, in order (a
    page's ``headings`` hold only the first three levels)."""
    return _ATX_HEADING.findall(markdown)


def scan_page(query: Query, markdown: str) -> TextHits:
    """A page's query hits, block by block, link targets dropped: computed once
    per page and shared by :func:`assess`, the stopper and the term weights."""
    return query.scan(markdown, clean=strip_link_targets)


def route_or_path(url: str) -> tuple[bool, str]:
    """The path whose segments name ``url``'s page: a hash route's (``#/a/b``,
    ``#!/a/b``; its own query left out), with True, else the URL's path, with
    False. :func:`url_words` reads both; the last segment of this one names
    the page, the others its sections."""
    parts = urlsplit(url)
    route = parts.fragment if parts.fragment.startswith(("/", "!/")) else ""
    if route.strip("!/"):
        return True, route.split("?", 1)[0]
    return False, parts.path


@functools.lru_cache(maxsize=16384)
def url_words(url: str) -> str:
    """Return the words a person reads in ``url``'s path and route fragment.

    The path and a route fragment (``#/...`` or ``#!/...``) are percent-decoded,
    camelCase is split, and runs of separators (``/ - _ . +`` and other
    punctuation) become single spaces: ``/study/international-students/
    Accommodation_Fees.html`` reads "study international students
    Accommodation Fees html"; ``/%E5%AE%BF%E8%88%8D/`` reads "宿舍". The host,
    query string and in-page fragments (``#section``) are left out: they name
    the site, tracking or a spot on the same page, not the page's topic.
    """
    try:
        parts = urlsplit(url)
    except ValueError:
        return ""
    fragment = parts.fragment
    route = fragment if fragment.startswith(("/", "!/")) else ""
    raw = unquote(f"{parts.path} {route.split('?', 1)[0]}", errors="replace")
    return " ".join(_URL_SEPARATORS.sub(" ", _CAMEL_BOUNDARY.sub(" ", raw)).split())


@dataclass(frozen=True)
class Assessment:
    """What a page says about a query: its relevance and whether it is about it."""

    relevance: float
    """The facet score in [0, 1] (module documentation)."""
    about: bool
    """The page is about the query, not only touching it (:func:`assess`); a
    crawl marks it relevant in its output when it also holds up against the
    best page seen so far (:func:`about_enough`)."""
    breadth: float = 0.0
    """The share of the query's specific terms (generic portal words aside)
    that the page's text mentions, link targets left out: 1.0 when it
    mentions them all, 0.0 when it names them only in its title, headings or
    URL, or not at all (:data:`NARROW_BREADTH`)."""
    named: tuple[int, ...] = ()
    """The query's specific terms (by index) that the page names in its title,
    a heading, its URL or its text, link targets left out: what
    :func:`site_wide_terms` counts."""


def assess(
    query: Query,
    *,
    markdown: str,
    title: str = "",
    headings: Sequence[str] = (),
    url: str = "",
    hits: TextHits | None = None,
    home: bool = False,
) -> Assessment:
    """Score a page for ``query`` and judge whether it is about it.

    The relevance is the facet score of the module documentation, except that a
    page whose only hits are generic portal words (``Query.term_weights`` below
    1: "student", "campus") scores 0: mentioning students says nothing about
    "student housing"; so does a page that names only a few of the words that
    qualify the query's topic (:data:`QUALIFIERS_SHARE`). The page is *about*
    the query when its relevance counts as evidence (``EVIDENCE_RELEVANCE``),
    it names a specific term where a page states its subject (title, a heading
    or the URL) or mentions it :data:`FOCUS_MENTIONS` times in its body, and it
    is not a hub: at most :data:`HUB_LINK_SHARE` of its text is link text,
    it is not a listing of other pages' titles and teasers
    (:data:`LISTING_HEADINGS`), and it is not the site's home page
    (:func:`~pw_adaptive.core.urls.is_home_page`: an overview of every topic;
    on the real corpus, 157 tasks, the crawl had marked nine home pages
    relevant, and hand labels call all nine irrelevant; ``home`` says the
    caller knows the page for a home page another way: the start of a site
    published under a base path); and, when the query
    names a topic of the lexicon, the page names one of the topic's words or
    more than :data:`QUALIFIERS_SHARE` of the specific terms (a page on
    engineering alone is not about "engineering scholarships": on the real
    corpus 8 fewer pages marked relevant that hand labels call irrelevant,
    none of the labelled-relevant ones lost); likewise, when the query's
    words name several topics and one of them more than the others
    (:attr:`Query.main_topic`: "dorm rooms ... housing fee"), a page that
    names none of that topic's words, and no more than that share of the
    specific terms, scores 0 (a page on fees in general is no evidence of
    a dormitory's fee). A page that states a level of study of another tier
    than the query's as its subject, and none of the query's, touches the
    query at most (relevance capped at ``MIN_RELEVANCE``) and is not about
    it (:meth:`Query.names_other_level`: an undergraduate admissions page
    for a question on master's admission; on the real corpus, 200 tasks
    replayed, three such pages marked relevant were all labelled
    irrelevant). A page whose text is its headings alone (a documentation
    theme's folder index) is not about the query either. Hand labels call
    hubs, teasers and passing mentions irrelevant; this is their rule, made
    mechanical.
    ``hits`` is the page's :func:`scan_page`, when the caller has it.
    """
    body = strip_link_targets(markdown)
    if not headings:
        headings = _ATX_HEADING.findall(body)
    terms = len(query)
    in_title = query.term_counts(title) if title else [0] * terms
    url_text = url_words(url) if url else ""
    in_url = query.term_counts(url_text) if url_text else [0] * terms
    in_headings = [0] * terms
    for heading in headings:
        mask = query.hit_mask(heading)
        for i in range(terms):
            in_headings[i] += (mask >> i) & 1
    in_body = list((hits if hits is not None else scan_page(query, markdown)).counts)

    words = _word_count(body)
    length_factor = math.sqrt(BODY_REFERENCE_WORDS / max(BODY_REFERENCE_WORDS, words))

    facets = []
    for i in range(terms):
        evidence = (
            TITLE_WEIGHT * min(1, in_title[i])
            + HEADING_WEIGHT * (1.0 - 0.5 ** in_headings[i])
            + URL_WEIGHT * min(1, in_url[i])
            + BODY_WEIGHT * max(0.0, in_body[i] * length_factor - PASSING_MENTIONS)
        )
        facets.append(1.0 - math.exp(-evidence))
    # Generic portal words ("students") weigh less in the mean and do not
    # drag the soft minimum down: a page about nursing placements that never
    # says "students" is still about "nursing students on placement".
    weights = query.term_weights
    specific_terms = [i for i, w in enumerate(weights) if w >= 1.0] or list(range(terms))
    breadth = sum(1 for i in specific_terms if in_body[i] > 0) / len(specific_terms)
    # Where the page states its subject: the title, a heading or the URL.
    stated = [bool(in_title[i] or in_headings[i] or in_url[i]) for i in range(terms)]
    present = tuple(i for i in specific_terms if stated[i] or in_body[i])
    if not any(facets[i] > 0.0 for i in specific_terms):
        return Assessment(0.0, False, breadth, present)
    # When the query names a topic of the lexicon, a page that names none of
    # its words but only words that qualify it is no evidence, and not about
    # the query, without more than QUALIFIERS_SHARE of the specific terms;
    # nor is a page that names only a lesser topic of the query's (a page on
    # fees for a question on dormitory rooms and their fee).
    off_topic = any(query.topical[i] for i in specific_terms) and not any(
        query.topical[i] for i in present
    )
    main = query.main_topic
    off_main = any(main[i] for i in specific_terms) and not any(main[i] for i in present)
    qualifiers = len(present) / len(specific_terms)
    if (off_topic or off_main) and qualifiers <= QUALIFIERS_SHARE:
        return Assessment(0.0, False, breadth, present)
    # A question asking when ("when are the final exams") is answered by the
    # calendar that publishes the dates: a page that names the calendar where
    # it states its subject has the question's date as a facet, fully
    # present, in the mean (not in the soft minimum: a calendar that never
    # names the exams is no answer).
    calendar = any(query.names_calendar(text) for text in (title, *headings, url_text))
    date = CALENDAR_WEIGHT if calendar else 0.0
    mean = (sum(w * f for w, f in zip(weights, facets, strict=True)) + date) / (sum(weights) + date)
    score = (1.0 - SOFT_MIN_SHARE) * mean + SOFT_MIN_SHARE * min(facets[i] for i in specific_terms)
    score = min(1.0, max(0.0, score))
    # A page that states another level of study than the query's as its
    # subject (undergraduate admissions for a question on master's admission)
    # is about other students: it touches the query, no more.
    other_level = query.names_other_level((title, *headings, url_text))
    if other_level:
        score = min(score, MIN_RELEVANCE)
    # The calendar names its subject for a question asking when: the page is
    # about the question if it mentions a specific term at all.
    named = any(
        stated[i] or in_body[i] * length_factor >= FOCUS_MENTIONS or (calendar and in_body[i] > 0)
        for i in specific_terms
    )
    about = (
        score >= EVIDENCE_RELEVANCE
        and named
        and not other_level
        and _link_share(markdown) <= HUB_LINK_SHARE
        and not _is_listing(markdown, url)
        and not home
        and not (url and is_home_page(url))
        and _has_text(body)
    )
    return Assessment(score, about, breadth, present)


def about_enough(verdict: Assessment, best: float) -> bool:
    """Whether a page judged by :func:`assess` counts as about the query in the
    crawl's output, given ``best``, the highest relevance seen so far (this
    page's included): it must be about the query and reach
    :data:`SHARE_OF_BEST` of ``best``. The first page about the query always
    does; later ones are compared with the best before them, so the judgement
    never changes after a page's record is written."""
    return verdict.about and verdict.relevance >= SHARE_OF_BEST * best


def site_wide_terms(
    named: Sequence[Collection[int]],
    off_query: Sequence[Collection[int]],
    candidates: Iterable[int],
) -> frozenset[int]:
    """The terms among ``candidates`` that are site-wide (:data:`SITE_WIDE_SHARE`).

    ``named`` holds, for each page the crawl observed, the terms it names
    (:attr:`Assessment.named`); ``off_query``, the same for the pages of them
    it did not find about the query. ``candidates`` are the query's
    :attr:`Query.qualifier_terms`. Nothing is site-wide before
    :data:`SITE_WIDE_MIN_PAGES` pages, or with fewer than two pages off the
    query.
    """
    if len(named) < SITE_WIDE_MIN_PAGES or len(off_query) < 2:
        return frozenset()

    def share(pages: Sequence[Collection[int]], term: int) -> float:
        return sum(1 for terms in pages if term in terms) / len(pages)

    return frozenset(
        term
        for term in candidates
        if share(named, term) >= SITE_WIDE_SHARE and share(off_query, term) >= SITE_WIDE_OFF_SHARE
    )


SIBLINGS_MIN: Final = 2
"""Marked pages without the word only the best page names
(:func:`words_only_the_best_names`) that make them a template's family, and
so not answers: with one such page only, both stay (a supermarket's own page
beside the campus services' page that alone says when it opens, on
thu-wiki, for "学校里的超市几点开门")."""


def words_only_the_best_names(
    named: Sequence[Collection[int]], best: Collection[int], qualifiers: Collection[int]
) -> frozenset[int]:
    """The words of the query that, of a crawl's observed pages, only its best
    page names, when every word that any of them names is one of
    ``qualifiers`` (:attr:`Query.qualifier_terms`): the query names no topic
    of the lexicon, or no page names one.

    ``named`` holds, for each observed page, the terms it names
    (:attr:`Assessment.named`), the best page's among them; ``best`` is the
    best page's. Nothing before :data:`SITE_WIDE_MIN_PAGES` pages. Without a
    topic to go by, the pages that match a question best are often siblings
    cut from one template: a course guide's course pages, each with its exam
    format and its materials, all naming "exam", "final", "materials" and
    "chapter" for a question on the operating systems course's exam. What
    tells the answer from its siblings is then the word only it names (the
    course's name, "socket", "SRT"), and a marked page without it is a
    sibling: :func:`pw_adaptive.records.final_relevant` leaves it out.
    """
    if not _no_topic_named(named, qualifiers):
        return frozenset()
    pages = Counter(term for terms in named for term in set(terms))
    return frozenset(term for term in best if pages[term] == 1)


def _no_topic_named(named: Sequence[Collection[int]], qualifiers: Collection[int]) -> bool:
    """Whether ``named`` (the terms each observed page names) holds enough
    pages (:data:`SITE_WIDE_MIN_PAGES`) and only ``qualifiers`` among them:
    the query names no topic of the lexicon, or no page names one. The
    ground both sibling rules stand on."""
    if len(named) < SITE_WIDE_MIN_PAGES:
        return False
    return {term for terms in named for term in terms} <= set(qualifiers)


FAMILY_MIN: Final = 4
"""Marked pages from which a crawl's marked pages count as a family whose
members the word few of them name tells apart
(:func:`words_few_of_the_marked_name`)."""

FAMILY_RARE_SHARE: Final = 0.25
"""A word of the best page that fewer than this share of the marked pages
name is the answer's own (:func:`words_few_of_the_marked_name`). At a
quarter inclusive, a reworded question on upinfo-unica ("is the internship
compulsory in the computer science master?") lost a right mark: 2 of its 8
marked pages said "compulsory", and the programme's internship page, which
does not, was left out."""


def words_few_of_the_marked_name(
    named: Sequence[Collection[int]],
    marked: Sequence[Collection[int]],
    best: Collection[int],
    qualifiers: Collection[int],
) -> frozenset[int]:
    """The words of the query that the best page names and fewer than
    :data:`FAMILY_RARE_SHARE` of the crawl's marked pages name, when at least
    :data:`FAMILY_MIN` pages are marked and, as for
    :func:`words_only_the_best_names`, the query names no topic of the
    lexicon that a page names.

    ``named`` holds the terms each observed page names, ``marked`` those of
    the pages marked relevant (the best page's among them when it is marked),
    ``best`` the best page's. :func:`words_only_the_best_names` asks for a
    word that no other observed page names; a page off the answer may still
    name it in passing (a course list, an exam timetable naming every
    course), and then the marked siblings all stay: 22 course pages of one
    template marked for a question on the operating systems course's exam,
    whose name 5 of 37 observed pages named (svuit-mmtt). Among the marked
    pages, a family of siblings shares the question's generic words; the
    words few of them name are the answer's own.
    """
    if len(marked) < FAMILY_MIN or not _no_topic_named(named, qualifiers):
        return frozenset()
    pages = Counter(term for terms in marked for term in set(terms))
    return frozenset(term for term in best if pages[term] < FAMILY_RARE_SHARE * len(marked))


def relevance(
    query: Query,
    *,
    markdown: str,
    title: str = "",
    headings: Sequence[str] = (),
    url: str = "",
) -> float:
    """Return how much a page is about ``query``, in [0, 1] (:func:`assess`).

    ``markdown`` is the page's main content as rendered; when ``headings`` is
    empty, its ATX headings (``# ...``) are used as the headings. See the
    module documentation for the formula. An empty page scores 0; adding a
    query term to the title, the URL or a non-empty ``headings`` never lowers
    the score.
    """
    return assess(query, markdown=markdown, title=title, headings=headings, url=url).relevance


def _has_text(body: str) -> bool:
    """Whether ``body`` (markdown, link targets dropped) holds text besides its
    headings: a heading over nothing (a documentation theme's folder index)
    names a subject and says nothing of it."""
    return bool(_NON_TEXT.sub("", _ATX_HEADING.sub("", body)))


def _link_share(markdown: str) -> float:
    """Share of the text (in characters, markup aside) that is link text."""
    linked = sum(len(m) for m in _LINK_TEXT.findall(markdown))
    total = len(_NON_TEXT.sub("", _LINK_TARGET.sub("]", markdown)))
    return linked / total if total else 0.0


def _is_listing(markdown: str, url: str = "") -> bool:
    """Whether the page lists other pages in teaser sections (:data:`LISTING_HEADINGS`).
    A link to the page itself (a heading's permalink, an anchor) stands for
    no other page."""
    # re.split with one group: [before the first heading, heading, section, ...]
    parts = _ATX_HEADING.split(markdown)
    sections = len(parts) // 2
    if sections < LISTING_HEADINGS:
        return False
    page = _without_fragment(url)
    teasers = 0
    for i in range(1, len(parts) - 1, 2):
        heading, body = parts[i].strip(), _IMAGE.sub(" ", parts[i + 1])
        whole = _LINK_WITH_TARGET.fullmatch(heading)
        if whole is not None:
            teaser = _elsewhere(whole.group(1), page)
        else:
            links = sum(_elsewhere(target, page) for target in _LINK_WITH_TARGET.findall(body))
            teaser = 1 <= links <= 2 and 0 < word_count(_LINK_TEXT.sub(" ", body)) <= TEASER_WORDS
        teasers += teaser
    return teasers >= LISTING_HEADINGS and 2 * teasers >= sections


def _without_fragment(url: str) -> str:
    """``url`` without an in-page anchor (a hash route, "#/fees" or "#!/fees",
    names a page and is kept: :func:`~pw_adaptive.core.urls.is_route_fragment`)
    and without a trailing slash."""
    base, _, fragment = url.partition("#")
    return (url if is_route_fragment(fragment) else base).rstrip("/")


def _elsewhere(target: str, page: str) -> bool:
    """Whether a link's ``target`` is another page than ``page`` (both absolute,
    as the renderer writes them; ``page`` may be unknown: ""). A document
    (a PDF, a spreadsheet: :data:`~pw_adaptive.core.urls.ATTACHMENT_EXTENSIONS`)
    is not a page: a section that links the page's fee schedule is its own."""
    bare = _without_fragment(target)
    return bool(bare) and bare != page and path_extension(bare) not in ATTACHMENT_EXTENSIONS


def _word_count(text: str) -> float:
    """Length of ``text`` in words, for every script (:func:`pw_adaptive.text.word_count`)."""
    return word_count(text)


# What separates the parts of a title ("Fees | Admissions | Example
# University", "Kilta - Oulun Tietoteekkarit ry"): a dash, bar, bullet, colon
# or slash between spaces, or a bar without them. A hyphen inside a word
# ("SDSMU-Companion") or a middle dot inside a Japanese word is no separator.
_TITLE_SEPARATOR: Final = re.compile(r"\s+[-\u2013\u2014|\u00b7\u2022\u00bb:/~]\s+|\s*[|\uff5c]\s*")


class SiteTitles:
    """Learns, per host, the site's name in its page titles, and strips it.

    Titles carry the site's name ("Fees | Example University", "Fees - Example
    University"), and on a site whose name holds a query word ("... | DSK
    International - 神戸のインターナショナルスクール" for an international school
    query, "... | جامعة القادسية" for a query about the university) every page
    would count that word as stated in its title: relevant, and marked as
    about the query. A part of a title that :data:`MIN_PAGES` earlier titles
    of the same host also held is the site's: it is stripped from the ends
    of the title, part by part ("a | b | site" keeps "a | b" once "site" is
    known; a title that is nothing but the site's name becomes empty). Next
    to it, only a part that as many titles held goes too (a tagline): a
    section's name ("Freshman guide"), shared by some of the pages, still
    says what they are about.
    """

    MIN_PAGES: Final = 2
    """Earlier titles of a host that must hold a part before it counts as the site's."""

    def __init__(self) -> None:
        self._seen: dict[str, Counter[str]] = {}

    @staticmethod
    def _parts(title: str) -> list[str]:
        return [part for part in (p.strip() for p in _TITLE_SEPARATOR.split(title)) if part]

    def strip(self, host: str, title: str) -> str:
        """``title`` without the parts of it that are the site's name."""
        seen = self._seen.get(host)
        if not seen:
            return title
        parts = self._parts(title)
        counts = [seen[normalize_text(part)] for part in parts]
        start, stop = 0, len(parts)
        # The first part stripped is the site's name; further parts go only
        # if every title held them as well (a tagline), not a section's name.
        least = self.MIN_PAGES
        while start < stop:
            if counts[stop - 1] >= least:
                least = max(least, counts[stop - 1])
                stop -= 1
            elif counts[start] >= least:
                least = max(least, counts[start])
                start += 1
            else:
                break
        if (start, stop) == (0, len(parts)):
            return title
        return " | ".join(parts[start:stop])

    def observe(self, host: str, title: str) -> None:
        """Count the parts of one page's title."""
        seen = self._seen.setdefault(host, Counter())
        seen.update({normalize_text(part) for part in self._parts(title)})

    def state(self) -> dict[str, dict[str, int]]:
        """A JSON-able snapshot, for checkpoints."""
        return {host: dict(counts) for host, counts in self._seen.items()}

    def restore(self, state: dict[str, dict[str, int]] | None) -> None:
        """Load a snapshot made by :meth:`state` (None: nothing was saved)."""
        self._seen = {host: Counter(counts) for host, counts in (state or {}).items()}
