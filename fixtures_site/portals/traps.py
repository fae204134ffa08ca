"""Westmere University: a normal-looking university site that is a URL trap maze.

Traps: an events calendar whose previous/next month links never end
(``/events?month=YYYY-MM`` and ``/calendar/YYYY/MM/`` with day pages), session
ids in links (``;jsessionid=`` path parameters, ``?sid=<32 hex>`` and a non-hex
``?sid=`` token that changes with the page it is linked from), ``utm_`` links,
a faceted course search that links every facet combination, endless
pagination (``/news?page=N``), relative links that repeat path segments
(``/info/info/info/…``, ``/campus/maps/campus/maps/…``), a redirect loop
(``/loop-a`` ⇄ ``/loop-b``), very slow pages, a page whose script throws after
rendering part of its content, and soft 404s (HTTP 200 "page not found").

The real content (accommodation, costs, funding, key dates, library) is linked
by clean URLs from the main content of ordinary pages, two to three clicks from
the home page.
"""

from __future__ import annotations

import json
import re
from urllib.parse import urlencode

from fixtures_site.common import Portal, Request, Response, html, pdf_response, redirect, text
from fixtures_site.portals._shared_b import (
    base62_token,
    digest,
    esc,
    hex32,
    paras,
    split_path_params,
)

SITE = "Westmere University"
CALENDAR_HOME = (2026, 11)
SLOW_PAGE_DELAY_S = 3.0  # a relevant page the crawler must wait for
VERY_SLOW_PAGE_DELAY_S = 5.0  # an irrelevant one
NEWS_PER_PAGE = 8

CSS = """
body { margin: 0; font-family: Georgia, serif; color: #202020; }
header { background: #2d4a22; padding: .8rem 2rem; }
header a { color: #fff; margin-right: 1.1rem; text-decoration: none; }
.brand { font-size: 1.3rem; font-weight: bold; }
main { max-width: 940px; margin: 0 auto; padding: 1rem 2rem 3rem; }
.cards { display: flex; gap: 1rem; flex-wrap: wrap; }
.card { border: 1px solid #ccc; padding: 1rem; flex: 1 1 240px; }
footer { background: #eee; padding: 1.2rem 2rem; }
footer a { margin-right: 1rem; }
table { border-collapse: collapse; } td, th { border: 1px solid #bbb; padding: .3rem .6rem; }
.facets a { margin-right: .5rem; }
"""


# --- session-laden chrome ------------------------------------------------------


def jsession(page_path: str) -> str:
    return hex32("jsession|" + page_path).upper()


def header(page_path: str) -> str:
    """The header navigation; most links carry a session id derived from the page."""
    links = [
        ("Study", f"/study/;jsessionid={jsession(page_path)}"),
        ("Student life", f"/life/?sid={hex32('life|' + page_path)}"),
        ("Events", "/events?month=2026-11"),
        ("News", "/news?page=1"),
        ("Courses", "/courses"),
        ("Info", "/info/"),
        ("About", f"/about/?sid={base62_token('about|' + page_path)}"),
    ]
    nav = "".join(f'<a href="{esc(h)}">{esc(t)}</a>' for t, h in links)
    return (
        f'<header><a class="brand" href="/?sid={hex32("home|" + page_path)}">{SITE}</a>'
        f'<nav aria-label="Main">{nav}</nav></header>'
    )


def footer(page_path: str) -> str:
    links = [
        ("Student portal login", "/loop-a"),
        ("Newsletter", "/?utm_source=footer&utm_medium=web&utm_campaign=newsletter"),
        ("Calendar", "/calendar/2026/11/"),
        ("Research repository", "/research/repository"),
        ("Staff directory", f"/about/staff/;jsessionid={jsession(page_path)}"),
        ("Campus maps", "/campus/maps/"),
    ]
    nav = "".join(f'<a href="{esc(h)}">{esc(t)}</a>' for t, h in links)
    return (
        f'<footer><nav aria-label="Footer">{nav}</nav>'
        "<p>Westmere University, Abbey Lane, Westmere WM2 4QX. A charity registered in England.</p></footer>"
    )


