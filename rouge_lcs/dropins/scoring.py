"""rouge_score's ``scoring`` module for code written against it: ``from rouge_lcs import scoring``.

Same names and results as rouge-score 0.1.2: :class:`Score` (here the library's own
:class:`rouge_lcs.scores.results.Score`, a NamedTuple with the same fields), :class:`BaseScorer`,
:class:`AggregateScore`, :class:`BootstrapAggregator` and :func:`fmeasure`.

>>> aggregator = BootstrapAggregator(confidence_interval=0.0)
>>> aggregator.add_scores({"rouge1": Score(precision=1.0, recall=0.5, fmeasure=2 / 3)})
>>> aggregator.add_scores({"rouge1": Score(precision=0.0, recall=0.0, fmeasure=0.0)})
>>> [round(float(x), 4) for x in aggregator.aggregate()["rouge1"].mid]
[0.5, 0.25, 0.3333]

The aggregator draws its resamples from NumPy's *global* legacy random state, exactly as
rouge_score does, so ``np.random.seed(s)`` followed by the same ``add_scores`` calls gives
rouge_score's intervals to the bit (tests/dropins/test_rouge_score_compat.py).
``mid`` is the median of the bootstrap means, not the mean: for the exact mean use
:meth:`rouge_lcs.Scores.mean`.
"""

from __future__ import annotations

import abc
from collections import defaultdict

from rouge_lcs.base.lazy import lazy_import
from rouge_lcs.base.records import NamedTuple
from rouge_lcs.scores.results import Score

TYPE_CHECKING = False  # not typing's: type checkers treat any name TYPE_CHECKING as true
if TYPE_CHECKING:
    from typing import Any

    import numpy as np
else:
    np = lazy_import("numpy")

__all__ = ["AggregateScore", "BaseScorer", "BootstrapAggregator", "Score", "fmeasure"]

#: Bootstrap means are computed for this many resamples × examples at a time, so memory stays
#: bounded (8 MB of indices) whatever the number of examples.
_BLOCK_VALUES = 1 << 20


class BaseScorer(abc.ABC):
    """Base class of scorers: ``score(target, prediction) -> {type: Score}``."""

    @abc.abstractmethod
    def score(self, target: str, prediction: str) -> dict[str, Score]:
        """Scores of ``prediction`` against ``target`` (rouge_score's argument order)."""


class AggregateScore(NamedTuple):
    """Low, mid and high bootstrap percentiles of a score (each a score tuple)."""

    low: Any
    mid: Any
    high: Any


def fmeasure(precision: float, recall: float) -> float:
    """Balanced F-measure, 0 when precision and recall are both 0 (rouge_score's formula)."""
    if precision + recall > 0:
        return 2 * precision * recall / (precision + recall)
    return 0.0


class BootstrapAggregator:
    """Bootstrap confidence intervals of per-example scores, as rouge_score computes them.

    Args:
        confidence_interval: e.g. ``0.95`` gives the 2.5th and 97.5th percentiles.
        n_samples: bootstrap resamples.

    ``aggregate()`` returns ``{type: AggregateScore(low, mid, high)}``, each bound a tuple of
    the class of the first score added (precision, recall, F), with NumPy float values.
    """

    def __init__(self, confidence_interval: float = 0.95, n_samples: int = 1000) -> None:
        if confidence_interval < 0 or confidence_interval > 1:
            raise ValueError("confidence_interval must be in range [0, 1]")
        if n_samples <= 0:
            raise ValueError("n_samples must be positive")
        self._n_samples = n_samples
        self._confidence_interval = confidence_interval
        self._scores: defaultdict[str, list[Any]] = defaultdict(list)

    def add_scores(self, scores: dict[str, Any]) -> None:
        """Add one example's ``{type: score tuple}`` (e.g. a ``RougeScorer.score`` result)."""
        for score_type, score in scores.items():
            self._scores[score_type].append(score)

    def aggregate(self) -> dict[str, AggregateScore]:
        """``{type: AggregateScore(low, mid, high)}`` of everything added so far."""
        result = {}
        for score_type, scores in self._scores.items():
            matrix = np.vstack(tuple(scores))  # (examples, measures)
            percentiles = self._bootstrap_resample(matrix)  # (low/mid/high, measures)
            cls = scores[0].__class__
            low, mid, high = (cls(*percentiles[j, :]) for j in range(3))
            result[score_type] = AggregateScore(low=low, mid=mid, high=high)
        return result

    def _bootstrap_resample(self, matrix: np.ndarray) -> np.ndarray:
        """``(3, measures)``: the low, median and high percentiles of the resampled means.

        rouge_score draws each resample with ``np.random.choice(n, size=n)``, which is
        ``np.random.randint(0, n, size=n)``; drawing a block of resamples in one ``randint``
        call yields the same stream, and each resample's mean is still a row-by-row sum in
        example order, so the numbers are rouge_score's while the Python loop runs per block.
        """
        n = matrix.shape[0]
        means = np.empty((self._n_samples, matrix.shape[1]))
        block = max(1, _BLOCK_VALUES // n)
        for start in range(0, self._n_samples, block):
            stop = min(start + block, self._n_samples)
            index = np.random.randint(0, n, size=(stop - start, n))
            means[start:stop] = matrix[index].mean(axis=1)
        delta = (1 - self._confidence_interval) / 2
        q = 100 * np.array([delta, 0.5, 1 - delta])
        return np.percentile(means, q, axis=0)
