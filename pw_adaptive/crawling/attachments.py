"""Text of attachments linked from relevant pages (PDF through pypdf)."""

from __future__ import annotations

import io
import logging

MAX_PDF_PAGES = 50
"""Pages of a PDF whose text is extracted: fee schedules and handbooks put
what matters first; a 600-page prospectus would cost seconds of CPU."""


def extract_text(kind: str, data: bytes) -> str:
    """Plain text of a document; ``ValueError`` when it cannot be read.

    Only PDF has an extractor; other kinds return "" (recorded, not read).
    """
    if kind != "pdf":
        return ""
    from pypdf import PdfReader

    logging.getLogger("pypdf").setLevel(logging.ERROR)
    try:
        reader = PdfReader(io.BytesIO(data))
        parts = [page.extract_text() or "" for page in reader.pages[:MAX_PDF_PAGES]]
    except Exception as exc:
        # Any document from the web may break the parser in any way (an
        # AES-encrypted PDF raises DependencyError without ``cryptography``,
        # a malformed one KeyError or RecursionError): a page's attachment
        # must never end the crawl.
        raise ValueError(f"unreadable PDF: {type(exc).__name__}: {exc}") from exc
    return "\n".join(p.strip() for p in parts if p.strip())