def layout(page_path: str, title: str, body: str, extra: str = "") -> str:
    full = SITE if title == SITE else f"{title} - {SITE}"
    return f"""<!doctype html>
<html lang="en-GB">
<head><meta charset="utf-8"><title>{esc(full)}</title><style>{CSS}</style></head>
<body>
{header(page_path)}
<main>
<h1>{esc(title)}</h1>
{body}
</main>
{footer(page_path)}
{extra}
</body></html>
"""


def section(heading: str, texts: list[str]) -> str:
    return f"<section><h2>{esc(heading)}</h2>{paras(texts)}</section>"


def links(heading: str, items: list[tuple[str, str]]) -> str:
    lis = "".join(f'<li><a href="{esc(h)}">{esc(t)}</a></li>' for t, h in items)
    return f"<section><h2>{esc(heading)}</h2><ul>{lis}</ul></section>"


def card(title: str, body: str, href: str, link: str = "Find out more") -> str:
    return f'<div class="card"><h3>{esc(title)}</h3><p>{esc(body)}</p><a href="{esc(href)}">{esc(link)}</a></div>'


# --- the real content ----------------------------------------------------------------

HOUSING_FACT = "Ashcombe Hall: GBP 165 per week"
FEES_FACT = "International undergraduate: GBP 21,500 per year"
FUNDING_FACT = "Westmere Merit Scholarship: GBP 3,000 per year"
DEADLINE_FACT = "Applications close on 15 January 2027"
LIBRARY_FACT = "08:00 to midnight, seven days a week"

# Rendered by the page script before it throws (see COSTS_JS).
FEE_ROWS = [
    ["Home undergraduate", "GBP 9,250 per year"],
    ["International undergraduate", "GBP 21,500 per year"],
    ["Home postgraduate taught", "GBP 10,900 per year"],
    ["International postgraduate taught", "GBP 23,800 per year"],
]

COSTS_JS = """
(function () {
  var rows = JSON.parse(document.getElementById("fee-data").textContent);
  var box = document.getElementById("fee-table");
  var list = document.createElement("ul");
  rows.forEach(function (row) {
    var li = document.createElement("li");
    li.textContent = row[0] + ": " + row[1];
    list.appendChild(li);
  });
  box.appendChild(list);
  // The analytics snippet was removed from the page but not from this script:
  // this line throws an uncaught TypeError, so the payment plan section below
  // is never rendered.
  window.WestmereAnalytics.track("fees-view");
  var plans = document.getElementById("payment-plans");
  plans.textContent = "Pay in three instalments: October, January and April.";
})();
"""

NEWS_ITEMS: list[tuple[str, str, str, list[str]]] = [
    (
        "open-day-record",
        "Record numbers at the autumn open day",
        "14 October 2026",
        [
            "More than 6,000 visitors came to the autumn open day, touring labs, lecture theatres and the students' union.",
            "Many families asked about accommodation and the cost of living in Westmere; staff from the halls team and the money advice service were on hand all day.",
        ],
    ),
    (
        "river-research",
        "River restoration project wins national award",
        "2 October 2026",
        [
            "A team from the School of Environment has won a national award for restoring a two-mile stretch of the river Wend.",
            "Students on the MSc Environmental Management took part in the fieldwork.",
        ],
    ),
    (
        "new-sports-hall",
        "New sports hall opens at Riverside",
        "20 September 2026",
        [
            "The new sports hall on the Riverside campus includes six badminton courts and a climbing wall.",
            "Students can book courts through the sport pages; membership fees are unchanged this year.",
        ],
    ),
]

