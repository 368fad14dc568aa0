"""Counts of a batch given as token ids (:class:`~rouge_lcs.base.ids.IdBatch`): no tokenizer,
no vocabulary, the ids go to the engine's kernels as one buffer.

The user's ids are the tokens: ROUGE-N, L, W, S, SU count them as they are; ROUGE-Lsum's
sentences end after each id of ``sentence_end_ids`` (none: a document is one sentence).  The
counts equal those of the same ids written as space-separated words, scored with the
``whitespace`` tokenizer (each sentence on its own line for ROUGE-Lsum).

The kernels take int32 ids below a vocabulary size and keep a table of that size: ids that fit
(the vocabularies of language models, up to a few million) go as they are, others (past int32,
or sparse far past the batch's size) are renumbered first (``np.unique``), which keeps every
equality and so every count.
"""

from __future__ import annotations

from collections.abc import Sequence

from rouge_lcs.base.ids import IdBatch, IdColumn, check_ids, id_column
from rouge_lcs.base.lazy import lazy_import
from rouge_lcs.config.settings import Settings
from rouge_lcs.engine.backend import backend
from rouge_lcs.engine.interface import IdDocs
from rouge_lcs.engine.kinds import all_counts, only_counted
from rouge_lcs.engine.stats import PairStats
from rouge_lcs.text.rouge_types import RougeType

TYPE_CHECKING = False  # not typing's: type checkers treat any name TYPE_CHECKING as true
if TYPE_CHECKING:
    import numpy as np
else:
    np = lazy_import("numpy")

#: Ids below this go to the kernels as they are (their tables hold this many entries at most);
#: larger ids are renumbered.
DIRECT_VOCAB = 1 << 24


def checked_ids(
    predictions: object,
    references: object,
    *,
    pad_id: int | None = None,
    names: tuple[str, str] = ("predictions", "references"),
) -> IdBatch:
    """:func:`rouge_lcs.base.ids.check_ids` with the engine's one pass over lists of ints
    (:meth:`~rouge_lcs.engine.interface.Backend.int_lists`) and over a padded 2-D array
    (:meth:`~rouge_lcs.engine.interface.Backend.cut_rows`): the same batch and errors."""
    engine = backend()
    return check_ids(
        predictions,
        references,
        pad_id=pad_id,
        names=names,
        int_lists=engine.int_lists,
        cut_rows=engine.cut_rows,
    )


def dense_ids(ids: np.ndarray) -> tuple[np.ndarray, int]:
    """``ids`` as int32 below a vocabulary size, and that size: as they are when they are
    small, else renumbered by rank (equal ids stay equal, distinct ids distinct)."""
    if not ids.size:
        return ids.astype(np.int32), 1
    top = int(ids.max())
    if top < DIRECT_VOCAB:
        return ids.astype(np.int32, copy=False), top + 1
    distinct, ranks = np.unique(ids, return_inverse=True)
    return ranks.astype(np.int32).reshape(-1), int(distinct.size)


def sentences(
    ids: np.ndarray, starts: np.ndarray, end_ids: Sequence[int]
) -> tuple[np.ndarray, np.ndarray]:
    """ROUGE-Lsum's sentences of documents ``ids[starts[d]:starts[d + 1]]``: each ends after an
    id of ``end_ids`` or at its document's end (an empty document has none).  Returns the
    sentences' starts (and the end) and ``doc_sent``, each document's first sentence."""
    if end_ids:
        cuts = np.flatnonzero(np.isin(ids, np.asarray(end_ids, dtype=ids.dtype))) + 1
        bounds = np.union1d(starts, cuts)
    else:
        bounds = np.unique(starts)
    return bounds.astype(np.int64), np.searchsorted(bounds, starts).astype(np.int64)


def check_id_settings(settings: Settings) -> None:
    """Refuse the options that act on text when the input is token ids (a ``ValueError``
    naming the option): stemming, a language, a tokenizer other than the defaults, a custom
    sentence splitter (``sentence_end_ids`` cuts ROUGE-Lsum's sentences of ids)."""
    tokenizer = settings.tokenizer
    note = "does not apply to token ids (they are scored as they are)"
    if tokenizer.stemmed:
        raise ValueError(f"use_stemmer: {note}; expected use_stemmer=False")
    if tokenizer.language is not None:
        raise ValueError(f"language: {note}; expected None, got {tokenizer.language!r}")
    if tokenizer.name not in ("unicode", "rouge_score"):
        raise ValueError(f"tokenizer: {note}; expected None, got {tokenizer.name!r}")
    if settings.splitter_spec.kind == "custom":
        raise ValueError(
            f"lsum_split: {note}; give sentence_end_ids (the ids that end a sentence) instead"
        )


def id_stats(
    batch: IdBatch, settings: Settings, end_ids: Sequence[int] = (), num_threads: int = 1
) -> PairStats:
    """Per-pair counts of a batch of token ids (see the module docstring), for ``settings``
    that apply to ids (:func:`check_id_settings`), on ``num_threads`` threads where the
    engine can (the counts never depend on it)."""
    check_id_settings(settings)
    rouge_types = settings.rouge_types
    engine = backend()
    ids, vocab = dense_ids(batch.ids)
    starts = batch.starts
    if settings.needs_sentences:
        sent_starts, doc_sent = sentences(ids, starts, end_ids)
        docs = IdDocs(ids, starts, ids, sent_starts, doc_sent, vocab)
    else:
        empty = np.zeros(0, dtype=np.int32)
        docs = IdDocs(ids, starts, empty, np.zeros(1, np.int64), np.zeros_like(starts), vocab)
    pred, ref = batch.pair_pred, batch.pair_ref

    def counted(types: Sequence[RougeType]) -> np.ndarray:
        return engine.id_counts(docs, pred, ref, types, num_threads)

    if only_counted(rouge_types):
        counts = counted(rouge_types)
    else:
        counts = all_counts(rouge_types, counted, engine, ids, starts, pred, ref, num_threads)
    return PairStats(counts, batch.n_refs)


def checked_column(value: object, name: str, pad_id: int | None = None) -> IdColumn:
    """:func:`rouge_lcs.base.ids.id_column` with the engine's one pass over lists of ints
    (as :func:`checked_ids`): the same column and errors."""
    return id_column(value, name, pad_id, backend().int_lists)
