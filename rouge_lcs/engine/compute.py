"""The batch engine: per-pair statistics of a validated batch, in this process.

A batch is cut into chunks (bounded memory, paced progress; the engine's store says how many
examples).  In a chunk the distinct texts are numbered (a reference shared by many predictions
is tokenized once), the (prediction, reference) pairs become index arrays into them, and the
engine's store (:mod:`rouge_lcs.engine.backend`, chosen once per call) counts every pair and
type at once.

Several processes: :mod:`rouge_lcs.engine.parallel` runs this same function on shards.
"""

from __future__ import annotations

import _thread
from array import array
from collections.abc import Callable

from rouge_lcs.base.arrow import arrow_pairs
from rouge_lcs.base.lazy import no_gc
from rouge_lcs.base.validation import TextBatch, fail_type
from rouge_lcs.config.settings import Settings
from rouge_lcs.engine.backend import Backend, Store, backend
from rouge_lcs.engine.stats import PairStats
from rouge_lcs.text.rouge_types import weights

TYPE_CHECKING = False  # not typing's: its import costs a fresh process ~3 ms
if TYPE_CHECKING:
    from rouge_lcs.engine.stats import PairPlan, ScoresMake

#: Distinct texts kept between chunks (so recurring references are tokenized once); past this
#: the cache starts afresh, which bounds memory on arbitrarily long inputs.
STORE_LIMIT = 200_000

Progress = Callable[[int], object]

# threading.local is _thread._local: importing threading cost a fresh process ~1 ms.


class ThreadCache(_thread._local):
    """A cache with one value per thread that pickles and copies empty (what it holds, an
    engine's store or encoder, belongs to one thread of one process)."""

    def __reduce__(self) -> tuple[type[ThreadCache], tuple[()]]:
        return (type(self), ())


class StoreCache(ThreadCache):
    """A scorer's store kept between its calls, one per thread (where the store allows it).

    A scorer called again and again on small batches (an RL reward every step, a torchmetrics
    ``update``) would otherwise rebuild the same vocabulary of common words at every call,
    about a fifth of a call's time.  Token ids only need to be equal for equal tokens, so a
    reused vocabulary gives the same counts.  One per thread, because an encoder's output
    buffer is not shared.  It pickles and copies as an empty cache.
    """

    store: Store | None = None
    key: tuple[object, ...] | None = None  # what the store was made for


def kept_store(
    settings: Settings, num_threads: int = 1, cache: StoreCache | None = None
) -> tuple[Backend, Store, Callable[[], Store]]:
    """The engine in use, a store for ``settings`` (``cache``'s when it was made for these
    settings, engine and threads: the vocabulary of the calls before), and a function that
    makes a new one (kept in ``cache`` where the store allows it)."""
    engine = backend()  # chosen once per call
    key = (settings, engine, num_threads)

    def fresh_store() -> Store:
        store = engine.store(settings, num_threads)
        if cache is not None and store.reusable:
            cache.store, cache.key = store, key
        return store

    kept = cache.store if cache is not None and cache.key == key else None
    if kept is not None and len(kept) > STORE_LIMIT:
        kept = None
    return engine, kept if kept is not None else fresh_store(), fresh_store


class OnePair:
    """A scorer's per-call path: one example (a prediction and its references) scored by the
    engine's :meth:`~rouge_lcs.engine.interface.Store.pair_scores`, without the batch
    machinery (chunks, numbering, threads, the collector's pause).

    The engine and its store are chosen when this is made (``ROUGE_LCS_IMPLEMENTATION`` read
    once, not at every call: a scorer made under one engine keeps it for its one-pair calls),
    and the store keeps its vocabulary between calls where it allows it (token ids only need
    to be equal for equal tokens), starting afresh past ``STORE_LIMIT`` tokens.  Not shared
    between threads (an encoder's buffers are not): :class:`OnePairs` holds one per thread.
    """

    __slots__ = ("_engine", "_settings", "_store", "_mode", "_beta", "_weights", "_calls")

    def __init__(self, settings: Settings) -> None:
        self._engine = backend()
        self._settings = settings
        self._store: Store | None = None
        self._mode, self._beta = settings.multi_ref, settings.beta
        self._weights = weights(settings.rouge_types)
        self._calls = 0

    def __call__(
        self, prediction: str, references: list[str]
    ) -> tuple[PairStats, array[float], array[float], array[float]]:
        """The example's counts and per-type ``(precision, recall, fmeasure)`` (flat float64
        arrays), the batch path's numbers for a batch of this example;
        ``prediction`` and each reference exactly ``str``, at least one reference."""
        store = self._store
        self._calls = calls = self._calls + 1
        # the bound checked every 64th call (len() is a Python call on the native store, ~5%
        # of a short pair's call): 64 calls add few tokens to a 200,000-token vocabulary
        if store is None or (not calls & 63 and len(store) > STORE_LIMIT):
            store = self._engine.store(self._settings, 1)
            # a store that is not reusable (the reference engine's holds whole documents) serves
            # this call only
            self._store = store if store.reusable else None
        return store.pair_scores(prediction, references, self._mode, self._beta, self._weights)


class OnePairs(ThreadCache):
    """A scorer's :class:`OnePair`, one per thread, made on its thread's first one-pair call,
    and its :func:`scores_plan`, made on its first batch of one example.  It pickles and copies
    as an empty cache (the engine is chosen again where it lands)."""

    path: OnePair | None = None
    plan: PairPlan | None = None

    def get(self, settings: Settings) -> OnePair:
        """This thread's path for ``settings`` (the scorer's: always the same ones)."""
        path = self.path
        if path is None:
            path = self.path = OnePair(settings)
        return path


