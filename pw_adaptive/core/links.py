"""Links as a person sees them, and how much each one promises for a query.

A link carries what the rendered page shows about it: its visible text, its
accessible name (aria-label, title, img alt) for icon links, the region of the
page it sits in, the heading of the card or list around it, and whether it was
visible. Scoring and blindness are defined in the project DESIGN ("Links and
blindness").

A link's score in [0, 1] tells the frontier how promising it is:

* its **clue** is the strongest evidence for the query that a person sees on
  it, as the fraction of query terms (or synonyms) hit, scaled by where the
  evidence is (:data:`CLUE_WEIGHTS`): the visible text, the accessible name,
  the card heading (in full for generic anchors such as "Learn more", partly
  otherwise), or the words of the URL's path and route;
* plus a share of the parent page's relevance (Shark-Search inheritance,
  Hersovici et al., "The shark-search algorithm", WWW7, 1998: children of a
  relevant page are likely relevant even when their anchors say little);
* never below the section floor of its region (:data:`SECTION_FLOORS`), so
  menus still get explored when nothing on the page names the query.

A link is **blind** when its clue is below :data:`MIN_CLUE`: neither what a
person sees on it nor its URL says anything worth following about the query. Inheritance lifts a blind link's score
but does not make it a clue; the stopper's cold-start rule counts pages
reached through blind links, and through links whose visible clue names
only words that qualify the query's topic (``LinkScore.qualifier_only``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Final, Literal
from urllib.parse import urlsplit

from pw_adaptive.core.query import Query, normalize_text
from pw_adaptive.core.relevance import EVIDENCE_RELEVANCE, route_or_path, url_words
from pw_adaptive.core.urls import language_prefix
from pw_adaptive.text.languages import phrases
from pw_adaptive.text.scripts import UNSPACED, WORD

__all__ = [
    "CLUE_WEIGHTS",
    "DEFAULT_INHERIT",
    "GENERIC_ANCHORS",
    "HIDDEN_FACTOR",
    "LANGUAGE_SWITCH_FACTOR",
    "MIN_CLUE",
    "SECTION_FLOORS",
    "ClueSource",
    "Link",
    "LinkScore",
    "Region",
    "is_blind",
    "is_generic_anchor",
    "is_language_switch",
    "language_prefix",
    "names_a_term",
    "score_link",
]


class Region(StrEnum):
    """Where on the page a link sits; each region has its own section floor."""

    NAV = "nav"
    HEADER = "header"
    MAIN = "main"
    ASIDE = "aside"
    FOOTER = "footer"


@dataclass(frozen=True)
class Link:
    """One link found on a rendered page."""

    url: str
    """Absolute URL (not yet canonicalized)."""
    text: str = ""
    """Visible anchor text as rendered (innerText), whitespace collapsed."""
    accessible_name: str = ""
    """aria-label, title or img alt: what an icon link says to a screen reader."""
    region: Region = Region.MAIN
    """The page region the link sits in."""
    context_heading: str = ""
    """The nearest heading of the card, list or section the link sits in."""
    context_text: str = ""
    """The text of the card or list item around the link (its teaser, its
    description), when that is short; empty for links in bare lists and menus."""
    visible: bool = True
    """False for links in collapsed menus, closed tabs and the like."""
    via_click: bool = False
    """True when the URL was found by clicking an element that has no href."""


SECTION_FLOORS: Final[Mapping[Region, float]] = MappingProxyType(
    {
        # Menus are the site's own map of its sections: a clue-less "Your stay"
        # or "Life here" in the menu often leads to the topic, so menus explore.
        Region.NAV: 0.1,
        Region.HEADER: 0.1,
        # Links in the content are related to the page, but without a clue
        # they are more often "next article" or a person's profile.
        Region.MAIN: 0.08,
        # Side columns hold related-news and promotional widgets.
        Region.ASIDE: 0.05,
        # Footers hold legal, social and contact links, repeated on every
        # page; they rarely lead to topical content.
        Region.FOOTER: 0.02,
    }
)
"""The section floor of each region: the least score a link there gets."""

ClueSource = Literal["text", "accessible_name", "context_heading", "context_text", "url", ""]
"""Where a link's clue came from; "" when it has none."""

