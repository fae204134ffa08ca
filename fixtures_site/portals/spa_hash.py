"""Portal 1, ``spa_hash``: Northbridge University, a hash-routed single-page app.

``/`` serves a shell whose script reads ``location.hash`` (``#/...`` and, for the
money section, ``#!/...``), fetches ``/api/page?route=...`` (answered after a
server-side delay) and renders the returned HTML after a further client delay.
Nothing but the header and footer is in the HTML the server sends.
"""

from __future__ import annotations

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
from fixtures_site.portals._spa_hash_pages import (
    ATTACHMENTS,
    FOOTER,
    NAV,
    NOT_FOUND,
    PAGES,
    UNIVERSITY,
)

API_DELAY_S = 0.3  # server-side delay of the page API
RENDER_DELAY_MS = 150  # client-side delay between the API answer and rendering

STYLE = """
body{font-family:Georgia,serif;margin:0;color:#1b1b1b}
header{background:#00334e;color:#fff;padding:.8rem 2rem}
header a{color:#fff;margin-right:1.2rem;text-decoration:none}
.brand{font-size:1.4rem;font-weight:bold;margin-right:2rem}
main{max-width:60rem;margin:1.5rem auto;padding:0 1rem;min-height:20rem}
.cards{display:flex;flex-wrap:wrap;gap:1rem}
.card{border:1px solid #ccd;padding:1rem;width:16rem}
.news{list-style:none;padding:0}
footer{border-top:1px solid #ccc;padding:1rem 2rem;font-size:.9rem}
footer a{margin-right:1rem}
table{border-collapse:collapse}td,th{border:1px solid #bbb;padding:.3rem .6rem}
.loading{color:#777}
"""

APP_JS = f"""
(function () {{
  "use strict";
  var main = document.getElementById("main");
  var seq = 0;
  function routeOf(hash) {{
    if (hash.indexOf("#!/") === 0) return hash.slice(2);
    if (hash.indexOf("#/") === 0) return hash.slice(1);
    return "/";
  }}
  function markCurrent(route) {{
    var links = document.querySelectorAll("header nav a");
    for (var i = 0; i < links.length; i++) {{
      var target = routeOf(links[i].getAttribute("href"));
      var current = route === target || route.indexOf(target + "/") === 0;
      if (current) links[i].setAttribute("aria-current", "page");
      else links[i].removeAttribute("aria-current");
    }}
  }}
  function render() {{
    var route = routeOf(location.hash);
    var mine = ++seq;
    main.setAttribute("aria-busy", "true");
    main.innerHTML = '<p class="loading">Loading\\u2026</p>';
    fetch("/api/page?route=" + encodeURIComponent(route))
      .then(function (res) {{ return res.json(); }})
      .then(function (data) {{
        setTimeout(function () {{
          if (mine !== seq) return;
          document.title = data.title + " | {UNIVERSITY}";
          main.innerHTML = data.html;
          main.removeAttribute("aria-busy");
          markCurrent(route);
          window.scrollTo(0, 0);
        }}, {RENDER_DELAY_MS});
      }})
      .catch(function () {{
        if (mine === seq) main.innerHTML = "<p>We could not load this page. Please try again.</p>";
      }});
  }}
  window.addEventListener("hashchange", render);
  render();
}})();
"""


def _shell() -> str:
    nav = "".join(f'<a href="{esc(href)}">{esc(label)}</a>' for label, href in NAV)
    foot = "".join(f'<a href="{esc(href)}">{esc(label)}</a>' for label, href in FOOTER)
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{UNIVERSITY}</title>"
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<style>{STYLE}</style></head><body>"
        f'<header><a class="brand" href="#/">{UNIVERSITY}</a><nav aria-label="Main">{nav}</nav>'
        "</header>"
        '<main id="main" aria-live="polite"></main>'
        f'<footer><nav aria-label="Footer">{foot}</nav>'
        f"<p>&copy; {UNIVERSITY}. Registered charity no. 1190457.</p></footer>"
        '<script src="/static/app.js"></script></body></html>'
    )


SHELL = _shell()


def page_data(route: str) -> tuple[int, dict[str, str]]:
    """The API answer for a client route: (HTTP status, {title, html})."""
    route = route or "/"
    if len(route) > 1:
        route = route.rstrip("/")
    page = PAGES.get(route)
    if page is None:
        return 404, {"title": NOT_FOUND.title, "html": NOT_FOUND.body}
    return 200, {"title": page.title, "html": page.body}


def routes() -> list[str]:
    """Every content route, as linked (``/#/...``; the money section as ``/#!/...``)."""
    out = []
    for route in PAGES:
        prefix = "#!" if route.startswith("/money") else "#"
        out.append(f"/{prefix}{route}")
    return out


def handle(request: Request) -> Response:
    path = request.path
    if path in ("/", "/index.html"):
        return html(SHELL)
    if path == "/static/app.js":
        return text(APP_JS, "application/javascript; charset=utf-8")
    if path == "/api/page":
        route = request.params.get("route", ["/"])[0]
        status, data = page_data(route)
        return json_response(data, status=status, delay_s=API_DELAY_S)
    if path in ATTACHMENTS:
        doc = ATTACHMENTS[path]
        return pdf_response(doc.title, doc.lines)
    if path == "/robots.txt":
        return text("User-agent: *\nAllow: /\n")
    return not_found()


PORTAL = Portal(
    "spa_hash",
    handle,
    "Northbridge University: hash-routed SPA (#/ and #!/), content from a delayed JSON API",
)
