"""Porter stemming exactly as rouge_score applies it, memoized.

rouge_score stems every token of every text every time, which dominates its run time on English.
The stem of a word never changes, so one process-wide dictionary makes the cost once per
distinct word.
"""

from __future__ import annotations

from nltk.stem import porter

#: rouge_score only stems tokens longer than this many characters.
MIN_STEM_LENGTH = 3

# rouge_score builds ``porter.PorterStemmer()``: NLTK's default mode (NLTK_EXTENSIONS), which
# for example keeps "they" and "money" whole where the original algorithm gives "thei", "monei".
_STEMMER = porter.PorterStemmer()
_CACHE: dict[str, str] = {}


def stem(token: str) -> str:
    """Return the Porter stem of ``token`` (rouge_score's rule: only tokens longer than 3 chars)."""
    try:
        return _CACHE[token]
    except KeyError:
        stemmed = _STEMMER.stem(token) if len(token) > MIN_STEM_LENGTH else token
        _CACHE[token] = stemmed
        return stemmed


def stem_all(tokens: list[str]) -> list[str]:
    """Stem a token list, reading the memo first (the common case, so it is inlined)."""
    cache = _CACHE
    out = []
    append = out.append
    for token in tokens:
        stemmed = cache.get(token)
        append(stemmed if stemmed is not None else stem(token))
    return out