CLUE_WEIGHTS: Final[Mapping[str, float]] = MappingProxyType(
    {
        # What the link says is what a person clicks on.
        "text": 1.0,
        # aria-label / title / alt: the label of icon links, but sometimes a
        # generic tooltip, so a little below the visible text.
        "accessible_name": 0.9,
        # The card heading over a generic anchor ("Learn more" under
        # "Accommodation fees") is what that anchor means.
        "context_heading": 0.9,
        # Over a link with its own words the heading is only context: the
        # link may be one of several topics in that card or list.
        "context_heading_partial": 0.4,
        # The teaser of the card around a link ("Plan what your degree will
        # cost" under "Money matters") says where it leads, the way a person
        # reads it; for a generic anchor it is all there is.
        "context_text": 0.7,
        # Over a link with words of its own the teaser is one line among a
        # few, so it counts for less (still above the menu floor).
        "context_text_partial": 0.5,
        # URL slugs are real clues but often stale, abbreviated or generated.
        "url": 0.6,
    }
)
"""Scale of each clue source; the clue is weight x fraction of terms hit."""

MIN_CLUE: Final = 0.15
"""A link whose clue is weaker than this is blind: one word of a four-word
query in a card's teaser (0.5 x 1/4), or only a generic portal word such as
"students", is not a lead a person would follow. Without it, any news teaser
that mentions a query word resets the stopper's cold-start count, and a site
without the content is explored far past its 10-page cold patience."""

DEFAULT_INHERIT: Final = 0.3
"""Share of the parent page's relevance added to every link on it (the
inheritance factor of Shark-Search, Hersovici et al. 1998, which decays the
parent's score for children without their own clue). 0.3 keeps a clue-less
link on a fully relevant page (0.3) below a link whose text hits half of a
two-term query (0.5), yet above the menu floor."""

INHERIT_MIN_RELEVANCE: Final = EVIDENCE_RELEVANCE
"""A page passes a share of its relevance on to its links only from this
relevance up: the stopper's evidence threshold. A page below it touches the
query in passing (a faculty page whose title says "Science" for "computer
science PhD"); the stopper counts it for nothing, and its clue-less links
should not either. Without the gate the departments of the wrong faculty
outrank the other faculties one level up, and the crawl digs into the wrong
branch (the quality benchmark's "inherit from every page" ablation)."""

HIDDEN_FACTOR: Final = 0.9
"""Multiplier on the score (above the floor) of links that were not visible.
Collapsed menus and closed tabs are real navigation, so hidden links are
scored like the others; the small penalty only breaks ties in favour of the
link a person sees, as hidden links mostly repeat visible ones."""

FAQ_FLOOR: Final = 0.14
"""Floor of a clue-less link to a page of frequently asked questions (its text,
accessible name or URL names one: "FAQ", "Preguntas frecuentes", "UKK",
"よくある質問"; ``faq`` in ``data/languages.json``). Such pages answer the
practical questions students ask (library hours, Wi-Fi, exam registration,
lunch prices): on the real corpus a FAQ page is the answer, or one of them,
for 15 of 107 tasks on 4 of 11 sites, behind labels that name no topic. The
floor puts it before other clue-less links yet below any link with a clue
(``MIN_CLUE``); the link stays blind for the stopper."""

