"""Per-token ROUGE: prefix scores, token rewards (ROUGE tokens and model tokens), RougeState.

The oracles: rouge_score scoring each prefix as its own text; a textbook dynamic-programming
LCS and clipped n-gram count written here; where a ROUGE token ends, found by a regular
expression over the text (rouge_score's tokenizer is ``[a-z0-9]+`` after lower-casing); a
byte-level BPE trained here with Hugging Face ``tokenizers`` for model tokens.
"""

from __future__ import annotations

import math
import re
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rouge_lcs import RougeState, score
from rouge_lcs.base.validation import check_texts
from rouge_lcs.config.settings import make_settings
from rouge_lcs.integrations.rewards import rouge_reward, token_rewards
from rouge_lcs.scores.prefix import prefix_scores, token_ends

pytestmark = pytest.mark.usefixtures("engine")

TYPES = ["rouge1", "rouge2", "rouge3", "rougeL"]


def _realsumm(corpora, count: int) -> tuple[list[str], list[str]]:
    rows = corpora.rows("en_cnndm_realsumm")[:count]
    return [r["prediction"] for r in rows], [r["references"][0] for r in rows]


# --- definitions, written out ---------------------------------------------------------------


def _lcs(a: list[str], b: list[str]) -> int:
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            table[i + 1][j + 1] = (
                table[i][j] + 1 if x == y else max(table[i][j + 1], table[i + 1][j])
            )
    return table[-1][-1]


def _f(hits: float, pred: float, ref: float) -> float:
    p = hits / pred if pred else 0.0
    r = hits / ref if ref else 0.0
    return 2 * p * r / (p + r) if p + r else 0.0


def _definition(pred: list[str], ref: list[str], rouge_type: str) -> float:
    if rouge_type == "rougeL":
        return _f(_lcs(pred, ref), len(pred), len(ref))
    n = int(rouge_type[5:])
    pg = Counter(tuple(pred[i : i + n]) for i in range(len(pred) - n + 1))
    rg = Counter(tuple(ref[i : i + n]) for i in range(len(ref) - n + 1))
    return _f(sum((pg & rg).values()), sum(pg.values()), sum(rg.values()))


# --- prefix scores ----------------------------------------------------------------------------


def test_every_prefix_equals_rouge_score_on_that_prefix(corpora) -> None:
    rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer")
    preds, refs = _realsumm(corpora, 12)
    for stem in (False, True):
        options = make_settings(TYPES, tokenizer="rouge_score", use_stemmer=stem)
        prefixes = prefix_scores(check_texts(preds, refs), options)
        oracle = rouge_scorer.RougeScorer(TYPES, use_stemmer=stem)
        for i, (pred, ref) in enumerate(zip(preds, refs)):
            # rouge_score's tokens are the runs of [a-z0-9] of the lower-cased text
            ends = [m.end() for m in re.finditer(r"[a-z0-9]+", pred.lower())]
            assert token_ends(options.tokenizer, pred) == ends
            assert prefixes.lengths[i] == len(ends)
            for k in range(0, len(ends), 7):
                expected = oracle.score(ref, pred[: ends[k]])
                for name in TYPES:
                    for measure in ("precision", "recall", "fmeasure"):
                        got = prefixes.values(i, name, measure)[k]
                        assert got == pytest.approx(getattr(expected[name], measure), abs=1e-12)


