"""Counting checked against the original Perl ROUGE-1.5.5 (gold shipped in ../shared/data).

ROUGE-1.5.5 prints 5 decimals (truncated or rounded), so values agree to 1e-5 (F to 2e-5: the
Perl script derives F in its own float order).  With several references ROUGE-1.5.5 pools hits and
lengths over references (``-f A``), which is our ``multi_ref="pooled"``; its ROUGE-L over SPL
input (one sentence a line) is our ROUGE-Lsum with newline sentences.  The option set used is
``B_pyrouge_default`` (no stemming: ROUGE-1.5.5's own Porter stemmer differs from NLTK's, as
rouge_score's documentation says too).  Korean gold was made by ROUGE-1.5.5 on mapped token ids
with two documented token rules, which we pass as custom tokenizers.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from rouge_lcs import score

# Every test here runs on both engines (numbers must be bit-identical).
pytestmark = pytest.mark.usefixtures("engine")

TYPES = ["rouge1", "rouge2", "rouge3", "rouge4", "rougeLsum"]
GOLD_NAMES = ["ROUGE-1", "ROUGE-2", "ROUGE-3", "ROUGE-4", "ROUGE-L"]


def ko_word(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def cjk_char(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+|[^\W_a-z0-9]", text.lower())


def _check(corpora, corpus: str, gold_key: str, tokenizer) -> int:
    rows = corpora.rows(corpus)
    gold = corpora.gold(corpus)
    if "prediction_sents" in rows[0]:
        preds = ["\n".join(r["prediction_sents"]) for r in rows]
        refs = [["\n".join(s) for s in r["references_sents"]] for r in rows]
    else:
        preds = [r["prediction"] for r in rows]
        refs = [r["references"] for r in rows]
    ours = score(preds, refs, TYPES, tokenizer=tokenizer, multi_ref="pooled", lsum_split="newline")
    compared = 0
    for i, row in enumerate(rows):
        expected = gold[row["id"]].get(gold_key)
        if expected is None:  # ROUGE-1.5.5 cannot score an empty reference
            continue
        compared += 1
        for k, name in enumerate(GOLD_NAMES):
            recall, precision, fmeasure = expected[name]
            got = (ours.recall[i, k], ours.precision[i, k], ours.fmeasure[i, k])
            assert np.allclose(got[:2], (recall, precision), rtol=0, atol=1.0001e-5), (
                row["id"],
                name,
                expected[name],
                got,
            )
            assert abs(got[2] - fmeasure) <= 2.0001e-5, (row["id"], name, expected[name], got)
    return compared


@pytest.mark.parametrize(
    "corpus", ["en_headlines_rougemetric", "en_cnndm_chen2018_sacrerouge", "en_cnndm_realsumm"]
)
def test_english_against_rouge155(corpora, corpus):
    assert _check(corpora, corpus, "B_pyrouge_default", "rouge_score") > 0


@pytest.mark.parametrize(
    "corpus", ["ko_klue_sts_dev", "ko_mt_wmt20_korsacrebleu_sample", "ko_question_pair"]
)
@pytest.mark.parametrize("rule", [ko_word, cjk_char], ids=["ko_word", "cjk_char"])
def test_korean_counting_against_rouge155(corpora, corpus, rule):
    assert _check(corpora, corpus, f"{rule.__name__}:B_pyrouge_default", rule) > 0