HINT_FLOOR: Final = 0.12
"""Floor of a clue-less link whose text, accessible name or URL holds a menu
hint of the query's topic (``hints`` in ``data/synonyms.json``, see
:meth:`~pw_adaptive.core.query.Query.hinted`): "🚌 Road Transport" for a
question about buses, "Health" for the campus clinic, "校园网络" for Wi-Fi.
Those words are too broad to count as evidence in a page's text, yet they
are what menus call the section that holds the topic: on the real corpus the
answer to six tasks sat behind such a label and was never reached within the
10-page cold patience. The floor puts the link before other clue-less links
(menus 0.1) and below a FAQ page (:data:`FAQ_FLOOR`), which answers more
kinds of question; the link stays blind for the stopper, so a site without
the topic is not crawled any longer."""

HINT_SPREAD: Final = 0.01
"""Added to :data:`HINT_FLOOR` times how much of the query a link's hints
speak for (:func:`_hint_share`), so that of two hinted links the one that
names the section of more of the question, or names it for the page itself
rather than for its parent section, comes first. For "campus shuttle bus
timetable and fare" on a Chinese student wiki (the corpus's
``thu-shuttle-en``), every page under "校内外生活" (campus life: a transport
hint) and every "学习相关" (study: the class timetable's) page tied at the
floor, and ten of them took the 10-page cold patience; now the page whose
own name is "校内出行" (getting around campus: shuttle and bus, 0.125) comes
before its siblings (0.122) and the study pages (0.121), and the crawl finds
it fifth. The largest lift (0.13) stays below :data:`FAQ_FLOOR`."""

HINT_SECTION_FACTOR: Final = 0.5
"""Weight of a hint that stands only in a parent segment of a link's URL
path: it names the page's section, which all its siblings share, not the
page (:data:`HINT_SPREAD`)."""

LANGUAGE_SWITCH_FACTOR: Final = 0.2
"""Multiplier on the score of a link to another language version of the site
("/de/", "/zh-cn/..." from a page under "/ja/"). Such links sit in every
page's header and lead to the same content in a language the user did not
start in: followed blind, they spent the 10-page cold patience of two real
sites (a Japanese school's "/de/", "/fr/", "/en/"; a handbook's "/zh-cn/",
"/zh-yue/" from "/en-us/") before any section of the site itself. The factor
puts them below every menu floor but the footer's; they are still crawled
when nothing else is left."""


def is_language_switch(page_url: str, link_url: str) -> bool:
    """True when ``link_url`` leads to another language version of the site
    ``page_url`` is on: same host, and the tags that start both paths differ
    ("/de/" from "/ja/about/"). False when the page's own path has no tag: a
    site with its main language at the root may name sections "/it/" or
    "/hr/", and without a tag of its own the page gives no evidence that such
    a segment is a language."""
    own = language_prefix(page_url)
    if own is None:
        return False
    tag = language_prefix(link_url)
    return tag is not None and tag != own and urlsplit(link_url).netloc == urlsplit(page_url).netloc


# Letters, digits, marks and unspaced runs: what remains of an anchor once
# arrows, "»", "..." and other decoration are dropped.
_ANCHOR_WORD: Final = re.compile(f"[{UNSPACED}]+|{WORD}+")

GENERIC_ANCHORS: Final[frozenset[str]] = frozenset(
    " ".join(_ANCHOR_WORD.findall(anchor)) for anchor in phrases("generic_anchors")
)
"""Anchor texts that say nothing by themselves (normalized, punctuation and
arrows stripped), in every language of ``data/languages.json`` ("Read more",
"了解更多", "Подробнее", "اقرأ المزيد"): their meaning is the heading of the
card they sit in."""


