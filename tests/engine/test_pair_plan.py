"""The per-call plan (``Encoder.pair_plan`` and :func:`rouge_lcs.engine.compute.pair_plan`):
its checks where it is made and where it is called, the inputs it hands to its fallback, and
the ids of one call (no stemmer: numbered within the call, not from the vocabulary) against
rouge_score on texts that take each of the text stage's ways: ASCII, Latin-1 (lowered by
CPython), wider strings (the general scan), long tokens (more than one hash word), many
repeated tokens, several references and sentence splits."""

from __future__ import annotations

import gc
from array import array

import pytest
from rouge_score import rouge_scorer as oracle_scorer

from rouge_lcs.config.settings import make_settings
from rouge_lcs.dropins import rouge_scorer
from rouge_lcs.engine import compute, native
from rouge_lcs.scores.results import Score

pytestmark = pytest.mark.usefixtures("engine")

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]

TEXTS = [
    ("The cat sat on the mat.", "A cat sat on a mat!"),
    ("Caf\u00e9 \u00c9T\u00c9 na\u00efve", "caf\u00e9 \u00e9t\u00e9 NA\u00cfVE cafe"),  # Latin-1
    ("curly \u2019quotes\u2019 and \u2014 dashes", "curly quotes and dashes \u2019"),  # UCS-2
    ("emoji \U0001f600 text", "text emoji \U0001f600"),  # UCS-4
    ("KELVIN \u212a sign", "k sign kelvin"),  # lowers to ASCII "k"
    ("supercalifragilistic expialidocious x", "x supercalifragilistic expialidociouz"),
    ("a " * 300 + "b", "a b " * 200),
    ("one.\ntwo three.\nfour", "two three.\none\nfour five"),
    ("", "a b"),
    ("a b", ""),
    ("...", "!!!"),
]


@pytest.mark.parametrize("use_stemmer", [False, True], ids=["nostem", "stem"])
@pytest.mark.parametrize("types", [["rougeL"], TYPES], ids=["L", "four"])
def test_plans_equal_rouge_score_on_every_way_of_the_text_stage(types, use_stemmer):
    ours = rouge_scorer.RougeScorer(types, use_stemmer=use_stemmer)
    theirs = oracle_scorer.RougeScorer(types, use_stemmer=use_stemmer)
    for _ in range(2):  # the second round on the kept plan, its tables emptied in between
        for target, prediction in TEXTS:
            assert ours.score(target, prediction) == theirs.score(target, prediction)
            assert ours.score(prediction, target) == theirs.score(prediction, target)
    targets = [t for t, _ in TEXTS]
    for _, prediction in TEXTS:
        assert ours.score_multi(targets, prediction) == theirs.score_multi(targets, prediction)


def test_a_long_text_goes_to_the_fallback_with_the_same_numbers():
    # more characters than the per-call kernel takes (PAIR_MAX_CHARS): the batch kernel
    long = "the cat sat on the mat " * 3000
    ours = rouge_scorer.RougeScorer(TYPES)
    theirs = oracle_scorer.RougeScorer(TYPES)
    assert ours.score(long, "the cat sat") == theirs.score(long, "the cat sat")
    assert ours.score("a cat", "a cat") == theirs.score("a cat", "a cat")


def _plan(fallback=None, names=("rouge1", "rougeL"), make=Score, tuple_new=True):
    settings = make_settings(["rouge1", "rougeL"], tokenizer="rouge_score")
    return compute.pair_plan(
        settings, names, make, tuple_new, fallback or (lambda p, r: ("fallback", p, r))
    )


def test_a_plan_hands_what_it_does_not_take_to_its_fallback():
    plan = _plan()
    assert plan("a b", ["a c"]) == {
        "rouge1": Score(0.5, 0.5, 0.5),
        "rougeL": Score(0.5, 0.5, 0.5),
    }
    assert type(plan("a b", ["a c"])["rouge1"]) is Score

    class Text(str):
        pass

    for prediction, references in [
        (Text("a"), ["a"]),
        ("a", [Text("a")]),
        ("a", ("a",)),  # a tuple: the list is what the plan takes
        ("a", []),
        (b"a", ["a"]),
        ("a", [1, 2]),
        (None, None),
    ]:
        assert plan(prediction, references) == ("fallback", prediction, references)
    with pytest.raises(TypeError):
        plan("a")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        plan("a", ["a"], extra=1)  # type: ignore[call-arg]


