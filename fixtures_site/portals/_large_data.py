"""Data of the ``large`` portal: Meridian University, generated deterministically.

Faculties x departments x courses x years, a news archive and staff pages come
from the lists and templates below (no randomness: every choice is an index
arithmetic on the position of the page). ``SPECIAL`` holds the hand-written
pages, some of them deep inside the generated tree, that answer the tasks.
"""

from __future__ import annotations

from fixtures_site.portals._kit import Attachment, Page, cards

UNIVERSITY = "Meridian University"

# faculty slug -> (name, undergraduate award, postgraduate award, departments)
FACULTIES: dict[str, tuple[str, str, str, list[str]]] = {
    "science": (
        "Faculty of Science",
        "BSc",
        "MSc",
        ["Marine Biology", "Chemistry", "Physics", "Mathematics", "Geography"],
    ),
    "engineering": (
        "Faculty of Engineering",
        "BEng",
        "MSc",
        [
            "Civil Engineering",
            "Mechanical Engineering",
            "Electrical Engineering",
            "Computer Science",
            "Chemical Engineering",
        ],
    ),
    "health": (
        "Faculty of Health",
        "BSc",
        "MSc",
        ["Nursing", "Midwifery", "Physiotherapy", "Pharmacy", "Public Health"],
    ),
    "arts": (
        "Faculty of Arts",
        "BA",
        "MA",
        ["History", "English", "Philosophy", "Music", "Modern Languages"],
    ),
    "social-sciences": (
        "Faculty of Social Sciences",
        "BA",
        "MA",
        ["Economics", "Politics", "Sociology", "Psychology", "Social Work"],
    ),
    "business": (
        "Business School",
        "BSc",
        "MSc",
        ["Accounting", "Finance", "Marketing", "Management", "Entrepreneurship"],
    ),
    "education": (
        "Institute of Education",
        "BA",
        "MA",
        [
            "Primary Education",
            "Secondary Education",
            "Early Years",
            "Sport Science",
            "Educational Psychology",
        ],
    ),
    "law": (
        "School of Law",
        "LLB",
        "LLM",
        [
            "Commercial Law",
            "Criminal Law",
            "Human Rights",
            "International Law",
            "Legal Practice",
        ],
    ),
    "environment": (
        "Faculty of Environment",
        "BSc",
        "MSc",
        ["Ecology", "Forestry", "Climate Science", "Agriculture", "Conservation"],
    ),
    "creative": (
        "School of Creative Industries",
        "BA",
        "MA",
        ["Film", "Journalism", "Architecture", "Graphic Design", "Games Design"],
    ),
}

# (name pattern, slug pattern); {ug}/{pg} are the faculty's awards, {name} the department
COURSE_TEMPLATES: list[tuple[str, str]] = [
    ("{ug} {name}", "{ug}-{slug}"),
    ("{ug} {name} with Placement Year", "{ug}-{slug}-placement"),
    ("{ug} {name} (Part-time)", "{ug}-{slug}-part-time"),
    ("{pg} {name}", "{pg}-{slug}"),
    ("MRes {name}", "mres-{slug}"),
    ("PhD {name}", "phd-{slug}"),
]

YEARS = 4
STAFF_PER_DEPARTMENT = 24
NEWS_YEARS = list(range(2014, 2026))
NEWS_PER_MONTH = 15
MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]

