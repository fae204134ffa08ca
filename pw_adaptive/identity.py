"""How the crawler names itself to the sites it visits: version, robots.txt
product token and the default User-Agent header.

The default User-Agent follows the search engines' rendering crawlers
(Googlebot and Bingbot announce themselves inside a Chrome User-Agent): it
keeps Chromium's engine tokens (``AppleWebKit/537.36 (KHTML, like Gecko)
Chrome/<major>.0.0.0 Safari/537.36``), because portals that sniff the browser
serve a bare "browser not supported" page, or no scripts, to a string they do
not recognise as a modern browser, and a crawler that renders JavaScript wants
the page a browser user gets. Inside it, ``compatible; pw-adaptive/<version>;
+<url>`` names the crawler, its version and where to read about it, so a site
operator can tell it apart, find out what it is and match it in robots.txt;
``HeadlessChrome``, which only says how the browser runs, is not sent.
"""

from __future__ import annotations

__all__ = ["INFO_URL", "ROBOTS_TOKEN", "__version__", "default_user_agent"]

__version__ = "0.1.0"
"""The package version (pyproject.toml reads it from here)."""

ROBOTS_TOKEN = "pw-adaptive"
"""The product token robots.txt groups are matched against (RFC 9309 2.2.1:
letters, digits, ``-`` and ``_``), sent at the start of the crawler's part of
the User-Agent."""

INFO_URL = "https://pypi.org/project/pw-adaptive/"
"""Where a site operator reads what the crawler is (in the User-Agent)."""


def default_user_agent(browser_version: str) -> str:
    """The User-Agent the crawler sends from a Chromium of ``browser_version``
    (``Browser.version``, e.g. ``"131.0.6778.85"``): Chrome's reduced form, which
    gives only the major version, with the crawler named in it (see the module
    doc). An unparsable version gives the User-Agent without the Chrome token."""
    major = browser_version.split(".", 1)[0].strip()
    chrome = f" Chrome/{major}.0.0.0" if major.isdigit() else ""
    return (
        f"Mozilla/5.0 (compatible; {ROBOTS_TOKEN}/{__version__}; +{INFO_URL}) "
        f"AppleWebKit/537.36 (KHTML, like Gecko){chrome} Safari/537.36"
    )
