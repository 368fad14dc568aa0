"""The rules behind :mod:`rouge_lcs.similarity`: what a score is, bounds, pruning, candidates.

Texts are interned once as integer *units* and scored by the similarity engine's kernel
(:mod:`rouge_lcs.engine.similarity`, on both engines).  For a query (the prediction) and a
choice (the reference) with ``m`` and ``n`` units, ``hits`` is their LCS (ROUGE-L) or their
clipped unit overlap (ROUGE-N), and the score is :func:`rouge_lcs.scores.multiref.prf` of
``(hits, m, n)`` — the numbers of ``score``.

Pruning never changes an answer.  The score is increasing in ``hits`` for fixed lengths, and
``hits <= min(m, n)`` and (ROUGE-L) ``hits <= U``, the clipped unigram overlap, so a pair whose
score at a bound cannot pass the cutoff (or enter the current top k) is skipped.  Both engines
(C in ``engine/csrc/similarity.h``, Python in :mod:`rouge_lcs.engine.reference.similarity`)
make the same decisions with the same float operations, and final scores always come from
``prf``.

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
from collections.abc import Callable

from rouge_lcs.base.lazy import lazy_import
from rouge_lcs.config.settings import Settings
from rouge_lcs.engine.backend import backend
from rouge_lcs.engine.similarity import NO_FLOOR, Interner, Kernel, Units
from rouge_lcs.scores.multiref import prf

TYPE_CHECKING = False  # not typing's: importing typing costs ~5 ms (see rouge_lcs.base.records)
if TYPE_CHECKING:
    import numpy as np
else:
    np = lazy_import("numpy")

__all__ = [
    "NO_FLOOR",
    "Interner",
    "Scoring",
    "Units",
    "greedy",
    "hits_matrix",
    "interner",
    "top_k",
]

#: Relative margin on the prefix-filter bounds (far above float error, far below one hit).
_MARGIN = 1e-9
#: Cells computed per block of cdist (bounds its temporary arrays to ~100 MB).
_BLOCK_CELLS = 1 << 22
#: Top-k sizes above this use the all-hits path and a sort.
_MAX_HEAP = 64


def interner(settings: Settings) -> Interner:
    """An interner of texts for these settings, on the engine in use now (chosen once)."""
    return Interner(settings, backend())


class Scoring(Kernel):
    """What a score is: the kernel's kind of hits, measure and β (fixed for a call), and the
    final scores by ``prf``."""

    def scores(self, hits: np.ndarray, m: np.ndarray | int, n: np.ndarray | int) -> np.ndarray:
        """Scores of many pairs, by ``prf`` itself (the numbers of ``rouge_lcs.score``)."""
        counts = np.stack(np.broadcast_arrays(hits, m, n), axis=-1)
        precision, recall, fmeasure = prf(counts, self.beta)
        return (fmeasure, precision, recall)[self.measure]


def _split(count: int, parts: int) -> np.ndarray:
    return np.linspace(0, count, parts + 1).astype(np.int64)


def hits_matrix(
    scoring: Scoring,
    queries: Units,
    choices: Units,
    floor: float,
    num_threads: int,
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
    parts = max(1, -(-num_threads // nq)) if nq < num_threads else 1
    bounds = _split(nc, parts)
    for q0 in range(0, nq, block):
        q1 = min(nq, q0 + block)
        row_query = np.repeat(np.arange(q0, q1, dtype=np.int64), parts)
        lo = np.tile(bounds[:-1], q1 - q0)
        hi = np.tile(bounds[1:], q1 - q0)
        hits, _, _ = scoring.rows(
            queries, row_query, choices, cands, lo, hi, 0, floor, False, num_threads
        )
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
    num_threads: int,
) -> list[tuple[int, float]]:
    """The ``k`` best ``(choice index, score)`` of query ``query`` among ``cands`` (every one
    when ``k`` is None), score descending, lower index first on ties."""
    count = cands.size
    if count == 0 or k == 0:
        return []
    m = queries.length(query)
    if k is None or k > _MAX_HEAP:
        lo, hi = np.array([0]), np.array([count])
        row_query = np.array([query])
        hits, _, _ = scoring.rows(queries, row_query, choices, cands, lo, hi, 0, floor, strict, 1)
        keep = hits >= 0
        index, hits = cands[keep], hits[keep]
        values = scoring.scores(hits, m, choices.lengths[index])
        good = values > floor if strict else values >= floor
        index, values = index[good], values[good]
        order = np.lexsort((index, -values))[:k]
        return list(zip(index[order].tolist(), values[order].tolist()))
    parts = num_threads if num_threads > 1 and count >= 8192 else 1
    if parts == 1:  # one row (the greedy filter's and an index's every call: no linspace)
        lo, hi = np.zeros(1, dtype=np.int64), np.array([count], dtype=np.int64)
    else:
        bounds = _split(count, parts)
        lo, hi = bounds[:-1], bounds[1:]
    row_query = np.full(parts, query, dtype=np.int64)
    hits_, index_, counts = scoring.rows(
        queries, row_query, choices, cands, lo, hi, k, floor, strict, num_threads
    )
    if parts == 1:
        n_found = int(counts[0])
        index, hits = index_[:n_found], hits_[:n_found]
    else:
        found = np.concatenate([np.arange(r * k, r * k + int(counts[r])) for r in range(parts)])
        index, hits = index_[found], hits_[found]
    starts = choices.starts
    lengths = (starts[index + 1] - starts[index]).tolist()
    score = scoring.score
    scored = [(score(h, m, n), c) for c, h, n in zip(index.tolist(), hits.tolist(), lengths)]
    if parts > 1:
        scored.sort(key=lambda item: (-item[0], item[1]))  # one row comes sorted
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
    num_threads: int,
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
            best = top_k(scoring, units, i, units, cands, 1, threshold, True, num_threads)
        else:
            cands = kept_buffer[:n_kept]
            if neighbors:
                best = top_k(
                    scoring, units, i, units, cands, neighbors, NO_FLOOR, False, num_threads
                )
                assert near is not None
                near.append(best)
            else:
                best = top_k(scoring, units, i, units, cands, 1, threshold, True, num_threads)
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
