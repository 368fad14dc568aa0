"""Counts of every prefix of a prediction: the reference engine's half of ``prefix_counts``.

For a pair (prediction ``p``, reference ``r``) and each prefix length ``k`` of ``p`` (1 to
``len(p)``), the counts ``(hits, prediction_total, reference_total)`` of ``p[:k]`` against
``r`` — what :func:`rouge_lcs.score` counts for that prefix, so that P/R/F of every prefix come
from the same arithmetic (:mod:`rouge_lcs.scores.multiref`) as every other score:

- ROUGE-N: a prefix gains one hit when its new n-gram is still below the reference's count of
  it (clipping is a running count per reference n-gram);
- ROUGE-L: one row of the bit-parallel LCS (Hyyrö) per prediction token, over the reference's
  positions; the LCS of the prefix is the number of cleared bits of the row
  (:mod:`rouge_lcs.engine.lcs` explains the step).

Only ROUGE-N and ROUGE-L have prefix counts here: ROUGE-Lsum's union LCS is over sentences,
which a prefix cuts.  The native engine runs the same loops in C (``csrc/prefix.h``);
:mod:`rouge_lcs.scores.prefix` builds the scores on them.
"""

from __future__ import annotations

from collections.abc import Sequence

from rouge_lcs.base.lazy import lazy_import
from rouge_lcs.engine.lcs import Candidate, lcs_step
from rouge_lcs.text.rouge_types import LCS, NGRAMS, RougeType

TYPE_CHECKING = False
if TYPE_CHECKING:
    import numpy as np
else:
    np = lazy_import("numpy")


def _ngram_prefix(pred: list[int], ref: list[int], n: int) -> list[int]:
    """Clipped n-gram hits of each prefix of ``pred``."""
    wanted: dict[tuple[int, ...], int] = {}
    for i in range(len(ref) - n + 1):
        gram = tuple(ref[i : i + n])
        wanted[gram] = wanted.get(gram, 0) + 1
    hits, out = 0, []
    for k in range(len(pred)):
        if k >= n - 1:
            gram = tuple(pred[k - n + 1 : k + 1])
            left = wanted.get(gram, 0)
            if left > 0:
                wanted[gram] = left - 1
                hits += 1
        out.append(hits)
    return out


def lcs_prefix(pred: list[int], ref: list[int]) -> list[int]:
    """LCS length of each prefix of ``pred`` with ``ref``: Hyyrö's row, one step per token."""
    width = len(ref)
    full = (1 << width) - 1
    # a mask per distinct token, OR-ed bit by bit, was quadratic in the reference's distinct
    # tokens (100,000: minutes and gigabytes): the masks are a Candidate's, linear in them
    masks = Candidate(ref)
    row, out = full, []
    for token in pred:
        match = row & masks.mask(token)
        if match:
            row = lcs_step(row, match, full)
        out.append(width - row.bit_count())
    return out


def prefix_counts(
    ids: np.ndarray,
    starts: np.ndarray,
    pair_pred: np.ndarray,
    pair_ref: np.ndarray,
    rouge_types: Sequence[RougeType],
) -> np.ndarray:
    """Counts ``(sum of prediction lengths, types, 3)`` int64: the rows of pair ``p`` are its
    prediction's prefixes ``1 … len`` in order, the pairs one after another.

    Documents are ``ids[starts[d]:starts[d + 1]]``; ``pair_pred`` / ``pair_ref`` index them.
    """
    kernels = [t.rules.kernel for t in rouge_types]
    for rouge_type, kernel in zip(rouge_types, kernels):
        if kernel not in (NGRAMS, LCS):
            raise ValueError(f"prefix_counts: ROUGE-N and ROUGE-L only, got {rouge_type.name!r}")
    bounds = starts.tolist()
    docs = [ids[bounds[d] : bounds[d + 1]].tolist() for d in range(len(bounds) - 1)]
    lengths = [len(docs[p]) for p in pair_pred.tolist()]
    out = np.zeros((sum(lengths), len(rouge_types), 3), dtype=np.int64)
    row = 0
    for p, r, m in zip(pair_pred.tolist(), pair_ref.tolist(), lengths):
        pred, ref = docs[p], docs[r]
        k = np.arange(1, m + 1, dtype=np.int64)
        for t, rouge_type in enumerate(rouge_types):
            block = out[row : row + m, t]
            if kernels[t] == LCS:
                block[:, 0] = lcs_prefix(pred, ref)
                block[:, 1] = k
                block[:, 2] = len(ref)
            else:
                n = rouge_type.n
                block[:, 0] = _ngram_prefix(pred, ref, n)
                block[:, 1] = np.maximum(k - n + 1, 0)
                block[:, 2] = max(len(ref) - n + 1, 0)
        row += m
    return out
