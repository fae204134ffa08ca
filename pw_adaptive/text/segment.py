"""Splitting text into words, for every script.

A *token* is a run of an unspaced script (Han, kana, Thai, ...) or a word of
a spaced script: letters, digits and combining marks, with inner apostrophes
or hyphens ("master's", "part-time", "छात्रावास"). Unspaced runs are split
into words by a segmenter per language, loaded on first use:

* Chinese: ``jieba`` (Traditional text is converted to Simplified with
  ``opencc`` for segmentation, and the pieces are cut from the original);
* Japanese: ``janome`` (pure Python, dictionary in the wheel);
* Thai: ``pythainlp``'s ``newmm`` with its bundled dictionary.

Korean is spaced, but a word (an *eojeol*) is a stem with particles and
endings glued on. A query's Korean words are analysed with ``kiwipiepy``
(Kiwi, model in its wheel) into their content part: the noun in "과제랑"
("과제"), "등록하는" ("등록"); predicates, adverbs and pronouns ("되나요",
"알려주세요", "어떻게") have none (:func:`korean_content`). Without Kiwi, a
known particle is cut from the end (``normalize.strip_particles``).

Vietnamese is spaced by syllable: a word of several syllables ("hệ điều
hành", operating system; "tài liệu", documents) is several tokens, each of
which alone means something else. A query's runs of syllables that the
lexicon does not join are cut into words by ``pyvi`` (a CRF model in its
wheel; :func:`vietnamese_words`). Without it, every such syllable is a word
of its own.

Only queries are segmented: pages are matched with patterns that need no
segmentation (see :mod:`pw_adaptive.core.query`), so the segmenters' cost is paid
once per query, never per page. When a segmenter's package is missing the run
is split where the script changes (kanji / kana) or kept whole.
"""

from __future__ import annotations

import functools
import logging
import marshal
import re
import tempfile
import threading
from pathlib import Path
from typing import Any, Final

from pw_adaptive.text.normalize import strip_particles
from pw_adaptive.text.scripts import HAN, KANA, UNSPACED, WORD, WORD_RUN

__all__ = ["korean_content", "segment_run", "tokens", "vietnamese_words", "word_count"]

_TOKEN: Final = re.compile(f"[{UNSPACED}]+|{WORD}+(?:['’\\-]{WORD}+)*")
_SPACED_WORD: Final = re.compile(WORD_RUN)
# ASCII text has no marks and no unspaced script: the plain word class is
# several times faster than the full one on the long bodies relevance counts.
_ASCII_WORD: Final = re.compile(r"[^\W_]+")
_UNSPACED_CHAR: Final = re.compile(f"[{UNSPACED}]")
_SCRIPT_RUN: Final = re.compile(f"[{HAN}]+|[{KANA}]+|[^{HAN}{KANA}]+")
# Words of unspaced scripts average about two characters (Chinese, Japanese
# kanji compounds); Thai words are longer, but two keeps one rule for all.
_UNSPACED_CHARS_PER_WORD: Final = 2.0

_log = logging.getLogger(__name__)


def tokens(text: str) -> list[str]:
    """The tokens of ``text`` (already folded), in order; see the module doc."""
    return _TOKEN.findall(text)


def word_count(text: str) -> float:
    """Length of ``text`` in words: spaced-script words plus unspaced characters / 2."""
    if text.isascii():
        return float(len(_ASCII_WORD.findall(text)))
    unspaced = len(_UNSPACED_CHAR.findall(text))
    return len(_SPACED_WORD.findall(text)) + unspaced / _UNSPACED_CHARS_PER_WORD


@functools.cache
def _jieba() -> Any:
    """A private jieba tokenizer (the user's global one and its custom
    dictionaries stay apart), loaded once: about 0.3 s from jieba's cache,
    1.5-2 s the first time on a machine (jieba then builds the cache)."""
    import jieba

    logging.getLogger("jieba").setLevel(logging.WARNING)
    tokenizer = jieba.Tokenizer()
    if not _load_jieba_cache(tokenizer):
        tokenizer.initialize()
    return tokenizer


def _load_jieba_cache(tokenizer: Any) -> bool:
    """Fill ``tokenizer``'s prefix table from jieba's own cache of its default
    dictionary, read in one piece; False (nothing changed) when there is no
    usable cache, and jieba's ``initialize`` then loads or builds it.

    jieba reads the same file with ``marshal.load`` on the open file, which
    reads it a few bytes at a time: about 1 s in a fresh process, against
    0.3 s for ``marshal.loads`` of its bytes (9 MB, 500,000 entries). The
    file's place and form are jieba's (``Tokenizer.initialize``): the
    temporary directory's ``jieba.cache``, a marshalled (table, total) pair.
    """
    import jieba

    if tokenizer.dictionary != jieba.DEFAULT_DICT or tokenizer.cache_file or tokenizer.tmp_dir:
        return False
    try:
        data = (Path(tempfile.gettempdir()) / "jieba.cache").read_bytes()
        table, total = marshal.loads(data)
    except (OSError, ValueError, EOFError, TypeError):
        return False
    if not isinstance(table, dict) or not table or not isinstance(total, int) or total <= 0:
        return False
    tokenizer.FREQ, tokenizer.total, tokenizer.initialized = table, total, True
    return True


@functools.cache
def _to_simplified() -> Any:
    import opencc

    return opencc.OpenCC("t2s")


@functools.cache
def _janome() -> Any | None:
    try:
        from janome.tokenizer import Tokenizer
    except ImportError:
        _log.warning("janome is not installed: Japanese queries are split by script only")
        return None
    return Tokenizer(wakati=True)


@functools.cache
def _thai() -> Any | None:
    try:
        from pythainlp.tokenize import word_tokenize
    except ImportError:
        _log.warning("pythainlp is not installed: Thai queries are not segmented")
        return None
    return word_tokenize


