"""From per-pair counts to per-example precision, recall and F, across several references.

Counts arrive flat, as :class:`~rouge_lcs.engine.stats.PairStats` holds them: an integer array
of shape ``(pairs, types, 3)`` holding ``(hits, prediction_total, reference_total)``, one row
per (example, reference) pair with the pairs of an example consecutive, and ``n_refs`` saying
how many pairs each example has.  Modes:

- ``max_f``: per type, the reference with the best F (first on ties) — rouge_score / HF.
- ``max_recall``: per type, the reference with the best recall — ROUGE-1.5.5 ``-f B``.
- ``pooled``: hits and totals summed over references, then P/R/F — ROUGE-1.5.5 ``-f A``.
- ``mean``: the mean of the per-reference P, R and F (added in reference order).
"""

from __future__ import annotations

from collections.abc import Sequence

from rouge_lcs.base.lazy import lazy_import
from rouge_lcs.config.options import MULTI_REF_MODES

# Not typing's TYPE_CHECKING: importing typing costs a fresh process ~3 ms (type checkers
# treat any name TYPE_CHECKING as true).
TYPE_CHECKING = False
if TYPE_CHECKING:
    import numpy as np
else:
    np = lazy_import("numpy")


def inverse(values: np.ndarray, w: float) -> np.ndarray:
    """ROUGE-W's ``f⁻¹(x) = x ** (1 / w)`` of each value, as Python's (C's ``pow``, as the
    script's Perl): NumPy's vectorized ``power`` may round differently."""
    e = 1 / w
    flat = [x**e for x in values.reshape(-1).tolist()]
    return np.array(flat, dtype=np.float64).reshape(values.shape)


def prf(
    counts: np.ndarray, beta: float, weights: Sequence[float] | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Precision, recall and F_beta from ``(..., types, 3)`` counts; 0 where a denominator is 0.

    The operations are ordered as rouge_score orders them (``2 * p * r / (p + r)`` for beta 1),
    so the floats are bit-identical to rouge_score's.  ``weights`` (one per type, 0 but for
    ROUGE-W; :func:`rouge_lcs.text.rouge_types.weights`) makes a ROUGE-W type's precision and
    recall ``f⁻¹(hits / total)`` (its totals are ``f(len)``; ROUGE-1.5.5's rule).
    """
    hits, pred_total, ref_total = counts[..., 0], counts[..., 1], counts[..., 2]
    zeros = np.zeros(hits.shape, dtype=np.float64)
    precision = np.divide(hits, pred_total, out=zeros.copy(), where=pred_total > 0)
    recall = np.divide(hits, ref_total, out=zeros.copy(), where=ref_total > 0)
    for k, w in enumerate(weights or ()):
        if w:
            precision[..., k] = inverse(precision[..., k], w)
            recall[..., k] = inverse(recall[..., k], w)
    b2 = float(beta) * float(beta)
    denominator = recall + b2 * precision
    fmeasure = np.divide(
        (1.0 + b2) * precision * recall, denominator, out=zeros, where=denominator > 0
    )
    return precision, recall, fmeasure


def _first_best(key: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Per example (pairs ``starts[e]`` …) and type, the pair row with the largest ``key``,
    the first one on ties.  ``key`` has shape ``(pairs, types)``."""
    best = np.maximum.reduceat(key, starts, axis=0)
    example = np.repeat(np.arange(starts.size), np.diff(np.append(starts, key.shape[0])))
    rows = np.arange(key.shape[0])[:, None]
    candidate = np.where(key == best[example], rows, key.shape[0])
    return np.minimum.reduceat(candidate, starts, axis=0)


def combine(
    counts: np.ndarray,
    n_refs: np.ndarray,
    mode: str,
    beta: float,
    weights: Sequence[float] | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per-example ``(precision, recall, fmeasure)``, each of shape ``(examples, types)``.

    ``counts`` is ``(pairs, types, 3)`` with the pairs of each example consecutive and
    ``n_refs[e]`` (>= 1) pairs for example ``e``; ``weights`` as in :func:`prf` (``pooled``
    adds a ROUGE-W type's hits and ``f(len)`` totals, then inverts: ROUGE-1.5.5's ``-f A``).
    """
    if counts.shape[0] == n_refs.size:  # one reference each: nothing to combine
        return prf(counts, beta, weights)
    starts = np.cumsum(n_refs) - n_refs
    if mode == "pooled":
        return prf(np.add.reduceat(counts, starts, axis=0), beta, weights)
    precision, recall, fmeasure = prf(counts, beta, weights)
    if mode == "mean":
        # Added reference by reference, left to right, as a hand computation and the native
        # kernel (csrc/scores.h) do: np.add.reduceat sums pairwise, another rounding.
        sums = [values[starts] for values in (precision, recall, fmeasure)]
        for j in range(1, int(n_refs.max())):
            has = n_refs > j
            rows = starts[has] + j
            for total, values in zip(sums, (precision, recall, fmeasure)):
                total[has] += values[rows]
        n = n_refs[:, None].astype(np.float64)
        return sums[0] / n, sums[1] / n, sums[2] / n
    if mode in ("max_f", "max_recall"):
        row = _first_best(fmeasure if mode == "max_f" else recall, starts)
        return (
            np.take_along_axis(precision, row, axis=0),
            np.take_along_axis(recall, row, axis=0),
            np.take_along_axis(fmeasure, row, axis=0),
        )
    raise ValueError(f"multi_ref: expected one of {list(MULTI_REF_MODES)}, got {mode!r}")


def chosen_reference(
    counts: np.ndarray,
    n_refs: np.ndarray,
    mode: str,
    beta: float,
    weights: Sequence[float] | None = None,
) -> np.ndarray:
    """For ``max_f`` / ``max_recall``: ``(examples, types)`` index of the reference each score
    came from (within the example); ``-1`` for modes that use every reference."""
    starts = np.cumsum(n_refs) - n_refs
    if mode not in ("max_f", "max_recall"):
        return np.full((n_refs.size, counts.shape[1]), -1, dtype=np.int64)
    _, recall, fmeasure = prf(counts, beta, weights)
    row = _first_best(fmeasure if mode == "max_f" else recall, starts)
    return row - starts[:, None]
