"""The evaluate module: loading offline, drop-in behaviour, add_batch, combine, doctests."""

from __future__ import annotations

import doctest
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import evaluate
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rouge_lcs import rouge

REPO = Path(__file__).resolve().parents[2]

SCRIPT = REPO / "rouge_lcs_metric.py"
KO_PRED = "서울은 대한민국의 수도이며 인구는 약 구백만 명이다"
KO_REF = "서울의 인구는 약 천만 명이고 대한민국의 수도이다"


@pytest.fixture(scope="module")
def metric():
    return evaluate.load(str(SCRIPT))


def test_load_from_file_path_and_korean_example(metric):
    result = metric.compute(predictions=[KO_PRED], references=[KO_REF])
    assert {k: round(v, 4) for k, v in result.items()} == {
        "rouge1": 0.4286,
        "rouge2": 0.1667,
        "rougeL": 0.2857,
        "rougeLsum": 0.2857,
    }


def test_load_from_folder_named_after_the_module(tmp_path):
    folder = tmp_path / "rouge_lcs_metric"
    folder.mkdir()
    shutil.copy(SCRIPT, folder / "rouge_lcs_metric.py")
    loaded = evaluate.load(str(folder))
    assert loaded.compute(predictions=["a b"], references=["a b"])["rouge1"] == 1.0


def test_loads_with_no_network_at_all(tmp_path):
    """A fresh process with offline flags and every socket refused still loads and computes."""
    code = textwrap.dedent(
        f"""
        import socket
        def refuse(*a, **k):
            raise OSError("network disabled in this test")
        socket.socket.connect = refuse
        socket.create_connection = refuse
        import evaluate
        m = evaluate.load({str(SCRIPT)!r})
        print(m.compute(predictions=["a b"], references=["a c"])["rouge1"])
        """
    )
    env = {
        "HF_HUB_OFFLINE": "1",
        "HF_EVALUATE_OFFLINE": "1",
        "HOME": str(tmp_path),
        "PATH": "/usr/bin:/bin",
    }
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "0.5"


def test_info_declares_description_citation_features(metric):
    info = metric.info
    assert "ROUGE" in info.description
    assert "Lin, Chin-Yew" in info.citation and "2004" in info.citation
    assert len(metric._info().features) == 2
    assert "rouge_types" in info.inputs_description


def test_inputs_description_examples_run(metric, monkeypatch):
    """The examples in the module's docstring are doctests; run them from the repo root."""
    monkeypatch.chdir(REPO)
    module = sys.modules[type(metric).__module__]
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in finder.find(module._KWARGS_DESCRIPTION, "inputs_description", globs={}):
        runner.run(test)
    assert runner.failures == 0 and runner.tries >= 4


def test_same_as_library_and_stock_output_shape(metric):
    preds = ["the cat sat on the mat", "hello there"]
    refs = [["the cat sat on a rug", "a cat was on the mat"], ["hello world"]]
    assert metric.compute(predictions=preds, references=refs) == rouge(preds, refs)
    per_example = metric.compute(predictions=preds, references=refs, use_aggregator=False)
    assert set(per_example) == {"rouge1", "rouge2", "rougeL", "rougeLsum"}
    assert all(isinstance(v, list) and len(v) == 2 for v in per_example.values())


def test_every_option_passes_through(metric):
    kwargs = dict(
        rouge_types=["rouge-1", "ROUGE-L"],
        use_stemmer=True,
        tokenizer="whitespace",
        lsum_split="newline",
        multi_ref="pooled",
        beta=2.0,
        return_precision_recall=True,
    )
    preds, refs = ["running cats"], [["run cat", "cats"]]
    assert metric.compute(predictions=preds, references=refs, **kwargs) == rouge(
        preds, refs, **kwargs
    )


texts = st.lists(st.sampled_from(["a", "b", "c", "서울", "東"]), max_size=6).map(" ".join)


@given(st.lists(st.tuples(texts, texts), min_size=1, max_size=8), st.data())
@settings(max_examples=15, deadline=None)
def test_any_add_batch_split_gives_the_same_result(metric, pairs, data):
    preds, refs = map(list, zip(*pairs))
    cut = sorted(data.draw(st.sets(st.integers(1, max(1, len(preds) - 1)), max_size=3)))
    bounds = [0, *[c for c in cut if c < len(preds)], len(preds)]
    for lo, hi in zip(bounds, bounds[1:]):
        if hi > lo:
            metric.add_batch(predictions=preds[lo:hi], references=refs[lo:hi])
    assert metric.compute() == rouge(preds, refs)


