from __future__ import annotations

import asyncio
import itertools
import time
from typing import Any

import pytest

from fixtures_site.common import pdf_document
from pw_adaptive import AdaptiveCrawler, CrawlSettings
from pw_adaptive.crawling.attachments import extract_text
from pw_adaptive.pages import Attachment, FetchResult
from pw_adaptive.testing import FakeRenderer, make_page

SITE = "http://portal.test"


def test_pdf_text_is_extracted() -> None:
    data = pdf_document("Fees 2026/27", ["Tuition: 9,250 GBP per year", "Deposit (refundable)"])
    text = extract_text("pdf", data)
    assert "Tuition: 9,250 GBP per year" in text and "Deposit (refundable)" in text


def test_a_broken_pdf_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="unreadable PDF"):
        extract_text("pdf", b"%PDF-1.4 this is not a pdf")


def test_kinds_without_an_extractor_give_no_text() -> None:
    assert extract_text("docx", b"PK\x03\x04") == ""


def test_a_pdf_the_parser_cannot_read_for_any_reason_is_a_value_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import pypdfium2

    def refuse(*args: object, **kwargs: object) -> None:
        raise pypdfium2.PdfiumError("Failed to load document (PDFium: Incorrect password error).")

    monkeypatch.setattr(pypdfium2, "PdfDocument", refuse)
    with pytest.raises(ValueError, match="PdfiumError"):
        extract_text("pdf", b"%PDF-1.7 encrypted")


def test_only_the_first_pages_of_a_long_pdf_are_read(monkeypatch: pytest.MonkeyPatch) -> None:
    from pw_adaptive.crawling import attachments

    monkeypatch.setattr(attachments, "MAX_PDF_PAGES", 2)
    # pdf_document puts 40 lines on a page, the title and a blank line first:
    # three pages, each with its own marker line.
    lines = [f"line {i}" for i in range(110)]
    lines[0], lines[40], lines[100] = "first page", "second page", "third page"
    text = extract_text("pdf", pdf_document("Prospectus", lines))
    assert "first page" in text and "second page" in text and "third page" not in text


def test_marks_that_stand_for_no_character_are_dropped() -> None:
    from pw_adaptive.crawling.attachments import _clean

    raw = "Analysis Procedure\r\n\uf0abTruth table\x01\x0b\r\nex\ufffeample\tcol"
    assert _clean(raw) == "Analysis Procedure\nTruth table\nexample\tcol"


def test_pdfs_read_from_many_threads_at_once_give_each_its_own_text() -> None:
    # PDFium may not be entered by two threads at once: the extractor's lock
    # keeps documents read in parallel (a batch job's crawls) apart.
    from concurrent.futures import ThreadPoolExecutor

    docs = [pdf_document(f"Doc {i}", [f"Fee schedule number {i}"]) for i in range(16)]
    with ThreadPoolExecutor(max_workers=8) as pool:
        texts = list(pool.map(lambda data: extract_text("pdf", data), docs * 4))
    for i, text in enumerate(texts):
        assert f"Fee schedule number {i % 16}" in text


def _course_page(url: str) -> Any:
    """A page about fees that links three PDFs."""
    docs = [Attachment(f"{SITE}/fees-{i}.pdf", text=f"Fees {i}", kind="pdf") for i in range(3)]
    return make_page(url, title="Fees", markdown="Tuition fees for 2026.", attachments=docs)


class _PdfServer:
    """Serves each PDF after a short wait; notes when each request starts."""

    def __init__(self) -> None:
        self.log: list[str] = []
        self.in_flight = self.most_in_flight = 0

    async def fetch(self, url: str, *, max_bytes: int) -> FetchResult:
        self.log.append(f"get {url.rsplit('/', 1)[1]}")
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        await asyncio.sleep(0.01)
        self.in_flight -= 1
        name = url.rsplit("/", 1)[1]
        return FetchResult(url, 200, "application/pdf", pdf_document(name, [f"Text of {name}"]))


