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

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from rouge_lcs.rouge155.counts import Metric, PairStat, _round5_array

__all__ = [
    "combine",
    "combine_arrays",
    "prf_strings",
    "prf_arrays",
    "round5",
    "bootstrap_averages",
    "Report",
    "pyrouge_key",
]

_MASK48 = (1 << 48) - 1
#: Products of at most this many multiply-adds stay on one OpenBLAS thread (with margin).
_SINGLE_THREAD_GEMM = 200_000
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


@lru_cache(maxsize=8)
def _drand48_jumps(n_instances: int) -> tuple[np.ndarray, np.ndarray]:
    """``A^k mod 2^48`` and ``C_k`` (so that ``x_k = A^k·x0 + C_k``) for k = 1 … n."""
    steps = np.empty(n_instances, dtype=np.int64)
    adds = np.empty(n_instances, dtype=np.int64)
    a, c = 1, 0
    for k in range(n_instances):
        a, c = (a * _A48) & _MASK48, (c * _A48 + _C48) & _MASK48
        steps[k], adds[k] = a, c
    return steps, adds


def _drand48_draws(n_instances: int, samples: np.ndarray) -> np.ndarray:
    """``int(rand(n))`` draws of the given bootstrap samples: row ``k`` is sample
    ``samples[k]``, seeded by ``srand(samples[k])``.

    Perl's ``rand`` is drand48: ``x0 = s << 16 | 0x330E``, ``x' = A·x + C mod 2^48``, and
    ``rand(n) = n · x / 2^48``.  Draw ``k`` of seed ``s`` is ``A^k·x0 + C_k mod 2^48``, so every
    draw of every sample is one vectorized multiply-add.
    """
    steps, adds = _drand48_jumps(n_instances)
    seeds = (np.asarray(samples, dtype=np.int64) << 16) + 0x330E
    # int64 products wrap modulo 2^64 (two's complement), a multiple of 2^48, so the mask
    # gives the exact 48-bit state; int64 (not uint64) because its float conversion is fast.
    states = np.multiply(seeds[:, None], steps[None, :])
    states += adds
    states &= _MASK48
    uniform = states.astype(np.float64)
    # n·(x·2^-48) and x·(n·2^-48) are the same single rounding of the exact product.
    uniform *= float(n_instances) * 2.0**-48
    return uniform.astype(np.int64)  # int() of a positive number: truncation


