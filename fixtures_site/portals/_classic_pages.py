"""Content of the ``classic`` portal: Alder Valley University (United States).

Keys of ``PAGES`` are URL paths with their trailing slash, as linked.
``REDIRECTS`` maps old URLs to where they send the browser (and with which
status); the residence halls page is linked only through its oldest URL, so a
crawler reaches it through a 301 and then a 302.
"""

from __future__ import annotations

from fixtures_site.portals._kit import Attachment, Page, cards, news_list, staff_table

UNIVERSITY = "Alder Valley University"

HALLS_OLD_URL = "/reslife/halls.aspx"

NAV: list[tuple[str, str]] = [
    ("Admissions", "/admissions/"),
    ("Academics", "/academics/"),
    ("Campus Life", "/campus-life/"),
    ("Office of the Bursar", "/bursar/"),
    ("Financial Aid", "/financial-aid/"),
    ("About", "/about/"),
]

FOOTER: list[tuple[str, str]] = [
    ("Directory", "/about/directory/"),
    ("News", "/news/"),
    ("Accessibility", "/accessibility/"),
]

# old path -> (status, location)
REDIRECTS: dict[str, tuple[int, str]] = {
    HALLS_OLD_URL: (301, "/campus-life/housing/halls"),
    "/campus-life/housing/halls": (302, "/living/residence-halls/"),
    "/tuition.html": (301, "/bursar/cost-of-attendance/"),
}

NEWS: list[tuple[str, str, str, str]] = [
    (
        "March 9, 2026",
        "Engineering students win national bridge competition",
        "The team of six students beat 40 schools; two of them balance the project with "
        "work-study jobs in the residence halls.",
        "/news/2026/bridge-competition/",
    ),
    (
        "February 24, 2026",
        "Board of Trustees approves the 2026-27 budget",
        "The budget funds 18 new faculty positions and freezes fees for graduate assistants.",
        "/news/2026/budget-approved/",
    ),
    (
        "February 2, 2026",
        "Alumni give a record $12 million",
        "Gifts from 9,400 alumni will support student research and the new arts center.",
        "/news/2026/record-giving/",
    ),
]

HOME = Page(
    "Home",
    "<h1>Alder Valley University</h1>"
    "<p>Alder Valley is a public research university in the foothills of the Cascades, home "
    "to 16,500 students in eight colleges. Small classes, research from the first year and "
    "a campus surrounded by forest make Alder Valley a place where students find their "
    "direction.</p>"
    "<h2>Discover Alder Valley</h2>"
    + cards(
        [
            (
                "Apply",
                "First-year, transfer, international and graduate admission.",
                "/admissions/",
            ),
            (
                "Academics",
                "Majors, minors, colleges and the university libraries.",
                "/academics/",
            ),
            (
                "Campus Life",
                "Clubs, athletics, dining and living on campus.",
                "/campus-life/",
            ),
        ]
    )
    + "<h2>News</h2>"
    + news_list(NEWS),
)

ADMISSIONS = Page(
    "Admissions",
    "<h1>Admissions</h1>"
    "<p>We welcome applications from first-year students, transfer students, international "
    "students and graduate students. Alder Valley is test-optional: submitting SAT or ACT "
    "scores is your choice.</p>"
    + cards(
        [
            (
                "First-year students",
                "Requirements, important dates and how to apply.",
                "/admissions/first-year/",
            ),
            (
                "International students",
                "Applying from outside the United States.",
                "/admissions/international/",
            ),
            (
                "Visit campus",
                "Tours run Monday through Saturday.",
                "/admissions/visit/",
            ),
        ]
    ),
)

FIRST_YEAR = Page(
    "First-year students",
    "<h1>First-year students</h1>"
    "<p>Apply with the Common App or the Alder Valley application. We read every application "
    "holistically, looking at your courses, grades, essay and activities.</p>"
    "<h2>What we look for</h2>"
    "<ul><li>Four years of English and three years of mathematics, including Algebra II.</li>"
    "<li>A minimum cumulative GPA of 3.0 in core subjects.</li>"
    "<li>One letter of recommendation from a teacher or counselor.</li></ul>"
    + cards(
        [
            (
                "Important dates",
                "When to submit your application and when you will hear from us.",
                "/admissions/first-year/deadlines/",
                "Read more",
            ),
        ]
    ),
)

