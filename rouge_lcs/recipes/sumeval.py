"""sumeval 0.2.2's ROUGE (PyPI ``sumeval``, ``RougeCalculator(lang="en")``), English.

What it does, as its source does it (``sumeval/metrics/rouge.py``, ``lang/lang_en.py``,
``lang/base_lang.py``):

- words: ``-`` padded with spaces, every character but ASCII letters, digits and ``-``
  replaced by a space, the text split at spaces and pieces not starting with a letter or a
  digit dropped (so ``-`` goes): the ASCII letter and digit runs, then lowercased ("naïve" is
  "na" "ve"; rouge_score lowercases *first*, so a Kelvin sign is a "k" there and a space here);
- ``stopwords=True`` (the default): words of its stop list removed (ROUGE-1.5.5's SMART list,
  word for word);
- ``stemming=True``: *references only* are stemmed (its reading of the script's ``-m``), by a
  WordNet 2.0 exception table and nothing else (no Porter), for words of 3 characters or more;
  the table is built from the adj, adv, noun, verb lists with a later list winning, and keeps
  every base form of a line: "axes" becomes the one word "ax axis", which no summary word
  matches; the stop words go before the stemming;
- ROUGE-N and ROUGE-L (a plain LCS, no sentences) pooled over references: the clipped hits
  and the reference lengths summed, the summary's length counted once per reference;
  F = P R / ((1 - a) P + a R) with a = 0.5, 0 when a denominator is 0;
- the corpus number: the mean of per-example F (``sumeval r`` prints ``statistics.mean``).

ROUGE-BE (spaCy's parser) is not a recipe.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rouge_lcs.recipes import wordnet
from rouge_lcs.rouge155.tokenize import stopwords as smart_stopwords

__all__ = ["stem_table", "texts", "words"]

_WORD = re.compile(r"[A-Za-z0-9]+")

#: Written between the base forms of a stem that holds several ("ax axis"): the engine's
#: whitespace tokens are then sumeval's words, and no word of a text contains it.
_JOIN = "+"


def stem_table() -> dict[str, str]:
    """sumeval's English stemming table for the words its tokenizer can produce: the
    script's WordNet 2.0 exceptions with sumeval's own entries over them
    (``data/sumeval_exceptions.tsv``)."""
    return wordnet.table("sumeval")


def words(text: str, *, stopwords: bool = True, stem: bool = False) -> list[str]:
    """sumeval's words of ``text`` (``stem``: as a reference is stemmed; a stem of several
    base forms is one word, its forms joined by ``"+"``)."""
    out = [w.lower() for w in _WORD.findall(text)]
    if stopwords:
        stop = smart_stopwords()
        out = [w for w in out if w not in stop]
    if stem:
        table = stem_table()
        out = [table.get(w, w) if len(w) >= 3 else w for w in out]
        out = [w.replace(" ", _JOIN) for w in out]
    return out


def texts(
    predictions: Sequence[str], references: Sequence[Sequence[str]], *, stopwords: bool, stem: bool
) -> tuple[list[str], list[list[str]]]:
    """The batch as space-joined sumeval words (references stemmed when ``stem``), for the
    engine's whitespace tokenizer; each distinct text tokenized once per side."""
    memo: dict[tuple[str, bool], str] = {}

    def joined(text: str, is_reference: bool) -> str:
        key = (text, is_reference)
        found = memo.get(key)
        if found is None:
            found = memo[key] = " ".join(
                words(text, stopwords=stopwords, stem=stem and is_reference)
            )
        return found

    return (
        [joined(p, False) for p in predictions],
        [[joined(r, True) for r in refs] for refs in references],
    )
