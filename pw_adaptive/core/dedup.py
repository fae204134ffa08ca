"""Content fingerprints: exact duplicates and near-duplicates.

Two URLs often serve the same content: print views, session variants that the
canonicalizer could not see, a listing sorted another way, an SPA that renders
its home page for any unknown route. The crawler compares the *main text* of
each rendered page (navigation and footer removed) with what it has seen:

- **exact duplicates**: the BLAKE2b hash of the normalised text is equal;
- **near-duplicates on long pages**: the 64-bit SimHash (Charikar 2002) of the
  page's word 3-shingles is within Hamming distance 3 of a seen page, the
  setting Manku, Jain and Das Sarma ("Detecting near-duplicates for web
  crawling", WWW 2007) validated on 8 billion pages; candidates are found with
  their pigeonhole band index instead of a scan;
- **near-duplicates on short pages**: SimHash is too coarse when a page has a
  few dozen words, so pages under `short_text_words` words compare the Jaccard
  similarity of their word sets (threshold 0.9), with prefix filtering
  (Bayardo, Ma and Srikant, "Scaling up all pairs similarity search", WWW 2007)
  so that only pages sharing a rare word are verified.

Soft-404 pages (error pages served with status 200) are recognised with the
same fingerprints by `pw_adaptive.core.soft404`.

Text is tokenised into words, except Han, kana and Hangul
(`pw_adaptive.text.scripts.CJK`): each such character is a token of its own,
so the 3-shingles of Chinese, Japanese or Korean text are character 3-grams.

Hashes are BLAKE2b digests, never Python's `hash()`, which is salted per
process: fingerprints must be comparable across runs and machines.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from hashlib import blake2b
from typing import Any, Literal

from pw_adaptive.text.normalize import normalize_main_text
from pw_adaptive.text.scripts import CJK

__all__ = [
    "DEDUP_STATE_VERSION",
    "DEFAULT_JACCARD_THRESHOLD",
    "DEFAULT_NEAR_THRESHOLD",
    "DEFAULT_SHORT_TEXT_WORDS",
    "ContentDeduper",
    "DedupMatch",
    "DedupSettings",
    "Fingerprint",
    "exact_fingerprint",
    "fingerprint",
    "hamming",
    "jaccard",
    "simhash64",
    "tokenize",
]

DEFAULT_NEAR_THRESHOLD = 3
"""Largest SimHash Hamming distance of a near-duplicate (Manku et al. 2007: k=3
for 64-bit fingerprints gave the best precision/recall on web pages)."""

DEFAULT_SHORT_TEXT_WORDS = 50
"""Pages with fewer tokens than this are compared by Jaccard instead of SimHash.
Under ~50 words one changed word moves a 3-shingle SimHash by more than 3 bits
about as often as not, so the Hamming test stops being reliable."""

DEFAULT_JACCARD_THRESHOLD = 0.9
"""Word-set Jaccard at or above which two short pages are near-duplicates: one
word changed on a 20-word page (19/21 = 0.905) still matches; two pages that
share a template but differ in a sentence do not."""

SHINGLE_SIZE = 3
"""Tokens per SimHash feature. Word 3-shingles keep word order (a reordered
page is a different page) without making every changed word flip too many
features; for CJK text they are character 3-grams."""

# Han, kana and Hangul characters are tokens of their own (Korean as Chinese
# and Japanese: a word's particles would otherwise make it another word).
_TOKEN_RE = re.compile(rf"[{CJK}]|[^\W{CJK}]+")

_FIELD_BITS = 32
"""Width of one bit counter in the packed SimHash accumulator (see
`_SPREAD`): counts up to 2**32 - 1 shingles per page, far beyond any page."""


def _spread_tables() -> tuple[tuple[int, ...], ...]:
    """Lookup tables that add one 64-bit hash to 64 packed counters at once.

    `_SPREAD[j][b]` has a 1 in the counter field of every set bit of byte
    value `b` at big-endian byte position `j` of the digest. Summing the
    OR of the eight looked-up values over all shingles yields the 64 per-bit
    counts in one big integer: 8 lookups per shingle instead of 64 bit tests,
    about twice as fast as column counting in pure Python.
    """
    base = []
    for value in range(256):
        spread = 0
        for bit in range(8):
            if value >> bit & 1:
                spread |= 1 << (_FIELD_BITS * bit)
        base.append(spread)
    return tuple(
        tuple(spread << (_FIELD_BITS * 8 * (7 - position)) for spread in base)
        for position in range(8)
    )


_SPREAD = _spread_tables()
_FIELD_MASK = (1 << _FIELD_BITS) - 1

MatchReason = Literal["duplicate", "near_duplicate"]

DEDUP_STATE_VERSION = 1
"""Version of the JSON form of `ContentDeduper.state` / `Soft404Detector.state`."""

_Recorded = tuple[str, str, int, frozenset[str] | None]
"""One recorded page: URL, exact fingerprint, SimHash, and its word set when
the page is in the short-page index (None otherwise)."""


def tokenize(text: str) -> list[str]:
    """Split normalised text into tokens: words, and single CJK characters.

    Punctuation is dropped. The input should already be normalised
    (`normalize_main_text(text, for_fingerprint=True)`); the result is not
    meaningful for raw text with mixed case or compatibility forms.
    """
    return _TOKEN_RE.findall(text)


def exact_fingerprint(text: str) -> str:
    """Hex BLAKE2b-128 digest of the normalised text (32 hex characters).

    Two texts have the same exact fingerprint when they are equal after
    `normalize_main_text(text, for_fingerprint=True)`, i.e. they differ at
    most in case, whitespace and Unicode compatibility forms.
    """
    normalized = normalize_main_text(text, for_fingerprint=True)
    return blake2b(normalized.encode("utf-8"), digest_size=16).hexdigest()


def _shingles(tokens: list[str]) -> set[str]:
    """Distinct `SHINGLE_SIZE`-token shingles; the whole text when shorter."""
    if len(tokens) < SHINGLE_SIZE:
        return {" ".join(tokens)} if tokens else set()
    return {" ".join(tokens[i : i + SHINGLE_SIZE]) for i in range(len(tokens) - SHINGLE_SIZE + 1)}


def _simhash_features(features: Iterable[str]) -> int:
    """SimHash of a set of features, each weighted 1 (Charikar 2002).

    Bit i of the result is 1 when more than half of the features' 64-bit
    BLAKE2b hashes have bit i set.
    """
    total = 0
    count = 0
    t0, t1, t2, t3, t4, t5, t6, t7 = _SPREAD
    for feature in features:
        d = blake2b(feature.encode("utf-8"), digest_size=8).digest()
        total += (
            t0[d[0]] | t1[d[1]] | t2[d[2]] | t3[d[3]] | t4[d[4]] | t5[d[5]] | t6[d[6]] | t7[d[7]]
        )
        count += 1
    result = 0
    for bit in range(64):
        if 2 * ((total >> (_FIELD_BITS * bit)) & _FIELD_MASK) > count:
            result |= 1 << bit
    return result


def simhash64(text: str) -> int:
    """64-bit SimHash of the text's distinct word 3-shingles.

    The text is normalised and tokenised first (CJK characters are tokens of
    their own, so CJK shingles are character 3-grams). Texts with fewer than
    three tokens hash as one feature; an empty text hashes to 0. Similar texts
    get fingerprints at a small Hamming distance; the value is stable across
    processes and platforms.
    """
    return _simhash_features(_shingles(tokenize(normalize_main_text(text, for_fingerprint=True))))


def hamming(a: int, b: int) -> int:
    """Number of differing bits between two fingerprints."""
    return (a ^ b).bit_count()


def jaccard(a: frozenset[str] | set[str], b: frozenset[str] | set[str]) -> float:
    """Jaccard similarity |a ∩ b| / |a ∪ b|; 1.0 for two empty sets."""
    if not a and not b:
        return 1.0
    common = len(a & b)
    return common / (len(a) + len(b) - common)


@dataclass(frozen=True, slots=True)
class Fingerprint:
    """Everything the near-duplicate tests need to know about one text."""

    exact: str
    """`exact_fingerprint` of the text."""
    simhash: int
    """`simhash64` of the text."""
    words: frozenset[str]
    """Distinct tokens, for the short-page Jaccard test."""
    word_count: int
    """Number of tokens (with repeats): decides short vs long."""


def fingerprint(text: str) -> Fingerprint:
    """Compute all fingerprints of `text` in one pass over its tokens."""
    normalized = normalize_main_text(text, for_fingerprint=True)
    tokens = tokenize(normalized)
    return Fingerprint(
        exact=blake2b(normalized.encode("utf-8"), digest_size=16).hexdigest(),
        simhash=_simhash_features(_shingles(tokens)),
        words=frozenset(tokens),
        word_count=len(tokens),
    )


@dataclass(frozen=True, slots=True)
class DedupMatch:
    """Why a text was recognised, and which earlier URL it matched."""

    reason: MatchReason
    """"duplicate" (same normalised text) or "near_duplicate"."""
    original_url: str
    """URL recorded with the earlier text."""
    similarity: float
    """1.0 for exact duplicates; 1 - distance/64 for SimHash matches; the
    Jaccard similarity for short pages."""


def _prefix_length(size: int, threshold: float) -> int:
    """Prefix-filter length: two sets with Jaccard >= threshold share at least
    one element among the first `size - ceil(threshold * size) + 1` elements of
    each, in any fixed global order (Bayardo et al. 2007, "All-Pairs").

    The epsilon keeps float error (0.9 * 10 = 9.000000000000002) from rounding
    the bound up, which would shorten the prefix and lose true matches.
    """
    return size - math.ceil(threshold * size - 1e-9) + 1


@dataclass(frozen=True)
class DedupSettings:
    """Thresholds of content dedup (``CrawlSettings.dedup``); see ``ContentDeduper``."""

    near_threshold: int = DEFAULT_NEAR_THRESHOLD
    """Largest SimHash Hamming distance (bits, 0-31) of a near-duplicate."""
    short_text_words: int = DEFAULT_SHORT_TEXT_WORDS
    """Pages with fewer tokens are compared by word-set Jaccard instead."""
    jaccard_threshold: float = DEFAULT_JACCARD_THRESHOLD
    """Jaccard, in (0, 1], at or above which two short pages are near-duplicates."""

    def __post_init__(self) -> None:
        ContentDeduper.check_thresholds(
            self.near_threshold, self.short_text_words, self.jaccard_threshold
        )


class ContentDeduper:
    """Recognises pages whose main text was already seen in this crawl.

    `check(url, text)` answers "duplicate" when the normalised text equals a
    recorded one, "near_duplicate" when it is close to one (SimHash within
    `near_threshold` bits for pages of at least `short_text_words` tokens;
    word-set Jaccard >= `jaccard_threshold` for shorter pages), else None, in
    which case the text is recorded under `url`. Duplicates are not recorded,
    so a chain of small edits cannot drift away from the first page one step
    at a time.

    Lookups are sub-linear: SimHash candidates come from a band index (the 64
    bits split into `near_threshold + 1` bands; by the pigeonhole principle two
    hashes within `near_threshold` bits agree exactly on at least one band),
    short-page candidates from a prefix-filter index. Memory: one fingerprint
    and one URL per recorded page, plus the word set of short pages.
    """

    def __init__(
        self,
        near_threshold: int = DEFAULT_NEAR_THRESHOLD,
        short_text_words: int = DEFAULT_SHORT_TEXT_WORDS,
        jaccard_threshold: float = DEFAULT_JACCARD_THRESHOLD,
    ) -> None:
        self.check_thresholds(near_threshold, short_text_words, jaccard_threshold)
        self.near_threshold = near_threshold
        self.short_text_words = short_text_words
        self.jaccard_threshold = jaccard_threshold
        bands = near_threshold + 1
        # Band boundaries over the 64 bits, as (shift, mask); widths differ by
        # at most one bit when 64 is not a multiple of the band count.
        edges = [round(64 * i / bands) for i in range(bands + 1)]
        self._bands = tuple((edges[i], (1 << (edges[i + 1] - edges[i])) - 1) for i in range(bands))
        self._exact: dict[str, str] = {}
        self._simhashes: list[tuple[int, str]] = []
        self._band_index: tuple[dict[int, list[int]], ...] = tuple({} for _ in range(bands))
        self._short: list[tuple[frozenset[str], str]] = []
        self._short_index: dict[str, list[int]] = {}
        # Word sets larger than this cannot reach the Jaccard threshold with a
        # short page (|A| < short_text_words needs |B| <= |A| / threshold).
        self._short_index_limit = short_text_words / jaccard_threshold
        # Every recorded page in order, for `state` (the word sets are the
        # same objects as in `_short`: no copy).
        self._recorded: list[_Recorded] = []

    @staticmethod
    def check_thresholds(
        near_threshold: int, short_text_words: int, jaccard_threshold: float
    ) -> None:
        """``ValueError`` for thresholds no deduper can use."""
        if not 0 <= near_threshold < 32:
            raise ValueError(f"near_threshold must be in [0, 31], got {near_threshold}")
        if not 0.0 < jaccard_threshold <= 1.0:
            raise ValueError(f"jaccard_threshold must be in (0, 1], got {jaccard_threshold}")
        if short_text_words < 0:
            raise ValueError(f"short_text_words must be >= 0, got {short_text_words}")

    @classmethod
    def from_settings(cls, settings: DedupSettings) -> ContentDeduper:
        """A deduper with ``settings``' thresholds."""
        return cls(settings.near_threshold, settings.short_text_words, settings.jaccard_threshold)

    def __len__(self) -> int:
        """Number of recorded (distinct) pages."""
        return len(self._exact)

    def check(self, url: str, text: str) -> MatchReason | None:
        """Classify `text`; record it under `url` when it is new."""
        fp = fingerprint(text)
        found = self.match_fingerprint(fp)
        if found is None:
            self.add_fingerprint(url, fp)
            return None
        return found.reason

    def match(self, text: str) -> DedupMatch | None:
        """Like `check` but records nothing, and says which URL matched."""
        return self.match_fingerprint(fingerprint(text))

    def match_fingerprint(self, fp: Fingerprint) -> DedupMatch | None:
        """Find a recorded page that `fp` duplicates; exact matches first.

        A long page (`word_count >= short_text_words`) is compared by SimHash
        with every recorded page; a short one by word-set Jaccard with every
        recorded page whose word set is small enough to reach the threshold.
        Among several near matches the most similar wins.
        """
        original = self._exact.get(fp.exact)
        if original is not None:
            return DedupMatch("duplicate", original, 1.0)
        if fp.word_count < self.short_text_words:
            return self._match_short(fp.words)
        best: DedupMatch | None = None
        seen: set[int] = set()
        for (shift, mask), index in zip(self._bands, self._band_index, strict=True):
            for i in index.get((fp.simhash >> shift) & mask, ()):
                if i in seen:
                    continue
                seen.add(i)
                other, other_url = self._simhashes[i]
                distance = hamming(fp.simhash, other)
                if distance <= self.near_threshold:
                    similarity = 1.0 - distance / 64
                    if best is None or similarity > best.similarity:
                        best = DedupMatch("near_duplicate", other_url, similarity)
        return best

    def _match_short(self, words: frozenset[str]) -> DedupMatch | None:
        """Best short-page match by word-set Jaccard, via the prefix index."""
        size = len(words)
        prefix = sorted(words)[: _prefix_length(size, self.jaccard_threshold)]
        candidates: set[int] = set()
        for word in prefix:
            candidates.update(self._short_index.get(word, ()))
        best: DedupMatch | None = None
        for i in candidates:
            other, other_url = self._short[i]
            similarity = jaccard(words, other)
            if similarity >= self.jaccard_threshold and (
                best is None or similarity > best.similarity
            ):
                best = DedupMatch("near_duplicate", other_url, similarity)
        return best

    def add(self, url: str, text: str) -> None:
        """Record `text` under `url` without checking it."""
        self.add_fingerprint(url, fingerprint(text))

    def add_fingerprint(self, url: str, fp: Fingerprint) -> None:
        """Record a fingerprint under `url` (first URL wins for an exact text)."""
        words = fp.words if len(fp.words) < self._short_index_limit and fp.words else None
        self._record(url, fp.exact, fp.simhash, words)

    def _record(self, url: str, exact: str, simhash: int, words: frozenset[str] | None) -> None:
        self._exact.setdefault(exact, url)
        i = len(self._simhashes)
        self._simhashes.append((simhash, url))
        for (shift, mask), index in zip(self._bands, self._band_index, strict=True):
            index.setdefault((simhash >> shift) & mask, []).append(i)
        if words is not None:
            j = len(self._short)
            self._short.append((words, url))
            for word in sorted(words)[: _prefix_length(len(words), self.jaccard_threshold)]:
                self._short_index.setdefault(word, []).append(j)
        self._recorded.append((url, exact, simhash, words))

    @property
    def recorded(self) -> int:
        """Number of `add_fingerprint` calls so far (the length of `state()`)."""
        return len(self._recorded)

    def state(self, start: int = 0) -> list[list[Any]]:
        """The pages recorded from the `start`-th on, as JSON-able rows.

        Each row is `[url, exact, simhash, words]`: the exact fingerprint, the
        SimHash as an integer, and the sorted word list of a page small
        enough for the short-page index (null otherwise). Only what the tests
        need is kept, so a row costs a few dozen bytes for a long page.
        `state(n)` is what was recorded since `recorded` was `n`: a
        checkpoint stores the rows incrementally and passes them all, in
        order, to `restore`.
        """
        return [
            [url, exact, simhash, None if words is None else sorted(words)]
            for url, exact, simhash, words in self._recorded[start:]
        ]

    def restore(self, rows: Iterable[list[Any]]) -> None:
        """Record the rows of `state` again, in order, after what is recorded.

        A deduper restored from the rows of another answers `check` and
        `match` exactly as that one did. Use the same thresholds: the
        short-page index keeps the word lists the saving deduper chose.
        Raises ValueError for a malformed row.
        """
        for row in rows:
            try:
                url, exact, simhash, words = row
                self._record(
                    str(url),
                    str(exact),
                    int(simhash),
                    None if words is None else frozenset(str(w) for w in words),
                )
            except (TypeError, ValueError) as exc:
                raise ValueError(f"malformed deduplication state row: {row!r}") from exc
