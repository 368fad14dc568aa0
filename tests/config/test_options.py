"""Hand-computed cases for beta, multi-reference modes, rouge type spellings, empty strings."""

from __future__ import annotations

import pytest

from rouge_lcs import rouge, score
from rouge_lcs.text.rouge_types import parse_rouge_types

# Every test here runs on both engines (numbers must be bit-identical).
pytestmark = pytest.mark.usefixtures("engine")

PRED = "a b c d e f"
# ref1: 6 of its 8 tokens matched: P = 1, R = 3/4, F = 6/7.  ref2: "a": P = 1/6, R = 1, F = 2/7.
REFS = ["a b c d e f g h", "a"]


def _r1(mode):
    s = score([PRED], [REFS], ["rouge1"], tokenizer="whitespace", multi_ref=mode)
    return s.precision[0, 0], s.recall[0, 0], s.fmeasure[0, 0]


def test_multi_ref_max_f_picks_best_f():
    assert _r1("max_f") == pytest.approx((1.0, 0.75, 6 / 7), abs=1e-15)


def test_multi_ref_max_recall_picks_best_recall():
    assert _r1("max_recall") == pytest.approx((1 / 6, 1.0, 2 / 7), abs=1e-15)


def test_multi_ref_pooled_sums_counts():
    # hits 6 + 1, prediction length counted per reference 6 + 6, reference lengths 8 + 1.
    p, r = 7 / 12, 7 / 9
    assert _r1("pooled") == pytest.approx((p, r, 2 * p * r / (p + r)), abs=1e-15)


def test_multi_ref_mean_averages_prf():
    assert _r1("mean") == pytest.approx(((1 + 1 / 6) / 2, 0.875, (6 / 7 + 2 / 7) / 2), abs=1e-15)


def test_multi_ref_max_f_ties_take_first_reference():
    s = score(["a b"], [["a x", "b y"]], ["rouge1", "rougeL"], tokenizer="whitespace")
    assert s.fmeasure[0].tolist() == [0.5, 0.5]


def test_varying_number_of_references():
    s = score(["a b", "c"], [["a b"], ["x", "y", "c"]], ["rouge1"])
    assert s.fmeasure[:, 0].tolist() == [1.0, 1.0]


@pytest.mark.parametrize(
    ("beta", "expected"),
    [(1.0, 0.75), (2.0, 5 * 0.6 / (0.6 + 4)), (0.5, 1.25 * 0.6 / (0.6 + 0.25))],
)
def test_beta(beta, expected):
    # P = 1, R = 0.6: F_beta = (1 + b²) P R / (R + b² P).
    s = score(["a c e"], ["a b c d e"], ["rougeL"], tokenizer="whitespace", beta=beta)
    assert s.fmeasure[0, 0] == pytest.approx(expected, abs=1e-15)


def test_large_beta_approaches_recall():
    s = score(["a c e"], ["a b c d e"], ["rougeL"], tokenizer="whitespace", beta=1e6)
    assert s.fmeasure[0, 0] == pytest.approx(0.6, abs=1e-9)


@pytest.mark.parametrize(
    ("spelling", "name"),
    [
        ("rouge1", "rouge1"),
        ("rouge-1", "rouge1"),
        ("ROUGE_1", "rouge1"),
        ("Rouge-12", "rouge12"),
        ("rougeL", "rougeL"),
        ("ROUGE-L", "rougeL"),
        ("rouge_l", "rougeL"),
        ("rougeLsum", "rougeLsum"),
        ("rougeLSum", "rougeLsum"),
        ("ROUGE-LSUM", "rougeLsum"),
        ("rouge-lsum", "rougeLsum"),
    ],
)
def test_rouge_type_spellings(spelling, name):
    assert parse_rouge_types([spelling])[0].name == name


def test_rouge_12_and_duplicates():
    text = " ".join(str(i) for i in range(13))
    result = rouge([text], [text], ["rouge12", "rouge13", "rouge-12"])
    assert result == {"rouge12": 1.0, "rouge13": 1.0}


@pytest.mark.parametrize(
    "bad",
    ["rouge0", "rougeX", "bleu", "rouge-W-0.5", "rougeW-11", "rougeS", "rougeSU-4", "rouge", ""],
)
def test_unknown_rouge_types_list_valid_names(bad):
    with pytest.raises(ValueError, match=r"rouge_types: expected 'rouge1', .* got"):
        parse_rouge_types([bad])


@pytest.mark.parametrize(("pred", "ref"), [("", "a b"), ("a b", ""), ("", ""), ("!!!", "?")])
def test_empty_texts_score_zero(pred, ref):
    result = rouge([pred], [ref], return_precision_recall=True)
    assert set(result.values()) == {0.0}


def test_output_format_matches_stock_metric():
    result = rouge(["a b", "a"], ["a b", "b"], use_aggregator=False)
    assert list(result) == ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    assert result["rouge1"] == [1.0, 0.0]
    assert all(isinstance(v, float) for v in result["rouge1"])
    agg = rouge(["a b", "a"], ["a b", "b"], return_precision_recall=True)
    assert agg["rouge1"] == 0.5 and isinstance(agg["rouge1"], float)
    assert list(agg) == [
        "rouge1",
        "rouge2",
        "rougeL",
        "rougeLsum",
        "rouge1_precision",
        "rouge1_recall",
        "rouge2_precision",
        "rouge2_recall",
        "rougeL_precision",
        "rougeL_recall",
        "rougeLsum_precision",
        "rougeLsum_recall",
    ]


def test_mean_is_exact_and_order_independent():
    preds = ["a b c", "a", "b c d e f g"] * 7
    refs = ["a b", "b", "c d"] * 7
    forward = rouge(preds, refs)
    backward = rouge(preds[::-1], refs[::-1])
    assert forward == backward
