"""The public functional API: settings -> per-pair statistics -> per-example scores -> aggregates.

>>> result = rouge(["the cat sat on the mat"], ["the cat sat on a rug"], rouge_types=["rouge1"])
>>> round(result["rouge1"], 4)
0.6667
"""

from __future__ import annotations

import gc
import math
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

import numpy as np

from rouge_lcs import native
from rouge_lcs.arrays import positions
from rouge_lcs.documents import DocumentStore
from rouge_lcs.multiref import combine
from rouge_lcs.rouge_types import RougeType, parse_rouge_types
from rouge_lcs.scoring import batch_counts
from rouge_lcs.sentences import SplitFn, resolve_splitter
from rouge_lcs.signature import make_signature
from rouge_lcs.statistics import bootstrap_interval
from rouge_lcs.tokenizers import Tokenizer, resolve_tokenizer
from rouge_lcs.validation import (
    check_beta,
    check_bool,
    check_multi_ref,
    check_num_proc,
    check_texts,
)

#: Below this many examples a process pool costs more than it saves.
PARALLEL_MIN_EXAMPLES = 2000


@dataclass(frozen=True)
class Settings:
    """Every option that changes a score, resolved and validated."""

    rouge_types: tuple[RougeType, ...]
    tokenizer: Tokenizer
    lsum_split: str
    splitter: SplitFn
    multi_ref: str
    beta: float

    @property
    def names(self) -> list[str]:
        """Canonical rouge type names, in the requested order."""
        return [t.name for t in self.rouge_types]

    @property
    def needs_sentences(self) -> bool:
        return any(t.kind == "Lsum" for t in self.rouge_types)


def make_settings(
    rouge_types: object = None,
    *,
    use_stemmer: bool = False,
    tokenizer: object = None,
    lsum_split: object = "auto",
    multi_ref: str = "max_f",
    beta: float = 1.0,
) -> Settings:
    """Validate and resolve the scoring options (see :func:`rouge` for their meaning)."""
    split_name, splitter = resolve_splitter(lsum_split)
    return Settings(
        rouge_types=parse_rouge_types(rouge_types),
        tokenizer=resolve_tokenizer(tokenizer, check_bool(use_stemmer, "use_stemmer")),
        lsum_split=split_name,
        splitter=splitter,
        multi_ref=check_multi_ref(multi_ref),
        beta=check_beta(beta),
    )


@dataclass
class PairStats:
    """Integer counts ``(hits, prediction_total, reference_total)`` for every pair and type.

    ``counts`` has shape ``(examples, max_refs, types, 3)``; reference slots past
    ``n_refs[e]`` are zero and ignored.
    """

    counts: np.ndarray
    n_refs: np.ndarray

    @classmethod
    def concatenate(cls, parts: Sequence[PairStats]) -> PairStats:
        """Join the statistics of consecutive batches (in order)."""
        width = max(p.counts.shape[1] for p in parts)
        padded = [
            np.pad(p.counts, ((0, 0), (0, width - p.counts.shape[1]), (0, 0), (0, 0)))
            for p in parts
        ]
        return cls(np.concatenate(padded), np.concatenate([p.n_refs for p in parts]))


@contextmanager
def _no_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector: scoring allocates many small acyclic objects, and the
    collector's repeated scans of them cost ~20% of the run time while finding nothing."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


#: Examples per chunk: bounds the memory of the batched ROUGE-Lsum kernel and paces progress.
CHUNK = 2048
#: Distinct texts kept between chunks (so recurring references are tokenized once); past this
#: the cache starts afresh, which bounds memory on arbitrarily long inputs.
STORE_LIMIT = 200_000


def compute_stats(
    predictions: Sequence[str],
    references: Sequence[Sequence[str]],
    settings: Settings,
    *,
    num_proc: int = 1,
    progress: Callable[[int], None] | None = None,
) -> PairStats:
    """Per-pair statistics of validated inputs (each text tokenized once per call).

    ``num_proc > 1`` splits large batches across processes (see :mod:`rouge_lcs.parallel`);
    the result is identical.  ``progress(n)`` is called as each chunk of ``n`` examples is done.
    """
    num_proc = check_num_proc(num_proc)
    if num_proc > 1 and len(predictions) >= PARALLEL_MIN_EXAMPLES:
        from rouge_lcs.parallel import parallel_stats

        return parallel_stats(predictions, references, settings, num_proc, progress)
    splitter = settings.splitter if settings.needs_sentences else None

    def new_store() -> DocumentStore | native.NativeStore:
        # The native engine's seam (rouge_lcs/native.py) when it is active.
        if native.active():
            return native.NativeStore(settings)
        return DocumentStore(settings.tokenizer, splitter)

    with _no_gc():
        store = new_store()
        parts = []
        for start in range(0, len(predictions), CHUNK):
            if len(store) > STORE_LIMIT:
                store = new_store()
            stop = min(start + CHUNK, len(predictions))
            parts.append(
                _chunk_stats(predictions[start:stop], references[start:stop], settings, store)
            )
            if progress is not None:
                progress(stop - start)
    return parts[0] if len(parts) == 1 else PairStats.concatenate(parts)