DEADLINES = Page(
    "Important dates",
    "<h1>Important dates for fall 2027</h1>"
    "<table><tr><th>Plan</th><th>Submit by</th><th>Decision by</th></tr>"
    "<tr><td>Early Action</td><td>November 1, 2026</td><td>January 31, 2027</td></tr>"
    "<tr><td>Regular Decision</td><td>January 15, 2027</td><td>March 31, 2027</td></tr>"
    "</table>"
    "<p>Confirm your place with a $300 enrollment deposit by May 1, 2027. Deposits are not "
    "refundable after that date.</p>"
    "<p>Applications are considered complete when we have received your application, your "
    "official transcript and one recommendation.</p>"
    '<p><a href="/files/first-year-dates-2027.pdf">Admission calendar 2027 (PDF)</a></p>',
)

INTERNATIONAL = Page(
    "International students",
    "<h1>International students</h1>"
    "<p>Students from 74 countries study at Alder Valley. Our International Student Services "
    "office supports you from your application to graduation and beyond.</p>"
    "<p>Applicants whose first language is not English need a TOEFL iBT score of 80 or an "
    "IELTS score of 6.5.</p>"
    + cards(
        [
            (
                "Your I-20",
                "The certificate you need to apply for your entry documents.",
                "/admissions/international/i-20/",
            ),
        ]
    ),
)

I20 = Page(
    "Your I-20",
    "<h1>Your Form I-20</h1>"
    "<p>After you are admitted and confirm your place, we issue the Form I-20, which you "
    "need to request an F-1 appointment at a U.S. embassy or consulate.</p>"
    "<h2>Proof of funding</h2>"
    "<p>You must document funds of at least $68,450 for your first year, covering tuition, "
    "living expenses and health insurance. Bank statements must be less than six months "
    "old.</p>"
    "<h2>SEVIS fee and interview</h2>"
    "<p>Pay the SEVIS I-901 fee of $350 before your interview. You may enter the United "
    "States up to 30 days before your program start date.</p>"
    '<p><a href="/files/i-20-request.pdf">I-20 request form and checklist (PDF)</a></p>',
)

VISIT = Page(
    "Visit campus",
    "<h1>Visit campus</h1>"
    "<p>Campus tours leave the Welcome Center at 10:00 a.m. and 2:00 p.m., Monday through "
    "Saturday. Tours last 90 minutes and include a residence hall and the library.</p>",
)

ACADEMICS = Page(
    "Academics",
    "<h1>Academics</h1>"
    "<p>Choose from 110 majors across eight colleges, from forestry and engineering to "
    "nursing and the fine arts. Every student completes a capstone project.</p>"
    + cards(
        [
            (
                "University Libraries",
                "Mercer Library, the Science Library and our digital collections.",
                "/libraries/",
            ),
            (
                "Colleges",
                "Our eight colleges and their departments.",
                "/academics/colleges/",
            ),
        ]
    ),
)

COLLEGES = Page(
    "Colleges",
    "<h1>Colleges</h1>"
    "<ul><li>College of Arts and Letters</li><li>College of Engineering</li>"
    "<li>College of Forestry</li><li>College of Business</li><li>School of Nursing</li>"
    "<li>College of Science</li><li>College of Education</li>"
    "<li>College of Fine Arts</li></ul>",
)

LIBRARIES = Page(
    "University Libraries",
    "<h1>University Libraries</h1>"
    "<p>The University Libraries hold 2.4 million volumes and subscribe to more than 900 "
    "databases. Librarians offer research consultations for every major.</p>"
    + cards(
        [
            (
                "Mercer Library",
                "Our main library on the Quad: visiting, study rooms and access.",
                "/libraries/mercer/visit/",
                "Plan your visit",
            ),
            (
                "Science Library",
                "Engineering, science and maps.",
                "/libraries/science/",
                "Plan your visit",
            ),
        ]
    ),
)

MERCER_VISIT = Page(
    "Visit Mercer Library",
    "<h1>Visit Mercer Library</h1>"
    "<p>Mercer Library is open to students, faculty and staff with a valid ID card. Visitors "
    "may use the library during staffed hours.</p>"
    "<h2>Fall and spring semesters</h2>"
    "<ul><li>Monday-Thursday: 7:00 a.m. - midnight</li>"
    "<li>Friday: 7:00 a.m. - 9:00 p.m.</li>"
    "<li>Saturday: 10:00 a.m. - 6:00 p.m.</li>"
    "<li>Sunday: noon - midnight</li></ul>"
    "<p>During finals week Mercer Library stays open 24 hours from Sunday noon to Friday "
    "9:00 p.m.</p>",
)

