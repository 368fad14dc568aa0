"""The work behind :mod:`rouge_lcs.similarity`: texts interned once, bounds, pruning, candidates.

Every text is tokenized once (the settings' tokenizer and stemmer, as :func:`rouge_lcs.score`
tokenizes it) and turned into a sequence of integer *units*: its token ids for ROUGE-L, the ids
of its n-grams for ROUGE-N.  For a query (the prediction) and a choice (the reference) with ``m``
and ``n`` units, ``hits`` is their LCS (ROUGE-L) or their clipped unit overlap (ROUGE-N), and the
score is :func:`rouge_lcs.multiref.prf` of ``(hits, m, n)`` — the numbers of ``score``.

Pruning never changes an answer.  The score is increasing in ``hits`` for fixed lengths, and
``hits <= min(m, n)`` and (ROUGE-L) ``hits <= U``, the clipped unigram overlap, so a pair whose
score at a bound cannot pass the cutoff (or enter the current top k) is skipped.  Both engines
(C in ``_similarity.h``, Python in :func:`_python_rows`) make the same decisions with the same
float operations, and final scores always come from ``prf``.

Threshold deduplication draws its candidates from an inverted index with prefix filtering (as
the exact set-similarity joins AllPairs and PPJoin do).  A text becomes the *set* of its
``(unit, occurrence)`` pairs, so that the clipped overlap of two texts is the size of the
intersection of their sets.  With F_β = (1 + β²)·h / (m + β²·n) (P = h/m, R = h/n), F > t needs

    h > t·(m + β²·n) / (1 + β²)                                          (for β = 1: t·(m + n)/2)

and, because h <= n, the query side needs h > t·m / (1 + β² − t·β²) whatever n is; because
h <= m, the indexed side needs h > t·β²·n / (1 + β² − t).  (Precision: h > t·m on the query
side, h >= 1 on the other; recall the other way round.)  If two sets share at least ``o``
elements, then under any fixed order of the elements the first ``size − o + 1`` elements of each
share one.  So each kept text is indexed under its first ``n − o_index(n) + 1`` elements, a new
text probes with its first ``m − o_query(m) + 1``, rarest elements first (fewest postings), and a
kept text that shares none of them cannot score above ``t``: most pairs are never compared.  The
bounds are lowered by a relative 1e-9 before rounding up, so a pair whose *computed* float
score passes is never lost to rounding.  For ROUGE-L, F_lcs > t implies the unigram F > t
(LCS <= U), so the same index is exact for it.
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rouge_lcs.base.lazy import lazy_import
from rouge_lcs.config.settings import Settings
from rouge_lcs.engine.backend import backend
from rouge_lcs.engine.lcs import lcs_length
from rouge_lcs.engine.native import extension
from rouge_lcs.scores.multiref import prf
from rouge_lcs.text.rouge_types import unknown_kind

if TYPE_CHECKING:
    import numpy as np
else:
    np = lazy_import("numpy")

KIND_LCS, KIND_OVERLAP = 0, 1
#: Measures, in the C kernel's numbering.
MEASURES = ("fmeasure", "precision", "recall")
#: No floor: every pair passes (scores are >= 0).
NO_FLOOR = -1.0
#: Relative margin on the prefix-filter bounds (far above float error, far below one hit).
_MARGIN = 1e-9
#: Cells computed per block of cdist (bounds its temporary arrays to ~100 MB).
_BLOCK_CELLS = 1 << 22
#: Top-k sizes above this use the all-hits path and a sort.
_MAX_HEAP = 64


class Units:
    """Interned unit sequences of a growing set of texts: flat int32 ``ids`` and int64
    ``starts`` (one more than the texts); on the Python engine also each text's list."""

    def __init__(self, python: bool) -> None:
        self._ids = np.zeros(1024, dtype=np.int32)
        self._starts = np.zeros(1025, dtype=np.int64)
        self._n_ids = 0
        self._n = 0
        self.seqs: list[list[int]] | None = [] if python else None

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

    def extend(self, ids: np.ndarray, starts: np.ndarray) -> None:
        """Append texts given as flat ids and their own offsets (starting at 0)."""
        count, size = starts.size - 1, ids.size
        while self._n_ids + size > self._ids.size:
            self._ids = np.concatenate([self._ids, np.zeros_like(self._ids)])
        while self._n + count + 1 > self._starts.size:
            self._starts = np.concatenate([self._starts, np.zeros_like(self._starts)])
        self._ids[self._n_ids : self._n_ids + size] = ids
        self._starts[self._n + 1 : self._n + count + 1] = starts[1:] + self._n_ids
        if self.seqs is not None:
            flat = ids.tolist()
            bounds = starts.tolist()
            self.seqs.extend(flat[a:b] for a, b in zip(bounds[:-1], bounds[1:]))
        self._n_ids += size
        self._n += count

    def snapshot(self) -> Units:
        """The texts held now, unchanged by later :meth:`extend` calls (which write past them
        or into new buffers): what a query reads while another thread adds."""
        view = Units.__new__(Units)
        view._ids, view._starts = self._ids, self._starts
        view._n_ids, view._n = self._n_ids, self._n
        view.seqs = self.seqs  # appended to only; a query reads its first _n lists
        return view

    def span(self, k: int) -> np.ndarray:
        """The units of text ``k`` (a view)."""
        return self._ids[self._starts[k] : self._starts[k + 1]]


