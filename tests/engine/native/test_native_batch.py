"""A batch's checks and numbering in C (csrc/py_batch.h) on both engines: number_texts,
exact_strs, all_utf8, and the scorer's text checks.
"""

from __future__ import annotations

import random
from array import array

import pytest
from native_helpers import (
    _Text,
    needs_native,
)

from rouge_lcs import Rouge
from rouge_lcs.engine import native


@needs_native
def test_number_texts_hand_worked_on_both_engines():
    from rouge_lcs.engine.reference.python import BACKEND as PYTHON

    # first-seen order, pair texts first: a=0 b=1 c=2, then the references' new d=3
    pairs, refs = ["a", "b", "a", "c"], ["b", "d", "a", "d"]
    want = (["a", "b", "c", "d"], [0, 1, 0, 2], [1, 3, 0, 3])
    for engine in (PYTHON, native.BACKEND):
        texts, pair_pred, pair_ref = engine.number_texts(pairs, refs)
        assert (texts, list(pair_pred), list(pair_ref)) == want
        assert pair_pred.typecode == pair_ref.typecode == "q"


@needs_native
def test_number_texts_agrees_between_engines_on_equal_but_distinct_strings():
    from rouge_lcs.engine.reference.python import BACKEND as PYTHON

    rng = random.Random(3)
    words = ["", "x", "é", "中", "😀", "a b", "\ud800", "long " * 40]
    # equal strings built separately are distinct objects: numbered by value, not identity
    pairs = ["".join(rng.choice(words) for _ in range(rng.randint(0, 3))) for _ in range(3000)]
    refs = ["".join(rng.choice(words) for _ in range(rng.randint(0, 3))) for _ in range(3000)]
    got, want = native.BACKEND.number_texts(pairs, refs), PYTHON.number_texts(pairs, refs)
    assert got[0] == want[0] and got[1] == want[1] and got[2] == want[2]
    assert native.BACKEND.number_texts([], []) == ([], array("q"), array("q"))


@needs_native
def test_number_texts_of_texts_alike_in_length_and_start_agree_between_engines():
    from rouge_lcs.engine.reference.python import BACKEND as PYTHON

    # a template's texts: one length, one first 16 characters, told apart further on (the C
    # numbering's quick key is the length and start; past a few such texts it numbers again
    # with Python's hash), each also repeated as a distinct object
    texts = [f"Summarize this: {k:06d} and {k % 7}." for k in range(2000)]
    pairs = texts + ["".join(t) for t in texts[::3]]
    refs = [texts[(7 * k) % len(texts)] for k in range(len(pairs))]
    got, want = native.BACKEND.number_texts(pairs, refs), PYTHON.number_texts(pairs, refs)
    assert len(want[0]) == 2000
    assert got[0] == want[0] and got[1] == want[1] and got[2] == want[2]
    # a few such texts: numbered with the quick keys alone
    few = texts[:5] + texts[:5]
    got, want = native.BACKEND.number_texts(few, few[::-1]), PYTHON.number_texts(few, few[::-1])
    assert got[0] == want[0] and got[1] == want[1] and got[2] == want[2]


@needs_native
def test_number_texts_of_a_range_equal_the_range_sliced_on_both_engines():
    from rouge_lcs.engine.reference.python import BACKEND as PYTHON

    # items 2 .. 4 of the lists: d=0 a=1 e=2 from the pairs, then the references' b=3 (the
    # items outside the range are not seen, so "x" and "y" get no number)
    pairs, refs = ["x", "y", "d", "a", "e", "x"], ["y", "x", "b", "d", "b", "y"]
    want = (["d", "a", "e", "b"], [0, 1, 2], [3, 0, 3])
    for engine in (PYTHON, native.BACKEND):
        texts, pair_pred, pair_ref = engine.number_texts(pairs, refs, 2, 5)
        assert (texts, list(pair_pred), list(pair_ref)) == want
        assert engine.number_texts(pairs, refs, 4) == engine.number_texts(pairs[4:], refs[4:])
        assert engine.number_texts(pairs, refs, 6) == ([], array("q"), array("q"))


@needs_native
@pytest.mark.parametrize("start, n_out", [(-1, 1), (3, 0), (2, 2), (1, 2)])
def test_number_texts_refuses_a_range_outside_the_lists(start, n_out):
    outs = [array("q", bytes(8 * n_out)) for _ in range(2)]
    with pytest.raises(ValueError, match="do not fit"):
        native._native.number_texts(["a", "b"], ["c", "d"], *outs, start)


