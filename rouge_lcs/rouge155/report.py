"""From per-pair statistics to the numbers and text that ROUGE-1.5.5 prints.

- Multi-reference combination (``-f``): ``A`` sums hits, model counts and peer counts over the
  models; ``B`` keeps the first model whose selection score is strictly greater than every
  earlier one (ROUGE-N/S: the recall *rounded to 5 decimals*, so near-ties go to the earlier
  model; ROUGE-L/W: the unrounded recall).
- Rounding: R and P are ``sprintf("%7.5f")``; F is computed from the rounded R and P,
  ``F = P·R / ((1-α)·P + α·R)`` (0 when the denominator is 0), and rounded again.  ROUGE-W's R
  and P are ``(hit / count) ** (1/w)``.
- ``Average_R/P/F``: the script does not print the plain mean.  It draws ``-r`` bootstrap samples
  (sample ``i`` seeded with ``srand(i)``; Perl's ``rand`` is drand48 since Perl 5.20), averages the
  5-decimal per-example values of each sample, and prints the mean of the sorted sample means and
  two order statistics as the confidence interval.  Instances are in *string* order of their ids
  (``"1.1" < "10.1" < "2.1"``).  All of it is reproduced here, float operation for float
  operation, vectorized over the samples with numpy.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from rouge_lcs.rouge155.counts import Metric, PairStat

__all__ = ["combine", "prf_strings", "bootstrap_average", "Average", "Report", "pyrouge_key"]

_MASK48 = (1 << 48) - 1
_A48 = 0x5DEECE66D
_C48 = 0xB


def _fmt(x: float) -> str:
    # Python's %.5f and C's printf both round the exact binary value correctly.
    return f"{x:.5f}"


def combine(stats: Sequence[PairStat], mode: str) -> tuple[float, float, float]:
    """``(hit, model_count, peer_count)`` of one example after ``-f A`` or ``-f B``."""
    hit = model_count = peer_count = 0.0
    if mode == "B":
        best = -1.0
        for h, mc, pc, select in stats:
            if select > best:
                best, hit, model_count, peer_count = select, h, mc, pc
        return hit, model_count, peer_count
    for h, mc, pc, _ in stats:  # A (the script treats any other value as A too)
        hit += h
        model_count += mc
        peer_count += pc
    return hit, model_count, peer_count


def prf_strings(
    hit: float, model_count: float, peer_count: float, alpha: float, weight: float | None = None
) -> tuple[str, str, str]:
    """The script's printed ``R``, ``P``, ``F`` of one example."""

    def ratio(count: float) -> str:
        if count == 0:
            return _fmt(0)
        value = hit / count
        return _fmt(value ** (1 / weight) if weight is not None else value)

    r, p = ratio(model_count), ratio(peer_count)
    rv, pv = float(r), float(p)
    denominator = (1 - alpha) * pv + alpha * rv
    f = _fmt((pv * rv) / denominator) if denominator > 0 else _fmt(0)
    return r, p, f


def _drand48_indices(n_instances: int, n_samples: int) -> np.ndarray:
    """``int(rand(n))`` draws of every bootstrap sample: row ``s`` is seeded by ``srand(s)``."""
    steps = np.empty(n_instances, dtype=np.uint64)
    adds = np.empty(n_instances, dtype=np.uint64)
    a, c = 1, 0
    for k in range(n_instances):  # state_k = A^k * x0 + C_k (mod 2^48), k = 1..n
        a, c = (a * _A48) & _MASK48, (c * _A48 + _C48) & _MASK48
        steps[k], adds[k] = a, c
    seeds = (np.arange(n_samples, dtype=np.uint64) << np.uint64(16)) + np.uint64(0x330E)
    # uint64 products wrap modulo 2^64, a multiple of 2^48, so the mask gives the exact state.
    states = (seeds[:, None] * steps[None, :] + adds[None, :]) & np.uint64(_MASK48)
    uniform = states.astype(np.float64) * 2.0**-48  # exact: states have 48 bits
    return (float(n_instances) * uniform).astype(np.int64)  # Perl: int(n * drand48())


@dataclass
class Average:
    """``Average_X`` and its confidence interval, as printed strings, for R, P and F."""

    values: tuple[str, str, str]
    low: tuple[str, str, str]
    high: tuple[str, str, str]


