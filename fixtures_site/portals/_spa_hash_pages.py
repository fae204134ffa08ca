"""Content of the ``spa_hash`` portal: Northbridge University.

Keys of ``PAGES`` are routes as the client router sees them (the part after
``#`` or ``#!``). Most routes are linked as ``#/...``; the money section is
linked as ``#!/...`` (an older hashbang router kept for that section).
"""

from __future__ import annotations

from fixtures_site.portals._kit import Attachment, Page, cards, news_list, staff_table

UNIVERSITY = "Northbridge University"

NAV: list[tuple[str, str]] = [
    ("Study", "#/study"),
    ("Campus life", "#/campus-life"),
    ("Research", "#/research"),
    ("About", "#/about"),
    ("News", "#/news"),
]

FOOTER: list[tuple[str, str]] = [
    ("Contact us", "#/contact"),
    ("People directory", "#/about/people"),
    ("Privacy", "#/privacy"),
    ("Accessibility", "#/accessibility"),
]

NEWS: list[tuple[str, str, str, str]] = [
    (
        "3 March 2026",
        "Rowing crew takes silver at the regional regatta",
        "Eight students trained through the winter on the Tyne, fitting early sessions around "
        "lectures, part-time jobs and the walk back to their halls.",
        "#/news/rowing-silver",
    ),
    (
        "19 February 2026",
        "New partnership with the city's light railway",
        "Staff and students can now buy discounted annual passes; the council says the scheme "
        "will ease pressure on rents near the campus.",
        "#/news/light-railway",
    ),
    (
        "2 February 2026",
        "Chemistry building reopens after refurbishment",
        "The refurbished laboratories were funded by a capital grant and not by any increase in "
        "what students pay, the Vice-Chancellor confirmed.",
        "#/news/chemistry-reopens",
    ),
    (
        "12 January 2026",
        "Professor Amara Osei elected to the Royal Society of Edinburgh",
        "Professor Osei leads the coastal ecology group and supervises twelve doctoral "
        "researchers.",
        "#/news/osei-elected",
    ),
]

HOME = Page(
    "Welcome",
    "<h1>Welcome to Northbridge University</h1>"
    "<p>Founded in 1887 on the banks of the river, Northbridge is a research university of "
    "19,000 people from 130 countries. We teach across four faculties, from marine science to "
    "medieval history, and we are proud that four in five of our graduates stay in the region "
    "for at least a year after they finish.</p>"
    "<p>Whether you are choosing a first degree, returning for a master's or joining us from the "
    "other side of the world, the pages below will help you find your way around.</p>"
    "<h2>Explore Northbridge</h2>"
    + cards(
        [
            (
                "Study with us",
                "Degrees, applying and what you need to know before you arrive.",
                "#/study",
            ),
            (
                "Campus life",
                "Clubs, support, places to study and somewhere to call home.",
                "#/campus-life",
            ),
            (
                "Research",
                "Our institutes, doctoral training and partnerships with industry.",
                "#/research",
            ),
            ("About the university", "History, governance and the people who run it.", "#/about"),
        ]
    )
    + "<h2>Latest news</h2>"
    + news_list(NEWS),
)

STUDY = Page(
    "Study",
    "<h1>Study at Northbridge</h1>"
    "<p>We offer 140 undergraduate programmes and 90 taught postgraduate programmes. Most of "
    "our degrees include a placement, a year abroad or a research project with one of our "
    "partner organisations, and every student has a personal tutor from their first week.</p>"
    "<p>Use the sections below to find a programme, check what we look for in an applicant, "
    "plan your budget and get ready to travel if you are coming from overseas.</p>"
    + cards(
        [
            (
                "Undergraduate",
                "Bachelor's degrees and integrated master's programmes.",
                "#/study/undergraduate",
            ),
            (
                "Postgraduate",
                "Taught master's degrees, PGCE and doctoral study.",
                "#/study/postgraduate",
            ),
            (
                "Coming from overseas",
                "Country advice, arrival and permission to study in the UK.",
                "#/study/global",
            ),
            (
                "Money matters",
                "Plan what your degree will cost and the help available.",
                "#!/money",
            ),
        ]
    )
    + "<h2>Open days</h2>"
    "<p>Our spring open days run on Saturday mornings. You can tour the campus, meet academic "
    "staff and visit a student room. Booking opens six weeks before each event.</p>",
)

