"""Text handling per language: scripts, segmentation, normalisation, detection.

What the core needs to compare a query with pages written in any language a
university writes in. Language knowledge comes from maintained packages
(jieba, janome, pythainlp, opencc, snowballstemmer, stopwordsiso, py3langid)
and from ``data/languages.json``; none of it is typed into the code.
"""

from pw_adaptive.text.lang import detect_language, detect_query_language
from pw_adaptive.text.languages import LANGUAGES, phrases, stop_words
from pw_adaptive.text.normalize import fold
from pw_adaptive.text.segment import segment_run, tokens, word_count

__all__ = [
    "LANGUAGES",
    "detect_language",
    "detect_query_language",
    "fold",
    "phrases",
    "segment_run",
    "stop_words",
    "tokens",
    "word_count",
]
