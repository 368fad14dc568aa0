"""Unit tests of the Space's functions (no browser): parsing, limits, rendering, scoring."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

gr = pytest.importorskip("gradio")
import app  # noqa: E402
from rouge_lcs import rouge  # noqa: E402
from rouge_lcs.explain import explain  # noqa: E402

OPTIONS = (["rouge1", "rouge2", "rougeL", "rougeLsum"], "", "unicode", False, "auto", 1.0, "max_f")


def test_parse_references_blank_line_separated():
    assert app.parse_references("a b\nc d\n\n  \ne f\n") == ["a b\nc d", "e f"]
    with pytest.raises(app.UserError, match="at least one reference"):
        app.parse_references("  \n ")
    with pytest.raises(app.UserError, match="at most"):
        app.parse_references("\n\n".join("x" for _ in range(app.MAX_REFERENCES + 1)))


def test_score_pair_korean_example():
    table, page, signature, as_dict = app.score_pair(app.KO_PREDICTION, app.KO_REFERENCE, *OPTIONS)
    assert [row[3] for row in table] == [0.4286, 0.1667, 0.2857, 0.2857]
    assert 'class="tok hit"' in page and "P = 3/7" in page
    assert signature.startswith("rouge_lcs:v") and "|refs:1|" in signature
    assert as_dict["rouge1"]["fmeasure"] == pytest.approx(3 / 7)


def test_score_pair_multiple_references_and_extra_types():
    refs = "the cat sat on the mat\n\na dog"
    table, page, _, as_dict = app.score_pair(
        "the cat sat", refs, ["rougeL"], "rouge3, ROUGE-4", "unicode", False, "auto", 1.0, "max_f"
    )
    assert [row[0] for row in table] == ["rougeL", "rouge3", "rouge4"]
    assert "Reference 1 of 2" in page and "Reference 2 of 2" in page
    expected = rouge(["the cat sat"], [["the cat sat on the mat", "a dog"]], ["rougeL"])
    assert as_dict["rougeL"]["fmeasure"] == expected["rougeL"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("", "a"), "Prediction: enter"),
        (("a" * (app.MAX_TEXT_CHARS + 1), "a"), "at most 10,000"),
        (("a", ""), "References: enter"),
    ],
)
def test_score_pair_errors_are_messages(args, message):
    with pytest.raises(gr.Error, match=message):
        app.score_pair(*args, *OPTIONS)
    with pytest.raises(gr.Error, match="ROUGE types: choose"):
        app.score_pair("a", "a", [], "", "unicode", False, "auto", 1.0, "max_f")
    with pytest.raises(gr.Error, match="rouge_types: expected"):
        app.score_pair("a", "a", [], "rougeZ", "unicode", False, "auto", 1.0, "max_f")
    with pytest.raises(gr.Error, match="beta"):
        app.score_pair("a", "a", ["rouge1"], "", "unicode", False, "auto", 0.0, "max_f")


def test_render_side_marks_and_escapes():
    html_text = app.render_side("X", [["<b>", "ok"]], [[1, 2]])
    assert "&lt;b&gt;" in html_text and 'class="tok hit"' in html_text
    assert 'class="tok clipped"' in html_text


def test_explanation_counts_equal_the_scores():
    pred = "The cat sat on the mat. The cat ran!\nA dog barked."
    ref = "The cat sat.\nThe dog barked at the cat on the mat."
    for item in explain(pred, ref, ["rouge1", "rouge2", "rougeL", "rougeLsum"], use_stemmer=True):
        expected = rouge(
            [pred], [ref], [item.rouge_type], use_stemmer=True, return_precision_recall=True
        )
        assert item.fmeasure == expected[item.rouge_type]
        assert item.recall == expected[f"{item.rouge_type}_recall"]
        ref_marked = sum(m == 1 for sent in item.reference.marks for m in sent)
        if item.rouge_type in ("rouge1", "rougeL", "rougeLsum"):
            assert ref_marked == item.hits


def test_parse_batch_upload_and_paste(tmp_path):
    jsonl = tmp_path / "d.jsonl"
    jsonl.write_text(json.dumps({"prediction": "a b", "references": ["a b", "c"]}) + "\n")
    assert app.parse_batch(str(jsonl), None) == (["a b"], [["a b", "c"]])
    csv_file = tmp_path / "d.csv"
    csv_file.write_text("prediction,reference\nx y,x z\n")
    assert app.parse_batch(str(csv_file), None) == (["x y"], [["x z"]])
    assert app.parse_batch(None, "p1\tr1\np2\tr2\tr3\n") == (["p1", "p2"], [["r1"], ["r2", "r3"]])


def test_parse_batch_errors(tmp_path, monkeypatch):
    with pytest.raises(app.UserError, match="upload a CSV or JSONL"):
        app.parse_batch(None, "")
    with pytest.raises(app.UserError, match="line 1: expected a prediction and a reference"):
        app.parse_batch(None, "only one column\n")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"prediction": "a"}\n')
    with pytest.raises(app.UserError, match="bad.jsonl: row 1 needs"):
        app.parse_batch(str(bad), None)
    big = tmp_path / "big.csv"
    big.write_text("prediction,reference\n" + "a,b\n" * 10)
    monkeypatch.setattr(app, "MAX_UPLOAD_BYTES", 20)
    with pytest.raises(app.UserError, match="Upload: .* MB"):
        app.parse_batch(str(big), None)
    monkeypatch.setattr(app, "MAX_UPLOAD_BYTES", 10**9)
    monkeypatch.setattr(app, "MAX_PAIRS", 5)
    with pytest.raises(app.UserError, match="10 pairs; this demo scores at most 5"):
        app.parse_batch(str(big), None)


def test_score_batch_outputs(tmp_path):
    data = tmp_path / "d.jsonl"
    rows = [("the cat sat", "the cat sat on the mat"), ("a dog", "the dog ran"), ("x", "y")]
    data.write_text("".join(json.dumps({"prediction": p, "reference": r}) + "\n" for p, r in rows))
    aggregate, note, per_example, plot, csv_path, signature = app.score_batch(
        str(data), None, *OPTIONS, "rougeL"
    )
    expected = rouge([p for p, _ in rows], [r for _, r in rows])
    assert [row[3] for row in aggregate] == [round(expected[k], 4) for k in expected]
    assert note.startswith("3 pairs")
    assert len(per_example) == 3
    first = rouge([rows[0][0]], [rows[0][1]], use_aggregator=False)
    assert per_example.iloc[0]["rougeL"] == round(first["rougeL"][0], 4)
    assert per_example.iloc[0]["prediction"] == rows[0][0]
    lines = Path(csv_path).read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("index,prediction,references,rouge1_precision")
    assert len(lines) == 4
    assert signature.endswith("ci:bootstrap-0.95-n1000-seed0")


def test_histogram_bins():
    import numpy as np

    frame = app.histogram(np.array([0.0, 0.05, 0.5, 1.0]))
    assert frame["examples"].tolist() == [2, 0, 0, 0, 0, 1, 0, 0, 0, 1]
