"""The ``unicode`` tokenizer's and Punkt's character classes: the project's own table of one
Unicode version (rouge_lcs/text/unicode_data.py), read by both engines.

Oracles: ``unicodedata2`` of the table's version (the Unicode Character Database's general
categories), and the ``regex`` module's scripts and ``\\s``/``\\w``/``\\d`` when the installed
``regex`` implements that version (checked here on every code point, not assumed from its
release); hand-worked tokens of characters that the interpreter's own ``unicodedata`` does not
know yet.  The C extension's table (written by the build from the same file) against the file
on every code point; and, in a process where ``regex`` cannot be imported, the same tokens and
sentences as here.
"""

from __future__ import annotations

import subprocess
import sys
import unicodedata
from functools import cache

import pytest

from rouge_lcs import native
from rouge_lcs.text.unicode_classes import (
    class_body,
    parse,
    punkt_pattern,
    punkt_runs,
    token_runs,
    unicode_version,
)

unicodedata2 = pytest.importorskip("unicodedata2")


def _expand(runs) -> dict[int, int]:
    return {cp: value for first, last, value in runs for cp in range(first, last + 1)}


@cache
def _tokens() -> dict[int, int]:
    return _expand(token_runs())


@cache
def _punkt() -> dict[int, int]:
    return _expand(punkt_runs())


@cache
def _regex_of_this_version() -> object | None:
    """The installed ``regex`` when its general categories are the table's version's on every
    code point (so its scripts and classes are of that version too), else None."""
    regex = pytest.importorskip("regex")
    lmn = regex.compile(r"[\p{L}\p{M}\p{N}]")
    for cp in range(0x110000):
        if bool(lmn.match(chr(cp))) != (unicodedata2.category(chr(cp))[0] in "LMN"):
            return None
    return regex


def test_the_oracle_is_of_the_tables_version():
    assert unicodedata2.unidata_version == unicode_version() == "18.0.0"


def test_word_characters_are_letters_marks_and_numbers_of_that_version():
    # Class 1 or 2 for every L/M/N code point of Unicode 18.0; class 0 for every other code
    # point but the CJK scripts' symbols (class 2 by script: CJK radicals, ideographic marks).
    table = _tokens()
    missing = [
        cp
        for cp in range(0x110000)
        if unicodedata2.category(chr(cp))[0] in "LMN" and table.get(cp, 0) == 0
    ]
    extra = [
        cp
        for cp, value in table.items()
        if unicodedata2.category(chr(cp))[0] not in "LMN" and value != 2
    ]
    assert missing == [] and extra == []


def test_scripts_and_punkt_classes_equal_regex_of_the_same_version():
    regex = _regex_of_this_version()
    if regex is None:
        pytest.skip("the installed regex implements another Unicode version")
    cjk = regex.compile(r"[\p{Han}\p{Hiragana}\p{Katakana}]")
    table = _tokens()
    assert [cp for cp in range(0x110000) if bool(cjk.match(chr(cp))) != (table.get(cp) == 2)] == []
    space, word, digit = regex.compile(r"\s"), regex.compile(r"\w"), regex.compile(r"\d")
    punkt = _punkt()
    wrong = [
        cp
        for cp in range(0x110000)
        if punkt.get(cp, 0)
        != (
            bool(space.match(chr(cp)))
            | bool(word.match(chr(cp))) << 1
            | bool(digit.match(chr(cp))) << 2
        )
    ]
    assert wrong == []


def test_characters_newer_than_the_interpreter_are_word_characters():
    from rouge_lcs.text.tokenizers import unicode_tokenize

    # U+1C8A CYRILLIC SMALL LETTER TJE (Unicode 16.0, Ll); U+A7CE LATIN CAPITAL LETTER PHARYNGEAL
    # VOICED FRICATIVE is 17.0: their lowercase forms are not needed here, so take lowercase
    # letters only.  The interpreter may not know them; the table does.
    assert unicodedata2.category("\u1c8a") == "Ll"
    assert unicode_tokenize("ab\u1c8acd ef") == ["ab\u1c8acd", "ef"]
    # An unassigned code point of Unicode 18.0 separates.
    assert unicodedata2.category("\u0378") == "Cn"
    assert unicode_tokenize("ab\u0378cd") == ["ab", "cd"]


def test_parse_reads_single_code_points_and_runs():
    assert parse("30-39:1 AA:2 1F600-1F64F:4") == [
        (0x30, 0x39, 1),
        (0xAA, 0xAA, 2),
        (0x1F600, 0x1F64F, 4),
    ]