UNDERGRADUATE = Page(
    "Undergraduate study",
    "<h1>Undergraduate study</h1>"
    "<p>Our bachelor's degrees last three years, or four with a placement year or a year "
    "abroad. Integrated master's programmes in engineering, physics and chemistry last four "
    "years. Teaching combines lectures, small-group tutorials and practical work, and you will "
    "be assessed by a mix of coursework and examinations.</p>"
    "<h2>Popular programmes</h2>"
    "<ul><li>BSc Marine Biology</li><li>BA History and Politics</li>"
    "<li>MEng Civil Engineering</li><li>BSc Computer Science</li>"
    "<li>LLB Law</li><li>BA English Literature</li></ul>"
    + cards(
        [
            (
                "How to join us",
                "What we ask of applicants, how to apply through UCAS and key dates.",
                "#/study/undergraduate/apply",
                "Read more",
            ),
            (
                "Foundation year",
                "A route into science and engineering degrees for students without the usual "
                "subjects.",
                "#/study/undergraduate/foundation",
                "Read more",
            ),
        ]
    ),
)

UG_APPLY = Page(
    "How to join us",
    "<h1>How to join us: undergraduate</h1>"
    "<p>All applications for full-time undergraduate study go through UCAS. Our institution "
    "code is N77 and our campus code is M. You can choose up to five courses on your UCAS "
    "form, and you do not need to tell us where else you have applied.</p>"
    "<h2>Entry requirements</h2>"
    "<p>Typical offers are published on each programme page. As a guide:</p>"
    "<ul><li>Most programmes: AAB at A level, or DDD in a BTEC Extended Diploma.</li>"
    "<li>Medicine and Veterinary Nursing are not offered at Northbridge.</li>"
    "<li>International Baccalaureate: 35 points with 6, 5, 5 at Higher Level.</li>"
    "<li>Scottish Highers: AAAAB.</li></ul>"
    "<p>If English is not your first language you need IELTS 6.5 overall with no component "
    "below 6.0, or an equivalent qualification.</p>"
    "<h2>Key dates for 2027 entry</h2>"
    "<table><tr><th>Stage</th><th>Date</th></tr>"
    "<tr><td>UCAS opens for applications</td><td>2 September 2026</td></tr>"
    "<tr><td>Equal consideration deadline</td><td>Applications close on 29 January 2027</td></tr>"
    "<tr><td>Offer-holder days</td><td>February to April 2027</td></tr>"
    "<tr><td>Reply to offers</td><td>4 June 2027</td></tr></table>"
    "<p>We consider applications received after the deadline only if places remain. "
    "Contextual offers, up to two grades below the typical offer, are made to applicants from "
    "under-represented backgrounds.</p>"
    '<p><a href="/files/undergraduate-entry-2027.pdf">Undergraduate entry guide 2027 (PDF, 2 pages)</a></p>',
)

FOUNDATION = Page(
    "Foundation year",
    "<h1>Foundation year in science and engineering</h1>"
    "<p>The foundation year prepares you for degree-level study if you have the grades but not "
    "the subjects we usually ask for. You study mathematics, physics, chemistry and academic "
    "skills, and progress to your chosen degree when you pass at 60 per cent.</p>"
    "<p>Classes are small, with around 24 students in each group, and you are taught on the "
    "main campus alongside first-year students.</p>",
)

POSTGRADUATE = Page(
    "Postgraduate study",
    "<h1>Postgraduate study</h1>"
    "<p>Our one-year master's degrees start in September, and a smaller number start in "
    "January. Research degrees can start at any point in the year. Apply online through the "
    "postgraduate portal; there is no application charge.</p>"
    "<h2>Doctoral training</h2>"
    "<p>We host three doctoral training partnerships in environmental science, the arts and "
    "humanities and engineering. Studentships normally cover three and a half years of study "
    "and include a stipend and research training support.</p>",
)

