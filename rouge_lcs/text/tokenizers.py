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

Language-specific segmenters, each an optional dependency (an extra: ``zh`` …),
imported on first use; tokens without a letter or digit (punctuation, spaces) are dropped, as
every built-in tokenizer does:

- ``jieba`` (Chinese words; extra ``zh``), ``mecab`` (Japanese morphemes, MeCab through fugashi
  with the UniDic-lite dictionary; extra ``ja``), ``kiwi`` (Korean morphemes, Kiwi; extra
  ``ko``), ``thai`` (Thai words, PyThaiNLP's dictionary-based ``newmm``; extra ``th``).
- ``burmese``: Burmese syllables as XL-Sum's scorer cuts them (built in, no package).

With a ``language``, a language's spelling variants are folded first
(:mod:`rouge_lcs.text.normalization`), and a tokenizer that cannot see the language's text (the
ASCII ``rouge_score`` on Chinese, ``whitespace`` on a language without spaces, a segmenter made
for another language) is refused rather than scoring 0.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from functools import cache, lru_cache

from rouge_lcs.base.lazy import import_module
from rouge_lcs.base.records import record
from rouge_lcs.base.validation import callable_hash, returned_strs
from rouge_lcs.text.languages import Language, get_language
from rouge_lcs.text.normalization import Folded
from rouge_lcs.text.stemming import PORTER, Stemmer, stemmer_for
from rouge_lcs.text.unicode_classes import token_pattern

TYPE_CHECKING = False  # not typing's: importing typing costs ~5 ms (see rouge_lcs.base.records)
if TYPE_CHECKING:
    import re
    from typing import Any, Protocol

    import regex
else:
    Protocol = object  # SupportsTokenize is only a type; at run time a plain class

TokenizeFn = Callable[[str], list[str]]


class SupportsTokenize(Protocol):
    """rouge_score's tokenizer interface: an object with ``tokenize(text) -> list[str]``."""

    def tokenize(self, text: str) -> list[str]: ...


#: What the ``tokenizer`` argument takes.
TokenizerSpec = str | TokenizeFn | SupportsTokenize | None

# One token per CJK ideograph / kana character; otherwise maximal runs of letters, marks and
# numbers.  Marks are kept inside words so that scripts such as Devanagari or Thai, whose vowel
# signs are combining marks, are not cut into pieces.  The classes are the project's own, of one
# Unicode version (rouge_lcs.text.unicode_classes), so the tokens do not change with the
# installed `regex`; the pattern (stdlib `re`, explicit ranges) is compiled at first use.
# The scripts of class 2, for the Burmese pattern below (XL-Sum's, run by `regex`).
_CJK = r"\p{Han}\p{Hiragana}\p{Katakana}"


# The stdlib's `re` for ASCII text, compiled at first use too: `import re` costs ~3 ms.
@cache
def _ascii_token() -> re.Pattern[str]:
    import re

    return re.compile(r"[a-z0-9]+")


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
        return _ascii_token().findall(lowered)
    normalized = unicodedata.normalize("NFKC", text).lower().translate(JOINERS)
    return token_pattern().findall(normalized)


# A user-perceived character (extended grapheme cluster) that starts with a letter or digit:
# a Hangul syllable, a kanji, "é" written with a combining accent, "क्ष".
@cache
def _char_token() -> regex.Pattern[str]:
    import regex

    return regex.compile(r"(?=[\p{L}\p{N}])\X", regex.V1)


@cache
def _ascii_char() -> re.Pattern[str]:
    import re

    return re.compile(r"[a-z0-9]")


def char_tokenize(text: str) -> list[str]:
    """One token per letter or digit (grapheme cluster), after NFKC and lowercasing — the
    usual unit for Chinese ROUGE; punctuation and whitespace are dropped."""
    lowered = text.lower()
    if lowered.isascii():
        return _ascii_char().findall(lowered)
    normalized = unicodedata.normalize("NFKC", text).lower().translate(JOINERS)
    return _char_token().findall(normalized)


