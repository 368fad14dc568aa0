"""Spelling variants that a language's readers call the same word, folded before tokenizing.

Each fold is applied to the text before a built-in tokenizer runs (with ``language=`` and
``normalize_spelling=True``, the default) and is named in the signature (``norm:nfkc+arabic``):

- ``arabic`` (Arabic, Pashto): the optional vowel marks (harakat: fathatan … sukun, U+064B–U+0652,
  and the superscript alef U+0670) and the tatweel (U+0640, a stretching stroke) are removed —
  ``كَتَبَ`` and ``كتب`` are one word written with and without vowels; Arabic-Indic and Persian
  digits become ASCII digits (``٢٠٢٤`` / ``۲۰۲۴`` / ``2024``).
- ``persian`` (Persian, Urdu): ``arabic``, and the Arabic letter forms keyboards put in place of
  the Persian ones: yeh ي and alef maksura ى -> ی (U+06CC), kaf ك -> ک (U+06A9).
- ``turkic`` (Turkish, Azerbaijani): the dotted and dotless I are two letters, so ``İ`` lowercases
  to ``i`` (not ``i`` + U+0307, Python's default) and ``I`` to ``ı``: ``İSTANBUL`` = ``istanbul``.
- ``german``: ``ß`` and ``ẞ`` -> ``ss``, the full case folding (``Straße`` = ``STRASSE``).
- ``serbian``: Cyrillic -> Latin (Serbian is written in both, letter for letter the same words:
  ``Београд`` = ``Beograd``; the Snowball stemmer transliterates too).
- ``uzbek``: the apostrophe of oʻ, gʻ and the tutuq belgisi is written ``'``, ``‘``, ``’``, ``ʻ``
  or ``ʼ``; between letters all become ``ʼ`` (U+02BC, a letter, so the word stays one token).

Only built-in tokenizers get folded text: a callable is the user's whole definition of a token.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from rouge_lcs.base.records import record

TYPE_CHECKING = False  # not typing's: importing typing costs ~5 ms (see rouge_lcs.base.records)
if TYPE_CHECKING:
    import re

_HARAKAT = [*range(0x064B, 0x0653), 0x0670, 0x0640]  # vowel marks, superscript alef, tatweel
_DIGITS = {0x0660 + d: str(d) for d in range(10)} | {0x06F0 + d: str(d) for d in range(10)}
_ARABIC: dict[int, str | None] = {**dict.fromkeys(_HARAKAT), **_DIGITS}
_PERSIAN: dict[int, str | None] = {
    **_ARABIC,
    0x064A: "\u06cc",  # ي -> ی
    0x0649: "\u06cc",  # ى -> ی
    0x0643: "\u06a9",  # ك -> ک
}
_GERMAN = {0x00DF: "ss", 0x1E9E: "ss"}

# Serbian Cyrillic -> Latin (Vuk's alphabet and Gaj's Latin alphabet correspond one to one).
_SR_CYRILLIC = "абвгдђежзијклљмнњопрстћуфхцчџш"
_SR_LATIN = [
    "a",
    "b",
    "v",
    "g",
    "d",
    "đ",
    "e",
    "ž",
    "z",
    "i",
    "j",
    "k",
    "l",
    "lj",
    "m",
    "n",
    "nj",
    "o",
    "p",
    "r",
    "s",
    "t",
    "ć",
    "u",
    "f",
    "h",
    "c",
    "č",
    "dž",
    "š",
]
_SERBIAN: dict[int, str] = {}
for _cyr, _lat in zip(_SR_CYRILLIC, _SR_LATIN):
    _SERBIAN[ord(_cyr)] = _lat
    _SERBIAN[ord(_cyr.upper())] = _lat.capitalize()


@cache
def _uz_apostrophe() -> re.Pattern[str]:
    # Compiled at the first Uzbek text: `import re` costs ~3 ms of every fresh process.
    import re

    return re.compile(r"(?<=\w)['‘’ʻʼ`](?=\w)")


def _turkic(text: str) -> str:
    # "I" + combining dot above is İ written in two code points (NFD, or Python's lower()).
    return text.replace("I\u0307", "i").replace("İ", "i").replace("I", "ı")


def _uzbek(text: str) -> str:
    return _uz_apostrophe().sub("\u02bc", text)


def _table(table: dict[int, str | None] | dict[int, str]) -> Callable[[str], str]:
    def fold(text: str) -> str:
        return text.translate(table)

    return fold


#: name -> the function from text to folded text.
FOLDS: dict[str, Callable[[str], str]] = {
    "arabic": _table(_ARABIC),
    "persian": _table(_PERSIAN),
    "turkic": _turkic,
    "german": _table(_GERMAN),
    "serbian": _table(_SERBIAN),
    "uzbek": _uzbek,
}


@record
class Folded:
    """A tokenizer that folds the text first (a class, not a closure, so that settings pickle
    for ``num_proc`` worker processes)."""

    split: Callable[[str], list[str]]
    fold: str

    def __call__(self, text: str) -> list[str]:
        return self.split(FOLDS[self.fold](text))
