"""Content of the ``webcomponents`` portal (Northgate Institute of Technology), as data.

Pages are JSON-able dicts rendered by ``nit.js`` into shadow roots; programme
tab panels and the news list are served by the portal's JSON API.
"""

from __future__ import annotations

from typing import Any

Block = dict[str, Any]
PageData = dict[str, Any]

SITE = "Northgate Institute of Technology"
NEWS_PAGE_SIZE = 6
TAB_DELAY_S = 0.4


def card(title: str, text_: str, href: str, link: str = "Learn more", meta: str = "") -> Block:
    return {"title": title, "text": text_, "href": href, "link": link, "meta": meta}


def page(
    title: str,
    intro: list[str],
    blocks: list[Block],
    crumbs: list[tuple[str, str]] | None = None,
) -> PageData:
    return {
        "title": title,
        "intro": intro,
        "blocks": blocks,
        "breadcrumb": [[t, h] for t, h in [("Home", "/"), *(crumbs or [])]],
    }


# --- news -------------------------------------------------------------------

NEWS: list[dict[str, Any]] = [
    {
        "slug": "robotics-lab-opens",
        "date": "12 May 2027",
        "title": "New field robotics lab opens on the quayside",
        "summary": "Students in the MSc Robotics now test underwater drones in the harbour basin.",
        "body": [
            "The Quayside Field Robotics Lab opened this week with a tank, a slipway and a workshop shared by staff and students.",
            "Dr Mirela Vos, who leads the lab, said the space lets students move from simulation to real water within the first term.",
            "The lab is open to visiting researchers by appointment through the Faculty of Engineering office.",
        ],
    },
    {
        "slug": "harbour-hall-refurbished",
        "date": "2 May 2027",
        "title": "Harbour Hall reopens after refurbishment",
        "summary": "The kitchens and study rooms of our largest residence have been rebuilt.",
        "body": [
            "Residents returning in September will find new shared kitchens, a quiet study room on every floor and bicycle storage for 300 bikes.",
            "The works were funded from the estates budget and did not change the rents already published for the coming year.",
            "Students with questions about their room should contact the Residences Office rather than the contractor.",
        ],
    },
    {
        "slug": "open-day-june",
        "date": "24 April 2027",
        "title": "Postgraduate open day on 19 June",
        "summary": "Meet programme leaders, tour the labs and ask about funding and applications.",
        "body": [
            "The postgraduate open day runs from 10:00 to 16:00 in the Foundry Building.",
            "Programme leaders will give short talks every hour; the funding team will answer questions about scholarships and paying in instalments.",
            "Registration is free and lunch is provided for registered visitors.",
        ],
    },
    {
        "slug": "energy-grant",
        "date": "15 April 2027",
        "title": "EUR 3.2 million grant for tidal energy research",
        "summary": "The Centre for Marine Energy will lead a five-year European consortium.",
        "body": [
            "The consortium brings together eleven partners from six countries to study tidal turbines in shallow estuaries.",
            "Four doctoral students will be recruited in the first year of the project.",
            "The grant covers equipment, travel and the costs of a new data platform hosted by the institute.",
        ],
    },
    {
        "slug": "library-refit",
        "date": "3 April 2027",
        "title": "Main Library refit adds 200 study places",
        "summary": "The ground floor reopens with group rooms that can be booked online.",
        "body": [
            "The refit of the Main Library ground floor is complete, adding 200 study places and twelve bookable group rooms.",
            "Students can book rooms for up to three hours a day with their institute account.",
            "The archive reading room on the first floor is unaffected by the works.",
        ],
    },
    {
        "slug": "student-union-elections",
        "date": "27 March 2027",
        "title": "Student union elects new officers",
        "summary": "Turnout reached 31 per cent, the highest in a decade.",
        "body": [
            "Students elected five full-time officers for the coming year, including a new officer for postgraduate students.",
            "The incoming president said rents, transport and mental health would be the union's priorities.",
            "Officers take up their posts on 1 July.",
        ],
    },
    {
        "slug": "hackathon-results",
        "date": "18 March 2027",
        "title": "Quayside hackathon winners announced",
        "summary": "A team of first-year students built a flood warning app in 36 hours.",
        "body": [
            "Forty teams took part in this year's Quayside hackathon, sponsored by the city council.",
            "The winning team's flood warning app will be piloted in two neighbourhoods this autumn.",
            "The next hackathon is planned for February.",
        ],
    },
    {
        "slug": "visiting-professor",
        "date": "9 March 2027",
        "title": "Visiting professor in control theory joins the faculty",
        "summary": "Professor Ana Lindqvist will teach a masterclass series in the spring term.",
        "body": [
            "Professor Lindqvist joins from a leading Nordic technical university for one academic year.",
            "Her masterclasses are open to all postgraduate students and staff.",
            "Recordings will be available on the learning platform.",
        ],
    },
    {
        "slug": "aurora-scholarship-opens",
        "date": "28 February 2027",
        "title": "Applications open for the Aurora Scholarship",
        "summary": "Support for women entering our engineering master's programmes.",
        "body": [
            "The Aurora Scholarship supports women admitted to a master's programme in the Faculty of Engineering.",
            "Each Aurora Scholarship is worth EUR 5,000 per year and is paid in two instalments.",
            "Applications close on 30 April 2027; full terms are on the Aurora Scholarship page.",
        ],
        "links": [
            ("Aurora Scholarship: terms and how to apply", "/study/funding/aurora-scholarship/")
        ],
    },
    {
        "slug": "careers-fair",
        "date": "20 February 2027",
        "title": "Careers fair draws 90 employers",
        "summary": "Engineering, software and energy firms met students in the Foundry Building.",
        "body": [
            "The spring careers fair welcomed 90 employers and more than 1,400 students and graduates.",
            "Several firms offered paid summer placements for master's students.",
            "The careers service publishes the list of exhibitors on its pages.",
        ],
    },
    {
        "slug": "winter-graduation",
        "date": "5 February 2027",
        "title": "Winter graduation celebrates 640 graduates",
        "summary": "Ceremonies took place over two days in the City Hall.",
        "body": [
            "Graduates from all four faculties crossed the stage over two days.",
            "An honorary doctorate was awarded to the engineer who designed the harbour flood gates.",
            "Photographs are available from the alumni office.",
        ],
    },
    {
        "slug": "bike-scheme",
        "date": "22 January 2027",
        "title": "Bike-share scheme extended to all residences",
        "summary": "Docking stations now stand outside every residence and the main campus.",
        "body": [
            "The city bike-share scheme now has docking stations outside each residence.",
            "Students get the first 30 minutes of each ride free with their institute card.",
            "Staff can join the scheme through the sustainability office.",
        ],
    },
    {
        "slug": "data-centre",
        "date": "10 January 2027",
        "title": "Low-energy data centre goes live",
        "summary": "Waste heat from the new data centre warms the Foundry Building.",
        "body": [
            "The new data centre reuses its waste heat for the neighbouring Foundry Building.",
            "Research groups can request compute time through the research computing service.",
            "The project cut the institute's electricity costs by an estimated 8 per cent.",
        ],
    },
    {
        "slug": "new-year-message",
        "date": "2 January 2027",
        "title": "A new year message from the President",
        "summary": "Looking ahead to new programmes, buildings and partnerships.",
        "body": [
            "The President thanked students and staff for a year of growth in teaching and research.",
            "Two new master's programmes will open in 2028, subject to approval.",
            "The institute will also publish its new sustainability strategy in the spring.",
        ],
    },
]

