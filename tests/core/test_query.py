from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pw_adaptive.core.links import Link, score_link
from pw_adaptive.core.query import (
    DEFAULT_SYNONYMS,
    GENERIC_TERM_WEIGHT,
    MAX_TERMS,
    NAME_TERM_WEIGHT,
    Query,
    Synonyms,
    estimate_tokens,
    normalize_text,
)
from pw_adaptive.core.relevance import relevance
from pw_adaptive.core.sections import qualifiers_of

# --- terms -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "terms"),
    [
        pytest.param("refund policy", ("refund", "policy"), id="seed-query-two-terms"),
        pytest.param(
            "International Student Housing",
            ("international", "student", "housing"),
            id="case-folded",
        ),
        pytest.param("fees for the library", ("fees", "library"), id="english-stop-words"),
        pytest.param("opening hours", ("opening", "hours"), id="phrase-stays-two-terms"),
        pytest.param("fees, deadlines; visa!", ("fees", "deadlines", "visa"), id="punctuation"),
        pytest.param("Ｆｅｅｓ", ("fees",), id="nfkc-full-width"),
        pytest.param("fee fees Fees", ("fee",), id="duplicates-by-singular-dropped"),
        pytest.param("part-time master's", ("part-time", "master's"), id="inner-hyphen-apostrophe"),
        pytest.param("宿舍", ("宿舍",), id="short-cjk-word"),
        pytest.param("宿舍 费用", ("宿舍", "费用"), id="cjk-user-spaces"),
        # Spaces in a Chinese query separate phrases: each run is segmented.
        pytest.param("留学生宿舍 费用", ("留学生", "宿舍", "费用"), id="cjk-spaced-runs-segmented"),
        pytest.param(
            "图书馆开放时间 借书规则",
            ("图书馆", "开放时间", "借书", "规则"),
            id="cjk-spaced-phrases",
        ),
        pytest.param("留学生宿舍费用", ("留学生", "宿舍", "费用"), id="cjk-segmented"),
        pytest.param("学生的宿舍", ("学生", "宿舍"), id="cjk-stop-word"),
        pytest.param("图书馆开放时间", ("图书馆", "开放时间"), id="cjk-lexicon-entry-rejoined"),
        pytest.param("PhD申请截止", ("phd", "申请", "截止"), id="mixed-script-unspaced"),
        # Stop words written onto a word, outside English: elided in front,
        # pronouns joined behind.
        pytest.param(
            "Jusqu'à quand peut-on candidater en M1 ?",
            ("candidater", "m1"),
            id="french-elision-and-inversion",
        ),
        pytest.param(
            "frais d’inscription à l'université",
            ("frais", "inscription", "université"),
            id="french-elided-articles",
        ),
        pytest.param(
            "wifi eduroam dell’università",
            ("wifi", "eduroam", "università"),
            id="italian-elided-preposition",
        ),
        pytest.param("esame e sessioni d’esame", ("esame", "sessioni"), id="elided-duplicate"),
        pytest.param("como candidatar-se", ("candidatar",), id="portuguese-enclitic"),
        pytest.param("prendre rendez-vous", ("prendre", "rendez-vous"), id="hyphenated-noun-kept"),
        # A hyphenated compound outside English: each part is a term, as a
        # page names either part alone; short parts and stop words keep it whole.
        pytest.param(
            "grupper til Cupcake-opgaven", ("grupper", "cupcake", "opgaven"), id="compound-split"
        ),
        pytest.param(
            "ansluta till PHP-server", ("ansluta", "php", "server"), id="compound-acronym-split"
        ),
        pytest.param(
            "WG-Zimmer in Karlsruhe", ("wg-zimmer", "karlsruhe"), id="compound-short-part-kept"
        ),
        pytest.param("Wi-Fi im Wohnheim", ("wi-fi", "wohnheim"), id="compound-wifi-kept"),
        pytest.param("first-year exams", ("first-year", "exams"), id="english-compound-kept"),
        pytest.param(
            "общежитие МГИМО-Одинцово", ("общежитие", "мгимо-одинцово"), id="compound-name-kept"
        ),
        # An acronym in capitals is a word of the question, even where a stop
        # list holds it in lower case; a query in capitals throughout is not
        # read so.
        pytest.param("IT helpdesk hours", ("it", "helpdesk", "hours"), id="acronym-kept"),
        pytest.param(
            "credits for CS classes", ("credits", "cs", "classes"), id="acronym-country-code"
        ),
        pytest.param("It is the library", ("library",), id="capitalised-stop-word-dropped"),
        pytest.param("WHERE IS THE LIBRARY", ("library",), id="all-capitals-query"),
    ],
)
def test_query_splits_into_terms(text: str, terms: tuple[str, ...]) -> None:
    query = Query(text)
    assert query.terms == terms
    assert len(query) == len(terms)
    assert query.text == text


