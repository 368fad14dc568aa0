"""Property tests (hypothesis) of the scores."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rouge_lcs import score

# Every test here runs on both engines (numbers must be bit-identical).
pytestmark = pytest.mark.usefixtures("engine")

TYPES = ["rouge1", "rouge2", "rouge3", "rougeL", "rougeLsum"]
words = st.sampled_from(["the", "cat", "sat", "on", "a", "mat", "서울", "東", "runs", "dog"])
sentence = st.lists(words, min_size=0, max_size=12).map(" ".join)
text = st.lists(sentence, min_size=1, max_size=3).map("\n".join)


@given(st.lists(st.tuples(text, text), min_size=1, max_size=5), st.booleans())
@settings(max_examples=150, deadline=None)
def test_scores_in_unit_interval_and_swap_symmetry(pairs, stem):
    preds, refs = map(list, zip(*pairs))
    forward = score(preds, refs, TYPES, use_stemmer=stem)
    for values in (forward.precision, forward.recall, forward.fmeasure):
        assert np.all((values >= 0) & (values <= 1))
    # ROUGE-Lsum is left out of the swap: the union-LCS is taken per *reference* sentence, so
    # it is asymmetric by definition (pred "the\nthe", ref "the the": P = 1/2; swapped: 1).
    symmetric = TYPES[:-1]
    forward = score(preds, refs, symmetric, use_stemmer=stem)
    backward = score(refs, preds, symmetric, use_stemmer=stem)
    np.testing.assert_array_equal(forward.precision, backward.recall)
    np.testing.assert_array_equal(forward.recall, backward.precision)
    np.testing.assert_allclose(forward.fmeasure, backward.fmeasure, rtol=0, atol=1e-15)


def test_lsum_is_asymmetric_as_in_rouge_score():
    from rouge_score import rouge_scorer

    scorer = rouge_scorer.RougeScorer(["rougeLsum"])
    expected = scorer.score("the the", "the\nthe")["rougeLsum"]  # (target, prediction)
    s = score(["the\nthe"], ["the the"], ["rougeLsum"])
    got = (s.precision[0, 0], s.recall[0, 0])
    assert got == (expected.precision, expected.recall) == (0.5, 0.5)


@given(text)
@settings(max_examples=100, deadline=None)
def test_identical_texts_score_one(t):
    s = score([t], [t], TYPES)
    n_tokens = len(t.split())
    for k, name in enumerate(TYPES):
        n = {"rouge1": 1, "rouge2": 2, "rouge3": 3}.get(name, 1)
        expected = 1.0 if n_tokens >= n else 0.0  # n-grams span newlines, as in rouge_score
        assert s.fmeasure[0, k] == expected, name


@given(text, text)
@settings(max_examples=150, deadline=None)
def test_rouge_l_at_most_rouge_1(pred, ref):
    s = score([pred], [ref], ["rouge1", "rougeL", "rougeLsum"])
    assert s.fmeasure[0, 1] <= s.fmeasure[0, 0]
    assert s.fmeasure[0, 2] <= s.fmeasure[0, 0] + 1e-15
    assert s.recall[0, 1] <= s.recall[0, 0]