STATIC_PAGES: dict[str, tuple[str, str]] = {
    "/": (
        SITE,
        section(
            "Welcome to Westmere",
            [
                "Westmere University is a campus university of 14,000 students on the banks of the river Wend. Founded in 1965, we are known for teaching that combines small-group tutorials with research-led projects.",
                "Our two campuses, City and Riverside, are linked by a free shuttle bus. Most first-year students live on campus, within ten minutes' walk of their lectures.",
            ],
        )
        + '<section><h2>Start here</h2><div class="cards">'
        + card("Study with us", "Courses, costs, funding and how to apply.", "/study/")
        + card("Student life", "Where you'll live and what you'll do.", "/life/")
        + card("What's on", "Talks, concerts and fairs this month.", "/events?month=2026-11")
        + "</div></section>"
        + links(
            "Latest news",
            [
                (title, f"/news/{slug}?utm_source=home&utm_medium=teaser&utm_campaign=autumn")
                for slug, title, _, _ in NEWS_ITEMS
            ],
        ),
    ),
    "/study/": (
        "Study at Westmere",
        section(
            "Your degree",
            [
                "We offer more than 120 undergraduate and 90 postgraduate courses across four faculties. Teaching is organised in two semesters, with exams in January and May.",
                "Every student has a personal tutor who meets them at least twice a semester. Most courses include a placement year or a study-abroad option.",
            ],
        )
        + links(
            "Plan your studies",
            [
                ("Cost of study", "/study/costs/"),
                ("Funding and awards", "/study/funding/"),
                ("How to apply", "/study/apply/"),
                ("Course finder", "/courses?level=undergraduate"),
            ],
        ),
    ),
    "/study/costs/": (
        "Cost of study",
        section(
            "What you will pay",
            [
                "Your annual charge depends on your fee status and your level of study. Amounts below apply to students starting in September 2027 and are fixed for the length of the course.",
                "Field trips that are a compulsory part of a course are included; optional trips and printing are extra.",
            ],
        )
        + '<section><h2>Annual amounts 2027-28</h2><div id="fee-table"></div></section>'
        + '<section><h2>Payment plans</h2><p id="payment-plans"></p></section>'
        + links("Documents", [("Tuition fees 2027-28 (PDF)", "/files/tuition-fees-2027-28.pdf")]),
    ),
    "/study/funding/": (
        "Funding and awards",
        section(
            "Awards for new students",
            [
                FUNDING_FACT
                + ", for undergraduates with AAA or above at A level or equivalent. It is paid automatically in each year of study.",
                "Westmere Bursary: up to GBP 1,500 per year for students from households with an income below GBP 30,000.",
                "Sports scholarships of GBP 2,000 per year are available to athletes competing at national level.",
            ],
        )
        + section(
            "Help with money",
            [
                "The money advice team can help you plan a budget and apply for hardship support at any point in your course.",
            ],
        ),
    ),
    "/study/apply/": (
        "How to apply",
        section(
            "Undergraduate applications",
            [
                "Apply through the national admissions service. Our institution code is W44. You can apply to up to five courses; your personal statement goes to all of them.",
                "Some courses, such as Nursing and Architecture, also ask for an interview or a portfolio.",
            ],
        )
        + links(
            "Before you apply",
            [
                ("Key dates", "/study/apply/dates/"),
                ("Entry requirements", "/study/apply/requirements/"),
            ],
        ),
    ),
    "/study/apply/dates/": (
        "Key dates for 2027 entry",
        section(
            "Deadlines",
            [
                DEADLINE_FACT
                + " for most undergraduate courses starting in September 2027. Applications received later are considered if places remain.",
                "Offers are made on a rolling basis; all decisions are sent by 14 May 2027.",
                "Accommodation applications open once you have firmly accepted an offer.",
            ],
        ),
    ),
    "/study/apply/requirements/": (
        "Entry requirements",
        section(
            "Typical offers",
            [
                "Typical offers range from BBB to AAA at A level. We also accept the International Baccalaureate, BTEC and Access to HE diplomas.",
            ],
        ),
    ),
    "/life/": (
        "Student life",
        section(
            "Life at Westmere",
            [
                "Westmere is a friendly campus with over 200 societies, a students' union with its own cinema, and countryside on the doorstep.",
                "Our wellbeing team, chaplaincy and medical centre are all on the City campus.",
            ],
        )
        + '<section><h2>Explore</h2><div class="cards">'
        + card("Your stay", "Halls, private renting and settling in.", "/life/stay/")
        + card("Sport", "Clubs, facilities and membership.", "/life/sport/")
        + "</div></section>",
    ),
    "/life/stay/": (
        "Your stay",
        section(
            "Settling in",
            [
                "Most first-year students live in one of our seven halls on campus. In later years, many move into shared houses in the town, often with friends from their course.",
                "Our housing advice team checks private tenancy agreements for free and keeps a list of accredited landlords.",
            ],
        )
        + links(
            "Where to live",
            [("Residence halls", "/life/stay/halls/"), ("Private renting", "/life/stay/private/")],
        ),
    ),
    "/life/stay/halls/": (
        "Residence halls",
        section(
            "Our halls",
            [
                "All first-year undergraduates who apply by 30 June are offered a room in halls. Rooms are let for 40 weeks and the price includes bills, insurance and Wi-Fi.",
            ],
        )
        + "<section><h2>Weekly rents 2027-28</h2><ul>"
        + f"<li>{HOUSING_FACT}, en-suite, self-catered</li>"
        + "<li>Willow Court: GBP 142 per week, shared bathroom, self-catered</li>"
        + "<li>Mill House: GBP 198 per week, en-suite, catered</li>"
        + "</ul></section>"
        + links("Documents", [("Hall rents 2027-28 (PDF)", "/files/halls-fees-2027.pdf")]),
    ),
    "/life/stay/private/": (
        "Private renting",
        section(
            "Renting in Westmere",
            [
                "A room in a shared house in Westmere typically costs GBP 120 to GBP 160 per week. Ask the housing advice team to check your contract before you sign.",
            ],
        ),
    ),
    "/life/sport/": (
        "Sport",
        section(
            "Sport at Westmere",
            [
                "Sport Westmere runs 55 clubs and a gym on each campus. Student membership costs GBP 190 per year.",
            ],
        ),
    ),
    "/about/": (
        "About Westmere",
        section(
            "Our university",
            [
                "Westmere University received its charter in 1965. It is governed by a council of lay members, staff and students.",
            ],
        )
        + links("More", [("Staff directory", "/about/staff/")]),
    ),
    "/about/staff/": (
        "Staff directory",
        "<table><tr><th>Name</th><th>Role</th><th>Email</th></tr>"
        + "".join(
            f"<tr><td>{esc(n)}</td><td>{esc(r)}</td><td>{esc(e)}</td></tr>"
            for n, r, e in [
                ("Prof. Helen Marsh", "Vice-Chancellor", "vc@westmere.example"),
                ("Dr Owen Pryce", "Director of Admissions", "admissions@westmere.example"),
                ("Sarah Quinn", "Head of Accommodation", "halls@westmere.example"),
                ("Imran Shah", "Money Advice Manager", "money@westmere.example"),
                ("Dr Claire Dunn", "University Librarian", "library@westmere.example"),
            ]
        )
        + "</table>",
    ),
    "/research/repository": (
        "Research repository",
        section(
            "Open research",
            [
                "The repository holds 38,000 papers, theses and data sets by Westmere researchers. Search is slow while the index is rebuilt.",
            ],
        ),
    ),
}

