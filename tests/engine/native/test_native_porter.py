"""NLTK's Porter stemmer ported to C (csrc/porter.h) against NLTK itself."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from native_helpers import (
    DATA,
    needs_native,
)

from rouge_lcs.engine import native
from rouge_lcs.text.tokenizers import unicode_tokenize

DICTIONARY = "/usr/share/dict/american-english-huge"  # Debian's wamerican-huge


def _corpus_words(ascii_only: bool = True) -> set[str]:
    import json
    import re

    words: set[str] = set()
    for path in sorted(Path(DATA).glob("*/data.jsonl")):
        for line in path.open(encoding="utf-8"):
            row = json.loads(line)
            texts = [row["prediction"], *row["references"]]
            for text in texts:
                words.update(re.findall(r"[a-z0-9]+", text.lower()))
                words.update(text.split())
                if not ascii_only:  # the unicode tokenizer's tokens
                    words.update(unicode_tokenize(text))
    return {w for w in words if w.isascii() or not ascii_only}


@needs_native
@pytest.mark.slow
def test_porter_port_equals_nltk_on_200000_words():
    # Every word of Debian's huge American English list (as is and lowercased) and every token
    # of the shared corpora: the C port must give NLTK's PorterStemmer() stem for each.
    from nltk.stem.porter import PorterStemmer
    from rouge_lcs._native import _test_porter_stem as porter_stem

    if not Path(DICTIONARY).exists():
        pytest.skip(f"{DICTIONARY} missing: apt-get install wamerican-huge")
    lines = Path(DICTIONARY).read_text(encoding="utf-8").split()
    words = {w for w in lines if w.isascii()} | {w.lower() for w in lines if w.isascii()}
    words |= _corpus_words()
    assert len(words) >= 200_000
    stemmer = PorterStemmer()
    wrong = [(w, stemmer.stem(w), porter_stem(w)) for w in sorted(words)]
    wrong = [case for case in wrong if case[1] != case[2]]
    assert wrong == []


@needs_native
def test_porter_port_on_rule_edge_cases():
    from nltk.stem.porter import PorterStemmer
    from rouge_lcs._native import _test_porter_stem as porter_stem

    stemmer = PorterStemmer()
    words = [
        "skies", "dying", "news", "innings", "ties", "pies", "died", "cried", "agreed", "feed",
        "hopping", "falling", "hissing", "fizzed", "failing", "filing", "happy", "enjoy", "spy",
        "sky", "syzygy", "yyyy", "toy", "formalli", "analogi", "relational", "conditional",
        "controll", "roll", "probate", "rate", "cease", "generalization", "oscillators",
        "adoption", "a", "ab", "abc", "Running", "CATS", "1990s", "x" * 1000, "y" * 999,
        "İy", "İyy", "Skies", "Howe",
    ]  # fmt: skip
    assert [porter_stem(w) for w in words] == [stemmer.stem(w) for w in words]
    # More than 128 distinct non-ASCII characters: declined (the encoder then asks NLTK).
    with pytest.raises(ValueError, match="non-ASCII"):
        porter_stem("".join(map(chr, range(0x4E00, 0x4E00 + 129))))
    with pytest.raises(TypeError):
        porter_stem(b"cats")

    class Odd(str):  # a str subclass whose lower() is not a str: stemmed as the str it is
        def lower(self):
            return 12345678901234567890

    assert porter_stem(Odd("Cats")) == "cat" and porter_stem(Odd("ab")) == "ab"


@needs_native
def test_porter_port_equals_nltk_on_every_non_ascii_corpus_word():
    # NLTK's rules see a non-ASCII letter only as "a consonant that is not y, w, x, l, s or z";
    # the port gives each distinct one a distinct byte >= 128, which its rules treat the same.
    from nltk.stem.porter import PorterStemmer
    from rouge_lcs._native import _test_porter_stem as porter_stem

    words = {w for w in _corpus_words(ascii_only=False) if not w.isascii()}
    assert len(words) > 10_000
    stemmer = PorterStemmer()
    assert [w for w in sorted(words) if porter_stem(w) != stemmer.stem(w)] == []


_LETTERS = st.sampled_from(
    list("aeiouyswxlzbcdgmnprt") + list("éüñçøßİıǅΩωжЖ한日ी\u0301") + ["\u00e9"] * 3
)


_SUFFIXES = st.sampled_from(
    ["", "ing", "ed", "ies", "ied", "s", "ss", "ational", "ization", "fulness", "ly", "e", "y",
     "ement", "izer", "bli", "logi", "alli", "ousli", "aliti", "ll", "ate", "ize"]
)  # fmt: skip


@needs_native
@settings(max_examples=3000, deadline=None)
@given(stem=st.lists(_LETTERS, max_size=12).map("".join), suffix=_SUFFIXES)
def test_porter_port_equals_nltk_on_mixed_script_words(stem, suffix):
    from nltk.stem.porter import PorterStemmer
    from rouge_lcs._native import _test_porter_stem as porter_stem

    word = stem + suffix
    assert porter_stem(word) == PorterStemmer().stem(word)


@needs_native
def test_native_stemming_of_non_ascii_words_does_not_import_nltk():
    code = (
        "import sys; from rouge_lcs import score;"
        "score(['Les cafés généralisés étaient fermés'], ['Le café généralisé était fermé'],"
        " ['rouge1'], use_stemmer=True);"
        "assert 'nltk' not in sys.modules, 'nltk imported'"
    )
    env = {**os.environ, native.ENV: "native"}
    subprocess.run([sys.executable, "-c", code], check=True, env=env)
