"""Token ids as input: scored as they are, on both engines.

The oracles: the same ids written as space-separated words, scored by rouge_score with a
whitespace tokenizer (ROUGE-N, L, Lsum with each sentence on its own line), and by this library
with its ``whitespace`` tokenizer for the kinds rouge_score lacks (W, S, SU); hand-worked cases.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from rouge_score import rouge_scorer as rs_scorer
from rouge_score import tokenizers as rs_tokenizers

import rouge_lcs
from rouge_lcs import Rouge, rouge, score
from rouge_lcs.dropins import rouge_scorer

pytestmark = pytest.mark.usefixtures("engine")

END = 7  # a sentence-end id in the generated data


class _Split(rs_tokenizers.Tokenizer):
    def tokenize(self, text: str) -> list[str]:
        return text.split()


def _batch(seed: int, n: int = 40, vocab: int = 12) -> tuple[list[list[int]], list[list[int]]]:
    rng = np.random.default_rng(seed)
    preds = [rng.integers(0, vocab, rng.integers(0, 30)).tolist() for _ in range(n)]
    refs = [rng.integers(0, vocab, rng.integers(1, 30)).tolist() for _ in range(n)]
    return preds, refs


def _words(ids: list[int], lines: bool = False) -> str:
    """The oracle's text: one word per id; with ``lines``, a line break after each END."""
    if not lines:
        return " ".join(map(str, ids))
    out = []
    for t in ids:
        out.append(str(t))
        out.append("\n" if t == END else " ")
    return "".join(out)


def _rouge_score(preds, refs, types, lines=False):
    scorer = rs_scorer.RougeScorer(types, tokenizer=_Split())
    return [scorer.score(_words(r, lines), _words(p, lines)) for p, r in zip(preds, refs)]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_ids_equal_rouge_score_on_the_ids_as_words(seed):
    preds, refs = _batch(seed)
    types = ["rouge1", "rouge2", "rouge3", "rougeL"]
    got = score(preds, refs, types)
    want = _rouge_score(preds, refs, types)
    for name in types:
        for kind in ("precision", "recall", "fmeasure"):
            assert got.values(name, kind) == [getattr(w[name], kind) for w in want], name


def test_lsum_sentences_end_after_the_end_ids():
    preds, refs = _batch(3, vocab=9)
    got = score(preds, refs, ["rougeLsum"], sentence_end_ids=[END])
    want = _rouge_score(preds, refs, ["rougeLsum"], lines=True)
    assert got.values("rougeLsum", "fmeasure") == [w["rougeLsum"].fmeasure for w in want]
    # without sentence ends a sequence is one sentence: ROUGE-Lsum is ROUGE-L
    plain = score(preds, refs, ["rougeLsum", "rougeL"])
    assert plain.values("rougeLsum", "fmeasure") == plain.values("rougeL", "fmeasure")


@pytest.mark.parametrize("types", [["rougeW-1.2", "rougeS4", "rougeSU4", "rougeS*"]])
def test_other_kinds_equal_the_whitespace_tokenizer(types):
    preds, refs = _batch(4)
    got = score(preds, refs, types)
    texts = score(
        [_words(p) for p in preds], [_words(r) for r in refs], types, tokenizer="whitespace"
    )
    for name in got.rouge_types:
        assert got.values(name, "fmeasure") == texts.values(name, "fmeasure"), name


def test_hand_worked():
    # prediction 1 2 3 4, reference 1 3 4 5: unigrams 3 of 4, bigram (3, 4) 1 of 3, LCS 1 3 4
    out = rouge([[1, 2, 3, 4]], [[1, 3, 4, 5]], ["rouge1", "rouge2", "rougeL"])
    assert out == {"rouge1": 0.75, "rouge2": pytest.approx(1 / 3), "rougeL": 0.75}


