"""Run the in-page extraction script and turn its JSON into records.

The script (``extract.js``, shipped next to this module) does everything that
needs the live DOM in a single ``page.evaluate``; this module only converts
and classifies its output, so most of it is pure and testable without a browser.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from playwright.async_api import Page

from pw_adaptive.core.links import Link, Region
from pw_adaptive.pages import ATTACHMENT_EXTENSIONS, Attachment, attachment_kind
from pw_adaptive.text.normalize import normalize_main_text

# ATTACHMENT_EXTENSIONS and attachment_kind live in pw_adaptive.pages; re-exported.
__all__ = [
    "ATTACHMENT_EXTENSIONS",
    "HOLD_POPUPS",
    "TAKE_OPENED",
    "ClickCandidate",
    "Extraction",
    "attachment_kind",
    "extract_page",
    "extraction_script",
    "mark_click_candidates",
    "split_links",
]

_SPACES = re.compile(r"\s+")


@dataclass(frozen=True)
class ClickCandidate:
    """An element without an href that may navigate when clicked."""

    index: int
    """Ordinal among the page's candidates, stable across fresh loads of the page."""
    priority: int
    """3 role=link or href="#" anchor, 2 onclick/data-route, 1 button, 0 cursor:pointer."""
    text: str
    """Visible text, whitespace collapsed."""
    accessible_name: str
    """aria-label, aria-labelledby, title or img alt."""
    region: Region
    """Page region the element sits in."""
    context_heading: str
    """Heading of the card, list or section around it."""
    context_text: str = ""
    """Text of the card or list item around it (its teaser), as for links;
    empty outside the main content and side columns."""
    tag: str = ""
    """Element name (``button``, ``div``, ...)."""
    role: str = ""
    """Its ``role`` attribute, lower case (may be empty)."""
    path: str = ""
    """Tag names of it and up to 7 ancestors, outermost first (``div>aside>ul>li>p``):
    with the texts and the region, how ``ClickMemory`` knows it on another page."""
    empty_href: bool = False
    """An anchor whose href is empty (``<a href>``): a template's placeholder for
    a missing URL, or a script's click target. Unless a script stops it, a click
    reloads the page itself (``ClickMemory.placeholders``)."""
    group: bool = False
    """A collapsed group of a navigation menu whose list is mounted only when it
    is opened (Docusaurus's sidebar categories, marked ``aria-expanded="false"``;
    Vuetify's v-list-group headers, so marked, alone in their wrapper in a menu
    of blocks; vuepress-theme-hope's, plain buttons that are all their menu item holds): a
    click renders links in place and navigates nowhere, so a page's groups
    are opened in turn by one script in one copy (``clicks.py``)."""
    parent_label: str = ""
    """The ``aria-label`` of its parent element, the group it belongs to ("Tag"
    beside "Category": two lists of chips of one template that lead to
    different sections). Not part of its ``ClickMemory`` key; it tells the
    template's URL rules apart (``ClickMemory.predict``)."""


@dataclass(frozen=True)
class Extraction:
    """What the extraction script found on a ready page."""

    url: str
    """``location.href`` when extracted."""
    title: str
    """Document title, else the first h1-h3 of the main content."""
    canonical: str | None
    """Absolute ``rel=canonical`` URL."""
    html: str
    """Main content as minimal HTML, ready for markdownify."""
    main_text: str
    """Main content as plain text, one block per line."""
    headings: tuple[str, ...]
    """h1-h3 texts of the main content, in order."""
    links: tuple[Link, ...]
    """Page links (attachments removed), exact repeats removed."""
    attachments: tuple[Attachment, ...]
    """Document links, one per URL."""
    clicks: tuple[ClickCandidate, ...]
    """Click-only candidates in document order (unfiltered by the exploration bound)."""
    truncated: bool = False
    """The DOM was larger than the extraction's bounds: its end was left out."""


@cache
def extraction_script() -> str:
    """The text of ``extract.js`` (a function expression taking ``{mode, maxCandidates}``)."""
    return resources.files("pw_adaptive.render").joinpath("extract.js").read_text("utf-8")


@cache
def _extraction_as_json() -> str:
    """``extract.js`` with its result turned into one JSON string in the page.

    Playwright's client checks every value it receives against its protocol
    schema, node by node: a page's extraction (its HTML, a record per link)
    is thousands of nodes, and checking them was most of the crawl's own CPU
    (1.8 of 2.5 s over a 40-page crawl of a real handbook, in a scratch
    profile). One string is one node, and ``json.loads`` reads it at C
    speed. A page can break ``JSON`` (an old library's
    ``Array.prototype.toJSON`` turns arrays into strings): when the string
    does not read back as the script's shape, the value itself is returned
    and Playwright serializes it."""
    body = extraction_script().strip().removesuffix(";")
    return f"""(opts) => {{
  const out = ({body}
  )(opts);
  try {{
    const text = JSON.stringify(out);
    const back = JSON.parse(text);
    if (Array.isArray(back.links) && Array.isArray(back.clicks) && Array.isArray(back.headings))
      return text;
  }} catch (e) {{}}
  return out;
}}"""


