"""Stemmers, memoized: Porter exactly as rouge_score applies it, Snowball, and XL-Sum's own.

- Porter: NLTK's, as rouge_score builds it.
- Snowball: NLTK's (``nltk.stem.snowball``) for its 15 languages, so existing numbers stay; the
  ``snowballstemmer`` package (the Snowball project's own Python output, pure Python) for the
  Snowball languages NLTK lacks (Czech, Greek, Estonian, Polish, Indonesian, Tamil, Serbian,
  Nepali, Persian).
- XL-Sum's stemmers (its ``multilingual_rouge_scoring``): the rule-based Hindi stemmer of
  Ramanathan & Rao (2003), Rafi Kamal's rule-based Bengali stemmer (the ``bengali-stemmer``
  package XL-Sum installs from its repository), and the ``TurkishStemmer`` package.

rouge_score stems every token of every text every time, which dominates its run time on English.
The stem of a word never changes, so one process-wide dictionary per stemmer makes the cost once
per distinct word.  Snowball stemmers follow the same rule as Porter (tokens of 4+ characters),
which is also what the XL-Sum fork of rouge_score (``multilingual-rouge``) does, so its stemmed
numbers can be reproduced.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, lru_cache

from rouge_lcs.base.records import record

TYPE_CHECKING = False  # not typing's: importing typing costs ~5 ms (see rouge_lcs.base.records)
if TYPE_CHECKING:
    from typing import Any

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


@record
class Stemmer:
    """A named stemmer: ``stem`` maps one token, ``stem_all`` a token list (both memoized).

    ``package`` is the PyPI package whose version the signature adds to the name (``""``: the
    rules are this library's, versioned by its own version)."""

    name: str
    stem: Callable[[str], str]
    stem_all: Callable[[list[str]], list[str]]
    package: str = "nltk"

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


#: The Snowball languages NLTK has (``SnowballStemmer.languages`` less ``porter``), written out so
#: that choosing a stemmer does not import NLTK.
NLTK_SNOWBALL = frozenset(
    [
        "arabic",
        "danish",
        "dutch",
        "english",
        "finnish",
        "french",
        "german",
        "hungarian",
        "italian",
        "norwegian",
        "portuguese",
        "romanian",
        "russian",
        "spanish",
        "swedish",
    ]
)


@cache
def snowball(language: str) -> Stemmer:
    """The Snowball stemmer for ``language`` (e.g. ``"french"``), memoized, applied to tokens of
    4+ characters like Porter: NLTK's where NLTK has the language, else the snowballstemmer
    package's.  Pure Python, no data download."""
    if language in NLTK_SNOWBALL:
        from nltk.stem.snowball import SnowballStemmer

        stem_one, stem_many = _memoized(SnowballStemmer(language).stem)
        return Stemmer(f"snowball-{language}", stem_one, stem_many)
    try:
        import snowballstemmer
    except ImportError as error:
        from rouge_lcs.base.install import package_command

        raise ImportError(
            f"use_stemmer: the {language} Snowball stemmer needs snowballstemmer: "
            f"{package_command('snowballstemmer')}"
        ) from error
    if language not in snowballstemmer.algorithms():
        raise ValueError(f"no Snowball stemmer for {language!r}")
    stem_one, stem_many = _memoized(snowballstemmer.stemmer(language).stemWord)
    return Stemmer(f"snowball-{language}", stem_one, stem_many, "snowballstemmer")


# ---- XL-Sum's stemmers ----------------------------------------------------------------------

# Hindi suffixes by length (Ramanathan & Rao, "A Lightweight Stemmer for Hindi", 2003), as
# XL-Sum's HindiStemmer lists them: the longest suffix that leaves 2+ characters is removed.
HINDI_SUFFIXES: dict[int, tuple[str, ...]] = {
    5: ("ाएंगी", "ाएंगे", "ाऊंगी", "ाऊंगा", "ाइयाँ", "ाइयों", "ाइयां"),
    4: (
        "ाएगी", "ाएगा", "ाओगी", "ाओगे", "एंगी", "ेंगी", "एंगे", "ेंगे", "ूंगी", "ूंगा", "ातीं",
        "नाओं", "नाएं", "ताओं", "ताएं", "ियाँ", "ियों", "ियां",
    ),
    3: (
        "ाकर", "ाइए", "ाईं", "ाया", "ेगी", "ेगा", "ोगी", "ोगे", "ाने", "ाना", "ाते", "ाती",
        "ाता", "तीं", "ाओं", "ाएं", "ुओं", "ुएं", "ुआं",
    ),
    2: (
        "कर", "ाओ", "िए", "ाई", "ाए", "ने", "नी", "ना", "ते", "ीं", "ती", "ता", "ाँ", "ां",
        "ों", "ें",
    ),
    1: ("ो", "े", "ू", "ु", "ी", "ि", "ा"),
}  # fmt: skip


def hindi_stem(word: str) -> str:
    """XL-Sum's Hindi stemmer on one word."""
    for length in (5, 4, 3, 2, 1):
        if len(word) > length + 1:
            for suffix in HINDI_SUFFIXES[length]:
                if word.endswith(suffix):
                    return word[:-length]
    return word


# Rafi Kamal's Bengali rules (bengali-stemmer, rafikamal2014/common.rules, MIT License,
# (c) 2017 BanglaKit Project Contributors), in file order: per group, (suffix, replacement or
# None).  In a group the first suffix the word ends with is removed (a replacement overwrites the
# suffix's first characters, "." keeping a character), if a letter other than a vowel sign stays.
# The two rules with a "." in the suffix never match: the original compares it literally too.
# The rules with য় are written as XL-Sum's rule file writes them, precomposed (U+09DF), which
# Unicode normalization (NFC and NFKC alike) decomposes into য + nukta: on normalized text, the
# tokens here and the text users have, XL-Sum's rules never remove য়-suffixes, and neither do
# these ("হয়েছে" keeps its ending, as in XL-Sum).
BENGALI_RULES: tuple[tuple[tuple[str, str | None], ...], ...] = (
    (("ই", None), ("ও", None), ("তো", None)),
    (("কে", None), ("তে", None), ("রা", None)),
    (
        ("চ্ছি", None), ("চ্ছিল", None), ("চ্ছে", None), ("চ্ছিস", None), ("চ্ছিলেন", None),
        ("চ্ছ", None), ("\u09dfেছে", None), ("েছ", None), ("েছে", None), ("েছেন", None),
        ("রছ", "র"), ("রব", "র"), ("েল", None), ("েলো", None), ("ও\u09dfা", None),
        ("ে\u09dfে", "া"), ("\u09df", None), ("\u09dfে", None), ("\u09dfেছিল", None),
        ("ে\u09dfেছিল", "া"), ("েছিল", None),
        ("ে\u09dfেছিলেন", "া"), ("ে.েছিলেন", "া."), ("েছিলেন", None), ("লেন", None), ("দের", None),
        ("ে.ে", "া."), ("ের", None), ("ার", None), ("েন", None), ("বেন", None), ("িস", None),
        ("ছিস", None), ("ছিলি", None), ("ছি", None), ("ছে", None), ("লি", None), ("বি", None),
        ("ে", None),
    ),
    (
        ("টি", None), ("টির", None), ("েরটা", None), ("েরটার", None), ("টা", None),
        ("টার", None), ("গুলো", None), ("গুলোর", None), ("েরগুলো", None), ("েরগুলোর", None),
    ),
)  # fmt: skip
_BENGALI_VOWEL_SIGNS = frozenset("ািীেুূো")


def bengali_stem(word: str) -> str:
    """Rafi Kamal's Bengali stemmer (XL-Sum's) on one word."""
    for group in BENGALI_RULES:
        for suffix, replacement in group:
            if not word.endswith(suffix):
                continue
            index = len(word) - len(suffix)
            if replacement is not None:
                chars = list(word)
                for offset, char in enumerate(replacement):
                    if char != ".":
                        chars[index + offset] = char
                word = "".join(chars[: index + len(replacement)])
            elif any(c not in _BENGALI_VOWEL_SIGNS for c in word[:index]):
                word = word[:index]
            break
    return word


def _turkish() -> Callable[[str], str]:
    try:
        from TurkishStemmer import TurkishStemmer
    except ImportError as error:
        from rouge_lcs.base.install import install_command

        raise ImportError(
            "use_stemmer: the Turkish stemmer (XL-Sum's) needs TurkishStemmer: "
            f"{install_command('tr')}"
        ) from error
    stemmer: Any = TurkishStemmer()
    return stemmer.stem


@cache
def xlsum_stemmer(language: str) -> Stemmer:
    """XL-Sum's stemmer for ``"hindi"``, ``"bengali"`` or ``"turkish"``, memoized, on tokens of
    4+ characters (XL-Sum's ``MultiStemmer`` rule, the same as Porter's)."""
    if language == "turkish":
        stem_one, stem_many = _memoized(_turkish())
        return Stemmer("turkish", stem_one, stem_many, "TurkishStemmer")
    raw = {"hindi": hindi_stem, "bengali": bengali_stem}[language]
    stem_one, stem_many = _memoized(raw)
    return Stemmer(f"{language}-xlsum", stem_one, stem_many, "")


def stemmer_for(key: str) -> Stemmer:
    """The stemmer a :class:`rouge_lcs.text.languages.Language` names (its ``stemmer``)."""
    if key == "porter":
        return PORTER
    if key in ("hindi", "bengali", "turkish"):
        return xlsum_stemmer(key)
    return snowball(key)


def stemmer_named(name: str) -> Stemmer:
    """The stemmer called ``name`` (a :class:`Stemmer`'s ``name``)."""
    if name == "porter":
        return PORTER
    if name.startswith("snowball-"):
        return snowball(name.removeprefix("snowball-"))
    return xlsum_stemmer(name.removesuffix("-xlsum"))