def rouge_score_tokenize(text: str) -> list[str]:
    """rouge_score's ``tokenize.tokenize`` without stemming.  rouge_score replaces every run of
    characters outside ``[a-z0-9]`` by a space and splits; the maximal ``[a-z0-9]`` runs are
    the same tokens, found twice as fast."""
    return _ascii_token().findall(text.lower())


def whitespace_tokenize(text: str) -> list[str]:
    """``str.split()``: whitespace-separated tokens, case kept."""
    return text.split()


# ---- Optional segmenters.  Each is built once per process (loading a dictionary takes from
# 0.1 s to 2 s) and only when first asked for, so importing rouge_lcs never imports them.


# A token worth counting has a letter, a mark or a digit; segmenters also return punctuation and
# spaces as tokens (jieba and newmm return " ", which would otherwise match other spaces:
# multilingual-rouge's bug).  A lone mark is kept: newmm cuts one from a mistyped letter
# ("ใตั"), and XL-Sum counts it.
@cache
def _wordlike() -> regex.Pattern[str]:
    import regex

    return regex.compile(r"[\p{L}\p{M}\p{N}]")


def _require(module: str, tokenizer: str) -> Any:
    """Import an optional dependency, or fail with the one command that installs it."""
    try:
        return import_module(module)
    except ImportError as error:
        from rouge_lcs.base.install import install_command

        record = TOKENIZERS[tokenizer]
        raise ImportError(
            f"tokenizer={tokenizer!r} needs {' and '.join(record.packages)}: "
            f"{install_command(record.extra or tokenizer)}"  # only segmenters have packages
        ) from error


def _normalized(text: str) -> str:
    return unicodedata.normalize("NFKC", text).lower().translate(JOINERS)


# What XL-Sum's scorer takes out before its segmenter sees a text (its BERT-style cleaning):
# control and format characters vanish (the zero-width space too); punctuation (Unicode
# category P and every ASCII symbol) and whitespace become a space between words.
_XLSUM_DROPPED = r"[\p{C}\ufffd--[\t\n\r]]"
_XLSUM_SEPARATORS = r"\s\p{Z}\p{P}!-/:-@\[-`{-~"


@cache
def _xlsum_cleaning() -> tuple[regex.Pattern[str], regex.Pattern[str]]:
    import regex

    return regex.compile(_XLSUM_DROPPED, regex.V1), regex.compile(
        rf"[{_XLSUM_SEPARATORS}]+", regex.V1
    )


def xlsum_clean(text: str) -> str:
    """``text`` as XL-Sum's scorer hands it to its segmenter: controls and format characters
    removed, each run of punctuation and whitespace one space."""
    dropped, separators = _xlsum_cleaning()
    return separators.sub(" ", dropped.sub("", text)).strip()


@lru_cache(maxsize=1)
def _jieba() -> Any:
    jieba = _require("jieba", "jieba")
    jieba.setLogLevel(60)  # silence "Building prefix dict ..." on stderr
    jieba.initialize()
    return jieba


def jieba_tokenize(text: str) -> list[str]:
    """Chinese words by jieba (its default mode: dictionary + HMM for unknown words), given the
    text as XL-Sum's scorer gives it: punctuation made spaces (jieba keeps "3.5%" and "b.1" whole,
    XL-Sum's tokens are 3 / 5 and b / 1)."""
    wordlike = _wordlike().search
    return [t for t in _jieba().cut(xlsum_clean(_normalized(text))) if wordlike(t)]


@lru_cache(maxsize=1)
def _mecab() -> Any:
    fugashi = _require("fugashi", "mecab")
    unidic_lite = _require("unidic_lite", "mecab")
    # The dictionary is named explicitly: with the full `unidic` package installed but its
    # dictionary not downloaded, fugashi's own lookup would fail.
    rc = f"{unidic_lite.DICDIR}/mecabrc"
    return fugashi.Tagger(f'-r "{rc}" -d "{unidic_lite.DICDIR}"')