SCIENCE_LIBRARY = Page(
    "Science Library",
    "<h1>Science Library</h1>"
    "<p>The Science Library holds collections in engineering, the physical sciences and "
    "cartography, and runs a makerspace with 3D printers.</p>",
)

CAMPUS_LIFE = Page(
    "Campus Life",
    "<h1>Campus Life</h1>"
    "<p>With more than 300 student organizations, NCAA Division II athletics and a lively "
    "arts scene, there is always something happening at Alder Valley.</p>"
    + cards(
        [
            ("Residence Life", "Communities, roommates and move-in.", "/living/"),
            ("Dining", "Dining halls, cafés and meal plans.", "/campus-life/dining/"),
        ]
    ),
)

DINING = Page(
    "Dining",
    "<h1>Dining</h1>"
    "<p>Our three dining halls and eight cafés serve local produce from the campus farm. "
    "Meal plans are required for students living in traditional halls.</p>",
)

LIVING = Page(
    "Residence Life",
    "<h1>Residence Life</h1>"
    "<p>All first-year students live on campus. Our residential communities include "
    "themed floors, honors communities and quiet floors, each with a resident advisor.</p>"
    + cards(
        [
            (
                "Residence halls",
                "Hall styles, semester rates and how roommate matching works.",
                HALLS_OLD_URL,
            ),
            ("Move-in", "Dates, parking and what to bring.", "/living/move-in/"),
        ]
    ),
)

HALLS = Page(
    "Residence halls",
    "<h1>Residence halls</h1>"
    "<p>Alder Valley has eleven residence halls. Rates below are per semester for 2026-27 "
    "and include utilities, internet and laundry.</p>"
    "<table><tr><th>Hall style</th><th>Room</th><th>Rate</th></tr>"
    "<tr><td>Traditional (Cedar, Fir)</td><td>Double room</td><td>$4,150 per semester</td></tr>"
    "<tr><td>Traditional (Cedar, Fir)</td><td>Single room</td><td>$5,320 per semester</td></tr>"
    "<tr><td>Suite (Hemlock Commons)</td><td>Double room</td><td>$4,780 per semester</td></tr>"
    "</table>"
    "<p>Students in traditional halls must also buy a meal plan, from $2,460 per semester. "
    "Room applications open on March 1 and require a $200 deposit.</p>"
    '<p><a href="/files/room-rates-2026-27.pdf">Room rates 2026-27 (PDF)</a></p>',
)

MOVE_IN = Page(
    "Move-in",
    "<h1>Move-in</h1>"
    "<p>Fall move-in for first-year students is Thursday, August 20, 2026. Sign up for a "
    "two-hour arrival slot and unload at the curb in front of your hall.</p>",
)

BURSAR = Page(
    "Office of the Bursar",
    "<h1>Office of the Bursar</h1>"
    "<p>The Bursar's Office issues student account statements, processes payments and "
    "administers payment plans. Statements are emailed on the 15th of every month.</p>"
    + cards(
        [
            (
                "Cost of attendance",
                "Annual charges for undergraduate students in 2026-27.",
                "/bursar/cost-of-attendance/",
            ),
            (
                "Withdrawals and adjustments",
                "What happens to your charges when you drop classes or withdraw.",
                "/bursar/adjustments/",
            ),
            ("Payment plans", "Spread each semester over four months.", "/bursar/payment-plans/"),
        ]
    ),
)

COST = Page(
    "Cost of attendance",
    "<h1>Cost of attendance 2026-27</h1>"
    "<p>Charges for full-time undergraduate students (12 to 18 credits) for the academic "
    "year.</p>"
    "<table><tr><th>Charge</th><th>Resident</th><th>Nonresident</th></tr>"
    "<tr><td>Tuition</td><td>$12,640 per year</td><td>$41,280 per year</td></tr>"
    "<tr><td>Student activity fee</td><td>$486 per year</td><td>$486 per year</td></tr>"
    "<tr><td>Health center fee</td><td>$310 per year</td><td>$310 per year</td></tr></table>"
    "<p>Charges are billed in two equal installments, due on September 15 and January 15.</p>"
    '<p><a href="/files/cost-of-attendance-2026-27.pdf">Cost of attendance 2026-27 (PDF)</a>'
    "</p>",
)