@pytest.mark.parametrize("multi_ref", ["max_f", "max_recall", "pooled", "mean"])
def test_prefix_scores_are_score_bit_for_bit(corpora, multi_ref: str) -> None:
    rows = corpora.rows("en_headlines_rougemetric")[:30]
    preds = [r["prediction"] for r in rows]
    refs = [r["references"] for r in rows]
    for tokenizer, stem in (("unicode", False), ("rouge_score", True)):
        options = dict(tokenizer=tokenizer, use_stemmer=stem, multi_ref=multi_ref)
        prefixes = prefix_scores(check_texts(preds, refs), make_settings(TYPES, **options))
        settings_ = make_settings(TYPES, **options)
        for i, (pred, ref) in enumerate(zip(preds, refs)):
            ends = token_ends(settings_.tokenizer, pred)
            cut = score([pred[:e] for e in ends], [ref] * len(ends), TYPES, **options)
            for k, name in enumerate(TYPES):
                for measure in ("precision", "recall", "fmeasure"):
                    got = prefixes.values(i, name, measure)
                    assert np.array_equal(got, getattr(cut, measure)[:, k])


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sampled_from(["a", "b", "c", "d", "e"]), max_size=40),
    st.lists(st.sampled_from(["a", "b", "c", "d", "f"]), max_size=40),
)
def test_prefix_scores_equal_the_definitions(pred: list[str], ref: list[str]) -> None:
    options = make_settings(TYPES, tokenizer="whitespace")
    prefixes = prefix_scores(check_texts([" ".join(pred)], [" ".join(ref)]), options)
    for name in TYPES:
        got = prefixes.values(0, name)
        assert len(got) == len(pred)
        for k in range(len(pred)):
            assert got[k] == pytest.approx(_definition(pred[: k + 1], ref, name), abs=1e-12)


def test_long_texts_cross_the_kernels_strips() -> None:
    # 5,000-token references span several 4,096-bit strips of the LCS row
    rng = np.random.default_rng(3)
    words = [f"w{k}" for k in range(40)]
    pred = " ".join(rng.choice(words, 700))
    ref = " ".join(rng.choice(words, 5000))
    prefixes = prefix_scores(check_texts([pred], [ref]), make_settings(["rougeL"]))
    tokens_p, tokens_r = pred.split(), ref.split()
    for k in (0, 99, 350, 699):
        expected = _definition(tokens_p[: k + 1], tokens_r, "rougeL")
        assert prefixes.values(0, "rougeL")[k] == pytest.approx(expected, abs=1e-12)


# --- token rewards ----------------------------------------------------------------------------


def test_increments_sum_to_the_sequence_reward(corpora) -> None:
    preds, refs = _realsumm(corpora, 40)
    for rouge_type in ("rougeL", "rouge1", "rouge2", {"rouge1": 0.3, "rougeL": 0.7}):
        for options in ({}, {"tokenizer": "rouge_score", "use_stemmer": True}):
            dense = token_rewards(preds, refs, rouge_type=rouge_type, **options)
            sequence = rouge_reward(rouge_type, **options)(completions=preds, reference=refs)
            for row, total in zip(dense, sequence):
                assert math.fsum(row) == pytest.approx(total, abs=1e-12)
                running = np.cumsum(row)
                assert running[-1] == pytest.approx(total, abs=1e-12)


def test_several_references_and_conversations() -> None:
    completions = [[{"role": "assistant", "content": "the cat sat on the mat"}], "a dog"]
    references = [["the cat sat", "a cat on a mat"], ["the dog barked", "a dog"]]
    dense = token_rewards(completions, references, rouge_type="rouge1", multi_ref="mean")
    expected = rouge_reward("rouge1", multi_ref="mean")(
        completions=completions, reference=references
    )
    assert [math.fsum(r) for r in dense] == pytest.approx(expected, abs=1e-12)
    assert [len(r) for r in dense] == [6, 2]


def test_empty_completion_has_no_tokens() -> None:
    assert token_rewards(["", "..."], ["a b", "a b"]) == [[], []]


def test_offsets_place_each_increment_where_its_word_ends() -> None:
    text = "The cats, running quickly!"
    # model tokens that split words ("ca|ts", "runn|ing") and one that holds two ends ("s, r")
    spans = [(0, 3), (3, 6), (6, 7), (7, 11), (11, 14), (14, 17), (17, 25), (25, 26)]
    per_word = token_rewards([text], ["the cat runs quickly"], tokenizer="rouge_score")[0]
    per_model = token_rewards(
        [text], ["the cat runs quickly"], tokenizer="rouge_score", offsets=[spans]
    )[0]
    # words end at 3 (the), 8 (cats), 17 (running), 25 (quickly): model tokens 0, 3, 5, 6
    expected = [0.0] * len(spans)
    for word, model in zip(per_word, (0, 3, 5, 6)):
        expected[model] += word
    assert per_model == expected


