"""What each language's summarization papers mean by a token, a stem and a sentence.

``language="xx"`` (ISO 639-1, or 639-3 for Nigerian Pidgin ``pcm``; every XL-Sum language)
picks four things from this table; the first three can still be overridden by ``tokenizer=`` /
``lsum_split=``, the fourth by ``normalize_spelling=False``:

- the default tokenizer: characters for Chinese and Japanese (what character-level ROUGE in
  those papers counts), dictionary words for Thai (written without spaces), syllables for
  Burmese (spaces there separate phrases), Unicode words elsewhere, Korean included (today's
  default, so ``language="ko"`` changes no number);
- the stemmer used with ``use_stemmer=True``: Porter for English (rouge_score's), NLTK's
  Snowball stemmer where NLTK has one, the ``snowballstemmer`` package's for the Snowball
  languages NLTK lacks, XL-Sum's own stemmers for Hindi, Bengali and Turkish, and an error
  elsewhere rather than silently stemming Korean with an English stemmer;
- the sentence split of ROUGE-Lsum: NLTK's pretrained Punkt model of the language where NLTK
  has one (Punkt without a model elsewhere), cut again after the script's own full stops
  (``ends``: ؟ ۔ ። ။ । …), or the script's sentence ends alone (。！？, the danda), or
  PyThaiNLP's sentence segmenter for Thai;
- the spelling variants folded before tokenizing (:mod:`rouge_lcs.text.normalization`).

This module is data only (no imports of optional packages), so ``import rouge_lcs`` stays fast.

>>> LANGUAGES["zh"].tokenizer, LANGUAGES["fr"].stemmer, LANGUAGES["th"].sentences
('char', 'french', 'thai')
>>> get_language("zh-CN").code, get_language("ZH").code, get_language("bengali").code
('zh', 'zh', 'bn')
"""

from __future__ import annotations

from rouge_lcs.base.records import record

TYPE_CHECKING = False  # not typing's: importing typing costs ~5 ms (see rouge_lcs.base.records)
if TYPE_CHECKING:
    from typing import Any


@record
class Language:
    """One language's conventions.

    Attributes:
        code: ISO 639-1 code (``pcm``: ISO 639-3, Nigerian Pidgin has no 639-1 code).
        name: English name (also NLTK's name for its Punkt model and Snowball stemmer).
        tokenizer: the default tokenizer's registry name.
        alternatives: other registry tokenizers made for this language.
        stemmer: ``"porter"``, a Snowball language name (NLTK's where NLTK has it, else the
            ``snowballstemmer`` package's), ``"hindi"`` / ``"bengali"`` / ``"turkish"`` (XL-Sum's
            stemmers), or ``None`` (no stemmer exists).
        punkt: the name of NLTK's pretrained Punkt model, or ``None`` (no model: Punkt with no
            learned abbreviations).
        sentences: how a text without newlines is cut into sentences: ``"punkt"`` (then cut
            again after each of :attr:`ends`), ``"cjk"`` (after 。！？ with or without a space),
            ``"danda"`` (after । ॥ ? !) or ``"thai"`` (PyThaiNLP's sentence segmenter).
        ends: the script's own full stops and question marks, which end a sentence with or
            without a space after them (Punkt knows only ``. ? !``).
        script: the ISO 15924 code of the script the language is written in.
        spaces: whether words are separated by spaces (not in Chinese, Japanese, Thai, and
            Burmese, whose spaces separate phrases).
        normalization: the spelling variants folded before tokenizing (a name of
            :data:`rouge_lcs.text.normalization.FOLDS`), or ``None``.
        aliases: other names people pass: ISO 639-2/-3 codes, English and XL-Sum names.
    """

    code: str
    name: str
    tokenizer: str = "unicode"
    alternatives: tuple[str, ...] = ()
    stemmer: str | None = None
    punkt: str | None = None
    sentences: str = "punkt"
    ends: str = ""
    script: str = "Latn"
    spaces: bool = True
    normalization: str | None = None
    aliases: tuple[str, ...] = ()


