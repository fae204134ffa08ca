"""Small helpers shared by the hand-written portals (spa_hash, spa_history, classic, large).

Not a portal itself (the leading underscore keeps the loader away). Page content
lives in each portal's ``_<name>_pages.py`` module as data; these helpers only
turn that data into HTML fragments.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html import escape

__all__ = [
    "Attachment",
    "Page",
    "card",
    "cards",
    "esc",
    "news_list",
    "staff_table",
    "strip_tags",
]


def esc(value: str) -> str:
    return escape(value, quote=True)


@dataclass(frozen=True)
class Page:
    """One page of a portal: its title and the HTML of its main content."""

    title: str
    body: str
    # routes or paths this page is an alias of are handled by the portal; this is content only
    description: str = ""


@dataclass(frozen=True)
class Attachment:
    """A PDF the portal serves: its title and its lines of text."""

    title: str
    lines: list[str] = field(default_factory=list)


def card(heading: str, text: str, href: str, label: str = "Learn more") -> str:
    """A teaser card whose generic link text ("Learn more") relies on its heading."""
    return (
        '<article class="card">'
        f"<h3>{esc(heading)}</h3>"
        f"<p>{esc(text)}</p>"
        f'<a class="more" href="{esc(href)}">{esc(label)}</a>'
        "</article>"
    )


def cards(items: list[tuple[str, str, str]] | list[tuple[str, str, str, str]]) -> str:
    parts = [card(*item) for item in items]
    return '<div class="cards">' + "".join(parts) + "</div>"


def news_list(items: list[tuple[str, str, str, str]], label: str = "Read more") -> str:
    """News teasers: (date, heading, summary, href)."""
    out = ['<ul class="news">']
    for date, heading, summary, href in items:
        out.append(
            f"<li><time>{esc(date)}</time><h3>{esc(heading)}</h3><p>{esc(summary)}</p>"
            f'<a href="{esc(href)}">{esc(label)}</a></li>'
        )
    out.append("</ul>")
    return "".join(out)


def staff_table(rows: list[tuple[str, str, str, str]]) -> str:
    """A staff directory: (name, role, unit, email)."""
    out = [
        '<table class="staff"><thead><tr><th>Name</th><th>Role</th><th>Unit</th>'
        "<th>Email</th></tr></thead><tbody>"
    ]
    for name, role, unit, email in rows:
        out.append(
            f"<tr><td>{esc(name)}</td><td>{esc(role)}</td><td>{esc(unit)}</td>"
            f'<td><a href="mailto:{esc(email)}">{esc(email)}</a></td></tr>'
        )
    out.append("</tbody></table>")
    return "".join(out)


_TAG = re.compile(r"<[^>]+>")
_SPACE = re.compile(r"\s+")


def strip_tags(fragment: str) -> str:
    """Visible-ish text of an HTML fragment: tags removed, entities decoded, spaces collapsed."""
    from html import unescape

    return _SPACE.sub(" ", unescape(_TAG.sub(" ", fragment))).strip()
