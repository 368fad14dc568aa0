"""ROUGE-N clipped n-gram matches for a whole batch of pairs, in numpy.

Documents are given once (concatenated token ids with their lengths); pairs index them, so a
reference shared by many predictions is counted once.  For each n:

1. every n-gram gets an integer key (successive ``key * vocab + token`` steps, re-ranked with
   ``np.unique`` so keys stay small for any n);
2. per document, the sorted distinct n-grams and their counts;
3. per pair, the prediction's and the reference's entries are laid side by side and joined on
   ``(pair, n-gram)``; the hits are ``sum(min(count_pred, count_ref))``.

No Python loop runs over tokens or n-grams.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rouge_lcs.base.arrays import expand
from rouge_lcs.base.lazy import lazy_import

if TYPE_CHECKING:
    import numpy as np
else:
    np = lazy_import("numpy")


class NgramCounter:
    """Clipped n-gram matches of pairs of documents (``flat`` ids, per-document ``lengths``)."""

    def __init__(self, flat: np.ndarray, lengths: np.ndarray) -> None:
        self.flat = flat
        self.lengths = lengths
        self.starts = np.cumsum(lengths) - lengths
        self.vocab = int(flat.max()) + 1 if flat.size else 1

    def totals(self, n: int) -> np.ndarray:
        """Number of n-grams of each document."""
        return np.maximum(self.lengths - n + 1, 0)

    def _keys(self, n: int) -> tuple[np.ndarray, np.ndarray]:
        """n-gram keys (grouped by document, in text order) and the document of each."""
        per_doc = self.totals(n)
        first = expand(self.starts, per_doc)
        keys = self.flat[first]
        for k in range(1, n):
            if k > 1:  # keep keys below vocab**2 whatever n is
                keys = np.unique(keys, return_inverse=True)[1].reshape(-1)
            keys = keys * self.vocab + self.flat[first + k]
        return keys, np.repeat(np.arange(self.lengths.size), per_doc)

    def hits(self, n: int, pair_pred: np.ndarray, pair_ref: np.ndarray) -> np.ndarray:
        """``sum over n-grams of min(count in prediction, count in reference)`` per pair."""
        n_pairs = pair_pred.size
        keys, doc = self._keys(n)
        if keys.size == 0:
            return np.zeros(n_pairs, dtype=np.int64)
        span = int(keys.max()) + 1
        if span * max(self.lengths.size, n_pairs) >= 2**62:  # keep (pair, key) within int64
            keys = np.unique(keys, return_inverse=True)[1].reshape(-1)
            span = int(keys.max()) + 1
        # Distinct (document, n-gram) entries with counts, sorted by document then n-gram.
        entry, count = np.unique(doc * span + keys, return_counts=True)
        entry_doc = entry // span
        doc_first = np.searchsorted(entry_doc, np.arange(self.lengths.size))
        doc_size = np.bincount(entry_doc, minlength=self.lengths.size)

        def side(docs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            index = expand(doc_first[docs], doc_size[docs])
            pair = np.repeat(np.arange(n_pairs), doc_size[docs])
            return pair * span + entry[index] % span, count[index]

        pred_key, pred_count = side(pair_pred)  # sorted: pairs in order, n-grams ascending
        ref_key, ref_count = side(pair_ref)
        if pred_key.size == 0 or ref_key.size == 0:
            return np.zeros(n_pairs, dtype=np.int64)
        at = np.minimum(np.searchsorted(pred_key, ref_key), pred_key.size - 1)
        shared = pred_key[at] == ref_key
        clipped = np.minimum(pred_count[at[shared]], ref_count[shared])
        return np.bincount(ref_key[shared] // span, weights=clipped, minlength=n_pairs).astype(
            np.int64
        )