# Pages under /info/ link with RELATIVE hrefs, so /info/info/… repeats forever.
INFO_PAGES: dict[str, tuple[str, str]] = {
    "": (
        "Information for students",
        section(
            "Services A to Z",
            [
                "This section collects the everyday services students use: the library, IT, printing and the help desk.",
            ],
        )
        + links(
            "Services",
            [("Library", "library/"), ("IT services", "it/"), ("More information", "info/")],
        ),
    ),
    "library/": (
        "Library",
        section(
            "Opening hours",
            [
                "The Main Library is open "
                + LIBRARY_FACT
                + " during term time. In the vacations it closes at 20:00.",
                "The help desk is staffed from 09:00 to 17:00 on weekdays.",
            ],
        )
        + links("Related", [("IT services", "../it/"), ("More information", "../info/")]),
    ),
    "it/": (
        "IT services",
        section(
            "Getting connected",
            ["Wi-Fi covers all buildings and halls. Printing costs 5p per page."],
        )
        + links("Related", [("More information", "../info/")]),
    ),
}

MAPS_BODY = section(
    "Campus maps",
    ["Maps of the City and Riverside campuses, with step-free routes and parking."],
) + links("Maps", [("Riverside campus map", "campus/maps/"), ("City campus map", "campus/maps/")])

