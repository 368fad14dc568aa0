"""Per-example parity with Google's rouge-score (the oracle; a test dependency only).

With ``tokenizer="rouge_score"`` every precision, recall and F must equal rouge_score's to
1e-12 on every pair of the English corpora in ../shared/data, stemming on and off, single and
multiple references.  Sentences are joined with "\\n" so that both split ROUGE-Lsum by line.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from rouge_score import rouge_scorer, tokenizers

from rouge_lcs import score
from rouge_lcs.text.tokenizers import resolve_tokenizer, unicode_tokenize

# Every test here runs on both engines (numbers must be bit-identical).
pytestmark = pytest.mark.usefixtures("engine")

TYPES = ["rouge1", "rouge2", "rouge3", "rougeL", "rougeLsum"]
CORPORA = ["en_cnndm_realsumm", "en_cnndm_chen2018_sacrerouge", "en_headlines_rougemetric"]


def _texts(row: dict) -> tuple[str, list[str]]:
    pred = "\n".join(row["prediction_sents"]) if "prediction_sents" in row else row["prediction"]
    if "references_sents" in row:
        refs = ["\n".join(sents) for sents in row["references_sents"]]
    else:
        refs = row["references"]
    return pred, refs


def _assert_parity(ours, expected: list[dict], types: list[str]) -> None:
    for k, name in enumerate(types):
        for measure in ("precision", "recall", "fmeasure"):
            want = np.array([getattr(e[name], measure) for e in expected])
            got = getattr(ours, measure)[:, k]
            worst = np.max(np.abs(got - want))
            assert worst <= 1e-12, f"{name} {measure}: max |diff| {worst}"


@pytest.mark.parametrize("use_stemmer", [False, True], ids=["nostem", "stem"])
@pytest.mark.parametrize("corpus", CORPORA)
def test_parity_first_reference(corpora, corpus, use_stemmer):
    rows = corpora.rows(corpus)
    preds, refs = zip(*(_texts(r) for r in rows))
    first = [r[0] for r in refs]
    scorer = rouge_scorer.RougeScorer(TYPES, use_stemmer=use_stemmer)
    expected = [scorer.score(ref, pred) for pred, ref in zip(preds, first)]
    ours = score(list(preds), first, TYPES, tokenizer="rouge_score", use_stemmer=use_stemmer)
    _assert_parity(ours, expected, TYPES)


@pytest.mark.parametrize("use_stemmer", [False, True], ids=["nostem", "stem"])
def test_parity_multi_reference_max_f(corpora, use_stemmer):
    rows = corpora.rows("en_headlines_rougemetric")
    preds, refs = zip(*(_texts(r) for r in rows))
    assert all(len(r) == 4 for r in refs)
    scorer = rouge_scorer.RougeScorer(TYPES, use_stemmer=use_stemmer)
    expected = [scorer.score_multi(list(ref), pred) for pred, ref in zip(preds, refs)]
    ours = score(
        list(preds),
        [list(r) for r in refs],
        TYPES,
        tokenizer="rouge_score",
        use_stemmer=use_stemmer,
        multi_ref="max_f",
    )
    _assert_parity(ours, expected, TYPES)


def test_parity_lsum_only_and_sentence_split_with_nltk_style_text(corpora):
    """rouge_score tokenizes sentence by sentence for Lsum; so do we, even without newlines."""
    rows = corpora.rows("en_cnndm_realsumm")[:300]
    preds = [r["prediction"] for r in rows]  # sentences joined by spaces: one "line"
    refs = [r["references"][0] for r in rows]
    scorer = rouge_scorer.RougeScorer(["rougeLsum"])
    expected = [scorer.score(ref, pred) for pred, ref in zip(preds, refs)]
    ours = score(preds, refs, ["rougeLsum"], tokenizer="rouge_score", lsum_split="newline")
    _assert_parity(ours, expected, ["rougeLsum"])


def test_rouge_score_tokenizer_is_byte_identical(corpora):
    rows = corpora.rows("en_cnndm_realsumm") + corpora.rows("en_headlines_rougemetric")
    texts = {t for r in rows for t in [r["prediction"], *r["references"]]}
    for stem in (False, True):
        theirs = tokenizers.DefaultTokenizer(use_stemmer=stem)
        ours = resolve_tokenizer("rouge_score", stem)
        for text in texts:
            assert ours.tokenize(text) == theirs.tokenize(text)


def test_unicode_tokenizer_equals_rouge_score_on_ascii(corpora):
    rows = corpora.rows("en_cnndm_realsumm") + corpora.rows("en_headlines_rougemetric")
    theirs = tokenizers.DefaultTokenizer(use_stemmer=False)
    texts = {t for r in rows for t in [r["prediction"], *r["references"]] if t.isascii()}
    assert len(texts) > 2000
    for text in texts:
        assert unicode_tokenize(text) == theirs.tokenize(text)
    # The same on synthetic ASCII with every printable character.
    printable = "".join(chr(c) for c in range(32, 127))
    assert unicode_tokenize(printable * 3) == theirs.tokenize(printable * 3)
    assert (
        unicode_tokenize("snake_case x-ray C3PO")
        == re.sub(r"[^a-z0-9]+", " ", "snake_case x-ray c3po").split()
    )