def bootstrap_average(
    per_example: Sequence[tuple[str, str, str]],
    ids: Sequence[str],
    resamples: int = 1000,
    confidence: float = 95,
    indices: np.ndarray | None = None,
) -> Average:
    """``computeAverages`` of the script for one metric (``-t`` not given)."""
    order = sorted(range(len(ids)), key=lambda k: ids[k].encode())  # Perl's sort: byte order
    n = len(order)
    if indices is None:
        indices = _drand48_indices(n, resamples)
    delta = resamples * ((100 - confidence) / 2.0) / 100.0
    ci_ua = int(resamples - delta - 1)
    ci_la = int(delta)
    ci_r = resamples - delta - 1 - ci_ua
    avg, low, high = [], [], []
    for column in range(3):
        values = np.array([float(per_example[k][column]) for k in order], dtype=np.float64)
        if n:
            # A sequential left-to-right sum like the script's loop (cumsum never reassociates).
            sums = np.cumsum(values[indices], axis=1)[:, -1] / n
        else:
            sums = np.zeros(resamples)
        ranked = sorted(sums.tolist())
        total = 0.0
        for x in ranked:
            total += x
        avg.append(_fmt(total / len(ranked)))

        def at(k: int) -> float:  # Perl: negative indices count from the end, past the end is 0
            return ranked[k] if -len(ranked) <= k < len(ranked) else 0.0

        low.append(_fmt(at(ci_la) + (at(ci_la + 1) - at(ci_la)) * ci_r))
        high.append(_fmt(at(ci_ua) + (at(ci_ua + 1) - at(ci_ua)) * ci_r))
    return Average(tuple(avg), tuple(low), tuple(high))  # type: ignore[arg-type]


def pyrouge_key(tag: str) -> str:
    """pyrouge's key stem for a tag: ``ROUGE-W-1.2 -> rouge_w_1.2``, ``ROUGE-SU* -> rouge_su*``."""
    return tag.replace("-", "_").lower()


_MEASURES = ("recall", "precision", "f_score")


@dataclass
class Report:
    """Everything the script prints for one system (peer) over a set of examples."""

    metrics: list[Metric]
    eval_ids: list[str]
    peer_id: str
    #: ``per_example[metric_index][example] = (R, P, F)`` as the script prints them.
    per_example: list[list[tuple[str, str, str]]]
    averages: list[Average]
    confidence: float = 95
    confidence_text: str = "95"
    details: bool = True
    extras: dict = field(default_factory=dict)

    @property
    def tags(self) -> list[str]:
        """The script's metric names, in its printing order."""
        return [m.tag for m in self.metrics]

    def text(self) -> str:
        """The report exactly as ``ROUGE-1.5.5.pl -a [-d]`` writes it to stdout."""
        out: list[str] = []
        c = self.confidence_text
        ordered = sorted(range(len(self.eval_ids)), key=lambda k: _eval_sort_key(self.eval_ids[k]))
        for m, tag in enumerate(self.tags):
            a = self.averages[m]
            out.append("---------------------------------------------")
            for k, letter in enumerate("RPF"):
                out.append(
                    f"{self.peer_id} {tag} Average_{letter}: {a.values[k]} "
                    f"({c}%-conf.int. {a.low[k]} - {a.high[k]})"
                )
            if self.details:
                out.append(".............................................")
                for k in ordered:
                    r, p, f = self.per_example[m][k]
                    out.append(
                        f"{self.peer_id} {tag} Eval {self.eval_ids[k]}.{self.peer_id} "
                        f"R:{r} P:{p} F:{f}"
                    )
        return "\n".join(out) + "\n"

    def to_dict(self) -> dict[str, float]:
        """pyrouge's ``output_to_dict``: ``rouge_1_recall``, ``…_cb``, ``…_ce`` per metric."""
        out: dict[str, float] = {}
        for m, tag in enumerate(self.tags):
            stem = pyrouge_key(tag)
            a = self.averages[m]
            for k, name in enumerate(_MEASURES):
                out[f"{stem}_{name}"] = float(a.values[k])
                out[f"{stem}_{name}_cb"] = float(a.low[k])
                out[f"{stem}_{name}_ce"] = float(a.high[k])
        return out

    def per_example_dicts(self) -> list[dict[str, float]]:
        """Per-example (``-d``) numbers with pyrouge key names."""
        rows: list[dict[str, float]] = [{} for _ in self.eval_ids]
        for m, tag in enumerate(self.tags):
            stem = pyrouge_key(tag)
            for k, values in enumerate(self.per_example[m]):
                for name, v in zip(_MEASURES, values):
                    rows[k][f"{stem}_{name}"] = float(v)
        return rows


def _eval_sort_key(eval_id: str) -> tuple:
    # by_evalID: numeric on a leading number when there is one; ids here are all numeric or all
    # not, as the script only sorts consistently in those two cases.
    digits = ""
    for ch in eval_id:
        if not ch.isdigit():
            break
        digits += ch
    return (0, int(digits), "") if digits else (1, 0, eval_id)
