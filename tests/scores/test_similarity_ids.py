"""rouge_lcs.similarity on token ids, on both engines.

The oracles: the real rouge_score package on the same ids written as space-separated words
(split on whitespace), its pairs scored one by one; the plain greedy loop of the Self-Instruct /
Alpaca pipelines and MBR's mean written out on those scores; hand-worked cells.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from rouge_score import rouge_scorer as rs_scorer
from rouge_score import tokenizers as rs_tokenizers

from rouge_lcs.similarity import SimilarityIndex, cdist, dedup, extract, mbr

pytestmark = pytest.mark.usefixtures("engine")

MEASURES = ("precision", "recall", "fmeasure")


class _Split(rs_tokenizers.Tokenizer):
    def tokenize(self, text: str) -> list[str]:
        return text.split()


def _words(ids) -> str:
    return " ".join(map(str, list(ids)))


def _oracle(queries, choices, rouge_type="rougeL", measure="fmeasure") -> np.ndarray:
    """rouge_score on every (query, choice) pair of the ids as words."""
    scorer = rs_scorer.RougeScorer([rouge_type], tokenizer=_Split())
    out = np.zeros((len(queries), len(choices)))
    for i, q in enumerate(queries):
        for j, c in enumerate(choices):
            out[i, j] = getattr(scorer.score(_words(c), _words(q))[rouge_type], measure)
    return out


def _seqs(seed: int, n: int, vocab: int = 9, low: int = 0, high: int = 12) -> list[list[int]]:
    rng = np.random.default_rng(seed)
    return [rng.integers(1, vocab, rng.integers(low, high)).tolist() for _ in range(n)]


@pytest.mark.parametrize("rouge_type", ["rougeL", "rouge1", "rouge2"])
@pytest.mark.parametrize("measure", MEASURES)
def test_cdist_equals_rouge_score_on_the_ids_as_words(rouge_type, measure):
    queries, choices = _seqs(0, 17), _seqs(1, 23)
    got = cdist(queries, choices, rouge_type=rouge_type, measure=measure)
    want = _oracle(queries, choices, rouge_type, measure)
    assert got.tolist() == want.tolist()
    # the same ids as words through the library's whitespace tokenizer: the same cells
    words = cdist(
        [_words(q) for q in queries],
        [_words(c) for c in choices],
        rouge_type=rouge_type,
        measure=measure,
        tokenizer="whitespace",
    )
    assert got.tolist() == words.tolist()


def test_hand_worked_cell():
    # LCS of 1 2 3 and 1 3 is 2: P = 2/3, R = 1, F = 0.8; nothing shared with 4
    assert cdist([[1, 2, 3]], [[1, 3], [4]]).tolist() == [[0.8, 0.0]]


def test_every_container_gives_the_same_matrix():
    torch = pytest.importorskip("torch")
    queries, choices = _seqs(2, 6, low=1), _seqs(3, 5, low=1)
    want = _oracle(queries, choices).tolist()
    width = max(map(len, queries + choices)) + 2
    padded = np.full((len(queries), width), 0, dtype=np.int64)
    left = np.full((len(queries), width), 0, dtype=np.int64)
    for i, q in enumerate(queries):
        padded[i, : len(q)] = q
        left[i, width - len(q) :] = q
    mask = (padded != 0).astype(np.int64)
    forms = [
        [tuple(q) for q in queries],
        [np.asarray(q, dtype=np.int32) for q in queries],
        [torch.tensor(q) for q in queries],
        padded,
        left,
        torch.from_numpy(padded),
        {"input_ids": padded, "attention_mask": mask},
        {"input_ids": torch.from_numpy(padded), "attention_mask": torch.from_numpy(mask)},
        {"input_ids": padded.tolist(), "attention_mask": mask.astype(bool).tolist()},
    ]
    for form in forms:
        assert cdist(form, choices, pad_id=0).tolist() == want, type(form)


def test_a_mask_keeps_a_padding_id_that_is_also_the_end_id():
    # GPT-2 pads with its end-of-text id: pad_id would cut the real one, the mask keeps it
    eos = 5
    ids = np.array([[1, 2, eos, eos, eos], [3, eos, eos, eos, eos]])
    mask = np.array([[1, 1, 1, 0, 0], [1, 1, 0, 0, 0]])
    choices = [[1, 2, eos], [3, eos]]
    got = cdist({"input_ids": ids, "attention_mask": mask}, choices)
    assert got.tolist() == _oracle([[1, 2, eos], [3, eos]], choices).tolist()
    cut = cdist(ids, choices, pad_id=eos)  # the padding id cuts the end ids too, everywhere
    assert cut.tolist() == _oracle([[1, 2], [3]], [[1, 2], [3]]).tolist()
    assert cut.tolist() != got.tolist()


def test_large_and_sparse_ids():
    big = [[2**40, 7, 2**62], [7, 2**40], [3]]
    small = [[0, 1, 2], [1, 0], [3]]  # the same equalities
    assert cdist(big, big).tolist() == cdist(small, small).tolist()
    assert cdist(big, big).tolist() == _oracle(small, small).tolist()


def test_extract_hands_back_the_choices_as_given():
    choices = [[1, 3], (4,), np.array([1, 2, 3])]
    found = extract([1, 2, 3], choices, limit=2)
    assert [(i, s) for _, s, i in found] == [(2, 1.0), (0, 0.8)]
    assert found[0][0] is choices[2] and found[1][0] is choices[0]


@pytest.mark.parametrize("rouge_type", ["rougeL", "rouge1"])
@pytest.mark.parametrize("prefilter", [True, False])
def test_dedup_equals_the_plain_loop_on_rouge_score(rouge_type, prefilter):
    texts = _seqs(4, 60, vocab=6, low=1, high=8)
    threshold = 0.6
    scorer = rs_scorer.RougeScorer([rouge_type], tokenizer=_Split())
    kept: list[int] = []
    for i, t in enumerate(texts):
        best = max(
            (scorer.score(_words(texts[j]), _words(t))[rouge_type].fmeasure for j in kept),
            default=0.0,
        )
        if best <= threshold:
            kept.append(i)
    got = dedup(texts, threshold=threshold, rouge_type=rouge_type, prefilter=prefilter)
    assert got.kept == kept
    assert 0 < len(kept) < len(texts)  # the case decides something


def test_dedup_with_seeds_of_ids():
    seeds = [[1, 2, 3]]
    assert dedup([[1, 2, 3], [4, 5]], seeds=seeds, threshold=0.7).kept == [1]


def test_similarity_index_of_ids():
    texts = _seqs(5, 30, low=1)
    queries = _seqs(6, 8, low=1)
    index = SimilarityIndex(texts[:10])
    index.add(np.array(texts[10:20][:3] and [[1, 2, 0, 0], [3, 0, 0, 0]]))  # a 2-D batch, no pad
    want = _oracle(queries, texts[:10] + [[1, 2, 0, 0], [3, 0, 0, 0]])
    for q, row in zip(queries, want):
        assert index.max_score(q) == max(row.tolist())
    tops = index.top_matches(queries, limit=3)
    for row, top in zip(want, tops):
        assert [s for _, s in top] == sorted(row.tolist(), reverse=True)[:3]
    assert index.extract(queries[0], limit=1)[0][0] in index.texts
    padded = SimilarityIndex(pad_id=0)
    padded.add(np.array([[1, 2, 0, 0], [3, 0, 0, 0]]))
    assert padded.max_score([3]) == 1.0


def test_mbr_equals_the_mean_of_rouge_score():
    sources = [_seqs(7, 6, low=1), _seqs(8, 4, low=1)]
    results = mbr(sources, return_matrix=True)
    for cands, result in zip(sources, results):
        matrix = _oracle(cands, cands)
        want = [
            math.fsum(v for j, v in enumerate(row) if j != i) / (len(cands) - 1)
            for i, row in enumerate(matrix.tolist())
        ]
        assert result.scores == want
        assert result.index == want.index(max(want))
    one = mbr(np.array([[1, 2, 0], [1, 2, 3]]), pad_id=0)
    assert one.index in (0, 1) and one.scores == [0.8, 0.8]


def test_mbr_aggregate_on_ids_equals_the_ids_as_words():
    cands = _seqs(9, 7, low=1)
    got = mbr(cands, rouge_type="rouge2", method="aggregate")
    words = mbr(
        [_words(c) for c in cands], rouge_type="rouge2", method="aggregate", tokenizer="whitespace"
    )
    assert got.scores == words.scores and got.index == words.index


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda: cdist([[1, 2]], ["a b"]), ValueError, "choices: expected token ids like"),
        (lambda: cdist(["a b"], [[1, 2]]), ValueError, "choices: expected texts like"),
        (lambda: cdist([[1, 2]], [[1, 2.5]]), TypeError, r"choices\[0\]\[1\]: expected an int"),
        (lambda: cdist([[1, -2]], [[1]]), ValueError, "queries"),
        (lambda: cdist([[1]], [[1]], pad_id=-1), ValueError, "pad_id"),
        (lambda: cdist([[1]], [[1]], use_stemmer=True), ValueError, "use_stemmer"),
        (lambda: cdist([[1]], [[1]], tokenizer="whitespace"), ValueError, "tokenizer"),
        (lambda: dedup([[1], [2]], seeds=["a"]), ValueError, "seeds: expected token ids"),
        (lambda: extract([1, 2], ["a"]), ValueError, "choices: expected token ids like query"),
        (lambda: mbr([[[1]], ["a"]]), ValueError, r"candidates\[1\]"),
        (
            lambda: cdist({"input_ids": [[1, 2]], "attention_mask": [[1]]}, [[1]]),
            ValueError,
            r"queries\['attention_mask'\]: expected the shape",
        ),
        (
            lambda: cdist({"input_ids": [[1, 2]], "attention_mask": [[1, 2]]}, [[1]]),
            ValueError,
            r"queries\['attention_mask'\]: expected 0 \(cut\) or 1",
        ),
        (
            lambda: cdist({"input_ids": [[1, 2]], "attention_mask": [[1.0, 0.0]]}, [[1]]),
            TypeError,
            r"queries\['attention_mask'\]",
        ),
        (
            lambda: cdist({"input_ids": [[1, 2], [3]], "attention_mask": [[1, 1], [1]]}, [[1]]),
            ValueError,
            r"queries\['input_ids'\]: expected rows of one length",
        ),
    ],
)
def test_hostile_inputs_name_the_argument(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_an_index_refuses_the_other_kind():
    index = SimilarityIndex([[1, 2]])
    with pytest.raises(ValueError, match="texts: expected token ids"):
        index.add(["a b"])
    with pytest.raises(ValueError, match="query: expected token ids"):
        index.max_score("a b")
    texts = SimilarityIndex(["a b"])
    with pytest.raises(ValueError, match="texts: expected texts"):
        texts.add([[1, 2]])
    stemmed = SimilarityIndex(use_stemmer=True)
    with pytest.raises(ValueError, match="use_stemmer"):
        stemmed.add([[1, 2]])