_KIWI_LOCK: Final = threading.Lock()
"""Kiwi is loaded once and analyses one word at a time: crawls of one process
parse their queries in their own threads, and kiwipiepy does not document
its analyser as safe to share."""


@functools.cache
def _kiwi() -> Any | None:
    """Kiwi, loaded once (about 1.3 s with its first analysis), or None when
    kiwipiepy is not installed.

    Without its dictionary of multi-word expressions: the query is analysed
    one word at a time, so those entries never match, and reading them took
    more than half of the load (3.1 s with them). The content part of each
    of 12,131 distinct Korean words of a real site (chu-os2024) is the same
    either way."""
    try:
        from kiwipiepy import Kiwi
    except ImportError:
        _log.warning("kiwipiepy is not installed: Korean query words lose known particles only")
        return None
    return Kiwi(load_multi_dict=False)


# Kiwi's (Sejong) tags of the morphemes that name something: common, proper
# and numeral nouns, roots, foreign words, Chinese characters and numbers, a
# noun prefix or suffix, and a bound noun after one of these ("5 퍼센트").
_KOREAN_CONTENT: Final = frozenset(
    {"NNG", "NNP", "NR", "XR", "SL", "SH", "SN", "XPN", "XSN", "NNB"}
)
# A word that starts with one of these has no content part: a bound noun
# alone ("법" in "등록하는 법", how to register), a pronoun, a number word.
_KOREAN_NOT_FIRST: Final = frozenset({"NNB", "NP", "NR", "XSN"})


def korean_content(word: str) -> str | None:
    """The content part of a Korean query word: its leading run of noun-like
    morphemes (``_KOREAN_CONTENT``), as written ("스케줄링에서" ->
    "스케줄링", "지원해야" -> "지원"); None for a word that has none (a
    predicate, adverb or pronoun: "되나요", "막는", "어떻게"). When Kiwi is
    not installed or cannot say, ``word`` without a known trailing particle
    (``normalize.strip_particles``: "기숙사를" -> "기숙사")."""
    with _KIWI_LOCK:
        kiwi = _kiwi()
        morphemes = kiwi.tokenize(word) if kiwi is not None else None
    if not morphemes:
        return strip_particles(word, "ko")
    first = morphemes[0].tag.split("-")[0]
    if first not in _KOREAN_CONTENT or first in _KOREAN_NOT_FIRST:
        return None
    end = 0
    for morpheme in morphemes:
        if morpheme.tag.split("-")[0] not in _KOREAN_CONTENT:
            break
        end = morpheme.start + morpheme.len
    return word[:end]


_PYVI_LOCK: Final = threading.Lock()
"""pyvi's tokenizer is loaded once and does not document itself as safe to
share between threads (crawls of one process parse their queries in their
own threads)."""


@functools.cache
def _pyvi() -> Any | None:
    """pyvi's ``ViTokenizer.tokenize`` (about 1.3 s to load), or None when
    pyvi is not installed."""
    try:
        from pyvi import ViTokenizer
    except ImportError:
        _log.warning("pyvi is not installed: Vietnamese syllables are not joined into words")
        return None
    except Exception as exc:  # its pickled model, unreadable by another scikit-learn
        _log.warning("pyvi could not load (%s): Vietnamese syllables are not joined", exc)
        return None
    return ViTokenizer.tokenize


def vietnamese_words(syllables: list[str]) -> list[int]:
    """For each of ``syllables`` (Vietnamese, in order), the number of the word
    pyvi's segmenter puts it in, counted from 0: ["thực", "tập", "ở", "công",
    "ty"] -> [0, 0, 1, 2, 2]. The segmenter reads the syllables as one text:
    it cuts better with the whole question as its context. Without pyvi, or
    when its words do not rebuild the syllables, every syllable is a word of
    its own."""
    alone = list(range(len(syllables)))
    if len(syllables) < 2:
        return alone
    with _PYVI_LOCK:
        segment = _pyvi()
        try:
            text = segment(" ".join(syllables)) if segment is not None else None
        except Exception:  # a segmenter's failure costs the query its words, not the crawl
            _log.warning("pyvi failed on a query: its syllables are not joined", exc_info=True)
            text = None
    if not text:
        return alone
    pieces = [piece.split("_") for piece in text.split()]
    if [syllable for piece in pieces for syllable in piece] != syllables:
        return alone  # the segmenter changed the text: trust none of it
    return [n for n, piece in enumerate(pieces) for _ in piece]


def _cut_like(original: str, pieces: list[str]) -> list[str]:
    """Cut ``original`` into pieces of the same lengths as ``pieces``."""
    out, start = [], 0
    for piece in pieces:
        out.append(original[start : start + len(piece)])
        start += len(piece)
    return out


def segment_run(run: str, lang: str) -> list[str]:
    """Split an unspaced run into words with the segmenter of ``lang`` ("zh",
    "ja", "th"; other languages: by the run's script)."""
    if lang == "ja":
        janome = _janome()
        if janome is not None:
            return [str(piece) for piece in janome.tokenize(run) if str(piece).strip()]
        return _SCRIPT_RUN.findall(run)
    if lang == "th":
        thai = _thai()
        if thai is not None:
            return [p for p in thai(run, engine="newmm", keep_whitespace=False) if p.strip()]
        return [run]
    if _UNSPACED_CHAR.search(run) is None or not re.search(f"[{HAN}]", run):
        return [run]
    simplified = _to_simplified().convert(run)
    pieces = [p for p in _jieba().lcut(simplified) if p.strip()]
    if len(simplified) == len(run) and "".join(pieces) == simplified:
        return _cut_like(run, pieces)
    return pieces
