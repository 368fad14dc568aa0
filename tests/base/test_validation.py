"""Bad input: one clear error that names the argument and what was expected."""

from __future__ import annotations

import pytest

from rouge_lcs import rouge, score
from rouge_lcs.base.validation import check_texts

# Every test here runs on both engines (numbers must be bit-identical).
pytestmark = pytest.mark.usefixtures("engine")


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        (dict(predictions=["a"], references=["a", "b"]), ValueError, "same length"),
        (dict(predictions=[None], references=["a"]), TypeError, r"predictions\[0\]: expected str"),
        (dict(predictions=["a", 3], references=["a", "b"]), TypeError, r"predictions\[1\]"),
        (dict(predictions=["a"], references=[None]), TypeError, r"references\[0\]"),
        (dict(predictions=["a"], references=[["a", None]]), TypeError, r"references\[0\]\[1\]"),
        (
            dict(predictions=["a"], references=[[]]),
            ValueError,
            r"references\[0\]: expected at least one reference",
        ),
        (
            dict(predictions=[], references=[]),
            ValueError,
            "predictions: expected at least one prediction",
        ),
        (dict(predictions="abc", references=["a"]), TypeError, "predictions: expected a list"),
        (dict(predictions=["a"], references="a"), TypeError, "references: expected a list"),
        (dict(rouge_types=["rougeQ"]), ValueError, "rouge_types: expected 'rouge1'.*got 'rougeQ'"),
        (dict(rouge_types=[]), ValueError, r"rouge_types: expected at least one .*got \[\]"),
        (dict(beta=0), ValueError, "beta: expected a finite number > 0"),
        (dict(beta=-1.0), ValueError, "beta"),
        (dict(beta=float("nan")), ValueError, "beta"),
        (dict(beta="1"), TypeError, "beta"),
        (dict(multi_ref="best"), ValueError, "multi_ref: expected one of .*, got 'best'"),
        (dict(lsum_split="words"), ValueError, "lsum_split: expected one of"),
        (dict(tokenizer="bert"), ValueError, "tokenizer: expected one of"),
        (dict(use_stemmer="yes"), TypeError, "use_stemmer"),
        (dict(use_aggregator=None), TypeError, "use_aggregator"),
        (dict(return_precision_recall=1), TypeError, "return_precision_recall"),
    ],
)
def test_bad_input(kwargs, error, message):
    args = dict(predictions=["a b"], references=["a b"])
    args.update(kwargs)
    with pytest.raises(error, match=message):
        rouge(**args)


class _Odd(str):
    """A str subclass with its own split() and lower(): not the text's characters."""

    def split(self, *args, **kwargs):
        return ["zzz"]

    def lower(self):
        return "zzz"


def test_str_subclasses_are_scored_as_their_characters():
    # ROUGE is a function of the characters; evaluate's Arrow storage made plain str of them too.
    plain = score(["Ab cd ef"], [["ab cd", "x"]], ["rouge1"], tokenizer="whitespace")
    odd = score([_Odd("Ab cd ef")], [[_Odd("ab cd"), "x"]], ["rouge1"], tokenizer="whitespace")
    assert odd.fmeasure.tolist() == plain.fmeasure.tolist()
    batch = check_texts([_Odd("a")], [_Odd("b")])
    assert type(batch.predictions[0]) is str and type(batch.references[0][0]) is str


@pytest.mark.usefixtures("engine")
def test_one_reference_each_is_kept_flat_and_scores_the_same():
    from rouge_lcs.base.validation import TextBatch
    from rouge_lcs.config.settings import make_settings
    from rouge_lcs.engine.compute import compute_stats

    preds = ["the cat sat", "a dog ran far", "the cat sat", ""]
    refs = ["the cat sat down", "dogs run", "a cat", "x"]
    batch = check_texts(preds, refs)
    assert batch.single == refs and batch.references == [[r] for r in refs]
    assert batch.slice(1, 3).single == refs[1:3]
    nested = check_texts(preds, [[r] for r in refs])  # evaluate's shape: the same batch
    assert nested.single == refs and nested.references == batch.references
    assert check_texts(preds, [refs[0], [refs[1], "b"], refs[2], refs[3]]).single is None
    two = check_texts(preds, [[r, "b"] for r in refs])
    assert two.single is None and two.references == [[r, "b"] for r in refs]
    settings = make_settings(["rouge1", "rouge2", "rougeL", "rougeLsum"])
    flat = compute_stats(batch, settings)
    unknown = compute_stats(TextBatch(batch.predictions, batch.references), settings)
    assert flat.counts.tolist() == unknown.counts.tolist()
    assert flat.n_refs.tolist() == unknown.n_refs.tolist() == [1, 1, 1, 1]
    # hand-worked: "the cat sat" vs "the cat sat down": ROUGE-1 hits 3 of 3 and 4
    assert flat.counts[0, 0].tolist() == [3, 3, 4]


@pytest.mark.parametrize(
    ("predictions", "references", "message"),
    [
        # past the first block of texts that are encoded together, in a reference list
        (["ok é"] * 3000, ["x"] * 2999 + [["y", "z \udfff"]], r"references\[2999\]\[1\]"),
        # the two halves of a surrogate pair in two texts: each half alone is refused
        (["ä \ud83d", "b"], ["\ude00 c", "d"], r"predictions\[0\]: .*U\+D83D at character 2"),
        (["a", "b"], ["c \ud800", "d"], r"references\[0\]\[0\]: .*U\+D800"),
    ],
)
def test_text_evaluate_cannot_store_is_named(predictions, references, message):
    from rouge_lcs.base.validation import check_utf8

    with pytest.raises(ValueError, match=message):
        check_utf8(check_texts(predictions, references))
    batch = check_texts(["ok é 한국어"] * 3000, [["x", "y 😀"]] * 3000)
    assert check_utf8(batch) is batch