AURORA_INDEX = next(i for i, n in enumerate(NEWS) if n["slug"] == "aurora-scholarship-opens")
assert AURORA_INDEX >= NEWS_PAGE_SIZE, "the Aurora article must only appear after 'Load more'"


def news_item(n: dict[str, Any]) -> dict[str, str]:
    return {
        "title": n["title"],
        "date": n["date"],
        "summary": n["summary"],
        "href": f"/news/{n['slug']}/",
    }


def news_page(n: dict[str, Any]) -> PageData:
    blocks: list[Block] = [{"type": "text", "heading": "", "paras": n["body"]}]
    if n.get("links"):
        blocks.append(
            {
                "type": "links",
                "heading": "Related",
                "links": [{"text": t, "href": h} for t, h in n["links"]],
            }
        )
    blocks.append(
        {
            "type": "text",
            "heading": "Press contact",
            "paras": [
                "Communications Office, Northgate Institute of Technology. Journalists can reach the press desk on weekdays from 09:00 to 17:00.",
            ],
        }
    )
    return page(n["title"], [n["date"]], blocks, [("News", "/news/")])


# --- programmes (tabs) -------------------------------------------------------

PROGRAMMES: dict[str, dict[str, Any]] = {
    "msc-robotics": {
        "title": "MSc Robotics",
        "summary": "Two years of autonomous systems, control and field robotics on the quayside.",
        "fee_eu": "EUR 4,200 per year",
        "fee_other": "EUR 18,400 per year",
        "leader": "Dr Mirela Vos",
        "modules": [
            "Robot kinematics",
            "State estimation",
            "Marine field robotics",
            "Machine learning for control",
        ],
    },
    "msc-data-engineering": {
        "title": "MSc Data Engineering",
        "summary": "Build and run data platforms: streaming, storage and large-scale processing.",
        "fee_eu": "EUR 4,200 per year",
        "fee_other": "EUR 16,900 per year",
        "leader": "Dr Tomas Reyes",
        "modules": [
            "Distributed storage",
            "Stream processing",
            "Data governance",
            "Cloud operations",
        ],
    },
    "msc-energy-systems": {
        "title": "MSc Sustainable Energy Systems",
        "summary": "Tidal, wind and grid integration, with a placement at an energy utility.",
        "fee_eu": "EUR 4,200 per year",
        "fee_other": "EUR 17,600 per year",
        "leader": "Prof. Hanne Olsen",
        "modules": ["Marine renewables", "Power electronics", "Energy markets", "Grid integration"],
    },
}

