"""Query terms, the synonyms lexicon, and which terms a piece of text hits.

A :class:`Query` turns the user's topic ("international student housing",
"留学生宿舍费用", "frais de scolarité") into a short tuple of terms. Every
consumer counts per term: relevance has one facet per term, the stopper one
evidence counter per term, link scoring the fraction of terms a link's text
hits. Text handling per language lives in :mod:`pw_adaptive.text`; the rules:

* Text is compared after :func:`normalize_text` (:func:`pw_adaptive.text.fold`:
  NFKC, case folding, Arabic letter variants), so "Ｆｅｅｓ", "FEES" and
  "fees" are the same word.
* The query's language is detected (:func:`~pw_adaptive.text.detect_query_language`).
  Terms are the words the user typed, split on whitespace and punctuation
  (combining marks stay in their word: "छात्रावास"), without duplicates and
  without stop words of that language or of English (``stopwordsiso``),
  unless the lexicon knows the word; outside English, a word also loses the
  stop words written onto it ("l'université", "dell’università", "peut-on",
  "candidatar-se": :func:`_without_clitics`). Adjacent words are never merged into a
  phrase: "opening hours" is two terms. This keeps the term count what the
  user sees and keeps a page that names one of the words partly relevant.
* A run of an unspaced script (Chinese, Japanese, Thai) of three or more
  characters is segmented into words (jieba, janome, pythainlp), loaded
  lazily; adjacent segments that together form a lexicon entry are joined
  again ("开放" + "时间" -> "开放时间"). Spaces in such a query separate
  phrases, not words ("图书馆开放时间 借书规则"), so every run is segmented;
  a word the user set apart stays whole. Korean words lose a trailing
  particle ("기숙사를" -> "기숙사"). A segment without a letter or digit
  ("・") is no term; a lone character the lexicon does not know ("方" in
  "行き方") weighs as a generic word (:data:`GENERIC_TERM_WEIGHT`).
* English terms match whole words with light English inflection (see
  :func:`_singular` and :func:`_inflection_pattern`): "refund" matches
  "Refunds", "refunded" and "refundable"; "fee" matches "fees" but not
  "feedback". Inflection only goes forward from the singular: "house"
  matches "housing", but "housing" does not match "house".
* Terms of other spaced languages match words that start with their Snowball
  stem ("scolarité" matches "scolarités", "общежитие" matches "общежития");
  a stem of three or four letters is lengthened to the word less two letters
  and takes at most two more ("logement" does not match "logged", nor
  "beca" "because"; Turkish and Finnish keep an open ending),
  Arabic words also behind clitic prefixes ("السكن" matches "بالسكن"), Korean
  words at the start of a word (particles follow).
* Terms of unspaced scripts match as substrings; Chinese ones in both
  Simplified and Traditional characters (``opencc``).
* A term also matches its synonyms (:class:`Synonyms`), each by the rules of
  its own language: the lexicon is cross-lingual, so "housing" reaches
  "宿舍", "общежитие" and "寮".
"""

from __future__ import annotations

import bisect
import functools
import json
import math
import os
import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from types import MappingProxyType
from typing import Any, Final

from pw_adaptive.text.compounds import split_compound
from pw_adaptive.text.lang import detect_query_language
from pw_adaptive.text.languages import (
    TRUNCATE_ENDING,
    TRUNCATED_LANGUAGES,
    asks_when,
    entry_language,
    hyphen_suffixes,
    language_data,
    phrases,
    script_twin,
    stop_words,
    to_latin,
)
from pw_adaptive.text.normalize import (
    affix_pattern,
    clitic_prefix_pattern,
    fold,
    stem_prefix,
    strip_article,
    strip_clitics,
    strip_particles,
    unmark,
)
from pw_adaptive.text.scripts import (
    ARABIC,
    CJK,
    CYRILLIC,
    DEVANAGARI,
    HAN,
    HANGUL,
    HEBREW,
    KANA,
    SCRIPT_LANGUAGE,
    THAI,
    WORD,
    WORD_END,
    WORD_START,
    is_unspaced,
    script_of,
)
from pw_adaptive.text.segment import korean_content, segment_run, tokens, vietnamese_words

__all__ = [
    "DEFAULT_SYNONYMS",
    "MAX_TERMS",
    "Query",
    "Synonyms",
    "TermWeights",
    "TextHits",
    "estimate_tokens",
    "normalize_text",
]

MAX_TERMS: Final = 64
"""Most terms a query may have: the hit mask of a text is a 64-bit set."""

# Scripts whose characters cost about one LLM token each.
_CJK_CHAR: Final = re.compile(f"[{CJK}]")
_WORD_CHAR: Final = WORD
_LETTERS: Final = r"[^\W_]"
_DEVANAGARI_LETTERS: Final = f"(?:[^\\W_]|[{DEVANAGARI}])"  # the block holds its vowel signs
_WHITESPACE: Final = re.compile(r"\s+")

# Words that end in "s" but are not plurals, so _singular leaves them alone.
_NOT_PLURAL: Final = frozenset(
    {"news", "series", "species", "means", "canvas", "atlas", "alias", "bias", "gas", "yes"}
)
_VOWELS: Final = "aeiou"

# Unspaced runs up to this length are taken as one word without loading a
# segmenter: nearly every one- and two-character Chinese query is a single
# word (宿舍, 学费), and jieba takes about a second to load its dictionary.
_SEGMENT_MIN_CHARS: Final = 3
# Longest run of adjacent segments that is tried as one lexicon entry.
_MAX_MERGE: Final = 4
# A Snowball stem shorter than this is lengthened (see _words_pattern).
_SHORT_STEM: Final = 5
# Languages that chain suffixes onto a word (Turkish "burs-lar-ı"): a
# lengthened stem keeps an open ending there.
_AGGLUTINATIVE: Final = frozenset({"tr", "fi", "hu", "et"})
# Vowels (and the glides of adjective endings, "-ий", "-ій", "-ý") that end a
# word's nominative in the truncated languages written in Latin or Cyrillic:
# what an inflection replaces, where a consonant-final word keeps its letters.
_FINAL_VOWELS: Final = "aeiouyáäéěíóôúůýāēīūаеєиіїоуюяйё"
# Labels whose hint answer a query keeps (Query.hinted).
_HINT_CACHE_SIZE: Final = 8192


def normalize_text(text: str) -> str:
    """Return ``text`` in the form every comparison uses (:func:`pw_adaptive.text.fold`):
    NFKC, case folding, Arabic letter variants folded. Idempotent."""
    return fold(text)


def _match_form(text: str) -> str:
    """``text`` in the form term patterns are matched against: folded
    (:func:`normalize_text`), then Latin diacritics dropped (:func:`unmark`;
    the patterns are compiled unmarked too)."""
    return unmark(fold(text))


def estimate_tokens(text: str) -> int:
    """Estimate how many LLM tokens ``text`` costs.

    About one token per four characters of Latin text (runs of whitespace
    count as one character) and one token per CJK character, the usual ratios
    of BPE tokenizers on English and Chinese. 0 for empty or blank text;
    callers that need at least one take ``max(1, ...)``.
    """
    collapsed = _WHITESPACE.sub(" ", text.strip())
    if not collapsed:
        return 0
    cjk = len(_CJK_CHAR.findall(collapsed))
    return cjk + math.ceil((len(collapsed) - cjk) / 4)


def _is_cjk(text: str) -> bool:
    return is_unspaced(text)


# What may cling to a query word without being part of it ("fees," "¿dónde").
_WORD_EDGE_PUNCT: Final = ",.;:!?()[]{}\"'«»“”„‘’¿¡、，。：；！？（）"


def _normalize_phrase(text: str) -> str:
    """Normalize ``text`` and collapse its whitespace to single spaces."""
    return " ".join(normalize_text(text).split())


def _script_language(word: str) -> str:
    """The language a lexicon entry without a language tag is taken to be in."""
    guess = SCRIPT_LANGUAGE.get(script_of(word))
    if guess is not None:
        return guess
    return "en" if word.isascii() else ""


@functools.cache
def _chinese_converters() -> tuple[Any, Any]:
    import opencc

    return opencc.OpenCC("t2s"), opencc.OpenCC("s2t")


def _chinese_forms(word: str) -> tuple[str, ...]:
    """``word`` in Simplified and in Traditional characters (``opencc``)."""
    to_simplified, to_traditional = _chinese_converters()
    forms = (word, to_simplified.convert(word), to_traditional.convert(word))
    return tuple(dict.fromkeys(forms))


def _singular(word: str) -> str:
    """Return the singular of a normalized English ``word`` (light, no dictionary).

    Drops a possessive ("student's", "students'"), then a plural ending:
    "-ies" -> "-y" (policies), "-sses"/"-xes"/"-zes"/"-ches"/"-shes" lose "es"
    (classes, boxes), other "-s" lose "s" (fees, courses). Words of three
    letters or fewer, words ending in "ss", "us", "is" or "ics" (class, campus,
    thesis, economics) and a few known non-plurals (news, series) are kept.
    CJK and non-Latin words are returned unchanged.
    """
    if _is_cjk(word):
        return word
    for possessive in ("'s", "’s"):
        if word.endswith(possessive):
            word = word[:-2]
    word = word.rstrip("'’")
    if (
        len(word) <= 3
        or not word.endswith("s")
        or word.endswith(("ss", "us", "is", "ics"))
        or word in _NOT_PLURAL
    ):
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "xes", "zes", "ches", "shes")):
        return word[:-2]
    return word[:-1]


_DOUBLED: Final = frozenset("bdgmnprt")
"""Consonants that English doubles before "-ed" and "-ing" after one stressed
vowel (transfer: transferred; admit: admitting; plan: planned). "l" is left
out: British spelling doubles it (enrolled) but a base may end in "ll"
(install, enroll), which :func:`_verb_base` could not tell apart."""