def mecab_tokenize(text: str) -> list[str]:
    """Japanese morphemes (surface forms) by MeCab with UniDic-lite, given the text as XL-Sum's
    scorer gives it: punctuation made spaces (MeCab segments "有する。何人も" as 有する / 何人 / も
    but "有する 何人も" as 有する / 何 / 人 / も, XL-Sum's tokens)."""
    wordlike = _wordlike().search
    words = _mecab()(xlsum_clean(_normalized(text)))
    return [w.surface for w in words if wordlike(w.surface)]


@lru_cache(maxsize=1)
def _kiwi() -> Any:
    kiwipiepy = _require("kiwipiepy", "kiwi")
    try:
        return kiwipiepy.Kiwi()
    except ImportError as error:  # kiwipiepy installed without its model package
        from rouge_lcs.base.install import install_command

        raise ImportError(
            "tokenizer='kiwi' needs kiwipiepy_model (Kiwi's model, a separate package): "
            f"{install_command('ko')}"
        ) from error


def kiwi_tokenize(text: str) -> list[str]:
    """Korean morphemes (surface forms) by Kiwi: 서울은 -> 서울 / 은, so particles and endings
    no longer keep the same noun from matching."""
    wordlike = _wordlike().search
    return [t.form for t in _kiwi().tokenize(_normalized(text)) if wordlike(t.form)]


@lru_cache(maxsize=1)
def _newmm() -> Any:
    return _require("pythainlp.tokenize", "thai").word_tokenize


def thai_tokenize(text: str) -> list[str]:
    """Thai words by PyThaiNLP's ``newmm`` (maximal matching on its bundled dictionary).

    Lowercased but not NFKC-normalized: NFKC decomposes SARA AM (ำ) into two characters, after
    which dictionary words no longer match.  Punctuation is made spaces first, as XL-Sum's scorer
    does, so a Latin word in quotes or brackets is the word ("“eta”" -> eta) and a number's
    separators separate (1,000 -> 1 / 000, XL-Sum's tokens)."""
    cleaned = xlsum_clean(text.lower().translate(JOINERS))
    words = _newmm()(cleaned, engine="newmm", keep_whitespace=False)
    wordlike = _wordlike().search
    return [w for w in words if wordlike(w)]


# Burmese syllables as XL-Sum's BurmeseTokenizer cuts them (Thu et al.'s units, its scorer's
# algorithm step for step): every Myanmar letter starts a unit, and a dependent sign (a vowel
# sign, tone, medial or the asat) joins the unit before; a unit with an asat that is shorter
# than 4 characters (a killed consonant, "င်", "န့်") then joins the unit before; a virama glues
# the units either side of it (a stack, "က္ခ", starts a syllable of its own: "သိ", "က္ခာ").
# Spaces and punctuation do not separate units (XL-Sum removes both first), so a syllable may
# span them, as in XL-Sum.  Dropped as punctuation, as XL-Sum's text cleaning drops every
# character of Unicode category P: ၊ ။ and the particles ၌ ၍ ၎ ၏ (locative, "and so",
# "aforementioned", genitive), which Unicode classes as punctuation.  Unlike XL-Sum's, digit
# runs stay one number and other scripts' words one word (XL-Sum cuts "BBC" and "2024" into
# single characters), and they end a run of units.
_MY_DEPENDENT = frozenset(
    "".join(chr(c) for c in (*range(0x102B, 0x1033), *range(0x1036, 0x103F)) if c != 0x1039)
)
_MY_ASAT, _MY_VIRAMA = "\u103a", "\u1039"
_MY_DIGITS = r"[\u1040-\u1049\u1090-\u1099]"


# What XL-Sum's cleaning takes out between letters (XL-Sum then removes the spaces too).
_MY_GAP = rf"(?:{_XLSUM_DROPPED}|[{_XLSUM_SEPARATORS}])+"


@cache
def _burmese_atom() -> regex.Pattern[str]:
    import regex

    # A run of Myanmar letters and signs, with only what XL-Sum removes in between (group 1),
    # or a digit run or another script's word (group 2).
    letters = r"[\u1000-\u109f--[\u1040-\u104f\u1090-\u1099]]+"
    other = rf"[{_CJK}]|[[\p{{L}}\p{{M}}\p{{N}}]--[{_CJK}\u1000-\u109f]]+"
    return regex.compile(rf"({letters}(?:{_MY_GAP}{letters})*)|({_MY_DIGITS}+|{other})", regex.V1)