def _snowball(code: str, name: str, punkt: bool, *aliases: str, **more: Any) -> Language:
    return Language(
        code, name, stemmer=name, punkt=name if punkt else None, aliases=aliases, **more
    )


def _danda(
    code: str, name: str, script: str, *aliases: str, stemmer: str | None = None
) -> Language:
    """A language whose sentences end at the danda (and ? !), not at "."."""
    return Language(code, name, stemmer=stemmer, sentences="danda", script=script, aliases=aliases)


# Sentence ends with no space needed after them, by script.
ARABIC_ENDS = "\u061f\u06d4"  # ؟ Arabic question mark, ۔ Urdu full stop
DANDA_ENDS = "\u0964\u0965"  # । ॥
ETHIOPIC_ENDS = "\u1362\u1367"  # ። full stop, ፧ question mark
MYANMAR_ENDS = "\u104b"  # ။ (၊, the "little section", is a comma)

LANGUAGES: dict[str, Language] = {
    lang.code: lang
    for lang in [
        Language("en", "english", stemmer="porter", punkt="english", aliases=("eng",)),
        Language(
            "zh",
            "chinese",
            "char",
            ("jieba", "unicode"),
            sentences="cjk",
            script="Hani",
            spaces=False,
            aliases=("zho", "chi", "cmn", "chinese_simplified", "chinese_traditional"),
        ),
        Language(
            "ja",
            "japanese",
            "char",
            ("mecab", "unicode"),
            sentences="cjk",
            script="Jpan",
            spaces=False,
            aliases=("jpn",),
        ),
        Language("ko", "korean", "unicode", ("kiwi",), script="Kore", aliases=("kor",)),
        Language(
            "th",
            "thai",
            "thai",
            ("char",),
            sentences="thai",
            script="Thai",
            spaces=False,
            aliases=("tha",),
        ),
        Language(
            "my",
            "burmese",
            "burmese",
            ("char",),
            ends=MYANMAR_ENDS,
            script="Mymr",
            spaces=False,
            aliases=("mya", "bur", "myanmar"),
        ),
        # NLTK's Snowball stemmers (nltk.stem.snowball), with the Punkt model where NLTK has one.
        _snowball(
            "ar", "arabic", False, "ara", ends=ARABIC_ENDS, script="Arab", normalization="arabic"
        ),
        _snowball("da", "danish", True, "dan"),
        _snowball("de", "german", True, "deu", "ger", normalization="german"),
        _snowball("es", "spanish", True, "spa", "mundo"),
        _snowball("fi", "finnish", True, "fin"),
        _snowball("fr", "french", True, "fra", "fre"),
        _snowball("hu", "hungarian", False, "hun"),
        _snowball("it", "italian", True, "ita"),
        _snowball("nl", "dutch", True, "nld", "dut"),
        _snowball("no", "norwegian", True, "nor", "nb", "nob"),
        _snowball("pt", "portuguese", True, "por"),
        _snowball("ro", "romanian", False, "ron", "rum"),
        _snowball("ru", "russian", True, "rus", script="Cyrl"),
        _snowball("sv", "swedish", True, "swe"),
        # Snowball stemmers of the snowballstemmer package (NLTK has none for these).
        _snowball("cs", "czech", True, "ces", "cze"),
        _snowball("el", "greek", True, "ell", "gre", script="Grek"),
        _snowball("et", "estonian", True, "est"),
        _snowball("pl", "polish", True, "pol"),
        _snowball("id", "indonesian", False, "ind", "in"),
        _snowball("ta", "tamil", False, "tam", script="Taml"),
        _snowball(
            "sr",
            "serbian",
            False,
            "srp",
            "serbian_cyrillic",
            "serbian_latin",
            script="Cyrl",
            normalization="serbian",
        ),
        _snowball("ne", "nepali", False, "nep", sentences="danda", script="Deva"),
        _snowball(
            "fa",
            "persian",
            False,
            "fas",
            "per",
            "farsi",
            ends=ARABIC_ENDS,
            script="Arab",
            normalization="persian",
        ),
        # XL-Sum's own stemmers (multilingual-rouge): rule-based Hindi and Bengali, and the
        # TurkishStemmer package.
        _danda("hi", "hindi", "Deva", "hin", stemmer="hindi"),
        _danda("bn", "bengali", "Beng", "ben", "bangla", stemmer="bengali"),
        Language(
            "tr",
            "turkish",
            stemmer="turkish",
            punkt="turkish",
            normalization="turkic",
            aliases=("tur", "turkce"),
        ),
        # Punkt models but no stemmer.
        Language("ml", "malayalam", punkt="malayalam", script="Mlym", aliases=("mal",)),
        Language("sl", "slovene", punkt="slovene", aliases=("slv", "slovenian")),
        # Nigerian Pidgin is written in English spelling: English abbreviations end no sentence.
        Language("pcm", "pidgin", punkt="english", aliases=("nigerian_pidgin",)),
        # Full stops of their own script (Punkt without a model, cut again after them).
        Language("mr", "marathi", ends=DANDA_ENDS, script="Deva", aliases=("mar",)),
        Language("gu", "gujarati", ends=DANDA_ENDS, script="Gujr", aliases=("guj",)),
        _danda("pa", "punjabi", "Guru", "pan", "panjabi"),
        Language("am", "amharic", ends=ETHIOPIC_ENDS, script="Ethi", aliases=("amh",)),
        Language("ti", "tigrinya", ends=ETHIOPIC_ENDS, script="Ethi", aliases=("tir",)),
        Language(
            "ur",
            "urdu",
            ends=ARABIC_ENDS,
            script="Arab",
            normalization="persian",
            aliases=("urd",),
        ),
        Language(
            "ps",
            "pashto",
            ends=ARABIC_ENDS,
            script="Arab",
            normalization="arabic",
            aliases=("pus", "pushto"),
        ),
        # Spaces between words, no stemmer or Punkt model: Unicode words, generic Punkt.
        Language("az", "azerbaijani", normalization="turkic", aliases=("aze",)),
        Language("cy", "welsh", aliases=("cym", "wel")),
        Language("gd", "scottish_gaelic", aliases=("gla", "gaelic")),
        Language("ha", "hausa", aliases=("hau",)),
        Language("he", "hebrew", script="Hebr", aliases=("heb", "iw")),
        Language("ig", "igbo", aliases=("ibo",)),
        Language("ky", "kyrgyz", script="Cyrl", aliases=("kir", "kirghiz")),
        Language("om", "oromo", aliases=("orm",)),
        Language("rn", "kirundi", aliases=("run", "rundi")),
        Language("si", "sinhala", script="Sinh", aliases=("sin", "sinhalese")),
        Language("so", "somali", aliases=("som",)),
        Language("sw", "swahili", aliases=("swa", "swh")),
        Language("te", "telugu", script="Telu", aliases=("tel",)),
        Language("uk", "ukrainian", script="Cyrl", aliases=("ukr",)),
        Language("uz", "uzbek", normalization="uzbek", aliases=("uzb",)),
        Language("vi", "vietnamese", aliases=("vie",)),
        Language("yo", "yoruba", aliases=("yor",)),
    ]
}