@dataclass(frozen=True)
class LinkScore:
    """How promising a link is for a query."""

    score: float
    """Frontier priority in [0, 1]: max(floor, min(1, clue + inherited))."""
    clue: float
    """Strongest clue in [0, 1]; 0 for a blind link."""
    blind: bool
    """True when the link carries no clue worth following (``clue < MIN_CLUE``)."""
    clue_source: ClueSource
    """Where the clue came from: "text", "accessible_name", "context_heading",
    "url", or "" for a blind link."""
    qualifier_only: bool = False
    """True when the clue is in what a person sees on the link (not its URL)
    and names only words that qualify the query's topic (a level of study, an
    audience, a place: :attr:`Query.topical`), in a query that names a topic:
    "Undergraduate class football match" for "undergraduate tuition fees".
    Such a link is followed in its turn, and it is a lead for the stopper
    while queued, but the page it promises is about the qualifier, not the
    topic: when that page says nothing of the query, it counts towards the
    cold give-up as a blind link's would
    (``AdaptiveOptions.qualifier_clues_count``). A
    qualifier in a URL names the section a page sits in, which may hold the
    topic ("/pregrado/becas/"): the crawler learns those words apart
    (``core.sections``)."""

    @property
    def qualifier_context_only(self) -> bool:
        """True when the clue names only qualifiers (:attr:`qualifier_only`)
        and stands only around the link: in the heading of the card or
        section it sits in, or in its paragraph (``clue_source``
        "context_heading" or "context_text"), not on the link itself. Such a
        clue says where the link sits (a news item about the campus the query
        names), not where it leads; it is not a lead that keeps the cold
        give-up waiting (``AdaptiveOptions.qualifier_clues_count``)."""
        return self.qualifier_only and self.clue_source in ("context_heading", "context_text")


def _faq_pattern() -> re.Pattern[str]:
    spaced, unspaced = [], []
    for name in sorted(phrases("faq"), key=len, reverse=True):
        words = _ANCHOR_WORD.findall(name)
        if len(words) == 1 and _UNSPACED_RUN.fullmatch(words[0]):
            unspaced.append(re.escape(words[0]))  # inside a run: "新生常见问题解答"
        else:
            spaced.append(r"\W+".join(re.escape(word) for word in words))
    alternatives = [rf"(?<!\w)(?:{'|'.join(spaced)})(?!\w)"] if spaced else []
    if unspaced:
        alternatives.append("|".join(unspaced))
    return re.compile("|".join(alternatives))


_UNSPACED_RUN: Final = re.compile(f"[{UNSPACED}]+")
_FAQ: Final = _faq_pattern()
# ASCII FAQ names as a URL may hold them, to skip decoding most URLs.
_FAQ_IN_URL: Final = re.compile(
    "|".join(re.escape(n).replace(r"\ ", "[-_ +]") for n in phrases("faq") if n.isascii()),
    re.IGNORECASE,
)


def is_faq_link(link: Link) -> bool:
    """True when ``link``'s text, accessible name or URL names a page of
    frequently asked questions (:data:`FAQ_FLOOR`): as whole words in spaced
    scripts, as a substring in unspaced ones ("常见问题解答")."""
    return _names_faq(link.text) or _names_faq(link.accessible_name) or _url_names_faq(link.url)


@functools.lru_cache(maxsize=8192)
def _url_names_faq(url: str) -> bool:
    # Most URLs hold no FAQ name in ASCII and nothing percent-encoded: they
    # are not decoded.
    if "%" in url or _FAQ_IN_URL.search(url):
        return _names_faq(url_words(url))
    return False


@functools.lru_cache(maxsize=4096)
def _names_faq(text: str) -> bool:
    # Cached: a site's menus repeat the same anchors on every page.
    return bool(text) and _FAQ.search(normalize_text(text)) is not None


def _hint_share(link: Link, query: Query) -> float | None:
    """How strongly ``link`` hints at the query's topics (:data:`HINT_SPREAD`):
    the largest share of the query that menu hints in its text, accessible
    name or URL speak for (:meth:`Query.hint_share`). In the URL a hint in
    the last path segment names the page ("/life/getting-around/"), one in
    a parent segment only its section, every page of which shares it
    ("/life/canteen-menus/"): :data:`HINT_SECTION_FACTOR`. None when no
    source holds a hint (:data:`HINT_FLOOR`)."""
    sources = (
        (link.text, 1.0),
        (link.accessible_name, 1.0),
        (_leaf_words(link.url), 1.0),
        (url_words(link.url), HINT_SECTION_FACTOR),
    )
    shares = [
        weight * share for text, weight in sources if (share := query.hint_share(text)) is not None
    ]
    return max(shares) if shares else None


