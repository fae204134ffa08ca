"""Query terms, the synonyms lexicon, and which terms a piece of text hits.

A :class:`Query` turns the user's topic ("international student housing",
"留学生宿舍费用") into a short tuple of terms. Every consumer counts per term:
relevance has one facet per term, the stopper one evidence counter per term,
link scoring the fraction of terms a link's text hits. The rules:

* Text is compared after :func:`normalize_text` (Unicode NFKC, then case
  folding), so "Ｆｅｅｓ", "FEES" and "fees" are the same word.
* Terms are the words the user typed, split on whitespace and punctuation,
  without stop words (:data:`STOP_WORDS`) and duplicates. Adjacent words are
  never merged into a phrase: "opening hours" is two terms, "refund policy"
  is two terms. This keeps the term count what the user sees (the stopper
  needs one evidence counter per word) and keeps a page that names only one
  of the words partly relevant instead of not at all.
* A query written without spaces that contains a Chinese run of more than two
  characters ("留学生宿舍费用", "PhD申请截止") has that run segmented into words
  by jieba, loaded lazily the first time such a query is built. Adjacent
  segments that together form a lexicon entry are joined again
  ("开放" + "时间" -> "开放时间"). A query with spaces is taken as segmented by
  the user: its spaces are the word boundaries.
* A Latin term matches whole words with light English inflection (see
  :func:`_singular` and :func:`_inflection_pattern`): "refund" matches
  "Refunds", "refunded" and "refundable"; "fee" matches "fees" but not
  "feedback"; "student" matches "students'" and "student's";
  "application" matches "applications". Inflection only goes forward from
  the singular: "house" matches "housing", but "housing" does not match
  "house" (on a portal "housing" means accommodation, while "house" is just
  as often "in-house", "open house" or "House rules"; the lexicon links
  housing to accommodation, residences and halls instead).
* A CJK term matches as a substring, since Chinese text has no spaces
  between words.
* A term also matches its synonyms (:class:`Synonyms`): single words with the
  same inflection rules, phrases as phrases (words separated by any run of
  spaces or hyphens), Chinese entries as substrings.
"""

from __future__ import annotations

import functools
import json
import logging
import math
import os
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from types import MappingProxyType
from typing import Any, Final

__all__ = [
    "DEFAULT_SYNONYMS",
    "MAX_TERMS",
    "STOP_WORDS",
    "Query",
    "Synonyms",
    "estimate_tokens",
    "normalize_text",
]

MAX_TERMS: Final = 64
"""Most terms a query may have: the hit mask of a text is a 64-bit set."""

STOP_WORDS: Final[frozenset[str]] = frozenset(
    {"the", "of", "for", "and", "a", "an", "in", "to", "on", "at", "with", "的"}
)
"""Words dropped from queries (DESIGN, Query): they occur on every page."""

# Scripts written without spaces between words (kana, CJK ideographs and their
# extension A and compatibility blocks, Hangul syllables). Their terms match as
# substrings, and a run of them is a word boundary for Latin words ("申请PhD").
_CJK_RANGES: Final = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
_CJK_CHAR: Final = re.compile(f"[{_CJK_RANGES}]")
# A letter or digit of a spaced script: what must not touch a Latin match.
_WORD_CHAR: Final = f"[^\\W_{_CJK_RANGES}]"
# One query token: a CJK run, or a word that may hold inner apostrophes or
# hyphens ("master's", "part-time"). Everything else separates tokens.
_TOKEN: Final = re.compile(f"[{_CJK_RANGES}]+|{_WORD_CHAR}+(?:['’\\-]{_WORD_CHAR}+)*")
_WHITESPACE: Final = re.compile(r"\s+")

# Words that end in "s" but are not plurals, so _singular leaves them alone.
_NOT_PLURAL: Final = frozenset(
    {"news", "series", "species", "means", "canvas", "atlas", "alias", "bias", "gas", "yes"}
)
_VOWELS: Final = "aeiou"

# CJK runs up to this length are taken as one word without loading jieba:
# nearly every one- and two-character Chinese query is a single word (宿舍,
# 学费), and jieba takes about a second to load its dictionary.
_SEGMENT_MIN_CHARS: Final = 3
# Longest run of adjacent jieba segments that is tried as one lexicon entry.
_MAX_MERGE: Final = 4


