"""Per-pair statistics: the integer counts everything else is computed from.

For every example, reference and rouge type: ``(hits, prediction_total, reference_total)``.
Precision, recall, F, multi-reference combination, means, intervals and significance tests are
arithmetic on these counts, computed once (sacrebleu's pattern).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rouge_lcs.base.lazy import lazy_import

if TYPE_CHECKING:
    import numpy as np
else:
    np = lazy_import("numpy")


@dataclass(frozen=True)
class PairStats:
    """Counts of a batch, stored flat: one row per (example, reference) pair.

    Attributes:
        counts: ``(pairs, types, 3)`` int64 — hits, prediction total, reference total; the
            pairs of example ``e`` are rows ``offsets[e]`` to ``offsets[e + 1] - 1``.
        n_refs: ``(examples,)`` int64 — references per example.
    """

    counts: np.ndarray
    n_refs: np.ndarray

    def __len__(self) -> int:
        return int(self.n_refs.size)

    @property
    def offsets(self) -> np.ndarray:
        """``(examples + 1,)``: where each example's pairs start (and the end)."""
        return np.concatenate([[0], np.cumsum(self.n_refs)])

    @classmethod
    def concatenate(cls, parts: Sequence[PairStats]) -> PairStats:
        """Join the statistics of consecutive batches (in order)."""
        if len(parts) == 1:
            return parts[0]
        return cls(
            np.concatenate([p.counts for p in parts]), np.concatenate([p.n_refs for p in parts])
        )