# Tabs with an href are deep-linkable (the shell preselects them); "modules" is click-only.
TABS: list[tuple[str, str, bool]] = [
    ("overview", "Overview", True),
    ("costs", "Cost of study", True),
    ("entry", "Entry requirements", True),
    ("modules", "Modules", False),
]
LINKED_TABS = {tab for tab, _, linked in TABS if linked}


def programme_base(slug: str) -> str:
    return f"/study/programmes/{slug}/"


def programme_tab_url(slug: str, tab: str) -> str:
    return f"/study/programmes/{slug}/{tab}"


def programme_page(slug: str, active: str) -> PageData:
    prog = PROGRAMMES[slug]
    tabs = [
        {"id": tab, "label": label, "href": programme_tab_url(slug, tab) if linked else None}
        for tab, label, linked in TABS
    ]
    return page(
        prog["title"],
        [prog["summary"]],
        [
            {
                "type": "tabs",
                "label": f"{prog['title']} sections",
                "src": f"/api/programmes/{slug}",
                "active": active,
                "tabs": tabs,
            },
            {
                "type": "text",
                "heading": "Talk to us",
                "paras": [
                    f"The programme is led by {prog['leader']}. Questions about the content of the programme go to the programme office; questions about visas, arrival and rooms go to the International Office.",
                    "We run online information sessions every month from October to May; recordings are shared with everyone who registers.",
                ],
            },
            {
                "type": "cards",
                "heading": "Next steps",
                "cards": [
                    card(
                        "How to apply",
                        "Documents, deadlines and the online application.",
                        "/study/apply/",
                    ),
                    card(
                        "Funding your studies",
                        "Scholarships and awards for master's students.",
                        "/study/funding/",
                    ),
                ],
            },
        ],
        [("Study", "/study/"), ("Programmes", "/study/programmes/")],
    )


def programme_panel(slug: str, tab: str) -> list[Block] | None:
    prog = PROGRAMMES[slug]
    title = prog["title"]
    if tab == "overview":
        return [
            {
                "type": "text",
                "heading": "About the programme",
                "paras": [
                    f"The {title} is a two-year, full-time programme taught in English on the Quayside campus. The first year builds a common core; in the second year students choose a specialisation and write a thesis with an industrial or research partner.",
                    "Teaching combines lectures, laboratory work and group projects. Class sizes are kept below forty so that every student works directly with academic staff in the labs.",
                    "Graduates work as engineers, analysts and researchers; about a fifth continue to doctoral study.",
                ],
            }
        ]
    if tab == "costs":
        pdf = f"/files/{slug}-costs-2027.pdf"
        return [
            {
                "type": "text",
                "heading": "What the programme costs",
                "paras": [
                    f"Tuition for students starting in September 2027 is {prog['fee_eu']} for students from the EU and EEA and {prog['fee_other']} for non-EU students.",
                    "The amount is fixed for the full length of the programme and can be paid in two instalments, in September and February.",
                    "Budget about EUR 950 a month for rent, food, transport and books on top of tuition.",
                ],
            },
            {
                "type": "table",
                "heading": "Annual amounts 2027-28",
                "head": ["Student group", "Per year", "Instalments"],
                "rows": [
                    ["EU and EEA", prog["fee_eu"], "2"],
                    ["Non-EU", prog["fee_other"], "2"],
                ],
            },
            {
                "type": "files",
                "heading": "Documents",
                "links": [{"text": f"{title}: cost of study 2027-28", "href": pdf, "note": "PDF"}],
            },
        ]
    if tab == "entry":
        return [
            {
                "type": "text",
                "heading": "Who can apply",
                "paras": [
                    "You need a bachelor's degree in engineering, computer science, physics or mathematics with an average of at least 70 per cent or equivalent.",
                    "Applicants whose first language is not English need IELTS 6.5 overall with no band below 6.0, or an equivalent test.",
                    "We also consider applicants with relevant professional experience; please describe it in your statement.",
                ],
            }
        ]
    if tab == "modules":
        return [
            {
                "type": "text",
                "heading": "Core modules",
                "paras": [", ".join(prog["modules"]) + "."],
            },
            {
                "type": "text",
                "heading": "Electives",
                "paras": [
                    "Electives change from year to year; the list for 2027-28 is published in July."
                ],
            },
        ]
    return None