def normalize_text(text: str) -> str:
    """Return ``text`` in the form every comparison uses: NFKC, then casefold.

    NFKC folds compatibility forms (full-width Latin, ligatures, circled
    digits) into plain characters; case folding is Unicode's caseless match
    ("Straße" -> "strasse"). A second NFKC recomposes what case folding
    decomposed, so the result is stable: the function is idempotent.
    """
    if text.isascii():
        # ASCII is already NFKC, and its casefold is lower(): the common,
        # cheap case for the markdown blocks the stopper scans.
        return text.lower()
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())


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
    return _CJK_CHAR.search(text) is not None


def _normalize_phrase(text: str) -> str:
    """Normalize ``text`` and collapse its whitespace to single spaces."""
    return " ".join(normalize_text(text).split())


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


def _lookup_key(phrase: str) -> str:
    """Key under which a normalized word or phrase is found in the lexicon."""
    return " ".join(_singular(token) for token in _TOKEN.findall(phrase))


def _inflection_pattern(word: str) -> str:
    """Regex (without boundaries) for ``word`` and its regular English inflections.

    Only plain lowercase ASCII words of three letters or more are inflected;
    other words (digits, accented or non-Latin words, "uk") match exactly.

    * consonant + "y": policy, policies, policied, policying (apply, applies,
      applied, applying);
    * "e" but not "ee"/"ye"/"oe": house, houses, housed, housing, housable;
    * "s", "x", "z", "ch", "sh": class, classes, classed, classing;
    * otherwise: refund, refunds, refunded, refunding, refundable, and "es"
      after "o" (potatoes).

    The inflected form must end the word (see :func:`_variant_pattern`), so
    "fee" gives fee, fees, feeed, feeing, feeable and never "feed" or
    "feedback". Possessives need no rule: the apostrophe already ends the word.
    Consonant doubling ("admitted") is not handled.
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
        stem, endings = word, ("", *plural, "ed", "ing", "able")
    alternatives = "|".join(e for e in endings if e)
    optional = "?" if "" in endings else ""
    return f"{re.escape(stem)}(?:{alternatives}){optional}"


def _variant_pattern(variant: str, *, singularize: bool) -> str:
    """Regex matching one normalized variant (a query term or a synonym) in text.

    CJK variants match as substrings (inner spaces optional). Latin variants
    are to match whole words: :func:`_term_regex` adds the boundaries (the
    match may not touch another letter or digit of a spaced script). Each word is inflected (:func:`_inflection_pattern`), stop
    words inside phrases excepted; words of a phrase are separated by any run
    of whitespace or hyphens ("hall of residence", "entry-requirements"), the
    parts of a hyphenated word by an optional space or hyphen ("e-mail",
    "email"). With ``singularize`` (query terms) each word is first reduced to
    its singular, so "refunds" matches "refund"; lexicon entries are inflected
    as written, so the entry "halls" does not match the "Great Hall".
    """
    variant = variant.replace("’", "'")
    if _is_cjk(variant):
        return r"\s*".join(re.escape(char) for char in variant if not char.isspace())
    words = []
    for word in variant.split():
        parts = word.split("-")
        if singularize:
            parts[-1] = _singular(parts[-1])
        if word in STOP_WORDS:
            words.append(re.escape(word))
        else:
            words.append("[\\s\\-]?".join(_inflection_pattern(part) for part in parts))
    # Typographic and straight apostrophes are the same ("master’s").
    return "[\\s\\-]+".join(words).replace("'", "['’]")


@dataclass(frozen=True)
class Synonyms:
    """An immutable lexicon: groups of words and phrases that mean the same.

    Members are stored normalized (:func:`normalize_text`, whitespace
    collapsed). A word is found by its lookup key, the singular of each of its
    words, so "fee" and "fees" find the same groups. A word may sit in several
    groups; its variants are the union of them. Groups are not merged
    transitively.
    """

    groups: tuple[tuple[str, ...], ...] = ()
    """The groups, normalized, in the order given; empty members dropped."""
    _index: Mapping[str, tuple[int, ...]] = field(
        init=False, repr=False, compare=False, default_factory=dict
    )

    def __post_init__(self) -> None:
        groups = tuple(_normalize_group(group) for group in self.groups)
        index: dict[str, list[int]] = {}
        for number, group in enumerate(groups):
            for member in group:
                numbers = index.setdefault(_lookup_key(member), [])
                if number not in numbers:
                    numbers.append(number)
        object.__setattr__(self, "groups", groups)
        object.__setattr__(
            self, "_index", MappingProxyType({k: tuple(v) for k, v in index.items()})
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
        """Load a lexicon from a UTF-8 JSON file ``{"groups": [[...], ...]}``.

        Other top-level keys (a "description") are ignored. Raises ValueError
        when the file is not JSON of that shape, OSError when it cannot be read.
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
        groups = data.get("groups") if isinstance(data, dict) else None
        if not isinstance(groups, list) or not all(
            isinstance(group, list) and all(isinstance(member, str) for member in group)
            for group in groups
        ):
            raise ValueError(f'{source}: expected {{"groups": [[str, ...], ...]}}')
        return cls.from_groups(groups)

    def extended(self, groups: Iterable[Iterable[str]]) -> Synonyms:
        """Return a new lexicon with ``groups`` added after this one's groups."""
        return Synonyms(self.groups + tuple(_group_tuple(group) for group in groups))

    def variants(self, term: str) -> tuple[str, ...]:
        """Return the normalized ``term`` followed by its synonyms, without repeats."""
        normalized = _normalize_phrase(term)
        found = [normalized]
        for number in self._index.get(_lookup_key(normalized), ()):
            found.extend(member for member in self.groups[number] if member not in found)
        return tuple(found)

    def __len__(self) -> int:
        return len(self.groups)