@cache
def _burmese_gap() -> regex.Pattern[str]:
    import regex

    return regex.compile(_MY_GAP, regex.V1)


def _burmese_units(letters: str) -> list[str]:
    """XL-Sum's three steps on a run of Myanmar letters (spaces and punctuation removed)."""
    units: list[str] = []
    for char in letters:
        if char in _MY_DEPENDENT and units:
            units[-1] += char
        else:
            units.append(char)
    # XL-Sum's pass, emptied units included: a unit joining an emptied one stays on its own.
    for i in range(1, len(units)):
        if _MY_ASAT in units[i] and len(units[i]) < 4:
            units[i - 1] += units[i]
            units[i] = ""
    joined = " ".join(unit for unit in units if unit)
    return joined.replace(f" {_MY_VIRAMA} ", _MY_VIRAMA).split()


def burmese_tokenize(text: str) -> list[str]:
    """Burmese syllables as XL-Sum's scorer cuts them (NFKC, lowercase); other scripts' words
    and numbers as ``unicode``."""
    tokens: list[str] = []
    gap = _burmese_gap().sub
    for letters, other in _burmese_atom().findall(_normalized(text)):
        if letters:
            # NFKC puts the dot below before the asat; XL-Sum writes it after (its tokens).
            letters = gap("", letters).replace("\u1037\u103a", "\u103a\u1037")
            tokens.extend(_burmese_units(letters))
        else:
            tokens.append(other)
    return tokens


#: Kinds of sentence boundary (see :class:`rouge_lcs.text.sentences.Splitter`): a line break, a
#: run of whitespace, and a sentence-final punctuation mark with no space after it (。！？).
NEWLINE, WHITESPACE, PUNCTUATION = "newline", "whitespace", "punctuation"
_ALL_BOUNDARIES = frozenset({NEWLINE, WHITESPACE, PUNCTUATION})


@record
class TokenizerRecord:
    """Everything about one built-in tokenizer, in one place (as sacrebleu's tokenizers).

    Attributes:
        name: the ``tokenizer=`` name.
        split: the function from text to tokens.
        summary: how it splits, for the option help, README and the CLI.
        normalization: ``nfkc`` or ``none`` (for the signature).
        case: ``lower`` or ``kept`` (for the signature).
        separators: the sentence-boundary kinds no token ever spans (see
            :class:`ResolvedTokenizer`).
        native: the C encoder's mode that gives the same tokens (``"rouge_score"``,
            ``"unicode"``), or ``None``: the engine calls :attr:`split`.
        extra: the extra that installs it (``install_command(extra)`` names the command),
            ``None`` for built-ins.
        packages: the PyPI packages it needs; their versions name it in the signature.
        load: builds the segmenter now (fails naming the extra), or ``None``.
        label: the signature's name before the package versions (default: ``name``).
        languages: the languages a segmenter is made for (``()``: any); with another
            ``language=`` it is refused.
        ascii_only: sees only ASCII letters and digits (refused for non-Latin scripts, whose
            texts it would score 0).
        needs_spaces: a token ends only at a space (refused for languages without spaces).
    """

    name: str
    split: TokenizeFn
    summary: str
    normalization: str
    case: str
    separators: frozenset[str]
    native: str | None = None
    extra: str | None = None
    packages: tuple[str, ...] = ()
    load: Callable[[], object] | None = None
    label: str | None = None
    languages: tuple[str, ...] = ()
    ascii_only: bool = False
    needs_spaces: bool = False


def _records(*records: TokenizerRecord) -> dict[str, TokenizerRecord]:
    return {record.name: record for record in records}


