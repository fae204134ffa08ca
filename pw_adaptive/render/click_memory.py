"""What each click-only target of a site led to, so it is explored once per site.

A site's header, sidebar and footer hold the same click-only elements on every
page (a search button, a theme switch, a comments widget's sort buttons).
Clicking each of them again in a scratch page on every page cost 15-19 s per
page on a real VuePress site (issue 13). ``ClickMemory`` remembers, per host,
what a candidate led to: a URL, or nothing (no navigation: a toggle, a widget).
A candidate is identified by a stable key: its host, region, tag and role, its
text and accessible name with digits folded (a "last updated 2026/7/21" label
changes from page to page), and a structural path of tag names.

When is a remembered outcome reused?

- In the page chrome (header, nav, aside, footer) at once: chrome is the
  same on every page of a site.
- In the main content, a click that led nowhere at once too (a comments
  widget's "Refresh", a sort button); one that led to a URL only once two
  explorations from different pages agreed: a "Next" button in the main
  content leads somewhere else on every page, and such a candidate, seen to
  disagree, stays explored on every page.

A site's empty-href anchors (``<a href>``) are learnt as a class: a static
site's templates leave them where a URL is missing ("Plan 2024-2025 (PDF)",
"App Store"), and clicking one reloads the page, which a script's click target
never does (the script stops the reload). Once :data:`PLACEHOLDER_EVIDENCE`
of them reloaded their page and none did anything else, the site's other
empty-href anchors are answered "nothing" without a click. On qu-edu-iq
(a Hugo site) 12 of the 13 clicks of a 40-page crawl were such placeholders;
with this rule 3 are clicked (a scratch count of the clicks, one crawl each).

Siblings of one template are learnt as a class too: the entries of a list
of QR-code tooltips (56 on one page of sdsmu-guide), a menu's group labels
that only fold their list (hugo-book's, on sapienza-ssn, in every language
of the site). Their texts differ, so each is a candidate of its own; but once
:data:`INERT_EVIDENCE` candidates of one template (the key without its
texts: host, region, tag, role and structural path) led nowhere and revealed
no link, and none of the template led anywhere, the template's other
candidates are answered "nothing" without a click (``inert``).

Siblings of one template that each lead to a page named after their text
are learnt as a rule: a blog theme's category and tag chips are spans that
the router sends to "/tag/<text>/" (vuepress-theme-hope on himastat-ut: 54 of
a 20-page crawl's 77 clicks, each a page of its own, so none was ever
reused). Once :data:`RULE_EVIDENCE` candidates of one template, with
different texts, led to URLs that one rule explains (the same origin, path
prefix and suffix around the text written one way: as it is, lower case, or
lower case with hyphens for spaces), and none of the template did anything
else, its other candidates are answered with the URL the rule gives,
unclicked (``predict``). A click that stayed on its page counts as
explained when the rule names that page (a tag page's own chip).

Failures (a timeout, a crash) teach nothing. Besides, the memory holds the
crawl's exploration budget (``RenderSettings.explore_budget_s``): seconds
spent exploring, summed over pages; once spent, only remembered outcomes are
used. Pure Python: unit-tested without a browser.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from urllib.parse import quote, unquote, urlsplit

from pw_adaptive.core.links import Link, Region
from pw_adaptive.core.variants import rule_host
from pw_adaptive.render.extract import ClickCandidate

__all__ = [
    "CHROME_REGIONS",
    "INERT_EVIDENCE",
    "PLACEHOLDER_EVIDENCE",
    "ClickKey",
    "ClickMemory",
    "click_key",
    "template_of",
]

CHROME_REGIONS: frozenset[Region] = frozenset(
    {Region.HEADER, Region.NAV, Region.ASIDE, Region.FOOTER}
)
"""Regions repeated on every page of a site: their outcomes are trusted at once."""

INERT_EVIDENCE = 3
"""Candidates of one template (:func:`template_of`) that must have led nowhere,
with none of it leading anywhere, before its others go unclicked."""

MAIN_AGREEMENT = 2
"""Explorations from different pages that must agree before a main-content
candidate's outcome is reused."""

RULE_EVIDENCE = 3
"""Candidates of one template, with different texts, whose targets one rule
explains (:meth:`ClickMemory.predict`) before the template's others are
answered by the rule."""

PLACEHOLDER_EVIDENCE = 3
"""Empty-href anchors of a site that must have reloaded their page, with none
doing anything else, before its other empty-href anchors go unclicked."""

