"""The similarity engine: texts interned once as integer units, and the rows kernel on them.

Every text is tokenized once (the settings' tokenizer and stemmer, as :func:`rouge_lcs.score`
tokenizes it: the store of :func:`~rouge_lcs.engine.backend.backend`'s engine numbers the
tokens) and turned into a sequence of integer *units*: its token ids for ROUGE-L, the ids of
its n-grams for ROUGE-N (:class:`Interner`, :class:`Units`).  A kernel call (:class:`Rows`)
scores queries (predictions) against choices (references): per pair ``hits`` is their LCS
(ROUGE-L) or their clipped unit overlap (ROUGE-N), and pairs whose score at a bound cannot pass
the floor, or enter a row's current top k, are skipped.  Both engines implement the call
(:meth:`rouge_lcs.engine.interface.Backend.similarity_rows`: ``csrc/similarity.h`` and
:mod:`rouge_lcs.engine.reference.similarity`) and make the same decisions with the same float
operations (:func:`pair_score`).

What a score is, the bounds of the prefix filter, top-k and the greedy filter are read in
:mod:`rouge_lcs.similarity.search`; the public calls are :mod:`rouge_lcs.similarity`.
"""

from __future__ import annotations

from collections.abc import Sequence

from rouge_lcs.base.ids import IdColumn
from rouge_lcs.base.lazy import lazy_import
from rouge_lcs.config.settings import Settings
from rouge_lcs.engine.interface import Backend, Rows
from rouge_lcs.text.rouge_types import LCS, NGRAMS, unknown_kind

TYPE_CHECKING = False  # not typing's: importing typing costs ~5 ms (see rouge_lcs.base.records)
if TYPE_CHECKING:
    from typing import Any

    import numpy as np
else:
    np = lazy_import("numpy")

#: The kinds of hits, in the C kernel's numbering: LCS (ROUGE-L), clipped overlap (ROUGE-N).
KIND_LCS, KIND_OVERLAP = 0, 1
#: The measures in the C kernel's numbering (``csrc/similarity.h``: 0 is F, then SIM_PRECISION,
#: SIM_RECALL), not ``scores.results.MEASURES``' order: a measure's name to the kernel's code.
KERNEL_MEASURES = ("fmeasure", "precision", "recall")
#: What an interner holds, as its messages say it.
_KIND_NAMES = {"texts": "texts", "ids": "token ids"}
#: No floor: every pair passes (scores are >= 0).
NO_FLOOR = -1.0


class Units:
    """Interned unit sequences of a growing set of texts: flat int32 ``ids`` and int64
    ``starts`` (one more than the texts)."""

    def __init__(self) -> None:
        self._ids = np.zeros(1024, dtype=np.int32)
        self._starts = np.zeros(1025, dtype=np.int64)
        self._n_ids = 0
        self._n = 0

    def __len__(self) -> int:
        return self._n

    @property
    def ids(self) -> np.ndarray:
        return self._ids[: self._n_ids]

    @property
    def starts(self) -> np.ndarray:
        return self._starts[: self._n + 1]

    @property
    def lengths(self) -> np.ndarray:
        return np.diff(self.starts)

    def length(self, k: int) -> int:
        """The number of units of text ``k``."""
        return int(self._starts[k + 1] - self._starts[k])

    def extend(self, ids: np.ndarray, starts: np.ndarray) -> None:
        """Append texts given as flat ids and their own offsets (starting at 0)."""
        count, size = starts.size - 1, ids.size
        if self._n_ids + size > self._ids.size:
            grown = np.zeros(max(2 * self._ids.size, self._n_ids + size), dtype=np.int32)
            grown[: self._n_ids] = self._ids[: self._n_ids]
            self._ids = grown
        if self._n + count + 1 > self._starts.size:
            grown_starts = np.zeros(max(2 * self._starts.size, self._n + count + 1), np.int64)
            grown_starts[: self._n + 1] = self._starts[: self._n + 1]
            self._starts = grown_starts
        self._ids[self._n_ids : self._n_ids + size] = ids
        self._starts[self._n + 1 : self._n + count + 1] = starts[1:] + self._n_ids
        self._n_ids += size
        self._n += count

    def snapshot(self) -> Units:
        """The texts held now, unchanged by later :meth:`extend` calls (which write past them
        or into new buffers): what a query reads while another thread adds."""
        view = Units.__new__(Units)
        view._ids, view._starts = self._ids, self._starts
        view._n_ids, view._n = self._n_ids, self._n
        return view

    def span(self, k: int) -> np.ndarray:
        """The units of text ``k`` (a view)."""
        return self._ids[self._starts[k] : self._starts[k + 1]]