def test_an_elided_word_keeps_the_phrase_it_is_part_of() -> None:
    # "frais d'inscription" is a fees phrase of the lexicon: its second word,
    # the term "inscription", reaches the fees topic as "d'inscription" did,
    # typed with either apostrophe.
    for text in ("frais d'inscription", "frais d’inscription"):
        query = Query(text)
        assert query.terms == ("frais", "inscription")
        assert query.topical == (True, True)
        assert query.hit_mask("Tuition fees for 2024") == 0b11


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("", id="empty"),
        pytest.param("   ", id="blank"),
        pytest.param("the of and", id="stop-words-only"),
        pytest.param("?!", id="punctuation-only"),
        pytest.param("的", id="chinese-stop-word-only"),
    ],
)
def test_query_without_terms_is_rejected_with_a_clear_message(text: str) -> None:
    with pytest.raises(ValueError, match="has no terms"):
        Query(text)


@pytest.mark.parametrize(
    ("text", "terms"),
    [
        # An error message pasted whole: one term, stop words and all.
        (
            'git clone fails with "Support for password authentication was removed"',
            ("git", "clone", "fails", "support for password authentication was removed"),
        ),
        # A programme's name in guillemets, and German quotes.
        (
            "вступительные испытания «Цифровые финансы»",
            ("вступительные", "испытания", "цифровые финансы"),
        ),
        ("Kosten für „Studentisches Wohnen“", ("kosten", "studentisches wohnen")),
        # One word in quotes is that word.
        ('the "Erasmus" office', ("erasmus", "office")),
    ],
)
def test_a_quoted_phrase_is_one_term(text: str, terms: tuple[str, ...]) -> None:
    assert Query(text).terms == terms


def test_a_quoted_phrase_matches_its_words_in_order_only() -> None:
    q = Query('error "password authentication was removed"')
    assert q.hit_mask("Support for password authentication was removed on GitHub") == 0b10
    assert q.hit_mask("Authentication was removed; use a password manager") == 0
    # A quoted phrase the lexicon knows keeps its topic's words.
    assert Query('"student housing" prices').hit_mask("Residence halls and prices") == 0b11


def test_query_holds_at_most_64_terms() -> None:
    words = [f"word{i}" for i in range(MAX_TERMS + 1)]
    assert len(Query(" ".join(words[:MAX_TERMS]))) == MAX_TERMS
    with pytest.raises(ValueError, match="at most 64"):
        Query(" ".join(words))


# --- hit_mask ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "mask"),
    [
        pytest.param("Refunds for gift cards: policy.", 0b11, id="seed-both-terms"),
        pytest.param("Our refund policy.", 0b11, id="plain"),
        pytest.param("Refund mentioned once.", 0b01, id="refund-only"),
        pytest.param("Team page.", 0, id="seed-noise-team"),
        pytest.param("About us.", 0, id="seed-noise-about"),
        pytest.param("Careers.", 0, id="seed-noise-careers"),
        pytest.param("Careers page.", 0, id="seed-noise-careers-page"),
        pytest.param("Contact.", 0, id="seed-noise-contact"),
        pytest.param("Nothing here.", 0, id="seed-noise-nothing"),
        pytest.param("", 0, id="empty"),
    ],
)
def test_hit_mask_of_seed_texts(text: str, mask: int) -> None:
    assert Query("refund policy").hit_mask(text) == mask


@pytest.mark.parametrize(
    ("term", "text", "hits"),
    [
        pytest.param("refund", "Refunds are issued", True, id="refund-plural"),
        pytest.param("refund", "a refundable deposit", True, id="refund-able"),
        pytest.param("refund", "we refunded it", True, id="refund-past"),
        pytest.param("refunds", "one refund", True, id="plural-query-hits-singular"),
        pytest.param("refund", "prefund", False, id="no-prefix-match"),
        pytest.param("fee", "Tuition fees", True, id="fee-plural"),
        pytest.param("fee", "Give us feedback", False, id="fee-not-feedback"),
        pytest.param("fee", "news feed", False, id="fee-not-feed"),
        pytest.param("fee", "fee-paying students", True, id="fee-before-hyphen"),
        pytest.param("student", "the students' union", True, id="student-plural-possessive"),
        pytest.param("student", "a student's guide", True, id="student-possessive"),
        pytest.param("student", "a student’s guide", True, id="student-typographic-possessive"),
        pytest.param("student", "a PhD studentship", False, id="student-not-studentship"),
        pytest.param("application", "Applications open", True, id="application-plural"),
        pytest.param("housing", "a house in town", False, id="housing-not-house"),
        pytest.param("house", "student housing", True, id="house-hits-housing"),
        pytest.param("policy", "our policies", True, id="y-plural"),
        pytest.param("apply", "she applied", True, id="y-past"),
        pytest.param("class", "evening classes", True, id="es-plural"),
        pytest.param("news", "the new building", False, id="news-is-not-a-plural"),
        pytest.param("install", "Installation instructions", True, id="verb-hits-ation-noun"),
        pytest.param("transport", "public transportation", True, id="transport-ation"),
        pytest.param("state", "the railway station", False, id="no-ion-after-e"),
        pytest.param("campus", "campuses", True, id="campus-plural"),
        # Consonant doubling, both ways: a base hits its doubled forms, and a
        # doubled form or consonant + "ying" in a query hits its base.
        pytest.param("transfer", "Transferring to Pitt", True, id="doubled-ing"),
        pytest.param("admit", "admitted students", True, id="doubled-ed"),
        pytest.param("transferring", "Transfer students", True, id="query-doubled-ing-base"),
        pytest.param("admitted", "How we admit", True, id="query-doubled-ed-base"),
        pytest.param("applying", "Apply now", True, id="query-ying-base"),
        pytest.param("applying", "Applications", False, id="query-ying-not-noun"),
        pytest.param("settings", "a set of rules", False, id="setting-not-set"),
        pytest.param("parking", "the park", False, id="parking-not-park"),
        pytest.param("enrolling", "enrol", False, id="ll-not-undoubled"),
        # A base that does not double keeps the word whole: it still hits itself.
        pytest.param("quitting", "quitting the course", True, id="query-undoubled-base-kept"),
        pytest.param("master's", "MASTER’S DEGREES", True, id="apostrophe-variants"),
        pytest.param("e-mail", "send an email", True, id="hyphenated-term-unhyphenated"),
        pytest.param("phd", "申请PhD项目", True, id="latin-word-inside-chinese"),
        pytest.param("宿舍", "学生宿舍管理", True, id="cjk-substring"),
        pytest.param("宿舍", "宿 舍", True, id="cjk-inner-space"),
        pytest.param("visa", "ＶＩＳＡ", True, id="full-width-text"),
        # French "logement" stems to "log", Spanish "beca" to "bec", "visa" to
        # "vis": as prefixes they would start unrelated words of any language.
        pytest.param("logement", "You are logged in as a guest", False, id="log-not-logged"),
        pytest.param("logement", "Logements pour étudiants", True, id="logements"),
        pytest.param("becas", "Closed because of the holiday", False, id="bec-not-because"),
        pytest.param("becas", "Becas y ayudas al estudio", True, id="becas"),
        pytest.param("visado", "Visit the campus on open day", False, id="vis-not-visit"),
        pytest.param("visado", "Visados de estudiante", True, id="visados"),
        # A language that chains suffixes keeps an open ending.
        pytest.param("burs", "Öğrenci bursları", True, id="tr-open-ending"),
    ],
)
def test_terms_match_with_light_stemming(term: str, text: str, hits: bool) -> None:
    assert bool(Query(term).hit_mask(text)) is hits