FIRST_NAMES = [
    "Aisha", "Ben", "Chloe", "Dev", "Elena", "Femi", "Gareth", "Hana", "Ivan", "Jade",
    "Kwame", "Laura", "Mohammed", "Nora", "Owen", "Priti", "Quentin", "Rosa", "Sanjay",
    "Tess", "Umar", "Vera", "Wei", "Yusuf", "Zara", "Callum", "Ingrid", "Luca", "Maya",
]  # fmt: skip
LAST_NAMES = [
    "Abbott", "Bhatt", "Campbell", "Dlamini", "Evans", "Fischer", "Gallagher", "Hughes",
    "Iqbal", "Jensen", "Kowalski", "Lindqvist", "Murphy", "Nakamura", "Okonkwo", "Price",
    "Quinn", "Rahman", "Schmidt", "Taylor", "Usman", "Varga", "Williams", "Xu", "Young",
]  # fmt: skip
ROLES = [
    "Professor",
    "Reader",
    "Senior Lecturer",
    "Lecturer",
    "Research Fellow",
    "Teaching Fellow",
    "Departmental Administrator",
    "Technician",
]
RESEARCH_TOPICS = [
    "coastal resilience",
    "machine learning for health",
    "medieval manuscripts",
    "urban policy",
    "renewable materials",
    "child development",
    "financial regulation",
    "soil carbon",
    "documentary film",
    "migration and labour markets",
    "protein folding",
    "sports injuries",
]

# News headline and body templates; {dept} and {fac} are filled from the index.
NEWS_TEMPLATES: list[tuple[str, str]] = [
    (
        "{dept} researchers win major grant",
        "A team from {dept} has been awarded a five-year grant. The project will employ "
        "four postdoctoral researchers and offer summer placements to undergraduate "
        "students, who will be paid a stipend during the project.",
    ),
    (
        "Students from {dept} volunteer in local schools",
        "Forty students spent their reading week helping in primary schools across the city. "
        "Several said the experience helped them decide on a career after graduating, and "
        "some now plan to stay on in the city rather than move home.",
    ),
    (
        "{fac} opens refurbished teaching space",
        "The new teaching space includes flexible classrooms and a café. The work was paid "
        "for from the capital budget and did not affect what students pay, the faculty "
        "said.",
    ),
    (
        "Alumni evening celebrates fifty years of {dept}",
        "Graduates from five decades returned to campus for a dinner in the Great Hall. "
        "Several remembered sharing cramped rooms in the old halls in the 1970s.",
    ),
    (
        "{dept} lecturer wins national teaching award",
        "Students nominated their lecturer for making large classes feel personal. The "
        "award comes with £5,000 to spend on teaching projects.",
    ),
    (
        "New partnership brings industry projects to {dept}",
        "Final-year students will work on live briefs from regional employers. The "
        "partnership also funds two prizes for the best projects each year.",
    ),
    (
        "{fac} hosts open day for prospective students",
        "More than 2,000 visitors toured laboratories and studios and met current students, "
        "who answered questions about courses, costs and living in the city.",
    ),
    (
        "Study shows value of part-time work for students",
        "Researchers in {dept} surveyed 1,200 students and found that a few hours of paid work "
        "a week had no effect on grades, although long shifts did.",
    ),
]

NAV: list[tuple[str, str]] = [
    ("Faculties", "/faculties/"),
    ("Study", "/study/"),
    ("Library", "/library/"),
    ("News", "/news/"),
    ("About", "/about/"),
]

FOOTER: list[tuple[str, str]] = [
    ("About Meridian", "/about/"),
    ("News archive", "/news/"),
    ("Contact", "/about/contact/"),
]

# Hand-written pages. Paths inside the generated tree override or extend it.
FIELD_COURSE_PATH = "/faculties/science/marine-biology/courses/bsc-marine-biology/year-2/"
CS_PHD_PATH = "/faculties/engineering/computer-science/courses/phd-computer-science/"
PLACEMENTS_PATH = "/faculties/health/nursing/placements/"
ENGINEERING_FUNDING_PATH = "/faculties/engineering/funding/"