def _bpe():
    tokenizers = pytest.importorskip("tokenizers")
    transformers = pytest.importorskip("transformers")
    corpus = [
        "the cat sat on the mat",
        "the cats are running quickly on the mat",
        "a dog ran after the cat, and the cat ran away",
        "naïve café owners don't run",
    ] * 20
    # no pre-tokenizer: merges may cross spaces, so some model tokens hold several words
    model = tokenizers.Tokenizer(tokenizers.models.BPE(unk_token=None, byte_fallback=False))
    model.normalizer = None
    model.pre_tokenizer = tokenizers.pre_tokenizers.ByteLevel(
        add_prefix_space=False, use_regex=False
    )
    model.decoder = tokenizers.decoders.ByteLevel()
    trainer = tokenizers.trainers.BpeTrainer(
        vocab_size=300,
        initial_alphabet=tokenizers.pre_tokenizers.ByteLevel.alphabet(),
        special_tokens=["<eos>"],
    )
    model.train_from_iterator(corpus, trainer)
    return transformers.PreTrainedTokenizerFast(tokenizer_object=model, eos_token="<eos>")


def test_model_tokens_of_a_real_bpe_tokenizer() -> None:
    tok = _bpe()
    texts = ["the cat sat on the mat", "the cats ran quickly, the dog sat", "naïve cafés don't"]
    refs = ["the cat sat", "a dog ran after the cat", "café owners don't run"]
    encoded = tok(texts, return_offsets_mapping=True)
    spans_seen = [len(s) for s in encoded["offset_mapping"]]
    words_in_one = any(
        " " in t.strip()
        for ids in encoded["input_ids"]
        for t in tok.batch_decode([[i] for i in ids])
    )
    assert words_in_one  # a model token holding a space: words that share a token
    per_model = token_rewards(texts, refs, offsets=encoded["offset_mapping"])
    per_word = token_rewards(texts, refs)
    options = make_settings(["rougeL"])
    for i, text in enumerate(texts):
        assert len(per_model[i]) == spans_seen[i]
        assert math.fsum(per_model[i]) == pytest.approx(math.fsum(per_word[i]), abs=1e-12)
        # each word's increment on the model token holding its last character
        expected = [0.0] * spans_seen[i]
        for end, value in zip(token_ends(options.tokenizer, text), per_word[i]):
            j = next(j for j, (s, e) in enumerate(encoded["offset_mapping"][i]) if s <= end - 1 < e)
            expected[j] += value
        assert per_model[i] == pytest.approx(expected, abs=0)
    # the same from the ids alone (decoded prefixes), with an end-of-text token appended
    ids = [row + [tok.eos_token_id] for row in encoded["input_ids"]]
    from_ids = token_rewards(None, refs, token_ids=ids, model_tokenizer=tok)
    for i in range(len(texts)):
        assert from_ids[i][:-1] == pytest.approx(per_model[i], abs=0)
        assert from_ids[i][-1] == 0.0  # the special token holds no character


def test_tensor_output() -> None:
    torch = pytest.importorskip("torch")
    out = token_rewards(["the cat sat", "a"], ["the cat", "a b"], return_tensors="pt")
    assert out.shape == (2, 3) and out.dtype == torch.float32
    assert out[1, 1:].tolist() == [0.0, 0.0]


