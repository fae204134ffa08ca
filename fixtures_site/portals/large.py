"""The ``large`` portal: Meridian University, 5,000+ server-rendered routes for scale runs.

Every page is generated on request from the index arithmetic in
``_large_data`` (faculties x departments x courses x years, department staff
lists and staff pages, a news archive by year and month), plus hand-written
pages deep inside that tree. :func:`routes` lists every page path.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

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
from fixtures_site.portals._kit import Page, esc, news_list, staff_table
from fixtures_site.portals._large_data import (
    ATTACHMENTS,
    COURSE_TEMPLATES,
    EXTRA_SECTIONS,
    FACULTIES,
    FIRST_NAMES,
    FOOTER,
    LAST_NAMES,
    MONTHS,
    NAV,
    NEWS_PER_MONTH,
    NEWS_TEMPLATES,
    NEWS_YEARS,
    RESEARCH_TOPICS,
    ROLES,
    SPECIAL,
    STAFF_PER_DEPARTMENT,
    UNIVERSITY,
    YEARS,
)


def slugify(value: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", value.lower()).strip("-")


@dataclass(frozen=True)
class Department:
    index: int  # position among all departments
    faculty: str  # faculty slug
    slug: str
    name: str

    @property
    def path(self) -> str:
        return f"/faculties/{self.faculty}/{self.slug}/"

    @property
    def faculty_name(self) -> str:
        return FACULTIES[self.faculty][0]


@dataclass(frozen=True)
class Course:
    department: Department
    index: int  # position within the department
    slug: str
    name: str

    @property
    def path(self) -> str:
        return f"{self.department.path}courses/{self.slug}/"


@dataclass(frozen=True)
class Person:
    number: int
    department: Department
    slug: str
    name: str
    role: str
    topic: str

    @property
    def path(self) -> str:
        return f"/people/{self.slug}/"


def _departments() -> list[Department]:
    out: list[Department] = []
    for fac, (_name, _ug, _pg, names) in FACULTIES.items():
        for name in names:
            out.append(Department(len(out), fac, slugify(name), name))
    return out


DEPARTMENTS = _departments()
DEPT_BY_KEY = {(d.faculty, d.slug): d for d in DEPARTMENTS}


def courses(dept: Department) -> list[Course]:
    _fac, ug, pg, _names = FACULTIES[dept.faculty]
    out = []
    for i, (name_t, slug_t) in enumerate(COURSE_TEMPLATES):
        name = name_t.format(ug=ug, pg=pg, name=dept.name)
        slug = slugify(slug_t.format(ug=ug, pg=pg, slug=dept.slug))
        out.append(Course(dept, i, slug, name))
    return out


def people(dept: Department) -> list[Person]:
    out = []
    for i in range(STAFF_PER_DEPARTMENT):
        k = dept.index * STAFF_PER_DEPARTMENT + i
        first = FIRST_NAMES[(k * 7 + dept.index) % len(FIRST_NAMES)]
        last = LAST_NAMES[(k * 11 + k // len(FIRST_NAMES)) % len(LAST_NAMES)]
        role = ROLES[0] if i == 0 else ROLES[(k * 3) % len(ROLES)]
        topic = RESEARCH_TOPICS[(k * 5 + i) % len(RESEARCH_TOPICS)]
        slug = f"{slugify(first)}-{slugify(last)}-{k + 1}"
        out.append(Person(k + 1, dept, slug, f"{first} {last}", role, topic))
    return out


PERSON_BY_SLUG: dict[str, Person] = {p.slug: p for d in DEPARTMENTS for p in people(d)}


@dataclass(frozen=True)
class NewsItem:
    year: int
    month: int
    number: int
    slug: str
    headline: str
    body: str
    department: Department

    @property
    def path(self) -> str:
        return f"/news/{self.year}/{self.month:02d}/{self.slug}/"

    @property
    def date(self) -> str:
        day = 1 + (self.number * 2 + self.month) % 28
        return f"{day} {MONTHS[self.month - 1]} {self.year}"


def news_items(year: int, month: int) -> list[NewsItem]:
    out = []
    for n in range(NEWS_PER_MONTH):
        k = ((year - NEWS_YEARS[0]) * 12 + month - 1) * NEWS_PER_MONTH + n
        headline_t, body_t = NEWS_TEMPLATES[(k * 3 + year) % len(NEWS_TEMPLATES)]
        dept = DEPARTMENTS[(k * 7) % len(DEPARTMENTS)]
        fill = {"dept": dept.name, "fac": dept.faculty_name}
        headline = headline_t.format(**fill)
        slug = f"{n + 1:02d}-{slugify(headline)}"
        out.append(NewsItem(year, month, n, slug, headline, body_t.format(**fill), dept))
    return out


# ---------------------------------------------------------------------------
# route listing


def routes() -> list[str]:
    """Every page path of the portal (no attachments, no redirects)."""
    return list(_iter_routes())


def _iter_routes() -> Iterator[str]:
    yield "/"
    yield "/faculties/"
    for fac in FACULTIES:
        yield f"/faculties/{fac}/"
    for dept in DEPARTMENTS:
        yield dept.path
        yield f"{dept.path}people/"
        for course in courses(dept):
            yield course.path
            for y in range(1, YEARS + 1):
                yield f"{course.path}year-{y}/"
    yield from (p.path for p in PERSON_BY_SLUG.values())
    yield "/news/"
    for year in NEWS_YEARS:
        yield f"/news/{year}/"
        for month in range(1, 13):
            yield f"/news/{year}/{month:02d}/"
            for item in news_items(year, month):
                yield item.path
    yield from SPECIAL


# ---------------------------------------------------------------------------
# page builders


def _links(items: list[tuple[str, str]]) -> str:
    return "<ul>" + "".join(f'<li><a href="{esc(h)}">{esc(t)}</a></li>' for t, h in items) + "</ul>"


def _special_children(prefix: str) -> list[tuple[str, str]]:
    """Hand-written pages directly below ``prefix`` (one more path segment)."""
    depth = prefix.count("/")
    return [
        (page.title, path)
        for path, page in SPECIAL.items()
        if path.startswith(prefix) and path != prefix and path.count("/") == depth + 1
    ]


def home_page() -> Page:
    latest = news_items(NEWS_YEARS[-1], 12)[:5]
    faculties = [(name, f"/faculties/{slug}/") for slug, (name, *_rest) in FACULTIES.items()]
    return Page(
        "Home",
        "<h1>Meridian University</h1>"
        "<p>A university of 31,000 students and 4,000 staff, with ten faculties and schools "
        "on one campus beside the river. Explore our courses, research and people.</p>"
        "<h2>Faculties and schools</h2>"
        + _links(faculties)
        + "<h2>Latest news</h2>"
        + news_list([(i.date, i.headline, i.body[:120] + "…", i.path) for i in latest]),
    )


def faculties_page() -> Page:
    items = [(name, f"/faculties/{slug}/") for slug, (name, *_rest) in FACULTIES.items()]
    return Page(
        "Faculties and schools",
        "<h1>Faculties and schools</h1><p>Our teaching and research is organised in ten "
        "faculties and schools.</p>" + _links(items),
    )


def faculty_page(fac: str) -> Page:
    name = FACULTIES[fac][0]
    depts = [(d.name, d.path) for d in DEPARTMENTS if d.faculty == fac]
    extra = _special_children(f"/faculties/{fac}/")
    body = (
        f"<h1>{esc(name)}</h1>"
        f"<p>The {esc(name)} brings together {len(depts)} departments, around "
        f"{180 + 17 * len(fac)} academic staff and more than {2400 + 113 * len(fac)} students. "
        "Our teaching is shaped by research, and many of our courses include placements with "
        "employers in the region.</p>"
        "<h2>Departments</h2>" + _links(depts)
    )
    if extra:
        body += "<h2>For students</h2>" + _links(extra)
    return Page(name, body)


def department_page(dept: Department) -> Page:
    course_links = [(c.name, c.path) for c in courses(dept)]
    extra = _special_children(dept.path)
    body = (
        f"<h1>Department of {esc(dept.name)}</h1>"
        f"<p>Part of the {esc(dept.faculty_name)}, the Department of {esc(dept.name)} has "
        f"{STAFF_PER_DEPARTMENT} staff and about {300 + 37 * dept.index % 400} students. We "
        "are known for research-led teaching, small seminar groups and strong links with "
        "employers.</p>"
        "<h2>Courses</h2>" + _links(course_links) + "<h2>People</h2>"
        f'<p><a href="{dept.path}people/">Staff in {esc(dept.name)}</a></p>'
    )
    if extra:
        body += "<h2>Student information</h2>" + _links(extra)
    return Page(f"Department of {dept.name}", body)


def course_page(course: Course) -> Page:
    dept = course.department
    postgrad = course.index >= 3
    lead = people(dept)[course.index % STAFF_PER_DEPARTMENT]
    if course.name.startswith("PhD"):
        entry = "a good honours degree or a master's degree in a related subject"
    elif postgrad:
        entry = f"an upper second-class honours degree in {dept.name} or a related subject"
    else:
        entry = ["AAB", "ABB", "BBB", "AAA", "BBC", "ABB"][dept.index % 6] + " at A level"
    years = [(f"Year {y}", f"{course.path}year-{y}/") for y in range(1, YEARS + 1)]
    body = (
        f"<h1>{esc(course.name)}</h1>"
        f"<p>The {esc(course.name)} is taught by the Department of {esc(dept.name)}. You "
        "will learn through lectures, seminars and independent projects, and you will be "
        f"assessed by coursework, examinations and a final project. The course leader is "
        f'<a href="{lead.path}">{esc(lead.name)}</a>.</p>'
        f"<h2>Entry requirements</h2><p>Typical offer: {esc(entry)}.</p>"
        "<h2>Course structure</h2>" + _links(years)
    )
    body += EXTRA_SECTIONS.get(course.path, "")
    return Page(course.name, body)


MODULE_STEMS = [
    "Foundations of",
    "Methods in",
    "Current Debates in",
    "Applied",
    "Professional Practice in",
    "Advanced Topics in",
    "Research Project in",
    "Data and Evidence in",
]


def year_page(course: Course, year: int) -> Page:
    dept = course.department
    mods = [
        f"{MODULE_STEMS[(year * 2 + i + course.index) % len(MODULE_STEMS)]} {dept.name}"
        for i in range(4)
    ]
    body = (
        f"<h1>{esc(course.name)}: Year {year}</h1>"
        f"<p>In Year {year} you take four core modules worth 30 credits each. Modules are "
        "assessed by a mixture of coursework and examinations.</p>"
        "<ul>" + "".join(f"<li>{esc(m)}</li>" for m in mods) + "</ul>"
        f'<p><a href="{course.path}">Back to {esc(course.name)}</a></p>'
    )
    body += EXTRA_SECTIONS.get(f"{course.path}year-{year}/", "")
    return Page(f"{course.name}: Year {year}", body)


def department_people_page(dept: Department) -> Page:
    rows = people(dept)
    body = (
        f"<h1>Staff in {esc(dept.name)}</h1>"
        + staff_table(
            [
                (p.name, p.role, dept.name, f"{p.slug.rsplit('-', 1)[0]}@meridian.example.ac.uk")
                for p in rows
            ]
        )
        + "<h2>Profiles</h2>"
        + _links([(p.name, p.path) for p in rows])
    )
    return Page(f"Staff in {dept.name}", body)


def person_page(person: Person) -> Page:
    dept = person.department
    return Page(
        person.name,
        f"<h1>{esc(person.name)}</h1>"
        f"<p>{esc(person.role)}, Department of {esc(dept.name)}, {esc(dept.faculty_name)}.</p>"
        f"<p>{esc(person.name)} works on {esc(person.topic)} and teaches on undergraduate and "
        "postgraduate courses in the department. Office hours are on Tuesdays from 14:00 to "
        "16:00 during term.</p>"
        f'<p><a href="{dept.path}">Department of {esc(dept.name)}</a></p>',
    )


def news_index_page() -> Page:
    years = [(str(y), f"/news/{y}/") for y in reversed(NEWS_YEARS)]
    return Page("News archive", "<h1>News archive</h1>" + _links(years))


def news_year_page(year: int) -> Page:
    months = [(f"{MONTHS[m - 1]} {year}", f"/news/{year}/{m:02d}/") for m in range(1, 13)]
    return Page(f"News {year}", f"<h1>News from {year}</h1>" + _links(months))


def news_month_page(year: int, month: int) -> Page:
    items = news_items(year, month)
    return Page(
        f"News: {MONTHS[month - 1]} {year}",
        f"<h1>News: {MONTHS[month - 1]} {year}</h1>"
        + news_list([(i.date, i.headline, i.body[:140] + "…", i.path) for i in items]),
    )


def news_item_page(item: NewsItem) -> Page:
    return Page(
        item.headline,
        f"<h1>{esc(item.headline)}</h1><p><time>{item.date}</time></p>"
        f"<p>{esc(item.body)}</p>"
        f'<p>More from the <a href="{item.department.path}">Department of '
        f"{esc(item.department.name)}</a>.</p>",
    )


# ---------------------------------------------------------------------------
# dispatch


def find_page(path: str) -> Page | None:
    """The page at ``path``, or None. Paths end with a slash, as linked."""
    if path in SPECIAL:
        return SPECIAL[path]
    if path == "/":
        return home_page()
    parts = [p for p in path.split("/") if p]
    if not path.endswith("/"):
        return None
    if parts[0] == "faculties":
        return _faculty_tree(parts[1:])
    if parts[0] == "people" and len(parts) == 2:
        person = PERSON_BY_SLUG.get(parts[1])
        return person_page(person) if person else None
    if parts[0] == "news":
        return _news_tree(parts[1:])
    return None


def _faculty_tree(parts: list[str]) -> Page | None:
    if not parts:
        return faculties_page()
    if parts[0] not in FACULTIES:
        return None
    if len(parts) == 1:
        return faculty_page(parts[0])
    dept = DEPT_BY_KEY.get((parts[0], parts[1]))
    if dept is None:
        return None
    rest = parts[2:]
    if not rest:
        return department_page(dept)
    if rest == ["people"]:
        return department_people_page(dept)
    if rest[0] != "courses" or len(rest) < 2:
        return None
    course = next((c for c in courses(dept) if c.slug == rest[1]), None)
    if course is None:
        return None
    if len(rest) == 2:
        return course_page(course)
    match = re.fullmatch(r"year-(\d)", rest[2])
    if len(rest) == 3 and match and 1 <= int(match.group(1)) <= YEARS:
        return year_page(course, int(match.group(1)))
    return None


def _news_tree(parts: list[str]) -> Page | None:
    if not parts:
        return news_index_page()
    if not parts[0].isdigit() or int(parts[0]) not in NEWS_YEARS:
        return None
    year = int(parts[0])
    if len(parts) == 1:
        return news_year_page(year)
    if not parts[1].isdigit() or not 1 <= int(parts[1]) <= 12 or len(parts[1]) != 2:
        return None
    month = int(parts[1])
    if len(parts) == 2:
        return news_month_page(year, month)
    if len(parts) == 3:
        item = next((i for i in news_items(year, month) if i.slug == parts[2]), None)
        return news_item_page(item) if item else None
    return None


STYLE = (
    "body{font-family:Verdana,sans-serif;margin:0}header{background:#243b6b;padding:.7rem 2rem}"
    "header a{color:#fff;margin-right:1rem}.wrap{max-width:58rem;margin:1rem auto;padding:0 1rem}"
    "table{border-collapse:collapse}td,th{border:1px solid #bbb;padding:.2rem .5rem}"
    ".cards{display:flex;gap:1rem;flex-wrap:wrap}.card{border:1px solid #ccc;padding:.8rem;width:15rem}"
    "footer{border-top:1px solid #ccc;padding:1rem 2rem;font-size:.85rem}footer a{margin-right:1rem}"
)


def render(page: Page) -> str:
    nav = "".join(f'<a href="{h}">{esc(t)}</a>' for t, h in NAV)
    foot = "".join(f'<a href="{h}">{esc(t)}</a>' for t, h in FOOTER)
    return (
        '<!doctype html><html lang="en-GB"><head><meta charset="utf-8">'
        f"<title>{esc(page.title)} | {UNIVERSITY}</title><style>{STYLE}</style></head><body>"
        f'<header><a href="/"><b>{UNIVERSITY}</b></a><nav aria-label="Main">{nav}</nav></header>'
        f'<main class="wrap">{page.body}</main>'
        f'<footer><nav aria-label="Footer">{foot}</nav><p>&copy; {UNIVERSITY}</p></footer>'
        "</body></html>"
    )


def handle(request: Request) -> Response:
    path = request.path
    if path.startswith("/files/"):
        doc = ATTACHMENTS.get(path)
        return pdf_response(doc.title, doc.lines) if doc else not_found()
    if path == "/robots.txt":
        return text("User-agent: *\nAllow: /\n")
    page = find_page(path)
    if page is None and not path.endswith("/") and find_page(path + "/") is not None:
        return redirect(path + "/", status=301)
    if page is None:
        return not_found("Page not found")
    return html(render(page))


PORTAL = Portal(
    "large",
    handle,
    "Meridian University: 5,000+ generated server-rendered routes (faculties, courses, "
    "staff, news archive) with task pages deep inside",
)
