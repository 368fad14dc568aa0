"""Worker processes kept between calls: ``num_proc=Workers(2)``.

With an integer ``num_proc`` and a tokenizer written in Python, every call forks its workers
(:mod:`rouge_lcs.engine.parallel`): each is a copy of this process as it is at that moment, so
whatever the tokenizer reads is current.  The copy has its price.  Forking a process that has
``evaluate``, ``datasets`` and ``torch`` loaded (~500 MB) took 12-16 ms here, and the pages the
two processes then share are copied as either writes to them (~2.4 us a page on these virtual
machines; ~8,500 more page faults in the two than one process takes, a 10,000-pair call).
Together that is a fifth of a ``num_proc=2`` call, and it grows with the process: a training
process of several GB pays it many times over, at every evaluation.

A :class:`Workers` forks its processes at its first call and keeps them.  Each later call sends
them the batch (pickled, ~3 ms for 10,000 summary pairs) and the index of its settings among
those the workers know; the workers take shards from a shared counter beside this process, as
forked workers do, and send back the per-pair statistics.  The numbers are those of
``num_proc=1``.

What the workers know is what this process held when they were forked: the settings are
compared by value (a user's tokenizer by identity), and a call whose settings they do not know
forks them again.  A tokenizer *object* changed after that (a word added to its dictionary, a
global it reads) is not seen; :meth:`Workers.restart` forks them anew.  This is the one
difference from an integer ``num_proc``, which is why the pool is asked for, not the default.
"""

from __future__ import annotations

import os
import threading
import weakref
from contextlib import suppress

from rouge_lcs.base.validation import MAX_NUM_PROC, check_int
from rouge_lcs.config.settings import Settings
from rouge_lcs.engine import parallel
from rouge_lcs.engine.compute import Progress, StoreCache, compute_stats
from rouge_lcs.engine.stats import PairStats

TYPE_CHECKING = False  # not typing's: importing typing costs ~5 ms (see rouge_lcs.base.records)
if TYPE_CHECKING:
    from typing import Any

    from rouge_lcs.base.validation import TextBatch

#: Settings a crew remembers (a caller alternating a few settings does not fork each call).
KNOWN_SETTINGS = 4
#: How often (seconds) an idle worker checks that the process that forked it is alive: its
#: job pipe alone may stay open after that process died, where another child inherited it.
_PARENT_CHECK = 1.0

# The parent's ends of every live crew's pipes: a worker forked later closes those it
# inherited, so that a crew's workers see the end of their job pipe when their crew closes.
_PARENT_FDS: set[int] = set()
_PARENT_FDS_LOCK = threading.Lock()


class WorkerError(RuntimeError):
    """A worker process of a :class:`Workers` died during a call."""


class _Crew:
    """The processes of one fork: pids, pipe ends, the shared counter and the settings they
    know.  Separate from :class:`Workers` so that a finalizer can close it without it."""

    def __init__(self, size: int, settings: list[Settings]) -> None:
        import multiprocessing

        self.owner = os.getpid()
        self.settings = settings  # the workers' copies are these objects, forked below
        self.counter = multiprocessing.get_context("fork").Value("l", 0)
        self.members: list[tuple[int, int, int]] = []  # (pid, job write end, result read end)
        self.reaped: set[int] = set()  # found dead and reaped by alive()
        try:
            with parallel.FrozenGC():
                for _ in range(size):
                    self.members.append(self._fork())
        except BaseException:
            self.close()
            raise

    def _fork(self) -> tuple[int, int, int]:
        job_read, job_write = os.pipe()
        result_read, result_write = os.pipe()
        parallel.widen(job_write)
        parallel.widen(result_write)
        with _PARENT_FDS_LOCK:
            inherited = set(_PARENT_FDS)
            pid = os.fork()
            if pid != 0:
                _PARENT_FDS.update((job_write, result_read))
        if pid == 0:  # the worker: never returns, never runs the parent's atexit
            status = 1
            try:
                for fd in (job_write, result_read, *inherited):
                    os.close(fd)
                _serve(job_read, result_write, self.owner, self.settings, self.counter)
                status = 0
            finally:
                os._exit(status)
        os.close(job_read)
        os.close(result_write)
        return pid, job_write, result_read

    def alive(self) -> bool:
        """Whether every worker still runs (one killed between calls: the crew is forked anew)."""
        for pid, _, _ in self.members:
            try:
                done, _ = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:  # reaped by someone else (a SIGCHLD handler)
                done = pid
            if done:
                self.reaped.add(pid)
                return False
        return True

    def close(self) -> None:
        """End the workers: their job pipes close, they exit; reaped in the background."""
        members, self.members = self.members, []
        if os.getpid() != self.owner:  # a copy in a forked child: the workers are not its own
            return
        for pid, job_write, result_read in members:
            with _PARENT_FDS_LOCK:
                _PARENT_FDS.difference_update((job_write, result_read))
            for fd in (job_write, result_read):
                with suppress(OSError):
                    os.close(fd)
            if pid not in self.reaped:
                parallel.reap(pid)


