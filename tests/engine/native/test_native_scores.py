"""Precision, recall and F from counts in C (csrc/scores.h, bound by csrc/py_scores.h) against
the NumPy reference and hand-worked values, and column_sums against math.fsum.
"""

from __future__ import annotations

import pickle
import random
from array import array

import numpy as np
import pytest
from native_helpers import (
    _native_combine,
    needs_native,
)

from rouge_lcs import Rouge
from rouge_lcs.engine import native


def _random_counts(rng: np.random.Generator, n_examples: int, n_types: int, max_refs: int):
    n_refs = rng.integers(1, max_refs + 1, n_examples).astype(np.int64)
    pairs = int(n_refs.sum())
    totals = rng.integers(0, 40, (pairs, n_types, 2))
    totals[rng.random((pairs, n_types, 2)) < 0.1] = 0  # empty texts: zero denominators
    hits = np.minimum(rng.integers(0, 40, (pairs, n_types)), totals.min(axis=2))
    counts = np.concatenate([hits[..., None], totals], axis=2).astype(np.int64)
    return counts, n_refs


@needs_native
@pytest.mark.parametrize("mode", ["max_f", "max_recall", "pooled", "mean"])
@pytest.mark.parametrize("beta", [1.0, 0.5, 2.0, 1.2])
def test_native_combine_is_bit_identical_to_the_numpy_reference(mode, beta):
    from array import array

    from rouge_lcs.scores.multiref import combine

    rng = np.random.default_rng(7)
    for max_refs in (1, 2, 5):
        counts, n_refs = _random_counts(rng, 300, 3, max_refs)
        flat = (array("q", counts.tobytes()), array("q", n_refs.tobytes()))
        got = _native_combine(flat, 3, mode, beta)
        want = combine(counts, n_refs, mode, beta)
        for g, w in zip(got, want):
            assert np.frombuffer(g, dtype=np.float64).tobytes() == w.tobytes()


@needs_native
def test_native_combine_hand_worked():
    from array import array

    # One example, two references, one type: (hits, pred total, ref total) = (2, 4, 5), (3, 4, 4)
    counts = array("q", [2, 4, 5, 3, 4, 4])
    n_refs = array("q", [2])
    p, r, f = _native_combine((counts, n_refs), 1, "max_f", 1.0)
    assert (p[0], r[0], f[0]) == (0.75, 0.75, 0.75)  # the second: F 0.75 > 4/9
    p, r, f = _native_combine((counts, n_refs), 1, "pooled", 1.0)
    assert (p[0], r[0]) == (5 / 8, 5 / 9)
    p, r, f = _native_combine((counts, n_refs), 1, "mean", 1.0)
    assert (p[0], r[0]) == ((0.5 + 0.75) / 2, (0.4 + 0.75) / 2)
    p, r, f = _native_combine((array("q", [0, 0, 0]), array("q", [1])), 1, "max_f", 1.0)
    assert (p[0], r[0], f[0]) == (0.0, 0.0, 0.0)


@needs_native
@pytest.mark.parametrize(
    "args, error",
    [
        ((b"\0" * 24, 1, b"\0" * 8, 0, 1.0), ValueError),  # n_refs 0
        ((b"\0" * 24, 1, b"\2\0\0\0\0\0\0\0", 0, 1.0), ValueError),  # 2 refs, 1 pair
        ((b"\0" * 24, 0, b"\1" + b"\0" * 7, 0, 1.0), ValueError),  # no types
        ((b"\0" * 24, 1, b"\1" + b"\0" * 7, 4, 1.0), ValueError),  # mode
        ((b"\0" * 24, 1, b"\1" + b"\0" * 7, 0, float("nan")), ValueError),  # beta
        ((b"\0" * 23, 1, b"\1" + b"\0" * 7, 0, 1.0), ValueError),  # ragged buffer
        ((b"\0" * 24, 1, b"\1" + b"\0" * 7 + b"\xff" * 8, 0, 1.0), ValueError),  # sizes
    ],
)
def test_native_combine_checks_its_buffers(args, error):
    outs = [bytearray(8) for _ in range(3)]
    with pytest.raises(error):
        native._native.combine(*args, *outs)


@needs_native
def test_native_combine_refuses_overlapping_outputs():
    out = bytearray(8)
    with pytest.raises(ValueError, match="overlaps"):
        native._native.combine(b"\0" * 24, 1, b"\1" + b"\0" * 7, 0, 1.0, out, out, bytearray(8))


