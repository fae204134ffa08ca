"""Which language a query or a page is written in.

Scripts used by one language decide at once (Hangul: Korean; kana: Japanese;
Thai; Devanagari: Hindi; Hebrew; Han without kana: Chinese); the Arabic script
is Arabic, Persian or Urdu by the letters each writes alone. Latin and
Cyrillic text goes to ``py3langid`` (langid.py's model, shipped in the wheel,
about 0.1 ms per call after a one-time load of about half a second). Pages are
judged on a sample of their text: the language of the first thousand
characters is the page's language, and the cost stays flat per page.
"""

from __future__ import annotations

import copy
import functools
import re
import threading
from collections.abc import Mapping
from typing import Any, Final

from pw_adaptive.text.languages import LANGUAGES, STEMMED_LANGUAGES, stop_words
from pw_adaptive.text.scripts import SCRIPT_LANGUAGE, SCRIPT_PATTERNS

__all__ = ["SAMPLE_CHARS", "detect_language", "detect_query_language", "preload"]

SAMPLE_CHARS: Final = 1000
"""Characters of a page's text that decide its language."""

# Script -> language, for scripts one language of ours writes alone. Kana
# comes before Han: Japanese text mixes both.
_BY_SCRIPT: Final = tuple(
    (SCRIPT_LANGUAGE[script], SCRIPT_PATTERNS[script])
    for script in ("hangul", "kana", "thai", "devanagari", "arabic", "hebrew", "han")
)
_LETTER: Final = re.compile(r"[^\W\d_]")
# A script decides when it holds this share of the sample's letters; below,
# it is quotes or names inside text of another language.
_SCRIPT_SHARE: Final = 0.3
# Log-probability by which another language must beat English for a Latin
# query: langid's scores for short English queries ("visa", "admissions",
# "academic calendar exam dates") put Portuguese, French or Romanian up to
# about 8 ahead; a real French, Finnish or Polish phrase ("frais de
# scolarité", "lukukausimaksut ja apurahat") leads by 15 or more.
_ENGLISH_MARGIN: Final = 10.0


_model: Any = None
_model_lock = threading.Lock()


def _full_model() -> Any:
    """langid's identifier over all its languages, loaded once (0.4-0.7 s:
    the model is an LZMA-compressed pickle); a caller that comes while
    another thread loads it waits for that load instead of starting another.
    Once loaded (every page's language check after the first), no lock."""
    global _model
    if _model is not None:
        return _model
    with _model_lock:
        if _model is None:
            from py3langid.langid import MODEL_FILE, LanguageIdentifier

            _model = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=False)
        return _model


def preload() -> None:
    """Load the language model in a background thread, unless it is loaded:
    a crawl calls this first, so that the load overlaps the browser's launch
    instead of holding up the first page (about half a second in a fresh
    process). Most of the load is decompression, which runs without the GIL."""
    if _model is None:
        threading.Thread(target=_full_model, name="pw-adaptive-langid", daemon=True).start()


@functools.cache
def _restricted_identifier() -> Any:
    # A shallow copy shares the loaded model: set_languages replaces the
    # copy's arrays, it never writes into them.
    identifier = copy.copy(_full_model())
    # Short queries are ambiguous between many languages; among the ones we
    # have data or a stemmer for, the guess is usually right (a Finnish or
    # Polish query must not come out as German or Spanish and be stemmed as
    # such).
    known = set(LANGUAGES) | set(STEMMED_LANGUAGES)
    identifier.set_languages(sorted(known & set(identifier.nb_classes)))
    return identifier


# Letters that tell Persian and Urdu from Arabic in the script they share:
# Persian's own letters and its forms of yeh and kaf (Arabic writes "ي" and
# "ك"), and Urdu's retroflex letters, noon ghunna and bari yeh. Arabic's own
# forms of those letters, its taa marbuta and alef maqsura count against.
_PERSIAN_LETTERS: Final = re.compile("[\u067e\u0686\u0698\u06af\u06a9\u06cc]")
_URDU_LETTERS: Final = re.compile("[\u0679\u0688\u0691\u06ba\u06d2]")
_ARABIC_LETTERS: Final = re.compile("[\u064a\u0643\u0629\u0649]")


def _arabic_script_language(sample: str) -> str:
    """Arabic, Persian or Urdu, for a sample written in the Arabic script: the
    one whose own letters it writes more ("دانشگاه", "خوابگاه" are Persian;
    "الجامعة" Arabic)."""
    persian = len(_PERSIAN_LETTERS.findall(sample))
    arabic = len(_ARABIC_LETTERS.findall(sample))
    if persian <= arabic:
        return "ar"
    return "ur" if len(_URDU_LETTERS.findall(sample)) * 4 >= persian else "fa"