@pytest.mark.parametrize(
    ("term", "text"),
    [
        pytest.param("housing", "Accommodation for new students", id="housing-accommodation"),
        pytest.param("housing", "Halls of Residence", id="housing-phrase"),
        pytest.param("housing", "Dormitories on campus", id="housing-dormitory-plural"),
        pytest.param("housing", "学生宿舍", id="housing-chinese"),
        pytest.param("宿舍", "University accommodation", id="chinese-to-english"),
        pytest.param("fees", "Tuition for 2025", id="fees-tuition"),
        pytest.param("fees", "Tuition charges", id="fees-phrase"),
        pytest.param("fee", "学费标准", id="singular-finds-group"),
        pytest.param("admissions", "How to apply", id="admissions-apply"),
        pytest.param("admissions", "Entry requirements", id="admissions-entry-requirements"),
        pytest.param("scholarship", "Bursaries and financial aid", id="scholarship-bursary"),
        pytest.param("开放时间", "圖書館開放時間", id="opening-hours-traditional-chinese"),
        pytest.param("library", "图书馆", id="library-chinese"),
        pytest.param("international", "Overseas applicants", id="international-overseas"),
        pytest.param("deadline", "Closing date: 1 March", id="deadline-closing-date"),
        pytest.param("graduate", "Postgraduate study", id="graduate-postgraduate"),
        pytest.param("undergraduate", "本科招生", id="undergraduate-chinese"),
        pytest.param("zapisy", "Rejestracje", id="enrolment-polish"),
        pytest.param("enrolment", "Einschreibung und Immatrikulation", id="enrolment-german"),
        pytest.param("matrícula", "Inscripción de cursos", id="enrolment-spanish"),
    ],
)
def test_terms_match_their_synonyms(term: str, text: str) -> None:
    assert Query(term).hit_mask(text) == 1


def test_hit_mask_sets_one_bit_per_term_in_query_order() -> None:
    query = Query("international student housing")
    assert query.hit_mask("Accommodation") == 0b100
    assert query.hit_mask("Overseas students") == 0b011
    assert query.hit_mask("Accommodation for overseas students") == 0b111


def test_great_hall_is_not_a_hall_of_residence() -> None:
    assert Query("housing").hit_mask("Graduation in the Great Hall") == 0


# --- term_counts -------------------------------------------------------------


def test_term_counts_count_every_occurrence_per_term() -> None:
    query = Query("refund policy")
    assert query.term_counts("Refund policy. Refunds: see the policy on refunds.") == [3, 2]
    assert query.term_counts("") == [0, 0]


def test_term_counts_count_a_phrase_once_not_as_its_words() -> None:
    query = Query("housing")
    assert query.term_counts("Halls of residence and residence halls, dorms") == [3]


# --- synonyms ----------------------------------------------------------------


def test_default_synonyms_load_from_shipped_data() -> None:
    variants = DEFAULT_SYNONYMS.variants("Housing")
    assert variants[0] == "housing"
    assert {"accommodation", "hall of residence", "dormitory", "住宿", "宿舍"} <= set(variants)


def test_variants_of_an_unknown_term_are_the_term_itself() -> None:
    assert DEFAULT_SYNONYMS.variants("Zebra") == ("zebra",)