class Interner:
    """Tokenizes texts once, with the settings' tokenizer, and interns their units.

    The engine is the one :func:`rouge_lcs.engine.backend.backend` chooses, once, when the
    interner is made (its store numbers the tokens; the native engine also runs the kernel);
    ids stay the same across calls, so texts encoded by one interner compare.
    """

    def __init__(self, settings: Settings) -> None:
        rouge_type = settings.rouge_types[0]
        self.settings = settings
        if rouge_type.kind not in ("n", "L"):  # rouge_lcs.similarity refuses the others
            raise unknown_kind(rouge_type)
        self.kind = KIND_LCS if rouge_type.kind == "L" else KIND_OVERLAP
        self.n = rouge_type.n if rouge_type.kind == "n" else 1
        self._store = backend().store(settings, 1)
        # The C kernel where the store is the native one (a Porter-stemmed or unstemmed
        # tokenizer; another stemmer keeps the reference store and its numpy kernel).
        self.native = self._store.native
        self._ngrams: dict[bytes, int] = {}
        self._vocab = 0

    @property
    def vocab(self) -> int:
        """One more than the largest unit id handed out (at least 1)."""
        return max(self._vocab, 1)

    def _tokens(self, texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        ids, starts = self._store.token_ids(texts)
        ids = ids.astype(np.int32, copy=False)
        if ids.size:
            self._vocab = max(self._vocab, int(ids.max()) + 1)
        return ids, starts

    def encode(self, texts: Sequence[str], grow: bool = True) -> tuple[np.ndarray, np.ndarray]:
        """Flat unit ids (int32) and offsets (int64) of the texts; ``grow=False``: n-grams not
        seen before are not numbered but all get the one id past the others, which no
        encoded text has (a query of an index matches nothing there)."""
        ids, starts = self._tokens(texts)
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
        table = self._ngrams
        if grow:
            found = (table.setdefault(key, len(table)) for key in keys.tolist())
        else:
            unknown = len(table)
            found = (table.get(key, unknown) for key in keys.tolist())
        units = np.fromiter(found, dtype=np.int32, count=keys.size)
        self._vocab = max(self._vocab, len(table))
        return units, new_starts

    def units(self, texts: Sequence[str], grow: bool = True) -> Units:
        store = Units(python=not self.native)
        store.extend(*self.encode(texts, grow))
        return store


class Scoring:
    """What a score is: the kind of hits, the measure and β (fixed for a call)."""

    def __init__(self, interner: Interner, measure: str) -> None:
        self.kind = interner.kind
        self.measure = MEASURES.index(measure)
        self.beta = interner.settings.beta
        self.b2 = self.beta * self.beta
        self.native = interner.native
        self.interner = interner

    def score(self, hits: int, m: int, n: int) -> float:
        """One pair's score: :func:`rouge_lcs.multiref.prf`'s operations on Python floats
        (the C kernel's too), so that pruning decisions agree between engines."""
        p = hits / m if m > 0 else 0.0
        r = hits / n if n > 0 else 0.0
        if self.measure == 1:
            return p
        if self.measure == 2:
            return r
        den = r + self.b2 * p
        return (1.0 + self.b2) * p * r / den if den > 0 else 0.0

    def scores(self, hits: np.ndarray, m: np.ndarray | int, n: np.ndarray | int) -> np.ndarray:
        """Scores of many pairs, by ``prf`` itself (the numbers of ``rouge_lcs.score``)."""
        counts = np.stack(np.broadcast_arrays(hits, m, n), axis=-1)
        precision, recall, fmeasure = prf(counts, self.beta)
        return (fmeasure, precision, recall)[self.measure]


def _passes(value: float, floor: float, strict: bool) -> bool:
    return value > floor if strict else value >= floor


#: Longest query whose match masks ``_python_rows`` keeps as whole Python ints (the C kernel's
#: one strip: 64 words of 64 bits).  The masks of a query of m tokens take up to m bits per
#: distinct token, and building them costs as much: quadratic in m.  Longer queries' pairs go
#: to :func:`rouge_lcs.engine.lcs.lcs_length` (linear memory), as ``rouge_lcs.score`` does.
DENSE_QUERY_TOKENS = 64 * 64


def _lcs(masks: dict[int, int], m: int, seq: list[int]) -> int:
    """LCS length by Hyyro's bit-parallel recurrence on Python integers (as the C kernel)."""
    full = (1 << m) - 1
    v = full
    for token in seq:
        mask = masks.get(token)
        if mask is not None:
            u = v & mask
            v = ((v + u) | (v - u)) & full
    return m - v.bit_count()


@dataclass(frozen=True)
class Rows:
    """A kernel call: row ``r`` scores query ``row_query[r]`` against the choices
    ``cands[lo[r]:hi[r]]``; ``k == 0``: every pair's hits (-1 where it cannot pass the floor),
    else each row's ``k`` best; a pair passes when its score is > floor (``strict``) or >=."""

    queries: Units
    row_query: np.ndarray
    choices: Units
    cands: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    k: int
    floor: float
    strict: bool


def _python_rows(scoring: Scoring, rows: Rows) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The Python engine's version of the C kernel ``similarity`` (see ``_similarity.h``)."""
    queries, row_query, choices, cands = rows.queries, rows.row_query, rows.choices, rows.cands
    lo, hi, k, floor, strict = rows.lo, rows.hi, rows.k, rows.floor, rows.strict
    assert queries.seqs is not None and choices.seqs is not None
    score, seqs = scoring.score, choices.seqs
    total = int((hi - lo).sum())
    out_hits = np.full(total if k == 0 else lo.size * k, -1, dtype=np.int64)
    out_index = np.zeros(0 if k == 0 else lo.size * k, dtype=np.int64)
    out_count = np.zeros(lo.size, dtype=np.int64)
    at = 0
    for r in range(lo.size):
        query = queries.seqs[int(row_query[r])]
        m = len(query)
        masks: dict[int, int] | None = None
        if m <= DENSE_QUERY_TOKENS:
            masks = {}
            for i, token in enumerate(query):
                masks[token] = masks.get(token, 0) | (1 << i)
        query_counts = Counter(query)
        top: list[tuple[float, int, int]] = []  # (score, index, hits), best first

        def may_enter(value: float, index: int, top: list[tuple[float, int, int]] = top) -> bool:
            # the C kernel's sim_may_enter
            if not _passes(value, floor, strict):
                return False
            if k == 0 or len(top) < k:
                return True
            worst, worst_index, _ = top[-1]
            return value > worst or (value == worst and index < worst_index)

        for c in cands[lo[r] : hi[r]].tolist():
            seq = seqs[c]
            n = len(seq)
            hits = -1
            if may_enter(score(min(m, n), m, n), c):
                overlap = sum((Counter(seq) & query_counts).values())
                if scoring.kind == KIND_OVERLAP:
                    hits = overlap
                elif may_enter(score(overlap, m, n), c):
                    hits = _lcs(masks, m, seq) if masks is not None else lcs_length(query, seq)
            if k == 0:
                out_hits[at] = hits
                at += 1
            elif hits >= 0 and may_enter(score(hits, m, n), c):
                top.append((score(hits, m, n), c, hits))
                top.sort(key=lambda item: (-item[0], item[1]))
                del top[k:]
        if k:
            out_count[r] = len(top)
            for j, (_, c, hits) in enumerate(top):
                out_index[r * k + j], out_hits[r * k + j] = c, hits
    return out_hits, out_index, out_count


def run_rows(
    scoring: Scoring, rows: Rows, workers: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Run a kernel call (:class:`Rows`) on the interner's engine: all hits (``k == 0``) or
    each row's ``k`` best as (hits, choice indices, counts per row)."""
    if not scoring.native:
        return _python_rows(scoring, rows)
    row_query, cands, lo, hi, k = rows.row_query, rows.cands, rows.lo, rows.hi, rows.k
    queries, choices = rows.queries, rows.choices
    total = int((hi - lo).sum())
    out_hits = np.empty(total if k == 0 else lo.size * k, dtype=np.int64)
    out_index = np.empty(0 if k == 0 else lo.size * k, dtype=np.int64)
    out_count = np.empty(0 if k == 0 else lo.size, dtype=np.int64)
    q_ids, q_starts = queries.ids, queries.starts
    if row_query.size and not (row_query - row_query[0]).any():
        # One query (top-k, greedy): hand C just its units, so that checking them costs
        # O(query), not O(every query).
        q_ids = queries.span(int(row_query[0]))
        q_starts = np.array([0, q_ids.size], dtype=np.int64)
        row_query = np.zeros(row_query.size, dtype=np.int64)
    # ids below the interner's vocabulary, and a query's unknown n-grams one past it
    vocab = max(scoring.interner.vocab, int(q_ids.max()) + 1 if q_ids.size else 0)
    extension().similarity(
        q_ids,
        q_starts,
        row_query,
        choices.ids,
        choices.starts,
        cands,
        lo,
        hi,
        vocab,
        scoring.kind,
        scoring.measure,
        scoring.beta,
        rows.floor,
        rows.strict,
        k,
        workers,
        out_hits,
        out_index,
        out_count,
    )
    return out_hits, out_index, out_count


def _split(count: int, parts: int) -> np.ndarray:
    return np.linspace(0, count, parts + 1).astype(np.int64)


def hits_matrix(
    scoring: Scoring,
    queries: Units,
    choices: Units,
    floor: float,
    workers: int,
    dtype: np.dtype | None = None,
) -> np.ndarray:
    """Scores of every (query, choice) pair, shape ``(queries, choices)``, of ``dtype``
    (float64 by default; each score computed in float64, then rounded once); with a floor,
    cells below it are 0 (pruned or computed)."""
    nq, nc = len(queries), len(choices)
    out = np.zeros((nq, nc), dtype=np.float64 if dtype is None else dtype)
    if nq == 0 or nc == 0:
        return out
    cands = np.arange(nc, dtype=np.int64)
    m_all, n_all = queries.lengths, choices.lengths
    block = max(1, _BLOCK_CELLS // nc)
    # A query's choices in `parts` ranges when there are fewer queries than threads.
    parts = max(1, -(-workers // nq)) if nq < workers else 1
    bounds = _split(nc, parts)
    for q0 in range(0, nq, block):
        q1 = min(nq, q0 + block)
        row_query = np.repeat(np.arange(q0, q1, dtype=np.int64), parts)
        lo = np.tile(bounds[:-1], q1 - q0)
        hi = np.tile(bounds[1:], q1 - q0)
        rows = Rows(queries, row_query, choices, cands, lo, hi, 0, floor, False)
        hits, _, _ = run_rows(scoring, rows, workers)
        hits = hits.reshape(q1 - q0, nc)
        # Only pairs with hits score above 0 (no hits, or pruned: 0), and short texts share
        # no token in most pairs: prf on those cells alone.
        qi, ci = np.nonzero(hits > 0)
        values = scoring.scores(hits[qi, ci], m_all[q0:q1][qi], n_all[ci])
        if floor > 0:
            values[values < floor] = 0.0
        out[q0:q1][qi, ci] = values
    return out


def top_k(
    scoring: Scoring,
    queries: Units,
    query: int,
    choices: Units,
    cands: np.ndarray,
    k: int | None,
    floor: float,
    strict: bool,
    workers: int,
) -> list[tuple[int, float]]:
    """The ``k`` best ``(choice index, score)`` of query ``query`` among ``cands`` (every one
    when ``k`` is None), score descending, lower index first on ties."""
    count = cands.size
    if count == 0 or k == 0:
        return []
    m = int(queries.lengths[query])
    if k is None or k > _MAX_HEAP:
        lo, hi = np.array([0]), np.array([count])
        rows = Rows(queries, np.array([query]), choices, cands, lo, hi, 0, floor, strict)
        hits, _, _ = run_rows(scoring, rows, 1)
        keep = hits >= 0
        index, hits = cands[keep], hits[keep]
        values = scoring.scores(hits, m, choices.lengths[index])
        good = values > floor if strict else values >= floor
        index, values = index[good], values[good]
        order = np.lexsort((index, -values))[:k]
        return list(zip(index[order].tolist(), values[order].tolist()))
    parts = workers if workers > 1 and count >= 8192 else 1
    bounds = _split(count, parts)
    row_query = np.full(parts, query, dtype=np.int64)
    rows = Rows(queries, row_query, choices, cands, bounds[:-1], bounds[1:], k, floor, strict)
    hits_, index_, counts = run_rows(scoring, rows, workers)
    found = [
        (int(index_[r * k + j]), int(hits_[r * k + j]))
        for r in range(parts)
        for j in range(int(counts[r]))
    ]
    lengths = choices.lengths
    scored = [(scoring.score(h, m, int(lengths[c])), c) for c, h in found]
    scored.sort(key=lambda item: (-item[0], item[1]))
    return [(c, value) for value, c in scored[:k]]


class PrefixIndex:
    """Exact candidates for ``score > threshold``: an inverted index on prefixes (module doc)."""

    def __init__(self, units: Units, scoring: Scoring, threshold: float) -> None:
        ids, starts = units.ids.astype(np.int64), units.starts
        lengths = np.diff(starts)
        doc = np.repeat(np.arange(lengths.size), lengths)
        # (unit, occurrence) elements: sort each text's units, number repeats 0, 1, ...
        order = np.lexsort((ids, doc))
        sorted_ids, sorted_doc = ids[order], doc[order]
        position = np.arange(ids.size)
        new = np.ones(ids.size, dtype=bool)
        new[1:] = (sorted_ids[1:] != sorted_ids[:-1]) | (sorted_doc[1:] != sorted_doc[:-1])
        occurrence = position - np.maximum.accumulate(np.where(new, position, 0))
        width = int(lengths.max(initial=0)) + 1
        keys = sorted_ids * width + occurrence
        unique, inverse, frequency = np.unique(keys, return_inverse=True, return_counts=True)
        # rarest first (fewest postings); ties by the element's key, any fixed order is exact
        rank = np.empty(unique.size, dtype=np.int64)
        rank[np.lexsort((unique, frequency))] = np.arange(unique.size)
        element = rank[inverse.ravel()]
        self.elements = element[np.lexsort((element, sorted_doc))]
        self.starts = starts
        self.probe = lengths - self._overlap(lengths, scoring, threshold, query=True) + 1
        self.index = lengths - self._overlap(lengths, scoring, threshold, query=False) + 1
        self.postings: dict[int, array[int]] = {}

    @staticmethod
    def _overlap(lengths: np.ndarray, scoring: Scoring, t: float, query: bool) -> np.ndarray:
        """The fewest shared elements a text of these lengths needs, as the query side or the
        indexed side, for a score > t against a text of any length (module doc)."""
        size, b2 = lengths.astype(np.float64), scoring.b2
        if scoring.measure == 0:
            # 1 + β² − t·β² (or 1 + β² − t) rounds to 0 or below for t near 1 and a huge β:
            # then no bound is derived (every shared element probes: still exact).
            den = 1 + b2 - t * b2 if query else 1 + b2 - t
            if not den > 0:
                return np.ones(size.size, dtype=np.int64)
            bound = t * size / den if query else t * b2 * size / den
        elif (scoring.measure == 1) == query:  # precision on the query side, recall indexed
            bound = t * size
        else:
            bound = np.zeros_like(size)
        # a bound past the text's own size: no text of that size passes (an empty prefix)
        bound = np.minimum(bound * (1 - _MARGIN), size + 1)
        return np.maximum(np.ceil(bound), 1).astype(np.int64)

    def candidates(self, k: int) -> np.ndarray:
        """Indexed texts that share a probe element with text ``k`` (sorted, distinct)."""
        s = int(self.starts[k])
        postings = self.postings
        lists = [
            postings[e] for e in self.elements[s : s + self.probe[k]].tolist() if e in postings
        ]
        if not lists:
            return np.zeros(0, dtype=np.int64)
        if len(lists) == 1:
            return np.array(lists[0], dtype=np.int64)
        return np.unique(np.concatenate([np.frombuffer(a, dtype=np.int64) for a in lists]))

    def add(self, k: int) -> None:
        s = int(self.starts[k])
        postings = self.postings
        for e in self.elements[s : s + self.index[k]].tolist():
            found = postings.get(e)
            if found is None:
                postings[e] = array("q", [k])
            else:
                found.append(k)


def greedy(
    scoring: Scoring,
    units: Units,
    threshold: float,
    neighbors: int,
    prefilter: bool,
    workers: int,
    progress: Callable[[int], object] | None = None,
    seeds: int = 0,
) -> tuple[list[int], dict[int, tuple[int, float]], list[list[tuple[int, float]]] | None]:
    """The pipelines' greedy filter: in order, text ``i`` is dropped when its best score
    against the texts kept before it is > ``threshold``.  Returns the kept indices, each dropped
    text's best kept match ``(index, score)`` and, with ``neighbors``, each text's best kept
    ``(index, score)`` (computed against every kept text; the prefix index finds only pairs
    above the threshold, so it is used without neighbors).  The first ``seeds`` texts are kept
    without being compared (the pipelines' seed tasks); ``neighbors`` then lists the others."""
    count = len(units)
    kept_buffer = np.zeros(max(count, 1), dtype=np.int64)
    kept_buffer[:seeds] = np.arange(seeds)
    n_kept = seeds
    matches: dict[int, tuple[int, float]] = {}
    near: list[list[tuple[int, float]]] | None = [] if neighbors else None
    index = PrefixIndex(units, scoring, threshold) if prefilter and not neighbors else None
    if index is not None:
        for i in range(seeds):
            index.add(i)
    step = 1000
    done = 0
    for i in range(seeds, count):
        if index is not None:
            cands = index.candidates(i)
            best = top_k(scoring, units, i, units, cands, 1, threshold, True, workers)
        else:
            cands = kept_buffer[:n_kept]
            if neighbors:
                best = top_k(scoring, units, i, units, cands, neighbors, NO_FLOOR, False, workers)
                assert near is not None
                near.append(best)
            else:
                best = top_k(scoring, units, i, units, cands, 1, threshold, True, workers)
        if best and best[0][1] > threshold:
            matches[i] = best[0]
        else:
            kept_buffer[n_kept] = i
            n_kept += 1
            if index is not None:
                index.add(i)
        done += 1
        if progress is not None and done % step == 0:
            progress(step)
    if progress is not None and done % step:
        progress(done % step)
    return kept_buffer[:n_kept].tolist(), matches, near