class PairPlans(ThreadCache):
    """A scorer's per-call plan (:func:`pair_plan`), one per thread (a plan's encoder serves
    one call at a time); it pickles and copies as an empty cache."""

    plan: PairPlan | None = None


def pair_plan(
    settings: Settings,
    names: tuple[str, ...],
    make: Callable[[float, float, float], object],
    tuple_new: bool,
    fallback: PairPlan,
) -> PairPlan:
    """The per-call path as one callable on a new store of the engine in use now
    (:meth:`~rouge_lcs.engine.interface.Store.pair_plan`: ``plan(prediction, references)`` ->
    ``{names[t]: make(p, r, f)}``, ``fallback``'s value for inputs it does not take,
    ``NotImplemented`` once its store holds ``STORE_LIMIT`` tokens: then make a new plan)."""
    store, mode, beta, type_weights = _plan_store(settings)
    return store.pair_plan(
        mode, beta, type_weights, names, make, tuple_new, fallback, STORE_LIMIT
    )  # fmt: skip


def scores_plan(
    settings: Settings,
    make: ScoresMake,
    fallback: PairPlan,
) -> PairPlan:
    """:func:`pair_plan` for a batch of one example, on a new store of the engine in use now
    (:meth:`~rouge_lcs.engine.interface.Store.scores_plan`: ``plan(predictions, references)``
    -> ``make(counts, p, r, f)``, ``fallback``'s value for inputs it does not take,
    ``NotImplemented`` once its store holds ``STORE_LIMIT`` tokens: then make a new plan)."""
    store, mode, beta, type_weights = _plan_store(settings)
    return store.scores_plan(mode, beta, type_weights, make, fallback, STORE_LIMIT)


def _plan_store(settings: Settings) -> tuple[Store, str, float, tuple[float, ...] | None]:
    # a plan's new store (the engine in use now) and the settings every plan is made with
    return (
        backend().store(settings, 1),
        settings.multi_ref,
        settings.beta,
        weights(settings.rouge_types),
    )


def compute_stats(
    batch: TextBatch,
    settings: Settings,
    progress: Progress | None = None,
    num_threads: int = 1,
    cache: StoreCache | None = None,
) -> PairStats:
    """Per-pair statistics of a validated batch (each distinct text tokenized once per call).

    ``progress(n)`` is called as each chunk of ``n`` examples is done; ``num_threads`` counts
    on threads in the native engine (identical results); ``cache`` keeps the engine's store
    for the next call where it allows it (identical results).
    """
    if not isinstance(batch, TextBatch):  # a raw list would skip validation
        raise fail_type("batch", "a TextBatch from rouge_lcs.base.validation.check_texts", batch)
    engine, store, fresh_store = kept_store(settings, num_threads, cache)
    with no_gc():
        parts = []
        chunk = store.chunk  # the engine's store decides what a chunk holds
        # One reference each, in lists (the common batch): the chunks are numbered from the
        # batch's own lists, not from slices of them (each slice took and dropped a reference
        # to every text, ~6 ms of a 100,000-pair call on the calling thread).
        single = batch.one_reference_each()
        if not (isinstance(batch.predictions, list) and isinstance(single, list)):
            single = None
        for start in range(0, len(batch), chunk):
            if len(store) > STORE_LIMIT:  # distinct texts (Python) or tokens (native)
                store = fresh_store()
            stop = min(start + chunk, len(batch))
            if isinstance(single, list):
                parts.append(_list_chunk_stats(batch, single, start, stop, store, engine))
            else:
                parts.append(_chunk_stats(batch.slice(start, stop), store, engine))
            if progress is not None:
                progress(stop - start)
    return PairStats.concatenate(parts)


def _list_chunk_stats(
    batch: TextBatch, single: list[str], start: int, stop: int, store: Store, engine: Backend
) -> PairStats:
    # _chunk_stats for examples start .. stop - 1 of a batch of lists with one reference each
    predictions: list[str] = batch.predictions  # type: ignore[assignment]
    texts, pair_pred, pair_ref = engine.number_texts(predictions, single, start, stop)
    return store.chunk_stats(texts, pair_pred, pair_ref, array("q", [1]) * (stop - start))


def _chunk_stats(batch: TextBatch, store: Store, engine: Backend) -> PairStats:
    # Each distinct text of the chunk is tokenized once; pairs are indices into them, numbered
    # in first-seen order, predictions first (the engine's number_texts).
    predictions = batch.predictions
    references = batch.references
    arrow = arrow_pairs(predictions, references, batch.single)
    if arrow is not None:  # Arrow columns: the engine reads their buffers, row by row
        return store.chunk_stats(*arrow)
    single = batch.one_reference_each()
    if single is not None:  # one reference each: pairs are examples
        pair_texts, ref_texts = predictions, single
        n_refs = array("q", [1]) * len(predictions)  # int64 arrays: no NumPy on the native path
    else:
        n_refs = array("q", map(len, references))
        pair_texts = [p for p, refs in zip(predictions, references) for _ in refs]
        ref_texts = [r for refs in references for r in refs]
    # lists here: check_texts makes lists of every batch but an all-Arrow one
    texts, pair_pred, pair_ref = engine.number_texts(pair_texts, ref_texts)  # type: ignore[arg-type]
    return store.chunk_stats(texts, pair_pred, pair_ref, n_refs)
