"""Content of the ``spa_history`` portal: Kestrel Bay University (Australia).

Keys of ``PAGES`` are URL paths; the client router renders them with the History
API. ``MEGA_MENU`` is the header mega-menu, whose panels stay hidden until the
pointer hovers over (or the keyboard focuses) a top-level label. The page at
``BUTTON_ONLY_PATH`` has no ``href`` pointing at it anywhere: a ``role="link"``
element on ``/global/arriving`` calls ``history.pushState`` to reach it.
"""

from __future__ import annotations

from fixtures_site.portals._kit import Attachment, Page, cards, news_list, staff_table

UNIVERSITY = "Kestrel Bay University"

BUTTON_ONLY_PATH = "/global/arriving/paperwork"

# (top-level label, [(link text, href)])
MEGA_MENU: list[tuple[str, list[tuple[str, str]]]] = [
    (
        "Study",
        [
            ("Undergraduate", "/study/undergraduate"),
            ("Postgraduate", "/study/postgraduate"),
            ("Planning your budget", "/study/costs"),
        ],
    ),
    (
        "Campus & community",
        [
            ("Where you'll live", "/community/living"),
            ("Libraries", "/community/libraries"),
            ("Clubs and sport", "/community/clubs"),
        ],
    ),
    (
        "Global",
        [
            ("Global students", "/global"),
            ("Arriving in Australia", "/global/arriving"),
        ],
    ),
    (
        "About",
        [
            ("About Kestrel Bay", "/about"),
            ("Our people", "/about/people"),
            ("Newsroom", "/news"),
        ],
    ),
]

FOOTER: list[tuple[str, str]] = [
    ("Contact", "/contact"),
    ("Privacy", "/privacy"),
    ("Newsroom", "/news"),
]

NEWS: list[tuple[str, str, str, str]] = [
    (
        "14 March 2026",
        "Surf lifesaving squad wins state title",
        "Our students balanced dawn training with exams and part-time work to take the title.",
        "/news/surf-lifesaving",
    ),
    (
        "27 February 2026",
        "Council approves new bus route to campus",
        "The route links the campus with the northern suburbs, where many students rent.",
        "/news/bus-route",
    ),
    (
        "9 February 2026",
        "Kestrel Bay climbs in global rankings",
        "The university rose 22 places, helped by research income and student satisfaction.",
        "/news/rankings",
    ),
]

HOME = Page(
    "Home",
    "<h1>Kestrel Bay University</h1>"
    "<p>Kestrel Bay sits between the rainforest and the reef. Our 24,000 students learn in "
    "small classes, on field stations from the Daintree to the Coral Sea, and in the "
    "laboratories of our marine and tropical health institutes.</p>"
    "<p>New for 2027: degrees in climate adaptation and in Indigenous land management, taught "
    "with Traditional Owners from the region.</p>"
    "<h2>Start here</h2>"
    + cards(
        [
            (
                "Find a course",
                "Bachelor's, honours, master's and research degrees.",
                "/study",
            ),
            (
                "Life on campus",
                "Clubs, sport, study spaces and the Bay Hub.",
                "/community",
            ),
            (
                "Join us from overseas",
                "Support for students from more than 100 countries.",
                "/global",
            ),
        ]
    )
    + "<h2>From the newsroom</h2>"
    + news_list(NEWS),
)

STUDY = Page(
    "Study",
    "<h1>Study with us</h1>"
    "<p>Our degrees are built around the tropics: marine science, tropical medicine, "
    "engineering for extreme weather, and education for remote communities. Most programmes "
    "start in February (Semester 1) and many also accept students in July (Semester 2).</p>"
    + cards(
        [
            (
                "Bachelor's degrees",
                "Three- and four-year degrees, honours and combined programmes.",
                "/study/undergraduate",
            ),
            (
                "Master's and research",
                "Coursework master's, MPhil and PhD.",
                "/study/postgraduate",
            ),
            (
                "Planning your budget",
                "What your degree costs each year and how we can help.",
                "/study/costs",
            ),
        ]
    ),
)

