"""Scoring a large table of pairs on a cluster (Dask), with exact means from partial sums.

The documented import path of :mod:`rouge_lcs.integrations.distributed`::

    import rouge_lcs.distributed
"""

from __future__ import annotations

from rouge_lcs.integrations import distributed as _moved
from rouge_lcs.integrations.distributed import (
    SCALE_BITS,
    PartialSums,
    dask_means,
    dask_partial_sums,
    dask_scores,
    exact_sum,
    partial_sums,
    ray_means,
    ray_partial_sums,
    ray_scores,
    round_sum,
    score_frame,
    spark_means,
    spark_partial_sums,
    spark_scores,
)

TYPE_CHECKING = False  # not typing's: importing typing costs ~5 ms
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "SCALE_BITS",
    "exact_sum",
    "round_sum",
    "PartialSums",
    "score_frame",
    "partial_sums",
    "dask_scores",
    "dask_partial_sums",
    "dask_means",
    "spark_scores",
    "spark_partial_sums",
    "spark_means",
    "ray_scores",
    "ray_partial_sums",
    "ray_means",
]


def __getattr__(name: str) -> Any:
    """The moved module's other names, as before the move."""
    return getattr(_moved, name)