GLOBAL = Page(
    "Coming from overseas",
    "<h1>Coming from overseas</h1>"
    "<p>Around 4,200 of our students come from outside the UK. Our Global Welcome team "
    "helps you before you travel, meets arrivals at Newcastle Airport in September and runs "
    "an orientation week for new arrivals.</p>"
    "<h2>Before you travel</h2>"
    + cards(
        [
            (
                "Permission to study in the UK",
                "Your Confirmation of Acceptance for Studies, the documents you need and the "
                "money you must show.",
                "#/study/global/student-route",
            ),
            (
                "Your country",
                "Entry qualifications we accept from 80 countries and our regional "
                "representatives.",
                "#/study/global/countries",
            ),
        ]
    )
    + "<h2>Arrival</h2>"
    "<p>Collect your biometric residence documents from the Global Welcome desk on level 1 of "
    "the Student Hub. Bring your passport and your offer letter.</p>",
)

STUDENT_ROUTE = Page(
    "Permission to study in the UK",
    "<h1>Permission to study in the UK</h1>"
    "<p>If you are not a UK or Irish citizen and do not already hold settled status, you will "
    "usually need permission under the Student route to take a full-time degree with us. You "
    "apply online to UK Visas and Immigration up to six months before your course starts.</p>"
    "<h2>Confirmation of Acceptance for Studies</h2>"
    "<p>Once you have met all the conditions of your offer and paid your deposit, we issue a "
    "Confirmation of Acceptance for Studies (CAS). Your CAS number is valid for one "
    "application only. We start issuing CAS numbers for September entry in early June.</p>"
    "<h2>Money you must show</h2>"
    "<p>You must show that you can pay your first year's tuition, less any deposit, plus living "
    "costs. Northbridge is outside London, so you must show £1,136 per month for up to nine "
    "months. The money must have been held in your account for 28 consecutive days.</p>"
    "<h2>Health surcharge</h2>"
    "<p>The Immigration Health Surcharge is £776 per year of permission and is paid when you "
    "apply.</p>"
    '<p><a href="/files/student-route-checklist.pdf">Document checklist (PDF)</a></p>',
)

COUNTRIES = Page(
    "Your country",
    "<h1>Your country</h1>"
    "<p>We accept a wide range of school-leaving qualifications. Choose your country from the "
    "list to see the grades we normally ask for and to contact our representative.</p>"
    "<ul><li>China</li><li>India</li><li>Malaysia</li><li>Nigeria</li><li>Norway</li>"
    "<li>United States</li><li>Vietnam</li></ul>",
)

MONEY = Page(
    "Money matters",
    "<h1>Money matters</h1>"
    "<p>Planning your finances before you start will make your time here much less stressful. "
    "This section explains what you pay us, the awards we offer and where to go when money "
    "gets tight during the year.</p>"
    + cards(
        [
            (
                "What you will pay",
                "Annual charges for home and overseas students, deposits and instalments.",
                "#!/money/cost-of-study",
            ),
            (
                "Help with costs",
                "Awards, hardship support and the Northbridge Excellence Award.",
                "#!/money/awards",
            ),
            (
                "Budgeting advice",
                "Our money advisers run one-to-one sessions every weekday.",
                "#!/money/advice",
            ),
        ]
    ),
)

COST_OF_STUDY = Page(
    "Cost of study 2026/27",
    "<h1>Cost of study 2026/27</h1>"
    "<p>The annual charge for your programme depends on your residency status and on the "
    "programme you study. The amounts below apply to new full-time students starting in "
    "September 2026 and are charged for each year of study.</p>"
    "<h2>Undergraduate tuition</h2>"
    "<table><tr><th>Status</th><th>Annual tuition</th></tr>"
    "<tr><td>Home (UK) students</td><td>£9,535 per year</td></tr>"
    "<tr><td>Overseas students, classroom-based programmes</td><td>£24,800 per year</td></tr>"
    "<tr><td>Overseas students, laboratory-based programmes</td><td>£29,650 per year</td></tr>"
    "</table>"
    "<p>Overseas students pay a deposit of £4,000 before we issue a CAS. The deposit is "
    "deducted from the first year's tuition.</p>"
    "<h2>Paying in instalments</h2>"
    "<p>You can pay in three instalments: 40 per cent in October, 30 per cent in January and "
    "30 per cent in April. Self-funded overseas students who pay the full year by 30 September "
    "receive a 3 per cent discount.</p>"
    "<h2>Other costs</h2>"
    "<p>Field trips in the first year are included. Graduation gown hire is around £55.</p>"
    + cards(
        [
            (
                "Leaving your course",
                "What happens to the money you have paid if you withdraw or suspend.",
                "#!/money/cost-of-study/withdrawal",
                "Read more",
            )
        ]
    )
    + '<p><a href="/files/cost-of-study-2026-27.pdf">Cost of study 2026/27 (PDF)</a></p>',
)

