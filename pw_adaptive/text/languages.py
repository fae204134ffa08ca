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
    "language_data",
    "phrases",
    "stemmer",
    "stop_words",
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

TRUNCATED_LANGUAGES: Final[frozenset[str]] = frozenset({"be", "bg", "lv", "mk", "sk", "sl", "uk"})
"""Inflected languages that Snowball has no stemmer for (Slavic and Baltic:
a noun has six or seven case endings, "štipendium", "štipendiá", "štipendií";
"гуртожиток", "гуртожитку"). Their stem is the word without its last two
letters (:data:`TRUNCATE_KEEP` at least), which the query's patterns extend
by :data:`TRUNCATE_ENDING` letters at most."""

TRUNCATE_KEEP: Final = 4
"""Fewest letters a truncated stem keeps; shorter words stay whole."""

TRUNCATE_ENDING: Final = 4
"""Most letters a query pattern adds to a truncated stem: a case ending
("štipendi" + "ách"), not any longer word that starts the same."""

STEMMED_LANGUAGES: Final[tuple[str, ...]] = tuple(sorted({*_SNOWBALL, *TRUNCATED_LANGUAGES}))
"""ISO 639-1 codes of the languages with stems: a Snowball stemmer, or
truncation (:data:`TRUNCATED_LANGUAGES`)."""


def language_data(lang: str) -> Mapping[str, Any]:
    """The data file's entry for ``lang`` (empty for an unknown language)."""
    return _data().get(lang, {})


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

    def stem_word(word: str) -> str:
        # A Snowball stemmer keeps the word it works on in the object: two
        # threads stemming at once (a query parsed in a worker thread while
        # another crawl's loop stems a page) garble each other's words or
        # fail with IndexError.
        with lock:
            result: str = instance.stemWord(word)
        return result

    return functools.lru_cache(maxsize=4096)(stem_word)


def _truncate(word: str) -> str:
    """``word`` without its last two letters, keeping :data:`TRUNCATE_KEEP`."""
    return word[: max(TRUNCATE_KEEP, len(word) - 2)]
