"""Scoring one large batch in several processes, merged deterministically.

The batch is cut into contiguous shards (many per process, for balance and progress), each
shard is scored exactly as in one process (:func:`rouge_lcs.engine.compute.compute_stats`), and the
per-pair statistics are concatenated in order, so ``num_proc=N`` gives bit-identical results to
``num_proc=1``.  Where the platform can fork, workers inherit the inputs (nothing is pickled but
the shard bounds and the results, and custom tokenizers such as lambdas work); elsewhere the
shards are sent to spawned workers.

Processes step aside where threads do the same work: the native engine with a built-in
tokenizer cuts, looks up, stems and counts on threads without the GIL, so ``num_proc=N`` runs
in this process on ``N`` threads (:func:`threads_serve`), without a pool's start-up and the
pickling of its results.  Python tokenizers hold the GIL, and keep the processes.
"""

from __future__ import annotations

import itertools
import os
import threading

from rouge_lcs.base.validation import TextBatch
from rouge_lcs.config.settings import Settings
from rouge_lcs.engine.backend import backend
from rouge_lcs.engine.compute import Progress, compute_stats
from rouge_lcs.engine.stats import PairStats

#: Below this many examples a process pool costs more than it saves.
PARALLEL_MIN_EXAMPLES = 2000


def threads_serve(settings: Settings) -> bool:
    """Whether ``num_proc > 1`` is better served by as many threads in this process: the engine
    in use is the native one and the settings' tokenizer runs in C (its text stage and the
    counting kernel both run without the GIL)."""
    if backend().name != "native":
        return False
    from rouge_lcs.engine.native import supports

    return settings.tokenizer.native in ("rouge_score", "unicode") and supports(settings)


# Inputs inherited by forked workers, one entry per running call: concurrent calls from
# several threads each fork their pool with their own key, so none reads another's batch.
_INHERITED: dict[int, tuple[TextBatch, Settings]] = {}
_INHERITED_LOCK = threading.Lock()
_CALLS = itertools.count()


def _score_bounds(task: tuple[int, int, int]) -> PairStats:
    key, start, stop = task
    batch, settings = _INHERITED[key]
    return compute_stats(batch.slice(start, stop), settings)


def _score_shard(shard: tuple[TextBatch, Settings]) -> PairStats:
    return compute_stats(*shard)


def shard_bounds(
    n: int, num_proc: int, per_process: int = 16, min_size: int = 256
) -> list[tuple[int, int]]:
    """Contiguous ``(start, stop)`` ranges covering ``range(n)``: ``per_process`` shards per
    process (many small shards balance the load: shard times vary by 2x on a busy machine),
    each of at least ``min_size`` examples."""
    shards = max(1, min(num_proc * per_process, n // min_size))
    edges = [round(k * n / shards) for k in range(shards + 1)]
    return [(a, b) for a, b in zip(edges, edges[1:]) if b > a]


def workers(num_proc: int, n_shards: int) -> int:
    """Processes actually started: never more than the shards, nor than 4× the CPUs."""
    return max(1, min(num_proc, n_shards, 4 * (os.cpu_count() or 1)))


def parallel_stats(
    batch: TextBatch, settings: Settings, num_proc: int, progress: Progress | None = None
) -> PairStats:
    """:func:`rouge_lcs.engine.compute.compute_stats` over up to ``num_proc`` processes."""
    import multiprocessing  # ~10 ms, so not with the package: only num_proc > 1 needs it

    bounds = shard_bounds(len(batch), num_proc)
    can_fork = "fork" in multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if can_fork else "spawn")
    parts = []
    key = next(_CALLS)
    if can_fork:
        with _INHERITED_LOCK:
            _INHERITED[key] = (batch, settings)
    try:
        with context.Pool(workers(num_proc, len(bounds))) as pool:
            if can_fork:
                results = pool.imap(_score_bounds, [(key, a, b) for a, b in bounds])
            else:
                shards = [(batch.slice(a, b), settings) for a, b in bounds]
                results = pool.imap(_score_shard, shards)
            for (start, stop), part in zip(bounds, results):
                parts.append(part)
                if progress is not None:
                    progress(stop - start)
    finally:
        with _INHERITED_LOCK:
            _INHERITED.pop(key, None)
    return PairStats.concatenate(parts)