def _doubles(word: str) -> bool:
    """Whether English doubles ``word``'s last consonant before "-ed" and
    "-ing": it ends in a consonant of :data:`_DOUBLED` after one vowel
    (transfer, admit, plan; not visit's "-sit" after "i", nor quit's "-uit")."""
    return (
        len(word) >= 3 and word[-1] in _DOUBLED and word[-2] in _VOWELS and word[-3] not in _VOWELS
    )


def _verb_base(word: str) -> str:
    """The base of an English "-ing" or "-ed" form that spelling alone gives
    back: consonant + "ying" -> "y" (applying: apply, studying: study) and a
    doubled consonant before "-ing" or "-ed" loses the ending and one of the
    two (transferring: transfer, admitted: admit, planning: plan), when four
    letters or more remain ("setting" is not "set") and the base is one
    that doubles (:func:`_doubles`), so that its inflections give the word
    back. Any other word is returned unchanged: "housing" is not "house",
    "parking" not "park"."""
    if not (word.isascii() and word.isalpha()):
        return word
    if word.endswith("ying") and len(word) >= 6 and word[-5] not in _VOWELS:
        return word[:-4] + "y"
    for ending in ("ing", "ed"):
        base = word[: -len(ending)]
        if (
            word.endswith(ending)
            and len(base) >= 5
            and base[-1] == base[-2]
            and _doubles(base[:-1])
        ):
            return base[:-1]
    return word


def _english_key(phrase: str) -> str:
    """Key under which a normalized English word or phrase is found: its singular."""
    return " ".join(_singular(token) for token in tokens(phrase))


def _lookup_keys(phrase: str, lang: str) -> tuple[str, ...]:
    """Keys under which a normalized word or phrase in ``lang`` is found in the
    lexicon: itself, its English singular (ASCII words), its stem per word
    (tagged with the language, so stems of two languages never meet) and, for
    Chinese, its Simplified form. A typographic apostrophe reads as a plain
    one ("bourse d’études" is the lexicon's "bourse d'études")."""
    phrase = phrase.replace("’", "'")
    keys = [phrase]
    if phrase.isascii():
        keys.append(_english_key(phrase))
    words = tokens(phrase)
    # English words are found by their singular: Snowball's English stems
    # are too eager ("housing" -> "hous" would find "house").
    if lang != "en":
        # A language written in two scripts is keyed in Latin letters, and
        # languages that share an entry of the data file share their keys
        # (Serbian "школарина", Croatian "školarina").
        words = [to_latin(word, lang) for word in words]
        lang = entry_language(lang)
    stems = [stem_prefix(word, lang) for word in words] if lang != "en" else []
    if any(stems):
        keys.append(f"{lang}:" + " ".join(st or w for st, w in zip(stems, words, strict=True)))
    # Hebrew: also without the clitics written onto a word ("הבחינה" is
    # found as "בחינה"), matched in text as _words_pattern does.
    bare = [_without_written_clitics(word, lang) for word in words]
    if bare != words:
        keys.append(f"{lang}:" + " ".join(stem_prefix(word, lang) or word for word in bare))
    if script_of(phrase) == "han":
        keys.append(_chinese_converters()[0].convert(phrase))
    return tuple(dict.fromkeys(key for key in keys if key))


def _without_written_clitics(word: str, lang: str) -> str:
    """``word`` without the clitic prefixes written onto it (``strip_clitics``)
    in a language whose stem is a truncation (Hebrew "בקורס" -> "קורס"),
    else ``word``: Snowball's Arabic and Indonesian stemmers take their own
    prefixes off, and the stem is then found inside the word."""
    return strip_clitics(word, lang) if lang in TRUNCATED_LANGUAGES else word


def _inflection_pattern(word: str) -> str:
    """Regex (without boundaries) for ``word`` and its regular English inflections.

    Only plain lowercase ASCII words of three letters or more are inflected;
    other words (digits, accented or non-Latin words, "uk") match exactly.

    * consonant + "y": policy, policies, policied, policying (apply, applies,
      applied, applying);
    * "e" but not "ee"/"ye"/"oe": house, houses, housed, housing, housable;
    * "s", "x", "z", "ch", "sh": class, classes, classed, classing;
    * otherwise: refund, refunds, refunded, refunding, refundable, and "es"
      after "o" (potatoes); after a consonant also the noun in "-ation"
      (install, installation; orient, orientation; transport, transportation).

    The inflected form must end the word (see :func:`_variant_pattern`), so
    "fee" gives fee, fees, feeed, feeing, feeable and never "feed" or
    "feedback". Possessives need no rule: the apostrophe already ends the word.
    A word whose last consonant English doubles (:func:`_doubles`) also
    takes the doubled "-ed" and "-ing" (transfer,
    transferred, transferring); where English does not double (visit), the
    extra forms never occur in text.
    """
    if len(word) < 3 or not (word.isascii() and word.isalpha()):
        return re.escape(word)
    endings: tuple[str, ...]
    if word.endswith("y") and word[-2] not in _VOWELS:
        stem, endings = word[:-1], ("y", "ies", "ied", "ying")
    elif word.endswith("e") and not word.endswith(("ee", "ye", "oe")):
        stem, endings = word[:-1], ("e", "es", "ed", "ing", "able")
    elif word.endswith(("s", "x", "z", "ch", "sh")):
        stem, endings = word, ("", "es", "ed", "ing")
    else:
        plural = ("s", "es") if word.endswith("o") else ("s",)
        noun = ("ation", "ations") if word[-1] not in _VOWELS and len(word) >= 4 else ()
        doubled = (word[-1] + "ed", word[-1] + "ing") if _doubles(word) else ()
        stem, endings = word, ("", *plural, "ed", "ing", "able", *noun, *doubled)
    alternatives = "|".join(e for e in endings if e)
    optional = "?" if "" in endings else ""
    return f"{re.escape(stem)}(?:{alternatives}){optional}"


def _words_pattern(variant: str, lang: str, *, singularize: bool) -> str:
    """Regex for one normalized spaced-script variant in ``lang``, without the
    word boundaries :func:`_term_regex` adds.

    Words of a phrase are separated by any run of whitespace or hyphens ("hall
    of residence", "entry-requirements"). English words are inflected
    (:func:`_inflection_pattern`; with ``singularize``, query terms, each word
    is first reduced to its singular, so "refunds" matches "refund", and an
    "-ing" or "-ed" form to the base its spelling gives back (:func:`_verb_base`:
    "transferring" matches "Transfer students"); lexicon
    entries are inflected as written, so "halls" does not match the "Great
    Hall"), the parts of a hyphenated word joined by an optional space or
    hyphen ("e-mail", "email"). Words of a language with a stemmer match any
    word that starts with their stem, behind the language's clitic prefixes.
    Stop words inside phrases match as written.
    """
    variant = variant.replace("’", "'")
    english = lang == "en" or (not lang and variant.isascii())
    stops = stop_words(lang) | stop_words("en")
    clitics = clitic_prefix_pattern(lang)
    suffixes = affix_pattern(lang)
    words = []
    for word in variant.split():
        if word in stops:
            words.append(re.escape(word))
        elif english:
            parts = word.split("-")
            if singularize:
                parts[-1] = _verb_base(_singular(parts[-1]))
            words.append("[\\s\\-]?".join(_inflection_pattern(part) for part in parts))
        elif suffixes is not None:
            words.append(clitics + re.escape(strip_article(word, lang)) + suffixes)
        else:
            # A hyphenated word that stays whole ("wi-fi", Persian "پیش‌نیاز"
            # with its non-joiner read as a hyphen) is written with a hyphen,
            # a space or nothing between its parts; its last part inflects.
            head, _, last = word.rpartition("-")
            lead = ""
            if head and last:
                lead = "".join(re.escape(part) + "[\\s\\-]?" for part in head.split("-"))
                word = last
            stem = stem_prefix(word, lang)
            # Combining marks survive NFKC only in scripts such as Devanagari;
            # elsewhere the plain class is enough, and a much smaller regex.
            script = script_of(word)
            rest = _DEVANAGARI_LETTERS if script == "devanagari" else _LETTERS
            tail = "*"
            truncated = lang in TRUNCATED_LANGUAGES
            base = word.rstrip(_FINAL_VOWELS) if truncated and script != "hebrew" else ""
            if stem and len(stem) < _SHORT_STEM <= len(base):
                # A short word of a truncated language whose truncation is too
                # short to stand: its case endings replace its final vowels
                # ("оцінка": "оцінки", "оцінкою") or follow its consonant
                # ("сплайн": "сплайна", "сплайнів"; "іспит": "іспитів"), so it
                # keeps all it has before them and takes a case ending.
                stem, tail = base, f"{{0,{TRUNCATE_ENDING}}}"
            elif stem and word.startswith(stem) and len(stem) < _SHORT_STEM:
                # A stem of three or four letters starts unrelated words of
                # every language ("logement" -> "log": "logged"; "beca" ->
                # "bec": "because"; "visa" -> "vis": "visit"): the word then
                # keeps all but its last two letters (four at least) and
                # takes at most two more, an ending ("becas", "visados"), or
                # any in a language that chains suffixes ("bursları").
                stem = word[: max(len(stem), len(word) - 2, min(len(word), _SHORT_STEM - 1))]
                tail = "*" if lang in _AGGLUTINATIVE else "{0,2}"
            elif truncated:
                tail = f"{{0,{TRUNCATE_ENDING}}}"
            body = f"{re.escape(stem)}{rest}{tail}" if stem else re.escape(word)
            bare = _without_written_clitics(word, lang)
            if bare != word:
                # Hebrew writes its article and prepositions onto the word
                # ("האלגוריתם", "בקורס"), but a word may also start with one
                # of their letters ("הרצאה", "בחינה"): both.
                bare_stem = stem_prefix(bare, lang)
                bare_body = f"{re.escape(bare_stem)}{rest}{tail}" if bare_stem else re.escape(bare)
                body = f"(?:{body}|{bare_body})"
            words.append(clitics + lead + body)
    # Typographic and straight apostrophes are the same ("master’s").
    return "[\\s\\-]+".join(words).replace("'", "['’]")