#: The language codes, in the order shown to users (the options table reads this).
LANGUAGE_CODES: tuple[str, ...] = tuple(sorted(LANGUAGES))


def describe_stemmers() -> str:
    """Which stemmer ``use_stemmer`` means for each language, read from :data:`LANGUAGES` (the
    option help and the CLI's ``--stem`` read it)."""
    own = [
        lang.code for lang in LANGUAGES.values() if lang.stemmer in ("hindi", "bengali", "turkish")
    ]
    snowball = sorted(
        lang.code
        for lang in LANGUAGES.values()
        if lang.stemmer not in (None, "porter", "hindi", "bengali", "turkish")
    )
    return (
        f"Porter for en (rouge_score's; XL-Sum's scorer uses Snowball english there), Snowball "
        f"for {', '.join(snowball)}, XL-Sum's own stemmers for {', '.join(own)}, and an error "
        f"for the other languages"
    )


#: Every other accepted name (lowercase) -> code: ISO 639-2/-3 codes, English and XL-Sum names.
ALIASES: dict[str, str] = {
    alias: lang.code
    for lang in LANGUAGES.values()
    for alias in (lang.name, lang.name.replace("_", " "), *lang.aliases)
}

#: Country codes and other near misses people write for a language code.
DID_YOU_MEAN: dict[str, str] = {
    "jp": "ja",
    "cn": "zh",
    "kr": "ko",
    "gr": "el",
    "cz": "cs",
    "dk": "da",
    "se": "sv",
    "ua": "uk",
    "ir": "fa",
    "pk": "ur",
    "bd": "bn",
    "mm": "my",
    "ng": "pcm",
    "br": "pt",
    "mx": "es",
    "rs": "sr",
    "tw": "zh",
    "hk": "zh",
    "vn": "vi",
    "ke": "sw",
}