def _chunk_stats(
    predictions: Sequence[str],
    references: Sequence[Sequence[str]],
    settings: Settings,
    store: DocumentStore | native.NativeStore,
) -> PairStats:
    # Each distinct text of the chunk becomes one document; pairs are indices into them.
    index: dict[str, int] = {}
    texts: list[str] = []

    def doc_index(text: str) -> int:
        k = index.get(text)
        if k is None:
            k = index[text] = len(texts)
            texts.append(text)
        return k

    n_refs = np.fromiter((len(r) for r in references), dtype=np.int64, count=len(references))
    pair_pred = np.fromiter(
        (doc_index(p) for p, refs in zip(predictions, references) for _ in refs),
        dtype=np.int64,
    )
    pair_ref = np.fromiter((doc_index(r) for refs in references for r in refs), dtype=np.int64)
    if isinstance(store, native.NativeStore):
        pair_counts = store.chunk_counts(texts, pair_pred, pair_ref)
    else:
        docs = [store.get(text) for text in texts]
        pair_counts = batch_counts(docs, pair_pred, pair_ref, settings.rouge_types)
    counts = np.zeros(
        (len(predictions), int(n_refs.max()), len(settings.rouge_types), 3), dtype=np.int64
    )
    counts[np.repeat(np.arange(len(predictions)), n_refs), positions(n_refs)] = pair_counts
    return PairStats(counts, n_refs)


@dataclass
class Scores:
    """Per-example precision, recall and F (arrays of shape ``(examples, types)``)."""

    rouge_types: list[str]
    precision: np.ndarray
    recall: np.ndarray
    fmeasure: np.ndarray
    stats: PairStats = field(repr=False)
    settings: Settings = field(repr=False)

    def __len__(self) -> int:
        return self.fmeasure.shape[0]

    def mean(self) -> dict[str, tuple[float, float, float]]:
        """Exact arithmetic means ``{type: (precision, recall, fmeasure)}``.

        ``math.fsum`` rounds the sum once, so the mean does not depend on example order or on
        how the data was split into batches.
        """
        n = len(self)
        return {
            name: tuple(
                math.fsum(values[:, k].tolist()) / n
                for values in (self.precision, self.recall, self.fmeasure)
            )
            for k, name in enumerate(self.rouge_types)
        }

    def interval(
        self, confidence_level: float = 0.95, n_resamples: int = 1000, seed: int = 0
    ) -> dict[str, tuple[tuple[float, float], tuple[float, float], tuple[float, float]]]:
        """Bootstrap percentile intervals ``{type: ((P low, high), (R low, high), (F low, high))}``.

        One set of resamples serves every type and measure (they stay paired).
        """
        stacked = np.concatenate([self.precision, self.recall, self.fmeasure], axis=1)
        low, high = bootstrap_interval(stacked, confidence_level, n_resamples, seed)
        k = len(self.rouge_types)
        return {
            name: tuple((float(low[m * k + t]), float(high[m * k + t])) for m in range(3))
            for t, name in enumerate(self.rouge_types)
        }

    def column(self, name: str, measure: str = "fmeasure") -> np.ndarray:
        """Per-example values of one type and measure (``precision``/``recall``/``fmeasure``)."""
        return getattr(self, measure)[:, self.rouge_types.index(name)]


def scores_from_stats(stats: PairStats, settings: Settings) -> Scores:
    """Combine references and derive P/R/F from counts."""
    precision, recall, fmeasure = combine(
        stats.counts, stats.n_refs, settings.multi_ref, settings.beta
    )
    return Scores(settings.names, precision, recall, fmeasure, stats, settings)


def score(
    predictions: Sequence[str],
    references: Sequence[str] | Sequence[Sequence[str]],
    rouge_types: object = None,
    *,
    num_proc: int = 1,
    progress: Callable[[int], None] | None = None,
    **options: object,
) -> Scores:
    """Score a batch and return per-example :class:`Scores` (options as in :func:`rouge`)."""
    settings = make_settings(rouge_types, **options)
    return score_with(predictions, references, settings, num_proc=num_proc, progress=progress)


def score_with(
    predictions: Sequence[str],
    references: Sequence[str] | Sequence[Sequence[str]],
    settings: Settings,
    *,
    num_proc: int = 1,
    progress: Callable[[int], None] | None = None,
) -> Scores:
    """:func:`score` with already resolved :class:`Settings`."""
    preds, refs = check_texts(predictions, references)
    stats = compute_stats(preds, refs, settings, num_proc=num_proc, progress=progress)
    return scores_from_stats(stats, settings)


