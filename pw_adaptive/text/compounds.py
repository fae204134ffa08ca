"""Splitting a closed compound of a Germanic language into its two parts.

German, Dutch, Swedish, Danish and Norwegian write a compound as one word:
"Prüfungssekretariat" (exam office) is "Prüfung" + "Sekretariat", glued by a
linking "s". A query word matches any word of a page that starts with its
stem, so the query's "Prüfung" finds "Prüfungsanmeldung"; the other way
round it does not: a query that asks about the "Prüfungssekretariat" gives
no clue to a menu's "Prüfungsanmeldung", nor "Auslandssemester" to
"Auslandsstudium", though each names the same thing its siblings do.

:func:`split_compound` cuts a word where both parts are common words of the
language and together commoner than the whole (the frequency method of
Koehn and Knight, 2003, "Empirical methods for compound splitting"), with
the language's linking elements allowed at the cut. Frequencies come from
``wordfreq`` (in the ``segmenters`` extra), loaded on first use; without it
no word is split. Only query words are split, once per query.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Final

__all__ = ["split_compound"]

_log = logging.getLogger(__name__)

LINKING: Final[dict[str, tuple[str, ...]]] = {
    "de": ("s", "es", "n", "en", "e", "er", "ens"),
    "nl": ("s", "en", "e"),
    "sv": ("s", "a", "u", "o"),
    "da": ("s", "e"),
    "nb": ("s", "e"),
}
"""Linking elements a language may put between a compound's parts, after the
first ("Prüfung-s-sekretariat", "student-en-vereniging", "bostad-s-kö"); its
keys are the languages whose query words are split. Finnish and Hungarian
compound too, but glue case endings onto every word: the endings are common
"words" of the frequency lists ("-lla", "-hoz"), so a cut there is no
compound."""

_WORDFREQ_LANGUAGE: Final = {"no": "nb", "nn": "nb"}
"""Languages the frequency lists file under another code (Norwegian)."""

COMPOUND_MIN: Final = 8
"""Letters a word needs before it is tried: a first part of four, a last of
three and one more; in shorter words two common pieces are mostly chance."""

MODIFIER_MIN: Final = 4
"""Letters the first part needs without its linking element."""

HEAD_MIN: Final = 3
"""Letters the last part needs ("Klausur-tag")."""

PART_MIN_ZIPF: Final = 3.0
"""How common each part must be, on wordfreq's Zipf scale (3: once per
million words): rarer pieces are fragments of an uncompounded word."""


@functools.cache
def _frequency() -> Callable[[str, str], float] | None:
    try:
        from wordfreq import zipf_frequency
    except ImportError:
        _log.warning("wordfreq is not installed: compound query words are not split")
        return None
    return zipf_frequency


@functools.lru_cache(maxsize=4096)
def split_compound(word: str, lang: str) -> tuple[str, str] | None:
    """``word`` (lowercase, as a query term) cut into (first part, last part)
    when it is a closed compound of ``lang``, the first part without its
    linking element; None for any other word, language, or without wordfreq.

    Of every cut that leaves two common words, the one whose parts are the
    commonest (the mean of their Zipf frequencies, the geometric mean of the
    frequencies) is taken, if its parts are commoner than the whole word:
    "klausurtag" is "klausur" + "tag", "prüfungssekretariat" is "prüfung" +
    "sekretariat"; "informatik" has no such cut and stays whole."""
    code = _WORDFREQ_LANGUAGE.get(lang, lang)
    linking = LINKING.get(code)
    if linking is None or len(word) < COMPOUND_MIN or not word.isalpha():
        return None
    frequency = _frequency()
    if frequency is None:
        return None
    best: tuple[float, str, str] | None = None
    for cut in range(MODIFIER_MIN, len(word) - HEAD_MIN + 1):
        head = word[cut:]
        head_zipf = frequency(head, code)
        if head_zipf < PART_MIN_ZIPF:
            continue
        left = word[:cut]
        for link in ("", *linking):
            if not left.endswith(link):
                continue
            modifier = left[: len(left) - len(link)]
            if len(modifier) < MODIFIER_MIN:
                continue
            modifier_zipf = frequency(modifier, code)
            if modifier_zipf < PART_MIN_ZIPF:
                continue
            score = (modifier_zipf + head_zipf) / 2
            if best is None or score > best[0]:
                best = (score, modifier, head)
    if best is None or best[0] <= frequency(word, code):
        return None
    return best[1], best[2]
