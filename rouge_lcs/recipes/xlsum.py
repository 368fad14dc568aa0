"""XL-Sum's scorer (PyPI ``multilingual-rouge`` 0.0.1, a fork of rouge_score) on English text.

What its ``RougeScorer(types, use_stemmer=…, lang=None or "english")`` does, as its source does
it (``multilingual_rouge/rouge_scorer.py``, ``tokenization_wrapper.py``, ``tokenizers.py``):

- ROUGE-1, -2, -L: the text lowercased, then a BERT basic tokenizer (control and format
  characters removed, every punctuation mark and ASCII symbol a word boundary), then OpenNMT's
  ``pyonmttok.Tokenizer("aggressive")`` (a letter run, a number run, each other character one
  token: "440million" is "440" "million", "3d" is "3" "d"), CJK ideographs one token each;
- ROUGE-Lsum: newline sentences tokenized *without* the OpenNMT step (``tokenize.tokenize(s,
  stemmer)`` passes no tokenizer): "440million" stays one token there;
- ``use_stemmer=True`` with ``lang=None``: NLTK's Porter on tokens longer than 3 characters
  (rouge_score's); with ``lang="english"`` Snowball English with NLTK's stop words unstemmed,
  which needs NLTK's stop-word download (not emulated here);
- one reference per example (no ``score_multi``).
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from rouge_lcs.text.tokenizers import xlsum_clean

if TYPE_CHECKING:
    import re

    import regex

__all__ = ["words", "sentence_words"]

# The CJK Unified Ideograph blocks of the BERT tokenizer's _is_chinese_char.
_CJK = (
    "\u4e00-\u9fff\u3400-\u4dbf\U00020000-\U0002a6df\U0002a700-\U0002b73f"
    "\U0002b740-\U0002b81f\U0002b820-\U0002ceaf\uf900-\ufaff\U0002f800-\U0002fa1f"
)


@cache
def _ascii() -> re.Pattern[str]:
    import re

    # ASCII after the BERT step: only letters, digits and spaces are left, and the aggressive
    # mode cuts where letters meet digits.
    return re.compile(r"[a-z]+|[0-9]+")


@cache
def _ascii_words() -> re.Pattern[str]:
    import re

    # ASCII after the BERT step alone: every character but a letter or a digit separates.
    return re.compile(r"[a-z0-9]+")


@cache
def _ascii_control() -> re.Pattern[str]:
    import re

    # ASCII controls but tab, newline and return: the BERT step deletes them (joining the
    # letters around them), so such text takes the general path.
    return re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


@cache
def _aggressive() -> regex.Pattern[str]:
    import regex

    # OpenNMT's aggressive mode on text without punctuation: a letter run or a number run
    # (combining marks stay with them), a run of marks that starts a word, every other
    # character (with its marks) one token; then each CJK ideograph on its own.
    return regex.compile(
        rf"[{_CJK}]|[\p{{L}}--[{_CJK}]][[\p{{L}}\p{{M}}]--[{_CJK}]]*|\p{{N}}[\p{{N}}\p{{M}}]*"
        r"|( ?)(\p{M}+)|\S\p{M}*",
        regex.V1,
    )


#: What OpenNMT writes for the space a combining mark was typed after (its escaped U+0020).
_SPACE_MARK = "\uff050020"


def _aggressive_words(text: str) -> list[str]:
    out = []
    for match in _aggressive().finditer(text):
        if match.group(2):
            out.append((_SPACE_MARK if match.group(1) else "") + match.group(2))
        else:
            out.append(match.group(0))
    return out


def words(text: str) -> list[str]:
    """The scorer's ROUGE-1/2/L tokens of ``text`` (before stemming)."""
    lowered = text.lower()
    if lowered.isascii() and _ascii_control().search(lowered) is None:
        return _ascii().findall(lowered)
    return _aggressive_words(xlsum_clean(lowered))


def sentence_words(text: str) -> list[str]:
    """The scorer's ROUGE-Lsum tokens of one sentence: the BERT step only."""
    lowered = text.lower()
    if lowered.isascii() and _ascii_control().search(lowered) is None:
        return _ascii_words().findall(lowered)  # what the cleaning leaves of ASCII, at once
    return xlsum_clean(lowered).split()