#: The built-in tokenizers, in the order shown to users.  **To add a tokenizer, add its record
#: here** (and, for a segmenter, its extra in pyproject.toml): the option's choices and help,
#: README's list, the signature and the install message all read this table.
TOKENIZERS: dict[str, TokenizerRecord] = _records(
    TokenizerRecord(
        "unicode",
        unicode_tokenize,
        "NFKC, lowercase, letters and digits of every script; each CJK character a token",
        "nfkc",
        "lower",
        _ALL_BOUNDARIES,
        native="unicode",
    ),
    TokenizerRecord(
        "rouge_score",
        rouge_score_tokenize,
        "its ASCII tokenizer, byte for byte",
        "none",
        "lower",
        _ALL_BOUNDARIES,
        native="rouge_score",
        ascii_only=True,
    ),
    # str.split keeps "。" inside a token, so only whitespace is a safe boundary.
    TokenizerRecord(
        "whitespace",
        whitespace_tokenize,
        "str.split, case kept",
        "none",
        "kept",
        frozenset({NEWLINE, WHITESPACE}),
        needs_spaces=True,
    ),
    TokenizerRecord(
        "char",
        char_tokenize,
        "one token per letter or digit, NFKC, lowercase",
        "nfkc",
        "lower",
        _ALL_BOUNDARIES,
        native="char",
    ),
    # jieba segments runs of Han characters, letters, digits and a few joiners (. % - ...);
    # whitespace and 。！？ end such a run, so no word spans a sentence boundary.
    TokenizerRecord(
        "jieba",
        jieba_tokenize,
        "Chinese words",
        "nfkc",
        "lower",
        _ALL_BOUNDARIES,
        extra="zh",
        packages=("jieba",),
        load=lambda: _jieba(),
        languages=("zh",),
    ),
    # MeCab, Kiwi and newmm choose the best path through the whole text (Kiwi even joins words
    # across spaces), so a sentence's tokens may differ from the same words inside the text:
    # sentences are tokenized on their own, for ROUGE-Lsum only.
    TokenizerRecord(
        "mecab",
        mecab_tokenize,
        "Japanese morphemes",
        "nfkc",
        "lower",
        frozenset(),
        extra="ja",
        packages=("fugashi", "unidic-lite"),
        load=lambda: _mecab(),
        languages=("ja",),
    ),
    TokenizerRecord(
        "kiwi",
        kiwi_tokenize,
        "Korean morphemes",
        "nfkc",
        "lower",
        frozenset(),
        extra="ko",
        packages=("kiwipiepy", "kiwipiepy_model"),
        load=lambda: _kiwi(),
        languages=("ko",),
    ),
    TokenizerRecord(
        "thai",
        thai_tokenize,
        "Thai words, newmm",
        "none",
        "lower",
        frozenset(),
        extra="th",
        packages=("pythainlp",),
        load=lambda: _newmm(),
        label="thai-newmm",
        languages=("th",),
    ),
    # As in XL-Sum, a killed consonant after a space or ။ joins the syllable before it
    # ("ပညာရေး ၎င်း": ရေးင်း), so sentences are tokenized on their own for ROUGE-Lsum.
    TokenizerRecord(
        "burmese",
        burmese_tokenize,
        "Burmese syllables, XL-Sum's",
        "nfkc",
        "lower",
        frozenset(),
        languages=("my",),
    ),
)
#: The built-in tokenizer names, in the order shown to users.
TOKENIZER_NAMES: tuple[str, ...] = tuple(TOKENIZERS)
#: name -> function, for code that only needs to split.
REGISTRY: dict[str, TokenizeFn] = {name: r.split for name, r in TOKENIZERS.items()}


def describe_tokenizers() -> str:
    """The built-in tokenizers in one sentence each (the option help and the CLI read it)."""
    parts = [
        f"'{r.name}' ({r.summary}{'; extra ' + repr(r.extra) if r.extra else ''})"
        for r in TOKENIZERS.values()
    ]
    return ", ".join(parts)


