"""Result types: per-example scores of a batch, their exact means and bootstrap intervals.

>>> from rouge_lcs import score
>>> scores = score(["the cat sat"], ["the cat sat down"], ["rouge1"])
>>> scores.mean()["rouge1"]
Score(precision=1.0, recall=0.75, fmeasure=0.8571428571428571)
"""

from __future__ import annotations

import math
from array import array

from rouge_lcs.base.lazy import lazy_import
from rouge_lcs.base.records import NamedTuple
from rouge_lcs.base.validation import check_bool, fail_type, fail_value
from rouge_lcs.config.settings import Settings
from rouge_lcs.engine.backend import backend
from rouge_lcs.engine.stats import PairStats
from rouge_lcs.scores.multiref import chosen_reference
from rouge_lcs.scores.statistics import bootstrap_interval
from rouge_lcs.text.rouge_types import weights

# Not typing's TYPE_CHECKING: importing typing costs a fresh process ~3 ms (type checkers
# treat any name TYPE_CHECKING as true).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    import numpy as np

    from rouge_lcs.base.ids import IdOptions
else:
    np = lazy_import("numpy")


def score_columns(names: Sequence[str], return_precision_recall: bool) -> list[str]:
    """The per-example columns: ``<type>`` (F), and ``<type>_precision`` / ``_recall``."""
    columns = list(names)
    if return_precision_recall:
        for name in names:
            columns += [f"{name}_precision", f"{name}_recall"]
    return columns


class Score(NamedTuple):
    """Precision, recall and F of one rouge type (the shape of rouge_score's ``Score``)."""

    precision: float
    recall: float
    fmeasure: float


#: The measures of a score, in :class:`Score`'s order (rouge_score's): the one list of their
#: names; an order another format needs has a name of its own (``TORCHMETRICS_KEY_ORDER``,
#: the Perl report's ``_PERL_REPORT_ORDER``, the similarity kernel's ``KERNEL_MEASURES``).
MEASURES: tuple[str, ...] = Score._fields


class Interval(NamedTuple):
    """A confidence interval."""

    low: float
    high: float


class ScoreInterval(NamedTuple):
    """Confidence intervals of the mean precision, recall and F of one rouge type."""

    precision: Interval
    recall: Interval
    fmeasure: Interval