@pytest.mark.parametrize(
    ("kwargs", "error", "names"),
    [
        ({"completions": "the cat", "references": ["x"]}, TypeError, "completions"),
        ({"completions": ["a"], "references": ["a", "b"]}, ValueError, "references"),
        (
            {"completions": ["a b"], "references": ["a"], "offsets": [[(0, 1)]]},
            ValueError,
            "offsets[0]",
        ),
        (
            {"completions": ["a b"], "references": ["a"], "offsets": [[(0, 9)]]},
            ValueError,
            "offsets[0][0]",
        ),
        (
            {"completions": ["a b"], "references": ["a"], "offsets": [[("0", 1)]]},
            TypeError,
            "offsets[0][0]",
        ),
        ({"completions": ["a b"], "references": ["a"], "offsets": []}, ValueError, "offsets"),
        (
            {"completions": ["a b"], "references": ["a"], "rouge_type": "rougeLsum"},
            ValueError,
            "rougeLsum",
        ),
        (
            {"completions": ["a b"], "references": ["a"], "token_ids": [[1]]},
            TypeError,
            "model_tokenizer",
        ),
        (
            {"completions": ["a b"], "references": ["a"], "return_tensors": "np"},
            ValueError,
            "return_tensors",
        ),
    ],
)
def test_bad_input_names_the_argument(kwargs, error, names) -> None:
    with pytest.raises(error, match=re.escape(names)):
        token_rewards(**kwargs)


# --- RougeState -------------------------------------------------------------------------------

_WORDS = ["the", "cat", "cats", "sat", "running", "on", "mat", "12,5", "don't", "北京", "是"]


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.tuples(
                st.just("text"),
                st.sampled_from(["", " ", ", ", "\n"]),
                st.sampled_from(_WORDS),
                st.integers(1, 8),
            ),
            st.tuples(
                st.just("tokens"),
                st.lists(st.sampled_from(["the", "cat", "mat", "ran"]), max_size=3),
            ),
        ),
        max_size=25,
    ),
    st.sampled_from([{}, {"tokenizer": "rouge_score", "use_stemmer": True}, {"multi_ref": "mean"}]),
)
def test_state_equals_score_after_every_push(steps, options) -> None:
    refs = ["the cat sat on the mat", "北京是首都, cats don't run"]
    state = RougeState(refs, TYPES, **options)
    text = ""
    for step in steps:
        if step[0] == "text":
            piece = step[1] + step[2][: step[3]]
            state.push(piece)
            text += piece
        else:
            state.push(step[1])
            text += " " + " ".join(step[1]) + " "
        expected = score([text], [refs], TYPES, **options)
        got = state.scores()
        for k, name in enumerate(TYPES):
            values = (expected.precision[0, k], expected.recall[0, k], expected.fmeasure[0, k])
            assert tuple(got[name]) == values


def test_copy_is_independent() -> None:
    state = RougeState("the cat sat on the mat", ["rouge2", "rougeL"]).push("the cat")
    before = state.scores()
    fork = state.copy().push(" sat on the mat")
    assert fork.scores()["rougeL"].fmeasure == 1.0
    assert state.scores() == before
    state.push(" dog")
    assert fork.scores()["rougeL"].fmeasure == 1.0


def test_state_bad_input() -> None:
    with pytest.raises(ValueError, match="rouge_types"):
        RougeState("a b", ["rougeLsum"])
    with pytest.raises(ValueError, match="references"):
        RougeState([])
    with pytest.raises(TypeError, match=re.escape("references[0]")):
        RougeState([b"a"])  # type: ignore[list-item]
    with pytest.raises(TypeError, match=re.escape("text_or_tokens[1]")):
        RougeState("a").push(["a", 3])  # type: ignore[list-item]


def test_the_benchmark_runs_on_a_tiny_input(corpora, monkeypatch) -> None:
    # benchmarks/bench_token_rewards.py on a few completions and sources, so it cannot rot
    import sys
    from pathlib import Path

    corpora.rows("en_cnndm_realsumm")  # skips or fails as the other corpus tests do
    bench = Path(__file__).resolve().parents[2] / "benchmarks"
    monkeypatch.syspath_prepend(str(bench))
    sys.modules.pop("bench_token_rewards", None)
    import bench_token_rewards

    results = bench_token_rewards.main(
        [
            "--repeats",
            "1",
            "--completions",
            "4",
            "--tokens",
            "40",
            "--sources",
            "2",
            "--candidates",
            "6",
            "--brute",
            "1",
            "--state-lengths",
            "20",
        ]
    )
    assert results["token_rewards_s"] > 0 and 0 <= results["aggregate_agreement_rouge1"] <= 1
