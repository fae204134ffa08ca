from __future__ import annotations

import pytest

from fixtures_site.common import pdf_document
from pw_adaptive.crawling.attachments import extract_text


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
