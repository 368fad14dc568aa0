"""The compiled engine chosen or not: the environment variable, the fallback without the
extension, and the native path that needs no NumPy.
"""

from __future__ import annotations

import os
import subprocess
import sys
import warnings

import pytest
from native_helpers import (
    needs_native,
)

from rouge_lcs import score
from rouge_lcs.engine import native


def test_environment_variable_selects_the_engine(monkeypatch):
    monkeypatch.setenv(native.ENV, "python")
    assert native.implementation() == "python" and not native.active()
    monkeypatch.setenv(native.ENV, "fortran")
    with pytest.raises(ValueError, match=native.ENV):
        native.implementation()


@needs_native
def test_native_is_the_default_when_built(monkeypatch):
    monkeypatch.delenv(native.ENV, raising=False)
    assert native.implementation() == "native"


def test_forced_native_without_extension_is_an_import_error(monkeypatch):
    monkeypatch.setattr(native, "_native", None)
    monkeypatch.setenv(native.ENV, "native")
    with pytest.raises(ImportError, match="rouge_lcs._native"):
        native.implementation()


def test_missing_extension_warns_once_and_falls_back(monkeypatch):
    monkeypatch.setattr(native, "_native", None)
    monkeypatch.setattr(native, "_warned", False)
    monkeypatch.delenv(native.ENV, raising=False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        first = score(["a b"], ["a c"], ["rouge1"]).fmeasure
        second = score(["a b"], ["a c"], ["rouge1"]).fmeasure
    assert first[0, 0] == second[0, 0] == 0.5
    assert sum("compiled extension" in str(w.message) for w in caught) == 1


_NO_EXTENSION = """
import sys
import threading
sys.modules["rouge_lcs._native"] = None  # as if the extension had not been built
from rouge_lcs import rouge
print(rouge(["the cat sat on the mat"], ["the cat sat on a rug"], ["rouge1"])["rouge1"])
print(rouge(["a b"], ["a c"], ["rouge1"])["rouge1"])
"""


@pytest.mark.parametrize("forced", [None, "native", "python"])
def test_without_the_extension(forced):
    # A fresh interpreter where rouge_lcs._native cannot be imported: the default warns once
    # and scores with the Python engine; forcing native is a clear ImportError.
    env = {k: v for k, v in os.environ.items() if k != native.ENV}
    if forced:
        env[native.ENV] = forced
    done = subprocess.run(
        [sys.executable, "-c", _NO_EXTENSION], capture_output=True, text=True, env=env
    )
    if forced == "native":
        assert done.returncode != 0
        assert "ImportError" in done.stderr and f"{native.ENV}=python" in done.stderr
        return
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [repr(2 / 3), "0.5"]
    warned = done.stderr.count("compiled extension is not available")
    assert warned == (1 if forced is None else 0)


NO_NUMPY_CALL = """
import sys
from rouge_lcs import rouge, Rouge
preds = ["The cat sat on the mat. It was happy.", "a b c"]
refs = [["The cat sat on a rug.\\nIt purred.", "x y"], ["a b d"]]
assert rouge(preds, refs)["rouge1"] > 0
rouge(preds, refs, use_aggregator=False, return_precision_recall=True, return_signature=True)
rouge(preds, refs, tokenizer="rouge_score", use_stemmer=True, multi_ref="pooled")
Rouge(["rouge1", "rougeL"]).score(preds, refs).mean()
loaded = sorted(m for m in sys.modules if m.split(".")[0] == "numpy" and "." in m)
print(loaded)
"""


@needs_native
def test_the_native_path_scores_without_importing_numpy():
    # A fresh process's first call: NumPy's import was most of it; the native engine goes
    # from texts to the evaluate-style output and the means with plain buffers.
    env = {**os.environ, "ROUGE_LCS_IMPLEMENTATION": "native"}
    done = subprocess.run(
        [sys.executable, "-c", NO_NUMPY_CALL], capture_output=True, text=True, env=env, check=True
    )
    assert done.stdout.strip() == "[]", done.stdout