UNDERGRADUATE = Page(
    "Bachelor's degrees",
    "<h1>Bachelor's degrees</h1>"
    "<p>Choose from 60 bachelor's degrees across science, health, engineering, arts and "
    "business. Many include work placements with hospitals, schools, councils and "
    "businesses across northern Australia.</p>"
    "<h2>Featured degrees</h2>"
    "<ul><li>Bachelor of Marine Science</li><li>Bachelor of Nursing Science</li>"
    "<li>Bachelor of Engineering (Honours)</li><li>Bachelor of Education (Primary)</li></ul>"
    + cards(
        [
            (
                "Getting in",
                "Selection ranks, prerequisites and closing dates for bachelor's degrees.",
                "/study/undergraduate/how-to-apply",
                "Find out more",
            ),
        ]
    ),
)

UG_HOW_TO_APPLY = Page(
    "Getting in",
    "<h1>Getting in: bachelor's degrees</h1>"
    "<p>If you are finishing Year 12 in Australia, apply through the Queensland Tertiary "
    "Admissions Centre. Everyone else, including students with overseas qualifications, "
    "applies directly to us online.</p>"
    "<h2>Selection ranks</h2>"
    "<p>Each degree publishes a guaranteed selection rank. Most science and arts degrees "
    "guarantee entry with an ATAR of 75.00; engineering requires an ATAR of 80.00 and "
    "Mathematical Methods; nursing requires an ATAR of 78.00 and English.</p>"
    "<h2>Closing dates</h2>"
    "<ul><li>Semester 1, 2027: on-time applications close on 30 November 2026.</li>"
    "<li>Semester 2, 2027: applications close on 31 May 2027.</li></ul>"
    "<p>Late applications are considered while places remain and attract a processing charge "
    "of A$60.</p>"
    '<p><a href="/files/getting-in-2027.pdf">Entry guide 2027 (PDF)</a></p>',
)

POSTGRADUATE = Page(
    "Master's and research",
    "<h1>Master's and research degrees</h1>"
    "<p>Coursework master's degrees take one to two years. Our research students work in "
    "teams that collaborate with reef managers, hospitals and mining companies.</p>"
    + cards(
        [
            (
                "Research degrees",
                "MPhil and PhD candidature, supervisors and stipends.",
                "/study/postgraduate/research-degrees",
            ),
        ]
    ),
)

RESEARCH_DEGREES = Page(
    "Research degrees",
    "<h1>Research degrees: MPhil and PhD</h1>"
    "<p>Before you apply, contact a potential supervisor and send an expression of interest "
    "with your CV and a two-page research proposal.</p>"
    "<h2>Stipends and candidature rounds</h2>"
    "<p>Research Training Program stipends are worth A$36,063 a year for up to three and a half "
    "years, and international recipients also have their tuition covered.</p>"
    "<ul><li>Round 1 for commencement in 2027: closes 31 August 2026.</li>"
    "<li>Round 2 for commencement in mid-2027: closes 28 February 2027.</li></ul>",
)

COSTS = Page(
    "Planning your budget",
    "<h1>Planning your budget</h1>"
    "<p>Most domestic students pay through a Commonwealth supported place and can defer the "
    "amount through HECS-HELP. International students pay the full amount each "
    "semester.</p>"
    + cards(
        [
            (
                "Course charges 2027",
                "Yearly amounts for Commonwealth supported and international students.",
                "/study/costs/charges-2027",
            ),
            (
                "Support",
                "Awards, bursaries and emergency help for current and new students.",
                "/study/costs/support",
            ),
        ]
    ),
)