def test_every_container_gives_the_same_numbers():
    preds, refs = _batch(5, n=6)
    want = score(preds, refs, ["rouge1", "rougeL"]).values("rougeL", "fmeasure")
    tuples = score([tuple(p) for p in preds], [tuple(r) for r in refs], ["rouge1", "rougeL"])
    arrays = score(
        [np.array(p, dtype=np.int32) for p in preds],
        [np.array(r, dtype=np.uint16) for r in refs],
        ["rouge1", "rougeL"],
    )
    assert tuples.values("rougeL", "fmeasure") == want
    assert arrays.values("rougeL", "fmeasure") == want


def test_a_2d_array_is_a_batch_with_padding_cut():
    preds, refs = _batch(6, n=5)
    width = max(map(len, preds))
    pad = 99
    right = np.full((5, width + 2), pad, dtype=np.int64)
    left = np.full((5, width + 2), pad, dtype=np.int64)
    for k, p in enumerate(preds):
        right[k, : len(p)] = p
        left[k, right.shape[1] - len(p) :] = p
    want = score(preds, refs, ["rouge1", "rougeL"])
    for padded in (right, left):
        got = score(padded, refs, ["rouge1", "rougeL"], pad_id=pad)
        assert got.values("rougeL", "fmeasure") == want.values("rougeL", "fmeasure")
        assert got.values("rouge1", "recall") == want.values("rouge1", "recall")
    # without pad_id the padding is scored as ids
    unpadded = score(right, refs, ["rouge1"]).values("rouge1", "precision")
    assert unpadded != want.values("rouge1", "precision")


def _strip(row: list[int], pad: int) -> list[int]:
    """A row with ``pad`` cut from both ends, by hand (the padding inside kept)."""
    start, stop = 0, len(row)
    while start < stop and row[start] == pad:
        start += 1
    while stop > start and row[stop - 1] == pad:
        stop -= 1
    return row[start:stop]


def test_padded_arrays_cut_both_ends_and_keep_inner_padding():
    # padding on the left, the right, both, inside a row (kept), rows all padding; ids past
    # int32 (read by NumPy's path) and a padding id past them.  The references (lists) are
    # cut the same way.
    pad = 5
    rows = [
        [5, 5, 1, 2, 5, 3, 5],
        [1, 2, 3, 4, 6, 5, 5],
        [5, 5, 5, 5, 5, 5, 5],
        [6, 1, 6, 2, 6, 3, 6],
        [5, 1, 5, 5, 5, 5, 5],
    ]
    refs = [[1, 2, 5, 3, 5], [2, 5, 4], [1], [6, 6, 1], [5, 1]]
    types = ["rouge1", "rouge2", "rougeL"]
    for shift in (0, 1 << 31):
        ids = [[t + shift for t in r] for r in rows]
        ref_ids = [[t + shift for t in r] for r in refs]
        want = _rouge_score(
            [_strip(r, pad + shift) for r in ids], [_strip(r, pad + shift) for r in ref_ids], types
        )
        got = score(np.array(ids, dtype=np.int64), ref_ids, types, pad_id=pad + shift)
        for name in types:
            assert got.values(name, "fmeasure") == [w[name].fmeasure for w in want], name
    from rouge_lcs.engine.backend import backend

    cut = backend().cut_rows(np.array(rows, dtype=np.int64), pad)
    if cut is not None:  # the native engine's pass: the rows as cut by hand, int32
        assert cut[0].tolist() == [t for r in rows for t in _strip(r, pad)]
        assert cut[1].tolist() == [len(_strip(r, pad)) for r in rows]
    assert backend().cut_rows(np.array([[1, -2, 5]], dtype=np.int64), pad) is None
    assert backend().cut_rows(np.array([[1, 1 << 31]], dtype=np.int64), pad) is None
    assert backend().cut_rows(np.array([[1, 2]], dtype=np.int32), pad) is None


