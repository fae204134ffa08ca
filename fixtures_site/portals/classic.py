"""Portal 3, ``classic``: Alder Valley University, a server-rendered multi-page site.

The plain baseline: every page is complete HTML from the server, with
``<link rel="canonical">`` pointing at its plain URL. Each page also exists as
a ``?print=1`` duplicate (same content, printer layout, canonical to the plain
URL). Old URLs redirect in a chain (301 then 302) to their final pages; a path
without its trailing slash is redirected (301) to the slashed one. Unknown
paths are real 404s.
"""

from __future__ import annotations

from fixtures_site.common import (
    Portal,
    Request,
    Response,
    html,
    not_found,
    pdf_response,
    redirect,
    text,
)
from fixtures_site.portals._classic_pages import (
    ATTACHMENTS,
    FOOTER,
    NAV,
    PAGES,
    REDIRECTS,
    UNIVERSITY,
)
from fixtures_site.portals._kit import Page, esc

STYLE = """
body{font-family:Helvetica,Arial,sans-serif;margin:0;color:#202020}
.top{background:#5b2333;color:#fff;padding:.8rem 2rem}
.top a{color:#fff;margin-right:1rem}
.brand{font-size:1.4rem;font-weight:bold;text-decoration:none;display:block;margin-bottom:.4rem}
.wrap{max-width:60rem;margin:1.5rem auto;padding:0 1rem}
.cards{display:flex;gap:1rem;flex-wrap:wrap}.card{border:1px solid #ddd;padding:1rem;width:16rem}
.news{list-style:none;padding:0}
table{border-collapse:collapse}td,th{border:1px solid #aaa;padding:.3rem .6rem}
.tools{font-size:.85rem;text-align:right}
footer{border-top:3px solid #5b2333;padding:1rem 2rem;font-size:.9rem}footer a{margin-right:1rem}
@media print{.top,footer,.tools{display:none}}
"""


def _origin(request: Request) -> str:
    host = request.headers.get("host", "")
    return f"http://{host}" if host else ""


def _breadcrumbs(path: str) -> str:
    crumbs = ['<a href="/">Home</a>']
    parts = [p for p in path.strip("/").split("/") if p]
    for i in range(1, len(parts)):
        sub = "/" + "/".join(parts[:i]) + "/"
        page = PAGES.get(sub)
        if page is not None:
            crumbs.append(f'<a href="{esc(sub)}">{esc(page.title)}</a>')
    return '<nav aria-label="Breadcrumb" class="crumbs">' + " &rsaquo; ".join(crumbs) + "</nav>"


def render_page(path: str, page: Page, request: Request, printable: bool) -> str:
    canonical = _origin(request) + path
    head = (
        '<!doctype html><html lang="en-US"><head><meta charset="utf-8">'
        f"<title>{esc(page.title)} | {UNIVERSITY}</title>"
        f'<link rel="canonical" href="{esc(canonical)}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<style>{STYLE}</style></head><body>"
    )
    if printable:
        return (
            head
            + f'<p class="printed">{UNIVERSITY} &middot; printer-friendly version</p>'
            + f'<main class="wrap">{page.body}</main></body></html>'
        )
    nav = "".join(f'<a href="{esc(href)}">{esc(label)}</a>' for label, href in NAV)
    foot = "".join(f'<a href="{esc(href)}">{esc(label)}</a>' for label, href in FOOTER)
    crumbs = _breadcrumbs(path) if path != "/" else ""
    return (
        head
        + f'<header class="top"><a class="brand" href="/">{UNIVERSITY}</a>'
        + f'<nav aria-label="Main">{nav}</nav></header>'
        + f'<div class="wrap">{crumbs}'
        + f'<p class="tools"><a href="{esc(path)}?print=1">Print this page</a></p>'
        + f"<main>{page.body}</main></div>"
        + f'<footer><nav aria-label="Footer">{foot}</nav>'
        + f"<p>&copy; {UNIVERSITY}, 1200 University Way, Alder Valley, OR 97399.</p>"
        + "</footer></body></html>"
    )


def routes() -> list[str]:
    return list(PAGES)


def handle(request: Request) -> Response:
    path = request.path
    if path in REDIRECTS:
        status, location = REDIRECTS[path]
        return redirect(location, status=status)
    if path.startswith("/files/"):
        doc = ATTACHMENTS.get(path)
        return pdf_response(doc.title, doc.lines) if doc else not_found()
    if path == "/robots.txt":
        return text("User-agent: *\nAllow: /\n")
    page = PAGES.get(path)
    if page is None and not path.endswith("/") and path + "/" in PAGES:
        return redirect(path + "/", status=301)
    if page is None:
        return not_found("Page not found")
    printable = request.params.get("print", [""])[0] == "1"
    return html(render_page(path, page, request, printable))


PORTAL = Portal(
    "classic",
    handle,
    "Alder Valley University: server-rendered baseline with rel=canonical, ?print=1 "
    "duplicates and a 301 -> 302 redirect chain",
)
