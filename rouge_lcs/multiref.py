"""From per-pair counts to per-example precision, recall and F, across several references.

Counts arrive as an integer array of shape ``(examples, max_refs, types, 3)`` holding
``(hits, prediction_total, reference_total)``, with ``n_refs`` saying how many reference slots of
each example are real.  Modes:

- ``max_f``: per type, the reference with the best F (first on ties) — rouge_score / HF.
- ``max_recall``: per type, the reference with the best recall — ROUGE-1.5.5 ``-f B``.
- ``pooled``: hits and totals summed over references, then P/R/F — ROUGE-1.5.5 ``-f A``.
- ``mean``: the mean of the per-reference P, R and F.
"""

from __future__ import annotations

import numpy as np

MULTI_REF_MODES = ("max_f", "max_recall", "pooled", "mean")


def prf(counts: np.ndarray, beta: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Precision, recall and F_beta from ``(..., 3)`` counts; 0 where a denominator is 0.

    The operations are ordered as rouge_score orders them (``2 * p * r / (p + r)`` for beta 1),
    so the floats are bit-identical to rouge_score's.
    """
    hits, pred_total, ref_total = counts[..., 0], counts[..., 1], counts[..., 2]
    zeros = np.zeros(hits.shape, dtype=np.float64)
    precision = np.divide(hits, pred_total, out=zeros.copy(), where=pred_total > 0)
    recall = np.divide(hits, ref_total, out=zeros.copy(), where=ref_total > 0)
    b2 = float(beta) * float(beta)
    denominator = recall + b2 * precision
    fmeasure = np.divide(
        (1.0 + b2) * precision * recall, denominator, out=zeros, where=denominator > 0
    )
    return precision, recall, fmeasure


def _pick(values: np.ndarray, key: np.ndarray) -> np.ndarray:
    """Take along the reference axis the slot with the largest ``key`` (first on ties)."""
    index = np.argmax(key, axis=1)[:, None, :]
    return np.take_along_axis(values, index, axis=1)[:, 0, :]


def combine(
    counts: np.ndarray, n_refs: np.ndarray, mode: str, beta: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per-example ``(precision, recall, fmeasure)``, each of shape ``(examples, types)``."""
    valid = (np.arange(counts.shape[1])[None, :] < n_refs[:, None])[:, :, None]
    if mode == "pooled":
        pooled = (counts * valid[..., None]).sum(axis=1)
        return prf(pooled, beta)
    precision, recall, fmeasure = prf(counts, beta)
    if counts.shape[1] == 1:
        return precision[:, 0], recall[:, 0], fmeasure[:, 0]
    if mode == "mean":
        n = n_refs[:, None].astype(np.float64)
        return tuple(np.where(valid, x, 0.0).sum(axis=1) / n for x in (precision, recall, fmeasure))
    if mode in ("max_f", "max_recall"):
        key = np.where(valid, fmeasure if mode == "max_f" else recall, -1.0)
        return _pick(precision, key), _pick(recall, key), _pick(fmeasure, key)
    raise ValueError(f"multi_ref: unknown mode {mode!r}; expected one of {list(MULTI_REF_MODES)}")