WITHDRAWAL = Page(
    "Leaving your course",
    "<h1>Leaving your course: what you pay</h1>"
    "<p>If you withdraw or suspend your studies, the amount you owe for the year depends on "
    "the date your withdrawal is confirmed by your faculty office.</p>"
    "<ul><li>Before the end of week two of the autumn term: nothing is charged, and any "
    "payment is returned in full.</li>"
    "<li>From week three to the end of the autumn term: 25 per cent of the annual charge.</li>"
    "<li>During the spring term: 50 per cent of the annual charge.</li>"
    "<li>After the start of the summer term: the full annual charge.</li></ul>"
    "<p>Money owed back to you is paid to the card or account it came from within 30 working "
    "days. The £4,000 overseas deposit is returned only if your visa application is refused "
    "and you send us the refusal letter.</p>",
)

AWARDS = Page(
    "Help with costs",
    "<h1>Help with costs</h1>"
    "<p>We set aside £6.2 million each year for awards to new and continuing students. Most "
    "awards are made automatically: you do not need to apply separately.</p>"
    "<h2>Northbridge Excellence Award</h2>"
    "<p>New undergraduates who achieve A*AA or better receive the Northbridge Excellence "
    "Award worth £3,000 in their first year, paid in two instalments.</p>"
    "<h2>Northbridge Support Award</h2>"
    "<p>Home students from households with an income below £30,000 receive £1,200 a year "
    "for every year of their degree.</p>"
    "<h2>Global Merit Award</h2>"
    "<p>Overseas undergraduates receive a £5,000 reduction in their first-year tuition if "
    "they hold an offer by 31 March 2027.</p>"
    "<h2>Hardship Fund</h2>"
    "<p>If you face unexpected difficulty during your studies, apply to the Hardship Fund "
    "through the Student Hub. Grants do not have to be paid back.</p>"
    '<p><a href="/files/awards-2026-27.pdf">Awards and eligibility 2026/27 (PDF)</a></p>',
)

ADVICE = Page(
    "Budgeting advice",
    "<h1>Budgeting advice</h1>"
    "<p>Our money advisers can help you draw up a weekly budget, compare bank accounts and "
    "deal with debts. Sessions last thirty minutes and are free. Book through the Student Hub "
    "or drop in on Wednesday afternoons.</p>",
)

CAMPUS_LIFE = Page(
    "Campus life",
    "<h1>Campus life</h1>"
    "<p>Life at Northbridge is about more than your degree. The Students' Union runs more "
    "than 250 clubs and societies, our sports centre is open to all students, and the "
    "riverside campus is a ten-minute walk from the city centre.</p>"
    + cards(
        [
            (
                "Your stay",
                "Rooms, contracts and settling into the city.",
                "#/campus-life/your-stay",
            ),
            (
                "Study spaces",
                "Quiet rooms, group rooms and the main reading rooms.",
                "#/campus-life/study-spaces",
            ),
            (
                "Wellbeing",
                "Counselling, the chaplaincy and disability support.",
                "#/campus-life/wellbeing",
            ),
        ]
    ),
)

YOUR_STAY = Page(
    "Your stay",
    "<h1>Your stay</h1>"
    "<p>Where you live shapes your first year. Most new undergraduates live in one of our "
    "residences; many second and third years move into shared houses in Heaton and "
    "Jesmond.</p>"
    + cards(
        [
            (
                "Residence halls",
                "Our seven residences, what a room costs and how to book.",
                "#/campus-life/your-stay/residence-halls",
            ),
            (
                "Renting in the city",
                "Finding a private flat or house and checking a tenancy agreement.",
                "#/campus-life/your-stay/private-renting",
            ),
        ]
    ),
)