def _unbounded_pattern(variant: str) -> str:
    """Regex for a variant of an unspaced script: a substring, inner spaces optional."""
    return r"\s*".join(re.escape(char) for char in variant if not char.isspace())


@dataclass(frozen=True)
class Synonyms:
    """An immutable lexicon: groups of words and phrases that mean the same.

    Members are stored normalized (:func:`normalize_text`, whitespace
    collapsed), each with its language (``languages``: member -> ISO 639-1
    code; a member without one is taken to be in the language its script
    suggests, English for ASCII). A word is found by its lookup keys (itself,
    its English singular, its stem in its language, its Simplified Chinese
    form), so "fee" and "fees", "學費" and "学费" find the same groups. A word
    may sit in several groups; its variants are the union of them. Groups are
    not merged transitively.
    """

    groups: tuple[tuple[str, ...], ...] = ()
    """The groups, normalized, in the order given; empty members dropped."""
    languages: tuple[tuple[str, str], ...] = ()
    """(member, language) pairs for members whose language is known. A member
    written alike in several languages may have a pair for each; it is found
    by its stem in every one of them (:meth:`language` gives the last)."""
    hints: tuple[tuple[tuple[str, str], ...], ...] = ()
    """Per group (by number; missing ones have none), its menu hints as (word,
    language) pairs: words too broad to count as a page's evidence for the
    topic ("transport", "health", "network"), but which a menu uses to name
    the topic's section ("🚌 Road Transport" over the bus timetable). They
    never make a text hit a term; they only order clue-less links
    (:meth:`Query.hinted`, ``core.links.HINT_FLOOR``)."""
    dated: tuple[int, ...] = ()
    """Numbers of the groups that publish dates (the academic calendar: a topic
    with ``"dates": true``): a query asking "when" takes their words and
    hints as menu hints (:meth:`Query.hinted`)."""
    qualifiers: tuple[int, ...] = ()
    """Numbers of the groups that qualify a topic rather than name one (a
    level of study: undergraduate, master's; a topic with
    ``"qualifier": true``): a query term that reaches only such groups is not
    topical (:attr:`Query.topical`)."""
    levels: tuple[tuple[int, str], ...] = ()
    """(group number, tier) for the groups that name a level of study (a topic
    with ``"level": tier``): "undergraduate" for bachelor's study, "graduate"
    for master's, doctoral and other postgraduate study. A query that names
    levels of one tier only is about that tier's students: a page that states
    a level of another tier as its subject, and none of the query's, is about
    another audience (:meth:`Query.names_other_level`)."""
    facets: tuple[int, ...] = ()
    """Numbers of the groups that name a facet of a topic rather than a topic
    of its own (its fees, a deadline, applying, opening hours: a topic with
    ``"facet": true``): beside another topic, the other is the query's main
    topic (:attr:`Query.main_topic`)."""
    level_words: tuple[tuple[int, str, str], ...] = ()
    """(group number, word, language) for words that name a level group's
    level without being its members (a topic's ``"level_words"``, by
    language): they tell levels apart in a query and on a page
    (:meth:`Query.names_other_level`) but never expand a query term."""
    _index: Mapping[str, tuple[int, ...]] = field(
        init=False, repr=False, compare=False, default_factory=dict
    )
    _lang: Mapping[str, str] = field(init=False, repr=False, compare=False, default_factory=dict)
    _hint_index: Mapping[str, tuple[int, ...]] = field(
        init=False, repr=False, compare=False, default_factory=dict
    )
    _word_langs: Mapping[str, frozenset[str]] = field(
        init=False, repr=False, compare=False, default_factory=dict
    )

    def __post_init__(self) -> None:
        groups = tuple(_normalize_group(group) for group in self.groups)
        # Every language a member is tagged with ("bibliotek": Swedish, Danish
        # and Norwegian): it is found by its stem in each of them; the last
        # is its language (:meth:`language`).
        tags: dict[str, list[str]] = {}
        for member, lang in self.languages:
            tags.setdefault(_normalize_phrase(member), []).append(lang)
        langs = {member: found[-1] for member, found in tags.items()}
        hints = tuple(
            tuple(
                dict.fromkeys(
                    (_normalize_phrase(word), lang)
                    for word, lang in group_hints
                    if _normalize_phrase(word)
                )
            )
            for group_hints in self.hints[: len(groups)]
        )
        object.__setattr__(self, "groups", groups)
        object.__setattr__(self, "hints", hints)
        object.__setattr__(
            self,
            "_index",
            _key_index(
                [
                    (member, lang)
                    for member in group
                    for lang in dict.fromkeys(tags.get(member) or [_script_language(member)])
                ]
                for group in groups
            ),
        )
        object.__setattr__(self, "_lang", MappingProxyType(langs))
        object.__setattr__(
            self,
            "_hint_index",
            _key_index(
                [(word, lang or _script_language(word)) for word, lang in group_hints]
                for group_hints in hints
            ),
        )
        # Every (member, language) pair: ``langs`` keeps one language per
        # member, and a member may be tagged in several ("biblioteca").
        word_langs: dict[str, set[str]] = {}
        for member, lang in self.languages:
            for word in _normalize_phrase(member).split():
                word_langs.setdefault(word, set()).add(lang)
                # A Serbian member votes in either script.
                twin = script_twin(word, lang)
                if twin is not None:
                    word_langs.setdefault(twin, set()).add(lang)
        object.__setattr__(
            self,
            "_word_langs",
            MappingProxyType({w: frozenset(v) for w, v in word_langs.items()}),
        )

    @classmethod
    def from_groups(cls, groups: Iterable[Iterable[str]]) -> Synonyms:
        """Build a lexicon from groups of equivalent words or phrases.

        Raises TypeError when a group is a plain string (a common slip:
        ``["dorm", "hall"]`` instead of ``[["dorm", "hall"]]``).
        """
        return cls(tuple(_group_tuple(group) for group in groups))

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Synonyms:
        """Load a lexicon from a UTF-8 JSON file.

        Two shapes are read: ``{"groups": [[...], ...]}`` (members in any
        language, tagged by script), and ``{"topics": [{"topic": name,
        "en": [...], "ar": [...], ...}, ...]}`` (one group per topic, members
        tagged with the language of their key; keys starting with "_" or not
        a list, such as "_note", are ignored, but for "hints": an object of
        the same shape, the topic's menu hints, see ``hints``). Other
        top-level keys (a "description") are ignored. Raises ValueError when the file is not
        JSON of either shape, OSError when it cannot be read.
        """
        with open(path, encoding="utf-8") as file:
            text = file.read()
        return cls._from_json(text, source=os.fspath(path))

    @classmethod
    def _from_json(cls, text: str, *, source: str) -> Synonyms:
        try:
            data: Any = json.loads(text)
        except json.JSONDecodeError as error:
            raise ValueError(f"{source}: not valid JSON: {error}") from error
        if isinstance(data, dict) and isinstance(data.get("topics"), list):
            return cls._from_topics(data["topics"], source=source)
        groups = data.get("groups") if isinstance(data, dict) else None
        if not isinstance(groups, list) or not all(
            isinstance(group, list) and all(isinstance(member, str) for member in group)
            for group in groups
        ):
            raise ValueError(f'{source}: expected {{"groups": [[str, ...], ...]}}')
        return cls.from_groups(groups)

    @classmethod
    def _from_topics(cls, topics: list[Any], *, source: str) -> Synonyms:
        groups: list[tuple[str, ...]] = []
        languages: list[tuple[str, str]] = []
        hints: list[tuple[tuple[str, str], ...]] = []
        dated: list[int] = []
        qualifiers: list[int] = []
        levels: list[tuple[int, str]] = []
        level_words: list[tuple[int, str, str]] = []
        facets: list[int] = []
        for topic in topics:
            if not isinstance(topic, dict):
                raise ValueError(f"{source}: a topic must be an object, not {topic!r}")
            hints.append(_topic_hints(topic, source))
            if topic.get("dates") is True:
                dated.append(len(groups))
            if topic.get("qualifier") is True:
                qualifiers.append(len(groups))
            if topic.get("facet") is True:
                facets.append(len(groups))
            level = topic.get("level")
            if level is not None:
                if not isinstance(level, str) or not level:
                    raise ValueError(
                        f"{source}: topic {topic.get('topic')!r}: level must be a name"
                    )
                levels.append((len(groups), level))
            named = topic.get("level_words", {})
            if not isinstance(named, dict) or not all(
                isinstance(words, list) and all(isinstance(w, str) for w in words)
                for lang, words in named.items()
                if not lang.startswith("_")
            ):
                raise ValueError(
                    f"{source}: topic {topic.get('topic')!r}: level_words must map"
                    " languages to lists of words"
                )
            level_words.extend(
                (len(groups), word, lang)
                for lang, words in named.items()
                if not lang.startswith("_")
                for word in words
            )
            members: list[str] = []
            for lang, words in topic.items():
                if lang.startswith("_") or not isinstance(words, list):
                    continue
                if not all(isinstance(word, str) for word in words):
                    raise ValueError(f"{source}: topic {topic.get('topic')!r}: {lang} is not [str]")
                members.extend(words)
                if lang != "members":  # untagged entries: language by script
                    languages.extend((word, lang) for word in words)
            groups.append(tuple(members))
        return cls(
            tuple(groups),
            tuple(languages),
            tuple(hints),
            tuple(dated),
            tuple(qualifiers),
            tuple(levels),
            tuple(facets),
            tuple(level_words),
        )

    def extended(self, groups: Iterable[Iterable[str]]) -> Synonyms:
        """Return a new lexicon with ``groups`` added after this one's groups
        (without hints of their own)."""
        return Synonyms(
            self.groups + tuple(_group_tuple(group) for group in groups),
            self.languages,
            self.hints,
            self.dated,
            self.qualifiers,
            self.levels,
            self.facets,
            self.level_words,
        )

    def words_of(self, numbers: Iterable[int]) -> tuple[tuple[str, str], ...]:
        """The members (word, language; "" when untagged) of the groups
        ``numbers``, without repeats."""
        return _union(
            ((m, self._lang.get(m, "")) for m in self.groups[n])
            for n in numbers
            if n < len(self.groups)
        )

    @functools.cached_property
    def level_patterns(self) -> Mapping[str, tuple[tuple[str, re.Pattern[str]], ...]]:
        """Per tier of ``levels``, patterns for the words that name a level of
        study of it: the members and ``level_words`` of its groups. Compiled
        once, for the first query read with this lexicon (about 40 ms), not
        when the lexicon is built (at import, for the default one)."""
        patterns = {}
        for tier in dict.fromkeys(t for _, t in self.levels):
            numbers = {n for n, t in self.levels if t == tier}
            extra = tuple((w, lang) for n, w, lang in self.level_words if n in numbers)
            patterns[tier] = _hint_regex(self.words_of(sorted(numbers)) + extra)
        return MappingProxyType(patterns)

    def hints_of(self, numbers: Iterable[int]) -> tuple[tuple[str, str], ...]:
        """The menu hints (word, language) of the groups ``numbers``, without repeats."""
        return _union(self.hints[n] for n in numbers if n < len(self.hints))

    def language_votes(self, text: str) -> dict[str, int]:
        """For each language, how many of the words of ``text`` (normalized,
        split on whitespace) occur, as whole words, in a member tagged with it.
        A hint for telling the language of a short query ("kirjasto": Finnish,
        "akademik takvim": Turkish); untagged members give no vote, and nor
        does a stop word of the member's language: "a" and "na" sit inside
        phrases of half the languages, and their votes had turned a Slovak
        query that the model read right into Czech."""
        votes: dict[str, int] = {}
        for word in dict.fromkeys(_normalize_phrase(text).split()):
            word = word.strip(_WORD_EDGE_PUNCT)
            for lang in self._word_langs.get(word, ()):
                if word not in stop_words(lang):
                    votes[lang] = votes.get(lang, 0) + 1
        return votes

    def language(self, member: str) -> str:
        """The language of a normalized member (or of any word, by its script)."""
        return self._lang.get(member) or _script_language(member)

    def groups_of(self, term: str, lang: str = "") -> tuple[int, ...]:
        """Numbers of the groups a normalized ``term`` in ``lang`` belongs to."""
        return _look_up(self._index, term, lang)

    def hint_groups_of(self, term: str, lang: str = "") -> tuple[int, ...]:
        """Numbers of the groups whose menu hints hold a normalized ``term`` in
        ``lang`` and that no other group's hints hold: "transport" names one
        topic's section, "student life" several, so only the first says which."""
        found = _look_up(self._hint_index, term, lang)
        return found if len(found) == 1 else ()

    def variants(self, term: str, lang: str = "") -> tuple[str, ...]:
        """Return the normalized ``term`` followed by its synonyms, without repeats.

        ``lang`` is the term's language (default: by its script), which
        decides how its stem is looked up.
        """
        normalized = _normalize_phrase(term)
        found = [normalized]
        for number in self.groups_of(normalized, lang):
            found.extend(member for member in self.groups[number] if member not in found)
        return tuple(found)

    def __len__(self) -> int:
        return len(self.groups)


