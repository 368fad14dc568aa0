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

from rouge_lcs.base.arrow import single_references
from rouge_lcs.base.validation import TextBatch
from rouge_lcs.config.settings import Settings
from rouge_lcs.engine.backend import backend
from rouge_lcs.engine.compute import Progress, StoreCache, compute_stats
from rouge_lcs.engine.stats import PairStats

TYPE_CHECKING = False  # not typing's: importing typing costs ~5 ms (see rouge_lcs.base.records)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

#: Below this many examples a process pool costs more than it saves.
PARALLEL_MIN_EXAMPLES = 2000


def threads_serve(settings: Settings) -> bool:
    """Whether ``num_proc > 1`` is better served by as many threads in this process: the
    engine in use says (:meth:`~rouge_lcs.engine.interface.Backend.threads_serve`)."""
    return backend().threads_serve(settings)


# Inputs inherited by forked workers, one entry per running call: concurrent calls from
# several threads each fork their pool with their own key, so none reads another's batch.
_INHERITED: dict[int, tuple[TextBatch, Settings, list[tuple[int, int]], Any, StoreCache]] = {}
_INHERITED_LOCK = threading.Lock()
_CALLS = itertools.count()


def _score_shard(shard: tuple[TextBatch, Settings]) -> PairStats:
    return compute_stats(*shard)