CHARGES_2027 = Page(
    "Course charges 2027",
    "<h1>Course charges 2027</h1>"
    "<p>The amounts below are indicative annual amounts for a full-time load of 8 subjects "
    "in 2027.</p>"
    "<table><tr><th>Degree</th><th>Commonwealth supported</th><th>International</th></tr>"
    "<tr><td>Bachelor of Marine Science</td><td>A$9,350</td><td>A$42,500 per year</td></tr>"
    "<tr><td>Bachelor of Nursing Science</td><td>A$4,445</td><td>A$39,800 per year</td></tr>"
    "<tr><td>Bachelor of Engineering (Honours)</td><td>A$9,350</td>"
    "<td>A$44,960 per year</td></tr></table>"
    "<p>International students also pay the Student Services and Amenities Fee of A$365 a "
    "year and must hold Overseas Student Health Cover for their whole stay.</p>"
    "<h2>If you withdraw</h2>"
    "<p>Withdraw before the census date of 31 March 2027 (Semester 1) and you will not be "
    "charged for that semester; amounts you have paid are returned within 20 business "
    "days.</p>"
    '<p><a href="/files/charges-2027.pdf">Schedule of charges 2027 (PDF)</a></p>',
)

SUPPORT = Page(
    "Support",
    "<h1>Support</h1>"
    "<p>We help students with the cost of study in three ways: awards for new students, "
    "bursaries for students in financial hardship and short-term emergency loans.</p>"
    + cards(
        [
            (
                "Awards and bursaries",
                "Who can receive them, how much they are worth and when to apply.",
                "/study/costs/support/awards",
                "Read more",
            ),
            (
                "Emergency loans",
                "Interest-free loans of up to A$1,000, repaid over six months.",
                "/study/costs/support/loans",
                "Read more",
            ),
        ]
    ),
)

AWARDS = Page(
    "Awards and bursaries",
    "<h1>Awards and bursaries</h1>"
    "<p>Applications for 2027 awards open on 1 August 2026 and close on 15 January 2027. One "
    "application is considered for every award you are eligible for.</p>"
    "<h2>Reef and Rainforest Award</h2>"
    "<p>Worth A$8,000 a year for up to four years, for school leavers from regional and "
    "remote Queensland.</p>"
    "<h2>Vice-Chancellor's International Award</h2>"
    "<p>A 25 per cent reduction in course charges for the whole degree, for international "
    "students with an excellent academic record.</p>"
    "<h2>First Nations Bursary</h2>"
    "<p>A$5,000 a year for Aboriginal and Torres Strait Islander students.</p>"
    '<p><a href="/files/awards-2027.pdf">Awards handbook 2027 (PDF)</a></p>',
)

LOANS = Page(
    "Emergency loans",
    "<h1>Emergency loans</h1>"
    "<p>If an unexpected bill puts your studies at risk, the Student Hub can lend you up to "
    "A$1,000 interest free. You repay the loan over six months.</p>",
)

COMMUNITY = Page(
    "Life on campus",
    "<h1>Life on campus</h1>"
    "<p>The Bay Hub is the centre of campus life: food outlets, the Student Guild, the gym "
    "and a rooftop terrace looking over the bay. Use the menu above to explore where "
    "you will live, study and play.</p>"
    + cards(
        [
            ("Clubs and sport", "120 clubs, from surf lifesaving to chess.", "/community/clubs"),
            (
                "Libraries",
                "Three libraries with study rooms and 24-hour computer labs.",
                "/community/libraries",
            ),
        ]
    ),
)

CLUBS = Page(
    "Clubs and sport",
    "<h1>Clubs and sport</h1>"
    "<p>Join one of 120 clubs run by the Student Guild. Membership of most clubs costs A$5 a "
    "year, and the university gym is free for students in their first semester.</p>",
)

LIVING = Page(
    "Where you'll live",
    "<h1>Where you'll live</h1>"
    "<p>Three residential colleges and two apartment villages sit on the campus, all within "
    "ten minutes' walk of your classes. Homestay with a local family is popular with younger "
    "students from overseas.</p>"
    + cards(
        [
            (
                "On-campus residences",
                "Colleges and apartments, weekly rent and how to secure a room.",
                "/community/living/on-campus",
            ),
            (
                "Homestay",
                "Living with a local family: what is included and what it costs.",
                "/community/living/homestay",
            ),
        ]
    ),
)

