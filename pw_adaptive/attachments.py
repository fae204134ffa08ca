"""Text of attachments linked from relevant pages (PDF through pypdf)."""

from __future__ import annotations

import io
import logging
from urllib.parse import urlsplit

ATTACHMENT_KINDS = {
    ".pdf": "pdf",
    ".doc": "doc",
    ".docx": "docx",
    ".xls": "xls",
    ".xlsx": "xlsx",
    ".ppt": "ppt",
    ".pptx": "pptx",
    ".odt": "odt",
    ".ods": "ods",
    ".rtf": "rtf",
}

MAX_PDF_PAGES = 50
"""Pages of a PDF whose text is extracted: fee schedules and handbooks put
what matters first; a 600-page prospectus would cost seconds of CPU."""


def attachment_kind(url: str, content_type: str = "") -> str | None:
    """The attachment kind of a URL by its extension or content type, else None."""
    path = urlsplit(url).path.lower()
    for ext, kind in ATTACHMENT_KINDS.items():
        if path.endswith(ext):
            return kind
    ctype = content_type.split(";")[0].strip().lower()
    if ctype == "application/pdf":
        return "pdf"
    if "wordprocessingml" in ctype or ctype == "application/msword":
        return "docx" if "openxml" in ctype else "doc"
    if "spreadsheetml" in ctype or ctype == "application/vnd.ms-excel":
        return "xlsx" if "openxml" in ctype else "xls"
    return None


def extract_text(kind: str, data: bytes) -> str:
    """Plain text of a document; ``ValueError`` when it cannot be read.

    Only PDF has an extractor; other kinds return "" (recorded, not read).
    """
    if kind != "pdf":
        return ""
    from pypdf import PdfReader
    from pypdf.errors import PyPdfError

    logging.getLogger("pypdf").setLevel(logging.ERROR)
    try:
        reader = PdfReader(io.BytesIO(data))
        parts = [page.extract_text() or "" for page in reader.pages[:MAX_PDF_PAGES]]
    except (PyPdfError, ValueError, KeyError, TypeError, OSError) as exc:
        raise ValueError(f"unreadable PDF: {exc}") from exc
    return "\n".join(p.strip() for p in parts if p.strip())
