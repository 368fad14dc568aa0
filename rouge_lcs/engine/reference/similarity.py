"""The reference engine's similarity rows: ``csrc/similarity.h`` in Python, decision for
decision (the same bounds, the same float operations, the same ties).

A query of at most :data:`DENSE_QUERY_TOKENS` units keeps its match masks as whole Python ints
and each pair's LCS is :func:`rouge_lcs.engine.lcs.lcs_step` per choice token (Hyyrö's
bit-parallel recurrence, as the C kernel's one strip); a longer query's masks would take up to
m bits per distinct token and as long to build (quadratic in m), so its pairs go to
:func:`rouge_lcs.engine.lcs.lcs_length` (linear memory), as ``rouge_lcs.score`` does.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from rouge_lcs.base.lazy import lazy_import
from rouge_lcs.engine.interface import Rows
from rouge_lcs.engine.lcs import lcs_length, lcs_step
from rouge_lcs.engine.similarity import KIND_OVERLAP, pair_score

if TYPE_CHECKING:
    import numpy as np
else:
    np = lazy_import("numpy")

#: Longest query whose match masks are kept as whole Python ints (the C kernel's one strip:
#: 64 words of 64 bits).
DENSE_QUERY_TOKENS = 64 * 64


def _lcs(masks: dict[int, int], m: int, seq: list[int]) -> int:
    """LCS length by Hyyrö's bit-parallel recurrence on Python integers (as the C kernel)."""
    full = (1 << m) - 1
    v = full
    for token in seq:
        mask = masks.get(token)
        if mask is not None:
            v = lcs_step(v, v & mask, full)
    return m - v.bit_count()


def _lists(ids: np.ndarray, starts: np.ndarray) -> list[list[int]]:
    """Each text's units as a list of ints."""
    flat, bounds = ids.tolist(), starts.tolist()
    return [flat[a:b] for a, b in zip(bounds[:-1], bounds[1:])]


def _passes(value: float, floor: float, strict: bool) -> bool:
    return value > floor if strict else value >= floor


def similarity_rows(rows: Rows) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """See :meth:`rouge_lcs.engine.interface.Backend.similarity_rows`."""
    queries, seqs = _lists(rows.q_ids, rows.q_starts), _lists(rows.ids, rows.starts)
    row_query, cands = rows.row_query, rows.cands
    lo, hi, k, floor, strict = rows.lo, rows.hi, rows.k, rows.floor, rows.strict
    measure, b2 = rows.measure, rows.beta * rows.beta

    def score(hits: int, m: int, n: int) -> float:
        return pair_score(hits, m, n, measure, b2)

    total = int((hi - lo).sum())
    out_hits = np.full(total if k == 0 else lo.size * k, -1, dtype=np.int64)
    out_index = np.zeros(0 if k == 0 else lo.size * k, dtype=np.int64)
    out_count = np.zeros(lo.size, dtype=np.int64)
    at = 0
    for r in range(lo.size):
        query = queries[int(row_query[r])]
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
                if rows.kind == KIND_OVERLAP:
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