def test_class_body_merges_adjacent_runs_and_drops_bits():
    runs = ((0x30, 0x39, 6), (0x3A, 0x3B, 2), (0x100, 0x100, 2))
    assert class_body(runs, 2) == "0-\\U0000003b\\U00000100"
    assert class_body(runs, 2, drop=4) == "\\U0000003a-\\U0000003b\\U00000100"


def test_punkt_pattern_writes_out_every_class_escape():
    import re

    space = f"[{class_body(punkt_runs(), 1)}]"
    assert punkt_pattern(r"a\sb") == f"a{space}b"
    written = punkt_pattern(r"^-?[\.,]?\d[\d,\.-]*\.?$")
    assert "\\d" not in written and "\\s" not in written
    assert re.fullmatch(written, "-3,5.") and not re.fullmatch(written, "x3")
    # a letter: [^\W\d] of NLTK's initials
    initial = re.compile(punkt_pattern(r"[^\W\d]\.$"))
    assert initial.search("J.") and initial.search("\u00c9.") and not initial.search("3.")
    with pytest.raises(ValueError):
        punkt_pattern(r"[\S]")


@pytest.mark.skipif(not native.available(), reason="the compiled extension is not built")
def test_the_c_table_is_the_file_on_every_code_point():
    from rouge_lcs import _native

    assert native.native_unicode()
    assert unicode_version() == _native.UNICODE_VERSION
    table, punkt = _tokens(), _punkt()
    assert [
        cp for cp in range(0x110000) if _native._test_unicode_class(cp) != table.get(cp, 0)
    ] == []
    assert [cp for cp in range(0x110000) if _native._test_punkt_class(cp) != punkt.get(cp, 0)] == []


_WITHOUT_REGEX = r"""
import json, sys
sys.modules["regex"] = None  # any import of regex fails
from rouge_lcs import native
from rouge_lcs.text.tokenizers import unicode_tokenize
from rouge_lcs.text.sentences import nltk_split
from rouge_lcs import rouge
texts = json.loads(sys.argv[1])
print(json.dumps({
    "native_unicode": native.native_unicode(),
    "tokens": [unicode_tokenize(t) for t in texts],
    "sentences": [nltk_split(t) for t in texts],
    "scores": rouge(texts, texts[::-1], ["rouge1", "rougeLsum"]),
}))
"""

_TEXTS = [
    "Dr. Smith went to Washington. He arrived at 3 p.m. on Monday!",
    "서울은 한국의 수도이다. 인구는 천만 명이다.",
    "東京は日本の首都です。人口は多い。",
    "ዛሬ ጥሩ ቀን ነው። ነገ ዝናብ ይዘንባል።",
    "Il était une fois... une princesse. Elle dormait.",
    "ab\u1c8acd ef. Gh ij.",
]


@pytest.mark.parametrize("engine", ["native", "python"])
def test_tokens_sentences_and_scores_do_not_need_regex(engine, monkeypatch):
    import json

    from rouge_lcs import rouge
    from rouge_lcs.text.sentences import nltk_split
    from rouge_lcs.text.tokenizers import unicode_tokenize

    if engine == "native" and not native.available():
        pytest.skip("the compiled extension is not built")
    monkeypatch.setenv("ROUGE_LCS_IMPLEMENTATION", engine)
    out = subprocess.run(
        [sys.executable, "-c", _WITHOUT_REGEX, json.dumps(_TEXTS)],
        capture_output=True,
        text=True,
        check=True,
    )
    got = json.loads(out.stdout)
    assert got["native_unicode"] == native.available()
    assert got["tokens"] == [unicode_tokenize(t) for t in _TEXTS]
    assert got["sentences"] == [nltk_split(t) for t in _TEXTS]
    assert got["scores"] == pytest.approx(
        rouge(_TEXTS, _TEXTS[::-1], ["rouge1", "rougeLsum"]), abs=0
    )


def test_interpreter_categories_agree_where_the_interpreter_knows_the_character():
    # Where the interpreter's own Unicode version assigns a character the same general
    # category as Unicode 18.0, the table agrees with it too (the table is not tied to it).
    table = _tokens()
    wrong = [
        cp
        for cp in range(0x110000)
        if (cat := unicodedata.category(chr(cp))) != "Cn"
        and cat == unicodedata2.category(chr(cp))
        and (cat[0] in "LMN") != (table.get(cp, 0) != 0)
        and table.get(cp) != 2
    ]
    assert wrong == []
