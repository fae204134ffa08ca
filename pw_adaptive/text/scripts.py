"""Which writing system a character belongs to, as regex character classes.

Comparisons work on words, and a word is a run of letters, digits and
*combining marks*: Python's ``\\w`` leaves marks out, which cuts Devanagari
"छात्रावास" and Thai "ค่าเล่าเรียน" at every vowel sign. The mark class is
built once from ``unicodedata`` (categories Mn, Mc, Me) rather than typed in.

Scripts written without spaces between words (Han, kana, Thai and its
neighbours) have no word boundaries in the text: terms in them match as
substrings, and a run of them ends a word of a spaced script ("申请PhD项目").
Hangul is a spaced script (Korean puts spaces between words), but a word
carries its particles at its end ("기숙사를"), so a Korean term matches the
start of a word.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

__all__ = [
    "ARABIC",
    "CJK",
    "CYRILLIC",
    "DEVANAGARI",
    "HAN",
    "HANGUL",
    "HEBREW",
    "KANA",
    "MARKS",
    "SCRIPT_LANGUAGE",
    "SCRIPT_PATTERNS",
    "THAI",
    "UNSPACED",
    "WORD",
    "WORD_END",
    "WORD_RUN",
    "WORD_START",
    "is_unspaced",
    "script_of",
]


def _mark_ranges(skip: str = "") -> str:
    """Regex class body of every combining mark (general category M*), but
    those matched by the class body ``skip``."""
    ranges: list[tuple[int, int]] = []
    skipped = re.compile(f"[{skip}]") if skip else None
    # Marks outside the first two planes are rare scripts we never compare.
    for code in range(0x0300, min(sys.maxunicode, 0x1FFFF) + 1):
        char = chr(code)
        if unicodedata.category(char).startswith("M") and not (
            skipped is not None and skipped.match(char)
        ):
            if ranges and ranges[-1][1] == code - 1:
                ranges[-1] = (ranges[-1][0], code)
            else:
                ranges.append((code, code))
    return "".join(
        re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}"
        for a, b in ranges
    )


MARKS: Final = _mark_ranges()
"""Class body (no brackets) of the combining marks."""

# Unicode blocks (the Unicode Standard's Blocks.txt).
HAN: Final = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002fa1f"
KANA: Final = "\u3040-\u30ff\u31f0-\u31ff"
THAI: Final = "\u0e00-\u0e7f"
_OTHER_UNSPACED: Final = "\u0e80-\u0eff\u1000-\u109f\u1780-\u17ff"  # Lao, Myanmar, Khmer
HANGUL: Final = "\uac00-\ud7af\u1100-\u11ff\u3130-\u318f"
ARABIC: Final = "\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff"
DEVANAGARI: Final = "\u0900-\u097f"
CYRILLIC: Final = "\u0400-\u04ff"
HEBREW: Final = "\u0590-\u05ff\ufb1d-\ufb4f"

UNSPACED: Final = HAN + KANA + THAI + _OTHER_UNSPACED
"""Class body of the scripts written without spaces between words."""

CJK: Final = HAN + KANA + HANGUL
"""Class body of the CJK scripts (Han, kana, Hangul), whose characters are
counted one by one: about one LLM token each, and a token of their own when
texts are compared as token multisets or shingles (dedup, extraction)."""

_SPACED_MARKS: Final = _mark_ranges(skip=UNSPACED)

WORD: Final = f"(?:[^\\W_{UNSPACED}]|[{_SPACED_MARKS}])"
"""One character of a word of a spaced script: a letter, digit or mark that is
not of an unspaced script. Fixed width, so it works in lookbehinds."""

# Marks that can follow a letter in folded text: NFKC composes Latin, Greek
# and Cyrillic accents, and fold() drops Arabic harakat, so what remains are
# the stray combining diacritics and the vowel signs of the Indic scripts
# (Devanagari to Sinhala, whose blocks hold their marks). A small class keeps
# the boundary assertions cheap to compile: every term compiles several.
_BOUNDARY_MARKS: Final = "\u0300-\u036f\u0900-\u0dff"

WORD_START: Final = f"(?<![^\\W_{UNSPACED}])(?<![{_BOUNDARY_MARKS}])"
"""Assertion: no word character of a spaced script before this point, as two
single-class lookbehinds, which the engine runs faster than one lookbehind
over an alternation (it runs at every candidate position of every page)."""

WORD_END: Final = f"(?![^\\W_{UNSPACED}{HANGUL}])(?![{_BOUNDARY_MARKS}])"
"""Assertion: no word character of a spaced script after this point. Hangul
does not continue a word of another script: Korean writes its particles onto
a foreign word ("WSL에서", "GitHub를"), as onto its own."""

WORD_RUN: Final = f"[^\\W_{UNSPACED}]+(?:[{_SPACED_MARKS}]+[^\\W_{UNSPACED}]*)*"
"""One word of a spaced script, marks included; the common case (no mark) is
a single class repetition."""

SCRIPT_PATTERNS: Final[Mapping[str, re.Pattern[str]]] = MappingProxyType(
    {
        "han": re.compile(f"[{HAN}]"),
        "kana": re.compile(f"[{KANA}]"),
        "thai": re.compile(f"[{THAI}]"),
        "hangul": re.compile(f"[{HANGUL}]"),
        "arabic": re.compile(f"[{ARABIC}]"),
        "devanagari": re.compile(f"[{DEVANAGARI}]"),
        "cyrillic": re.compile(f"[{CYRILLIC}]"),
        "hebrew": re.compile(f"[{HEBREW}]"),
    }
)
"""One character of each known script, by script name (the order
:func:`script_of` tries them in)."""

SCRIPT_LANGUAGE: Final[Mapping[str, str]] = MappingProxyType(
    {
        "han": "zh",
        "kana": "ja",
        "thai": "th",
        "hangul": "ko",
        "arabic": "ar",
        "devanagari": "hi",
        "cyrillic": "ru",
        "hebrew": "he",
    }
)
"""The language (ISO 639-1) a script most likely stands for on its own: a
lexicon entry without a language tag is taken to be in it. Cyrillic is a
guess (Russian, not Ukrainian): page detection does not decide by it."""
_UNSPACED_CHAR: Final = re.compile(f"[{UNSPACED}]")


def script_of(word: str) -> str:
    """The script of ``word``'s first letter of a known script: "han", "kana",
    "thai", "hangul", "arabic", "devanagari", "cyrillic", "hebrew", or "latin"
    (any other)."""
    for name, pattern in SCRIPT_PATTERNS.items():
        if pattern.search(word) is not None:
            return name
    return "latin"


def is_unspaced(word: str) -> bool:
    """True when ``word`` contains a character of a script written without spaces."""
    return _UNSPACED_CHAR.search(word) is not None
