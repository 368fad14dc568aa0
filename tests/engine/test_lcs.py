"""LCS kernels against rouge_score's own O(m·n) table and backtrack (the oracle)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer

from rouge_lcs.engine.lcs import Candidate, Tokens, lcs_indices, lcs_length
from rouge_lcs.engine.reference.lcs_batch import union_lcs_hits_batch

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
    kernel of :mod:`rouge_lcs.engine.reference.lcs_batch`, checked here against this and
    rouge_score.

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


@given(
    st.lists(st.tuples(sentences, sentences), min_size=1, max_size=4),
    st.sampled_from([(2, 5, 3, 1), (2, 5, 10**9, 10**9), (10**9, 10**9, 7, 4), (3, 10**9, 40, 20)]),
)
@settings(max_examples=100, deadline=None)
def test_small_blocks_give_the_same_hits(jobs, limits):
    """Blocks bound memory on long documents, long reference sentences take the big-int path:
    any block size and any long-sentence threshold must give rouge_score's hits."""
    import rouge_lcs.engine.reference.lcs_batch as kernel

    expected = [_rouge_score_union_hits(refs, cands) for refs, cands in jobs]
    names = ("_BLOCK_PAIRS", "_BLOCK_TABLE", "_BLOCK_CELLS", "_LONG_REF")
    saved = [getattr(kernel, name) for name in names]
    try:
        for name, value in zip(names, limits):
            setattr(kernel, name, value)
        assert kernel.union_lcs_hits_batch(jobs).tolist() == expected
    finally:
        for name, value in zip(names, saved):
            setattr(kernel, name, value)


def _traced_peak(function, *args):
    import tracemalloc

    tracemalloc.start()
    try:
        result = function(*args)
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _words(r, n, vocabulary=5000):
    return [r.randrange(vocabulary) for _ in range(n)]


def test_one_long_reference_sentence_next_to_many_short_ones():
    """Issue 15: one 50,000-token reference sentence next to 50 short ones and 400 short
    candidate sentences padded every pair to 50,000 rows (18 GB traced); now a block costs ~17
    bytes per real cell and the long sentence takes the big-int path.  That path gives the hits
    the numpy kernel gives (checked on a smaller copy, where the numpy kernel fits)."""
    import random

    import rouge_lcs.engine.reference.lcs_batch as kernel

    r = random.Random(1)
    refs = [_words(r, 50_000)] + [_words(r, 20) for _ in range(50)]
    cands = [_words(r, r.randrange(5, 40)) for _ in range(400)]
    hits, peak = _traced_peak(union_lcs_hits_batch, [(refs, cands)])
    tokens = sum(map(len, refs)) + sum(map(len, cands))
    # A few index arrays per token, and one numpy block of at most _BLOCK_CELLS cells (~17 bytes
    # each, plus per-pair arrays); the padded kernel peaked at 18 GB here.
    assert peak < 200 * tokens + 20 * kernel._BLOCK_CELLS, peak
    assert hits[0] > 0

    small = [([refs[0][:5000]] + refs[1:], cands[:100])]
    expected = kernel.union_lcs_hits_batch(small).tolist()
    saved = kernel._LONG_REF
    try:
        kernel._LONG_REF = 10**9
        assert kernel.union_lcs_hits_batch(small).tolist() == expected
    finally:
        kernel._LONG_REF = saved


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
    import rouge_lcs.engine.lcs as lcs

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
    import rouge_lcs.engine.lcs as lcs

    for m, n in [(1, 1), (63, 63), (20_000, 20_000), (200_000, 200_000), (10**7, 50), (50, 10**7)]:
        strides = lcs._levels(m, n)
        assert strides[-1] == 1
        base = strides[-2] if len(strides) > 1 else m
        assert base ** len(strides) >= m  # the levels cover every row
        rows = len(strides) * base + 1
        budget = max(lcs._MIN_ROWS, lcs._ROW_BYTES_PER_TOKEN * (m + n) // lcs._int_bytes(n))
        assert rows <= budget or base <= 2


def test_one_line_pair_lsum_memory_is_linear_and_hits_equal_rouge_l():
    """Issue 15: a 20,000-token one-line pair; the old walk held every bit row and a dense mask
    per token (~64 MB traced).  Now rows ≤ 64·(m + n) bytes and masks ≤ 256·n; positions, ids
    and the tokenizer's lists take under 100 bytes a token (m = n: ~8 MB traced).  With one
    sentence a side, the union-LCS hits are the LCS length: ROUGE-L's count."""
    import random

    from rouge_lcs import score

    r = random.Random(0)
    n = 20_000
    prediction, reference = (" ".join(f"w{r.randrange(5000)}" for _ in range(n)) for _ in "ab")
    score([prediction], [reference], ["rougeLsum"])  # imports, caches: not the call's memory
    lsum, peak = _traced_peak(score, [prediction], [reference], ["rougeLsum"])
    assert peak < 64 * 2 * n + 256 * n + 100 * 2 * n, peak
    rouge_l = score([prediction], [reference], ["rougeL"])
    assert lsum.stats.counts.tolist() == rouge_l.stats.counts.tolist()
    assert lsum.stats.counts[0, 0, 0] == lcs_length(prediction.split(), reference.split()) > 0
