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
    import pypdf
    from pypdf.errors import DependencyError

    def refuse(*args: object, **kwargs: object) -> None:
        raise DependencyError("cryptography>=3.1 is required for AES algorithm")

    monkeypatch.setattr(pypdf, "PdfReader", refuse)
    with pytest.raises(ValueError, match="DependencyError"):
        extract_text("pdf", b"%PDF-1.7 encrypted")