def _region(value: object) -> Region:
    try:
        return Region(str(value))
    except ValueError:
        return Region.MAIN


def split_links(raw_links: Iterable[Mapping[str, Any]]) -> tuple[list[Link], list[Attachment]]:
    """Turn the script's raw link records into page links and attachments.

    Exact repeats of a link are dropped (order kept); attachments are kept once per
    URL, with the first non-empty text seen for it.
    """
    links: list[Link] = []
    seen: set[Link] = set()
    attachments: dict[str, Attachment] = {}
    for raw in raw_links:
        url = str(raw.get("url") or "")
        if not url:
            continue
        text = str(raw.get("text") or "")
        name = str(raw.get("name") or "")
        kind = attachment_kind(
            url, download=bool(raw.get("download")), media_type=str(raw.get("type") or "")
        )
        if kind is not None:
            known = attachments.get(url)
            if known is None or (not known.text and (text or name)):
                attachments[url] = Attachment(url=url, text=text or name, kind=kind)
            continue
        link = Link(
            url=url,
            text=text,
            accessible_name=name,
            region=_region(raw.get("region")),
            context_heading=str(raw.get("heading") or ""),
            context_text=str(raw.get("teaser") or ""),
            visible=bool(raw.get("visible", True)),
        )
        if link not in seen:
            seen.add(link)
            links.append(link)
    return links, list(attachments.values())


def _candidates(raw_clicks: Sequence[Mapping[str, Any]]) -> tuple[ClickCandidate, ...]:
    return tuple(
        ClickCandidate(
            index=int(raw.get("index", 0)),
            priority=int(raw.get("priority", 0)),
            text=str(raw.get("text") or ""),
            accessible_name=str(raw.get("name") or ""),
            region=_region(raw.get("region")),
            context_heading=str(raw.get("heading") or ""),
            context_text=str(raw.get("teaser") or ""),
            tag=str(raw.get("tag") or ""),
            role=str(raw.get("role") or ""),
            path=str(raw.get("path") or ""),
            empty_href=bool(raw.get("emptyHref")),
            group=bool(raw.get("group")),
            parent_label=str(raw.get("parentLabel") or ""),
        )
        for raw in raw_clicks
    )


async def extract_page(
    page: Page, *, max_elements: int | None = None, max_chars: int | None = None
) -> Extraction:
    """Run the extraction script once on a ready ``page`` and convert its output.

    ``max_elements`` and ``max_chars`` bound the walk of a huge DOM: elements
    past the first ``max_elements`` and text past ``max_chars`` characters are
    left out (``Extraction.truncated``)."""
    opts: dict[str, Any] = {"mode": "extract"}
    if max_elements is not None:
        opts["maxElements"] = max_elements
    if max_chars is not None:
        opts["maxChars"] = max_chars
    raw: Any = await page.evaluate(_extraction_as_json(), opts)
    if isinstance(raw, str):
        raw = json.loads(raw)
    links, attachments = split_links(raw.get("links") or ())
    canonical = raw.get("canonical")
    return Extraction(
        url=str(raw.get("url") or page.url),
        title=_SPACES.sub(" ", str(raw.get("title") or "")).strip(),
        canonical=str(canonical) if canonical else None,
        html=str(raw.get("html") or ""),
        main_text=normalize_main_text(str(raw.get("text") or "")),
        headings=tuple(str(h) for h in raw.get("headings") or ()),
        links=tuple(links),
        attachments=tuple(attachments),
        clicks=_candidates(raw.get("clicks") or ()),
        truncated=bool(raw.get("truncated")),
    )


HOLD_POPUPS = """() => {
  if (window.__pwAdaptiveOpened) return;
  window.__pwAdaptiveOpened = [];
  window.open = function (url) {
    try { window.__pwAdaptiveOpened.push(new URL(String(url ?? ""), location.href).href); }
    catch (e) {}
    return null;
  };
}"""
"""Makes ``window.open`` record the URL asked for (absolute) in
``window.__pwAdaptiveOpened`` and open nothing (:func:`mark_click_candidates`)."""

TAKE_OPENED = "() => (window.__pwAdaptiveOpened || []).splice(0)"
"""The URLs ``window.open`` was asked for since the last call (see ``HOLD_POPUPS``)."""


async def mark_click_candidates(page: Page) -> list[str]:
    """Mark the candidates of a copy of a page with ``data-pw-adaptive-click``
    (their ordinal; marks left by an earlier marking are taken off first) and
    return their texts by ordinal. The copy serves only
    for clicks from now on, so its ``window.open`` opens no window
    (``HOLD_POPUPS``): a share button's window to another site cost a
    renderer process and an error page (offline) or a request to that site."""
    await page.evaluate(HOLD_POPUPS)
    texts: list[Any] = await page.evaluate(extraction_script(), {"mode": "mark"})
    return [str(t) for t in texts]