ON_CAMPUS = Page(
    "On-campus residences",
    "<h1>On-campus residences</h1>"
    "<p>Living on campus means no commute, a ready-made community and support from residential "
    "advisers who live on site.</p>"
    "<h2>Weekly rent 2027</h2>"
    "<table><tr><th>Residence</th><th>Type</th><th>Weekly rent</th></tr>"
    "<tr><td>Mangrove College</td><td>Catered single room</td><td>A$415 per week</td></tr>"
    "<tr><td>Banksia Apartments</td><td>Room in a four-bedroom apartment</td>"
    "<td>A$289 per week</td></tr>"
    "<tr><td>Pandanus Studios</td><td>Self-contained studio</td><td>A$352 per week</td></tr>"
    "</table>"
    "<p>Rent covers electricity, internet and water. Agreements run for 40 weeks from 14 "
    "February 2027.</p>"
    "<h2>Securing a room</h2>"
    "<p>Apply online once you hold an offer. Offers of a room are made from October, and you "
    "confirm yours with a bond of two weeks' rent.</p>"
    '<p><a href="/files/residences-2027.pdf">Residences price list 2027 (PDF)</a></p>',
)

HOMESTAY = Page(
    "Homestay",
    "<h1>Homestay</h1>"
    "<p>A homestay placement costs A$330 per week, including breakfast and dinner, and a "
    "placement fee of A$250 is paid once.</p>",
)

LIBRARIES = Page(
    "Libraries",
    "<h1>Libraries</h1>"
    "<p>Our three libraries hold print and digital collections, quiet study areas and "
    "bookable rooms. Your student card opens the doors.</p>"
    + cards(
        [
            (
                "Harbour Library",
                "The main library on the Bay campus, with the Eddie Koiki Mabo reading room.",
                "/community/libraries/harbour",
            ),
            (
                "Health Sciences Library",
                "Beside the teaching hospital.",
                "/community/libraries/health-sciences",
            ),
        ]
    ),
)

HARBOUR_LIBRARY = Page(
    "Harbour Library",
    "<h1>Harbour Library</h1>"
    "<p>The Harbour Library is the largest of our three libraries and the home of the North "
    "Queensland Collection.</p>"
    "<h2>Hours during semester</h2>"
    "<ul><li>Monday to Thursday: 7:30am to 11:00pm</li>"
    "<li>Friday: 7:30am to 8:00pm</li>"
    "<li>Saturday and Sunday: 9:00am to 6:00pm</li></ul>"
    "<p>Outside semester the library closes at 6:00pm on weekdays and is closed on weekends. "
    "The ground-floor computer lab stays open 24 hours a day, 7 days a week, for students with "
    "a current card.</p>",
)

HEALTH_LIBRARY = Page(
    "Health Sciences Library",
    "<h1>Health Sciences Library</h1>"
    "<p>The Health Sciences Library supports nursing, medicine and allied health students on "
    "placement at the teaching hospital. Clinical skills models can be borrowed for two "
    "hours.</p>",
)

GLOBAL = Page(
    "Global students",
    "<h1>Global students</h1>"
    "<p>Students from more than 100 countries study at Kestrel Bay. Our Global Student Centre "
    "helps you choose a course, plan your arrival and settle in.</p>"
    + cards(
        [
            (
                "Arriving in Australia",
                "What to prepare before you fly and your first week here.",
                "/global/arriving",
            ),
            (
                "English language",
                "English requirements and our pathway programmes.",
                "/global/english",
            ),
        ]
    ),
)

ARRIVING = Page(
    "Arriving in Australia",
    "<h1>Arriving in Australia</h1>"
    "<p>Congratulations on your offer. There are a few things to finish before you fly, "
    "and our airport pick-up service will meet you when you land at Cairns.</p>"
    '<div class="cards"><article class="card"><h3>Before you fly</h3>'
    "<p>Your permission to study, health cover and the documents to carry with you.</p>"
    '<span role="link" tabindex="0" class="more" data-goto="paperwork">Open the checklist</span>'
    "</article>"
    '<article class="card"><h3>Airport pick-up</h3>'
    "<p>Book a free pick-up at least five days before you land.</p>"
    '<a class="more" href="/global/arriving/pick-up">Book a pick-up</a></article></div>',
)