def test_a_plan_builds_values_with_make_when_not_a_tuple_type():
    plan = _plan(make=lambda p, r, f: (round(f, 3),), tuple_new=False)
    assert plan("a b c", ["a c"]) == {"rouge1": (0.8,), "rougeL": (0.8,)}


@pytest.mark.skipif(not native.available(), reason="the compiled extension is not built")
def test_the_c_plan_checks_its_settings_when_made(monkeypatch):
    monkeypatch.setenv(native.ENV, "native")
    encoder = native._native.Encoder(native._native.MODE_ROUGE_SCORE, None, None)
    types = array("q", [0, 1, 1, 0])  # rouge1, rougeL

    def make(**changes):
        args = {
            "types": types, "mode": 0, "beta": 1.0, "split_mode": -1, "splitter": None,
            "names": ("rouge1", "rougeL"), "make": Score, "tuple_new": True,
            "fallback": print, "max_chars": 1000, "max_ids": 10,
        }  # fmt: skip
        args.update(changes)
        return encoder.pair_plan(*args.values())

    assert make()("a", ["a"])["rouge1"] == Score(1.0, 1.0, 1.0)
    for changes, error in [
        ({"names": ("rouge1",)}, ValueError),
        ({"names": ["rouge1", "rougeL"]}, TypeError),
        ({"names": ("rouge1", 2)}, TypeError),
        ({"types": array("q", [0, 1, 1])}, ValueError),
        ({"types": array("q", [9, 1, 1, 0])}, ValueError),
        ({"types": array("q", [0, 0, 1, 0])}, ValueError),
        ({"types": array("i", [0, 1, 1, 0])}, ValueError),
        ({"types": array("q", [2, 0, 1, 0])}, ValueError),  # ROUGE-Lsum without a split
        ({"mode": 7}, ValueError),
        ({"beta": float("nan")}, ValueError),
        ({"beta": 0.0}, ValueError),
        ({"make": 3}, TypeError),
        ({"make": dict, "tuple_new": True}, TypeError),
        ({"fallback": None}, TypeError),
    ]:
        with pytest.raises(error):
            make(**changes)
    # the encoder's vocabulary past max_ids (3 ids: a, b, c > 2): NotImplemented, so that
    # the caller renews it
    stemmed = native._native.Encoder(native._native.MODE_ROUGE_SCORE, None, native.stem)
    plan = stemmed.pair_plan(*[types, 0, 1.0, -1, None, ("rouge1", "rougeL"), Score, True,
                               print, 1000, 2])  # fmt: skip
    assert plan("a b c", ["a b"])["rouge1"].fmeasure == pytest.approx(0.8)
    assert plan("d e f", ["a"]) is NotImplemented
    # more characters than max_chars together: the fallback
    short = make(max_chars=6, fallback=lambda p, r: "long")
    assert short("abc", ["abc"]) != "long"
    assert short("abc", ["abcd"]) == "long"


def test_a_scorer_renews_its_plan_when_the_store_is_full(monkeypatch):
    monkeypatch.setattr(compute, "STORE_LIMIT", 5)
    ours = rouge_scorer.RougeScorer(["rouge1"], use_stemmer=True)  # a vocabulary that grows
    theirs = oracle_scorer.RougeScorer(["rouge1"], use_stemmer=True)
    pairs = [(f"w{k} x{k} y{k}", f"w{k} z{k}") for k in range(10)]
    assert [ours.score(t, p) for t, p in pairs] == [theirs.score(t, p) for t, p in pairs]


def test_a_plan_and_its_scorer_are_collected():
    import weakref

    ours = rouge_scorer.RougeScorer(["rouge1"])
    ours.score("a", "a")  # the plan refers back to the scorer (its fallback)
    ref = weakref.ref(ours)
    del ours
    gc.collect()
    assert ref() is None


# ------------------------------------------------------------------------------------------
# The scores plan (``Encoder.scores_plan``, :func:`rouge_lcs.engine.compute.scores_plan`):
# ``Rouge.score`` / ``rouge_lcs.score`` / ``rouge`` of a batch of one example.


