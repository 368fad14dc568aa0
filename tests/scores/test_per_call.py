"""The per-call path (one example: ``RougeScorer.score``, ``Rouge.score([p], [r])``,
``rouge_lcs.score`` / ``rouge`` with one example, the evaluate module's ``hub.compute``) gives
the batch path's numbers to the bit and rouge_score's on real pairs, on both engines, and the
same errors as the batch path; the engine is chosen as documented."""

from __future__ import annotations

import os

import pytest
from rouge_score import rouge_scorer as oracle_scorer

import rouge_lcs
from rouge_lcs import Rouge
from rouge_lcs.dropins import rouge_scorer
from rouge_lcs.engine import compute, native
from rouge_lcs.integrations import hub
from rouge_lcs.scores import scorer as scorer_module
from rouge_lcs.scores.results import Scores

pytestmark = pytest.mark.usefixtures("engine")

RS_TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
#: every kind the library scores (the rouge_score kinds above, and ROUGE-1.5.5's)
ALL_TYPES = [*RS_TYPES, "rouge3", "rougeW", "rougeS4", "rougeSU*"]


def _rows(corpora, name: str, limit: int) -> tuple[list[str], list[list[str]]]:
    preds, refs = [], []
    for row in corpora.rows(name)[:limit]:
        if "prediction_sents" in row:
            preds.append("\n".join(row["prediction_sents"]))
            refs.append(["\n".join(s) for s in row["references_sents"]])
        else:
            preds.append(row["prediction"])
            refs.append(list(row["references"]))
    return preds, refs


def _batch(scorer: Rouge, prediction: str, references: list[str]) -> Scores:
    """The batch path's scores of one example (``stats`` runs the batch engine)."""
    return Scores.from_stats(scorer.stats([prediction], [references]), scorer.settings)


def _table(scores: Scores) -> dict[str, list[tuple[float, float, float]]]:
    return {
        name: list(zip(*(scores.values(name, m) for m in ("precision", "recall", "fmeasure"))))
        for name in scores.rouge_types
    }


def _spy(monkeypatch) -> list[str]:
    """The engine of each one-example call of the two per-call paths: a scorer's plan in C
    (``Rouge.score``'s batch of one, ``scores_plan``) and :class:`compute.OnePair` (the plan's
    fallback, the rewards' and the drop-ins' one-pair calls)."""
    calls: list[str] = []
    real = compute.OnePair.__call__

    def one_pair(path, *args):
        calls.append(type(path._engine).__name__)
        return real(path, *args)

    real_plan = scorer_module.scores_plan

    def scores_plan(settings, make, fallback):
        plan = real_plan(settings, make, fallback)
        if plan is fallback:  # no plan of its own: the calls reach OnePair
            return plan

        def spied(predictions, references):
            calls.append("NativeBackend")  # only the native engine makes a plan in C
            return plan(predictions, references)

        return spied

    monkeypatch.setattr(compute.OnePair, "__call__", one_pair)
    monkeypatch.setattr(scorer_module, "scores_plan", scores_plan)
    # the functional calls' kept scorers, whose plans were made before the spy
    monkeypatch.setattr(scorer_module, "_FUNCTION_SCORERS", {})
    return calls


@pytest.mark.parametrize("use_stemmer", [False, True], ids=["nostem", "stem"])
def test_rouge_scorer_score_equals_rouge_score_and_the_batch_path(
    corpora, use_stemmer, monkeypatch
):
    preds, refs = _rows(corpora, "en_cnndm_realsumm", 40)
    ours = rouge_scorer.RougeScorer(RS_TYPES, use_stemmer=use_stemmer)
    theirs = oracle_scorer.RougeScorer(RS_TYPES, use_stemmer=use_stemmer)
    plans, slow = [], []
    real_plan, real_slow = Rouge._pair_plan, rouge_scorer.RougeScorer._slow_score
    monkeypatch.setattr(Rouge, "_pair_plan", lambda *a: plans.append(a) or real_plan(*a))
    monkeypatch.setattr(
        rouge_scorer.RougeScorer, "_slow_score", lambda *a: slow.append(a) or real_slow(*a)
    )
    got = [ours.score(r[0], p) for p, r in zip(preds, refs)]
    # the per-call plan did score them: made once (one thread), never falling back
    assert (len(plans), slow) == (1, [])
    assert got == [theirs.score(r[0], p) for p, r in zip(preds, refs)]
    assert got == ours.score_batch([r[0] for r in refs], preds)
    assert all(type(s.fmeasure) is float for d in got for s in d.values())