def shard_bounds(n: int, num_proc: int, min_size: int = 64) -> list[tuple[int, int]]:
    """Contiguous ``(start, stop)`` ranges covering ``range(n)``, each a ``2 * num_proc``-th of
    the examples still left (at least ``min_size``): large shards first, small ones last.

    The processes take shards from a shared counter as they finish (shard times vary by 2x on a
    busy machine), and a call ends when the last shard does: with shards all of one size
    (~4 ms each on 10,000 REALSumm pairs), this process waited ~2 ms on average for the
    worker's last one.  Shrinking shards keep that wait short, with about as few shards in
    all (each costs a ``compute_stats`` call).
    """
    bounds = []
    start = 0
    while start < n:
        size = max(min_size, -(-(n - start) // (2 * max(num_proc, 1))))
        stop = min(n, start + size)
        bounds.append((start, stop))
        start = stop
    return bounds


def workers(num_proc: int, n_shards: int) -> int:
    """Processes actually started: never more than the shards, nor than 4× the CPUs."""
    return max(1, min(num_proc, n_shards, 4 * (os.cpu_count() or 1)))


def _drain(key: int, progress: Progress | None = None) -> list[tuple[int, PairStats]]:
    """In a forked worker (or the calling process, reporting ``progress`` as it goes): the
    shards of call ``key`` (:func:`take_shards`)."""
    batch, settings, bounds, counter, cache = _INHERITED[key]
    return take_shards(batch, settings, bounds, counter, cache, progress)


def take_shards(
    batch: TextBatch,
    settings: Settings,
    bounds: list[tuple[int, int]],
    counter: Any,
    cache: StoreCache | None = None,
    progress: Progress | None = None,
) -> list[tuple[int, PairStats]]:
    """Score shards ``bounds[i]`` of ``batch``, taking the next ``i`` from the shared
    ``counter`` until none is left; return them with their indexes (``progress`` is called
    as each is done)."""
    done: list[tuple[int, PairStats]] = []
    # One vocabulary for all the shards this process takes (as one process keeps one for the
    # whole batch): a new one per shard made each worker intern its shards' words afresh.
    if cache is None:
        cache = StoreCache()
    while True:
        with counter.get_lock():
            index = counter.value
            counter.value += 1
        if index >= len(bounds):
            return done
        start, stop = bounds[index]
        done.append((index, compute_stats(batch.slice(start, stop), settings, cache=cache)))
        if progress is not None:
            progress(stop - start)


def _fork_drain(key: int) -> tuple[int, int]:
    """Fork a child that runs :func:`_drain` (see :func:`fork_call`)."""
    return fork_call(lambda: _drain(key))


def fork_call(work: Callable[[], object]) -> tuple[int, int]:
    """Fork a child that runs ``work`` and writes ``("ok", result)`` or ``("error",
    exception)`` pickled to a pipe (:func:`outcome`); return its pid and the pipe's read end
    (:func:`collect` reads it).  The child inherits the caller's objects: nothing is pickled
    but the result."""
    # Imported here, before the fork (the children inherit it, for outcome()): ~4 ms that a
    # process scoring with num_proc=1 never needs.
    import pickle  # noqa: F401

    read, write = os.pipe()
    widen(write)
    pid = os.fork()
    if pid == 0:  # the child: never returns, never runs the parent's atexit or flushes
        status = 1
        try:
            os.close(read)
            payload = outcome(work)
            with os.fdopen(write, "wb") as out:
                out.write(payload)
            status = 0
        finally:
            os._exit(status)
    os.close(write)
    return pid, read


def outcome(work: Callable[[], object]) -> bytes:
    """What a worker process sends back: ``("ok", work())`` pickled, or ``("error",
    exception)`` with what ``work`` raised (a ``RuntimeError`` of its repr where the
    exception does not pickle), which the waiting process raises."""
    import pickle

    try:
        return pickle.dumps(("ok", work()), pickle.HIGHEST_PROTOCOL)
    except BaseException as error:
        try:
            return pickle.dumps(("error", error))
        except Exception:
            return pickle.dumps(("error", RuntimeError(repr(error))))


class FrozenGC:
    """``with FrozenGC():`` forks with this process's objects frozen out of the garbage
    collector (``gc.freeze``): a child's collections then never walk, and write to, the
    hundreds of thousands of objects it inherited (455k with ``evaluate`` loaded), so their
    pages stay shared instead of being copied.  Unfrozen on leaving, unless the caller had
    frozen objects itself."""

    def __enter__(self) -> None:
        import gc

        self.frozen = gc.get_freeze_count() == 0
        if self.frozen:
            gc.freeze()

    def __exit__(self, *exc: object) -> None:
        import gc

        if self.frozen:
            gc.unfreeze()


def merged(done: list[tuple[int, PairStats]]) -> PairStats:
    """The shards' statistics ``(index, stats)``, whichever process scored them, in order."""
    done.sort(key=lambda item: item[0])
    return PairStats.concatenate([part for _, part in done])


def report(
    progress: Progress | None, bounds: list[tuple[int, int]], theirs: list[tuple[int, PairStats]]
) -> None:
    """``progress`` of the shards another process scored, once they are back."""
    if progress is not None:
        for index, _ in theirs:
            progress(bounds[index][1] - bounds[index][0])


def widen(pipe: int, size: int = 1 << 20) -> None:
    """Let ``pipe`` hold ``size`` bytes (Linux's unprivileged maximum by default) where the
    platform allows it: a child's results (~0.5 MB for 5,000 pairs of four types) then go in
    one write, where a 64 kB pipe made the child and this process take turns, a switch each
    64 kB (12-18 ms of this process's wall time, at ~1 ms of its CPU, on a busy machine)."""
    import fcntl  # here: only a forked num_proc needs it
    from contextlib import suppress

    if not hasattr(fcntl, "F_SETPIPE_SZ"):  # Linux's (Python 3.10+); elsewhere pipes stay
        return
    with suppress(OSError):  # a lower limit (/proc/sys/fs/pipe-max-size): the default works
        fcntl.fcntl(pipe, fcntl.F_SETPIPE_SZ, size)


def _collect(pid: int, read: int) -> list[tuple[int, PairStats]]:
    """A shard-taking child's results (:func:`collect`)."""
    found: list[tuple[int, PairStats]] = collect(pid, read)
    return found


def collect(pid: int, read: int, wait: bool = False, role: str = "num_proc") -> Any:
    """Read a child's pickled results to the end (:func:`fork_call`), raise what it raised
    (``role`` names the caller where the child died); reap it in the background (see
    :func:`reap`), or before returning with ``wait`` (no thread left behind)."""
    import pickle

    with os.fdopen(read, "rb") as source:
        payload = source.read()
    kind: str | None
    value: Any
    try:
        kind, value = pickle.loads(payload) if payload else (None, None)
    except Exception:  # a payload cut short: the child died while writing it
        kind, value = None, None
    if kind is None:
        _, status = os.waitpid(pid, 0)
        raise RuntimeError(f"{role}: a worker process failed (wait status {status})")
    if wait:
        os.waitpid(pid, 0)
    else:
        reap(pid)
    if isinstance(value, BaseException):
        raise value
    return value


def reap(pid: int) -> None:
    """Wait for a child that has sent its whole payload, on a daemon thread: its exit (the
    kernel freeing an address space the size of this process's) took 48-52 ms after its last
    byte, with ``evaluate`` loaded (510 MB), and this process waited for it doing nothing."""
    threading.Thread(target=os.waitpid, args=(pid, 0), daemon=True, name="rouge-lcs-reap").start()


def _distinct_examples(batch: TextBatch) -> tuple[TextBatch, Any] | None:
    """The batch's distinct examples (one reference each) and, for every example, the index of
    its distinct one; ``None`` when all are distinct, or an example has several references.

    One process tokenizes a text once however often it recurs in a chunk; shards do not know
    each other, so a batch whose examples recur (an evaluation set scored twice over, examples
    repeated in the data) was tokenized once per shard it met: ``num_proc=2`` took 0.84x the
    time of one process on REALSumm's 2,500 pairs four times over
    (benchmarks/bench_metric_parallel.py ``--repeated``).  Each distinct example is now scored
    once and its statistics given to every copy: the same per-pair counts, so the same numbers.
    """
    if not isinstance(batch.predictions, list):
        return None  # Arrow columns (read in C, not as str)
    # Every prediction distinct (the common batch of a metric call): so is every example.  A
    # set of the exact strs (hashes cached) is ~0.3 ms for 10,000, where numbering both
    # columns (and unwrapping the module's one-item reference lists) took ~2 ms before any
    # worker started.
    if len(set(batch.predictions)) == len(batch):
        return None
    single = batch.one_reference_each()
    if not isinstance(single, list):
        return None  # several references, or an Arrow column
    import numpy as np

    # The engine's numbering (one C pass over cached hashes): equal examples, equal id pairs.
    texts, pair_pred, pair_ref = backend().number_texts(batch.predictions, single)
    pred = np.frombuffer(pair_pred, dtype=np.int64)
    keys = np.frombuffer(pair_ref, dtype=np.int64) * len(texts)
    keys += pred
    distinct, first, positions = np.unique(keys, return_index=True, return_inverse=True)
    if distinct.size == len(batch):
        return None
    picked = first.tolist()
    preds, refs = [batch.predictions[k] for k in picked], [single[k] for k in picked]
    return TextBatch(preds, single_references(refs), refs), positions


def parallel_stats(
    batch: TextBatch,
    settings: Settings,
    num_proc: int,
    progress: Progress | None = None,
    shards: Callable[[TextBatch, Settings, Progress | None], PairStats] | None = None,
    cache: StoreCache | None = None,
) -> PairStats:
    """:func:`rouge_lcs.engine.compute.compute_stats` over up to ``num_proc`` processes: each
    distinct example once (:func:`_distinct_examples`), then :func:`sharded_stats`, or
    ``shards`` (the kept processes of a :class:`rouge_lcs.engine.workers.Workers`)."""
    distinct = _distinct_examples(batch)
    unique = batch if distinct is None else distinct[0]
    if shards is None:
        stats = sharded_stats(unique, settings, num_proc, progress, cache)
    else:
        stats = shards(unique, settings, progress)
    if distinct is None:
        return stats
    positions = distinct[1]
    if progress is not None:  # the copies, done with their originals
        progress(len(batch) - len(unique))
    return stats.take(positions)


def can_fork() -> bool:
    """Whether this platform starts processes by forking (workers inherit the inputs)."""
    import multiprocessing  # ~10 ms, so not with the package: only num_proc > 1 needs it

    return "fork" in multiprocessing.get_all_start_methods()


def sharded_stats(
    batch: TextBatch,
    settings: Settings,
    num_proc: int,
    progress: Progress | None = None,
    cache: StoreCache | None = None,
) -> PairStats:
    """:func:`rouge_lcs.engine.compute.compute_stats` over up to ``num_proc`` processes.

    Where the platform can fork, this process and ``num_proc - 1`` forked workers take shards
    from a shared counter until none is left (balanced whatever each shard costs: REALSumm's
    pairs cost ~6x a Korean sentence pair's, and not in proportion to their length), and each
    child sends its results back once, pickled through a pipe (a plain ``os.fork``: a
    ``multiprocessing`` pool's start and stop alone cost 14-18 ms here).  Before, ``num_proc``
    workers were sent one shard at a time while this process waited: one fork more, and the
    workers idled 5-10 ms between shards on the pool's pipes, so ``num_proc=2`` with a Python
    tokenizer was slower than one
    process.  Elsewhere (spawn) the shards are sent to ``num_proc`` workers as before.
    """
    import multiprocessing  # ~10 ms, so not with the package: only num_proc > 1 needs it
    import signal  # here too: it imports enum (~1.5 ms)

    if not can_fork():
        return _spawned_stats(batch, settings, num_proc, progress)
    bounds = shard_bounds(len(batch), num_proc)
    n_workers = workers(num_proc, len(bounds)) - 1
    if n_workers == 0:
        return compute_stats(batch, settings, progress)
    context = multiprocessing.get_context("fork")
    key = next(_CALLS)
    with _INHERITED_LOCK:
        # The caller's vocabulary (a scorer's, kept between its calls): each child inherits
        # a copy, so neither process interns the words of the calls before again.
        shared = cache if cache is not None else StoreCache()
        _INHERITED[key] = (batch, settings, bounds, context.Value("l", 0), shared)
    children: list[tuple[int, int]] = []
    try:
        with FrozenGC():
            children = [_fork_drain(key) for _ in range(n_workers)]
        done = _drain(key, progress)
        while children:
            theirs = _collect(*children.pop(0))  # popped first: reaped even if it raises
            done += theirs
            report(progress, bounds, theirs)
    finally:
        for pid, read in children:  # only after an error: stop and reap the rest
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            os.close(read)
        with _INHERITED_LOCK:
            _INHERITED.pop(key, None)
    return merged(done)


def _spawned_stats(
    batch: TextBatch, settings: Settings, num_proc: int, progress: Progress | None
) -> PairStats:
    """Without fork: the shards pickled to ``num_proc`` spawned workers, many per worker."""
    import multiprocessing

    bounds = shard_bounds(len(batch), num_proc)
    context = multiprocessing.get_context("spawn")
    parts = []
    with context.Pool(workers(num_proc, len(bounds))) as pool:
        shards = [(batch.slice(a, b), settings) for a, b in bounds]
        for (start, stop), part in zip(bounds, pool.imap(_score_shard, shards)):
            parts.append(part)
            if progress is not None:
                progress(stop - start)
    return PairStats.concatenate(parts)