def test_synonyms_are_extendable_without_changing_the_original() -> None:
    extended = DEFAULT_SYNONYMS.extended([["housing", "Your stay"]])
    assert "your stay" in extended.variants("housing")
    assert "your stay" not in DEFAULT_SYNONYMS.variants("housing")
    assert Query("student housing", synonyms=extended).hit_mask("Your stay") == 0b10
    assert Query("student housing").hit_mask("Your stay") == 0


def test_query_with_no_synonyms_matches_only_its_own_words() -> None:
    query = Query("housing", synonyms=Synonyms())
    assert query.hit_mask("Accommodation") == 0
    assert query.hit_mask("Housing") == 1


def test_synonyms_load_reads_a_json_file(tmp_path: Path) -> None:
    path = tmp_path / "lexicon.json"
    path.write_text(json.dumps({"groups": [["Mensa", "canteen"]]}), encoding="utf-8")
    synonyms = Synonyms.load(path)
    assert synonyms.groups == (("mensa", "canteen"),)
    assert Query("mensa", synonyms=synonyms).hit_mask("Canteens") == 1


@pytest.mark.parametrize(
    "content",
    [
        pytest.param("not json", id="not-json"),
        pytest.param('["housing"]', id="not-an-object"),
        pytest.param('{"groups": ["housing", "dorm"]}', id="group-is-a-string"),
        pytest.param('{"groups": [[1, 2]]}', id="member-not-a-string"),
    ],
)
def test_synonyms_load_rejects_malformed_files(tmp_path: Path, content: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ValueError):
        Synonyms.load(path)


def test_menu_hints_name_a_topic_s_section_but_never_hit_a_term() -> None:
    bus = Query("bus routes from campus and fares")
    assert bus.hinted("🚌 Road Transport")
    assert bus.hit_mask("🚌 Road Transport") == 0  # evidence needs the topic's own words
    assert not bus.hinted("Alumni relations")
    assert not Query("library opening hours").hinted("Road Transport")  # another topic's hint
    assert bus.hint_share("Alumni relations") is None


def test_a_hint_s_share_is_the_weight_of_the_terms_whose_topic_it_names() -> None:
    query = Query("campus shuttle bus timetable and fare")
    weights = dict(zip(query.terms, query.term_weights, strict=True))
    total = sum(weights.values())
    # Transport's menu word speaks for "shuttle" (the phrase "shuttle bus") and "bus".
    assert query.hint_share("Getting around") == pytest.approx(
        (weights["shuttle"] + weights["bus"]) / total
    )
    # The study menu holds class timetables: it speaks for "timetable" alone.
    assert query.hint_share("Studies") == pytest.approx(weights["timetable"] / total)
    # A label naming both sections speaks for all three.
    assert query.hint_share("Studies and getting around") == pytest.approx(
        (weights["shuttle"] + weights["bus"] + weights["timetable"]) / total
    )
    # A calendar hinted by a question asking "when" speaks for no term.
    when = Query("when is the exam registration deadline")
    assert when.hinted("Calendar") and when.hint_share("Calendar") == 0.0


@pytest.mark.parametrize(
    ("query", "label"),
    [
        pytest.param("campus clinic opening hours", "🩺 Health", id="en"),
        pytest.param("學校醫務室幾點開", "🩺 保健", id="zh-hant-query"),
        pytest.param("校园网怎么连接", "生活类教程", id="zh-campus-life"),
        pytest.param("Mensa Öffnungszeiten", "Essen und Trinken", id="de-stem"),
        pytest.param("kirjasto aukioloajat", "Lukusali", id="fi"),
        pytest.param("frais de scolarité", "Coûts et financement", id="fr"),
        pytest.param("общежитие", "Студенческая жизнь", id="ru"),
    ],
)
def test_menu_hints_in_the_site_s_language(query: str, label: str) -> None:
    assert Query(query).hinted(label)


def test_a_query_word_that_is_one_topic_s_hint_takes_that_topic_s_words() -> None:
    # "transport" is a hint of one topic: the narrower words of that topic
    # count for it ("autobus"), not the other way round.
    query = Query("transport discounts")
    assert query.hit_mask("Komunikacja miejska i autobusy") == 0b01
    assert Query("bus timetable").hit_mask("Transport research group") == 0
    # "student life" is a hint of several topics: it says which of them none.
    assert Query("student life").hit_mask("Canteen opening hours") == 0


@pytest.mark.parametrize(
    ("query", "label"),
    [
        pytest.param("kiedy jest sesja egzaminacyjna?", "Organizacja roku akademickiego", id="pl"),
        pytest.param("When are exam results published", "Key dates", id="en"),
        pytest.param("考试什么时候开始", "校历", id="zh"),
        pytest.param("試験はいつですか", "Academic calendar", id="ja"),
        pytest.param("متى تبدأ الامتحانات", "التقويم الجامعي", id="ar"),
        pytest.param("Wann beginnt die Prüfungszeit", "Semestertermine", id="de"),
        pytest.param("기숙사 신청은 언제까지", "학사일정", id="ko-particle"),
        pytest.param("Sınavlar ne zaman başlıyor", "Akademik takvim", id="tr-two-words"),
    ],
)
def test_a_when_question_takes_the_calendar_s_words_as_menu_hints(query: str, label: str) -> None:
    question = Query(query)
    assert question.hinted(label)
    assert question.hit_mask(label) == 0  # a hint orders links, it is no evidence