RESIDENCE_HALLS = Page(
    "Residence halls",
    "<h1>Residence halls</h1>"
    "<p>We guarantee a room in one of our residences to every new full-time undergraduate who "
    "applies by 30 June 2026 and firmly accepts an offer. Postgraduates and overseas students "
    "are also guaranteed a room in their first year.</p>"
    "<h2>Rooms and weekly rent 2026/27</h2>"
    "<table><tr><th>Residence</th><th>Room</th><th>Weekly rent</th></tr>"
    "<tr><td>Riverside Court</td><td>En-suite, self-catered</td><td>£168 per week</td></tr>"
    "<tr><td>Castle Leazes</td><td>Standard, catered</td><td>£192 per week</td></tr>"
    "<tr><td>Ridley Park</td><td>Studio</td><td>£229 per week</td></tr>"
    "<tr><td>Bede House</td><td>Shared bathroom</td><td>£131 per week</td></tr></table>"
    "<p>All prices include heating, electricity, Wi-Fi and contents insurance. Contracts run "
    "for 44 weeks, from 19 September 2026 to 24 July 2027.</p>"
    "<h2>How to book</h2>"
    "<p>Booking opens on 1 April 2026 through the residences portal. You pay a £250 advance "
    "payment, which is deducted from your first rent instalment.</p>"
    '<p><a href="/files/residences-guide-2026.pdf">Residences guide 2026/27 (PDF)</a></p>',
)

PRIVATE_RENTING = Page(
    "Renting in the city",
    "<h1>Renting in the city</h1>"
    "<p>Most students move into privately rented homes after their first year. A room in a "
    "shared house in Heaton or Jesmond typically costs between £115 and £155 per week, "
    "usually excluding bills.</p>"
    "<p>Before you sign, bring your tenancy agreement to the Students' Union advice centre for "
    "a free check. Never pay a holding deposit without seeing the property, and make sure "
    "your deposit is protected in a government-approved scheme.</p>",
)

STUDY_SPACES = Page(
    "Study spaces",
    "<h1>Study spaces</h1>"
    "<p>There are more than 3,000 study places on campus, from silent reading rooms to "
    "bookable group rooms with screens. Check availability in the campus app before you "
    "set off.</p>"
    + cards(
        [
            (
                "Robinson Building",
                "Our main collection, silent floors and the special collections reading room.",
                "#/campus-life/study-spaces/main-library",
            ),
            (
                "Science Commons",
                "Group rooms and computer clusters beside the laboratories.",
                "#/campus-life/study-spaces/science-commons",
            ),
        ]
    ),
)

MAIN_LIBRARY = Page(
    "Robinson Building",
    "<h1>Robinson Building</h1>"
    "<p>The Robinson Building holds 1.2 million printed volumes, the university archive and "
    "four floors of study space. Show your campus card at the entrance gates.</p>"
    "<h2>When we are open</h2>"
    "<table><tr><th>Days</th><th>Times</th></tr>"
    "<tr><td>Monday to Friday</td><td>08:00 to 22:00</td></tr>"
    "<tr><td>Saturday and Sunday</td><td>10:00 to 18:00</td></tr>"
    "<tr><td>Examination periods</td><td>Open 24 hours</td></tr></table>"
    "<p>The special collections reading room is open Monday to Friday, 10:00 to 16:00, by "
    "appointment only. The building closes between 24 December and 1 January.</p>",
)

SCIENCE_COMMONS = Page(
    "Science Commons",
    "<h1>Science Commons</h1>"
    "<p>Science Commons has 18 bookable group rooms, 240 computers and a café. It is staffed "
    "by student digital assistants during term.</p>",
)

WELLBEING = Page(
    "Wellbeing",
    "<h1>Wellbeing</h1>"
    "<p>Our wellbeing team offers same-day appointments, short-term counselling and support "
    "for students with disabilities or long-term conditions. The chaplaincy welcomes people "
    "of all faiths and none.</p>",
)

RESEARCH = Page(
    "Research",
    "<h1>Research</h1>"
    "<p>Research at Northbridge is organised in six institutes: coastal and marine science, "
    "energy transition, ageing, digital society, heritage, and infection and immunity. "
    "In the latest national assessment, 87 per cent of our research was rated world-leading "
    "or internationally excellent.</p>"
    "<p>Our institutes work with more than 400 partners in industry and the public sector.</p>",
)

ABOUT = Page(
    "About the university",
    "<h1>About the university</h1>"
    "<p>Northbridge received its royal charter in 1963, growing out of the city's college of "
    "science and art. The university is governed by its Council and led by the "
    "Vice-Chancellor, Professor Helen Marsh.</p>"
    + cards(
        [
            (
                "People directory",
                "Contact details for our professional services staff.",
                "#/about/people",
            ),
            ("Our history", "From the 1887 college to a modern university.", "#/about/history"),
        ]
    ),
)