def test_the_next_document_is_requested_while_the_last_one_is_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from pw_adaptive.crawling import loop

    server = _PdfServer()

    def slow_read(kind: str, data: bytes) -> str:
        text = extract_text(kind, data)
        name = text.split()[0]
        server.log.append(f"read {name}")
        time.sleep(0.05)  # longer than a request: the next request starts meanwhile
        server.log.append(f"done {name}")
        return text

    monkeypatch.setattr(loop, "extract_text", slow_read)
    settings = CrawlSettings(
        respect_robots=False, probe_soft_404=False, use_sitemaps=False, max_pages=1
    )
    crawler = AdaptiveCrawler(settings, renderer=FakeRenderer(_course_page), fetcher=server)
    result = asyncio.run(crawler.run(SITE + "/", "tuition fees"))
    # The records keep the page's order, each with its own text.
    assert [a.url.rsplit("/", 1)[1] for a in result.attachments] == [
        "fees-0.pdf",
        "fees-1.pdf",
        "fees-2.pdf",
    ]
    assert [a.content.split()[-1] for a in result.attachments] == [
        "fees-0.pdf",
        "fees-1.pdf",
        "fees-2.pdf",
    ]
    # One request at a time, the next one before the last document is read.
    log = server.log
    assert log.index("get fees-1.pdf") < log.index("done fees-0.pdf")
    assert log.index("get fees-2.pdf") < log.index("done fees-1.pdf")
    assert server.most_in_flight == 1


class _PoliteServer:
    """A site with a robots.txt; notes when each request arrives."""

    def __init__(self, robots: str) -> None:
        self.robots = robots
        self.asked: list[tuple[str, float]] = []

    async def fetch(self, url: str, *, max_bytes: int) -> FetchResult:
        path = url.removeprefix(SITE)
        if path == "/robots.txt":
            return FetchResult(url, 200, "text/plain", self.robots.encode())
        self.asked.append((path, time.monotonic()))
        return FetchResult(url, 200, "application/pdf", pdf_document(path, [f"Text of {path}"]))


def _documents_page(url: str) -> Any:
    docs = [
        Attachment(f"{SITE}/files/fees.pdf", text="Fees", kind="pdf"),
        Attachment(f"{SITE}/private/minutes.pdf", text="Minutes", kind="pdf"),
        Attachment(f"{SITE}/files/rooms.pdf", text="Rooms", kind="pdf"),
    ]
    return make_page(url, title="Fees", markdown="Tuition fees for 2026.", attachments=docs)


def test_a_document_robots_txt_disallows_is_recorded_not_requested() -> None:
    server = _PoliteServer("User-agent: *\nDisallow: /private/\n")
    settings = CrawlSettings(probe_soft_404=False, use_sitemaps=False, max_pages=1)
    crawler = AdaptiveCrawler(settings, renderer=FakeRenderer(_documents_page), fetcher=server)
    result = asyncio.run(crawler.run(SITE + "/", "tuition fees"))
    assert [path for path, _ in server.asked] == ["/files/fees.pdf", "/files/rooms.pdf"]
    records = {a.url.removeprefix(SITE): a for a in result.attachments}
    assert list(records) == ["/files/fees.pdf", "/private/minutes.pdf", "/files/rooms.pdf"]
    assert records["/private/minutes.pdf"].error == "robots"
    assert records["/private/minutes.pdf"].content == ""
    assert "Text of /files/rooms.pdf" in records["/files/rooms.pdf"].content
    assert "attachment" not in result.failures  # a refusal is no failure