def _versioned_name(record: TokenizerRecord) -> str:
    """``jieba-0.42.1``, ``mecab-fugashi1.5.2-unidic-lite1.0.8``, ``thai-newmm-pythainlp5.4.0``:
    a dictionary segmenter's tokens change with its package version, so the signature names it."""
    if not record.packages:
        return record.name  # built-ins: versioned by rouge_lcs's own version in the signature
    # Imported here: importlib.metadata costs ~20 ms, paid only when a segmenter is used.
    from importlib.metadata import PackageNotFoundError, version

    try:
        versions = [version(p) for p in record.packages]
    except PackageNotFoundError:
        versions = ["unknown"]
    if record.packages == (record.name,):
        return f"{record.name}-{versions[0]}"
    label = record.label or record.name
    return "-".join([label, *(f"{p}{v}" for p, v in zip(record.packages, versions))])


@record
class ResolvedTokenizer:
    """A resolved tokenizer and what it says about itself (what ``Settings.tokenizer`` holds;
    not the rouge_score-compatible base class users subclass, ``rouge_lcs.tokenizers.Tokenizer``).

    Attributes:
        name: ``unicode``, ``rouge_score``, ``whitespace`` or ``custom:<name>``.
        split: the function from text to raw tokens.
        stemmed: whether tokens are stemmed (the document store memoizes that step).
        normalization: ``nfkc``, ``none`` or ``custom`` (unknown), for the signature.
        case: ``lower``, ``kept`` or ``custom``, for the signature.
        separators: the sentence-boundary kinds at which no token of this tokenizer can
            continue.  When every boundary of a split is one of them, the tokens of the
            sentences, put together, are the tokens of the whole text, so one tokenization
            serves ROUGE-N/L and ROUGE-Lsum.  Custom tokenizers promise nothing.
        stemmer: the stemmer applied when ``stemmed`` (Porter unless a language chose another).
        language: the ISO 639-1 code the settings were made for, or ``None``.
        native: the C encoder's mode that gives :attr:`split`'s tokens (a built-in's record
            says), or ``None``: the native engine calls :attr:`split`.
    """

    name: str
    split: TokenizeFn
    stemmed: bool
    normalization: str = "custom"
    case: str = "custom"
    separators: frozenset[str] = frozenset()
    stemmer: Stemmer = PORTER
    language: str | None = None
    native: str | None = None

    def tokenize(self, text: str) -> list[str]:
        """Tokens of ``text``, stemmed when asked."""
        tokens = self.split(text)
        return self.stemmer.stem_all(tokens) if self.stemmed else tokens


@record
class CheckedTokenizer:
    """A user tokenizer wrapped so that a wrong return type fails loudly, naming the argument.

    A class, not a closure: settings made twice for the same tokenizer object are equal (so a
    scorer's vocabulary and ``rouge_lcs.Workers``' processes serve the next call too), and they
    pickle where the tokenizer does.
    """

    fn: Callable[[str], object]
    name: str

    def __hash__(self) -> int:
        return callable_hash(self.fn, self.name)

    def __call__(self, text: str) -> list[str]:
        tokens = self.fn(text)
        if isinstance(tokens, str) or not isinstance(tokens, (list, tuple)):
            raise TypeError(
                f"tokenizer: {self.name} must return a list of str, got {type(tokens).__name__}"
            )
        return returned_strs(list(tokens), f"tokenizer: {self.name}")


def resolve_stemmer(language: object = None) -> Stemmer:
    """The stemmer ``use_stemmer=True`` means for ``language``: Porter for ``None`` and English
    (rouge_score's), the language's Snowball or XL-Sum stemmer, else a ``ValueError`` — an
    English stemmer would quietly mangle another language's words."""
    lang = get_language(language)
    if lang is None or lang.stemmer == "porter":
        return PORTER
    if lang.stemmer is None:
        raise ValueError(
            f"use_stemmer: no stemmer for language={lang.code!r} ({lang.name}); score without "
            f"stemming, or pass a tokenizer callable that returns stems"
        )
    return stemmer_for(lang.stemmer)