PDFS: dict[str, tuple[str, list[str]]] = {
    "/files/tuition-fees-2027-28.pdf": (
        "Westmere University - Tuition fees 2027-28",
        [f"{a}: {b}" for a, b in FEE_ROWS],
    ),
    "/files/halls-fees-2027.pdf": (
        "Westmere University - Hall rents 2027-28",
        [
            "Ashcombe Hall: GBP 165 per week (en-suite, self-catered).",
            "Willow Court: GBP 142 per week.",
            "Mill House: GBP 198 per week (catered).",
        ],
    ),
}


# --- trap generators ----------------------------------------------------------------

EVENT_NAMES = [
    "Open lecture: rivers and cities",
    "Careers fair",
    "Film night at the union",
    "Chess club tournament",
    "Farmers' market on the green",
    "Guest talk: writing for radio",
    "Choir concert",
    "Volunteering fair",
]

MONTH_NAMES = [
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
]  # fmt: skip


def shift_month(year: int, month: int, delta: int) -> tuple[int, int]:
    index = year * 12 + (month - 1) + delta
    return index // 12, index % 12 + 1


def month_events(year: int, month: int) -> list[tuple[int, str]]:
    seed = digest(f"events|{year}-{month:02d}")
    count = 3 + seed[0] % 4
    return sorted(
        (1 + seed[i + 1] % 28, EVENT_NAMES[seed[i + 10] % len(EVENT_NAMES)]) for i in range(count)
    )


def events_page(page_path: str, year: int, month: int) -> str:
    py, pm = shift_month(year, month, -1)
    ny, nm = shift_month(year, month, 1)
    items = "".join(
        f'<li>{day} {MONTH_NAMES[month - 1]}: <a href="/calendar/{year}/{month:02d}/{day:02d}/">{esc(name)}</a></li>'
        for day, name in month_events(year, month)
    )
    body = (
        section(
            "What's on",
            ["Talks, concerts, fairs and club events open to students, staff and visitors."],
        )
        + f"<section><h2>{MONTH_NAMES[month - 1]} {year}</h2><ul>{items}</ul></section>"
        + f'<p><a href="/events?month={py}-{pm:02d}" rel="prev">Previous month</a> · '
        f'<a href="/events?month={ny}-{nm:02d}" rel="next">Next month</a></p>'
    )
    return layout(page_path, f"Events: {MONTH_NAMES[month - 1]} {year}", body)


def calendar_month_page(page_path: str, year: int, month: int) -> str:
    py, pm = shift_month(year, month, -1)
    ny, nm = shift_month(year, month, 1)
    days = "".join(
        f'<a href="/calendar/{year}/{month:02d}/{d:02d}/">{d}</a> ' for d in range(1, 29)
    )
    body = (
        f'<section><h2>{MONTH_NAMES[month - 1]} {year}</h2><p class="days">{days}</p></section>'
        f'<p><a href="/calendar/{py}/{pm:02d}/">« {MONTH_NAMES[pm - 1]}</a> · '
        f'<a href="/calendar/{ny}/{nm:02d}/">{MONTH_NAMES[nm - 1]} »</a></p>'
    )
    return layout(page_path, f"Calendar {MONTH_NAMES[month - 1]} {year}", body)


def calendar_day_page(page_path: str, year: int, month: int, day: int) -> str:
    events = [name for d, name in month_events(year, month) if d == day]
    listing = paras(
        [f"{name}, 18:00, Great Hall." for name in events] or ["No events on this day."]
    )
    prev_day = (year, month, day - 1) if day > 1 else (*shift_month(year, month, -1), 28)
    next_day = (year, month, day + 1) if day < 28 else (*shift_month(year, month, 1), 1)
    body = (
        f"<section><h2>{day} {MONTH_NAMES[month - 1]} {year}</h2>{listing}</section>"
        f'<p><a href="/calendar/{prev_day[0]}/{prev_day[1]:02d}/{prev_day[2]:02d}/">Previous day</a> · '
        f'<a href="/calendar/{next_day[0]}/{next_day[1]:02d}/{next_day[2]:02d}/">Next day</a> · '
        f'<a href="/calendar/{year}/{month:02d}/">Whole month</a></p>'
    )
    return layout(page_path, f"Events on {day} {MONTH_NAMES[month - 1]} {year}", body)