def _group_tuple(group: Iterable[str]) -> tuple[str, ...]:
    if isinstance(group, str):
        raise TypeError(f"a synonym group must be a list of strings, not the string {group!r}")
    return tuple(group)


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
"""University-portal vocabulary in English and Chinese (``data/synonyms.json``)."""


@functools.cache
def _jieba_tokenizer() -> Any:
    """Load jieba once per process, quietly, into a tokenizer of our own.

    A private ``jieba.Tokenizer`` keeps the user's own jieba set-up (custom
    dictionaries on the global tokenizer) and ours apart. Loading the
    dictionary takes about a second, so it happens only when a query needs it.
    """
    import jieba

    logging.getLogger("jieba").setLevel(logging.WARNING)
    tokenizer = jieba.Tokenizer()
    tokenizer.initialize()
    return tokenizer


def _segment(run: str, synonyms: Synonyms) -> list[str]:
    """Split a CJK run into words, then re-join segments that form a lexicon entry."""
    if len(run) < _SEGMENT_MIN_CHARS or synonyms.variants(run)[1:]:
        return [run]
    pieces = [piece for piece in _jieba_tokenizer().lcut(run) if piece.strip()]
    words: list[str] = []
    start = 0
    while start < len(pieces):
        for stop in range(min(len(pieces), start + _MAX_MERGE), start + 1, -1):
            joined = "".join(pieces[start:stop])
            if synonyms.variants(joined)[1:]:
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

    __slots__ = ("_patterns", "_synonyms", "_terms", "_text", "_weights")

    def __init__(self, text: str, synonyms: Synonyms | None = None) -> None:
        self._text = text
        self._synonyms = DEFAULT_SYNONYMS if synonyms is None else synonyms
        terms = _split_terms(text, self._synonyms)
        if not terms:
            raise ValueError(
                f"query {text!r} has no terms: it is empty or only stop words "
                f"({', '.join(sorted(STOP_WORDS))})"
            )
        if len(terms) > MAX_TERMS:
            raise ValueError(f"query has {len(terms)} terms; at most {MAX_TERMS} are supported")
        self._terms = terms
        self._weights = tuple(GENERIC_TERM_WEIGHT if _is_generic(t) else 1.0 for t in terms)
        self._patterns = tuple(_term_regex(term, self._synonyms) for term in terms)

    @property
    def text(self) -> str:
        """The query as the user gave it."""
        return self._text

    @property
    def terms(self) -> tuple[str, ...]:
        """The normalized terms, in query order; term ``i`` is bit ``i`` of a hit mask."""
        return self._terms

    @property
    def synonyms(self) -> Synonyms:
        """The lexicon the terms were expanded with."""
        return self._synonyms

    def __len__(self) -> int:
        return len(self._terms)

    @property
    def term_weights(self) -> tuple[float, ...]:
        """How much each term says about a page, a priori: 1.0, or
        :data:`GENERIC_TERM_WEIGHT` for words that every page of a university
        portal uses (:data:`PORTAL_GENERIC_WORDS`)."""
        return self._weights

    def __repr__(self) -> str:
        return f"Query({self._text!r}, terms={self._terms!r})"

    def hit_mask(self, text: str) -> int:
        """Return the set of terms ``text`` mentions: bit ``i`` is set when term ``i``
        or one of its synonyms occurs. 0 for text that mentions none (or is empty).
        """
        normalized = normalize_text(text)
        mask = 0
        for bit, pattern in enumerate(self._patterns):
            if pattern.search(normalized) is not None:
                mask |= 1 << bit
        return mask

    def term_counts(self, text: str) -> list[int]:
        """Return, per term, how many times it or a synonym occurs in ``text``.

        Occurrences do not overlap: "halls of residence" counts once for
        "housing", not also as "residence".
        """
        normalized = normalize_text(text)
        return [sum(1 for _ in pattern.finditer(normalized)) for pattern in self._patterns]


