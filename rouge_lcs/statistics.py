"""Confidence intervals and paired significance tests over per-example scores.

The documented import path of :mod:`rouge_lcs.scores.statistics`::

    from rouge_lcs.statistics import compare
"""

from rouge_lcs.scores.statistics import (
    MAX_RESAMPLES,
    Comparison,
    approximate_randomization,
    bootstrap_interval,
    compare,
    paired_bootstrap,
)

__all__ = [
    "MAX_RESAMPLES",
    "Comparison",
    "approximate_randomization",
    "bootstrap_interval",
    "compare",
    "paired_bootstrap",
]
