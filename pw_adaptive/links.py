"""Links as a person sees them, and how much each one promises for a query.

A link carries what the rendered page shows about it: its visible text, its
accessible name (aria-label, title, img alt) for icon links, the region of the
page it sits in, the heading of the card or list around it, and whether it was
visible. Scoring and blindness are defined in the project DESIGN ("Links and
blindness").
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


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
    visible: bool = True
    """False for links in collapsed menus, closed tabs and the like."""
    via_click: bool = False
    """True when the URL was found by clicking an element that has no href."""