def _leaf_words(url: str) -> str:
    """The words of the last segment of ``url``'s route or path (:func:`url_words`)."""
    words = url_words(url)
    if not words:
        return ""
    _, path = route_or_path(url)
    leaf = next((segment for segment in reversed(path.split("/")) if segment), "")
    return url_words(f"/{leaf}") if leaf else ""


SEQUENCE_DIGITS: Final = 2
"""Most digits of the number in an anchor that names a place in a sequence
("Lecture 12", "Week 3"); longer numbers are codes that name a thing
("CS 0401", "Building 101")."""


def is_generic_anchor(text: str) -> bool:
    """True when ``text`` is empty, one of :data:`GENERIC_ANCHORS` ("Learn
    more »"), or a place in a sequence: numbers and at most one word
    ("Lecture 12", "Week 3", "הרצאה 12"), whose subject is the line or card
    around it ("Lecture 12 - PCA and K-means")."""
    tokens: list[str] = _ANCHOR_WORD.findall(normalize_text(text))
    words = " ".join(tokens)
    if not words or words in GENERIC_ANCHORS:
        return True
    numbers = sum(token.isdigit() and len(token) <= SEQUENCE_DIGITS for token in tokens)
    return numbers > 0 and len(tokens) - numbers <= 1


def _clue(
    link: Link, query: Query, weights: Sequence[float] | None = None
) -> tuple[float, ClueSource, int]:
    """The strongest clue on ``link``, its source and the terms it names (a
    hit mask); (0.0, "", 0) when no source names a term.

    Sources are tried in the order text, accessible name, context heading,
    context text, URL; a later source wins only with a strictly stronger clue.
    """
    terms = len(query)
    total = sum(weights) if weights is not None else 0.0

    def fraction(mask: int) -> float:
        if weights is None or total <= 0.0:
            return mask.bit_count() / terms
        return sum(w for i, w in enumerate(weights) if mask >> i & 1) / total

    generic = is_generic_anchor(link.text) and (
        not link.accessible_name or is_generic_anchor(link.accessible_name)
    )
    heading_weight = CLUE_WEIGHTS["context_heading" if generic else "context_heading_partial"]
    teaser_weight = CLUE_WEIGHTS["context_text" if generic else "context_text_partial"]
    sources: tuple[tuple[float, ClueSource, str], ...] = (
        (CLUE_WEIGHTS["text"], "text", link.text),
        (CLUE_WEIGHTS["accessible_name"], "accessible_name", link.accessible_name),
        (heading_weight, "context_heading", link.context_heading),
        (teaser_weight, "context_text", link.context_text),
        (CLUE_WEIGHTS["url"], "url", url_words(link.url)),
    )
    best: tuple[float, ClueSource, int] = (0.0, "", 0)
    for weight, source, text in sources:
        mask = query.hit_mask(text) if text else 0
        clue = weight * fraction(mask) if mask else 0.0
        if clue > best[0]:
            best = (clue, source, mask)
    return best


@functools.lru_cache(maxsize=64)
def _topical_mask(query: Query) -> int:
    """The query's terms that name a topic (:attr:`Query.topical`), as a bit mask."""
    return sum(1 << i for i, topical in enumerate(query.topical) if topical)


def _names_qualifiers_only(query: Query, mask: int) -> bool:
    """True when the terms in ``mask`` (at least one) name none of the query's
    topics, in a query that names one (:attr:`Query.topical`)."""
    topical = _topical_mask(query)
    return bool(mask) and bool(topical) and not mask & topical