@pytest.mark.parametrize(
    "query",
    [
        "sesja egzaminacyjna",
        "exam results",
        "考试安排",
        "試験の結果",
        "기숙사 신청",
        "students whenever possible",
    ],
)
def test_a_query_that_asks_no_when_has_no_calendar_hints(query: str) -> None:
    assert not Query(query).hinted("Academic calendar")
    assert not Query(query).hinted("Organizacja roku akademickiego")


@pytest.mark.parametrize(
    ("query", "text"),
    [
        pytest.param("student ID card validity", "Legitymacja studencka", id="en-to-pl"),
        pytest.param("学生证 补办", "Student ID card replacement", id="zh-to-en"),
        pytest.param("学生証の再発行", "学生证", id="ja-to-zh"),
    ],
)
def test_the_student_id_card_topic_bridges_languages(query: str, text: str) -> None:
    assert Query(query).hit_mask(text) != 0


def test_menu_hints_load_from_a_topics_file_and_survive_extension(tmp_path: Path) -> None:
    path = tmp_path / "lexicon.json"
    topic = {"topic": "canteen", "en": ["canteen"], "hints": {"en": ["food"], "_note": "x"}}
    path.write_text(json.dumps({"topics": [topic]}), encoding="utf-8")
    synonyms = Synonyms.load(path)
    assert synonyms.hints == ((("food", "en"),),)
    assert Query("canteen", synonyms=synonyms).hinted("Food and drink")
    extended = synonyms.extended([["mensa", "canteen"]])
    assert Query("canteen", synonyms=extended).hinted("Food and drink")
    assert not Query("canteen", synonyms=Synonyms.from_groups([["canteen"]])).hinted("Food")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"topics": [{"topic": "t", "en": ["a"], "hints": ["b"]}]}))
    with pytest.raises(ValueError, match="hints"):
        Synonyms.load(bad)


@pytest.mark.parametrize(
    ("query", "texts", "other"),
    [
        pytest.param(
            "postgraduate admission requirements",
            ["Undergraduate admission", "en admissions undergraduate"],
            True,
            id="undergraduate-page-for-a-postgraduate-question",
        ),
        pytest.param(
            "master's and PhD admission requirements",
            ["", "ar admissions undergraduate"],
            True,
            id="master-and-phd-are-one-tier",
        ),
        pytest.param(
            "undergraduate admission requirements",
            ["Graduate admissions", "Postgraduate study"],
            True,
            id="graduate-page-for-an-undergraduate-question",
        ),
        pytest.param(
            "postgraduate admission requirements",
            ["Undergraduate and postgraduate admission"],
            False,
            id="a-page-naming-both-tiers",
        ),
        pytest.param(
            "postgraduate admission requirements",
            ["Undergraduate study", "en postgraduate apply"],
            False,
            id="the-query-s-tier-in-another-text",
        ),
        pytest.param(
            "master's admission requirements",
            ["PhD admission"],
            False,
            id="phd-is-the-same-tier-as-master-s",
        ),
        pytest.param("admission requirements", ["Undergraduate admission"], False, id="no-level"),
        pytest.param(
            "undergraduate and master's admission",
            ["Undergraduate admission"],
            False,
            id="a-query-of-both-tiers",
        ),
        pytest.param("研究生 宿舍", ["本科生宿舍"], True, id="zh"),
        pytest.param(
            "التقديم على الماجستير وشروط القبول",
            ["", "ar admissions undergraduate"],
            True,
            id="ar-level-word-in-the-query",
        ),
        pytest.param(
            "вступительные испытания в магистратуру", ["Бакалавриат"], True, id="ru-level-words"
        ),
        pytest.param("becas de posgrado", ["Becas de pregrado"], True, id="es-level-words"),
    ],
)
def test_a_page_stating_another_level_of_study_is_told_apart(
    query: str, texts: list[str], other: bool
) -> None:
    assert Query(query).names_other_level(texts) is other


def test_a_level_word_tells_levels_apart_but_expands_no_term() -> None:
    # "maestría" names master's study for names_other_level, but an English
    # query for master's does not take it as a variant.
    query = Query("master's scholarships")
    assert query.hit_mask("Programa de maestría") == 0
    assert query.names_other_level(["Becas de pregrado"])
    assert not query.names_other_level(["Becas de pregrado y maestría"])


def test_levels_load_from_a_topics_file_and_survive_extension(tmp_path: Path) -> None:
    path = tmp_path / "lexicon.json"
    topics = [
        {"topic": "undergraduate", "qualifier": True, "level": "first", "en": ["bachelor"]},
        {
            "topic": "master's",
            "qualifier": True,
            "level": "second",
            "en": ["master's"],
            "level_words": {"es": ["maestría"], "_note": "x"},
        },
        {"topic": "fees", "en": ["tuition"]},
    ]
    path.write_text(json.dumps({"topics": topics}), encoding="utf-8")
    synonyms = Synonyms.load(path)
    assert synonyms.levels == ((0, "first"), (1, "second"))
    assert synonyms.level_words == ((1, "maestría", "es"),)
    assert Query("bachelor tuition", synonyms=synonyms).names_other_level(["Maestría"])
    extended = synonyms.extended([["fee", "tuition"]])
    assert Query("master's tuition", synonyms=extended).names_other_level(["Bachelor fees"])
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"topics": [{"topic": "t", "en": ["a"], "level": 2}]}))
    with pytest.raises(ValueError, match="level"):
        Synonyms.load(bad)
    bad.write_text(json.dumps({"topics": [{"topic": "t", "en": ["a"], "level_words": ["b"]}]}))
    with pytest.raises(ValueError, match="level_words"):
        Synonyms.load(bad)


