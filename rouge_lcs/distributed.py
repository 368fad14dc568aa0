"""Scoring a large table of pairs on a cluster (Dask), with exact means from partial sums.

Each worker scores its partitions with the same engine as one process, so every per-example
number is identical; the mean is exact because each partition returns the **exact** sum of its
values (an integer, see :func:`exact_sum`), the client adds those integers, and only then is
the total rounded once — the same correctly rounded sum ``math.fsum`` gives in one process, so
the means equal :func:`rouge_lcs.rouge`'s to the bit, whatever the partitioning.

Dask (``pip install "rouge-lcs[dask]"``)::

    import dask.dataframe as dd
    from dask.distributed import Client, LocalCluster
    from rouge_lcs.distributed import dask_scores, dask_means

    client = Client(LocalCluster(n_workers=2, processes=True))   # or Client("tcp://scheduler:8786")
    pairs = dd.read_parquet("pairs/")                           # columns prediction, references
    # from pandas: dask.config.set({"dataframe.convert-string": False}) first, or Dask turns
    # a column of reference lists into strings (their repr)
    scores = dask_scores(pairs, ["rouge1", "rougeL"], use_stemmer=True).persist()
    dask_means(scores)           # {'rouge1': …, 'rougeL': …} == rouge_lcs.rouge(...) exactly
    scores.to_parquet("scores/")  # per-example columns, same index as pairs

The pieces below it work with any engine that maps a function over pandas batches (Ray Data's
``map_batches(batch_format="pandas")``, Spark's ``mapInPandas``): :func:`score_frame` per batch,
:func:`partial_sums` per batch, ``sum(partials)`` and :meth:`PartialSums.means` on the driver.
Neither dask nor pandas is imported until used.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import reduce
from operator import add
from typing import TYPE_CHECKING, Any

from rouge_lcs.base.lazy import lazy_import
from rouge_lcs.scores.results import score_columns
from rouge_lcs.scores.scorer import Rouge

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np
    import pandas as pd
else:
    np = lazy_import("numpy")

#: Exact sums are integers in units of 2**-SCALE_BITS: a finite float64 is q * 2**(e - 53) with
#: an integer |q| < 2**53 and e >= -1073, so it is q << (e + 1074) such units.
SCALE_BITS = 1127


def exact_sum(values: Iterable[float] | np.ndarray) -> int:
    """The exact sum of float64 values, as an integer count of 2**-:data:`SCALE_BITS`.

    ``frexp`` writes each value as ``m * 2**e`` with ``0.5 <= |m| < 1``; ``m * 2**53`` is an
    integer ``q`` (|q| < 2**53), so the value is ``q * 2**(e - 53)`` = ``q << (e + 1074)`` units
    of 2**-1127 (``e >= -1073`` for every finite double, so the shift is positive).  Values
    sharing an exponent are summed in numpy (as exact Python ints), then shifted once.

    >>> round_sum(exact_sum([0.1, 0.2, -0.3]))  # the exact sum, rounded once (= math.fsum)
    2.7755575615628914e-17
    >>> 0.1 + 0.2 - 0.3  # rounded at each step
    5.551115123125783e-17
    """
    array = np.asarray(values, dtype=np.float64).ravel()
    if not np.isfinite(array).all():
        raise ValueError("values: expected finite numbers")
    mantissa, exponent = np.frexp(array)
    significand = np.ldexp(mantissa, 53).astype(np.int64)
    shift = exponent.astype(np.int64) + 1074
    total = 0
    for value in np.unique(shift).tolist():
        group = significand[shift == value]
        # int64 could overflow past 1024 terms of 2**53: sum as Python ints (exact).
        total += int(group.astype(object).sum()) << value
    return total


def round_sum(total: int) -> float:
    """The float nearest to an exact sum from :func:`exact_sum` (int / int rounds correctly,
    as ``math.fsum`` does)."""
    return total / (1 << SCALE_BITS)


@dataclass(frozen=True)
class PartialSums:
    """Exact per-column sums and the row count of a part of a table; parts add up exactly."""

    count: int = 0
    sums: dict[str, int] = field(default_factory=dict)

    def __add__(self, other: PartialSums) -> PartialSums:
        names = dict.fromkeys([*self.sums, *other.sums])
        return PartialSums(
            self.count + other.count,
            {k: self.sums.get(k, 0) + other.sums.get(k, 0) for k in names},
        )

    def __radd__(self, other: object) -> PartialSums:
        if other == 0:  # sum() starts from 0
            return self
        return NotImplemented

    def means(self) -> dict[str, float]:
        """Column means, ``math.fsum(column) / count`` as one process computes them."""
        if self.count == 0:
            raise ValueError("means: no rows were scored")
        return {k: round_sum(v) / self.count for k, v in self.sums.items()}


def score_frame(
    frame: pd.DataFrame,
    scorer: Rouge,
    *,
    prediction_column: str = "prediction",
    reference_column: str = "references",
    return_precision_recall: bool = False,
) -> pd.DataFrame:
    """Per-example scores of a pandas batch (same index): one column per type and measure.

    The reference column holds a text or a list (or array) of texts per row.
    """
    import pandas as pd

    columns = score_columns(scorer.rouge_types, return_precision_recall)
    if len(frame) == 0:
        return pd.DataFrame({c: pd.Series(dtype="float64") for c in columns}, index=frame.index)
    scores = scorer.score(frame[prediction_column].tolist(), frame[reference_column].tolist())
    data: dict[str, np.ndarray] = {}
    for name in scorer.rouge_types:
        data[name] = scores.column(name)
    if return_precision_recall:
        for name in scorer.rouge_types:
            data[f"{name}_precision"] = scores.column(name, "precision")
            data[f"{name}_recall"] = scores.column(name, "recall")
    return pd.DataFrame({c: data[c] for c in columns}, index=frame.index)


def partial_sums(scores: pd.DataFrame) -> PartialSums:
    """Exact column sums of a batch of per-example scores."""
    return PartialSums(len(scores), {c: exact_sum(scores[c].to_numpy()) for c in scores.columns})


def dask_scores(
    frame: Any,
    rouge_types: Sequence[str] | str | None = None,
    *,
    prediction_column: str = "prediction",
    reference_column: str = "references",
    return_precision_recall: bool = False,
    **options: Any,
) -> Any:
    """Per-example scores of a ``dask.dataframe.DataFrame`` of pairs, lazily, partition by
    partition on the cluster's workers (same index and partitions as ``frame``).

    ``options`` are the scoring options of :func:`rouge_lcs.rouge` (``use_stemmer``,
    ``tokenizer``, ``lsum_split``, ``multi_ref``, ``beta``); they are checked here, before
    any work is sent.  A custom tokenizer must be picklable by cloudpickle (lambdas are).
    """
    import pandas as pd

    scorer = Rouge(rouge_types, **options)
    for column, argument in (
        (prediction_column, "prediction_column"),
        (reference_column, "reference_column"),
    ):
        if column not in frame.columns:
            raise ValueError(
                f"{argument}: no column {column!r}; the table has {list(frame.columns)}"
            )
    columns = score_columns(scorer.rouge_types, return_precision_recall)
    meta = pd.DataFrame({c: pd.Series(dtype="float64") for c in columns})
    return frame.map_partitions(
        score_frame,
        scorer,
        prediction_column=prediction_column,
        reference_column=reference_column,
        return_precision_recall=return_precision_recall,
        meta=meta,
    )


def dask_partial_sums(scores: Any) -> PartialSums:
    """Exact sums of a dask DataFrame of scores: one :class:`PartialSums` per partition,
    computed where the partition lives; only those (a few integers each) reach the client."""
    import dask

    parts = [dask.delayed(partial_sums)(part) for part in scores.to_delayed()]
    return reduce(add, dask.compute(*parts), PartialSums())


def dask_means(scores: Any) -> dict[str, float]:
    """Exact means of every score column (bit-identical to one process's ``math.fsum``)."""
    return dask_partial_sums(scores).means()