def _tricky_floats(rng: random.Random, n: int) -> list[float]:
    # values whose naive sum rounds differently from the exact one: cancelling giants,
    # subnormals, ties, signed zeros, and scores' own range
    pool = [
        lambda: rng.random(),
        lambda: rng.uniform(-1e16, 1e16),
        lambda: 2.0**-1074 * rng.randint(-3, 3),
        lambda: rng.choice([0.0, -0.0, 1.0, 0.5, 1e-16, -1e-16]),
        lambda: rng.uniform(-1, 1) * 2.0 ** rng.randint(-1074, 900),
        lambda: rng.randint(0, 7) / 7,
    ]
    return [rng.choice(pool)() for _ in range(n)]


@needs_native
def test_column_sums_are_math_fsum_on_both_engines():
    import math

    from rouge_lcs.engine.reference.python import BACKEND as PYTHON

    rng = random.Random(7)
    for _ in range(3000):
        columns = rng.randint(1, 5)
        values = _tricky_floats(rng, columns * rng.randint(0, 40))
        want = [math.fsum(values[c::columns]) for c in range(columns)]
        for engine in (PYTHON, native.BACKEND):
            got = engine.column_sums(array("d", values), columns)
            # equal, and zeros of the same sign (fsum of -0.0 alone is 0.0)
            assert [(g, math.copysign(1, g)) for g in got] == [
                (w, math.copysign(1, w)) for w in want
            ], values


@needs_native
def test_column_sums_checks_what_enters():
    with pytest.raises(ValueError, match="finite"):
        native._native.column_sums(array("d", [0.5, float("nan")]), 1)
    with pytest.raises(ValueError, match="finite"):
        native._native.column_sums(array("d", [float("inf")]), 1)
    with pytest.raises(OverflowError, match="overflows"):
        native._native.column_sums(array("d", [1e308, 1e308]), 1)  # math.fsum raises too
    with pytest.raises(ValueError, match="dividing"):
        native._native.column_sums(array("d", [1.0, 2.0, 3.0]), 2)
    with pytest.raises(ValueError, match="dividing"):
        native._native.column_sums(array("d", [1.0]), 0)
    with pytest.raises(ValueError, match="multiple of 8"):
        native._native.column_sums(b"\0" * 12, 1)
    with pytest.raises(ValueError, match="aligned"):
        native._native.column_sums(memoryview(bytearray(17))[1:], 1)
    assert native._native.column_sums(array("d"), 3) == [0.0, 0.0, 0.0]


@needs_native
def test_scores_from_flat_statistics_read_as_numpy_alike(monkeypatch):
    monkeypatch.setenv(native.ENV, "native")  # also in the reference-engine pass of the suite
    preds = ["The cat sat on the mat.", "a b c", ""]
    refs = [["The cat sat on a rug.", "x y"], ["a b d"], ["q"]]
    got = Rouge(["rouge1", "rougeLsum"]).score(preds, refs)
    assert got.stats.flat() is not None
    assert got.fmeasure.shape == (3, 2) and got.stats.counts.shape == (4, 2, 3)
    assert got.values("rouge1") == got.column("rouge1").tolist()
    assert got.stats.ref_counts() == [2, 1, 1] == got.stats.n_refs.tolist()
    again = pickle.loads(pickle.dumps(got))
    assert again.fmeasure.tobytes() == got.fmeasure.tobytes()
    assert again.stats.counts.tobytes() == got.stats.counts.tobytes()
    with pytest.raises(AttributeError):
        got.fmeasure = None  # type: ignore[misc]


@needs_native
def test_native_combine_pooled_sums_wrap_like_numpy_without_undefined_behaviour():
    # Counts the kernels never make (near 2**63): the pooled sum wraps as NumPy's int64 sum
    # does, instead of a signed overflow (undefined behaviour; the sanitizer build checks).
    from array import array

    from rouge_lcs.scores.multiref import combine

    counts = np.full((2, 1, 3), 1 << 62, dtype=np.int64)
    n_refs = np.array([2], dtype=np.int64)
    got = _native_combine(
        (array("q", counts.tobytes()), array("q", n_refs.tobytes())), 1, "pooled", 1.0
    )
    want = combine(counts, n_refs, "pooled", 1.0)
    for g, w in zip(got, want):
        assert np.frombuffer(g, dtype=np.float64).tobytes() == w.tobytes()