# --- pages -------------------------------------------------------------------

HOUSING_PRICE = "Harbour Hall single en-suite room: EUR 640 per month"
HOUSING_GUARANTEE = "guaranteed a room if they apply by 15 June 2027"
AURORA_AMOUNT = "EUR 5,000 per year"
LIBRARY_HOURS = "Main Library: Monday to Friday 08:00-23:00, Saturday and Sunday 10:00-18:00"
INTL_DEADLINE = "Applications from outside the EU for September 2027 close on 1 March 2027"

PAGES: dict[str, PageData] = {
    "/": page(
        SITE,
        [
            "A technical institute on the Northgate waterfront: 7,800 students, four faculties and labs that open onto the harbour.",
        ],
        [
            {
                "type": "cards",
                "heading": "Explore",
                "cards": [
                    card(
                        "Study at Northgate",
                        "Master's programmes, applying and funding.",
                        "/study/",
                    ),
                    card("Campus life", "Where you live, eat, train and unwind.", "/campus-life/"),
                    card("Research", "Centres, labs, libraries and archives.", "/research/"),
                ],
            },
            {
                "type": "text",
                "heading": "Why Northgate",
                "paras": [
                    "Northgate was founded in 1962 as a school of marine engineering and became an institute of technology in 1994. Today our students learn in labs built on the old shipyard, and most programmes include a project with one of our 300 industry partners.",
                    "Our campus is compact: the teaching buildings, the library and the residences are all within a fifteen-minute walk of each other, and the harbour ferry connects the campus to the city centre.",
                    "We welcome students from more than 70 countries. Our International Office helps with visas, arrival and settling in.",
                ],
            },
            {
                "type": "news",
                "heading": "Latest news",
                "src": "/api/news",
                "pageSize": 3,
                "more": False,
            },
            {
                "type": "links",
                "heading": "",
                "links": [{"text": "All news", "href": "/news/"}],
            },
        ],
        [],
    ),
    "/study/": page(
        "Study",
        ["Master's programmes in engineering, computing and energy, taught in English."],
        [
            {
                "type": "cards",
                "heading": "Your studies",
                "cards": [
                    card(
                        "Postgraduate programmes",
                        "Three master's programmes, two years each.",
                        "/study/programmes/",
                    ),
                    card(
                        "How to apply",
                        "Documents, deadlines and the online portal.",
                        "/study/apply/",
                    ),
                    card("Funding your studies", "Scholarships and awards.", "/study/funding/"),
                    card(
                        "Exchange and visiting students",
                        "A semester or a year at Northgate.",
                        "/study/exchange/",
                    ),
                ],
            },
            {
                "type": "text",
                "heading": "Teaching at Northgate",
                "paras": [
                    "Our programmes are built around projects. In every semester students work in small teams on a problem set by an industry partner, a city department or one of our research centres.",
                    "The academic year runs from early September to late June, with two semesters of fourteen weeks and an exam period at the end of each.",
                    "Teaching takes place on the Quayside campus; some modules include field work on the harbour and on partner sites along the coast.",
                ],
            },
        ],
        [],
    ),
    "/study/programmes/": page(
        "Postgraduate programmes",
        ["All master's programmes start in September and last two years."],
        [
            {
                "type": "cards",
                "heading": "Programmes",
                "cards": [
                    card(p["title"], p["summary"], programme_base(slug), "View programme")
                    for slug, p in PROGRAMMES.items()
                ],
            },
            {
                "type": "text",
                "heading": "Choosing a programme",
                "paras": [
                    "Each programme page has sections on the content, on entry requirements and on what the programme costs. Programme leaders are happy to answer questions by email or in an online information session.",
                    "If you are unsure which programme fits your background, book a fifteen-minute call with an admissions adviser.",
                ],
            },
        ],
        [("Study", "/study/")],
    ),
    "/study/apply/": page(
        "How to apply",
        ["Apply online through the Northgate applicant portal."],
        [
            {
                "type": "accordion",
                "heading": "The steps",
                "id": "steps",
                "items": [
                    {
                        "title": "1. Check the entry requirements",
                        "paras": [
                            "Each programme lists its requirements on its own page, under Entry requirements."
                        ],
                    },
                    {
                        "title": "2. Prepare your documents",
                        "paras": [
                            "You need your transcripts, a CV, a one-page statement and two references."
                        ],
                    },
                    {
                        "title": "3. Submit the online form",
                        "paras": [
                            "The portal saves your progress; you can submit once all documents are uploaded."
                        ],
                    },
                    {
                        "title": "4. Interview and decision",
                        "paras": [
                            "Shortlisted applicants have a 20-minute online interview. Decisions follow within four weeks."
                        ],
                    },
                ],
            },
            {
                "type": "cards",
                "heading": "Where do you come from?",
                "cards": [
                    card(
                        "Applicants from the EU and EEA",
                        "Deadlines and documents for EU applicants.",
                        "/study/apply/eu/",
                    ),
                    card(
                        "Applying from outside the EU",
                        "Earlier deadlines, visas and document checks.",
                        "/study/apply/international/",
                    ),
                ],
            },
            {
                "type": "text",
                "heading": "Application fee",
                "paras": [
                    "There is no application fee. A deposit is only due after you accept an offer."
                ],
            },
        ],
        [("Study", "/study/")],
    ),
    "/study/apply/eu/": page(
        "Applicants from the EU and EEA",
        ["EU and EEA applicants can apply until 1 June for programmes starting in September."],
        [
            {
                "type": "text",
                "heading": "Documents",
                "paras": [
                    "Upload certified copies of your degree certificate and transcript. Documents in a language other than English, Dutch, German or French need a certified translation.",
                    "You do not need a visa; register with the city within five days of arrival.",
                ],
            }
        ],
        [("Study", "/study/"), ("How to apply", "/study/apply/")],
    ),
    "/study/apply/international/": page(
        "Applying from outside the EU",
        [
            "Visa procedures take time, so our deadlines for applicants from outside the EU are earlier."
        ],
        [
            {
                "type": "text",
                "heading": "Key dates",
                "paras": [
                    INTL_DEADLINE + ". Late applications are considered only if places remain.",
                    "Offers are sent by 15 April. Accept your offer and pay the deposit of EUR 1,500 by 15 May so that we can start your visa application.",
                ],
            },
            {
                "type": "text",
                "heading": "Visas and arrival",
                "paras": [
                    "The International Office applies for your residence permit on your behalf once you have paid the deposit. Allow eight weeks for the permit.",
                    "Arrival days in late August include airport pick-up, help with registration at the city office and an introduction to the campus.",
                ],
            },
            {
                "type": "files",
                "heading": "Documents",
                "links": [
                    {
                        "text": "Checklist for international applicants 2027",
                        "href": "/files/international-application-checklist-2027.pdf",
                        "note": "PDF",
                    }
                ],
            },
        ],
        [("Study", "/study/"), ("How to apply", "/study/apply/")],
    ),
    "/study/funding/": page(
        "Funding your studies",
        ["Scholarships and awards for students admitted to a master's programme."],
        [
            {
                "type": "cards",
                "heading": "Awards",
                "cards": [
                    card(
                        "Aurora Scholarship",
                        "For women entering an engineering master's programme.",
                        "/study/funding/aurora-scholarship/",
                    ),
                    card(
                        "Quayside Excellence Award",
                        "A partial tuition waiver for top applicants.",
                        "/study/funding/excellence-award/",
                    ),
                ],
            },
            {
                "type": "text",
                "heading": "Other support",
                "paras": [
                    "Students in financial difficulty can apply to the hardship fund at any time of year. Part-time jobs on campus, in the library, labs and student union, are advertised every September.",
                    "Some national governments and employers sponsor students at Northgate; ask your sponsor to contact the Finance Office.",
                ],
            },
        ],
        [("Study", "/study/")],
    ),
    "/study/funding/aurora-scholarship/": page(
        "Aurora Scholarship",
        [
            "The Aurora Scholarship supports women admitted to a master's programme in the Faculty of Engineering."
        ],
        [
            {
                "type": "text",
                "heading": "What you receive",
                "paras": [
                    f"The award is {AURORA_AMOUNT} for the two years of the programme, paid in two instalments each year. It can be combined with other awards except the Quayside Excellence Award.",
                    "Ten scholarships are awarded each year. Holders are paired with a mentor from one of our industry partners.",
                ],
            },
            {
                "type": "text",
                "heading": "How to apply",
                "paras": [
                    "Apply after you have received an offer. Send a one-page letter describing a technical project you are proud of to the Funding Office by 30 April 2027.",
                    "Decisions are sent in the last week of May.",
                ],
            },
            {
                "type": "files",
                "heading": "Documents",
                "links": [
                    {
                        "text": "Aurora Scholarship terms 2027",
                        "href": "/files/aurora-scholarship-terms-2027.pdf",
                        "note": "PDF",
                    }
                ],
            },
        ],
        [("Study", "/study/"), ("Funding", "/study/funding/")],
    ),
    "/study/funding/excellence-award/": page(
        "Quayside Excellence Award",
        ["A partial tuition waiver for applicants with outstanding academic records."],
        [
            {
                "type": "text",
                "heading": "About the award",
                "paras": [
                    "The award reduces tuition by a quarter for the length of the programme. Every applicant is considered automatically; there is no separate application.",
                    "Award holders must keep an average of 70 per cent in the first year for the award to continue.",
                ],
            }
        ],
        [("Study", "/study/"), ("Funding", "/study/funding/")],
    ),
    "/study/exchange/": page(
        "Exchange and visiting students",
        ["Spend a semester or a year at Northgate through one of our 80 partner agreements."],
        [
            {
                "type": "text",
                "heading": "Coming on exchange",
                "paras": [
                    "Exchange students are nominated by their home university and pay no tuition at Northgate. Visiting students who come without an agreement pay per credit.",
                    "Exchange students can take modules from any master's programme, subject to prerequisites, and most take 30 credits per semester.",
                    "Rooms for exchange students are offered in Linden Court for the length of the stay.",
                ],
            }
        ],
        [("Study", "/study/")],
    ),
    "/campus-life/": page(
        "Campus life",
        ["Life on the quayside: where you stay, how you stay well and what you do after class."],
        [
            {
                "type": "cards",
                "heading": "Around campus",
                "cards": [
                    card(
                        "Residences",
                        "Three residences within walking distance of the labs.",
                        "/campus-life/residences/",
                    ),
                    card(
                        "Sport and fitness",
                        "Rowing, climbing and a gym open until late.",
                        "/campus-life/sport/",
                    ),
                    card(
                        "Wellbeing", "Counselling, health and support.", "/campus-life/wellbeing/"
                    ),
                ],
            },
            {
                "type": "text",
                "heading": "A small campus in a harbour city",
                "paras": [
                    "Northgate's campus sits between the old shipyard and the city centre. Cafes, the student union and the sports centre are all on the quayside, and the ferry runs every twenty minutes until midnight.",
                    "More than 120 student societies meet during the year, from sailing and robotics to film and cooking.",
                ],
            },
        ],
        [],
    ),
    "/campus-life/residences/": page(
        "Residences",
        ["Our three residences house 2,100 students in single rooms and studios."],
        [
            {
                "type": "accordion",
                "heading": "Our residences",
                "id": "halls",
                "items": [
                    {
                        "title": "Harbour Hall",
                        "paras": [
                            "Harbour Hall has 900 rooms in flats of six, each with a shared kitchen, five minutes from the Foundry Building.",
                            HOUSING_PRICE + ", bills and internet included, on a 44-week contract.",
                        ],
                    },
                    {
                        "title": "Linden Court",
                        "paras": [
                            "Linden Court has 700 standard rooms with shared bathrooms. A standard room costs EUR 480 per month on a 40-week contract.",
                            "Exchange students are housed in Linden Court for the length of their stay.",
                        ],
                    },
                    {
                        "title": "Foundry Studios",
                        "paras": [
                            "Foundry Studios has 500 self-contained studios for postgraduate students and couples. A studio costs EUR 890 per month on a 51-week contract.",
                        ],
                    },
                ],
            },
            {
                "type": "text",
                "heading": "Who gets a room",
                "paras": [
                    "First-year international students are "
                    + HOUSING_GUARANTEE
                    + "; other students are allocated rooms in order of application.",
                    "Rooms are allocated in July. You pay a deposit of one month's rent when you accept your room.",
                ],
            },
            {
                "type": "cards",
                "heading": "More about living here",
                "cards": [
                    card(
                        "Arriving from abroad",
                        "Rooms, arrival days and your first week.",
                        "/campus-life/residences/international/",
                    ),
                ],
            },
            {
                "type": "files",
                "heading": "Documents",
                "links": [
                    {
                        "text": "Residences price list 2027-28",
                        "href": "/files/residences-price-list-2027.pdf",
                        "note": "PDF",
                    }
                ],
            },
        ],
        [("Campus life", "/campus-life/")],
    ),
    "/campus-life/residences/international/": page(
        "Arriving from abroad",
        ["Moving to a new country is easier when your room is waiting for you."],
        [
            {
                "type": "text",
                "heading": "Your room",
                "paras": [
                    "First-year international students are "
                    + HOUSING_GUARANTEE
                    + " through the residences portal.",
                    "Most international students live in Harbour Hall. "
                    + HOUSING_PRICE
                    + ", bills and internet included.",
                    "Bedding packs can be ordered in advance and will be in your room when you arrive.",
                ],
            },
            {
                "type": "text",
                "heading": "Arrival days",
                "paras": [
                    "On the arrival days at the end of August, student helpers meet trains and flights and bring you to your residence. Keys are handed out at the Residences Office from 08:00 to 22:00.",
                    "During your first week you register with the city, open a bank account and attend the welcome programme.",
                ],
            },
        ],
        [("Campus life", "/campus-life/"), ("Residences", "/campus-life/residences/")],
    ),
    "/campus-life/sport/": page(
        "Sport and fitness",
        ["The Quayside Sports Centre is open to all students and staff."],
        [
            {
                "type": "text",
                "heading": "Facilities",
                "paras": [
                    "The sports centre has a gym, a climbing wall, a 25-metre pool and a boathouse on the harbour. Membership for students costs EUR 120 per year.",
                    "Rowing, sailing and dragon-boat clubs train on the harbour basin all year round.",
                ],
            }
        ],
        [("Campus life", "/campus-life/")],
    ),
    "/campus-life/wellbeing/": page(
        "Wellbeing",
        ["Support for your health and wellbeing while you study."],
        [
            {
                "type": "text",
                "heading": "Where to get help",
                "paras": [
                    "The Student Wellbeing Service offers counselling, workshops and a drop-in service on weekdays. Appointments are free and confidential.",
                    "In an emergency outside office hours, call the campus security desk, which is staffed around the clock.",
                ],
            }
        ],
        [("Campus life", "/campus-life/")],
    ),
    "/research/": page(
        "Research",
        ["Applied research in marine engineering, energy, data and robotics."],
        [
            {
                "type": "cards",
                "heading": "Research at Northgate",
                "cards": [
                    card(
                        "Research centres",
                        "Four centres working with industry and the city.",
                        "/research/centres/",
                    ),
                    card(
                        "Libraries and archives",
                        "Collections, study spaces and the shipyard archive.",
                        "/research/libraries/",
                    ),
                ],
            },
            {
                "type": "text",
                "heading": "Our strengths",
                "paras": [
                    "Northgate researchers published more than 600 papers last year and hold grants from national and European funders. Our doctoral school has 240 candidates.",
                ],
            },
        ],
        [],
    ),
    "/research/centres/": page(
        "Research centres",
        ["Four research centres bring together staff from all faculties."],
        [
            {
                "type": "text",
                "heading": "Centres",
                "paras": [
                    "The Centre for Marine Energy studies tidal and wave power. The Autonomous Systems Centre builds robots for harbours and offshore sites. The Data Systems Centre works on large-scale data platforms. The Coastal Cities Centre studies flood risk and urban planning.",
                ],
            }
        ],
        [("Research", "/research/")],
    ),
    "/research/libraries/": page(
        "Libraries and archives",
        ["Two libraries and the shipyard archive serve students, staff and visitors."],
        [
            {
                "type": "accordion",
                "heading": "When we are open",
                "id": "hours",
                "items": [
                    {
                        "title": "Main Library",
                        "paras": [
                            LIBRARY_HOURS
                            + ". During exam periods the ground floor stays open until 02:00.",
                            "Self-service machines handle loans and returns at any time the building is open.",
                        ],
                    },
                    {
                        "title": "Foundry Library",
                        "paras": [
                            "Foundry Library: Monday to Friday 09:00-18:00, closed at weekends."
                        ],
                    },
                    {
                        "title": "Shipyard Archive",
                        "paras": [
                            "The archive reading room is open by appointment on Tuesdays and Thursdays."
                        ],
                    },
                ],
            },
            {
                "type": "text",
                "heading": "Using the collections",
                "paras": [
                    "Students and staff borrow with their institute card. Visitors can read on site after registering at the information desk.",
                    "The libraries hold 420,000 printed volumes and give access to more than 60,000 electronic journals.",
                ],
            },
        ],
        [("Research", "/research/")],
    ),
    "/news/": page(
        "News",
        ["Stories from the quayside: research, students, campus and city."],
        [
            {
                "type": "news",
                "heading": "All news",
                "src": "/api/news",
                "pageSize": NEWS_PAGE_SIZE,
                "more": True,
            },
        ],
        [],
    ),
    "/about/": page(
        "About the institute",
        ["Northgate Institute of Technology is a public institute of technology."],
        [
            {
                "type": "text",
                "heading": "Governance",
                "paras": [
                    "The institute is governed by a board of twelve members, including two students elected each year. The President leads the executive team.",
                    "Our annual report, published each December, sets out our finances, student numbers and research income.",
                ],
            },
            {
                "type": "cards",
                "heading": "Find out more",
                "cards": [
                    card(
                        "Staff directory", "Contact details of offices and staff.", "/about/staff/"
                    ),
                    card(
                        "Contact us",
                        "Addresses, phone numbers and opening times.",
                        "/about/contact/",
                    ),
                ],
            },
        ],
        [],
    ),
    "/about/staff/": page(
        "Staff directory",
        ["Contact details of our offices and senior staff."],
        [
            {
                "type": "table",
                "heading": "Offices and staff",
                "head": ["Name", "Role", "Email"],
                "rows": [
                    ["Prof. Ingrid Maas", "President", "president@northgate.example"],
                    ["Dr Mirela Vos", "Programme leader, MSc Robotics", "m.vos@northgate.example"],
                    [
                        "Dr Tomas Reyes",
                        "Programme leader, MSc Data Engineering",
                        "t.reyes@northgate.example",
                    ],
                    [
                        "Prof. Hanne Olsen",
                        "Programme leader, MSc Sustainable Energy Systems",
                        "h.olsen@northgate.example",
                    ],
                    [
                        "Pieter de Wit",
                        "Head of the Residences Office",
                        "residences@northgate.example",
                    ],
                    ["Amara Okafor", "International Office", "international@northgate.example"],
                    ["Lena Brandt", "Funding Office", "funding@northgate.example"],
                    ["Jonas Keller", "Head of Library Services", "library@northgate.example"],
                ],
            }
        ],
        [("About", "/about/")],
    ),
    "/about/contact/": page(
        "Contact us",
        ["12 Quayside Road, Northgate. Reception is open on weekdays from 08:30 to 17:30."],
        [
            {
                "type": "text",
                "heading": "Getting here",
                "paras": [
                    "The campus is a ten-minute ferry ride from the central station. The harbour ferry stops at Quayside pier, next to the Foundry Building.",
                    "Visitors can park in the multi-storey car park on Dock Street.",
                ],
            }
        ],
        [("About", "/about/")],
    ),
    "/privacy/": page(
        "Privacy",
        ["How we handle personal data."],
        [
            {
                "type": "text",
                "heading": "Your data",
                "paras": [
                    "We process the personal data of applicants, students, staff and visitors to run the institute and meet our legal duties. This site sets no tracking cookies.",
                ],
            }
        ],
        [],
    ),
}
for _n in NEWS:
    PAGES[f"/news/{_n['slug']}/"] = news_page(_n)

