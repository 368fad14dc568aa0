"""Scoring a large table of pairs on a cluster (Dask), with exact means from partial sums.

Each worker scores its partitions with the same engine as one process, so every per-example
number is identical; the mean is exact because each partition returns the **exact** sum of its
values (an integer, see :func:`exact_sum`), the client adds those integers, and only then is
the total rounded once — the same correctly rounded sum ``math.fsum`` gives in one process, so
the means equal :func:`rouge_lcs.rouge`'s to the bit, whatever the partitioning.

Dask (the ``dask`` extra)::

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

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial, reduce
from operator import add
from typing import TYPE_CHECKING, Any

from rouge_lcs.base.arrow import is_arrow
from rouge_lcs.base.lazy import lazy_import
from rouge_lcs.scores.results import score_columns
from rouge_lcs.scores.scorer import Rouge

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np
    import pandas as pd
    from typing_extensions import Unpack

    from rouge_lcs.config.keywords import ScorerKeywords
else:
    np = lazy_import("numpy")

#: Exact sums are integers in units of 2**-SCALE_BITS: a finite float64 is q * 2**(e - 53) with
#: an integer |q| < 2**53 and e >= -1073, so it is q << (e + 1074) such units.
SCALE_BITS = 1127

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
    scores = scorer.score(_texts_of(frame[prediction_column]), _texts_of(frame[reference_column]))
    data: dict[str, np.ndarray] = {}
    for name in scorer.rouge_types:
        data[name] = scores.column(name)
    if return_precision_recall:
        for name in scorer.rouge_types:
            data[f"{name}_precision"] = scores.column(name, "precision")
            data[f"{name}_recall"] = scores.column(name, "recall")
    return pd.DataFrame({c: data[c] for c in columns}, index=frame.index)


def _texts_of(column: pd.Series) -> Any:
    """A pandas column as the engine takes it: an Arrow-backed one (``string[pyarrow]``, Dask's
    default string dtype, or an ``ArrowDtype`` of strings or lists of strings) as it is, so the
    engine reads its Arrow buffers as Spark's and Ray's batches are read (no ``str`` per row);
    any other (objects: texts, lists of texts) as a list."""
    return column if is_arrow(column) else column.tolist()


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
    **options: Unpack[ScorerKeywords],
) -> Any:
    """Per-example scores of a ``dask.dataframe.DataFrame`` of pairs, lazily, partition by
    partition on the cluster's workers (same index and partitions as ``frame``).

    ``options`` are the scoring options of :func:`rouge_lcs.rouge` (``use_stemmer``,
    ``tokenizer``, ``lsum_split``, ``multi_ref``, ``beta``); they are checked here, before
    any work is sent.  A custom tokenizer must be picklable by cloudpickle (lambdas are).
    """
    import pandas as pd

    scorer = Rouge(rouge_types, **options)
    _check_text_columns(list(frame.columns), prediction_column, reference_column)
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


# --- Arrow batches: Spark (mapInArrow) and Ray Data (map_batches, batch_format="pyarrow") ---
#
# Both engines hand a function Arrow batches and have no index: the scores keep every input
# column other than the two texts (an ``id``) beside the score columns.  The scorer is built
# once per Python worker (Spark) or actor (Ray), and the means are exact by the same partial
# sums as Dask's, carried to the driver as text (an exact sum is an integer of ~1,200 bits).

_PARTIAL_COUNT = "count"


def _score_arrow_batch(
    batch: Any,
    scorer: Rouge,
    prediction_column: str,
    reference_column: str,
    return_precision_recall: bool,
) -> Any:
    """Score an Arrow ``RecordBatch`` or ``Table`` of pairs: the other columns as they are, then
    one float64 column per score (:func:`score_columns`), of the same type as ``batch``.

    A null text raises ``TypeError`` naming the column and its row in the batch; an empty
    text scores 0, as in :func:`rouge_lcs.score`.
    """
    import pyarrow as pa

    for column, argument in (
        (prediction_column, "prediction_column"),
        (reference_column, "reference_column"),
    ):
        values = batch.column(column)
        if values.null_count:
            row = values.is_null().to_pylist().index(True)
            raise TypeError(
                f"{argument}: column {column!r} holds a null at row {row} of a batch of "
                f"{batch.num_rows} (expected a text; drop or fill nulls before scoring)"
            )
    keep = [
        name for name in batch.schema.names if name not in (prediction_column, reference_column)
    ]
    columns = score_columns(scorer.rouge_types, return_precision_recall)
    data: dict[str, Any] = {}
    if batch.num_rows:
        # The columns as they are: the engine reads Arrow text from its buffers (no str per row).
        scores = scorer.score(batch.column(prediction_column), batch.column(reference_column))
        for name in scorer.rouge_types:
            data[name] = scores.column(name)
            if return_precision_recall:
                data[f"{name}_precision"] = scores.column(name, "precision")
                data[f"{name}_recall"] = scores.column(name, "recall")
    arrays = [batch.column(name) for name in keep]
    arrays += [pa.array(data.get(name, []), type=pa.float64()) for name in columns]
    return type(batch).from_arrays(arrays, names=[*keep, *columns])


def _is_score_column(name: str) -> bool:
    """Whether a column name is one :func:`score_columns` gives (``rouge1``, ``rougeL_recall``)."""
    from rouge_lcs.text.rouge_types import parse_rouge_type

    for suffix in ("_precision", "_recall", ""):
        if suffix and not name.endswith(suffix):
            continue
        base = name[: len(name) - len(suffix)]
        try:
            if parse_rouge_type(base).name == base:
                return True
        except ValueError:
            pass
    return False


def _means_columns(names: Sequence[str], columns: Sequence[str] | None) -> list[str]:
    """The columns to average: ``columns`` (checked), else every score column of ``names``."""
    if columns is None:
        chosen = [name for name in names if _is_score_column(name)]
        if not chosen:
            raise ValueError(f"scores: no score column (rouge1, …) among {list(names)}")
        return chosen
    if isinstance(columns, str):
        columns = [columns]
    missing = [c for c in columns if c not in names]
    if missing:
        raise ValueError(f"columns: no column {missing[0]!r}; the scores have {list(names)}")
    return list(columns)


def _partial_sums_arrow(batch: Any, columns: Sequence[str]) -> Any:
    """One row: the batch's row count and each column's :func:`exact_sum` in hexadecimal."""
    import pyarrow as pa

    sums = {
        name: [format(exact_sum(batch.column(name).to_numpy(zero_copy_only=False)), "x")]
        for name in columns
    }
    arrays = [pa.array([batch.num_rows], type=pa.int64())]
    arrays += [pa.array(sums[name], type=pa.string()) for name in columns]
    return type(batch).from_arrays(arrays, names=[_PARTIAL_COUNT, *columns])


def _add_partial_rows(rows: Iterable[Any], columns: Sequence[str]) -> PartialSums:
    """Add the rows of :func:`_partial_sums_arrow` (mappings) into one :class:`PartialSums`."""
    return sum(
        (
            PartialSums(int(row[_PARTIAL_COUNT]), {c: int(row[c], 16) for c in columns})
            for row in rows
        ),
        PartialSums(0, dict.fromkeys(columns, 0)),
    )


def _check_text_columns(
    names: Sequence[str], prediction_column: str, reference_column: str
) -> None:
    """Both text columns present, or a ``ValueError`` naming the argument."""
    for column, argument in (
        (prediction_column, "prediction_column"),
        (reference_column, "reference_column"),
    ):
        if column not in names:
            raise ValueError(f"{argument}: no column {column!r}; the table has {list(names)}")


def _check_pair_columns(
    names: Sequence[str],
    prediction_column: str,
    reference_column: str,
    scorer: Rouge,
    return_precision_recall: bool,
) -> None:
    """Both text columns present, and no other column named as a score column would be."""
    _check_text_columns(names, prediction_column, reference_column)
    clash = set(names) & set(score_columns(scorer.rouge_types, return_precision_recall))
    clash -= {prediction_column, reference_column}
    if clash:
        raise ValueError(
            f"the table already has a column named as a score column: {sorted(clash)} "
            "(rename or drop it first)"
        )


#: Scorers built on a Spark Python worker, by the token of the spark_scores call that sent them
#: (a worker process serves many tasks: the options are unpickled per task, the scorer built once).
_WORKER_SCORERS: dict[str, Rouge] = {}


def _worker_scorer(token: str, rouge_types: Any, options: Mapping[str, Any]) -> Rouge:
    scorer = _WORKER_SCORERS.get(token)
    if scorer is None:
        scorer = _WORKER_SCORERS[token] = Rouge(rouge_types, **options)
    return scorer


def _spark_score_batches(
    batches: Iterable[Any],
    token: str,
    rouge_types: Any,
    options: Mapping[str, Any],
    prediction_column: str,
    reference_column: str,
    return_precision_recall: bool,
) -> Iterable[Any]:
    scorer = _worker_scorer(token, rouge_types, options)
    for batch in batches:
        yield _score_arrow_batch(
            batch, scorer, prediction_column, reference_column, return_precision_recall
        )


def _spark_partial_batches(batches: Iterable[Any], columns: Sequence[str]) -> Iterable[Any]:
    for batch in batches:
        yield _partial_sums_arrow(batch, columns)


def spark_scores(
    frame: Any,
    rouge_types: Sequence[str] | str | None = None,
    *,
    prediction_column: str = "prediction",
    reference_column: str = "references",
    return_precision_recall: bool = False,
    **options: Unpack[ScorerKeywords],
) -> Any:
    """Per-example scores of a Spark ``DataFrame`` of pairs, lazily, with ``mapInArrow``.

    The result has every column of ``frame`` except the two text columns (an ``id``), then a
    ``double`` column per score: ``rouge1``, …, and ``rouge1_precision`` / ``rouge1_recall``
    with ``return_precision_recall=True``.  The reference column is a ``string`` or an
    ``array<string>`` (several references).  ``options`` are :func:`rouge_lcs.rouge`'s
    scoring options, checked here before any work is sent; the scorer is built once per Python
    worker.  A null text fails the task with a ``TypeError`` naming the column.
    """
    import uuid

    from pyspark.sql.types import ArrayType, DoubleType, StringType, StructField, StructType

    scorer = Rouge(rouge_types, **options)
    schema = frame.schema
    _check_pair_columns(
        schema.names, prediction_column, reference_column, scorer, return_precision_recall
    )
    text = (StringType,)
    if not isinstance(schema[prediction_column].dataType, text):
        raise TypeError(
            f"prediction_column: column {prediction_column!r} must be string, got "
            f"{schema[prediction_column].dataType.simpleString()}"
        )
    reference_type = schema[reference_column].dataType
    if not (
        isinstance(reference_type, text)
        or isinstance(reference_type, ArrayType)
        and isinstance(reference_type.elementType, text)
    ):
        raise TypeError(
            f"reference_column: column {reference_column!r} must be string or array<string>, "
            f"got {reference_type.simpleString()}"
        )
    fields = [f for f in schema.fields if f.name not in (prediction_column, reference_column)]
    fields += [
        StructField(name, DoubleType(), True)
        for name in score_columns(scorer.rouge_types, return_precision_recall)
    ]
    function = partial(
        _spark_score_batches,
        token=uuid.uuid4().hex,
        rouge_types=list(scorer.rouge_types),
        options=options,
        prediction_column=prediction_column,
        reference_column=reference_column,
        return_precision_recall=return_precision_recall,
    )
    return frame.mapInArrow(function, StructType(fields))


def spark_partial_sums(scores: Any, columns: Sequence[str] | None = None) -> PartialSums:
    """Exact sums of a Spark DataFrame's score columns (default: every column named as
    :func:`spark_scores` names them): one row of partial sums per Arrow batch, computed on the
    executors; only those reach the driver."""
    from pyspark.sql.types import LongType, StringType, StructField, StructType

    chosen = _means_columns(scores.columns, columns)
    schema = StructType(
        [StructField(_PARTIAL_COUNT, LongType(), False)]
        + [StructField(name, StringType(), False) for name in chosen]
    )
    function = partial(_spark_partial_batches, columns=chosen)
    rows = scores.select(*chosen).mapInArrow(function, schema).collect()
    return _add_partial_rows((row.asDict() for row in rows), chosen)


def spark_means(scores: Any, columns: Sequence[str] | None = None) -> dict[str, float]:
    """Exact means of a Spark DataFrame's score columns, bit-identical to one process's
    :func:`rouge_lcs.rouge` on the same pairs, whatever the partitioning."""
    return spark_partial_sums(scores, columns).means()


class _RayScorer:
    """The callable class of :func:`ray_scores`: one scorer per actor, built when it starts
    (a first tiny call loads the tokenizer's and stemmer's tables there too)."""

    def __init__(
        self,
        rouge_types: Any,
        options: Mapping[str, Any],
        prediction_column: str,
        reference_column: str,
        return_precision_recall: bool,
    ) -> None:
        self.scorer = Rouge(rouge_types, **options)
        self.scorer.score(["warm up"], ["warm up"])
        self.columns = (prediction_column, reference_column, return_precision_recall)

    def __call__(self, batch: Any) -> Any:
        return _score_arrow_batch(batch, self.scorer, *self.columns)


def ray_scores(
    dataset: Any,
    rouge_types: Sequence[str] | str | None = None,
    *,
    prediction_column: str = "prediction",
    reference_column: str = "references",
    return_precision_recall: bool = False,
    concurrency: int | tuple[int, int] | None = None,
    num_cpus: float | None = None,
    batch_size: int | None = None,
    **options: Unpack[ScorerKeywords],
) -> Any:
    """Per-example scores of a Ray ``Dataset`` of pairs, lazily, with ``map_batches`` over
    ``pyarrow`` batches in a pool of actors (``concurrency`` of them; Ray's default when
    ``None``), each building the scorer once.  ``num_cpus`` is each actor's CPU request: on a
    small cluster, ``concurrency`` actors of 1 CPU each can hold every CPU and leave none to the
    tasks that read the data (Ray then waits forever); ask for less (``num_cpus=0.5``).

    The result has every column of ``dataset`` except the two text columns, then a float64
    column per score, named as :func:`spark_scores` names them.  ``options`` are
    :func:`rouge_lcs.rouge`'s scoring options, checked here before any work is sent.
    """
    scorer = Rouge(rouge_types, **options)
    names = dataset.schema().names
    _check_pair_columns(names, prediction_column, reference_column, scorer, return_precision_recall)
    extra: dict[str, Any] = {}
    if concurrency is not None:
        extra["concurrency"] = concurrency
    if num_cpus is not None:
        extra["num_cpus"] = num_cpus
    return dataset.map_batches(
        _RayScorer,
        fn_constructor_args=(
            list(scorer.rouge_types),
            options,
            prediction_column,
            reference_column,
            return_precision_recall,
        ),
        batch_format="pyarrow",
        batch_size=batch_size,
        zero_copy_batch=True,
        **extra,
    )


def ray_partial_sums(scores: Any, columns: Sequence[str] | None = None) -> PartialSums:
    """Exact sums of a Ray Dataset's score columns: one row per batch, computed on the
    workers; only those reach the driver."""
    chosen = _means_columns(scores.schema().names, columns)
    parts = scores.select_columns(chosen).map_batches(
        _partial_sums_arrow, fn_kwargs={"columns": chosen}, batch_format="pyarrow"
    )
    return _add_partial_rows(parts.take_all(), chosen)


def ray_means(scores: Any, columns: Sequence[str] | None = None) -> dict[str, float]:
    """Exact means of a Ray Dataset's score columns, bit-identical to one process's
    :func:`rouge_lcs.rouge` on the same pairs, whatever the blocks."""
    return ray_partial_sums(scores, columns).means()