def check_fits(record: TokenizerRecord, lang: Language) -> None:
    """Refuse a built-in tokenizer that cannot see ``lang``'s text (every score would be 0, or
    whole sentences would be single tokens) or that segments another language."""
    named = f"language={lang.code!r} ({lang.name})"
    if record.languages and lang.code not in record.languages:
        made_for = ", ".join(repr(code) for code in record.languages)
        fits = [lang.tokenizer, *lang.alternatives]
        raise ValueError(
            f"tokenizer: {record.name!r} segments language {made_for}, not {named}; "
            f"expected one of {fits} or no tokenizer (the language's default, {lang.tokenizer!r})"
        )
    if record.ascii_only and lang.script != "Latn":
        raise ValueError(
            f"tokenizer: {record.name!r} keeps only ASCII letters and digits, so {named} text "
            f"would have no tokens and score 0; leave tokenizer unset (the language's default, "
            f"{lang.tokenizer!r})"
        )
    if record.needs_spaces and not lang.spaces:
        raise ValueError(
            f"tokenizer: {record.name!r} cuts only at spaces, and {named} does not put spaces "
            f"between words (a sentence would be one token); leave tokenizer unset (the "
            f"language's default, {lang.tokenizer!r})"
        )


def resolve_tokenizer(
    tokenizer: object = None,
    use_stemmer: bool = False,
    language: object = None,
    normalize_spelling: bool = True,
) -> ResolvedTokenizer:
    """Turn the ``tokenizer`` argument into a :class:`ResolvedTokenizer` (``use_stemmer`` is
    checked by the caller).

    Args:
        tokenizer: ``None`` (the language's default, ``"unicode"`` without a language), a name
            from :data:`TOKENIZERS`, a callable ``str -> list[str]``, or an object with a
            ``tokenize(str)`` method (rouge_score's tokenizer interface).
        use_stemmer: stem the tokens, whichever tokenizer produced them: NLTK's Porter stemmer
            (rouge_score's mode, tokens longer than 3 characters), or the language's Snowball
            stemmer (same rule).
        language: an ISO 639-1 code (see :mod:`rouge_lcs.text.languages`) or ``None``.
        normalize_spelling: with a language, fold its spelling variants before a built-in
            tokenizer runs (:mod:`rouge_lcs.text.normalization`); no effect without one.
    """
    lang = get_language(language)
    stemmer = resolve_stemmer(language) if use_stemmer else PORTER
    code = lang.code if lang is not None else None

    def _case(case: str) -> str:
        return "lower" if use_stemmer else case  # stemming lowercases every token

    if tokenizer is None:
        tokenizer = lang.tokenizer if lang is not None else "unicode"
    if isinstance(tokenizer, str):
        record = TOKENIZERS.get(tokenizer)
        if record is None:
            raise ValueError(
                f"tokenizer: expected one of {list(TOKENIZERS)}, a callable str -> list[str], "
                f"or an object with a .tokenize(str) method, got {tokenizer!r}"
            )
        if lang is not None:
            check_fits(record, lang)
        if record.load is not None:
            record.load()  # fail now, naming the extra, rather than on the first text
        fold = lang.normalization if lang is not None and normalize_spelling else None
        return ResolvedTokenizer(
            _versioned_name(record),
            record.split if fold is None else Folded(record.split, fold),
            use_stemmer,
            record.normalization if fold is None else f"{record.normalization}+{fold}",
            _case(record.case),
            record.separators,
            stemmer,
            code,
            record.native if fold is None else None,  # the C encoder does not fold
        )
    method = getattr(tokenizer, "tokenize", None)
    if callable(method):
        label = f"{type(tokenizer).__name__}.tokenize"
        name = f"custom:{type(tokenizer).__name__}"
        return ResolvedTokenizer(
            name,
            CheckedTokenizer(method, label),
            use_stemmer,
            case=_case("custom"),
            stemmer=stemmer,
            language=code,
        )
    if callable(tokenizer):
        label = getattr(tokenizer, "__name__", type(tokenizer).__name__)
        return ResolvedTokenizer(
            f"custom:{label}",
            CheckedTokenizer(tokenizer, label),
            use_stemmer,
            case=_case("custom"),
            stemmer=stemmer,
            language=code,
        )
    raise TypeError(
        f"tokenizer: expected None, one of {list(TOKENIZERS)}, a callable, or an object with "
        f".tokenize(str), got {type(tokenizer).__name__}"
    )
