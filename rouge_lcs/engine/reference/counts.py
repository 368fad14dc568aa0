"""Per-pair ROUGE statistics: for each (prediction, reference) pair and rouge type, the integer
triple ``(hits, prediction_total, reference_total)``.

Everything downstream (precision/recall/F, multi-reference combination, means, bootstrap,
significance tests) is arithmetic on these counts, computed once (sacrebleu's pattern).

- ROUGE-N: hits are clipped n-gram matches; totals are the n-gram counts of each side
  (:mod:`rouge_lcs.engine.reference.ngrams`, batched).
- ROUGE-L: hits are the LCS length of the whole token sequences (rapidfuzz); totals are the
  token counts.
- ROUGE-Lsum: hits are summary-level union-LCS hits over sentences
  (:mod:`rouge_lcs.engine.reference.lcs_batch`, batched); totals are the token counts of the
  sentences.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from typing import TYPE_CHECKING

from rouge_lcs.base.lazy import lazy_import
from rouge_lcs.engine.lcs import lcs_length
from rouge_lcs.engine.reference.documents import Document
from rouge_lcs.engine.reference.lcs_batch import union_lcs_hits_batch
from rouge_lcs.engine.reference.ngrams import NgramCounter
from rouge_lcs.text.rouge_types import LCS, NGRAMS, UNION_LCS, RougeType, unknown_kind

if TYPE_CHECKING:
    import numpy as np
else:
    np = lazy_import("numpy")


def batch_counts(
    docs: Sequence[Document],
    pair_pred: np.ndarray,
    pair_ref: np.ndarray,
    rouge_types: Sequence[RougeType],
) -> np.ndarray:
    """Counts of shape ``(pairs, types, 3)`` for pairs given as indices into ``docs``."""
    counts = np.zeros((pair_pred.size, len(rouge_types), 3), dtype=np.int64)
    lengths = np.fromiter((len(d.tokens) for d in docs), dtype=np.int64, count=len(docs))
    ngrams = None
    for k, rouge_type in enumerate(rouge_types):
        kernel = rouge_type.rules.kernel
        if kernel == NGRAMS:
            if ngrams is None:
                flat = np.fromiter(
                    chain.from_iterable(d.tokens for d in docs),
                    dtype=np.int64,
                    count=int(lengths.sum()),
                )
                ngrams = NgramCounter(flat, lengths)
            totals = ngrams.totals(rouge_type.n)
            counts[:, k, 0] = ngrams.hits(rouge_type.n, pair_pred, pair_ref)
            counts[:, k, 1], counts[:, k, 2] = totals[pair_pred], totals[pair_ref]
        elif kernel == LCS:
            counts[:, k, 0] = [
                lcs_length(docs[r].tokens, docs[p].tokens)
                for p, r in zip(pair_pred.tolist(), pair_ref.tolist())
            ]
            counts[:, k, 1], counts[:, k, 2] = lengths[pair_pred], lengths[pair_ref]
        elif kernel == UNION_LCS:
            sentence_totals = np.fromiter(
                (sum(map(len, d.sentences or ())) for d in docs), dtype=np.int64, count=len(docs)
            )
            counts[:, k, 0] = union_lcs_hits_batch(
                [
                    (docs[r].sentences, docs[p].sentences)
                    for p, r in zip(pair_pred.tolist(), pair_ref.tolist())
                ]
            )
            counts[:, k, 1] = sentence_totals[pair_pred]
            counts[:, k, 2] = sentence_totals[pair_ref]
        else:  # the other kernels: rouge_lcs.engine.kinds
            raise unknown_kind(rouge_type)
    return counts