def _by_script(sample: str, *, query: bool = False) -> str | None:
    letters = len(_LETTER.findall(sample))
    if not letters:
        return None
    for lang, pattern in _BY_SCRIPT:
        found = len(pattern.findall(sample))
        # Two kana are enough for Japanese in a page's text: Chinese text has
        # none, bar a quoted name. In a query one is: a Japanese query is
        # often kanji joined by one particle ("大学院入試の日程",
        # "奨学金の申請方法"), and taken for Chinese it was cut by the Chinese
        # segmenter ("学院" for "大学院") and kept "の" as a term, which every
        # Japanese page matches.
        if found and (
            found >= _SCRIPT_SHARE * letters
            or (lang == "ja" and found >= (1 if query else min(2, letters // 4)))
        ):
            return _arabic_script_language(sample) if lang == "ar" else lang
    return None


def detect_language(text: str) -> str:
    """ISO 639-1 code of the language ``text`` is written in ("" when it has
    no letters). Any language ``py3langid`` knows may come back."""
    sample = text[:SAMPLE_CHARS]
    lang = None if sample.isascii() else _by_script(sample)
    if lang is not None:
        return lang
    if _LETTER.search(sample) is None:
        return ""
    code: str = _full_model().classify(sample)[0]
    return code


_LOANWORD_LETTERS: Final = frozenset("éèêëàâîïôûçñ")
"""Accented letters of the French and Spanish words English borrows (café,
résumé, naïve, façade, jalapeño)."""


def _writes_foreign_letters(text: str) -> bool:
    """Whether a word of ``text`` that does not start with a capital (not a
    name: "Malmö", "Zürich") holds a letter English does not write: not
    ASCII, nor an accent of its loanwords ("inlämning", "ställe", "łóżko")."""
    for word in text.split():
        letters = _LETTER.findall(word)
        if not letters or letters[0].isupper():
            continue
        if any(not c.isascii() and c.lower() not in _LOANWORD_LETTERS for c in letters):
            return True
    return False


def detect_query_language(text: str, votes: Mapping[str, int] | None = None) -> str:
    """Like :func:`detect_language`, restricted to the languages of
    ``data/languages.json``: a query is a few words, and its stop words and
    stemmer must come from one of those. ASCII words default to English.

    ``votes`` (language -> number of the query's words a dictionary knows in
    it; ``Synonyms.language_votes``) narrows the choice for Latin and
    Cyrillic text: the languages that know the most words are the
    candidates, and the model picks among them unless its own first choice
    leads theirs by the English margin. On one or two words the model alone
    is close to a coin toss between neighbours ("kirjasto" comes out
    Estonian, "akademik takvim" Lithuanian), while a dictionary of the
    domain says which language uses those words.
    """
    lang = _by_script(text, query=True)
    if lang is not None:
        return lang
    if _LETTER.search(text) is None:
        return ""
    scores = dict(_restricted_identifier().rank(text))
    candidates: Mapping[str, float] = scores
    best: str = max(scores, key=scores.__getitem__)
    if votes:
        most = max(votes.values())
        # English stays a candidate whenever the dictionary knows any of the
        # words in English: ASCII queries are English by default.
        known = {
            code: scores[code]
            for code, n in votes.items()
            if code in scores and (n == most or code == "en")
        }
        if known:
            pick = max(known, key=known.__getitem__)
            # The dictionary breaks near-ties only: on a longer query the
            # model is sure, and common words ("en", "plan", "de") sit in
            # members of many languages.
            if scores[best] - scores[pick] < _ENGLISH_MARGIN:
                best, candidates = pick, known
    # A language without stop words (no list for Macedonian, Belarusian,
    # Serbian or Bosnian) reads a query badly: its "и" and "на" stay terms,
    # which every page of its neighbours' languages holds. Where a neighbour
    # with a list is nearly as likely, the query is read as the neighbour's:
    # "адрес факультета и номер телефона деканата" came out Macedonian, 7
    # ahead of Russian, and ran 45 pages on a Russian site.
    if not stop_words(best):
        listed = [
            code
            for code in sorted(candidates, key=candidates.__getitem__, reverse=True)
            if stop_words(code) and scores[best] - scores[code] < _ENGLISH_MARGIN
        ]
        if listed:
            best = listed[0]
    # English unless another language is clearly likelier: on one or two
    # words ("refund policy", "visa") the model's guess is close to a coin
    # toss, and most such queries are English. Not when the dictionary knows
    # the words in other languages only, nor when the model's choice is not
    # English and a word holds a letter English does not write
    # (:func:`_writes_foreign_letters`): "inlämning It's Learning filnamn
    # mall pdf zip" came out Swedish by 1 point and was read as English.
    if (
        "en" in candidates
        and scores[best] - scores["en"] < _ENGLISH_MARGIN
        and (best == "en" or not _writes_foreign_letters(text))
    ):
        return "en"
    return best