def _sample_blocks(n: int, resamples: int) -> list[tuple[int, int]]:
    # bounds memory to a few million cells of (sample, draw) whatever n is
    size = max(1, 2_000_000 // max(n, 1))
    return [(a, min(a + size, resamples)) for a in range(0, resamples, size)]


def _count_draws(n: int, resamples: int) -> tuple[np.ndarray, ...]:
    """How often each instance is drawn in each sample, per block of samples, each block in the
    smallest unsigned integer type that holds its counts (uint8 in practice: an instance is
    drawn about once per sample, rarely more than ten times)."""
    blocks = []
    for a, b in _sample_blocks(n, resamples):
        draws = _drand48_draws(n, np.arange(a, b))
        draws += (np.arange(b - a) * n)[:, None]
        counts = np.bincount(draws.reshape(-1), minlength=(b - a) * n).reshape(b - a, n)
        block = counts.astype(np.min_scalar_type(int(counts.max(initial=0))))
        block.flags.writeable = False
        blocks.append(block)
    return tuple(blocks)


#: Cells of draw counts kept for the next call (24 MB at one byte a cell): they depend on
#: ``(n, resamples)`` only, so scoring many systems, or many flag sets, on one test set redraws
#: nothing (drawing them is most of an average's cost: 0.19 of 0.23 CPU s at n = 11,490).
_KEPT_CELLS = 24_000_000
_kept_counts: dict[tuple[int, int], tuple[np.ndarray, ...]] = {}


def _draw_counts(n: int, resamples: int) -> Iterator[np.ndarray]:
    """:func:`_count_draws` as float64 blocks (BLAS multiplies them exactly), kept for the next
    call in their compact type when they fill at most ``_KEPT_CELLS`` bytes."""
    blocks = _kept_counts.get((n, resamples))
    if blocks is None:
        blocks = _count_draws(n, resamples)
        if sum(block.nbytes for block in blocks) <= _KEPT_CELLS:
            _kept_counts.clear()  # one test set at a time
            _kept_counts[(n, resamples)] = blocks
    for block in blocks:
        yield block.astype(np.float64)


def round5(x: np.ndarray) -> np.ndarray:
    """``sprintf("%7.5f")`` of every value, as the nearest double to the printed decimal.

    ``x * 1e5`` is within about 1e-11 of its exact value, so the half-way test is safe except
    right at a tie; those few values are formatted one by one, as printf rounds them.
    """
    return _round5_array(x)


def combine_arrays(
    hit: np.ndarray,
    model_count: np.ndarray,
    peer_count: np.ndarray,
    select: np.ndarray,
    starts: np.ndarray,
    mode: str,
    sequential: bool = False,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`combine` for every example at once; example ``i`` owns pairs ``starts[i]…``.

    ``sequential``: add in model order one by one (ROUGE-W's float counts); integer counts are
    exact in any order.
    """
    n_pairs = hit.size
    sizes = np.diff(np.r_[starts, n_pairs])
    if mode == "B":
        owner = np.repeat(np.arange(starts.size), sizes)
        best = np.maximum.reduceat(select, starts)
        candidates = np.flatnonzero(select == best[owner])
        _, first = np.unique(owner[candidates], return_index=True)
        chosen = candidates[first]  # the first model with the best score, as the script keeps
        return hit[chosen], model_count[chosen], peer_count[chosen]
    if sequential:
        rows = [
            combine(list(zip(hit[a:b], model_count[a:b], peer_count[a:b], select[a:b])), "A")
            for a, b in zip(starts.tolist(), (starts + sizes).tolist())
        ]
        arr = np.array(rows, dtype=np.float64).reshape(-1, 3)
        return arr[:, 0], arr[:, 1], arr[:, 2]
    return (
        np.add.reduceat(hit, starts),
        np.add.reduceat(model_count, starts),
        np.add.reduceat(peer_count, starts),
    )


def prf_arrays(
    hit: np.ndarray,
    model_count: np.ndarray,
    peer_count: np.ndarray,
    alpha: float,
    weight: float | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`prf_strings` for every example, as doubles of the printed decimals."""

    def ratio(count: np.ndarray) -> np.ndarray:
        with np.errstate(divide="ignore", invalid="ignore"):
            value = np.where(count != 0, hit / count, 0.0)
        if weight is not None:  # Perl's ** is C's pow, as Python's is
            inverse = 1 / weight
            value = np.array([v**inverse for v in value.tolist()], dtype=np.float64)
        return round5(value)

    r, p = ratio(model_count), ratio(peer_count)
    # the script's expression, operation for operation
    denominator = (1 - alpha) * p + alpha * r
    with np.errstate(divide="ignore", invalid="ignore"):
        f = np.where(denominator > 0, (p * r) / denominator, 0.0)
    return r, p, round5(f)


def _ci_indices(resamples: int, confidence: float) -> tuple[int, int, float]:
    delta = resamples * ((100 - confidence) / 2.0) / 100.0
    ci_ua = int(resamples - delta - 1)
    ci_la = int(delta)
    ci_r = resamples - delta - 1 - ci_ua
    return ci_la, ci_ua, ci_r


def _at(ranked: np.ndarray, k: int) -> float:
    # Perl arrays: a negative index counts from the end, one past the end reads as 0.
    return float(ranked[k]) if -ranked.size <= k < ranked.size else 0.0


def _summaries(
    ranked: np.ndarray, resamples: int, confidence: float, total: float | None = None
) -> tuple[float, ...]:
    """Mean of the sorted sample means (a sequential sum: ``total`` when already known) and the
    two interpolated bounds."""
    ci_la, ci_ua, ci_r = _ci_indices(resamples, confidence)
    mean = (float(np.cumsum(ranked)[-1]) if total is None else total) / ranked.size
    low = _at(ranked, ci_la) + (_at(ranked, ci_la + 1) - _at(ranked, ci_la)) * ci_r
    high = _at(ranked, ci_ua) + (_at(ranked, ci_ua + 1) - _at(ranked, ci_ua)) * ci_r
    return mean, low, high


def _emulated_means(
    values: np.ndarray, samples: np.ndarray, resamples: int | None = None
) -> np.ndarray:
    """The script's means of the given samples: a left-to-right float sum, divided by n.

    ``resamples`` (every sample is below it): reuse the draws of all samples, cached.
    """
    n = values.size
    means = np.zeros(samples.size)
    if n == 0:
        return means
    cached = None
    if resamples is not None and n * resamples <= 3_000_000:
        cached = _all_draws(n, resamples)
    for a, b in _sample_blocks(n, samples.size):
        if cached is None:
            drawn = values[_drand48_draws(n, samples[a:b]).T]
        elif b - a == resamples:  # every sample, in order
            drawn = values[cached]
        else:
            drawn = values[cached[:, samples[a:b]]]
        # The script's sum, strictly left to right (np.sum would reassociate pairwise): one
        # vectorized add over the samples per draw, on contiguous rows (6x faster than
        # np.cumsum along the draws of each sample).
        total = drawn[0].copy()
        for row in drawn[1:]:
            np.add(total, row, out=total)
        means[a:b] = total / n
    return means


@lru_cache(maxsize=1)
def _all_draws(n: int, upto: int) -> np.ndarray:
    """Every draw of samples ``0 … upto-1``, draw by sample (C-contiguous, read-only), kept for
    the next call: columns near a tie redo the script's float sums, and every call on one test
    set draws the same."""
    draws = np.ascontiguousarray(_drand48_draws(n, np.arange(upto)).T)
    draws.flags.writeable = False
    return draws


def _near_tie(x: float, tolerance: float) -> bool:
    y = x * 1e5
    return bool(abs(y - np.floor(y) - 0.5) < tolerance)


def bootstrap_averages(
    columns: np.ndarray,
    ids: Sequence[str],
    resamples: int = 1000,
    confidence: float = 95,
    exact: bool = False,
) -> list[tuple[str, str, str]]:
    """``computeAverages`` of the script for many value columns (``-t`` not given).

    ``columns[:, c]`` holds one per-example value (a 5-decimal number) per example.  Returns
    ``(average, low, high)`` strings per column.

    The fast path sums each sample exactly in integers (the values are k/10^5) with one matrix
    product.  The script's float sums differ from those exact means by less than ``n·2^-52``,
    so a printed digit can only differ when a result lies that close to a half-way point:

    - a bound that is one order statistic (the default ``-c 95 -r 1000``) is then settled by
      redoing the script's float sums for just the samples whose means are that close to it;
    - anything else (the average, interpolated bounds), and everything with ``exact=True``, is
      redone with the script's float sums for all samples.
    """
    n = len(ids)
    order = sorted(range(n), key=list(map(str.encode, ids)).__getitem__)  # Perl's: byte order
    values = np.asarray(columns, dtype=np.float64)[order]
    tolerance = max(1e-6, 1e5 * (n + 2) * 1e-15)  # in units of the 5th decimal
    all_samples = np.arange(resamples)
    ci_la, ci_ua, ci_r = _ci_indices(resamples, confidence)
    results: list[tuple[str, str, str]] = []
    means = None
    if not exact and n:
        scaled = np.rint(values * 1e5)  # the exact integers k of the values k / 10^5
        sums = np.empty((resamples, values.shape[1]))
        # Through BLAS in float64: integer-valued products and sums below 2^53 are exact in any
        # order (numpy's own int64 loop is ~8x slower).  Small products go in slices of rows
        # below OpenBLAS's multithreading threshold (M·N·K <= 4·65536): its threads only spin
        # on matrices this small, which costs CPU time for nothing.
        rows = max(1, _SINGLE_THREAD_GEMM // (n * values.shape[1]))
        for (a, b), counts in zip(_sample_blocks(n, resamples), _draw_counts(n, resamples)):
            if n * values.shape[1] > 20_000:
                sums[a:b] = counts @ scaled
                continue
            for r in range(a, b, rows):
                np.matmul(counts[r - a : r - a + rows], scaled, out=sums[r : min(r + rows, b)])
        means = sums / 1e5 / n
    if means is not None:  # every column sorted, and its sequential sum, at once
        ranked_all = np.sort(means, axis=0)
        totals = np.cumsum(ranked_all, axis=0)[-1].tolist() if resamples else []
    for c in range(values.shape[1]):
        if means is not None:
            column = means[:, c]
            ranked = ranked_all[:, c]
            summary = list(_summaries(ranked, resamples, confidence, totals[c]))
            settled = not _near_tie(summary[0], tolerance)
            for slot, k in ((1, ci_la), (2, ci_ua)):
                if not settled or not _near_tie(summary[slot], tolerance):
                    continue
                if ci_r != 0 or not -resamples <= k < resamples:
                    settled = False
                    continue
                k %= resamples
                close = np.abs(column - ranked[k]) * 1e5 <= tolerance
                below = int(np.count_nonzero(column < ranked[k] - tolerance / 1e5))
                exact_close = np.sort(
                    _emulated_means(values[:, c], np.flatnonzero(close), resamples)
                )
                summary[slot] = float(exact_close[k - below])
            if settled:
                results.append(tuple(_fmt(x) for x in summary))  # type: ignore[arg-type]
                continue
        ranked = np.sort(_emulated_means(values[:, c], all_samples, resamples))
        summary = list(_summaries(ranked, resamples, confidence))
        results.append(tuple(_fmt(x) for x in summary))  # type: ignore[arg-type]
    return results


def pyrouge_key(tag: str) -> str:
    """pyrouge's key stem for a tag: ``ROUGE-W-1.2 -> rouge_w_1.2``, ``ROUGE-SU* -> rouge_su*``."""
    return tag.replace("-", "_").lower()


#: The Perl report's measures, in its order and its names (not ``scores.results.MEASURES``).
_PERL_REPORT_ORDER = ("recall", "precision", "f_score")


@dataclass
class Report:
    """Everything the script prints for one system (peer) over a set of examples."""

    metrics: list[Metric]
    eval_ids: list[str]
    peer_id: str
    #: ``per_example[metric] = (R, P, F)`` arrays over examples: doubles of printed decimals.
    per_example: list[tuple[np.ndarray, np.ndarray, np.ndarray]]
    #: ``averages[metric][k] = (average, low, high)`` strings for k = R, P, F.
    averages: list[list[tuple[str, str, str]]]
    confidence_text: str = "95"
    details: bool = True

    @property
    def tags(self) -> list[str]:
        """The script's metric names, in its printing order."""
        return [m.tag for m in self.metrics]

    def text(self) -> str:
        """The report exactly as ``ROUGE-1.5.5.pl -a [-d]`` writes it to stdout."""
        out: list[str] = []
        c = self.confidence_text
        ordered = _eval_order(self.eval_ids)
        ids = [self.eval_ids[k] for k in ordered]
        heads: list[str] | None = None
        numbers: list[str] | None = None
        if self.details and self.per_example:  # every metric's numbers at once
            r, p, f = (
                np.concatenate([rpf[k][ordered] for rpf in self.per_example]) for k in range(3)
            )
            numbers = _decimal_lines(r, p, f)
        for m, tag in enumerate(self.tags):
            out.append("---------------------------------------------")
            for k, letter in enumerate("RPF"):
                avg, low, high = self.averages[m][k]
                out.append(
                    f"{self.peer_id} {tag} Average_{letter}: {avg} ({c}%-conf.int. {low} - {high})"
                )
            if self.details:
                out.append(".............................................")
                if numbers is not None:  # the usual case: no Python formatting per number
                    if heads is None:
                        heads = [f" Eval {e}.{self.peer_id} R:" for e in ids]
                    head = f"{self.peer_id} {tag}"
                    mine = numbers[m * len(ids) : (m + 1) * len(ids)]
                    out.extend(map(str.__add__, map(head.__add__, heads), mine))
                    continue
                # One %-format per line (faster than str.format).
                r, p, f = (a[ordered].tolist() for a in self.per_example[m])
                peer, name = _percents(self.peer_id), _percents(tag)
                line = f"{peer} {name} Eval %s.{peer} R:%.5f P:%.5f F:%.5f"
                out.extend([line % row for row in zip(ids, r, p, f)])
        return "\n".join(out) + "\n"

    def to_dict(self) -> dict[str, float]:
        """pyrouge's ``output_to_dict``: ``rouge_1_recall``, ``…_cb``, ``…_ce`` per metric."""
        out: dict[str, float] = {}
        for m, tag in enumerate(self.tags):
            stem = pyrouge_key(tag)
            for k, name in enumerate(_PERL_REPORT_ORDER):
                avg, low, high = self.averages[m][k]
                out[f"{stem}_{name}"] = float(avg)
                out[f"{stem}_{name}_cb"] = float(low)
                out[f"{stem}_{name}_ce"] = float(high)
        return out

    def per_example_dicts(self) -> list[dict[str, float]]:
        """Per-example (``-d``) numbers with pyrouge key names."""
        rows: list[dict[str, float]] = [{} for _ in self.eval_ids]
        for m, tag in enumerate(self.tags):
            stem = pyrouge_key(tag)
            for name, values in zip(_PERL_REPORT_ORDER, self.per_example[m]):
                for k, v in enumerate(values.tolist()):
                    rows[k][f"{stem}_{name}"] = v
        return rows

    def mean(self) -> dict[str, float]:
        """Plain means of the per-example numbers (not printed by the script), pyrouge keys."""
        out: dict[str, float] = {}
        for m, tag in enumerate(self.tags):
            for name, values in zip(_PERL_REPORT_ORDER, self.per_example[m]):
                out[f"{pyrouge_key(tag)}_{name}"] = float(np.mean(values)) if values.size else 0.0
        return out


_DIGITS = np.array([10**k for k in (5, 4, 3, 2, 1, 0)], dtype=np.int64)


def _decimal_lines(r: np.ndarray, p: np.ndarray, f: np.ndarray) -> list[str] | None:
    """``"%.5f P:%.5f F:%.5f" % (r[i], p[i], f[i])`` for every ``i``, built as one byte array.

    Every value must be the double nearest to some ``k / 10^5`` with ``0 <= k < 10^6`` (what
    :func:`round5` returns): ``%.5f`` of such a double prints exactly ``k / 10^5``, since it lies
    within half an ulp of it, far below half a unit of the 5th decimal.  Otherwise ``None``.
    """
    values = np.stack([r, p, f], axis=1)
    k = np.rint(values * 1e5)
    if values.size and (k.min() < 0 or k.max() >= 1e6 or not np.array_equal(k / 1e5, values)):
        return None
    # digit d of k: (k // 10^(5-d)) % 10, as ASCII; "d.ddddd" per value
    digits = (k.astype(np.int64)[:, :, None] // _DIGITS) % 10 + ord("0")
    number = np.empty((values.shape[0], 3, 7), dtype=np.uint8)
    number[:, :, 0] = digits[:, :, 0]
    number[:, :, 1] = ord(".")
    number[:, :, 2:] = digits[:, :, 1:]
    line = np.empty((values.shape[0], 28), dtype=np.uint8)
    line[:, 0:7] = number[:, 0]
    line[:, 7:10] = np.frombuffer(b" P:", dtype=np.uint8)
    line[:, 10:17] = number[:, 1]
    line[:, 17:20] = np.frombuffer(b" F:", dtype=np.uint8)
    line[:, 20:27] = number[:, 2]
    line[:, 27] = ord("\n")
    return line.tobytes().decode("ascii").split("\n")[:-1]


def _percents(text: str) -> str:
    """``text`` as literal text inside a ``%`` template."""
    return text.replace("%", "%%")


def _eval_order(eval_ids: Sequence[str]) -> list[int]:
    """Indices of ``eval_ids`` in the script's ``by_evalID`` order (a stable sort)."""
    if "".join(eval_ids).isascii() and all(map(str.isdigit, eval_ids)):
        return sorted(range(len(eval_ids)), key=list(map(int, eval_ids)).__getitem__)  # plain ids
    return sorted(range(len(eval_ids)), key=lambda k: _eval_sort_key(eval_ids[k]))


def _eval_sort_key(eval_id: str) -> tuple:
    # by_evalID: numeric on a leading number when there is one; ids here are all numeric or all
    # not, as the script only sorts consistently in those two cases.
    digits = ""
    for ch in eval_id:
        if not ch.isdigit():
            break
        digits += ch
    return (0, int(digits), "") if digits else (1, 0, eval_id)
