"""Per-pair statistics: the integer counts everything else is computed from, and the
arithmetic that turns them into precision, recall and F across several references.

For every example, reference and rouge type: ``(hits, prediction_total, reference_total)``.
Precision, recall, F, multi-reference combination, means, intervals and significance tests are
arithmetic on these counts, computed once (sacrebleu's pattern).

:func:`combine` is the reference half of :meth:`rouge_lcs.engine.interface.Backend.combine`
(``csrc/scores.h`` is the native half, with the same float operations in the same order); its
modes are stated in :mod:`rouge_lcs.scores.multiref`, where the scores' readers look for them.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence

from rouge_lcs.base.lazy import lazy_import
from rouge_lcs.config.options import MULTI_REF_MODES

# Not typing's TYPE_CHECKING: importing typing costs a fresh process ~3 ms (type checkers
# treat any name TYPE_CHECKING as true).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    import numpy as np

    #: A per-call plan (:meth:`rouge_lcs.engine.interface.Store.pair_plan`):
    #: ``plan(prediction, references)`` -> ``{name: make(p, r, f)}``, a fallback's value, or
    #: ``NotImplemented``.
    PairPlan = Callable[[object, object], Any]
    #: A scores plan's result maker (:meth:`rouge_lcs.engine.interface.Store.scores_plan`):
    #: ``make(counts, precision, recall, fmeasure)`` of new flat int64 / float64 arrays.
    ScoresMake = Callable[[array[int], array[float], array[float], array[float]], object]
else:
    np = lazy_import("numpy")


class PairStats:
    """Counts of a batch, stored flat: one row per (example, reference) pair.

    Attributes:
        counts: ``(pairs, types, 3)`` int64 — hits, prediction total, reference total; the
            pairs of example ``e`` are rows ``offsets[e]`` to ``offsets[e + 1] - 1``.
        n_refs: ``(examples,)`` int64 — references per example.

    Built from NumPy arrays (the reference engine) or, by :meth:`from_flat`, from the native
    engine's flat int64 buffers, which the scores are computed from directly: NumPy is then
    imported only when a caller reads :attr:`counts` or :attr:`n_refs` (its import was most
    of a fresh process's first call).
    """

    __slots__ = ("_counts", "_n_refs", "_flat", "_flat_refs", "_n_types")

    def __init__(self, counts: np.ndarray, n_refs: np.ndarray) -> None:
        self._counts: np.ndarray | None = counts
        self._n_refs: np.ndarray | None = n_refs
        self._flat: array[int] | None = None
        self._flat_refs: array[int] | None = None
        self._n_types = int(counts.shape[1]) if counts.ndim == 3 else 0

    @classmethod
    def from_flat(cls, counts: array[int], n_types: int, n_refs: array[int]) -> PairStats:
        """Statistics from flat int64 arrays: ``counts`` holds ``pairs * n_types * 3`` values
        in the order of :attr:`counts`, ``n_refs`` one value per example."""
        stats = cls.__new__(cls)
        stats._counts = stats._n_refs = None
        stats._flat, stats._flat_refs, stats._n_types = counts, n_refs, n_types
        return stats

    @property
    def counts(self) -> np.ndarray:
        """``(pairs, types, 3)`` int64 counts."""
        if self._counts is None:
            import numpy as np

            flat = np.frombuffer(self._flat or b"", dtype=np.int64)
            self._counts = flat.reshape(-1, self._n_types, 3)
        return self._counts

    @property
    def n_refs(self) -> np.ndarray:
        """``(examples,)`` int64: references per example."""
        if self._n_refs is None:
            import numpy as np

            self._n_refs = np.frombuffer(self._flat_refs or b"", dtype=np.int64)
        return self._n_refs

    @property
    def n_types(self) -> int:
        """The number of rouge types counted."""
        return self._n_types

    def flat(self) -> tuple[array[int], array[int]] | None:
        """The flat int64 ``(counts, n_refs)`` of :meth:`from_flat`, else None."""
        if self._flat is None or self._flat_refs is None:
            return None
        return self._flat, self._flat_refs

    def ref_counts(self) -> list[int]:
        """References per example, as a list (without NumPy for flat statistics)."""
        if self._flat_refs is not None:
            return self._flat_refs.tolist()
        return [int(n) for n in self.n_refs.tolist()]

    def __len__(self) -> int:
        if self._flat_refs is not None:
            return len(self._flat_refs)
        return int(self.n_refs.size)

    def __repr__(self) -> str:
        return f"PairStats(counts={self.counts!r}, n_refs={self.n_refs!r})"

    def __reduce__(self) -> tuple[object, ...]:
        flat = self.flat()
        if flat is not None:
            return (_from_flat, (flat[0], self._n_types, flat[1]))
        return (PairStats, (self.counts, self.n_refs))

    @property
    def offsets(self) -> np.ndarray:
        """``(examples + 1,)``: where each example's pairs start (and the end)."""
        import numpy as np

        return np.concatenate([[0], np.cumsum(self.n_refs)])

    @classmethod
    def concatenate(cls, parts: Sequence[PairStats]) -> PairStats:
        """Join the statistics of consecutive batches (in order)."""
        if len(parts) == 1:
            return parts[0]
        flats = [f for f in (p.flat() for p in parts) if f is not None]
        types = {p.n_types for p in parts}
        if parts and len(flats) == len(parts) and len(types) == 1:
            counts, n_refs = array("q"), array("q")
            for part_counts, part_refs in flats:
                counts.extend(part_counts)
                n_refs.extend(part_refs)
            return cls.from_flat(counts, types.pop(), n_refs)
        import numpy as np

        return cls(
            np.concatenate([p.counts for p in parts]), np.concatenate([p.n_refs for p in parts])
        )

    def take(self, examples: Sequence[int]) -> PairStats:
        """The statistics of ``examples`` (indices into this batch's examples; repeats allowed),
        in that order, each example with all its pairs; flat when these are."""
        import numpy as np

        from rouge_lcs.base.arrays import expand

        index = np.asarray(examples, dtype=np.int64)
        n_refs = self.n_refs[index]
        pairs = expand(self.offsets[:-1][index], n_refs)
        counts = self.counts[pairs]
        if self._flat is None:
            return PairStats(counts, n_refs)
        flat_counts, flat_refs = array("q"), array("q")
        flat_counts.frombytes(np.ascontiguousarray(counts).tobytes())
        flat_refs.frombytes(n_refs.tobytes())
        return PairStats.from_flat(flat_counts, self._n_types, flat_refs)


#: :func:`one_example`'s arrays of an example with one reference, made once (never written).
_ONE_REFERENCE = (array("q", [0]), array("q", [1]), array("q", [1]))


def one_example(n_refs: int) -> tuple[array[int], array[int], array[int]]:
    """``(pair_pred, pair_ref, n_refs)`` of one example with ``n_refs`` references, its texts
    numbered ``[prediction, *references]``: what :meth:`~rouge_lcs.engine.interface.Store.
    chunk_stats` takes for a batch of that example (the per-call path's pairs; int64 arrays,
    read only)."""
    if n_refs == 1:
        return _ONE_REFERENCE
    return array("q", [0]) * n_refs, array("q", range(1, n_refs + 1)), array("q", [n_refs])


def flat_floats(values: np.ndarray | array[float]) -> array[float]:
    """Values as a flat float64 ``array`` (row-major), the same floats."""
    if isinstance(values, array):
        return values
    return array("d", values.reshape(-1).tolist())


def _from_flat(counts: array[int], n_types: int, n_refs: array[int]) -> PairStats:
    return PairStats.from_flat(counts, n_types, n_refs)


def inverse(values: np.ndarray, w: float) -> np.ndarray:
    """ROUGE-W's ``f⁻¹(x) = x ** (1 / w)`` of each value, as Python's (C's ``pow``, as the
    script's Perl): NumPy's vectorized ``power`` may round differently."""
    e = 1 / w
    flat = [x**e for x in values.reshape(-1).tolist()]
    return np.array(flat, dtype=np.float64).reshape(values.shape)


def prf(
    counts: np.ndarray, beta: float, weights: Sequence[float] | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Precision, recall and F_beta from ``(..., types, 3)`` counts; 0 where a denominator is 0.

    The operations are ordered as rouge_score orders them (``2 * p * r / (p + r)`` for beta 1),
    so the floats are bit-identical to rouge_score's.  ``weights`` (one per type, 0 but for
    ROUGE-W; :func:`rouge_lcs.text.rouge_types.weights`) makes a ROUGE-W type's precision and
    recall ``f⁻¹(hits / total)`` (its totals are ``f(len)``; ROUGE-1.5.5's rule).
    """
    hits, pred_total, ref_total = counts[..., 0], counts[..., 1], counts[..., 2]
    zeros = np.zeros(hits.shape, dtype=np.float64)
    precision = np.divide(hits, pred_total, out=zeros.copy(), where=pred_total > 0)
    recall = np.divide(hits, ref_total, out=zeros.copy(), where=ref_total > 0)
    for k, w in enumerate(weights or ()):
        if w:
            # hits <= f(len) exactly, but the kernels' sum of weight steps can round a whole
            # match a few ulps past f(len): a score above 1 is that rounding, clamped
            precision[..., k] = inverse(np.minimum(precision[..., k], 1.0), w)
            recall[..., k] = inverse(np.minimum(recall[..., k], 1.0), w)
    b2 = float(beta) * float(beta)
    denominator = recall + b2 * precision
    fmeasure = np.divide(
        (1.0 + b2) * precision * recall, denominator, out=zeros, where=denominator > 0
    )
    return precision, recall, fmeasure


def _first_best(key: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Per example (pairs ``starts[e]`` …) and type, the pair row with the largest ``key``,
    the first one on ties.  ``key`` has shape ``(pairs, types)``."""
    best = np.maximum.reduceat(key, starts, axis=0)
    example = np.repeat(np.arange(starts.size), np.diff(np.append(starts, key.shape[0])))
    rows = np.arange(key.shape[0])[:, None]
    candidate = np.where(key == best[example], rows, key.shape[0])
    return np.minimum.reduceat(candidate, starts, axis=0)


def combine(
    counts: np.ndarray,
    n_refs: np.ndarray,
    mode: str,
    beta: float,
    weights: Sequence[float] | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per-example ``(precision, recall, fmeasure)``, each of shape ``(examples, types)``.

    ``counts`` is ``(pairs, types, 3)`` with the pairs of each example consecutive and
    ``n_refs[e]`` (>= 1) pairs for example ``e``; ``weights`` as in :func:`prf` (``pooled``
    adds a ROUGE-W type's hits and ``f(len)`` totals, then inverts: ROUGE-1.5.5's ``-f A``).
    """
    if counts.shape[0] == n_refs.size:  # one reference each: nothing to combine
        return prf(counts, beta, weights)
    starts = np.cumsum(n_refs) - n_refs
    if mode == "pooled":
        return prf(np.add.reduceat(counts, starts, axis=0), beta, weights)
    precision, recall, fmeasure = prf(counts, beta, weights)
    if mode == "mean":
        # Added reference by reference, left to right, as a hand computation and the native
        # kernel (csrc/scores.h) do: np.add.reduceat sums pairwise, another rounding.
        sums = [values[starts] for values in (precision, recall, fmeasure)]
        for j in range(1, int(n_refs.max())):
            has = n_refs > j
            rows = starts[has] + j
            for total, values in zip(sums, (precision, recall, fmeasure)):
                total[has] += values[rows]
        n = n_refs[:, None].astype(np.float64)
        return sums[0] / n, sums[1] / n, sums[2] / n
    if mode in ("max_f", "max_recall"):
        row = _first_best(fmeasure if mode == "max_f" else recall, starts)
        return (
            np.take_along_axis(precision, row, axis=0),
            np.take_along_axis(recall, row, axis=0),
            np.take_along_axis(fmeasure, row, axis=0),
        )
    raise ValueError(f"multi_ref: expected one of {list(MULTI_REF_MODES)}, got {mode!r}")


def chosen_reference(
    counts: np.ndarray,
    n_refs: np.ndarray,
    mode: str,
    beta: float,
    weights: Sequence[float] | None = None,
) -> np.ndarray:
    """For ``max_f`` / ``max_recall``: ``(examples, types)`` index of the reference each score
    came from (within the example); ``-1`` for modes that use every reference."""
    starts = np.cumsum(n_refs) - n_refs
    if mode not in ("max_f", "max_recall"):
        return np.full((n_refs.size, counts.shape[1]), -1, dtype=np.int64)
    _, recall, fmeasure = prf(counts, beta, weights)
    row = _first_best(fmeasure if mode == "max_f" else recall, starts)
    return row - starts[:, None]


def python_pair_plan(
    scores: Callable[[str, list[str]], tuple[object, Any, Any, Any]],
    full: Callable[[], bool],
    names: tuple[str, ...],
    make: Callable[[float, float, float], object],
    fallback: PairPlan,
) -> PairPlan:
    """:meth:`~rouge_lcs.engine.interface.Store.pair_plan` in Python, over a store's
    :meth:`~rouge_lcs.engine.interface.Store.pair_scores` (``scores``): the reference engine's,
    and the native engine's for what its C plan does not take; ``full()`` says the store must
    be renewed."""

    def plan(prediction: object, references: object) -> Any:
        if (
            type(prediction) is not str
            or type(references) is not list
            or not references
            or not all(type(reference) is str for reference in references)
        ):
            return fallback(prediction, references)
        if full():
            return NotImplemented
        _, p, r, f = scores(prediction, references)
        return dict(zip(names, map(make, p, r, f)))

    return plan