HISTORY = Page(
    "Our history",
    "<h1>Our history</h1>"
    "<p>The college opened in 1887 with 48 students in a converted warehouse on Quayside. It "
    "moved to its present site in 1921 and became a university in 1963.</p>",
)

PEOPLE = Page(
    "People directory",
    "<h1>People directory</h1>"
    "<p>Professional services staff you may need to contact.</p>"
    + staff_table(
        [
            (
                "Helen Marsh",
                "Vice-Chancellor",
                "Executive Office",
                "vc@northbridge.example.ac.uk",
            ),
            (
                "Daniel Okafor",
                "Head of Admissions",
                "Student Recruitment",
                "d.okafor@northbridge.example.ac.uk",
            ),
            (
                "Priya Raman",
                "Residences Manager",
                "Campus Services",
                "p.raman@northbridge.example.ac.uk",
            ),
            (
                "Tom Whitfield",
                "Student Finance Officer",
                "Finance",
                "t.whitfield@northbridge.example.ac.uk",
            ),
            (
                "Grace Liu",
                "International Student Adviser",
                "Global Welcome",
                "g.liu@northbridge.example.ac.uk",
            ),
            (
                "Martin Healey",
                "University Librarian",
                "Library Services",
                "m.healey@northbridge.example.ac.uk",
            ),
        ]
    ),
)

CONTACT = Page(
    "Contact us",
    "<h1>Contact us</h1>"
    "<p>Northbridge University, Kings Walk, Newcastle NE1 7RU. Switchboard: 0191 496 0000. "
    "Our reception is staffed from 09:00 to 17:00 on weekdays.</p>",
)

PRIVACY = Page(
    "Privacy",
    "<h1>Privacy notice</h1>"
    "<p>We process personal data in line with UK data protection law. This notice explains "
    "what we collect when you use this website, why and for how long we keep it.</p>",
)

ACCESSIBILITY = Page(
    "Accessibility",
    "<h1>Accessibility statement</h1>"
    "<p>We want as many people as possible to be able to use this website. You should be able "
    "to zoom up to 400 per cent and navigate most of the site using a keyboard.</p>",
)

NEWS_INDEX = Page("News", "<h1>News</h1>" + news_list(NEWS))

NEWS_ROWING = Page(
    "Rowing crew takes silver",
    "<h1>Rowing crew takes silver at the regional regatta</h1>"
    "<p>Northbridge's women's eight finished second at the Northern Regatta on Saturday, two "
    "seconds behind the home crew. The students trained at six every morning through the "
    "winter, many of them fitting sessions around part-time jobs and lectures before walking "
    "back to their halls for breakfast.</p>"
    "<p>Club captain Ellie Brandt said the result was the best in the club's history.</p>",
)

NEWS_RAILWAY = Page(
    "New partnership with the light railway",
    "<h1>New partnership with the city's light railway</h1>"
    "<p>Staff and students can now buy an annual pass for the light railway at a 40 per cent "
    "discount. The council believes the scheme will let more students live further from "
    "campus and ease the pressure on rents in Heaton and Jesmond.</p>"
    "<p>Passes can be bought in the campus app from 1 March.</p>",
)

NEWS_CHEMISTRY = Page(
    "Chemistry building reopens",
    "<h1>Chemistry building reopens after refurbishment</h1>"
    "<p>The Bedson laboratories reopened this week after an 18-month refurbishment funded by "
    "a £14 million capital grant. The Vice-Chancellor confirmed that no part of the cost was "
    "passed on to students through higher charges.</p>",
)

NEWS_OSEI = Page(
    "Professor Osei elected",
    "<h1>Professor Amara Osei elected to the Royal Society of Edinburgh</h1>"
    "<p>Professor Osei, who leads the coastal ecology group, has been elected a Fellow. Her "
    "group supervises twelve doctoral researchers, several of them funded by studentships "
    "from the environmental doctoral training partnership.</p>",
)

NOT_FOUND = Page(
    "Page not found",
    "<h1>Page not found</h1><p>Sorry, we could not find that page. It may have moved when "
    'we launched our new website. Try the <a href="#/">home page</a>.</p>',
)