def _read_exact(fd: int, size: int) -> bytes | None:
    """``size`` bytes from ``fd``, or ``None`` at its end (the other process closed it)."""
    parts = []
    while size:
        chunk = os.read(fd, min(size, 1 << 20))
        if not chunk:
            return None
        parts.append(chunk)
        size -= len(chunk)
    return b"".join(parts)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _message(payload: bytes) -> bytes:
    return len(payload).to_bytes(8, "little") + payload


def _receive(fd: int) -> bytes | None:
    header = _read_exact(fd, 8)
    return None if header is None else _read_exact(fd, int.from_bytes(header, "little"))


def _light(batch: TextBatch) -> TextBatch:
    """``batch`` as it is sent: one reference each as one list of texts (10,000 one-item lists
    took a third of the pickle's time), where the batch's lists are plain."""
    from rouge_lcs.base.arrow import single_references
    from rouge_lcs.base.validation import TextBatch

    single = batch.one_reference_each()
    if batch.single is None and isinstance(single, list):
        return TextBatch(batch.predictions, single_references(single), single)
    return batch


def _serve(jobs: int, results: int, parent: int, known: list[Settings], counter: Any) -> None:
    """A worker's loop: a job is ``(settings index, batch, bounds)``; it takes shards from
    ``counter`` until none is left and sends back ``("ok", [(index, stats), …])`` or
    ``("error", exception)``.  Returns when the job pipe ends or the parent is gone."""
    import pickle
    import select
    import signal

    # Ctrl-C in a terminal reaches the whole process group: the parent stops the call (and
    # this crew), so an idle worker need not die of it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    cache = StoreCache()  # one vocabulary for every call (as a scorer keeps its own)
    waiting = select.poll()  # not select(): it refuses descriptors past 1023
    waiting.register(jobs, select.POLLIN)
    while True:
        if not waiting.poll(_PARENT_CHECK * 1000):
            if os.getppid() != parent:
                return
            continue
        job = _receive(jobs)
        if job is None:
            return

        def work(job: bytes = job) -> list[tuple[int, PairStats]]:
            index, batch, bounds = pickle.loads(job)
            return parallel.take_shards(batch, known[index], bounds, counter, cache)

        _write_all(results, _message(parallel.outcome(work)))