def test_torch_tensors():
    torch = pytest.importorskip("torch")
    preds, refs = _batch(7, n=4)
    want = score(preds, refs, ["rouge2", "rougeL"])
    got = score(
        [torch.tensor(p) for p in preds], [torch.tensor(r) for r in refs], ["rouge2", "rougeL"]
    )
    assert got.values("rouge2", "fmeasure") == want.values("rouge2", "fmeasure")
    with pytest.raises(TypeError, match=r"predictions\[0\]: .*bool"):
        score([torch.tensor([True, False])], [[1]], ["rouge1"])
    # a 2-D tensor is a batch, its padding cut (99: an id no sequence holds)
    width = max(map(len, preds)) + 1
    batch = torch.full((len(preds), width), 99)
    for k, p in enumerate(preds):
        batch[k, : len(p)] = torch.tensor(p)
    got = score(batch, refs, ["rouge2", "rougeL"], pad_id=99)
    assert got.values("rougeL", "fmeasure") == want.values("rougeL", "fmeasure")


def test_several_references_max_f():
    preds, refs = _batch(8, n=10)
    refs2 = [[r, list(reversed(r))] for r in refs]
    got = score(preds, refs2, ["rouge2"]).values("rouge2", "fmeasure")
    scorer = rs_scorer.RougeScorer(["rouge2"], tokenizer=_Split())
    want = [
        scorer.score_multi([_words(x) for x in rr], _words(p))["rouge2"].fmeasure
        for p, rr in zip(preds, refs2)
    ]
    assert got == want


def test_rouge_scorer_drop_in_and_rouge_object():
    preds, refs = _batch(9, n=8)
    want = _rouge_score(preds, refs, ["rouge1", "rougeL"])
    drop_in = rouge_scorer.RougeScorer(["rouge1", "rougeL"])
    assert drop_in.score(refs[0], preds[0]) == want[0]
    assert drop_in.score_batch(refs, preds) == want
    assert drop_in.score_multi([refs[1], [1, 2]], preds[1])["rougeL"].fmeasure >= (
        want[1]["rougeL"].fmeasure
    )
    kept = Rouge(["rouge1"])
    assert kept.score(preds, refs).values("rouge1", "fmeasure") == [
        w["rouge1"].fmeasure for w in want
    ]


def test_large_ids_are_renumbered_with_the_same_counts():
    preds, refs = _batch(10, n=6)
    big = 1 << 40
    shifted = score([[t + big for t in p] for p in preds], [[t + big for t in r] for r in refs])
    plain = score(preds, refs)
    for name in plain.rouge_types:
        assert shifted.values(name, "fmeasure") == plain.values(name, "fmeasure")
    top = (1 << 63) - 1
    assert rouge([[top, 1]], [[1, top]], ["rouge1"]) == {"rouge1": 1.0}


@pytest.mark.parametrize(
    ("predictions", "references", "error", "match"),
    [
        ([[1, -2]], [[1]], ValueError, r"predictions: expected token ids >= 0, got -2"),
        ([[1], [2]], [[1], [4, -3]], ValueError, r"references: expected token ids >= 0, got -3"),
        ([[1]], [[1 << 64]], ValueError, r"references\[0\]: expected token ids from 0"),
        ([np.array([1 << 63], dtype=np.uint64)], [[1]], ValueError, "predictions: expected"),
        ([np.array([1.0, 2.0])], [[1]], TypeError, r"predictions\[0\]: expected integer"),
        ([np.array([True, False])], [[1]], TypeError, r"predictions\[0\]: .*bool"),
        ([[1, True]], [[1]], TypeError, r"predictions\[0\]\[1\]: expected an int"),
        ([[1, 2.5]], [[1]], TypeError, r"predictions\[0\]\[1\]: expected an int"),
        ([[1, [2, 3]]], [[1]], TypeError, r"predictions\[0\]\[1\]: expected an int"),
        ([[[1, 2], [3]]], [[1]], TypeError, r"predictions\[0\]: expected a sequence of token"),
        ([[1, 2]], [[[1, [2]]]], TypeError, r"references\[0\]\[0\]\[1\]"),
        (np.zeros((2, 2, 2), np.int64), [[1], [1]], ValueError, "predictions: expected a list"),
        ([[1, 2]], ["1 2"], ValueError, r"references\[0\]: .*cannot be mixed"),
        (["1 2", [1, 2]], [[1], [2]], ValueError, r"predictions\[0\]: .*cannot be mixed"),
        ([[1, 2], "1 2"], [[1], [2]], ValueError, r"predictions\[1\]: .*cannot be mixed"),
        ([[1]], [[1], [2]], ValueError, "same number of examples"),
        ([[1]], [[[]], [1]], ValueError, "same number of examples"),
        ([[1]], [[[1], 1.5]], TypeError, r"references\[0\]\[1\]"),
        ([], [], ValueError, None),
    ],
)
def test_hostile_id_inputs(predictions, references, error, match):
    with pytest.raises(error, match=match):
        score(predictions, references, ["rouge1"])