FACETS: dict[str, list[str]] = {
    "level": ["undergraduate", "postgraduate", "short-course"],
    "mode": ["full-time", "part-time", "online"],
    "campus": ["city", "riverside"],
    "subject": ["engineering", "business", "nursing", "history", "computing", "law"],
    "sort": ["name", "relevance", "newest"],
}

COURSES: list[tuple[str, str, str, str, str]] = [
    # title, level, mode, campus, subject
    ("BEng Civil Engineering", "undergraduate", "full-time", "riverside", "engineering"),
    ("BSc Business Management", "undergraduate", "full-time", "city", "business"),
    ("BSc Adult Nursing", "undergraduate", "full-time", "city", "nursing"),
    ("BA History", "undergraduate", "full-time", "city", "history"),
    ("BSc Computer Science", "undergraduate", "full-time", "riverside", "computing"),
    ("LLB Law", "undergraduate", "full-time", "city", "law"),
    ("MSc Data Science", "postgraduate", "full-time", "riverside", "computing"),
    ("MBA", "postgraduate", "part-time", "city", "business"),
    ("MA Public History", "postgraduate", "part-time", "city", "history"),
    ("Certificate in Python Programming", "short-course", "online", "riverside", "computing"),
    ("Certificate in Employment Law", "short-course", "online", "city", "law"),
]


def courses_page(page_path: str, params: dict[str, list[str]]) -> str:
    chosen = {k: v[0] for k, v in params.items() if k in FACETS and v and v[0]}
    matches = [
        c
        for c in COURSES
        if all(
            chosen.get(key) in (None, value)
            for key, value in zip(("level", "mode", "campus", "subject"), c[1:], strict=True)
        )
    ]
    facet_html = ""
    for key, values in FACETS.items():
        anchors = []
        for value in values:
            # Every facet link keeps the other choices: every combination is linked.
            choice = {**chosen, key: value}
            query = {k: choice[k] for k in FACETS if k in choice}
            anchors.append(f'<a href="/courses?{esc(urlencode(query))}">{esc(value)}</a>')
        facet_html += (
            f'<p class="facets"><strong>{esc(key.title())}:</strong> {"".join(anchors)}</p>'
        )
    results = "".join(
        f"<li>{esc(c[0])} ({esc(c[1])}, {esc(c[2])}, {esc(c[3])})</li>" for c in matches
    )
    body = (
        section(
            "Course finder", ["Filter our courses by level, mode of study, campus and subject."]
        )
        + f'<section aria-label="Filters">{facet_html}</section>'
        + f"<section><h2>{len(matches)} courses</h2><ul>{results}</ul></section>"
    )
    return layout(page_path, "Course finder", body)


def news_list_page(page_path: str, number: int) -> str:
    items = []
    for k in range(NEWS_PER_PAGE):
        n = (number - 1) * NEWS_PER_PAGE + k + 1
        items.append(f'<li><a href="/news/archive/{n}">Campus bulletin no. {n}</a></li>')
    if number == 1:
        items = [
            f'<li><a href="/news/{slug}">{esc(title)}</a> ({esc(date)})</li>'
            for slug, title, date, _ in NEWS_ITEMS
        ] + items
    prev = f'<a href="/news?page={number - 1}" rel="prev">Newer</a> · ' if number > 1 else ""
    body = (
        f"<section><h2>News, page {number}</h2><ul>{''.join(items)}</ul></section>"
        f'<p>{prev}<a href="/news?page={number + 1}" rel="next">Older stories</a></p>'
    )
    return layout(page_path, "News", body)


def bulletin_page(page_path: str, n: int) -> str:
    seed = digest(f"bulletin|{n}")
    topic = [
        "roadworks on Abbey Lane",
        "a change to shuttle bus times",
        "library printer upgrades",
        "a fire alarm test",
    ][seed[0] % 4]
    body = section(
        f"Campus bulletin no. {n}",
        [
            f"This week's bulletin covers {topic}. Students and staff should allow extra time for journeys between campuses.",
            "Bulletins are published every Monday during term.",
        ],
    )
    return layout(page_path, f"Campus bulletin no. {n}", body)


