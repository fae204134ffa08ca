"""The one form text is compared in, and per-language word normalisation.

:func:`fold` runs on every markdown block of every page, so it is cheap for
the common case (ASCII) and only does per-script work when the script is
present. The word-level functions (:func:`stem_prefix`,
:func:`strip_particles`, :func:`clitic_prefix_pattern`) run on query terms
and lexicon entries only, when a query is built.
"""

from __future__ import annotations

import functools
import itertools
import re
import unicodedata
from typing import Final

from pw_adaptive.text.languages import language_data, stemmer, to_latin
from pw_adaptive.text.scripts import ARABIC, MARKS

__all__ = [
    "MIN_STEM",
    "affix_pattern",
    "clitic_prefix_pattern",
    "fold",
    "normalize_main_text",
    "stem_prefix",
    "strip_article",
    "strip_particles",
    "unmark",
]

_ARABIC_CHAR: Final = re.compile(f"[{ARABIC}]")


@functools.cache
def _arabic_table() -> dict[int, str | None]:
    """str.translate table: letter variants folded, tatweel and Arabic marks dropped."""
    data = language_data("ar")
    table: dict[int, str | None] = {ord(a): b for a, b in data.get("letter_variants", {}).items()}
    table.update({ord(char): None for char in data.get("ignored", ())})
    # Persian joins the parts of a word with a zero-width non-joiner
    # ("پیش‌نیاز", prerequisite; "خوابگاه‌ها", dormitories), which others
    # write with a space or not at all: read as a hyphen, it joins the parts
    # as a hyphenated word's do (one term, matched with or without the space).
    table[0x200C] = "-"
    marks = re.compile(f"[{MARKS}]")
    for code in range(0x0600, 0x0700):
        if marks.match(chr(code)):
            table[code] = None
    return table


def fold(text: str) -> str:
    """Return ``text`` in the form every comparison uses.

    Unicode NFKC, then case folding ("Straße" -> "strasse", "ＦＥＥＳ" ->
    "fees"), NFKC again to recompose what case folding decomposed; in Arabic
    text the hamza carriers, taa marbuta and alef maqsura are folded and the
    harakat and tatweel dropped (writers use them inconsistently:
    "الجامعة" and "الجامعه", "إقامة" and "اقامة" are the same word). The
    result is stable: ``fold(fold(t)) == fold(t)``.
    """
    if text.isascii():
        # ASCII is already NFKC, and its casefold is lower(): the common,
        # cheap case for the markdown blocks the stopper scans.
        return text.lower()
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())
    if _ARABIC_CHAR.search(folded) is not None:
        folded = folded.translate(_arabic_table())
    return folded


@functools.cache
def _unmark_table() -> dict[int, str | None]:
    """str.translate table: folded Latin letters with diacritics -> their base
    letter ("á" -> "a", "ł" -> "l"), Cyrillic "ё" -> "е", Greek vowels with
    an accent or a diaeresis -> the bare vowel ("ό" -> "ο", "ϊ" -> "ι"), and
    combining diacritical marks left over after NFKC (Turkish "i̇") dropped."""
    table: dict[int, str | None] = {}
    for code in (*range(0xC0, 0x250), *range(0x1E00, 0x1F00)):
        char = chr(code)
        if char.casefold() != char:
            continue  # capitals never reach the table: the text is folded first
        base = _base(char)
        if base != char and base.isascii() and base.isalpha():
            table[code] = base
    table.update({ord(a): b for a, b in (("ł", "l"), ("ø", "o"), ("đ", "d"), ("ı", "i"))})
    table[ord("ё")] = "е"
    # Greek: the accent (tonos) moves as a word inflects ("ταυτότητα",
    # "ταυτοτήτων"), capitals drop it ("ΕΥΔΟΞΟΣ" for "Εύδοξος"), and the
    # stop-word list writes its words without it ("ακομα").
    for code in (*range(0x0370, 0x0400), *range(0x1F00, 0x2000)):
        char = chr(code)
        if unicodedata.normalize("NFKC", char.casefold()) != char:
            continue  # not a form that fold() leaves ("ΐ" is one, its capital none)
        base = _base(char)
        if base != char and "\u0370" <= base < "\u0400" and base.isalpha():
            table[code] = base
    table.update(dict.fromkeys(range(0x0300, 0x0370)))
    return table


def unmark(text: str) -> str:
    """``text`` (already :func:`fold`-ed) with the diacritics of Latin letters
    dropped: the form query terms and page text are matched in, so that
    "calendário" finds "/calendario-academico/", "matricula" typed without
    its accent finds "Matrícula", and "władze" finds "wladze" in a URL.
    Unlike :func:`fold` it is not applied to words before they are stemmed:
    Snowball stemmers read the marks ("alimentação" -> "aliment"). Other
    scripts are left alone, except Russian "ё", commonly written "е", and
    Greek's accents, which move as a word inflects ("ταυτότητα",
    "ταυτοτήτων") and which capitals leave out ("ΕΥΔΟΞΟΣ")."""
    if text.isascii():
        return text
    return text.translate(_unmark_table())


_SPACES: Final = re.compile(r"\s+")


