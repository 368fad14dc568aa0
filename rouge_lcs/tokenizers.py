"""Tokenizers: a small registry of named tokenizers plus adapters for user-supplied ones.

Every tokenizer is a function ``str -> list[str]``. ``resolve_tokenizer`` turns whatever the user
passed (``None``, a registry name, a callable, or an object with ``.tokenize``) into such a
function, with stemming applied on top when asked, and a ``name`` used in the signature.

- ``unicode`` (default): NFKC, lowercase, tokens are runs of Unicode letters, combining marks and
  digits; every CJK ideograph and kana character is a token of its own (as BERT's basic
  tokenizer does); Hangul words stay whole. On ASCII text it yields exactly rouge_score's tokens.
- ``rouge_score``: rouge_score's default tokenizer, reimplemented byte for byte (lowercase, every
  run of characters outside ``[a-z0-9]`` is a separator), for reproducing published numbers.
- ``whitespace``: ``str.split()``, case kept, as in textbook exercises.
- ``char``: one token per letter or digit (grapheme cluster), NFKC, lowercase; the unit of
  character-level ROUGE for Chinese.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

import regex

from rouge_lcs.stemming import stem_all

TokenizeFn = Callable[[str], list[str]]

# One token per CJK ideograph / kana character; otherwise maximal runs of letters, marks and
# numbers.  Marks are kept inside words so that scripts such as Devanagari or Thai, whose vowel
# signs are combining marks, are not cut into pieces.
_CJK = r"\p{Han}\p{Hiragana}\p{Katakana}"
_UNICODE_TOKEN = regex.compile(rf"[{_CJK}]|[[\p{{L}}\p{{M}}\p{{N}}]--[{_CJK}]]+", regex.V1)
_ASCII_TOKEN = re.compile(r"[a-z0-9]+")
# Invisible characters that join or glue letters inside a word (ZWNJ, ZWJ, word joiner, soft
# hyphen, zero-width no-break space).  They are format characters, not letters, so they would
# cut "می‌خواهم" (Persian) or "क्‍ष" (Devanagari) in two; they change how a word
# is drawn, not which word it is, so they are removed.  The zero-width space (U+200B), a word
# boundary in Thai or Khmer text, still separates.
JOINERS = dict.fromkeys(map(ord, "\u200c\u200d\u2060\u00ad\ufeff"))


def unicode_tokenize(text: str) -> list[str]:
    """Unicode-aware word tokens: NFKC + lowercase, CJK characters split one by one."""
    lowered = text.lower()
    if lowered.isascii():
        # NFKC leaves ASCII unchanged; the stdlib regex is ~3x faster than `regex`.
        return _ASCII_TOKEN.findall(lowered)
    normalized = unicodedata.normalize("NFKC", text).lower().translate(JOINERS)
    return _UNICODE_TOKEN.findall(normalized)


# A user-perceived character (extended grapheme cluster) that starts with a letter or digit:
# a Hangul syllable, a kanji, "é" written with a combining accent, "क्ष".
_CHAR_TOKEN = regex.compile(r"(?=[\p{L}\p{N}])\X", regex.V1)
_ASCII_CHAR = re.compile(r"[a-z0-9]")


def char_tokenize(text: str) -> list[str]:
    """One token per letter or digit (grapheme cluster), after NFKC and lowercasing — the
    usual unit for Chinese ROUGE; punctuation and whitespace are dropped."""
    lowered = text.lower()
    if lowered.isascii():
        return _ASCII_CHAR.findall(lowered)
    normalized = unicodedata.normalize("NFKC", text).lower().translate(JOINERS)
    return _CHAR_TOKEN.findall(normalized)


def rouge_score_tokenize(text: str) -> list[str]:
    """rouge_score's ``tokenize.tokenize`` without stemming.  rouge_score replaces every run of
    characters outside ``[a-z0-9]`` by a space and splits; the maximal ``[a-z0-9]`` runs are
    the same tokens, found twice as fast."""
    return _ASCII_TOKEN.findall(text.lower())


def whitespace_tokenize(text: str) -> list[str]:
    """``str.split()``: whitespace-separated tokens, case kept."""
    return text.split()


REGISTRY: dict[str, TokenizeFn] = {
    "unicode": unicode_tokenize,
    "rouge_score": rouge_score_tokenize,
    "whitespace": whitespace_tokenize,
    "char": char_tokenize,
}
#: The built-in tokenizer names, in the order shown to users.
TOKENIZER_NAMES: tuple[str, ...] = tuple(REGISTRY)

#: Kinds of sentence boundary (see :class:`rouge_lcs.sentences.Splitter`): a line break, a run of
#: whitespace, and a sentence-final punctuation mark with no space after it (。！？).
NEWLINE, WHITESPACE, PUNCTUATION = "newline", "whitespace", "punctuation"

# Per built-in tokenizer: (Unicode normalization, case, boundaries no token ever spans).
# Both lowercasing tokenizers drop punctuation and whitespace, so a sentence cut at any of
# them never splits a token; str.split keeps "。" inside a token, so only whitespace is safe.
_TRAITS: dict[str, tuple[str, str, frozenset[str]]] = {
    "unicode": ("nfkc", "lower", frozenset({NEWLINE, WHITESPACE, PUNCTUATION})),
    "rouge_score": ("none", "lower", frozenset({NEWLINE, WHITESPACE, PUNCTUATION})),
    "whitespace": ("none", "kept", frozenset({NEWLINE, WHITESPACE})),
    "char": ("nfkc", "lower", frozenset({NEWLINE, WHITESPACE, PUNCTUATION})),
}


@dataclass(frozen=True)
class Tokenizer:
    """A resolved tokenizer and what it says about itself.

    Attributes:
        name: ``unicode``, ``rouge_score``, ``whitespace`` or ``custom:<name>``.
        split: the function from text to raw tokens.
        stemmed: whether tokens are Porter-stemmed (the document store memoizes that step).
        normalization: ``nfkc``, ``none`` or ``custom`` (unknown), for the signature.
        case: ``lower``, ``kept`` or ``custom``, for the signature.
        separators: the sentence-boundary kinds at which no token of this tokenizer can
            continue.  When every boundary of a split is one of them, the tokens of the
            sentences, put together, are the tokens of the whole text, so one tokenization
            serves ROUGE-N/L and ROUGE-Lsum.  Custom tokenizers promise nothing.
    """

    name: str
    split: TokenizeFn
    stemmed: bool
    normalization: str = "custom"
    case: str = "custom"
    separators: frozenset[str] = frozenset()

    def tokenize(self, text: str) -> list[str]:
        """Tokens of ``text``, stemmed when asked."""
        tokens = self.split(text)
        return stem_all(tokens) if self.stemmed else tokens


def _checked(fn: Callable[[str], object], name: str) -> TokenizeFn:
    """Wrap a user tokenizer so a wrong return type fails loudly, naming the argument."""

    def tokenize(text: str) -> list[str]:
        tokens = fn(text)
        if isinstance(tokens, str) or not isinstance(tokens, (list, tuple)):
            raise TypeError(
                f"tokenizer: {name} must return a list of str, got {type(tokens).__name__}"
            )
        for token in tokens:
            if not isinstance(token, str):
                raise TypeError(
                    f"tokenizer: {name} must return a list of str, got an item of type "
                    f"{type(token).__name__}"
                )
        return list(tokens)

    return tokenize


def resolve_tokenizer(tokenizer: object = None, use_stemmer: bool = False) -> Tokenizer:
    """Turn the ``tokenizer`` argument into a :class:`Tokenizer` (``use_stemmer`` is checked
    by the caller).

    Args:
        tokenizer: ``None`` (meaning ``"unicode"``), a name from :data:`REGISTRY`, a callable
            ``str -> list[str]``, or an object with a ``tokenize(str)`` method (rouge_score's
            tokenizer interface).
        use_stemmer: apply NLTK's Porter stemmer (rouge_score's mode, tokens longer than 3
            characters) to the tokens, whichever tokenizer produced them.
    """

    def _case(case: str) -> str:
        return "lower" if use_stemmer else case  # stemming lowercases every token

    if tokenizer is None:
        tokenizer = "unicode"
    if isinstance(tokenizer, str):
        if tokenizer not in REGISTRY:
            raise ValueError(
                f"tokenizer: expected one of {list(REGISTRY)}, a callable str -> list[str], or "
                f"an object with a .tokenize(str) method, got {tokenizer!r}"
            )
        normalization, case, separators = _TRAITS[tokenizer]
        return Tokenizer(
            tokenizer, REGISTRY[tokenizer], use_stemmer, normalization, _case(case), separators
        )
    method = getattr(tokenizer, "tokenize", None)
    if callable(method):
        label = f"{type(tokenizer).__name__}.tokenize"
        name = f"custom:{type(tokenizer).__name__}"
        return Tokenizer(name, _checked(method, label), use_stemmer, case=_case("custom"))
    if callable(tokenizer):
        label = getattr(tokenizer, "__name__", type(tokenizer).__name__)
        return Tokenizer(
            f"custom:{label}", _checked(tokenizer, label), use_stemmer, case=_case("custom")
        )
    raise TypeError(
        f"tokenizer: expected None, one of {list(REGISTRY)}, a callable, or an object with "
        f".tokenize(str), got {type(tokenizer).__name__}"
    )