def _group_tuple(group: Iterable[str]) -> tuple[str, ...]:
    if isinstance(group, str):
        raise TypeError(f"a synonym group must be a list of strings, not the string {group!r}")
    return tuple(group)


def _key_index(groups: Iterable[Iterable[tuple[str, str]]]) -> Mapping[str, tuple[int, ...]]:
    """Group numbers by lookup key (:func:`_lookup_keys`) of every (word or
    phrase, language) of each group, in group order."""
    index: dict[str, list[int]] = {}
    for number, entries in enumerate(groups):
        for entry, lang in entries:
            for key in _lookup_keys(entry, lang):
                numbers = index.setdefault(key, [])
                if number not in numbers:
                    numbers.append(number)
    return MappingProxyType({key: tuple(numbers) for key, numbers in index.items()})


def _look_up(index: Mapping[str, tuple[int, ...]], term: str, lang: str) -> tuple[int, ...]:
    """The group numbers ``index`` holds under any lookup key of ``term``."""
    found: list[int] = []
    for key in _lookup_keys(term, lang or _script_language(term)):
        found.extend(n for n in index.get(key, ()) if n not in found)
    return tuple(found)


def _topic_hints(topic: dict[str, Any], source: str) -> tuple[tuple[str, str], ...]:
    """A lexicon topic's "hints" object ({language: [word, ...]}) as (word, language) pairs."""
    hints = topic.get("hints", {})
    if not isinstance(hints, dict):
        raise ValueError(f"{source}: topic {topic.get('topic')!r}: hints is not an object")
    pairs: list[tuple[str, str]] = []
    for lang, words in hints.items():
        if lang.startswith("_"):
            continue
        if not isinstance(words, list) or not all(isinstance(word, str) for word in words):
            raise ValueError(f"{source}: topic {topic.get('topic')!r}: hints.{lang} is not [str]")
        pairs.extend((word, "" if lang == "members" else lang) for word in words)
    return tuple(pairs)


def _normalize_group(group: Iterable[str]) -> tuple[str, ...]:
    members: list[str] = []
    for member in _group_tuple(group):
        normalized = _normalize_phrase(member)
        if normalized and normalized not in members:
            members.append(normalized)
    return tuple(members)


DEFAULT_SYNONYMS: Final[Synonyms] = Synonyms._from_json(
    resources.files("pw_adaptive")
    .joinpath("data")
    .joinpath("synonyms.json")
    .read_text(encoding="utf-8"),
    source="pw_adaptive/data/synonyms.json",
)
"""Cross-lingual university-portal vocabulary (``data/synonyms.json``): one
group per topic, each in the languages of ``data/languages.json``."""


def _union(rows: Iterable[Iterable[tuple[str, str]]]) -> tuple[tuple[str, str], ...]:
    """The pairs of ``rows``, in order, without repeats."""
    found: dict[tuple[str, str], None] = {}
    for row in rows:
        found.update(dict.fromkeys(row))
    return tuple(found)


def _segment(run: str, lang: str, synonyms: Synonyms) -> list[str]:
    """Split an unspaced run into words, then re-join segments that form a lexicon entry."""
    if len(run) < _SEGMENT_MIN_CHARS or synonyms.groups_of(run, lang):
        return [run]
    return _join_known(
        segment_run(run, lang), "", lambda word: bool(synonyms.groups_of(word, lang))
    )


def _join_known(pieces: list[str], separator: str, known: Callable[[str], bool]) -> list[str]:
    """``pieces`` with runs of up to :data:`_MAX_MERGE` adjacent pieces joined
    by ``separator`` wherever ``known`` accepts the joined form: longest
    first, from left to right."""
    words: list[str] = []
    start = 0
    while start < len(pieces):
        for stop in range(min(len(pieces), start + _MAX_MERGE), start + 1, -1):
            joined = separator.join(pieces[start:stop])
            if known(joined):
                words.append(joined)
                start = stop
                break
        else:
            words.append(pieces[start])
            start += 1
    return words