ADJUSTMENTS = Page(
    "Withdrawals and adjustments",
    "<h1>Withdrawals and adjustments</h1>"
    "<p>If you withdraw from the university, tuition is adjusted according to the date of "
    "your withdrawal:</p>"
    "<ul><li>Through the first week of classes: 100% of tuition is credited.</li>"
    "<li>Second through fourth week: 50% of tuition is credited.</li>"
    "<li>After the fourth week: no credit is given.</li></ul>"
    "<p>Credit balances are returned by direct deposit within 14 days.</p>",
)

PAYMENT_PLANS = Page(
    "Payment plans",
    "<h1>Payment plans</h1>"
    "<p>Enroll in a four-month plan for a $40 enrollment charge per semester.</p>",
)

FINANCIAL_AID = Page(
    "Financial Aid",
    "<h1>Financial Aid</h1>"
    "<p>Nine in ten Alder Valley students receive some form of aid. File the FAFSA by "
    "March 1 to be considered for all federal, state and institutional aid.</p>"
    + cards(
        [
            (
                "Merit awards",
                "Awards for first-year and transfer students, renewable for four years.",
                "/financial-aid/merit-awards/",
            ),
            ("Work-study", "Part-time jobs on campus.", "/financial-aid/work-study/"),
        ]
    ),
)

MERIT = Page(
    "Merit awards",
    "<h1>Merit awards</h1>"
    "<p>All admitted first-year students are considered automatically; no separate "
    "application is required.</p>"
    "<ul><li>Presidential Scholarship: $20,000 per year for students with a 3.9 GPA or "
    "higher.</li>"
    "<li>Dean's Award: $12,000 per year for students with a 3.6 GPA or higher.</li>"
    "<li>Cascade Award: $6,000 per year for nonresident students with a 3.3 GPA or "
    "higher.</li></ul>"
    "<p>Awards renew for up to four years if you keep a 3.0 GPA.</p>"
    '<p><a href="/files/merit-awards-2027.pdf">Merit awards 2027 (PDF)</a></p>',
)

WORK_STUDY = Page(
    "Work-study",
    "<h1>Work-study</h1>"
    "<p>Federal Work-Study students earn $16.50 an hour in campus jobs, from the library "
    "front desk to residence hall offices.</p>",
)

ABOUT = Page(
    "About",
    "<h1>About Alder Valley</h1>"
    "<p>Founded in 1891 as a teachers' college, Alder Valley became a university in 1961. "
    "It is accredited by the Northwest Commission on Colleges and Universities.</p>"
    '<p>See the <a href="/about/directory/">campus directory</a>.</p>',
)

DIRECTORY = Page(
    "Directory",
    "<h1>Campus directory</h1>"
    + staff_table(
        [
            (
                "Dr. Miguel Alvarez",
                "President",
                "Office of the President",
                "president@avu.example.edu",
            ),
            ("Karen O'Brien", "Director of Admissions", "Admissions", "kobrien@avu.example.edu"),
            ("Samuel Greene", "Bursar", "Office of the Bursar", "sgreene@avu.example.edu"),
            ("Hannah Park", "Director", "Residence Life", "hpark@avu.example.edu"),
            (
                "Omar Haddad",
                "Director",
                "International Student Services",
                "ohaddad@avu.example.edu",
            ),
            ("Linda Frost", "Dean of Libraries", "University Libraries", "lfrost@avu.example.edu"),
        ]
    ),
)

NEWS_INDEX = Page("News", "<h1>News</h1>" + news_list(NEWS))

NEWS_BRIDGE = Page(
    "Engineering students win national bridge competition",
    "<h1>Engineering students win national bridge competition</h1>"
    "<p>Six civil engineering students took first place at the national steel bridge "
    "competition. Two team members hold work-study jobs in the residence halls and built "
    "the model in the evenings after their shifts.</p>"
    '<p>Read about <a href="/living/">Residence Life</a> or the College of Engineering.</p>',
)

