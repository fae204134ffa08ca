"""Per-language data: ``data/languages.json`` and the packages it names.

One loader for what the text handling knows about each language, so that no
module keeps a list of words of its own (STYLE rule 8): stop words come from
``stopwordsiso``, stems from ``snowballstemmer``, the rest (particles, clitics,
letter variants, generic link texts, "Load more" labels, portal words) from
the data file. Everything is loaded on first use and cached.
"""

from __future__ import annotations

import functools
import json
import re
import threading
from collections.abc import Callable, Mapping
from importlib import resources
from types import MappingProxyType
from typing import Any, Final

__all__ = [
    "LANGUAGES",
    "STEMMED_LANGUAGES",
    "TRUNCATED_LANGUAGES",
    "TRUNCATE_ENDING",
    "TRUNCATE_KEEP",
    "asks_when",
    "entry_language",
    "language_data",
    "phrases",
    "script_twin",
    "stemmer",
    "stop_words",
    "to_latin",
]


@functools.cache
def _data() -> Mapping[str, Mapping[str, Any]]:
    text = (
        resources.files("pw_adaptive")
        .joinpath("data")
        .joinpath("languages.json")
        .read_text(encoding="utf-8")
    )
    languages: dict[str, Mapping[str, Any]] = json.loads(text)["languages"]
    return MappingProxyType(languages)


LANGUAGES: Final[tuple[str, ...]] = tuple(_data())
"""ISO 639-1 codes of the languages the data file describes."""


# ISO 639-1 code -> snowballstemmer algorithm, for every language Snowball
# stems, whether the data file describes it or not: the one place that says
# which languages have stems. Bosnian and Croatian take the Serbian stemmer,
# which reads the Latin script they share with Serbian and their endings
# ("stipendija", "stipendije", "stipendiju" -> "stipendij").
_SNOWBALL: Final[Mapping[str, str]] = MappingProxyType(
    {
        "ar": "arabic",
        "bs": "serbian",
        "ca": "catalan",
        "cs": "czech",
        "da": "danish",
        "de": "german",
        "el": "greek",
        "en": "english",
        "es": "spanish",
        "et": "estonian",
        "eu": "basque",
        "fa": "persian",
        "fi": "finnish",
        "fr": "french",
        "ga": "irish",
        "hi": "hindi",
        "hr": "serbian",
        "hu": "hungarian",
        "hy": "armenian",
        "id": "indonesian",
        "it": "italian",
        "lt": "lithuanian",
        "ne": "nepali",
        "nl": "dutch",
        "no": "norwegian",
        "pl": "polish",
        "pt": "portuguese",
        "ro": "romanian",
        "ru": "russian",
        "sr": "serbian",
        "sv": "swedish",
        "ta": "tamil",
        "tr": "turkish",
    }
)

TRUNCATED_LANGUAGES: Final[frozenset[str]] = frozenset(
    {"be", "bg", "he", "lv", "mk", "sk", "sl", "uk"}
)
"""Inflected languages that Snowball has no stemmer for (Slavic and Baltic:
a noun has six or seven case endings, "štipendium", "štipendiá", "štipendií";
"гуртожиток", "гуртожитку"; Hebrew: plural and construct endings, "אשכול",
"אשכולות", "שכבות"). Their stem is the word without its last two
letters (:data:`TRUNCATE_KEEP` at least), which the query's patterns extend
by :data:`TRUNCATE_ENDING` letters at most."""

DERIVED_STEM_MIN: Final = 6
"""Fewest letters a stem keeps when a derivational ending is taken off it
(the data file's ``derivational_suffixes``): "tervezés" -> "tervez", but
"kérdés" keeps its ending."""

TRUNCATE_KEEP: Final = 4
"""Fewest letters a truncated stem keeps; shorter words stay whole."""

TRUNCATE_ENDING: Final = 4
"""Most letters a query pattern adds to a truncated stem: a case ending
("štipendi" + "ách"), not any longer word that starts the same."""

STEMMED_LANGUAGES: Final[tuple[str, ...]] = tuple(sorted({*_SNOWBALL, *TRUNCATED_LANGUAGES}))
"""ISO 639-1 codes of the languages with stems: a Snowball stemmer, or
truncation (:data:`TRUNCATED_LANGUAGES`)."""


_ENTRY_OF: Final[Mapping[str, str]] = MappingProxyType({"bs": "sr", "hr": "sr"})
"""Languages that take another's entry of the data file: Bosnian and Croatian
are written with Serbian's function words, question words and link labels
(the standard varieties of one language, which share a stemmer), and a short
query in any of them is told apart by chance ("kolika je školarina" comes
back Croatian or Bosnian as often as Serbian)."""


def entry_language(lang: str) -> str:
    """The language whose entry of the data file ``lang`` takes ("sr" for
    "hr" and "bs"; else ``lang``)."""
    return lang if lang in _data() else _ENTRY_OF.get(lang, lang)


def language_data(lang: str) -> Mapping[str, Any]:
    """The data file's entry for ``lang`` (empty for an unknown language)."""
    return _data().get(entry_language(lang), {})


@functools.cache
def _script_twins(lang: str) -> tuple[Mapping[str, str], tuple[tuple[str, str], ...]]:
    """``lang``'s ``latin_letters`` (Cyrillic letter -> Latin) and its inverse
    as (Latin letters, Cyrillic letter) pairs, longest first ("lj" before "l")."""
    letters: Mapping[str, str] = language_data(lang).get("latin_letters", {})
    inverse = sorted(
        ((latin, cyrillic) for cyrillic, latin in letters.items()), key=lambda p: -len(p[0])
    )
    return MappingProxyType(dict(letters)), tuple(inverse)


