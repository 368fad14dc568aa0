"""The reproducibility signature names every setting that changes a score."""

from __future__ import annotations

import pytest

from rouge_lcs import rouge, score

PREDS = [
    "Dogs bark. Cats sleep.\nBirds sing while the cats were running.",
    "A b c d e f",
    "서울은 수도이다. 인구는 많다.",
]
REFS = [
    ["Cats sleep. Dogs bark.\nBirds sing; the cat runs.", "A cat ran."],
    ["a b c d e f g h", "a"],
    ["인구는 많다. 서울은 수도이다."],
]
BASE = dict(use_stemmer=False, tokenizer="unicode", lsum_split="auto", multi_ref="max_f", beta=1.0)


def _run(**overrides):
    options = {**BASE, **overrides}
    return rouge(PREDS, REFS, return_signature=True, **options)


def test_default_signature_text():
    sig = _run()["signature"]
    assert sig.startswith("rouge_lcs:v")
    for part in [
        "tok:unicode-18.0.0",
        "norm:nfkc",
        "case:lower",
        "stem:no",
        "lsum:auto-",
        "multi:max_f",
        "beta:1",
        "refs:1-2",
        "agg:mean",
    ]:
        assert part in sig.split("|") or sig.count(part) == 1


def test_same_signature_same_numbers():
    first, second = _run(), _run()
    assert first == second


@pytest.mark.parametrize(
    "change",
    [
        dict(use_stemmer=True),
        dict(tokenizer="rouge_score"),
        dict(tokenizer="whitespace"),
        dict(lsum_split="newline"),
        dict(lsum_split="nltk"),
        dict(multi_ref="pooled"),
        dict(multi_ref="mean"),
        dict(multi_ref="max_recall"),
        dict(beta=1.2),
    ],
)
def test_every_option_that_changes_a_score_changes_the_signature(change):
    base, changed = _run(), _run(**change)
    scores_differ = any(base[k] != changed[k] for k in base if k != "signature")
    assert scores_differ, f"{change} should change a score on this data"
    assert base["signature"] != changed["signature"]


def test_number_of_references_aggregation_and_interval_are_named():
    one_ref = rouge(PREDS, [r[0] for r in REFS], return_signature=True)["signature"]
    two_refs = rouge(PREDS[:2], REFS[:2], return_signature=True)["signature"]
    assert "|refs:2|" in two_refs
    assert "|refs:1|" in one_ref
    per_example = rouge(PREDS, REFS, use_aggregator=False, return_signature=True)["signature"]
    assert "|agg:none" in per_example
    ci = rouge(PREDS, REFS, confidence_level=0.9, n_resamples=200, seed=3, return_signature=True)[
        "signature"
    ]
    assert ci.endswith("|ci:bootstrap-0.9-n200-seed3")


def test_custom_tokenizer_is_marked():
    def chars(text):
        return list(text)

    sig = rouge(["ab"], ["ab"], tokenizer=chars, return_signature=True)["signature"]
    assert "tok:custom:chars" in sig and "norm:custom" in sig


def test_token_ids_name_no_text_option_but_their_own():
    import numpy as np

    from rouge_lcs import Rouge

    ids = rouge([[1, 2, 3]], [[[1, 3], [2]]], return_signature=True)["signature"]
    parts = ids.split("|")
    assert parts[1:4] == ["tok:ids", "pad:none", "lsum:end-ids-none"]
    for text_part in ("unicode", "norm:", "case:", "stem:", "auto-"):
        assert text_part not in ids
    assert parts[-3:] == ["beta:1", "refs:2", "agg:mean"]
    set_ = rouge(
        np.array([[1, 2, 0]]), [[1, 3]], return_signature=True, pad_id=0, sentence_end_ids=[9, 3]
    )["signature"]
    assert "|tok:ids|pad:0|lsum:end-ids-3.9|" in set_
    # the padding id changes scores of padded batches: a signature apart
    assert rouge([[1, 2, 3]], [[1]], return_signature=True, pad_id=2)["signature"] != ids
    # the same scorer names its text options for texts
    scorer = Rouge(pad_id=0)
    assert "tok:unicode" in scorer.compute(["a b"], ["a"], return_signature=True)["signature"]
    assert "tok:ids|pad:0|" in scorer.compute([[1]], [[1]], return_signature=True)["signature"]
    assert scorer.signature(ids=True).split("|")[1:3] == ["tok:ids", "pad:0"]


def test_the_signature_says_which_rouge_w_ran():
    # Identical 4-word texts: Lin's weighted LCS gives recall 1 (WLCS = f(4), R = f⁻¹(f(4) /
    # f(4))); ROUGE-1.5.5 prints 0.75786 = 4 ** -0.2 (R = f⁻¹(f(4) / f(4) ** 1.2), its weight
    # applied twice), hand-worked from the script's formula with f(k) = k ** 1.2.
    text = ["the cat sat down"]
    assert score(text, [text], ["rougeW"]).recall[0, 0] == 1.0
    lin = rouge(text, [text], ["rougeW"], return_signature=True)
    assert "wlcs:lin" in lin["signature"].split("|")
    script = rouge(text, [text], ["rougeW"], compat="rouge155", return_signature=True)
    assert script["rouge_w_1.2_recall"] == round(4**-0.2, 5) == 0.75786
    assert "wlcs:rouge155" in script["signature"].split("|")
    # without a ROUGE-W type the signatures stay as they were
    for sig in (
        _run()["signature"],
        rouge(text, [text], ["rouge1"], compat="rouge155", return_signature=True)["signature"],
    ):
        assert "wlcs:" not in sig