@pytest.mark.parametrize("use_stemmer", [False, True], ids=["nostem", "stem"])
def test_score_multi_equals_rouge_score_on_several_references(corpora, use_stemmer):
    preds, refs = _rows(corpora, "en_headlines_rougemetric", 60)
    assert any(len(r) > 1 for r in refs)
    ours = rouge_scorer.RougeScorer(RS_TYPES, use_stemmer=use_stemmer)
    theirs = oracle_scorer.RougeScorer(RS_TYPES, use_stemmer=use_stemmer)
    got = [ours.score_multi(r, p) for p, r in zip(preds, refs)]
    assert got == [theirs.score_multi(r, p) for p, r in zip(preds, refs)]
    assert got == ours.score_batch(refs, preds)


@pytest.mark.parametrize("multi_ref", ["max_f", "max_recall", "pooled", "mean"])
@pytest.mark.parametrize("use_stemmer", [False, True], ids=["nostem", "stem"])
def test_rouge_one_example_equals_the_batch_path_for_every_kind(corpora, use_stemmer, multi_ref):
    preds, refs = _rows(corpora, "en_headlines_rougemetric", 25)
    realsumm = _rows(corpora, "en_cnndm_realsumm", 15)
    scorer = Rouge(ALL_TYPES, use_stemmer=use_stemmer, multi_ref=multi_ref, beta=1.5)
    for p, r in zip(preds + realsumm[0], refs + realsumm[1]):
        expected = _table(_batch(scorer, p, r))
        assert _table(scorer.score([p], [r])) == expected
        if len(r) == 1:
            assert _table(scorer.score([p], r)) == expected
            assert _table(scorer.score((p,), (r[0],))) == expected


@pytest.mark.parametrize("tokenizer", ["unicode", "rouge_score", "whitespace", "char"])
@pytest.mark.parametrize("lsum_split", ["auto", "newline", "nltk"])
def test_tokenizers_and_splitters_on_the_per_call_path(corpora, tokenizer, lsum_split):
    preds, refs = _rows(corpora, "en_cnndm_realsumm", 12)
    scorer = Rouge(RS_TYPES, tokenizer=tokenizer, lsum_split=lsum_split, use_stemmer=True)
    for p, r in zip(preds, refs):
        assert _table(scorer.score([p], r)) == _table(_batch(scorer, p, r))


def test_functional_calls_and_the_metric_compute_equal_the_batch_path(corpora, monkeypatch):
    preds, refs = _rows(corpora, "en_cnndm_realsumm", 10)
    scorer = Rouge(RS_TYPES, use_stemmer=True)
    calls = _spy(monkeypatch)
    for p, r in zip(preds, refs):
        batch = _batch(scorer, p, r)
        assert _table(rouge_lcs.score([p], r, RS_TYPES, use_stemmer=True)) == _table(batch)
        expected = {name: batch.values(name)[0] for name in RS_TYPES}
        assert rouge_lcs.rouge([p], r, RS_TYPES, use_stemmer=True) == expected
        assert hub.compute([p], [r], rouge_types=RS_TYPES, use_stemmer=True) == expected
        out = rouge_lcs.rouge([p], r, RS_TYPES, use_stemmer=True, use_aggregator=False)
        assert out == {name: [v] for name, v in expected.items()}
    assert len(calls) == 4 * len(preds)