#: Codes of languages without an entry whose nearest code is another language's ("tl" is
#: Tagalog, not Telugu "te"): the error names the language instead of suggesting the near miss.
NOT_HERE: dict[str, str] = {"tl": "Tagalog", "tgl": "Tagalog", "fil": "Filipino"}


def _close(key: str) -> str | None:
    """The code meant by a near miss, for the error message."""
    if key in DID_YOU_MEAN:
        return DID_YOU_MEAN[key]
    from difflib import get_close_matches  # only on the error path

    match = get_close_matches(key, [*LANGUAGES, *ALIASES], n=1, cutoff=0.75)
    return None if not match else ALIASES.get(match[0], match[0])


def get_language(code: object) -> Language | None:
    """The :class:`Language` for ``code`` (``None`` stays ``None``).

    Accepted, case-insensitively: ISO 639-1 codes (``zh``), ISO 639-2/-3 codes (``zho``),
    BCP-47 tags and locales (``zh-CN``, ``pt_BR``, ``sr-Latn``, ``ZH``), and the English or
    XL-Sum names (``chinese``, ``chinese_simplified``, ``bengali``).  Anything else is a
    ``ValueError`` listing the known codes, with a "did you mean" for common mistakes (``jp``,
    ``cn``, ``kr``), so a typo cannot silently fall back to English.
    """
    if code is None:
        return None
    if not isinstance(code, str):
        raise TypeError(f"language: expected a language code (str) or None, got {code!r}")
    text = code.strip().lower()
    if text in LANGUAGES:
        return LANGUAGES[text]
    if text in ALIASES:  # before splitting: XL-Sum names have underscores
        return LANGUAGES[ALIASES[text]]
    key = text.replace("_", "-").split("-")[0]  # "zh-CN", "pt_BR", "sr-Latn" -> base
    if key in LANGUAGES:
        return LANGUAGES[key]
    if key in ALIASES:
        return LANGUAGES[ALIASES[key]]
    close = None if key in NOT_HERE else _close(key)
    hint = f"; did you mean {close!r} ({LANGUAGES[close].name})?" if close else ""
    if key in NOT_HERE:
        hint = (
            f"; {key!r} is {NOT_HERE[key]}, which has no entry here (Telugu is 'te'): for a "
            f"language written with spaces between words, language=None scores Unicode words"
        )
    raise ValueError(
        f"language: expected None or one of {list(LANGUAGE_CODES)} (ISO 639-1; also ISO 639-3 "
        f"codes, BCP-47 tags such as 'zh-CN' and English names), got {code!r}{hint}"
    )