class Scores:
    """Per-example precision, recall and F: arrays of shape ``(examples, types)``.

    Built from the per-pair statistics by :meth:`from_stats`; ``stats`` and ``settings`` are
    kept so that everything reported can be traced back to counts and options.

    The engine may hand over the values as flat float64 arrays (row-major, examples x types)
    instead of NumPy arrays: then :meth:`mean`, :meth:`values` and the evaluate-style output
    need no NumPy, and :attr:`precision` / :attr:`recall` / :attr:`fmeasure` are NumPy views
    made on first access.
    """

    __slots__ = ("rouge_types", "stats", "settings", "ids", "_values", "_arrays")
    rouge_types: list[str]
    stats: PairStats
    settings: Settings
    #: Token id inputs: their options (the signature names them); None: texts were scored.
    ids: IdOptions | None
    _values: tuple[array[float], ...] | None
    _arrays: tuple[np.ndarray, ...] | None

    def __init__(
        self,
        rouge_types: list[str],
        precision: np.ndarray | array[float],
        recall: np.ndarray | array[float],
        fmeasure: np.ndarray | array[float],
        stats: PairStats,
        settings: Settings,
        ids: IdOptions | None = None,
    ) -> None:
        given = (precision, recall, fmeasure)
        # written out (not all() over a generator): ~1 µs of a one-example call
        flat = isinstance(precision, array) and isinstance(recall, array)
        flat = flat and isinstance(fmeasure, array)
        init = object.__setattr__  # read-only afterwards (__setattr__)
        init(self, "rouge_types", rouge_types)
        init(self, "stats", stats)
        init(self, "settings", settings)
        init(self, "ids", ids)
        init(self, "_values", given if flat else None)
        init(self, "_arrays", None if flat else given)

    @staticmethod
    def of_flat(
        rouge_types: list[str],
        precision: array[float],
        recall: array[float],
        fmeasure: array[float],
        stats: PairStats,
        settings: Settings,
    ) -> Scores:
        """``Scores(rouge_types, precision, recall, fmeasure, stats, settings)`` of flat float64
        arrays, made by the slots' own setters: the per-call path's (``__init__``'s checks and
        ``object.__setattr__`` were a tenth of a short pair's call)."""
        scores = _new_scores(Scores)
        set_types, set_stats, set_settings, set_ids, set_values, set_arrays = _SLOT_SETTERS
        set_types(scores, rouge_types)
        set_stats(scores, stats)
        set_settings(scores, settings)
        set_ids(scores, None)
        set_values(scores, (precision, recall, fmeasure))
        set_arrays(scores, None)
        return scores

    @classmethod
    def from_stats(
        cls, stats: PairStats, settings: Settings, ids: IdOptions | None = None
    ) -> Scores:
        """Combine each example's references (``settings.multi_ref``) and derive P/R/F;
        ``ids``: the options of token id inputs, when ids were scored."""
        values = backend().combine(
            stats, settings.multi_ref, settings.beta, weights(settings.rouge_types)
        )
        return cls(settings.names, *values, stats, settings, ids)

    def _numpy(self) -> tuple[np.ndarray, ...]:
        if self._arrays is None:
            import numpy as np

            k = len(self.rouge_types)
            arrays = tuple(
                np.frombuffer(v, dtype=np.float64).reshape(-1, k) for v in self._values or ()
            )
            object.__setattr__(self, "_arrays", arrays)
            return arrays
        return self._arrays

    @property
    def precision(self) -> np.ndarray:
        """``(examples, types)`` precision."""
        return self._numpy()[0]

    @property
    def recall(self) -> np.ndarray:
        """``(examples, types)`` recall."""
        return self._numpy()[1]

    @property
    def fmeasure(self) -> np.ndarray:
        """``(examples, types)`` F."""
        return self._numpy()[2]

    def __repr__(self) -> str:
        return (
            f"Scores(rouge_types={self.rouge_types!r}, precision={self.precision!r}, "
            f"recall={self.recall!r}, fmeasure={self.fmeasure!r})"
        )

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Scores is read-only: cannot set {name!r}")

    def __reduce__(self) -> tuple[object, ...]:
        values = self._values if self._values is not None else self._numpy()
        return (Scores, (self.rouge_types, *values, self.stats, self.settings, self.ids))

    def values(self, name: str, measure: str = "fmeasure") -> list[float]:
        """Per-example values of one type and measure, as a list of floats."""
        k = self._index(name, measure)
        if self._values is not None:
            return self._values[MEASURES.index(measure)][k :: len(self.rouge_types)].tolist()
        values: list[float] = self.column(name, measure).tolist()
        return values

    def _index(self, name: str, measure: str) -> int:
        if measure not in MEASURES:
            raise ValueError(f"measure: expected one of {list(MEASURES)}, got {measure!r}")
        if name not in self.rouge_types:
            raise ValueError(f"name: expected one of {self.rouge_types}, got {name!r}")
        return self.rouge_types.index(name)

    def __len__(self) -> int:
        if self._values is not None:
            return len(self._values[2]) // max(len(self.rouge_types), 1)
        return int(self.fmeasure.shape[0])

    def mean(self) -> dict[str, Score]:
        """Exact arithmetic means ``{type: Score(precision, recall, fmeasure)}``.

        ``math.fsum`` rounds the sum once, so the mean does not depend on example order or on
        how the data was split into batches.
        """
        n, k = len(self), len(self.rouge_types)
        if self._values is not None and n == 1:  # one example (the per-call path): x / 1 == x
            p, r, f = self._values
            return {name: Score(p[t], r[t], f[t]) for t, name in enumerate(self.rouge_types)}
        if self._values is not None:  # the engine's sums of the flat arrays' columns (fsum's)
            sums = [backend().column_sums(v, k) for v in self._values]
            return {
                name: Score(*(column[t] / n for column in sums))
                for t, name in enumerate(self.rouge_types)
            }
        return {
            name: Score(*(math.fsum(self.values(name, m)) / n for m in MEASURES))
            for name in self.rouge_types
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
        k = self._index(name, measure)
        values: np.ndarray = getattr(self, measure)
        return values[:, k]

    def to_arrow(
        self,
        *,
        return_precision_recall: bool = False,
        index: object = None,
        index_name: str = "index",
    ) -> Any:
        """The per-example scores as a ``pyarrow.Table`` (the ``arrow`` extra): the column
        ``index_name`` (``index``: the input's index, any sequence or Arrow array of one value
        per example; by default the row numbers), then one float64 column per type named as
        :func:`rouge_lcs.distributed.dask_scores` names them: ``rouge1`` … (F), and with
        ``return_precision_recall`` ``rouge1_precision`` / ``rouge1_recall`` ….

        >>> from rouge_lcs import score
        >>> scores = score(["the cat sat", "a dog"], ["the cat sat down", "a dog"], ["rouge1"])
        >>> scores.to_arrow().to_pydict()
        {'index': [0, 1], 'rouge1': [0.8571428571428571, 1.0]}
        """
        import pyarrow as pa

        check_bool(return_precision_recall, "return_precision_recall")
        if not isinstance(index_name, str):
            raise fail_type("index_name", "str", index_name)
        n = len(self)
        if index is None:
            index = pa.array(np.arange(n, dtype=np.int64))
        elif len(index) != n:  # type: ignore[arg-type]
            raise fail_value("index", f"{n} values (one per example)", index)
        columns: dict[str, Any] = {index_name: index}
        for column in score_columns(self.rouge_types, return_precision_recall):
            name, _, measure = column.partition("_")
            columns[column] = pa.array(self.column(name, measure or "fmeasure"))
        if len(columns) <= len(self.rouge_types) * (3 if return_precision_recall else 1):
            raise fail_value("index_name", "a name other than the score columns'", index_name)
        return pa.table(columns)

    def chosen_references(self) -> np.ndarray:
        """``(examples, types)``: which reference each score came from under ``max_f`` /
        ``max_recall`` (0-based within the example), ``-1`` where every reference is used."""
        settings = self.settings
        return chosen_reference(
            self.stats.counts, self.stats.n_refs, settings.multi_ref, settings.beta,
            weights(settings.rouge_types),
        )  # fmt: skip


#: :meth:`Scores.of_flat`'s setters of each slot, in ``__slots__``' order.
_SLOT_SETTERS = tuple(Scores.__dict__[name].__set__ for name in Scores.__slots__)
_new_scores = object.__new__