_DIGITS = re.compile(r"\d+")

ClickKey = tuple[str, str, str, str, str, str, str]
"""(host, region, tag, role, text, accessible name, structural path)."""


def _fold(text: str) -> str:
    return _DIGITS.sub("0", " ".join(text.split()).casefold())


def click_key(page_url: str, candidate: ClickCandidate) -> ClickKey:
    """The stable key of ``candidate`` on the page at ``page_url``."""
    return (
        rule_host(page_url),
        str(candidate.region),
        candidate.tag,
        candidate.role,
        _fold(candidate.text),
        _fold(candidate.accessible_name),
        candidate.path,
    )


Template = tuple[str, str, str, str, str]
"""(host, region, tag, role, structural path): a ``ClickKey`` without its texts."""


def template_of(key: ClickKey) -> Template:
    """The template ``key`` is a candidate of: its key without the texts."""
    return (key[0], key[1], key[2], key[3], key[6])


def _words(text: str) -> str:
    """``text`` with its whitespace runs collapsed to single spaces."""
    return " ".join(text.split())


_TEXT_FORMS: dict[str, Callable[[str], str]] = {
    "text": lambda words: words,
    "lower": str.lower,
    "slug": lambda words: words.lower().replace(" ", "-"),
}
"""How a site may write a candidate's text (:func:`_words`) in the URL it leads to."""

_Rule = tuple[str, str, str, str]
"""(origin, path prefix, text form, path suffix): a target path is the prefix,
the candidate's text in that form, and the suffix."""


def _rules_for(text: str, target: str) -> set[_Rule]:
    """The rules that explain a click on a candidate reading ``text`` leading
    to ``target``: one per form of the text found in the target's decoded path
    (its last occurrence), none when the target has a query or a fragment."""
    parts = urlsplit(target)
    if parts.query or parts.fragment or not parts.scheme or not parts.netloc:
        return set()
    origin = f"{parts.scheme}://{parts.netloc}"
    path = unquote(parts.path)
    rules: set[_Rule] = set()
    for name, form in _TEXT_FORMS.items():
        written = form(_words(text))
        at = path.rfind(written) if len(written) >= 2 else -1
        if at > 0:
            rules.add((origin, path[:at], name, path[at + len(written) :]))
    return rules


def _apply(rule: _Rule, text: str) -> str:
    """The URL ``rule`` gives a candidate reading ``text``."""
    origin, prefix, name, suffix = rule
    path = prefix + _TEXT_FORMS[name](_words(text)) + suffix
    return origin + quote(path, safe="/-._~!$&'()*+,;=:@%")


@dataclass
class _TemplateRule:
    """What one template's candidates led to, for :meth:`ClickMemory.predict`."""

    rules: set[_Rule] | None = None
    """The rules every example so far fits (None: no example yet)."""
    texts: set[str] = field(default_factory=set)
    """The distinct texts of the examples."""
    broken: bool = False
    """An example no rule explains: the template gets no rule."""


@dataclass
class _Known:
    outcomes: dict[str, str | None] = field(default_factory=dict)
    """Outcome (a URL, or None for nothing) by the page it was explored from."""
    disagree: bool = False


_UNKNOWN = object()


