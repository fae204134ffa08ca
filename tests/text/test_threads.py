"""Text processing from several threads at once: a crawl parses its query in
a worker thread while other crawls of the same process match pages."""

from __future__ import annotations

import random
import threading
from concurrent.futures import ThreadPoolExecutor

from pw_adaptive.core.query import Query
from pw_adaptive.text.languages import stemmer

QUERIES = (
    "international student housing and dormitory fees",
    "frais de scolarité et bourses pour étudiants étrangers",
    "Kosten für das Studentenwohnheim und Anmeldung zur Prüfung",
    "becas y ayudas para estudiantes de posgrado",
    "общежитие для иностранных студентов и стоимость проживания",
    "الرسوم الدراسية والسكن الجامعي",
    "tenttiin ilmoittautuminen ja tenttitulokset",
    "留学生宿舍费用和申请流程",
    "기숙사 신청 방법이랑 기숙사비 알려주세요",
    "과제랑 기말 프로젝트 비율이 어떻게 되나요",
)


def test_a_stemmer_shared_by_threads_stems_every_word_as_alone() -> None:
    rng = random.Random(7)
    words = [
        "".join(rng.choices("abcdefghilmnoprstu", k=rng.randint(6, 14))) + "ations"
        for _ in range(3000)
    ]
    stem = stemmer("en")
    assert stem is not None
    alone = {word: stem(word) for word in words}
    stem.cache_clear()  # type: ignore[attr-defined]
    wrong: list[str] = []

    def work(chunk: list[str]) -> None:
        for word in chunk:
            if stem(word) != alone[word]:
                wrong.append(word)

    threads = [threading.Thread(target=work, args=(words[i::8],)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert wrong == []


def test_queries_parsed_in_threads_at_once_are_parsed_as_alone() -> None:
    alone = [Query(text).terms for text in QUERIES]
    for _ in range(5):
        # Stemmed words are cached: without clearing, the threads would only
        # read the cache that the parses above filled.
        for lang in ("en", "fr", "de", "es", "ru", "fi", "ar"):
            stem = stemmer(lang)
            if stem is not None:
                stem.cache_clear()  # type: ignore[attr-defined]
        with ThreadPoolExecutor(max_workers=8) as pool:
            at_once = list(pool.map(lambda text: Query(text).terms, QUERIES * 4))
        assert at_once == alone * 4
