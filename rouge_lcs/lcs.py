"""Longest-common-subsequence kernels, all without a Python-level O(m·n) loop.

- :func:`lcs_length` — rapidfuzz's bit-parallel ``LCSseq`` (C++), for ROUGE-L.
- :func:`lcs_indices` — *which* reference positions form the LCS, chosen by exactly the same
  backtracking tie-break as rouge_score's ``_backtrack_norec``, so that ROUGE-Lsum's union-LCS
  hits equal rouge_score's.  The DP table is never built: the rows are kept as bit vectors
  (Hyyrö's bit-parallel LCS on Python integers, one big-int step per reference token), and any
  backtrack reads each row once, so it costs O(m log n) big-int operations instead of the
  O(m·n) table.
- :func:`union_lcs_hits` — ROUGE-Lsum's summary-level hits (Lin 2004, section 3.2) with
  ROUGE-1.5.5's / rouge_score's clipping against token counts on both sides.

Tokens are small integers (ids interned per call), which hash without collisions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import chain

import numpy as np
from rapidfuzz.distance import LCSseq

Tokens = Sequence[int]


def lcs_length(a: Tokens, b: Tokens) -> int:
    """Length of the longest common subsequence of two token-id sequences."""
    if not a or not b:
        return 0
    return LCSseq.similarity(a, b)


class Candidate:
    """A candidate sentence prepared for bit-parallel LCS: tokens and per-token match masks."""

    __slots__ = ("tokens", "masks", "full")

    def __init__(self, tokens: Tokens) -> None:
        self.tokens = tokens
        masks: dict[int, int] = {}
        for position, token in enumerate(tokens):
            masks[token] = masks.get(token, 0) | (1 << position)
        self.masks = masks
        self.full = (1 << len(tokens)) - 1


def _prefix_parity(bits: int, width: int) -> int:
    """Bit p of the result is the parity of bits 0..p of ``bits`` (log-step doubling)."""
    shift = 1
    while shift < width:
        bits ^= bits << shift
        shift <<= 1
    return bits


def lcs_indices(ref: Tokens, cand: Candidate) -> list[int]:
    """Reference positions of one LCS of ``ref`` and ``cand``, as rouge_score's backtrack picks it.

    rouge_score walks back from ``(m, n)``: on a token match it takes the diagonal; otherwise it
    moves left when ``L[i][j-1] > L[i-1][j]`` and up otherwise.  Without a match at ``(i, j)``
    that test holds exactly when the vertical difference ``L[i][j] - L[i-1][j]`` is 1.  Bit row
    ``i`` has a zero at each column where ``L[i][.]`` steps up, so the vertical difference (0
    or 1) is the running parity of ``row[i-1] ^ row[i]``.  Each step of the walk decreases ``i``:
    in row ``i`` it jumps straight to the last column ``<= j`` that is a match or has vertical
    difference 0 — a handful of big-int operations per row, O(m log n) per call.
    """
    masks, full = cand.masks, cand.full
    width = len(cand.tokens)
    row = full
    rows = [row]
    for token in ref:
        match = row & masks.get(token, 0)
        row = ((row + match) | (row - match)) & full
        rows.append(row)
    length = width - row.bit_count()
    if length == 0:
        return []
    found: list[int] = []
    i, j = len(ref), width
    while j > 0 and len(found) < length:
        match = masks.get(ref[i - 1], 0)
        flat = ~_prefix_parity(rows[i - 1] ^ rows[i], width)  # vertical difference 0
        stops = (match | flat) & ((1 << j) - 1)
        if not stops:
            break
        column = stops.bit_length()  # bit p is column p + 1
        i -= 1
        if match >> (column - 1) & 1:
            found.append(i)
            j = column - 1
        else:
            j = column
    found.reverse()
    return found


def union_lcs_hits(
    ref_sentences: Sequence[Tokens],
    candidates: Sequence[Candidate],
    candidate_counts: Counter[int],
) -> int:
    """Summary-level union-LCS hits, clipped like ROUGE-1.5.5 and rouge_score.

    For each reference sentence the union of its LCS positions against every candidate sentence
    is taken; a union token counts while both the reference and the candidate still have an
    unused occurrence of it.  Because each union position is a distinct reference occurrence,
    that clipping reduces to ``sum_t min(union_count[t], candidate_count[t])``.
    """
    union_counts: Counter[int] = Counter()
    for ref in ref_sentences:
        if not ref:
            continue
        ref_set = set(ref)
        positions: set[int] = set()
        for cand in candidates:
            # Most sentence pairs share no token at all: skip the bit work for them.
            if ref_set.isdisjoint(cand.masks):
                continue
            positions.update(lcs_indices(ref, cand))
        union_counts.update(ref[p] for p in positions)
    return sum(min(count, candidate_counts[token]) for token, count in union_counts.items())


# ---------------------------------------------------------------------------------------------
# Batched kernel: every (reference sentence, candidate sentence) pair of a whole batch at once.
# ---------------------------------------------------------------------------------------------

_WORD = 64  # candidate sentences up to this many tokens fit one uint64 bit row
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
_ONE = np.uint64(1)


def _prefix_parity_u64(x: np.ndarray) -> np.ndarray:
    for shift in (1, 2, 4, 8, 16, 32):
        x = x ^ (x << np.uint64(shift))
    return x


def _bit_length_u64(x: np.ndarray) -> np.ndarray:
    for shift in (1, 2, 4, 8, 16, 32):
        x = x | (x >> np.uint64(shift))
    return np.bitwise_count(x).astype(np.int64)


def _flatten(sentences: Sequence[Tokens]) -> tuple[np.ndarray, np.ndarray]:
    """Concatenated tokens and the length of each sentence."""
    lengths = np.fromiter(map(len, sentences), dtype=np.int64, count=len(sentences))
    flat = np.fromiter(chain.from_iterable(sentences), dtype=np.int64, count=int(lengths.sum()))
    return flat, lengths


def union_lcs_hits_batch(
    jobs: Sequence[tuple[Sequence[Tokens], Sequence[Tokens]]],
) -> np.ndarray:
    """:func:`union_lcs_hits` for many (reference sentences, candidate sentences) jobs at once.

    All sentence pairs of all jobs advance together, one reference row per step, as uint64 bit
    rows in numpy (candidate sentences of up to 64 tokens; longer ones take the big-int path).
    The forward pass is Hyyrö's bit-parallel LCS; the backward pass replays rouge_score's
    backtrack for every pair at once (see :func:`lcs_indices` for why each step is one row).
    A reference position is in the union LCS iff some candidate sentence took the diagonal
    there.  Python does O(longest reference sentence) numpy calls, whatever the batch size.
    Returns the hits of each job.
    """
    n_jobs = len(jobs)
    hits = np.zeros(n_jobs, dtype=np.int64)
    refs = [[r for r in job_refs if r] for job_refs, _ in jobs]
    cands = [[c for c in job_cands if c] for _, job_cands in jobs]
    n_cands = np.fromiter(map(len, cands), dtype=np.int64, count=n_jobs)
    # Groups are (job, reference sentence) with at least one candidate sentence to match.
    n_groups = np.fromiter(map(len, refs), dtype=np.int64, count=n_jobs) * (n_cands > 0)
    group_job = np.repeat(np.arange(n_jobs), n_groups)
    if group_job.size == 0:
        return hits
    group_tokens = [r for k, job_refs in enumerate(refs) if n_cands[k] for r in job_refs]
    cand_tokens = [c for job_cands in cands for c in job_cands]
    cand_flat, cand_len = _flatten(cand_tokens)
    ref_flat, ref_len = _flatten(group_tokens)
    # Pairs: every group with every candidate sentence of its job.
    first_cand = np.cumsum(n_cands) - n_cands
    per_group = n_cands[group_job]
    pair_group = np.repeat(np.arange(group_job.size), per_group)
    pair_cand = first_cand[group_job][pair_group] + (
        np.arange(pair_group.size) - np.repeat(np.cumsum(per_group) - per_group, per_group)
    )
    max_ref = int(ref_len.max())
    refs_mat = np.full((group_job.size, max_ref), -1, dtype=np.int64)
    refs_mat[np.repeat(np.arange(group_job.size), ref_len), _positions(ref_len)] = ref_flat
    union = np.zeros(refs_mat.shape, dtype=bool)

    long = cand_len[pair_cand] > _WORD
    for p in np.flatnonzero(long).tolist():
        g = int(pair_group[p])
        union[g, lcs_indices(group_tokens[g], Candidate(cand_tokens[pair_cand[p]]))] = True
    _union_short_pairs(
        refs_mat, ref_len, union, pair_group[~long], pair_cand[~long], cand_flat, cand_len
    )

    # Hits per job: sum over tokens of min(union occurrences, candidate occurrences) — the
    # clipping of ROUGE-1.5.5 / rouge_score, which uses each candidate occurrence at most once.
    vocab = int(max(ref_flat.max(), cand_flat.max())) + 1
    g_idx, pos = np.nonzero(union)
    union_keys, union_counts = np.unique(
        group_job[g_idx] * vocab + refs_mat[g_idx, pos], return_counts=True
    )
    cand_job = np.repeat(np.repeat(np.arange(n_jobs), n_cands), cand_len)
    cand_keys, cand_counts = np.unique(cand_job * vocab + cand_flat, return_counts=True)
    at = np.searchsorted(cand_keys, union_keys)
    clipped = np.minimum(union_counts, cand_counts[at])  # every union token is a candidate token
    np.add.at(hits, union_keys // vocab, clipped)
    return hits


def _positions(lengths: np.ndarray) -> np.ndarray:
    """0, 1, …, len-1 for each length, concatenated."""
    return np.arange(int(lengths.sum())) - np.repeat(np.cumsum(lengths) - lengths, lengths)


def _union_short_pairs(
    refs_mat: np.ndarray,
    ref_len: np.ndarray,
    union: np.ndarray,
    pair_group: np.ndarray,
    pair_cand: np.ndarray,
    cand_flat: np.ndarray,
    cand_len: np.ndarray,
) -> None:
    """Mark in ``union`` the diagonal moves of rouge_score's backtrack for 64-bit pairs."""
    if pair_group.size == 0:
        return
    # Match masks: bit q of mask (c, t) says token q of candidate sentence c is t.
    vocab = int(max(refs_mat.max(), cand_flat.max())) + 2
    positions = _positions(cand_len)
    keep = positions < _WORD
    keys = (np.repeat(np.arange(cand_len.size), cand_len) * vocab + cand_flat)[keep]
    bits = _ONE << positions[keep].astype(np.uint64)
    order = np.argsort(keys, kind="stable")
    keys, bits = keys[order], bits[order]
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    uniq_keys = keys[starts]
    uniq_bits = np.bitwise_or.reduceat(bits, starts)

    # Process pairs sorted by reference length, longest first: at row i the active pairs are a
    # prefix, so each step touches only the pairs it must.
    ref_len = ref_len[pair_group]
    order = np.argsort(-ref_len, kind="stable")
    pair_group, pair_cand, ref_len = pair_group[order], pair_cand[order], ref_len[order]
    n_pairs, max_ref = pair_group.size, int(ref_len[0])
    active_until = np.searchsorted(-ref_len, -np.arange(max_ref + 1), side="right")
    # active_until[i] = number of pairs with ref_len >= i

    # Look up only the real (pair, reference position) cells, not the padding.
    cell_pair = np.repeat(np.arange(n_pairs), ref_len)
    cell_pos = _positions(ref_len)
    query = pair_cand[cell_pair] * vocab + refs_mat[pair_group[cell_pair], cell_pos]
    found = np.minimum(np.searchsorted(uniq_keys, query), uniq_keys.size - 1)
    masks = np.zeros((n_pairs, max_ref), dtype=np.uint64)
    masks[cell_pair, cell_pos] = np.where(uniq_keys[found] == query, uniq_bits[found], 0)

    widths = cand_len[pair_cand]
    full = np.where(
        widths >= _WORD, _ALL, (_ONE << np.minimum(widths, 63).astype(np.uint64)) - _ONE
    )
    rows = np.empty((max_ref + 1, n_pairs), dtype=np.uint64)
    rows[0] = full
    for i in range(max_ref):
        k = active_until[i + 1]
        prev = rows[i, :k]
        match = prev & masks[:k, i]
        rows[i + 1, :k] = ((prev + match) | (prev - match)) & full[:k]
        rows[i + 1, k:] = rows[i, k:]

    j = widths.copy()
    diag = np.zeros((n_pairs, max_ref), dtype=bool)
    for i in range(max_ref, 0, -1):
        k = active_until[i]
        jj = j[:k]
        match = masks[:k, i - 1]
        flat = ~_prefix_parity_u64(rows[i - 1, :k] ^ rows[i, :k])
        below = np.where(jj >= _WORD, _ALL, (_ONE << np.minimum(jj, 63).astype(np.uint64)) - _ONE)
        stops = (match | flat) & below
        column = _bit_length_u64(stops)  # 0 when there is no stop: the walk ends
        took = ((match >> np.maximum(column - 1, 0).astype(np.uint64)) & _ONE).astype(bool)
        took &= column > 0
        diag[:k, i - 1] = took
        j[:k] = np.where(took, column - 1, column)

    # A reference position is in the union when any candidate sentence took its diagonal.
    order = np.argsort(pair_group, kind="stable")
    grouped = pair_group[order]
    starts = np.flatnonzero(np.r_[True, grouped[1:] != grouped[:-1]])
    union[grouped[starts], :max_ref] |= np.logical_or.reduceat(diag[order], starts, axis=0)
