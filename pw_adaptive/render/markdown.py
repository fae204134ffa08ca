"""Cleaned HTML to markdown, for people and for the relevance and evidence counts.

``html_to_markdown`` is pure (no browser): markdownify over a BeautifulSoup tree
with these choices:

* ATX headings (``## Fees``), ``-`` bullets, tables as pipe tables (first row as
  header when the table has none);
* content links kept as ``[text](url)`` when the URL is http(s), so a reader can
  follow a fact to its source; other links (``javascript:``, ``mailto:``, bare
  fragments) and links wrapping block content (card links around a heading and a
  paragraph) keep only their text; pass ``links=False`` to drop every URL;
* credentials (``user:password@``) removed from every http(s) URL, in links and
  in text alike;
* images become their alt text (images are not fetched; the alt text is what a
  screen reader says), without ``![](...)`` syntax;
* scripts, styles, ``noscript``, templates, SVG, iframes, form controls and
  comments removed, whatever the caller passed;
* layout tags unknown to markdownify (``main``, ``header``, ``details``, ``figure``
  ...) treated as blocks, so their texts do not run together;
* underscores not escaped (identifiers, file names); trailing spaces stripped;
  ``<br>`` becomes a plain newline; three or more newlines collapse to one blank line.
"""

from __future__ import annotations

import re
from typing import Any

from bs4 import BeautifulSoup, Comment
from markdownify import MarkdownConverter

__all__ = ["html_to_markdown"]

_REMOVED_TAGS = (
    "script",
    "style",
    "noscript",
    "template",
    "svg",
    "math",
    "iframe",
    "object",
    "embed",
    "canvas",
    "head",
    "select",
    "input",
    "textarea",
    "button",
)
# Buttons are UI (tab labels are kept by the renderer as spans; a raw <button> in
# arbitrary HTML is mostly "Menu", "Search", "Close").
_BLOCK_TAGS = (
    "main",
    "header",
    "footer",
    "nav",
    "aside",
    "details",
    "summary",
    "figure",
    "form",
    "fieldset",
    "address",
    "hgroup",
    "dialog",
    "center",
    "legend",
)
_TRAILING_SPACES = re.compile(r"[ \t]+$", re.MULTILINE)
# The userinfo ("user:password@", RFC 3986 3.2.1) of an http(s) URL anywhere in
# the markdown, link targets and visible text alike: credentials never reach
# the output. It runs to the last "@" before the host's end ("/", "?", "#").
_URL_USERINFO = re.compile(r"\b(https?://)[^\s/?#()\[\]<>]*@", re.IGNORECASE)
_BLANK_RUNS = re.compile(r"\n{3,}")


class _Converter(MarkdownConverter):
    """markdownify with pw_adaptive's choices for links, images and line breaks."""

    def __init__(self, *, links: bool) -> None:
        super().__init__(
            heading_style="atx",
            bullets="-",
            escape_underscores=False,
            escape_asterisks=True,
            table_infer_header=True,
            strip_document="strip",
        )
        self._links = links

    def convert_a(self, el: Any, text: str, parent_tags: set[str]) -> str:
        href = str(el.get("href") or "")
        content = text.strip()
        if (
            not self._links
            or not content
            or "_noformat" in parent_tags  # inside code or pre
            or "\n" in content  # a link around block content: keep the content
            or not re.match(r"https?://", href, re.IGNORECASE)
        ):
            return text
        lead = " " if text[:1].isspace() else ""
        trail = " " if text[-1:].isspace() else ""
        return f"{lead}[{content}]({href.replace(' ', '%20').replace(')', '%29')}){trail}"

    def convert_img(self, el: Any, text: str, parent_tags: set[str]) -> str:
        alt = " ".join(str(el.get("alt") or "").split())
        return alt

    def convert_br(self, el: Any, text: str, parent_tags: set[str]) -> str:
        return " " if "_inline" in parent_tags else "\n"


def html_to_markdown(html: str, *, links: bool = True) -> str:
    """Convert ``html`` (a fragment or a document) to markdown; see the module doc.

    With ``links=False`` every link becomes its text alone.
    """
    if not html.strip():
        return ""
    soup = BeautifulSoup(html, "html.parser")
    for tag in soup.find_all(_REMOVED_TAGS):
        tag.decompose()
    for comment in soup.find_all(string=lambda node: isinstance(node, Comment)):
        comment.extract()
    for tag in soup.find_all(_BLOCK_TAGS):
        tag.name = "div"
    markdown: str = _Converter(links=links).convert_soup(soup)
    markdown = _TRAILING_SPACES.sub("", markdown)
    markdown = _BLANK_RUNS.sub("\n\n", markdown)
    if "@" in markdown:
        markdown = _URL_USERINFO.sub(r"\1", markdown)
    return markdown.strip()