class Query:
    """A topic query: its terms and, for any text, which terms the text hits.

    ``Query(text, synonyms=None)`` splits ``text`` into terms as described in
    the module documentation; ``synonyms=None`` means :data:`DEFAULT_SYNONYMS`
    (pass ``Synonyms()`` for none, or ``DEFAULT_SYNONYMS.extended(...)`` to
    add vocabulary). Raises ValueError when no term is left (an empty query or
    only stop words) or when there are more than :data:`MAX_TERMS` terms.

    Each term is compiled once into a regular expression over its variants
    (longest first, so a phrase is counted once rather than as its words);
    :meth:`hit_mask` runs on every markdown block of every page. Instances are
    immutable and safe to share between threads.
    """

    __slots__ = (
        "_calendar_patterns",
        "_hint_patterns",
        "_hinted",
        "_lang",
        "_levels",
        "_main_topic",
        "_patterns",
        "_synonyms",
        "_terms",
        "_text",
        "_topical",
        "_weights",
    )

    def __init__(self, text: str, synonyms: Synonyms | None = None) -> None:
        self._text = text
        self._synonyms = DEFAULT_SYNONYMS if synonyms is None else synonyms
        self._lang = detect_query_language(text, self._synonyms.language_votes(text))
        terms, words = _split_terms(text, self._lang, self._synonyms)
        if not terms:
            raise ValueError(f"query {text!r} has no terms: it is empty or only stop words")
        if len(terms) > MAX_TERMS:
            raise ValueError(f"query has {len(terms)} terms; at most {MAX_TERMS} are supported")
        self._terms = terms
        names = _latin_names(text)
        self._weights = tuple(
            GENERIC_TERM_WEIGHT
            if _is_generic(t, self._lang) or _is_lone_character(t, self._lang, self._synonyms)
            else (NAME_TERM_WEIGHT if t in names else 1.0)
            for t in terms
        )
        phrase_groups = _phrase_groups(words, self._lang, self._synonyms)
        # A query word that is one topic's menu hint ("transport discounts")
        # asks about that topic: it takes the topic's words as variants (the
        # narrower "public transport", "autobus"), though the topic's words
        # never take it (a page on buses is no evidence of every "transport").
        own = {term: self._synonyms.groups_of(term, self._lang) for term in terms}
        for term in terms:
            if not own[term]:
                for number in self._synonyms.hint_groups_of(term, self._lang):
                    numbers = phrase_groups.setdefault(term, [])
                    if number not in numbers:
                        numbers.append(number)
        qualifying = set(self._synonyms.qualifiers)
        # The topics (not qualifiers) each term reaches, itself or in a phrase.
        topics = {
            term: {n for n in (*own[term], *phrase_groups.get(term, ())) if n not in qualifying}
            for term in terms
        }
        # A word that reaches a topic only as part of a phrase names it when no
        # word of the query names it alone: in "koliko iznosi školarina"
        # (how much is the tuition) "iznosi" (amounts to) is half of the
        # lexicon's "iznos školarine", and a page on a board computer whose
        # price "iznosi 100 kn" names no fee; "opening hours" keeps both words.
        owned = {n for term in terms for n in own[term]}
        self._topical = tuple(
            any(n in own[term] or n not in owned for n in topics[term]) for term in terms
        )
        # The topic most of the query asks about, when one stands out: the
        # one that the most term weight names by its own words. A word that
        # reaches a topic only as part of a phrase ("opening" in "opening
        # hours") adds nothing: the phrase names the topic once.
        topic_weight: dict[int, float] = {}
        for term, weight in zip(terms, self._weights, strict=True):
            for number in own[term]:
                if number not in qualifying:
                    topic_weight[number] = topic_weight.get(number, 0.0) + weight
        main = _main_topic(topic_weight, frozenset(self._synonyms.facets))
        self._main_topic = tuple(main in topics[term] for term in terms)
        other_script = _mostly_other_script(text)
        self._patterns = tuple(
            _term_regex(
                term,
                "en" if other_script and term.isascii() else self._lang,
                self._synonyms,
                phrase_groups.get(term, ()),
            )
            for term in terms
        )
        # The menu hints of the groups each term reaches (Synonyms.hints),
        # one set of patterns per distinct set of groups, with the weight of
        # the terms that reach it: a label that names the section of the
        # topic more of the query asks about is tried first (hint_share).
        by_groups: dict[tuple[int, ...], float] = {}
        for term, weight in zip(terms, self._weights, strict=True):
            reach = tuple(dict.fromkeys((*own[term], *phrase_groups.get(term, ()))))
            if reach:
                by_groups[reach] = by_groups.get(reach, 0.0) + weight
        reached = [n for reach in by_groups for n in reach]
        entries: list[tuple[float, tuple[tuple[str, re.Pattern[str]], ...]]] = []
        total = sum(self._weights)
        for reach, weight in by_groups.items():
            patterns = _hint_regex(self._synonyms.hints_of(reach))
            if patterns:
                entries.append((weight / total, patterns))
        # "When is the exam session?" asks for a date: the calendar that
        # publishes it is named in menus by the calendar's own words. The
        # question word is no term, so these hints lift a link without a share.
        dated = [n for n in self._synonyms.dated if n not in reached]
        self._calendar_patterns: tuple[tuple[str, re.Pattern[str]], ...] = ()
        if dated and asks_when(text, self._lang):
            patterns = _hint_regex(self._synonyms.words_of(dated) + self._synonyms.hints_of(dated))
            if patterns:
                entries.append((0.0, patterns))
            self._calendar_patterns = _hint_regex(self._synonyms.words_of(dated))
        # A closed compound's parts are hints too (text.compounds): a menu's
        # "Prüfungsanmeldung" (exam registration) leads where the query's
        # "Prüfungssekretariat" (exam office) is answered, and "Auslandsstudium"
        # where "Auslandssemester" is. A part says less than the whole, so it
        # only orders clue-less links, as a topic's menu hints do.
        for term, weight in zip(terms, self._weights, strict=True):
            if weight >= 1.0 and (parts := _compound_hints(term, self._lang)):
                entries.append((weight / total, _part_regex(parts)))
        self._hint_patterns = tuple(entries)
        # The levels of study the query names (a term reaches a level group,
        # or its text holds a level word), when of one tier only: the
        # patterns of that tier's words and of the other tiers' words.
        tiers = dict(self._synonyms.levels)
        named = {tiers[n] for n in reached if n in tiers}
        by_tier = self._synonyms.level_patterns
        normalized = _match_form(text)
        families = _families(normalized)
        named |= {t for t, words in by_tier.items() if _any_match(words, normalized, families)}
        self._levels: tuple[tuple[tuple[str, re.Pattern[str]], ...], ...] = ()
        if len(named) == 1:
            (own_tier,) = named
            others = tuple(p for t, words in by_tier.items() if t != own_tier for p in words)
            if others:
                self._levels = (by_tier[own_tier], others)
        # A site's menus repeat the same labels on every page: one match each.
        self._hinted = functools.lru_cache(maxsize=_HINT_CACHE_SIZE)(self._match_hints)

    @property
    def text(self) -> str:
        """The query as the user gave it."""
        return self._text

    @property
    def terms(self) -> tuple[str, ...]:
        """The normalized terms, in query order; term ``i`` is bit ``i`` of a hit mask."""
        return self._terms

    @property
    def lang(self) -> str:
        """The language the query is written in (ISO 639-1; "" when unknown)."""
        return self._lang

    @property
    def synonyms(self) -> Synonyms:
        """The lexicon the terms were expanded with."""
        return self._synonyms

    def __len__(self) -> int:
        return len(self._terms)

    @property
    def term_weights(self) -> tuple[float, ...]:
        """How much each term says about a page, a priori: 1.0,
        :data:`GENERIC_TERM_WEIGHT` for words that every page of a university
        portal uses (``portal_generic`` in ``data/languages.json``), or
        :data:`NAME_TERM_WEIGHT` for a Latin-script name or code with a capital
        in a query written mostly in another script ("WSL" in a Korean one)."""
        return self._weights

    @property
    def topical(self) -> tuple[bool, ...]:
        """Per term, whether it names a topic of the lexicon (it reaches a
        synonym group, itself, through a phrase or as a topic's menu hint):
        "Wohnheim" in "Wohnheim in Karlsruhe finden" does, "Karlsruhe" does
        not. The topic is what the user asks about; the other words qualify it
        (a place, a faculty, a year). A word that reaches only groups marked
        as qualifiers (``Synonyms.qualifiers``: a level of study, international
        students) qualifies too: "undergraduate" in "undergraduate tuition"."""
        return self._topical

    @property
    def qualifier_terms(self) -> tuple[int, ...]:
        """The indices of the specific terms (:attr:`term_weights` 1.0) that
        name no topic of the lexicon (:attr:`topical`): "Karlsruhe" in
        "Wohnheim in Karlsruhe finden", every term of a query that names no
        topic at all. Such a word may be one the whole site uses (its city,
        its school, a course code): ``relevance.site_wide_terms`` tells."""
        return tuple(i for i in self._specific() if not self._topical[i])

    @property
    def topic_terms(self) -> tuple[int, ...]:
        """The indices of the specific terms (:attr:`term_weights` at least
        1.0) that name a topic of the lexicon (:attr:`topical`): "Wohnheim" in
        "Wohnheim in Karlsruhe finden"; the other specific terms are
        :attr:`qualifier_terms`."""
        return tuple(i for i in self._specific() if self._topical[i])

    def _specific(self) -> tuple[int, ...]:
        return tuple(i for i, weight in enumerate(self._weights) if weight >= 1.0)

    @property
    def main_topic(self) -> tuple[bool, ...]:
        """Per term, whether it reaches the query's main topic: of two or more
        lexicon topics the query's words reach, the one that the most term
        weight reaches, when one does ("asrama mahasiswa" over "pendaftaran"
        in "pendaftaran asrama mahasiswa": dormitory registration asks about
        housing). A facet of a topic (``Synonyms.facets``: its fees, a
        deadline, applying, opening hours) gives way to the topic beside it
        when no more words name the facet: "housing fees" and "dormitory
        registration" ask about housing. All False when the query reaches one
        topic or none, or when two tie."""
        return self._main_topic

    def __repr__(self) -> str:
        return f"Query({self._text!r}, terms={self._terms!r})"

    def hit_mask(self, text: str) -> int:
        """Return the set of terms ``text`` mentions: bit ``i`` is set when term ``i``
        or one of its synonyms occurs. 0 for text that mentions none (or is empty).
        """
        normalized = _match_form(text)
        families = _families(normalized)
        mask = 0
        for bit, patterns in enumerate(self._patterns):
            for family, pattern in patterns:
                if family in families and pattern.search(normalized) is not None:
                    mask |= 1 << bit
                    break
        return mask

    def names_calendar(self, text: str) -> bool:
        """Whether ``text`` (a page's title, a heading, its URL words) names the
        academic calendar ("Academic Calendar", "校历") while the query asks
        when something happens and names no calendar itself: the page that
        publishes the dates ("when are the final exams"). False for any other
        query."""
        if not text or not self._calendar_patterns:
            return False
        normalized = _match_form(text)
        return _any_match(self._calendar_patterns, normalized, _families(normalized))

    def names_other_level(self, texts: Iterable[str]) -> bool:
        """Whether ``texts`` (a page's title, headings and URL words, where it
        states its subject) name a level of study of another tier than the
        query's, and none of the query's tier: an undergraduate admissions
        page for a question on master's admission. False when the query
        names no level, or levels of two tiers (``Synonyms.levels``)."""
        if not self._levels:
            return False
        own, others = self._levels
        other = False
        for text in texts:
            if not text:
                continue
            normalized = _match_form(text)
            families = _families(normalized)
            if _any_match(own, normalized, families):
                return False
            other = other or _any_match(others, normalized, families)
        return other

    def hinted(self, text: str) -> bool:
        """Whether ``text`` (a link's label or URL words) holds a menu hint of a
        topic the query's terms reach (:attr:`Synonyms.hints`): a word too broad
        to be evidence ("Health" for "campus clinic"), but the usual name of
        the menu section that holds the topic. False for a query without hints."""
        return self.hint_share(text) is not None

    def hint_share(self, text: str) -> float | None:
        """How much of the query the menu hints in ``text`` speak for: the
        weighted share (:attr:`term_weights`) of the terms whose topics'
        hints it holds, in [0, 1]; None when it holds no hint (:meth:`hinted`).

        "校内出行" (getting around campus) speaks for "shuttle" and "bus" of
        "campus shuttle bus timetable and fare", "学习相关" (study) for
        "timetable" alone: both are hints, the first names the section of
        more of the question. A calendar's words hinted by a question asking
        "when" speak for no term (share 0)."""
        if not text or not self._hint_patterns:
            return None
        return self._hinted(text)

    def _match_hints(self, text: str) -> float | None:
        normalized = _match_form(text)
        families = _families(normalized)
        share: float | None = None
        for weight, patterns in self._hint_patterns:
            if _any_match(patterns, normalized, families):
                share = (share or 0.0) + weight
        return None if share is None else min(1.0, share)

    def scan(self, text: str, *, clean: Callable[[str], str] | None = None) -> TextHits:
        """Where the terms occur in ``text``, block by block, in one pass.

        Blocks are what a blank line separates (markdown paragraphs, list
        items, headings), stripped, empty ones dropped. ``clean`` is applied
        to each block before matching (relevance drops link targets, so a
        word in a URL is no mention). Each term's patterns run once over the
        whole text; a match is credited to the block it starts in. The
        result feeds the page's relevance (``counts``), the stopper's fresh
        blocks (``blocks``, ``masks``) and the term weights (``mask``).
        """
        blocks = tuple(b for raw in text.split("\n\n") if (b := raw.strip()))
        normalized_blocks = [_match_form(clean(b) if clean else b) for b in blocks]
        starts: list[int] = []
        offset = 0
        for block in normalized_blocks:
            starts.append(offset)
            offset += len(block) + 2
        normalized = "\n\n".join(normalized_blocks)
        families = _families(normalized)
        masks = [0] * len(blocks)
        counts = [0] * len(self._patterns)
        for bit, patterns in enumerate(self._patterns):
            for family, pattern in patterns:
                if family not in families:
                    continue
                for match in pattern.finditer(normalized):
                    counts[bit] += 1
                    masks[bisect.bisect_right(starts, match.start()) - 1] |= 1 << bit
        return TextHits(blocks, tuple(masks), tuple(counts))

    def term_counts(self, text: str) -> list[int]:
        """Return, per term, how many times it or a synonym occurs in ``text``.

        Occurrences do not overlap: "halls of residence" counts once for
        "housing", not also as "residence".
        """
        normalized = _match_form(text)
        families = _families(normalized)
        return [
            sum(
                sum(1 for _ in pattern.finditer(normalized))
                for family, pattern in patterns
                if family in families
            )
            for patterns in self._patterns
        ]