def test_facets_load_from_a_topics_file_and_survive_extension(tmp_path: Path) -> None:
    path = tmp_path / "lexicon.json"
    topics = [
        {"topic": "housing", "en": ["dormitory"]},
        {"topic": "fees", "facet": True, "en": ["fee"]},
    ]
    path.write_text(json.dumps({"topics": topics}), encoding="utf-8")
    synonyms = Synonyms.load(path)
    assert synonyms.facets == (1,)
    extended = synonyms.extended([["rent"]])
    assert extended.facets == (1,)
    assert Query("dormitory fee", synonyms=extended).main_topic == (True, False)
    plain = Synonyms.from_groups([["dormitory"], ["fee"]])
    assert Query("dormitory fee", synonyms=plain).main_topic == (False, False)


def test_a_string_is_not_a_synonym_group() -> None:
    with pytest.raises(TypeError, match="list of strings"):
        Synonyms.from_groups(["dorm", "hall"])


def test_synonyms_are_immutable_and_hashable() -> None:
    with pytest.raises(AttributeError):
        DEFAULT_SYNONYMS.groups = ()  # type: ignore[misc]
    assert hash(Synonyms.from_groups([["a b", "c"]])) == hash(Synonyms.from_groups([["A  B", "C"]]))


# --- normalize_text and estimate_tokens --------------------------------------


@pytest.mark.parametrize(
    ("text", "normalized"),
    [
        pytest.param("Tuition FEES", "tuition fees", id="ascii-lower"),
        pytest.param("Ｆｅｅｓ", "fees", id="full-width"),
        pytest.param("Straße", "strasse", id="casefold"),
        pytest.param("ﬁnance", "finance", id="ligature"),
    ],
)
def test_normalize_text_is_nfkc_and_casefold(text: str, normalized: str) -> None:
    assert normalize_text(text) == normalized


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        pytest.param("", 0, id="empty"),
        pytest.param(" \n\t ", 0, id="blank"),
        pytest.param("abcd", 1, id="four-latin-chars"),
        pytest.param("Our refund policy.", 5, id="sentence"),
        pytest.param("宿舍费用", 4, id="one-per-cjk-char"),
        pytest.param("PhD 申请", 3, id="mixed"),
        pytest.param("한국어", 3, id="one-per-hangul-syllable"),
        pytest.param("ㅋㅋㅋㅋ", 4, id="one-per-hangul-jamo"),
        pytest.param("\U00020bb7" * 4, 4, id="han-beyond-the-bmp"),
    ],
)
def test_estimate_tokens(text: str, tokens: int) -> None:
    assert estimate_tokens(text) == tokens


# --- properties --------------------------------------------------------------

_QUERY = Query("international student housing fees")


@given(st.text())
def test_hit_mask_never_raises_and_stays_within_the_terms(text: str) -> None:
    mask = _QUERY.hit_mask(text)
    assert 0 <= mask < 1 << len(_QUERY)
    counts = _QUERY.term_counts(text)
    assert [bool(count) for count in counts] == [bool(mask >> i & 1) for i in range(len(_QUERY))]


@given(st.text())
def test_normalize_text_is_idempotent(text: str) -> None:
    once = normalize_text(text)
    assert normalize_text(once) == once


@given(st.text(), st.text())
def test_estimate_tokens_is_non_negative_and_grows_with_text(left: str, right: str) -> None:
    assert 0 <= estimate_tokens(left) <= estimate_tokens(left + " " + right) + 1


@given(st.text(alphabet=st.characters(categories=["L", "N", "Zs", "P"]), max_size=40))
def test_query_construction_either_succeeds_or_says_why(text: str) -> None:
    try:
        query = Query(text, synonyms=Synonyms())
    except ValueError as error:
        assert "terms" in str(error)
    else:
        assert 1 <= len(query) <= MAX_TERMS


@pytest.mark.parametrize(
    ("text", "weights"),
    [
        pytest.param("student housing", (0.3, 1.0), id="students-are-generic"),
        pytest.param("students' union fees", (0.3, 1.0, 1.0), id="possessive"),
        pytest.param("university library", (0.3, 1.0), id="university"),
        pytest.param("学生 宿舍", (0.3, 1.0), id="cjk"),
        pytest.param("refund policy", (1.0, 1.0), id="nothing-generic"),
        pytest.param("學校 宿舍", (0.3, 1.0), id="traditional-chinese"),
        # The adjective is as generic as the noun: "Mense universitarie" (the
        # canteens) is no evidence of "residenze universitarie".
        pytest.param("residenze universitarie", (1.0, 0.3), id="italian-adjective"),
        pytest.param("restaurante universitário", (1.0, 0.3), id="portuguese-adjective"),
        pytest.param("résidence universitaire", (1.0, 0.3), id="french-adjective"),
        # So is "student" as an adjective: a student ID card ("legitymacja
        # studencka") is no evidence of a place in a student house.
        pytest.param("miejsce w domu studenckim", (1.0, 1.0, 0.3), id="polish-student-adjective"),
        pytest.param("moradia estudantil", (1.0, 0.3), id="portuguese-student-adjective"),
        # Arabic glues a preposition and the article to the word: "للطلبة"
        # ("for the students", the plural "طلبة") is the generic word.
        pytest.param("سكن للطلبة", (1.0, 0.3), id="arabic-preposition-and-article"),
        pytest.param("مكتبة الطلبة", (1.0, 0.3), id="arabic-other-plural"),
    ],
)
def test_portal_generic_words_weigh_less(text: str, weights: tuple[float, ...]) -> None:
    assert Query(text).term_weights == weights