@needs_native
@pytest.mark.parametrize(
    "pairs, refs, n_out, error, match",
    [
        (["a", 1], ["b", "c"], 2, TypeError, r"pair_texts\[1\]: expected a str"),
        (["a"], [b"b"], 1, TypeError, r"ref_texts\[0\]: expected a str"),
        (["a"], [_Text("b")], 1, TypeError, r"ref_texts\[0\]"),  # callers pass exact strs
        (["a", "b"], ["c"], 2, ValueError, "same length"),
        (["a"], ["b"], 2, ValueError, "do not fit"),
    ],
)
def test_number_texts_checks_what_enters(pairs, refs, n_out, error, match):
    outs = [array("q", bytes(8 * n_out)) for _ in range(2)]
    with pytest.raises(error, match=match):
        native._native.number_texts(pairs, refs, *outs)
    with pytest.raises(TypeError):
        native._native.number_texts(("a",), ["b"], *outs)  # a list, not a tuple
    with pytest.raises(TypeError):
        native._native.number_texts(["a"], ["b"], b"\0" * 8, outs[1])  # read-only output
    shared = array("q", [0])
    with pytest.raises(ValueError, match="overlaps"):
        native._native.number_texts(["a"], ["b"], shared, shared)


@needs_native
@pytest.mark.parametrize(
    "items, want",
    [
        ([], True),  # every item of none
        (["a", "", "中", "\ud800"], True),
        (["a"] * 40 + [_Text("b")], False),  # a subclass, past the prefetched ones
        ([1] + ["a"] * 40, False),
        (["a"] * 39 + [None], False),  # the last item
        ([b"a"], False),
    ],
)
def test_exact_strs_is_set_of_types_on_both_engines(items, want):
    # Backend.exact_strs answers what validation's set(map(type, items)) <= {str} answers
    from rouge_lcs.base.validation import exact_strs
    from rouge_lcs.engine.reference.python import BACKEND as PYTHON

    assert exact_strs(items) is want
    assert PYTHON.exact_strs(items) is want
    assert native.BACKEND.exact_strs(items) is want


@needs_native
@pytest.mark.parametrize("function", ["exact_strs", "all_utf8"])
def test_the_batch_checks_take_only_a_list(function):
    with pytest.raises(TypeError, match=f"{function}: expected a list, got tuple"):
        getattr(native._native, function)(("a",))


@needs_native
@pytest.mark.parametrize(
    "texts, want",
    [
        ([], True),
        (["a", "é", "中", "😀", "\u00ff" * 300], True),
        (["a"] * 40 + ["x" * 500 + "中\ud800"], False),  # a two-byte text, past a block
        (["😀" * 300 + "\udfff"], False),  # a four-byte one
        (["\ud83d\ude00"], False),  # two surrogates are not one character
        ([_Text("中\udc00")], False),  # a subclass, read by its characters
        (["\ud7ff\ue000\U0010ffff"], True),  # beside the surrogates
    ],
)
def test_all_utf8_finds_surrogates_on_both_engines(texts, want):
    # UTF-8 encodes every code point but the surrogates U+D800..U+DFFF (the definition)
    from rouge_lcs.engine.reference.python import BACKEND as PYTHON

    assert all(not 0xD800 <= ord(c) <= 0xDFFF for text in texts for c in text) is want
    assert PYTHON.all_utf8(texts) is want
    assert native.BACKEND.all_utf8(texts) is want


@needs_native
def test_all_utf8_checks_each_item():
    with pytest.raises(TypeError, match=r"texts\[1\]: expected a str, got bytes"):
        native._native.all_utf8(["a", b"b"])


def test_scoring_checks_texts_with_the_engine_and_keeps_the_messages():
    # The scorers and the evaluate module check texts through the engine (checked_texts):
    # the same messages as check_texts, and a str subclass scored as its text.
    from rouge_lcs.integrations.hub import check_batch

    scorer = Rouge(["rouge1"])
    with pytest.raises(TypeError, match=r"predictions\[40\]: expected str, got int"):
        scorer.score(["a b"] * 40 + [1], ["a"] * 41)
    with pytest.raises(TypeError, match=r"references\[1\]: expected str or a list"):
        scorer.score(["a", "b"], ["a", None])
    assert scorer.score([_Text("a b")], ["a c"]).fmeasure[0, 0] == 0.5  # hand-worked: 1 of 2
    with pytest.raises(TypeError, match=r"predictions\[1\]: expected str, got bytes"):
        check_batch(["a", b"b"], ["a", "b"])