def test_documents_wait_for_the_host_s_crawl_delay() -> None:
    server = _PoliteServer("User-agent: *\nCrawl-delay: 0.2\n")
    renderer = FakeRenderer(_documents_page)
    settings = CrawlSettings(
        probe_soft_404=False, use_sitemaps=False, max_pages=1, adaptive_stop=False
    )
    crawler = AdaptiveCrawler(settings, renderer=renderer, fetcher=server)
    asyncio.run(crawler.run(SITE + "/", "tuition fees"))
    times = [at for _, at in server.asked]
    assert len(times) == 3
    gaps = [later - earlier for earlier, later in itertools.pairwise(times)]
    assert all(gap >= 0.19 for gap in gaps), gaps


def test_pdfium_is_entered_only_under_the_lock(monkeypatch: pytest.MonkeyPatch) -> None:
    import pypdfium2

    from pw_adaptive.crawling import attachments

    real = pypdfium2.PdfDocument
    held: list[bool] = []

    def checked(data: bytes) -> Any:
        held.append(attachments._PDFIUM_LOCK.locked())
        return real(data)

    monkeypatch.setattr(pypdfium2, "PdfDocument", checked)
    assert "Tuition" in extract_text("pdf", pdf_document("Fees", ["Tuition: 9,250 GBP"]))
    assert held == [True]
    assert not attachments._PDFIUM_LOCK.locked()


def _archive_page(url: str, title: str) -> Any:
    names = ["Minutes 2024", "Tuition fees 2026/27", "Room plan", "Fee waiver form", "Campus map"]
    docs = [
        Attachment(f"{SITE}/files/doc-{i}.pdf", text=name, kind="pdf")
        for i, name in enumerate(names)
    ]
    markdown = f"{title} for 2026, in detail."
    return make_page(url, title=title, markdown=markdown, attachments=docs)


def _crawl_archive(query: str, limit: int) -> tuple[_PoliteServer, Any]:
    """A one-page crawl of a page titled ``query`` that links five documents."""
    server = _PoliteServer("")
    settings = CrawlSettings(
        probe_soft_404=False, use_sitemaps=False, max_pages=1, max_attachments_per_page=limit
    )
    renderer = FakeRenderer(lambda url: _archive_page(url, query.capitalize()))
    crawler = AdaptiveCrawler(settings, renderer=renderer, fetcher=server)
    return server, asyncio.run(crawler.run(SITE + "/", query))


def test_beyond_the_page_limit_the_documents_that_name_the_query_are_read() -> None:
    server, result = _crawl_archive("tuition fees", limit=2)
    # "Tuition fees 2026/27" and "Fee waiver form" name the query; the rest do not.
    assert [path for path, _ in server.asked] == ["/files/doc-1.pdf", "/files/doc-3.pdf"]
    # Every document is recorded, in the page's order; the others say why they were not read.
    records = [(a.url.removeprefix(SITE), a.error) for a in result.attachments]
    assert records == [
        ("/files/doc-0.pdf", "page_limit"),
        ("/files/doc-1.pdf", None),
        ("/files/doc-2.pdf", "page_limit"),
        ("/files/doc-3.pdf", None),
        ("/files/doc-4.pdf", "page_limit"),
    ]
    assert "Text of /files/doc-3.pdf" in result.attachments[3].content
    assert "attachment" not in result.failures  # not requested: no failure


def test_documents_that_name_nothing_of_the_query_are_read_in_the_page_s_order() -> None:
    server, result = _crawl_archive("campus map and parking", limit=2)
    # "Campus map", the page's last document, names the query; then the first one.
    assert [path for path, _ in server.asked] == ["/files/doc-0.pdf", "/files/doc-4.pdf"]
    assert [a.error for a in result.attachments].count("page_limit") == 3


def test_a_page_limit_of_zero_reads_no_document() -> None:
    server, result = _crawl_archive("tuition fees", limit=0)
    assert server.asked == []
    assert [a.error for a in result.attachments] == ["page_limit"] * 5


def test_the_page_limit_cannot_be_negative() -> None:
    with pytest.raises(ValueError, match="max_attachments_per_page"):
        CrawlSettings(max_attachments_per_page=-1)