class Interner:
    """Tokenizes texts once, with the settings' tokenizer, and interns their units.

    ``engine`` is the one :func:`rouge_lcs.engine.backend.backend` chose, once, for the
    interner: its store numbers the tokens and its kernel scores them (:func:`run_rows`); ids
    stay the same across calls, so texts encoded by one interner compare.

    Token ids (an :class:`~rouge_lcs.base.ids.IdColumn`) are their own tokens: each distinct
    id is numbered once (a table kept across calls, so that ids are renumbered alike) and the
    units follow as for texts.  One interner holds texts or ids, never both (their numbers
    would collide): :attr:`holds` says which, once a non-empty batch came.
    """

    def __init__(self, settings: Settings, engine: Backend) -> None:
        rouge_type = settings.rouge_types[0]
        self.settings = settings
        kernel = rouge_type.rules.kernel
        # rouge_lcs.similarity refuses the kinds without the feature; the kernel scores these
        if not rouge_type.rules.similarity or kernel not in (NGRAMS, LCS):
            raise unknown_kind(rouge_type)
        self.kind = KIND_LCS if kernel == LCS else KIND_OVERLAP
        self.n = rouge_type.n if kernel == NGRAMS else 1
        self.engine = engine
        self._store = self.engine.store(settings, 1)
        self._ngrams: dict[bytes, int] = {}
        self._vocab = 0
        #: Token ids' numbers (id inputs).
        self._id_codes: dict[int, int] = {}
        #: ``"texts"`` or ``"ids"`` once a non-empty batch was encoded, else None.
        self.holds: str | None = None

    def check_holds(self, kind: str, name: str) -> None:
        """Refuse a batch of ``kind`` (``"texts"`` or ``"ids"``) in an interner holding the
        other kind: a ``ValueError`` naming the argument ``name``."""
        if self.holds is not None and self.holds != kind:
            raise ValueError(
                f"{name}: expected {_KIND_NAMES[self.holds]} like the others of this call or "
                f"index, got {_KIND_NAMES[kind]} (texts and token ids cannot be mixed: decode "
                "the ids, or tokenize the texts)"
            )

    @property
    def vocab(self) -> int:
        """One more than the largest unit id handed out (at least 1)."""
        return max(self._vocab, 1)

    def _id_tokens(self, column: IdColumn, grow: bool) -> tuple[np.ndarray, np.ndarray]:
        """Token ids numbered by the interner's table (one step per distinct id, not per
        token); ``grow=False``: ids not seen before all get the one number past the others,
        which no encoded sequence has, so they match nothing, as an unknown n-gram."""
        ids = column.ids
        if not ids.size:
            return ids.astype(np.int32), column.starts
        distinct, inverse = np.unique(ids, return_inverse=True)
        numbers = self._number(self._id_codes, distinct.tolist(), grow)
        return numbers[inverse.reshape(-1)], column.starts

    def _number(self, table: dict[Any, int], keys: list[Any], grow: bool) -> np.ndarray:
        """The numbers of ``keys`` in ``table`` (int32), new keys numbered next (``grow``) or
        all given the one number past the table's (unknown)."""
        if grow:
            found = (table.setdefault(key, len(table)) for key in keys)
        else:
            unknown = len(table)
            found = (table.get(key, unknown) for key in keys)
        numbers = np.fromiter(found, dtype=np.int32, count=len(keys))
        self._vocab = max(self._vocab, len(table))
        return numbers

    def _tokens(
        self, texts: Sequence[str] | IdColumn, grow: bool = True
    ) -> tuple[np.ndarray, np.ndarray]:
        kind = "ids" if isinstance(texts, IdColumn) else "texts"
        if len(texts):
            self.check_holds(kind, "texts")
            if grow:  # (an index's queries, grow=False, leave its kind to its texts)
                self.holds = kind
        if isinstance(texts, IdColumn):
            return self._id_tokens(texts, grow)
        ids, starts = self._store.token_ids(texts)
        ids = ids.astype(np.int32, copy=False)
        if ids.size:
            self._vocab = max(self._vocab, int(ids.max()) + 1)
        return ids, starts

    def encode(
        self, texts: Sequence[str] | IdColumn, grow: bool = True
    ) -> tuple[np.ndarray, np.ndarray]:
        """Flat unit ids (int32) and offsets (int64) of the texts (or token ids);
        ``grow=False``: n-grams (and token ids) not seen before are not numbered but all get
        the one id past the others, which no encoded text has (a query of an index matches
        nothing there)."""
        ids, starts = self._tokens(texts, grow)
        n = self.n
        if n == 1:
            return ids, starts
        # n-grams inside each text, each mapped to an id through its bytes (one dict per
        # interner, so ids agree across calls)
        lengths = np.maximum(np.diff(starts) - n + 1, 0)
        new_starts = np.zeros(starts.size, dtype=np.int64)
        np.cumsum(lengths, out=new_starts[1:])
        first = np.repeat(starts[:-1], lengths) + (
            np.arange(new_starts[-1]) - np.repeat(new_starts[:-1], lengths)
        )
        windows = ids[first[:, None] + np.arange(n)] if first.size else np.zeros((0, n), np.int32)
        keys = np.ascontiguousarray(windows).view(np.dtype((np.void, 4 * n))).ravel()
        return self._number(self._ngrams, keys.tolist(), grow), new_starts

    def units(self, texts: Sequence[str] | IdColumn, grow: bool = True) -> Units:
        store = Units()
        store.extend(*self.encode(texts, grow))
        return store


