"""LCS kernels against rouge_score's own O(m·n) table and backtrack (the oracle)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer

from rouge_lcs.lcs import Candidate, Tokens, lcs_indices, lcs_length
from rouge_lcs.lcs_batch import union_lcs_hits_batch

tokens = st.lists(st.integers(0, 5), max_size=30)
long_tokens = st.lists(st.integers(0, 9), min_size=60, max_size=140)


@given(tokens, tokens)
@settings(max_examples=400, deadline=None)
def test_lcs_indices_equal_rouge_score_backtrack(ref, cand):
    expected = rouge_scorer.lcs_ind(ref, cand) if ref and cand else []
    assert lcs_indices(ref, Candidate(cand)) == expected
    assert lcs_length(ref, cand) == len(expected)


@given(long_tokens, long_tokens)
@settings(max_examples=40, deadline=None)
def test_lcs_indices_long_sequences(ref, cand):
    assert lcs_indices(ref, Candidate(cand)) == rouge_scorer.lcs_ind(ref, cand)


def union_lcs_hits(
    ref_sentences: Sequence[Tokens],
    candidates: Sequence[Candidate],
    candidate_counts: Counter[int],
) -> int:
    """Summary-level union-LCS hits of one pair, clipped like ROUGE-1.5.5 and rouge_score.

    The plain one-pair statement of the algorithm (a test oracle): scoring uses the batched
    kernel of :mod:`rouge_lcs.lcs_batch`, checked here against this and rouge_score.

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
            if ref_set.isdisjoint(cand.positions):
                continue
            positions.update(lcs_indices(ref, cand))
        union_counts.update(ref[p] for p in positions)
    return sum(min(count, candidate_counts[token]) for token, count in union_counts.items())


def _rouge_score_union_hits(refs, cands):
    """rouge_score's _summary_level_lcs hit count, copied in spirit through its public pieces."""
    token_cnts_r, token_cnts_c = Counter(), Counter()
    for s in refs:
        token_cnts_r.update(s)
    for s in cands:
        token_cnts_c.update(s)
    hits = 0
    for r in refs:
        for t in rouge_scorer._union_lcs(r, cands):
            if token_cnts_c[t] > 0 and token_cnts_r[t] > 0:
                hits += 1
                token_cnts_c[t] -= 1
                token_cnts_r[t] -= 1
    return hits


sentences = st.lists(st.lists(st.integers(0, 6), min_size=1, max_size=80), min_size=1, max_size=4)


@given(st.lists(st.tuples(sentences, sentences), min_size=1, max_size=4))
@settings(max_examples=150, deadline=None)
def test_union_hits_single_and_batched_equal_rouge_score(jobs):
    batched = union_lcs_hits_batch(jobs).tolist()
    for (refs, cands), got in zip(jobs, batched):
        expected = _rouge_score_union_hits(refs, cands)
        counts = Counter(t for c in cands for t in c)
        assert union_lcs_hits(refs, [Candidate(c) for c in cands], counts) == expected
        assert got == expected


def test_empty_inputs():
    assert lcs_length([], [1]) == 0
    assert lcs_indices([1, 2], Candidate([])) == []
    assert union_lcs_hits_batch([([], [[1]]), ([[1]], [])]).tolist() == [0, 0]


@given(st.lists(st.tuples(sentences, sentences), min_size=1, max_size=4))
@settings(max_examples=60, deadline=None)
def test_small_blocks_give_the_same_hits(jobs):
    """Blocks bound memory on long documents; any block size must give the same hits."""
    import rouge_lcs.lcs_batch as kernel

    expected = kernel.union_lcs_hits_batch(jobs).tolist()
    saved = kernel._BLOCK_PAIRS, kernel._BLOCK_TABLE
    try:
        kernel._BLOCK_PAIRS, kernel._BLOCK_TABLE = 2, 5
        assert kernel.union_lcs_hits_batch(jobs).tolist() == expected
    finally:
        kernel._BLOCK_PAIRS, kernel._BLOCK_TABLE = saved


# --- Memory: the walk keeps checkpoint rows and a bounded mask cache (issue 15, defect 1) ---


