"""Northgate Institute of Technology: a multi-page site built from web components.

Every page is a small server-rendered shell (``<nit-header>``, ``<nit-page>``,
``<nit-footer>`` and the page's data as inline JSON). The components render all
visible content, links included, into OPEN shadow roots, nested several levels
deep. Programme pages carry tabs whose panels are fetched from the JSON API only
when the tab is activated (a click, or loading the tab's own URL, which the tab
links to); accordions keep their text in the DOM but collapsed; the news list
shows six items and a "Load more" button that fetches the rest, one of them the
only link to a relevant article. Unknown paths are real 404s.
"""

from __future__ import annotations

import json

from fixtures_site.common import (
    Portal,
    Request,
    Response,
    html,
    json_response,
    pdf_response,
    text,
)
from fixtures_site.portals._shared_b import esc
from fixtures_site.portals._webcomponents_js import NIT_JS, SITE_CSS
from fixtures_site.portals._webcomponents_pages import (
    LINKED_TABS,
    NEWS,
    NEWS_PAGE_SIZE,
    PAGES,
    PDFS,
    PROGRAMMES,
    SITE,
    TAB_DELAY_S,
    PageData,
    news_item,
    page,
    programme_page,
    programme_panel,
)

# --- serving -----------------------------------------------------------------


def shell(path: str, data: PageData, status: int = 200) -> Response:
    title = data["title"] if data["title"] == SITE else f"{data['title']} | {SITE}"
    payload = json.dumps(data, ensure_ascii=False).replace("</", "<\\/")
    body = f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{esc(title)}</title>
<link rel="stylesheet" href="/static/site.css">
</head>
<body>
<nit-header current="{esc(path)}"></nit-header>
<main id="main"><nit-page></nit-page></main>
<nit-footer></nit-footer>
<script type="application/json" id="nit-data">{payload}</script>
<script src="/static/nit.js"></script>
</body>
</html>
"""
    return html(body, status=status)


def api_news(request: Request) -> Response:
    params = request.params
    try:
        offset = max(0, int(params.get("offset", ["0"])[0]))
        limit = max(1, min(20, int(params.get("limit", [str(NEWS_PAGE_SIZE)])[0])))
    except ValueError:
        return json_response({"error": "bad offset or limit"}, status=400)
    items = [news_item(n) for n in NEWS[offset : offset + limit]]
    return json_response({"items": items, "more": offset + limit < len(NEWS)}, delay_s=0.2)


def handle(request: Request) -> Response:
    path = request.path
    if path == "/static/nit.js":
        return text(NIT_JS, content_type="text/javascript; charset=utf-8")
    if path == "/static/site.css":
        return text(SITE_CSS, content_type="text/css; charset=utf-8")
    if path == "/robots.txt":
        return text("User-agent: *\nDisallow: /api/\n")
    if path == "/api/news":
        return api_news(request)
    parts = path.strip("/").split("/")
    if len(parts) == 4 and parts[:2] == ["api", "programmes"] and parts[2] in PROGRAMMES:
        blocks = programme_panel(parts[2], parts[3])
        if blocks is None:
            return json_response({"error": "no such section"}, status=404)
        return json_response({"blocks": blocks}, delay_s=TAB_DELAY_S)
    if path in PDFS:
        title, lines = PDFS[path]
        return pdf_response(title, lines)
    if path in PAGES:
        return shell(path, PAGES[path])
    if len(parts) in (3, 4) and parts[:2] == ["study", "programmes"] and parts[2] in PROGRAMMES:
        slug = parts[2]
        if len(parts) == 3 and path.endswith("/"):
            return shell(path, programme_page(slug, "overview"))
        if len(parts) == 4 and parts[3] in LINKED_TABS:
            return shell(path, programme_page(slug, parts[3]))
    missing = page(
        "Page not found",
        ["The page you were looking for has moved or never existed."],
        [{"type": "links", "heading": "Try instead", "links": [{"text": "Home", "href": "/"}]}],
    )
    return shell(path, missing, status=404)


PORTAL = Portal(
    name="webcomponents",
    handle=handle,
    description="Northgate Institute of Technology: shadow-DOM components, click-fetched tabs, Load more, accordions",
)