class ClickMemory:
    """Outcomes of click explorations by ``ClickKey``, and the crawl's exploration time.

    ``budget_s`` None: no per-crawl budget. One memory serves every renderer of
    a crawl (recycled contexts included), and concurrent pages: a candidate
    being explored for one page is not explored twice; another page that has
    it awaits the outcome when it is in the main content, and leaves it to
    the exploring page when it is in the page chrome (which leads to the same
    place from every page).
    """

    def __init__(self, budget_s: float | None = None) -> None:
        if budget_s is not None and budget_s < 0:
            raise ValueError(f"budget_s must be >= 0, got {budget_s}")
        self.budget_s = budget_s
        self.spent_s = 0.0
        """Seconds of exploration so far, summed over pages."""
        self.explored = 0
        """Candidates clicked in a scratch page."""
        self.reused = 0
        """Candidates answered from memory instead."""
        self.placeholders = 0
        """Empty-href anchors answered as placeholders, not clicked."""
        self.opened_together = 0
        """Collapsed menu groups answered by opening a page's groups in turn
        by one script in one copy (counted in ``explored`` too)."""
        self.left_to_others = 0
        """Candidates of the page chrome that another page was exploring at the
        time: left to that page, not awaited."""
        self.inert = 0
        """Candidates answered "nothing" because their template is inert
        (:meth:`inert_template`), not clicked."""
        self.predicted = 0
        """Candidates answered with the URL their template's rule gives
        (:meth:`predict`), not clicked."""
        self.fresh_copies = 0
        """Scratch copies rendered afresh at a page's URL (the page itself
        serves as the first one): each costs about a render of the page."""
        self.restorations = 0
        """Copies that a click moved to another route, brought back to the
        page with ``history.back()`` instead of rendered afresh."""
        self.restorations_failed = 0
        """Copies that ``history.back()`` did not bring back (a fresh copy
        followed, if candidates were left)."""
        self._known: dict[ClickKey, _Known] = {}
        # Links a click of the page chrome rendered without navigating (a menu
        # group built when opened): given again wherever the click is recalled.
        self._revealed: dict[ClickKey, tuple[Link, ...]] = {}
        # Per host: empty-href anchors seen to reload their page, and seen to do
        # anything else (lead elsewhere, or nothing: a script stopped the reload).
        self._empty_href: dict[str, list[int]] = {}
        self._pending: dict[ClickKey, asyncio.Future[str | None]] = {}
        # Per template: the distinct candidates seen to lead nowhere, and
        # whether one of it led anywhere or revealed links.
        self._template_idle: dict[Template, set[ClickKey]] = {}
        self._template_active: set[Template] = set()
        self._template_rules: dict[tuple[Template, str], _TemplateRule] = {}

    def __len__(self) -> int:
        return len(self._known)

    @property
    def budget_left(self) -> bool:
        """Whether exploring new candidates is still allowed."""
        return self.budget_s is None or self.spent_s < self.budget_s

    def recall(self, key: ClickKey, page_url: str) -> object:
        """The remembered outcome of ``key`` (a URL, or None for nothing), or
        ``ClickMemory.UNKNOWN`` when it must be explored from ``page_url``."""
        known = self._known.get(key)
        if known is None or known.disagree:
            return _UNKNOWN
        if page_url in known.outcomes:
            return known.outcomes[page_url]
        values = list(known.outcomes.values())
        # Nothing happened: trusted at once in any region (a widget's button, a
        # toggle); a URL from the main content only once two pages agreed.
        needed = 1 if key[1] in CHROME_REGIONS or values[0] is None else MAIN_AGREEMENT
        if len(values) >= needed:
            return values[0]
        return _UNKNOWN

    UNKNOWN = _UNKNOWN
    """The ``recall`` answer that asks for an exploration."""

    def learn(
        self,
        key: ClickKey,
        page_url: str,
        outcome: str | None,
        *,
        revealed: tuple[Link, ...] = (),
        text: str | None = None,
        group: str = "",
    ) -> None:
        """Remember that ``key``, clicked on ``page_url``, led to ``outcome``
        and added the links ``revealed`` to the page. Links revealed in the
        page chrome are kept and given again with the outcome (``revealed``);
        in the main content they depend on the page, so such a candidate is
        explored again on every page that has it. ``text``: the candidate's
        visible text as it reads (the key's is folded), which teaches its
        template's rule (:meth:`predict`), with ``group``, the label of the
        group it sits in (``ClickCandidate.parent_label``)."""
        template = template_of(key)
        if text is not None:
            self._learn_rule((template, group), text, page_url, outcome, revealed)
        known = self._known.setdefault(key, _Known())
        if revealed and key[1] in CHROME_REGIONS:
            self._revealed[key] = revealed
        elif revealed or (known.outcomes and outcome not in known.outcomes.values()):
            known.disagree = True
        known.outcomes[page_url] = outcome
        self.explored += 1
        if outcome is None and not revealed:
            self._template_idle.setdefault(template, set()).add(key)
        else:
            self._template_active.add(template)

    def _learn_rule(
        self,
        template: tuple[Template, str],
        text: str,
        page_url: str,
        outcome: str | None,
        revealed: tuple[Link, ...],
    ) -> None:
        entry = self._template_rules.setdefault(template, _TemplateRule())
        if entry.broken:
            return
        # A click that stayed on its page is explained by rules that name the
        # page itself (a tag page's chip of its own tag).
        rules = _rules_for(text, outcome if outcome is not None else page_url)
        if revealed or not rules:
            entry.broken = True
            return
        entry.rules = rules if entry.rules is None else entry.rules & rules
        entry.texts.add(_words(text).casefold())
        if not entry.rules:
            entry.broken = True

    def predict(self, key: ClickKey, text: str, group: str = "") -> str | None:
        """The URL a candidate reading ``text`` leads to by its template's rule,
        when :data:`RULE_EVIDENCE` candidates of the template in the same
        ``group`` (their parent's label), with different texts, fit one rule
        and none of it did anything else; else None (also
        when the rules the examples leave open give this text different URLs:
        one-word lower-case tags fit "as it is" and "lower case" alike)."""
        entry = self._template_rules.get((template_of(key), group))
        if (
            entry is None
            or entry.broken
            or not entry.rules
            or len(entry.texts) < RULE_EVIDENCE
            or len(_words(text)) < 2
        ):
            return None
        targets = {_apply(rule, text) for rule in entry.rules}
        return targets.pop() if len(targets) == 1 else None

    def by_template(self, key: ClickKey, candidate: ClickCandidate) -> object:
        """What ``candidate`` (of ``key``) is known to do from its template,
        unclicked: None when the template is inert (:meth:`inert_template`),
        the URL its rule gives (:meth:`predict`), else ``UNKNOWN``; counted
        in ``inert`` or ``predicted``."""
        if self.inert_template(key):
            self.inert += 1
            return None
        predicted = self.predict(key, candidate.text, candidate.parent_label)
        if predicted is None:
            return _UNKNOWN
        self.predicted += 1
        return predicted

    def inert_template(self, key: ClickKey) -> bool:
        """Whether ``key``'s template is known to lead nowhere: at least
        :data:`INERT_EVIDENCE` of its candidates led nowhere and revealed no
        link, and none led anywhere or revealed one."""
        template = template_of(key)
        return (
            template not in self._template_active
            and len(self._template_idle.get(template, ())) >= INERT_EVIDENCE
        )

    def revealed(self, key: ClickKey) -> tuple[Link, ...]:
        """The links a click of ``key`` in the page chrome rendered, if any."""
        return self._revealed.get(key, ())

    def learn_empty_href(self, page_url: str, reloaded: bool) -> None:
        """Remember that an empty-href anchor of ``page_url``'s site, clicked,
        reloaded its page (``reloaded``) or did something else."""
        counts = self._empty_href.setdefault(rule_host(page_url), [0, 0])
        counts[0 if reloaded else 1] += 1

    def placeholder_site(self, page_url: str) -> bool:
        """Whether ``page_url``'s site is known to leave empty-href anchors as
        placeholders: :data:`PLACEHOLDER_EVIDENCE` of them reloaded their page
        and none did anything else."""
        reloads, other = self._empty_href.get(rule_host(page_url), (0, 0))
        return other == 0 and reloads >= PLACEHOLDER_EVIDENCE

    def pending(self, key: ClickKey) -> asyncio.Future[str | None] | None:
        """The exploration of ``key`` in progress for another page, if any."""
        return self._pending.get(key)

    @contextmanager
    def exploring(self, key: ClickKey) -> Iterator[asyncio.Future[str | None]]:
        """Mark ``key`` as being explored; the future gets the outcome (or an
        exception on failure) from the caller, and is forgotten on exit."""
        future: asyncio.Future[str | None] = asyncio.get_running_loop().create_future()
        self._pending[key] = future
        try:
            yield future
        finally:
            self._pending.pop(key, None)
            if not future.done():
                future.set_exception(LookupError("exploration failed"))
            future.exception()  # retrieved: nobody waiting is not an error

    def stats(self) -> dict[str, float]:
        """What the crawl's exploration did (the summary's ``exploration``):
        candidates clicked and answered without a click, by kind, scratch
        copies and restorations, and the seconds spent."""
        return {
            "clicked": self.explored,
            "opened_together": self.opened_together,
            "reused": self.reused,
            "inert": self.inert,
            "predicted": self.predicted,
            "placeholders": self.placeholders,
            "left_to_others": self.left_to_others,
            "fresh_copies": self.fresh_copies,
            "restorations": self.restorations,
            "restorations_failed": self.restorations_failed,
            "spent_s": round(self.spent_s, 3),
        }

    def spend(self, seconds: float) -> None:
        """Count ``seconds`` of one page's exploration against the budget."""
        self.spent_s += max(0.0, seconds)