PAPERWORK = Page(
    "Before you fly",
    "<h1>Before you fly: your checklist</h1>"
    "<p>To study full time in Australia you need a Student visa (subclass 500). Apply online "
    "through ImmiAccount once you have your Confirmation of Enrolment (CoE).</p>"
    "<h2>What the Department of Home Affairs will ask for</h2>"
    "<ul><li>Your Confirmation of Enrolment from Kestrel Bay.</li>"
    "<li>Evidence of funds: at least A$29,710 for 12 months of living costs, plus course "
    "charges and travel.</li>"
    "<li>Overseas Student Health Cover for the whole of your stay.</li>"
    "<li>A Genuine Student statement.</li></ul>"
    "<p>The visa application charge is A$2,000. Apply at least eight weeks before you plan to "
    "travel. You may work up to 48 hours per fortnight during semester.</p>"
    '<p><a href="/files/before-you-fly.pdf">Before you fly checklist (PDF)</a></p>',
)

PICK_UP = Page(
    "Airport pick-up",
    "<h1>Airport pick-up</h1>"
    "<p>Our volunteers meet new students at Cairns Airport and drive you to your residence or "
    "homestay. Book at least five days before you land.</p>",
)

ENGLISH = Page(
    "English language",
    "<h1>English language</h1>"
    "<p>Most degrees require IELTS Academic 6.5 overall with no band below 6.0. Our English "
    "pathway programme runs for 10 or 20 weeks.</p>",
)

ABOUT = Page(
    "About Kestrel Bay",
    "<h1>About Kestrel Bay</h1>"
    "<p>Founded in 1970, Kestrel Bay University was the first university in northern "
    "Australia. We acknowledge the Traditional Owners of the lands on which our campuses "
    "stand.</p>",
)

PEOPLE = Page(
    "Our people",
    "<h1>Our people</h1>"
    + staff_table(
        [
            (
                "Professor Ruth Anderson",
                "Vice-Chancellor",
                "Chancellery",
                "vc@kestrelbay.example.edu.au",
            ),
            (
                "Liam Nguyen",
                "Manager, Residential Life",
                "Student Services",
                "l.nguyen@kestrelbay.example.edu.au",
            ),
            (
                "Dr Sofia Marques",
                "Dean of Graduate Research",
                "Graduate Research School",
                "s.marques@kestrelbay.example.edu.au",
            ),
            (
                "Jack Thompson",
                "Scholarships Officer",
                "Student Services",
                "j.thompson@kestrelbay.example.edu.au",
            ),
            (
                "Mei Tan",
                "International Adviser",
                "Global Student Centre",
                "m.tan@kestrelbay.example.edu.au",
            ),
        ]
    ),
)

NEWS_INDEX = Page("Newsroom", "<h1>Newsroom</h1>" + news_list(NEWS))

NEWS_SURF = Page(
    "Surf lifesaving squad wins state title",
    "<h1>Surf lifesaving squad wins state title</h1>"
    "<p>Kestrel Bay's surf lifesaving squad won the Queensland university title on Sunday. "
    "The students trained at dawn through the exam period, and several fitted shifts at "
    "their part-time jobs around the competition.</p>",
)

NEWS_BUS = Page(
    "Council approves new bus route",
    "<h1>Council approves new bus route to campus</h1>"
    "<p>A new bus route will link the campus with the northern suburbs, where many students "
    "rent shared houses. Students with a concession card will pay A$1.20 a trip.</p>",
)

NEWS_RANKINGS = Page(
    "Kestrel Bay climbs in global rankings",
    "<h1>Kestrel Bay climbs in global rankings</h1>"
    "<p>The university rose 22 places in this year's global rankings, helped by strong "
    "research income and student satisfaction scores.</p>",
)

CONTACT = Page(
    "Contact",
    "<h1>Contact</h1><p>Kestrel Bay University, 1 Esplanade Drive, Kestrel Bay QLD 4870. "
    "Phone 07 4000 1234, weekdays 8:30am to 5:00pm.</p>",
)

PRIVACY = Page(
    "Privacy",
    "<h1>Privacy</h1><p>We handle personal information in line with the Information "
    "Privacy Act 2009 (Qld).</p>",
)