def test_long_texts_take_the_batch_kernel_with_the_same_numbers(corpora):
    preds, refs = _rows(corpora, "en_cnndm_realsumm", 200)
    long_pred, long_ref = "\n".join(preds), "\n".join(r[0] for r in refs)
    assert len(long_pred) + len(long_ref) > native.PAIR_MAX_CHARS
    ours = rouge_scorer.RougeScorer(RS_TYPES, use_stemmer=True)
    theirs = oracle_scorer.RougeScorer(RS_TYPES, use_stemmer=True)
    assert ours.score(long_ref, long_pred) == theirs.score(long_ref, long_pred)


BAD = [
    (["a"], [None], TypeError, r"references\[0\]: expected str or a list of str, got NoneType"),
    (["a"], [[]], ValueError, r"references\[0\]: expected at least one reference"),
    (["a"], [["b", 3]], TypeError, r"references\[0\]\[1\]: expected str, got int"),
    ([None], ["b"], TypeError, r"predictions\[0\]: expected str, got NoneType"),
    ([b"a"], ["b"], TypeError, r"predictions\[0\]: expected str, got bytes"),
    (["a"], ["b", "c"], ValueError, "expected lists of the same length"),
    ("a", ["b"], TypeError, "predictions: expected a list, got str"),
    (["a"], "b", TypeError, "references: expected a list, got str"),
]


@pytest.mark.parametrize(("predictions", "references", "error", "message"), BAD)
def test_one_example_errors_are_the_batch_paths(predictions, references, error, message):
    scorer = Rouge(["rouge1"])
    with pytest.raises(error, match=message):
        scorer.score(predictions, references)
    with pytest.raises(error, match=message):  # the batch path: the same check and message
        scorer.stats(predictions, references)
    with pytest.raises(error, match=message):
        rouge_lcs.rouge(predictions, references, ["rouge1"])


def test_rouge_scorer_errors_name_the_argument():
    scorer = rouge_scorer.RougeScorer(["rouge1"])
    with pytest.raises(TypeError, match="target: expected str, got NoneType"):
        scorer.score(None, "a")
    with pytest.raises(TypeError, match="prediction: expected str, got list"):
        scorer.score("a", ["a"])
    with pytest.raises(TypeError, match=r"targets\[1\]: expected str, got int"):
        scorer.score_multi(["a", 1], "a")


def test_a_str_subclass_is_scored_by_its_characters():
    class Loud(str):
        def lower(self):  # never called: the text is scored by its characters
            return "zzz"

    theirs = oracle_scorer.RougeScorer(["rouge1"]).score("the cat", "the cat")
    assert rouge_scorer.RougeScorer(["rouge1"]).score(Loud("the cat"), Loud("the cat")) == theirs
    assert _table(Rouge(["rouge1"]).score([Loud("the cat")], [Loud("the cat")]))["rouge1"] == [
        (1.0, 1.0, 1.0)
    ]


def test_the_engine_is_chosen_per_scorer_when_it_first_scores_one_pair(monkeypatch, engine):
    # docs/engines.md: a scorer's one-pair calls keep the engine in use at its first such call;
    # a new scorer (and every functional call) reads ROUGE_LCS_IMPLEMENTATION again.
    if not native.available():
        pytest.skip("the compiled extension is not built")
    stores = _spy(monkeypatch)
    first = Rouge(["rougeL"])
    monkeypatch.setenv(native.ENV, "python")
    first.score(["a b"], ["a c"])
    monkeypatch.setenv(native.ENV, "native")
    first.score(["a b"], ["a c"])  # kept: python
    second = Rouge(["rougeL"])
    second.score(["a b"], ["a c"])  # a new scorer: native
    rouge_lcs.score(["a b"], ["a c"], ["rougeL"])
    monkeypatch.setenv(native.ENV, "python")
    rouge_lcs.score(["a b"], ["a c"], ["rougeL"])  # functional calls read it each time
    python, native_ = "PythonBackend", "NativeBackend"
    assert stores == [python, python, native_, native_, python]
    monkeypatch.setenv(native.ENV, "fortran")
    with pytest.raises(ValueError, match=native.ENV):
        Rouge(["rougeL"]).score(["a"], ["a"])
    assert os.environ[native.ENV] == "fortran"