def to_output(
    scores: Scores,
    *,
    use_aggregator: bool = True,
    return_precision_recall: bool = False,
    confidence_level: float | None = None,
    n_resamples: int = 1000,
    seed: int = 0,
    return_signature: bool = False,
) -> dict[str, float | list[float] | str]:
    """The ``evaluate.load("rouge")`` output format: ``{type: F}`` plus the keys asked for:
    ``<type>_precision``/``_recall``, ``<type>_low``/``_high`` (bootstrap interval of the mean
    F; with precision/recall also ``<type>_precision_low`` …) and ``signature``."""
    check_bool(use_aggregator, "use_aggregator")
    check_bool(return_precision_recall, "return_precision_recall")
    check_bool(return_signature, "return_signature")
    if confidence_level is not None and not use_aggregator:
        raise ValueError(
            "confidence_level: intervals describe the mean, so they need use_aggregator=True"
        )
    measures = ("precision", "recall") if return_precision_recall else ()
    out: dict[str, float | list[float] | str] = {}
    if use_aggregator:
        means = scores.mean()
        for name in scores.rouge_types:
            out[name] = means[name][2]
        for name in scores.rouge_types:
            for m, measure in enumerate(measures):
                out[f"{name}_{measure}"] = means[name][m]
        if confidence_level is not None:
            intervals = scores.interval(confidence_level, n_resamples, seed)
            for name in scores.rouge_types:
                out[f"{name}_low"], out[f"{name}_high"] = intervals[name][2]
                for m, measure in enumerate(measures):
                    low, high = intervals[name][m]
                    out[f"{name}_{measure}_low"], out[f"{name}_{measure}_high"] = low, high
    else:
        for name in scores.rouge_types:
            out[name] = scores.column(name).tolist()
        for name in scores.rouge_types:
            for measure in measures:
                out[f"{name}_{measure}"] = scores.column(name, measure).tolist()
    if return_signature:
        out["signature"] = make_signature(
            scores.settings,
            scores.stats.n_refs.tolist(),
            aggregated=use_aggregator,
            confidence_level=confidence_level,
            n_resamples=n_resamples,
            seed=seed,
        )
    return out


def rouge(
    predictions: Sequence[str],
    references: Sequence[str] | Sequence[Sequence[str]],
    rouge_types: object = None,
    *,
    use_aggregator: bool = True,
    use_stemmer: bool = False,
    tokenizer: object = None,
    lsum_split: object = "auto",
    multi_ref: str = "max_f",
    beta: float = 1.0,
    return_precision_recall: bool = False,
    confidence_level: float | None = None,
    n_resamples: int = 1000,
    seed: int = 0,
    return_signature: bool = False,
    num_proc: int = 1,
) -> dict[str, float | list[float] | str]:
    """ROUGE scores in ``evaluate.load("rouge")``'s output format.

    Args:
        predictions: one text per example.
        references: one text per example, or a list of texts per example.
        rouge_types: names such as ``rouge1``, ``rouge12``, ``rougeL``, ``rougeLsum`` (also
            ``ROUGE-1``, ``rouge_l``, ``rougeLSum``); default the four standard ones.
        use_aggregator: exact mean over examples (True) or per-example lists (False).
        use_stemmer: Porter stemming of tokens longer than 3 characters (rouge_score's mode).
        tokenizer: ``None``/``"unicode"``, ``"rouge_score"``, ``"whitespace"``, a callable
            ``str -> list[str]``, or an object with ``.tokenize(str)``.
        lsum_split: ROUGE-Lsum sentences: ``"auto"``, ``"newline"``, ``"nltk"`` or a callable.
        multi_ref: ``"max_f"``, ``"max_recall"``, ``"pooled"`` or ``"mean"``.
        beta: F_beta = (1 + beta²)·P·R / (R + beta²·P).
        return_precision_recall: also return ``<type>_precision`` and ``<type>_recall``.
        confidence_level: e.g. 0.95: also return ``<type>_low`` / ``<type>_high``, a percentile
            bootstrap interval of the mean over examples (``n_resamples`` resamples, ``seed``).
        return_signature: also return ``signature``, naming every setting that changes a score.
        num_proc: processes for large batches (identical results).
    """
    scores = score(
        predictions,
        references,
        rouge_types,
        use_stemmer=use_stemmer,
        tokenizer=tokenizer,
        lsum_split=lsum_split,
        multi_ref=multi_ref,
        beta=beta,
        num_proc=num_proc,
    )
    return to_output(
        scores,
        use_aggregator=use_aggregator,
        return_precision_recall=return_precision_recall,
        confidence_level=confidence_level,
        n_resamples=n_resamples,
        seed=seed,
        return_signature=return_signature,
    )
