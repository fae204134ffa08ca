"""Portal 2, ``spa_history``: Kestrel Bay University, a History-API single-page app.

Every path that is not an API call, a script or a file returns the same shell
with HTTP 200, even when no such page exists: the client asks ``/api/view`` and
renders "Page not found" itself (a soft-404). The router intercepts clicks on
same-origin ``<a href>`` links and calls ``history.pushState``. The header
mega-menu's links are in the DOM but hidden (``display:none``) until hover or
keyboard focus. One page (``BUTTON_ONLY_PATH``) is reached only by a
``role="link"`` element whose click handler calls ``history.pushState``.
"""

from __future__ import annotations

import json

from fixtures_site.common import (
    Portal,
    Request,
    Response,
    html,
    json_response,
    not_found,
    pdf_response,
    text,
)
from fixtures_site.portals._kit import esc
from fixtures_site.portals._spa_history_pages import (
    ATTACHMENTS,
    BUTTON_ONLY_PATH,
    FOOTER,
    MEGA_MENU,
    NOT_FOUND,
    PAGES,
    UNIVERSITY,
)

API_DELAY_S = 0.15

# Destinations of click-only elements (``data-goto`` keys); never written as an href.
GOTO = {"paperwork": BUTTON_ONLY_PATH}

STYLE = """
body{font-family:system-ui,sans-serif;margin:0;color:#222}
header{background:#0b5d4b;color:#fff;padding:.6rem 2rem;display:flex;gap:2rem;align-items:center}
header a{color:#fff}
.brand{font-weight:700;font-size:1.3rem;text-decoration:none}
.mega{display:flex;gap:1.5rem;list-style:none;margin:0;padding:0}
.mega>li{position:relative}
.mega .label{cursor:default;padding:.4rem 0;display:inline-block}
.mega .panel{display:none;position:absolute;top:100%;left:0;background:#fff;color:#222;
  box-shadow:0 4px 12px rgba(0,0,0,.25);padding:.8rem 1.2rem;min-width:14rem;z-index:5}
.mega .panel a{color:#0b5d4b;display:block;padding:.25rem 0}
.mega>li:hover .panel,.mega>li:focus-within .panel{display:block}
main{max-width:62rem;margin:1.5rem auto;padding:0 1rem;min-height:18rem}
.cards{display:flex;gap:1rem;flex-wrap:wrap}
.card{border:1px solid #cde;padding:1rem;width:17rem;border-radius:6px}
[role=link]{color:#0b5d4b;text-decoration:underline;cursor:pointer}
.news{list-style:none;padding:0}
table{border-collapse:collapse}td,th{border:1px solid #bbb;padding:.3rem .6rem}
footer{background:#f3f3f3;padding:1rem 2rem;font-size:.9rem}footer a{margin-right:1rem}
"""

APP_JS = f"""
(function () {{
  "use strict";
  var GOTO = {json.dumps(GOTO)};
  var main = document.getElementById("main");
  var seq = 0;
  function render() {{
    var path = location.pathname;
    var mine = ++seq;
    main.setAttribute("aria-busy", "true");
    fetch("/api/view?path=" + encodeURIComponent(path))
      .then(function (res) {{ return res.json(); }})
      .then(function (data) {{
        if (mine !== seq) return;
        document.title = data.title + " | {UNIVERSITY}";
        main.innerHTML = data.html;
        main.removeAttribute("aria-busy");
        window.scrollTo(0, 0);
      }});
  }}
  function go(path) {{
    history.pushState({{}}, "", path);
    render();
  }}
  document.addEventListener("click", function (event) {{
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    var target = event.target.closest("[data-goto]");
    if (target && GOTO[target.getAttribute("data-goto")]) {{
      event.preventDefault();
      go(GOTO[target.getAttribute("data-goto")]);
      return;
    }}
    var a = event.target.closest("a[href]");
    if (!a || a.target || a.origin !== location.origin) return;
    if (a.pathname.indexOf("/files/") === 0 || a.protocol === "mailto:") return;
    event.preventDefault();
    if (a.pathname !== location.pathname) go(a.pathname);
  }});
  document.addEventListener("keydown", function (event) {{
    if (event.key !== "Enter") return;
    var target = event.target.closest && event.target.closest("[data-goto]");
    if (target && GOTO[target.getAttribute("data-goto")]) go(GOTO[target.getAttribute("data-goto")]);
  }});
  window.addEventListener("popstate", render);
  render();
}})();
"""


def _mega_menu() -> str:
    items = []
    for label, links in MEGA_MENU:
        inner = "".join(f'<a href="{esc(href)}">{esc(text_)}</a>' for text_, href in links)
        items.append(
            f'<li><span class="label" tabindex="0">{esc(label)}</span>'
            f'<div class="panel">{inner}</div></li>'
        )
    return '<ul class="mega">' + "".join(items) + "</ul>"


def _shell() -> str:
    foot = "".join(f'<a href="{esc(href)}">{esc(label)}</a>' for label, href in FOOTER)
    return (
        '<!doctype html><html lang="en-AU"><head><meta charset="utf-8">'
        f"<title>{UNIVERSITY}</title>"
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<style>{STYLE}</style></head><body>"
        f'<header><a class="brand" href="/">{UNIVERSITY}</a>'
        f'<nav aria-label="Main menu">{_mega_menu()}</nav></header>'
        '<main id="main"></main>'
        f'<footer><nav aria-label="Footer">{foot}</nav>'
        f"<p>&copy; {UNIVERSITY}. CRICOS Provider Code 09999Z.</p></footer>"
        '<script src="/static/router.js"></script></body></html>'
    )


SHELL = _shell()


def view_data(path: str) -> tuple[int, dict[str, str]]:
    """The API answer for a client path: (HTTP status, {title, html})."""
    if len(path) > 1:
        path = path.rstrip("/")
    page = PAGES.get(path or "/")
    if page is None:
        return 404, {"title": NOT_FOUND.title, "html": NOT_FOUND.body}
    return 200, {"title": page.title, "html": page.body}


def routes() -> list[str]:
    return list(PAGES)


def handle(request: Request) -> Response:
    path = request.path
    if path == "/static/router.js":
        return text(APP_JS, "application/javascript; charset=utf-8")
    if path == "/api/view":
        wanted = request.params.get("path", ["/"])[0]
        status, data = view_data(wanted)
        return json_response(data, status=status, delay_s=API_DELAY_S)
    if path.startswith("/api/"):
        return json_response({"error": "unknown endpoint"}, status=404)
    if path.startswith("/files/"):
        doc = ATTACHMENTS.get(path)
        if doc is None:
            return not_found()
        return pdf_response(doc.title, doc.lines)
    if path == "/robots.txt":
        return text("User-agent: *\nAllow: /\n")
    # Every other path gets the shell with 200: the client decides what exists.
    return html(SHELL)


PORTAL = Portal(
    "spa_history",
    handle,
    "Kestrel Bay University: History-API SPA with soft-404s, hover mega-menu and a "
    "click-only route",
)