def to_latin(word: str, lang: str) -> str:
    """``word`` with the Cyrillic letters of ``lang`` written in Latin script
    (Serbian "школарина" -> "školarina"); ``word`` unchanged for a language
    without ``latin_letters``."""
    letters, _ = _script_twins(lang)
    return "".join(letters.get(char, char) for char in word) if letters else word


def script_twin(word: str, lang: str) -> str | None:
    """``word`` in the other script of a language written in two (Serbian:
    Cyrillic <-> Latin, digraphs "lj", "nj", "dž" read as one letter), or None
    when ``lang`` has one script or ``word`` has no letter to change."""
    letters, inverse = _script_twins(lang)
    if not letters:
        return None
    if any(char in letters for char in word):
        twin = to_latin(word, lang)
    else:
        out, i = [], 0
        while i < len(word):
            for latin, cyrillic in inverse:
                if word.startswith(latin, i):
                    out.append(cyrillic)
                    i += len(latin)
                    break
            else:
                out.append(word[i])
                i += 1
        twin = "".join(out)
    return twin if twin != word else None


@functools.cache
def phrases(key: str) -> frozenset[str]:
    """Every language's phrases under ``key`` ("generic_anchors", "load_more",
    "portal_generic"), normalized (see :func:`pw_adaptive.text.normalize.fold`)."""
    from pw_adaptive.text.normalize import fold

    return frozenset(
        " ".join(fold(phrase).split())
        for entry in _data().values()
        for phrase in entry.get(key, ())
    )


@functools.cache
def _when_pattern(lang: str) -> re.Pattern[str] | None:
    """``lang``'s ``when_words`` as one pattern over folded text, matched as
    query terms are: inside a run of an unspaced script, at a word start in
    Korean (a particle may follow: "언제까지"), else as whole words."""
    from pw_adaptive.text.normalize import fold
    from pw_adaptive.text.scripts import is_unspaced, script_of

    alternatives = []
    for phrase in language_data(lang).get("when_words", ()):
        words = fold(phrase).split()
        body = r"\W+".join(re.escape(word) for word in words)
        if is_unspaced(phrase):
            alternatives.append(body)
        elif script_of(phrase) == "hangul":
            alternatives.append(rf"(?<!\w){body}")
        else:
            alternatives.append(rf"(?<!\w){body}(?!\w)")
    return re.compile("|".join(alternatives)) if alternatives else None


def asks_when(text: str, lang: str) -> bool:
    """Whether ``text`` (a query in ``lang``) holds the language's question
    word for a date or time ("when", "kiedy", "متى", "什么时候"; the data
    file's ``when_words``)."""
    from pw_adaptive.text.normalize import fold

    pattern = _when_pattern(lang)
    return pattern is not None and pattern.search(fold(text)) is not None


@functools.cache
def hyphen_suffixes(lang: str) -> frozenset[str]:
    """The endings ``lang`` writes after a hyphen onto an abbreviation, a
    number or a foreign word (Hungarian "Code-dal", "clone-nál", "PDF-ben";
    the data file's ``hyphen_suffixes``), folded and unmarked; empty for
    most languages."""
    from pw_adaptive.text.normalize import fold, unmark

    return frozenset(unmark(fold(s)) for s in language_data(lang).get("hyphen_suffixes", ()))


@functools.cache
def stop_words(lang: str) -> frozenset[str]:
    """Stop words of ``lang`` from ``stopwordsiso``, normalized, minus the data
    file's ``keep_words`` (content words the ISO lists include: "course",
    "research", "information"), plus its ``request_words`` (verbs that ask for
    something rather than name it: "finden", "dostać"; the English list has
    "find" and "get", most others have neither) and its ``stop_words``
    (function words the package's list lacks: Ukrainian "на", "в", "і").
    Empty for a language that neither the package nor the data file knows."""
    import stopwordsiso

    from pw_adaptive.text.normalize import fold

    if not lang:
        return frozenset()
    entry = language_data(lang)
    added = {fold(word) for key in ("request_words", "stop_words") for word in entry.get(key, ())}
    if not stopwordsiso.has_lang(lang):
        return frozenset(added)
    keep = {fold(word) for word in entry.get("keep_words", ())}
    return (frozenset(fold(word) for word in stopwordsiso.stopwords(lang)) - keep) | added


@functools.cache
def stemmer(lang: str) -> Callable[[str], str] | None:
    """The Snowball stemmer of ``lang`` (``snowballstemmer``), truncation for
    :data:`TRUNCATED_LANGUAGES`, or None; safe to call from several threads
    at once."""
    if lang in TRUNCATED_LANGUAGES:
        return _truncate
    algorithm = _SNOWBALL.get(lang)
    if not algorithm:
        return None
    import snowballstemmer

    instance = snowballstemmer.stemmer(algorithm)
    lock = threading.Lock()
    derived = sorted(language_data(lang).get("derivational_suffixes", ()), key=len, reverse=True)

    def stem_word(word: str) -> str:
        # A Snowball stemmer keeps the word it works on in the object: two
        # threads stemming at once (a query parsed in a worker thread while
        # another crawl's loop stems a page) garble each other's words or
        # fail with IndexError.
        with lock:
            result: str = instance.stemWord(word)
        for suffix in derived:
            if result.endswith(suffix) and len(result) - len(suffix) >= DERIVED_STEM_MIN:
                return result[: -len(suffix)]
        return result

    return functools.lru_cache(maxsize=4096)(stem_word)


def _truncate(word: str) -> str:
    """``word`` without its last two letters, keeping :data:`TRUNCATE_KEEP`."""
    return word[: max(TRUNCATE_KEEP, len(word) - 2)]
