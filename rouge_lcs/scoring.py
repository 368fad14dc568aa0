"""Per-pair ROUGE statistics: for each (prediction, reference) pair and rouge type, the integer
triple ``(hits, prediction_total, reference_total)``.

Everything downstream (precision/recall/F, multi-reference combination, means, bootstrap,
significance tests) is arithmetic on these counts, computed once (sacrebleu's pattern).

- ROUGE-N: hits are clipped n-gram matches; totals are the n-gram counts of each side.
- ROUGE-L: hits are the LCS length of the whole token sequences; totals are the token counts.
- ROUGE-Lsum: hits are summary-level union-LCS hits over sentences; totals are the token counts
  of the sentences.  Its hits are computed for a whole batch at once (:func:`lsum_hits`).
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from rouge_lcs.documents import Document
from rouge_lcs.lcs import lcs_length, union_lcs_hits_batch
from rouge_lcs.rouge_types import RougeType

Counts = tuple[int, int, int]


def clipped_matches(a: Counter, b: Counter) -> int:
    """Sum over shared keys of ``min(a[k], b[k])`` (iterating over the smaller counter)."""
    if len(a) > len(b):
        a, b = b, a
    get = b.get
    total = 0
    for key, count in a.items():
        other = get(key)
        if other:
            total += count if count < other else other
    return total


def ngram_counts(pred: Document, ref: Document, n: int) -> Counts:
    """ROUGE-N counts of one pair."""
    hits = clipped_matches(pred.ngrams(n), ref.ngrams(n))
    return hits, max(len(pred.tokens) - n + 1, 0), max(len(ref.tokens) - n + 1, 0)


def lcs_counts(pred: Document, ref: Document) -> Counts:
    """ROUGE-L counts of one pair."""
    return lcs_length(ref.tokens, pred.tokens), len(pred.tokens), len(ref.tokens)


def lsum_totals(pred: Document, ref: Document) -> Counts:
    """ROUGE-Lsum counts of one pair with hits left at 0: :func:`lsum_hits` fills them in."""
    return 0, sum(map(len, pred.sentences)), sum(map(len, ref.sentences))


def lsum_hits(pairs: list[tuple[Document, Document]]) -> np.ndarray:
    """ROUGE-Lsum union-LCS hits of many ``(prediction, reference)`` pairs, batched."""
    return union_lcs_hits_batch([(ref.sentences, pred.sentences) for pred, ref in pairs])


def pair_counts(pred: Document, ref: Document, rouge_types: tuple[RougeType, ...]) -> list[Counts]:
    """The counts of every requested rouge type for one pair (ROUGE-Lsum hits deferred)."""
    out = []
    for rouge_type in rouge_types:
        if rouge_type.kind == "n":
            out.append(ngram_counts(pred, ref, rouge_type.n))
        elif rouge_type.kind == "L":
            out.append(lcs_counts(pred, ref))
        else:
            out.append(lsum_totals(pred, ref))
    return out
