"""Confidence intervals and paired significance tests over per-example scores (numpy, seeded).

All functions take per-example score matrices of shape ``(examples, columns)`` — the same
per-example scores the mean is computed from — so nothing is rescored.

- :func:`bootstrap_interval`: percentile bootstrap CI of the mean (the point estimate stays the
  exact mean; rouge_score instead reports an unseeded bootstrap median).
- :func:`paired_bootstrap`: Koehn (2004) paired bootstrap resampling of the difference of two
  systems on the same examples; p-value as in sacrebleu (the resampled differences, centred, are
  compared with the observed difference).
- :func:`approximate_randomization`: Noreen (1989) / Riezler & Maxwell (2005) paired
  approximate randomization: per example, the two systems' scores are swapped at random.
"""

from __future__ import annotations

from collections.abc import Sequence

from rouge_lcs.base.lazy import lazy_import
from rouge_lcs.base.records import record
from rouge_lcs.base.validation import (
    MAX_RESAMPLES,
    check_confidence_level,
    check_int,
    check_seed,
)

TYPE_CHECKING = False  # not typing's: importing typing costs ~5 ms (see rouge_lcs.base.records)
if TYPE_CHECKING:
    from typing import Any

    import numpy as np
else:
    np = lazy_import("numpy")

#: Resamples are drawn in blocks of at most this many rows …
_BLOCK = 64
#: … and at most this many drawn values (rows × examples × columns): 32 MB of float64, so
#: memory stays bounded however many examples there are.
_BLOCK_VALUES = 1 << 22


def _check(confidence_level: object, n_resamples: object) -> None:
    if check_confidence_level(confidence_level) is None:
        raise TypeError("confidence_level: expected a number between 0 and 1, got NoneType")
    check_int(n_resamples, "n_resamples", 1, MAX_RESAMPLES)


def _block_rows(n: int, columns: int) -> int:
    return max(1, min(_BLOCK, _BLOCK_VALUES // max(1, n * columns)))


def _resampled_means(values: np.ndarray, n_resamples: int, seed: int) -> np.ndarray:
    """``(n_resamples, columns)`` means of bootstrap resamples of the rows of ``values``.

    The resamples are drawn block by block; the random stream and each row's mean do not
    depend on the block size, so bounding memory does not change a number.
    """
    rng = np.random.default_rng(check_seed(seed))
    n = values.shape[0]
    out = np.empty((n_resamples, values.shape[1]))
    block = _block_rows(n, values.shape[1])
    for start in range(0, n_resamples, block):
        stop = min(start + block, n_resamples)
        index = rng.integers(0, n, size=(stop - start, n))
        out[start:stop] = values[index].mean(axis=1)
    return out


def _percentiles(samples: np.ndarray, confidence_level: float) -> tuple[np.ndarray, np.ndarray]:
    tail = (1.0 - confidence_level) / 2.0
    low, high = np.quantile(samples, [tail, 1.0 - tail], axis=0)
    return low, high


def bootstrap_interval(
    values: np.ndarray,
    confidence_level: float = 0.95,
    n_resamples: int = 1000,
    seed: int = 0,
) -> tuple[np.ndarray, np.ndarray]:
    """Percentile bootstrap interval of the column means of ``values`` (examples x columns)."""
    _check(confidence_level, n_resamples)
    values = np.asarray(values, dtype=np.float64)
    return _percentiles(_resampled_means(values, n_resamples, seed), confidence_level)


@record
class Comparison:
    """Paired comparison of system B against system A, per column (rouge type)."""

    mean_a: np.ndarray
    mean_b: np.ndarray
    difference: np.ndarray  # mean_b - mean_a
    low: np.ndarray  # confidence interval of the difference (paired bootstrap)
    high: np.ndarray
    p_bootstrap: np.ndarray
    p_randomization: np.ndarray

    def to_dict(self, names: Sequence[str]) -> dict[str, dict[str, Any]]:
        """Per column name: ``mean_a``, ``mean_b``, ``difference`` (B − A), ``interval`` (its
        CI) and both p-values, as plain floats — the one schema of a comparison, printed by
        ``rouge-lcs compare --json`` and answered by the Space's ``compare`` endpoint."""
        return {
            name: {
                "mean_a": float(self.mean_a[k]),
                "mean_b": float(self.mean_b[k]),
                "difference": float(self.difference[k]),
                "interval": [float(self.low[k]), float(self.high[k])],
                "p_bootstrap": float(self.p_bootstrap[k]),
                "p_randomization": float(self.p_randomization[k]),
            }
            for k, name in enumerate(names)
        }


def _paired(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    if a.shape != b.shape or a.ndim != 2 or a.shape[0] == 0:
        raise ValueError(
            f"scores: expected two matrices of the same shape (examples x types), "
            f"got {a.shape} and {b.shape}"
        )
    return a, b


def paired_bootstrap(
    a: np.ndarray, b: np.ndarray, n_resamples: int = 1000, seed: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """Resampled mean differences ``(n_resamples, columns)`` and the two-sided p-value.

    p = (1 + #{|d* - mean(d*)| >= |d|}) / (1 + n_resamples): how often a difference as large as
    the observed one arises when the bootstrap distribution is centred on no difference.
    """
    a, b = _paired(a, b)
    diff = b - a
    observed = diff.mean(axis=0)
    samples = _resampled_means(diff, n_resamples, seed)
    centred = np.abs(samples - samples.mean(axis=0))
    extreme = (centred >= np.abs(observed) - 1e-15).sum(axis=0)
    return samples, (1.0 + extreme) / (1.0 + n_resamples)


def approximate_randomization(
    a: np.ndarray, b: np.ndarray, n_trials: int = 1000, seed: int = 0
) -> np.ndarray:
    """Two-sided p-value per column: swap the systems' scores of each example with probability
    1/2; p = (1 + #{|mean difference| >= observed}) / (1 + n_trials)."""
    a, b = _paired(a, b)
    check_int(n_trials, "n_trials", 1, MAX_RESAMPLES)
    diff = b - a
    observed = np.abs(diff.mean(axis=0))
    rng = np.random.default_rng(check_seed(seed))
    extreme = np.zeros(diff.shape[1], dtype=np.int64)
    block = _block_rows(diff.shape[0], 1)
    for start in range(0, n_trials, block):
        rows = min(block, n_trials - start)
        signs = rng.integers(0, 2, size=(rows, diff.shape[0])) * 2 - 1
        shuffled = np.abs(signs @ diff) / diff.shape[0]
        extreme += (shuffled >= observed - 1e-15).sum(axis=0)
    return (1.0 + extreme) / (1.0 + n_trials)


def compare(
    a: np.ndarray,
    b: np.ndarray,
    confidence_level: float = 0.95,
    n_resamples: int = 1000,
    seed: int = 0,
) -> Comparison:
    """Everything needed to report B versus A: means, difference, its CI and two p-values."""
    _check(confidence_level, n_resamples)
    a, b = _paired(a, b)
    samples, p_boot = paired_bootstrap(a, b, n_resamples, seed)
    low, high = _percentiles(samples, confidence_level)
    return Comparison(
        mean_a=a.mean(axis=0),
        mean_b=b.mean(axis=0),
        difference=(b - a).mean(axis=0),
        low=low,
        high=high,
        p_bootstrap=p_boot,
        p_randomization=approximate_randomization(a, b, n_resamples, seed),
    )
