"""Scoring one large batch in several processes, merged deterministically.

The batch is cut into contiguous shards (many per process, for balance and progress), each
shard is scored exactly as in one process, and the per-pair statistics are concatenated in
order, so ``num_proc=N`` gives bit-identical results to ``num_proc=1``.  Where the platform can
fork, workers inherit the inputs (nothing is pickled but the shard bounds and the results, and
custom tokenizers such as lambdas work); elsewhere the shards are sent to spawned workers.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Sequence

from rouge_lcs.api import PairStats, Settings, compute_stats

# Inputs inherited by forked workers: (predictions, references, settings).
_INHERITED: tuple | None = None


def _score_bounds(bounds: tuple[int, int]) -> PairStats:
    predictions, references, settings = _INHERITED
    start, stop = bounds
    return compute_stats(predictions[start:stop], references[start:stop], settings)


def _score_shard(shard: tuple) -> PairStats:
    predictions, references, settings = shard
    return compute_stats(predictions, references, settings)


def shard_bounds(
    n: int, num_proc: int, per_process: int = 16, min_size: int = 256
) -> list[tuple[int, int]]:
    """Contiguous ``(start, stop)`` ranges covering ``range(n)``: ``per_process`` shards per
    process (many small shards balance the load: shard times vary by 2x on a busy machine),
    each of at least ``min_size`` examples."""
    shards = max(1, min(num_proc * per_process, n // min_size))
    edges = [round(k * n / shards) for k in range(shards + 1)]
    return [(a, b) for a, b in zip(edges, edges[1:]) if b > a]


def parallel_stats(
    predictions: Sequence[str],
    references: Sequence[Sequence[str]],
    settings: Settings,
    num_proc: int,
    progress: Callable[[int], None] | None = None,
) -> PairStats:
    """:func:`rouge_lcs.api.compute_stats` over ``num_proc`` processes."""
    global _INHERITED
    bounds = shard_bounds(len(predictions), num_proc)
    can_fork = "fork" in multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if can_fork else "spawn")
    parts = []
    if can_fork:
        _INHERITED = (predictions, references, settings)
    try:
        with context.Pool(num_proc) as pool:
            if can_fork:
                results = pool.imap(_score_bounds, bounds)
            else:
                shards = [(predictions[a:b], references[a:b], settings) for a, b in bounds]
                results = pool.imap(_score_shard, shards)
            for (start, stop), part in zip(bounds, results):
                parts.append(part)
                if progress is not None:
                    progress(stop - start)
    finally:
        _INHERITED = None
    return PairStats.concatenate(parts)