@dataclass(frozen=True)
class TextHits:
    """A text's query hits, per block and per term (:meth:`Query.scan`)."""

    blocks: tuple[str, ...]
    """The text's non-empty blocks, stripped, as given (before ``clean``)."""
    masks: tuple[int, ...]
    """Per block, the terms it hits (bit ``i``: term ``i``)."""
    counts: tuple[int, ...]
    """Per term, its occurrences in the whole text."""

    @property
    def mask(self) -> int:
        """The terms the whole text hits."""
        mask = 0
        for block_mask in self.masks:
            mask |= block_mask
        return mask


GENERIC_TERM_WEIGHT: Final = 0.3
"""Weight of a generic term against 1.0 for the others (relevance facets and
link clues). Generic terms are words nearly every page of a university portal
uses ("students", "university", "学生"; ``portal_generic`` in
``data/languages.json``): in a query they still count, but a page or link that
only matches them says little. The home page of a portal says "students" a
dozen times; without this, it would count as a find for "accommodation for
nursing students"."""

NAME_TERM_WEIGHT: Final = 2.0
"""Weight of a Latin-script word with a capital letter in a query written
mostly in another script ("WSL", "GitHub" in a Korean question, "SRT" in a
Chinese one): a name or a code, the most specific word of its query, which
pages and links write as the query does while the query's other words may
come in other forms (a Korean question's "우분투" where the link says
"Ubuntu"). Without it, "WSL에서 Ubuntu 환경구축 및 GitHub 설정하기" named one
word of nine for "윈도우에서 WSL로 우분투 설치하고 깃허브 SSH 키 등록하는 법" and
was a blind link (below ``links.MIN_CLUE``). Not in a Latin-script query,
where capitals also write a site's own name ("CS" on a computer-science
wiki, "UT" on a university's): weighed so there too, two real tasks lost
their answer and a third ran to its budget. Not a word in lower case
("sem_wait" gives "sem", "wait" and "post"), which is as likely an everyday
word: weighed so, a Korean question on semaphores lost its answer."""

_LATIN_LETTER: Final = re.compile(r"[A-Za-z]")
# Hyphenated names are one word, as the query's terms are ("K-means", "Wi-Fi").
_LATIN_WORD: Final = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)+|[A-Za-z][A-Za-z0-9]+")


def _main_topic(topic_weight: Mapping[int, float], facets: Collection[int]) -> int | None:
    """The query's main topic (:attr:`Query.main_topic`) from the term weight
    that names each topic: the one most weight names, when one stands out
    among two or more. A facet of another topic (its fees, a deadline,
    applying, opening hours: ``Synonyms.facets``) asks about that topic:
    "dormitory registration" is about housing, unless more of the query's
    words name the facet ("tuition fees and dormitory costs"). The other
    topics are then ranked alone, those a specific term names (not
    "student" alone), and one of them stands out over the facets."""
    subjects = {n: w for n, w in topic_weight.items() if n not in facets and w >= 1.0}
    facet_weight = max((w for n, w in topic_weight.items() if n in facets), default=0.0)
    if subjects and facet_weight > 0.0 and max(subjects.values()) >= facet_weight - 1e-9:
        ranked = sorted(subjects.values(), reverse=True)
        if len(ranked) == 1 or ranked[0] > ranked[1] + 1e-9:
            return max(subjects, key=subjects.__getitem__)
        return None
    if len(topic_weight) < 2:
        return None
    first, second = sorted(topic_weight.values(), reverse=True)[:2]
    return max(topic_weight, key=topic_weight.__getitem__) if first > second + 1e-9 else None


def _latin_names(text: str) -> frozenset[str]:
    """The Latin-script words with a capital letter in ``text``, lowercased,
    when most of its letters are in another script (:data:`NAME_TERM_WEIGHT`)."""
    latin = len(_LATIN_LETTER.findall(text))
    if sum(1 for ch in text if ch.isalpha()) - latin <= latin:
        return frozenset()
    return frozenset(w.lower() for w in _LATIN_WORD.findall(text) if not w.islower())


def _is_generic(term: str, lang: str) -> bool:
    generic = phrases("portal_generic")
    if term in generic or (term.isascii() and _singular(term) in generic):
        return True
    if strip_article(term, lang) in _generic_without_article(lang):
        return True  # Arabic "للطلبة", "for the students", is "طلبة"
    if script_of(term) == "han" and any(form in generic for form in _chinese_forms(term)):
        return True  # "學校" is "学校"
    stem = stem_prefix(term, lang)
    return stem is not None and any(stem_prefix(word, lang) == stem for word in generic)


@functools.cache
def _generic_without_article(lang: str) -> frozenset[str]:
    """The ``portal_generic`` words with ``lang``'s definite article (and the
    clitics before it) taken off their front: a query word glued to a
    preposition and the article is still the generic word."""
    return frozenset(strip_article(word, lang) for word in phrases("portal_generic"))


def _compound_hints(term: str, lang: str) -> tuple[str, ...]:
    """The parts of ``term`` when it is a closed compound of ``lang``
    (:func:`~pw_adaptive.text.compounds.split_compound`) that may hint at it:
    at least ``COMPOUND_HINT_MIN`` letters, neither a stop word nor a generic
    portal word ("Studenten" of "Studentenwohnheim" is on every page)."""
    parts = split_compound(term, lang)
    if parts is None:
        return ()
    stops = stop_words(lang)
    return tuple(
        part
        for part in parts
        if len(part) >= COMPOUND_HINT_MIN and part not in stops and not _is_generic(part, lang)
    )


def _part_regex(parts: Sequence[str]) -> tuple[tuple[str, re.Pattern[str]], ...]:
    """Patterns for the parts of a compound as hints: a word that starts with
    a part as the query writes it ("prüfung": "Prüfungsanmeldung", "Prüfungen"),
    not with its stem, which may start another word ("informatik" stems to
    "informat", the start of "Informationsseite")."""
    by_family: dict[str, list[str]] = {}
    for part in sorted(parts, key=len, reverse=True):
        script = script_of(part)
        by_family.setdefault(_FAMILY_OF_SCRIPT.get(script, script), []).append(
            re.escape(unmark(part))
        )
    return tuple(
        (family, re.compile(f"{WORD_START}(?:{'|'.join(words)}){_LETTERS}*"))
        for family, words in by_family.items()
    )


def _is_lone_character(term: str, lang: str, synonyms: Synonyms) -> bool:
    """Whether ``term`` is one character of an unspaced script that the lexicon
    does not know: a segmenter's leftover ("方", "出", "月", "回"), a morpheme
    that half the pages of a Chinese or Japanese site hold in other words.
    It weighs as a generic term; "寮", a lexicon entry, keeps its weight."""
    return len(term) == 1 and is_unspaced(term) and not synonyms.groups_of(term, lang)


def _phrase_groups(words: list[str], lang: str, synonyms: Synonyms) -> dict[str, list[int]]:
    """Groups of lexicon phrases that adjacent query words form, per word.

    Terms stay single words, but a word that is part of a phrase the lexicon
    knows ("academic calendar", "frais de scolarité") also matches that
    phrase's synonyms: "calendar" alone has none, "academic calendar" reaches
    "calendário acadêmico" and "学年暦". Only words without groups of their
    own take them: "student" in "student housing" stays a student, not a
    synonym of accommodation.
    """
    found: dict[str, list[int]] = {}
    stops = _unmarked_stop_words(lang)
    for start in range(len(words)):
        for stop in range(start + 2, min(len(words), start + _MAX_MERGE) + 1):
            for number in synonyms.groups_of(" ".join(words[start:stop]), lang):
                for word in words[start:stop]:
                    # Keyed by the term the word gives ("frais d'inscription":
                    # "inscription").
                    word = _without_clitics(word, lang, stops, synonyms)
                    if synonyms.groups_of(word, lang):
                        continue
                    numbers = found.setdefault(word, [])
                    if number not in numbers:
                        numbers.append(number)
    return found