def _scores_plan(fallback):
    settings = make_settings(["rouge1", "rougeL"], tokenizer="rouge_score")
    return compute.scores_plan(
        settings,
        lambda counts, p, r, f: (counts.tolist(), p.tolist(), r.tolist(), f.tolist()),
        fallback,
    )


def test_a_scores_plan_takes_a_batch_of_one_example_and_hands_on_the_rest():
    def fallback(predictions, references):
        return ("fallback", predictions, references)

    plan = _scores_plan(fallback)
    if not native.active():  # the reference engine has no plan of its own: its fallback
        assert plan is fallback
        return
    # "a b" against "a c": 1 unigram hit of 2 and 2; LCS 1 of 2 and 2 (hand-worked)
    one = ([1, 2, 2, 1, 2, 2], [0.5, 0.5], [0.5, 0.5], [0.5, 0.5])
    assert plan(["a b"], ["a c"]) == one
    assert plan(("a b",), ("a c",)) == one
    assert plan(["a b"], [["a c"]]) == one
    assert plan(["a b"], [("a c",)]) == one
    # two references: each one's counts, the best F of each type ("a b" is exact: 1.0)
    assert plan(["a b"], [["a c", "a b"]]) == (
        [1, 2, 2, 1, 2, 2, 2, 2, 2, 2, 2, 2],
        [1.0, 1.0],
        [1.0, 1.0],
        [1.0, 1.0],
    )

    class Text(str):
        pass

    for predictions, references in [
        ([Text("a")], ["a"]),
        (["a"], [Text("a")]),
        (["a"], [[Text("a")]]),
        (["a"], [[]]),
        ([], []),
        (["a", "b"], ["a", "b"]),
        ("a", "a"),
        (["a"], "a"),
        ([b"a"], ["a"]),
        ([1], [[1]]),
        ([["a"]], ["a"]),
        (["a"], [{"a"}]),
        (None, None),
    ]:
        assert plan(predictions, references) == ("fallback", predictions, references)


@pytest.mark.skipif(not native.available(), reason="the compiled extension is not built")
def test_the_c_scores_plan_checks_its_units_and_what_make_gives():
    encoder = native._native.Encoder(native._native.MODE_ROUGE_SCORE, None, None)
    types = array("q", [0, 1, 1, 0])  # rouge1, rougeL

    def make(**changes):
        args = {
            "types": types, "mode": 0, "beta": 1.0, "split_mode": -1, "splitter": None,
            "make": lambda c, p, r, f: (c, p, r, f), "fallback": print, "max_chars": 1000,
            "max_ids": 10, "count_unit": array("q", [0] * 6), "float_unit": array("d", [0.0] * 2),
        }  # fmt: skip
        args.update(changes)
        return encoder.scores_plan(*args.values())

    counts, p, r, f = make()(["a"], ["a"])
    assert (counts.typecode, counts.tolist()) == ("q", [1, 1, 1, 1, 1, 1])
    assert [v.tolist() for v in (p, r, f)] == [[1.0, 1.0]] * 3
    # every call gives new arrays: the plan's own buffers are not handed out
    plan = make()
    first = plan(["a"], ["a"])
    assert plan(["b c"], ["d"])[0] is not first[0] and first[0].tolist() == [1] * 6
    for changes, error in [
        ({"count_unit": array("q", [0] * 5)}, ValueError),
        ({"count_unit": array("d", [0.0] * 6)}, TypeError),
        ({"count_unit": array("i", [0] * 12)}, TypeError),
        ({"count_unit": bytearray(48)}, TypeError),  # a buffer of bytes, not 8-byte items
        ({"count_unit": [0] * 6}, TypeError),
        ({"float_unit": array("d", [0.0] * 3)}, ValueError),
        ({"float_unit": array("q", [0] * 2)}, TypeError),
        ({"float_unit": None}, TypeError),
        ({"make": 3}, TypeError),
        ({"fallback": None}, TypeError),
        ({"types": array("q", [0, 1, 1])}, ValueError),
        ({"mode": -1}, ValueError),
    ]:
        with pytest.raises(error):
            make(**changes)

    # what make raises reaches the caller, and the plan is whole afterwards
    def broken(*values):
        raise RuntimeError("make failed")

    plan = make(make=broken)
    for _ in range(2):
        with pytest.raises(RuntimeError, match="make failed"):
            plan(["a"], ["a"])
    assert make()(["a b"], ["a"])[1].tolist() == [0.5, 0.5]