@pytest.mark.parametrize(
    ("text", "names"),
    [
        pytest.param(
            "윈도우에서 WSL로 우분투 설치하고 깃허브 SSH 키 등록하는 법",
            {"wsl", "ssh"},
            id="korean",
        ),
        pytest.param("SRT字幕 怎么下载", {"srt"}, id="chinese"),
        pytest.param("GitHub のアカウント登録", {"github"}, id="japanese-mixed-case"),
        # Lower case is as likely an everyday word: "wait", "post".
        pytest.param("세마포어 sem_wait sem_post 동작 차이", set(), id="lower-case-code"),
        # In a Latin-script query capitals also write the site's own name.
        pytest.param("intro programming CS 0007 with no coding experience", set(), id="latin"),
        pytest.param("ЕГЭ на бизнес-информатику ИТМБ", set(), id="cyrillic-capitals"),
    ],
)
def test_a_latin_name_in_a_query_in_another_script_weighs_more(text: str, names: set[str]) -> None:
    query = Query(text)
    weights = dict(zip(query.terms, query.term_weights, strict=True))
    assert {term for term, weight in weights.items() if weight == NAME_TERM_WEIGHT} == names
    assert all(
        weight in (1.0, GENERIC_TERM_WEIGHT) for t, weight in weights.items() if t not in names
    )


def test_a_link_that_names_a_latin_name_of_the_query_is_a_lead() -> None:
    query = Query("윈도우에서 WSL로 우분투 설치하고 깃허브 SSH 키 등록하는 법")
    link = Link(
        "https://os.test/week03/wsl-setup.html", text="WSL에서 Ubuntu 환경구축 및 GitHub 설정하기"
    )
    # One word of nine, but the most specific one: 2 / 11 of the weight.
    assert not score_link(link, query, weights=query.term_weights).blind


def test_a_lone_character_left_by_the_segmenter_weighs_as_generic_and_punctuation_is_no_term() -> (
    None
):
    query = Query("学校の住所・電話番号と行き方")
    assert "・" not in query.terms
    weights = dict(zip(query.terms, query.term_weights, strict=True))
    assert weights["方"] == 0.3 and weights["住所"] == 1.0
    # A page that only holds the lone character is not about the query.
    assert relevance(query, markdown="この方法で申し込んでください。" * 5) == 0.0
    # A one-character lexicon entry keeps its weight.
    assert Query("寮").term_weights == (1.0,)


def test_scan_finds_each_terms_hits_per_block_in_one_pass() -> None:
    query = Query("student housing fees")
    text = "# Housing\n\nOur [halls](/housing/x) cost fees.\n\n\n\nNothing here.\n\n  Student housing  "
    hits = query.scan(text)
    assert hits.blocks == (
        "# Housing",
        "Our [halls](/housing/x) cost fees.",
        "Nothing here.",
        "Student housing",
    )
    assert hits.masks == (0b010, 0b110, 0, 0b011)
    assert hits.counts == tuple(query.term_counts(text))
    assert hits.mask == 0b111
    # ``clean`` runs on each block before matching; the blocks stay as given.
    cleaned = query.scan(text, clean=lambda block: block.replace("(/housing/x)", ""))
    assert cleaned.blocks == hits.blocks
    assert cleaned.masks[1] == 0b100 and cleaned.counts == (1, 2, 1)
    assert query.scan("").blocks == () and query.scan("").mask == 0


def test_topical_terms_are_the_ones_that_reach_a_topic() -> None:
    # "transport" is a menu hint that takes its topic's words; "discounts" and
    # "Karlsruhe" reach no topic: they qualify what is asked.
    assert Query("transport discounts").topical == (True, False)
    assert Query("Wohnheim in Karlsruhe").topical == (True, False)
    assert Query("rowing regatta").topical == (False, False)
    # A word that reaches a topic only in a phrase of the lexicon names it when
    # no word names it alone: "iznosi" (amounts to) beside "školarina".
    query = Query("koliko iznosi školarina")
    assert query.terms == ("iznosi", "školarina") and query.topical == (False, True)
    assert Query("opening hours").topical == (True, True)


def test_qualifier_terms_are_the_specific_terms_of_no_topic() -> None:
    assert Query("Wohnheim in Karlsruhe").qualifier_terms == (1,)
    assert Query("rowing regatta").qualifier_terms == (0, 1)
    # A generic portal word is no qualifier: it is not specific.
    query = Query("student housing in Gent")
    assert query.terms == ("student", "housing", "gent")
    assert query.qualifier_terms == (2,)
    # The other specific terms name a topic.
    assert query.topic_terms == (1,)
    assert Query("Wohnheim in Karlsruhe").topic_terms == (0,)
    assert Query("rowing regatta").topic_terms == ()


