"""The pure-Python/numpy engine: the reference that the native engine equals bit for bit.

Each distinct text of a chunk becomes a
:class:`~rouge_lcs.engine.reference.documents.Document`, and
:func:`~rouge_lcs.engine.reference.counts.batch_counts` counts every pair and type in numpy
(ROUGE-N), rapidfuzz (ROUGE-L) and bit rows (ROUGE-Lsum).  :data:`BACKEND` implements
:class:`~rouge_lcs.engine.interface.Backend`.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Callable, Iterator, Sequence
from itertools import chain, count
from typing import TYPE_CHECKING, Any, cast

from rouge_lcs.base.lazy import lazy_import
from rouge_lcs.base.validation import all_utf8, exact_strs
from rouge_lcs.config.settings import Settings
from rouge_lcs.engine.interface import IdDocs, Rows
from rouge_lcs.engine.kinds import all_counts, only_counted
from rouge_lcs.engine.reference import prefix, similarity
from rouge_lcs.engine.reference.counts import batch_counts
from rouge_lcs.engine.reference.documents import Document, DocumentStore
from rouge_lcs.engine.reference.weighted import summary_wlcs_pairs, wlcs_pairs
from rouge_lcs.engine.stats import (
    PairStats,
    combine,
    flat_floats,
    one_example,
    python_pair_plan,
)
from rouge_lcs.text.rouge155_tokens import ASCII_LOWER, ROUGE155_TOKEN_BYTES
from rouge_lcs.text.rouge_types import RougeType

if TYPE_CHECKING:
    from array import array

    import numpy as np

    from rouge_lcs.engine.stats import PairPlan, ScoresMake
else:
    np = lazy_import("numpy")

# For rouge155_tokens: the token table with each line break turned into "|", a byte that is in
# no token, so that one split of many summaries keeps where their lines end; the second table
# also lower-cases A-Z first.
_MARK = "|"
_FLAT_BYTES = ROUGE155_TOKEN_BYTES[:10] + b"|" + ROUGE155_TOKEN_BYTES[11:]
_FLAT_BYTES_UPPER = bytes(_FLAT_BYTES[c] for c in bytes(range(256)).translate(ASCII_LOWER))


class PythonStore:
    """Per-call state: a :class:`DocumentStore` (each distinct text tokenized once)."""

    def __init__(self, settings: Settings) -> None:
        splitter = settings.splitter_spec if settings.needs_sentences else None
        self._documents = DocumentStore(settings.tokenizer, splitter)
        self._rouge_types = settings.rouge_types
        self._settings = settings

    #: Not kept between calls: it caches whole documents, which would hold every text scored.
    reusable = False
    #: Examples per chunk: bounds the memory of the batched ROUGE-Lsum kernel and paces
    #: progress.
    chunk = 2048

    def __len__(self) -> int:
        return len(self._documents)

    def token_ids(self, texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """The texts' token ids (concatenated) and their offsets (one more than the texts);
        ids stay the same across calls on this store."""
        return _flat_tokens([self._documents.get(text).tokens for text in texts])

    def _counts(
        self, texts: Sequence[str], pair_pred: np.ndarray, pair_ref: np.ndarray
    ) -> np.ndarray:
        """Counts of shape ``(pairs, types, 3)`` for pairs given as indices into ``texts``."""
        docs = [self._documents.get(text) for text in texts]
        if only_counted(self._rouge_types):
            return batch_counts(docs, pair_pred, pair_ref, self._rouge_types)
        ids, starts = _flat_tokens([d.tokens for d in docs])
        return all_counts(
            self._rouge_types,
            lambda types: batch_counts(docs, pair_pred, pair_ref, types),
            BACKEND,
            ids,
            starts,
            pair_pred,
            pair_ref,
        )

    def chunk_stats(
        self, texts: Sequence[str], pair_pred: array[int], pair_ref: array[int], n_refs: array[int]
    ) -> PairStats:
        """:class:`PairStats` of pairs given as int64 indices into ``texts``, ``n_refs`` pairs
        per example."""
        pred, ref = (np.frombuffer(a, dtype=np.int64) for a in (pair_pred, pair_ref))
        counts = self._counts(texts, pred, ref)
        return PairStats(counts, np.frombuffer(n_refs, dtype=np.int64).copy())

    def pair_scores(
        self,
        prediction: str,
        references: list[str],
        mode: str,
        beta: float,
        weights: Sequence[float] | None,
    ) -> tuple[PairStats, array[float], array[float], array[float]]:
        """See :meth:`rouge_lcs.engine.interface.Store.pair_scores`: the batch path's own
        steps on a batch of one example (the reference: simple, not fast)."""
        stats = self.chunk_stats([prediction, *references], *one_example(len(references)))
        p, r, f = BACKEND.combine(stats, mode, beta, weights)
        return stats, flat_floats(p), flat_floats(r), flat_floats(f)

    def pair_plan(
        self,
        mode: str,
        beta: float,
        weights: Sequence[float] | None,
        names: tuple[str, ...],
        make: Callable[[float, float, float], object],
        tuple_new: bool,
        fallback: PairPlan,
        max_tokens: int,
    ) -> PairPlan:
        """See :meth:`rouge_lcs.engine.interface.Store.pair_plan`: :meth:`pair_scores` on a new
        store each call (a store that holds documents is not kept)."""

        def scores(prediction: str, references: list[str]) -> tuple[object, Any, Any, Any]:
            return PythonStore(self._settings).pair_scores(
                prediction, references, mode, beta, weights
            )

        return python_pair_plan(scores, lambda: False, names, make, fallback)

    def scores_plan(
        self,
        mode: str,
        beta: float,
        weights: Sequence[float] | None,
        make: ScoresMake,
        fallback: PairPlan,
        max_tokens: int,
    ) -> PairPlan:
        """See :meth:`rouge_lcs.engine.interface.Store.scores_plan`: ``fallback`` itself (the
        caller's own per-call path, over :meth:`pair_scores`)."""
        return fallback


def _flat_tokens(docs: Sequence[Sequence[int]]) -> tuple[np.ndarray, np.ndarray]:
    """Token ids of documents concatenated (int64) and their offsets."""
    lengths = np.fromiter(map(len, docs), dtype=np.int64, count=len(docs))
    starts = np.zeros(len(docs) + 1, dtype=np.int64)
    np.cumsum(lengths, out=starts[1:])
    ids = np.fromiter((t for doc in docs for t in doc), dtype=np.int64, count=int(starts[-1]))
    return ids, starts


def id_documents(docs: IdDocs) -> list[Document]:
    """The :class:`Document` of each numbered document (its sentences included)."""
    ids = docs.ids.tolist()
    sent_ids = docs.sent_ids.tolist()
    starts = docs.starts.tolist()
    sent_starts = docs.sent_starts.tolist()
    doc_sent = docs.doc_sent.tolist()
    out = []
    for d in range(len(starts) - 1):
        sentences = [
            sent_ids[sent_starts[s] : sent_starts[s + 1]]
            for s in range(doc_sent[d], doc_sent[d + 1])
        ]
        out.append(Document(ids[starts[d] : starts[d + 1]], sentences))
    return out


def skip_keys(
    flat: np.ndarray, lengths: np.ndarray, vocab_size: int, skip: int, unigrams: bool
) -> tuple[np.ndarray, np.ndarray]:
    """Keys of every skip bigram of documents ``flat`` (concatenated, ``lengths`` each, ids
    below ``vocab_size``) at most ``skip`` tokens apart (-1: any), and, with ``unigrams``, of
    every token but the last (the script's loop stops there); and the document of each key."""
    v = max(vocab_size, 1)
    starts = np.cumsum(lengths) - lengths
    doc = np.repeat(np.arange(lengths.size), lengths)
    pos = np.arange(flat.size) - starts[doc]
    end = lengths[doc]
    longest = int(lengths.max()) if lengths.size else 0
    top = longest - 1 if skip < 0 else min(skip + 1, longest - 1)
    keys, docs = [], []
    if unigrams:
        first = np.flatnonzero(pos + 1 < end)
        keys.append(v * v + flat[first])
        docs.append(doc[first])
    for offset in range(1, top + 1):
        first = np.flatnonzero(pos + offset < end)
        keys.append(flat[first] * v + flat[first + offset])
        docs.append(doc[first])
    if not keys:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    return np.concatenate(keys), np.concatenate(docs)


def clipped_hits(
    keys: np.ndarray, docs: np.ndarray, n_docs: int, pair_a: np.ndarray, pair_b: np.ndarray
) -> np.ndarray:
    """``sum_k min(count_a[k], count_b[k])`` for each pair of summaries, in numpy."""
    n_pairs = pair_a.size
    if keys.size == 0:
        return np.zeros(n_pairs, dtype=np.int64)
    span = int(keys.max()) + 1
    if span * max(n_docs, n_pairs) >= 1 << 62:  # re-rank only when (doc, key) could overflow
        keys = np.unique(keys, return_inverse=True)[1].reshape(-1)
        span = int(keys.max()) + 1
    entry, count = np.unique(docs * span + keys, return_counts=True)
    entry_doc = entry // span
    doc_first = np.searchsorted(entry_doc, np.arange(n_docs))
    doc_size = np.bincount(entry_doc, minlength=n_docs)

    def side(d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        sizes = doc_size[d]
        index = np.repeat(doc_first[d], sizes) + (
            np.arange(int(sizes.sum())) - np.repeat(np.cumsum(sizes) - sizes, sizes)
        )
        pair = np.repeat(np.arange(n_pairs), sizes)
        return pair * span + entry[index] % span, count[index]

    a_key, a_count = side(pair_a)  # sorted: pairs in order, keys ascending within a pair
    b_key, b_count = side(pair_b)
    if a_key.size == 0 or b_key.size == 0:
        return np.zeros(n_pairs, dtype=np.int64)
    at = np.minimum(np.searchsorted(a_key, b_key), a_key.size - 1)
    shared = a_key[at] == b_key
    clipped = np.minimum(a_count[at[shared]], b_count[shared])
    return np.bincount(b_key[shared] // span, weights=clipped, minlength=n_pairs).astype(np.int64)


#: Skip-bigram units that the numpy engine materialises at once (a few hundred MB of
#: temporaries at most): pairs are counted in chunks of at most this many units, and a pair
#: with more is streamed by first token (:func:`streamed_skip_hits`).
SKIP_BLOCK_UNITS = 1 << 21


def skip_unit_counts(lengths: np.ndarray, skip: int, unigrams: bool) -> np.ndarray:
    """The unit count of each document (the keys :func:`skip_keys` would make), in closed
    form: position ``i < L - 1`` starts ``min(w, L - 1 - i)`` skip bigrams (``w = skip + 1``,
    any for ``skip < 0``) and, with ``unigrams``, one unigram."""
    r = np.maximum(lengths.astype(np.int64) - 1, 0)
    triangle = r * (r + 1) // 2
    if skip >= 0:
        w = skip + 1
        triangle = np.where(r <= w, triangle, w * (w + 1) // 2 + (r - w) * w)
    return triangle + r if unigrams else triangle


def _gather(ids: np.ndarray, starts: np.ndarray, docs: np.ndarray) -> np.ndarray:
    """The tokens of documents ``docs`` (indices into ``starts``), concatenated."""
    lengths = starts[docs + 1] - starts[docs]
    first = np.repeat(starts[docs] - (np.cumsum(lengths) - lengths), lengths)
    return ids[first + np.arange(int(lengths.sum()))]


def _blocks(cost: np.ndarray) -> Iterator[slice]:
    """Consecutive slices of ``cost`` of at most :data:`SKIP_BLOCK_UNITS` in all (or one item
    when it alone is more)."""
    run = np.cumsum(cost)
    lo = 0
    while lo < cost.size:
        base = int(run[lo - 1]) if lo else 0
        hi = max(lo + 1, int(np.searchsorted(run, base + SKIP_BLOCK_UNITS, side="right")))
        yield slice(lo, hi)
        lo = hi


def _second_tokens(
    tokens: np.ndarray, pos: np.ndarray, width: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """For the units starting at positions ``pos`` (``width`` each): the first position of
    each unit and its second token."""
    total = int(width.sum())
    first = np.repeat(pos, width)
    step = np.arange(total) - np.repeat(np.cumsum(width) - width, width) + 1
    return first, tokens[first + step]


def streamed_skip_hits(peer: np.ndarray, model: np.ndarray, skip: int, unigrams: bool) -> int:
    """The clipped skip-bigram hits of one pair without materialising all its units (pyrouge's
    default ``-2 -1 -U`` makes ~L²/2 of them): units are grouped by first token, and a group of
    first tokens (or a slice of one token's positions) is counted at a time, at most
    :data:`SKIP_BLOCK_UNITS` units each; counts of one first token add up across its slices."""
    both = np.unique(np.concatenate([peer, model]), return_inverse=True)[1].reshape(-1)
    v = int(both.max()) + 1 if both.size else 1
    sides = [both[: peer.size], both[peer.size :]]
    hits = 0
    if unigrams:
        grams = [np.bincount(t[:-1], minlength=v) for t in sides]
        hits += int(np.minimum(*grams).sum())
    # units starting at each position, and each first token's total on each side
    widths = []
    totals = []
    for t in sides:
        rest = np.arange(t.size - 1, 0, -1, dtype=np.int64)  # L - 1 - i for i < L - 1
        width = rest if skip < 0 else np.minimum(rest, skip + 1)
        widths.append(width)
        totals.append(np.bincount(t[:-1], weights=width, minlength=v).astype(np.int64))
    shared = np.flatnonzero((totals[0] > 0) & (totals[1] > 0))
    if shared.size == 0:
        return hits
    # positions of each side ordered by first token (only shared tokens can match)
    orders = []
    for t in sides:
        pos = np.flatnonzero(np.isin(t[:-1], shared))
        orders.append(pos[np.argsort(t[pos], kind="stable")])
    cost = totals[0][shared] + totals[1][shared]
    for piece in _blocks(cost):
        if cost[piece.start] > SKIP_BLOCK_UNITS:  # one heavy first token, in slices
            token = shared[piece.start]
            acc = []
            for t, width, order in zip(sides, widths, orders):
                pos = order[np.searchsorted(t[order], token) :]
                pos = pos[: np.searchsorted(t[pos], token, side="right")]
                count = np.zeros(v, dtype=np.int64)  # its units' second tokens add up
                for part in _blocks(width[pos]):
                    second = _second_tokens(t, pos[part], width[pos[part]])[1]
                    count += np.bincount(second, minlength=v)
                acc.append(count)
            hits += int(np.minimum(*acc).sum())
            continue
        lo_tok, hi_tok = shared[piece.start], shared[piece.stop - 1]
        keys = []
        for t, width, order in zip(sides, widths, orders):
            a = np.searchsorted(t[order], lo_tok)
            b = np.searchsorted(t[order], hi_tok, side="right")
            first, second = _second_tokens(t, order[a:b], width[order[a:b]])
            keys.append(np.unique(t[first] * v + second, return_counts=True))
        _, at_peer, at_model = np.intersect1d(
            keys[0][0], keys[1][0], assume_unique=True, return_indices=True
        )
        hits += int(np.minimum(keys[0][1][at_peer], keys[1][1][at_model]).sum())
    return hits


def skip_pair_counts(
    ids: np.ndarray,
    starts: np.ndarray,
    pair_peer: np.ndarray,
    pair_model: np.ndarray,
    skip: int,
    unigrams: bool,
) -> np.ndarray:
    """``(hits, peer units, model units)`` of each pair (shape ``(pairs, 3)``), ROUGE-1.5.5's
    ROUGE-S/SU on token ids ``ids`` of documents at offsets ``starts``, in memory linear in the
    input: pairs in chunks of at most :data:`SKIP_BLOCK_UNITS` units (numpy joins over the
    chunk's keys, :func:`skip_keys`, :func:`clipped_hits`), bigger pairs streamed."""
    ids = ids.astype(np.int64)
    units = skip_unit_counts(np.diff(starts), skip, unigrams)
    out = np.zeros((pair_peer.size, 3), dtype=np.int64)
    out[:, 1], out[:, 2] = units[pair_peer], units[pair_model]
    cost = units[pair_peer] + units[pair_model]
    for k in np.flatnonzero(cost > SKIP_BLOCK_UNITS).tolist():
        p, m = int(pair_peer[k]), int(pair_model[k])
        peer, model = ids[starts[p] : starts[p + 1]], ids[starts[m] : starts[m + 1]]
        out[k, 0] = streamed_skip_hits(peer, model, skip, unigrams)
    small = np.flatnonzero(cost <= SKIP_BLOCK_UNITS)
    for piece in _blocks(cost[small]):
        chunk = small[piece]
        docs, local = np.unique(
            np.concatenate([pair_peer[chunk], pair_model[chunk]]), return_inverse=True
        )
        flat = _gather(ids, starts, docs)
        vocab = int(flat.max()) + 1 if flat.size else 1
        keys, key_docs = skip_keys(flat, starts[docs + 1] - starts[docs], vocab, skip, unigrams)
        local = local.reshape(-1)
        peers, models = local[: chunk.size], local[chunk.size :]
        out[chunk, 0] = clipped_hits(keys, key_docs, docs.size, peers, models)
    return out


class PythonBackend:
    """The reference engine (see the module docstring)."""

    def store(self, settings: Settings, num_threads: int = 1) -> PythonStore:
        """A :class:`PythonStore` (one thread: the GIL serializes this engine anyway)."""
        return PythonStore(settings)

    def combine(
        self, stats: PairStats, mode: str, beta: float, weights: Sequence[float] | None = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """See :meth:`rouge_lcs.engine.interface.Backend.combine`
        (:func:`rouge_lcs.engine.stats.combine`, in NumPy)."""
        return combine(stats.counts, stats.n_refs, mode, beta, weights)

    def threads_serve(self, settings: Settings) -> bool:
        """Never: this engine holds the GIL, so processes serve ``num_proc``."""
        return False

    def id_counts(
        self,
        docs: IdDocs,
        pair_pred: np.ndarray,
        pair_ref: np.ndarray,
        rouge_types: Sequence[RougeType],
        num_threads: int = 1,
    ) -> np.ndarray:
        """See :meth:`rouge_lcs.engine.interface.Backend.id_counts` (one thread)."""
        return batch_counts(id_documents(docs), pair_pred, pair_ref, rouge_types)

    def skip_counts(
        self,
        ids: np.ndarray,
        starts: np.ndarray,
        pair_peer: np.ndarray,
        pair_model: np.ndarray,
        distance: int,
        unigrams: bool,
    ) -> np.ndarray:
        """See :meth:`rouge_lcs.engine.interface.Backend.skip_counts`."""
        return skip_pair_counts(ids, starts, pair_peer, pair_model, distance, unigrams)

    def wlcs(
        self,
        ids: np.ndarray,
        starts: np.ndarray,
        pair_a: np.ndarray,
        pair_b: np.ndarray,
        weight: float,
        num_threads: int = 1,
    ) -> np.ndarray:
        """See :meth:`rouge_lcs.engine.interface.Backend.wlcs` (one thread)."""
        return wlcs_pairs(ids, starts, pair_a, pair_b, weight)

    def rouge155_wlcs(
        self,
        docs: IdDocs,
        pair_peer: np.ndarray,
        pair_model: np.ndarray,
        weight: float,
        num_threads: int = 1,
    ) -> np.ndarray:
        """See :meth:`rouge_lcs.engine.interface.Backend.rouge155_wlcs` (one thread)."""
        return summary_wlcs_pairs(docs, pair_peer, pair_model, weight)

    def number_texts(
        self, pair_texts: list[str], ref_texts: list[str], start: int = 0, stop: int | None = None
    ) -> tuple[list[str], array[int], array[int]]:
        """See :meth:`rouge_lcs.engine.interface.Backend.number_texts`: dict building and
        map() in C, no Python call per text."""
        if start != 0 or stop is not None:
            pair_texts, ref_texts = pair_texts[start:stop], ref_texts[start:stop]
        order = dict.fromkeys(pair_texts)
        order.update(dict.fromkeys(ref_texts))  # known texts keep their first place
        texts = list(order)
        position = dict(zip(texts, range(len(texts))))
        pair_pred = array("q", map(position.__getitem__, pair_texts))
        return texts, pair_pred, array("q", map(position.__getitem__, ref_texts))

    def exact_strs(self, items: list[object]) -> bool:
        """See :meth:`rouge_lcs.engine.interface.Backend.exact_strs` (one pass in C)."""
        return exact_strs(items)

    def int_lists(self, seqs: list[object]) -> tuple[np.ndarray, np.ndarray] | None:
        """See :meth:`rouge_lcs.engine.interface.Backend.int_lists`."""
        if not isinstance(seqs, list):
            raise TypeError(f"int_lists: expected a list, got {type(seqs).__name__}")
        if not set(map(type, seqs)) <= {list, tuple}:
            return None
        lists = cast("list[list[object]]", seqs)
        if not set(map(type, chain.from_iterable(lists))) <= {int}:
            return None
        lengths = np.fromiter(map(len, lists), dtype=np.int64, count=len(lists))
        try:
            flat = chain.from_iterable(lists)
            ids = np.fromiter(flat, dtype=np.int64, count=int(lengths.sum()))
        except OverflowError:
            return None
        if not ids.size or (int(ids.min()) >= 0 and int(ids.max()) < 1 << 31):
            return ids.astype(np.int32), lengths
        return ids, lengths

    def cut_rows(self, array: np.ndarray, pad_id: int) -> None:
        """See :meth:`rouge_lcs.engine.interface.Backend.cut_rows`: None (the caller's NumPy
        path is the reference)."""
        return None

    def all_utf8(self, texts: Sequence[str]) -> bool:
        """See :meth:`rouge_lcs.engine.interface.Backend.all_utf8` (a join and an encode per
        block of texts)."""
        return all_utf8(texts)

    def column_sums(self, values: array[float], columns: int) -> list[float]:
        """See :meth:`rouge_lcs.engine.interface.Backend.column_sums` (``math.fsum`` of each
        strided slice)."""
        return [math.fsum(values[c::columns]) for c in range(columns)]

    def prefix_counts(
        self,
        ids: np.ndarray,
        starts: np.ndarray,
        pair_pred: np.ndarray,
        pair_ref: np.ndarray,
        rouge_types: Sequence[RougeType],
    ) -> np.ndarray:
        """See :meth:`rouge_lcs.engine.interface.Backend.prefix_counts`."""
        return prefix.prefix_counts(ids, starts, pair_pred, pair_ref, rouge_types)

    def similarity_rows(
        self, rows: Rows, num_threads: int = 1
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """See :meth:`rouge_lcs.engine.interface.Backend.similarity_rows`."""
        return similarity.similarity_rows(rows)

    def rouge155_tokens(self, blob: bytes, lower: bool) -> tuple[np.ndarray, list[str]]:
        """See :meth:`rouge_lcs.engine.interface.Backend.rouge155_tokens`."""
        table = _FLAT_BYTES_UPPER if lower else _FLAT_BYTES
        tokens = blob.translate(table).decode("ascii").replace(_MARK, " | ").split()
        vocab: dict[str, int] = {_MARK: -1}
        # setdefault with a running counter numbers every token in C; new tokens keep the
        # counter's value at their position, so numbers have gaps: renumbered through a table.
        sparse = np.fromiter(
            map(vocab.setdefault, tokens, count()), dtype=np.int64, count=len(tokens)
        )
        del vocab[_MARK]
        renumber = np.full(len(tokens) + 1, -1, dtype=np.int64)  # the last entry: line breaks
        renumber[list(vocab.values())] = np.arange(len(vocab))
        return renumber[sparse], list(vocab)


#: The reference engine.
BACKEND = PythonBackend()
