"""Helpers shared by the ``webcomponents``, ``chinese`` and ``traps`` portals.

Kept apart from ``fixtures_site.common`` so each portal module stays about its
own site: escaping, deterministic tokens and path-parameter handling.
"""

from __future__ import annotations

import hashlib
from html import escape

BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def esc(value: str) -> str:
    """HTML-escape text and attribute values."""
    return escape(value, quote=True)


def paras(texts: list[str]) -> str:
    """Paragraphs from a list of plain strings."""
    return "".join(f"<p>{esc(t)}</p>" for t in texts)


def digest(seed: str) -> bytes:
    return hashlib.sha256(seed.encode("utf-8")).digest()


def hex32(seed: str) -> str:
    """A 32-hex-digit token derived from ``seed`` (looks like a session id)."""
    return hashlib.md5(seed.encode("utf-8")).hexdigest()


def base62_token(seed: str, length: int = 22) -> str:
    """A random-looking, non-hex token derived from ``seed``.

    The first character is always a letter beyond 'f' so the token can never be
    mistaken for hex, whatever the digest.
    """
    raw = digest(seed)
    chars = [BASE62[b % 62] for b in raw[: length - 1]]
    return "Q" + "".join(chars)


def split_path_params(path: str) -> tuple[str, dict[str, str]]:
    """Drop ``;name=value`` path parameters from every segment.

    ``/about/;jsessionid=AB12`` → (``/about/``, {"jsessionid": "AB12"}).
    """
    params: dict[str, str] = {}
    segments = []
    for segment in path.split("/"):
        name, *rest = segment.split(";")
        for item in rest:
            key, _, value = item.partition("=")
            params[key.lower()] = value
        segments.append(name)
    return "/".join(segments), params