def test_compute_with_lists_skips_arrow_but_not_the_checks(metric):
    # One process, nothing added: the lists are scored directly (no Arrow round trip), with the
    # same numbers as through add_batch, the same checks, and nothing left behind.
    preds, refs = ["the cat sat", "a b c"], [["the cat sat down", "a cat"], "a c"]
    direct = metric.compute(predictions=preds, references=refs, use_stemmer=True)
    metric.add_batch(predictions=preds, references=refs)
    stored = metric.compute(use_stemmer=True)
    assert direct == stored == rouge(preds, refs, use_stemmer=True)
    with pytest.raises(ValueError, match=r"predictions\[1\]: expected valid Unicode"):
        metric.compute(predictions=["ok", "a\ud800"], references=["x", "y"])
    with pytest.raises(TypeError, match="references: expected a list, got NoneType"):
        metric.compute(predictions=preds)
    # A batch added before is scored together with the one passed to compute.
    metric.add_batch(predictions=["a"], references=["a"])
    assert metric.compute(predictions=["b"], references=["c"]) == rouge(["a", "b"], ["a", "c"])


def test_add_then_compute(metric):
    metric.add(prediction="a b", reference="a b")
    metric.add(prediction="a", reference="b")
    assert metric.compute(rouge_types=["rouge1"]) == {"rouge1": 0.5}


def test_works_inside_combine(metric, tmp_path):
    other = tmp_path / "length_gap.py"
    other.write_text(
        textwrap.dedent("""
        import datasets
        import evaluate


        class LengthGap(evaluate.Metric):
            def _info(self):
                return evaluate.MetricInfo(
                    description="", citation="", inputs_description="",
                    features=datasets.Features({"predictions": datasets.Value("string"),
                                                "references": datasets.Value("string")}),
                )

            def _compute(self, predictions, references):
                return {"length_gap": sum(len(p) - len(r) for p, r in zip(predictions, references))}
        """)
    )
    combined = evaluate.combine([metric, evaluate.load(str(other))])
    result = combined.compute(predictions=["a b"], references=["a b c"])
    assert result["rouge1"] == pytest.approx(0.8) and result["length_gap"] == -2


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        (dict(predictions=["a"], references=["a", "b"]), ValueError, "same length"),
        (dict(predictions=[None], references=["a"]), TypeError, r"predictions\[0\]"),
        (dict(predictions=["a"], references=[["a", 3]]), TypeError, r"references\[0\]\[1\]"),
        (dict(predictions=[], references=[]), ValueError, "at least one prediction"),
        (dict(predictions=["a"], references=["a"], rouge_types=["rougeZ"]), ValueError, "rouge"),
        (dict(predictions=["a"], references=["a"], beta=0), ValueError, "beta"),
        (dict(predictions=["a"], references=["a"], multi_ref="x"), ValueError, "multi_ref"),
    ],
)
def test_bad_input_through_evaluate(metric, kwargs, error, message):
    with pytest.raises(error, match=message):
        metric.compute(**kwargs)


def test_script_without_the_library_names_the_install_line(tmp_path):
    # Downloaded alone into an environment without rouge_lcs: one clear ImportError.
    code = (
        "import sys, importlib.util\n"
        "sys.modules['rouge_lcs'] = None\n"
        "spec = importlib.util.spec_from_file_location('m', sys.argv[1])\n"
        "spec.loader.exec_module(importlib.util.module_from_spec(spec))\n"
    )
    script = Path(__file__).resolve().parents[2] / "rouge_lcs_metric.py"
    done = subprocess.run([sys.executable, "-c", code, str(script)], capture_output=True, text=True)
    assert done.returncode == 1
    assert "needs the rouge_lcs library: pip install rouge-lcs" in done.stderr.splitlines()[-1]


def test_token_ids_are_scored_by_compute(metric):
    # hand-worked: prediction 1 2 3 4, reference 1 3 4 5: 3 of 4 unigrams, LCS 1 3 4
    got = metric.compute(
        predictions=[[1, 2, 3, 4]], references=[[1, 3, 4, 5]], rouge_types=["rouge1", "rougeL"]
    )
    assert got == {"rouge1": 0.75, "rougeL": 0.75}
    with pytest.raises(ValueError, match="cannot be mixed"):
        metric.compute(predictions=[[1, 2]], references=["1 2"])
    with pytest.raises(ValueError, match="add and add_batch store texts"):
        metric.add_batch(predictions=[[1, 2]], references=[[1, 2]])