PORTAL_GENERIC_WORDS: Final = frozenset(
    {"student", "university", "campus", "college", "学生", "大学", "高校", "校园"}
)
"""Words nearly every page of a university portal uses: in a query they
still count, but a page or link that only matches them says little. The
home page of a portal says "students" a dozen times; without this, it would
count as a find for "accommodation for nursing students"."""

GENERIC_TERM_WEIGHT: Final = 0.3
"""Weight of a generic term against 1.0 for the others (relevance facets and
link clues)."""


def _is_generic(term: str) -> bool:
    base = term.removesuffix("'s").removesuffix("’s").removesuffix("s'")
    return base in PORTAL_GENERIC_WORDS or base.removesuffix("s") in PORTAL_GENERIC_WORDS


def _split_terms(text: str, synonyms: Synonyms) -> tuple[str, ...]:
    normalized = normalize_text(text)
    user_segmented = len(normalized.split()) > 1
    words: list[str] = []
    for token in _TOKEN.findall(normalized):
        if _is_cjk(token) and not user_segmented:
            words.extend(_segment(token, synonyms))
        else:
            words.append(token)
    terms: list[str] = []
    keys: set[str] = set()
    for word in words:
        key = _lookup_key(word)
        if word in STOP_WORDS or key in STOP_WORDS or not key or key in keys:
            continue
        keys.add(key)
        terms.append(word)
    return tuple(terms)


def _term_regex(term: str, synonyms: Synonyms) -> re.Pattern[str]:
    """One regex for a term and all its variants.

    Latin variants share one pair of word-boundary assertions, so at a
    position inside a word the engine fails once instead of once per variant
    (the regex runs on every markdown block of every page). Within each
    script the longest variant comes first: the engine takes the first
    alternative that matches, so "hall of residence" wins over "residence".
    """
    variants = synonyms.variants(term)
    latin: list[tuple[str, str]] = []
    cjk: list[tuple[str, str]] = []
    for number, variant in enumerate(variants):
        pattern = _variant_pattern(variant, singularize=number == 0)
        (cjk if _is_cjk(variant) else latin).append((variant, pattern))
    alternatives = []
    if latin:
        latin.sort(key=lambda pair: -len(pair[0]))
        joined = "|".join(pattern for _, pattern in latin)
        alternatives.append(f"(?<!{_WORD_CHAR})(?:{joined})(?!{_WORD_CHAR})")
    cjk.sort(key=lambda pair: -len(pair[0]))
    alternatives.extend(pattern for _, pattern in cjk)
    return re.compile("|".join(alternatives))
