"""Batched clipped n-gram matches against a direct Counter computation."""

from __future__ import annotations

from collections import Counter

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from rouge_lcs.engine.reference.ngrams import NgramCounter

docs_strategy = st.lists(st.lists(st.integers(0, 4), max_size=14), min_size=1, max_size=6)


def _clipped(a: list[int], b: list[int], n: int) -> int:
    grams_a = Counter(tuple(a[i : i + n]) for i in range(len(a) - n + 1))
    grams_b = Counter(tuple(b[i : i + n]) for i in range(len(b) - n + 1))
    return sum((grams_a & grams_b).values())


@given(docs_strategy, st.data())
@settings(max_examples=200, deadline=None)
def test_hits_equal_counter_intersection(docs, data):
    flat = np.array([t for d in docs for t in d], dtype=np.int64)
    counter = NgramCounter(flat, np.array([len(d) for d in docs], dtype=np.int64))
    index = st.integers(0, len(docs) - 1)
    pairs = data.draw(st.lists(st.tuples(index, index), min_size=1, max_size=8))
    pred = np.array([p for p, _ in pairs])
    ref = np.array([r for _, r in pairs])
    for n in (1, 2, 3, 4, 7):
        expected = [_clipped(docs[p], docs[r], n) for p, r in pairs]
        assert counter.hits(n, pred, ref).tolist() == expected
        assert counter.totals(n).tolist() == [max(len(d) - n + 1, 0) for d in docs]