def _prefix_parity(bits: int, width: int) -> int:
    shift = 1
    while shift < width:
        bits ^= bits << shift
        shift <<= 1
    return bits


def _reference_lcs_pairs(ref: Sequence[int], cand: Sequence[int]) -> list[tuple[int, int]]:
    """The walk as it was before: every bit row kept, a dense mask per token, the vertical
    difference as a prefix parity over the whole row (the statement the new walk must equal)."""
    masks: dict[int, int] = {}
    for position, token in enumerate(cand):
        masks[token] = masks.get(token, 0) | (1 << position)
    width, full = len(cand), (1 << len(cand)) - 1
    row, rows = full, [full]
    for token in ref:
        match = row & masks.get(token, 0)
        row = ((row + match) | (row - match)) & full
        rows.append(row)
    length = width - row.bit_count()
    found: list[tuple[int, int]] = []
    i, j = len(ref), width
    while j > 0 and len(found) < length:
        match = masks.get(ref[i - 1], 0)
        flat = ~_prefix_parity(rows[i - 1] ^ rows[i], width)
        stops = (match | flat) & ((1 << j) - 1)
        if not stops:
            break
        column = stops.bit_length()
        i -= 1
        if match >> (column - 1) & 1:
            j = column - 1
            found.append((i, j))
        else:
            j = column
    found.reverse()
    return found


any_length = st.lists(st.integers(0, 7), max_size=200)


@given(any_length, any_length, st.sampled_from([1, 2, 3, 5, 64]), st.sampled_from([0, 40, 128]))
@settings(max_examples=300, deadline=None)
def test_checkpointed_walk_equals_the_full_table_walk(ref, cand, min_rows, mask_bytes):
    """Any checkpoint depth (tiny row budgets force many levels) and any mask cache (none, some
    tokens, all) give the pairs of the all-rows walk, and rouge_score's."""
    import rouge_lcs.lcs as lcs

    expected = _reference_lcs_pairs(ref, cand)
    assert lcs.lcs_pairs(ref, Candidate(cand)) == expected
    saved = lcs._MIN_ROWS, lcs._ROW_BYTES_PER_TOKEN, lcs._MASK_BYTES_PER_TOKEN
    try:
        lcs._MIN_ROWS, lcs._ROW_BYTES_PER_TOKEN, lcs._MASK_BYTES_PER_TOKEN = min_rows, 0, mask_bytes
        assert lcs.lcs_pairs(ref, Candidate(cand)) == expected
    finally:
        lcs._MIN_ROWS, lcs._ROW_BYTES_PER_TOKEN, lcs._MASK_BYTES_PER_TOKEN = saved
    if ref and cand:
        assert [i for i, _ in expected] == rouge_scorer.lcs_ind(ref, cand)


def test_levels_fit_the_row_budget():
    import rouge_lcs.lcs as lcs

    for m, n in [(1, 1), (63, 63), (20_000, 20_000), (200_000, 200_000), (10**7, 50), (50, 10**7)]:
        strides = lcs._levels(m, n)
        assert strides[-1] == 1
        base = strides[-2] if len(strides) > 1 else m
        assert base ** len(strides) >= m  # the levels cover every row
        rows = len(strides) * base + 1
        budget = max(lcs._MIN_ROWS, lcs._ROW_BYTES_PER_TOKEN * (m + n) // lcs._int_bytes(n))
        assert rows <= budget or base <= 2


def test_long_pair_memory_is_linear():
    """A 20,000-token pair: the old walk held every row and a dense mask per token (~64 MB
    traced); now rows ≤ 64·(m + n) bytes, masks ≤ 128·n bytes, positions ~40·n bytes."""
    import random
    import tracemalloc

    r = random.Random(0)
    n = 20_000
    ref = [r.randrange(5000) for _ in range(n)]
    cand = [r.randrange(5000) for _ in range(n)]
    tracemalloc.start()
    try:
        pairs = lcs_indices(ref, Candidate(cand))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(pairs) == lcs_length(ref, cand)
    assert peak < (64 * 2 * n + 128 * n + 100 * n), peak