_SYLLABIC: Final = frozenset({"vi"})
"""Languages that write every syllable apart, so that a word of several
syllables ("ký túc xá", dormitory) is several tokens."""


@functools.cache
def _words_of_syllables(lang: str) -> frozenset[str]:
    """``lang``'s ``compounds`` and ``portal_generic`` words, folded."""
    return frozenset(
        " ".join(fold(phrase).split())
        for key in ("compounds", "portal_generic")
        for phrase in language_data(lang).get(key, ())
    )


def _join_syllables(syllables: list[str], lang: str, synonyms: Synonyms) -> list[str]:
    """``syllables`` with the words of several syllables joined, longest first:
    the lexicon's phrases, the language's ``portal_generic`` words and its
    ``compounds`` (``data/languages.json``). "ký túc xá sinh viên" is two words,
    dormitory and student, not five terms that every page matches apart."""
    known = _words_of_syllables(lang)
    joined = _join_known(
        syllables, " ", lambda phrase: phrase in known or bool(synonyms.groups_of(phrase, lang))
    )
    # The syllables the lexicon left alone go together as the language's
    # segmenter joins them in the whole question ("hệ điều hành", operating
    # system: one word), cut where a lexicon word begins or ends.
    numbers = vietnamese_words(syllables)
    words: list[str] = []
    position = 0  # of the next syllable
    previous = -1  # the segmenter's word of the last lone syllable, -1 after a lexicon word
    for word in joined:
        size = len(word.split(" "))
        if size == 1 and previous == numbers[position]:
            words[-1] += " " + word
        else:
            words.append(word)
        previous = numbers[position] if size == 1 else -1
        position += size
    return words


@functools.cache
def _unmarked_stop_words(lang: str) -> frozenset[str]:
    """The stop words of ``lang`` and English without their diacritics, for a
    query typed without them ("jak polaczyc sie z wifi")."""
    return frozenset(unmark(word) for word in stop_words(lang) | stop_words("en"))


_QUOTED: Final = re.compile(r'"([^"]+)"|“([^”"]+)[”"]|„([^“”"]+)[“”"]|«([^»]+)»|‹([^›]+)›')
"""A quoted stretch of a query: straight or typographic double quotes
(English “”, German and Hungarian „”, Czech „“) and guillemets."""


def _quoted_phrases(normalized: str) -> list[tuple[int, int, str]]:
    """The stretches of ``normalized`` (a folded query) that its writer put
    in quotes, as (start, end, phrase): an error message pasted whole ("Support
    for password authentication was removed"), a programme's name
    («Цифровые финансы»). Only a quote of two words or more of a spaced
    script is a phrase; one word in quotes is that word."""
    found = []
    for match in _QUOTED.finditer(normalized):
        inner = next(group for group in match.groups() if group is not None)
        words = tokens(inner)
        if len(words) >= 2 and not any(is_unspaced(word) for word in words):
            found.append((match.start(), match.end(), " ".join(words)))
    return found


def _split_terms(text: str, lang: str, synonyms: Synonyms) -> tuple[tuple[str, ...], list[str]]:
    """The query's terms, and all its words (stop words too) in order. A
    phrase in quotes (:func:`_quoted_phrases`) is one term, stop words and
    all, matched as a phrase."""
    normalized = normalize_text(text)
    words: list[str] = []
    # Positions in ``words`` of Korean words without a content part
    # (predicates, adverbs): kept among the words (a "when" word), never terms.
    no_content: set[int] = set()
    # The query's tokens, a quoted phrase as one (not in a language that
    # writes its syllables apart: its words are joined below), and the
    # positions in ``words`` of the phrases.
    pieces: list[tuple[str, bool]] = []
    at = 0
    if lang not in _SYLLABIC:
        for start, end, phrase in _quoted_phrases(normalized):
            pieces.extend((token, False) for token in tokens(normalized[at:start]))
            pieces.append((phrase, True))
            at = end
    pieces.extend((token, False) for token in tokens(normalized[at:]))
    quoted: set[int] = set()
    for token, is_phrase in pieces:
        if is_phrase:
            quoted.add(len(words))
            words.append(token)
            continue
        if is_unspaced(token):
            words.extend(_segment(token, lang, synonyms))
        elif script_of(token) == "hangul" and not synonyms.groups_of(token, "ko"):
            content = korean_content(token) if token.isalpha() else None
            if content is None and token.isalpha():
                no_content.add(len(words))
            words.append(content or strip_particles(token, "ko"))
        else:
            words.append(token)
    if lang in _SYLLABIC:
        words = _join_syllables(words, lang, synonyms)
    # Compared unmarked: "sie" typed for "się" is a stop word too.
    stops = _unmarked_stop_words(lang)
    names = _hyphenated_names(text)
    acronyms = _acronyms(text)
    terms: list[str] = []
    keys: set[str] = set()
    for position, whole in enumerate(words):
        if position in no_content:
            continue
        # A quoted phrase is a term as it stands, stop words and all.
        quote = position in quoted
        parts = (
            [whole]
            if quote
            else _compound_parts(
                _without_clitics(whole, lang, stops, synonyms), lang, stops, synonyms, names
            )
        )
        for word in parts:
            if not quote and (
                unmark(word) in stops
                and not synonyms.groups_of(word, lang)
                and word not in acronyms
            ):
                continue
            if not any(char.isalnum() for char in word):
                continue  # a segmenter's punctuation ("・" in "住所・電話番号")
            key = _lookup_keys(word, lang)[-1]
            if key in keys:
                continue
            keys.add(key)
            terms.append(word)
    return tuple(terms), words


_CAPITALS_WORD: Final = re.compile(r"[^\W\d_]{2,}")


def _acronyms(text: str) -> frozenset[str]:
    """The words ``text`` writes in capitals, normalized, unless it writes
    most of its letters so: an acronym ("IT", "CS", "ID", "UK", "SU"), which a
    stop-word list may hold in lower case ("it"; the ISO English list has
    country codes), is a word of the question."""
    cased = [char for char in text if char.isupper() or char.islower()]
    if sum(char.isupper() for char in cased) * 2 > len(cased):
        return frozenset()
    return frozenset(
        normalize_text(word) for word in _CAPITALS_WORD.findall(text) if word.isupper()
    )


_HYPHENATED: Final = re.compile(r"\w+(?:-\w+)+")


def _hyphenated_names(text: str) -> frozenset[str]:
    """The hyphenated words of ``text`` whose every part starts with a capital,
    normalized: a name ("МГИМО-Одинцово", a campus; "Baden-Württemberg"),
    kept whole. Its parts alone name something else: the university's
    name, on every page of its site."""
    return frozenset(
        normalize_text(match)
        for match in _HYPHENATED.findall(text)
        if all(part[:1].isupper() for part in match.split("-"))
    )


COMPOUND_PART_MIN: Final = 3
"""Letters a part of a hyphenated compound needs to be a term of its own."""

COMPOUND_HINT_MIN: Final = 4
"""Letters a part of a closed compound needs to hint at the query (text.compounds)."""


def _compound_parts(
    word: str, lang: str, stops: frozenset[str], synonyms: Synonyms, names: frozenset[str]
) -> list[str]:
    """A hyphenated compound of a language other than English as its parts:
    "Cupcake-opgaven" (the Cupcake assignment), "PHP-server",
    "opiskelija-asunto" (student flat), "бизнес-информатика". Such languages
    join a name or a foreign word to a native one with a hyphen, and a page
    names either part alone ("Cupcake projekt", "Serverinställningar"), so
    each part is a term. The word stays whole when the lexicon knows it
    whole, or when a part is short or a stop word ("Wi-Fi", "e-mail",
    "WG-Zimmer"); so does a name, one of ``names``, every part capitalised
    in the query (:func:`_hyphenated_names`). English keeps its compounds ("first-year", "self-study"):
    its pages write them as the query does, with a hyphen or a space, and
    its parts alone say little."""
    if lang == "en" or "-" not in word or word in names or synonyms.groups_of(word, lang):
        return [word]
    parts = word.split("-")
    if all(
        sum(char.isalnum() for char in part) >= COMPOUND_PART_MIN and unmark(part) not in stops
        for part in parts
    ):
        return parts
    return [word]


_ELIDED: Final = re.compile(r"^(\w+)['’](\w.*)$")
"""A word behind an elided article, preposition or pronoun: "l'université",
"dell’università", "jusqu'à"."""


def _without_clitics(word: str, lang: str, stops: frozenset[str], synonyms: Synonyms) -> str:
    """``word`` without the stop words written onto it, in a language other
    than English: an elided one in front ("l'université" -> "université",
    "dell’università" -> "università", "d'inscription" -> "inscription") and
    pronouns joined behind by hyphens (French "peut-on" -> "peut", "a-t-il"
    -> "a"; Portuguese "candidatar-se" -> "candidatar"; each a stop word of
    at most three letters, so "rendez-vous" stays whole). A page writes the
    word alone as often as with them, and the lexicon knows it alone. A word
    the lexicon knows whole is kept whole; English keeps its own
    ("master's", "drop-in"). A case ending that a language writes after a
    hyphen is dropped too (Hungarian "clone-nál" -> "clone";
    :func:`~pw_adaptive.text.languages.hyphen_suffixes`)."""
    if lang == "en" or not ("'" in word or "’" in word or "-" in word):
        return word
    if synonyms.groups_of(word, lang):
        return word
    elided = _ELIDED.match(word)
    if elided is not None and unmark(elided[1]) in stops:
        word = elided[2]
    if "-" in word:
        head, *tail = word.split("-")
        if head and tail and all(len(part) <= 3 and unmark(part) in stops for part in tail):
            word = head
        elif head and len(tail) == 1 and unmark(tail[0]) in hyphen_suffixes(lang):
            # A case ending written after a hyphen onto a foreign word or an
            # abbreviation (Hungarian "VS Code-dal", "clone-nál", "PDF-ben").
            word = head
        elif (
            head
            and tail
            and (clitics := clitic_prefix_pattern(lang))
            and re.fullmatch(clitics, head)
        ):
            # Hebrew joins its prepositions and article to a foreign word or
            # a number with a hyphen ("ב-CNN", "ל-boosting").
            word = "-".join(tail)
    return word