PDFS: dict[str, tuple[str, list[str]]] = {
    "/files/residences-price-list-2027.pdf": (
        "Northgate Institute of Technology - Residences price list 2027-28",
        [
            "Harbour Hall single en-suite room: EUR 640 per month (44 weeks).",
            "Linden Court standard room: EUR 480 per month (40 weeks).",
            "Foundry Studios studio: EUR 890 per month (51 weeks).",
            "Bills and internet are included in all prices.",
            "First-year international students are guaranteed a room if they apply by 15 June 2027.",
        ],
    ),
    "/files/international-application-checklist-2027.pdf": (
        "Checklist for international applicants 2027",
        [
            "Applications from outside the EU for September 2027 close on 1 March 2027.",
            "Documents: transcripts, degree certificate, CV, statement, two references, passport copy.",
            "Deposit: EUR 1,500 by 15 May 2027.",
        ],
    ),
    "/files/aurora-scholarship-terms-2027.pdf": (
        "Aurora Scholarship - terms 2027",
        [
            "The Aurora Scholarship is worth EUR 5,000 per year for two years.",
            "Eligibility: women admitted to a master's programme in the Faculty of Engineering.",
            "Deadline: 30 April 2027.",
        ],
    ),
}
for _slug, _p in PROGRAMMES.items():
    PDFS[f"/files/{_slug}-costs-2027.pdf"] = (
        f"{_p['title']} - cost of study 2027-28",
        [
            f"EU and EEA students: {_p['fee_eu']}.",
            f"Non-EU students: {_p['fee_other']}.",
            "Payable in two instalments, September and February.",
        ],
    )
