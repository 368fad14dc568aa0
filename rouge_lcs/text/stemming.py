"""Stemmers, memoized: Porter exactly as rouge_score applies it, and NLTK's Snowball stemmers.

rouge_score stems every token of every text every time, which dominates its run time on English.
The stem of a word never changes, so one process-wide dictionary per stemmer makes the cost once
per distinct word.  Snowball stemmers follow the same rule as Porter (tokens of 4+ characters),
which is also what the XL-Sum fork of rouge_score (``multilingual-rouge``) does, so its stemmed
numbers can be reproduced.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache

#: rouge_score stems only tokens of at least this many characters (``len(token) > 3``).
MIN_STEM_CHARS = 4

_CACHE: dict[str, str] = {}
#: The memo starts afresh past this many words (~50 MB), so a long-running process (a Space, a
#: training job) that meets ever new words does not grow without bound.
CACHE_LIMIT = 1 << 18


@lru_cache(maxsize=1)
def _porter() -> Callable[[str], str]:
    # Imported on first use: NLTK costs ~0.3 s to import, and most calls never stem.
    from nltk.stem import porter

    # rouge_score builds ``porter.PorterStemmer()``: NLTK's default mode (NLTK_EXTENSIONS),
    # which keeps "they" and "money" whole where the original algorithm gives "thei", "monei".
    return porter.PorterStemmer().stem


def stem(token: str) -> str:
    """Return the Porter stem of ``token`` (rouge_score's rule: only tokens of 4+ characters).

    Porter works on lowercase words and NLTK lowercases what it stems, so every token is
    lowercased, short ones too: with a case-keeping tokenizer, "The" and "the" must not differ
    while "Apple" and "apple" (stemmed to "appl") are equal.  Tokens of the built-in lowercasing
    tokenizers are unchanged by this, so rouge_score's numbers are too.
    """
    try:
        return _CACHE[token]
    except KeyError:
        lowered = token.lower()
        stemmed = _porter()(lowered) if len(lowered) >= MIN_STEM_CHARS else lowered
        if len(_CACHE) >= CACHE_LIMIT:
            _CACHE.clear()
        _CACHE[token] = stemmed
        return stemmed


def stem_all(tokens: list[str]) -> list[str]:
    """Stem a token list, reading the memo first (the common case, so it is inlined)."""
    cache = _CACHE
    out: list[str] = []
    append = out.append
    for token in tokens:
        stemmed = cache.get(token)
        append(stemmed if stemmed is not None else stem(token))
    return out


@dataclass(frozen=True)
class Stemmer:
    """A named stemmer: ``stem`` maps one token, ``stem_all`` a token list (both memoized)."""

    name: str
    stem: Callable[[str], str]
    stem_all: Callable[[list[str]], list[str]]

    def __reduce__(self) -> tuple[Callable[[str], Stemmer], tuple[str]]:
        # Pickled by name (spawned worker processes rebuild it): the memo closures cannot be.
        return stemmer_named, (self.name,)


#: rouge_score's stemmer; its functions are the module-level ones above, unchanged.
PORTER = Stemmer("porter", stem, stem_all)


def _memoized(
    raw: Callable[[str], str],
) -> tuple[Callable[[str], str], Callable[[list[str]], list[str]]]:
    cache: dict[str, str] = {}

    def stem_one(token: str) -> str:
        try:
            return cache[token]
        except KeyError:
            lowered = token.lower()
            stemmed = raw(lowered) if len(lowered) >= MIN_STEM_CHARS else lowered
            if len(cache) >= CACHE_LIMIT:
                cache.clear()
            cache[token] = stemmed
            return stemmed

    def stem_many(tokens: list[str]) -> list[str]:
        get = cache.get
        return [s if (s := get(t)) is not None else stem_one(t) for t in tokens]

    return stem_one, stem_many


@cache
def snowball(language: str) -> Stemmer:
    """NLTK's Snowball stemmer for ``language`` (an NLTK name such as ``"french"``), memoized,
    applied to tokens of 4+ characters like Porter.  Pure Python, no data download."""
    from nltk.stem.snowball import SnowballStemmer

    if language not in SnowballStemmer.languages:
        raise ValueError(f"no Snowball stemmer for {language!r}")
    stem_one, stem_many = _memoized(SnowballStemmer(language).stem)
    return Stemmer(f"snowball-{language}", stem_one, stem_many)


def stemmer_named(name: str) -> Stemmer:
    """The stemmer called ``name`` (``porter`` or ``snowball-<language>``)."""
    if name == "porter":
        return PORTER
    return snowball(name.removeprefix("snowball-"))
