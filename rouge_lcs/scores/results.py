"""Result types: per-example scores of a batch, their exact means and bootstrap intervals.

>>> from rouge_lcs import score
>>> scores = score(["the cat sat"], ["the cat sat down"], ["rouge1"])
>>> scores.mean()["rouge1"]
Score(precision=1.0, recall=0.75, fmeasure=0.8571428571428571)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from rouge_lcs.base.lazy import lazy_import
from rouge_lcs.config.settings import Settings
from rouge_lcs.engine.stats import PairStats
from rouge_lcs.scores.multiref import chosen_reference, combine
from rouge_lcs.scores.statistics import bootstrap_interval

if TYPE_CHECKING:
    import numpy as np
else:
    np = lazy_import("numpy")

MEASURES = ("precision", "recall", "fmeasure")


class Score(NamedTuple):
    """Precision, recall and F of one rouge type (the shape of rouge_score's ``Score``)."""

    precision: float
    recall: float
    fmeasure: float


class Interval(NamedTuple):
    """A confidence interval."""

    low: float
    high: float


class ScoreInterval(NamedTuple):
    """Confidence intervals of the mean precision, recall and F of one rouge type."""

    precision: Interval
    recall: Interval
    fmeasure: Interval


@dataclass(frozen=True)
class Scores:
    """Per-example precision, recall and F: arrays of shape ``(examples, types)``.

    Built from the per-pair statistics by :meth:`from_stats`; ``stats`` and ``settings`` are
    kept so that everything reported can be traced back to counts and options.
    """

    rouge_types: list[str]
    precision: np.ndarray
    recall: np.ndarray
    fmeasure: np.ndarray
    stats: PairStats = field(repr=False)
    settings: Settings = field(repr=False)

    @classmethod
    def from_stats(cls, stats: PairStats, settings: Settings) -> Scores:
        """Combine each example's references (``settings.multi_ref``) and derive P/R/F."""
        precision, recall, fmeasure = combine(
            stats.counts, stats.n_refs, settings.multi_ref, settings.beta
        )
        return cls(settings.names, precision, recall, fmeasure, stats, settings)

    def __len__(self) -> int:
        return int(self.fmeasure.shape[0])

    def mean(self) -> dict[str, Score]:
        """Exact arithmetic means ``{type: Score(precision, recall, fmeasure)}``.

        ``math.fsum`` rounds the sum once, so the mean does not depend on example order or on
        how the data was split into batches.
        """
        n = len(self)
        return {
            name: Score(
                *(
                    math.fsum(values[:, k].tolist()) / n
                    for values in (self.precision, self.recall, self.fmeasure)
                )
            )
            for k, name in enumerate(self.rouge_types)
        }

    def interval(
        self, confidence_level: float = 0.95, n_resamples: int = 1000, seed: int = 0
    ) -> dict[str, ScoreInterval]:
        """Percentile bootstrap intervals of the means, ``{type: ScoreInterval}``.

        One set of resamples serves every type and measure (they stay paired).
        """
        stacked = np.concatenate([self.precision, self.recall, self.fmeasure], axis=1)
        low, high = bootstrap_interval(stacked, confidence_level, n_resamples, seed)
        k = len(self.rouge_types)
        return {
            name: ScoreInterval(
                *(Interval(float(low[m * k + t]), float(high[m * k + t])) for m in range(3))
            )
            for t, name in enumerate(self.rouge_types)
        }

    def column(self, name: str, measure: str = "fmeasure") -> np.ndarray:
        """Per-example values of one type and measure (``precision``/``recall``/``fmeasure``)."""
        if measure not in MEASURES:
            raise ValueError(f"measure: expected one of {list(MEASURES)}, got {measure!r}")
        if name not in self.rouge_types:
            raise ValueError(f"name: expected one of {self.rouge_types}, got {name!r}")
        values: np.ndarray = getattr(self, measure)
        return values[:, self.rouge_types.index(name)]

    def chosen_references(self) -> np.ndarray:
        """``(examples, types)``: which reference each score came from under ``max_f`` /
        ``max_recall`` (0-based within the example), ``-1`` where every reference is used."""
        return chosen_reference(
            self.stats.counts, self.stats.n_refs, self.settings.multi_ref, self.settings.beta
        )
