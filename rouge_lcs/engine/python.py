"""The pure-Python/numpy engine: the reference that the native engine equals bit for bit.

Each distinct text of a chunk becomes a :class:`~rouge_lcs.engine.documents.Document`, and
:func:`~rouge_lcs.engine.counts.batch_counts` counts every pair and type in numpy (ROUGE-N),
rapidfuzz (ROUGE-L) and bit rows (ROUGE-Lsum).  :data:`BACKEND` implements
:class:`~rouge_lcs.engine.interface.Backend`.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import count
from typing import TYPE_CHECKING

from rouge_lcs.base.lazy import lazy_import
from rouge_lcs.config.settings import Settings
from rouge_lcs.engine.counts import batch_counts
from rouge_lcs.engine.documents import Document, DocumentStore
from rouge_lcs.engine.interface import IdDocs
from rouge_lcs.text.rouge_types import RougeType

if TYPE_CHECKING:
    import numpy as np
else:
    np = lazy_import("numpy")

#: ROUGE-1.5.5's tokens are the maximal runs of ``[a-z0-9]`` bytes (step 3, then step 4's
#: ``[a-z0-9$]`` filter): every other byte becomes a space, and the text is split on spaces — a
#: byte translation and ``str.split``, ~40% less time than a regex findall.
ROUGE155_TOKEN_BYTES = bytes(
    c if chr(c) in "abcdefghijklmnopqrstuvwxyz0123456789" else 0x20 for c in range(256)
)
#: A-Z lower-cased, every other byte kept (the script lower-cases ASCII only).
ASCII_LOWER = bytes.maketrans(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ", b"abcdefghijklmnopqrstuvwxyz")
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

    #: Not kept between calls: it caches whole documents, which would hold every text scored.
    reusable = False
    #: Counts in Python/numpy.
    native = False

    def __len__(self) -> int:
        return len(self._documents)

    def token_ids(self, texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """The texts' token ids (concatenated) and their offsets (one more than the texts);
        ids stay the same across calls on this store."""
        docs = [self._documents.get(text).tokens for text in texts]
        lengths = np.fromiter(map(len, docs), dtype=np.int64, count=len(docs))
        starts = np.zeros(len(docs) + 1, dtype=np.int64)
        np.cumsum(lengths, out=starts[1:])
        ids = np.fromiter((t for doc in docs for t in doc), dtype=np.int64, count=int(starts[-1]))
        return ids, starts

    def chunk_counts(
        self, texts: Sequence[str], pair_pred: np.ndarray, pair_ref: np.ndarray
    ) -> np.ndarray:
        """Counts of shape ``(pairs, types, 3)`` for pairs given as indices into ``texts``."""
        docs = [self._documents.get(text) for text in texts]
        return batch_counts(docs, pair_pred, pair_ref, self._rouge_types)


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


class PythonBackend:
    """The reference engine (see the module docstring)."""

    name = "python"

    def store(self, settings: Settings, num_threads: int = 1) -> PythonStore:
        """A :class:`PythonStore` (one thread: the GIL serializes this engine anyway)."""
        return PythonStore(settings)

    def id_counts(
        self,
        docs: IdDocs,
        pair_pred: np.ndarray,
        pair_ref: np.ndarray,
        rouge_types: Sequence[RougeType],
    ) -> np.ndarray:
        """See :meth:`rouge_lcs.engine.interface.Backend.id_counts`."""
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
        lengths = np.diff(starts)
        vocab = int(ids.max()) + 1 if ids.size else 1
        keys, docs = skip_keys(ids.astype(np.int64), lengths, vocab, distance, unigrams)
        units = np.bincount(docs, minlength=lengths.size)
        out = np.empty((pair_peer.size, 3), dtype=np.int64)
        out[:, 0] = clipped_hits(keys, docs, lengths.size, pair_peer, pair_model)
        out[:, 1], out[:, 2] = units[pair_peer], units[pair_model]
        return out

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