def pair_score(hits: int, m: int, n: int, measure: int, b2: float) -> float:
    """One pair's score in the kernel's float operations (``csrc/similarity.h``: sim_score,
    :func:`rouge_lcs.scores.multiref.prf`'s in the same order), so that pruning decisions agree
    between engines; ``measure`` numbered as :data:`KERNEL_MEASURES`, ``b2`` = β²."""
    p = hits / m if m > 0 else 0.0
    r = hits / n if n > 0 else 0.0
    if measure == 1:
        return p
    if measure == 2:
        return r
    den = r + b2 * p
    return (1.0 + b2) * p * r / den if den > 0 else 0.0


class Kernel:
    """The similarity kernel for one call's texts and measure: the interner's engine, the kind
    of hits, the measure (numbered as :data:`KERNEL_MEASURES`) and β."""

    def __init__(self, interner: Interner, measure: str) -> None:
        self.interner = interner
        self.kind = interner.kind
        self.measure = KERNEL_MEASURES.index(measure)
        self.beta = interner.settings.beta
        self.b2 = self.beta * self.beta

    def score(self, hits: int, m: int, n: int) -> float:
        """One pair's score as the kernel computes it (:func:`pair_score`)."""
        return pair_score(hits, m, n, self.measure, self.b2)

    def rows(
        self,
        queries: Units,
        row_query: np.ndarray,
        choices: Units,
        cands: np.ndarray,
        lo: np.ndarray,
        hi: np.ndarray,
        k: int,
        floor: float,
        strict: bool,
        num_threads: int,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """A kernel call on the interner's engine: row ``r`` scores query ``row_query[r]`` of
        ``queries`` against the choices ``cands[lo[r]:hi[r]]`` of ``choices``
        (:class:`~rouge_lcs.engine.interface.Rows`); all hits (``k == 0``) or each row's
        ``k`` best as (hits, choice indices, counts per row)."""
        if row_query.size and not (row_query - row_query[0]).any():
            # One query (top-k, greedy): hand the kernel just its units, so that checking
            # them costs O(query), not O(every query).
            q_ids = queries.span(int(row_query[0]))
            q_starts = np.array([0, q_ids.size], dtype=np.int64)
            row_query = np.zeros(row_query.size, dtype=np.int64)
        else:
            q_ids, q_starts = queries.ids, queries.starts
        # ids below the interner's vocabulary, and a query's unknown n-grams one past it
        vocab = max(self.interner.vocab, int(q_ids.max()) + 1 if q_ids.size else 0)
        rows = Rows(
            q_ids,
            q_starts,
            row_query,
            choices.ids,
            choices.starts,
            cands,
            lo,
            hi,
            k,
            floor,
            strict,
            self.kind,
            self.measure,
            self.beta,
            vocab,
        )
        return self.interner.engine.similarity_rows(rows, num_threads)
