"""Every worked example of ../shared/seeds/, with values computed in those documents."""

from __future__ import annotations

import subprocess
import sys

import pytest

from rouge_lcs import rouge, score

# Every test here runs on both engines (numbers must be bit-identical).
pytestmark = pytest.mark.usefixtures("engine")

KO_PRED = "서울은 대한민국의 수도이며 인구는 약 구백만 명이다"
KO_REF = "서울의 인구는 약 천만 명이고 대한민국의 수도이다"


def test_korean_example_with_defaults():
    """003: rouge1 3/7, rouge2 1/6, rougeL 2/7, rougeLsum = rougeL for one sentence."""
    result = rouge([KO_PRED], [KO_REF])
    assert {k: round(v, 4) for k, v in result.items()} == {
        "rouge1": 0.4286,
        "rouge2": 0.1667,
        "rougeL": 0.2857,
        "rougeLsum": 0.2857,
    }
    assert result["rouge1"] == pytest.approx(3 / 7, abs=1e-15)
    assert result["rouge2"] == pytest.approx(1 / 6, abs=1e-15)
    assert result["rougeL"] == pytest.approx(2 / 7, abs=1e-15)


def test_korean_example_precision_recall_counts():
    s = score([KO_PRED], [KO_REF], ["rouge1", "rouge2", "rougeL"])
    # 003: R = P = 3/7 for unigrams, 1/6 for bigrams, 2/7 for the LCS [인구는, 약].
    assert s.precision[0].tolist() == pytest.approx([3 / 7, 1 / 6, 2 / 7], abs=1e-15)
    assert s.recall[0].tolist() == pytest.approx([3 / 7, 1 / 6, 2 / 7], abs=1e-15)


def test_korean_multi_sentence_lsum_corrected():
    """003's Lsum example: LCS(r1, P) = [인구는, 약, 명이다] = 3 (the document says 2, missing
    명이다), LCS(r2, P) = [서울은, 대한민국의] = 2, so recall = (3 + 2) / (5 + 3) = 5/8."""
    s = score(
        [KO_PRED], ["서울의 인구는 약 천만 명이다\n서울은 대한민국의 수도이다"], ["rougeLsum"]
    )
    assert s.recall[0, 0] == 5 / 8
    assert s.precision[0, 0] == 5 / 7


def test_reversed_order_rouge1_vs_rougeL():
    """003: R = [A, B, C], P = [C, B, A]: ROUGE-1 = 1.0, ROUGE-L = 1/3."""
    result = rouge(["C B A"], ["A B C"], ["rouge1", "rougeL"])
    assert result["rouge1"] == 1.0
    assert result["rougeL"] == pytest.approx(1 / 3, abs=1e-15)


def test_precision_dilution_formula():
    """003: R = 1/1, P = 1/4 gives F1 = 0.4 (the document's numbers; tokens written so they
    match, since 교향곡 and 교향곡을 are different tokens)."""
    s = score(["바그너는 교향곡 쓰려 했다"], ["교향곡"], ["rouge1"])
    assert (s.recall[0, 0], s.precision[0, 0]) == (1.0, 0.25)
    assert s.fmeasure[0, 0] == pytest.approx(0.4, abs=1e-15)


def test_synonyms_and_numbers_score_zero():
    """003's limitations: 기쁘다 / 행복하다 and 2023년 / 2024년 share no token."""
    assert rouge(["행복하다"], ["기쁘다"], ["rouge1"])["rouge1"] == 0.0
    assert rouge(["2024년"], ["2023년"], ["rouge1"])["rouge1"] == 0.0


def test_rouge_l_exercise():
    """001: reference a b c d e, candidate a c e: P = 1, R = 0.6, F1 = 0.75."""
    s = score(["a c e"], ["a b c d e"], ["rougeL"], tokenizer="whitespace")
    assert (s.precision[0, 0], s.recall[0, 0]) == (1.0, 0.6)
    assert round(s.fmeasure[0, 0], 4) == 0.75


def test_rouge_n_exercise():
    """002: clipped unigram overlap 4 of 6 reference unigrams."""
    s = score(
        ["the cat sat on the mat"], ["the cat sat on a rug"], ["rouge1"], tokenizer="whitespace"
    )
    assert s.recall[0, 0] == pytest.approx(4 / 6, abs=1e-15)


def test_rouge_n_reference_too_short_is_zero():
    """002: if the reference has no n-grams the score is 0.0."""
    s = score(["the cat sat"], ["cat"], ["rouge2"], tokenizer="whitespace")
    assert (s.precision[0, 0], s.recall[0, 0], s.fmeasure[0, 0]) == (0.0, 0.0, 0.0)


def test_moved_word_breaks_bigrams_not_lcs():
    """000: "yesterday" moved to the front costs ROUGE-2 one bigram and ROUGE-L one token."""
    pred = "Yesterday, the President announced new economic policies."
    ref = "The President announced new economic policies yesterday"
    s = score([pred], [ref], ["rouge1", "rouge2", "rougeL"])
    assert s.recall[0].tolist() == pytest.approx([1.0, 5 / 6, 6 / 7], abs=1e-15)


def test_f_beta_formula_of_seed_000():
    """000: F = (1 + b^2) R P / (R + b^2 P). With P = 1, R = 0.6, b = 1.2:
    2.44 * 0.6 / (0.6 + 1.44) = 1.464 / 2.04."""
    s = score(["a c e"], ["a b c d e"], ["rougeL"], tokenizer="whitespace", beta=1.2)
    assert s.fmeasure[0, 0] == pytest.approx(1.464 / 2.04, abs=1e-15)


@pytest.mark.parametrize(
    ("command", "stdin", "stdout"),
    [
        ("l-f1", "a b c d e\na c e\n", "0.7500\n"),
        ("n-recall", "1\nthe cat sat on the mat\nthe cat sat on a rug\n", "0.6667\n"),
    ],
)
def test_exercise_formats_byte_for_byte(command, stdin, stdout):
    done = subprocess.run(
        [sys.executable, "-m", "rouge_lcs", command],
        input=stdin.encode(),
        capture_output=True,
        check=True,
    )
    assert done.stdout == stdout.encode()