PAGES: dict[str, Page] = {
    "/": HOME,
    "/study": STUDY,
    "/study/undergraduate": UNDERGRADUATE,
    "/study/undergraduate/apply": UG_APPLY,
    "/study/undergraduate/foundation": FOUNDATION,
    "/study/postgraduate": POSTGRADUATE,
    "/study/global": GLOBAL,
    "/study/global/student-route": STUDENT_ROUTE,
    "/study/global/countries": COUNTRIES,
    "/money": MONEY,
    "/money/cost-of-study": COST_OF_STUDY,
    "/money/cost-of-study/withdrawal": WITHDRAWAL,
    "/money/awards": AWARDS,
    "/money/advice": ADVICE,
    "/campus-life": CAMPUS_LIFE,
    "/campus-life/your-stay": YOUR_STAY,
    "/campus-life/your-stay/residence-halls": RESIDENCE_HALLS,
    "/campus-life/your-stay/private-renting": PRIVATE_RENTING,
    "/campus-life/study-spaces": STUDY_SPACES,
    "/campus-life/study-spaces/main-library": MAIN_LIBRARY,
    "/campus-life/study-spaces/science-commons": SCIENCE_COMMONS,
    "/campus-life/wellbeing": WELLBEING,
    "/research": RESEARCH,
    "/about": ABOUT,
    "/about/history": HISTORY,
    "/about/people": PEOPLE,
    "/contact": CONTACT,
    "/privacy": PRIVACY,
    "/accessibility": ACCESSIBILITY,
    "/news": NEWS_INDEX,
    "/news/rowing-silver": NEWS_ROWING,
    "/news/light-railway": NEWS_RAILWAY,
    "/news/chemistry-reopens": NEWS_CHEMISTRY,
    "/news/osei-elected": NEWS_OSEI,
}

ATTACHMENTS: dict[str, Attachment] = {
    "/files/undergraduate-entry-2027.pdf": Attachment(
        "Northbridge University: undergraduate entry guide 2027",
        [
            "Apply through UCAS. Institution code N77.",
            "Typical offer: AAB at A level, or DDD in a BTEC Extended Diploma.",
            "International Baccalaureate: 35 points with 6, 5, 5 at Higher Level.",
            "English language: IELTS 6.5 overall with no component below 6.0.",
            "Applications close on 29 January 2027 (equal consideration deadline).",
            "Reply to offers by 4 June 2027.",
        ],
    ),
    "/files/student-route-checklist.pdf": Attachment(
        "Student route: document checklist",
        [
            "Passport valid for the whole of your stay.",
            "Confirmation of Acceptance for Studies (CAS) number.",
            "Evidence of funds: first-year tuition less deposit, plus GBP 1,136 per month",
            "for up to nine months, held for 28 consecutive days.",
            "Immigration Health Surcharge: GBP 776 per year of permission.",
            "English language test certificate, if your CAS lists one.",
        ],
    ),
    "/files/cost-of-study-2026-27.pdf": Attachment(
        "Cost of study 2026/27",
        [
            "Home (UK) undergraduates: GBP 9,535 per year.",
            "Overseas undergraduates, classroom-based: GBP 24,800 per year.",
            "Overseas undergraduates, laboratory-based: GBP 29,650 per year.",
            "Overseas deposit: GBP 4,000, deducted from first-year tuition.",
            "Instalments: 40% October, 30% January, 30% April.",
            "Withdrawal before the end of week two of the autumn term: full return of payments.",
        ],
    ),
    "/files/awards-2026-27.pdf": Attachment(
        "Awards and eligibility 2026/27",
        [
            "Northbridge Excellence Award: GBP 3,000 in year one for A*AA or better.",
            "Northbridge Support Award: GBP 1,200 a year, household income below GBP 30,000.",
            "Global Merit Award: GBP 5,000 off first-year tuition, offer held by 31 March 2027.",
            "Hardship Fund: non-repayable grants, apply through the Student Hub.",
        ],
    ),
    "/files/residences-guide-2026.pdf": Attachment(
        "Residences guide 2026/27",
        [
            "Riverside Court, en-suite self-catered: GBP 168 per week.",
            "Castle Leazes, standard catered: GBP 192 per week.",
            "Ridley Park, studio: GBP 229 per week.",
            "Bede House, shared bathroom: GBP 131 per week.",
            "Contracts: 44 weeks, 19 September 2026 to 24 July 2027.",
            "Advance payment GBP 250, deducted from the first instalment.",
        ],
    ),
}