NEWS_BUDGET = Page(
    "Board approves the 2026-27 budget",
    "<h1>Board of Trustees approves the 2026-27 budget</h1>"
    "<p>The board approved a $612 million budget that funds 18 new faculty positions. "
    "Fees for graduate assistants are frozen for a second year.</p>",
)

NEWS_GIVING = Page(
    "Alumni give a record $12 million",
    "<h1>Alumni give a record $12 million</h1>"
    "<p>Gifts from 9,400 alumni will fund undergraduate research grants and the new arts "
    "center.</p>",
)

ACCESSIBILITY = Page(
    "Accessibility",
    "<h1>Accessibility</h1><p>Report a barrier on this website to webmaster@avu.example.edu.</p>",
)

PAGES: dict[str, Page] = {
    "/": HOME,
    "/admissions/": ADMISSIONS,
    "/admissions/first-year/": FIRST_YEAR,
    "/admissions/first-year/deadlines/": DEADLINES,
    "/admissions/international/": INTERNATIONAL,
    "/admissions/international/i-20/": I20,
    "/admissions/visit/": VISIT,
    "/academics/": ACADEMICS,
    "/academics/colleges/": COLLEGES,
    "/libraries/": LIBRARIES,
    "/libraries/mercer/visit/": MERCER_VISIT,
    "/libraries/science/": SCIENCE_LIBRARY,
    "/campus-life/": CAMPUS_LIFE,
    "/campus-life/dining/": DINING,
    "/living/": LIVING,
    "/living/residence-halls/": HALLS,
    "/living/move-in/": MOVE_IN,
    "/bursar/": BURSAR,
    "/bursar/cost-of-attendance/": COST,
    "/bursar/adjustments/": ADJUSTMENTS,
    "/bursar/payment-plans/": PAYMENT_PLANS,
    "/financial-aid/": FINANCIAL_AID,
    "/financial-aid/merit-awards/": MERIT,
    "/financial-aid/work-study/": WORK_STUDY,
    "/about/": ABOUT,
    "/about/directory/": DIRECTORY,
    "/news/": NEWS_INDEX,
    "/news/2026/bridge-competition/": NEWS_BRIDGE,
    "/news/2026/budget-approved/": NEWS_BUDGET,
    "/news/2026/record-giving/": NEWS_GIVING,
    "/accessibility/": ACCESSIBILITY,
}

ATTACHMENTS: dict[str, Attachment] = {
    "/files/first-year-dates-2027.pdf": Attachment(
        "Alder Valley University: admission calendar, fall 2027",
        [
            "Early Action: submit by November 1, 2026; decision by January 31, 2027.",
            "Regular Decision: submit by January 15, 2027; decision by March 31, 2027.",
            "Enrollment deposit of $300 due May 1, 2027.",
        ],
    ),
    "/files/i-20-request.pdf": Attachment(
        "Form I-20 request and checklist",
        [
            "Proof of funding: at least $68,450 for the first year.",
            "Bank statements less than six months old.",
            "SEVIS I-901 fee: $350, paid before the consular interview.",
            "Entry allowed up to 30 days before the program start date.",
        ],
    ),
    "/files/room-rates-2026-27.pdf": Attachment(
        "Room rates 2026-27 (per semester)",
        [
            "Traditional hall, double room: $4,150.",
            "Traditional hall, single room: $5,320.",
            "Suite (Hemlock Commons), double room: $4,780.",
            "Meal plans from $2,460 per semester. Room deposit: $200.",
        ],
    ),
    "/files/cost-of-attendance-2026-27.pdf": Attachment(
        "Cost of attendance 2026-27",
        [
            "Tuition, resident: $12,640 per year.",
            "Tuition, nonresident: $41,280 per year.",
            "Student activity fee: $486 per year. Health center fee: $310 per year.",
            "Installments due September 15 and January 15.",
        ],
    ),
    "/files/merit-awards-2027.pdf": Attachment(
        "Merit awards for students entering in 2027",
        [
            "Presidential Scholarship: $20,000 per year (GPA 3.9 or higher).",
            "Dean's Award: $12,000 per year (GPA 3.6 or higher).",
            "Cascade Award: $6,000 per year for nonresidents (GPA 3.3 or higher).",
            "Renewable for four years with a 3.0 GPA.",
        ],
    ),
}
