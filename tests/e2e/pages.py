"""Pages served to the renderer's browser tests, as constants.

``ROUTES`` maps a path to a ``Page``; ``tests/e2e/test_render.py`` serves them
from a tiny ``http.server`` on 127.0.0.1.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Page:
    """One canned HTTP response."""

    body: str = ""
    status: int = 200
    content_type: str = "text/html; charset=utf-8"
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0


HASH_SPA = """<!doctype html>
<html><head><title>Hash SPA</title></head>
<body><div id="app">Loading...</div>
<script>
const routes = {
  "/": "<h1>Home</h1><p>Welcome to the portal.</p>",
  "/housing": "<h1>Housing</h1><p>Halls of residence cost 150 pounds per week.</p>",
  "/fees": "<h1>Fees</h1><p>Tuition fees are 9250 pounds per year.</p>",
};
function render() {
  const route = location.hash.replace(/^#/, "") || "/";
  // The router renders after a delay, as if it had fetched the route's data.
  setTimeout(() => {
    document.getElementById("app").innerHTML = routes[route] || "<h1>Not found</h1>";
  }, 300);
}
window.addEventListener("hashchange", render);
render();
</script></body></html>
"""

FETCH_SPA = """<!doctype html>
<html><head><title>Fetch SPA</title></head>
<body><div id="app"></div>
<script>
fetch("/api/slow").then((r) => r.json()).then((data) => {
  document.getElementById("app").innerHTML = "<h1>" + data.title + "</h1><p>" + data.body + "</p>";
});
</script></body></html>
"""

SLOW_API = '{"title": "Deadlines", "body": "Applications close on 30 June."}'

SHADOW = """<!doctype html>
<html><head><title>Shadow</title></head>
<body>
<main>
  <uni-panel><span slot="note">Slotted note from the light DOM.</span></uni-panel>
</main>
<script>
customElements.define("uni-panel", class extends HTMLElement {
  constructor() {
    super();
    this.attachShadow({ mode: "open" }).innerHTML =
      "<section><h2>Scholarships in shadow</h2>" +
      "<p>Shadow paragraph about bursaries.</p>" +
      "<slot name='note'></slot>" +
      "<a href='/shadow-target'>Shadow link</a></section>";
  }
});
</script></body></html>
"""

PORTAL = """<!doctype html>
<html lang="en"><head>
<title>International students | Example University</title>
<link rel="canonical" href="/portal-canonical">
<style>
  .dropdown { display: none; }
  #cookie-banner { position: fixed; bottom: 0; }
  .modal { display: none; }
  .tab-pane { display: none; }
  .tab-pane.active { display: block; }
  .accordion-collapse { display: none; }
</style>
</head>
<body>
<header>
  <div class="logo">Example University masthead</div>
  <nav aria-label="Main">
    <ul>
      <li><a href="/study">Study</a>
        <ul class="dropdown"><li><a href="/study/graduate-admissions">Graduate admissions</a></li></ul>
      </li>
      <li><a href="/research">Research</a></li>
    </ul>
    <p>Nav only words</p>
  </nav>
</header>
<main>
  <h1>International students</h1>
  <p>Everything international students need, from <a href="mailto:intl@example.edu">email</a>
     to <a href="tel:+441234">phone</a>.</p>
  <div class="cards">
    <div class="card">
      <h3>Accommodation fees</h3>
      <p>Rooms from 150 pounds a week.</p>
      <a href="/accommodation/fees">Learn more</a>
    </div>
    <div class="card">
      <a href="/visa"><img src="/img/visa.png" alt="Visa guidance"></a>
      <h3>Visas and immigration</h3>
    </div>
  </div>
  <a class="icon" href="/funding" aria-label="Scholarships"><span class="icon-star"></span></a>
  <div class="tabs">
    <div role="tablist">
      <button role="tab" aria-controls="tab-undergrad" aria-selected="true">Undergraduate</button>
      <button role="tab" aria-controls="tab-postgrad" aria-selected="false">Postgraduate</button>
    </div>
    <div id="tab-undergrad" role="tabpanel" class="tab-pane active"><p>Undergraduate deadline is 15 January.</p></div>
    <div id="tab-postgrad" role="tabpanel" class="tab-pane"><p>Postgraduate deadline is 30 June.</p></div>
  </div>
  <details><summary>Can I bring my family?</summary><p>Family housing is available on request.</p></details>
  <div class="accordion-item">
    <button aria-expanded="false">Late applications</button>
    <div class="accordion-collapse"><p>Late applications close on 15 August.</p></div>
  </div>
  <div class="modal"><p>Modal secret text</p></div>
  <h2>Documents</h2>
  <ul>
    <li><a href="/files/housing-guide.pdf">Housing guide (PDF)</a></li>
    <li><a href="/files/fee-table.XLSX">Fee table</a></li>
    <li><a href="/download?id=3" download>Application form</a></li>
    <li><a href="/brochure" type="application/pdf">Brochure</a></li>
  </ul>
  <button onclick="history.pushState({}, '', '/virtual-tour')">Virtual tour</button>
  <div class="card"><p>Questions about your application? Write to the office.</p>
    <div role="link" tabindex="0" onclick="location.href='/contact-admissions'">Contact admissions</div>
  </div>
  <a href="#" onclick="location.hash = '#/open-day'; return false;">Open day</a>
  <button onclick="document.body.dataset.out = '1'">Log out</button>
  <span routerlink="/events">Events</span>
</main>
<div id="cookie-banner">We use cookies to improve the site.</div>
<footer>
  <p>Footer only words</p>
  <a href="/about">About us</a>
</footer>
</body></html>
"""

ALERT = """<!doctype html>
<html><head><title>Alert</title></head>
<body><script>alert("Welcome!"); confirm("Continue?"); prompt("Name?");</script>
<h1>After the alert</h1><p>The page went on.</p></body></html>
"""

LEAVE_PROMPT = """<!doctype html>
<html><head><title>Unsaved form</title></head>
<body><script>confirm("Start the form?");
addEventListener("beforeunload", (e) => { e.preventDefault(); e.returnValue = ""; });</script>
<h1>Application form</h1><p>Your answers are kept until you leave.</p></body></html>
"""

THROWS = """<!doctype html>
<html><head><title>Throws</title></head>
<body><h1>Still rendered</h1><p>Despite the error.</p>
<script>Promise.reject(new Error("async boom")); throw new Error("boom");</script>
</body></html>
"""

MUTATING = """<!doctype html>
<html><head><title>Ticker</title></head>
<body><h1>Live ticker</h1><p id="tick">0</p>
<script>let n = 0; setInterval(() => { document.getElementById("tick").textContent = String(++n); }, 50);</script>
</body></html>
"""

FINAL = """<!doctype html>
<html><head><title>Final</title></head><body><h1>Final page</h1><p>Redirected here.</p></body></html>
"""

# Ready at once, but a timer sends it on later: when the renderer has gone on
# to the next URL in the same tab by then, the timer takes that navigation.
LEAVES_LATER = """<!doctype html>
<html><head><title>Notice</title></head>
<body><h1>Notice</h1><p>You will be taken to the final page.</p>
<script>setTimeout(() => { location.href = "/final"; }, 1000);</script></body></html>
"""

LOAD_MORE = """<!doctype html>
<title>News</title>
<main><h1>News</h1>
<ul id="items"><li><a href="/news/1">Open day</a></li></ul>
<button id="more" type="button">Load more</button>
</main>
<script>
let page = 0;
document.getElementById("more").addEventListener("click", () => {
  page += 1;
  setTimeout(() => {
    const li = document.createElement("li");
    li.innerHTML = `<a href="/news/extra-${page}">Scholarship round ${page} opens</a>`;
    document.getElementById("items").appendChild(li);
    if (page >= 2) document.getElementById("more").remove();
  }, 150);
});
</script>
"""

CJK = """<!doctype html>
<html><head><title>宿舍</title></head><body><main><h1>学生宿舍</h1>
<p>国际学生可以申请校内宿舍。</p></main></body></html>
"""

# A documentation sidebar (VuePress-like): group headers that only open and
# close the list of links after them, beside one button that does navigate.
SIDEBAR = """<!doctype html><html><head><title>Docs</title>
<style>.head{cursor:pointer} .closed{display:none}</style></head><body>
<aside class="sidebar"><section><p class="head" onclick="this.nextElementSibling.classList.toggle('closed')">Guides</p>
<ul class="closed"><li><a href="/guides/one">Guide one</a></li><li><a href="/guides/two">Guide two</a></li></ul></section>
<section><div><p class="head" onclick="this.parentNode.nextElementSibling.classList.toggle('closed')">Reference</p></div>
<ul class="closed"><li><a href="/reference/api">API</a></li></ul></section></aside>
<main><h1>Docs home</h1><p>Read the guides.</p>
<button type="button" onclick="location.href='/guides/tour'">Take the tour</button></main>
</body></html>"""

# A home page with a slideshow (the class names of the libraries that draw
# them): its arrows turn slides and lead nowhere; a slide's card marked as a
# link does lead somewhere, as does the button below.
SLIDESHOW = """<!doctype html><html><head><title>Home</title>
<style>.prev,.next,.swiper-button-next{cursor:pointer}</style></head><body><main>
<h1>Welcome</h1>
<div class="carousel banners"><ul><li id="s1">Graduation day</li><li id="s2" hidden>Open day</li></ul>
<div class="prev" onclick="turn()">&#8249;</div><div class="next" onclick="turn()">&#8250;</div>
<div role="link" tabindex="0" onclick="location.href='/programme'">Our programme</div></div>
<div class="swiper"><div class="swiper-wrapper"><div class="swiper-slide">Campus life</div></div>
<div class="swiper-button-next" aria-label="Next slide"></div>
<button type="button" class="swiper-pagination-bullet">Slide 2</button></div>
<button type="button" onclick="location.href='/guides/tour'">Take the tour</button>
</main><script>
function turn() { for (const li of document.querySelectorAll(".banners li")) li.hidden = !li.hidden; }
</script></body></html>"""

# A menu whose groups render their items only once opened (Docusaurus 2's
# collapsed sidebar categories): the links are in no DOM until a click, and
# the click navigates nowhere. "Contact" opens nothing.
LAZY_MENU = """<!doctype html><html><head><title>Guide</title></head><body>
<nav class="menu"><ul>
<li><a href="#" class="menu__link" id="housing">Housing</a></li>
<li><a href="#" class="menu__link" onclick="event.preventDefault()">Contact</a></li>
</ul></nav>
<main><h1>Guide home</h1><p>Choose a chapter in the menu.</p></main>
<script>
document.getElementById("housing").addEventListener("click", (event) => {
  event.preventDefault();
  const item = event.target.parentNode;
  const open = item.querySelector("ul");
  if (open) { open.remove(); return; }
  item.insertAdjacentHTML("beforeend",
    '<ul><li><a href="/housing/halls">Halls of residence</a></li>' +
    '<li><a href="/housing/rent">Rent and contracts</a></li></ul>');
});
</script></body></html>"""

# Docusaurus 3's sidebar: a collapsed category without a page of its own is a
# toggle (``role=button``, ``aria-expanded=false``, ``href="#"``) whose list is
# mounted only when it is first opened. An open category's list is there; an
# accordion of the page's content renders its answer only once opened, and a
# hamburger button controls a menu that is in the DOM: none of those is clicked.
LAZY_CATEGORIES = """<!doctype html><html><head><title>Handbook</title></head><body>
<header><button type="button" aria-expanded="false" aria-controls="mobile">Open the menu</button>
<div id="mobile" hidden><a href="/intro">Introduction</a></div></header>
<nav class="menu" aria-label="Docs sidebar"><ul class="menu__list">
<li class="menu__list-item"><a class="menu__link" href="/intro">Introduction</a></li>
<li class="menu__list-item menu__list-item--collapsed"><div class="menu__list-item-collapsible">
<a class="menu__link menu__link--sublist menu__link--sublist-caret" role="button"
   aria-expanded="false" href="#" id="housing">Housing</a></div></li>
<li class="menu__list-item"><div class="menu__list-item-collapsible">
<a class="menu__link menu__link--sublist" aria-expanded="true" href="/fees">Fees</a>
<button type="button" class="clean-btn menu__caret" aria-expanded="true"
        aria-label="Collapse sidebar category 'Fees'"></button></div>
<ul class="menu__list"><li class="menu__list-item"><a class="menu__link" href="/fees/tuition">Tuition</a></li></ul></li>
</ul></nav>
<main><h1>Handbook</h1><p>Questions new students ask.</p>
<div class="faq"><button type="button" aria-expanded="false" id="when">When does term start?</button></div>
</main>
<script>
document.getElementById("housing").addEventListener("click", (event) => {
  event.preventDefault();
  const toggle = event.currentTarget;
  const item = toggle.closest("li");
  const open = item.querySelector("ul");
  if (open) { open.remove(); toggle.setAttribute("aria-expanded", "false"); return; }
  toggle.setAttribute("aria-expanded", "true");
  item.insertAdjacentHTML("beforeend",
    '<ul class="menu__list"><li class="menu__list-item"><a class="menu__link" href="/housing/halls">Halls</a></li>' +
    '<li class="menu__list-item"><a class="menu__link" href="/housing/rent">Rent</a></li>' +
    '<li class="menu__list-item menu__list-item--collapsed"><div class="menu__list-item-collapsible">' +
    '<a class="menu__link menu__link--sublist" role="button" aria-expanded="false" href="#">Private renting</a>' +
    '</div></li></ul>');
});
// A category inside the category: its list too is mounted when it is opened.
document.addEventListener("click", (event) => {
  const toggle = event.target.closest("a[role=button]");
  if (!toggle || toggle.id === "housing" || toggle.getAttribute("aria-expanded") === "true") return;
  event.preventDefault();
  toggle.setAttribute("aria-expanded", "true");
  toggle.closest("li").insertAdjacentHTML("beforeend",
    '<ul class="menu__list"><li class="menu__list-item"><a class="menu__link" href="/housing/private/landlords">Landlords</a></li></ul>');
});
document.getElementById("when").addEventListener("click", (event) => {
  event.currentTarget.setAttribute("aria-expanded", "true");
  event.currentTarget.insertAdjacentHTML("afterend", "<p>In October.</p>");
});
</script></body></html>"""


# Vuetify's navigation drawer (v-list / v-list-group): a menu of plain blocks,
# no list elements. A collapsed group is a div around a role=button header
# and nothing else; its items are mounted when it is opened ("Study" holds a
# group of its own, "Teaching", as the Jagiellonian University's student guide
# does). The header holds a language menu button whose list is mounted on
# click too, but it is no menu of links: nothing beside it leads anywhere.
BLOCK_GROUPS = """<!doctype html><html><head><title>Guide</title></head><body>
<header><div class="v-toolbar"><div class="lang"><button type="button" aria-expanded="false"
  id="lang">Language</button></div><div class="spacer"></div></div></header>
<nav class="v-navigation-drawer"><div class="v-list">
<a class="v-list-item" href="/blocks/home">Home</a>
<div class="v-list-group"><div class="v-list-group__header" role="button" tabindex="0"
  aria-expanded="false" data-group="housing"><div class="title">Housing</div></div></div>
<div class="v-list-group"><div class="v-list-group__header" role="button" tabindex="0"
  aria-expanded="false" data-group="study"><div class="title">Study</div></div></div>
<a class="v-list-item" href="/blocks/contact">Contact</a>
</div></nav>
<main><h1>Student guide</h1><p>Pick a section in the menu.</p></main>
<script>
const ITEMS = {
  housing: [["/housing/halls", "Halls"], ["/housing/rent", "Rent"]],
  study: [["/study/calendar", "Calendar"], ["#teaching", "Teaching"]],
  teaching: [["/study/teaching/exams", "Exams"], ["/study/teaching/resits", "Resits"]],
};
document.addEventListener("click", (event) => {
  const header = event.target.closest("[data-group]");
  if (!header || header.getAttribute("aria-expanded") === "true") return;
  header.setAttribute("aria-expanded", "true");
  const html = ITEMS[header.dataset.group].map(([href, text]) => href === "#teaching"
    ? '<div class="v-list-group"><div class="v-list-group__header" role="button" tabindex="0" ' +
      'aria-expanded="false" data-group="teaching"><div class="title">Teaching</div></div></div>'
    : `<a class="v-list-item" href="${href}">${text}</a>`).join("");
  setTimeout(() => header.insertAdjacentHTML("afterend",
    `<div class="v-list-group__items">${html}</div>`), 30);
});
document.getElementById("lang").addEventListener("click", (event) => {
  event.currentTarget.setAttribute("aria-expanded", "true");
  event.currentTarget.insertAdjacentHTML("afterend", "<ul><li>Polski</li><li>English</li></ul>");
});
</script></body></html>"""


# A course page's tab list that a framework builds anew on every switch (as
# React does uut-codegeeks' lecturers): a click on "Lecturers" or "Slides"
# replaces the buttons with new elements, so the marks a crawler put on the
# old ones are gone; "Exams" leads to a page of its own.
REBUILT_TABS = """<!doctype html><html><head><title>Course</title></head><body>
<main><h1>Artificial intelligence</h1><section><ul id="tabs"></ul><div id="panel">Pick a
tab.</div></section></main>
<script>
const TABS = ["Lecturers", "Slides", "Exams"];
function build(active) {
  const list = document.getElementById("tabs");
  list.innerHTML = TABS.map((t) =>
    `<li><button type="button" class="${t === active ? "on" : ""}">${t}</button></li>`).join("");
  for (const button of list.querySelectorAll("button")) {
    button.addEventListener("click", () => {
      if (button.textContent === "Exams") { location.href = "/tabs/exams"; return; }
      build(button.textContent);
      document.getElementById("panel").textContent = button.textContent + " of the course.";
    });
  }
}
build("");
</script></body></html>"""


# A Docusaurus-like sidebar of three collapsed categories, each mounting its
# list when first opened ("Fees" holds a category of its own). ``/groups/b``
# has only "Fees", in the same markup: what a page learns of a group is given
# to the next page that has it. With ``?jump``, "Library" navigates instead
# of opening (location.href): which group asked cannot be told from a click of
# all at once.
def _lazy_groups(names: tuple[str, ...], jump: bool = False) -> str:
    items = "".join(
        '<li class="menu__list-item menu__list-item--collapsed">'
        '<div class="menu__list-item-collapsible"><a class="menu__link menu__link--sublist" '
        f'role="button" aria-expanded="false" href="#" data-group="{name}">{name.title()}</a>'
        "</div></li>"
        for name in names
    )
    return f"""<!doctype html><html><head><title>Groups</title></head><body>
<nav class="menu" aria-label="Docs sidebar"><ul class="menu__list">
<li class="menu__list-item"><a class="menu__link" href="/groups/a">Start</a></li>{items}
</ul></nav>
<main><h1>Student guide</h1><p>Pick a category in the sidebar.</p></main>
<script>
const JUMP = {"true" if jump else "false"};
const LISTS = {{
  housing: ["/housing/halls", "/housing/rent"],
  fees: ["/fees/tuition", "#nested"],
  library: ["/library/hours"],
}};
document.addEventListener("click", (event) => {{
  const toggle = event.target.closest("a[role=button]");
  if (!toggle || toggle.getAttribute("aria-expanded") === "true") return;
  event.preventDefault();
  const name = toggle.dataset.group;
  if (JUMP && name === "library") {{ location.href = "/library/hours"; return; }}
  toggle.setAttribute("aria-expanded", "true");
  const items = (LISTS[name] || ["/fees/refunds"]).map((href) => href === "#nested"
    ? '<li class="menu__list-item menu__list-item--collapsed"><div class="menu__list-item-collapsible">' +
      '<a class="menu__link menu__link--sublist" role="button" aria-expanded="false" href="#" ' +
      'data-group="refunds">Refunds</a></div></li>'
    : `<li class="menu__list-item"><a class="menu__link" href="${{href}}">${{href}}</a></li>`);
  setTimeout(() => toggle.closest("li").insertAdjacentHTML(
    "beforeend", `<ul class="menu__list">${{items.join("")}}</ul>`), 30);
}});
</script></body></html>"""


# vuepress-theme-hope's sidebar: collapsed groups are plain buttons (no ARIA),
# each the only thing in its list item, whose list is mounted when it is
# opened; an accordion: opening one group unmounts the list of the one open
# before. The open group's header is followed by its list: read, not clicked.
ACCORDION = """<!doctype html><html><head><title>Courses</title></head><body>
<aside class="sidebar"><ul class="links">
<li><section class="group"><p class="header">Semester 1</p>
<ul class="links"><li><a href="/courses/statistics-1">Statistics 1</a></li></ul></section></li>
<li><section class="group"><button type="button" class="header" data-group="housing">Housing</button></section></li>
<li><section class="group"><button type="button" class="header" data-group="fees">Fees</button></section></li>
<li><section class="group"><button type="button" class="header" data-group="library">Library</button></section></li>
</ul></aside>
<main><h1>Courses</h1><p>Pick a group in the sidebar.</p></main>
<script>
const LISTS = {
  housing: ["/housing/halls", "/housing/rent"],
  fees: ["/fees/tuition"],
  library: ["/library/hours"],
};
document.addEventListener("click", (event) => {
  const toggle = event.target.closest("button[data-group]");
  if (!toggle) return;
  const section = toggle.parentNode;
  const wasOpen = section.querySelector("ul");
  for (const list of document.querySelectorAll("section > button[data-group] + ul")) list.remove();
  if (wasOpen) return;
  const items = LISTS[toggle.dataset.group].map((href) => `<li><a href="${href}">${href}</a></li>`);
  queueMicrotask(() => toggle.insertAdjacentHTML("afterend", `<ul class="links">${items.join("")}</ul>`));
});
</script></body></html>"""

LAZY_GROUPS_A = _lazy_groups(("housing", "fees", "library"))
LAZY_GROUPS_B = _lazy_groups(("fees",))
LAZY_GROUPS_JUMP = _lazy_groups(("housing", "fees", "library"), jump=True)

# Rendered by a module that is imported only after the load event, from a slow
# server, as a Vite build does it: a modulepreload link first, then import().
# Neither the DOM nor the page's fetch/XHR show that anything is on the way;
# the link's load does.
LATE_MODULE = """<!doctype html>
<html><head><title>Late module</title></head>
<body><div id="app"></div>
<script type="module">
window.addEventListener("load", () => {
  const link = document.createElement("link");
  link.rel = "modulepreload";
  link.href = "/late-module.mjs";
  document.head.appendChild(link);
  import("/late-module.mjs").then((m) => m.render());
});
</script></body></html>
"""

# The same with a script element inserted after the load event (a webpack or
# Next.js chunk): the element's load is awaited.
LATE_CHUNK = """<!doctype html>
<html><head><title>Late chunk</title></head>
<body><div id="app"></div>
<script>
window.addEventListener("load", () => {
  const script = document.createElement("script");
  script.src = "/late-chunk.js";
  document.head.appendChild(script);
});
</script></body></html>
"""

LATE_CHUNK_JS = """document.getElementById("app").innerHTML =
  "<h1>Housing</h1><p>Rooms are let from September.</p>";
"""

# An old library (Prototype 1.6) gives arrays a toJSON that returns a string:
# JSON.stringify then writes every array as a string.
BROKEN_JSON = """<!doctype html>
<html><head><title>Broken JSON</title>
<script>Array.prototype.toJSON = function () { return "[" + this.length + " items]"; };</script>
</head><body><main><h1>Grants</h1><p>Travel grants cover up to 300 euros.</p>
<a href="/grants/apply">How to apply for a grant</a></main></body></html>
"""

# Content that a worker sends (pdf.js renders so): the worker's script comes
# from a slow server, and the page's thread has nothing to wait for meanwhile.
LATE_WORKER = """<!doctype html>
<html><head><title>Late worker</title></head>
<body><div id="app"></div>
<script>
const worker = new Worker("/late-worker.js");
worker.addEventListener("message", (event) => {
  document.getElementById("app").innerHTML = event.data;
});
</script></body></html>
"""

LATE_WORKER_JS = """postMessage("<h1>Fees</h1><p>The library fine is 20 pence a day.</p>");
"""

# A worker that only answers when asked, after a while (pdf.js parsing a
# document): the page asks it at once, and renders what it answers.
ASKED_WORKER = LATE_WORKER.replace("/late-worker.js", "/asked-worker.js").replace(
    "</script>", 'worker.postMessage("render");\n</script>'
)

ASKED_WORKER_JS = """addEventListener("message", () => {
  setTimeout(() => postMessage("<h1>Deadlines</h1><p>Theses are due on 1 June.</p>"), 300);
});
"""

# A search index's workers (a pool of two, from one script): started with the
# page, they wait for a search that never comes. The page is rendered by the
# server.
IDLE_WORKER = """<!doctype html>
<html><head><title>Idle worker</title></head>
<body><main><h1>Canteens</h1><p>The canteen opens at noon.</p></main>
<script>const pool = [new Worker("/idle-worker.js"), new Worker("/idle-worker.js")];
const search = pool[1];</script>
</body></html>
"""

IDLE_WORKER_JS = """addEventListener("message", () => {});
"""

# The same worker, asked something it never answers.
IDLE_WORKER_ASKED = IDLE_WORKER.replace("</script>", 'search.postMessage({ query: "" });</script>')

LATE_MODULE_JS = """export function render() {
  document.getElementById("app").innerHTML = "<h1>Exchange</h1><p>Exchange places open in March.</p>";
}
"""

# A notice that covers the whole page (as real sites show on arrival): a
# pointer click cannot reach the button under it; the click event still can.
OVERLAY = """<!doctype html>
<html><head><title>Overlay</title>
<style>#notice { position: fixed; inset: 0; background: rgba(0,0,0,.5); z-index: 10; }</style>
</head><body>
<main><h1>Welcome</h1>
<button type="button" onclick="location.href='/overlay-target'">Residence halls</button></main>
<div id="notice" role="dialog" aria-modal="true"><p>Beware of fraud calls.</p></div>
</body></html>
"""


def placeholders(names: str) -> str:
    """A static page whose template left ``<a href>`` where each URL was missing."""
    items = "".join(f"<li><a href>{name}</a> (PDF)</li>" for name in names.split(","))
    return f"""<!doctype html><html><head><title>Plans</title></head>
<body><main><h1>Admission plans</h1><ul>{items}</ul></main></body></html>
"""


# An empty-href anchor that a script navigates from (AngularJS's ``<a href=""
# ng-click>``): the click stops the reload and pushes a route instead.
SCRIPTED_EMPTY_HREF = """<!doctype html>
<html><head><title>Scripted</title></head>
<body><main><h1>Apply</h1>
<a href="" id="go">Application form</a></main>
<script>
document.getElementById("go").addEventListener("click", (event) => {
  event.preventDefault();
  history.pushState({}, "", "/apply/form");
});
</script></body></html>
"""

# An in-page anchor, then a button that changes the route: the anchor only
# scrolls the page, so the button is clicked in the same copy of it.
ANCHOR_THEN_ROUTE = """<!doctype html>
<html><head><title>Guide</title></head>
<body><main><h1>Guide</h1>
<a href="#">Back to top</a>
<button type="button" onclick="history.pushState({}, '', '/guide/next')">Next chapter</button>
</main></body></html>
"""


def _twin_page(title: str, text: str, links: str = "") -> str:
    return f"""<!doctype html><html><head><title>{title}</title></head>
<body><main><h1>{title}</h1><p>{text}</p>{links}</main></body></html>
"""


# A site whose server redirects "/twin/guide" to "/twin/guide/": the slash-less
# link, met after the guide was rendered, is asked over plain HTTP first.
TWIN_ROUTES = {
    "/twin/": Page(
        _twin_page(
            "Student housing",
            "Every first-year student is offered a room in a hall of residence.",
            '<a href="/twin/guide/">Housing guide</a>',
        )
    ),
    "/twin/guide/": Page(
        _twin_page(
            "Housing guide",
            "Apply for a room by 1 July; contracts run for 40 weeks from September.",
            '<a href="/twin/guide">Housing guide</a> <a href="/twin/rents/">Housing rents</a>',
        )
    ),
    "/twin/guide": Page(status=301, headers={"Location": "/twin/guide/"}),
    "/twin/rents/": Page(
        _twin_page("Housing rents", "A single room costs 150 pounds a week, bills included.")
    ),
}


def _route_cards(scrolled: bool = False) -> str:
    # A single-page app whose topic cards change the route from a click handler
    # (no href), as a FAQ index built with a client-side router does. With
    # ``scrolled``, coming back writes the heading scrolled to into the URL's
    # anchor and shows a "Back to top" button after the cards, as a docs
    # theme's table of contents and scroll button do once a page has scrolled.
    return f"""<!doctype html>
<html><head><title>Questions</title></head>
<body><main id="app"></main>
<script>
const SCROLLED = {"true" if scrolled else "false"};
const topics = ["Housing", "Fees", "Exams", "Visas", "Library", "Transport"];
function render(back) {{
  const app = document.getElementById("app");
  const slug = location.pathname.split("/").pop();
  if (slug !== "route-cards" && slug !== "scrolled") {{
    app.innerHTML = "<h1>" + slug + "</h1><p>Answers about " + slug + ".</p>";
    return;
  }}
  const base = location.pathname;
  app.innerHTML = "<h1 id='questions'>Questions</h1>";
  for (const topic of topics) {{
    const card = document.createElement("div");
    card.style.cursor = "pointer";
    card.textContent = topic;
    card.addEventListener("click", () => {{
      history.pushState({{}}, "", "/route-cards/" + topic.toLowerCase());
      render(false);
    }});
    app.appendChild(card);
  }}
  if (SCROLLED && back) {{
    history.replaceState({{}}, "", base + "#questions");
    if (!document.getElementById("top")) {{
      document.body.insertAdjacentHTML("beforeend", '<button id="top" type="button">Back to top</button>');
    }}
  }}
}}
window.addEventListener("popstate", () => render(true));
render(false);
</script></body></html>
"""


# An animation loop kept running for the page's whole life (a tooltip
# library repositioning its tooltips on every frame): style only, or, with
# ``grows``, a node added to the page on every frame.
def _frame_loop(grows: bool = False) -> str:
    step = 'document.body.append(document.createElement("span"));' if grows else ""
    return f"""<!doctype html><html><head><title>Tips</title></head><body>
<main><h1>Tips</h1><p id="tip">Hover for a tip.</p></main>
<script>
const tip = document.getElementById("tip");
(function loop() {{ tip.style.left = (performance.now() % 10) + "px"; {step}
  requestAnimationFrame(loop); }})();
</script></body></html>"""


# A theme's script, shared by every page of a site, sets a short timer on
# each page: ``TIMER_THEME_JS`` only toggles a class when it runs (the
# content stays as it is), ``TIMER_RENDER_JS`` adds the page's text then.
TIMER_THEME_JS = """
function mounted() {
  setTimeout(() => { document.body.classList.add("transitions-on"); }, 300);
}
mounted();
"""
TIMER_RENDER_JS = """
function mounted() {
  setTimeout(() => {
    const p = document.createElement("p");
    p.textContent = "Grants are paid in " + document.title + ".";
    document.querySelector("main").append(p);
  }, 300);
}
mounted();
"""


# Two click-only buttons that open windows: a share button's to another site,
# and a guide's on the site itself.
SHARE = """<!doctype html><html><head><title>Share</title></head><body>
<main><h1>Erasmus exchange</h1><p>Places for the spring term.</p>
<button id="share">Share</button> <button id="guide">Open the guide</button></main>
<script>
document.getElementById("share").addEventListener("click", () => {
  window.open("https://social.example/share?u=" + encodeURIComponent(location.href));
});
document.getElementById("guide").addEventListener("click", () => {
  window.open("/guide-window", "guide", "width=400");
});
</script></body></html>"""


# A page that replaces Error before its scripts set their timers.
ERROR_REPLACED = """<!doctype html><html><head><title>Odd</title></head><body>
<main><h1>Library</h1></main>
<script>
window.Error = function () { throw new TypeError("no errors here"); };
setTimeout(() => {
  const p = document.createElement("p");
  p.textContent = "The library opens at eight.";
  document.querySelector("main").append(p);
}, 300);
</script></body></html>"""


def _timer_page(script: str, month: str) -> str:
    return f"""<!doctype html><html><head><title>{month}</title></head><body>
<main><h1>Payments in {month}</h1></main>
<script src="/{script}"></script></body></html>"""


ROUTE_CARDS = _route_cards()
ROUTE_CARDS_SCROLLED = _route_cards(scrolled=True)

# Says which motion preference the page was given, as a site's script reads it.
MOTION = """<!doctype html>
<html><head><title>Motion</title></head>
<body><main><h1>Campus tour</h1><p id="pref"></p></main>
<script>
document.getElementById("pref").textContent = "Motion preference: " +
  (matchMedia("(prefers-reduced-motion: reduce)").matches ? "reduce" : "no-preference");
</script></body></html>
"""


def docs_theme(topic: str) -> str:
    """A documentation theme's page that downloads the site's search index
    (as Material for MkDocs does) and builds its search from it."""
    return f"""<!doctype html>
<html><head><title>{topic}</title></head>
<body><main><h1>{topic}</h1><p>{topic} opens at nine every weekday.</p></main>
<script>
fetch("/docs-theme/search/search_index.json")
  .then((response) => response.json())
  .then((index) => {{ window.searchReady = index.docs.length; }})
  .catch(() => {{ window.searchReady = -1; }});
</script></body></html>"""


SEARCH_INDEX = '{"docs": [{"location": "a/", "text": "Library opening hours"}]}'


def syllabus(course: str) -> str:
    """A course page with a syllabus viewer that downloads the PDF by script
    to draw it (as PDF.js viewers do), and a link to download it."""
    return f"""<!doctype html>
<html><head><title>{course}</title></head>
<body><main><h1>{course}</h1><p>{course} meets on Mondays.</p>
<canvas id="sheet"></canvas><p id="count">Page 0 of 0</p>
<a href="/syllabus/doc.pdf">Download the syllabus</a></main>
<script>
fetch("/syllabus/doc.pdf")
  .then((response) => response.arrayBuffer())
  .then((data) => {{ document.getElementById("count").textContent = "Page 1 of 3"; }})
  .catch(() => {{ document.getElementById("count").textContent = "Could not load the document"; }});
</script></body></html>"""


# Typeset formulas drawn as math libraries draw them: KaTeX (MathML with the
# TeX source as an annotation, off screen, beside an aria-hidden drawing of
# nested boxes) and MathJax 3 (an aria-hidden drawing in custom elements
# beside assistive MathML without a source). The drawings' glyphs are the
# formula's own, so a drawing read as text repeats it.
YEAR_TABS = """<!doctype html>
<html lang="en"><head><title>Student council</title>
<style>.hidden { display: none; } .w-full { width: 100%; }</style></head>
<body><main>
  <h1>Student council</h1>
  <ul class="tab-buttons"><li><button>2023</button></li><li><button>2024</button></li></ul>
  <section>
    <section class="w-full"><table><caption>Council members 2023-2024</caption>
      <tr><td>Ada Lovelace</td><td>chair of the council</td></tr>
      <tr><td>Alan Turing</td><td>treasurer and events</td></tr></table></section>
    <section class="w-full hidden"><table><caption>Council members 2024-2025</caption>
      <tr><td>Grace Hopper</td><td>chair of the council</td></tr>
      <tr><td>Edsger Dijkstra</td><td>treasurer and events</td></tr></table></section>
  </section>
  <div class="pager"><div class="page">Page 1 of 2</div><div class="page hidden">Next</div></div>
  <p>Updated <span class="date">3 years ago</span><span class="date hidden">on 2023-10-22 at the
     council's first meeting of the academic year, by the secretary</span>.</p>
  <div class="picks"><div class="w-full"><a href="/clubs/chess">Chess club</a></div>
    <div class="w-full hidden"><a href="/clubs/go">Go club of the university</a>
      <a href="/clubs/choir">University choir and orchestra</a> <a href="/clubs/film">Film society</a>
      <a href="/clubs/hiking">Hiking and climbing club</a> <a href="/clubs/radio">Student radio station</a></div></div>
</main></body></html>
"""

FORMULAS = """<!doctype html>
<html><head><title>Fees by formula</title><style>
.off { position: absolute; clip: rect(1px, 1px, 1px, 1px); width: 1px; height: 1px; overflow: hidden; }
.box { display: inline-block; }
mjx-container[display="true"] { display: block; text-align: center; }
mjx-math, mjx-mi, mjx-mo, mjx-mn { display: inline-block; }
</style></head>
<body><main><h1>Fees by formula</h1>
<p>A module costs <span class="formula"><span class="off"><math><semantics><mrow><mi>n</mi>
<mo>&#xD7;</mo><mn>715</mn></mrow><annotation encoding="application/x-tex">n \\times 715</annotation>
</semantics></math></span><span class="drawn" aria-hidden="true"><span class="box">n</span>
<span class="box">&#xD7;</span><span class="box"><span class="box">7</span><span class="box">15</span>
</span></span></span> pounds for n credits.</p>
<mjx-container display="true"><mjx-math aria-hidden="true"><mjx-mi>t</mjx-mi><mjx-mo>=</mjx-mo>
<mjx-mn>9535</mjx-mn></mjx-math><mjx-assistive-mml class="off"><math display="block"><mi>t</mi>
<mo>=</mo><mn>9535</mn></math></mjx-assistive-mml></mjx-container>
<p>Rooms: <span aria-hidden="true">&#x2605;</span> four stars.</p>
<p>Where <math><mi>t</mi></math> is the yearly fee.</p>
<table><tr><th>Credits</th><th>Fee</th></tr>
<tr><td><math><mn>30</mn></math></td><td><math><mn>4600</mn></math></td></tr></table>
</main></body></html>"""


ROUTES: dict[str, Page] = {
    "/motion": Page(MOTION),
    **TWIN_ROUTES,
    "/anchor-then-route": Page(ANCHOR_THEN_ROUTE),
    "/plans/a": Page(placeholders("Plan 2024,Plan 2023,Plan 2022")),
    "/plans/b": Page(placeholders("Rules 2024,Rules 2023")),
    "/scripted-empty": Page(SCRIPTED_EMPTY_HREF),
    "/late-module": Page(LATE_MODULE),
    "/late-module.mjs": Page(LATE_MODULE_JS, content_type="text/javascript", delay_s=0.4),
    "/late-chunk": Page(LATE_CHUNK),
    "/late-chunk.js": Page(LATE_CHUNK_JS, content_type="text/javascript", delay_s=0.4),
    "/late-worker": Page(LATE_WORKER),
    "/broken-json": Page(BROKEN_JSON),
    "/late-worker.js": Page(LATE_WORKER_JS, content_type="text/javascript", delay_s=0.4),
    "/asked-worker": Page(ASKED_WORKER),
    "/idle-worker": Page(IDLE_WORKER),
    "/idle-worker-asked": Page(IDLE_WORKER_ASKED),
    "/idle-worker.js": Page(IDLE_WORKER_JS, content_type="text/javascript"),
    "/docs-theme/library": Page(docs_theme("Library")),
    "/docs-theme/canteen": Page(docs_theme("Canteen")),
    "/docs-theme/gym": Page(docs_theme("Gym")),
    "/docs-theme/search/search_index.json": Page(SEARCH_INDEX, content_type="application/json"),
    "/syllabus/optics": Page(syllabus("Optics")),
    "/syllabus/mechanics": Page(syllabus("Mechanics")),
    "/syllabus/quantum": Page(syllabus("Quantum")),
    "/syllabus/doc.pdf": Page("%PDF-1.4 not a real document", content_type="application/pdf"),
    "/asked-worker.js": Page(ASKED_WORKER_JS, content_type="text/javascript"),
    "/overlay": Page(OVERLAY),
    "/img-only": Page(
        '<!doctype html><title>Map</title><h1>Campus map</h1><img src="/img/campus-map.png" alt="">'
    ),
    "/docs": Page(SIDEBAR),
    "/slideshow": Page(SLIDESHOW),
    "/lazy-menu": Page(LAZY_MENU),
    "/lazy-categories": Page(LAZY_CATEGORIES),
    "/groups/a": Page(LAZY_GROUPS_A),
    "/groups/blocks": Page(BLOCK_GROUPS),
    "/tabs": Page(REBUILT_TABS),
    "/tabs/exams": Page("<!doctype html><title>Exams</title><h1>Exams</h1><p>In June.</p>"),
    "/groups/accordion": Page(ACCORDION),
    "/groups/b": Page(LAZY_GROUPS_B),
    "/groups/jump": Page(LAZY_GROUPS_JUMP),
    "/spa": Page(HASH_SPA),
    "/route-cards": Page(ROUTE_CARDS),
    "/share": Page(SHARE),
    "/error-replaced": Page(ERROR_REPLACED),
    "/guide-window": Page(_twin_page("Guide", "The exchange guide.")),
    "/timer-theme.js": Page(TIMER_THEME_JS, content_type="text/javascript"),
    "/timer-render.js": Page(TIMER_RENDER_JS, content_type="text/javascript"),
    **{
        f"/timers/{kind}/{month}": Page(_timer_page(f"timer-{kind}.js", month))
        for kind in ("theme", "render")
        for month in ("May", "June", "July", "August")
    },
    "/frame-loop": Page(_frame_loop()),
    "/frame-loop-grows": Page(_frame_loop(grows=True)),
    "/route-cards/scrolled": Page(ROUTE_CARDS_SCROLLED),
    "/fetch-spa": Page(FETCH_SPA),
    "/api/slow": Page(SLOW_API, content_type="application/json", delay_s=0.7),
    "/shadow": Page(SHADOW),
    "/formulas": Page(FORMULAS),
    "/year-tabs": Page(YEAR_TABS),
    "/portal": Page(PORTAL),
    "/alert": Page(ALERT),
    "/throws": Page(THROWS),
    "/leave-prompt": Page(LEAVE_PROMPT),
    "/mutating": Page(MUTATING),
    "/cjk": Page(CJK),
    "/news-list": Page(LOAD_MORE),
    "/r1": Page(status=302, headers={"Location": "/r2"}),
    "/r2": Page(status=301, headers={"Location": "/final"}),
    "/final": Page(FINAL),
    "/leaves-later": Page(LEAVES_LATER),
    "/final-slowly": Page(FINAL, delay_s=1.8),
    "/guide.pdf": Page("%PDF-1.4\n%%EOF\n", content_type="application/pdf"),
    "/export": Page(
        "a,b\n1,2\n",
        content_type="application/octet-stream",
        headers={"Content-Disposition": "attachment; filename=export.csv"},
    ),
}