# Script families a term's variants are split into, and how to tell that a
# text holds a family's script. A family is searched only in text that holds
# its script: an English page never runs the Arabic, Cyrillic or CJK
# alternatives of the cross-lingual vocabulary. Latin is always searched.
_FAMILY_OF_SCRIPT: Final = {"han": "cjk", "kana": "cjk"}
_CLITIC_FAMILIES: Final = frozenset({"arabic", "hebrew"})
_PRESENCE: Final = tuple(
    (family, re.compile(f"[{chars}]"))
    for family, chars in (
        ("cjk", HAN + KANA),
        ("thai", THAI),
        ("hangul", HANGUL),
        ("arabic", ARABIC),
        ("devanagari", DEVANAGARI),
        ("cyrillic", CYRILLIC),
        ("hebrew", HEBREW),
    )
)


def _families(normalized: str) -> frozenset[str]:
    """The script families present in a normalized text ("latin" always)."""
    if normalized.isascii():
        return _LATIN_ONLY
    return frozenset(
        ["latin", *(family for family, present in _PRESENCE if present.search(normalized))]
    )


_LATIN_ONLY: Final = frozenset({"latin"})


def _by_first_letter(patterns: list[str]) -> str:
    """Join alternatives, grouping those that start with the same literal letter
    under it ("ab|ac" -> "a(?:b|c)"). Python's engine tries alternatives one by
    one; grouped, a word start tries only the variants of its first letter
    (the cross-lingual vocabulary gives a term fifty Latin variants). Order
    within a group is kept, so the longest variant still comes first."""
    groups: dict[str, list[str]] = {}
    loose: list[str] = []
    for pattern in patterns:
        if pattern[:1].isalnum():
            groups.setdefault(pattern[0], []).append(pattern[1:])
        else:
            loose.append(pattern)
    grouped = [
        f"{first}(?:{'|'.join(rests)})" if len(rests) > 1 else first + rests[0]
        for first, rests in groups.items()
    ]
    return "|".join(grouped + loose)


def _mostly_other_script(text: str) -> bool:
    """Whether most letters of ``text`` are not Latin: its ASCII words are
    then matched by English rules ("K-means" in a Hebrew question, "Python"
    in a Russian one), not cut by the question's stems and clitics. Latin
    letters with marks are Latin: a Vietnamese or Polish question keeps its
    own rules for its unmarked words."""
    letters = [char for char in text if char.isalpha()]
    return sum(script_of(char) == "latin" for char in letters) * 2 < len(letters)


def _term_regex(
    term: str, lang: str, synonyms: Synonyms, extra_groups: Iterable[int] = ()
) -> tuple[tuple[str, re.Pattern[str]], ...]:
    """The regexes for a term and all its variants, one per script family.

    Variants of spaced scripts share one pair of word-boundary assertions, so
    at a position inside a word the engine fails once instead of once per
    variant (the regex runs on every markdown block of every page); a
    lookahead on the variants' first letters lets it skip most positions at
    one character test. Within each family the longest variant comes first:
    the engine takes the first alternative that matches, so "hall of
    residence" wins over "residence". Chinese variants are added in
    Simplified and Traditional characters.
    """
    variants = list(synonyms.variants(term, lang))
    for number in extra_groups:
        variants.extend(v for v in synonyms.groups[number] if v not in variants)
    return _variants_regex(
        [
            (variant, lang if number == 0 else synonyms.language(variant), number == 0)
            for number, variant in enumerate(variants)
        ]
    )


def _any_match(
    patterns: Sequence[tuple[str, re.Pattern[str]]], normalized: str, families: Collection[str]
) -> bool:
    """Whether one of ``patterns`` (script family, regex) of a family present in
    ``normalized`` text (``_match_form``; its ``_families``) matches it."""
    return any(
        family in families and pattern.search(normalized) is not None
        for family, pattern in patterns
    )


def _hint_regex(hints: Sequence[tuple[str, str]]) -> tuple[tuple[str, re.Pattern[str]], ...]:
    """Patterns for menu hints (word, language; "" when untagged), plurals folded."""
    return _variants_regex([(word, lang or _script_language(word), True) for word, lang in hints])


def _variants_regex(
    variants: Sequence[tuple[str, str, bool]],
) -> tuple[tuple[str, re.Pattern[str]], ...]:
    """One regex per script family over ``variants`` (normalized word or phrase,
    its language, whether English plurals are folded to the singular), each
    matched by the rules of its language (see :func:`_term_regex`)."""
    bounded: dict[str, list[tuple[str, str]]] = {}
    unbounded: dict[str, list[tuple[str, str]]] = {}
    seen: set[str] = set()
    # A word of a language written in two scripts (Serbian) matches in both:
    # sites and queries come in either.
    twins = [
        (twin, variant_lang, singularize)
        for variant, variant_lang, singularize in variants
        if (twin := script_twin(variant, variant_lang)) is not None
    ]
    for variant, variant_lang, singularize in [*variants, *twins]:
        script = script_of(variant)
        family = _FAMILY_OF_SCRIPT.get(script, script)
        if is_unspaced(variant):
            forms = _chinese_forms(variant) if variant_lang != "ja" else (variant,)
            for form in forms:
                if form not in seen:
                    seen.add(form)
                    unbounded.setdefault(family, []).append((form, _unbounded_pattern(form)))
        elif script == "hangul":
            # Korean words match at a word's start: bounded on the left only.
            words = "[\\s\\-]+".join(re.escape(word) for word in variant.split())
            bounded.setdefault(family, []).append((variant, words))
        else:
            # Stems are taken from the marked words (Snowball reads the
            # marks); the text is matched unmarked (_match_form), so the
            # pattern's letters are unmarked too.
            pattern = unmark(_words_pattern(variant, variant_lang, singularize=singularize))
            bounded.setdefault(family, []).append((unmark(variant), pattern))
    compiled = []
    for family in dict.fromkeys([*bounded, *unbounded]):
        alternatives = []
        spaced = sorted(bounded.get(family, ()), key=lambda pair: -len(pair[0]))
        if spaced:
            joined = _by_first_letter([pattern for _, pattern in spaced])
            # Arabic and Hebrew words take clitic prefixes: a word may start
            # with another letter than the variant.
            first = "".join(
                sorted({re.escape(v[0]) for v, _ in spaced if family not in _CLITIC_FAMILIES})
            )
            guard = f"(?=[{first}])" if first else ""
            end = "" if family == "hangul" else WORD_END
            alternatives.append(f"{guard}{WORD_START}(?:{joined}){end}")
        rest = sorted(unbounded.get(family, ()), key=lambda pair: -len(pair[0]))
        alternatives.extend(pattern for _, pattern in rest)
        compiled.append((family, re.compile("|".join(alternatives))))
    return tuple(compiled)


class TermWeights:
    """Per-term weights from how common each term is on the pages seen so far.

    A term that nearly every page of a site mentions ("student" on a
    university portal) says little about where a link leads; a rare one
    ("visa") says a lot. This is inverse document frequency (Sparck Jones
    1972) learnt during the crawl, smoothed so that a few pages cannot
    discount a term: weight = max(MIN_WEIGHT, 1 - df / (pages + SMOOTHING)),
    all 1.0 until ``WARMUP_PAGES`` pages were seen.
    """

    SMOOTHING: Final = 3
    """Pseudo-pages that mention no term: after the home page alone, a term
    it mentions keeps 3/4 of its weight; after 20 pages that all mention it,
    about 1/8 (floored at MIN_WEIGHT)."""

    MIN_WEIGHT: Final = 0.25
    """Even a term on every page keeps a quarter of its weight: it is still
    part of what the user asked for."""
    WARMUP_PAGES: Final = 1
    """Pages seen before weights apply. One is enough for the start page's
    own links: a term the home page already mentions is a portal-wide word."""

    def __init__(self, terms: int) -> None:
        self._df = [0] * terms
        self._pages = 0

    def observe(self, mask: int) -> None:
        """Count one page whose text hit the terms in ``mask``."""
        self._pages += 1
        for i in range(len(self._df)):
            if mask >> i & 1:
                self._df[i] += 1

    def combined(self, prior: Sequence[float]) -> list[float]:
        """``prior`` (:attr:`Query.term_weights`) times the learnt weights, term
        by term: what a link's clue is weighed with. ``prior`` alone while
        warming up."""
        learnt = self.weights()
        if learnt is None:
            return list(prior)
        return [a * b for a, b in zip(prior, learnt, strict=True)]

    def weights(self) -> list[float] | None:
        """The current weights, or None while warming up (plain shares)."""
        if self._pages < self.WARMUP_PAGES:
            return None
        pages = self._pages + self.SMOOTHING
        return [max(self.MIN_WEIGHT, 1.0 - df / pages) for df in self._df]

    def state(self) -> dict[str, Any]:
        """A JSON-able snapshot, for checkpoints: page and per-term counts."""
        return {"pages": self._pages, "df": list(self._df)}

    def restore(self, state: dict[str, Any]) -> None:
        """Load a snapshot made by :meth:`state` for the same query."""
        df = [int(n) for n in state["df"]]
        if len(df) != len(self._df):
            raise ValueError("term weights were saved for a query with another number of terms")
        self._df = df
        self._pages = int(state["pages"])