def test_empty_sequences_score_zero():
    out = score([[], [1, 2]], [[1], []], ["rouge1", "rougeL", "rougeSU4"])
    assert out.values("rouge1", "fmeasure") == [0.0, 0.0]
    assert out.values("rougeSU4", "recall") == [0.0, 0.0]


def test_text_options_are_refused_for_ids():
    for options, name in (
        ({"use_stemmer": True}, "use_stemmer"),
        ({"tokenizer": "whitespace"}, "tokenizer"),
        ({"language": "de"}, "language"),
        ({"lsum_split": str.splitlines}, "lsum_split"),
    ):
        with pytest.raises(ValueError, match=f"^{name}: does not apply to token ids"):
            score([[1, 2]], [[1]], ["rouge1"], **options)
    with pytest.raises(TypeError, match="pad_id: expected an int"):
        score([[1, 2]], [[1]], pad_id=1.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="sentence_end_ids: expected"):
        score([[1, 2]], [[1]], sentence_end_ids=".")  # type: ignore[arg-type]


def test_importing_the_package_imports_no_torch():
    code = (
        "import sys, rouge_lcs; rouge_lcs.rouge([[1, 2]], [[1]]); assert 'torch' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
    assert rouge_lcs.rouge([[1, 2]], [[2]], ["rouge1"]) == {"rouge1": pytest.approx(2 / 3)}


def test_the_engines_one_pass_over_lists_of_ints():
    from rouge_lcs.engine.backend import backend

    read = backend().int_lists([[1, 2], (3,), [], [(1 << 63) - 1, 0]])
    assert read is not None
    assert read[0].tolist() == [1, 2, 3, (1 << 63) - 1, 0]
    assert read[1].tolist() == [2, 1, 0, 2]
    assert backend().int_lists([[-1]])[0].tolist() == [-1]  # type: ignore[index]  # checked later
    # one-digit ints are read inline, others by CPython's conversion: both sides of the
    # digit's edge (2**30), negative ones, zeros made at run time, int64's ends
    edges = [(1 << 30) - 1, 1 << 30, -(1 << 30), 1 - (1 << 30), int("0"), -5, 1 << 62]
    edges += [-(1 << 63), 300, int("123456"), (1 << 31) + 7]
    read = backend().int_lists([edges[:5], [], edges[5:]])
    assert read is not None
    assert read[0].tolist() == edges
    assert read[1].tolist() == [5, 0, 6]
    for other in (
        [[1, True]],
        [[1, 2.0]],
        [[1, 1 << 64]],
        [[np.int64(1)]],
        [[1, [2]]],
        [np.array([1])],
        ["1"],
    ):
        assert backend().int_lists(other) is None, other
    with pytest.raises(TypeError, match="int_lists: expected a list"):
        backend().int_lists((1, 2))  # type: ignore[arg-type]


def test_shared_reference_lists_are_read_once_with_the_same_numbers():
    preds, refs = _batch(11, n=16)
    shared = [refs[k - k % 4] for k in range(16)]  # groups of 4 share one list object
    copies = [list(r) for r in shared]
    a = score(preds, shared, ["rouge2", "rougeL"])
    b = score(preds, copies, ["rouge2", "rougeL"])
    c = score([tuple(p) for p in preds], [np.array(r) for r in copies], ["rouge2", "rougeL"])
    for name in ("rouge2", "rougeL"):
        assert (
            a.values(name, "fmeasure") == b.values(name, "fmeasure") == c.values(name, "fmeasure")
        )


def test_groups_sharing_a_reference_equal_rouge_score():
    # A trainer's batch: groups of completions against one reference (the same list object,
    # counted once per group).  References of 1 to 130 ids (one and two 64-bit words and past
    # them: 63, 64, 65, 127, 128, 129), groups of 1 to 9 (four walked at a time and the rest),
    # completions from empty to longer than the reference.
    rng = np.random.default_rng(21)
    preds, refs = [], []
    for ref_len in (1, 2, 5, 63, 64, 65, 100, 127, 128, 129, 130):
        for size in (1, 2, 4, 5, 9):
            ref = rng.integers(0, 9, ref_len).tolist()
            for _ in range(size):
                preds.append(rng.integers(0, 9, rng.integers(0, 2 * ref_len + 2)).tolist())
                refs.append(ref)
    types = ["rouge1", "rouge2", "rouge3", "rougeL"]
    want = _rouge_score(preds, refs, types)
    for num_threads in (1, 2):
        got = Rouge(types, num_threads=num_threads).score(preds, refs)
        for name in types:
            for kind in ("precision", "recall", "fmeasure"):
                assert got.values(name, kind) == [getattr(w[name], kind) for w in want], name


def test_arrays_of_texts_stay_texts():
    texts = np.array(["a b c", "d"], dtype=object)
    want = rouge(["a b c", "d"], ["a b", "d e"], ["rouge1"])
    assert rouge(texts, np.array(["a b", "d e"]), ["rouge1"]) == want
    assert rouge(list(texts), ["a b", "d e"], ["rouge1"]) == want


def test_threads_give_the_same_counts():
    preds, refs = _batch(12, n=300)
    types = ["rouge1", "rouge2", "rougeL", "rougeSU4"]
    one = Rouge(types, num_threads=1).score(preds, refs)
    two = Rouge(types, num_threads=2).score(preds, refs)
    for name in one.rouge_types:
        assert one.values(name, "fmeasure") == two.values(name, "fmeasure")


def test_an_empty_reference_list_of_texts_is_not_ids():
    # texts with an empty reference list: the text check's error, not a mixing one
    with pytest.raises(ValueError, match=r"references\[0\]: expected at least one reference"):
        score(["a"], [[]], ["rouge1"])
    assert score([[], [1, 2]], [[1], [2]], ["rouge1"]).values("rouge1", "recall") == [0.0, 1.0]


def _padded(seqs, width, pad, left=False):
    out = np.full((len(seqs), width), pad, dtype=np.int64)
    mask = np.zeros((len(seqs), width), dtype=np.int64)
    for k, s in enumerate(seqs):
        where = slice(width - len(s), width) if left else slice(0, len(s))
        out[k, where], mask[k, where] = s, 1
    return out, mask


def test_a_masked_batch_keeps_what_its_mask_keeps():
    preds, refs = _batch(11, n=6, vocab=8)
    types = ["rouge1", "rouge2", "rouge3", "rougeL"]
    want = _rouge_score(preds, refs, types)
    width = max(map(len, preds + refs)) + 3
    end = 3  # the padding id is also an id the sequences hold (GPT-2 pads with its end id)
    for left in (False, True):
        p_ids, p_mask = _padded(preds, width, end, left)
        r_ids, r_mask = _padded(refs, width, end, left)
        masked_p = {"input_ids": p_ids, "attention_mask": p_mask}
        masked_r = {"input_ids": r_ids, "attention_mask": r_mask.astype(bool)}
        got = score(masked_p, masked_r, types)
        for name in types:
            assert got.values(name, "recall") == [w[name].recall for w in want], name
        # a pad_id given beside a mask is not applied to the masked batch
        assert score(masked_p, masked_r, types, pad_id=end).values("rougeL") == got.values("rougeL")
    # the mask cuts positions anywhere, not only at the ends
    inner = {"input_ids": [[1, 9, 2], [4, 5, 6]], "attention_mask": [[1, 0, 1], [1, 1, 1]]}
    assert score(inner, [[1, 2], [4, 5, 6]], ["rouge2"]).values("rouge2") == [1.0, 1.0]
    # one example's references as a masked 2-D batch; a 1-D masked sequence
    several = {"input_ids": np.array([[1, 2, 0], [7, 0, 0]]), "attention_mask": [[1, 1, 0]] * 2}
    assert score([[1, 2]], [several], ["rouge1"]).values("rouge1") == [1.0]
    one = {"input_ids": [1, 2, 8], "attention_mask": [1, 1, 0]}
    assert score([one], [[1, 2]], ["rouge1"]).values("rouge1") == [1.0]


def test_masked_tensors_and_lists():
    torch = pytest.importorskip("torch")
    preds, refs = _batch(12, n=4)
    want = score(preds, refs, ["rougeL"]).values("rougeL")
    ids, mask = _padded(preds, max(map(len, preds)) + 1, 0)
    for masked in (
        {"input_ids": torch.from_numpy(ids), "attention_mask": torch.from_numpy(mask)},
        {"input_ids": ids.tolist(), "attention_mask": mask.tolist()},
        {"input_ids": ids},  # no mask: as the array, pad_id cuts
    ):
        pad = 0 if "attention_mask" not in masked else None
        assert score(masked, refs, ["rougeL"], pad_id=pad).values("rougeL") == want


@pytest.mark.parametrize(
    ("masked", "error", "match"),
    [
        ({"input_ids": [[1, 2]], "attention_mask": [[1]]}, ValueError, "expected the shape"),
        ({"input_ids": [[1, 2]], "attention_mask": [[1, -1]]}, ValueError, "0 \\(cut\\) or 1"),
        ({"input_ids": [[1, 2]], "attention_mask": [[0.5, 1]]}, TypeError, "a mask of 0 and 1"),
        ({"input_ids": [[1, 2]], "attention_mask": "11"}, TypeError, "attention_mask"),
        ({"input_ids": [[1, 2], [1]], "attention_mask": [[1, 1], [1]]}, ValueError, "one length"),
        ({"input_ids": [[1.0, 2.0]], "attention_mask": [[1, 1]]}, TypeError, "input_ids"),
        ({"input_ids": [[[1]]], "attention_mask": [[[1]]]}, ValueError, "input_ids"),
    ],
)
def test_hostile_masks_name_the_argument(masked, error, match):
    with pytest.raises(error, match=r"predictions\['.*" + match):
        score(masked, [[1, 2]], ["rouge1"])


def test_lists_with_padding_are_cut_as_arrays_are():
    # hand-worked: the padding (0) cut from both ends, the 0 inside kept
    got = score([[0, 1, 2, 0], [0, 5, 0, 6]], [[1, 2, 0], [5, 0, 6, 0]], ["rouge1"], pad_id=0)
    assert got.values("rouge1") == [1.0, 1.0]
    uncut = score([[0, 1, 2, 0]], [[1, 2]], ["rouge1"]).values("rouge1", "precision")
    assert uncut == [0.5]