def score_link(
    link: Link,
    query: Query,
    parent_relevance: float = 0.0,
    *,
    inherit: float = DEFAULT_INHERIT,
    floors: Mapping[Region, float] | None = None,
    weights: Sequence[float] | None = None,
    inherit_min: float = INHERIT_MIN_RELEVANCE,
) -> LinkScore:
    """Score ``link`` for ``query``: ``min(1, max(floor, clue) + inherit * parent_relevance)``.

    ``parent_relevance`` is the relevance of the page the link was found on
    (clamped to [0, 1]); ``inherit`` its share (Shark-Search). A parent below
    ``inherit_min`` (default :data:`INHERIT_MIN_RELEVANCE`) passes nothing on;
    0 lets every page pass its share. ``floors``
    replaces :data:`SECTION_FLOORS`: regions it omits have no floor, so ``{}``
    turns section floors off. A hidden link's score above the floor is multiplied by
    :data:`HIDDEN_FACTOR`. Links found by clicking (``via_click``) score like
    any other: what they show is what a person clicks on.
    ``weights`` (one per query term, see :class:`~pw_adaptive.core.query.TermWeights`) make a clue
    the weighted share of the terms it hits instead of the plain share.
    Raises ValueError when ``inherit`` or ``inherit_min`` is outside [0, 1].
    """
    if not 0.0 <= inherit <= 1.0:
        raise ValueError(f"inherit must be within [0, 1], not {inherit}")
    if not 0.0 <= inherit_min <= 1.0:
        raise ValueError(f"inherit_min must be within [0, 1], not {inherit_min}")
    floor = (SECTION_FLOORS if floors is None else floors).get(link.region, 0.0)
    clue, source, mask = _clue(link, query, weights)
    if clue < MIN_CLUE:
        if is_faq_link(link):
            floor = max(floor, FAQ_FLOOR)
        elif (share := _hint_share(link, query)) is not None:
            floor = max(floor, HINT_FLOOR + HINT_SPREAD * share)
    # Shark-Search: every child of a relevant page inherits a share of its
    # relevance, blind ones included, on top of what the link itself shows
    # (its clue, or at least its region's floor). A page that only touches
    # the query in passing passes nothing on.
    parent = min(1.0, max(0.0, parent_relevance))
    inherited = inherit * parent if parent >= inherit_min else 0.0
    promise = min(1.0, max(floor, clue) + inherited)
    if not link.visible:
        promise = floor + (promise - floor) * HIDDEN_FACTOR
    blind = clue < MIN_CLUE
    return LinkScore(
        score=max(floor, promise),
        clue=clue,
        blind=blind,
        clue_source=source,
        qualifier_only=not blind and source != "url" and _names_qualifiers_only(query, mask),
    )


@functools.lru_cache(maxsize=64)
def _specific_mask(query: Query) -> int:
    """The query's specific terms (:attr:`Query.topic_terms` and
    :attr:`Query.qualifier_terms`: weight 1.0, no generic word), as a bit mask."""
    return sum(1 << i for i in (*query.topic_terms, *query.qualifier_terms))


def names_a_term(text: str, query: Query) -> bool:
    """Whether a link's visible ``text`` names a specific term of ``query`` (a
    term or a synonym; not a generic portal word of lower weight), and not
    only words that qualify the query's topic when it names one (they say
    where a link sits, not where it leads: :attr:`LinkScore.qualifier_only`).
    A blind link may, when the query is long (one of seven terms is under
    :data:`MIN_CLUE`)."""
    if not text:
        return False
    mask = query.hit_mask(text) & _specific_mask(query)
    return bool(mask) and not _names_qualifiers_only(query, mask)


def is_blind(link: Link, query: Query) -> bool:
    """True when nothing a person sees on ``link``, nor its URL, carries a clue for
    ``query``: no term or synonym in its text, accessible name, card heading or URL.
    """
    return _clue(link, query)[0] < MIN_CLUE