def test_the_main_topic_is_the_one_the_most_query_words_name() -> None:
    query = Query("dorm rooms: how many roommates, private bathroom, housing fee")
    assert query.terms == ("dorm", "rooms", "roommates", "private", "bathroom", "housing", "fee")
    # Two words name housing, one names fees: the question is about housing.
    assert query.main_topic == (True, False, False, False, False, True, False)
    assert Query("tuition fees and dormitory costs").main_topic == (True, True, False, True)
    # No topic stands out: two that tie, or a single one (``topical`` says it all).
    assert Query("fees and deadlines").main_topic == (False, False)
    assert Query("Wohnheim in Karlsruhe").main_topic == (False, False)
    # A facet (fees, applying, opening hours) of another topic asks about that
    # topic, unless more words name the facet.
    assert Query("housing fees").main_topic == (True, False)
    assert Query("pendaftaran asrama").main_topic == (False, True)  # dormitory registration
    assert Query("how to apply for a social scholarship").main_topic == (False, False, True)
    # A generic word is no topic to give way to: "students" is not asked about.
    assert Query("admission for international students").main_topic == (True, False, False)
    # A word that reaches a topic only as part of a phrase adds nothing: the
    # phrase names its topic once ("opening hours" against "canteens").
    canteens = Query("canteens on campus: where, opening hours, prices")
    assert canteens.terms == ("canteens", "campus", "opening", "hours", "prices")
    assert canteens.topical[2:4] == (True, True)
    assert canteens.main_topic == (True, False, False, False, False)


def test_a_level_of_study_or_an_audience_qualifies_the_topic_beside_it() -> None:
    # Topics marked "qualifier" in the lexicon name whom a question is about.
    assert Query("undergraduate tuition fees").topical == (False, True, True)
    assert Query("本科 学费").topical == (False, True)
    assert Query("visa for international students").topical[0] is True
    assert Query("visa for international students").topical[1] is False
    assert qualifiers_of(Query("visa for international students")) == 0b010
    # Alone, they are the topic: no term of the query qualifies another.
    assert qualifiers_of(Query("undergraduate")) == 0
    assert qualifiers_of(Query("international students")) == 0


# --- diacritics: typed or not, in the text or in a URL ----------------------


@pytest.mark.parametrize(
    ("query", "text"),
    [
        ("calendário acadêmico", "calendario-academico"),  # a URL's words
        ("calendário acadêmico", "Calendario academico 2026"),
        ("calendario academico", "Calendário Acadêmico da Graduação"),  # typed without
        ("władze wydziału", "wladze_wydzialu"),  # "ł" does not decompose
        ("ký túc xá", "ky tuc xa"),
        ("общежитие", "общежитие"),
    ],
)
def test_a_term_matches_with_or_without_its_diacritics(query: str, text: str) -> None:
    q = Query(query)
    assert q.hit_mask(text) == (1 << len(q)) - 1


def test_stems_are_taken_from_the_marked_word() -> None:
    # Snowball reads the marks: "alimentação" stems to "aliment", which
    # "alimentações" starts with; the unmarked "alimentacao" would not.
    assert Query("alimentação").hit_mask("auxílio para alimentações") == 1


def test_a_stop_word_typed_without_its_diacritics_is_still_a_stop_word() -> None:
    assert Query("jak polaczyc sie z wifi").terms == ("polaczyc", "wifi")
    assert Query("jak połączyć się z wifi").terms == ("połączyć", "wifi")


def test_other_scripts_keep_their_marks() -> None:
    # Japanese voicing marks and Arabic letters are not diacritics to drop.
    assert Query("ガイダンス").hit_mask("新入生ガイダンス") == 1
    assert Query("ガイダンス").hit_mask("カイタンス") == 0
    assert Query("السكن").hit_mask("السكن الجامعي") == 1


def test_sports_facilities_are_one_topic_across_languages_and_sport_is_its_menu_hint() -> None:
    gym = Query("gym and sports center opening hours")
    for text in ("体育场馆", "Sportzentrum der Universität", "palestra di ateneo", "siłownia"):
        assert gym.hit_mask(text) & 1, text
    # "Sport" or "exercise" names the section over the gym, but is no evidence
    # of it: a sports scholarship page says nothing of the gym's hours.
    assert gym.hinted("Exercising at the university") and gym.hinted("体育")
    assert gym.hit_mask("Sports scholarships") & 1 == 0


def test_a_member_tagged_with_several_languages_is_found_in_each(tmp_path: Path) -> None:
    # "телефон" is written alike in Russian and Ukrainian; a topic lists it
    # under both. A Russian query's inflected form ("телефона") finds it by
    # its Russian stem, whichever of the two languages the file names last.
    for order in (("ru", "uk"), ("uk", "ru")):
        path = tmp_path / "lexicon.json"
        topic = {"topic": "contact", "en": ["phone"]} | {lang: ["телефон"] for lang in order}
        path.write_text(json.dumps({"topics": [topic]}), encoding="utf-8")
        synonyms = Synonyms.load(path)
        assert synonyms.groups_of("телефона", "ru") == (0,), order
        assert "phone" in synonyms.variants("телефона", "ru")
