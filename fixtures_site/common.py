"""Building blocks shared by the fixture portals: responses, HTML pages, PDFs.

A portal is a module in ``fixtures_site/portals/`` that defines ``PORTAL``, a
:class:`Portal`. The server calls ``PORTAL.handle(request)`` for every request
and sends back the :class:`Response`. Each portal also ships ``truth.json``
beside its module (``portals/<name>.truth.json``) with its labelled tasks.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

PORTALS_DIR = Path(__file__).parent / "portals"


@dataclass(frozen=True)
class Request:
    """One HTTP request as a portal sees it."""

    method: str
    path: str  # percent-decoded path, e.g. "/zh/住宿"
    raw_path: str  # path as sent, percent-encoded
    query: str  # raw query string without "?"
    headers: Mapping[str, str]

    @property
    def params(self) -> dict[str, list[str]]:
        return parse_qs(self.query, keep_blank_values=True)


@dataclass(frozen=True)
class Response:
    status: int = 200
    body: bytes = b""
    content_type: str = "text/html; charset=utf-8"
    headers: Mapping[str, str] = field(default_factory=dict)
    delay_s: float = 0.0  # the server sleeps this long before answering


@dataclass(frozen=True)
class Portal:
    """A fixture portal: a name, a handler and its ground truth file."""

    name: str
    handle: Callable[[Request], Response]
    description: str = ""
    fault_injection: bool = False
    """A portal of injected faults for failure-handling tests: no ground-truth
    tasks, served only when named (``serve_portals(["faults"])``)."""

    @property
    def truth_path(self) -> Path:
        return PORTALS_DIR / f"{self.name}.truth.json"

    def truth(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.truth_path.read_text(encoding="utf-8"))
        return data


def html(body: str, status: int = 200, **headers: str) -> Response:
    return Response(status=status, body=body.encode("utf-8"), headers=headers)


def text(body: str, content_type: str = "text/plain; charset=utf-8", status: int = 200) -> Response:
    return Response(status=status, body=body.encode("utf-8"), content_type=content_type)


def json_response(data: Any, status: int = 200, delay_s: float = 0.0) -> Response:
    return Response(
        status=status,
        body=json.dumps(data, ensure_ascii=False).encode("utf-8"),
        content_type="application/json; charset=utf-8",
        delay_s=delay_s,
    )


def redirect(location: str, status: int = 302) -> Response:
    return Response(status=status, body=b"", headers={"Location": location})


def not_found(message: str = "Not found") -> Response:
    return html(f"<!doctype html><title>404</title><h1>{message}</h1>", status=404)


def pdf_document(title: str, lines: list[str]) -> bytes:
    """A small, valid PDF (one page per ~40 lines) whose text extracts cleanly.

    Written by hand so the fixtures need no PDF library; Latin-1 text only
    (the standard Helvetica font has no CJK glyphs).
    """

    def esc(s: str) -> str:
        s = s.encode("latin-1", "replace").decode("latin-1")
        return s.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")

    all_lines = [title, "", *lines]
    pages = [all_lines[i : i + 40] for i in range(0, len(all_lines), 40)] or [[title]]
    objects: list[bytes] = []
    # 1: catalog, 2: pages, 3: font, then per page: page object + content stream
    kids = []
    page_objs: list[bytes] = []
    for n, page_lines in enumerate(pages):
        page_id = 4 + 2 * n
        content_id = page_id + 1
        kids.append(f"{page_id} 0 R")
        ops = ["BT", "/F1 12 Tf", "14 TL", "50 780 Td"]
        for line in page_lines:
            ops.append(f"({esc(line)}) Tj T*")
        ops.append("ET")
        stream = zlib.compress("\n".join(ops).encode("latin-1"))
        page_objs.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] "
            f"/Resources << /Font << /F1 3 0 R >> >> /Contents {content_id} 0 R >>".encode()
        )
        page_objs.append(
            f"<< /Length {len(stream)} /Filter /FlateDecode >>\nstream\n".encode()
            + stream
            + b"\nendstream"
        )
    objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    objects.append(f"<< /Type /Pages /Kids [{' '.join(kids)}] /Count {len(pages)} >>".encode())
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    objects.extend(page_objs)
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, obj in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n".encode() + obj + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for off in offsets:
        out += f"{off:010d} 00000 n \n".encode()
    out += (
        f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    )
    return bytes(out)


def pdf_response(title: str, lines: list[str]) -> Response:
    return Response(body=pdf_document(title, lines), content_type="application/pdf")
