"""What each language's summarization papers mean by a token, a stem and a sentence.

``language="xx"`` (ISO 639-1) picks three things from this table; every one can still be
overridden by ``tokenizer=`` / ``lsum_split=``:

- the default tokenizer: characters for Chinese and Japanese (what character-level ROUGE in
  those papers counts), dictionary words for Thai (written without spaces), Unicode words
  elsewhere, Korean included (today's default, so ``language="ko"`` changes no number);
- the stemmer used with ``use_stemmer=True``: Porter for English (rouge_score's), NLTK's
  Snowball stemmer where one exists for the language (pure Python, no data download), and an
  error elsewhere rather than silently stemming Korean with an English stemmer;
- the sentence split of ROUGE-Lsum: NLTK's pretrained Punkt model of the language where NLTK has
  one, and the script's own sentence ends (。！？, the danda ।, Thai spaces).

This module is data only (no imports of optional packages), so ``import rouge_lcs`` stays fast.

>>> LANGUAGES["zh"].tokenizer, LANGUAGES["fr"].stemmer, LANGUAGES["th"].sentences
('char', 'french', 'space')
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Language:
    """One language's conventions.

    Attributes:
        code: ISO 639-1 code.
        name: English name (also NLTK's name for its Punkt model and Snowball stemmer).
        tokenizer: the default tokenizer's registry name.
        alternatives: other registry tokenizers made for this language.
        stemmer: ``"porter"``, a Snowball language name, or ``None`` (no stemmer exists).
        punkt: the name of NLTK's pretrained Punkt model, or ``None`` (no model: Punkt with no
            learned abbreviations).
        sentences: how a text without newlines is cut into sentences: ``"punkt"``, ``"cjk"``
            (after 。！？ with or without a space), ``"danda"`` (after । ॥ ? !) or ``"space"``
            (Thai: a space ends a sentence).
    """

    code: str
    name: str
    tokenizer: str = "unicode"
    alternatives: tuple[str, ...] = ()
    stemmer: str | None = None
    punkt: str | None = None
    sentences: str = "punkt"


def _snowball(code: str, name: str, punkt: bool) -> Language:
    return Language(code, name, stemmer=name, punkt=name if punkt else None)


LANGUAGES: dict[str, Language] = {
    lang.code: lang
    for lang in [
        Language("en", "english", stemmer="porter", punkt="english"),
        Language("zh", "chinese", "char", ("jieba", "unicode"), sentences="cjk"),
        Language("ja", "japanese", "char", ("mecab", "unicode"), sentences="cjk"),
        Language("ko", "korean", "unicode", ("kiwi",)),
        Language("th", "thai", "thai", ("char",), sentences="space"),
        # NLTK's Snowball stemmers (nltk.stem.snowball), with the Punkt model where NLTK has one.
        _snowball("ar", "arabic", punkt=False),
        _snowball("da", "danish", punkt=True),
        _snowball("de", "german", punkt=True),
        _snowball("es", "spanish", punkt=True),
        _snowball("fi", "finnish", punkt=True),
        _snowball("fr", "french", punkt=True),
        _snowball("hu", "hungarian", punkt=False),
        _snowball("it", "italian", punkt=True),
        _snowball("nl", "dutch", punkt=True),
        _snowball("no", "norwegian", punkt=True),
        _snowball("pt", "portuguese", punkt=True),
        _snowball("ro", "romanian", punkt=False),
        _snowball("ru", "russian", punkt=True),
        _snowball("sv", "swedish", punkt=True),
        # Punkt models but no Snowball stemmer in NLTK.
        Language("cs", "czech", punkt="czech"),
        Language("el", "greek", punkt="greek"),
        Language("et", "estonian", punkt="estonian"),
        Language("ml", "malayalam", punkt="malayalam"),
        Language("pl", "polish", punkt="polish"),
        Language("sl", "slovene", punkt="slovene"),
        Language("tr", "turkish", punkt="turkish"),
        # Scripts with their own full stop, the danda (Devanagari, Bengali).
        Language("hi", "hindi", sentences="danda"),
        Language("mr", "marathi", sentences="danda"),
        Language("ne", "nepali", sentences="danda"),
        Language("bn", "bengali", sentences="danda"),
        # Spaces between words, no stemmer or Punkt model: Unicode words, generic Punkt.
        Language("fa", "persian"),
        Language("he", "hebrew"),
        Language("id", "indonesian"),
        Language("sw", "swahili"),
        Language("uk", "ukrainian"),
        Language("ur", "urdu"),
        Language("vi", "vietnamese"),
    ]
}

#: The language codes, in the order shown to users (the options table reads this).
LANGUAGE_CODES: tuple[str, ...] = tuple(sorted(LANGUAGES))


def get_language(code: object) -> Language | None:
    """The :class:`Language` for ``code`` (``None`` stays ``None``); unknown codes are a
    ``ValueError`` listing the known ones, so a typo cannot silently fall back to English."""
    if code is None:
        return None
    if not isinstance(code, str):
        raise TypeError(f"language: expected an ISO 639-1 code (str) or None, got {code!r}")
    key = code.strip().lower().replace("_", "-").split("-")[0]  # "zh-CN", "pt_BR" -> base
    if key not in LANGUAGES:
        raise ValueError(
            f"language: expected None or one of {list(LANGUAGE_CODES)} (ISO 639-1), got {code!r}"
        )
    return LANGUAGES[key]