NOT_FOUND = Page(
    "Page not found",
    "<h1>Page not found</h1><p>We couldn't find the page you were looking for. It may have "
    'been moved or removed. Go to the <a href="/">home page</a> or use the menu above.</p>',
)

PAGES: dict[str, Page] = {
    "/": HOME,
    "/study": STUDY,
    "/study/undergraduate": UNDERGRADUATE,
    "/study/undergraduate/how-to-apply": UG_HOW_TO_APPLY,
    "/study/postgraduate": POSTGRADUATE,
    "/study/postgraduate/research-degrees": RESEARCH_DEGREES,
    "/study/costs": COSTS,
    "/study/costs/charges-2027": CHARGES_2027,
    "/study/costs/support": SUPPORT,
    "/study/costs/support/awards": AWARDS,
    "/study/costs/support/loans": LOANS,
    "/community": COMMUNITY,
    "/community/clubs": CLUBS,
    "/community/living": LIVING,
    "/community/living/on-campus": ON_CAMPUS,
    "/community/living/homestay": HOMESTAY,
    "/community/libraries": LIBRARIES,
    "/community/libraries/harbour": HARBOUR_LIBRARY,
    "/community/libraries/health-sciences": HEALTH_LIBRARY,
    "/global": GLOBAL,
    "/global/arriving": ARRIVING,
    BUTTON_ONLY_PATH: PAPERWORK,
    "/global/arriving/pick-up": PICK_UP,
    "/global/english": ENGLISH,
    "/about": ABOUT,
    "/about/people": PEOPLE,
    "/news": NEWS_INDEX,
    "/news/surf-lifesaving": NEWS_SURF,
    "/news/bus-route": NEWS_BUS,
    "/news/rankings": NEWS_RANKINGS,
    "/contact": CONTACT,
    "/privacy": PRIVACY,
}

ATTACHMENTS: dict[str, Attachment] = {
    "/files/getting-in-2027.pdf": Attachment(
        "Kestrel Bay University: entry guide 2027",
        [
            "Guaranteed selection ranks: science and arts ATAR 75.00,",
            "engineering ATAR 80.00 with Mathematical Methods, nursing ATAR 78.00 with English.",
            "Semester 1, 2027: on-time applications close on 30 November 2026.",
            "Semester 2, 2027: applications close on 31 May 2027.",
        ],
    ),
    "/files/charges-2027.pdf": Attachment(
        "Schedule of charges 2027",
        [
            "Bachelor of Marine Science: CSP AUD 9,350; international AUD 42,500 per year.",
            "Bachelor of Nursing Science: CSP AUD 4,445; international AUD 39,800 per year.",
            "Bachelor of Engineering (Honours): CSP AUD 9,350; international AUD 44,960 per year.",
            "Student Services and Amenities Fee: AUD 365 a year.",
            "Census date Semester 1: 31 March 2027.",
        ],
    ),
    "/files/awards-2027.pdf": Attachment(
        "Awards handbook 2027",
        [
            "Applications open 1 August 2026 and close 15 January 2027.",
            "Reef and Rainforest Award: AUD 8,000 a year for up to four years.",
            "Vice-Chancellor's International Award: 25 per cent reduction for the whole degree.",
            "First Nations Bursary: AUD 5,000 a year.",
        ],
    ),
    "/files/residences-2027.pdf": Attachment(
        "Residences price list 2027",
        [
            "Mangrove College, catered single room: AUD 415 per week.",
            "Banksia Apartments, room in a four-bedroom apartment: AUD 289 per week.",
            "Pandanus Studios, self-contained studio: AUD 352 per week.",
            "Agreements run for 40 weeks from 14 February 2027.",
        ],
    ),
    "/files/before-you-fly.pdf": Attachment(
        "Before you fly: checklist for international students",
        [
            "Student visa (subclass 500): apply in ImmiAccount with your CoE.",
            "Evidence of funds: at least AUD 29,710 for 12 months of living costs.",
            "Overseas Student Health Cover for the whole of your stay.",
            "Visa application charge: AUD 2,000.",
        ],
    ),
}