# Extra sections appended to a generated page.
EXTRA_SECTIONS: dict[str, str] = {
    FIELD_COURSE_PATH: (
        "<h2>Residential field course</h2>"
        "<p>In the spring term of Year 2 you spend eight days at the Millport field station on "
        "the Isle of Cumbrae, surveying rocky shores and sampling plankton from the station's "
        "research vessel.</p>"
        "<p>The field course costs £450, which covers travel from campus, shared rooms and all "
        "meals. Students receiving the Meridian Bursary pay nothing. Payment is due by 15 "
        "January.</p>"
    ),
    CS_PHD_PATH: (
        "<h2>How to apply for 2027</h2>"
        "<p>Applicants need a first-class or upper second-class honours degree in computer "
        "science or a closely related subject, or a master's degree with merit.</p>"
        "<p>Applications for funded places starting in October 2027 close on 14 February "
        "2027. Interviews take place in March.</p>"
    ),
}

SPECIAL: dict[str, Page] = {
    "/study/": Page(
        "Study",
        "<h1>Study at Meridian</h1>"
        "<p>Meridian offers more than 300 programmes across ten faculties and schools. "
        "Whatever you choose, you will be taught by people who are active in research and "
        "practice.</p>"
        + cards(
            [
                ("Applying", "How to apply and what happens next.", "/study/applying/"),
                (
                    "Paying for your studies",
                    "Annual charges by year of entry and how to pay.",
                    "/study/money/",
                ),
            ]
        ),
    ),
    "/study/applying/": Page(
        "Applying",
        "<h1>Applying</h1>"
        "<p>Apply for undergraduate courses through UCAS and for postgraduate courses through "
        "our online portal. Course pages list the entry requirements for each "
        "programme.</p>",
    ),
    "/study/money/": Page(
        "Paying for your studies",
        "<h1>Paying for your studies</h1>"
        "<p>Your annual charge depends on when you start your course and whether you are a "
        "home or international student. Choose your year of entry.</p>"
        + cards(
            [
                (
                    "Starting in 2026",
                    "Charges for new students in 2026/27.",
                    "/study/money/2026-27/",
                ),
                (
                    "Starting in 2025",
                    "Charges for students who began in 2025/26.",
                    "/study/money/2025-26/",
                ),
            ]
        ),
    ),
    "/study/money/2026-27/": Page(
        "Charges for 2026/27 entry",
        "<h1>Charges for 2026/27 entry</h1>"
        "<table><tr><th>Student</th><th>Annual tuition</th></tr>"
        "<tr><td>Home undergraduate</td><td>£9,535 a year</td></tr>"
        "<tr><td>International undergraduate (classroom)</td><td>£21,900 a year</td></tr>"
        "<tr><td>International undergraduate (laboratory)</td><td>£26,400 a year</td></tr>"
        "<tr><td>Home taught postgraduate</td><td>£11,200 a year</td></tr></table>"
        "<p>Part-time students pay pro rata according to the credits they take each year.</p>"
        '<p><a href="/files/charges-2026-27.pdf">Charges 2026/27 (PDF)</a></p>',
    ),
    "/study/money/2025-26/": Page(
        "Charges for 2025/26 entry",
        "<h1>Charges for 2025/26 entry</h1>"
        "<p>Students who started in 2025/26 pay the charge set for their year of entry for "
        "the whole of their course, plus any inflationary increase announced each spring.</p>",
    ),
    "/library/": Page(
        "Library",
        "<h1>Library</h1>"
        "<p>Meridian's libraries hold 1.8 million books and journals and give you access to "
        "hundreds of databases from anywhere.</p>"
        + cards(
            [
                (
                    "Visiting",
                    "Access, study spaces and when you can come in.",
                    "/library/visiting/",
                ),
                ("Borrowing", "Loans, renewals and requests.", "/library/borrowing/"),
            ]
        ),
    ),
    "/library/borrowing/": Page(
        "Borrowing",
        "<h1>Borrowing</h1>"
        "<p>Undergraduates can borrow 20 items at a time and postgraduates 40. Loans renew "
        "automatically unless someone requests the item.</p>",
    ),
    "/library/visiting/": Page(
        "Visiting",
        "<h1>Visiting the library</h1>"
        "<p>The Hartley Library is in the centre of the main campus. You need your university "
        "card to enter.</p>"
        + cards(
            [
                ("During term", "Our times from September to June.", "/library/visiting/term/"),
                ("Vacations", "Our times over the breaks.", "/library/visiting/vacations/"),
            ]
        ),
    ),
    "/library/visiting/term/": Page(
        "During term",
        "<h1>During term</h1>"
        "<p>During term the Hartley Library is open 24 hours a day, seven days a week. The "
        "help desk is staffed from 09:00 to 19:00 on weekdays.</p>",
    ),
    "/library/visiting/vacations/": Page(
        "Vacations",
        "<h1>Vacations</h1>"
        "<p>Over the Christmas, Easter and summer vacations the Hartley Library is open from "
        "08:30 to 21:00 on weekdays and 10:00 to 17:00 at weekends. It is closed from 24 "
        "December to 2 January.</p>",
    ),
    "/about/": Page(
        "About Meridian",
        "<h1>About Meridian University</h1>"
        "<p>Meridian University was founded in 1905 and has 31,000 students. Our ten "
        "faculties and schools teach and research across the sciences, engineering, health, "
        "the arts, business and law.</p>"
        '<p><a href="/about/contact/">Contact us</a></p>',
    ),
    "/about/contact/": Page(
        "Contact",
        "<h1>Contact</h1><p>Meridian University, University Road, Meridian MR1 1AA. "
        "Telephone 01632 960 000.</p>",
    ),
    ENGINEERING_FUNDING_PATH: Page(
        "Funding for engineering students",
        "<h1>Funding for engineering students</h1>"
        "<p>The Faculty of Engineering offers awards to new undergraduates on top of the "
        "university's own support. You are considered automatically when you apply.</p>"
        "<ul><li>The Brunel Prize is worth £2,500 a year for three years, for applicants with "
        "A*A*A including Mathematics.</li>"
        "<li>Women in Engineering awards of £1,500 in the first year, supported by our "
        "industry partners.</li>"
        "<li>Industrial sponsorships of up to £3,000 a year with a paid summer placement.</li>"
        "</ul>"
        '<p><a href="/files/engineering-awards.pdf">Engineering awards 2026 (PDF)</a></p>',
    ),
    PLACEMENTS_PATH: Page(
        "Clinical placements",
        "<h1>Clinical placements</h1>"
        "<p>Nursing students spend half of their course on placement in hospitals and "
        "community settings across the region. Placements last between four and twelve "
        "weeks.</p>"
        "<h2>Staying near your placement</h2>"
        "<p>If your placement is more than 40 miles from campus, the NHS Learning Support Fund "
        "and the department pay for somewhere to stay: we reimburse rent of up to £95 per "
        "week for a room near the hospital, on top of your usual term-time home. Book through "
        "the placements office at least three weeks before you start.</p>"
        '<p><a href="/files/placement-support.pdf">Placement support guide (PDF)</a></p>',
    ),
}

ATTACHMENTS: dict[str, Attachment] = {
    "/files/charges-2026-27.pdf": Attachment(
        "Meridian University: charges for 2026/27 entry",
        [
            "Home undergraduate: GBP 9,535 a year.",
            "International undergraduate (classroom): GBP 21,900 a year.",
            "International undergraduate (laboratory): GBP 26,400 a year.",
            "Home taught postgraduate: GBP 11,200 a year.",
        ],
    ),
    "/files/engineering-awards.pdf": Attachment(
        "Faculty of Engineering awards 2026",
        [
            "Brunel Prize: GBP 2,500 a year for three years (A*A*A including Mathematics).",
            "Women in Engineering award: GBP 1,500 in the first year.",
            "Industrial sponsorship: up to GBP 3,000 a year with a paid summer placement.",
        ],
    ),
    "/files/placement-support.pdf": Attachment(
        "Nursing placement support guide",
        [
            "Placements more than 40 miles from campus qualify for support.",
            "Rent near the placement reimbursed up to GBP 95 per week.",
            "Book through the placements office three weeks before the start.",
        ],
    ),
}
