"""One switch for the stock numbers (compat="rouge_score"), the character tokenizer, ids in
the CLI's per-example CSV."""

from __future__ import annotations

import csv
import json
import subprocess
import sys

import pytest
from rouge_score import rouge_scorer

from rouge_lcs import Rouge, rouge, score

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def test_compat_rouge_score_equals_rouge_score_on_plain_text(corpora):
    # The stock metric's case: summaries as plain strings (no newlines), where our default
    # would split ROUGE-Lsum sentences with Punkt and rouge_score does not split at all.
    rows = corpora.rows("en_cnndm_realsumm")[:200]
    preds = [r["prediction"] for r in rows]
    refs = [r["references"][0] for r in rows]
    ours = score(preds, refs, TYPES, compat="rouge_score", use_stemmer=True)
    oracle = rouge_scorer.RougeScorer(TYPES, use_stemmer=True)
    changed_by_default = 0
    default = score(preds, refs, ["rougeLsum"], use_stemmer=True)
    for i, (p, r) in enumerate(zip(preds, refs)):
        expected = oracle.score(r, p)
        for k, name in enumerate(TYPES):
            assert abs(ours.fmeasure[i, k] - expected[name].fmeasure) <= 1e-12
            assert abs(ours.recall[i, k] - expected[name].recall) <= 1e-12
        changed_by_default += default.fmeasure[i, 0] != expected["rougeLsum"].fmeasure
    assert changed_by_default > 100  # why the switch exists: Punkt sentences change rougeLsum


def test_compat_rouge_score_on_korean_gives_the_stock_zero():
    got = rouge(["서울은 대한민국의 수도"], ["서울은 대한민국의 수도"], compat="rouge_score")
    assert got == {"rouge1": 0.0, "rouge2": 0.0, "rougeL": 0.0, "rougeLsum": 0.0}


def test_compat_conflicts_are_named():
    with pytest.raises(ValueError, match="tokenizer: expected 'rouge_score' or nothing"):
        Rouge(compat="rouge_score", tokenizer="unicode")
    with pytest.raises(ValueError, match="compat: expected one of"):
        Rouge(compat="rouge")
    # options the preset does not name stay free
    assert Rouge(compat="rouge_score", use_stemmer=True, beta=2.0).settings.beta == 2.0


def test_char_tokenizer_by_hand():
    # 上海是中国的城市 / 北京是中国的首都: 8 characters a side, 4 shared (是 中 国 的).
    got = rouge(["上海是中国的城市"], ["北京是中国的首都"], ["rouge1"], tokenizer="char")
    assert got["rouge1"] == pytest.approx(4 / 8)
    # Hangul syllables and a combining accent stay one character each; punctuation is dropped.
    s = score(["서울, e\u0301!"], ["서울 é"], ["rouge1"], tokenizer="char")
    assert s.fmeasure[0, 0] == 1.0
    sig = rouge(["a"], ["a"], ["rouge1"], tokenizer="char", return_signature=True)["signature"]
    assert "tok:char|norm:nfkc|case:lower" in str(sig)


def test_cli_csv_keeps_the_input_ids(tmp_path):
    data = tmp_path / "d.jsonl"
    rows = [
        {"id": "doc-7", "prediction": "a b", "reference": "a b"},
        {"id": "doc-9", "prediction": "a", "reference": "b"},
    ]
    data.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    out = tmp_path / "out.csv"
    done = subprocess.run(
        [sys.executable, "-m", "rouge_lcs", "--data", str(data), "--csv", str(out)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    table = list(csv.DictReader(out.open(encoding="utf-8")))
    assert [r["id"] for r in table] == ["doc-7", "doc-9"]
    assert [float(r["rouge1_fmeasure"]) for r in table] == [1.0, 0.0]


def test_datasets_helper_takes_a_reference_column():
    # the test extra installs datasets; dev.py test-oldest (runtime dependencies only) does not
    Dataset = pytest.importorskip("datasets").Dataset

    from rouge_lcs.integrations.datasets_scoring import add_rouge_columns

    ds = Dataset.from_dict({"prediction": ["a b", "c"], "reference": ["a b", "d"]})
    assert add_rouge_columns(ds, ["rouge1"])["rouge1"] == [1.0, 0.0]