class Workers:
    """``num_proc`` processes kept between calls, for ``num_proc=Workers(n)``.

    Where a tokenizer written in Python holds the GIL, ``num_proc`` forks worker processes at
    every call; a ``Workers`` forks them once and sends each call's batch to them, which saves
    the fork and the copying of shared pages that follows it (a fifth of a ``num_proc=2`` call
    in a process with ``evaluate`` loaded, more in a larger one).  The numbers are those of
    ``num_proc=1``.  The library and the evaluate module take it wherever they take
    ``num_proc``; use it as a context manager, or close it with :meth:`close` (it also closes
    when collected, and at exit)::

        with Workers(2) as workers:
            for batch in batches:
                rouge(batch.predictions, batch.references, tokenizer=tok, num_proc=workers)

    The workers are copies of this process as it was when they were forked: a call whose
    settings they do not know (another tokenizer object, other options) forks them again, but
    a change made since to the tokenizer object itself, or to what it reads, is not seen
    until :meth:`restart`.  Where the engine counts on threads (the native engine with a
    built-in tokenizer), ``num_proc`` threads serve instead and no process starts; where the
    platform cannot fork, each call starts its own processes, as an integer does.
    """

    def __init__(self, num_proc: int) -> None:
        self._num_proc = check_int(num_proc, "num_proc", 1, MAX_NUM_PROC)
        self._lock = threading.Lock()
        self._crew: _Crew | None = None
        self._finalizer: weakref.finalize | None = None
        self._closed = False
        self._cache = StoreCache()  # this process's vocabulary for its shards, between calls

    @property
    def num_proc(self) -> int:
        """Processes taking part in a call, this one included."""
        return self._num_proc

    @property
    def pids(self) -> tuple[int, ...]:
        """The worker processes now running (none before the first call that needs them)."""
        crew = self._crew
        return tuple(pid for pid, _, _ in crew.members) if crew is not None else ()

    def __repr__(self) -> str:
        state = "closed" if self._closed else f"pids={list(self.pids)}"
        return f"Workers({self._num_proc}, {state})"

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __reduce__(self) -> Any:
        raise TypeError("num_proc: a Workers holds processes of its own and cannot be pickled")

    def restart(self) -> None:
        """End the workers; the next call forks them anew (and so sees the tokenizer as it is)."""
        with self._lock:
            self._stop()

    def close(self) -> None:
        """End the workers; a call with these ``Workers`` afterwards is a ``ValueError``."""
        with self._lock:
            self._stop()
            self._closed = True

    def _stop(self) -> None:
        if self._finalizer is not None:
            self._finalizer()  # closes the crew, once
        self._crew = self._finalizer = None

    def _crew_for(self, settings: Settings, size: int) -> tuple[_Crew, int]:
        """A live crew of at least ``size`` workers that knows ``settings``, and its index."""
        crew = self._crew
        if crew is not None:
            index = next((k for k, s in enumerate(crew.settings) if s == settings), None)
            if index is not None and len(crew.members) >= size and crew.alive():
                return crew, index
            known = [settings] + [s for s in crew.settings if s != settings]
        else:
            known = [settings]
        self._stop()
        # As many as this call uses (never more than its shards, nor than the CPUs allow): a
        # later call with more shards forks a larger crew.
        crew = _Crew(size, known[:KNOWN_SETTINGS])
        self._crew = crew
        self._finalizer = weakref.finalize(self, _Crew.close, crew)
        return crew, 0

    def stats(
        self, batch: TextBatch, settings: Settings, progress: Progress | None = None
    ) -> PairStats:
        """:func:`rouge_lcs.engine.compute.compute_stats` of ``batch`` with this process and
        the kept workers taking shards (see the class docstring)."""
        if self._closed:
            raise ValueError("num_proc: these Workers are closed")
        if not parallel.can_fork() or (self._crew is not None and self._crew.owner != os.getpid()):
            # A copy of the pool in a forked child (a data loader's worker) uses processes of
            # its own, as an integer would: the workers belong to the process that forked them.
            return parallel.sharded_stats(batch, settings, self._num_proc, progress)
        bounds = parallel.shard_bounds(len(batch), self._num_proc)
        size = parallel.workers(self._num_proc, len(bounds)) - 1
        if size == 0:
            return compute_stats(batch, settings, progress)
        with self._lock:
            if self._closed:
                raise ValueError("num_proc: these Workers are closed")
            return self._call(batch, settings, bounds, size, progress)

    def _call(
        self,
        batch: TextBatch,
        settings: Settings,
        bounds: list[tuple[int, int]],
        size: int,
        progress: Progress | None,
    ) -> PairStats:
        import pickle

        crew, index = self._crew_for(settings, size)
        crew.counter.value = 0
        job = _message(pickle.dumps((index, _light(batch), bounds), pickle.HIGHEST_PROTOCOL))
        members = crew.members[:size]
        try:
            for pid, job_write, _ in members:
                try:
                    _write_all(job_write, job)
                except BrokenPipeError:  # it died after the check above
                    raise WorkerError(
                        f"num_proc: worker process {pid} of {self!r} died before the call"
                    ) from None
            done = parallel.take_shards(
                batch, settings, bounds, crew.counter, self._cache, progress
            )
            for pid, _, result_read in members:
                payload = _receive(result_read)
                if payload is None:
                    raise WorkerError(
                        f"num_proc: worker process {pid} of {self!r} died during the call"
                    )
                kind, value = pickle.loads(payload)
                if kind == "error":
                    raise value
                done += value
                parallel.report(progress, bounds, value)
        except BaseException:
            # A worker died, or a shard raised (here or in a worker) while the others may still
            # be running theirs, whose replies must not be read as the next call's: the next
            # call forks a new crew.
            self._stop()
            raise
        return parallel.merged(done)
