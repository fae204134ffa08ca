"""Text of attachments linked from relevant pages (PDF through PDFium).

PDFium (Chromium's own PDF engine, bound by ``pypdfium2``) reads a PDF's text
in native code: on the real corpus's 490 course PDFs it took 10 s of CPU
where the pure-Python ``pypdf`` took 140 s, and gave as much text (its output
also keeps a slide's title once where pypdf repeated it). PDFium is not
thread-safe, even across documents, so every call into it holds one
process-wide lock; its native calls release the GIL, so a document being read
in a worker thread no longer starves the event loop that serves the pages
being rendered.
"""

from __future__ import annotations

import re
import threading

MAX_PDF_PAGES = 50
"""Pages of a PDF whose text is extracted: fee schedules and handbooks put
what matters first; a 600-page prospectus would cost seconds of CPU."""

_PDFIUM_LOCK = threading.Lock()
"""PDFium may not be entered by two threads at once (not even for two
documents): the crawls of a batch job share the process, and each crawl reads
its documents in worker threads."""


def extract_text(kind: str, data: bytes) -> str:
    """Plain text of a document; ``ValueError`` when it cannot be read.

    Only PDF has an extractor; other kinds return "" (recorded, not read).
    """
    if kind != "pdf":
        return ""
    import pypdfium2 as pdfium

    parts: list[str] = []
    with _PDFIUM_LOCK:
        try:
            document = pdfium.PdfDocument(data)
            try:
                for index in range(min(len(document), MAX_PDF_PAGES)):
                    textpage = document[index].get_textpage()
                    parts.append(textpage.get_text_range())
            finally:
                # Closing the document closes its pages and text pages too,
                # here, under the lock (not later, by the garbage collector
                # of whatever thread runs it).
                document.close()
        except Exception as exc:
            # Any document from the web may fail in any way (a broken or
            # truncated file, an encrypted one without its password): a page's
            # attachment must never end the crawl.
            raise ValueError(f"unreadable PDF: {type(exc).__name__}: {exc}") from exc
    return "\n".join(text for part in parts if (text := _clean(part)))


def _clean(text: str) -> str:
    """PDFium's text of one page, as plain text: its CRLF line ends become
    newlines, and what stands for no character goes: control characters
    (glyphs of fonts without a Unicode map come out as U+0001-U+001F, a soft
    hyphen as U+0002 or U+FFFE) and the private-use code points of symbol
    fonts (a slide's Wingdings bullets)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return _NO_CHARACTER.sub("", text).strip()


_NO_CHARACTER = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ue000-\uf8ff\ufffe]")