def normalize_main_text(text: str, *, for_fingerprint: bool = False) -> str:
    """Return a page's main text tidied, or with ``for_fingerprint`` in the form
    fingerprints are computed on.

    By default this is the form a page's main text is kept and written out
    in (``RenderedPage.main_text``): in each line, every run of whitespace
    becomes one space and the ends are stripped; empty lines are dropped.
    Letters and line breaks are kept.

    With ``for_fingerprint=True``, the form the duplicate and soft-404 tests
    compare (:mod:`pw_adaptive.core.dedup`): NFKC (full-width forms, ligatures and
    compatibility characters fold to their plain equivalents), case folding,
    and every run of whitespace, line breaks included, one space, trimmed.
    Digits are kept: on university portals numbers are the facts (fees,
    deadlines, course codes), so two pages that differ only in their numbers
    are *near*-duplicates at most, never exact ones. Unlike :func:`fold`, it
    leaves Arabic letter variants alone.

    Both forms are idempotent.
    """
    if for_fingerprint:
        return " ".join(unicodedata.normalize("NFKC", text).casefold().split())
    lines = (_SPACES.sub(" ", line).strip() for line in text.splitlines())
    return "\n".join(line for line in lines if line)


MIN_STEM: Final = 3
"""Shortest stem matched as a word prefix. Shorter stems ("us" of "usos")
would match unrelated words; such words match whole instead."""


def _base(char: str) -> str:
    """``char`` without its diacritics ("ü" -> "u")."""
    return unicodedata.normalize("NFD", char)[0]


def _agreement(word: str, stem: str) -> int:
    """How many letters ``word`` and ``stem`` agree on from the start, up to
    diacritics."""
    length = 0
    for a, b in zip(word, stem, strict=False):
        if a != b and _base(a) != _base(b):
            break
        length += 1
    return length


def stem_prefix(word: str, lang: str) -> str | None:
    """The part of the folded ``word`` that its inflected forms share, by the
    Snowball stemmer of ``lang``: "scolarité" -> "scolarit", "общежития" ->
    "общежит", "gebühren" -> "gebühr". None when ``lang`` has no stemmer or
    the stem is shorter than :data:`MIN_STEM`.

    Snowball stems may drop diacritics (German "gebühr" -> "gebuhr"); the
    prefix is taken from the word itself, as far as it agrees with the stem
    letter for letter up to diacritics, so it still matches the text.
    """
    stem_word = stemmer(lang)
    if stem_word is None:
        return None
    stem = stem_word(word)
    latin = to_latin(word, lang)
    if latin != word:
        # The Serbian stemmer writes its stems in Latin letters ("школарина"
        # -> "školarin"): the prefix is as many Cyrillic letters as spell the
        # agreeing Latin one, a digraph ("љ": "lj") whole or not at all.
        agree = _agreement(latin, stem)
        spelt = itertools.accumulate(len(to_latin(char, lang)) for char in word)
        length = sum(1 for end in spelt if end <= agree)
    else:
        length = _agreement(word, stem)
    if length >= MIN_STEM:
        return word[:length]
    # Stemmers that also strip prefixes (Arabic "السكن" -> "سكن") give a stem
    # inside the word; the clitic pattern matches what goes before it.
    if len(stem) >= MIN_STEM and stem in word:
        return stem
    return None


def strip_particles(word: str, lang: str) -> str:
    """``word`` without a trailing particle of ``lang`` (Korean "기숙사를" ->
    "기숙사"), when at least two characters remain; else ``word``."""
    for particle in language_data(lang).get("particles", ()):
        if word.endswith(particle) and len(word) - len(particle) >= 2:
            return word[: -len(particle)]
    return word


@functools.cache
def clitic_prefix_pattern(lang: str) -> str:
    """Regex (no groups) for the clitic prefixes of ``lang`` that may be glued
    to the front of a word, each stage optional (Arabic: "و", then "ب", then
    "ال": "وبالسكن"); "" for a language without them."""
    stages = language_data(lang).get("clitic_prefixes", ())
    return "".join(
        "(?:" + "|".join(re.escape(fold(p)) for p in sorted(stage, key=len, reverse=True)) + ")?"
        for stage in stages
    )


@functools.cache
def affix_pattern(lang: str) -> str | None:
    """Regex (no groups) for the optional endings of a word of ``lang`` when
    the data file lists them (Arabic), else None: such a language matches a
    word plus one listed ending instead of any word that starts with its stem."""
    suffixes = language_data(lang).get("suffixes")
    if not suffixes:
        return None
    return (
        "(?:" + "|".join(re.escape(fold(s)) for s in sorted(suffixes, key=len, reverse=True)) + ")?"
    )


@functools.cache
def _article_forms(lang: str) -> tuple[str, ...]:
    """``lang``'s article and its ``article_forms``, longest first."""
    data = language_data(lang)
    forms = {data.get("article", ""), *data.get("article_forms", ())} - {""}
    return tuple(sorted(forms, key=len, reverse=True))


CLITIC_KEEP: Final = 4
"""Fewest letters :func:`strip_clitics` leaves of a word."""


def strip_clitics(word: str, lang: str) -> str:
    """``word`` without the longest run of ``lang``'s clitic prefixes at its
    front that leaves :data:`CLITIC_KEEP` letters (Hebrew "והאלגוריתם" ->
    "אלגוריתם", "בקורס" -> "קורס"; "מספר" stays whole); ``word`` for a
    language without clitic prefixes."""
    clitics = clitic_prefix_pattern(lang)
    if not clitics:
        return word
    for end in range(len(word) - CLITIC_KEEP, 0, -1):
        if re.fullmatch(clitics, word[:end]):
            return word[end:]
    return word


def strip_article(word: str, lang: str) -> str:
    """``word`` without the definite article of ``lang`` glued to its front,
    with the clitics that may precede it (``article_forms``: Arabic "السكن",
    "بالسكن", "للتواصل" -> "سكن", "سكن", "تواصل"), when at least three letters
    remain. A clitic without the article is left alone: "لجنة" is a word."""
    for form in _article_forms(lang):
        if word.startswith(form) and len(word) - len(form) >= MIN_STEM:
            return word[len(form) :]
    return word