def soft_404(page_path: str) -> Response:
    body = section(
        "Sorry, we couldn't find that page",
        ["The page may have moved. Try the search box or start again from the home page."],
    ) + links("Popular pages", [("Home", "/"), ("Study", "/study/")])
    # Soft 404: the CMS answers 200 with a "not found" page.
    return html(layout(page_path, "Page not found", body))


# --- routing -----------------------------------------------------------------

CAL_MONTH = re.compile(r"^/calendar/(\d{4})/(\d{2})/$")
CAL_DAY = re.compile(r"^/calendar/(\d{4})/(\d{2})/(\d{2})/$")
MONTH_PARAM = re.compile(r"^(\d{4})-(\d{2})$")
MAPS = re.compile(r"^/(campus/maps/)+$")


def handle(request: Request) -> Response:
    path, _path_params = split_path_params(request.path)  # ;jsessionid= is accepted anywhere
    params = request.params
    delay = 0.0
    if path == "/robots.txt":
        return text("User-agent: *\nAllow: /\n")
    if path == "/loop-a":
        return redirect("/loop-b")
    if path == "/loop-b":
        return redirect("/loop-a")
    if path in PDFS:
        title, lines = PDFS[path]
        return pdf_response(title, lines)
    if path == "/life/stay/halls/":
        delay = SLOW_PAGE_DELAY_S
    elif path == "/research/repository":
        delay = VERY_SLOW_PAGE_DELAY_S
    page_html = route(path, params)
    if page_html is None:
        return soft_404(path)
    response = html(page_html)
    if delay:
        return Response(
            status=response.status,
            body=response.body,
            content_type=response.content_type,
            headers=response.headers,
            delay_s=delay,
        )
    return response


def route(path: str, params: dict[str, list[str]]) -> str | None:
    if path in STATIC_PAGES:
        title, body = STATIC_PAGES[path]
        extra = ""
        if path == "/study/costs/":
            extra = (
                f'<script type="application/json" id="fee-data">{json.dumps(FEE_ROWS)}</script>'
                f"<script>{COSTS_JS}</script>"
            )
        return layout(path, title, body, extra)
    if path.startswith("/info/"):
        rest = path[len("/info/") :]
        while rest.startswith("info/"):  # /info/info/info/ … serve the same pages
            rest = rest[len("info/") :]
        if rest in INFO_PAGES:
            title, body = INFO_PAGES[rest]
            return layout(path, title, body)
        return None
    if MAPS.match(path):
        return layout(path, "Campus maps", MAPS_BODY)
    if path == "/events":
        year, month = CALENDAR_HOME
        match = MONTH_PARAM.match(params.get("month", [""])[0])
        if match and 1 <= int(match.group(2)) <= 12:
            year, month = int(match.group(1)), int(match.group(2))
        return events_page(path, year, month)
    if m := CAL_MONTH.match(path):
        year, month = int(m.group(1)), int(m.group(2))
        return calendar_month_page(path, year, month) if 1 <= month <= 12 else None
    if m := CAL_DAY.match(path):
        year, month, day = (int(g) for g in m.groups())
        return (
            calendar_day_page(path, year, month, day)
            if 1 <= month <= 12 and 1 <= day <= 28
            else None
        )
    if path == "/courses":
        return courses_page(path, params)
    if path == "/news":
        try:
            number = max(1, int(params.get("page", ["1"])[0]))
        except ValueError:
            number = 1
        return news_list_page(path, number)
    if path.startswith("/news/archive/"):
        tail = path[len("/news/archive/") :]
        return bulletin_page(path, int(tail)) if tail.isdigit() else None
    for slug, headline, date, story in NEWS_ITEMS:
        if path == f"/news/{slug}":
            return layout(path, headline, f"<p>{esc(date)}</p>" + paras(story))
    return None


PORTAL = Portal(
    name="traps",
    handle=handle,
    description="Westmere University: calendars, session ids, facets, endless pagination, loops, slow and broken pages",
)
