"""Batched ROUGE-Lsum union-LCS kernel: every (reference sentence, candidate sentence) pair of a
whole batch advances together in numpy.

For each pair the reference sentence indexes the rows and the candidate sentence the bits of a
uint64 (candidate sentences of up to 64 tokens; longer ones take the exact big-int path of
:func:`rouge_lcs.engine.lcs.lcs_indices`).  The forward pass is Hyyrö's bit-parallel LCS; the
backward pass replays rouge_score's backtrack for all pairs at once, in the "prefix parity"
form of the one explanation of that walk: the module docstring of :mod:`rouge_lcs.engine.lcs`
("rouge_score's backtrack on bit rows").  A reference position belongs to the union LCS iff
some candidate sentence took the diagonal there.

Python performs O(longest reference sentence) numpy calls per block of pairs, whatever the
number of pairs.  Memory is linear in the input:

- the rows of a block are ragged (pair p has one row per token of its reference sentence, not one
  per token of the block's longest), so a block takes ~17 bytes per (pair, reference token) —
  at most ``17 · max(_BLOCK_CELLS, reference tokens of one example)`` bytes, ~34 MB;
- a reference sentence longer than ``_LONG_REF`` tokens takes the big-int path with each
  candidate sentence, on only the reference tokens that candidate has (the rows of the others
  equal the row above): one long sentence next to many short ones no longer pads every pair;
- the union of LCS positions is one flag per reference token.
Match masks come from a dense table per block: each job (one prediction/reference pair) gets a
local vocabulary of its candidate tokens, so a (candidate sentence, reference token) mask is one
array lookup.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import chain
from typing import TYPE_CHECKING

from rouge_lcs.base.arrays import expand, popcount, positions
from rouge_lcs.base.lazy import lazy_import
from rouge_lcs.engine.lcs import Candidate, Tokens, lcs_indices

if TYPE_CHECKING:
    import numpy as np
else:
    np = lazy_import("numpy")

_WORD = 64
#: A block holds at most this many sentence pairs and this many mask-table entries ...
_BLOCK_PAIRS = 32768
_BLOCK_TABLE = 2_000_000
#: ... and at most this many (pair, reference token) cells, ~17 bytes each: ~34 MB (one bigger
#: block for a single candidate whose example's reference sentences have more tokens in all).
_BLOCK_CELLS = 2_000_000
#: Reference sentences longer than this take the big-int path (see the module docstring).
_LONG_REF = 2048


def _flatten(sentences: Sequence[Tokens]) -> tuple[np.ndarray, np.ndarray]:
    lengths = np.fromiter(map(len, sentences), dtype=np.int64, count=len(sentences))
    flat = np.fromiter(chain.from_iterable(sentences), dtype=np.int64, count=int(lengths.sum()))
    return flat, lengths


@cache
def _bit_constants() -> tuple[np.uint64, tuple[np.uint64, ...], np.ndarray]:
    """uint64 1, the shifts of a 64-bit smear, and low_bits[n]: the lowest n bits set (n = 0 …
    64).  Built at first use, not at import: numpy is imported with the first scoring call."""
    shifts = tuple(np.uint64(s) for s in (1, 2, 4, 8, 16, 32))
    low_bits = np.array([(1 << n) - 1 for n in range(_WORD + 1)], dtype=np.uint64)
    return np.uint64(1), shifts, low_bits


class _Batch:
    """The flattened batch: groups are (job, reference sentence), candidates are sentences."""

    def __init__(self, jobs: Sequence[tuple[Sequence[Tokens], Sequence[Tokens]]]) -> None:
        n_jobs = len(jobs)
        refs = [[r for r in job_refs if r] for job_refs, _ in jobs]
        cands = [[c for c in job_cands if c] for _, job_cands in jobs]
        n_cands = np.fromiter(map(len, cands), dtype=np.int64, count=n_jobs)
        self.n_groups = np.fromiter(map(len, refs), dtype=np.int64, count=n_jobs) * (n_cands > 0)
        self.group_first = np.cumsum(self.n_groups) - self.n_groups
        self.group_job = np.repeat(np.arange(n_jobs), self.n_groups)
        self.group_tokens = [r for k, job_refs in enumerate(refs) if n_cands[k] for r in job_refs]
        self.cand_tokens = [c for job_cands in cands for c in job_cands]
        self.cand_job = np.repeat(np.arange(n_jobs), n_cands)
        self.n_cands = n_cands
        self.cand_first = np.cumsum(n_cands) - n_cands
        self.cand_flat, self.cand_len = _flatten(self.cand_tokens)
        self.ref_flat, self.ref_len = _flatten(self.group_tokens)
        self.n_jobs = n_jobs

    def local_vocabularies(self) -> None:
        """Per job, number its candidate tokens 0..V_job-1; reference tokens get their local id,
        or -1 when no candidate sentence of the job has them (they can never match)."""
        vocab = int(max(self.cand_flat.max(), self.ref_flat.max())) + 1
        token_job = np.repeat(self.cand_job, self.cand_len)
        uniq, inverse = np.unique(token_job * vocab + self.cand_flat, return_inverse=True)
        #: rank of (job, token) among all distinct candidate (job, token) keys
        self.cand_rank = inverse.reshape(-1)
        self.rank_job = uniq // vocab
        self.job_first = np.searchsorted(self.rank_job, np.arange(self.n_jobs))
        self.vocab_size = np.bincount(self.rank_job, minlength=self.n_jobs)
        self.cand_local = self.cand_rank - self.job_first[token_job]
        ref_job = np.repeat(self.group_job, self.ref_len)
        keys = ref_job * vocab + self.ref_flat
        at = np.minimum(np.searchsorted(uniq, keys), uniq.size - 1)
        #: per reference token (flat), its job-local id or -1
        self.ref_local = np.where(uniq[at] == keys, at - self.job_first[ref_job], -1)
        self.ref_start = np.cumsum(self.ref_len) - self.ref_len
        # Per job, the reference sentences the numpy kernel takes: their count and their cells.
        short = self.ref_len <= _LONG_REF
        self.short_groups = np.bincount(self.group_job, weights=short, minlength=self.n_jobs)
        self.short_groups = self.short_groups.astype(np.int64)
        cells = np.bincount(self.group_job, weights=self.ref_len * short, minlength=self.n_jobs)
        self.short_cells = cells.astype(np.int64) + self.short_groups


def _blocks(batch: _Batch, candidates: np.ndarray) -> list[np.ndarray]:
    """Split candidate sentence indices into blocks bounded in pairs, table entries and cells."""
    jobs = batch.cand_job[candidates]
    pairs = batch.short_groups[jobs].tolist()
    table = batch.vocab_size[jobs].tolist()
    cells = batch.short_cells[jobs].tolist()
    blocks, start, n_pairs, n_table, n_cells = [], 0, 0, 0, 0
    for k in range(len(pairs)):
        if k > start and (
            n_pairs + pairs[k] > _BLOCK_PAIRS
            or n_table + table[k] > _BLOCK_TABLE
            or n_cells + cells[k] > _BLOCK_CELLS
        ):
            blocks.append(candidates[start:k])
            start, n_pairs, n_table, n_cells = k, 0, 0, 0
        n_pairs += pairs[k]
        n_table += table[k]
        n_cells += cells[k]
    blocks.append(candidates[start:])
    return blocks


def _block_union(batch: _Batch, block: np.ndarray, union: np.ndarray) -> None:
    """OR into ``union`` the diagonal moves of every pair whose candidate is in ``block``."""
    one, shifts, low_bits = _bit_constants()
    cand_job = batch.cand_job[block]
    # Dense mask table: candidate k of the block owns entries offset[k] .. offset[k] + V_job - 1,
    # preceded by an always-zero entry, so that local id -1 (no such candidate token) reads 0.
    width = batch.vocab_size[cand_job] + 1
    offset = np.cumsum(width) - width + 1
    table = np.zeros(int(width.sum()), dtype=np.uint64)
    cand_start = np.cumsum(batch.cand_len) - batch.cand_len
    lengths = batch.cand_len[block]
    position = positions(lengths)
    token_index = np.repeat(cand_start[block], lengths) + position
    np.bitwise_or.at(
        table,
        np.repeat(offset, lengths) + batch.cand_local[token_index],
        one << position.astype(np.uint64),
    )
    # Pairs: every candidate of the block with every short reference sentence of its job.
    per_cand = batch.n_groups[cand_job]
    pair_slot = np.repeat(np.arange(block.size), per_cand)
    pair_group = batch.group_first[cand_job][pair_slot] + positions(per_cand)
    ref_len = batch.ref_len[pair_group]
    short = np.flatnonzero(ref_len <= _LONG_REF)
    pair_slot, pair_group, ref_len = pair_slot[short], pair_group[short], ref_len[short]
    order = np.argsort(-ref_len, kind="stable")
    pair_slot, pair_group, ref_len = pair_slot[order], pair_group[order], ref_len[order]
    n_pairs, max_ref = pair_group.size, int(ref_len[0])
    # active[i]: pairs whose reference sentence has at least i tokens (a prefix, by the sort).
    active_array = np.searchsorted(-ref_len, -np.arange(max_ref + 1), side="right")
    active = active_array.tolist()
    # Ragged storage: row i holds the first active[i] pairs (row 0: all), and the masks and
    # diagonal moves of row i + 1 the first active[i + 1]; so the block costs its real cells.
    row_at = np.r_[0, np.cumsum(active_array)].tolist()
    mask_at_array = np.r_[0, np.cumsum(active_array[1:])]
    mask_at = mask_at_array.tolist()
    base = offset[pair_slot]
    widths = lengths[pair_slot]
    full = low_bits[widths]
    ref_local, ref_start = batch.ref_local, batch.ref_start[pair_group]
    # Work buffers: the loops below run once per row; writing into these instead of fresh
    # temporaries avoids an allocation (often an mmap) per numpy operation.
    index = np.empty(n_pairs, dtype=np.int64)
    local = np.empty(n_pairs, dtype=np.int64)
    a = np.empty(n_pairs, dtype=np.uint64)
    b = np.empty(n_pairs, dtype=np.uint64)
    c = np.empty(n_pairs, dtype=np.uint64)

    # Forward: bit rows; the match masks of row i are kept for the walk back.
    rows = np.empty(row_at[-1], dtype=np.uint64)
    masks = np.empty(mask_at[-1], dtype=np.uint64)
    rows[:n_pairs] = full
    for i in range(max_ref):
        k = active[i + 1]
        mask = masks[mask_at[i] : mask_at[i] + k]
        np.add(ref_start[:k], i, out=index[:k])
        np.take(ref_local, index[:k], out=local[:k])
        np.add(base[:k], local[:k], out=index[:k])
        np.take(table, index[:k], out=mask)
        prev = rows[row_at[i] : row_at[i] + k]
        # rouge_lcs.engine.lcs.lcs_step on one word per pair, written into buffers of the
        # batch (the function's expression would allocate four arrays per reference token)
        np.bitwise_and(prev, mask, out=a[:k])  # matches
        np.add(prev, a[:k], out=b[:k])
        np.subtract(prev, a[:k], out=a[:k])
        np.bitwise_or(b[:k], a[:k], out=b[:k])
        np.bitwise_and(b[:k], full[:k], out=rows[row_at[i + 1] : row_at[i + 1] + k])

    j = widths.copy()
    diag = np.zeros(mask_at[-1], dtype=bool)
    for i in range(max_ref, 0, -1):
        k = active[i]
        match = masks[mask_at[i - 1] : mask_at[i - 1] + k]
        # The backtrack of rouge_lcs.engine.lcs's module docstring, prefix-parity form.
        # Vertical difference L[i][.] - L[i-1][.]: running parity of the two rows' xor.
        x = np.bitwise_xor(
            rows[row_at[i - 1] : row_at[i - 1] + k], rows[row_at[i] : row_at[i] + k], out=a[:k]
        )
        for shift in shifts:
            np.left_shift(x, shift, out=b[:k])
            np.bitwise_xor(x, b[:k], out=x)
        # Stops: columns <= j that match or have vertical difference 0.
        np.invert(x, out=x)
        np.bitwise_or(x, match, out=x)
        np.take(low_bits, j[:k], out=b[:k])
        np.bitwise_and(x, b[:k], out=x)
        # Highest stop: smear it down, then keep the top bit (no stop: the walk has ended).
        for shift in shifts:
            np.right_shift(x, shift, out=b[:k])
            np.bitwise_or(x, b[:k], out=x)
        np.right_shift(x, one, out=b[:k])
        np.bitwise_xor(x, b[:k], out=c[:k])  # the highest stop as a one-bit mask
        np.bitwise_and(c[:k], match, out=c[:k])
        took = np.not_equal(c[:k], 0, out=diag[mask_at[i - 1] : mask_at[i - 1] + k])
        # New column: the stop's column (popcount of the smear), one less after a diagonal.
        np.subtract(popcount(x), took, out=j[:k], casting="unsafe")

    # Diagonal move at flat cell f: row r + 1 of pair f - mask_at[r], i.e. reference token r.
    cell = np.flatnonzero(diag)
    row = np.searchsorted(mask_at_array, cell, side="right") - 1
    union[ref_start[cell - mask_at_array[row]] + row] = True


def _long_ref_union(batch: _Batch, union: np.ndarray) -> None:
    """Big-int path for reference sentences longer than ``_LONG_REF`` with short candidates.

    Only the reference tokens a candidate sentence has matter: every other row of the LCS table
    equals the row above it, and rouge_score's walk goes straight up through such rows.  So each
    pair runs on the reference positions of the candidate's tokens, found with one sort of the
    reference sentence.
    """
    for g in np.flatnonzero(batch.ref_len > _LONG_REF).tolist():
        start = int(batch.ref_start[g])
        ref = batch.ref_flat[start : start + int(batch.ref_len[g])]
        order = np.argsort(ref, kind="stable")
        ordered = ref[order]
        job = int(batch.group_job[g])
        first = int(batch.cand_first[job])
        for c in range(first, first + int(batch.n_cands[job])):
            tokens = batch.cand_tokens[c]
            if len(tokens) > _WORD:
                continue  # taken with the long candidates
            distinct = np.unique(np.asarray(tokens, dtype=np.int64))
            lo = np.searchsorted(ordered, distinct, side="left")
            hi = np.searchsorted(ordered, distinct, side="right")
            keep = np.sort(order[expand(lo, hi - lo)])
            if keep.size:
                found = lcs_indices(ref[keep].tolist(), Candidate(tokens))
                union[start + keep[found]] = True


def union_lcs_hits_batch(
    jobs: Sequence[tuple[Sequence[Tokens], Sequence[Tokens]]],
) -> np.ndarray:
    """ROUGE-Lsum union-LCS hits of each ``(reference sentences, candidate sentences)`` job.

    Equal job by job to the one-pair statement in tests/engine/test_lcs.py (and so to rouge_score).
    """
    hits = np.zeros(len(jobs), dtype=np.int64)
    batch = _Batch(jobs)
    if batch.group_job.size == 0:
        return hits
    batch.local_vocabularies()
    union = np.zeros(batch.ref_flat.size, dtype=bool)  # per reference token

    long = np.flatnonzero(batch.cand_len > _WORD)
    for c in long.tolist():
        job = int(batch.cand_job[c])
        candidate = Candidate(batch.cand_tokens[c])
        first = int(batch.group_first[job])
        for g in range(first, first + int(batch.n_groups[job])):
            found = lcs_indices(batch.group_tokens[g], candidate)
            union[int(batch.ref_start[g]) + np.asarray(found, dtype=np.int64)] = True
    _long_ref_union(batch, union)
    short = np.flatnonzero((batch.cand_len <= _WORD) & (batch.short_groups[batch.cand_job] > 0))
    if short.size:
        for block in _blocks(batch, short):
            _block_union(batch, block, union)

    # Hits per job: sum over tokens of min(union occurrences, candidate occurrences) — the
    # clipping of ROUGE-1.5.5 / rouge_score, which uses each candidate occurrence at most once.
    # Both are counted per (job, token) rank; every union token is a candidate token.
    flat = np.flatnonzero(union)
    g_idx = np.searchsorted(batch.ref_start, flat, side="right") - 1
    union_local = batch.ref_local[flat]
    n_ranks = batch.rank_job.size
    union_counts = np.bincount(
        batch.job_first[batch.group_job[g_idx]] + union_local, minlength=n_ranks
    )
    cand_counts = np.bincount(batch.cand_rank, minlength=n_ranks)
    clipped = np.minimum(union_counts, cand_counts)
    return np.bincount(batch.rank_job, weights=clipped, minlength=batch.n_jobs).astype(np.int64)
